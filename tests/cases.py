"""Parametrizations shared by the test modules."""

from __future__ import annotations

import jax.numpy as jnp

MODES = ("constant", "edge", "reflect", "symmetric", "wrap")
NON_CONSTANT = MODES[1:]

# Every dtype jaxpad supports without x64 (the 64-bit ones are tested under enable_x64).
DTYPES = [
    jnp.bool_,
    jnp.int8,
    jnp.int16,
    jnp.int32,
    jnp.uint8,
    jnp.uint16,
    jnp.uint32,
    jnp.float16,
    jnp.bfloat16,
    jnp.float32,
    jnp.complex64,
]
