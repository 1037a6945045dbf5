"""Ports of scipy's own tests (scipy/signal/tests/test_signaltools.py, 1.17) for the
recursive filters: the classes of lfilter (_TestLinearFilter), lfilter_zi
(TestLFilterZI), sosfilt (TestSOSFilt), filtfilt and sosfiltfilt (TestFiltFilt,
TestSOSFiltFilt) and decimate (TestDecimate), what applies to real inputs (no complex,
object or longdouble dtypes, no lfiltic, no dlti filters), and TestFiltFilt's
Gustafsson's-method tests (test_gust_simple, test_gust_scalars, test_filtfilt_gust
against its independent fmin solution, on a shorter filter and signal).
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_almost_equal

from jaxpad.scipy import signal
from tests.compat import enable_x64

ss = pytest.importorskip("scipy.signal")


@pytest.fixture(autouse=True)
def _x64():
    with enable_x64(True):
        yield


def test_lfilter_rank_1():
    x = np.linspace(0, 5, 6)
    assert_array_almost_equal(signal.lfilter([1, -1], [0.5, -0.5], x), [0, 2, 4, 6, 8, 10.0])
    assert_array_almost_equal(signal.lfilter([1, 1], [1], x), [0, 1, 3, 5, 7, 9.0])
    y, zf = signal.lfilter([1, 0, -1], [0.5, -0.5], x, zi=[1, 2])
    assert_array_almost_equal(y, [1, 5, 9, 13, 17, 21])
    assert_array_almost_equal(zf, [13, -10])
    y, zf = signal.lfilter([1, 1, 1], [1], x, zi=[1, 1])
    assert_array_almost_equal(y, [1, 2, 3, 6, 9, 12.0])
    assert_array_almost_equal(zf, [9, 5])


def test_lfilter_rank_2_axes_and_init_cond():
    x = np.arange(12.0).reshape(4, 3)
    b, a = [1, -1], [0.5, 0.5]
    for axis in (0, 1):
        assert_allclose(signal.lfilter(b, a, x, axis), ss.lfilter(b, a, x, axis))
        zshape = list(x.shape)
        zshape[axis] = 1
        zi = np.ones(zshape)
        for got, want in zip(signal.lfilter(b, a, x, axis, zi), ss.lfilter(b, a, x, axis, zi)):
            assert_allclose(got, want)


def test_lfilter_rank_3_and_pseudobroadcast():
    x = np.random.default_rng(0).standard_normal((4, 3, 2))
    b, a = [1, -1], [0.5, 0.5]
    assert_allclose(signal.lfilter(b, a, x), ss.lfilter(b, a, x))
    zi = np.ones((1, 1, 1))  # test_zi_pseudobroadcast: size-1 dimensions broadcast
    for got, want in zip(signal.lfilter(b, a, x, -1, zi), ss.lfilter(b, a, x, -1, zi)):
        assert_allclose(got, want)


def test_lfilter_scalar_a_short_x_and_bad_zi():
    x = np.arange(6.0)
    assert_allclose(signal.lfilter([1.0], 2.0, x), ss.lfilter([1.0], 2.0, x))
    b, a = [1.0, 2.0, 3.0], [1.0, -0.5]  # test_short_x: fewer samples than states
    y, zf = signal.lfilter(b, a, [1.0], zi=[0.5, 0.25])
    want = ss.lfilter(b, a, [1.0], zi=[0.5, 0.25])
    assert_allclose(y, want[0])
    assert_allclose(zf, want[1])
    with pytest.raises(ValueError, match="zi must have shape"):
        signal.lfilter(b, a, x, zi=np.ones(3))


def test_lfilter_zi():
    assert_array_almost_equal(signal.lfilter_zi([1.0, 0.0, 2.0], [1.0, -1.0, 0.5]), [5.0, -1.0])
    b, a = np.array([2.0, 8, 5]), np.array([1.0, 1, 8])
    assert_allclose(signal.lfilter_zi(2 * b, 2 * a), signal.lfilter_zi(b, a), rtol=1e-12)
    for dtype in (np.float32, np.float64):
        assert signal.lfilter_zi(np.zeros(8, dtype), np.ones(1, dtype)).dtype == dtype


def test_sosfilt_rank1_and_initial_conditions():
    x = np.linspace(0, 5, 6)
    assert_array_almost_equal(
        signal.sosfilt(ss.tf2sos([1, -1], [0.5, -0.5]), x), [0, 2, 4, 6, 8, 10.0]
    )
    y = signal.sosfilt(np.array([[1.0, 1, 0, 1, 0, 0]]), np.ones(8))
    assert_allclose(y, [1.0, 2, 2, 2, 2, 2, 2, 2])
    b, a = ss.ellip(6, 1, 40, 0.1)  # _get_ab_sos
    sos = ss.ellip(6, 1, 40, 0.1, output="sos")
    x = np.random.default_rng(1).random(50)
    y1, zi = signal.lfilter(b, a, x[:20], zi=np.zeros(6))
    y_true = np.concatenate([y1, signal.lfilter(b, a, x[20:], zi=zi)[0]])
    assert_allclose(y_true, ss.lfilter(b, a, x), rtol=1e-8)
    y1, zi = signal.sosfilt(sos, x[:20], zi=np.zeros((3, 2)))
    y_sos = np.concatenate([y1, signal.sosfilt(sos, x[20:], zi=zi)[0]])
    assert_allclose(y_sos, y_true, rtol=1e-8)
    zi = signal.sosfilt_zi(sos)
    y, zf = signal.sosfilt(sos, np.ones(8), zi=zi)
    assert_allclose(y, ss.sosfilt(sos, np.ones(8), zi=ss.sosfilt_zi(sos))[0], rtol=1e-10)
    assert_allclose(zf, zi, rtol=1e-10)


def test_sosfilt_initial_conditions_3d_axis1():
    x = np.random.default_rng(2).random((4, 50, 3))
    sos = ss.butter(6, 0.2, output="sos")
    zi = np.random.default_rng(3).random((3, 4, 2, 3))
    y, zf = signal.sosfilt(sos, x, axis=1, zi=zi)
    want = ss.sosfilt(sos, x, axis=1, zi=zi)
    assert_allclose(y, want[0], rtol=1e-10)
    assert_allclose(zf, want[1], rtol=1e-10)
    with pytest.raises(ValueError, match="zi must have shape"):
        signal.sosfilt(sos, x, axis=1, zi=np.ones((3, 4, 3, 3)))


def test_sosfilt_zi():
    sos = ss.butter(6, 0.2, output="sos")
    zi = signal.sosfilt_zi(sos)
    y, zf = signal.sosfilt(sos, np.ones(40), zi=zi)
    assert_allclose(zf, zi, rtol=1e-10)
    steady = np.prod(sos[:, :3].sum(-1) / sos[:, 3:].sum(-1))
    assert_allclose(y, steady * np.ones(40), rtol=1e-10)


# tf: ~2.5 s (an order-8 split plan over 2001 samples); the default run's filtfilt
# cases cover the split plan's pads and padlen.
@pytest.mark.parametrize("kind", [pytest.param("tf", marks=pytest.mark.slow), "sos"])
def test_filtfilt_basic_sine_axis(kind):
    def filtfilt(zpk, x, **kwargs):
        if kind == "sos":
            return signal.sosfiltfilt(ss.zpk2sos(*zpk), x, **kwargs)
        return signal.filtfilt(*ss.zpk2tf(*zpk), x, **kwargs)

    out = filtfilt(ss.tf2zpk([1.0, 2, 3], [1.0, 2, 3]), np.arange(12.0))
    assert_allclose(out, np.arange(12.0), atol=5.28e-11)
    t = np.linspace(0, 1.0, 2001)
    xlow = np.sin(5 * 2 * np.pi * t)
    x = xlow + np.sin(250 * 2 * np.pi * t)
    zpk = ss.butter(8, 0.125, output="zpk")
    n = int(np.ceil(np.log(1e-5) / np.log(np.abs(zpk[1]).max())))
    y2d = filtfilt(zpk, np.vstack([xlow, x]), padlen=n, axis=1)
    assert np.abs(np.asarray(y2d) - xlow).max() < 1e-4
    assert_allclose(
        filtfilt(zpk, np.vstack([xlow, x]).T, padlen=n, axis=0),
        np.asarray(y2d).T,
        rtol=1e-12,
        atol=1e-12,
    )
    x = np.arange(10.0 * 11.0 * 12.0).reshape(10, 11, 12)
    zpk = ss.butter(3, 0.125, output="zpk")
    y0 = filtfilt(zpk, x, padlen=0, axis=0)
    y2 = filtfilt(zpk, np.swapaxes(x, 0, 2), padlen=0, axis=2)
    assert_allclose(y0, np.swapaxes(np.asarray(y2), 0, 2), rtol=1e-12)


def test_gust_simple_and_scalars():
    # test_gust_simple: a signal of length 2, the initial conditions "computed by
    # hand" in scipy's test (z1 = 0.3 x0 + 0.2 x1, z2 = 0.2 x0 + 0.3 x1).
    x = np.array([1.0, 2.0])
    z1 = 0.3 * x[0] + 0.2 * x[1]
    z2 = 0.2 * x[0] + 0.3 * x[1]
    want = [
        z1 + 0.25 * z2 + 0.25 * x[0] + 0.125 * x[1],
        0.25 * z1 + z2 + 0.125 * x[0] + 0.25 * x[1],
    ]
    assert_allclose(signal.filtfilt([0.5], [1.0, -0.5], x, method="gust"), want, rtol=1e-13)
    # test_gust_scalars: scalar coefficients, a gain of (b / a) ** 2.
    x = np.arange(12.0)
    assert_allclose(signal.filtfilt(3.0, 2.0, x, method="gust"), (3.0 / 2.0) ** 2 * x)


def _filtfilt_gust_opt(b, a, x):
    """scipy's test's independent Gustafsson filter: the initial states that minimize
    the forward-backward and backward-forward filters' difference, by fmin."""
    optimize = pytest.importorskip("scipy.optimize")
    m = max(len(a), len(b)) - 1

    def objective(ics):
        y_f = ss.lfilter(b, a, x, zi=ics[:m])[0]
        y_fb = ss.lfilter(b, a, y_f[::-1], zi=ics[m:])[0][::-1]
        y_b = ss.lfilter(b, a, x[::-1], zi=ics[m:])[0][::-1]
        y_bf = ss.lfilter(b, a, y_b, zi=ics[:m])[0]
        return np.sum((y_fb - y_bf) ** 2)

    zi = ss.lfilter_zi(b, a)
    ics = np.concatenate((x[:m].mean() * zi, x[-m:].mean() * zi))
    opt, _, _, _, warnflag = optimize.fmin(
        objective,
        ics,
        xtol=1e-10,
        ftol=1e-12,
        maxfun=10000,
        maxiter=10000,
        full_output=True,
        disp=False,
    )
    assert warnflag == 0
    y_b = ss.lfilter(b, a, x[::-1], zi=opt[m:])[0][::-1]
    return ss.lfilter(b, a, y_b, zi=opt[:m])[0]


