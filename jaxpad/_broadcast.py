"""``jaxpad.broadcast``: OpenVINO Broadcast-1 (numpy, explicit) and Broadcast-3
(bidirectional) as one primitive.

Laid out as ``_pad.py``: the public function, the shape rule, transpose, batching,
lowering and the registration block.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, xla
from jax.typing import ArrayLike

from jaxpad import _checks
from jaxpad._lowering import register_lowering
from jaxpad._sharding import moved_axes_sharding
from jaxpad._typing import IntSequence

_FN = "jaxpad.broadcast"
BROADCAST_MODES = ("numpy", "explicit", "bidirectional")


def broadcast(
    x: ArrayLike,
    target_shape: IntSequence,
    mode: str = "numpy",
    axes_mapping: IntSequence | None = None,
) -> jax.Array:
    """Replicates ``x`` to fit ``target_shape``.

    Args:
      x: the array to broadcast; any dtype ``jaxpad.pad`` supports.
      target_shape: the output shape, as Python ints, a tuple or a concrete 1-D
        integer array (OpenVINO passes it as a tensor). Under ``jax.export`` an
        entry may be a symbolic dimension, such as ``y.shape[0]`` of a symbolic
        input; an axis of ``x`` meets it if it is 1 or the same expression.
      mode: ``"numpy"``: one-directional numpy broadcasting, ``x`` aligned with the
        trailing axes of the target. ``"explicit"``: input axis ``i`` goes to output
        axis ``axes_mapping[i]``. ``"bidirectional"`` (OpenVINO Broadcast-3, ONNX
        Expand): the output shape is the two-way numpy broadcast of ``x.shape`` and
        ``target_shape``, so it may differ from the target.
      axes_mapping: explicit mode only; one sorted output axis per input axis.
        Negative entries count from the end of the output.

    Returns:
      ``x`` replicated along the new and the stretched size-1 axes.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> jaxpad.broadcast(jnp.array([1, 2]), [2, 3, 2], "explicit", axes_mapping=[0]).shape
      (2, 3, 2)
    """
    x = jnp.asarray(x)
    mode = _checks.check_choice(_FN, "mode", mode, BROADCAST_MODES)
    target_shape = _checks.static_int_tuple(
        _FN,
        "target_shape",
        target_shape,
        traced_hint=" The output shape of a JAX op must be known at trace time.",
        allow_symbolic=True,
    )
    if mode != "explicit" and axes_mapping is not None:
        raise ValueError(
            f"{_FN}: axes_mapping is only used by mode='explicit'; got axes_mapping="
            f"{_checks.describe(axes_mapping)} with mode={mode!r}."
        )
    if mode == "explicit":
        if axes_mapping is None:
            raise ValueError(f"{_FN}: mode='explicit' needs axes_mapping; got None.")
        axes_mapping = _checks.static_int_tuple(_FN, "axes_mapping", axes_mapping)
    return broadcast_p.bind(x, target_shape=target_shape, mode=mode, axes_mapping=axes_mapping)


# Shape rule ---------------------------------------------------------------------


def broadcast_plan(x_shape, target_shape, mode, axes_mapping):
    """Validates a broadcast; returns the output shape and each input axis's output axis."""
    x_shape, target_shape = tuple(x_shape), tuple(target_shape)
    _checks.check_non_negative(_FN, "target_shape", target_shape)
    ndim, rank = len(x_shape), len(target_shape)
    if mode == "bidirectional":
        out_rank = max(ndim, rank)
        padded_x = (1,) * (out_rank - ndim) + x_shape
        padded_target = (1,) * (out_rank - rank) + target_shape
        out_shape = []
        for axis, (a, b) in enumerate(zip(padded_x, padded_target)):
            if a != b and 1 not in (a, b):
                raise ValueError(
                    f"{_FN}: x.shape={x_shape} and target_shape={target_shape} do not "
                    f"broadcast: axis {axis - (out_rank - ndim)} of x has size {a}, the "
                    f"target has {b} there, and neither is 1."
                )
            out_shape.append(b if a == 1 else a)
        return tuple(out_shape), tuple(range(out_rank - ndim, out_rank))
    if mode == "numpy":
        if rank < ndim:
            raise ValueError(
                f"{_FN}: mode='numpy' cannot broadcast x.shape={x_shape} to the lower-rank "
                f"target_shape={target_shape}; use mode='bidirectional' for that."
            )
        dims = tuple(range(rank - ndim, rank))
    else:
        _checks.check_length(_FN, "axes_mapping", axes_mapping, ndim)
        dims = tuple(a + rank if a < 0 else a for a in axes_mapping)
        if any(not 0 <= a < rank for a in dims):
            raise ValueError(
                f"{_FN}: axes_mapping entries must lie in [-{rank}, {rank}) for a target "
                f"of rank {rank}; got {axes_mapping}."
            )
        if len(set(dims)) != len(dims):
            raise ValueError(f"{_FN}: axes_mapping has a repeated axis; got {axes_mapping}.")
        if list(dims) != sorted(dims):
            raise ValueError(
                f"{_FN}: axes_mapping must be sorted (Broadcast does not transpose); "
                f"got {axes_mapping}."
            )
    for axis, out_axis in enumerate(dims):
        if x_shape[axis] not in (1, target_shape[out_axis]):
            raise ValueError(
                f"{_FN}: axis {axis} of x.shape={x_shape} has size {x_shape[axis]}, which "
                f"is neither 1 nor target_shape[{out_axis}]={target_shape[out_axis]} "
                f"(target_shape={target_shape})."
            )
    return target_shape, dims


