"""The framed input gradient (``"framed"``, a tangent form): a stride-1 VALID
convolution's input gradient as the zero-padded ("SAME") transposed convolution of the
cotangent plus the frame (the pad's width) from thin strips of it, each an output no
larger than its input, which XLA:CPU runs on YNNPACK. Also ``full_correlation``, the
same pieces for a stride-1 transposed convolution's full output."""

from __future__ import annotations

import jax
import numpy as np
from jax import lax

from jaxpad._lowering.conv._jvp import _bilinear_custom_jvp
from jaxpad._lowering.conv._plan import (
    FRAMED_CHANNELS_FIRST_MIN_ELEMENTS,
    FRAMED_MIN_FEATURES,
    FRAMED_WINDOW,
    _is_symbolic,
)


def _with_input_gradient(value, pieces, split):
    """``value``, with its tangent in the padded input written as the transpose of
    ``pieces(ct, kernel)`` (its gradient, as pieces side by side) applied to the input
    tangent cut by ``split``, so that reverse mode transposes it back into ``pieces``
    joined by one concatenation (the transpose of ``lax.split``); its tangent in the
    kernel is ``value`` itself."""

    def through_input(xp, kernel, d_xp):
        out = jax.eval_shape(value, xp, kernel)
        transposed = jax.linear_transpose(
            lambda ct: pieces(ct, kernel), jax.ShapeDtypeStruct(out.shape, out.dtype)
        )
        return transposed(split(d_xp))[0]

    return _bilinear_custom_jvp(
        value, through_input, lambda xp, kernel, d_kernel: value(xp, d_kernel)
    )


