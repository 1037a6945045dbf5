"""``pad_p`` and ``fold_p`` over sharded axes: the custom-partitioned ops and their
partitioning, and the hooks the primitives lower through."""

from __future__ import annotations

import dataclasses
import math
from functools import partial

import jax
import jax.numpy as jnp
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import NamedSharding, PartitionSpec

from jaxpad._sharded_pad._exchange import (
    _block_shapes,
    _dynamic_exchange,
    _exchange,
    _names,
    _on_one_device,
    _plannable,
    _spec_of,
)
from jaxpad._sharded_pad._plans import AxisExchange, _static_plan


@dataclasses.dataclass(frozen=True)
class _Split:
    """A padded axis split over mesh axes ``names`` and its exchange."""

    axis: int
    names: tuple[str, ...]
    plan: AxisExchange


def _splits(spec, shape, pads_begin, pads_end, interior, mode, mesh_shape):
    """The padded axes that are split over mesh axes of more than one device."""
    splits = []
    for axis, (n, lo, hi, r) in enumerate(zip(shape, pads_begin, pads_end, interior)):
        entry = spec[axis] if axis < len(spec) else None
        if entry is None or (lo == 0 and hi == 0 and r == 0):
            continue
        names = entry if isinstance(entry, tuple) else (entry,)
        devices = math.prod(mesh_shape[name] for name in names)
        size = lo + (n - 1) * (r + 1) + 1 + hi if n else lo + hi
        if devices == 1 or n == 0 or size <= 0:
            continue
        splits.append(_Split(axis, names, _static_plan(mode, n, size, lo, r, devices)))
    return splits


def _static_exchange(x, pad_value, split, pads_begin):
    names = _names(split.names)
    if isinstance(split.plan, AxisExchange):
        return _exchange(x, pad_value, split.plan, split.axis, names)
    return _dynamic_exchange(
        x, pad_value, None, split.plan, split.axis, names, 0, static_shift=pads_begin[split.axis]
    )


# The custom-partitioned ops ----------------------------------------------------------
# Static arguments: (pads_begin, pads_end, interior, mode, target, local_pad, local_fold).


def _unsplit(params, splits):
    """The pad parameters left for each block once the split axes are exchanged."""
    pads_begin, pads_end, interior = (list(v) for v in params)
    for split in splits:
        pads_begin[split.axis] = pads_end[split.axis] = interior[split.axis] = 0
    return tuple(pads_begin), tuple(pads_end), tuple(interior)


def _partition_plan(mesh, sharding, shape, pads_begin, pads_end, interior, mode):
    """(splits, the operand's sharding to ask for) or None where jaxpad cannot read
    the sharding (no named mesh): then the padded axes are gathered, as XLA would."""
    if not isinstance(sharding, NamedSharding):
        return None
    spec = _spec_of(sharding, len(shape))
    return _splits(spec, shape, pads_begin, pads_end, interior, mode, dict(mesh.shape)), spec


def _replicated_on_padded(mesh, sharding, ndim, pads_begin, pads_end, interior):
    if not isinstance(sharding, NamedSharding):
        return NamedSharding(mesh, PartitionSpec())
    spec = list(_spec_of(sharding, ndim))
    for axis in range(ndim):
        if pads_begin[axis] or pads_end[axis] or interior[axis]:
            spec[axis] = None
    return NamedSharding(sharding.mesh, PartitionSpec(*spec))


def _pad_partition(
    pads_begin, pads_end, interior, mode, target, local_pad, _fold, mesh, arg_shapes, result_shape
):
    x_shape = arg_shapes[0]
    sharding = x_shape.sharding
    planned = _partition_plan(mesh, sharding, x_shape.shape, pads_begin, pads_end, interior, mode)
    value_sharding = NamedSharding(mesh, PartitionSpec())
    if planned is None:
        x_sharding = _replicated_on_padded(
            mesh, sharding, len(x_shape.shape), pads_begin, pads_end, interior
        )
        splits = []
    else:
        splits, _ = planned
        x_sharding = sharding
    local = _unsplit((pads_begin, pads_end, interior), splits)

    def lower_fn(x, pad_value):
        for split in splits:
            x = _static_exchange(x, pad_value, split, pads_begin)
        if any(local[0]) or any(local[1]) or any(local[2]):
            x = local_pad(
                x,
                pad_value,
                pads_begin=local[0],
                pads_end=local[1],
                interior=local[2],
                mode=mode,
                target=_on_one_device(target),
            )
        return x

    out_sharding = NamedSharding(x_sharding.mesh, x_sharding.spec)
    return x_sharding.mesh, lower_fn, out_sharding, (x_sharding, value_sharding)


