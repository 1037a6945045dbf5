"""One axis's resampling table under ONNX Resize's options, and the ONNX ``Resize`` node
that computes a resize's plan.

``axis_table``: the table of one axis of ``jaxpad.image.resize`` (ONNX's
``x_original`` for each coordinate mode, its nearest roundings, the kernels with their
support and boundary) or of ``scale_and_translate``; tests/test_resize_onnx.py checks it
against ONNX's reference. ``onnx_node``: the ``Resize`` node (``_resize.OnnxResize``)
whose tables, resolved by ``axis_table``, equal a plan's, for ``jaxpad.onnx``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from jaxpad._sampling import _resize, _tables


def _source(ctm: str, n_in: int, n_out: int, scale: float, given: bool, roi) -> np.ndarray:
    """ONNX Resize's ``x_original`` for each output index (onnx/reference's
    ``_compute_x_ori``), float64. ``scale`` is ``n_out / n_in`` unless ``given`` (ONNX's
    ``scales`` input), where the output's float width is ``scale * n_in``."""
    i = np.arange(n_out, dtype=np.float64)
    width = scale * n_in if given else float(n_out)
    if ctm == "half_pixel":
        # ONNX's expression term for term, so that a nearest rounding sees its double
        # (jax.image's (i + 0.5) * (1 / scale) - 0.5 differs in the last bit)
        return (i + 0.5) / scale - 0.5
    if ctm == "half_pixel_symmetric":
        adjustment = n_out / width
        offset = n_in / 2 * (1 - adjustment)
        return offset + (i + 0.5) / scale - 0.5
    if ctm == "pytorch_half_pixel":
        return (i + 0.5) / scale - 0.5 if width > 1 else np.zeros(n_out)
    if ctm == "align_corners":
        return i * (n_in - 1) / (width - 1) if width != 1 else np.zeros(n_out)
    if ctm == "asymmetric":
        return i / scale
    if ctm == "tf_half_pixel_for_nn":
        return (i + 0.5) / scale
    start, end = roi
    if width == 1:
        return np.full(n_out, (end - start) * (n_in - 1) / 2 + start * (n_in - 1))
    return i * (end - start) * (n_in - 1) / (width - 1) + start * (n_in - 1)


def _jax_nearest(n_in: int, n_out: int) -> np.ndarray:
    """jax.image.resize's nearest indices, in its float32 arithmetic."""
    f32 = np.float32
    i = np.arange(n_out, dtype=f32)
    return np.floor((i + f32(0.5)) * f32(n_in) / f32(n_out)).astype(np.int64)


def _rounded(x: np.ndarray, nearest_mode: str, scale: float) -> np.ndarray:
    """ONNX's nearest rounding of ``x`` (``_nearest_coeffs``: an integer stays), or
    OpenVINO's ``simple`` (``ceil`` on an axis that shrinks, else ``floor``)."""
    if nearest_mode == "simple":
        nearest_mode = "ceil" if scale < 1 else "floor"
    if nearest_mode == "round_prefer_floor":
        r = np.ceil(x - 0.5)
    elif nearest_mode == "round_prefer_ceil":
        r = np.floor(x + 0.5)
    elif nearest_mode == "floor":
        r = np.floor(x)
    else:
        r = np.ceil(x)
    return r.astype(np.int64)


def axis_table(
    n_in: int,
    n_out: int,
    *,
    method: str,
    antialias: bool,
    ctm: str,
    nearest_mode: str | None,
    a: float,
    boundary: str,
    scale: float,
    given: bool,
    roi,
    translation: float = 0.0,
) -> _tables.Table:
    """The table of one axis of ``resize`` (``translation`` 0) or ``scale_and_translate``
    (``ctm`` half_pixel, ``given``)."""
    if method == "area":
        inv = 1.0 / scale
        lo = np.arange(n_out) * inv - translation * inv
        return _tables.area_table(lo, lo + inv, n_in, boundary)
    if translation:  # jax.image's sample_f
        inv = 1.0 / scale
        x = (np.arange(n_out) + 0.5) * inv - translation * inv - 0.5
    else:
        x = _source(ctm, n_in, n_out, scale, given, roi)
    if method == "nearest":
        if nearest_mode is None and ctm == "half_pixel" and not given:
            idx = _jax_nearest(n_in, n_out)
        else:
            idx = _rounded(x, nearest_mode or "round_prefer_floor", scale)
        table = _tables.index_table(idx, n_in, boundary)
    else:
        support = max(1.0 / scale, 1.0) if antialias else 1.0
        kernel = "cubic" if method == "cubic-pytorch" else method
        table = _tables.kernel_table(x, n_in, kernel, boundary, a=a, support=support)
    if ctm == "tf_crop_and_resize":
        table = table.with_constant_rows((x < 0) | (x > n_in - 1))
    return table


