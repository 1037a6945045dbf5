"""Ports of scipy's tests of the FIR filters: ``signal/tests/test_savitzky_golay.py``,
``test_upfirdn.py`` and the ``resample_poly`` cases of ``test_signaltools.py``
(``TestResample``, ``test_gh_22684``), scipy 1.17. Each keeps scipy's expected values;
the naive references are scipy's own (a zero-stuffed ``np.convolve``). Where jaxpad
differs the test says so: a non-integer factor's type (a ``TypeError`` for a string),
and the grids' shares (``full_run``), which a random differential test in
tests/test_scipy_signal_fir.py covers on every run.
"""

from __future__ import annotations

from itertools import product

import jax
import numpy as np
import pytest

from jaxpad.scipy import signal
from jaxpad.scipy._fir._polyphase import Plan
from jaxpad.scipy._fir._upfirdn import upfirdn_modes
from tests.compat import enable_x64

ss = pytest.importorskip("scipy.signal")
from scipy.ndimage import convolve1d, correlate1d  # noqa: E402
from scipy.signal._upfirdn_apply import _pad_test  # noqa: E402

PADTYPES = upfirdn_modes() + ("mean", "median", "maximum", "minimum")


@pytest.fixture(autouse=True)
def _x64():
    with enable_x64(True):
        yield


def _close(got, want, atol=1e-12, rtol=1e-7):
    got = np.asarray(got)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, atol=atol, rtol=rtol)


def _sg(*args, **kwargs):
    return jax.jit(lambda x: signal.savgol_filter(x, *args[1:], **kwargs))(args[0])


# test_savitzky_golay.py


def _alt_sg_coeffs(window_length, polyorder, pos):
    if pos is None:
        pos = window_length // 2
    t = np.arange(window_length)
    unit = (t == pos).astype(int)
    return np.polyval(np.polyfit(t, unit, polyorder), t)


def test_sg_coeffs_trivial():
    _close(signal.savgol_coeffs(1, 0), [1.0])
    _close(signal.savgol_coeffs(3, 2), [0.0, 1, 0], atol=1e-10)
    _close(signal.savgol_coeffs(5, 4), [0.0, 0, 1, 0, 0], atol=1e-10)
    _close(signal.savgol_coeffs(5, 4, pos=1), [0.0, 0, 0, 1, 0], atol=1e-10)
    _close(signal.savgol_coeffs(5, 4, pos=1, use="dot"), [0.0, 1, 0, 0, 0], atol=1e-10)


def test_sg_coeffs_compare():
    for window_length in range(1, 8, 2):
        for order in range(window_length):
            for pos in [None, *range(window_length)]:
                h1 = signal.savgol_coeffs(window_length, order, pos=pos, use="dot")
                _close(h1, _alt_sg_coeffs(window_length, order, pos), atol=2e-10)


def test_sg_coeffs_exact():
    polyorder, window_length = 4, 9
    half = window_length // 2
    x = np.linspace(0, 21, 43)
    delta = x[1] - x[0]
    y = 0.5 * x**3 - x
    for deriv, exact in ((0, y), (1, 1.5 * x**2 - 1), (2, 3.0 * x)):
        h = np.asarray(signal.savgol_coeffs(window_length, polyorder, deriv=deriv, delta=delta))
        got = convolve1d(y, h)
        _close(got[half:-half], exact[half:-half], atol=0, rtol=1e-7)


def test_sg_coeffs_deriv():
    i = np.array([-2.0, 0.0, 2.0, 4.0, 6.0])
    x = i**2 / 4
    for pos in range(x.shape[0]):
        for deriv, want in ((0, x[pos]), (1, i[pos] / 2), (2, 0.5)):
            c = signal.savgol_coeffs(5, 3, pos=pos, delta=2.0, use="dot", deriv=deriv)
            _close(np.asarray(c) @ x, want, atol=1e-10)


def test_sg_coeffs_deriv_gt_polyorder():
    np.testing.assert_array_equal(signal.savgol_coeffs(5, polyorder=1, deriv=2), np.zeros(5))
    np.testing.assert_array_equal(signal.savgol_coeffs(7, polyorder=4, deriv=6), np.zeros(7))


def test_sg_coeffs_large():
    c0 = np.asarray(signal.savgol_coeffs(31, 9))
    _close(c0, c0[::-1], atol=1.5e-6)
    c1 = np.asarray(signal.savgol_coeffs(31, 9, deriv=1))
    _close(c1, -c1[::-1], atol=1.5e-6)


