"""``jaxpad_scipy_taps``: the weighted sum of static slices of a padded array.

``taps(xp, weights, out_shape)[i] = sum_k weights[k] * xp[i + k]`` (a 'valid'
correlation). Its lowering is the shifted multiply-adds that XLA:CPU fuses into one
loop. As a primitive it has its own transpose: the same correlation of the
zero-padded cotangent with the reversed weights, which fuses the same way; left to
JAX, the transpose of each slice is a zero pad of the whole array, and the sum of those
pads before jaxpad's fold took 25-160x the forward's time for the Gaussians of
docs/scipy.md (0.7-16x with this rule).

The filters bind ``jaxpad_scipy_padded_taps`` (the pad and the taps as one primitive,
so that its transpose can fold the pad's frame alone) and ``jaxpad_scipy_padded_passes``
(the separable filters' 1-D passes); the minimum, maximum and rank filters' primitives
live in ``_select.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

import jaxpad

taps_p = Primitive("jaxpad_scipy_taps")


def _key(weights: np.ndarray) -> tuple:
    """weights as a hashable param: (shape, ((index, value), ...)) of the non-zeros."""
    return (
        weights.shape,
        tuple(
            (index, weights[index].item())
            for index in np.ndindex(*weights.shape)
            if weights[index] != 0
        ),
    )


def taps(xp, weights: np.ndarray, out_shape: tuple[int, ...]):
    """sum_k weights[k] * xp[k : k + out_shape] over the non-zero weights."""
    return taps_p.bind(xp, weights=_key(weights), out_shape=tuple(out_shape))


def _impl(xp, *, weights, out_shape, barrier=False, cpu=None):
    if barrier and _on_cpu(cpu):
        # A transposed pass of a filter of _AXIS_PASSES_MIN passes or more, or of two
        # long ones (_FULL_PASSES_TAPS_MIN): its zero-padded cotangent written to
        # memory before the taps read it, as the forward's pads (_padded_passes_impl).
        xp = lax.optimization_barrier(xp)
    _, entries = weights
    groups: dict[Any, list[tuple[bool, Any]]] = {}
    for index, w in entries:
        negative = isinstance(w, float) and w < 0
        view = lax.slice(xp, index, tuple(i + n for i, n in zip(index, out_shape)))
        groups.setdefault(-w if negative else w, []).append((negative, view))
    acc = None
    for w, members in groups.items():
        total = None
        for negative, v in members:
            if total is None:
                total = -v if negative else v
            else:
                total = total - v if negative else total + v
        assert total is not None
        term = total if w == 1 else total * jnp.asarray(w, xp.dtype)
        acc = term if acc is None else acc + term
    if acc is None:
        return jnp.zeros(out_shape, xp.dtype)
    return acc


def _abstract_eval(xp, *, weights, out_shape, barrier=False):
    return xp.update(shape=out_shape, dtype=xp.dtype)


def _transpose(ct, xp, *, weights, out_shape, barrier=False):
    shape, entries = weights
    in_shape = xp.aval.shape
    if type(ct) is ad.Zero:
        return (ad.Zero(xp.aval),)
    # xp's cotangent at p is sum_k w[k] ct[p - k]: the ct zero-padded by (size - 1) on
    # each side, correlated with the reversed weights.
    pad = [(n - 1, n - 1, 0) for n in shape]
    ct_padded = lax.pad(ct, jnp.zeros((), ct.dtype), pad)
    # The linear transpose, not the adjoint: complex weights are not conjugated.
    reversed_entries = tuple(
        (tuple(n - 1 - i for n, i in zip(shape, index)), w) for index, w in entries
    )
    return (
        taps_p.bind(
            ct_padded,
            weights=(shape, reversed_entries),
            out_shape=tuple(in_shape),
            barrier=barrier,
        ),
    )


def _batch(args, dims, *, weights, out_shape, barrier=False):
    (xp,), (dim,) = args, dims
    xp = jnp.moveaxis(xp, dim, 0)
    shape, entries = weights
    batched = ((1, *shape), tuple(((0, *index), w) for index, w in entries))
    out_shape = (xp.shape[0], *out_shape)
    return taps_p.bind(xp, weights=batched, out_shape=out_shape, barrier=barrier), 0


taps_p.def_impl(_impl)
taps_p.def_abstract_eval(_abstract_eval)
ad.deflinear2(taps_p, _transpose)
batching.primitive_batchers[taps_p] = _batch
mlir.register_lowering(
    taps_p, mlir.lower_fun(functools.partial(_impl, cpu=False), multiple_results=False)
)
mlir.register_lowering(
    taps_p,
    mlir.lower_fun(functools.partial(_impl, cpu=True), multiple_results=False),
    platform="cpu",
)


# ----------------------------------------------------------------------------------
# Pad-then-combine primitives whose transpose folds only the frame
# ----------------------------------------------------------------------------------
#
# The transpose of ``taps(jaxpad.pad(x))`` is jaxpad's fold of the transposed taps. XLA
# fuses the two into one loop, and the fold's pads and reverses in that loop keep it
# from vectorising: the loop then evaluates the whole transposed sum once per use, one
# element at a time (gaussian sigma 4 at 1024x1024: 60-1000 ms against 3-8 ms forward,
# docs/scipy.md#gradients; an optimization_barrier between them is dropped by XLA:CPU).
# The primitives below keep the pad and the combination together, so that their
# transpose can split the fold: the interior rows of each padded axis are the
# transposed sum alone (one vectorised loop), and only the frame (the rows that the pad
# wrote) goes through jaxpad's fold, on a small array, added into the edges in place.


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
    return jaxpad.pad(x, list(begins), list(ends), mode, value)


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
        return jaxpad.pad(s, begins, ends, mode, value if mode == "constant" else None)

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


# padded_taps(x, cval) = taps(padded(x, cval), weights): linear in (x, cval) together.
padded_taps_p = Primitive("jaxpad_scipy_padded_taps")


def padded_taps(x, cval, weights: np.ndarray, begins, ends, modes):
    """``taps(padded(x, cval, begins, ends, modes), weights, x.shape)``-like: the
    correlation of the padded ``x`` with ``weights``, output of ``x``'s shape."""
    out_shape = tuple(n + b + e - w + 1 for n, b, e, w in zip(x.shape, begins, ends, weights.shape))
    return padded_taps_p.bind(
        x,
        jnp.asarray(cval, x.dtype),
        weights=_key(weights),
        begins=tuple(begins),
        ends=tuple(ends),
        modes=tuple(modes),
        out_shape=out_shape,
    )


