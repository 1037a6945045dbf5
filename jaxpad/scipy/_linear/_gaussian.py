"""scipy.ndimage's Gaussian filters: scipy's kernel (built in the program for a traced
sigma), one 1-D pass per axis."""

from __future__ import annotations

import numbers
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxpad.scipy._args import (
    _PREFIX,
    _axes,
    _axis,
    _cval,
    _input,
    _int,
    _mode,
    _modes_for,
    _output_dtype,
    _per_axis,
)
from jaxpad.scipy._linear._correlate import _separable


def _gaussian_kernel1d(sigma: float, order: int, radius: int) -> np.ndarray:
    """scipy's kernel: a sampled Gaussian (normalised) times its order-th derivative's
    polynomial."""
    exponent_range = np.arange(order + 1)
    sigma2 = sigma * sigma
    x = np.arange(-radius, radius + 1)
    phi_x = np.exp(-0.5 / sigma2 * x**2)
    phi_x = phi_x / phi_x.sum()
    if order == 0:
        return phi_x
    q = np.zeros(order + 1)
    q[0] = 1
    d = np.diag(exponent_range[1:], 1)
    p = np.diag(np.ones(order) / -sigma2, -1)
    q_deriv = d + p
    for _ in range(order):
        q = q_deriv.dot(q)
    q = (x[:, None] ** exponent_range).dot(q)
    return q * phi_x


def _sigma(fn: str, sigma: Any, name: str = "sigma") -> Any:
    """sigma as a float, or as a traced scalar (its kernel is then built in the
    program, over a static ``radius``)."""
    if isinstance(sigma, jax.core.Tracer):
        if sigma.ndim != 0 or not jnp.issubdtype(sigma.dtype, jnp.floating):
            raise TypeError(
                f"{fn}: a traced {name} must be a floating scalar; got a traced array of "
                f"shape {sigma.shape} and dtype {sigma.dtype}."
            )
        return sigma
    if isinstance(sigma, (str, bytes, bool)) or sigma is None:
        raise TypeError(f"{fn}: {name} must be a number; got {sigma!r}.")
    try:
        value = float(sigma)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{fn}: {name} must be a number; got {sigma!r}.") from error
    if not value >= 0:
        raise ValueError(f"{fn}: {name} must be non-negative; got {sigma!r}.")
    return value


def _gaussian_kernel1d_traced(sigma, order: int, radius: int):
    """_gaussian_kernel1d with sigma a traced scalar: the same formula in jnp."""
    x = jnp.arange(-radius, radius + 1, dtype=sigma.dtype)
    sigma2 = sigma * sigma
    phi_x = jnp.exp(-0.5 / sigma2 * x**2)
    phi_x = phi_x / phi_x.sum()
    if order == 0:
        return phi_x
    exponent_range = np.arange(order + 1)
    q = jnp.zeros(order + 1, sigma.dtype).at[0].set(1)
    d = jnp.asarray(np.diag(exponent_range[1:], 1), sigma.dtype)
    p = jnp.diag(jnp.ones(order, sigma.dtype) / -sigma2, -1)
    q_deriv = d + p
    for _ in range(order):
        q = q_deriv @ q
    q = (x[:, None] ** jnp.asarray(exponent_range, sigma.dtype)) @ q
    return q * phi_x


def _gaussian_weights(fn, sigma, order, truncate, radius) -> Any:
    order = _int(fn, "order", order)
    if order < 0:
        raise ValueError(f"{fn}: order must be non-negative; got {order}.")
    traced = isinstance(sigma, jax.core.Tracer)
    if radius is None:
        if traced:
            raise TypeError(
                f"{fn}: sigma is traced, so the kernel's length cannot come from "
                f"truncate * sigma: pass a static radius (an int) as well; got radius=None."
            )
        truncate = float(truncate)
        lw = int(truncate * sigma + 0.5)
        if lw < 0:
            raise ValueError(f"{fn}: truncate must be non-negative; got {truncate!r}.")
    else:
        if isinstance(radius, bool) or not isinstance(radius, numbers.Integral) or radius < 0:
            raise ValueError(f"{fn}: radius must be a non-negative int; got {radius!r}.")
        lw = int(radius)
    if traced:
        return _gaussian_kernel1d_traced(sigma, order, lw)[::-1]
    if sigma == 0:
        raise ValueError(f"{fn}: sigma must be positive; got {sigma!r}.")
    return _gaussian_kernel1d(sigma, order, lw)[::-1]


