"""The sampling core that resize, ``zoom`` / ``shift`` and ``grid_sample`` share.

- ``_kernels``: the 1-D interpolation kernels (triangle, cubic convolution with its
  parameter ``a``, Lanczos, box), each written once.
- ``_pass``: ``jaxpad_interpolation_pass``, the separable pass along one axis at a
  static ``(n_out, taps)`` table of indices and weights, read through strided slices by
  phase; its transpose is the pass of the transposed table.
- ``_tables``: one axis's table for a resize (taps, weights and boundary indices from
  the output's source coordinates, a kernel, its support and a boundary rule), in
  NumPy float64 at trace time.
- ``_onnx_axis``: one axis's table under ONNX Resize's options (``jaxpad.image``'s),
  and the ONNX ``Resize`` node whose tables equal a plan's.
- ``_resize``: ``jaxpad_resize``, one resize call's passes as one primitive, with that
  node for ``jaxpad.onnx``.
"""
