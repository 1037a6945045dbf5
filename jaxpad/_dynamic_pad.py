"""``jaxpad.dynamic_pad``: padding by amounts known only at run time.

``dynamic_pad`` is to ``pad`` what ``lax.dynamic_slice`` is to ``lax.slice``: the
output shape is static and ``pads_begin`` is an operand, so it may be traced and may
differ per example under ``vmap``. Laid out as ``_pad.py``: the public function, then
the shape rule, JVP, transpose and batching of ``dynamic_pad_p``, the same for its
transpose ``dynamic_fold_p``, and the registration block; both lower through
``_lowering``.

Batched pads are native: the primitives accept ``pads_begin`` with leading axes that
match leading (unpadded) axes of the operand, one pad config per example, and lower
to a gather with batching dimensions. Nothing is unrolled per example.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, xla
from jax.typing import ArrayLike

from jaxpad import _args, _checks, _lowering
from jaxpad._compat import InconclusiveDimensionOperation, zero_tangent
from jaxpad._index_maps import reduced_pad
from jaxpad._lowering import (
    active_axes,
    copied_mask,
    dynamic_fold_lowering,
    dynamic_pad_lowering,
    int32_indexes,
    normalized_pads,
    plan_dynamic_fold,
    register_lowering,
)
from jaxpad._pad import padded
from jaxpad._sharded_pad import (
    check_long_split_axes,
    partitioned_dynamic_fold_lowering,
    partitioned_dynamic_pad_lowering,
    request_devices,
    wants_devices,
)
from jaxpad._sharding import match_sharding, match_varying, same_axes_sharding
from jaxpad._typing import DynamicPads, Modes, PadValue

_FN = "jaxpad.dynamic_pad"


def dynamic_pad(
    x: ArrayLike,
    pads_begin: DynamicPads,
    shape: Sequence[int],
    mode: Modes = "constant",
    pad_value: PadValue | None = None,
    *,
    max_pad: int | Sequence[int | None] | None = None,
) -> jax.Array:
    """Pads ``x`` into a static ``shape`` by ``pads_begin`` that may be traced.

    Output position ``i`` of axis ``d`` reads ``x[m(i - pads_begin[d])]``, the index
    rule of :func:`jaxpad.pad`; the end padding ``shape[d] - x.shape[d] -
    pads_begin[d]`` is implied and may have either sign. Any offset is valid: in
    constant mode an offset that moves ``x`` out of view gives pad values. Under
    ``vmap`` with ``pads_begin`` batched, every example gets its own pads.

    Args:
      x: the array to pad; any numeric dtype or bool.
      pads_begin: one integer per axis of ``x``: an array of any integer dtype
        (possibly traced), or a sequence whose entries are ints or traced integer
        scalars. Every value of the dtype is valid, its minimum and maximum
        included: the pad is first reduced to an equivalent one (modulo the period,
        or clamped just past the axis) in a dtype where nothing overflows, so eager,
        ``jit`` and ``vmap`` agree. Entries given as Python ints (within int64) are
        static, and an axis with a static 0 and unchanged size costs nothing.
      shape: the static output shape, one non-negative int per axis. Under
        ``jax.export`` an entry may be a symbolic dimension (``x.shape[0]`` of a
        symbolic input); a symbolic axis that is padded needs constraints that
        decide its lowering, and the error names the constraint to add.
      mode: as for :func:`jaxpad.pad`: one mode for every side, or one entry per
        axis, each a mode or a ``(begin, end)`` pair. With traced pads, modes that
        differ between the sides of an axis, and the odd and dirichlet modes, run as
        a gather per axis differentiated by JAX (a scatter-add gradient); static
        pads take the static primitive and its fold.
      pad_value: as for :func:`jaxpad.pad`: read by ``"constant"`` and
        ``"dirichlet"`` sides; a scalar or an ``(x.ndim, 2)`` array.
      max_pad: a static bound on ``|pads_begin|``: None (no bound), one non-negative
        int for every axis, or one int or None per axis. Only sharded programs use
        it: along an axis split over devices, each device then receives a halo of
        ``max_pad`` rows from its neighbours instead of the whole axis
        (docs/sharding.md). A static pad past its bound raises ``ValueError``; a
        traced one past it at run time still gives the right result, by gathering
        the axis (a branch taken only then). Periodic modes compare the offset
        nearest 0 that is equivalent modulo the period. With traced pads and
        per-side or odd modes it is refused (that path plans no halo).

    Returns:
      An array of ``shape`` and ``x.dtype``. For concrete ``pads_begin`` it equals
      ``jaxpad.pad(x, pads_begin, [s - n - b ...], mode, pad_value)``.

    Example:
      >>> import jax, jax.numpy as jnp, jaxpad
      >>> rows = jnp.array([[1, 2, 3], [4, 5, 6]])
      >>> shifts = jnp.array([[1], [-1]])
      >>> jax.vmap(lambda r, s: jaxpad.dynamic_pad(r, s, (3,), mode="wrap"))(rows, shifts)
      Array([[3, 1, 2],
             [5, 6, 4]], dtype=int32)
    """
    x = jnp.asarray(x)
    x, args = _describe(x, pads_begin, shape, mode, pad_value, max_pad)
    if args.per_side:
        return _sided(x, args)
    x, value, pads = match_varying(x, args.value, args.pads)
    value = request_devices(x, value)
    return dynamic_pad_p.bind(
        x,
        value,
        pads,
        shape=args.shape,
        mode=args.mode,
        static_pads=args.static_pads,
        max_pad=args.max_pad,
    )


def _describe(x: jax.Array, pads_begin, shape, mode, pad_value, max_pad):
    """``dynamic_pad``'s arguments checked once, in one pass, into an
    ``_args.DynamicPadArgs``; returned with ``x``, whose static pads on axes too long
    for int32 indices are already padded (``_long_static_axes_first``)."""
    ndim = x.ndim
    mode = _args.parse_modes(_FN, mode, ndim)
    # Told apart below (_args.split_faces): a scalar, an array or pairs per axis.
    value: Any = pad_value
    shape = _checks.static_int_tuple(_FN, "shape", shape, allow_symbolic=True)
    _checks.check_length(_FN, "shape", shape, ndim)
    _checks.check_non_negative(_FN, "shape", shape)
    if _args.has_faces(value, ndim) or not _args.is_one_mode_pad(mode, value):
        # Static pads past int32 take the traced path's composition too (``_sided``).
        in_graph = [
            traced or (static is not None and abs(static) > _INT32_MAX)
            for traced, static in zip(
                _traced_entries(pads_begin, ndim), _checks.static_entries(pads_begin, ndim)
            )
        ]
        _check_long_axes(x.shape, shape, in_graph)
        return x, _sided_args(x, pads_begin, shape, mode, value, max_pad)
    if wants_devices(x):
        traced = _traced_entries(pads_begin, ndim)
        static = [None] * ndim if any(traced) else _checks.static_entries(pads_begin, ndim)
        check_long_split_axes(_FN, x.shape, shape, static)
    x, pads_begin = _long_static_axes_first(x, pads_begin, shape, mode, value)
    _check_long_axes(x.shape, shape, _traced_entries(pads_begin, ndim))
    raw_pads = pads_begin
    pads, static_pads = _pads_operand(pads_begin, x.shape, shape, mode)
    max_pad = _checks.check_max_pad(_FN, max_pad, raw_pads, ndim)
    value = _checks.pad_value_operand(_FN, value, mode, x.dtype)
    return x, _args.DynamicPadArgs(
        in_shape=tuple(x.shape),
        shape=shape,
        mode=mode,
        per_side=False,
        static_pads=static_pads,
        max_pad=max_pad,
        fn_name=_FN,
        pads=pads,
        value=value,
    )


def _traced_entries(pads_begin, ndim) -> list[bool]:
    """Which entries of ``pads_begin`` are traced (unknown until run time)."""
    if isinstance(pads_begin, jax.core.Tracer):
        return [True] * ndim
    if isinstance(pads_begin, (np.ndarray, jax.Array, np.generic)) or not isinstance(
        pads_begin, Sequence
    ):
        return [False] * ndim
    return [isinstance(entry, jax.core.Tracer) for entry in pads_begin]


def _check_long_axes(x_shape, shape, traced) -> None:
    """Traced pads index their axis in-graph: in int64 where an axis is too long for
    int32 (``_lowering.int32_indexes``), which needs JAX's 64-bit types."""
    if jax.config.read("jax_enable_x64"):
        return
    for axis, (n, size, is_traced) in enumerate(zip(x_shape, shape, traced)):
        if is_traced and not int32_indexes(n, size):
            raise ValueError(
                f"{_FN}: axis {axis} of x has {n} elements (padded to {size}); a traced pad "
                f"on an axis that long is computed with 64-bit indices (size + 4 * "
                f"x.shape[{axis}] exceeds 2**31 - 1), which need "
                "jax.config.update('jax_enable_x64', True). Enable it, or pass that "
                "axis's pad as a Python int."
            )


