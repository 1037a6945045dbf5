"""Infinities and nan: a pad is a linear map with static coefficients, so an inf or
nan reaches exactly the outputs whose net coefficient on it is not zero (forward), and
an inf or nan in the cotangent exactly the inputs (and pad values) with a non-zero
net coefficient on it (VJP).

The oracle is that rule applied to the coefficient matrix that ``numpy.pad`` gives
(one basis vector at a time, per side as ``tests/test_sides.py``'s oracle pads):
only the terms with a non-zero coefficient are summed, in NumPy. The positions of
nan, inf and -inf must match exactly; finite entries to float tolerance.
"""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxpad
from tests.sampling import ROTATE_LISTS
from tests.test_sides import READS_VALUE, SIDE_MODES, numpy_sided

# --all: a list of cases, one value each, rotates (tests/sampling.py).
pytestmark = ROTATE_LISTS

NONFINITE = (np.inf, -np.inf, np.nan)


def coefficient_matrices(shape, pads_begin, pads_end, modes):
    """``C`` (outputs x inputs) and ``W`` (outputs x side values, ``(axis, side)``
    flattened) of the pad, from numpy's pad of each basis vector."""
    size = int(np.prod(shape))
    zero_values = np.zeros((len(shape), 2))
    columns = []
    for j in range(size):
        basis = np.zeros(size)
        basis[j] = 1
        columns.append(
            numpy_sided(basis.reshape(shape), pads_begin, pads_end, modes, zero_values).ravel()
        )
    value_columns = []
    for k in range(2 * len(shape)):
        values = np.zeros(2 * len(shape))
        values[k] = 1
        out = numpy_sided(np.zeros(shape), pads_begin, pads_end, modes, values.reshape(-1, 2))
        value_columns.append(out.ravel())
    return np.stack(columns, axis=1), np.stack(value_columns, axis=1)


def by_the_rule(matrix, vector):
    """``matrix @ vector`` summing only the terms whose coefficient is not zero."""
    with np.errstate(invalid="ignore", over="ignore"):
        products = np.where(matrix != 0, matrix * vector[None, :], 0.0)
        return products.sum(axis=1)


def assert_same_nonfinite(actual, expected, what):
    actual = np.asarray(actual, np.float64).ravel()
    expected = np.asarray(expected, np.float64).ravel()
    for name, test in (("nan", np.isnan), ("inf", np.isposinf), ("-inf", np.isneginf)):
        np.testing.assert_array_equal(
            test(actual), test(expected), err_msg=f"{what}: positions of {name}"
        )
    finite = np.isfinite(expected)
    np.testing.assert_allclose(actual[finite], expected[finite], rtol=1e-5, atol=1e-5)


def with_nonfinite(rng, shape, count):
    values = rng.uniform(-1, 1, shape).astype(np.float32)
    flat = values.reshape(-1)
    for position in rng.choice(flat.size, size=min(count, flat.size), replace=False):
        flat[position] = NONFINITE[rng.integers(3)]
    return values


def _cases(rng, ndim, count):
    pairs = list(itertools.product(SIDE_MODES, repeat=2))
    cases = []
    for _ in range(count):
        shape = tuple(int(rng.integers(1, 5)) for _ in range(ndim))
        modes = tuple(pairs[rng.integers(len(pairs))] for _ in range(ndim))
        pads_begin, pads_end = [], []
        for n in shape:
            # Widths up to twice the axis; a crop now and then.
            lo, hi = (int(rng.integers(-1 if n > 2 else 0, 2 * n + 1)) for _ in range(2))
            pads_begin.append(lo)
            pads_end.append(hi)
        cases.append((shape, tuple(pads_begin), tuple(pads_end), modes))
    return cases


_RNG = np.random.default_rng(20261126)
CASES_1D = _cases(_RNG, 1, 160)
CASES_2D = _cases(_RNG, 2, 24)


