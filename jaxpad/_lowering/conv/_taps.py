"""The taps forms: a depthwise convolution (``"shifted"``) as the kernel's taps,
multiply-adds of static slices of the padded input that XLA fuses into one loop, and
its derivatives: a ``custom_jvp`` whose input tangent transposes into the same sum with
the flipped taps, and two bilinear primitives (``jaxpad_depthwise_taps_apply``,
``jaxpad_depthwise_taps_reduce``) for the kernel's, with their rules."""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir, xla


def _shifted_taps(xp, kernel, numbers, strides, rhs_dilation):
    """A depthwise VALID convolution of the padded ``xp``, in the layout ``numbers``
    asks for (``_depthwise`` computes it in ``xp``'s)."""
    window = [kernel.shape[a] for a in numbers.rhs_spec[2:]]
    dilation = tuple(int(d) for d in rhs_dilation or (1,) * len(window))
    strides = tuple(int(s) for s in strides)
    # The kernel as (features, *window), features in the input's feature order.
    taps = jnp.moveaxis(kernel, numbers.rhs_spec, range(kernel.ndim))[:, 0]
    geometry = (tuple(numbers.lhs_spec[2:]), int(numbers.lhs_spec[1]), dilation, strides)
    if any(s != 1 for s in strides):
        # Strided: autodiff's gradient (strided slices transpose into interior pads)
        # measured 0.32-0.48x lax's; the custom rule below is written for stride 1.
        total = _taps_sum(geometry, xp, taps)
    else:
        total = _depthwise(geometry, xp, taps)
    return jnp.moveaxis(total, numbers.lhs_spec, numbers.out_spec)


def _taps_sum(geometry, xp, taps):
    """The sum over the kernel's taps of a static slice of ``xp`` times the tap's
    per-feature weights (``taps``: (features, *window)); XLA fuses it into one loop."""
    spatial_axes, feature_axis, dilation, strides = geometry
    window = taps.shape[1:]
    out_sizes = [
        (xp.shape[a] - d * (k - 1) - 1) // s + 1
        for a, k, d, s in zip(spatial_axes, window, dilation, strides)
    ]
    view = [1] * xp.ndim
    view[feature_axis] = taps.shape[0]
    total = None
    for offset in np.ndindex(*window):
        start = [0] * xp.ndim
        limit = list(xp.shape)
        step = [1] * xp.ndim
        for a, o, d, n, s in zip(spatial_axes, offset, dilation, out_sizes, strides):
            start[a], limit[a], step[a] = o * d, o * d + (n - 1) * s + 1, s
        term = lax.slice(xp, start, limit, step) * taps[(slice(None), *offset)].reshape(view)
        total = term if total is None else total + term
    return total


@partial(jax.custom_jvp, nondiff_argnums=(0,))
def _depthwise(geometry, xp, taps):
    return _taps_sum(geometry, xp, taps)


def _depthwise_jvp(geometry, primals, tangents):
    """The tangent in ``xp`` is written as the transpose of the input gradient wanted:
    reverse mode transposes it back into that gradient, the same shifted sum with the
    flipped kernel over the cotangent padded by the window, where autodiff of
    ``_taps_sum`` would add one padded copy of the cotangent per tap. (A ``custom_vjp``
    would do the same for reverse mode but refuse ``jax.jvp``.) The tangent in the
    kernel is ``taps_apply_p``, which reverse mode transposes into ``taps_reduce_p``:
    every tap's reduction in one pass over the input (table "Depthwise convolutions":
    autodiff's nine reductions took 4.4x as long at (8, 56, 56, 96))."""
    xp, taps = primals
    d_xp, d_taps = tangents
    spatial_axes, _, dilation, _ = geometry  # stride 1 only
    out = _depthwise(geometry, xp, taps)
    terms = []
    if not isinstance(d_xp, jax.custom_derivatives.SymbolicZero):
        spans = [d * (k - 1) for k, d in zip(taps.shape[1:], dilation)]
        flipped = lax.rev(taps, tuple(range(1, taps.ndim)))

        def input_gradient(ct):
            widths = [(0, 0, 0)] * ct.ndim
            for axis, span in zip(spatial_axes, spans):
                widths[axis] = (span, span, 0)
            return _taps_sum(geometry, lax.pad(ct, np.zeros((), ct.dtype), widths), flipped)

        through_input = jax.linear_transpose(
            input_gradient, jax.ShapeDtypeStruct(out.shape, out.dtype)
        )
        terms.append(through_input(d_xp)[0])
    if not isinstance(d_taps, jax.custom_derivatives.SymbolicZero):
        terms.append(taps_apply_p.bind(xp, d_taps, geometry=geometry))
    if not terms:
        return out, jnp.zeros_like(out)
    return out, sum(terms[1:], terms[0])


_depthwise.defjvp(_depthwise_jvp, symbolic_zeros=True)


# Two bilinear primitives for the depthwise kernel's derivatives (stride 1):
# ``taps_apply_p(xp, taps)`` is ``_taps_sum`` and ``taps_reduce_p(xp, ct)`` its transpose
# in ``taps``, every tap's reduction as one variadic reduce, so that reverse mode reads
# the input once for all taps. Each transposes into the other (or, in ``xp``, into the
# full correlation with the flipped taps), so every order of derivative stays on them.