def _long_static_axes_first(
    x: jax.Array, pads_begin, shape, mode, pad_value
) -> tuple[jax.Array, Any]:
    """Static pads on axes too long for int32 indices, as the static pad first (its
    forms there are slices and concatenates: no index at all); the rest is padded by
    the primitive with those axes left alone. One mode for every side reads alike
    whatever the order of the axes."""
    if isinstance(pads_begin, jax.core.Tracer) or not all(map(_checks.is_static, x.shape + shape)):
        return x, pads_begin
    if isinstance(pads_begin, (np.ndarray, jax.Array, np.generic)):
        if np.shape(pads_begin) != (x.ndim,):
            return x, pads_begin  # _pads_operand says what is wrong
        entries = [int(entry) for entry in np.asarray(pads_begin)]
    elif isinstance(pads_begin, Sequence) and len(pads_begin) == x.ndim:
        entries = list(pads_begin)
    else:
        return x, pads_begin
    long_axes = [
        axis
        for axis, (n, size, entry) in enumerate(zip(x.shape, shape, entries))
        if isinstance(entry, (int, np.integer)) and not int32_indexes(n, size)
    ]
    if not long_axes:
        return x, pads_begin
    begins, ends = [0] * x.ndim, [0] * x.ndim
    for axis in long_axes:
        n, size = x.shape[axis], shape[axis]
        begins[axis] = reduced_pad(mode, n, size, int(entries[axis]))
        ends[axis] = size - n - begins[axis]
        entries[axis] = 0
    return padded(x, _args.derived(_FN, x, begins, ends, mode, pad_value)), entries


