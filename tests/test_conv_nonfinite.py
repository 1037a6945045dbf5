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

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from jaxpad._compat import CONV_FORMS_SECOND_DERIVATIVES_WRONG
from jaxpad._lowering.conv import FORMS, ConvPlan, build_conv
from tests.cases import MODES
from tests.conv_reference import NONFINITE, conv_products, full_transposed_input_gradient

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
    ]),
    # Strided; no output reads the high pad (the border form's input derivatives).
    "3x3 stride 2": (NHWC, (2, 8, 6, 4), (3, 3, 4, 5), (2, 2), 1, [(1, 1), (1, 1)], [
        ConvPlan("plain"),
        ConvPlan("pad_slice", 0, tangent="plain"),
        ConvPlan("pad_slice", 0, tangent="plain", kernel_tangent="ghost"),
        ConvPlan("border", tangent="border", kernel_tangent="ghost"),
        ConvPlan("ghost"),
    ]),
    # Strided, outputs reading the high pad.
    "3x3 stride 2, odd": (NHWC, (2, 7, 7, 4), (3, 3, 4, 5), (2, 2), 1, [(1, 1), (1, 1)], [
        ConvPlan("border"),
        ConvPlan("border", tangent="plain"),
        ConvPlan("border", tangent="plain", kernel_tangent="ghost"),
        ConvPlan("ghost"),
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
        ConvPlan("block_diagonal"),
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


@functools.lru_cache(maxsize=None)
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
        np.stack([p[3][k] for p in placements]) for k in ("x", "kernel", "ct", "x_dot", "kernel_dot")
    )


def _derivatives(conv):
    """Per placement: the value, the input and kernel gradients (VJP) and the tangent
    (JVP), in one compiled program."""

    def one(args):
        x, kernel, ct, x_dot, kernel_dot = args
        value, vjp = jax.vjp(conv, x, kernel)
        d_x, d_kernel = vjp(ct)
        tangent = jax.jvp(conv, (x, kernel), (x_dot, kernel_dot))[1]
        return value, d_x, d_kernel, tangent

    return jax.jit(lambda *args: lax.map(one, args))


@functools.lru_cache(maxsize=None)
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


@functools.lru_cache(maxsize=None)
def _lax_results(name, mode):
    return jax.device_get(_derivatives(_padded_lax(name, mode))(*_stacked(_placements(name))))


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


def form_failures(name, plan, mode):
    """Every (placement, result) where ``plan``'s form puts a non-finite value elsewhere
    than the reference (and, for the input gradient with a non-finite kernel, elsewhere
    than ``jnp.pad`` + lax too)."""
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

    placements = _placements(name)
    got = jax.device_get(_derivatives(conv)(*_stacked(placements)))
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
                lax_d_x = _canonical_results([g[i] for g in _lax_results(name, mode)], numbers)[1]
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


def test_every_form_has_a_nonfinite_case():
    named = set()
    for *_, plans in FORM_CASES.values():
        for plan in plans:
            named.update(f for f in (plan.form, plan.tangent, plan.kernel_tangent) if f)
    assert named == set(FORMS), set(FORMS) - named
