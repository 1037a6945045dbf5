"""Infinities and nan in convolutions: a non-finite value in ``x``, the kernel or the
cotangent (or a tangent) reaches exactly the outputs, input-gradient entries and
kernel-gradient entries that the padded convolution's own products reach
(docs/semantics.md, "Infinities and nan").

The oracle is ``tests/conv_reference.py``: the array padded in the mode by ``numpy.pad``,
every product of the padded convolution and nothing else, summed in float64. Every form
of the conv planner (forced on small shapes, as tests/test_conv_lowering.py forces
them), each pad mode, and one ``inf``, ``-inf`` or ``nan`` at a time in ``x``, the kernel,
the cotangent or a tangent: the positions of ``nan``, ``inf`` and ``-inf`` must match
exactly (finite entries to float32 tolerance). One compiled program per form and mode
(``lax.map`` over the placements).

The one exception is the rule's own: XLA's transposed convolution (lax's input
gradient) pads the cotangent with zeros, and at a stride inserts zeros between its
elements, and multiplies them by every kernel tap; with a non-finite tap that makes
``nan`` of ``0 * inf`` in input-gradient entries no product of the padded convolution
reaches. A form may agree with ``jnp.pad`` + ``lax.conv_general_dilated``'s input
gradient there instead (a non-finite value in the kernel, the input gradient only).
"""

from __future__ import annotations

import functools
import logging

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import jaxpad
from jaxpad._compat import CONV_FORMS_SECOND_DERIVATIVES_WRONG
from jaxpad._lowering.conv import FORMS, ConvPlan, build_conv
from tests.cases import MODES
from tests.conv_reference import (
    NONFINITE,
    _geometry,
    conv_products,
    full_transposed_input_gradient,
)

NHWC = ("NHWC", "HWIO", "NHWC")
NCHW = ("NCHW", "OIHW", "NCHW")

# (dimension numbers, x shape, kernel shape, strides, groups, pads, the plans forced on it)
FORM_CASES = {
    "3x3": (NHWC, (2, 6, 5, 4), (3, 3, 4, 5), (1, 1), 1, [(1, 1), (1, 1)], [
        ConvPlan("plain"),
        ConvPlan("pad_slice", 0),
        ConvPlan("pad_slice", 1),
        ConvPlan("banded", 0),
        ConvPlan("banded", 0, tangent="framed"),
        ConvPlan("pad_slice", 0, tangent="framed"),
        ConvPlan("rows"),
        ConvPlan("plain", tangent="rows"),
        ConvPlan("pad_slice", 0, tangent="rows", kernel_tangent="pad_slice"),
        ConvPlan("border", tangent="border", kernel_tangent="ghost"),
    ]),
    "3x3, channels first": (NCHW, (1, 4, 6, 5), (5, 4, 3, 3), (1, 1), 1, [(1, 1), (1, 2)], [
        ConvPlan("pad_slice", 0, tangent="framed"),
    ]),
    # The 5x5 symmetric case (autodiff of pad_slice) and a stem's.
    "5x5": (NHWC, (1, 8, 7, 3), (5, 5, 3, 4), (1, 1), 1, [(2, 2), (2, 2)], [
        ConvPlan("pad_slice", 0),
        ConvPlan("pad_slice", 0, tangent="rows"),
        ConvPlan("banded", 0, tangent="rows"),
    ]),
    # Strided; no output reads the high pad (the border form's input derivatives).
    "3x3 stride 2": (NHWC, (2, 8, 6, 4), (3, 3, 4, 5), (2, 2), 1, [(1, 1), (1, 1)], [
        ConvPlan("plain"),
        ConvPlan("pad_slice", 0, tangent="plain"),
        ConvPlan("pad_slice", 0, tangent="plain", kernel_tangent="ghost"),
        ConvPlan("border", tangent="border", kernel_tangent="ghost"),
    ]),
    # Strided, outputs reading the high pad.
    "3x3 stride 2, odd": (NHWC, (2, 7, 7, 4), (3, 3, 4, 5), (2, 2), 1, [(1, 1), (1, 1)], [
        ConvPlan("border", tangent="plain"),
        ConvPlan("border", tangent="plain", kernel_tangent="ghost"),
    ]),
    # The 7x7 stride-2 stem.
    "7x7 stride 2 stem": (NHWC, (1, 11, 10, 3), (7, 7, 3, 4), (2, 2), 1, [(3, 3), (3, 3)], [
        ConvPlan("plain"),
        ConvPlan("pad_slice", 0, tangent="plain"),
    ]),
    # The grouped case, 2 channels per group.
    "grouped": (NHWC, (2, 6, 5, 8), (3, 3, 2, 8), (1, 1), 4, [(1, 1), (1, 1)], [
        ConvPlan("plain"),
        ConvPlan("plain", tangent="block_diagonal"),
        ConvPlan("grouped_taps", tangent="block_diagonal"),
    ]),
    "depthwise": (NHWC, (2, 6, 5, 4), (3, 3, 1, 4), (1, 1), 4, [(1, 1), (2, 1)], [
        ConvPlan("shifted"),
    ]),
    "depthwise, stride 2": (NCHW, (2, 4, 7, 6), (4, 1, 3, 3), (2, 2), 4, [(1, 1), (1, 1)], [
        ConvPlan("shifted"),
    ]),
    "1x1": (NHWC, (2, 5, 4, 4), (1, 1, 4, 5), (1, 1), 1, [(1, 1), (0, 1)], [
        ConvPlan("matmul"),
    ]),
}  # fmt: skip

