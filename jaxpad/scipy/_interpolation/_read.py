"""``jaxpad_spline_read``: the prefiltered coefficients read at each point's window of
taps, weighted by the B-spline.

``value[p] = sum_k coef[index[:, p] + k] * prod_a weights[a][k_a, p]``, ``k`` over the
``size_0 x ... x size_{ndim-1}`` window; an axis of one tap is read unweighted (order
0's weight is 1). Each axis's operand is either its weights, ``(size, P)``
(``orders[a]`` None: the read is linear in them), or the points' fractions past the
base tap, ``(P,)``, whose weights are the ``derivatives[a]``-th derivative of the
B-spline of ``orders[a]`` there, computed where they are read. ``index`` is integer
and not differentiated.

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
  whole 4x4 window (its weighted windows, 64 MiB, written first). On XLA:CPU the
  points go through in chunks (``_SCATTER_CHUNK``) whose rows are computed and
  scattered while they are in cache, the weights computed there from the fractions.
- Transpose in an axis's weights: per tap of that axis, the window's other taps read
  and weighted as in the forward, times the cotangent. A fraction's derivative is the
  read with that axis's derivative one higher (the coordinates' gradient).
- ``vmap``: every batched operand's points joined into one set of points, a mapped
  ``coef`` read through one more axis of one tap; ``jet``: jet of the plain gathers.
"""

from __future__ import annotations

import functools
import itertools
import operator

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import jet
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad._chunks import over_chunks
from jaxpad._compat import JET_RULE_SERIES_ARE_DERIVATIVES
from jaxpad.scipy._interpolation import _spline

read_p = Primitive("jaxpad_spline_read")

# Points scattered at a time by the coefficients' transpose on XLA:CPU. A million 2-D
# points, order 3 (benchmarks/interpolation.py's warp, three interleaved runs in one
# process): the input VJP 40 ms in one pass, 26-29 ms in chunks of 8192 points,
# 25-26 of 16384, 24-25 of 32768 and of 65536. Two loops over half the chunks each,
# into two arrays (XLA:CPU could run them side by side): no faster (mirror 25-28
# against 21-24 ms, two runs).
_SCATTER_CHUNK = 32768


def spline_read(coef, starts, axis_weights=None, fracs=None, order=None):
    """Each point's window of ``coef`` from ``starts`` (one int32 array of points per
    axis), weighted by ``axis_weights`` (per axis, one array of points per tap) or by
    the B-spline of ``order`` at ``fracs`` (per axis, the points' fractions)."""
    if (axis_weights is None) == (fracs is None) or (fracs is not None) != (order is not None):
        raise ValueError("spline_read: the weights, or the fractions and their order.")
    index = jnp.stack(starts)
    ndim = len(starts)
    if fracs is None:
        operands = [jnp.stack(w) for w in axis_weights]
        orders = (None,) * ndim
    else:
        operands = list(fracs)
        orders = (order,) * ndim
    return read_p.bind(coef, index, *operands, orders=orders, derivatives=(0,) * ndim)


def _spline_weights(frac, order: int, derivative: int):
    """The ``derivative``-th derivative in ``frac`` of the B-spline weights of
    ``order`` (``_spline.weights``), as ``(order + 1, P)``."""

    def weights(t):
        return jnp.stack(_spline.weights(t, order))

    for _ in range(derivative):
        weights = _derivative(weights)
    return weights(frac)


def _derivative(f):
    """The elementwise derivative of ``f``, a function of one array."""
    return lambda t: jax.jvp(f, (t,), (jnp.ones_like(t),))[1]


def _axis_weights(operands, orders, derivatives):
    """Each axis's weights, ``(size, P)``, from its operand."""
    return [
        w if order is None else _spline_weights(w, order, d)
        for w, order, d in zip(operands, orders, derivatives)
    ]


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


def _impl(coef, index, *operands, orders, derivatives):
    coef, index, *operands = map(jnp.asarray, (coef, index, *operands))
    weights = _axis_weights(operands, orders, derivatives)
    if coef.size < 2**31:
        return _taps_flat(coef, index, weights)
    return _taps_window(coef, index, weights)


def _abstract_eval(coef, index, *operands, orders, derivatives):
    return coef.update(shape=(index.shape[1],), dtype=coef.dtype)


def _jvp(primals, tangents, *, orders, derivatives):
    coef, index, *operands = primals
    t_coef, _, *t_operands = tangents
    params = dict(orders=orders, derivatives=derivatives)
    out = read_p.bind(coef, index, *operands, **params)
    terms = []
    if type(t_coef) is not ad.Zero:
        terms.append(read_p.bind(t_coef, index, *operands, **params))
    for axis, t in enumerate(t_operands):
        if type(t) is ad.Zero:
            continue
        order = orders[axis]
        if order is None:
            if t.shape[0] > 1:
                replaced = [*operands[:axis], t, *operands[axis + 1 :]]
                terms.append(read_p.bind(coef, index, *replaced, **params))
        elif derivatives[axis] < order:  # past the spline's degree the weights are 0
            higher = tuple(d + (a == axis) for a, d in enumerate(derivatives))
            slope = read_p.bind(coef, index, *operands, orders=orders, derivatives=higher)
            terms.append(slope * t.astype(slope.dtype))
    if not terms:
        return out, jnp.zeros_like(out)
    return out, functools.reduce(operator.add, terms)


