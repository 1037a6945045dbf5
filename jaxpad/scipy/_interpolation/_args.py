"""Argument checks and scipy's output dtype rules for the interpolation functions."""

from __future__ import annotations

import warnings
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

PREFIX = "jaxpad.scipy.ndimage."


def describe(value: Any) -> str:
    shape = getattr(value, "shape", None)
    dtype = getattr(value, "dtype", None)
    if shape is not None and dtype is not None:
        return f"{type(value).__name__} of shape {tuple(shape)} and dtype {dtype}"
    return repr(value)


def as_input(fn: str, x: Any) -> jax.Array:
    try:
        x = jnp.asarray(x)
    except TypeError as error:
        raise TypeError(f"{fn}: input must be a numeric array; got {describe(x)}.") from error
    if not (jnp.issubdtype(x.dtype, jnp.number) or x.dtype == np.bool_):
        raise TypeError(f"{fn}: input must be a numeric array; got dtype {x.dtype}.")
    return x


def output_dtype(fn: str, output: Any, default: Any, complex_in: bool) -> np.dtype:
    """scipy's ``_get_output`` for a dtype: ``None`` gives ``default``; a complex input
    makes a real dtype complex, with scipy's warning; arrays are rejected (JAX cannot
    write in place)."""
    if output is None:
        dtype = np.dtype(default)
    else:
        if not isinstance(output, type) and (
            isinstance(output, (jax.Array, np.ndarray)) or hasattr(output, "__array__")
        ):
            raise TypeError(
                f"{fn}: output must be None or a dtype: JAX arrays are immutable, so an "
                "output array cannot be written in place (use the returned array, or pass "
                f"its dtype); got {describe(output)}."
            )
        try:
            dtype = np.dtype(output)
        except TypeError as error:
            raise TypeError(
                f"{fn}: output must be None or a numeric dtype; got {output!r}."
            ) from error
        if not (np.issubdtype(dtype, np.number) or dtype == np.bool_):
            raise TypeError(f"{fn}: output must be None or a numeric dtype; got {output!r}.")
    if complex_in and not np.issubdtype(dtype, np.complexfloating):
        if output is not None:
            warnings.warn(
                f"{fn}: promoting specified output dtype to complex (the input is "
                f"complex); got output={dtype.name}.",
                UserWarning,
                stacklevel=4,
            )
        dtype = np.dtype(jnp.promote_types(dtype, np.complex64))
    return np.dtype(jax.dtypes.canonicalize_dtype(dtype))


def cast_output(t: jax.Array, dtype: np.dtype) -> jax.Array:
    """``t`` stored as scipy's ``NI_GeometricTransform`` stores it: integers rounded
    half away from zero (unsigned: negatives to 0) and saturated at the dtype's range;
    bool: nonzero; inexact dtypes: a cast."""
    dtype = np.dtype(dtype)
    if jnp.issubdtype(dtype, jnp.inexact):
        if jnp.issubdtype(t.dtype, jnp.complexfloating) and not jnp.issubdtype(
            dtype, jnp.complexfloating
        ):
            t = t.real
        return t.astype(dtype)
    if jnp.issubdtype(t.dtype, jnp.complexfloating):
        t = t.real
    if dtype == np.bool_:
        return t != 0
    # Rounded from the truncation and the exact remainder: t + 0.5 itself rounds in
    # float32 (0.49999997 + 0.5 == 1.0).
    whole = jnp.trunc(t)
    rest = t - whole
    rounded = whole + jnp.where(jnp.abs(rest) >= 0.5, jnp.sign(t), 0.0).astype(t.dtype)
    info = jnp.iinfo(dtype)
    if info.min == 0:
        rounded = jnp.maximum(rounded, 0.0)
    hi = float(info.max)
    lo = float(info.min)
    # float(info.max) may round up past the range in t's dtype; clip below it.
    hi_t = np.asarray(hi, t.dtype)
    if float(hi_t) > info.max:
        hi_t = np.nextafter(hi_t, np.asarray(0, t.dtype))
    inside = lax.convert_element_type(jnp.clip(rounded, lo, hi_t), dtype)
    out = jnp.where(rounded > hi_t, jnp.asarray(info.max, dtype), inside)
    return jnp.where(rounded < lo, jnp.asarray(info.min, dtype), out)
