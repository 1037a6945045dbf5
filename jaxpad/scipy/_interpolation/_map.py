"""``map_coordinates``: the spline of the prefiltered input read at arbitrary points.

Each coordinate is split into a whole part and a fraction before any offset is added
(``reduce_coordinate``), so a float32 coordinate loses nothing to the mode's
arithmetic: a periodic mode takes the coordinate's exact remainder by its period
(as int32 arithmetic on the whole part where the coordinates' guard, ``_once``, has
brought far coordinates within a period, else ``lax.rem``: 1e30 in ``wrap`` is
fine), a mirror reflects the pair, ``nearest`` and ``grid-constant`` clamp where
every tap already reads the extension. Orders 2-5 pad the coefficients once in the
mode the taps read (wide enough for every reduced coordinate), and
``jaxpad_spline_read`` (``_read``) reads each point's ``(order + 1) ** ndim`` window,
weighted by the B-spline: its input gradient scatters rows of weighted taps, and its
coordinate gradient is the spline's derivative (the weights are polynomials in the
fraction). Orders 0 and 1 read the input itself through each tap's index map, as
``jax.scipy.ndimage`` does (``_read_nearest``, ``_read_linear``); order 1's
derivatives are the padded read's.
"""

from __future__ import annotations

import functools
import itertools
import operator
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

import jaxpad
from jaxpad import _checks, _index_maps
from jaxpad._once import computed_once
from jaxpad.scipy._interpolation import _args, _modes, _spline
from jaxpad.scipy._interpolation._read import spline_read

_FN = _args.PREFIX + "map_coordinates"


def _split(r):
    """``(floor(r), r - floor(r))``, the first as int32 (``|r|`` is below the period)."""
    whole = jnp.floor(r)
    return whole.astype(jnp.int32), r - whole


def _split_rem(cc, period: int, small: bool):
    """``_split(lax.rem(cc, period))``: the remainder's whole part and fraction. With
    ``small`` (every ``|cc|`` below ``_once.SMALL``), from the whole part's integer
    floor-mod, which XLA:CPU vectorizes; else through ``lax.rem``, exact at any
    magnitude, which XLA:CPU calls ``fmodf`` for element by element (2.2 of 3.2 ms at
    a million 2-D points)."""
    if not small:
        return _split(lax.rem(cc, jnp.asarray(period, cc.dtype)))
    whole, frac = _split(cc)
    phase = jnp.remainder(whole, period)  # in [0, period)
    # rem's sign is cc's: a negative cc's remainder is in (-period, 0]
    negative = (cc < 0) & ((phase != 0) | (frac != 0))
    return jnp.where(negative, phase - period, phase), frac


def _reflect(base, frac, about2):
    """The pair ``(base, frac)`` reflected about ``about2 / 2``: ``about2 - base - frac``
    as a pair again (the fraction ``1 - frac``; 0 stays 0)."""
    zero = frac == 0
    return (
        jnp.where(zero, about2 - base, about2 - base - 1),
        jnp.where(zero, frac, 1.0 - frac),
    )


