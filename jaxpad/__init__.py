"""jaxpad: differentiable padding and broadcasting primitives for JAX."""

import jaxpad._interpreters  # noqa: F401  (jet, sparsify and roofline rules)
from jaxpad import image, modes, nn, numpy, policies
from jaxpad._broadcast import broadcast, broadcast_p
from jaxpad._dynamic_pad import dynamic_fold_p, dynamic_pad, dynamic_pad_p
from jaxpad._halo import halo_pad
from jaxpad._pad import fold_p, pad, pad_p
from jaxpad._policy import PaddingPolicy

__all__ = [
    "PaddingPolicy",
    "broadcast",
    "broadcast_p",
    "dynamic_fold_p",
    "dynamic_pad",
    "dynamic_pad_p",
    "fold_p",
    "halo_pad",
    "image",
    "modes",
    "nn",
    "numpy",
    "pad",
    "pad_p",
    "policies",
]
__version__ = "0.1.0"
