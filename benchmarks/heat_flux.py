"""The heat-flux solver of examples/heat_flux.py: jaxpad's ghost cells against hand-built ones.

    python -m benchmarks.heat_flux [--quick] [--sizes 64 256] [--steps 400] [--rounds 7]
                                   [--pinned]

A square float32 field, cell-centred, one ghost cell per side: a Neumann wall whose
gradient varies along it (a face array) at the start of axis 0, a Dirichlet wall whose
temperature varies along it at the end, periodic along axis 1. Explicit Euler steps of
the 5-point Laplacian run in a ``lax.scan``. Two ways to build the ghost cells:

- ``jaxpad``: one ``jaxpad.pad(u, (1, 1), (1, 1), mode=(("neumann", "dirichlet"),
  "wrap"), pad_value=[(jump[None, :], wall[None, :]), (0.0, 0.0)])``, or with uniform
  walls (the ``scalars`` rows) ``pad_value`` as the ``(x.ndim, 2)`` array of scalars;
- ``jnp.pad``: jax-cfd's way with face values: ``jnp.pad(symmetric)`` along axis 0, the
  Neumann and Dirichlet arithmetic on its two ghost rows with ``.at[]``, then
  ``jnp.pad(wrap)`` along axis 1.

Timed: the forward scan (``steps`` steps) and the gradient of a misfit of its final field
w.r.t. the flux amplitude (reverse mode through the whole scan and the face array),
both per step. ``jaxpad'`` is the jaxpad program compiled a second time, timed against
the first (the control column: what noise alone gives). Both solvers are checked to give
the same field and gradient before anything is timed. Candidates run in interleaved
rounds, shuffled every round (benchmarks/_timing.py), medians of ``calls`` back-to-back
calls cycling through as many copies of the inputs. The C library's default allocator
is kept (what users run); ``--pinned`` re-executes with malloc pinned as
benchmarks/boundary.py does.
"""

from __future__ import annotations

import argparse
import itertools
import time

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad
from benchmarks._timing import allocator, interleaved_medians, load, machine, parse_args_allocator

KAPPA = 1.0
AMPLITUDE = 2.0


def ghost_cells_jaxpad(u, jump, wall):
    if jnp.ndim(jump) == 0:
        # Uniform walls: the (x.ndim, 2) array of scalars.
        values = jnp.stack([jnp.stack([jump, wall]), jnp.zeros(2, u.dtype)])
    else:
        values = [(jump[None, :], wall[None, :]), (0.0, 0.0)]
    return jaxpad.pad(u, (1, 1), (1, 1), mode=(("neumann", "dirichlet"), "wrap"), pad_value=values)


def ghost_cells_jnp(u, jump, wall):
    p = jnp.pad(u, ((1, 1), (0, 0)), mode="symmetric")
    p = p.at[0].add(-jump).at[-1].set(2 * wall - p[-1])
    return jnp.pad(p, ((0, 0), (1, 1)), mode="wrap")


def problem(size: int, faces: bool = True):
    """The flux profile, the wall temperature and the initial field of a size x size grid;
    with ``faces=False`` both walls are uniform (scalar values)."""
    y = (np.arange(size) + 0.5) / size
    profile = jnp.asarray(np.exp(-(((y - 0.5) / 0.15) ** 2)), jnp.float32)
    wall = jnp.asarray(0.2 * np.sin(2 * np.pi * y), jnp.float32)
    u0 = jnp.broadcast_to(wall, (size, size)).astype(jnp.float32)
    if not faces:
        profile, wall = jnp.float32(1.0), jnp.float32(0.2)
    return profile, wall, u0


def solver(ghost_cells, size: int, steps: int, faces: bool = True):
    """``simulate(amplitude, u0)``: the field after ``steps`` steps."""
    h = 1.0 / size
    dt = 0.2 * h**2 / KAPPA
    profile, wall, _ = problem(size, faces)

    def simulate(amplitude, u0):
        jump = -h * amplitude * profile / KAPPA

        def step(u, _):
            p = ghost_cells(u, jump, wall)
            lap = (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * u) / h**2
            return u + dt * KAPPA * lap, None

        return jax.lax.scan(step, u0, None, length=steps)[0]

    return simulate


