"""Argument normalisation shared by jaxpad's public functions.

Every check runs at trace time and raises ``TypeError`` (wrong type or dtype) or
``ValueError`` (wrong shape or value) with a message that starts with the public
function's name, names the argument and shows what was received.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, cast

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad import _index_maps
from jaxpad._compat import InconclusiveDimensionOperation

# XLA's shapes and pad configurations are int64: a static integer outside this range
# cannot be lowered (MLIR fails with "incompatible function arguments").
INT64_RANGE = (-(2**63), 2**63 - 1)


def describe(value: object) -> str:
    if isinstance(value, jax.core.Tracer):
        return f"a traced array of shape {value.shape} and dtype {value.dtype}"
    if isinstance(value, (np.ndarray, jax.Array)):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return repr(value)


def static_int_tuple(
    fn_name: str,
    arg_name: str,
    value: object,
    *,
    traced_hint: str = "",
    allow_symbolic: bool = False,
) -> tuple[int, ...]:
    """Turns a sequence or 1-D concrete integer array into a tuple of Python ints.

    Python bools, floats and non-integer arrays are rejected: silently truncating a
    float pad width would give a wrong answer with no error. With ``allow_symbolic``
    an entry may also be a symbolic dimension (``jax.export``), kept as it is.
    """
    if isinstance(value, jax.core.Tracer):
        raise TypeError(
            f"{fn_name}: {arg_name} must be static (Python ints or a concrete array); "
            f"got {describe(value)}.{traced_hint}"
        )
    if isinstance(value, (np.ndarray, jax.Array, np.generic)):
        array = np.asarray(value)
        if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
            raise TypeError(
                f"{fn_name}: {arg_name} must have an integer dtype; got {describe(value)}."
            )
        if array.ndim != 1:
            raise ValueError(
                f"{fn_name}: {arg_name} must be 1-D with one entry per axis; got {describe(value)}."
            )
        return tuple(_in_int64(fn_name, f"{arg_name}[{i}]", int(v)) for i, v in enumerate(array))
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(
            f"{fn_name}: {arg_name} must be a sequence of ints with one entry per axis; "
            f"got {value!r}."
        )
    return tuple(
        static_int(
            fn_name, f"{arg_name}[{i}]", v, traced_hint=traced_hint, allow_symbolic=allow_symbolic
        )
        for i, v in enumerate(value)
    )


def static_int(
    fn_name: str,
    arg_name: str,
    value: Any,
    *,
    traced_hint: str = "",
    allow_symbolic: bool = False,
) -> int:
    """One static integer: a Python int, a NumPy integer or a concrete 0-d int array.

    With ``allow_symbolic`` a symbolic dimension (``x.shape[0]`` of an input exported
    with ``jax.export.symbolic_shape``) is returned as it is: it is static, but its
    value is known only when the exported function is called. Callers that opt in
    check its sign themselves (``check_non_negative``).
    """
    if allow_symbolic and jax.export.is_symbolic_dim(value):
        return cast(int, value)  # a symbolic dimension stands for an int
    if isinstance(value, jax.core.Tracer):
        raise TypeError(
            f"{fn_name}: {arg_name} must be static; got {describe(value)}.{traced_hint}"
        )
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn_name}: {arg_name} must be an int, not a bool; got {value!r}.")
    if isinstance(value, (np.ndarray, jax.Array)):
        if value.ndim != 0 or not np.issubdtype(value.dtype, np.integer):
            raise TypeError(
                f"{fn_name}: {arg_name} must be an integer scalar; got {describe(value)}."
            )
        return _in_int64(fn_name, arg_name, int(value))
    try:
        integer = operator.index(value)
    except TypeError:
        raise TypeError(f"{fn_name}: {arg_name} must be an int; got {value!r}.") from None
    return _in_int64(fn_name, arg_name, integer)


def _in_int64(fn_name: str, arg_name: str, value: int) -> int:
    low, high = INT64_RANGE
    if not low <= value <= high:
        raise ValueError(
            f"{fn_name}: {arg_name} must fit in int64 [-2**63, 2**63 - 1]; got {value}."
        )
    return value


def check_non_negative(fn_name: str, arg_name: str, values: tuple) -> None:
    """Rejects negative entries; a symbolic entry must be non-negative by its constraints."""
    for i, value in enumerate(values):
        try:
            negative = value < 0
        except InconclusiveDimensionOperation:
            raise ValueError(
                f"{fn_name}: {arg_name}[{i}]={value} may be negative: add the constraint "
                f"'{value} >= 0' to jax.export.symbolic_shape; got {arg_name}={values}."
            ) from None
        if negative:
            raise ValueError(f"{fn_name}: {arg_name} must be non-negative; got {values}.")


def check_dim_size(fn_name: str, axis: int, size: int, detail: str) -> int:
    """Rejects an output dimension that overflows int64 (``detail`` says how it arose).

    Symbolic dimensions (``jax.export``) are left to JAX, which bounds them itself.
    """
    if isinstance(size, int) and size > INT64_RANGE[1]:
        raise ValueError(
            f"{fn_name}: the output would have {size} elements on axis {axis}, more than "
            f"int64 can index: {detail}."
        )
    return size


# The sampling functions (``jaxpad.scipy.ndimage``'s interpolation, ``grid_sample``)
# compute each axis's taps in int32, which XLA:CPU vectorizes: a coordinate's whole
# part below ``_once.SMALL`` (2**30) and a tap's reflections (up to three periods of
# 2n) stay within int32 on axes up to this many samples.
MAX_SAMPLED_AXIS = 2**28
# Where the coordinates are float32, the comparisons with ``n - 1`` and the clips to
# ``n - 1 + reach`` (reach below 64) need those integers exact: float32 holds every
# integer up to 2**24. Past it a coordinate at the last sample compared as inside
# and read past the axis (``tests/test_long_axes.py``).
MAX_SAMPLED_AXIS_FLOAT32 = 2**24 - 64


def check_sampled_axes(fn_name: str, arg_name: str, shape, axes, real=None) -> None:
    """Rejects an axis of ``shape`` (among ``axes``) too long for int32 taps, or with
    ``real`` float32, for exact float32 coordinate arithmetic."""
    in_float32 = real is not None and np.finfo(real).bits < 64
    limit = MAX_SAMPLED_AXIS_FLOAT32 if in_float32 else MAX_SAMPLED_AXIS
    for axis in axes:
        size = shape[axis]
        if not is_static(size) or size <= limit:
            continue
        if size <= MAX_SAMPLED_AXIS:
            raise ValueError(
                f"{fn_name}: axis {axis} of {arg_name} has {size} samples; float32 "
                f"coordinates are computed exactly on axes of at most 2**24 - 64 = {limit} "
                "samples. Use float64 (jax.config.update('jax_enable_x64', True) and a "
                f"float64 {arg_name} or coordinates) for axes up to 2**28 = "
                f"{MAX_SAMPLED_AXIS} samples."
            )
        raise ValueError(
            f"{fn_name}: axis {axis} of {arg_name} has {size} samples; the sampling "
            f"functions read axes of at most 2**28 = {MAX_SAMPLED_AXIS} samples (their "
            "taps are int32)."
        )


def is_static(size) -> bool:
    """Whether a dimension size is a concrete int (not a symbolic ``jax.export`` one)."""
    return isinstance(size, (int, np.integer))


def check_length(fn_name: str, arg_name: str, values, ndim: int, axes: str | None = None) -> None:
    """The one "one entry per axis" check; ``axes`` names the axes counted when they
    are not all of x's (``"axis (2)"`` for a policy's spatial axes)."""
    if len(values) != ndim:
        counted = f"axis of x (x.ndim={ndim})" if axes is None else axes
        shown = describe(values) if isinstance(values, (np.ndarray, jax.Array)) else repr(values)
        raise ValueError(
            f"{fn_name}: {arg_name} needs one entry per {counted}; got {len(values)}: {shown}."
        )


def check_mode(fn_name: str, mode: object, modes: Sequence[str], arg_name: str = "mode") -> str:
    """A jaxpad pad mode; other frameworks' spellings are pointed to jaxpad.modes."""
    if isinstance(mode, str) and mode in modes:
        return mode
    options = ", ".join(repr(m) for m in modes)
    raise ValueError(
        f"{fn_name}: {arg_name} must be one of {options}; got {mode!r}. Other frameworks' names "
        "translate with jaxpad.modes (from_torch, from_tensorflow, from_scipy, from_opencv, "
        "from_onnx, from_numpy)."
    )


