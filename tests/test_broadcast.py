"""Tests for jaxpad/_broadcast.py against numpy.broadcast_to and the spec examples."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jax.test_util import check_grads

import jaxpad


def raises(error, message):
    return pytest.raises(error, match="^" + re.escape(message))


# OpenVINO Broadcast-1's XML examples -------------------------------------------------


def test_spec_numpy_example():
    x = np.arange(16, dtype=np.float32).reshape(16, 1, 1)
    out = jaxpad.broadcast(x, [1, 16, 50, 50])
    np.testing.assert_array_equal(out, np.broadcast_to(x, (1, 16, 50, 50)))


def test_spec_explicit_channel_example():
    x = np.arange(16, dtype=np.float32)
    out = jaxpad.broadcast(x, np.array([1, 16, 50, 50]), "explicit", np.array([1]))
    np.testing.assert_array_equal(out, np.broadcast_to(x[None, :, None, None], out.shape))
    assert out.shape == (1, 16, 50, 50)


def test_spec_explicit_spatial_example():
    x = np.arange(2500, dtype=np.float32).reshape(50, 50)
    out = jaxpad.broadcast(x, [1, 50, 50, 16], "explicit", [1, 2])
    assert out.shape == (1, 50, 50, 16)
    np.testing.assert_array_equal(out, np.broadcast_to(x[None, :, :, None], out.shape))


@pytest.mark.parametrize("target,expected", [([4, 1, 1], (4, 2, 3)), ([1], (2, 3))])
def test_bidirectional_examples(target, expected):
    x = np.arange(6).reshape(2, 3)
    out = jaxpad.broadcast(x, target, "bidirectional")
    assert out.shape == expected == np.broadcast_shapes(x.shape, tuple(target))
    np.testing.assert_array_equal(out, np.broadcast_to(x, expected))


# Against numpy on random shapes -----------------------------------------------------


def test_random_numpy_and_bidirectional_match_numpy():
    rng = np.random.default_rng(0)
    for _ in range(25):
        target = tuple(int(n) for n in rng.integers(0, 4, size=rng.integers(0, 5)))
        keep = int(rng.integers(0, len(target) + 1))
        shape = tuple(n if rng.random() < 0.6 else 1 for n in target[len(target) - keep :])
        x = rng.normal(size=shape).astype(np.float32)
        np.testing.assert_array_equal(jaxpad.broadcast(x, target), np.broadcast_to(x, target))
        both = np.broadcast_shapes(target, shape)
        np.testing.assert_array_equal(
            jaxpad.broadcast(x, target, "bidirectional"), np.broadcast_to(x, both)
        )


def test_negative_axes_mapping_counts_from_the_end():
    x = np.arange(3.0)
    np.testing.assert_array_equal(
        jaxpad.broadcast(x, [2, 3, 4], "explicit", [-2]),
        jaxpad.broadcast(x, [2, 3, 4], "explicit", [1]),
    )


def test_jaxpr_is_one_equation_and_lowers_to_broadcast_in_dim():
    fn = lambda x: jaxpad.broadcast(x, [4, 2, 3], "bidirectional")  # noqa: E731
    jaxpr = jax.make_jaxpr(fn)(jnp.ones((2, 3)))
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["jaxpad_broadcast"]
    assert "broadcast_in_dim" in jax.jit(fn).lower(jnp.ones((2, 3))).as_text()


# Transformations ---------------------------------------------------------------------

CASES = [
    ((3, 1), [2, 3, 4], "numpy", None),
    ((4,), [4, 5], "explicit", [0]),
    ((1, 3), [5, 1, 3], "bidirectional", None),
    ((2, 1), [2, 6, 3], "explicit", [0, 2]),
]


@pytest.mark.parametrize("shape,target,mode,mapping", CASES)
def test_gradients_match_broadcast_in_dim(shape, target, mode, mapping):
    x = jnp.asarray(np.random.default_rng(1).normal(size=shape).astype(np.float32))
    if mode == "bidirectional":
        out_shape = np.broadcast_shapes(shape, tuple(target))
    else:
        out_shape = tuple(target)

    def ours(x):
        return jaxpad.broadcast(x, target, mode, mapping)

    dims = (
        tuple(mapping)
        if mode == "explicit"
        else tuple(range(len(out_shape) - len(shape), len(out_shape)))
    )

    def theirs(x):
        return lax.broadcast_in_dim(x, out_shape, dims)

    weights = jnp.arange(np.prod(out_shape), dtype=jnp.float32).reshape(out_shape)
    np.testing.assert_allclose(
        jax.grad(lambda x: (ours(x) * weights).sum())(x),
        jax.grad(lambda x: (theirs(x) * weights).sum())(x),
    )
    # Jitted: each derivative compiles once rather than running op by op.
    check_grads(jax.jit(ours), (x,), order=2, modes=("fwd", "rev"), eps=1.0)
    np.testing.assert_allclose(
        jax.jit(jax.hessian(lambda x: (ours(x) ** 3).sum()))(x),
        jax.jit(jax.hessian(lambda x: (theirs(x) ** 3).sum()))(x),
        rtol=1e-5,
    )
    transpose = jax.linear_transpose(ours, x)
    np.testing.assert_allclose(transpose(weights)[0], jax.linear_transpose(theirs, x)(weights)[0])


@pytest.mark.parametrize("in_axis,out_axis", [(0, 0), (1, 2), (-1, 1)])
@pytest.mark.parametrize(
    "mode,target,mapping",
    [
        ("numpy", [2, 3, 4], None),
        ("explicit", [3, 2, 4], [0, 2]),
        ("bidirectional", [2, 1, 1], None),
    ],
)
def test_vmap(in_axis, out_axis, mode, target, mapping):
    # Each example has shape (3, 1); five of them stacked along in_axis.
    examples = np.random.default_rng(2).normal(size=(5, 3, 1)).astype(np.float32)
    xs = np.moveaxis(examples, 0, in_axis)
    fn = jax.vmap(lambda x: jaxpad.broadcast(x, target, mode, mapping), in_axis, out_axis)
    expected = [jaxpad.broadcast(example, target, mode, mapping) for example in examples]
    np.testing.assert_array_equal(fn(jnp.asarray(xs)), np.stack(expected, axis=out_axis))
    first = examples[0][:, None, :] if mode == "explicit" else examples[0]
    np.testing.assert_array_equal(expected[0], np.broadcast_to(first, expected[0].shape))


def test_jit_and_export():
    def f(x):
        return jaxpad.broadcast(x, [2, 3, 4], "explicit", [1])

    x = jnp.arange(3.0)
    exported = jax.export.export(jax.jit(f))(x)
    restored = jax.export.deserialize(exported.serialize(vjp_order=1))
    np.testing.assert_array_equal(restored.call(x), jax.jit(f)(x))
    np.testing.assert_allclose(jax.grad(lambda x: restored.call(x).sum())(x), [8.0] * 3)


@pytest.mark.parametrize(
    "dtype",
    [jnp.bool_, jnp.int8, jnp.uint32, jnp.float16, jnp.bfloat16, jnp.float32, jnp.complex64],
)
def test_dtypes(dtype):
    x = (np.arange(3) % 2).astype(dtype)
    out = jaxpad.broadcast(x, [2, 3])
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, np.broadcast_to(x, (2, 3)))


# Bad input: one test per message -----------------------------------------------------

X = jnp.zeros((2, 3))


def test_error_unknown_mode():
    with raises(
        ValueError,
        "jaxpad.broadcast: mode must be one of 'numpy', 'explicit', 'bidirectional'; got 'pdpd'.",
    ):
        jaxpad.broadcast(X, [2, 3], "pdpd")


def test_error_axis_matches_neither_target_nor_one():
    with raises(
        ValueError,
        "jaxpad.broadcast: axis 1 of x.shape=(2, 3) has size 3, which is "
        "neither 1 nor target_shape[2]=4 (target_shape=(5, 2, 4)).",
    ):
        jaxpad.broadcast(X, [5, 2, 4])


def test_error_bidirectional_incompatible():
    with raises(
        ValueError, "jaxpad.broadcast: x.shape=(2, 3) and target_shape=(4, 4) do not broadcast"
    ):
        jaxpad.broadcast(X, [4, 4], "bidirectional")


def test_error_numpy_target_of_lower_rank():
    with raises(
        ValueError,
        "jaxpad.broadcast: mode='numpy' cannot broadcast x.shape=(2, 3) to "
        "the lower-rank target_shape=(3,)",
    ):
        jaxpad.broadcast(X, [3])


@pytest.mark.parametrize("mode", ["numpy", "bidirectional"])
def test_error_axes_mapping_with_other_modes(mode):
    with raises(
        ValueError,
        f"jaxpad.broadcast: axes_mapping is only used by mode='explicit'; "
        f"got axes_mapping=[0, 1] with mode='{mode}'.",
    ):
        jaxpad.broadcast(X, [2, 3], mode, [0, 1])


def test_error_explicit_without_axes_mapping():
    with raises(ValueError, "jaxpad.broadcast: mode='explicit' needs axes_mapping; got None."):
        jaxpad.broadcast(X, [2, 3], "explicit")


@pytest.mark.parametrize(
    "mapping,message",
    [
        ([0], "axes_mapping needs one entry per axis of x (x.ndim=2); got 1: (0,)."),
        ([1, 0], "axes_mapping must be sorted (Broadcast does not transpose); got (1, 0)."),
        ([1, 1], "axes_mapping has a repeated axis; got (1, 1)."),
        ([0, 3], "axes_mapping entries must lie in [-3, 3) for a target of rank 3; got (0, 3)."),
    ],
)
def test_error_bad_axes_mapping(mapping, message):
    with raises(ValueError, "jaxpad.broadcast: " + message):
        jaxpad.broadcast(X, [2, 3, 3], "explicit", mapping)


def test_error_negative_target_size():
    with raises(ValueError, "jaxpad.broadcast: target_shape must be non-negative; got (2, -3)."):
        jaxpad.broadcast(X, [2, -3])


def test_error_traced_target_shape():
    with raises(TypeError, "jaxpad.broadcast: target_shape must be static"):
        jax.jit(lambda s: jaxpad.broadcast(X, s))(jnp.array([2, 3]))


def test_error_non_integer_target_shape():
    with raises(TypeError, "jaxpad.broadcast: target_shape[1] must be an int; got 3.0."):
        jaxpad.broadcast(X, [2, 3.0])
