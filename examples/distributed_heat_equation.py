"""A 2-D heat equation split over 8 devices, with halo exchange and gradients through it.

The domain (128 x 256 cells) is cut into a 2 x 4 grid of 64 x 64 blocks, one per
device of a simulated CPU mesh. Every explicit step ``u += D dt lap(u)`` needs one
cell of halo around each block: ``halo_pad`` brings it from the neighbouring blocks
(``lax.ppermute`` of the halo slabs, nothing else) and, at the domain's edge, from the
boundary condition:

- along x (axis 1): periodic (``"wrap"``), the blocks at both ends exchange halos;
- along y (axis 0): Dirichlet (``"constant"``, the wall held at 0) or reflecting walls
  (``"symmetric"``, no heat flows through them).

The script runs 100 steps inside ``jax.shard_map``, differentiates a misfit through them
with ``jax.grad`` (the VJP sends each halo's cotangent back to the block it came from),
checks the state and the gradients against a single-device solver written with
``jaxpad.pad``, and reads from the compiled HLO how many bytes the devices exchange per
step, against the halo's size.

It runs as one process holding all 8 devices, or as several processes that share them
(JAX's multi-controller runtime, as on several machines; docs/sharding.md, "Many
machines"): ``--processes 2`` starts two local processes of 4 CPU devices each,
joined by ``jax.distributed.initialize`` with gloo collectives. Every process runs
this same program on the global arrays, holds only its own devices' blocks, and
checks those against the single-device solver.

Run: python examples/distributed_heat_equation.py [--boundary dirichlet|reflecting]
         [--processes N]

On real hosts, start one copy per host with the coordinator's address (any free port
on process 0's host) and the process's index; each uses the devices it has, 8 in all
for the 2 x 4 mesh:

    python examples/distributed_heat_equation.py --coordinator HOST0:PORT \
        --processes N --process-id I

which calls ``jax.distributed.initialize(coordinator_address="HOST0:PORT",
num_processes=N, process_id=I)`` before anything else touches JAX (on Cloud TPU and
under SLURM, ``jax.distributed.initialize()`` with no arguments finds all three).
"""

from __future__ import annotations

import argparse
import math
import re
import socket
import subprocess
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

import jaxpad

SHAPE = (128, 256)
MESH_SHAPE = (2, 4)
DEVICES = math.prod(MESH_SHAPE)
DT = 0.2  # dt / dx^2; with D <= 1 the explicit scheme is stable (D dt / dx^2 <= 1/4)
STEPS = 100
WALL_MODE = {"dirichlet": "constant", "reflecting": "symmetric"}


def laplacian(halo: jax.Array) -> jax.Array:
    """The 5-point Laplacian of the interior of a block with a one-cell halo."""
    centre = halo[1:-1, 1:-1]
    return halo[:-2, 1:-1] + halo[2:, 1:-1] + halo[1:-1, :-2] + halo[1:-1, 2:] - 4.0 * centre


# The distributed solver: each device sees its own 64 x 64 block ----------------------


def block_step(u: jax.Array, diffusivity: jax.Array, wall: str) -> jax.Array:
    # One axis after the other: the second exchange carries the first one's halo, so
    # the corners (unused by this stencil) would be right too.
    u_halo = jaxpad.halo_pad(u, (1, 0), (1, 0), WALL_MODE[wall], axis_names=("y", "x"))
    u_halo = jaxpad.halo_pad(u_halo, (0, 1), (0, 1), "wrap", axis_names=("y", "x"))
    return u + diffusivity * DT * laplacian(u_halo)


def distributed_solver(mesh, wall: str, steps: int = STEPS):
    def simulate_block(u0, diffusivity):
        def step(u, _):
            return block_step(u, diffusivity, wall), None

        return jax.lax.scan(step, u0, None, length=steps)[0]

    return jax.shard_map(
        simulate_block, mesh=mesh, in_specs=(P("y", "x"), P()), out_specs=P("y", "x")
    )


# The reference: the whole domain on one device, padded with jaxpad.pad ---------------


def reference_solver(wall: str, steps: int = STEPS):
    def step(u, diffusivity):
        u_halo = jaxpad.pad(u, (1, 0), (1, 0), WALL_MODE[wall])
        u_halo = jaxpad.pad(u_halo, (0, 1), (0, 1), "wrap")
        return u + diffusivity * DT * laplacian(u_halo)

    def simulate(u0, diffusivity):
        return jax.lax.scan(lambda u, _: (step(u, diffusivity), None), u0, None, length=steps)[0]

    return simulate


# What moves between devices -----------------------------------------------------------