def _padded_taps_impl(x, cval, *, weights, begins, ends, modes, out_shape):
    if _band_taken(x.shape, weights, begins, ends, out_shape):
        return _band_taps(x, cval, weights, begins, ends, modes)
    return _padded_taps_pad(
        x, cval, weights=weights, begins=begins, ends=ends, modes=modes, out_shape=out_shape
    )


def _padded_taps_pad(x, cval, *, weights, begins, ends, modes, out_shape):
    """The correlation of the padded x: one pad of every axis, then the taps."""
    xp = padded(x, cval, begins, ends, modes)
    if x.ndim >= 2 and weights[0][-1] > 1 and 0 not in out_shape:
        return _flat_taps(xp, weights, out_shape)
    return _impl(xp, weights=weights, out_shape=out_shape)


def _flat_taps(xp, weights, out_shape):
    """``_impl(xp, weights, out_shape)`` for weights that span the minor axis, read
    from xp flattened: each tap one slice of the 1-D view at its offset in xp's
    row-major order (the outputs past each row's end read the next row, and are
    dropped). Sliced along the minor axis, the pad's concatenate is split by XLA into
    one concatenate per tap, each a copy that XLA:CPU does not fuse; through the flat
    view the pad is written once (a random 3x3 correlation at 1024x1024 in float64:
    2.4 against 6.7 ms; docs/scipy.md#performance)."""
    shape, entries = weights
    strides = [int(np.prod(xp.shape[d + 1 :])) for d in range(xp.ndim)]
    length = sum((o - 1) * s for o, s in zip(out_shape, strides)) + 1
    flat_entries = tuple(((sum(i * s for i, s in zip(index, strides)),), w) for index, w in entries)
    span = sum((n - 1) * s for n, s in zip(shape, strides)) + 1
    flat = xp.reshape(-1)
    out = _impl(flat, weights=((span,), flat_entries), out_shape=(length,))
    out = lax.pad(out, jnp.zeros((), out.dtype), [(0, flat.shape[0] - length, 0)])
    return lax.slice(out.reshape(xp.shape), (0,) * xp.ndim, tuple(out_shape))


def _padded_taps_transpose(ct, x, cval, *, weights, begins, ends, modes, out_shape):
    x_shape = _shape_of(x)
    if type(ct) is ad.Zero:
        return _zero_ct(x), _zero_ct(cval)
    if _band_taken(x_shape, weights, begins, ends, out_shape, transpose=True) and not (
        ad.is_undefined_primal(cval) and "constant" in modes
    ):
        # cval's cotangent (the weights that read the constant pad) comes from the
        # fold below only.
        g = _band_transpose(ct, weights, begins, ends, modes)
        return (g if ad.is_undefined_primal(x) else None), _zero_ct(cval)
    return _padded_taps_fold(
        ct, x, cval, weights=weights, begins=begins, ends=ends, modes=modes, out_shape=out_shape
    )


def _padded_taps_fold(ct, x, cval, *, weights, begins, ends, modes, out_shape):
    """The transpose as the transposed taps over the padded domain, then the fold."""
    x_shape = _shape_of(x)
    cval_aval = cval.aval if ad.is_undefined_primal(cval) else jax.typeof(cval)
    shape, entries = weights
    e_shape = [n + b + e for n, b, e in zip(x_shape, begins, ends)]
    if 0 in x_shape:
        return jnp.zeros(x_shape, ct.dtype), jnp.zeros((), cval_aval.dtype)
    # e = the transposed taps over the padded domain: ct zero-padded by (size - 1),
    # correlated with the reversed weights.
    ct_padded = _embed(ct, 0, [(n - 1, n - 1, 0) for n in shape])
    reversed_w = (
        shape,
        tuple((tuple(n - 1 - i for n, i in zip(shape, index)), w) for index, w in entries),
    )

    def block(axis, start, stop):
        lo = [0] * ct.ndim
        hi = list(ct_padded.shape)
        out = list(e_shape)
        if axis is not None:
            lo[axis], hi[axis] = start, stop + shape[axis] - 1
            out[axis] = stop - start
        return taps_p.bind(lax.slice(ct_padded, lo, hi), weights=reversed_w, out_shape=tuple(out))

    g, cval_ct = _fold(block, e_shape, begins, ends, modes, jnp.zeros((), cval_aval.dtype))
    return (
        g if ad.is_undefined_primal(x) else None,
        cval_ct.astype(cval_aval.dtype) if ad.is_undefined_primal(cval) else None,
    )


