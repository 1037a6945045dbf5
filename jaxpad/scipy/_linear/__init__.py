"""The linear filters (correlations, convolutions, uniform, Gaussian, Sobel, Prewitt,
Laplace and their generic forms) and their primitives: ``jaxpad_scipy_taps``,
``jaxpad_scipy_padded_taps``, ``jaxpad_scipy_padded_passes``, with their Taylor rules.
"""

from __future__ import annotations

from jaxpad.scipy._linear import _jet  # noqa: F401  (the Taylor-mode rules, registered on import)
