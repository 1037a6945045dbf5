"""``shift``, ``zoom``, ``rotate``, ``affine_transform`` and ``geometric_transform``.

scipy runs ``shift``, ``zoom`` and a diagonal ``affine_transform`` through
``NI_ZoomShift`` and the others through ``NI_GeometricTransform``; both treat each
axis's coordinate alike (``_modes``): mapped into the grid by the mode, split into a
first tap and a fraction, the taps beyond the edge mapped by the spline's mode. A
coordinate that depends on its own axis's output index only (shift, zoom, a diagonal
matrix) makes the spline's tensor-product sum separable, so those run axis by axis:

- with the parameters concrete (``_static.py``), each axis's first taps, fractions and
  mapped tap indices are computed in NumPy in float64 exactly as scipy's C computes
  them, and a pass reads the coefficients through static slices, no gather built.
- with a traced shift or diagonal (``_traced_pass``), each axis reads its coefficients
  padded in the taps' mode with ``jnp.take`` of whole hyperplanes at the traced first
  taps (``_map.reduce_coordinate``), which differentiates in the parameters.

``rotate``, ``affine_transform`` with a full matrix and ``geometric_transform`` compute
every output point's coordinates and read them through ``map_coordinates``' gather.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

import jaxpad
from jaxpad import _checks
from jaxpad._sampling._pass import pass_order, static_pass
from jaxpad.scipy._interpolation import _args, _map, _modes, _spline
from jaxpad.scipy._interpolation._static import _static_plan

# ----------------------------------------------------------------------------------
# Arguments
# ----------------------------------------------------------------------------------


def _is_concrete(value: Any) -> bool:
    try:
        np.asarray(jax.core.concrete_or_error(None, value))
    except Exception:  # noqa: BLE001 - any tracer
        return False
    return True


def _concrete_float64(value: Any) -> np.ndarray | None:
    """``value`` as a float64 NumPy array if it is known at trace time, else None."""
    if isinstance(value, jax.core.Tracer):
        return None
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return None


def _per_axis(fn: str, name: str, value: Any, ndim: int):
    """scipy's ``_normalize_sequence``: a scalar for every axis or one value per axis,
    as a float64 NumPy array when concrete, else a traced array of shape ``(ndim,)``."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{fn}: {name} must be a number or a sequence of numbers; got {value!r}.")
    concrete = _concrete_float64(value)
    if concrete is None:
        arr = jnp.asarray(value)
        if jnp.issubdtype(arr.dtype, jnp.complexfloating) or arr.dtype == np.bool_:
            raise TypeError(f"{fn}: {name} must be real; got dtype {arr.dtype}.")
        if arr.ndim == 0:
            return jnp.broadcast_to(arr, (ndim,))
        if arr.shape != (ndim,):
            raise ValueError(
                f"{fn}: {name} must be a number or have one value per axis ({ndim}); got "
                f"shape {arr.shape}."
            )
        return arr
    if concrete.ndim == 0:
        return np.full(ndim, float(concrete))
    if concrete.shape != (ndim,):
        raise ValueError(
            f"{fn}: {name} must be a number or have one value per axis ({ndim}); got "
            f"{_args.describe(value) if hasattr(value, 'shape') else repr(value)}."
        )
    return concrete


def _check_prefilter(fn: str, prefilter: Any) -> bool:
    if not isinstance(prefilter, (bool, np.bool_)):
        raise TypeError(f"{fn}: prefilter must be a bool; got {prefilter!r}.")
    return bool(prefilter)


def _check_shape(fn: str, name: str, shape: Any) -> tuple[int, ...]:
    try:
        dims = tuple(shape)
    except TypeError as error:
        raise TypeError(f"{fn}: {name} must be a sequence of ints; got {shape!r}.") from error
    out = []
    for d in dims:
        if isinstance(d, (bool, np.bool_)) or not isinstance(d, (numbers.Integral,)):
            raise TypeError(f"{fn}: {name} must be a sequence of ints; got {shape!r}.")
        if int(d) < 1:
            raise ValueError(f"{fn}: {name} must have no empty or negative axis; got {shape!r}.")
        out.append(int(d))
    if not out:
        raise ValueError(f"{fn}: {name} must have at least one axis; got {shape!r}.")
    return tuple(out)


