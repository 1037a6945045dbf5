"""jaxpad.scipy.signal's FIR filters (savgol_coeffs, savgol_filter, upfirdn,
resample_poly) against scipy.signal: random differential tests over every mode,
padtype and option (float64 to 1e-12 of the output's magnitude), float32 and the
narrow dtypes, inf and nan where scipy's arithmetic puts them, second-order gradients,
and jit, vmap and eager agreeing. The bad inputs are rows of tests/bad_inputs.py.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

from jaxpad.scipy import signal
from jaxpad.scipy._fir._polyphase import Plan
from jaxpad.scipy._fir._savgol import SAVGOL_MODES
from jaxpad.scipy._fir._upfirdn import _use_blocks, upfirdn_modes
from tests.compat import enable_x64
from tests.rotation import rotation, share

ss = pytest.importorskip("scipy.signal")

PADTYPES_STATS = ("mean", "median", "maximum", "minimum")
WINDOWS = [
    ("kaiser", 5.0), ("kaiser", 0.5), "hamming", "hann", "boxcar", "triang", "bartlett",
    "blackman", "nuttall", "blackmanharris", "cosine", ("gaussian", 2.5), 3.0,
]  # fmt: skip


@pytest.fixture(autouse=True)
def _x64():
    with enable_x64(True):
        yield


def _close(got, want, rtol=1e-12, scale=0.0):
    """Equal to ``rtol`` of the output's magnitude, or of ``scale`` (the magnitude of
    the terms summed) where the output is a cancellation to nearly zero."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    scale = max(np.abs(want).max(initial=0.0), scale, 1e-300)
    np.testing.assert_allclose(got, want, rtol=0, atol=rtol * scale)


def _j(f):
    """f under one jit, its array arguments traced (cheaper than eager: one compile)."""

    def call(*args, **kwargs):
        arrays = [i for i, a in enumerate(args) if isinstance(a, (np.ndarray, jax.Array))]

        def inner(*values):
            full = list(args)
            for i, v in zip(arrays, values):
                full[i] = v
            return f(*full, **kwargs)

        return jax.jit(inner)(*(args[i] for i in arrays))

    return call


