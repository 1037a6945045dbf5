"""One process of tests/test_distributed.py: sharded global pads and ``halo_pad`` in
``shard_map``, values and gradients, on a 2 x 4 mesh of CPU devices.

Run as ``python tests/distributed_worker.py OUT.npz --processes N --process-id I
--port PORT``: with ``--processes 2`` two of these, four CPU devices each, join
through ``jax.distributed.initialize`` (gloo collectives) and the mesh spans both;
with ``--processes 1`` one process holds all eight devices. Each process gathers every
result (``process_allgather``) and writes them to ``OUT.npz``; the test compares the
files. The data come from a fixed seed, so every process builds the same global
arrays, and each puts only its own devices' blocks on them.
"""

from __future__ import annotations

import argparse

import jax

DEVICES = 8
MESH_SHAPE = (2, 4)  # ("y", "x"): "y" across the processes, "x" within each
SHAPE = (8, 16)

# (name, begin, end, mode, pad_value): global pads of a ("y", "x")-sharded array.
GLOBAL_PADS = [
    ("constant", (1, 2), (2, 1), "constant", 1.5),
    ("reflect", (2, 3), (1, 2), "reflect", None),
    ("wrap", (3, 1), (2, 3), "wrap", None),
    ("per-side", (1, 2), (2, 2), (("constant", "edge"), ("symmetric", "wrap")), 0.5),
]
# (name, halo, mode, pad_value): halo_pad of each block, halo on both sides.
HALOS = [
    ("constant", (1, 2), "constant", 1.5),
    ("reflect", (2, 1), "reflect", None),
    ("wrap", (1, 3), "wrap", None),
    ("edge", (2, 2), "edge", None),
    ("per-side", (1, 2), (("constant", "symmetric"), ("wrap", "wrap")), -0.5),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--process-id", type=int, default=0)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()

    jax.config.update("jax_platforms", "cpu")
    jax.config.update("jax_num_cpu_devices", DEVICES // args.processes)
    if args.processes > 1:
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
        jax.distributed.initialize(
            coordinator_address=f"127.0.0.1:{args.port}",
            num_processes=args.processes,
            process_id=args.process_id,
            initialization_timeout=120,
        )
    results = run()
    if jax.process_index() == 0:
        import numpy as np

        np.savez(args.out, **results)
    if args.processes > 1:
        jax.distributed.shutdown()


def run() -> dict:
    import jax.numpy as jnp
    import numpy as np
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    import jaxpad

    assert jax.device_count() == DEVICES, jax.devices()
    # Auto axes (XLA's partitioner places the pads' intermediates), spelled out:
    # make_mesh's default differs between JAX releases.
    mesh = jax.make_mesh(MESH_SHAPE, ("y", "x"), axis_types=(AxisType.Auto,) * 2)
    spec = P("y", "x")
    sharding = NamedSharding(mesh, spec)
    rng = np.random.default_rng(33)
    host = rng.standard_normal(SHAPE).astype(np.float32)
    # Each process places only the blocks of its own devices (the callback is asked for
    # those alone); the global array spans every process's devices.
    x = jax.make_array_from_callback(SHAPE, sharding, lambda index: host[index])
    results = {"x": host}

    # Every result replicated on every device: each process then reads it whole from
    # its first device.
    replicated = NamedSharding(mesh, P())

    def gather(fn, *args):
        return jax.tree.map(
            lambda out: np.asarray(out.addressable_data(0)),
            jax.jit(fn, out_shardings=replicated)(*args),
        )

    for name, begin, end, mode, value in GLOBAL_PADS:
        # NumPy operands: a multi-process jit takes them as replicated on every device.
        out_shape = tuple(b + n + e for b, n, e in zip(begin, SHAPE, end))
        weights = rng.standard_normal(out_shape).astype(np.float32)

        def padded(x, value, begin=begin, end=end, mode=mode, reads=value is not None):
            return jaxpad.pad(x, begin, end, mode, value if reads else None)

        def loss(x, value, padded=padded, weights=weights):
            return jnp.sum(padded(x, value) * weights)

        pad_value = np.float32(0.0 if value is None else value)
        results[f"pad/{name}"] = gather(padded, x, pad_value)
        grads = gather(jax.grad(loss, argnums=(0, 1)), x, pad_value)
        results[f"pad/{name}/grad_x"], results[f"pad/{name}/grad_value"] = grads

    for name, halo, mode, value in HALOS:
        block = tuple(n // m for n, m in zip(SHAPE, MESH_SHAPE))
        out_block = tuple(n + 2 * h for n, h in zip(block, halo))
        weights_host = rng.standard_normal(
            tuple(m * b for m, b in zip(MESH_SHAPE, out_block))
        ).astype(np.float32)
        weights = jax.make_array_from_callback(
            weights_host.shape, sharding, lambda index, w=weights_host: w[index]
        )

        def body(x, value, halo=halo, mode=mode, reads=value is not None):
            value = value if reads else None
            return jaxpad.halo_pad(x, halo, halo, mode, value, axis_names=("y", "x"))

        padded = jax.shard_map(body, mesh=mesh, in_specs=(spec, P()), out_specs=spec)

        def loss(x, value, weights, padded=padded):
            return jnp.sum(padded(x, value) * weights)

        pad_value = np.float32(0.0 if value is None else value)
        results[f"halo/{name}"] = gather(padded, x, pad_value)
        grads = gather(jax.grad(loss, argnums=(0, 1)), x, pad_value, weights)
        results[f"halo/{name}/grad_x"], results[f"halo/{name}/grad_value"] = grads
    return results


if __name__ == "__main__":
    main()
