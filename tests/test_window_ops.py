"""Tests for jaxpad/_window_ops.py (jaxpad.nn): pools and convolutions under policies."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jax.test_util import check_grads

import jaxpad
from jaxpad import nn, policies

RNG = np.random.default_rng(0)


def normal(*shape):
    return jnp.asarray(RNG.normal(size=shape).astype(np.float32))


# Average-pool divisors: docs/policy-formulas.md's example (n=9, k=7, s=3, p=3, ceil_mode).


@pytest.mark.parametrize(
    "count_include_pad,divisors", [(True, [7, 7, 7, 6]), (False, [4, 7, 6, 3])]
)
def test_avg_pool_divisors_match_the_table(count_include_pad, divisors):
    x = jnp.ones(9)
    policy = policies.torch(3, ceil_mode=True, count_include_pad=count_include_pad)
    sums = nn.avg_pool(x, 7, 3, jaxpad.PaddingPolicy(**{**vars(policy), "divisor": "window"}))
    averaged = nn.avg_pool(x, 7, 3, policy)
    # sums are the number of real elements per window; the divisor turns them into means.
    np.testing.assert_allclose(np.asarray(sums) * 7 / np.asarray(averaged), divisors)


def test_avg_pool_window_divisor_and_same_matches_lax():
    x = normal(2, 11, 10, 3)
    policy = policies.jax("SAME")
    window, strides = (1, 3, 2, 1), (1, 2, 2, 1)
    expected = lax.reduce_window(x, 0.0, lax.add, window, strides, "SAME") / 6
    np.testing.assert_allclose(nn.avg_pool(x, window, strides, policy), expected, rtol=1e-6)


def test_tensorflow_avg_pool_divides_by_valid_positions():
    x = normal(1, 7, 7, 1)
    window, strides = (1, 3, 3, 1), (1, 2, 2, 1)
    sums = lax.reduce_window(x, 0.0, lax.add, window, strides, "SAME")
    counts = lax.reduce_window(jnp.ones_like(x), 0.0, lax.add, window, strides, "SAME")
    out = nn.avg_pool(x, window, strides, policies.tensorflow("SAME"))
    np.testing.assert_allclose(out, sums / counts, rtol=1e-6)


def test_max_pool_same_matches_lax_and_ignores_padding():
    x = -jnp.abs(normal(2, 9, 8, 3)) - 1.0  # all negative: a zero pad would win
    window, strides = (1, 3, 3, 1), (1, 2, 2, 1)
    expected = lax.reduce_window(x, -jnp.inf, lax.max, window, strides, "SAME")
    np.testing.assert_array_equal(
        nn.max_pool(x, window, strides, policies.tensorflow("SAME")), expected
    )


def test_max_pool_integers_and_torch_ceil_mode_size():
    x = jnp.arange(112 * 112, dtype=jnp.int32).reshape(1, 112, 112, 1)
    out = nn.max_pool(x, (1, 3, 3, 1), (1, 2, 2, 1), policies.torch(1, ceil_mode=True))
    assert out.shape == (1, 57, 57, 1) and out.dtype == jnp.int32
    out = nn.max_pool(x, (1, 3, 3, 1), (1, 2, 2, 1), policies.torch(1))
    assert out.shape == (1, 56, 56, 1)


# Convolutions ------------------------------------------------------------------------


@pytest.mark.parametrize("padding", ["SAME", "SAME_LOWER", "VALID"])
@pytest.mark.parametrize("stride", [1, 2, 3])
def test_conv_matches_lax(padding, stride):
    x, kernel = normal(2, 3, 11, 10), normal(4, 3, 4, 3)
    out = nn.conv(x, kernel, stride, policies.jax(padding), dilation=(1, 2))
    expected = lax.conv_general_dilated(x, kernel, (stride, stride), padding, rhs_dilation=(1, 2))
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


def test_tensorflow_same_conv_is_lax_same_and_symmetric_padding_is_not():
    x, kernel = normal(1, 8, 8, 2), normal(3, 3, 2, 4)
    numbers = ("NHWC", "HWIO", "NHWC")
    expected = lax.conv_general_dilated(x, kernel, (2, 2), "SAME", dimension_numbers=numbers)
    ours = nn.conv(x, kernel, 2, policies.tensorflow("SAME"), dimension_numbers=numbers)
    torch_style = nn.conv(x, kernel, 2, policies.torch(1), dimension_numbers=numbers)
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-5)
    assert torch_style.shape == expected.shape
    assert not np.allclose(torch_style, expected, atol=1e-3)


@pytest.mark.parametrize("mode", ["wrap", "reflect", "edge", "symmetric"])
def test_conv_with_a_pad_mode_is_pad_then_valid_conv(mode):
    x, kernel = normal(2, 3, 9, 7), normal(5, 3, 3, 3)
    out = nn.conv(x, kernel, 1, policies.torch(1), pad_mode=mode)
    padded = jnp.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)], mode=mode)
    np.testing.assert_allclose(
        out, lax.conv_general_dilated(padded, kernel, (1, 1), "VALID"), rtol=1e-4, atol=1e-4
    )


def test_flax_circular_conv_is_one_call():
    x, kernel = normal(1, 2, 8), normal(2, 2, 4)
    out = nn.conv(x, kernel, 1, policies.flax("CIRCULAR"))
    padded = jnp.pad(x, [(0, 0), (0, 0), (1, 2)], mode="wrap")
    np.testing.assert_allclose(
        out, lax.conv_general_dilated(padded, kernel, (1,), "VALID"), rtol=1e-5, atol=1e-5
    )


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("stride", [1, 2, 3])
@pytest.mark.parametrize("transpose_kernel", [False, True])
def test_conv_transpose_matches_lax(padding, stride, transpose_kernel):
    x = normal(2, 4, 5, 6)
    kernel = normal(4, 3, 3, 4) if transpose_kernel else normal(3, 4, 3, 4)
    out = nn.conv_transpose(
        x, kernel, stride, policies.jax(padding), transpose_kernel=transpose_kernel
    )
    expected = lax.conv_transpose(
        x,
        kernel,
        (stride, stride),
        padding,
        dimension_numbers=("NCHW", "OIHW", "NCHW"),
        transpose_kernel=transpose_kernel,
    )
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "policy,kwargs",
    [
        (policies.tensorflow("SAME"), {}),
        (policies.jax("SAME_LOWER"), {}),
        (policies.tensorflow("VALID"), {}),
        (policies.torch(1), {"output_padding": 1}),
        (policies.torch(2), {}),
        (policies.mps("same"), {}),
        (policies.mps("valid", "bottom_right"), {}),
    ],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_conv_transpose_is_the_vjp_of_conv(policy, kwargs):
    kernel = normal(4, 3, 3, 5)
    y = normal(2, 4, 4, 3)
    out = nn.conv_transpose(y, kernel, 2, policy, transpose_kernel=True, **kwargs)
    length = policy.reverse_output_shape((4, 3), (3, 5), (2, 2), **kwargs)
    assert out.shape[2:] == length
    x = jnp.zeros((2, 3, *length))
    expected = jax.vjp(lambda x: nn.conv(x, kernel, 2, policy), x)[1](y)[0]
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


# Pad modes in every op -------------------------------------------------------------

MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


def _fill(rows, declared, pads, mode, fill):
    """The oracle's padded input: numpy.pad-compatible jnp.pad in ``mode`` over the
    declared pads, ``fill`` over the ceil-mode overhang past them."""
    x = (
        jnp.pad(rows, declared, mode=mode)
        if mode != "constant"
        else jnp.pad(rows, declared, constant_values=fill)
    )
    overhang = [(0, p[1] - d[1]) for p, d in zip(pads, declared)]
    return jnp.pad(x, overhang, constant_values=fill)


@pytest.mark.parametrize("mode", MODES[1:])
@pytest.mark.parametrize(
    "policy,dilation",
    [
        (policies.torch(1, ceil_mode=True), 1),
        (policies.tensorflow("SAME"), 2),
        (policies.torch(1), (1, 2)),
    ],
    ids=["torch1-ceil", "tf-same-dil2", "torch1-dil12"],
)
def test_max_pool_in_a_mode_is_a_valid_pool_of_the_padded_input(mode, policy, dilation):
    x = normal(2, 9, 8)
    window, strides = (1, 3, 3), (1, 2, 2)
    dil = (1, *((dilation,) * 2 if isinstance(dilation, int) else dilation))
    pads = [(0, 0), *policy.pads((9, 8), (3, 3), (2, 2), dil[1:])]
    declared = [(0, 0), *policy.declared_pads((9, 8), (3, 3), (2, 2), dil[1:])]
    padded = _fill(x, declared, pads, mode, -jnp.inf)
    expected = lax.reduce_window(
        padded, -jnp.inf, lax.max, window, strides, "VALID", window_dilation=dil
    )
    out = nn.max_pool(x, window, strides, policy, pad_mode=mode, dilation=dil)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("divisor", ["window", "padded", "valid"])
def test_avg_pool_divisor_in_every_mode(mode, divisor):
    """window: every window position; padded: input + declared padding; valid: the input
    alone with zeros, input + declared padding in a mode that fills the padding."""
    # Axis 1 rounds up with its last window starting inside the input: an overhang.
    x = normal(9, 8)
    window, strides, dilation = (3, 3), (2, 2), (2, 1)
    base = policies.torch(1, ceil_mode=True)
    policy = jaxpad.PaddingPolicy(**{**vars(base), "divisor": divisor})
    pads = policy.pads((9, 8), window, strides, dilation)
    declared = policy.declared_pads((9, 8), window, strides, dilation)
    assert pads != declared  # the ceil-mode overhang is exercised
    padded = _fill(x, declared, pads, mode, 0.0)
    sums = lax.reduce_window(
        padded, 0.0, lax.add, window, strides, "VALID", window_dilation=dilation
    )
    if divisor == "window":
        counts = float(np.prod(window))
    else:
        ones = jnp.ones_like(x)
        if divisor == "padded" or mode != "constant":
            # Every declared pad position counts; the overhang past it does not.
            overhang = [(0, p[1] - d[1]) for p, d in zip(pads, declared)]
            ones = jnp.pad(jnp.pad(ones, declared, constant_values=1.0), overhang)
        else:
            ones = jnp.pad(ones, pads)
        counts = lax.reduce_window(
            ones, 0.0, lax.add, window, strides, "VALID", window_dilation=dilation
        )
    out = nn.avg_pool(x, window, strides, policy, pad_mode=mode, dilation=dilation)
    np.testing.assert_allclose(out, sums / counts, rtol=1e-6, atol=1e-6)


def test_pool_pad_mode_overrides_the_policy_and_none_keeps_it():
    x = normal(1, 6, 5)
    reflect = jaxpad.PaddingPolicy(**{**vars(policies.torch(1)), "pad_mode": "reflect"})
    args = ((1, 3, 3), (1, 1, 1))
    np.testing.assert_array_equal(
        nn.max_pool(x, *args, reflect), nn.max_pool(x, *args, policies.torch(1), "reflect")
    )
    np.testing.assert_array_equal(
        nn.avg_pool(x, *args, reflect, pad_mode="constant"),
        nn.avg_pool(x, *args, policies.torch(1)),
    )
    assert not np.allclose(nn.avg_pool(x, *args, reflect), nn.avg_pool(x, *args, policies.torch(1)))


def test_dilated_max_pool_gradient():
    x = jnp.asarray(np.random.default_rng(5).permutation(48).reshape(6, 8) / 7, jnp.float32)

    def op(x):
        return nn.max_pool(x, (2, 3), (1, 2), policies.torch(1), dilation=(2, 2))

    check_grads(op, (x,), order=2, modes=("fwd", "rev"), eps=1e-3, atol=1e-2, rtol=1e-2)
    jitted = jax.jit(op)(x)
    batched = jax.vmap(op)(jnp.stack([x, -x]))
    np.testing.assert_array_equal(jitted, op(x))
    np.testing.assert_array_equal(batched[1], op(-x))


def _vjp_of_conv(y, kernel, strides, policy, length, mode=None, groups=1, dilation=None):
    in_features = kernel.shape[1] * groups
    x = jnp.zeros((y.shape[0], in_features, *length))

    def forward(x):
        return nn.conv(x, kernel, strides, policy, mode, dilation, feature_group_count=groups)

    return jax.vjp(forward, x)[1](y)[0]


@pytest.mark.parametrize("mode", MODES[1:])
@pytest.mark.parametrize(
    "policy,strides,kwargs",
    [
        (policies.flax("CIRCULAR"), 1, {}),
        (policies.flax("REFLECT"), 2, {"output_padding": 1}),
        (policies.tensorflow("SAME"), 2, {"dilation": 2}),
        (policies.torch(1), 3, {"output_padding": 2, "feature_group_count": 2}),
        (policies.jax("VALID"), 2, {}),
    ],
    ids=["flax-circular", "flax-reflect-op1", "tf-same-dil2", "torch1-s3-groups", "valid"],
)
def test_conv_transpose_in_a_mode_is_the_vjp_of_conv(mode, policy, strides, kwargs):
    groups = kwargs.get("feature_group_count", 1)
    kernel = normal(4, 6 // groups, 3, 4)
    y = normal(2, 4, 4, 3)
    out = nn.conv_transpose(
        y, kernel, strides, policy, transpose_kernel=True, pad_mode=mode, **kwargs
    )
    length = policy.reverse_output_shape(
        (4, 3), (3, 4), (strides,) * 2, kwargs.get("dilation"), kwargs.get("output_padding")
    )
    assert out.shape == (2, 6, *length)
    expected = _vjp_of_conv(
        y, kernel, strides, policy, length, mode, groups, kwargs.get("dilation")
    )
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


def test_conv_transpose_without_transpose_kernel_uses_the_kernel_as_given():
    kernel = normal(4, 3, 3, 3)
    y = normal(1, 4, 5, 4)
    policy = policies.flax("CIRCULAR")
    flipped = jnp.swapaxes(kernel[:, :, ::-1, ::-1], 0, 1)
    np.testing.assert_allclose(
        nn.conv_transpose(y, flipped, 2, policy, output_padding=1),
        nn.conv_transpose(y, kernel, 2, policy, output_padding=1, transpose_kernel=True),
        rtol=1e-5,
        atol=1e-5,
    )


@pytest.mark.parametrize("strides,size", [(1, 3), (2, 3), (2, 4)])
def test_circular_conv_transpose_matches_flax(strides, size):
    """flax folds its circular ConvTranspose around the period ``n * s``; with its
    transpose_kernel=True that is the VJP of CIRCULAR conv at length ``n * s``
    (output_padding ``s - 1``) for these kernels (odd ones at stride 1, any at 2)."""
    flax_nnx = pytest.importorskip("flax.nnx")
    layer = flax_nnx.ConvTranspose(
        3,
        2,
        (size, size),
        (strides, strides),
        padding="CIRCULAR",
        transpose_kernel=True,
        use_bias=False,
        rngs=flax_nnx.Rngs(0),
    )
    y = normal(2, 5, 4, 3)
    numbers = ("NHWC", "HWIO", "NHWC")
    kernel = layer.kernel[...]
    # Both jitted, one program each (eagerly, a compile per primitive).
    ours = jax.jit(
        lambda y: nn.conv_transpose(
            y,
            kernel,
            strides,
            policies.flax("CIRCULAR"),
            output_padding=strides - 1,
            dimension_numbers=numbers,
            transpose_kernel=True,
        )
    )(y)
    np.testing.assert_allclose(ours, jax.jit(lambda y: layer(y))(y), rtol=1e-5, atol=1e-5)


# Gradients ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "op",
    [
        lambda x: nn.avg_pool(x, (1, 3, 3), (1, 2, 2), policies.torch(1, ceil_mode=True)),
        lambda x: nn.max_pool(x, (1, 3, 3), (1, 2, 2), policies.tensorflow("SAME")),
        lambda x: nn.conv(x[None], jnp.ones((2, 3, 3, 3)), 2, policies.flax("REFLECT")),
        lambda x: nn.conv_transpose(x[None], jnp.ones((2, 3, 3, 3)), 2, policies.jax("SAME")),
        lambda x: nn.avg_pool(x, (1, 2, 3), (1, 1, 2), policies.torch(1), "reflect", (1, 2, 2)),
        lambda x: nn.conv_transpose(
            x[None], jnp.ones((2, 3, 3, 3)), 2, policies.flax("CIRCULAR"), 1, pad_mode="wrap"
        ),
    ],
    ids=[
        "avg_pool",
        "max_pool",
        "conv_reflect",
        "conv_transpose",
        "avg_pool_reflect_dilated",
        "conv_transpose_wrap",
    ],
)
def test_check_grads_through_window_ops(op):
    x = jnp.asarray(np.random.default_rng(3).permutation(75).reshape(3, 5, 5) / 10, jnp.float32)
    check_grads(op, (x,), order=2, modes=("fwd", "rev"), eps=1e-2, atol=5e-2, rtol=5e-2)


def test_conv_gradient_matches_jnp_pad_reference():
    x, kernel = normal(1, 2, 7, 6), normal(3, 2, 3, 3)

    def ours(x):
        return (nn.conv(x, kernel, 1, policies.torch(1), pad_mode="reflect") ** 2).sum()

    def reference(x):
        padded = jnp.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)], mode="reflect")
        return (lax.conv_general_dilated(padded, kernel, (1, 1), "VALID") ** 2).sum()

    np.testing.assert_allclose(jax.grad(ours)(x), jax.grad(reference)(x), rtol=1e-4, atol=1e-4)


# Bad input ---------------------------------------------------------------------------


def error(kind, text):
    return pytest.raises(kind, match=re.escape(text))


def test_error_pool_window_wrong_length():
    with error(
        ValueError, "jaxpad.nn.max_pool: window needs one entry per axis (3); got 2: (2, 2)."
    ):
        nn.max_pool(jnp.ones((1, 4, 4)), (2, 2))


def test_error_pool_stride_below_one():
    with error(ValueError, "jaxpad.nn.avg_pool: strides entries must be >= 1; got (1, 0)."):
        nn.avg_pool(jnp.ones((4, 4)), (2, 2), (1, 0))


def test_error_torch_pool_pads_over_half_the_window():
    with error(
        ValueError, "jaxpad.policies.torch(2): pooling pads must be at most half the window"
    ):
        nn.max_pool(jnp.ones((6, 6)), (3, 3), (1, 1), policies.torch(2))


def test_error_avg_pool_integer_input():
    with error(
        TypeError,
        "jaxpad.nn.avg_pool: x must have a floating or complex dtype; got an array of shape (4,) "
        "and dtype int32.",
    ):
        nn.avg_pool(jnp.arange(4), 2)


def test_error_max_pool_complex_input():
    with error(TypeError, "jaxpad.nn.max_pool: x must have a real dtype"):
        nn.max_pool(jnp.ones(4, jnp.complex64), 2)


def test_error_policy_not_a_policy():
    with error(
        TypeError,
        "jaxpad.nn.conv: policy must be a jaxpad.PaddingPolicy (see jaxpad.policies); got 'SAME'.",
    ):
        nn.conv(jnp.ones((1, 1, 4)), jnp.ones((1, 1, 3)), 1, "SAME")


def test_error_conv_rank_mismatch():
    with error(
        ValueError,
        "jaxpad.nn.conv: x and kernel need the same rank (>= 2); got x.shape=(1, 1, 4), "
        "kernel.shape=(1, 3).",
    ):
        nn.conv(jnp.ones((1, 1, 4)), jnp.ones((1, 3)))


def test_error_conv_dilation_below_one():
    with error(ValueError, "jaxpad.nn.conv: dilation entries must be >= 1; got (0,)."):
        nn.conv(jnp.ones((1, 1, 4)), jnp.ones((1, 1, 3)), 1, dilation=0)


def test_error_conv_output_below_one():
    with error(
        ValueError,
        "jaxpad.nn.conv: policy jaxpad.policies.tensorflow('VALID'): the output would be "
        "empty on axis 0",
    ):
        nn.conv(jnp.ones((1, 1, 2)), jnp.ones((1, 1, 3)), 1, policies.tensorflow("VALID"))


def test_error_pool_strides_wrong_length():
    with error(
        ValueError, "jaxpad.nn.avg_pool: strides needs one entry per axis (2); got 3: (1, 1, 1)."
    ):
        nn.avg_pool(jnp.ones((4, 4)), (2, 2), (1, 1, 1))


def test_error_conv_strides_wrong_length():
    with error(ValueError, "jaxpad.nn.conv: strides needs one entry per axis (1); got 2: (1, 2)."):
        nn.conv(jnp.ones((1, 1, 4)), jnp.ones((1, 1, 3)), (1, 2))


@pytest.mark.parametrize("fn", [nn.conv, nn.conv_transpose])
def test_error_pad_mode_alias_names_the_jaxpad_mode(fn):
    name = fn.__name__
    with error(
        ValueError,
        f"jaxpad.nn.{name}: pad_mode must be one of 'constant', 'edge', 'reflect', "
        "'symmetric', 'wrap'; got 'replicate' (jaxpad's name for 'replicate' is 'edge').",
    ):
        fn(jnp.ones((1, 1, 4)), jnp.ones((1, 1, 3)), 1, pad_mode="replicate")


@pytest.mark.parametrize("fn", [nn.max_pool, nn.avg_pool])
def test_error_pool_pad_mode_unknown(fn):
    with error(ValueError, f"jaxpad.nn.{fn.__name__}: pad_mode must be one of"):
        fn(jnp.ones(4), 2, 1, pad_mode="CIRCULAR")
    with error(ValueError, "got 'CIRCULAR' (jaxpad's name for 'CIRCULAR' is 'wrap')."):
        fn(jnp.ones(4), 2, 1, pad_mode="CIRCULAR")


def test_error_conv_feature_mismatch():
    with error(
        ValueError,
        "jaxpad.nn.conv: x has 3 features (axis 1 of x.shape=(1, 3, 5)), but kernel expects "
        "2 per group (axis 1 of its shape (4, 2, 3)) times feature_group_count=1.",
    ):
        nn.conv(jnp.ones((1, 3, 5)), jnp.ones((4, 2, 3)))


def test_error_conv_groups_do_not_divide_output_features():
    with error(
        ValueError,
        "jaxpad.nn.conv: kernel's 3 output features (axis 0 of its shape (3, 2, 3)) must be a "
        "multiple of feature_group_count=2.",
    ):
        nn.conv(jnp.ones((1, 4, 5)), jnp.ones((3, 2, 3)), feature_group_count=2)


def test_error_conv_dtype_mismatch():
    with error(
        TypeError,
        "jaxpad.nn.conv: x and kernel need the same dtype; got x.dtype=float32, "
        "kernel.dtype=float16.",
    ):
        nn.conv(jnp.ones((1, 1, 5)), jnp.ones((1, 1, 3), jnp.float16))


def test_error_conv_bad_dimension_numbers():
    with error(ValueError, "jaxpad.nn.conv: dimension_numbers=('NHWC', 'OIHW') do not fit"):
        nn.conv(jnp.ones((1, 4, 4, 1)), jnp.ones((1, 1, 3, 3)), dimension_numbers=("NHWC", "OIHW"))


def test_error_conv_transpose_output_padding_not_below_stride():
    with error(
        ValueError,
        "jaxpad.nn.conv_transpose: policy jaxpad.policies.torch(1): "
        "output_padding must be smaller than the stride or the dilation; got 2 with stride 2",
    ):
        nn.conv_transpose(jnp.ones((1, 1, 4)), jnp.ones((1, 1, 3)), 2, policies.torch(1), 2)


def test_error_conv_transpose_features_after_transpose_kernel():
    with error(
        ValueError,
        "jaxpad.nn.conv_transpose: x has 2 features (axis 1 of x.shape=(1, 2, 4)), but kernel "
        "(after transpose_kernel) expects 3 per group",
    ):
        nn.conv_transpose(jnp.ones((1, 2, 4)), jnp.ones((3, 3, 3)), transpose_kernel=True)
