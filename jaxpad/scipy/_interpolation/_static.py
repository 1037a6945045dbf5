"""A transform's pass along one axis at concrete coordinates: scipy's ``NI_ZoomShift``
taps computed in NumPy in float64 (``_static_plan``), read through the sampling core's
static pass (``jaxpad/_sampling/_pass.py``, ``jaxpad_interpolation_pass``).
"""

from __future__ import annotations

import numpy as np

# The pass and its helpers live in the sampling core; the names stay importable here
# (jaxpad.onnx and the tests reach them through this module).
from jaxpad._sampling._pass import _MAX_PHASES as _MAX_PHASES
from jaxpad._sampling._pass import _MAX_RUNS as _MAX_RUNS
from jaxpad._sampling._pass import _pass_impl as _pass_impl
from jaxpad._sampling._pass import _phases as _phases
from jaxpad._sampling._pass import _runs as _runs
from jaxpad._sampling._pass import _Table as _Table
from jaxpad._sampling._pass import pass_p as pass_p
from jaxpad.scipy._interpolation import _spline

# ----------------------------------------------------------------------------------
# scipy's coordinate arithmetic, in NumPy (ni_interpolation.c)
# ----------------------------------------------------------------------------------


def _np_map_coordinate(cc: np.ndarray, n: int, mode: str) -> np.ndarray:
    """scipy's ``map_coordinate`` on a float64 vector (``npy_intp`` casts as ``trunc``)."""
    cc = np.array(cc, dtype=np.float64)
    lo = cc < 0
    hi = cc > n - 1
    if mode == "constant":
        cc[lo | hi] = -1.0
        return cc
    if mode == "nearest":
        cc[lo] = 0.0
        cc[hi] = n - 1.0
        return cc
    if n <= 1:
        cc[lo | hi] = 0.0
        return cc
    a = cc[lo]
    b = cc[hi]
    if mode == "mirror":
        sz2 = 2 * n - 2
        a = sz2 * np.trunc(-a / sz2) + a
        a = np.where(a <= 1 - n, a + sz2, -a)
        b = b - sz2 * np.trunc(b / sz2)
        b = np.where(b >= n, sz2 - b, b)
    elif mode in ("reflect", "grid-mirror"):
        sz2 = 2 * n
        a = np.where(a < -sz2, sz2 * np.trunc(-a / sz2) + a, a)
        a = np.where(a < -n, a + sz2, np.where(a > -1e-15, 1e-15, -a) - 1)
        b = b - sz2 * np.trunc(b / sz2)
        b = np.where(b >= n, sz2 - b - 1, b)
    elif mode == "wrap":
        sz = n - 1
        a = a + sz * (np.trunc(-a / sz) + 1)
        b = b - sz * np.trunc(b / sz)
    elif mode == "grid-wrap":
        a = a + n * (np.trunc((-1 - a) / n) + 1)
        b = b - n * np.trunc(b / n)
    else:  # pragma: no cover - grid-constant is never mapped
        raise AssertionError(mode)
    cc[lo] = a
    cc[hi] = b
    return cc


def _static_plan(cc: np.ndarray, n: int, order: int, mode: str, npad: int):
    """One axis's taps as scipy's ``NI_ZoomShift`` finds them for the output coordinates
    ``cc`` (float64, in the unpadded input's indices) on an axis of ``n`` prepadded
    coefficients: ``(idx, w, outside)``, ``idx[k, j]`` the coefficient tap ``j`` of
    output ``k`` reads (``-1``: ``cval``, grid-constant), ``w`` its float64 weight,
    ``outside[k]`` whether output ``k`` is ``cval`` (constant mode)."""
    cc = np.asarray(cc, dtype=np.float64) + npad
    if mode in ("grid-constant", "nearest"):
        # every tap reads the extension's constant beyond here; keeps floor() in range
        cc = np.clip(cc, -order - 2.0, n + order + 1.0)
        outside = np.zeros(cc.shape, bool)
    else:
        cc = _np_map_coordinate(cc, n, mode)
        outside = ~(cc > -1.0)
        cc = np.where(outside, 0.0, cc)
    first = np.floor(cc) if order & 1 else np.floor(cc + 0.5)
    start = first.astype(np.int64) - order // 2
    idx = start[:, None] + np.arange(order + 1)
    edge = (idx < 0) | (idx >= n)
    if mode == "grid-constant":
        idx = np.where(edge, -1, idx)
    elif edge.any():
        spline_mode = "mirror" if mode in ("constant", "wrap") else mode
        mapped = _np_map_coordinate(idx[edge].astype(np.float64), n, spline_mode)
        idx[edge] = mapped.astype(np.int64)
    w = np.stack(_spline.weights(cc - first, order), axis=-1) if order else np.ones((len(cc), 1))
    return idx, w, outside
