"""A wall heated by a flux that varies along it, and the flux's amplitude recovered.

A slab of width 1 across x (axis 0), periodic along y (axis 1): heat ``u`` diffuses,
``du/dt = kappa lap(u)``. Through the wall at x = 0 a heat flux ``q(y) = A * profile(y)``
enters the slab (Fourier: ``-kappa du/dx = q``, a Neumann condition); the wall at x = 1
is held at a temperature that varies along it (a Dirichlet condition). The grid is
cell-centred, so each wall lies on the faces between the outer cells and their ghosts.
One ``jaxpad.pad`` per step builds every ghost cell, from boundary values that are
arrays over the faces (shape (1, NY), the wall's axis of size 1)::

    jaxpad.pad(u, (1, 1), (1, 1), mode=(("neumann", "dirichlet"), "wrap"),
               pad_value=[(h * du_dx_at_wall[None, :], wall_temperature[None, :]), (0.0, 0.0)])

A Neumann side's value is the jump across one cell at the face, ``h * du/dx``: its ghost
is ``u[0] - h du/dx``, so that ``(u[0] - ghost) / h`` is the prescribed gradient. The
same solver with ``jnp.pad`` builds the ghosts by hand, as jax-cfd does: a ``symmetric``
pad, then the Neumann and Dirichlet arithmetic on the ghost rows with ``.at[]``, then a
``wrap`` pad. The script checks that both solvers agree (field and gradient), then
recovers ``A`` from a noisy final field by Newton's method: the first and second
derivatives of the misfit flow back through every step of the scan and into the face
array of ``pad_value``.

Run: python examples/heat_flux.py [--steps N]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad

NX, NY = 64, 64  # axis 0: x, across the slab (walls); axis 1: y, along the walls (periodic)
H = 1.0 / NX
KAPPA = 1.0
DT = 0.2 * H**2 / KAPPA  # explicit Euler is stable for kappa dt / h^2 <= 1/4
TRUE_AMPLITUDE = 2.0
NOISE = 1e-3  # standard deviation of the measurement noise on the final field

_Y = (np.arange(NY) + 0.5) * H
# A heated strip around y = 0.5, and a wall temperature that varies along the cold wall.
FLUX_PROFILE = jnp.asarray(np.exp(-(((_Y - 0.5) / 0.15) ** 2)), jnp.float32)
WALL_TEMPERATURE = jnp.asarray(0.2 * np.sin(2 * np.pi * _Y), jnp.float32)

# (field, Neumann jump h du/dx along the x = 0 face, Dirichlet value along x = 1) -> halo
Padder = Callable[[jax.Array, jax.Array, jax.Array], jax.Array]


def ghost_cells_jaxpad(u: jax.Array, jump: jax.Array, wall: jax.Array) -> jax.Array:
    """One halo cell on every side, from one ``jaxpad.pad`` with face arrays."""
    return jaxpad.pad(
        u,
        (1, 1),
        (1, 1),
        mode=(("neumann", "dirichlet"), "wrap"),
        pad_value=[(jump[None, :], wall[None, :]), (0.0, 0.0)],
    )


def ghost_cells_jnp(u: jax.Array, jump: jax.Array, wall: jax.Array) -> jax.Array:
    """The same halo built by hand: ``jnp.pad`` and the ghost arithmetic on its rows."""
    p = jnp.pad(u, ((1, 1), (0, 0)), mode="symmetric")
    # Neumann: u[0] - h du/dx; Dirichlet: 2 wall - u[-1] (the symmetric ghost is u[-1]).
    p = p.at[0].add(-jump).at[-1].set(2 * wall - p[-1])
    return jnp.pad(p, ((0, 0), (1, 1)), mode="wrap")


def simulate(ghost_cells: Padder, amplitude: jax.Array, u0: jax.Array, steps: int) -> jax.Array:
    """The field after ``steps`` explicit Euler steps with flux amplitude ``amplitude``."""
    # -kappa du/dx = q at x = 0; the Neumann value is the jump across one cell, h du/dx.
    jump = -H * amplitude * FLUX_PROFILE / KAPPA

    def step(u, _):
        p = ghost_cells(u, jump, WALL_TEMPERATURE)
        lap = (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * u) / H**2
        return u + DT * KAPPA * lap, None

    return jax.lax.scan(step, u0, None, length=steps)[0]


def initial_field() -> jax.Array:
    """The steady conduction profile with no flux: the cold wall's temperature."""
    return jnp.broadcast_to(WALL_TEMPERATURE, (NX, NY)).astype(jnp.float32)


