"""jaxpad.scipy.signal's recursive filters (lfilter, lfilter_zi, sosfilt, sosfilt_zi,
filtfilt, sosfiltfilt, decimate) against scipy.signal: random differential tests over
orders, padtypes, padlen, zi and axis (float64 to 1e-8 of the output's magnitude), the
float32 error against scipy's own float32 error, second-order gradients, and jit, vmap
and eager agreeing. The bad inputs are rows of tests/bad_inputs.py.
"""

from __future__ import annotations

import jax
import jax.extend
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

from jaxpad._compat import CUSTOM_JVP_SCANS_TRANSPOSE
from jaxpad.scipy import signal
from tests.compat import enable_x64
from tests.rotation import share

ss = pytest.importorskip("scipy.signal")


def _close(got, want, rtol=1e-8):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    scale = max(np.abs(want).max(initial=0.0), 1e-300)
    np.testing.assert_allclose(got, want, rtol=0, atol=rtol * scale)


def _filter(rng, order):
    """A random stable lowpass or highpass Butterworth, as (b, a) and sos."""
    wn = float(rng.uniform(0.08, 0.6))
    btype = "low" if rng.random() < 0.6 else "high"
    b, a = ss.butter(order, wn, btype)
    return b, a, ss.butter(order, wn, btype, output="sos")


def test_filters_against_scipy(full_run):
    """lfilter and sosfilt, with and without zi, over orders, axes and lengths (the
    chunked path from 32 samples, sample by sample below), and a traced filter."""
    rng = np.random.default_rng(0)
    cases = [((3, 40), -1, 2)]
    if full_run:
        cases += [((150,), 0, 4), ((2, 33, 3), 1, 3), ((7,), 0, 1), ((300, 2), 0, 6)]
    with enable_x64(True):
        for shape, axis, order in cases:
            b, a, sos = _filter(rng, order)
            x = rng.standard_normal(shape)
            _close(signal.lfilter(b, a, x, axis), ss.lfilter(b, a, x, axis))
            _close(signal.sosfilt(sos, x, axis), ss.sosfilt(sos, x, axis))
            zshape = list(shape)
            zshape[axis] = len(a) - 1
            zi = rng.standard_normal(zshape)
            for got, want in zip(signal.lfilter(b, a, x, axis, zi), ss.lfilter(b, a, x, axis, zi)):
                _close(got, want)
            zshape = [sos.shape[0], *shape]
            zshape[axis % len(shape) + 1] = 2
            zs = rng.standard_normal(zshape)
            for got, want in zip(signal.sosfilt(sos, x, axis, zs), ss.sosfilt(sos, x, axis, zi=zs)):
                _close(got, want)
            # Traced coefficients: order >= 3 runs sample by sample, not split (once
            # per plan: a compile each).
            if order in (2, 4):
                traced = jax.jit(lambda b, a, x, zi: signal.lfilter(b, a, x, axis, zi))
                for got, want in zip(traced(b, a, x, zi), ss.lfilter(b, a, x, axis, zi)):
                    _close(got, want)


def test_zi_broadcast_and_fir():
    with enable_x64(True):
        x = np.random.default_rng(1).standard_normal((4, 9))
        b, a = [1.0, 0.5, -0.25], [2.0]
        zi = np.array([[0.5, -1.0]])  # (1, 2): broadcast along axis 0
        for got, want in zip(signal.lfilter(b, a, x, 1, zi), ss.lfilter(b, a, x, 1, zi)):
            _close(got, want)
        _close(signal.lfilter([3.0], [2.0], x), ss.lfilter([3.0], [2.0], x))


def test_filtfilt_against_scipy(full_run):
    rng = np.random.default_rng(2)
    cases = [((2, 60), -1, 3)]
    if full_run:
        cases += [((140,), 0, 4), ((40, 2), 0, 2), ((2, 200, 2), 1, 6)]
    # Each padtype and each padlen once, each case once (each pair is a compile).
    combos = [("odd", None), ("even", 0), ("constant", 5), (None, None), ("odd", 5)]
    runs = [(cases[i % len(cases)], combo) for i, combo in enumerate(combos)]
    with enable_x64(True):
        for (shape, axis, order), (padtype, padlen) in runs if full_run else runs[:1]:
            b, a, sos = _filter(rng, order)
            x = rng.standard_normal(shape)
            _close(
                signal.filtfilt(b, a, x, axis, padtype, padlen),
                ss.filtfilt(b, a, x, axis, padtype, padlen),
            )
            _close(
                signal.sosfiltfilt(sos, x, axis, padtype, padlen),
                ss.sosfiltfilt(sos, x, axis, padtype, padlen),
            )