class _Setup:
    """The checked arguments every transform shares."""

    def __init__(self, fn, input, output, order, mode, cval, prefilter):
        self.fn = fn
        self.order = _spline.check_order(fn, order)
        self.mode = mode
        self.spec = _modes.check_mode(fn, mode)
        self.prefilter = _check_prefilter(fn, prefilter)
        x = _args.as_input(fn, input)
        if x.ndim < 1:
            raise ValueError(f"{fn}: input must have at least one axis; got shape {x.shape}.")
        self.complex_in = bool(jnp.issubdtype(x.dtype, jnp.complexfloating))
        self.out_dtype = _args.output_dtype(fn, output, x.dtype, self.complex_in)
        self.dtype = _spline.compute_dtype(x.dtype)
        self.real = np.dtype(jnp.finfo(self.dtype).dtype)
        self.x = x.astype(self.dtype)
        cval = jnp.asarray(cval)
        if jnp.issubdtype(cval.dtype, jnp.complexfloating) and not self.complex_in:
            cval = cval.real
        if cval.ndim != 0:
            raise ValueError(f"{fn}: cval must be a scalar; got shape {cval.shape}.")
        self.cval = cval.astype(self.dtype)

    def prepad(self) -> int:
        if self.order > 1 and self.prefilter and self.spec.prepad is not None:
            return _modes.PREPAD
        return 0

    def coefficients(self):
        """The prefiltered coefficients over the prepadded grid (scipy's ``filtered``)."""
        x = self.x
        npad = self.prepad()
        if npad:
            value = self.cval if self.spec.prepad == "constant" else None
            x = jaxpad.pad(x, [npad] * x.ndim, [npad] * x.ndim, self.spec.prepad, value)
        if self.order > 1 and self.prefilter:
            x = _spline.prefilter_padded(
                x, self.order, tuple(range(x.ndim)), self.spec.prefilter, 0
            )
        return x

    def finish(self, value):
        return _args.cast_output(value, self.out_dtype)


def _traced_pass(c, axis: int, cc, n: int, s: _Setup):
    """One axis read at the traced coordinates ``cc`` (``(n_out,)``, unpadded indices):
    the coefficients padded in the taps' mode, hyperplanes taken at the first taps
    found by ``map_coordinates``' reduction, weighted by the spline. Returns the pass
    and the masks ``(outside, nan, inf)`` along the axis."""
    order, spec = s.order, s.spec
    npad = s.prepad()
    margin = _map._margin(order, spec.coordinate)
    widths = [0] * c.ndim
    widths[axis] = margin
    value = s.cval if spec.taps == "constant" else None
    c = jaxpad.pad(c, widths, widths, spec.taps, value)
    finite = jnp.isfinite(cc)
    safe = jnp.where(finite, cc, 0.0)
    base, frac = _map.reduce_coordinate(safe, n, spec.coordinate, npad + order + 1)
    outside = None
    if spec.coordinate == "inside":
        outside = (safe < 0) | (safe > n - 1)
    if order % 2 == 0:
        up = frac >= 0.5
        base = jnp.where(up, base + 1, base)
        frac = jnp.where(up, frac - 1.0, frac)
    start = base - order // 2 + npad + margin
    ws = _spline.weights(frac, order)
    shape = [1] * c.ndim
    shape[axis] = cc.shape[0]
    out = None
    for j, wj in enumerate(ws):
        g = jnp.take(c, start + j, axis=axis, mode="clip")
        term = g * wj.reshape(shape).astype(s.real) if order else g
        out = term if out is None else out + term
    return out, (outside, jnp.isnan(cc), jnp.isinf(cc))


