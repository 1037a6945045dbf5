"""Per-axis and per-side boundary modes: parsing ``mode`` and ``pad_value``, the pad
value's term, and the per-side compositions (traced ``dynamic_pad`` pads, sharded
programs).

A mode per side is either one of ``MODES`` for every side (the primitives' string
``mode``, planned by ``_lowering``) or a tuple with one ``(begin, end)`` pair per axis.
Every side mode is linear in ``(x, pad_value)``, so a pad is ``L(x) + V(pad_value)``.
The primitive computes both, the values being its ``(ndim, 2)`` operand. ``V`` is a
sum of separable terms: the value of side ``s`` of axis ``k`` lands on that side's
region of axis ``k`` (times 1 for ``constant``, 2 for ``dirichlet``), spread over the
whole extent of the axes padded before ``k`` and carried through the axes padded
after it by what they make of a constant (``row_sum``: 1 where they copy or mirror, 0
on a constant side, -1 on a dirichlet side). ``_lowering.value_term`` builds it,
with the rest of the per-side formula; here it serves the primitive's transpose (the
values' cotangent) and values batched per example.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad import _checks
from jaxpad._index_maps import (
    ARITHMETIC_MODES,
    MODES,
    SIDE_MODES,
    VALUE_MODES,
    base_mode,
    period,
    side_coefficients,
    source_index,
)
from jaxpad._lowering import (
    add_values,
    index_dtype,
    scaled_along,
    sided_terms,
    value_term,
    whole_axis_coefficients,
)

__all__ = ["add_values", "value_term"]  # the per-side formula lives in _lowering

Sides = tuple[tuple[str, str], ...]


def _check_one(fn_name: str, mode: object, where: str) -> str:
    return _checks.check_mode(fn_name, mode, SIDE_MODES, arg_name=where)


def parse_modes(fn_name: str, mode: object, ndim: int) -> str | Sides:
    """``mode`` as one string of ``MODES`` (every side alike) or one pair per axis."""
    if isinstance(mode, str):
        mode = _check_one(fn_name, mode, "mode")
        return mode if mode in MODES else ((mode, mode),) * ndim
    if not isinstance(mode, Sequence):
        raise TypeError(
            f"{fn_name}: mode must be a string, or a sequence with one entry per axis of x, "
            f"each a string or a (begin, end) pair of strings; got {mode!r}."
        )
    if len(mode) != ndim:
        raise ValueError(
            f"{fn_name}: mode needs one entry per axis of x (x.ndim={ndim}); got "
            f"{len(mode)}: {tuple(mode)!r}."
        )
    pairs = []
    for axis, entry in enumerate(mode):
        if isinstance(entry, str):
            entry = _check_one(fn_name, entry, f"mode[{axis}]")
            pairs.append((entry, entry))
            continue
        if not isinstance(entry, Sequence) or len(entry) != 2:
            raise TypeError(
                f"{fn_name}: mode[{axis}] must be a string or a (begin, end) pair of "
                f"strings; got {entry!r}."
            )
        begin, end = (
            _check_one(fn_name, side, f"mode[{axis}][{i}]") for i, side in enumerate(entry)
        )
        pairs.append((begin, end))
    sides = {side for pair in pairs for side in pair}
    if len(sides) == 1 and next(iter(sides)) in MODES:
        return next(iter(sides))
    return tuple(pairs)


def describe_modes(modes: str | Sides) -> str:
    return repr(modes) if isinstance(modes, str) else repr(tuple(modes))


def check_dtype(fn_name: str, modes: Sides, dtype) -> None:
    arithmetic = sorted({side for pair in modes for side in pair} & set(ARITHMETIC_MODES))
    if arithmetic and np.dtype(dtype) == np.bool_:
        raise TypeError(
            f"{fn_name}: mode {arithmetic[0]!r} computes 2 * edge - mirror, which needs a "
            f"numeric x; got x of dtype bool."
        )


def values_operand(fn_name: str, pad_value: Any, modes: str | Sides, ndim: int, dtype):
    """The per-side values as an ``(ndim, 2)`` array of ``dtype``, or None for zeros."""
    if pad_value is None:
        return None
    sides = {modes} if isinstance(modes, str) else {side for pair in modes for side in pair}
    if not sides & set(VALUE_MODES):
        raise ValueError(
            f"{fn_name}: pad_value is only read by sides whose mode is 'constant' or "
            f"'dirichlet'; got pad_value={_checks.describe(pad_value)} with mode="
            f"{describe_modes(modes)}."
        )
    shape = np.shape(pad_value)
    if shape not in ((), (ndim, 2)):
        raise ValueError(
            f"{fn_name}: pad_value must be a scalar or have shape (x.ndim, 2) = ({ndim}, 2), "
            f"one value per side of each axis; got shape {shape}."
        )
    if shape == ():
        return jnp.broadcast_to(
            _checks.pad_value_operand(fn_name, pad_value, "constant", dtype), (ndim, 2)
        )
    rows = [
        [
            _checks.pad_value_operand(fn_name, pad_value[axis][side], "constant", dtype)
            for side in (0, 1)
        ]
        for axis in range(ndim)
    ]
    return jnp.stack([jnp.stack(row) for row in rows])


def dynamic_sided_pad(x, entries, shape, modes: Sides, values):
    """``dynamic_pad`` with per-side modes and traced pads, as ``jnp`` operations.

    ``entries`` holds one pad per axis (an int or a traced integer scalar). Axis by
    axis, as the static pad: a gather through the side's index map, its sign, edge
    and value terms. Each traced pad is first reduced to one in
    ``[-n - period, size + period)`` plus a count of whole periods, which only the
    odd modes read (each period adds ``2 (x[n - 1] - x[0])``), so no offset
    overflows whatever the pad's dtype and value.
    """
    y = x
    for axis, (pad, size) in enumerate(zip(entries, shape)):
        n = x.shape[axis]
        if isinstance(pad, int) and pad == 0 and size == n:
            continue
        out_shape = list(y.shape)
        out_shape[axis] = size
        if n == 0:  # only constant sides get here (the shape rule)
            padded = jnp.zeros(out_shape, y.dtype)
            y = padded if values is None else padded + values[axis, 0].astype(y.dtype)
            continue
        dtype = index_dtype(n, size)
        reduced, extra = _reduced_sided_pad(pad, n, size, modes[axis], y.dtype, dtype)
        offsets = lax.iota(dtype, size) - reduced
        coefficients = side_coefficients(modes[axis], n, offsets, xp=jnp, periods_before=extra)
        sources = jnp.clip(offsets, 0, n - 1)
        for region, side_mode in ((offsets < 0, modes[axis][0]), (offsets >= n, modes[axis][1])):
            if side_mode != "constant":
                mapped = source_index(base_mode(side_mode), n, offsets, xp=jnp)
                sources = jnp.where(region, mapped, sources)
        gathered = jnp.take(y, sources, axis=axis)
        if y.dtype == np.bool_:  # copies only: the arithmetic modes were refused
            keep = [size if a == axis else 1 for a in range(y.ndim)]
            padded = gathered & (coefficients.sign != 0).reshape(keep)
        else:
            padded = sided_terms(gathered, y, coefficients, axis, n)
        if values is not None:
            for side, region in enumerate((offsets < 0, offsets >= n)):
                compute = np.dtype(np.int32) if y.dtype == np.bool_ else y.dtype
                weight = jnp.where(region, coefficients.value, 0)
                term = scaled_along(values[axis, side].astype(compute), weight, axis, y.ndim)
                padded = add_values(padded, term)
        y = padded
    return y


def _reduced_sided_pad(pad, n: int, size: int, modes, dtype, index=np.int32):
    """A pad of the ``index`` dtype reading as ``pad`` does, and the whole periods
    each side skipped (in ``dtype``, for the odd modes' drift)."""
    periods = []
    for side_mode in modes:
        side_mode = "edge" if n == 1 else side_mode
        base = base_mode(side_mode)
        periods.append(period(base, n) if base in ("reflect", "symmetric", "wrap") else 1)
    compute = np.dtype(np.int32) if np.dtype(dtype) == np.bool_ else np.dtype(dtype)
    if isinstance(pad, int):
        # Exactly, in Python: a static pad of any size (past int32 with 64-bit types
        # off, where it cannot become an array first).
        before, after = max(pad - size, 0), max(-n - pad, 0)
        reduced = (
            size + before % periods[0] if before else -n - after % periods[1] if after else pad
        )
        turns = (-(before // periods[0]), after // periods[1])
        return jnp.asarray(reduced, index), tuple(_wrapped(turn, compute) for turn in turns)
    pad = jnp.asarray(pad)
    if jnp.iinfo(pad.dtype).bits < jnp.iinfo(index).bits:
        pad = pad.astype(index)
    zero = jnp.zeros((), pad.dtype)
    before_excess = jnp.where(pad > size, pad - size, zero)
    unsigned = jnp.issubdtype(pad.dtype, jnp.unsignedinteger)
    after_excess = zero if unsigned else jnp.where(pad < -n, -n - pad, zero)
    turns_before = before_excess // periods[0]
    turns_after = after_excess // periods[1]
    reduced = jnp.where(
        pad > size,
        size + (before_excess % periods[0]).astype(index),
        jnp.where(pad < -n, -n - (after_excess % periods[1]).astype(index), pad.astype(index))
        if not unsigned
        else pad.astype(index),
    ).astype(index)
    return reduced, (-turns_before.astype(compute), turns_after.astype(compute))


def _wrapped(turns: int, dtype: np.dtype):
    """A Python int in ``dtype``: integers wrap as the array arithmetic would."""
    if np.issubdtype(dtype, np.integer):
        bits = np.iinfo(dtype).bits
        turns = (turns + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)
        return jnp.asarray(np.asarray(turns).astype(dtype))
    return jnp.asarray(float(turns), dtype)


def value_cotangent(t, modes: Sides, x_shape, pads_begin):
    """The transpose of ``value_term``: each side value's share of the cotangent."""
    ndim = len(x_shape)
    zeros = jnp.zeros((ndim, 2), t.dtype)
    term = value_term(zeros, modes, x_shape, t.shape, pads_begin)
    if term is None:
        return zeros
    _, transpose = jax.vjp(lambda v: value_term(v, modes, x_shape, t.shape, pads_begin), zeros)
    return transpose(t)[0]


def composed_pad(x, values, pads_begin, pads_end, modes: Sides, pad_one_mode):
    """A per-side pad as one-mode pads of its sides' base modes, then the signs, edge
    and value terms, axis by axis: for programs partitioned over several devices,
    where each one-mode pad (``pad_one_mode(y, pads_begin, pads_end, mode)``) plans
    its own exchange and the rest is elementwise, plus the edge rows."""
    ndim = x.ndim
    y = x
    for axis in range(ndim):
        lo, hi = pads_begin[axis], pads_end[axis]
        if not (lo or hi):
            continue
        n = y.shape[axis]
        coefficients, begin = whole_axis_coefficients(modes[axis], n, lo + n + hi, lo)
        begins, ends = [0] * ndim, [0] * ndim
        begins[axis], ends[axis] = lo, hi
        bases = [base_mode(side) for side in modes[axis]]
        pads = [pad_one_mode(y, begins, ends, base) for base in dict.fromkeys(bases)]
        if len(pads) == 2:
            along = [lo + n + hi if a == axis else 1 for a in range(ndim)]
            padded = jnp.where(jnp.reshape(begin, along), pads[0], pads[1])
        else:
            padded = pads[0]
        y = sided_terms(padded, y, coefficients, axis, n)
    # The values' term once, with net coefficients (a value carried through a later
    # odd or dirichlet axis is ``2 v - v``, which an infinite v would make nan).
    return add_values(y, value_term(values, modes, x.shape, y.shape, pads_begin))