# ONNX Resize's modes for jaxpad's methods; its coordinate modes of opsets 18 and 19
# (tf_half_pixel_for_nn left with opset 13).
_ONNX_MODES = {"nearest": "nearest", "linear": "linear", "cubic": "cubic", "cubic-pytorch": "cubic"}
_ONNX_NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
_ONNX_CTMS = (
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_crop_and_resize",
)
# The coordinate modes that read the float output width (``scale * n``): onnxruntime
# reads the integer one.
_FLOAT_WIDTH_CTMS = ("align_corners", "tf_crop_and_resize", "half_pixel_symmetric")


def _entries(t: _tables.Table, n_in: int):
    """A table's matrix as sorted ``(row, column)`` keys and their summed weights (the
    constant the last column), the weights within 1e-12 of zero dropped."""
    rows = np.broadcast_to(np.arange(t.idx.shape[0])[:, None], t.idx.shape)[t.present]
    cols = np.where(t.idx == -1, n_in, t.idx)[t.present]
    keys, where = np.unique(rows * (n_in + 1) + cols, return_inverse=True)
    w = np.bincount(where.reshape(-1), t.w[t.present], len(keys))
    kept = np.abs(w) > 1e-12
    return keys[kept], w[kept]


def _same_table(t: _tables.Table, u: _tables.Table, n_in: int) -> bool:
    """Whether two tables give the same values, to float64 rounding."""
    if t.idx.shape[0] != u.idx.shape[0]:
        return False
    if t.idx.shape == u.idx.shape and np.array_equal(t.present, u.present):
        p = t.present
        if np.array_equal(t.idx[p], u.idx[p]) and np.allclose(t.w[p], u.w[p], 0, 1e-12):
            return True  # the same taps: no need to sum the entries up
    (k, w), (j, v) = _entries(t, n_in), _entries(u, n_in)
    return bool(np.array_equal(k, j) and np.allclose(w, v, 0, 1e-12))


def _source32(ctm: str, n_in: int, n_out: int, scale: float, roi) -> np.ndarray:
    """``_source`` in float32 arithmetic, as onnxruntime computes nearest's coordinates."""
    f = np.float32
    i, s, n = np.arange(n_out, dtype=f), f(scale), f(n_in)
    if ctm == "asymmetric":
        return i / s
    if ctm == "align_corners":
        return i * (n - f(1)) / f(n_out - 1) if n_out > 1 else np.zeros(n_out, f)
    if ctm == "tf_crop_and_resize":
        start, end = f(roi[0]), f(roi[1])
        if n_out == 1:
            return np.full(n_out, (end - start) * (n - f(1)) / f(2) + start * (n - f(1)), f)
        return i * (end - start) * (n - f(1)) / f(n_out - 1) + start * (n - f(1))
    if ctm == "pytorch_half_pixel" and n_out == 1:
        return np.zeros(n_out, f)
    x = (i + f(0.5)) / s - f(0.5)
    if ctm == "half_pixel_symmetric":
        x = x + n / f(2) * (f(1) - f(n_out) / (s * n))
    return x


def _robust(table: _tables.Table, n_in: int, ctm: str, nearest_mode: str, scale, roi) -> bool:
    """Whether a nearest ``table`` has the indices of its coordinates computed in
    float32 (onnxruntime's arithmetic), the rows that read the constant aside."""
    idx = table.idx[:, 0]
    x32 = _source32(ctm, n_in, len(idx), scale, roi)
    rounded = np.clip(_rounded(x32, nearest_mode, scale), 0, n_in - 1)
    read = idx != -1
    return bool(np.array_equal(rounded[read], idx[read]))