def _scattered_rows(out, ct, index, operands, orders, derivatives):
    """``out`` plus the transpose in ``coef`` of the points' reads: per tap of the axes
    but the last, one scatter-add of each point's weighted row of taps."""
    ndim = out.ndim
    weights = _axis_weights(operands, orders, derivatives)
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
        update = scale[:, None] * last.T.astype(ct.dtype) if last.shape[0] > 1 else scale[:, None]
        start = index.T + jnp.asarray([*taps, 0], index.dtype)
        out = lax.scatter_add(
            out, start, update, dnums, mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS
        )
    return out


def _scattered(shape, ct, index, operands, orders, derivatives):
    """The transpose in ``coef`` (of ``shape``): in one pass, or on XLA:CPU in chunks
    of points (``_SCATTER_CHUNK``)."""

    def step(out, start, ct, index, *operands):
        return _scattered_rows(out, ct, index, operands, orders, derivatives)

    init = jnp.zeros(shape, ct.dtype)
    return over_chunks(step, init, [ct, index, *operands], _SCATTER_CHUNK, axis=-1)


def _transpose(ct, coef, index, *operands, orders, derivatives):
    undefined = [ad.is_undefined_primal(coef)] + [ad.is_undefined_primal(w) for w in operands]
    linear = [True] + [order is None for order in orders]
    if sum(undefined) != 1 or not linear[undefined.index(True)]:
        raise ValueError(
            "jaxpad_spline_read: linear in one operand at a time, the coefficients or "
            "an axis's weights."
        )
    if type(ct) is ad.Zero:
        return [None] * (2 + len(operands))
    if undefined[0]:
        out = _scattered(coef.aval.shape, ct, index, operands, orders, derivatives)
        return [out, None] + [None] * len(operands)
    axis = undefined.index(True) - 1
    aval = operands[axis].aval
    if aval.shape[0] == 1:  # read unweighted
        return [None] * (2 + len(operands))
    weights = _axis_weights(operands, orders, derivatives)
    taps = _taps_flat if coef.size < 2**31 else _taps_window
    rows = [taps(coef, index, weights, fixed=(axis, k)) * ct for k in range(aval.shape[0])]
    ct_w = jnp.stack(rows)
    if not jnp.issubdtype(aval.dtype, jnp.complexfloating):
        ct_w = ct_w.real
    out = [None, None] + [None] * len(operands)
    out[2 + axis] = ct_w.astype(aval.dtype)
    return out


def _batch(args, dims, *, orders, derivatives):
    """The batch's points joined into one set: ``index`` and the axes' operands
    flattened over (batch, points); a mapped ``coef`` gains a leading axis read by one
    tap at the point's batch index."""
    coef, index, *operands = args
    coef_dim, index_dim, *operand_dims = dims
    size = next(x.shape[d] for x, d in zip(args, dims) if d is not None)

    def mapped(x, dim):  # (size, *rest)
        return jnp.broadcast_to(x, (size, *x.shape)) if dim is None else jnp.moveaxis(x, dim, 0)

    def joined(x):  # (size, *rows, P) -> (*rows, size * P)
        return jnp.moveaxis(x, 0, -2).reshape(*x.shape[1:-1], -1)

    index = mapped(index, index_dim)
    n_points = index.shape[2]
    index = joined(index)
    operands = [joined(mapped(w, d)) for w, d in zip(operands, operand_dims)]
    if coef_dim is not None:
        coef = jnp.moveaxis(coef, coef_dim, 0)
        batch = jnp.repeat(jnp.arange(size, dtype=index.dtype), n_points)[None]
        index = jnp.concatenate([batch, index])
        real = jnp.zeros((), coef.dtype).real.dtype
        operands = [jnp.ones((1, batch.shape[1]), real), *operands]
        orders, derivatives = (None, *orders), (0, *derivatives)
    out = read_p.bind(coef, index, *operands, orders=orders, derivatives=derivatives)
    return out.reshape(size, n_points), 0


def _taylor(primals_in, series_in, **params):
    """jet of the plain gathers the primitive lowers to (its Taylor series in the
    coefficients, the weights and the fractions alike)."""
    coef, index, *operands = primals_in
    differentiable = [coef, *operands]
    series = [series_in[0], *series_in[2:]]  # jet gives zeros for those it has none of

    def plain(coef, *operands):
        return _impl(coef, index, *operands, **params)

    scaling = {} if JET_RULE_SERIES_ARE_DERIVATIVES else {"factorial_scaled": False}
    return jet.jet(plain, tuple(differentiable), tuple(series), **scaling)


read_p.def_impl(_impl)
read_p.def_abstract_eval(_abstract_eval)
ad.primitive_jvps[read_p] = _jvp
ad.primitive_transposes[read_p] = _transpose
batching.primitive_batchers[read_p] = _batch
jet.jet_rules[read_p] = _taylor
mlir.register_lowering(read_p, mlir.lower_fun(_impl, multiple_results=False))
