"""The minimum, maximum and rank filters as primitives, and their tangents.

``extreme(x, cval)`` (``jaxpad_scipy_extreme``) is the min/max of each window of
``size`` along one axis of the padded ``x`` (one pass of ``minimum_filter``/
``maximum_filter``); ``selection(x, cval)`` (``jaxpad_scipy_selection``) the min, max
or rank of each window of a footprint. The tangent of an output is the tangent of the
window's first element (row-major) equal to it, the first NaN where it is NaN.

They are primitives, not ``custom_jvp``s: ``jax.experimental.jet`` runs a
``custom_jvp``'s function under its own trace and leaks a tracer (jax 0.10.2, for any
``custom_jvp``, ``jax.nn.relu`` too), so Taylor mode needs rules of its own
(jaxpad/scipy/_jet.py).

A pass of up to ``_WINNER_MAX`` elements takes ``winner_p(dx, dcval, x, cval, y)``
(``jaxpad_scipy_extreme_winner``, linear in ``(dx, dcval)``) as its tangent. It carries
no index: its transpose gives each padded element ``j`` the cotangents of the windows
it wins, ``sum_k ct[j - k] * [j wins window j - k]``, where ``j`` wins window
``i = j - k`` when ``xp[j]`` is strictly above (below, for a minimum) every element of
``xp[i:j]`` and not below any of ``xp[j + 1 : i + size]``: running extremes on both
sides of ``j``, fused with the cotangent reads into one loop. Longer passes and the
footprints read the element's index with ``selected_p`` (``jaxpad_scipy_selected``),
whose transpose gathers each element's cotangents over x's own shape and folds the
pad's thin strips (docs/scipy.md#performance).

A box of min/max passes (``box``) is those passes bound one by one, except on arrays
past ``_BOX_SLAB_BYTES`` with two or more passes off axis 0: there one primitive
(``jaxpad_scipy_box``) runs those passes slab by slab along axis 0 in a loop, then the
pass along axis 0, so that two full-size intermediates are never live together; its
derivatives are the passes' own. The footprint and rank filters' forward reads its
pad through the flat view past ``_FLAT_SELECT_BYTES``.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import jet
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad.scipy._taps import _embed, _fold, _shape_of, _zero_ct, padded

# A min/max pass of a window up to this size takes ``winner`` as its tangent (no
# index: the transpose tests each window's winner beside the cotangent reads); longer
# ones carry the selected element's index through the forward's doubling and read it
# with ``selected``. The winner form's VJP took 0.43-0.77x the index form's at
# size 3 (1024x1024 and 128x128x128, float32 and float64) but 0.9-1.4x at sizes 5
# and 9, whose loop tests 2 (size - 1) running extremes per element
# (docs/scipy.md#performance; the index form then read by padded_select, whose
# successor ``selected`` took 0.78-0.97x its time at sizes 5 and 9: larger sizes
# only moved further from the winner form; docs/performance.md, "scipy filters: the
# selection VJP over x's shape").
_WINNER_MAX = 3
# A footprint or rank filter's forward reads its pad through the flat view
# (_flat_select) once the pad exceeds this many bytes. Sliced per window element, XLA
# split the pad's concatenates into a copy per reader: the float64 3x3x3 median at
# 128x128x128 needed 82.7 MiB of temporaries (33.7 so) and took 1.6x as long; median
# 3 and 5 took 1.07-2.1x longer at 512x512 (a 1 MiB pad in float32), 1024x1024 and
# 128x128x128 in both dtypes; smaller pads were not measured
# (docs/performance.md, "the float64 maximum filters at 128x128x128").
_FLAT_SELECT_BYTES = 1 << 20

# A box of at least two passes along axes other than 0, on an array of at least this
# many bytes, runs those passes slab by slab along axis 0 (``box_p``), then the pass
# along axis 0, if any, over the whole: run whole, each pass' output (and pad) is a
# full-size temporary, and two of them (2 x 16 MiB for float64 at 128x128x128) put
# XLA:CPU's block of temporaries past glibc's 32 MiB mmap threshold, page-faulted on
# every call (8.4-8.7 thousand faults). Slab by slab they take 18-20 MiB: the float64
# maximum filter at 128x128x128 took 2.3-3.6x less time; below this size (float32
# 128x128x128, 16-17 MiB, no faults) size 5 took 1.15x longer so
# (docs/performance.md, "the float64 maximum filters at 128x128x128").
_BOX_SLAB_BYTES = 15 << 20
# Each slab of the box's slab form holds about this many bytes of x (rows of axis 0):
# slabs of 1-4 MiB took about the same time (float64 maximum 3 at 128x128x128: 6.3-6.9
# ms; 9: 10.4-11.2 ms), 0.5 MiB up to 1.14x longer and 8 MiB 1.45x (same section).
_BOX_SLAB_TARGET = 2 << 20

extreme_p = Primitive("jaxpad_scipy_extreme")
winner_p = Primitive("jaxpad_scipy_extreme_winner")


def _geometry(ndim, size, axis, begin, mode):
    begins = [0] * ndim
    ends = [0] * ndim
    begins[axis] = begin
    ends[axis] = size - 1 - begin
    return begins, ends, [mode] * ndim


def extreme(x, cval, *, size: int, axis: int, begin: int, mode: str, minimum: bool, flat: bool):
    """The min/max over ``x[i - begin : i - begin + size]`` along ``axis`` of the
    padded ``x`` (one pass of a minimum/maximum filter); ``flat``: the forms of
    short windows (``_FLAT_EXTREME_MAX`` in _ndimage.py)."""
    return extreme_p.bind(
        x,
        jnp.asarray(cval, x.dtype),
        size=size,
        axis=axis,
        begin=begin,
        mode=mode,
        minimum=minimum,
        flat=flat,
    )


def _doubling(y, size, axis, minimum):
    """min/max over windows of ``size``: windows of 1, 2, 4, ... by doubling, then two
    overlapping power-of-two windows (log2(size) + 1 operations)."""
    op = jnp.minimum if minimum else jnp.maximum
    width = 1
    while 2 * width <= size:
        m = y.shape[axis] - width
        y = op(
            lax.slice_in_dim(y, 0, m, axis=axis),
            lax.slice_in_dim(y, width, width + m, axis=axis),
        )
        width *= 2
    if width < size:
        shift = size - width
        m = y.shape[axis] - shift
        y = op(
            lax.slice_in_dim(y, 0, m, axis=axis),
            lax.slice_in_dim(y, shift, shift + m, axis=axis),
        )
    return y


def _extreme_impl(x, cval, *, size, axis, begin, mode, minimum, flat):
    begins, ends, modes = _geometry(x.ndim, size, axis, begin, mode)
    n = x.shape[axis]
    if axis != x.ndim - 1 and flat and n >= 2 * size:
        # Along another axis, the outputs whose window lies inside x read x, and the
        # first and last read the pad of a strip of x's first and last rows (as the
        # linear filters' _edge_pass): the padded array was split by XLA into a copy
        # per read offset (float32 maximum 3 at 128x128x128: 23 against 5.9 ms;
        # docs/scipy.md#performance).
        strip = lax.concatenate(
            [
                lax.slice_in_dim(x, 0, size, axis=axis),
                lax.slice_in_dim(x, n - size, n, axis=axis),
            ],
            axis,
        )
        strip = padded(strip, cval, begins, ends, modes)
        m = strip.shape[axis]
        top = _doubling(
            lax.slice_in_dim(strip, 0, begins[axis] + size - 1, axis=axis), size, axis, minimum
        )
        bottom = _doubling(
            lax.slice_in_dim(strip, m - (ends[axis] + size - 1), m, axis=axis),
            size,
            axis,
            minimum,
        )
        return lax.concatenate([top, _doubling(x, size, axis, minimum), bottom], axis)
    yp = padded(x, cval, begins, ends, modes)
    if axis != x.ndim - 1 or x.ndim < 2 or not flat:
        return _doubling(yp, size, axis, minimum)
    # Along the minor axis, through the flat view (as the linear filters' _flat_pass):
    # sliced along the minor axis, the pad's concatenate is split by XLA into one copy
    # per read offset, which for size 3 doubled the temporaries to 32 MiB in float64 at
    # 1024x1024, page-faulted on every call.
    flat_y = _doubling(yp.reshape(-1), size, 0, minimum)
    flat_y = lax.pad(flat_y, jnp.zeros((), flat_y.dtype), [(0, size - 1, 0)])
    return lax.slice_in_dim(flat_y.reshape(yp.shape), 0, x.shape[-1], axis=axis)


def _arg_extreme(xp, size: int, axis: int, minimum: bool):
    """(y, index): y[i] = the min/max of xp[i : i + size] along ``axis``, and the offset
    in that window of its first element equal to y (of its first NaN, where y is NaN),
    by the doubling of ``_doubling`` with each value's offset carried beside it: a tie
    keeps the left (earlier) element."""
    index_dtype = np.int8 if size < 127 else np.int32

    def step(v, i, shift):
        m = v.shape[axis] - shift
        left, right = (lax.slice_in_dim(v, s, s + m, axis=axis) for s in (0, shift))
        i_left, i_right = (lax.slice_in_dim(i, s, s + m, axis=axis) for s in (0, shift))
        keep = (left <= right) if minimum else (left >= right)
        keep = keep | (left != left)  # a NaN on the left is the first NaN
        return jnp.where(keep, left, right), jnp.where(
            keep, i_left, i_right + jnp.asarray(shift, index_dtype)
        )

    v, i = xp, jnp.zeros(xp.shape, index_dtype)
    width = 1
    while 2 * width <= size:
        v, i = step(v, i, width)
        width *= 2
    if width < size:
        # Two overlapping windows [0, width) and [size - width, size): on a tie the
        # first holds the first occurrence (the second starts inside it).
        v, i = step(v, i, size - width)
    return v, i


def _extreme_linearize(x, cval, params):
    """(y, tangent): the pass and its tangent map ``(dx, dcval) -> dy``, linear."""
    size, axis, minimum = params["size"], params["axis"], params["minimum"]
    if size <= _WINNER_MAX or 0 in x.shape:
        y = extreme_p.bind(x, cval, **params)
        return y, lambda dx, dcval: winner_p.bind(dx, dcval, x, cval, y, **params)
    # Longer windows: the index of the selected element carried through the doubling
    # on the pass' own pad, read by one ``selected``.
    begins, ends, modes = _geometry(x.ndim, size, axis, params["begin"], params["mode"])
    xp = padded(x, cval, begins, ends, modes)
    last = x.ndim - 1
    if x.shape[-1] >= 2:
        # Two halves of the minor axis joined by a concatenate, which XLA:CPU does not
        # fuse: the index is written once, where fused into the transpose it is
        # evaluated again at each window read (docs/scipy.md#performance).
        half = x.shape[-1] // 2
        reach = size - 1 if axis == last else 0
        halves = [
            lax.slice_in_dim(xp, start, stop, axis=last)
            for start, stop in ((0, half + reach), (half, xp.shape[last]))
        ]
        n, b = x.shape[-1], begins[last]
        if axis == last and isinstance(n, int) and b <= half and half + reach - b <= n:
            # Along the minor axis each half is its side of the pad and x's columns,
            # joined: sliced from the whole pad, XLA:CPU wrote all of x twice, beside
            # each side of the pad (8.25 MiB each in float32 at 128x128x128, where the
            # VJP's temporaries came to 32.9 MiB, past glibc's mmap threshold: maximum
            # 9 took 34 against 23.6 ms so; docs/performance.md, "the maximum filters'
            # VJP").
            halves = [
                lax.concatenate([halves[0][..., :b], x[..., : half + reach - b]], last),
                lax.concatenate([x[..., half - b :], halves[1][..., n - half + b :]], last),
            ]
        parts = [_arg_extreme(v, size, axis, minimum) for v in halves]
        y = lax.concatenate([p[0] for p in parts], last)
        index = lax.concatenate([p[1] for p in parts], last)
    else:
        y, index = _arg_extreme(xp, size, axis, minimum)
    offsets = []
    for k in range(size):
        offset = [0] * x.ndim
        offset[axis] = k
        offsets.append(tuple(offset))
    # Read by ``selected`` over the outputs (its transpose gathers over x's shape);
    # padded_select's index over the output extended by size - 1 each side, and its
    # transpose (ct zero-padded, the fold of the whole padded array), took 1.03-1.29x
    # as long (maximum 5 and 9, 1024x1024 and 128x128x128, float32 and float64;
    # docs/performance.md, "scipy filters: the selection VJP over x's shape").
    window = tuple(size if d == axis else 1 for d in range(x.ndim))
    return y, lambda dx, dcval: selected_p.bind(
        dx,
        dcval,
        index,
        offsets=tuple(offsets),
        begins=tuple(begins),
        ends=tuple(ends),
        modes=tuple(modes),
        window=window,
    )


def _extreme_jvp(primals, tangents, **params):
    x, cval = primals
    y, tangent = _extreme_linearize(x, cval, params)
    return y, tangent(*(ad.instantiate_zeros(t) for t in tangents))


def _scan_batch(prim, args, dims, params):
    """The batch of a primitive with a batched ``cval`` (a per-example constant),
    one example at a time; rare enough not to need a vectorised form."""
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    args = [batching.bdim_at_front(a, d, size) for a, d in zip(args, dims)]
    return lax.map(lambda a: prim.bind(*a, **params), args), 0


def _extreme_batch(args, dims, **params):
    x, cval = args
    dx, dc = dims
    if dc is not None:
        return _scan_batch(extreme_p, args, dims, params)
    x = batching.bdim_at_front(x, dx, x.shape[dx])
    return extreme_p.bind(x, cval, **{**params, "axis": params["axis"] + 1}), 0


def _winner_impl(dx, dcval, x, cval, y, *, size, axis, begin, mode, minimum, flat):
    # out[i] = dxp[i + k] for the first k with xp[i + k] == y[i] (or a NaN): the
    # reversed chain of selects leaves the first.
    del minimum, flat
    begins, ends, modes = _geometry(x.ndim, size, axis, begin, mode)
    xp = padded(x, cval, begins, ends, modes)
    dxp = padded(dx, dcval, begins, ends, modes)
    n = y.shape[axis]
    out = jnp.zeros(y.shape, dx.dtype)
    for k in reversed(range(size)):
        view = lax.slice_in_dim(xp, k, k + n, axis=axis)
        hit = (view == y) | (view != view)
        out = jnp.where(hit, lax.slice_in_dim(dxp, k, k + n, axis=axis), out)
    return out


def _winner_jvp(primals, tangents, **params):
    # Linear in (dx, dcval); piecewise constant in (x, cval, y).
    dx, dcval, x, cval, y = primals
    tdx, tdcval = (ad.instantiate_zeros(t) for t in tangents[:2])
    out = winner_p.bind(dx, dcval, x, cval, y, **params)
    return out, winner_p.bind(tdx, tdcval, x, cval, y, **params)


def _winner_rows(ct, xrows, size, a, minimum, start, stop):
    """Rows [start, stop) along ``a`` of the transposed winner over the padded domain:
    g[j] = sum_k ct[j - k] * [j wins window j - k], ct zero outside its rows.

    j wins window i = j - k when xp[j] is above every element of xp[i:j] and not below
    any of xp[j + 1 : i + size] (for a maximum): a running max on each side of j, so
    the loop reads xp and ct, not the forward's output (whose producer XLA fused into
    this loop at each of its reads: 3-4x the VJP's time)."""
    s1 = size - 1
    n = ct.shape[a]
    m = stop - start
    lo, hi = max(0, start - s1), min(n, stop)
    ctr = lax.slice_in_dim(ct, lo, max(lo, hi), axis=a)
    if (lo - (start - s1), stop - max(lo, hi)) != (0, 0):
        pads = [(0, 0, 0)] * ct.ndim
        pads[a] = (lo - (start - s1), stop - max(lo, hi), 0)
        ctr = _embed(ctr, 0, pads)
    # Rows [start - s1, stop + s1) of xp: row r at r - (start - s1).
    xr = xrows(start - s1, stop + s1)

    def at(v, k):  # the rows j + k, j in [start, stop)
        return lax.slice_in_dim(v, s1 + k, s1 + k + m, axis=a)

    op = jnp.minimum if minimum else jnp.maximum
    xj = at(xr, 0)
    nan = xj != xj
    # after[r]: the max of xp[j + 1 : j + 1 + r], r = 1 .. s1.
    after: list = [None]
    for r in range(1, size):
        nxt = at(xr, r)
        after.append(nxt if after[-1] is None else op(after[-1], nxt))
    acc = None
    before = None
    for k in range(size):
        if k:
            prev = at(xr, -k)
            before = prev if before is None else op(before, prev)
        rest = after[s1 - k]
        tests = []
        if before is not None:  # strictly beyond the elements before j
            tests.append((before > xj) if minimum else (before < xj))
        if rest is not None:  # and not beaten by those after it
            tests.append((rest >= xj) if minimum else (rest <= xj))
        win = functools.reduce(jnp.logical_and, tests) if tests else jnp.full(xj.shape, True)
        # A NaN j wins the first window with no NaN before it in the window.
        win = jnp.where(nan, True if before is None else before == before, win)
        term = jnp.where(win, at(ctr, -k), 0)
        acc = term if acc is None else acc + term
    return acc