def check_choice(fn_name: str, arg_name: str, value: object, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{fn_name}: {arg_name} must be one of {options}; got {value!r}.")
    return value


# The pad modes are defined with their index maps (_index_maps.MODES).
MODES = _index_maps.MODES


def pad_value_operand(
    fn_name: str,
    pad_value: Any,
    mode: str,
    dtype,
    *,
    arg_name: str = "pad_value",
    input_name: str = "x",
):
    """The pad value as a scalar of ``dtype``; a zero for modes that never read it.

    ``arg_name`` and ``input_name`` are the caller's names for the value and the padded
    array (``constant_values`` and ``array`` for ``jaxpad.numpy.pad``). A traced scalar
    is accepted: the pad value is an operand, not a static argument.
    """
    if mode != "constant":
        if pad_value is not None:
            raise ValueError(
                f"{fn_name}: {arg_name} is only used by mode='constant'; got {arg_name}="
                f"{describe(pad_value)} with mode={mode!r}."
            )
        return np.zeros((), dtype)
    if pad_value is None:
        return np.zeros((), dtype)
    if isinstance(pad_value, (str, bytes)):
        raise TypeError(f"{fn_name}: {arg_name} must be a number; got {pad_value!r}.")
    if np.ndim(pad_value) != 0:
        raise ValueError(
            f"{fn_name}: {arg_name} must be a scalar; got shape {np.shape(pad_value)}."
        )
    try:
        value = jnp.asarray(pad_value)
    except TypeError:
        value = None
    if value is None or not (value.dtype == np.bool_ or jnp.issubdtype(value.dtype, jnp.number)):
        raise TypeError(f"{fn_name}: {arg_name} must be a number; got {describe(pad_value)}.")
    if jnp.issubdtype(value.dtype, jnp.complexfloating) and not jnp.issubdtype(
        dtype, jnp.complexfloating
    ):
        raise TypeError(
            f"{fn_name}: a complex {arg_name} would lose its imaginary part in {input_name}'s "
            f"dtype {np.dtype(dtype)}; got {describe(value)}."
        )
    return lax.convert_element_type(value, dtype)


def check_integer_dtype(fn_name: str, arg_name: str, value) -> None:
    """Rejects an array (or tracer) whose dtype is not an integer one (bool included)."""
    dtype = value.dtype
    if dtype == np.bool_ or not jnp.issubdtype(dtype, jnp.integer):
        raise TypeError(f"{fn_name}: {arg_name} must have an integer dtype; got {describe(value)}.")


def check_max_pad(fn_name, max_pad, pads_begin, ndim):
    """``max_pad`` as one non-negative int or None per axis; a static pad past it is
    an error here, at trace time."""
    if max_pad is None:
        return (None,) * ndim
    if isinstance(max_pad, (bool, np.bool_)):
        raise TypeError(
            f"{fn_name}: max_pad must be None, an int, or one int or None per "
            f"axis of x; got {max_pad!r}."
        )
    if isinstance(max_pad, (int, np.integer)):
        entries = (max_pad,) * ndim
    elif isinstance(max_pad, (str, bytes)) or not isinstance(max_pad, Sequence):
        raise TypeError(
            f"{fn_name}: max_pad must be None, an int, or one int or None per "
            f"axis of x; got {max_pad!r}."
        )
    else:
        entries = tuple(max_pad)
        check_length(fn_name, "max_pad", max_pad, ndim)
    bounds = []
    for axis, entry in enumerate(entries):
        if entry is None:
            bounds.append(None)
            continue
        if isinstance(entry, jax.core.Tracer):
            raise TypeError(
                f"{fn_name}: max_pad[{axis}] must be a static int (it sizes the "
                f"halo each device receives); got a traced value of dtype {entry.dtype}."
            )
        if isinstance(entry, (bool, np.bool_)) or not isinstance(entry, (int, np.integer)):
            raise TypeError(f"{fn_name}: max_pad[{axis}] must be an int or None; got {entry!r}.")
        if entry < 0:
            raise ValueError(
                f"{fn_name}: max_pad[{axis}] bounds |pads_begin[{axis}]| and "
                f"must be non-negative; got {int(entry)}."
            )
        bounds.append(int(entry))
    for axis, pad in enumerate(static_entries(pads_begin, ndim)):
        if pad is not None and bounds[axis] is not None and abs(pad) > bounds[axis]:
            raise ValueError(
                f"{fn_name}: pads_begin[{axis}]={pad} exceeds max_pad[{axis}]="
                f"{bounds[axis]}; |pads_begin| must not exceed max_pad."
            )
    return tuple(bounds)


def static_entries(pads_begin, ndim):
    """The entries of ``pads_begin`` known at trace time (None for traced ones)."""
    if isinstance(pads_begin, jax.core.Tracer):
        return (None,) * ndim
    if isinstance(pads_begin, (np.ndarray, jax.Array, np.generic)):
        values = np.asarray(pads_begin).reshape(-1)
        return tuple(int(v) for v in values) if values.shape == (ndim,) else (None,) * ndim
    if isinstance(pads_begin, Sequence) and not isinstance(pads_begin, (str, bytes)):
        return tuple(
            int(v) if isinstance(v, (int, np.integer)) and not isinstance(v, bool) else None
            for v in pads_begin
        )
    return (None,) * ndim
