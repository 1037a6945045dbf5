"""Tests for jaxpad/_policy.py and jaxpad/policies.py: every pinned case, every message."""

from __future__ import annotations

import re

import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import jaxpad
from jaxpad import nn, policies

# Pinned cases (docs/policies.md): (n, k, s, d), policy, out, (lo, hi).
PINNED = [
    ((5, 3, 1, 1), policies.tensorflow("SAME"), 5, (1, 1)),
    ((5, 3, 1, 1), policies.torch("same"), 5, (1, 1)),
    ((5, 4, 1, 1), policies.tensorflow("SAME"), 5, (1, 2)),
    ((5, 4, 1, 1), policies.jax("SAME_LOWER"), 5, (2, 1)),
    ((5, 4, 1, 1), policies.mps("same"), 5, (2, 1)),
    ((8, 3, 2, 1), policies.tensorflow("SAME"), 4, (0, 1)),
    ((8, 3, 2, 1), policies.jax("SAME_LOWER"), 4, (1, 0)),
    ((224, 7, 2, 1), policies.tensorflow("SAME"), 112, (2, 3)),
    ((224, 7, 2, 1), policies.jax("SAME_LOWER"), 112, (3, 2)),
    ((6, 2, 3, 1), policies.tensorflow("SAME"), 2, (0, 0)),
    ((10, 2, 1, 3), policies.tensorflow("SAME"), 10, (1, 2)),
    ((10, 2, 1, 3), policies.jax("SAME_LOWER"), 10, (2, 1)),
    ((9, 4, 3, 1), policies.tensorflow("SAME"), 3, (0, 1)),
    ((9, 4, 3, 1), policies.tensorflow("VALID"), 2, (0, -2)),
    ((9, 4, 3, 1), policies.mps("valid", "bottom_right"), 2, (-1, -1)),
    ((6, 3, 2, 1), policies.mps("full"), 4, (2, 1)),
    ((6, 3, 2, 1), policies.mps("full", "bottom_right"), 4, (1, 2)),
    ((5, 3, 1, 1), policies.onnx("SAME_UPPER"), 5, (1, 1)),
    ((5, 4, 1, 1), policies.onnx("SAME_LOWER"), 5, (2, 1)),
    ((5, 4, 1, 1), policies.keras("same"), 5, (1, 2)),
    ((5, 4, 1, 1), policies.flax("SAME"), 5, (1, 2)),
]


@pytest.mark.parametrize("case,policy,out,pads", PINNED, ids=lambda v: getattr(v, "name", None))
def test_pinned_forward_cases(case, policy, out, pads):
    n, k, s, d = case
    assert policy.output_shape((n,), (k,), (s,), (d,)) == (out,)
    assert policy.pads((n,), (k,), (s,), (d,)) == (pads,)


# Pooling output sizes: n, k, s, p; PyTorch floor / ceil and Caffe.
@pytest.mark.parametrize(
    "case,policy,out",
    [
        ((112, 3, 2, 1), policies.torch(1), 56),
        ((112, 3, 2, 1), policies.torch(1, ceil_mode=True), 57),
        ((112, 3, 2, 1), policies.caffe(1), 57),
        ((5, 1, 3, 0), policies.torch(0, ceil_mode=True), 2),
        ((5, 1, 3, 0), policies.caffe(0), 3),
        ((9, 7, 3, 3), policies.torch(3, ceil_mode=True), 4),
        ((9, 7, 3, 3), policies.onnx(pads=[3, 3], ceil_mode=True), 4),
    ],
    ids=lambda v: getattr(v, "name", None),
)
def test_pinned_pooling_sizes(case, policy, out):
    n, k, s, _ = case
    assert policy.output_shape((n,), (k,), (s,)) == (out,)


