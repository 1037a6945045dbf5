"""The forms of static pads and their folds (the pad's transpose).

Forward: ``jnp.pad``'s concatenate of the slices each output range reads, or one
gather through per-axis index tables. Fold: a crop, one fused sum of the pieces
padded into place, a concatenate of boxes, or a slice plus in-place band updates
(``FoldPlan``). Each builds exactly what its plan names.
"""

from __future__ import annotations

import dataclasses
import itertools

import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad._gather import gather_tables
from jaxpad._index_maps import (
    Piece,
    interior_range,
    source_index,
)
from jaxpad._lowering._plans import _MAX_UNROLLED_SUM, FoldPlan, PadPlan, _segments, index_dtype
from jaxpad._lowering._terms import scaled_along


def build_pad(plan: PadPlan, x, out_shape, pads_begin, mode):
    """The forward graph of ``plan`` (any form but ``"lax_pad"``)."""
    if plan.form == "zeros":
        return jnp.zeros(out_shape, x.dtype)
    if plan.bits is not None:
        # XLA:CPU would convert a concatenate of x's dtype to float32 and back.
        as_bits = dataclasses.replace(plan, bits=None)
        padded = build_pad(
            as_bits, lax.bitcast_convert_type(x, plan.bits), out_shape, pads_begin, mode
        )
        return lax.bitcast_convert_type(padded, x.dtype)
    if plan.form == "gather":
        return gather_padded(x, out_shape, pads_begin, mode, in_graph=plan.in_graph)
    if plan.form == "concatenate" and plan.lifted:
        as_2d = dataclasses.replace(plan, lifted=False)
        padded = concatenate_padded(x[None], as_2d, (1, *out_shape), (0, *pads_begin), mode)
        return padded.reshape(out_shape)
    if plan.form == "concatenate":
        return concatenate_padded(x, plan, out_shape, pads_begin, mode)
    raise AssertionError(plan)


def gather_padded(x, out_shape, pads_begin, mode, in_graph=()):
    """One gather that reads every output element from its source.

    A single gather with per-axis index tables is as fast as ``lax.pad`` on CPU,
    where ``jnp.pad``'s slice/concatenate chains copy the array once per axis.
    """
    tables = {}
    for axis in range(x.ndim):
        n, size = x.shape[axis], out_shape[axis]
        if not pads_begin[axis] and size == n:
            continue
        if axis in in_graph:
            offsets = lax.iota(index_dtype(n, size), size) - pads_begin[axis]
            tables[axis] = source_index(mode, n, offsets, xp=jnp)
        else:
            tables[axis] = source_index(mode, n, np.arange(size) - pads_begin[axis])
    return gather_tables(x, tables)


def piece_values(x, piece, axis: int):
    """What ``piece`` writes into the output along ``axis``: its source slice of ``x``,
    mirrored (reflect, symmetric) or stretched (edge) to the piece's length; for a
    pad spanning periods, one period of the pattern tiled and cut to the piece (a
    broadcast and a reshape, so the op count does not grow with the pad)."""
    if piece.kind == "period":
        inner = sorted(piece.inner, key=lambda p: p.start)
        length = piece.stop - piece.start
        reps = -(-(piece.phase + length) // piece.period)
        if reps <= _MAX_UNROLLED_SUM:
            # A few periods: their runs cut to the piece and concatenated, one copy
            # as jnp.pad's; a tiled block was materialised first (4-6x jnp.pad).
            parts = []
            for rep in range(reps):
                for run in inner:
                    lo = max(rep * piece.period + run.start - piece.phase, 0)
                    hi = min(rep * piece.period + run.stop - piece.phase, length)
                    if hi > lo:
                        values = piece_values(x, run, axis)
                        offset = rep * piece.period + run.start - piece.phase
                        parts.append(lax.slice_in_dim(values, lo - offset, hi - offset, axis=axis))
            return lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]
        parts = [piece_values(x, p, axis) for p in inner]
        block = lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]
        shape = list(block.shape)
        tiled_shape = shape[:axis] + [reps] + shape[axis:]
        dims = tuple(d for d in range(len(tiled_shape)) if d != axis)
        tiled = lax.broadcast_in_dim(block, tiled_shape, dims)
        shape[axis] = reps * piece.period
        tiled = tiled.reshape(shape)
        return lax.slice_in_dim(tiled, piece.phase, piece.phase + length, axis=axis)
    part = lax.slice_in_dim(x, piece.src_start, piece.src_stop, axis=axis)
    if piece.kind == "reverse":
        return lax.rev(part, (axis,))
    if piece.kind == "sum":
        shape = list(part.shape)
        shape[axis] = piece.stop - piece.start
        return jnp.broadcast_to(part, shape)
    return part


