"""Every XLA graph that jaxpad's primitives lower to, and the planner that picks it.

The layer reads in one direction: public function (``_pad.py``, ``_dynamic_pad.py``)
-> primitive rules (same modules) -> a *plan* here -> one form here. The pieces come
from ``_index_maps`` (pure NumPy): per axis, which output range folds onto which
source range, and how (copy, mirror, edge run, whole periods).

The planner (``plan_pad``, ``plan_fold``, ``plan_dynamic_fold``) looks only at static
shapes, pads and the target, and returns a small frozen dataclass naming the form and
its parameters before any op is built, so the choice is testable without compiling
(tests/test_lowering.py). Nothing is built and then abandoned.

Platforms. ``register_lowering`` registers two rules per primitive:

- ``platform="cpu"``: the forms tuned on XLA:CPU (tables in docs/performance.md).
- every other platform (GPU, TPU): one simple default, untuned because no GPU or TPU
  was at hand to measure: the forward is one gather through per-axis index tables,
  the fold one concatenate of boxes. Both are single elementwise loops over the
  result, the shape XLA's GPU and TPU emitters fuse into one kernel with their
  consumers; the CPU forms exist to avoid XLA:CPU costs (in-graph index tables,
  single-threaded in-place updates) that those backends do not share.

Symbolic sizes (``jax.export``) on a padded axis and programs partitioned over
several devices take the slice-and-concatenate forms on every platform: they need
no index table the size of the axis, and XLA's SPMD partitioner turns slices along a
sharded axis into halo exchanges where it would all-gather a gather's operand.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.interpreters import mlir

from jaxpad._gather import broadcast_table, gather_tables
from jaxpad._index_maps import (
    Piece,
    SideCoefficients,
    SymbolicPadError,
    base_mode,
    effective_mode,
    fold_pieces,
    interior_range,
    period,
    period_pieces,
    side_coefficients,
    source_index,
)
from jaxpad._sharding import is_partitioned, with_auto_axes

# Tuning constants. Each names the table in docs/performance.md that set it.

# Index tables up to this many entries per axis are baked into the program as
# constants; longer axes compute theirs in-graph so the executable stays small
# (docs/performance.md, "How it lowers", tuning constants: executable size). Only
# the gather forward has tables, and the planner takes it off CPU only.
_MAX_STATIC_TABLE = 1 << 16

# A one-axis fold with bands at most this share of the cotangent is the fused sum
# (docs/performance.md, "Forms the planner picks": bands of 12-21% measured
# 1.35-1.8x jnp.pad, 7-8.5% 1.0x).
_MAX_BAND_SHARE_ONE_AXIS = 1 / 16

# Edge runs up to this wide, and pads up to this many periods long, are summed by
# unrolled adds that fuse into the consumer; longer ones by one reduction, so the
# op count stays flat in the pad width (docs/performance.md, "Compile time").
_MAX_UNROLLED_SUM = 8

# The fused-sum fold: at most this many piece combinations, over unpadded trailing
# rows of at least _MIN_FUSED_ROW elements (docs/performance.md, "Forms the planner
# picks", fold of leading axes: with 3 channels it measured 2x slower).
_MAX_FUSED_COMBINATIONS = 16
_MIN_FUSED_ROW = 32

# Past these counts the fold takes a group of axes at a time, keeping the program
# small for inputs padded on every axis (docs/performance.md, "Compile time").
_MAX_FOLD_BOXES = 64
_MAX_FOLD_COMBINATIONS = 32

# A fold of boxes on several axes of an input smaller than this goes one axis at a
# time: folded together, the gradient of a 9-point stencil on a 32x32-96x96 field
# measured 1.2-2.1x jnp.pad's, axis by axis 0.9-1.1x; alone both are 0.2-0.7x
# (docs/performance.md, "Forms the planner picks", small folds).
_MIN_BOXES_TOGETHER = 1 << 14

# A fold that includes the last axis uses band updates from this axis length on:
# below it the concatenate of boxes was faster, above it 2-3x slower
# (docs/performance.md, "Forms the planner picks", long last axis).
_MIN_UPDATED_ROW = 128

# One padded axis (no reduction) that is not the last, where it and the axes after it
# hold fewer elements than this per leading index, is the fused sum: boxes along it
# are runs of a few elements. (16, 1000, 8, 16) reflect 2/2 on axis 2 measured
# boxes 1.68x jnp.pad's VJP and the fused sum 0.49x; slabs of 16-128 elements 0.1-0.5x
# against 0.2-1.7x, 256 even (docs/performance.md, "Forms the planner picks", one
# short slab).
_MAX_SUMMED_SLAB = 256

# A 1-D fold whose bands are at least this share of the cotangent is the concatenate
# of boxes: band updates run on one thread, the concatenate on all; pads of half the
# signal measured bands 0.54-1.19x jnp.pad's VJP and boxes 0.39-0.80x (sweep #6, #7,
# #27; on synthetic signals 0.75-1.07 against 0.67-1.03); at 30% the two were even,
# below 20% the bands won (docs/performance.md, "Forms the planner picks", 1-D folds
# with wide bands).
_MIN_BOXED_BAND_SHARE_1D = 2 / 5

# Dynamic fold: a periodic axis whose output spans at most this many periods reads
# each source's few output positions directly; longer outputs are first summed
# period by period (docs/performance.md, "dynamic_pad").
_MAX_CANDIDATE_PERIODS = 2

# Dynamic fold on CPU, "window" form: the fast branch covers traced pads up to this
# share of the axis (at least 1) beyond the range where the output and the axis
# overlap without a boundary; wider pads take the same form over every pad under a
# conditional. The bands it reads grow with the reach (docs/performance.md,
# "dynamic_pad": reach n/8 against n/4 and the full range).
_WINDOW_REACH_SHARE = 1 / 8

# Dynamic fold: axes with at most this many (source, output position) pairs are
# folded densely by masks (docs/performance.md, "dynamic_pad": without it 8x).
_MAX_DENSE_FOLD = 64

_HALF_FLOATS = (np.dtype(jnp.float16), np.dtype(jnp.bfloat16))

# Index arithmetic. XLA's index operands (band updates' starts, gather indices) are
# int32 in these forms; an axis past that takes forms whose positions are static
# (slices, pads, concatenates) or int64 indices. The forms' traced index values stay
# within ``size + 4 n`` on an axis of ``n`` elements padded to ``size`` (offsets of
# pads reduced to ``[-n, size]`` or one period of at most ``2 n``, plus up to two
# periods of whole-period sums; docs/semantics.md, "How long an axis may be").
_MAX_INT32 = int(np.iinfo(np.int32).max)


def int32_indexes(n, size) -> bool:
    """Whether int32 index arithmetic addresses an axis of ``n`` elements padded to
    ``size`` (symbolic sizes: assumed, as JAX's own shapes are int32 there)."""
    if not (_is_static(n) and _is_static(size)):
        return True
    return size + 4 * n <= _MAX_INT32


def indexable(*shapes) -> bool:
    """Whether every axis of ``shapes`` is short enough for an int32 start index
    (``dynamic_update_slice`` clamps its starts against the axis length in the
    index's type): the band updates are taken only then."""
    return all(not _is_static(size) or size <= _MAX_INT32 for shape in shapes for size in shape)


def index_dtype(n, size) -> np.dtype:
    """The integer type of traced index arithmetic on one axis: int32 where it holds
    ``int32_indexes``, else int64 (the front ends refuse such an axis with traced
    pads when 64-bit types are off)."""
    return np.dtype(np.int32) if int32_indexes(n, size) else np.dtype(np.int64)


@dataclasses.dataclass(frozen=True)
class Target:
    """What the lowering is for: the platform (None: any other than CPU) and whether
    XLA partitions the program over several devices."""

    platform: str | None = "cpu"
    partitioned: bool = False


# Plans ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PadPlan:
    """How a static pad lowers.

    ``form``:
      - ``"lax_pad"``: constant mode, ``lax.pad``.
      - ``"zeros"``: an empty output.
      - ``"gather"``: one gather through per-axis index tables (platforms other
        than CPU); ``in_graph`` names the axes whose table is computed in the
        program (longer than ``_MAX_STATIC_TABLE``).
      - ``"concatenate"``: axis by axis, a concatenate of the slices each output
        range reads (pads spanning periods tile one period): ``jnp.pad``'s own graph.
    ``partitioned``: edge bands of the concatenate are padded into place and
    summed, which the SPMD partitioner moves as halos.
    ``crop``: the concatenate first slices its operand to these ``(start, stop)``
    ranges, the only part its pieces (given relative to them) read.
    """

    form: str
    pieces: tuple[tuple[int, tuple[Piece, ...]], ...] = ()
    in_graph: tuple[int, ...] = ()
    partitioned: bool = False
    crop: tuple[tuple[int, int], ...] = ()


@dataclasses.dataclass(frozen=True)
class FoldPlan:
    """How a static fold (the pad's transpose) lowers.

    ``form``:
      - ``"crop"``: constant mode: undo the exterior pads, skip interior values.
      - ``"zeros"``: nothing reaches the result.
      - ``"one_sum"``: every piece combination of a group padded into place and
        summed: one fused loop.
      - ``"boxes"``: one concatenate of boxes per group (``fold_as_concatenate``).
      - ``"bands"``: a slice plus in-place band updates per group (``fold_axes``).
    ``groups`` lists the axes folded together, in order; ``accumulate`` is the dtype
    the sums run in (float32 for float16 and bfloat16, as XLA's reductions do).
    """

    form: str
    pieces: tuple[tuple[int, tuple[Piece, ...]], ...] = ()
    groups: tuple[tuple[int, ...], ...] = ()
    accumulate: np.dtype | None = None

    def pieces_of(self, axes):
        table = dict(self.pieces)
        return {axis: list(table[axis]) for axis in axes}


@dataclasses.dataclass(frozen=True)
class AxisFold:
    """The dynamic fold of one axis with traced pads: ``form`` is ``"dense"`` (masks
    over every pair), ``"sum"`` (an axis of one element), ``"constant"``, ``"edge"``,
    ``"candidates"`` (a few reads per source), ``"periods"`` (summed period by
    period, then folded as the static period piece) or ``"window"`` (the static
    fold's pieces for a pad of ``window = (lo, hi)``, each read as a window of the
    cotangent at the traced offset: exact for pads equivalent to one in
    ``[lo, hi]``; others take ``full_window``, which holds every pad, under a
    conditional) or ``"translate"`` (constant mode's window: all such axes in one
    gather). ``guarded``: skipped at run time when every pad is 0; ``barrier``:
    materialised before the next axis."""

    d: int
    axis: int
    form: str
    guarded: bool = False
    barrier: bool = False
    window: tuple[int, int] | None = None
    full_window: tuple[int, int] | None = None


@dataclasses.dataclass(frozen=True)
class DynamicFoldPlan:
    static: FoldPlan | None
    axes: tuple[AxisFold, ...]
    accumulate: np.dtype | None = None


def _accumulate_dtype(dtype):
    return np.dtype(jnp.float32) if np.dtype(dtype) in _HALF_FLOATS else None


def _is_static(size) -> bool:
    return isinstance(size, (int, np.integer))


def axis_pieces(fn_name, mode, shape, out_shape, pads_begin, axes):
    """``fold_pieces`` of each axis, with a symbolic axis's failure explained."""
    pieces = {}
    for axis in axes:
        try:
            pieces[axis] = tuple(fold_pieces(mode, shape[axis], pads_begin[axis], out_shape[axis]))
        except SymbolicPadError as error:
            raise ValueError(
                f"{fn_name}: axis {axis} has the symbolic size {shape[axis]}, and {error}; "
                f"add the constraint '{error.constraint}' to jax.export.symbolic_shape, "
                "or give that axis a concrete size."
            ) from None
        except jax.errors.InconclusiveDimensionOperation as error:
            raise ValueError(
                f"{fn_name}: axis {axis} of size {shape[axis]} is symbolic and its pad "
                f"({pads_begin[axis]} before, output size {out_shape[axis]}) cannot be "
                f"planned ({str(error).splitlines()[0]}). Add a constraint on "
                f"{shape[axis]} (such as "
                f"'{shape[axis]} >= {abs(pads_begin[axis]) + 1}') to "
                "jax.export.symbolic_shape, or give that axis a concrete size."
            ) from None
    return pieces


def _padded_axes(shape, out_shape, pads_begin):
    return [a for a in range(len(shape)) if pads_begin[a] or out_shape[a] != shape[a]]


def plan_pad(shape, out_shape, pads_begin, mode, target=Target(), fn_name="jaxpad.pad"):
    """The form of a static pad of an array of ``shape`` into ``out_shape``."""
    if mode == "constant":
        return PadPlan("lax_pad")
    if any(size == 0 for size in out_shape):
        return PadPlan("zeros")
    axes = _padded_axes(shape, out_shape, pads_begin)
    pieces = axis_pieces(fn_name, mode, shape, out_shape, pads_begin, axes)
    symbolic = not all(_is_static(shape[a]) and _is_static(out_shape[a]) for a in axes)
    as_tuple = tuple(pieces.items())
    # The gather's index tables are int32: an axis too long for them takes the
    # concatenate, whose positions are static.
    long_axis = not all(int32_indexes(shape[a], out_shape[a]) for a in axes)
    if symbolic or target.partitioned or target.platform == "cpu" or long_axis:
        # XLA:CPU: jnp.pad's own graph, a concatenate per axis of slices, mirrors and
        # tiled periods, which XLA fuses into what reads it. Written out first (lax.pad
        # or a zero buffer, then the bands in place), a stencil read it 0.35-0.8x
        # jnp.pad, but an elementwise consumer 1.6-3.7x and a reduction 1.2-1.4x: the
        # planner cannot see the consumer, and the concatenate is within noise of
        # jnp.pad in every one (docs/performance.md, "Pads inside larger programs").
        # No gather on XLA:CPU: fused into a stencil it recomputed its indices per
        # read (11-40x lax.pad), and several gathers with equal index tables in one
        # program share the table, which XLA then materialises and reads through a
        # transposing copy (docs/performance.md, "Several pads in one program").
        if symbolic or target.partitioned:
            return PadPlan("concatenate", as_tuple, partitioned=target.partitioned)
        crop, as_tuple = _cropped_to_sources(shape, as_tuple)
        return PadPlan("concatenate", as_tuple, crop=crop)
    in_graph = tuple(a for a in axes if out_shape[a] > _MAX_STATIC_TABLE)
    return PadPlan("gather", as_tuple, in_graph=in_graph)


def _source_range(piece):
    if piece.kind == "period":
        ranges = [_source_range(p) for p in piece.inner]
        return min(lo for lo, _ in ranges), max(hi for _, hi in ranges)
    return piece.src_start, piece.src_stop


def _shifted(piece, offset):
    return dataclasses.replace(
        piece,
        src_start=piece.src_start - offset,
        src_stop=piece.src_stop - offset,
        inner=tuple(_shifted(p, offset) for p in piece.inner),
    )


def _cropped_to_sources(shape, pieces):
    """The range of each axis the pieces read, and the pieces shifted to it.

    Axis by axis, each concatenate spans the later axes whole: a crop of a later
    axis (a negative pad) would otherwise be paid by every earlier axis's pass
    (sweep #37, 14834 of 75922 columns cropped after a pad of rows: 1.3-2.0x
    ``jnp.pad`` of the cropped array; docs/performance.md, "Random configurations:
    the sweep"). So the concatenate slices its operand once to what it reads, as a
    user cropping first would. ``()`` where nothing is cropped.
    """
    crop, shifted = [(0, n) for n in shape], []
    for axis, axis_pieces in pieces:
        ranges = [_source_range(p) for p in axis_pieces]
        lo, hi = min(r[0] for r in ranges), max(r[1] for r in ranges)
        crop[axis] = (lo, hi)
        shifted.append((axis, tuple(_shifted(p, lo) for p in axis_pieces)))
    if crop == [(0, n) for n in shape]:
        return (), pieces
    return tuple(crop), tuple(shifted)


def plan_fold(
    operand_shape, t_shape, pads_begin, pads_end, mode, dtype, target=Target(), fn_name="jaxpad.pad"
):
    """The form of the transpose of a static pad: cotangent ``t_shape`` onto ``operand_shape``."""
    if mode == "constant":
        return FoldPlan("crop")
    if any(size == 0 for size in operand_shape) or any(size == 0 for size in t_shape):
        return FoldPlan("zeros")
    axes = [a for a in range(len(t_shape)) if pads_begin[a] or pads_end[a]]
    pieces = axis_pieces(fn_name, mode, operand_shape, t_shape, pads_begin, axes)
    return _plan_static_fold(pieces, operand_shape, _accumulate_dtype(dtype), target)


def _plan_static_fold(pieces, operand_shape, accumulate, target):
    as_tuple = tuple(pieces.items())
    if not pieces:
        return FoldPlan("one_sum", (), (), accumulate)
    symbolic = not all(_is_static(operand_shape[a]) for a in pieces)
    if symbolic or target.partitioned:
        # One axis at a time, each piece padded into place: slices and pads along a
        # sharded axis partition into collective-permutes, where dynamic_update_slice
        # would gather; with symbolic sizes they need no static box arithmetic.
        groups = tuple((axis,) for axis in pieces)
        return FoldPlan("one_sum", as_tuple, groups, accumulate)
    if target.platform == "cpu" and _fuses_as_one_sum(pieces, operand_shape):
        return FoldPlan("one_sum", as_tuple, (tuple(pieces),), accumulate)
    form, limit, size = "boxes", _MAX_FOLD_BOXES, _box_count
    last = len(operand_shape) - 1
    wide_1d = last == 0 and _band_share(pieces[0]) >= _MIN_BOXED_BAND_SHARE_1D
    if (
        target.platform == "cpu"
        and last in pieces
        and operand_shape[-1] >= _MIN_UPDATED_ROW
        and not wide_1d
        and indexable(operand_shape)
    ):
        form, limit, size = "bands", _MAX_FOLD_COMBINATIONS, _combination_count
    small = (
        form == "boxes"
        and all(map(_is_static, operand_shape))
        and math.prod(operand_shape) < _MIN_BOXES_TOGETHER
    )
    if target.platform == "cpu" and len(pieces) > 1 and small:
        return FoldPlan(
            form, as_tuple, tuple((a,) for a in sorted(pieces, reverse=True)), accumulate
        )
    if target.platform == "cpu" and len(pieces) > 1 and any(map(_reduces, pieces.values())):
        # Long edge runs or many periods (reductions) on one of several axes: one
        # axis at a time, the last first, as jnp.pad's transpose. Folded together,
        # (23, 4, 6955) edge by half of the last axis measured 2.2x jnp.pad's VJP,
        # axis by axis 0.8x (docs/performance.md, "Forms the planner picks").
        groups = tuple((axis,) for axis in sorted(pieces, reverse=True))
        return FoldPlan(form, as_tuple, groups, accumulate)
    groups, group = [], {}
    for axis, axis_pieces_ in sorted(pieces.items(), key=lambda item: -len(item[1])):
        if group and size({**group, axis: axis_pieces_}, operand_shape) > limit:
            groups.append(tuple(group))
            group = {}
        group[axis] = axis_pieces_
    groups.append(tuple(group))
    return FoldPlan(form, as_tuple, tuple(groups), accumulate)


def _reduces(axis_pieces) -> bool:
    """Whether folding one of these pieces takes a reduction (``extract``): an edge
    run (or the odd modes' weighted edge terms) or a pad of periods longer than
    ``_MAX_UNROLLED_SUM``."""
    for piece in axis_pieces:
        if piece.kind in ("sum", "weighted") and piece.stop - piece.start > _MAX_UNROLLED_SUM:
            return True
        if piece.kind == "period":
            reps = -(-(piece.phase + piece.stop - piece.start) // piece.period)
            if reps > _MAX_UNROLLED_SUM:
                return True
    return False


def _band_share(axis_pieces) -> float:
    """The share of one axis's cotangent that folds onto the input from its bands."""
    total = sum(p.stop - p.start for p in axis_pieces)
    return (total - sum(p.stop - p.start for p in axis_pieces if p.direct)) / total


def _fuses_as_one_sum(pieces, shape) -> bool:
    """Whether the fused sum is the fold to take.

    One padded axis with no reduction, either thin (bands at most
    ``_MAX_BAND_SHARE_ONE_AXIS`` of the cotangent), the short last axis, or a short
    slab (the axis and those after it, ``_MAX_SUMMED_SLAB``): the
    fused sum is then jnp.pad's own transpose (each piece padded into place,
    summed), which fuses with what produces the cotangent and what consumes the
    result; in-place bands measured 1.5-1.75x jnp.pad in the heat-equation scan,
    and boxes along a short last axis 1.45-1.9x (docs/performance.md, "Forms the
    planner picks"). Otherwise: only copies and mirrors (edge sums and period folds
    are reductions), few combinations, and unpadded trailing axes of at least
    _MIN_FUSED_ROW elements, so that the fused loop's inner rows are long and run
    without branches."""
    if len(shape) == 1 and _is_static(shape[0]) and shape[0] >= _MIN_UPDATED_ROW:
        # A long 1-D signal: no unpadded row for the fused loop to run along, and it
        # measured 1.2-6x the slice plus band updates alone and up to 4x inside
        # programs (docs/performance.md, "Forms the planner picks", 1-D folds).
        return False
    if len(pieces) == 1:
        ((axis, axis_pieces),) = pieces.items()
        if _reduces(axis_pieces):
            return False
        short_last = axis == len(shape) - 1 and shape[axis] < _MIN_UPDATED_ROW
        if short_last or _band_share(axis_pieces) <= _MAX_BAND_SHARE_ONE_AXIS:
            return True
        slab = math.prod(shape[axis:])
        if axis < len(shape) - 1 and _is_static(slab) and slab < _MAX_SUMMED_SLAB:
            return True
    row = 1
    for axis in reversed(range(len(shape))):
        if axis in pieces:
            break
        row *= shape[axis]
    if not _is_static(row):  # a symbolic (exported) trailing axis: not known to be long
        return False
    return (
        row >= _MIN_FUSED_ROW
        and all(p.kind in ("copy", "reverse") for axis in pieces.values() for p in axis)
        and math.prod(len(axis) for axis in pieces.values()) <= _MAX_FUSED_COMBINATIONS
    )


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


def folds_densely(n: int, size: int) -> bool:
    """Whether a traced-pad axis of ``n`` sources and ``size`` positions is folded by
    masks over every (source, position) pair."""
    return n * size <= _MAX_DENSE_FOLD


def plan_dynamic_fold(operand_shape, t_shape, static_pads, num_batch, mode, dtype, target=Target()):
    """The form of the transpose of ``dynamic_pad``: static axes as the static fold,
    then each traced axis by gathers, short (dense) axes first."""
    active = active_axes(operand_shape, t_shape, static_pads, num_batch)
    static_axes = [(d, axis) for d, axis in active if static_pads[d] is not None]
    accumulate = None if mode == "constant" else _accumulate_dtype(dtype)
    static = None
    if static_axes and mode != "constant":
        pieces = {
            axis: tuple(fold_pieces(mode, operand_shape[axis], static_pads[d], t_shape[axis]))
            for d, axis in static_axes
        }
        static = _plan_static_fold(pieces, operand_shape, None, target)
    dynamic = [(d, axis) for d, axis in active if static_pads[d] is None]
    # Short axes first: their dense fold reads a few neighbours per element, and
    # fused after a gather it would redo the gather for each of them.
    dynamic.sort(key=lambda item: not folds_densely(operand_shape[item[1]], t_shape[item[1]]))
    plans = []
    for position, (d, axis) in enumerate(dynamic):
        n, size = operand_shape[axis], t_shape[axis]
        axis_mode = effective_mode(mode, n)
        if axis_mode != "constant" and n == 1:
            form = "sum"
        elif folds_densely(n, size):
            form = "dense"
        elif (windows := _windows(axis_mode, n, size, target)) is not None:
            form = "translate" if axis_mode == "constant" else "window"
        elif axis_mode in ("constant", "edge"):
            form = axis_mode
        elif -(-size // period(axis_mode, n)) <= _MAX_CANDIDATE_PERIODS:
            form = "candidates"
        else:
            form = "periods"
        # A traced pad that is 0 for every example (a channel axis, say) leaves a
        # short axis as it is: skip its fold at run time. On longer axes a
        # conditional costs more than it saves.
        guarded = n == size and folds_densely(n, size)
        # Fused into the next axis's gathers, this axis's gathers would be redone
        # for each of that axis's reads; materialising is cheaper
        # (docs/performance.md, "dynamic_pad").
        barrier = not guarded and position + 1 < len(dynamic)
        window, full = windows if form == "window" else (None, None)
        plans.append(AxisFold(d, axis, form, guarded, barrier, window, full))
    return DynamicFoldPlan(static, tuple(plans), accumulate)


def _windows(mode, n, size, target):
    """``(window, full_window)`` of the "window" form of one axis, or None where the
    planner keeps the gathers: off CPU, on symbolic sizes, in wrap mode (one read
    per source already: the gathers measured faster), and where a window's static
    fold has a period piece (outputs spanning periods). Constant mode has one piece
    (``"translate"``), whose window holds every pad."""
    if target.platform != "cpu" or target.partitioned or mode == "wrap":
        return None
    if not (_is_static(n) and _is_static(size)) or n == 0:
        return None
    if not int32_indexes(n, size):
        # Its static pieces span a share of the axis: on an axis this long they would
        # be planned element by element; the gathers need no such table.
        return None
    if mode == "constant":
        return (-n, size), (-n, size)
    # Pads in [min(0, size - n), max(0, size - n)] place the output inside the axis
    # or the axis inside the output; the reach extends that range on both sides.
    reach = max(1, math.ceil(n * _WINDOW_REACH_SHARE))
    window = (min(0, size - n) - reach, max(0, size - n) + reach)
    if mode == "edge":
        # Normalized edge pads lie in [-n, size].
        full = (min(window[0], -n), max(window[1], size))
    else:
        p = period(mode, n)
        width = window[1] - window[0] + 1
        if width >= p:
            window = full = (window[0], window[0] + p - 1)
        else:
            lo = window[0] - (p - width) // 2
            full = (lo, lo + p - 1)
    for lo, hi in {window, full}:
        if any(piece.kind == "period" for piece in fold_pieces(mode, n, hi, size + hi - lo)):
            return None
    return window, full


# Registration ---------------------------------------------------------------------


def register_lowering(prim, lowering, *, per_platform=True, auto_axes=True):
    """Registers ``lowering`` (a function of the operands and params) as ``prim``'s
    lowering through ``mlir.lower_fun``.

    With ``per_platform`` the lowering also receives ``target=Target(...)``: one rule
    for CPU and one for every other platform. ``auto_axes`` runs it with a mesh's
    Explicit axes switched to Auto (``_sharding.with_auto_axes``).
    """

    def rule(ctx, *args, platform=None, **params):
        fn = lowering
        if per_platform:
            fn = partial(lowering, target=Target(platform, is_partitioned(ctx)))
        if auto_axes:
            fn = with_auto_axes(fn, ctx)
        return mlir.lower_fun(fn, multiple_results=False)(ctx, *args, **params)

    mlir.register_lowering(prim, rule)
    if per_platform:
        mlir.register_lowering(prim, partial(rule, platform="cpu"), platform="cpu")


# Static pad -----------------------------------------------------------------------


def pad_lowering(x, pad_value, *, pads_begin, pads_end, interior, mode, target):
    if is_sided(mode):
        out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, x.shape, pads_end))
        return build_sided_pad(x, pad_value, out_shape, pads_begin, mode, target)
    if mode == "constant":
        return lax.pad(x, pad_value, list(zip(pads_begin, pads_end, interior)))
    # Interior padding needs mode="constant" (the shape rule checks it).
    out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, x.shape, pads_end))
    plan = plan_pad(x.shape, out_shape, pads_begin, mode, target)
    return build_pad(plan, x, out_shape, pads_begin, mode)


