"""Per-axis index maps of the padding modes, and their inverses for the fold.

SEMANTICS.md's index rule: along an axis of size ``n`` padded by ``pads_begin``,
output position ``i`` reads source ``m(i - pads_begin)``. Everything here is about a
single axis; the primitives combine axes.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from jax import lax

MODES = ("constant", "edge", "reflect", "symmetric", "wrap")

# Edge pads up to this wide, and pads up to this many periods long, are summed by
# unrolled adds rather than a reduction.
_MAX_UNROLLED_SUM = 8

# Modes whose map repeats with a period; larger pads continue that period.
_PERIODIC = ("reflect", "symmetric", "wrap")


def effective_mode(mode: str, n: int) -> str:
    """On an axis of one element every periodic mode repeats that element, as edge does."""
    return "edge" if mode in _PERIODIC and n == 1 else mode


def period(mode: str, n: int) -> int:
    return {"reflect": 2 * (n - 1), "symmetric": 2 * n, "wrap": n}[mode]


def reduced_pad(mode: str, n: int, size: int, pad: int) -> int:
    """The pad in ``[-n, size]`` (constant, edge) or ``[0, period)`` that reads the same.

    Output position ``i`` of an axis of ``size`` reads offset ``i - pad``. Constant and
    edge maps treat every offset below 0 alike and every offset past ``n - 1`` alike,
    so pads beyond ``[-n, size]`` change nothing; periodic maps see the pad modulo
    their period. The result fits int32 whatever the pad was.
    """
    mode = effective_mode(mode, n)
    if mode in ("constant", "edge") or n == 0:
        return min(max(pad, -n), size)
    return pad % period(mode, n)


def source_index(mode: str, n: int, offsets, xp=np):
    """Maps offsets ``j = i - pads_begin`` to source indices for a non-constant mode.

    ``xp`` is NumPy for static tables or ``jax.numpy`` for traced offsets; both get
    the same arithmetic so the static and dynamic ops cannot drift apart.
    """
    mode = effective_mode(mode, n)
    if mode == "edge":
        return xp.clip(offsets, 0, n - 1)
    p = period(mode, n)
    phase = xp.remainder(offsets, p)  # floor-mod: non-negative for negative offsets
    if mode == "wrap":
        return phase
    mirror = p - phase if mode == "reflect" else p - 1 - phase
    return xp.where(phase < n, phase, mirror)


@dataclasses.dataclass(frozen=True)
class Piece:
    """Output positions ``[start, stop)`` of one axis that fold onto ``[src_start, src_stop)``.

    ``kind`` says how: ``"copy"`` position by position, ``"reverse"`` mirrored,
    ``"sum"`` all onto one source element (edge padding), ``"period"`` by first summing
    whole periods ``p`` (large pads) and then folding one period with ``inner``.
    """

    src_start: int
    src_stop: int
    start: int
    stop: int
    kind: str
    period: int = 0
    phase: int = 0
    inner: tuple[Piece, ...] = ()
    direct: bool = False

    def extract(self, t, axis: int):
        """The cotangent ``t``'s contribution to ``[src_start, src_stop)`` along ``axis``."""
        part = lax.slice_in_dim(t, self.start, self.stop, axis=axis)
        if self.kind == "copy":
            return part
        if self.kind == "reverse":
            return lax.rev(part, (axis,))
        if self.kind == "sum":
            length = self.stop - self.start
            if length > _MAX_UNROLLED_SUM:
                return part.sum(axis=axis, keepdims=True)
            # A few adds fuse into the consumer; a reduction is a kernel of its own.
            total = lax.slice_in_dim(part, 0, 1, axis=axis)
            for i in range(1, length):
                total = total + lax.slice_in_dim(part, i, i + 1, axis=axis)
            return total
        # Sum whole periods first so that the op count does not grow with the pad.
        length = self.stop - self.start
        reps = -(-(self.phase + length) // self.period)
        if reps <= _MAX_UNROLLED_SUM:
            # As for edge: a few adds of shifted slices fuse into the consumer. Padding
            # to whole periods made XLA write the padded copy out (twice the pad's
            # size), and the reduction over a middle axis ran as a kernel of its own:
            # wrap by 100 and 70 on an axis of 64 took 58 ms against jnp.pad's 50.
            # Where source 0 of each period lies in ``part``; the first and last
            # periods are cut off by the ends of the region.
            firsts = [rep * self.period - self.phase for rep in range(reps)]
            windows = [
                lax.slice_in_dim(part, max(first, 0), min(first + self.period, length), axis=axis)
                for first in firsts
            ]
            starts = [max(first, 0) - first for first in firsts]
            one_period = _accumulate(windows, starts, self.period, axis)
        else:
            config = [(0, 0, 0)] * t.ndim
            config[axis] = (self.phase, reps * self.period - self.phase - length, 0)
            part = lax.pad(part, np.zeros((), part.dtype), config)
            shape = list(part.shape)
            shape[axis : axis + 1] = [reps, self.period]
            one_period = part.reshape(shape).sum(axis=axis)
        pieces = [piece.extract(one_period, axis) for piece in self.inner]
        return _accumulate(
            pieces,
            [p.src_start - self.src_start for p in self.inner],
            self.src_stop - self.src_start,
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


def _runs(sources: np.ndarray, first_position: int) -> list[Piece]:
    """Splits a run of source indices into maximal stretches of slope +1 or -1."""
    pieces = []
    start = 0
    length = len(sources)
    while start < length:
        stop = start + 1
        if stop < length and abs(int(sources[stop]) - int(sources[start])) == 1:
            step = int(sources[stop]) - int(sources[start])
            steps = np.diff(sources[start:])
            broken = np.flatnonzero(steps != step)
            stop = start + (int(broken[0]) + 1 if len(broken) else length - start)
        lo, hi = int(sources[start:stop].min()), int(sources[start:stop].max()) + 1
        reverse = stop - start > 1 and sources[start + 1] < sources[start]
        pieces.append(
            Piece(
                lo,
                hi,
                first_position + start,
                first_position + stop,
                "reverse" if reverse else "copy",
            )
        )
        start = stop
    return pieces


def fold_pieces(mode: str, n: int, pads_begin: int, out_size: int) -> list[Piece]:
    """The pieces whose sum is the transpose of padding one axis (interior 0).

    The direct copy (``direct=True``) comes first when there is one. Each padding
    region becomes at most three pieces, or one ``"period"`` piece when it spans more
    than a period, so the number of ops in the fold never grows with the pad width.
    """
    first = -pads_begin  # source offset of output position 0
    last = first + out_size
    pieces = []
    lo, hi = min(max(first, 0), n), max(min(last, n), 0)
    if hi > lo:
        pieces.append(Piece(lo, hi, lo - first, hi - first, "copy", direct=True))
    if mode == "constant" or n == 0:
        return pieces
    mode = effective_mode(mode, n)
    regions = [(first, min(0, last)), (max(n, first), last)]
    for region_start, region_stop in regions:
        if region_stop <= region_start:
            continue
        start, stop = region_start - first, region_stop - first
        if mode == "edge":
            src = 0 if region_stop <= 0 else n - 1
            pieces.append(Piece(src, src + 1, start, stop, "sum"))
            continue
        p = period(mode, n)
        if region_stop - region_start <= p:
            offsets = np.arange(region_start, region_stop)
            pieces.extend(_runs(source_index(mode, n, offsets), start))
            continue
        inner = _runs(source_index(mode, n, np.arange(p)), 0)
        pieces.append(
            Piece(0, n, start, stop, "period", period=p, phase=region_start % p, inner=tuple(inner))
        )
    return pieces


def interior_range(pieces: list[Piece], n: int) -> tuple[int, int]:
    """The longest source range that only the direct copy reaches.

    The fold writes it with one plain slice; everything outside it is a thin band
    next to the edges, where the other pieces land.
    """
    if not pieces or not pieces[0].direct:
        return (0, 0)
    begin, end = pieces[0].src_start, pieces[0].src_stop
    cuts = sorted((p.src_start, p.src_stop) for p in pieces[1:])
    best = (0, 0)
    cursor = begin
    for cut_start, cut_stop in cuts + [(end, end)]:
        if min(cut_start, end) - cursor > best[1] - best[0]:
            best = (cursor, min(cut_start, end))
        cursor = max(cursor, cut_stop)
    return best
