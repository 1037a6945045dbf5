"""The polyphase filter of upfirdn and resample_poly (jaxpad/scipy/_fir/_polyphase.py):
its value over every kind of span against NumPy's convolution of the zero-stuffed
signal, its two transposes (the adjoint filter and the Gram matrix) against the ones
JAX derives, the gradient in the filter's infs and nans against JAX's gradient of the
same products written in jnp, and what the VJP's compiled program holds."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxpad._lowering.conv._bilinear import derived_transposes
from jaxpad.scipy import signal
from jaxpad.scipy._fir._polyphase import Plan, Span, _adjoint_plan, _rules
from tests.compat import enable_x64

PLANS = [(200, 32, 3, 2), (300, 12, 4, 6), (50, 7, 2, 3), (9, 5, 1, 1), (300, 61, 3, 2)]


@pytest.fixture(autouse=True)
def _x64():
    with enable_x64(True):
        yield


def _spans(plan: Plan, rng) -> list[Span]:
    """The spans upfirdn binds (the signal at ``left`` or its extension whole), the
    adjoint's (a lead past ``left``, a cropped output), and random ones."""
    left = plan.per_phase - 1
    total = plan.rows * plan.stride
    spans = [Span(left, plan.n, 0, plan.out_len), Span(0, total, 0, plan.out_len)]
    for _ in range(2):
        start = int(rng.integers(0, plan.out_len))
        spans.append(
            Span(
                int(rng.integers(0, left + 4)),
                int(rng.integers(1, total + 3)),
                start,
                int(rng.integers(1, plan.out_len - start + 1)),
            )
        )
    return spans


def _expected(plan: Plan, span: Span, e: np.ndarray, taps: np.ndarray) -> np.ndarray:
    """NumPy's full convolution of the zero-stuffed extended signal: output ``n`` at
    ``left * up + n * down``."""
    total = plan.rows * plan.stride
    extended = np.zeros((e.shape[0], total + span.lead + span.length))
    extended[:, span.lead : span.lead + span.length] = e
    stuffed = np.zeros((e.shape[0], total * plan.up))
    stuffed[:, :: plan.up] = extended[:, :total]
    left = plan.per_phase - 1
    full = np.stack([np.convolve(row, taps) for row in stuffed])
    out = full[:, left * plan.up :: plan.down][:, : plan.out_len]
    return out[:, span.start : span.start + span.count]


@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("args", PLANS)
def test_value_and_transposes_over_spans(args, adjoint):
    """Over upfirdn's plans and their adjoints' (whose taps outside the live ones are
    never multiplied: nan there changes nothing)."""
    rng = np.random.default_rng(sum(args))
    plan = _adjoint_plan(Plan(*args)) if adjoint else Plan(*args)
    first, end = plan.live or (0, plan.taps)
    for span in _spans(plan, rng):
        rules = _rules(plan, span)
        e = rng.standard_normal((2, span.length))
        taps = np.zeros(plan.per_phase * plan.up)  # the filter, zero-padded
        taps[first:end] = rng.standard_normal(end - first)
        live = taps.copy()
        if plan.live:
            taps[:first], taps[end:] = np.nan, np.nan
        ct = rng.standard_normal((2, span.count))
        specs = [jax.ShapeDtypeStruct(v.shape, v.dtype) for v in (e, taps)]
        derived = derived_transposes(rules.value, *specs)

        @jax.jit  # one program a span: its five results
        def results(e, taps, ct, rules=rules, derived=derived):
            ours = (rules.a_transpose(ct, taps), rules.b_transpose(e, ct))
            jax_s = (derived[0](ct, taps), derived[1](e, ct))
            return rules.value(e, taps), ours, jax_s

        value, ours, jax_s = results(e, taps, ct)
        np.testing.assert_allclose(value, _expected(plan, span, e, live), atol=1e-12)
        for got, want in zip(ours, jax_s):
            np.testing.assert_allclose(got, want, atol=1e-11)


def _products(h, x, up: int, down: int):
    """upfirdn written in jnp as the products scipy forms: the zero-stuffed signal read
    by a gather (a read past the start a filled zero), times the filter, summed."""
    n, taps = x.shape[-1], h.shape[0]
    out_len = ((n - 1) * up + taps - 1) // down + 1
    stuffed = jnp.zeros((*x.shape[:-1], n * up), x.dtype).at[..., ::up].set(x)
    index = np.arange(out_len)[:, None] * down - np.arange(taps)[None, :]
    index = np.where(index < 0, n * up, index)
    read = jnp.take(stuffed, index, axis=-1, mode="fill", fill_value=0)
    return (read * h).sum(-1)


