"""Exact derivatives for the conv planner's forms: a non-finite value reaches exactly
what the padded convolution's products carry it to (docs/semantics.md, "Infinities and
nan").

A form's derivative derived by JAX can multiply zeros of the form's own (the zero
cotangent of the extra output ``pad_slice`` slices off, the off-diagonal blocks of a
block-diagonal kernel) or, with the convolution's own zero padding, leave out products
of the padded convolution (XLA:CPU skips the pad's zeros in the kernel gradient, and in
the value of some layouts). Here each derivative is written so that neither happens:

- the kernel gradient of a VALID convolution is that of one more tap over one more
  cell of padding, the extra tap sliced off: off XLA:CPU's all-zero-padding path as
  ``pad_slice``'s extra zero is, with no extra output whose zero cotangent would
  multiply the input;
- with the convolution's own zero padding, the outputs and kernel-gradient entries
  whose products meet a pad zero and a non-finite tap or cotangent are set to ``nan``,
  as those products make them (``0 * inf``).
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


@dataclasses.dataclass(frozen=True)
class Geometry:
    """A convolution's static arguments, as ``lax.conv_general_dilated`` takes them."""

    strides: tuple[int, ...]
    padding: tuple[tuple[int, int], ...]
    numbers: Any
    rhs_dilation: tuple[int, ...]
    feature_group_count: int = 1
    precision: Any = None
    preferred_element_type: Any = None

    def conv(self, xp, kernel, padding=None, groups=None):
        kwargs = {}
        if self.preferred_element_type is not None:
            kwargs["preferred_element_type"] = self.preferred_element_type
        return lax.conv_general_dilated(
            xp,
            kernel,
            self.strides,
            self.padding if padding is None else padding,
            rhs_dilation=self.rhs_dilation,
            dimension_numbers=self.numbers,
            feature_group_count=self.feature_group_count if groups is None else groups,
            precision=self.precision,
            **kwargs,
        )


def _pad_taps(geometry, sizes, window, out_sizes):
    """Per spatial axis: ``P[t, o]``, whether output ``o`` reads a pad cell through tap
    ``t`` (static), and its outputs that ever do, as runs ``[(start, stop), ...]``."""
    axes = []
    for i, ((lo, _), n, k, m) in enumerate(zip(geometry.padding, sizes, window, out_sizes)):
        s, d = geometry.strides[i], geometry.rhs_dilation[i]
        position = np.arange(m)[None, :] * s + np.arange(k)[:, None] * d
        reads = (position < lo) | (position >= lo + n)
        rows = reads.any(0)
        runs = []
        start = None
        for o in range(m + 1):
            if o < m and rows[o] and start is None:
                start = o
            elif (o == m or not rows[o]) and start is not None:
                runs.append((start, o))
                start = None
        axes.append((reads, runs))
    return axes


def _band_flags(array, axis, feature_axis, runs, reads):
    """``F[t, f]``: whether ``array`` holds a non-finite value at an index ``o`` along
    ``axis`` with ``reads[t, o]``, in feature ``f`` (any other index)."""
    flags = None
    for start, stop in runs:
        band = lax.slice_in_dim(array, start, stop, axis=axis)
        others = tuple(a for a in range(array.ndim) if a not in (axis, feature_axis))
        bad = jnp.any(~jnp.isfinite(band), axis=others)  # (rows, features) in axis order
        if axis > feature_axis:
            bad = bad.T
        hit = jnp.any(jnp.where(reads[:, start:stop, None], bad[None], False), axis=1)
        flags = hit if flags is None else flags | hit
    return flags


def _spatial(shape, spec):
    return [int(shape[a]) for a in spec[2:]]


