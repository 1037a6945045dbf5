"""The filters' arguments as scipy takes them: checks, per-axis values, jaxpad modes,
the compute and output dtypes. Shared by the filter families; errors start with the
public function's name (``fn``) and name the argument.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Iterable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxpad import modes as _modes

_PREFIX = "jaxpad.scipy.ndimage."
_SCIPY_MODES = (
    "reflect",
    "grid-mirror",
    "constant",
    "grid-constant",
    "nearest",
    "mirror",
    "wrap",
    "grid-wrap",
)


def _describe(value: Any) -> str:
    if isinstance(value, (jax.Array, np.ndarray)):
        return f"an array of shape {tuple(value.shape)} and dtype {value.dtype}"
    return repr(value)


def _input(fn: str, x: Any, *, complex_ok: bool = True) -> jax.Array:
    if isinstance(x, (str, bytes)) or x is None:
        raise TypeError(f"{fn}: input must be a numeric array; got {x!r}.")
    if isinstance(x, np.ndarray) and not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))  # JAX takes native byte order only
    try:
        x = jnp.asarray(x)
    except TypeError as error:
        raise TypeError(f"{fn}: input must be a numeric array; got {_describe(x)}.") from error
    if not (jnp.issubdtype(x.dtype, jnp.number) or x.dtype == np.bool_):
        raise TypeError(f"{fn}: input must be a numeric array; got dtype {x.dtype}.")
    if not complex_ok and jnp.issubdtype(x.dtype, jnp.complexfloating):
        raise TypeError(
            f"{fn}: input must be real (scipy has no order on complex numbers); got dtype "
            f"{x.dtype}."
        )
    return x


def _output_dtype(fn: str, output: Any, x_dtype: Any) -> np.dtype:
    if output is None:
        return np.dtype(x_dtype)
    if not isinstance(output, type) and (
        isinstance(output, (jax.Array, np.ndarray)) or hasattr(output, "__array__")
    ):
        raise TypeError(
            f"{fn}: output must be None or a dtype: JAX arrays are immutable, so an output "
            "array cannot be written in place (use the returned array, or pass its dtype); "
            f"got {_describe(output)}."
        )
    try:
        dtype = np.dtype(output)
    except TypeError as error:
        raise TypeError(f"{fn}: output must be None or a numeric dtype; got {output!r}.") from error
    if not (np.issubdtype(dtype, np.number) or dtype == np.bool_):
        raise TypeError(f"{fn}: output must be None or a numeric dtype; got {output!r}.")
    return np.dtype(jax.dtypes.canonicalize_dtype(dtype))


def _complex_output(fn: str, output: Any, out_dtype: np.dtype, complex_in: bool) -> np.dtype:
    """A complex input or kernel makes the output complex; a real output dtype given
    for it is promoted with scipy's warning."""
    if not complex_in or np.issubdtype(out_dtype, np.complexfloating):
        return out_dtype
    if output is not None:
        warnings.warn(
            f"{fn}: promoting specified output dtype to complex (the input or the "
            f"weights are complex); got output={np.dtype(out_dtype).name}.",
            UserWarning,
            stacklevel=4,
        )
    return np.dtype(jnp.promote_types(out_dtype, np.complex64))


def _axis(fn: str, axis: Any, ndim: int, name: str = "axis") -> int:
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(
            f"{fn}: {name} must be an int; got {axis!r}, which cannot be interpreted as an integer."
        )
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{fn}: {name}={axis} is out of range for an input with ndim={ndim}.")
    return axis % ndim


def _axes(fn: str, axes: Any, ndim: int) -> tuple[int, ...]:
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        axes = (axes,)
    if isinstance(axes, str) or not isinstance(axes, Iterable):
        raise TypeError(f"{fn}: axes must be None, an int or a sequence of ints; got {axes!r}.")
    axes = tuple(axes)
    out = tuple(_axis(fn, a, ndim, "axes") for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"{fn}: axes must be unique; got {axes!r}.")
    return out


def _per_axis(fn: str, name: str, value: Any, n: int) -> list:
    """scipy's ``_normalize_sequence``: a scalar repeated, or one entry per axis."""
    if isinstance(value, str) or not np.iterable(value):
        return [value] * n
    if isinstance(value, (jax.Array, np.ndarray)) and value.ndim == 0:
        return [value] * n
    values = list(value)
    if len(values) != n:
        raise ValueError(
            f"{fn}: {name} needs one entry per filtered axis ({n}); got {len(values)}: {value!r}."
        )
    return values