@pytest.mark.parametrize(
    "policy,out,kwargs",
    [
        (policies.tensorflow("SAME"), 8, {}),
        (policies.jax("SAME"), 8, {}),
        (policies.onnx("SAME_UPPER"), 8, {}),
        (policies.torch(1), 8, {"output_padding": 1}),
        (policies.torch(1), 7, {}),
        (policies.mps("same"), 7, {}),
        (policies.tensorflow("VALID"), 9, {}),
        (policies.caffe(1, "floor"), 7, {}),
    ],
    ids=lambda v: getattr(v, "name", None),
)
def test_pinned_reverse_cases(policy, out, kwargs):
    # Reverse (transposed) lengths for n=4, k=3, s=2.
    assert policy.reverse_output_shape((4,), (3,), (2,), **kwargs) == (out,)


def test_mps_reverse_uses_the_opposite_size_policy():
    # The spec's DestSizeReverse(4, stride 2, window 3, style): a validOnly forward
    # filter is undone with sizeFull (style +1) and vice versa.
    assert policies.mps("valid").reverse_output_shape((4,), (3,), (2,)) == (3 * 2 + 1 + 2,)
    assert policies.mps("full").reverse_output_shape((4,), (3,), (2,)) == (3 * 2 + 1 - 2,)


def test_reverse_length_formula():
    # L = (n-1)*s + K - lo - hi + a, with the forward pads at L.
    rng = np.random.default_rng(0)
    for _ in range(200):
        n, k, s, d = (int(v) for v in rng.integers(1, 6, 4))
        for policy in (
            policies.tensorflow("SAME"),
            policies.tensorflow("VALID"),
            policies.torch(1),
        ):
            try:
                ((lo, hi, a),) = policy.reverse_pads((n,), (k,), (s,), (d,))
            except ValueError:
                continue
            length = policy.reverse_output_shape((n,), (k,), (s,), (d,))[0]
            assert length == (n - 1) * s + d * (k - 1) + 1 - lo - hi + a
            assert policy.output_shape((length,), (k,), (s,), (d,)) == (n,)


@pytest.mark.parametrize("padding", ["SAME", "SAME_LOWER", "VALID"])
def test_jax_preset_agrees_with_lax_padtype_to_pads(padding):
    rng = np.random.default_rng(1)
    policy = policies.jax(padding)
    for _ in range(300):
        rank = int(rng.integers(1, 4))
        shape = tuple(int(v) for v in rng.integers(1, 40, rank))
        window = tuple(int(v) for v in rng.integers(1, 8, rank))
        strides = tuple(int(v) for v in rng.integers(1, 5, rank))
        if padding == "VALID" and any(k > n for n, k in zip(shape, window)):
            continue
        expected = [tuple(p) for p in lax.padtype_to_pads(shape, window, strides, padding)]
        got = policy.pads(shape, window, strides)
        if padding == "VALID":
            # lax reports (0, 0); jaxpad reports the unread tail as a negative hi.
            assert all(lo == 0 and hi <= 0 for lo, hi in got)
        else:
            assert list(got) == expected, (shape, window, strides)


def test_policies_are_frozen_and_hashable():
    policy = policies.torch(1, ceil_mode=True)
    assert hash(policy) == hash(policies.torch(1, ceil_mode=True))
    assert {policy: 1}[policies.torch(1, ceil_mode=True)] == 1
    with pytest.raises(AttributeError):
        policy.size = "same"
    assert isinstance(policy, jaxpad.PaddingPolicy)


def test_presets_set_divisor_and_pad_mode():
    assert policies.tensorflow("SAME").divisor == "valid"
    assert policies.torch(1).divisor == "padded"
    assert policies.torch(1, count_include_pad=False).divisor == "valid"
    assert policies.onnx(count_include_pad=True).divisor == "padded"
    assert policies.caffe(1).divisor == "padded"
    # MPS's ExcludeEdges leaves the padding out of the average: TensorFlow's divisor.
    assert policies.mps("same", exclude_edges=True).divisor == "padded"
    assert policies.mps("same").divisor == "window"
    assert policies.flax("CIRCULAR").pad_mode == "wrap"
    assert policies.flax("REFLECT").pad_mode == "reflect"
    assert policies.flax("CIRCULAR").pads((8,), (4,), (2,)) == ((1, 2),)
    assert policies.keras("causal").pads((10,), (3,), (1,), (2,)) == ((4, 0),)
    assert policies.flax("CAUSAL").pads((10,), (3,)) == ((2, 0),)