def permuted_bytes(compiled_text: str) -> tuple[dict, int, int]:
    """Collectives in an optimized HLO module: {kind: count}, and the bytes of the
    collective-permutes, per device (their operands) and in all (times their pairs)."""
    kinds = ("all-gather", "all-to-all", "all-reduce", "reduce-scatter", "collective-permute")
    counts: dict = {}
    per_device = total = 0
    pattern = rf"= (\w+)\[([\d,]*)\]\S* ({'|'.join(kinds)})(?:-start)?\((.*)"
    for dtype, dims, kind, rest in re.findall(pattern, compiled_text):
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "collective-permute":
            size = np.dtype(dtype.replace("f", "float")).itemsize * math.prod(
                int(d) for d in dims.split(",") if d
            )
            match = re.search(r"source_target_pairs=\{(.*?)\}\}", rest)
            assert match is not None, rest
            pairs = match.group(1).count("{")
            per_device += size
            total += size * pairs
    return counts, per_device, total


def compiled_text(lowered) -> str:
    text = lowered.compile().as_text()
    assert text is not None, "this backend gives no compiled program text"
    return text


def report_bytes(mesh, wall: str, u0, diffusivity) -> tuple[int, int, int, int]:
    step = jax.jit(
        jax.shard_map(
            lambda u, d: block_step(u, d, wall),
            mesh=mesh,
            in_specs=(P("y", "x"), P()),
            out_specs=P("y", "x"),
        )
    )
    counts, per_device, total = permuted_bytes(compiled_text(step.lower(u0, diffusivity)))
    assert set(counts) == {"collective-permute"}, counts
    # The step's VJP in the state alone (the backward pass of the misfit's gradient).
    pullback = jax.jit(lambda t: jax.vjp(lambda u: step(u, diffusivity), u0)[1](t))
    backward = permuted_bytes(compiled_text(pullback.lower(u0)))
    assert backward == (counts, per_device, total), (backward, counts, per_device, total)
    # The halo: 2 rows of 64 cells, then 2 columns of 66 cells (the first exchange's
    # rows included), float32. Every block has one side on a wall, where no row comes
    # from across: all halos together are 8 rows of 64 cells short of 8 halos.
    rows, cols = SHAPE[0] // MESH_SHAPE[0], SHAPE[1] // MESH_SHAPE[1]
    halo = (2 * cols + 2 * (rows + 2)) * 4
    all_halos = 8 * halo - 8 * cols * 4
    print(
        f"  per step: {counts['collective-permute']} collective-permutes, "
        f"{per_device} bytes per device (halo of a block: {halo} bytes), "
        f"{total} bytes in all (all 8 halos minus the walls': {all_halos} bytes); "
        f"the state is {math.prod(SHAPE) * 4} bytes; the same backward"
    )
    return per_device, total, halo, all_halos


def initial_condition() -> np.ndarray:
    """Three hot spots, one across the periodic edge and one near a wall."""
    y, x = np.meshgrid(np.arange(SHAPE[0]), np.arange(SHAPE[1]), indexing="ij")
    spots = [(30, 20, 8.0), (90, 250, 10.0), (120, 140, 9.0)]
    u = np.zeros(SHAPE)
    for cy, cx, s in spots:
        u += np.exp(-((y - cy) ** 2 + (x - cx) ** 2) / (2 * s**2))
    return u.astype(np.float32)


def local_error(global_array: jax.Array, expected: np.ndarray) -> float:
    """The largest difference between this process's blocks of ``global_array`` and the
    same windows of ``expected``: each process reads only the blocks it holds."""
    return max(
        float(np.max(np.abs(np.asarray(shard.data) - expected[shard.index])))
        for shard in global_array.addressable_shards
    )


def replicated_value(global_scalar: jax.Array) -> float:
    """A scalar that every device holds (a reduction's result), read on this process."""
    return float(global_scalar.addressable_data(0))


