"""jaxpad.scipy.ndimage's shift, zoom, rotate, affine_transform and geometric_transform
against scipy.ndimage itself: every order and mode, concrete parameters (the static
slice plans) and traced ones (the take / gather forms), float64 and float32, integer
and complex outputs; gradients by check_grads and against scipy's finite differences;
eager, jit and vmap equal."""

from __future__ import annotations

import functools
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

from jaxpad.scipy import ndimage
from jaxpad.scipy._interpolation import _static
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

# (name, jaxpad call, scipy call) on a 2-D input; scipy 1.17's reflect prefilter
# aliases on lines shorter than ~12 (see test_scipy_interpolation.py), so 13 x 16.
SHAPE = (13, 16)
CASES = {
    "shift": lambda m, x, **k: m.shift(x, (2.3, -40.7), **k),
    "shift_int": lambda m, x, **k: m.shift(x, (3, -1), **k),
    "zoom_2": lambda m, x, **k: m.zoom(x, 2, **k),
    "zoom_mixed": lambda m, x, **k: m.zoom(x, (0.4, 1.37), **k),
    "zoom_grid": lambda m, x, **k: m.zoom(x, (2, 0.5), grid_mode=True, **k),
    "rotate_30": lambda m, x, **k: m.rotate(x, 30, **k),
    "rotate_90_keep": lambda m, x, **k: m.rotate(x, -90, reshape=False, **k),
    "affine_full": lambda m, x, **k: m.affine_transform(
        x, [[1.1, 0.3], [-0.2, 0.9]], offset=(-3, 2), output_shape=(15, 11), **k
    ),
    "affine_diagonal": lambda m, x, **k: m.affine_transform(x, [1.3, -0.7], offset=(-3, 20), **k),
    "affine_homogeneous": lambda m, x, **k: m.affine_transform(
        x, [[0.9, 0.2, 1.5], [0.1, 1.2, -2.0], [0, 0, 1]], **k
    ),
    "geometric": lambda m, x, **k: m.geometric_transform(
        x, lambda o: (o[0] * 0.7 - 1.2, o[1] + 0.3 * o[0] - 4), **k
    ),
}


# computed per output point in the spline's dtype (float32 here), then gathered
GATHERED = ("rotate_30", "affine_full", "affine_homogeneous", "geometric")


def _pair(name, x, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zoom_grid's constant / wrap mode warning
        ours = jax.jit(lambda a: CASES[name](ndimage, a, **kwargs))(x)
        theirs = CASES[name](sn, np.asarray(x), **kwargs)
    return np.asarray(ours), theirs


# every name, order and mode in a dozen cases (a compile each, 0.5-1.5 s)
@pytest.mark.subsample(12, all_keep=0.03)
@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("mode", MODES)
def test_against_scipy_float64(name, order, mode):
    x = np.random.default_rng(0).standard_normal(SHAPE)
    with enable_x64(True):
        ours, theirs = _pair(name, x, order=order, mode=mode, cval=1.5)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    # the gather forms' coordinates are summed in scipy's order; the rest is scipy's
    # arithmetic but for the spline's summation order (and the prefilter's FIR, which
    # scipy 1.17's reflect recursion matches to ~5e-10 on these short lines)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)


# every name, order and mode in a dozen cases (a compile each, 0.5-1.5 s)
@pytest.mark.subsample(12, all_keep=0.03)
@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("mode", MODES)
def test_against_scipy_float32(name, order, mode):
    if name in GATHERED and order == 0:
        pytest.skip(
            "a full matrix's float32 coordinate may round a point scipy's float64 one puts "
            "just off a half onto it, and order 0 rounds it the other way "
            "(docs/interpolation.md); float64 above compares them"
        )
    # a smooth image: float32's error stays within 1e-6 of its range (issue 44)
    i, j = np.meshgrid(np.arange(SHAPE[0]), np.arange(SHAPE[1]), indexing="ij")
    x = (np.sin(i / 3.0) * np.cos(j / 4.0) + 0.1 * i).astype(np.float32)
    ours, theirs = _pair(name, x, order=order, mode=mode, cval=0.5)
    span = float(x.max() - x.min())
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=2e-6 * span)


