"""scipy.ndimage's filters on jaxpad.pad: every boundary is a pad, every gradient a fold.

Each filter pads its input once per pass with ``jaxpad.pad`` in the mode scipy names
(translated by ``jaxpad.modes.from_scipy``), then combines static slices of the padded
array: multiply-adds for the linear filters, ``minimum``/``maximum`` for the
morphological ones, a selection network or a sort for the rank filters. On XLA:CPU the
slices and their combination fuse into one loop, which ``lax.conv`` does not for a
single channel. All index arithmetic is static (NumPy), so the filters trace once per
shape and run under ``jit``, ``vmap`` and ``grad``.

scipy computes in float64 and stores each separable pass in the output's dtype; these
functions compute in the input's floating dtype (the default float for integer input)
and cast after each pass, so integer outputs truncate as scipy's do.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad import modes as _modes
from jaxpad.scipy._select import box, extreme, selection
from jaxpad.scipy._taps import padded, padded_passes, padded_taps

_PREFIX = "jaxpad.scipy.ndimage."
_SCIPY_MODES = (
    "reflect",
    "grid-mirror",
    "constant",
    "grid-constant",
    "nearest",
    "mirror",
    "wrap",
    "grid-wrap",
)
# Rank filters of up to this many elements use a selection network of
# minimum/maximum pairs; larger ones sort the stacked views.
_NETWORK_MAX = 49
# laplace is one cross-shaped correlation while its input padded on every axis takes
# at most this many bytes, the sum of 1-D correlations beyond: the jaxpad.pad of
# every axis builds about three such arrays, and past glibc's largest mmap threshold
# (32 MiB) XLA:CPU's block of temporaries is page-faulted in on every call. At
# 128x128x128 (docs/scipy.md#performance) the cross took 25 against 32 ms in float32
# (8.6 MiB padded; its VJP 5 against 43 ms) and 45 against 26 ms in float64 (17 MiB).
_CROSS_PAD_BYTES_MAX = 16 << 20
# A minimum/maximum pass of a window up to this size reads its pad through a flat
# view along the minor axis and reads x itself along the others (_extreme_axis): XLA
# fuses its doubling into one loop and splits the pad's concatenate into a copy per
# read (float64 maximum 3 at 1024x1024: 14 against 2.5 ms; float32 at 128x128x128:
# 23 against 5.9 ms); sizes 5 and 9, not fused so, took 1.5-1.6x longer through the
# flat view (docs/scipy.md#performance). Size 4 (two doublings, no overlapping step)
# split its minor-axis pad into two concatenates, 32 MiB of temporaries in float64 at
# 1024x1024 (page-faulted on every call: 16 ms, 2.9 through the flat view); flat, it
# took 0.18-0.92x the padded form's time in both dtypes at 1024x1024 and 128x128x128,
# sizes 5-9 1.1-2.6x (docs/performance.md, "scipy filters: size-4 windows").
_FLAT_EXTREME_MAX = 4


# ----------------------------------------------------------------------------------
# Argument checks
# ----------------------------------------------------------------------------------


def _describe(value: Any) -> str:
    if isinstance(value, (jax.Array, np.ndarray)):
        return f"an array of shape {tuple(value.shape)} and dtype {value.dtype}"
    return repr(value)


def _input(fn: str, x: Any, *, complex_ok: bool = True) -> jax.Array:
    if isinstance(x, (str, bytes)) or x is None:
        raise TypeError(f"{fn}: input must be a numeric array; got {x!r}.")
    if isinstance(x, np.ndarray) and not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))  # JAX takes native byte order only
    try:
        x = jnp.asarray(x)
    except TypeError as error:
        raise TypeError(f"{fn}: input must be a numeric array; got {_describe(x)}.") from error
    if not (jnp.issubdtype(x.dtype, jnp.number) or x.dtype == np.bool_):
        raise TypeError(f"{fn}: input must be a numeric array; got dtype {x.dtype}.")
    if not complex_ok and jnp.issubdtype(x.dtype, jnp.complexfloating):
        raise TypeError(
            f"{fn}: input must be real (scipy has no order on complex numbers); got dtype "
            f"{x.dtype}."
        )
    return x


def _output_dtype(fn: str, output: Any, x_dtype: Any) -> np.dtype:
    if output is None:
        return np.dtype(x_dtype)
    if not isinstance(output, type) and (
        isinstance(output, (jax.Array, np.ndarray)) or hasattr(output, "__array__")
    ):
        raise TypeError(
            f"{fn}: output must be None or a dtype: JAX arrays are immutable, so an output "
            "array cannot be written in place (use the returned array, or pass its dtype); "
            f"got {_describe(output)}."
        )
    try:
        dtype = np.dtype(output)
    except TypeError as error:
        raise TypeError(f"{fn}: output must be None or a numeric dtype; got {output!r}.") from error
    if not (np.issubdtype(dtype, np.number) or dtype == np.bool_):
        raise TypeError(f"{fn}: output must be None or a numeric dtype; got {output!r}.")
    return np.dtype(jax.dtypes.canonicalize_dtype(dtype))


def _complex_output(fn: str, output: Any, out_dtype: np.dtype, complex_in: bool) -> np.dtype:
    """A complex input or kernel makes the output complex; a real output dtype given
    for it is promoted with scipy's warning."""
    if not complex_in or np.issubdtype(out_dtype, np.complexfloating):
        return out_dtype
    if output is not None:
        warnings.warn(
            f"{fn}: promoting specified output dtype to complex (the input or the "
            f"weights are complex); got output={np.dtype(out_dtype).name}.",
            UserWarning,
            stacklevel=4,
        )
    return np.dtype(jnp.promote_types(out_dtype, np.complex64))


