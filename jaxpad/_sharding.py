"""jaxpad's ops on sharded arrays: output shardings, lowering, shard_map operands.

- Shape rules: with ``AxisType.Explicit`` meshes an aval carries its sharding and a
  shape rule must give the output's. An output axis keeps its input axis's mesh axes
  when its new size still splits evenly over them, and is replicated otherwise.
  Under ``AxisType.Auto`` avals carry no mesh axes and XLA's partitioner decides.
- Lowering: ``is_partitioned`` tells the lowerings to pick their halo-exchanging
  forms, and ``with_auto_axes`` runs them with Explicit axes switched to Auto and
  with ``devices_known`` answering whether the program's devices are known (the
  planned exchange of ``_sharded_pad`` needs them). ``in_auto_axes`` does the same for
  a composition of pads traced in the public function.
- ``shard_map``: ``match_varying`` casts operands that vary over different mesh axes.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Sequence
from functools import partial
from typing import Any

import jax
from jax import lax
from jax.sharding import PartitionSpec


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


def _explicit_axes(mesh) -> tuple[str, ...]:
    return tuple(
        name
        for name, kind in zip(mesh.axis_names, mesh.axis_types)
        if kind == jax.sharding.AxisType.Explicit
    )


def _with_auto_axes(lowering, ctx):
    """Runs ``lowering`` with the mesh's Explicit axes switched to Auto.

    Under Explicit axes every intermediate must have a sharding JAX can type, and the
    slices and gathers of a pad along a sharded axis have none (JAX's own lax.pad and
    slices raise there). Inside ``auto_axes`` XLA partitions them as under Auto, and
    the result gets the output sharding the shape rule promised.
    """
    sharding = getattr(ctx.avals_out[0], "sharding", None)
    mesh = getattr(sharding, "mesh", None)
    specs = [getattr(getattr(aval, "sharding", None), "spec", None) for aval in ctx.avals_in]
    if mesh is None or not any(spec and any(e is not None for e in spec) for spec in specs):
        return lowering
    explicit = _explicit_axes(mesh)
    if not explicit:
        return lowering

    def lowering_in_auto_axes(*args, **params):
        return jax.sharding.auto_axes(
            partial(lowering, **params), axes=explicit, out_sharding=sharding
        )(*args)

    return lowering_in_auto_axes


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
    explicit = _explicit_axes(mesh)
    if not explicit:
        return fn
    out_sharding = same_axes_sharding(jax.typeof(x), out_shape)
    return jax.sharding.auto_axes(fn, axes=explicit, out_sharding=out_sharding)


# Whether the program being lowered knows its devices (custom_partitioning needs them).
_DEVICES_KNOWN = contextvars.ContextVar("jaxpad_devices_known", default=False)


def devices_known() -> bool:
    """Inside a lowering registered by ``_lowering.register_lowering``: whether the
    program's devices are known (``_sharded_pad.request_devices``)."""
    return _DEVICES_KNOWN.get()


@contextlib.contextmanager
def _devices_flag(value: bool):
    token = _DEVICES_KNOWN.set(value)
    try:
        yield
    finally:
        _DEVICES_KNOWN.reset(token)


def with_auto_axes(lowering, ctx):
    """Runs ``lowering`` with the mesh's Explicit axes switched to Auto (below), and
    with ``devices_known()`` answering for this program."""
    module_context = ctx.module_context
    axis_context = getattr(module_context, "axis_context", None)
    # jax.export serializes no custom_partitioning op: it gets the plain lowering.
    for_export = getattr(getattr(module_context, "lowering_parameters", None), "for_export", False)
    known = bool(getattr(axis_context, "device_assignment", None)) and not for_export
    inner = _with_auto_axes(lowering, ctx)

    def lowering_with_devices_flag(*args, **params):
        with _devices_flag(known):
            return inner(*args, **params)

    return lowering_with_devices_flag


def is_partitioned(ctx) -> bool:
    """Whether XLA will partition the program being lowered over several devices.

    Read defensively from the lowering context, so that a JAX release that renames
    the field only costs the partition-friendly lowering, never correctness.
    """
    axis_context = getattr(ctx.module_context, "axis_context", None)
    return getattr(axis_context, "num_devices", 1) > 1


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
    return jax.sharding.reshard(value, sharding)


def _varying_axes(value) -> frozenset:
    return getattr(getattr(jax.typeof(value), "mat", None), "varying", None) or frozenset()


def match_varying(*values):
    """Casts operands to the union of the mesh axes they vary over.

    Inside ``shard_map`` a sharded ``x`` (varying over a mesh axis) may meet a
    replicated pad value (invariant). JAX casts the operands of its own primitives
    this way; the cast's transpose then sums the invariant operand's cotangent over
    the axis, as its gradient must be.
    """
    varying = [_varying_axes(value) for value in values]
    union = frozenset().union(*varying)
    if all(axes == union for axes in varying):
        return values
    return tuple(
        lax.pcast(value, tuple(sorted(union - axes)), to="varying") if union - axes else value
        for value, axes in zip(values, varying)
    )
