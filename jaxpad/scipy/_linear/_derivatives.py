"""scipy.ndimage's Laplacians and gradient magnitudes, generic and Gaussian: sums of
derivatives along axes (laplace as one cross-shaped correlation where it fits)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxpad.scipy._args import (
    _PREFIX,
    _axes,
    _cast,
    _cval,
    _float_dtype,
    _input,
    _mode,
    _modes_for,
    _output_dtype,
    _per_axis,
)
from jaxpad.scipy._linear._correlate import _correlate_nd, correlate1d
from jaxpad.scipy._linear._gaussian import gaussian_filter

# laplace is one cross-shaped correlation while its input padded on every axis takes
# at most this many bytes, the sum of 1-D correlations beyond: the jaxpad.pad of
# every axis builds about three such arrays, and past glibc's largest mmap threshold
# (32 MiB) XLA:CPU's block of temporaries is page-faulted in on every call. At
# 128x128x128 (docs/scipy.md#performance) the cross took 25 against 32 ms in float32
# (8.6 MiB padded; its VJP 5 against 43 ms) and 45 against 26 ms in float64 (17 MiB).
_CROSS_PAD_BYTES_MAX = 16 << 20


def generic_laplace(
    input: Any,
    derivative2: Callable[..., Any],
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    extra_arguments: Sequence[Any] = (),
    extra_keywords: dict[str, Any] | None = None,
    *,
    axes: Any = None,
) -> jax.Array:
    """The sum of second derivatives along ``axes``, as ``scipy.ndimage.generic_laplace``.

    ``derivative2(input, axis, output, mode, cval, *extra_arguments, **extra_keywords)``
    is called once per axis with ``output`` a dtype (JAX cannot write into an array) and
    must return the derivative; each is cast to the output dtype and summed.

    Args:
      input: the array to filter.
      derivative2: the second-derivative function.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis (passed on to
        ``derivative2`` as scipy's name).
      cval: the value beyond the edges in the constant modes.
      extra_arguments: more positional arguments for ``derivative2``.
      extra_keywords: keyword arguments for ``derivative2``.
      axes: the axes to sum over (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> def d2(x, axis, output, mode, cval):
      ...     return ndimage.correlate1d(x, [1, -2, 1], axis, output, mode, cval)
      >>> ndimage.generic_laplace(np.array([0.0, 1.0, 4.0, 9.0]), d2)
      Array([ 1.,  2.,  2., -5.], dtype=float32)
    """
    fn = _PREFIX + "generic_laplace"
    return _generic(
        fn, input, derivative2, output, mode, cval, extra_arguments, extra_keywords, axes, False
    )


def _generic(
    fn, input, derivative, output, mode, cval, extra_arguments, extra_keywords, axes, magnitude
):
    x = _input(fn, input)
    if not callable(derivative):
        name = "derivative" if magnitude else "derivative2"
        raise TypeError(f"{fn}: {name} must be callable; got {derivative!r}.")
    if extra_keywords is None:
        extra_keywords = {}
    axes = _axes(fn, axes, x.ndim)
    out_dtype = _output_dtype(fn, output, x.dtype)
    if not axes:
        return _cast(x, out_dtype)
    given = _per_axis(fn, "mode", mode, len(axes))
    for m in given:
        _mode(fn, m)
    acc = None
    for ax, m in zip(axes, given):
        d = _cast(
            jnp.asarray(derivative(x, ax, out_dtype, m, cval, *extra_arguments, **extra_keywords)),
            out_dtype,
        )
        if magnitude:
            d = d * d
        acc = d if acc is None else acc + d
    if magnitude:
        dtype = _float_dtype(out_dtype)
        acc = _cast(_safe_sqrt(acc.astype(dtype)), out_dtype)
    return acc


def _safe_sqrt(x):
    # sqrt's derivative at 0 is infinite; the gradient magnitude's subgradient there is 0.
    positive = x > 0
    return jnp.where(positive, jnp.sqrt(jnp.where(positive, x, 1)), 0)


def laplace(
    input: Any, output: Any = None, mode: Any = "reflect", cval: Any = 0.0, *, axes: Any = None
) -> jax.Array:
    """The discrete Laplacian ``[1, -2, 1]`` summed over axes, as ``scipy.ndimage.laplace``.

    Args:
      input: the array to filter.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      axes: the axes to sum over (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.laplace(np.array([[0.0, 0, 0], [0, 1, 0], [0, 0, 0]]), mode="constant")
      Array([[ 0.,  1.,  0.],
             [ 1., -4.,  1.],
             [ 0.,  1.,  0.]], dtype=float32)
    """

    def derivative2(x, axis, output, mode, cval):
        return correlate1d(x, [1, -2, 1], axis, output, mode, cval, 0)

    fn = _PREFIX + "laplace"
    x = _input(fn, input)
    out_dtype = _output_dtype(fn, output, x.dtype)
    filtered = _axes(fn, axes, x.ndim)
    if (
        filtered
        and _padded_bytes(x.shape, filtered, x.dtype) <= _CROSS_PAD_BYTES_MAX
        and jnp.issubdtype(x.dtype, jnp.floating)
        and np.issubdtype(out_dtype, np.floating)
    ):
        # One correlation with the cross of [1, -2, 1]s (one pad of every axis; each
        # arm reads only its own axis' pad, so it equals scipy's sum of 1-D passes):
        # one loop and one transpose, 2.3x faster than the sum of per-axis
        # correlations forward and in the VJP at 1024x1024 in float32
        # (docs/scipy.md#performance); not for a large padded array
        # (_CROSS_PAD_BYTES_MAX). Only for a floating input and output: scipy casts
        # each axis' term to an integer output before summing.
        modes = _modes_for(fn, mode, len(filtered))
        cval = _cval(fn, cval, False)
        centre = [1 if a in filtered else 0 for a in range(x.ndim)]
        kernel = np.zeros([1 + 2 * c for c in centre])
        kernel[tuple(centre)] = -2.0 * len(filtered)
        for a in filtered:
            for k in (0, 2):
                index = list(centre)
                index[a] = k
                kernel[tuple(index)] = 1.0
        axis_modes = [modes[0]] * x.ndim
        for a, m in zip(filtered, modes):
            axis_modes[a] = m
        dtype = _float_dtype(x.dtype, out_dtype)
        y = _correlate_nd(x.astype(dtype), kernel, [0] * x.ndim, axis_modes, cval, dtype)
        return _cast(y, out_dtype)
    return _generic(fn, x, derivative2, output, mode, cval, (), None, axes, False)


def _padded_bytes(shape, axes, dtype) -> int:
    """Bytes of an array of ``shape`` padded by one on each side of ``axes``."""
    count = 1
    for a, n in enumerate(shape):
        count *= n + 2 if a in axes else n
    return count * np.dtype(dtype).itemsize


def _check_gaussian_kwargs(fn: str, kwargs: dict) -> None:
    unknown = set(kwargs) - {"truncate", "radius"}
    if unknown:
        raise TypeError(
            f"{fn}: unexpected keyword arguments {sorted(unknown)}; the Gaussian takes "
            "truncate and radius."
        )


def gaussian_laplace(
    input: Any,
    sigma: Any,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    *,
    axes: Any = None,
    **kwargs: Any,
) -> jax.Array:
    """The Laplacian of a Gaussian, as ``scipy.ndimage.gaussian_laplace``.

    Args:
      input: the array to filter.
      sigma: the standard deviation, one or one per filtered axis (static).
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      axes: the axes to sum over (default: all).
      **kwargs: ``truncate`` or ``radius``, passed to ``gaussian_filter``.

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> ndimage.gaussian_laplace(np.array([0.0, 0.0, 1000.0, 0.0, 0.0]), 1.0).round()
      Array([ 197.,    2., -399.,    2.,  197.], dtype=float32)
    """
    fn = _PREFIX + "gaussian_laplace"
    _check_gaussian_kwargs(fn, kwargs)
    x = _input(fn, input)
    axes_ = _axes(fn, axes, x.ndim)
    sigmas = _per_axis(fn, "sigma", sigma, len(axes_))
    full = [0.0] * x.ndim
    for s, ax in zip(sigmas, axes_):
        full[ax] = s

    def derivative2(x, axis, output, mode, cval):
        order = [0] * x.ndim
        order[axis] = 2
        return gaussian_filter(x, full, order, output, mode, cval, **kwargs)

    return _generic(fn, x, derivative2, output, mode, cval, (), None, axes_, False)


def generic_gradient_magnitude(
    input: Any,
    derivative: Callable[..., Any],
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    extra_arguments: Sequence[Any] = (),
    extra_keywords: dict[str, Any] | None = None,
    *,
    axes: Any = None,
) -> jax.Array:
    """``sqrt(sum(derivative(axis) ** 2))``, as ``scipy.ndimage.generic_gradient_magnitude``.

    ``derivative(input, axis, output, mode, cval, *extra_arguments, **extra_keywords)``
    is called once per axis with ``output`` a dtype and must return the derivative.
    Where the magnitude is 0 its gradient is taken as 0 (a subgradient).

    Args:
      input: the array to filter.
      derivative: the first-derivative function.
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      extra_arguments: more positional arguments for ``derivative``.
      extra_keywords: keyword arguments for ``derivative``.
      axes: the axes to sum over (default: all).

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> a = np.array([[0.0, 1, 2], [0, 1, 2], [0, 1, 2]])
      >>> ndimage.generic_gradient_magnitude(a, ndimage.sobel)
      Array([[4., 8., 4.],
             [4., 8., 4.],
             [4., 8., 4.]], dtype=float32)
    """
    fn = _PREFIX + "generic_gradient_magnitude"
    return _generic(
        fn, input, derivative, output, mode, cval, extra_arguments, extra_keywords, axes, True
    )


def gaussian_gradient_magnitude(
    input: Any,
    sigma: Any,
    output: Any = None,
    mode: Any = "reflect",
    cval: Any = 0.0,
    *,
    axes: Any = None,
    **kwargs: Any,
) -> jax.Array:
    """The gradient magnitude of a Gaussian blur, as
    ``scipy.ndimage.gaussian_gradient_magnitude``.

    Args:
      input: the array to filter.
      sigma: the standard deviation, one or one per axis (static).
      output: None (the input's dtype) or a dtype.
      mode: a ``scipy.ndimage`` boundary mode, or one per filtered axis.
      cval: the value beyond the edges in the constant modes.
      axes: the axes of the gradient (default: all).
      **kwargs: ``truncate`` or ``radius``, passed to ``gaussian_filter``.

    Returns:
      The filtered array, of the output dtype.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import ndimage
      >>> x = np.array([0.0, 0.0, 1000.0, 0.0, 0.0])
      >>> ndimage.gaussian_gradient_magnitude(x, 1.0).round()
      Array([ 95., 241.,   0., 241.,  95.], dtype=float32)
    """
    fn = _PREFIX + "gaussian_gradient_magnitude"
    _check_gaussian_kwargs(fn, kwargs)

    def derivative(x, axis, output, mode, cval):
        order = [0] * x.ndim
        order[axis] = 1
        return gaussian_filter(x, sigma, order, output, mode, cval, **kwargs)

    return _generic(fn, input, derivative, output, mode, cval, (), None, axes, True)