def _axis(fn: str, axis: Any, ndim: int, name: str = "axis") -> int:
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(
            f"{fn}: {name} must be an int; got {axis!r}, which cannot be interpreted as an integer."
        )
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{fn}: {name}={axis} is out of range for an input with ndim={ndim}.")
    return axis % ndim


def _axes(fn: str, axes: Any, ndim: int) -> tuple[int, ...]:
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        axes = (axes,)
    if isinstance(axes, str) or not isinstance(axes, Iterable):
        raise TypeError(f"{fn}: axes must be None, an int or a sequence of ints; got {axes!r}.")
    axes = tuple(axes)
    out = tuple(_axis(fn, a, ndim, "axes") for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"{fn}: axes must be unique; got {axes!r}.")
    return out


def _per_axis(fn: str, name: str, value: Any, n: int) -> list:
    """scipy's ``_normalize_sequence``: a scalar repeated, or one entry per axis."""
    if isinstance(value, str) or not np.iterable(value):
        return [value] * n
    if isinstance(value, (jax.Array, np.ndarray)) and value.ndim == 0:
        return [value] * n
    values = list(value)
    if len(values) != n:
        raise ValueError(
            f"{fn}: {name} needs one entry per filtered axis ({n}); got {len(values)}: {value!r}."
        )
    return values


def _mode(fn: str, mode: Any, name: str = "mode") -> str:
    if not isinstance(mode, str) or mode not in _SCIPY_MODES:
        known = ", ".join(repr(m) for m in _SCIPY_MODES)
        raise ValueError(
            f"{fn}: {name} must be one of scipy.ndimage's modes {known}; got {mode!r}."
        )
    return _modes.from_scipy(mode)


def _modes_for(fn: str, mode: Any, n: int) -> list[str]:
    return [_mode(fn, m) for m in _per_axis(fn, "mode", mode, n)]


