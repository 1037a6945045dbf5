"""A pad's arguments, read once: what the caller passed, as one frozen ``PadArgs``.

Every public function that pads hands what its caller passed (widths, the mode in
any of its spellings, the pad value, ``interior``, ``crop_first``, the mesh axes) to
one function here, with its own name for the messages: ``pad_args`` (``jaxpad.pad``,
``jaxpad.numpy.pad``'s pads, the ``jaxpad.nn`` pools) or ``halo_args``
(``halo_pad``). It checks them in one pass and returns a ``PadArgs``: static,
hashable, one spelling per meaning, plus the value operands it built; ``_pad.padded``
pads by it. The pieces such a pad is built of (a face array's extension, a halo's
local pad, the one-mode parts of a per-side pad over several devices) are described
by ``derived``, unchecked; so are the pads inside the ops that pad (a convolution's
padded input and strips, a transposed convolution's fold: ``_pad.pad_piece``).
``dynamic_pad``, whose pads may be traced, checks its arguments once with this
module's parsers into a ``DynamicPadArgs`` (its static parts, and the operands it
built), and its static pieces are ``derived`` (``derived_sides``) too. The
primitives' shape rules keep the checks of their own parameters (for a direct
``bind``); nothing between checks a caller's arguments again.

A mode per side is either one of ``MODES`` for every side (the primitives' string
``mode``, planned by ``_lowering``) or a tuple with one ``(begin, end)`` pair per axis.
Every side mode is linear in ``(x, pad_value)``, so a pad is ``L(x) + V(pad_value)``;
the primitive computes both, the values being its ``(ndim, 2)`` operand. The formula
and every graph built from it live in ``_lowering._sided``.

Imports: ``_checks``, ``_compat`` and ``_index_maps`` only (all below ``_lowering``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, TypeGuard

import jax
import jax.numpy as jnp
import numpy as np

from jaxpad import _checks
from jaxpad._compat import InconclusiveDimensionOperation
from jaxpad._index_maps import (
    ARITHMETIC_MODES,
    FRACTIONAL_MODES,
    MODES,
    SIDE_MODES,
    VALUE_MODES,
)

# A ``(begin, end)`` pair of side modes per axis, and face arrays by ``(axis, side)``
# (the same aliases as ``_lowering._sided``'s, which this module sits below).
Sides = tuple[tuple[str, str], ...]
Faces = dict[tuple[int, int], jax.Array]


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
    _checks.check_length(fn_name, "mode", tuple(mode), ndim)
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


@dataclasses.dataclass(frozen=True)
class PadMode:
    """The pad primitives' ``mode`` parameter, read one way by every rule.

    ``jaxpad_pad`` and ``jaxpad_fold`` take ``mode`` as ``parse_modes`` returns it: one
    string of ``MODES`` for a pad with one scalar value (kept so in the jaxpr, as
    ``jnp.pad``'s mode is, for the tools that read it: jax2onnx, sparsify), or one
    ``(begin, end)`` pair per axis for a per-side pad, whose value operand is
    ``(ndim, 2)``. The rules wrap it here once instead of testing its type.
    """

    param: str | Sides
    ndim: int

    @property
    def single(self) -> str | None:
        """The one mode of every side, for a pad with a scalar value; None per side."""
        return self.param if isinstance(self.param, str) else None

    @property
    def sides(self) -> Sides:
        """The ``(begin, end)`` modes of every axis."""
        if isinstance(self.param, str):
            return ((self.param, self.param),) * self.ndim
        return tuple(self.param)

    @property
    def value_shape(self) -> tuple[int, ...]:
        """The value operand's shape: a scalar for one mode, a value per side else."""
        return () if isinstance(self.param, str) else (self.ndim, 2)

    def with_unpadded_axis(self, axis: int) -> str | Sides:
        """The parameter of the same pad with an unpadded axis inserted at ``axis`` (a
        batch axis): one mode covers it; per side it is constant, reading no value."""
        if isinstance(self.param, str):
            return self.param
        sides = list(self.param)
        sides.insert(axis, ("constant", "constant"))
        return tuple(sides)

    def __str__(self) -> str:
        return describe_modes(self.param)


def is_one_mode_pad(mode: str | Sides, pad_value: Any) -> TypeGuard[str]:
    """Whether the user's pad is the one-mode primitive: one mode of ``MODES`` for
    every side, with no value or, in constant mode, one scalar. Anything else (per-side
    modes, per-side values, face arrays) pads per side."""
    single = mode if isinstance(mode, str) else None
    return single is not None and (
        pad_value is None or single == "constant" and value_shape(pad_value) == ()
    )


_FORMULAS = {
    "dirichlet": "2 * value - mirror",
    "neumann": "mirror -/+ (2k - 1) * value",
    "antisymmetric": "-mirror",
    "smooth": "x[0] + k * (x[0] - x[1])",
    "line": "x[0] + k * (x[0] - x[n-1]) / (n - 1)",
}


def check_dtype(fn_name: str, modes: Sides, dtype) -> None:
    sides = {side for pair in modes for side in pair}
    arithmetic = sorted(sides & set(ARITHMETIC_MODES))
    if arithmetic and np.dtype(dtype) == np.bool_:
        formula = _FORMULAS.get(arithmetic[0], "2 * edge - mirror")
        raise TypeError(
            f"{fn_name}: mode {arithmetic[0]!r} computes {formula}, which needs a "
            f"numeric x; got x of dtype bool."
        )
    fractional = sorted(sides & set(FRACTIONAL_MODES))
    if fractional and not jnp.issubdtype(dtype, jnp.inexact):
        raise TypeError(
            f"{fn_name}: mode {fractional[0]!r} computes {_FORMULAS[fractional[0]]}, "
            f"whose fractions need a floating or complex x; got x of dtype {np.dtype(dtype)}."
        )


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


# The description ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PadArgs:
    """A static pad of an array of ``in_shape``, its arguments checked once.

    ``mode`` is the primitive's parameter (``PadMode``): one of ``MODES`` when every
    side has that mode and the value is one scalar, else one ``(begin, end)`` pair per
    axis. ``crop`` is ``crop_first``'s slice of ``x`` (``(starts, limits)``) or None,
    and ``pads_begin``/``pads_end`` are what remains to pad after it. ``faces`` names
    the sides whose values are arrays along their face.

    ``value`` (the scalar or ``(ndim, 2)`` operand, of ``x``'s dtype) and
    ``face_values`` are operands, possibly traced: carried along, not compared or
    hashed. Two descriptions are equal when they bind the same primitive parameters.
    (``halo_pad``'s pads are built of pieces, each a ``derived`` pad: its value is the
    checked scalar as the caller gave it, or None for zeros, converted by each piece.)
    """

    in_shape: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    interior: tuple[int, ...]
    mode: str | Sides
    crop: tuple[tuple[int, ...], tuple[int, ...]] | None
    out_shape: tuple[int, ...]
    faces: tuple[tuple[int, int], ...] = ()
    # halo_pad: the mesh axes (a tuple of names, or None) each axis of x is split over.
    axis_names: tuple[tuple[str, ...] | None, ...] | None = None
    fn_name: str = dataclasses.field(default="jaxpad.pad", compare=False)
    value: Any = dataclasses.field(default=None, compare=False, repr=False)
    face_values: Any = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def ndim(self) -> int:
        return len(self.in_shape)

    @property
    def sides(self) -> Sides:
        return PadMode(self.mode, self.ndim).sides

    @property
    def cropped_shape(self) -> tuple[int, ...]:
        """The shape that is padded: ``in_shape``, cropped first by ``crop_first``."""
        if self.crop is None:
            return self.in_shape
        return tuple(hi - lo for lo, hi in zip(*self.crop))


def pad_args(
    fn_name: str,
    x: Any,
    pads_begin: Any,
    pads_end: Any,
    mode: Any = "constant",
    pad_value: Any = None,
    *,
    interior: Any = None,
    crop_first: Any = False,
    traced_hint: str = "",
) -> PadArgs:
    """Checks a pad's arguments once and describes the pad (``jaxpad.pad``'s arguments).

    ``fn_name`` is the public function the caller called: every message starts with
    it. The checks run in a fixed order (mode, widths, interior, values, crop_first,
    then the output shape), so a call with several mistakes is told the first.
    """
    ndim = x.ndim
    mode = parse_modes(fn_name, mode, ndim)
    pads_begin = _checks.static_int_tuple(
        fn_name, "pads_begin", pads_begin, traced_hint=traced_hint
    )
    pads_end = _checks.static_int_tuple(fn_name, "pads_end", pads_end, traced_hint=traced_hint)
    if interior is None:
        interior = (0,) * ndim
    else:
        interior = _checks.static_int_tuple(fn_name, "interior", interior)
    value, face_values = split_faces(fn_name, pad_value, mode, x.shape, x.dtype)
    if face_values and crop_first:
        raise ValueError(
            f"{fn_name}: crop_first=True takes scalar pad values; value has arrays along "
            f"the faces {sorted(face_values)} (axis, side). Crop x and the face arrays first."
        )
    mode, value = mode_and_value(fn_name, mode, value, ndim, x.dtype)
    if not isinstance(crop_first, (bool, np.bool_)):
        raise TypeError(f"{fn_name}: crop_first must be a bool; got {crop_first!r}.")
    shape = tuple(x.shape)
    crop = None
    if crop_first:
        crop, pads_begin, pads_end = _crop_first(fn_name, shape, pads_begin, pads_end, interior)
        shape = tuple(hi - lo for lo, hi in zip(*crop))
    out_shape = padded_shape(fn_name, shape, pads_begin, pads_end, interior, mode)
    return PadArgs(
        in_shape=tuple(x.shape),
        pads_begin=pads_begin,
        pads_end=pads_end,
        interior=interior,
        mode=mode,
        crop=crop,
        out_shape=out_shape,
        faces=tuple(sorted(face_values)),
        fn_name=fn_name,
        value=value,
        face_values=face_values or None,
    )


def derived(
    fn_name: str, x: Any, pads_begin, pads_end, mode: str | Sides, pad_value: Any = None
) -> PadArgs:
    """A pad that jaxpad builds from one ``pad_args`` or ``halo_args`` checked (a face
    array's extension, a piece of a per-side or halo pad): int pads, a parsed mode and
    a checked value, described without checking them again."""
    ndim = x.ndim
    mode = _normal_modes(mode, ndim)
    mode, value = mode_and_value(fn_name, mode, pad_value, ndim, x.dtype)
    return PadArgs(
        in_shape=tuple(x.shape),
        pads_begin=tuple(pads_begin),
        pads_end=tuple(pads_end),
        interior=(0,) * ndim,
        mode=mode,
        crop=None,
        out_shape=tuple(lo + n + hi for lo, n, hi in zip(pads_begin, x.shape, pads_end)),
        fn_name=fn_name,
        value=value,
    )


def derived_sides(
    fn_name: str, x: Any, pads_begin, pads_end, sides: Sides, values: Any, faces: Faces
) -> PadArgs:
    """A per-side pad whose values a caller's check already built: ``values`` is
    ``values_operand``'s ``(ndim, 2)`` operand (None for zeros) and ``faces``
    ``split_faces``' face arrays. Described as ``pad_args`` describes that pad, without
    parsing or converting them again (``dynamic_pad``'s static pad with face arrays)."""
    ndim = x.ndim
    return PadArgs(
        in_shape=tuple(x.shape),
        pads_begin=tuple(pads_begin),
        pads_end=tuple(pads_end),
        interior=(0,) * ndim,
        mode=tuple(sides),
        crop=None,
        out_shape=tuple(lo + n + hi for lo, n, hi in zip(pads_begin, x.shape, pads_end)),
        faces=tuple(sorted(faces)),
        fn_name=fn_name,
        value=np.zeros((ndim, 2), x.dtype) if values is None else values,
        face_values=faces or None,
    )


@dataclasses.dataclass(frozen=True)
class DynamicPadArgs:
    """``dynamic_pad``'s arguments, checked once: its static parts, and its operands.

    ``in_shape`` is the shape of what the primitive (or the per-side path) pads: ``x``,
    or ``x`` with its long static axes already padded (``_dynamic_pad``); ``shape`` is
    the output's. ``per_side`` says which path pads: False, the primitive
    ``jaxpad_dynamic_pad`` with one mode of ``MODES`` and a scalar value, whose
    ``static_pads`` parameter (the reduced static entries, None where traced) it is;
    True, per-side or odd modes, per-side values or face arrays, with ``mode`` one
    ``(begin, end)`` pair per axis and ``static_pads`` the entries as given (None where
    traced). ``max_pad`` is checked: one int or None per axis.

    ``pads`` (the primitive's int operand, or one entry per axis on the per-side path:
    an int or a traced scalar), ``value`` (the scalar, or the ``(ndim, 2)`` operand or
    None) and ``face_values`` are operands, possibly traced: carried along, not
    compared or hashed.
    """

    in_shape: tuple[int, ...]
    shape: tuple[int, ...]
    mode: str | Sides
    per_side: bool
    static_pads: tuple[int | None, ...]
    max_pad: tuple[int | None, ...]
    faces: tuple[tuple[int, int], ...] = ()
    fn_name: str = dataclasses.field(default="jaxpad.dynamic_pad", compare=False)
    pads: Any = dataclasses.field(default=None, compare=False, repr=False)
    value: Any = dataclasses.field(default=None, compare=False, repr=False)
    face_values: Any = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def ndim(self) -> int:
        return len(self.in_shape)

    @property
    def sides(self) -> Sides:
        return PadMode(self.mode, self.ndim).sides


def _normal_modes(mode: str | Sides, ndim: int) -> str | Sides:
    """A checked mode (a string, or one string or pair per axis) spelled as
    ``parse_modes`` spells it (one string when it can)."""
    if isinstance(mode, str):
        return mode if mode in MODES else ((mode, mode),) * ndim
    pairs: Sides = tuple(
        (entry, entry) if isinstance(entry, str) else (entry[0], entry[1]) for entry in mode
    )
    sides = {side for pair in pairs for side in pair}
    if len(sides) == 1 and next(iter(sides)) in MODES:
        return next(iter(sides))
    return pairs


def halo_args(
    fn_name: str, x: Any, halo_begin: Any, halo_end: Any, mode: Any, pad_value: Any, axis_names
) -> PadArgs:
    """``halo_pad``'s arguments checked once (``pad_args``'s order: mode, widths, then
    the mesh axes, then the values); ``pads_begin``/``pads_end`` are the halo widths."""
    ndim = x.ndim
    mode = parse_modes(fn_name, mode, ndim)
    halo_begin = _halo_widths(fn_name, "halo_begin", halo_begin, ndim)
    halo_end = _halo_widths(fn_name, "halo_end", halo_end, ndim)
    names = _axis_names(fn_name, axis_names, ndim)
    _check_local_modes(fn_name, mode, x.shape, names, halo_begin, halo_end)
    value, face_values = split_faces(fn_name, pad_value, mode, x.shape, x.dtype)
    if not face_values and is_one_mode_pad(mode, value):
        _checks.pad_value_operand(fn_name, value, mode, x.dtype)  # each piece converts it
    else:
        value = values_operand(fn_name, value, mode, ndim, x.dtype)
        mode = PadMode(mode, ndim).sides
        check_dtype(fn_name, mode, x.dtype)
    return PadArgs(
        in_shape=tuple(x.shape),
        pads_begin=halo_begin,
        pads_end=halo_end,
        interior=(0,) * ndim,
        mode=mode,
        crop=None,
        out_shape=tuple(lo + n + hi for lo, n, hi in zip(halo_begin, x.shape, halo_end)),
        faces=tuple(sorted(face_values)),
        axis_names=names,
        fn_name=fn_name,
        value=value,
        face_values=face_values or None,
    )


def _check_local_modes(fn_name: str, mode: str | Sides, shape, names, begin, end) -> None:
    """Refuses the sides that a block split over a mesh axis cannot pad from itself:
    ``line`` reads both ends of the axis, ``smooth`` its first or last two elements."""
    for axis, pair in enumerate(PadMode(mode, len(shape)).sides):
        if names[axis] is None or not (begin[axis] or end[axis]):
            continue
        if "line" in pair:
            raise ValueError(
                f"{fn_name}: mode 'line' on axis {axis}, which axis_names splits over "
                f"{names[axis]}: the line runs through both ends of the whole axis, and "
                "a block holds one end at most. Pad that axis before splitting it."
            )
        if "smooth" in pair and shape[axis] < 2:
            raise ValueError(
                f"{fn_name}: mode 'smooth' on axis {axis} extrapolates the slope of the "
                f"edge block's two outermost elements; the blocks along that axis hold "
                f"x.shape[{axis}]={shape[axis]}. Split it into blocks of at least 2."
            )


def derived_halo(args: PadArgs, x: Any, halo_begin, halo_end, mode: str | Sides) -> PadArgs:
    """A halo pad of ``x`` (a face array of ``args``' pad) over the same mesh axes, with
    no value: described without checking again."""
    return dataclasses.replace(
        args,
        in_shape=tuple(x.shape),
        pads_begin=tuple(halo_begin),
        pads_end=tuple(halo_end),
        mode=_normal_modes(mode, x.ndim),
        out_shape=tuple(lo + n + hi for lo, n, hi in zip(halo_begin, x.shape, halo_end)),
        faces=(),
        value=None,
        face_values=None,
    )


def _halo_widths(fn_name: str, arg: str, value, ndim: int) -> tuple[int, ...]:
    widths = _checks.static_int_tuple(fn_name, arg, value)
    _checks.check_length(fn_name, arg, widths, ndim)
    _checks.check_non_negative(fn_name, arg, widths)
    return widths


def _axis_names(fn_name: str, axis_names, ndim: int) -> tuple[tuple[str, ...] | None, ...]:
    """One tuple of mesh axis names (or None) per axis of x."""
    if isinstance(axis_names, (str, bytes)) or not isinstance(axis_names, Sequence):
        raise TypeError(
            f"{fn_name}: axis_names must be a sequence with one entry per axis of x (a mesh "
            f"axis name, a tuple of names, or None); got {axis_names!r}."
        )
    names: list[tuple[str, ...] | None] = []
    for axis, entry in enumerate(axis_names):
        if entry is None:
            names.append(None)
            continue
        entry_names = entry if isinstance(entry, tuple) else (entry,)
        if not entry_names or not all(isinstance(n, str) for n in entry_names):
            raise TypeError(
                f"{fn_name}: axis_names[{axis}] must be a mesh axis name (str), a non-empty "
                f"tuple of names, or None; got {entry!r}."
            )
        names.append(entry_names)
    _checks.check_length(fn_name, "axis_names", tuple(axis_names), ndim)
    used = [n for entry in names if entry for n in entry]
    repeated = sorted({n for n in used if used.count(n) > 1})
    if repeated:
        raise ValueError(
            f"{fn_name}: axis_names names mesh axis {repeated[0]!r} more than once; a mesh "
            f"axis splits one axis of x. Got axis_names={tuple(axis_names)!r}."
        )
    return tuple(names)


def mode_and_value(fn_name: str, mode: str | Sides, value: Any, ndim: int, dtype):
    """The primitive's ``mode`` and value operand for a parsed mode and a value whose
    face arrays ``split_faces`` took out: one mode with a scalar, else per side."""
    if is_one_mode_pad(mode, value):
        return mode, _checks.pad_value_operand(fn_name, value, mode, dtype)
    operand = values_operand(fn_name, value, mode, ndim, dtype)
    mode = PadMode(mode, ndim).sides  # per-side values with one mode: per side too
    check_dtype(fn_name, mode, dtype)
    if operand is None:
        operand = np.zeros((ndim, 2), dtype)
    return mode, operand


def _crop_first(fn_name: str, shape, pads_begin, pads_end, interior):
    """``crop_first``'s slice of ``x`` (``(starts, limits)``) and the pads that remain."""
    _checks.check_length(fn_name, "pads_begin", pads_begin, len(shape))
    _checks.check_length(fn_name, "pads_end", pads_end, len(shape))
    if any(interior):
        raise ValueError(
            f"{fn_name}: crop_first=True needs interior of 0 (crop the original or the "
            f"dilated elements?); got interior={interior}."
        )
    starts, limits = [], []
    for axis, (n, lo, hi) in enumerate(zip(shape, pads_begin, pads_end)):
        crop_lo, crop_hi = max(-lo, 0), max(-hi, 0)
        if crop_lo + crop_hi > n:
            raise ValueError(
                f"{fn_name}: crop_first=True crops {crop_lo + crop_hi} elements from axis "
                f"{axis} of size {n}: pads_begin[{axis}]={lo}, pads_end[{axis}]={hi}."
            )
        starts.append(crop_lo)
        limits.append(n - crop_hi)
    remaining = tuple(max(lo, 0) for lo in pads_begin), tuple(max(hi, 0) for hi in pads_end)
    return (tuple(starts), tuple(limits)), *remaining


def padded_shape(fn_name, shape, pads_begin, pads_end, interior, mode):
    """Validates a pad configuration against ``shape`` and returns the output shape."""
    ndim = len(shape)
    _checks.check_length(fn_name, "pads_begin", pads_begin, ndim)
    _checks.check_length(fn_name, "pads_end", pads_end, ndim)
    _checks.check_length(fn_name, "interior", interior, ndim)
    _checks.check_non_negative(fn_name, "interior", interior)
    if mode != "constant" and any(interior):
        raise ValueError(
            f"{fn_name}: interior padding needs mode='constant' and a scalar pad_value; "
            f"got interior={interior} with mode={describe_modes(mode)}."
        )
    view = PadMode(mode, ndim)
    if view.single is None:
        _checks.check_length(fn_name, "mode", mode, ndim)
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
        try:
            negative = size < 0
        except InconclusiveDimensionOperation:
            raise ValueError(
                f"{fn_name}: the output size {size} on axis {axis} may be negative for some "
                f"x.shape[{axis}]={n}: add the constraint '{size} >= 0' to "
                "jax.export.symbolic_shape, or crop less."
            ) from None
        if negative:
            raise ValueError(
                f"{fn_name}: the output would have negative size {size} on axis {axis}: "
                f"pads_begin[{axis}]={lo}, x.shape[{axis}]={n}, pads_end[{axis}]={hi}."
            )
        reading = [m for m, pad in zip(view.sides[axis], (lo, hi)) if m != "constant" and pad > 0]
        if reading and n == 0 and size > 0:
            shown = repr(mode) if view.single else f"{reading[0]!r} on axis {axis}"
            raise ValueError(
                f"{fn_name}: mode={shown} cannot fill axis {axis} of x.shape="
                f"{tuple(shape)}: it is empty and the output is not (size {size}); "
                "only mode='constant' can pad an empty axis."
            )
        out_shape.append(size)
    return tuple(out_shape)