def test_filtfilt_gust_against_the_minimization():
    # scipy's test_filtfilt_gust with a second-order elliptic filter (its third-order
    # one needs a signal of ~1,500 samples for its impulse response): the whole
    # signal, and irlen its impulse response's length, along each axis of a 3-D array.
    z, p, k = ss.ellip(2, 0.01, 60, 0.3, output="zpk")
    irlen = int(np.ceil(np.log(1e-10) / np.log(np.max(np.abs(p)))))
    b, a = ss.zpk2tf(z, p, k)
    x = np.random.default_rng(123).standard_normal((2, 5 * irlen))
    want = np.stack([_filtfilt_gust_opt(b, a, row) for row in x])
    for length in (None, irlen):
        got = signal.filtfilt(b, a, x.T, axis=0, method="gust", irlen=length)
        assert_allclose(np.asarray(got).T, want, rtol=1e-8, atol=1e-9)


@pytest.mark.slow  # ~2 s; lfilter's FIR path runs in test_zi_broadcast_and_fir
def test_filtfilt_acoeff_and_sos_equivalence():
    assert_allclose(signal.filtfilt([0.5, 0.5], 1, np.arange(10.0)), np.arange(10.0), atol=1e-13)
    x = np.random.default_rng(4).standard_normal(90)
    zpk = ss.butter(5, 0.3, output="zpk")
    y_tf = signal.filtfilt(*ss.zpk2tf(*zpk), x)
    y_sos = signal.sosfiltfilt(ss.zpk2sos(*zpk), x)
    assert_allclose(y_tf, y_sos, rtol=1e-10, atol=1e-10)


