"""The ``"neumann"`` side mode and boundary values that vary along the face.

The oracle builds the ghost cells by hand in NumPy, one axis and one side at a time in
numpy's order: the side's base pad (``numpy.pad``), then its formula on the ghost
region with the side's value broadcast along the face: ``v`` (constant),
``2 v - mirror`` (dirichlet), ``mirror -/+ (2k - 1) v`` (neumann, ``k`` cells beyond the
face). A face array is first extended by its nearest value (``numpy.pad`` in
``"edge"``) along the axes padded before its own.
"""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

import jaxpad
from tests.test_sides import SIDE_MODES

MODES = SIDE_MODES + ("neumann",)
READS_VALUE = ("constant", "dirichlet", "neumann")
BASE = {
    "reflect_odd": "reflect",
    "symmetric_odd": "symmetric",
    "dirichlet": "symmetric",
    "neumann": "symmetric",
    "constant": "edge",  # any: the ghosts are overwritten
}


def _pad_crop(y, axis, lo, hi, mode, **kwargs):
    """``numpy.pad`` along ``axis`` by the positive parts, then the negative ones crop."""
    widths = [(0, 0)] * y.ndim
    widths[axis] = (max(lo, 0), max(hi, 0))
    y = np.pad(y, widths, mode, **kwargs)
    stop = y.shape[axis] - max(-hi, 0)
    return np.take(y, range(max(-lo, 0), stop), axis)


def _ghosts(y, axis, before, after, mode, value, side):
    """``y`` padded along ``axis`` in one side's mode (its ghosts on that side only
    matter); ``value`` broadcasts against the padded ``y``."""
    widths = [(0, 0)] * y.ndim
    widths[axis] = (before, after)
    if mode in ("reflect_odd", "symmetric_odd"):
        return np.pad(y, widths, BASE[mode], reflect_type="odd")
    if mode not in READS_VALUE:
        return np.pad(y, widths, mode)
    out = np.pad(y, widths, BASE[mode]).astype(np.result_type(y, value))
    n = y.shape[axis]
    positions = np.arange(before + n + after)
    region = positions < before if side == 0 else positions >= before + n
    beyond = before - positions if side == 0 else positions - before - n + 1
    shape = [1] * y.ndim
    shape[axis] = -1
    region, beyond = region.reshape(shape), beyond.reshape(shape)
    if mode == "constant":
        ghost = value
    elif mode == "dirichlet":
        ghost = 2 * value - out
    else:
        ghost = out + (2 * beyond - 1) * value * (-1 if side == 0 else 1)
    return np.where(region, ghost, out)


def numpy_sided(x, pads_begin, pads_end, modes, values):
    """The oracle; ``values[axis][side]`` is a scalar or a face array (x.shape with
    that axis of size 1)."""
    y = np.asarray(x)
    for axis, ((mode_begin, mode_end), lo, hi) in enumerate(zip(modes, pads_begin, pads_end)):
        n = y.shape[axis]
        before, after = max(lo, 0), max(hi, 0)
        sides = []
        for side, mode in enumerate((mode_begin, mode_end)):
            value = np.asarray(values[axis][side], np.float64)
            if value.ndim:
                # Extended by its nearest value along the axes padded so far.
                for earlier in range(axis):
                    value = _pad_crop(
                        value, earlier, pads_begin[earlier], pads_end[earlier], "edge"
                    )
            sides.append(_ghosts(y, axis, before, after, mode, value, side))
        y = np.concatenate(
            [
                np.take(sides[0], range(before), axis),
                y,
                np.take(sides[1], range(before + n, before + n + after), axis),
            ],
            axis,
        )
        y = np.take(y, range(max(-lo, 0), y.shape[axis] - max(-hi, 0)), axis)
    return y


def _random_case(rng, ndim, with_faces):
    shape = tuple(int(rng.integers(1, 5)) for _ in range(ndim))
    modes = tuple((str(rng.choice(MODES)), str(rng.choice(MODES))) for _ in range(ndim))
    pads_begin, pads_end = [], []
    for n in shape:
        lo, hi = (int(rng.integers(-1 if n > 2 else 0, 2 * n + 1)) for _ in range(2))
        pads_begin.append(lo)
        pads_end.append(hi)
    values = []
    for axis, pair in enumerate(modes):
        face = tuple(1 if a == axis else n for a, n in enumerate(shape))
        row = []
        for mode in pair:
            if mode in READS_VALUE and with_faces and rng.random() < 0.7:
                row.append(rng.uniform(-2, 2, face).astype(np.float32))
            elif mode in READS_VALUE:
                row.append(float(np.float32(rng.uniform(-2, 2))))
            else:
                row.append(0.0)
        values.append(tuple(row))
    return shape, modes, tuple(pads_begin), tuple(pads_end), values


