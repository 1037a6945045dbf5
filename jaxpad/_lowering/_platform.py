"""Registration and platform dispatch: what the lowering is for, read once from JAX's
lowering context, and the rule that hands it to the planner.

``register_lowering`` registers two rules per primitive, one for XLA:CPU and one for
every other platform, and builds the ``Target`` the planner sees from the lowering
context (``target_of``). That is the only place jaxpad reads the context. It reads
three long-standing attributes: ``module_context.axis_context`` with its
``num_devices`` and ``device_assignment`` (jit's sharding context; shard_map and pmap
lower per-device programs, which have neither), and
``module_context.lowering_parameters.for_export``. tests/test_platform.py fails if a
JAX release renames them, instead of the sharded forms silently falling back to the
plain ones.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from jax import lax
from jax.interpreters import mlir

from jaxpad._compat import auto_axes
from jaxpad._lowering._plans import Target, is_sided, plan_fold, plan_pad
from jaxpad._lowering._sided import build_sided_fold, build_sided_pad
from jaxpad._lowering._static import build_fold, build_pad
from jaxpad._sharding import explicit_axes

# The platforms whose measurements chose the gather forward over jnp.pad's
# concatenate. None yet: XLA:CPU lost with it inside programs (docs/performance.md,
# "Several pads in one program"), and no GPU or TPU table has chosen it
# (``python -m benchmarks.platform`` measures both there).
_GATHER_FORWARD_PLATFORMS: frozenset[str] = frozenset()


def target_of(ctx, platform: str | None) -> Target:
    """The ``Target`` of the program ``ctx`` lowers, for ``platform`` (None: any
    platform but CPU)."""
    module_context = ctx.module_context
    axis_context = module_context.axis_context
    gather = platform in _GATHER_FORWARD_PLATFORMS
    num_devices = getattr(axis_context, "num_devices", None)
    if num_devices is None:  # shard_map's and pmap's per-device programs
        return Target(platform, gather_forward=gather)
    # jax.export serializes no custom_partitioning op, which the planned exchange
    # (``_sharded_pad``) needs: exported programs get the plain partitioned forms.
    for_export = module_context.lowering_parameters.for_export
    known = bool(axis_context.device_assignment) and not for_export
    return Target(platform, partitioned=num_devices > 1, devices_known=known, gather_forward=gather)


def register_lowering(prim, lowering, *, per_platform=True, auto_axes=True):
    """Registers ``lowering`` (a function of the operands and params) as ``prim``'s
    lowering through ``mlir.lower_fun``.

    With ``per_platform`` the lowering also receives ``target=target_of(ctx, ...)``:
    one rule for CPU, one for each platform in ``_GATHER_FORWARD_PLATFORMS`` (so its
    target can ask for the gather), and one for every other platform. ``auto_axes`` runs it with a
    mesh's Explicit axes switched to Auto (``with_auto_axes``).
    """

    def rule(ctx, *args, platform=None, **params):
        fn = lowering
        if per_platform:
            fn = partial(lowering, target=target_of(ctx, platform))
        if auto_axes:
            fn = with_auto_axes(fn, ctx)
        return mlir.lower_fun(fn, multiple_results=False)(ctx, *args, **params)

    mlir.register_lowering(prim, rule)
    if per_platform:
        # XLA:CPU's measured forms, and any platform whose measurements chose the
        # gather forward; every other platform shares the default rule (platform None).
        for platform in ("cpu", *sorted(_GATHER_FORWARD_PLATFORMS)):
            mlir.register_lowering(prim, partial(rule, platform=platform), platform=platform)


def with_auto_axes(lowering, ctx):
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
    explicit = explicit_axes(mesh)
    if not explicit:
        return lowering

    def lowering_in_auto_axes(*args, **params):
        return auto_axes(partial(lowering, **params), axes=explicit, out_sharding=sharding)(*args)

    return lowering_in_auto_axes


def pad_lowering(x, pad_value, *, pads_begin, pads_end, interior, mode, target):
    if is_sided(mode):
        out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, x.shape, pads_end))
        return build_sided_pad(x, pad_value, out_shape, pads_begin, mode, target)
    if mode == "constant":
        return lax.pad(x, pad_value, list(zip(pads_begin, pads_end, interior)))
    # Interior padding needs mode="constant" (the shape rule checks it).
    out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, x.shape, pads_end))
    plan = plan_pad(x.shape, out_shape, pads_begin, mode, target, dtype=x.dtype)
    return build_pad(plan, x, out_shape, pads_begin, mode)


def fold_lowering(t, *, pads_begin, pads_end, interior, mode, operand_shape, target):
    if is_sided(mode):
        return build_sided_fold(t, operand_shape, pads_begin, mode, target)
    plan = plan_fold(operand_shape, t.shape, pads_begin, pads_end, mode, t.dtype, target)
    if plan.form == "crop":
        # Undo the exterior padding, then skip the interior pad values.
        unpadded = lax.pad(
            t, np.zeros((), t.dtype), [(-lo, -hi, 0) for lo, hi in zip(pads_begin, pads_end)]
        )
        return lax.slice(unpadded, (0,) * t.ndim, unpadded.shape, tuple(r + 1 for r in interior))
    return build_fold(plan, t, operand_shape)
