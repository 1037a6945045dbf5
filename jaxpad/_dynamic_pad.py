"""``jaxpad.dynamic_pad``: padding by amounts known only at run time.

``dynamic_pad`` is to ``pad`` what ``lax.dynamic_slice`` is to ``lax.slice``: the
output shape is static and ``pads_begin`` is an operand, so it may be traced and may
differ per example under ``vmap``. Laid out as ``_pad.py``: the public function, then
the shape rule, JVP, transpose, batching and lowering of ``dynamic_pad_p``, the same
for its transpose ``dynamic_fold_p``, and the registration block.

Batched pads are native: the primitives accept ``pads_begin`` with leading axes that
match leading (unpadded) axes of the operand, one pad config per example, and lower
to a gather with batching dimensions. Nothing is unrolled per example.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir, xla
from jax.typing import ArrayLike

from jaxpad import _checks
from jaxpad._gather import broadcast_table, gather_tables
from jaxpad._index_maps import (
    MODES,
    effective_mode,
    fold_pieces,
    period,
    reduced_pad,
    source_index,
)
from jaxpad._pad import fold_static, pad_value_operand
from jaxpad._sharding import (
    lower_in_auto_axes,
    match_sharding,
    match_varying,
    same_axes_sharding,
)
from jaxpad._typing import DynamicPads

_FN = "jaxpad.dynamic_pad"

# A periodic axis whose output spans at most this many periods is folded by reading
# each source's few output positions directly; longer outputs are first summed
# period by period, so the op count never grows with the output length.
_MAX_CANDIDATE_PERIODS = 2

# Axes with at most this many (source, output position) pairs are folded densely.
_MAX_DENSE_FOLD = 64


def dynamic_pad(
    x: ArrayLike,
    pads_begin: DynamicPads,
    shape: Sequence[int],
    mode: str = "constant",
    pad_value: ArrayLike | None = None,
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
      shape: the static output shape, one non-negative int per axis.
      mode: ``"constant"``, ``"edge"``, ``"reflect"``, ``"symmetric"`` or ``"wrap"``.
      pad_value: constant mode only; a scalar, possibly traced and differentiated.

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
    ndim = x.ndim
    mode = _checks.check_mode(_FN, mode, MODES)
    shape = _checks.static_int_tuple(_FN, "shape", shape)
    if len(shape) != ndim:
        raise ValueError(
            f"{_FN}: shape needs one entry per axis of x (x.ndim={ndim}); "
            f"got {len(shape)}: {shape}."
        )
    if any(size < 0 for size in shape):
        raise ValueError(f"{_FN}: shape must be non-negative; got {shape}.")
    pads_begin, static_pads = _pads_operand(pads_begin, x.shape, shape, mode)
    pad_value = pad_value_operand(_FN, pad_value, mode, x.dtype)
    x, pad_value, pads_begin = match_varying(x, pad_value, pads_begin)
    return dynamic_pad_p.bind(
        x, pad_value, pads_begin, shape=shape, mode=mode, static_pads=static_pads
    )


def _pads_operand(value, x_shape, shape, mode):
    """The pads as one integer operand, and which of its entries are static.

    Static entries are reduced to an equivalent pad in a small range
    (``reduced_pad``): any offset is valid, and the reduced one fits int32.
    """
    ndim = len(x_shape)
    reduce = [partial(reduced_pad, mode, n, size) for n, size in zip(x_shape, shape)]
    if isinstance(value, (np.ndarray, jax.Array, np.generic)):
        _check_integer(value.dtype, "pads_begin", value)
        if value.ndim != 1:
            raise ValueError(
                f"{_FN}: pads_begin must be 1-D with one entry per axis; "
                f"got {_checks.describe(value)}."
            )
        if value.shape[0] != ndim:
            raise ValueError(
                f"{_FN}: pads_begin needs one entry per axis of x (x.ndim={ndim}); "
                f"got {value.shape[0]}."
            )
        if isinstance(value, jax.core.Tracer):
            return value, (None,) * ndim
        static = tuple(r(int(v)) for r, v in zip(reduce, np.asarray(value)))
        return jnp.asarray(static, jnp.int32).reshape(ndim), static
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(
            f"{_FN}: pads_begin must be an integer array or a sequence with one entry "
            f"per axis; got {value!r}."
        )
    if len(value) != ndim:
        raise ValueError(
            f"{_FN}: pads_begin needs one entry per axis of x (x.ndim={ndim}); "
            f"got {len(value)}: {value!r}."
        )
    entries, static = [], []
    for i, entry in enumerate(value):
        if isinstance(entry, jax.core.Tracer):
            _check_integer(entry.dtype, f"pads_begin[{i}]", entry)
            if entry.ndim != 0:
                raise ValueError(
                    f"{_FN}: pads_begin[{i}] must be a scalar; got {_checks.describe(entry)}."
                )
            # Reduced one by one, entries of different integer dtypes stack as int32
            # without the lossy promotions of mixed dtypes (int64 with uint64).
            entries.append(_normalized_pads(entry, mode, x_shape[i], shape[i]))
            static.append(None)
        else:
            entry = reduce[i](_checks.static_int(_FN, f"pads_begin[{i}]", entry))
            entries.append(jnp.asarray(entry, jnp.int32))
            static.append(entry)
    if not entries:
        return jnp.zeros((0,), jnp.int32), ()
    return jnp.stack(entries), tuple(static)


def _check_integer(dtype, arg_name, value):
    if dtype == np.bool_ or not jnp.issubdtype(dtype, jnp.integer):
        raise TypeError(
            f"{_FN}: {arg_name} must have an integer dtype; got {_checks.describe(value)}."
        )


# Shape rule ---------------------------------------------------------------------


def _check_config(fn_name, x_shape, pads_begin, shape, mode):
    """Validates a (possibly batched) pad config; returns the number of batch axes."""
    num_batch = pads_begin.ndim - 1
    _check_integer(pads_begin.dtype, "pads_begin", pads_begin)
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


def _dynamic_pad_abstract_eval(x, pad_value, pads_begin, *, shape, mode, static_pads):
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


def _dynamic_pad_jvp(primals, tangents, *, shape, mode, static_pads):
    x, pad_value, pads_begin = primals
    x_dot, value_dot, _ = tangents
    params = dict(shape=shape, mode=mode, static_pads=static_pads)
    out = dynamic_pad_p.bind(x, pad_value, pads_begin, **params)
    if type(x_dot) is ad.Zero and type(value_dot) is ad.Zero:
        return out, ad.Zero.from_primal_value(out)
    x_dot = ad.instantiate_zeros(x_dot)
    value_dot = ad.instantiate_zeros(value_dot)
    return out, dynamic_pad_p.bind(x_dot, value_dot, pads_begin, **params)


def _dynamic_pad_transpose(t, x, pad_value, pads_begin, *, shape, mode, static_pads):
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
            t, pads_begin, operand_shape=tuple(x_shape), mode=mode, static_pads=static_pads
        )
        t_x = match_sharding(t_x, x.aval)
    if need_value:
        if mode == "constant":
            # Every position not copied from x holds the pad value.
            copied = _copied_mask(pads_begin, x_shape, shape, static_pads)
            padded = lax.select(copied, jnp.zeros_like(t), t)
            t_value = padded.sum(axis=tuple(range(pad_value.aval.ndim, t.ndim)))
        else:
            t_value = ad.Zero(pad_value.aval)
    return [t_x, t_value, None]


# Batching -----------------------------------------------------------------------


def _to_front(value, bdim, size):
    """Moves the vmapped axis to the front, or adds one of ``size`` when there is none."""
    if bdim is None:
        return lax.broadcast(value, (size,))
    return jnp.moveaxis(value, bdim, 0)


def _batch_size(args, dims):
    return next(arg.shape[dim] for arg, dim in zip(args, dims) if dim is not None)


def _dynamic_pad_batch(args, dims, *, shape, mode, static_pads):
    x, pad_value, pads_begin = args
    x_bdim, value_bdim, pads_bdim = dims
    size = _batch_size(args, dims)
    x = _to_front(x, x_bdim, size)
    # The examples become a batch axis of the primitive: each reads through its own
    # pads (broadcast when they are shared, which only costs a small table).
    pads_begin = _to_front(pads_begin, pads_bdim, size)
    if value_bdim is not None or pad_value.ndim:
        pad_value = _to_front(pad_value, value_bdim, size)
    out = dynamic_pad_p.bind(
        x, pad_value, pads_begin, shape=(size, *shape), mode=mode, static_pads=static_pads
    )
    return out, 0


# Lowering -----------------------------------------------------------------------


def _normalized_pads(pads_begin, mode, n, size):
    """``reduced_pad`` for traced pads of any integer dtype, as int32.

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
    return reduced.astype(jnp.int32)


