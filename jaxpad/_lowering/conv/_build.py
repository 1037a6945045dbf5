"""``build_conv``: the convolution a ``ConvPlan`` names, its value in the plan's form and
its derivatives in the plan's tangent forms (``_jvp``); the forms on the padded input
(``_plain``) and the strip forms on the unpadded one (``_strips``, ``_framed``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import jax
from jax import lax

from jaxpad._lowering.conv._framed import _framed_pieces, _framed_split, _with_input_gradient
from jaxpad._lowering.conv._jvp import _bilinear_custom_jvp, _with_tangent
from jaxpad._lowering.conv._plain import _padded_conv
from jaxpad._lowering.conv._plan import ConvPlan, conv_padding
from jaxpad._lowering.conv._strips import _banded, _border, _ghost, _lax_conv
from jaxpad._pad import pad_piece


def build_conv(
    plan: ConvPlan,
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
    conv_general_dilated: Callable[..., jax.Array] = lax.conv_general_dilated,
    **conv_kwargs: Any,
) -> jax.Array:
    """The convolution ``plan`` says: equal to the plain form for the same arguments."""
    # Forms built from the unpadded input (or, banded, one padded axis) have their own
    # builders; the rest pad in the mode here.
    if plan.form == "banded":
        builder = _banded_conv
    elif plan.kernel_tangent is not None or _UNPADDED.intersection((plan.form, plan.tangent)):
        builder = _unpadded_conv
    else:
        builder = None
    if builder is not None:
        return builder(
            plan,
            x,
            kernel,
            strides,
            pads,
            mode,
            numbers,
            lhs_dilation=lhs_dilation,
            rhs_dilation=rhs_dilation,
            feature_group_count=feature_group_count,
            precision=precision,
            preferred_element_type=preferred_element_type,
            conv_general_dilated=conv_general_dilated,
            **conv_kwargs,
        )
    padding, prepad = conv_padding(pads, mode, lhs_dilation)
    if prepad:
        lo, hi = [0] * x.ndim, [0] * x.ndim
        for axis, (p_lo, p_hi) in zip(numbers.lhs_spec[2:], pads):
            lo[axis], hi[axis] = int(p_lo), int(p_hi)
        x = pad_piece(x, lo, hi, mode)
    if preferred_element_type is not None:
        conv_kwargs["preferred_element_type"] = preferred_element_type
    options = dict(
        strides=tuple(int(s) for s in strides),
        padding=padding,
        numbers=numbers,
        lhs_dilation=None if lhs_dilation is None else tuple(lhs_dilation),
        rhs_dilation=None if rhs_dilation is None else tuple(rhs_dilation),
        feature_group_count=feature_group_count,
        precision=precision,
        conv_general_dilated=conv_general_dilated,
        conv_kwargs=conv_kwargs,
    )

    def form(name):
        return partial(_padded_conv, name, plan.slice_axis, **options)

    if plan.tangent is None:
        return form(plan.form)(x, kernel)
    if plan.tangent == "framed":
        if (
            any(p != (0, 0) for p in padding)
            or any(int(s) != 1 for s in strides)
            or any(d != 1 for d in lhs_dilation or ())
            or feature_group_count != 1
        ):
            # Written for a stride-1 ungrouped VALID convolution of the padded input
            # (where the planner names it); anything else differentiates its value.
            return form(plan.form)(x, kernel)
        framed = dict(numbers=numbers, rhs_dilation=options["rhs_dilation"])
        pieces = partial(
            _framed_pieces,
            precision=precision,
            preferred_element_type=preferred_element_type,
            **framed,
        )
        split = partial(_framed_split, kernel_shape=kernel.shape, **framed)
        return _with_input_gradient(form(plan.form), pieces, split)(x, kernel)
    return _with_tangent(form(plan.form), form(plan.tangent))(x, kernel)


# The forms built on the unpadded input (each pads only its strips).
_UNPADDED = frozenset(("border", "ghost"))


def _unpadded_conv(plan, x, kernel, strides, pads, mode, numbers, **options):
    """``plan``'s convolution of the unpadded ``x`` where a form of ``_UNPADDED`` or a
    ``kernel_tangent`` is in it: the value in ``plan.form``, the derivatives through
    the input in ``plan.tangent`` and through the kernel in ``plan.kernel_tangent``
    (else ``plan.tangent``), each built as ``build_conv`` builds that form alone."""
    strides = tuple(int(s) for s in strides)
    pads = [(int(lo), int(hi)) for lo, hi in pads]

    def built(form):
        alone = dataclasses.replace(plan, form=form, tangent=None, kernel_tangent=None)
        if form not in _UNPADDED:
            return lambda x, kernel: build_conv(
                alone, x, kernel, strides, pads, mode, numbers, **options
            )
        conv = _lax_conv(strides, numbers, options)
        how = _border if form == "border" else _ghost
        return lambda x, kernel: how(
            x, kernel, strides, pads, mode, numbers, options["rhs_dilation"], conv
        )

    if plan.tangent is None:
        return built(plan.form)(x, kernel)
    through_input = built(plan.tangent)
    through_kernel = built(plan.kernel_tangent or plan.tangent)
    return _bilinear_custom_jvp(
        built(plan.form),
        lambda x, kernel, d_x: through_input(d_x, kernel),
        lambda x, kernel, d_kernel: through_kernel(x, d_kernel),
    )(x, kernel)


def _banded_conv(plan, x, kernel, strides, pads, mode, numbers, **options):
    """The banded value (``_banded``), with the derivatives (forward and reverse, every
    order) of ``plan`` with ``pad_slice`` for its form: through ``jax.jvp`` of that
    plan's convolution, so that its own tangent forms (the frame's) are kept."""
    pads = [(int(lo), int(hi)) for lo, hi in pads]
    derivatives = dataclasses.replace(plan, form="pad_slice")

    def other(x, kernel):
        return build_conv(derivatives, x, kernel, strides, pads, mode, numbers, **options)

    conv = _lax_conv(strides, numbers, options)
    return _bilinear_custom_jvp(
        lambda x, kernel: _banded(x, kernel, pads, mode, numbers, options["rhs_dilation"], conv),
        lambda x, kernel, d_x: jax.jvp(lambda x: other(x, kernel), (x,), (d_x,))[1],
        lambda x, kernel, d_kernel: jax.jvp(lambda k: other(x, k), (kernel,), (d_kernel,))[1],
    )(x, kernel)