def test_custom_policy():
    def centre_crop(in_shape, window, strides, dilation):
        return [(-1, -1) for _ in in_shape]

    policy = jaxpad.PaddingPolicy("custom", custom=centre_crop)
    assert policy.pads((10, 8), (3, 3)) == ((-1, -1), (-1, -1))
    assert policy.output_shape((10, 8), (3, 3)) == (6, 4)


def test_onnx_flat_pads_and_per_axis_torch_pads():
    assert policies.onnx(pads=[1, 0, 2, 1]).pads((5, 5), (3, 3)) == ((1, 2), (0, 1))
    assert policies.torch((1, 2)).pads((6, 6), (3, 5)) == ((1, 1), (2, 2))


# Bad input: one test per message -------------------------------------------------------


def error(kind, text):
    return pytest.raises(kind, match=re.escape(text))


def test_error_window_wrong_length():
    with error(
        ValueError,
        "jaxpad.policies.tensorflow('SAME'): window needs one entry per axis (2); got 1: (3,).",
    ):
        policies.tensorflow("SAME").pads((5, 5), (3,))


def test_error_window_below_one():
    with error(
        ValueError, "jaxpad.policies.tensorflow('SAME'): window entries must be >= 1; got (0,)."
    ):
        policies.tensorflow("SAME").pads((5,), (0,))


def test_error_stride_below_one():
    with error(ValueError, "strides entries must be >= 1; got (0,)."):
        policies.jax("VALID").output_shape((5,), (3,), (0,))


def test_error_dilation_below_one_or_wrong_length():
    with error(ValueError, "dilation entries must be >= 1; got (-1,)."):
        policies.jax("VALID").output_shape((5,), (3,), (1,), (-1,))
    with error(ValueError, "dilation needs one entry per axis (1); got 2: (1, 1)."):
        policies.jax("VALID").output_shape((5,), (3,), (1,), (1, 1))


def test_error_torch_pool_pads_over_half_the_window():
    policy = policies.torch(2)
    with error(
        ValueError,
        "jaxpad.policies.torch(2): pooling pads must be at most half the window; got pads (2, 2) "
        "for window 3 on axis 0.",
    ):
        policy.check_pool_pads((3,))


def test_error_torch_same_with_stride():
    with error(
        ValueError,
        "jaxpad.policies.torch('same'): padding='same' needs stride 1 on every axis (PyTorch "
        "rejects other strides); got strides (2,).",
    ):
        policies.torch("same").pads((8,), (3,), (2,))


@pytest.mark.parametrize(
    "preset,arg,message",
    [
        (
            policies.tensorflow,
            "same",
            "jaxpad.policies.tensorflow: padding must be one of 'SAME', 'VALID'; got 'same'.",
        ),
        (policies.jax, "LOWER", "jaxpad.policies.jax: padding must be one of"),
        (policies.onnx, "SAME", "jaxpad.policies.onnx: auto_pad must be one of"),
        (
            policies.torch,
            "full",
            "jaxpad.policies.torch: padding must be one of 'same', 'valid'; got 'full'.",
        ),
        (policies.keras, "SAME", "jaxpad.policies.keras: padding must be one of"),
        (policies.flax, "circular", "jaxpad.policies.flax: padding must be one of"),
        (policies.mps, "sizeSame", "jaxpad.policies.mps: size must be one of"),
    ],
)
def test_error_unknown_preset_string(preset, arg, message):
    with error(ValueError, message):
        preset(arg)


def test_error_caffe_round_mode_and_mps_remainder():
    with error(
        ValueError, "jaxpad.policies.caffe: round_mode must be one of 'ceil', 'floor'; got 'up'."
    ):
        policies.caffe(1, "up")
    with error(
        ValueError,
        "jaxpad.policies.mps: remainder must be one of 'top_left', 'bottom_right'; got 'left'.",
    ):
        policies.mps("same", "left")