def concatenate_padded(x, plan, out_shape, pads_begin, mode):
    """Pads axis by axis with a concatenate of the pieces each output range reads.

    One pass per padded axis, multi-threaded, no index table. For programs
    partitioned over several devices XLA's SPMD partitioner turns the slices and the
    concatenate along a sharded axis into collective-permutes of the bands that
    cross a shard boundary, where it would all-gather the operand of a gather. Pads
    spanning periods tile one period (``piece_values``), so the op count stays flat
    in the pad width.
    """
    if plan.crop:
        x = lax.slice(x, *zip(*plan.crop))
    for axis, pieces in plan.pieces:
        pieces = sorted(pieces, key=lambda p: p.start)
        if mode == "edge" and plan.partitioned:
            x = _edge_by_pads(x, axis, pieces, out_shape[axis])
            continue
        parts = [piece_values(x, piece, axis) for piece in pieces]
        x = lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]
    if plan.crop_after:
        x = lax.slice(x, *zip(*plan.crop_after))
    return x


def _edge_by_pads(x, axis, pieces, size):
    """Edge padding of one axis as a sum of padded parts.

    A concatenate with the broadcast edge rows makes the partitioner all-gather the
    operand; padding each part into place moves only the rows near the edges.
    """
    total = None
    for piece in pieces:
        part = piece_values(x, piece, axis)
        config = [(0, 0, 0)] * x.ndim
        config[axis] = (piece.start, size - piece.stop, 0)
        part = lax.pad(part, np.zeros((), x.dtype), config)
        total = part if total is None else total + part
    return total


@dataclasses.dataclass(frozen=True)
class Accumulation:
    """How a half-float fold adds: its elements are held as ``held`` (their own
    ``dtype``, or the same-width unsigned ``bits`` that XLA:CPU moves without
    converting), and every sum runs in ``wide``, rounded once per group."""

    dtype: np.dtype
    wide: np.dtype
    bits: np.dtype | None = None

    @property
    def held(self):
        return self.dtype if self.bits is None else self.bits

    def widen(self, part):
        if part.dtype == self.wide:
            return part
        if self.bits is not None and part.dtype == self.bits:
            part = lax.bitcast_convert_type(part, self.dtype)
        return part.astype(self.wide)

    def hold(self, part):
        """``part`` (held, own or wide) as held: a wide sum is rounded once here."""
        if part.dtype == self.held:
            return part
        part = part.astype(self.dtype)
        return part if self.bits is None else lax.bitcast_convert_type(part, self.bits)

    def own(self, part):
        """A held ``part`` in its own dtype."""
        return part if part.dtype == self.dtype else lax.bitcast_convert_type(part, self.dtype)


def build_fold(plan: FoldPlan, t, operand_shape):
    """The fold graph of ``plan`` (any form but ``"crop"``)."""
    if plan.form == "zeros":
        return jnp.zeros(operand_shape, t.dtype)
    dtype, acc = t.dtype, None
    if plan.round_once:
        # Small: every group in float32, rounded once at the end.
        t = t.astype(plan.accumulate)
    elif plan.accumulate is not None:
        acc = Accumulation(np.dtype(dtype), np.dtype(plan.accumulate), plan.bits)
        if acc.bits is not None:
            t = lax.bitcast_convert_type(t, acc.bits)
    fold = {"one_sum": fold_as_one_sum, "boxes": fold_as_concatenate, "bands": fold_axes}
    for group in plan.groups:
        t = fold[plan.form](t, plan.pieces_of(group), operand_shape, acc)
    if acc is not None and acc.bits is not None:
        return lax.bitcast_convert_type(t, dtype)
    return t.astype(dtype)


def _total(parts, acc: Accumulation | None = None):
    """The sum of ``parts`` (None where there are none): with ``acc``, added in its
    ``wide`` type and rounded once, held as ``acc`` holds elements."""
    if not parts:
        return None
    if acc is None:
        total = parts[0]
        for part in parts[1:]:
            total = total + part
        return total
    if len(parts) == 1:
        return acc.hold(parts[0])
    total = acc.widen(parts[0])
    for part in parts[1:]:
        total = total + acc.widen(part)
    return acc.hold(total)


