"""``jaxpad.pad``: the Pad primitive and its transpose, the fold.

Laid out as JAX lays out ``lax.pad``: the public function, then the shape rule,
transpose, batching and lowering of ``pad_p``, the same for its transpose ``fold_p``,
and a short registration block at the end.
"""

from __future__ import annotations

import itertools
import math
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir, xla
from jax.typing import ArrayLike

from jaxpad import _checks
from jaxpad._gather import gather_tables
from jaxpad._index_maps import MODES, fold_pieces, interior_range, source_index
from jaxpad._sharding import (
    is_partitioned,
    match_sharding,
    match_varying,
    same_axes_sharding,
    with_auto_axes,
)
from jaxpad._typing import IntSequence

_FN = "jaxpad.pad"
_TRACED_PADS_HINT = (
    " Pads known only at run time (traced, or different per example under vmap) "
    "need jaxpad.dynamic_pad(x, pads_begin, shape, mode)."
)

# Index tables up to this many entries per axis are baked into the program as
# constants; longer axes compute theirs in-graph so the executable stays small.
_MAX_STATIC_TABLE = 1 << 16

# Limits of the fold's three forms (fold_static). The fused sum takes one term per
# combination of per-axis pieces and needs long rows; past its limit the
# concatenate has one box per combination of per-axis segments, and the band
# updates one slice per combination of pieces. Past those counts the fold takes a
# group of axes at a time, keeping the program small for inputs padded on every axis.
_MAX_FUSED_COMBINATIONS = 16
_MIN_FUSED_ROW = 32
_MAX_FOLD_BOXES = 64
_MAX_FOLD_COMBINATIONS = 32

# A fold that includes the last axis uses band updates from this axis length on:
# below it the concatenate of boxes was faster, above it 2-3x slower (measured on
# (64, r, 4096/r) arrays, pad 2, r from 16 to 1024).
_MIN_UPDATED_ROW = 128


def pad(
    x: ArrayLike,
    pads_begin: IntSequence,
    pads_end: IntSequence,
    mode: str = "constant",
    pad_value: ArrayLike | None = None,
    *,
    interior: IntSequence | None = None,
) -> jax.Array:
    """Pads ``x`` by ``pads_begin`` / ``pads_end`` elements per axis.

    Output position ``i`` of an axis reads ``x[m(i - pads_begin)]``, where ``m`` is
    the mode's index map (SEMANTICS.md): negative pads crop, and pads longer than the
    axis continue the mode's pattern, as ``numpy.pad`` does.

    Args:
      x: the array to pad; any numeric dtype or bool.
      pads_begin: one int per axis of ``x``, padding before index 0; negative crops.
        Python ints, a tuple, or a concrete integer array.
      pads_end: one int per axis of ``x``, padding after the last index.
      mode: ``"constant"``, ``"edge"``, ``"reflect"`` (edge not repeated),
        ``"symmetric"`` (edge repeated) or ``"wrap"`` (periodic).
      pad_value: constant mode only; a scalar, possibly traced and differentiated.
        Defaults to 0 and is cast to ``x.dtype``.
      interior: constant mode only; nGraph interior padding, one non-negative int per
        axis: that many pad values go between neighbouring elements.

    Returns:
      The padded array, of ``x.dtype`` and shape
      ``pads_begin + (x.shape - 1) * (interior + 1) + 1 + pads_end`` per axis.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> jaxpad.pad(jnp.array([1, 2, 3]), [2], [1], mode="reflect")
      Array([3, 2, 1, 2, 3, 2], dtype=int32)
    """
    x = jnp.asarray(x)
    ndim = x.ndim
    mode = _checks.check_mode(_FN, mode, MODES)
    pads_begin = _checks.static_int_tuple(
        _FN, "pads_begin", pads_begin, traced_hint=_TRACED_PADS_HINT
    )
    pads_end = _checks.static_int_tuple(_FN, "pads_end", pads_end, traced_hint=_TRACED_PADS_HINT)
    if interior is None:
        interior = (0,) * ndim
    else:
        interior = _checks.static_int_tuple(_FN, "interior", interior)
    pad_value = pad_value_operand(_FN, pad_value, mode, x.dtype)
    x, pad_value = match_varying(x, pad_value)
    return pad_p.bind(
        x, pad_value, pads_begin=pads_begin, pads_end=pads_end, interior=interior, mode=mode
    )


