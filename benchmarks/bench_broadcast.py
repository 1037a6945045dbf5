"""jaxpad.broadcast against jnp.broadcast_to, forward and VJP, interleaved medians.

python -m benchmarks.bench_broadcast [--rounds 30]
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad
from benchmarks._timing import interleaved_medians, machine
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
    run(parser.parse_args().rounds)
