"""Tests for jaxpad/_grid_sample.py: ``jaxpad.nn.grid_sample`` and ``affine_grid``.

Oracles: PyTorch's ``grid_sample`` / ``affine_grid`` and its autograd where torch is
installed (skipped without it: CI's venv has no torch); without torch,
``jax.scipy.ndimage.map_coordinates(order=1)`` for bilinear in each padding mode's
equivalent mode, and finite differences (``check_grads``) for the derivatives.
"""

from __future__ import annotations

import functools
import itertools
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.scipy import ndimage
from jax.test_util import check_grads

import jaxpad
from tests.compat import enable_x64

# Compared with their oracles where a rounding decides (a point on a tie or an edge):
# CI compiles them as users' programs are (tests/conftest.py, --xla-defaults).
pytestmark = pytest.mark.xla_defaults

MODES = ["bilinear", "nearest", "bicubic"]
PADDING = ["zeros", "border", "reflection"]
CASES = [
    (d, mode, padding, align)
    for d, mode, padding, align in itertools.product((2, 3), MODES, PADDING, (False, True))
    if not (d == 3 and mode == "bicubic")
]


def _classes_of(params):
    """What a sample of ``CASES`` keeps every value of, on every run: the rank, the
    mode, the padding mode and ``align_corners`` (the combinations rotate with the
    commit's seed; tests/conftest.py)."""
    d, mode, padding, align = params["case"]
    return [f"{d + 2}d", mode, padding, f"align_corners={align}"]


SAMPLED = pytest.mark.subsample(0.1, cover=_classes_of, all_keep=0.2, all_cover=_classes_of)


def _ids(case):
    d, mode, padding, align = case
    return f"{d + 2}d-{mode}-{padding}-{'ac' if align else 'noac'}"


def _data(d, seed=0, scale=1.5, n=2, c=3):
    rng = np.random.default_rng(seed)
    spatial = (5, 7) if d == 2 else (3, 4, 5)
    out = (4, 6) if d == 2 else (2, 3, 4)
    x = rng.standard_normal((n, c, *spatial)).astype(np.float32)
    grid = rng.uniform(-scale, scale, (n, *out, d)).astype(np.float32)
    return x, grid


def _torch():
    return pytest.importorskip("torch")


# --- values against torch ------------------------------------------------------------


@SAMPLED
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_values_equal_torch_inside_and_far_outside(case):
    torch = _torch()
    d, mode, padding, align = case
    x, grid = _data(d)
    # Points inside, just outside, and far outside (several periods of the reflection).
    grid[0, ..., 0] *= 40.0
    grid[1, ..., -1] *= 300.0
    want = torch.nn.functional.grid_sample(
        torch.tensor(x), torch.tensor(grid), mode, padding, align
    ).numpy()
    got = jaxpad.nn.grid_sample(x, grid, mode, padding, align)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=2e-5)
    x_last = np.moveaxis(x, 1, -1)
    got_last = jaxpad.nn.grid_sample(x_last, grid, mode, padding, align, channels_last=True)
    np.testing.assert_allclose(np.moveaxis(np.asarray(got_last), -1, 1), got, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("padding", PADDING)
def test_nearest_ties_round_to_even_as_torch(padding):
    torch = _torch()
    x = np.arange(1.0, 9.0, dtype=np.float32).reshape(1, 1, 1, 8)
    cells = np.arange(-2.5, 10.0, 0.5, dtype=np.float32)  # every half cell, off both edges
    grid = np.zeros((1, 1, cells.size, 2), np.float32)
    grid[..., 0] = (2 * cells + 1) / 8 - 1  # align_corners=False: cell u at (2u + 1)/W - 1
    want = torch.nn.functional.grid_sample(
        torch.tensor(x), torch.tensor(grid), "nearest", padding, False
    ).numpy()
    np.testing.assert_array_equal(jaxpad.nn.grid_sample(x, grid, "nearest", padding), want)


@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("shape", [(2, 3, 5, 7), (2, 3, 4, 1, 6)])
def test_affine_grid_equals_torch(shape, align):
    torch = _torch()
    d = len(shape) - 2
    theta = np.random.default_rng(1).standard_normal((2, d, d + 1)).astype(np.float32)
    with warnings.catch_warnings():
        # torch warns of its unit-size axes with align_corners=True (the centre, 0).
        warnings.simplefilter("ignore", UserWarning)
        want = torch.nn.functional.affine_grid(torch.tensor(theta), shape, align).numpy()
    np.testing.assert_allclose(jaxpad.nn.affine_grid(theta, shape, align), want, atol=1e-6)


# --- derivatives against torch (where torch is right) ---------------------------------


@SAMPLED
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_gradients_equal_torch_away_from_kinks(case):
    torch = _torch()
    d, mode, padding, align = case
    x, grid = _data(d, seed=2, scale=3.0)  # most points outside the input
    ct = (
        np.random.default_rng(3)
        .standard_normal(jaxpad.nn.grid_sample(x, grid, mode).shape)
        .astype(np.float32)
    )
    tx = torch.tensor(x, requires_grad=True)
    tg = torch.tensor(grid, requires_grad=True)
    torch.nn.functional.grid_sample(tx, tg, mode, padding, align).backward(torch.tensor(ct))

    def loss(x, grid):
        return jnp.sum(jaxpad.nn.grid_sample(x, grid, mode, padding, align) * ct)

    gx, gg = jax.jit(jax.grad(loss, (0, 1)))(x, grid)
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gg, tg.grad.numpy(), rtol=1e-4, atol=1e-4)