def build_pad(plan: PadPlan, x, out_shape, pads_begin, mode):
    """The forward graph of ``plan`` (any form but ``"lax_pad"``)."""
    if plan.form == "zeros":
        return jnp.zeros(out_shape, x.dtype)
    if plan.form == "gather":
        return gather_padded(x, out_shape, pads_begin, mode, in_graph=plan.in_graph)
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


# Static fold ----------------------------------------------------------------------


def fold_lowering(t, *, pads_begin, pads_end, interior, mode, operand_shape, target):
    if is_sided(mode):
        return build_sided_fold(t, operand_shape, pads_begin, mode, target)
    plan = plan_fold(operand_shape, t.shape, pads_begin, pads_end, mode, t.dtype, target)
    if plan.form == "crop":
        # Undo the exterior padding, then skip the interior pad values.
        unpadded = lax.pad(
            t, np.zeros((), t.dtype), [(-lo, -hi, 0) for lo, hi in zip(pads_begin, pads_end)]
        )
        return lax.slice(unpadded, (0,) * t.ndim, unpadded.shape, tuple(r + 1 for r in interior))
    return build_fold(plan, t, operand_shape)


def build_fold(plan: FoldPlan, t, operand_shape):
    """The fold graph of ``plan`` (any form but ``"crop"``)."""
    if plan.form == "zeros":
        return jnp.zeros(operand_shape, t.dtype)
    dtype = t.dtype
    if plan.accumulate is not None:
        t = t.astype(plan.accumulate)
    fold = {"one_sum": fold_as_one_sum, "boxes": fold_as_concatenate, "bands": fold_axes}
    for group in plan.groups:
        t = fold[plan.form](t, plan.pieces_of(group), operand_shape)
    return t.astype(dtype)


