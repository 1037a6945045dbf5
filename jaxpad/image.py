"""Image resizing: ``jax.image.resize`` and ``scale_and_translate``'s superset.

``resize`` takes ``jax.image.resize``'s arguments and gives its values by default
(half-pixel centres, antialiased downsampling, Keys' cubic with ``a = -0.5``, the taps
beyond the edge dropped and the rest renormalized); keyword-only options with ONNX
Resize's names and meanings reach every other framework's convention
(``coordinate_transformation_mode``, ``nearest_mode``, ``cubic_coeff_a``,
``exclude_outside``, ``roi``, ``extrapolation_value``, ONNX's ``scales`` input as
``scales``), and ``mode`` reads the taps beyond the edge through a jaxpad boundary
mode (``edge``, ``constant``, ``reflect``, ``symmetric``, ``wrap``; one per axis).

Each resized axis is one ``jaxpad_interpolation_pass`` (``jaxpad/_sampling``): a static
table of taps and weights computed in NumPy float64 at trace time, read through strided
slices by phase, no dense (input x output) matrix; its transpose is the transposed
table's pass, so gradients of every order are passes too. A call's passes are one
``jaxpad_resize`` primitive, which carries the ONNX ``Resize`` node that computes them
where there is one (``_sampling/_onnx_axis.py``), for ``jaxpad.onnx``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from jaxpad._sampling import _kernels, _resize, _tables
from jaxpad._sampling._onnx_axis import axis_table as _axis_table
from jaxpad._sampling._onnx_axis import onnx_node

__all__ = ["COORDINATE_TRANSFORMATION_MODES", "METHODS", "resize", "scale_and_translate"]

# Each spelling of jax.image.ResizeMethod's names, and the kernel it means.
_METHODS = {
    "nearest": "nearest",
    "linear": "linear",
    "bilinear": "linear",
    "trilinear": "linear",
    "triangle": "linear",
    "cubic": "cubic",
    "bicubic": "cubic",
    "tricubic": "cubic",
    "cubic-pytorch": "cubic-pytorch",
    "bicubic-pytorch": "cubic-pytorch",
    "lanczos3": "lanczos3",
    "lanczos5": "lanczos5",
    "area": "area",
    # other frameworks' kernels: OpenCV's INTER_LANCZOS4, Pillow's BOX and HAMMING,
    # TensorFlow's gaussian and mitchellcubic
    "lanczos4": "lanczos4",
    "box": "box",
    "hamming": "hamming",
    "gaussian": "gaussian",
    "mitchellcubic": "mitchellcubic",
}
# The methods whose framework reads the taps beyond the edge at the edge (the rest drop
# them and renormalize, as jax.image, Pillow and TensorFlow do).
_EDGE_METHODS = ("cubic-pytorch", "lanczos4")
METHODS = tuple(_METHODS)
COORDINATE_TRANSFORMATION_MODES = (
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_half_pixel_for_nn",
    "tf_crop_and_resize",
)
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")
BOUNDARY_MODES = ("edge", "constant", "reflect", "symmetric", "wrap")


# ----------------------------------------------------------------------------------
# Arguments
# ----------------------------------------------------------------------------------


def _method(fn: str, method: Any) -> str:
    name = method
    if isinstance(method, jax.image.ResizeMethod):
        name = method.name.lower().replace("_", "-")
    if not isinstance(name, str) or name not in _METHODS:
        raise ValueError(
            f"{fn}: method must be one of {', '.join(repr(m) for m in METHODS)} (or a "
            f"jax.image.ResizeMethod); got {method!r}."
        )
    return _METHODS[name]


def _choice(fn: str, name: str, value: Any, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(
            f"{fn}: {name} must be one of {', '.join(repr(c) for c in choices)}; got {value!r}."
        )
    return value


def _bool(fn: str, name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn}: {name} must be a bool; got {value!r}.")
    return bool(value)


def _shape(fn: str, shape: Any, ndim: int) -> tuple[int, ...]:
    if hasattr(shape, "__array__") and not isinstance(shape, jax.core.Tracer):
        arr = np.asarray(shape)  # a concrete array of sizes, as jax.image takes
        if arr.ndim == 1 and np.issubdtype(arr.dtype, np.integer):
            shape = [int(v) for v in arr]
    try:
        out = tuple(shape)
        ok = all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in out)
    except TypeError:
        ok = False
    if not ok:
        raise TypeError(f"{fn}: shape must be a sequence of ints; got {shape!r}.")
    if len(out) != ndim:
        raise ValueError(
            f"{fn}: shape must have one entry per axis of image (image.ndim={ndim}); got "
            f"{len(out)}: {tuple(int(s) for s in out)}."
        )
    if any(s < 0 for s in out):
        raise ValueError(f"{fn}: shape must be non-negative; got {tuple(int(s) for s in out)}.")
    return tuple(int(s) for s in out)


def _floats(fn: str, name: str, value: Any, count: int, what: str) -> tuple[float, ...]:
    try:
        out = np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {name} must be a sequence of numbers; got {value!r}.") from None
    if isinstance(value, jax.core.Tracer):
        raise TypeError(f"{fn}: {name} must be concrete (static); got a traced array.")
    if out.size != count:
        raise ValueError(f"{fn}: {name} must have {what}; got {out.size}: {tuple(out.tolist())}.")
    return tuple(float(v) for v in out)


def _modes(fn: str, mode: Any, ndim: int) -> tuple[str, ...]:
    modes = (mode,) * ndim if isinstance(mode, str) else mode
    try:
        modes = tuple(modes)
    except TypeError:
        modes = (mode,)
    for m in modes:
        _choice(fn, "mode", m, BOUNDARY_MODES)
    if len(modes) != ndim:
        raise ValueError(
            f"{fn}: mode must be one mode or one per axis of image (image.ndim={ndim}); got "
            f"{len(modes)}: {modes!r}."
        )
    return modes


def _precision(fn: str, precision: Any) -> None:
    """Checked, then unused: each pass multiplies and adds elementwise in the input's
    dtype, which no precision setting changes (it governs dots and convolutions)."""
    if precision is None or isinstance(precision, lax.Precision):
        return
    if isinstance(precision, tuple) and len(precision) == 2:
        for p in precision:
            _precision(fn, p)
        return
    try:
        lax.Precision(precision)
    except (ValueError, TypeError, KeyError):
        raise ValueError(
            f"{fn}: precision must be None, a jax.lax.Precision or its name; got {precision!r}."
        ) from None


def _float_dtype(dtype) -> np.dtype:
    """jax.image's promotion: a float or complex dtype stays, anything else becomes the
    default float."""
    if jnp.issubdtype(dtype, jnp.inexact):
        return np.dtype(dtype)
    return np.dtype(jnp.result_type(float))


def _run(image, tables: dict[int, _tables.Table], out_shape, dtype, cval, onnx=None):
    """The passes of ``tables`` (axis: table) in ``_resize.ordered``'s order, as one
    ``jaxpad_resize`` (``onnx``: its ONNX node)."""
    x = image if image.dtype == dtype else image.astype(dtype)
    if any(s == 0 for s in out_shape):
        return jnp.zeros(out_shape, dtype)
    plan = _resize.ordered(tables, x.shape)
    return _resize.resize(x, plan, jnp.asarray(cval, dtype), onnx)


def _traced_scale_and_translate(fn, image, out_shape, dims, scale, translation, kind, antialias):
    """``scale_and_translate`` at a traced scale or translation: no table can be planned,
    so each axis is a dense (input x output) weight matrix computed in ``jax.numpy``, as
    ``jax.image`` computes it (differentiable in the scale and translation), but for the
    zeroed edge (jax-ml/jax#24106)."""
    dtype = _float_dtype(image.dtype)
    real = jnp.finfo(dtype).dtype
    scale = jnp.asarray(scale, real).reshape(-1)
    translation = jnp.asarray(translation, real).reshape(-1)
    if scale.shape[0] != len(dims) or translation.shape[0] != len(dims):
        raise ValueError(
            f"{fn}: scale and translation must have one entry per axis of spatial_dims "
            f"({len(dims)}); got shapes {scale.shape} and {translation.shape}."
        )
    edge = kind in _EDGE_METHODS and not antialias
    kernel = "cubic" if kind == "cubic-pytorch" else kind
    a = _kernels.A_TORCH if edge else _kernels.A_KEYS
    x = image.astype(dtype)
    for i, d in enumerate(dims):
        n_in, n_out = image.shape[d], out_shape[d]
        inv = 1.0 / scale[i]
        reach = int(np.ceil(_kernels.radius(kernel))) if edge and kernel != "area" else 0
        j = jnp.arange(-reach, n_in + reach, dtype=real)
        if kind == "area":
            lo = jnp.arange(n_out, dtype=real) * inv - translation[i] * inv
            hi = lo + inv
            w = jnp.maximum(
                0.0, jnp.minimum(hi[None], j[:, None] + 1) - jnp.maximum(lo[None], j[:, None])
            )
        else:
            sample = (jnp.arange(n_out, dtype=real) + 0.5) * inv - translation[i] * inv - 0.5
            support = jnp.maximum(inv, 1.0) if antialias else 1.0
            w = _kernels.evaluate(kernel, (j[:, None] - sample[None]) / support, a, xp=jnp)
        if reach:  # the edge's repeats fold onto the edge samples
            fold = np.zeros((n_in, n_in + 2 * reach))
            fold[
                np.clip(np.arange(-reach, n_in + reach), 0, n_in - 1), np.arange(n_in + 2 * reach)
            ] = 1
            w = jnp.asarray(fold, real) @ w
        total = jnp.sum(w, axis=0, keepdims=True)
        ok = jnp.abs(total) > 1000.0 * float(np.finfo(np.float32).eps)
        w = jnp.where(ok, w / jnp.where(ok, total, 1.0), 0.0).astype(dtype)
        x = jnp.moveaxis(
            jnp.tensordot(x, w, axes=((d,), (0,)), precision=lax.Precision.HIGHEST), -1, d
        )
    return x


# ----------------------------------------------------------------------------------
# Public functions
# ----------------------------------------------------------------------------------


def resize(
    image: ArrayLike,
    shape: Sequence[int],
    method: str | jax.image.ResizeMethod,
    antialias: bool = True,
    precision: Any = None,
    *,
    coordinate_transformation_mode: str = "half_pixel",
    nearest_mode: str | None = None,
    cubic_coeff_a: float | None = None,
    exclude_outside: bool | None = None,
    roi: Sequence[float] | None = None,
    extrapolation_value: float = 0.0,
    mode: str | Sequence[str] | None = None,
    scales: Sequence[float] | None = None,
) -> jax.Array:
    """Resizes ``image`` to ``shape``: ``jax.image.resize``'s values by default, every
    other framework's convention through ONNX Resize's options.

    Args:
        image: the array; every axis whose size changes (or whose coordinates do, under
            ``roi`` or ``scales``) is resampled, as ``jax.image.resize`` does.
        shape: the output's shape, one entry per axis of ``image``.
        method: ``"nearest"``, ``"linear"`` (``"bilinear"``, ``"trilinear"``,
            ``"triangle"``), ``"cubic"`` (``"bicubic"``, ``"tricubic"``: Keys' kernel,
            ``a = -0.5``), ``"cubic-pytorch"`` (``"bicubic-pytorch"``: ``a = -0.75`` and
            the edge repeated, as torch without antialiasing; with ``antialias``,
            ``"cubic"``, as JAX does), ``"lanczos3"``, ``"lanczos5"``, ``"area"``
            (TensorFlow's: each output the average of the input cells it overlaps,
            weighted by the overlap; ``antialias`` changes nothing), or a
            ``jax.image.ResizeMethod``; and other frameworks' kernels:
            ``"lanczos4"`` (OpenCV's ``INTER_LANCZOS4``, the edge repeated without
            antialiasing), ``"box"`` and ``"hamming"`` (Pillow's), ``"gaussian"`` and
            ``"mitchellcubic"`` (TensorFlow's).
        antialias: when downsampling, stretch the kernel by the factor (a low-pass
            filter); ``jax.image.resize``'s default. Nothing to ``"nearest"`` and
            ``"area"`` (as in JAX).
        precision: accepted for ``jax.image.resize``'s signature and checked; the passes
            multiply and add elementwise in the input's dtype, which no precision
            changes.
        coordinate_transformation_mode: ONNX's: how output index ``i`` maps to the input
            coordinate ``x`` (input sample ``j`` at ``x = j``); ``scale`` is
            ``shape / image.shape`` or ``scales``. ``"half_pixel"``
            (``(i + 0.5) / scale - 0.5``, JAX's, torch's without ``align_corners``),
            ``"half_pixel_symmetric"``, ``"pytorch_half_pixel"``, ``"align_corners"``
            (``i (n_in - 1) / (n_out - 1)``), ``"asymmetric"`` (``i / scale``, torch's
            and TF 1's nearest), ``"tf_half_pixel_for_nn"``, ``"tf_crop_and_resize"``
            (the box ``roi``; outputs outside the input are ``extrapolation_value``).
        nearest_mode: ONNX's rounding for ``"nearest"``: ``"round_prefer_floor"``,
            ``"round_prefer_ceil"``, ``"floor"``, ``"ceil"``; or OpenVINO's
            ``"simple"`` (``ceil`` on an axis that shrinks, else ``floor``). None: JAX's
            ``floor((i + 0.5) n_in / n_out)`` (in its float32 arithmetic) under the
            default coordinates, else ``"round_prefer_floor"`` (ONNX's default).
        cubic_coeff_a: the cubic kernel's ``a`` (``"cubic"``: -0.5 by default;
            ``"cubic-pytorch"``: -0.75 without antialiasing). ONNX's default is -0.75.
        exclude_outside: ONNX's: drop the taps beyond the edge and renormalize the rest.
            None: JAX's rule (on for every kernel but ``"cubic-pytorch"`` and
            ``"lanczos4"`` without antialiasing). False: the taps read through
            ``mode``. ONNX's default is False.
        roi: ``tf_crop_and_resize``'s box, ONNX's layout: the starts of every axis, then
            the ends, as fractions of ``n - 1``; None: the whole image.
        extrapolation_value: what ``tf_crop_and_resize`` gives outside the image, and
            what ``mode="constant"`` reads beyond the edge.
        mode: the taps beyond the edge, where ``exclude_outside`` is off: ``"edge"``
            (the default there: torch's and ONNX's clamped reads), ``"constant"``,
            ``"reflect"``, ``"symmetric"``, ``"wrap"`` (a periodic axis reads across
            its seam); one, or one per axis.
        scales: ONNX's ``scales`` input, one per axis: the coordinates' scale, where
            ``shape`` (then ``floor(scales * image.shape)`` in ONNX) does not give it
            exactly.

    Returns:
        The resized array, of ``shape``; a float dtype (``image``'s, or the default
        float for an integer ``image``) but for ``"nearest"``, which keeps the dtype.

    Raises:
        ValueError, TypeError: an unknown method or option, an option the method does
            not take, a ``shape``, ``roi``, ``scales`` or ``mode`` of the wrong length.

    Example:
        >>> import jax.numpy as jnp
        >>> import jaxpad
        >>> x = jnp.array([0.0, 1.0, 2.0, 3.0])
        >>> jaxpad.image.resize(x, (8,), "linear")
        Array([0.  , 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.  ], dtype=float32)
        >>> jaxpad.image.resize(x, (7,), "linear", coordinate_transformation_mode="align_corners")
        Array([0. , 0.5, 1. , 1.5, 2. , 2.5, 3. ], dtype=float32)
        >>> jaxpad.image.resize(x, (8,), "linear", mode="wrap")
        Array([0.75, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 2.25], dtype=float32)
    """
    fn = "jaxpad.image.resize"
    image = jnp.asarray(image)
    ndim = image.ndim
    out_shape = _shape(fn, shape, ndim)
    kind = _method(fn, method)
    antialias = _bool(fn, "antialias", antialias)
    _precision(fn, precision)
    ctm = _choice(
        fn,
        "coordinate_transformation_mode",
        coordinate_transformation_mode,
        COORDINATE_TRANSFORMATION_MODES,
    )
    if nearest_mode is not None:
        _choice(fn, "nearest_mode", nearest_mode, NEAREST_MODES)
        if kind != "nearest":
            raise ValueError(
                f"{fn}: nearest_mode is for method 'nearest'; got method {method!r} with "
                f"nearest_mode {nearest_mode!r}."
            )
    if cubic_coeff_a is not None:
        if kind not in ("cubic", "cubic-pytorch"):
            raise ValueError(
                f"{fn}: cubic_coeff_a is for the cubic methods; got method {method!r} with "
                f"cubic_coeff_a {cubic_coeff_a!r}."
            )
        a = float(cubic_coeff_a)
    else:
        a = _kernels.A_TORCH if kind == "cubic-pytorch" and not antialias else _kernels.A_KEYS
    if exclude_outside is not None:
        exclude_outside = _bool(fn, "exclude_outside", exclude_outside)
        if exclude_outside and kind == "nearest":
            raise ValueError(
                f"{fn}: exclude_outside is for the kernel methods (a nearest tap has no "
                f"others to renormalize over); got method {method!r} with exclude_outside=True."
            )
        if exclude_outside and mode is not None:
            raise ValueError(
                f"{fn}: mode reads the taps that exclude_outside drops; got "
                f"exclude_outside=True with mode {mode!r}."
            )
    if kind == "area" and ctm != "half_pixel":
        raise ValueError(
            f"{fn}: method 'area' takes the half-pixel coordinates only; got "
            f"coordinate_transformation_mode {ctm!r}."
        )
    roi_pairs: list[tuple[float, float] | None] = [None] * ndim
    if roi is not None:
        if ctm != "tf_crop_and_resize":
            raise ValueError(
                f"{fn}: roi is for coordinate_transformation_mode 'tf_crop_and_resize'; got "
                f"{ctm!r}."
            )
        r = _floats(fn, "roi", roi, 2 * ndim, f"2 * image.ndim = {2 * ndim} entries")
        roi_pairs = [(r[d], r[ndim + d]) for d in range(ndim)]
    elif ctm == "tf_crop_and_resize":
        roi_pairs = [(0.0, 1.0)] * ndim
    scale_list = None
    if scales is not None:
        scale_list = _floats(fn, "scales", scales, ndim, f"one entry per axis (image.ndim={ndim})")
        if not all(s > 0 and np.isfinite(s) for s in scale_list):
            raise ValueError(f"{fn}: scales must be positive and finite; got {scale_list}.")
    if mode is not None:
        modes = _modes(fn, mode, ndim)
    else:
        default_exclude = kind != "nearest" and not (kind in _EDGE_METHODS and not antialias)
        exclude = default_exclude if exclude_outside is None else exclude_outside
        modes = ("exclude" if exclude else "edge",) * ndim
    if not isinstance(extrapolation_value, (int, float, np.number)) or isinstance(
        extrapolation_value, bool
    ):
        raise TypeError(f"{fn}: extrapolation_value must be a number; got {extrapolation_value!r}.")
    if extrapolation_value != 0.0 and ctm != "tf_crop_and_resize" and "constant" not in modes:
        raise ValueError(
            f"{fn}: extrapolation_value is read by coordinate_transformation_mode "
            f"'tf_crop_and_resize' or mode 'constant' only; got {extrapolation_value!r} "
            f"with {ctm!r} and mode {mode!r}."
        )
    tables = {}
    for d in range(ndim):
        n_in, n_out = image.shape[d], out_shape[d]
        if n_out == 0:
            continue
        if n_in == 0:
            raise ValueError(
                f"{fn}: cannot resize an empty axis to a non-empty one; got image.shape "
                f"{image.shape} and shape {out_shape}."
            )
        given = scale_list is not None
        scale = scale_list[d] if scale_list is not None else n_out / n_in
        if not given and n_in == n_out and roi is None and ctm != "tf_crop_and_resize":
            continue  # as jax.image.resize: an axis that keeps its size is kept
        table = _axis_table(
            n_in,
            n_out,
            method=kind,
            antialias=antialias,
            ctm=ctm,
            nearest_mode=nearest_mode,
            a=a,
            boundary=modes[d],
            scale=scale,
            given=given,
            roi=roi_pairs[d],
        )
        if not table.is_identity(n_in):
            tables[d] = table
    dtype = image.dtype if kind == "nearest" else _float_dtype(image.dtype)
    onnx = onnx_node(
        image.shape,
        tables,
        kind,
        antialias=antialias,
        ctms=(ctm,),
        a=a,
        scales=None if scale_list is None else dict(enumerate(scale_list)),
        roi_pairs=roi_pairs,
        extrapolation_value=extrapolation_value,
        exclude="exclude" in modes,
    )
    return _run(image, tables, out_shape, dtype, extrapolation_value, onnx)


def scale_and_translate(
    image: ArrayLike,
    shape: Sequence[int],
    spatial_dims: Sequence[int],
    scale: ArrayLike,
    translation: ArrayLike,
    method: str | jax.image.ResizeMethod = "linear",
    antialias: bool = True,
    precision: Any = None,
    *,
    mode: str | Sequence[str] | None = None,
) -> jax.Array:
    """``jax.image.scale_and_translate``: the output at ``i`` samples the input at
    ``(i + 0.5 - translation) / scale - 0.5``, along each of ``spatial_dims``.

    Unlike JAX's, an output whose sample falls beyond the input's edge is not zeroed
    (jax-ml/jax#24106): it takes the taps within the input, renormalized (or, with
    ``mode``, the taps read through that boundary mode); only an output with no tap
    within the input is 0. ``scale`` and ``translation`` must be concrete.

    Args:
        image: the array.
        shape: the output's shape, one entry per axis of ``image``.
        spatial_dims: the axes that ``scale`` and ``translation`` apply to.
        scale: one positive scale per axis of ``spatial_dims``.
        translation: one translation per axis of ``spatial_dims``.
        method: as ``resize``'s, but ``"nearest"`` (which JAX lacks here too).
        antialias: as ``resize``'s.
        precision: as ``resize``'s (checked, changes nothing).
        mode: None: the taps beyond the edge dropped and the rest renormalized (JAX's;
            ``"cubic-pytorch"`` without antialiasing: the edge); else a boundary mode as
            ``resize``'s ``mode``, one or one per axis of ``image``.

    Returns:
        The resampled array, of ``shape``, in a float dtype.

    Example:
        >>> import jax.numpy as jnp
        >>> import jaxpad
        >>> x = jnp.array([0.0, 1.0, 2.0, 3.0])
        >>> jaxpad.image.scale_and_translate(x, (4,), (0,), jnp.array([1.0]), jnp.array([0.5]))
        Array([0. , 0.5, 1.5, 2.5], dtype=float32)
    """
    fn = "jaxpad.image.scale_and_translate"
    image = jnp.asarray(image)
    ndim = image.ndim
    out_shape = _shape(fn, shape, ndim)
    kind = _method(fn, method)
    if kind == "nearest":
        raise ValueError(
            f"{fn}: method 'nearest' is not supported here (as in jax.image); use "
            f"jaxpad.image.resize; got {method!r}."
        )
    antialias = _bool(fn, "antialias", antialias)
    _precision(fn, precision)
    try:
        dims = tuple(int(d) for d in spatial_dims)
    except TypeError:
        raise TypeError(
            f"{fn}: spatial_dims must be a sequence of ints; got {spatial_dims!r}."
        ) from None
    if any(not -ndim <= d < ndim for d in dims):
        raise ValueError(f"{fn}: spatial_dims must be axes of image (ndim={ndim}); got {dims}.")
    dims = tuple(d % ndim for d in dims)
    if len(set(dims)) != len(dims):
        raise ValueError(f"{fn}: spatial_dims must not repeat an axis; got {dims}.")
    what = f"one entry per axis of spatial_dims ({len(dims)})"
    for d in range(ndim):
        if d not in dims and image.shape[d] != out_shape[d]:
            raise ValueError(
                f"{fn}: an axis outside spatial_dims must keep its size; got image.shape "
                f"{image.shape} and shape {out_shape} (spatial_dims={dims})."
            )
    if isinstance(scale, jax.core.Tracer) or isinstance(translation, jax.core.Tracer):
        if mode is not None:
            traced = "scale" if isinstance(scale, jax.core.Tracer) else "translation"
            raise TypeError(
                f"{fn}: mode needs a concrete scale and translation (its taps are planned "
                f"before tracing); got a traced {traced}."
            )
        return _traced_scale_and_translate(
            fn, image, out_shape, dims, scale, translation, kind, antialias
        )
    scales = _floats(fn, "scale", scale, len(dims), what)
    shifts = _floats(fn, "translation", translation, len(dims), what)
    if not all(s > 0 and np.isfinite(s) for s in scales):
        raise ValueError(f"{fn}: scale must be positive and finite; got {scales}.")
    if not all(np.isfinite(t) for t in shifts):
        raise ValueError(f"{fn}: translation must be finite; got {shifts}.")
    if mode is not None:
        modes = _modes(fn, mode, ndim)
    else:
        edge = kind == "cubic-pytorch" and not antialias
        modes = ("edge" if edge else "exclude",) * ndim
    a = _kernels.A_TORCH if kind == "cubic-pytorch" and not antialias else _kernels.A_KEYS
    tables = {}
    for d, s, t in zip(dims, scales, shifts):
        n_in, n_out = image.shape[d], out_shape[d]
        if n_out == 0:
            continue
        if n_in == 0:
            raise ValueError(
                f"{fn}: cannot resample an empty axis to a non-empty one; got image.shape "
                f"{image.shape} and shape {out_shape}."
            )
        table = _axis_table(
            n_in,
            n_out,
            method=kind,
            antialias=antialias,
            ctm="half_pixel",
            nearest_mode=None,
            a=a,
            boundary=modes[d],
            scale=s,
            given=True,
            roi=None,
            translation=t,
        )
        if not table.is_identity(n_in):
            tables[d] = table
    return _run(image, tables, out_shape, _float_dtype(image.dtype), 0.0)
