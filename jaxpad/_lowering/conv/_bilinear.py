"""A bilinear operation whose two transposes are given, as one primitive.

A form of the conv planner computes a convolution's derivatives in a form of its own,
chosen for speed. Where that form's transpose, derived by JAX, would multiply zeros of
its own (a block-diagonal kernel's, an extra output's zero cotangent) or leave out
products of the padded convolution, the convolution is this primitive instead:
``bilinear(a, b)`` evaluates ``value(a, b)``; its tangents (forward mode, and the
Taylor terms of ``jax.experimental.jet``) are the primitive bound with the ``tangent``
rules (a form whose products are the padded convolution's); reverse mode applies
``a_transpose(ct, b)`` and ``b_transpose(a, ct)``, each an exact and fast gradient,
which may look at ``ct`` (whether it is finite) as a transpose derived by JAX may not.
``upfirdn``'s polyphase filter is one too (``jaxpad/scipy/_fir/_polyphase.py``: its
transposes the adjoint filter and a Gram matrix).

A primitive rather than a ``custom_jvp``: ``jet`` runs a ``custom_jvp``'s function
with its own trace removed, so every operation in it raises ``UnexpectedTracerError``
(jax-ml/jax#30352, in JAX 0.10); a primitive gets a Taylor rule of its own.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
from collections.abc import Callable

import jax
import jax.numpy as jnp
from jax.experimental import jet
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad._compat import JET_RULE_SERIES_ARE_DERIVATIVES


@dataclasses.dataclass(frozen=True, eq=False)
class BilinearRules:
    """``value(a, b)``, bilinear, and its transposes ``a_transpose(ct, b)`` (the
    cotangent of ``a``) and ``b_transpose(a, ct)`` (that of ``b``); ``tangent``: the
    rules its tangents are bound with, where their value takes another form than
    ``value`` (``None``: these). Compared by identity: one instance per traced
    operation. ``exported``: the value as exporters write it, where ``value`` chooses
    a form at run time (``_guard``; ``None``: ``value``)."""

    value: Callable[[jax.Array, jax.Array], jax.Array]
    a_transpose: Callable[[jax.Array, jax.Array], jax.Array]
    b_transpose: Callable[[jax.Array, jax.Array], jax.Array]
    tangent: BilinearRules | None = None
    exported: Callable[[jax.Array, jax.Array], jax.Array] | None = None


def derived_transposes(
    f, a_spec, b_spec
) -> tuple[Callable[..., jax.Array], Callable[..., jax.Array]]:
    """The transposes of the bilinear ``f`` of operands of ``a_spec`` and ``b_spec``
    in each operand, as JAX derives them: ``(ct, b) -> a`` and ``(a, ct) -> b``."""

    def a_transpose(ct, b):
        return jax.linear_transpose(lambda a: f(a, b), a_spec)(ct)[0]

    def b_transpose(a, ct):
        return jax.linear_transpose(lambda b: f(a, b), b_spec)(ct)[0]

    return a_transpose, b_transpose


def with_b_transpose(value, other, a, b) -> BilinearRules:
    """Rules for ``bilinear``: ``value`` (bilinear) and its transpose in ``a`` as JAX
    derives them, its transpose in ``b`` derived from ``other``, the same bilinear
    function in another form."""
    specs = [jax.ShapeDtypeStruct(v.shape, v.dtype) for v in (a, b)]
    return BilinearRules(
        value, derived_transposes(value, *specs)[0], derived_transposes(other, *specs)[1]
    )


def bilinear(a: jax.Array, b: jax.Array, rules: BilinearRules) -> jax.Array:
    """``rules.value(a, b)``, differentiated by ``rules.tangent`` (or ``rules``) and its
    transposes."""
    return bilinear_p.bind(a, b, rules=rules)


def _abstract_eval(a, b, *, rules):
    out = jax.eval_shape(
        rules.value, jax.ShapeDtypeStruct(a.shape, a.dtype), jax.ShapeDtypeStruct(b.shape, b.dtype)
    )
    # Typed as jaxpad_planned_conv types its result: the input's sharding, so that the
    # cotangents of Explicit mesh axes (sharding in types) meet the operands' types.
    if a.ndim == len(out.shape):
        return a.update(shape=out.shape, dtype=out.dtype)
    return jax.core.ShapedArray(out.shape, out.dtype)


def _a_transpose(ct, a, b, *, rules):
    if type(ct) is ad.Zero:
        return ad.Zero(a.aval)
    return rules.a_transpose(ct, b)


def _b_transpose(ct, a, b, *, rules):
    if type(ct) is ad.Zero:
        return ad.Zero(b.aval)
    return rules.b_transpose(a, ct)


def _a_jvp(d_a, a, b, *, rules):
    return bilinear_p.bind(d_a, b, rules=rules.tangent or rules)


def _b_jvp(d_b, a, b, *, rules):
    return bilinear_p.bind(a, d_b, rules=rules.tangent or rules)


def _taylor(primals_in, series_in, **params):
    """The Taylor terms of a bilinear function of two series: the product of the
    series, each term's ``k``-th coefficient the sum of ``value(a_j, b_{k-j})`` (each
    weighed by ``binomial(k, j)`` where jet's series are derivatives), as ``jet`` has
    it for ``lax.conv_general_dilated``, in the tangent form."""
    (a, b), (a_terms, b_terms) = primals_in, series_in
    rules = params["rules"]
    tangent = rules.tangent or rules
    a_series, b_series = [a, *a_terms], [b, *b_terms]

    def product(k, j):
        term = bilinear_p.bind(a_series[j], b_series[k - j], rules=tangent)
        return term * math.comb(k, j) if JET_RULE_SERIES_ARE_DERIVATIVES else term

    terms = [
        functools.reduce(operator.add, (product(k, j) for j in range(k + 1)))
        for k in range(1, len(a_series))
    ]
    return bilinear_p.bind(a, b, rules=rules), terms


def _mapped(rules, a_dim, b_dim, size):
    """``rules`` for operands mapped along axis 0 (``None``: not mapped): ``value``
    mapped (``jax.vmap``), and each transpose, whose cotangent of an unmapped operand
    is summed over the mapped axis."""

    def a_transpose(ct, b):
        out = jax.vmap(rules.a_transpose, in_axes=(0, b_dim))(ct, b)
        return out if a_dim == 0 else out.sum(0)

    def b_transpose(a, ct):
        out = jax.vmap(rules.b_transpose, in_axes=(a_dim, 0))(a, ct)
        return out if b_dim == 0 else out.sum(0)

    return BilinearRules(
        jax.vmap(rules.value, in_axes=(a_dim, b_dim), axis_size=size),
        a_transpose,
        b_transpose,
        None if rules.tangent is None else _mapped(rules.tangent, a_dim, b_dim, size),
        None
        if rules.exported is None
        else jax.vmap(rules.exported, in_axes=(a_dim, b_dim), axis_size=size),
    )


def _batch(args, dims, *, rules):
    """A mapped operand: the rules mapped (``_mapped``) and bound again, so that the
    tangents and transposes stay the given ones."""
    a, b = args
    size = next(x.shape[d] for x, d in zip(args, dims) if d is not None)
    a_dim, b_dim = (None if d is None else 0 for d in dims)
    if dims[0] is not None:
        a = jnp.moveaxis(a, dims[0], 0)
    if dims[1] is not None:
        b = jnp.moveaxis(b, dims[1], 0)
    return bilinear_p.bind(a, b, rules=_mapped(rules, a_dim, b_dim, size)), 0


bilinear_p = Primitive("jaxpad_conv_bilinear")
# Eager: the value's operations one by one, each cached, as a function's are (rules
# compare by identity, so one compiled program per call would compile on every call).
bilinear_p.def_impl(lambda a, b, *, rules: rules.value(a, b))
bilinear_p.def_abstract_eval(_abstract_eval)
ad.defbilinear(bilinear_p, _a_transpose, _b_transpose)
# Its tangents in the tangent rules' form (``defbilinear``'s bind the same rules).
ad.defjvp(bilinear_p, _a_jvp, _b_jvp)
jet.jet_rules[bilinear_p] = _taylor
batching.primitive_batchers[bilinear_p] = _batch
mlir.register_lowering(
    bilinear_p,
    mlir.lower_fun(lambda a, b, *, rules: rules.value(a, b), multiple_results=False),
)