# --- without torch ---------------------------------------------------------------------

# Each padding mode's map_coordinates mode (bilinear: order 1).
_SCIPY_MODES = {
    ("zeros", False): "constant",
    ("zeros", True): "constant",
    ("border", False): "nearest",
    ("border", True): "nearest",
    ("reflection", False): "reflect",  # about the edges (scipy's reflect: half-sample)
    ("reflection", True): "mirror",  # about the edge cells' centres
}


def _unnormalize(g, size, align):
    return (g + 1) * (size - 1) / 2 if align else ((g + 1) * size - 1) / 2


@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("padding", PADDING)
def test_bilinear_equals_map_coordinates(padding, align):
    x, grid = _data(2, seed=4, scale=4.0, n=1, c=2)
    h, w = x.shape[2:]
    rows = _unnormalize(grid[0, ..., 1].astype(np.float64), h, align)
    cols = _unnormalize(grid[0, ..., 0].astype(np.float64), w, align)
    mode = _SCIPY_MODES[padding, align]
    want = np.stack([ndimage.map_coordinates(x[0, c], [rows, cols], 1, mode) for c in range(2)])
    got = jaxpad.nn.grid_sample(x, grid, "bilinear", padding, align)[0]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("padding", PADDING)
def test_trilinear_equals_map_coordinates(padding):
    x, grid = _data(3, seed=5, scale=3.0, n=1, c=1)
    coords = [_unnormalize(grid[0, ..., 2 - axis], x.shape[2 + axis], False) for axis in range(3)]
    want = ndimage.map_coordinates(x[0, 0], coords, 1, _SCIPY_MODES[padding, False])
    got = jaxpad.nn.grid_sample(x, grid, "bilinear", padding)[0, 0]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def _off_kinks(grid, size, align, margin=0.05):
    """``grid`` with every coordinate moved at least ``margin`` cells off a whole cell
    coordinate (the kinks of every mode's interpolant and folds)."""
    u = _unnormalize(grid.astype(np.float64), size, align)
    frac = u - np.floor(u)
    u = np.floor(u) + np.clip(frac, margin, 1 - margin)
    scale = (size - 1) / 2 if align else size / 2
    shift = 0.0 if align else 0.5
    return ((u + shift) / scale - 1).astype(np.float32)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("padding", PADDING)
def test_derivatives_are_finite_differences_beyond_the_edge(mode, padding):
    # Square input so that one margin holds for both axes' coordinates.
    rng = np.random.default_rng(6)
    x = rng.standard_normal((1, 1, 5, 5))
    grid = _off_kinks(rng.uniform(-2.5, 2.5, (1, 2, 3, 2)), 5, False).astype(np.float64)
    order = 2 if mode == "bicubic" else 1
    with enable_x64(True):
        # Eager: jitting each derivative of check_grads compiled for longer than it ran.
        def f(x, g):
            return jaxpad.nn.grid_sample(x, g, mode, padding)

        check_grads(f, (jnp.asarray(x), jnp.asarray(grid)), order, eps=1e-4)