def _winner_transpose(ct, dx, dcval, x, cval, y, *, size, axis, begin, mode, minimum, flat):
    del flat, y
    x_shape = _shape_of(dx)
    cval_aval = dcval.aval if ad.is_undefined_primal(dcval) else jax.typeof(dcval)
    if type(ct) is ad.Zero:
        return _zero_ct(dx), _zero_ct(dcval), None, None, None
    if 0 in x_shape:
        return jnp.zeros(x_shape, ct.dtype), jnp.zeros((), cval_aval.dtype), None, None, None
    begins, ends, modes = _geometry(len(x_shape), size, axis, begin, mode)
    s1, n = size - 1, x_shape[axis]
    e = n + s1
    e_shape = list(x_shape)
    e_shape[axis] = e
    head = tail = None
    if n >= 4 * size:
        # xp's first begin + 2 size and last (s1 - begin) + 2 size rows, from the pad
        # of a strip of x's first and last 2 size rows (every mode reads only those).
        w = 2 * size
        strip = lax.concatenate(
            [lax.slice_in_dim(x, 0, w, axis=axis), lax.slice_in_dim(x, n - w, n, axis=axis)],
            axis,
        )
        strip = padded(strip, cval, begins, ends, modes)
        head = lax.slice_in_dim(strip, 0, begin + w, axis=axis)
        tail = lax.slice_in_dim(
            strip, strip.shape[axis] - (s1 - begin + w), strip.shape[axis], axis=axis
        )

    def xrows(lo, hi):
        # xp's rows [lo, hi), zero outside [0, e).
        lo_c, hi_c = max(0, lo), min(e, hi)
        if begin <= lo_c and hi_c <= begin + n:
            part = lax.slice_in_dim(x, lo_c - begin, hi_c - begin, axis=axis)
        elif head is not None and hi_c <= head.shape[axis]:
            part = lax.slice_in_dim(head, lo_c, hi_c, axis=axis)
        elif tail is not None and lo_c >= e - tail.shape[axis]:
            t0 = e - tail.shape[axis]
            part = lax.slice_in_dim(tail, lo_c - t0, hi_c - t0, axis=axis)
        else:
            part = lax.slice_in_dim(padded(x, cval, begins, ends, modes), lo_c, hi_c, axis=axis)
        if (lo_c - lo, hi - hi_c) != (0, 0):
            pads = [(0, 0, 0)] * len(x_shape)
            pads[axis] = (lo_c - lo, hi - hi_c, 0)
            part = _embed(part, 0, pads)
        return part

    def block(ax, start, stop):
        if ax is None:
            start, stop = 0, e
        # Rows whose reads lie inside x and ct read them; the others read strips.
        inner = (s1, n, begin + s1, begin + n - s1)
        cuts = sorted({start, stop, *(c for c in inner if start < c < stop)})
        pieces = [
            _winner_rows(ct, xrows, size, axis, minimum, s, t) for s, t in zip(cuts, cuts[1:])
        ] or [_winner_rows(ct, xrows, size, axis, minimum, start, stop)]
        return pieces[0] if len(pieces) == 1 else lax.concatenate(pieces, axis)

    g, cval_ct = _fold(block, e_shape, begins, ends, modes, jnp.zeros((), cval_aval.dtype))
    return (
        g if ad.is_undefined_primal(dx) else None,
        cval_ct.astype(cval_aval.dtype) if ad.is_undefined_primal(dcval) else None,
        None,
        None,
        None,
    )