FORM_PARAMS = [
    pytest.param(name, plan, id=f"{name}-{plan.form}-{plan.tangent}-{plan.kernel_tangent}")
    for name, case in FORM_CASES.items()
    for plan in case[-1]
]

# Where a non-finite value goes: an operand, or a tangent of one (forward mode).
OPERANDS = ("x", "kernel", "ct", "x_dot", "kernel_dot")


def _numbers(case):
    dn, x_shape, k_shape, *_ = case
    return lax.conv_dimension_numbers(x_shape, k_shape, dn)


def _to_canonical(value, spec, kernel=False):
    """An array in lax's layout ``spec`` as (N, *S, C), or a kernel as (*W, I, O)."""
    order = (*spec[2:], spec[1], spec[0]) if kernel else (spec[0], *spec[2:], spec[1])
    return np.transpose(np.asarray(value, np.float64), order)


@functools.cache
def _placements(name):
    """Operands (x, kernel, cotangent, and the tangents of x and the kernel) for each
    placement of one non-finite value: per operand and value, one cell at a corner of
    the spatial grid or next to one (where the pads and strips are) and one at random."""
    dn, x_shape, k_shape, strides, groups, pads, _ = FORM_CASES[name]
    numbers = lax.conv_dimension_numbers(x_shape, k_shape, dn)
    out_shape = jax.eval_shape(
        lambda x, k: lax.conv_general_dilated(
            x, k, strides, pads, dimension_numbers=numbers, feature_group_count=groups
        ),
        jax.ShapeDtypeStruct(x_shape, np.float32),
        jax.ShapeDtypeStruct(k_shape, np.float32),
    ).shape
    shapes = dict(x=x_shape, kernel=k_shape, ct=out_shape, x_dot=x_shape, kernel_dot=k_shape)
    spatial_axes = dict(
        x=numbers.lhs_spec[2:],
        ct=numbers.out_spec[2:],
        x_dot=numbers.lhs_spec[2:],
        kernel=numbers.rhs_spec[2:],
        kernel_dot=numbers.rhs_spec[2:],
    )
    rng = np.random.default_rng(sum(map(ord, name)))
    base = {k: rng.uniform(-1, 1, s).astype(np.float32) for k, s in shapes.items()}
    placements = []
    for operand in OPERANDS:
        shape = shapes[operand]
        for v, value in enumerate(NONFINITE):
            corner = [int(rng.integers(n)) for n in shape]
            for i, a in enumerate(spatial_axes[operand]):
                # Alternately the low and the high corner, one cell in on some axes.
                edge = (v + i) % 2
                step = (1 - 2 * edge) * int(rng.integers(2))
                corner[a] = min(max((shape[a] - 1) * edge + step, 0), shape[a] - 1)
            for position in (tuple(corner), tuple(int(rng.integers(n)) for n in shape)):
                arrays = {k: a.copy() for k, a in base.items()}
                arrays[operand][position] = value
                placements.append((operand, value, position, arrays))
    return placements


def _stacked(placements):
    return tuple(
        np.stack([p[3][k] for p in placements])
        for k in ("x", "kernel", "ct", "x_dot", "kernel_dot")
    )


def _one(conv):
    """The value, the input and kernel gradients (VJP) and the tangent (JVP) of one
    placement."""

    def one(args):
        x, kernel, ct, x_dot, kernel_dot = args
        value, vjp = jax.vjp(conv, x, kernel)
        d_x, d_kernel = vjp(ct)
        tangent = jax.jvp(conv, (x, kernel), (x_dot, kernel_dot))[1]
        return value, d_x, d_kernel, tangent

    return one


def _derivatives(conv):
    """``_one`` per placement, in one compiled program."""
    return jax.jit(lambda *args: lax.map(_one(conv), args))