@pytest.mark.subsample(8, all_keep=0.2)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("mode", MODES)
def test_traced_shift_and_diagonal_equal_scipy(order, mode):
    """A traced shift / diagonal takes the hyperplane-take form; the same numbers."""
    x = np.random.default_rng(1).standard_normal(SHAPE)
    shifts = np.array([2.3, -17.6])
    with enable_x64(True):
        ours = jax.jit(lambda a, s: ndimage.shift(a, s, order=order, mode=mode, cval=1.5))(
            x, shifts
        )
        theirs = sn.shift(x, shifts, order=order, mode=mode, cval=1.5)
        np.testing.assert_allclose(np.asarray(ours), theirs, rtol=0, atol=1e-9)
        d, off = np.array([1.3, -0.7]), np.array([-3.0, 20.0])
        ours = jax.jit(
            lambda a, d, o: ndimage.affine_transform(a, d, o, order=order, mode=mode, cval=1.5)
        )(x, d, off)
        theirs = sn.affine_transform(x, d, off, order=order, mode=mode, cval=1.5)
        np.testing.assert_allclose(np.asarray(ours), theirs, rtol=0, atol=1e-9)


@pytest.mark.parametrize("mode", MODES)
def test_far_shifts_follow_the_mode(mode):
    """A shift of a million samples and a bit: scipy's own arithmetic, no overflow."""
    x = np.random.default_rng(2).standard_normal(17)
    with enable_x64(True):
        for s in (1e6 + 0.3, -1e6 - 0.7):
            ours = jax.jit(lambda a, s=s: ndimage.shift(a, s, order=3, mode=mode, cval=-2.0))(x)
            theirs = sn.shift(x, s, order=3, mode=mode, cval=-2.0)
            np.testing.assert_allclose(np.asarray(ours), theirs, rtol=0, atol=1e-8)


@pytest.mark.parametrize("mode", ["constant", "nearest", "mirror", "wrap"])
def test_nonfinite_traced_shift_as_map_coordinates(mode):
    """A nan or inf shift gives what map_coordinates gives at those coordinates."""
    x = jnp.arange(12.0).reshape(3, 4)
    shift = jax.jit(lambda a, s: ndimage.shift(a, s, order=3, mode=mode))
    grid = jnp.stack(jnp.meshgrid(jnp.arange(3.0), jnp.arange(4.0), indexing="ij"))
    read = jax.jit(lambda a, c: ndimage.map_coordinates(a, c, order=3, mode=mode))
    for bad in (jnp.nan, jnp.inf):
        s = jnp.array([0.5, bad])
        ref = read(x, grid - s[:, None, None])
        np.testing.assert_array_equal(np.asarray(shift(x, s)), np.asarray(ref))


def test_static_plans_build_no_gather():
    """shift and zoom by 2 and 1/2 are slices (no gather in the jaxpr); a zoom with no
    short period falls back to one take per axis."""

    def gathers(f, x):  # map_coordinates' read is a primitive of gathers
        jaxpr = str(jax.make_jaxpr(f)(x))
        return jaxpr.count("gather") + jaxpr.count("jaxpad_spline_read")

    x = jnp.ones((40, 36))
    assert gathers(lambda a: ndimage.shift(a, (1.5, -2.25), mode="mirror"), x) == 0
    assert gathers(lambda a: ndimage.zoom(a, 2, mode="reflect"), x) == 0
    assert gathers(lambda a: ndimage.zoom(a, 0.5, mode="nearest"), x) == 0
    assert gathers(lambda a: ndimage.zoom(a, 2, grid_mode=True, mode="grid-wrap"), x) == 0
    assert gathers(lambda a: ndimage.rotate(a, 17.0), x) >= 1


@pytest.mark.parametrize("dtype", [np.uint8, np.int16])
def test_integer_outputs_round_as_scipy(dtype):
    x = np.random.default_rng(3).uniform(-50, 300, SHAPE)
    with enable_x64(True):
        for name in ("shift", "zoom_mixed", "rotate_30"):
            ours, theirs = _pair(name, x, order=3, mode="mirror", output=dtype)
            assert ours.dtype == theirs.dtype
            np.testing.assert_array_equal(ours, theirs)