def _as_jax(values):
    return [tuple(jnp.asarray(v) if np.ndim(v) else v for v in pair) for pair in values]


def _reads(modes):
    return any(side in READS_VALUE for pair in modes for side in pair)


# Neumann: every pair of side modes, scalar values ------------------------------------


@pytest.mark.parametrize("pair", [p for p in itertools.product(MODES, repeat=2) if "neumann" in p])
@pytest.mark.subsample(0.5, cover=lambda p: set(p["pair"]))
def test_neumann_beside_every_side_mode(pair):
    x = np.array([0.5, -1.0, 2.0, 3.5], np.float32)
    values = [(1.5, -0.75)]
    for lo, hi in ((1, 1), (3, 2), (8, 7), (-1, 5)):
        expected = numpy_sided(x, (lo,), (hi,), (pair,), values)
        pad_value = np.array(values, np.float32) if _reads((pair,)) else None
        actual = jaxpad.pad(x, (lo,), (hi,), [pair], pad_value)
        np.testing.assert_allclose(actual, expected, rtol=1e-6, atol=1e-6)
        traced = jax.jit(lambda o: jaxpad.dynamic_pad(x, (o,), (lo + 4 + hi,), [pair], pad_value))(
            lo
        )
        np.testing.assert_allclose(traced, expected, rtol=1e-6, atol=1e-6)


def test_neumann_width_one_is_the_jump_across_the_face():
    x = jnp.array([1.0, 2.0, 4.0])
    np.testing.assert_allclose(jaxpad.pad(x, [1], [1], "neumann", 0.25), [0.75, 1, 2, 4, 4.25])
    # v = 0 is a zero gradient: symmetric.
    np.testing.assert_array_equal(
        jaxpad.pad(x, [4], [5], "neumann"), jaxpad.pad(x, [4], [5], "symmetric")
    )


def test_neumann_traced_pads_far_beyond_the_axis():
    """Traced pads are reduced by whole periods: Neumann's profile keeps counting."""
    x = np.array([0.0, 1.0, 3.0], np.float32)
    expected = numpy_sided(x, (45,), (-40,), (("neumann", "neumann"),), [(0.5, 0.5)])
    actual = jax.jit(lambda o: jaxpad.dynamic_pad(x, (o,), (8,), "neumann", 0.5))(45)
    np.testing.assert_allclose(actual, expected, rtol=1e-6)


def test_neumann_on_bool_is_refused():
    with pytest.raises(TypeError, match=r"mode 'neumann' computes mirror -/\+ \(2k - 1\)"):
        jaxpad.pad(jnp.ones(3, bool), [1], [1], "neumann")


# Face arrays ------------------------------------------------------------------------

_RNG = np.random.default_rng(28)
FACE_CASES = [_random_case(_RNG, ndim, True) for ndim in (2, 2, 2, 2, 3, 3, 3, 2, 2, 3) * 3]


# Random draws, not a list of rules: a rotating share in every run (tests/conftest.py).
@pytest.mark.subsample(0.2, cover=[])
@pytest.mark.parametrize("case", FACE_CASES, ids=[str(i) for i in range(len(FACE_CASES))])
def test_face_values_against_hand_built_ghosts(case):
    shape, modes, pads_begin, pads_end, values = case
    x = np.random.default_rng(len(shape)).uniform(-1, 1, shape).astype(np.float32)
    expected = numpy_sided(x, pads_begin, pads_end, modes, values)
    pad_value = _as_jax(values) if _reads(modes) else None
    out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, shape, pads_end))
    results = {
        "eager": jaxpad.pad(x, pads_begin, pads_end, modes, pad_value),
        "jit": jax.jit(lambda x, v: jaxpad.pad(x, pads_begin, pads_end, modes, v))(x, pad_value),
        "dynamic": jaxpad.dynamic_pad(x, pads_begin, out_shape, modes, pad_value),
        "traced": jax.jit(lambda p: jaxpad.dynamic_pad(x, list(p), out_shape, modes, pad_value))(
            jnp.asarray(pads_begin)
        ),
    }
    for name, result in results.items():
        np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5, err_msg=name)