@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("padding", PADDING)
def test_derivative_at_a_kink_is_the_one_from_above(padding, align):
    # Sizes whose grid steps are powers of two: the whole cells are exact in float32.
    x = np.asarray([[[[0.0, 1.0, 3.0, 7.0, 6.0][: 5 if align else 4]]]], np.float32)
    w = x.shape[-1]
    cells = np.arange(-3.0, w + 3.0)  # every whole cell coordinate, edges included
    scale = (w - 1) / 2 if align else w / 2
    gx = ((cells + (0.0 if align else 0.5)) / scale - 1).astype(np.float32)
    grid = np.stack([gx, np.zeros_like(gx)], -1)[None, None]

    def f(g):
        return jaxpad.nn.grid_sample(x, g, "bilinear", padding, align)[0, 0, 0]

    got = jax.jacfwd(f)(grid)[np.arange(gx.size), 0, 0, np.arange(gx.size), 0]
    h = np.float32(1e-3)
    above = grid.copy()
    above[..., 0] += h
    want = (np.asarray(f(above)) - np.asarray(f(grid))) / h
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("channels_last", [False, True])
def test_jit_and_vmap_over_images_and_grids(channels_last):
    x, grid = _data(2, seed=7, scale=2.0)
    xs = np.stack([x, 2 * x + 1])
    grids = np.stack([grid, -grid])
    if channels_last:
        xs = np.moveaxis(xs, 2, -1)

    @jax.jit
    def f(x, g):
        return jaxpad.nn.grid_sample(x, g, "bilinear", "reflection", channels_last=channels_last)

    loop = np.stack([f(a, b) for a, b in zip(xs, grids)])
    np.testing.assert_allclose(jax.jit(jax.vmap(f))(xs, grids), loop, rtol=1e-6, atol=1e-6)
    over_images = np.stack([f(a, grids[0]) for a in xs])
    np.testing.assert_allclose(jax.vmap(f, (0, None))(xs, grids[0]), over_images, atol=1e-6)
    over_grids = np.stack([f(xs[0], b) for b in grids])
    np.testing.assert_allclose(jax.vmap(f, (None, 0))(xs[0], grids), over_grids, atol=1e-6)
    # The batching rules' gradients: per example.
    grad = jax.jit(jax.grad(lambda x, g: jnp.sum(f(x, g) ** 2), (0, 1)))
    want = [np.stack(t) for t in zip(*(grad(a, b) for a, b in zip(xs, grids)))]
    for got, expected in zip(jax.vmap(grad)(xs, grids), want):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", MODES)
def test_non_finite_coordinates(mode):
    x = np.arange(1.0, 5.0, dtype=np.float32).reshape(1, 1, 1, 4)
    values = np.asarray([np.nan, np.inf, -np.inf, 1e30, -1e30, 0.0], np.float32)
    grid = np.stack([values, np.zeros_like(values)], -1)[None, None]
    results = {
        padding: np.asarray(jaxpad.nn.grid_sample(x, grid, mode, padding))[0, 0, 0]
        for padding in PADDING
    }
    for padding in PADDING:
        assert np.isnan(results[padding][0]), padding  # nan reads nothing
        # 1e30 (beyond 2**24, a whole number) wraps exactly: 2e30 is a multiple of 8 cells
        assert np.isfinite(results[padding][3:]).all()
    np.testing.assert_array_equal(results["zeros"][1:5], 0)
    np.testing.assert_array_equal(results["border"][1:5], [4, 1, 4, 1])
    assert np.isnan(results["reflection"][1:3]).all()  # no limit at infinity


def test_huge_coordinates_reflect_exactly():
    # 2**30 + 0.25 cells is a quarter cell past a whole number of periods (2W = 8).
    x = np.arange(1.0, 5.0, dtype=np.float64).reshape(1, 1, 1, 4)
    u = np.float64(2**30) + 0.25
    g = (2 * u + 1) / 4 - 1
    grid = np.asarray([[[[g, 0.0]]]])
    with enable_x64(True):
        got = jaxpad.nn.grid_sample(x, grid, "bilinear", "reflection")
        near = jaxpad.nn.grid_sample(x, np.asarray([[[[(2 * 0.25 + 1) / 4 - 1, 0.0]]]]))
    np.testing.assert_allclose(got, near, rtol=1e-12)
    # float32: no integer overflow far outside in any mode (2**40 cells).
    for padding in PADDING:
        got = jaxpad.nn.grid_sample(
            x.astype(np.float32), np.asarray([[[[2.0**40, 0.0]]]], np.float32), "bicubic", padding
        )
        assert np.isfinite(got).all()