def _winner_batch(args, dims, **params):
    if dims[1] is not None or dims[3] is not None:
        return _scan_batch(winner_p, args, dims, params)
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    dx, dcval, x, cval, y = args
    dx, x, y = (batching.bdim_at_front(a, d, size) for a, d in zip((dx, x, y), dims[::2]))
    return winner_p.bind(dx, dcval, x, cval, y, **{**params, "axis": params["axis"] + 1}), 0


extreme_p.def_impl(_extreme_impl)
extreme_p.def_abstract_eval(lambda x, cval, **_: x.update(shape=x.shape, dtype=x.dtype))
ad.primitive_jvps[extreme_p] = _extreme_jvp
batching.primitive_batchers[extreme_p] = _extreme_batch
mlir.register_lowering(extreme_p, mlir.lower_fun(_extreme_impl, multiple_results=False))

winner_p.def_impl(_winner_impl)
winner_p.def_abstract_eval(lambda dx, *_, **__: dx.update(shape=dx.shape, dtype=dx.dtype))
ad.primitive_jvps[winner_p] = _winner_jvp
ad.primitive_transposes[winner_p] = _winner_transpose
batching.primitive_batchers[winner_p] = _winner_batch
mlir.register_lowering(winner_p, mlir.lower_fun(_winner_impl, multiple_results=False))