@functools.cache
def _reference(name, mode):
    """The float64 product-sum reference per placement, in the canonical layouts."""
    dn, x_shape, k_shape, strides, groups, pads, _ = FORM_CASES[name]
    numbers = _numbers(FORM_CASES[name])
    results = []
    for _, _, _, a in _placements(name):
        x, k, ct = (
            _to_canonical(a["x"], numbers.lhs_spec),
            _to_canonical(a["kernel"], numbers.rhs_spec, kernel=True),
            _to_canonical(a["ct"], numbers.out_spec),
        )
        x_dot = _to_canonical(a["x_dot"], numbers.lhs_spec)
        k_dot = _to_canonical(a["kernel_dot"], numbers.rhs_spec, kernel=True)
        value, d_x, d_kernel = conv_products(x, k, ct, pads, mode, strides, groups=groups)
        with np.errstate(invalid="ignore"):
            tangent = (
                conv_products(x_dot, k, ct, pads, mode, strides, groups=groups)[0]
                + conv_products(x, k_dot, ct, pads, mode, strides, groups=groups)[0]
            )
        full = full_transposed_input_gradient(k, ct, x.shape, pads, mode, strides, groups=groups)
        results.append((value, d_x, d_kernel, tangent, full))
    return results


def _padded_lax(name, mode):
    """``jnp.pad`` in the mode, then ``lax.conv_general_dilated``: the convolution whose
    input gradient (XLA's transposed convolution) a form may agree with instead."""
    dn, x_shape, k_shape, strides, groups, pads, _ = FORM_CASES[name]
    numbers = _numbers(FORM_CASES[name])

    def conv(x, kernel):
        widths = [(0, 0)] * x.ndim
        for axis, pair in zip(numbers.lhs_spec[2:], pads):
            widths[axis] = pair
        return lax.conv_general_dilated(
            jnp.pad(x, widths, mode),
            kernel,
            strides,
            "VALID",
            dimension_numbers=numbers,
            feature_group_count=groups,
            precision=lax.Precision.HIGHEST,
        )

    return conv


def _results(conv, name, batched):
    """``_one`` of ``conv`` for each placement of ``name``'s: under ``jax.vmap`` where
    ``batched``, else one by one (``lax.map``)."""
    stacked = _stacked(_placements(name))
    if batched:
        return jax.device_get(jax.jit(jax.vmap(_one(conv)))(stacked))
    return jax.device_get(_derivatives(conv)(*stacked))


@functools.cache
def _lax_results(name, mode, batched=False):
    return _results(_padded_lax(name, mode), name, batched)


def nonfinite_differences(actual, expected):
    """Which of nan, inf and -inf sit elsewhere in ``actual`` than in ``expected``
    (their counts of differing positions), and the largest finite error."""
    actual = np.asarray(actual, np.float64)
    expected = np.asarray(expected, np.float64)
    wrong = {}
    for label, test in (("nan", np.isnan), ("inf", np.isposinf), ("-inf", np.isneginf)):
        count = int((test(actual) != test(expected)).sum())
        if count:
            wrong[label] = count
    both = np.isfinite(actual) & np.isfinite(expected)
    error = np.abs(actual[both] - expected[both]) / (1 + np.abs(expected[both]))
    return wrong, float(error.max(initial=0))


NAMES = ("value", "input gradient", "kernel gradient", "tangent")


def _canonical_results(results, numbers):
    value, d_x, d_kernel, tangent = results
    return (
        _to_canonical(value, numbers.out_spec),
        _to_canonical(d_x, numbers.lhs_spec),
        _to_canonical(d_kernel, numbers.rhs_spec, kernel=True),
        _to_canonical(tangent, numbers.out_spec),
    )


def _forced(name, plan, mode):
    """``plan``'s convolution of ``FORM_CASES[name]``, forced."""
    dn, x_shape, k_shape, strides, groups, pads, _ = FORM_CASES[name]
    numbers = _numbers(FORM_CASES[name])

    def conv(x, kernel):
        return build_conv(
            plan,
            x,
            kernel,
            strides,
            pads,
            mode,
            numbers,
            feature_group_count=groups,
            precision=lax.Precision.HIGHEST,
        )

    return conv


