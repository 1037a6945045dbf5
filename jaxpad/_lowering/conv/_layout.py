"""Layouts the forms compute in: the input as (N, *spatial, C), the kernel as (O, I,
*window), and back into the layout the dimension numbers ask for."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax


def _zero_padded(xp, padding, numbers):
    """``xp`` with the convolution's own (zero) ``padding`` applied."""
    if all(p == (0, 0) for p in padding):
        return xp
    widths = [(0, 0, 0)] * xp.ndim
    for axis, (p_lo, p_hi) in zip(numbers.lhs_spec[2:], padding):
        widths[axis] = (int(p_lo), int(p_hi), 0)
    return lax.pad(xp, np.zeros((), xp.dtype), widths)


def _channels_last_numbers(ndim):
    """Dimension numbers of (N, *spatial, C) by (*window, I, O) into (N, *spatial, O)."""
    spatial = tuple(range(1, ndim - 1))
    return lax.ConvDimensionNumbers(
        lhs_spec=(0, ndim - 1, *spatial),
        rhs_spec=(ndim - 1, ndim - 2, *range(ndim - 2)),
        out_spec=(0, ndim - 1, *spatial),
    )


def _canonical(x, kernel, numbers):
    """``x`` as (N, *spatial, C) and ``kernel`` as (O, I, *window)."""
    x = jnp.moveaxis(jnp.moveaxis(x, numbers.lhs_spec, range(x.ndim)), 1, -1)
    return x, jnp.moveaxis(kernel, numbers.rhs_spec, range(kernel.ndim))


def _from_channels_last(y, numbers):
    """(N, *spatial, O) into the layout ``numbers.out_spec`` asks for."""
    return jnp.moveaxis(jnp.moveaxis(y, -1, 1), range(y.ndim), numbers.out_spec)
