"""Pads along sharded axes that move only what they must: a partitioning planned by jaxpad.

In a program that XLA partitions over several devices (``jit`` with sharded inputs),
``pad_p`` and ``fold_p`` lower to a ``jax.experimental.custom_partitioning`` op. When
XLA's partitioner meets it, it tells jaxpad the operand's sharding, and jaxpad builds
each device's program itself:

- The output keeps the operand's sharding, axis by axis. Along an axis whose padded
  size does not divide over its mesh axes the blocks are uneven: every device holds
  ``ceil(size / devices)`` rows and the last ones end in padding rows (XLA's tiling;
  a ``jax.Array`` cannot be sharded so, so a jit that *returns* such an output
  receives it replicated: XLA gathers it at the program's end).
- Along each padded axis split over mesh axes, each output block's rows come from a
  static table of global source rows (the mode's index map). The rows a block needs
  from another device travel by ``lax.ppermute``, one slab per offset between
  devices, as long as the most any device needs at that offset; a gather (or a
  slice, when every block reads a contiguous run) then places them.
- The fold (the pad's transpose) is the transpose of that program: the reverse
  ppermutes send each cotangent back to its source's device, where it is added.

Axes that are padded but not split are padded on each block by the ordinary lowering.
Inside ``shard_map`` (every mesh axis manual) and on one device nothing changes.
"""

from __future__ import annotations

import dataclasses
import math
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import NamedSharding, PartitionSpec

from jaxpad._index_maps import source_index
from jaxpad._sharding import devices_known

# Plans (NumPy only) ----------------------------------------------------------------


def axis_sources(mode: str, n: int, size: int, lo: int, interior: int = 0) -> np.ndarray:
    """Source index of each output position of one padded axis; -1 where the output
    holds the pad value (constant mode)."""
    offsets = np.arange(size) - lo
    if mode == "constant":
        step = interior + 1
        source = offsets // step
        inside = (offsets >= 0) & (offsets % step == 0) & (source < n)
        return np.where(inside, source, -1)
    return np.asarray(source_index(mode, n, offsets)).astype(np.int64)


@dataclasses.dataclass(frozen=True)
class Slab:
    """Rows sent ``offset`` devices back along the mesh axis (device ``k`` sends to
    ``(k - offset) % devices``): ``length`` rows from ``starts[k]`` of ``k``'s block."""

    offset: int
    length: int
    starts: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]


@dataclasses.dataclass(frozen=True)
class AxisExchange:
    """Each device's output block along one axis split over ``devices`` devices.

    ``rows[j]``: for each of block ``j``'s output rows, its row in the concatenation of
    ``j``'s own input block and the slabs it receives (in ``slabs`` order). ``valid``:
    False where the row holds the pad value or is one of XLA's padding rows past the
    axis's end. ``run_starts``: when every block reads a
    contiguous run of that concatenation, where each run starts (else None).
    """

    devices: int
    in_block: int
    out_block: int
    slabs: tuple[Slab, ...]
    rows: tuple[tuple[int, ...], ...]
    valid: tuple[tuple[bool, ...], ...] | None
    run_starts: tuple[int, ...] | None

    @property
    def received_rows(self) -> int:
        return sum(slab.length for slab in self.slabs)