def test_face_values_vmap_over_x_and_the_values():
    shape, modes = (3, 4), (("neumann", "dirichlet"), ("constant", "wrap"))
    rng = np.random.default_rng(1)
    xs = rng.uniform(size=(5,) + shape).astype(np.float32)
    flux = rng.uniform(size=(5, 1, 4)).astype(np.float32)
    column = rng.uniform(size=(5, 3, 1)).astype(np.float32)

    def padded(x, f, c):
        return jaxpad.pad(x, (2, 1), (1, 3), modes, [(f, 0.5), (c, 0.0)])

    batched = jax.vmap(padded)(xs, flux, column)
    for i in range(5):
        expected = numpy_sided(xs[i], (2, 1), (1, 3), modes, [(flux[i], 0.5), (column[i], 0.0)])
        np.testing.assert_allclose(batched[i], expected, rtol=1e-6, atol=1e-6)
    only_values = jax.vmap(lambda f: padded(xs[0], f, column[0]))(flux)
    np.testing.assert_allclose(only_values[3], padded(xs[0], flux[3], column[0]))


@pytest.mark.parametrize(
    "modes",
    [
        (("neumann", "dirichlet"), "wrap"),
        (("constant", "neumann"), ("reflect_odd", "neumann")),
        ("symmetric", ("dirichlet", "neumann")),
    ],
    ids=str,
)
def test_check_grads_order_2_in_x_and_the_face_values(modes):
    rng = np.random.default_rng(2)
    x = jnp.asarray(rng.uniform(size=(3, 4)), jnp.float32)
    reads = [[side in READS_VALUE for side in ((m, m) if isinstance(m, str) else m)] for m in modes]
    faces = [
        tuple(
            jnp.asarray(rng.uniform(size=(1, 4) if axis == 0 else (3, 1)), jnp.float32)
            if reads[axis][side]
            else 0.0
            for side in (0, 1)
        )
        for axis in range(2)
    ]
    arrays = [v for pair in faces for v in pair if np.ndim(v)]

    def f(x, *arrays):
        it = iter(arrays)
        values = [tuple(next(it) if np.ndim(v) else v for v in pair) for pair in faces]
        return jaxpad.pad(x, (2, 1), (1, 2), modes, values)

    check_grads(f, (x, *arrays), order=2, modes=("fwd", "rev"), atol=1e-2, rtol=1e-2)


def test_face_value_gradient_equals_jnp_ghosts():
    """``jax.grad`` through a Neumann face array against the same ghosts in jnp."""
    x = jnp.arange(12.0).reshape(3, 4)
    weights = jnp.linspace(0.5, 2.0, 5 * 4).reshape(5, 4)

    def ours(flux):
        out = jaxpad.pad(x, (1, 0), (1, 0), ("neumann", "edge"), [(flux, 0.0), (0.0, 0.0)])
        return (out * weights).sum()

    def by_hand(flux):
        begin = x[:1] - flux
        end = x[-1:]  # v = 0 at the end: zero gradient
        return (jnp.concatenate([begin, x, end]) * weights).sum()

    flux = jnp.linspace(-1.0, 1.0, 4)[None, :]
    np.testing.assert_allclose(jax.grad(ours)(flux), jax.grad(by_hand)(flux))


def test_scalar_pairs_are_the_per_side_array_form():
    x = jnp.arange(6.0).reshape(2, 3)
    modes = ("dirichlet", ("neumann", "constant"))
    pairs = [(1.0, 2.0), (0.5, -1.0)]
    np.testing.assert_array_equal(
        jaxpad.pad(x, (1, 2), (2, 1), modes, pairs),
        jaxpad.pad(x, (1, 2), (2, 1), modes, jnp.array(pairs)),
    )


