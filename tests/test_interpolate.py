"""Tests for jaxpad/_interpolate.py (``jaxpad.nn.interpolate``) and the torch layer
spellings in jaxpad/equinox.py (``Upsample``, ``UpsamplingNearest2d``,
``UpsamplingBilinear2d``).

Oracles: torch's ``F.interpolate``, its autograd and its layers where torch is installed
(skipped without it: CI's venv has no torch); without torch, ``jax.image.resize`` in the
cases where torch's rule is JAX's (half-pixel linear, antialiased bilinear and bicubic,
``cubic-pytorch``, integer-factor ``area``), and finite differences (``check_grads``).
"""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

import jaxpad
from tests.compat import enable_x64
from tests.rotation import rotation

_LINEAR = {1: "linear", 2: "bilinear", 3: "trilinear"}
_SHAPES = {1: (2, 3, 7), 2: (2, 3, 7, 5), 3: (1, 2, 5, 4, 6)}


def _torch():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    return torch


def _cases(d):
    """Every mode that takes a ``d``-D spatial input, under sizes and scale factors
    that grow, shrink, mix both, reach one sample, and need ``recompute``."""
    modes = ["nearest", "nearest-exact", "area", _LINEAR[d]] + (["bicubic"] if d == 2 else [])
    specs = [
        {"size": [13, 11, 9][:d]},
        {"size": [3, 2, 4][:d]},
        {"size": [1, 1, 1][:d]},
        {"scale_factor": 2.0},
        {"scale_factor": 0.45},
        {"scale_factor": 1.7, "recompute_scale_factor": True},
        {"scale_factor": [1.3, 0.6, 2.2][:d]},
    ]
    for mode, spec in itertools.product(modes, specs):
        aligns = [None] if mode in ("nearest", "nearest-exact", "area") else [False, True]
        antialias = [False, True] if mode in ("bilinear", "bicubic") else [False]
        for align, aa in itertools.product(aligns, antialias):
            yield dict(spec, mode=mode, align_corners=align, antialias=aa)


def test_matches_torch(full_run):
    """Every mode, size and scale-factor rule, ``align_corners`` and ``antialias``:
    float64 to 1e-12, float32 within 2e-6 of the input's range; ``channels_last``
    equal to the channels-first result."""
    torch = _torch()
    F = torch.nn.functional
    rng = np.random.default_rng(0)
    checked = 0
    # the default run: a case of each rank in turn; --all: every twelfth; the share
    # rotates with the seed (tests/rotation.py), every case across commits (each case
    # compiles its passes: CI's budget, tests/conftest.py)
    share = 12 if full_run else 30
    start = rotation(share, "test_matches_torch")
    with enable_x64(True):
        for d in (1, 2, 3):
            x = rng.standard_normal(_SHAPES[d])
            for k, kw in enumerate(_cases(d)):
                if (k - start) % share != d % share:
                    continue
                for dt in (np.float64, np.float32) if k % 2 else (np.float64,):
                    want = F.interpolate(torch.from_numpy(x.astype(dt)), **kw).numpy()
                    got = np.asarray(jaxpad.nn.interpolate(x.astype(dt), **kw))
                    tol = 1e-12 if dt == np.float64 else 2e-6 * np.ptp(x)
                    assert got.shape == want.shape, kw
                    np.testing.assert_allclose(got, want, rtol=0, atol=tol, err_msg=str(kw))
                    checked += 1
                if k % 4 == d:
                    last = np.moveaxis(x, 1, -1)
                    got = jaxpad.nn.interpolate(last, channels_last=True, **kw)
                    got = np.moveaxis(np.asarray(got), -1, 1)
                    np.testing.assert_allclose(got, want, atol=1e-5, err_msg=str(kw))
    assert checked >= 6


