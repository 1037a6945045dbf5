"""scipy's filters on jaxpad's pads: ``jaxpad.scipy.ndimage`` and ``jaxpad.scipy.signal``.

Every boundary mode scipy has, differentiable (the gradient of each boundary is
jaxpad's fold) and under ``jit`` and ``vmap``. scipy itself is not needed.
"""

from __future__ import annotations

from jaxpad.scipy import ndimage, signal

__all__ = ["ndimage", "signal"]
