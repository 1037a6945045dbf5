"""jaxpad.numpy.pad against numpy.pad (values) and jnp.pad (gradients, callables)."""

from __future__ import annotations

import warnings
import zlib

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

import jaxpad
import jaxpad.numpy as jpnp
from tests.compat import enable_x64

# (mode, kwargs) covering every mode and keyword numpy.pad has.
CASES = [
    ("constant", {}),
    ("constant", {"constant_values": 2.5}),
    ("constant", {"constant_values": (1.0, -2.0)}),
    ("constant", {"constant_values": "per-axis"}),
    ("edge", {}),
    ("wrap", {}),
    ("reflect", {}),
    ("reflect", {"reflect_type": "odd"}),
    ("symmetric", {}),
    ("symmetric", {"reflect_type": "odd"}),
    ("linear_ramp", {}),
    ("linear_ramp", {"end_values": (1.5, -2.0)}),
    ("linear_ramp", {"end_values": "per-axis"}),
    ("maximum", {}),
    ("minimum", {"stat_length": 2}),
    ("mean", {"stat_length": "per-axis"}),
    ("median", {}),
    ("median", {"stat_length": (1, 3)}),
]
PRIMITIVE_MODES = ("constant", "edge", "wrap", "reflect", "symmetric")


def _concrete(kwargs, rng, ndim):
    """Replaces the "per-axis" placeholder by random per-axis pairs for this rank."""
    out = {}
    for key, value in kwargs.items():
        if value == "per-axis":
            if key == "stat_length":
                value = rng.integers(1, 5, size=(ndim, 2))
            else:
                value = np.round(rng.standard_normal((ndim, 2)), 2)
            # Tuples: jnp.pad hashes its static keyword arguments.
            value = tuple(tuple(pair) for pair in value.tolist())
        out[key] = value
    return out


def _jit_pad(x, widths, mode, kwargs):
    # One compilation per case instead of one per eager op keeps the suite fast.
    return jax.jit(lambda a: jpnp.pad(a, widths, mode, **kwargs))(x)


def _random_case(rng, dtype=np.float32, max_rank=3):
    ndim = int(rng.integers(1, max_rank + 1))
    shape = tuple(int(n) for n in rng.integers(1, 6, size=ndim))
    if np.issubdtype(dtype, np.integer):
        x = rng.integers(0, 100, size=shape).astype(dtype)
    else:
        x = rng.standard_normal(shape).astype(dtype)
    # Up to twice the axis and more: reflect and odd reflect repeat past the axis.
    widths = [tuple(int(w) for w in rng.integers(0, 2 * n + 4, size=2)) for n in shape]
    return x, widths


@pytest.mark.parametrize("mode,kwargs", CASES, ids=lambda c: str(c))
def test_matches_numpy_float(mode, kwargs, full_run):
    # A seed per case that is the same in every process (str hashes are salted).
    rng = np.random.default_rng(zlib.crc32(f"{mode}{kwargs}".encode()))
    # Each random case compiles a program: the default run tries the first three.
    for _ in range(6 if full_run else 3):
        x, widths = _random_case(rng)
        kw = _concrete(kwargs, rng, x.ndim)
        # numpy in float64 is the reference: means and ramps round differently in
        # float32 (XLA's reductions, numpy's float64 linspace), by a few ulps of the
        # largest value. Odd reflection is numpy's to the bit: see
        # test_odd_reflection_is_numpys_to_the_bit_eagerly_and_under_jit.
        expected = np.pad(x.astype(np.float64), widths, mode, **kw)
        got = _jit_pad(x, widths, mode, kw)
        assert got.shape == expected.shape and got.dtype == x.dtype
        scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5 * scale)


