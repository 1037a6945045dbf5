"""``jaxpad_scipy_selected``: for each output, the element of its window that an index
names; the tangent of the minimum, maximum and rank filters' primitives. Its transpose
gathers each element's cotangents over x's own shape and folds the pad's thin strips
(docs/scipy.md#performance).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad.scipy._padding import _shape_of, _zero_ct, padded

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
    the folded axis (as ``_padding._fold_axis``) and add into x's edges in place. The
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
