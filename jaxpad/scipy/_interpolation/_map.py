"""``map_coordinates``: the spline of the prefiltered input read at arbitrary points.

Each coordinate is split into a whole part and a fraction before any offset is added
(``reduce_coordinate``), so a float32 coordinate loses nothing to the mode's
arithmetic: a periodic mode takes the coordinate's exact remainder by its period
(``lax.rem``, which cannot overflow: 1e30 in ``wrap`` is fine), a mirror reflects the
pair, ``nearest`` and ``grid-constant`` clamp where every tap already reads the
extension. The coefficients are padded once in the mode the taps read (wide enough
for every reduced coordinate), and ``jaxpad_spline_read`` (``_read``) reads each
point's ``(order + 1) ** ndim`` window, weighted by the B-spline: its input gradient
is one scatter-add of the weighted windows, and its coordinate gradient the spline's
derivative (the weights are polynomials in the fraction).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

import jaxpad
from jaxpad.scipy._interpolation import _args, _modes, _spline
from jaxpad.scipy._interpolation._once import computed_once
from jaxpad.scipy._interpolation._read import spline_read

_FN = _args.PREFIX + "map_coordinates"


def _split(r):
    """``(floor(r), r - floor(r))``, the first as int32 (``|r|`` is below the period)."""
    whole = jnp.floor(r)
    return whole.astype(jnp.int32), r - whole


def _reflect(base, frac, about2):
    """The pair ``(base, frac)`` reflected about ``about2 / 2``: ``about2 - base - frac``
    as a pair again (the fraction ``1 - frac``; 0 stays 0)."""
    zero = frac == 0
    return (
        jnp.where(zero, about2 - base, about2 - base - 1),
        jnp.where(zero, frac, 1.0 - frac),
    )


def reduce_coordinate(cc, n: int, rule: str, reach: int = 0):
    """The coordinate ``cc`` (finite) of an axis of ``n`` samples brought into the
    range the padded coefficients cover, as ``(base, frac)``: the point is
    ``base + frac`` with ``0 <= frac <= 1``, read at the same place as scipy's
    ``map_coordinate`` puts it (or, for a period, a whole period away). ``reach``:
    how far beyond the grid ``"clamp"`` keeps a coordinate."""
    if rule in ("mirror", "wrap") and n == 1:
        zeros = jnp.zeros(cc.shape, jnp.int32)
        return zeros, jnp.zeros_like(cc)
    if rule == "inside":  # constant: the caller replaces points outside by cval
        return _split(jnp.clip(cc, 0, n - 1))
    if rule == "clamp":  # beyond this every tap reads the extension's constant
        return _split(jnp.clip(cc, -reach, n - 1 + reach))
    if rule == "wrap":  # scipy's period n - 1 into [0, n - 1]
        size = n - 1
        up_base, up_frac = _split(lax.rem(jnp.abs(cc), jnp.asarray(size, cc.dtype)))
        # below 0: size - rem(-cc, size), in (0, size]
        down_base, down_frac = _reflect(up_base, up_frac, 0)
        down_base = down_base + size
        inside = (cc >= 0) & (cc <= size)
        in_base, in_frac = _split(jnp.clip(cc, 0, size))
        base = jnp.where(inside, in_base, jnp.where(cc > 0, up_base, down_base))
        frac = jnp.where(inside, in_frac, jnp.where(cc > 0, up_frac, down_frac))
        return base, frac
    period = {"mirror": 2 * n - 2, "reflect": 2 * n, "grid-wrap": n}[rule]
    base, frac = _split(lax.rem(cc, jnp.asarray(period, cc.dtype)))
    if rule == "grid-wrap":
        return jnp.where(base < 0, base + period, base), frac
    # scipy's branches, to the tie: which side a half point (order 0 and the even
    # orders round there) falls on depends on whether it was reflected
    negative = cc < 0
    if rule == "mirror":
        # >= 0: r = rem(cc, P), reflected about n - 1 from n on; < 0: r + P up to
        # 1 - n, else -r (reflected about 0)
        up = base >= n
        up_base, up_frac = _reflect(base, frac, period)
        shift = (base < 1 - n) | ((base == 1 - n) & (frac == 0))
        down_base, down_frac = _reflect(base, frac, 0)
    else:
        # >= 0: r = rem(cc, 2n), reflected about n - 1/2 from n on; < 0: r + 2n below
        # -n, else -r - 1 (reflected about -1/2)
        up = base >= n
        up_base, up_frac = _reflect(base, frac, 2 * n - 1)
        shift = base < -n
        down_base, down_frac = _reflect(base, frac, -1)
    pos_base = jnp.where(up, up_base, base)
    pos_frac = jnp.where(up, up_frac, frac)
    neg_base = jnp.where(shift, base + period, down_base)
    neg_frac = jnp.where(shift, frac, down_frac)
    return jnp.where(negative, neg_base, pos_base), jnp.where(negative, neg_frac, pos_frac)


def _margin(order: int, rule: str) -> int:
    """Coefficients needed a side beyond the (prepadded) grid for every window the
    reduced coordinates open."""
    return order + 1 + order // 2 + 2 if rule == "clamp" else order // 2 + 2


def _coefficients(x, order, spec, cval, prefilter, margin):
    """The coefficient array, prepadded as scipy does for nearest and grid-constant,
    and extended by ``margin`` a side in the taps' mode."""
    ndim = x.ndim
    axes = tuple(range(ndim))
    prepad = 0
    if order > 1 and prefilter and spec.prepad is not None:
        prepad = _modes.PREPAD
        value = cval if spec.prepad == "constant" else None
        x = jaxpad.pad(x, [prepad] * ndim, [prepad] * ndim, spec.prepad, value)
    if order > 1 and prefilter and spec.taps == spec.prefilter:
        # the prefilter's own extension is the taps': one pad gives both
        return _spline.prefilter_padded(x, order, axes, spec.prefilter, margin), prepad
    if order > 1 and prefilter:
        x = _spline.prefilter_padded(x, order, axes, spec.prefilter, 0)
    value = cval if spec.taps == "constant" else None
    return jaxpad.pad(x, [margin] * ndim, [margin] * ndim, spec.taps, value), prepad


