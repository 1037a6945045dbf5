"""Tests for jaxpad/_pad.py: values, transformations, dtypes and bad input."""

from __future__ import annotations

import re

import chex
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jax.test_util import check_grads

import jaxpad
from tests.cases import DTYPES, MODES, NON_CONSTANT
from tests.compat import enable_x64
from tests.oracles import numpy_pad, random_pads

SPEC_INPUT = np.arange(1, 13, dtype=np.int32).reshape(3, 4)


def primitive_names(fn, *args):
    return [eqn.primitive.name for eqn in jax.make_jaxpr(fn)(*args).jaxpr.eqns]


# Spec examples, byte for byte ------------------------------------------------------

# OpenVINO Pad-1, the 3x4 input with pads_begin [0, 1], pads_end [2, 3].
OPENVINO_OUTPUTS = {
    "constant": [
        [0, 1, 2, 3, 4, 0, 0, 0],
        [0, 5, 6, 7, 8, 0, 0, 0],
        [0, 9, 10, 11, 12, 0, 0, 0],
        [0] * 8,
        [0] * 8,
    ],
    "edge": [
        [1, 1, 2, 3, 4, 4, 4, 4],
        [5, 5, 6, 7, 8, 8, 8, 8],
        [9, 9, 10, 11, 12, 12, 12, 12],
        [9, 9, 10, 11, 12, 12, 12, 12],
        [9, 9, 10, 11, 12, 12, 12, 12],
    ],
    "reflect": [
        [2, 1, 2, 3, 4, 3, 2, 1],
        [6, 5, 6, 7, 8, 7, 6, 5],
        [10, 9, 10, 11, 12, 11, 10, 9],
        [6, 5, 6, 7, 8, 7, 6, 5],
        [2, 1, 2, 3, 4, 3, 2, 1],
    ],
    "symmetric": [
        [1, 1, 2, 3, 4, 4, 3, 2],
        [5, 5, 6, 7, 8, 8, 7, 6],
        [9, 9, 10, 11, 12, 12, 11, 10],
        [9, 9, 10, 11, 12, 12, 11, 10],
        [5, 5, 6, 7, 8, 8, 7, 6],
    ],
}


@pytest.mark.parametrize("mode", sorted(OPENVINO_OUTPUTS))
def test_openvino_pad1_examples(mode):
    out = jaxpad.pad(SPEC_INPUT, [0, 1], [2, 3], mode)
    np.testing.assert_array_equal(out, np.array(OPENVINO_OUTPUTS[mode], np.int32))
    assert out.dtype == SPEC_INPUT.dtype


@pytest.mark.parametrize("mode", ["constant", "edge"])
def test_openvino_pad1_xml_examples(mode):
    x = jnp.ones((1, 3, 32, 40), jnp.float32)
    pad_value = 15.0 if mode == "constant" else None
    out = jaxpad.pad(x, [0, 5, 2, 1], [1, 0, 3, 7], mode, pad_value)
    assert out.shape == (2, 8, 37, 48)
    if mode == "constant":
        # "all new elements are filled with 15.0 value"
        assert float(out.sum()) == 1 * 3 * 32 * 40 + 15.0 * (2 * 8 * 37 * 48 - 3 * 32 * 40)
    else:
        np.testing.assert_array_equal(out, np.ones(out.shape, np.float32))


def test_ngraph_interior_example():
    x = jnp.arange(1, 10).reshape(3, 3)
    out = jaxpad.pad(x, [1, 2], [1, 0], pad_value=42, interior=[1, 2])
    expected = [
        [42, 42, 42, 42, 42, 42, 42, 42, 42],
        [42, 42, 1, 42, 42, 2, 42, 42, 3],
        [42, 42, 42, 42, 42, 42, 42, 42, 42],
        [42, 42, 4, 42, 42, 5, 42, 42, 6],
        [42, 42, 42, 42, 42, 42, 42, 42, 42],
        [42, 42, 7, 42, 42, 8, 42, 42, 9],
        [42, 42, 42, 42, 42, 42, 42, 42, 42],
    ]
    np.testing.assert_array_equal(out, np.array(expected))


def test_semantics_negative_pads_are_original_relative():
    # docs/semantics.md; OpenVINO 2026.4.1's CPU plugin (Pad-12) gives the same.
    out = jaxpad.pad(SPEC_INPUT, [-1, 1], [2, -3], "reflect")
    np.testing.assert_array_equal(out, [[6, 5], [10, 9], [6, 5], [2, 1]])


