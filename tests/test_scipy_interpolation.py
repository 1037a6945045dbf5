"""jaxpad.scipy.ndimage's spline interpolation (map_coordinates, spline_filter1d,
spline_filter) against scipy.ndimage itself: every order and mode, 1-3-D, coordinates
inside, on and far outside the grid, float32 and float64, complex and integer outputs;
gradients by check_grads and finite differences; eager, jit and vmap equal."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

from jaxpad.scipy import ndimage
from jaxpad.scipy._interpolation import _spline
from tests.compat import enable_x64
from tests.sampling import ROTATE_LISTS

# Compared with their oracles where a rounding decides (a point on a tie or an edge):
# CI compiles them as users' programs are (tests/conftest.py, --xla-defaults).
pytestmark = [pytest.mark.xla_defaults, ROTATE_LISTS]

sn = pytest.importorskip("scipy.ndimage")

MODES = [
    "constant",
    "grid-constant",
    "nearest",
    "mirror",
    "reflect",
    "grid-mirror",
    "wrap",
    "grid-wrap",
]
ORDERS = list(range(6))
# scipy 1.17's prefilter in reflect/grid-mirror starts its causal pass from a sum
# that aliases on lines shorter than about 2 / log10(1 / |pole|) periods (scipy PR
# #24615, after 1.17); jaxpad's coefficients are the exact ones, so those modes are
# compared on lines of at least this many samples (scipy's error there: pole ** 2n,
# 2e-11 at order 4 on lines of 12).
_REFLECT_MIN = 12
_REFLECT_MIN_FLOAT64 = 20


@functools.cache
def _jitted(order, mode, prefilter=True, output=None):
    def f(x, c, cval):
        return ndimage.map_coordinates(
            x, c, order=order, mode=mode, cval=cval, prefilter=prefilter, output=output
        )

    return jax.jit(f)


def _jit(function, **static):
    """The public function jitted with its static arguments bound: one compile per case
    (eager dispatch compiles each of the prefilter's and the taps' many ops apart)."""
    return jax.jit(functools.partial(function, **static))


def _shape(rng, ndim, mode, order, reflect_min=_REFLECT_MIN):
    low = reflect_min if mode in ("reflect", "grid-mirror") and order > 1 else 1
    return tuple(int(n) for n in rng.integers(low, low + 9, ndim))


def _coordinates(rng, shape, points):
    """Inside, on the grid's points and half points, at the edges, and far outside."""
    rows = []
    for n in shape:
        parts = [
            rng.uniform(-0.5, n - 0.5, points),
            rng.integers(-2 * n - 2, 3 * n + 2, points) / 2.0,
            rng.uniform(-4 * n - 9, 5 * n + 9, points),
            np.array([0.0, n - 1.0, -0.5, n - 0.5, -1.0, float(n), -1e-7, n - 1 + 1e-6]),
        ]
        rows.append(np.concatenate([p[rng.permutation(len(p))] for p in parts]))
    size = min(len(r) for r in rows)
    return np.stack([r[:size] for r in rows])


def _range(x):
    return float(np.ptp(x)) or 1.0


# every mode, order and ndim in 8 cases (a compile each)
@pytest.mark.subsample(8, all_keep=0.07)
@pytest.mark.parametrize("ndim", [1, 2, 3])
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("mode", MODES)
def test_map_coordinates_float32(mode, order, ndim):
    rng = np.random.default_rng([ORDERS.index(order), MODES.index(mode), ndim])
    shape = _shape(rng, ndim, mode, order)
    x = rng.standard_normal(shape).astype(np.float32)
    c = _coordinates(rng, shape, 12).astype(np.float32)
    want = sn.map_coordinates(
        x.astype(np.float64), c.astype(np.float64), order=order, mode=mode, cval=0.7
    )
    got = _jitted(order, mode)(x, c, 0.7)
    assert got.dtype == np.float32
    # Random samples are the prefilter's worst case (its coefficients reach 7.5x the
    # range per axis at order 5); smooth images stay within 1e-6 of the range. The test
    # runs compile without LLVM's optimizations (tests/conftest.py), which round more:
    # over every case, at most 5.2e-6 of the range (wrap, order 5, a (1, 2) image; 2.2e-6
    # compiled as users' programs are), against 3.8e-6 for the next worst.
    tol = (1e-6 if order < 4 else 2e-6 if order < 5 else 6e-6) * _range(x)
    np.testing.assert_allclose(got, want, rtol=0, atol=tol)


# every mode, order and ndim in 8 cases (a compile each)
@pytest.mark.subsample(8, all_keep=0.07)
@pytest.mark.parametrize("ndim", [1, 2, 3])
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("mode", MODES)
def test_map_coordinates_float64(mode, order, ndim):
    rng = np.random.default_rng([ORDERS.index(order), MODES.index(mode), ndim, 64])
    shape = _shape(rng, ndim, mode, order, _REFLECT_MIN_FLOAT64)
    x = rng.standard_normal(shape)
    c = _coordinates(rng, shape, 12)
    want = sn.map_coordinates(x, c, order=order, mode=mode, cval=-1.5)
    with enable_x64(True):
        got = _jitted(order, mode)(x, c, -1.5)
        assert got.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * _range(x))


@pytest.mark.parametrize("mode", MODES)
def test_smooth_image_float32_within_1e6_of_range(mode):
    """The target: float32 within 1e-6 of the input's range, every order, on a smooth
    image (a random warp inside and around the grid)."""
    rng = np.random.default_rng(MODES.index(mode))
    i, j = np.meshgrid(np.arange(24), np.arange(20), indexing="ij")
    x = (np.sin(i / 3.0) * np.cos(j / 4.0) + 0.1 * i).astype(np.float32)
    c = (np.stack([i, j]) + rng.uniform(-3, 3, (2, 24, 20))).astype(np.float32)
    for order in ORDERS:
        want = sn.map_coordinates(
            x.astype(np.float64), c.astype(np.float64), order=order, mode=mode
        )
        got = _jitted(order, mode)(x, c, 0.0)
        np.testing.assert_allclose(
            got, want, rtol=0, atol=1e-6 * _range(x), err_msg=f"order {order}"
        )


