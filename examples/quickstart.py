"""jaxpad quickstart: every padding mode, then a jitted training step through padding.

    python examples/quickstart.py

Prints each mode on a small array (checked against numpy.pad), then fits a
reflect-padded 3x3 convolution to a target with gradients that flow through
jaxpad.pad's fold, and checks the result.
"""

from __future__ import annotations

from typing import Literal

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad

# Literal, so that numpy.pad's type stubs accept the mode.
MODES: tuple[Literal["constant", "edge", "reflect", "symmetric", "wrap"], ...] = (
    "constant",
    "edge",
    "reflect",
    "symmetric",
    "wrap",
)


def show_modes() -> None:
    x = jnp.arange(1, 5)
    print(f"x = {np.asarray(x)}; pads_begin=[3], pads_end=[2]")
    for mode in MODES:
        out = jaxpad.pad(x, [3], [2], mode)
        assert np.array_equal(out, np.pad(np.asarray(x), (3, 2), mode=mode))
        print(f"  {mode:>9}: {np.asarray(out)}")
    print(
        f"  negative pads crop: pad(x, [-1], [2], 'reflect') = "
        f"{np.asarray(jaxpad.pad(x, [-1], [2], 'reflect'))}"
    )


def conv3x3(image, kernel):
    """A 'same' 3x3 convolution whose border is a reflection, as in CycleGAN."""
    padded = jaxpad.pad(image, [1, 1], [1, 1], "reflect")
    return jax.lax.conv_general_dilated(padded[None, None], kernel[None, None], (1, 1), "VALID")[
        0, 0
    ]


def train() -> float:
    rng = np.random.default_rng(0)
    image = jnp.asarray(rng.normal(size=(32, 32)).astype(np.float32))
    true_kernel = jnp.asarray(rng.normal(size=(3, 3)).astype(np.float32))
    target = conv3x3(image, true_kernel)

    @jax.jit
    def step(kernel):
        loss, grad = jax.value_and_grad(lambda k: ((conv3x3(image, k) - target) ** 2).mean())(
            kernel
        )
        return kernel - 0.2 * grad, loss

    kernel = jnp.zeros((3, 3))
    for i in range(200):
        kernel, loss = step(kernel)
        if i % 50 == 0:
            print(f"  step {i:3d}: loss {float(loss):.6f}")
    error = float(jnp.abs(kernel - true_kernel).max())
    print(f"  recovered the 3x3 kernel to within {error:.2e}")
    assert error < 1e-3, error
    return error


if __name__ == "__main__":
    show_modes()
    print("training a reflect-padded conv (jit + grad through jaxpad.pad):")
    train()
    print("ok")