def test_sg_coeffs_even_window_length():
    lengths = [4, 6, 8, 10, 12, 14, 16]
    for length in lengths:
        h = signal.savgol_coeffs(length, 0, 0)
        _close(h, np.ones(length) / length)

    def closed_1(k, m):
        return 6 * (k - 0.5) / ((2 * m + 1) * m * (2 * m - 1))

    def closed_2(k, m):
        numer = 15 * (-4 * m**2 + 1 + 12 * (k - 0.5) ** 2)
        return numer / (4 * (2 * m + 1) * (m + 1) * m * (m - 1) * (2 * m - 1))

    for length in lengths:
        m = length // 2
        want1 = [closed_1(k, m) for k in range(-m + 1, m + 1)][::-1]
        _close(signal.savgol_coeffs(length, 1, 1), want1)
        _close(signal.savgol_coeffs(length, 2, 1), want1)
        want2 = [closed_2(k, m) for k in range(-m + 1, m + 1)][::-1]
        _close(signal.savgol_coeffs(length, 2, 2), want2)
        _close(signal.savgol_coeffs(length, 3, 2), want2)


def test_sg_filter_trivial():
    np.testing.assert_array_equal(_sg(np.array([1.0]), 1, 0), [1.0])
    _close(_sg(np.array([3.0]), 3, 1, mode="constant"), [1.0], atol=1.5e-15)
    _close(_sg(np.array([3.0]), 3, 1, mode="nearest"), [3.0], atol=1.5e-15)
    _close(_sg(np.ones(3), 3, 1, mode="wrap"), [1.0, 1.0, 1.0], atol=1.5e-15)


def test_sg_filter_basic():
    x = np.array([1.0, 2.0, 1.0])
    _close(_sg(x, 3, 1, mode="constant"), [1.0, 4.0 / 3, 1.0])
    _close(_sg(x, 3, 1, mode="mirror"), [5.0 / 3, 4.0 / 3, 5.0 / 3])
    _close(_sg(x, 3, 1, mode="wrap"), [4.0 / 3, 4.0 / 3, 4.0 / 3])


def test_sg_filter_2d():
    x = np.array([[1.0, 2.0, 1.0], [2.0, 4.0, 2.0]])
    expected = np.array([[1.0, 4.0 / 3, 1.0], [2.0, 8.0 / 3, 2.0]])
    _close(_sg(x, 3, 1, mode="constant"), expected)
    _close(_sg(x.T, 3, 1, mode="constant", axis=0), expected.T)


def test_sg_filter_interp_edges():
    t = np.linspace(-5, 5, 21)
    delta = t[1] - t[0]
    x = np.stack([t, 3 * t**2, t**3 - t])
    dx = np.stack([np.ones_like(t), 6 * t, 3 * t**2 - 1.0])
    d2x = np.stack([np.zeros_like(t), np.full_like(t, 6), 6 * t])
    for transpose, axis in ((False, -1), (True, 0)):
        f = (lambda a: a.T) if transpose else (lambda a: a)
        _close(_sg(f(x), 7, 3, axis=axis, mode="interp"), f(x))
        _close(_sg(f(x), 7, 3, axis=axis, mode="interp", deriv=1, delta=delta), f(dx))
        _close(_sg(f(x), 7, 3, axis=axis, mode="interp", deriv=2, delta=delta), f(d2x))


def test_sg_filter_interp_edges_3d():
    t = np.linspace(-5, 5, 21)
    delta = t[1] - t[0]
    x1, x2 = np.stack([t, -t]), np.stack([t**2, 3 * t**2 + 5])
    x3 = np.stack([t**3, 2 * t**3 + t**2 - 0.5 * t])
    dx1 = np.stack([np.ones_like(t), -np.ones_like(t)])
    dx2, dx3 = np.stack([2 * t, 6 * t]), np.stack([3 * t**2, 6 * t**2 + 2 * t - 0.5])
    z, dz = np.stack([x1, x2, x3]), np.stack([dx1, dx2, dx3])
    zt, dzt = np.stack([x1.T, x2.T, x3.T]), np.stack([dx1.T, dx2.T, dx3.T])
    for z_, dz_, axis in (
        (z, dz, -1),
        (zt, dzt, 1),
        (np.swapaxes(zt, 0, 1), np.swapaxes(dzt, 0, 1), 0),
    ):
        _close(_sg(z_, 7, 3, axis=axis, mode="interp", delta=delta), z_, atol=1e-10)
        _close(_sg(z_, 7, 3, axis=axis, mode="interp", deriv=1, delta=delta), dz_, atol=1e-10)


