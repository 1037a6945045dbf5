"""The strip forms: the convolution of the unpadded input (or, banded, of the input padded
along every axis but the first) with the pads as its own zeros, and the outputs that
read a pad from thin strips of the input padded in the mode (``jaxpad.pad`` with
negative pads: only the strip).

- ``_banded`` (the ``"banded"`` value, stride 1): the first axis's border rows from
  strips. Its derivatives are ``pad_slice``'s with the plan's tangents
  (``_build._banded_conv``).
- ``_border`` (``"border"``, strided): the border rows and columns recomputed from
  strips; differentiated by autodiff (its input derivatives, where the plan names it).
- ``_ghost`` (``"ghost"``, a tangent form): the ghost cells alone added from strips, so
  that reverse mode hands the zero-padded convolution the whole cotangent.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad._pad import pad_piece


def _lax_conv(strides, numbers, options):
    """``lax.conv_general_dilated`` with the plan's strides, layout and ``options``, as
    ``conv(piece, kernel, padding)``: what the strip forms convolve their pieces with."""
    conv_options = dict(
        lhs_dilation=options["lhs_dilation"],
        rhs_dilation=options["rhs_dilation"],
        feature_group_count=options["feature_group_count"],
        precision=options["precision"],
    )
    if options["preferred_element_type"] is not None:
        conv_options["preferred_element_type"] = options["preferred_element_type"]

    def conv(piece, kernel, padding):
        return lax.conv_general_dilated(
            piece, kernel, strides, padding, dimension_numbers=numbers, **conv_options
        )

    return conv


def _banded(x, kernel, pads, mode, numbers, rhs_dilation, conv):
    """The stride-1 convolution of ``x`` padded by ``pads`` in ``mode``: ``x`` padded in
    the mode along every spatial axis but the first, ``conv`` with the first axis's pads
    as its own zeros, and the outputs that read those pads (the first ``lo`` and the
    last ``hi`` along that axis) replaced by ``conv`` of strips of ``x`` padded in the
    mode (``jaxpad.pad``'s negative pads crop: only the rows those outputs read, the
    strip's ghosts the whole pad's). The two strips are one convolution, side by side
    along the batch, where their shapes match. Written for non-negative pads, an
    undilated input and an axis at least as long as the window's span (where the
    planner names it)."""
    spatial = x.ndim - 2
    a, out_axis = numbers.lhs_spec[2], numbers.out_spec[2]
    n, (lo, hi) = int(x.shape[a]), pads[0]
    dilation = rhs_dilation or (1,) * spatial
    span = dilation[0] * (int(kernel.shape[numbers.rhs_spec[2]]) - 1) + 1
    begin, end = [0] * x.ndim, [0] * x.ndim
    for axis, (p_lo, p_hi) in zip(numbers.lhs_spec[3:], pads[1:]):
        begin[axis], end[axis] = p_lo, p_hi
    rest = pad_piece(x, begin, end, mode) if any(begin) or any(end) else x
    y = conv(rest, kernel, [(lo, hi)] + [(0, 0)] * (spatial - 1))
    m = int(y.shape[out_axis])
    valid = [(0, 0)] * spatial
    strips = []  # (first output, the rows of x padded in the mode that it reads)
    if lo:
        # Outputs [0, lo) read the padded rows [0, lo + span - 1): x's [-lo, span - 1).
        begin[a], end[a] = lo, span - 1 - n
        strips.append((0, pad_piece(x, begin, end, mode)))
    if hi:
        # Outputs [m - hi, m) read x's rows [n - span + 1, n + hi).
        begin[a], end[a] = -(n - span + 1), hi
        strips.append((m - hi, pad_piece(x, begin, end, mode)))
    if len(strips) == 2 and strips[0][1].shape == strips[1][1].shape:
        batch, out_batch = numbers.lhs_spec[0], numbers.out_spec[0]
        both = conv(jnp.concatenate([s for _, s in strips], batch), kernel, valid)
        count = int(x.shape[batch])
        bands = [
            (first, lax.slice_in_dim(both, i * count, (i + 1) * count, axis=out_batch))
            for i, (first, _) in enumerate(strips)
        ]
    else:
        bands = [(first, conv(s, kernel, valid)) for first, s in strips]
    for first, band in bands:
        start = [0] * y.ndim
        start[out_axis] = first
        y = lax.dynamic_update_slice(y, band, start)
    return y


def _border_geometry(x, kernel, strides, pads, numbers, rhs_dilation):
    """Per spatial axis of ``x`` padded by ``pads``: its input and output axes, size, low
    pad, stride, window span, output size, and the outputs ``[0, first)`` that read the
    low pad and ``[last, m)`` that read the high one."""
    spatial = x.ndim - 2
    dilation = rhs_dilation or (1,) * spatial
    window = [d * (int(kernel.shape[a]) - 1) + 1 for a, d in zip(numbers.rhs_spec[2:], dilation)]
    axes = []
    for i in range(spatial):
        a = numbers.lhs_spec[2 + i]
        n, (lo, hi), s, k = int(x.shape[a]), pads[i], strides[i], window[i]
        m = (n + lo + hi - k) // s + 1
        first = min(m, -(-lo // s))
        last = max(first, min(m, -(-(lo + n - k + 1) // s)))
        axes.append((a, numbers.out_spec[2 + i], n, lo, s, k, m, first, last))
    return axes


def _ghost(x, kernel, strides, pads, mode, numbers, rhs_dilation, conv):
    """The convolution of ``x`` padded by ``pads`` in ``mode``: ``conv`` of ``x`` with
    the pads as its own zeros, plus ``conv`` of the ghost cells alone (the pad's cells
    in the mode, ``x``'s cells zero), cut into strips: along each spatial axis in turn,
    the outputs that read its low or high pad, from the rows that they read, with the
    earlier axes' pads left to ``conv``'s zeros (their ghosts are those axes' strips).
    Each strip's outputs are added as a zero-padded band, so that reverse mode gives
    the zero-padded ``conv`` the cotangent as it is. Written for non-negative pads of
    an undilated input (where the planner names it)."""
    axes = _border_geometry(x, kernel, strides, pads, numbers, rhs_dilation)
    y = conv(x, kernel, pads)
    bands = []
    for i, (a, out_axis, n, lo, s, k, m, first, last) in enumerate(axes):
        for o0, o1 in ((0, first), (last, m)):
            if o0 == o1:
                continue
            begin, end = [0] * x.ndim, [0] * x.ndim
            padding = []
            for j, (aj, _, _, lo_j, *_) in enumerate(axes):
                if j < i:
                    # Only x's rows along the earlier axes: their pads are zeros here.
                    padding.append(pads[j])
                elif j > i:
                    begin[aj], end[aj] = lo_j, pads[j][1]
                    padding.append((0, 0))
                else:
                    begin[aj], end[aj] = lo - o0 * s, (o1 - 1) * s + k - lo - n
                    padding.append((0, 0))
            strip = pad_piece(x, begin, end, mode)
            # The strip's cells along axis i that are x's (crops make begin negative).
            inside = np.zeros(strip.shape[a], bool)
            inside[max(begin[a], 0) : max(begin[a] + n, 0)] = True
            view = [1] * x.ndim
            view[a] = strip.shape[a]
            ghosts = jnp.where(inside.reshape(view), jnp.zeros((), strip.dtype), strip)
            bands.append((out_axis, o0, conv(ghosts, kernel, padding)))
    for out_axis, o0, band in bands:
        widths = [(0, 0, 0)] * y.ndim
        widths[out_axis] = (o0, y.shape[out_axis] - o0 - band.shape[out_axis], 0)
        y = y + lax.pad(band, np.zeros((), y.dtype), widths)
    return y


def _border(x, kernel, strides, pads, mode, numbers, rhs_dilation, conv):
    """The convolution of ``x`` padded by ``pads`` in ``mode``: ``conv`` of ``x`` with
    the pads as its own zeros, whose output rows and columns that read a pad (a few at
    each side) are replaced by ``conv`` of strips of ``x`` padded in the mode, each
    strip only the rows and columns those outputs read (``jaxpad.pad``'s negative pads
    crop, indices relative to ``x``, so a strip's ghosts are the whole pad's). Written
    for non-negative pads of an undilated input (where the planner names it)."""
    spatial = x.ndim - 2
    axes = _border_geometry(x, kernel, strides, pads, numbers, rhs_dilation)
    y = conv(x, kernel, pads)

    def strip(region):
        """The exact outputs over ``region`` (an output range per spatial axis)."""
        begin, end = [0] * x.ndim, [0] * x.ndim
        for (a, _, n, lo, s, k, _, _, _), (o0, o1) in zip(axes, region):
            begin[a] = lo - o0 * s
            end[a] = (o1 - 1) * s + k - lo - n
        piece = pad_piece(x, begin, end, mode)
        return conv(piece, kernel, [(0, 0)] * spatial)

    def replace(y, region):
        start = [0] * y.ndim
        for (_, out_axis, *_), (o0, _) in zip(axes, region):
            start[out_axis] = o0
        return lax.dynamic_update_slice(y, strip(region), start)

    # Axis by axis: the low and high bands span every output of the later axes; the
    # outputs between them are framed by the later axes only.
    region = []
    for i, (_, _, _, _, _, _, m, first, last) in enumerate(axes):
        rest = [(0, axis[6]) for axis in axes[i + 1 :]]
        if first > 0:
            y = replace(y, [*region, (0, first), *rest])
        if last < m:
            y = replace(y, [*region, (last, m), *rest])
        if first == last:
            return y  # every output reads a pad along this axis: all replaced
        region.append((first, last))
    return y