def _axis_offsets(pads_begin, static_pads, d, n, size, mode):
    """Offsets ``i - pads_begin`` of one axis: a NumPy table, or one per example."""
    if static_pads[d] is not None:
        return np.arange(size) - static_pads[d]
    pads = _normalized_pads(pads_begin[..., d], mode, n, size)
    return lax.iota(jnp.int32, size) - pads[..., None]


def _active_axes(x_shape, shape, static_pads, num_batch):
    """The non-batch axes that pad, leaving out those with a static 0 and no resize."""
    return [
        (d, num_batch + d)
        for d, pad in enumerate(static_pads)
        if not (pad == 0 and shape[num_batch + d] == x_shape[num_batch + d])
    ]


def _copied_mask(pads_begin, x_shape, shape, static_pads):
    """True where constant mode copies from x (False at pad values), of ``shape``."""
    num_batch = pads_begin.ndim - 1
    mask = jnp.ones(shape, bool)
    for d, axis in _active_axes(x_shape, shape, static_pads, num_batch):
        offsets = _axis_offsets(pads_begin, static_pads, d, x_shape[axis], shape[axis], "constant")
        inside = (offsets >= 0) & (offsets < x_shape[axis])
        mask = mask & broadcast_table(inside, shape, axis, num_batch)
    return mask


