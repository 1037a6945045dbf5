"""Window ops (pools, convolutions) that pad by a ``PaddingPolicy``, through jaxpad.pad.

Each op asks the policy for its pads and output size, pads with ``jaxpad.pad`` (any
mode, negative pads crop, gradients through the fold) and runs a VALID ``lax`` window
op, so a model ported from another framework gets that framework's borders exactly.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from jaxpad import _checks
from jaxpad._pad import pad
from jaxpad._policy import PaddingPolicy, _per_axis
from jaxpad._typing import IntOrSequence

_DEFAULT_POLICY = PaddingPolicy("valid")
_PAD_FIRST_HINT = "pad x with jaxpad.pad in that mode first and pool with a VALID policy."


def _policy(fn_name, policy):
    if policy is None:
        return _DEFAULT_POLICY
    if not isinstance(policy, PaddingPolicy):
        raise TypeError(
            f"{fn_name}: policy must be a jaxpad.PaddingPolicy (see jaxpad.policies); "
            f"got {policy!r}."
        )
    return policy


def _only_constant(fn_name, policy, hint):
    """Rejects a policy whose pad mode this op does not implement yet: padding with
    zeros (or -inf) instead would give another framework's op a silently wrong result."""
    if policy.pad_mode != "constant":
        raise ValueError(
            f"{fn_name}: pads with zeros only and cannot honour the policy's "
            f"pad_mode={policy.pad_mode!r} (policy {policy.name!r}); {hint}"
        )


def _pool_geometry(fn_name, x, window, strides, policy):
    """Pads, declared pads and output shape of a pool over every axis of ``x``.

    Only the pooled axes (window or stride other than 1) are asked of the policy, so
    an int pad such as PyTorch's ``padding=1`` applies to them and not to the batch
    or feature axes; explicit per-axis pads list the pooled axes only.
    """
    window = _per_axis(fn_name, "window", window, x.ndim, 1)
    strides = _per_axis(fn_name, "strides", strides, x.ndim, 1)
    pooled = [a for a in range(x.ndim) if window[a] != 1 or strides[a] != 1]
    sizes = [x.shape[a] for a in pooled]
    sub_window = [window[a] for a in pooled]
    sub_strides = [strides[a] for a in pooled]
    policy.check_pool_pads(sub_window)
    pads = [(0, 0)] * x.ndim
    declared = [(0, 0)] * x.ndim
    out_shape = list(x.shape)
    if pooled:
        sub_pads = policy.pads(sizes, sub_window, sub_strides)
        sub_declared = policy.declared_pads(sizes, sub_window, sub_strides)
        sub_out = policy.output_shape(sizes, sub_window, sub_strides)
        for a, p, dp, o in zip(pooled, sub_pads, sub_declared, sub_out):
            pads[a], declared[a], out_shape[a] = p, dp, o
    return window, strides, pads, declared, tuple(out_shape)


def _window_reduce(x, init, op, window, strides, out_shape):
    out = lax.reduce_window(x, init, op, window, strides, "VALID")
    return lax.slice(out, (0,) * x.ndim, out_shape)


def max_pool(
    x: ArrayLike,
    window: IntOrSequence,
    strides: IntOrSequence | None = None,
    policy: PaddingPolicy | None = None,
) -> jax.Array:
    """Max pool over every axis of ``x`` with ``policy``'s pads and output size.

    Args:
      x: the input; a real dtype.
      window: window size per axis of ``x`` (1 on batch and feature axes), or an int.
      strides: stride per axis, an int, or None for 1.
      policy: a ``jaxpad.PaddingPolicy`` (see ``jaxpad.policies``); VALID if None.

    Returns:
      The pooled array; padded positions never win the max.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> x = jnp.arange(5.0)
      >>> jaxpad.nn.max_pool(x, 2, 2, jaxpad.policies.torch(1))
      Array([0., 2., 4.], dtype=float32)
    """
    fn = "jaxpad.nn.max_pool"
    x = jnp.asarray(x)
    if not (jnp.issubdtype(x.dtype, jnp.floating) or jnp.issubdtype(x.dtype, jnp.integer)):
        raise TypeError(f"{fn}: x must have a real dtype; got {_checks.describe(x)}.")
    policy = _policy(fn, policy)
    _only_constant(fn, policy, _PAD_FIRST_HINT)
    window, strides, pads, _, out_shape = _pool_geometry(fn, x, window, strides, policy)
    if jnp.issubdtype(x.dtype, jnp.floating):
        lowest = -np.inf
    else:
        lowest = np.iinfo(x.dtype).min
    lowest = np.asarray(lowest, x.dtype)
    padded = pad(x, [lo for lo, _ in pads], [hi for _, hi in pads], pad_value=lowest)
    return _window_reduce(padded, lowest, lax.max, window, strides, out_shape)