@pytest.mark.parametrize("dtype", [np.int32, np.int8, np.uint8])
@pytest.mark.parametrize("mode,kwargs", CASES, ids=lambda c: str(c))
@pytest.mark.subsample(0.35)
def test_matches_numpy_exactly_on_integers(mode, kwargs, dtype):
    # Integer results are exact: odd reflection wraps as numpy does, mean and median
    # round half to even, and linear ramps floor as numpy >= 2 does.
    rng = np.random.default_rng(7)
    for _ in range(2):
        x, widths = _random_case(rng, dtype=dtype, max_rank=2)
        kw = _concrete(kwargs, rng, x.ndim)
        if mode in ("constant", "linear_ramp"):
            kw = {k: np.abs(np.round(v)).astype(int) for k, v in kw.items()}
        expected = np.pad(x, widths, mode, **kw)
        np.testing.assert_array_equal(_jit_pad(x, widths, mode, kw), expected)


def test_integer_linear_ramp_where_jnp_pad_rounds_down():
    x = np.array([10, 50, 3], np.int32)
    expected = np.pad(x, (5, 4), "linear_ramp", end_values=(100, -100))
    np.testing.assert_array_equal(
        jpnp.pad(x, (5, 4), "linear_ramp", end_values=(100, -100)), expected
    )
    # The float ramp jnp.pad uses lands on 45.99999 and truncates to 45.
    assert not np.array_equal(jnp.pad(x, (5, 4), "linear_ramp", end_values=(100, -100)), expected)


@pytest.mark.parametrize(
    "pad_width", [2, (2,), (1, 3), ((1, 3),), ((1, 3), (0, 2)), [[1], [2]], np.array([[2, 0]])]
)
def test_pad_width_forms(pad_width):
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(
        jpnp.pad(x, pad_width, "reflect"), np.pad(x, pad_width, "reflect")
    )


@pytest.mark.parametrize(
    "constant_values", [3, (3,), (1, 2), ((1, 2),), ((1, 2), (3, 4)), [[1], [2]]]
)
def test_constant_values_forms(constant_values):
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(
        jpnp.pad(x, 2, constant_values=constant_values),
        np.pad(x, 2, constant_values=constant_values),
    )


def test_rank_zero_is_returned_unchanged():
    np.testing.assert_array_equal(jpnp.pad(np.float32(5), 3), np.pad(np.float32(5), 3))


def test_empty_axis_in_constant_mode():
    x = np.zeros((0, 3), np.float32)
    np.testing.assert_array_equal(
        jpnp.pad(x, 2, constant_values=1), np.pad(x, 2, constant_values=1)
    )


def test_empty_mode_keeps_the_array_and_zeros_the_rest():
    # numpy leaves the pad uninitialised; jnp.pad, and jaxpad, fill it with zeros.
    x = np.arange(1.0, 7.0).reshape(2, 3)
    got = jpnp.pad(x, ((1, 2), (3, 0)), "empty")
    np.testing.assert_array_equal(got, jnp.pad(x, ((1, 2), (3, 0)), "empty"))
    np.testing.assert_array_equal(got[1:3, 3:], x)


def test_callable_mode_matches_jnp_pad():
    def custom_pad(row, pad_width, iaxis, kwargs):
        before, after = pad_width
        row = row.at[:before].set(kwargs.get("before_value", 0))
        return row.at[len(row) - after :].set(kwargs.get("after_value", 0))

    x = jnp.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(
        jpnp.pad(x, ((1, 2), (2, 1)), custom_pad, before_value=-10, after_value=10),
        jnp.pad(x, ((1, 2), (2, 1)), custom_pad, before_value=-10, after_value=10),
    )


@pytest.mark.parametrize("mode", PRIMITIVE_MODES)
def test_primitive_modes_are_one_jaxpad_op(mode):
    jaxpr = jax.make_jaxpr(lambda x: jpnp.pad(x, ((1, 9), (3, 3)), mode))(jnp.ones((4, 5)))
    names = [eqn.primitive.name for eqn in jaxpr.eqns]
    assert names == ["jaxpad_pad"], names


def _primitive_names(jaxpr):
    """The primitives of a jaxpr, those inside nested jit calls included."""
    names = []
    for eqn in jaxpr.eqns:
        inner = eqn.params.get("jaxpr")
        if inner is not None:
            names += _primitive_names(getattr(inner, "jaxpr", inner))
        else:
            names.append(eqn.primitive.name)
    return names