@pytest.mark.parametrize(
    "pad_value, error, match",
    [
        (
            [(jnp.ones((1, 5)), 0.0), (0.0, 0.0)],
            ValueError,
            r"^jaxpad\.pad: pad_value\[0\]\[0\] must be a scalar or an array broadcastable to "
            r"the face of axis 0 \(x\.shape with axis 0 of size 1: \(1, 4\)\); got shape "
            r"\(1, 5\)\.$",
        ),
        (
            [(0.0, 0.0), (jnp.ones((3, 1)), 0.0)],
            ValueError,
            r"^jaxpad\.pad: pad_value\[1\]\[0\] is an array, but side 0 of axis 1 has mode "
            r"'wrap', which reads no value",
        ),
    ],
)
def test_face_value_errors(pad_value, error, match):
    with pytest.raises(error, match=match):
        jaxpad.pad(jnp.ones((3, 4)), (1, 1), (1, 1), ("neumann", "wrap"), pad_value)


def test_face_values_with_crop_first_are_refused():
    with pytest.raises(ValueError, match=r"^jaxpad\.pad: crop_first=True takes scalar pad"):
        jaxpad.pad(
            jnp.ones((3, 4)),
            (1, -1),
            (1, 0),
            ("neumann", "wrap"),
            [(jnp.ones((1, 4)), 0.0), (0.0, 0.0)],
            crop_first=True,
        )


def test_infinite_face_value_reaches_only_its_ghosts():
    x = jnp.zeros((2, 3))
    flux = jnp.array([[0.0, jnp.inf, 0.0]])
    out = np.asarray(jaxpad.pad(x, (2, 0), (0, 0), ("neumann", "wrap"), [(flux, 0.0), (0, 0)]))
    assert np.isinf(out[:2, 1]).all() and np.isfinite(np.delete(out, 1, axis=1)).all()


# Found in review ---------------------------------------------------------------------


def test_empty_axis_with_traced_pads_takes_each_sides_value():
    expected = np.pad(np.zeros(0), (2, 3), constant_values=(1.0, 9.0))
    pads = jax.jit(
        lambda o: jaxpad.dynamic_pad(jnp.zeros(0), (o,), (5,), "constant", [[1.0, 9.0]])
    )(2)
    np.testing.assert_array_equal(pads, expected)
    face = jnp.array([[1.0, 2.0, 3.0]])
    traced = jax.jit(
        lambda o: jaxpad.dynamic_pad(
            jnp.zeros((0, 3)), (o, 0), (3, 3), "constant", [(face, 7.0), (0.0, 0.0)]
        )
    )(2)
    np.testing.assert_array_equal(traced, [[1, 2, 3], [1, 2, 3], [7, 7, 7]])


@pytest.mark.parametrize("v", [0.0, 1e-3])
def test_neumann_in_float16_far_beyond_the_face(v):
    """2k - 1 passes float16's range some 32768 cells out: the profile stays finite."""
    x = np.array([1, 2, 3, 4], np.float16)
    expected = numpy_sided(x.astype(np.float64), (40000,), (0,), (("neumann",) * 2,), [(v, v)])
    static = jaxpad.pad(x, (40000,), (0,), "neumann", v)
    traced = jax.jit(lambda o: jaxpad.dynamic_pad(x, (o,), (40004,), "neumann", v))(40000)
    for out in (static, traced):
        assert np.isfinite(np.asarray(out, np.float32)).all()
        np.testing.assert_allclose(np.asarray(out, np.float64), expected, rtol=2e-3, atol=0.1)


def test_traced_scalar_beside_a_face_array_in_constant_mode():
    x = jnp.arange(6.0).reshape(2, 3)
    face = jnp.array([[10.0, 20.0, 30.0]])

    def padded(s):
        return jaxpad.pad(x, (1, 0), (1, 0), "constant", [(face, s), (0.0, 0.0)])

    expected = numpy_sided(
        np.asarray(x), (1, 0), (1, 0), (("constant",) * 2,) * 2, [(face, 5.0), (0.0, 0.0)]
    )
    np.testing.assert_array_equal(jax.jit(padded)(5.0), expected)
    np.testing.assert_array_equal(padded(5.0), expected)
    assert jax.grad(lambda s: padded(s).sum())(5.0) == 3.0


def test_a_value_for_a_side_that_reads_none_is_refused():
    with pytest.raises(ValueError, match=r"pad_value\[1\]\[0\]=5\.0, but side 0 of axis 1"):
        jaxpad.pad(
            jnp.ones((3, 4)),
            (1, 1),
            (1, 1),
            ("neumann", "wrap"),
            [(jnp.ones((1, 4)), 0.0), (5.0, 0.0)],
        )