@pytest.mark.parametrize("mode", MODES)
def test_far_and_nonfinite_coordinates(mode):
    """Coordinates far outside follow the mode's arithmetic (1e30 wraps without
    overflow); nan gives cval where scipy's comparisons do, nan where scipy's result
    is undefined; inf gives cval in constant and nan elsewhere."""
    x = np.arange(1.0, 8.0, dtype=np.float32)
    n = len(x)
    period = {
        "mirror": 2 * n - 2,
        "reflect": 2 * n,
        "grid-mirror": 2 * n,
        "grid-wrap": n,
        "wrap": n - 1,
    }
    for order in (0, 1, 3, 5):
        f = _jitted(order, mode)
        if mode in period:
            p = period[mode]
            # 1e30 is a multiple of 2**k: its remainder by the period, exactly
            far = np.float32(1e30)
            rem = float(np.fmod(np.float64(far), p))
            near = np.float32(rem if rem <= n - 1 else rem - p)
            got = f(x, np.array([[far, 3 * p + 2.25]], np.float32), -5.0)
            want = sn.map_coordinates(
                x.astype(np.float64), [[near, 2.25]], order=order, mode=mode, cval=-5.0
            )
            np.testing.assert_allclose(got, want, rtol=0, atol=2e-6 * n)
        got = np.asarray(f(x, np.array([[np.nan, np.inf, -np.inf, 2.5]], np.float32), -5.0))
        want_last = sn.map_coordinates(
            x.astype(np.float64), [[2.5]], order=order, mode=mode, cval=-5.0
        )
        np.testing.assert_allclose(got[3], want_last[0], rtol=1e-6)
        if mode == "constant":
            np.testing.assert_array_equal(got[:3], [-5.0] * 3)
        elif mode in ("nearest", "grid-constant"):
            assert np.isnan(got[:3]).all()
        else:
            assert got[0] == -5.0 and np.isnan(got[1:3]).all()
    # a nan on one axis of a 2-D point reads nothing else
    x2 = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    got = _jitted(3, mode)(x2, np.array([[np.nan, 1.0], [1.0, 1.5]], np.float32), 0.0)
    assert np.isfinite(got[1])


@pytest.mark.parametrize("mode", MODES)
def test_derivatives_at_nonfinite_coordinates_reach_no_other_point(mode):
    """A nan or infinite coordinate's derivatives are zero and leave every other
    point's alone (no ``0 * nan`` in the transposes): the gradients in the input and
    the coordinates equal those with the non-finite coordinates replaced by finite
    ones, both read through the same mask, orders 0 and 1 (whose reads skip the
    select of finite coordinates) and 3; under ``jit``, eagerly, and for concrete
    coordinates (the input's gradient)."""
    rng = np.random.default_rng(MODES.index(mode) + 70)
    x = jnp.asarray(rng.standard_normal((5, 6)), jnp.float32)
    c = rng.uniform(-12.0, 20.0, (2, 9)).astype(np.float32)
    c[0, 1], c[1, 2], c[0, 4], c[1, 4], c[1, 7] = np.nan, np.inf, -np.inf, np.nan, np.nan
    keep = np.isfinite(c).all(axis=0)
    replaced = np.where(np.isfinite(c), c, 1.25).astype(np.float32)
    for order in (0, 1, 3):

        def loss(x, c, order=order):
            value = ndimage.map_coordinates(x, c, order=order, mode=mode, cval=0.5)
            return jnp.sum(jnp.where(keep, value, 0.0) ** 2)

        grads = jax.grad(loss, argnums=(0, 1))
        want_x, want_c = jax.jit(grads)(x, replaced)
        cases = {"jit": jax.jit(grads)(x, c)}
        if order < 3:
            cases["eager"] = grads(x, c)
            cases["concrete"] = (jax.grad(loss)(x, c), want_c)
        for name, (gx, gc) in cases.items():
            msg = f"order {order}, {name}"
            np.testing.assert_allclose(gx, want_x, rtol=1e-5, atol=1e-5, err_msg=msg)
            np.testing.assert_allclose(gc, want_c, rtol=1e-5, atol=1e-5, err_msg=msg)


@pytest.mark.parametrize("mode", MODES)
def test_spline_filter(mode):
    rng = np.random.default_rng(MODES.index(mode))
    x = rng.standard_normal((_REFLECT_MIN_FLOAT64 + 1, _REFLECT_MIN_FLOAT64 + 3))
    # two of the orders 2-5 a mode, each order in four modes (a compile per order,
    # function and axis: all four orders took 7-9 s a mode under --all)
    i = MODES.index(mode)
    with enable_x64(True):
        for order in (2 + i % 4, 2 + (i + 2) % 4):
            np.testing.assert_allclose(
                _jit(ndimage.spline_filter, order=order, mode=mode)(x),
                sn.spline_filter(x, order, mode=mode),
                rtol=0,
                atol=1e-11,  # coefficients reach 50 at order 5 in 2-D
            )
            for axis in (0, -1):
                np.testing.assert_allclose(
                    _jit(ndimage.spline_filter1d, order=order, axis=axis, mode=mode)(x),
                    sn.spline_filter1d(x, order, axis=axis, mode=mode),
                    rtol=0,
                    atol=1e-11,  # coefficients reach 50 at order 5 in 2-D
                )
    got = _jit(ndimage.spline_filter, order=5, mode=mode)(x.astype(np.float32))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, sn.spline_filter(x, 5, mode=mode), rtol=0, atol=3e-6 * 7.5**2)


def test_spline_filter_short_lines_and_orders_0_1():
    x = np.array([[1.0, 2.0, 4.0]])
    with enable_x64(True):
        # lines of one sample stay, as scipy's (NI_SplineFilter1D: len > 1)
        np.testing.assert_allclose(
            _jit(ndimage.spline_filter, order=3)(x), sn.spline_filter(x, 3), atol=1e-12
        )
        for n in (2, 3, 5):
            y = np.arange(float(n)) ** 2
            for mode in ("mirror", "grid-wrap", "wrap", "constant"):
                np.testing.assert_allclose(
                    _jit(ndimage.spline_filter1d, order=5, mode=mode)(y),
                    sn.spline_filter1d(y, 5, mode=mode),
                    atol=1e-12,
                )
        for order in (0, 1):
            np.testing.assert_array_equal(ndimage.spline_filter1d(x, order), x)
            np.testing.assert_array_equal(ndimage.spline_filter(x, order), x)


