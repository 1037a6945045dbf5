"""Tests for per-side modes (parsed by jaxpad/_args.py, padded by _lowering/_sided.py): a
mode per axis and per side, the odd and dirichlet modes, per-side pad values, in
``jaxpad.pad`` and ``jaxpad.dynamic_pad``.

The oracle is ``numpy.pad`` applied one axis and one side at a time: numpy's own
modes, ``reflect_type="odd"`` for the odd ones, and jax-cfd's Dirichlet ghost cell
``2 * value - pad(symmetric)`` for ``dirichlet``.
"""

from __future__ import annotations

import itertools
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

import jaxpad
from tests.compat import enable_x64
from tests.sampling import ROTATE_LISTS

# --all: a list of cases, one value each, rotates (tests/sampling.py).
pytestmark = ROTATE_LISTS

SIDE_MODES = (
    "constant",
    "edge",
    "reflect",
    "symmetric",
    "wrap",
    "reflect_odd",
    "symmetric_odd",
    "dirichlet",
)
READS_VALUE = ("constant", "dirichlet")


def numpy_side(y, axis, before, after, mode, value):
    """``y`` padded along ``axis`` by ``numpy.pad`` in one side's mode."""
    widths = [(0, 0)] * y.ndim
    widths[axis] = (before, after)
    if mode == "constant":
        return np.pad(y, widths, "constant", constant_values=value)
    if mode == "dirichlet":
        return 2 * value - np.pad(y, widths, "symmetric")
    if mode in ("reflect_odd", "symmetric_odd"):
        return np.pad(y, widths, mode.removesuffix("_odd"), reflect_type="odd")
    return np.pad(y, widths, mode)


def numpy_sided(x, pads_begin, pads_end, modes, values):
    """Axis by axis (numpy's order), each side extended by its own mode from the axis
    as it stands, then the negative pads crop."""
    y = np.asarray(x)
    for axis, ((mode_begin, mode_end), lo, hi) in enumerate(zip(modes, pads_begin, pads_end)):
        n = y.shape[axis]
        before, after = max(lo, 0), max(hi, 0)
        begin = numpy_side(y, axis, before, after, mode_begin, values[axis][0])
        end = numpy_side(y, axis, before, after, mode_end, values[axis][1])
        take = np.take
        y = np.concatenate(
            [
                take(begin, range(before), axis),
                y,
                take(end, range(before + n, before + n + after), axis),
            ],
            axis,
        )
        y = take(y, range(max(-lo, 0), y.shape[axis] - max(-hi, 0)), axis)
    return y


def as_pairs(mode, ndim):
    if isinstance(mode, str):
        return ((mode, mode),) * ndim
    return tuple((m, m) if isinstance(m, str) else tuple(m) for m in mode)


def reads_value(mode, ndim):
    return any(side in READS_VALUE for pair in as_pairs(mode, ndim) for side in pair)


# Values against numpy --------------------------------------------------------------

WIDTHS_1D = [(2, 3), (4, 0), (0, 9), (13, 11), (-2, 6), (7, -3)]


@pytest.mark.parametrize("mode_begin, mode_end", list(itertools.product(SIDE_MODES, SIDE_MODES)))
@pytest.mark.subsample(0.3)
def test_every_pair_of_side_modes_matches_numpy(mode_begin, mode_end):
    x = np.array([1.0, 4.0, 2.0, 8.0, 5.0])
    values = [(-1.5, 2.5)]
    needs = mode_begin in READS_VALUE or mode_end in READS_VALUE
    mode = [(mode_begin, mode_end)]
    for lo, hi in WIDTHS_1D:
        got = jaxpad.pad(x, [lo], [hi], mode, np.array(values) if needs else None)
        expected = numpy_sided(x, [lo], [hi], [(mode_begin, mode_end)], values)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6, err_msg=f"pads {lo}, {hi}")


@pytest.mark.parametrize("mode", ["reflect_odd", "symmetric_odd"])
@pytest.mark.parametrize("n", [1, 2, 3, 6])
@pytest.mark.parametrize("widths", [(1, 1), (5, 0), (0, 14), (20, 23)])
@pytest.mark.subsample(0.4)
def test_odd_modes_are_numpys_odd_reflections_at_every_width(mode, n, widths):
    x = np.array([3.0, -1.0, 4.0, 1.5, -5.0, 9.0])[:n]
    expected = np.pad(x, widths, mode.removesuffix("_odd"), reflect_type="odd")
    np.testing.assert_allclose(
        jaxpad.pad(x, [widths[0]], [widths[1]], mode), expected, rtol=1e-5, atol=1e-6
    )