# box(x, cval): the passes of a box minimum/maximum filter, one ``extreme`` after
# another (``passes`` in order, each (size, axis, begin, mode, flat)). Bound as one
# primitive only where its forward runs slab by slab (``_box_impl``); its tangent and
# Taylor terms are the passes' own, composed (``_box_linearize``), so derivatives
# read the same programs as the passes bound one by one.
box_p = Primitive("jaxpad_scipy_box")


def _slab_form(shape, itemsize, passes) -> bool:
    """Whether the box on an array of ``shape`` runs its passes off axis 0 slab by
    slab: two or more of them, any pass along axis 0 after them, and x past
    ``_BOX_SLAB_BYTES``."""
    axes = [p[1] for p in passes]
    inner = [a for a in axes if a != 0]
    return (
        len(shape) >= 2
        and all(isinstance(n, (int, np.integer)) for n in shape)  # not symbolic
        and 0 not in shape
        and 2 <= shape[0] <= np.iinfo(np.int32).max  # int32 slab starts (no wrap)
        and len(inner) >= 2
        and axes[: len(inner)] == inner  # the pass along axis 0 (if any) comes last
        and int(np.prod(shape)) * itemsize >= _BOX_SLAB_BYTES
    )


def box(x, cval, *, passes, minimum: bool):
    """The min/max over a box: ``extreme`` along each of ``passes`` (tuples
    ``(size, axis, begin, mode, flat)``, applied in order), the same values, tangents
    and Taylor terms as those passes bound one by one. Past ``_BOX_SLAB_BYTES`` the
    passes off axis 0 run slab by slab along it (one primitive, ``jaxpad_scipy_box``)."""
    passes = tuple((int(s), int(a), int(b), str(m), bool(f)) for s, a, b, m, f in passes)
    cval = jnp.asarray(cval, x.dtype)
    if _slab_form(x.shape, np.dtype(x.dtype).itemsize, passes):
        return box_p.bind(x, cval, passes=passes, minimum=minimum)
    for size, axis, begin, mode, flat in passes:
        x = extreme(
            x, cval, size=size, axis=axis, begin=begin, mode=mode, minimum=minimum, flat=flat
        )
    return x


def _pass_params(p, minimum):
    size, axis, begin, mode, flat = p
    return dict(size=size, axis=axis, begin=begin, mode=mode, minimum=minimum, flat=flat)