def test_spline_filter_vjp_is_one_correlation_of_the_padded_cotangent():
    # The prefilter's transpose: one correlation of the zero-padded cotangent, then the
    # fold of the mode's pad. Left to JAX, each tap's slice transposed to a zero pad of
    # the whole array (43 pads for order 5 in float32: the VJP took 125x the forward).
    x = jnp.ones((30, 20), jnp.float32)
    _, pull = jax.vjp(lambda x: ndimage.spline_filter1d(x, order=5, axis=0), x)
    names = [eqn.primitive.name for eqn in jax.make_jaxpr(pull)(x).jaxpr.eqns]
    assert sorted(names) == ["jaxpad_fold", "jaxpad_scipy_taps", "pad"], names


def test_fir_taps_reach_the_dtype_rounding():
    """The dropped taps sum below half the dtype's epsilon; one tap fewer would not."""
    for order in range(2, 6):
        for dtype in ("float32", "float64"):
            taps = _spline.fir_taps(order, dtype)
            longer = _spline.fir_taps(order, "float64") if dtype == "float32" else None
            eps = np.finfo(dtype).eps
            if longer is not None:
                assert 2 * np.abs(longer[len(taps) :]).sum() < eps * 1.01
                assert 2 * np.abs(longer[len(taps) - 1 :]).sum() > eps / 2


# bool is left out: scipy stores (npy_bool)t, a C cast to unsigned char that truncates
# (0.5 -> False) and is undefined past 255; jaxpad stores t != 0.
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32])
def test_integer_outputs_round_as_scipy(dtype):
    rng = np.random.default_rng(3)
    x = rng.uniform(-300, 300, (9, 8))
    c = _coordinates(rng, x.shape, 10)
    with enable_x64(True):
        for order in (0, 1, 3):
            want = sn.map_coordinates(x, c, order=order, mode="mirror", output=dtype)
            got = _jit(ndimage.map_coordinates, order=order, mode="mirror", output=dtype)(x, c)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
    # halves round away from zero, past the range saturate
    x = np.array([-2.5, -0.5, 0.5, 1.5, 2.5, 1e6, -1e6], np.float32)
    c = np.arange(7, dtype=np.float32)[None]
    for out in (np.int8, np.uint8, np.int32):
        want = sn.map_coordinates(x.astype(np.float64), c.astype(np.float64), order=1, output=out)
        np.testing.assert_array_equal(ndimage.map_coordinates(x, c, order=1, output=out), want)


def test_integer_input_and_complex():
    rng = np.random.default_rng(5)
    xi = rng.integers(0, 255, (14, 13)).astype(np.uint8)
    c = _coordinates(rng, xi.shape, 10)
    with enable_x64(True):
        for mode in ("nearest", "wrap"):
            want = sn.map_coordinates(xi, c, order=3, mode=mode)
            got = _jit(ndimage.map_coordinates, order=3, mode=mode)(xi, c)
            assert got.dtype == np.uint8
            np.testing.assert_array_equal(got, want)
        xc = rng.standard_normal((13, 14)) + 1j * rng.standard_normal((13, 14))
        for mode in ("constant", "grid-constant", "grid-wrap"):
            want = sn.map_coordinates(xc, c, order=3, mode=mode, cval=0.5 - 2j)
            got = _jit(ndimage.map_coordinates, order=3, mode=mode, cval=0.5 - 2j)(xc, c)
            assert got.dtype == np.complex128
            np.testing.assert_allclose(got, want, atol=1e-12)
    got = ndimage.map_coordinates(
        xc.astype(np.complex64), c.astype(np.float32), order=2, mode="mirror"
    )
    assert got.dtype == np.complex64
    want = sn.map_coordinates(xc, c, order=2, mode="mirror")
    np.testing.assert_allclose(got, want, atol=1e-5)


def test_prefilter_false_reads_the_coefficients():
    rng = np.random.default_rng(6)
    x = rng.standard_normal((12, 13))
    c = _coordinates(rng, x.shape, 8)
    with enable_x64(True):
        for mode in ("nearest", "grid-constant", "mirror", "wrap"):
            want = sn.map_coordinates(x, c, order=3, mode=mode, prefilter=False, cval=2.0)
            got = _jit(ndimage.map_coordinates, order=3, mode=mode, prefilter=False, cval=2.0)(x, c)
            np.testing.assert_allclose(got, want, atol=1e-12)


def test_eager_jit_vmap_agree():
    rng = np.random.default_rng(7)
    xs = rng.standard_normal((3, 10, 11)).astype(np.float32)
    cs = rng.uniform(-3, 14, (3, 2, 5, 4)).astype(np.float32)
    f = functools.partial(ndimage.map_coordinates, order=3, mode="reflect")
    eager = np.stack([f(x, c) for x, c in zip(xs, cs)])
    np.testing.assert_allclose(jax.jit(jax.vmap(f))(xs, cs), eager, atol=1e-6)
    # over images with one coordinate set, and over coordinate sets on one image
    np.testing.assert_allclose(
        jax.vmap(f, (0, None))(xs, cs[0]), np.stack([f(x, cs[0]) for x in xs]), atol=1e-6
    )
    np.testing.assert_allclose(
        jax.vmap(f, (None, 0))(xs[0], cs), np.stack([f(xs[0], c) for c in cs]), atol=1e-6
    )


# -- derivatives --------------------------------------------------------------------


def _grads_args(mode, order):
    rng = np.random.default_rng([order, MODES.index(mode)])
    # 2-D at order 3 (the tensor product's cross derivatives), lines at orders 4-5
    # (the modes act axis by axis; 36 taps' order-2 programs took 15 s a case)
    shape = (4, 5) if order == 3 else (6,)
    x = jnp.asarray(rng.standard_normal(shape))
    # away from the kinks of the mode (the edges of constant, wrap's jump, the folds
    # of the mirrors): inside the grid, off the sample points
    c = jnp.asarray(rng.uniform(0.2, 2.8, (len(shape), 5)) + 0.013)
    # On the coefficients (prefilter=False): the order-2 programs through the float64
    # prefilter (up to 46 taps a side) took a minute each to compile; the prefilter is
    # linear in x, and its derivative is the adjoint test's below.
    f = jax.jit(
        lambda x, c, v: ndimage.map_coordinates(
            x, c, order=order, mode=mode, cval=v, prefilter=False
        )
    )
    return f, (x, c, jnp.asarray(0.4))


