"""Axes of 2**31 elements and more: no form addresses them with an int32 index; the
sampling functions refuse axes past what their int32 taps read.

Lowered, not run (a bfloat16 axis of ``2**31 + 7`` elements is 4 GiB): every form is
lowered from ``jax.ShapeDtypeStruct`` on CPU and exported for CUDA and TPU (whose
planner takes other forms), and the module must hold no int32 index for that axis: no
band update or dynamic slice (their starts are int32 and clamped against the axis), no
gather or iota of int32 along it, no wrapped (negative) int32 constant. One real run,
``test_huge_reflect_pad_and_its_gradient``, needs ``JAXPAD_HUGE=1`` and 20 GiB free.
"""

from __future__ import annotations

import os
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import jaxpad
from jaxpad import _checks, _grid_sample, _lowering, nn
from jaxpad.scipy import ndimage
from tests.compat import enable_x64

LONG = 2**31 + 7
MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "reflect_odd", "symmetric_odd"]
SIDED = [[("dirichlet", "wrap")], [("constant", "symmetric_odd")], [("reflect_odd", "edge")]]


def _wrong_indices(text: str) -> list[str]:
    """The lines of a module that index an axis past int32 with an int32 index."""
    bad = []
    for line in text.splitlines():
        dims = [
            int(d) for shape in re.findall(r"tensor<([\dx]+)xi32>", line) for d in shape.split("x")
        ]
        wrapped = re.search(r"dense<-21474836\d\d> : tensor<i32>", line)
        if any(d > _lowering._plans._MAX_INT32 for d in dims) or wrapped:
            bad.append(line.strip())
    return bad


def _static_index_ops(text: str) -> list[str]:
    ops = ("dynamic_update_slice", "dynamic_slice", "gather", "scatter", "iota")
    return [
        line.strip() for line in text.splitlines() if any(f"stablehlo.{op}" in line for op in ops)
    ]


def _lowered(fn, *args, platform):
    if platform == "cpu":
        return jax.jit(fn).lower(*args).as_text()
    exported = jax.export.export(jax.jit(fn), platforms=[platform])(*args)
    return exported.mlir_module()


@pytest.mark.parametrize("platform", ["cpu", "cuda", "tpu"])
@pytest.mark.parametrize("mode", MODES + SIDED, ids=str)
@pytest.mark.subsample(0.4)
def test_static_pad_and_fold_of_a_long_axis_hold_no_index(mode, platform):
    x = jax.ShapeDtypeStruct((LONG,), jnp.bfloat16)
    t = jax.ShapeDtypeStruct((LONG + 11,), jnp.bfloat16)

    def forward(x):
        return jaxpad.pad(x, (5,), (6,), mode)

    def vjp(x, t):
        return jax.vjp(forward, x)[1](t)[0]

    for fn, args in ((forward, (x,)), (vjp, (x, t))):
        text = _lowered(fn, *args, platform=platform)
        assert _static_index_ops(text) == [], fn.__name__
        assert _wrong_indices(text) == [], fn.__name__


@pytest.mark.parametrize("mode", ["reflect", "wrap", "constant", "edge", "reflect_odd"])
def test_dynamic_pad_of_a_long_axis_static_pads_hold_no_index(mode):
    x = jax.ShapeDtypeStruct((LONG,), jnp.bfloat16)
    t = jax.ShapeDtypeStruct((LONG + 11,), jnp.bfloat16)

    def vjp(x, t):
        return jax.vjp(lambda x: jaxpad.dynamic_pad(x, (5,), (LONG + 11,), mode), x)[1](t)[0]

    text = _lowered(vjp, x, t, platform="cpu")
    assert _static_index_ops(text) == []
    assert _wrong_indices(text) == []


