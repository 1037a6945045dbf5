"""A float64 product-sum reference for padded convolutions and window filters: which
outputs and derivatives an ``inf``, ``-inf`` or ``nan`` reaches.

A convolution of ``x`` padded in a mode is a sum of products, ``padded input cell times
kernel tap``, one per (output, tap, input channel). The reference multiplies exactly
those products and nothing else, in NumPy:

- the value: each output the sum of its window's products;
- the input gradient: each product's share ``cotangent * tap`` added to the element of
  ``x`` its padded cell reads (the mode's index map, from ``numpy.pad`` of the indices);
  in constant mode a pad cell's share goes to the pad value, not to ``x``;
- the kernel gradient: the sum over positions of ``padded input cell * cotangent``.

The constant mode's pad cells are operands like any other (their products ``0 * tap``
and ``0 * cotangent`` are in the sums), unless ``pad_cells="absent"`` (a transposed
convolution's, whose outputs that land on the pad are cropped, never computed).
"""

from __future__ import annotations

import itertools

import numpy as np

from tests.oracles import numpy_pad

NONFINITE = (np.inf, -np.inf, np.nan)


def index_map(n, lo, hi, mode):
    """Per padded position of an axis of size ``n`` padded by ``(lo, hi)`` in ``mode``
    (numpy's pad of the indices): the element of ``x`` it reads, -1 for a constant pad."""
    return numpy_pad(np.arange(n), [lo], [hi], mode, pad_value=-1).astype(np.int64)


def _geometry(x_shape, k_shape, pads, mode, strides, dilation, groups):
    """Canonical (N, *S, C) by (*W, I, O): per (output position, tap) the flat spatial
    index of ``x`` read (-1 for a constant pad cell), and per (I, O) the input channel."""
    spatial = len(x_shape) - 2
    sizes, window = x_shape[1:-1], k_shape[:spatial]
    maps, outs = [], []
    for n, k, (lo, hi), s, d in zip(sizes, window, pads, strides, dilation):
        m = index_map(n, lo, hi, mode)
        out = (len(m) - d * (k - 1) - 1) // s + 1
        # (out, k): the element read by output o through tap t.
        maps.append(m[np.arange(out)[:, None] * s + np.arange(k)[None, :] * d])
        outs.append(out)
    # Flat over outputs (M) and taps (T): the flat spatial index, or -1.
    pairs = list(itertools.product(*(range(o) for o in outs)))
    taps = list(itertools.product(*(range(k) for k in window)))
    src = np.empty((len(pairs), len(taps)), np.int64)
    for i, o in enumerate(pairs):
        for j, t in enumerate(taps):
            cells = [maps[a][o[a], t[a]] for a in range(spatial)]
            src[i, j] = -1 if min(cells) < 0 else np.ravel_multi_index(cells, sizes)
    group_in, out_features = k_shape[-2], k_shape[-1]
    group = np.arange(out_features) // (out_features // groups)
    channel = group[None, :] * group_in + np.arange(group_in)[:, None]  # (I, O)
    return tuple(outs), src, channel


