"""Window ops that pad by a ``jaxpad.PaddingPolicy``: pools and convolutions; and
``grid_sample`` / ``affine_grid``, torch's sampling at points between the cells; and
``interpolate``, torch's resize.

Built on ``jaxpad.pad``, so any pad mode works (a circular or reflect-padded
convolution is one call) and gradients flow through jaxpad's fold.
"""

from jaxpad._grid_sample import affine_grid, grid_sample
from jaxpad._interpolate import interpolate
from jaxpad._window_ops import avg_pool, conv, conv_transpose, max_pool

__all__ = [
    "affine_grid",
    "avg_pool",
    "conv",
    "conv_transpose",
    "grid_sample",
    "interpolate",
    "max_pool",
]