def _sided_args(x, pads_begin, shape, mode, pad_value, max_pad) -> _args.DynamicPadArgs:
    """The checks of per-side modes, odd modes, or per-side values (``_sided``)."""
    pad_value, faces = _args.split_faces(_FN, pad_value, mode, x.shape, x.dtype)
    values = _args.values_operand(_FN, pad_value, mode, x.ndim, x.dtype)
    mode = _args.PadMode(mode, x.ndim).sides
    _args.check_dtype(_FN, mode, x.dtype)
    for axis, n in enumerate(x.shape):
        if not (_checks.is_static(n) and _checks.is_static(shape[axis])):
            raise ValueError(
                f"{_FN}: axis {axis} has the symbolic size {n}; per-side and odd modes need "
                "concrete sizes. Give that axis a concrete size, or one mode for every side."
            )
    # Validates pads_begin as the primitive's path does; its reduced form is not used.
    _pads_operand(pads_begin, x.shape, shape, "constant")
    # Static pads past the bound are refused here, as on the primitive's path.
    max_pad = _checks.check_max_pad(_FN, max_pad, pads_begin, x.ndim)
    if isinstance(pads_begin, (np.ndarray, jax.Array, np.generic)):
        array: Any = pads_begin  # 1-D here (_pads_operand checked it)
        entries = [array[axis] for axis in range(x.ndim)]
        if not isinstance(pads_begin, jax.core.Tracer):
            entries = [int(entry) for entry in np.asarray(pads_begin)]
    else:
        entries = [
            entry if isinstance(entry, jax.core.Tracer) else operator.index(entry)
            for entry in pads_begin
        ]
    static = all(isinstance(entry, int) and abs(entry) <= _INT32_MAX for entry in entries)
    if not static and any(bound is not None for bound in max_pad):
        raise ValueError(
            f"{_FN}: max_pad plans halos for one mode per axis; with traced pads and "
            f"mode={_args.describe_modes(mode)} it would be ignored. Pass the pads as "
            "Python ints, or leave max_pad out."
        )
    return _args.DynamicPadArgs(
        in_shape=tuple(x.shape),
        shape=shape,
        mode=mode,
        per_side=True,
        static_pads=tuple(entry if isinstance(entry, int) else None for entry in entries),
        max_pad=max_pad,
        faces=tuple(sorted(faces)),
        fn_name=_FN,
        pads=tuple(entries),
        value=values,
        face_values=faces or None,
    )