def programs(ghost_cells, size, steps, faces, observed):
    simulate = solver(ghost_cells, size, steps, faces)

    def misfit(amplitude, u0):
        return jnp.mean((simulate(amplitude, u0) - observed) ** 2)

    return jax.jit(simulate), jax.jit(jax.grad(misfit))


def run_size(size, faces, steps, rounds, calls):
    _, _, u0 = problem(size, faces)
    amplitude = jnp.float32(AMPLITUDE)
    guess = jnp.float32(0.5)
    observed = jax.jit(solver(ghost_cells_jnp, size, steps, faces))(amplitude, u0)
    fwd = {}
    grad = {}
    for name, ghost_cells in (
        ("jaxpad", ghost_cells_jaxpad),
        ("jaxpad'", ghost_cells_jaxpad),
        ("jnp.pad", ghost_cells_jnp),
    ):
        fwd[name], grad[name] = programs(ghost_cells, size, steps, faces, observed + 0.01)
    # Same field and same gradient before anything is timed.
    np.testing.assert_allclose(fwd["jaxpad"](amplitude, u0), observed, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        grad["jaxpad"](guess, u0), grad["jnp.pad"](guess, u0), rtol=1e-4, atol=1e-12
    )
    candidates = {(name, "fwd"): fn for name, fn in fwd.items()}
    candidates.update({(name, "grad"): fn for name, fn in grad.items()})
    args = {key: (guess, u0) for key in candidates}
    seconds = interleaved_medians(candidates, args, rounds=rounds, calls=calls, copies=calls)
    row = {"size": size, "faces": faces, "steps": steps}
    for kind in ("fwd", "grad"):
        ours, control, theirs = (seconds[(n, kind)] for n in ("jaxpad", "jaxpad'", "jnp.pad"))
        row[f"jaxpad_{kind}_us"] = 1e6 * ours / steps
        row[f"jnp_{kind}_us"] = 1e6 * theirs / steps
        row[f"{kind}_speedup"] = theirs / ours
        row[f"{kind}_control"] = control / ours
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the 64 x 64 grid, 5 rounds")
    parser.add_argument("--sizes", type=int, nargs="*")
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--calls", type=int, default=3)
    args = parse_args_allocator(parser)
    sizes = args.sizes or ([64] if args.quick else [64, 256])
    rounds = args.rounds or (5 if args.quick else 9)
    print(f"# heat_flux: {machine()}, malloc {allocator()}, {load()} at start")
    print(
        f"# {args.steps} explicit steps in a lax.scan, float32, per step; medians of {rounds} "
        f"interleaved rounds of {args.calls} calls; speed-up = jnp.pad time / jaxpad time; "
        "control = jaxpad' / jaxpad"
    )
    print(
        "| grid | wall values | jaxpad fwd us/step | jnp.pad fwd us/step | fwd speed-up "
        "| fwd control | jaxpad grad us/step | jnp.pad grad us/step | grad speed-up "
        "| grad control |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    start = time.perf_counter()
    for size, faces in itertools.product(sizes, (True, False)):
        r = run_size(size, faces, args.steps, rounds, args.calls)
        values = "face arrays" if faces else "scalars"
        print(
            f"| {size}x{size} | {values} | {r['jaxpad_fwd_us']:.1f} | {r['jnp_fwd_us']:.1f} "
            f"| {r['fwd_speedup']:.2f}x | {r['fwd_control']:.2f} "
            f"| {r['jaxpad_grad_us']:.1f} | {r['jnp_grad_us']:.1f} "
            f"| {r['grad_speedup']:.2f}x | {r['grad_control']:.2f} |",
            flush=True,
        )
    print(f"\n# {load()} at the end, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
