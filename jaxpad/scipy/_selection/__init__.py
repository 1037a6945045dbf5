"""The minimum, maximum, rank, median and percentile filters, their sorting networks,
and their primitives (``jaxpad_scipy_extreme``, ``..._extreme_winner``, ``..._box``,
``..._selection``, ``..._selected``) with their Taylor rules.
"""

from __future__ import annotations

from jaxpad.scipy._selection import _jet  # noqa: F401  (the Taylor-mode rules, registered on import)