def test_odd_reflection_is_one_even_pad_per_numpy_pass():
    # numpy's passes reflect what is already filled, so chunks triple (reflect of 2
    # values): 1, 3, 9, ..., 243 and the rest, 7 passes for 500, each one jaxpad pad.
    jaxpr = jax.make_jaxpr(lambda x: jpnp.pad(x, 500, "reflect", reflect_type="odd"))(jnp.ones(2))
    names = _primitive_names(jaxpr.jaxpr)
    assert names.count("jaxpad_pad") == 7
    assert "concatenate" not in names, names


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
def test_odd_reflection_is_numpys_to_the_bit_eagerly_and_under_jit(mode, dtype):
    # The same operations in the same order as numpy's passes: no tolerance, even
    # where far pads subtract values many times the result (a closed form over the
    # periods was 2.4e-4 off in float32, and differed between eager and jit).
    rng = np.random.default_rng(11)
    with enable_x64(dtype == np.float64):
        for n, widths in [(2, (500, 3)), (3, (10, 7)), (4, (0, 50)), (5, (23, 23))]:
            x = (30 * rng.standard_normal((n, 3))).astype(dtype)
            pad_width = (widths, (2, 1))
            expected = np.pad(x, pad_width, mode, reflect_type="odd")
            eager = jpnp.pad(x, pad_width, mode, reflect_type="odd")
            jitted = jax.jit(lambda a, w=pad_width: jpnp.pad(a, w, mode, reflect_type="odd"))(x)
            assert eager.dtype == dtype
            np.testing.assert_array_equal(eager, expected)
            np.testing.assert_array_equal(jitted, expected)


# Gradients -------------------------------------------------------------------------


@pytest.mark.parametrize("mode,kwargs", CASES, ids=lambda c: str(c))
def test_vjp_matches_jnp_pad(mode, kwargs):
    rng = np.random.default_rng(3)
    x, widths = _random_case(rng, max_rank=2)
    kw = _concrete(kwargs, rng, x.ndim)
    if mode == "constant" and not kw:
        kw = {}
    out_shape = np.pad(x, widths, mode, **kw).shape
    cotangent = rng.standard_normal(out_shape).astype(np.float32)
    ours = jax.vjp(lambda a: jpnp.pad(a, widths, mode, **kw), x)[1](cotangent)[0]
    theirs = jax.vjp(lambda a: jnp.pad(a, widths, mode, **kw), x)[1](cotangent)[0]
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "mode,kwargs",
    [c for c in CASES if c[0] not in ("maximum", "minimum", "median")],
    ids=lambda c: str(c),
)
@pytest.mark.subsample(0.5, cover=lambda p: {p["mode"]})  # every mode, order-2 grads
def test_check_grads(mode, kwargs):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    kw = _concrete(kwargs, rng, 2)
    check_grads(
        lambda a: jpnp.pad(a, ((2, 5), (1, 0)), mode, **kw),
        (x,),
        order=2,
        modes=("fwd", "rev"),
        eps=1.0,
    )


def test_grad_of_constant_values_alone():
    # jnp.pad crashes here (lax.pad cannot transpose a pad value alone in jax 0.10).
    x = np.arange(12.0, dtype=np.float32).reshape(3, 4)

    def per_side(v):
        return jpnp.pad(x, 1, constant_values=((v, 0.0), (0.0, 2 * v))).sum()

    # Axis 0 pads a row of 4 with v; axis 1 then pads 5 rows with 2v on the right,
    # covering the corners: 4 + 2 * 5.
    assert jax.grad(per_side)(5.0) == 14.0
    scalar = jax.grad(lambda v: jpnp.pad(x, 1, constant_values=v).sum())(5.0)
    assert scalar == jax.grad(
        lambda v: (jnp.pad(x, 1) + v * jnp.pad(0 * x, 1, constant_values=1)).sum()
    )(5.0)