def _int(fn: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{fn}: {name} must be an int; got {value!r}.")
    return int(value)


def _origin(fn: str, origin: int, size: int, name: str = "origin") -> int:
    origin = _int(fn, name, origin)
    if not -(size // 2) <= origin <= (size - 1) // 2:
        raise ValueError(
            f"{fn}: {name}={origin} puts the filter's centre outside it: a filter of "
            f"size {size} takes {-(size // 2)} <= {name} <= {(size - 1) // 2}."
        )
    return origin


def _cval(fn: str, cval: Any, complex_ok: bool) -> Any:
    if isinstance(cval, (str, bytes)) or cval is None:
        raise TypeError(f"{fn}: cval must be a number; got {cval!r}.")
    if np.ndim(cval) != 0:
        raise ValueError(f"{fn}: cval must be a scalar; got {_describe(cval)}.")
    if not complex_ok and jnp.iscomplexobj(cval):
        raise ValueError(f"{fn}: cval is complex but the input is real; got {cval!r}.")
    return cval


def _float_dtype(*dtypes: Any) -> np.dtype:
    """The dtype to compute in: the inputs' floating (or complex) type, at least float32."""
    out = np.dtype(np.float32)
    for dtype in dtypes:
        dtype = np.dtype(jax.dtypes.canonicalize_dtype(dtype))
        if not np.issubdtype(dtype, np.inexact):
            dtype = np.dtype(jax.dtypes.canonicalize_dtype(np.float64))
        out = jnp.promote_types(out, dtype)
    return np.dtype(out)


def _cast(x: jax.Array, dtype: np.dtype) -> jax.Array:
    if x.dtype == dtype:
        return x
    if jnp.issubdtype(x.dtype, jnp.complexfloating) and not np.issubdtype(
        dtype, np.complexfloating
    ):
        x = jnp.real(x)
    return x.astype(dtype)


# ----------------------------------------------------------------------------------
# The building blocks: one pad, then static slices
# ----------------------------------------------------------------------------------


def _pad(x: jax.Array, begins: Sequence[int], ends: Sequence[int], modes: Sequence[str], cval):
    """jaxpad.pad with one mode per axis (``padded``)."""
    return padded(x, cval, begins, ends, modes)


def _window(xp: jax.Array, starts: Sequence[int], shape: Sequence[int]) -> jax.Array:
    return lax.slice(xp, tuple(starts), tuple(s + n for s, n in zip(starts, shape)))


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


# ----------------------------------------------------------------------------------
# Linear filters
# ----------------------------------------------------------------------------------


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


def _size(fn: str, name: str, size: Any, minimum: int = 1) -> int:
    if isinstance(size, (float, np.floating)) and float(size).is_integer():
        size = int(size)  # scipy's int(size)
    size = _int(fn, name, size)
    if size < minimum:
        raise ValueError(f"{fn}: {name} must be at least {minimum}; got {size}.")
    return size


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


def _gaussian_kernel1d(sigma: float, order: int, radius: int) -> np.ndarray:
    """scipy's kernel: a sampled Gaussian (normalised) times its order-th derivative's
    polynomial."""
    exponent_range = np.arange(order + 1)
    sigma2 = sigma * sigma
    x = np.arange(-radius, radius + 1)
    phi_x = np.exp(-0.5 / sigma2 * x**2)
    phi_x = phi_x / phi_x.sum()
    if order == 0:
        return phi_x
    q = np.zeros(order + 1)
    q[0] = 1
    d = np.diag(exponent_range[1:], 1)
    p = np.diag(np.ones(order) / -sigma2, -1)
    q_deriv = d + p
    for _ in range(order):
        q = q_deriv.dot(q)
    q = (x[:, None] ** exponent_range).dot(q)
    return q * phi_x


def _sigma(fn: str, sigma: Any, name: str = "sigma") -> Any:
    """sigma as a float, or as a traced scalar (its kernel is then built in the
    program, over a static ``radius``)."""
    if isinstance(sigma, jax.core.Tracer):
        if sigma.ndim != 0 or not jnp.issubdtype(sigma.dtype, jnp.floating):
            raise TypeError(
                f"{fn}: a traced {name} must be a floating scalar; got a traced array of "
                f"shape {sigma.shape} and dtype {sigma.dtype}."
            )
        return sigma
    if isinstance(sigma, (str, bytes, bool)) or sigma is None:
        raise TypeError(f"{fn}: {name} must be a number; got {sigma!r}.")
    try:
        value = float(sigma)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{fn}: {name} must be a number; got {sigma!r}.") from error
    if not value >= 0:
        raise ValueError(f"{fn}: {name} must be non-negative; got {sigma!r}.")
    return value


def _gaussian_kernel1d_traced(sigma, order: int, radius: int):
    """_gaussian_kernel1d with sigma a traced scalar: the same formula in jnp."""
    x = jnp.arange(-radius, radius + 1, dtype=sigma.dtype)
    sigma2 = sigma * sigma
    phi_x = jnp.exp(-0.5 / sigma2 * x**2)
    phi_x = phi_x / phi_x.sum()
    if order == 0:
        return phi_x
    exponent_range = np.arange(order + 1)
    q = jnp.zeros(order + 1, sigma.dtype).at[0].set(1)
    d = jnp.asarray(np.diag(exponent_range[1:], 1), sigma.dtype)
    p = jnp.diag(jnp.ones(order, sigma.dtype) / -sigma2, -1)
    q_deriv = d + p
    for _ in range(order):
        q = q_deriv @ q
    q = (x[:, None] ** jnp.asarray(exponent_range, sigma.dtype)) @ q
    return q * phi_x


def _gaussian_weights(fn, sigma, order, truncate, radius) -> Any:
    order = _int(fn, "order", order)
    if order < 0:
        raise ValueError(f"{fn}: order must be non-negative; got {order}.")
    traced = isinstance(sigma, jax.core.Tracer)
    if radius is None:
        if traced:
            raise TypeError(
                f"{fn}: sigma is traced, so the kernel's length cannot come from "
                f"truncate * sigma: pass a static radius (an int) as well; got radius=None."
            )
        truncate = float(truncate)
        lw = int(truncate * sigma + 0.5)
        if lw < 0:
            raise ValueError(f"{fn}: truncate must be non-negative; got {truncate!r}.")
    else:
        if isinstance(radius, bool) or not isinstance(radius, numbers.Integral) or radius < 0:
            raise ValueError(f"{fn}: radius must be a non-negative int; got {radius!r}.")
        lw = int(radius)
    if traced:
        return _gaussian_kernel1d_traced(sigma, order, lw)[::-1]
    if sigma == 0:
        raise ValueError(f"{fn}: sigma must be positive; got {sigma!r}.")
    return _gaussian_kernel1d(sigma, order, lw)[::-1]


def gaussian_filter1d(
    input: Any,
    sigma: float,
    axis: int = -1,
    order: int = 0,
    output: Any = None,
    mode: str = "reflect",
    cval: Any = 0.0,
    truncate: float = 4.0,
    *,
    radius: int | None = None,
) -> jax.Array:
    """A 1-D Gaussian filter, as ``scipy.ndimage.gaussian_filter1d``.

    Args:
      input: the array to filter.
      sigma: the Gaussian's standard deviation (positive); static, or traced when
        ``radius`` is given.
      axis: the axis to filter along.
      order: 0 for a blur; 1, 2, 3 for the Gaussian's derivatives.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode.
      cval: the value beyond the edges in the constant modes.
      truncate: the kernel's radius in standard deviations.
      radius: the kernel's radius in samples; overrides ``truncate``.

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.gaussian_filter1d([1.0, 2.0, 3.0, 4.0, 5.0], 1)
      Array([1.427041, 2.067822, 3.      , 3.932178, 4.572959], dtype=float32)
    """
    fn = _PREFIX + "gaussian_filter1d"
    x = _input(fn, input)
    axis = _axis(fn, axis, x.ndim)
    sigma = _sigma(fn, sigma)
    w = _gaussian_weights(fn, sigma, order, truncate, radius)
    out_dtype = _output_dtype(fn, output, x.dtype)
    cval = _cval(fn, cval, jnp.issubdtype(x.dtype, jnp.complexfloating))
    return _separable(fn, x, [(axis, w, _mode(fn, mode), 0)], out_dtype, cval)


def _gaussian_passes(fn, ndim, sigma, order, mode, truncate, radius, axes):
    axes = _axes(fn, axes, ndim)
    n = len(axes)
    orders = _per_axis(fn, "order", order, n)
    sigmas = [_sigma(fn, s) for s in _per_axis(fn, "sigma", sigma, n)]
    modes = _modes_for(fn, mode, n)
    radii = _per_axis(fn, "radius", radius, n)
    passes = []
    for ax, s, o, m, r in zip(axes, sigmas, orders, modes, radii):
        # scipy skips an axis with sigma 0, whatever its order (a traced sigma is
        # taken as positive).
        if isinstance(s, jax.core.Tracer) or s > 1e-15:
            passes.append((ax, _gaussian_weights(fn, s, o, truncate, r), m, 0))
        else:
            _int(fn, "order", o)
    return passes


def gaussian_filter(
    input: Any,
    sigma: Any,
    order: Any = 0,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    truncate: float = 4.0,
    *,
    radius: Any = None,
    axes: Any = None,
) -> jax.Array:
    """A Gaussian filter, as ``scipy.ndimage.gaussian_filter``: one 1-D pass per axis.

    Args:
      input: the array to filter.
      sigma: the standard deviation, one or one per filtered axis; an axis with sigma
        0 is not filtered. Static, or traced (and differentiable) when ``radius`` is
        given: the kernel is then built in the program.
      order: 0 (blur) to 3 (third derivative), one or one per filtered axis.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes (may be traced).
      truncate: the kernel's radius in standard deviations.
      radius: the kernel's radius in samples, one or one per filtered axis;
        overrides ``truncate``.
      axes: the axes to filter (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.gaussian_filter(np.arange(0, 50, 2).reshape(5, 5), sigma=1)
      Array([[ 4,  6,  8,  9, 11],
             [10, 12, 14, 15, 17],
             [20, 22, 24, 25, 27],
             [29, 31, 33, 34, 36],
             [35, 37, 39, 40, 42]], dtype=int32)
    """
    fn = _PREFIX + "gaussian_filter"
    x = _input(fn, input)
    passes = _gaussian_passes(fn, x.ndim, sigma, order, mode, truncate, radius, axes)
    out_dtype = _output_dtype(fn, output, x.dtype)
    cval = _cval(fn, cval, jnp.issubdtype(x.dtype, jnp.complexfloating))
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


def generic_laplace(
    input: Any,
    derivative2: Callable[..., Any],
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    extra_arguments: Sequence[Any] = (),
    extra_keywords: dict[str, Any] | None = None,
    *,
    axes: Any = None,
) -> jax.Array:
    """The sum of second derivatives along ``axes``, as ``scipy.ndimage.generic_laplace``.

    ``derivative2(input, axis, output, mode, cval, *extra_arguments, **extra_keywords)``
    is called once per axis with ``output`` a dtype (JAX cannot write into an array) and
    must return the derivative; each is cast to the output dtype and summed.

    Args:
      input: the array to filter.
      derivative2: the second-derivative function.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis (passed on to
        ``derivative2`` as scipy's name).
      cval: the value beyond the edges in the constant modes.
      extra_arguments: more positional arguments for ``derivative2``.
      extra_keywords: keyword arguments for ``derivative2``.
      axes: the axes to sum over (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> def d2(x, axis, output, mode, cval):
      ...     return ndimage.correlate1d(x, [1, -2, 1], axis, output, mode, cval)
      >>> ndimage.generic_laplace(np.array([0.0, 1.0, 4.0, 9.0]), d2)
      Array([ 1.,  2.,  2., -5.], dtype=float32)
    """
    fn = _PREFIX + "generic_laplace"
    return _generic(
        fn, input, derivative2, output, mode, cval, extra_arguments, extra_keywords, axes, False
    )


def _generic(
    fn, input, derivative, output, mode, cval, extra_arguments, extra_keywords, axes, magnitude
):
    x = _input(fn, input)
    if not callable(derivative):
        name = "derivative" if magnitude else "derivative2"
        raise TypeError(f"{fn}: {name} must be callable; got {derivative!r}.")
    if extra_keywords is None:
        extra_keywords = {}
    axes = _axes(fn, axes, x.ndim)
    out_dtype = _output_dtype(fn, output, x.dtype)
    if not axes:
        return _cast(x, out_dtype)
    given = _per_axis(fn, "mode", mode, len(axes))
    for m in given:
        _mode(fn, m)
    acc = None
    for ax, m in zip(axes, given):
        d = _cast(
            jnp.asarray(derivative(x, ax, out_dtype, m, cval, *extra_arguments, **extra_keywords)),
            out_dtype,
        )
        if magnitude:
            d = d * d
        acc = d if acc is None else acc + d
    if magnitude:
        dtype = _float_dtype(out_dtype)
        acc = _cast(_safe_sqrt(acc.astype(dtype)), out_dtype)
    return acc


def _safe_sqrt(x):
    # sqrt's derivative at 0 is infinite; the gradient magnitude's subgradient there is 0.
    positive = x > 0
    return jnp.where(positive, jnp.sqrt(jnp.where(positive, x, 1)), 0)


def laplace(
    input: Any, output: Any = None, mode: Any = "reflect", cval: Any = 0.0, *, axes: Any = None
) -> jax.Array:
    """The discrete Laplacian ``[1, -2, 1]`` summed over axes, as ``scipy.ndimage.laplace``.

    Args:
      input: the array to filter.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      axes: the axes to sum over (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.laplace(np.array([[0.0, 0, 0], [0, 1, 0], [0, 0, 0]]), mode="constant")
      Array([[ 0.,  1.,  0.],
             [ 1., -4.,  1.],
             [ 0.,  1.,  0.]], dtype=float32)
    """

    def derivative2(x, axis, output, mode, cval):
        return correlate1d(x, [1, -2, 1], axis, output, mode, cval, 0)

    fn = _PREFIX + "laplace"
    x = _input(fn, input)
    out_dtype = _output_dtype(fn, output, x.dtype)
    filtered = _axes(fn, axes, x.ndim)
    if (
        filtered
        and _padded_bytes(x.shape, filtered, x.dtype) <= _CROSS_PAD_BYTES_MAX
        and jnp.issubdtype(x.dtype, jnp.floating)
        and np.issubdtype(out_dtype, np.floating)
    ):
        # One correlation with the cross of [1, -2, 1]s (one pad of every axis; each
        # arm reads only its own axis' pad, so it equals scipy's sum of 1-D passes):
        # one loop and one transpose, 2.3x faster than the sum of per-axis
        # correlations forward and in the VJP at 1024x1024 in float32
        # (docs/scipy.md#performance); not for a large padded array
        # (_CROSS_PAD_BYTES_MAX). Only for a floating input and output: scipy casts
        # each axis' term to an integer output before summing.
        modes = _modes_for(fn, mode, len(filtered))
        cval = _cval(fn, cval, False)
        centre = [1 if a in filtered else 0 for a in range(x.ndim)]
        kernel = np.zeros([1 + 2 * c for c in centre])
        kernel[tuple(centre)] = -2.0 * len(filtered)
        for a in filtered:
            for k in (0, 2):
                index = list(centre)
                index[a] = k
                kernel[tuple(index)] = 1.0
        axis_modes = [modes[0]] * x.ndim
        for a, m in zip(filtered, modes):
            axis_modes[a] = m
        dtype = _float_dtype(x.dtype, out_dtype)
        y = _correlate_nd(x.astype(dtype), kernel, [0] * x.ndim, axis_modes, cval, dtype)
        return _cast(y, out_dtype)
    return _generic(fn, x, derivative2, output, mode, cval, (), None, axes, False)


def _padded_bytes(shape, axes, dtype) -> int:
    """Bytes of an array of ``shape`` padded by one on each side of ``axes``."""
    count = 1
    for a, n in enumerate(shape):
        count *= n + 2 if a in axes else n
    return count * np.dtype(dtype).itemsize


def _check_gaussian_kwargs(fn: str, kwargs: dict) -> None:
    unknown = set(kwargs) - {"truncate", "radius"}
    if unknown:
        raise TypeError(
            f"{fn}: unexpected keyword arguments {sorted(unknown)}; the Gaussian takes "
            "truncate and radius."
        )


def gaussian_laplace(
    input: Any,
    sigma: Any,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    *,
    axes: Any = None,
    **kwargs: Any,
) -> jax.Array:
    """The Laplacian of a Gaussian, as ``scipy.ndimage.gaussian_laplace``.

    Args:
      input: the array to filter.
      sigma: the standard deviation, one or one per filtered axis (static).
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      axes: the axes to sum over (default: all).
      **kwargs: ``truncate`` or ``radius``, passed to ``gaussian_filter``.

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.gaussian_laplace(np.array([0.0, 0.0, 1000.0, 0.0, 0.0]), 1.0).round()
      Array([ 197.,    2., -399.,    2.,  197.], dtype=float32)
    """
    fn = _PREFIX + "gaussian_laplace"
    _check_gaussian_kwargs(fn, kwargs)
    x = _input(fn, input)
    axes_ = _axes(fn, axes, x.ndim)
    sigmas = _per_axis(fn, "sigma", sigma, len(axes_))
    full = [0.0] * x.ndim
    for s, ax in zip(sigmas, axes_):
        full[ax] = s

    def derivative2(x, axis, output, mode, cval):
        order = [0] * x.ndim
        order[axis] = 2
        return gaussian_filter(x, full, order, output, mode, cval, **kwargs)

    return _generic(fn, x, derivative2, output, mode, cval, (), None, axes_, False)


def generic_gradient_magnitude(
    input: Any,
    derivative: Callable[..., Any],
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    extra_arguments: Sequence[Any] = (),
    extra_keywords: dict[str, Any] | None = None,
    *,
    axes: Any = None,
) -> jax.Array:
    """``sqrt(sum(derivative(axis) ** 2))``, as ``scipy.ndimage.generic_gradient_magnitude``.

    ``derivative(input, axis, output, mode, cval, *extra_arguments, **extra_keywords)``
    is called once per axis with ``output`` a dtype and must return the derivative.
    Where the magnitude is 0 its gradient is taken as 0 (a subgradient).

    Args:
      input: the array to filter.
      derivative: the first-derivative function.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      extra_arguments: more positional arguments for ``derivative``.
      extra_keywords: keyword arguments for ``derivative``.
      axes: the axes to sum over (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> a = np.array([[0.0, 1, 2], [0, 1, 2], [0, 1, 2]])
      >>> ndimage.generic_gradient_magnitude(a, ndimage.sobel)
      Array([[4., 8., 4.],
             [4., 8., 4.],
             [4., 8., 4.]], dtype=float32)
    """
    fn = _PREFIX + "generic_gradient_magnitude"
    return _generic(
        fn, input, derivative, output, mode, cval, extra_arguments, extra_keywords, axes, True
    )


def gaussian_gradient_magnitude(
    input: Any,
    sigma: Any,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    *,
    axes: Any = None,
    **kwargs: Any,
) -> jax.Array:
    """The gradient magnitude of a Gaussian blur, as
    ``scipy.ndimage.gaussian_gradient_magnitude``.

    Args:
      input: the array to filter.
      sigma: the standard deviation, one or one per axis (static).
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      axes: the axes of the gradient (default: all).
      **kwargs: ``truncate`` or ``radius``, passed to ``gaussian_filter``.

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> x = np.array([0.0, 0.0, 1000.0, 0.0, 0.0])
      >>> ndimage.gaussian_gradient_magnitude(x, 1.0).round()
      Array([ 95., 241.,   0., 241.,  95.], dtype=float32)
    """
    fn = _PREFIX + "gaussian_gradient_magnitude"
    _check_gaussian_kwargs(fn, kwargs)

    def derivative(x, axis, output, mode, cval):
        order = [0] * x.ndim
        order[axis] = 1
        return gaussian_filter(x, sigma, order, output, mode, cval, **kwargs)

    return _generic(fn, input, derivative, output, mode, cval, (), None, axes, True)


# ----------------------------------------------------------------------------------
# Minimum, maximum and rank filters
# ----------------------------------------------------------------------------------


def _selection(x, cval, begins, ends, modes, offsets, kind, window):
    """``kind`` ("min", "max" or a rank) of each window of the padded ``x`` (the
    elements at ``offsets`` from each output), differentiable in ``x`` and ``cval``:
    ``_select.selection``, whose tangent is the tangent of the first window element
    (in the order of ``offsets``, row-major) equal to the output."""
    return selection(
        x, cval, offsets=offsets, begins=begins, ends=ends, modes=modes, kind=kind, window=window
    )


def _extreme_axis(x, size: int, axis: int, jmode: str, cval, origin: int, minimum: bool):
    """min/max over a window of ``size`` along ``axis`` (``_select.extreme``: windows of
    1, 2, 4, ... by doubling, then two overlapping power-of-two windows).

    Its tangent is the tangent of the window's first element equal to the output (the
    first NaN for a NaN): for sizes up to ``_select._WINNER_MAX``, ``_select.winner``,
    whose transpose finds each element's windows by running extremes fused with the
    cotangent reads (no index); for longer windows ``_select.selected_p`` with the
    index carried through the doubling on the pass' own pad
    (docs/scipy.md#performance)."""
    return extreme(
        x,
        cval,
        size=size,
        axis=axis,
        begin=size // 2 + origin,
        mode=jmode,
        minimum=minimum,
        flat=2 <= size <= _FLAT_EXTREME_MAX,
    )


def _min_max1d(fn, input, size, axis, output, mode, cval, origin, minimum):
    x = _input(fn, input, complex_ok=False)
    axis = _axis(fn, axis, x.ndim)
    size = _size(fn, "size", size)
    origin = _origin(fn, origin, size)
    out_dtype = _output_dtype(fn, output, x.dtype)
    cval = _cval(fn, cval, False)
    y = _extreme_axis(x, size, axis, _mode(fn, mode), _fill(cval, x.dtype), origin, minimum)
    return _cast(y, out_dtype)


def _fill(cval, dtype):
    # The constant pads in the input's dtype, truncated as scipy's C casts truncate
    # (for integers min/max of the truncation equals the truncation of min/max).
    if isinstance(cval, (int, float, np.number)) and np.issubdtype(dtype, np.integer):
        return np.trunc(cval)
    return cval


def minimum_filter1d(
    input: Any,
    size: int,
    axis: int = -1,
    output: Any = None,
    mode: str = "reflect",
    cval: Any = 0.0,
    origin: int = 0,
) -> jax.Array:
    """The minimum over ``size`` neighbours along ``axis``, as
    ``scipy.ndimage.minimum_filter1d``.

    Args:
      input: the array to filter (real).
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
      >>> ndimage.minimum_filter1d([2, 8, 0, 4, 1, 9, 9, 0], size=3)
      Array([2, 0, 0, 0, 1, 1, 0, 0], dtype=int32)
    """
    fn = _PREFIX + "minimum_filter1d"
    return _min_max1d(fn, input, size, axis, output, mode, cval, origin, True)


def maximum_filter1d(
    input: Any,
    size: int,
    axis: int = -1,
    output: Any = None,
    mode: str = "reflect",
    cval: Any = 0.0,
    origin: int = 0,
) -> jax.Array:
    """The maximum over ``size`` neighbours along ``axis``, as
    ``scipy.ndimage.maximum_filter1d``.

    Args:
      input: the array to filter (real).
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
      >>> ndimage.maximum_filter1d([2, 8, 0, 4, 1, 9, 9, 0], size=3)
      Array([8, 8, 8, 4, 9, 9, 9, 9], dtype=int32)
    """
    fn = _PREFIX + "maximum_filter1d"
    return _min_max1d(fn, input, size, axis, output, mode, cval, origin, False)


def _footprint(fn, size, footprint, n_axes) -> tuple[np.ndarray | None, list[int] | None]:
    """(footprint, None) for an explicit footprint that is not a full box, else
    (None, sizes)."""
    if footprint is not None and size is not None:
        raise ValueError(
            f"{fn}: give size or footprint, not both (scipy warns and ignores size); got "
            f"size={size!r}."
        )
    if footprint is None:
        if size is None:
            raise ValueError(f"{fn}: size or footprint is required; got neither.")
        return None, [_size(fn, "size", s, 0) for s in _per_axis(fn, "size", size, n_axes)]
    if isinstance(footprint, jax.core.Tracer):
        raise TypeError(f"{fn}: footprint must be static (a NumPy array); got a traced array.")
    fp = np.asarray(footprint).astype(bool)
    if fp.ndim != n_axes:
        raise ValueError(
            f"{fn}: footprint needs one dimension per filtered axis ({n_axes}); got an array "
            f"of shape {fp.shape}."
        )
    if 0 in fp.shape or not fp.any():
        raise ValueError(
            f"{fn}: footprint must have at least one True element; got shape {fp.shape}."
        )
    if fp.all():
        return None, list(fp.shape)
    return fp, None


def _expand(fn, x_ndim, axes, fp, origin, mode, convolution=False):
    """The footprint (or weights), origins and jaxpad modes over all of the input's
    axes. As scipy's: the footprint's dimensions go to the filtered axes in increasing
    order, the origins and modes to ``axes`` in the order given."""
    origins_given = _per_axis(fn, "origin", origin, len(axes))
    modes_given = _modes_for(fn, mode, len(axes))
    fp = np.expand_dims(fp, tuple(ax for ax in range(x_ndim) if ax not in axes))
    if convolution:
        fp = fp[(slice(None, None, -1),) * x_ndim]
    origins = [0] * x_ndim
    modes = ["constant"] * x_ndim
    for k, ax in enumerate(axes):
        name = f"origin[{k}]" if np.iterable(origin) else "origin"
        o = _origin(fn, origins_given[k], fp.shape[ax], name)
        if convolution:
            o = -o - (0 if fp.shape[ax] & 1 else 1)
        origins[ax] = o
        modes[ax] = modes_given[k]
    return fp, origins, modes


def _window_select(x, fp, origins, modes, cval, kind) -> jax.Array:
    """``kind`` ("min", "max" or a rank) of the footprint's views of the padded ``x``
    (in row-major order), an output that is one of them element by element."""
    begins = [n // 2 + o for n, o in zip(fp.shape, origins)]
    ends = [n - 1 - b for n, b in zip(fp.shape, begins)]
    offsets = [index for index in np.ndindex(*fp.shape) if fp[index]]
    return _selection(x, cval, begins, ends, modes, offsets, kind, fp.shape)


def _min_or_max(fn, input, size, footprint, output, mode, cval, origin, axes, minimum):
    x = _input(fn, input, complex_ok=False)
    axes = _axes(fn, axes, x.ndim)
    out_dtype = _output_dtype(fn, output, x.dtype)
    cval = _fill(_cval(fn, cval, False), x.dtype)
    fp, sizes = _footprint(fn, size, footprint, len(axes))
    if fp is None:
        assert sizes is not None
        origins = _per_axis(fn, "origin", origin, len(axes))
        modes = _modes_for(fn, mode, len(axes))
        passes = [
            (ax, s, m, _origin(fn, o, s))
            for ax, s, o, m in zip(axes, sizes, origins, modes)
            if s > 1  # scipy skips an axis of size 0 or 1
        ]
        # The last axis first: the gradient of the last pass picks the row, then the
        # first pass the column within it, so a tie goes to the first element of the
        # box in row-major order, as with a footprint (and lax.reduce_window).
        # (_select.box: the same passes; past _select._BOX_SLAB_BYTES those off axis 0
        # run slab by slab along it, their temporaries under glibc's mmap threshold.)
        y = box(
            x,
            cval,
            passes=[
                (s, ax, s // 2 + o, m, 2 <= s <= _FLAT_EXTREME_MAX)
                for ax, s, m, o in sorted(passes, reverse=True)
            ],
            minimum=minimum,
        )
        return _cast(y, out_dtype)
    fp, origins_all, modes_all = _expand(fn, x.ndim, axes, fp, origin, mode)
    kind = "min" if minimum else "max"
    return _cast(_window_select(x, fp, origins_all, modes_all, cval, kind), out_dtype)


def minimum_filter(
    input: Any,
    size: Any = None,
    footprint: Any = None,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    origin: Any = 0,
    *,
    axes: Any = None,
) -> jax.Array:
    """The minimum over a window, as ``scipy.ndimage.minimum_filter``.

    A box (``size``, or an all-True ``footprint``) runs as 1-D passes. The gradient
    of each output goes to one element of its window: the first, in row-major order,
    equal to the minimum (as ``lax.reduce_window``'s).

    Args:
      input: the array to filter (real).
      size: the box's length, one int or one per filtered axis.
      footprint: a boolean array marking the window's elements (static); give this
        or ``size``.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      origin: the window's centre shift, one int or one per filtered axis.
      axes: the axes to filter (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.minimum_filter(np.arange(9).reshape(3, 3), size=2)
      Array([[0, 0, 1],
             [0, 0, 1],
             [3, 3, 4]], dtype=int32)
    """
    fn = _PREFIX + "minimum_filter"
    return _min_or_max(fn, input, size, footprint, output, mode, cval, origin, axes, True)


def maximum_filter(
    input: Any,
    size: Any = None,
    footprint: Any = None,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    origin: Any = 0,
    *,
    axes: Any = None,
) -> jax.Array:
    """The maximum over a window, as ``scipy.ndimage.maximum_filter``.

    A box (``size``, or an all-True ``footprint``) runs as 1-D passes. The gradient
    of each output goes to one element of its window: the first, in row-major order,
    equal to the maximum (as ``lax.reduce_window``'s).

    Args:
      input: the array to filter (real).
      size: the box's length, one int or one per filtered axis.
      footprint: a boolean array marking the window's elements (static); give this
        or ``size``.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      origin: the window's centre shift, one int or one per filtered axis.
      axes: the axes to filter (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.maximum_filter(np.arange(9).reshape(3, 3), size=2)
      Array([[0, 1, 2],
             [3, 4, 5],
             [6, 7, 8]], dtype=int32)
    """
    fn = _PREFIX + "maximum_filter"
    return _min_or_max(fn, input, size, footprint, output, mode, cval, origin, axes, False)


# The median of 9 in 19 compare-exchanges (Paeth; Devillard's opt_med9).
_MEDIAN9 = (
    (1, 2), (4, 5), (7, 8), (0, 1), (3, 4), (6, 7), (1, 2), (4, 5), (7, 8),
    (0, 3), (5, 8), (4, 7), (3, 6), (1, 4), (2, 5), (4, 7), (4, 2), (6, 4), (4, 2),
)  # fmt: skip


def _batcher(n: int) -> list[tuple[int, int]]:
    """Batcher's odd-even merge sort network for the next power of two, without the
    comparators that touch an index >= n (virtual +inf elements never move)."""
    size = 1
    while size < n:
        size *= 2
    pairs = []
    p = 1
    while p < size:
        k = p
        while k >= 1:
            for j in range(k % p, size - k, 2 * k):
                for i in range(min(k, size - j - k)):
                    a, b = i + j, i + j + k
                    if a // (2 * p) == b // (2 * p) and b < n:
                        pairs.append((a, b))
            k //= 2
        p *= 2
    return pairs


def _selection_network(n: int, rank: int) -> list[tuple[int, int, bool, bool]]:
    """The comparators of a sorting network that ``rank``'s output depends on, each as
    (low wire, high wire, low needed, high needed), pruned backwards from the output."""
    pairs = list(_MEDIAN9) if (n, rank) == (9, 4) else _batcher(n)
    live = {rank}
    kept = []
    for a, b in reversed(pairs):
        need_lo, need_hi = a in live, b in live
        if need_lo or need_hi:
            kept.append((a, b, need_lo, need_hi))
            live |= {a, b}
    return kept[::-1]


def _select(views: list[jax.Array], rank: int) -> jax.Array:
    n = len(views)
    if n <= _NETWORK_MAX:
        wires: list[Any] = list(views)
        for a, b, need_lo, need_hi in _selection_network(n, rank):
            lo = jnp.minimum(wires[a], wires[b]) if need_lo else None
            hi = jnp.maximum(wires[a], wires[b]) if need_hi else None
            wires[a], wires[b] = lo, hi
        return wires[rank]
    return jnp.sort(jnp.stack(views), axis=0)[rank]


def _rank(fn, input, rank, size, footprint, output, mode, cval, origin, axes, operation):
    x = _input(fn, input, complex_ok=False)
    axes = _axes(fn, axes, x.ndim)
    out_dtype = _output_dtype(fn, output, x.dtype)
    cval = _fill(_cval(fn, cval, False), x.dtype)
    fp, sizes = _footprint(fn, size, footprint, len(axes))
    if fp is None:
        assert sizes is not None
        if 0 in sizes:
            raise ValueError(f"{fn}: size must be at least 1 on every axis; got {size!r}.")
        fp = np.ones(sizes, bool)
    fp, origins, modes = _expand(fn, x.ndim, axes, fp, origin, mode)
    count = int(fp.sum())
    if operation == "median":
        rank = count // 2
    elif operation == "percentile":
        if isinstance(rank, (bool, str)) or not isinstance(rank, numbers.Real):
            raise TypeError(f"{fn}: percentile must be a number; got {rank!r}.")
        percentile = float(rank)
        if percentile < 0.0:
            percentile += 100.0
        if not 0 <= percentile <= 100:
            raise ValueError(f"{fn}: percentile must be within [-100, 100]; got {rank!r}.")
        rank = count - 1 if percentile == 100.0 else int(float(count) * percentile / 100.0)
    else:
        given = _int(fn, "rank", rank)
        rank = given + count if given < 0 else given
        if not 0 <= rank < count:
            raise ValueError(
                f"{fn}: rank={given} is outside the footprint's {count} elements "
                f"(-{count} <= rank < {count})."
            )
    y = _window_select(x, fp, origins, modes, cval, rank)
    return _cast(y, out_dtype)


def rank_filter(
    input: Any,
    rank: int,
    size: Any = None,
    footprint: Any = None,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    origin: Any = 0,
    *,
    axes: Any = None,
) -> jax.Array:
    """The ``rank``-th smallest element of each window, as ``scipy.ndimage.rank_filter``.

    Windows of up to 49 elements use a selection network (the compare-exchanges of a
    sorting network that the wanted rank depends on; the 3x3 median is Paeth's 19);
    larger ones sort the stacked views.  The gradient of each output goes to one element
    of its window: the first, in row-major order, equal to the output.

    Args:
      input: the array to filter (real).
      rank: the rank, from 0 (the minimum); negative counts from the maximum (-1).
      size: the box's length, one int or one per filtered axis.
      footprint: a boolean array marking the window's elements (static); give this
        or ``size``.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      origin: the window's centre shift, one int or one per filtered axis.
      axes: the axes to filter (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.rank_filter([3, 1, 4, 1, 5, 9, 2, 6], rank=1, size=3)
      Array([3, 3, 1, 4, 5, 5, 6, 6], dtype=int32)
    """
    fn = _PREFIX + "rank_filter"
    return _rank(fn, input, rank, size, footprint, output, mode, cval, origin, axes, "rank")


def median_filter(
    input: Any,
    size: Any = None,
    footprint: Any = None,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    origin: Any = 0,
    *,
    axes: Any = None,
) -> jax.Array:
    """The median of each window, as ``scipy.ndimage.median_filter`` (for an even count,
    the upper of the two middle elements, as scipy).

    Args:
      input: the array to filter (real).
      size: the box's length, one int or one per filtered axis.
      footprint: a boolean array marking the window's elements (static); give this
        or ``size``.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      origin: the window's centre shift, one int or one per filtered axis.
      axes: the axes to filter (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.median_filter([3, 1, 4, 1, 5, 9, 2, 6], size=3)
      Array([3, 3, 1, 4, 5, 5, 6, 6], dtype=int32)
    """
    fn = _PREFIX + "median_filter"
    return _rank(fn, input, 0, size, footprint, output, mode, cval, origin, axes, "median")


def percentile_filter(
    input: Any,
    percentile: float,
    size: Any = None,
    footprint: Any = None,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    origin: Any = 0,
    *,
    axes: Any = None,
) -> jax.Array:
    """A percentile of each window, as ``scipy.ndimage.percentile_filter``.

    Args:
      input: the array to filter (real).
      percentile: from -100 to 100; negative counts from the top (-20 is 80).
      size: the box's length, one int or one per filtered axis.
      footprint: a boolean array marking the window's elements (static); give this
        or ``size``.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      origin: the window's centre shift, one int or one per filtered axis.
      axes: the axes to filter (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.percentile_filter([3, 1, 4, 1, 5, 9, 2, 6], percentile=100, size=3)
      Array([3, 4, 4, 5, 9, 9, 9, 6], dtype=int32)
    """
    fn = _PREFIX + "percentile_filter"
    return _rank(
        fn, input, percentile, size, footprint, output, mode, cval, origin, axes, "percentile"
    )