def form_failures(name, plan, mode, batched=False):
    """Every (placement, result) where ``plan``'s form puts a non-finite value elsewhere
    than the reference (and, for the input gradient with a non-finite kernel, elsewhere
    than ``jnp.pad`` + lax too, batched as the form is: under ``vmap`` XLA's
    transposed convolution of a batch of kernels inserts its zeros elsewhere)."""
    numbers = _numbers(FORM_CASES[name])
    placements = _placements(name)
    got = _results(_forced(name, plan, mode), name, batched)
    failures = []
    for i, ((operand, value, position, _), expected) in enumerate(
        zip(placements, _reference(name, mode))
    ):
        actual = _canonical_results([g[i] for g in got], numbers)
        for which, a, e in zip(NAMES, actual, expected):
            wrong, error = nonfinite_differences(a, e)
            if wrong and which == "input gradient" and operand == "kernel":
                # As a full transposed convolution puts them (every zero it inserts
                # times every tap), or as lax's does.
                if not nonfinite_differences(a, expected[4])[0]:
                    continue
                lax_d_x = _lax_results(name, mode, batched)[1][i]
                lax_d_x = _to_canonical(lax_d_x, numbers.lhs_spec)
                if not nonfinite_differences(a, lax_d_x)[0]:
                    continue
            if wrong or error > 1e-4:
                failures.append((operand, float(value), position, which, wrong, error))
    return failures


@pytest.mark.skipif(
    CONV_FORMS_SECOND_DERIVATIVES_WRONG, reason="jax < 0.8: the planner keeps the plain form"
)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name, plan", FORM_PARAMS)
@pytest.mark.subsample(0.25)
def test_every_form_puts_nonfinite_values_where_the_products_do(name, plan, mode):
    failures = form_failures(name, plan, mode)
    assert not failures, "\n".join(map(str, failures[:20])) + f"\n({len(failures)} in all)"


# The forms that choose at run time between their own derivatives and the exact ones
# (jaxpad/_lowering/conv/_guard.py): the ghost kernel derivatives, the border input
# derivative, the block-diagonal input gradient.
GUARDED = [
    pytest.param(name, plan, id=f"{name}-{plan.form}-{plan.tangent}-{plan.kernel_tangent}")
    for name, plan in (
        ("3x3 stride 2", ConvPlan("border", tangent="border", kernel_tangent="ghost")),
        ("3x3 stride 2", ConvPlan("pad_slice", 0, tangent="plain", kernel_tangent="ghost")),
        ("grouped", ConvPlan("grouped_taps", tangent="block_diagonal")),
    )
]


@pytest.mark.skipif(
    CONV_FORMS_SECOND_DERIVATIVES_WRONG, reason="jax < 0.8: the planner keeps the plain form"
)
@pytest.mark.parametrize("name, plan", GUARDED)
def test_guarded_forms_agree_eager_jit_and_vmap(name, plan):
    """The run-time choice reads a whole batch under ``vmap``: a batch of every
    placement (the exact branch) obeys the rule, a batch of finite operands (the fast
    branch) gives what each example gives alone, so does one placement eagerly, and
    the batched program's choice reads one predicate for the batch (a predicate per
    example would have run the exact form on every example where one needs it)."""
    failures = form_failures(name, plan, "reflect", batched=True)
    assert not failures, "\n".join(map(str, failures[:20])) + f"\n({len(failures)} in all)"
    one = _one(_forced(name, plan, "reflect"))
    placements = _placements(name)
    every = _stacked(placements)
    finite = tuple(np.where(np.isfinite(a), a, np.float32(0.5)) for a in every)
    alone = jax.device_get(_derivatives(_forced(name, plan, "reflect"))(*finite))
    mapped = jax.device_get(jax.jit(jax.vmap(one))(finite))
    for got, want in zip(mapped, alone):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # One cotangent placement, eagerly (the choices run one by one).
    i = next(i for i, p in enumerate(placements) if p[0] == "ct")
    alone = _results(_forced(name, plan, "reflect"), name, batched=False)
    for got, want in zip(one(tuple(a[i] for a in every)), (r[i] for r in alone)):
        assert not nonfinite_differences(got, want)[0]
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    batched = jax.jit(jax.vmap(one)).lower(every).as_text()
    single = jax.jit(one).lower(tuple(a[0] for a in every)).as_text()
    assert batched.count("stablehlo.while") == single.count("stablehlo.while") > 0
    assert f"tensor<{len(placements)}xi1>" not in batched


@pytest.mark.skipif(
    CONV_FORMS_SECOND_DERIVATIVES_WRONG, reason="jax < 0.8: the planner keeps the plain form"
)
def test_guarded_forms_compile_nothing_on_a_second_eager_call(caplog):
    # Eagerly the choice is made on the host: a loop whose body closes over the
    # operands would compile on every call (a strided gradient 7 -> 210 ms).
    x = jnp.ones((2, 8, 8, 4), jnp.float32)
    kernel = jnp.full((3, 3, 4, 4), 0.1, jnp.float32)
    policy = jaxpad.policies.torch(1)

    def loss(x, kernel):
        return jnp.sum(jaxpad.nn.conv(x, kernel, 2, policy, "reflect", dimension_numbers=NHWC) ** 2)

    grad = jax.grad(loss, (0, 1))
    first = grad(x, kernel)
    with jax.log_compiles(), caplog.at_level(logging.WARNING, logger="jax"):
        second = grad(x, kernel)
    assert not [r for r in caplog.records if "ompil" in r.getMessage()]
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