def test_error_custom_returns_wrong_shape():
    policy = jaxpad.PaddingPolicy("custom", custom=lambda *args: [(1, 1)], name="mine")
    with error(
        ValueError,
        "mine: the custom policy must return one (lo, hi) pair per axis (2 axes); got [(1, 1)].",
    ):
        policy.pads((5, 5), (3, 3))
    policy = jaxpad.PaddingPolicy("custom", custom=lambda *args: [(1, 1, 1)], name="mine")
    with error(ValueError, "mine: the custom policy must return one (lo, hi) pair per axis"):
        policy.pads((5,), (3,))


def test_error_custom_without_callable():
    with error(TypeError, "jaxpad.PaddingPolicy: size='custom' needs a callable custom; got None."):
        jaxpad.PaddingPolicy("custom")


def test_error_unknown_field_value():
    with error(ValueError, "jaxpad.PaddingPolicy: size must be one of"):
        jaxpad.PaddingPolicy("half")
    with error(ValueError, "jaxpad.PaddingPolicy: divisor must be one of"):
        jaxpad.PaddingPolicy(divisor="all")


def test_error_output_below_one():
    with error(
        ValueError,
        "jaxpad.policies.tensorflow('VALID'): the output would be empty on axis 0: input size 2, "
        "window 3 (dilated 5), stride 1 give -2.",
    ):
        policies.tensorflow("VALID").pads((2,), (3,), (1,), (2,))


def test_error_explicit_pads_wrong_shape():
    with error(
        ValueError,
        "jaxpad.policies.onnx('NOTSET', pads=(1, 1)): explicit pads need one (lo, hi) pair per "
        "axis (2 axes); got ((1, 1),).",
    ):
        policies.onnx(pads=[1, 1]).pads((5, 5), (3, 3))


def test_error_onnx_pads_odd_or_with_auto_pad():
    with error(
        ValueError, "jaxpad.policies.onnx: pads needs a begin and an end per axis; got (1, 2, 3)."
    ):
        policies.onnx(pads=[1, 2, 3])
    with error(
        ValueError, "jaxpad.policies.onnx: pads must not be set with auto_pad='VALID'; got [1, 1]."
    ):
        policies.onnx("VALID", pads=[1, 1])


def test_error_output_padding_not_below_stride():
    with error(
        ValueError,
        "jaxpad.policies.torch(1): output_padding must be smaller than the stride or the "
        "dilation; got 2 with stride 2 and dilation 1 on axis 0.",
    ):
        policies.torch(1).reverse_pads((4,), (3,), (2,), output_padding=2)


def test_error_custom_policy_has_no_reverse():
    policy = jaxpad.PaddingPolicy("custom", custom=lambda *a: [(0, 0)], name="mine")
    with error(ValueError, "mine: a custom policy has no reverse; pass explicit pads."):
        policy.reverse_pads((4,), (3,), (2,))


# Hashing, names, unread fields, which op asks -------------------------------------------


def test_explicit_lists_and_arrays_are_frozen():
    nested = jaxpad.PaddingPolicy("explicit", explicit=([1, 1], [2, 2]))
    frozen = jaxpad.PaddingPolicy("explicit", explicit=((1, 1), (2, 2)))
    array = jaxpad.PaddingPolicy("explicit", explicit=np.array([[1, 1], [2, 2]]))
    assert nested.explicit == ((1, 1), (2, 2)) and nested == frozen == array
    assert hash(nested) == hash(frozen) == hash(array)
    assert {nested: "x"}[array] == "x"
    assert nested.pads((5, 5), (3, 3)) == ((1, 1), (2, 2))


def _all_presets():
    return [
        policies.tensorflow("SAME"),
        policies.jax("SAME_LOWER"),
        policies.onnx("SAME_UPPER", ceil_mode=True),
        policies.onnx(pads=[1, 0, 2, 1], count_include_pad=True),
        policies.onnx("VALID"),
        policies.torch(1),
        policies.torch((1, 2), ceil_mode=True, count_include_pad=False),
        policies.torch("same"),
        policies.caffe(1),
        policies.caffe((1, 0), "floor"),
        policies.keras("causal"),
        policies.flax("CIRCULAR"),
        policies.mps("same"),
        policies.mps("same", exclude_edges=True),
        policies.mps("full", "bottom_right"),
    ]


