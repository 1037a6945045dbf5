"""``scipy.ndimage``'s filters with scipy's names, arguments, modes and dtype rules.

Replacing ``scipy.ndimage`` by ``jaxpad.scipy.ndimage`` gives the same numbers (to
float32 rounding without x64), under ``jit``, ``vmap`` and ``grad``. The differences:
``output`` may be a dtype but not an array (JAX cannot write in place); ``weights``,
``footprint``, ``size``, ``origin`` and ``mode`` are static; ``sigma`` is static unless
``radius`` is given (then it may be traced and differentiated); ``mode`` may be a
sequence (one per filtered axis) in every filter. The gradient of a minimum, maximum or
rank filter goes to one element of each window: the first, in row-major order, equal
to the output (as ``lax.reduce_window``'s).

The spline interpolation (``map_coordinates``, ``spline_filter1d``, ``spline_filter``,
``shift``, ``zoom``, ``rotate``, ``affine_transform``, ``geometric_transform``) takes
scipy's interpolation modes, which differ from the filters' at and beyond the edge,
and is differentiable with respect to the input, the coordinates, the transforms'
parameters and ``cval``.
"""

from __future__ import annotations

from jaxpad.scipy._interpolation import map_coordinates, spline_filter, spline_filter1d
from jaxpad.scipy._interpolation._transforms import (
    affine_transform,
    geometric_transform,
    rotate,
    shift,
    zoom,
)
from jaxpad.scipy._linear._correlate import (
    convolve,
    convolve1d,
    correlate,
    correlate1d,
    prewitt,
    sobel,
    uniform_filter,
    uniform_filter1d,
)
from jaxpad.scipy._linear._derivatives import (
    gaussian_gradient_magnitude,
    gaussian_laplace,
    generic_gradient_magnitude,
    generic_laplace,
    laplace,
)
from jaxpad.scipy._linear._gaussian import gaussian_filter, gaussian_filter1d
from jaxpad.scipy._selection._filters import (
    maximum_filter,
    maximum_filter1d,
    median_filter,
    minimum_filter,
    minimum_filter1d,
    percentile_filter,
    rank_filter,
)

__all__ = [
    "affine_transform",
    "convolve",
    "convolve1d",
    "correlate",
    "correlate1d",
    "gaussian_filter",
    "gaussian_filter1d",
    "gaussian_gradient_magnitude",
    "gaussian_laplace",
    "generic_gradient_magnitude",
    "generic_laplace",
    "geometric_transform",
    "laplace",
    "map_coordinates",
    "maximum_filter",
    "maximum_filter1d",
    "median_filter",
    "minimum_filter",
    "minimum_filter1d",
    "percentile_filter",
    "prewitt",
    "rank_filter",
    "rotate",
    "shift",
    "sobel",
    "spline_filter",
    "spline_filter1d",
    "uniform_filter",
    "uniform_filter1d",
    "zoom",
]
