"""jaxpad.scipy.ndimage against scipy.ndimage itself: random shapes (1-3-D, axes
shorter than the filter), sizes 1-7, every mode, cval and origin; eager, jit and vmap
equal; gradients by check_grads."""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

from jaxpad.scipy import ndimage
from jaxpad.scipy._selection import _networks
from tests.compat import enable_x64, skip_before_jax
from tests.sampling import EVERY_CASE, ROTATE_LISTS

# --all: a list of cases, one value each, rotates (tests/sampling.py).
pytestmark = ROTATE_LISTS

sn = pytest.importorskip("scipy.ndimage")


class _Jitted:
    """``jn.f(x, *args, **kwargs)`` runs ``jax.jit(lambda x: ndimage.f(x, ...))(x)``:
    eagerly, every static slice of a filter would compile on its own."""

    def __getattr__(self, name):
        def call(x, *args, **kwargs):
            return jax.jit(lambda x: getattr(ndimage, name)(x, *args, **kwargs))(x)

        return call


jn = _Jitted()

MODES = [
    "reflect",
    "grid-mirror",
    "constant",
    "grid-constant",
    "nearest",
    "mirror",
    "wrap",
    "grid-wrap",
]


def _pad_read(params):
    """The pad a filter's mode reads: scipy's filters take grid-constant, grid-mirror
    and grid-wrap as synonyms of constant, reflect and wrap, so a form's test over the
    modes keeps one mode of each pad on every run and rotates which."""
    return [_NUMPY_PADS[params["mode"]]]


ONE_MODE_PER_PAD = pytest.mark.subsample(1, cover=_pad_read, all_keep=0.01, all_cover=_pad_read)

# The grid-* modes are their twins' pads for filters (jaxpad.modes.from_scipy); the
# costlier tests run the five distinct pads only.
PAD_MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]


@pytest.fixture(autouse=True)
def _x64():
    # scipy computes in float64; so do these tests, to compare to 1e-10.
    with enable_x64(True):
        yield


def _shape(rng, ndim, small=False):
    high = 4 if small else 9
    return tuple(int(n) for n in rng.integers(1, high, ndim))


def _eager_and_jit(f, x):
    return f(x)


