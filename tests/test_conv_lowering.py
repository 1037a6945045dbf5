"""Tests for jaxpad/_lowering/conv/: the conv planner's rules, one test each, and the
values and gradients of every form against the plain one (pad, then VALID conv) and an
oracle (numpy's pad, then lax's VALID conv)."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import export, lax
from jax.test_util import check_grads

import jaxpad
from jaxpad._compat import CONV_FORMS_SECOND_DERIVATIVES_WRONG
from jaxpad._lowering import conv as _conv_lowering
from jaxpad._lowering.conv import ConvPlan, build_conv, plan_conv
from jaxpad._lowering.conv import _plan as _conv_plan
from jaxpad._lowering.conv import _program as _conv_program
from tests.cases import MODES
from tests.oracles import numpy_pad

# Before jax 0.8 the planner keeps the plain form for every conv (jaxpad/_compat.py):
# the tests of its other rules run from 0.8.
planner_rule = pytest.mark.skipif(
    CONV_FORMS_SECOND_DERIVATIVES_WRONG, reason="jax < 0.8: the planner keeps the plain form"
)

cpu_only = pytest.mark.skipif(
    jax.default_backend() != "cpu", reason="asserts on a compiled XLA:CPU program"
)

NHWC = ("NHWC", "HWIO", "NHWC")
NCHW = ("NCHW", "OIHW", "NCHW")


def _numbers(x_shape, k_shape, dn):
    return lax.conv_dimension_numbers(x_shape, k_shape, dn)


def _plan(x_shape, k_shape, dn, pads, mode, strides, platform="cpu", **kwargs):
    numbers = _numbers(x_shape, k_shape, dn)
    return plan_conv(x_shape, k_shape, numbers, pads, mode, strides, platform=platform, **kwargs)


# The planner ---------------------------------------------------------------------------


def test_conv_plan_names_its_forms():
    assert ConvPlan("plain").form == "plain"
    with pytest.raises(ValueError, match="form must be one of"):
        ConvPlan("im2col")


@pytest.mark.parametrize("mode", MODES)
def test_other_platforms_keep_pad_then_conv(mode):
    # Nobody measured GPU or TPU: the plain form, as Flax builds it.
    cases = [
        ((8, 16, 16, 32), (3, 3, 32, 32), 1),
        ((8, 16, 16, 32), (3, 3, 1, 32), 32),  # depthwise
        ((8, 18, 18, 32), (3, 3, 32, 32), 1),
    ]
    for x_shape, k_shape, groups in cases:
        plan = _plan(
            x_shape, k_shape, NHWC, [(1, 1)] * 2, mode, (1, 1), None, feature_group_count=groups
        )
        assert plan.form == "plain", plan


@planner_rule
def test_symbolic_sizes_take_the_plain_form():
    x_shape = export.symbolic_shape("b, 16, 16, 8")
    for groups, k_shape in ((1, (3, 3, 8, 8)), (8, (3, 3, 1, 8))):
        plan = _plan(
            x_shape, k_shape, NHWC, [(1, 1)] * 2, "reflect", (1, 1), feature_group_count=groups
        )
        assert plan == ConvPlan("plain", reason="symbolic sizes")


@planner_rule
def test_a_callers_own_conv_or_a_sharding_takes_the_plain_form():
    args = ((8, 16, 16, 8), (3, 3, 8, 8), NHWC, [(1, 1)] * 2, "reflect", (1, 1))
    assert _plan(*args).form == "banded"
    assert _plan(*args, default_conv=False).form == "plain"
    assert _plan(*args, sharded=True).form == "plain"


@planner_rule
@pytest.mark.parametrize("dn", [NHWC, NCHW])
@pytest.mark.parametrize("mode", MODES)
def test_depthwise_stride_one_up_to_7x7_takes_shifted_taps(dn, mode):
    # Table "Depthwise convolutions": 0.2-0.37x forward, 0.6-1.06x gradient of lax's
    # zero-padded depthwise conv; lax's own is what today's plain form costs.
    x_shape = (8, 16, 16, 32) if dn == NHWC else (8, 32, 16, 16)
    for k in (2, 3, 5, 7):
        k_shape = (k, k, 1, 32) if dn == NHWC else (32, 1, k, k)
        pads = [(k // 2, (k - 1) // 2)] * 2
        plan = _plan(x_shape, k_shape, dn, pads, mode, (1, 1), feature_group_count=32)
        assert plan.form == "shifted", (k, plan)
    # Dilated kernels read static slices all the same.
    plan = _plan(
        x_shape,
        (3, 3, 1, 32) if dn == NHWC else (32, 1, 3, 3),
        dn,
        [(2, 2)] * 2,
        mode,
        (1, 1),
        feature_group_count=32,
        rhs_dilation=(2, 2),
    )
    assert plan.form == "shifted"


@planner_rule
def test_depthwise_outside_the_measured_range_is_not_shifted():
    x_shape, pads = (8, 16, 16, 32), [(1, 1)] * 2
    dw = dict(feature_group_count=32)
    k3 = (3, 3, 1, 32)
    # 9x9: not measured.
    assert _plan(x_shape, (9, 9, 1, 32), NHWC, [(4, 4)] * 2, "reflect", (1, 1), **dw).form == (
        "plain"
    )
    # Strided: up to 5x5 (7x7 strided not measured).
    assert _plan(x_shape, k3, NHWC, pads, "reflect", (2, 2), **dw).form == "shifted"
    assert _plan(x_shape, (5, 5, 1, 32), NHWC, pads, "wrap", (1, 2), **dw).form == "shifted"
    assert (
        _plan(x_shape, (7, 7, 1, 32), NHWC, [(3, 3)] * 2, "reflect", (2, 2), **dw).form == "plain"
    )
    # A channel multiplier of 2, half precision, a wider result type, a dilated input,
    # a 1x1 kernel: not the shifted form.
    assert _plan(x_shape, (3, 3, 1, 64), NHWC, pads, "reflect", (1, 1), **dw).form == "plain"
    assert (
        _plan(x_shape, k3, NHWC, pads, "reflect", (1, 1), dtype=jnp.float16, **dw).form == "plain"
    )
    assert (
        _plan(
            x_shape, k3, NHWC, pads, "reflect", (1, 1), preferred_element_type=jnp.float64, **dw
        ).form
        == "plain"
    )
    assert (
        _plan(x_shape, k3, NHWC, pads, "constant", (1, 1), lhs_dilation=(2, 2), **dw).form
        == "plain"
    )
    assert _plan(x_shape, (1, 1, 1, 32), NHWC, [(0, 0)] * 2, "edge", (1, 1), **dw).form == "plain"


@planner_rule
@pytest.mark.parametrize("mode", MODES[1:])
def test_stride_one_after_a_pad_in_a_mode_is_pad_slice(mode):
    # Table "Padded convolutions": pad then VALID conv 2.3-4.2x forward; one extra zero
    # on the first spatial axis 1.0-1.3x.
    # (3x3 channels-last takes the banded value: the next test.)
    plan = _plan((8, 16, 16, 32), (5, 5, 32, 32), NHWC, [(2, 2)] * 2, mode, (1, 1))
    assert (plan.form, plan.slice_axis) == ("pad_slice", 0)
    plan = _plan((8, 32, 16, 16), (32, 32, 3, 3), NCHW, [(1, 1)] * 2, mode, (1, 1))
    assert plan.form == "pad_slice" and plan.slice_axis == 0
    # The first spatial axis has a window of 1: the extra zero goes on the next one.
    plan = _plan((8, 16, 16, 32), (1, 3, 32, 32), NHWC, [(0, 0), (1, 1)], mode, (1, 1))
    assert plan.form == "pad_slice" and plan.slice_axis == 1
    # 3-D, dilated.
    plan = _plan(
        (2, 8, 8, 8, 8), (3, 3, 3, 8, 8), ("NDHWC", "DHWIO", "NDHWC"), [(1, 1)] * 3, mode, (1,) * 3
    )
    assert plan.form == "pad_slice"
    plan = _plan(
        (8, 16, 16, 32), (3, 3, 32, 32), NHWC, [(2, 2)] * 2, mode, (1, 1), rhs_dilation=(2, 2)
    )
    assert plan.form == "pad_slice"


@planner_rule
@pytest.mark.parametrize("mode", MODES[1:])
def test_3x3_channels_last_stride_one_in_a_mode_takes_the_banded_value(mode):
    # Table "The banded value": the first axis's pads as the convolution's own zeros and
    # its border rows from strips beat the extra zero's value at 3x3 channels-last (one
    # pass for the pad, no slice), lost at 5x5 and tied or lost dilated. Its
    # derivatives stay the extra zero's. At 128 channels it lost.
    pads = [(1, 1)] * 2
    plan = _plan((8, 32, 32, 32), (3, 3, 32, 32), NHWC, pads, mode, (1, 1))
    assert plan == ConvPlan("banded", 0, plan.reason), plan
    plan = _plan((8, 64, 64, 64), (3, 3, 64, 64), NHWC, pads, mode, (1, 1))
    assert plan == ConvPlan("banded", 0, plan.reason), plan
    plan = _plan((8, 32, 32, 8), (3, 3, 8, 16), NHWC, [(2, 0), (0, 2)], mode, (1, 1))
    assert plan == ConvPlan("banded", 0, plan.reason), plan
    for x_shape, k_shape, dn, widths, options in (
        ((8, 32, 32, 32), (5, 5, 32, 32), NHWC, [(2, 2)] * 2, {}),
        ((4, 32, 32, 128), (3, 3, 128, 128), NHWC, pads, {}),
        ((4, 32, 32, 64), (3, 3, 64, 128), NHWC, pads, {}),
        ((8, 32, 32, 32), (3, 3, 32, 32), NHWC, [(2, 2)] * 2, dict(rhs_dilation=(2, 2))),
        ((8, 32, 32, 32), (32, 32, 3, 3), NCHW, pads, {}),
        ((8, 2, 32, 32), (3, 3, 32, 32), NHWC, pads, {}),  # the first axis under the window
        ((8, 32, 32, 32), (3, 3, 32, 32), NHWC, pads, dict(dtype=jnp.float16)),
    ):
        plan = _plan(x_shape, k_shape, dn, widths, mode, (1, 1), **options)
        assert plan.form == "pad_slice", (x_shape, k_shape, options, plan)
    assert _plan((8, 32, 32, 32), (3, 3, 32, 32), NHWC, pads, "constant", (1, 1)).form == "plain"
    assert _plan((8, 32, 32, 32), (3, 3, 32, 32), NHWC, pads, mode, (2, 2)).form == "border"
    assert _plan((8, 32, 32, 3), (3, 3, 3, 32), NHWC, pads, mode, (1, 1)).tangent == "rows"


@planner_rule
@cpu_only
def test_cpu_banded_program_pads_no_whole_input_on_the_first_axis():
    x = jnp.ones((2, 12, 10, 32), jnp.float32)
    kernel = jnp.ones((3, 3, 32, 32), jnp.float32)

    def f(x, kernel):
        return jaxpad.nn.conv(
            x, kernel, 1, jaxpad.policies.torch(1), "reflect", dimension_numbers=NHWC
        )

    text = jax.jit(f).lower(x, kernel).as_text()
    convs = re.findall(
        r"stablehlo.convolution.*pad = \[\[(\d+), (\d+)\].*\(tensor<(\d+)x(\d+)x(\d+)x", text
    )
    # The convolution of the whole input: the input padded along W only, its own zeros
    # along H; the border rows' strips (both in one convolution, twice the batch) are
    # three rows high.
    assert sorted((int(p), int(q), int(b), int(h), int(w)) for p, q, b, h, w in convs) == [
        (0, 0, 4, 3, 12),
        (1, 1, 2, 12, 12),
    ], convs
    expected = build_conv(
        ConvPlan("plain"),
        x,
        kernel,
        (1, 1),
        [(1, 1)] * 2,
        "reflect",
        _numbers(x.shape, kernel.shape, NHWC),
    )
    np.testing.assert_allclose(jax.jit(f)(x, kernel), expected, rtol=1e-6)


@planner_rule
def test_no_rule_takes_the_framed_input_gradient():
    # Table "The input gradient's frame, two ISAs": the framed gradient won by up to 13%
    # at some 3x3 channels-last shapes with 48-64 channels and lost by up to 42% at
    # others, alike with AVX-512 and with AVX2 alone (it had won at 48-80 channels on
    # another host): every padded 3x3 convolution takes autodiff's gradient of its
    # value form, VALID ones too.
    pads = [(1, 1)] * 2
    for x_shape, k_shape, options in (
        ((8, 16, 16, 48), (3, 3, 48, 48), {}),
        ((8, 16, 16, 64), (3, 3, 64, 80), {}),
        ((8, 16, 16, 64), (3, 3, 64, 64), dict(rhs_dilation=(2, 2))),
    ):
        widths = pads if not options else [(2, 2)] * 2
        plan = _plan(x_shape, k_shape, NHWC, widths, "wrap", (1, 1), **options)
        # The value banded where that rule applies (undilated, up to 64 channels; its
        # own test above).
        value = "banded" if not options and k_shape[3] <= 64 else "pad_slice"
        assert plan == ConvPlan(value, 0, plan.reason), plan
    valid = _plan((8, 16, 16, 64), (3, 3, 64, 64), NHWC, [(0, 0)] * 2, "constant", (1, 1))
    assert valid.tangent != "framed"
    for x_shape, k_shape, dn, widths, strides, mode, options in (
        ((8, 64, 64, 64), (64, 64, 3, 3), NCHW, pads, (1, 1), "reflect", {}),  # NCHW, 8 MiB
        ((8, 32, 16, 16), (32, 32, 3, 3), NCHW, pads, (1, 1), "reflect", {}),  # NCHW, 0.3 MiB
        ((8, 64, 64, 64), (3, 3, 64, 64), NHWC, pads, (1, 1), "edge", {}),  # edge
        ((8, 16, 16, 32), (3, 3, 32, 32), NHWC, pads, (1, 1), "reflect", {}),  # 32 channels
        ((4, 16, 16, 64), (3, 3, 64, 96), NHWC, pads, (1, 1), "reflect", {}),  # 96 out
        ((4, 16, 16, 128), (3, 3, 128, 128), NHWC, pads, (1, 1), "symmetric", {}),  # 128
        ((8, 16, 16, 64), (5, 5, 64, 64), NHWC, [(2, 2)] * 2, (1, 1), "reflect", {}),  # 5x5
        ((8, 16, 16, 64), (3, 3, 64, 64), NHWC, pads, (1, 1), "reflect", dict(dtype=jnp.float64)),
        ((8, 64, 16, 16), (64, 64, 3, 3), NCHW, pads, (2, 2), "reflect", {}),  # strided
    ):
        plan = _plan(x_shape, k_shape, dn, widths, mode, strides, **options)
        assert plan.form in ("pad_slice", "banded") and plan.tangent != "framed", plan
    strided = _plan((8, 16, 16, 32), (3, 3, 32, 32), NHWC, pads, "reflect", (2, 2))
    assert strided.form == "border" and "framed" not in (strided.tangent, strided.kernel_tangent)
    # A stem keeps the row-stacked tangent.
    assert _plan((4, 64, 64, 3), (3, 3, 3, 64), NHWC, pads, "reflect", (1, 1)).tangent == "rows"


@cpu_only
def test_cpu_framed_input_gradient_is_the_same_correlation_plus_strips():
    # The framed tangent form (no planner rule takes it now; it stays a form).
    x = jnp.ones((2, 12, 12, 64), jnp.float32)
    kernel = jnp.ones((3, 3, 64, 64), jnp.float32)
    numbers = _numbers(x.shape, kernel.shape, NHWC)
    plan = ConvPlan("banded", 0, tangent="framed")

    def grad(x, kernel):
        def loss(x):
            return jnp.sum(build_conv(plan, x, kernel, (1, 1), [(1, 1)] * 2, "reflect", numbers))

        return jax.grad(loss)(x)

    text = jax.jit(grad).lower(x, kernel).as_text()
    # Every convolution of the input gradient: the middle ("SAME", its output as large
    # as its input) or a strip one row or column wide; none as large as the padded input.
    shapes = re.findall(r"stablehlo.convolution.*-> tensor<(\d+)x(\d+)x(\d+)x(\d+)xf32>", text)
    outputs = {tuple(int(n) for n in shape[1:3]) for shape in shapes}
    assert (12, 12) in outputs and (14, 14) not in outputs, outputs
    assert all(o == (12, 12) or 1 in o for o in outputs), outputs


def _compiled_convolutions(fn, *args):
    text = jax.jit(fn).lower(*args).compile().as_text()
    return sorted(re.findall(r"= f32\[([\d,]+)\][^ ]* convolution\(", text))


@cpu_only
@planner_rule
@pytest.mark.parametrize("mode", ["reflect", "edge", "wrap"])
@pytest.mark.parametrize("groups", [1, 2])
def test_cpu_strided_conv_transpose_runs_the_convolutions_of_conv_vjp(mode, groups):
    # The full transposed convolution then the fold was conv's VJP in value but not in
    # program: at stride 2 the planner differentiates the convolution in the border
    # form (a zero-padded strided convolution's transpose and strips), and the full
    # one ran up to 2.2x slower in some processes.
    rng = np.random.default_rng(5)
    x = jnp.asarray(rng.standard_normal((2, 14, 14, 32)), jnp.float32)
    kernel = jnp.asarray(rng.standard_normal((3, 3, 32 // groups, 40)), jnp.float32)
    policy = jaxpad.policies.torch(1)

    def conv(x):
        return jaxpad.nn.conv(
            x, kernel, 2, policy, mode, dimension_numbers=NHWC, feature_group_count=groups
        )

    ct = jnp.asarray(rng.standard_normal(jax.eval_shape(conv, x).shape), jnp.float32)

    def vjp(ct):
        return jax.vjp(conv, x)[1](ct)[0]

    def transposed(ct):
        return jaxpad.nn.conv_transpose(
            ct, kernel, 2, policy, 1, None, NHWC, True, mode, feature_group_count=groups
        )

    np.testing.assert_allclose(transposed(ct), vjp(ct), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(jax.jit(transposed)(ct), vjp(ct), rtol=1e-5, atol=1e-5)
    if groups == 1:  # grouped, the plan is plain: lax's own transposed convolution
        expected = _compiled_convolutions(vjp, ct)
        assert len(expected) > 1, expected  # the border form's strips
        assert _compiled_convolutions(transposed, ct) == expected


@cpu_only
@pytest.mark.parametrize("mode", ["reflect", "wrap"])
def test_cpu_conv_transpose_in_a_mode_is_the_vjp_of_conv(mode):
    # conv_transpose is the VJP of conv, whichever form computes it (the planner's VJP;
    # before jax 0.8, the framed full correlation where ``framed_applies``).
    rng = np.random.default_rng(3)
    y = jnp.asarray(rng.standard_normal((2, 12, 12, 64)), jnp.float32)
    kernel = jnp.asarray(rng.standard_normal((3, 3, 56, 64)), jnp.float32)
    policy = jaxpad.policies.torch(1)

    def transposed(y):
        return jaxpad.nn.conv_transpose(y, kernel, 1, policy, None, None, NHWC, True, mode)

    def oracle_vjp(y):
        def forward(x):
            padded = jnp.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), mode)
            return lax.conv_general_dilated(
                padded, kernel, (1, 1), "VALID", dimension_numbers=NHWC,
                precision=lax.Precision.HIGHEST,
            )  # fmt: skip

        x = jax.ShapeDtypeStruct((2, 12, 12, 56), jnp.float32)
        return jax.linear_transpose(forward, x)(y)[0]

    np.testing.assert_allclose(jax.jit(transposed)(y), oracle_vjp(y), rtol=1e-4, atol=1e-4)


def test_a_window_wider_than_the_padded_input_keeps_lax_s_result():
    # The plain form, so that lax answers as before (an empty output axis).
    for groups, k_shape in ((1, (3, 3, 4, 4)), (4, (3, 3, 1, 4))):
        plan = _plan(
            (2, 2, 5, 4),
            k_shape,
            NHWC,
            [(0, 0)] * 2,
            "constant",
            (1, 1),
            feature_group_count=groups,
        )
        assert plan.form == "plain"
        args = (jnp.ones((2, 2, 5, 4)), jnp.ones(k_shape), (1, 1), "VALID")
        options = dict(dimension_numbers=NHWC, feature_group_count=groups)
        expected = lax.conv_general_dilated(*args, **options)
        assert expected.shape == (2, 0, 3, 4)
        assert _conv_lowering.conv_general_dilated(*args, **options).shape == expected.shape


@planner_rule
def test_zero_padding_rules():
    args = ((8, 16, 16, 32), (3, 3, 32, 32), NHWC)
    # Non-negative zero pads are lax's own padding already: no slow path.
    assert _plan(*args, [(1, 1)] * 2, "constant", (1, 1)).form == "plain"
    assert _plan(*args, [(0, 1), (0, 0)], "constant", (1, 1)).form == "plain"
    # VALID, or a crop (padded, then VALID): the slow path, so pad_slice.
    assert _plan(*args, [(0, 0)] * 2, "constant", (1, 1)).form == "pad_slice"
    assert _plan(*args, [(-1, 0), (0, 0)], "constant", (1, 1)).form == "pad_slice"


@planner_rule
def test_strided_after_a_pad_in_a_mode_is_pad_slice_with_plain_derivatives():
    # Table "Strided convolutions": the extra zero's value 1.3-2.1x against the plain
    # form's 1.7-3.1x; its own derivatives were no faster than the plain form's. (3x3
    # channels-last takes the border value: the next test.)
    args = ((8, 16, 16, 32), (5, 5, 32, 32), NHWC, [(2, 2)] * 2, "reflect")
    for strides in ((2, 2), (1, 2)):
        plan = _plan(*args, strides)
        assert plan == ConvPlan("pad_slice", 0, plan.reason, "plain"), plan
    plan = _plan((8, 32, 16, 16), (32, 32, 3, 3), NCHW, [(1, 1)] * 2, "wrap", (2, 2))
    assert plan == ConvPlan("pad_slice", 0, plan.reason, "plain"), plan
    # Grouped, or zeros left to lax's own padding: as before.
    assert _plan(*args, (2, 2), feature_group_count=4).form == "plain"
    assert _plan(*args[:3], [(1, 1)] * 2, "constant", (2, 2)) == ConvPlan(
        "plain", reason="no measured form beats pad, then conv"
    )


@planner_rule
@pytest.mark.parametrize("mode", MODES[1:])
def test_strided_3x3_channels_last_in_a_mode_takes_the_border_value(mode):
    # Table "The strided border": the zero-padded conv with its border recomputed from
    # strips, 1.05-1.38x forward against pad_slice's 1.23-1.83x (stride 2, 3x3, NHWC).
    # Its derivatives: the next test.
    args = ((8, 16, 16, 32), (3, 3, 32, 32), NHWC)
    for strides, pads in (
        ((2, 2), [(1, 1)] * 2),
        ((1, 2), [(1, 1)] * 2),
        ((2, 3), [(2, 0), (0, 1)]),
    ):
        plan = _plan(*args, pads, mode, strides)
        assert plan.form == "border", plan
    assert _plan(*args[:2], NHWC, [(1, 1)] * 2, mode, (2, 2), dtype=jnp.float64).form == "border"
    # Not measured or lost: stride 1, 5x5 (lost), channels-first (lost), a dilated
    # kernel, a grouped conv, a crop, half precision, zeros (lax's own padding).
    not_border = [
        _plan(*args, [(1, 1)] * 2, mode, (1, 1)),
        _plan((8, 16, 16, 32), (5, 5, 32, 32), NHWC, [(2, 2)] * 2, mode, (2, 2)),
        _plan((8, 32, 16, 16), (32, 32, 3, 3), NCHW, [(1, 1)] * 2, mode, (2, 2)),
        _plan(*args, [(2, 2)] * 2, mode, (2, 2), rhs_dilation=(2, 2)),
        _plan(
            (8, 16, 16, 32), (3, 3, 8, 32), NHWC, [(1, 1)] * 2, mode, (2, 2), feature_group_count=4
        ),
        _plan(*args, [(-1, 1), (1, 1)], mode, (2, 2)),
        _plan(*args, [(1, 1)] * 2, mode, (2, 2), dtype=jnp.float16),
        _plan(*args, [(1, 1)] * 2, "constant", (2, 2)),
    ]
    assert all(plan.form != "border" for plan in not_border), not_border


@planner_rule
@pytest.mark.parametrize("mode", MODES[1:])
def test_strided_border_derivatives_kernel_s_ghost_input_s_border_without_a_high_pad(mode):
    # Table "Strided derivatives": the kernel's derivatives in the ghost form won at every
    # shape (3x3 stride 2, NHWC); the input's in the border form won where no output
    # reads the high pad and lost where one does, which keep the plain form's.
    args = ((8, 16, 16, 32), (3, 3, 32, 32), NHWC)
    for strides, pads, tangent in (
        ((2, 2), [(1, 1)] * 2, "border"),  # even sizes: the last window ends at the input
        ((2, 3), [(2, 0), (0, 1)], "border"),
        ((2, 2), [(1, 1), (1, 2)], "plain"),  # the last column's window reads the high pad
        ((1, 2), [(1, 1)] * 2, "plain"),  # at stride 1 the last row's does
    ):
        plan = _plan(*args, pads, mode, strides)
        assert plan == ConvPlan(
            "border", reason=plan.reason, tangent=tangent, kernel_tangent="ghost"
        ), (strides, pads, plan)
    # Odd sizes at stride 2 read the high pad.
    plan = _plan((8, 17, 16, 32), *args[1:], [(1, 1)] * 2, mode, (2, 2))
    assert (plan.tangent, plan.kernel_tangent) == ("plain", "ghost"), plan


@planner_rule
@pytest.mark.parametrize("mode", MODES[1:])
def test_strided_windows_tiling_the_padded_input_take_ghost_kernel_derivatives(mode):
    # Table "Strided derivatives": at 5x5 stride 2, NHWC, where the padded size minus the
    # window is a multiple of the stride on every axis, the ghost form's kernel
    # derivatives measured 1.08-1.26x of the zero-padded gradient against the plain
    # form's 1.37-1.49x; elsewhere they lost (1.21-1.25 against 1.02-1.11).
    k5 = (5, 5, 32, 32)
    for x_shape, strides in (((8, 17, 17, 32), (2, 2)), ((8, 17, 19, 32), (2, 2))):
        plan = _plan(x_shape, k5, NHWC, [(2, 2)] * 2, mode, strides)
        assert plan == ConvPlan("pad_slice", 0, plan.reason, "plain", "ghost"), plan
    others = [
        _plan((8, 16, 16, 32), k5, NHWC, [(2, 2)] * 2, mode, (2, 2)),  # 15 = 2 * 7 + 1
        _plan((8, 17, 16, 32), k5, NHWC, [(2, 2)] * 2, mode, (2, 2)),  # one axis only
        _plan((8, 32, 17, 17), (32, 32, 5, 5), NCHW, [(2, 2)] * 2, mode, (2, 2)),
        _plan((8, 17, 17, 32), (7, 7, 32, 32), NHWC, [(3, 3)] * 2, mode, (2, 2)),  # 7x7
        _plan((8, 21, 21, 32), k5, NHWC, [(0, 0)] * 2, "constant", (2, 2)),  # VALID
    ]
    for plan in others:
        assert (plan.form, plan.tangent, plan.kernel_tangent) == ("pad_slice", "plain", None)


def test_1d_and_dilated_input_convs_keep_the_plain_form():
    args = ((8, 16, 16, 32), (3, 3, 32, 32), NHWC, [(1, 1)] * 2, "reflect")
    # 1-D: XLA:CPU's 1-D conv showed no slow path; the extra row lost (table).
    for strides in ((1,), (2,)):
        plan = _plan((2, 64, 8), (3, 8, 8), ("NWC", "WIO", "NWC"), [(1, 1)], "wrap", strides)
        assert plan.form == "plain" and plan.tangent is None, plan
    # A transposed conv's dilated input: not measured.
    assert _plan(*args[:3], [(0, 0)] * 2, "constant", (1, 1), lhs_dilation=(2, 2)).form == ("plain")


@planner_rule
def test_pointwise_stride_one_is_a_matmul():
    # Table "Pointwise convolutions": 0.5-1.0x forward, 0.1-0.4x gradient of lax's.
    for dn, x_shape, k_shape in (
        (NHWC, (8, 16, 16, 32), (1, 1, 32, 96)),
        (("NHWC", "OIHW", "NHWC"), (8, 16, 16, 32), (96, 32, 1, 1)),
    ):
        for mode, pads in (("edge", [(0, 0)]), ("constant", [(1, 1)])):
            plan = _plan(x_shape, k_shape, dn, pads * (len(x_shape) - 2), mode, (1,) * 2)
            assert plan.form == "matmul" and plan.tangent is None, plan
    args = ((8, 16, 16, 32), (1, 1, 32, 32), NHWC, [(0, 0)] * 2, "edge")
    # Strided, grouped, half precision, channels first, 1-D: not measured.
    assert _plan((8, 16, 32), (1, 32, 8), ("NWC", "WIO", "NWC"), [(0, 0)], "edge", (1,)).form == (
        "plain"
    )
    assert _plan(*args, (2, 2)).form == "plain"
    assert _plan((8, 32, 16, 16), (96, 32, 1, 1), NCHW, [(0, 0)] * 2, "edge", (1, 1)).form == (
        "plain"
    )
    assert _plan(*args[:1], (1, 1, 8, 32), *args[2:], (1, 1), feature_group_count=4).form == (
        "plain"
    )
    assert _plan(*args, (1, 1), dtype=jnp.float16).form == "plain"


@planner_rule
def test_grouped_with_few_channels_per_group_takes_grouped_taps():
    # Table "Grouped convolutions": gradient (block-diagonal) 0.01-0.02x of lax's grouped
    # conv; value (grouped taps) 0.2x at 4 channels per group in NHWC, 6.3x at 8 in NCHW.
    for mode, pads in (("reflect", [(1, 1)] * 2), ("constant", [(1, 1)] * 2)):
        for groups, k_shape in ((16, (3, 3, 4, 64)), (32, (3, 3, 2, 32))):
            plan = _plan(
                (8, 16, 16, k_shape[2] * groups),
                k_shape,
                NHWC,
                pads,
                mode,
                (1, 1),
                feature_group_count=groups,
            )
            assert plan == ConvPlan("grouped_taps", None, plan.reason, "block_diagonal"), plan
        # 8 channels per group, or channels first: lax's value, the block-diagonal tangent.
        for dn, x_shape, k_shape in (
            (NHWC, (8, 16, 16, 64), (3, 3, 8, 64)),
            (NCHW, (8, 64, 16, 16), (64, 4, 3, 3)),
        ):
            groups = 8 if k_shape[2] == 8 else 16
            plan = _plan(x_shape, k_shape, dn, pads, mode, (1, 1), feature_group_count=groups)
            assert plan == ConvPlan("plain", None, plan.reason, "block_diagonal"), plan
    # More than 8 channels per group, taps past 3x3, strided, a channel multiplier
    # (1 input channel per group), half precision, more than 8 output channels per
    # group, a 1x1 kernel: not measured, no tangent form.
    x_shape, mode, one, two = (8, 16, 16, 64), "reflect", [(1, 1)] * 2, [(2, 2)] * 2
    for k_shape, widths, strides, groups, dtype in (
        ((3, 3, 16, 64), one, (1, 1), 4, jnp.float32),
        ((5, 5, 4, 64), two, (1, 1), 16, jnp.float32),
        ((3, 3, 4, 64), one, (2, 2), 16, jnp.float32),
        ((3, 3, 1, 128), one, (1, 1), 64, jnp.float32),
        ((3, 3, 4, 64), one, (1, 1), 16, jnp.float16),
        ((3, 3, 4, 256), one, (1, 1), 16, jnp.float32),  # 16 output channels per group
        ((1, 1, 4, 64), [(0, 0)] * 2, (1, 1), 16, jnp.float32),  # one tap
    ):
        plan = _plan(
            x_shape, k_shape, NHWC, widths, mode, strides, feature_group_count=groups, dtype=dtype
        )
        assert plan.form == "plain" and plan.tangent is None, (k_shape, plan)
    plan = _plan(
        (8, 32, 64), (3, 4, 64), ("NWC", "WIO", "NWC"), [(1, 1)], mode, (1,), feature_group_count=16
    )
    assert plan.form == "plain" and plan.tangent is None, plan  # 1-D: not measured


@planner_rule
def test_few_input_channels_take_the_row_stacked_tangent():
    # Table "Stem convolutions": the padded conv's input gradient 5.3x the zero-padded
    # one's at 3 channels, 7x7; the rows stacked into the features 1.2x.
    # Table "Stem derivatives": at 3x3 (and 3x1, 1x3) the kernel's derivatives in the
    # value's form beat the rows' (0.67-1.40x against 0.75-1.52x); at 5x5 and 7x7 not.
    # Table "Stem values": the banded value beat the extra zero's at 3x3 to 7x7.
    for x_shape, k_shape, kernel_tangent in (
        ((4, 64, 64, 3), (7, 7, 3, 64), None),
        ((4, 64, 64, 3), (5, 5, 3, 64), None),
        ((4, 64, 64, 3), (5, 3, 3, 64), None),
        ((4, 64, 64, 4), (3, 3, 4, 64), "pad_slice"),
        ((4, 64, 64, 3), (3, 1, 3, 64), "pad_slice"),
    ):
        pads = [(k // 2, k // 2) for k in k_shape[:2]]
        plan = _plan(x_shape, k_shape, NHWC, pads, "reflect", (1, 1))
        assert plan == ConvPlan("banded", 0, plan.reason, "rows", kernel_tangent), plan
    # The extra zero's value: a window past 7 taps, a first axis shorter than the
    # window's span, a crop.
    for x_shape, k_shape, pads in (
        ((4, 64, 64, 3), (9, 9, 3, 64), [(4, 4)] * 2),
        ((4, 4, 64, 3), (7, 7, 3, 64), [(3, 3)] * 2),
        ((4, 64, 64, 3), (5, 5, 3, 64), [(2, -1), (2, 2)]),
    ):
        plan = _plan(x_shape, k_shape, NHWC, pads, "reflect", (1, 1))
        assert plan.form == "pad_slice" and plan.tangent == "rows", (x_shape, k_shape, plan)
    # Channels first: not measured.
    plan = _plan((4, 3, 64, 64), (64, 3, 7, 7), NCHW, [(3, 3)] * 2, "reflect", (1, 1))
    assert plan.form == "pad_slice" and plan.tangent is None
    # Five channels, 3-D, a dilated kernel, zeros left to lax: no rows.
    assert (
        _plan((4, 64, 64, 5), (7, 7, 5, 64), NHWC, [(3, 3)] * 2, "reflect", (1, 1)).tangent is None
    )
    assert (
        _plan(
            (2, 8, 8, 8, 3),
            (3, 3, 3, 3, 8),
            ("NDHWC", "DHWIO", "NDHWC"),
            [(1, 1)] * 3,
            "wrap",
            (1,) * 3,
        ).tangent
        is None
    )
    plan = _plan(
        (4, 64, 64, 3), (3, 3, 3, 64), NHWC, [(2, 2)] * 2, "reflect", (1, 1), rhs_dilation=(2, 2)
    )
    assert plan.form == "pad_slice" and plan.tangent is None
    assert _plan((4, 64, 64, 3), (7, 7, 3, 64), NHWC, [(3, 3)] * 2, "constant", (1, 1)) == (
        ConvPlan("plain", reason="no measured form beats pad, then conv")
    )


@planner_rule
def test_transposed_convolutions_take_the_kernel_phases():
    # Table "Strided transposed convolutions by output phase": lax's kernel gradient of
    # a dilated-input convolution took 163-294 ms, one convolution per output phase
    # 9-12 ms; the value and the input gradient stay lax's.
    for x_shape, k_shape, dilation in (
        ((8, 16, 16, 32), (3, 3, 32, 32), (2, 2)),
        ((8, 16, 16, 32), (4, 4, 32, 16), (2, 3)),
        ((2, 8, 8, 3), (5, 5, 3, 8), (3, 1)),
    ):
        plan = _plan(
            x_shape, k_shape, NHWC, [(1, 2)] * 2, "constant", (1, 1), lhs_dilation=dilation
        )
        assert plan == ConvPlan("plain", None, plan.reason, "plain", "phases"), plan
    # Not measured: channels first, grouped, a dilated kernel, float64, 1-D; an
    # undilated input is no transposed convolution.
    for x_shape, k_shape, dn, options in (
        ((8, 32, 16, 16), (32, 32, 3, 3), NCHW, {}),
        ((8, 16, 16, 32), (3, 3, 8, 32), NHWC, dict(feature_group_count=4)),
        ((8, 16, 16, 32), (3, 3, 32, 32), NHWC, dict(rhs_dilation=(2, 2))),
        ((8, 16, 16, 32), (3, 3, 32, 32), NHWC, dict(dtype=jnp.float64)),
    ):
        plan = _plan(
            x_shape, k_shape, dn, [(1, 2)] * 2, "constant", (1, 1), lhs_dilation=(2, 2), **options
        )
        assert plan.kernel_tangent != "phases", (x_shape, options, plan)
    plan = _plan(
        (8, 16, 32),
        (3, 32, 32),
        ("NWC", "WIO", "NWC"),
        [(1, 2)],
        "constant",
        (1,),
        lhs_dilation=(2,),
    )
    assert plan.kernel_tangent != "phases", plan
    plan = _plan((8, 16, 16, 32), (3, 3, 32, 32), NHWC, [(1, 1)] * 2, "constant", (1, 1))
    assert plan.kernel_tangent != "phases", plan


# A dilated input (a transposed convolution): layout, x shape, kernel shape, dilation, pads.
PHASE_CASES = [
    (NHWC, (2, 5, 6, 3), (3, 3, 3, 4), (2, 2), [(1, 2), (1, 2)]),
    (NHWC, (2, 5, 6, 3), (4, 4, 3, 4), (2, 2), [(2, 3), (3, 2)]),
    (NHWC, (1, 4, 4, 2), (1, 1, 2, 2), (3, 3), [(0, 2), (1, 0)]),  # taps reach one phase
    (NHWC, (2, 5, 6, 3), (5, 3, 3, 4), (2, 3), [(-1, 2), (2, -1)]),  # crops and pads
    (NHWC, (2, 6, 5, 3), (3, 3, 3, 4), (2, 2), [(-2, -1), (-1, 3)]),
    (NCHW, (2, 3, 5, 6), (4, 3, 5, 2), (3, 2), [(4, 1), (0, 2)]),
    (("NWC", "WIO", "NWC"), (2, 7, 3), (3, 3, 4), (2,), [(1, 2)]),
    (("NDHWC", "DHWIO", "NDHWC"), (1, 3, 3, 4, 2), (3, 2, 3, 2, 3), (2, 2, 2),
     [(1, 1), (1, 0), (2, 2)]),
]  # fmt: skip


@pytest.mark.parametrize("dn, x_shape, k_shape, dilation, pads", PHASE_CASES)
def test_kernel_phases_against_lax(dn, x_shape, k_shape, dilation, pads):
    # The phases plan forced: value and gradients equal lax's dilated-input
    # convolution's, eagerly, under jit and under vmap (a batch of kernels), and pass
    # check_grads to order 2 (below).
    numbers = _numbers(x_shape, k_shape, dn)
    spatial = len(dilation)
    plan = ConvPlan("plain", tangent="plain", kernel_tangent="phases")
    rng = np.random.default_rng(sum(x_shape))
    x = jnp.asarray(rng.standard_normal(x_shape), jnp.float32)
    kernel = jnp.asarray(rng.standard_normal(k_shape), jnp.float32)
    common = dict(lhs_dilation=dilation, precision=lax.Precision.HIGHEST)

    def ours(x, kernel):
        return build_conv(plan, x, kernel, (1,) * spatial, pads, "constant", numbers, **common)

    def theirs(x, kernel):
        return lax.conv_general_dilated(
            x, kernel, (1,) * spatial, pads, dimension_numbers=numbers, **common
        )

    def loss(f):
        return lambda x, kernel: jnp.sum(jnp.sin(f(x, kernel)))

    np.testing.assert_allclose(ours(x, kernel), theirs(x, kernel), rtol=1e-5, atol=1e-5)
    want = jax.grad(loss(theirs), (0, 1))(x, kernel)
    for grad in (jax.grad(loss(ours), (0, 1)), jax.jit(jax.grad(loss(ours), (0, 1)))):
        for g, w in zip(grad(x, kernel), want):
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)
    kernels = jnp.stack([kernel, 2 * kernel])
    batched = jax.vmap(jax.grad(loss(ours), 1), (None, 0))(x, kernels)
    np.testing.assert_allclose(
        batched, jax.vmap(jax.grad(loss(theirs), 1), (None, 0))(x, kernels), rtol=1e-4, atol=1e-4
    )
    # Order 2 on the 2-D cases, the rule's (check_grads took 7.6 s on the 3-D case in
    # CI), but not with a crop on one side and a pad on the other: lax's own second
    # derivatives fail check_grads there (VJP of JVP off by 10%, jax 0.10.2), as do
    # these, which are built of lax's.
    if spatial == 2 and all(lo * hi >= 0 for lo, hi in pads):
        check_grads(ours, (x, kernel), order=2, modes=["fwd", "rev"], atol=5e-2, rtol=5e-2)


# One case per rule of the planner's RULES, which that rule decides: (rule, the case's
# arguments to _plan, the plan's (form, tangent, kernel_tangent)).
RULE_CASES = [
    ("unmeasured_platform", ((8, 16, 16, 8), (3, 3, 8, 8), NHWC, [(1, 1)] * 2, "reflect",
                             (1, 1), None), {}, ("plain", None, None)),
    ("jax_before_0_8", ((8, 16, 16, 8), (3, 3, 8, 8), NHWC, [(1, 1)] * 2, "reflect", (1, 1)),
     {}, ("plain", None, None)),
    ("symbolic_sizes", (export.symbolic_shape("b, 16, 16, 8"), (3, 3, 8, 8), NHWC,
                        [(1, 1)] * 2, "reflect", (1, 1)), {}, ("plain", None, None)),
    ("callers_conv", ((8, 16, 16, 8), (3, 3, 8, 8), NHWC, [(1, 1)] * 2, "reflect", (1, 1)),
     dict(default_conv=False), ("plain", None, None)),
    ("sharded_operands", ((8, 16, 16, 8), (3, 3, 8, 8), NHWC, [(1, 1)] * 2, "reflect",
                          (1, 1)), dict(sharded=True), ("plain", None, None)),
    ("window_does_not_fit", ((2, 2, 5, 4), (3, 3, 4, 4), NHWC, [(0, 0)] * 2, "constant",
                             (1, 1)), {}, ("plain", None, None)),
    ("depthwise_shifted", ((8, 16, 16, 32), (3, 3, 1, 32), NHWC, [(1, 1)] * 2, "reflect",
                           (1, 1)), dict(feature_group_count=32), ("shifted", None, None)),
    ("grouped_taps", ((8, 16, 16, 64), (3, 3, 4, 64), NHWC, [(1, 1)] * 2, "reflect", (1, 1)),
     dict(feature_group_count=16), ("grouped_taps", "block_diagonal", None)),
    ("grouped_block_diagonal", ((8, 64, 16, 16), (64, 4, 3, 3), NCHW, [(1, 1)] * 2, "wrap",
                                (1, 1)), dict(feature_group_count=16),
     ("plain", "block_diagonal", None)),
    ("pointwise_matmul", ((8, 16, 16, 32), (1, 1, 32, 96), NHWC, [(0, 0)] * 2, "edge",
                          (1, 1)), {}, ("matmul", None, None)),
    ("strided_border", ((8, 16, 16, 32), (3, 3, 32, 32), NHWC, [(1, 1)] * 2, "reflect",
                        (2, 2)), {}, ("border", "border", "ghost")),
    ("strided_tiling_ghost_kernel", ((8, 17, 17, 32), (5, 5, 32, 32), NHWC, [(2, 2)] * 2,
                                     "reflect", (2, 2)), {}, ("pad_slice", "plain", "ghost")),
    ("strided_pad_slice", ((8, 32, 16, 16), (32, 32, 3, 3), NCHW, [(1, 1)] * 2, "wrap",
                           (2, 2)), {}, ("pad_slice", "plain", None)),
    ("stem_rows", ((4, 64, 64, 3), (7, 7, 3, 64), NHWC, [(3, 3)] * 2, "reflect", (1, 1)), {},
     ("banded", "rows", None)),
    ("transposed_kernel_phases", ((8, 16, 16, 32), (3, 3, 32, 32), NHWC, [(1, 2)] * 2,
                                  "constant", (1, 1)), dict(lhs_dilation=(2, 2)),
     ("plain", "plain", "phases")),
    ("stride_one_pad_slice", ((8, 16, 16, 32), (5, 5, 32, 32), NHWC, [(2, 2)] * 2, "reflect",
                              (1, 1)), {}, ("pad_slice", None, None)),
]  # fmt: skip


def test_every_rule_has_a_case():
    assert [name for name, *_ in RULE_CASES] == [rule.__name__ for rule in _conv_plan.RULES]


@pytest.mark.parametrize(
    "name, args, options, expected", RULE_CASES, ids=[name for name, *_ in RULE_CASES]
)
@pytest.mark.subsample(len(RULE_CASES))  # plans only, nothing compiled: every rule
def test_each_rule_decides_its_case(name, args, options, expected, monkeypatch):
    # The rule's case plans as the rule says, and otherwise once the rule is removed
    # from RULES: no other rule stands in for it. jax < 0.8's rule (jaxpad/_compat.py)
    # is switched on for its own case only, so that each runs on every jax.
    monkeypatch.setattr(_conv_plan, "CONV_FORMS_SECOND_DERIVATIVES_WRONG", name == "jax_before_0_8")
    plan = _plan(*args, **options)
    assert (plan.form, plan.tangent, plan.kernel_tangent) == expected, plan
    (rule,) = [rule for rule in _conv_plan.RULES if rule.__name__ == name]
    monkeypatch.setattr(_conv_plan, "RULES", tuple(r for r in _conv_plan.RULES if r is not rule))
    assert _plan(*args, **options) != plan, name


def test_jax_before_0_8_keeps_the_plain_form(monkeypatch):
    # Before jax 0.8 some of the other forms' second derivatives were wrong
    # (jaxpad/_compat.py): every plan is the plain form there, tangents included.
    monkeypatch.setattr(_conv_plan, "CONV_FORMS_SECOND_DERIVATIVES_WRONG", True)
    for args, options in (
        (((8, 16, 16, 32), (3, 3, 32, 32), NHWC, [(1, 1)] * 2, "reflect", (1, 1)), {}),
        (((8, 16, 16, 32), (3, 3, 32, 32), NHWC, [(1, 1)] * 2, "wrap", (2, 2)), {}),
        (((8, 16, 16, 32), (3, 3, 1, 32), NHWC, [(1, 1)] * 2, "edge", (1, 1)),
         dict(feature_group_count=32)),
    ):  # fmt: skip
        plan = _plan(*args, **options)
        assert plan == ConvPlan("plain", reason="jax < 0.8: the other forms' second derivatives"), (
            plan
        )


def test_a_plan_names_known_tangent_forms():
    assert ConvPlan("pad_slice", 0, tangent="rows").tangent == "rows"
    with pytest.raises(ValueError, match="tangent must be None or one of"):
        ConvPlan("plain", tangent="im2col")
    assert ConvPlan("border", tangent="plain", kernel_tangent="ghost").kernel_tangent == "ghost"
    with pytest.raises(ValueError, match="kernel_tangent must be None or, with a tangent"):
        ConvPlan("border", tangent="plain", kernel_tangent="im2col")
    with pytest.raises(ValueError, match="kernel_tangent must be None or, with a tangent"):
        ConvPlan("border", kernel_tangent="ghost")


# Values ---------------------------------------------------------------------------------

# (dimension numbers, x shape, kernel shape, strides, kernel dilation, groups, pads)
CASES = [
    (NHWC, (2, 7, 6, 4), (3, 3, 4, 5), (1, 1), (1, 1), 1, [(1, 1), (1, 1)]),
    (NCHW, (2, 4, 7, 6), (5, 4, 3, 3), (1, 1), (1, 1), 1, [(1, 1), (1, 1)]),
    (NHWC, (2, 7, 6, 4), (3, 2, 4, 6), (1, 1), (1, 1), 1, [(2, 0), (0, 1)]),
    (NHWC, (2, 9, 8, 4), (3, 3, 4, 5), (2, 2), (1, 1), 1, [(1, 1), (1, 1)]),
    (NHWC, (2, 9, 8, 4), (3, 3, 4, 5), (1, 1), (2, 1), 1, [(2, 2), (1, 1)]),
    (NHWC, (2, 7, 6, 4), (3, 3, 2, 6), (1, 1), (1, 1), 2, [(1, 1), (1, 1)]),
    (NHWC, (2, 7, 6, 4), (3, 3, 1, 4), (1, 1), (1, 1), 4, [(1, 1), (1, 1)]),
    (NCHW, (2, 4, 7, 6), (4, 1, 5, 3), (1, 1), (1, 1), 4, [(2, 2), (1, 1)]),
    (NHWC, (2, 8, 8, 3), (3, 3, 1, 3), (1, 1), (2, 2), 3, [(2, 2), (2, 2)]),
    (NHWC, (2, 9, 8, 4), (3, 3, 1, 4), (2, 2), (1, 1), 4, [(1, 1), (1, 0)]),
    (NCHW, (2, 4, 9, 7), (4, 1, 3, 2), (2, 3), (2, 1), 4, [(2, 2), (0, 1)]),
    (NHWC, (2, 7, 6, 4), (3, 3, 4, 5), (1, 1), (1, 1), 1, [(0, 0), (0, 0)]),
    (("NWC", "WIO", "NWC"), (2, 9, 3), (3, 3, 4), (1,), (1,), 1, [(1, 1)]),
    (("NCW", "OIW", "NCW"), (2, 3, 9), (3, 1, 5), (1,), (1,), 3, [(2, 2)]),
    (("NDHWC", "DHWIO", "NDHWC"), (1, 5, 4, 5, 2), (3, 3, 3, 2, 3), (1,) * 3, (1,) * 3, 1,
     [(1, 1)] * 3),
    (("NCDHW", "OIDHW", "NCDHW"), (1, 2, 5, 4, 5), (2, 1, 3, 3, 3), (1,) * 3, (1,) * 3, 2,
     [(1, 1)] * 3),
    # Mixed layouts: the output in another order than the input.
    (("NHWC", "OIHW", "NCHW"), (2, 7, 6, 4), (4, 1, 3, 3), (1, 1), (1, 1), 4, [(1, 1)] * 2),
    # Pointwise (the matmul form), a crop and a pad; grouped, 2 and 3 channels per group.
    (NHWC, (2, 7, 6, 4), (1, 1, 4, 5), (1, 1), (1, 1), 1, [(1, 1), (0, 1)]),
    (NCHW, (2, 4, 7, 6), (5, 4, 1, 1), (2, 1), (1, 1), 1, [(-1, 0), (0, 0)]),
    (NHWC, (2, 7, 6, 8), (3, 3, 2, 8), (1, 1), (1, 1), 4, [(1, 1), (1, 1)]),
    (NCHW, (2, 6, 7, 6), (4, 3, 3, 2), (1, 2), (2, 1), 2, [(2, 2), (0, 1)]),
    # A stem: 3 input channels, 5x5.
    (NHWC, (2, 9, 8, 3), (5, 5, 3, 4), (1, 1), (1, 1), 1, [(2, 2), (2, 2)]),
]  # fmt: skip


def _forms_for(numbers, x_shape, k_shape, strides, groups, pads):
    """Every form that can build this convolution (the planner aside)."""
    forms = [ConvPlan("plain")]
    spans = [k_shape[a] for a in numbers.rhs_spec[2:]]
    axis = next((i for i, n in enumerate(spans) if n > 1), 0)
    forms.append(ConvPlan("pad_slice", axis))
    if any(s != 1 for s in strides):
        forms.append(ConvPlan("pad_slice", axis, tangent="plain"))
    if groups == 1 and all(lo >= 0 and hi >= 0 for lo, hi in pads):
        # Written for non-negative pads (where the planner names it).
        forms.append(ConvPlan("border"))
        forms.append(ConvPlan("border", tangent="plain"))
        forms.append(ConvPlan("ghost"))
        forms.append(ConvPlan("border", tangent="border", kernel_tangent="ghost"))
        forms.append(ConvPlan("border", tangent="plain", kernel_tangent="ghost"))
        forms.append(ConvPlan("pad_slice", axis, tangent="plain", kernel_tangent="ghost"))
        if all(s == 1 for s in strides):
            # Written for stride 1 (where the planner names it).
            forms.append(ConvPlan("banded", axis))
            forms.append(ConvPlan("banded", axis, tangent="framed"))
            forms.append(ConvPlan("banded", axis, tangent="rows"))
    depthwise = k_shape[numbers.rhs_spec[1]] == 1 and groups == x_shape[numbers.lhs_spec[1]]
    if depthwise and k_shape[numbers.rhs_spec[0]] == groups:
        forms.append(ConvPlan("shifted"))
    if groups > 1:
        forms.append(ConvPlan("grouped_taps", tangent="block_diagonal"))
        forms.append(ConvPlan("block_diagonal"))
    else:
        forms.append(ConvPlan("rows"))
        forms.append(ConvPlan("plain", tangent="rows"))
        forms.append(ConvPlan("pad_slice", axis, tangent="rows", kernel_tangent="pad_slice"))
        forms.append(ConvPlan("pad_slice", axis, tangent="framed"))
        if all(k_shape[a] == 1 for a in numbers.rhs_spec[2:]):
            forms.append(ConvPlan("matmul"))
    return forms


def _oracle(x, kernel, numbers, pads, mode, strides, dilation, groups):
    lo, hi = [0] * x.ndim, [0] * x.ndim
    for axis, (p_lo, p_hi) in zip(numbers.lhs_spec[2:], pads):
        lo[axis], hi[axis] = p_lo, p_hi
    padded = numpy_pad(np.asarray(x, np.float64), lo, hi, mode)
    return lax.conv_general_dilated(
        jnp.asarray(padded, jnp.float32),
        kernel,
        strides,
        "VALID",
        rhs_dilation=dilation,
        dimension_numbers=numbers,
        feature_group_count=groups,
        precision=lax.Precision.HIGHEST,
    )


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.subsample(0.2)
def test_every_form_equals_the_plain_one_eager_jit_vmap(case, mode, full_run):
    dn, x_shape, k_shape, strides, dilation, groups, pads = CASES[case]
    numbers = _numbers(x_shape, k_shape, dn)
    rng = np.random.default_rng(case)
    x = jnp.asarray(rng.standard_normal(x_shape), jnp.float32)
    kernel = jnp.asarray(rng.standard_normal(k_shape), jnp.float32)
    expected = _oracle(x, kernel, numbers, pads, mode, strides, dilation, groups)
    plans, seen = [], set()
    for plan in _forms_for(numbers, x_shape, k_shape, strides, groups, pads):
        if plan.form == "plain" and mode not in ("constant", "reflect"):
            continue  # the plain form (jaxpad.pad, then lax) is tested in every mode elsewhere
        if (plan.form, plan.slice_axis) in seen:
            continue  # a tangent form changes derivatives only: the value is tested once
        seen.add((plan.form, plan.slice_axis))
        plans.append(plan)

    def op(x, kernel, plan):
        return build_conv(
            plan,
            x,
            kernel,
            strides,
            pads,
            mode,
            numbers,
            rhs_dilation=dilation,
            feature_group_count=groups,
            precision=lax.Precision.HIGHEST,
        )

    def every_form(x, kernel):
        return [op(x, kernel, plan) for plan in plans]

    tol = dict(rtol=1e-5, atol=1e-5)
    # Every form in one program: one compile per case.
    for plan, got in zip(plans, jax.jit(every_form)(x, kernel)):
        np.testing.assert_allclose(got, expected, **tol, err_msg=plan.form)
    if mode not in (("constant", "reflect") if full_run else ("reflect",)):
        return  # eager and vmap: two modes, one in the default run; jit: every mode
    for plan in plans:
        np.testing.assert_allclose(op(x, kernel, plan), expected, **tol, err_msg=plan.form)
    # The batching rules, every form in one program.
    batched = jax.jit(jax.vmap(every_form, in_axes=(0, None)))(jnp.stack([x, 2 * x]), kernel)
    for plan, got in zip(plans, batched):
        np.testing.assert_allclose(got[1], 2 * expected, **tol, err_msg=plan.form)


GRAD_CASES = [
    (NHWC, (1, 4, 4, 2), (3, 3, 2, 2), 1, [(1, 1), (1, 1)], (1, 1)),
    (NCHW, (1, 2, 4, 5), (2, 1, 3, 2), 2, [(1, 1), (0, 1)], (1, 1)),
    (("NWC", "WIO", "NWC"), (2, 5, 2), (3, 1, 2), 2, [(1, 1)], (1,)),
    (NHWC, (1, 5, 4, 2), (3, 3, 1, 2), 2, [(1, 1), (1, 0)], (2, 1)),
    (NHWC, (1, 4, 4, 4), (3, 3, 2, 4), 2, [(1, 1), (1, 1)], (1, 1)),
    (NCHW, (1, 3, 4, 3), (2, 3, 1, 1), 1, [(1, 0), (0, 1)], (1, 1)),
    (NHWC, (1, 5, 4, 2), (3, 3, 2, 2), 1, [(1, 1), (1, 0)], (2, 2)),
    # Strided, no output reads the high pad (the border form's input derivatives).
    (NHWC, (1, 4, 4, 2), (3, 3, 2, 3), 1, [(1, 1), (1, 1)], (2, 2)),
]


def _grad_case(case, mode, plan):
    """``GRAD_CASES[case]``'s operands and its convolution in ``plan``'s form."""
    dn, x_shape, k_shape, groups, pads, strides = GRAD_CASES[case]
    numbers = _numbers(x_shape, k_shape, dn)
    rng = np.random.default_rng(case)
    x = jnp.asarray(rng.standard_normal(x_shape), jnp.float32)
    kernel = jnp.asarray(rng.standard_normal(k_shape), jnp.float32)

    def op(x, kernel):
        return build_conv(
            plan,
            x,
            kernel,
            strides,
            pads,
            mode,
            numbers,
            feature_group_count=groups,
            precision=lax.Precision.HIGHEST,
        )

    def oracle(x, kernel):
        widths = [(0, 0)] * x.ndim
        for axis, pair in zip(numbers.lhs_spec[2:], pads):
            widths[axis] = pair
        return lax.conv_general_dilated(
            jnp.pad(x, widths, mode),
            kernel,
            strides,
            "VALID",
            dimension_numbers=numbers,
            feature_group_count=groups,
            precision=lax.Precision.HIGHEST,
        )

    return (x, kernel), op, oracle


def _derivatives(f, x, kernel):
    """``f``'s derivatives of order one and two along fixed directions, in one jitted
    program: forward, reverse, forward over forward, forward over reverse, reverse over
    reverse."""
    rng = np.random.default_rng(1)
    dx, dk = (jnp.asarray(rng.standard_normal(a.shape), jnp.float32) for a in (x, kernel))
    ct = jnp.asarray(rng.standard_normal(jax.eval_shape(f, x, kernel).shape), jnp.float32)

    @jax.jit
    def run(x, kernel):
        def jvp(x, kernel):
            return jax.jvp(f, (x, kernel), (dx, dk))[1]

        def vjp(x, kernel):
            return jax.vjp(f, x, kernel)[1](ct)

        return (
            jvp(x, kernel),
            vjp(x, kernel),
            jax.jvp(jvp, (x, kernel), (dx, dk))[1],
            jax.jvp(vjp, (x, kernel), (dx, dk))[1],
            jax.vjp(vjp, x, kernel)[1](vjp(x, kernel)),
        )

    return run(x, kernel)


@pytest.mark.parametrize("case", range(len(GRAD_CASES)))
@pytest.mark.parametrize("mode", ["constant", "reflect", "wrap"])
@pytest.mark.subsample(8)  # every case and every mode, once
def test_every_form_s_derivatives_of_order_two_equal_the_oracle(case, mode):
    # The oracle: autodiff of jnp.pad, then lax's VALID conv. One compiled program per
    # form holds all five derivatives (check_grads' eager evaluations took 3-6 s a case).
    dn, x_shape, k_shape, groups, pads, strides = GRAD_CASES[case]
    numbers = _numbers(x_shape, k_shape, dn)
    (x, kernel), _, oracle = _grad_case(case, mode, ConvPlan("plain"))
    expected = _derivatives(oracle, x, kernel)
    # The plain form's derivatives are tests/test_window_ops.py's. Before jax 0.8 some
    # of the others' second derivatives were wrong (jaxpad/_compat.py); the planner
    # takes none of them there.
    if CONV_FORMS_SECOND_DERIVATIVES_WRONG:
        pytest.skip("jax < 0.8: the planner takes only the plain form")
    for plan in _forms_for(numbers, x_shape, k_shape, strides, groups, pads)[1:]:
        _, op, _ = _grad_case(case, mode, plan)
        got = _derivatives(op, x, kernel)
        for name, g, e in zip(("jvp", "vjp", "jvp.jvp", "jvp.vjp", "vjp.vjp"), got, expected):
            for g_part, e_part in zip(jax.tree.leaves(g), jax.tree.leaves(e)):
                np.testing.assert_allclose(
                    g_part, e_part, rtol=1e-4, atol=1e-4, err_msg=f"{plan} {name}"
                )


# One small case per form for check_grads (numerical differences, order two, forward
# and reverse). The forms with derivative rules of their own (a custom_jvp tangent or
# the depthwise primitives) run by default; the others differentiate through lax's
# own rules, which the oracle test above checks at order two, and run with --all.
_slow = pytest.mark.slow
CHECK_GRADS_FORMS = [
    (ConvPlan("shifted"), 1, "reflect"),
    (ConvPlan("grouped_taps", tangent="block_diagonal"), 4, "wrap"),
    (ConvPlan("plain", tangent="rows"), 0, "constant"),
    (ConvPlan("pad_slice", 0, tangent="rows", kernel_tangent="pad_slice"), 0, "reflect"),
    (ConvPlan("pad_slice", 1, tangent="plain"), 6, "reflect"),
    (ConvPlan("pad_slice", 0, tangent="framed"), 0, "wrap"),
    (ConvPlan("banded", 0), 5, "edge"),
    (ConvPlan("border", tangent="plain"), 6, "wrap"),
    (ConvPlan("border", tangent="border", kernel_tangent="ghost"), 7, "reflect"),
    (ConvPlan("border", tangent="plain", kernel_tangent="ghost"), 6, "edge"),
    # 3-5 s (the frame's tangent through jax.jvp); the oracle test above runs it by default.
    pytest.param(ConvPlan("banded", 0, tangent="framed"), 0, "reflect", marks=_slow),
    pytest.param(ConvPlan("ghost"), 6, "reflect", marks=_slow),
    pytest.param(ConvPlan("border"), 6, "reflect", marks=_slow),
    pytest.param(ConvPlan("pad_slice", 0), 0, "wrap", marks=_slow),
    pytest.param(ConvPlan("shifted"), 3, "constant", marks=_slow),
    pytest.param(ConvPlan("block_diagonal"), 4, "reflect", marks=_slow),
    pytest.param(ConvPlan("rows"), 0, "reflect", marks=_slow),
    pytest.param(ConvPlan("matmul"), 5, "wrap", marks=_slow),
]


@pytest.mark.parametrize("plan, case, mode", CHECK_GRADS_FORMS)
def test_every_form_passes_check_grads_of_order_two(plan, case, mode):
    args, op, _ = _grad_case(case, mode, plan)
    check_grads(op, args, order=2, modes=("fwd", "rev"), eps=1e-2, atol=5e-2, rtol=5e-2)


# Through the public ops ---------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_nn_conv_equals_the_plain_form_and_its_gradient(mode):
    rng = np.random.default_rng(7)
    cases = [
        ((2, 6, 6, 4), (3, 3, 4, 4), 1),
        ((2, 6, 6, 4), (3, 3, 1, 4), 4),
    ]
    for x_shape, k_shape, groups in cases:
        x = jnp.asarray(rng.standard_normal(x_shape), jnp.float32)
        kernel = jnp.asarray(rng.standard_normal(k_shape), jnp.float32)
        policy = jaxpad.policies.torch(1)

        def ours(x, kernel, groups=groups):
            return jaxpad.nn.conv(
                x, kernel, 1, policy, mode, dimension_numbers=NHWC, feature_group_count=groups
            )

        def reference(x, kernel, groups=groups):
            padded = jnp.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), mode)
            return lax.conv_general_dilated(
                padded, kernel, (1, 1), "VALID", dimension_numbers=NHWC, feature_group_count=groups
            )

        np.testing.assert_allclose(
            jax.jit(ours)(x, kernel), reference(x, kernel), rtol=1e-4, atol=1e-4
        )

        def loss(f):
            return jax.jit(jax.grad(lambda x, k: jnp.sum(jnp.sin(f(x, k))), (0, 1)))

        for got, want in zip(loss(ours)(x, kernel), loss(reference)(x, kernel)):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@planner_rule
@pytest.mark.parametrize("mode", MODES[1:])
def test_nn_conv_strided_in_a_mode_takes_the_border_form(mode):
    # The border rule's own case through the public op: odd and even sizes (a high strip
    # of outputs that read the high pad, and none), strides 2 and 3, uneven pads.
    rng = np.random.default_rng(11)
    for x_shape, strides, pads in (
        ((2, 9, 8, 4), (2, 2), [(1, 1), (1, 1)]),
        ((2, 10, 7, 4), (3, 2), [(2, 1), (0, 2)]),
        ((1, 3, 4, 4), (2, 2), [(1, 1), (1, 1)]),  # every output row reads a pad
    ):
        k_shape = (3, 3, 4, 5)
        x = jnp.asarray(rng.standard_normal(x_shape), jnp.float32)
        kernel = jnp.asarray(rng.standard_normal(k_shape), jnp.float32)
        numbers = _numbers(x_shape, k_shape, NHWC)
        assert plan_conv(x_shape, k_shape, numbers, pads, mode, strides).form == "border"
        # ONNX's flat pads: every begin, then every end.
        policy = jaxpad.policies.onnx(pads=[p[0] for p in pads] + [p[1] for p in pads])

        def ours(x, kernel, strides=strides, policy=policy):
            return jaxpad.nn.conv(
                x,
                kernel,
                strides,
                policy,
                mode,
                dimension_numbers=NHWC,
                precision=lax.Precision.HIGHEST,
            )

        def reference(x, kernel, strides=strides, pads=pads):
            padded = jnp.pad(x, ((0, 0), *pads, (0, 0)), mode)
            return lax.conv_general_dilated(
                padded,
                kernel,
                strides,
                "VALID",
                dimension_numbers=NHWC,
                precision=lax.Precision.HIGHEST,
            )

        expected = _oracle(x, kernel, numbers, pads, mode, strides, (1, 1), 1)
        tol = dict(rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(ours(x, kernel), expected, **tol)
        np.testing.assert_allclose(jax.jit(ours)(x, kernel), expected, **tol)
        batched = jax.vmap(ours, in_axes=(0, None))(jnp.stack([x, 2 * x]), kernel)
        np.testing.assert_allclose(batched[1], 2 * expected, **tol)
        got, want = _derivatives(ours, x, kernel), _derivatives(reference, x, kernel)
        for g_part, e_part in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
            np.testing.assert_allclose(g_part, e_part, rtol=1e-4, atol=1e-4)


def test_batched_planning_plans_the_shape_vmap_gives_it(monkeypatch):
    # A per-example layer's conv (jaxpad.equinox) is one primitive whose batching rule
    # merges the mapped axis into the batch: the planner sees the batch the program
    # runs. Values, both linear transposes and gradients equal the plain form's oracle.
    seen = []
    plan_conv_ = _conv_lowering.plan_conv

    def spy(x_shape, *args, **kwargs):
        seen.append(tuple(x_shape))
        return plan_conv_(x_shape, *args, **kwargs)

    monkeypatch.setattr(_conv_program, "plan_conv", spy)  # where the plans are made
    dn = ("NHWC", "OIHW", "NCHW")  # mixed layouts: the batch axis moves
    x_shape, k_shape, pads, strides = (1, 7, 6, 4), (5, 4, 3, 3), [(1, 1), (2, 0)], (1, 2)
    numbers = _numbers(x_shape, k_shape, dn)
    rng = np.random.default_rng(5)
    xs = jnp.asarray(rng.standard_normal((7, 3, 6, 4)), jnp.float32)  # mapped on axis 1
    kernel = jnp.asarray(rng.standard_normal(k_shape), jnp.float32)

    def layer(x, kernel):
        return _conv_lowering.lowered_conv(
            x[None],
            kernel,
            strides,
            pads,
            "wrap",
            numbers,
            precision=lax.Precision.HIGHEST,
            batched_planning=True,
        )[0]

    def oracle(x, kernel):  # jnp.pad, then lax's VALID conv
        padded = jnp.pad(x, [*pads, (0, 0)], "wrap")[None]
        return lax.conv_general_dilated(
            padded,
            kernel,
            strides,
            "VALID",
            dimension_numbers=numbers,
            precision=lax.Precision.HIGHEST,
        )[0]

    got = jax.jit(jax.vmap(layer, in_axes=(1, None)))(xs, kernel)
    assert set(seen) == {(3, 7, 6, 4)}, seen
    expected = jnp.stack(
        [
            _oracle(xs[None, :, i], kernel, numbers, pads, "wrap", strides, (1, 1), 1)[0]
            for i in range(3)
        ]
    )
    tol = dict(rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got, expected, **tol)
    np.testing.assert_allclose(layer(xs[:, 0], kernel), expected[0], **tol)
    x = xs[:, 0]
    ct = jnp.asarray(rng.standard_normal(expected[0].shape), jnp.float32)
    want = jax.vjp(oracle, x, kernel)[1](ct)
    through_x = jax.linear_transpose(lambda x: layer(x, kernel), x)(ct)[0]
    through_k = jax.linear_transpose(lambda k: layer(x, k), kernel)(ct)[0]
    np.testing.assert_allclose(through_x, want[0], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(through_k, want[1], rtol=1e-4, atol=1e-4)
    got = jax.grad(lambda x, k: jnp.sum(jnp.sin(jax.vmap(layer, (1, None))(x, k))), (0, 1))
    want = jax.grad(lambda x, k: jnp.sum(jnp.sin(jax.vmap(oracle, (1, None))(x, k))), (0, 1))
    for g, w in zip(got(xs, kernel), want(xs, kernel)):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)


def test_symbolic_batch_exports_through_the_plain_form():
    kernel = jnp.ones((3, 3, 2, 2), jnp.float32)

    def f(x):
        return jaxpad.nn.conv(
            x, kernel, 1, jaxpad.policies.torch(1), "reflect", dimension_numbers=NHWC
        )

    (spec,) = export.symbolic_args_specs([np.zeros((2, 5, 5, 2), np.float32)], "b, 5, 5, 2")
    exported = export.export(jax.jit(f))(spec)
    x = jnp.asarray(np.random.default_rng(0).standard_normal((3, 5, 5, 2)), jnp.float32)
    np.testing.assert_allclose(exported.call(x), f(x), rtol=1e-5, atol=1e-5)


@planner_rule
@cpu_only
def test_cpu_program_has_no_all_zero_padded_convolution():
    # 5x5 and 8 channels: the extra zero's value (neither a stem nor banded, whose
    # strips are thin VALID convolutions).
    x = jnp.ones((2, 8, 8, 8), jnp.float32)
    kernel = jnp.ones((5, 5, 8, 8), jnp.float32)

    def f(x, kernel):
        return jaxpad.nn.conv(
            x, kernel, 1, jaxpad.policies.torch(2), "reflect", dimension_numbers=NHWC
        )

    text = jax.jit(f).lower(x, kernel).as_text()
    pads = re.findall(r"pad = \[\[(\d+), (\d+)\], \[(\d+), (\d+)\]\]", text)
    assert pads and all(any(int(p) for p in entry) for entry in pads), pads
    np.testing.assert_allclose(jax.jit(f)(x, kernel), f(x, kernel), rtol=1e-6)


@planner_rule
@cpu_only
def test_cpu_depthwise_program_has_no_convolution():
    x = jnp.ones((2, 8, 8, 4), jnp.float32)
    kernel = jnp.ones((3, 3, 1, 4), jnp.float32)

    def f(x, kernel):
        return jaxpad.nn.conv(
            x,
            kernel,
            1,
            jaxpad.policies.torch(1),
            "wrap",
            dimension_numbers=NHWC,
            feature_group_count=4,
        )

    assert "convolution" not in jax.jit(f).lower(x, kernel).as_text()
    assert (
        "convolution"
        not in jax.jit(jax.grad(lambda x, k: f(x, k).sum(), (0, 1))).lower(x, kernel).as_text()
    )


@planner_rule
@cpu_only
def test_cpu_depthwise_kernel_gradient_is_one_variadic_reduce():
    # Table "The depthwise kernel gradient": one reduce_sum per tap took 4x as long as
    # one variadic reduce of every tap's products; at every order it stays one.
    x = jnp.ones((2, 8, 8, 4), jnp.float32)
    kernel = jnp.ones((3, 3, 1, 4), jnp.float32)

    def f(x, kernel):
        return jaxpad.nn.conv(
            x,
            kernel,
            1,
            jaxpad.policies.torch(1),
            "reflect",
            dimension_numbers=NHWC,
            feature_group_count=4,
        )

    def kernel_gradient(x, kernel, ct):
        return jax.vjp(lambda k: f(x, k), kernel)[1](ct)[0]

    text = jax.jit(kernel_gradient).lower(x, kernel, jnp.ones((2, 8, 8, 4))).as_text()
    (reduce,) = [line for line in text.splitlines() if "stablehlo.reduce(" in line]
    assert reduce.count("init:") == 9, reduce
    # The plain form's kernel gradient, as a reference for the values.
    numbers = _numbers(x.shape, kernel.shape, NHWC)
    rng = np.random.default_rng(3)
    x = jnp.asarray(rng.standard_normal(x.shape), jnp.float32)
    ct = jnp.asarray(rng.standard_normal(x.shape), jnp.float32)

    def plain(x, kernel):
        plan = ConvPlan("plain")
        return build_conv(
            plan, x, kernel, (1, 1), [(1, 1)] * 2, "reflect", numbers, feature_group_count=4
        )

    want = jax.vjp(lambda k: plain(x, k), kernel)[1](ct)[0]
    np.testing.assert_allclose(jax.jit(kernel_gradient)(x, kernel, ct), want, rtol=1e-4, atol=1e-4)


def test_layers_go_through_the_planner(monkeypatch):
    """jaxpad.flax and jaxpad.equinox convolutions call the planner."""
    calls = []
    original = _conv_lowering.plan_conv

    def spy(*args, **kwargs):
        plan = original(*args, **kwargs)
        calls.append(plan.form)
        return plan

    monkeypatch.setattr(_conv_program, "plan_conv", spy)  # where the plans are made
    x = jnp.ones((6, 6, 4), jnp.float32)
    nnx = pytest.importorskip("flax.nnx")  # flax needs a newer JAX than the oldest

    import jaxpad.flax

    layer = jaxpad.flax.Conv(4, 4, (3, 3), padding="REFLECT", rngs=nnx.Rngs(0))
    layer(x[None])
    assert calls, "jaxpad.flax.Conv did not plan its conv"
    calls.clear()
    pytest.importorskip("equinox")
    import jaxpad.equinox

    layer = jaxpad.equinox.Conv(
        2, 4, 4, 3, padding=1, padding_mode="REFLECT", key=jax.random.key(0)
    )
    layer(jnp.ones((4, 6, 6), jnp.float32))
    assert calls, "jaxpad.equinox.Conv did not plan its conv"


@pytest.mark.parametrize("strides", [(1, 1), (2, 1)])
def test_shifted_form_per_example_gradients_under_vmap(strides):
    rng = np.random.default_rng(5)
    x = jnp.asarray(rng.standard_normal((3, 1, 6, 5, 4)), jnp.float32)
    kernel = jnp.asarray(rng.standard_normal((3, 3, 1, 4)), jnp.float32)
    numbers = _numbers((1, 6, 5, 4), kernel.shape, NHWC)

    def loss(plan):
        def f(x, kernel):
            y = build_conv(
                plan, x, kernel, strides, [(1, 1)] * 2, "wrap", numbers, feature_group_count=4
            )
            return jnp.sum(jnp.sin(y))

        return jax.jit(jax.vmap(jax.grad(f, (0, 1)), in_axes=(0, None)))

    got = loss(ConvPlan("shifted"))(x, kernel)
    want = loss(ConvPlan("plain"))(x, kernel)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)


def test_a_program_exported_for_cpu_and_cuda_runs_the_cpu_form_here():
    # One program for both platforms: the CPU branch runs here, the plain one on CUDA.
    dn = NHWC
    dense, depthwise = jnp.ones((3, 3, 4, 4)), jnp.ones((3, 3, 1, 4))

    def f(x):
        policy = jaxpad.policies.torch(1)
        y = jaxpad.nn.conv(x, dense, 1, policy, "reflect", dimension_numbers=dn)
        return y + jaxpad.nn.conv(
            x, depthwise, 1, policy, "reflect", dimension_numbers=dn, feature_group_count=4
        )

    x = jnp.asarray(np.random.default_rng(0).standard_normal((2, 6, 6, 4)), jnp.float32)
    exported = export.export(jax.jit(f), platforms=("cpu", "cuda"))(x)
    assert exported.platforms == ("cpu", "cuda")
    if jax.default_backend() == "cpu":
        np.testing.assert_allclose(exported.call(x), f(x), rtol=1e-6, atol=1e-6)


@pytest.mark.skipif(not CONV_FORMS_SECOND_DERIVATIVES_WRONG, reason="jax >= 0.8")
@pytest.mark.parametrize("mode", ["reflect", "wrap"])
def test_before_jax_0_8_every_conv_takes_the_plain_form(mode):
    # pad_slice and the border form would be taken from 0.8 on (the rule tests above).
    plan = _plan((8, 32, 16, 16), (32, 32, 3, 3), NCHW, [(1, 1)] * 2, mode, (1, 1))
    assert plan.form == "plain" and plan.tangent is None
    plan = _plan((8, 16, 16, 32), (3, 3, 32, 32), NHWC, [(1, 1)] * 2, mode, (2, 2))
    assert plan.form == "plain" and plan.tangent is None