def test_all_finite_reads_the_whole_batch_and_passes_every_transformation():
    from jax.experimental import jet

    from jaxpad._lowering.conv._guard import all_finite

    x = jnp.asarray([[1.0, np.inf], [1.0, 2.0]], jnp.float32)
    assert not all_finite(x) and all_finite(x[1]) and jax.jit(all_finite)(x[1])
    assert all_finite(jnp.arange(3))  # integers are finite
    # Under vmap: one answer for the batch (a predicate per example would make the
    # choice's loop run the exact form for every example).
    np.testing.assert_array_equal(jax.vmap(all_finite)(x), [False, False])
    np.testing.assert_array_equal(jax.vmap(all_finite)(x[1:]), [True])

    def f(x):
        return jnp.where(all_finite(x), jnp.sin(x), 0.0)

    y = x[1]
    np.testing.assert_allclose(jax.grad(lambda y: f(y).sum())(y), jnp.cos(y), rtol=1e-6)
    np.testing.assert_allclose(jax.jvp(f, (y,), (jnp.ones(2),))[1], jnp.cos(y), rtol=1e-6)
    _, (first,) = jet.jet(f, (y,), ([jnp.ones(2)],))
    np.testing.assert_allclose(first, jnp.cos(y), rtol=1e-6)


# The phases form: a transposed convolution (a dilated input), whose value and
# gradients may follow lax's (docs/semantics.md, XLA's transposed convolution): the
# phases' kernel gradient multiplies no zero lax's does not.
PHASES = ConvPlan("plain", tangent="plain", kernel_tangent="phases")


@pytest.mark.skipif(
    CONV_FORMS_SECOND_DERIVATIVES_WRONG, reason="jax < 0.8: the planner keeps the plain form"
)
def test_phases_form_puts_nonfinite_values_where_lax_does():
    numbers = lax.conv_dimension_numbers((2, 5, 6, 3), (3, 3, 3, 4), NHWC)
    pads, dilation = [(1, 2), (2, 1)], (2, 2)
    rng = np.random.default_rng(5)
    base = dict(
        x=rng.uniform(-1, 1, (2, 5, 6, 3)).astype(np.float32),
        kernel=rng.uniform(-1, 1, (3, 3, 3, 4)).astype(np.float32),
    )
    base["ct"] = rng.uniform(-1, 1, (2, 10, 12, 4)).astype(np.float32)

    def build(plan):
        def conv(x, kernel):
            return build_conv(
                plan, x, kernel, (1, 1), pads, "constant", numbers, lhs_dilation=dilation,
                precision=lax.Precision.HIGHEST,
            )  # fmt: skip

        def one(args):
            x, kernel, ct = args
            value, vjp = jax.vjp(conv, x, kernel)
            return (value, *vjp(ct))

        return jax.jit(lambda *args: lax.map(one, args))

    placements = []
    for operand in ("x", "kernel", "ct"):
        for value in NONFINITE:
            for position in ((0,) * 4, tuple(int(rng.integers(n)) for n in base[operand].shape)):
                arrays = {k: a.copy() for k, a in base.items()}
                arrays[operand][position] = value
                placements.append(arrays)
    placements.append(base)
    stacked = [np.stack([p[k] for p in placements]) for k in ("x", "kernel", "ct")]
    got = jax.device_get(build(PHASES)(*stacked))
    want = jax.device_get(build(ConvPlan("plain"))(*stacked))
    for g, w in zip(got, want):
        for i in range(len(placements)):
            assert not nonfinite_differences(g[i], w[i])[0], i
            np.testing.assert_allclose(g[i], w[i], rtol=1e-4, atol=1e-4)


def test_every_form_has_a_nonfinite_case():
    named = {"phases"}  # test_phases_form_puts_nonfinite_values_where_lax_does
    for *_, plans in FORM_CASES.values():
        for plan in plans:
            named.update(f for f in (plan.form, plan.tangent, plan.kernel_tangent) if f)
    assert named == set(FORMS), set(FORMS) - named


# The window ops: scipy filters, pools, conv_transpose -------------------------------

import scipy.ndimage  # noqa: E402

import jaxpad.scipy.ndimage  # noqa: E402
from tests.conv_reference import (  # noqa: E402
    correlate_pass,
    correlate_pass_vjp,
    windows,
)

# scipy's mode names and numpy's.
SCIPY_MODES = {
    "reflect": "symmetric",
    "mirror": "reflect",
    "nearest": "edge",
    "wrap": "wrap",
    "constant": "constant",
}