@pytest.mark.parametrize("mode", ["reflect", "wrap", "constant", "edge", "symmetric"])
def test_traced_pads_on_a_long_axis_index_in_int64(mode):
    with enable_x64(True):
        x = jax.ShapeDtypeStruct((LONG,), jnp.bfloat16)
        t = jax.ShapeDtypeStruct((LONG + 18,), jnp.bfloat16)
        offset = jax.ShapeDtypeStruct((), jnp.int32)

        def vjp(x, o, t):
            out, pullback = jax.vjp(lambda x: jaxpad.dynamic_pad(x, (o,), (LONG + 18,), mode), x)
            return out, pullback(t)[0]

        text = _lowered(vjp, x, offset, t, platform="cpu")
    assert "stablehlo.gather" in text
    assert re.search(rf"iota dim = 0 : tensor<{LONG}xi64>|tensor<{LONG + 18}xi64>", text)
    assert _wrong_indices(text) == []


def test_traced_pads_on_a_long_axis_without_x64_is_refused():
    x = jax.ShapeDtypeStruct((LONG,), jnp.bfloat16)
    offset = jax.ShapeDtypeStruct((), jnp.int32)
    with pytest.raises(ValueError, match=r"^jaxpad\.dynamic_pad: axis 0 of x has 2147483655"):
        jax.eval_shape(lambda x, o: jaxpad.dynamic_pad(x, (o,), (LONG + 18,), "reflect"), x, offset)
    with pytest.raises(ValueError, match=r"jax_enable_x64"):
        jax.eval_shape(
            lambda x, o: jaxpad.dynamic_pad(x, (o,), (LONG + 18,), [("dirichlet", "wrap")]),
            x,
            offset,
        )
    # A face array takes the same path (it raised JAX's OverflowError).
    face = [(jnp.ones((1,), jnp.bfloat16), 0.0)]
    with pytest.raises(ValueError, match=r"^jaxpad\.dynamic_pad: axis 0 of x has 2147483655"):
        jax.eval_shape(
            lambda x, o: jaxpad.dynamic_pad(x, (o,), (LONG + 18,), [("neumann", "wrap")], face),
            x,
            offset,
        )


def test_planner_keeps_long_axes_off_indexed_forms():
    gpu = _lowering.Target(platform=None, gather_forward=True)
    assert _lowering.plan_pad((LONG,), (LONG + 11,), (5,), "reflect", gpu).form == "concatenate"
    assert _lowering.plan_pad((1000,), (1011,), (5,), "reflect", gpu).form == "gather"
    fold = _lowering.plan_fold((LONG,), (LONG + 11,), (5,), (6,), "reflect", np.float32)
    assert fold.form != "bands"
    short = _lowering.plan_fold((10**6,), (10**6 + 11,), (5,), (6,), "reflect", np.float32)
    assert short.form == "bands"
    assert _lowering.plan_sided_pad((LONG,), (LONG + 2,)) == "blocks"
    assert _lowering.plan_sided_pad((10**6,), (10**6 + 2,)) == "bands"
    # The bound: traced index values stay within size + 4 n.
    n = (_lowering._plans._MAX_INT32 - 100) // 5
    assert _lowering.int32_indexes(n, n + 100)
    assert not _lowering.int32_indexes(n + 1, n + 100)
    assert _lowering.index_dtype(LONG, LONG) == np.int64
    assert _lowering.index_dtype(1000, 1200) == np.int32


