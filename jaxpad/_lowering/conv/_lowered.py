"""The entry points: ``lowered_conv`` (every convolution of ``jaxpad.nn``,
``jaxpad.flax`` and ``jaxpad.equinox``), and ``conv_general_dilated``, its drop-in twin
for ``lax.conv_general_dilated`` (zero padding)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
from jax import lax

from jaxpad._lowering.conv._plan import _is_symbolic
from jaxpad._lowering.conv._primitive import _planned_params, planned_conv_p
from jaxpad._lowering.conv._program import _explicitly_sharded, conv_program, platform_plans


def lowered_conv(
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
    batched_planning: bool = False,
    **conv_kwargs: Any,
) -> jax.Array:
    """``conv_general_dilated`` with the spatial ``pads`` filled in ``mode``, in the form
    the planner picks per platform (one program for CPU and one for the others).

    ``batched_planning``: plan with the shape ``jax.vmap`` gives the convolution, not the
    one the caller sees (a layer that runs per example, as Equinox's do): the
    convolution is one primitive, ``planned_conv_p``, whose batching rule merges the
    mapped axis into the batch and plans again. Where the platforms' plans differ the
    convolution is that primitive too, so that transformations without a rule for
    ``lax.platform_dependent``'s ``cond`` (``jax.experimental.jet``) take it; inside
    the primitive (``planned_conv``) it is the ``cond``."""
    conv_kwargs = {k: v for k, v in conv_kwargs.items() if v is not None}
    default_conv = (
        conv_general_dilated is None or conv_general_dilated is lax.conv_general_dilated
    ) and not conv_kwargs
    eligible = (
        default_conv
        and not _is_symbolic(x.shape)
        and not _is_symbolic(kernel.shape)
        and not (_explicitly_sharded(x) or _explicitly_sharded(kernel))
    )

    def bind():
        params = _planned_params(
            strides,
            pads,
            mode,
            numbers,
            lhs_dilation,
            rhs_dilation,
            feature_group_count,
            precision,
            preferred_element_type,
        )
        return planned_conv_p.bind(x, kernel, **params)

    if batched_planning and eligible:
        return bind()
    options: dict[str, Any] = dict(
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        feature_group_count=feature_group_count,
    )
    plans = platform_plans(
        x,
        kernel,
        strides,
        pads,
        mode,
        numbers,
        preferred_element_type=preferred_element_type,
        default_conv=default_conv,
        **options,
    )
    if eligible and plans["cpu"] != plans[None]:
        return bind()
    return conv_program(
        plans,
        x,
        kernel,
        strides,
        pads,
        mode,
        numbers,
        precision=precision,
        preferred_element_type=preferred_element_type,
        conv_general_dilated=conv_general_dilated,
        **options,
        **conv_kwargs,
    )


def conv_general_dilated(
    lhs: Any,
    rhs: Any,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    feature_group_count: int = 1,
    precision: Any = None,
    preferred_element_type: Any = None,
    *,
    conv: Callable[..., jax.Array] | None = None,
    **kwargs: Any,
) -> jax.Array:
    """A drop-in ``lax.conv_general_dilated`` (zero padding) through the planner; ``conv``
    is the caller's convolution function (lax's if None), called as given where the
    planner keeps the plain form."""
    numbers = lax.conv_dimension_numbers(lhs.shape, rhs.shape, dimension_numbers)
    spatial = lhs.ndim - 2
    dilated = lhs_dilation is not None and any(d != 1 for d in lhs_dilation)
    if isinstance(padding, str):
        if dilated or _is_symbolic(lhs.shape):
            # lax's own reading of a string with a dilated input: nothing to plan.
            return (conv or lax.conv_general_dilated)(
                lhs,
                rhs,
                window_strides,
                padding,
                lhs_dilation,
                rhs_dilation,
                dimension_numbers,
                feature_group_count,
                precision=precision,
                preferred_element_type=preferred_element_type,
                **kwargs,
            )
        sizes = [lhs.shape[a] for a in numbers.lhs_spec[2:]]
        window = [rhs.shape[a] for a in numbers.rhs_spec[2:]]
        dil = rhs_dilation or (1,) * spatial
        spans = [d * (k - 1) + 1 for k, d in zip(window, dil)]
        padding = lax.padtype_to_pads(sizes, spans, window_strides, padding)
    return lowered_conv(
        lhs,
        rhs,
        window_strides,
        [(int(lo), int(hi)) for lo, hi in padding],
        "constant",
        numbers,
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        feature_group_count=feature_group_count,
        precision=precision,
        preferred_element_type=preferred_element_type,
        conv_general_dilated=conv,
        **kwargs,
    )
