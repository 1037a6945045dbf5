"""The matrix-product forms: ``"matmul"`` (a 1x1 convolution as one matrix product over
the features) and ``"rows"`` (a tangent form for a few input channels: the kernel's
first spatial axis stacked into the features, then a convolution over the other axes).
Both are differentiated by autodiff."""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from jaxpad._lowering.conv._layout import (
    _canonical,
    _channels_last_numbers,
    _from_channels_last,
)


def _matmul(xp, kernel, numbers, strides, precision, preferred_element_type):
    """A 1x1 convolution of the padded ``xp`` as one matrix product over the features."""
    x_cl, k_can = _canonical(xp, kernel, numbers)
    x_cl = x_cl[(slice(None), *(slice(None, None, s) for s in strides))]
    y = jnp.dot(
        x_cl.reshape(-1, x_cl.shape[-1]),
        k_can.reshape(k_can.shape[:2]).T,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )
    return _from_channels_last(y.reshape(*x_cl.shape[:-1], y.shape[-1]), numbers)


def _rows(xp, kernel, numbers, strides, dilation, precision, preferred_element_type):
    """The convolution with the kernel's first spatial axis stacked into the features:
    the input's copies shifted along that axis side by side, then a convolution over
    the other axes (one extra zero on the first wide one keeps it off XLA:CPU's
    all-zero-padding path; its extra output is sliced off)."""
    x_cl, k_can = _canonical(xp, kernel, numbers)
    ndim = xp.ndim
    window = k_can.shape[2:]
    sizes = x_cl.shape[1:-1]
    outs = [(n - d * (k - 1) - 1) // s + 1 for n, k, d, s in zip(sizes, window, dilation, strides)]
    copies = [
        lax.slice_in_dim(
            x_cl, i * dilation[0], i * dilation[0] + (outs[0] - 1) * strides[0] + 1, strides[0], 1
        )
        for i in range(window[0])
    ]
    stacked = jnp.concatenate(copies, axis=-1)
    # (O, I, K0, *rest) -> (1, *rest, K0 * I, O), feature i * I + c for tap i, channel c.
    k_rows = jnp.moveaxis(k_can, (0, 1, 2), (-1, -2, -3))
    k_rows = k_rows.reshape(1, *window[1:], window[0] * k_can.shape[1], k_can.shape[0])
    padding = [(0, 0)] * (ndim - 2)
    wide = [a for a in range(1, ndim - 2) if window[a] > 1]
    if wide:
        padding[wide[0]] = (0, 1)
    y = lax.conv_general_dilated(
        stacked,
        k_rows,
        (1, *strides[1:]),
        padding,
        rhs_dilation=(1, *dilation[1:]),
        dimension_numbers=_channels_last_numbers(ndim),
        precision=precision,
        preferred_element_type=preferred_element_type,
    )
    y = y[(slice(None), *(slice(0, n) for n in outs))]
    return _from_channels_last(y, numbers)
