"""Tests for jaxpad/_jet.py: Taylor mode (``jax.experimental.jet``) through every jaxpad
primitive, against ``jet`` of the ``jnp.pad`` / ``lax.pad`` / ``jnp.broadcast_to``
equivalent, to order 3.

Each function is wrapped in nonlinear maps (``sin`` before and after the pad) so that the
higher coefficients mix: a rule that dropped or misplaced a coefficient would show.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jax.experimental import jet as taylor

import jaxpad
from tests.cases import NON_CONSTANT
from tests.sampling import EVERY_CASE, ROTATE_LISTS
from tests.test_sides import READS_VALUE, SIDE_MODES

# --all: a list of cases, one value each, rotates (tests/sampling.py).
pytestmark = ROTATE_LISTS

ORDER = 3


def jet(fun, primals, series):
    """``jet`` of ``fun`` compiled as one program: run eagerly, every primitive of every
    series term compiled a program of its own, twice this file's time. The rules that
    ``jet`` applies are the same either way (it traces ``fun`` in both)."""
    return jax.jit(lambda primals, series: taylor.jet(fun, primals, series))(primals, series)


def jnp_side(y, axis, before, after, mode, value):
    """``y`` padded along ``axis`` by ``jnp.pad`` in one side's mode."""
    widths = [(0, 0)] * y.ndim
    widths[axis] = (before, after)
    if mode == "constant":
        return jnp.pad(y, widths, "constant", constant_values=value)
    if mode == "dirichlet":
        return 2 * value - jnp.pad(y, widths, "symmetric")
    if mode in ("reflect_odd", "symmetric_odd"):
        return jnp.pad(y, widths, mode.removesuffix("_odd"), reflect_type="odd")
    return jnp.pad(y, widths, mode)


def jnp_sided(x, pads_begin, pads_end, modes, values):
    """Axis by axis (numpy's order), each side extended by its own mode, then the
    negative pads crop."""
    y = x
    for axis, ((mode_begin, mode_end), lo, hi) in enumerate(zip(modes, pads_begin, pads_end)):
        n = y.shape[axis]
        before, after = max(lo, 0), max(hi, 0)
        begin = jnp_side(y, axis, before, after, mode_begin, values[axis, 0])
        end = jnp_side(y, axis, before, after, mode_end, values[axis, 1])
        y = jnp.concatenate(
            [
                lax.slice_in_dim(begin, 0, before, axis=axis),
                y,
                lax.slice_in_dim(end, before + n, before + n + after, axis=axis),
            ],
            axis,
        )
        y = lax.slice_in_dim(y, max(-lo, 0), y.shape[axis] - max(-hi, 0), axis=axis)
    return y


def as_pairs(mode, ndim):
    if isinstance(mode, str):
        return ((mode, mode),) * ndim
    return tuple((m, m) if isinstance(m, str) else tuple(m) for m in mode)


def series_for(rng, *primals):
    return tuple(
        [rng.normal(size=np.shape(p)).astype(np.float32) for _ in range(ORDER)] for p in primals
    )


def assert_jets_equal(fn, oracle, primals, series):
    got_primal, got_series = jet(fn, primals, series)
    want_primal, want_series = jet(oracle, primals, series)
    np.testing.assert_allclose(got_primal, want_primal, rtol=1e-5, atol=1e-5)
    assert len(got_series) == len(want_series) == ORDER
    for k, (got, want) in enumerate(zip(got_series, want_series)):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=f"order {k + 1}")


def wrapped(pad):
    return lambda x, v: jnp.sin(pad(jnp.sin(x), jnp.cos(v)))


@pytest.mark.parametrize("mode", SIDE_MODES)
def test_pad_every_mode_with_a_traced_pad_value(mode):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 4)).astype(np.float32)
    v = np.float32(0.3)
    pads_begin, pads_end = (2, -1), (1, 3)

    def ours(x, v):
        return jaxpad.pad(x, pads_begin, pads_end, mode, v if mode in READS_VALUE else None)

    def oracle(x, v):
        values = jnp.broadcast_to(v if mode in READS_VALUE else 0, (2, 2))
        return jnp_sided(x, pads_begin, pads_end, as_pairs(mode, 2), values)

    assert_jets_equal(wrapped(ours), wrapped(oracle), (x, v), series_for(rng, x, v))


