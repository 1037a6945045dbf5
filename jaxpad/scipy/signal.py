"""``scipy.signal.convolve2d`` and ``correlate2d`` with every boundary (fill, wrap, symm).

``jax.scipy.signal.convolve2d`` takes only ``boundary="fill"`` with zeros; these take
scipy's three boundaries and a (traceable) ``fillvalue``, differentiably.
"""

from __future__ import annotations

from jaxpad.scipy._signal import convolve2d, correlate2d

__all__ = ["convolve2d", "correlate2d"]
