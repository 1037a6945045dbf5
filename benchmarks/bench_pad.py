"""jaxpad.pad against jnp.pad and constant-mode lax.pad, forward and VJP.

    python benchmarks/bench_pad.py [--rounds 30] [--shape 16,64,64,64] [--pad 3]

Every candidate is jitted and timed in interleaved rounds in one process; the table
shows medians and the ratios against constant-mode lax.pad (forward) and against the
constant-mode VJP (a slice).
"""

from __future__ import annotations

import argparse
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

sys.path.insert(0, os.path.dirname(__file__))
from _timing import interleaved_medians, machine  # noqa: E402

import jaxpad  # noqa: E402

MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def _vjp(fn):
    return jax.jit(lambda x, ct: jax.vjp(fn, x)[1](ct)[0])


def run(shape, pad_axes, pad, rounds):
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=shape).astype(np.float32))
    begin = [pad if a in pad_axes else 0 for a in range(len(shape))]
    widths = [(b, b) for b in begin]
    out_shape = tuple(n + 2 * b for n, b in zip(shape, begin))
    ct = jnp.asarray(rng.normal(size=out_shape).astype(np.float32))
    config = [(b, b, 0) for b in begin]

    def lax_constant(x):
        return lax.pad(x, np.float32(0), config)

    candidates, args = {}, {}
    candidates["lax.pad constant fwd"] = jax.jit(lax_constant)
    candidates["lax.pad constant vjp"] = _vjp(lax_constant)
    for mode in MODES:

        def ours(x, mode=mode):
            return jaxpad.pad(x, begin, begin, mode)

        def theirs(x, mode=mode):
            return jnp.pad(x, widths, mode=mode)

        candidates[f"jaxpad {mode} fwd"] = jax.jit(ours)
        candidates[f"jaxpad {mode} vjp"] = _vjp(ours)
        candidates[f"jnp.pad {mode} fwd"] = jax.jit(theirs)
        candidates[f"jnp.pad {mode} vjp"] = _vjp(theirs)
    for name in candidates:
        args[name] = (x,) if name.endswith("fwd") else (x, ct)
    medians = interleaved_medians(candidates, args, rounds=rounds)
    fwd_ref = medians["lax.pad constant fwd"]
    vjp_ref = medians["lax.pad constant vjp"]
    print(f"\nshape {shape}, pad {pad} on axes {pad_axes}, float32; {machine()}")
    print(f"medians of {rounds} interleaved rounds; ratios against constant-mode lax.pad")
    print(
        "| mode | jaxpad fwd ms | x lax.pad | jaxpad VJP ms | x const VJP "
        "| jnp.pad fwd ms | jnp.pad VJP ms | jnp.pad VJP / jaxpad VJP |"
    )
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for mode in MODES:
        f, v = medians[f"jaxpad {mode} fwd"], medians[f"jaxpad {mode} vjp"]
        jf, jv = medians[f"jnp.pad {mode} fwd"], medians[f"jnp.pad {mode} vjp"]
        rows.append(
            dict(
                mode=mode,
                fwd=f,
                vjp=v,
                fwd_ratio=f / fwd_ref,
                vjp_ratio=v / vjp_ref,
                jnp_fwd=jf,
                jnp_vjp=jv,
            )
        )
        print(
            f"| {mode} | {1e3 * f:.2f} | {f / fwd_ref:.2f} | {1e3 * v:.2f} | "
            f"{v / vjp_ref:.2f} | {1e3 * jf:.2f} | {1e3 * jv:.2f} | {jv / v:.1f} |"
        )
    print(f"(lax.pad constant: fwd {1e3 * fwd_ref:.2f} ms, VJP {1e3 * vjp_ref:.2f} ms)")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--shape", default="16,64,64,64")
    parser.add_argument("--axes", default="1,2")
    parser.add_argument("--pad", type=int, default=3)
    args = parser.parse_args()
    shape = tuple(int(s) for s in args.shape.split(","))
    axes = tuple(int(a) for a in args.axes.split(","))
    run(shape, axes, args.pad, args.rounds)


if __name__ == "__main__":
    main()