def _frame(kernel_shape, numbers, rhs_dilation):
    """Per spatial axis of a stride-1 VALID convolution's input gradient (the full
    correlation of the cotangent with the flipped kernel): the kernel's span, the
    "SAME" padding of the middle piece (an output as long as the cotangent), and the
    frame's width on each side (together span - 1)."""
    spatial = len(numbers.rhs_spec) - 2
    dilation = tuple(int(d) for d in rhs_dilation or (1,) * spatial)
    window = [int(kernel_shape[a]) for a in numbers.rhs_spec[2:]]
    spans = [d * (k - 1) + 1 for k, d in zip(window, dilation)]
    middle = [((s - 1) // 2, s - 1 - (s - 1) // 2) for s in spans]
    frame = [(s - 1 - m_lo, m_lo) for s, (m_lo, _) in zip(spans, middle)]
    return dilation, spans, middle, frame


def _framed_pieces(ct, kernel, *, numbers, rhs_dilation, precision, preferred_element_type):
    """The gradient of a stride-1 VALID convolution with respect to its (padded) input,
    given the cotangent ``ct`` of its output, as ``_correlation_pieces`` of ``ct`` by
    the transposed kernel."""
    # The transposed convolution: the output's layout reads as the input, the kernel's
    # input and output features swap, its window flips.
    transposed = lax.ConvDimensionNumbers(
        lhs_spec=numbers.out_spec,
        rhs_spec=(numbers.rhs_spec[1], numbers.rhs_spec[0], *numbers.rhs_spec[2:]),
        out_spec=numbers.lhs_spec,
    )
    flipped = lax.rev(kernel, tuple(numbers.rhs_spec[2:]))
    return _correlation_pieces(
        ct,
        flipped,
        numbers=transposed,
        rhs_dilation=rhs_dilation,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def _correlation_pieces(y, kernel, *, numbers, rhs_dilation, precision, preferred_element_type):
    """The full correlation of ``y`` with ``kernel`` (padding span - 1 on both sides,
    stride 1) as nested pieces along the spatial axes (``[low strip, middle, high
    strip]`` per axis, the middle nested in the next axis): the middle is the "SAME"
    correlation, an output no larger than its input, which XLA:CPU runs on YNNPACK; the
    strips of the frame each read only the rows of ``y`` that reach them."""
    spatial = y.ndim - 2
    dilation, spans, middle, frame = _frame(kernel.shape, numbers, rhs_dilation)

    def correlate(piece, padding):
        return lax.conv_general_dilated(
            piece,
            kernel,
            (1,) * spatial,
            padding,
            rhs_dilation=dilation,
            dimension_numbers=numbers,
            precision=precision,
            preferred_element_type=preferred_element_type,
        )

    def along(axis, padding):
        """The pieces from ``axis`` on; ``padding`` holds the earlier axes' (a strip's
        or the middle's) and the full correlation's on the later ones."""
        if axis == spatial:
            return correlate(y, padding)
        lo, hi = frame[axis]
        span = spans[axis]
        a = numbers.lhs_spec[2 + axis]
        n = y.shape[a]
        pieces = []
        if lo:
            own = list(padding)
            own[axis] = (span - 1, 0)
            pieces.append(correlate(lax.slice_in_dim(y, 0, lo, axis=a), own))
        own = list(padding)
        own[axis] = middle[axis]
        pieces.append(along(axis + 1, own))
        if hi:
            own = list(padding)
            own[axis] = (0, span - 1)
            pieces.append(correlate(lax.slice_in_dim(y, n - hi, n, axis=a), own))
        return pieces

    # Outer axes first: the strips of the first axis span the whole padded width of the
    # others (their frame included), so each later axis only frames the middle.
    return along(0, [(s - 1, s - 1) for s in spans])


def _joined(pieces, numbers, axis=0):
    """``_correlation_pieces``' nesting joined into one array (its output layout)."""
    if not isinstance(pieces, list):
        return pieces
    parts = [_joined(p, numbers, axis + 1) if isinstance(p, list) else p for p in pieces]
    return parts[0] if len(parts) == 1 else lax.concatenate(parts, numbers.out_spec[2 + axis])


def framed_applies(y_shape, kernel_shape, numbers, dtype, *, feature_group_count=1):
    """Whether the planner's framed rule (table "The input gradient's frame") takes the
    full correlation of ``y_shape`` by ``kernel_shape`` (output: the padded input)."""
    spatial = len(numbers.lhs_spec) - 2
    if spatial != 2 or feature_group_count != 1 or np.dtype(dtype) != np.dtype(np.float32):
        return False
    if _is_symbolic(y_shape) or _is_symbolic(kernel_shape):
        return False
    window = [int(kernel_shape[a]) for a in numbers.rhs_spec[2:]]
    features = [int(kernel_shape[numbers.rhs_spec[0]]), int(kernel_shape[numbers.rhs_spec[1]])]
    if any(k != FRAMED_WINDOW for k in window) or min(features) < FRAMED_MIN_FEATURES:
        return False
    ndim = len(y_shape)
    channels_last = numbers.lhs_spec[1] == ndim - 1 and numbers.out_spec[1] == ndim - 1
    elements = int(y_shape[numbers.lhs_spec[0]]) * features[0]
    for a, k in zip(numbers.lhs_spec[2:], window):
        elements *= int(y_shape[a]) + k - 1
    return channels_last or elements >= FRAMED_CHANNELS_FIRST_MIN_ELEMENTS


def full_correlation(y, kernel, numbers, *, rhs_dilation=None, precision=None, **kwargs):
    """``lax.conv_general_dilated(y, kernel, 1, [(span - 1, span - 1)] * n)`` (a stride-1
    transposed convolution's full output), on XLA:CPU as framed pieces where the framed
    rule applies: the one convolution's output is larger than its input, off YNNPACK."""
    spatial = y.ndim - 2
    dilation = tuple(int(d) for d in rhs_dilation or (1,) * spatial)
    window = [int(kernel.shape[a]) for a in numbers.rhs_spec[2:]]
    full = [(d * (k - 1), d * (k - 1)) for k, d in zip(window, dilation)]
    options = dict(rhs_dilation=dilation, precision=precision, **kwargs)

    def one(y, kernel):
        return lax.conv_general_dilated(
            y, kernel, (1,) * spatial, full, dimension_numbers=numbers, **options
        )

    if kwargs or not framed_applies(y.shape, kernel.shape, numbers, y.dtype):
        return one(y, kernel)

    def framed(y, kernel):
        pieces = _correlation_pieces(
            y,
            kernel,
            numbers=numbers,
            rhs_dilation=dilation,
            precision=precision,
            preferred_element_type=None,
        )
        return _joined(pieces, numbers)

    return lax.platform_dependent(y, kernel, cpu=framed, default=one)


def _framed_split(d_xp, kernel_shape, *, numbers, rhs_dilation):
    """``d_xp`` (shaped as the padded input) cut into ``_framed_pieces``' nesting."""
    spatial = d_xp.ndim - 2
    _, _, _, frame = _frame(kernel_shape, numbers, rhs_dilation)

    def along(value, axis):
        if axis == spatial:
            return value
        lo, hi = frame[axis]
        a = numbers.lhs_spec[2 + axis]
        sizes = [size for size in (lo, value.shape[a] - lo - hi, hi) if size]
        parts = list(lax.split(value, sizes, axis=a)) if len(sizes) > 1 else [value]
        middle = 1 if lo else 0
        parts[middle] = along(parts[middle], axis + 1)
        return parts

    return along(d_xp, 0)
