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

Run: python examples/distributed_heat_equation.py [--boundary dirichlet|reflecting]
"""

from __future__ import annotations

import os

# 8 simulated CPU devices; must be set before JAX starts.
_FLAG = "--xla_force_host_platform_device_count=8"
os.environ["XLA_FLAGS"] = " ".join(filter(None, [os.environ.get("XLA_FLAGS"), _FLAG]))

import argparse  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
import time  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import jaxpad  # noqa: E402

SHAPE = (128, 256)
MESH_SHAPE = (2, 4)
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


def main(walls=("dirichlet", "reflecting")) -> dict:
    mesh = jax.make_mesh(MESH_SHAPE, ("y", "x"), axis_types=(AxisType.Explicit,) * 2)
    u0_host = initial_condition()
    u0 = jax.device_put(u0_host, NamedSharding(mesh, P("y", "x")))
    diffusivity = jnp.float32(0.8)
    target = jnp.asarray(np.roll(u0_host, 5, axis=1) * 0.9)
    results = {}
    for wall in walls:
        start = time.perf_counter()
        sharded = distributed_solver(mesh, wall)
        single = reference_solver(wall)

        def misfit(solver):
            return lambda u0, d: jnp.sum((solver(u0, d) - target) ** 2)

        final = jax.jit(sharded)(u0, diffusivity)
        grads = jax.jit(jax.grad(misfit(sharded), argnums=(0, 1)))(u0, diffusivity)
        expected = jax.jit(single)(u0_host, diffusivity)
        expected_grads = jax.jit(jax.grad(misfit(single), argnums=(0, 1)))(u0_host, diffusivity)
        state_error = float(jnp.max(jnp.abs(final - expected)))
        grad_u0_error = float(
            jnp.max(jnp.abs(grads[0] - expected_grads[0])) / jnp.max(jnp.abs(expected_grads[0]))
        )
        grad_d_error = float(abs(grads[1] - expected_grads[1]) / abs(expected_grads[1]))
        heat = float(final.sum()) / float(u0_host.sum())
        elapsed = time.perf_counter() - start
        print(
            f"{wall} walls along y, periodic along x ({SHAPE[0]}x{SHAPE[1]} cells on a "
            f"{MESH_SHAPE[0]}x{MESH_SHAPE[1]} mesh, {STEPS} steps, {elapsed:.1f} s)"
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boundary", choices=tuple(WALL_MODE), action="append")
    args = parser.parse_args()
    results = main(tuple(args.boundary or WALL_MODE))
    for wall, found in results.items():
        assert found["state_error"] < 1e-5, found
        assert found["grad_u0_error"] < 1e-5 and found["grad_d_error"] < 1e-5, found
        assert found["per_device"] == found["halo"], found
        assert found["total"] == found["all_halos"], found
        # Reflecting walls and a periodic axis keep the heat; cold walls let it out.
        assert abs(found["heat"] - 1) < 1e-4 if wall == "reflecting" else found["heat"] < 1
    print("ok")
