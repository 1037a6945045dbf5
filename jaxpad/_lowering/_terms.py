"""Masked, scaled terms: ``y * c`` computed only where ``c`` is not zero.

A position whose coefficient on an element is zero must not read it, or an inf or
nan there would turn the position into nan (``0 * inf``). Half floats are scaled in
float32 (coefficients such as neumann's ``2 k - 1`` outgrow float16 far from the face).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad._lowering._plans import _HALF_FLOATS


def axis_vector(values, ndim, axis, dtype):
    shape = [1] * ndim
    shape[axis] = len(values)
    return np.asarray(values).astype(dtype).reshape(shape)


def scaled_along(y, coefficients, axis, ndim=None, dtype=None):
    """``y * coefficients`` along ``axis``, 0 wherever a coefficient is 0 (whatever
    ``y`` holds there: ``0 * inf`` would be nan); None where every coefficient is 0.

    ``coefficients`` is a static vector (NumPy, only the terms that exist are built)
    or a traced one (``dynamic_sided_pad``). ``y`` is of size 1 or
    ``len(coefficients)`` along ``axis``, or a scalar (then ``ndim`` says the rank of
    the result); the result broadcasts to that length."""
    y = jnp.asarray(y)
    dtype = y.dtype if dtype is None else dtype
    ndim = y.ndim if ndim is None else ndim
    shape = [1] * ndim
    shape[axis] = -1
    if isinstance(coefficients, jax.Array):
        # A half float holds neither a traced coefficient's range (neumann's 2k - 1
        # passes 65504 some 32768 cells out) nor, then, its product: float32 first.
        wide = np.dtype(np.float32) if np.dtype(dtype) in _HALF_FLOATS else dtype
        vector = coefficients.astype(wide).reshape(shape)
        product = (y.astype(wide) * vector).astype(dtype)
        return jnp.where(vector != 0, product, jnp.zeros((), dtype))
    coefficients = np.asarray(coefficients)
    if not coefficients.any():
        return None
    if np.all(coefficients == 1) and y.ndim == ndim and y.shape[axis] == len(coefficients):
        return y
    if np.dtype(dtype) in _HALF_FLOATS and np.abs(coefficients).max() > jnp.finfo(dtype).max:
        wide = coefficients.astype(np.float32).reshape(shape)
        product = (y.astype(np.float32) * wide).astype(dtype)
    else:
        product = y * coefficients.astype(dtype).reshape(shape)
    if coefficients.all():
        return product
    return lax.select(
        jnp.broadcast_to((coefficients != 0).reshape(shape), product.shape),
        product,
        jnp.zeros(product.shape, product.dtype),
    )


def _plus(total, term):
    return term if total is None else total if term is None else total + term


def add_values(padded: jax.Array, term) -> jax.Array:
    if term is None:
        return padded
    if padded.dtype == np.bool_:
        return (padded.astype(term.dtype) + term).astype(np.bool_)
    return padded + term