def _sided(x, args: _args.DynamicPadArgs):
    """Per-side modes, odd modes, or per-side values: static pads take the static
    primitive; traced ones the composition of ``_lowering.dynamic_sided_pad``."""
    entries, shape, mode = list(args.pads), args.shape, args.sides
    # Static pads take the static primitive, and its fold. Beyond int32 they take the
    # composition, which reduces them (the ends would leave int64 at the extremes).
    if all(isinstance(entry, int) and abs(entry) <= _INT32_MAX for entry in entries):
        ends = [size - n - entry for n, size, entry in zip(x.shape, shape, entries)]
        if args.face_values:
            faces = args.face_values
            return padded(x, _args.derived_sides(_FN, x, entries, ends, mode, args.value, faces))
        return padded(x, _args.derived(_FN, x, entries, ends, mode, args.value))
    out = _lowering.dynamic_sided_pad(x, entries, shape, mode, args.value)
    if args.face_values:
        out = _lowering.add_dynamic_faces(out, args.face_values, mode, x.shape, entries, shape)
    return out


def _pads_operand(value, x_shape, shape, mode):
    """The pads as one integer operand, and which of its entries are static.

    Static entries are reduced to an equivalent pad in a small range
    (``reduced_pad``): any offset is valid, and the reduced one fits int32. On an
    axis of symbolic size (``jax.export``) that pads, a static entry is passed as an
    operand entry instead: its reduction and its index table need the axis size,
    known only when the exported function runs (the traced path computes both then).
    """
    ndim = len(x_shape)
    reduce = [
        partial(_symbolic_entry, mode, n, size, i)
        if not (_checks.is_static(n) and _checks.is_static(size))
        else partial(reduced_pad, mode, n, size)
        for i, (n, size) in enumerate(zip(x_shape, shape))
    ]
    if isinstance(value, (np.ndarray, jax.Array, np.generic)):
        _checks.check_integer_dtype(_FN, "pads_begin", value)
        if value.ndim != 1:
            raise ValueError(
                f"{_FN}: pads_begin must be 1-D with one entry per axis; "
                f"got {_checks.describe(value)}."
            )
        _checks.check_length(_FN, "pads_begin", value, ndim)
        if isinstance(value, jax.core.Tracer):
            if mode == "reflect":
                for axis, n in enumerate(x_shape):
                    if not _checks.is_static(n):
                        _check_reflect_axis(n, axis)
            return value, (None,) * ndim
        return _stack_entries([r(int(v)) for r, v in zip(reduce, np.asarray(value))])
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(
            f"{_FN}: pads_begin must be an integer array or a sequence with one entry "
            f"per axis; got {value!r}."
        )
    _checks.check_length(_FN, "pads_begin", value, ndim)
    reduced = []
    for i, entry in enumerate(value):
        if isinstance(entry, jax.core.Tracer):
            _checks.check_integer_dtype(_FN, f"pads_begin[{i}]", entry)
            if entry.ndim != 0:
                raise ValueError(
                    f"{_FN}: pads_begin[{i}] must be a scalar; got {_checks.describe(entry)}."
                )
            # Reduced one by one, entries of different integer dtypes stack as int32
            # without the lossy promotions of mixed dtypes (int64 with uint64).
            if mode == "reflect" and not _checks.is_static(x_shape[i]):
                _check_reflect_axis(x_shape[i], i)
            reduced.append((normalized_pads(entry, mode, x_shape[i], shape[i]), None))
        else:
            reduced.append(reduce[i](_checks.static_int(_FN, f"pads_begin[{i}]", entry)))
    return _stack_entries(reduced)