def conv_products(
    x, kernel, ct, pads, mode, strides, dilation=None, groups=1, pad_cells="operands"
):
    """The value, input gradient and kernel gradient of the convolution of ``x``
    (N, *S, C) padded by ``pads`` in ``mode`` by ``kernel`` (*W, I, O), with cotangent
    ``ct`` (N, *out, O), summing exactly the padded convolution's products (float64)."""
    x, kernel, ct = (np.asarray(a, np.float64) for a in (x, kernel, ct))
    spatial = x.ndim - 2
    strides = tuple(strides)
    dilation = tuple(dilation or (1,) * spatial)
    outs, src, channel = _geometry(x.shape, kernel.shape, pads, mode, strides, dilation, groups)
    batch = x.shape[0]
    x_flat = x.reshape(batch, -1, x.shape[-1])
    k_flat = kernel.reshape(-1, *kernel.shape[-2:])  # (T, I, O)
    ct_flat = ct.reshape(batch, -1, ct.shape[-1])  # (N, M, O)
    inside = src >= 0  # (M, T)
    if pad_cells == "operands":
        present = np.ones_like(inside)
    else:
        present = inside
    # (N, M, T, I, O): the padded input cell each product reads (pad cells: 0).
    cells = np.where(
        inside[None, :, :, None, None],
        x_flat[:, np.maximum(src, 0)][..., channel],
        0.0,
    )
    keep = present[None, :, :, None, None]
    with np.errstate(invalid="ignore", over="ignore"):
        products = np.where(keep, cells * k_flat[None, None], 0.0)
        value = products.sum(axis=(2, 3)).reshape(batch, *outs, -1)
        kernel_terms = np.where(keep, cells * ct_flat[:, :, None, None, :], 0.0)
        d_kernel = kernel_terms.sum(axis=(0, 1)).reshape(kernel.shape)
        shares = ct_flat[:, :, None, None, :] * k_flat[None, None]  # (N, M, T, I, O)
        d_x = np.zeros_like(x_flat)
        n_idx = np.arange(batch)[:, None, None, None, None]
        s_idx = np.broadcast_to(src[None, :, :, None, None], shares.shape)
        c_idx = np.broadcast_to(channel[None, None, None], shares.shape)
        mask = np.broadcast_to(inside[None, :, :, None, None], shares.shape)
        np.add.at(
            d_x,
            (np.broadcast_to(n_idx, shares.shape)[mask], s_idx[mask], c_idx[mask]),
            shares[mask],
        )
    return value, d_x.reshape(x.shape), d_kernel