def reduce_coordinate(cc, n: int, rule: str, reach: int = 0, small: bool = False):
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
    if rule == "wrap" and small:  # as below, in integers
        whole, frac = _split(cc)
        phase = jnp.remainder(whole, n - 1)
        inside = (cc >= 0) & (cc <= n - 1)
        # a negative multiple of the period lands on n - 1, as the reflection below
        top = (cc < 0) & (phase == 0) & (frac == 0)
        return jnp.where(inside, whole, jnp.where(top, n - 1, phase)), frac
    if rule == "wrap":  # scipy's period n - 1 into [0, n - 1]
        size = n - 1
        up_base, up_frac = _split_rem(jnp.abs(cc), size, small)
        # below 0: size - rem(-cc, size), in (0, size]
        down_base, down_frac = _reflect(up_base, up_frac, 0)
        down_base = down_base + size
        inside = (cc >= 0) & (cc <= size)
        in_base, in_frac = _split(jnp.clip(cc, 0, size))
        base = jnp.where(inside, in_base, jnp.where(cc > 0, up_base, down_base))
        frac = jnp.where(inside, in_frac, jnp.where(cc > 0, up_frac, down_frac))
        return base, frac
    period = {"mirror": 2 * n - 2, "reflect": 2 * n, "grid-wrap": n}[rule]
    base, frac = _split_rem(cc, period, small)
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
    _checks.check_sampled_axes(_FN, "input", x.shape, range(x.ndim), real)
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
    if isinstance(coords, jax.core.Tracer):
        return _read_points(x, coords, order, spec, cval, prefilter)
    # Concrete coordinates (a transform by given parameters): their taps and weights
    # are computed now, constants of the program. Left to XLA, it folded them while
    # compiling: rotate at 1024x1024 compiled in 3.6 s (1.5 s folding one reduction,
    # with a slow-operation alarm in the log), 2.4 s so, its run time unchanged.
    with jax.ensure_compile_time_eval():
        points = _points(jnp.asarray(coords), x.shape, order, spec, prefilter)
    return _read_points(x, points, order, spec, cval, prefilter)


def _read_points(x, coords, order, spec, cval, prefilter):
    # Traced coordinates come as they are, concrete ones as their ``_Points``; the
    # read is chosen by that, not by whether the bases are tracers (eager ``jvp``
    # leaves int32 bases concrete, whose tangent is zero)
    traced = not isinstance(coords, _Points)
    points = _points(coords, x.shape, order, spec, prefilter) if traced else coords
    if order == 0:
        value = _read_nearest(x, points, spec, cval)
    # Concrete coordinates (a transform's) keep the padded read at order 1: the
    # direct read's index arrays, one per tap, are constants of the program there,
    # and rotate at 1024x1024 took 3.7 against 2.1 ms.
    elif order == 1 and traced:
        spans = tuple(points.spans)
        value = _read_linear(spec, spans, x, cval, tuple(points.bases), tuple(points.weights))
    else:
        # Traced coordinates hand the read their fractions, whose weights it computes
        # where it reads them: the input VJP then scatters in chunks with the weights
        # computed in cache (``_read``); given as weights, XLA:CPU wrote them out for
        # it, recomputing each point's reduction once a tap (a million 2-D points,
        # order 3, both over chunks of 16384 points: 34-37 against 25-26 ms).
        fracs = points.fracs if traced else None
        value = _read_padded(
            x, cval, points.bases, points.weights, order, spec, prefilter, fracs=fracs
        )
    return masked(value, points, spec, cval)


def masked(value, points, spec, cval):
    """``value`` with the points outside (``"inside"`` modes) and the non-finite
    coordinates' replaced (see the docstring): nan -> cval where scipy's comparisons
    make it so, inf -> cval in constant, nan otherwise."""
    nan = jnp.asarray(jnp.nan, value.dtype)
    if spec.coordinate == "clamp":
        value = jnp.where(points.nan | points.inf, nan, value)
    elif spec.coordinate == "inside":
        value = jnp.where(points.outside | points.nan | points.inf, cval, value)
    else:
        value = jnp.where(points.nan, cval, jnp.where(points.inf, nan, value))
    return value


