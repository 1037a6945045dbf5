"""NumPy-compatible entry points: ``jaxpad.numpy.pad`` is a drop-in for ``jnp.pad``.

Change ``jnp.pad(...)`` to ``jaxpad.numpy.pad(...)`` and keep the call: the modes
jaxpad has as primitives get its single-op lowering and fast gradients.
"""

from jaxpad._numpy_pad import UnsupportedModeError, pad

__all__ = ["UnsupportedModeError", "pad"]