def test_odd_reflection_of_integers_matches_numpy():
    x = np.array([[3, 7, 2], [9, 1, 4]], np.int32)
    for mode in ("reflect", "symmetric"):
        expected = np.pad(x, ((3, 1), (2, 5)), mode, reflect_type="odd")
        got = jaxpad.pad(x, (3, 2), (1, 5), mode + "_odd")
        np.testing.assert_array_equal(got, expected)
        assert got.dtype == np.int32


def test_dirichlet_is_jax_cfds_ghost_cell_composition():
    u = np.random.default_rng(0).random((6, 5)).astype(np.float32)
    wall = np.float32(0.75)
    # jax-cfd: 2 * pad(constant=bc) - pad(symmetric), along the wall axis.
    composed = 2 * jnp.pad(u, ((2, 2), (0, 0)), constant_values=wall) - jnp.pad(
        u, ((2, 2), (0, 0)), "symmetric"
    )
    composed = composed.at[2:-2].set(u)
    got = jaxpad.pad(u, (2, 0), (2, 0), ("dirichlet", "constant"), wall)
    np.testing.assert_allclose(got, composed, rtol=1e-5, atol=1e-6)


MIXED = [
    ("wrap", ("dirichlet", "symmetric")),
    (("dirichlet", "dirichlet"), "wrap"),
    (("constant", "edge"), ("reflect", "dirichlet")),
    (("reflect_odd", "wrap"), ("symmetric_odd", "constant")),
    ("dirichlet", "symmetric_odd"),
]


@pytest.mark.parametrize("mode", MIXED, ids=str)
@pytest.mark.parametrize(
    "pads_begin, pads_end", [((2, 1), (1, 2)), ((0, 7), (9, -2)), ((-1, 3), (4, 0))]
)
def test_per_axis_and_per_side_modes_match_numpy_corners_included(mode, pads_begin, pads_end):
    x = np.random.default_rng(1).random((4, 5))
    values = np.array([[0.5, -2.0], [3.0, 1.25]])
    value = values if reads_value(mode, 2) else None
    got = jaxpad.pad(x, pads_begin, pads_end, mode, value)
    expected = numpy_sided(x, pads_begin, pads_end, as_pairs(mode, 2), values)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        jax.jit(lambda x, v: jaxpad.pad(x, pads_begin, pads_end, mode, v))(x, value),
        expected,
        rtol=1e-5,
        atol=1e-6,
    )


def test_a_scalar_pad_value_serves_every_side_that_reads_one():
    x = np.arange(6.0).reshape(2, 3)
    mode = (("constant", "edge"), ("wrap", "dirichlet"))
    got = jaxpad.pad(x, (1, 2), (2, 2), mode, 4.0)
    expected = numpy_sided(x, (1, 2), (2, 2), mode, [(4.0, 4.0)] * 2)
    np.testing.assert_allclose(got, expected)


def test_per_side_values_with_one_constant_mode_match_numpys_per_side_constant_values():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    values = np.array([[7, -1], [2, 9]], np.int32)
    got = jaxpad.pad(x, (1, 2), (2, 1), "constant", values)
    expected = np.pad(x, ((1, 2), (2, 1)), constant_values=((7, -1), (2, 9)))
    np.testing.assert_array_equal(got, expected)


def test_bool_arrays_take_the_copying_modes_per_side():
    x = np.array([[True, False, True], [False, False, True]])
    mode = (("wrap", "constant"), ("edge", "reflect"))
    got = jaxpad.pad(x, (2, 1), (1, 3), mode, np.array([[True, True], [False, False]]))
    expected = numpy_sided(x, (2, 1), (1, 3), mode, [(True, True), (False, False)])
    np.testing.assert_array_equal(got, expected.astype(bool))


def test_one_copying_mode_per_axis_is_the_string_primitive():
    """A mode per axis that is the same string everywhere stays the planned primitive."""
    jaxpr = jax.make_jaxpr(lambda x: jaxpad.pad(x, (1, 1), (1, 1), ("wrap", ("wrap", "wrap"))))(
        jnp.ones((3, 3))
    )
    (eqn,) = jaxpr.jaxpr.eqns
    assert eqn.params["mode"] == "wrap"