def test_semantics_crop_past_far_edge_gives_pad_values():
    x = jnp.arange(6.0).reshape(2, 3)
    out = jaxpad.pad(x, [0, -4], [0, 2], pad_value=7.0)
    np.testing.assert_array_equal(out, np.full((2, 1), 7.0, np.float32))


def test_semantics_negative_exterior_with_interior_matches_lax():
    x = jnp.array([1, 2, 3, 4])
    out = jaxpad.pad(x, [-1], [2], interior=[1])
    np.testing.assert_array_equal(out, [0, 2, 0, 3, 0, 4, 0, 0])
    np.testing.assert_array_equal(out, lax.pad(x, 0, [(-1, 2, 1)]))


# Values against numpy.pad and lax.pad ----------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_random_non_negative_widths_match_numpy(mode):
    rng = np.random.default_rng(MODES.index(mode))
    for _ in range(12):
        shape = tuple(int(n) for n in rng.integers(1, 6, size=rng.integers(1, 4)))
        begin, end = random_pads(rng, shape, allow_negative=False)
        x = rng.normal(size=shape).astype(np.float32)
        np.testing.assert_array_equal(
            jaxpad.pad(x, begin, end, mode), numpy_pad(x, begin, end, mode)
        )


@pytest.mark.parametrize("mode", MODES)
def test_random_widths_of_any_sign_follow_the_index_rule(mode):
    rng = np.random.default_rng(10 + MODES.index(mode))
    for _ in range(12):
        shape = tuple(int(n) for n in rng.integers(1, 6, size=rng.integers(1, 4)))
        begin, end = random_pads(rng, shape)
        x = rng.integers(-100, 100, size=shape).astype(np.int32)
        np.testing.assert_array_equal(
            jaxpad.pad(x, begin, end, mode), numpy_pad(x, begin, end, mode)
        )


@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize("n,width", [(1, 7), (2, 500), (3, 20), (5, 11)])
def test_pads_larger_than_the_axis_continue_periodically(mode, n, width):
    x = np.arange(1, n + 1, dtype=np.float32)
    np.testing.assert_array_equal(
        jaxpad.pad(x, [width], [width + 1], mode), numpy_pad(x, [width], [width + 1], mode)
    )


def test_constant_mode_with_interior_matches_lax_pad():
    rng = np.random.default_rng(3)
    for _ in range(10):
        shape = tuple(int(n) for n in rng.integers(0, 5, size=2))
        interior = [int(r) for r in rng.integers(0, 3, size=2)]
        begin = [int(v) for v in rng.integers(-1, 4, size=2)]
        end = [int(v) for v in rng.integers(-1, 4, size=2)]
        if any(
            lo + hi + (n - 1) * (r + 1) + 1 < 0 if n else lo + hi < 0
            for lo, hi, n, r in zip(begin, end, shape, interior)
        ):
            continue
        x = rng.normal(size=shape).astype(np.float32)
        expected = lax.pad(x, np.float32(2.5), list(zip(begin, end, interior)))
        np.testing.assert_array_equal(
            jaxpad.pad(x, begin, end, pad_value=2.5, interior=interior), expected
        )


@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (0, 4)])
def test_rank_zero_and_empty_inputs(shape):
    x = jnp.zeros(shape, jnp.float32)
    zeros = (0,) * len(shape)
    np.testing.assert_array_equal(jaxpad.pad(x, zeros, zeros, "reflect"), x)
    ones = (1,) * len(shape)
    np.testing.assert_array_equal(
        jaxpad.pad(x, ones, ones, pad_value=3.0), numpy_pad(x, ones, ones, "constant", 3.0)
    )


def test_empty_axis_with_empty_output_is_fine_in_every_mode():
    x = jnp.zeros((0, 3))
    for mode in NON_CONSTANT:
        assert jaxpad.pad(x, [0, 1], [0, 1], mode).shape == (0, 5)


def test_concrete_array_pads_are_accepted():
    x = jnp.arange(6.0).reshape(2, 3)
    expected = numpy_pad(x, [1, 2], [0, 1], "wrap")
    for begin, end in [
        (np.array([1, 2]), np.array([0, 1])),
        (jnp.array([1, 2]), jnp.array([0, 1])),
        ((np.int64(1), 2), [0, np.int32(1)]),
    ]:
        np.testing.assert_array_equal(jaxpad.pad(x, begin, end, "wrap"), expected)