def _check_reflect_axis(n, axis):
    """Reflection needs two elements (its period is ``2 * (n - 1)``): say so for a
    symbolic axis whose constraints do not."""
    try:
        long_enough = n >= 2
    except InconclusiveDimensionOperation:
        long_enough = False
    if not long_enough:
        raise ValueError(
            f"{_FN}: mode='reflect' pads axis {axis} of symbolic size {n}, which may be 1 "
            f"(reflection needs 2 elements): add the constraint '{n} >= 2' to "
            "jax.export.symbolic_shape, or give that axis a concrete size."
        )


def _stack_entries(reduced):
    """The int32 operand and the static pads, from entries that are static ints or
    ``(operand entry, None)`` pairs (traced pads, and static ones on symbolic axes)."""
    entries, static = [], []
    for entry in reduced:
        if isinstance(entry, tuple):
            entries.append(entry[0])
            static.append(None)
        else:
            entries.append(jnp.asarray(entry, jnp.int32))
            static.append(entry)
    if not entries:
        return jnp.zeros((0,), jnp.int32), ()
    # int32, or int64 where a traced entry indexes an axis too long for int32.
    dtype = jnp.result_type(*entries)
    return jnp.stack([entry.astype(dtype) for entry in entries]), tuple(static)


_INT32_MAX = int(np.iinfo(np.int32).max)


def _symbolic_entry(mode, n, size, axis, pad):
    """A static pad on an axis of symbolic size: static if it is a 0 that keeps the
    size (the axis is left alone), else ``(int32 operand entry, None)``."""
    if pad == 0 and n == size:
        return 0
    if mode == "reflect" and not _checks.is_static(n):
        _check_reflect_axis(n, axis)
    if abs(pad) > _INT32_MAX:
        if mode not in ("constant", "edge"):
            raise ValueError(
                f"{_FN}: pads_begin[{axis}]={pad} on axis {axis} of symbolic size {n} must "
                f"fit int32 in mode={mode!r} (its remainder modulo the period is taken when "
                "the exported function runs); reduce it modulo the period first."
            )
        # Every pad past the axis reads alike; axis sizes are below 2**31.
        pad = max(min(pad, _INT32_MAX), -_INT32_MAX)
    return normalized_pads(jnp.asarray(pad, jnp.int32), mode, n, size), None


# Shape rule ---------------------------------------------------------------------


def _check_config(fn_name, x_shape, pads_begin, shape, mode):
    """Validates a (possibly batched) pad config; returns the number of batch axes."""
    num_batch = pads_begin.ndim - 1
    _checks.check_integer_dtype(_FN, "pads_begin", pads_begin)
    expected = tuple(x_shape[:num_batch]) + (len(x_shape) - num_batch,)
    if num_batch < 0 or tuple(pads_begin.shape) != expected:
        raise ValueError(
            f"{fn_name}: pads_begin has shape {pads_begin.shape}; an operand of shape "
            f"{tuple(x_shape)} needs {expected}."
        )
    if len(shape) != len(x_shape) or tuple(shape[:num_batch]) != tuple(x_shape[:num_batch]):
        raise ValueError(
            f"{fn_name}: shape {shape} does not fit an operand of shape {tuple(x_shape)}."
        )
    for axis, (n, size) in enumerate(zip(x_shape, shape)):
        if size < 0:
            raise ValueError(f"{fn_name}: shape must be non-negative; got {shape}.")
        if mode != "constant" and n == 0 and size > 0:
            raise ValueError(
                f"{fn_name}: mode={mode!r} cannot fill axis {axis} of x.shape="
                f"{tuple(x_shape)}: it is empty and the output is not (size {size}); "
                "only mode='constant' can pad an empty axis."
            )
    return num_batch


