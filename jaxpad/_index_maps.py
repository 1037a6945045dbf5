"""Per-axis index maps of the padding modes, and their inverses for the fold.

The index rule of docs/semantics.md: along an axis of size ``n`` padded by ``pads_begin``,
output position ``i`` reads source ``m(i - pads_begin)``. Everything here is about a
single axis; the primitives combine axes.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from jaxpad._compat import InconclusiveDimensionOperation

MODES = ("constant", "edge", "reflect", "symmetric", "wrap")

# Modes a side of an axis may have on top of MODES (docs/modes.md). Each is linear in
# (x, pad_value): ``sign * x[source] + first * x[0] + second * x[1] + second_last *
# x[n - 2] + last * x[n - 1] + value * v``, with ``source`` the index map of its base
# mode (``side_coefficients``).
ODD_MODES = ("reflect_odd", "symmetric_odd")
# PyWavelets' and scipy.signal.upfirdn's extensions: the sign-flipped half-sample
# mirror, the extrapolation of the edge's slope, the line through both ends.
SIGNAL_MODES = ("antisymmetric", "smooth", "line")
SIDE_MODES = MODES + ODD_MODES + ("dirichlet", "neumann") + SIGNAL_MODES
# Sides that read the pad value, and sides whose ghost cells are arithmetic on x
# (they need a numeric dtype; ``line``'s fractional coefficients a floating one).
VALUE_MODES = ("constant", "dirichlet", "neumann")
ARITHMETIC_MODES = ODD_MODES + ("dirichlet", "neumann") + SIGNAL_MODES
FRACTIONAL_MODES = ("line",)
# Sides read as ``edge`` on an axis of one element (no mirror, slope or line there).
_EDGE_ON_ONE = ODD_MODES + ("smooth", "line")

# Modes whose map repeats with a period; larger pads continue that period.
_PERIODIC = ("reflect", "symmetric", "wrap")


def effective_mode(mode: str, n: int) -> str:
    """On an axis of one element every periodic mode repeats that element, as edge does."""
    return "edge" if mode in _PERIODIC and n == 1 else mode


def base_mode(mode: str) -> str:
    """The mode whose index map a side mode reads through (``side_coefficients``)."""
    bases = {
        "reflect_odd": "reflect",
        "symmetric_odd": "symmetric",
        "dirichlet": "symmetric",
        "neumann": "symmetric",
        "antisymmetric": "symmetric",
        "smooth": "edge",
        "line": "edge",
    }
    return bases.get(mode, mode)


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
class SideCoefficients:
    """Per output offset ``j`` of one axis: ``out[j] = sign * x[source(j)] +
    first * x[0] + second * x[1] + second_last * x[n - 2] + last * x[n - 1] +
    value * v``, where ``source`` is the index map of the side's ``base_mode`` and
    ``v`` the side's pad value. Offsets in ``[0, n)`` copy (``sign`` 1, the rest 0).
    Each is the net coefficient on its element: where ``source(j)`` is one of the
    named elements, that element's coefficient is 0 and its share is in ``sign``, and
    on an axis of 2 or 3 elements the names that coincide are merged into one
    (``second`` into ``last``, ``second_last`` into ``first`` or ``second``), so a
    zero coefficient means the element is not read at all. The coefficients are
    integers but for ``line``'s (``k / (n - 1)``)."""

    sign: np.ndarray
    first: np.ndarray
    last: np.ndarray
    value: np.ndarray
    second: np.ndarray | None = None
    second_last: np.ndarray | None = None

    def edge_terms(self, n: int):
        """``(coefficient, index)`` of each named element that a side may read; the
        indices are distinct (``side_coefficients`` merged those that coincide)."""
        terms = [(self.first, 0), (self.last, n - 1)]
        if self.second is not None:
            terms.append((self.second, 1))
        if self.second_last is not None:
            terms.append((self.second_last, n - 2))
        return tuple(terms)

    def row_sum(self):
        """What the axis makes of a constant: the factor a value term of an earlier
        axis is carried through this one by."""
        total = self.sign + self.first + self.last
        for extra in (self.second, self.second_last):
            if extra is not None:
                total = total + extra
        return total


