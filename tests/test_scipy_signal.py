"""jaxpad.scipy.signal against scipy.signal: every mode, boundary and fillvalue."""

from __future__ import annotations

import jax
import numpy as np
import pytest
from jax.test_util import check_grads

from jaxpad.scipy import signal
from tests.compat import enable_x64

ss = pytest.importorskip("scipy.signal")

BOUNDARIES = ["fill", "wrap", "symm"]


@pytest.fixture(autouse=True)
def _x64():
    with enable_x64(True):
        yield


@pytest.mark.parametrize("boundary", BOUNDARIES)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_against_scipy(mode, boundary):
    rng = np.random.default_rng(abs(hash((mode, boundary))) % 2**32)
    # Kernels smaller and larger than the image, odd and even.
    for x_shape, w_shape in [
        ((6, 7), (3, 2)),
        ((5, 4), (4, 5)),
        ((3, 3), (7, 6)),
        ((1, 5), (2, 1)),
    ]:
        if mode == "valid" and not (
            all(a >= b for a, b in zip(x_shape, w_shape))
            or all(b >= a for a, b in zip(x_shape, w_shape))
        ):
            continue
        x = rng.standard_normal(x_shape)
        w = rng.standard_normal(w_shape)
        for ours, theirs in (
            (signal.convolve2d, ss.convolve2d),
            (signal.correlate2d, ss.correlate2d),
        ):
            want = theirs(x, w, mode, boundary, fillvalue=1.5)
            got = jax.jit(lambda x: ours(x, w, mode, boundary, fillvalue=1.5))(x)
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_boundary_aliases():
    x = np.arange(20.0).reshape(4, 5)
    w = np.array([[1.0, -2.0], [0.5, 3.0]])
    for alias, name in (("circular", "wrap"), ("symmetric", "symm")):
        np.testing.assert_array_equal(
            signal.convolve2d(x, w, "same", alias), signal.convolve2d(x, w, "same", name)
        )
        np.testing.assert_allclose(
            signal.correlate2d(x, w, "full", alias), ss.correlate2d(x, w, "full", alias)
        )


def test_dtypes_and_complex():
    rng = np.random.default_rng(1)
    xi = rng.integers(-5, 5, (5, 6))
    wi = rng.integers(-3, 3, (2, 3))
    got = signal.convolve2d(xi, wi, boundary="symm")
    want = ss.convolve2d(xi, wi, boundary="symm")
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    z = rng.standard_normal((4, 5)) + 1j * rng.standard_normal((4, 5))
    wz = rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2))
    for mode in ("full", "same", "valid"):
        np.testing.assert_allclose(
            signal.correlate2d(z, wz, mode, "wrap"), ss.correlate2d(z, wz, mode, "wrap")
        )
        np.testing.assert_allclose(
            signal.convolve2d(z, wz, mode, fillvalue=2 - 1j),
            ss.convolve2d(z, wz, mode, fillvalue=2 - 1j),
        )
    # in2 larger than in1 in 'valid' mode: scipy swaps them.
    big = rng.standard_normal((4, 4))
    small = rng.standard_normal((2, 3))
    for ours, theirs in ((signal.convolve2d, ss.convolve2d), (signal.correlate2d, ss.correlate2d)):
        np.testing.assert_allclose(ours(small, big, "valid"), theirs(small, big, "valid"))


def test_matches_jax_scipy_on_fill():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((6, 5))
    w = rng.standard_normal((3, 4))
    for mode in ("full", "same", "valid"):
        np.testing.assert_allclose(
            signal.convolve2d(x, w, mode), jax.scipy.signal.convolve2d(x, w, mode), rtol=1e-12
        )


@pytest.mark.parametrize("boundary", ["fill", "wrap", "symm"])
def test_gradients(boundary):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 3))
    w = rng.standard_normal((2, 3))
    f = jax.jit(lambda x, c: signal.convolve2d(x, w, "same", boundary, fillvalue=c))
    check_grads(f, (x, 0.5), order=2, modes=["fwd", "rev"], atol=1e-6, rtol=1e-6)


def test_traced_fillvalue_and_vmap():
    x = np.arange(12.0).reshape(3, 4)
    w = np.ones((2, 2))
    fills = np.array([0.0, 1.0, -2.0])
    got = jax.vmap(lambda c: signal.correlate2d(x, w, fillvalue=c))(fills)
    want = np.stack([ss.correlate2d(x, w, fillvalue=c) for c in fills])
    np.testing.assert_allclose(got, want)