def _separable(s: _Setup, coords: list, out_shape: tuple[int, ...]):
    """The spline at the outer product of per-axis coordinates: ``coords[a]`` a float64
    NumPy vector (static plan) or a traced vector, one per axis, of ``out_shape[a]``."""
    # before any work on the input: traced coordinates are arithmetic in ``s.real``
    traced = [a for a, cc in enumerate(coords) if not isinstance(cc, np.ndarray)]
    _checks.check_sampled_axes(s.fn, "input", s.x.shape, traced, s.real)
    c = s.coefficients()
    n_pp = c.shape
    npad = s.prepad()
    ndim = c.ndim
    axes = pass_order(s.x.shape, out_shape, range(ndim))
    masks: list[tuple[int, Any, Any, Any]] = []
    static_outside: list[tuple[int, np.ndarray]] = []
    for axis in axes:
        cc = coords[axis]
        if isinstance(cc, np.ndarray):
            idx, w, outside = _static_plan(cc, n_pp[axis], s.order, s.mode, npad)
            c = static_pass(c, axis, idx, w, s.cval)
            if outside.any():
                static_outside.append((axis, outside))
        else:
            c, (outside, nan, inf) = _traced_pass(c, axis, cc, s.x.shape[axis], s)
            masks.append((axis, outside, nan, inf))
    value = c

    def outer(axis, m):
        shape = [1] * ndim
        shape[axis] = m.shape[0]
        return m.reshape(shape)

    if s.spec.coordinate == "inside":
        mask = None
        for axis, m in static_outside:
            mask = _or(mask, outer(axis, jnp.asarray(m)))
        for axis, outside, nan, inf in masks:
            mask = _or(mask, outer(axis, outside | nan | inf))
        if mask is not None:
            value = jnp.where(mask, s.cval, value)
        return value
    nan_any = inf_any = None
    for axis, _, nan, inf in masks:
        nan_any = _or(nan_any, outer(axis, nan))
        inf_any = _or(inf_any, outer(axis, inf))
    if nan_any is None:
        return value
    nan_value = jnp.asarray(jnp.nan, value.dtype)
    assert inf_any is not None
    if s.spec.coordinate == "clamp":
        return jnp.where(nan_any | inf_any, nan_value, value)
    return jnp.where(nan_any, s.cval, jnp.where(inf_any, nan_value, value))


def _or(a, b):
    return b if a is None else a | b


def _finite_concrete(value) -> bool:
    return isinstance(value, np.ndarray) and bool(np.all(np.isfinite(value)))


# ----------------------------------------------------------------------------------
# The public functions
# ----------------------------------------------------------------------------------


def shift(
    input: ArrayLike,
    shift: ArrayLike,
    output: Any = None,
    order: int = 3,
    mode: str = "constant",
    cval: ArrayLike = 0.0,
    prefilter: bool = True,
) -> jax.Array:
    """The input moved by ``shift`` along each axis, as ``scipy.ndimage.shift``.

    ``output[k] = spline(k - shift)``: the B-spline of ``order`` through ``input``,
    extended beyond the grid as ``mode`` says (see ``map_coordinates``). Separable: a
    concrete shift is one correlation of ``order + 1`` taps per axis on the
    prefiltered coefficients, read through static slices; a traced one (under
    ``jit`` or ``grad`` with respect to it) takes the coefficients' hyperplanes at
    its first taps. Differentiable in ``input``, ``shift`` and ``cval``.

    Args:
      input: the array, of any numeric dtype (complex: real and imaginary parts).
      shift: a number for every axis, or one per axis; may be traced.
      output: None (the input's dtype) or a dtype; integers round as scipy's.
      order: the spline order, 0 to 5.
      mode: one of scipy's interpolation modes (``map_coordinates``).
      cval: the value outside the grid in the constant modes; may be traced.
      prefilter: whether ``input`` is prefiltered (orders above 1).

    Returns:
      The shifted array, of the input's shape.

    Example:
      >>> import jax.numpy as jnp
      >>> from jaxpad.scipy.ndimage import shift
      >>> shift(jnp.arange(5.0), 1.5, order=1)
      Array([0. , 0. , 0.5, 1.5, 2.5], dtype=float32)
    """
    s = _Setup(_args.PREFIX + "shift", input, output, order, mode, cval, prefilter)
    shifts = _per_axis(s.fn, "shift", shift, s.x.ndim)
    _checks.check_sampled_axes(s.fn, "input", s.x.shape, range(s.x.ndim))
    coords = []
    for axis, n in enumerate(s.x.shape):
        if _finite_concrete(shifts):
            coords.append(np.arange(n, dtype=np.float64) - shifts[axis])
        else:
            coords.append(jnp.arange(n, dtype=s.real) - jnp.asarray(shifts[axis]).astype(s.real))
    return s.finish(_separable(s, coords, s.x.shape))


def _zoom_shape(fn: str, shape: tuple[int, ...], zoom: Any) -> tuple[tuple[int, ...], np.ndarray]:
    if isinstance(zoom, jax.core.Tracer):
        raise TypeError(
            f"{fn}: zoom must be concrete (it decides the output's shape); got a traced "
            f"array of shape {tuple(zoom.shape)} and dtype {zoom.dtype}."
        )
    factors = _per_axis(fn, "zoom", zoom, len(shape))
    if not isinstance(factors, np.ndarray):  # pragma: no cover - caught above
        raise TypeError(f"{fn}: zoom must be concrete; got {zoom!r}.")
    if not np.all(np.isfinite(factors)):
        raise ValueError(f"{fn}: zoom must be finite; got {zoom!r}.")
    out = tuple(int(round(n * z)) for n, z in zip(shape, factors))
    if any(d < 1 for d in out):
        raise ValueError(
            f"{fn}: zoom {zoom!r} makes an empty axis: input shape {shape} gives output "
            f"shape {out}."
        )
    return out, factors