def avg_pool(
    x: ArrayLike,
    window: IntOrSequence,
    strides: IntOrSequence | None = None,
    policy: PaddingPolicy | None = None,
) -> jax.Array:
    """Average pool over every axis of ``x``, divided as ``policy.divisor`` says.

    Args:
      x: the input; a floating or complex dtype.
      window: window size per axis of ``x`` (1 on batch and feature axes), or an int.
      strides: stride per axis, an int, or None for 1.
      policy: a ``jaxpad.PaddingPolicy``; VALID if None. Its ``divisor`` is
        ``"window"`` (the window size), ``"padded"`` (positions inside the input or
        the declared padding) or ``"valid"`` (positions inside the input).

    Returns:
      The pooled array.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> x = jnp.ones(9)
      >>> policy = jaxpad.policies.torch(3, ceil_mode=True, count_include_pad=False)
      >>> jaxpad.nn.avg_pool(x, 7, 3, policy) * 7
      Array([7., 7., 7., 7.], dtype=float32)
    """
    fn = "jaxpad.nn.avg_pool"
    x = jnp.asarray(x)
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        raise TypeError(
            f"{fn}: x must have a floating or complex dtype; got {_checks.describe(x)}."
        )
    policy = _policy(fn, policy)
    _only_constant(fn, policy, _PAD_FIRST_HINT)
    window, strides, pads, declared, out_shape = _pool_geometry(fn, x, window, strides, policy)
    zero = np.zeros((), x.dtype)
    padded = pad(x, [lo for lo, _ in pads], [hi for _, hi in pads])
    sums = _window_reduce(padded, zero, lax.add, window, strides, out_shape)
    divisor = _divisor(policy.divisor, x.shape, window, strides, pads, declared, out_shape)
    return sums / jnp.asarray(divisor, x.dtype)


def _divisor(rule, shape, window, strides, pads, declared, out_shape):
    """How many window positions count, per output element (static, separable)."""
    if rule == "window":
        return np.float64(math.prod(window))
    total = np.ones((), np.float64)
    for axis, (n, k, s, (lo, _), (d_lo, d_hi), out) in enumerate(
        zip(shape, window, strides, pads, declared, out_shape)
    ):
        first, last = (0, n) if rule == "valid" else (-d_lo, n + d_hi)
        starts = np.arange(out) * s - lo
        counts = np.clip(np.minimum(starts + k, last) - np.maximum(starts, first), 0, None)
        view = [1] * len(shape)
        view[axis] = out
        total = total * counts.reshape(view).astype(np.float64)
    return np.maximum(total, 1.0)


def _conv_layout(fn_name, x, kernel, strides, dilation, dimension_numbers):
    if x.ndim != kernel.ndim or x.ndim < 2:
        raise ValueError(
            f"{fn_name}: x and kernel need the same rank (>= 2); got x.shape={x.shape}, "
            f"kernel.shape={kernel.shape}."
        )
    numbers = lax.conv_dimension_numbers(x.shape, kernel.shape, dimension_numbers)
    spatial = len(numbers.lhs_spec) - 2
    sizes = [x.shape[a] for a in numbers.lhs_spec[2:]]
    window = [kernel.shape[a] for a in numbers.rhs_spec[2:]]
    strides = _per_axis(fn_name, "strides", strides, spatial, 1)
    dilation = _per_axis(fn_name, "dilation", dilation, spatial, 1)
    return numbers, sizes, window, strides, dilation


