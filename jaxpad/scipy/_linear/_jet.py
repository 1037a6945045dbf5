"""Taylor-mode rules (``jax.experimental.jet``) for the linear filters' primitives.

The correlations (``jaxpad_scipy_taps``, ``..._padded_taps``, ``..._padded_passes``) are
linear in the array and ``cval`` jointly, so each Taylor coefficient goes through the
primitive.
"""

from __future__ import annotations

from jax.experimental import jet

from jaxpad.scipy._linear._padded_passes import padded_passes_p
from jaxpad.scipy._linear._padded_taps import padded_taps_p
from jaxpad.scipy._linear._taps import taps_p

for _prim in (taps_p, padded_taps_p, padded_passes_p):
    jet.deflinear(_prim)
