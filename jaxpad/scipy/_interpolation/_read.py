"""``jaxpad_spline_read``: the prefiltered coefficients read at each point's window of
taps, weighted by the B-spline.

``value[p] = sum_k coef[index[:, p] + k] * prod_a weights[a][k_a, p]``, ``k`` over the
``size_0 x ... x size_{ndim-1}`` window; an axis of one tap is read unweighted (order
0's weight is 1). The primitive is multilinear: linear in ``coef`` and in each axis's
weights of two taps or more (``index`` is integer and not differentiated).

- Forward: one point gather per tap from the flattened coefficients, each weighted as
  it is read (``_taps_flat``): XLA:CPU fuses the gathers and the sum into one loop.
  One gather of each point's window (``_taps_window``) took 5.6x as long at
  1024x1024, order 3 (352 against 63 ms, 2 loaded cores); it is the form for
  coefficients whose flat index would pass int32.
- Transpose in ``coef``: per tap of the other axes, one scatter-add of each point's
  weighted row of taps along the last axis. At a million points, order 3, 2-D
  (``benchmarks/interpolation.py``'s warp, one interleaved run each): the VJP took
  44 ms so, 66-70 ms with one scatter-add per tap (JAX's transpose of the forward's
  gathers: 16 scatters of single elements) and with one scatter of each point's
  whole 4x4 window (its weighted windows, 64 MiB, written first).
- Transpose in an axis's weights: per tap of that axis, the window's other taps read
  and weighted as in the forward, times the cotangent (the coordinates' gradient).
- ``vmap``: every batched operand's points joined into one set of points, a mapped
  ``coef`` read through one more axis of one tap; ``jet``: the Taylor series of the
  product of the operands' series.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator

import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import jet
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad._compat import JET_RULE_SERIES_ARE_DERIVATIVES

read_p = Primitive("jaxpad_spline_read")


def spline_read(coef, starts, axis_weights):
    """Each point's window of ``coef`` from ``starts`` (one int32 array of points per
    axis), weighted by ``axis_weights`` (per axis, one array of points per tap)."""
    index = jnp.stack(starts)
    weights = [jnp.stack(w) for w in axis_weights]
    return read_p.bind(coef, index, *weights)


def _taps_flat(coef, index, weights, fixed=None):
    """One point gather per tap from the flattened coefficients, each weighted as it
    is read. ``fixed``: ``(axis, k)``, that axis's tap ``k`` alone and unweighted."""
    ndim = coef.ndim
    strides = np.cumprod((1,) + coef.shape[:0:-1])[::-1]
    flat = coef.reshape(-1)
    base = index[0] * int(strides[0])
    for axis in range(1, ndim):
        base = base + index[axis] * int(strides[axis])

    def level(axis, offset):
        if axis == ndim:
            return flat.at[base + offset].get(mode="promise_in_bounds")
        if fixed is not None and fixed[0] == axis:
            return level(axis + 1, offset + fixed[1] * int(strides[axis]))
        size = weights[axis].shape[0]
        total = None
        for k in range(size):
            part = level(axis + 1, offset + k * int(strides[axis]))
            if size > 1:
                part = part * weights[axis][k].astype(part.dtype)
            total = part if total is None else total + part
        return total

    return level(0, 0)


def _window_weights(weights, dtype):
    """The outer product of the axes' weights (but those of one tap), broadcasting to
    ``(P, *sizes)``."""
    ndim = len(weights)
    sizes = [w.shape[0] for w in weights]
    product = None
    for axis, w in enumerate(weights):
        if sizes[axis] == 1:  # one tap: read unweighted
            continue
        shape = [w.shape[1]] + [1] * ndim
        shape[axis + 1] = sizes[axis]
        wa = jnp.moveaxis(w, 0, -1).reshape(shape).astype(dtype)
        product = wa if product is None else product * wa
    return product


def _window_dnums(ndim):
    return dict(
        offset_dims=tuple(range(1, ndim + 1)),
        collapsed_slice_dims=(),
        start_index_map=tuple(range(ndim)),
    )


def _taps_window(coef, index, weights, fixed=None):
    """One gather of each point's whole window: for arrays whose flat index would
    pass int32. ``fixed``: as ``_taps_flat``'s."""
    ndim = coef.ndim
    if fixed is not None:
        axis, k = fixed
        index = index.at[axis].add(k)
        weights = list(weights)
        weights[axis] = jnp.ones((1, index.shape[1]), coef.dtype)  # one tap, unweighted
    sizes = tuple(w.shape[0] for w in weights)
    window = lax.gather(
        coef,
        index.T,
        lax.GatherDimensionNumbers(**_window_dnums(ndim)),
        slice_sizes=sizes,
        mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS,
    )
    if all(s == 1 for s in sizes):
        return window.reshape(window.shape[0])
    w = _window_weights(weights, window.dtype)
    return jnp.sum(window * w, axis=tuple(range(1, ndim + 1)))


def _impl(coef, index, *weights):
    if coef.size < 2**31:
        return _taps_flat(coef, index, weights)
    return _taps_window(coef, index, weights)


def _abstract_eval(coef, index, *weights):
    return coef.update(shape=(index.shape[1],), dtype=coef.dtype)