def test_traced_pad_value_under_jit():
    x = jnp.arange(4.0)
    out = jax.jit(lambda v: jaxpad.pad(x, [1], [2], pad_value=v))(9.0)
    np.testing.assert_array_equal(out, [9, 0, 1, 2, 3, 9, 9])


def test_pad_value_is_cast_to_x_dtype():
    out = jaxpad.pad(jnp.arange(3, dtype=jnp.int8), [1], [0], pad_value=7.9)
    assert out.dtype == jnp.int8
    np.testing.assert_array_equal(out, [7, 0, 1, 2])


# The primitive ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_jaxpr_is_one_jaxpad_pad_equation(mode):
    names = primitive_names(lambda x: jaxpad.pad(x, [1, 2], [3, 0], mode), jnp.ones((2, 3)))
    assert names == ["jaxpad_pad"]


def test_lowering_does_not_grow_with_the_pad_width():
    def hlo_lines(width):
        fn = jax.jit(lambda x: jaxpad.pad(x, [width], [width], "reflect"))
        return len(fn.lower(jnp.ones((2,))).as_text().splitlines())

    def jnp_lines(width):
        fn = jax.jit(lambda x: jnp.pad(x, [(width, width)], mode="reflect"))
        return len(fn.lower(jnp.ones((2,))).as_text().splitlines())

    # Up to a few periods (period 2 here) the pad concatenates the periods' slices;
    # past that it tiles one period, whatever the width.
    assert hlo_lines(5000) == hlo_lines(500)
    assert max(hlo_lines(width) for width in (1, 5, 10, 16)) < 3 * hlo_lines(500)
    # The reason this op exists: jnp.pad unrolls wide reflect pads.
    assert jnp_lines(500) > 10 * jnp_lines(1)


def test_fold_lowering_does_not_grow_with_the_pad_width():
    def hlo_lines(width):
        fn = jax.jit(jax.grad(lambda x: jaxpad.pad(x, [width], [width], "reflect").sum()))
        return len(fn.lower(jnp.ones((3,))).as_text().splitlines())

    # Up to a few periods (period 4 here) the fold adds shifted slices; past that it
    # sums the periods with one reduction, whatever the width.
    assert hlo_lines(3000) == hlo_lines(100)
    assert max(hlo_lines(width) for width in (5, 10, 20, 30)) < 2 * hlo_lines(3000)


def test_eager_and_jit_agree_and_eager_runs_the_shape_rule():
    x = jnp.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(
        jaxpad.pad(x, [1, 1], [1, 1], "symmetric"),
        jax.jit(lambda x: jaxpad.pad(x, [1, 1], [1, 1], "symmetric"))(x),
    )
    with pytest.raises(ValueError, match="negative size"):
        jaxpad.pad_p.bind(
            x, np.float32(0), pads_begin=(0, -9), pads_end=(0, 0), interior=(0, 0), mode="edge"
        )


def test_eval_shape_matches_the_result():
    x = jax.ShapeDtypeStruct((3, 5), jnp.bfloat16)
    shape = jax.eval_shape(lambda x: jaxpad.pad(x, [2, -1], [0, 4], "wrap"), x)
    assert (shape.shape, shape.dtype) == ((5, 8), jnp.bfloat16)


# Gradients -------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("begin,end", [([1, 2], [3, 0]), ([-1, 4], [2, -2]), ([7, 0], [9, 1])])
def test_check_grads_order_two(mode, begin, end):
    x = jnp.asarray(np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32))
    check_grads(
        lambda x: jaxpad.pad(x, begin, end, mode), (x,), order=2, modes=("fwd", "rev"), eps=1.0
    )


def test_check_grads_through_pad_value_and_interior():
    x = jnp.arange(6.0).reshape(2, 3)
    check_grads(
        lambda x, v: jaxpad.pad(x, [1, -1], [2, 1], pad_value=v, interior=[1, 0]),
        (x, jnp.float32(2.0)),
        order=2,
        modes=("fwd", "rev"),
        eps=1.0,
    )