def pad_value_operand(fn_name: str, pad_value, mode: str, dtype):
    """The pad value as a scalar of ``dtype``; a zero for modes that never read it."""
    if mode == "constant":
        return _scalar_pad_value(fn_name, pad_value, dtype)
    if pad_value is not None:
        raise ValueError(
            f"{fn_name}: pad_value is only used by mode='constant'; got pad_value="
            f"{_checks.describe(pad_value)} with mode={mode!r}."
        )
    return np.zeros((), dtype)


def _scalar_pad_value(fn_name: str, pad_value, dtype) -> jax.Array:
    if pad_value is None:
        return np.zeros((), dtype)
    if np.ndim(pad_value) != 0:
        raise ValueError(f"{fn_name}: pad_value must be a scalar; got shape {np.shape(pad_value)}.")
    pad_value = jnp.asarray(pad_value)
    if jnp.issubdtype(pad_value.dtype, jnp.complexfloating) and not jnp.issubdtype(
        dtype, jnp.complexfloating
    ):
        raise TypeError(
            f"{fn_name}: a complex pad_value would lose its imaginary part in x's dtype "
            f"{np.dtype(dtype)}; got {_checks.describe(pad_value)}."
        )
    return lax.convert_element_type(pad_value, dtype)


# Shape rule ---------------------------------------------------------------------


def padded_shape(fn_name, shape, pads_begin, pads_end, interior, mode):
    """Validates a pad configuration against ``shape`` and returns the output shape."""
    ndim = len(shape)
    _checks.check_length(fn_name, "pads_begin", pads_begin, ndim)
    _checks.check_length(fn_name, "pads_end", pads_end, ndim)
    _checks.check_length(fn_name, "interior", interior, ndim)
    if any(r < 0 for r in interior):
        raise ValueError(f"{fn_name}: interior must be non-negative; got {interior}.")
    if mode != "constant" and any(interior):
        raise ValueError(
            f"{fn_name}: interior padding needs mode='constant'; got interior="
            f"{interior} with mode={mode!r}."
        )
    out_shape = []
    for axis, (n, lo, hi, r) in enumerate(zip(shape, pads_begin, pads_end, interior)):
        dilated = (n - 1) * (r + 1) + 1 if n else 0
        size = lo + dilated + hi
        _checks.check_dim_size(
            fn_name,
            axis,
            size,
            f"pads_begin[{axis}]={lo}, x.shape[{axis}]={n}, interior[{axis}]={r}, "
            f"pads_end[{axis}]={hi}",
        )
        if size < 0:
            raise ValueError(
                f"{fn_name}: the output would have negative size {size} on axis {axis}: "
                f"pads_begin[{axis}]={lo}, x.shape[{axis}]={n}, pads_end[{axis}]={hi}."
            )
        if mode != "constant" and n == 0 and size > 0:
            raise ValueError(
                f"{fn_name}: mode={mode!r} cannot fill axis {axis} of x.shape="
                f"{tuple(shape)}: it is empty and the output is not (size {size}); "
                "only mode='constant' can pad an empty axis."
            )
        out_shape.append(size)
    return tuple(out_shape)


def _pad_abstract_eval(x, pad_value, *, pads_begin, pads_end, interior, mode):
    if pad_value.ndim != 0:
        raise ValueError(f"{_FN}: pad_value must be a scalar; got shape {pad_value.shape}.")
    if pad_value.dtype != x.dtype:
        raise TypeError(f"{_FN}: pad_value dtype {pad_value.dtype} differs from x dtype {x.dtype}.")
    shape = padded_shape(_FN, x.shape, pads_begin, pads_end, interior, mode)
    return x.update(shape=shape, dtype=x.dtype, sharding=same_axes_sharding(x, shape))


# Transpose ----------------------------------------------------------------------


