"""Per-side modes: the per-side formula and every graph built from it.

``mode`` is a tuple with one ``(begin, end)`` pair per axis when the sides of an axis
differ or use an arithmetic mode (odd reflections, dirichlet, neumann, the signal
extensions). A per-side pad is ``L(x) + V(values)``, both linear with static
coefficients. ``L`` pads the axes one after the other, as numpy does, each a
concatenate of the pieces of its two sides' base modes (``fill`` for a constant side:
zeros), then ``sign * base + first * x[0] + last * x[n - 1]`` (and ``smooth``'s terms
in ``x[1]`` and ``x[n - 2]``) on the arithmetic sides (``sided_terms``). ``V`` is a sum of
separable terms (``value_term``): the value of side ``s`` of axis ``k`` lands on that
side's region of axis ``k``, spread over the axes padded before ``k`` and carried
through the axes padded after it by what they make of a constant. Every term is
computed only where its coefficient is not zero (``_terms.scaled_along``): an element a
position does not read cannot turn it into nan (``0 * inf``), so an inf or nan in
``x``, the values or the cotangent reaches exactly the positions whose net
coefficient on it is not zero (docs/semantics.md, "Infinities and nan").

This module is the only place the formula is written. It builds:

- the primitive's static forms (``build_sided_pad``, ``build_sided_fold``: the base
  pieces, each scaled by its net sign, plus the reductions of the edge terms);
- the compositions traced in the public functions: ``dynamic_sided_pad`` (traced
  pads), ``composed_pad`` (programs partitioned over several devices, where each
  one-mode pad plans its own exchange), ``value_cotangent`` (the values' transpose)
  and the face arrays' terms (``add_faces`` and its static and dynamic callers).

``_args`` parses ``mode`` and ``pad_value`` (once, into a ``PadArgs``); the public
functions call these with what it built.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad._compat import varying_like
from jaxpad._index_maps import (
    SideCoefficients,
    base_mode,
    fold_pieces,
    period,
    side_coefficients,
    source_index,
)
from jaxpad._lowering._plans import (
    _base_pair,
    _sided_axes,
    index_dtype,
    indexable,
    int32_indexes,
    plan_sided_fold,
    plan_sided_pad,
    side_regions,
)
from jaxpad._lowering._static import build_fold, piece_values
from jaxpad._lowering._terms import _plus, add_values, scaled_along

# One (begin, end) mode pair per axis, and face arrays by (axis, side).
Sides = tuple[tuple[str, str], ...]
Faces = dict[tuple[int, int], jax.Array]


def sided_terms(base, y, coefficients, axis, n):
    """``sign * base + first * y[0] + last * y[n - 1]`` (and smooth's ``second *
    y[1] + second_last * y[n - 2]``) along ``axis``, with ``coefficients`` of the
    positions ``base`` holds (the base modes' reads) and ``y`` the array padded.
    Each term only where its coefficient is not zero; zeros where none is."""
    total = scaled_along(base, coefficients.sign, axis)
    for coefficient, index in coefficients.edge_terms(n):
        edge = lax.slice_in_dim(y, index, index + 1, axis=axis)
        total = _plus(total, scaled_along(edge, coefficient, axis))
    if total is None:
        return jnp.zeros(base.shape, base.dtype)
    return jnp.broadcast_to(total, base.shape)


def whole_axis_coefficients(modes, n, size, lo):
    """``side_coefficients`` of every output position of an axis and the mask of its
    begin side, for the elementwise compositions (``composed_pad``): NumPy vectors, or on an
    axis too long for that (``int32_indexes``) the sides' coefficients around a
    broadcast copy, built in the program."""
    if int32_indexes(n, size):
        offsets = np.arange(size) - lo
        return side_coefficients(modes, n, offsets), offsets < 0
    (b0, b1), (c0, c1), (e0, e1) = side_regions(n, size, lo)
    begin = side_coefficients(modes, n, np.arange(b0, b1) - lo)
    end = side_coefficients(modes, n, np.arange(e0, e1) - lo)

    def whole(name, copy):
        ends = (getattr(begin, name), getattr(end, name))
        if ends[0] is None:  # smooth's inner terms, where no side is smooth
            return None
        # int32, but line's fractional coefficients
        dtype = np.int32 if all(e.dtype.kind in "iub" for e in ends) else np.float32
        middle = jnp.full((c1 - c0,), copy, dtype)  # a broadcast in the program
        parts = (jnp.asarray(ends[0], dtype), middle, jnp.asarray(ends[1], dtype))
        return jnp.concatenate(parts)

    mask = jnp.concatenate([jnp.ones((b1 - b0,), bool), jnp.zeros((size - b1,), bool)])
    coefficients = SideCoefficients(
        whole("sign", 1),
        whole("first", 0),
        whole("last", 0),
        whole("value", 0),
        whole("second", 0),
        whole("second_last", 0),
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


def build_sided_pad(x, values, out_shape, pads_begin, mode, target, fn_name="jaxpad.pad"):
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


def build_sided_fold(t, operand_shape, pads_begin, mode, target):
    plan = plan_sided_fold(operand_shape, t.shape, pads_begin, mode, t.dtype, target)
    if plan.form == "zeros":
        return jnp.zeros(operand_shape, t.dtype)
    return build_fold(plan, t, operand_shape)


def add_faces(out, faces: Faces, padded, extend, weigh, carry, add=None):
    """``out`` plus what face arrays add to the pad: for side ``s`` of axis ``k``, its
    face array extended by its nearest value along the ``padded`` axes before ``k``
    (``extend(y, axis)``), times the side's value coefficients along ``k``
    (``weigh(y, k, s)``), carried through the padded axes after ``k`` by their modes
    (``carry(y, axis)``: the pad of ``y`` along that axis with no values), as a scalar
    value is (``value_term``). ``weigh`` may return the side's band alone, which
    ``add(out, band, k, s)`` then adds in its place."""
    for (axis, side), face in sorted(faces.items(), key=lambda item: item[0]):
        term = face
        for earlier in (a for a in padded if a < axis):
            term = extend(term, earlier)
        term = weigh(term, axis, side)
        if term is None:
            continue
        for later in (a for a in padded if a > axis):
            term = carry(term, later)
        out = add_values(out, term) if add is None else add(out, term, axis, side)
    return out


def face_bands(modes: Sides, x_shape, out_shape, pads_begin):
    """``(weigh, add)`` for ``add_faces`` with static pads: each side's band alone,
    computed at its own size (its later axes carry only it), and added where it lies:
    in place, or padded into place on an axis too long for an index."""
    ndim = len(x_shape)

    def region(axis, side):
        return side_regions(x_shape[axis], out_shape[axis], pads_begin[axis])[2 * side]

    def weigh(y, axis, side):
        start, stop = region(axis, side)
        if stop <= start:
            return None
        offsets = np.arange(start, stop) - pads_begin[axis]
        weights = side_coefficients(modes[axis], x_shape[axis], offsets).value
        return scaled_along(y, weights, axis)

    def add(out, band, axis, side):
        start, stop = region(axis, side)
        if indexable(out_shape):
            starts = [start if a == axis else 0 for a in range(ndim)]
            current = lax.slice_in_dim(out, start, stop, axis=axis)
            return lax.dynamic_update_slice(out, add_values(current, band), starts)
        config = [(0, 0, 0)] * ndim
        config[axis] = (start, out_shape[axis] - stop, 0)
        return add_values(out, lax.pad(band, np.zeros((), band.dtype), config))

    return weigh, add


def add_static_faces(out, faces: Faces, modes: Sides, x_shape, pads_begin, pads_end, pad):
    """``add_faces`` of a static pad (``face_bands``); ``pad`` is ``jaxpad.pad``, the
    primitive the face arrays are extended and carried with."""

    ndim = len(x_shape)
    out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, x_shape, pads_end))
    padded = [a for a in range(ndim) if pads_begin[a] or pads_end[a]]

    def along(axis, widths):
        return [widths[axis] if a == axis else 0 for a in range(ndim)]

    weigh, add = face_bands(modes, x_shape, out_shape, pads_begin)
    return add_faces(
        out,
        faces,
        padded,
        lambda y, axis: pad(y, along(axis, pads_begin), along(axis, pads_end), "edge"),
        weigh,
        lambda y, axis: pad(y, along(axis, pads_begin), along(axis, pads_end), modes),
        add,
    )


def add_dynamic_faces(out, faces: Faces, modes: Sides, x_shape, entries, shape):
    """``add_faces`` of ``dynamic_sided_pad``'s pads ``entries`` (ints or traced): the
    value coefficients along a traced axis are computed in the program, as the pad of
    zeros with a unit value on that side."""
    ndim = len(x_shape)
    padded = [
        a
        for a in range(ndim)
        if not (isinstance(entries[a], int) and entries[a] == 0 and shape[a] == x_shape[a])
    ]

    def along(y, axis, axis_modes):
        pads = [entries[axis] if a == axis else 0 for a in range(ndim)]
        sizes = [shape[axis] if a == axis else y.shape[a] for a in range(ndim)]
        return dynamic_sided_pad(y, pads, sizes, axis_modes, None)

    def weigh(y, axis, side):
        unit = jnp.zeros((1, 2), y.dtype).at[0, side].set(1)
        zeros = jnp.zeros((x_shape[axis],), y.dtype)
        weights = dynamic_sided_pad(zeros, [entries[axis]], [shape[axis]], [modes[axis]], unit)
        return scaled_along(y, weights, axis)

    return add_faces(
        out,
        faces,
        padded,
        lambda y, axis: along(y, axis, (("edge", "edge"),) * ndim),
        weigh,
        lambda y, axis: along(y, axis, modes),
    )


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
            if values is not None:
                # Positions before the (empty) axis hold the begin value, the rest the
                # end value; a pad outside [0, size] reads as 0 or size.
                if isinstance(pad, int):
                    lo = jnp.asarray(min(max(pad, 0), size), np.int32)
                else:
                    lo = jnp.clip(pad, 0, size).astype(np.int32)
                before = (lax.iota(np.int32, size) < lo).reshape(
                    [size if a == axis else 1 for a in range(y.ndim)]
                )
                value = jnp.where(before, values[axis, 0], values[axis, 1])
                padded = add_values(padded, value.astype(padded.dtype))
            y = padded
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
        # One element repeats as edge does, but antisymmetric's sign alternates.
        side_mode = "edge" if n == 1 and side_mode != "antisymmetric" else side_mode
        base = base_mode(side_mode)
        periods.append(period(base, n) if base in ("reflect", "symmetric", "wrap") else 1)
    # The periods skipped, for the odd modes' drift and neumann's 2k - 1: in float32
    # for half floats, whose range ends 65504 (some 32768 cells out for neumann).
    compute = np.dtype(np.int32) if np.dtype(dtype) == np.bool_ else np.dtype(dtype)
    if compute in (np.dtype(jnp.float16), np.dtype(jnp.bfloat16)):
        compute = np.dtype(np.float32)
    if isinstance(pad, int):
        # Exactly, in Python: a static pad of any size (past int32 with 64-bit types
        # off, where it cannot become an array first).
        before, after = max(pad - size, 0), max(-n - pad, 0)
        small = size + before % periods[0] if before else -n - after % periods[1] if after else pad
        turns = (-(before // periods[0]), after // periods[1])
        return jnp.asarray(small, index), tuple(_wrapped(turn, compute) for turn in turns)
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
    # Inside shard_map the cotangent varies over mesh axes, and so must the values'
    # cotangent (the pad bound them varying: _sharding.match_varying).
    zeros = varying_like(jnp.zeros((ndim, 2), t.dtype), t)
    term = value_term(zeros, modes, x_shape, t.shape, pads_begin)
    if term is None:
        return zeros

    def term_of(values):
        # A term that reads no value is invariant where the cotangent varies; the cast
        # transposes to a sum over the mesh axes of a cotangent that reaches no value.
        return varying_like(value_term(values, modes, x_shape, t.shape, pads_begin), t)

    _, transpose = jax.vjp(term_of, zeros)
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