def test_filtfilt_runs_whole_chunks():
    """Each pass of a chunked filtfilt runs its extension continued to whole chunks
    (the outputs past it dropped), so no run's head is sliced out and joined to a
    sample-by-sample tail by a concatenation of the whole signal."""
    b, a = ss.butter(4, 0.2)
    sos = ss.butter(8, 0.1, output="sos")
    x = jax.ShapeDtypeStruct((4, 8192), np.float32)
    # the extended lengths: padlen 3 * 5 for (b, a), 3 * 9 for the four sections
    runs = [
        (lambda x: signal.filtfilt(b, a, x), 8192 + 30),
        (lambda x: signal.sosfiltfilt(sos, x), 8192 + 54),
    ]
    for f, extended in runs:
        hlo = jax.jit(f).lower(x).compile().as_text()
        joins = [
            line for line in hlo.splitlines() if f",{extended}]" in line and "concatenate(" in line
        ]
        assert not joins, joins


def test_filtfilt_gust_against_scipy(full_run):
    rng = np.random.default_rng(12)
    # (shape, axis, order, irlen): irlen shorter than half the signal (the fit on the
    # first and last irlen samples); the whole signal fitted; a gain (order 0).
    cases = [((140,), 0, 4, 20)]
    if full_run:
        cases += [((2, 60), -1, 3, None), ((40, 2), 0, 2, None), ((9,), 0, 0, None)]
    with enable_x64(True):
        for shape, axis, order, irlen in cases:
            b, a, _ = _filter(rng, order)
            x = rng.standard_normal(shape)
            want = ss.filtfilt(b, a, x, axis, method="gust", irlen=irlen)
            _close(signal.filtfilt(b, a, x, axis, method="gust", irlen=irlen), want)
    # float32; under jit and vmap as eager; differentiable in x and the filter.
    b, a, _ = (np.asarray(v, np.float32) for v in _filter(rng, 2))
    x = rng.standard_normal((3, 40)).astype(np.float32)

    def gust(b, a, x):
        return signal.filtfilt(b, a, x, method="gust", irlen=12)

    eager = gust(b, a, x)
    _close(eager, ss.filtfilt(b, a, x.astype(np.float64), method="gust", irlen=12), 2e-4)
    if full_run:
        np.testing.assert_allclose(jax.jit(gust)(b, a, x), eager, rtol=1e-5, atol=1e-5)
        batched = jax.vmap(gust, in_axes=(None, None, 0))(b, a, x[:, None])[:, 0]
        np.testing.assert_allclose(batched, eager, rtol=1e-5, atol=1e-5)
    with enable_x64(True):
        b, a, x = (v.astype(np.float64) for v in (b, a, x[0, :24]))
        # Linear in x, so order 1 checks it whole; the cascade's own second-order
        # derivatives are test_gradients_of_order_two's.
        check_grads(lambda x: gust(b, a, x), (x,), order=1, modes=("fwd", "rev"))
        if full_run:
            check_grads(lambda b: gust(b, a, x), (b,), order=1, modes=("fwd", "rev"))


def test_initial_states_against_scipy(full_run):
    rng = np.random.default_rng(3)
    with enable_x64(True):
        for order in (1, 2, 5) if full_run else (5,):
            b, a, sos = _filter(rng, order)
            _close(signal.lfilter_zi(b, a), ss.lfilter_zi(b, a), 1e-10)
            _close(signal.sosfilt_zi(sos), ss.sosfilt_zi(sos), 1e-10)
        _close(
            signal.lfilter_zi([1.0, 2.0], [0.0, 2.0, 1.0]),
            ss.lfilter_zi([1.0, 2.0], [0.0, 2.0, 1.0]),
        )


