"""jaxpad: differentiable padding and broadcasting primitives for JAX."""

from jaxpad._broadcast import broadcast, broadcast_p
from jaxpad._dynamic_pad import dynamic_fold_p, dynamic_pad, dynamic_pad_p
from jaxpad._pad import fold_p, pad, pad_p

__all__ = [
    "broadcast",
    "broadcast_p",
    "dynamic_fold_p",
    "dynamic_pad",
    "dynamic_pad_p",
    "fold_p",
    "pad",
    "pad_p",
]
__version__ = "0.1.0"