def _dynamic_pad_abstract_eval(x, pad_value, pads_begin, *, shape, mode, static_pads, max_pad=None):
    del max_pad
    num_batch = _check_config(_FN, x.shape, pads_begin, shape, mode)
    if len(static_pads) != x.ndim - num_batch:
        raise ValueError(f"{_FN}: static_pads {static_pads} does not match pads_begin.")
    if pad_value.dtype != x.dtype:
        raise TypeError(f"{_FN}: pad_value dtype {pad_value.dtype} differs from x dtype {x.dtype}.")
    if tuple(pad_value.shape) != tuple(x.shape[: pad_value.ndim]) or pad_value.ndim > num_batch:
        raise ValueError(
            f"{_FN}: pad_value must be a scalar (one per example when batched); "
            f"got shape {pad_value.shape}."
        )
    shape = tuple(shape)
    return x.update(shape=shape, dtype=x.dtype, sharding=same_axes_sharding(x, shape))


# JVP and transpose ---------------------------------------------------------------


def _dynamic_pad_jvp(primals, tangents, *, shape, mode, static_pads, max_pad=None):
    x, pad_value, pads_begin = primals
    x_dot, value_dot, _ = tangents
    params = dict(shape=shape, mode=mode, static_pads=static_pads, max_pad=max_pad)
    out = dynamic_pad_p.bind(x, pad_value, pads_begin, **params)
    if type(x_dot) is ad.Zero and type(value_dot) is ad.Zero:
        return out, zero_tangent(out)
    x_dot = ad.instantiate_zeros(x_dot)
    value_dot = ad.instantiate_zeros(value_dot)
    return out, dynamic_pad_p.bind(x_dot, value_dot, pads_begin, **params)


def _dynamic_pad_transpose(t, x, pad_value, pads_begin, *, shape, mode, static_pads, max_pad=None):
    if ad.is_undefined_primal(pads_begin):
        raise ValueError(f"{_FN}: pads_begin is an integer operand and has no cotangent.")
    need_x, need_value = ad.is_undefined_primal(x), ad.is_undefined_primal(pad_value)
    if type(t) is ad.Zero:
        return [
            ad.Zero(x.aval) if need_x else None,
            ad.Zero(pad_value.aval) if need_value else None,
            None,
        ]
    x_shape = x.aval.shape if need_x else x.shape
    t_x = t_value = None
    if need_x:
        t_x = dynamic_fold_p.bind(
            t,
            pads_begin,
            operand_shape=tuple(x_shape),
            mode=mode,
            static_pads=static_pads,
            max_pad=max_pad,
        )
        t_x = match_sharding(t_x, x.aval)
    if need_value:
        if mode == "constant":
            # Every position not copied from x holds the pad value.
            copied = copied_mask(pads_begin, x_shape, shape, static_pads)
            padded = lax.select(copied, jnp.zeros_like(t), t)
            t_value = padded.sum(axis=tuple(range(pad_value.aval.ndim, t.ndim)))
        else:
            t_value = ad.Zero(pad_value.aval)
    return [t_x, t_value, None]


# Batching -----------------------------------------------------------------------


def _batch_size(args, dims):
    return next(arg.shape[dim] for arg, dim in zip(args, dims) if dim is not None)


def _dynamic_pad_batch(args, dims, *, shape, mode, static_pads, max_pad=None):
    x, pad_value, pads_begin = args
    x_bdim, value_bdim, pads_bdim = dims
    size = _batch_size(args, dims)
    x = batching.bdim_at_front(x, x_bdim, size)
    # The examples become a batch axis of the primitive: each reads through its own
    # pads (broadcast when they are shared, which only costs a small table).
    pads_begin = batching.bdim_at_front(pads_begin, pads_bdim, size)
    if value_bdim is not None or pad_value.ndim:
        pad_value = batching.bdim_at_front(pad_value, value_bdim, size)
    out = dynamic_pad_p.bind(
        x,
        pad_value,
        pads_begin,
        shape=(size, *shape),
        mode=mode,
        static_pads=static_pads,
        max_pad=max_pad,
    )
    return out, 0


# The dynamic fold: dynamic_pad_p's transpose --------------------------------------
# Sums each output cotangent back onto its source element (_lowering.dynamic_fold_lowering).


def _dynamic_fold_abstract_eval(t, pads_begin, *, operand_shape, mode, static_pads, max_pad=None):
    del max_pad
    num_batch = _check_config("jaxpad.dynamic_fold", operand_shape, pads_begin, t.shape, mode)
    if not all(_checks.is_static(size) for size in (*operand_shape, *t.shape)):
        _check_symbolic_fold(operand_shape, t, static_pads, num_batch, mode)
    operand_shape = tuple(operand_shape)
    return t.update(
        shape=operand_shape, dtype=t.dtype, sharding=same_axes_sharding(t, operand_shape)
    )