def test_integer_input_and_complex():
    rng = np.random.default_rng(4)
    xi = rng.integers(0, 200, SHAPE).astype(np.uint8)
    xc = rng.standard_normal(SHAPE) + 1j * rng.standard_normal(SHAPE)
    with enable_x64(True):
        for name in ("shift", "zoom_2", "affine_full"):
            ours, theirs = _pair(name, xi, order=3, mode="nearest")
            assert ours.dtype == np.uint8
            np.testing.assert_array_equal(ours, theirs)
            ours, theirs = _pair(name, xc, order=3, mode="grid-constant", cval=1 + 2j)
            assert ours.dtype == np.complex128
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-10)


def test_rotate_3d_plane_by_plane():
    x = np.random.default_rng(5).standard_normal((5, 13, 14))
    with enable_x64(True):
        for axes in [(1, 2), (2, 0), (0, 1)]:
            # mirror: scipy 1.17's reflect prefilter aliases on the 5-sample axis
            ours = jax.jit(
                lambda a, axes=axes: ndimage.rotate(a, 25, axes=axes, order=3, mode="mirror")
            )(x)
            theirs = sn.rotate(x, 25, axes=axes, order=3, mode="mirror")
            np.testing.assert_allclose(np.asarray(ours), theirs, rtol=0, atol=1e-10)


def test_eager_jit_vmap_agree():
    x = np.random.default_rng(6).standard_normal((3, 9, 10)).astype(np.float32)
    shifts = jnp.array([[0.5, -1.25], [2.0, 0.0], [-3.5, 7.75]])

    def f(a, s):
        return ndimage.shift(a, s, order=3, mode="wrap")

    eager = np.stack([np.asarray(f(x[i], shifts[i])) for i in range(3)])
    # float32: XLA fuses the batched program's multiply-adds differently
    np.testing.assert_allclose(
        np.asarray(jax.jit(jax.vmap(f))(x, shifts)), eager, rtol=0, atol=5e-6
    )
    static = np.stack([np.asarray(f(x[i], np.asarray(shifts[i]))) for i in range(3)])
    np.testing.assert_allclose(static, eager, rtol=0, atol=2e-6)

    def g(a, t):
        return ndimage.rotate(a, t, reshape=False, order=3, mode="nearest")

    angles = jnp.array([10.0, -33.0, 90.0])
    eager = np.stack([np.asarray(g(x[i], angles[i])) for i in range(3)])
    np.testing.assert_allclose(
        np.asarray(jax.jit(jax.vmap(g))(x, angles)), eager, rtol=0, atol=5e-6
    )


# (function, mode, spline order): every mode once, each function in two or three, the
# orders 1-5 (0 has no derivative in its coordinates). On the coefficients
# (prefilter=False): the prefilter is linear in the input and its transpose is checked
# by test_scipy_interpolation.py's test_jacfwd_and_input_gradient_is_the_adjoint;
# through its 40-odd float64 taps a side the order-2 checks took 40-80 s a case,
# eagerly.
GRAD_CASES = [
    ("shift", "constant", 3),
    ("affine", "grid-constant", 5),
    ("zoom", "nearest", 4),
    ("shift", "mirror", 5),
    ("affine", "reflect", 3),
    ("zoom", "grid-mirror", 2),
    ("shift", "wrap", 1),
    ("affine", "grid-wrap", 4),
]


def _grad_case(function, mode, order):
    """The function of the differentiated arguments, and those arguments (float64)."""
    x = np.random.default_rng(7).standard_normal((6, 7))
    if function == "shift":
        return (
            lambda a, s, c: ndimage.shift(a, s, order=order, mode=mode, cval=c, prefilter=False),
            (x, np.array([0.3, -1.6]), 0.7),
        )
    if function == "affine":
        return (
            lambda a, m, o: ndimage.affine_transform(
                a, m, o, order=order, mode=mode, cval=0.4, prefilter=False
            ),
            (x, np.array([[0.9, 0.2], [-0.1, 1.1]]), np.array([0.4, -0.3])),
        )
    return (
        lambda a: ndimage.zoom(a, (1.5, 0.7), order=order, mode=mode, prefilter=False),
        (x,),
    )


@pytest.mark.subsample(len(GRAD_CASES))  # every case, every run
@pytest.mark.parametrize("function, mode, order", GRAD_CASES)
def test_check_grads(function, mode, order):
    # One compile per case (jit: eagerly, each of the many small ops compiles apart).
    with enable_x64(True):
        f, args = _grad_case(function, mode, order)
        check_grads(jax.jit(f), args, order=1, modes=["fwd", "rev"], eps=1e-6)