@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_vjp_matches_jnp_pad(mode):
    rng = np.random.default_rng(1)
    for shape, widths in [
        ((16, 9, 8), [(0, 0), (3, 4), (2, 9)]),
        ((5,), [(13, 2)]),
        ((2, 3), [(5, 7), (0, 1)]),
        # Many periods: shifted slices up to 8 periods, a reduction past that.
        ((3, 4, 2), [(40, 29), (9, 14), (0, 0)]),
    ]:
        x = rng.normal(size=shape).astype(np.float32)
        begin, end = [w[0] for w in widths], [w[1] for w in widths]
        out, vjp = jax.vjp(lambda x: jaxpad.pad(x, begin, end, mode), x)
        ct = rng.normal(size=out.shape).astype(np.float32)
        expected = jax.vjp(lambda x: jnp.pad(x, widths, mode=mode), x)[1](ct)[0]
        np.testing.assert_allclose(vjp(ct)[0], expected, rtol=1e-5, atol=1e-5)


def test_gradient_with_respect_to_pad_value_alone():
    x = jnp.ones((3, 4))
    grad = jax.grad(lambda v: (jaxpad.pad(x, [1, 2], [0, 1], pad_value=v) ** 2).sum())(3.0)
    # jnp.pad and lax.pad cannot differentiate a traced pad value alone; a select can.
    copied = np.pad(np.ones((3, 4), bool), [(1, 0), (2, 1)])
    expected = jax.grad(lambda v: (jnp.where(copied, jnp.pad(x, [(1, 0), (2, 1)]), v) ** 2).sum())(
        3.0
    )
    np.testing.assert_allclose(grad, expected)
    assert float(grad) == 2 * 3.0 * (4 * 7 - 12)


def test_gradients_stay_inside_jaxpad_primitives():
    def f(x):
        return jaxpad.pad(x, [2], [3], "reflect")

    x = jnp.arange(4.0)
    vjp_names = primitive_names(lambda x, t: jax.vjp(f, x)[1](t), x, jnp.ones(9))
    assert "jaxpad_fold" in vjp_names and "gather" not in vjp_names

    # The transpose of the fold is the pad again.
    def fold(t):
        return jax.linear_transpose(f, x)(t)[0]

    names = primitive_names(lambda x: jax.linear_transpose(fold, jnp.ones(9))(x), x)
    assert names.count("jaxpad_pad") == 1 and "scatter-add" not in names


@pytest.mark.parametrize("mode", MODES)
def test_linear_transpose_is_the_dense_transpose(mode):
    n, begin, end = 4, 3, 6
    x = jnp.zeros(n)
    matrix = jax.jacfwd(lambda x: jaxpad.pad(x, [begin], [end], mode))(x)
    transpose = jax.linear_transpose(lambda x: jaxpad.pad(x, [begin], [end], mode), x)
    t = jnp.arange(n + begin + end, dtype=jnp.float32)
    np.testing.assert_allclose(transpose(t)[0], matrix.T @ t)


def test_hessian_and_jvp():
    def loss(x):
        return (jaxpad.pad(x, [2, 1], [1, 3], "symmetric") ** 3).sum()

    x = jnp.arange(1.0, 7.0).reshape(2, 3)

    def reference(x):
        return (jnp.pad(x, [(2, 1), (1, 3)], mode="symmetric") ** 3).sum()

    np.testing.assert_allclose(jax.hessian(loss)(x), jax.hessian(reference)(x), rtol=1e-5)
    primal, tangent = jax.jvp(
        lambda x: jaxpad.pad(x, [1, 1], [1, 1], "wrap"), (x,), (jnp.ones_like(x),)
    )
    np.testing.assert_array_equal(tangent, np.ones(primal.shape))


# vmap ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("in_axis,out_axis", [(0, 0), (1, 0), (2, 1), (-1, -1)])
def test_vmap_over_x(mode, in_axis, out_axis):
    x = jnp.asarray(np.random.default_rng(2).normal(size=(3, 4, 5)).astype(np.float32))
    fn = jax.vmap(lambda x: jaxpad.pad(x, [1, -1], [2, 3], mode), in_axis, out_axis)
    slices = [
        numpy_pad(np.take(np.asarray(x), i, axis=in_axis), [1, -1], [2, 3], mode)
        for i in range(x.shape[in_axis])
    ]
    np.testing.assert_array_equal(fn(x), np.stack(slices, axis=out_axis))