def _available_bytes() -> int:
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(
    os.environ.get("JAXPAD_HUGE") != "1" or _available_bytes() < 20 << 30,
    reason="a 4 GiB axis: set JAXPAD_HUGE=1 on a machine with 20 GiB free",
)
def test_huge_reflect_pad_and_its_gradient():
    """The issue's case, run: the ends of the forward and of the gradient (the
    cotangent is the output itself) against ``jnp.pad``'s."""
    x = jnp.ones((LONG,), jnp.bfloat16)

    def ends_of(pad):
        def run(x):
            out, pullback = jax.vjp(pad, x)
            grad = pullback(out)[0]
            # Static slices inside the program: JAX's eager indexing of an axis this
            # long passes its start as int32.
            return [
                lax.slice(y, (start,), (start + 8,))
                for y in (out, grad)
                for start in (0, y.shape[0] - 8)
            ]

        return np.concatenate([np.asarray(e, np.float32) for e in jax.jit(run)(x)])

    for mode in ("reflect", "symmetric", "wrap", "edge"):
        ours = ends_of(lambda x: jaxpad.pad(x, (5,), (6,), mode))
        theirs = ends_of(lambda x: jnp.pad(x, (5, 6), mode))
        np.testing.assert_array_equal(ours, theirs, err_msg=mode)


def test_static_per_side_pad_past_int32_without_x64():
    # Reduced exactly in Python: it was an OverflowError where int64 is int32.
    x = jnp.arange(5.0)
    modes = [("dirichlet", "reflect_odd")]
    out = jaxpad.dynamic_pad(x, [2**33], (7,), modes, 1.0)
    # 2**33 = 12 modulo the dirichlet side's period 10, and both read offsets below 0.
    np.testing.assert_array_equal(out, jaxpad.pad(x, [12], [-10], modes, 1.0))


# ---------------------------------------------------------------------------------------
# Sampling between grid points: jaxpad.scipy.ndimage's interpolation and grid_sample
# compute each axis's taps in int32 (and float32 coordinates exactly) only so far.

SAMPLED_AXIS = _checks.MAX_SAMPLED_AXIS
SAMPLED_AXIS_FLOAT32 = _checks.MAX_SAMPLED_AXIS_FLOAT32
SAMPLING = {
    "map_coordinates": lambda x: ndimage.map_coordinates(x, jnp.zeros((1, 4), x.dtype), order=1),
    "shift": lambda x: ndimage.shift(x, 0.5),
    "traced shift": lambda x: ndimage.shift(x, x[0]),
    "zoom": lambda x: ndimage.zoom(x, 1.5, order=1),
    "affine_transform": lambda x: ndimage.affine_transform(x[:, None], jnp.eye(2) * 0.5),
    "rotate": lambda x: ndimage.rotate(x[:, None], 30.0, order=1),
    "geometric_transform": lambda x: ndimage.geometric_transform(x, lambda o: (o[0] / 2,)),
    "grid_sample": lambda x: nn.grid_sample(x.reshape(1, 1, 1, -1), jnp.zeros((1, 2, 2, 2))),
    "grid_sample channels_last": lambda x: nn.grid_sample(
        x.reshape(1, 1, -1, 1), jnp.zeros((1, 2, 2, 2)), channels_last=True
    ),
}


@pytest.mark.parametrize("name", list(SAMPLING))
def test_sampling_refuses_axes_too_long_for_int32_taps(name):
    # Each raised JAX's OverflowError while lowering, or filled the host's memory
    # planning shift's slices.
    x = jax.ShapeDtypeStruct((SAMPLED_AXIS + 1,), jnp.float32)
    fn = "nn.grid_sample" if name.startswith("grid") else f"scipy.ndimage.{name.split()[-1]}"
    axis = {"grid_sample": 3, "grid_sample channels_last": 2}.get(name, 0)
    with pytest.raises(
        ValueError, match=rf"^jaxpad\.{fn}: axis {axis} of input has 268435457 samples; .*int32"
    ):
        jax.eval_shape(SAMPLING[name], x)


@pytest.mark.parametrize(
    "name", ["map_coordinates", "traced shift", "affine_transform", "rotate", "geometric_transform"]
)
def test_float32_coordinates_refuse_axes_past_their_exact_integers(name):
    # before the coordinates (rotate's and geometric_transform's grids of every output
    # point) or the coefficients are computed
    x = jax.ShapeDtypeStruct((SAMPLED_AXIS_FLOAT32 + 1,), jnp.float32)
    with pytest.raises(ValueError, match=r"has 16777153 samples; float32 coordinates .*float64"):
        jax.eval_shape(SAMPLING[name], x)