def extract(piece: Piece, t, axis: int):
    """The cotangent ``t``'s contribution to ``[src_start, src_stop)`` along ``axis``."""
    part = lax.slice_in_dim(t, piece.start, piece.stop, axis=axis)
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


def fold_as_one_sum(t, pieces, operand_shape):
    """The fold as one fused sum: every combination of per-axis pieces, padded into
    place. XLA emits a single loop over the result, split across threads, where
    fold_axes writes its bands with single-threaded in-place updates."""
    axes = list(pieces)
    total = None
    for combination in itertools.product(*(pieces[axis] for axis in axes)):
        part = _placed(t, axes, combination, operand_shape)
        total = part if total is None else total + part
    return total if total is not None else t


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
            part = extract(piece, part, axis)
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
        t = extract(piece, t, axis)
        config[axis] = (piece.src_start, operand_shape[axis] - piece.src_stop, 0)
    return lax.pad(t, np.zeros((), t.dtype), config)


# Dynamic pad ----------------------------------------------------------------------


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


def active_axes(x_shape, shape, static_pads, num_batch):
    """The non-batch axes that pad, leaving out those with a static 0 and no resize."""
    return [
        (d, num_batch + d)
        for d, pad in enumerate(static_pads)
        if not (pad == 0 and shape[num_batch + d] == x_shape[num_batch + d])
    ]


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