def zoom(
    input: ArrayLike,
    zoom: Any,
    output: Any = None,
    order: int = 3,
    mode: str = "constant",
    cval: ArrayLike = 0.0,
    prefilter: bool = True,
    *,
    grid_mode: bool = False,
) -> jax.Array:
    """The input resampled to ``round(n * zoom)`` points per axis, as
    ``scipy.ndimage.zoom``.

    Output index ``k`` of an axis of ``n`` input and ``m`` output points reads the
    spline at ``k * (n - 1) / (m - 1)`` (the first and last samples' centres stay
    put), or with ``grid_mode=True`` at ``(k + 1/2) * n / m - 1/2`` (the grid's outer
    edges stay put; scipy warns to use ``grid-constant`` / ``grid-wrap`` rather than
    ``constant`` / ``wrap`` then, and so does this). As scipy, the factors decide the
    output's shape and then only the shapes decide the coordinates; a zoom of 1 on
    every axis with ``prefilter`` returns the input. Separable, axis by axis, from
    static slices of the prefiltered coefficients.

    Args:
      input: the array, of any numeric dtype (complex: real and imaginary parts).
      zoom: a number for every axis, or one per axis; concrete.
      output: None (the input's dtype) or a dtype; integers round as scipy's.
      order: the spline order, 0 to 5.
      mode: one of scipy's interpolation modes (``map_coordinates``).
      cval: the value outside the grid in the constant modes; may be traced.
      prefilter: whether ``input`` is prefiltered (orders above 1).
      grid_mode: whether the grid's edges, not its first and last samples, align.

    Returns:
      The zoomed array.

    Example:
      >>> import jax.numpy as jnp
      >>> from jaxpad.scipy.ndimage import zoom
      >>> zoom(jnp.array([0.0, 1.0, 2.0]), 5 / 3, order=1)
      Array([0. , 0.5, 1. , 1.5, 2. ], dtype=float32)
    """
    s = _Setup(_args.PREFIX + "zoom", input, output, order, mode, cval, prefilter)
    if not isinstance(grid_mode, (bool, np.bool_)):
        raise TypeError(f"{s.fn}: grid_mode must be a bool; got {grid_mode!r}.")
    out_shape, factors = _zoom_shape(s.fn, s.x.shape, zoom)
    if np.all(factors == 1) and s.prefilter:
        return s.finish(s.x)  # scipy's early exit (gh-20999)
    _checks.check_sampled_axes(s.fn, "input", s.x.shape, range(s.x.ndim))
    if grid_mode and mode in ("constant", "wrap"):
        import warnings

        suggest = {"constant": "grid-constant", "wrap": "grid-wrap"}[mode]
        warnings.warn(
            f"It is recommended to use mode = {suggest} instead of {mode} when grid_mode is True.",
            UserWarning,
            stacklevel=2,
        )
    coords = []
    for n, m in zip(s.x.shape, out_shape):
        num, div = (n, m) if grid_mode else (n - 1, m - 1)
        ratio = num / div if div != 0 else 1.0
        k = np.arange(m, dtype=np.float64)
        coords.append((k + 0.5) * ratio - 0.5 if grid_mode else k * ratio)
    return s.finish(_separable(s, coords, out_shape))