# every mode at first order, the orders 3-5 among them (second order took 4-10 s a
# case: one case below)
@pytest.mark.subsample(len(MODES))  # every case, every run
@pytest.mark.parametrize(
    "mode, order", [(m, 3 + i % 3) for i, m in enumerate(MODES)], ids=lambda v: str(v)
)
def test_check_grads(mode, order):
    with enable_x64(True):
        f, args = _grads_args(mode, order)
        check_grads(f, args, order=1, modes=("fwd", "rev"))


def test_check_grads_order_2():
    """Second order on one case: 2-D, the tensor product's cross derivatives."""
    mode, order = "grid-constant", 3
    with enable_x64(True):
        f, args = _grads_args(mode, order)
        check_grads(f, args, order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("order", [1, 2])
def test_check_grads_low_orders(order):
    rng = np.random.default_rng(order)
    with enable_x64(True):
        x = jnp.asarray(rng.standard_normal((5, 6)))
        c = jnp.asarray(rng.uniform(0.2, 3.8, (2, 7)) + 0.013)
        f = _jit(ndimage.map_coordinates, order=order, mode="mirror")
        check_grads(f, (x, c), order=1, modes=("fwd", "rev"), eps=1e-4)


@pytest.mark.parametrize("mode", MODES)
def test_coordinate_gradient_beyond_the_edge(mode):
    """The coordinate gradient is the spline's derivative at and beyond the edge too
    (central differences, points away from the kinks)."""
    rng = np.random.default_rng(MODES.index(mode) + 40)
    with enable_x64(True):
        x = jnp.asarray(rng.standard_normal(14))
        pts = np.array([-7.3, -2.61, -0.77, 3.3, 12.21, 13.6, 15.7, 30.1])
        f = _jit(ndimage.map_coordinates, order=3, mode=mode, cval=0.3)
        g = jax.jit(jax.vmap(jax.grad(lambda p: f(x, p[None, None])[0])))(jnp.asarray(pts))
        h = 1e-6
        fd = (f(x, (pts + h)[None]) - f(x, (pts - h)[None])) / (2 * h)
        np.testing.assert_allclose(g, fd, atol=1e-6)


def test_jacfwd_and_input_gradient_is_the_adjoint():
    """jacfwd over the input is the linear map itself: column k is the map of e_k."""
    rng = np.random.default_rng(9)
    with enable_x64(True):
        x = jnp.asarray(rng.standard_normal((6, 5)))
        c = jnp.asarray(rng.uniform(-3, 9, (2, 4)))
        f = functools.partial(ndimage.map_coordinates, order=5, mode="grid-wrap")
        jac = jax.jit(jax.jacfwd(f))(x, c).reshape(4, -1)
        eye = np.eye(30).reshape(30, 6, 5)
        cols = np.stack(
            [sn.map_coordinates(e, np.asarray(c), order=5, mode="grid-wrap") for e in eye], 1
        )
        np.testing.assert_allclose(jac, cols, atol=1e-12)
        vjp = jax.jit(lambda x: jax.vjp(lambda x: f(x, c), x)[1](jnp.ones(4))[0])(x)
        np.testing.assert_allclose(vjp.ravel(), cols.sum(0), atol=1e-12)
        jc = jax.jit(jax.jacfwd(f, argnums=1))(x, c)
        assert jc.shape == (4, 2, 4)


def test_cval_gradient():
    x = jnp.arange(12.0).reshape(3, 4)
    c = jnp.array([[0.5, -2.0, 1.0], [0.5, 1.0, 9.0]])
    for mode in ("constant", "grid-constant"):
        f = jax.jit(lambda v: ndimage.map_coordinates(x, c, order=3, mode=mode, cval=v).sum())  # noqa: B023
        g = jax.jit(jax.grad(f))(1.0)
        eps = 1e-2
        np.testing.assert_allclose(g, (f(1.0 + eps) - f(1.0 - eps)) / (2 * eps), rtol=1e-3)


@pytest.mark.parametrize("mode, order", [("nearest", 3), ("grid-constant", 4)])
def test_coordinates_computed_in_the_same_program(mode, order):
    """Coordinates computed from iota in the jitted program that reads them (XLA
    recomputes them in each fusion, contracted into FMAs in some): scipy's values, not
    taps a sample away from their weights (float32: off by 0.2 of the range). LLVM
    contracts only with its optimizations on: --all (XLA's defaults) reads the bug,
    the default run's flags hide it."""
    i, j = np.meshgrid(np.arange(13), np.arange(16), indexing="ij")
    x = (np.sin(i / 3.0) * np.cos(j / 4.0) + 0.1 * i).astype(np.float32)
    m = np.array([[1.1, 0.3], [-0.2, 0.9]], np.float32)
    off = np.array([-3.0, 2.0], np.float32)

    def coordinates(o, dtype, matrix=m):
        # scipy's affine_transform order: the offset, then a column at a time
        c = jnp.broadcast_to(jnp.asarray(off, dtype)[:, None], (2, o.shape[1]))
        for col in range(2):
            c = c + jnp.asarray(matrix[:, col : col + 1], dtype) * o[col]
        return c

    def f(a, matrix=m):
        o = jnp.stack([jax.lax.broadcasted_iota(jnp.float32, (15, 11), k).ravel() for k in (0, 1)])
        return ndimage.map_coordinates(
            a, coordinates(o, jnp.float32, matrix), order=order, mode=mode
        )

    o = np.indices((15, 11), dtype=np.float64).reshape(2, -1)
    with enable_x64(True):
        c = np.asarray(coordinates(o, jnp.float64))
    want = sn.map_coordinates(x.astype(np.float64), c, order=order, mode=mode)
    np.testing.assert_allclose(jax.jit(f)(x), want, rtol=0, atol=2e-6 * _range(x))
    # vmap over coordinate sets (the matrix batched): the guard is bound on the batch
    matrices = jnp.stack([m, m])
    for got in jax.jit(jax.vmap(f, in_axes=(None, 0)))(x, matrices):
        np.testing.assert_allclose(got, want, rtol=0, atol=2e-6 * _range(x))


def test_coordinates_are_guarded_by_a_conditional_xla_keeps():
    """The guard against recomputed coordinates (``_once``) is an XLA:CPU conditional:
    if a release of XLA folded it away, the FMA test above would fail only where
    LLVM contracts; this reads the compiled program on every run."""
    f = jax.jit(lambda x, c: ndimage.map_coordinates(x, c * 2.0 + 1.0, order=3, mode="wrap"))
    text = f.lower(jnp.zeros((8, 8)), jnp.zeros((2, 5))).compile().as_text()
    assert " conditional(" in text
    batched = jax.jit(jax.vmap(f, in_axes=(None, 0)))
    text = batched.lower(jnp.zeros((8, 8)), jnp.zeros((3, 2, 5))).compile().as_text()
    assert " conditional(" in text
    # Other platforms read a conditional's predicate on the host: a scatter there.
    args = jnp.zeros((8, 8)), jnp.zeros((2, 5))
    cuda = jax.export.export(f, platforms=("cuda",))(*args).mlir_module()
    assert "stablehlo.scatter" in cuda and "stablehlo.case" not in cuda
    # the coordinates' scatter only: the prefiltered coefficients are written once on
    # XLA:CPU alone (measured there), read as they come elsewhere
    assert cuda.count('"stablehlo.scatter"') == 1
    cpu = jax.export.export(f, platforms=("cpu",))(*args).mlir_module()
    assert "stablehlo.case" in cpu and "stablehlo.scatter" not in cpu
    # a symbolic number of points exports on both, and so does the VJP (whose
    # transpose goes over chunks of a static number of points only)
    (b,) = jax.export.symbolic_shape("b")
    symbolic = jnp.zeros((8, 8)), jax.ShapeDtypeStruct((2, b), jnp.float32)
    vjp = jax.jit(lambda x, c, t: jax.vjp(lambda a: f(a, c), x)[1](t))
    for platform in ("cpu", "cuda"):
        jax.export.export(f, platforms=(platform,))(*symbolic)
        jax.export.export(vjp, platforms=(platform,))(
            *symbolic, jax.ShapeDtypeStruct((b,), jnp.float32)
        )


def test_more_than_2_to_the_31_points_lower():
    # Lowered, not run: the points' count past int32 (the coordinates' guard off CPU,
    # a scatter, would index them with int32: an OverflowError while tracing).
    f = jax.jit(lambda x, c: ndimage.map_coordinates(x, c, order=1, mode="wrap"))
    points = jax.ShapeDtypeStruct((2, 2**31 + 8), jnp.float32)
    text = f.lower(jax.ShapeDtypeStruct((4, 4), jnp.float32), points).as_text()
    assert "2147483656" in text
    # the VJP too, in one pass: its chunks' starts would pass int32
    n = 2**31 + 2**20

    def vjp(x, c, t):
        return jax.vjp(lambda a: ndimage.map_coordinates(a, c, order=3, mode="wrap"), x)[1](t)

    args = [(4, 4), (2, n), (n,)]
    text = jax.jit(vjp).lower(*[jax.ShapeDtypeStruct(s, jnp.float32) for s in args]).as_text()
    assert "stablehlo.while" not in text and "stablehlo.scatter" in text


# jaxpad_spline_read: map_coordinates' read of each point's window ---------------------


def _read_case(ndim, size, points=40, seed=0):
    from jaxpad.scipy._interpolation import _read

    rng = np.random.default_rng(seed)
    shape = (9, 8, 7)[:ndim]
    coef = jnp.asarray(rng.standard_normal(shape), jnp.float32)
    index = jnp.asarray(np.stack([rng.integers(0, n - size + 1, points) for n in shape]), jnp.int32)
    weights = [jnp.asarray(rng.random((size, points)), jnp.float32) for _ in range(ndim)]
    return _read, coef, index, weights


@pytest.mark.parametrize("ndim, size", [(1, 4), (2, 4), (2, 1), (3, 3)])
def test_spline_read_derivatives_are_jax_s_of_its_gathers(ndim, size):
    # The primitive against JAX's autodiff of the same gathers (the plain function its
    # forward lowers to): the VJPs in the coefficients, with an inf in the cotangent,
    # and in each axis's weights, forward mode, and the batched forms.
    _read, coef, index, weights = _read_case(ndim, size)

    def ours(c, *w):
        return _read.read_p.bind(c, index, *w, orders=(None,) * ndim, derivatives=(0,) * ndim)

    def plain(c, *w):
        return _read._taps_flat(c, index, w)

    np.testing.assert_allclose(ours(coef, *weights), plain(coef, *weights), rtol=1e-5, atol=1e-6)
    # the form of coefficients past 2**31 elements: one gather of each window, also
    # with one axis's tap fixed (the weights' transpose)
    np.testing.assert_allclose(
        _read._taps_window(coef, index, weights), plain(coef, *weights), rtol=1e-5, atol=1e-6
    )
    for axis in range(ndim):
        np.testing.assert_allclose(
            _read._taps_window(coef, index, weights, fixed=(axis, size - 1)),
            _read._taps_flat(coef, index, weights, fixed=(axis, size - 1)),
            rtol=1e-5,
            atol=1e-6,
        )
    ct = np.random.default_rng(1).standard_normal(index.shape[1]).astype(np.float32)
    got = jax.vjp(ours, coef, *weights)[1](jnp.asarray(ct))
    want = jax.vjp(plain, coef, *weights)[1](jnp.asarray(ct))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    # an inf in the cotangent reaches the coefficients its products reach
    ct[3] = np.inf
    (got,) = jax.vjp(lambda c: ours(c, *weights), coef)[1](jnp.asarray(ct))
    (want,) = jax.vjp(lambda c: plain(c, *weights), coef)[1](jnp.asarray(ct))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    assert np.isinf(got).any()
    finite = np.isfinite(want)
    np.testing.assert_allclose(np.asarray(got)[finite], np.asarray(want)[finite], rtol=1e-5)
    tangents = [jnp.ones_like(coef)] + [jnp.full_like(w, 0.5) for w in weights]
    np.testing.assert_allclose(
        jax.jvp(ours, (coef, *weights), tuple(tangents))[1],
        jax.jvp(plain, (coef, *weights), tuple(tangents))[1],
        rtol=1e-5,
    )
    # vmap over the coefficients, over the weights, and both
    coefs = jnp.stack([coef, 2 * coef, -coef])
    batched_w = [jnp.stack([w, w[:, ::-1], 1 - w]) for w in weights]
    for in_axes, args in [
        ((0,) + (None,) * ndim, (coefs, *weights)),
        ((None,) + (0,) * ndim, (coef, *batched_w)),
        ((0,) * (ndim + 1), (coefs, *batched_w)),
    ]:
        got = jax.vmap(jax.grad(lambda *a: jnp.sum(jnp.sin(ours(*a)))), in_axes)(*args)
        want = jax.vmap(jax.grad(lambda *a: jnp.sum(jnp.sin(plain(*a)))), in_axes)(*args)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_spline_read_taylor_series_is_its_gathers():
    from jax.experimental.jet import jet

    _read, coef, index, weights = _read_case(2, 4)
    series = ([coef, -coef, 0.5 * coef], [[w, w * w, -w] for w in weights])

    def run(f):
        return jet(
            lambda c, w0, w1: jnp.sin(f(c, w0, w1)),
            (coef, *weights),
            (series[0], *series[1]),
        )

    params = dict(orders=(None, None), derivatives=(0, 0))
    ours = run(lambda c, *w: _read.read_p.bind(c, index, *w, **params))
    want = run(lambda c, *w: _read._taps_flat(c, index, w))
    np.testing.assert_allclose(ours[0], want[0], rtol=1e-5, atol=1e-5)
    for got, expected in zip(ours[1], want[1]):
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


def _fraction_case(ndim, order, points=40, seed=0):
    from jaxpad.scipy._interpolation import _read, _spline

    rng = np.random.default_rng(seed)
    shape = (9, 8, 7)[:ndim]
    coef = jnp.asarray(rng.standard_normal(shape), jnp.float32)
    index = jnp.asarray(np.stack([rng.integers(0, n - order, points) for n in shape]), jnp.int32)
    # odd orders' fractions lie in [0, 1], even orders' in [-1/2, 1/2]
    low = -0.5 if order % 2 == 0 else 0.0
    fracs = [jnp.asarray(rng.uniform(low, low + 1, points), jnp.float32) for _ in shape]
    params = dict(orders=(order,) * ndim, derivatives=(0,) * ndim)

    def ours(c, *f):
        return _read.read_p.bind(c, index, *f, **params)

    def plain(c, *f):
        return _read._taps_flat(c, index, [jnp.stack(_spline.weights(t, order)) for t in f])

    return _read, coef, fracs, ours, plain


# two of the four cases a run (they rotate with the commit; check_grads of order 2
# through map_coordinates' fractions is test_check_grads_order_2's)
@pytest.mark.subsample(2)
@pytest.mark.parametrize("ndim, order", [(1, 5), (2, 3), (2, 2), (3, 1)])
def test_spline_read_of_fractions_is_jax_s_of_its_gathers(ndim, order):
    # The read weighting by the spline at each point's fraction (map_coordinates'
    # traced coordinates) against JAX's autodiff of the same gathers with the weights
    # computed outside: value, VJPs, JVP, second derivatives, batching.
    _, coef, fracs, ours, plain = _fraction_case(ndim, order)
    np.testing.assert_allclose(ours(coef, *fracs), plain(coef, *fracs), rtol=1e-5, atol=1e-6)
    ct = jnp.asarray(np.random.default_rng(1).standard_normal(fracs[0].shape), jnp.float32)
    got = jax.vjp(ours, coef, *fracs)[1](ct)
    want = jax.vjp(plain, coef, *fracs)[1](ct)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)
    tangents = (jnp.ones_like(coef), *[jnp.full_like(f, 0.5) for f in fracs])
    np.testing.assert_allclose(
        jax.jvp(ours, (coef, *fracs), tangents)[1],
        jax.jvp(plain, (coef, *fracs), tangents)[1],
        rtol=1e-4,
        atol=1e-5,
    )

    def second(f):  # d/dfrac of the VJP in coef and in the fractions
        def loss(*a):
            return jnp.sum(jnp.sin(f(*a)) * ct)

        return jax.grad(lambda *a: jnp.sum(jax.grad(loss, (0, 1))(*a)[1] ** 2), (0, 1))

    for g, w in zip(second(ours)(coef, *fracs), second(plain)(coef, *fracs)):
        np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-4)
    coefs = jnp.stack([coef, 2 * coef, -coef])
    batched = [jnp.stack([f, f[::-1], 0.5 * f]) for f in fracs]
    for in_axes, args in [
        ((0,) + (None,) * ndim, (coefs, *fracs)),
        ((None,) + (0,) * ndim, (coef, *batched)),
        ((0,) * (ndim + 1), (coefs, *batched)),
    ]:
        got = jax.vmap(jax.grad(lambda *a: jnp.sum(jnp.sin(ours(*a))), (0, 1)), in_axes)(*args)
        want = jax.vmap(jax.grad(lambda *a: jnp.sum(jnp.sin(plain(*a))), (0, 1)), in_axes)(*args)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_spline_read_of_fractions_taylor_series_is_its_gathers():
    from jax.experimental.jet import jet

    _, coef, fracs, ours, plain = _fraction_case(2, 3)
    series = ([coef, -coef, 0.5 * coef], *[[f, f * f, -f] for f in fracs])

    def run(f):
        return jet(lambda *a: jnp.sin(f(*a)), (coef, *fracs), series)

    got, want = run(ours), run(plain)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-5)
    for g, w in zip(got[1], want[1]):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)


