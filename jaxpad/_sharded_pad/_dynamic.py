"""``dynamic_pad_p`` and ``dynamic_fold_p`` over sharded axes: the custom-partitioned
ops and their partitioning, and the hooks the primitives lower through. A split axis
with a static bound (``max_pad``) exchanges the slabs ``plan_dynamic_exchange`` plans
for every offset within it; past the bound, or with none, a branch gathers the axis."""

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
from jaxpad._sharded_pad._plans import (
    AxisExchange,
    DynamicExchange,
    _static_plan,
    plan_dynamic_exchange,
)


@dataclasses.dataclass(frozen=True)
class _DynamicSplit:
    d: int
    axis: int
    names: tuple[str, ...]
    plan: AxisExchange | DynamicExchange
    static_pad: int | None = None


def _dynamic_splits(spec, x_shape, shape, num_batch, mode, static_pads, max_pad, mesh_shape):
    splits = []
    for d, pad in enumerate(static_pads):
        axis = num_batch + d
        n, size = x_shape[axis], shape[axis]
        entry = spec[axis]
        if entry is None or (pad == 0 and n == size) or n == 0 or size == 0:
            continue
        names = entry if isinstance(entry, tuple) else (entry,)
        devices = math.prod(mesh_shape[name] for name in names)
        if devices == 1:
            continue
        if pad is not None:
            plan = _static_plan(mode, n, size, pad, 0, devices)
        else:
            plan = plan_dynamic_exchange(mode, n, size, max_pad[d], devices)
        splits.append(_DynamicSplit(d, axis, names, plan, pad))
    return splits


def _run_split(x, pad_value, pads, split, num_batch, batch_names=()):
    names = _names(split.names)
    if isinstance(split.plan, AxisExchange):
        return _exchange(x, pad_value, split.plan, split.axis, names)
    if split.static_pad is not None:
        return _dynamic_exchange(
            x,
            pad_value,
            None,
            split.plan,
            split.axis,
            names,
            num_batch,
            static_shift=split.static_pad,
        )
    return _dynamic_exchange(
        x, pad_value, pads[..., split.d], split.plan, split.axis, names, num_batch, batch_names
    )


def _batch_names(spec, num_batch):
    """The mesh axes the leading (batch) axes are split over."""
    names = []
    for entry in spec[:num_batch]:
        if entry is not None:
            names.extend(entry if isinstance(entry, tuple) else (entry,))
    return tuple(names)


def _dynamic_local(pads, static_pads, splits):
    """The pads left for each block once the split axes are exchanged."""
    static = list(static_pads)
    for split in splits:
        static[split.d] = 0
        pads = pads.at[..., split.d].set(0)
    return pads, tuple(static)


def _dynamic_shardings(mesh, sharding, x_ndim, value_ndim, pads_ndim):
    spec = _spec_of(sharding, x_ndim)
    num_batch = pads_ndim - 1
    return (
        NamedSharding(mesh, PartitionSpec(*spec[:value_ndim])),
        NamedSharding(mesh, PartitionSpec(*spec[:num_batch], None)),
    )


def _dynamic_pad_partition(
    shape, mode, static_pads, max_pad, target, local_pad, _fold, mesh, arg_shapes, result_shape
):
    x_shape, value_shape, pads_shape = arg_shapes
    sharding = x_shape.sharding
    num_batch = len(pads_shape.shape) - 1
    if not isinstance(sharding, NamedSharding):
        sharding = NamedSharding(mesh, PartitionSpec())
    mesh = sharding.mesh
    spec = _spec_of(sharding, len(shape))
    splits = _dynamic_splits(
        spec, x_shape.shape, shape, num_batch, mode, static_pads, max_pad, dict(mesh.shape)
    )
    value_sharding, pads_sharding = _dynamic_shardings(
        mesh, sharding, len(shape), len(value_shape.shape), len(pads_shape.shape)
    )

    def lower_fn(x, pad_value, pads):
        for split in splits:
            x = _run_split(x, pad_value, pads, split, num_batch, _batch_names(spec, num_batch))
        local_pads, local_static = _dynamic_local(pads, static_pads, splits)
        local_shape = tuple(
            size if spec[axis] is None else x.shape[axis] for axis, size in enumerate(shape)
        )
        if local_shape != x.shape or any(p != 0 for p in local_static):
            x = local_pad(
                x,
                pad_value,
                local_pads,
                shape=local_shape,
                mode=mode,
                static_pads=local_static,
                target=_on_one_device(target),
            )
        return x

    x_sharding = NamedSharding(mesh, PartitionSpec(*spec))
    return mesh, lower_fn, x_sharding, (x_sharding, value_sharding, pads_sharding)


