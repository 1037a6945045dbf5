"""One planned convolution's program: the plans for XLA:CPU and for every other platform
(``plan_conv``, called from here alone), each built by ``build_conv`` and joined by
``lax.platform_dependent`` where they differ; and ``lowered_conv_input_vjp``, a
transposed convolution built as the VJP of the plans' forms (where they differ, one
``jaxpad_conv_bilinear`` with the ``cond`` inside, which ``jax.experimental.jet``
takes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax

from jaxpad._lowering.conv._bilinear import BilinearRules, bilinear
from jaxpad._lowering.conv._build import build_conv
from jaxpad._lowering.conv._plan import ConvPlan, _is_symbolic, plan_conv


def _explicitly_sharded(value) -> bool:
    """Whether ``value``'s type names a mesh axis (explicit sharding, ``jax.set_mesh``)."""
    spec = getattr(getattr(jax.typeof(value), "sharding", None), "spec", None)
    return spec is not None and any(entry is not None for entry in spec)


def platform_plans(
    x: jax.Array,
    kernel: jax.Array,
    strides: Sequence[int],
    pads: Sequence[tuple[int, int]],
    mode: str,
    numbers: lax.ConvDimensionNumbers,
    *,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    feature_group_count: int = 1,
    preferred_element_type: Any = None,
    default_conv: bool = True,
) -> dict[str | None, ConvPlan]:
    """``plan_conv``'s plans of the convolution of ``x`` by ``kernel``, for XLA:CPU
    (``"cpu"``) and for every other platform (None)."""
    return {
        platform: plan_conv(
            x.shape,
            kernel.shape,
            numbers,
            pads,
            mode,
            strides,
            dtype=x.dtype,
            preferred_element_type=preferred_element_type,
            default_conv=default_conv,
            sharded=_explicitly_sharded(x) or _explicitly_sharded(kernel),
            platform=platform,
            lhs_dilation=lhs_dilation,
            rhs_dilation=rhs_dilation,
            feature_group_count=feature_group_count,
        )
        for platform in ("cpu", None)
    }


def conv_program(
    plans: dict[str | None, ConvPlan],
    x: jax.Array,
    kernel: jax.Array,
    strides: Sequence[int],
    pads: Sequence[tuple[int, int]],
    mode: str,
    numbers: lax.ConvDimensionNumbers,
    *,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    feature_group_count: int = 1,
    precision: Any = None,
    preferred_element_type: Any = None,
    conv_general_dilated: Callable[..., jax.Array] | None = None,
    **conv_kwargs: Any,
) -> jax.Array:
    """The convolution built in each platform's form of ``plans`` (``platform_plans``):
    one program, ``lax.platform_dependent``'s ``cond`` where the plans differ."""
    options: dict[str, Any] = dict(
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        feature_group_count=feature_group_count,
    )

    def build(plan):
        def run(x, kernel):
            return build_conv(
                plan,
                x,
                kernel,
                strides,
                pads,
                mode,
                numbers,
                precision=precision,
                preferred_element_type=preferred_element_type,
                conv_general_dilated=conv_general_dilated or lax.conv_general_dilated,
                **options,
                **conv_kwargs,
            )

        return run

    if plans["cpu"] == plans[None]:
        return build(plans[None])(x, kernel)
    return lax.platform_dependent(x, kernel, cpu=build(plans["cpu"]), default=build(plans[None]))


# Forms whose input derivative is lax's own transpose of a padded convolution: a
# transposed convolution gains nothing by being built as their VJP (it is the same
# transposed convolution, with the kernel transposed by the conv rather than by jnp).
_LAX_TRANSPOSED = frozenset(("plain", "pad_slice"))


