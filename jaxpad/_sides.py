"""Per-axis and per-side boundary modes: parsing ``mode`` and ``pad_value``.

A mode per side is either one of ``MODES`` for every side (the primitives' string
``mode``, planned by ``_lowering``) or a tuple with one ``(begin, end)`` pair per axis.
Every side mode is linear in ``(x, pad_value)``, so a pad is ``L(x) + V(pad_value)``;
the primitive computes both, the values being its ``(ndim, 2)`` operand. This module
checks and normalises what the user passed (modes, scalar values, per-side values,
face arrays); the formula and every graph built from it live in ``_lowering._sided``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, TypeGuard

import jax
import jax.numpy as jnp
import numpy as np

from jaxpad import _checks
from jaxpad._index_maps import (
    ARITHMETIC_MODES,
    MODES,
    SIDE_MODES,
    VALUE_MODES,
)
from jaxpad._lowering import Faces, Sides


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