def _impulse_weights(filter1d, radius, **kwargs):
    """A 1-D filter's weights as scipy applies them (its response to one impulse)."""
    impulse = np.zeros(4 * radius + 1)
    impulse[2 * radius] = 1.0
    response = filter1d(impulse, mode="constant", **kwargs)
    return response[radius : 3 * radius + 1][::-1]


def _separable_reference(weights_per_axis):
    """Value and VJP of scipy's separable filter: 1-D product-sum passes, axis 0 first."""

    def value(x, mode):
        for axis, w in enumerate(weights_per_axis):
            x = correlate_pass(x, w, axis, mode)
        return x

    def vjp(x, ct, mode):
        for axis in reversed(range(len(weights_per_axis))):
            ct = correlate_pass_vjp(ct, weights_per_axis[axis], axis, mode)
        return ct

    return value, vjp


def _selection_reference(size, pick):
    """Value and VJP of a rank filter over a box: ``pick`` gives each window's selected
    cell (in window order), whose value is the output and to whose element of ``x`` the
    cotangent goes (nothing for a constant pad cell)."""

    def value(x, mode):
        cells, _ = windows(x, size, mode)
        return np.take_along_axis(cells, pick(cells)[:, None], 1).reshape(x.shape)

    def vjp(x, ct, mode):
        cells, src = windows(x, size, mode)
        chosen = np.take_along_axis(src, pick(cells)[:, None], 1)[:, 0]
        d_x = np.zeros(x.size)
        inside = chosen >= 0
        np.add.at(d_x, chosen[inside], np.asarray(ct, np.float64).ravel()[inside])
        return d_x.reshape(x.shape)

    return value, vjp


CORRELATE_WEIGHTS = np.array([[0.5, -1.0, 0.25], [0.0, 2.0, -0.75], [1.5, 0.3, -0.2]])
GAUSSIAN_WEIGHTS = _impulse_weights(scipy.ndimage.gaussian_filter1d, 3, sigma=0.8, truncate=4.0)


def _correlate_reference():
    """scipy's ``correlate`` with static weights: as the pads' coefficients, a zero
    weight is no product."""
    taps = [(i, j) for i, j in np.ndindex(*CORRELATE_WEIGHTS.shape) if CORRELATE_WEIGHTS[i, j]]
    weights = np.array([CORRELATE_WEIGHTS[t] for t in taps])
    flat = [i * 3 + j for i, j in taps]

    def value(x, mode):
        cells, _ = windows(x, (3, 3), mode)
        with np.errstate(invalid="ignore"):
            return (cells[:, flat] * weights).sum(1).reshape(x.shape)

    def vjp(x, ct, mode):
        _, src = windows(x, (3, 3), mode)
        d_x = np.zeros(x.size)
        with np.errstate(invalid="ignore"):
            shares = np.asarray(ct, np.float64).ravel()[:, None] * weights
            inside = src[:, flat] >= 0
            np.add.at(d_x, src[:, flat][inside], shares[inside])
        return d_x.reshape(x.shape)

    return value, vjp


def _rank(k):
    # numpy's sort order (-inf first); a window holding a nan gives nan, as np.median.
    def pick(cells):
        nan = np.isnan(cells)
        index = np.argsort(cells, axis=1, kind="stable")[:, k]
        return np.where(nan.any(1), np.argmax(nan, 1), index)

    return pick


def _extreme(kind):
    def pick(cells):
        with np.errstate(invalid="ignore"):
            nan = np.isnan(cells)
            index = np.argmax(cells, 1) if kind == "max" else np.argmin(cells, 1)
            # A window holding a nan gives nan (the first one).
            return np.where(nan.any(1), np.argmax(nan, 1), index)

    return pick


FILTERS = {
    "gaussian_filter": (
        lambda x, mode: jaxpad.scipy.ndimage.gaussian_filter(x, 0.8, mode=mode),
        _separable_reference([GAUSSIAN_WEIGHTS, GAUSSIAN_WEIGHTS]),
    ),
    "uniform_filter": (
        lambda x, mode: jaxpad.scipy.ndimage.uniform_filter(x, 3, mode=mode),
        _separable_reference([np.full(3, 1 / 3)] * 2),
    ),
    "correlate": (
        lambda x, mode: jaxpad.scipy.ndimage.correlate(x, CORRELATE_WEIGHTS, mode=mode),
        _correlate_reference(),
    ),
    "maximum_filter": (
        lambda x, mode: jaxpad.scipy.ndimage.maximum_filter(x, 3, mode=mode),
        _selection_reference((3, 3), _extreme("max")),
    ),
    "minimum_filter": (
        lambda x, mode: jaxpad.scipy.ndimage.minimum_filter(x, 3, mode=mode),
        _selection_reference((3, 3), _extreme("min")),
    ),
    "median_filter": (
        lambda x, mode: jaxpad.scipy.ndimage.median_filter(x, 3, mode=mode),
        _selection_reference((3, 3), _rank(4)),
    ),
}