@pytest.mark.parametrize(
    "mode",
    [
        ("wrap", ("dirichlet", "symmetric")),
        (("constant", "edge"), ("reflect", "dirichlet")),
        ("dirichlet", "symmetric_odd"),
        (("constant", "reflect_odd"), "wrap"),
    ],
)
def test_pad_per_side_modes_and_values(mode):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(4, 5)).astype(np.float32)
    values = rng.normal(size=(2, 2)).astype(np.float32)
    pads_begin, pads_end = (3, 2), (2, 4)

    def ours(x, v):
        return jaxpad.pad(x, pads_begin, pads_end, mode, v)

    def oracle(x, v):
        return jnp_sided(x, pads_begin, pads_end, as_pairs(mode, 2), v)

    assert_jets_equal(wrapped(ours), wrapped(oracle), (x, values), series_for(rng, x, values))


def test_pad_constant_value_has_no_series():
    """A pad value that is not an input of ``jet`` contributes only to the primal."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=(5,)).astype(np.float32)
    fn = lambda x: jnp.sin(jaxpad.pad(jnp.exp(x), [2], [3], "constant", 1.5))  # noqa: E731
    oracle = lambda x: jnp.sin(jnp.pad(jnp.exp(x), (2, 3), constant_values=1.5))  # noqa: E731
    (series,) = series_for(rng, x)
    got_primal, got_series = jet(fn, (x,), (series,))
    want_primal, want_series = jet(oracle, (x,), (series,))
    np.testing.assert_allclose(got_primal, want_primal, rtol=1e-5)
    for got, want in zip(got_series, want_series):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_pad_interior_against_lax_pad():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3, 4)).astype(np.float32)
    v = np.float32(-0.2)
    config = ((1, 2, 1), (-1, 0, 2))

    def ours(x, v):
        return jaxpad.pad(x, (1, -1), (2, 0), "constant", v, interior=(1, 2))

    def oracle(x, v):
        return lax.pad(x, v, config)

    assert_jets_equal(wrapped(ours), wrapped(oracle), (x, v), series_for(rng, x, v))


@pytest.mark.parametrize("mode", ["constant", "reflect", "wrap", "symmetric_odd", "dirichlet"])
def test_pad_gradient_through_fold(mode):
    """Taylor mode of a gradient: the gradient's jaxpr holds ``jaxpad_fold``."""
    rng = np.random.default_rng(4)
    x = rng.normal(size=(3, 4)).astype(np.float32)
    weights = rng.normal(size=(7, 8)).astype(np.float32)
    pads_begin, pads_end = (2, 1), (2, 3)

    def grad_of(pad):
        return jax.grad(lambda x: (weights * jnp.sin(pad(x)) ** 2).sum())

    value = 0.5 if mode in READS_VALUE else None
    ours = grad_of(lambda x: jaxpad.pad(x, pads_begin, pads_end, mode, value))
    values = jnp.full((2, 2), value or 0.0, np.float32)
    oracle = grad_of(lambda x: jnp_sided(x, pads_begin, pads_end, as_pairs(mode, 2), values))
    assert "jaxpad_fold" in str(jax.make_jaxpr(ours)(x))
    (series,) = series_for(rng, x)
    got_primal, got_series = jet(ours, (x,), (series,))
    want_primal, want_series = jet(oracle, (x,), (series,))
    np.testing.assert_allclose(got_primal, want_primal, rtol=1e-4, atol=1e-5)
    for got, want in zip(got_series, want_series):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "mode", ["constant", "edge", "symmetric", "wrap", "reflect_odd", "dirichlet"]
)
def test_dynamic_pad_with_traced_offsets(mode):
    rng = np.random.default_rng(5)
    x = rng.normal(size=(3, 4)).astype(np.float32)
    v = np.float32(0.7)
    shape = (8, 6)
    series = series_for(rng, x, v)

    @jax.jit
    def ours(x, v, offsets, series):
        value = lambda v: v if mode in READS_VALUE else None  # noqa: E731
        pad = lambda x, v: jaxpad.dynamic_pad(x, offsets, shape, mode, value(v))  # noqa: E731
        return jet(wrapped(pad), (x, v), series)

    for pads_begin in [(2, 1), (-1, 3), (4, -2)]:
        pads_end = tuple(s - n - b for s, n, b in zip(shape, x.shape, pads_begin))

        def oracle(x, v, pads_begin=pads_begin, pads_end=pads_end):
            values = jnp.broadcast_to(v if mode in READS_VALUE else 0, (2, 2))
            return jnp_sided(x, pads_begin, pads_end, as_pairs(mode, 2), values)

        got_primal, got_series = ours(x, v, np.array(pads_begin, np.int32), series)
        want_primal, want_series = jet(wrapped(oracle), (x, v), series)
        np.testing.assert_allclose(got_primal, want_primal, rtol=1e-5, atol=1e-5)
        for got, want in zip(got_series, want_series):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=str(pads_begin))