# Per-side modes -------------------------------------------------------------------
# ``mode`` is a tuple with one (begin, end) pair per axis when the sides of an axis
# differ or use an arithmetic mode (odd reflections, dirichlet). A per-side pad is
# ``L(x) + V(values)``, both linear with static coefficients. ``L`` pads the axes one
# after the other, as numpy does, each a concatenate of the pieces of its two sides'
# base modes (``fill`` for a constant side: zeros), then ``sign * base + first * x[0]
# + last * x[n - 1]`` on the arithmetic sides. ``V`` is a sum of separable terms
# (``value_term``). Every term is computed only where its coefficient is not zero
# (``scaled_along``): an element a position does not read cannot turn it into nan
# (``0 * inf``), so an inf or nan in ``x``, the values or the cotangent reaches
# exactly the positions whose net coefficient on it is not zero (docs/semantics.md,
# "Infinities and nan"). The fold runs the base pieces, each scaled by its net sign,
# plus the reductions of the edge terms (``"weighted"`` pieces). This section is the
# only place the per-side formula is written: ``_sides`` parses and composes.


def is_sided(mode) -> bool:
    return not isinstance(mode, str)


def _base_pair(modes):
    return (base_mode(modes[0]), base_mode(modes[1]))


def _sided_axes(shape, out_shape, pads_begin, mode, fn_name):
    """The padded axes, each with its static size; symbolic ones are refused."""
    axes = _padded_axes(shape, out_shape, pads_begin)
    for axis in axes:
        if not (_is_static(shape[axis]) and _is_static(out_shape[axis])):
            raise ValueError(
                f"{fn_name}: axis {axis} has the symbolic size {shape[axis]} and per-side "
                f"mode {mode[axis]}; per-side and odd modes need a concrete size on every "
                "padded axis. Give that axis a concrete size, or one mode for every side."
            )
    return axes