def test_preset_names_are_their_calls():
    presets = _all_presets()
    assert len({p.name for p in presets}) == len(presets)
    for policy in presets:
        # The name, run as code, makes the same policy: distinct and faithful.
        assert policy.name.startswith("jaxpad.policies.")
        rebuilt = eval(policy.name.removeprefix("jaxpad."), {"policies": policies})
        assert rebuilt == policy, policy.name


def test_mps_exclude_edges_counts_the_padding():
    # Apple's header: ExcludeEdges leaves out regions beyond the padding, not the padding
    # itself (Caffe's AVE divisor). MPS's own SAME pads cover every window, so the
    # average is over the whole window either way (see tests/test_options.py).
    x = jnp.asarray(np.random.default_rng(4).normal(size=(1, 9, 8, 2)), jnp.float32)
    window, strides = (1, 3, 4, 1), (1, 1, 1, 1)
    sums = lax.reduce_window(x, 0.0, lax.add, window, strides, "SAME")
    assert policies.mps("same", "bottom_right", True).divisor == "padded"
    for exclude_edges in (False, True):
        policy = policies.mps("same", "bottom_right", exclude_edges)
        np.testing.assert_allclose(
            nn.avg_pool(x, window, strides, policy), sums / 12, rtol=1e-6, atol=1e-6
        )


def test_onnx_ceil_mode_applies_with_auto_pad():
    # onnxruntime's pools round up with every auto_pad (tests/test_onnx_parity.py).
    assert policies.onnx("VALID").output_shape((7,), (3,), (3,)) == (2,)
    assert policies.onnx("VALID", ceil_mode=True).output_shape((7,), (3,), (3,)) == (3,)
    assert policies.onnx("VALID", ceil_mode=True).pads((7,), (3,), (3,)) == ((0, 2),)
    policy = policies.onnx("SAME_UPPER", ceil_mode=1, count_include_pad=1)
    assert policy.rounding == "ceil" and policy.divisor == "padded"


def test_onnx_same_is_tensorflows_same_where_the_total_is_not_negative():
    rng = np.random.default_rng(2)
    for _ in range(300):
        n, k, s = (int(v) for v in rng.integers(1, 12, 3))
        for auto_pad, tf in (("SAME_UPPER", policies.tensorflow("SAME")), ("SAME_LOWER", None)):
            tf = tf or policies.jax("SAME_LOWER")
            total = (-(-n // s) - 1) * s + k - n
            for op in ("conv", "avg_pool"):
                got = policies.onnx(auto_pad).pads((n,), (k,), (s,), op=op)
                if total >= 0:
                    assert got == tf.pads((n,), (k,), (s,)), (n, k, s, auto_pad)
                else:
                    assert sum(got[0]) == total, (n, k, s, auto_pad)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (
            {"size": "same", "explicit": 1},
            "jaxpad.PaddingPolicy: explicit is not read with size='same'; got explicit=1.",
        ),
        (
            {"size": "valid", "remainder": "top_left"},
            "jaxpad.PaddingPolicy: remainder is not read with size='valid'; got "
            "remainder='top_left'.",
        ),
        (
            {"size": "same", "rounding": "ceil"},
            "jaxpad.PaddingPolicy: rounding is not read with size='same'; got rounding='ceil'.",
        ),
        (
            {"size": "valid", "centred": True, "rounding": "ceil"},
            "jaxpad.PaddingPolicy: rounding is not read with size='valid' and centred=True; got "
            "rounding='ceil'.",
        ),
        (
            {"size": "explicit", "explicit": 1, "ceil_clip": "caffe"},
            "jaxpad.PaddingPolicy: ceil_clip is only read with rounding='ceil'; got "
            "ceil_clip='caffe' with rounding='floor'.",
        ),
        (
            {"size": "explicit", "centred": True},
            "jaxpad.PaddingPolicy: centred is not read with size='explicit'; got centred=True.",
        ),
        (
            {"size": "causal", "remainder": "top_left"},
            "jaxpad.PaddingPolicy: remainder is not read with size='causal'; got "
            "remainder='top_left'.",
        ),
        (
            {"size": "same", "custom": len},
            "jaxpad.PaddingPolicy: custom is not read with size='same'; got custom=<built-in "
            "function len>.",
        ),
    ],
)
def test_error_field_the_size_does_not_read(kwargs, message):
    with error(ValueError, message):
        jaxpad.PaddingPolicy(**kwargs)


