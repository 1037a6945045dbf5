"""Heat carried by a start-up Couette flow in a channel, and its inverse problem.

A channel of height 1, periodic along x, between two walls along y: the bottom wall is
at rest and hot, the top wall slides at speed ``U`` and is cold. The fluid starts at rest;
the top wall drags it along (start-up Couette flow, an exact Navier-Stokes solution with
no pressure gradient: ``du/dt = nu lap(u)``), and the moving fluid carries a passive
temperature ``T`` along x while it diffuses (``dT/dt + u dT/dx = kappa lap(T)``).

The grid is cell-centred, so a wall lies on the faces between the last row of cells and
its ghost row, and a Dirichlet wall value ``g`` is imposed by the ghost cell
``2 g - (the mirrored cell)``: the linear interpolation across the face is ``g``. Each
field gets its ghost cells from ONE ``jaxpad.pad`` per step::

    jaxpad.pad(field, (1, 1), (1, 1), mode=(("dirichlet", "dirichlet"), "wrap"),
               pad_value=[[bottom, top], [0, 0]])

The same solver with ``jnp.pad`` builds the ghost cells as jax-cfd does,
``2 * jnp.pad(constant=wall) - jnp.pad(symmetric)`` along y, then ``wrap`` along x.
The script checks that both solvers agree, then recovers the top wall's speed from the
final temperature alone: Gauss-Newton steps whose gradient is ``jax.grad`` of the
misfit through every solver step and through the wall value ``pad_value``; a vmapped
solve over several wall speeds finds the misfit smallest at the true one first.

Run: python examples/channel_flow.py [--steps N]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad

NY, NX = 64, 64  # axis 0: y, across the channel (walls); axis 1: x, along it (periodic)
H = 1.0
DX = H / NY
NU = 0.02  # kinematic viscosity
KAPPA = 0.01  # thermal diffusivity
# Explicit Euler is stable for nu dt / dx^2 <= 1/4 and a cell Peclet number U dx / kappa
# below 2 (central differences); dt makes the first 0.2.
DT = 0.2 * DX**2 / NU
T_BOTTOM, T_TOP = 1.0, 0.0
TRUE_SPEED = 0.75

Padder = Callable[[jax.Array, jax.Array], jax.Array]


def ghost_cells_jaxpad(field: jax.Array, walls: jax.Array) -> jax.Array:
    """One halo cell on every side: Dirichlet walls along y, periodic along x."""
    return jaxpad.pad(
        field, (1, 1), (1, 1), mode=(("dirichlet", "dirichlet"), "wrap"), pad_value=walls
    )


def ghost_cells_jnp(field: jax.Array, walls: jax.Array) -> jax.Array:
    """The same halo built as jax-cfd builds it, from three ``jnp.pad`` calls."""
    rows = ((1, 1), (0, 0))
    constant = jnp.pad(field, rows, constant_values=walls)
    mirrored = jnp.pad(field, rows, mode="symmetric")
    return jnp.pad(2 * constant - mirrored, ((0, 0), (1, 1)), mode="wrap")


def walls_of(bottom, top) -> jax.Array:
    """``pad_value`` of shape (ndim, 2): row = axis, column = (begin, end) side. The x
    row is read by no side (wrap), so its zeros are placeholders."""
    return jnp.stack([jnp.stack([bottom, top]), jnp.zeros(2)]).astype(jnp.float32)


def step_fn(ghost_cells: Padder, speed: jax.Array):
    u_walls = walls_of(jnp.float32(0.0), speed)
    t_walls = walls_of(jnp.float32(T_BOTTOM), jnp.float32(T_TOP))

    def laplacian(p):
        return (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * p[1:-1, 1:-1]) / DX**2

    def step(state, _):
        u, temp = state
        pu = ghost_cells(u, u_walls)
        pt = ghost_cells(temp, t_walls)
        dtemp_dx = (pt[1:-1, 2:] - pt[1:-1, :-2]) / (2 * DX)
        u_next = u + DT * NU * laplacian(pu)
        temp_next = temp + DT * (KAPPA * laplacian(pt) - u * dtemp_dx)
        return (u_next, temp_next), None

    return step


def simulate(ghost_cells: Padder, speed: jax.Array, temp0: jax.Array, steps: int):
    """Final (velocity, temperature) after ``steps`` steps from a fluid at rest."""
    state = (jnp.zeros_like(temp0), temp0)
    return jax.lax.scan(step_fn(ghost_cells, speed), state, None, length=steps)[0]


def initial_temperature() -> jax.Array:
    """The conduction profile between the walls plus a warm blob near the moving wall."""
    y = (np.arange(NY) + 0.5) * DX
    x = (np.arange(NX) + 0.5) * DX
    yy, xx = np.meshgrid(y, x, indexing="ij")
    blob = 0.5 * np.exp(-((yy - 0.85) ** 2 + (xx - 0.5) ** 2) / (2 * 0.08**2))
    return jnp.asarray(T_BOTTOM + (T_TOP - T_BOTTOM) * yy + blob, jnp.float32)


def recover_speed(ghost_cells: Padder, observed, temp0, steps, guess=0.3, iterations=6):
    """Gauss-Newton on the top wall's speed, from the final temperature alone."""

    def final_temperature(speed):
        return simulate(ghost_cells, speed, temp0, steps)[1]

    def misfit(speed):
        return jnp.mean((final_temperature(speed) - observed) ** 2)

    @jax.jit
    def update(speed):
        gradient = jax.grad(misfit)(speed)
        # Gauss-Newton curvature: the squared sensitivity of the final field to the speed.
        _, sensitivity = jax.jvp(final_temperature, (speed,), (jnp.ones_like(speed),))
        return speed - gradient / (2 * jnp.mean(sensitivity**2))

    speed = jnp.float32(guess)
    for _ in range(iterations):
        speed = update(speed)
    return float(speed), float(misfit(speed))