def side_coefficients(modes, n: int, offsets, xp=np, periods_before=(0, 0)) -> SideCoefficients:
    """The coefficients of ``modes = (begin_mode, end_mode)`` at ``offsets``.

    Odd reflections turn about the edges: about the edge element (``reflect_odd``,
    period ``2 (n - 1)``) or about the face past it (``symmetric_odd``, period
    ``2 n``), ``2 x[edge] - x[mirror]``. Each period further out adds
    ``2 (x[n - 1] - x[0])``, numpy's cumulative odd reflection. ``dirichlet`` is
    ``2 v - symmetric``: odd about the value ``v`` at the face, at every width.
    ``antisymmetric`` is the symmetric mirror with its mirrored cells negated
    (PyWavelets'): ``-x[k]`` in cell ``-1-k``, ``+x[n-1-k]`` one axis length further,
    period ``2 n``. ``smooth`` continues the edge's slope, ``(1 + k) x[0] - k x[1]``
    ``k`` cells out, and ``line`` the line through both ends, ``x[0] - k (x[n-1] -
    x[0]) / (n - 1)`` (mirrored at the end). ``periods_before`` adds whole periods to
    each side's count (traced pads reduced to a small equivalent one,
    ``_lowering._sided``).
    """
    begin = offsets < 0
    end = offsets >= n
    zeros = xp.zeros_like(offsets)
    sign, first, last, value = zeros + 1, zeros, zeros, zeros
    second, second_last = zeros, zeros
    reads_inner = False  # whether a side reads x[1] or x[n - 2] (smooth)
    for mode, region, extra in (
        (modes[0], begin, periods_before[0]),
        (modes[1], end, periods_before[1]),
    ):
        mode = mode if n != 1 or mode not in _EDGE_ON_ONE else "edge"
        at_begin = region is begin
        if mode == "constant":
            sign = xp.where(region, 0, sign)
            value = xp.where(region, 1, value)
        elif mode == "dirichlet":
            sign = xp.where(region, -1, sign)
            value = xp.where(region, 2, value)
        elif mode == "neumann":
            # The symmetric ghost minus (begin) or plus (end) ``2k - 1`` jumps ``v``, for
            # the ghost ``k`` cells beyond the face: a linear profile of slope ``v`` per
            # cell through the face. ``k`` counts the periods a traced pad skipped (the
            # reduction's period: 1 on an axis of one element).
            p = period("symmetric", n) if n > 1 else 1
            true_offsets = offsets + extra * p
            beyond = -true_offsets if at_begin else true_offsets - n + 1
            value = xp.where(region, (2 * beyond - 1) * (-1 if at_begin else 1), value)
        elif mode == "antisymmetric":
            # Sign only: the pattern repeats every 2 n cells (2 on an axis of one
            # element), so the periods a traced pad skipped change nothing.
            mirrored = xp.remainder(offsets, period("symmetric", n)) >= n
            sign = xp.where(region & mirrored, -1, sign)
        elif mode in ("smooth", "line"):
            # ``k`` cells beyond the edge (its base mode, edge, reduces traced pads by
            # periods of one cell).
            beyond = -(offsets + extra) if at_begin else offsets + extra - (n - 1)
            if mode == "smooth":
                reads_inner = True
                sign = xp.where(region, 1 + beyond, sign)
                if at_begin:
                    second = xp.where(region, -beyond, second)
                else:
                    second_last = xp.where(region, -beyond, second_last)
            else:
                slope = beyond / (n - 1)
                sign = xp.where(region, 1 + slope, sign)
                if at_begin:
                    last = xp.where(region, -slope, last)
                else:
                    first = xp.where(region, -slope, first)
        elif mode in ODD_MODES:
            p = period(base_mode(mode), n)
            turns = xp.floor_divide(offsets, p) + extra
            mirrored = xp.remainder(offsets, p) >= n
            sign = xp.where(region & mirrored, -1, sign)
            first = xp.where(region, -2 * turns, first)
            last = xp.where(region, 2 * turns + 2 * mirrored, last)
    if reads_inner and n <= 3:
        # The inner elements are edge elements (n = 2) or one element (n = 3).
        if n == 2:
            first, last = first + second_last, last + second
            second, second_last = zeros, zeros
        else:
            second, second_last = second + second_last, zeros
    # Where the base mode reads a named element itself, its terms are one term:
    # ``symmetric_odd``'s first ghost is ``x[0]``, not ``2 x[0] - x[0]``, which an
    # infinite x[0] would turn into nan (docs/semantics.md, "Infinities and nan").
    named = [first, last] + ([second, second_last] if reads_inner else [])
    indices = [0, n - 1] + ([1, n - 2] if reads_inner else [])
    for side_mode, region in ((modes[0], begin), (modes[1], end)):
        if side_mode not in _EDGE_ON_ONE or n <= 1:  # no named terms to merge
            continue
        source = source_index(base_mode(side_mode), n, offsets, xp=xp)
        for i, index in enumerate(indices):
            here = region & (source == index)
            sign = sign + xp.where(here, named[i], 0)
            named[i] = xp.where(here, 0, named[i])
    if reads_inner:
        first, last, second, second_last = named
        return SideCoefficients(sign, first, last, value, second, second_last)
    first, last = named
    return SideCoefficients(sign, first, last, value)


