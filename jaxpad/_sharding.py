"""jaxpad's ops on sharded arrays: output shardings, lowering, shard_map operands.

- Shape rules: with ``AxisType.Explicit`` meshes an aval carries its sharding and a
  shape rule must give the output's. An output axis keeps its input axis's mesh axes
  when its new size still splits evenly over them, and is replicated otherwise.
  Under ``AxisType.Auto`` avals carry no mesh axes and XLA's partitioner decides.
- Tracing: ``in_auto_axes`` runs a composition of pads traced in the public function
  with Explicit axes switched to Auto, as ``_lowering._platform.with_auto_axes`` runs
  a lowering.
- ``shard_map``: ``match_varying`` casts operands that vary over different mesh axes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import jax
from jax.sharding import PartitionSpec

from jaxpad._compat import auto_axes, pcast_to_varying, reshard, varying_axes


def moved_axes_sharding(aval, out_shape: Sequence[int], sources: Sequence[int | None]):
    """The sharding of an output whose axis ``i`` comes from input axis ``sources[i]``
    (None for a new or stretched axis)."""
    sharding: Any = getattr(aval, "sharding", None)
    spec = getattr(sharding, "spec", None)
    if spec is None or all(entry is None for entry in spec):
        if sharding is not None and len(out_shape) != aval.ndim:
            return sharding.update(spec=PartitionSpec(*([None] * len(out_shape))))
        return sharding
    entries = list(spec) + [None] * (aval.ndim - len(spec))
    mesh_sizes = dict(sharding.mesh.shape)
    out = []
    for out_axis, source in enumerate(sources):
        entry = None if source is None else entries[source]
        if entry is not None:
            names = entry if isinstance(entry, tuple) else (entry,)
            if out_shape[out_axis] % math.prod(mesh_sizes[name] for name in names):
                entry = None
        out.append(entry)
    return sharding.update(spec=PartitionSpec(*out))


def same_axes_sharding(aval, out_shape: Sequence[int]):
    """Pad, fold and their dynamic forms keep every axis in place."""
    return moved_axes_sharding(aval, out_shape, range(len(out_shape)))


def explicit_axes(mesh) -> tuple[str, ...]:
    return tuple(
        name
        for name, kind in zip(mesh.axis_names, mesh.axis_types)
        if kind == jax.sharding.AxisType.Explicit
    )


def in_auto_axes(fn, x, out_shape: Sequence[int]):
    """``fn`` traced with ``x``'s Explicit mesh axes switched to Auto, its result
    typed as the shape rule types a pad of ``x`` to ``out_shape``.

    For compositions of pads (per-side modes on a sharded axis) whose intermediates,
    such as one edge row of a split axis, have no sharding JAX can type.
    """
    sharding = getattr(jax.typeof(x), "sharding", None)
    mesh = getattr(sharding, "mesh", None)
    if mesh is None or mesh.empty:
        return fn
    explicit = explicit_axes(mesh)
    if not explicit:
        return fn
    out_sharding = same_axes_sharding(jax.typeof(x), out_shape)
    return auto_axes(fn, axes=explicit, out_sharding=out_sharding)


def match_sharding(value, aval):
    """``value`` resharded to ``aval``'s Explicit sharding, as a cotangent must be.

    The fold's shape rule derives its output sharding from the cotangent's, which a
    replicated padded axis loses; the transpose restores the operand's.
    """
    sharding = getattr(aval, "sharding", None)
    spec = getattr(sharding, "spec", None)
    if spec is None or all(entry is None for entry in spec):
        return value
    if jax.typeof(value).sharding.spec == spec:
        return value
    # The sharding itself, not its spec: a bare spec needs a mesh in context, and
    # Explicit-axis arrays reach a jit without one (jax.make_mesh and device_put).
    return reshard(value, sharding)


def match_varying(*values):
    """Casts operands to the union of the mesh axes they vary over.

    Inside ``shard_map`` a sharded ``x`` (varying over a mesh axis) may meet a
    replicated pad value (invariant). JAX casts the operands of its own primitives
    this way; the cast's transpose then sums the invariant operand's cotangent over
    the axis, as its gradient must be.
    """
    varying = [varying_axes(value) for value in values]
    union = frozenset().union(*varying)
    if all(axes == union for axes in varying):
        return values
    return tuple(
        pcast_to_varying(value, tuple(sorted(union - axes))) if union - axes else value
        for value, axes in zip(values, varying)
    )