def _pad_transpose(t, x, pad_value, *, pads_begin, pads_end, interior, mode):
    if type(t) is ad.Zero:
        return [
            ad.Zero(x.aval) if ad.is_undefined_primal(x) else None,
            ad.Zero(pad_value.aval) if ad.is_undefined_primal(pad_value) else None,
        ]
    operand_shape = x.aval.shape if ad.is_undefined_primal(x) else x.shape
    need_x = ad.is_undefined_primal(x)
    need_value = ad.is_undefined_primal(pad_value)
    t_x = None
    if need_x or (need_value and mode == "constant"):
        t_x = fold_p.bind(
            t,
            pads_begin=pads_begin,
            pads_end=pads_end,
            interior=interior,
            mode=mode,
            operand_shape=tuple(operand_shape),
        )
        if need_x:
            t_x = match_sharding(t_x, x.aval)
    t_value = None
    if need_value:
        if mode == "constant":
            # Every output position not copied from x holds the pad value.
            t_value = t.sum() - t_x.sum()
        else:
            t_value = ad.Zero(pad_value.aval)
    return [t_x if need_x else None, t_value]


# Batching -----------------------------------------------------------------------


def _move_to_front(value, bdim, size):
    if bdim is None:
        return lax.broadcast(value, (size,))
    return jnp.moveaxis(value, bdim, 0)


def _pad_batch(batched_args, batch_dims, *, pads_begin, pads_end, interior, mode):
    x, pad_value = batched_args
    x_bdim, value_bdim = batch_dims
    if value_bdim is None:
        params = _insert_unpadded_axis(x_bdim, pads_begin, pads_end, interior)
        return pad_p.bind(x, pad_value, mode=mode, **params), x_bdim
    # One pad value per example: pad with zeros, then select the values into the
    # positions that a pad of an all-True mask leaves False.
    size = pad_value.shape[value_bdim]
    x = _move_to_front(x, x_bdim, size)
    pad_value = _move_to_front(pad_value, value_bdim, size)
    params = dict(_insert_unpadded_axis(0, pads_begin, pads_end, interior), mode=mode)
    padded = pad_p.bind(x, np.zeros((), x.dtype), **params)
    copied = pad_p.bind(jnp.ones(x.shape, bool), np.zeros((), bool), **params)
    values = lax.broadcast_in_dim(pad_value, padded.shape, (0,))
    return lax.select(copied, padded, values), 0


def _insert_unpadded_axis(axis, pads_begin, pads_end, interior):
    def insert(values):
        values = list(values)
        values.insert(axis, 0)
        return tuple(values)

    return dict(pads_begin=insert(pads_begin), pads_end=insert(pads_end), interior=insert(interior))


# Lowering -----------------------------------------------------------------------


def _pad_lowering(x, pad_value, *, pads_begin, pads_end, interior, mode, partitioned=False):
    if mode == "constant":
        return lax.pad(x, pad_value, list(zip(pads_begin, pads_end, interior)))
    out_shape = padded_shape(_FN, x.shape, pads_begin, pads_end, interior, mode)
    if partitioned:
        return concatenate_padded(x, out_shape, pads_begin, mode)
    padded_axes = [a for a in range(x.ndim) if pads_begin[a] or out_shape[a] != x.shape[a]]
    if len(padded_axes) == 1 and out_shape[padded_axes[0]] > _MAX_STATIC_TABLE:
        # One long padded axis: a concatenate of slices copies the array once, like
        # lax.pad, where the gather would first build its index table in-graph.
        return _pad_then_update(x, padded_axes[0], out_shape, pads_begin, mode)
    return gather_padded(x, out_shape, pads_begin, mode)


def _pad_then_update(x, axis, out_shape, pads_begin, mode):
    """One long padded axis: lax.pad places ``x`` (one copy, like constant mode), then
    each band is written in place. Each band reads ``x``, never the partly written
    output, which would make XLA copy it again; a gather would first build an index
    table the length of the axis in-graph."""
    size = out_shape[axis]
    pieces = fold_pieces(mode, x.shape[axis], pads_begin[axis], size)
    if any(piece.kind == "period" for piece in pieces):
        return gather_padded(x, out_shape, pads_begin, mode)
    config = [(0, 0, 0)] * x.ndim
    config[axis] = (pads_begin[axis], size - x.shape[axis] - pads_begin[axis], 0)
    out = lax.pad(x, np.zeros((), x.dtype), config)
    for piece in pieces:
        if piece.direct:
            continue
        out = lax.dynamic_update_slice_in_dim(out, piece_values(x, piece, axis), piece.start, axis)
    return out