@pytest.mark.parametrize("x_axis", [None, 0, 1])
def test_vmap_over_pad_value(x_axis):
    values = jnp.array([1.0, -2.0, 5.0])
    x = jnp.arange(6.0).reshape(2, 3)
    xs = x if x_axis is None else jnp.stack([x + i for i in range(3)], axis=x_axis)
    fn = jax.vmap(
        lambda x, v: jaxpad.pad(x, [1, 0], [0, 2], pad_value=v, interior=[0, 1]), (x_axis, 0), 1
    )
    out = fn(xs, values)
    for i, v in enumerate(values):
        xi = x if x_axis is None else np.take(np.asarray(xs), i, axis=x_axis)
        np.testing.assert_array_equal(out[:, i], lax.pad(xi, v, [(1, 0, 0), (0, 2, 1)]))


def test_vmap_of_grad_and_grad_of_vmap():
    xs = jnp.arange(24.0).reshape(4, 6)

    def loss(x, v):
        return (jaxpad.pad(x, [3], [2], pad_value=v) ** 2).sum()

    grads = jax.vmap(jax.grad(loss, argnums=(0, 1)))(xs, jnp.arange(4.0))
    for i in range(4):
        gx, gv = jax.grad(loss, argnums=(0, 1))(xs[i], float(i))
        np.testing.assert_allclose(grads[0][i], gx)
        np.testing.assert_allclose(grads[1][i], gv)


# Export ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["constant", "reflect"])
def test_export_round_trip_and_gradient(mode):
    def f(x):
        return jaxpad.pad(x, [2, 1], [1, 3], mode)

    x = jnp.arange(12.0).reshape(3, 4)
    exported = jax.export.export(jax.jit(f))(x)
    restored = jax.export.deserialize(exported.serialize(vjp_order=1))
    np.testing.assert_array_equal(restored.call(x), f(x))
    np.testing.assert_allclose(
        jax.grad(lambda x: restored.call(x).sum())(x), jax.grad(lambda x: f(x).sum())(x)
    )
    # Lowered to plain StableHLO: the serialized module needs no jaxpad to run.
    assert "custom_call" not in exported.mlir_module()


# Dtypes ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.subsample(0.3)
def test_dtypes(dtype, mode):
    x = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    out = jaxpad.pad(x, [1, 2], [2, -1], mode)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, numpy_pad(x, [1, 2], [2, -1], mode))


@pytest.mark.parametrize("dtype", [jnp.int64, jnp.uint64, jnp.float64, jnp.complex128])
@pytest.mark.parametrize("mode", ["constant", "reflect"])
def test_64_bit_dtypes(dtype, mode):
    with enable_x64(True):
        x = np.arange(6).reshape(2, 3).astype(dtype)
        out = jaxpad.pad(x, [1, 1], [0, 2], mode)
        assert out.dtype == dtype
        np.testing.assert_array_equal(out, numpy_pad(x, [1, 1], [0, 2], mode))
        if jnp.issubdtype(dtype, jnp.inexact):
            check_grads(
                lambda x: jaxpad.pad(x, [1, 1], [0, 2], mode),
                (jnp.asarray(x),),
                order=2,
                modes=("fwd", "rev"),
            )


@pytest.mark.parametrize("dtype", [jnp.int32, jnp.bool_])
def test_integer_inputs_get_float0_tangents(dtype):
    x = jnp.ones((2, 2), dtype)
    grad = jax.grad(
        lambda x: jaxpad.pad(x, [1, 1], [1, 1], "edge").astype(float).sum(), allow_int=True
    )(x)
    assert grad.dtype == jax.dtypes.float0
    _, tangent = jax.jvp(
        lambda x: jaxpad.pad(x, [1, 1], [1, 1]), (x,), (np.zeros(x.shape, jax.dtypes.float0),)
    )
    assert tangent.dtype == jax.dtypes.float0


def test_complex_gradient_matches_jnp():
    x = jnp.array([1 + 2j, 3 - 1j, 0.5j], jnp.complex64)

    def ours(x):
        return jnp.abs(jaxpad.pad(x, [2], [1], "reflect") * (1 + 1j)).sum()

    def theirs(x):
        return jnp.abs(jnp.pad(x, [(2, 1)], mode="reflect") * (1 + 1j)).sum()

    chex.assert_trees_all_close(jax.grad(ours)(x), jax.grad(theirs)(x), rtol=1e-6)