def plan_exchange(sources: np.ndarray, n: int, devices: int) -> AxisExchange:
    """The exchange that gives each of ``devices`` output blocks its rows.

    ``sources``: the global source row of each output position (-1: pad value). Input
    and output blocks are XLA's tiles: ``ceil(size / devices)`` rows each.
    """
    size = len(sources)
    in_block, out_block = -(-n // devices), -(-size // devices)
    # The range of each source block's rows (local indices) each output block reads.
    need: dict[tuple[int, int], tuple[int, int]] = {}
    for j in range(devices):
        src = sources[j * out_block : (j + 1) * out_block]
        src = src[src >= 0]
        for k in np.unique(src // in_block):
            local = src[src // in_block == k] - k * in_block
            need[(j, int(k))] = (int(local.min()), int(local.max()) + 1)
    by_offset: dict[int, list[tuple[int, int]]] = {}
    for j, k in need:
        if j != k:
            by_offset.setdefault((k - j) % devices, []).append((j, k))
    slabs, base = [], {}
    position = in_block
    for offset in sorted(by_offset):
        pairs = sorted(by_offset[offset], key=lambda p: p[1])
        length = max(need[p][1] - need[p][0] for p in pairs)
        starts = [0] * devices
        for j, k in pairs:
            starts[k] = min(need[(j, k)][0], in_block - length)
        slabs.append(Slab(offset, length, tuple(starts), tuple((k, j) for j, k in pairs)))
        base[offset] = position
        position += length
    rows = np.zeros((devices, out_block), np.int64)
    valid = np.ones((devices, out_block), bool)
    real = np.zeros((devices, out_block), bool)
    starts_of = {slab.offset: slab.starts for slab in slabs}
    for j in range(devices):
        for t in range(out_block):
            p = j * out_block + t
            if p >= size:
                # XLA's padding rows past the end: masked, so that the fold never
                # adds what the cotangent holds there.
                valid[j, t] = False
                continue
            real[j, t] = True
            src = int(sources[p])
            if src < 0:
                valid[j, t] = False
                continue
            k, local = divmod(src, in_block)
            if k == j:
                rows[j, t] = local
            else:
                offset = (k - j) % devices
                rows[j, t] = base[offset] + local - starts_of[offset][k]
    return AxisExchange(
        devices,
        in_block,
        out_block,
        tuple(slabs),
        tuple(map(tuple, rows.tolist())),
        None if valid.all() else tuple(map(tuple, valid.tolist())),
        _run_starts(rows, real & valid, position),
    )


def _run_starts(rows, used, length):
    """Where each block's contiguous run starts, if every block reads one that fits."""
    starts = []
    for row, mask in zip(rows, used):
        t = np.flatnonzero(mask)
        start = int(row[t[0]] - t[0]) if len(t) else 0
        if len(t) and not np.array_equal(row[t], start + t):
            return None
        start = min(max(start, 0), max(length - len(row), 0))
        if len(t) and not np.array_equal(row[t], start + t):
            return None
        starts.append(start)
    if length < len(rows[0]):
        return None
    return tuple(starts)


# Device programs -------------------------------------------------------------------


def _exchange(x, pad_value, plan: AxisExchange, axis: int, names):
    """This device's output block along ``axis`` from its input block ``x``."""
    index = lax.axis_index(names)
    parts = [x]
    for slab in plan.slabs:
        start = jnp.asarray(slab.starts, jnp.int32)[index]
        part = lax.dynamic_slice_in_dim(x, start, slab.length, axis)
        parts.append(lax.ppermute(part, names, slab.pairs))
    buffer = lax.concatenate(parts, axis) if len(parts) > 1 else x
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
        sources = axis_sources(mode, n, size, lo, r)
        splits.append(_Split(axis, names, plan_exchange(sources, n, devices)))
    return splits


def _on_one_device(target):
    """Each device's program is not partitioned further: the single-device forms."""
    return dataclasses.replace(target, partitioned=False)


def _names(names):
    return names if len(names) > 1 else names[0]


# The custom-partitioned ops ----------------------------------------------------------
# Static arguments: (pads_begin, pads_end, interior, mode, target, local_pad, local_fold).


def _unsplit(params, splits):
    """The pad parameters left for each block once the split axes are exchanged."""
    pads_begin, pads_end, interior = (list(v) for v in params)
    for split in splits:
        pads_begin[split.axis] = pads_end[split.axis] = interior[split.axis] = 0
    return tuple(pads_begin), tuple(pads_end), tuple(interior)


def _spec_of(sharding, ndim):
    spec = tuple(getattr(sharding, "spec", ()) or ())
    return spec + (None,) * (ndim - len(spec))


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
            x = _exchange(x, pad_value, split.plan, split.axis, _names(split.names))
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

    def block(axis, size):
        entry = spec[axis]
        if entry is None:
            return size
        names = entry if isinstance(entry, tuple) else (entry,)
        return -(-size // math.prod(mesh_shape[name] for name in names))

    # Shapes of this device's blocks: the operand's, then after each exchange.
    x_block = [block(axis, size) for axis, size in enumerate(operand_shape)]
    shapes = [tuple(x_block)]
    for split in splits:
        x_block[split.axis] = split.plan.out_block
        shapes.append(tuple(x_block))

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
            forward = partial(
                _exchange,
                pad_value=zero,
                plan=split.plan,
                axis=split.axis,
                names=_names(split.names),
            )
            (t,) = jax.linear_transpose(forward, jax.ShapeDtypeStruct(shape, t.dtype))(t)
        return t

    out_sharding = NamedSharding(t_sharding.mesh, t_sharding.spec)
    return t_sharding.mesh, lower_fn, out_sharding, (t_sharding,)


@partial(custom_partitioning, static_argnums=(2, 3, 4, 5, 6, 7, 8))
def _partitioned_pad(
    x, pad_value, pads_begin, pads_end, interior, mode, target, local_pad, local_fold
):
    return local_pad(
        x,
        pad_value,
        pads_begin=pads_begin,
        pads_end=pads_end,
        interior=interior,
        mode=mode,
        target=target,
    )


@partial(custom_partitioning, static_argnums=(1, 2, 3, 4, 5, 6, 7, 8))
def _partitioned_fold(
    t, pads_begin, pads_end, interior, mode, target, local_pad, local_fold, operand_shape
):
    return local_fold(
        t,
        pads_begin=pads_begin,
        pads_end=pads_end,
        interior=interior,
        mode=mode,
        operand_shape=operand_shape,
        target=target,
    )


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


def _splits_possible(pads_begin, pads_end, interior, target) -> bool:
    return (
        bool(getattr(target, "partitioned", False))
        and devices_known()
        and any(lo or hi or r for lo, hi, r in zip(pads_begin, pads_end, interior))
    )


def partitioned_pad_lowering(local_pad, local_fold):
    """``pad_p``'s lowering: ``local_pad`` on one device, the planned exchange when the
    program is partitioned."""

    def lowering(x, pad_value, *, pads_begin, pads_end, interior, mode, target):
        if not _splits_possible(pads_begin, pads_end, interior, target) or x.ndim == 0:
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
        if not _splits_possible(pads_begin, pads_end, interior, target) or t.ndim == 0:
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


# Devices at lowering time -------------------------------------------------------------
# A custom_partitioning op needs the program's devices when it is lowered, and JAX
# supplies them only to programs whose jaxpr holds one. pad_p and fold_p bind theirs
# inside their lowering, too late to be seen, so the public functions add a tiny one
# to the jaxpr (on a constant, selected away: XLA removes it) when they are traced
# with a mesh of several devices in context.


@custom_partitioning
def _device_marker(flag):
    return flag


def _marker_partition(mesh, arg_shapes, result_shape):
    return mesh, lambda flag: flag, result_shape.sharding, (arg_shapes[0].sharding,)


_device_marker.def_partition(partition=_marker_partition, sharding_rule=" -> ")


def request_devices(x, pad_value):
    """``pad_value``, through a select on a custom_partitioning op when ``x`` is traced
    with a mesh of several devices in context (see above); else unchanged."""
    mesh = jax.sharding.get_abstract_mesh()
    if not isinstance(x, jax.core.Tracer) or mesh.empty or mesh.size == 1:
        return pad_value
    manual = set(getattr(mesh, "manual_axes", ()) or ())
    if manual >= set(mesh.axis_names):
        return pad_value
    flag = _device_marker(np.bool_(True))
    return lax.select(flag, pad_value, pad_value)
