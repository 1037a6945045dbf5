"""``computed_once``: the coordinates as one array that every later use reads.

Left to XLA, coordinates computed in the same program (``a * b + c`` from ``iota``)
are recomputed in each fusion that reads them, contracted into an FMA by LLVM in some
and not in others: the tap indices and the weights then come from different roundings
of one coordinate, a whole sample apart at a coordinate within a rounding of an
integer (float32 under ``jit``: outputs off by 0.2 of the range). XLA:CPU drops
optimization barriers before fusion, so the identity is a primitive whose lowering
XLA cannot see through:

- on XLA:CPU, a conditional whose two branches return the coordinates, on a
  predicate XLA cannot fold (whether the first coordinate is ``nan``): XLA fuses
  nothing across it, and the branch hands its operand's buffer on. It cost no time
  measurably (1024x1024 points, order 3: 16.3 ms, 18.5 ms with no guard, 28.9 ms
  with the scatter below; ``benchmarks/interpolation.py``'s warp, one interleaved
  run);
- on every other platform, whose conditionals read the predicate on the host, a
  scatter that writes each coordinate where it was (one pass), which XLA does not
  recompute either. Past 2**31 values its indices would not fit int32 (without JAX's
  64-bit types), and the coordinates are read as given there, as they are where
  their count is symbolic (``jax.export``).

The primitive is the identity to every transformation: its JVP and transpose pass
tangents and cotangents through it, ``vmap`` binds it on the batched array (a
``lax.cond`` in the program would become a select under ``vmap``, which XLA folds
away), and ``jet`` passes each coefficient through it.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax
from jax.experimental import jet
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad._checks import is_static

computed_once_p = Primitive("jaxpad_computed_once")


def computed_once(coords):
    """``coords``, computed once however many fusions read it."""
    return computed_once_p.bind(coords)


def _conditional(coords):
    if coords.size == 0:
        return coords
    first = coords.reshape(-1)[0]
    return lax.cond(jnp.isnan(first), lambda c: c, lambda c: c * 1, coords)


def _scatter(coords):
    if not is_static(coords.size) or coords.size >= 2**31:
        return coords
    flat = coords.reshape(-1)
    points = jnp.arange(flat.size)
    written = (
        jnp.zeros_like(flat).at[points].set(flat, indices_are_sorted=True, unique_indices=True)
    )
    return written.reshape(coords.shape)


def _transpose(ct, coords):
    if type(ct) is ad.Zero:
        return (ad.Zero(coords.aval),)
    return (ct,)


def _batch(args, dims):
    (coords,), (dim,) = args, dims
    return computed_once_p.bind(coords), dim


computed_once_p.def_impl(lambda coords: coords)
computed_once_p.def_abstract_eval(lambda coords: coords)
ad.deflinear2(computed_once_p, _transpose)
batching.primitive_batchers[computed_once_p] = _batch
jet.deflinear(computed_once_p)
mlir.register_lowering(computed_once_p, mlir.lower_fun(_scatter, multiple_results=False))
mlir.register_lowering(
    computed_once_p, mlir.lower_fun(_conditional, multiple_results=False), platform="cpu"
)
