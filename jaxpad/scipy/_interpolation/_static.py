"""A transform's pass along one axis at concrete coordinates: scipy's ``NI_ZoomShift``
taps computed in NumPy in float64 (``_static_plan``), read through static slices
(``_static_pass``): the output indices split into ``P`` phases (``k % P``) and each
phase's tap indices into runs of a constant stride (``_runs``), so a shift is one slice
per tap (a reflected edge adds one more), a zoom by 2 or 1/2 two phases of one slice a
tap, and no gather is built.

The pass is one primitive, ``jaxpad_interpolation_pass``, linear in its operand, whose
transpose is the same pass with the transposed table (``_Table.transposed``: each input
index gathers the outputs that read it, with their weights), so the VJP reads the
cotangent through static slices too. Left to JAX, each strided slice transposed to a
zero pad of the whole input, the pads summed: ``zoom`` x0.5's VJP took 3.5-3.7x its
forward at 1024x1024 (``benchmarks/interpolation.py``).
"""

from __future__ import annotations

import functools
import hashlib
import operator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import jet
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad.scipy._interpolation import _spline

# A pass is built from static slices while its taps need at most this many runs in
# all (summed over taps and phases); past that (a zoom factor with no short period),
# one take of the whole (n_out, order + 1) index table, which XLA:CPU turns into a
# row gather (benchmarks/interpolation.py --forms).
_MAX_RUNS = 96
# Phases tried for a pass: zooms by 2, 3, 4, 1/2 ... repeat within this period.
_MAX_PHASES = 8


# ----------------------------------------------------------------------------------
# scipy's coordinate arithmetic, in NumPy (ni_interpolation.c)
# ----------------------------------------------------------------------------------


def _np_map_coordinate(cc: np.ndarray, n: int, mode: str) -> np.ndarray:
    """scipy's ``map_coordinate`` on a float64 vector (``npy_intp`` casts as ``trunc``)."""
    cc = np.array(cc, dtype=np.float64)
    lo = cc < 0
    hi = cc > n - 1
    if mode == "constant":
        cc[lo | hi] = -1.0
        return cc
    if mode == "nearest":
        cc[lo] = 0.0
        cc[hi] = n - 1.0
        return cc
    if n <= 1:
        cc[lo | hi] = 0.0
        return cc
    a = cc[lo]
    b = cc[hi]
    if mode == "mirror":
        sz2 = 2 * n - 2
        a = sz2 * np.trunc(-a / sz2) + a
        a = np.where(a <= 1 - n, a + sz2, -a)
        b = b - sz2 * np.trunc(b / sz2)
        b = np.where(b >= n, sz2 - b, b)
    elif mode in ("reflect", "grid-mirror"):
        sz2 = 2 * n
        a = np.where(a < -sz2, sz2 * np.trunc(-a / sz2) + a, a)
        a = np.where(a < -n, a + sz2, np.where(a > -1e-15, 1e-15, -a) - 1)
        b = b - sz2 * np.trunc(b / sz2)
        b = np.where(b >= n, sz2 - b - 1, b)
    elif mode == "wrap":
        sz = n - 1
        a = a + sz * (np.trunc(-a / sz) + 1)
        b = b - sz * np.trunc(b / sz)
    elif mode == "grid-wrap":
        a = a + n * (np.trunc((-1 - a) / n) + 1)
        b = b - n * np.trunc(b / n)
    else:  # pragma: no cover - grid-constant is never mapped
        raise AssertionError(mode)
    cc[lo] = a
    cc[hi] = b
    return cc


def _static_plan(cc: np.ndarray, n: int, order: int, mode: str, npad: int):
    """One axis's taps as scipy's ``NI_ZoomShift`` finds them for the output coordinates
    ``cc`` (float64, in the unpadded input's indices) on an axis of ``n`` prepadded
    coefficients: ``(idx, w, outside)``, ``idx[k, j]`` the coefficient tap ``j`` of
    output ``k`` reads (``-1``: ``cval``, grid-constant), ``w`` its float64 weight,
    ``outside[k]`` whether output ``k`` is ``cval`` (constant mode)."""
    cc = np.asarray(cc, dtype=np.float64) + npad
    if mode in ("grid-constant", "nearest"):
        # every tap reads the extension's constant beyond here; keeps floor() in range
        cc = np.clip(cc, -order - 2.0, n + order + 1.0)
        outside = np.zeros(cc.shape, bool)
    else:
        cc = _np_map_coordinate(cc, n, mode)
        outside = ~(cc > -1.0)
        cc = np.where(outside, 0.0, cc)
    first = np.floor(cc) if order & 1 else np.floor(cc + 0.5)
    start = first.astype(np.int64) - order // 2
    idx = start[:, None] + np.arange(order + 1)
    edge = (idx < 0) | (idx >= n)
    if mode == "grid-constant":
        idx = np.where(edge, -1, idx)
    elif edge.any():
        spline_mode = "mirror" if mode in ("constant", "wrap") else mode
        mapped = _np_map_coordinate(idx[edge].astype(np.float64), n, spline_mode)
        idx[edge] = mapped.astype(np.int64)
    w = np.stack(_spline.weights(cc - first, order), axis=-1) if order else np.ones((len(cc), 1))
    return idx, w, outside


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
    fusion, and the segments are concatenated once. A concatenation of each tap's runs
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
    return segments[0] if len(segments) == 1 else jnp.concatenate(segments, axis)


def _static_pass(c, axis: int, idx: np.ndarray, w: np.ndarray, cval):
    """``out[k] = sum_j w[k, j] * c[idx[k, j]]`` along ``axis`` (``idx == -1``:
    ``cval``), as ``jaxpad_interpolation_pass``."""
    if (idx == -1).any():
        shape = list(c.shape)
        shape[axis] = 1
        c = jnp.concatenate([c, jnp.broadcast_to(cval.astype(c.dtype), shape)], axis=axis)
        idx = np.where(idx == -1, c.shape[axis] - 1, idx)
    return pass_p.bind(c, axis=axis, table=_Table(idx, w, None))


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
    """The pass of ``table`` along ``axis`` from static slices by phase and run
    (``_phases``), or one take past ``_MAX_RUNS``."""
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
        return jnp.sum(terms, axis=axis + 1)
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
    phases: list[Any] = []
    for q in range(p):
        acc = None
        for j in range(taps):
            pieces = [_read_run(c, axis, first, step, size) for _, first, step, size in runs[q][j]]
            g = pieces[0] if len(pieces) == 1 else jnp.concatenate(pieces, axis=axis)
            term = _weighted(g, wt[:, q, j], None if pt is None else pt[:, q, j], axis, real)
            acc = term if acc is None else acc + term
        phases.append(acc)
    out = jnp.stack(phases, axis=axis + 1)
    shape = list(out.shape)
    shape[axis : axis + 2] = [length * p]
    out = out.reshape(shape)
    return lax.slice_in_dim(out, 0, n_out, axis=axis)


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
pass_p.def_impl(_pass_impl)
pass_p.def_abstract_eval(_abstract_eval)
ad.deflinear2(pass_p, _transpose)
batching.primitive_batchers[pass_p] = _batch
jet.deflinear(pass_p)
mlir.register_lowering(pass_p, mlir.lower_fun(_pass_impl, multiple_results=False))
