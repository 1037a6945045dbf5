"""``jaxpad_scipy_selection``: the min, max or rank of each window of a footprint of
the padded array (the footprint and rank filters), whose tangent is ``selected`` with
the index of each window's first element equal to the output. Its forward reads the
pad through the flat view past ``_FLAT_SELECT_BYTES``.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad.scipy._padding import padded
from jaxpad.scipy._selection._extreme import _scan_batch
from jaxpad.scipy._selection._networks import _NETWORK_MAX, _select
from jaxpad.scipy._selection._selected import selected_p

# A footprint or rank filter's forward reads its pad through the flat view
# (_flat_select) once the pad exceeds this many bytes. Sliced per window element, XLA
# split the pad's concatenates into a copy per reader: the float64 3x3x3 median at
# 128x128x128 needed 82.7 MiB of temporaries (33.7 so) and took 1.6x as long; median
# 3 and 5 took 1.07-2.1x longer at 512x512 (a 1 MiB pad in float32), 1024x1024 and
# 128x128x128 in both dtypes; smaller pads were not measured
# (docs/performance.md, "the float64 maximum filters at 128x128x128").
_FLAT_SELECT_BYTES = 1 << 20


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