def _matrix(fn: str, matrix: Any, ndim: int, offset: Any, out_ndim: int | None):
    """scipy's reading of ``matrix`` and ``offset``: ``("diagonal", d, offset)`` or
    ``("full", m, offset)``, each concrete (float64 NumPy) or traced."""
    if isinstance(matrix, (str, bytes)) or matrix is None:
        raise TypeError(f"{fn}: matrix must be an array of numbers; got {matrix!r}.")
    concrete = _concrete_float64(matrix)
    m = concrete if concrete is not None else jnp.asarray(matrix)
    if concrete is None and (
        jnp.issubdtype(m.dtype, jnp.complexfloating) or not jnp.issubdtype(m.dtype, jnp.number)
    ):
        raise TypeError(f"{fn}: matrix must be real; got dtype {m.dtype}.")
    shape = tuple(m.shape)
    if len(shape) == 2 and shape[1] == ndim + 1 and shape[0] in (ndim, ndim + 1):
        if shape[0] == ndim + 1 and concrete is not None:
            expected = np.zeros(ndim + 1)
            expected[-1] = 1
            if not np.array_equal(concrete[ndim], expected):
                raise ValueError(
                    f"{fn}: matrix of shape {shape} is homogeneous and its bottom row must "
                    f"be {expected.tolist()}; got {concrete[ndim].tolist()}."
                )
        offset = m[:ndim, ndim]
        m = m[:ndim, :ndim]
        return "full", m, offset
    if len(shape) == 1 and shape == (ndim,):
        return "diagonal", m, _per_axis(fn, "offset", offset, ndim)
    if len(shape) == 2 and shape[0] == ndim and (out_ndim is None or shape[1] == out_ndim):
        return "full", m, _per_axis(fn, "offset", offset, ndim)
    raise ValueError(
        f"{fn}: matrix must have shape (ndim,), (ndim, ndim), (ndim, ndim + 1) or "
        f"(ndim + 1, ndim + 1) for an input of ndim = {ndim} axes"
        + (f" and an output of {out_ndim}" if out_ndim not in (None, ndim) else "")
        + f"; got shape {shape}."
    )


def _grid(shape: tuple[int, ...], dtype) -> jax.Array:
    """The output's indices, ``(len(shape), prod(shape))``, in ``dtype``."""
    axes = [lax.broadcasted_iota(dtype, shape, a).reshape(-1) for a in range(len(shape))]
    return jnp.stack(axes)


def _gather(s: _Setup, coords, out_shape):
    """``map_coordinates``' gather at ``coords`` (``(ndim, points)``, real dtype)."""
    _checks.check_sampled_axes(s.fn, "input", s.x.shape, range(s.x.ndim), s.real)
    points = _map.as_points(coords, s.real)
    value = _map._interpolate(s.x, points, s.order, s.spec, s.cval, s.prefilter)
    return value.reshape(out_shape)


def affine_transform(
    input: ArrayLike,
    matrix: ArrayLike,
    offset: ArrayLike = 0.0,
    output_shape: Sequence[int] | None = None,
    output: Any = None,
    order: int = 3,
    mode: str = "constant",
    cval: ArrayLike = 0.0,
    prefilter: bool = True,
) -> jax.Array:
    """The input read at ``matrix @ o + offset`` for each output index ``o``, as
    ``scipy.ndimage.affine_transform``.

    ``matrix`` maps output coordinates to input coordinates ("pull" resampling): of
    shape ``(ndim, ndim)`` (or ``(ndim, output ndim)``), ``(ndim,)`` (a diagonal,
    separable: axis by axis as ``zoom`` and ``shift``), ``(ndim, ndim + 1)`` or
    ``(ndim + 1, ndim + 1)`` (homogeneous: its last column is the offset and
    ``offset`` is not read; the bottom row must be ``[0, ..., 0, 1]``, checked when
    the matrix is concrete). A full matrix reads each output point through
    ``map_coordinates``' gather, at scipy's float64 coordinates rounded to the
    spline's dtype (computed in that dtype when the matrix or offset is traced): with
    float32, points past about 1000 differ from scipy's by float32's rounding of the
    coordinate, below 1e-4 of a sample.
    ``matrix``, ``offset`` and ``cval`` may be traced and are differentiated.

    Args:
      input: the array, of any numeric dtype (complex: real and imaginary parts).
      matrix: the output-to-input matrix (above).
      offset: a number for every axis, or one per axis.
      output_shape: the output's shape (static); default the input's.
      output: None (the input's dtype) or a dtype; integers round as scipy's.
      order: the spline order, 0 to 5.
      mode: one of scipy's interpolation modes (``map_coordinates``).
      cval: the value outside the grid in the constant modes.
      prefilter: whether ``input`` is prefiltered (orders above 1).

    Returns:
      The transformed array, of ``output_shape``.

    Example:
      >>> import jax.numpy as jnp
      >>> from jaxpad.scipy.ndimage import affine_transform
      >>> a = jnp.arange(9.0).reshape(3, 3)
      >>> affine_transform(a, jnp.array([[0.0, 1.0], [1.0, 0.0]]), order=1)
      Array([[0., 3., 6.],
             [1., 4., 7.],
             [2., 5., 8.]], dtype=float32)
    """
    s = _Setup(_args.PREFIX + "affine_transform", input, output, order, mode, cval, prefilter)
    ndim = s.x.ndim
    out_shape = (
        s.x.shape if output_shape is None else _check_shape(s.fn, "output_shape", output_shape)
    )
    kind, m, off = _matrix(s.fn, matrix, ndim, offset, len(out_shape))
    zoom_shift = kind == "diagonal"
    if kind == "diagonal" and len(out_shape) != ndim:
        raise ValueError(
            f"{s.fn}: a diagonal matrix (shape ({ndim},)) needs output_shape of {ndim} axes; "
            f"got {tuple(out_shape)}."
        )
    if (
        kind == "full"
        and isinstance(m, np.ndarray)
        and m.shape[0] == m.shape[1] == len(out_shape)
        and np.count_nonzero(m - np.diag(np.diag(m))) == 0
    ):
        kind, m = "diagonal", np.diag(m).copy()
        if isinstance(off, np.ndarray):
            off = off.copy()
    if kind == "diagonal":
        return s.finish(_diagonal(s, m, off, out_shape, zoom_shift))
    _checks.check_sampled_axes(s.fn, "input", s.x.shape, range(ndim), s.real)
    coords = _affine_coordinates(m, off, out_shape, s.real)
    return s.finish(_gather(s, coords, out_shape))


