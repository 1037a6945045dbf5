"""scipy.signal's 2-D convolution and correlation on jaxpad.pad."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxpad.scipy._args import _describe
from jaxpad.scipy._linear._padded_taps import padded_taps

_PREFIX = "jaxpad.scipy.signal."
_MODES = ("full", "same", "valid")
_BOUNDARIES = {
    "fill": "constant",
    "circular": "wrap",
    "wrap": "wrap",
    "symmetric": "symmetric",
    "symm": "symmetric",
}


def _check(fn: str, in1: Any, in2: Any, mode: Any, boundary: Any, fillvalue: Any):
    if isinstance(in2, jax.core.Tracer):
        raise TypeError(
            f"{fn}: in2 must be static (a NumPy array or a concrete array): each of its "
            "elements becomes one multiply-add; got a traced array. For a traced kernel use "
            "jaxpad.nn.conv."
        )
    x = jnp.asarray(in1)
    w = np.asarray(in2)
    if x.ndim != 2 or w.ndim != 2:
        raise ValueError(
            f"{fn}: in1 and in2 must both be 2-D; got shapes {tuple(x.shape)} and {w.shape}."
        )
    if not isinstance(mode, str) or mode not in _MODES:
        raise ValueError(f"{fn}: mode must be 'full', 'same' or 'valid'; got {mode!r}.")
    if not isinstance(boundary, str) or boundary not in _BOUNDARIES:
        raise ValueError(
            f"{fn}: boundary must be 'fill', 'wrap' (or 'circular') or 'symm' (or "
            f"'symmetric'); got {boundary!r}."
        )
    if np.ndim(fillvalue) != 0:
        raise ValueError(f"{fn}: fillvalue must be a scalar; got {_describe(fillvalue)}.")
    if 0 in x.shape or 0 in w.shape:
        raise ValueError(
            f"{fn}: in1 and in2 must not be empty; got shapes {tuple(x.shape)} and {w.shape}."
        )
    return x, w


def _conv2d(fn, x, w, mode, boundary, fillvalue, correlation=False):
    """Convolution of x with w (w flipped here); out[i] = sum_k w[k] x[i - k]."""
    dtype = jnp.promote_types(x.dtype, jax.dtypes.canonicalize_dtype(w.dtype))
    if not jnp.issubdtype(dtype, jnp.inexact):
        dtype = jnp.result_type(dtype)  # ints stay ints, as scipy's
    m = w.shape
    n = x.shape
    if mode == "full":
        out_shape = tuple(a + b - 1 for a, b in zip(n, m))
        starts = [0, 0]
    elif mode == "same":
        out_shape = n
        # scipy centres 'same' on full differently for an even kernel: a convolution
        # starts at (m - 1) // 2, a correlation (the flipped kernel's convolution) at m // 2.
        starts = [b // 2 if correlation else (b - 1) // 2 for b in m]
    else:
        out_shape = tuple(a - b + 1 for a, b in zip(n, m))
        starts = [b - 1 for b in m]
    # full[i] reads x_ext[i - (m - 1) + k'] for the flipped kernel's k'; output i of this
    # mode is full[i + start].
    begins = [b - 1 - s for b, s in zip(m, starts)]
    ends = [o + s - a for o, s, a in zip(out_shape, starts, n)]
    jmode = _BOUNDARIES[boundary]
    flipped = w[::-1, ::-1]
    xc = x.astype(dtype)
    if jmode == "constant" and (min(begins) < 0 or min(ends) < 0):
        raise AssertionError("negative pad")
    fill = jnp.asarray(fillvalue).astype(dtype) if jmode == "constant" else 0
    out = padded_taps(xc, fill, flipped, begins, ends, [jmode, jmode])
    assert out.shape == tuple(out_shape)
    return out.astype(dtype)


def _valid_larger_kernel(x, w):
    """conv(x, w) in 'valid' mode when w (static) is larger than x in every axis: no
    boundary is read, and out[i] = sum_j x[j] * w[i + n - 1 - j]."""
    dtype = jnp.promote_types(x.dtype, jax.dtypes.canonicalize_dtype(w.dtype))
    n = x.shape
    out_shape = tuple(b - a + 1 for a, b in zip(n, w.shape))
    acc = jnp.zeros(out_shape, dtype)
    for j in np.ndindex(*n):
        start = [a - 1 - k for a, k in zip(n, j)]
        block = w[tuple(slice(s, s + o) for s, o in zip(start, out_shape))]
        acc = acc + x[j].astype(dtype) * jnp.asarray(block, dtype)
    return acc


def _valid_swap(fn, x_shape, w_shape):
    ok1 = all(a >= b for a, b in zip(x_shape, w_shape))
    ok2 = all(b >= a for a, b in zip(x_shape, w_shape))
    if not (ok1 or ok2):
        raise ValueError(
            f"{fn}: with mode='valid' one input must be at least as large as the other in "
            f"every dimension; got shapes {tuple(x_shape)} and {tuple(w_shape)}."
        )
    return not ok1


def convolve2d(
    in1: Any, in2: Any, mode: str = "full", boundary: str = "fill", fillvalue: Any = 0
) -> jax.Array:
    """2-D convolution, as ``scipy.signal.convolve2d``.

    Args:
      in1: the first 2-D array (may be traced).
      in2: the second 2-D array, the kernel (static: one multiply-add per element).
      mode: ``"full"`` (every overlap), ``"same"`` (in1's shape, centred on full) or
        ``"valid"`` (no boundary read).
      boundary: ``"fill"`` (``fillvalue``), ``"wrap"`` / ``"circular"`` (periodic) or
        ``"symm"`` / ``"symmetric"`` (mirrored, edge repeated).
      fillvalue: the value beyond in1's edges with ``boundary="fill"`` (may be traced).

    Returns:
      The convolution, of the inputs' promoted dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import signal
      >>> signal.convolve2d(np.eye(3), np.array([[1.0, 2.0]]), mode="same", boundary="wrap")
      Array([[1., 2., 0.],
             [0., 1., 2.],
             [2., 0., 1.]], dtype=float32)
    """
    fn = _PREFIX + "convolve2d"
    x, w = _check(fn, in1, in2, mode, boundary, fillvalue)
    if mode == "valid" and _valid_swap(fn, x.shape, w.shape):
        return _valid_larger_kernel(x, w)
    return _conv2d(fn, x, w, mode, boundary, fillvalue)


def correlate2d(
    in1: Any, in2: Any, mode: str = "full", boundary: str = "fill", fillvalue: Any = 0
) -> jax.Array:
    """2-D cross-correlation, as ``scipy.signal.correlate2d``.

    Args:
      in1: the first 2-D array (may be traced).
      in2: the second 2-D array, the template (static).
      mode: ``"full"``, ``"same"`` or ``"valid"``.
      boundary: ``"fill"``, ``"wrap"`` / ``"circular"`` or ``"symm"`` / ``"symmetric"``.
      fillvalue: the value beyond in1's edges with ``boundary="fill"`` (may be traced).

    Returns:
      The correlation, of the inputs' promoted dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import signal
      >>> signal.correlate2d(np.eye(3), np.array([[1.0, 2.0]]), mode="same", boundary="symm")
      Array([[1., 0., 0.],
             [2., 1., 0.],
             [0., 2., 3.]], dtype=float32)
    """
    fn = _PREFIX + "correlate2d"
    x, w = _check(fn, in1, in2, mode, boundary, fillvalue)
    if mode == "valid" and _valid_swap(fn, x.shape, w.shape):
        # scipy swaps the inputs, correlates and flips: flip(conv(conj(flip(in1)), in2)).
        return _valid_larger_kernel(jnp.conj(x[::-1, ::-1]), w)[::-1, ::-1]
    # correlation with w = convolution with w flipped and conjugated.
    return _conv2d(fn, x, np.conj(w[::-1, ::-1]), mode, boundary, fillvalue, True)