def test_error_half_window_limit_without_explicit_pads():
    with error(
        ValueError,
        "jaxpad.PaddingPolicy: half_window_pool_pads is not read with size='same'; got "
        "half_window_pool_pads=True.",
    ):
        jaxpad.PaddingPolicy("same", half_window_pool_pads=True)


def test_error_field_of_the_wrong_type():
    with error(TypeError, "jaxpad.PaddingPolicy: centred must be a bool; got 1."):
        jaxpad.PaddingPolicy("same", centred=1)
    with error(TypeError, "jaxpad.PaddingPolicy: explicit must be an int; got 1.5."):
        jaxpad.PaddingPolicy("explicit", explicit=[(1.5, 1)])
    with error(TypeError, "jaxpad.policies.onnx: ceil_mode must be a bool (or 0 / 1); got 2."):
        policies.onnx(ceil_mode=2)


@pytest.mark.parametrize(
    "padding,kwargs,message",
    [
        (
            "same",
            {"ceil_mode": True},
            "jaxpad.policies.torch: ceil_mode is a pooling option and padding='same' a "
            "convolution one (PyTorch's pools take int padding); got ceil_mode=True with "
            "padding='same'.",
        ),
        (
            "valid",
            {"count_include_pad": False},
            "jaxpad.policies.torch: count_include_pad is a pooling option and padding='valid' a "
            "convolution one (PyTorch's pools take int padding); got count_include_pad=False "
            "with padding='valid'.",
        ),
    ],
)
def test_error_torch_pool_option_with_string_padding(padding, kwargs, message):
    with error(ValueError, message):
        policies.torch(padding, **kwargs)


@pytest.mark.parametrize(
    "policy,op,message",
    [
        (
            policies.torch(1, ceil_mode=True),
            "conv",
            "jaxpad.nn.conv: policy jaxpad.policies.torch(1, ceil_mode=True) rounds the output "
            "size up (rounding='ceil', a pooling option); convolutions round down in every "
            "framework, so use a policy with rounding='floor' (ceil_mode=False, "
            "round_mode='floor').",
        ),
        (
            policies.caffe(1),
            "conv_transpose",
            "jaxpad.nn.conv_transpose: policy jaxpad.policies.caffe(1) rounds the output size up",
        ),
        (
            policies.torch(1),
            "pool",
            "jaxpad.nn.conv: op must be one of 'conv', 'conv_transpose', 'max_pool', "
            "'avg_pool'; got 'pool'.",
        ),
    ],
)
def test_error_op_cannot_honour_the_policy(policy, op, message):
    fn = "jaxpad.nn.conv" if op == "pool" else f"jaxpad.nn.{op}"
    with error(ValueError, message):
        policy.check_op(fn, op)


@pytest.mark.parametrize(
    "policy,op",
    [
        (policies.torch(1, ceil_mode=True), "max_pool"),
        (policies.caffe(1), "avg_pool"),
        (policies.caffe(1, "floor"), "conv"),
        (policies.flax("CIRCULAR"), "conv"),
        # Every op pads in every mode (jaxpad.nn's pools and transposed convs too).
        (policies.flax("CIRCULAR"), "max_pool"),
        (policies.flax("REFLECT"), "conv_transpose"),
        (policies.tensorflow("SAME"), "conv_transpose"),
        (policies.torch(2), "conv"),
    ],
)
def test_op_accepts_what_it_honours(policy, op):
    policy.check_op("f", op)


def test_policy_methods_check_the_op_they_are_told():
    with error(
        ValueError,
        "jaxpad.policies.caffe(1): this policy rounds the output size up (rounding='ceil', a "
        "pooling option)",
    ):
        policies.caffe(1).pads((8,), (3,), (2,), op="conv")
    assert policies.caffe(1).pads((8,), (3,), (2,), op="avg_pool") == ((1, 2),)
