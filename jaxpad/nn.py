"""Window ops that pad by a ``jaxpad.PaddingPolicy``: pools and convolutions.

Built on ``jaxpad.pad``, so any pad mode works (a circular or reflect-padded
convolution is one call) and gradients flow through jaxpad's fold.
"""

from jaxpad._window_ops import avg_pool, conv, conv_transpose, max_pool

__all__ = ["avg_pool", "conv", "conv_transpose", "max_pool"]
