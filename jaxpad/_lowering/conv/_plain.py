"""The padded forms: the convolution of the input already padded in its mode, whose own
remaining padding is zeros. ``"plain"`` is lax's convolution as given (what Flax and
Equinox do); ``"pad_slice"`` the same with one extra zero on the high side of one
spatial axis and its one extra output sliced off: XLA:CPU runs a convolution whose
padding is all zero on a path that allocates a large temporary per call, which the C
library's default allocator gives back to the system and faults in again on every
call, and any non-zero padding avoids it. Both are differentiated by lax's own rules.
The other forms built on the padded input (taps, grouped, matmul) are dispatched here.
"""

from __future__ import annotations

from jax import lax

from jaxpad._lowering.conv import _exact
from jaxpad._lowering.conv._grouped import _block_diagonal_form, _grouped_taps
from jaxpad._lowering.conv._layout import _zero_padded
from jaxpad._lowering.conv._matmul import _matmul, _rows
from jaxpad._lowering.conv._taps import _shifted_taps


def _padded_conv(
    form,
    slice_axis,
    xp,
    kernel,
    *,
    strides,
    padding,
    numbers,
    lhs_dilation,
    rhs_dilation,
    feature_group_count,
    precision,
    conv_general_dilated,
    conv_kwargs,
    pad_products=False,
):
    """The convolution of the input already padded in its mode (``xp``), whose own
    remaining padding is ``padding`` (zeros), in ``form``; ``pad_products``: with
    ``nan`` where a zero of that padding meets a non-finite tap (not linear: for a
    value, never for a tangent that reverse mode transposes)."""
    spatial = xp.ndim - 2
    dilation = tuple(int(d) for d in rhs_dilation or (1,) * spatial)
    if form == "shifted":
        return _shifted_taps(_zero_padded(xp, padding, numbers), kernel, numbers, strides, dilation)
    if form == "grouped_taps":
        return _grouped_taps(
            _zero_padded(xp, padding, numbers),
            kernel,
            numbers,
            strides,
            dilation,
            feature_group_count,
        )
    if form == "matmul":
        return _matmul(
            _zero_padded(xp, padding, numbers),
            kernel,
            numbers,
            strides,
            precision,
            conv_kwargs.get("preferred_element_type"),
        )
    if form == "rows":
        return _rows(
            _zero_padded(xp, padding, numbers),
            kernel,
            numbers,
            strides,
            dilation,
            precision,
            conv_kwargs.get("preferred_element_type"),
        )
    own_padding = tuple((int(lo), int(hi)) for lo, hi in padding)
    if form == "block_diagonal":
        kernel, form, slice_axis = _block_diagonal_form(
            kernel, numbers, feature_group_count, padding, strides, lhs_dilation
        )
        feature_group_count = 1
    if form == "pad_slice":
        axis = slice_axis or 0
        padding = list(padding)
        padding[axis] = (padding[axis][0], padding[axis][1] + 1)
    y = conv_general_dilated(
        xp,
        kernel,
        strides,
        padding,
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        dimension_numbers=numbers,
        feature_group_count=feature_group_count,
        precision=precision,
        **conv_kwargs,
    )
    if form == "pad_slice":
        # The extra zero adds at most one output, the last (at stride 1 always).
        axis = slice_axis or 0
        span = (dilation[axis] * (kernel.shape[numbers.rhs_spec[2 + axis]] - 1)) + 1
        size = xp.shape[numbers.lhs_spec[2 + axis]] + sum(padding[axis]) - 1
        out_axis = numbers.out_spec[2 + axis]
        y = lax.slice_in_dim(y, 0, (size - span) // strides[axis] + 1, axis=out_axis)
    if pad_products and any(p != (0, 0) for p in own_padding):
        # The padding's zeros are the pad value's cells (constant mode): their products
        # with a non-finite tap are nan, which XLA:CPU leaves out in some layouts.
        geometry = _exact.Geometry(
            tuple(int(s) for s in strides), own_padding, numbers, dilation, feature_group_count
        )
        y = _exact.with_pad_products(y, kernel, xp.shape, geometry)
    return y