def piece_values(x, piece, axis: int):
    """What ``piece`` writes into the output along ``axis``: its source slice of ``x``,
    mirrored (reflect, symmetric) or stretched (edge) to the piece's length."""
    part = lax.slice_in_dim(x, piece.src_start, piece.src_stop, axis=axis)
    if piece.kind == "reverse":
        return lax.rev(part, (axis,))
    if piece.kind == "sum":
        shape = list(part.shape)
        shape[axis] = piece.stop - piece.start
        return jnp.broadcast_to(part, shape)
    return part


def _pad_lowering_rule(ctx, *args, **params):
    lowering = partial(_pad_lowering, partitioned=is_partitioned(ctx))
    return mlir.lower_fun(with_auto_axes(lowering, ctx), multiple_results=False)(
        ctx, *args, **params
    )


def gather_padded(x, out_shape, pads_begin, mode):
    """One gather that reads every output element from its source.

    A single gather with per-axis index tables is as fast as ``lax.pad`` on CPU,
    where ``jnp.pad``'s slice/concatenate chains copy the array once per axis.
    """
    if math.prod(out_shape) == 0:
        return jnp.zeros(out_shape, x.dtype)
    tables = {}
    for axis in range(x.ndim):
        n, size = x.shape[axis], out_shape[axis]
        if not pads_begin[axis] and size == n:
            continue
        if size <= _MAX_STATIC_TABLE:
            tables[axis] = source_index(mode, n, np.arange(size) - pads_begin[axis])
        else:
            offsets = lax.iota(jnp.int32, size) - pads_begin[axis]
            tables[axis] = source_index(mode, n, offsets, xp=jnp)
    return gather_tables(x, tables)


def concatenate_padded(x, out_shape, pads_begin, mode):
    """Pads axis by axis with a concatenate of the pieces each output range reads.

    For programs partitioned over several devices: XLA's SPMD partitioner turns the
    slices and the concatenate along a sharded axis into collective-permutes of the
    bands that cross a shard boundary, where it would all-gather the operand of a
    gather. Axes whose pads span more than a period (pieces that repeat) use the
    gather; their count would otherwise grow with the pad width.
    """
    for axis in range(x.ndim):
        n, size = x.shape[axis], out_shape[axis]
        if not pads_begin[axis] and size == n:
            continue
        pieces = sorted(fold_pieces(mode, n, pads_begin[axis], size), key=lambda p: p.start)
        if size == 0 or any(piece.kind == "period" for piece in pieces):
            axis_shape = list(x.shape)
            axis_shape[axis] = size
            padded_pads = [0] * x.ndim
            padded_pads[axis] = pads_begin[axis]
            x = gather_padded(x, tuple(axis_shape), padded_pads, mode)
            continue
        if mode == "edge":
            x = _edge_by_pads(x, axis, pieces, size)
            continue
        parts = [piece_values(x, piece, axis) for piece in pieces]
        x = lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]
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


# The fold: pad_p's transpose ----------------------------------------------------
# fold(t) sums each output cotangent back onto the source element it was read from.
# Its transpose is pad_p again, so derivatives of every order stay in jaxpad.


def _fold_abstract_eval(t, *, pads_begin, pads_end, interior, mode, operand_shape):
    expected = padded_shape("jaxpad.fold", operand_shape, pads_begin, pads_end, interior, mode)
    if tuple(t.shape) != expected:
        raise ValueError(
            f"jaxpad.fold: the cotangent has shape {t.shape}; the pad produces {expected}."
        )
    operand_shape = tuple(operand_shape)
    return t.update(
        shape=operand_shape, dtype=t.dtype, sharding=same_axes_sharding(t, operand_shape)
    )


def _fold_transpose(ct, t, *, pads_begin, pads_end, interior, mode, operand_shape):
    del t, operand_shape
    ct = ad.instantiate_zeros(ct)
    return [
        pad_p.bind(
            ct,
            np.zeros((), ct.dtype),
            pads_begin=pads_begin,
            pads_end=pads_end,
            interior=interior,
            mode=mode,
        )
    ]


