"""Image registration by gradient descent through ``affine_transform``.

A moving image is a rotated and shifted copy of a fixed one, resampled by a cubic
spline in scipy's ``mirror`` mode (the image reflected about its edge samples, so no
dark border enters the comparison). The rotation angle and the shift are recovered by
descending the mean squared difference, whose gradient with respect to the matrix and
the offset is the spline's own derivative (``jaxpad.scipy.ndimage.affine_transform``).

    python examples/register_affine.py
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jaxpad.scipy import ndimage

SIZE = 48
MODE = "mirror"


def image(size: int = SIZE) -> jax.Array:
    """A smooth test image: a few blobs of different widths."""
    i, j = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    out = np.zeros((size, size))
    for ci, cj, w, a in [(14, 17, 6.0, 1.0), (30, 31, 8.0, 0.8), (36, 12, 4.0, 0.6)]:
        out += a * np.exp(-((i - ci) ** 2 + (j - cj) ** 2) / (2 * w**2))
    return jnp.asarray(out, jnp.float32)


def warp(x: jax.Array, params: jax.Array) -> jax.Array:
    """``x`` rotated by ``params[0]`` radians about its centre and moved by
    ``params[1:]`` samples (the output reads the input at ``R o + offset``)."""
    angle, shift = params[0], params[1:]
    c, s = jnp.cos(angle), jnp.sin(angle)
    matrix = jnp.array([[c, -s], [s, c]])
    centre = (jnp.array(x.shape, x.dtype) - 1) / 2
    offset = centre - matrix @ centre - shift
    return ndimage.affine_transform(x, matrix, offset, order=3, mode=MODE)


def main() -> None:
    fixed = image()
    truth = jnp.array([np.deg2rad(9.0), 2.5, -1.75], jnp.float32)
    moving = warp(fixed, truth)

    def loss(params):
        return jnp.mean((warp(fixed, params) - moving) ** 2)

    step = jax.jit(jax.value_and_grad(loss))
    params = jnp.zeros(3, jnp.float32)
    # Adam on the three parameters (the angle's gradient is ~20x the shifts').
    m = jnp.zeros(3)
    v = jnp.zeros(3)
    rate, b1, b2 = 0.05, 0.9, 0.999
    for t in range(1, 301):
        value, g = step(params)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        params = params - rate * (m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + 1e-12)
        if t % 100 == 0:
            rate *= 0.3
    angle, di, dj = (float(p) for p in params)
    print(f"loss {float(value):.2e}")
    print(f"recovered angle {np.rad2deg(angle):.2f} deg (true 9.00)")
    print(f"recovered shift ({di:.2f}, {dj:.2f}) (true (2.50, -1.75))")
    assert abs(np.rad2deg(angle) - 9.0) < 0.05, angle
    assert abs(di - 2.5) < 0.02 and abs(dj + 1.75) < 0.02, (di, dj)
    print("ok")


if __name__ == "__main__":
    main()