def test_check_grads_order_2():
    """Second derivatives through a traced shift: the hyperplane-take form, whose
    weights are the spline's polynomials in the shift (the gather form's second
    derivatives, in the coordinates, are test_scipy_interpolation.py's)."""
    with enable_x64(True):
        f, args = _grad_case("shift", "grid-constant", 3)
        check_grads(jax.jit(f), args, order=2, modes=["fwd", "rev"], eps=1e-6)


def test_parameter_gradients_match_scipy_differences():
    """d/d shift, d/d matrix, d/d a zoom's scale, d/d angle and d/d cval against central
    differences of scipy's own functions."""
    x = np.random.default_rng(8).standard_normal((12, 13))
    h = 1e-6
    with enable_x64(True):

        def fd(f, p):
            p = np.asarray(p, np.float64)
            out = []
            for i in range(p.size):
                e = np.zeros_like(p).reshape(-1)
                e[i] = h
                e = e.reshape(p.shape)
                out.append((np.sum(f(p + e)) - np.sum(f(p - e))) / (2 * h))
            return np.array(out).reshape(p.shape)

        s0 = np.array([0.3, -2.4])
        ours = jax.jit(jax.grad(lambda s: jnp.sum(ndimage.shift(x, s, mode="reflect"))))(s0)
        np.testing.assert_allclose(
            ours, fd(lambda s: sn.shift(x, s, mode="reflect"), s0), rtol=1e-5, atol=1e-6
        )
        m0 = np.array([[0.95, 0.1, 0.5], [-0.1, 1.05, -0.25]])
        ours = jax.jit(jax.grad(lambda m: jnp.sum(ndimage.affine_transform(x, m, mode="mirror"))))(
            m0
        )
        np.testing.assert_allclose(
            ours, fd(lambda m: sn.affine_transform(x, m, mode="mirror"), m0), rtol=1e-5, atol=1e-6
        )
        a0 = np.array(12.0)
        ours = jax.jit(
            jax.grad(lambda a: jnp.sum(ndimage.rotate(x, a, reshape=False, mode="nearest")))
        )(a0)
        theirs = fd(lambda a: sn.rotate(x, float(a), reshape=False, mode="nearest"), a0)
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
        # a zoom's scale: zoom's factors decide its shape, the (ndim,) matrix does not
        z0 = np.array([1.3, 0.7])

        def zoomed(z, module):
            return module.affine_transform(x, 1 / z, output_shape=(15, 9), mode="grid-wrap")

        ours = jax.jit(jax.grad(lambda z: jnp.sum(zoomed(z, ndimage))))(z0)
        np.testing.assert_allclose(ours, fd(lambda z: zoomed(z, sn), z0), rtol=1e-5, atol=1e-6)
        ours = jax.jit(jax.grad(lambda c: jnp.sum(ndimage.shift(x, (1.5, -3.2), cval=c))))(0.0)
        np.testing.assert_allclose(
            ours, fd(lambda c: sn.shift(x, (1.5, -3.2), cval=float(c)), 0.0), rtol=1e-6
        )


def test_input_gradient_is_the_adjoint():
    """<shift(x), y> = <x, shift^T(y)>: the VJP of the slice form is the transpose of
    the forward (checked against the explicit matrix of the map). On the coefficients
    (prefilter=False: the prefilter's transpose is test_scipy_interpolation.py's
    adjoint test's, against scipy; through it, this took 11-27 s)."""
    rng = np.random.default_rng(9)
    x = rng.standard_normal((7, 8))
    with enable_x64(True):
        for f in (
            lambda a: ndimage.shift(a, (1.3, -0.6), mode="grid-mirror", prefilter=False),
            lambda a: ndimage.zoom(a, (2, 0.5), mode="wrap", prefilter=False),
        ):
            jac = jax.jit(jax.jacfwd(f))(x)
            y = rng.standard_normal(jac.shape[:2])
            vjp = jax.jit(lambda x, y, f=f: jax.vjp(f, x)[1](y)[0])(x, y)
            np.testing.assert_allclose(vjp, np.einsum("ij,ijkl->kl", y, jac), atol=1e-12)