def test_savgol_coeffs_against_scipy():
    for wl in range(1, 10):
        for p in range(min(wl, 4)):
            for deriv in range(p + 2):
                for pos in {None, 0, wl - 1, wl // 3}:
                    for use in ("conv", "dot"):
                        args = (wl, p, deriv, 0.7, pos, use)
                        _close(signal.savgol_coeffs(*args), ss.savgol_coeffs(*args))


def _savgol_case(rng, mode):
    wl = int(rng.integers(1, 10))
    p = int(rng.integers(0, wl))
    deriv = int(rng.integers(0, p + 2))
    n = int(rng.integers(wl if mode == "interp" else 1, 13))
    shape, axis = [((2, n), -1), ((n, 3), 0), ((2, n, 2), 1)][int(rng.integers(3))]
    return wl, p, deriv, float(rng.uniform(0.3, 2.0)), shape, axis


def test_savgol_filter_against_scipy(full_run):
    rng = np.random.default_rng(0)
    for mode in SAVGOL_MODES:
        for _ in range(3 if full_run else 1):
            wl, p, deriv, delta, shape, axis = _savgol_case(rng, mode)
            x = rng.standard_normal(shape)
            # cval in constant mode only: jaxpad refuses one that another mode ignores.
            cval = 0.4 if mode == "constant" else 0.0
            want = ss.savgol_filter(x, wl, p, deriv, delta, axis, mode, cval=cval)
            f = jax.jit(lambda x: signal.savgol_filter(x, wl, p, deriv, delta, axis, mode, cval))
            terms = np.abs(ss.savgol_coeffs(wl, p, deriv, delta)).sum() * np.abs(x).max()
            _close(f(x), want, scale=terms)


def _upfirdn_case(rng):
    nh, up, down = int(rng.integers(1, 13)), int(rng.integers(1, 5)), int(rng.integers(1, 6))
    n = int(rng.integers(2, 10))
    shape, axis = [((2, n), -1), ((n, 3), 0), ((2, n, 2), 1), ((n,), 0)][int(rng.integers(4))]
    return nh, up, down, shape, axis


def test_upfirdn_against_scipy(full_run):
    rng = np.random.default_rng(1)
    for mode in upfirdn_modes():
        for i in range(3 if full_run else 1):
            nh, up, down, shape, axis = _upfirdn_case(rng)
            x = rng.standard_normal(shape)
            if i == 1:
                x = x + 1j * rng.standard_normal(shape)
            h = rng.standard_normal(nh)
            cval = 0.6 if mode == "constant" else 0
            want = ss.upfirdn(h, x, up, down, axis, mode, cval=cval)
            got = jax.jit(lambda h, x: signal.upfirdn(h, x, up, down, axis, mode, cval))(h, x)
            assert got.dtype == want.dtype
            _close(got, want)


def test_resample_poly_against_scipy(full_run):
    rng = np.random.default_rng(2)
    padtypes = upfirdn_modes() + PADTYPES_STATS
    factors = [(3, 2), (2, 3), (1, 4), (5, 1), (4, 6)]
    x = rng.standard_normal((17, 2))
    # Every padtype under --all, a rotating quarter in the default run; the factors
    # rotate (tests/rotation.py): each compiles a program (CI's budget).
    start = rotation(4, "test_resample_poly_against_scipy")
    for i, padtype in enumerate(padtypes):
        if not (full_run or (i - start) % 4 == 0):
            continue
        j = (i + start) % 5
        for up, down in factors[j : j + 1]:
            cval = 0.3 if padtype == "constant" else None
            want = ss.resample_poly(x, up, down, padtype=padtype, cval=cval)
            f = jax.jit(lambda x: signal.resample_poly(x, up, down, padtype=padtype, cval=cval))
            _close(f(x), want)
    x = rng.standard_normal((2, 23))
    for i, window in enumerate(WINDOWS):
        if (i - start) % (4 if full_run else 13) == 0:
            want = ss.resample_poly(x, 3, 5, axis=1, window=window)
            _close(jax.jit(lambda x: signal.resample_poly(x, 3, 5, axis=1, window=window))(x), want)
    taps = rng.standard_normal(9)
    for up, down in factors[:2] if full_run else factors[:1]:
        f = jax.jit(lambda x, w: signal.resample_poly(x, up, down, -1, w, padtype="smooth"))
        _close(f(x, taps), ss.resample_poly(x, up, down, axis=-1, window=taps, padtype="smooth"))
    # up == down: a copy of x, in its dtype.
    assert signal.resample_poly(np.arange(4), 2, 2).dtype == jnp.arange(4).dtype


def test_float32():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 40)).astype(np.float32)
    h = rng.standard_normal(7).astype(np.float32)
    for got, want in (
        (_j(signal.savgol_filter)(x, 9, 3), ss.savgol_filter(x.astype(np.float64), 9, 3)),
        (
            _j(signal.savgol_filter)(x, 8, 2, deriv=1, mode="wrap"),
            ss.savgol_filter(x.astype(np.float64), 8, 2, deriv=1, mode="wrap"),
        ),
        (
            _j(signal.upfirdn)(h, x, 3, 2, mode="smooth"),
            ss.upfirdn(h, x.astype(np.float64), 3, 2, mode="smooth"),
        ),
        (
            _j(signal.resample_poly)(x, 3, 2, axis=1),
            ss.resample_poly(x.astype(np.float64), 3, 2, axis=1),
        ),
    ):
        assert got.dtype == np.float32
        _close(got, want, rtol=2e-6)


def test_narrow_and_integer_dtypes():
    x = np.arange(12) % 5
    # scipy computes an integer signal in float64, as jaxpad computes it in the default
    # float dtype; float16 and bfloat16 are computed in float64 here (x64) too.
    for dtype in (np.int32, np.float16, jnp.bfloat16):
        xd = jnp.asarray(x, dtype)
        y = _j(signal.savgol_filter)(xd, 5, 2)
        assert y.dtype == np.float64
        _close(y, ss.savgol_filter(x.astype(np.float64), 5, 2))
    y = _j(signal.upfirdn)(np.ones(3, np.float16), jnp.asarray(x, jnp.bfloat16), 2)
    assert y.dtype == np.float32
    _close(y, ss.upfirdn(np.ones(3), x.astype(np.float64), 2), rtol=1e-6)


def test_traced_delta_equals_static():
    x = np.random.default_rng(4).standard_normal(15)
    for mode in ("interp", "mirror"):
        traced = jax.jit(lambda x, d: signal.savgol_filter(x, 7, 3, deriv=2, delta=d, mode=mode))
        _close(traced(x, 0.3), ss.savgol_filter(x, 7, 3, deriv=2, delta=0.3, mode=mode))
    _close(
        jax.jit(lambda d: signal.savgol_coeffs(5, 2, deriv=1, delta=d))(0.5),
        ss.savgol_coeffs(5, 2, deriv=1, delta=0.5),
    )


def _same_nonfinite(got, want):
    got, want = np.asarray(got), np.asarray(want)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isposinf(got), np.isposinf(want))
    np.testing.assert_array_equal(np.isneginf(got), np.isneginf(want))
    finite = np.isfinite(want)
    _close(got[finite], want[finite], rtol=1e-10)


