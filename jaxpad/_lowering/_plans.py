"""The planners: which form each pad and fold lowers to, decided from static shapes,
pads and the ``Target`` before any op is built.

Also the tuning constants (each names the table in docs/performance.md that set it)
and the index-width rules: XLA's index operands (band updates' starts, gather indices)
are int32 in these forms, so an axis too long for them takes forms whose positions
are static, or int64 indices.
"""

from __future__ import annotations

import dataclasses
import math

import jax.numpy as jnp
import numpy as np

from jaxpad._checks import is_static
from jaxpad._compat import InconclusiveDimensionOperation
from jaxpad._index_maps import (
    MODES,
    Piece,
    SymbolicPadError,
    base_mode,
    effective_mode,
    fold_pieces,
    period,
    side_coefficients,
)

# Tuning constants. Each names the table in docs/performance.md that set it.

# Index tables up to this many entries per axis are baked into the program as
# constants; longer axes compute theirs in-graph so the executable stays small
# (docs/performance.md, "How it lowers", tuning constants: executable size). Only
# the gather forward has tables, which the planner takes only where a target asks
# for it (``Target.gather_forward``).
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

# A wrap pad that crops the start of an axis and pads its end pads then crops where
# the axes after it hold at most this many elements: the concatenate of the two
# slices was slower up to rows of 24-32 float32 and faster from 64
# (docs/performance.md, "Random configurations: the sweep", crop then pad on one
# axis).
_MAX_CROP_AFTER_ROW = 32

# A 1-D array at least this long, padded by at most 1/_MIN_LIFTED_SHARE of it in
# all, is padded as a (1, n) array on XLA:CPU (``lifted``): the concatenate of a
# rank-1 array ran 2-60x the constant pad of the same shape (2**20-2**22 float32,
# pads of 4-1024: 20-60x reflect, 12-43x wrap, 1.5-2x edge), the same concatenate
# with a leading unit axis 0.4-1.4x, and 0.05-0.5x jnp.pad's time inside programs
# too (an elementwise consumer, a stencil, a sum). At 16,384 samples the lift read
# 1.05-1.15x the rank-1 program, at 65,536 0.35-0.9x. With a crop, pads spanning
# periods (1.2-2.7x) or pads of half the axis (2.1-2.3x, where the rank-1 program
# was fast) it lost; one-sided pads of a fifth of the axis read 0.03-1.0x
# (docs/performance.md, "1-D signals").
_MIN_LIFTED_SIGNAL = 1 << 16
_MIN_LIFTED_SHARE = 8

# One padded axis (no reduction) that is not the last, where it and the axes after it
# hold fewer elements than this per leading index, is the fused sum: boxes along it
# are runs of a few elements, which the fused sum reads in one pass; the two forms
# were even at slabs of 256 elements (docs/performance.md, "Forms the planner
# picks", one short slab).
_MAX_SUMMED_SLAB = 256

# The last axis padded alone, at least this long, with thin bands, folds by band
# updates (as a long 1-D signal does), not the fused sum: over (1..64, 2**16..2**22)
# float32 padded by 64-1024 the bands read 0.02-0.7x jnp.pad's VJP materialized and
# 0.5-1.04x the fused sum inside programs (an elementwise consumer, a stencil), where
# the fused sum read 0.54-1.26x jnp.pad's VJP and up to 32x the constant VJP; at rows
# of 4096 the two were within 0.7-1.17x of each other either way (docs/performance.md,
# "1-D signals").
_MIN_BANDED_LAST_AXIS = 1 << 16

# The last axis, padded alone, with bands at least this share of the cotangent is the
# fused sum: at half, band updates measured 0.9-1.7x jnp.pad's VJP and the fused sum
# 0.5-1.1x over rows of 128-50,000; at 30% the bands won for reflect and lost for
# wrap (docs/performance.md, "Forms the planner picks", wide bands on the last axis).
_MIN_SUMMED_BAND_SHARE_LAST = 2 / 5

# A 1-D fold whose bands are at least this share of the cotangent is the concatenate
# of boxes: band updates run on one thread, the concatenate on all, so wide bands
# favour the boxes and narrow ones the bands; the two were even near 30% (the
# crossover in docs/performance.md, "Forms the planner picks", 1-D folds with wide
# bands).
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

