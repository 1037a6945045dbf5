"""The signal extension modes of PyWavelets and scipy.signal.upfirdn as jaxpad pads.

``"antisymmetric"``, ``"smooth"`` and ``"line"`` (jaxpad/_index_maps.py,
``side_coefficients``) and ``jaxpad.modes.from_pywt``. The oracles are the libraries'
own extensions: ``pywt.pad`` (and the padded arrays in PyWavelets' tests, ported
below), and ``scipy.signal.upfirdn`` with a delta filter, whose output past the
signal is its extension. Needs ``pip install PyWavelets`` for the pywt tests.
"""

from __future__ import annotations

import itertools
import os
import zlib

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.signal
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P
from jax.test_util import check_grads

import jaxpad
from jaxpad import modes
from tests.compat import enable_x64
from tests.devices import cpu_mesh

pywt = pytest.importorskip("pywt")

PYWT_MODES = ("zero", "constant", "symmetric", "reflect", "periodic", "smooth")
PYWT_MODES += ("antisymmetric", "antireflect")
NEW_MODES = ("antisymmetric", "smooth", "line")
# scipy.signal.upfirdn's names: jaxpad's, but antireflect.
UPFIRDN = {
    "constant": "constant",
    "wrap": "wrap",
    "edge": "edge",
    "smooth": "smooth",
    "symmetric": "symmetric",
    "reflect": "reflect",
    "antisymmetric": "antisymmetric",
    "antireflect": "reflect_odd",
    "line": "line",
}


def _signal(n, dtype=np.float64):
    return np.array([3.0, -1.0, 4.0, 1.5, -5.0, 9.0, 2.5][:n], dtype)


def _share(cases, full_run, keep):
    """Every case under ``--all``; else every ``keep``-th, from a start that the
    run's seed draws (tests/conftest.py), so that the share rotates across commits."""
    if full_run:
        return cases
    start = zlib.crc32(os.environ.get("JAXPAD_SAMPLE_SEED", "0").encode()) % keep
    return cases[start::keep]


# PyWavelets' own tests, ported -------------------------------------------------------