@pytest.mark.parametrize("mode", PAD_MODES)
def test_correlate1d_convolve1d(mode):
    rng = np.random.default_rng(PAD_MODES.index(mode))
    for _ in range(3):
        ndim = int(rng.integers(1, 4))
        x = rng.standard_normal(_shape(rng, ndim))
        size = int(rng.integers(1, 8))
        w = rng.standard_normal(size)
        axis = int(rng.integers(-ndim, ndim))
        origin = int(rng.integers(-(size // 2), (size - 1) // 2 + 1))
        cval = float(rng.standard_normal())
        for ours, theirs in ((jn.correlate1d, sn.correlate1d), (jn.convolve1d, sn.convolve1d)):
            got = _eager_and_jit(lambda x: ours(x, w, axis, mode=mode, cval=cval, origin=origin), x)
            want = theirs(x, w, axis, mode=mode, cval=cval, origin=origin)
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("mode", PAD_MODES)
def test_correlate_convolve(mode):
    rng = np.random.default_rng(10 + PAD_MODES.index(mode))
    for _ in range(3):
        ndim = int(rng.integers(1, 4))
        x = rng.standard_normal(_shape(rng, ndim))
        wshape = _shape(rng, ndim, small=True)
        w = rng.standard_normal(wshape) * (rng.random(wshape) < 0.8)
        origin = [int(rng.integers(-(n // 2), (n - 1) // 2 + 1)) for n in wshape]
        cval = float(rng.standard_normal())
        for ours, theirs in ((jn.correlate, sn.correlate), (jn.convolve, sn.convolve)):
            got = _eager_and_jit(lambda x: ours(x, w, mode=mode, cval=cval, origin=origin), x)
            want = theirs(x, w, mode=mode, cval=cval, origin=origin)
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("mode", ["grid-mirror", "grid-constant", "grid-wrap"])
def test_grid_modes(mode):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((5, 7))
    w = rng.standard_normal((3, 4))
    kw = dict(mode=mode, cval=0.5)
    np.testing.assert_allclose(
        jn.correlate(x, w, origin=(1, -1), **kw), sn.correlate(x, w, origin=(1, -1), **kw)
    )
    np.testing.assert_allclose(jn.gaussian_filter(x, 1.5, **kw), sn.gaussian_filter(x, 1.5, **kw))
    np.testing.assert_allclose(jn.uniform_filter(x, 4, **kw), sn.uniform_filter(x, 4, **kw))
    np.testing.assert_array_equal(jn.maximum_filter(x, 3, **kw), sn.maximum_filter(x, 3, **kw))
    np.testing.assert_array_equal(jn.median_filter(x, 3, **kw), sn.median_filter(x, 3, **kw))


def test_correlate_axes_and_complex():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 4, 6))
    w = rng.standard_normal((3, 2))
    for axes in [(0, 2), (2, 0), (-1, 1)]:
        got = jn.correlate(x, w, mode="mirror", origin=(0, -1), axes=axes)
        want = sn.correlate(x, w, mode="mirror", origin=(0, -1), axes=axes)
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
        got = jn.convolve(x, w, mode="wrap", axes=axes)
        np.testing.assert_allclose(got, sn.convolve(x, w, mode="wrap", axes=axes), rtol=1e-10)
    z = x + 1j * rng.standard_normal(x.shape)
    wc = rng.standard_normal((2, 3, 2)) + 1j * rng.standard_normal((2, 3, 2))
    for fn, ref in ((jn.correlate, sn.correlate), (jn.convolve, sn.convolve)):
        np.testing.assert_allclose(fn(z, wc, mode="nearest"), ref(z, wc, mode="nearest"))
        np.testing.assert_allclose(fn(x, wc, mode="reflect"), ref(x, wc, mode="reflect"))
        np.testing.assert_allclose(
            fn(z, wc.real, mode="constant", cval=1 + 2j),
            ref(z, wc.real, mode="constant", cval=1 + 2j),
        )
    w1 = wc[0, 0]
    np.testing.assert_allclose(jn.correlate1d(z, w1), sn.correlate1d(z, w1))
    np.testing.assert_allclose(jn.convolve1d(z, w1, axis=0), sn.convolve1d(z, w1, axis=0))


def test_per_axis_modes():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((5, 6, 3))
    modes = ["mirror", "constant", "wrap"]
    np.testing.assert_allclose(
        jn.uniform_filter(x, (3, 4, 5), mode=modes, cval=2.0, origin=(1, -2, 0)),
        sn.uniform_filter(x, (3, 4, 5), mode=modes, cval=2.0, origin=(1, -2, 0)),
        rtol=1e-10,
    )
    np.testing.assert_allclose(
        jn.gaussian_filter(x, (1.0, 0.5, 2.0), order=(1, 0, 2), mode=modes, cval=-1.0),
        sn.gaussian_filter(x, (1.0, 0.5, 2.0), order=(1, 0, 2), mode=modes, cval=-1.0),
        rtol=1e-10,
        atol=1e-12,
    )
    for fn in ("sobel", "prewitt"):
        np.testing.assert_allclose(
            getattr(jn, fn)(x, axis=1, mode=modes, cval=0.5),
            getattr(sn, fn)(x, axis=1, mode=modes, cval=0.5),
            rtol=1e-10,
        )
    np.testing.assert_allclose(
        jn.maximum_filter(x, (2, 3, 4), mode=modes, cval=0.1),
        sn.maximum_filter(x, (2, 3, 4), mode=modes, cval=0.1),
    )
    # scipy's correlate takes one mode; per axis, an outer-product kernel is two 1-D
    # correlations (with cval 0, the constant pad is 0 in both forms).
    want = sn.correlate1d(x, [1.0, 2.0, -1.0], 0, mode="mirror")
    want = sn.correlate1d(want, [0.5, 3.0], 1, mode="constant")
    got = jn.correlate(x, np.outer([1.0, 2.0, -1.0], [0.5, 3.0]), mode=modes[:2], axes=(0, 1))
    np.testing.assert_allclose(got, want, rtol=1e-10)


@pytest.mark.parametrize("mode", PAD_MODES)
def test_gaussian(mode):
    rng = np.random.default_rng(20 + PAD_MODES.index(mode))
    for _ in range(2):
        ndim = int(rng.integers(1, 4))
        x = rng.standard_normal(_shape(rng, ndim))
        sigma = [float(s) for s in rng.uniform(0.0, 2.5, ndim)]
        sigma[0] = max(sigma[0], 0.3)
        order = [int(o) for o in rng.integers(0, 4, ndim)]
        truncate = float(rng.uniform(1.0, 4.0))
        kw = dict(mode=mode, cval=0.7, truncate=truncate)
        got = _eager_and_jit(lambda x: jn.gaussian_filter(x, sigma, order, **kw), x)
        np.testing.assert_allclose(
            got, sn.gaussian_filter(x, sigma, order, **kw), rtol=1e-10, atol=1e-12
        )
        radius = [int(r) for r in rng.integers(0, 5, ndim)]
        np.testing.assert_allclose(
            jn.gaussian_filter(x, sigma, order, mode=mode, radius=radius),
            sn.gaussian_filter(x, sigma, order, mode=mode, radius=radius),
            rtol=1e-10,
            atol=1e-12,
        )
        axis = int(rng.integers(0, ndim))
        np.testing.assert_allclose(
            jn.gaussian_filter1d(x, sigma[0], axis, order[0], mode=mode, truncate=truncate),
            sn.gaussian_filter1d(x, sigma[0], axis, order[0], mode=mode, truncate=truncate),
            rtol=1e-10,
            atol=1e-12,
        )


@pytest.mark.parametrize("mode", PAD_MODES)
def test_derivative_filters(mode):
    rng = np.random.default_rng(30 + PAD_MODES.index(mode))
    x = rng.standard_normal((6, 5, 4))
    kw = dict(mode=mode, cval=0.25)
    for fn, axis in (("sobel", 0), ("prewitt", 2)):
        np.testing.assert_allclose(
            getattr(jn, fn)(x, axis, **kw), getattr(sn, fn)(x, axis, **kw), rtol=1e-10
        )
    np.testing.assert_allclose(jn.laplace(x, **kw), sn.laplace(x, **kw), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(
        jn.laplace(x, axes=(0, 2), **kw), sn.laplace(x, axes=(0, 2), **kw), rtol=1e-10
    )
    np.testing.assert_allclose(
        jn.gaussian_laplace(x, (1.0, 0.5, 1.5), **kw),
        sn.gaussian_laplace(x, (1.0, 0.5, 1.5), **kw),
        rtol=1e-9,
        atol=1e-12,
    )
    np.testing.assert_allclose(
        jn.gaussian_gradient_magnitude(x, 0.8, truncate=2.0, **kw),
        sn.gaussian_gradient_magnitude(x, 0.8, truncate=2.0, **kw),
        rtol=1e-9,
        atol=1e-12,
    )
    np.testing.assert_allclose(
        jn.gaussian_laplace(x, (1.0, 2.0), axes=(2, 0), **kw),
        sn.gaussian_laplace(x, (1.0, 2.0), axes=(2, 0), **kw),
        rtol=1e-9,
        atol=1e-12,
    )

    def d2(x, axis, output, mode, cval, w):
        return jn.correlate1d(x, w, axis, output, mode, cval)

    def d2_scipy(x, axis, output, mode, cval, w):
        return sn.correlate1d(x, w, axis, output, mode, cval)

    w = [1.0, -3.0, 2.0]
    np.testing.assert_allclose(
        jn.generic_laplace(x, d2, extra_arguments=(w,), axes=(1, 2), **kw),
        sn.generic_laplace(x, d2_scipy, extra_arguments=(w,), axes=(1, 2), **kw),
        rtol=1e-10,
    )
    np.testing.assert_allclose(
        jn.generic_gradient_magnitude(x, d2, extra_keywords={"w": w}, **kw),
        sn.generic_gradient_magnitude(x, d2_scipy, extra_keywords={"w": w}, **kw),
        rtol=1e-10,
    )


@pytest.mark.parametrize("mode", PAD_MODES)
def test_uniform(mode):
    rng = np.random.default_rng(40 + PAD_MODES.index(mode))
    for _ in range(3):
        ndim = int(rng.integers(1, 4))
        x = rng.standard_normal(_shape(rng, ndim))
        size = [int(s) for s in rng.integers(1, 8, ndim)]
        origin = [int(rng.integers(-(s // 2), (s - 1) // 2 + 1)) for s in size]
        kw = dict(mode=mode, cval=-0.5, origin=origin)
        got = _eager_and_jit(lambda x: jn.uniform_filter(x, size, **kw), x)
        np.testing.assert_allclose(got, sn.uniform_filter(x, size, **kw), rtol=1e-10)
        np.testing.assert_allclose(
            jn.uniform_filter1d(x, size[0], 0, mode=mode, cval=0.5, origin=origin[0]),
            sn.uniform_filter1d(x, size[0], 0, mode=mode, cval=0.5, origin=origin[0]),
            rtol=1e-10,
        )


@pytest.mark.parametrize("mode", PAD_MODES)
def test_minimum_maximum(mode):
    rng = np.random.default_rng(50 + PAD_MODES.index(mode))
    for _ in range(3):
        ndim = int(rng.integers(1, 4))
        x = rng.integers(-20, 20, _shape(rng, ndim)).astype(np.float64)
        size = [int(s) for s in rng.integers(1, 8, ndim)]
        origin = [int(rng.integers(-(s // 2), (s - 1) // 2 + 1)) for s in size]
        fp = rng.random(_shape(rng, ndim, small=True)) < 0.6
        fp.flat[0] = True
        fp_origin = [int(rng.integers(-(s // 2), (s - 1) // 2 + 1)) for s in fp.shape]
        kw = dict(mode=mode, cval=3.0)
        for ours, theirs in (
            (jn.minimum_filter, sn.minimum_filter),
            (jn.maximum_filter, sn.maximum_filter),
        ):
            got = _eager_and_jit(lambda x: ours(x, size, origin=origin, **kw), x)
            np.testing.assert_array_equal(got, theirs(x, size, origin=origin, **kw))
            got = _eager_and_jit(lambda x: ours(x, footprint=fp, origin=fp_origin, **kw), x)
            np.testing.assert_array_equal(got, theirs(x, footprint=fp, origin=fp_origin, **kw))
        axis = int(rng.integers(0, ndim))
        for ours, theirs in (
            (jn.minimum_filter1d, sn.minimum_filter1d),
            (jn.maximum_filter1d, sn.maximum_filter1d),
        ):
            np.testing.assert_array_equal(
                ours(x, size[0], axis, origin=origin[0], **kw),
                theirs(x, size[0], axis, origin=origin[0], **kw),
            )


@pytest.mark.parametrize("mode", PAD_MODES)
def test_rank_filters(mode):
    rng = np.random.default_rng(60 + PAD_MODES.index(mode))
    for _ in range(3):
        ndim = int(rng.integers(1, 4))
        x = rng.standard_normal(_shape(rng, ndim))
        size = [int(s) for s in rng.integers(1, 6 if ndim < 3 else 4, ndim)]
        origin = [int(rng.integers(-(s // 2), (s - 1) // 2 + 1)) for s in size]
        kw = dict(mode=mode, cval=0.5, origin=origin)
        got = _eager_and_jit(lambda x: jn.median_filter(x, size, **kw), x)
        np.testing.assert_array_equal(got, sn.median_filter(x, size, **kw))
        count = int(np.prod(size))
        rank = int(rng.integers(-count, count))
        np.testing.assert_array_equal(
            jn.rank_filter(x, rank, size, **kw), sn.rank_filter(x, rank, size, **kw)
        )
        pct = float(rng.uniform(-100, 100))
        np.testing.assert_array_equal(
            jn.percentile_filter(x, pct, size, **kw), sn.percentile_filter(x, pct, size, **kw)
        )
        fp = rng.random(_shape(rng, ndim, small=True)) < 0.6
        fp.flat[-1] = True
        np.testing.assert_array_equal(
            jn.median_filter(x, footprint=fp, mode=mode, cval=-0.5),
            sn.median_filter(x, footprint=fp, mode=mode, cval=-0.5),
        )


def test_median_sizes_and_sort_path():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((13, 12))
    for size in (2, 3, 4, 5, 6, 7, 8):
        np.testing.assert_array_equal(jn.median_filter(x, size), sn.median_filter(x, size))
    np.testing.assert_array_equal(
        jn.percentile_filter(x, 30, size=(5, 7)), sn.percentile_filter(x, 30, size=(5, 7))
    )
    xi = rng.integers(0, 255, (9, 10)).astype(np.uint8)
    np.testing.assert_array_equal(jn.median_filter(xi, 3), sn.median_filter(xi, 3))
    np.testing.assert_array_equal(
        jn.median_filter(xi, 3, axes=(1,)), sn.median_filter(xi, 3, axes=(1,))
    )


@EVERY_CASE  # --all: every one (tests/sampling.py)
@pytest.mark.parametrize("n", [2, 3, 5, 7, 9, 12])
def test_selection_networks_zero_one(n):
    # The 0-1 principle: a comparator network that selects rank r of every 0/1 input
    # selects it of every input.
    inputs = np.array(list(itertools.product([0, 1], repeat=n)), dtype=np.int8).T
    for rank in range(n):
        wires = list(inputs)
        for a, b, need_lo, need_hi in _networks._selection_network(n, rank):
            lo, hi = np.minimum(wires[a], wires[b]), np.maximum(wires[a], wires[b])
            wires[a] = lo if need_lo else None
            wires[b] = hi if need_hi else None
        np.testing.assert_array_equal(wires[rank], np.sort(inputs, axis=0)[rank])
    assert len([c for c in _networks._selection_network(9, 4) if c[2] and c[3]]) <= 19


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32])
def test_dtypes_and_output(dtype):
    rng = np.random.default_rng(8)
    # Small values: results outside the output dtype's range are implementation-defined
    # (C casts wrap, XLA's saturate).
    x = rng.integers(0, 20, (9, 8)).astype(dtype)
    for out in (None, "float64") if dtype == np.float32 else (None, np.int32):
        signed = dtype != np.uint8 or out is not None
        for fn, args in (
            ("gaussian_filter", (1.3,)),
            ("uniform_filter", (3,)),
            # Negative results cast to uint8 are implementation-defined in C and XLA.
            *((("sobel", ()), ("laplace", ())) if signed else ()),
            ("correlate", (np.array([[1, 2], [3, 4.5]]),)),
        ):
            got = np.asarray(getattr(jn, fn)(x, *args, output=out))
            want = getattr(sn, fn)(x, *args, output=out)
            assert got.dtype == want.dtype, (fn, out)
            if want.dtype.kind in "iu":
                # Truncation: a value within rounding of an integer may land either side.
                assert np.abs(got.astype(np.int64) - want.astype(np.int64)).max() <= 1
                assert (got == want).mean() > 0.95
            else:
                np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-4)
        np.testing.assert_array_equal(
            jn.maximum_filter(x, 3, output=out), sn.maximum_filter(x, 3, output=out)
        )
        np.testing.assert_array_equal(
            jn.median_filter(x, 3, output=out), sn.median_filter(x, 3, output=out)
        )


def test_float32_without_x64():
    rng = np.random.default_rng(9)
    x = rng.standard_normal((16, 12)).astype(np.float32)
    with enable_x64(False):
        got = jn.gaussian_filter(x, 2.0, mode="mirror")
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, sn.gaussian_filter(x, 2.0, mode="mirror"), atol=2e-6)
        got = jn.correlate(x, np.ones((3, 3)), output=np.float64)
        assert got.dtype == np.float32  # float64 is not available without x64
        got = jn.median_filter(x, 5)
        np.testing.assert_array_equal(got, sn.median_filter(x, 5))


def test_eager_jit_vmap_agree():
    rng = np.random.default_rng(10)
    xs = rng.standard_normal((3, 7, 6))
    for f in (
        lambda x: ndimage.gaussian_filter(x, 1.0, mode="wrap"),
        lambda x: ndimage.median_filter(x, 3, mode="nearest"),
        lambda x: ndimage.maximum_filter(x, footprint=np.eye(3), mode="mirror"),
        lambda x: ndimage.correlate(x, np.arange(6.0).reshape(2, 3), mode="constant", cval=2.0),
    ):
        eager = np.stack([f(x) for x in xs])
        # Under jit XLA fuses multiply-adds (FMA): equal to rounding, not bitwise.
        np.testing.assert_allclose(jax.jit(f)(xs[0]), eager[0], rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(jax.jit(jax.vmap(f))(xs), eager, rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(jax.vmap(f)(xs), eager, rtol=1e-13, atol=1e-14)


def test_vmap_of_grad_and_jvp():
    # The taps primitive's batching rule under its transpose and its JVP.
    rng = np.random.default_rng(13)
    xs = rng.standard_normal((3, 5, 4))

    def f(x):
        return jnp.sum(ndimage.correlate(x, np.arange(6.0).reshape(3, 2), mode="wrap") ** 2)

    grad = jax.jit(jax.grad(f))
    np.testing.assert_allclose(
        jax.jit(jax.vmap(jax.grad(f)))(xs), np.stack([grad(x) for x in xs]), rtol=1e-12
    )
    jvp = jax.jit(lambda x, t: jax.jvp(f, (x,), (t,))[1])
    np.testing.assert_allclose(
        jax.jit(jax.vmap(jvp))(xs, xs[::-1]),
        np.stack([jvp(x, t) for x, t in zip(xs, xs[::-1])]),
        rtol=1e-12,
    )


def test_cval_traced_and_differentiable():
    x = np.arange(5.0)

    def f(c):
        return ndimage.correlate1d(x, [1.0, 2.0, 3.0], mode="constant", cval=c).sum()

    got = jax.jit(f)(2.0)
    np.testing.assert_allclose(
        got, sn.correlate1d(x, [1.0, 2.0, 3.0], mode="constant", cval=2.0).sum()
    )
    # cval enters the first output by weight 1 and the last by weight 3.
    np.testing.assert_allclose(jax.grad(f)(2.0), 4.0)


@pytest.mark.parametrize("mode", PAD_MODES)
def test_gradients_linear(mode):
    # Every linear filter is a pad and static slices; the 2-D correlation (one pad of
    # both axes) and a separable filter (one pad per axis) cover both forms at order 2.
    rng = np.random.default_rng(70 + PAD_MODES.index(mode))
    x = rng.standard_normal((3, 4))
    w = rng.standard_normal((3, 2))

    # Jitted: check_grads then compiles each derivative once rather than running the
    # filters' ops one by one for every finite difference.
    @jax.jit
    def f(x):
        a = ndimage.correlate(x, w, mode=mode, cval=0.5, origin=(1, 0))
        b = ndimage.gaussian_filter(x, (1.5, 0.7), order=(0, 1), mode=mode)
        return a + b

    check_grads(f, (x,), order=2, modes=["fwd", "rev"], atol=1e-6, rtol=1e-6)

    @jax.jit
    def g(x):
        return (
            ndimage.convolve1d(x, [1.0, -2.0, 0.5, 3.0], 0, mode=mode)
            + ndimage.uniform_filter(x, (3, 6), mode=mode)
            + ndimage.sobel(x, 0, mode=mode)
            + ndimage.laplace(x, mode=mode)
        )

    check_grads(g, (x,), order=1, modes=["fwd", "rev"], atol=1e-6, rtol=1e-6)


@pytest.mark.parametrize("mode", PAD_MODES)
def test_gradient_matches_scipy_adjoint(mode):
    # The VJP of a linear filter is its transpose, whose matrix scipy gives column by
    # column (the filter of each basis vector).
    rng = np.random.default_rng(11)
    x = rng.standard_normal((5, 4))
    y = rng.standard_normal((5, 4))
    weights = rng.standard_normal((3, 2))
    cases = (
        (
            lambda x: ndimage.gaussian_filter(x, 1.2, mode=mode, cval=0.3),
            lambda e: sn.gaussian_filter(e, 1.2, mode=mode, cval=0.3),
        ),
        (
            lambda x: ndimage.correlate(x, weights, mode=mode, origin=(0, -1)),
            lambda e: sn.correlate(e, weights, mode=mode, origin=(0, -1)),
        ),
    )
    for ours, theirs in cases:
        # The filter is affine, f(e) = A e + f(0) (cval enters f(0) only), so scipy's
        # filters of the basis vectors minus f(0) are A's columns.
        offset = theirs(np.zeros(x.shape)).ravel()
        a = np.stack([theirs(e.reshape(x.shape)).ravel() - offset for e in np.eye(20)]).T
        _, vjp = jax.vjp(jax.jit(ours), x)
        np.testing.assert_allclose(vjp(y)[0].ravel(), a.T @ y.ravel(), rtol=1e-10, atol=1e-12)


def test_gradients_nonlinear():
    rng = np.random.default_rng(12)
    x = rng.permutation(12).reshape(3, 4).astype(np.float64)  # no ties
    # Order 1: away from ties the filters are locally linear (a selection of inputs).
    # The four filters as one program's four outputs: check_grads compares each
    # output's derivatives on its own, with one compile per derivative.
    check_grads(
        jax.jit(
            lambda x: (
                ndimage.maximum_filter(x, 3, mode="wrap"),
                ndimage.minimum_filter(x, footprint=np.tri(3), mode="mirror"),
                ndimage.median_filter(x, 3, mode="reflect"),
                ndimage.gaussian_gradient_magnitude(x, 1.0),
            )
        ),
        (x,),
        order=1,
        modes=["fwd", "rev"],
        atol=1e-6,
        rtol=1e-6,
    )
    # A maximum's gradient goes to the maximum: one-hot rows of the Jacobian.
    jac = jax.jit(jax.jacobian(lambda x: ndimage.maximum_filter(x, 3, mode="nearest")))(x)
    jac = jac.reshape(12, 12)
    assert set(np.unique(jac)) == {0.0, 1.0}
    assert (jac.sum(axis=1) == 1).all()


def test_output_array_rejected():
    with pytest.raises(TypeError, match=r"^jaxpad\.scipy\.ndimage\.gaussian_filter: output"):
        jn.gaussian_filter(np.ones(3), 1.0, output=np.zeros(3))


# Each mode compiles two programs, every filter in one (~1 s): the default run takes
# two of the modes.
@pytest.mark.subsample(2, cover=[])
@pytest.mark.parametrize("mode", PAD_MODES)
def test_max_gradient_tie_goes_first_row_major_as_reduce_window(mode):
    # Ties everywhere (a few integer values): the gradient of each output goes to the
    # first element of its window, in row-major order, equal to it, as
    # lax.reduce_window's (select_and_scatter_add with >=) does. The oracle: the same
    # filter as jnp.pad (scipy's mode) then lax.reduce_window.
    rng = np.random.default_rng(21)
    x = rng.integers(0, 3, (6, 7)).astype(np.float64)
    ct = rng.standard_normal((6, 7))
    np_mode = {"reflect": "symmetric", "constant": "constant", "nearest": "edge",
               "mirror": "reflect", "wrap": "wrap"}[mode]  # fmt: skip
    cases = list(itertools.product((False, True), ((3, 3), (2, 4), (1, 3))))

    def oracle(x, minimum, size):
        init, op = (np.inf, jax.lax.min) if minimum else (-np.inf, jax.lax.max)
        lo = [s // 2 for s in size]
        xp = jnp.pad(x, [(a, s - 1 - a) for a, s in zip(lo, size)], mode=np_mode)
        return jax.lax.reduce_window(xp, init, op, size, (1, 1), "VALID")

    def ours(x, minimum, size, footprint=False):
        name = "minimum_filter" if minimum else "maximum_filter"
        if footprint:
            # A footprint (all True) takes the one-pass form; the same rule.
            return getattr(ndimage, name)(x, footprint=np.ones(size, bool), mode=mode)
        return getattr(ndimage, name)(x, size, mode=mode)

    def values_and_vjps(f, x, t):
        # Every case in one program: one compile for the oracle, one for jaxpad's.
        out = []
        for case in cases:
            y, vjp = jax.vjp(lambda x, case=case: f(x, *case), x)
            out.append((y, vjp(t)[0]))
        return out

    want = jax.jit(values_and_vjps, static_argnums=0)(oracle, x, ct)
    got = jax.jit(values_and_vjps, static_argnums=0)(ours, x, ct)
    got_fp = jax.jit(values_and_vjps, static_argnums=0)(
        lambda x, *case: ours(x, *case, footprint=True), x, ct
    )
    for case, (y_want, g_want), (y, g), (y_fp, g_fp) in zip(cases, want, got, got_fp):
        np.testing.assert_array_equal(y, y_want, err_msg=str(case))
        np.testing.assert_array_equal(y_fp, y_want, err_msg=str(case))
        np.testing.assert_allclose(g, g_want, rtol=1e-13, atol=1e-13, err_msg=str(case))
        np.testing.assert_allclose(g_fp, g_want, rtol=1e-13, atol=1e-13, err_msg=str(case))


# Each mode compiles one program (~1 s): the default run takes two of them.
@pytest.mark.subsample(2, cover=[])
@pytest.mark.parametrize("mode", PAD_MODES)
def test_rank_gradient_one_hot_on_an_equal_element(mode):
    # With ties, each output's gradient is one-hot, on an element of its window equal
    # to the output: the first such in row-major order (the finite differences of
    # check_grads cannot see a tie; the one-hot Jacobian rows can).
    rng = np.random.default_rng(22)
    x = rng.integers(0, 3, (5, 4)).astype(np.float64)
    fp = np.array([[1, 0, 1], [1, 1, 0]], bool)
    filters = (
        lambda x: ndimage.median_filter(x, 3, mode=mode, cval=1.0),
        lambda x: ndimage.rank_filter(x, 1, footprint=fp, mode=mode, cval=1.0),
        lambda x: ndimage.percentile_filter(x, 70, size=(2, 3), mode=mode, cval=1.0),
        lambda x: ndimage.minimum_filter(x, footprint=fp, mode=mode, cval=1.0),
    )
    # Every filter's values and Jacobians (reverse and forward) in one program.
    results = jax.jit(lambda x: [(f(x), jax.jacrev(f)(x), jax.jacfwd(f)(x)) for f in filters])(x)
    for y, jac, fwd in results:
        y = np.asarray(y).ravel()
        jac = np.asarray(jac).reshape(20, 20)
        np.testing.assert_array_equal(jac, np.asarray(fwd).reshape(20, 20))
        for row, value in zip(jac, y):
            # In constant mode an output may come from cval (a zero row).
            assert row.sum() in (0.0, 1.0) and set(np.unique(row)) <= {0.0, 1.0}
            if row.sum() == 1:
                assert x.ravel()[row.argmax()] == value
            else:
                assert mode == "constant" and value == 1.0


def test_selection_gradients_under_vmap_and_in_cval():
    rng = np.random.default_rng(23)
    xs = rng.standard_normal((3, 5, 6))
    cvals = np.array([5.0, -5.0, 0.1])

    def f(x, c):
        return jnp.sum(
            ndimage.maximum_filter(x, (3, 2), mode="constant", cval=c) ** 2
            + ndimage.median_filter(x, 3, mode="constant", cval=c)
        )

    grad = jax.jit(jax.grad(f, argnums=(0, 1)))
    for batched_cval in (False, True):
        c_axis = 0 if batched_cval else None
        cs = cvals if batched_cval else cvals[0]
        got = jax.jit(jax.vmap(jax.grad(f, argnums=(0, 1)), in_axes=(0, c_axis)))(xs, cs)
        want = [grad(x, cvals[i] if batched_cval else cvals[0]) for i, x in enumerate(xs)]
        np.testing.assert_allclose(got[0], np.stack([w[0] for w in want]), rtol=1e-12)
        np.testing.assert_allclose(got[1], np.stack([w[1] for w in want]), rtol=1e-12)
    # A large cval is the maximum on the boundary: the value's gradient is the sum of
    # those outputs' cotangents (2 * y summed over the outputs equal to cval) plus the
    # median's outputs equal to cval.
    x = xs[0]
    y_max = np.asarray(jax.jit(lambda x: ndimage.maximum_filter(x, (3, 2), mode="constant",
                                                             cval=5.0))(x))  # fmt: skip
    y_med = np.asarray(jax.jit(lambda x: ndimage.median_filter(x, 3, mode="constant",
                                                            cval=5.0))(x))  # fmt: skip
    want_c = 2 * y_max[y_max == 5.0].sum() + (y_med == 5.0).sum()
    np.testing.assert_allclose(grad(x, 5.0)[1], want_c, rtol=1e-12)


def test_linear_gradients_batched_cval():
    # padded_taps batched in its pad value takes the composition (jaxpad.pad, taps).
    rng = np.random.default_rng(24)
    xs = rng.standard_normal((2, 4, 5))
    cs = np.array([0.5, -2.0])

    def f(x, c):
        return ndimage.correlate(x, np.arange(6.0).reshape(2, 3), mode="constant", cval=c)

    got = jax.jit(jax.vmap(f))(xs, cs)
    for x, c, g in zip(xs, cs, got):
        np.testing.assert_allclose(
            g,
            sn.correlate(x, np.arange(6.0).reshape(2, 3), mode="constant", cval=c),
            rtol=1e-12,
        )
    check_grads(jax.vmap(f), (xs, cs), order=2, modes=["fwd", "rev"], atol=1e-6, rtol=1e-6)


@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_traced_sigma(order):
    # A traced sigma with a static radius: the kernel is built in the program with
    # scipy's formula; values against scipy, d/dsigma against scipy's finite difference.
    rng = np.random.default_rng(25)
    x = rng.standard_normal((6, 7))
    ct = rng.standard_normal((6, 7))

    def ours(s):
        return ndimage.gaussian_filter(x, (s, 0.8 * s), order=(order, 0), radius=3,
                                       mode=("wrap", "reflect"))  # fmt: skip

    def theirs(s):
        return sn.gaussian_filter(x, (s, 0.8 * s), order=(order, 0), radius=3,
                                  mode=("wrap", "reflect"))  # fmt: skip

    np.testing.assert_allclose(jax.jit(ours)(1.3), theirs(1.3), rtol=1e-12, atol=1e-12)
    got = jax.jit(jax.grad(lambda s: jnp.sum(ours(s) * ct)))(1.3)
    h = 1e-6
    want = (np.sum(theirs(1.3 + h) * ct) - np.sum(theirs(1.3 - h) * ct)) / (2 * h)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
    # The other Gaussians take it too.
    np.testing.assert_allclose(
        jax.jit(lambda s: ndimage.gaussian_laplace(x, s, radius=2))(1.1),
        sn.gaussian_laplace(x, 1.1, radius=2),
        rtol=1e-12,
        atol=1e-12,
    )
    np.testing.assert_allclose(
        jax.jit(lambda s: ndimage.gaussian_filter1d(x, s, 0, order, radius=4))(0.9),
        sn.gaussian_filter1d(x, 0.9, 0, order, radius=4),
        rtol=1e-12,
        atol=1e-12,
    )


def test_traced_sigma_needs_a_radius():
    with pytest.raises(TypeError, match=r"^jaxpad\.scipy\.ndimage\.gaussian_filter: sigma is "):
        jax.jit(lambda s: ndimage.gaussian_filter(np.ones((3, 3)), s))(1.0)


def _primitives(f, *args):
    return [eqn.primitive.name for eqn in jax.make_jaxpr(f)(*args).eqns]


@pytest.mark.parametrize("mode", PAD_MODES)
def test_separable_padded_once(mode):
    # The separable filters in a mode that is an index map pad once (padded_passes),
    # the minor pass last; the constant modes pad each pass (scipy pads each
    # intermediate with cval). Checked against scipy where the frame fold compresses
    # (axes longer than twice the pad), in 2-D and 3-D, forward and VJP (the VJP by
    # <A x, y> = <x, A^T y>, A x from scipy).
    rng = np.random.default_rng(90 + PAD_MODES.index(mode))
    cases = (
        ((13, 11), lambda m: (lambda x: ndimage.gaussian_filter(x, 1.0, mode=m, cval=0.5)),
         lambda x, m: sn.gaussian_filter(x, 1.0, mode=m, cval=0.5)),
        ((7, 9, 8), lambda m: (lambda x: ndimage.uniform_filter(x, (3, 2, 4), mode=m)),
         lambda x, m: sn.uniform_filter(x, (3, 2, 4), mode=m)),
        ((12, 10), lambda m: (lambda x: ndimage.sobel(x, 0, mode=m)),
         lambda x, m: sn.sobel(x, 0, mode=m)),
    )  # fmt: skip
    for shape, ours, theirs in cases:
        x = rng.standard_normal(shape)
        y = rng.standard_normal(shape)
        f = ours(mode)
        names = _primitives(f, x)
        if mode == "constant":
            assert "jaxpad_scipy_padded_passes" not in names
        else:
            assert names.count("jaxpad_scipy_padded_passes") == 1
            assert "jaxpad_scipy_padded_taps" not in names
        np.testing.assert_allclose(jax.jit(f)(x), theirs(x, mode), rtol=1e-12, atol=1e-12)
        _, vjp = jax.vjp(jax.jit(f), x)
        a_x = theirs(x, mode) - theirs(np.zeros(shape), mode)  # the linear part
        np.testing.assert_allclose(np.vdot(vjp(y)[0], x), np.vdot(a_x, y), rtol=1e-10)


def test_separable_padded_once_batched_and_differentiable():
    # vmap moves the batch to a leading axis without a pass; a batched pad value
    # takes the composition; check_grads at order 2 through both.
    rng = np.random.default_rng(96)
    xs = rng.standard_normal((2, 11, 10))
    cs = np.array([0.5, -2.0])

    def f(x, c):
        return ndimage.gaussian_filter(x, (1.0, 0.6), mode="wrap", cval=c)

    got = jax.jit(jax.vmap(f))(xs, cs)
    for x, g in zip(xs, got):
        np.testing.assert_allclose(g, sn.gaussian_filter(x, (1.0, 0.6), mode="wrap"), rtol=1e-12)
    tol = dict(modes=["fwd", "rev"], atol=1e-6, rtol=1e-6)
    check_grads(jax.jit(jax.vmap(f)), (xs, cs), order=2, **tol)
    g = jax.jit(jax.vmap(lambda x: ndimage.uniform_filter(x, 3, mode="mirror")))
    np.testing.assert_allclose(
        g(xs), [sn.uniform_filter(x, 3, mode="mirror") for x in xs], rtol=1e-12
    )
    check_grads(g, (xs,), order=1, **tol)


def test_minor_axis_pad_written_once():
    # A 2-D separable filter writes the minor axis' pad once, one concatenate that the
    # minor pass reads through a flat view (_flat_pass): sliced along the minor axis,
    # XLA split that concatenate into one copy per tap, and XLA:CPU fused the first
    # pass into the second, evaluated once per tap (docs/scipy.md#performance).
    if jax.default_backend() != "cpu":
        pytest.skip("XLA:CPU's fusion decisions")
    # Before 0.7, XLA:CPU's programs call their fusions through parallel wrappers,
    # where the concatenates below sit outside the entry computation.
    skip_before_jax("0.7", "this reading of XLA:CPU's program")
    x = jnp.zeros((256, 256), jnp.float64)
    text = jax.jit(lambda x: ndimage.uniform_filter(x, 9)).lower(x).compile().as_text()
    entry = text.split("\nENTRY")[1]
    minor = [line for line in entry.splitlines() if "concatenate(" in line]
    minor = [line for line in minor if "dimensions={1}" in line]
    # One pad of the minor axis, of the first pass' result (rows not padded).
    assert len(minor) == 1, entry
    assert "f64[256,264]" in minor[0].split("concatenate(")[0], entry
    # A correlation with weights across the minor axis reads its pad the same way
    # (_flat_taps): one concatenate, of the whole padded array.
    weights = np.arange(9.0).reshape(3, 3)
    text = jax.jit(lambda x: ndimage.correlate(x, weights)).lower(x).compile().as_text()
    entry = text.split("\nENTRY")[1]
    minor = [line for line in entry.splitlines() if "concatenate(" in line]
    minor = [line for line in minor if "dimensions={1}" in line]
    assert len(minor) == 1, entry
    assert "f64[258,258]" in minor[0].split("concatenate(")[0], entry


@pytest.mark.parametrize("mode", PAD_MODES)
def test_laplace_one_cross_correlation(mode):
    # laplace of a floating array is one correlation with a cross of [1, -2, 1]s,
    # equal to scipy's sum of 1-D passes, per-axis modes and axes too.
    rng = np.random.default_rng(97 + PAD_MODES.index(mode))
    x = rng.standard_normal((6, 7))
    f = lambda x: ndimage.laplace(x, mode=mode, cval=0.7)  # noqa: E731
    assert _primitives(f, x).count("jaxpad_scipy_padded_taps") == 1
    np.testing.assert_allclose(jax.jit(f)(x), sn.laplace(x, mode=mode, cval=0.7), rtol=1e-12)
    x = rng.standard_normal((6, 7, 5))
    f = lambda x: ndimage.laplace(x, mode=mode, cval=0.7)  # noqa: E731
    assert _primitives(f, x).count("jaxpad_scipy_padded_taps") == 1
    np.testing.assert_allclose(jax.jit(f)(x), sn.laplace(x, mode=mode, cval=0.7), rtol=1e-12)
    # Past _CROSS_PAD_BYTES_MAX padded, the sum of 1-D passes (its temporaries would
    # be page-faulted in on every call; docs/scipy.md#performance).
    big = jax.ShapeDtypeStruct((128, 128, 128), jnp.float64)
    assert _primitives(f, big).count("jaxpad_scipy_padded_taps") == 3
    small = jax.ShapeDtypeStruct((128, 128, 128), jnp.float32)
    assert _primitives(f, small).count("jaxpad_scipy_padded_taps") == 1
    x = x[:, 0]
    modes = [mode, "wrap"]
    g = lambda x: ndimage.laplace(x, mode=modes, cval=0.7, axes=(1, 0))  # noqa: E731
    assert _primitives(g, x).count("jaxpad_scipy_padded_taps") == 1
    want = sn.laplace(x, mode=modes, cval=0.7, axes=(1, 0))
    np.testing.assert_allclose(jax.jit(g)(x), want, rtol=1e-12, atol=1e-12)
    check_grads(jax.jit(g), (x,), order=2, modes=["fwd", "rev"], atol=1e-6, rtol=1e-6)
    # An integer output casts each axis' term, as scipy does: the sum of passes.
    h = lambda x: ndimage.laplace(x, output=np.int32, mode=mode)  # noqa: E731
    assert _primitives(h, x).count("jaxpad_scipy_padded_taps") == 2
    np.testing.assert_array_equal(
        jax.jit(h)(x * 10), sn.laplace(x * 10, output=np.int32, mode=mode)
    )


def test_selection_index_written_once():
    # The tangent's index (which window element a min/max/rank filter selected) is
    # written to memory once, by one instruction (for a pass, a concatenate of two
    # halves of the minor axis; for a footprint, of two halves of the flat view of its
    # pad): XLA:CPU does not fuse either into the transpose, which reads it from memory
    # instead of evaluating it at each window read (docs/scipy.md#performance).
    if jax.default_backend() != "cpu":
        pytest.skip("XLA:CPU's fusion decisions")
    x = jnp.zeros((128, 128), jnp.float32)
    for f in (
        lambda x: ndimage.maximum_filter1d(x, 5, axis=0),
        lambda x: ndimage.median_filter(x, 3),
    ):
        vjp = jax.jit(lambda x, t, f=f: jax.vjp(f, x)[1](t)[0])
        entry = vjp.lower(x, x).compile().as_text().split("\nENTRY")[1]
        results = [line.split("=")[1].strip() for line in entry.splitlines() if "=" in line]
        shapes = [r[3:].split("]")[0] for r in results if r.startswith("s8[")]
        sizes = [int(np.prod([int(n) for n in s.split(",") if n])) for s in shapes]
        assert len([n for n in sizes if n >= x.size]) == 1, entry


def test_extreme_pass_index_on_its_own_pad():
    # A minimum/maximum pass' JVP carries the index of the selected element through
    # the doubling on the pass' own pad: no second, wider pad of the input (the index
    # over the output extended by the window took one, and the float64 VJP's
    # temporaries past glibc's mmap threshold; docs/scipy.md#performance).
    x = jnp.zeros((16, 16))
    for f in (
        lambda x: ndimage.maximum_filter1d(x, 5, axis=0),
        lambda x: ndimage.minimum_filter(x, (3, 4), mode="wrap"),
    ):
        jaxpr = jax.make_jaxpr(lambda x, t, f=f: jax.vjp(f, x)[1](t))(x, x)
        pads = [e.params for e in jaxpr.eqns if e.primitive.name == "jaxpad_pad"]
        assert pads, jaxpr
        for p in pads:
            # size - 1 in all (the extended index's pad took 3 * (size - 1))
            assert max(p["pads_begin"]) + max(p["pads_end"]) <= 4, jaxpr
    # The transpose of a pass along an outer axis reads the cotangent itself, not a
    # zero-padded copy of it (the former padded_select's transpose): the only taller array is
    # the pass' own pad of x (size - 1 more rows).
    if jax.default_backend() == "cpu":
        x = jnp.zeros((256, 256), jnp.float32)
        f = lambda x: ndimage.maximum_filter1d(x, 5, axis=0)  # noqa: E731
        vjp = jax.jit(lambda x, t: jax.vjp(f, x)[1](t)[0])
        entry = vjp.lower(x, x).compile().as_text().split("\nENTRY")[1]
        lines = [line for line in entry.splitlines() if "=" in line]
        shapes = [line.split("=")[1].split("{")[0].strip() for line in lines]
        rows = [int(s[4:].split(",")[0]) for s in shapes if s.startswith("f32[") and "," in s]
        assert max(rows) <= 256 + 4, entry


def test_small_extreme_minor_pass_pad_written_once(full_run):
    # A min/max pass of size <= 3 along the minor axis reads its pad through a flat
    # view: one concatenate, where XLA split the pad into a copy per read offset
    # (docs/scipy.md#performance).
    if jax.default_backend() != "cpu":
        pytest.skip("XLA:CPU's fusion decisions")
    skip_before_jax("0.7", "this reading of XLA:CPU's program")
    x = jnp.zeros((256, 256), jnp.float64)
    for size in (2, 3):
        text = jax.jit(lambda x, s=size: ndimage.maximum_filter(x, s)).lower(x).compile()
        entry = text.as_text().split("\nENTRY")[1]
        minor = [line for line in entry.splitlines() if "concatenate(" in line]
        minor = [line for line in minor if "dimensions={1}" in line]
        assert len(minor) == 1, entry
        assert f"f64[256,{255 + size}]" in minor[0].split("concatenate(")[0], entry
    # Along the other axes it reads x and padded strips of its ends: no buffer of the
    # padded array (XLA split that into a copy per read offset too).
    x = jnp.zeros((64, 64, 64), jnp.float32)
    entry = jax.jit(lambda x: ndimage.maximum_filter(x, 3)).lower(x).compile().as_text()
    lines = [line for line in entry.split("\nENTRY")[1].splitlines() if "=" in line]
    shapes = [line.split("=")[1].split("{")[0].strip() for line in lines]
    outer = [s[4:-1].split(",")[:2] for s in shapes if s.startswith("f32[") and s.count(",") == 2]
    assert all(int(d) <= 64 for dims in outer for d in dims), entry
    # Values against scipy in every mode, 1-D to 3-D, with an origin, and under vmap.
    # The default run takes one rank per mode, in turn (every rank, every mode, some
    # pairs); --all every pair.
    rng = np.random.default_rng(31)
    for m, mode in enumerate(MODES):
        shapes = ((7,), (7, 6), (6, 7, 5))
        for shape in shapes if full_run else shapes[m % 3 : m % 3 + 1]:
            x = rng.integers(0, 4, shape).astype(np.float64)
            for size, origin in ((2, 0), (3, 1), (3, -1), (2, -1)):
                got = jn.minimum_filter(x, size, mode=mode, cval=0.5, origin=origin)
                want = sn.minimum_filter(x, size, mode=mode, cval=0.5, origin=origin)
                np.testing.assert_array_equal(got, want)
    xs = rng.standard_normal((2, 5, 6))
    got = jax.jit(jax.vmap(lambda x: ndimage.maximum_filter(x, 3, mode="mirror")))(xs)
    np.testing.assert_array_equal(got, [sn.maximum_filter(x, 3, mode="mirror") for x in xs])


def test_first_pass_reads_x_not_its_pad(full_run):
    # A 2-D separable filter's first pass reads x and a padded strip of its first and
    # last rows (_edge_pass), not the padded array, which XLA split into one full copy
    # per group of taps (docs/scipy.md#performance).
    if jax.default_backend() != "cpu":
        pytest.skip("XLA:CPU's fusion decisions")
    skip_before_jax("0.7", "this reading of XLA:CPU's program")
    x = jnp.zeros((256, 256), jnp.float64)
    for f in (lambda x: ndimage.gaussian_filter(x, 1.0), lambda x: ndimage.uniform_filter(x, 3)):
        entry = jax.jit(f).lower(x).compile().as_text().split("\nENTRY")[1]
        shapes = [
            line.split("=")[1].split("{")[0].strip() for line in entry.splitlines() if "=" in line
        ]
        padded_rows = [s for s in shapes if s.startswith("f64[") and s.endswith(",256]")]
        assert all(int(s[4:].split(",")[0]) <= 256 for s in padded_rows), entry
        # The VJP's transpose of that pass reads the cotangent, not a zero-padded copy.
        vjp = jax.jit(lambda x, t, f=f: jax.vjp(f, x)[1](t)[0])
        entry = vjp.lower(x, x).compile().as_text().split("\nENTRY")[1]
        lines = [line for line in entry.splitlines() if "=" in line]
        shapes = [line.split("=")[1].split("{")[0].strip() for line in lines]
        padded_rows = [s for s in shapes if s.startswith("f64[") and s.endswith(",256]")]
        assert all(int(s[4:].split(",")[0]) <= 256 for s in padded_rows), entry
    # Values against scipy where the strip is taken (axes of at least twice the
    # filter): every mode, origins, per-axis modes; jit, vmap and the VJP's adjoint.
    # The default run takes two of the (size, origin) cases per mode, in turn.
    rng = np.random.default_rng(41)
    cases = ((3, 0), (4, 1), (2, -1), (5, -2))
    for m, mode in enumerate(MODES[:2] + MODES[4:]):  # the constant modes pad each pass
        x = rng.standard_normal((23, 19))
        for size, origin in cases if full_run else cases[m % 2 :: 2]:
            got = jn.uniform_filter(x, size, mode=mode, origin=origin)
            want = sn.uniform_filter(x, size, mode=mode, origin=origin)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        f = lambda x, m=mode: ndimage.gaussian_filter(x, (1.0, 0.7), mode=(m, "wrap"))  # noqa: E731
        want = sn.gaussian_filter(x, (1.0, 0.7), mode=(mode, "wrap"))
        np.testing.assert_allclose(jax.jit(f)(x), want, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(jax.jit(jax.vmap(f))(np.stack([x, 2 * x])), [want, 2 * want],
                                   rtol=1e-12, atol=1e-12)  # fmt: skip
        y = rng.standard_normal(x.shape)
        _, vjp = jax.vjp(jax.jit(f), x)
        np.testing.assert_allclose(np.vdot(vjp(y)[0], x), np.vdot(want, y), rtol=1e-10)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_three_passes_each_on_its_own_written_pad(dtype):
    # A separable filter of three passes pads each axis before its pass and writes
    # that pad to memory (an optimization barrier) before the multiply-adds read it,
    # on XLA:CPU (_AXIS_PASSES_MIN in jaxpad/scipy/_linear/_padded_passes.py); fused,
    # XLA:CPU evaluated the pad again at each tap (docs/performance.md). Two passes keep
    # their forms.
    if jax.default_backend() != "cpu":
        pytest.skip("an XLA:CPU lowering rule")
    x = np.random.default_rng(97).standard_normal((7, 9, 8)).astype(dtype)

    def lowered(f, *args):
        text = jax.jit(f).lower(*args).as_text()
        return text.count("stablehlo.optimization_barrier"), text

    n, text = lowered(lambda x: ndimage.gaussian_filter(x, 1.0), x)
    assert n == 3 and "convolution" not in text, text
    assert lowered(lambda x: ndimage.gaussian_filter(x, 1.0, axes=(0, 2)), x)[0] == 0
    # In the compiled program each axis' pad (4 before, 4 after) is written once,
    # whole; fused, XLA split each into partial copies.
    entry = jax.jit(lambda x: ndimage.gaussian_filter(x, 1.0)).lower(x).compile().as_text()
    written = [line.split("=")[1].split("{")[0].strip() for line in
               entry.split("\nENTRY")[1].splitlines() if " = " in line]  # fmt: skip
    kind = np.dtype(dtype).name.replace("float", "f")
    for shape in ("15,9,8", "7,17,8", "7,9,16"):
        assert written.count(f"{kind}[{shape}]") == 1, (shape, written)
    # Its transpose: each transposed pass on its own written pad, each axis folded
    # (no scatter-add).
    _, pullback = jax.vjp(ndimage.uniform_filter, x)
    n, text = lowered(pullback, x)
    assert n >= 3 and "scatter" not in text, text
    # Values and the VJP's adjoint against scipy (every mode, vmap, eager and
    # check_grads at order 2: the test below, under --all).
    f = jax.jit(lambda x: ndimage.gaussian_filter(x, (1.0, 0.6, 1.4), mode="mirror"))
    want = sn.gaussian_filter(x, (1.0, 0.6, 1.4), mode="mirror")
    tol = 1e-12 if dtype == np.float64 else 1e-5
    np.testing.assert_allclose(f(x), want, rtol=tol, atol=tol)
    y = np.random.default_rng(96).standard_normal(x.shape).astype(dtype)
    np.testing.assert_allclose(np.vdot(jax.vjp(f, x)[1](y)[0], x), np.vdot(want, y), rtol=tol * 100)


def test_three_passes_slab_by_slab_on_large_arrays():
    # Past 15 MiB (_SLAB_BYTES in jaxpad/scipy/_linear/_padded_passes.py) the passes after the first
    # run slab by slab along its axis, forward and VJP: whole, a pad and the pass
    # before it were two full-size temporaries live at once, past glibc's 32 MiB mmap
    # threshold (page-faulted on every call).
    if jax.default_backend() != "cpu":
        pytest.skip("an XLA:CPU lowering rule")
    x = np.random.default_rng(95).standard_normal((131, 67, 250))  # 17.5 MiB
    ct = np.random.default_rng(94).standard_normal(x.shape)
    f = lambda v: ndimage.uniform_filter(  # noqa: E731
        v, (9, 4, 5), mode=("wrap", "nearest", "mirror"), origin=(1, -1, 0)
    )
    pullback = lambda v, t: jax.vjp(f, v)[1](t)[0]  # noqa: E731
    for fn, args in ((f, (x,)), (pullback, (x, ct))):
        compiled = jax.jit(fn).lower(*args).compile()
        assert " while(" in compiled.as_text()
        memory = compiled.memory_analysis()
        if memory is not None:
            assert memory.temp_size_in_bytes < 30 << 20, memory.temp_size_in_bytes
    want = sn.uniform_filter(x, (9, 4, 5), mode=("wrap", "nearest", "mirror"), origin=(1, -1, 0))
    np.testing.assert_allclose(jax.jit(f)(x), want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.vdot(jax.jit(pullback)(x, ct), x), np.vdot(want, ct), rtol=1e-10)
    # A first pass of 21 taps or more transposes slab by slab too, along the second
    # pass' axis (_SLAB_FIRST_LOOP_TAPS_MIN): two loops.
    h = lambda v: ndimage.gaussian_filter(v, (3.0, 1.0, 0.5), mode="mirror")  # noqa: E731
    pullback = jax.jit(lambda v, t: jax.vjp(h, v)[1](t)[0])
    assert pullback.lower(x, ct).compile().as_text().count(" while(") == 2
    want = sn.gaussian_filter(x, (3.0, 1.0, 0.5), mode="mirror")
    np.testing.assert_allclose(np.vdot(pullback(x, ct), x), np.vdot(want, ct), rtol=1e-10)
    # Under vmap the batch axis leads and the slabs run along the first pass' axis.
    g = lambda v: ndimage.gaussian_filter(v, 1.0, mode="reflect")  # noqa: E731
    batch = np.stack([x[:70], -x[:70]])  # 9.4 MiB each
    np.testing.assert_allclose(jax.jit(jax.vmap(g))(batch)[1], -sn.gaussian_filter(x[:70], 1.0),
                               rtol=1e-12, atol=1e-12)  # fmt: skip


def test_slab_forms_keep_off_axes_past_2_31():
    # The slab loops' starts are int32: along an axis of 2**31 rows or more they would
    # wrap and be clamped onto another slab, so those arrays keep the whole forms
    # (lowered, not run).
    x = jax.ShapeDtypeStruct((2**31 + 8, 2, 2), jnp.float32)
    for fn in (
        lambda v: ndimage.gaussian_filter(v, 1.0),
        lambda v: jax.vjp(lambda u: ndimage.uniform_filter(u, 3), v)[1](v)[0],
        lambda v: ndimage.maximum_filter(v, 3),
    ):
        assert "stablehlo.while" not in jax.jit(fn).lower(x).as_text()
    # Just below, the slab loop is taken.
    x = jax.ShapeDtypeStruct((2**20, 2, 2), jnp.float32)
    lowered = jax.jit(lambda v: ndimage.gaussian_filter(v, 1.0)).lower(x)
    assert "stablehlo.while" in lowered.as_text()


def test_long_2d_passes_transpose_over_the_zero_padded_cotangent():
    # Two passes of 21 taps or more transpose over the whole zero-padded cotangent,
    # then fold the frame (_FULL_PASSES_TAPS_MIN in jaxpad/scipy/_linear/_padded_passes.py);
    # the band form's strips were as long as the taps (docs/performance.md).
    x = np.random.default_rng(93).standard_normal((64, 61))
    ct = np.random.default_rng(92).standard_normal(x.shape)
    if jax.default_backend() == "cpu":
        pullback = jax.vjp(lambda v: ndimage.gaussian_filter(v, 3.0), x)[1]
        entry = jax.jit(pullback).lower(ct).compile().as_text().split("\nENTRY")[1]
        assert "f64[112,109]" in entry, entry  # ct zero-padded by 24 on each side
    # (constant and grid-constant pad each pass: no padded_passes)
    for mode in ("reflect", "mirror", "wrap", "nearest"):
        f = jax.jit(lambda v, m=mode: ndimage.gaussian_filter(v, (3.0, 2.6), mode=m))
        want = sn.gaussian_filter(x, (3.0, 2.6), mode=mode)
        np.testing.assert_allclose(f(x), want, rtol=1e-12, atol=1e-12)
        got = jax.jit(lambda v, t, f=f: jax.vjp(f, v)[1](t)[0])(x, ct)
        np.testing.assert_allclose(np.vdot(got, x), np.vdot(want, ct), rtol=1e-10)
    check_grads(f, (x[:20, :30],), order=2, modes=["fwd", "rev"], atol=1e-6, rtol=1e-6)


def test_min_max_windows_of_4_keep_temporaries_under_the_mmap_threshold():
    # A window of 4 (two doublings) split its minor-axis pad into two concatenates:
    # 32 MiB of temporaries in float64 at 1024x1024, past glibc's 32 MiB mmap
    # threshold, page-faulted on every call; through the flat view, as sizes 2-3
    # (_FLAT_EXTREME_MAX in jaxpad/scipy/_selection/_filters.py), 16 MiB.
    if jax.default_backend() != "cpu":
        pytest.skip("XLA:CPU's program")
    x = jnp.zeros((1024, 1024), jnp.float64)
    for size in (3, 4, 5):
        fn = lambda v, s=size: ndimage.maximum_filter(v, s)  # noqa: E731
        memory = jax.jit(fn).lower(x).compile().memory_analysis()
        if memory is not None:
            assert memory.temp_size_in_bytes < 24 << 20, (size, memory.temp_size_in_bytes)
    # Values: scipy's, in every mode and origin (test_filters_against_scipy and the
    # ported suite); here the flat view's row ends, along each axis.
    x = np.random.default_rng(99).standard_normal((9, 11))
    for axis in (0, 1):
        for mode in ("reflect", "wrap", "constant"):
            want = sn.minimum_filter1d(x, 4, axis=axis, mode=mode, cval=0.5, origin=-1)
            got = ndimage.minimum_filter1d(x, 4, axis=axis, mode=mode, cval=0.5, origin=-1)
            np.testing.assert_array_equal(got, want)


@pytest.mark.slow
@ONE_MODE_PER_PAD
@pytest.mark.parametrize("mode", MODES)
def test_float64_three_passes_values_and_gradients(mode):
    # Against scipy in every mode (the constant ones pad each pass), origins, per-axis
    # modes, an axis shorter than the filter; jit, vmap and eager equal; check_grads
    # at order 2 as test_gradients_linear.
    rng = np.random.default_rng(98 + MODES.index(mode))
    cases = (
        (lambda x: ndimage.gaussian_filter(x, 1.0, mode=mode, cval=0.5),
         lambda x: sn.gaussian_filter(x, 1.0, mode=mode, cval=0.5)),
        (lambda x: ndimage.uniform_filter(x, (3, 2, 4), mode=(mode, "wrap", mode),
                                          origin=(1, 0, -1)),
         lambda x: sn.uniform_filter(x, (3, 2, 4), mode=(mode, "wrap", mode),
                                     origin=(1, 0, -1))),
    )  # fmt: skip
    xs = [rng.standard_normal(shape) for shape in ((7, 9, 8), (2, 6, 3))]

    def every_case(xs):
        # Every shape and filter, and each under vmap, in one program: one compile.
        return [(ours(x), jax.vmap(ours)(jnp.stack([x, -x]))) for x in xs for ours, _ in cases]

    got = jax.jit(every_case)(xs)
    for (x, (_, theirs)), (y, batched) in zip(itertools.product(xs, cases), got):
        want = theirs(x)
        np.testing.assert_allclose(y, want, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(batched, [want, theirs(-x)], rtol=1e-12, atol=1e-12)
    x = xs[-1]
    ours, theirs = cases[-1]
    np.testing.assert_allclose(ours(x), theirs(x), rtol=1e-12, atol=1e-12)  # eager
    f = jax.jit(lambda x: ndimage.gaussian_filter(x, 0.7, mode=mode, cval=0.5))
    check_grads(f, (x,), order=2, modes=["fwd", "rev"], atol=1e-6, rtol=1e-6)


# The band form of padded_taps (jaxpad/scipy/_linear/_padded_taps.py, _band_taps and
# _band_transpose): x read through its flat view, the bands near each padded end from
# strips.
_NUMPY_PADS = {
    "reflect": "symmetric",
    "grid-mirror": "symmetric",
    "constant": "constant",
    "grid-constant": "constant",
    "nearest": "edge",
    "mirror": "reflect",
    "wrap": "wrap",
    "grid-wrap": "wrap",
}


def _jnp_correlate(x, w, mode, cval, origin):
    """The correlation as jnp.pad and one slice per weight (the VJP's oracle)."""
    begins = [n // 2 + o for n, o in zip(w.shape, origin)]
    pads = [(b, n - 1 - b) for n, b in zip(w.shape, begins)]
    if _NUMPY_PADS[mode] == "constant":
        # x - cval padded with zeros, plus cval: jax.grad of jnp.pad in its
        # constant_values raises in jax 0.10.2.
        xp = jnp.pad(x - cval, pads) + cval
    else:
        xp = jnp.pad(x, pads, mode=_NUMPY_PADS[mode])
    out = 0.0
    for index in np.ndindex(*w.shape):
        window = tuple(slice(i, i + n) for i, n in zip(index, x.shape))
        out = out + w[index] * xp[window]
    return out


@pytest.mark.slow  # 5-16 s a case; pytest --all (CI) runs it
@ONE_MODE_PER_PAD
@pytest.mark.parametrize("mode", MODES)
def test_band_form_values_and_gradients(mode, monkeypatch):
    from jaxpad.scipy._linear import _padded_taps, _taps

    # Forced on small arrays (its rule takes it from 2**17 elements).
    monkeypatch.setattr(_padded_taps, "_BAND_MIN_SIZE", 0)
    monkeypatch.setattr(_padded_taps, "_BAND_STRIP_SHARE_MAX", float("inf"))
    rng = np.random.default_rng(200 + MODES.index(mode))
    cases = [
        ((23, 25), (3, 3)),
        ((24, 26), (2, 5)),
        ((26, 27), (4, 1)),
        ((21, 22), (1, 3)),
        ((17, 18, 19), (3, 2, 3)),
        ((17, 16, 18), (3, 1, 1)),
        ((17, 16, 18), (1, 1, 2)),
    ]
    drawn = []
    for shape, kshape in cases:
        x = rng.standard_normal(shape)
        w = rng.standard_normal(kshape)
        origin = [int(rng.integers(-(n // 2), (n - 1) // 2 + 1)) for n in kshape]
        begins = [n // 2 + o for n, o in zip(kshape, origin)]
        ends = [n - 1 - b for n, b in zip(kshape, begins)]
        assert _padded_taps._band_taken(shape, _taps._key(w), begins, ends, shape, transpose=True)
        drawn.append((x, w, origin, rng.standard_normal(shape)))

    def values_and_vjps(correlate, xs, cts):
        # Every case in one program: one compile for jaxpad's, one for the oracle's.
        out = []
        for x, ct, (_, w, o, _) in zip(xs, cts, drawn):
            y, pull = jax.vjp(lambda x, w=w, o=o: correlate(x, w, mode, 0.5, o), x)
            out.append((y, pull(ct)[0]))
        return out

    def ours(x, w, mode, cval, origin):
        return ndimage.correlate(x, w, None, mode, cval, origin)

    xs, cts = [d[0] for d in drawn], [d[3] for d in drawn]
    got = jax.jit(values_and_vjps, static_argnums=0)(ours, xs, cts)
    oracle = jax.jit(values_and_vjps, static_argnums=0)(_jnp_correlate, xs, cts)
    for (x, w, origin, _), (y, g), (_, g_want) in zip(drawn, got, oracle):
        want = sn.correlate(x, w, mode=mode, cval=0.5, origin=origin)
        np.testing.assert_allclose(y, want, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(g, g_want, rtol=1e-12, atol=1e-12)
    # cval's gradient (the constant modes keep the fold for it), and order 2.
    x = rng.standard_normal((23, 25))
    w = rng.standard_normal((3, 3))
    g = jax.jit(jax.grad(lambda c: jnp.sum(ndimage.correlate(x, w, mode=mode, cval=c) ** 2)))(0.5)
    want = jax.jit(jax.grad(lambda c: jnp.sum(_jnp_correlate(x, w, mode, c, [0, 0]) ** 2)))(0.5)
    np.testing.assert_allclose(g, want, rtol=1e-10, atol=1e-10)
    f = jax.jit(lambda x: ndimage.correlate(x, w, mode=mode, cval=0.5))
    check_grads(f, (x,), order=2, modes=["fwd", "rev"], atol=1e-6, rtol=1e-6)
    # vmap: a batch axis in front (the forward's weights then 3-D, with a 1 in front).
    xs = np.stack([x, -2 * x])
    np.testing.assert_allclose(
        jax.vmap(f)(xs), [sn.correlate(v, w, mode=mode, cval=0.5) for v in xs], rtol=1e-12
    )


@EVERY_CASE  # --all: every one (tests/sampling.py)
@pytest.mark.parametrize("mode", ["reflect", "wrap", "constant"])
def test_band_form_default_rule(mode):
    from jaxpad.scipy._linear import _padded_taps, _taps

    # At its own threshold: a 3x3 correlation of 2**17 elements or more in 2-D, and
    # laplace's per-axis transposes in 3-D; values against scipy and the VJP as the
    # adjoint of scipy's filter.
    rng = np.random.default_rng(210)
    x = rng.standard_normal((384, 390))
    w = rng.standard_normal((3, 3))
    assert _padded_taps._band_taken(x.shape, _taps._key(w), [1, 1], [1, 1], x.shape)
    f = jax.jit(lambda x: ndimage.correlate(x, w, mode=mode, cval=0.5))
    want = sn.correlate(x, w, mode=mode, cval=0.5)
    np.testing.assert_allclose(f(x), want, rtol=1e-12, atol=1e-12)
    y = rng.standard_normal(x.shape)
    linear = sn.correlate(x, w, mode=mode, cval=0.0)
    # Each VJP one jitted program (eagerly, a compile per primitive).
    g = jax.jit(
        lambda x, y: jax.vjp(lambda x: ndimage.correlate(x, w, mode=mode, cval=0.0), x)[1](y)[0]
    )(x, y)
    np.testing.assert_allclose(np.vdot(g, x), np.vdot(linear, y), rtol=1e-10)
    x3 = rng.standard_normal((120, 121, 122))
    w3 = np.array([1.0, -2.0, 1.0]).reshape(3, 1, 1)
    assert _padded_taps._band_taken(x3.shape, _taps._key(w3), [1, 0, 0], [1, 0, 0], x3.shape, True)
    y3 = rng.standard_normal(x3.shape)
    g3 = jax.jit(lambda x, y: jax.vjp(lambda x: ndimage.laplace(x, mode=mode), x)[1](y)[0])(x3, y3)
    np.testing.assert_allclose(np.vdot(g3, x3), np.vdot(sn.laplace(x3, mode=mode), y3), rtol=1e-10)


@ONE_MODE_PER_PAD
@pytest.mark.parametrize("mode", MODES)
def test_band_form_separable_vjp(mode, monkeypatch):
    from jaxpad.scipy._linear import _padded_passes, _padded_taps

    # The 2-D separable filters' transpose in the band form (_band_passes_transpose),
    # forced on small arrays: the VJP as the adjoint of scipy's filter, against the
    # transpose with the fold (_padded_passes_fold), and check_grads at order 2.
    monkeypatch.setattr(_padded_taps, "_BAND_MIN_SIZE", 0)
    monkeypatch.setattr(_padded_passes, "_BAND_PASSES_SHARE_MAX", float("inf"))
    rng = np.random.default_rng(220 + MODES.index(mode))
    cases = (
        (lambda x: ndimage.uniform_filter(x, 3, mode=mode, cval=0.5),
         lambda x: sn.uniform_filter(x, 3, mode=mode, cval=0.5)),
        (lambda x: ndimage.uniform_filter(x, (4, 2), mode=mode, origin=(1, -1)),
         lambda x: sn.uniform_filter(x, (4, 2), mode=mode, origin=(1, -1))),
        (lambda x: ndimage.gaussian_filter(x, 1.0, mode=mode),
         lambda x: sn.gaussian_filter(x, 1.0, mode=mode)),
        (lambda x: ndimage.sobel(x, 1, mode=mode), lambda x: sn.sobel(x, 1, mode=mode)),
        (lambda x: ndimage.uniform_filter1d(x, 3, 0, mode=mode),
         lambda x: sn.uniform_filter1d(x, 3, 0, mode=mode)),
    )  # fmt: skip
    for ours, theirs in cases:
        x = rng.standard_normal((31, 33))
        y = rng.standard_normal(x.shape)
        f = jax.jit(ours)
        g = jax.vjp(f, x)[1](y)[0]
        np.testing.assert_allclose(
            np.vdot(g, x), np.vdot(theirs(x) - theirs(np.zeros_like(x)), y), rtol=1e-10
        )
        with monkeypatch.context() as m:
            m.setattr(_padded_passes, "_BAND_PASSES_NDIMS", ())
            folded = jax.vjp(jax.jit(lambda x, f=ours: f(x)), x)[1](y)[0]
        np.testing.assert_allclose(g, folded, rtol=1e-12, atol=1e-12)
    check_grads(f, (x,), order=2, modes=["fwd", "rev"], atol=1e-6, rtol=1e-6)