# The band form (_band_taps, _band_transpose, _band_passes_transpose): the elements
# whose window lies inside x read x itself through its flat view, not a padded copy;
# the bands near each end of each padded axis come from a strip of x's first and last
# rows along that axis, padded and correlated as above (in the transpose: correlated
# and folded), joined along axis 0 (a concatenate XLA:CPU fuses) and written over the
# flat result's wrong values along the others. Padded first, XLA:CPU wrote the pad (a
# copy of x), read it through a flat view and copied the valid columns out of the flat
# result (a second copy); the transpose zero-padded the cotangent, then folded. A random
# 3x3 correlation at 1024x1024 took 0.33-0.52x the time so, its VJP 0.31-0.43x; laplace's
# VJP at 128x128x128 in float64 0.15-0.39x (docs/performance.md, "scipy filters: the
# band form", whose tables set the constants below).
# - _BAND_NDIMS, _BAND_MIN_SIZE: 2-D and 3-D arrays of 2**17 elements or more. At
#   128x128 the forward took 1.2-1.9x as long (small arrays pay for the strips' extra
#   loops); 256x256 was 0.78x but keeps the padded form (tests/test_scipy_ndimage.py's
#   test_minor_axis_pad_written_once reads its program); 1-D took 2.9-3.9x.
# - _BAND_STRIP_SHARE_MAX: the strips (twice _band_strip rows per padded axis, and
#   axis 0) at most this share of the axes' lengths: 64x64x64 (0.47) took 1.25-1.6x as
#   long forward, 128x128x128 (0.23) 0.25-1.09x.
# - the forward in 3-D only for weights that span every axis: a 1-D weight along axis
#   0 of 128x128x128 measured 0.91-1.30x, and laplace's sum of three such 1.4-1.6x
#   (its passes no longer fuse); their transposes take the band form (0.15-0.67x).
# - _BAND_PASSES_NDIMS, _BAND_PASSES_SHARE_MAX: the separable filters' transpose in
#   2-D, while the strips are at most an eighth of the axes: gaussian sigma 1 at
#   256x256 (share 0.22) took 1.9x as long, sigma 2 at 1024x1024 (0.10) 0.75x,
#   uniform 3 0.24-0.38x.
# - _BAND_PASSES_READS_MAX: XLA:CPU fuses the transposed minor pass into the outer one
#   when that reads it at up to _FUSED_TAPS_MAX places, evaluating it again at each:
#   taken when that costs at most 9 reads (3x3: uniform 3 and sobel 0.24-0.38x) or
#   when it is not fused (gaussian sigma 2, 17 taps: 0.42-0.75x); uniform 9 and
#   gaussian sigma 1 (81 reads) took 1.3-1.7x as long on one core.
_BAND_NDIMS = (2, 3)
_BAND_MIN_SIZE = 1 << 17
_BAND_STRIP_SHARE_MAX = 0.25
_BAND_PASSES_NDIMS = (2,)
_BAND_PASSES_SHARE_MAX = 0.125
_BAND_PASSES_READS_MAX = 9


def _band_strip(k: int, b: int, e: int) -> int:
    """Rows of x at each end of an axis that its strip holds: every mode sends a pad row
    at most max(b, e) rows into the axis (the wrap to the other end), and the band's
    windows reach k - 1 rows further."""
    return k + max(b, e) + 1


def _band_rows(axis: int, b: int, e: int) -> int:
    """Rows at each end of ``axis`` that the band form takes from the strip: those
    whose window leaves x, and in the transpose those that the fold adds pad rows
    into (at most max(b, e) + 1 from the end). The flat view along axis 0 reads past
    x's ends unless its first and last rows are left out."""
    return max(b, e) + 1 if (b or e or axis == 0) else 0


def _band_taken(shape, weights, begins, ends, out_shape, transpose=False, share_max=None) -> bool:
    """Whether a padded_taps (``transpose``: its transpose) runs in the band form: an
    output of x's shape (no crop), a pad somewhere, each padded axis (and axis 0) long
    enough that its two strips leave rows between them, and x large enough."""
    k_shape, entries = weights
    if (
        len(shape) not in _BAND_NDIMS
        or int(np.prod(shape, dtype=np.int64)) < _BAND_MIN_SIZE
        or (not transpose and len(shape) > 2 and min(k_shape) == 1)
        or tuple(out_shape) != tuple(shape)
        or not entries
        or min(*begins, *ends) < 0
        or not any((*begins, *ends))
    ):
        return False
    strips = [
        (n, 2 * _band_strip(k, b, e))
        for d, (n, k, b, e) in enumerate(zip(shape, k_shape, begins, ends))
        if _band_rows(d, b, e)
    ]
    return all(n > rows for n, rows in strips) and (
        sum(rows / n for n, rows in strips)
        <= (_BAND_STRIP_SHARE_MAX if share_max is None else share_max)
    )


def _band_main(x, entries, begins, rows):
    """``sum_k w_k x[i + index_k - begins]`` for the rows of axis 0 between its bands,
    through x's flat view: right where the window lies inside x, wrong (read from a
    neighbouring row) elsewhere; ``rows`` = axis 0's band."""
    strides = [int(np.prod(x.shape[d + 1 :], dtype=np.int64)) for d in range(x.ndim)]
    offsets = [
        (sum((i - b) * s for i, b, s in zip(index, begins, strides)) + rows * strides[0], w)
        for index, w in entries
    ]
    length = (x.shape[0] - 2 * rows) * strides[0]
    span = max(o for o, _ in offsets) + 1
    assert min(o for o, _ in offsets) >= 0 and length + span - 1 <= x.size
    flat = lax.slice(x.reshape(-1), (0,), (length + span - 1,))
    weights = ((span,), tuple(((o,), w) for o, w in offsets))
    out = _impl(flat, weights=weights, out_shape=(length,))
    return out.reshape(x.shape[0] - 2 * rows, *x.shape[1:])