def test_decimate_against_scipy(full_run):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 300))
    cases = [(2, None, "iir", True)]
    if full_run:
        cases += [(3, None, "fir", False), (5, 4, "iir", False), (4, None, "fir", True)]
        cases += [(3, 6, "iir", True), (2, 10, "fir", True)]
    with enable_x64(True):
        for q, n, ftype, zero_phase in cases:
            _close(
                signal.decimate(x, q, n, ftype, -1, zero_phase),
                ss.decimate(x, q, n, ftype, -1, zero_phase),
            )


def _err(got, want):
    return np.abs(np.asarray(got, np.float64) - want).max() / np.abs(want).max()


@pytest.mark.parametrize(
    "design",
    [
        pytest.param(("butter", 8, 0.1)),
        pytest.param(("ellip", 10, 0.02), marks=pytest.mark.slow),
        pytest.param(("butter", 4, 0.002), marks=pytest.mark.slow),
        pytest.param(("cheby1", 6, 0.3), marks=pytest.mark.slow),
    ],
)
def test_float32_error_at_most_twice_scipys(design):
    """Against float64 runs of the same float32-rounded filter; (4, 0.002) has poles at
    |p| = 0.994 and runs sample by sample."""
    kind, order, wn = design
    extra = {"ellip": (0.5, 60), "cheby1": (0.5,), "butter": ()}[kind]
    sos = getattr(ss, kind)(order, *extra, wn, output="sos").astype(np.float32)
    x = np.random.default_rng(5).standard_normal((2, 1024)).astype(np.float32)
    s64, x64 = sos.astype(np.float64), x.astype(np.float64)
    # Eagerly and under jit, where the coefficients (NumPy constants) are planned alike.
    want = ss.sosfilt(s64, x64)
    for got in (signal.sosfilt(sos, x), jax.jit(lambda x: signal.sosfilt(sos, x))(x)):
        assert _err(got, want) <= 2 * _err(ss.sosfilt(sos, x), want)
    want = ss.sosfiltfilt(s64, x64)
    for got in (signal.sosfiltfilt(sos, x), jax.jit(lambda x: signal.sosfiltfilt(sos, x))(x)):
        assert _err(got, want) <= 2 * _err(ss.sosfiltfilt(sos, x), want)
    if order <= 8:
        b, a = (v.astype(np.float32) for v in ss.sos2tf(sos.astype(np.float64)))
        want = ss.lfilter(b.astype(np.float64), a.astype(np.float64), x64)
        for got in (signal.lfilter(b, a, x), jax.jit(lambda x: signal.lfilter(b, a, x))(x)):
            assert _err(got, want) <= 2 * _err(ss.lfilter(b, a, x), want)


def test_narrow_dtypes():
    sos = ss.butter(4, 0.2, output="sos")
    x = np.random.default_rng(6).standard_normal(80).astype(np.float32)
    want = np.asarray(signal.sosfilt(sos.astype(np.float32), x))
    for dtype in (jnp.float16, jnp.bfloat16):
        got = signal.sosfilt(jnp.asarray(sos, dtype), jnp.asarray(x, dtype))
        assert got.dtype == dtype
        np.testing.assert_allclose(np.asarray(got, np.float32), want, atol=0.05)