def with_pad_products(y, kernel, xp_shape, geometry):
    """``y``, the convolution of ``xp`` (shape ``xp_shape``) by ``kernel`` with its own
    zero padding, with ``nan`` where a pad zero meets a non-finite tap (XLA:CPU leaves
    those products out in some layouts). Only the border bands of outputs that read a
    pad are rewritten (in place: a select over the whole output cost 8% of a 3x3
    convolution's time at (8, 64, 64, 64))."""
    numbers = geometry.numbers
    window = _spatial(kernel.shape, numbers.rhs_spec)
    out_sizes = _spatial(y.shape, numbers.out_spec)
    axes = _pad_taps(geometry, _spatial(xp_shape, numbers.lhs_spec), window, out_sizes)
    # Per (tap, output feature): a non-finite tap in any input channel.
    k_bad = jnp.any(~jnp.isfinite(kernel), axis=numbers.rhs_spec[1])
    o_axis = numbers.rhs_spec[0] - (numbers.rhs_spec[0] > numbers.rhs_spec[1])
    tap_axes = [a - (a > numbers.rhs_spec[1]) for a in numbers.rhs_spec[2:]]
    nan = jnp.asarray(np.nan, y.dtype)
    for i, (reads, runs) in enumerate(axes):
        if not runs:
            continue
        # (taps along axis i, features): any over the other axes' taps.
        others = tuple(a for j, a in enumerate(tap_axes) if j != i)
        per_tap = jnp.any(k_bad, axis=others)
        if tap_axes[i] > o_axis:
            per_tap = per_tap.T
        out_axis, feature_axis = numbers.out_spec[2 + i], numbers.out_spec[1]
        for start, stop in runs:
            # (outputs of the band, features): whether one reads a pad through a bad tap.
            hit = jnp.any(jnp.where(reads[:, start:stop, None], per_tap[:, None, :], False), axis=0)
            shape = [1] * y.ndim
            shape[out_axis], shape[feature_axis] = stop - start, hit.shape[1]
            if out_axis > feature_axis:
                hit = hit.T
            band = lax.slice_in_dim(y, start, stop, axis=out_axis)
            band = jnp.where(hit.reshape(shape), nan, band)
            y = lax.dynamic_update_slice_in_dim(y, band, start, axis=out_axis)
    return y


def kernel_gradient(xp, ct, kernel_shape, geometry, *, slice_axis=None, kernel_map=None):
    """The gradient in the kernel of ``geometry.conv(xp, kernel)`` (of
    ``kernel_map(kernel)`` ungrouped, where given) for the cotangent ``ct``, summing
    exactly the padded convolution's products."""
    numbers = geometry.numbers
    spec = jax.ShapeDtypeStruct(tuple(kernel_shape), xp.dtype)
    groups = None if kernel_map is None else 1
    kernel_map = kernel_map or (lambda kernel: kernel)

    def transposed(conv):
        return jax.linear_transpose(conv, spec)(ct)[0]

    if any(p != (0, 0) for p in geometry.padding):
        dk = transposed(lambda kernel: geometry.conv(xp, kernel_map(kernel), groups=groups))
        window = _spatial(kernel_shape, numbers.rhs_spec)
        axes = _pad_taps(
            geometry,
            _spatial(xp.shape, numbers.lhs_spec),
            window,
            _spatial(ct.shape, numbers.out_spec),
        )
        flags = None  # (taps..., output features) as a kernel's layout broadcasts
        for i, (reads, runs) in enumerate(axes):
            if not runs:
                continue
            hit = _band_flags(ct, numbers.out_spec[2 + i], numbers.out_spec[1], runs, reads)
            shape = [1] * len(kernel_shape)
            shape[numbers.rhs_spec[2 + i]] = window[i]
            shape[numbers.rhs_spec[0]] = hit.shape[1]
            order = sorted([(numbers.rhs_spec[2 + i], 0), (numbers.rhs_spec[0], 1)])
            hit = jnp.transpose(hit, [j for _, j in order]).reshape(shape)
            flags = hit if flags is None else flags | hit
        if flags is None:
            return dk
        return jnp.where(flags, jnp.asarray(np.nan, dk.dtype), dk)
    window = _spatial(kernel_shape, numbers.rhs_spec)
    wide = [i for i, k in enumerate(window) if k > 1]
    conv = partial(geometry.conv, xp, groups=groups)
    if not wide or xp.ndim < 4:
        return transposed(lambda kernel: conv(kernel_map(kernel)))
    # One more tap on one axis, over one more cell of padding: the padding is not all
    # zero (XLA:CPU's slow path for it, table "Padded convolutions" in
    # docs/performance.md), no output is added, and the extra tap, sliced off, is the
    # only one that reads the extra cell. (The extra zero of ``pad_slice`` adds an
    # output instead, whose zero cotangent multiplies the last rows of ``xp``.)
    axis = slice_axis if slice_axis is not None and window[slice_axis] > 1 else wide[0]
    k_axis = numbers.rhs_spec[2 + axis]
    d = geometry.rhs_dilation[axis]
    padding = [(0, 0)] * len(window)
    padding[axis] = (0, d)
    extended = list(kernel_shape)
    extended[k_axis] += 1
    grown = jax.linear_transpose(
        lambda kernel: conv(kernel_map(kernel), padding),
        jax.ShapeDtypeStruct(tuple(extended), xp.dtype),
    )(ct)[0]
    return lax.slice_in_dim(grown, 0, kernel_shape[k_axis], axis=k_axis)
