"""Porting a TensorFlow block: stride-2 SAME conv + SAME average pool, with jaxpad policies.

    python examples/port_tensorflow_padding.py

TensorFlow puts the odd unit of SAME padding at the end (bottom/right) and its SAME
average pool divides by the number of real pixels under each window. Ported with
``jaxpad.policies.tensorflow("SAME")`` the block matches the reference exactly; the
same block padded PyTorch-style (``padding=1`` on both sides, pool counting the
padding) has the same output shape and visibly different numbers.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad import nn, policies

NHWC = ("NHWC", "HWIO", "NHWC")


def block(x, kernel, conv_policy, pool_policy):
    features = nn.conv(x, kernel, 2, conv_policy, dimension_numbers=NHWC)
    return nn.avg_pool(features, (1, 3, 3, 1), (1, 2, 2, 1), pool_policy)


def reference(x, kernel):
    """What TensorFlow computes, written with lax's own SAME padding."""
    features = lax.conv_general_dilated(x, kernel, (2, 2), "SAME", dimension_numbers=NHWC)
    window, strides = (1, 3, 3, 1), (1, 2, 2, 1)
    sums = lax.reduce_window(features, 0.0, lax.add, window, strides, "SAME")
    counts = lax.reduce_window(jnp.ones_like(features), 0.0, lax.add, window, strides, "SAME")
    return sums / counts


def main() -> None:
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(1, 16, 16, 3)).astype(np.float32))
    kernel = jnp.asarray(rng.normal(size=(3, 3, 3, 8)).astype(np.float32))
    expected = reference(x, kernel)

    tf_same = policies.tensorflow("SAME")
    print(f"TF SAME conv pads per spatial axis: {tf_same.pads((16, 16), (3, 3), (2, 2))}")
    ported = block(x, kernel, tf_same, tf_same)
    tf_error = float(jnp.abs(ported - expected).max())
    print(f"tensorflow('SAME') preset: shape {ported.shape}, max |error| {tf_error:.2e}")

    torch_style = policies.torch(1)
    print(f"PyTorch padding=1 pads per spatial axis: {torch_style.pads((16, 16), (3, 3), (2, 2))}")
    wrong = block(x, kernel, torch_style, torch_style)
    torch_error = float(jnp.abs(wrong - expected).max())
    print(f"torch(1) preset: shape {wrong.shape}, max |error| {torch_error:.2e}")

    assert ported.shape == wrong.shape == expected.shape
    assert tf_error < 1e-5 and torch_error > 1e-2
    print("ok")


if __name__ == "__main__":
    main()