def _dynamic_pad_lowering(x, pad_value, pads_begin, *, shape, mode, static_pads):
    num_batch = pads_begin.ndim - 1
    if math.prod(shape) == 0:
        return jnp.zeros(shape, x.dtype)
    values = lax.broadcast_in_dim(pad_value, shape, tuple(range(pad_value.ndim)))
    if x.size == 0:
        return values
    tables = {}
    for d, axis in _active_axes(x.shape, shape, static_pads, num_batch):
        n = x.shape[axis]
        offsets = _axis_offsets(pads_begin, static_pads, d, n, shape[axis], mode)
        if mode == "constant":
            tables[axis] = jnp.clip(offsets, 0, n - 1)
        else:
            tables[axis] = source_index(mode, n, offsets, xp=jnp)
    out = gather_tables(x, tables, num_batch)
    if mode == "constant" and tables:
        out = lax.select(_copied_mask(pads_begin, x.shape, shape, static_pads), out, values)
    return out


# The dynamic fold: dynamic_pad_p's transpose --------------------------------------
# Sums each output cotangent back onto its source element. Axes with static pads use
# the static fold (slices); traced ones are folded one axis at a time by gathers:
# every source element reads the few output positions that map onto it. No scatter.


def _dynamic_fold_abstract_eval(t, pads_begin, *, operand_shape, mode, static_pads):
    _check_config("jaxpad.dynamic_fold", operand_shape, pads_begin, t.shape, mode)
    operand_shape = tuple(operand_shape)
    return t.update(
        shape=operand_shape, dtype=t.dtype, sharding=same_axes_sharding(t, operand_shape)
    )


def _dynamic_fold_jvp(primals, tangents, **params):
    t, pads_begin = primals
    t_dot, _ = tangents
    out = dynamic_fold_p.bind(t, pads_begin, **params)
    if type(t_dot) is ad.Zero:
        return out, ad.Zero.from_primal_value(out)
    return out, dynamic_fold_p.bind(t_dot, pads_begin, **params)