# A multi-group fold of a half float whose operand holds at most this many elements
# is held in float32 between its groups, so that it rounds once; larger ones round
# each group's sums once, which holds no float32 copy of the cotangent (a 2**20
# bfloat16 signal's wrap fold held one of 4 MiB where jnp.pad's transpose holds none;
# docs/performance.md, "Memory"). jnp.pad's transpose rounds at every add.
_MAX_ROUNDED_ONCE = 1 << 14

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
    if not (is_static(n) and is_static(size)):
        return True
    return size + 4 * n <= _MAX_INT32


def indexable(*shapes) -> bool:
    """Whether every axis of ``shapes`` is short enough for an int32 start index
    (``dynamic_update_slice`` clamps its starts against the axis length in the
    index's type): the band updates are taken only then."""
    return all(not is_static(size) or size <= _MAX_INT32 for shape in shapes for size in shape)


def index_dtype(n, size) -> np.dtype:
    """The integer type of traced index arithmetic on one axis: int32 where it holds
    ``int32_indexes``, else int64 (the front ends refuse such an axis with traced
    pads when 64-bit types are off)."""
    return np.dtype(np.int32) if int32_indexes(n, size) else np.dtype(np.int64)


@dataclasses.dataclass(frozen=True)
class Target:
    """What the planner may know of the program being lowered.

    ``platform``: ``"cpu"``, or None for any other platform. ``partitioned``: XLA
    partitions the program over several devices. ``devices_known``: those devices are
    known at lowering time (the planned exchange of ``_sharded_pad`` needs them; an
    exported program's are not). ``gather_forward``: the forward may be one gather
    through index tables instead of ``jnp.pad``'s concatenate, on a platform whose
    measurements chose it (``_platform._GATHER_FORWARD_PLATFORMS``). Set from the
    lowering context by ``_platform.target_of`` alone.
    """

    platform: str | None = "cpu"
    partitioned: bool = False
    devices_known: bool = False
    gather_forward: bool = False


