"""scipy.ndimage's spline interpolation: the prefilter and the sampling between the grid
points in every one of scipy's interpolation modes (``_modes``)."""

from __future__ import annotations

from jaxpad.scipy._interpolation._map import map_coordinates
from jaxpad.scipy._interpolation._spline import spline_filter, spline_filter1d

__all__ = ["map_coordinates", "spline_filter", "spline_filter1d"]
