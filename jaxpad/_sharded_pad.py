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

- ``dynamic_pad`` does the same with a traced offset: along a split axis with a
  static bound (``max_pad``) the slabs cover every offset within it and the rows are
  picked in the program; past the bound, or with none, a branch gathers the axis.
- Long axes compute each block's rows in the program instead of reading a table the
  size of the axis.

Axes that are padded but not split are padded on each block by the ordinary lowering.
Inside ``shard_map`` (every mesh axis manual), on one device, under ``jax.export``,
and over a mesh built without devices (custom_partitioning needs the devices, see
``wants_devices``), nothing changes: the plain lowering, which XLA partitions.
Per-side modes are composed of one-mode pads by ``_lowering.composed_pad``.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental.custom_partitioning import custom_partitioning
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir
from jax.sharding import NamedSharding, PartitionSpec

from jaxpad._index_maps import MODES, effective_mode, period, source_index
from jaxpad._lowering import index_dtype, int32_indexes

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


def plan_slabs(block_sources, in_block: int, devices: int):
    """The slabs that bring each block the source rows it may read.

    ``block_sources[j]``: the global source rows output block ``j`` may read. Returns
    the slabs and, per offset, where its slab starts in the concatenation of a
    device's own block and the slabs it receives.
    """
    # The range of each source block's rows (local indices) each output block reads.
    need: dict[tuple[int, int], tuple[int, int]] = {}
    for j, src in enumerate(block_sources):
        src = np.asarray(src)
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
    return tuple(slabs), base, position


