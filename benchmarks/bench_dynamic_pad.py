"""jaxpad.dynamic_pad with per-example offsets against the static pad and jnp.take.

    python -m benchmarks.bench_dynamic_pad [--rounds 30]

A batch of 64 images (64, 64, 64, 3) float32 is translated per image by offsets in
[-8, 8] on the two spatial axes, reflecting, output shape equal to the input's.
References: (a) the static ``jaxpad.pad`` of the same output shape (one fixed
offset for the whole batch), (b) the workaround without jaxpad: per-image
``jnp.take`` with computed reflect indices under ``vmap``. Forward and VJP, all
interleaved in one process; medians and ratios.
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad
from benchmarks._timing import interleaved_medians, machine
from benchmarks.cases import DYNAMIC_PAD_MAX_OFFSET as MAX_OFFSET
from benchmarks.cases import DYNAMIC_PAD_SHAPE as SHAPE


def reflect_indices(n, offsets):
    """numpy.pad's reflect map for offsets j = i - pads_begin (any sign), in jnp."""
    period = 2 * (n - 1)
    phase = jnp.remainder(offsets, period)
    return jnp.where(phase < n, phase, period - phase)


def candidates():
    _, height, width, channels = SHAPE

    def dynamic_sequence(x, offsets):
        def one(image, offset):
            return jaxpad.dynamic_pad(image, (offset[0], offset[1], 0), image.shape, "reflect")

        return jax.vmap(one)(x, offsets)

    def dynamic_array(x, offsets):
        # All three pads traced, the channel one a traced zero.
        def one(image, offset):
            pads = jnp.concatenate([offset, jnp.zeros((1,), offset.dtype)])
            return jaxpad.dynamic_pad(image, pads, image.shape, "reflect")

        return jax.vmap(one)(x, offsets)

    def static_pad(x, offsets):
        del offsets
        return jaxpad.pad(x, (0, 3, 3, 0), (0, -3, -3, 0), "reflect")

    def jnp_take(x, offsets):
        def one(image, offset):
            rows = reflect_indices(height, jnp.arange(height) - offset[0])
            cols = reflect_indices(width, jnp.arange(width) - offset[1])
            return jnp.take(jnp.take(image, rows, axis=0), cols, axis=1)

        return jax.vmap(one)(x, offsets)

    return {
        "dynamic_pad (offsets as a sequence)": dynamic_sequence,
        "dynamic_pad (offsets as an array)": dynamic_array,
        "(a) static jaxpad.pad": static_pad,
        "(b) vmap of jnp.take": jnp_take,
    }


def run(rounds):
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=SHAPE).astype(np.float32))
    ct = jnp.asarray(rng.normal(size=SHAPE).astype(np.float32))
    offsets = jnp.asarray(rng.integers(-MAX_OFFSET, MAX_OFFSET + 1, (SHAPE[0], 2)), jnp.int32)
    fns = candidates()
    reference = fns["(b) vmap of jnp.take"](x, offsets)
    for name in ("dynamic_pad (offsets as a sequence)", "dynamic_pad (offsets as an array)"):
        np.testing.assert_array_equal(jax.jit(fns[name])(x, offsets), reference)
    timed, args = {}, {}
    for name, fn in fns.items():
        timed[f"{name} fwd"] = jax.jit(fn)
        args[f"{name} fwd"] = (x, offsets)
        timed[f"{name} vjp"] = jax.jit(
            lambda x, offsets, ct, fn=fn: jax.vjp(lambda x: fn(x, offsets), x)[1](ct)[0]
        )
        args[f"{name} vjp"] = (x, offsets, ct)
    medians = interleaved_medians(timed, args, rounds=rounds)
    print(
        f"\nshape {SHAPE} float32, reflect, offsets in [-{MAX_OFFSET}, {MAX_OFFSET}]; {machine()}"
    )
    print(f"medians of {rounds} interleaved rounds")
    print("| candidate | fwd ms | fwd / (a) | fwd / (b) | VJP ms | VJP / (a) | VJP / (b) |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    for name in fns:
        f, v = medians[f"{name} fwd"], medians[f"{name} vjp"]
        a_f, a_v = medians["(a) static jaxpad.pad fwd"], medians["(a) static jaxpad.pad vjp"]
        b_f, b_v = medians["(b) vmap of jnp.take fwd"], medians["(b) vmap of jnp.take vjp"]
        rows.append(dict(name=name, fwd=f, vjp=v, fwd_a=f / a_f, vjp_a=v / a_v))
        print(
            f"| {name} | {1e3 * f:.2f} | {f / a_f:.2f} | {f / b_f:.2f} | "
            f"{1e3 * v:.2f} | {v / a_v:.2f} | {v / b_v:.2f} |"
        )
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    run(parser.parse_args().rounds)


if __name__ == "__main__":
    main()