def _affine_coordinates(m, off, out_shape, dtype):
    """``m @ o + off`` for every output index ``o``, summed in scipy's order (the
    offset, then one column at a time), so that a point scipy puts exactly on an edge
    lands there too.

    A concrete ``m`` and ``off`` give the coordinates in NumPy float64 (scipy's own
    arithmetic, rounded once to ``dtype``), a constant of the program: computed in the
    program from ``iota``, XLA:CPU fuses each multiply-add into an FMA in some of the
    fusions that read a coordinate and not in others, so that under ``jit`` a point on
    an edge or a knot fell on the other side of it than scipy's (float64) and, worse,
    the tap's index and its weight were computed from different roundings of one
    coordinate (float32: a whole sample off in ``nearest`` and ``grid-constant``)."""
    if isinstance(m, np.ndarray) and isinstance(off, np.ndarray):
        o = np.indices(out_shape, dtype=np.float64).reshape(len(out_shape), -1)
        c = np.broadcast_to(off.astype(np.float64)[:, None], (m.shape[0], o.shape[1]))
        for col in range(m.shape[1]):
            c = c + m[:, col : col + 1] * o[col]
        return c.astype(dtype)  # NumPy: read by _map.as_points as a constant
    grid = _grid(out_shape, dtype)
    m = jnp.asarray(m).astype(dtype)
    coords = jnp.broadcast_to(jnp.asarray(off).astype(dtype)[:, None], (m.shape[0], grid.shape[1]))
    for col in range(m.shape[1]):
        coords = coords + m[:, col : col + 1] * grid[col]
    return coords


def _diagonal(s: _Setup, d, off, out_shape, zoom_shift: bool):
    _checks.check_sampled_axes(s.fn, "input", s.x.shape, range(s.x.ndim))
    coords = []
    for axis, n_out in enumerate(out_shape):
        if _finite_concrete(d) and _finite_concrete(off) and d[axis] != 0:
            k = np.arange(n_out, dtype=np.float64)
            if zoom_shift:  # scipy's NI_ZoomShift arithmetic for a (ndim,) matrix
                coords.append((k + off[axis] / d[axis]) * d[axis])
            else:  # NI_GeometricTransform's for a diagonal (ndim, ndim) one
                coords.append(off[axis] + k * d[axis])
        else:
            kj = jnp.arange(n_out, dtype=s.real)
            da = jnp.asarray(d[axis]).astype(s.real)
            oa = jnp.asarray(off[axis]).astype(s.real)
            coords.append(kj * da + oa)
    return _separable(s, coords, out_shape)


def _cosdg_sindg(angle: float) -> tuple[float, float]:
    """``cos`` and ``sin`` of ``angle`` degrees, exact at multiples of 90 (as scipy's
    ``special.cosdg`` / ``sindg``)."""
    quarter = angle / 90.0
    if float(quarter).is_integer():
        k = int(quarter) % 4
        return (1.0, 0.0, -1.0, 0.0)[k], (0.0, 1.0, 0.0, -1.0)[k]
    rad = math.radians(angle)
    return math.cos(rad), math.sin(rad)