def axis_vector(values, ndim, axis, dtype):
    shape = [1] * ndim
    shape[axis] = len(values)
    return np.asarray(values).astype(dtype).reshape(shape)


def scaled_along(y, coefficients, axis, ndim=None, dtype=None):
    """``y * coefficients`` along ``axis``, 0 wherever a coefficient is 0 (whatever
    ``y`` holds there: ``0 * inf`` would be nan); None where every coefficient is 0.

    ``coefficients`` is a static vector (NumPy, only the terms that exist are built)
    or a traced one (``dynamic_sided_pad``). ``y`` is of size 1 or
    ``len(coefficients)`` along ``axis``, or a scalar (then ``ndim`` says the rank of
    the result); the result broadcasts to that length."""
    y = jnp.asarray(y)
    dtype = y.dtype if dtype is None else dtype
    ndim = y.ndim if ndim is None else ndim
    shape = [1] * ndim
    shape[axis] = -1
    if isinstance(coefficients, jax.Array):
        # A half float holds neither a traced coefficient's range (neumann's 2k - 1
        # passes 65504 some 32768 cells out) nor, then, its product: float32 first.
        wide = np.dtype(np.float32) if np.dtype(dtype) in _HALF_FLOATS else dtype
        vector = coefficients.astype(wide).reshape(shape)
        product = (y.astype(wide) * vector).astype(dtype)
        return jnp.where(vector != 0, product, jnp.zeros((), dtype))
    coefficients = np.asarray(coefficients)
    if not coefficients.any():
        return None
    if np.all(coefficients == 1) and y.ndim == ndim and y.shape[axis] == len(coefficients):
        return y
    if np.dtype(dtype) in _HALF_FLOATS and np.abs(coefficients).max() > jnp.finfo(dtype).max:
        wide = coefficients.astype(np.float32).reshape(shape)
        product = (y.astype(np.float32) * wide).astype(dtype)
    else:
        product = y * coefficients.astype(dtype).reshape(shape)
    if coefficients.all():
        return product
    return lax.select(
        jnp.broadcast_to((coefficients != 0).reshape(shape), product.shape),
        product,
        jnp.zeros(product.shape, product.dtype),
    )