def extract(piece: Piece, t, axis: int, acc: Accumulation | None = None):
    """The cotangent ``t``'s contribution to ``[src_start, src_stop)`` along ``axis``;
    with ``acc``, a piece that sums or scales (edge runs, weighted edge terms,
    periods, signs) does so in ``acc.wide`` and returns that unrounded."""
    part = lax.slice_in_dim(t, piece.start, piece.stop, axis=axis)
    if acc is not None and (piece.scale or piece.kind in ("weighted", "sum", "period")):
        part = acc.widen(part)
    if piece.scale:
        part = scaled_along(part, piece.scale, axis)
    if piece.kind == "copy":
        return part
    if piece.kind == "weighted":
        return scaled_along(part, piece.weights, axis).sum(axis=axis, keepdims=True)
    if piece.kind == "reverse":
        return lax.rev(part, (axis,))
    if piece.kind == "sum":
        length = piece.stop - piece.start
        if length > _MAX_UNROLLED_SUM:
            return part.sum(axis=axis, keepdims=True)
        # A few adds fuse into the consumer; a reduction is a kernel of its own.
        total = lax.slice_in_dim(part, 0, 1, axis=axis)
        for i in range(1, length):
            total = total + lax.slice_in_dim(part, i, i + 1, axis=axis)
        return total
    # "period": sum whole periods first, so that the op count does not grow with
    # the pad, then fold that one period.
    length = piece.stop - piece.start
    reps = -(-(piece.phase + length) // piece.period)
    if reps <= _MAX_UNROLLED_SUM:
        # As for edge: a few adds of shifted slices fuse into the consumer. Padding
        # to whole periods made XLA write the padded copy out (twice the pad's
        # size), and the reduction over a middle axis ran as a kernel of its own.
        # Where source 0 of each period lies in ``part``; the first and last
        # periods are cut off by the ends of the region.
        firsts = [rep * piece.period - piece.phase for rep in range(reps)]
        windows = [
            lax.slice_in_dim(part, max(first, 0), min(first + piece.period, length), axis=axis)
            for first in firsts
        ]
        starts = [max(first, 0) - first for first in firsts]
        one_period = _accumulate(windows, starts, piece.period, axis)
    else:
        config = [(0, 0, 0)] * t.ndim
        config[axis] = (piece.phase, reps * piece.period - piece.phase - length, 0)
        part = lax.pad(part, np.zeros((), part.dtype), config)
        shape = list(part.shape)
        shape[axis : axis + 1] = [reps, piece.period]
        one_period = part.reshape(shape).sum(axis=axis)
    return fold_one_period(one_period, piece.inner, piece.src_stop - piece.src_start, axis)


def fold_one_period(phases, inner, n, axis):
    """Folds ``phases`` (the cotangent summed by offset modulo the period, along
    ``axis``) onto the ``n`` sources with the pieces ``inner`` (``period_pieces``).
    Shared by the static period piece and the traced-pad fold."""
    return _accumulate(
        [extract(piece, phases, axis) for piece in inner],
        [piece.src_start for piece in inner],
        n,
        axis,
    )


def _accumulate(values, starts, size, axis):
    total = None
    for value, start in zip(values, starts):
        config = [(0, 0, 0)] * value.ndim
        config[axis] = (start, size - start - value.shape[axis], 0)
        value = lax.pad(value, np.zeros((), value.dtype), config)
        total = value if total is None else total + value
    return total


def fold_as_one_sum(t, pieces, operand_shape, acc=None):
    """The fold as one fused sum: every combination of per-axis pieces, padded into
    place. XLA emits a single loop over the result, split across threads, where
    fold_axes writes its bands with single-threaded in-place updates."""
    axes = list(pieces)
    parts = [
        _placed(t, axes, combination, operand_shape, acc)
        for combination in itertools.product(*(pieces[axis] for axis in axes))
    ]
    total = _total(parts, acc)
    return total if total is not None else t


def fold_as_concatenate(t, pieces, operand_shape, acc=None):
    """The fold as one concatenate of boxes.

    The result is cut along each folded axis into ``_segments``; each box (one
    segment per axis) is the sum of the slices of ``t`` that land in it, and a nested
    concatenate puts the boxes together. XLA emits it as one loop over the result,
    split across threads, with the box choice hoisted out of the inner rows: it runs
    at the speed of the plain copy. Band updates in place take one kernel each, and
    a sum of padded pieces tests every piece for every element, which is slow for
    short rows and for edge's summed bands.
    """
    axes = list(pieces)
    combinations = list(itertools.product(*(pieces[axis] for axis in axes)))
    box = [(0, size) for size in t.shape]
    for axis in axes:
        box[axis] = (0, operand_shape[axis])

    def concatenated(k):
        if k == len(axes):
            value = _box_value(t, axes, combinations, box, acc)
            if value is None:  # no piece reaches it (a crop): zeros
                return jnp.zeros([hi - lo for lo, hi in box], t.dtype)
            return value
        axis, whole = axes[k], box[axes[k]]
        parts = []
        for segment in _segments(pieces[axis], operand_shape[axis]):
            box[axis] = segment
            parts.append(concatenated(k + 1))
        box[axis] = whole
        return lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]

    return concatenated(0)