def test_nonfinite_where_scipy_puts_them(full_run):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 11))
    x[0, 0], x[0, 6], x[1, 9] = np.nan, np.inf, -np.inf
    h = rng.standard_normal(5)
    h[3] = 0.0  # a zero tap meets the inf: nan, as in scipy
    modes = upfirdn_modes()
    for mode in modes if full_run else modes[:: len(modes) // 2]:
        for up, down in ((1, 1), (3, 2)) if full_run else ((3, 2),):
            want = ss.upfirdn(h, x, up, down, mode=mode)
            _same_nonfinite(_j(signal.upfirdn)(h, x, up, down, mode=mode), want)
    hn = h.copy()
    hn[1] = np.nan
    _same_nonfinite(
        _j(signal.upfirdn)(hn, x[1:, :4] * 0 + 1, 2, 1), ss.upfirdn(hn, x[1:, :4] * 0 + 1, 2, 1)
    )
    for mode in ("mirror", "constant", "nearest", "wrap") if full_run else ("mirror",):
        for deriv in (0, 3) if full_run else (3,):
            want = ss.savgol_filter(x, 5, 2, deriv=deriv, mode=mode)
            _same_nonfinite(_j(signal.savgol_filter)(x, 5, 2, deriv=deriv, mode=mode), want)
    _same_nonfinite(_j(signal.resample_poly)(x, 3, 2, axis=1), ss.resample_poly(x, 3, 2, axis=1))
    # interp: scipy refuses a non-finite end window (its least-squares fit checks); here
    # the fitted ends of such a window are non-finite, and the rest is scipy's.
    xi = rng.standard_normal((2, 11))
    xi[0, 0], xi[0, 5], xi[1, 9] = np.nan, np.inf, -np.inf
    y = np.asarray(_j(signal.savgol_filter)(xi, 5, 2))
    assert not np.isfinite(y[0, :2]).any() and not np.isfinite(y[1, -2:]).any()
    want = ss.savgol_filter(np.where(np.isnan(xi) | np.isneginf(xi), 0.0, xi), 5, 2)
    _same_nonfinite(y[0, 3:], want[0, 3:])
    _same_nonfinite(y[1, :7], want[1, :7])
    # deriv > polyorder: scipy's fitted ends are zeros whatever the samples.
    assert (np.asarray(_j(signal.savgol_filter)(x, 5, 1, deriv=2))[:, [0, 1, -2, -1]] == 0).all()


def test_gradients(full_run):
    rng = np.random.default_rng(6)
    x = rng.standard_normal(7)
    h = rng.standard_normal(4)

    def opts(mode):
        # The default run checks first derivatives in one mode (the second order and
        # both modes under --all); the exact gradients in h and x are compared below.
        if full_run:
            return dict(order=2, modes=("fwd", "rev"), atol=1e-6, rtol=1e-6)
        return dict(order=1, modes=(mode,), atol=1e-6, rtol=1e-6)

    savgol = jax.jit(lambda x, d: signal.savgol_filter(x, 5, 3, deriv=1, delta=d))
    check_grads(savgol, (x, 0.7), **opts("fwd"))
    check_grads(
        jax.jit(lambda h, x, c: signal.upfirdn(h, x, 3, 2, cval=c)), (h, x, 0.2), **opts("rev")
    )
    # --all: one of three more second-order checks, rotating with the seed
    # (tests/rotation.py), each a few seconds of compiles (CI's budget).
    more = [
        (lambda x, c: signal.savgol_filter(x, 4, 2, mode="constant", cval=c), (x, 0.3)),
        (lambda h, x: signal.upfirdn(h, x, 2, 3, mode="line"), (h, x)),
        (lambda x, w: signal.resample_poly(x, 2, 3, window=w, padtype="median"), (x, h)),
    ]
    for f, args in share(more, 3, "test_gradients") if full_run else ():
        check_grads(jax.jit(f), args, order=2, modes=("rev",), atol=1e-6, rtol=1e-6)

    # w.r.t. h and x against JAX's gradient of the zero-stuffed convolution.
    def naive(h, x, up=3, down=2):
        stuffed = jnp.zeros(len(x) * up).at[::up].set(x)
        n_out = ((len(x) - 1) * up + len(h) - 1) // down + 1
        return jnp.convolve(stuffed, h)[::down][:n_out]

    ct = rng.standard_normal(naive(h, x).shape)
    loss = lambda f: lambda h, x: jnp.vdot(f(h, x), ct)  # noqa: E731
    got = jax.jit(jax.grad(loss(lambda h, x: signal.upfirdn(h, x, 3, 2)), argnums=(0, 1)))(h, x)
    want = jax.jit(jax.grad(loss(naive), argnums=(0, 1)))(h, x)
    for g, w in zip(got, want):
        _close(g, w)


def test_block_form(full_run):
    """Long phases along the last axis take the block form (a block-Toeplitz
    ``lax.conv``): scipy's values; an inf or nan only where scipy's products put it, not
    over the block whose structural zeros meet it; gradients in h, x and cval."""
    rng = np.random.default_rng(8)
    h = rng.standard_normal(60)  # 20 taps per phase at up = 3
    n = 11000  # 16500 outputs a row: past the block form's minimum
    assert _use_blocks(Plan(n, 60, 3, 2), np.dtype(np.float64), 1, 3 * n // 2)
    x = rng.standard_normal((2, n))
    f = jax.jit(lambda h, x, c: signal.upfirdn(h, x, 3, 2, mode="constant", cval=c))
    _close(f(h, x, 0.4), ss.upfirdn(h, x, 3, 2, cval=0.4))
    xn = x.copy()
    xn[0, 6000], xn[1, 4], xn[1, 9000] = np.inf, np.nan, -np.inf
    _same_nonfinite(f(h, xn, 0.4), ss.upfirdn(h, xn, 3, 2, cval=0.4))
    _same_nonfinite(f(h, x, np.inf), ss.upfirdn(h, x, 3, 2, cval=np.inf))
    if not full_run:  # the compiles below are a second of CI's budget
        return
    r = jax.jit(lambda x: signal.resample_poly(x, 3, 2, axis=-1, padtype="line"))
    _close(r(x), ss.resample_poly(x, 3, 2, axis=-1, padtype="line"))
    check_grads(f, (h, x, 0.4), order=2, modes=("rev",), atol=1e-6, rtol=1e-6)
    # vmap over signals: the batch joins the rows (one cond for the batch, where vmap
    # of the cond ran the exact form beside the block form), each row its own.
    batched = jax.jit(jax.vmap(f, in_axes=(None, 0, None)))
    assert "stablehlo.case" in batched.lower(h, xn, 0.4).as_text()
    _same_nonfinite(batched(h, xn, 0.4), ss.upfirdn(h, xn, 3, 2, cval=0.4))


def test_jit_vmap_eager_agree(full_run):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 9))
    hs = rng.standard_normal((3, 4))

    def f(h, x):
        return signal.upfirdn(h, x, 2, 3, mode="antisymmetric")

    eager = f(hs[0], x)
    jitted = jax.jit(f)
    np.testing.assert_allclose(jitted(hs[0], x), eager, rtol=1e-13, atol=1e-13)
    # vmap over filters and over signals, each against the jitted call per example.
    each = np.stack([jitted(hs[i], x[i]) for i in range(3)])
    np.testing.assert_allclose(jax.jit(jax.vmap(f))(hs, x), each, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(
        jax.jit(jax.vmap(lambda x: f(hs[0], x), in_axes=1, out_axes=1))(x.T), eager.T, rtol=1e-13
    )

    def g(x):
        return signal.savgol_filter(x, 5, 2, deriv=1, mode="interp")

    np.testing.assert_allclose(jax.jit(jax.vmap(g))(x), jax.jit(g)(x), rtol=1e-13, atol=1e-13)
    if not full_run:
        return
    r = jax.jit(jax.vmap(lambda x: signal.resample_poly(x, 3, 2, padtype="mean")))(x)
    want = jax.jit(lambda x: signal.resample_poly(x, 3, 2, axis=1, padtype="mean"))(x)
    np.testing.assert_allclose(r, want, rtol=1e-13)


def test_savgol_ends_stay_in_place_under_vmap():
    """``interp``'s fitted ends are written into the output in place under ``vmap`` too
    (the batch one more axis of the update), not by a scatter; the values are the
    batched call's, the batch at either end."""
    x = np.random.default_rng(8).standard_normal((3, 40))

    def f(x):
        return signal.savgol_filter(x, 7, 2)

    for in_axes, xs in ((0, x), (1, x.T)):
        batched = jax.jit(jax.vmap(f, in_axes=in_axes))
        assert "scatter" not in batched.lower(xs).as_text()
        np.testing.assert_allclose(batched(xs), jax.jit(f)(x), rtol=1e-13, atol=1e-13)


def test_a_zero_cval_of_any_type_is_the_default_in_every_mode():
    x = jnp.arange(12.0)
    want = signal.upfirdn(jnp.ones(4), x, 3, 2, mode="wrap")
    for zero in (0, 0.0, np.float32(0), jnp.zeros(())):
        got = signal.upfirdn(jnp.ones(4), x, 3, 2, mode="wrap", cval=zero)
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="cval is read only with mode='constant'"):
        jax.jit(lambda c: signal.upfirdn(jnp.ones(4), x, 3, 2, mode="wrap", cval=c))(0.0)