def _plus(total, term):
    return term if total is None else total if term is None else total + term


def sided_terms(base, y, coefficients, axis, n):
    """``sign * base + first * y[0] + last * y[n - 1]`` along ``axis``, with
    ``coefficients`` of the positions ``base`` holds (the base modes' reads) and ``y``
    the array padded (its edges).
    Each term only where its coefficient is not zero; zeros where none is."""
    total = scaled_along(base, coefficients.sign, axis)
    for coefficient, index in ((coefficients.first, 0), (coefficients.last, n - 1)):
        edge = lax.slice_in_dim(y, index, index + 1, axis=axis)
        total = _plus(total, scaled_along(edge, coefficient, axis))
    if total is None:
        return jnp.zeros(base.shape, base.dtype)
    return jnp.broadcast_to(total, base.shape)


def side_regions(n, size, lo):
    """The output ranges ``(start, stop)`` of an axis of ``n`` elements padded to
    ``size`` by ``lo`` before: begin side, copy of ``x``, end side (possibly empty).
    Coefficients are computed on the sides only, never over the whole axis."""
    first = min(max(lo, 0), size)
    stop = min(max(lo + n, first), size)
    return (0, first), (first, stop), (stop, size)


def whole_axis_coefficients(modes, n, size, lo):
    """``side_coefficients`` of every output position of an axis and the mask of its
    begin side, for the elementwise compositions (``_sides``): NumPy vectors, or on an
    axis too long for that (``int32_indexes``) the sides' coefficients around a
    broadcast copy, built in the program."""
    if int32_indexes(n, size):
        offsets = np.arange(size) - lo
        return side_coefficients(modes, n, offsets), offsets < 0
    (b0, b1), (c0, c1), (e0, e1) = side_regions(n, size, lo)
    begin = side_coefficients(modes, n, np.arange(b0, b1) - lo)
    end = side_coefficients(modes, n, np.arange(e0, e1) - lo)

    def whole(name, copy):
        middle = jnp.full((c1 - c0,), copy, np.int32)  # a broadcast in the program
        parts = (jnp.asarray(getattr(begin, name), np.int32), middle)
        return jnp.concatenate(parts + (jnp.asarray(getattr(end, name), np.int32),))

    mask = jnp.concatenate([jnp.ones((b1 - b0,), bool), jnp.zeros((size - b1,), bool)])
    coefficients = SideCoefficients(
        whole("sign", 1), whole("first", 0), whole("last", 0), whole("value", 0)
    )
    return coefficients, mask