def _box_value(t, axes, combinations, box, acc=None):
    """The sum over piece combinations of the slices of ``t`` that land in ``box``
    (one ``(lo, hi)`` source range per axis of ``t``), or None if none does; added
    as ``acc`` says."""
    parts = []
    for combination in combinations:
        ranges = [
            (max(lo, p.src_start), min(hi, p.src_stop))
            for (lo, hi), p in zip((box[a] for a in axes), combination)
        ]
        if any(hi <= lo for lo, hi in ranges):
            continue
        part = t
        for axis, piece in zip(axes, combination):
            part = extract(piece, part, axis, acc)
        starts, limits, config = [0] * t.ndim, list(part.shape), [(0, 0, 0)] * t.ndim
        for axis, piece, (lo, hi) in zip(axes, combination, ranges):
            starts[axis], limits[axis] = lo - piece.src_start, hi - piece.src_start
            config[axis] = (lo - box[axis][0], box[axis][1] - hi, 0)
        part = lax.slice(part, starts, limits)
        if any(config_lo or config_hi for config_lo, config_hi, _ in config):
            part = lax.pad(part, np.zeros((), part.dtype), config)
        parts.append(part)
    return _total(parts, acc)


def fold_axes(t, pieces, operand_shape, acc=None):
    """Folds the axes in ``pieces`` at once.

    The interior, which only the direct copy reaches, is one slice of ``t``. Around
    it, each padded axis contributes two thin bands (slabs); each slab's value sums
    the slices of every piece combination that lands in it and is written with
    dynamic_update_slice. Every slab is computed from ``t`` alone: an update that read
    the partly written result would make XLA copy the whole array again.
    """
    axes = list(pieces)
    result_shape = list(t.shape)
    for axis in axes:
        result_shape[axis] = operand_shape[axis]
    combinations = list(itertools.product(*(pieces[axis] for axis in axes)))

    full = [(0, size) for size in result_shape]
    direct = [pieces[axis][0] for axis in axes]
    # The updates run in the elements' own dtype: on a buffer of bits, XLA:CPU wrote
    # the result in them and then copied it out ((64, 65536) bfloat16: a copy of
    # 8 MiB that jnp.pad's transpose does not hold).
    own = (lambda part: part) if acc is None else (lambda part: acc.own(acc.hold(part)))
    if all(piece.direct for piece in direct):
        result = own(_placed(t, axes, direct, result_shape, acc))
    else:
        result = jnp.zeros(result_shape, t.dtype if acc is None else acc.dtype)
    interiors = {axis: interior_range(pieces[axis], result_shape[axis]) for axis in axes}
    for k, axis in enumerate(axes):
        inner_lo, inner_hi = interiors[axis]
        if inner_hi <= inner_lo:
            inner_lo = inner_hi = result_shape[axis]
        for band in ((0, inner_lo), (inner_hi, result_shape[axis])):
            if band[1] <= band[0]:
                continue
            box = list(full)
            for earlier in axes[:k]:
                box[earlier] = interiors[earlier]
            box[axis] = band
            if any(hi <= lo for lo, hi in box):
                continue
            value = _box_value(t, axes, combinations, box, acc)
            if value is not None:
                result = lax.dynamic_update_slice(result, own(value), [lo for lo, _ in box])
    return result if acc is None else acc.hold(result)


def _placed(t, axes, combination, operand_shape, acc=None):
    """The cotangent's contribution through one piece per axis, padded into its place
    in an array of the operand's size along those axes (in ``acc.wide`` where a piece
    summed there)."""
    config = [(0, 0, 0)] * t.ndim
    for axis, piece in zip(axes, combination):
        t = extract(piece, t, axis, acc)
        config[axis] = (piece.src_start, operand_shape[axis] - piece.src_stop, 0)
    return lax.pad(t, np.zeros((), t.dtype), config)