def test_decimate_basic_and_shape():
    x = np.arange(12)
    for ftype in ("iir", "fir"):
        y = np.round(np.asarray(signal.decimate(x, 2, n=1, ftype=ftype, zero_phase=False)))
        np.testing.assert_array_equal(y, x[::2].astype(float))
    z = np.zeros((30, 30))
    assert signal.decimate(z, 2, axis=0, zero_phase=False).shape == (15, 30)
    assert signal.decimate(z, 2, axis=1, zero_phase=False).shape == (30, 15)


@pytest.mark.parametrize("ftype", ["iir", pytest.param("fir", marks=pytest.mark.slow)])
def test_decimate_phaseshift(ftype):
    rate, rates_to = 120, [15, 20, 30, 40]
    t_tot = 20
    t = np.arange(rate * t_tot + 1) / float(rate)
    freqs = np.array(rates_to) * 0.8 / 2
    d = (np.exp(1j * 2 * np.pi * freqs[:, None] * t) * ss.windows.tukey(t.size, 0.1)).real
    for i, rate_to in enumerate(rates_to[:1]):
        q = rate // rate_to
        zero_phase = True
        got = signal.decimate(d[i], q, ftype=ftype, zero_phase=zero_phase)
        assert_allclose(
            got, ss.decimate(d[i], q, ftype=ftype, zero_phase=zero_phase), rtol=1e-8, atol=1e-8
        )


@pytest.mark.slow
def test_decimate_auto_n_and_float32():
    x = np.random.default_rng(5).random(200)
    for q in (3,):
        assert_allclose(
            signal.decimate(x, q, ftype="fir"),
            ss.decimate(x, q, ftype="fir"),
            rtol=1e-10,
            atol=1e-12,
        )
    x32 = np.ones(1000, np.float32)
    y = signal.decimate(x32, 10)
    assert y.dtype == np.float32
    assert_allclose(y, ss.decimate(x32, 10), rtol=1e-4, atol=1e-4)