def _coefficient_runs(modes, n, size, lo, box, pick):
    """A piecewise coefficient along one axis over ``box``: ``(length, c)`` runs, ``c``
    a vector on a side (``pick(side, coefficients)``) or a scalar on the copy."""
    segments = []
    for side, (start, stop) in enumerate(side_regions(n, size, lo)):
        start, stop = max(start, box[0]), min(stop, box[1])
        if stop <= start:
            continue
        if side == 1:
            segments.append((stop - start, pick(side, None)))
        else:
            offsets = np.arange(start, stop) - lo
            segments.append((stop - start, pick(side, side_coefficients(modes, n, offsets))))
    return segments


def _along(y, axis, length, ndim):
    """``y`` (size 1 along ``axis``, or of lower rank) broadcast to ``length`` there."""
    y = jnp.asarray(y)
    y = y.reshape((1,) * (ndim - y.ndim) + y.shape)
    shape = list(y.shape)
    shape[axis] = length
    return jnp.broadcast_to(y, shape)


def scaled_runs(y, segments, axis, ndim):
    """``y`` (size 1 along ``axis``) times a piecewise coefficient (``_coefficient_runs``)
    along ``axis``, each run only where its coefficient is not zero; None where all
    are 0. No vector as long as the axis is built: the copy is one broadcast."""
    if all(np.ndim(c) == 0 and c == 0 for _, c in segments):
        return None
    if all(np.ndim(c) == 0 and c == 1 for _, c in segments):
        return y
    y = jnp.asarray(y)
    y = y.reshape((1,) * (ndim - y.ndim) + y.shape)
    parts = []
    for length, c in segments:
        part = scaled_along(y, c, axis, ndim) if np.ndim(c) else None if c == 0 else y * c
        if part is None:
            part = jnp.zeros_like(y)
        parts.append(_along(part, axis, length, ndim))
    return lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]


def value_runs(modes, n, size, lo, side):
    """Side ``side``'s value coefficients along its axis (``_coefficient_runs``)."""
    return _coefficient_runs(
        modes, n, size, lo, (0, size), lambda region, c: c.value if region == 2 * side else 0
    )


def value_term(values, modes, x_shape, out_shape, pads_begin, box=None):
    """``V(values)``: what the side values add to ``L(x)``, over ``box`` (one
    ``(start, stop)`` range of output positions per axis; the whole output by
    default), or None where no value reaches it.

    The value of side ``s`` of axis ``k`` lands on that side's region of axis ``k``
    (times 1 for ``constant``, 2 for ``dirichlet``), spread over the whole extent of
    the axes padded before ``k`` and carried through the axes padded after it by
    what they make of a constant (``row_sum``: 1 where they copy or mirror, 0 on a
    constant side, -1 on a dirichlet side). Each factor only where it is not zero."""
    ndim = len(x_shape)
    dtype = values.dtype
    compute = np.dtype(np.int32) if dtype == np.bool_ else dtype
    box = tuple((0, size) for size in out_shape) if box is None else tuple(box)
    # Unpadded axes (possibly of symbolic size) neither hold a value nor carry one.
    padded = [a for a in range(ndim) if pads_begin[a] or out_shape[a] != x_shape[a]]

    def segments(axis, pick):
        return _coefficient_runs(
            modes[axis], x_shape[axis], out_shape[axis], pads_begin[axis], box[axis], pick
        )

    carried = {
        axis: segments(axis, lambda side, c: 1 if c is None else c.row_sum()) for axis in padded
    }
    total = None
    for axis in padded:
        for side in (0, 1):
            weights = segments(
                axis, lambda region, c, side=side: c.value if region == 2 * side else 0
            )
            term = values[axis, side].astype(compute).reshape((1,) * ndim)
            term = scaled_runs(term, weights, axis, ndim)
            for later in (a for a in padded if a > axis):
                if term is not None:
                    term = scaled_runs(term, carried[later], later, ndim)
            total = _plus(total, term)
    if total is None:
        return None
    return jnp.broadcast_to(total, tuple(hi - lo for lo, hi in box))


def add_values(padded: jax.Array, term) -> jax.Array:
    if term is None:
        return padded
    if padded.dtype == np.bool_:
        return (padded.astype(term.dtype) + term).astype(np.bool_)
    return padded + term