def _fold_batch(batched_args, batch_dims, *, pads_begin, pads_end, interior, mode, operand_shape):
    (t,), (bdim,) = batched_args, batch_dims
    operand_shape = list(operand_shape)
    operand_shape.insert(bdim, t.shape[bdim])
    params = _insert_unpadded_axis(bdim, pads_begin, pads_end, interior)
    return fold_p.bind(t, mode=mode, operand_shape=tuple(operand_shape), **params), bdim


def _fold_lowering(t, *, pads_begin, pads_end, interior, mode, operand_shape, partitioned=False):
    if mode == "constant":
        # Undo the exterior padding, then skip the interior pad values.
        unpadded = lax.pad(
            t, np.zeros((), t.dtype), [(-lo, -hi, 0) for lo, hi in zip(pads_begin, pads_end)]
        )
        return lax.slice(unpadded, (0,) * t.ndim, unpadded.shape, tuple(r + 1 for r in interior))
    if math.prod(operand_shape) == 0 or t.size == 0:
        return jnp.zeros(operand_shape, t.dtype)
    pieces = {
        axis: fold_pieces(mode, operand_shape[axis], pads_begin[axis], t.shape[axis])
        for axis in range(t.ndim)
        if pads_begin[axis] or pads_end[axis]
    }
    if partitioned:
        return fold_by_pads(t, pieces, operand_shape)
    return fold_static(t, pieces, operand_shape)


def fold_static(t, pieces, operand_shape):
    """Folds every axis in ``pieces`` (axis -> ``fold_pieces``).

    Three forms, each one pass over the result where it measured fastest:

    - Copies and mirrors only (reflect, symmetric and wrap within a period) above
      rows of ``_MIN_FUSED_ROW`` elements: one fused sum of the pieces padded into
      place (``fold_as_one_sum``). The concatenate runs as fast there but compiled
      2-6x longer (up to 0.9 s for reflect by 1).
    - A last axis of ``_MIN_UPDATED_ROW`` or more: one slice plus in-place band
      updates (``fold_axes``). A concatenate along it picks its operand element by
      element, 2-4x slower than the copy.
    - Otherwise a concatenate of boxes (``fold_as_concatenate``): one loop at the
      speed of a copy, including edge, whose bands are sums of rows.
    """
    if _fuses_as_one_sum(pieces, operand_shape):
        return fold_as_one_sum(t, pieces, operand_shape)
    pieces = dict(pieces)
    fold, limit, size = fold_as_concatenate, _MAX_FOLD_BOXES, _box_count
    if t.ndim - 1 in pieces and operand_shape[-1] >= _MIN_UPDATED_ROW:
        fold, limit, size = fold_axes, _MAX_FOLD_COMBINATIONS, _combination_count
    group = {}
    for axis, axis_pieces in sorted(pieces.items(), key=lambda item: -len(item[1])):
        if group and size({**group, axis: axis_pieces}, operand_shape) > limit:
            t = fold(t, group, operand_shape)
            group = {}
        group[axis] = axis_pieces
    return fold(t, group, operand_shape) if group else t


def _fuses_as_one_sum(pieces, shape) -> bool:
    """Whether fold_as_one_sum is the faster fold: only copies and mirrors (edge
    sums and period folds are reductions), few combinations, and unpadded trailing
    axes of at least _MIN_FUSED_ROW elements, so that the fused loop's inner rows are
    long and run without branches (with 3 channels it measured 2x slower)."""
    row = 1
    for axis in reversed(range(len(shape))):
        if axis in pieces:
            break
        row *= shape[axis]
    return (
        bool(pieces)
        and row >= _MIN_FUSED_ROW
        and all(p.kind in ("copy", "reverse") for axis in pieces.values() for p in axis)
        and math.prod(len(axis) for axis in pieces.values()) <= _MAX_FUSED_COMBINATIONS
    )


def fold_as_one_sum(t, pieces, operand_shape):
    """The fold as one fused sum: every combination of per-axis pieces, padded into
    place. XLA emits a single loop over the result, split across threads, where
    fold_axes writes its bands with single-threaded in-place updates."""
    axes = list(pieces)
    total = None
    for combination in itertools.product(*(pieces[axis] for axis in axes)):
        part = _placed(t, axes, combination, operand_shape)
        total = part if total is None else total + part
    return total


