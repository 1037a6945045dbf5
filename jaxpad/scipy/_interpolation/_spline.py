"""B-splines of orders 0-5: the interpolation weights and scipy's prefilter.

The prefilter (``spline_filter1d``) turns samples into the coefficients of the
B-spline that interpolates them. scipy runs it as a recursive filter, one causal and
one anticausal pass per pole, started from each mode's exact initial conditions
(``ni_splines.c``). Its impulse response on an infinite line is symmetric and decays as
the pole's powers, so here it is a truncated symmetric FIR applied to the samples
padded in the mode the recursion assumed: the taps end where the rest of the response
sums below the dtype's rounding (``fir_taps``), so the result equals the recursion's to
that rounding, in float32 and float64, and it stays a correlation (parallel, linear,
its transpose a correlation again) where the recursion is a sequential scan.
"""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import dtypes
from jax.typing import ArrayLike

import jaxpad
from jaxpad.scipy._interpolation import _args, _modes
from jaxpad.scipy._linear import _taps

# scipy's poles (ni_splines.c, get_filter_poles), in closed form.
POLES = {
    0: (),
    1: (),
    2: (np.sqrt(8.0) - 3.0,),
    3: (np.sqrt(3.0) - 2.0,),
    4: (
        np.sqrt(664.0 - np.sqrt(438976.0)) + np.sqrt(304.0) - 19.0,
        np.sqrt(664.0 + np.sqrt(438976.0)) - np.sqrt(304.0) - 19.0,
    ),
    5: (
        np.sqrt(67.5 - np.sqrt(4436.25)) + np.sqrt(26.25) - 6.5,
        np.sqrt(67.5 + np.sqrt(4436.25)) - np.sqrt(26.25) - 6.5,
    ),
}

# Long enough that the largest pole's powers (0.43 ** 300) are far below float64's.
_SUPPORT = 300


@functools.cache
def fir_taps(order: int, dtype_name: str) -> np.ndarray:
    """The prefilter's impulse response ``h[0], h[1], ..., h[K]`` (symmetric:
    ``h[-k] = h[k]``), cut where the dropped taps' absolute sum falls below half the
    dtype's epsilon (float32: 14, 14, 19, 23 taps a side for orders 2-5; float64:
    22, 30, 39, 47).

    Each pole ``z`` contributes ``(1 - z) / (1 + z) * z ** |k|`` (scipy's gain times
    its causal and anticausal passes); the poles' responses convolve."""
    k = np.arange(-_SUPPORT, _SUPPORT + 1)
    h = np.zeros(2 * _SUPPORT + 1)
    h[_SUPPORT] = 1.0
    for z in POLES[order]:
        h = np.convolve(h, (1 - z) / (1 + z) * z ** np.abs(k.astype(np.float64)), mode="same")
    side = np.abs(h[_SUPPORT + 1 :])
    tails = np.cumsum(side[::-1])[::-1]  # tails[j]: the sum over k > j
    eps = float(np.finfo(np.dtype(dtype_name)).eps)
    taps = int(np.argmax(2.0 * tails <= eps))
    return h[_SUPPORT : _SUPPORT + taps + 1].copy()


def correlate_axis(x, taps: np.ndarray, axis: int):
    """The symmetric FIR ``taps`` along ``axis`` of ``x``, which holds ``K = len(taps)
    - 1`` more samples before the output's first and after its last: a 'valid'
    correlation, as the linear filters' ``jaxpad_scipy_taps`` primitive, whose
    transpose is the same correlation of the zero-padded cotangent (left to JAX, each
    of the ``2K + 1`` slices transposes to a zero pad of the whole array: the input VJP
    of ``spline_filter`` took 125x its forward)."""
    k_max = len(taps) - 1
    shape = [1] * x.ndim
    shape[axis] = 2 * k_max + 1
    weights = np.concatenate([taps[:0:-1], taps]).reshape(shape)
    out_shape = list(x.shape)
    out_shape[axis] -= 2 * k_max
    return _taps.taps(x, weights, tuple(out_shape))