def rotate(
    input: ArrayLike,
    angle: ArrayLike,
    axes: Sequence[int] = (1, 0),
    reshape: bool = True,
    output: Any = None,
    order: int = 3,
    mode: str = "constant",
    cval: ArrayLike = 0.0,
    prefilter: bool = True,
) -> jax.Array:
    """The input rotated by ``angle`` degrees in the plane of ``axes``, as
    ``scipy.ndimage.rotate``.

    About the centre of the plane, through ``affine_transform``'s gather; an input of
    more than two axes is rotated plane by plane (prefiltered along the plane's axes
    only, as scipy's). ``reshape=True`` enlarges the plane to hold the whole rotated
    input, so then ``angle`` must be concrete; with ``reshape=False`` it may be
    traced and differentiated.

    Args:
      input: the array, of at least two axes (complex: real and imaginary parts).
      angle: the rotation in degrees.
      axes: the two axes of the plane of rotation.
      reshape: whether the output's plane grows to hold the whole rotated input.
      output: None (the input's dtype) or a dtype; integers round as scipy's.
      order: the spline order, 0 to 5.
      mode: one of scipy's interpolation modes (``map_coordinates``).
      cval: the value outside the grid in the constant modes.
      prefilter: whether ``input`` is prefiltered (orders above 1).

    Returns:
      The rotated array.

    Example:
      >>> import jax.numpy as jnp
      >>> from jaxpad.scipy.ndimage import rotate
      >>> rotate(jnp.arange(6.0).reshape(2, 3), 90, order=1)
      Array([[2., 5.],
             [1., 4.],
             [0., 3.]], dtype=float32)
    """
    fn = _args.PREFIX + "rotate"
    s = _Setup(fn, input, output, order, mode, cval, prefilter)
    ndim = s.x.ndim
    if ndim < 2:
        raise ValueError(f"{fn}: input must have at least two axes; got shape {s.x.shape}.")
    try:
        plane = list(axes)
    except TypeError as error:
        raise TypeError(f"{fn}: axes must be a pair of ints; got {axes!r}.") from error
    if len(plane) != 2 or not all(
        isinstance(a, numbers.Integral) and not isinstance(a, (bool, np.bool_)) for a in plane
    ):
        raise ValueError(f"{fn}: axes must be a pair of ints; got {axes!r}.")
    plane = [int(a) + ndim if int(a) < 0 else int(a) for a in plane]
    if not all(0 <= a < ndim for a in plane) or plane[0] == plane[1]:
        raise ValueError(
            f"{fn}: axes must name two different axes of an input of {ndim} axes; got {axes!r}."
        )
    if not isinstance(reshape, (bool, np.bool_)):
        raise TypeError(f"{fn}: reshape must be a bool; got {reshape!r}.")
    plane.sort()
    _checks.check_sampled_axes(fn, "input", s.x.shape, plane, s.real)
    concrete = _concrete_float64(angle)
    if concrete is not None and concrete.ndim != 0:
        raise ValueError(f"{fn}: angle must be a scalar; got {angle!r}.")
    in_plane = np.array([s.x.shape[a] for a in plane])
    if concrete is not None:
        c, sn = _cosdg_sindg(float(concrete))
        rot = np.array([[c, sn], [-sn, c]])
        if reshape:
            iy, ix = in_plane
            bounds = rot @ np.array([[0, 0, iy, iy], [0, ix, 0, ix]])
            out_plane = (np.ptp(bounds, axis=1) + 0.5).astype(int)
        else:
            out_plane = in_plane
        offset = (in_plane - 1) / 2 - rot @ ((out_plane - 1) / 2)
        rot_j: Any = rot
        off_j = offset
    else:
        if reshape:
            raise TypeError(
                f"{fn}: angle must be concrete with reshape=True (it decides the output's "
                f"shape); got a traced array of shape {tuple(jnp.shape(angle))} and dtype "
                f"{jnp.asarray(angle).dtype}. Pass reshape=False."
            )
        a = jnp.deg2rad(jnp.asarray(angle).astype(s.real))
        cj, sj = jnp.cos(a), jnp.sin(a)
        rot_j = jnp.stack([jnp.stack([cj, sj]), jnp.stack([-sj, cj])])
        out_plane = in_plane
        off_j = (in_plane - 1) / 2 - rot_j @ ((out_plane - 1) / 2).astype(s.real)
    out_plane_t = tuple(int(d) for d in out_plane)
    if any(d < 1 for d in out_plane_t):
        raise ValueError(f"{fn}: the rotated plane is empty: shape {out_plane_t}.")

    def one_plane(x2):
        sub = _Setup.__new__(_Setup)
        sub.__dict__.update(s.__dict__)
        sub.x = x2
        if isinstance(rot_j, np.ndarray) and np.count_nonzero(rot_j - np.diag(np.diag(rot_j))) == 0:
            return _diagonal(sub, np.diag(rot_j).copy(), np.asarray(off_j), out_plane_t, False)
        coords = _affine_coordinates(rot_j, off_j, out_plane_t, s.real)
        return _gather(sub, coords, out_plane_t)

    rest = [a for a in range(ndim) if a not in plane]
    x = jnp.moveaxis(s.x, plane, [ndim - 2, ndim - 1])
    batch = x.shape[:-2]
    x = x.reshape((-1,) + x.shape[-2:])
    y = jax.vmap(one_plane)(x) if x.shape[0] != 1 else one_plane(x[0])[None]
    y = y.reshape(batch + out_plane_t)
    y = jnp.moveaxis(y, [ndim - 2, ndim - 1], plane)
    del rest
    return s.finish(y)


