"""``jaxpad.numpy.pad``: ``jax.numpy.pad``'s signature and results on jaxpad's primitives.

constant, edge, reflect, symmetric and wrap go through ``jaxpad.pad`` (one primitive and
its fast fold, instead of jnp.pad's slice/concatenate chains); odd reflection is an even
reflection plus a linear term in the edge values. linear_ramp, the statistics modes,
empty and a callable are built from lax ops, as jnp.pad builds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from jaxpad import _checks
from jaxpad._pad import pad as jaxpad_pad
from jaxpad._pad import pad_value_operand
from jaxpad._typing import PadWidth

_FN = "jaxpad.numpy.pad"

_STATISTICS = {"maximum": jnp.max, "minimum": jnp.min, "mean": jnp.mean, "median": jnp.median}

# The keyword arguments each mode reads; numpy and jnp.pad reject any other.
_ALLOWED_KWARGS = {
    "constant": ("constant_values",),
    "edge": (),
    "wrap": (),
    "reflect": ("reflect_type",),
    "symmetric": ("reflect_type",),
    "linear_ramp": ("end_values",),
    "maximum": ("stat_length",),
    "mean": ("stat_length",),
    "median": ("stat_length",),
    "minimum": ("stat_length",),
    "empty": (),
}

_TRACED_WIDTH_HINT = (
    " Widths known only at run time need jaxpad.dynamic_pad(x, pads_begin, shape, mode)."
)


def pad(
    array: ArrayLike,
    pad_width: PadWidth,
    mode: str | Callable = "constant",
    **kwargs: Any,
) -> jax.Array:
    """Drop-in for ``jax.numpy.pad``: the same arguments, the same results.

    The modes jaxpad has as primitives (constant with one value per side, edge,
    reflect, symmetric, wrap) lower to one ``jaxpad_pad`` op each, whose gradient is
    jaxpad's fold rather than jnp.pad's chain of slices; change the import and keep
    the call.

    Args:
      array: the array to pad.
      pad_width: static non-negative ints: ``((before_1, after_1), ..., (before_N,
        after_N))``, ``((before, after),)``, ``(before, after)``, ``(pad,)`` or ``pad``.
      mode: ``"constant"``, ``"edge"``, ``"reflect"``, ``"symmetric"``, ``"wrap"``,
        ``"linear_ramp"``, ``"maximum"``, ``"mean"``, ``"median"``, ``"minimum"``,
        ``"empty"``, or a callable ``f(row, pad_width, iaxis, kwargs) -> row`` applied
        along every axis of the zero-padded array.
      **kwargs: ``constant_values`` (constant; a scalar or per-axis pairs, may be
        traced), ``reflect_type`` (``"even"`` or ``"odd"``; reflect and symmetric),
        ``end_values`` (linear_ramp), ``stat_length`` (the statistics modes), or the
        callable's own keyword arguments.

    Returns:
      The padded array, with ``array``'s dtype.

    Example:
      >>> import jax.numpy as jnp
      >>> import jaxpad.numpy as jpnp
      >>> jpnp.pad(jnp.array([1, 2, 3]), (2, 1), mode="reflect", reflect_type="odd")
      Array([-1,  0,  1,  2,  3,  4], dtype=int32)
    """
    array = jnp.asarray(array)
    ndim = array.ndim
    widths = _pairs("pad_width", pad_width, ndim, integer=True)
    if callable(mode):
        return _pad_callable(array, widths, mode, kwargs)
    mode = _checks.check_choice(_FN, "mode", mode, tuple(_ALLOWED_KWARGS))
    unsupported = sorted(set(kwargs) - set(_ALLOWED_KWARGS[mode]))
    if unsupported:
        raise ValueError(
            f"{_FN}: mode={mode!r} takes no keyword argument {', '.join(unsupported)}; "
            f"it accepts {list(_ALLOWED_KWARGS[mode]) or 'none'}."
        )
    if ndim == 0:
        # numpy and jnp.pad return a 0-d array unchanged, whatever the widths.
        return array
    if mode not in ("constant", "empty"):
        for axis, (before, after) in enumerate(widths):
            if array.shape[axis] == 0 and (before or after):
                raise ValueError(
                    f"{_FN}: mode={mode!r} cannot extend axis {axis} of shape "
                    f"{array.shape}: it is empty; only 'constant' and 'empty' can."
                )
    if mode == "constant":
        return _pad_constant(array, widths, kwargs.get("constant_values", 0))
    if mode == "empty":
        return _pad_all(array, widths, "constant")
    if mode in ("edge", "wrap"):
        return _pad_all(array, widths, mode)
    if mode in ("reflect", "symmetric"):
        reflect_type = kwargs.get("reflect_type", "even")
        _checks.check_choice(_FN, "reflect_type", reflect_type, ("even", "odd"))
        if reflect_type == "even":
            return _pad_all(array, widths, mode)
        return _pad_odd(array, widths, mode)
    if mode == "linear_ramp":
        end_values = _pairs("end_values", kwargs.get("end_values", 0), ndim, integer=False)
        return _pad_linear_ramp(array, widths, end_values)
    stat_length = kwargs.get("stat_length")
    if stat_length is not None:
        stat_length = _pairs("stat_length", stat_length, ndim, integer=True)
    return _pad_statistic(array, widths, stat_length, _STATISTICS[mode])


def _pairs(arg_name: str, value, ndim: int, *, integer: bool):
    """numpy's ``_as_pairs``: one ``(before, after)`` pair per axis, from a scalar, a
    pair, or anything that broadcasts to shape ``(ndim, 2)``. Integer pairs come back
    as Python ints, others as scalars that may be traced."""
    traced = any(isinstance(v, jax.core.Tracer) for v in jax.tree_util.tree_leaves(value))
    if traced and integer:
        hint = _TRACED_WIDTH_HINT if arg_name == "pad_width" else ""
        raise TypeError(f"{_FN}: {arg_name} must be static; got a traced value.{hint}")
    xp = jnp if traced else np
    try:
        values = xp.asarray(value)
    except (ValueError, TypeError):
        raise ValueError(
            f"{_FN}: {arg_name} must be a scalar or nested pairs of one shape; got {value!r}."
        ) from None
    if integer:
        if values.dtype == np.bool_ or not np.issubdtype(values.dtype, np.integer):
            raise TypeError(f"{_FN}: {arg_name} must hold integers; got {value!r}.")
        if (values < 0).any():
            hint = " (jaxpad.pad crops with negative pads)" if arg_name == "pad_width" else ""
            raise ValueError(f"{_FN}: {arg_name} must be non-negative{hint}; got {value!r}.")
    if values.size == 1:
        values = xp.broadcast_to(xp.reshape(values, ()), (ndim, 2))
    elif values.size == 2 and values.shape != (2, 1):
        values = xp.broadcast_to(xp.reshape(values, (1, 2)), (ndim, 2))
    elif values.ndim > 2 or not all(
        have in (1, want) for have, want in zip(values.shape[::-1], (2, ndim))
    ):
        raise ValueError(
            f"{_FN}: {arg_name} must be a scalar, a (before, after) pair or one pair per "
            f"axis, broadcastable to shape ({ndim}, 2); got shape {values.shape}."
        )
    else:
        values = xp.broadcast_to(values, (ndim, 2))
    if integer:
        return tuple((int(before), int(after)) for before, after in values)
    return tuple((values[axis, 0], values[axis, 1]) for axis in range(ndim))


def _axis_pads(ndim: int, axis: int, before: int, after: int):
    pads_begin = [0] * ndim
    pads_end = [0] * ndim
    pads_begin[axis], pads_end[axis] = before, after
    return pads_begin, pads_end


def _pad_all(array, widths, mode):
    return jaxpad_pad(array, [b for b, _ in widths], [a for _, a in widths], mode)


def _pad_constant(array, widths, constant_values):
    ndim = array.ndim
    values = _pairs("constant_values", constant_values, ndim, integer=False)
    flat = [v for pair in values for v in pair]
    if not any(isinstance(v, jax.core.Tracer) for v in flat) and all(
        np.array_equal(v, flat[0]) for v in flat
    ):
        value = pad_value_operand(_FN, flat[0], "constant", array.dtype)
        return jaxpad_pad(array, *zip(*widths), "constant", value)
    values = [[pad_value_operand(_FN, v, "constant", array.dtype) for v in pair] for pair in values]
    # Per-side values: later axes' pads cover the corners, as in numpy.
    for axis, ((before, after), (value_before, value_after)) in enumerate(zip(widths, values)):
        if before:
            array = jaxpad_pad(array, *_axis_pads(ndim, axis, before, 0), "constant", value_before)
        if after:
            array = jaxpad_pad(array, *_axis_pads(ndim, axis, 0, after), "constant", value_after)
    return array


def _pad_odd(array, widths, mode):
    """numpy's odd reflection, ``2 * edge - mirrored``, applied repeatedly past the axis.

    The reflections about both ends generate a translation by one period ``p`` that
    adds ``2 * (last - first)``. So on an axis, with ``k = floor(j / p)`` periods and
    ``mirrored`` marking positions read backwards, the odd pad of source index ``j`` is
    ``sign * even_pad + (2k + 2 mirrored) * last - 2k * first``: one jaxpad pad plus
    static coefficient tables.
    """
    for axis, (before, after) in enumerate(widths):
        n = array.shape[axis]
        if not (before or after):
            continue
        even = jaxpad_pad(array, *_axis_pads(array.ndim, axis, before, after), mode)
        if n == 1:
            # numpy extends a singleton axis by its edge in both reflect types.
            array = even
            continue
        period = 2 * (n - 1) if mode == "reflect" else 2 * n
        source = np.arange(-before, n + after)
        periods, phase = np.divmod(source, period)
        mirrored = phase >= n
        sign = np.where(mirrored, -1, 1)
        last_coefficient = 2 * periods + 2 * mirrored
        first_coefficient = -2 * periods
        shape = [1] * array.ndim
        shape[axis] = source.size
        first = lax.slice_in_dim(array, 0, 1, axis=axis)
        last = lax.slice_in_dim(array, n - 1, n, axis=axis)
        dtype = array.dtype

        def table(values, shape=shape, dtype=dtype):
            return jnp.asarray(values.reshape(shape)).astype(dtype)

        array = (
            table(sign) * even + table(last_coefficient) * last + table(first_coefficient) * first
        )
    return array


def _pad_linear_ramp(array, widths, end_values):
    for axis, ((before, after), (end_before, end_after)) in enumerate(zip(widths, end_values)):
        edge_before = lax.slice_in_dim(array, 0, 1, axis=axis)
        edge_after = lax.slice_in_dim(array, -1, None, axis=axis)
        ramp_before = _ramp(end_before, edge_before, before, axis)
        ramp_after = jnp.flip(_ramp(end_after, edge_after, after, axis), axis)
        array = lax.concatenate([ramp_before, array, ramp_after], axis)
    return array


def _ramp(start, stop, num: int, axis: int):
    """``linspace(start, stop, num, endpoint=False)`` along ``axis``, as numpy computes it.

    numpy (>= 2) floors integer ramps. Floating point gets ``start + j * d / num`` one
    unit below an exact integer (jnp.pad's ``100 -> 10`` ramp gives 45 where numpy
    gives 46), so integer ramps use exact integer arithmetic instead: ``d = q num + r``,
    ``start + j q + floor(j r / num)``.
    """
    dtype = stop.dtype
    if not jnp.issubdtype(dtype, jnp.integer):
        return jnp.linspace(
            start, jnp.squeeze(stop, axis), num, endpoint=False, dtype=dtype, axis=axis
        )
    shape = [1] * stop.ndim
    shape[axis] = num
    steps = jnp.arange(num).reshape(shape)
    wide = jnp.int64 if jax.config.read("jax_enable_x64") else jnp.int32
    start = jnp.asarray(start).astype(wide)
    span = stop.astype(wide) - start
    quotient = jnp.floor_divide(span, num) if num else span
    remainder = span - quotient * num
    ramp = start + steps * quotient + jnp.floor_divide(steps * remainder, max(num, 1))
    return ramp.astype(dtype)


def _pad_statistic(array, widths, stat_length, statistic):
    if stat_length is not None and statistic in (jnp.max, jnp.min):
        # numpy checks every axis, padded or not: a maximum of nothing has no value.
        for axis, lengths in enumerate(stat_length):
            if 0 in lengths:
                raise ValueError(
                    f"{_FN}: stat_length of 0 on axis {axis} gives no value to pad with; "
                    f"got stat_length={lengths}."
                )
    for axis, (before, after) in enumerate(widths):
        n = array.shape[axis]
        if not (before or after):
            continue
        if stat_length is None:
            lengths = (n, n)
        else:
            lengths = stat_length[axis]
            if 0 in lengths and (before or after):
                raise ValueError(
                    f"{_FN}: stat_length of 0 on axis {axis} gives no value to pad with; "
                    f"got stat_length={lengths}."
                )
            lengths = tuple(min(length, n) for length in lengths)
        parts = []
        for width, window in (
            (before, lax.slice_in_dim(array, 0, lengths[0], axis=axis)),
            (after, lax.slice_in_dim(array, n - lengths[1], n, axis=axis)),
        ):
            value = statistic(window, axis=axis, keepdims=True)
            if jnp.issubdtype(array.dtype, jnp.integer):
                value = jnp.round(value)
            value = value.astype(array.dtype)
            shape = list(array.shape)
            shape[axis] = width
            parts.append(jnp.broadcast_to(value, shape))
        array = lax.concatenate([parts[0], array, parts[1]], axis)
    return array


def _pad_callable(array, widths, function, kwargs):
    padded = _pad_all(array, widths, "constant")
    for axis in range(padded.ndim):
        padded = jnp.apply_along_axis(function, axis, padded, widths[axis], axis, kwargs)
    return padded