def test_coefficients_transpose_scatters_chunks_of_points_on_cpu(monkeypatch):
    # On XLA:CPU the points are scattered a chunk at a time (a loop), a tail after
    # it; the result is the one pass's (other platforms' form), and JAX's transpose
    # of the gathers.
    _read, coef, fracs, ours, plain = _fraction_case(2, 3, points=45)
    monkeypatch.setattr(_read, "_SCATTER_CHUNK", 8)
    ct = jnp.asarray(np.random.default_rng(1).standard_normal(45), jnp.float32)

    def vjp(f):
        return jax.jit(lambda c, t: jax.vjp(lambda a: f(a, *fracs), c)[1](t)[0])

    text = vjp(ours).lower(coef, ct).as_text()
    assert "stablehlo.while" in text and text.count('"stablehlo.scatter"') == 8
    np.testing.assert_allclose(vjp(ours)(coef, ct), vjp(plain)(coef, ct), rtol=1e-5, atol=1e-5)
    # under vmap over coefficients and cotangents (the batch's points joined)
    coefs, cts = jnp.stack([coef, -2 * coef]), jnp.stack([ct, ct[::-1]])
    np.testing.assert_allclose(
        jax.vmap(vjp(ours))(coefs, cts), jax.vmap(vjp(plain))(coefs, cts), rtol=1e-5, atol=1e-5
    )
    index = jnp.asarray(np.random.default_rng(0).integers(0, 5, (2, 45)), jnp.int32)
    one_pass = _read._scattered_rows(
        jnp.zeros(coef.shape), ct, index, fracs, orders=(3, 3), derivatives=(0, 0)
    )
    chunked = _read._scattered(coef.shape, ct, index, fracs, (3, 3), (0, 0))
    np.testing.assert_allclose(chunked, one_pass, rtol=1e-5, atol=1e-5)


