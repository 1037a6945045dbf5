"""scipy.ndimage's minimum, maximum, rank, median and percentile filters: a box as 1-D
min/max passes (``box``), a footprint or a rank as a selection of its windows
(``selection``); the gradient of each output goes to one element of its window.
"""

from __future__ import annotations

import numbers
from typing import Any

import jax
import numpy as np

from jaxpad.scipy._args import (
    _PREFIX,
    _axes,
    _axis,
    _cast,
    _cval,
    _expand,
    _input,
    _int,
    _mode,
    _modes_for,
    _origin,
    _output_dtype,
    _per_axis,
    _size,
)
from jaxpad.scipy._selection._box import box
from jaxpad.scipy._selection._extreme import extreme
from jaxpad.scipy._selection._windows import selection

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


def _selection(x, cval, begins, ends, modes, offsets, kind, window):
    """``kind`` ("min", "max" or a rank) of each window of the padded ``x`` (the
    elements at ``offsets`` from each output), differentiable in ``x`` and ``cval``:
    ``_windows.selection``, whose tangent is the tangent of the first window element
    (in the order of ``offsets``, row-major) equal to the output."""
    return selection(
        x, cval, offsets=offsets, begins=begins, ends=ends, modes=modes, kind=kind, window=window
    )


def _extreme_axis(x, size: int, axis: int, jmode: str, cval, origin: int, minimum: bool):
    """min/max over a window of ``size`` along ``axis`` (``_extreme.extreme``: windows of
    1, 2, 4, ... by doubling, then two overlapping power-of-two windows).

    Its tangent is the tangent of the window's first element equal to the output (the
    first NaN for a NaN): for sizes up to ``_extreme._WINNER_MAX``, ``_extreme.winner_p``,
    whose transpose finds each element's windows by running extremes fused with the
    cotangent reads (no index); for longer windows ``_selected.selected_p`` with the
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
        # (_box.box: the same passes; past _box._BOX_SLAB_BYTES those off axis 0
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
