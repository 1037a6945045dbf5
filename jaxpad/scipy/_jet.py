"""Taylor-mode rules (``jax.experimental.jet``) for the filters' primitives.

The correlations (``jaxpad_scipy_taps``, ``..._padded_taps``, ``..._padded_passes``) are
linear in the array and ``cval`` jointly, so each Taylor coefficient goes through the
primitive. The minimum, maximum and rank filters have no Taylor mode yet (``jet`` of
their ``custom_jvp`` leaks a tracer; docs/interoperability.md).
"""

from __future__ import annotations

from jax.experimental import jet

from jaxpad.scipy._taps import padded_passes_p, padded_taps_p, taps_p

for _prim in (taps_p, padded_taps_p, padded_passes_p):
    jet.deflinear(_prim)