# Bad input: one test per message --------------------------------------------------

X = jnp.zeros((2, 3, 4))


def raises(error, message):
    return pytest.raises(error, match="^" + re.escape(message))


def test_error_unknown_mode():
    with raises(
        ValueError,
        "jaxpad.pad: mode must be one of 'constant', 'edge', 'reflect', "
        "'symmetric', 'wrap', 'reflect_odd', 'symmetric_odd', 'dirichlet', 'neumann', "
        "'antisymmetric', 'smooth', 'line'; got 'mirror'.",
    ):
        jaxpad.pad(X, [0] * 3, [0] * 3, "mirror")


def test_error_wrong_number_of_pads():
    with raises(
        ValueError,
        "jaxpad.pad: pads_begin needs one entry per axis of x (x.ndim=3); got 2: (1, 1).",
    ):
        jaxpad.pad(X, [1, 1], [0, 0, 0])
    with raises(ValueError, "jaxpad.pad: pads_end needs one entry per axis of x (x.ndim=3); got 4"):
        jaxpad.pad(X, [1, 1, 1], [0, 0, 0, 0])


@pytest.mark.parametrize(
    "bad,message",
    [
        ([1.5, 0, 0], "jaxpad.pad: pads_begin[0] must be an int; got 1.5."),
        ([True, 0, 0], "jaxpad.pad: pads_begin[0] must be an int, not a bool; got True."),
        (
            np.array([1.0, 0.0, 0.0]),
            "jaxpad.pad: pads_begin must have an integer dtype; got an "
            "array of shape (3,) and dtype float64.",
        ),
        (
            np.zeros((3, 1), np.int32),
            "jaxpad.pad: pads_begin must be 1-D with one entry per axis;"
            " got an array of shape (3, 1) and dtype int32.",
        ),
        (3, "jaxpad.pad: pads_begin must be a sequence of ints with one entry per axis; got 3."),
    ],
)
def test_error_non_integer_pads(bad, message):
    with raises(TypeError if "1-D" not in message else ValueError, message):
        jaxpad.pad(X, bad, [0, 0, 0])


def test_error_traced_pads_point_to_dynamic_pad():
    with pytest.raises(
        TypeError,
        match=r"^jaxpad.pad: pads_begin must be static.*"
        r"jaxpad.dynamic_pad\(x, pads_begin, shape, mode\)",
    ):
        jax.jit(lambda b: jaxpad.pad(X, b, [0, 0, 0]))(jnp.array([1, 1, 1]))


def test_error_negative_output_size():
    with raises(
        ValueError,
        "jaxpad.pad: the output would have negative size -1 on axis 1: "
        "pads_begin[1]=-2, x.shape[1]=3, pads_end[1]=-2.",
    ):
        jaxpad.pad(X, [0, -2, 0], [0, -2, 0])


def test_error_pad_value_with_non_constant_mode():
    with raises(
        ValueError,
        "jaxpad.pad: pad_value is only read by sides whose mode is 'constant', "
        "'dirichlet' or 'neumann'; got pad_value=1.0 with mode='edge'.",
    ):
        jaxpad.pad(X, [0] * 3, [0] * 3, "edge", 1.0)


def test_error_non_scalar_pad_value():
    with raises(
        ValueError,
        "jaxpad.pad: pad_value must be a scalar or have shape (x.ndim, 2) = (3, 2), one "
        "value per side of each axis; got shape (2,).",
    ):
        jaxpad.pad(X, [0] * 3, [0] * 3, pad_value=jnp.ones(2))


def test_error_complex_pad_value_for_real_x():
    with raises(TypeError, "jaxpad.pad: a complex pad_value would lose its imaginary part"):
        jaxpad.pad(X, [0] * 3, [0] * 3, pad_value=1j)


def test_error_interior_with_non_constant_mode():
    with raises(
        ValueError,
        "jaxpad.pad: interior padding needs mode='constant' and a scalar pad_value; got "
        "interior=(1, 0, 0) with mode='reflect'.",
    ):
        jaxpad.pad(X, [0] * 3, [0] * 3, "reflect", interior=[1, 0, 0])


def test_error_negative_interior():
    with raises(ValueError, "jaxpad.pad: interior must be non-negative; got (0, -1, 0)."):
        jaxpad.pad(X, [0] * 3, [0] * 3, interior=[0, -1, 0])


