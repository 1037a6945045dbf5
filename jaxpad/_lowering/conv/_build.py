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

from jaxpad._lowering.conv import _exact
from jaxpad._lowering.conv._bilinear import BilinearRules, bilinear, with_b_transpose
from jaxpad._lowering.conv._framed import (
    _framed_pieces,
    _framed_split,
    _joined,
    _with_input_gradient,
)
from jaxpad._lowering.conv._grouped import _block_diagonal
from jaxpad._lowering.conv._guard import guarded, guarded_form
from jaxpad._lowering.conv._jvp import _bilinear_custom_jvp, _with_tangent
from jaxpad._lowering.conv._phases import phases_conv
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

    def form(name, pad_products=False):
        return partial(_padded_conv, name, plan.slice_axis, pad_products=pad_products, **options)

    framed_applies = plan.tangent == "framed" and not (
        any(p != (0, 0) for p in padding)
        or any(int(s) != 1 for s in strides)
        or any(d != 1 for d in lhs_dilation or ())
        or feature_group_count != 1
    )
    if (
        plan.form in _EXACT_FORMS
        and (plan.tangent in (None, "framed") or plan.tangent in _EXACT_FORMS)
        and all(d == 1 for d in lhs_dilation or ())
        and conv_general_dilated is lax.conv_general_dilated
        and not (set(conv_kwargs) - {"preferred_element_type"})
    ):
        return _exact_derivatives(
            plan, form, x, kernel, framed_applies, preferred_element_type, **options
        )
    if plan.tangent is None:
        return form(plan.form)(x, kernel)
    if plan.tangent == "framed":
        if not framed_applies:
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


# The forms whose derivatives ``_exact_derivatives`` writes.
_EXACT_FORMS = frozenset(("plain", "pad_slice", "rows", "block_diagonal", "grouped_taps"))


def _exact_derivatives(plan, form, xp, kernel, framed, preferred_element_type, **options):
    """``plan``'s convolution of the padded ``xp``, whose derivatives sum exactly the
    padded convolution's products (docs/semantics.md, "Infinities and nan"): one
    bilinear primitive (``_bilinear``), its value in the plan's form. Its forward mode
    (and Taylor mode) is a form with those products only (not the block-diagonal one,
    whose zeros multiply); its
    input gradient the tangent form's (or the frame's); its kernel gradient
    ``_exact.kernel_gradient``'s, where autodiff's would multiply the zero cotangent of
    the extra zero's output by ``xp``'s last rows. With the convolution's own zero
    padding (constant mode), the pad's zeros times a non-finite tap or cotangent are
    ``nan``, as those products are."""
    numbers = options["numbers"]
    spatial = xp.ndim - 2
    groups = options["feature_group_count"]
    geometry = _exact.Geometry(
        strides=options["strides"],
        padding=tuple((int(lo), int(hi)) for lo, hi in options["padding"]),
        numbers=numbers,
        rhs_dilation=tuple(int(d) for d in options["rhs_dilation"] or (1,) * spatial),
        feature_group_count=groups,
        precision=options["precision"],
        preferred_element_type=preferred_element_type,
    )
    block_diagonal = "block_diagonal" in (plan.form, plan.tangent)
    forward = form("plain" if block_diagonal else plan.form, pad_products=True)
    spec = jax.ShapeDtypeStruct(xp.shape, xp.dtype)

    def input_gradient(ct, kernel):
        if framed:
            pieces = _framed_pieces(
                ct,
                kernel,
                numbers=numbers,
                rhs_dilation=geometry.rhs_dilation,
                precision=geometry.precision,
                preferred_element_type=preferred_element_type,
            )
            return _joined(pieces, numbers)
        # A frame that does not apply differentiates the value's form.
        linear = form(plan.form if plan.tangent in (None, "framed") else plan.tangent)
        if not (block_diagonal and groups > 1):
            return jax.linear_transpose(lambda xp: linear(xp, kernel), spec)(ct)[0]
        # The block-diagonal kernel's zeros would meet a non-finite cotangent: where
        # it holds one, the grouped convolution's own transpose (``_guard``).
        lax_form = form("plain")

        def fast(ct, kernel):
            return jax.linear_transpose(lambda xp: linear(xp, kernel), spec)(ct)[0]

        def exact(ct, kernel):
            return jax.linear_transpose(lambda xp: lax_form(xp, kernel), spec)(ct)[0]

        return bilinear(ct, kernel, guarded(fast, exact, ct, kernel, check="a"))

    def kernel_gradient(xp, ct):
        return _exact.kernel_gradient(
            xp,
            ct,
            kernel.shape,
            geometry,
            slice_axis=plan.slice_axis,
            kernel_map=(
                partial(_block_diagonal, numbers=numbers, groups=groups)
                if block_diagonal and groups > 1
                else None
            ),
        )

    tangent = BilinearRules(forward, input_gradient, kernel_gradient)
    if not block_diagonal or plan.form == "plain":
        return bilinear(xp, kernel, tangent)
    value = form(plan.form, pad_products=True)
    return bilinear(xp, kernel, BilinearRules(value, input_gradient, kernel_gradient, tangent))


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

    def tangent(form, operand):
        """The tangent of ``form`` in one operand: for a form ``build_conv`` builds, its
        own (``jax.jvp``), so that its exact derivatives are kept; for a strip form,
        the form where the kernel's place and the cotangent are finite, else the plain
        form (``_guard``: its zeros would meet them)."""
        if form == "phases" and operand == 1:
            # The kernel's derivatives by output phase (a kernel-tangent form only).
            # They multiply no zero that lax's own do not (the convolution's padding;
            # no inserted zero), so a non-finite value lands where lax's puts it.
            fast = partial(
                phases_conv,
                pads=pads,
                lhs_dilation=options["lhs_dilation"],
                numbers=numbers,
                precision=options["precision"],
                preferred_element_type=options["preferred_element_type"],
            )
            return lambda x, kernel, d_kernel: bilinear(
                x, d_kernel, with_b_transpose(built("plain"), fast, x, d_kernel)
            )
        if form in _UNPADDED:
            fast, exact = built(form), built("plain")
            if operand == 0:
                return lambda x, kernel, d_x: bilinear(
                    d_x, kernel, guarded_form(fast, exact, d_x, kernel)
                )
            return lambda x, kernel, d_kernel: bilinear(
                x, d_kernel, guarded_form(fast, exact, x, d_kernel)
            )
        if operand == 0:
            return lambda x, kernel, d_x: jax.jvp(lambda x: built(form)(x, kernel), (x,), (d_x,))[1]
        return lambda x, kernel, d_kernel: jax.jvp(
            lambda kernel: built(form)(x, kernel), (kernel,), (d_kernel,)
        )[1]

    return _bilinear_custom_jvp(
        built(plan.form),
        tangent(plan.tangent, 0),
        tangent(plan.kernel_tangent or plan.tangent, 1),
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