def _check(shape, pads_begin, pads_end, modes, seed, dynamic, one_mode=False):
    """``one_mode``: ``modes`` as one string, and one scalar pad value (constant)."""
    rng = np.random.default_rng(seed)
    matrix, value_matrix = coefficient_matrices(shape, pads_begin, pads_end, modes)
    reads = any(side in READS_VALUE for pair in modes for side in pair)
    x = with_nonfinite(rng, shape, int(rng.integers(1, 3)))
    values = with_nonfinite(rng, (len(shape), 2), int(rng.integers(0, 2)))
    if not reads:
        values = np.zeros((len(shape), 2), np.float32)
    if one_mode:
        value_matrix = value_matrix.sum(axis=1, keepdims=True)
        values = values[:1, 0]
        modes = modes[0][0]
    out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, shape, pads_end))
    t = with_nonfinite(rng, out_shape, int(rng.integers(1, 3)))

    def padded(x, values):
        pad_value = (values[0] if one_mode else values) if reads else None
        if dynamic:
            return jaxpad.dynamic_pad(x, jnp.asarray(pads_begin), out_shape, modes, pad_value)
        return jaxpad.pad(x, pads_begin, pads_end, modes, pad_value)

    if dynamic:
        padded = jax.jit(padded)
    out, vjp = jax.vjp(padded, jnp.asarray(x), jnp.asarray(values))
    # x and the side values are the inputs of one linear map: one sum of its terms.
    expected = by_the_rule(
        np.concatenate([matrix, value_matrix], axis=1),
        np.concatenate([x.ravel(), values.ravel()]).astype(np.float64),
    )
    assert_same_nonfinite(out, expected, "forward")
    t_x, t_values = vjp(jnp.asarray(t))
    assert_same_nonfinite(t_x, by_the_rule(matrix.T, t.ravel().astype(np.float64)), "VJP in x")
    if reads:
        assert_same_nonfinite(
            t_values, by_the_rule(value_matrix.T, t.ravel().astype(np.float64)), "VJP in values"
        )


@pytest.mark.parametrize(
    "shape, pads_begin, pads_end, modes", CASES_1D, ids=[str(c) for c in range(len(CASES_1D))]
)
@pytest.mark.subsample(0.12, cover=lambda p: {side for axis in p["modes"] for side in axis})
def test_nonfinite_reaches_exactly_the_nonzero_coefficients_1d(shape, pads_begin, pads_end, modes):
    seed = int(np.ravel_multi_index((len(pads_begin), abs(pads_begin[0])), (4, 64)))
    _check(shape, pads_begin, pads_end, modes, seed=seed, dynamic=False)


@pytest.mark.parametrize(
    "shape, pads_begin, pads_end, modes", CASES_2D, ids=[str(c) for c in range(len(CASES_2D))]
)
@pytest.mark.subsample(0.25, cover=lambda p: {side for axis in p["modes"] for side in axis})
def test_nonfinite_reaches_exactly_the_nonzero_coefficients_2d(shape, pads_begin, pads_end, modes):
    _check(shape, pads_begin, pads_end, modes, seed=sum(pads_begin) + 7, dynamic=False)


@pytest.mark.parametrize(
    "shape, pads_begin, pads_end, modes",
    CASES_1D[:40] + CASES_2D[:8],
    ids=[str(c) for c in range(48)],
)
@pytest.mark.subsample(0.25, cover=lambda p: {side for axis in p["modes"] for side in axis})
def test_nonfinite_through_traced_pads(shape, pads_begin, pads_end, modes):
    _check(shape, pads_begin, pads_end, modes, seed=len(shape) + sum(pads_end), dynamic=True)


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("dynamic", [False, True])
def test_nonfinite_in_the_one_mode_primitive(mode, dynamic):
    """The string modes (``jnp.pad``'s programs and the gathers), with an infinite
    pad value in constant mode."""
    rng = np.random.default_rng(3)
    for shape, pads_begin, pads_end in (((5,), (7,), (4,)), ((3, 4), (2, 0), (3, 5))):
        modes = tuple((mode, mode) for _ in shape)
        seed = int(rng.integers(1000))
        _check(shape, pads_begin, pads_end, modes, seed=seed, dynamic=dynamic, one_mode=True)


def test_issue_reproducers():
    """The two cases that were wrong: ghosts that read only finite elements."""
    x = np.array([np.inf, 0.2, 0.27], np.float32)
    np.testing.assert_array_equal(
        jaxpad.pad(x, (2,), (5,), "reflect_odd"),
        np.pad(x, (2, 5), "reflect", reflect_type="odd"),
    )
    x = np.array([0.1, 0.2, 0.3, 0.4, np.nan], np.float32)
    out = np.asarray(jaxpad.pad(x, (7,), (5,), "reflect_odd"))
    np.testing.assert_allclose(out[4:7], [-0.2, -0.1, 0.0], atol=1e-6)