def test_zoom_one_returns_the_input_and_grid_mode_warns():
    x = jnp.arange(6.0).reshape(2, 3)
    assert ndimage.zoom(x, 1) is not None
    np.testing.assert_array_equal(np.asarray(ndimage.zoom(x, 1)), np.asarray(x))
    with pytest.warns(UserWarning, match="grid-constant"):
        ndimage.zoom(x, 2, grid_mode=True)


@functools.cache
def _plan(n_out, ratio, mode, order):
    cc = np.arange(n_out) * ratio
    return _static._static_plan(cc, 10, order, mode, 0)


def test_a_one_phase_pass_concatenates_its_segments_once():
    # shift's pass along each axis: its outputs cut where a tap's run starts, each
    # segment's sum fused, one concatenation per axis (a concatenation per tap wrote
    # each tap's reads to memory: 8 here, and a cubic shift took 2.6-4.5x the time).
    x = jnp.ones((64, 48), jnp.float32)
    for mode in MODES:
        text = (
            jax.jit(
                lambda x, mode=mode: ndimage.shift(
                    x, (3.3, -7.6), order=3, mode=mode, prefilter=False
                )
            )
            .lower(x)
            .as_text()
        )
        # grid-constant's axes each take cval's plane on first (one more concatenation)
        expected = 4 if mode == "grid-constant" else 2
        count = text.count("stablehlo.concatenate")
        assert count == expected, (mode, count)


def test_static_plan_runs_and_phases():
    idx, w, outside = _plan(19, 0.5, "mirror", 3)
    p, runs, total = _static._phases(idx)
    assert p == 2 and not outside.any()
    assert np.allclose(w.sum(axis=1), 1.0)
    # every run reproduces its indices
    for q in range(p):
        for j in range(idx.shape[1]):
            seq = np.concatenate(
                [first + step * np.arange(size) for _, first, step, size in runs[q][j]]
            )
            np.testing.assert_array_equal(seq[: len(idx[q::p, j])], idx[q::p, j])


def _greedy_runs(seq):
    """The runs' definition, a position at a time: free positions (-2) take their
    nearest known neighbour's value; each run starts where the last ended, takes the
    step to the next position, and goes on while the steps repeat."""
    seq = [int(v) for v in seq]
    known = [i for i, v in enumerate(seq) if v != -2]
    for i in range(len(seq)):
        if seq[i] == -2:
            before = [k for k in known if k < i]
            seq[i] = seq[before[-1]] if before else (seq[known[0]] if known else 0)
    runs, i = [], 0
    while i < len(seq):
        if i + 1 == len(seq):
            runs.append((i, seq[i], 0, 1))
            break
        step, j = seq[i + 1] - seq[i], i + 1
        while j + 1 < len(seq) and seq[j + 1] - seq[j] == step:
            j += 1
        runs.append((i, seq[i], step, j - i + 1))
        i = j + 1
    return runs


def test_runs_and_their_budget():
    # _runs is vectorized and stops past a budget of runs (a loop over the positions
    # took 25-56 s to lower shift and zoom of four million samples)
    rng = np.random.default_rng(0)
    for trial in range(300):
        size = int(rng.integers(1, 40))
        steps = rng.choice([0, 1, 1, 2, -1, 3], size)
        seq = np.cumsum(steps) if trial % 3 else rng.integers(-1, 4, size)
        seq = np.where(rng.random(size) < 0.25, -2, seq)
        expected = _greedy_runs(seq)
        assert _static._runs(seq) == expected, seq
        for limit in range(len(expected) + 2):
            got = _static._runs(seq, limit)
            assert got == (None if len(expected) > limit else expected), (seq, limit)


