"""The forms of ``dynamic_pad`` (traced pads) and their folds.

Traced pads are first reduced to offsets the index dtype holds (``normalized_pads``);
the forward gathers through index tables computed in the program, and the fold runs
axis by axis in the form ``plan_dynamic_fold`` picks (``AxisFold``): masks, a few
candidate reads per source, whole periods summed first, or the static fold's pieces
read as windows at the traced offset.
"""

from __future__ import annotations

import math
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad._gather import broadcast_table, gather_tables
from jaxpad._index_maps import (
    effective_mode,
    fold_pieces,
    period,
    period_pieces,
    source_index,
)
from jaxpad._lowering._plans import AxisFold, active_axes, index_dtype, plan_dynamic_fold
from jaxpad._lowering._static import build_fold, fold_one_period


def normalized_pads(pads_begin, mode, n, size):
    """``reduced_pad`` for traced pads of any integer dtype, in the axis's
    ``index_dtype`` (int32 unless the axis is too long for it).

    The arithmetic runs in a dtype that holds the pads and the bounds: small dtypes
    are widened first (an int8 pad compared with an axis of 224, or taken modulo a
    period of 446, would overflow in its own dtype), and unsigned dtypes wider than
    the default integer keep their own, in which the bounds fit.
    """
    mode = effective_mode(mode, n)
    wide = jax.dtypes.canonicalize_dtype(np.int64)
    have, fits = np.iinfo(pads_begin.dtype), np.iinfo(wide)
    if fits.min <= have.min and have.max <= fits.max:
        pads_begin = pads_begin.astype(wide)
    if mode in ("constant", "edge") or n == 0:
        reduced = jnp.minimum(pads_begin, size)
        if have.min < 0:
            reduced = jnp.maximum(reduced, -n)
    else:
        reduced = jnp.remainder(pads_begin, period(mode, n))
    return reduced.astype(index_dtype(n, size))


def _axis_offsets(pads_begin, static_pads, d, n, size, mode):
    """Offsets ``i - pads_begin`` of one axis: a NumPy table, or one per example."""
    if static_pads[d] is not None:
        return np.arange(size) - static_pads[d]
    pads = normalized_pads(pads_begin[..., d], mode, n, size)
    return lax.iota(pads.dtype, size) - pads[..., None]


def copied_mask(pads_begin, x_shape, shape, static_pads):
    """True where constant mode copies from x (False at pad values), of ``shape``."""
    num_batch = pads_begin.ndim - 1
    mask = jnp.ones(shape, bool)
    for d, axis in active_axes(x_shape, shape, static_pads, num_batch):
        offsets = _axis_offsets(pads_begin, static_pads, d, x_shape[axis], shape[axis], "constant")
        inside = (offsets >= 0) & (offsets < x_shape[axis])
        mask = mask & broadcast_table(inside, shape, axis, num_batch)
    return mask


def dynamic_pad_lowering(x, pad_value, pads_begin, *, shape, mode, static_pads, target):
    """One gather whose leading axes are gather batching dimensions (one small table
    per example and axis), on every platform."""
    del target
    num_batch = pads_begin.ndim - 1
    if math.prod(shape) == 0:
        return jnp.zeros(shape, x.dtype)
    values = lax.broadcast_in_dim(pad_value, shape, tuple(range(pad_value.ndim)))
    if x.size == 0:
        return values
    tables = {}
    for d, axis in active_axes(x.shape, shape, static_pads, num_batch):
        n = x.shape[axis]
        offsets = _axis_offsets(pads_begin, static_pads, d, n, shape[axis], mode)
        if mode == "constant":
            tables[axis] = jnp.clip(offsets, 0, n - 1)
        else:
            tables[axis] = source_index(mode, n, offsets, xp=jnp)
    out = gather_tables(x, tables, num_batch)
    if mode == "constant" and tables:
        out = lax.select(copied_mask(pads_begin, x.shape, shape, static_pads), out, values)
    return out