def _band_assemble(x, main, strip_fn, k_shape, begins, ends):
    """main (axis 0's middle rows) joined to axis 0's bands, then each other padded
    axis' bands written over it; ``strip_fn(strip)`` is the filter (or its transpose)
    of a strip of x, whose first and last rows along the strip's axis are right."""
    out = None
    for d, (n, k, b, e) in enumerate(zip(x.shape, k_shape, begins, ends)):
        rows = _band_rows(d, b, e)
        if not rows:
            continue
        s = _band_strip(k, b, e)
        strip = lax.concatenate(
            [lax.slice_in_dim(x, 0, s, axis=d), lax.slice_in_dim(x, n - s, n, axis=d)], d
        )
        y = strip_fn(strip)
        lo = lax.slice_in_dim(y, 0, rows, axis=d)
        hi = lax.slice_in_dim(y, 2 * s - rows, 2 * s, axis=d)
        if d == 0:
            # A concatenate along axis 0, which XLA:CPU fuses with main's loop.
            out = lax.concatenate([lo, main, hi], 0)
        else:
            assert out is not None
            out = lax.dynamic_update_slice_in_dim(out, lo, 0, d)
            out = lax.dynamic_update_slice_in_dim(out, hi, n - rows, d)
    return out


def _band_taps(x, cval, weights, begins, ends, modes):
    """padded_taps with an output of x's shape, in the band form (_band_taken)."""
    k_shape, entries = weights

    def strip_fn(strip):
        return _padded_taps_pad(
            strip, cval, weights=weights, begins=begins, ends=ends, modes=modes,
            out_shape=strip.shape,
        )  # fmt: skip

    main = _band_main(x, entries, begins, _band_rows(0, begins[0], ends[0]))
    return _band_assemble(x, main, strip_fn, k_shape, begins, ends)


def _band_transpose(ct, weights, begins, ends, modes):
    """x's cotangent of padded_taps in the band form: between the bands, the
    correlation of ct with the reversed weights (centred at ``ends``); in the bands,
    the transpose of a strip (_padded_taps_fold), whose fold brings the pad rows'
    cotangents in, from the other end for a wrap."""
    k_shape, entries = weights
    reversed_entries = tuple(
        (tuple(n - 1 - i for n, i in zip(k_shape, index)), w) for index, w in entries
    )
    zero = jnp.zeros((), ct.dtype)

    def strip_fn(strip):
        (g, _) = _padded_taps_fold(
            strip,
            ad.UndefinedPrimal(jax.typeof(strip)),
            zero,
            weights=weights,
            begins=begins,
            ends=ends,
            modes=modes,
            out_shape=strip.shape,
        )
        return g

    main = _band_main(ct, reversed_entries, ends, _band_rows(0, begins[0], ends[0]))
    return _band_assemble(ct, main, strip_fn, k_shape, begins, ends)


def _padded_taps_batch(args, dims, *, weights, begins, ends, modes, out_shape):
    x, cval = args
    dx, dc = dims
    if dc is not None:
        # A batch of pad values: the composition, batched primitive by primitive.
        fn = functools.partial(
            _padded_taps_impl,
            weights=weights,
            begins=begins,
            ends=ends,
            modes=modes,
            out_shape=out_shape,
        )
        return jax.vmap(fn, in_axes=(dx, dc))(x, cval), 0
    x = jnp.moveaxis(x, dx, 0)
    shape, entries = weights
    return padded_taps_p.bind(
        x,
        cval,
        weights=((1, *shape), tuple(((0, *i), w) for i, w in entries)),
        begins=(0, *begins),
        ends=(0, *ends),
        modes=(modes[0], *modes),
        out_shape=(x.shape[0], *out_shape),
    ), 0


padded_taps_p.def_impl(_padded_taps_impl)
padded_taps_p.def_abstract_eval(
    lambda x, cval, *, out_shape, **_: x.update(shape=out_shape, dtype=x.dtype)
)
ad.deflinear2(padded_taps_p, _padded_taps_transpose)
batching.primitive_batchers[padded_taps_p] = _padded_taps_batch
mlir.register_lowering(padded_taps_p, mlir.lower_fun(_padded_taps_impl, multiple_results=False))


# padded_passes(x, cval) = 1-D correlations, one per axis, of padded(x, cval) padded
# on every filtered axis at once: linear in (x, cval) together. A separable filter
# padded per pass materializes a padded copy of each intermediate (one or two copies,
# as jaxpad's planner builds the pad); padded once, the passes read one padded array
# and each writes one intermediate, and the outer axis runs first so that the later
# passes read the smaller intermediates. XLA:CPU allocates a program's temporaries as
# one block, and glibc maps a block over 32 MiB afresh on every call (its largest
# mmap threshold): a float64 uniform filter at 1024x1024 needed 32.04 MiB padded per
# pass and spent most of its 33-40 ms in 8203 page faults a call, 16.05 MiB padded
# once (4.4 ms); docs/scipy.md#performance. Only for modes that are index maps:
# a constant mode pads each intermediate with cval, which the earlier passes would
# have filtered.
padded_passes_p = Primitive("jaxpad_scipy_padded_passes")

# XLA:CPU fuses a producer into a consumer that reads it at up to 15 places (its
# allowed code duplication), so a first pass is evaluated again per tap of a minor
# pass of up to 15 taps; _flat_pass avoids that, and a longer minor pass reads the
# first pass from memory anyway, faster as plain slices (docs/scipy.md#performance:
# gaussian sigma 4, 33 taps, 2.7 against 7.0 ms in float32 at 1024x1024; uniform 9,
# 1.4 against 3.8 ms with _flat_pass).
_FUSED_TAPS_MAX = 15


def padded_passes(x, cval, passes: Sequence[tuple[int, np.ndarray]], begins, ends, modes):
    """The 1-D correlations ``passes`` ((axis, weights), at most one per axis, in that
    order) of ``padded(x, cval, begins, ends, modes)``, each axis padded by its pass'
    length - 1 in all (``begins`` + ``ends``); the output has ``x``'s shape."""
    keys = tuple((axis, tuple(v.item() for v in np.asarray(w))) for axis, w in passes)
    return padded_passes_p.bind(
        x,
        jnp.asarray(cval, x.dtype),
        passes=keys,
        begins=tuple(begins),
        ends=tuple(ends),
        modes=tuple(modes),
    )