def test_phases_pick_the_first_count_with_the_fewest_runs():
    rng = np.random.default_rng(1)
    for n_out, ratio in [(40, 0.5), (37, 2.0), (50, 1 / 1.37), (30, 3.0), (64, 1.0)]:
        cc = np.arange(n_out) * ratio - 0.3
        idx, _, _ = _static._static_plan(cc, int(n_out * ratio) + 3, 3, "mirror", 0)
        if n_out == 64:
            idx = rng.integers(0, 50, idx.shape)  # irregular: the take
        totals = []
        for p in range(1, _static._MAX_PHASES + 1):
            length = -(-n_out // p)
            table = np.full((p * length, idx.shape[1]), -2)
            table[:n_out] = idx
            table = table.reshape(length, p, idx.shape[1])
            runs = [_greedy_runs(table[:, q, j]) for q in range(p) for j in range(4)]
            totals.append(sum(map(len, runs)))
        p, _, total = _static._phases(idx)
        if min(totals) > _static._MAX_RUNS:
            assert total > _static._MAX_RUNS and p is None
        else:
            assert (p, total) == (int(np.argmin(totals)) + 1, min(totals))


def _dense(table, n_in):
    """A pass's table as the (n_out, n_in) matrix it applies, and which entries are
    products of it (a weight of 0 that the pass multiplies is a product)."""
    matrix = np.zeros((table.idx.shape[0], n_in))
    product = np.zeros(matrix.shape, bool)
    present = table.present if table.present is not None else np.ones(table.w.shape, bool)
    for k, j in zip(*np.nonzero(present)):
        matrix[k, table.idx[k, j]] += table.w[k, j]
        product[k, table.idx[k, j]] = True
    return matrix, product


@pytest.mark.parametrize(
    "n_out, ratio, mode, order",
    [
        (19, 0.5, "mirror", 3),
        (12, 2.0, "reflect", 5),
        (30, 0.31, "wrap", 2),
        (9, 1.0, "nearest", 1),
    ],
)
def test_a_pass_s_transpose_is_the_pass_of_the_transposed_table(n_out, ratio, mode, order):
    # The VJP of a static pass is the same primitive with the transposed table: its
    # matrix is the pass's transposed, and an inf in the cotangent reaches exactly the
    # inputs that a product carries it to (no 0 * inf from the table's padding).
    idx, w, _ = _plan(n_out, ratio, mode, order)
    table = _static._Table(idx, w, None)
    transposed = table.transposed(10)
    matrix, product = _dense(table, 10)
    matrix_t, product_t = _dense(transposed, n_out)
    np.testing.assert_allclose(matrix_t, matrix.T, atol=1e-15)
    np.testing.assert_array_equal(product_t, product.T)
    # the pass itself against the matrices, and the cotangent's inf
    ct = np.random.default_rng(0).standard_normal((n_out, 3))
    ct[n_out // 2, 1] = np.inf
    with enable_x64(True):
        got = np.asarray(_static.pass_p.bind(jnp.asarray(ct), axis=0, table=transposed))
    with np.errstate(invalid="ignore"):
        want = np.einsum("ki,kc->ic", np.where(product, matrix, 0.0), np.nan_to_num(ct))
        reached = product[n_out // 2]
    np.testing.assert_allclose(got[:, [0, 2]], want[:, [0, 2]], atol=1e-12)
    assert np.array_equal(~np.isfinite(got[:, 1]), reached)
    # a forward read through the same primitive
    c = np.random.default_rng(1).standard_normal((10, 2))
    with enable_x64(True):
        forward = np.asarray(_static.pass_p.bind(jnp.asarray(c), axis=0, table=table))
    np.testing.assert_allclose(forward, matrix @ c, atol=1e-12)


def test_the_transforms_vjp_reads_the_cotangent_through_static_passes():
    # zoom x0.5's VJP: one transposed pass per axis, no zero pad of the input per
    # strided slice (left to JAX its VJP took 3.5-3.7x the forward at 1024x1024)
    x = jnp.ones((40, 36), jnp.float32)

    def f(x):
        return ndimage.zoom(x, 0.5, order=3, mode="mirror", prefilter=False)

    ct = jnp.ones(f(x).shape)
    jaxpr = jax.make_jaxpr(lambda x, t: jax.vjp(f, x)[1](t))(x, ct)
    names = [eqn.primitive.name for eqn in jaxpr.jaxpr.eqns]
    # the forward's two passes (traced with the VJP) and their two transposes
    assert names.count("jaxpad_interpolation_pass") == 4 and "pad" not in names, names
    # vmap of the gradient (the pass's axis moves with the batch) equals each image's
    images = jnp.asarray(np.random.default_rng(2).standard_normal((3, 40, 36)), jnp.float32)

    def loss(x):
        return jnp.sum(jnp.sin(ndimage.zoom(x, 0.5, order=3, mode="mirror")))

    batched = jax.jit(jax.vmap(jax.grad(loss)))(images)
    for image, got in zip(images, batched):
        np.testing.assert_allclose(got, jax.grad(loss)(image), rtol=1e-5, atol=1e-6)