def dynamic_fold_lowering(t, pads_begin, *, operand_shape, mode, static_pads, target):
    """Sums each output cotangent back onto its source element: static axes by the
    static fold, traced ones one axis at a time, on CPU by windows of the cotangent
    (``_fold_axis_window``, ``_translate``), elsewhere by gathers (every source
    reads the few output positions that map onto it). No scatter."""
    num_batch = pads_begin.ndim - 1
    if math.prod(operand_shape) == 0 or t.size == 0:
        return jnp.zeros(operand_shape, t.dtype)
    plan = plan_dynamic_fold(operand_shape, t.shape, static_pads, num_batch, mode, t.dtype, target)
    dtype = t.dtype
    if plan.accumulate is not None:
        t = t.astype(plan.accumulate)
    if mode == "constant":
        # Crop back to the source window; positions outside x read zeros.
        config = [(0, 0, 0)] * t.ndim
        for d, axis in active_axes(operand_shape, t.shape, static_pads, num_batch):
            if static_pads[d] is not None:
                end = t.shape[axis] - operand_shape[axis] - static_pads[d]
                config[axis] = (-static_pads[d], -end, 0)
        t = lax.pad(t, np.zeros((), t.dtype), config)
    elif plan.static is not None:
        t = build_fold(plan.static, t, operand_shape)
    translated = [axis_plan for axis_plan in plan.axes if axis_plan.form == "translate"]
    for axis_plan in plan.axes:
        if axis_plan.form == "translate":
            if axis_plan is translated[0]:
                t = _translate(t, pads_begin, translated, operand_shape, num_batch)
            continue
        n = operand_shape[axis_plan.axis]
        pads = normalized_pads(pads_begin[..., axis_plan.d], mode, n, t.shape[axis_plan.axis])
        fold = partial(_fold_axis, plan=axis_plan, n=n, mode=mode, num_batch=num_batch)
        if axis_plan.guarded:
            t = lax.cond(jnp.all(pads == 0), lambda t, pads: t, fold, t, pads)
        else:
            t = fold(t, pads)
        if axis_plan.barrier:
            t = lax.optimization_barrier(t)
    return t.astype(dtype)