def map_coordinates(
    input: ArrayLike,
    coordinates: ArrayLike,
    output: Any = None,
    order: int = 3,
    mode: str = "constant",
    cval: ArrayLike = 0.0,
    prefilter: bool = True,
) -> jax.Array:
    """The input's spline read at ``coordinates``, as ``scipy.ndimage.map_coordinates``.

    ``output[j...] = spline(coordinates[:, j...])``, the B-spline of ``order`` through
    ``input`` (prefiltered by ``spline_filter`` unless ``prefilter=False``), extended
    beyond the grid as scipy's ``mode`` says: ``"constant"`` gives ``cval`` at points
    outside ``[0, n - 1]`` on any axis (taps inside read the mirrored coefficients);
    ``"grid-constant"`` and ``"nearest"`` extend the input by ``cval`` / its edge;
    ``"mirror"`` (about the edge samples), ``"reflect"`` = ``"grid-mirror"`` (about the
    edges of the grid's cells) and ``"grid-wrap"`` (period ``n``) are periodic, and
    ``"wrap"`` repeats ``[0, n - 1]`` with period ``n - 1`` as scipy does. Coordinates
    far outside follow the mode's arithmetic exactly (no integer overflow). A ``nan``
    coordinate gives ``cval`` where scipy's code does (every mode but ``nearest`` and
    ``grid-constant``, where scipy's result is undefined: ``nan`` here); an infinite
    one gives ``cval`` in ``"constant"`` and ``nan`` elsewhere (scipy's is undefined).

    Differentiable with respect to ``input``, ``coordinates`` (the spline's derivative)
    and ``cval``; under ``jit`` and ``vmap``.

    Args:
      input: the array, of any numeric dtype; complex inputs interpolate their real
        and imaginary parts (and ``cval``'s).
      coordinates: a floating array of shape ``(input.ndim, ...)``: the points, one
        row per axis of ``input``.
      output: None (the input's dtype) or a dtype; integer outputs round half away
        from zero and saturate, as scipy's.
      order: the spline order, 0 to 5.
      mode: ``"constant"``, ``"grid-constant"``, ``"nearest"``, ``"mirror"``,
        ``"reflect"``, ``"grid-mirror"``, ``"wrap"`` or ``"grid-wrap"``.
      cval: the value outside the grid in the constant modes; may be traced.
      prefilter: whether ``input`` is prefiltered (orders above 1); ``False`` when it
        already holds spline coefficients.

    Returns:
      An array of shape ``coordinates.shape[1:]`` and the output dtype.

    Example:
      >>> import jax.numpy as jnp
      >>> from jaxpad.scipy.ndimage import map_coordinates
      >>> a = jnp.arange(12.0).reshape(4, 3)
      >>> map_coordinates(a, jnp.array([[0.5, 2.0], [0.5, 1.0]]), order=1)
      Array([2., 7.], dtype=float32)
      >>> map_coordinates(a, jnp.array([[0.5, 2.0], [0.5, 4.0]]), order=1, mode="nearest")
      Array([2., 8.], dtype=float32)
    """
    order = _spline.check_order(_FN, order)
    spec = _modes.check_mode(_FN, mode)
    if not isinstance(prefilter, (bool, np.bool_)):
        raise TypeError(f"{_FN}: prefilter must be a bool; got {prefilter!r}.")
    x = _args.as_input(_FN, input)
    try:
        if isinstance(coordinates, jax.core.Tracer):
            coords = jnp.asarray(coordinates)
        else:  # a constant stays one (``as_points``)
            with jax.ensure_compile_time_eval():
                coords = jnp.asarray(coordinates)
    except TypeError as error:
        raise TypeError(
            f"{_FN}: coordinates must be a floating array; got {_args.describe(coordinates)}."
        ) from error
    if not jnp.issubdtype(coords.dtype, jnp.floating):
        raise TypeError(
            f"{_FN}: coordinates must be a floating array (scipy's truncating integer "
            f"coordinates are not differentiable); got dtype {coords.dtype}."
        )
    if x.ndim < 1:
        raise ValueError(f"{_FN}: input must have at least one axis; got shape {x.shape}.")
    if coords.ndim < 2 or coords.shape[0] != x.ndim:
        raise ValueError(
            f"{_FN}: coordinates must have shape (input.ndim, ...) = ({x.ndim}, ...), one "
            f"row per axis of input and at least one point axis; got shape {coords.shape}."
        )
    complex_in = bool(jnp.issubdtype(x.dtype, jnp.complexfloating))
    out_dtype = _args.output_dtype(_FN, output, x.dtype, complex_in)
    dtype = _spline.compute_dtype(jnp.promote_types(x.dtype, coords.dtype))
    real = np.dtype(jnp.finfo(dtype).dtype)
    x = x.astype(dtype)
    cval = jnp.asarray(cval)
    if not complex_in and jnp.issubdtype(cval.dtype, jnp.complexfloating):
        cval = cval.real
    cval = cval.astype(dtype)
    out_shape = coords.shape[1:]
    coords = as_points(coords, real)
    value = _interpolate(x, coords, order, spec, cval, prefilter)
    return _args.cast_output(value.reshape(out_shape), out_dtype)


