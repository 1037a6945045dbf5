"""What the public signatures accept and reject, for mypy (never run, only checked).

tests/test_typing.py (and CI, with examples/) runs mypy on this file with
``warn_unused_ignores`` (see pyproject.toml): every call in ``rejected`` carries a
``# type: ignore[code]``, which is an error of its own once the call type-checks. So
the check fails both when a documented input stops type-checking and when a mistake
starts to pass.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad
import jaxpad.numpy as jpnp
from jaxpad import nn, policies


def accepted(x: jax.Array, images: jax.Array, kernel: jax.Array, n: np.int64) -> None:
    """The inputs the docstrings document."""
    jaxpad.pad(x, [1, 2], [0, 1])
    jaxpad.pad(x, (1, -2), (0, 1), "reflect")
    # NumPy integer scalars, an array's shape, concrete integer arrays.
    jaxpad.pad(x, [n, np.int32(2)], x.shape, "wrap")
    jaxpad.pad(x, np.array([1, 2]), jnp.array([0, 1]), "symmetric")
    jaxpad.pad(x, [jnp.int32(1), 0], [0, 1], pad_value=jnp.float32(2), interior=[1, 0])
    jaxpad.pad(x, (2, 1), (2, 1), ("wrap", ("dirichlet", "symmetric")), jnp.zeros((2, 2)))
    jaxpad.dynamic_pad(x, [1, 0], (4, 4), [("reflect_odd", "wrap"), "edge"])
    jaxpad.pad(x, [1, 2], [0, 1], pad_value=2.5)
    pads = jnp.array([1, -1])
    jaxpad.dynamic_pad(x, pads, (4, 5))
    jaxpad.dynamic_pad(x, (pads[0], 1), x.shape, "edge", pad_value=None)
    jpnp.pad(x, 1)
    jpnp.pad(x, (1, n))
    jpnp.pad(x, ((1, 2), (0, 3)), mode="constant", constant_values=7)
    jpnp.pad(x, np.array([[1, 2], [0, 3]]), mode="edge")
    jaxpad.broadcast(x, (3, 2, 3))
    jaxpad.broadcast(x, np.array([3, 2, 3]), "explicit", axes_mapping=[1, 2])
    nn.max_pool(images, (1, 3, 3, 1), (1, 2, 2, 1), policies.torch(1))
    nn.avg_pool(images, 3, 2, policies.tensorflow("SAME"))
    nn.conv(
        images, kernel, 2, policies.tensorflow("SAME"), dimension_numbers=("NHWC", "HWIO", "NHWC")
    )
    policies.tensorflow("SAME").pads((224,), (7,), (2,))


def rejected(x: jax.Array) -> None:
    """Mistakes a type checker can see."""
    # Pads are per axis: a bare int does not say how many axes.
    jaxpad.pad(x, 1, 2)  # type: ignore[arg-type]
    jaxpad.pad(x, 1, [2, 2])  # type: ignore[arg-type]
    jaxpad.pad(x, [1, 1], 2)  # type: ignore[arg-type]
    jaxpad.pad(x, [1, 1], [2, 2], interior=1)  # type: ignore[arg-type]
    jaxpad.dynamic_pad(x, 1, (3, 4))  # type: ignore[arg-type]
    jaxpad.broadcast(x, 3)  # type: ignore[arg-type]
    # Widths are integers.
    jaxpad.pad(x, [1.5, 0], [2, 2])  # type: ignore[list-item]
    jpnp.pad(x, 1.5)  # type: ignore[arg-type]