def conv(
    x: ArrayLike,
    kernel: ArrayLike,
    strides: IntOrSequence | None = None,
    policy: PaddingPolicy | None = None,
    pad_mode: str | None = None,
    dilation: IntOrSequence | None = None,
    dimension_numbers: lax.ConvGeneralDilatedDimensionNumbers | None = None,
    feature_group_count: int = 1,
) -> jax.Array:
    """Convolution (``lax.conv_general_dilated``) padded by ``policy`` in any pad mode.

    Args:
      x: the input, laid out as ``dimension_numbers`` says (lax's default: NCH...).
      kernel: the filter (lax's default layout: OIH...).
      strides: stride per spatial axis, an int, or None for 1.
      policy: a ``jaxpad.PaddingPolicy``; VALID if None.
      pad_mode: how to fill the padding: a ``jaxpad.pad`` mode; None takes the
        policy's (``"wrap"`` for flax CIRCULAR, ``"reflect"`` for REFLECT, else
        ``"constant"``). PyTorch's ``padding_mode="reflect"`` is ``pad_mode="reflect"``.
      dilation: kernel dilation per spatial axis.
      dimension_numbers: as in ``lax.conv_general_dilated``.
      feature_group_count: as in ``lax.conv_general_dilated``.

    Returns:
      The convolution's output, of the policy's output size.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> x = jnp.arange(5.0).reshape(1, 1, 5)
      >>> kernel = jnp.ones((1, 1, 3))
      >>> jaxpad.nn.conv(x, kernel, 1, jaxpad.policies.flax("CIRCULAR"))
      Array([[[5., 3., 6., 9., 7.]]], dtype=float32)
    """
    fn = "jaxpad.nn.conv"
    x, kernel = jnp.asarray(x), jnp.asarray(kernel)
    policy = _policy(fn, policy)
    numbers, sizes, window, strides, dilation = _conv_layout(
        fn, x, kernel, strides, dilation, dimension_numbers
    )
    spatial_pads = policy.pads(sizes, window, strides, dilation)
    out_sizes = policy.output_shape(sizes, window, strides, dilation)
    mode = pad_mode if pad_mode is not None else policy.pad_mode
    if mode == "constant" and all(lo >= 0 and hi >= 0 for lo, hi in spatial_pads):
        # The convolution pads with zeros itself, without a padded copy.
        padding = list(spatial_pads)
    else:
        lo, hi = [0] * x.ndim, [0] * x.ndim
        for axis, (p_lo, p_hi) in zip(numbers.lhs_spec[2:], spatial_pads):
            lo[axis], hi[axis] = p_lo, p_hi
        x = pad(x, lo, hi, mode)
        padding = [(0, 0)] * len(sizes)
    out = lax.conv_general_dilated(
        x,
        kernel,
        strides,
        padding,
        rhs_dilation=dilation,
        dimension_numbers=numbers,
        feature_group_count=feature_group_count,
    )
    limits = list(out.shape)
    for axis, size in zip(numbers.out_spec[2:], out_sizes):
        limits[axis] = size
    return lax.slice(out, (0,) * out.ndim, limits)


def conv_transpose(
    x: ArrayLike,
    kernel: ArrayLike,
    strides: IntOrSequence | None = None,
    policy: PaddingPolicy | None = None,
    output_padding: IntOrSequence | None = None,
    dilation: IntOrSequence | None = None,
    dimension_numbers: lax.ConvGeneralDilatedDimensionNumbers | None = None,
    transpose_kernel: bool = False,
) -> jax.Array:
    """Transposed convolution: the VJP of ``conv`` with the same policy, as an op.

    The output length per spatial axis is ``policy.reverse_output_shape``:
    ``(n - 1) * s + K - lo - hi + a`` with the forward pads ``(lo, hi)`` and the
    adjustment ``a`` (``output_padding``, PyTorch's name; TF/JAX SAME gives ``n * s``).

    Args:
      x: the input, laid out as ``dimension_numbers`` says.
      kernel: the filter; with ``transpose_kernel=True`` it is the forward conv's
        filter, flipped and with its feature axes swapped here, so that the result
        is exactly ``conv``'s VJP (as ``lax.conv_transpose``'s flag of that name).
      strides: stride per spatial axis (of the forward conv), an int, or None.
      policy: the forward op's ``jaxpad.PaddingPolicy``; VALID if None.
      output_padding: the adjustment ``a`` per spatial axis, each below the stride.
      dilation: kernel dilation per spatial axis.
      dimension_numbers: as in ``lax.conv_general_dilated``.
      transpose_kernel: see ``kernel``.

    Returns:
      The transposed convolution's output.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> x = jnp.ones((1, 1, 4))
      >>> jaxpad.nn.conv_transpose(x, jnp.ones((1, 1, 3)), 2, jaxpad.policies.jax("SAME")).shape
      (1, 1, 8)
    """
    fn = "jaxpad.nn.conv_transpose"
    x, kernel = jnp.asarray(x), jnp.asarray(kernel)
    policy = _policy(fn, policy)
    _only_constant(fn, policy, "take jax.vjp of jaxpad.nn.conv with that policy for its transpose.")
    numbers, sizes, window, strides, dilation = _conv_layout(
        fn, x, kernel, strides, dilation, dimension_numbers
    )
    reverse = policy.reverse_pads(sizes, window, strides, dilation, output_padding)
    padding = []
    for k, d, (lo, hi, adjust) in zip(window, dilation, reverse):
        span = d * (k - 1) + 1
        padding.append((span - 1 - lo, span - 1 - hi + adjust))
    if transpose_kernel:
        kernel = lax.rev(kernel, numbers.rhs_spec[2:])
        kernel = jnp.swapaxes(kernel, numbers.rhs_spec[0], numbers.rhs_spec[1])
    return lax.conv_general_dilated(
        x,
        kernel,
        (1,) * len(sizes),
        padding,
        lhs_dilation=strides,
        rhs_dilation=dilation,
        dimension_numbers=numbers,
    )