def test_affine_grid_identity_without_torch():
    theta = np.asarray([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], np.float32)
    grid = jaxpad.nn.affine_grid(theta, (1, 1, 3, 4), align_corners=True)
    np.testing.assert_allclose(grid[0, 0, :, 0], np.linspace(-1, 1, 4), atol=1e-7)
    np.testing.assert_allclose(grid[0, :, 0, 1], np.linspace(-1, 1, 3), atol=1e-7)
    # The identity grid samples the input back, in every mode.
    x = np.random.default_rng(8).standard_normal((1, 2, 3, 4)).astype(np.float32)
    for mode in MODES:
        # The grid's thirds are rounded: the cells are read at a float32 ulp off.
        np.testing.assert_allclose(
            jaxpad.nn.grid_sample(x, grid, mode, align_corners=True), x, atol=1e-5
        )


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_nchw_backward_reads_channels_last_copies(mode):
    """The backward of an NCHW input moves the input and the cotangent channels-last
    once each (``computed_once``), the grid's transpose and the input's alike; its
    gradients are the channels-last input's, transposed. The backward's taps are
    written once; the forward's stay fused."""
    rng = np.random.default_rng(5)
    x = jnp.asarray(rng.standard_normal((2, 3, 6, 7)), jnp.float32)
    grid = jnp.asarray(rng.uniform(-1.3, 1.3, (2, 5, 4, 2)), jnp.float32)
    ct = jnp.asarray(rng.standard_normal((2, 3, 5, 4)), jnp.float32)

    def vjp(x, grid, ct, channels_last):
        def f(a, g):
            return jaxpad.nn.grid_sample(
                a, g, mode=mode, padding_mode="reflection", channels_last=channels_last
            )

        return jax.vjp(f, x, grid)[1](ct)

    def once_shapes(f, *args):
        eqns = jax.make_jaxpr(f)(*args).jaxpr.eqns
        return [e.invars[0].aval for e in eqns if e.primitive.name == "jaxpad_computed_once"]

    nchw = functools.partial(vjp, channels_last=False)
    points = grid.shape[:-1]
    moved = [a.shape for a in once_shapes(nchw, x, grid, ct) if a.shape[1:] != points]
    # the cotangent for the input's gradient and the grid's, the input for the grid's
    assert sorted(moved) == [(2, 5, 4, 3), (2, 5, 4, 3), (2, 6, 7, 3)]
    nhwc = functools.partial(vjp, channels_last=True)
    to_last = functools.partial(jnp.moveaxis, source=1, destination=-1)
    args = (to_last(x), grid, to_last(ct))
    assert all(a.shape[1:] == points for a in once_shapes(nhwc, *args))
    # each tap's indices and weights written once for the backward (a stack of the
    # taps along each axis), never for the forward
    taps = once_shapes(nhwc, *args)
    assert {a.dtype for a in taps} >= {jnp.dtype(jnp.int32), jnp.dtype(jnp.float32)}
    forward = jax.jit(lambda x, g: jaxpad.nn.grid_sample(x, g, mode=mode, channels_last=True))
    assert "jaxpad_computed_once" not in str(jax.make_jaxpr(forward)(args[0], grid))
    d_x, d_grid = jax.jit(nchw)(x, grid, ct)
    want_x, want_grid = jax.jit(nhwc)(*args)
    np.testing.assert_allclose(to_last(d_x), want_x, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(d_grid, want_grid, rtol=1e-5, atol=1e-5)


def test_nchw_forward_gathers_channels_last_on_cpu():
    """On XLA:CPU the forward of an NCHW input moves it channels-last once, gathers each
    cell's channels as one contiguous row there and moves the output back (gathering
    at a stride of a plane took 1.8-3.9x torch's forward); one channel is not moved.
    The values are the channels-last input's, moved."""
    rng = np.random.default_rng(9)
    grid = jnp.asarray(rng.uniform(-1.3, 1.3, (2, 5, 4, 2)), jnp.float32)
    for channels in (3, 1):
        x = jnp.asarray(rng.standard_normal((2, channels, 6, 7)), jnp.float32)
        forward = jax.jit(lambda a, g: jaxpad.nn.grid_sample(a, g, padding_mode="reflection"))
        text = forward.lower(x, grid).as_text()
        assert text.count("stablehlo.transpose") == (2 if channels > 1 else 0)
        assert f"slice_sizes = array<i64: 1, 1, 1, {channels}>" in text
        nhwc = jaxpad.nn.grid_sample(
            jnp.moveaxis(x, 1, -1), grid, padding_mode="reflection", channels_last=True
        )
        np.testing.assert_allclose(forward(x, grid), jnp.moveaxis(nhwc, -1, 1), rtol=1e-6)


@pytest.mark.parametrize(
    "d, mode, padding, channels_last",
    [
        (2, "bilinear", "zeros", False),
        (2, "bicubic", "reflection", True),
        (3, "bilinear", "border", False),
    ],
)
def test_backward_over_chunks_of_points(monkeypatch, d, mode, padding, channels_last):
    """On XLA:CPU the backward runs over chunks of points (a loop; a shorter chunk
    last): its gradients are the one pass's, and torch's where torch is installed."""
    from jaxpad import _grid_sample

    x, grid = _data(d, seed=4, scale=2.0)  # 48 or 24 points, 3 channels
    ct = np.random.default_rng(6).standard_normal((2, 3, *grid.shape[1:-1])).astype(np.float32)
    to_last = functools.partial(np.moveaxis, source=1, destination=-1)
    xs, cts = (to_last(x), to_last(ct)) if channels_last else (x, ct)

    def gradients():
        def f(a, g):
            return jaxpad.nn.grid_sample(a, g, mode, padding, channels_last=channels_last)

        backward = jax.jit(lambda a, g, t: jax.vjp(f, a, g)[1](t))
        return backward.lower(xs, grid, cts).as_text(), backward(xs, grid, cts)

    text, one_pass = gradients()
    assert "stablehlo.while" not in text
    monkeypatch.setattr(_grid_sample, "_CHUNK_BYTES", 5 * 3 * 4)  # 5 points a chunk
    text, chunked = gradients()
    assert text.count("stablehlo.while") == 2  # the input's gradient and the grid's
    for got, want in zip(chunked, one_pass):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    try:
        import torch
    except ImportError:
        return
    tx = torch.tensor(x, requires_grad=True)
    tg = torch.tensor(grid, requires_grad=True)
    torch.nn.functional.grid_sample(tx, tg, mode, padding, False).backward(torch.tensor(ct))
    gx = to_last(tx.grad.numpy()) if channels_last else tx.grad.numpy()
    np.testing.assert_allclose(chunked[0], gx, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(chunked[1], tg.grad.numpy(), rtol=1e-4, atol=1e-4)


def test_backward_of_no_channels_and_of_a_symbolic_batch():
    # No channels: zero-size gradients (no chunk of points to size by the channels).
    x, grid = _data(2, c=0)

    def f(a, g):
        return jaxpad.nn.grid_sample(a, g, "bilinear", "border")

    ct = np.zeros((2, 0, *grid.shape[1:-1]), np.float32)
    gx, gg = jax.jit(lambda a, g, t: jax.vjp(f, a, g)[1](t))(x, grid, ct)
    assert gx.shape == x.shape
    np.testing.assert_array_equal(gg, np.zeros_like(grid))
    # A symbolic batch exports, the backward in one pass (its chunks need a static
    # number of points).
    (b,) = jax.export.symbolic_shape("b")
    x, grid = _data(2)
    args = [
        jax.ShapeDtypeStruct((b, *x.shape[1:]), jnp.float32),
        jax.ShapeDtypeStruct((b, *grid.shape[1:]), jnp.float32),
        jax.ShapeDtypeStruct((b, x.shape[1], *grid.shape[1:-1]), jnp.float32),
    ]
    backward = jax.jit(lambda a, g, t: jax.vjp(f, a, g)[1](t))
    for platform in ("cpu", "cuda"):
        jax.export.export(backward, platforms=(platform,))(*args)
