"""``jaxpad_interpolation_pass``: one axis's separable pass at a static table.

``out[k] = sum_j w[k, j] * c[idx[k, j]]`` along one axis, ``idx`` and ``w`` NumPy
``(n_out, taps)`` tables fixed at trace time. The output indices split into ``P``
phases (``k % P``) and each phase's tap indices into runs of a constant stride
(``_runs``), so a shift is one slice per tap (a reflected edge adds one more), a zoom
or resize by 2 or 1/2 two phases of one slice a tap, and no gather is built.

The pass is one primitive, linear in its operand, whose transpose is the same pass with
the transposed table (``_Table.transposed``: each input index gathers the outputs that
read it, with their weights), so the VJP reads the cotangent through static slices
too. Left to JAX, each strided slice transposed to a zero pad of the whole input, the
pads summed: ``zoom`` x0.5's VJP took 3.5-3.7x its forward at 1024x1024
(``benchmarks/interpolation.py``). Entries a table marks absent (``present``) are
selected out, never multiplied: an inf read there must not become nan.

Used by ``jaxpad.scipy.ndimage``'s ``zoom`` / ``shift`` (scipy's taps,
``jaxpad/scipy/_interpolation/_static.py``) and by ``jaxpad.image.resize`` /
``jaxpad.nn.interpolate`` (``_tables``).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import operator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import jet
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir, xla

# A pass is built from static slices while its taps need at most this many runs in
# all (summed over taps and phases); past that (a zoom factor with no short period),
# one take of the whole (n_out, order + 1) index table, which XLA:CPU turns into a
# row gather (benchmarks/interpolation.py --forms).
_MAX_RUNS = 96
# Phases tried for a pass: zooms by 2, 3, 4, 1/2 ... repeat within this period.
_MAX_PHASES = 8


# What a pass along the array's minor axis costs per output element, over a pass along
# another axis: its phases interleave element by element, or its taps read at a
# stride. Measured at (8, 64, 128, 128) float32, x2 bilinear, pinned malloc: 22-29 ms
# against 9.5 for the same pass along the next axis (2.3-3.1x). Ordered so, torch's
# bilinear x2 ran at 1.62 -> 1.22x torch's time and bicubic 0.70 -> 0.52x; the
# antialiased halvings, minor axis last, 0.61x (0.75x first)
# (``benchmarks/resize.py``, ``--rules`` on both ISAs: reversed 1.2-1.4x slower,
# 2026-12-07).
_MINOR_AXIS_COST = 2.5
# Orders tried up to this many resampled axes (24 orders); past it, shrinking first.
_MAX_ORDERED_AXES = 4


def pass_order(in_shape: tuple[int, ...], out_shape: tuple[int, ...], axes) -> list[int]:
    """``axes``' passes (``in_shape`` to ``out_shape``) in the order whose passes write
    least: each pass costs the elements it writes, ``_MINOR_AXIS_COST`` times that along
    the minor axis. Enlarging, the minor axis goes first, while the array is small;
    shrinking, last; the other axes shrink before they grow."""
    axes = sorted(axes, key=lambda a: out_shape[a] / max(in_shape[a], 1))
    if len(axes) > _MAX_ORDERED_AXES:
        return axes
    minor = len(in_shape) - 1

    # an axis of symbolic size (a batch under jax.export) scales every order alike
    elements = math.prod(n if isinstance(n, (int, np.integer)) else 1 for n in in_shape)

    def cost(order):
        size, total = float(elements), 0.0
        for a in order:
            size = size / max(in_shape[a], 1) * out_shape[a]
            total += size * (_MINOR_AXIS_COST if a == minor else 1.0)
        return total

    return list(min(itertools.permutations(axes), key=cost))


def _runs(seq: np.ndarray, limit: int | None = None) -> list[tuple[int, int, int, int]] | None:
    """``seq`` (ints, ``-2`` where any value will do) cut into maximal runs of a
    constant step: ``(first position, first value, step, length)``, each run from
    where the last ended; None past ``limit`` runs. In NumPy but for one step per
    run: with a loop over the positions, lowering a cubic ``shift`` of 2**20
    samples took 5.9 s, ``zoom`` 12-13 s, and 26-58 s at 2**22; so, 0.2-0.3 s and
    0.8-2.5 s (``benchmarks/interpolation.py --trace``, 2026-11-29)."""
    seq = np.array(seq, dtype=np.int64)
    size = len(seq)
    known = seq != -2
    if not known.any():
        seq[:] = 0
    else:
        # a free position repeats its nearest known neighbour's value: the last
        # one before it, or the first one for those before every known one
        last = np.maximum.accumulate(np.where(known, np.arange(size), -1))
        seq = seq[np.where(last < 0, np.argmax(known), last)]
    steps = np.diff(seq)
    # the last position of each block of equal steps
    block_ends = np.append(np.flatnonzero(steps[1:] != steps[:-1]), len(steps) - 1)
    runs: list[tuple[int, int, int, int]] = []
    i = 0
    while i < size:
        if limit is not None and len(runs) == limit:
            return None
        if i + 1 < size:
            # the run goes on past its block's steps to the position they lead to
            end = int(block_ends[np.searchsorted(block_ends, i)]) + 1
            runs.append((i, int(seq[i]), int(steps[i]), end - i + 1))
            i = end + 1
        else:
            runs.append((i, int(seq[i]), 0, 1))
            i += 1
    return runs


def _phases(idx: np.ndarray):
    """The phase count (``1 .. _MAX_PHASES``) whose tap indices need the fewest runs,
    the runs per phase and tap, and their total; ``(None, None, _MAX_RUNS + 1)``
    where every count needs more than ``_MAX_RUNS`` (the caller takes the take)."""
    n_out = idx.shape[0]
    best = None
    for p in range(1, min(_MAX_PHASES, n_out) + 1):
        if best is not None and best[2] <= p * idx.shape[1]:
            break  # every phase of every tap takes a run at least: no count beats it
        length = -(-n_out // p)
        table = idx
        if p * length > n_out:
            table = np.full((p * length, idx.shape[1]), -2, np.int64)
            table[:n_out] = idx
        table = table.reshape(length, p, idx.shape[1])
        # a count that cannot beat the best so far, or needs the take, stops early
        counted = _count_runs(table, _MAX_RUNS if best is None else min(_MAX_RUNS, best[2] - 1))
        if counted is not None:
            best = (p, *counted)
    return best if best is not None else (None, None, _MAX_RUNS + 1)


def _count_runs(table: np.ndarray, budget: int):
    """The runs of ``table`` ``(length, phases, taps)`` per phase and tap, and their
    total; None where they pass ``budget`` in all."""
    runs, total = [], 0
    for q in range(table.shape[1]):
        phase_runs = []
        for j in range(table.shape[2]):
            tap_runs = _runs(table[:, q, j], budget - total)
            if tap_runs is None:
                return None
            total += len(tap_runs)
            phase_runs.append(tap_runs)
        runs.append(phase_runs)
    return runs, total


def _read_run(c, axis: int, first: int, step: int, length: int):
    """``c[first + step * i]`` along ``axis`` for ``i < length``, from static slices."""
    if step == 0 or length == 1:
        plane = lax.slice_in_dim(c, first, first + 1, axis=axis)
        shape = list(c.shape)
        shape[axis] = length
        return jnp.broadcast_to(plane, shape)
    last = first + step * (length - 1)
    lo = min(first, last)
    out = lax.slice_in_dim(c, lo, lo + abs(step) * (length - 1) + 1, abs(step), axis=axis)
    return lax.rev(out, (axis,)) if step < 0 else out


def _weights_along(w: np.ndarray, axis: int, ndim: int, dtype):
    """A weight per output index as an array broadcasting along ``axis`` (a scalar if
    they are all equal)."""
    if np.all(w == w[0]):
        return np.asarray(w[0], dtype)
    shape = [1] * ndim
    shape[axis] = len(w)
    return np.asarray(w, dtype).reshape(shape)


def _weighted(g, w: np.ndarray, present: np.ndarray | None, axis: int, real):
    """``g * w`` along ``axis``; where ``present`` is False (a transposed table's
    padding, no product of the forward's) zero, selected, never a product: an inf
    read there must not become nan."""
    term = g * _weights_along(w, axis, g.ndim, real)
    if present is None or present.all():
        return term
    return jnp.where(_weights_along(present, axis, g.ndim, bool), term, jnp.zeros((), g.dtype))


def _segmented(c, axis: int, runs, w: np.ndarray, length: int, real, present=None):
    """``sum_j w[:, j] * c[idx[:, j]]`` along ``axis`` for one phase whose taps read
    ``runs`` (per tap, ``_runs``'s): the outputs cut where any tap's run starts, so
    that within a segment every tap reads one run, each segment's weighted sum is one
    fusion, and the segments are returned for one concatenation. A concatenation of each tap's runs
    before the sum (the phases' form below) wrote every tap's reads to memory: a cubic
    ``shift`` took 13-16 ms at 1024x1024, and 3.4-5.8 ms so, its VJP 31 ms and 8-9 ms
    (``benchmarks/interpolation.py``, 2026-11-29). Not for several phases: ``zoom`` x2's
    VJP took 59-65 ms so, against 13 ms."""
    starts = sorted({pos for tap_runs in runs for pos, *_ in tap_runs} | {length})
    segments: list[jax.Array] = []
    for a, b in zip(starts[:-1], starts[1:]):
        terms = []
        for j, tap_runs in enumerate(runs):
            pos, first, step, _ = next(r for r in reversed(tap_runs) if r[0] <= a)
            g = _read_run(c, axis, first + step * (a - pos), step, b - a)
            mask = None if present is None else present[a:b, j]
            terms.append(_weighted(g, w[a:b, j], mask, axis, real))
        segments.append(functools.reduce(operator.add, terms))
    return segments


class _Table:
    """A pass's taps as a hashable primitive parameter: ``idx`` (ints) and ``w``
    (float64), ``(n_out, taps)``; ``present`` (bool, or None: every entry) marks the
    entries that are products (a transposed table pads its shorter rows)."""

    def __init__(self, idx: np.ndarray, w: np.ndarray, present: np.ndarray | None):
        self.idx = np.asarray(idx, np.int64)
        self.w = np.asarray(w, np.float64)
        self.present = present
        arrays = (self.idx, self.w) + (() if present is None else (present,))
        # a digest, not the bytes: a long axis's table is large (a cubic shift of
        # 2**24 samples: 1 GiB of indices and weights, which a copy would double)
        self._key = tuple(
            (a.shape, hashlib.blake2b(np.ascontiguousarray(a).data, digest_size=32).digest())
            for a in arrays
        )

    def __hash__(self):
        return hash(self._key)

    def __repr__(self):  # as make_jaxpr prints the parameter
        n_out, taps = self.idx.shape
        padded = "" if self.present is None else ", transposed"
        return f"Table({n_out} outputs x {taps} taps{padded})"

    def __eq__(self, other):
        return isinstance(other, _Table) and self._key == other._key

    def transposed(self, n_in: int) -> _Table:
        """The table of the transpose onto ``n_in`` inputs: row ``i`` lists every
        ``(k, w[k, j])`` with ``idx[k, j] == i``, in ``k``'s order (so that a column
        runs like the forward's), padded to the longest row with absent entries."""
        if self.present is None:  # the forward reads a row of zero weights anywhere
            products = np.broadcast_to(np.any(self.w != 0, axis=1)[:, None], self.w.shape)
        else:
            products = self.present
        rows, taps = np.nonzero(products)
        sources = self.idx[rows, taps]
        order = np.lexsort((taps, rows, sources))
        sources, rows, taps = sources[order], rows[order], taps[order]
        counts = np.bincount(sources, minlength=n_in)
        width = max(int(counts.max()), 1) if len(counts) else 1
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        slot = np.arange(len(sources)) - starts[sources]
        idx = np.full((n_in, width), -2, np.int64)
        w = np.zeros((n_in, width))
        present = np.zeros((n_in, width), bool)
        idx[sources, slot] = rows
        w[sources, slot] = self.w[rows, taps]
        present[sources, slot] = True
        return _Table(idx, w, present)


def _pass_impl(c, *, axis: int, table: _Table):
    """The pass of ``table`` along ``axis`` (``pass_pieces`` concatenated)."""
    return concatenated(pass_pieces(c, axis, table), axis)


def concatenated(pieces: list, axis: int, placed: bool = False):
    """``pieces`` (``pass_pieces``'s) as one array along ``axis``; ``placed``: each
    piece padded to the whole axis and chosen by a select on the position."""
    if len(pieces) == 1:
        return pieces[0]
    if not placed:
        return jnp.concatenate(pieces, axis)
    sizes = [p.shape[axis] for p in pieces]
    total = sum(sizes)
    shape = list(pieces[0].shape)
    shape[axis] = total
    # int32 positions: the tables hold an entry per output position in NumPy, so a
    # pass's axis stays far below 2^31
    position = lax.broadcasted_iota(np.int32, shape, axis)
    zero = jnp.zeros((), pieces[0].dtype)
    ends = np.cumsum(sizes)
    out = None
    for k in range(len(pieces) - 1, -1, -1):
        widths = [(0, 0, 0)] * len(shape)
        widths[axis] = (int(ends[k] - sizes[k]), int(total - ends[k]), 0)
        spread = lax.pad(pieces[k], zero, widths)
        out = spread if out is None else jnp.where(position < ends[k], spread, out)
    return out


def pass_pieces(c, axis: int, table: _Table) -> list:
    """The pass of ``table`` along ``axis`` from static slices by phase and run
    (``_phases``), or one take past ``_MAX_RUNS``: its output as consecutive pieces
    along ``axis`` (the segments in which every tap reads one run), left for the
    caller to concatenate, so that a later pass along another axis can run on each
    piece and fuse with it (``jaxpad_resize``'s lowering)."""
    idx, w, present = table.idx, table.w, table.present
    n_out, taps = idx.shape
    real = np.dtype(jnp.finfo(c.dtype).dtype)
    if present is None:
        free = np.all(w == 0, axis=1)
        idx = np.where(free[:, None], -2, idx)
    else:
        idx = np.where(present, idx, -2)
    p, runs, total = _phases(idx)
    if total > _MAX_RUNS:
        flat = np.where(idx == -2, 0, idx).reshape(-1)
        g = jnp.take(c, flat, axis=axis, mode="clip")
        shape = list(c.shape)
        shape[axis : axis + 1] = [n_out, taps]
        g = g.reshape(shape)
        wk = np.asarray(w, real).reshape([n_out, taps] + [1] * (c.ndim - axis - 1))
        terms = g * wk
        if present is not None and not present.all():
            mask = present.reshape([n_out, taps] + [1] * (c.ndim - axis - 1))
            terms = jnp.where(mask, terms, jnp.zeros((), terms.dtype))
        return [jnp.sum(terms, axis=axis + 1)]
    length = -(-n_out // p)
    wt = np.zeros((p * length, taps))
    wt[:n_out] = w
    wt = wt.reshape(length, p, taps)
    pt = None
    if present is not None:
        pt = np.zeros((p * length, taps), bool)
        pt[:n_out] = present
        pt = pt.reshape(length, p, taps)
    if p == 1:
        return _segmented(
            c, axis, runs[0], wt[:, 0], length, real, None if pt is None else pt[:, 0]
        )
    if any(len(tap_runs) > 1 for phase_runs in runs for tap_runs in phase_runs):
        return _trimmed(_segmented_phases(c, axis, runs, wt, pt, length, real), axis, n_out)
    else:
        phases: list[Any] = []
        for q in range(p):
            acc = None
            for j in range(taps):
                pieces = [_read_run(c, axis, f, st, n) for _, f, st, n in runs[q][j]]
                g = pieces[0] if len(pieces) == 1 else jnp.concatenate(pieces, axis=axis)
                term = _weighted(g, wt[:, q, j], None if pt is None else pt[:, q, j], axis, real)
                acc = term if acc is None else acc + term
            phases.append(acc)
        return _trimmed([_interleaved(phases, axis)], axis, n_out)


def _trimmed(pieces: list, axis: int, n: int) -> list:
    """The first ``n`` entries along ``axis`` of the pieces' concatenation, as pieces."""
    out, kept = [], 0
    for piece in pieces:
        if kept >= n:
            break
        size = piece.shape[axis]
        out.append(piece if kept + size <= n else lax.slice_in_dim(piece, 0, n - kept, axis=axis))
        kept += min(size, n - kept)
    return out


def _interleaved(phases: list, axis: int):
    """The phases' outputs (each ``length`` along ``axis``) interleaved: output
    ``m * p + q`` is phase ``q``'s ``m``, chosen by a select on the phase's iota rather
    than stacked (a concatenation, which XLA:CPU emits as a branch per element): torch's
    nearest x2 at (8, 64, 128, 128) 44.6 -> 36.8 ms, bilinear x2 level
    (``benchmarks/resize.py``, 2026-12-07)."""
    shape = list(phases[0].shape)
    shape.insert(axis + 1, len(phases))
    phase = lax.broadcasted_iota(np.int32, shape, axis + 1)
    out = jnp.expand_dims(phases[-1], axis + 1)
    for q in range(len(phases) - 2, -1, -1):
        out = jnp.where(phase == q, jnp.expand_dims(phases[q], axis + 1), out)
    shape = list(out.shape)
    shape[axis : axis + 2] = [shape[axis] * len(phases)]
    return out.reshape(shape)


def _segmented_phases(c, axis: int, runs, wt, pt, length: int, real):
    """The phases' pass cut into segments of the phase rows where every tap of every
    phase reads one run (``_segmented``'s form across phases), each segment's phases
    interleaved, the segments concatenated once. A concatenation of each tap's runs
    shared by two phases (a resize's edge rows: phase 0's taps ``m - 1, m`` and phase
    1's ``m, m + 1``) was written to memory whole: a x2 cubic resize along an axis of
    (8, 128, 128, 64) took 250-296 ms so, 2.5-3x the pass's memory floor."""
    p, taps = wt.shape[1], wt.shape[2]
    starts = sorted(
        {pos for phase_runs in runs for tap_runs in phase_runs for pos, *_ in tap_runs} | {length}
    )
    segments: list[jax.Array] = []
    for a, b in zip(starts[:-1], starts[1:]):
        phases = []
        for q in range(p):
            terms = []
            for j in range(taps):
                pos, first, step, _ = next(r for r in reversed(runs[q][j]) if r[0] <= a)
                g = _read_run(c, axis, first + step * (a - pos), step, b - a)
                mask = None if pt is None else pt[a:b, q, j]
                terms.append(_weighted(g, wt[a:b, q, j], mask, axis, real))
            phases.append(functools.reduce(operator.add, terms))
        segments.append(_interleaved(phases, axis))
    return segments


def _abstract_eval(c, *, axis: int, table: _Table):
    shape = list(c.shape)
    shape[axis] = table.idx.shape[0]
    return c.update(shape=tuple(shape))


def _transpose(ct, c, *, axis: int, table: _Table):
    if type(ct) is ad.Zero:
        return (ad.Zero(c.aval),)
    transposed = table.transposed(c.aval.shape[axis])
    return (pass_p.bind(ct, axis=axis, table=transposed),)


def _batch(args, dims, *, axis: int, table: _Table):
    (c,), (dim,) = args, dims
    return pass_p.bind(c, axis=axis + (dim <= axis), table=table), dim


pass_p = Primitive("jaxpad_interpolation_pass")
# Eager calls compile the whole pass once per shape and table (as jit would), not op
# by op: a resize's eager call dispatched tens of slices and products.
pass_p.def_impl(functools.partial(xla.apply_primitive, pass_p))
pass_p.def_abstract_eval(_abstract_eval)
ad.deflinear2(pass_p, _transpose)
batching.primitive_batchers[pass_p] = _batch
jet.deflinear(pass_p)
mlir.register_lowering(pass_p, mlir.lower_fun(_pass_impl, multiple_results=False))


def _with_cval(c, axis: int, idx: np.ndarray, cval):
    """``c`` with a plane of ``cval`` after its last entry along ``axis`` where ``idx``
    reads it (``idx == -1``), and ``idx`` pointing there."""
    if not (idx == -1).any():
        return c, idx
    shape = list(c.shape)
    shape[axis] = 1
    c = jnp.concatenate([c, jnp.broadcast_to(cval.astype(c.dtype), shape)], axis=axis)
    return c, np.where(idx == -1, c.shape[axis] - 1, idx)


def static_pass(c, axis: int, idx: np.ndarray, w: np.ndarray, cval, present=None):
    """``out[k] = sum_j w[k, j] * c[idx[k, j]]`` along ``axis`` (``idx == -1``:
    ``cval``; ``present[k, j]`` False: no term), as ``jaxpad_interpolation_pass``."""
    c, idx = _with_cval(c, axis, idx, cval)
    return pass_p.bind(c, axis=axis, table=_Table(idx, w, present))


def static_pieces(c, axis: int, idx: np.ndarray, w: np.ndarray, cval, present=None) -> list:
    """``static_pass``'s output as ``pass_pieces``, built in place (no primitive)."""
    c, idx = _with_cval(c, axis, idx, cval)
    return pass_pieces(c, axis, _Table(idx, w, present))
