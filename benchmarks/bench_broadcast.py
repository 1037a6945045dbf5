"""jaxpad.broadcast against jnp.broadcast_to, forward and VJP, interleaved medians.

python -m benchmarks.bench_broadcast [--rounds 30] [--pinned]

The C library's default allocator is kept (what users run); ``--pinned`` re-executes
with malloc pinned (benchmarks/_timing.py).
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad
from benchmarks._timing import allocator, interleaved_medians, load, machine, parse_args_allocator
from benchmarks.cases import BROADCAST_CASES as CASES


def run(rounds):
    rng = np.random.default_rng(0)
    candidates, args = {}, {}
    for shape, target in CASES:
        x = jnp.asarray(rng.normal(size=shape).astype(np.float32))
        ct = jnp.asarray(rng.normal(size=target).astype(np.float32))
        for name, fn in [
            ("jaxpad", lambda x, t=target: jaxpad.broadcast(x, t)),
            ("jnp", lambda x, t=target: jnp.broadcast_to(x, t)),
        ]:
            # Forward: a consumer, so neither side can return an unmaterialised view.
            candidates[(shape, name, "fwd")] = jax.jit(lambda x, fn=fn: fn(x) * 2.0)
            args[(shape, name, "fwd")] = (x,)
            candidates[(shape, name, "vjp")] = jax.jit(
                lambda x, ct, fn=fn: jax.vjp(fn, x)[1](ct)[0]
            )
            args[(shape, name, "vjp")] = (x, ct)
    medians = interleaved_medians(candidates, args, rounds=rounds)
    print(f"jaxpad.broadcast vs jnp.broadcast_to, float32; {machine()}")
    print(f"malloc {allocator()}; {load()}")
    print(f"medians of {rounds} interleaved rounds")
    print(
        "| x shape | target | jaxpad fwd ms | jnp fwd ms | ratio | jaxpad VJP ms | jnp VJP ms "
        "| ratio |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for shape, target in CASES:
        f, jf = medians[(shape, "jaxpad", "fwd")], medians[(shape, "jnp", "fwd")]
        v, jv = medians[(shape, "jaxpad", "vjp")], medians[(shape, "jnp", "vjp")]
        print(
            f"| {shape} | {target} | {1e3 * f:.2f} | {1e3 * jf:.2f} | {f / jf:.2f} | "
            f"{1e3 * v:.2f} | {1e3 * jv:.2f} | {v / jv:.2f} |"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    run(parse_args_allocator(parser).rounds)
