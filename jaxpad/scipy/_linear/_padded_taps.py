"""``jaxpad_scipy_padded_taps``: the correlation of a padded array, pad and taps as
one primitive, and its band form.

The transpose of ``taps(jaxpad.pad(x))`` is jaxpad's fold of the transposed taps. XLA
fuses the two into one loop, and the fold's pads and reverses in that loop keep it
from vectorising: the loop then evaluates the whole transposed sum once per use, one
element at a time (gaussian sigma 4 at 1024x1024: 60-1000 ms against 3-8 ms forward,
docs/scipy.md#gradients; an optimization_barrier between them is dropped by XLA:CPU).
The primitives here and in ``_padded_passes.py`` keep the pad and the combination
together, so that their transpose can split the fold: the interior rows of each padded
axis are the transposed sum alone (one vectorised loop), and only the frame (the rows
that the pad wrote) goes through jaxpad's fold, on a small array, added into the edges
in place.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad.scipy._linear._taps import _impl, _key, taps_p
from jaxpad.scipy._padding import _embed, _fold, _shape_of, _zero_ct, padded

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
# band form", whose tables set the constants below and _padded_passes.py's
# _BAND_PASSES_ ones).
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
_BAND_NDIMS = (2, 3)
_BAND_MIN_SIZE = 1 << 17
_BAND_STRIP_SHARE_MAX = 0.25


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