def test_map_coordinates_input_vjp_scatters_rows_of_taps():
    # order 3 in 2-D: one scatter-add per tap of the first axis, each of every point's
    # row of 4 taps (JAX's transpose of the 16 gathers: 16 scatters; 44 against
    # 66-70 ms at a million points)
    x = jnp.ones((16, 12), jnp.float32)
    c = jnp.ones((2, 30), jnp.float32)
    jaxpr = jax.make_jaxpr(
        lambda x, t: jax.vjp(lambda a: ndimage.map_coordinates(a, c, order=3), x)[1](t)
    )(x, jnp.ones(30))
    lowered = jax.jit(
        lambda x, t: jax.vjp(lambda a: ndimage.map_coordinates(a, c, order=3), x)[1](t)
    ).lower(x, jnp.ones(30))
    assert lowered.as_text().count('"stablehlo.scatter"') == 4
    assert "jaxpad_spline_read" in str(jaxpr)


def _read_eqns(f, *args):
    jaxpr = jax.make_jaxpr(f)(*args).jaxpr
    return [e for e in jaxpr.eqns if e.primitive.name == "jaxpad_spline_read"], [
        e for e in jaxpr.eqns if e.primitive.name == "jaxpad_computed_once"
    ]


@pytest.mark.parametrize("order", [2, 3])
def test_traced_coordinates_hand_the_read_their_fractions(order):
    # Traced coordinates: the read takes each axis's fraction and computes the
    # spline's weights itself (its VJP computes them chunk by chunk, in cache);
    # concrete ones: the weights, computed while tracing. Both read coefficients
    # written once (left to XLA, order 2's read recomputed the last prefilter pass
    # for every tap: 27 against 5.5 ms).
    x = jnp.ones((12, 10), jnp.float32)
    c = np.random.default_rng(0).uniform(-3, 14, (2, 7)).astype(np.float32)
    reads, once = _read_eqns(lambda x, c: ndimage.map_coordinates(x, c, order=order), x, c)
    (read,) = reads
    assert read.params["orders"] == (order, order)
    assert [v.aval.shape for v in read.invars[2:]] == [(7,), (7,)]
    coef = read.invars[0]
    assert any(coef in e.outvars for e in once)
    reads, _ = _read_eqns(lambda x: ndimage.map_coordinates(x, c, order=order), x)
    assert reads[0].params["orders"] == (None, None)
    assert [v.aval.shape for v in reads[0].invars[2:]] == [(order + 1, 7)] * 2