def test_sg_filter_valid_window_length_3d():
    x = np.ones((4, 9, 11))
    _sg(x, 11, 3, mode="interp")
    # jaxpad's message says "at most the size", scipy's "less than or equal to the size".
    with pytest.raises(ValueError, match="window_length must be at most the size"):
        _sg(x, 13, 3, mode="interp")
    _sg(x, 3, 1, axis=0, mode="interp")
    with pytest.raises(ValueError, match="window_length must be at most the size"):
        _sg(x, 5, 3, axis=0, mode="interp")


# test_upfirdn.py


def _output_len(len_h, len_x, up, down):
    return Plan(len_x, len_h, up, down).out_len


def _upfirdn_naive(x, h, up=1, down=1):
    """scipy's naive reference: zero-stuffing, np.convolve, decimation."""
    out = np.zeros(len(x) * up, x.dtype)
    out[::up] = x
    return np.convolve(h, out)[::down][: _output_len(len(h), len(x), up, down)]


def _ufd(h, x, up, down, axis=-1, mode="constant"):
    return jax.jit(lambda h, x: signal.upfirdn(h, x, up, down, axis, mode))(h, x)


def _scrub(h, x, up, down, axis=-1):
    want = np.apply_along_axis(_upfirdn_naive, axis, x, h, up, down)
    got = _ufd(h, x, up, down, axis)
    assert got.shape == want.shape
    dtypes = (h.dtype, x.dtype)
    if all(d == np.complex64 for d in dtypes) or np.complex64 in dtypes and np.float32 in dtypes:
        assert got.dtype == np.complex64
    elif all(d == np.float32 for d in dtypes):
        assert got.dtype == np.float32
    elif np.complex128 in dtypes or np.complex64 in dtypes:
        assert got.dtype == np.complex128
    else:
        assert got.dtype == np.float64
    tol = 1e-5 if got.dtype in (np.float32, np.complex64) else 1e-12
    _close(got, want.astype(got.dtype), atol=tol, rtol=tol)


def _upfirdn_case(up, down, h, x_dtype, full_run):
    rng = np.random.RandomState(17)
    h = np.atleast_1d(h)
    complex_x = x_dtype in (np.complex64, np.complex128)
    x = rng.randn(10).astype(x_dtype)
    if complex_x:
        x = x + 1j * rng.randn(10)
    for xi in (np.ones(1, x_dtype), x.astype(x_dtype), np.arange(10).astype(x_dtype)):
        _scrub(h, xi, up, down)
    if not full_run:
        return
    size = (2, 3, 5)
    x = rng.randn(*size).astype(x_dtype)
    if complex_x:
        x = (x + 1j * rng.randn(*size)).astype(x_dtype)
    for axis in range(len(size)):
        _scrub(h, x, up, down, axis)


UPFIRDN_TYPES = (np.int64, np.float32, np.complex64, np.float64, np.complex128)


def test_valid_input():
    with pytest.raises(ValueError):
        signal.upfirdn([1], [1], 1, 0)
    with pytest.raises(ValueError):
        signal.upfirdn([], [1], 1, 1)
    with pytest.raises(ValueError):
        signal.upfirdn([[1]], [1], 1, 1)