def _check_symbolic_fold(operand_shape, t, static_pads, num_batch, mode):
    """The gradient of ``dynamic_pad`` on symbolic axes: an error at trace time,
    naming the axes, where the fold's lowering cannot be planned (rather than a
    comparison error from deep in the lowering)."""
    try:
        plan_dynamic_fold(operand_shape, t.shape, static_pads, num_batch, mode, t.dtype)
    except InconclusiveDimensionOperation as error:
        axes = [
            f"axis {d} (size {operand_shape[axis]}, padded to {t.shape[axis]})"
            for d, axis in active_axes(operand_shape, t.shape, static_pads, num_batch)
            if not (_checks.is_static(operand_shape[axis]) and _checks.is_static(t.shape[axis]))
        ]
        raise ValueError(
            f"{_FN}: the gradient of mode={mode!r} cannot be planned on the symbolic "
            f"{', '.join(axes)}: the constraints do not decide how many periods the "
            f"padding spans ({str(error).splitlines()[0]}). Give those axes concrete "
            "sizes, or export the forward function only."
        ) from None


def _dynamic_fold_jvp(primals, tangents, **params):
    t, pads_begin = primals
    t_dot, _ = tangents
    out = dynamic_fold_p.bind(t, pads_begin, **params)
    if type(t_dot) is ad.Zero:
        return out, zero_tangent(out)
    return out, dynamic_fold_p.bind(t_dot, pads_begin, **params)


def _dynamic_fold_transpose(ct, t, pads_begin, *, operand_shape, mode, static_pads, max_pad=None):
    del operand_shape
    if type(ct) is ad.Zero:
        return [ad.Zero(t.aval), None]
    ct = ad.instantiate_zeros(ct)
    padded = dynamic_pad_p.bind(
        ct,
        np.zeros((), ct.dtype),
        pads_begin,
        shape=tuple(t.aval.shape),
        mode=mode,
        static_pads=static_pads,
        max_pad=max_pad,
    )
    return [padded, None]


def _dynamic_fold_batch(args, dims, *, operand_shape, mode, static_pads, max_pad=None):
    t, pads_begin = args
    size = _batch_size(args, dims)
    t = batching.bdim_at_front(t, dims[0], size)
    pads_begin = batching.bdim_at_front(pads_begin, dims[1], size)
    out = dynamic_fold_p.bind(
        t,
        pads_begin,
        operand_shape=(size, *operand_shape),
        mode=mode,
        static_pads=static_pads,
        max_pad=max_pad,
    )
    return out, 0


# Registration -------------------------------------------------------------------

dynamic_pad_p = Primitive("jaxpad_dynamic_pad")
dynamic_pad_p.def_impl(partial(xla.apply_primitive, dynamic_pad_p))
dynamic_pad_p.def_abstract_eval(_dynamic_pad_abstract_eval)
ad.primitive_jvps[dynamic_pad_p] = _dynamic_pad_jvp
ad.primitive_transposes[dynamic_pad_p] = _dynamic_pad_transpose
batching.primitive_batchers[dynamic_pad_p] = _dynamic_pad_batch
register_lowering(
    dynamic_pad_p, partitioned_dynamic_pad_lowering(dynamic_pad_lowering, dynamic_fold_lowering)
)

dynamic_fold_p = Primitive("jaxpad_dynamic_fold")
dynamic_fold_p.def_impl(partial(xla.apply_primitive, dynamic_fold_p))
dynamic_fold_p.def_abstract_eval(_dynamic_fold_abstract_eval)
ad.primitive_jvps[dynamic_fold_p] = _dynamic_fold_jvp
ad.primitive_transposes[dynamic_fold_p] = _dynamic_fold_transpose
batching.primitive_batchers[dynamic_fold_p] = _dynamic_fold_batch
register_lowering(
    dynamic_fold_p,
    partitioned_dynamic_fold_lowering(dynamic_pad_lowering, dynamic_fold_lowering),
)