def test_concrete_coordinates_are_reduced_before_the_program_runs():
    # Coordinates that are constants of the program (NumPy ones, a transform by given
    # parameters) have their taps and weights computed while tracing: XLA folded them
    # while compiling (rotate at 1024x1024: a 1.5 s fold and a slow-operation alarm).
    x = jnp.ones((12, 10), jnp.float32)
    c = np.random.default_rng(0).uniform(-3, 14, (2, 7)).astype(np.float32)

    def primitives(f, *args):
        return {eqn.primitive.name for eqn in jax.make_jaxpr(f)(*args).jaxpr.eqns}

    traced = primitives(lambda x, c: ndimage.map_coordinates(x, c, mode="mirror"), x, c)
    assert "floor" in traced
    constant = primitives(lambda x: ndimage.map_coordinates(x, c, mode="mirror"), x)
    assert "floor" not in constant and "jaxpad_spline_read" in constant
    assert "floor" not in primitives(lambda x: ndimage.rotate(x, 30.0, mode="wrap"), x)
    np.testing.assert_allclose(
        jax.jit(lambda x: ndimage.map_coordinates(x, c, mode="mirror"))(x * 2.0),
        jax.jit(lambda x, c: ndimage.map_coordinates(x, c, mode="mirror"))(x * 2.0, c),
        rtol=1e-6,
    )


def test_coordinate_gradient_past_2_to_the_31_coefficients_lowers_without_flat_indices():
    # Lowered, not run: the coordinates' gradient reads the coefficients by windows
    # where their flat index would pass int32 (as the forward does).
    x = jax.ShapeDtypeStruct((2**16, 2**15 + 8), jnp.float32)
    c = jax.ShapeDtypeStruct((2, 5), jnp.float32)
    f = jax.jit(jax.grad(lambda x, c: ndimage.map_coordinates(x, c, order=1).sum(), argnums=1))
    text = f.lower(x, c).as_text()
    flat = (2**16 + 4) * (2**15 + 12)  # the coefficients padded by 2 a side, flattened
    assert flat >= 2**31 and f"tensor<{flat}x" not in text


# -- orders 0 and 1: the input read directly; the coordinates' integer reduction ----


@pytest.mark.parametrize("n", [1, 2, 7])
def test_orders_0_and_1_at_every_quarter_sample_on_short_lines(n):
    """Every quarter sample over several periods, halves included: order 0 rounds a
    half the way scipy's reduced coordinate does (down where the reduction reflects,
    and mirror reflects a negative coordinate one sample earlier than a positive one)."""
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    c = np.arange(-40, 40, 0.25, dtype=np.float32)[None]
    for mode in MODES:
        for order in (0, 1):
            want = sn.map_coordinates(x.astype(np.float64), c, order=order, mode=mode, cval=3.0)
            got = _jitted(order, mode)(x, c, 3.0)
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-6, err_msg=f"{mode} {order}")


def _reduced_exactly(c, period):
    """A coordinate a whole number of periods nearer the grid, in float64 (exact)."""
    r = np.fmod(np.float64(c), period)
    return -period if c < 0 and r == 0 else r  # a negative multiple keeps its side