def build_sided_pad(x, values, out_shape, pads_begin, mode, target=Target(), fn_name="jaxpad.pad"):
    """The forward of a per-side pad (``mode`` a tuple of pairs; ``values`` the
    ``(ndim, 2)`` side values).

    ``lax.pad`` places ``x`` (one copy, as constant mode), then each side's band is
    written in place, computed from ``x`` alone: along the axes before its own, the
    band spans their copy of ``x``; along the axes after it, the whole output (the
    band padded along them by ``_sided_blocks``), so that the corners follow the
    axes' order; the values' term over the band's box is added to it. A concatenate
    per axis would write each intermediate out (2x constant ``lax.pad`` at
    1024x1024, docs/modes.md). Programs partitioned over several devices and axes
    too long for an index (``plan_sided_pad``) take the concatenates
    (``_sided_blocks``) instead.
    """
    if any(size == 0 for size in out_shape):
        return jnp.zeros(out_shape, x.dtype)
    axes = tuple(_sided_axes(x.shape, out_shape, pads_begin, mode, fn_name))
    if plan_sided_pad(x.shape, out_shape, target) == "blocks":
        # Slices and concatenates along a sharded axis partition into halo exchanges;
        # in-place updates there would gather the operand.
        padded = _sided_blocks(x, axes, out_shape, pads_begin, mode)
        return add_values(padded, value_term(values, mode, x.shape, out_shape, pads_begin))
    config = [(0, 0, 0)] * x.ndim
    for axis in axes:
        config[axis] = (pads_begin[axis], out_shape[axis] - x.shape[axis] - pads_begin[axis], 0)
    out = lax.pad(x, np.zeros((), x.dtype), config)
    for k, axis in enumerate(axes):
        band_source, box = x, [(0, size) for size in out_shape]
        for earlier in axes[:k]:
            lo, hi = _copied_positions(x.shape[earlier], out_shape[earlier], pads_begin[earlier])
            if hi <= lo:
                band_source = None
                break
            band_source = lax.slice_in_dim(
                band_source, lo - pads_begin[earlier], hi - pads_begin[earlier], axis=earlier
            )
            box[earlier] = (lo, hi)
        if band_source is None:  # an earlier axis keeps no element of x: no band here
            continue
        n, size, lo = x.shape[axis], out_shape[axis], pads_begin[axis]
        pieces = sorted(
            fold_pieces(_base_pair(mode[axis]), n, lo, size, fill=True), key=lambda p: p.start
        )
        begin, _, end = side_regions(n, size, lo)
        for start, stop in (begin, end):
            if stop <= start:
                continue
            band = _sided_band(band_source, axis, n, lo, pieces, mode[axis], start, stop)
            band = _sided_blocks(band, axes[k + 1 :], out_shape, pads_begin, mode)
            box[axis] = (start, stop)
            band = add_values(band, value_term(values, mode, x.shape, out_shape, pads_begin, box))
            out = lax.dynamic_update_slice(out, band, [lo for lo, _ in box])
    return out


def plan_sided_pad(shape, out_shape, target=Target()) -> str:
    """``"bands"`` (in place) or ``"blocks"`` (concatenates), for a per-side pad."""
    if target.partitioned or not indexable(shape, out_shape):
        return "blocks"
    return "bands"


def _copied_positions(n, size, lo):
    """The output positions ``[start, stop)`` of an axis that copy ``x``."""
    return min(max(lo, 0), size), max(min(lo + n, size), 0)


def _sided_blocks(y, axes, out_shape, pads_begin, mode):
    """``L(y)`` along ``axes`` in order: each axis one concatenate of its begin band,
    its copy of ``y`` and its end band."""
    for axis in axes:
        n, size, lo = y.shape[axis], out_shape[axis], pads_begin[axis]
        pieces = sorted(
            fold_pieces(_base_pair(mode[axis]), n, lo, size, fill=True), key=lambda p: p.start
        )
        blocks = []
        for side, (start, stop) in enumerate(side_regions(n, size, lo)):
            if stop <= start:
                continue
            if side == 1:
                blocks.append(lax.slice_in_dim(y, start - lo, stop - lo, axis=axis))
            else:
                blocks.append(_sided_band(y, axis, n, lo, pieces, mode[axis], start, stop))
        y = lax.concatenate(blocks, axis) if len(blocks) > 1 else blocks[0]
    return y


def _sided_band(y, axis, n, lo, pieces, modes, start, stop):
    """``L`` at output positions ``[start, stop)`` of one side of ``axis``."""
    coefficients = side_coefficients(modes, n, np.arange(start, stop) - lo)
    if not coefficients.sign.any():  # a constant side: its value only
        band_shape = list(y.shape)
        band_shape[axis] = stop - start
        return jnp.zeros(band_shape, y.dtype)
    parts = [piece_values(y, piece, axis) for piece in pieces if start <= piece.start < stop]
    band = lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]
    return sided_terms(band, y, coefficients, axis, n)


def plan_sided_fold(operand_shape, t_shape, pads_begin, mode, dtype, target=Target()):
    """The fold of a per-side pad as the static fold's plan: the base modes' pieces,
    each scaled by the net sign of the positions it reads, plus ``"weighted"`` pieces
    for the edge terms."""
    pieces = {}
    for axis in _sided_axes(operand_shape, t_shape, pads_begin, mode, "jaxpad.pad"):
        n, size, lo = operand_shape[axis], t_shape[axis], pads_begin[axis]
        axis_pieces = [
            _scaled_piece(piece, mode[axis], n, lo)
            for piece in fold_pieces(_base_pair(mode[axis]), n, lo, size)
        ]
        begin, _, end = side_regions(n, size, lo)
        for start, stop in (begin, end):
            if stop <= start:
                continue
            coefficients = side_coefficients(mode[axis], n, np.arange(start, stop) - lo)
            for coefficient, index in ((coefficients.first, 0), (coefficients.last, n - 1)):
                if coefficient.any():
                    weights = tuple(int(w) for w in coefficient)
                    axis_pieces.append(
                        Piece(index, index + 1, start, stop, "weighted", weights=weights)
                    )
        pieces[axis] = tuple(axis_pieces)
    empty = any(size == 0 for size in operand_shape) or any(size == 0 for size in t_shape)
    if empty or not all(pieces.values()):  # an axis whose output reads no element of x
        return FoldPlan("zeros")
    return _plan_static_fold(pieces, operand_shape, _accumulate_dtype(dtype), target)


def _scaled_piece(piece, modes, n, lo):
    if lo <= piece.start and piece.stop <= lo + n:  # the copy: sign 1
        return piece
    scale = side_coefficients(modes, n, np.arange(piece.start, piece.stop) - lo).sign
    if np.all(scale == 1):
        return piece
    return dataclasses.replace(piece, scale=tuple(int(s) for s in scale))


def build_sided_fold(t, operand_shape, pads_begin, mode, target):
    plan = plan_sided_fold(operand_shape, t.shape, pads_begin, mode, t.dtype, target)
    if plan.form == "zeros":
        return jnp.zeros(operand_shape, t.dtype)
    return build_fold(plan, t, operand_shape)