def test_nearest_indices_equal_torch(full_run):
    """torch's nearest and nearest-exact indices exactly, in its float arithmetic (float32
    for float32 input, float64 for float64), over sizes and scale factors where float32
    and float64 floor differently: the rule (``_nearest_index``, NumPy) on every pair,
    the public function on a few."""
    torch = _torch()
    from jaxpad._interpolate import _nearest_index

    F = torch.nn.functional
    sizes = range(1, 61 if full_run else 31)
    pairs = [(n, m, None) for n in sizes for m in sizes]
    pairs += [(n, int(np.floor(n * f)), f) for n in sizes for f in (1 / 3, 0.7, 1.2, 2.5, 3.1)]
    for mode in ("nearest", "nearest-exact"):
        for tdt, ndt in ((torch.float32, np.float32), (torch.float64, np.float64)):
            for n_in, n_out, f in pairs:
                if n_out < 1:
                    continue
                x = torch.arange(n_in, dtype=tdt).reshape(1, 1, n_in)
                kw = {"size": n_out} if f is None else {"scale_factor": f}
                want = F.interpolate(x, mode=mode, **kw).numpy().reshape(-1)
                got = _nearest_index(n_in, n_out, f, mode == "nearest-exact", ndt)
                np.testing.assert_array_equal(got, want, err_msg=f"{mode} {n_in} {kw} {ndt}")
    with enable_x64(True):
        for mode, n_in, kw, dt in (
            ("nearest", 3, {"size": 7}, np.float32),
            ("nearest-exact", 2, {"size": 41}, np.float32),
            ("nearest", 7, {"scale_factor": 1 / 3}, np.float64),
        ):
            x = np.arange(n_in, dtype=dt)[None, None]
            want = F.interpolate(torch.from_numpy(x), mode=mode, **kw).numpy()
            np.testing.assert_array_equal(jaxpad.nn.interpolate(x, mode=mode, **kw), want)


def test_gradients_match_torch(full_run):
    """The VJP of every mode against torch's autograd (float64)."""
    torch = _torch()
    F = torch.nn.functional
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 2, 6, 5))
    with enable_x64(True):
        for kw in (
            {"mode": "nearest", "size": (9, 3)},
            {"mode": "nearest-exact", "scale_factor": 1.5},
            {"mode": "bilinear", "size": (9, 3)},
            {"mode": "bilinear", "size": (3, 2), "antialias": True, "align_corners": True},
            {"mode": "bicubic", "scale_factor": (1.7, 0.6)},
            {"mode": "bicubic", "size": (4, 3), "antialias": True},
            {"mode": "area", "size": (4, 3)},
        )[:: 1 if full_run else 3]:
            t = torch.from_numpy(x).requires_grad_(True)
            y = F.interpolate(t, **kw)
            ct = rng.standard_normal(tuple(y.shape))
            y.backward(torch.from_numpy(ct))
            _, vjp = jax.vjp(lambda v, kw=kw: jaxpad.nn.interpolate(v, **kw), x)
            np.testing.assert_allclose(vjp(ct)[0], t.grad.numpy(), atol=1e-12, err_msg=str(kw))


def test_matches_jax_image_where_the_rules_agree(full_run):
    """Without torch: the cases where torch's rule is ``jax.image.resize``'s."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 8, 6)).astype(np.float32)
    tol = 2e-6 * np.ptp(x)
    for kw, method, aa, out in (
        ({"mode": "bilinear", "size": (13, 11)}, "linear", False, (2, 3, 13, 11)),
        ({"mode": "bilinear", "size": (3, 4), "antialias": True}, "linear", True, (2, 3, 3, 4)),
        ({"mode": "bicubic", "size": (3, 5), "antialias": True}, "cubic", True, (2, 3, 3, 5)),
        ({"mode": "bicubic", "size": (11, 9)}, "cubic-pytorch", False, (2, 3, 11, 9)),
        ({"mode": "area", "size": (4, 3)}, "area", True, (2, 3, 4, 3)),
    )[:: 1 if full_run else 2]:
        got = jaxpad.nn.interpolate(x, **kw)
        want = jax.image.resize(x, out, method, antialias=aa)
        np.testing.assert_allclose(got, want, rtol=0, atol=tol, err_msg=str(kw))


def test_derivatives_order_two_and_transformations(full_run):
    """``check_grads`` to order 2 (forward and reverse) in every mode; eager, ``jit`` and
    ``vmap`` agree."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 2, 5, 4))
    with enable_x64(True):
        for kw in (
            {"mode": "nearest", "size": (7, 3)},
            {"mode": "bilinear", "scale_factor": 1.5, "align_corners": True},
            {"mode": "bicubic", "size": (3, 6), "antialias": True},
            {"mode": "area", "size": (3, 2)},
        )[:: 2 if full_run else 3]:
            f = lambda v, kw=kw: jaxpad.nn.interpolate(v, **kw)  # noqa: E731
            check_grads(f, (x,), order=2, modes=("fwd", "rev"))
            eager = f(x)
            np.testing.assert_allclose(jax.jit(f)(x), eager, atol=1e-13)
            batch = jax.vmap(f)(np.stack([x, 2 * x]))
            np.testing.assert_allclose(batch[1], 2 * eager, atol=1e-12)