def _fold_axis(t, pads, *, plan: AxisFold, n, mode, num_batch):
    """Folds one axis with traced, normalized ``pads`` (one per example) onto ``n``."""
    axis = plan.axis
    size = t.shape[axis]
    out_shape = t.shape[:axis] + (n,) + t.shape[axis + 1 :]
    mode = effective_mode(mode, n)
    if plan.form == "sum":
        return t.sum(axis=axis, keepdims=True)
    if plan.form == "window":
        return _fold_axis_window(t, pads, plan, n, mode, num_batch)
    pads = pads[..., None]
    if plan.form == "dense":
        return _fold_axis_dense(t, axis, pads, n, mode, num_batch)
    sources = lax.iota(pads.dtype, n)

    def read(positions, valid):
        """``t`` at output ``positions`` along the axis, zero where not ``valid``."""
        part = gather_tables(t, {axis: jnp.clip(positions, 0, size - 1)}, num_batch)
        valid = broadcast_table(valid, out_shape, axis, num_batch)
        return lax.select(valid, part, jnp.zeros_like(part))

    def at_sources(mask):
        return broadcast_table(mask, out_shape, axis, num_batch)

    if plan.form == "constant":
        positions = sources + pads
        return read(positions, (positions >= 0) & (positions < size))
    if plan.form == "edge":
        # Each end source takes every position at or beyond it: one masked sum each.
        positions = sources + pads
        inner = (sources > 0) & (sources < n - 1) & (positions >= 0) & (positions < size)
        offsets = broadcast_table(lax.iota(pads.dtype, size) - pads, t.shape, axis, num_batch)
        zeros = jnp.zeros_like(t)
        low = lax.select(offsets <= 0, t, zeros).sum(axis=axis, keepdims=True)
        high = lax.select(offsets >= n - 1, t, zeros).sum(axis=axis, keepdims=True)
        total = read(positions, inner)
        total = total + jnp.where(at_sources(sources == 0), low, 0)
        return total + jnp.where(at_sources(sources == n - 1), high, 0)
    p = period(mode, n)
    if plan.form == "candidates":
        # Source j is read at the output positions whose offset is j or its mirror
        # modulo p: at most `reps` of each, at computable places.
        reps = -(-size // p)
        classes = [(sources, sources >= 0)]
        if mode == "reflect":
            classes.append((p - sources, (sources > 0) & (sources < n - 1)))
        elif mode == "symmetric":
            classes.append((p - 1 - sources, sources >= 0))
        total = None
        for residue, usable in classes:
            first = jnp.remainder(residue + pads, p)
            for rep in range(reps):
                positions = first + rep * p
                part = read(positions, usable & (positions < size))
                total = part if total is None else total + part
        return total
    # "periods": sum all positions of equal phase (offset mod p) into one period
    # through one shifted read, then fold that period as the static fold does.
    length = -(-(size + p - 1) // p) * p
    shift = jnp.remainder(-pads, p)
    positions = lax.iota(pads.dtype, length) - shift
    period_shape = t.shape[:axis] + (length,) + t.shape[axis + 1 :]
    part = gather_tables(t, {axis: jnp.clip(positions, 0, size - 1)}, num_batch)
    valid = broadcast_table((positions >= 0) & (positions < size), period_shape, axis, num_batch)
    part = lax.select(valid, part, jnp.zeros_like(part))
    split = t.shape[:axis] + (length // p, p) + t.shape[axis + 1 :]
    phases = part.reshape(split).sum(axis=axis)
    return fold_one_period(phases, period_pieces(mode, n), n, axis)


def _fold_axis_window(t, pads, plan: AxisFold, n, mode, num_batch):
    """The "window" form: the fold of the static pad by ``hi`` before to the length
    ``size + hi - lo``, whose pieces read the cotangent through windows at the
    traced offset.

    With ``pads`` equivalent to a pad ``p`` in ``[lo, hi]``, the output is the window
    at ``hi - p`` of that static pad: its transpose places the cotangent at offset
    ``p - hi`` in a zero array as long as the static pad, and folds it statically.
    Each piece of that fold reads a range of the placed array, that is a window of
    the cotangent (one dynamic slice per example, zeros past its ends). The pieces
    land on boxes of the axis, concatenated: each position evaluates only its own
    box, and the windows are contiguous copies (docs/performance.md, "dynamic_pad").
    """
    fold = partial(_window_fold, axis=plan.axis, n=n, mode=mode, num_batch=num_batch)
    if plan.window == plan.full_window:
        return fold(t, pads, window=plan.window)
    inside = _in_window(pads, plan.window, mode, n)
    # The wide branch has the same form, so both branches give the result in the
    # same layout (a gather branch would make XLA transpose the fast one's).
    return lax.cond(
        jnp.all(inside),
        partial(fold, window=plan.window),
        partial(fold, window=plan.full_window),
        t,
        pads,
    )


def _in_window(pads, window, mode, n):
    lo, hi = window
    if mode in ("constant", "edge"):
        return (pads >= lo) & (pads <= hi)
    return _window_shift(pads, window, mode, n) <= hi


def _window_shift(pads, window, mode, n):
    """The pad equivalent to the normalized ``pads`` that lies in ``window`` when one
    does (periodic modes: the representative from ``window[0]`` on)."""
    if mode in ("constant", "edge"):
        return pads
    return window[0] + jnp.remainder(pads - window[0], period(mode, n))


def _window_fold(t, pads, *, window, axis, n, mode, num_batch):
    lo, hi = window
    size = t.shape[axis]
    shift = _window_shift(pads, window, mode, n)
    pieces = fold_pieces(mode, n, hi, size + hi - lo)

    def read(start, length):
        """Positions ``[start, start + length)`` of the placed cotangent: the
        cotangent's window from ``start + shift - hi``, zero outside it."""
        first, last = start - hi + lo, start  # the window's first position, over the shifts
        below, above = max(0, -first), max(0, last + length - size)
        config = [(0, 0, 0)] * t.ndim
        config[axis] = (below, above, 0)
        padded = lax.pad(t, np.zeros((), t.dtype), config) if below or above else t
        starts = {axis: shift + (start - hi + below)}
        return _batched_window(padded, starts, {axis: length}, num_batch)

    cuts = sorted({0, n} | {p.src_start for p in pieces} | {p.src_stop for p in pieces})
    boxes = []
    for begin, end in zip(cuts[:-1], cuts[1:]):
        if end <= begin:
            continue
        box_shape = t.shape[:axis] + (end - begin,) + t.shape[axis + 1 :]
        total = None
        for piece in pieces:
            if not (piece.src_start <= begin and end <= piece.src_stop):
                continue
            if piece.kind == "sum":
                term = read(piece.start, piece.stop - piece.start).sum(axis=axis, keepdims=True)
            elif piece.kind == "copy":
                term = read(piece.start + begin - piece.src_start, end - begin)
            else:  # "reverse"
                term = lax.rev(read(piece.start + piece.src_stop - end, end - begin), (axis,))
            total = term if total is None else total + term
        boxes.append(jnp.zeros(box_shape, t.dtype) if total is None else total)
    return lax.concatenate(boxes, axis) if len(boxes) > 1 else boxes[0]


def _translate(t, pads_begin, plans, operand_shape, num_batch):
    """Constant mode's fold of every "translate" axis at once: source ``j`` takes
    position ``j + pad``, zero outside the cotangent; one window of the cotangent
    padded by ``n`` zeros on each side of each axis (a pad fused into the gather)."""
    config = [(0, 0, 0)] * t.ndim
    starts, lengths = {}, {}
    for plan in plans:
        n = operand_shape[plan.axis]
        config[plan.axis] = (n, n, 0)
        pads = normalized_pads(pads_begin[..., plan.d], "constant", n, t.shape[plan.axis])
        starts[plan.axis] = pads + n
        lengths[plan.axis] = n
    return _batched_window(lax.pad(t, np.zeros((), t.dtype), config), starts, lengths, num_batch)


def _batched_window(t, starts, lengths, num_batch):
    """For each example ``b``, ``t[b.., starts[a][b..]:starts[a][b..] + lengths[a]]``
    along each axis ``a`` of ``starts``: one gather whose slices are whole windows
    (every start in bounds)."""
    axes = sorted(starts)
    batch = tuple(range(num_batch))
    slice_sizes = tuple(1 if a < num_batch else lengths.get(a, t.shape[a]) for a in range(t.ndim))
    dimension_numbers = lax.GatherDimensionNumbers(
        offset_dims=tuple(range(num_batch, t.ndim)),
        collapsed_slice_dims=(),
        start_index_map=tuple(axes),
        operand_batching_dims=batch,
        start_indices_batching_dims=batch,
    )
    dtype = jnp.result_type(*(starts[a] for a in axes))
    indices = jnp.stack([starts[a].astype(dtype) for a in axes], axis=-1)
    return lax.gather(t, indices, dimension_numbers, slice_sizes, mode=lax.GatherScatterMode.CLIP)


def _fold_axis_dense(t, axis, pads, n, mode, num_batch):
    """Short axes: each source sums the positions that map onto it, by masks.

    A gather along a short minor axis moves a handful of bytes per index; comparing
    every (source, position) pair with static slices is cheaper and fuses into one
    loop.
    """
    size = t.shape[axis]
    offsets = lax.iota(pads.dtype, size) - pads
    if mode == "constant":
        mapped = jnp.where((offsets >= 0) & (offsets < n), offsets, -1)
    else:
        mapped = source_index(mode, n, offsets, xp=jnp)
    column_shape = t.shape[:axis] + (1,) + t.shape[axis + 1 :]
    columns = [lax.slice_in_dim(t, i, i + 1, axis=axis) for i in range(size)]
    zeros = jnp.zeros(column_shape, t.dtype)
    folded = []
    for source in range(n):
        total = zeros
        for i, column in enumerate(columns):
            hit = lax.slice_in_dim(mapped, i, i + 1, axis=-1) == source
            total = total + lax.select(
                broadcast_table(hit, column_shape, axis, num_batch), column, zeros
            )
        folded.append(total)
    return lax.concatenate(folded, axis)