@pytest.mark.parametrize("mode", ["constant", "reflect", ("dirichlet", "edge")])
def test_dynamic_pad_gradient_through_dynamic_fold(mode):
    rng = np.random.default_rng(6)
    x = rng.normal(size=(3, 4)).astype(np.float32)
    weights = rng.normal(size=(7, 6)).astype(np.float32)
    offsets = np.array([2, -1], np.int32)
    pads_end = (2, 3)

    def grad_of(pad):
        return jax.grad(lambda x: (weights * jnp.sin(pad(x)) ** 2).sum())

    value = 0.5 if set(np.ravel(mode)) & set(READS_VALUE) else None
    ours = grad_of(lambda x: jaxpad.dynamic_pad(x, jnp.asarray(offsets), (7, 6), mode, value))
    values = jnp.full((2, 2), value or 0.0, np.float32)
    oracle = grad_of(
        lambda x: jnp_sided(x, tuple(offsets.tolist()), pads_end, as_pairs(mode, 2), values)
    )
    if isinstance(mode, str):  # per-side modes compose one-mode pads and elementwise terms
        assert "jaxpad_dynamic_fold" in str(jax.make_jaxpr(ours)(x))
    (series,) = series_for(rng, x)
    got_primal, got_series = jet(ours, (x,), (series,))
    want_primal, want_series = jet(oracle, (x,), (series,))
    np.testing.assert_allclose(got_primal, want_primal, rtol=1e-4, atol=1e-5)
    for got, want in zip(got_series, want_series):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "x_shape,target,mode,axes_mapping",
    [
        ((3, 1), (2, 3, 4), "numpy", None),
        ((3,), (3, 2), "explicit", [0]),
    ],
)
def test_broadcast_against_broadcast_to(x_shape, target, mode, axes_mapping):
    rng = np.random.default_rng(7)
    x = rng.normal(size=x_shape).astype(np.float32)

    def ours(x):
        return jnp.sin(jaxpad.broadcast(jnp.sin(x), target, mode, axes_mapping=axes_mapping))

    def oracle(x):
        y = jnp.sin(x)
        if mode == "explicit":
            y = y[:, None]
        return jnp.sin(jnp.broadcast_to(y, target))

    (series,) = series_for(rng, x)
    got_primal, got_series = jet(ours, (x,), (series,))
    want_primal, want_series = jet(oracle, (x,), (series,))
    np.testing.assert_allclose(got_primal, want_primal, rtol=1e-6)
    for got, want in zip(got_series, want_series):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_equinox_conv_planned_for_its_batch_against_pad_then_conv():
    # jaxpad.equinox.Conv under vmap is one jaxpad_planned_conv (bilinear); its series
    # is the plain form's, against jnp.pad then lax.conv of the layer's own weights.
    pytest.importorskip("equinox")
    import jaxpad.equinox

    layer = jaxpad.equinox.Conv(
        2, 3, 4, 3, padding=1, padding_mode="REFLECT", key=jax.random.key(0)
    )

    def theirs(x):
        padded = jnp.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), "reflect")
        y = lax.conv_general_dilated(padded, layer.weight, (1, 1), "VALID")
        return y + layer.bias[None]

    x = np.random.default_rng(7).standard_normal((2, 3, 6, 5)).astype(np.float32)
    series = [
        np.random.default_rng(8 + k).standard_normal(x.shape).astype(np.float32)
        for k in range(ORDER)
    ]
    ours = jet(lambda x: jnp.sin(jax.vmap(layer)(jnp.sin(x))), (x,), (series,))
    want = jet(lambda x: jnp.sin(theirs(jnp.sin(x))), (x,), (series,))
    np.testing.assert_allclose(ours[0], want[0], rtol=1e-5, atol=1e-5)
    for got, expected in zip(ours[1], want[1]):
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("mode", ["reflect", "wrap", "edge"])
@pytest.mark.parametrize("strides", [1, 2])
def test_nn_conv_planned_per_platform_against_pad_then_conv(mode, strides):
    # At 32 channels the CPU plan differs from the other platforms' (framed, border,
    # banded), so the convolution is one jaxpad_planned_conv rather than a
    # lax.platform_dependent cond, which jet has no rule for (KeyError: cond).
    rng = np.random.default_rng(9)
    numbers = ("NHWC", "HWIO", "NHWC")
    kernel = jnp.asarray(rng.standard_normal((3, 3, 32, 32)) * 0.1, jnp.float32)
    x = rng.standard_normal((2, 8, 8, 32)).astype(np.float32)
    policy = jaxpad.policies.torch(1)

    def ours(x):
        return jaxpad.nn.conv(jnp.sin(x), kernel, strides, policy, mode, dimension_numbers=numbers)

    def theirs(x):
        padded = jnp.pad(jnp.sin(x), ((0, 0), (1, 1), (1, 1), (0, 0)), mode)
        return lax.conv_general_dilated(
            padded, kernel, (strides, strides), "VALID", dimension_numbers=numbers
        )

    assert "jaxpad_planned_conv" in str(jax.make_jaxpr(ours)(x))
    series = [rng.standard_normal(x.shape).astype(np.float32) for _ in range(ORDER)]
    got = jet(lambda x: jnp.sin(ours(x)), (x,), (series,))
    want = jet(lambda x: jnp.sin(theirs(x)), (x,), (series,))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-4)
    for got_term, want_term in zip(got[1], want[1]):
        np.testing.assert_allclose(got_term, want_term, rtol=1e-3, atol=1e-3)