def lowered_conv_input_vjp(
    ct: jax.Array,
    kernel: jax.Array,
    x_shape: Sequence[int],
    strides: Sequence[int],
    pads: Sequence[tuple[int, int]],
    mode: str,
    numbers: lax.ConvDimensionNumbers,
    lax_transposed: Callable[[jax.Array], jax.Array],
    *,
    rhs_dilation: Sequence[int] | None = None,
    feature_group_count: int = 1,
    precision: Any = None,
) -> jax.Array:
    """A transposed convolution: the VJP in its input of ``lowered_conv``'s convolution
    of an input of ``x_shape`` by ``kernel``, applied to ``ct``, where the platform's
    plan differentiates that convolution in a form of its own (each platform's form
    differentiated by its own rules, in its own branch); else
    ``lax_transposed(ct)``, the caller's transposed convolution.

    Differentiating ``lowered_conv`` itself would carry the residuals of one
    platform's form through the other's branch (zeros of ``lax.empty`` that
    exporters do not take); here the forward pass of each branch is dead code. Where
    the platforms' plans differ (static shapes, no explicit sharding) the ``cond`` is
    inside one bilinear primitive (``_input_vjp_rules``), as it is inside
    ``jaxpad_planned_conv`` for the forward convolution: ``jet`` has no rule for it."""
    options: dict[str, Any] = dict(
        rhs_dilation=rhs_dilation, feature_group_count=feature_group_count
    )
    sharded = _explicitly_sharded(ct) or _explicitly_sharded(kernel)
    plans = {
        platform: plan_conv(
            x_shape,
            kernel.shape,
            numbers,
            pads,
            mode,
            strides,
            dtype=ct.dtype,
            sharded=sharded,
            platform=platform,
            **options,
        )  # fmt: skip
        for platform in ("cpu", None)
    }

    if all((plan.tangent or plan.form) in _LAX_TRANSPOSED for plan in plans.values()):
        return lax_transposed(ct)
    geometry: dict[str, Any] = dict(
        strides=strides, pads=pads, mode=mode, numbers=numbers, precision=precision, **options
    )
    if plans["cpu"] == plans[None]:
        return _input_vjp(plans[None], x_shape, **geometry)(ct, kernel)
    if not (sharded or _is_symbolic(x_shape) or _is_symbolic(ct.shape)):
        # One primitive, as ``jaxpad_planned_conv`` is for the forward convolution, so that
        # transformations without a rule for the ``cond`` (``jax.experimental.jet``) take it.
        rules = _input_vjp_rules(plans, x_shape, kernel.shape, kernel.dtype, geometry)
        return bilinear(ct, kernel, rules)

    def build(plan):
        if (plan.tangent or plan.form) in _LAX_TRANSPOSED:
            return lambda ct, kernel: lax_transposed(ct)
        return _input_vjp(plan, x_shape, **geometry)

    return lax.platform_dependent(ct, kernel, cpu=build(plans["cpu"]), default=build(plans[None]))


def _input_vjp(plan, x_shape, *, strides, pads, mode, numbers, precision, **options):
    """``(ct, kernel) ->`` the VJP in its input of ``plan``'s convolution of an input of
    ``x_shape`` by ``kernel``."""

    def run(ct, kernel):
        def forward(x):
            return build_conv(
                plan, x, kernel, strides, pads, mode, numbers, precision=precision, **options
            )

        return jax.vjp(forward, jnp.zeros(x_shape, ct.dtype))[1](ct)[0]

    return run


def _kernel_vjp(
    plan, kernel_shape, kernel_dtype, *, strides, pads, mode, numbers, precision, **options
):
    """``(ct, x) ->`` the VJP in its kernel of ``plan``'s convolution of ``x`` by a kernel
    of ``kernel_shape``."""

    def run(ct, x):
        def forward(kernel):
            return build_conv(
                plan, x, kernel, strides, pads, mode, numbers, precision=precision, **options
            )

        return jax.vjp(forward, jnp.zeros(kernel_shape, kernel_dtype))[1](ct)[0]

    return run


def _input_vjp_rules(plans, x_shape, kernel_shape, kernel_dtype, geometry):
    """The input VJP of the convolution ``plans`` plan per platform, as a bilinear
    function of the cotangent and the kernel (``_bilinear``): its value each
    platform's VJP, in its own branch of ``lax.platform_dependent`` (built from the
    operands alone: a primitive's rules hold no traced value, so the plain plan's
    branch is its VJP rather than the caller's transposed convolution, the same
    convolution); its transposes the convolution itself (in the cotangent) and the VJP
    in the kernel of the convolution of that cotangent (in the kernel), each platform's
    in its own branch too."""

    def value(ct, kernel):
        return lax.platform_dependent(
            ct,
            kernel,
            cpu=_input_vjp(plans["cpu"], x_shape, **geometry),
            default=_input_vjp(plans[None], x_shape, **geometry),
        )

    def ct_transpose(g, kernel):
        return conv_program(plans, g, kernel, **geometry)

    def kernel_transpose(ct, g):
        return lax.platform_dependent(
            ct,
            g,
            cpu=_kernel_vjp(plans["cpu"], kernel_shape, kernel_dtype, **geometry),
            default=_kernel_vjp(plans[None], kernel_shape, kernel_dtype, **geometry),
        )

    return BilinearRules(value, ct_transpose, kernel_transpose)