def onnx_node(
    in_shape: tuple[int, ...],
    tables: dict[int, _tables.Table],
    method: str,
    *,
    antialias: bool,
    ctms: Sequence[str],
    a: float,
    scales: dict[int, float] | None,
    roi_pairs,
    extrapolation_value: float,
    exclude: bool = False,
) -> _resize.OnnxResize | None:
    """The ONNX ``Resize`` node that computes ``tables`` (axis: table), or None.

    Each candidate node, over ``ctms`` (the coordinate modes that may describe the
    call), ONNX's nearest roundings, ``exclude_outside`` off then on (``exclude``: the
    plan drops the taps beyond the edge, so on first), ``sizes`` then ``scales`` (the
    float32 ``scales`` of the axes, where given), is resolved into its tables by this
    module's ONNX semantics (``axis_table``, which tests/test_resize_onnx.py checks
    against ``onnx.reference``); the first whose tables equal the plan's, to float64
    rounding, is the node. Left out, where onnxruntime 1.32 computes another value than
    the node's definition (docs/resize.md): ``exclude_outside`` with a non-antialiased
    linear or nearest (which it refuses), ``tf_crop_and_resize`` on an axis that keeps
    its size, ``scales`` whose product with the size is not the output size under the
    modes that read the float width, and nearest indices that float32 coordinates
    round otherwise."""
    onnx_mode = _ONNX_MODES.get(method)
    axes = tuple(sorted(tables))
    if onnx_mode is None or not axes:
        return None
    sizes = {d: tables[d].idx.shape[0] for d in axes}
    aa = antialias and onnx_mode != "nearest"
    excludes = (False, True) if onnx_mode == "cubic" or (aa and onnx_mode == "linear") else (False,)
    if exclude:  # the plan's own rule first
        excludes = excludes[::-1]
    roundings = _ONNX_NEAREST_MODES if onnx_mode == "nearest" else _ONNX_NEAREST_MODES[:1]
    choices: list[dict[int, float] | None] = [None]
    if scales is not None:
        wide = {d: float(np.float32(scales[d])) for d in axes}
        if all(int(wide[d] * in_shape[d]) == sizes[d] for d in axes) and all(
            int(np.float32(wide[d]) * np.float32(in_shape[d])) == sizes[d] for d in axes
        ):
            choices.append(wide)
    for ctm in ctms:
        if ctm not in _ONNX_CTMS:
            continue
        if ctm == "tf_crop_and_resize" and any(sizes[d] == in_shape[d] for d in axes):
            continue
        for nm, ex, given in (
            (nm, ex, given) for nm in roundings for ex in excludes for given in choices
        ):
            if (
                given is not None
                and ctm in _FLOAT_WIDTH_CTMS
                and any(given[d] * in_shape[d] != sizes[d] for d in axes)
            ):
                continue
            ok = True
            for d in axes:
                n_in, n_out = in_shape[d], sizes[d]
                scale = n_out / n_in if given is None else given[d]
                table = axis_table(
                    n_in,
                    n_out,
                    method=method,
                    antialias=aa,
                    ctm=ctm,
                    nearest_mode=nm,
                    a=a,
                    boundary="exclude" if ex else "edge",
                    scale=scale,
                    given=given is not None,
                    roi=roi_pairs[d],
                )
                if not _same_table(table, tables[d], n_in) or (
                    onnx_mode == "nearest"
                    and not _robust(table, n_in, ctm, nm, scale, roi_pairs[d])
                ):
                    ok = False
                    break
            if not ok:
                continue
            roi = None
            if ctm == "tf_crop_and_resize":
                roi = tuple(roi_pairs[d][0] for d in axes) + tuple(roi_pairs[d][1] for d in axes)
            return _resize.OnnxResize(
                mode=onnx_mode,
                coordinate_transformation_mode=ctm,
                axes=axes,
                sizes=None if given is not None else tuple(sizes[d] for d in axes),
                scales=None if given is None else tuple(given[d] for d in axes),
                roi=roi,
                nearest_mode=nm,
                cubic_coeff_a=a,
                exclude_outside=ex,
                antialias=aa,
                extrapolation_value=float(extrapolation_value),
            )
    return None