def _read_padded(x, cval, bases, weights, order, spec, prefilter, fracs=None):
    """The input (prefiltered) padded in the taps' mode, each point's window read
    from it (``jaxpad_spline_read``), weighted by ``weights`` or by the spline at
    ``fracs``."""
    margin = _margin(order, spec.coordinate)
    coef, prepad = _coefficients(x, order, spec, cval, prefilter, margin)
    if order > 1:
        # Left to XLA, the last axis's prefilter pass was fused into the read at
        # order 2, each of its 9 taps recomputing the pass (a million 2-D points,
        # mirror, two interleaved runs: 27 against 5.5 ms; order 3 9.9 against 6.6,
        # order 5 16-18 against 13; rotate at order 2 28 against 4-6 ms). Measured
        # on XLA:CPU only: elsewhere the coefficients are read as they come.
        coef = computed_once(coef, off_cpu=False)
    starts = [base - order // 2 + prepad + margin for base in bases]
    if fracs is not None:
        return spline_read(coef, starts, fracs=fracs, order=order)
    return spline_read(coef, starts, weights)


@functools.partial(jax.custom_jvp, nondiff_argnums=(0, 1))
def _read_linear(spec, spans, x, cval, bases, weights):
    """Order 1: each point's taps read from ``x`` through the taps' index map, as
    ``jax.scipy.ndimage.map_coordinates`` reads; its derivatives are the padded
    read's (``_read_padded``, unreduced bases folded into its range first:
    ``_folded``), whose transpose in ``x`` scatters rows of taps. At a
    million 2-D points (``benchmarks/interpolation.py``'s warp, one interleaved run):
    the forward 1.2-1.5 ms against the padded read's 1.6-2.3 (its pad is a pass of
    its own) in nearest and constant; the input VJP through JAX's transpose of the
    gathers (a scatter of single elements per tap) 21-25 ms against 16-19."""
    return _gathered(x, cval, bases, weights, spec, spans)


@_read_linear.defjvp
def _read_linear_jvp(spec, spans, primals, tangents):
    x, cval, bases, weights = primals
    t_x, t_cval, _, t_weights = tangents
    value = _read_linear(spec, spans, *primals)
    # A nan coordinate's weights are nan (``_points`` keeps it, ``masked`` replaces
    # its value): zero here, so that the transposes carry no ``0 * nan`` into the
    # other points' derivatives. Unreduced bases (``span`` None: the periodic modes'
    # direct read) folded into the padded read's range, a reflected one with its two
    # taps swapped; the others clamped to their span (a nan coordinate's whole part
    # is 0 on XLA:CPU; the clamp keeps the gathers in bounds whatever a platform
    # makes of it).
    bases, t_weights = list(bases), list(t_weights)
    weights = [[jnp.where(jnp.isnan(w), 0, w) for w in axis_weights] for axis_weights in weights]
    for axis, (n, span) in enumerate(zip(x.shape, spans)):
        if span is not None:
            bases[axis] = jnp.clip(bases[axis], *span)
        else:
            bases[axis], swap = _folded(bases[axis], n, spec.taps)
            for w in (weights, t_weights):
                w0, w1 = w[axis]
                w[axis] = [jnp.where(swap, w1, w0), jnp.where(swap, w0, w1)]
    _, tangent = jax.jvp(
        lambda x, cval, weights: _read_padded(x, cval, bases, weights, 1, spec, False),
        (x, cval, weights),
        (t_x, t_cval, t_weights),
    )
    return value, tangent


def _folded(base, n: int, taps: str):
    """The first tap ``base`` of a pair ``base, base + 1`` on the periodic extension
    ``taps`` of an axis of ``n``, as the first tap of the same two samples within a
    sample of the grid, and whether their order is reversed there."""
    if n == 1:
        return jnp.zeros_like(base), jnp.zeros(base.shape, bool)
    p = _index_maps.period(taps, n)
    phase = jnp.remainder(base, p)
    if taps == "wrap":
        return phase, jnp.zeros(base.shape, bool)
    # reflect: [m, m + 1] from m = n - 1 on is [p - m - 1, p - m] reversed;
    # symmetric: from m = n on, [p - m - 2, p - m - 1] reversed
    start = n - 1 if taps == "reflect" else n
    swap = phase >= start
    return jnp.where(swap, p - phase - (1 if taps == "reflect" else 2), phase), swap


def _gathered(x, cval, bases, weights, spec, spans):
    per_axis = []
    for n, base, axis_weights, span in zip(x.shape, bases, weights, spans):
        taps = []
        for k, weight in enumerate(axis_weights):
            position = base + k
            if spec.taps == "constant":
                valid = (position >= 0) & (position < n)
                taps.append((jnp.clip(position, 0, n - 1), valid, weight))
            else:
                tap_span = span and (span[0] + k, span[1] + k)
                taps.append((_tap_index(spec.taps, n, position, tap_span), None, weight))
        per_axis.append(taps)
    axes = tuple(range(x.ndim))
    numbers = lax.GatherDimensionNumbers(
        offset_dims=(), collapsed_slice_dims=axes, start_index_map=axes
    )
    value = None
    for window in itertools.product(*per_axis):
        indices, valid, tap_weights = zip(*window)
        read = lax.gather(
            x,
            jnp.stack(indices, axis=-1),
            numbers,
            (1,) * x.ndim,
            mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS,
        )
        masks = [v for v in valid if v is not None]
        if masks:
            read = jnp.where(functools.reduce(operator.and_, masks), read, cval)
        term = functools.reduce(operator.mul, tap_weights).astype(read.dtype) * read
        value = term if value is None else value + term
    return value


class _Points(NamedTuple):
    """Each axis's base tap (the taps are ``base - order // 2`` on, in the input's
    coordinates) and weights at every point, and the points outside (``"inside"``
    modes), ``nan`` and infinite."""

    bases: list
    weights: list
    # per axis, the fraction the weights are the spline's at
    fracs: list
    # per axis, the bounds (lo, hi) of the bases, or None where they are any int32
    spans: list
    # per axis, order 0 read unreduced (``_read_nearest``): the fraction past the base
    nearest: list
    outside: Any
    nan: Any
    inf: Any


def period(n: int, rule: str) -> int:
    """The period of the coordinate reduction ``rule`` on an axis of ``n`` (0: none)."""
    periods = {"mirror": 2 * n - 2, "reflect": 2 * n, "grid-wrap": n, "wrap": n - 1}
    return max(periods[rule], 1) if rule in periods else 0


def _integer_reduction(order: int, period: int, direct: bool) -> bool:
    """Whether a coordinate's reduction by ``period`` takes its whole part as int32
    (``_split_rem``), which needs the coordinates' guard to bring far coordinates
    near (one pass reading them; a copy where they are a parameter of the program).
    XLA:CPU's ``lax.rem`` by a power of two is as cheap as integer arithmetic, and by
    any other period calls ``fmodf`` (a million points: 0.19 ms by 1024 and 2048,
    1.6-3.0 ms by 1023, 2000 and 2046). Order 0 takes the integers but by a power of
    two where it reads the periodic extension directly (``_points``' ``direct``):
    there the guard's pass cost more than the remainder (a million 2-D points, three
    interleaved runs, with ``_points``' read of non-finite coordinates: grid-wrap,
    period 1024, 1.55-1.73x faster, reflect, 2048, 1.42-1.54x). Measured, a million 2-D points,
    the forward through the integers against the remainder's, before orders 0-1
    read unreduced coordinates in the periodic modes: order 1 0.91-0.94 in mirror
    and wrap, 1.18-1.44 in reflect and grid-wrap (periods 2048, 1024); order 3
    0.94-0.99 and 1.13-1.16; order 0 0.40-0.72 but grid-wrap 1.10."""
    return period > 0 and ((order == 0 and not direct) or period & (period - 1) != 0)


def _points(coords, shape, order, spec, prefilter):
    """The taps and weights of ``coords`` (see ``_Points``)."""
    rule = spec.coordinate
    # the orders read from the input itself (``_read_points``); the padded read needs
    # reduced coordinates
    reads_input = 1 if isinstance(coords, jax.core.Tracer) else 0
    direct = order <= reads_input and spec.taps == _modes.PERIODIC_TAPS.get(rule)
    small = [_integer_reduction(order, period(n, rule), direct) for n in shape]
    # far coordinates come back within a period where the reduction is in integers
    coords = computed_once(coords, tuple(period(n, rule) * s for n, s in zip(shape, small)))
    bases, weights, fracs, spans, nearest = [], [], [], [], []
    outside = nan = inf = None
    for axis, n in enumerate(shape):
        row = coords[axis]
        if order <= reads_input and (direct or rule == "clamp"):
            # Order 0, and order 1 of traced coordinates (``_read_points``: the
            # direct read, whose derivatives zero a nan coordinate's weights), take
            # each tap's index modulo the period (direct) or clamped (``_tap_index``),
            # so a non-finite coordinate's whole part, whatever it is, reads a
            # sample of the grid, and ``masked`` replaces the value: no select of
            # the finite coordinates (a million 2-D points, three interleaved runs, nearest
            # and grid-constant: order 0 1.02-1.08x faster, order 1 1.06-1.09x)
            cc = row
        else:
            # finite, a row at a time: one select of the whole (ndim, points) array,
            # sliced after, made XLA:CPU's fused read 2.5x slower (order 1, a million
            # points: 3.0 against 1.2 ms; order 3: 14.9 against 8.5 ms)
            cc = jnp.where(jnp.isfinite(row), row, 0.0)
        if direct:
            # The taps' own period is the reduction's: the linear spline of the
            # periodic extension needs no reduction of the coordinate, order 0 only
            # the side it rounds a half to (``_read_nearest``). Its whole part must
            # fit int32: the guard brought it near, or a remainder by a power of two
            # (as cheap) does. A million 2-D points, order 1, against the reduction
            # (two interleaved runs): the forward 0.7-0.9x its time in mirror,
            # reflect and grid-wrap, the coordinate gradient 0.47-0.83x (its
            # branches' derivatives were the cost: reflect 20 against 10 ms).
            if not small[axis]:
                cc = lax.rem(cc, jnp.asarray(period(n, rule), cc.dtype))
            base, frac = _split(cc)
            span = None
        else:
            reach = order + 1 + _prepad(order, spec, prefilter)
            base, frac = reduce_coordinate(cc, n, rule, reach, small=small[axis])
            # the reductions' ranges: [0, n - 1] inside, the reach beyond the grid
            # for clamp, within two samples of the grid for a period
            span = {"inside": (0, n - 1), "clamp": (-reach, n - 1 + reach)}.get(rule, (-2, n + 1))
        if rule == "inside":
            out_axis = (cc < 0) | (cc > n - 1)
            outside = out_axis if outside is None else outside | out_axis
        nearest.append(frac if direct and order == 0 else None)
        if order % 2 == 0 and not direct:  # the base tap is the nearest sample (halves up)
            up = frac >= 0.5
            base = jnp.where(up, base + 1, base)
            frac = jnp.where(up, frac - 1.0, frac)
            span = span and (span[0], span[1] + 1)
        bases.append(base)
        spans.append(span)
        weights.append(_spline.weights(frac, order))
        fracs.append(frac)
        nan_axis, inf_axis = jnp.isnan(row), jnp.isinf(row)
        nan = nan_axis if nan is None else nan | nan_axis
        inf = inf_axis if inf is None else inf | inf_axis
    return _Points(bases, weights, fracs, spans, nearest, outside, nan, inf)


def _prepad(order, spec, prefilter):
    """scipy's prepad of the input before the prefilter (``_coefficients``)."""
    return _modes.PREPAD if order > 1 and prefilter and spec.prepad is not None else 0


def _tap_index(mode, n, position, span):
    """``_index_maps.source_index`` of ``position``, whose values lie in ``span``
    (``(lo, hi)``, or None: any): one reflection or wrap where the span is within
    one of the grid, as ``jax.scipy.ndimage`` maps its taps, a floor-mod by the
    period else (``_floor_mod``: a mask by a power of two)."""
    if span is not None and n > 1:
        lo, hi = span
        if mode == "edge":
            return jnp.clip(position, 0, n - 1)
        if mode == "reflect" and lo >= 1 - n and hi <= 2 * n - 2:
            distance = jnp.abs(position)
            return jnp.minimum(distance, 2 * n - 2 - distance)
        if mode == "symmetric" and lo >= -n and hi <= 2 * n - 1:
            inside = jnp.where(position < 0, -1 - position, position)
            return jnp.minimum(inside, 2 * n - 1 - inside)
        if mode == "wrap" and lo >= -n and hi <= 2 * n - 1:
            wrapped = jnp.where(position >= n, position - n, position)
            return jnp.where(position < 0, position + n, wrapped)
    if mode == "edge" or n == 1:
        return _index_maps.source_index(mode, n, position, jnp)
    # _index_maps.source_index's arithmetic, its floor-mod _floor_mod's
    p = _index_maps.period(mode, n)
    phase = _floor_mod(position, p)
    if mode == "wrap":
        return phase
    mirror = p - phase if mode == "reflect" else p - 1 - phase
    return jnp.where(phase < n, phase, mirror)


def _floor_mod(i, p: int):
    """``jnp.remainder(i, p)`` of an int32 ``i``: a mask where ``p`` is a power of two
    (a remainder and the sign's select otherwise). With the mask in order 0's nearest
    sample and order 1's taps (``_tap_index``), ``grid-wrap`` by 1024 and ``reflect``
    by 2048 at a million 2-D points: order 0 1.08-1.13x faster, order 1 1.04-1.08x
    (two interleaved runs against the remainder on ``benchmarks/interpolation.py``'s
    warp)."""
    return i & (p - 1) if p & (p - 1) == 0 else jnp.remainder(i, p)


def _fold_period(mode, n: int, position):
    """``_index_maps.source_index`` of a ``position`` in ``[0, period]``."""
    p = _index_maps.period(mode, n)
    if n == 1:
        return jnp.zeros_like(position)
    if mode == "wrap":
        return jnp.where(position >= p, position - p, position)
    if mode == "reflect":
        return jnp.minimum(position, p - position)
    position = jnp.where(position >= p, position - p, position)
    return jnp.minimum(position, p - 1 - position)


def _read_nearest(x, points, spec, cval):
    """Order 0: each point's nearest sample read from ``x`` through the taps' index
    map, one gather, as ``jax.scipy.ndimage.map_coordinates`` reads. At a million 2-D
    points (``benchmarks/interpolation.py``'s warp, one interleaved run): 0.6-1.6 ms
    against 0.8-2.0 ms padding the input and reading the padded array (orders 2-5's
    form), its input VJP no slower (one scatter of single elements either way)."""
    indices, valid = [], None
    for n, base, span, frac in zip(x.shape, points.bases, points.spans, points.nearest):
        if frac is not None:
            # coordinate unreduced: the nearer of the two samples around it, at a
            # half the one the reduced coordinate rounds up to, which is the lower
            # one where the reduction reflects (``reduce_coordinate``'s branches); one
            # remainder by the period, then the fold (against a remainder for each
            # of the two taps and the phase, a million 2-D points, three
            # interleaved runs: 1.11-1.13x faster in mirror, the same in reflect
            # and grid-wrap)
            p = period(n, spec.coordinate)
            if spec.coordinate == "grid-wrap" and p & (p - 1) == 0:
                # the fold is the mask itself
                up = frac >= 0.5
                indices.append(_floor_mod(base + up.astype(base.dtype), p))
                continue
            phase = _floor_mod(base, p)
            if spec.coordinate == "grid-wrap":
                up = frac >= 0.5
            else:
                # mirror reflects a negative coordinate from n - 1 on, the rest from n
                start = jnp.where(base < 0, n - 1, n) if spec.coordinate == "mirror" else n
                up = (frac > 0.5) | ((frac == 0.5) & (phase < start))
            index = _fold_period(spec.taps, n, phase + up.astype(phase.dtype))
        elif spec.taps == "constant":
            inside = (base >= 0) & (base < n)
            valid = inside if valid is None else valid & inside
            index = jnp.clip(base, 0, n - 1)
        else:
            index = _tap_index(spec.taps, n, base, span)
        indices.append(index)
    axes = tuple(range(x.ndim))
    read = lax.gather(
        x,
        jnp.stack(indices, axis=-1),
        lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=axes, start_index_map=axes),
        (1,) * x.ndim,
        mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS,
    )
    return read if valid is None else jnp.where(valid, read, cval)
