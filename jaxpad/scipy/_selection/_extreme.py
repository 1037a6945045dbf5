"""``jaxpad_scipy_extreme``: one min/max pass of a minimum/maximum filter, and its
tangent ``jaxpad_scipy_extreme_winner``.

``extreme(x, cval)`` is the min/max of each window of ``size`` along one axis of the
padded ``x``. The tangent of an output is the tangent of the window's first element
(row-major) equal to it, the first NaN where it is NaN.

They are primitives, not ``custom_jvp``s: ``jax.experimental.jet`` runs a
``custom_jvp``'s function under its own trace and leaks a tracer (jax 0.10.2, for any
``custom_jvp``, ``jax.nn.relu`` too), so Taylor mode needs rules of its own
(``_jet.py``).

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
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad.scipy._padding import _embed, _fold, _shape_of, _zero_ct, padded
from jaxpad.scipy._selection._selected import selected_p

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
    short windows (``_FLAT_EXTREME_MAX`` in _filters.py)."""
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
