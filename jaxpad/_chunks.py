"""``over_chunks``: a step over the points of a backward pass a chunk at a time.

The input gradients of ``map_coordinates`` and ``grid_sample`` scatter-add every
point's weighted taps, and ``grid_sample``'s grid gradient reduces each tap's gathered
cells against the cotangent. Written as one pass, XLA:CPU writes each tap's updates
or cells out for all the points (megabytes a tap) and reads them back, since it does
not fuse a scatter's updates into it nor a gather into a reduction of another
fusion. Over chunks of points (a loop), each chunk's updates and cells are written
and read while they are in cache: at a million 2-D points, ``map_coordinates``' order-3
input VJP 40 -> 24-25 ms; ``grid_sample`` (8, 64, 64, 64) forward and backward,
bilinear 22-26 -> 8-12 ms, bicubic 72-77 -> 29 ms (``benchmarks/interpolation.py``,
``benchmarks/grid_sample.py``; interleaved runs in one process). Platforms nobody has
measured take the one pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jax import lax

from jaxpad._checks import is_static


def over_chunks(
    step: Callable[..., Any],
    init: Any,
    arrays: Sequence[Any],
    size: int | None,
    axis: int = 0,
) -> Any:
    """``step(carry, start, *parts)`` over consecutive chunks of ``size`` points of
    ``arrays`` (the points on ``axis`` of each; None entries stay None), a shorter
    chunk last; returns the carry. ``start``: the chunk's first point. On XLA:CPU
    only, and where there are at least two full chunks of a static number of points
    below 2**31; else (and where ``size`` is None) one ``step(init, 0, *arrays)``."""
    present = [i for i, a in enumerate(arrays) if a is not None]
    points = arrays[present[0]].shape[axis]

    def unpacked(values):
        out = [None] * len(arrays)
        for i, value in zip(present, values):
            out[i] = value
        return out

    def one_pass(init, *values):
        return step(init, 0, *unpacked(values))

    def chunked(init, *values):
        full = points // size

        def chunk(i, carry):
            start = i * size
            parts = [lax.dynamic_slice_in_dim(v, start, size, axis) for v in values]
            return step(carry, start, *unpacked(parts))

        carry = lax.fori_loop(0, full, chunk, init)
        done = full * size
        if done < points:
            tail = [lax.slice_in_dim(v, done, points, axis=axis) for v in values]
            carry = step(carry, done, *unpacked(tail))
        return carry

    values = [arrays[i] for i in present]
    # a chunk's start is an int32 (without JAX's 64-bit types): past 2**31 points, one pass
    if size is None or not is_static(points) or not 2 * size <= points < 2**31:
        return one_pass(init, *values)
    return lax.platform_dependent(init, *values, cpu=chunked, default=one_pass)
