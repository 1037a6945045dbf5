"""The minimum, maximum and rank filters' derivatives against brute force (numpy
loops over each window on ``np.pad``'s pad): the gradient of each output goes to the
first element of its window (row-major) equal to it, the first NaN for a NaN; the
VJP, the JVP and Taylor mode (``jax.experimental.jet``) agree with that selection."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.experimental import jet

from jaxpad.scipy import ndimage
from tests.compat import enable_x64
from tests.sampling import ROTATE_LISTS

# --all: a list of cases, one value each, rotates (tests/sampling.py).
pytestmark = ROTATE_LISTS

# scipy's modes as np.pad's (the grid-* twins pad the same for filters).
NP_MODES = {
    "reflect": "symmetric",
    "constant": "constant",
    "nearest": "edge",
    "mirror": "reflect",
    "wrap": "wrap",
}


@pytest.fixture(autouse=True)
def _x64():
    with enable_x64(True):
        yield


def _brute_force(x, fp, origins, mode, cval, rank):
    """(y, src): each output's selected value and the flat index in x of the selected
    element (-1: the constant pad), by a loop over the windows of np.pad's pad.
    ``rank``: 0 the minimum, -1 the maximum, else the rank-th smallest."""
    begins = [n // 2 + o for n, o in zip(fp.shape, origins)]
    pads = [(b, n - 1 - b) for n, b in zip(fp.shape, begins)]
    index = np.arange(x.size).reshape(x.shape)
    if mode == "constant":
        xp = np.pad(x, pads, mode="constant", constant_values=cval)
        ip = np.pad(index, pads, mode="constant", constant_values=-1)
    else:
        xp = np.pad(x, pads, mode=NP_MODES[mode])
        ip = np.pad(index, pads, mode=NP_MODES[mode])
    offsets = [o for o in np.ndindex(*fp.shape) if fp[o]]
    y = np.empty(x.shape)
    src = np.empty(x.shape, np.int64)
    for out in np.ndindex(*x.shape):
        cells = [tuple(a + b for a, b in zip(out, o)) for o in offsets]
        vals = np.array([xp[c] for c in cells])
        if np.isnan(vals).any():
            k = int(np.argmax(np.isnan(vals)))
        else:
            k = int(np.argmax(vals == np.sort(vals)[rank]))
        y[out] = vals[k]
        src[out] = ip[cells[k]]
    return y, src


def _gradients(src, ct, shape):
    """The VJP of the selection ``src``: (d x, d cval)."""
    g = np.zeros(int(np.prod(shape)))
    np.add.at(g, src[src >= 0], ct[src >= 0])
    return g.reshape(shape), ct[src < 0].sum()


def _assert_vjp_is_the_oracle(f, x, cval, ct, mode, want_y, want_x, want_c):
    """f(x, cval)'s value and VJP against the brute force's, jitted."""
    y, pull = jax.vjp(jax.jit(f), x, cval)
    got_x, got_c = jax.jit(pull)(ct)
    np.testing.assert_array_equal(y, want_y)
    np.testing.assert_allclose(got_x, want_x, rtol=1e-12, atol=1e-12)
    if mode == "constant":
        np.testing.assert_allclose(got_c, want_c, rtol=1e-12, atol=1e-12)


def _tied(rng, shape):
    """Few distinct values (many ties), with -0.0 beside 0.0, infinities and NaNs."""
    x = rng.integers(-1, 2, shape).astype(np.float64)
    x[rng.random(shape) < 0.15] = -0.0
    x[rng.random(shape) < 0.05] = -np.inf
    x[rng.random(shape) < 0.05] = np.inf
    x[rng.random(shape) < 0.04] = np.nan
    return x


# sizes 2-3 take the winner form (no index), 4-5 the index form (_extreme._WINNER_MAX).
@pytest.mark.parametrize("size", [2, 3, 4, 5])
@pytest.mark.parametrize("mode", list(NP_MODES))
def test_extreme_pass_vjp_is_the_first_winner(mode, size):
    rng = np.random.default_rng(size * 10 + list(NP_MODES).index(mode))
    for minimum in (True, False):
        for ndim in (1, 2, 3):
            shape = tuple(int(n) for n in rng.integers(size, size + 5, ndim))
            x = _tied(rng, shape)
            axis = int(rng.integers(0, ndim))
            origin = int(rng.integers(-(size // 2), (size - 1) // 2 + 1))
            cval = float(rng.choice([0.0, 1.0, -np.inf, np.nan]))
            fn = ndimage.minimum_filter1d if minimum else ndimage.maximum_filter1d
            fp = np.ones([size if a == axis else 1 for a in range(ndim)], bool)
            origins = [origin if a == axis else 0 for a in range(ndim)]
            want_y, src = _brute_force(x, fp, origins, mode, cval, 0 if minimum else -1)
            ct = rng.standard_normal(shape)
            want_x, want_c = _gradients(src, ct, shape)

            def f(x, c, fn=fn, axis=axis, origin=origin):
                return fn(x, size, axis, mode=mode, cval=c, origin=origin)

            _assert_vjp_is_the_oracle(f, x, cval, ct, mode, want_y, want_x, want_c)
            if ndim == 3:
                continue  # Jacobians of up to 9**3 x 9**3: the 1-D and 2-D ones suffice
            # The JVP is the same selection: its Jacobian is the VJP's.
            fwd = jax.jit(jax.jacfwd(lambda x, f=f, c=cval: f(x, c)))(x)
            rev = jax.jit(jax.jacrev(lambda x, f=f, c=cval: f(x, c)))(x)
            np.testing.assert_array_equal(fwd, rev)


@pytest.mark.parametrize("mode", list(NP_MODES))
def test_box_vjp_is_the_first_winner_row_major(mode):
    # A box runs its passes last axis first; the composed tie rule is the box's first
    # element (row-major) equal to the output, for both tangent forms.
    rng = np.random.default_rng(7 + list(NP_MODES).index(mode))
    for size in ((3, 2), (2, 5), (4, 3), (3, 3, 2)):
        shape = tuple(s + 3 for s in size)
        x = _tied(rng, shape)
        x[np.isnan(x)] = 0.5  # the passes' NaN rule is per pass: first NaN of each
        origins = [int(rng.integers(-(s // 2), (s - 1) // 2 + 1)) for s in size]
        for minimum in (True, False):
            fn = ndimage.minimum_filter if minimum else ndimage.maximum_filter
            f = jax.jit(lambda x, c, fn=fn: fn(x, size, mode=mode, cval=c, origin=origins))
            want_y, src = _brute_force(
                x, np.ones(size, bool), origins, mode, 0.5, 0 if minimum else -1
            )
            ct = rng.standard_normal(shape)
            want_x, want_c = _gradients(src, ct, shape)
            y, pull = jax.vjp(f, x, 0.5)
            got_x, got_c = pull(ct)
            np.testing.assert_array_equal(y, want_y)
            np.testing.assert_allclose(got_x, want_x, rtol=1e-12, atol=1e-12)
            if mode == "constant":
                np.testing.assert_allclose(got_c, want_c, rtol=1e-12, atol=1e-12)


def _series(rng, shape):
    return [rng.standard_normal(shape) for _ in range(3)]


# (shape, footprint, rank): rank None is the median. Arrays tall enough that the
# transpose of ``selected`` takes its main loop over x's rows (the flat views of ct and
# the index) besides the strips at the edges; a window of over 49 elements (the sort)
# and one of over 127 (an int32 index).
_SELECTED_CASES = [
    ((13, 11), np.ones((3, 3), bool), None),
    ((12, 9), np.array([[0, 1, 0], [1, 1, 1], [0, 1, 1]], bool), -1),
    ((11, 12), np.ones((5, 4), bool), 3),
    ((7, 6, 8), np.ones((3, 2, 3), bool), None),
    ((18, 16), np.ones((8, 7), bool), 20),
    ((26, 24), np.ones((12, 11), bool), 100),
]


@pytest.mark.parametrize(
    "case",
    [
        # The sorts' cases compile for 2-7 s each: pytest --all (CI) runs them.
        pytest.param(i, marks=pytest.mark.slow) if fp.sum() > 49 else i
        for i, (_, fp, _) in enumerate(_SELECTED_CASES)
    ],
)
@pytest.mark.parametrize("mode", list(NP_MODES))
def test_selected_vjp_over_x_is_the_first_equal_element(mode, case):
    # The rank and footprint filters' VJP (``selected``'s transpose: a gather over x's
    # rows through flat views, the pad's strips folded at the edges) against the brute
    # force on ties, signed zeros, infinities and NaNs, with origins and cval.
    shape, fp, rank = _SELECTED_CASES[case]
    if fp.sum() >= 127 and mode not in ("reflect", "constant"):
        pytest.skip("the int32 index (14 s a case): two modes are enough")
    if fp.sum() > 49 and mode not in ("reflect", "constant", "wrap"):
        # The mode reaches only the pad's strips, which the networks' cases check in
        # every mode; the sort's (5-6 s a case) three.
        pytest.skip("the sort: three modes are enough")
    rng = np.random.default_rng(40 + case * 10 + list(NP_MODES).index(mode))
    x = _tied(rng, shape)
    origins = [int(rng.integers(-(n // 2), (n - 1) // 2 + 1)) for n in fp.shape]
    cval = float(rng.choice([0.0, 1.0, -np.inf, np.nan]))
    count = int(fp.sum())
    if count > 49:
        # Past the networks a sort selects, which puts NaNs last (the brute force's
        # NaN-in-NaN-out rule is the networks'): no NaNs there.
        x[np.isnan(x)] = 2.0
        cval = 0.5 if np.isnan(cval) else cval
    r = count // 2 if rank is None else rank % count
    want_y, src = _brute_force(x, fp, origins, mode, cval, r)
    ct = rng.standard_normal(shape)
    want_x, want_c = _gradients(src, ct, shape)

    def f(x, c):
        if rank is None:
            return ndimage.median_filter(x, footprint=fp, mode=mode, cval=c, origin=origins)
        return ndimage.rank_filter(x, rank, footprint=fp, mode=mode, cval=c, origin=origins)

    _assert_vjp_is_the_oracle(f, x, cval, ct, mode, want_y, want_x, want_c)
    # The JVP reads the same index: its product with ct is the VJP's.
    dx = rng.standard_normal(shape)
    tangent = jax.jit(lambda x, dx: jax.jvp(lambda x: f(x, cval), (x,), (dx,))[1])(x, dx)
    np.testing.assert_allclose(
        np.sum(np.asarray(tangent) * ct), np.sum(want_x * dx), rtol=1e-10, atol=1e-10
    )


@pytest.mark.parametrize("mode", ["reflect", "constant", "wrap"])
def test_jet_through_selection_filters(mode):
    # jet of a custom_jvp leaked a tracer (jax 0.10.2); the filters' primitives have
    # rules. The oracle: jet of the same selection as a gather, its indices from the
    # brute force at the primal point.
    rng = np.random.default_rng(3)
    x = rng.standard_normal((7, 6))
    fp = np.array([[1, 0, 1], [1, 1, 0]], bool)
    cases = [
        (lambda z: ndimage.maximum_filter(z, 3, mode=mode, cval=0.25), np.ones((3, 3)), -1),
        (lambda z: ndimage.minimum_filter(z, (5, 4), mode=mode, cval=0.25), np.ones((5, 4)), 0),
        (
            lambda z: ndimage.maximum_filter1d(z, 2, 0, mode=mode, cval=0.25),
            np.ones((2, 1)),
            -1,
        ),
        (lambda z: ndimage.median_filter(z, 3, mode=mode, cval=0.25), np.ones((3, 3)), 4),
        (lambda z: ndimage.rank_filter(z, 1, footprint=fp, mode=mode, cval=0.25), fp, 1),
        (lambda z: ndimage.minimum_filter(z, footprint=fp, mode=mode, cval=0.25), fp, 0),
    ]
    for ours, window, rank in cases:
        window = np.asarray(window, bool)
        _, src = _brute_force(np.sin(x), window, [0, 0], mode, 0.25, rank)

        def oracle(z, src=src):
            values = jnp.sin(z).ravel()[np.maximum(src, 0)]
            return jnp.where(src >= 0, values, 0.25)

        series = (_series(rng, x.shape),)
        got = jax.jit(lambda s, f=ours: jet.jet(lambda z: f(jnp.sin(z)), (x,), s))(series)
        want = jax.jit(lambda s, f=oracle: jet.jet(f, (x,), s))(series)
        np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-12)
        for g, w in zip(got[1], want[1]):
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)


@pytest.mark.slow  # 5-16 s a case; pytest --all (CI) runs it
def test_jet_of_a_traced_cval():
    # cval's series reaches the outputs that select the pad (constant mode). Each
    # transformation is one jitted program, reused across the series' terms (eagerly,
    # jet and jvp compiled every primitive on its own).
    rng = np.random.default_rng(4)
    x = rng.standard_normal((6, 5))
    sin_x = np.sin(x)
    for f in (
        lambda z, c: ndimage.maximum_filter(z, 3, mode="constant", cval=c),
        lambda z, c: ndimage.maximum_filter(z, 5, mode="constant", cval=c),
        lambda z, c: ndimage.median_filter(z, 3, mode="constant", cval=c),
    ):
        c0, cs = 0.3, [1.0, -2.0]
        series = (_series(rng, x.shape)[:2], cs)
        got = jax.jit(
            lambda x, c, s, cs, f=f: jet.jet(lambda z, c: f(jnp.sin(z), c), (x, c), (s, cs))
        )(x, c0, *series)
        # The oracle: the same filter's JVP along (x's, cval's) first term is the first
        # coefficient; the selection is linear, so each coefficient is its JVP.
        along_cval = jax.jit(lambda z, tc, f=f: jax.jvp(f, (z, c0), (0 * z, tc))[1])
        along_x = jax.jit(lambda z, t, f=f: jax.jvp(lambda z: f(z, c0), (z,), (t,))[1])
        assert np.all(np.asarray(along_x(sin_x, np.zeros_like(x))) == 0)
        sin_terms = jax.jit(lambda x, s: jet.jet(jnp.sin, (x,), (s,))[1])(x, series[0])
        for k in range(2):
            lin = along_cval(sin_x, cs[k])
            tangent = along_x(sin_x, sin_terms[k])
            np.testing.assert_allclose(got[1][k], tangent + lin, rtol=1e-12, atol=1e-12)


def test_selection_primitives_have_jet_rules():
    from jaxpad.scipy._selection._box import box_p
    from jaxpad.scipy._selection._extreme import extreme_p, winner_p
    from jaxpad.scipy._selection._selected import selected_p
    from jaxpad.scipy._selection._windows import selection_p

    for prim in (extreme_p, winner_p, selection_p, selected_p, box_p):
        assert prim in jet.jet_rules, prim.name


def _entry(fn, *args):
    compiled = jax.jit(fn).lower(*args).compile()
    return compiled, compiled.as_text().split("\nENTRY")[1]


def test_small_extreme_vjp_has_no_index():
    # A min/max pass of size <= 3 differentiates without an index: its transpose tests
    # each window's winner beside the cotangent reads (docs/scipy.md#performance);
    # longer ones still write the int8 index.
    if jax.default_backend() != "cpu":
        pytest.skip("XLA:CPU's program")
    x = jnp.zeros((256, 256), jnp.float32)
    for size, indexed in ((3, False), ((2, 3), False), (5, True)):
        _, entry = _entry(
            lambda x, t, s=size: jax.vjp(lambda x: ndimage.maximum_filter(x, s), x)[1](t)[0],
            x,
            x,
        )
        assert any("= s8[" in line for line in entry.splitlines()) == indexed, entry


def test_minor_axis_index_pass_writes_its_pad_once():
    # The index of a min/max pass along the minor axis is computed in two halves, each
    # from its own side of the pad and x's columns: sliced from the whole pad, XLA:CPU
    # wrote all of x twice, beside each side (its temporaries at 128x128x128 in float32
    # came to 32.9 MiB, past glibc's mmap threshold; docs/performance.md).
    if jax.default_backend() != "cpu":
        pytest.skip("XLA:CPU's program")
    x = jnp.zeros((64, 128), jnp.float32)
    _, entry = _entry(
        lambda x, t: jax.vjp(lambda x: ndimage.maximum_filter1d(x, 9, axis=-1), x)[1](t)[0],
        x,
        x,
    )
    widths = [int(w) for w in re.findall(r"f32\[64,(\d+)\]", entry)]
    assert widths and max(widths) <= 128, entry  # no x beside a whole side of its pad
    assert "s8[64,128]" in entry, entry  # the index form, not the winner's


@pytest.mark.parametrize("size", [4, 9])
@pytest.mark.parametrize("mode", list(NP_MODES))
def test_minor_axis_index_pass_vjp_is_the_first_winner(mode, size):
    # The halves' form (above) on the rows of every origin, ties, NaNs and infinities.
    rng = np.random.default_rng(300 + size + list(NP_MODES).index(mode))
    for origin in sorted({-(size // 2), 0, (size - 1) // 2}):
        shape = (3, 2 * size + int(rng.integers(0, 3)))
        x = _tied(rng, shape)
        cval = float(rng.choice([0.0, 1.0, -np.inf, np.nan]))
        fp = np.ones((1, size), bool)
        want_y, src = _brute_force(x, fp, [0, origin], mode, cval, -1)
        ct = rng.standard_normal(shape)
        want_x, want_c = _gradients(src, ct, shape)

        def f(x, c, origin=origin):
            return ndimage.maximum_filter1d(x, size, -1, mode=mode, cval=c, origin=origin)

        _assert_vjp_is_the_oracle(f, x, cval, ct, mode, want_y, want_x, want_c)


def test_median_vjp_reads_one_pad_and_gathers_over_x():
    # The rank filters' index is computed on the flat view of one pad of x and written
    # once (sliced per window element, XLA split that pad into a copy per reader, and
    # the float64 3x3 median's VJP at 1024x1024 needed 40 MiB of temporaries,
    # page-faulted past glibc's 32 MiB mmap threshold). Its transpose (``selected``'s)
    # gathers over x's own shape: no zero-padded copy of the cotangent, no copy of the
    # padded gradient (padded_select's transpose wrote both, f64[1028,1028] and a
    # f64[1024,1026] copy; docs/scipy.md#performance).
    if jax.default_backend() != "cpu":
        pytest.skip("XLA:CPU's program")
    x = jnp.zeros((1024, 1024), jnp.float64)
    compiled, entry = _entry(
        lambda x, t: jax.vjp(lambda x: ndimage.median_filter(x, 3), x)[1](t)[0], x, x
    )
    lines = [line for line in entry.splitlines() if "=" in line]
    results = [line.split("=")[1].strip() for line in lines]
    # The index: one int8 array of the output's rows (and the pad's columns).
    assert (
        len(
            [
                r
                for r in results
                if r.startswith("s8[") and int(r[3:].split("]")[0].split(",")[0]) >= x.size
            ]
        )
        == 1
    ), entry
    shapes = [r.split("]")[0][4:].split(",") for r in results if r.startswith("f64[")]
    wide = [(int(s[0]), int(s[1])) for s in shapes if len(s) == 2]
    # x's one pad (a row more than the window's, for the flat view's last slice) and
    # nothing else wider or longer than x.
    assert all(n == 1027 for n, m in wide if max(n, m) > 1024 and min(n, m) > 16), entry
    assert not any(" copy(" in line for line in lines), entry
    memory = compiled.memory_analysis()
    if memory is not None:
        assert memory.temp_size_in_bytes < 32 << 20


def _box_passes(ndim, sizes, origins, mode):
    """The passes of a box filter as ``ndimage.maximum_filter`` runs them: the last
    axis first, jaxpad's name for scipy's mode, the flat forms up to size 3."""
    from jaxpad import modes

    return [
        (s, ax, s // 2 + o, modes.from_scipy(mode), 2 <= s <= 3)
        for ax, s, o in reversed(list(zip(range(ndim), sizes, origins)))
        if s > 1
    ]


@pytest.fixture
def _slabs(monkeypatch):
    # The slab form on small arrays: slabs of two rows of axis 0, the last one
    # overlapping the one before (7 rows).
    from jaxpad.scipy._selection import _box

    monkeypatch.setattr(_box, "_BOX_SLAB_BYTES", 0)
    monkeypatch.setattr(_box, "_BOX_SLAB_TARGET", 2 * 5 * 6 * 8)


@pytest.mark.parametrize("minimum", [False, True])
@pytest.mark.parametrize("mode", list(NP_MODES))
def test_box_slab_form_is_scipys_filter(_slabs, mode, minimum):
    import scipy.ndimage

    from jaxpad.scipy._selection._box import box, box_p

    rng = np.random.default_rng(7)
    x = rng.integers(-3, 4, (7, 5, 6)).astype(np.float64)
    # (No NaN: scipy's min/max filters keep or drop one by the element order.)
    want_fn = scipy.ndimage.minimum_filter if minimum else scipy.ndimage.maximum_filter
    for sizes, origins in (((3, 3, 3), (0, 0, 0)), ((5, 2, 4), (1, 0, -1)), ((1, 3, 9), (0, 1, 0))):
        passes = _box_passes(3, sizes, origins, mode)
        fn = lambda v, p=passes: box(v, 1.5, passes=p, minimum=minimum)  # noqa: E731
        assert "jaxpad_scipy_box" in str(jax.make_jaxpr(fn)(x))
        want = want_fn(x, sizes, mode=mode, cval=1.5, origin=list(origins))
        np.testing.assert_array_equal(np.asarray(jax.jit(fn)(x)), want)
        np.testing.assert_array_equal(np.asarray(fn(x)), want)
        # Batched: the slabs run along the batch axis, every pass inside them.
        got = jax.jit(jax.vmap(fn))(np.stack([x, -x]))
        np.testing.assert_array_equal(
            np.asarray(got[1]), want_fn(-x, sizes, mode=mode, cval=1.5, origin=list(origins))
        )
    assert box_p in jet.jet_rules


@pytest.mark.slow  # 5-16 s a case; pytest --all (CI) runs it
@pytest.mark.parametrize("mode", ["reflect", "constant", "wrap"])
def test_box_slab_form_derivatives_are_the_passes(_slabs, mode):
    # The slab form changes the forward program only: its JVP, VJP and Taylor terms
    # are the passes' own (bound one by one), element for element.
    from jaxpad.scipy._selection._box import box
    from jaxpad.scipy._selection._extreme import extreme

    rng = np.random.default_rng(3)
    x = _tied(rng, (7, 5, 6))
    x[~np.isfinite(x)] = 0.5
    t = rng.standard_normal(x.shape)
    for sizes in ((3, 3, 3), (5, 4, 2)):
        passes = _box_passes(3, sizes, (0, 0, 0), mode)

        def ours(v, c, p=passes):
            return box(v, c, passes=p, minimum=False)

        def passes_one_by_one(v, c, p=passes):
            for s, a, b, m, f in p:
                v = extreme(v, c, size=s, axis=a, begin=b, mode=m, minimum=False, flat=f)
            return v

        for fn in (ours, passes_one_by_one):
            assert ("jaxpad_scipy_box" in str(jax.make_jaxpr(fn)(x, 0.25))) == (fn is ours)
        c = jnp.asarray(0.25)

        # One program per form: its JVP, VJP and Taylor terms (jet) together.
        def derivatives(v, c, d, f):
            series = ([d, 2 * d], [jnp.ones_like(c), -jnp.ones_like(c)])
            return jax.jvp(f, (v, c), (d, 1.0)), jax.vjp(f, v, c)[1](d), jet.jet(f, (v, c), series)

        got = jax.jit(derivatives, static_argnums=3)(x, c, t, ours)
        want = jax.jit(derivatives, static_argnums=3)(x, c, t, passes_one_by_one)
        for g, w in zip(jax.tree.leaves(got), jax.tree.leaves(want), strict=True):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def test_float64_3d_box_temporaries_stay_under_the_mmap_threshold():
    # Whole, the float64 maximum filters at 128x128x128 needed 32.75-33.9 MiB of
    # temporaries (two full-size intermediates between the three passes), past
    # glibc's 32 MiB mmap threshold: page-faulted on every call. The passes off axis
    # 0 run slab by slab (_box._BOX_SLAB_BYTES); float32 (8 MiB) keeps the passes.
    if jax.default_backend() != "cpu":
        pytest.skip("XLA:CPU's program")
    from jaxpad.scipy._selection._box import box

    for dtype, slabs in ((jnp.float64, True), (jnp.float32, False)):
        x = jnp.zeros((128, 128, 128), dtype)
        for size in (3, 5, 9):
            passes = _box_passes(3, (size,) * 3, (0, 0, 0), "reflect")
            fn = lambda v, p=passes: box(v, 0.0, passes=p, minimum=False)  # noqa: E731
            assert ("jaxpad_scipy_box" in str(jax.make_jaxpr(fn)(x))) == slabs
            memory = jax.jit(fn).lower(x).compile().memory_analysis()
            if memory is not None and slabs:
                assert memory.temp_size_in_bytes < 30 << 20, (size, memory.temp_size_in_bytes)


@pytest.mark.parametrize("mode", list(NP_MODES))
def test_flat_selection_forward_is_scipys_filter(monkeypatch, mode):
    # The footprint and rank filters' forward through the flat view of their pad
    # (_windows._FLAT_SELECT_BYTES), forced on small arrays, axes of 1 and 2 elements
    # among them: its one extra row of axis 0 never reaches an output.
    import scipy.ndimage

    from jaxpad.scipy._selection import _windows

    monkeypatch.setattr(_windows, "_FLAT_SELECT_BYTES", 0)
    rng = np.random.default_rng(11)
    fp = np.array([[1, 0, 1], [1, 1, 0]], bool)
    for shape in ((6, 7), (1, 5), (2, 3), (4, 3, 5)):
        x = rng.integers(-4, 5, shape).astype(np.float64)
        cases = [
            (ndimage.median_filter, scipy.ndimage.median_filter, dict(size=3)),
            (ndimage.rank_filter, scipy.ndimage.rank_filter, dict(rank=1, size=(2,) * x.ndim)),
            (
                ndimage.percentile_filter,
                scipy.ndimage.percentile_filter,
                dict(percentile=70, size=2),
            ),
        ]
        if x.ndim == 2:
            cases.append((ndimage.maximum_filter, scipy.ndimage.maximum_filter, dict(footprint=fp)))
            cases.append(
                (
                    ndimage.median_filter,
                    scipy.ndimage.median_filter,
                    dict(footprint=fp, origin=(0, -1)),
                )
            )
        for ours, theirs, kw in cases:
            want = theirs(x, mode=mode, cval=2.5, **kw)
            got = jax.jit(lambda v, f=ours, kw=kw: f(v, mode=mode, cval=2.5, **kw))(x)
            np.testing.assert_array_equal(
                np.asarray(got), want, err_msg=f"{shape} {ours.__name__} {kw}"
            )


def test_median_forward_reads_its_pad_through_the_flat_view():
    # Sliced per window element, XLA split the median's pad into a copy per reader:
    # the float64 3x3x3 median at 128x128x128 needed 82.7 MiB of temporaries.
    if jax.default_backend() != "cpu":
        pytest.skip("XLA:CPU's program")
    x = jnp.zeros((128, 128, 128), jnp.float64)
    memory = jax.jit(lambda v: ndimage.median_filter(v, 3)).lower(x).compile().memory_analysis()
    if memory is not None:
        assert memory.temp_size_in_bytes < 40 << 20, memory.temp_size_in_bytes


def test_box_plain_is_the_slab_form(_slabs):
    # _box_plain (the passes without the loop, for exporters) equals the slab form.
    from jaxpad.scipy._selection._box import _box_plain, box

    x = np.random.default_rng(5).integers(-3, 4, (7, 5, 6)).astype(np.float64)
    passes = tuple(_box_passes(3, (3, 4, 5), (0, 1, -1), "wrap"))
    got = jax.jit(lambda v: _box_plain(v, jnp.asarray(0.5), passes=passes, minimum=True))(x)
    want = jax.jit(lambda v: box(v, 0.5, passes=passes, minimum=True))(x)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_float64_3d_maximum_filter_runs_its_passes_in_slabs():
    # ndimage.maximum_filter composes its passes with _box.box: whole, the float64
    # filters at 128x128x128 needed 32.75-33.9 MiB of temporaries (past glibc's mmap
    # threshold), the slab form 18-20 MiB.
    if jax.default_backend() != "cpu":
        pytest.skip("XLA:CPU's program")
    x = jnp.zeros((128, 128, 128), jnp.float64)
    for size in (3, 5, 9):
        fn = lambda v, s=size: ndimage.maximum_filter(v, s)  # noqa: E731
        assert "jaxpad_scipy_box" in str(jax.make_jaxpr(fn)(x))
        memory = jax.jit(fn).lower(x).compile().memory_analysis()
        if memory is not None:
            assert memory.temp_size_in_bytes < 30 << 20, (size, memory.temp_size_in_bytes)