def _box_impl(x, cval, *, passes, minimum):
    if not _slab_form(x.shape, np.dtype(x.dtype).itemsize, passes):
        for p in passes:
            x = extreme_p.bind(x, cval, **_pass_params(p, minimum))
        return x
    inner = [p for p in passes if p[1] != 0]
    outer = [p for p in passes if p[1] == 0]
    n = x.shape[0]
    row = int(np.prod(x.shape[1:])) * np.dtype(x.dtype).itemsize
    h = max(1, min(n, _BOX_SLAB_TARGET // row))
    count = -(-n // h)

    def slab(i, c):
        # The last slab starts at n - h (overlapping the one before: the same values
        # written twice); the passes off axis 0 do not read across it.
        start = jnp.minimum(i * h, n - h)
        v = lax.dynamic_slice_in_dim(x, start, h, axis=0)
        for p in inner:
            v = extreme_p.bind(v, cval, **_pass_params(p, minimum))
        return lax.dynamic_update_slice_in_dim(c, v, start, axis=0)

    # The slabs written in place into one buffer (a loop: as separate pieces joined by
    # a concatenate or updates, XLA kept every piece's temporaries live at once).
    y = lax.fori_loop(0, count, slab, jnp.zeros(x.shape, x.dtype))
    for p in outer:
        # Along axis 0 from strips of its first and last rows, not a pad of the whole
        # (a second full-size temporary); the values are the same.
        y = extreme_p.bind(y, cval, **{**_pass_params(p, minimum), "flat": True})
    return y


def _box_plain(x, cval, *, passes, minimum):
    """The box's passes one after another, without the slab loop (for exporters
    that lower each primitive to a loop-free program, as jaxpad/onnx.py)."""
    for p in passes:
        x = _extreme_impl(x, cval, **_pass_params(p, minimum))
    return x


def _box_linearize(x, cval, params):
    """(y, tangent): the passes' own linearizations, composed."""
    tangents = []
    for p in params["passes"]:
        x, t = _extreme_linearize(x, cval, _pass_params(p, params["minimum"]))
        tangents.append(t)

    def tangent(dx, dcval):
        for t in tangents:
            dx = t(dx, dcval)
        return dx

    return x, tangent


def _box_jvp(primals, tangents, **params):
    x, cval = primals
    y, tangent = _box_linearize(x, cval, params)
    return y, tangent(*(ad.instantiate_zeros(t) for t in tangents))


def _box_batch(args, dims, *, passes, minimum):
    params = dict(passes=passes, minimum=minimum)
    if dims[1] is not None:
        return _scan_batch(box_p, args, dims, params)
    x = batching.bdim_at_front(args[0], dims[0], args[0].shape[dims[0]])
    shifted = tuple((s, a + 1, b, m, f) for s, a, b, m, f in passes)
    return box_p.bind(x, args[1], passes=shifted, minimum=minimum), 0


def _box_jet(primals_in, series_in, **params):
    # As _jet.py's rule for extreme_p: each coefficient goes through the same
    # selection as the tangent.
    x, cval = primals_in
    y, tangent = _box_linearize(x, cval, params)
    return y, [tangent(dx, dc) for dx, dc in zip(*series_in)]


box_p.def_impl(_box_impl)
box_p.def_abstract_eval(lambda x, cval, **_: x.update(shape=x.shape, dtype=x.dtype))
ad.primitive_jvps[box_p] = _box_jvp
batching.primitive_batchers[box_p] = _box_batch
mlir.register_lowering(box_p, mlir.lower_fun(_box_impl, multiple_results=False))
jet.jet_rules[box_p] = _box_jet

# selection(x, cval): the min, max or rank of each window of a footprint (``offsets``
# in row-major order) of the padded x. Its tangent is ``selected`` with the index of
# the window's first element equal to the output, over the outputs
# (``_selection_index``).
selection_p = Primitive("jaxpad_scipy_selection")


def selection(x, cval, *, offsets, begins, ends, modes, kind, window):
    """``kind`` ("min", "max" or a rank) of each window (of shape ``window``) of the
    padded ``x``: the window elements at ``offsets`` (row-major) from each output's
    corner."""
    return selection_p.bind(
        x,
        jnp.asarray(cval, x.dtype),
        offsets=tuple(map(tuple, offsets)),
        begins=tuple(begins),
        ends=tuple(ends),
        modes=tuple(modes),
        kind=kind,
        window=tuple(window),
    )


def _window_shape(offsets, ndim):
    return [max(o[ax] for o in offsets) + 1 for ax in range(ndim)]


def _combine(views, kind):
    if kind in ("min", "max"):
        op = jnp.minimum if kind == "min" else jnp.maximum
        y = views[0]
        for v in views[1:]:
            y = op(y, v)
        return y
    from jaxpad.scipy._ndimage import _select  # the networks live with the filters

    return _select(views, kind)


def _select_windows(xp, offsets, kind, window):
    shape = [n - w + 1 for n, w in zip(xp.shape, window)]
    views = [lax.slice(xp, o, tuple(a + n for a, n in zip(o, shape))) for o in offsets]
    return _combine(views, kind)


def _selection_impl(x, cval, *, offsets, begins, ends, modes, kind, window):
    constant = all(isinstance(n, (int, np.integer)) for n in x.shape)  # not symbolic
    if x.ndim >= 2 and constant and 0 not in x.shape:
        out = [n + b + e - w + 1 for n, b, e, w in zip(x.shape, begins, ends, window)]
        pad_bytes = int(np.prod([n + b + e for n, b, e in zip(x.shape, begins, ends)]))
        if min(out) > 0 and pad_bytes * np.dtype(x.dtype).itemsize > _FLAT_SELECT_BYTES:
            return _flat_select(x, cval, offsets, begins, ends, modes, kind, out)
    return _select_windows(padded(x, cval, begins, ends, modes), offsets, kind, window)


def _flat_select(x, cval, offsets, begins, ends, modes, kind, out):
    """``_selection_impl`` through the flat view of the pad (as ``_selection_index``):
    each window element one 1-D slice of it, the outputs past each row's end computed
    and dropped by the final slice, which XLA fuses with the network into one loop.
    Sliced per window element, XLA split the pad's concatenates into a copy per
    reader (docs/performance.md)."""
    # One more row of axis 0 (its values never reach an output): the last window
    # element's slice then ends inside the pad.
    xp = padded(x, cval, list(begins), [ends[0] + 1, *ends[1:]], modes)
    strides = [int(np.prod(xp.shape[d + 1 :])) for d in range(xp.ndim)]
    flat = xp.reshape(-1)
    length = out[0] * strides[0]
    starts = [sum(o * st for o, st in zip(off, strides)) for off in offsets]
    y = _combine([lax.slice_in_dim(flat, a, a + length) for a in starts], kind)
    return lax.slice(y.reshape(out[0], *xp.shape[1:]), [0] * x.ndim, out)


def _selection_linearize(x, cval, params):
    """(y, tangent) of a selection: the tangent of an output is the tangent of the first
    window element (in the order of ``offsets``) equal to it (the first NaN for a NaN),
    one ``selected`` read by the index ``_selection_index`` writes. The chain of
    ``jnp.minimum``/``jnp.maximum`` it replaces transposes one select per element of
    the chain (3.8-415x the forward in docs/scipy.md#performance)."""
    offsets, begins, ends, modes = (params[k] for k in ("offsets", "begins", "ends", "modes"))
    y, index = _selection_index(x, cval, params)
    return y, lambda dx, dcval: selected_p.bind(
        dx,
        dcval,
        index,
        offsets=offsets,
        begins=begins,
        ends=ends,
        modes=modes,
        window=params["window"],
    )


def _selection_index(x, cval, params):
    """(y, index): the selection and, over its outputs, the position in ``offsets`` of
    each window's first element equal to the output (its first NaN where it is NaN).

    With two or more axes the index reads the flat view of one pad of x, as the forward's
    ``_flat_select``: each window element one 1-D slice, the outputs past each row's
    end computed too (the index's rows are the pad's, ``index.shape[1:]`` at least
    the output's) and never read. It is written to memory once, a concatenate of two
    halves of that view: fused into the transpose, XLA:CPU evaluated it again at each
    of its window reads (the 3x3 median's VJP at 1024x1024 took 15.9 against 5.5 ms;
    docs/scipy.md#performance)."""
    offsets, begins, ends, modes = (params[k] for k in ("offsets", "begins", "ends", "modes"))
    kind, window = params["kind"], params["window"]
    out = [n + b + e - w + 1 for n, b, e, w in zip(x.shape, begins, ends, window)]
    index_dtype = np.int8 if len(offsets) < 127 else np.int32
    # NaN in, NaN out: jnp.minimum/maximum pass a NaN on, and every window element
    # reaches the output of a selection network; jnp.sort (_select past
    # _NETWORK_MAX) puts NaNs last, so there the output is a NaN only where one is.
    from jaxpad.scipy._ndimage import _NETWORK_MAX

    propagates = kind in ("min", "max") or len(offsets) <= _NETWORK_MAX

    def first_equal(views, y):
        index = jnp.full(y.shape, -1, index_dtype)
        nan = y != y
        for k in reversed(range(len(offsets))):
            v = views[k]
            hit = (v == y) | ((v != v) if propagates else (nan & (v != v)))
            index = jnp.where(hit, jnp.asarray(k, index_dtype), index)
        return index

    constant = all(isinstance(n, (int, np.integer)) for n in x.shape)  # not symbolic
    if x.ndim < 2 or not constant or 0 in x.shape or min(out) <= 0:
        xp = padded(x, cval, begins, ends, modes)
        views = [lax.slice(xp, o, tuple(a + n for a, n in zip(o, out))) for o in offsets]
        y = _combine(views, kind)
        return y, first_equal(views, y)
    # One more row of axis 0 (its values never reach an output): the last window
    # element's slice then ends inside the pad.
    xp = padded(x, cval, list(begins), [ends[0] + 1, *ends[1:]], modes)
    strides = [int(np.prod(xp.shape[d + 1 :])) for d in range(xp.ndim)]
    flat = xp.reshape(-1)
    length = out[0] * strides[0]
    starts = [sum(o * st for o, st in zip(off, strides)) for off in offsets]

    def part(lo, hi):
        views = [lax.slice_in_dim(flat, a + lo, a + hi) for a in starts]
        return first_equal(views, _combine(views, kind))

    half = length // 2
    index = lax.concatenate([part(0, half), part(half, length)], 0)
    views = [lax.slice_in_dim(flat, a, a + length) for a in starts]
    y = _combine(views, kind).reshape(out[0], *xp.shape[1:])
    index = index.reshape(out[0], *xp.shape[1:])
    return lax.slice(y, [0] * x.ndim, out), index


def _selection_jvp(primals, tangents, **params):
    x, cval = primals
    y, tangent = _selection_linearize(x, cval, params)
    return y, tangent(*(ad.instantiate_zeros(t) for t in tangents))


# selected(x, cval, index): for each output, the element of its window in
# padded(x, cval) that ``index`` names (``offsets[index]``): the tangent of a
# selection. The index covers the outputs (``index.shape[0]`` the output's rows, at
# least the output's length on the other axes: ``_selection_index``'s flat view),
# read only there. Its transpose (``_selected_transpose``) gathers over x itself.
selected_p = Primitive("jaxpad_scipy_selected")


def _out_shape(x_shape, begins, ends, window):
    return [n + b + e - w + 1 for n, b, e, w in zip(x_shape, begins, ends, window)]


def _selected_impl(x, cval, index, *, offsets, begins, ends, modes, window):
    xp = padded(x, cval, begins, ends, modes)
    out = _out_shape(x.shape, begins, ends, window)
    index = lax.slice(index, [0] * x.ndim, out)
    y = jnp.zeros(out, x.dtype)
    for k, o in enumerate(offsets):
        y = jnp.where(index == k, lax.slice(xp, o, tuple(a + n for a, n in zip(o, out))), y)
    return y


def _selected_jvp(primals, tangents, **params):
    x, cval, index = primals
    dx, dcval, _ = tangents
    y = selected_p.bind(x, cval, index, **params)
    dx, dcval = ad.instantiate_zeros(dx), ad.instantiate_zeros(dcval)
    return y, selected_p.bind(dx, dcval, index, **params)


def _gather_box(ct, index, offsets, window, lo, hi):
    """``sum_k [index[q - o_k] == k] ct[q - o_k]`` over the padded positions q in
    ``[lo, hi)``, from a piece of ``ct`` and ``index`` embedded in zeros and -1 (the
    frame of the transpose: small arrays, or the whole of a small one)."""
    out = ct.shape
    shape = [h - a for a, h in zip(lo, hi)]
    reach = [a - (w - 1) for a, w in zip(lo, window)]
    c_lo = [min(max(0, r), n) for r, n in zip(reach, out)]
    c_hi = [min(max(0, h), n) for h, n in zip(hi, out)]
    if any(a >= b for a, b in zip(c_lo, c_hi)):
        return jnp.zeros(shape, ct.dtype)
    pads = [(a - r, h - b, 0) for r, a, b, h in zip(reach, c_lo, c_hi, hi)]
    ctp = lax.pad(lax.slice(ct, c_lo, c_hi), jnp.zeros((), ct.dtype), pads)
    indexp = lax.pad(lax.slice(index, c_lo, c_hi), jnp.asarray(-1, index.dtype), pads)
    acc = jnp.zeros(shape, ct.dtype)
    for k, o in enumerate(offsets):
        s = [w - 1 - d for w, d in zip(window, o)]
        e = [a + n for a, n in zip(s, shape)]
        acc = acc + jnp.where(lax.slice(indexp, s, e) == k, lax.slice(ctp, s, e), 0)
    return acc


def _add_at(g, part, starts):
    # In place: XLA:CPU updates g's buffer where g has no other reader.
    return lax.dynamic_update_slice(g, lax.dynamic_slice(g, starts, part.shape) + part, starts)


def _selected_transpose(ct, x, cval, index, *, offsets, begins, ends, modes, window):
    """x's cotangent: ``g[j] = sum_k [index[j + b - o_k] == k] ct[j + b - o_k]`` over
    x's own positions, then the pad's fold of what fell on the pad (thin strips).

    The rows of x whose reads all lie inside ct and the index (all but the first and
    last few) are one loop over x's shape: each window element one 1-D slice of the
    flat views of ct and of the index, the reads past a row's end masked by the
    column (the index's own rows past it are never read). The rest, the rows
    ``[0, r0)`` and ``[r1, n)`` of x with the pad's rows before and after them, and
    the pad's columns beside the rows between, each a strip of ct and the index
    embedded in zeros, fold through jaxpad.pad's VJP on an array of 2 c rows along
    the folded axis (as ``_taps._fold_axis``) and add into x's edges in place. The
    previous transpose (padded_select's: ct zero-padded by the window, read with
    the index over the outputs extended by the window, then the fold of the whole
    padded array axis by axis) wrote the padded cotangent, the padded gradient and a
    copy of it; with its index, the 3x3 median's VJP took 1.36x (float32) and 1.49x
    (float64) this one's time at 1024x1024 (docs/performance.md, "scipy filters: the
    selection VJP over x's shape")."""
    x_shape = _shape_of(x)
    cval_aval = cval.aval if ad.is_undefined_primal(cval) else jax.typeof(cval)
    if type(ct) is ad.Zero:
        return _zero_ct(x), _zero_ct(cval), None
    zero = jnp.zeros((), cval_aval.dtype)
    if 0 in x_shape or not offsets:
        return jnp.zeros(x_shape, ct.dtype), zero, None
    nd = len(x_shape)
    e_shape = [n + b + e for n, b, e in zip(x_shape, begins, ends)]

    def fold(frame, z_shape, z_begins, z_ends):
        # The fold of a padded array given whole (frame): jaxpad.pad's VJP.
        _, vjp = jax.vjp(
            lambda z, c: padded(z, c, z_begins, z_ends, modes),
            jnp.zeros(z_shape, frame.dtype),
            zero,
        )
        return vjp(frame)

    def result(g, cval_ct):
        return (
            g if ad.is_undefined_primal(x) else None,
            cval_ct.astype(cval_aval.dtype) if ad.is_undefined_primal(cval) else None,
            None,
        )

    n0 = x_shape[0]
    strides = [int(np.prod(ct.shape[d + 1 :])) for d in range(nd)]
    i_strides = [int(np.prod(index.shape[d + 1 :])) for d in range(nd)]
    shifts = [sum((b - d) * s for b, d, s in zip(begins, o, strides)) for o in offsets]
    i_shifts = [sum((b - d) * s for b, d, s in zip(begins, o, i_strides)) for o in offsets]

    def rows_for(shift, stride):  # rows of x that a flat read shift keeps out of
        return -(-max(0, shift) // stride)

    # x's rows [r0, r1): every window read inside row range and inside the flat views.
    r0 = max(
        window[0] - 1 - begins[0],
        max(rows_for(-s, strides[0]) for s in shifts),
        max(rows_for(-s, i_strides[0]) for s in i_shifts),
    )
    r1 = min(
        n0 - begins[0],
        n0 - max(rows_for(s, strides[0]) for s in shifts),
        index.shape[0] - max(rows_for(s, i_strides[0]) for s in i_shifts),
    )
    c0 = max(r0, n0 - r1, max(begins[0], ends[0]) + 1)
    if tuple(ct.shape) != tuple(x_shape) or r1 <= r0 or n0 < 2 * c0:
        # An output not of x's shape, or a short axis 0: the whole padded array.
        g = _gather_box(ct, index, offsets, window, [0] * nd, e_shape)
        return result(*fold(g, x_shape, begins, ends))
    # x's rows [r0, r1), through the flat views.
    rows = (r1 - r0, *x_shape[1:])
    flat_ct, flat_index = ct.reshape(-1), index.reshape(-1)
    masks: dict = {}
    acc = None
    for k, o in enumerate(offsets):
        a = r0 * strides[0] + shifts[k]
        c = lax.slice_in_dim(flat_ct, a, a + (r1 - r0) * strides[0]).reshape(rows)
        a = r0 * i_strides[0] + i_shifts[k]
        i = lax.slice_in_dim(flat_index, a, a + (r1 - r0) * i_strides[0])
        hit = lax.slice(i.reshape(r1 - r0, *index.shape[1:]), [0] * nd, rows) == k
        for d in range(1, nd):
            s = begins[d] - o[d]
            if s and (d, s) not in masks:
                column = lax.broadcasted_iota(np.int32, rows, d) + s
                masks[d, s] = (column >= 0) & (column < x_shape[d])
            if s:
                hit = hit & masks[d, s]
        term = jnp.where(hit, c, 0)
        acc = term if acc is None else acc + term
    # Joined along axis 0 with zero rows (which XLA:CPU fuses into the loop), where
    # an update of a zero buffer became a pad, whose loop it did not vectorise.
    parts = [jnp.zeros((r0, *x_shape[1:]), ct.dtype)] if r0 else []
    parts.append(acc)
    if r1 < n0:
        parts.append(jnp.zeros((n0 - r1, *x_shape[1:]), ct.dtype))
    g = lax.concatenate(parts, 0) if len(parts) > 1 else acc
    # The pad's rows before x's row r0 and after its row r1 (every column of the pad),
    # folded as rows of an array of 2 c0 rows, added to x's first and last c0 rows.
    b0, e0 = begins[0], ends[0]
    top = _gather_box(ct, index, offsets, window, [0] * nd, [b0 + r0, *e_shape[1:]])
    bottom = _gather_box(ct, index, offsets, window, [b0 + r1] + [0] * (nd - 1), e_shape)
    middle = [2 * c0 + b0 + e0 - top.shape[0] - bottom.shape[0], *e_shape[1:]]
    frame = lax.concatenate([top, jnp.zeros(middle, ct.dtype), bottom], 0)
    folded, cval_ct = fold(frame, [2 * c0, *x_shape[1:]], begins, ends)
    g = _add_at(g, lax.slice_in_dim(folded, 0, c0), [0] * nd)
    g = _add_at(g, lax.slice_in_dim(folded, c0, 2 * c0), [n0 - c0] + [0] * (nd - 1))
    for d in range(1, nd):
        # The pad's positions along axis d in x's rows [r0, r1), x's range along the
        # axes between, every position of the pad along those after.
        b, e, n = begins[d], ends[d], x_shape[d]
        if not (b or e):
            continue
        lo = [b0 + r0] + [begins[a] for a in range(1, d)]
        hi = [b0 + r1] + [begins[a] + x_shape[a] for a in range(1, d)]
        rest = list(e_shape[d + 1 :])
        c = max(b, e) + 1
        c = c if n >= 2 * c else 0  # 0: the whole axis
        inner = 2 * c if c else n
        pieces = []
        if b:
            pieces.append(
                _gather_box(ct, index, offsets, window, [*lo, 0] + [0] * len(rest), [*hi, b, *rest])
            )
        pieces.append(jnp.zeros([r1 - r0, *x_shape[1:d], inner, *rest], ct.dtype))
        if e:
            pieces.append(
                _gather_box(
                    ct,
                    index,
                    offsets,
                    window,
                    [*lo, b + n] + [0] * len(rest),
                    [*hi, b + n + e, *rest],
                )
            )
        z_begins = [0] * d + [b, *begins[d + 1 :]]
        z_ends = [0] * d + [e, *ends[d + 1 :]]
        z_shape = [r1 - r0, *x_shape[1:d], inner, *x_shape[d + 1 :]]
        folded, more = fold(lax.concatenate(pieces, d), z_shape, z_begins, z_ends)
        cval_ct = cval_ct + more
        at = [r0] + [0] * (nd - 1)
        if not c:
            g = _add_at(g, folded, at)
            continue
        g = _add_at(g, lax.slice_in_dim(folded, 0, c, axis=d), at)
        at[d] = n - c
        g = _add_at(g, lax.slice_in_dim(folded, c, 2 * c, axis=d), at)
    return result(g, cval_ct)


def _selected_batch(args, dims, *, offsets, begins, ends, modes, window):
    x, cval, index = args
    dx, dc, di = dims
    params = dict(offsets=offsets, begins=begins, ends=ends, modes=modes, window=window)
    if dc is not None:
        fn = functools.partial(_selected_impl, **params)
        return jax.vmap(fn, in_axes=(dx, dc, di))(x, cval, index), 0
    size = x.shape[dx] if dx is not None else index.shape[di]
    x = batching.bdim_at_front(x, dx, size)
    index = batching.bdim_at_front(index, di, size)
    return selected_p.bind(
        x,
        cval,
        index,
        offsets=tuple((0, *o) for o in offsets),
        begins=(0, *begins),
        ends=(0, *ends),
        modes=(modes[0], *modes),
        window=(1, *window),
    ), 0


selected_p.def_impl(_selected_impl)
selected_p.def_abstract_eval(
    lambda x, cval, index, *, begins, ends, window, **_: x.update(
        shape=tuple(_out_shape(x.shape, begins, ends, window)), dtype=x.dtype
    )
)
ad.primitive_jvps[selected_p] = _selected_jvp
ad.primitive_transposes[selected_p] = _selected_transpose
batching.primitive_batchers[selected_p] = _selected_batch
mlir.register_lowering(selected_p, mlir.lower_fun(_selected_impl, multiple_results=False))


def _selection_batch(args, dims, *, offsets, begins, ends, modes, kind, window):
    params = dict(offsets=offsets, begins=begins, ends=ends, modes=modes, kind=kind, window=window)
    if dims[1] is not None:
        return _scan_batch(selection_p, args, dims, params)
    x = batching.bdim_at_front(args[0], dims[0], args[0].shape[dims[0]])
    return selection_p.bind(
        x,
        args[1],
        offsets=tuple((0, *o) for o in offsets),
        begins=(0, *begins),
        ends=(0, *ends),
        modes=(modes[0], *modes),
        kind=kind,
        window=(1, *window),
    ), 0


selection_p.def_impl(_selection_impl)
selection_p.def_abstract_eval(
    lambda x, cval, *, begins, ends, window, **_: x.update(
        shape=tuple(n + b + e - w + 1 for n, b, e, w in zip(x.shape, begins, ends, window)),
        dtype=x.dtype,
    )
)
ad.primitive_jvps[selection_p] = _selection_jvp
batching.primitive_batchers[selection_p] = _selection_batch
mlir.register_lowering(selection_p, mlir.lower_fun(_selection_impl, multiple_results=False))
