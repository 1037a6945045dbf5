"""Each device's program along one split axis (``_exchange``: rows read through a
static table; ``_dynamic_exchange``: rows computed in the program), and the helpers the
static and dynamic partitionings share."""

from __future__ import annotations

import dataclasses
import math

import jax.numpy as jnp
from jax import lax

from jaxpad._index_maps import MODES, effective_mode, period, source_index
from jaxpad._lowering import index_dtype
from jaxpad._sharded_pad._plans import AxisExchange, DynamicExchange

# Device programs -------------------------------------------------------------------


def _with_slabs(x, slabs, axis: int, names, index):
    """This device's block ``x`` followed along ``axis`` by the slabs it receives
    (each slab's rows sent by ``lax.ppermute`` from the devices its pairs name)."""
    parts = [x]
    for slab in slabs:
        start = jnp.asarray(slab.starts, jnp.int32)[index]
        part = lax.dynamic_slice_in_dim(x, start, slab.length, axis)
        parts.append(lax.ppermute(part, names, slab.pairs))
    return lax.concatenate(parts, axis) if len(parts) > 1 else x


def _exchange(x, pad_value, plan: AxisExchange, axis: int, names):
    """This device's output block along ``axis`` from its input block ``x``."""
    index = lax.axis_index(names)
    buffer = _with_slabs(x, plan.slabs, axis, names, index)
    if plan.run_starts is not None:
        start = jnp.asarray(plan.run_starts, jnp.int32)[index]
        out = lax.dynamic_slice_in_dim(buffer, start, plan.out_block, axis)
    else:
        rows = jnp.asarray(plan.rows, jnp.int32)[index]
        out = jnp.take(buffer, rows, axis=axis, mode="clip")
    if plan.valid is not None:
        mask = jnp.asarray(plan.valid)[index]
        shape = [1] * x.ndim
        shape[axis] = plan.out_block
        out = jnp.where(mask.reshape(shape), out, pad_value.astype(out.dtype))
    return out


def _names(names):
    return names if len(names) > 1 else names[0]


def _centered(pads, mode, n):
    """Periodic modes: the offset equivalent to ``pads`` (reduced modulo the period
    by dynamic_pad) nearest 0, which the bound is compared with."""
    mode = effective_mode(mode, n)
    if mode in ("constant", "edge"):
        return pads
    p = period(mode, n)
    return jnp.remainder(pads + p // 2, p) - p // 2


def _take_rows(buffer, rows, axis, num_batch):
    """``buffer``'s rows ``rows`` (shape batch + (T,)) along ``axis``, per example."""
    shape = [1] * buffer.ndim
    shape[:num_batch] = rows.shape[:num_batch]
    shape[axis] = rows.shape[-1]
    return jnp.take_along_axis(buffer, rows.reshape(shape), axis=axis, mode="clip")


def _dynamic_exchange(
    x,
    pad_value,
    pads,
    plan: DynamicExchange,
    axis,
    names,
    num_batch,
    batch_names=(),
    static_shift=None,
):
    """This device's output block along ``axis``; ``pads``: the offsets (batch shape).

    ``batch_names``: the mesh axes the examples are split over, whose devices hold
    other offsets: every device must take the same branch (XLA's collectives
    rendezvous over the whole mesh), so the bound's test is reduced over them.
    """
    # Global positions: int64 on an axis too long for int32 (``check_long_split_axes``
    # makes sure 64-bit types are on then).
    dtype = index_dtype(plan.n, plan.size)
    index = lax.axis_index(names).astype(dtype)
    n, in_block = plan.n, plan.in_block
    positions = index * plan.out_block + lax.iota(dtype, plan.out_block)
    if static_shift is None:
        shift = _centered(pads.astype(dtype), plan.mode, n)
    else:
        shift = jnp.asarray(static_shift, dtype)
    offsets = positions - shift[..., None]
    # One row of offsets per example (a static shift is shared by all).
    offsets = jnp.broadcast_to(offsets, x.shape[:num_batch] + offsets.shape[-1:])
    if plan.mode == "constant":
        valid = (offsets >= 0) & (offsets < n)
        sources = jnp.clip(offsets, 0, n - 1)
    else:
        valid = jnp.ones(offsets.shape, bool)
        sources = source_index(plan.mode, n, offsets, xp=jnp)
    valid = valid & (positions < plan.size)

    def gathered(x):
        whole = lax.all_gather(x, names, axis=axis, tiled=True)
        return _take_rows(whole, sources, axis, num_batch)

    def from_halo(x):
        buffer = _with_slabs(x, plan.slabs, axis, names, index)
        block, local = jnp.divmod(sources, in_block)
        offset = jnp.remainder(block - index, plan.devices)
        base = jnp.asarray(plan.base, jnp.int32)[offset]
        start = jnp.asarray(plan.starts, jnp.int32)[offset, block]
        rows = jnp.where(offset == 0, local, base + local - start)
        return _take_rows(buffer, rows, axis, num_batch)

    if plan.bound is None:
        out = gathered(x)
    elif static_shift is not None:
        out = from_halo(x)
    else:
        past = jnp.any(jnp.abs(shift) > plan.bound).astype(jnp.int32)
        if batch_names:
            past = lax.pmax(past, batch_names)
        within = past == 0
        out = lax.cond(within, from_halo, gathered, x)
    shape = [1] * x.ndim
    shape[:num_batch] = valid.shape[:num_batch]
    shape[axis] = plan.out_block
    values = lax.broadcast_in_dim(pad_value, out.shape, tuple(range(pad_value.ndim)))
    return jnp.where(valid.reshape(shape), out, values)


# Shared by the static and dynamic partitionings -----------------------------------


def _on_one_device(target):
    """Each device's program is not partitioned further: the single-device forms."""
    return dataclasses.replace(target, partitioned=False)


def _spec_of(sharding, ndim):
    spec = tuple(getattr(sharding, "spec", ()) or ())
    return spec + (None,) * (ndim - len(spec))


def _block_shapes(spec, mesh_shape, operand_shape, splits):
    """This device's block shapes: the operand's, then after each split's exchange."""

    def block(axis, size):
        entry = spec[axis]
        if entry is None:
            return size
        names = entry if isinstance(entry, tuple) else (entry,)
        return -(-size // math.prod(mesh_shape[name] for name in names))

    x_block = [block(axis, size) for axis, size in enumerate(operand_shape)]
    shapes = [tuple(x_block)]
    for split in splits:
        x_block[split.axis] = split.plan.out_block
        shapes.append(tuple(x_block))
    return shapes


def _plannable(mode, target) -> bool:
    """Whether the exchange applies: a partitioned program whose devices are known, and
    one of the modes that read x through an index map (others, e.g. per-side modes,
    keep the plain lowering, which XLA partitions)."""
    return mode in MODES and target.partitioned and target.devices_known