def _out_sizes(geometry, shape, window):
    spatial_axes, _, dilation, _ = geometry
    return [shape[a] - d * (k - 1) for a, k, d in zip(spatial_axes, window, dilation)]


def _taps_apply_abstract_eval(xp, taps, *, geometry):
    shape = list(xp.shape)
    for a, n in zip(geometry[0], _out_sizes(geometry, xp.shape, taps.shape[1:])):
        shape[a] = n
    return jax.core.ShapedArray(tuple(shape), xp.dtype)


def _taps_reduce(xp, ct, *, geometry, window):
    spatial_axes, feature_axis, dilation, _ = geometry
    products = []
    for offset in np.ndindex(*window):
        start, limit = [0] * xp.ndim, list(xp.shape)
        for a, o, d in zip(spatial_axes, offset, dilation):
            start[a], limit[a] = o * d, o * d + ct.shape[a]
        products.append(lax.slice(xp, start, limit) * ct)
    zero = np.zeros((), xp.dtype)
    sums = lax.reduce(
        tuple(products),
        (zero,) * len(products),
        lambda a, b: tuple(u + v for u, v in zip(a, b)),
        tuple(a for a in range(xp.ndim) if a != feature_axis),
    )
    return jnp.stack(sums, axis=1).reshape(xp.shape[feature_axis], *window)


def _taps_reduce_abstract_eval(xp, ct, *, geometry, window):
    return jax.core.ShapedArray((xp.shape[geometry[1]], *window), xp.dtype)


def _full_correlation(ct, taps, geometry):
    """The transpose in ``xp`` of ``taps_apply_p(xp, taps)`` (and of ``taps_reduce_p``
    in ``xp`` with ``taps`` the cotangent): the flipped taps over ``ct`` padded by the
    window's span."""
    spatial_axes, _, dilation, _ = geometry
    widths = [(0, 0, 0)] * ct.ndim
    for a, k, d in zip(spatial_axes, taps.shape[1:], dilation):
        widths[a] = (d * (k - 1), d * (k - 1), 0)
    padded = lax.pad(ct, np.zeros((), ct.dtype), widths)
    flipped = lax.rev(taps, tuple(range(1, taps.ndim)))
    return taps_apply_p.bind(padded, flipped, geometry=geometry)


def _apply_transpose_xp(ct, xp, taps, *, geometry):
    return _full_correlation(ct, taps, geometry)


def _apply_transpose_taps(ct, xp, taps, *, geometry):
    return taps_reduce_p.bind(xp, ct, geometry=geometry, window=tuple(taps.aval.shape[1:]))


def _reduce_transpose_xp(t, xp, ct, *, geometry, window):
    return _full_correlation(ct, t, geometry)


def _reduce_transpose_ct(t, xp, ct, *, geometry, window):
    return taps_apply_p.bind(xp, t, geometry=geometry)


def _merged(value, bdim, size, feature_axis):
    """``value`` with its batch axis merged into the feature axis, batch-major (each
    channel of a depthwise conv is independent of the others)."""
    value = jnp.moveaxis(batching.bdim_at_front(value, bdim, size), 0, feature_axis)
    shape = value.shape
    return value.reshape(
        *shape[:feature_axis], size * shape[feature_axis + 1], *shape[feature_axis + 2 :]
    )


def _apply_batch(args, dims, *, geometry):
    (xp, taps), (x_dim, t_dim) = args, dims
    size = next(v.shape[d] for v, d in zip(args, dims) if d is not None)
    feature_axis = geometry[1]
    xp = _merged(xp, x_dim, size, feature_axis)
    taps = _merged(taps, t_dim, size, 0)
    out = taps_apply_p.bind(xp, taps, geometry=geometry)
    shape = out.shape
    split = (*shape[:feature_axis], size, shape[feature_axis] // size, *shape[feature_axis + 1 :])
    return out.reshape(split), feature_axis


def _reduce_batch(args, dims, *, geometry, window):
    size = next(v.shape[d] for v, d in zip(args, dims) if d is not None)
    xp, ct = (_merged(v, d, size, geometry[1]) for v, d in zip(args, dims))
    out = taps_reduce_p.bind(xp, ct, geometry=geometry, window=window)
    return out.reshape(size, out.shape[0] // size, *window), 0


taps_apply_p = Primitive("jaxpad_depthwise_taps_apply")
taps_apply_p.def_impl(partial(xla.apply_primitive, taps_apply_p))
taps_apply_p.def_abstract_eval(_taps_apply_abstract_eval)
ad.defbilinear(taps_apply_p, _apply_transpose_xp, _apply_transpose_taps)
batching.primitive_batchers[taps_apply_p] = _apply_batch
mlir.register_lowering(
    taps_apply_p,
    mlir.lower_fun(lambda xp, taps, *, geometry: _taps_sum(geometry, xp, taps), False),
)

taps_reduce_p = Primitive("jaxpad_depthwise_taps_reduce")
taps_reduce_p.def_impl(partial(xla.apply_primitive, taps_reduce_p))
taps_reduce_p.def_abstract_eval(_taps_reduce_abstract_eval)
ad.defbilinear(taps_reduce_p, _reduce_transpose_xp, _reduce_transpose_ct)
batching.primitive_batchers[taps_reduce_p] = _reduce_batch
mlir.register_lowering(taps_reduce_p, mlir.lower_fun(_taps_reduce, False))
