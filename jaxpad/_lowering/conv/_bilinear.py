"""A bilinear operation whose two transposes are given, as one primitive.

A form of the conv planner computes a convolution's derivatives in a form of its own,
chosen for speed. Where that form's transpose, derived by JAX, would multiply zeros of
its own (a block-diagonal kernel's, an extra output's zero cotangent) or leave out
products of the padded convolution, the derivative is this primitive instead:
``bilinear(a, b)`` evaluates ``value(a, b)`` (forward mode: a form whose products are
the padded convolution's), and reverse mode applies ``a_transpose(ct, b)`` and
``b_transpose(a, ct)``, each an exact and fast gradient, which may look at ``ct``
(a ``lax.cond`` on whether it is finite) as a transpose derived by JAX may not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial

import jax
import jax.numpy as jnp
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir, xla


@dataclasses.dataclass(frozen=True, eq=False)
class BilinearRules:
    """``value(a, b)``, bilinear, and its transposes ``a_transpose(ct, b)`` (the
    cotangent of ``a``) and ``b_transpose(a, ct)`` (that of ``b``). Compared by
    identity: one instance per traced operation."""

    value: Callable[[jax.Array, jax.Array], jax.Array]
    a_transpose: Callable[[jax.Array, jax.Array], jax.Array]
    b_transpose: Callable[[jax.Array, jax.Array], jax.Array]


def bilinear(a: jax.Array, b: jax.Array, rules: BilinearRules) -> jax.Array:
    """``rules.value(a, b)``, differentiated by ``rules``' transposes."""
    return bilinear_p.bind(a, b, rules=rules)


def _abstract_eval(a, b, *, rules):
    out = jax.eval_shape(
        rules.value, jax.ShapeDtypeStruct(a.shape, a.dtype), jax.ShapeDtypeStruct(b.shape, b.dtype)
    )
    return jax.core.ShapedArray(out.shape, out.dtype)


def _a_transpose(ct, a, b, *, rules):
    if type(ct) is ad.Zero:
        return ad.Zero(a.aval)
    return rules.a_transpose(ct, b)


def _b_transpose(ct, a, b, *, rules):
    if type(ct) is ad.Zero:
        return ad.Zero(b.aval)
    return rules.b_transpose(a, ct)


def _batch(args, dims, *, rules):
    """A mapped operand: the rules mapped (``jax.vmap``) and bound again, so that the
    transposes stay the given ones; a cotangent of an unmapped operand is summed over
    the mapped axis."""
    a, b = args
    size = next(x.shape[d] for x, d in zip(args, dims) if d is not None)
    a_dim, b_dim = (None if d is None else 0 for d in dims)
    if dims[0] is not None:
        a = jnp.moveaxis(a, dims[0], 0)
    if dims[1] is not None:
        b = jnp.moveaxis(b, dims[1], 0)

    def a_transpose(ct, b):
        out = jax.vmap(rules.a_transpose, in_axes=(0, b_dim))(ct, b)
        return out if a_dim == 0 else out.sum(0)

    def b_transpose(a, ct):
        out = jax.vmap(rules.b_transpose, in_axes=(a_dim, 0))(a, ct)
        return out if b_dim == 0 else out.sum(0)

    mapped = BilinearRules(
        jax.vmap(rules.value, in_axes=(a_dim, b_dim), axis_size=size), a_transpose, b_transpose
    )
    return bilinear_p.bind(a, b, rules=mapped), 0


bilinear_p = Primitive("jaxpad_conv_bilinear")
bilinear_p.def_impl(partial(xla.apply_primitive, bilinear_p))
bilinear_p.def_abstract_eval(_abstract_eval)
ad.defbilinear(bilinear_p, _a_transpose, _b_transpose)
batching.primitive_batchers[bilinear_p] = _batch
mlir.register_lowering(
    bilinear_p,
    mlir.lower_fun(lambda a, b, *, rules: rules.value(a, b), multiple_results=False),
)
