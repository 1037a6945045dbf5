"""scipy.ndimage's correlations, convolutions and the filters made of 1-D passes
(uniform, Prewitt, Sobel): one pad, then static slices combined by multiply-adds
(``padded_taps``, ``padded_passes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad.scipy._args import (
    _PREFIX,
    _axes,
    _axis,
    _cast,
    _complex_output,
    _cval,
    _expand,
    _float_dtype,
    _input,
    _mode,
    _modes_for,
    _origin,
    _output_dtype,
    _per_axis,
    _size,
)
from jaxpad.scipy._linear._padded_passes import padded_passes
from jaxpad.scipy._linear._padded_taps import padded_taps
from jaxpad.scipy._padding import padded


def _pad(x: jax.Array, begins: Sequence[int], ends: Sequence[int], modes: Sequence[str], cval):
    """jaxpad.pad with one mode per axis (``padded``)."""
    return padded(x, cval, begins, ends, modes)


def _correlate_nd(x, weights: np.ndarray, origins, modes, cval, dtype) -> jax.Array:
    """Correlates ``x`` (already of the compute dtype) with ``weights`` of x.ndim dims."""
    begins = [n // 2 + o for n, o in zip(weights.shape, origins)]
    ends = [n - 1 - b for n, b in zip(weights.shape, begins)]
    return padded_taps(x, cval, weights, begins, ends, modes)


def _correlate_axis(x, weights, axis: int, mode: str, cval, origin: int, dtype):
    if isinstance(weights, jax.Array):
        # Weights computed in the program (a traced sigma): the same sum of slices,
        # in jnp (its gradient in x is JAX's transpose of each slice, not the taps').
        size = weights.shape[0]
        begins = [0] * x.ndim
        ends = [0] * x.ndim
        begins[axis] = size // 2 + origin
        ends[axis] = size - 1 - begins[axis]
        xp = _pad(x, begins, ends, [mode] * x.ndim, cval)
        n = x.shape[axis]
        acc = None
        for k in range(size):
            term = weights[k].astype(dtype) * lax.slice_in_dim(xp, k, k + n, axis=axis)
            acc = term if acc is None else acc + term
        return acc
    shape = [1] * x.ndim
    shape[axis] = weights.size
    origins = [0] * x.ndim
    origins[axis] = origin
    return _correlate_nd(x, weights.reshape(shape), origins, [mode] * x.ndim, cval, dtype)


def _weights(fn: str, weights: Any, name: str = "weights") -> np.ndarray:
    if isinstance(weights, jax.core.Tracer):
        raise TypeError(
            f"{fn}: {name} must be static (a NumPy array or a concrete array): the filter's "
            f"index arithmetic is done at trace time; got a traced array of shape "
            f"{weights.shape} and dtype {weights.dtype}."
        )
    try:
        w = np.asarray(weights)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{fn}: {name} must be an array of numbers; got {weights!r}.") from error
    if not (np.issubdtype(w.dtype, np.number) or w.dtype == np.bool_):
        raise TypeError(f"{fn}: {name} must be an array of numbers; got dtype {w.dtype}.")
    if np.iscomplexobj(w):
        return w.astype(np.complex128)
    return w.astype(np.float64)


def correlate1d(
    input: Any,
    weights: Any,
    axis: int = -1,
    output: Any = None,
    mode: str = "reflect",
    cval: Any = 0.0,
    origin: int = 0,
) -> jax.Array:
    """A 1-D correlation along ``axis``, as ``scipy.ndimage.correlate1d``.

    Args:
      input: the array to filter.
      weights: 1-D filter weights (static).
      axis: the axis to filter along.
      output: None (the input's dtype) or a dtype; an array is rejected, since JAX
        cannot write into it.
      mode: a ``scipy.ndimage`` boundary mode: ``"reflect"``, ``"grid-mirror"``,
        ``"constant"``, ``"grid-constant"``, ``"nearest"``, ``"mirror"``, ``"wrap"``
        or ``"grid-wrap"``.
      cval: the value beyond the edges in the constant modes (may be traced).
      origin: shifts the filter's centre; ``-(len(weights) // 2) <= origin <=
        (len(weights) - 1) // 2``.

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.correlate1d([2, 8, 0, 4, 1, 9, 9, 0], weights=[1, 3])
      Array([ 8, 26,  8, 12,  7, 28, 36,  9], dtype=int32)
    """
    fn = _PREFIX + "correlate1d"
    x = _input(fn, input)
    w = _weights(fn, weights)
    if w.ndim != 1 or w.size < 1:
        raise ValueError(f"{fn}: weights must be 1-D and non-empty; got shape {w.shape}.")
    return _correlate1d(fn, x, np.conj(w), axis, output, mode, cval, origin)


def _correlate1d(fn, x, w, axis, output, mode, cval, origin):
    axis = _axis(fn, axis, x.ndim)
    out_dtype = _output_dtype(fn, output, x.dtype)
    origin = _origin(fn, origin, w.size)
    jmode = _mode(fn, mode)
    complex_in = jnp.issubdtype(x.dtype, jnp.complexfloating) or np.iscomplexobj(w)
    # scipy: a complex cval needs a complex input (a complex kernel is not enough).
    cval = _cval(fn, cval, jnp.issubdtype(x.dtype, jnp.complexfloating))
    out_dtype = _complex_output(fn, output, out_dtype, complex_in)
    dtype = _float_dtype(x.dtype, out_dtype, w.dtype)
    y = _correlate_axis(x.astype(dtype), w, axis, jmode, cval, origin, dtype)
    return _cast(y, out_dtype)


def convolve1d(
    input: Any,
    weights: Any,
    axis: int = -1,
    output: Any = None,
    mode: str = "reflect",
    cval: Any = 0.0,
    origin: int = 0,
) -> jax.Array:
    """A 1-D convolution along ``axis``, as ``scipy.ndimage.convolve1d``.

    Args:
      input: the array to filter.
      weights: 1-D filter weights (static).
      axis: the axis to filter along.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode (see ``correlate1d``).
      cval: the value beyond the edges in the constant modes.
      origin: shifts the filter's centre.

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.convolve1d([2, 8, 0, 4, 1, 9, 9, 0], weights=[1, 3])
      Array([14, 24,  4, 13, 12, 36, 27,  0], dtype=int32)
    """
    fn = _PREFIX + "convolve1d"
    x = _input(fn, input)
    w = _weights(fn, weights)
    if w.ndim != 1 or w.size < 1:
        raise ValueError(f"{fn}: weights must be 1-D and non-empty; got shape {w.shape}.")
    _origin(fn, origin, w.size)
    origin = -int(origin) - (0 if w.size & 1 else 1)
    return _correlate1d(fn, x, w[::-1], axis, output, mode, cval, origin)


def _correlate_or_convolve(fn, input, weights, output, mode, cval, origin, axes, convolution):
    x = _input(fn, input)
    w = _weights(fn, weights)
    axes = _axes(fn, axes, x.ndim)
    if w.ndim != len(axes):
        raise ValueError(
            f"{fn}: weights needs one dimension per filtered axis ({len(axes)}); got an array "
            f"of shape {w.shape}."
        )
    if 0 in w.shape:
        raise ValueError(f"{fn}: weights must not be empty; got shape {w.shape}.")
    w, origins, modes = _expand(fn, x.ndim, axes, w, origin, mode, convolution)
    if not convolution:
        w = np.conj(w)
    out_dtype = _output_dtype(fn, output, x.dtype)
    complex_in = jnp.issubdtype(x.dtype, jnp.complexfloating) or np.iscomplexobj(w)
    # scipy: a complex cval needs a complex input (a complex kernel is not enough).
    cval = _cval(fn, cval, jnp.issubdtype(x.dtype, jnp.complexfloating))
    out_dtype = _complex_output(fn, output, out_dtype, complex_in)
    dtype = _float_dtype(x.dtype, out_dtype, w.dtype)
    y = _correlate_nd(x.astype(dtype), w, origins, modes, cval, dtype)
    return _cast(y, out_dtype)


def correlate(
    input: Any,
    weights: Any,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    origin: Any = 0,
    *,
    axes: Any = None,
) -> jax.Array:
    """A multidimensional correlation, as ``scipy.ndimage.correlate``.

    One pad of the input, then a multiply-add of one static slice per non-zero weight.

    Args:
      input: the array to filter.
      weights: the filter, one dimension per filtered axis (static).
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis (scipy takes
        one mode only here; jaxpad takes either).
      cval: the value beyond the edges in the constant modes.
      origin: the filter's centre shift, one int or one per filtered axis.
      axes: the axes to filter (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> a = np.arange(9.0).reshape(3, 3)
      >>> ndimage.correlate(a, np.ones((2, 2)), mode="nearest")
      Array([[ 0.,  2.,  6.],
             [ 6.,  8., 12.],
             [18., 20., 24.]], dtype=float32)
    """
    return _correlate_or_convolve(
        _PREFIX + "correlate", input, weights, output, mode, cval, origin, axes, False
    )


def convolve(
    input: Any,
    weights: Any,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    origin: Any = 0,
    *,
    axes: Any = None,
) -> jax.Array:
    """A multidimensional convolution, as ``scipy.ndimage.convolve``.

    Args:
      input: the array to filter.
      weights: the filter, one dimension per filtered axis (static).
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      origin: the filter's centre shift, one int or one per filtered axis.
      axes: the axes to filter (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> a = np.array([[1, 2, 0, 0], [5, 3, 0, 4], [0, 0, 0, 7], [9, 3, 0, 0]])
      >>> k = np.array([[1, 1, 1], [1, 1, 0], [1, 0, 0]])
      >>> ndimage.convolve(a, k, mode="constant", cval=0.0)
      Array([[11, 10,  7,  4],
             [10,  3, 11, 11],
             [15, 12, 14,  7],
             [12,  3,  7,  0]], dtype=int32)
    """
    return _correlate_or_convolve(
        _PREFIX + "convolve", input, weights, output, mode, cval, origin, axes, True
    )


def _separable(fn, x, passes, out_dtype, cval):
    """Runs 1-D correlations (axis, weights, jaxpad mode, origin) one after the other,
    each stored in the output dtype, as scipy does."""
    if not passes:
        return _cast(x, out_dtype)
    complex_in = jnp.issubdtype(x.dtype, jnp.complexfloating)
    out_dtype = _complex_output(fn, None, out_dtype, complex_in)
    dtype = _float_dtype(x.dtype, out_dtype)
    axes = [axis for axis, _, _, _ in passes]
    if (
        len(passes) > 1
        and dtype == out_dtype
        and len(set(axes)) == len(axes)
        and not any(isinstance(w, jax.Array) for _, w, _, _ in passes)
        and all(jmode != "constant" for _, _, jmode, _ in passes)
    ):
        # One pad of every filtered axis, then the passes, outer axis first
        # (padded_passes): no intermediate is padded again, no cast between passes
        # to reproduce. The order only changes rounding.
        begins = [0] * x.ndim
        ends = [0] * x.ndim
        modes = [passes[0][2]] * x.ndim
        for axis, w, jmode, origin in passes:
            begins[axis] = w.size // 2 + origin
            ends[axis] = w.size - 1 - begins[axis]
            modes[axis] = jmode
        ordered = sorted(((axis, w) for axis, w, _, _ in passes), key=lambda p: p[0])
        return padded_passes(x.astype(dtype), cval, ordered, begins, ends, modes)
    y = x
    for axis, w, jmode, origin in passes:
        y = _correlate_axis(y.astype(dtype), w, axis, jmode, cval, origin, dtype)
        y = _cast(y, out_dtype)
    return y


def uniform_filter1d(
    input: Any,
    size: int,
    axis: int = -1,
    output: Any = None,
    mode: str = "reflect",
    cval: Any = 0.0,
    origin: int = 0,
) -> jax.Array:
    """The mean over ``size`` neighbours along ``axis``, as ``scipy.ndimage.uniform_filter1d``.

    Args:
      input: the array to filter.
      size: the window length, at least 1.
      axis: the axis to filter along.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode.
      cval: the value beyond the edges in the constant modes.
      origin: shifts the window's centre.

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.uniform_filter1d([3.0, 9.0, 0.0, 6.0], size=3)
      Array([5., 4., 5., 4.], dtype=float32)
    """
    fn = _PREFIX + "uniform_filter1d"
    x = _input(fn, input)
    axis = _axis(fn, axis, x.ndim)
    size = _size(fn, "size", size)
    origin = _origin(fn, origin, size)
    out_dtype = _output_dtype(fn, output, x.dtype)
    cval = _cval(fn, cval, jnp.issubdtype(x.dtype, jnp.complexfloating))
    w = np.full(size, 1.0 / size)
    return _separable(fn, x, [(axis, w, _mode(fn, mode), origin)], out_dtype, cval)


def uniform_filter(
    input: Any,
    size: Any = 3,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    origin: Any = 0,
    *,
    axes: Any = None,
) -> jax.Array:
    """The mean over a box, as ``scipy.ndimage.uniform_filter``: one 1-D pass per axis.

    Args:
      input: the array to filter.
      size: the box's length, one int or one per filtered axis.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      origin: the box's centre shift, one int or one per filtered axis.
      axes: the axes to filter (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.uniform_filter(np.eye(3), size=3, mode="wrap")
      Array([[0.33333334, 0.33333334, 0.33333334],
             [0.33333334, 0.33333334, 0.33333334],
             [0.33333334, 0.33333334, 0.33333334]], dtype=float32)
    """
    fn = _PREFIX + "uniform_filter"
    x = _input(fn, input)
    axes = _axes(fn, axes, x.ndim)
    # scipy skips an axis of size 0 or 1.
    sizes = [_size(fn, "size", s, 0) for s in _per_axis(fn, "size", size, len(axes))]
    origins = _per_axis(fn, "origin", origin, len(axes))
    modes = _modes_for(fn, mode, len(axes))
    out_dtype = _output_dtype(fn, output, x.dtype)
    cval = _cval(fn, cval, jnp.issubdtype(x.dtype, jnp.complexfloating))
    passes = []
    for ax, s, o, m in zip(axes, sizes, origins, modes):
        if s > 1:
            o = _origin(fn, o, s)
            passes.append((ax, np.full(s, 1.0 / s), m, o))
    return _separable(fn, x, passes, out_dtype, cval)


def _edge_filter(fn, input, axis, output, mode, cval, smooth):
    x = _input(fn, input)
    axis = _axis(fn, axis, x.ndim)
    modes = _modes_for(fn, mode, x.ndim)
    out_dtype = _output_dtype(fn, output, x.dtype)
    cval = _cval(fn, cval, jnp.issubdtype(x.dtype, jnp.complexfloating))
    passes = [(axis, np.array([-1.0, 0.0, 1.0]), modes[axis], 0)]
    passes += [(ax, smooth, modes[ax], 0) for ax in range(x.ndim) if ax != axis]
    return _separable(fn, x, passes, out_dtype, cval)


def prewitt(
    input: Any, axis: int = -1, output: Any = None, mode: Any = "reflect", cval: Any = 0.0
) -> jax.Array:
    """A Prewitt filter, as ``scipy.ndimage.prewitt``.

    Args:
      input: the array to filter.
      axis: the axis of the derivative.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per axis.
      cval: the value beyond the edges in the constant modes.

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.prewitt(np.array([[0.0, 1, 2], [0, 1, 2], [0, 1, 2]]), axis=1)
      Array([[3., 6., 3.],
             [3., 6., 3.],
             [3., 6., 3.]], dtype=float32)
    """
    smooth = np.array([1.0, 1.0, 1.0])
    return _edge_filter(_PREFIX + "prewitt", input, axis, output, mode, cval, smooth)


def sobel(
    input: Any, axis: int = -1, output: Any = None, mode: Any = "reflect", cval: Any = 0.0
) -> jax.Array:
    """A Sobel filter, as ``scipy.ndimage.sobel``.

    Args:
      input: the array to filter.
      axis: the axis of the derivative.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per axis.
      cval: the value beyond the edges in the constant modes.

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.sobel(np.array([[0.0, 1, 2], [0, 1, 2], [0, 1, 2]]), axis=1)
      Array([[4., 8., 4.],
             [4., 8., 4.],
             [4., 8., 4.]], dtype=float32)
    """
    smooth = np.array([1.0, 2.0, 1.0])
    return _edge_filter(_PREFIX + "sobel", input, axis, output, mode, cval, smooth)
