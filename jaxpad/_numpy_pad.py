"""``jaxpad.numpy.pad``: ``jax.numpy.pad``'s signature and results on jaxpad's primitives.

constant, edge, reflect, symmetric and wrap go through ``jaxpad.pad`` (one primitive and
its fast fold, instead of jnp.pad's slice/concatenate chains); so does odd reflection
within one turn of the mirror (``reflect_odd``, ``symmetric_odd``). Wider odd pads run
one even jaxpad pad per pass of numpy's algorithm (``2 * edge - chunk`` on the new
chunk), which gives numpy's values to the bit where the primitive's closed form over
many periods would round differently. linear_ramp, the statistics modes, empty and a callable
are built from lax ops, as jnp.pad builds them, compiled once per configuration. Symbolic
shapes or widths (``jax.export``) are jnp.pad's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from jaxpad import _checks
from jaxpad._pad import pad_for
from jaxpad._typing import PadWidth

_FN = "jaxpad.numpy.pad"

# The keyword arguments each mode reads; numpy and jnp.pad reject any other.
_ALLOWED_KWARGS = {
    "constant": ("constant_values",),
    "edge": (),
    "wrap": (),
    "reflect": ("reflect_type",),
    "symmetric": ("reflect_type",),
    "linear_ramp": ("end_values",),
    "maximum": ("stat_length",),
    "mean": ("stat_length",),
    "median": ("stat_length",),
    "minimum": ("stat_length",),
    "empty": (),
}

_TRACED_WIDTH_HINT = (
    " Widths known only at run time need jaxpad.dynamic_pad(x, pads_begin, shape, mode)."
)


class UnsupportedModeError(ValueError, NotImplementedError):
    """An unknown ``mode``: numpy.pad raises ``ValueError`` there and jnp.pad
    ``NotImplementedError``; a drop-in for both is caught by either ``except``."""


def pad(
    array: ArrayLike,
    pad_width: PadWidth | Mapping[int, int | tuple[int, int]],
    mode: str | Callable = "constant",
    **kwargs: Any,
) -> jax.Array:
    """Drop-in for ``jax.numpy.pad``: the same arguments, the same results.

    The modes jaxpad has as primitives (constant with one value per side, edge,
    reflect, symmetric, wrap) lower to one ``jaxpad_pad`` op each, whose gradient is
    jaxpad's fold rather than jnp.pad's chain of slices; change the import and keep
    the call.

    Args:
      array: the array to pad.
      pad_width: static non-negative ints: ``((before_1, after_1), ..., (before_N,
        after_N))``, ``((before, after),)``, ``(before, after)``, ``(pad,)``, ``pad``,
        or as in numpy >= 2.3 a dict ``{axis: pad}`` / ``{axis: (before, after)}``
        (negative axes count from the end; axes not named are not padded). With
        symbolic dimensions (``jax.export``) in ``array``'s shape or the widths, the
        pad is ``jnp.pad``'s.
      mode: ``"constant"``, ``"edge"``, ``"reflect"``, ``"symmetric"``, ``"wrap"``,
        ``"linear_ramp"``, ``"maximum"``, ``"mean"``, ``"median"``, ``"minimum"``,
        ``"empty"``, or a callable ``f(row, pad_width, iaxis, kwargs) -> row`` applied
        along every axis of the zero-padded array.
      **kwargs: ``constant_values`` (constant; a scalar or per-axis pairs, may be
        traced), ``reflect_type`` (``"even"`` or ``"odd"``; reflect and symmetric),
        ``end_values`` (linear_ramp), ``stat_length`` (the statistics modes), or the
        callable's own keyword arguments.

    Returns:
      The padded array, with ``array``'s dtype (and weak type).

    Raises:
      UnsupportedModeError: for an unknown ``mode``; it is both the ``ValueError``
        numpy raises and the ``NotImplementedError`` jnp.pad raises.

    Example:
      >>> import jax.numpy as jnp
      >>> import jaxpad.numpy as jpnp
      >>> jpnp.pad(jnp.array([1, 2, 3]), (2, 1), mode="reflect", reflect_type="odd")
      Array([-1,  0,  1,  2,  3,  4], dtype=int32)
    """
    array = jnp.asarray(array)
    ndim = array.ndim
    if isinstance(pad_width, Mapping):
        pad_width = _dict_pairs(pad_width, ndim)
    if (
        _is_symbolic(pad_width)
        or _is_symbolic(kwargs.get("stat_length"))
        or _is_symbolic(array.shape)
    ):
        return _pad_symbolic(array, pad_width, mode, kwargs)
    widths = _pairs("pad_width", pad_width, ndim, integer=True)
    if callable(mode):
        return _pad_callable(array, widths, mode, kwargs)
    _check_mode(mode)
    unsupported = sorted(set(kwargs) - set(_ALLOWED_KWARGS[mode]))
    if unsupported:
        raise ValueError(
            f"{_FN}: mode={mode!r} takes no keyword argument {', '.join(unsupported)}; "
            f"it accepts {list(_ALLOWED_KWARGS[mode]) or 'none'}."
        )
    # Every keyword is read and checked here, before any shortcut can skip it.
    reflect_type = kwargs.get("reflect_type", "even")
    _checks.check_choice(_FN, "reflect_type", reflect_type, ("even", "odd"))
    if mode == "constant":
        _check_values("constant_values", kwargs.get("constant_values", 0), array.dtype)
        constant_values = _pairs("constant_values", kwargs.get("constant_values", 0), ndim)
    if mode == "linear_ramp":
        _check_values("end_values", kwargs.get("end_values", 0), array.dtype)
        end_values = _pairs("end_values", kwargs.get("end_values", 0), ndim)
    stat_length = kwargs.get("stat_length")
    if stat_length is not None:
        stat_length = _pairs("stat_length", stat_length, ndim, integer=True)
    if ndim == 0:
        # numpy and jnp.pad return a 0-d array unchanged, whatever the widths.
        return array
    if mode not in ("constant", "empty") and array.size == 0:
        # As numpy: the other modes read values, so only axes that stay empty work;
        # the result is then empty too.
        for axis, (before, after) in enumerate(widths):
            if array.shape[axis] == 0 and (before or after):
                raise ValueError(
                    f"{_FN}: mode={mode!r} cannot extend axis {axis} of shape "
                    f"{array.shape}: it is empty; only 'constant' and 'empty' can."
                )
        return _pad_all(array, widths, "constant")
    if mode == "constant":
        padded = _pad_constant(array, widths, constant_values)
    elif mode == "empty":
        padded = _pad_all(array, widths, "constant")
    elif mode in ("edge", "wrap"):
        padded = _pad_all(array, widths, mode)
    elif mode in ("reflect", "symmetric"):
        if reflect_type == "even":
            padded = _pad_all(array, widths, mode)
        elif array.dtype != np.bool_ and _within_one_period(array.shape, widths, mode):
            # One turn of the mirror: the primitive's 2 * edge - mirror is numpy's
            # single pass, to the bit, and its gradient is jaxpad's fold.
            padded = _pad_all(array, widths, mode + "_odd")
        else:
            padded = _pad_odd(array, widths, mode)
    elif mode == "linear_ramp":
        # As jnp.pad: the chains of lax ops of these modes run as one compiled
        # program per configuration, eagerly too.
        end_values = [[jnp.asarray(v) for v in pair] for pair in end_values]
        padded = _pad_linear_ramp(array, widths, end_values)
    else:
        padded = _pad_statistic(array, widths, stat_length, mode)
    return _keep_weak_type(array, padded)


def _check_mode(mode) -> None:
    try:
        known = mode in _ALLOWED_KWARGS
    except TypeError:  # unhashable: numpy and jnp.pad raise a TypeError too
        raise TypeError(f"{_FN}: mode must be a string or a callable; got {mode!r}.") from None
    if not isinstance(mode, str) or not known:
        options = ", ".join(repr(c) for c in _ALLOWED_KWARGS)
        raise UnsupportedModeError(f"{_FN}: mode must be one of {options}; got {mode!r}.")


def _keep_weak_type(array, padded):
    """jnp.pad keeps a weakly typed ``array`` weak (a Python scalar's promotion rules);
    lax ops on strongly typed tables and statistics do not. A scatter into a weak
    zero array is the public way to give the result ``array``'s weak type back."""
    if not _is_weak(array) or _is_weak(padded):
        return padded
    return jnp.zeros_like(array, shape=padded.shape).at[...].set(padded)


def _is_weak(x) -> bool:
    return bool(getattr(jax.typeof(x), "weak_type", False))


def _is_symbolic(value) -> bool:
    if value is None:
        return False
    leaves = jax.tree_util.tree_leaves(value)
    if isinstance(value, np.ndarray) and value.dtype == object:
        leaves = value.ravel().tolist()
    return any(jax.export.is_symbolic_dim(leaf) for leaf in leaves)


def _pad_symbolic(array, pad_width, mode, kwargs):
    """Symbolic shapes or widths (``x.shape[0]`` under ``jax.export`` with a symbolic
    ``b``): jaxpad's primitive needs static sizes, jnp.pad's slices and concatenates
    take symbolic ones, so the pad is jnp.pad's, its errors reworded."""
    try:
        return jnp.pad(array, pad_width, mode, **kwargs)
    except NotImplementedError as error:
        raise UnsupportedModeError(f"{_FN}: {error}") from None
    except (TypeError, ValueError) as error:
        raise type(error)(f"{_FN}: {error}") from None


def _dict_pairs(pad_width: Mapping, ndim: int):
    """numpy >= 2.3's ``{axis: pad}`` / ``{axis: (before, after)}``; other axes get 0."""
    pairs = [(0, 0)] * ndim
    named: dict[int, object] = {}
    for axis, width in pad_width.items():
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise TypeError(f"{_FN}: pad_width's keys must be axes (ints); got {axis!r}.")
        if not -ndim <= axis < ndim:
            raise np.exceptions.AxisError(
                f"{_FN}: pad_width names axis {axis}, out of range for array.ndim={ndim}."
            )
        normalized = int(axis) % ndim
        if normalized in named:
            raise ValueError(
                f"{_FN}: pad_width names axis {normalized} twice ({named[normalized]!r} "
                f"and {axis!r}); one width would be ignored."
            )
        named[normalized] = axis
        value = np.asarray(width) if not _is_symbolic(width) else None
        if value is not None and value.shape not in ((), (2,)):
            raise ValueError(
                f"{_FN}: pad_width[{axis!r}] must be a width or a (before, after) pair; "
                f"got {width!r}."
            )
        pairs[normalized] = (width, width) if value is not None and value.shape == () else width
    return tuple(tuple(pair) for pair in pairs)


def _check_values(arg_name: str, value, dtype) -> None:
    """``constant_values``/``end_values`` (all of it, also where a 0-d array reads
    none) can be converted to ``array``'s dtype."""
    leaves = jax.tree_util.tree_leaves(value)
    if not any(isinstance(v, jax.core.Tracer) for v in leaves):
        try:
            kind = np.asarray(value).dtype.kind
        except (ValueError, TypeError):
            kind = "O"  # ragged: _pairs says so
        if kind not in "biufcO" or (kind == "O" and not leaves):
            raise TypeError(f"{_FN}: {arg_name} must hold numbers; got {value!r}.")
        if kind == "O":
            return
    if any(jnp.iscomplexobj(v) for v in leaves) and not jnp.issubdtype(dtype, jnp.complexfloating):
        raise TypeError(
            f"{_FN}: a complex {arg_name} would lose its imaginary part in array's dtype "
            f"{np.dtype(dtype)}; got {_checks.describe(_python_scalar(value))}."
        )


def _python_scalar(value):
    # _pairs hands back numpy scalars; the user wrote Python ones.
    return value.item() if isinstance(value, np.generic) else value


def _pairs(arg_name: str, value, ndim: int, *, integer: bool = False):
    """numpy's ``_as_pairs``: one ``(before, after)`` pair per axis, from a scalar, a
    pair, or anything that broadcasts to shape ``(ndim, 2)``. Integer pairs come back
    as Python ints, others as scalars that may be traced."""
    traced = any(isinstance(v, jax.core.Tracer) for v in jax.tree_util.tree_leaves(value))
    if traced and integer:
        hint = _TRACED_WIDTH_HINT if arg_name == "pad_width" else ""
        raise TypeError(f"{_FN}: {arg_name} must be static; got a traced value.{hint}")
    xp = jnp if traced else np
    try:
        values = xp.asarray(value)
    except (ValueError, TypeError):
        raise ValueError(
            f"{_FN}: {arg_name} must be a scalar or nested pairs of one shape; got {value!r}."
        ) from None
    if integer:
        if values.dtype == np.bool_ or not np.issubdtype(values.dtype, np.integer):
            raise TypeError(f"{_FN}: {arg_name} must hold integers; got {value!r}.")
        if (values < 0).any():
            hint = " (jaxpad.pad crops with negative pads)" if arg_name == "pad_width" else ""
            raise ValueError(f"{_FN}: {arg_name} must be non-negative{hint}; got {value!r}.")
    shape = values.shape
    if values.ndim > 2:
        values = None
    elif values.size == 1:
        values = xp.broadcast_to(xp.reshape(values, ()), (ndim, 2))
    elif values.size == 2 and values.shape != (2, 1):
        values = xp.broadcast_to(xp.reshape(values, (1, 2)), (ndim, 2))
    elif all(have in (1, want) for have, want in zip(values.shape[::-1], (2, ndim))):
        values = xp.broadcast_to(values, (ndim, 2))
    else:
        values = None
    if values is None:
        raise ValueError(
            f"{_FN}: {arg_name} must be a scalar, a (before, after) pair or one pair per "
            f"axis, broadcastable to shape ({ndim}, 2); got shape {shape}."
        )
    if integer:
        return tuple((int(before), int(after)) for before, after in values)
    return tuple((values[axis, 0], values[axis, 1]) for axis in range(ndim))


def _axis_pads(ndim: int, axis: int, before: int, after: int):
    pads_begin = [0] * ndim
    pads_end = [0] * ndim
    pads_begin[axis], pads_end[axis] = before, after
    return pads_begin, pads_end


def _pad_all(array, widths, mode):
    return pad_for(_FN, array, [b for b, _ in widths], [a for _, a in widths], mode)


def _value(value, dtype):
    return _checks.pad_value_operand(
        _FN, value, "constant", dtype, arg_name="constant_values", input_name="array"
    )


def _pad_constant(array, widths, values):
    ndim = array.ndim
    flat = [v for pair in values for v in pair]
    if not any(isinstance(v, jax.core.Tracer) for v in flat) and all(
        np.array_equal(v, flat[0]) for v in flat
    ):
        value = _value(flat[0], array.dtype)
        return pad_for(_FN, array, *zip(*widths), "constant", value)
    values = [[_value(v, array.dtype) for v in pair] for pair in values]
    # Per-side values: later axes' pads cover the corners, as in numpy.
    for axis, ((before, after), (value_before, value_after)) in enumerate(zip(widths, values)):
        if before:
            array = pad_for(
                _FN, array, *_axis_pads(ndim, axis, before, 0), "constant", value_before
            )
        if after:
            array = pad_for(_FN, array, *_axis_pads(ndim, axis, 0, after), "constant", value_after)
    return array


def _within_one_period(shape, widths, mode) -> bool:
    """Whether numpy pads every axis in one pass (each pad within the mirror's reach)."""
    reach = 0 if mode == "reflect" else 1
    return all(max(w) <= n - 1 + reach or n == 1 for n, w in zip(shape, widths))


def _odd_chunks(n: int, before: int, after: int, mode: str) -> list[tuple[int, int]]:
    """The (left, right) chunk widths of numpy's passes of odd reflection on an axis.

    Each pass of numpy's ``_set_reflect_both`` reflects at most the whole periods of
    what is already filled (the original and the earlier passes' chunks), so chunks
    grow geometrically and a pad of width ``w`` takes ``O(log(w / n))`` passes.
    """
    chunks = []
    filled = n
    while before > 0 or after > 0:
        if mode == "symmetric":
            old_length = filled // n * n
        else:
            old_length = (filled - 1) // (n - 1) * (n - 1)
        left, right = min(old_length, before), min(old_length, after)
        before, after = before - left, after - right
        filled += left + right
        chunks.append((left, right))
    return chunks


@functools.partial(jax.jit, static_argnums=(1, 2))
def _pad_odd(array, widths, mode):
    """numpy's odd reflection, ``2 * edge - mirrored``, pass by pass as numpy does it.

    Each of numpy's passes reflects at most what is already filled, which is one even
    jaxpad pad of the current array, and then takes ``2 * edge - chunk`` on the new
    chunks: the same floating-point operations as numpy's, so the results are numpy's
    to the bit, eagerly and under jit (``2 * edge`` is exact, so a fused multiply-add
    rounds as the separate ops do). A closed form over all periods at once,
    ``sign * even + 2k * (last - first)``, rounds differently: 2.4e-4 off in float32
    for far pads, and beyond numpy's 1e-15 in float64.
    """
    ndim = array.ndim
    dtype = array.dtype
    for axis, (before, after) in enumerate(widths):
        n = array.shape[axis]
        if not (before or after):
            continue
        if n == 1:
            # numpy extends a singleton axis by its edge in both reflect types.
            array = pad_for(_FN, array, *_axis_pads(ndim, axis, before, after), mode)
            continue
        for left, right in _odd_chunks(n, before, after, mode):
            length = array.shape[axis]
            even = pad_for(_FN, array, *_axis_pads(ndim, axis, left, right), mode)
            first = lax.slice_in_dim(array, 0, 1, axis=axis)
            last = lax.slice_in_dim(array, length - 1, length, axis=axis)
            shape = [1] * ndim
            shape[axis] = left + length + right
            position = np.arange(left + length + right).reshape(shape)
            odd_left = (2 * first - even).astype(dtype)
            odd_right = (2 * last - even).astype(dtype)
            array = jnp.where(
                position < left, odd_left, jnp.where(position >= left + length, odd_right, even)
            )
    return array


@functools.partial(jax.jit, static_argnums=(1,))
def _pad_linear_ramp(array, widths, end_values):
    for axis, ((before, after), (end_before, end_after)) in enumerate(zip(widths, end_values)):
        if not (before or after):
            continue
        edge_before = lax.slice_in_dim(array, 0, 1, axis=axis)
        edge_after = lax.slice_in_dim(array, array.shape[axis] - 1, None, axis=axis)
        ramp_before = _ramp(end_before, edge_before, before, axis)
        ramp_after = jnp.flip(_ramp(end_after, edge_after, after, axis), axis)
        array = lax.concatenate([ramp_before, array, ramp_after], axis)
    return array


def _ramp(start, stop, num: int, axis: int):
    """``linspace(start, stop, num, endpoint=False)`` along ``axis``, as numpy computes it.

    Floating point uses numpy's formula, ``j * ((stop - start) / num) + start``, so
    ramps numpy gets exact stay exact (from 3 to 0 in three steps is ``3, 2, 1``;
    jnp.linspace's interpolation gives ``1.9999999``). numpy (>= 2) floors integer
    ramps, computed in float64; a float32 ramp can land one unit below an exact
    integer (jnp.pad's ``100 -> 10`` ramp gives 45 where numpy gives 46), so integer
    ramps use exact integer arithmetic instead: ``d = q num + r``,
    ``start + j q + floor(j r / num)``.
    """
    dtype = stop.dtype
    shape = [1] * stop.ndim
    shape[axis] = num
    steps = jnp.arange(num).reshape(shape)
    if not jnp.issubdtype(dtype, jnp.integer):
        # float16 and bfloat16 ramps are computed in float32, as numpy's in float64.
        wide = jnp.promote_types(dtype, jnp.float32)
        start = jnp.asarray(start).astype(wide)
        delta = stop.astype(wide) - start
        step = delta / num if num else delta
        # numpy's guard for a step that underflows to zero: scale after multiplying.
        ramp = jnp.where(step == 0, steps.astype(wide) / max(num, 1) * delta, steps * step)
        return (ramp + start).astype(dtype)
    wide = jnp.int64 if jax.config.read("jax_enable_x64") else jnp.int32
    start = jnp.asarray(start).astype(wide)
    span = stop.astype(wide) - start
    quotient = jnp.floor_divide(span, num) if num else span
    remainder = span - quotient * num
    ramp = start + steps * quotient + jnp.floor_divide(steps * remainder, max(num, 1))
    return ramp.astype(dtype)


def _median(window, axis):
    """numpy's median, complex input included: jnp.median has no complex quantile,
    numpy sorts complex numbers lexicographically and averages the middle two."""
    if not jnp.issubdtype(window.dtype, jnp.complexfloating):
        return jnp.median(window, axis=axis, keepdims=True)
    n = window.shape[axis]
    ordered = jnp.sort(window, axis=axis)
    middle = lax.slice_in_dim(ordered, (n - 1) // 2, n // 2 + 1, axis=axis)
    value = jnp.mean(middle, axis=axis, keepdims=True)
    # numpy: NaN anywhere in the window gives a NaN median (real part NaN, imaginary 0).
    has_nan = jnp.any(jnp.isnan(window), axis=axis, keepdims=True)
    return jnp.where(has_nan, jnp.asarray(np.nan, window.dtype), value)


_STATISTICS = {
    "maximum": lambda w, axis: jnp.max(w, axis=axis, keepdims=True),
    "minimum": lambda w, axis: jnp.min(w, axis=axis, keepdims=True),
    "mean": lambda w, axis: jnp.mean(w, axis=axis, keepdims=True),
    "median": _median,
}


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def _pad_statistic(array, widths, stat_length, mode):
    """numpy's ``_get_stats`` axis by axis: each axis's statistic reads the array
    already padded along the earlier axes."""
    inexact = jnp.issubdtype(array.dtype, jnp.inexact)
    for axis, (before, after) in enumerate(widths):
        n = array.shape[axis]
        lengths = (None, None) if stat_length is None else stat_length[axis]
        lengths = tuple(n if length is None else min(length, n) for length in lengths)
        if 0 in lengths and (mode in ("maximum", "minimum") or not inexact):
            # numpy checks every axis, padded or not, for a maximum or minimum of
            # nothing; a mean of nothing is NaN, which an integer dtype cannot hold
            # (numpy writes garbage there with a RuntimeWarning; jnp.pad raises).
            side_padded = (before and lengths[0] == 0) or (after and lengths[1] == 0)
            if mode in ("maximum", "minimum") or side_padded:
                raise ValueError(
                    f"{_FN}: stat_length of 0 on axis {axis} gives no value to pad with; "
                    f"got stat_length={stat_length[axis]}."
                )
        if not (before or after):
            continue
        parts = []
        for width, window in (
            (before, lax.slice_in_dim(array, 0, lengths[0], axis=axis)),
            (after, lax.slice_in_dim(array, n - lengths[1], n, axis=axis)),
        ):
            shape = list(array.shape)
            shape[axis] = width
            if width == 0:
                parts.append(jnp.zeros(shape, array.dtype))
                continue
            if window.shape[axis] == 0:
                # numpy's mean and median of nothing (inexact dtypes only, see above):
                # NaN, here without numpy's RuntimeWarning.
                parts.append(jnp.full(shape, np.nan, array.dtype))
                continue
            value = _STATISTICS[mode](window, axis)
            if jnp.issubdtype(array.dtype, jnp.integer):
                value = jnp.round(value)
            value = value.astype(array.dtype)
            parts.append(jnp.broadcast_to(value, shape))
        array = lax.concatenate([parts[0], array, parts[1]], axis)
    return array


def _pad_callable(array, widths, function, kwargs):
    padded = _pad_all(array, widths, "constant")
    for axis in range(padded.ndim):
        padded = jnp.apply_along_axis(function, axis, padded, widths[axis], axis, kwargs)
    return padded