def test_gradients_of_order_two(full_run):
    """check_grads (forward and reverse) once per path: sosfilt of two sections in sos,
    x and zi through the chunked path and its tail (40 samples: 2 chunks of 16 + 8),
    lfilter in b, a, x and zi sample by sample (9) and filtfilt through its pads (12).
    The default run checks the chunked path to order 1 (order 2 there costs ~15 s of
    compiles); --all one path to order 2, in turn."""
    rng = np.random.default_rng(7)
    with enable_x64(True):
        b, a, _ = _filter(np.random.default_rng(11), 2)
        sos2 = ss.butter(4, 0.35, output="sos")
        order = 2 if full_run else 1
        # eps 1e-6: the finite differences' truncation error at check_grads' default
        # (1e-4) reached 1.5e-4 of these filters' second derivatives in a.
        x40 = rng.standard_normal((2, 40))
        zs = rng.standard_normal((sos2.shape[0], 2, 2))
        x9, zi = rng.standard_normal((2, 9)), rng.standard_normal((2, 2))
        # 12 samples, padded to 30: sample by sample, half the compile of 30 (48).
        x12 = rng.standard_normal(12)
        paths = [
            (lambda s, x, z: signal.sosfilt(s, x, -1, z), (sos2, x40, zs)),
            (lambda b, a, x, zi: signal.lfilter(b, a, x, -1, zi), (b, a, x9, zi)),
            (lambda b, a, x: signal.filtfilt(b, a, x), (b, a, x12)),
        ]
        # The default run: the chunked path to order 1. --all: one path to order 2,
        # rotating with the seed (tests/rotation.py): ~10 s of compiles each (CI's
        # budget), every path across commits.
        for f, args in share(paths, 3, "test_gradients_of_order_two") if full_run else paths[:1]:
            check_grads(f, args, order=order, modes=("fwd", "rev"), eps=1e-6)


def test_nonfinite_samples_spread_as_scipys():
    """A nan or +-inf in x (first sample, mid-chunk, last sample) is non-finite in the
    output exactly where scipy's recursion puts it (nan and inf patterns and the infs'
    signs equal), and the finite outputs equal scipy's; a finite cotangent has a finite
    gradient in x, even on these rows. One shape (2 chunks of 16 + a tail of 8)."""
    b, a = ss.butter(2, 0.3)
    sos = ss.butter(2, 0.3, output="sos")
    x = np.random.default_rng(12).standard_normal((10, 40))
    for row, (value, at) in enumerate(
        [(v, i) for v in (np.nan, np.inf, -np.inf) for i in (0, 21, 39)], start=1
    ):
        x[row, at] = value
    with enable_x64(True), np.errstate(invalid="ignore"):
        runs = [
            # lfilter and sosfilt share one compile (one second-order section).
            (lambda x: signal.lfilter(b, a, x), ss.lfilter(b, a, x)),
            (lambda x: signal.sosfilt(sos, x), ss.sosfilt(sos, x)),
            (lambda x: signal.filtfilt(b, a, x), ss.filtfilt(b, a, x)),
        ]
        for f, want in runs:
            got = np.asarray(f(x))
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
            np.testing.assert_array_equal(np.isposinf(got), np.isposinf(want))
            np.testing.assert_array_equal(np.isneginf(got), np.isneginf(want))
            finite = np.isfinite(want)
            _close(got[finite], want[finite], 1e-10)
        # The gradient in x is linear in the cotangent: finite even on these rows.
        _, vjp = jax.vjp(runs[1][0], x)
        assert np.all(np.isfinite(np.asarray(vjp(np.ones_like(x))[0])))


def _signal_masks(jaxpr, shape, in_cond=False):
    """Each ``is_finite`` of an array of ``shape`` in ``jaxpr`` and its sub-jaxprs:
    whether it lies inside a ``cond``'s branch."""
    found = []
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "is_finite" and eqn.invars[0].aval.shape == shape:
            found.append(in_cond)
        for sub in _subjaxprs(eqn.params.values()):
            found += _signal_masks(sub, shape, in_cond or eqn.primitive.name == "cond")
    return found


def _subjaxprs(values):
    for value in values:
        if isinstance(value, (tuple, list)):
            yield from _subjaxprs(value)
        elif isinstance(value, jax.extend.core.ClosedJaxpr):
            yield value.jaxpr
        elif isinstance(value, jax.extend.core.Jaxpr):
            yield value