def test_error_non_constant_mode_on_an_empty_axis():
    with raises(
        ValueError,
        "jaxpad.pad: mode='wrap' cannot fill axis 0 of x.shape=(0, 3): "
        "it is empty and the output is not (size 2)",
    ):
        jaxpad.pad(jnp.zeros((0, 3)), [1, 0], [1, 0], "wrap")


# crop_first: onnxruntime's and PyTorch's negative pads ----------------------------


def _onnx_pad(x, pads_begin, pads_end, mode):
    """onnxruntime's Pad (opset 19), which crops negative pads before padding."""
    ort = pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    helper = onnx.helper
    graph = helper.make_graph(
        [helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode)],
        "pad",
        [
            helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [None] * x.ndim),
            helper.make_tensor_value_info("pads", onnx.TensorProto.INT64, [2 * x.ndim]),
        ],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [None] * x.ndim)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    pads = np.array([*pads_begin, *pads_end], np.int64)
    return session.run(None, {"x": x, "pads": pads})[0]


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "wrap"])
def test_crop_first_matches_onnxruntime(mode):
    rng = np.random.default_rng(11)
    x = rng.normal(size=(5, 6)).astype(np.float32)
    checked = 0
    for _ in range(40):
        pads_begin = [int(v) for v in rng.integers(-3, 4, size=2)]
        pads_end = [int(v) for v in rng.integers(-3, 4, size=2)]
        cropped = [n + min(lo, 0) + min(hi, 0) for n, lo, hi in zip(x.shape, pads_begin, pads_end)]
        if mode != "constant" and 0 in cropped:
            continue  # nothing left to extend: onnxruntime raises, and so does jaxpad
        if mode == "reflect" and any(
            max(lo, hi) >= m for m, lo, hi in zip(cropped, pads_begin, pads_end)
        ):
            continue  # onnxruntime's reflect needs pads below the cropped axis' size
        expected = _onnx_pad(x, pads_begin, pads_end, mode)
        got = jaxpad.pad(x, pads_begin, pads_end, mode, crop_first=True)
        np.testing.assert_array_equal(got, expected, f"{pads_begin}, {pads_end}")
        checked += 1
    assert checked >= 15


def test_crop_first_matches_torch_circular():
    torch = pytest.importorskip("torch")
    x = np.arange(1.0, 7.0, dtype=np.float32)
    for lo, hi in ((-1, 1), (2, -3), (-2, -1), (3, 0)):
        expected = torch.nn.functional.pad(torch.tensor(x)[None, None], (lo, hi), "circular")
        got = jaxpad.pad(x, [lo], [hi], "wrap", crop_first=True)
        np.testing.assert_array_equal(got, expected[0, 0].numpy())


@pytest.mark.parametrize("mode", MODES)
def test_crop_first_is_pad_of_the_cropped_array(mode):
    x = jnp.arange(1.0, 5.0)
    got = jaxpad.pad(x, [-2], [3], mode, crop_first=True)
    np.testing.assert_array_equal(got, jaxpad.pad(x[2:], [0], [3], mode))
    with enable_x64(True):  # float32 finite differences are too coarse for order 2
        x64 = jnp.arange(1.0, 5.0, dtype=jnp.float64)
        check_grads(lambda x: jaxpad.pad(x, [-2], [3], mode, crop_first=True), (x64,), 2)
    # The periodic modes read the cropped elements under the default rule; constant
    # and edge never do, so both rules agree there.
    default = jaxpad.pad(x, [-2], [3], mode)
    assert np.array_equal(got, default) == (mode in ("constant", "edge"))


def test_crop_first_errors():
    with pytest.raises(ValueError, match=r"^jaxpad\.pad: crop_first=True needs interior of 0"):
        jaxpad.pad(jnp.ones(3), [-1], [1], crop_first=True, interior=[1])
    with pytest.raises(ValueError, match=r"^jaxpad\.pad: crop_first=True crops 4 elements"):
        jaxpad.pad(jnp.ones(3), [-2], [-2], crop_first=True)
    with pytest.raises(TypeError, match=r"^jaxpad\.pad: crop_first must be a bool; got 'yes'"):
        jaxpad.pad(jnp.ones(3), [-1], [1], crop_first="yes")