def _jvp(primals, tangents):
    coef, index, *weights = primals
    t_coef, _, *t_weights = tangents
    out = read_p.bind(coef, index, *weights)
    terms = []
    if type(t_coef) is not ad.Zero:
        terms.append(read_p.bind(t_coef, index, *weights))
    for axis, t in enumerate(t_weights):
        if type(t) is not ad.Zero and t.shape[0] > 1:
            replaced = [*weights[:axis], t, *weights[axis + 1 :]]
            terms.append(read_p.bind(coef, index, *replaced))
    if not terms:
        return out, jnp.zeros_like(out)
    return out, functools.reduce(operator.add, terms)


def _transpose(ct, coef, index, *weights):
    undefined = [ad.is_undefined_primal(coef)] + [ad.is_undefined_primal(w) for w in weights]
    if sum(undefined) != 1:
        raise ValueError("jaxpad_spline_read: linear in one operand at a time.")
    if type(ct) is ad.Zero:
        return [None] * (2 + len(weights))
    if undefined[0]:
        aval = coef.aval
        ndim = len(aval.shape)
        out = jnp.zeros(aval.shape, ct.dtype)
        *outer, last = weights
        dnums = lax.ScatterDimensionNumbers(
            update_window_dims=(1,),
            inserted_window_dims=tuple(range(ndim - 1)),
            scatter_dims_to_operand_dims=tuple(range(ndim)),
        )
        for taps in itertools.product(*(range(w.shape[0]) for w in outer)):
            scale = ct
            for axis, k in enumerate(taps):
                if outer[axis].shape[0] > 1:
                    scale = scale * weights[axis][k].astype(ct.dtype)
            update = (
                scale[:, None] * last.T.astype(ct.dtype) if last.shape[0] > 1 else scale[:, None]
            )
            start = index.T + jnp.asarray([*taps, 0], index.dtype)
            out = lax.scatter_add(
                out, start, update, dnums, mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS
            )
        return [out, None] + [None] * len(weights)
    axis = undefined.index(True) - 1
    aval = weights[axis].aval
    if aval.shape[0] == 1:  # read unweighted
        return [None] * (2 + len(weights))
    taps = _taps_flat if coef.size < 2**31 else _taps_window
    rows = [taps(coef, index, weights, fixed=(axis, k)) * ct for k in range(aval.shape[0])]
    ct_w = jnp.stack(rows)
    if not jnp.issubdtype(aval.dtype, jnp.complexfloating):
        ct_w = ct_w.real
    out = [None, None] + [None] * len(weights)
    out[2 + axis] = ct_w.astype(aval.dtype)
    return out


def _batch(args, dims):
    """The batch's points joined into one set: ``index`` and the weights flattened
    over (batch, points); a mapped ``coef`` gains a leading axis read by one tap at
    the point's batch index."""
    coef, index, *weights = args
    coef_dim, index_dim, *weight_dims = dims
    size = next(x.shape[d] for x, d in zip(args, dims) if d is not None)

    def mapped(x, dim):  # (size, rows, P)
        return jnp.broadcast_to(x, (size, *x.shape)) if dim is None else jnp.moveaxis(x, dim, 0)

    def joined(x):  # (size, rows, P) -> (rows, size * P)
        return jnp.moveaxis(x, 0, 1).reshape(x.shape[1], -1)

    index = mapped(index, index_dim)
    n_points = index.shape[2]
    index = joined(index)
    weights = [joined(mapped(w, d)) for w, d in zip(weights, weight_dims)]
    if coef_dim is not None:
        coef = jnp.moveaxis(coef, coef_dim, 0)
        batch = jnp.repeat(jnp.arange(size, dtype=index.dtype), n_points)[None]
        index = jnp.concatenate([batch, index])
        weights = [jnp.ones((1, batch.shape[1]), weights[0].dtype), *weights]
    out = read_p.bind(coef, index, *weights)
    return out.reshape(size, n_points), 0


def _taylor(primals_in, series_in, **params):
    """The Taylor series of a multilinear function: each coefficient the sum over the
    ways to share its order among the operands (weighed by the multinomial where
    jet's series are derivatives)."""
    coef, index, *weights = primals_in
    linear = [coef, *weights]
    series = [[coef, *series_in[0]]] + [[w, *s] for w, s in zip(weights, series_in[2:])]
    order = len(series_in[0])

    def product(parts):
        operands = [s[j] for s, j in zip(series, parts)]
        term = read_p.bind(operands[0], index, *operands[1:])
        if JET_RULE_SERIES_ARE_DERIVATIVES:
            count = math.factorial(sum(parts))
            for j in parts:
                count //= math.factorial(j)
            term = term * count
        return term

    terms = []
    for k in range(1, order + 1):
        shares = [p for p in itertools.product(range(k + 1), repeat=len(linear)) if sum(p) == k]
        terms.append(functools.reduce(operator.add, map(product, shares)))
    return read_p.bind(coef, index, *weights), terms


read_p.def_impl(_impl)
read_p.def_abstract_eval(_abstract_eval)
ad.primitive_jvps[read_p] = _jvp
ad.primitive_transposes[read_p] = _transpose
batching.primitive_batchers[read_p] = _batch
jet.jet_rules[read_p] = _taylor
mlir.register_lowering(read_p, mlir.lower_fun(_impl, multiple_results=False))
