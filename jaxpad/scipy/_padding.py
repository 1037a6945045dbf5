"""The pad and its fold, shared by the filters' primitives (jaxpad.scipy._linear and
jaxpad.scipy._selection): ``padded`` (jaxpad.pad with one mode per axis), ``_fold``
(jaxpad's fold of an array given blockwise, the frame alone), ``_embed`` and the
transpose rules' helpers ``_zero_ct`` and ``_shape_of``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax
from jax.interpreters import ad

from jaxpad import _args
from jaxpad._pad import padded as _padded

# The filters check their arguments (jaxpad.scipy._args); their pads are pieces of
# those calls, described by jaxpad._args.derived without checking them again.
_FN = "jaxpad.scipy"


def padded(x, cval, begins: Sequence[int], ends: Sequence[int], modes: Sequence[str]):
    """jaxpad.pad with one jaxpad mode per axis and ``cval`` for the constant ones.

    Axes without a pad take a padded axis' mode, so one mode for all stays one string
    (jaxpad's fast path)."""
    on = [m for m, b, e in zip(modes, begins, ends) if b or e]
    if not on:
        return x
    if 0 in x.shape:  # the filter's output is empty too; no mode can read an empty axis
        return jnp.zeros([n + b + e for n, b, e in zip(x.shape, begins, ends)], x.dtype)
    per_axis = tuple(m if (b or e) else on[0] for m, b, e in zip(modes, begins, ends))
    mode: Any = per_axis[0] if len(set(per_axis)) == 1 else per_axis
    value = cval if "constant" in per_axis else None
    x = jnp.asarray(x)
    return _padded(x, _args.derived(_FN, x, list(begins), list(ends), mode, value))


def _fold_axis(block, shape, axis: int, b: int, a: int, mode: str, cval):
    """The fold along ``axis`` of an array ``g`` of ``shape`` (its pad ``b`` before and
    ``a`` after), given by ``block(start, stop)`` = g's rows [start, stop) along axis;
    returns (the folded array, the cotangent of the constant mode's value)."""
    n = shape[axis] - b - a
    c = max(b, a) + 1

    def pad_axis(s, value):
        begins = [0] * len(shape)
        ends = [0] * len(shape)
        begins[axis], ends[axis] = b, a
        value = value if mode == "constant" else None
        return _padded(s, _args.derived(_FN, s, begins, ends, mode, value))

    value = jnp.zeros((), cval.dtype)
    if min(b, a) < 0 or n < 2 * c:
        # A crop, or a pad longer than half the axis (it may wrap more than once):
        # the plain fold of the whole array.
        g = block(0, shape[axis])
        x_shape = list(shape)
        x_shape[axis] = n
        _, vjp = jax.vjp(pad_axis, jnp.zeros(x_shape, g.dtype), value)
        return vjp(g)
    # Each mode sends a pad row at most c rows into the axis from one end (the wrap to
    # the other end), so a compressed axis of 2c rows folds the frame as the full axis
    # does: its first c rows land in the first c, its last c in the last c.
    lo, hi = block(0, b), block(b + n, b + n + a)
    middle = list(shape)
    middle[axis] = 2 * c
    frame = jnp.concatenate([lo, jnp.zeros(middle, lo.dtype), hi], axis=axis)
    _, vjp = jax.vjp(pad_axis, jnp.zeros(middle, lo.dtype), value)
    folded, cval_ct = vjp(frame)
    g = block(b, b + n)
    for start, part in (
        (0, lax.slice_in_dim(folded, 0, c, axis=axis)),
        (n - c, lax.slice_in_dim(folded, c, 2 * c, axis=axis)),
    ):
        edge = lax.slice_in_dim(g, start, start + c, axis=axis) + part
        g = lax.dynamic_update_slice_in_dim(g, edge, start, axis)
    return g, cval_ct


def _fold(block, shape, begins, ends, modes, cval):
    """jaxpad's fold of every padded axis of an array of ``shape`` given blockwise by
    ``block(axis, start, stop)``; the first padded axis reads ``block``, the others the
    result so far."""
    axes = [ax for ax in range(len(shape)) if begins[ax] or ends[ax]]
    if not axes:
        return block(None, 0, 0), jnp.zeros((), cval.dtype)
    shape = list(shape)
    g, cval_ct = _fold_axis(
        lambda s, t: block(axes[0], s, t),
        shape,
        axes[0],
        begins[axes[0]],
        ends[axes[0]],
        modes[axes[0]],
        cval,
    )
    shape[axes[0]] = g.shape[axes[0]]
    for ax in axes[1:]:
        g, more = _fold_axis(
            lambda s, t, g=g, ax=ax: lax.slice_in_dim(g, s, t, axis=ax),
            shape,
            ax,
            begins[ax],
            ends[ax],
            modes[ax],
            cval,
        )
        shape[ax] = g.shape[ax]
        cval_ct = cval_ct + more
    return g, cval_ct


def _embed(x, value, pads):
    """``lax.pad(x, value, pads)`` (no interior) as an update of a filled buffer: XLA
    fuses x's producer into a dynamic-update-slice's update, a loop over x alone, where
    in a pad it becomes a branch in every element's loop that keeps it from vectorising
    (the max filter's VJP took 2-4x longer; docs/scipy.md#gradients)."""
    shape = [n + lo + hi for n, (lo, hi, _) in zip(x.shape, pads)]
    buffer = jnp.full(shape, value, x.dtype)
    return lax.dynamic_update_slice(buffer, x, [lo for lo, _, _ in pads])


def _zero_ct(x):
    return ad.Zero(x.aval) if ad.is_undefined_primal(x) else None


def _shape_of(x):
    return x.aval.shape if ad.is_undefined_primal(x) else x.shape