def _one_operand_placements(shape, out_shape, seed):
    """(operand, value, x, cotangent) with one non-finite value in ``x`` or in the
    cotangent: per value, one at a corner or next to one and one at random."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, shape).astype(np.float32)
    ct = rng.uniform(-1, 1, out_shape).astype(np.float32)
    placements = []
    for operand, base in (("x", x), ("ct", ct)):
        for v, value in enumerate(NONFINITE):
            corner = tuple((n - 1) * ((v + i) % 2) for i, n in enumerate(base.shape))
            random = tuple(int(rng.integers(n)) for n in base.shape)
            for position in (corner, random):
                arrays = dict(x=x.copy(), ct=ct.copy())
                arrays[operand][position] = value
                placements.append((operand, value, position, arrays["x"], arrays["ct"]))
    return placements


def _vjp_per_placement(op, placements):
    """``op``'s value and VJP per placement, in one compiled program."""

    def one(args):
        x, ct = args
        value, vjp = jax.vjp(op, x)
        return value, vjp(ct)[0]

    xs = np.stack([p[3] for p in placements])
    cts = np.stack([p[4] for p in placements])
    return jax.device_get(jax.jit(lambda xs, cts: lax.map(one, (xs, cts)))(xs, cts))


@pytest.mark.parametrize("mode", list(SCIPY_MODES))
@pytest.mark.parametrize("name", list(FILTERS))
@pytest.mark.subsample(0.25)
def test_scipy_filters_put_nonfinite_values_where_the_products_do(name, mode):
    op, (value_ref, vjp_ref) = FILTERS[name]
    shape = (6, 7)
    placements = _one_operand_placements(shape, shape, seed=len(name))
    values, grads = _vjp_per_placement(lambda x: op(x, mode), placements)
    failures = []
    for (operand, value, position, x, ct), got_value, got_grad in zip(placements, values, grads):
        checks = [("value", got_value, value_ref(x, SCIPY_MODES[mode]))]
        if operand == "ct" or name in ("gaussian_filter", "uniform_filter", "correlate"):
            # A selection's gradient with a non-finite x: which cell a tie or a nan
            # selects is its own rule (tests/test_scipy_select.py).
            checks.append(("gradient", got_grad, vjp_ref(x, ct, SCIPY_MODES[mode])))
        for which, a, e in checks:
            wrong, error = nonfinite_differences(a, e)
            if wrong or error > 1e-4:
                failures.append((operand, float(value), position, which, wrong, error))
    assert not failures, failures


def _placements_in(shapes, seed):
    """Operands of ``shapes`` (a dict) with one non-finite value in one of them: per
    operand and value, one at a corner or next to one and one at random."""
    rng = np.random.default_rng(seed)
    base = {k: rng.uniform(-1, 1, s).astype(np.float32) for k, s in shapes.items()}
    placements = []
    for operand, shape in shapes.items():
        for v, value in enumerate(NONFINITE):
            corner = tuple((n - 1) * ((v + i) % 2) for i, n in enumerate(shape))
            random = tuple(int(rng.integers(n)) for n in shape)
            for position in (corner, random):
                arrays = {k: a.copy() for k, a in base.items()}
                arrays[operand][position] = value
                placements.append((operand, value, position, arrays))
    return placements


def _pool_reference(x, ct, mode, kind):
    """An NHWC 3x3 stride-2 pool padded by 1 in ``mode`` (a max pool's constant pad
    cells ``-inf``, which never win), its value and VJP, from the window's cells."""
    x, ct = np.asarray(x, np.float64), np.asarray(ct, np.float64)
    outs, src, _ = _geometry(x.shape, (3, 3, 1, 1), [(1, 1)] * 2, mode, (2, 2), (1, 1), 1)
    n, c = x.shape[0], x.shape[-1]
    flat = x.reshape(n, -1, c)
    fill = -np.inf if kind == "max" else 0.0
    cells = np.where((src >= 0)[None, :, :, None], flat[:, np.maximum(src, 0)], fill)
    ct_flat = ct.reshape(n, -1, c)
    d_x = np.zeros_like(flat)
    with np.errstate(invalid="ignore"):
        if kind == "avg":
            value = cells.sum(2) / 9
            shares = np.broadcast_to(ct_flat[:, :, None] / 9, cells.shape)
            inside = np.broadcast_to((src >= 0)[None, :, :, None], cells.shape)
            index = np.indices(cells.shape)
            np.add.at(
                d_x,
                (index[0][inside], np.broadcast_to(src[None, :, :, None], cells.shape)[inside],
                 index[3][inside]),
                shares[inside],
            )  # fmt: skip
        else:
            moved = np.moveaxis(cells, 2, -1).reshape(-1, cells.shape[2])  # (N*M*C, T)
            chosen = _extreme("max")(moved).reshape(n, -1, c)
            value = np.take_along_axis(cells, chosen[:, :, None], 2)[:, :, 0]
            cell = src[np.arange(src.shape[0])[None, :, None], chosen]
            index = np.indices(chosen.shape)
            inside = cell >= 0
            np.add.at(d_x, (index[0][inside], cell[inside], index[2][inside]), ct_flat[inside])
    return value.reshape(n, *outs, c), d_x.reshape(x.shape)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", ["avg", "max"])