def seconds_per_call(fn, *args, repeats=5):
    jax.block_until_ready(fn(*args))  # compile
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main(steps: int = 400) -> dict:
    temp0 = initial_temperature()
    solvers = {"jaxpad.pad": ghost_cells_jaxpad, "jnp.pad (jax-cfd style)": ghost_cells_jnp}
    forward = {
        name: jax.jit(lambda speed, g=g: simulate(g, speed, temp0, steps))
        for name, g in solvers.items()
    }
    u_true, observed = forward["jaxpad.pad"](jnp.float32(TRUE_SPEED))
    u_jnp, observed_jnp = forward["jnp.pad (jax-cfd style)"](jnp.float32(TRUE_SPEED))
    agree = bool(
        np.allclose(u_true, u_jnp, rtol=1e-5, atol=1e-6)
        and np.allclose(observed, observed_jnp, rtol=1e-5, atol=1e-6)
    )
    gradients = {
        name: jax.jit(
            jax.grad(lambda s, g=g: jnp.mean((simulate(g, s, temp0, steps)[1] - observed) ** 2))
        )
        for name, g in solvers.items()
    }
    grads = {name: float(fn(jnp.float32(0.3))) for name, fn in gradients.items()}
    agree = agree and bool(
        np.isclose(grads["jaxpad.pad"], grads["jnp.pad (jax-cfd style)"], rtol=1e-4)
    )
    top_speed = float(u_true[-1].mean())
    print(f"channel {NY}x{NX} cells, {steps} steps of dt={DT:.2e}, top wall speed {TRUE_SPEED}")
    print(f"  velocity of the top row of cells: {top_speed:.3f} (wall {TRUE_SPEED})")
    print(
        f"  solvers agree: {agree} (max |dT| "
        f"{float(jnp.max(jnp.abs(observed - observed_jnp))):.1e}, "
        f"d misfit / d U at 0.3: {grads['jaxpad.pad']:.4e} and "
        f"{grads['jnp.pad (jax-cfd style)']:.4e})"
    )
    # The wall speed enters as a traced pad_value, so one vmapped solve tries several.
    speeds = jnp.array([0.25, 0.5, 0.75, 1.0], jnp.float32)

    def misfit_at(speed):
        return jnp.mean((simulate(ghost_cells_jaxpad, speed, temp0, steps)[1] - observed) ** 2)

    sweep = np.asarray(jax.jit(jax.vmap(misfit_at))(speeds))
    one_by_one = np.array([float(jax.jit(misfit_at)(s)) for s in speeds])
    vmap_agrees = bool(np.allclose(sweep, one_by_one, rtol=1e-4, atol=1e-12))
    print(
        "  misfit by top wall speed, one vmapped solve: "
        + ", ".join(f"{float(s):.2f}: {m:.1e}" for s, m in zip(speeds, sweep))
        + f" (same as one by one: {vmap_agrees})"
    )
    results: dict[str, Any] = {
        "agree": agree,
        "top_speed": top_speed,
        "vmap_agrees": vmap_agrees,
        "best_of_sweep": float(speeds[int(np.argmin(sweep))]),
    }
    for name, ghost_cells in solvers.items():
        start = time.perf_counter()
        speed, misfit = recover_speed(ghost_cells, observed, temp0, steps)
        elapsed = time.perf_counter() - start
        fwd = seconds_per_call(forward[name], jnp.float32(TRUE_SPEED)) / steps
        grad = seconds_per_call(gradients[name], jnp.float32(TRUE_SPEED)) / steps
        print(
            f"{name}: top wall speed recovered {speed:.4f} from 0.3 (misfit {misfit:.1e}, "
            f"{elapsed:.1f} s); per step: forward {1e6 * fwd:.0f} us, gradient {1e6 * grad:.0f} us"
        )
        results[name] = {"speed": speed, "forward_s": fwd, "gradient_s": grad}
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=400)
    args = parser.parse_args()
    results = main(args.steps)
    assert results["agree"] and results["vmap_agrees"], results
    assert results["best_of_sweep"] == TRUE_SPEED, results
    for name in ("jaxpad.pad", "jnp.pad (jax-cfd style)"):
        assert abs(results[name]["speed"] - TRUE_SPEED) < 1e-3, results
    print("ok")
