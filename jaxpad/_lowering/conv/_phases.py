"""The phases form (``"phases"``, a kernel-tangent form for transposed convolutions): a
convolution of an input dilated by ``lhs_dilation`` (lax's transposed convolution)
as one stride-1 convolution per output phase, of the undilated input by the taps
that reach that phase, the phases' outputs interleaved.

At dilation ``d`` an output ``o = q * d + r`` reads the dilated input's cell
``o + t - lo`` through tap ``t``; it is an input element only where ``d`` divides it,
so only the taps ``t = t0 + d * u`` with ``t0 = (lo - r) mod d`` reach phase ``r``,
reading the element ``q + u + c`` (``c = (r + t0 - lo) / d``): a correlation of the
undilated input by the kernel's strided slice ``t0::d``, with the zero padding
``-c`` before. None of the ``(d^N - 1) / d^N`` products of the dilated input's
inserted zeros is made. XLA:CPU's kernel gradient of a dilated-input convolution
took 163-294 ms where this form's took 9-12 ms (table "Strided transposed
convolutions by output phase" in docs/notes/conv-forms.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad._lowering.conv._layout import (
    _canonical,
    _channels_last_numbers,
    _from_channels_last,
)


def _phase(n, k, lo, hi, d, r):
    """Along one axis of ``n`` elements dilated by ``d``, padded by ``(lo, hi)``, by a
    window of ``k`` taps: the outputs of phase ``r`` (their count), its first tap, its
    number of taps, and the zero padding of its stride-1 correlation."""
    outputs = (n - 1) * d + 1 + lo + hi - k + 1
    count = max(0, -(-(outputs - r) // d))
    first = (lo - r) % d
    taps = max(0, -(-(k - first) // d))
    low = -((r + first - lo) // d)
    return count, first, taps, (low, count - n - low + taps - 1)


def phases_conv(
    x: jax.Array,
    kernel: jax.Array,
    pads: Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int],
    numbers: lax.ConvDimensionNumbers,
    *,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> jax.Array:
    """``lax.conv_general_dilated(x, kernel, 1, pads, lhs_dilation)`` (stride 1, an
    undilated kernel, one feature group) as one stride-1 convolution per output
    phase, interleaved. A phase no tap reaches is zeros (no product reaches it)."""
    x_cl, k_can = _canonical(x, kernel, numbers)  # (N, *S, C), (O, I, *W)
    spatial = x_cl.ndim - 2
    sizes, window = x_cl.shape[1:-1], k_can.shape[2:]
    dilation = [int(d) for d in lhs_dilation]
    pads = [(int(lo), int(hi)) for lo, hi in pads]
    outputs = [
        (n - 1) * d + 1 + lo + hi - k + 1
        for n, d, (lo, hi), k in zip(sizes, dilation, pads, window)
    ]
    longest = [-(-o // d) for o, d in zip(outputs, dilation)]
    channels_last = _channels_last_numbers(x_cl.ndim)
    # The input channels last, the kernel as (O, I, *window).
    numbers_cl = lax.ConvDimensionNumbers(
        channels_last.lhs_spec, tuple(range(x_cl.ndim)), channels_last.out_spec
    )
    options = {}
    if preferred_element_type is not None:
        options["preferred_element_type"] = preferred_element_type
    out_dtype = jax.eval_shape(
        lambda x, k: lax.conv_general_dilated(
            x, k, (1,) * spatial, [(0, 0)] * spatial, dimension_numbers=numbers_cl, **options
        ),
        jax.ShapeDtypeStruct((1, *([1] * spatial), x_cl.shape[-1]), x_cl.dtype),
        jax.ShapeDtypeStruct((k_can.shape[0], k_can.shape[1], *([1] * spatial)), k_can.dtype),
    ).dtype
    blocks = []
    for phase in np.ndindex(*dilation):
        axes = [
            _phase(n, k, lo, hi, d, r)
            for n, k, (lo, hi), d, r in zip(sizes, window, pads, dilation, phase)
        ]
        counts = [count for count, *_ in axes]
        if any(taps == 0 for _, _, taps, _ in axes) or 0 in counts:
            block = jnp.zeros((x_cl.shape[0], *counts, k_can.shape[0]), out_dtype)
        else:
            taps = (
                slice(None),
                slice(None),
                *(slice(first, None, d) for (_, first, _, _), d in zip(axes, dilation)),
            )
            # Crops as slices of the input, the padding only what is left: XLA:CPU's
            # convolution with a negative low and a positive high padding on one axis
            # reads past its input (wrong values, jax 0.10.2).
            crop, padding = [slice(None)], []
            for n, (*_, (low, high)) in zip(sizes, axes):
                crop.append(slice(max(-low, 0), n - max(-high, 0)))
                padding.append((max(low, 0), max(high, 0)))
            block = lax.conv_general_dilated(
                x_cl[(*crop, slice(None))],
                k_can[taps],
                (1,) * spatial,
                padding,
                dimension_numbers=numbers_cl,
                precision=precision,
                **options,
            )
        # Each phase as long as the longest, the extra outputs (past the end) cropped
        # after the interleave.
        widths = [(0, 0, 0), *((0, q - c, 0) for q, c in zip(longest, counts)), (0, 0, 0)]
        blocks.append(lax.pad(block, np.zeros((), block.dtype), widths))
    stacked = jnp.stack(blocks).reshape(*dilation, *blocks[0].shape)
    # (d_1, ..., d_N, N, q_1, ..., q_N, O) -> (N, q_1, d_1, ..., q_N, d_N, O)
    order = [spatial]
    for i in range(spatial):
        order += [spatial + 1 + i, i]
    order.append(2 * spatial + 1)
    interleaved = jnp.transpose(stacked, order).reshape(
        x_cl.shape[0], *(q * d for q, d in zip(longest, dilation)), k_can.shape[0]
    )
    y = interleaved[(slice(None), *(slice(0, o) for o in outputs), slice(None))]
    return _from_channels_last(y, numbers)