def main(walls=("dirichlet", "reflecting")) -> dict:
    # Auto axes: shard_map needs nothing more, and the meshes work alike on every JAX
    # release jaxpad supports.
    mesh = jax.make_mesh(MESH_SHAPE, ("y", "x"), axis_types=(AxisType.Auto,) * 2)
    u0_host = initial_condition()
    # The global array, built from each process's data: every process computes the
    # same initial condition and hands JAX only the blocks of its own devices.
    sharding = NamedSharding(mesh, P("y", "x"))
    u0 = jax.make_array_from_callback(SHAPE, sharding, lambda index: u0_host[index])
    # NumPy operands of a jit are replicated on every device of every process.
    diffusivity = np.float32(0.8)
    target = np.roll(u0_host, 5, axis=1) * np.float32(0.9)
    results = {}
    for wall in walls:
        start = time.perf_counter()
        sharded = distributed_solver(mesh, wall)
        single = reference_solver(wall)

        def misfit(solver):
            return lambda u0, d: jnp.sum((solver(u0, d) - target) ** 2)

        final = jax.jit(sharded)(u0, diffusivity)
        grads = jax.jit(jax.grad(misfit(sharded), argnums=(0, 1)))(u0, diffusivity)
        heat = replicated_value(jax.jit(jnp.sum)(final)) / float(u0_host.sum())
        # The reference runs on one device of this process, on the whole domain.
        expected = np.asarray(jax.jit(single)(u0_host, diffusivity))
        expected_grads = jax.jit(jax.grad(misfit(single), argnums=(0, 1)))(u0_host, diffusivity)
        expected_grad_u0 = np.asarray(expected_grads[0])
        state_error = local_error(final, expected)
        grad_u0_error = local_error(grads[0], expected_grad_u0) / np.max(np.abs(expected_grad_u0))
        expected_grad_d = float(expected_grads[1])
        grad_d_error = abs(replicated_value(grads[1]) - expected_grad_d) / abs(expected_grad_d)
        elapsed = time.perf_counter() - start
        print(
            f"{wall} walls along y, periodic along x ({SHAPE[0]}x{SHAPE[1]} cells on a "
            f"{MESH_SHAPE[0]}x{MESH_SHAPE[1]} mesh, {jax.process_count()} process(es), "
            f"{STEPS} steps, {elapsed:.1f} s)"
        )
        print(f"  heat left: {heat:.4f} of the initial heat")
        print(f"  state vs single-device solver: max abs difference {state_error:.1e}")
        print(
            f"  jax.grad through {STEPS} steps vs single device: relative difference "
            f"{grad_u0_error:.1e} (initial state), {grad_d_error:.1e} (diffusivity)"
        )
        per_device, total, halo, all_halos = report_bytes(mesh, wall, u0, diffusivity)
        results[wall] = dict(
            heat=heat,
            state_error=state_error,
            grad_u0_error=grad_u0_error,
            grad_d_error=grad_d_error,
            per_device=per_device,
            total=total,
            halo=halo,
            all_halos=all_halos,
        )
    return results


def check(results: dict) -> None:
    for wall, found in results.items():
        assert found["state_error"] < 1e-5, found
        assert found["grad_u0_error"] < 1e-5 and found["grad_d_error"] < 1e-5, found
        assert found["per_device"] == found["halo"], found
        assert found["total"] == found["all_halos"], found
        # Reflecting walls and a periodic axis keep the heat; cold walls let it out.
        assert abs(found["heat"] - 1) < 1e-4 if wall == "reflecting" else found["heat"] < 1


def start_local_processes(count: int, argv: list[str], timeout: float = 600) -> None:
    """Runs this script as ``count`` local processes joined through a coordinator on a
    free local port, each with ``DEVICES // count`` CPU devices; prints process 0's
    output and fails if any process fails."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, *argv, "--coordinator", f"127.0.0.1:{port}"]
            + ["--processes", str(count), "--process-id", str(i), "--cpu-devices"]
            + [str(DEVICES // count)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for i in range(count)
    ]
    outputs = []
    try:
        outputs = [proc.communicate(timeout=timeout)[0] for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:  # a process the others wait for in a collective
                proc.kill()
                proc.communicate()
    # Process 0's report, without gloo's connection notices.
    print("".join(line for line in outputs[0].splitlines(True) if not line.startswith("[Gloo]")))
    for i, (proc, output) in enumerate(zip(procs, outputs)):
        if proc.returncode:
            sys.exit(f"process {i} failed with exit code {proc.returncode}:\n{output[-3000:]}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boundary", choices=tuple(WALL_MODE), action="append")
    parser.add_argument("--processes", type=int, default=1, help="processes in all (default 1)")
    parser.add_argument(
        "--process-id",
        type=int,
        help="this process's index; without it, --processes N starts N local processes",
    )
    parser.add_argument("--coordinator", help="HOST:PORT of process 0's coordinator")
    parser.add_argument(
        "--cpu-devices", type=int, help="CPU devices of this process (default: all 8)"
    )
    args = parser.parse_args()
    boundary_args = [f"--boundary={wall}" for wall in args.boundary or ()]
    if args.processes > 1 and args.process_id is None:
        if DEVICES % args.processes:
            parser.error(f"--processes must divide the {DEVICES} devices of the mesh")
        start_local_processes(args.processes, boundary_args)
        print("ok")
        sys.exit()
    if args.cpu_devices or args.processes == 1:
        # Simulated CPU devices, before JAX starts its backend: 8 for one process, the
        # local share for each of several on this machine (gloo: CPU collectives
        # across processes).
        jax.config.update("jax_platforms", "cpu")
        jax.config.update("jax_num_cpu_devices", args.cpu_devices or DEVICES)
        if args.processes > 1:
            jax.config.update("jax_cpu_collectives_implementation", "gloo")
    if args.processes > 1:
        jax.distributed.initialize(
            coordinator_address=args.coordinator,
            num_processes=args.processes,
            process_id=args.process_id,
        )
    results = main(tuple(args.boundary or WALL_MODE))
    check(results)
    if args.processes > 1:
        jax.distributed.shutdown()
    if args.process_id is None:
        print("ok")