def _pass_key(ndim: int, axis: int, w: tuple) -> tuple:
    shape = [1] * ndim
    shape[axis] = len(w)
    return _key(np.asarray(w).reshape(shape))


def _flat_minor(passes, shape) -> bool:
    """Whether the minor pass runs last through _flat_pass: two passes, the last on
    the minor axis, of at most _FUSED_TAPS_MAX taps (longer ones are not fused)."""
    taps_count = sum(1 for v in passes[-1][1] if v != 0)
    return (
        len(passes) == 2
        and passes[-1][0] == len(shape) - 1
        and taps_count <= _FUSED_TAPS_MAX
        and 0 not in shape
    )


# A separable filter of three or more passes (a 3-D gaussian or uniform filter) runs
# each pass on its own axis' pad, on XLA:CPU, and that pad is written to memory
# (lax.optimization_barrier) before the pass' shifted multiply-adds read it; its
# transpose likewise, axis by axis. Without the barrier XLA:CPU fused the pad into the
# pass and evaluated it again at each tap (float64 gaussian sigma 4 at 128x128x128:
# 70 ms, 29.5 ms with it). Against one pad of every axis then the passes (float32's
# form before) and a lax.conv per axis' pad (float64's), forward and VJP, in both
# dtypes from 64x64x64 to 160x128x128: the forward took 0.33-1.0x their time (float64
# gaussian sigma 4 at 128x128x128 0.51x: the conv read its 33 planes of the outer axis
# from memory at each tap), the VJP 0.25-1.1x (docs/performance.md, "scipy filters:
# 3-D passes on their own pads").
_AXIS_PASSES_MIN = 3


def _on_cpu(cpu) -> bool:
    """XLA:CPU's rules: ``cpu`` from the platform's lowering, None (eager) the default
    backend's."""
    return bool(jax.default_backend() == "cpu" if cpu is None else cpu)


# A filter of _AXIS_PASSES_MIN passes or more on an array of at least this many bytes
# runs its first pass on the whole array, then the other passes slab by slab along the
# first pass' axis (each slab about _SLAB_TARGET bytes) in a loop; its VJP the other
# way round. Whole, each pass' pad and the pass before it are two full-size
# temporaries live at once (34 MiB for a float64 uniform filter of size 9 at
# 128x128x128, past glibc's 32 MiB mmap threshold: page-faulted on every call; with
# malloc pinned the filters took about half the time). Slab by slab, float64 at
# 128x128x128 (16 MiB; temporaries 20-28 MiB forward, 20-24 VJP): gaussian sigma
# 1/2/4 and uniform 3/9 took 0.49-0.87x the time forward and 0.35-0.83x VJP; float32
# there (8 MiB, 16-20 MiB of temporaries whole) took up to 1.8x longer so
# (docs/performance.md, "scipy filters: 3-D passes on their own pads"). Slabs of about
# 2 MiB, as the box filters' (_BOX_SLAB_TARGET in _select.py).
_SLAB_BYTES = 15 << 20
_INT32_MAX = int(np.iinfo(np.int32).max)
_SLAB_TARGET = 2 << 20
# In the slab form's VJP, a first pass of at least this many taps transposes slab by
# slab too, along the second pass' axis: whole, its zero-padded strips (as long as the
# taps) took the VJP's temporaries to 29.5-42.5 MiB (float64 gaussian sigma 2-4 at
# 128x128x128). Two loops took 0.71-0.77x the VJP's time for 25-33 taps, 1.0x for 21,
# and 1.1-1.8x for 3-17 (docs/performance.md, "scipy filters: 3-D passes on their own
# pads").
_SLAB_FIRST_LOOP_TAPS_MIN = 21