@dataclasses.dataclass(frozen=True)
class PadPlan:
    """How a static pad lowers.

    ``form``:
      - ``"lax_pad"``: constant mode, ``lax.pad``.
      - ``"zeros"``: an empty output.
      - ``"gather"``: one gather through per-axis index tables, where the target
        asks for it (``Target.gather_forward``); ``in_graph`` names the axes
        whose table is computed in the program (longer than ``_MAX_STATIC_TABLE``).
      - ``"concatenate"``: axis by axis, a concatenate of the slices each output
        range reads (pads spanning periods tile one period): ``jnp.pad``'s own graph.
    ``partitioned``: edge bands of the concatenate are padded into place and
    summed, which the SPMD partitioner moves as halos.
    ``crop``: the concatenate first slices its operand to these ``(start, stop)``
    ranges, the only part its pieces (given relative to them) read.
    ``crop_after``: the pieces pad the whole operand (the positive pads alone); the
    result is then sliced to these ``(start, stop)`` ranges (``_wrap_crop_after``).
    ``lifted``: a 1-D operand is padded as a ``(1, n)`` array, the plan's pieces are
    its axis 1's (``_lifts``).
    ``bits``: the elements are moved as this unsigned type (``bits_dtype``): the
    operand is bitcast to it and the result back.
    """

    form: str
    pieces: tuple[tuple[int, tuple[Piece, ...]], ...] = ()
    in_graph: tuple[int, ...] = ()
    partitioned: bool = False
    crop: tuple[tuple[int, int], ...] = ()
    crop_after: tuple[tuple[int, int], ...] = ()
    lifted: bool = False
    bits: np.dtype | None = None


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
    the sums run in (float32 for float16 and bfloat16, as XLA's reductions do): each
    element's contributions are converted, summed and rounded once per group, and
    what is only copied (the interior) stays in its dtype, so no float32 copy of the
    cotangent is held. ``round_once``: the whole fold, every group, runs in
    ``accumulate`` (small multi-group folds, ``_MAX_ROUNDED_ONCE``). ``bits``: what
    is only moved is moved as this unsigned type (``bits_dtype``), as in the pad.
    """

    form: str
    pieces: tuple[tuple[int, tuple[Piece, ...]], ...] = ()
    groups: tuple[tuple[int, ...], ...] = ()
    accumulate: np.dtype | None = None
    round_once: bool = False
    bits: np.dtype | None = None

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


def bits_dtype(dtype, target=Target()):
    """The unsigned integer type a pad's forward (and what a fold only copies) moves
    ``dtype``'s elements as, or None: on XLA:CPU, floats that are neither float16 nor
    32/64-bit (bfloat16, the float8 types). XLA:CPU converts an unfused concatenate
    of those to float32 and back, holding the float32 operand and result: a 2**28
    bfloat16 signal padded by (5, 6) held a 2 GiB temporary where jnp.pad's rank-1
    concatenate held none. The forward only moves elements, so their bits padded as
    integers are the same pad (docs/performance.md, "Memory")."""
    dtype = np.dtype(dtype)
    if target.platform != "cpu" or not jnp.issubdtype(dtype, jnp.floating):
        return None
    if dtype == np.float16 or dtype.itemsize > 2 or jnp.finfo(dtype).bits != 8 * dtype.itemsize:
        return None  # (float4 types: 4 bits in a byte, no integer of their width)
    return np.dtype(f"uint{8 * dtype.itemsize}")


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
        except InconclusiveDimensionOperation as error:
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


def plan_pad(shape, out_shape, pads_begin, mode, target=Target(), fn_name="jaxpad.pad", dtype=None):
    """The form of a static pad of an array of ``shape`` (of ``dtype``; None: one
    that XLA moves as it is) into ``out_shape``."""
    if mode == "constant":
        return PadPlan("lax_pad")
    if any(size == 0 for size in out_shape):
        return PadPlan("zeros")
    bits = None if dtype is None else bits_dtype(dtype, target)
    if bits is None:
        return _plan_pad(shape, out_shape, pads_begin, mode, target, fn_name)
    if len(shape) == 1:
        # A rank-1 concatenate of bfloat16 (jnp.pad's form) holds no float32 copy and
        # ran at jnp.pad's speed, its bits 2.3-4.5x slower; lifted to (1, n) it held
        # float32 copies of the signal and its pad and ran 4-15x slower
        # (docs/performance.md, "Memory").
        return _plan_pad(shape, out_shape, pads_begin, mode, target, fn_name, lift=False)
    # Moved as bits, (64, 65536) bfloat16 padded on the last axis ran 0.14x jnp.pad's
    # time and (16, 64, 64, 64) padded on two axes 0.43x, holding half its temporaries.
    plan = _plan_pad(shape, out_shape, pads_begin, mode, target, fn_name)
    return dataclasses.replace(plan, bits=bits)


def _plan_pad(shape, out_shape, pads_begin, mode, target, fn_name, lift=True):
    axes = _padded_axes(shape, out_shape, pads_begin)
    pieces = axis_pieces(fn_name, mode, shape, out_shape, pads_begin, axes)
    symbolic = not all(is_static(shape[a]) and is_static(out_shape[a]) for a in axes)
    as_tuple = tuple(pieces.items())
    # The gather's index tables are int32: an axis too long for them takes the
    # concatenate, whose positions are static.
    long_axis = not all(int32_indexes(shape[a], out_shape[a]) for a in axes)
    if symbolic or target.partitioned:
        return PadPlan("concatenate", as_tuple, partitioned=target.partitioned)
    if not target.gather_forward or long_axis:
        # jnp.pad's own graph, a concatenate per axis of slices, mirrors and tiled
        # periods, on every platform until a measurement there says otherwise
        # (``gather_forward``): it is what XLA's backends are tuned for and what every
        # JAX user runs. On XLA:CPU it is the measured choice: written out first
        # (lax.pad or a zero buffer, then the bands in place), a stencil read it
        # 0.35-0.8x jnp.pad, but an elementwise consumer 1.6-3.7x and a reduction
        # 1.2-1.4x: the planner cannot see the consumer, and the concatenate is
        # within noise of jnp.pad in every one (docs/performance.md, "Pads inside
        # larger programs"). The gather lost there: fused into a stencil it recomputed
        # its indices per read (11-40x lax.pad), and several gathers with equal index
        # tables in one program share the table, which XLA then materialises and
        # reads through a transposing copy (docs/performance.md, "Several pads in one
        # program"); that sharing is XLA's CSE, which runs on every platform.
        if lift and target.platform == "cpu" and _lifts(shape, out_shape, pads_begin, pieces):
            plan = plan_pad((1, *shape), (1, *out_shape), (0, *pads_begin), mode, target, fn_name)
            return dataclasses.replace(plan, lifted=True)
        if target.platform == "cpu" and _wrap_crop_after(shape, out_shape, pads_begin, mode):
            return _padded_then_cropped(fn_name, mode, shape, out_shape, pads_begin)
        crop, as_tuple = _cropped_to_sources(shape, as_tuple)
        return PadPlan("concatenate", as_tuple, crop=crop)
    in_graph = tuple(a for a in axes if out_shape[a] > _MAX_STATIC_TABLE)
    return PadPlan("gather", as_tuple, in_graph=in_graph)


def _lifts(shape, out_shape, pads_begin, pieces) -> bool:
    """Whether a 1-D pad is built as the pad of a ``(1, n)`` array (``_MIN_LIFTED_SIGNAL``):
    XLA:CPU's concatenate of a long rank-1 array runs far below memory speed, the
    same concatenate along the second axis of a ``(1, n)`` array at it."""
    if len(shape) != 1 or shape[0] < _MIN_LIFTED_SIGNAL or 0 not in pieces:
        return False  # (nothing padded: no pieces)
    begin, end = pads_begin[0], out_shape[0] - shape[0] - pads_begin[0]
    thin = (begin + end) * _MIN_LIFTED_SHARE <= shape[0]
    return min(begin, end) >= 0 and thin and all(p.kind != "period" for p in pieces[0])


def _wrap_crop_after(shape, out_shape, pads_begin, mode) -> bool:
    """Whether a wrap pad crops the start of an axis of short rows and pads its end.

    Its concatenate ``[x[c:], x[:p]]`` ran 14-75x slower on XLA:CPU's two cores with
    the default allocator than ``concatenate([x, x[:p]])[c:]``, the same values, on
    one contiguous axis (400,000 float32), and 1.0-1.4x slower where the axes after
    it hold 2-24 float32 (1.0-1.7x for float64 and bfloat16); from rows of 64 float32
    the concatenate was 20-30% faster (docs/performance.md, "Random configurations:
    the sweep", crop then pad on one axis). Only the cropped axis may be cropped.
    """
    if mode != "wrap":
        return False
    ends = [o - n - b for n, o, b in zip(shape, out_shape, pads_begin)]
    cropped = [a for a in range(len(shape)) if pads_begin[a] < 0 or ends[a] < 0]
    if len(cropped) != 1:
        return False
    (axis,) = cropped
    row = math.prod(shape[axis + 1 :])
    # A symbolic row (jax.export) is not known to be short.
    return pads_begin[axis] < 0 < ends[axis] and is_static(row) and row <= _MAX_CROP_AFTER_ROW


def _padded_then_cropped(fn_name, mode, shape, out_shape, pads_begin):
    """The plan of the positive pads alone, then the crops sliced off the result."""
    ends = [o - n - b for n, o, b in zip(shape, out_shape, pads_begin)]
    begin = [max(b, 0) for b in pads_begin]
    padded = tuple(n + b + max(e, 0) for n, b, e in zip(shape, begin, ends))
    axes = _padded_axes(shape, padded, begin)
    pieces = axis_pieces(fn_name, mode, shape, padded, begin, axes)
    crop_after = tuple(
        (max(-b, 0), size - max(-e, 0)) for size, b, e in zip(padded, pads_begin, ends)
    )
    return PadPlan("concatenate", tuple(pieces.items()), crop_after=crop_after)


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
    axis (a negative pad) would otherwise be paid by every earlier axis's pass, up to
    twice ``jnp.pad`` of the cropped array (docs/performance.md, "Random
    configurations: the sweep"). So the concatenate slices its operand once to what
    it reads, as a user cropping first would. ``()`` where nothing is cropped.
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
    plan = _plan_static_fold(pieces, operand_shape, _accumulate_dtype(dtype), target)
    if plan.accumulate is None or plan.round_once or len(operand_shape) == 1:
        # 1-D: held as bits, the signal's fold held a copy of it (bfloat16 2**20:
        # 2 MiB) where in its own type it held none.
        return plan
    return dataclasses.replace(plan, bits=bits_dtype(dtype, target))


def _plan_static_fold(pieces, operand_shape, accumulate, target):
    plan = _static_fold_form(pieces, operand_shape, accumulate, target)
    size = math.prod(operand_shape)
    if accumulate is not None and len(plan.groups) > 1 and is_static(size):
        return dataclasses.replace(plan, round_once=size <= _MAX_ROUNDED_ONCE)
    return plan


def _static_fold_form(pieces, operand_shape, accumulate, target):
    as_tuple = tuple(pieces.items())
    if not pieces:
        return FoldPlan("one_sum", (), (), accumulate)
    symbolic = not all(is_static(operand_shape[a]) for a in pieces)
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
    # A 1-D pad of several periods keeps the bands: wrap (1256532,) by 3591048 /
    # 318727 read 1.44-1.71x jnp.pad's VJP as boxes, 0.83-1.01x as bands; reflect and
    # symmetric spanning periods 0.11-0.20x in either (docs/performance.md, "1-D
    # signals", pads of several periods).
    periodic = any(p.kind == "period" for p in pieces.get(0, ()))
    wide_1d = last == 0 and not periodic and _band_share(pieces[0]) >= _MIN_BOXED_BAND_SHARE_1D
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
        and all(map(is_static, operand_shape))
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
    boxes along a short last axis 1.45-1.9x, and bands of half of the last axis
    0.9-1.7x against the fused sum's 0.5-1.1x (docs/performance.md, "Forms the
    planner picks"). Otherwise: only copies and mirrors (edge sums and period folds
    are reductions), few combinations, and unpadded trailing axes of at least
    _MIN_FUSED_ROW elements, so that the fused loop's inner rows are long and run
    without branches."""
    if len(shape) == 1 and is_static(shape[0]) and shape[0] >= _MIN_UPDATED_ROW:
        # A long 1-D signal: no unpadded row for the fused loop to run along, and it
        # measured 1.2-6x the slice plus band updates alone and up to 4x inside
        # programs (docs/performance.md, "Forms the planner picks", 1-D folds).
        return False
    if len(pieces) == 1:
        ((axis, axis_pieces),) = pieces.items()
        if _reduces(axis_pieces):
            return False
        last = axis == len(shape) - 1
        if last and shape[axis] < _MIN_UPDATED_ROW:
            return True
        share = _band_share(axis_pieces)
        if last and is_static(shape[axis]) and shape[axis] >= _MIN_BANDED_LAST_AXIS:
            # a batch of long signals: no unpadded row for the fused loop either
            return share >= _MIN_SUMMED_BAND_SHARE_LAST
        if share <= _MAX_BAND_SHARE_ONE_AXIS or (last and share >= _MIN_SUMMED_BAND_SHARE_LAST):
            return True
        slab = math.prod(shape[axis:])
        if axis < len(shape) - 1 and is_static(slab) and slab < _MAX_SUMMED_SLAB:
            return True
    row = 1
    for axis in reversed(range(len(shape))):
        if axis in pieces:
            break
        row *= shape[axis]
    if not is_static(row):  # a symbolic (exported) trailing axis: not known to be long
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
    if not (is_static(n) and is_static(size)) or n == 0:
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


def active_axes(x_shape, shape, static_pads, num_batch):
    """The non-batch axes that pad, leaving out those with a static 0 and no resize."""
    return [
        (d, num_batch + d)
        for d, pad in enumerate(static_pads)
        if not (pad == 0 and shape[num_batch + d] == x_shape[num_batch + d])
    ]


def is_sided(mode) -> bool:
    """Whether a pad's ``mode`` parameter is per side (one pair per axis) rather than
    one of ``MODES`` for every side (``_args.PadMode``)."""
    return mode not in MODES


def _base_pair(modes):
    return (base_mode(modes[0]), base_mode(modes[1]))


def _sided_axes(shape, out_shape, pads_begin, mode, fn_name):
    """The padded axes, each with its static size; symbolic ones are refused."""
    axes = _padded_axes(shape, out_shape, pads_begin)
    for axis in axes:
        if not (is_static(shape[axis]) and is_static(out_shape[axis])):
            raise ValueError(
                f"{fn_name}: axis {axis} has the symbolic size {shape[axis]} and per-side "
                f"mode {mode[axis]}; per-side and odd modes need a concrete size on every "
                "padded axis. Give that axis a concrete size, or one mode for every side."
            )
    return axes


def side_regions(n, size, lo):
    """The output ranges ``(start, stop)`` of an axis of ``n`` elements padded to
    ``size`` by ``lo`` before: begin side, copy of ``x``, end side (possibly empty).
    Coefficients are computed on the sides only, never over the whole axis."""
    first = min(max(lo, 0), size)
    stop = min(max(lo + n, first), size)
    return (0, first), (first, stop), (stop, size)


def plan_sided_pad(shape, out_shape, target=Target()) -> str:
    """``"bands"`` (in place) or ``"blocks"`` (concatenates), for a per-side pad."""
    if target.partitioned or not indexable(shape, out_shape):
        return "blocks"
    return "bands"


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
            for coefficient, index in coefficients.edge_terms(n):
                if coefficient.any():
                    weights = tuple(coefficient.tolist())  # ints, but line's
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
    return dataclasses.replace(piece, scale=tuple(scale.tolist()))