def _segments(axis_pieces, n):
    """Cuts ``[0, n)`` where any piece's source range starts or stops: within a
    segment, the same pieces reach every element."""
    cuts = {0, n}
    for piece in axis_pieces:
        cuts.update((piece.src_start, piece.src_stop))
    cuts = sorted(cuts)
    return list(zip(cuts[:-1], cuts[1:]))


def _box_count(pieces, operand_shape):
    return math.prod(len(_segments(p, operand_shape[axis])) for axis, p in pieces.items())


def _combination_count(pieces, operand_shape):
    del operand_shape
    return math.prod(len(p) for p in pieces.values())


def fold_as_concatenate(t, pieces, operand_shape):
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
            value = _box_value(t, axes, combinations, box)
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


def _box_value(t, axes, combinations, box):
    """The sum over piece combinations of the slices of ``t`` that land in ``box``
    (one ``(lo, hi)`` source range per axis of ``t``), or None if none does."""
    total = None
    for combination in combinations:
        ranges = [
            (max(lo, p.src_start), min(hi, p.src_stop))
            for (lo, hi), p in zip((box[a] for a in axes), combination)
        ]
        if any(hi <= lo for lo, hi in ranges):
            continue
        part = t
        for axis, piece in zip(axes, combination):
            part = piece.extract(part, axis)
        starts, limits, config = [0] * t.ndim, list(part.shape), [(0, 0, 0)] * t.ndim
        for axis, piece, (lo, hi) in zip(axes, combination, ranges):
            starts[axis], limits[axis] = lo - piece.src_start, hi - piece.src_start
            config[axis] = (lo - box[axis][0], box[axis][1] - hi, 0)
        part = lax.slice(part, starts, limits)
        if any(config_lo or config_hi for config_lo, config_hi, _ in config):
            part = lax.pad(part, np.zeros((), t.dtype), config)
        total = part if total is None else total + part
    return total


def fold_axes(t, pieces, operand_shape):
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
    if all(piece.direct for piece in direct):
        result = _placed(t, axes, direct, result_shape)
    else:
        result = jnp.zeros(result_shape, t.dtype)
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
            value = _box_value(t, axes, combinations, box)
            if value is not None:
                result = lax.dynamic_update_slice(result, value, [lo for lo, _ in box])
    return result


def _placed(t, axes, combination, operand_shape):
    """The cotangent's contribution through one piece per axis, padded into its place
    in an array of the operand's size along those axes."""
    config = [(0, 0, 0)] * t.ndim
    for axis, piece in zip(axes, combination):
        t = piece.extract(t, axis)
        config[axis] = (piece.src_start, operand_shape[axis] - piece.src_stop, 0)
    return lax.pad(t, np.zeros((), t.dtype), config)


def _fold_lowering_rule(ctx, *args, **params):
    lowering = partial(_fold_lowering, partitioned=is_partitioned(ctx))
    return mlir.lower_fun(with_auto_axes(lowering, ctx), multiple_results=False)(
        ctx, *args, **params
    )


def fold_by_pads(t, pieces, operand_shape):
    """The fold for partitioned programs: one axis at a time, each piece's
    contribution padded into place and summed. Slices and pads along a sharded axis
    partition into collective-permutes, where dynamic_update_slice would gather."""
    for axis, axis_pieces in pieces.items():
        t = fold_as_one_sum(t, {axis: axis_pieces}, operand_shape)
    return t


# Registration -------------------------------------------------------------------

pad_p = Primitive("jaxpad_pad")
pad_p.def_impl(partial(xla.apply_primitive, pad_p))
pad_p.def_abstract_eval(_pad_abstract_eval)
ad.deflinear2(pad_p, _pad_transpose)
batching.primitive_batchers[pad_p] = _pad_batch
mlir.register_lowering(pad_p, _pad_lowering_rule)

fold_p = Primitive("jaxpad_fold")
fold_p.def_impl(partial(xla.apply_primitive, fold_p))
fold_p.def_abstract_eval(_fold_abstract_eval)
ad.deflinear2(fold_p, _fold_transpose)
batching.primitive_batchers[fold_p] = _fold_batch
mlir.register_lowering(fold_p, _fold_lowering_rule)
