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

The package reads in one direction: ``_static`` (``pad_p``, ``fold_p``) and
``_dynamic`` (``dynamic_pad_p``, ``dynamic_fold_p``) -> ``_exchange`` (each device's
program along a split axis, and the helpers both share) -> ``_plans`` (NumPy only: the
rows and slabs). ``_devices`` (which programs plan their exchange, the marker that
gives them the devices) stands apart.
"""

from __future__ import annotations

from jaxpad._sharded_pad._devices import (
    _marker_p,
    check_long_split_axes,
    request_devices,
    wants_devices,
)
from jaxpad._sharded_pad._dynamic import (
    partitioned_dynamic_fold_lowering,
    partitioned_dynamic_pad_lowering,
)
from jaxpad._sharded_pad._plans import (
    AxisExchange,
    DynamicExchange,
    Slab,
    axis_sources,
    plan_dynamic_exchange,
    plan_exchange,
    plan_slabs,
)
from jaxpad._sharded_pad._static import partitioned_fold_lowering, partitioned_pad_lowering

__all__ = [
    "AxisExchange",
    "DynamicExchange",
    "Slab",
    "_marker_p",
    "axis_sources",
    "check_long_split_axes",
    "partitioned_dynamic_fold_lowering",
    "partitioned_dynamic_pad_lowering",
    "partitioned_fold_lowering",
    "partitioned_pad_lowering",
    "plan_dynamic_exchange",
    "plan_exchange",
    "plan_slabs",
    "request_devices",
    "wants_devices",
]