def test_finite_signals_are_not_masked():
    """The chunked run tests the signal for non-finite samples with one sum and masks
    it only in the branch that has one (masking on every call doubled the run's
    time); a sum that overflows on finite samples takes that branch, with the same
    answer as scipy's."""
    sos = ss.butter(2, 0.3, output="sos")
    x = np.random.default_rng(13).standard_normal((2, 40)).astype(np.float32)
    jaxpr = jax.make_jaxpr(lambda x: signal.sosfilt(sos, x))(x).jaxpr
    assert _signal_masks(jaxpr, x.shape) == [True], _signal_masks(jaxpr, x.shape)
    big = np.full((2, 40), 3e38, np.float32)
    big[1] *= -1
    big[:, ::3] = 1.0
    got = np.asarray(jax.jit(lambda x: signal.sosfilt(sos, x))(big), np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        want = ss.sosfilt(sos.astype(np.float32), big)
    np.testing.assert_array_equal(np.isfinite(got), np.isfinite(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-5)


@pytest.mark.skipif(
    not CUSTOM_JVP_SCANS_TRANSPOSE,
    reason="before jax 0.10 the guard's conditional is vmapped as JAX does (both branches)",
)
def test_vmap_over_signals_keeps_one_test_for_the_batch():
    """vmap over signals folds the batch into the chunked run's lanes: one conditional
    for the whole batch (vmap of the conditional ran both branches, the non-finite
    samples' run sample by sample included: 7x slower), and a batch with a non-finite
    signal still gives scipy's values in every signal."""
    sos = ss.butter(2, 0.3, output="sos")
    x = np.random.default_rng(14).standard_normal((3, 2, 40))
    x[1, 0, 21] = np.nan
    x[2, 1, 5] = -np.inf

    def f(x):
        return signal.sosfilt(sos, x)

    text = jax.jit(jax.vmap(f)).lower(x[:, :, :].astype(np.float32)).as_text()
    assert "stablehlo.case" in text
    with enable_x64(True), np.errstate(invalid="ignore"):
        got = np.asarray(jax.vmap(f)(x))
        want = ss.sosfilt(sos, x)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(np.isneginf(got), np.isneginf(want))
        finite = np.isfinite(want)
        _close(got[finite], want[finite], 1e-10)
        # and differentiable under vmap, as before
        grads = jax.vmap(jax.grad(lambda x: jnp.sum(f(x))))(x[:1])
        assert np.all(np.isfinite(np.asarray(grads)))


def test_gradient_in_x_equals_the_transposed_filter():
    """The VJP in x is the filter run backwards: lfilter's matrix transposed."""
    with enable_x64(True):
        b, a = ss.butter(3, 0.3)
        x = np.random.default_rng(8).standard_normal(70)
        g = np.random.default_rng(9).standard_normal(70)
        _, vjp = jax.vjp(lambda x: signal.lfilter(b, a, x), x)
        want = ss.lfilter(b, a, g[::-1])[::-1]
        _close(vjp(g)[0], want, 1e-10)


@pytest.mark.skipif(
    not CUSTOM_JVP_SCANS_TRANSPOSE, reason="JAX before 0.10 differentiates the engine"
)
def test_gradient_in_sos_writes_no_section_output():
    """With coefficient tangents, the chunked tangent is one product of the primal's
    chunk inputs with the coefficients' matrix (the engine's ``_coefficient_tangent``):
    the VJP in sos writes no section's output and no lagged copy of one. Its compiled
    temporaries at (8, 8192) float32, 8th order (four sections), were 38 signals' worth
    with the forcings written out, 13 with each section's output banded; now 5."""
    sos = ss.butter(8, 0.1, output="sos").astype(np.float32)
    x = np.zeros((8, 8192), np.float32)
    pullback = jax.jit(lambda c, s, x: jax.vjp(signal.sosfilt, s, x)[1](c))
    temp = pullback.lower(x, sos, x).compile().memory_analysis().temp_size_in_bytes
    assert temp < 8 * x.nbytes, temp / x.nbytes


def test_jit_vmap_eager_agree():
    rng = np.random.default_rng(10)
    sos = jnp.asarray(np.stack([ss.butter(4, w, output="sos") for w in (0.1, 0.3, 0.5)]))
    x = jnp.asarray(rng.standard_normal((3, 50)).astype(np.float32))
    eager = np.stack([signal.sosfilt(sos[i], x[i]) for i in range(3)])
    over_both = jax.vmap(signal.sosfilt)(sos, x)
    over_signals = jax.jit(jax.vmap(signal.sosfilt, (None, 0)))(sos[0], x)
    np.testing.assert_allclose(over_both, eager, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(over_signals[1], signal.sosfilt(sos[0], x[1]), rtol=2e-5, atol=2e-5)