@dataclasses.dataclass(frozen=True)
class Piece:
    """Output positions ``[start, stop)`` of one axis that fold onto ``[src_start, src_stop)``.

    ``kind`` says how: ``"copy"`` position by position, ``"reverse"`` mirrored,
    ``"sum"`` all onto one source element (edge padding), ``"period"`` by first summing
    whole periods ``p`` (large pads) and then folding one period with ``inner``,
    ``"weighted"`` onto one source element with ``weights`` (the edge terms of the odd
    modes), ``"fill"`` nowhere (a constant side, in the forward's pieces).
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
    weights: tuple[float, ...] = ()
    # Per output position, what the cotangent is multiplied by before it folds
    # (a per-side pad's net sign); () for 1.
    scale: tuple[float, ...] = ()


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


def period_pieces(mode: str, n: int) -> tuple[Piece, ...]:
    """The pieces that fold one whole period (offsets ``[0, period)``) onto ``[0, n)``.

    The static fold of a pad spanning several periods, and the dynamic fold of a
    traced one, both sum the cotangent period by period first and then fold that one
    period with these pieces.
    """
    return tuple(_runs(source_index(mode, n, np.arange(period(mode, n))), 0))


def _one_run(mode: str, n, region_start: int, region_stop: int, start: int):
    """The single piece of a padding region that the index map reads as one run
    (no turn of a mirror, no second wrap), or None if it does not.

    Closed-form in ``n``, so that a symbolic axis size works wherever its
    constraints decide the comparisons.
    """
    length = region_stop - region_start
    stop = start + length
    kind = "reverse" if mode in ("reflect", "symmetric") and length > 1 else "copy"
    if region_stop <= 0:  # before the axis
        if mode == "reflect" and region_start >= 1 - n:
            return Piece(1 - region_stop, 1 - region_start, start, stop, kind)
        if mode == "symmetric" and region_start >= -n:
            return Piece(-region_stop, -region_start, start, stop, kind)
        if mode == "wrap" and region_start >= -n:
            return Piece(region_start + n, region_stop + n, start, stop, kind)
        return None
    if mode == "reflect" and region_stop <= 2 * n - 1:
        return Piece(2 * n - 1 - region_stop, 2 * n - 1 - region_start, start, stop, kind)
    if mode == "symmetric" and region_stop <= 2 * n:
        return Piece(2 * n - region_stop, 2 * n - region_start, start, stop, kind)
    if mode == "wrap" and region_stop <= 2 * n:
        return Piece(region_start - n, region_stop - n, start, stop, kind)
    return None


def fold_pieces(mode, n, pads_begin: int, out_size, fill: bool = False) -> list[Piece]:
    """The pieces whose sum is the transpose of padding one axis (interior 0).

    ``mode`` is a mode of ``MODES``, or a ``(begin, end)`` pair of them for an axis
    whose sides differ. The direct copy (``direct=True``) comes first when there is
    one. Each padding region becomes at most three pieces, or one ``"period"`` piece
    when it spans more than a period, so the number of pieces never grows with the
    pad width. With ``fill``, a constant region is a ``"fill"`` piece (the forward
    writes zeros there; the fold has nothing to add).

    ``n`` and ``out_size`` may be symbolic (``jax.export``) when each padding region
    is read as one run (a pad shorter than the axis); the comparisons then raise
    ``jax.errors.InconclusiveDimensionOperation`` unless the constraints decide them.
    """
    modes = (mode, mode) if isinstance(mode, str) else tuple(mode)
    first = -pads_begin  # source offset of output position 0
    last = first + out_size
    pieces = []
    lo, hi = min(max(first, 0), n), max(min(last, n), 0)
    if hi > lo:
        pieces.append(Piece(lo, hi, lo - first, hi - first, "copy", direct=True))
    regions = [(first, min(0, last)), (max(n, first), last)]
    for side_mode, (region_start, region_stop) in zip(modes, regions):
        if region_stop <= region_start:
            continue
        start, stop = region_start - first, region_stop - first
        if side_mode == "constant" or (isinstance(n, int) and n == 0):
            if fill:
                pieces.append(Piece(0, 0, start, stop, "fill"))
            continue
        side_mode = effective_mode(side_mode, n)
        if side_mode == "edge":
            src = 0 if region_stop <= 0 else n - 1
            pieces.append(Piece(src, src + 1, start, stop, "sum"))
            continue
        try:
            run = _one_run(side_mode, n, region_start, region_stop, start)
        except InconclusiveDimensionOperation:
            raise SymbolicPadError(side_mode, n, region_start, region_stop) from None
        if run is not None:
            pieces.append(run)
            continue
        if not isinstance(n, (int, np.integer)):
            raise SymbolicPadError(side_mode, n, region_start, region_stop)
        n = int(n)
        p = period(side_mode, n)
        if region_stop - region_start <= p:
            offsets = np.arange(region_start, region_stop)
            pieces.extend(_runs(source_index(side_mode, n, offsets), start))
            continue
        pieces.append(
            Piece(
                0,
                n,
                start,
                stop,
                "period",
                period=p,
                phase=region_start % p,
                inner=period_pieces(side_mode, n),
            )
        )
    return pieces


class SymbolicPadError(ValueError):
    """A pad on a symbolic axis that the index map does not read as one run."""

    def __init__(self, mode, n, region_start, region_stop):
        length = region_stop - region_start
        need = {"reflect": length + 1}.get(mode, length)
        self.constraint = f"{n} >= {need}"
        super().__init__(f"a {mode} pad of {length} reads it as one run only if {self.constraint}")


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
