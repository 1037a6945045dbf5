"""A fast form where its operands are finite, an exact one where they are not.

Some forms are fast because they multiply zeros of their own: the ghost form's
zero-padded convolution, the border form's zeroed cotangent bands, the block-diagonal
kernel's off-diagonal blocks. Where every operand is finite those products are zero
and the form's answer is the padded convolution's; an ``inf`` or ``nan`` meeting one of
them makes a ``nan`` that no product of the padded convolution makes
(docs/semantics.md, "Infinities and nan"). Selecting instead of multiplying would cost
a pass over the input in the backward pass (the input's pad: +9-13% measured on the
strided kernel gradient), so the choice is made at run time instead: the fast form
always, then, where an operand (a kernel, a cotangent) or the fast form's own result
holds a non-finite value, the derivative again from the padded convolution's products
(a loop of zero or one iteration, on that predicate).

The choice lives inside ``jaxpad_conv_bilinear``'s value (``guarded`` builds its
rules), where no transformation sees it: ``jax.experimental.jet`` has no rule for
``while``, and reverse mode cannot transpose a predicate read from the operand it
transposes. Under ``jax.vmap`` the predicate reads the whole batch
(``jaxpad_all_finite``'s batching rule), so the loop stays one (a batched predicate
would run the exact form on every example); one non-finite example sends the batch
the exact way, whose answer is the same wherever the fast one's is right.

The derivatives of a guarded value (second order, where this is a first derivative)
are the fast form's, as JAX derives them.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import jet
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad._lowering.conv._bilinear import BilinearRules, bilinear, derived_transposes

Bilinear = Callable[[jax.Array, jax.Array], jax.Array]


def all_finite(x: jax.Array) -> jax.Array:
    """Whether every element of ``x`` is finite (a boolean scalar); under ``vmap``,
    whether every element of the whole batch is."""
    return all_finite_p.bind(x)


def _all_finite(x):
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        return jnp.bool_(True)
    return jnp.all(jnp.isfinite(x))


def _batch(args, dims):
    # The batch read whole: an unbatched predicate keeps the choice one loop.
    (x,), _ = args, dims
    return all_finite_p.bind(x), None


def _jvp(primals, tangents):
    (x,), _ = primals, tangents
    out = all_finite_p.bind(x)
    return out, ad.Zero(jax.core.ShapedArray((), jnp.bool_).to_tangent_aval())


def _taylor(primals_in, series_in, **params):
    # A boolean: no Taylor terms.
    return all_finite_p.bind(*primals_in), jet.zero_series


all_finite_p = Primitive("jaxpad_all_finite")
all_finite_p.def_impl(_all_finite)
all_finite_p.def_abstract_eval(lambda x: jax.core.ShapedArray((), jnp.bool_))
ad.primitive_jvps[all_finite_p] = _jvp
batching.primitive_batchers[all_finite_p] = _batch
jet.jet_rules[all_finite_p] = _taylor
mlir.register_lowering(all_finite_p, mlir.lower_fun(_all_finite, multiple_results=False))


def _spec(value):
    return jax.ShapeDtypeStruct(value.shape, value.dtype)


def _choice(fast: Bilinear, exact: Bilinear, check: str) -> Bilinear:
    """``fast(a, b)`` where ``check`` (``"a"``, ``"b"`` or ``"result"``: ``fast``'s) is
    all finite, else ``exact(a, b)``."""

    def value(a, b):
        # The fast form outside any branch: XLA:CPU ran a convolution inside a
        # conditional's branch 1.5-2.5x slower (the strided and grouped rows of the
        # conv sweep's gradient). The choice is a loop of zero or one iteration, not a
        # ``cond``: a conditional's branch that returns the fast result copies it
        # (0.45 against 0.29 ms for an (8, 64, 64, 64) result; the loop hands its
        # buffer on).
        y = fast(a, b)
        checked = {"a": a, "b": b, "result": y}[check]
        if not isinstance(checked, jax.core.Tracer):
            # Eagerly (the primitive's impl): decided here, one host read. A loop
            # whose body closes over the operands compiles anew on every eager call
            # (a strided gradient 7 -> 210 ms).
            return y if bool(all_finite(checked)) else exact(a, b).astype(y.dtype)
        return lax.while_loop(
            lambda state: state[0],
            lambda state: (jnp.bool_(False), exact(a, b).astype(y.dtype)),
            (~all_finite(checked), y),
        )[1]

    return value


def guarded(fast: Bilinear, exact: Bilinear, a, b, *, check: str) -> BilinearRules:
    """Rules for ``bilinear``: the value ``fast(a, b)`` where ``check`` is all finite
    (``_choice``), else ``exact(a, b)``; its derivatives ``fast``'s."""
    transposes = derived_transposes(fast, _spec(a), _spec(b))
    return BilinearRules(_choice(fast, exact, check), *transposes, exported=exact)


def guarded_form(fast: Bilinear, exact: Bilinear, a, b) -> BilinearRules:
    """Rules for ``bilinear`` of a form whose zeros meet a non-finite ``b`` (the
    kernel's place) in its value and in its transpose in ``a``, and a non-finite
    cotangent in its transpose in ``b``: each of the three guarded, the transpose in
    ``b`` by its own result (kernel-sized: whether the cotangent held a non-finite
    value shows there, and checking it costs nothing beside the convolution)."""
    a_spec, b_spec = _spec(a), _spec(b)
    fast_a, fast_b = derived_transposes(fast, a_spec, b_spec)
    exact_a, exact_b = derived_transposes(exact, a_spec, b_spec)

    def a_transpose(ct, b):
        return bilinear(ct, b, guarded(fast_a, exact_a, ct, b, check="b"))

    def b_transpose(a, ct):
        return bilinear(a, ct, guarded(fast_b, exact_b, a, ct, check="result"))

    return BilinearRules(_choice(fast, exact, "b"), a_transpose, b_transpose, exported=exact)