def test_singleton(full_run):
    for len_h, len_x in product(range(1, 6), range(1, 6)):
        if not full_run and (len_h + len_x) % 4:
            continue
        h = np.zeros(len_h)
        h[len_h // 2] = 1.0
        x = np.ones(len_x)
        want = np.pad(x, (len_h // 2, (len_h - 1) // 2), "constant")
        _close(_ufd(h, x, 1, 1), want)


def test_shift_x():
    _close(_ufd(np.array([1, 1]), np.array([1.0]), 1, 1), [1.0, 1.0])
    _close(_ufd(np.array([1, 1]), np.array([0.0, 1.0]), 1, 1), [0.0, 1.0, 1.0])


@pytest.mark.parametrize(
    "len_h, len_x, up, down, expected",
    [
        (2, 2, 5, 2, [1, 0, 0, 0]),
        (2, 3, 6, 3, [1, 0, 1, 0, 1]),
        (2, 4, 4, 3, [1, 0, 0, 0, 1]),
        (3, 2, 6, 2, [1, 0, 0, 1, 0]),
        (4, 11, 3, 5, [1, 0, 0, 1, 0, 0, 1]),
    ],
)
def test_length_factors(len_h, len_x, up, down, expected):
    h = np.zeros(len_h)
    h[0] = 1.0
    _close(_ufd(h, np.ones(len_x), up, down), np.array(expected, np.float64))


def test_vs_convolve(full_run):
    rng = np.random.RandomState(17)
    cases = list(
        product(
            (np.int64, np.float32, np.complex64, np.float64, np.complex128),
            ((2, 5015), (11, 912), (79, 127)),
        )
    )
    for i, (dtype, (down, want_len)) in enumerate(cases):
        if i % (3 if full_run else 5):
            continue
        x = rng.randn(10000).astype(dtype)
        if dtype in (np.complex64, np.complex128):
            x = x + 1j * rng.randn(10000)
        x = x.astype(dtype)
        h = ss.firwin(31, 1.0 / down, window="hamming")
        want = _upfirdn_naive(x, h, 1, down)
        got = _ufd(h, x, 1, down)
        assert got.shape == (want_len,)
        _close(got, want, atol=1e-7, rtol=1e-7)


def test_vs_naive_delta(full_run):
    cases = list(product(UPFIRDN_TYPES, (1.0, 1j), [(1, 1), (2, 2), (3, 2), (2, 3)]))
    for i, (x_dtype, h, (up, down)) in enumerate(cases):
        if full_run and i % 6 == 0 or i % 13 == 0:
            _upfirdn_case(up, down, h, x_dtype, full_run)


def test_vs_naive(full_run):
    rng = np.random.RandomState(17)
    for i, (x_dtype, h_dtype, (p_max, q_max)) in enumerate(
        product(UPFIRDN_TYPES, UPFIRDN_TYPES, product((10, 100), (10, 100)))
    ):
        p_add = q_max if p_max > q_max else 1
        q_add = p_max if q_max > p_max else 1
        p = rng.randint(p_max) + p_add
        q = rng.randint(q_max) + q_add
        len_h = rng.randint(25) + 1
        h = np.atleast_1d(rng.randint(len_h)).astype(h_dtype)
        if i % (14 if full_run else 100) == 0:
            _upfirdn_case(p, q, h, x_dtype, False)


def _extension(x, npad, mode):
    """The extended signal as upfirdn reads it: a unit tap delays x by its index."""
    left = np.zeros(npad + 1)
    left[npad] = 1.0
    right = np.zeros(npad + 1)
    right[0] = 1.0
    head = np.asarray(_ufd(left, x, 1, 1, mode=mode))[:npad]
    tail = np.asarray(_ufd(right, x, 1, 1, mode=mode))[len(x) :]
    return np.concatenate([head, x, tail])


@pytest.mark.parametrize("mode", upfirdn_modes())
def test_extensions(mode):
    x = np.array([1, 2, 3, 1], dtype=np.float64)
    npre = npost = 6
    y = _extension(x, 6, mode)
    if mode == "antisymmetric":
        want = [3.0, 1, -1, -3, -2, -1, 1, 2, 3, 1, -1, -3, -2, -1, 1, 2]
    elif mode == "antireflect":
        want = [1.0, 2, 3, 1, -1, 0, 1, 2, 3, 1, -1, 0, 1, 2, 3, 1]
    elif mode == "smooth":
        want = [-5.0, -4, -3, -2, -1, 0, 1, 2, 3, 1, -1, -3, -5, -7, -9, -11]
    elif mode == "line":
        slope = (x[-1] - x[0]) / (x.shape[0] - 1)
        want = np.concatenate(
            [x[0] + np.arange(-npre, 0) * slope, x, x[-1] + np.arange(1, npost + 1) * slope]
        )
    else:
        want = np.pad(x, (npre, npost), mode=mode)
    _close(y, np.asarray(want, np.float64))
    _close(y, _pad_test(x, npre=npre, npost=npost, mode=mode))


def test_modes(full_run):
    cases = list(
        product([8], [4, 5, 26], upfirdn_modes(), ["float32", "float64", "complex64", "complex128"])
    )
    for i, (size, h_len, mode, dtype) in enumerate(cases):
        if not (full_run and i % 6 == 0 or i % 27 == 0):
            continue
        rng = np.random.RandomState(5)
        x = rng.randn(size).astype(dtype)
        if dtype.startswith("complex"):
            x = (x + 1j * rng.randn(size)).astype(dtype)
        h = np.arange(1, 1 + h_len, dtype=x.real.dtype)
        y = _ufd(h, x, 1, 1, mode=mode)
        npad = h_len - 1
        if mode in ("antisymmetric", "antireflect", "smooth", "line"):
            xpad = _pad_test(x, npre=npad, npost=npad, mode=mode)
        else:
            xpad = np.pad(x, npad, mode=mode)
        want = np.asarray(_ufd(h, xpad, 1, 1))[npad:-npad]
        tol = np.finfo(dtype).eps * 1e2
        _close(y, want, atol=tol, rtol=tol)


def test_output_len_long_input():
    assert _output_len(1001, 10**8, 320, 441) == 72562360


# test_signaltools.py: TestResample's resample_poly cases, test_gh_22684


def _rp(x, *args, **kwargs):
    return jax.jit(lambda x: signal.resample_poly(x, *args, **kwargs))(x)


def test_resample_poly_basic():
    sig = np.arange(128, dtype=np.float64)
    # scipy raises ValueError for a string factor; jaxpad a TypeError (the wrong type).
    with pytest.raises(TypeError):
        signal.resample_poly(sig, "yo", 1)
    for args, kwargs in (
        ((1, 0), {}),
        ((1.3, 2), {}),
        ((2, 1.3), {}),
        ((2, 1), {"padtype": ""}),
        ((2, 1), {"padtype": "mean", "cval": 10}),
        ((2, 1), {"window": np.eye(2)}),
    ):
        with pytest.raises(ValueError):
            signal.resample_poly(sig, *args, **kwargs)
    x_ref = _rp(sig, 2, 1)
    np.testing.assert_array_equal(_rp(sig, 2, 1, padtype="constant"), x_ref)
    np.testing.assert_array_equal(_rp(sig, 2, 1, padtype="constant", cval=0), x_ref)


def test_output_float32(full_run):
    x = np.arange(10, dtype=np.float32)
    h = np.array([1, 1, 1], dtype=np.float32)
    for i, padtype in enumerate(PADTYPES):
        if full_run or i % 4 == 0:
            assert _rp(x, 1, 2, window=h, padtype=padtype).dtype == np.float32


def test_output_match_dtype(full_run):
    for i, (padtype, dtype) in enumerate(product(PADTYPES, (np.float32, np.float64))):
        if full_run or i % 13 == 0:
            x = np.arange(10, dtype=dtype)
            assert _rp(x, 1, 2, padtype=padtype).dtype == x.dtype


def test_poly_vs_filtfilt(full_run):
    cases = list(product((2, 11, 79), (int, np.float32, np.complex64, float, complex)))
    for i, (down, dtype) in enumerate(cases):
        if i % (3 if full_run else 6):
            continue
        rng = np.random.RandomState(17)
        x = rng.randn(10000).astype(dtype)
        if dtype in (np.complex64, complex):
            x = x + 1j * rng.randn(10000)
        x = x.astype(dtype)
        x[0] = 0
        x[-1] = 0
        h = ss.firwin(31, 1.0 / down, window="hamming")
        yf = ss.filtfilt(h, 1.0, x, padtype="constant")[::down]
        hc = np.convolve(h, np.flip(h))
        _close(_rp(x, 1, down, window=hc), yf, atol=3e-7, rtol=6e-7)


def test_resample_poly_correlate1d(full_run):
    rng = np.random.default_rng(0)
    for down in (2, 4):
        for nx in range(1, 40, down):
            for nweights in (32, 33):
                if not (full_run and nx % 3 == 1 or nx == 1 + down):
                    continue
                x = rng.random(nx)
                weights = rng.random(nweights)
                want = correlate1d(x, np.flip(weights), mode="constant")[::down]
                _close(_rp(x, 1, down, window=weights), want)


def test_gh_15620():
    for dtype in (np.int32, np.float32):
        data = np.array([0, 1, 2, 3, 2, 1, 0], dtype=dtype)
        assert np.count_nonzero(np.asarray(_rp(data, 2, 1, padtype="smooth"))) > 0


def test_gh_22684():
    assert _rp(np.arange(2000, dtype=np.complex64), 6, 4).dtype == np.complex64
