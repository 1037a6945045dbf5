"""Tests for jaxpad/_dynamic_pad.py: traced and per-example pads, gradients, bad input."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

import jaxpad
from jaxpad import _index_maps, _lowering
from jaxpad._lowering import Target, plan_dynamic_fold
from tests.cases import DTYPES, MODES
from tests.compat import enable_x64
from tests.oracles import dense_pad_matrix, numpy_pad

# (x.shape, output shape): short axes (folded densely), outputs within two periods
# (folded by direct reads) and outputs many periods long (folded by phase).
CASES = [
    ((5,), (5,)),
    ((3, 4), (6, 2)),
    ((2, 9), (31, 9)),
    ((1, 12), (4, 40)),
    ((17,), (9,)),
    ((3, 5), (2, 40)),
    ((9, 10), (12, 10)),
]


def primitive_names(fn, *args):
    return [eqn.primitive.name for eqn in jax.make_jaxpr(fn)(*args).jaxpr.eqns]


def random_begin(rng, x_shape, shape):
    return np.array([rng.integers(-2 * s - 2, 2 * s + 3) for n, s in zip(x_shape, shape)], np.int32)


def implied_end(x_shape, pads_begin, shape):
    return [s - n - int(b) for n, b, s in zip(x_shape, pads_begin, shape)]


# Values ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("x_shape,shape", CASES)
@pytest.mark.subsample(0.4)
def test_traced_pads_follow_the_index_rule(mode, x_shape, shape):
    rng = np.random.default_rng(0)
    x = rng.normal(size=x_shape).astype(np.float32)
    fn = jax.jit(lambda x, pads: jaxpad.dynamic_pad(x, pads, shape, mode))
    for _ in range(12):
        pads_begin = random_begin(rng, x_shape, shape)
        expected = numpy_pad(x, pads_begin, implied_end(x_shape, pads_begin, shape), mode)
        np.testing.assert_array_equal(fn(x, pads_begin), expected, err_msg=str(pads_begin))


@pytest.mark.parametrize("mode", MODES)
def test_concrete_pads_equal_static_pad(mode):
    rng = np.random.default_rng(1)
    x = jnp.asarray(rng.normal(size=(4, 3, 5)).astype(np.float32))
    shape = (7, 3, 2)
    for _ in range(5):
        pads_begin = random_begin(rng, x.shape, shape)
        expected = jaxpad.pad(x, pads_begin, implied_end(x.shape, pads_begin, shape), mode)
        for given in (pads_begin, jnp.asarray(pads_begin), [int(b) for b in pads_begin]):
            np.testing.assert_array_equal(jaxpad.dynamic_pad(x, given, shape, mode), expected)


def test_constant_mode_out_of_view_gives_pad_values():
    x = jnp.arange(1.0, 7.0).reshape(2, 3)
    fn = jax.jit(lambda pads: jaxpad.dynamic_pad(x, pads, (2, 3), pad_value=-1.0))
    for pads in ([0, 3], [2, 0], [-2, 0], [0, -3], [50, -70]):
        np.testing.assert_array_equal(fn(jnp.array(pads)), np.full((2, 3), -1.0))


@pytest.mark.parametrize("mode", MODES)
def test_extreme_offsets_do_not_overflow(mode):
    x = np.arange(1.0, 6.0, dtype=np.float32)
    fn = jax.jit(lambda pads: jaxpad.dynamic_pad(x, pads, (7,), mode))
    for pads in (2**31 - 1, -(2**31), 2**31 - 5, -(2**30) - 3):
        if mode == "constant":
            expected = np.zeros(7, np.float32)
        elif mode == "edge":
            expected = np.full(7, x[0] if pads > 0 else x[-1])
        else:
            # Periodic maps only see the pad modulo the period (docs/semantics.md).
            reduced = pads % {"reflect": 8, "symmetric": 10, "wrap": 5}[mode]
            expected = numpy_pad(x, [reduced], [7 - 5 - reduced], mode)
        np.testing.assert_array_equal(fn(jnp.array([pads], jnp.int32)), expected, str(pads))


def test_mixed_static_and_traced_entries():
    x = jnp.arange(24.0).reshape(2, 3, 4)

    def fn(shift):
        return jaxpad.dynamic_pad(x, (0, shift, -1), (2, 5, 4), "wrap")

    (pad_eqn,) = [
        e for e in jax.make_jaxpr(fn)(1).jaxpr.eqns if e.primitive is jaxpad.dynamic_pad_p
    ]
    # Static entries are reduced to an equivalent pad: wrap by -1 on an axis of 4 is 3.
    assert pad_eqn.params["static_pads"] == (0, None, 3)
    fn = jax.jit(fn)
    for shift in (-4, 0, 2, 9):
        np.testing.assert_array_equal(
            fn(shift), numpy_pad(np.asarray(x), [0, shift, -1], [0, 5 - 3 - shift, 1], "wrap")
        )


def test_rank_zero_and_empty():
    assert jaxpad.dynamic_pad(jnp.float32(3.0), jnp.zeros((0,), jnp.int32), ()) == 3.0
    out = jaxpad.dynamic_pad(jnp.zeros((0, 2)), jnp.array([1, 0]), (3, 2), pad_value=4.0)
    np.testing.assert_array_equal(out, np.full((3, 2), 4.0))
    for mode in MODES:
        assert jaxpad.dynamic_pad(jnp.ones((2, 3)), jnp.array([1, 1]), (0, 3), mode).shape == (0, 3)


def test_jaxpr_is_one_dynamic_pad_equation():
    names = primitive_names(
        lambda x, p: jaxpad.dynamic_pad(x, p, (6, 6), "reflect"), jnp.ones((4, 4)), jnp.ones(2, int)
    )
    assert names == ["jaxpad_dynamic_pad"]


def test_eval_shape_and_eager_shape_rule():
    x = jax.ShapeDtypeStruct((3, 5), jnp.bfloat16)
    pads = jax.ShapeDtypeStruct((2,), jnp.int32)
    out = jax.eval_shape(lambda x, p: jaxpad.dynamic_pad(x, p, (4, 1), "edge"), x, pads)
    assert (out.shape, out.dtype) == ((4, 1), jnp.bfloat16)
    with pytest.raises(ValueError, match="pads_begin has shape"):
        jaxpad.dynamic_pad_p.bind(
            jnp.ones((2, 3)),
            np.float32(0),
            jnp.zeros((3,), jnp.int32),
            shape=(2, 3),
            mode="edge",
            static_pads=(None, None),
        )


# Gradients -------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("x_shape,shape", CASES)
@pytest.mark.subsample(0.4)
def test_vjp_is_the_transpose_of_numpy_pad(mode, x_shape, shape):
    rng = np.random.default_rng(2)
    x = rng.normal(size=x_shape).astype(np.float32)

    @jax.jit
    def vjp(x, pads, ct):
        return jax.vjp(lambda x: jaxpad.dynamic_pad(x, pads, shape, mode), x)[1](ct)[0]

    for _ in range(6):
        pads_begin = random_begin(rng, x_shape, shape)
        matrix, _ = dense_pad_matrix(
            x_shape, pads_begin, implied_end(x_shape, pads_begin, shape), mode
        )
        ct = rng.normal(size=shape).astype(np.float32)
        expected = (matrix.T @ ct.ravel().astype(np.float64)).reshape(x_shape)
        np.testing.assert_allclose(vjp(x, pads_begin, ct), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", MODES)
def test_check_grads_order_two(mode):
    x = jnp.asarray(np.random.default_rng(3).normal(size=(3, 4)).astype(np.float32))
    for pads in ([1, -2], [-4, 7]):
        pads = jnp.array(pads)
        check_grads(
            lambda x: jaxpad.dynamic_pad(x, pads, (5, 6), mode),
            (x,),
            order=2,
            modes=("fwd", "rev"),
            eps=1.0,
        )


def test_check_grads_through_pad_value():
    x = jnp.arange(6.0).reshape(2, 3)
    pads = jnp.array([1, -1])
    check_grads(
        lambda x, v: jaxpad.dynamic_pad(x, pads, (4, 3), pad_value=v),
        (x, jnp.float32(2.0)),
        order=2,
        modes=("fwd", "rev"),
        eps=1.0,
    )


def test_pad_value_gradient_is_the_sum_over_pad_positions():
    x = np.ones((3, 4), np.float32)
    pads_begin = np.array([2, -1])
    ct = np.random.default_rng(4).normal(size=(4, 5)).astype(np.float32)

    def f(v):
        return jaxpad.dynamic_pad(x, jnp.asarray(pads_begin), (4, 5), pad_value=v)

    grad = jax.vjp(f, 7.0)[1](ct)[0]
    copied = numpy_pad(x, pads_begin, implied_end(x.shape, pads_begin, (4, 5)), "constant")
    np.testing.assert_allclose(grad, ct[copied == 0].sum(), rtol=1e-6)


def test_pads_get_no_gradient():
    x = jnp.arange(5.0)

    def f(x, pads):
        return jaxpad.dynamic_pad(x, pads, (6,), "reflect").sum()

    grads = jax.grad(f, argnums=(0, 1), allow_int=True)(x, jnp.array([2]))
    assert grads[1].dtype == jax.dtypes.float0
    _, vjp = jax.vjp(lambda x, p: jaxpad.dynamic_pad(x, p, (6,), "wrap"), x, jnp.array([2]))
    assert vjp(jnp.ones(6))[1].dtype == jax.dtypes.float0


def test_vjp_uses_the_fold_not_scatter():
    def vjp(x, pads, ct):
        return jax.vjp(lambda x: jaxpad.dynamic_pad(x, pads, (8, 16, 3), "reflect"), x)[1](ct)

    args = (jnp.ones((8, 16, 3)), jnp.array([1, -3, 0]), jnp.ones((8, 16, 3)))
    assert "jaxpad_dynamic_fold" in primitive_names(vjp, *args)
    batched = jax.vmap(vjp, (0, 0, 0))
    hlo = jax.jit(batched).lower(*(jnp.stack([a, a]) for a in args)).as_text()
    assert "scatter" not in hlo


def test_fold_transposes_back_to_dynamic_pad():
    pads = jnp.array([3])

    def fold(t):
        return jax.linear_transpose(
            lambda x: jaxpad.dynamic_pad(x, pads, (9,), "symmetric"), jnp.ones(4)
        )(t)[0]

    names = primitive_names(lambda x: jax.linear_transpose(fold, jnp.ones(9))(x), jnp.ones(4))
    assert names.count("jaxpad_dynamic_pad") == 1


def test_hessian_matches_jnp_pad():
    pads = jnp.array([2, 1])

    def loss(x):
        return (jaxpad.dynamic_pad(x, pads, (5, 7), "symmetric") ** 3).sum()

    def reference(x):
        return (jnp.pad(x, [(2, 1), (1, 3)], mode="symmetric") ** 3).sum()

    x = jnp.arange(1.0, 7.0).reshape(2, 3)
    np.testing.assert_allclose(jax.hessian(loss)(x), jax.hessian(reference)(x), rtol=1e-5)


# vmap: per-example pads --------------------------------------------------------------


VMAP_AXES = [(0, 0, None), (None, 0, None), (1, 0, None), (0, None, None), (0, 1, 0)]


@pytest.mark.parametrize(
    "mode,in_axes",
    [(m, a) for m in MODES for a in VMAP_AXES] + [("constant", (None, None, 0))],
)
def test_vmap_matches_a_loop_of_static_pads(mode, in_axes):
    rng = np.random.default_rng(5)
    batch, x_shape, shape = 4, (3, 5), (6, 4)
    x = rng.normal(size=(batch, *x_shape)).astype(np.float32)
    pads = np.stack([random_begin(rng, x_shape, shape) for _ in range(batch)])
    values = np.arange(batch, dtype=np.float32) + 10
    args = [
        x if in_axes[0] == 0 else np.moveaxis(x, 0, 1) if in_axes[0] == 1 else x[0],
        pads if in_axes[1] == 0 else pads.T if in_axes[1] == 1 else pads[0],
        values if in_axes[2] == 0 else values[0],
    ]
    if mode != "constant":
        in_axes, args = in_axes[:2], args[:2]

    def one(*a):
        return jaxpad.dynamic_pad(a[0], a[1], shape, mode, *a[2:])

    out = jax.jit(jax.vmap(one, in_axes))(*args)
    for i in range(batch):
        xi = x[i] if in_axes[0] is not None else x[0]
        bi = pads[i] if in_axes[1] is not None else pads[0]
        vi = values[i] if len(in_axes) > 2 and in_axes[2] is not None else values[0]
        kwargs = {"pad_value": vi} if mode == "constant" else {}
        expected = jaxpad.pad(xi, bi, implied_end(x_shape, bi, shape), mode, **kwargs)
        np.testing.assert_array_equal(out[i], expected)


@pytest.mark.parametrize("mode", MODES)
def test_vmap_gradient_matches_a_loop(mode):
    rng = np.random.default_rng(6)
    x = rng.normal(size=(5, 4, 6)).astype(np.float32)
    pads = np.stack([random_begin(rng, (4, 6), (4, 6)) for _ in range(5)])

    def loss(x, p):
        return (jaxpad.dynamic_pad(x, p, (4, 6), mode) ** 2).sum()

    grads = jax.jit(jax.vmap(jax.grad(loss)))(x, pads)
    for i in range(5):
        widths = implied_end((4, 6), pads[i], (4, 6))
        expected = jax.grad(lambda x: (jaxpad.pad(x, pads[i], widths, mode) ** 2).sum())(x[i])
        np.testing.assert_allclose(grads[i], expected, rtol=1e-5, atol=1e-5)


def test_nested_vmap_and_grad_of_vmap():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(2, 3, 5)).astype(np.float32)
    pads = rng.integers(-6, 7, size=(2, 3, 1)).astype(np.int32)
    values = rng.normal(size=(2,)).astype(np.float32)

    def one(x, p, v):
        return jaxpad.dynamic_pad(x, p, (7,), pad_value=v)

    fn = jax.vmap(jax.vmap(one, (0, 0, None)), (0, 0, 0))
    out = fn(x, pads, values)
    for i in range(2):
        for j in range(3):
            expected = numpy_pad(x[i, j], pads[i, j], [2 - pads[i, j, 0]], "constant", values[i])
            np.testing.assert_array_equal(out[i, j], expected)

    def total(x, v):
        return (fn(x, pads, v) ** 2).sum()

    gx, gv = jax.grad(total, argnums=(0, 1))(x, values)
    for i in range(2):

        def loop(xi, vi):
            return sum((one(xi[j], pads[i, j], vi) ** 2).sum() for j in range(3))

        ex, ev = jax.grad(loop, argnums=(0, 1))(x[i], values[i])
        np.testing.assert_allclose(gx[i], ex, rtol=1e-5)
        np.testing.assert_allclose(gv[i], ev, rtol=1e-5)


# The fold's forms on CPU: windows of the cotangent ------------------------------------
# With traced pads near the range where the output and the axis overlap without a
# boundary, each axis folds as the static fold of a pad by that range, every piece a
# window of the cotangent at the traced offset; other pads take the same form over
# every pad under a conditional (jaxpad/_lowering.py, _fold_axis_window).

CPU = Target("cpu")

# (x.shape of one example, output shape): equal sizes, odd sizes, a crop, a larger
# output, one axis, three axes; channel axes of 2 and 3 (folded densely), one of
# them between two windowed axes.
WINDOW_CASES = [
    ((16, 16, 3), (16, 16, 3)),
    ((15, 17, 2), (15, 17, 2)),
    ((20, 12), (14, 12)),
    ((10, 9), (16, 13)),
    ((40,), (40,)),
    ((9, 10, 11), (9, 10, 11)),
    ((16, 3, 17), (14, 3, 19)),
]


def fold_oracle(ct, pads_begin, x_shape, mode):
    """The VJP of one example: the transpose of numpy.pad's 0/1 matrix of each axis,
    applied axis by axis (the pad is separable)."""
    out = np.asarray(ct)
    out = out.astype(np.complex128 if np.iscomplexobj(out) else np.float64)
    for axis, (n, size, begin) in enumerate(zip(x_shape, ct.shape, pads_begin)):
        matrix, _ = dense_pad_matrix((n,), [int(begin)], [size - n - int(begin)], mode)
        out = np.moveaxis(np.tensordot(matrix.T, np.moveaxis(out, axis, 0), axes=1), 0, axis)
    return out


def near_pads(rng, x_shape, shape, batch):
    """Pads inside each axis's fast window: within its reach of [min(0, s - n),
    max(0, s - n)]."""
    columns = []
    for n, size in zip(x_shape, shape):
        reach = max(1, -(-n // 8))
        columns.append(rng.integers(min(0, size - n) - reach, max(0, size - n) + reach + 1, batch))
    return np.stack(columns, axis=1).astype(np.int32)


def window_vjp(x_shape, shape, mode):
    def one(x, pads, ct):
        return jax.vjp(lambda x: jaxpad.dynamic_pad(x, pads, shape, mode), x)[1](ct)[0]

    return jax.jit(jax.vmap(one))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("x_shape,shape", WINDOW_CASES)
def test_window_fold_plans(mode, x_shape, shape):
    plan = plan_dynamic_fold(
        (4, *x_shape), (4, *shape), (None,) * len(x_shape), 1, mode, np.float32, CPU
    )
    expected = {"constant": "translate", "wrap": "candidates"}.get(mode, "window")
    # A channel axis of 2 or 3 is still folded densely.
    dense = [_lowering.folds_densely(n, s) for n, s in zip(x_shape, shape)]
    assert sorted(a.form for a in plan.axes) == sorted("dense" if d else expected for d in dense)
    if expected == "window":
        for a in plan.axes:
            if a.form == "dense":
                continue
            n, size = x_shape[a.d], shape[a.d]
            reach = max(1, -(-n // 8))
            assert a.window == (min(0, size - n) - reach, max(0, size - n) + reach)
            lo, hi = a.full_window
            assert lo <= a.window[0] and a.window[1] <= hi


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("x_shape,shape", WINDOW_CASES)
@pytest.mark.subsample(0.4)
def test_window_fold_is_the_transpose_of_numpy_pad(mode, x_shape, shape):
    # Per-example pads: a batch inside the fast windows, then one with a pad far
    # outside them (the wide branch), then pads of any size.
    rng = np.random.default_rng(11)
    batch = 5
    x = np.zeros((batch, *x_shape), np.float32)
    ct = rng.normal(size=(batch, *shape)).astype(np.float32)
    near = near_pads(rng, x_shape, shape, batch)
    far = near.copy()
    far[2, 0] = 3 * max(x_shape) + 5
    anywhere = np.stack([random_begin(rng, x_shape, shape) for _ in range(batch)])
    vjp = window_vjp(x_shape, shape, mode)
    for pads in (near, far, anywhere, -anywhere):
        got = vjp(x, pads, ct)
        for i in range(batch):
            expected = fold_oracle(ct[i], pads[i], x_shape, mode)
            np.testing.assert_allclose(got[i], expected, rtol=1e-5, atol=1e-5, err_msg=str(pads[i]))


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
def test_window_fold_without_a_batch_axis(mode):
    # Traced pads shared by the whole array: the windows' gathers have no batch axis.
    rng = np.random.default_rng(12)
    x_shape, shape = (18, 13, 2), (15, 13, 2)
    ct = rng.normal(size=shape).astype(np.float32)

    @jax.jit
    def vjp(pads):
        fn = lambda x: jaxpad.dynamic_pad(x, pads, shape, mode)  # noqa: E731
        return jax.vjp(fn, jnp.zeros(x_shape))[1](ct)[0]

    for pads in ([-2, 1, 0], [-3, -2, 0], [40, -77, 0]):
        expected = fold_oracle(ct, pads, x_shape, mode)
        np.testing.assert_allclose(vjp(jnp.array(pads)), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [jnp.bfloat16, jnp.float16, jnp.complex64])
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
def test_window_fold_dtypes(dtype, mode):
    # Half floats sum in float32 (the plan's accumulate dtype); complex cotangents
    # fold as float32 ones do, part by part.
    rng = np.random.default_rng(13)
    x_shape = shape = (12, 14)
    ct = rng.normal(size=(3, *shape)) + (
        1j * rng.normal(size=(3, *shape)) if dtype == jnp.complex64 else 0
    )
    ct = ct.astype(dtype)
    pads = near_pads(rng, x_shape, shape, 3)
    got = window_vjp(x_shape, shape, mode)(jnp.zeros((3, *x_shape), dtype), pads, jnp.asarray(ct))
    assert got.dtype == dtype
    for i in range(3):
        expected = fold_oracle(np.asarray(ct[i], np.complex128), pads[i], x_shape, mode)
        tolerance = 2e-2 if dtype in (jnp.bfloat16, jnp.float16) else 1e-5
        np.testing.assert_allclose(
            np.asarray(got[i], np.complex128), expected, rtol=tolerance, atol=tolerance
        )


@pytest.mark.parametrize("mode", ["edge", "reflect", "symmetric"])
def test_fast_window_holds_exactly_the_pads_near_the_range(mode):
    # n = 64 as in the benchmark: the fast branch takes pads within 8 of 0 (modulo
    # the period); the full window takes every normalized pad.
    n = size = 64
    plan = plan_dynamic_fold((n,), (size,), (None,), 0, mode, np.float32, CPU).axes[0]
    assert plan.window == (-8, 8)
    pads = np.arange(-3 * n, 3 * n + 1)
    normalized = _lowering.normalized_pads(jnp.asarray(pads), mode, n, size)
    inside = np.asarray(_lowering._dynamic._in_window(normalized, plan.window, mode, n))
    if mode == "edge":
        expected = np.abs(pads) <= 8
    else:
        p = _index_maps.period(mode, n)
        expected = np.minimum(pads % p, -pads % p) <= 8
    np.testing.assert_array_equal(inside, expected)
    assert np.asarray(_lowering._dynamic._in_window(normalized, plan.full_window, mode, n)).all()


def test_window_form_is_cpu_only_and_needs_no_period_piece():
    # Other platforms keep the gathers; outputs spanning periods the phase sums.
    shape = (4, 64, 64, 3)
    other = plan_dynamic_fold(shape, shape, (None, None, 0), 1, "reflect", np.float32, Target(None))
    assert [a.form for a in other.axes] == ["candidates", "candidates"]
    long = plan_dynamic_fold((20,), (100,), (None,), 0, "reflect", np.float32, CPU)
    assert [a.form for a in long.axes] == ["periods"]
    edge = plan_dynamic_fold((20,), (100,), (None,), 0, "edge", np.float32, CPU)
    assert [(a.form, a.full_window) for a in edge.axes] == [("window", (-20, 100))]


# Export and dtypes -------------------------------------------------------------------


def test_export_with_pads_as_a_runtime_input():
    def f(x, pads):
        return jaxpad.dynamic_pad(x, pads, (5, 6), "reflect")

    x = jnp.arange(12.0).reshape(3, 4)
    exported = jax.export.export(jax.jit(f))(x, jnp.zeros(2, jnp.int32))
    restored = jax.export.deserialize(exported.serialize(vjp_order=1))
    for pads in ([0, 0], [2, -1], [-5, 9]):
        pads = jnp.array(pads, jnp.int32)
        np.testing.assert_array_equal(restored.call(x, pads), f(x, pads))
        np.testing.assert_allclose(
            jax.grad(lambda x: (restored.call(x, pads) ** 2).sum())(x),
            jax.grad(lambda x: (f(x, pads) ** 2).sum())(x),
        )
    assert "custom_call" not in exported.mlir_module()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.subsample(0.3)
def test_dtypes(dtype, mode):
    x = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    out = jax.jit(lambda p: jaxpad.dynamic_pad(x, p, (5, 3), mode))(jnp.array([1, 2]))
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, numpy_pad(x, [1, 2], [1, -3], mode))


@pytest.mark.parametrize("dtype", [jnp.int64, jnp.uint64, jnp.float64, jnp.complex128])
def test_64_bit_dtypes_and_pads(dtype):
    with enable_x64(True):
        x = np.arange(6).reshape(2, 3).astype(dtype)
        for pads_dtype in (np.int64, np.uint32, np.int8):
            pads = np.array([1, 2], pads_dtype)
            out = jax.jit(lambda x, p: jaxpad.dynamic_pad(x, p, (4, 4), "reflect"))(x, pads)
            assert out.dtype == dtype
            np.testing.assert_array_equal(out, numpy_pad(x, [1, 2], [1, -1], "reflect"))
        if jnp.issubdtype(dtype, jnp.inexact):
            check_grads(
                lambda x: jaxpad.dynamic_pad(x, jnp.array([1, -1]), (4, 4), "wrap"),
                (jnp.asarray(x),),
                order=2,
                modes=("fwd", "rev"),
            )


def test_integer_inputs_get_float0_tangents():
    x = jnp.ones((2, 2), jnp.int32)
    grad = jax.grad(
        lambda x: jaxpad.dynamic_pad(x, jnp.array([1, 0]), (3, 3), "edge").astype(float).sum(),
        allow_int=True,
    )(x)
    assert grad.dtype == jax.dtypes.float0


# Bad input: one test per message -------------------------------------------------------


def error(kind, text):
    return pytest.raises(kind, match=re.escape(text))


def test_error_pads_not_integer():
    with error(
        TypeError,
        "jaxpad.dynamic_pad: pads_begin must have an integer dtype; got an array of shape (2,) "
        "and dtype float32",
    ):
        jaxpad.dynamic_pad(jnp.ones((2, 2)), jnp.array([1.0, 2.0]), (3, 3))
    with error(
        TypeError,
        "pads_begin must have an integer dtype; got an array of shape (2,) and dtype bool",
    ):
        jaxpad.dynamic_pad(jnp.ones((2, 2)), np.array([True, False]), (3, 3))


def test_error_traced_float_entry():
    with error(
        TypeError,
        "jaxpad.dynamic_pad: pads_begin[1] must have an integer dtype; got a traced array of "
        "shape () and dtype float32",
    ):
        jax.jit(lambda s: jaxpad.dynamic_pad(jnp.ones((2, 2)), (0, s), (2, 2)))(1.0)


def test_error_pads_wrong_length():
    with error(
        ValueError,
        "jaxpad.dynamic_pad: pads_begin needs one entry per axis of x (x.ndim=2); got 3: "
        "an array of shape (3,) and dtype int32.",
    ):
        jaxpad.dynamic_pad(jnp.ones((2, 2)), jnp.array([1, 2, 3]), (3, 3))
    with error(ValueError, "pads_begin needs one entry per axis of x (x.ndim=2); got 1: [1]"):
        jaxpad.dynamic_pad(jnp.ones((2, 2)), [1], (3, 3))


def test_error_pads_not_1d():
    with error(
        ValueError,
        "jaxpad.dynamic_pad: pads_begin must be 1-D with one entry per axis; got an array of "
        "shape (2, 1)",
    ):
        jaxpad.dynamic_pad(jnp.ones((2, 2)), jnp.array([[1], [2]]), (3, 3))


def test_error_traced_non_scalar_entry():
    with error(
        ValueError,
        "jaxpad.dynamic_pad: pads_begin[0] must be a scalar; got a traced array of shape (1,)",
    ):
        jax.jit(lambda s: jaxpad.dynamic_pad(jnp.ones((2, 2)), (s, 0), (2, 2)))(jnp.array([1]))


def test_error_pads_not_a_sequence():
    with error(
        TypeError,
        "jaxpad.dynamic_pad: pads_begin must be an integer array or a sequence with one entry "
        "per axis; got 3",
    ):
        jaxpad.dynamic_pad(jnp.ones((2, 2)), 3, (3, 3))


def test_error_shape_wrong_length():
    with error(
        ValueError,
        "jaxpad.dynamic_pad: shape needs one entry per axis of x (x.ndim=2); got 1: (3,)",
    ):
        jaxpad.dynamic_pad(jnp.ones((2, 2)), jnp.array([1, 1]), (3,))


def test_error_negative_shape():
    with error(ValueError, "jaxpad.dynamic_pad: shape must be non-negative; got (3, -1)"):
        jaxpad.dynamic_pad(jnp.ones((2, 2)), jnp.array([1, 1]), (3, -1))


def test_error_traced_shape():
    with error(
        TypeError,
        "jaxpad.dynamic_pad: shape must be static (Python ints or a concrete array); got a "
        "traced array",
    ):
        jax.jit(lambda s: jaxpad.dynamic_pad(jnp.ones((2, 2)), jnp.array([1, 1]), s))(
            jnp.array([3, 3])
        )


def test_error_unknown_mode():
    with error(
        ValueError,
        "jaxpad.dynamic_pad: mode must be one of 'constant', 'edge', 'reflect', 'symmetric', "
        "'wrap', 'reflect_odd', 'symmetric_odd', 'dirichlet', 'neumann', 'antisymmetric', "
        "'smooth', 'line'; got 'mirror'",
    ):
        jaxpad.dynamic_pad(jnp.ones(2), jnp.array([1]), (3,), "mirror")


def test_error_pad_value_with_non_constant_mode():
    with error(
        ValueError,
        "jaxpad.dynamic_pad: pad_value is only read by sides whose mode is 'constant', "
        "'dirichlet' or 'neumann'; got pad_value=1.0 with "
        "mode='edge'",
    ):
        jaxpad.dynamic_pad(jnp.ones(2), jnp.array([1]), (3,), "edge", 1.0)


def test_error_non_scalar_pad_value():
    with error(
        ValueError, "jaxpad.dynamic_pad: pad_value must be a scalar or have shape (x.ndim, 2)"
    ):
        jaxpad.dynamic_pad(jnp.ones(2), jnp.array([1]), (3,), pad_value=jnp.ones(2))


def test_error_non_constant_mode_on_an_empty_axis():
    with error(
        ValueError,
        "jaxpad.dynamic_pad: mode='wrap' cannot fill axis 1 of x.shape=(2, 0): it is empty and "
        "the output is not (size 3)",
    ):
        jaxpad.dynamic_pad(jnp.ones((2, 0)), jnp.array([0, 1]), (2, 3), "wrap")


def test_static_pad_with_traced_pads_names_dynamic_pad():
    with error(TypeError, "jaxpad.dynamic_pad(x, pads_begin, shape, mode)"):
        jax.jit(lambda p: jaxpad.pad(jnp.ones(3), p, [0]))(jnp.array([1]))


# Integer pads at the limits of their dtype (issue: silent wrong answers) ----------


def _reference(x, pad, size, mode):
    """numpy.pad with the pad moved by whole periods, or clamped past the axis."""
    n = len(x)
    if mode in ("constant", "edge"):
        pad = min(max(pad, -n - 1), size + 1)
    else:
        pad = pad % {"reflect": 2 * (n - 1), "symmetric": 2 * n, "wrap": n}[mode]
    return numpy_pad(np.asarray(x), [pad], [size - n - pad], mode)


_SMALL_DTYPE_CASES = [
    (jnp.int8, 3, 224),  # the README's translate pattern with int8 offsets
    (jnp.int8, -128, 224),
    (jnp.int8, 127, 300),
    (jnp.uint8, 200, 224),
    (jnp.uint8, 255, 224),
    (jnp.int16, 12345, 20000),
    (jnp.int16, -32768, 20000),
    (jnp.uint16, 65535, 20000),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype, pad, n", _SMALL_DTYPE_CASES)
@pytest.mark.subsample(0.3)
def test_pads_of_small_integer_dtypes_eager_jit_vmap(dtype, pad, n, mode):
    x = jnp.arange(float(n))
    pads = jnp.array([pad], dtype)
    expected = _reference(x, pad, n, mode)

    def fn(x, pads):
        return jaxpad.dynamic_pad(x, pads, (n,), mode)

    np.testing.assert_array_equal(fn(x, pads), expected)
    np.testing.assert_array_equal(jax.jit(fn)(x, pads), expected)
    np.testing.assert_array_equal(jax.vmap(fn)(x[None], pads[None]), expected[None])


_INT32_ENDS = [-(2**31), 2**31 - 1, -(2**31) + 1]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pad", _INT32_ENDS)
def test_int32_range_ends_agree_eager_and_jit(pad, mode):
    x = jnp.array([1.0, 2.0, 3.0, 4.0])
    pads = jnp.array([pad], jnp.int32)
    expected = _reference(x, pad, 4, mode)

    def fn(x, pads):
        return jaxpad.dynamic_pad(x, pads, (4,), mode)

    np.testing.assert_array_equal(fn(x, pads), expected)
    np.testing.assert_array_equal(jax.jit(fn)(x, pads), expected)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pad", [-(2**63), 2**63 - 1, -(2**63) + 3, 2**64 - 1, 2**63])
def test_64_bit_range_ends_under_x64(pad, mode):
    dtype = jnp.uint64 if pad >= 2**63 else jnp.int64
    with enable_x64(True):
        x = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0])
        pads = jnp.array([pad], dtype)
        expected = _reference(x, pad, 7, mode)

        def fn(x, pads):
            return jaxpad.dynamic_pad(x, pads, (7,), mode)

        np.testing.assert_array_equal(fn(x, pads), expected)
        np.testing.assert_array_equal(jax.jit(fn)(x, pads), expected)


@pytest.mark.parametrize("mode", MODES)
def test_static_pads_beyond_int32(mode):
    # Python ints are static: any offset is valid, whatever the default integer width.
    x = jnp.array([1.0, 2.0, 3.0, 4.0])
    for pad in (2**40, -(2**40) - 3, 2**63 - 1):
        out = jaxpad.dynamic_pad(x, [pad], (6,), mode)
        np.testing.assert_array_equal(out, _reference(x, pad, 6, mode), str(pad))


def test_static_pads_beyond_int64_are_rejected():
    # No JAX integer holds them, as no XLA shape does.
    with pytest.raises(ValueError, match=r"jaxpad.dynamic_pad: pads_begin\[0\] must fit in int64"):
        jaxpad.dynamic_pad(jnp.ones(4), [2**63], (4,))
    # A uint64 array may hold 2**64 - 1: valid, as it is traced (see the x64 test).


def test_traced_entries_of_mixed_dtypes():
    # int64 and uint64 promote lossily together; each entry is reduced on its own.
    with enable_x64(True):
        x = jnp.arange(12.0).reshape(3, 4)
        fn = jax.jit(lambda a, b: jaxpad.dynamic_pad(x, [a, b], (5, 6), "wrap"))
        a, b = -(2**63), 2**64 - 1
        out = fn(jnp.int64(a), jnp.uint64(b))
        # wrap reads the same with the pads moved by whole periods (3 and 4).
        lo = [a % 3, b % 4]
        expected = numpy_pad(np.asarray(x), lo, [5 - 3 - lo[0], 6 - 4 - lo[1]], "wrap")
        np.testing.assert_array_equal(out, expected)