# Gradients -------------------------------------------------------------------------


@pytest.mark.parametrize("mode", SIDE_MODES + tuple(MIXED), ids=str)
def test_check_grads_order_2_in_x_and_the_values(mode):
    with enable_x64(True):
        x = jnp.asarray(np.random.default_rng(2).random((3, 4)))
        values = jnp.array([[0.5, -2.0], [3.0, 1.25]])
        if reads_value(mode, 2):
            check_grads(
                lambda x, v: jaxpad.pad(x, (2, 5), (4, 1), mode, v),
                (x, values),
                order=2,
                modes=("fwd", "rev"),
            )
        else:
            check_grads(
                lambda x: jaxpad.pad(x, (2, 5), (4, 1), mode), (x,), order=2, modes=("fwd", "rev")
            )


def test_gradient_equals_jax_grad_of_the_jax_cfd_composition():
    u = np.random.default_rng(3).random((8, 6)).astype(np.float32)
    weights = np.random.default_rng(4).random((12, 6)).astype(np.float32)

    def composed(u, wall):
        ghost = 2 * jnp.pad(u, ((2, 2), (0, 0)), constant_values=wall) - jnp.pad(
            u, ((2, 2), (0, 0)), "symmetric"
        )
        return jnp.sum(weights * ghost.at[2:-2].set(u) ** 2)

    def with_jaxpad(u, wall):
        return jnp.sum(
            weights * jaxpad.pad(u, (2, 0), (2, 0), ("dirichlet", "constant"), wall) ** 2
        )

    expected = jax.grad(composed, (0, 1))(u, jnp.float32(0.3))
    got = jax.grad(with_jaxpad, (0, 1))(u, jnp.float32(0.3))
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a, b, rtol=2e-5)


def test_the_fold_is_a_jaxpad_primitive():
    """The odd and dirichlet gradients run through jaxpad_fold, not a scatter."""
    f = lambda x: jaxpad.pad(x, (3,), (2,), (("dirichlet", "reflect_odd"),), 1.0)  # noqa: E731
    jaxpr = jax.make_jaxpr(jax.grad(lambda x: f(x).sum()))(jnp.ones(5))
    names = {eqn.primitive.name for eqn in jaxpr.jaxpr.eqns}
    assert "jaxpad_fold" in names and not any("scatter" in name for name in names)


# vmap ------------------------------------------------------------------------------


def test_vmap_over_x_and_over_the_values():
    rng = np.random.default_rng(5)
    xs, vs = rng.random((3, 4, 5)), rng.random((3, 2, 2))
    mode = (("dirichlet", "reflect_odd"), ("symmetric_odd", "constant"))

    def f(x, v):
        return jaxpad.pad(x, (2, 3), (7, 4), mode, v)

    for in_axes in [(0, 0), (0, None), (None, 0)]:
        got = jax.vmap(f, in_axes)(
            xs if in_axes[0] == 0 else xs[0], vs if in_axes[1] == 0 else vs[0]
        )
        expected = np.stack(
            [
                f(xs[i] if in_axes[0] == 0 else xs[0], vs[i] if in_axes[1] == 0 else vs[0])
                for i in range(3)
            ]
        )
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


# dynamic_pad -----------------------------------------------------------------------


@pytest.mark.parametrize("mode", SIDE_MODES[5:] + tuple(MIXED), ids=str)
@pytest.mark.parametrize("pads", [(2, 3), (-3, 1), (9, -7), (-20, 30), (25, -17)])
@pytest.mark.subsample(0.4)
def test_dynamic_pad_takes_the_same_modes_traced_and_static(mode, pads):
    x = np.random.default_rng(6).random((4, 5)).astype(np.float32)
    values = np.array([[0.5, -2.0], [3.0, 1.25]], np.float32)
    value = values if reads_value(mode, 2) else None
    shape = (7, 11)
    ends = [s - n - p for s, n, p in zip(shape, x.shape, pads)]
    expected = numpy_sided(x, pads, ends, as_pairs(mode, 2), values)
    traced = jax.jit(lambda p: jaxpad.dynamic_pad(x, p, shape, mode, value))(jnp.array(pads))
    np.testing.assert_allclose(traced, expected, rtol=1e-5, atol=1e-5)
    static = jaxpad.dynamic_pad(x, list(pads), shape, mode, value)
    np.testing.assert_allclose(static, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint32, np.int32])