def full_transposed_input_gradient(
    kernel, ct, x_shape, pads, mode, strides, dilation=None, groups=1, g=None
):
    """The input gradient as XLA's transposed convolution computes it: the cotangent
    with ``s - 1`` zeros inserted between its elements (stride ``s``) and padded with
    zeros to cover every padded cell, correlated with the flipped kernel, every zero times
    every tap (``0 * inf`` is ``nan``), then folded by the mode's index map. The rule
    allows it in place of ``conv_products``' where the kernel holds the value. With
    ``g`` (shaped as ``x``), also that transposed convolution's kernel gradient for the
    cotangent ``g``, the zeros it inserts times ``g``."""
    kernel, ct = (np.asarray(a, np.float64) for a in (kernel, ct))
    spatial = len(x_shape) - 2
    dilation = tuple(dilation or (1,) * spatial)
    sizes, window = x_shape[1:-1], kernel.shape[:spatial]
    axes = []  # per axis, per (padded cell, tap): the x element, the output or -1
    for n, k, (lo, hi), s, d, m in zip(sizes, window, pads, strides, dilation, ct.shape[1:-1]):
        src = index_map(n, lo, hi, mode)
        q = np.arange(len(src))[:, None] - np.arange(k)[None, :] * d
        real = (q % s == 0) & (q >= 0) & (q // s < m)
        axes.append((np.broadcast_to(src[:, None], q.shape), np.where(real, q // s, -1)))
    cells = list(itertools.product(*(range(len(a[0])) for a in axes)))
    taps = list(itertools.product(*(range(k) for k in window)))
    src = np.empty((len(cells), len(taps)), np.int64)
    out = np.empty((len(cells), len(taps)), np.int64)
    for i, p in enumerate(cells):
        for j, t in enumerate(taps):
            reads = [axes[a][0][p[a], t[a]] for a in range(spatial)]
            outs = [axes[a][1][p[a], t[a]] for a in range(spatial)]
            src[i, j] = -1 if min(reads) < 0 else np.ravel_multi_index(reads, sizes)
            out[i, j] = -1 if min(outs) < 0 else np.ravel_multi_index(outs, ct.shape[1:-1])
    group_in, out_features = kernel.shape[-2], kernel.shape[-1]
    group = np.arange(out_features) // (out_features // groups)
    channel = group[None, :] * group_in + np.arange(group_in)[:, None]
    batch = ct.shape[0]
    ct_flat = ct.reshape(batch, -1, ct.shape[-1])
    k_flat = kernel.reshape(-1, *kernel.shape[-2:])
    with np.errstate(invalid="ignore", over="ignore"):
        stuffed = np.where(out[None, :, :, None] >= 0, ct_flat[:, np.maximum(out, 0)], 0.0)
        shares = stuffed[:, :, :, None, :] * k_flat[None, None]  # (N, P, T, I, O)
        d_x = np.zeros((batch, int(np.prod(sizes)), x_shape[-1]))
        inside = np.broadcast_to((src >= 0)[None, :, :, None, None], shares.shape)
        index = (
            np.broadcast_to(np.arange(batch)[:, None, None, None, None], shares.shape)[inside],
            np.broadcast_to(src[None, :, :, None, None], shares.shape)[inside],
            np.broadcast_to(channel[None, None, None], shares.shape)[inside],
        )
        np.add.at(d_x, index, shares[inside])
        if g is None:
            return d_x.reshape(x_shape)
        # Its kernel gradient for the cotangent ``g`` of that input gradient: each cell's
        # ``g`` times the stuffed cotangent, its zeros included.
        g_flat = np.asarray(g, np.float64).reshape(batch, -1, x_shape[-1])
        cells = np.where(
            (src >= 0)[None, :, :, None, None],
            g_flat[:, np.maximum(src, 0)][..., channel],
            0.0,
        )  # (N, P, T, I, O)
        terms = np.where((src >= 0)[None, :, :, None, None], cells * stuffed[:, :, :, None, :], 0.0)
        d_kernel = terms.sum(axis=(0, 1)).reshape(kernel.shape)
    return d_x.reshape(x_shape), d_kernel


def correlate_pass(x, weights, axis, mode, cval=0.0):
    """One 1-D correlation pass along ``axis`` (scipy's centring, origin 0), as the sum
    of the padded window's products ``weight * cell`` (numpy's mode names)."""
    x = np.moveaxis(np.asarray(x, np.float64), axis, -1)
    k = len(weights)
    lo, hi = k // 2, k - 1 - k // 2
    m = index_map(x.shape[-1], lo, hi, mode)
    reads = m[np.arange(x.shape[-1])[:, None] + np.arange(k)[None, :]]  # (out, k)
    cells = np.where(reads >= 0, x[..., np.maximum(reads, 0)], cval)
    with np.errstate(invalid="ignore", over="ignore"):
        out = (cells * np.asarray(weights, np.float64)).sum(axis=-1)
    return np.moveaxis(out, -1, axis)


def correlate_pass_vjp(ct, weights, axis, mode):
    """The VJP of ``correlate_pass``: each product's share ``ct * weight`` added to the
    element its cell reads (a constant pad's share to the pad value)."""
    ct = np.moveaxis(np.asarray(ct, np.float64), axis, -1)
    k = len(weights)
    lo, hi = k // 2, k - 1 - k // 2
    n = ct.shape[-1]
    m = index_map(n, lo, hi, mode)
    reads = m[np.arange(n)[:, None] + np.arange(k)[None, :]]
    out = np.zeros_like(ct)
    with np.errstate(invalid="ignore", over="ignore"):
        shares = ct[..., :, None] * np.asarray(weights, np.float64)  # (..., out, k)
        inside = reads >= 0
        moved = np.moveaxis(out, -1, 0)
        for o, t in zip(*np.nonzero(inside)):
            moved[reads[o, t]] += shares[..., o, t]
    return np.moveaxis(out, -1, axis)


def windows(x, size, mode, fill=0.0):
    """Every window of ``x`` (scipy's centring, origin 0) padded in ``mode``, as a
    trailing axis, with the flat index of ``x`` each cell reads (-1: a constant pad)."""
    x = np.asarray(x, np.float64)
    size = tuple(size)
    maps = []
    for n, k in zip(x.shape, size):
        m = index_map(n, k // 2, k - 1 - k // 2, mode)
        maps.append(m[np.arange(n)[:, None] + np.arange(k)[None, :]])
    outs = list(itertools.product(*(range(n) for n in x.shape)))
    taps = list(itertools.product(*(range(k) for k in size)))
    src = np.empty((len(outs), len(taps)), np.int64)
    for i, o in enumerate(outs):
        for j, t in enumerate(taps):
            cells = [maps[a][o[a], t[a]] for a in range(x.ndim)]
            src[i, j] = -1 if min(cells) < 0 else np.ravel_multi_index(cells, x.shape)
    values = np.where(src >= 0, x.ravel()[np.maximum(src, 0)], fill)
    return values, src