def test_grad_of_end_values():
    # jnp.pad takes end_values as static, so it has no gradient there to compare with.
    x = np.arange(3.0, dtype=np.float32)
    check_grads(
        lambda end: jpnp.pad(x, (4, 2), "linear_ramp", end_values=((end, 2 * end),)),
        (np.float32(1.5),),
        order=2,
        modes=("fwd", "rev"),
        eps=1.0,
    )


def test_traced_constant_values_under_jit_and_vmap():
    x = jnp.arange(6.0).reshape(2, 3)
    values = jnp.array([1.0, 2.0, 3.0])
    got = jax.vmap(jax.jit(lambda v: jpnp.pad(x, 1, constant_values=v)))(values)
    np.testing.assert_array_equal(got, np.stack([np.pad(x, 1, constant_values=v) for v in values]))


# Bad input -------------------------------------------------------------------------

_X = np.zeros((2, 3), np.float32)


@pytest.mark.parametrize(
    "call,error,message",
    [
        (
            lambda: jpnp.pad(_X, 1, "reflection"),
            ValueError,
            "jaxpad.numpy.pad: mode must be one of 'constant', 'edge', 'wrap', 'reflect', "
            "'symmetric', 'linear_ramp', 'maximum', 'mean', 'median', 'minimum', 'empty'; "
            "got 'reflection'.",
        ),
        (
            lambda: jpnp.pad(_X, 1, "edge", constant_values=1),
            ValueError,
            "jaxpad.numpy.pad: mode='edge' takes no keyword argument constant_values; it "
            "accepts none.",
        ),
        (
            lambda: jpnp.pad(_X, 1, "reflect", stat_length=1),
            ValueError,
            "jaxpad.numpy.pad: mode='reflect' takes no keyword argument stat_length; it "
            "accepts ['reflect_type'].",
        ),
        (
            lambda: jpnp.pad(_X, 1.5),
            TypeError,
            "jaxpad.numpy.pad: pad_width must hold integers; got 1.5.",
        ),
        (
            lambda: jpnp.pad(_X, True),
            TypeError,
            "jaxpad.numpy.pad: pad_width must hold integers; got True.",
        ),
        (
            lambda: jpnp.pad(_X, ((1, -2), (0, 0))),
            ValueError,
            "jaxpad.numpy.pad: pad_width must be non-negative (jaxpad.pad crops with "
            "negative pads); got ((1, -2), (0, 0)).",
        ),
        (
            lambda: jpnp.pad(_X, ((1, 2, 3), (0, 0, 0))),
            ValueError,
            "jaxpad.numpy.pad: pad_width must be a scalar, a (before, after) pair or one "
            "pair per axis, broadcastable to shape (2, 2); got shape (2, 3).",
        ),
        (
            lambda: jpnp.pad(_X, ((1, 2), (3,))),
            ValueError,
            "jaxpad.numpy.pad: pad_width must be a scalar or nested pairs of one shape; got "
            "((1, 2), (3,)).",
        ),
        (
            lambda: jax.jit(lambda w: jpnp.pad(_X, w))(1),
            TypeError,
            "jaxpad.numpy.pad: pad_width must be static; got a traced value. Widths known "
            "only at run time need jaxpad.dynamic_pad(x, pads_begin, shape, mode).",
        ),
        (
            lambda: jpnp.pad(_X, 1, "reflect", reflect_type="uneven"),
            ValueError,
            "jaxpad.numpy.pad: reflect_type must be one of 'even', 'odd'; got 'uneven'.",
        ),
        (
            lambda: jpnp.pad(np.zeros((0, 3)), 1, "edge"),
            ValueError,
            "jaxpad.numpy.pad: mode='edge' cannot extend axis 0 of shape (0, 3): it is "
            "empty; only 'constant' and 'empty' can.",
        ),
        (
            lambda: jpnp.pad(_X, 1, "maximum", stat_length=((1, 0), (1, 1))),
            ValueError,
            "jaxpad.numpy.pad: stat_length of 0 on axis 0 gives no value to pad with; got "
            "stat_length=(1, 0).",
        ),
        (
            lambda: jpnp.pad(_X, 1, "mean", stat_length=-1),
            ValueError,
            "jaxpad.numpy.pad: stat_length must be non-negative; got -1.",
        ),
        (
            lambda: jpnp.pad(_X, 1, constant_values=((1, 2, 3),)),
            ValueError,
            "jaxpad.numpy.pad: constant_values must be a scalar, a (before, after) pair or "
            "one pair per axis, broadcastable to shape (2, 2); got shape (1, 3).",
        ),
        (
            lambda: jpnp.pad(_X, 1, "linear_ramp", end_values=np.zeros((3, 2))),
            ValueError,
            "jaxpad.numpy.pad: end_values must be a scalar, a (before, after) pair or one "
            "pair per axis, broadcastable to shape (2, 2); got shape (3, 2).",
        ),
        (
            lambda: jpnp.pad(_X, 1, constant_values=1j),
            TypeError,
            "jaxpad.numpy.pad: a complex constant_values would lose its imaginary part in "
            "array's dtype float32; got 1j.",
        ),
        (
            lambda: jpnp.pad(_X, 1, "linear_ramp", end_values=(0, 2j)),
            TypeError,
            "jaxpad.numpy.pad: a complex end_values would lose its imaginary part in array's "
            "dtype float32; got (0, 2j).",
        ),
        (
            lambda: jpnp.pad(_X, 1, constant_values="1"),
            TypeError,
            "jaxpad.numpy.pad: constant_values must hold numbers; got '1'.",
        ),
        (
            lambda: jpnp.pad(_X, 1, ["edge"]),
            TypeError,
            "jaxpad.numpy.pad: mode must be a string or a callable; got ['edge'].",
        ),
        (
            lambda: jpnp.pad(_X, {0: 1, -2: 2}),
            ValueError,
            "jaxpad.numpy.pad: pad_width names axis 0 twice (0 and -2); one width would be "
            "ignored.",
        ),
        (
            lambda: jpnp.pad(_X, {2: 1}),
            ValueError,
            "jaxpad.numpy.pad: pad_width names axis 2, out of range for array.ndim=2.",
        ),
        (
            lambda: jpnp.pad(_X, {"0": 1}),
            TypeError,
            "jaxpad.numpy.pad: pad_width's keys must be axes (ints); got '0'.",
        ),
        (
            lambda: jpnp.pad(_X, {0: (1, 2, 3)}),
            ValueError,
            "jaxpad.numpy.pad: pad_width[0] must be a width or a (before, after) pair; got "
            "(1, 2, 3).",
        ),
        (
            lambda: jpnp.pad(_X.astype(np.int32), 1, "median", stat_length=((1, 1), (0, 1))),
            ValueError,
            "jaxpad.numpy.pad: stat_length of 0 on axis 1 gives no value to pad with; got "
            "stat_length=(0, 1).",
        ),
    ],
)
def test_bad_input(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_is_a_public_module_of_the_package():
    assert "numpy" in jaxpad.__all__


@pytest.mark.parametrize("mode", ["maximum", "minimum"])
def test_stat_length_zero_raises_on_any_axis_as_numpy(mode):
    # numpy rejects it even where the axis pads nothing: there is no maximum of nothing.
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    for pad_width, stat_length in ((0, 0), (((1, 1), (0, 0)), ((1, 1), (0, 1)))):
        with pytest.raises(ValueError, match="stat_length"):
            np.pad(x, pad_width, mode, stat_length=stat_length)
        with pytest.raises(ValueError, match=r"^jaxpad\.numpy\.pad: stat_length of 0"):
            jpnp.pad(jnp.asarray(x), pad_width, mode, stat_length=stat_length)


# Every option is used or rejected (issue 14) ---------------------------------------

# Neither monotonic nor symmetric, so that every statistic window gives its own value.
_AUDIT_X = np.array([[5.0, 1.0, 7.0, 3.0], [2.0, 9.0, 4.0, 8.0], [6.0, 0.0, 10.0, 11.5]])
_AUDIT_WIDTHS = ((2, 3), (1, 2))

# (mode, keyword, value, changed value): one entry of the option changes at a time,
# on each side and each axis.
_OPTION_CHANGES = [
    ("constant", "constant_values", 0, 1),
    ("constant", "constant_values", (1, 2), (0, 2)),
    ("constant", "constant_values", (1, 2), (1, 3)),
    ("constant", "constant_values", ((1, 2), (3, 4)), ((0, 2), (3, 4))),
    ("constant", "constant_values", ((1, 2), (3, 4)), ((1, 2), (3, 5))),
    ("reflect", "reflect_type", "even", "odd"),
    ("symmetric", "reflect_type", "even", "odd"),
    ("linear_ramp", "end_values", 0, 1),
    ("linear_ramp", "end_values", (1, 2), (0, 2)),
    ("linear_ramp", "end_values", (1, 2), (1, 3)),
    ("linear_ramp", "end_values", ((1, 2), (3, 4)), ((0, 2), (3, 4))),
    ("linear_ramp", "end_values", ((1, 2), (3, 4)), ((1, 2), (3, 5))),
] + [
    (mode, "stat_length", value, changed)
    for mode in ("maximum", "minimum", "mean", "median")
    for value, changed in [
        (None, 1),
        ((2, 2), (1, 2)),
        ((2, 2), (2, 1)),
        ((2, 2), (3, 2)),
        (((2, 2), (2, 2)), ((2, 2), (1, 2))),
        (((2, 2), (2, 2)), ((2, 2), (2, 3))),
    ]
]


@pytest.mark.parametrize("mode,keyword,value,changed", _OPTION_CHANGES, ids=str)
def test_every_option_is_used(mode, keyword, value, changed):
    # numpy's result changes with the option (so the case can tell), and ours with
    # it, to numpy's values, eagerly and under jit.
    results = []
    for option in (value, changed):
        expected = np.pad(_AUDIT_X, _AUDIT_WIDTHS, mode, **{keyword: option})
        for got in (
            jpnp.pad(_AUDIT_X, _AUDIT_WIDTHS, mode, **{keyword: option}),
            _jit_pad(_AUDIT_X, _AUDIT_WIDTHS, mode, {keyword: option}),
        ):
            np.testing.assert_allclose(got, expected, rtol=1e-6)
        results.append(expected)
    assert not np.array_equal(*results), "the case does not exercise the option"


@pytest.mark.parametrize("side", range(4))
def test_every_width_is_used(side):
    widths = np.array(_AUDIT_WIDTHS)
    changed = widths.copy()
    changed.flat[side] += 1
    for mode in ("constant", "edge", "reflect", "linear_ramp", "mean"):
        got = jpnp.pad(_AUDIT_X, changed, mode)
        assert got.shape != jpnp.pad(_AUDIT_X, widths, mode).shape
        np.testing.assert_allclose(got, np.pad(_AUDIT_X, changed, mode), rtol=1e-6)


@pytest.mark.parametrize("pad_width", [{0: 1}, {-1: (1, 2)}, {0: (2, 0), 1: 3}, {}], ids=str)
def test_dict_pad_width(pad_width):
    # numpy >= 2.3: {axis: width or (before, after)}; axes not named are not padded.
    np.testing.assert_array_equal(
        jpnp.pad(_AUDIT_X, pad_width, "reflect"), np.pad(_AUDIT_X, pad_width, "reflect")
    )


def test_callable_keywords_reach_the_callable():
    def fill(row, pad_width, iaxis, kwargs):
        row = row.at[: pad_width[0]].set(kwargs["value"])
        return row.at[row.shape[0] - pad_width[1] :].set(kwargs["value"])

    one, two = (jpnp.pad(_AUDIT_X, 1, fill, value=v) for v in (1.0, 2.0))
    assert not np.array_equal(one, two)
    np.testing.assert_array_equal(two, np.pad(_AUDIT_X, 1, constant_values=2.0))


@pytest.mark.parametrize(
    "kwargs,error",
    [
        ({"mode": "reflect", "reflect_type": "uneven"}, ValueError),
        ({"mode": "mean", "stat_length": -1}, ValueError),
        ({"mode": "maximum", "stat_length": 1.5}, TypeError),
        ({"constant_values": 1j}, TypeError),
        ({"mode": "linear_ramp", "end_values": "1"}, TypeError),
        ({"mode": "wrap", "stat_length": 1}, ValueError),
    ],
    ids=str,
)
def test_options_are_checked_on_a_rank_zero_array(kwargs, error):
    # A 0-d array comes back unchanged, as in numpy, but its options are still read:
    # today's main returned the array for all of these.
    with pytest.raises(error, match="^jaxpad.numpy.pad: "):
        jpnp.pad(np.float32(5), 1, **kwargs)


def test_mean_and_median_of_no_values_are_nan_as_in_numpy():
    # numpy warns ("Mean of empty slice") and pads with NaN; jnp.pad raises.
    for mode in ("mean", "median"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = np.pad(_AUDIT_X, ((1, 2), (0, 1)), mode, stat_length=((0, 2), (1, 0)))
        got = jpnp.pad(_AUDIT_X, ((1, 2), (0, 1)), mode, stat_length=((0, 2), (1, 0)))
        np.testing.assert_array_equal(got, expected)
        assert np.isnan(got).any()


def test_statistics_of_no_values_raise_where_numpy_writes_garbage():
    # An integer mean of nothing: numpy casts NaN to int (a RuntimeWarning and
    # -2**63); jnp.pad raises; so does jaxpad, when that side is padded.
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    with pytest.raises(ValueError, match="stat_length of 0 on axis 1"):
        jpnp.pad(x, ((1, 1), (1, 0)), "mean", stat_length=((1, 1), (0, 1)))
    # The side that reads nothing is not padded: numpy's result, no error.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's "Mean of empty slice"
        expected = np.pad(x, ((1, 1), (0, 1)), "median", stat_length=((1, 1), (0, 1)))
    np.testing.assert_array_equal(
        jpnp.pad(x, ((1, 1), (0, 1)), "median", stat_length=((1, 1), (0, 1))), expected
    )


def test_median_of_complex_input():
    # jnp.median has no complex quantile; numpy sorts complex numbers lexicographically.
    x = np.array([[1 + 5j, 2 + 1j, 2 - 3j, 0j], [3 - 1j, 3 + 1j, -1j, 1]], np.complex64)
    for stat_length in (None, 3, (2, 1)):
        np.testing.assert_allclose(
            jpnp.pad(x, ((1, 2), (2, 1)), "median", stat_length=stat_length),
            np.pad(x, ((1, 2), (2, 1)), "median", stat_length=stat_length),
            rtol=1e-6,
        )


def test_unknown_mode_is_what_numpy_and_jnp_pad_raise():
    # numpy.pad raises ValueError, jnp.pad NotImplementedError: either except catches it.
    for error in (ValueError, NotImplementedError):
        with pytest.raises(error, match="mode must be one of"):
            jpnp.pad(_AUDIT_X, 1, "mirror")
    with pytest.raises(jpnp.UnsupportedModeError):
        jpnp.pad(_AUDIT_X, 1, None)
    with pytest.raises(TypeError, match="mode must be a string or a callable"):
        jpnp.pad(_AUDIT_X, 1, ["edge"])


def test_odd_reflection_within_one_turn_is_the_primitive_with_its_fold():
    x = jnp.arange(1.0, 6.0)
    for mode in ("reflect", "symmetric"):
        f = lambda x, mode=mode: jpnp.pad(x, (3, 2), mode=mode, reflect_type="odd")  # noqa: E731
        names = {e.primitive.name for e in jax.make_jaxpr(jax.grad(lambda x: f(x).sum()))(x).eqns}
        assert {"jaxpad_pad", "jaxpad_fold"} <= names, names
        np.testing.assert_array_equal(
            f(x), np.pad(np.arange(1.0, 6.0), (3, 2), mode, reflect_type="odd")
        )