def geometric_transform(
    input: ArrayLike,
    mapping: Callable[..., Any],
    output_shape: Sequence[int] | None = None,
    output: Any = None,
    order: int = 3,
    mode: str = "constant",
    cval: ArrayLike = 0.0,
    prefilter: bool = True,
    extra_arguments: Sequence[Any] = (),
    extra_keywords: dict[str, Any] | None = None,
) -> jax.Array:
    """The input read at ``mapping(o)`` for each output index ``o``, as
    ``scipy.ndimage.geometric_transform``.

    ``mapping(o, *extra_arguments, **extra_keywords)`` takes a tuple of the output
    point's indices (int32 scalars) and returns a sequence of ``input.ndim``
    coordinates, as scipy's; here it is a JAX function, called once under ``vmap``
    over every output point, so it must use ``jax.numpy`` (no Python branching on the
    indices) and may close over traced, differentiable parameters. The points are read
    through ``map_coordinates``' gather.

    Args:
      input: the array, of any numeric dtype (complex: real and imaginary parts).
      mapping: the output-to-input coordinate map (above).
      output_shape: the output's shape (static); default the input's.
      output: None (the input's dtype) or a dtype; integers round as scipy's.
      order: the spline order, 0 to 5.
      mode: one of scipy's interpolation modes (``map_coordinates``).
      cval: the value outside the grid in the constant modes.
      prefilter: whether ``input`` is prefiltered (orders above 1).
      extra_arguments: more positional arguments for ``mapping``.
      extra_keywords: keyword arguments for ``mapping``.

    Returns:
      The transformed array, of ``output_shape``.

    Example:
      >>> import jax.numpy as jnp
      >>> from jaxpad.scipy.ndimage import geometric_transform
      >>> geometric_transform(jnp.arange(5.0), lambda o: (o[0] - 3,), mode="nearest", order=1)
      Array([0., 0., 0., 0., 1.], dtype=float32)
    """
    fn = _args.PREFIX + "geometric_transform"
    s = _Setup(fn, input, output, order, mode, cval, prefilter)
    if not callable(mapping):
        raise TypeError(f"{fn}: mapping must be a callable; got {mapping!r}.")
    out_shape = (
        s.x.shape if output_shape is None else _check_shape(fn, "output_shape", output_shape)
    )
    _checks.check_sampled_axes(fn, "input", s.x.shape, range(s.x.ndim), s.real)
    kwargs = dict(extra_keywords or {})
    grid = np.indices(out_shape, dtype=np.int32).reshape(len(out_shape), -1)

    def point(o):
        result = mapping(tuple(o[i] for i in range(len(out_shape))), *extra_arguments, **kwargs)
        try:
            values = [jnp.asarray(v) for v in result]
        except TypeError as error:
            raise TypeError(
                f"{fn}: mapping must return a sequence of {s.x.ndim} coordinates; got {result!r}."
            ) from error
        if len(values) != s.x.ndim or any(v.shape != () for v in values):
            raise ValueError(
                f"{fn}: mapping must return {s.x.ndim} scalar coordinates (one per axis of "
                f"input) for each output point; got {len(values)} of shapes "
                f"{[v.shape for v in values]}."
            )
        return jnp.stack([v.astype(s.real) for v in values])

    # Eager where the mapping allows (what it computes from the indices alone, op by
    # op as scipy calls it): staged into the program, XLA:CPU fuses its multiply-adds
    # into FMAs, and a point scipy puts on an edge or a rounding tie moved off it.
    # Whatever depends on traced values the mapping closes over is staged as usual.
    with jax.ensure_compile_time_eval():
        coords = jax.vmap(point, in_axes=1, out_axes=1)(grid)
    return s.finish(_gather(s, coords, out_shape))
