"""``computed_once``: an array (map_coordinates' coordinates and prefiltered
coefficients, grid_sample's channels-last copies) as one buffer that every later use
reads.

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

With ``periods`` (one per row of coordinates, 0 for none), the same pass also brings
every finite coordinate of ``SMALL`` or more in magnitude within one period of 0, by
an exact remainder, so that the caller can take the whole part of every coordinate
as an int32 and reduce it by integer arithmetic (``_map._split_rem``; XLA:CPU calls
``fmodf`` element by element for a floating remainder by anything but a power of
two: see ``_map._integer_reduction``). On XLA:CPU the remainder is taken in the
conditional's second branch, which runs only when some coordinate is that far out
(or not finite: a second predicate then looks for a finite far one);
the predicate is one pass reading the coordinates, and where they are a parameter
of the program XLA copies them for the branch that could write them (together
0.4-0.6 ms at a million 2-D points). Elsewhere it is a select. The reduced
coordinate differs from the coordinate by a whole number of periods and keeps its
sign (a negative multiple of the period becomes ``-period``), which is all the
modes' reductions read.

The primitive is the identity to every transformation: its JVP passes tangents
through (the reduction subtracts whole periods), ``vmap`` binds it on the batched
array (a ``lax.cond`` in the program would become a select under ``vmap``, which XLA
folds away), and ``jet`` passes each coefficient through it.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import jet
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad._checks import is_static

computed_once_p = Primitive("jaxpad_computed_once")

# Coordinates below this in magnitude are left as they are: their whole parts fit
# int32 with room for the taps and a period.
SMALL = 2.0**30


def computed_once(coords, periods: tuple[int, ...] = (), off_cpu: bool = True):
    """``coords`` (rows on axis 0), computed once however many fusions read it; with
    ``periods``, each row's far coordinates brought within a period of 0. Without
    ``off_cpu``, platforms other than XLA:CPU read ``coords`` as they come (no
    scatter: for arrays whose recomputation only costs time, measured on CPU)."""
    if periods:
        periods = tuple(max(int(p), 0) for p in periods)
        if not any(periods):
            periods = ()
    return computed_once_p.bind(coords, periods=periods, axis=0, off_cpu=off_cpu)


def _periods(coords, periods, axis):
    shape = [1] * coords.ndim
    shape[axis] = len(periods)
    return jnp.asarray(np.array(periods, coords.dtype).reshape(shape))


def _far(coords, period):
    return jnp.isfinite(coords) & (jnp.abs(coords) >= SMALL) & (period > 0)


def _reduced(coords, periods, axis):
    """``coords`` with every finite coordinate of ``SMALL`` or more in magnitude (in a
    row with a period) brought within a period of 0, keeping its sign."""
    period = _periods(coords, periods, axis)
    far = _far(coords, period)
    rem = lax.rem(coords, jnp.where(period > 0, period, 1).astype(coords.dtype))
    wrapped = jnp.where((coords < 0) & (rem == 0), -period, rem)
    return jnp.where(far, wrapped, coords)


def _maybe_far(coords, periods, axis):
    """Whether any coordinate may be far: true where one is ``SMALL`` or more in
    magnitude, infinite or ``nan`` (the reduction leaves those as they are). The
    largest magnitude is one vectorized pass (0.2 ms at two million coordinates, where
    testing each for being finite and far took 0.4)."""
    rows = [i for i, p in enumerate(periods) if p > 0]
    if len(rows) < len(periods):
        coords = jnp.take(coords, np.array(rows, np.int32), axis=axis)
    return ~(jnp.max(jnp.abs(coords)) < SMALL)


def _finite_far(coords, periods, axis):
    """Whether some finite coordinate is far (``_maybe_far`` may be true for an
    infinite or ``nan`` one too): the remainder's pass runs only then. An infinity
    among a million 2-D points added 1.6-1.9 ms to the forward (orders 0, 1 and 3,
    mirror and wrap: the remainder calls ``fmodf`` for every coordinate), 0.2-0.4 ms
    with this second predicate (one interleaved run)."""
    return jnp.any(_far(coords, _periods(coords, periods, axis)))


def _value(coords, *, periods, axis, off_cpu=True):
    return _reduced(coords, periods, axis) if periods else coords


def _conditional(coords, *, periods, axis, off_cpu):
    if coords.size == 0:
        return coords
    if not periods:
        first = coords.reshape(-1)[0]
        return lax.cond(jnp.isnan(first), lambda c: c, lambda c: c * 1, coords)
    return lax.cond(
        _maybe_far(coords, periods, axis),
        lambda c: lax.cond(
            _finite_far(c, periods, axis), lambda c: _reduced(c, periods, axis), lambda c: c, c
        ),
        lambda c: c * 1,
        coords,
    )


def _scatter(coords, *, periods, axis, off_cpu):
    coords = _value(coords, periods=periods, axis=axis)
    if not off_cpu or not is_static(coords.size) or coords.size >= 2**31:
        return coords
    flat = coords.reshape(-1)
    points = jnp.arange(flat.size)
    written = (
        jnp.zeros_like(flat).at[points].set(flat, indices_are_sorted=True, unique_indices=True)
    )
    return written.reshape(coords.shape)


def _jvp(primals, tangents, **params):
    (coords,), (tangent,) = primals, tangents
    return computed_once_p.bind(coords, **params), tangent


def _batch(args, dims, *, axis, **params):
    (coords,), (dim,) = args, dims
    return computed_once_p.bind(coords, axis=axis + (dim <= axis), **params), dim


def _taylor(primals_in, series_in, **params):
    (coords,), (series,) = primals_in, series_in
    return computed_once_p.bind(coords, **params), series


computed_once_p.def_impl(_value)
computed_once_p.def_abstract_eval(lambda coords, **_: coords)
ad.primitive_jvps[computed_once_p] = _jvp
batching.primitive_batchers[computed_once_p] = _batch
jet.jet_rules[computed_once_p] = _taylor
mlir.register_lowering(computed_once_p, mlir.lower_fun(_scatter, multiple_results=False))
mlir.register_lowering(
    computed_once_p, mlir.lower_fun(_conditional, multiple_results=False), platform="cpu"
)