def gaussian_filter1d(
    input: Any,
    sigma: float,
    axis: int = -1,
    order: int = 0,
    output: Any = None,
    mode: str = "reflect",
    cval: Any = 0.0,
    truncate: float = 4.0,
    *,
    radius: int | None = None,
) -> jax.Array:
    """A 1-D Gaussian filter, as ``scipy.ndimage.gaussian_filter1d``.

    Args:
      input: the array to filter.
      sigma: the Gaussian's standard deviation (positive); static, or traced when
        ``radius`` is given.
      axis: the axis to filter along.
      order: 0 for a blur; 1, 2, 3 for the Gaussian's derivatives.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode.
      cval: the value beyond the edges in the constant modes.
      truncate: the kernel's radius in standard deviations.
      radius: the kernel's radius in samples; overrides ``truncate``.

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.gaussian_filter1d([1.0, 2.0, 3.0, 4.0, 5.0], 1)
      Array([1.427041, 2.067822, 3.      , 3.932178, 4.572959], dtype=float32)
    """
    fn = _PREFIX + "gaussian_filter1d"
    x = _input(fn, input)
    axis = _axis(fn, axis, x.ndim)
    sigma = _sigma(fn, sigma)
    w = _gaussian_weights(fn, sigma, order, truncate, radius)
    out_dtype = _output_dtype(fn, output, x.dtype)
    cval = _cval(fn, cval, jnp.issubdtype(x.dtype, jnp.complexfloating))
    return _separable(fn, x, [(axis, w, _mode(fn, mode), 0)], out_dtype, cval)


def _gaussian_passes(fn, ndim, sigma, order, mode, truncate, radius, axes):
    axes = _axes(fn, axes, ndim)
    n = len(axes)
    orders = _per_axis(fn, "order", order, n)
    sigmas = [_sigma(fn, s) for s in _per_axis(fn, "sigma", sigma, n)]
    modes = _modes_for(fn, mode, n)
    radii = _per_axis(fn, "radius", radius, n)
    passes = []
    for ax, s, o, m, r in zip(axes, sigmas, orders, modes, radii):
        # scipy skips an axis with sigma 0, whatever its order (a traced sigma is
        # taken as positive).
        if isinstance(s, jax.core.Tracer) or s > 1e-15:
            passes.append((ax, _gaussian_weights(fn, s, o, truncate, r), m, 0))
        else:
            _int(fn, "order", o)
    return passes


def gaussian_filter(
    input: Any,
    sigma: Any,
    order: Any = 0,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    truncate: float = 4.0,
    *,
    radius: Any = None,
    axes: Any = None,
) -> jax.Array:
    """A Gaussian filter, as ``scipy.ndimage.gaussian_filter``: one 1-D pass per axis.

    Args:
      input: the array to filter.
      sigma: the standard deviation, one or one per filtered axis; an axis with sigma
        0 is not filtered. Static, or traced (and differentiable) when ``radius`` is
        given: the kernel is then built in the program.
      order: 0 (blur) to 3 (third derivative), one or one per filtered axis.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes (may be traced).
      truncate: the kernel's radius in standard deviations.
      radius: the kernel's radius in samples, one or one per filtered axis;
        overrides ``truncate``.
      axes: the axes to filter (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.gaussian_filter(np.arange(0, 50, 2).reshape(5, 5), sigma=1)
      Array([[ 4,  6,  8,  9, 11],
             [10, 12, 14, 15, 17],
             [20, 22, 24, 25, 27],
             [29, 31, 33, 34, 36],
             [35, 37, 39, 40, 42]], dtype=int32)
    """
    fn = _PREFIX + "gaussian_filter"
    x = _input(fn, input)
    passes = _gaussian_passes(fn, x.ndim, sigma, order, mode, truncate, radius, axes)
    out_dtype = _output_dtype(fn, output, x.dtype)
    cval = _cval(fn, cval, jnp.issubdtype(x.dtype, jnp.complexfloating))
    return _separable(fn, x, passes, out_dtype, cval)
