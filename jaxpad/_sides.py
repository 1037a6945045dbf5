"""Per-axis and per-side boundary modes: parsing ``mode`` and ``pad_value``, the pad
value's term, and the per-side compositions (traced ``dynamic_pad`` pads, sharded
programs).

A mode per side is either one of ``MODES`` for every side (the primitives' string
``mode``, planned by ``_lowering``) or a tuple with one ``(begin, end)`` pair per axis.
Every side mode is linear in ``(x, pad_value)``, so a pad is ``L(x) + V(pad_value)``.
The primitive computes both, the values being its ``(ndim, 2)`` operand. ``V`` is a
sum of separable terms: the value of side ``s`` of axis ``k`` lands on that side's
region of axis ``k`` (times 1 for ``constant``, 2 for ``dirichlet``), spread over the
whole extent of the axes padded before ``k`` and carried through the axes padded
after it by what they make of a constant (``row_sum``: 1 where they copy or mirror, 0
on a constant side, -1 on a dirichlet side). ``_lowering.value_term`` builds it,
with the rest of the per-side formula; here it serves the primitive's transpose (the
values' cotangent) and values batched per example.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad import _checks
from jaxpad._index_maps import (
    ARITHMETIC_MODES,
    MODES,
    SIDE_MODES,
    VALUE_MODES,
    base_mode,
    period,
    side_coefficients,
    source_index,
)
from jaxpad._lowering import (
    add_values,
    index_dtype,
    indexable,
    scaled_along,
    side_regions,
    sided_terms,
    value_term,
    whole_axis_coefficients,
)

__all__ = ["add_values", "value_term"]  # the per-side formula lives in _lowering

Sides = tuple[tuple[str, str], ...]


def _check_one(fn_name: str, mode: object, where: str) -> str:
    return _checks.check_mode(fn_name, mode, SIDE_MODES, arg_name=where)


def parse_modes(fn_name: str, mode: object, ndim: int) -> str | Sides:
    """``mode`` as one string of ``MODES`` (every side alike) or one pair per axis."""
    if isinstance(mode, str):
        mode = _check_one(fn_name, mode, "mode")
        return mode if mode in MODES else ((mode, mode),) * ndim
    if not isinstance(mode, Sequence):
        raise TypeError(
            f"{fn_name}: mode must be a string, or a sequence with one entry per axis of x, "
            f"each a string or a (begin, end) pair of strings; got {mode!r}."
        )
    if len(mode) != ndim:
        raise ValueError(
            f"{fn_name}: mode needs one entry per axis of x (x.ndim={ndim}); got "
            f"{len(mode)}: {tuple(mode)!r}."
        )
    pairs = []
    for axis, entry in enumerate(mode):
        if isinstance(entry, str):
            entry = _check_one(fn_name, entry, f"mode[{axis}]")
            pairs.append((entry, entry))
            continue
        if not isinstance(entry, Sequence) or len(entry) != 2:
            raise TypeError(
                f"{fn_name}: mode[{axis}] must be a string or a (begin, end) pair of "
                f"strings; got {entry!r}."
            )
        begin, end = (
            _check_one(fn_name, side, f"mode[{axis}][{i}]") for i, side in enumerate(entry)
        )
        pairs.append((begin, end))
    sides = {side for pair in pairs for side in pair}
    if len(sides) == 1 and next(iter(sides)) in MODES:
        return next(iter(sides))
    return tuple(pairs)


def describe_modes(modes: str | Sides) -> str:
    return repr(modes) if isinstance(modes, str) else repr(tuple(modes))


def check_dtype(fn_name: str, modes: Sides, dtype) -> None:
    arithmetic = sorted({side for pair in modes for side in pair} & set(ARITHMETIC_MODES))
    if arithmetic and np.dtype(dtype) == np.bool_:
        formula = {
            "dirichlet": "2 * value - mirror",
            "neumann": "mirror -/+ (2k - 1) * value",
        }.get(arithmetic[0], "2 * edge - mirror")
        raise TypeError(
            f"{fn_name}: mode {arithmetic[0]!r} computes {formula}, which needs a "
            f"numeric x; got x of dtype bool."
        )


Faces = dict[tuple[int, int], jax.Array]


def has_faces(pad_value: Any, ndim: int) -> bool:
    """Whether ``pad_value`` is one ``(begin, end)`` pair per axis with an array among
    them (a value that varies along its face); all-scalar pairs are the ``(ndim, 2)``
    form."""
    if isinstance(pad_value, (str, bytes, np.ndarray, jax.Array)):
        return False
    if not isinstance(pad_value, Sequence) or len(pad_value) != ndim:
        return False
    pairs = [entry for entry in pad_value if isinstance(entry, Sequence) and len(entry) == 2]
    if len(pairs) != ndim:
        return False
    return any(np.ndim(value) > 0 for pair in pairs for value in pair)


def split_faces(fn_name: str, pad_value: Any, modes: str | Sides, x_shape, dtype):
    """``pad_value`` with its face arrays taken out: ``(pad_value with 0 in their
    place, {(axis, side): face array of x.shape with that axis of size 1})``. A face
    array is a value that varies along its face; scalars stay in ``pad_value``."""
    ndim = len(x_shape)
    if not has_faces(pad_value, ndim):
        return pad_value, {}
    pairs = ((modes, modes),) * ndim if isinstance(modes, str) else modes
    scalars: list[list[Any]] = []
    faces: Faces = {}
    compute = np.dtype(np.int32) if np.dtype(dtype) == np.bool_ else np.dtype(dtype)
    for axis, pair in enumerate(pad_value):
        scalars.append([])
        for side, value in enumerate(pair):
            if np.ndim(value) == 0:
                given = not isinstance(value, jax.core.Tracer) and np.any(value != 0)
                if given and pairs[axis][side] not in VALUE_MODES:
                    raise ValueError(
                        f"{fn_name}: pad_value[{axis}][{side}]={value!r}, but side {side} of "
                        f"axis {axis} has mode {pairs[axis][side]!r}, which reads no value; "
                        "give it 0, or a mode that reads one ('constant', 'dirichlet' or "
                        "'neumann')."
                    )
                scalars[-1].append(value)
                continue
            face = tuple(1 if a == axis else n for a, n in enumerate(x_shape))
            where = f"pad_value[{axis}][{side}]"
            if pairs[axis][side] not in VALUE_MODES:
                raise ValueError(
                    f"{fn_name}: {where} is an array, but side {side} of axis {axis} has mode "
                    f"{pairs[axis][side]!r}, which reads no value; give it 0, or a mode "
                    "that reads one ('constant', 'dirichlet' or 'neumann')."
                )
            shape = np.shape(value)
            try:
                fits = len(shape) <= ndim and np.broadcast_shapes(shape, face) == face
            except ValueError:
                fits = False
            if not fits:
                raise ValueError(
                    f"{fn_name}: {where} must be a scalar or an array broadcastable to the "
                    f"face of axis {axis} (x.shape with axis {axis} of size 1: {face}); got "
                    f"shape {shape}."
                )
            array = jnp.asarray(value)
            if jnp.iscomplexobj(array) and not jnp.issubdtype(dtype, jnp.complexfloating):
                raise TypeError(
                    f"{fn_name}: {where} is complex ({array.dtype}); x is {np.dtype(dtype)}."
                )
            faces[axis, side] = jnp.broadcast_to(array.astype(compute), face)
            scalars[-1].append(0)
    return scalars, faces


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


def add_static_faces(out, faces: Faces, modes: Sides, x_shape, pads_begin, pads_end):
    """``add_faces`` of a static pad (``face_bands``)."""
    from jaxpad._pad import pad  # _pad imports this module

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


def values_operand(fn_name: str, pad_value: Any, modes: str | Sides, ndim: int, dtype):
    """The per-side values as an ``(ndim, 2)`` array of ``dtype``, or None for zeros."""
    if pad_value is None:
        return None
    sides = {modes} if isinstance(modes, str) else {side for pair in modes for side in pair}
    if not sides & set(VALUE_MODES):
        raise ValueError(
            f"{fn_name}: pad_value is only read by sides whose mode is 'constant', "
            f"'dirichlet' or 'neumann'; got pad_value={_checks.describe(pad_value)} with mode="
            f"{describe_modes(modes)}."
        )
    shape = value_shape(pad_value)
    if shape not in ((), (ndim, 2)):
        raise ValueError(
            f"{fn_name}: pad_value must be a scalar or have shape (x.ndim, 2) = ({ndim}, 2), "
            f"one value per side of each axis; got shape {shape}."
        )
    if shape == ():
        return jnp.broadcast_to(
            _checks.pad_value_operand(fn_name, pad_value, "constant", dtype), (ndim, 2)
        )
    rows = [
        [
            _checks.pad_value_operand(fn_name, pad_value[axis][side], "constant", dtype)
            for side in (0, 1)
        ]
        for axis in range(ndim)
    ]
    return jnp.stack([jnp.stack(row) for row in rows])


def value_shape(pad_value: Any) -> tuple[int, ...]:
    """``np.shape``, also of a nested sequence of scalars some of which are traced."""
    if isinstance(pad_value, (list, tuple)) and all(
        isinstance(row, (list, tuple)) and all(np.ndim(v) == 0 for v in row) for row in pad_value
    ):
        lengths = {len(row) for row in pad_value}
        if len(lengths) == 1:
            return (len(pad_value), lengths.pop())
    return np.shape(pad_value)


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
        side_mode = "edge" if n == 1 else side_mode
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
    zeros = jnp.zeros((ndim, 2), t.dtype)
    term = value_term(zeros, modes, x_shape, t.shape, pads_begin)
    if term is None:
        return zeros
    _, transpose = jax.vjp(lambda v: value_term(v, modes, x_shape, t.shape, pads_begin), zeros)
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