def test_flax_conv_against_pad_then_conv():
    nnx = pytest.importorskip("flax.nnx")
    import jaxpad.flax

    layer = jaxpad.flax.Conv(32, 32, (3, 3), pad_mode="wrap", rngs=nnx.Rngs(0))
    kernel, bias = layer.kernel[...], layer.bias[...]

    def theirs(x):
        padded = jnp.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), "wrap")
        numbers = ("NHWC", "HWIO", "NHWC")
        return (
            lax.conv_general_dilated(padded, kernel, (1, 1), "VALID", dimension_numbers=numbers)
            + bias
        )

    rng = np.random.default_rng(10)
    x = rng.standard_normal((2, 8, 8, 32)).astype(np.float32)
    series = [rng.standard_normal(x.shape).astype(np.float32) for _ in range(ORDER)]
    got = jet(lambda x: jnp.sin(layer(jnp.sin(x))), (x,), (series,))
    want = jet(lambda x: jnp.sin(theirs(jnp.sin(x))), (x,), (series,))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-4)
    for got_term, want_term in zip(got[1], want[1]):
        np.testing.assert_allclose(got_term, want_term, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_nn_conv_transpose_in_a_mode_against_the_vjp_of_pad_then_conv(mode):
    # Where the platforms' plans differ, conv_transpose (the planned convolution's input
    # VJP) is one jaxpad_conv_bilinear rather than a lax.platform_dependent cond, which
    # jet has no rule for (KeyError: cond). Against jet of the VJP, by JAX, of jnp.pad
    # then lax's convolution by the same (forward) kernel.
    numbers = ("NHWC", "HWIO", "NHWC")
    rng = np.random.default_rng(12)
    kernel = (rng.standard_normal((3, 3, 2, 3)) * 0.3).astype(np.float32)
    y = rng.standard_normal((1, 6, 5, 3)).astype(np.float32)
    policy = jaxpad.policies.torch(1)

    def ours(y):
        return jaxpad.nn.conv_transpose(
            y, kernel, 1, policy, dimension_numbers=numbers, transpose_kernel=True, pad_mode=mode
        )

    def theirs(y):
        def conv(x):
            padded = jnp.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), mode)
            return lax.conv_general_dilated(
                padded, kernel, (1, 1), "VALID", dimension_numbers=numbers
            )

        return jax.vjp(conv, jnp.zeros((1, 6, 5, 2), jnp.float32))[1](y)[0]

    assert "cond" not in [eqn.primitive.name for eqn in jax.make_jaxpr(ours)(y).jaxpr.eqns]
    series = [rng.standard_normal(y.shape).astype(np.float32) for _ in range(ORDER)]
    # Both in one program: one compile per mode.
    both = jet(lambda y: (jnp.sin(ours(jnp.sin(y))), jnp.sin(theirs(jnp.sin(y)))), (y,), (series,))
    (got, want), (got_terms, want_terms) = both
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    for got_term, want_term in zip(got_terms, want_terms):
        np.testing.assert_allclose(got_term, want_term, rtol=1e-4, atol=1e-4)


