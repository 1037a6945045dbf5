"""``jaxpad_scipy_padded_passes``: a separable filter's 1-D passes over its pad, as
one primitive whose transpose folds the pad's frame alone (``_padded_taps.py``'s
docstring), with the forms the passes and their transposes take on XLA:CPU.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad.scipy._linear._padded_taps import (
    _band_assemble,
    _band_main,
    _band_rows,
    _band_taken,
)
from jaxpad.scipy._linear._taps import _impl, _key, _on_cpu, taps_p
from jaxpad.scipy._padding import _embed, _fold, _shape_of, _zero_ct, padded

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

# The band form of the transpose (_band_passes_transpose; the band form's comment in
# _padded_taps.py, docs/performance.md, "scipy filters: the band form"):
# - _BAND_PASSES_NDIMS, _BAND_PASSES_SHARE_MAX: the separable filters' transpose in
#   2-D, while the strips are at most an eighth of the axes: gaussian sigma 1 at
#   256x256 (share 0.22) took 1.9x as long, sigma 2 at 1024x1024 (0.10) 0.75x,
#   uniform 3 0.24-0.38x.
# - _BAND_PASSES_READS_MAX: XLA:CPU fuses the transposed minor pass into the outer one
#   when that reads it at up to _FUSED_TAPS_MAX places, evaluating it again at each:
#   taken when that costs at most 9 reads (3x3: uniform 3 and sobel 0.24-0.38x) or
#   when it is not fused (gaussian sigma 2, 17 taps: 0.42-0.75x); uniform 9 and
#   gaussian sigma 1 (81 reads) took 1.3-1.7x as long on one core.
_BAND_PASSES_NDIMS = (2,)
_BAND_PASSES_SHARE_MAX = 0.125
_BAND_PASSES_READS_MAX = 9


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
# 2 MiB, as the box filters' (_BOX_SLAB_TARGET in
# jaxpad/scipy/_selection/_box.py).
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
    (the box filters' _BOX_SLAB_BYTES in _selection/_box.py)."""
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