def as_points(coords, real):
    """``coords`` as ``(ndim, points)`` of the ``real`` dtype; concrete coordinates stay
    concrete (``_interpolate`` computes their taps before the program runs)."""
    if isinstance(coords, jax.core.Tracer):
        return coords.astype(real).reshape(coords.shape[0], -1)
    with jax.ensure_compile_time_eval():
        return jnp.asarray(coords).astype(real).reshape(coords.shape[0], -1)


def _interpolate(x, coords, order, spec, cval, prefilter):
    margin = _margin(order, spec.coordinate)
    coef, prepad = _coefficients(x, order, spec, cval, prefilter, margin)
    if isinstance(coords, jax.core.Tracer):
        taps = _taps(coords, x.shape, order, spec, prepad, margin)
    else:
        # Concrete coordinates (a transform by given parameters): their taps and
        # weights are computed now, constants of the program. Left to XLA, it folded
        # them while compiling: rotate at 1024x1024 compiled in 3.6 s (1.5 s folding
        # one reduction, with a slow-operation alarm in the log), 2.4 s so, its run
        # time unchanged.
        with jax.ensure_compile_time_eval():
            taps = _taps(jnp.asarray(coords), x.shape, order, spec, prepad, margin)
    starts, axis_weights, outside, nan_any, inf_any = taps
    value = spline_read(coef, starts, axis_weights)
    # non-finite coordinates (see the docstring): nan -> cval where scipy's comparisons
    # make it so, inf -> cval in constant, nan otherwise
    nan = jnp.asarray(jnp.nan, value.dtype)
    if spec.coordinate == "clamp":
        value = jnp.where(nan_any | inf_any, nan, value)
    elif spec.coordinate == "inside":
        value = jnp.where(outside | nan_any | inf_any, cval, value)
    else:
        value = jnp.where(nan_any, cval, jnp.where(inf_any, nan, value))
    return value


def _taps(coords, shape, order, spec, prepad, margin):
    """Each axis's first taps (in the padded coefficients) and weights at ``coords``,
    and the masks of the points outside (``"inside"`` modes), ``nan`` and infinite."""
    coords = computed_once(coords)
    finite = jnp.isfinite(coords)
    safe = jnp.where(finite, coords, 0.0)
    starts, axis_weights = [], []
    outside = None
    for axis, n in enumerate(shape):
        cc = safe[axis]
        base, frac = reduce_coordinate(cc, n, spec.coordinate, prepad + order + 1)
        if spec.coordinate == "inside":
            out_axis = (cc < 0) | (cc > n - 1)
            outside = out_axis if outside is None else outside | out_axis
        if order % 2 == 0:  # the base tap is the nearest sample (halves up)
            up = frac >= 0.5
            base = jnp.where(up, base + 1, base)
            frac = jnp.where(up, frac - 1.0, frac)
        starts.append(base - order // 2 + prepad + margin)
        axis_weights.append(_spline.weights(frac, order))
    nan_any = jnp.any(jnp.isnan(coords), axis=0)
    inf_any = jnp.any(jnp.isinf(coords), axis=0)
    return starts, axis_weights, outside, nan_any, inf_any
