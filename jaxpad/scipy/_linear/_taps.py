"""``jaxpad_scipy_taps``: the weighted sum of static slices of a padded array.

``taps(xp, weights, out_shape)[i] = sum_k weights[k] * xp[i + k]`` (a 'valid'
correlation). Its lowering is the shifted multiply-adds that XLA:CPU fuses into one
loop. As a primitive it has its own transpose: the same correlation of the
zero-padded cotangent with the reversed weights, which fuses the same way; left to
JAX, the transpose of each slice is a zero pad of the whole array, and the sum of those
pads before jaxpad's fold took 25-160x the forward's time for the Gaussians of
docs/scipy.md (0.7-16x with this rule).

The filters bind ``jaxpad_scipy_padded_taps`` (``_padded_taps.py``: the pad and the
taps as one primitive, so that its transpose can fold the pad's frame alone) and
``jaxpad_scipy_padded_passes`` (``_padded_passes.py``: the separable filters' 1-D
passes); the minimum, maximum and rank filters' primitives live in
``jaxpad/scipy/_selection/``.
"""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

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


def _on_cpu(cpu) -> bool:
    """XLA:CPU's rules: ``cpu`` from the platform's lowering, None (eager) the default
    backend's."""
    return bool(jax.default_backend() == "cpu" if cpu is None else cpu)


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