@pytest.mark.subsample(0.5)
def test_pools_put_nonfinite_values_where_the_window_does(kind, mode):
    pool = jaxpad.nn.avg_pool if kind == "avg" else jaxpad.nn.max_pool
    policy = jaxpad.policies.torch(1)

    def op(x):
        return pool(x, (1, 3, 3, 1), (1, 2, 2, 1), policy, pad_mode=mode)

    x_shape = (2, 6, 5, 3)
    placements = [
        (operand, value, position, a["x"], a["ct"])
        for operand, value, position, a in _placements_in(
            dict(x=x_shape, ct=jax.eval_shape(op, jnp.zeros(x_shape)).shape), seed=7
        )
    ]
    values, grads = _vjp_per_placement(op, placements)
    failures = []
    for (operand, value, position, x, ct), got_value, got_grad in zip(placements, values, grads):
        want_value, want_grad = _pool_reference(x, ct, mode, kind)
        checks = [("value", got_value, want_value)]
        if operand == "ct" or kind == "avg":
            checks.append(("gradient", got_grad, want_grad))
        for which, a, e in checks:
            wrong, error = nonfinite_differences(a, e)
            if wrong or error > 1e-4:
                failures.append((operand, float(value), position, which, wrong, error))
    assert not failures, failures


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("strides", [1, 2])
@pytest.mark.subsample(0.5)
def test_conv_transpose_puts_nonfinite_values_where_the_products_do(strides, mode):
    # conv_transpose is the VJP of conv: its products are the cotangent's (its input's)
    # times the taps, each landing on the element its padded cell reads (a constant
    # pad's share cropped, no product); its derivatives the forward conv's products.
    policy = jaxpad.policies.torch(1)
    y_shape, k_shape = (2, 4, 3, 5), (3, 3, 4, 5)

    def op(y, kernel):
        return jaxpad.nn.conv_transpose(
            y,
            kernel,
            strides,
            policy,
            dimension_numbers=NHWC,
            transpose_kernel=True,
            pad_mode=mode,
            precision=lax.Precision.HIGHEST,
        )

    x_shape = jax.eval_shape(op, jnp.zeros(y_shape), jnp.zeros(k_shape)).shape
    placements = _placements_in(dict(y=y_shape, kernel=k_shape, g=x_shape), seed=strides)

    def one(args):
        y, kernel, g = args
        value, vjp = jax.vjp(op, y, kernel)
        return (value, *vjp(g))

    stacked = [np.stack([p[3][k] for p in placements]) for k in ("y", "kernel", "g")]
    got = jax.device_get(jax.jit(lambda *a: lax.map(one, a))(*stacked))
    pads, s = [(1, 1)] * 2, (strides,) * 2
    failures = []
    for i, (operand, value, position, a) in enumerate(placements):
        y, kernel, g = a["y"], a["kernel"], a["g"]
        d_y, _, d_kernel = conv_products(g, kernel, y, pads, mode, s, pad_cells="absent")
        want_value = conv_products(np.zeros(x_shape), kernel, y, pads, mode, s)[1]
        for which, actual, want in zip(
            ("value", "input gradient", "kernel gradient"),
            (r[i] for r in got),
            (want_value, d_y, d_kernel),
        ):
            wrong, error = nonfinite_differences(actual, want)
            if wrong and which != "input gradient":
                # As the full transposed convolution puts them: the zeros it pads and
                # inserts times a non-finite tap (its value) or cotangent (its kernel
                # gradient).
                full = full_transposed_input_gradient(kernel, y, x_shape, pads, mode, s, g=g)
                if not nonfinite_differences(actual, full[which == "kernel gradient"])[0]:
                    continue
            if wrong or error > 1e-4:
                failures.append((operand, float(value), position, which, wrong, error))
    assert not failures, failures