@pytest.mark.parametrize("mode", ["mirror", "reflect", "wrap", "grid-wrap"])
def test_coordinates_past_int32_and_at_negative_multiples_of_the_period(mode):
    """The whole parts are reduced as int32 after the coordinates' guard brings every
    coordinate of 2**30 or more within a period (without it they overflow): equal to
    scipy at the exactly reduced coordinate, eagerly, under jit and under vmap where
    one coordinate set of the batch has them."""
    n = 7
    x = np.arange(1.0, n + 1.0, dtype=np.float32) ** 1.5
    period = {"mirror": 2 * n - 2, "reflect": 2 * n, "wrap": n - 1, "grid-wrap": n}[mode]
    far = np.array(
        [2.0**30, -(2.0**30), 2.0**30 + 64, 3e9, -3e9, 2.0**31, 1e20, -1e20, -period * 2.0**30],
        np.float32,
    )
    near = np.array([2.5, -3.25, 6.0, 0.5, -0.5, 13.75, -14.0, 1.0, 2.0], np.float32)
    for order in (0, 1, 3):
        want = sn.map_coordinates(
            x.astype(np.float64),
            [[_reduced_exactly(v, period) for v in far]],
            order=order,
            mode=mode,
        )
        f = _jitted(order, mode)
        np.testing.assert_allclose(f(x, far[None], 0.0), want, rtol=0, atol=1e-5)
        batch = np.stack([near[None], far[None]])
        got = jax.jit(jax.vmap(f, (None, 0, None)))(x, batch, 0.0)
        np.testing.assert_allclose(got[1], want, rtol=0, atol=1e-5)
        near_want = sn.map_coordinates(x.astype(np.float64), near[None], order=order, mode=mode)
        np.testing.assert_allclose(got[0], near_want, rtol=0, atol=1e-5)
    eager = ndimage.map_coordinates(x, far[None], order=1, mode=mode)
    np.testing.assert_allclose(eager, _jitted(1, mode)(x, far[None], 0.0), rtol=0, atol=1e-6)


def test_integer_remainder_is_lax_rem():
    """``_split_rem`` with ``small`` (the whole part's int32 floor-mod) equals the pair
    of ``lax.rem`` exactly, below 2**30: ties, multiples of the period, -0.0."""
    from jaxpad.scipy._interpolation import _map

    rng = np.random.default_rng(3)
    for period in (1, 2, 6, 12, 2046, 2**20 + 3):
        c = np.concatenate(
            [
                rng.uniform(-(2.0**29), 2.0**29, 200),
                rng.uniform(-3 * period, 3 * period, 200),
                np.arange(-4, 5) * period
                + np.array([[0.0], [0.5], [-0.5]]).repeat(9, 1).ravel()[:9],
                [-0.0, 0.0, -1e-30, 1e-30],
            ]
        ).astype(np.float32)
        for got, want in zip(
            jax.jit(lambda c: _map._split_rem(c, period, True))(c),  # noqa: B023
            jax.jit(lambda c: _map._split_rem(c, period, False))(c),  # noqa: B023
        ):
            np.testing.assert_array_equal(got, want, err_msg=str(period))


def test_coordinates_guard_reduces_far_coordinates_in_every_form():
    """``computed_once`` with periods: eagerly, the XLA:CPU conditional, vmap (the
    rows' axis moves past the batch), the scatter of other platforms; its tangent
    passes through, and a row without a period is left as it is."""
    from jaxpad import _once

    c = np.array([[1e30, -3e9, 2.5, np.inf], [7e9, np.nan, -(2.0**31), 1.0]], np.float32)
    periods = (10, 0)
    want = c.copy()
    want[0, 0] = np.fmod(np.float64(c[0, 0]), 10)
    want[0, 1] = np.fmod(np.float64(c[0, 1]), 10) or -10.0
    f = functools.partial(_once.computed_once, periods=periods)
    np.testing.assert_array_equal(f(c), want)
    np.testing.assert_array_equal(jax.jit(f)(c), want)
    batched = np.stack([np.ones_like(c), c])
    np.testing.assert_array_equal(jax.jit(jax.vmap(f))(batched)[1], want)
    np.testing.assert_array_equal(
        jax.jit(jax.vmap(f, 1, 1))(batched.transpose(1, 0, 2))[:, 1], want
    )
    primal, tangent = jax.jvp(f, (jnp.asarray(c),), (jnp.ones_like(c),))
    np.testing.assert_array_equal(tangent, np.ones_like(c))
    cuda = jax.export.export(jax.jit(f), platforms=("cuda",))(c).mlir_module()
    assert "stablehlo.remainder" in cuda and "stablehlo.scatter" in cuda


def test_order_1_input_vjp_is_the_padded_read_s_and_order_0_reads_the_input():
    """Order 1 reads ``x`` through the taps' index maps, as JAX does; its derivatives
    are the padded read's, whose input VJP scatters rows of two taps (2 scatters in
    2-D; JAX's transpose of the 4 gathers: 4), equal to JAX's autodiff of the
    gathers. Order 0 reads ``x`` with no pad."""
    rng = np.random.default_rng(11)
    x = jnp.asarray(rng.standard_normal((9, 8)), jnp.float32)
    c = jnp.asarray(rng.uniform(-12, 20, (2, 30)), jnp.float32)
    t = jnp.asarray(rng.standard_normal(30), jnp.float32)
    for mode in MODES:

        def ours(x, c, v):
            return ndimage.map_coordinates(x, c, order=1, mode=mode, cval=v)  # noqa: B023

        def plain(x, c, v):
            from jaxpad.scipy._interpolation import _map, _modes

            spec = _modes.TABLE[mode]  # noqa: B023
            points = _map._points(c, x.shape, 1, spec, True)
            read = _map._gathered(x, v, points.bases, points.weights, spec, points.spans)
            return _map.masked(read, points, spec, v)

        got = jax.jit(lambda *a: jax.vjp(ours, *a)[1](t))(x, c, 0.5)  # noqa: B023
        want = jax.jit(lambda *a: jax.vjp(plain, *a)[1](t))(x, c, 0.5)  # noqa: B023
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=mode)
    # traced coordinates (concrete ones keep the padded read at order 1)
    for mode in ("constant", "mirror"):
        vjp = jax.jit(
            lambda x, c, t: jax.vjp(
                lambda a: ndimage.map_coordinates(a, c, order=1, mode=mode),  # noqa: B023
                x,
            )[1](t)
        )
        assert vjp.lower(x, c, t).as_text().count('"stablehlo.scatter"') == 2
    jaxpr = jax.make_jaxpr(lambda x, c: ndimage.map_coordinates(x, c, order=0))(x, c)
    names = {e.primitive.name for e in jaxpr.jaxpr.eqns}
    assert "jaxpad_pad" not in names and "jaxpad_spline_read" not in names