def _mode(fn: str, mode: Any, name: str = "mode") -> str:
    if not isinstance(mode, str) or mode not in _SCIPY_MODES:
        known = ", ".join(repr(m) for m in _SCIPY_MODES)
        raise ValueError(
            f"{fn}: {name} must be one of scipy.ndimage's modes {known}; got {mode!r}."
        )
    return _modes.from_scipy(mode)


def _modes_for(fn: str, mode: Any, n: int) -> list[str]:
    return [_mode(fn, m) for m in _per_axis(fn, "mode", mode, n)]


def _int(fn: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{fn}: {name} must be an int; got {value!r}.")
    return int(value)


def _origin(fn: str, origin: int, size: int, name: str = "origin") -> int:
    origin = _int(fn, name, origin)
    if not -(size // 2) <= origin <= (size - 1) // 2:
        raise ValueError(
            f"{fn}: {name}={origin} puts the filter's centre outside it: a filter of "
            f"size {size} takes {-(size // 2)} <= {name} <= {(size - 1) // 2}."
        )
    return origin


def _cval(fn: str, cval: Any, complex_ok: bool) -> Any:
    if isinstance(cval, (str, bytes)) or cval is None:
        raise TypeError(f"{fn}: cval must be a number; got {cval!r}.")
    if np.ndim(cval) != 0:
        raise ValueError(f"{fn}: cval must be a scalar; got {_describe(cval)}.")
    if not complex_ok and jnp.iscomplexobj(cval):
        raise ValueError(f"{fn}: cval is complex but the input is real; got {cval!r}.")
    return cval


def _float_dtype(*dtypes: Any) -> np.dtype:
    """The dtype to compute in: the inputs' floating (or complex) type, at least float32."""
    out = np.dtype(np.float32)
    for dtype in dtypes:
        dtype = np.dtype(jax.dtypes.canonicalize_dtype(dtype))
        if not np.issubdtype(dtype, np.inexact):
            dtype = np.dtype(jax.dtypes.canonicalize_dtype(np.float64))
        out = jnp.promote_types(out, dtype)
    return np.dtype(out)


def _cast(x: jax.Array, dtype: np.dtype) -> jax.Array:
    if x.dtype == dtype:
        return x
    if jnp.issubdtype(x.dtype, jnp.complexfloating) and not np.issubdtype(
        dtype, np.complexfloating
    ):
        x = jnp.real(x)
    return x.astype(dtype)


def _size(fn: str, name: str, size: Any, minimum: int = 1) -> int:
    if isinstance(size, (float, np.floating)) and float(size).is_integer():
        size = int(size)  # scipy's int(size)
    size = _int(fn, name, size)
    if size < minimum:
        raise ValueError(f"{fn}: {name} must be at least {minimum}; got {size}.")
    return size


def _expand(fn, x_ndim, axes, fp, origin, mode, convolution=False):
    """The footprint (or weights), origins and jaxpad modes over all of the input's
    axes. As scipy's: the footprint's dimensions go to the filtered axes in increasing
    order, the origins and modes to ``axes`` in the order given."""
    origins_given = _per_axis(fn, "origin", origin, len(axes))
    modes_given = _modes_for(fn, mode, len(axes))
    fp = np.expand_dims(fp, tuple(ax for ax in range(x_ndim) if ax not in axes))
    if convolution:
        fp = fp[(slice(None, None, -1),) * x_ndim]
    origins = [0] * x_ndim
    modes = ["constant"] * x_ndim
    for k, ax in enumerate(axes):
        name = f"origin[{k}]" if np.iterable(origin) else "origin"
        o = _origin(fn, origins_given[k], fp.shape[ax], name)
        if convolution:
            o = -o - (0 if fp.shape[ax] & 1 else 1)
        origins[ax] = o
        modes[ax] = modes_given[k]
    return fp, origins, modes


def _unused_cval(fn: str, cval: Any, mode: str) -> None:
    """Refuses a ``cval`` that ``mode`` does not read, where scipy ignores it: anything
    but the default, a concrete zero, with a mode other than ``"constant"``."""
    if mode == "constant":
        return
    try:  # any concrete numeric zero (a NumPy or JAX scalar too); a tracer is not one
        zero = not isinstance(cval, (str, bytes, bool, np.bool_)) and float(cval) == 0
    except (TypeError, ValueError):
        zero = False
    if not zero:
        raise ValueError(
            f"{fn}: cval is read only with mode='constant'; got cval={_describe(cval)} with "
            f"mode={mode!r}."
        )
