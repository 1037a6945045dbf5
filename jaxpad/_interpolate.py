"""``jaxpad.nn.interpolate``: torch's ``F.interpolate``, its sizes, coordinates,
kernels and roundings, as ``jaxpad_interpolation_pass``-es (``jaxpad/_sampling``).

What decides each rule (aten's UpSample.h and UpSampleKernel.cpp, checked against
torch 2.13 in tests/test_interpolate.py):

- the output size is ``floor(n * scale_factor)`` in float64; the coordinates use
  ``1 / scale_factor`` where ``scale_factor`` is given (unless
  ``recompute_scale_factor``), else ``n_in / n_out``; ``align_corners`` uses
  ``(n_in - 1) / (n_out - 1)`` whatever was given;
- ``nearest``: ``min(floor(i * scale), n_in - 1)`` with the scale and product in the
  input's float type (float32 for float32 and narrower, float64 for float64), rounded to
  float32 before the floor (aten's ``floorf``); ``nearest-exact``: ``floor(max(scale *
  (i + 0.5) - 0.5, 0) + 0.5)``, whose ``scale * (i + 0.5) - 0.5`` is one fused
  multiply-add in float32 (the only form that matched torch on every size to 90);
- linear modes: source ``scale * (i + 0.5) - 0.5`` clamped at 0 (``align_corners``:
  ``scale * i``), two taps, the far one clamped to the edge; ``bicubic``: the same
  source unclamped, Keys' kernel with ``a = -0.75``, four taps read with clamped
  indices;
- ``antialias``: Pillow's kernels (triangle, Keys' ``a = -0.5``) stretched by the scale
  when downsampling, the taps beyond the edge dropped and the rest renormalized, centred
  at ``scale * (i + 0.5)`` (also under ``align_corners``, with its scale);
- ``area``: the adaptive average pool, output ``i`` averaging inputs
  ``floor(i n_in / n_out) .. ceil((i + 1) n_in / n_out) - 1``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

from jaxpad._sampling import _kernels, _resize, _tables
from jaxpad._sampling._onnx_axis import onnx_node

MODES = ("nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area")
# The spatial rank each interpolating mode takes (torch raises for any other).
_RANK = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}
_FN = "jaxpad.nn.interpolate"


def _nearest_index(n_in: int, n_out: int, scale_factor, exact: bool, dtype) -> np.ndarray:
    """torch's nearest source indices (see the module's docstring)."""
    op: Any = np.float64 if np.dtype(dtype) == np.float64 else np.float32
    scale: Any = op(1.0 / scale_factor) if scale_factor is not None else op(n_in) / op(n_out)
    i: Any = np.arange(n_out).astype(op)
    r: Any
    if exact:
        if op is np.float32:  # one fused multiply-add, then float32 arithmetic
            wide = (i + op(0.5)).astype(np.float64)
            r = (np.float64(scale) * wide - 0.5).astype(np.float32)
            r = np.maximum(r, op(0)) + op(0.5)
        else:
            r = (np.maximum(scale * (i + 0.5) - 0.5, 0.0) + 0.5).astype(np.float32)
    else:
        r = (scale * i).astype(np.float32)
    return np.minimum(np.floor(r).astype(np.int64), n_in - 1)


def _axis_table(mode, n_in, n_out, scale_factor, align_corners, antialias, dtype):
    if mode in ("nearest", "nearest-exact"):
        idx = _nearest_index(n_in, n_out, scale_factor, mode == "nearest-exact", dtype)
        return _tables.index_table(idx, n_in, "edge")
    if mode == "area":
        i = np.arange(n_out)
        lo = (i * n_in) // n_out
        hi = -((-(i + 1) * n_in) // n_out)
        return _tables.area_table(lo, hi, n_in, "exclude")
    if align_corners:
        scale = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    else:
        scale = 1.0 / scale_factor if scale_factor is not None else n_in / n_out
    i = np.arange(n_out, dtype=np.float64)
    if antialias:
        x = scale * (i + 0.5) - 0.5
        kernel = "cubic" if mode == "bicubic" else "linear"
        support = max(scale, 1.0)
        return _tables.kernel_table(
            x, n_in, kernel, "exclude", a=_kernels.A_KEYS, support=support, normalize=True
        )
    x = scale * i if align_corners else scale * (i + 0.5) - 0.5
    if mode == "bicubic":
        return _tables.kernel_table(x, n_in, "cubic", "edge", a=_kernels.A_TORCH, normalize=False)
    x = np.maximum(x, 0.0)
    return _tables.kernel_table(x, n_in, "linear", "edge", normalize=False)


def _per_axis(name: str, value: Any, d: int, kind) -> tuple:
    if isinstance(value, (list, tuple)):
        if len(value) != d:
            raise ValueError(
                f"{_FN}: {name} must have one entry per spatial axis of input ({d}); got "
                f"{len(value)}: {tuple(value)!r}."
            )
        return tuple(value)
    return (value,) * d


def interpolate(
    input: ArrayLike,
    size: int | Sequence[int] | None = None,
    scale_factor: float | Sequence[float] | None = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
    *,
    channels_last: bool = False,
) -> jax.Array:
    """``torch.nn.functional.interpolate``: its arguments, layout and values.

    Args:
        input: ``(N, C, *spatial)`` with 1-3 spatial axes (``(N, *spatial, C)`` with
            ``channels_last``).
        size: the output's spatial size (an int for every axis, or one per axis).
        scale_factor: the multiplier of each spatial size (the output is
            ``floor(n * scale_factor)``; the coordinates use ``1 / scale_factor`` unless
            ``recompute_scale_factor``). Exactly one of ``size`` and ``scale_factor``.
        mode: ``"nearest"`` (torch's ``floor(i * scale)``, in its float arithmetic),
            ``"nearest-exact"``, ``"linear"`` (3-D input), ``"bilinear"``,
            ``"bicubic"`` (4-D; ``a = -0.75``), ``"trilinear"`` (5-D), ``"area"`` (the
            adaptive average pool).
        align_corners: for the linear modes and ``"bicubic"``: the corner samples map to
            the corners (None: False).
        recompute_scale_factor: the coordinates from the output size rather than
            ``scale_factor`` (only with ``scale_factor``).
        antialias: for ``"bilinear"`` and ``"bicubic"``: Pillow's antialiased kernels
            when downsampling (bicubic's with ``a = -0.5``, as torch).
        channels_last: ``input`` is ``(N, *spatial, C)``; the passes run on that layout,
            no transpose of the data.

    Returns:
        The resized array, ``input``'s dtype.

    Raises:
        ValueError, TypeError: as torch does (both or neither of ``size`` and
            ``scale_factor``, an option the mode takes none of, a mode that does not fit
            the input's rank, a size of the wrong length or an empty output, an integer
            input to an interpolating mode).

    Example:
        >>> import jax.numpy as jnp
        >>> import jaxpad
        >>> x = jnp.arange(4.0).reshape(1, 1, 4)
        >>> jaxpad.nn.interpolate(x, scale_factor=2, mode="linear")
        Array([[[0.  , 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.  ]]], dtype=float32)
        >>> jaxpad.nn.interpolate(x, size=3, mode="nearest")
        Array([[[0., 1., 2.]]], dtype=float32)
    """
    x = jnp.asarray(input)
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(
            f"{_FN}: mode must be one of {', '.join(repr(m) for m in MODES)}; got {mode!r}."
        )
    channels_last = _bool("channels_last", channels_last)
    antialias = _bool("antialias", antialias)
    if x.ndim not in (3, 4, 5):
        raise ValueError(
            f"{_FN}: input must be 3-D, 4-D or 5-D (batch, channels and 1-3 spatial axes); "
            f"got an array of shape {x.shape}."
        )
    d = x.ndim - 2
    if mode in _RANK and _RANK[mode] != d:
        raise ValueError(
            f"{_FN}: mode {mode!r} needs a {_RANK[mode] + 2}-D input; got {x.ndim}-D "
            f"(shape {x.shape})."
        )
    if align_corners is not None:
        align_corners = _bool("align_corners", align_corners)
        if mode not in _RANK:
            raise ValueError(
                f"{_FN}: align_corners can only be set with the interpolating modes "
                f"'linear', 'bilinear', 'bicubic', 'trilinear'; got mode {mode!r}."
            )
    align = bool(align_corners)
    if antialias and mode not in ("bilinear", "bicubic"):
        raise ValueError(
            f"{_FN}: antialias is for modes 'bilinear' and 'bicubic' (4-D input); got "
            f"mode {mode!r}."
        )
    if mode != "nearest" and mode != "nearest-exact" and not jnp.issubdtype(x.dtype, jnp.inexact):
        raise TypeError(f"{_FN}: mode {mode!r} needs a floating input; got dtype {x.dtype}.")
    spatial_axes = list(range(1, 1 + d)) if channels_last else list(range(2, 2 + d))
    n_in = [x.shape[a] for a in spatial_axes]
    if (size is None) == (scale_factor is None):
        raise ValueError(
            f"{_FN}: exactly one of size and scale_factor must be given; got size={size!r}, "
            f"scale_factor={scale_factor!r}."
        )
    if recompute_scale_factor is not None:
        recompute_scale_factor = _bool("recompute_scale_factor", recompute_scale_factor)
        if recompute_scale_factor and size is not None:
            raise ValueError(
                f"{_FN}: recompute_scale_factor is not meaningful with an explicit size; "
                f"got size={size!r}."
            )
    factors: tuple = (None,) * d
    if size is not None:
        sizes = _per_axis("size", size, d, int)
        if not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in sizes):
            raise TypeError(f"{_FN}: size must be an int or a sequence of ints; got {size!r}.")
        n_out = [int(s) for s in sizes]
    else:
        raw = _per_axis("scale_factor", scale_factor, d, float)
        try:
            factors = tuple(float(f) for f in raw)
        except (TypeError, ValueError):
            raise TypeError(
                f"{_FN}: scale_factor must be a number or a sequence of numbers; got "
                f"{scale_factor!r}."
            ) from None
        if not all(f > 0 and math.isfinite(f) for f in factors):
            raise ValueError(
                f"{_FN}: scale_factor must be positive and finite; got {scale_factor!r}."
            )
        n_out = [math.floor(float(n) * f) for n, f in zip(n_in, factors)]
        if recompute_scale_factor:
            factors = (None,) * d
    if any(n <= 0 for n in n_out) or any(n <= 0 for n in n_in):
        raise ValueError(
            f"{_FN}: input and output sizes should be greater than 0; got input spatial size "
            f"{tuple(n_in)} and output size {tuple(n_out)}."
        )
    if mode == "area":
        factors = (None,) * d
    tables = {}
    for axis, a_in, a_out, f in zip(spatial_axes, n_in, n_out, factors):
        table = _axis_table(mode, a_in, a_out, f, align, antialias, x.dtype)
        if not table.is_identity(a_in):
            tables[axis] = table
    return _resize.resize(
        x,
        _resize.ordered(tables, x.shape),
        jnp.zeros((), x.dtype),
        _onnx(x.shape, tables, mode, align, antialias, dict(zip(spatial_axes, factors))),
    )


def _onnx(
    shape: tuple[int, ...],
    tables: dict[int, _tables.Table],
    mode: str,
    align: bool,
    antialias: bool,
    factors: dict[int, float | None],
) -> _resize.OnnxResize | None:
    """The ONNX ``Resize`` node of the call (``_sampling._onnx_axis.onnx_node``), or None:
    torch's nearest is ONNX's ``asymmetric`` coordinates rounded by ``floor``,
    ``nearest-exact`` the half-pixel ones rounded half up, the linear modes and
    ``bicubic`` (``a = -0.75``) ``half_pixel`` or ``align_corners`` (or
    ``pytorch_half_pixel``) with the taps beyond the edge read at the edge, and the
    antialiased ones ONNX's ``antialias`` (bicubic's ``a = -0.5``) with
    ``exclude_outside``; ``area`` (an adaptive average pool) is no ``Resize``."""
    if mode == "area":
        return None
    if mode in ("nearest", "nearest-exact"):
        method = "nearest"
        ctms: tuple[str, ...] = ("asymmetric",) if mode == "nearest" else ("half_pixel",)
    else:
        method = "cubic" if mode == "bicubic" else "linear"
        ctms = ("align_corners",) if align else ("half_pixel", "pytorch_half_pixel")
    scales = {a: f for a, f in factors.items() if f is not None}
    return onnx_node(
        shape,
        tables,
        method,
        antialias=antialias,
        ctms=ctms,
        a=_kernels.A_KEYS if antialias else _kernels.A_TORCH,
        scales=scales if len(scales) == len(factors) else None,
        roi_pairs=[None] * len(shape),
        extrapolation_value=0.0,
        exclude=antialias,
    )


def _bool(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{_FN}: {name} must be a bool; got {value!r}.")
    return bool(value)