def plan_exchange(sources: np.ndarray, n: int, devices: int) -> AxisExchange:
    """The exchange that gives each of ``devices`` output blocks its rows.

    ``sources``: the global source row of each output position (-1: pad value). Input
    and output blocks are XLA's tiles: ``ceil(size / devices)`` rows each.
    """
    size = len(sources)
    in_block, out_block = -(-n // devices), -(-size // devices)
    blocks = [sources[j * out_block : (j + 1) * out_block] for j in range(devices)]
    slabs, base, position = plan_slabs(blocks, in_block, devices)
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
        slabs,
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
        splits.append(_Split(axis, names, _static_plan(mode, n, size, lo, r, devices)))
    return splits


# Blocks of at most this many rows in all read through a static table of rows; longer
# ones compute their rows in the program (as the single-device lowering's long axes),
# so that neither the program nor the planning grows with the axis.
_MAX_STATIC_ROWS = 1 << 16


def _static_plan(mode, n, size, lo, interior, devices):
    """The exchange of a static pad: a table of rows, or for a long axis the rows
    computed in the program (a ``DynamicExchange`` of bound 0 around ``lo``)."""
    out_block = -(-size // devices)
    if devices * out_block > _MAX_STATIC_ROWS and interior == 0:
        return plan_dynamic_exchange(mode, n, size, 0, devices, center=lo)
    return plan_exchange(axis_sources(mode, n, size, lo, interior), n, devices)


def _static_exchange(x, pad_value, split, pads_begin):
    names = _names(split.names)
    if isinstance(split.plan, AxisExchange):
        return _exchange(x, pad_value, split.plan, split.axis, names)
    return _dynamic_exchange(
        x, pad_value, None, split.plan, split.axis, names, 0, static_shift=pads_begin[split.axis]
    )


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


def _plannable(mode, target) -> bool:
    """Whether the exchange applies: a partitioned program whose devices are known, and
    one of the modes that read x through an index map (others, e.g. per-side modes,
    keep the plain lowering, which XLA partitions)."""
    return mode in MODES and target.partitioned and target.devices_known


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


# Devices at lowering time -------------------------------------------------------------
# A custom_partitioning op needs the program's devices when it is lowered, and JAX
# supplies them only to programs whose jaxpr holds one (in any sub-jaxpr). pad_p and
# fold_p bind theirs inside their lowering, too late to be seen, so the public
# functions, when traced over a mesh of several devices (``wants_devices``), pass pad_value
# through ``_marker_p``: an identity whose parameter is a jaxpr holding a
# custom_partitioning op, which is never lowered (the marker lowers to its operand).


@custom_partitioning
def _device_marker(flag):
    return flag


def _marker_partition(mesh, arg_shapes, result_shape):
    return mesh, lambda flag: flag, result_shape.sharding, (arg_shapes[0].sharding,)


_device_marker.def_partition(partition=_marker_partition, sharding_rule=" -> ")


@functools.cache
def _marker_jaxpr():
    return jax.make_jaxpr(_device_marker)(np.bool_(True))


_marker_p = Primitive("jaxpad_devices_marker")
_marker_p.def_impl(lambda value, *, jaxpr: value)
_marker_p.def_abstract_eval(lambda value, *, jaxpr: value)
ad.deflinear2(_marker_p, lambda t, value, *, jaxpr: [t])
batching.primitive_batchers[_marker_p] = lambda args, dims, **params: (
    _marker_p.bind(*args, **params),
    dims[0],
)
mlir.register_lowering(_marker_p, lambda ctx, value, *, jaxpr: [value])


def check_long_split_axes(fn_name: str, x_shape, out_shape, pads_begin) -> None:
    """A pad over several devices computes the rows of a long split axis in the
    program (``_static_plan``), from global positions: in int64 where the axis is too
    long for int32, which needs JAX's 64-bit types. ``pads_begin``: ints, or None
    where traced. Which axes XLA splits is not known yet: every padded one counts."""
    if jax.config.read("jax_enable_x64"):
        return
    for axis, (n, size, lo) in enumerate(zip(x_shape, out_shape, pads_begin)):
        padded = lo is None or lo != 0 or size != n
        if padded and not int32_indexes(n, size):
            raise ValueError(
                f"{fn_name}: axis {axis} of x has {n} elements (padded to {size}); over "
                f"several devices its rows are found in the program with 64-bit indices "
                f"(size + 4 * x.shape[{axis}] exceeds 2**31 - 1), which need "
                "jax.config.update('jax_enable_x64', True). Enable it, or pad that axis "
                "where it is not split."
            )


def wants_devices(x) -> bool:
    """Whether ``x`` is traced in a program over a mesh of several devices, outside
    ``shard_map``: the programs whose pads plan their exchange.

    The mesh is the one in context (``jax.set_mesh``) or, with none, the one in ``x``'s
    type (an array committed to a ``NamedSharding``, Auto or Explicit axes, carries
    it). A mesh built without devices (``jax.sharding.AbstractMesh(...)``, for
    exporting to devices not at hand) has no ``abstract_device``: such programs are
    lowered without devices, which a custom_partitioning op cannot be, so they keep
    the plain lowering.
    """
    if not isinstance(x, jax.core.Tracer):
        return False
    mesh: Any = jax.sharding.get_abstract_mesh()
    if mesh.empty:
        mesh = getattr(getattr(jax.typeof(x), "sharding", None), "mesh", None)
        if mesh is None or mesh.empty:
            return False
    if mesh.size == 1 or getattr(mesh, "abstract_device", None) is None:
        return False
    manual = set(getattr(mesh, "manual_axes", ()) or ())
    return not manual >= set(mesh.axis_names)


def request_devices(x, pad_value):
    """``pad_value`` through ``_marker_p`` when ``wants_devices(x)`` (see above); else
    unchanged."""
    if not wants_devices(x):
        return pad_value
    return _marker_p.bind(pad_value, jaxpr=_marker_jaxpr())


# Dynamic pads ------------------------------------------------------------------------
# dynamic_pad's offsets are known only at run time. Along a split axis with a static
# bound B on |pads_begin| (dynamic_pad's max_pad), each block may read the rows within
# B of its window: the slabs are planned for every offset in [-B, B] at once and the
# rows are picked at run time. Offsets past the bound (and axes with no bound) read
# the whole axis, gathered (a branch taken at run time only when they occur).


@dataclasses.dataclass(frozen=True)
class DynamicExchange:
    """The exchange of one split axis padded by a traced offset, bounded by ``bound``
    (None: no bound, the axis is gathered). ``base[offset]``: where the slab of that
    offset starts in the concatenation of a block and its slabs (-1: no such slab);
    ``starts[offset][k]``: the row of block ``k`` the slab starts at."""

    mode: str
    n: int
    size: int
    devices: int
    in_block: int
    out_block: int
    bound: int | None
    slabs: tuple[Slab, ...]
    base: tuple[int, ...]
    starts: tuple[tuple[int, ...], ...]


def _window_sources(mode, n, first, stop):
    """Source rows of offsets ``[first, stop)``, -1 outside x in constant mode."""
    offsets = np.arange(first, stop)
    if mode == "constant":
        return np.where((offsets >= 0) & (offsets < n), offsets, -1)
    return np.asarray(source_index(mode, n, offsets)).astype(np.int64)


def plan_dynamic_exchange(mode, n, size, bound, devices, center=0) -> DynamicExchange:
    """The slabs for every offset in ``[center - bound, center + bound]`` (``bound``
    None: none, the axis is gathered)."""
    in_block, out_block = -(-n // devices), -(-size // devices)
    slabs: tuple[Slab, ...] = ()
    base: dict[int, int] = {}
    if bound is not None:
        blocks = []
        for j in range(devices):
            stop = min((j + 1) * out_block, size)
            if stop <= j * out_block:
                blocks.append(np.zeros((0,), np.int64))
                continue
            # Every offset in [-bound, bound] at once: a contiguous window of offsets.
            first = j * out_block - center - bound
            blocks.append(_window_sources(mode, n, first, stop - center + bound))
        slabs, base, _ = plan_slabs(blocks, in_block, devices)
    starts_of = {slab.offset: slab.starts for slab in slabs}
    return DynamicExchange(
        mode,
        n,
        size,
        devices,
        in_block,
        out_block,
        bound,
        slabs,
        tuple(base.get(offset, -1) for offset in range(devices)),
        tuple(starts_of.get(offset, (0,) * devices) for offset in range(devices)),
    )


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
        parts = [x]
        for slab in plan.slabs:
            start = jnp.asarray(slab.starts, jnp.int32)[index]
            part = lax.dynamic_slice_in_dim(x, start, slab.length, axis)
            parts.append(lax.ppermute(part, names, slab.pairs))
        buffer = lax.concatenate(parts, axis) if len(parts) > 1 else x
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