def _dynamic_fold_transpose(ct, t, pads_begin, *, operand_shape, mode, static_pads):
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
    )
    return [padded, None]


def _dynamic_fold_batch(args, dims, *, operand_shape, mode, static_pads):
    t, pads_begin = args
    size = _batch_size(args, dims)
    t = _to_front(t, dims[0], size)
    pads_begin = _to_front(pads_begin, dims[1], size)
    out = dynamic_fold_p.bind(
        t,
        pads_begin,
        operand_shape=(size, *operand_shape),
        mode=mode,
        static_pads=static_pads,
    )
    return out, 0


def _dynamic_fold_lowering(t, pads_begin, *, operand_shape, mode, static_pads):
    num_batch = pads_begin.ndim - 1
    if math.prod(operand_shape) == 0 or t.size == 0:
        return jnp.zeros(operand_shape, t.dtype)
    active = _active_axes(operand_shape, t.shape, static_pads, num_batch)
    static_axes = [(d, axis) for d, axis in active if static_pads[d] is not None]
    if mode == "constant":
        # Crop back to the source window; positions outside x read zeros.
        config = [(0, 0, 0)] * t.ndim
        for d, axis in static_axes:
            end = t.shape[axis] - operand_shape[axis] - static_pads[d]
            config[axis] = (-static_pads[d], -end, 0)
        t = lax.pad(t, np.zeros((), t.dtype), config)
    else:
        pieces = {
            axis: fold_pieces(mode, operand_shape[axis], static_pads[d], t.shape[axis])
            for d, axis in static_axes
        }
        t = fold_static(t, pieces, operand_shape)
    dynamic_axes = [(d, axis) for d, axis in active if static_pads[d] is None]
    # Short axes first: their dense fold reads a few neighbours per element, and
    # fused after a gather it would redo the gather for each of them.
    dynamic_axes.sort(key=lambda item: operand_shape[item[1]] * t.shape[item[1]] > _MAX_DENSE_FOLD)
    for position, (d, axis) in enumerate(dynamic_axes):
        n = operand_shape[axis]
        pads = _normalized_pads(pads_begin[..., d], mode, n, t.shape[axis])
        fold = partial(_fold_axis, axis=axis, n=n, mode=mode, num_batch=num_batch)
        if n == t.shape[axis] and n * n <= _MAX_DENSE_FOLD:
            # A traced pad that is 0 for every example (a channel axis, say) leaves
            # the axis as it is: skip its fold at run time. (Only for short axes: on
            # the others a conditional costs more than it saves.)
            t = lax.cond(jnp.all(pads == 0), lambda t, pads: t, fold, t, pads)
        else:
            t = fold(t, pads)
            if position + 1 < len(dynamic_axes):
                # Fused into the next axis's gathers, this axis's gathers would be
                # redone for each of that axis's reads; materialising is cheaper
                # (1.6-1.7x instead of 1.7-1.9x the static VJP on the benchmark).
                t = lax.optimization_barrier(t)
    return t