def test_dynamic_pad_pads_of_any_integer_dtype(dtype):
    x = np.arange(1.0, 6.0)
    for pad in [0, 3, 100, 127] + ([] if np.iinfo(dtype).min == 0 else [-128, -9]):
        expected = jaxpad.pad(x, [pad], [4 - 5 - pad], (("reflect_odd", "dirichlet"),), 0.5)
        got = jax.jit(
            lambda p: jaxpad.dynamic_pad(x, p, (4,), (("reflect_odd", "dirichlet"),), 0.5)
        )(jnp.array([pad], dtype))
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6, err_msg=f"pad {pad}")


def test_dynamic_pad_far_pads_keep_counting_periods():
    """A pad of 10**6 turns 250 000 times: each turn adds 2 (x[-1] - x[0])."""
    with enable_x64(True):
        x = np.array([1.0, 2.5, 2.0, 4.0, 3.0])
        pad = 10**6
        expected = np.pad(x, (pad, 0), "reflect", reflect_type="odd")[:6]
        got = jax.jit(lambda p: jaxpad.dynamic_pad(x, p, (6,), "reflect_odd"))(jnp.array([pad]))
        np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_dynamic_pad_per_example_pads_and_values_under_vmap():
    rng = np.random.default_rng(7)
    xs = rng.random((4, 6)).astype(np.float32)
    pads = np.array([[-3], [0], [2], [9]], np.int32)
    values = rng.random((4, 1, 2)).astype(np.float32)
    mode = (("dirichlet", "symmetric_odd"),)

    def f(x, p, v):
        return jaxpad.dynamic_pad(x, p, (8,), mode, v)

    got = jax.vmap(f)(xs, pads, values)
    for i in range(4):
        ends = [8 - 6 - int(pads[i, 0])]
        expected = numpy_sided(xs[i], [int(pads[i, 0])], ends, mode, values[i])
        np.testing.assert_allclose(got[i], expected, rtol=1e-5, atol=1e-6)
    grads = jax.grad(lambda xs, v: jax.vmap(f)(xs, pads, v).sum(), (0, 1))(xs, values)
    assert all(np.all(np.isfinite(g)) for g in grads)


# Bad input -------------------------------------------------------------------------


def raises(error, message):
    return pytest.raises(error, match="^" + re.escape(message))


def test_error_mode_list_of_the_wrong_length():
    with raises(
        ValueError,
        "jaxpad.pad: mode needs one entry per axis of x (x.ndim=2); got 3: "
        "('wrap', 'edge', 'wrap').",
    ):
        jaxpad.pad(jnp.ones((2, 2)), (1, 1), (1, 1), ("wrap", "edge", "wrap"))


def test_error_pair_that_is_not_two_strings():
    with raises(
        TypeError,
        "jaxpad.pad: mode[1] must be a string or a (begin, end) pair of strings; "
        "got ('wrap', 'edge', 'wrap').",
    ):
        jaxpad.pad(jnp.ones((2, 2)), (1, 1), (1, 1), ("wrap", ("wrap", "edge", "wrap")))
    with raises(ValueError, "jaxpad.pad: mode[0][1] must be one of 'constant'"):
        jaxpad.pad(jnp.ones((2, 2)), (1, 1), (1, 1), (("wrap", 3), "edge"))


def test_error_pad_value_of_another_shape():
    with raises(
        ValueError,
        "jaxpad.pad: pad_value must be a scalar or have shape (x.ndim, 2) = (2, 2), one "
        "value per side of each axis; got shape (2,).",
    ):
        jaxpad.pad(jnp.ones((2, 2)), (1, 1), (1, 1), "dirichlet", jnp.ones(2))


def test_error_pad_value_that_no_side_reads():
    with raises(
        ValueError,
        "jaxpad.pad: pad_value is only read by sides whose mode is 'constant', "
        "'dirichlet' or 'neumann'; got pad_value=1.0 with mode=(('wrap', 'edge'), ('reflect_odd', "
        "'reflect_odd')).",
    ):
        jaxpad.pad(jnp.ones((2, 2)), (1, 1), (1, 1), (("wrap", "edge"), "reflect_odd"), 1.0)


