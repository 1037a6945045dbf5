"""Reference implementations the tests compare jaxpad against.

They are thin wrappers over ``numpy.pad`` and ``jax.lax.pad``: numpy has no negative
widths, so a negative pad is applied as numpy padding by its positive part followed
by a crop, which is exactly the original-relative index rule of docs/semantics.md.
"""

from __future__ import annotations

import numpy as np

NUMPY_MODE = {
    "constant": "constant",
    "edge": "edge",
    "reflect": "reflect",
    "symmetric": "symmetric",
    "wrap": "wrap",
}


def numpy_pad(x, pads_begin, pads_end, mode, pad_value=0):
    x = np.asarray(x)
    if x.ndim == 0:
        return x.copy()
    out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, x.shape, pads_end))
    if 0 in out_shape:
        # An empty result has no values to get wrong; numpy would refuse to extend an
        # empty axis in a non-constant mode before the crop empties it again.
        return np.zeros(out_shape, x.dtype)
    widths = [(max(lo, 0), max(hi, 0)) for lo, hi in zip(pads_begin, pads_end)]
    kwargs = {"constant_values": pad_value} if mode == "constant" else {}
    padded = np.pad(x, widths, mode=NUMPY_MODE[mode], **kwargs)
    index = tuple(
        slice(max(-lo, 0), padded.shape[axis] - max(-hi, 0))
        for axis, (lo, hi) in enumerate(zip(pads_begin, pads_end))
    )
    return padded[index]


def random_pads(rng, shape, *, allow_negative=True, largest=None):
    """Random (pads_begin, pads_end) with a valid (non-negative) output size."""
    pads_begin, pads_end = [], []
    for n in shape:
        top = largest if largest is not None else 2 * n + 2
        while True:
            low = -n - 1 if allow_negative else 0
            lo, hi = (int(v) for v in rng.integers(low, top + 1, size=2))
            if lo + n + hi >= 0:
                break
        pads_begin.append(lo)
        pads_end.append(hi)
    return pads_begin, pads_end


def dense_pad_matrix(shape, pads_begin, pads_end, mode):
    """The pad as a 0/1 matrix (output elements x input elements), built from numpy.pad.

    Column ``k`` is ``numpy_pad`` of the ``k``-th one-hot input, so the transpose of
    this matrix is the exact VJP of the pad, with no index arithmetic of ours.
    """
    size = int(np.prod(shape, dtype=int))
    columns = [
        numpy_pad(np.eye(size, dtype=np.float64)[k].reshape(shape), pads_begin, pads_end, mode)
        for k in range(size)
    ]
    out_shape = numpy_pad(np.zeros(shape), pads_begin, pads_end, mode).shape
    if not columns:
        return np.zeros((int(np.prod(out_shape, dtype=int)), 0)), out_shape
    return np.stack([c.ravel() for c in columns], axis=1), out_shape