def _fold_partition(
    pads_begin,
    pads_end,
    interior,
    mode,
    target,
    _pad,
    local_fold,
    operand_shape,
    mesh,
    arg_shapes,
    result_shape,
):
    t_shape = arg_shapes[0]
    sharding = t_shape.sharding
    # The fold's input is the padded array; plan from the operand's (output's) shape
    # with the same sharding.
    planned = _partition_plan(mesh, sharding, operand_shape, pads_begin, pads_end, interior, mode)
    if planned is None:
        t_sharding = _replicated_on_padded(
            mesh, sharding, len(operand_shape), pads_begin, pads_end, interior
        )
        splits = []
    else:
        splits, _ = planned
        t_sharding = sharding
    local = _unsplit((pads_begin, pads_end, interior), splits)
    mesh_shape = dict(t_sharding.mesh.shape)
    spec = _spec_of(t_sharding, len(operand_shape))

    shapes = _block_shapes(spec, mesh_shape, operand_shape, splits)

    def lower_fn(t):
        if any(local[0]) or any(local[1]) or any(local[2]):
            t = local_fold(
                t,
                pads_begin=local[0],
                pads_end=local[1],
                interior=local[2],
                mode=mode,
                operand_shape=shapes[-1],
                target=_on_one_device(target),
            )
        zero = jnp.zeros((), t.dtype)
        for split, shape in zip(reversed(splits), reversed(shapes[:-1])):
            forward = partial(_static_exchange, pad_value=zero, split=split, pads_begin=pads_begin)
            (t,) = jax.linear_transpose(forward, jax.ShapeDtypeStruct(shape, t.dtype))(t)
        return t

    out_sharding = NamedSharding(t_sharding.mesh, t_sharding.spec)
    return t_sharding.mesh, lower_fn, out_sharding, (t_sharding,)


@partial(custom_partitioning, static_argnums=(2, 3, 4, 5, 6, 7, 8))
def _partitioned_pad(
    x, pad_value, pads_begin, pads_end, interior, mode, target, local_pad, local_fold
):
    # Under jit: custom_partitioning takes no function that closes over constants.
    local = partial(
        local_pad,
        pads_begin=pads_begin,
        pads_end=pads_end,
        interior=interior,
        mode=mode,
        target=target,
    )
    return jax.jit(local)(x, pad_value)


@partial(custom_partitioning, static_argnums=(1, 2, 3, 4, 5, 6, 7, 8))
def _partitioned_fold(
    t, pads_begin, pads_end, interior, mode, target, local_pad, local_fold, operand_shape
):
    local = partial(
        local_fold,
        pads_begin=pads_begin,
        pads_end=pads_end,
        interior=interior,
        mode=mode,
        operand_shape=operand_shape,
        target=target,
    )
    return jax.jit(local)(t)


def _pad_rule(pads_begin, *_args):
    ndim = len(pads_begin)
    dims = " ".join(f"d{axis}" for axis in range(ndim))
    return f"{dims}, -> {dims}"


def _fold_rule(pads_begin, *_args):
    ndim = len(pads_begin)
    dims = " ".join(f"d{axis}" for axis in range(ndim))
    return f"{dims} -> {dims}"


_partitioned_pad.def_partition(partition=_pad_partition, sharding_rule=_pad_rule)
_partitioned_fold.def_partition(partition=_fold_partition, sharding_rule=_fold_rule)


# Hooks for the primitives' lowerings ------------------------------------------------


def _splits_possible(pads_begin, pads_end, interior, mode, target) -> bool:
    return _plannable(mode, target) and any(
        lo or hi or r for lo, hi, r in zip(pads_begin, pads_end, interior)
    )


def partitioned_pad_lowering(local_pad, local_fold):
    """``pad_p``'s lowering: ``local_pad`` on one device, the planned exchange when the
    program is partitioned."""

    def lowering(x, pad_value, *, pads_begin, pads_end, interior, mode, target):
        if not _splits_possible(pads_begin, pads_end, interior, mode, target) or x.ndim == 0:
            return local_pad(
                x,
                pad_value,
                pads_begin=pads_begin,
                pads_end=pads_end,
                interior=interior,
                mode=mode,
                target=target,
            )
        return _partitioned_pad(
            x,
            pad_value,
            tuple(pads_begin),
            tuple(pads_end),
            tuple(interior),
            mode,
            target,
            local_pad,
            local_fold,
        )

    return lowering


def partitioned_fold_lowering(local_pad, local_fold):
    """``fold_p``'s lowering, as ``partitioned_pad_lowering``."""

    def lowering(t, *, pads_begin, pads_end, interior, mode, operand_shape, target):
        if not _splits_possible(pads_begin, pads_end, interior, mode, target) or t.ndim == 0:
            return local_fold(
                t,
                pads_begin=pads_begin,
                pads_end=pads_end,
                interior=interior,
                mode=mode,
                operand_shape=operand_shape,
                target=target,
            )
        return _partitioned_fold(
            t,
            tuple(pads_begin),
            tuple(pads_end),
            tuple(interior),
            mode,
            target,
            local_pad,
            local_fold,
            tuple(operand_shape),
        )

    return lowering