def _broadcast_abstract_eval(x, *, target_shape, mode, axes_mapping):
    out_shape, dims = broadcast_plan(x.shape, target_shape, mode, axes_mapping)
    # A stretched size-1 axis cannot have been split, so only kept sizes carry their mesh axes.
    sources = [
        dims.index(axis) if axis in dims and x.shape[dims.index(axis)] == size else None
        for axis, size in enumerate(out_shape)
    ]
    sharding = moved_axes_sharding(x, out_shape, sources)
    return x.update(shape=out_shape, dtype=x.dtype, sharding=sharding)


# Transpose ----------------------------------------------------------------------


def _broadcast_transpose(t, x, *, target_shape, mode, axes_mapping):
    shape = x.aval.shape
    out_shape, dims = broadcast_plan(shape, target_shape, mode, axes_mapping)
    replicated = tuple(
        axis
        for axis in range(len(out_shape))
        if axis not in dims or shape[dims.index(axis)] != out_shape[axis]
    )
    summed = t.sum(axis=replicated, keepdims=True) if replicated else t
    return [summed.reshape(shape)]


# Batching -----------------------------------------------------------------------


def _broadcast_batch(batched_args, batch_dims, *, target_shape, mode, axes_mapping):
    (x,), (bdim,) = batched_args, batch_dims
    out_shape, dims = broadcast_plan(
        tuple(d for i, d in enumerate(x.shape) if i != bdim),
        target_shape,
        mode,
        axes_mapping,
    )
    x = jnp.moveaxis(x, bdim, 0)
    out = broadcast_p.bind(
        x,
        target_shape=(x.shape[0], *out_shape),
        mode="explicit",
        axes_mapping=(0, *(d + 1 for d in dims)),
    )
    return out, 0


# Lowering -----------------------------------------------------------------------


def _broadcast_lowering(x, *, target_shape, mode, axes_mapping):
    out_shape, dims = broadcast_plan(x.shape, target_shape, mode, axes_mapping)
    return lax.broadcast_in_dim(x, out_shape, dims)


# Registration -------------------------------------------------------------------

broadcast_p = Primitive("jaxpad_broadcast")
broadcast_p.def_impl(partial(xla.apply_primitive, broadcast_p))
broadcast_p.def_abstract_eval(_broadcast_abstract_eval)
ad.deflinear2(broadcast_p, _broadcast_transpose)
batching.primitive_batchers[broadcast_p] = _broadcast_batch
# One broadcast_in_dim on every platform: nothing to plan.
register_lowering(broadcast_p, _broadcast_lowering, per_platform=False, auto_axes=False)
