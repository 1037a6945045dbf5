"""The sampling core that resize, ``zoom`` / ``shift`` and ``grid_sample`` share.

- ``_kernels``: the 1-D interpolation kernels (triangle, cubic convolution with its
  parameter ``a``, Lanczos, box), each written once.
- ``_pass``: ``jaxpad_interpolation_pass``, the separable pass along one axis at a
  static ``(n_out, taps)`` table of indices and weights, read through strided slices by
  phase; its transpose is the pass of the transposed table.
- ``_tables``: one axis's table for a resize (taps, weights and boundary indices from
  the output's source coordinates, a kernel, its support and a boundary rule), in
  NumPy float64 at trace time.
"""