def test_a_mode_that_reads_a_value_given_none_reads_zero():
    x = jnp.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(
        jaxpad.pad(x, [2], [1], "dirichlet"), jaxpad.pad(x, [2], [1], "dirichlet", 0.0)
    )


def test_error_interior_with_a_non_constant_side():
    with raises(
        ValueError,
        "jaxpad.pad: interior padding needs mode='constant' and a scalar pad_value; got "
        "interior=(1,) with mode=(('constant', 'dirichlet'),).",
    ):
        jaxpad.pad(jnp.ones(3), [1], [1], [("constant", "dirichlet")], interior=[1])


def test_error_arithmetic_mode_on_bool():
    with raises(
        TypeError,
        "jaxpad.pad: mode 'dirichlet' computes 2 * value - mirror, which needs a numeric x; "
        "got x of dtype bool.",
    ):
        jaxpad.pad(jnp.ones(3, bool), [1], [1], "dirichlet")


def test_error_dynamic_pad_checks_the_same():
    with raises(ValueError, "jaxpad.dynamic_pad: mode needs one entry per axis of x"):
        jaxpad.dynamic_pad(jnp.ones((2, 2)), (1, 1), (4, 4), ("wrap",))
    with raises(ValueError, "jaxpad.dynamic_pad: pad_value is only read by sides"):
        jaxpad.dynamic_pad(jnp.ones(3), [1], (5,), "reflect_odd", 2.0)


# Export ----------------------------------------------------------------------------


def test_export_for_cpu_cuda_and_tpu_with_a_symbolic_batch_and_gradients():
    from jax import export

    mode = (("constant", "constant"), ("dirichlet", "reflect_odd"), "wrap")
    spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, 5, 4"), jnp.float32)
    values = np.array([[0, 0], [1.5, 0], [0, 0]], np.float32)

    def f(x, v):
        return jaxpad.pad(x, (0, 2, 1), (0, 3, 2), mode, v)

    def grads(x, v):
        return jax.grad(lambda x, v: (f(x, v) ** 2).sum(), (0, 1))(x, v)

    value_spec = jax.ShapeDtypeStruct((3, 2), jnp.float32)
    for fn in (f, grads):
        exported = export.export(jax.jit(fn), platforms=("cpu", "cuda", "tpu"))(spec, value_spec)
        # JAX's own shape assertions for the symbolic batch are the only custom calls.
        calls = set(re.findall(r"stablehlo.custom_call @(\w+)", exported.mlir_module()))
        assert calls <= {"shape_assertion"}, calls
        x = np.random.default_rng(8).random((2, 5, 4)).astype(np.float32)
        jax.tree.map(
            lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5),
            exported.call(x, values),
            fn(x, values),
        )


def test_error_symbolic_size_on_a_padded_axis_with_per_side_modes():
    from jax import export

    spec = jax.ShapeDtypeStruct(export.symbolic_shape("h, 4"), jnp.float32)
    with raises(
        ValueError,
        "jaxpad.pad: axis 0 has the symbolic size h and per-side mode ('dirichlet', "
        "'dirichlet'); per-side and odd modes need a concrete size on every padded axis.",
    ):
        export.export(jax.jit(lambda x: jaxpad.pad(x, (1, 0), (1, 0), "dirichlet")))(spec)


@pytest.mark.parametrize(
    "pads_begin, pads_end, mode",
    [
        ((-3,), (3,), [("edge", "constant")]),
        ((-3, 0), (3, 0), [("edge", "constant"), "edge"]),
        ((0, -2), (0, 2), ["edge", ("wrap", "constant")]),
    ],
)
def test_fold_of_a_pad_that_reads_no_element_of_x_is_zero(pads_begin, pads_end, mode):
    # Found in review: the axis with no piece was folded as a copy.
    x = jnp.arange(1.0, 1.0 + 3 * (2 if len(pads_begin) == 2 else 1)).reshape(
        (3, 2) if len(pads_begin) == 2 else (3,)
    )
    values = np.full((x.ndim, 2), 0.5, np.float32)
    grad = jax.grad(lambda x: (jaxpad.pad(x, pads_begin, pads_end, mode, values) ** 2).sum())(x)
    np.testing.assert_array_equal(grad, np.zeros(x.shape))
