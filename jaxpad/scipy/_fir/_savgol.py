"""``savgol_coeffs`` and ``savgol_filter``: the Savitzky-Golay filter as
``jaxpad.scipy.ndimage``'s padded correlation (``_correlate1d``: one pad and the
multiply-adds as one primitive, with its own transpose), and the ``interp`` ends as a
static least-squares matrix applied to the first and last ``window_length`` samples.

Every coefficient is computed in NumPy (float64) at trace time, as scipy computes it; a
traced ``delta`` scales the output by ``delta ** -deriv`` (the coefficients are linear
in ``1 / delta ** deriv``), so that the filter is differentiable in ``delta``.
"""

from __future__ import annotations

import functools
import math
import numbers
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad.scipy._args import _axis, _cval, _describe, _input, _unused_cval
from jaxpad.scipy._linear._correlate import _correlate1d

_PREFIX = "jaxpad.scipy.signal."
SAVGOL_MODES = ("mirror", "constant", "nearest", "wrap", "interp")


def _int(fn: str, name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{fn}: {name} must be an int; got {value!r}.")
    if value < minimum:
        raise ValueError(f"{fn}: {name} must be at least {minimum}; got {value}.")
    return int(value)


def _orders(fn: str, window_length: Any, polyorder: Any, deriv: Any) -> tuple[int, int, int]:
    window_length = _int(fn, "window_length", window_length, 1)
    polyorder = _int(fn, "polyorder", polyorder, 0)
    deriv = _int(fn, "deriv", deriv, 0)
    if polyorder >= window_length:
        raise ValueError(
            f"{fn}: polyorder must be less than window_length; got polyorder={polyorder} "
            f"and window_length={window_length}."
        )
    return window_length, polyorder, deriv


def _delta(fn: str, delta: Any) -> tuple[float, Any]:
    """(the static delta the coefficients are computed with, the traced delta or None)."""
    if isinstance(delta, (str, bytes)) or delta is None:
        raise TypeError(f"{fn}: delta must be a real number; got {delta!r}.")
    if np.ndim(delta) != 0:
        raise ValueError(f"{fn}: delta must be a scalar; got {_describe(delta)}.")
    if jnp.iscomplexobj(delta):
        raise TypeError(f"{fn}: delta must be real; got {delta!r}.")
    if isinstance(delta, jax.core.Tracer):
        return 1.0, delta
    return float(delta), None


def _coeffs(window_length: int, polyorder: int, deriv: int, delta: float, pos, use: str):
    """scipy.signal.savgol_coeffs in NumPy: the minimum-norm solution of the
    ``polyorder + 1`` moment conditions (LAPACK's gelsd, as scipy.linalg.lstsq)."""
    if deriv > polyorder:
        return np.zeros(window_length)
    x = np.arange(-pos, window_length - pos, dtype=np.float64)
    if use == "conv":
        x = x[::-1]
    a = x ** np.arange(polyorder + 1, dtype=np.float64).reshape(-1, 1)
    y = np.zeros(polyorder + 1)
    y[deriv] = math.factorial(deriv) / (delta**deriv)
    rcond = np.finfo(np.float64).eps * max(a.shape)
    return np.linalg.lstsq(a, y, rcond=rcond)[0]


def _position(fn: str, pos: Any, window_length: int) -> float:
    if pos is None:
        half, rem = divmod(window_length, 2)
        return half - 0.5 if rem == 0 else half
    if isinstance(pos, bool) or not isinstance(pos, numbers.Real):
        raise TypeError(f"{fn}: pos must be None or a number; got {pos!r}.")
    if not 0 <= float(pos) < window_length:
        raise ValueError(
            f"{fn}: pos must be nonnegative and less than window_length ({window_length}); "
            f"got {pos!r}."
        )
    return float(pos)


def savgol_coeffs(
    window_length: int,
    polyorder: int,
    deriv: int = 0,
    delta: Any = 1.0,
    pos: int | None = None,
    use: str = "conv",
) -> jax.Array:
    """The coefficients of a 1-D Savitzky-Golay FIR filter, as ``scipy.signal.savgol_coeffs``.

    Computed in NumPy (float64) at trace time; a traced ``delta`` scales them by
    ``delta ** -deriv``.

    Args:
      window_length: the number of coefficients, at least 1.
      polyorder: the order of the fitted polynomial, less than ``window_length``.
      deriv: the order of the derivative to compute (0: smoothing).
      delta: the sample spacing, read when ``deriv > 0``; may be traced.
      pos: the evaluation position within the window (default: its middle).
      use: ``"conv"`` (ordered for a convolution) or ``"dot"`` (reversed, to dot with
        the data).

    Returns:
      The coefficients, of the default float dtype (float64 with x64 enabled).

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import signal
      >>> np.round(np.asarray(signal.savgol_coeffs(5, 2)), 4)
      array([-0.0857,  0.3429,  0.4857,  0.3429, -0.0857], dtype=float32)
    """
    fn = _PREFIX + "savgol_coeffs"
    window_length, polyorder, deriv = _orders(fn, window_length, polyorder, deriv)
    position = _position(fn, pos, window_length)
    if use not in ("conv", "dot"):
        raise ValueError(f"{fn}: use must be 'conv' or 'dot'; got {use!r}.")
    static_delta, traced = _delta(fn, delta)
    c = _coeffs(window_length, polyorder, deriv, static_delta, position, use)
    out = jnp.asarray(c, jax.dtypes.canonicalize_dtype(np.float64))
    if traced is not None and 0 < deriv <= polyorder:
        out = out * jnp.asarray(traced, out.dtype) ** -deriv
    return out


def _edge_matrix(window_length: int, polyorder: int, deriv: int, delta: float, positions):
    """The map from a window of ``window_length`` samples to the ``deriv``-th derivative
    of their least-squares polynomial at ``positions`` (indices in the window), divided
    by ``delta ** deriv``: scipy's polyfit, polyder and polyval as one matrix. The fit
    runs in the variable ``u = (t - c) / s`` centred on the window, which is better
    conditioned than ``t`` and gives the same polynomial."""
    t = np.arange(window_length, dtype=np.float64)
    c = (window_length - 1) / 2.0
    s = max(c, 1.0)
    u = (t - c) / s
    powers = np.arange(polyorder + 1)
    vander = u[:, None] ** powers[None, :]
    fit = np.linalg.lstsq(vander, np.eye(window_length), rcond=None)[0]  # (p + 1, wl)
    ue = (np.asarray(positions, np.float64) - c) / s
    evaluate = np.zeros((len(ue), polyorder + 1))
    for k in range(deriv, polyorder + 1):
        factor = math.factorial(k) / math.factorial(k - deriv)
        evaluate[:, k] = factor * ue ** (k - deriv)
    return evaluate @ fit / (s**deriv * delta**deriv)


def _apply_matrix(matrix: np.ndarray, x: jax.Array, axis: int) -> jax.Array:
    m = jnp.asarray(matrix, x.dtype)
    y = jnp.tensordot(m, x, axes=[[1], [axis]], precision=lax.Precision.HIGHEST)
    return jnp.moveaxis(y, 0, axis)


@functools.partial(jax.custom_jvp, nondiff_argnums=(3,))
def _assemble(y: jax.Array, lo: jax.Array, hi: jax.Array, axis: int) -> jax.Array:
    """y with its ends along ``axis`` replaced by lo and hi, written in place (a
    concatenate copies y: savgol_filter(x, 31, 3) on float32 (64, 2^16) took 1.5x as
    long). Its tangent is the concatenate, whose transpose slices the cotangent, where
    the in-place update's writes zeros into a copy of it (the VJP took 1.7x as long)."""
    return _in_place(axis)(y, lo, hi)


def _update_ends(y, lo, hi, axis: int):
    y = lax.dynamic_update_slice_in_dim(y, lo, 0, axis)
    return lax.dynamic_update_slice_in_dim(y, hi, y.shape[axis] - hi.shape[axis], axis)


@functools.cache
def _in_place(axis: int):
    """``_update_ends`` along ``axis`` whose batching keeps the update in place, the
    batch one more axis: ``vmap`` of ``dynamic_update_slice`` is a scatter
    (vmapped savgol_filter(x, 31, 3) over float32 (64, 2^16) took 7.9 ms so, against
    3.8 for the batched call)."""
    update = jax.custom_batching.custom_vmap(functools.partial(_update_ends, axis=axis))

    @update.def_vmap
    def _batched(axis_size, in_batched, y, lo, hi):
        y, lo, hi = (
            v if batched else jnp.broadcast_to(v, (axis_size, *v.shape))
            for v, batched in zip((y, lo, hi), in_batched)
        )
        return _update_ends(y, lo, hi, axis + 1 if axis >= 0 else axis), True

    return update


@_assemble.defjvp
def _assemble_jvp(axis, primals, tangents):
    y, lo, hi = primals
    dy, dlo, dhi = tangents
    n, edge = y.shape[axis], lo.shape[axis]
    middle = lax.slice_in_dim(dy, edge, n - edge, axis=axis)
    return _assemble(y, lo, hi, axis), jnp.concatenate([dlo, middle, dhi], axis=axis)


def _compute_dtype(fn: str, x: jax.Array) -> Any:
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        raise TypeError(
            f"{fn}: x must be real (scipy drops the imaginary part with a ComplexWarning); "
            f"got dtype {x.dtype}."
        )
    if x.dtype in (np.float32, np.float64):
        return x.dtype
    return jax.dtypes.canonicalize_dtype(np.float64)


def savgol_filter(
    x: Any,
    window_length: int,
    polyorder: int,
    deriv: int = 0,
    delta: Any = 1.0,
    axis: int = -1,
    mode: str = "interp",
    cval: Any = 0.0,
) -> jax.Array:
    """A Savitzky-Golay filter along ``axis``, as ``scipy.signal.savgol_filter``.

    The filter is one padded correlation (the ends as ``jaxpad.pad`` modes, as
    ``jaxpad.scipy.ndimage.convolve1d``); in ``"interp"`` mode the ``window_length // 2``
    samples at each end come from the polynomial fitted to the first and last
    ``window_length`` samples, a static matrix applied to them. Differentiable in ``x``,
    ``cval`` and ``delta``.

    Args:
      x: the signal; float32 and float64 keep their dtype, other real dtypes are
        computed in the default float dtype (float64 with x64 enabled), as scipy
        computes them in float64.
      window_length: the filter's length, at least 1; in ``"interp"`` mode at most
        ``x.shape[axis]``.
      polyorder: the order of the fitted polynomial, less than ``window_length``.
      deriv: the order of the derivative to compute (0: smoothing).
      delta: the sample spacing, read when ``deriv > 0``; may be traced.
      axis: the axis to filter along.
      mode: ``"interp"`` (the default), ``"mirror"``, ``"constant"``, ``"nearest"`` or
        ``"wrap"`` (``scipy.ndimage``'s extensions).
      cval: the value past the ends in ``"constant"`` mode (may be traced).

    Returns:
      The filtered signal, of ``x``'s shape.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import signal
      >>> x = np.array([2, 2, 5, 2, 1, 0, 1, 4, 9], dtype=np.float32)
      >>> np.round(np.asarray(signal.savgol_filter(x, 5, 2), np.float64), 2).tolist()
      [1.66, 3.17, 3.54, 2.86, 0.66, 0.17, 1.0, 4.0, 9.0]
    """
    fn = _PREFIX + "savgol_filter"
    xa = _input(fn, x)
    if xa.ndim == 0:
        raise ValueError(f"{fn}: x must have at least one dimension; got a scalar.")
    window_length, polyorder, deriv = _orders(fn, window_length, polyorder, deriv)
    if not isinstance(mode, str) or mode not in SAVGOL_MODES:
        raise ValueError(
            f"{fn}: mode must be one of {', '.join(repr(m) for m in SAVGOL_MODES)}; got {mode!r}."
        )
    axis = _axis(fn, axis, xa.ndim)
    n = xa.shape[axis]
    if mode == "interp" and window_length > n:
        raise ValueError(
            f"{fn}: with mode='interp', window_length must be at most the size of x along "
            f"axis ({n}); got window_length={window_length}."
        )
    if n == 0:
        raise ValueError(f"{fn}: x must not be empty along axis; got shape {tuple(xa.shape)}.")
    _unused_cval(fn, cval, mode)
    cval = _cval(fn, cval, False)
    static_delta, traced = _delta(fn, delta)
    dtype = _compute_dtype(fn, xa)
    xa = xa.astype(dtype)
    pos = _position(fn, None, window_length)
    coeffs = _coeffs(window_length, polyorder, deriv, static_delta, pos, "conv")
    # scipy.ndimage.convolve1d's centre for an even length (jaxpad's convolve1d).
    origin = 0 if window_length % 2 else -1
    # In interp mode the ends are overwritten and the outputs between them read x alone,
    # so any extension serves; "nearest" pads faster than "constant".
    conv_mode = "nearest" if mode == "interp" else mode
    if not coeffs.any():
        # deriv > polyorder: scipy multiplies every sample by a zero weight, so an inf or
        # nan still makes nan (jaxpad's correlation skips zero weights).
        y = _correlate1d(
            fn, xa, np.ones(window_length), axis, None, conv_mode, cval, origin,
        ) * jnp.zeros((), dtype)  # fmt: skip
    else:
        y = _correlate1d(
            fn, xa, coeffs[::-1], axis, None, conv_mode, cval, origin,
        )  # fmt: skip
    if mode == "interp":
        edge = window_length // 2
        if edge:
            shape = list(xa.shape)
            shape[axis] = edge
            if deriv > polyorder:
                # scipy differentiates the fitted polynomial to zero: exact zeros.
                lo = hi = jnp.zeros(shape, dtype)
            else:
                positions = np.arange(edge)
                left = _edge_matrix(window_length, polyorder, deriv, static_delta, positions)
                right = _edge_matrix(
                    window_length, polyorder, deriv, static_delta,
                    positions + window_length - edge,
                )  # fmt: skip
                lo = _apply_matrix(left, lax.slice_in_dim(xa, 0, window_length, axis=axis), axis)
                hi = _apply_matrix(
                    right, lax.slice_in_dim(xa, n - window_length, n, axis=axis), axis
                )
            y = _assemble(y, lo.astype(y.dtype), hi.astype(y.dtype), axis)
    if traced is not None and 0 < deriv <= polyorder:
        y = y * jnp.asarray(traced, dtype) ** -deriv
    return y
