"""A prototype lowering of per-side modes for 2-D fields, timed by ``benchmarks.boundary``.

Not part of jaxpad: a measured sketch of how the per-side pad and its fold could lower
on XLA:CPU, built from jaxpad's private helpers, for fields of two axes with pads of
at least 0 and less than the axis (``benchmarks.boundary --prototype``).

Forward, as the one-string modes' ``pad_then_update``: ``lax.pad`` places ``x`` (one
copy), then each ghost band is computed from a few slices of ``x`` (signs, edge terms
and the side's value applied to the band alone) and written in place; axis 0's bands
carry their corners, padded along axis 1.

Fold: every term of a per-side pad is ``sign * x[source] + first * x[0] + last * x[n-1]
+ value * v`` per axis, so the transpose of the two axes is
``(P0' S0 + E0')(P1' S1 + E1') t``:

- ``P0' S0 P1' S1 t``: the signs are separable, so ``t * s0 * s1`` (fused into the
  slices that read it) goes through the one-string modes' ``fold_axes`` once, both
  axes together: one slice plus thin bands updated in place;
- ``P0' S0 E1' t``: the weighted sums of the ghost columns (a thin column), folded
  along axis 0;
- ``E0' P1' S1 t``: the ghost rows (a thin band) folded along axis 1, then their
  weighted sum;
- both added in place into the first and last rows and columns.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad import _lowering, _sides
from jaxpad._index_maps import fold_pieces, side_coefficients


def _coefficients(pair, n, lo, size):
    return side_coefficients(pair, n, np.arange(size) - lo)


def _vector(values, ndim, axis, dtype):
    return _lowering._axis_vector(values, ndim, axis, dtype)


def region(y, axis, pair, lo, hi, side_values, side):
    """The ghost cells of side ``side`` (0 begin, 1 end) of ``y`` padded along ``axis``,
    and where they start in the padded axis."""
    n = y.shape[axis]
    size = n + lo + hi
    offsets = np.arange(size) - lo
    inside = offsets < 0 if side == 0 else offsets >= n
    start, stop = int(np.argmax(inside)), int(len(inside) - np.argmax(inside[::-1]))
    coefficients = _coefficients(pair, n, lo, size)
    pieces = fold_pieces(_lowering._base_pair(pair), n, lo, size, fill=True)
    parts = [
        _lowering._sided_piece_values(y, piece, axis)
        for piece in sorted(pieces, key=lambda p: p.start)
        if start <= piece.start < stop
    ]
    values = lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]
    sign = coefficients.sign[start:stop]
    if np.any(sign != 1):
        values = values * _vector(sign, y.ndim, axis, y.dtype)
    terms = _lowering._edge_terms(coefficients, slice(start, stop), y, axis, n)
    if terms is not None:
        values = values + terms
    weights = coefficients.value[start:stop]
    if np.any(weights):
        values = values + side_values[side].astype(y.dtype) * _vector(
            weights, y.ndim, axis, y.dtype
        )
    return values, start


def pad_axis(y, axis, pair, lo, hi, side_values):
    """``y`` padded along ``axis`` alone, with that axis's side values."""
    parts = []
    for side, width in ((0, lo), (1, hi)):
        if width:
            parts.append(region(y, axis, pair, lo, hi, side_values, side)[0])
    parts.insert(1 if lo else 0, y)
    return lax.concatenate(parts, axis) if len(parts) > 1 else y


def make(modes, pads_begin, pads_end):
    """``pad(x, values)``: ``jaxpad.pad(x, pads_begin, pads_end, modes, values)`` for a
    2-D ``x``, ``modes`` one ``(begin, end)`` pair per axis, ``values`` (2, 2)."""
    (lo0, lo1), (hi0, hi1) = pads_begin, pads_end

    def forward(x, values):
        n0, n1 = x.shape
        out = lax.pad(x, jnp.zeros((), x.dtype), [(lo0, hi0, 0), (lo1, hi1, 0)])
        for side, width in ((0, lo0), (1, hi0)):
            if width:
                rows, start = region(x, 0, modes[0], lo0, hi0, values[0], side)
                band = pad_axis(rows, 1, modes[1], lo1, hi1, values[1])
                out = lax.dynamic_update_slice(out, band, (start, 0))
        for side, width in ((0, lo1), (1, hi1)):
            if width:
                columns, start = region(x, 1, modes[1], lo1, hi1, values[1], side)
                out = lax.dynamic_update_slice(out, columns, (lo0, start))
        return out

    @jax.custom_vjp
    def pad(x, values):
        return forward(x, values)

    def pad_fwd(x, values):
        return forward(x, values), (x.shape, values)

    def pad_bwd(residuals, t):
        (n0, n1), values = residuals
        s0, s1 = t.shape
        c0, c1 = _coefficients(modes[0], n0, lo0, s0), _coefficients(modes[1], n1, lo1, s1)
        signed = t
        if np.any(c0.sign != 1):
            signed = signed * _vector(c0.sign, 2, 0, t.dtype)
        if np.any(c1.sign != 1):
            signed = signed * _vector(c1.sign, 2, 1, t.dtype)
        pieces = {
            0: fold_pieces(_lowering._base_pair(modes[0]), n0, lo0, s0),
            1: fold_pieces(_lowering._base_pair(modes[1]), n1, lo1, s1),
        }
        x_ct = _lowering.fold_axes(signed, pieces, (n0, n1))
        unpadded = ("wrap", "wrap")  # an axis with no pad: its mode is never read
        for coefficient, index in ((c1.first, 0), (c1.last, n1 - 1)):
            reach = np.nonzero(coefficient)[0]
            if len(reach):
                a, b = int(reach.min()), int(reach.max()) + 1
                column = (t[:, a:b] * _vector(coefficient[a:b], 2, 1, t.dtype)).sum(
                    1, keepdims=True
                )
                column = _lowering.build_sided_fold(column, (n0, 1), (lo0, 0), (modes[0], unpadded))
                x_ct = x_ct.at[:, index : index + 1].add(column)
        for coefficient, index in ((c0.first, 0), (c0.last, n0 - 1)):
            reach = np.nonzero(coefficient)[0]
            if len(reach):
                a, b = int(reach.min()), int(reach.max()) + 1
                band = _lowering.build_sided_fold(
                    t[a:b], (b - a, n1), (0, lo1), (unpadded, modes[1])
                )
                row = (band * _vector(coefficient[a:b], 2, 0, t.dtype)).sum(0, keepdims=True)
                x_ct = x_ct.at[index : index + 1, :].add(row)
        # The values' cotangent: the transpose of jaxpad's value term (not what is timed).
        term, pull = jax.vjp(
            lambda v: _sides.value_term(v, modes, (n0, n1), (s0, s1), (lo0, lo1)), values
        )
        values_ct = pull(t)[0] if term is not None else jnp.zeros_like(values)
        return x_ct, values_ct

    pad.defvjp(pad_fwd, pad_bwd)
    return pad