def test_a_concrete_shift_reads_a_float32_axis_past_the_coordinates_limit():
    # planned in float64 (NumPy), as scipy computes
    x = jax.ShapeDtypeStruct((SAMPLED_AXIS_FLOAT32 + 1,), jnp.float32)
    assert jax.eval_shape(lambda x: ndimage.shift(x, 1.0, order=0), x).shape == x.shape


@pytest.mark.parametrize("name", ["map_coordinates", "grid_sample"])
def test_sampling_lowers_at_its_longest_axis(name):
    with enable_x64(True):
        x = jax.ShapeDtypeStruct((SAMPLED_AXIS,), jnp.float64)
        text = jax.jit(SAMPLING[name]).lower(x).as_text()
    assert _wrong_indices(text) == []


@pytest.mark.xla_defaults
@pytest.mark.parametrize("order", [0, 1, 3])
@pytest.mark.parametrize(
    "mode", ["constant", "grid-constant", "nearest", "mirror", "reflect", "wrap", "grid-wrap"]
)
def test_float32_map_coordinates_at_its_longest_axis_equals_scipy(order, mode):
    # Past the limit (at 2**28 samples, say) the points at the last sample and just
    # beyond it read past the axis in constant and wrap: n - 1 rounded up to n. At
    # this length float32 points are whole numbers (n - 1.5 is n - 2): the fractions
    # are those near 0.
    sn = pytest.importorskip("scipy.ndimage")
    n = SAMPLED_AXIS_FLOAT32
    x = np.sin(np.arange(n) * 1e-3).astype(np.float32)
    points = [0, 0.5, n - 1.5, n - 1, n - 1 + 2**-8, n - 0.5, n + 7.25, 2 * n + 3.5]
    points += [3 * n - 2.75, -0.5, -3.25, 1.5 - n, -2 * n - 5.75, 1e9, -1e9, 2.0**30 - 64]
    c = np.array(points, np.float32)[None]
    ours = jax.jit(lambda x, c: ndimage.map_coordinates(x, c, order=order, mode=mode))(x, c)
    theirs = sn.map_coordinates(x.astype(np.float64), c.astype(np.float64), order=order, mode=mode)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-6)


def test_nearest_grid_sample_reads_no_cell_past_a_narrow_grid_s_edge():
    # 999 is 1000 in bfloat16: the float clip let index 1000 through (XLA:CPU's gather
    # clamped it to the last cell; torch 2.13 reads past its input there).
    u = jnp.array([999.0, 1000.0, 1e4], jnp.bfloat16)
    for padding_mode in ("border", "reflection"):
        idx, _, _ = _grid_sample._nearest_index(u, 1000, padding_mode, True)
        assert int(jnp.max(idx)) == 999, padding_mode


def test_upfirdn_and_its_gradients_along_a_long_axis_hold_no_int32_index():
    """upfirdn's filter and its transposes (the adjoint filter, the Gram matrix and its
    tail's gather) along an axis past int32, lowered with x64: no int32 index."""
    from jaxpad.scipy import signal

    with enable_x64(True):
        x = jax.ShapeDtypeStruct((1, LONG), jnp.float32)
        h = jax.ShapeDtypeStruct((32,), jnp.float32)
        out = jax.eval_shape(lambda h, x: signal.upfirdn(h, x, 3, 2), h, x)
        ct = jax.ShapeDtypeStruct(out.shape, jnp.float32)

        def vjp(h, x, ct):
            return jax.vjp(lambda h, x: signal.upfirdn(h, x, 3, 2), h, x)[1](ct)

        text = jax.jit(vjp).lower(h, x, ct).as_text()
    assert "stablehlo.dot_general" in text  # the Gram matrix
    assert _wrong_indices(text) == []