def test_pywt_test_pad_1d():
    """pywt/tests/test_dwt_idwt.py::test_pad_1d: its arrays, and pywt.pad itself."""
    x = np.array([1, 2, 3])
    expected = {
        "periodic": [3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3],
        "constant": [1, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3],
        "zero": [0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0],
        "smooth": [-3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        "symmetric": [3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1, 2, 3],
        "antisymmetric": [3, -3, -2, -1, 1, 2, 3, -3, -2, -1, 1, 2, 3],
        "reflect": [1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1],
        "antireflect": [-3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    }
    assert set(expected) == set(PYWT_MODES)
    for mode, values in expected.items():
        got = jaxpad.pad(x, [4], [6], modes.from_pywt(mode))
        np.testing.assert_array_equal(got, values, err_msg=mode)
        np.testing.assert_array_equal(got, pywt.pad(x, (4, 6), mode), err_msg=mode)
        assert got.dtype == jnp.int32


def test_pywt_test_dwt_short_input_allmodes_padding():
    """pywt/tests/test_modes.py::test_dwt_short_input_allmodes: the arrays its DWT pads
    a signal shorter than the filter to (by 4, db2's length)."""
    x = np.array([1.0, 3.0, 2.0])
    padded = {
        "zero": [0, 0, 0, 0, 1, 3, 2, 0, 0, 0, 0],
        "constant": [1, 1, 1, 1, 1, 3, 2, 2, 2, 2, 2],
        "symmetric": [2, 2, 3, 1, 1, 3, 2, 2, 3, 1, 1],
        "reflect": [1, 3, 2, 3, 1, 3, 2, 3, 1, 3, 2],
        "periodic": [2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1],
        "smooth": [-7, -5, -3, -1, 1, 3, 2, 1, 0, -1, -2],
        "antisymmetric": [2, -2, -3, -1, 1, 3, 2, -2, -3, -1, 1],
        "antireflect": [1, -1, 0, -1, 1, 3, 2, 1, 3, 5, 4],
    }
    for mode, values in padded.items():
        got = jaxpad.pad(x, [4], [4], modes.from_pywt(mode))
        if mode == "antireflect":
            # PyWavelets' C extension turns back at the far end on the begin side, past
            # n - 1 cells ([1, -1, ...]); pywt.pad, numpy's odd reflect and upfirdn go
            # on reflecting ([-1, 1, ...]), and jaxpad with them.
            np.testing.assert_array_equal(got, pywt.pad(x, (4, 4), mode))
            got, values = got[2:], values[2:]
        np.testing.assert_array_equal(got, values, err_msg=mode)


def test_pywt_test_pad_nd(full_run):
    """pywt/tests/test_dwt_idwt.py::test_pad_nd: every mode, 2-D and 3-D (the default
    run: the modes that are not numpy's, 2-D), against pywt.pad (axes padded in
    order, as jaxpad pads them)."""
    for ndim in (2, 3) if full_run else (2,):
        x = np.arange(4**ndim).reshape((4,) * ndim)
        widths = [(2, 1), (2, 3)] if ndim == 2 else [(2, 1)] * ndim
        lo, hi = zip(*widths)
        for mode in PYWT_MODES if full_run else ("smooth", "antisymmetric", "antireflect"):
            got = jaxpad.pad(x, lo, hi, modes.from_pywt(mode))
            np.testing.assert_array_equal(got, pywt.pad(x, widths, mode), err_msg=mode)


# Values -------------------------------------------------------------------------------


def test_every_pywt_mode_equals_pywt_pad_up_to_three_axis_lengths(full_run):
    # pywt.pad fails for a zero pad on either side of smooth and antisymmetric (it
    # slices vector[lo:-hi]) and reads past a one-element axis for smooth: each side
    # is compared alone, on axes of 2 elements or more.
    # The copying modes are numpy's (tests/test_modes.py): one wide case each here.
    cases = [
        (mode, n, lo, hi)
        for n in (2, 3, 5)
        for lo, hi in ((1, 2), (n, n + 1), (2 * n + 1, 3 * n))
        for mode in ("smooth", "antisymmetric", "antireflect")
    ] + [(mode, 3, 7, 9) for mode in ("zero", "constant", "symmetric", "reflect", "periodic")]
    with enable_x64(True):
        for mode, n, lo, hi in _share(cases, full_run, 5):
            x = _signal(n)
            got = np.asarray(jaxpad.pad(x, [lo], [hi], modes.from_pywt(mode)))
            np.testing.assert_allclose(
                got, pywt.pad(x, (lo, hi), mode), rtol=1e-13, atol=1e-13, err_msg=str((mode, n))
            )


def _upfirdn_extension(x, before, after, mode):
    """scipy.signal.upfirdn's extension of ``x`` by ``before`` / ``after``: filtering
    with a delta at the end of an ``m``-tap filter reads ``m - 1`` extended samples
    before the signal (the first outputs), a delta at its start ``m - 1`` after it."""
    n = len(x)
    taps = max(before, after) + 1
    late, early = np.zeros(taps), np.zeros(taps)
    late[-1], early[0] = 1.0, 1.0
    left = scipy.signal.upfirdn(late, x, mode=mode)[taps - 1 - before : taps - 1]
    right = scipy.signal.upfirdn(early, x, mode=mode)[n : n + after]
    return np.concatenate([left, x, right])


def test_every_upfirdn_mode_equals_scipy_signal_upfirdns_extension(full_run):
    cases = [
        (name, n, lo, hi)
        for n in (2, 3, 5)
        for lo, hi in ((1, 2), (n + 1, n), (3 * n, 2 * n + 1))
        for name in ("smooth", "antisymmetric", "antireflect", "line")
    ] + [(name, 3, 9, 7) for name in ("constant", "wrap", "edge", "symmetric", "reflect")]
    with enable_x64(True):
        for name, n, lo, hi in _share(cases, full_run, 5):
            x = _signal(n)
            got = np.asarray(jaxpad.pad(x, [lo], [hi], UPFIRDN[name]))
            expected = _upfirdn_extension(x, lo, hi, name)
            np.testing.assert_allclose(got, expected, rtol=1e-13, atol=1e-13, err_msg=name)


def test_one_element_axis():
    # antisymmetric alternates its sign, as pywt.pad does; smooth and line have no
    # slope on one sample (pywt.pad and upfirdn read outside the array there) and
    # repeat it, as reflect_odd does.
    x = np.array([3.0])
    expected = pywt.pad(x, (3, 4), "antisymmetric")
    np.testing.assert_array_equal(jaxpad.pad(x, [3], [4], "antisymmetric"), expected)
    # A traced pad reduces by the sign's period (2), not edge's (1).
    traced = jax.jit(lambda p: jaxpad.dynamic_pad(x, p, (8,), "antisymmetric"))
    np.testing.assert_array_equal(traced(jnp.array([3])), expected)
    np.testing.assert_array_equal(traced(jnp.array([1003])), expected)
    for mode in ("smooth", "line"):
        np.testing.assert_array_equal(jaxpad.pad(x, [3], [4], mode), np.full(8, 3.0))


MIXED = [
    (("smooth", "line"), ("antisymmetric", "edge")),
    (("line", "antisymmetric"), "smooth"),
    (("dirichlet", "smooth"), ("antisymmetric", "line")),
]


def _one_side(y, axis, lo, hi, side_mode, side):
    """One side of ``y`` along ``axis`` by the oracles, as numpy orders the axes."""
    pad = (lo, hi)[side]
    if pad <= 0:
        return np.take(y, [], axis)
    if side_mode == "dirichlet":
        widths = [(0, 0)] * y.ndim
        widths[axis] = (pad, 0) if side == 0 else (0, pad)
        full = 2 * 0.5 - np.pad(y, widths, "symmetric")
    else:
        name = {"reflect_odd": "antireflect"}.get(side_mode, side_mode)
        before, after = (pad, 0) if side == 0 else (0, pad)
        full = np.apply_along_axis(
            lambda row: _upfirdn_extension(row, before, after, name), axis, y
        )
    n = y.shape[axis]
    return np.take(full, range(pad) if side == 0 else range(n, n + pad), axis)


def _oracle(x, pads_begin, pads_end, mode):
    """Axis by axis (numpy's order), each side extended by its oracle from the axis as
    it stands, then the negative pads crop."""
    y = np.asarray(x)
    pairs = [(m, m) if isinstance(m, str) else m for m in mode]
    for axis, ((begin, end), lo, hi) in enumerate(zip(pairs, pads_begin, pads_end)):
        parts = [_one_side(y, axis, lo, hi, begin, 0), y, _one_side(y, axis, lo, hi, end, 1)]
        y = np.concatenate(parts, axis)
        y = np.take(y, range(max(-lo, 0), y.shape[axis] - max(-hi, 0)), axis)
    return y


@pytest.mark.parametrize("mode", MIXED, ids=str)
@pytest.mark.parametrize(
    "pads_begin, pads_end", [((2, 1), (1, 2)), ((9, -1), (-2, 13)), ((-1, 3), (7, 0))]
)
def test_per_axis_and_per_side_modes_corners_included_under_jit_and_vmap(
    mode, pads_begin, pads_end
):
    with enable_x64(True):
        x = np.random.default_rng(1).random((4, 5))
        value = 0.5 if any("dirichlet" in m for m in mode) else None
        expected = _oracle(x, pads_begin, pads_end, mode)
        f = lambda x: jaxpad.pad(x, pads_begin, pads_end, mode, value)  # noqa: E731
        twice = _oracle(2 * x, pads_begin, pads_end, mode)
        got = jax.jit(jax.vmap(f))(np.stack([x, 2 * x]))
        np.testing.assert_allclose(got, [expected, twice], rtol=1e-12, atol=1e-12)


# dynamic_pad --------------------------------------------------------------------------


@pytest.mark.parametrize("side_modes", NEW_MODES + (("line", "antisymmetric"),), ids=str)
def test_dynamic_pad_traced_and_static_pads_equal_pad(side_modes):
    x = _signal(5, np.float32)[None, :] * np.array([[1.0], [-2.0]], np.float32)
    pads = [(0, 2), (0, 17), (0, -3), (0, -20)]  # before; wider than the axis; crops
    shape = (2, 9)
    mode = ("constant", side_modes)
    f = jax.jit(lambda p: jaxpad.dynamic_pad(x, p, shape, mode))
    g = jax.jit(jax.vmap(lambda p: jaxpad.dynamic_pad(x, p, shape, mode)))
    batched = g(jnp.array(pads))
    for i, pad in enumerate(pads):
        ends = [s - n - p for s, n, p in zip(shape, x.shape, pad)]
        expected = _oracle(x.astype(np.float64), pad, ends, mode)
        np.testing.assert_allclose(f(jnp.array(pad)), expected, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(batched[i], expected, rtol=1e-5, atol=1e-5)


def _pad_test():
    """scipy's own test function of upfirdn's extensions (private: skip without it)."""
    try:
        from scipy.signal._upfirdn_apply import _pad_test
    except ImportError:
        pytest.skip("scipy.signal._upfirdn_apply._pad_test is gone")
    return _pad_test


def test_dynamic_pad_far_pads_count_cells_exactly():
    # A traced pad of 10**6 reduces to a small one plus the cells it skipped: smooth's
    # and line's coefficients grow with the distance.
    pad_test = _pad_test()
    with enable_x64(True):
        x = np.array([1.0, 2.5, 2.0, 4.0, 3.0])
        far = 10**6
        for mode in NEW_MODES:
            got = jax.jit(lambda p: jaxpad.dynamic_pad(x, p, (6,), mode))(jnp.array([far]))
            expected = pad_test(x, far, 0, mode)[:6]
            np.testing.assert_allclose(got, expected, rtol=1e-12, err_msg=mode)


# Gradients ----------------------------------------------------------------------------


# Each case has every new mode on some side.
@pytest.mark.parametrize("mode", MIXED, ids=str)
def test_check_grads_order_2(mode):
    with enable_x64(True):
        x = jnp.asarray(np.random.default_rng(2).random((3, 4)))
        value = 0.5 if any("dirichlet" in m for m in mode) else None
        # Wider than each axis on one side, a crop on the other.
        f = lambda x: jaxpad.pad(x, (7, -1), (2, 9), mode, value)  # noqa: E731
        check_grads(jax.jit(f), (x,), order=2, modes=("fwd", "rev"))


@pytest.mark.slow
def test_gradient_equals_jax_grad_of_the_jnp_extensions():
    """The definitions written with jnp (PyWavelets' smooth, upfirdn's line, the
    antisymmetric mirror), differentiated by JAX; jaxpad's fold must agree."""
    x = jnp.asarray(_signal(5, np.float32))
    weights = jnp.asarray(np.random.default_rng(3).random(5 + 7 + 6), np.float32)
    k_before, k_after = jnp.arange(7, 0, -1.0), jnp.arange(1, 7.0)

    def smooth(x):
        return jnp.concatenate(
            [x[0] + k_before * (x[0] - x[1]), x, x[-1] + k_after * (x[-1] - x[-2])]
        )

    def line(x):
        slope = (x[-1] - x[0]) / 4
        return jnp.concatenate([x[0] - k_before * slope, x, x[-1] + k_after * slope])

    def antisymmetric(x):
        # symmetric with the mirrored copies negated (pywt.pad's construction)
        sym = jnp.pad(x, (7, 6), "symmetric")
        signs = np.ones(18)
        offsets = np.arange(18) - 7
        signs[(offsets < 0) | (offsets >= 5)] = np.where(np.remainder(offsets, 10) >= 5, -1.0, 1.0)[
            (offsets < 0) | (offsets >= 5)
        ]
        return sym * signs

    def loss(pad):
        return jax.jit(jax.value_and_grad(lambda x: jnp.sum(weights * pad(x) ** 2)))

    for mode, composed in (("smooth", smooth), ("line", line), ("antisymmetric", antisymmetric)):
        expected = loss(composed)(x)
        got = loss(lambda x, mode=mode: jaxpad.pad(x, [7], [6], mode))(x)
        for a, b in zip(got, expected):
            np.testing.assert_allclose(a, b, rtol=1e-5, err_msg=mode)


@pytest.mark.slow
def test_jet_of_a_nonlinear_function_through_the_pad():
    """Taylor mode through the pad: the jnp extensions' jet is the oracle."""
    from jax.experimental import jet

    x = jnp.asarray(_signal(5, np.float32))
    series = ([jnp.cos(x), jnp.sin(x)],)
    k_before, k_after = jnp.arange(4, 0, -1.0), jnp.arange(1, 4.0)

    def composed(x):  # smooth before, line after
        slope = (x[-1] - x[0]) / 4
        return jnp.concatenate([x[0] + k_before * (x[0] - x[1]), x, x[-1] + k_after * slope])

    def ours(x):
        return jaxpad.pad(x, [4], [3], [("smooth", "line")])

    got = jet.jet(lambda x: jnp.sin(ours(jnp.sin(x))), (x,), series)
    want = jet.jet(lambda x: jnp.sin(composed(jnp.sin(x))), (x,), series)
    jax.tree.map(lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5), got, want)


# Extremes -----------------------------------------------------------------------------


def test_inf_and_nan_reach_only_the_cells_that_read_them():
    pad_test = _pad_test()
    for x in (
        np.array([1.0, 2.0, np.inf, np.nan, 5.0, 6.0]),  # inside: smooth, line read none
        np.array([np.inf, 2.0, 3.0, 4.0, 5.0, np.nan]),  # at the ends: they read both
    ):
        for mode in NEW_MODES:
            got = np.asarray(jaxpad.pad(x.astype(np.float32), [4], [9], mode))
            with np.errstate(invalid="ignore"):
                expected = pad_test(x, 4, 9, mode)
            np.testing.assert_allclose(got, expected, rtol=1e-6, err_msg=f"{mode} {x}")


@pytest.mark.parametrize("dtype", [jnp.bfloat16, jnp.float16])
def test_narrow_floats_round_the_float32_pad(dtype):
    x = jnp.asarray(_signal(5), dtype)
    for mode in NEW_MODES:
        expected = _upfirdn_extension(np.asarray(x, np.float64), 9, 12, mode)
        got = jaxpad.pad(x, [9], [12], mode)
        assert got.dtype == dtype
        scale = np.abs(expected).max()
        np.testing.assert_allclose(np.asarray(got, np.float32), expected, atol=0.02 * scale)


def test_complex_signals():
    x = _signal(4) + 1j * _signal(4)[::-1]
    for mode in NEW_MODES:
        got = jaxpad.pad(x.astype(np.complex64), [5], [6], mode)
        np.testing.assert_allclose(got, _upfirdn_extension(x, 5, 6, mode), rtol=1e-5)


# Translation --------------------------------------------------------------------------


def test_from_pywt_covers_every_pywt_mode():
    for name in pywt.Modes.modes:
        if name == "periodization":
            with pytest.raises(ValueError, match="^jaxpad.modes.from_pywt: mode='periodization'"):
                modes.from_pywt(name)
        else:
            assert modes.from_pywt(name) in jaxpad._index_maps.SIDE_MODES


def test_periodization_is_wrap_of_x_grown_by_edge_as_the_message_says():
    x = np.array([1.0, 2.0, 3.0])
    grown = jaxpad.pad(x, [0], [1], "edge")
    np.testing.assert_array_equal(
        jaxpad.pad(grown, [4], [6], "wrap"), pywt.pad(x, (4, 6), "periodization")
    )


# Several devices ----------------------------------------------------------------------


@pytest.mark.usefixtures("eight_cpu_devices")
def test_partitioned_pad_and_halo_pad_equal_the_global_pad():
    mesh = cpu_mesh((4,), ("x",))
    x = np.arange(1.0, 17.0, dtype=np.float32) ** 1.5
    mode = (("smooth", "antisymmetric"),)
    sharding = NamedSharding(mesh, P("x"))
    expected = np.asarray(jaxpad.pad(x, [3], [5], (("line", "smooth"),)))
    # A program partitioned by XLA composes one-mode pads with the sides' terms.
    got = jax.jit(lambda x: jaxpad.pad(x, [3], [5], (("line", "smooth"),)))(
        jax.device_put(x, sharding)
    )
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    # halo_pad in shard_map: each block with its halo, the edge blocks' halos from the mode.
    halo = jax.shard_map(
        lambda b: jaxpad.halo_pad(b, [2], [3], mode, axis_names=["x"]),
        mesh=mesh,
        in_specs=P("x"),
        out_specs=P("x"),
    )
    padded = np.asarray(jaxpad.pad(x, [2], [3], mode))
    blocks = [padded[4 * k : 4 * k + 2 + 4 + 3] for k in range(4)]
    np.testing.assert_allclose(jax.jit(halo)(x), np.concatenate(blocks), rtol=1e-6)


# Export -------------------------------------------------------------------------------


@pytest.mark.slow
def test_export_with_a_symbolic_batch_and_its_gradient():
    from jax import export

    mode = ("constant", ("smooth", "line"), "antisymmetric")
    spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, 5, 4"), jnp.float32)

    def f(x):
        return jaxpad.pad(x, (0, 6, 1), (0, 3, 9), mode)

    def grad(x):
        return jax.grad(lambda x: (f(x) ** 2).sum())(x)

    x = np.random.default_rng(8).random((2, 5, 4)).astype(np.float32)
    exported = export.export(jax.jit(lambda x: (f(x), grad(x))))(spec)
    for a, b in zip(exported.call(x), (f(x), grad(x))):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_every_pair_of_sides_eager(full_run):
    x = _signal(4)
    pairs = list(itertools.product(NEW_MODES + ("wrap",), repeat=2))
    for begin, end in _share(pairs, full_run, 3):
        got = np.asarray(jaxpad.pad(x, [3], [2], [(begin, end)]))
        left = _upfirdn_extension(x, 3, 0, begin)[:3]
        right = _upfirdn_extension(x, 0, 2, end)[4:]
        np.testing.assert_allclose(got, np.concatenate([left, x, right]), rtol=1e-6)
