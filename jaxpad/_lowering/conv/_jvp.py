"""A form's value with another form's derivatives: the ``custom_jvp`` the plans' tangent
forms are built on (linear in each operand, so reverse mode transposes it)."""

from __future__ import annotations

import jax
import jax.numpy as jnp


def _bilinear_custom_jvp(value, through_input, through_kernel):
    """``value(xp, kernel)`` (bilinear), whose tangent is ``through_input(xp, kernel,
    d_xp) + through_kernel(xp, kernel, d_kernel)``; an operand nobody differentiates
    (a symbolic zero) adds no term and no work."""

    @jax.custom_jvp
    def conv(xp, kernel):
        return value(xp, kernel)

    def jvp(primals, tangents):
        xp, kernel = primals
        d_xp, d_kernel = tangents
        out = conv(xp, kernel)
        terms = []
        if not isinstance(d_xp, jax.custom_derivatives.SymbolicZero):
            terms.append(through_input(xp, kernel, d_xp))
        if not isinstance(d_kernel, jax.custom_derivatives.SymbolicZero):
            terms.append(through_kernel(xp, kernel, d_kernel))
        if not terms:
            return out, jnp.zeros_like(out)
        return out, sum(terms[1:], terms[0])

    conv.defjvp(jvp, symbolic_zeros=True)
    return conv


def _with_tangent(value, tangent):
    """``value``, differentiated as ``tangent`` (the same bilinear function of the
    padded input and the kernel, in another form): the tangent is the sum of
    ``tangent`` applied to each operand's tangent, which reverse mode transposes."""
    return _bilinear_custom_jvp(
        value,
        lambda xp, kernel, d_xp: tangent(d_xp, kernel),
        lambda xp, kernel, d_kernel: tangent(xp, d_kernel),
    )