def test_gradient_in_the_filter_holds_only_its_products():
    """An inf or nan in the signal reaches the filter's gradient only through the
    products of an output and a sample it reads, as JAX's gradient of those products
    written in jnp (a zero-stuffed signal read by a gather); a zero cotangent meets an
    inf as the products do. Long enough for whole Gram blocks and a tail."""
    rng = np.random.default_rng(3)
    n, taps, up, down = 400, 12, 3, 2
    x = rng.standard_normal((2, n))
    x[0, 5], x[0, 390], x[1, 200], x[1, 399] = np.inf, -np.inf, np.nan, np.inf
    h = rng.standard_normal(taps)
    out_len = ((n - 1) * up + taps - 1) // down + 1
    ct = rng.standard_normal((2, out_len))
    ct[0, ::7] = 0.0

    got = jax.jit(jax.grad(lambda h: jnp.vdot(signal.upfirdn(h, x, up, down), ct)))(h)
    want = jax.jit(jax.grad(lambda h: jnp.vdot(_products(h, x, up, down), ct)))(h)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isposinf(got), np.isposinf(want))
    np.testing.assert_array_equal(np.isneginf(got), np.isneginf(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(np.asarray(got)[finite], np.asarray(want)[finite], rtol=1e-10)


def test_gradient_in_the_signal_holds_only_its_products():
    """An inf or nan in the cotangent reaches the signal's gradient only through the
    filter's own taps, as JAX's gradient of the products written in jnp: neither the
    adjoint's leading zero nor scipy's zero padding of the filter (13 taps padded to 15)
    multiplies it."""
    rng = np.random.default_rng(4)
    n, taps, up, down = 300, 13, 3, 2
    x = rng.standard_normal((2, n))
    h = rng.standard_normal(taps)
    out_len = ((n - 1) * up + taps - 1) // down + 1
    ct = rng.standard_normal((2, out_len))
    ct[0, ::17], ct[1, 3::23], ct[1, -1] = np.nan, np.inf, -np.inf

    got = jax.jit(jax.grad(lambda x: jnp.vdot(signal.upfirdn(h, x, up, down), ct)))(x)
    want = jax.jit(jax.grad(lambda x: jnp.vdot(_products(h, x, up, down), ct)))(x)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(np.asarray(got)[finite], np.asarray(want)[finite], rtol=1e-10)


def test_vjp_reads_the_signal_and_the_cotangent_themselves():
    """The VJP in h and x: no convolution (the filter's gradient was one, its operands
    transposed into its layout) and neither the signal's zeros nor the cotangent's
    written out: its temporaries under 1.6 signals' worth (2.5 before)."""
    x = jnp.zeros((8, 4022), jnp.float32)  # 2016 outputs a phase: Gram blocks of 16
    h = jnp.zeros(32, jnp.float32)
    y = jax.eval_shape(lambda h, x: signal.upfirdn(h, x, 3, 2), h, x)
    ct = jnp.zeros(y.shape, jnp.float32)
    pullback = jax.jit(lambda h, x, ct: jax.vjp(lambda *a: signal.upfirdn(*a, 3, 2), h, x)[1](ct))
    compiled = pullback.lower(h, x, ct).compile()
    assert "convolution" not in compiled.as_text()
    temp = compiled.memory_analysis().temp_size_in_bytes
    assert temp < 1.6 * x.size * 4, temp / (x.size * 4)


def test_gradient_in_the_signal_copies_no_cotangent():
    """In a mode that extends the signal, the adjoint filter reads the cotangent past
    its ends: its outputs there are computed from small pieces, not from a padded copy
    of the cotangent (1.5 signals' worth with up 3, down 2). Its temporaries are the
    gradient in the extended signal alone, before the pad's transpose folds it."""
    x = jnp.zeros((8, 4022), jnp.float32)
    h = jnp.zeros(32, jnp.float32)
    y = jax.eval_shape(lambda x: signal.upfirdn(h, x, 3, 2, mode="edge"), x)
    ct = jnp.zeros(y.shape, jnp.float32)
    pullback = jax.jit(
        lambda x, ct: jax.vjp(lambda x: signal.upfirdn(h, x, 3, 2, mode="edge"), x)[1](ct)
    )
    temp = pullback.lower(x, ct).compile().memory_analysis().temp_size_in_bytes
    assert temp < 1.5 * x.size * 4, temp / (x.size * 4)