def _slab_rows(shape, itemsize: int, axis: int) -> int | None:
    """The rows of ``axis`` per slab of the slab form (_SLAB_BYTES), or None."""
    if not all(isinstance(n, (int, np.integer)) for n in shape) or 0 in shape:
        return None  # symbolic or empty
    nbytes = int(np.prod(shape)) * itemsize
    n = shape[axis]
    if nbytes < _SLAB_BYTES or n < 2 or n > _INT32_MAX:
        # The loop's slab starts are int32: past 2**31 rows they would wrap and
        # dynamic_slice would clamp them to another slab.
        return None
    h = max(1, min(n, _SLAB_TARGET // (nbytes // n)))
    return h if h < n else None


def _slab_loop(y, axis: int, rows: int, fn):
    """``fn`` (shape-preserving, independent along ``axis``) applied to slabs of
    ``rows`` rows of y along ``axis``, written in place into one buffer by a loop: as
    pieces joined by a concatenate, XLA kept every piece's temporaries live at once
    (the box filters' _BOX_SLAB_BYTES in _select.py)."""
    n = y.shape[axis]

    def body(i, acc):
        # The last slab starts at n - rows (overlapping the one before: the same
        # values written twice).
        start = jnp.minimum(i * rows, n - rows)
        v = fn(lax.dynamic_slice_in_dim(y, start, rows, axis=axis))
        return lax.dynamic_update_slice_in_dim(acc, v, start, axis=axis)

    return lax.fori_loop(0, -(-n // rows), body, jnp.zeros(y.shape, y.dtype))


def _padded_passes_impl(x, cval, *, passes, begins, ends, modes, cpu=None):
    last = x.ndim - 1
    if len(passes) >= _AXIS_PASSES_MIN and _on_cpu(cpu) and 0 not in x.shape:
        # Each pass on its own axis' pad (index-map modes: padding an axis commutes
        # with a pass along another), outer axis first, the pad written before the
        # pass reads it (_AXIS_PASSES_MIN).
        def own_pads(y, chosen):
            for axis, w in chosen:
                b, e = [0] * x.ndim, [0] * x.ndim
                b[axis], e[axis] = begins[axis], ends[axis]
                y = _passes(lax.optimization_barrier(padded(y, cval, b, e, modes)), [(axis, w)])
            return y

        first = passes[0][0]
        rows = _slab_rows(x.shape, np.dtype(x.dtype).itemsize, first)
        if rows is None:
            return own_pads(x, passes)
        # The first pass reads x and padded strips of its ends (no full-size pad), the
        # others run slab by slab along its axis (_SLAB_BYTES).
        b, e = [0] * x.ndim, [0] * x.ndim
        b[first], e[first] = begins[first], ends[first]
        y = _edge_pass(x, cval, passes[0], b, e, modes)
        return _slab_loop(y, first, rows, lambda v: own_pads(v, passes[1:]))
    if _flat_minor(passes, x.shape):
        # The other pass on x (_edge_pass), then the minor axis' pad of its result and
        # the minor pass over the rows laid end to end (_flat_pass). With
        # three passes the first two still fuse (and the flat pass measured slower
        # than one pad of every axis: 84 against 65 ms for a float64 uniform filter
        # of size 9 at 128x128x128, docs/scipy.md#performance).
        first_b, first_e = list(begins), list(ends)
        first_b[last] = first_e[last] = 0
        y = _edge_pass(x, cval, passes[0], first_b, first_e, modes)
        minor_b, minor_e = [0] * x.ndim, [0] * x.ndim
        minor_b[last], minor_e[last] = begins[last], ends[last]
        return _flat_pass(padded(y, cval, minor_b, minor_e, modes), passes[-1][1])
    return _passes(padded(x, cval, begins, ends, modes), passes)


def _edge_pass(x, cval, pass_, begins, ends, modes):
    """The 1-D pass ``pass_`` = (axis, weights) of ``padded(x, cval, begins, ends,
    modes)`` (padded along that axis only), without the padded array: the rows whose
    window lies inside x read x, and the first and last rows read the pad of a strip
    of x's first and last ``size`` rows (each mode sends a pad row at most that far
    into the axis, the wrap to the other end, which the strip holds too), joined by
    one concatenate that XLA:CPU fuses with the pass.

    XLA split the padded array's concatenate into one full copy per group of taps
    that read it (two 8 MiB copies for a float64 Gaussian of sigma 1 at 1024x1024):
    gaussian sigma 1 and the uniform filters of size 3 and 9 took 2.0-2.8 ms against
    1.1-1.9 ms so, and 1.8-2.3 ms as ``jnp.pad`` then ``lax.conv``, on one core
    (docs/scipy.md#performance)."""
    axis, w = pass_
    n, size = x.shape[axis], len(w)
    if n < 2 * size:
        return _passes(padded(x, cval, begins, ends, modes), [pass_])
    strip = lax.concatenate(
        [lax.slice_in_dim(x, 0, size, axis=axis), lax.slice_in_dim(x, n - size, n, axis=axis)],
        axis,
    )
    strip = padded(strip, cval, begins, ends, modes)
    m = strip.shape[axis]
    b, e = begins[axis], ends[axis]
    top = _passes(lax.slice_in_dim(strip, 0, b + size - 1, axis=axis), [pass_])
    bottom = _passes(lax.slice_in_dim(strip, m - (e + size - 1), m, axis=axis), [pass_])
    return lax.concatenate([top, _passes(x, [pass_]), bottom], axis)


def _passes(y, passes):
    for axis, w in passes:
        out = list(y.shape)
        out[axis] -= len(w) - 1
        y = _impl(y, weights=_pass_key(y.ndim, axis, w), out_shape=tuple(out))
    return y


def _flat_pass(yp, w):
    """The 'valid' correlation of yp's last axis with ``w``, computed on yp flattened
    (each row's last len(w) - 1 outputs read the next row, and are dropped).

    The slices of a 1-D view are not slices of the pad's concatenate, which XLA
    splits into one concatenate per tap (a copy each) when sliced along the minor
    axis, and XLA:CPU never fuses a concatenate on the minor axis: so the pad is
    written once, and the passes before it once, instead of being evaluated again for
    each tap of this pass (a float64 uniform filter of size 9 at 1024x1024: 3.4 ms
    against 28 ms for those copies and 10-11 ms for the recomputation;
    docs/scipy.md#performance)."""
    size = len(w)
    flat = yp.reshape(-1)
    out = _impl(flat, weights=_key(np.asarray(w)), out_shape=(flat.shape[0] - size + 1,))
    out = lax.pad(out, jnp.zeros((), out.dtype), [(0, size - 1, 0)]).reshape(yp.shape)
    return lax.slice_in_dim(out, 0, yp.shape[-1] - size + 1, axis=yp.ndim - 1)


def _padded_passes_transpose(ct, x, cval, *, passes, begins, ends, modes):
    x_shape = _shape_of(x)
    if type(ct) is ad.Zero:
        return _zero_ct(x), _zero_ct(cval)
    k_shape = [1] * len(x_shape)
    for axis, w in passes:
        k_shape[axis] = len(w)
    weights = (tuple(k_shape), (((0,) * len(k_shape), 1.0),))  # the geometry only
    if (
        len(passes) == 2
        and min(len(w) for _, w in passes) >= _FULL_PASSES_TAPS_MIN
        and all(isinstance(n, (int, np.integer)) for n in x_shape)
    ):
        return _full_passes_transpose(ct, x, cval, passes, begins, ends, modes)
    if (
        len(x_shape) in _BAND_PASSES_NDIMS
        and _band_taken(x_shape, weights, begins, ends, x_shape, True, _BAND_PASSES_SHARE_MAX)
        and (k_shape[0] > _FUSED_TAPS_MAX or k_shape[0] * k_shape[-1] <= _BAND_PASSES_READS_MAX)
        and not (ad.is_undefined_primal(cval) and "constant" in modes)
    ):
        g = _band_passes_transpose(ct, passes, begins, ends, modes, tuple(k_shape))
        return (g if ad.is_undefined_primal(x) else None), _zero_ct(cval)
    return _padded_passes_fold(ct, x, cval, passes=passes, begins=begins, ends=ends, modes=modes)


# Two passes (a 2-D filter, or a batch of them) of at least this many taps each
# transpose over the whole zero-padded cotangent: the transposed passes, each one's
# input written to memory first (taps_p's ``barrier``), then jaxpad's fold of the
# frame, read from that result. The band form (below) made strips as long as the
# taps: a gaussian of sigma 4 (33 taps) at 1024x1024 took 0.59x (float32) and 0.66x
# (float64) the band form's VJP time so, sigma 3 (25 taps) 1.0x and 0.80x, sigma 2.5
# (21) 1.03x and 0.89x; sigma 2 (17) 1.07x and 1.15x (docs/performance.md, "scipy
# filters: the 2-D VJP of long passes").
_FULL_PASSES_TAPS_MIN = 21


def _full_passes_transpose(ct, x, cval, passes, begins, ends, modes):
    """The transpose of a padded_passes of two long passes: the transposed passes over
    ct zero-padded by each pass' length - 1, then the fold of the padded domain."""
    x_shape = _shape_of(x)
    cval_aval = cval.aval if ad.is_undefined_primal(cval) else jax.typeof(cval)
    ndim = len(x_shape)
    pads = [(0, 0, 0)] * ndim
    for axis, w in passes:
        pads[axis] = (len(w) - 1, len(w) - 1, 0)
    full = _embed(ct, 0, pads)
    for axis, w in reversed(passes):
        out = list(full.shape)
        out[axis] -= len(w) - 1
        weights = _pass_key(ndim, axis, np.asarray(w)[::-1])
        full = taps_p.bind(full, weights=weights, out_shape=tuple(out), barrier=True)
    e_shape = [n + b + e for n, b, e in zip(x_shape, begins, ends)]

    def block(axis, start, stop):
        return full if axis is None else lax.slice_in_dim(full, start, stop, axis=axis)

    g, cval_ct = _fold(block, e_shape, begins, ends, modes, jnp.zeros((), cval_aval.dtype))
    return (
        g if ad.is_undefined_primal(x) else None,
        cval_ct.astype(cval_aval.dtype) if ad.is_undefined_primal(cval) else None,
    )


def _band_passes_transpose(ct, passes, begins, ends, modes, k_shape):
    """x's cotangent of a 2-D padded_passes in the band form (_band_transpose): between
    the bands, the transposed minor pass through ct's flat view, then the transposed
    outer pass on its rows; in the bands, the transpose of a strip (_padded_passes_fold)."""
    n, m = ct.shape
    per_axis = dict(passes)
    c, dropped = ct, 0
    if 1 in per_axis:
        w = per_axis[1][::-1]
        entries = tuple(((0, j), v) for j, v in enumerate(w) if v != 0)
        c = _band_main(ct, entries, (0, ends[1]), 1)
        dropped = 1
    rows = _band_rows(0, begins[0], ends[0])
    if 0 in per_axis:
        w = per_axis[0][::-1]
        start = rows - ends[0] - dropped
        part = lax.slice_in_dim(c, start, start + n - 2 * rows + len(w) - 1, axis=0)
        c = _impl(part, weights=_pass_key(2, 0, w), out_shape=(n - 2 * rows, m))
    zero = jnp.zeros((), ct.dtype)

    def strip_fn(strip):
        g, _ = _padded_passes_fold(
            strip, ad.UndefinedPrimal(jax.typeof(strip)), zero,
            passes=passes, begins=begins, ends=ends, modes=modes,
        )  # fmt: skip
        return g

    return _band_assemble(ct, c, strip_fn, k_shape, begins, ends)


def _padded_passes_fold(ct, x, cval, *, passes, begins, ends, modes):
    """The transpose as transposed passes, then jaxpad's fold."""
    x_shape = _shape_of(x)
    cval_aval = cval.aval if ad.is_undefined_primal(cval) else jax.typeof(cval)
    if 0 in x_shape:
        return jnp.zeros(x_shape, ct.dtype), jnp.zeros((), cval_aval.dtype)
    ndim = len(x_shape)
    e_shape = [n + b + e for n, b, e in zip(x_shape, begins, ends)]

    # The minor pass' transpose is not run through _flat_pass: on the cotangent
    # zero-padded by a concatenate it measured slower than these slices (float64
    # uniform 9 at 1024x1024: 6.6 against 4.7 ms; docs/scipy.md#performance).

    def transposed(c, axis, w, rows=None, direct=False):
        # The pass' transpose along ``axis``: c zero-padded by len(w) - 1 on each side,
        # correlated with the reversed weights; ``rows`` = (start, stop) of the result
        # along axis (default: all), read from c's rows [start - len(w) + 1, stop).
        n, size = c.shape[axis], len(w)
        start, stop = rows if rows is not None else (0, n + size - 1)
        # In 2-D, along the outer axis, the rows whose window lies inside c read c
        # itself, joined to the edge rows by a concatenate that XLA:CPU fuses (as the
        # forward's _edge_pass): c zero-padded whole was one more copy of it (the
        # VJP of a float64 uniform filter of size 3 at 1024x1024: 2.3 against 2.9 ms;
        # in 3-D it measured no faster; docs/scipy.md#performance). So does the first
        # axis of the slab form (``direct``), whose c is the slabs' result.
        inner = max(start, size - 1), min(stop, n)
        if (len(passes) == 2 or direct) and axis != ndim - 1 and inner[1] - inner[0] >= size:
            pieces = [transposed(c, axis, w, (start, inner[0]))] if start < inner[0] else []
            out = list(c.shape)
            out[axis] = inner[1] - inner[0]
            part = lax.slice_in_dim(c, inner[0] - size + 1, inner[1], axis=axis)
            pieces.append(
                taps_p.bind(part, weights=_pass_key(ndim, axis, w[::-1]), out_shape=tuple(out))
            )
            if inner[1] < stop:
                pieces.append(transposed(c, axis, w, (inner[1], stop)))
            return lax.concatenate(pieces, axis) if len(pieces) > 1 else pieces[0]
        lo, hi = max(0, start - size + 1), min(n, stop)
        part = lax.slice_in_dim(c, lo, hi, axis=axis) if (lo, hi) != (0, n) else c
        pads = [(0, 0, 0)] * ndim
        pads[axis] = (lo - (start - size + 1), stop - hi, 0)
        out = list(c.shape)
        out[axis] = stop - start
        return taps_p.bind(
            _embed(part, 0, pads),
            weights=_pass_key(ndim, axis, w[::-1]),
            out_shape=tuple(out),
            barrier=len(passes) >= _AXIS_PASSES_MIN,
        )

    if len(passes) >= _AXIS_PASSES_MIN:
        # As the forward (each axis' own pad): each transposed pass in reverse order,
        # its axis folded before the next, on XLA:CPU its zero-padded cotangent
        # written to memory first (taps_p's ``barrier``). Transposing all the passes
        # over the padded domain then folding every axis (below) took up to 3.9x as
        # long in float32 (gaussian sigma 4 at 128x128x128: 24.3 against 10.8 ms;
        # docs/performance.md, "scipy filters: 3-D passes on their own pads").
        def per_axis(g, chosen, direct=False):
            cval_ct = jnp.zeros((), cval_aval.dtype)
            for axis, w in reversed(chosen):
                b, e = [0] * ndim, [0] * ndim
                b[axis], e[axis] = begins[axis], ends[axis]
                shape = list(g.shape)
                shape[axis] += b[axis] + e[axis]

                def one(ax, start, stop, g=g, axis=axis, w=w):
                    rows = None if ax is None else (start, stop)
                    return transposed(g, axis, w, rows, direct)

                g, more = _fold(one, shape, b, e, modes, jnp.zeros((), cval_aval.dtype))
                cval_ct = cval_ct + more
            return g, cval_ct

        first = passes[0][0]
        rows = _slab_rows(tuple(x_shape), np.dtype(ct.dtype).itemsize, first)
        if rows is None or "constant" in modes:
            g, cval_ct = per_axis(ct, passes)
        else:
            # As the forward's slab form (_SLAB_BYTES): the other passes' transposes
            # slab by slab along the first pass' axis, then the first's on the whole,
            # reading that result itself between zero-padded strips of its ends (a
            # zero pad of the whole was a second full-size temporary).
            g = _slab_loop(ct, first, rows, lambda c: per_axis(c, passes[1:])[0])
            second = passes[1][0]
            rows2 = _slab_rows(tuple(x_shape), np.dtype(ct.dtype).itemsize, second)
            if rows2 is None or len(passes[0][1]) < _SLAB_FIRST_LOOP_TAPS_MIN:
                g, cval_ct = per_axis(g, passes[:1], direct=True)
            else:
                # A long first pass' transpose slab by slab along the second pass'
                # axis too (_SLAB_FIRST_LOOP_TAPS_MIN).
                g = _slab_loop(g, second, rows2, lambda c: per_axis(c, passes[:1], direct=True)[0])
                cval_ct = jnp.zeros((), cval_aval.dtype)
        return (
            g if ad.is_undefined_primal(x) else None,
            cval_ct.astype(cval_aval.dtype) if ad.is_undefined_primal(cval) else None,
        )

    def block(axis, start, stop):
        # Rows [start, stop) along ``axis`` of the transposed passes (the passes on
        # the other axes commute with a choice of rows along this one, so the pass on
        # this axis runs first, on the rows it needs).
        c = ct
        if axis is not None:
            c = transposed(c, axis, dict(passes)[axis], (start, stop))
        for ax, w in reversed(passes):
            if ax != axis:
                c = transposed(c, ax, w)
        return c

    g, cval_ct = _fold(block, e_shape, begins, ends, modes, jnp.zeros((), cval_aval.dtype))
    return (
        g if ad.is_undefined_primal(x) else None,
        cval_ct.astype(cval_aval.dtype) if ad.is_undefined_primal(cval) else None,
    )


def _padded_passes_batch(args, dims, *, passes, begins, ends, modes):
    x, cval = args
    dx, dc = dims
    params = dict(passes=passes, begins=begins, ends=ends, modes=modes)
    if dc is not None:
        fn = functools.partial(_padded_passes_impl, **params)
        return jax.vmap(fn, in_axes=(dx, dc))(x, cval), 0
    x = jnp.moveaxis(x, dx, 0)
    return padded_passes_p.bind(
        x,
        cval,
        passes=tuple((axis + 1, w) for axis, w in passes),
        begins=(0, *begins),
        ends=(0, *ends),
        modes=(modes[0], *modes),
    ), 0


padded_passes_p.def_impl(_padded_passes_impl)
padded_passes_p.def_abstract_eval(lambda x, cval, **_: x.update(shape=x.shape, dtype=x.dtype))
ad.deflinear2(padded_passes_p, _padded_passes_transpose)
batching.primitive_batchers[padded_passes_p] = _padded_passes_batch
mlir.register_lowering(
    padded_passes_p,
    mlir.lower_fun(functools.partial(_padded_passes_impl, cpu=False), multiple_results=False),
)
mlir.register_lowering(
    padded_passes_p,
    mlir.lower_fun(functools.partial(_padded_passes_impl, cpu=True), multiple_results=False),
    platform="cpu",
)