# The planner's forms whose derivatives are exact (one jaxpad_conv_bilinear, its
# value in the plan's form and its tangents in one with the padded convolution's
# products), forced and outside jaxpad_planned_conv: jet takes the primitive's Taylor
# rule, the input and the kernel both carrying a series. Constant mode adds the
# convolution's own zero padding; block_diagonal's value form differs from its tangent
# form (plain), and under vmap both are mapped. On every release: 0.6.2's jet rules take
# derivatives, not Taylor coefficients (jaxpad/_compat.py, JET_RULE_SERIES_ARE_DERIVATIVES).
@EVERY_CASE  # --all: every one (tests/sampling.py)
@pytest.mark.parametrize(
    "plan,groups,mode,vmapped",
    [
        (("plain",), 1, "constant", False),
        (("pad_slice", 0), 1, "reflect", False),
        (("rows",), 1, "wrap", False),
        (("plain", None, "block_diagonal"), 2, "edge", False),
        (("block_diagonal",), 2, "symmetric", True),
    ],
    ids=["plain", "pad_slice", "rows", "plain+block_diagonal", "block_diagonal-vmap"],
)
def test_exact_conv_forms_against_pad_then_conv(plan, groups, mode, vmapped):
    from jaxpad._lowering.conv import ConvPlan, build_conv

    plan = ConvPlan(*plan)
    numbers = lax.conv_dimension_numbers((2, 6, 5, 4), (3, 3, 2, 4), ("NHWC", "HWIO", "NHWC"))
    pads = [(1, 1), (1, 1)]
    rng = np.random.default_rng(11)
    x = rng.standard_normal((2, 6, 5, 4)).astype(np.float32)
    kernel = (rng.standard_normal((3, 3, 4 // groups, 4)) * 0.3).astype(np.float32)

    def ours(x, kernel):
        def conv(x):
            return build_conv(
                plan, x, kernel, (1, 1), pads, mode, numbers, feature_group_count=groups
            )

        return jnp.sin(jax.vmap(conv)(jnp.sin(x)) if vmapped else conv(jnp.sin(x)))

    def theirs(x, kernel):
        def conv(x):
            padded = jnp.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), mode)
            return lax.conv_general_dilated(
                padded,
                kernel,
                (1, 1),
                "VALID",
                dimension_numbers=numbers,
                feature_group_count=groups,
            )

        return jnp.sin(jax.vmap(conv)(jnp.sin(x)) if vmapped else conv(jnp.sin(x)))

    if vmapped:
        x = x[:, None]
    assert "jaxpad_conv_bilinear" in str(jax.make_jaxpr(ours)(x, kernel))
    series = (
        [rng.standard_normal(x.shape).astype(np.float32) for _ in range(ORDER)],
        [rng.standard_normal(kernel.shape).astype(np.float32) for _ in range(ORDER)],
    )
    got = jet(ours, (x, kernel), series)
    want = jet(theirs, (x, kernel), series)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-5)
    for got_term, want_term in zip(got[1], want[1]):
        np.testing.assert_allclose(got_term, want_term, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "name,mode",
    [
        ("gaussian_filter", "reflect"),
        ("uniform_filter", "wrap"),
        ("correlate", "mirror"),
        ("laplace", "nearest"),
        ("sobel", "constant"),
    ],
)
def test_scipy_linear_filters_against_scipys_matrix(name, mode):
    # A linear filter is a matrix; scipy's own filter gives it column by column, and
    # the Taylor series of sin(F(sin x)) is that of sin(M @ sin x).
    ndimage_ = pytest.importorskip("scipy.ndimage")
    from jaxpad.scipy import ndimage

    shape = (6, 5)
    weights = np.random.default_rng(3).standard_normal((3, 3))
    args = {"gaussian_filter": (1.0,), "uniform_filter": (3,), "correlate": (weights,)}
    args = args.get(name, ())

    def columns(f):
        basis = np.eye(np.prod(shape)).reshape(-1, *shape)
        return np.stack([f(b).ravel() for b in basis], axis=1)

    matrix = columns(lambda b: getattr(ndimage_, name)(b, *args, mode=mode)).astype(np.float32)
    x = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
    series = [
        np.random.default_rng(5 + k).standard_normal(shape).astype(np.float32) for k in range(ORDER)
    ]
    ours = jet(
        lambda x: jnp.sin(getattr(ndimage, name)(jnp.sin(x), *args, mode=mode)), (x,), (series,)
    )
    want = jet(lambda x: jnp.sin((matrix @ jnp.sin(x).ravel()).reshape(shape)), (x,), (series,))
    np.testing.assert_allclose(ours[0], want[0], rtol=1e-5, atol=1e-5)
    for got, expected in zip(ours[1], want[1]):
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


def test_every_primitive_has_a_jet_rule():
    from jax.experimental.jet import jet_rules

    from jaxpad._lowering.conv import bilinear_p, planned_conv_p
    from jaxpad._lowering.conv._guard import all_finite_p
    from jaxpad._once import computed_once_p
    from jaxpad._sharded_pad import _marker_p
    from jaxpad.scipy._interpolation._read import read_p
    from jaxpad.scipy._interpolation._static import pass_p
    from jaxpad.scipy._linear._padded_passes import padded_passes_p
    from jaxpad.scipy._linear._padded_taps import padded_taps_p
    from jaxpad.scipy._linear._taps import taps_p

    for prim in (
        jaxpad.pad_p,
        jaxpad.fold_p,
        jaxpad.dynamic_pad_p,
        jaxpad.dynamic_fold_p,
        jaxpad.broadcast_p,
        _marker_p,
        planned_conv_p,
        bilinear_p,
        all_finite_p,
        taps_p,
        padded_taps_p,
        padded_passes_p,
        computed_once_p,
        pass_p,
        read_p,
    ):
        assert prim in jet_rules, prim.name