def test_nonfinite_stays_where_the_taps_read_it():
    """An inf reaches exactly the outputs whose nonzero taps read it (no 0 * inf from a
    zero weight, no nan); a nan likewise."""
    x = np.zeros((1, 1, 6, 5), np.float32)
    impulse = x.copy()
    impulse[0, 0, 2, 3] = 1.0
    for kw in (
        {"mode": "nearest", "size": (11, 3)},
        {"mode": "bilinear", "size": (11, 9), "align_corners": True},
        {"mode": "bilinear", "scale_factor": 2.0},
        {"mode": "bicubic", "size": (12, 10)},
        {"mode": "bilinear", "size": (3, 2), "antialias": True},
        {"mode": "area", "size": (4, 3)},
    ):
        reads = np.asarray(jaxpad.nn.interpolate(impulse, **kw)) != 0
        for bad in (np.inf, np.nan):
            y = x.copy()
            y[0, 0, 2, 3] = bad
            out = np.asarray(jaxpad.nn.interpolate(y, **kw))
            np.testing.assert_array_equal(~np.isfinite(out), reads, err_msg=f"{kw} {bad}")
            if bad == np.inf:
                assert not np.isnan(out).any(), kw


def test_narrow_dtypes():
    """bfloat16 and float16 keep their dtype, close to the float32 result; an integer
    input is kept by nearest."""
    x = np.random.default_rng(4).standard_normal((1, 2, 6, 5)).astype(np.float32)
    want = jaxpad.nn.interpolate(x, size=(9, 4), mode="bicubic")
    for dt, tol in ((jnp.bfloat16, 0.08), (jnp.float16, 0.01)):
        got = jaxpad.nn.interpolate(jnp.asarray(x, dt), size=(9, 4), mode="bicubic")
        assert got.dtype == dt
        np.testing.assert_allclose(np.asarray(got, np.float32), want, atol=tol)
    ints = jnp.arange(12, dtype=jnp.int32).reshape(1, 1, 3, 4)
    got = jaxpad.nn.interpolate(ints, scale_factor=2, mode="nearest")
    assert got.dtype == jnp.int32
    np.testing.assert_array_equal(got, np.repeat(np.repeat(np.asarray(ints), 2, 2), 2, 3))


def test_equinox_layers_match_torch():
    """``Upsample``, ``UpsamplingNearest2d`` and ``UpsamplingBilinear2d`` (which aligns
    corners, as torch's) on one example, against torch's layers."""
    pytest.importorskip("equinox")
    torch = _torch()
    import jaxpad.equinox as jeqx

    x = np.random.default_rng(5).standard_normal((3, 4, 5)).astype(np.float32)
    for ours, theirs in (
        (
            jeqx.Upsample(scale_factor=1.5, mode="bicubic"),
            torch.nn.Upsample(scale_factor=1.5, mode="bicubic"),
        ),
        (jeqx.UpsamplingNearest2d(size=(7, 3)), torch.nn.UpsamplingNearest2d(size=(7, 3))),
        (jeqx.UpsamplingBilinear2d(scale_factor=2), torch.nn.UpsamplingBilinear2d(scale_factor=2)),
    ):
        want = theirs(torch.from_numpy(x)[None])[0].numpy()
        np.testing.assert_allclose(ours(x), want, atol=2e-6 * np.ptp(x))
        np.testing.assert_allclose(jax.vmap(ours)(x[None])[0], want, atol=2e-6 * np.ptp(x))
