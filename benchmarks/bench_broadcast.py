"""jaxpad.broadcast against jnp.broadcast_to, forward and VJP, interleaved medians.

python benchmarks/bench_broadcast.py [--rounds 30]
"""

from __future__ import annotations

import argparse
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import interleaved_medians, machine  # noqa: E402

import jaxpad  # noqa: E402

CASES = [((64, 1, 256), (64, 128, 256)), ((256,), (64, 64, 256)), ((1, 512, 1), (8, 512, 512))]


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