def recover_amplitude(ghost_cells: Padder, observed, u0, steps, guess=0.5, iterations=5):
    """Newton's method on ``A``: ``jax.grad`` twice through the scan and ``pad_value``."""

    def misfit(amplitude):
        return jnp.mean((simulate(ghost_cells, amplitude, u0, steps) - observed) ** 2)

    gradient = jax.grad(misfit)

    @jax.jit
    def newton(amplitude):
        return amplitude - gradient(amplitude) / jax.grad(gradient)(amplitude)

    amplitude = jnp.float32(guess)
    history = [float(amplitude)]
    for _ in range(iterations):
        amplitude = newton(amplitude)
        history.append(float(amplitude))
        if abs(history[-1] - history[-2]) <= 1e-6 * abs(history[-1]):
            break
    return float(amplitude), float(misfit(amplitude)), history


def main(steps: int = 400) -> dict:
    u0 = initial_field()
    solvers = {"jaxpad.pad": ghost_cells_jaxpad, "jnp.pad by hand": ghost_cells_jnp}
    forward = {
        name: jax.jit(lambda a, g=g: simulate(g, a, u0, steps)) for name, g in solvers.items()
    }
    exact = forward["jaxpad.pad"](jnp.float32(TRUE_AMPLITUDE))
    exact_jnp = forward["jnp.pad by hand"](jnp.float32(TRUE_AMPLITUDE))
    noise = np.random.default_rng(0).normal(0.0, NOISE, exact.shape).astype(np.float32)
    observed = exact + noise
    gradients = {
        name: jax.jit(
            jax.grad(lambda a, g=g: jnp.mean((simulate(g, a, u0, steps) - observed) ** 2))
        )
        for name, g in solvers.items()
    }
    grads = {name: float(fn(jnp.float32(0.5))) for name, fn in gradients.items()}
    agree = bool(np.allclose(exact, exact_jnp, rtol=1e-5, atol=1e-6)) and bool(
        np.isclose(grads["jaxpad.pad"], grads["jnp.pad by hand"], rtol=1e-4)
    )
    # The ghost cells impose the flux: the heated wall warms up where the strip is.
    heated, unheated = float(exact[0, NY // 2]), float(exact[0, 0])
    print(
        f"slab {NX}x{NY} cells, {steps} steps of dt={DT:.2e}, flux amplitude {TRUE_AMPLITUDE}, "
        f"noise {NOISE}"
    )
    print(f"  heated wall: {heated:.3f} at the strip's centre, {unheated:.3f} away from it")
    print(
        f"  solvers agree: {agree} (max |du| {float(jnp.max(jnp.abs(exact - exact_jnp))):.1e}, "
        f"d misfit / d A at 0.5: {grads['jaxpad.pad']:.4e} and {grads['jnp.pad by hand']:.4e})"
    )
    start = time.perf_counter()
    amplitude, misfit, history = recover_amplitude(ghost_cells_jaxpad, observed, u0, steps)
    elapsed = time.perf_counter() - start
    print("  Newton iterates: " + ", ".join(f"{a:.4f}" for a in history) + f" ({elapsed:.1f} s)")
    print(
        f"recovered amplitude {amplitude:.4f} (true {TRUE_AMPLITUDE}, misfit {misfit:.2e}, "
        f"noise variance {NOISE**2:.1e})"
    )
    return {"agree": agree, "amplitude": amplitude, "heated": heated, "unheated": unheated}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=400)
    args = parser.parse_args()
    results = main(args.steps)
    assert results["agree"], results
    assert results["heated"] > results["unheated"], results
    assert abs(results["amplitude"] - TRUE_AMPLITUDE) < 0.01 * TRUE_AMPLITUDE, results
    print("ok")