def _fold_axis(t, pads, *, axis, n, mode, num_batch):
    """Folds one axis with traced, normalized ``pads`` (one per example) onto ``n``."""
    size = t.shape[axis]
    out_shape = t.shape[:axis] + (n,) + t.shape[axis + 1 :]
    mode = effective_mode(mode, n)
    if mode != "constant" and n == 1:
        return t.sum(axis=axis, keepdims=True)
    sources = lax.iota(jnp.int32, n)
    pads = pads[..., None]
    if n * size <= _MAX_DENSE_FOLD:
        return _fold_axis_dense(t, axis, pads, n, mode, num_batch)

    def read(positions, valid):
        """``t`` at output ``positions`` along the axis, zero where not ``valid``."""
        part = gather_tables(t, {axis: jnp.clip(positions, 0, size - 1)}, num_batch)
        valid = broadcast_table(valid, out_shape, axis, num_batch)
        return lax.select(valid, part, jnp.zeros_like(part))

    def at_sources(mask):
        return broadcast_table(mask, out_shape, axis, num_batch)

    if mode == "constant":
        positions = sources + pads
        return read(positions, (positions >= 0) & (positions < size))
    if mode == "edge":
        # Each end source takes every position at or beyond it: one masked sum each.
        positions = sources + pads
        inner = (sources > 0) & (sources < n - 1) & (positions >= 0) & (positions < size)
        offsets = broadcast_table(lax.iota(jnp.int32, size) - pads, t.shape, axis, num_batch)
        zeros = jnp.zeros_like(t)
        low = lax.select(offsets <= 0, t, zeros).sum(axis=axis, keepdims=True)
        high = lax.select(offsets >= n - 1, t, zeros).sum(axis=axis, keepdims=True)
        total = read(positions, inner)
        total = total + jnp.where(at_sources(sources == 0), low, 0)
        return total + jnp.where(at_sources(sources == n - 1), high, 0)
    p = period(mode, n)
    reps = -(-size // p)
    if reps <= _MAX_CANDIDATE_PERIODS:
        # Source j is read at the output positions whose offset is j or its mirror
        # modulo p: at most `reps` of each, at computable places.
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
    # Long outputs: sum all positions of equal phase (offset mod p) into one period
    # through one shifted read, then fold that period statically.
    length = -(-(size + p - 1) // p) * p
    shift = jnp.remainder(-pads, p)
    positions = lax.iota(jnp.int32, length) - shift
    period_shape = t.shape[:axis] + (length,) + t.shape[axis + 1 :]
    part = gather_tables(t, {axis: jnp.clip(positions, 0, size - 1)}, num_batch)
    valid = broadcast_table((positions >= 0) & (positions < size), period_shape, axis, num_batch)
    part = lax.select(valid, part, jnp.zeros_like(part))
    split = t.shape[:axis] + (length // p, p) + t.shape[axis + 1 :]
    phases = part.reshape(split).sum(axis=axis)
    head = lax.slice_in_dim(phases, 0, n, axis=axis)
    if mode == "wrap":
        return head
    tail = lax.rev(lax.slice_in_dim(phases, n, p, axis=axis), (axis,))
    if mode == "reflect":
        config = [(0, 0, 0)] * t.ndim
        config[axis] = (1, 1, 0)
        tail = lax.pad(tail, np.zeros((), t.dtype), config)
    return head + tail


def _fold_axis_dense(t, axis, pads, n, mode, num_batch):
    """Short axes: each source sums the positions that map onto it, by masks.

    A gather along a short minor axis moves a handful of bytes per index; comparing
    every (source, position) pair with static slices is cheaper and fuses into one
    loop.
    """
    size = t.shape[axis]
    offsets = lax.iota(jnp.int32, size) - pads
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


# Registration -------------------------------------------------------------------

dynamic_pad_p = Primitive("jaxpad_dynamic_pad")
dynamic_pad_p.def_impl(partial(xla.apply_primitive, dynamic_pad_p))
dynamic_pad_p.def_abstract_eval(_dynamic_pad_abstract_eval)
ad.primitive_jvps[dynamic_pad_p] = _dynamic_pad_jvp
ad.primitive_transposes[dynamic_pad_p] = _dynamic_pad_transpose
batching.primitive_batchers[dynamic_pad_p] = _dynamic_pad_batch
mlir.register_lowering(dynamic_pad_p, partial(lower_in_auto_axes, _dynamic_pad_lowering))

dynamic_fold_p = Primitive("jaxpad_dynamic_fold")
dynamic_fold_p.def_impl(partial(xla.apply_primitive, dynamic_fold_p))
dynamic_fold_p.def_abstract_eval(_dynamic_fold_abstract_eval)
ad.primitive_jvps[dynamic_fold_p] = _dynamic_fold_jvp
ad.primitive_transposes[dynamic_fold_p] = _dynamic_fold_transpose
batching.primitive_batchers[dynamic_fold_p] = _dynamic_fold_batch
mlir.register_lowering(dynamic_fold_p, partial(lower_in_auto_axes, _dynamic_fold_lowering))