def _dynamic_fold_partition(
    operand_shape,
    mode,
    static_pads,
    max_pad,
    target,
    _pad,
    local_fold,
    mesh,
    arg_shapes,
    result_shape,
):
    t_shape, pads_shape = arg_shapes
    sharding = t_shape.sharding
    num_batch = len(pads_shape.shape) - 1
    if not isinstance(sharding, NamedSharding):
        sharding = NamedSharding(mesh, PartitionSpec())
    mesh = sharding.mesh
    shape = t_shape.shape
    spec = _spec_of(sharding, len(shape))
    mesh_shape = dict(mesh.shape)
    splits = _dynamic_splits(
        spec, operand_shape, shape, num_batch, mode, static_pads, max_pad, mesh_shape
    )
    _, pads_sharding = _dynamic_shardings(mesh, sharding, len(shape), 0, len(pads_shape.shape))

    shapes = _block_shapes(spec, mesh_shape, operand_shape, splits)
    local_shape = tuple(
        size if spec[axis] is None else shapes[-1][axis] for axis, size in enumerate(shape)
    )

    def lower_fn(t, pads):
        local_pads, local_static = _dynamic_local(pads, static_pads, splits)
        if local_shape != shapes[-1] or any(p != 0 for p in local_static):
            t = local_fold(
                t,
                local_pads,
                operand_shape=shapes[-1],
                mode=mode,
                static_pads=local_static,
                target=_on_one_device(target),
            )
        zero = jnp.zeros((), t.dtype)
        for split, step_shape in zip(reversed(splits), reversed(shapes[:-1])):
            forward = partial(
                _run_split,
                pad_value=zero,
                pads=pads,
                split=split,
                num_batch=num_batch,
                batch_names=_batch_names(spec, num_batch),
            )
            (t,) = jax.linear_transpose(forward, jax.ShapeDtypeStruct(step_shape, t.dtype))(t)
        return t

    t_sharding = NamedSharding(mesh, PartitionSpec(*spec))
    return mesh, lower_fn, t_sharding, (t_sharding, pads_sharding)


def _dims(prefix, count):
    return " ".join(f"{prefix}{i}" for i in range(count))


def _dynamic_pad_rule(*args):
    value_types = args[-2]
    x_rank, value_rank, pads_rank = (len(v.shape) for v in value_types)
    dims = _dims("d", x_rank)
    return f"{dims}, {_dims('d', value_rank)}, {_dims('d', pads_rank - 1)} k -> {dims}"


def _dynamic_fold_rule(*args):
    value_types = args[-2]
    t_rank, pads_rank = (len(v.shape) for v in value_types)
    dims = _dims("d", t_rank)
    return f"{dims}, {_dims('d', pads_rank - 1)} k -> {dims}"


@partial(custom_partitioning, static_argnums=(3, 4, 5, 6, 7, 8, 9))
def _partitioned_dynamic_pad(
    x, pad_value, pads, shape, mode, static_pads, max_pad, target, local_pad, local_fold
):
    local = partial(local_pad, shape=shape, mode=mode, static_pads=static_pads, target=target)
    return jax.jit(local)(x, pad_value, pads)


@partial(custom_partitioning, static_argnums=(2, 3, 4, 5, 6, 7, 8))
def _partitioned_dynamic_fold(
    t, pads, operand_shape, mode, static_pads, max_pad, target, local_pad, local_fold
):
    local = partial(
        local_fold, operand_shape=operand_shape, mode=mode, static_pads=static_pads, target=target
    )
    return jax.jit(local)(t, pads)


_partitioned_dynamic_pad.def_partition(
    partition=_dynamic_pad_partition, sharding_rule=_dynamic_pad_rule
)
_partitioned_dynamic_fold.def_partition(
    partition=_dynamic_fold_partition, sharding_rule=_dynamic_fold_rule
)


def partitioned_dynamic_pad_lowering(local_pad, local_fold):
    """``dynamic_pad_p``'s lowering: ``local_pad`` (which takes no ``max_pad``) on one
    device, the planned exchange when the program is partitioned."""

    def lowering(x, pad_value, pads_begin, *, shape, mode, static_pads, max_pad=None, target):
        if not _plannable(mode, target) or x.ndim == 0:
            return local_pad(
                x,
                pad_value,
                pads_begin,
                shape=shape,
                mode=mode,
                static_pads=static_pads,
                target=target,
            )
        max_pad = max_pad or (None,) * len(static_pads)
        return _partitioned_dynamic_pad(
            x,
            pad_value,
            pads_begin,
            tuple(shape),
            mode,
            tuple(static_pads),
            tuple(max_pad),
            target,
            local_pad,
            local_fold,
        )

    return lowering


def partitioned_dynamic_fold_lowering(local_pad, local_fold):
    """``dynamic_fold_p``'s lowering, as ``partitioned_dynamic_pad_lowering``."""

    def lowering(t, pads_begin, *, operand_shape, mode, static_pads, max_pad=None, target):
        if not _plannable(mode, target) or t.ndim == 0:
            return local_fold(
                t,
                pads_begin,
                operand_shape=operand_shape,
                mode=mode,
                static_pads=static_pads,
                target=target,
            )
        max_pad = max_pad or (None,) * len(static_pads)
        return _partitioned_dynamic_fold(
            t,
            pads_begin,
            tuple(operand_shape),
            mode,
            tuple(static_pads),
            tuple(max_pad),
            target,
            local_pad,
            local_fold,
        )

    return lowering