def prefilter_padded(x, order: int, axes, mode: str, extra: int):
    """The spline coefficients of ``x`` along ``axes`` (prefilter extension ``mode``, a
    jaxpad mode), each of those axes extended by ``extra`` coefficients a side in the
    same mode. ``x`` is inexact."""
    taps = fir_taps(order, np.dtype(x.real.dtype).name)
    k_max = len(taps) - 1
    for axis in axes:
        if x.shape[axis] <= 1:
            # scipy leaves a line of one sample as it is (NI_SplineFilter1D: len > 1).
            if extra:
                x = _pad_axis(x, axis, extra, mode)
            continue
        x = _pad_axis(x, axis, k_max + extra, mode)
        x = correlate_axis(x, taps, axis)
    return x


def _pad_axis(x, axis: int, width: int, mode: str, value=None):
    lo = [0] * x.ndim
    lo[axis] = width
    return jaxpad.pad(x, lo, lo, mode, value)


# -- the weights -------------------------------------------------------------------


def weights(frac, order: int):
    """The ``order + 1`` B-spline weights of the taps ``start, ..., start + order``
    at a point ``frac`` past the base tap (``start + order // 2``), as a list of arrays
    shaped like ``frac``. Odd orders take ``0 <= frac <= 1``, even ones
    ``-1/2 <= frac <= 1/2``. scipy's polynomials (ni_splines.c); the last weight is
    ``1`` less the others, as scipy's."""
    x = frac
    if order == 0:
        return [jnp.ones_like(x)]
    if order == 1:
        w = [1.0 - x]
    elif order == 2:
        y = 0.5 - x
        w = [0.5 * y * y, 0.75 - x * x]
    elif order == 3:
        z = 1.0 - x
        w = [
            z * z * z / 6.0,
            (x * x * (x - 2.0) * 3.0 + 4.0) / 6.0,
            (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0,
        ]
    elif order == 4:
        t = x * x
        y = 1.0 + x
        z = 1.0 - x
        u = 0.5 - x
        w = [
            u * u * u * u / 24.0,
            y * (y * (y * (5.0 - y) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0,
            t * (t * 0.25 - 0.625) + 115.0 / 192.0,
            z * (z * (z * (5.0 - z) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0,
        ]
    elif order == 5:
        z = 1.0 - x
        t, s = x * x, z * z
        y1, z1 = x + 1.0, z + 1.0
        w = [
            z * s * s / 120.0,
            y1 * (y1 * (y1 * (y1 * (y1 / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425,
            t * (t * (0.25 - x / 12.0) - 0.5) + 0.55,
            s * (s * (0.25 - z / 12.0) - 0.5) + 0.55,
            z1 * (z1 * (z1 * (z1 * (z1 / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425,
        ]
    else:  # pragma: no cover - checked by the callers
        raise AssertionError(order)
    last = 1.0 - w[0]
    for wi in w[1:]:
        last = last - wi
    return [*w, last]


# -- the public prefilters ---------------------------------------------------------


def check_order(fn_name: str, order: object, low: int = 0) -> int:
    if isinstance(order, (bool, np.bool_)) or not isinstance(order, (int, np.integer)):
        raise TypeError(f"{fn_name}: order must be an int from {low} to 5; got {order!r}.")
    if not low <= int(order) <= 5:
        raise ValueError(f"{fn_name}: order must be from {low} to 5; got {order!r}.")
    return int(order)


def compute_dtype(dtype) -> np.dtype:
    """The inexact dtype the spline is computed in for inputs of ``dtype``: inexact
    dtypes of at least 32 bits as they are, anything else as float32 (float64 with
    x64), as scipy computes in float64."""
    dtype = np.dtype(dtype)
    if jnp.issubdtype(dtype, jnp.complexfloating):
        return np.dtype(jnp.promote_types(dtype, jnp.complex64))
    if jnp.issubdtype(dtype, jnp.floating):
        return np.dtype(jnp.promote_types(dtype, jnp.float32))
    return np.dtype(dtypes.canonicalize_dtype(np.float64))


def spline_filter1d(
    input: ArrayLike, order: int = 3, axis: int = -1, output: Any = np.float64, mode: str = "mirror"
) -> jax.Array:
    """The 1-D B-spline prefilter along ``axis``, as ``scipy.ndimage.spline_filter1d``.

    The coefficients of the spline of ``order`` that interpolates ``input`` along
    ``axis``, the line extended beyond its ends as ``mode`` says (scipy's prefilter
    boundaries: whole-sample symmetric for ``"mirror"``, ``"constant"``,
    ``"grid-constant"`` and ``"wrap"``; half-sample symmetric for ``"reflect"``,
    ``"grid-mirror"`` and ``"nearest"``; periodic for ``"grid-wrap"``). Orders 0 and 1
    return ``input`` as it is. Computed as a symmetric FIR of the recursion's impulse
    response, cut at the dtype's rounding.

    Args:
      input: the array; complex inputs filter their real and imaginary parts.
      order: the spline order, 0 to 5.
      axis: the axis to filter.
      output: the dtype of the result (default float64, float32 without x64); an
        array is rejected, since JAX arrays cannot be written in place.
      mode: one of scipy's interpolation modes (above).

    Returns:
      The coefficients, of the output dtype (complex for a complex input).

    Example:
      >>> import jax.numpy as jnp
      >>> from jaxpad.scipy.ndimage import spline_filter1d
      >>> spline_filter1d(jnp.array([0.0, 0.0, 6.0, 0.0, 0.0]), order=3).round(4)
      Array([ 1.5, -3. , 10.5, -3. ,  1.5], dtype=float32)
    """
    fn = _args.PREFIX + "spline_filter1d"
    order = check_order(fn, order)
    spec = _modes.check_mode(fn, mode)
    x = _args.as_input(fn, input)
    complex_in = bool(jnp.issubdtype(x.dtype, jnp.complexfloating))
    out_dtype = _args.output_dtype(fn, output, np.float64, complex_in)
    axis = _axis(fn, axis, x.ndim)
    if order < 2 or x.ndim == 0:
        return _args.cast_output(x, out_dtype) if x.dtype != out_dtype else x
    x = x.astype(compute_dtype(x.dtype))
    return _args.cast_output(prefilter_padded(x, order, (axis,), spec.prefilter, 0), out_dtype)


def spline_filter(
    input: ArrayLike, order: int = 3, output: Any = np.float64, mode: str = "mirror"
) -> jax.Array:
    """The B-spline prefilter along every axis, as ``scipy.ndimage.spline_filter``.

    ``spline_filter1d`` along each axis in turn. scipy stores each pass in the output
    dtype; here the passes stay in the computing dtype and are cast once (the same
    numbers to the output's rounding, and nearer for integer outputs). scipy rejects
    orders 0 and 1 here; they return ``input`` as ``spline_filter1d`` does.

    Args:
      input: the array; complex inputs filter their real and imaginary parts.
      order: the spline order, 0 to 5.
      output: the dtype of the result (default float64, float32 without x64).
      mode: one of scipy's interpolation modes (see ``spline_filter1d``).

    Returns:
      The coefficients, of the output dtype (complex for a complex input).

    Example:
      >>> import jax.numpy as jnp
      >>> from jaxpad.scipy.ndimage import spline_filter
      >>> spline_filter(jnp.eye(3), order=2).round(4)
      Array([[ 2.2639, -1.125 ,  0.4861],
             [-1.125 ,  2.375 , -1.125 ],
             [ 0.4861, -1.125 ,  2.2639]], dtype=float32)
    """
    fn = _args.PREFIX + "spline_filter"
    order = check_order(fn, order)
    spec = _modes.check_mode(fn, mode)
    x = _args.as_input(fn, input)
    complex_in = bool(jnp.issubdtype(x.dtype, jnp.complexfloating))
    out_dtype = _args.output_dtype(fn, output, np.float64, complex_in)
    if order < 2 or x.ndim == 0:
        return _args.cast_output(x, out_dtype) if x.dtype != out_dtype else x
    x = x.astype(compute_dtype(x.dtype))
    axes = tuple(range(x.ndim))
    return _args.cast_output(prefilter_padded(x, order, axes, spec.prefilter, 0), out_dtype)


def _axis(fn: str, axis: Any, ndim: int) -> int:
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{fn}: axis must be an int; got {axis!r}.")
    if not -ndim <= int(axis) < max(ndim, 1):
        raise ValueError(f"{fn}: axis {axis!r} is out of range for an input of {ndim} axes.")
    return int(axis) % max(ndim, 1)
