"""Window ops (pools, convolutions) that pad by a ``PaddingPolicy``, through jaxpad.pad.

Each op asks the policy for its pads and output size, pads with ``jaxpad.pad`` (any
mode, negative pads crop, gradients through the fold) and runs a VALID ``lax`` window
op, so a model ported from another framework gets that framework's borders exactly.
A transposed convolution is the VJP of the padded convolution: in a mode, that of the
convolution as the planner plans it (the program of ``conv``'s VJP), else the full
transposed convolution, folded back by the transpose of ``jaxpad.pad`` in the mode.

The layer modules ``jaxpad.flax`` and ``jaxpad.equinox`` share the private helpers
here (``check_pad_mode``, ``padded_conv``, ``folded_conv_transpose``). Every
convolution is built by ``jaxpad._lowering.conv``, which picks its form per platform
(on XLA:CPU: no all-zero-padded convolution, depthwise and small-group convolutions as
shifted taps, 1x1 convolutions as matrix products, derivatives of grouped and
few-channel convolutions in a faster form than lax's transposes).
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from jaxpad import _checks
from jaxpad._index_maps import MODES
from jaxpad._lowering import conv as _conv_lowering
from jaxpad._pad import pad_for, pad_piece
from jaxpad._policy import PaddingPolicy
from jaxpad._typing import IntOrSequence

_DEFAULT_POLICY = PaddingPolicy("valid")

# Other frameworks' names for jaxpad's modes: named in the error, never accepted
# silently (a user who wrote "replicate" learns that jaxpad calls it "edge").
_MODE_ALIASES = {
    "zeros": "constant",
    "zero": "constant",
    "replicate": "edge",
    "replication": "edge",
    "nearest": "edge",
    "circular": "wrap",
    "periodic": "wrap",
    "reflection": "reflect",
    "mirror": "reflect",
}


def check_pad_mode(fn_name: str, mode: object, arg_name: str = "pad_mode") -> str:
    """A jaxpad pad mode, or a ``ValueError`` that names the jaxpad equivalent."""
    if isinstance(mode, str) and mode in MODES:
        return mode
    options = ", ".join(repr(m) for m in MODES)
    hint = ""
    if isinstance(mode, str):
        lower = mode.lower()
        equivalent = lower if lower in MODES else _MODE_ALIASES.get(lower)
        if equivalent is not None:
            hint = f" (jaxpad's name for {mode!r} is {equivalent!r})"
    raise ValueError(f"{fn_name}: {arg_name} must be one of {options}; got {mode!r}{hint}.")


def _policy(fn_name, policy):
    if policy is None:
        return _DEFAULT_POLICY
    if not isinstance(policy, PaddingPolicy):
        raise TypeError(
            f"{fn_name}: policy must be a jaxpad.PaddingPolicy (see jaxpad.policies); "
            f"got {policy!r}."
        )
    return policy


def resolve_mode(fn_name, policy, pad_mode):
    """``pad_mode`` overrides the policy's mode; None keeps the policy's."""
    if pad_mode is None:
        return policy.pad_mode
    return check_pad_mode(fn_name, pad_mode)


def ask_policy(fn_name, policy, method, *args, **kwargs):
    """Calls a policy method; its ``ValueError`` is re-raised under the public name."""
    try:
        return getattr(policy, method)(*args, **kwargs)
    except ValueError as error:
        text = str(error)
        if not text.startswith(policy.name):
            text = f"{policy.name}: {text}"
        raise ValueError(f"{fn_name}: policy {text}") from error


def per_axis(fn_name, arg_name, value, ndim, default, *, minimum=1):
    """An int for every axis, one int per axis, or None for the default."""
    if value is None:
        return (default,) * ndim
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * ndim
    values = _checks.static_int_tuple(fn_name, arg_name, value)
    if any(v < minimum for v in values):
        raise ValueError(f"{fn_name}: {arg_name} entries must be >= {minimum}; got {values}.")
    if len(values) != ndim:
        raise ValueError(
            f"{fn_name}: {arg_name} needs one entry per axis ({ndim}); got {len(values)}: {values}."
        )
    return values


# Pools ---------------------------------------------------------------------------------


def _pool_geometry(fn_name, x, window, strides, dilation, policy, op):
    """Window, strides, dilation, pads, declared pads and output shape over every axis.

    Only the pooled axes (window or stride other than 1) are asked of the policy, so
    an int pad such as PyTorch's ``padding=1`` applies to them and not to the batch
    or feature axes; explicit per-axis pads list the pooled axes only.
    """
    window = per_axis(fn_name, "window", window, x.ndim, 1)
    strides = per_axis(fn_name, "strides", strides, x.ndim, 1)
    dilation = per_axis(fn_name, "dilation", dilation, x.ndim, 1)
    pooled = [a for a in range(x.ndim) if window[a] != 1 or strides[a] != 1]
    _check_concrete_sizes(fn_name, x, pooled, "pooled")
    sizes = [x.shape[a] for a in pooled]
    sub = [[seq[a] for a in pooled] for seq in (window, strides, dilation)]
    # PyTorch's half-window limit is on the dilated window.
    spans = [d * (k - 1) + 1 for k, d in zip(sub[0], sub[2])]
    policy.check_op(fn_name, op)
    ask_policy(fn_name, policy, "check_pool_pads", spans)
    pads = [(0, 0)] * x.ndim
    declared = [(0, 0)] * x.ndim
    out_shape = list(x.shape)
    if pooled:
        # ONNX's SAME places a negative total pad differently in pools and convs.
        sub_pads = ask_policy(fn_name, policy, "pads", sizes, *sub, op=op)
        sub_declared = ask_policy(fn_name, policy, "declared_pads", sizes, *sub, op=op)
        sub_out = ask_policy(fn_name, policy, "output_shape", sizes, *sub, op=op)
        for a, p, dp, o in zip(pooled, sub_pads, sub_declared, sub_out):
            pads[a], declared[a], out_shape[a] = p, dp, o
    return window, strides, dilation, pads, declared, tuple(out_shape)


def _check_concrete_sizes(fn_name, x, axes, kind):
    """Policies compute pads and output sizes from concrete sizes: a symbolic size
    (``jax.export``) on an axis they see is rejected here, by the public name. Other
    axes (a symbolic batch) never reach the policy."""
    for axis in axes:
        if jax.export.is_symbolic_dim(x.shape[axis]):
            raise ValueError(
                f"{fn_name}: axis {axis} of x.shape={x.shape} is {kind} and has the symbolic "
                f"size {x.shape[axis]}; padding policies need concrete sizes on {kind} axes "
                "(a symbolic batch or feature axis is fine): export with a concrete size there."
            )


def _pool_input(fn, x, pads, declared, mode, fill):
    """``x`` padded for a VALID pool: in ``mode`` over the declared pads, and with
    ``fill`` (which never counts) over any ceil-mode overhang past them."""
    lo = [p for p, _ in pads]
    if mode == "constant":
        return pad_for(fn, x, lo, [h for _, h in pads], pad_value=fill)
    padded = pad_for(fn, x, lo, [h for _, h in declared], mode)
    overhang = [h - dh for (_, h), (_, dh) in zip(pads, declared)]
    if any(overhang):
        padded = pad_for(fn, padded, [0] * x.ndim, overhang, pad_value=fill)
    return padded


def _window_reduce(x, init, op, window, strides, dilation, out_shape):
    if any(d != 1 for d in dilation) and op is lax.max:
        # JAX has no VJP for a dilated max reduce_window: the max of one strided slice
        # per window offset (ties share the gradient, as jnp.max's do).
        out = None
        for offset in np.ndindex(*window):
            start = [o * d for o, d in zip(offset, dilation)]
            limit = [b + (n - 1) * s + 1 for b, n, s in zip(start, out_shape, strides)]
            piece = lax.slice(x, start, limit, strides)
            out = piece if out is None else lax.max(out, piece)
        return out
    out = lax.reduce_window(x, init, op, window, strides, "VALID", window_dilation=dilation)
    return lax.slice(out, (0,) * x.ndim, out_shape)


def max_pool(
    x: ArrayLike,
    window: IntOrSequence,
    strides: IntOrSequence | None = None,
    policy: PaddingPolicy | None = None,
    pad_mode: str | None = None,
    dilation: IntOrSequence | None = None,
) -> jax.Array:
    """Max pool over every axis of ``x`` with ``policy``'s pads and output size.

    With ``pad_mode="constant"`` (every preset's) a padded position never wins the
    max, as in every framework's max pool. Another mode fills the padding with input
    values: the result equals a VALID max pool of ``jaxpad.pad(x, ..., mode)``.

    Args:
      x: the input; a real dtype.
      window: window size per axis of ``x`` (1 on batch and feature axes), or an int.
      strides: stride per axis, an int, or None for 1.
      policy: a ``jaxpad.PaddingPolicy`` (see ``jaxpad.policies``); VALID if None.
      pad_mode: a ``jaxpad.pad`` mode that overrides the policy's; None keeps it.
      dilation: window dilation per axis (PyTorch's ``dilation``), an int, or None.

    Returns:
      The pooled array.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> x = jnp.arange(5.0)
      >>> jaxpad.nn.max_pool(x, 2, 2, jaxpad.policies.torch(1))
      Array([0., 2., 4.], dtype=float32)
      >>> jaxpad.nn.max_pool(x, 2, 2, jaxpad.policies.torch(1), pad_mode="reflect")
      Array([1., 2., 4.], dtype=float32)
    """
    fn = "jaxpad.nn.max_pool"
    x = jnp.asarray(x)
    if not (jnp.issubdtype(x.dtype, jnp.floating) or jnp.issubdtype(x.dtype, jnp.integer)):
        raise TypeError(f"{fn}: x must have a real dtype; got {_checks.describe(x)}.")
    policy = _policy(fn, policy)
    mode = resolve_mode(fn, policy, pad_mode)
    window, strides, dilation, pads, declared, out_shape = _pool_geometry(
        fn, x, window, strides, dilation, policy, "max_pool"
    )
    if jnp.issubdtype(x.dtype, jnp.floating):
        lowest = np.asarray(-np.inf, x.dtype)
    else:
        lowest = np.asarray(np.iinfo(x.dtype).min, x.dtype)
    padded = _pool_input(fn, x, pads, declared, mode, lowest)
    return _window_reduce(padded, lowest, lax.max, window, strides, dilation, out_shape)


def avg_pool(
    x: ArrayLike,
    window: IntOrSequence,
    strides: IntOrSequence | None = None,
    policy: PaddingPolicy | None = None,
    pad_mode: str | None = None,
    dilation: IntOrSequence | None = None,
) -> jax.Array:
    """Average pool over every axis of ``x``, divided as ``policy.divisor`` says.

    What the divisor counts, per window:

    ============  ===================================  ==================================
    divisor       ``pad_mode="constant"`` (zeros)      any other mode
    ============  ===================================  ==================================
    ``window``    every window position                every window position
    ``padded``    positions in the input or the        positions in the input or the
                  declared padding                     declared padding
    ``valid``     positions in the input               positions in the input or the
                                                       declared padding
    ============  ===================================  ==================================

    Another mode fills the declared padding with input values, so those positions
    are samples like any other and ``valid`` counts them: the result is the mean of
    the values the window sees in ``jaxpad.pad(x, declared pads, mode)``. Positions
    past the declared padding (the last window of ``ceil_mode``) hold zeros and are
    counted only by ``window``, in every mode.

    Args:
      x: the input; a floating or complex dtype.
      window: window size per axis of ``x`` (1 on batch and feature axes), or an int.
      strides: stride per axis, an int, or None for 1.
      policy: a ``jaxpad.PaddingPolicy``; VALID if None. Its ``divisor`` is
        ``"window"``, ``"padded"`` or ``"valid"`` (table above).
      pad_mode: a ``jaxpad.pad`` mode that overrides the policy's; None keeps it.
      dilation: window dilation per axis, an int, or None.

    Returns:
      The pooled array.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> x = jnp.ones(9)
      >>> policy = jaxpad.policies.torch(3, ceil_mode=True, count_include_pad=False)
      >>> jaxpad.nn.avg_pool(x, 7, 3, policy) * 7
      Array([7., 7., 7., 7.], dtype=float32)
      >>> jaxpad.nn.avg_pool(jnp.arange(4.0), 3, 1, jaxpad.policies.torch(1), "edge")
      Array([0.33333334, 1.        , 2.        , 2.6666667 ], dtype=float32)
    """
    fn = "jaxpad.nn.avg_pool"
    x = jnp.asarray(x)
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        raise TypeError(
            f"{fn}: x must have a floating or complex dtype; got {_checks.describe(x)}."
        )
    policy = _policy(fn, policy)
    mode = resolve_mode(fn, policy, pad_mode)
    window, strides, dilation, pads, declared, out_shape = _pool_geometry(
        fn, x, window, strides, dilation, policy, "avg_pool"
    )
    zero = np.zeros((), x.dtype)
    padded = _pool_input(fn, x, pads, declared, mode, zero)
    sums = _window_reduce(padded, zero, lax.add, window, strides, dilation, out_shape)
    rule = policy.divisor
    if mode != "constant" and rule == "valid":
        rule = "padded"
    divisor = _divisor(rule, x.shape, window, strides, dilation, pads, declared, out_shape)
    return sums / jnp.asarray(divisor, x.dtype)


def _divisor(rule, shape, window, strides, dilation, pads, declared, out_shape):
    """How many window positions count, per output element (static, separable).

    Axes that are not pooled count 1 everywhere and are skipped, so their sizes (a
    symbolic batch) never enter NumPy.
    """
    if rule == "window":
        return np.float64(math.prod(window))
    total = np.ones((), np.float64)
    for axis in range(len(shape)):
        k, s, d, (lo, _), (d_lo, d_hi) = (
            window[axis],
            strides[axis],
            dilation[axis],
            pads[axis],
            declared[axis],
        )
        if k == 1 and s == 1 and lo == 0 and d_lo == 0 and d_hi == 0:
            continue
        n, out = shape[axis], out_shape[axis]
        first, last = (0, n) if rule == "valid" else (-d_lo, n + d_hi)
        positions = (np.arange(out) * s - lo)[:, None] + np.arange(k) * d
        counts = ((positions >= first) & (positions < last)).sum(axis=1)
        view = [1] * len(shape)
        view[axis] = out
        total = total * counts.reshape(view).astype(np.float64)
    return np.maximum(total, 1.0)


# Convolutions --------------------------------------------------------------------------


def _conv_layout(fn_name, x, kernel, strides, dilation, dimension_numbers, feature_group_count):
    """Validates a convolution's operands before lax sees them; returns its geometry."""
    if x.ndim != kernel.ndim or x.ndim < 2:
        raise ValueError(
            f"{fn_name}: x and kernel need the same rank (>= 2); got x.shape={x.shape}, "
            f"kernel.shape={kernel.shape}."
        )
    for name, value in (("x", x), ("kernel", kernel)):
        if not (
            jnp.issubdtype(value.dtype, jnp.inexact) or jnp.issubdtype(value.dtype, jnp.integer)
        ):
            raise TypeError(
                f"{fn_name}: {name} must have a numeric dtype; got {_checks.describe(value)}."
            )
    if x.dtype != kernel.dtype:
        raise TypeError(
            f"{fn_name}: x and kernel need the same dtype; got x.dtype={x.dtype}, "
            f"kernel.dtype={kernel.dtype}."
        )
    try:
        numbers = lax.conv_dimension_numbers(x.shape, kernel.shape, dimension_numbers)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"{fn_name}: dimension_numbers={dimension_numbers!r} do not fit x.shape={x.shape} "
            f"and kernel.shape={kernel.shape}: {error}"
        ) from error
    groups = _checks.static_int(fn_name, "feature_group_count", feature_group_count)
    if groups < 1:
        raise ValueError(f"{fn_name}: feature_group_count must be >= 1; got {groups}.")
    spatial = len(numbers.lhs_spec) - 2
    _check_concrete_sizes(fn_name, x, numbers.lhs_spec[2:], "spatial")
    sizes = [x.shape[a] for a in numbers.lhs_spec[2:]]
    window = [kernel.shape[a] for a in numbers.rhs_spec[2:]]
    strides = per_axis(fn_name, "strides", strides, spatial, 1)
    dilation = per_axis(fn_name, "dilation", dilation, spatial, 1)
    return numbers, sizes, window, strides, dilation, groups


def _check_features(fn_name, x, kernel, numbers, groups, kernel_note=""):
    features = x.shape[numbers.lhs_spec[1]]
    kernel_in = kernel.shape[numbers.rhs_spec[1]]
    kernel_out = kernel.shape[numbers.rhs_spec[0]]
    if features != kernel_in * groups:
        raise ValueError(
            f"{fn_name}: x has {features} features (axis {numbers.lhs_spec[1]} of "
            f"x.shape={x.shape}), but kernel{kernel_note} expects {kernel_in} per group "
            f"(axis {numbers.rhs_spec[1]} of its shape {kernel.shape}) times "
            f"feature_group_count={groups}."
        )
    if kernel_out % groups:
        raise ValueError(
            f"{fn_name}: kernel{kernel_note}'s {kernel_out} output features (axis "
            f"{numbers.rhs_spec[0]} of its shape {kernel.shape}) must be a multiple of "
            f"feature_group_count={groups}."
        )


def padded_conv(
    x,
    kernel,
    strides,
    pads,
    mode,
    numbers,
    *,
    lhs_dilation=None,
    rhs_dilation=None,
    feature_group_count=1,
    precision=None,
    preferred_element_type=None,
    conv_general_dilated=lax.conv_general_dilated,
    batched_planning=False,
    **conv_kwargs,
):
    """``conv_general_dilated`` with the spatial ``pads`` filled in ``mode``, in the
    form ``jaxpad._lowering.conv`` plans for each platform (plain: non-negative zero
    pads left to the convolution itself, every other case padded with ``jaxpad.pad``
    then a VALID convolution); ``batched_planning``: planned for the shape ``jax.vmap``
    gives it (``lowered_conv``)."""
    return _conv_lowering.lowered_conv(
        x,
        kernel,
        strides,
        pads,
        mode,
        numbers,
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        feature_group_count=feature_group_count,
        precision=precision,
        preferred_element_type=preferred_element_type,
        conv_general_dilated=conv_general_dilated,
        batched_planning=batched_planning,
        **conv_kwargs,
    )


def transposed_kernel(kernel, numbers, groups):
    """The kernel of a convolution's VJP: spatially flipped, the feature axes swapped
    within each group (``lax.conv_transpose``'s ``transpose_kernel`` for groups of 1)."""
    o_axis, i_axis = numbers.rhs_spec[0], numbers.rhs_spec[1]
    kernel = lax.rev(kernel, numbers.rhs_spec[2:])
    k = jnp.moveaxis(kernel, (o_axis, i_axis), (0, 1))
    out_f, in_per_group = k.shape[0], k.shape[1]
    spatial = k.shape[2:]
    k = k.reshape(groups, out_f // groups, in_per_group, *spatial)
    k = jnp.swapaxes(k, 1, 2).reshape(groups * in_per_group, out_f // groups, *spatial)
    return jnp.moveaxis(k, (0, 1), (o_axis, i_axis))


def folded_conv_transpose(
    x,
    kernel,
    strides,
    fold_pads,
    mode,
    numbers,
    *,
    rhs_dilation=None,
    feature_group_count=1,
    precision=None,
    preferred_element_type=None,
    output_padding=None,
):
    """The VJP of a convolution padded by ``fold_pads`` in ``mode``, as an op.

    ``kernel`` is already the transposed conv's kernel (see ``transposed_kernel``);
    ``output_padding``: per spatial axis, the trailing positions of the forward
    conv's padded input it never read (``fold_pads`` exclude them).

    In a mode other than zeros, it is the transpose of the derivative of that
    convolution as ``jaxpad._lowering.conv`` plans it (``_planned_vjp``), so that it
    runs the very program of ``conv``'s VJP. Otherwise (zeros, or pads the planned
    convolution does not take) the full transposed convolution covers the forward
    op's padded input and the transpose of ``jaxpad.pad`` folds it back onto the
    input (for zeros: crops it, which the convolution's own padding does without a
    copy).
    """
    window = [kernel.shape[a] for a in numbers.rhs_spec[2:]]
    dilation = rhs_dilation or (1,) * len(window)
    spans = [d * (k - 1) + 1 for k, d in zip(window, dilation)]

    def full_then_fold(x):
        return _full_then_fold(
            x,
            kernel,
            strides,
            fold_pads,
            mode,
            numbers,
            spans,
            dilation,
            feature_group_count,
            precision,
            preferred_element_type,
        )

    if mode != "constant" and preferred_element_type is None:
        planned = _planned_vjp(
            x,
            kernel,
            strides,
            fold_pads,
            mode,
            numbers,
            spans,
            dilation,
            feature_group_count,
            precision,
            output_padding or (0,) * len(window),
            full_then_fold,
        )
        if planned is not None:
            return planned
    return full_then_fold(x)


def _full_then_fold(
    x, kernel, strides, fold_pads, mode, numbers, spans, dilation, groups, precision, preferred
):
    """The full transposed convolution (by the transposed conv's ``kernel``), folded
    back onto the forward op's input by the transpose of ``jaxpad.pad``."""
    kwargs = dict(
        lhs_dilation=tuple(strides),
        rhs_dilation=tuple(dilation),
        dimension_numbers=numbers,
        feature_group_count=groups,
        precision=precision,
        preferred_element_type=preferred,
    )
    ones = (1,) * len(spans)
    if mode == "constant":
        padding = [(span - 1 - lo, span - 1 - hi) for span, (lo, hi) in zip(spans, fold_pads)]
        return _conv_lowering.conv_general_dilated(x, kernel, ones, padding, **kwargs)
    full = [(span - 1, span - 1) for span in spans]
    if (
        all(s == 1 for s in strides)
        and groups == 1
        and preferred is None
        and _conv_lowering.framed_applies(x.shape, kernel.shape, numbers, x.dtype)
    ):
        # The full convolution's output is larger than its input, which XLA:CPU keeps
        # off YNNPACK: as the VJP of conv does (table "The input gradient's frame" in
        # docs/performance.md), the "SAME" one plus the frame's strips.
        z = _conv_lowering.full_correlation(
            x, kernel, numbers, rhs_dilation=tuple(dilation), precision=precision
        )
    else:
        z = _conv_lowering.conv_general_dilated(x, kernel, ones, full, **kwargs)
    lo, hi = [0] * z.ndim, [0] * z.ndim
    shape = list(z.shape)
    for axis, (p_lo, p_hi) in zip(numbers.out_spec[2:], fold_pads):
        lo[axis], hi[axis] = p_lo, p_hi
        shape[axis] -= p_lo + p_hi
    fold = jax.linear_transpose(
        lambda v: pad_piece(v, lo, hi, mode), jax.ShapeDtypeStruct(tuple(shape), z.dtype)
    )
    return fold(z)[0]


def _planned_vjp(
    y,
    kernel,
    strides,
    fold_pads,
    mode,
    numbers,
    spans,
    dilation,
    groups,
    precision,
    adjust,
    lax_transposed,
):
    """The transposed convolution as the VJP of the planned convolution whose input
    gradient it is: padded by ``fold_pads`` (plus the unread ``adjust`` at the end) in
    ``mode``, by the transposed conv's ``kernel`` transposed back; None where that
    convolution is not one a user could run (a crop, or a pad past its axis).

    The plain full transposed convolution then fold ran as fast as conv's VJP in some
    processes and 1.6-2.2x slower in others at stride 2 (its temporaries 8.6 MiB
    against the VJP's 2.9 MiB; docs/performance.md, "Pools and conv_transpose"): the
    planner's derivative forms are chosen for that very convolution."""
    if not all(isinstance(d, (int, np.integer)) for d in (*y.shape, *kernel.shape)):
        return None  # a symbolic shape: its bounds cannot be checked here
    in_shape = list(y.shape)
    in_shape[numbers.out_spec[0]] = y.shape[numbers.lhs_spec[0]]
    in_shape[numbers.out_spec[1]] = kernel.shape[numbers.rhs_spec[0]]
    forward_pads = []
    for i, (y_axis, x_axis) in enumerate(zip(numbers.lhs_spec[2:], numbers.out_spec[2:])):
        lo, hi = fold_pads[i]
        n = (y.shape[y_axis] - 1) * strides[i] + spans[i] - lo - hi
        hi += adjust[i]
        out = (n + lo + hi - spans[i]) // strides[i] + 1
        if not (0 <= lo < n and 0 <= hi < n and out == y.shape[y_axis]):
            return None
        in_shape[x_axis] = n
        forward_pads.append((lo, hi))
    # Forward, the transposed conv's output layout is the input's and its input
    # layout the output's.
    forward_numbers = lax.ConvDimensionNumbers(numbers.out_spec, numbers.rhs_spec, numbers.lhs_spec)
    return _conv_lowering.lowered_conv_input_vjp(
        y,
        transposed_kernel(kernel, numbers, groups),
        in_shape,
        tuple(strides),
        forward_pads,
        mode,
        forward_numbers,
        lax_transposed,
        rhs_dilation=tuple(dilation),
        feature_group_count=groups,
        precision=precision,
    )


def conv(
    x: ArrayLike,
    kernel: ArrayLike,
    strides: IntOrSequence | None = None,
    policy: PaddingPolicy | None = None,
    pad_mode: str | None = None,
    dilation: IntOrSequence | None = None,
    dimension_numbers: lax.ConvGeneralDilatedDimensionNumbers | None = None,
    feature_group_count: int = 1,
    *,
    precision: lax.PrecisionLike = None,
    preferred_element_type: jnp.dtype | None = None,
) -> jax.Array:
    """Convolution (``lax.conv_general_dilated``) padded by ``policy`` in any pad mode.

    Args:
      x: the input, laid out as ``dimension_numbers`` says (lax's default: NCH...).
      kernel: the filter (lax's default layout: OIH...), of ``x``'s dtype.
      strides: stride per spatial axis, an int, or None for 1.
      policy: a ``jaxpad.PaddingPolicy``; VALID if None.
      pad_mode: how to fill the padding: a ``jaxpad.pad`` mode; None takes the
        policy's (``"wrap"`` for flax CIRCULAR, ``"reflect"`` for REFLECT, else
        ``"constant"``). PyTorch's ``padding_mode="reflect"`` is ``pad_mode="reflect"``,
        its ``"replicate"`` is ``"edge"`` and its ``"circular"`` is ``"wrap"``.
      dilation: kernel dilation per spatial axis.
      dimension_numbers: as in ``lax.conv_general_dilated``.
      feature_group_count: as in ``lax.conv_general_dilated``.
      precision: as in ``lax.conv_general_dilated``.
      preferred_element_type: as in ``lax.conv_general_dilated``.

    Returns:
      The convolution's output, of the policy's output size.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> x = jnp.arange(5.0).reshape(1, 1, 5)
      >>> kernel = jnp.ones((1, 1, 3))
      >>> jaxpad.nn.conv(x, kernel, 1, jaxpad.policies.flax("CIRCULAR"))
      Array([[[5., 3., 6., 9., 7.]]], dtype=float32)
    """
    return conv_impl(
        "jaxpad.nn.conv",
        x,
        kernel,
        strides,
        policy,
        pad_mode,
        dilation,
        dimension_numbers,
        feature_group_count,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def conv_transpose(
    x: ArrayLike,
    kernel: ArrayLike,
    strides: IntOrSequence | None = None,
    policy: PaddingPolicy | None = None,
    output_padding: IntOrSequence | None = None,
    dilation: IntOrSequence | None = None,
    dimension_numbers: lax.ConvGeneralDilatedDimensionNumbers | None = None,
    transpose_kernel: bool = False,
    pad_mode: str | None = None,
    feature_group_count: int = 1,
    *,
    precision: lax.PrecisionLike = None,
    preferred_element_type: jnp.dtype | None = None,
) -> jax.Array:
    """Transposed convolution: the VJP of ``conv`` with the same policy and pad mode.

    The output length per spatial axis is ``policy.reverse_output_shape``:
    ``(n - 1) * s + K - lo - hi + a`` with the forward pads ``(lo, hi)`` and the
    adjustment ``a`` (``output_padding``, PyTorch's name; TF/JAX SAME gives ``n * s``).
    In a mode other than ``"constant"`` the forward conv read its padding from the
    input, so the transpose adds what fell on the padding back onto the input
    positions it came from: for ``"wrap"`` the transposed conv folded around the
    period, for ``"reflect"`` around the mirror.

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
      pad_mode: the forward conv's ``jaxpad.pad`` mode; None takes the policy's.
      feature_group_count: the forward conv's feature groups.
      precision: as in ``lax.conv_general_dilated``.
      preferred_element_type: as in ``lax.conv_general_dilated``.

    Returns:
      The transposed convolution's output.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> x = jnp.ones((1, 1, 4))
      >>> jaxpad.nn.conv_transpose(x, jnp.ones((1, 1, 3)), 2, jaxpad.policies.jax("SAME")).shape
      (1, 1, 8)
      >>> circular = jaxpad.policies.flax("CIRCULAR")
      >>> y = jnp.array([[[1.0, 0.0, 0.0, 0.0]]])
      >>> jaxpad.nn.conv_transpose(y, jnp.ones((1, 1, 3)), 1, circular)
      Array([[[1., 1., 0., 1.]]], dtype=float32)
    """
    return conv_transpose_impl(
        "jaxpad.nn.conv_transpose",
        x,
        kernel,
        strides,
        policy,
        output_padding,
        dilation,
        dimension_numbers,
        transpose_kernel,
        pad_mode,
        feature_group_count,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def conv_impl(
    fn,
    x,
    kernel,
    strides,
    policy,
    pad_mode,
    dilation,
    dimension_numbers,
    feature_group_count,
    *,
    precision=None,
    preferred_element_type=None,
):
    """``conv`` under the public name ``fn`` (shared with the layer modules)."""
    x, kernel = jnp.asarray(x), jnp.asarray(kernel)
    policy = _policy(fn, policy)
    mode = resolve_mode(fn, policy, pad_mode)
    numbers, sizes, window, strides, dilation, groups = _conv_layout(
        fn, x, kernel, strides, dilation, dimension_numbers, feature_group_count
    )
    _check_features(fn, x, kernel, numbers, groups)
    policy.check_op(fn, "conv")
    spatial_pads = ask_policy(fn, policy, "pads", sizes, window, strides, dilation, op="conv")
    out_sizes = ask_policy(fn, policy, "output_shape", sizes, window, strides, dilation, op="conv")
    out = padded_conv(
        x,
        kernel,
        strides,
        spatial_pads,
        mode,
        numbers,
        rhs_dilation=dilation,
        feature_group_count=groups,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )
    limits = list(out.shape)
    for axis, size in zip(numbers.out_spec[2:], out_sizes):
        limits[axis] = size
    return lax.slice(out, (0,) * out.ndim, limits)


def conv_transpose_impl(
    fn,
    x,
    kernel,
    strides,
    policy,
    output_padding,
    dilation,
    dimension_numbers,
    transpose_kernel,
    pad_mode,
    feature_group_count,
    *,
    precision=None,
    preferred_element_type=None,
):
    """``conv_transpose`` under the public name ``fn`` (shared with the layer modules)."""
    x, kernel = jnp.asarray(x), jnp.asarray(kernel)
    policy = _policy(fn, policy)
    mode = resolve_mode(fn, policy, pad_mode)
    numbers, sizes, window, strides, dilation, groups = _conv_layout(
        fn, x, kernel, strides, dilation, dimension_numbers, feature_group_count
    )
    if transpose_kernel:
        forward_out = kernel.shape[numbers.rhs_spec[0]]
        if forward_out % groups:
            raise ValueError(
                f"{fn}: kernel's {forward_out} output features (axis {numbers.rhs_spec[0]} "
                f"of its shape {kernel.shape}) must be a multiple of "
                f"feature_group_count={groups}."
            )
        kernel = transposed_kernel(kernel, numbers, groups)
    note = " (after transpose_kernel)" if transpose_kernel else ""
    _check_features(fn, x, kernel, numbers, groups, note)
    policy.check_op(fn, "conv_transpose")
    reverse = ask_policy(
        fn, policy, "reverse_pads", sizes, window, strides, dilation, output_padding
    )
    # The trailing ``a`` positions of the forward op's padded input are never read:
    # folding onto (lo, hi - a) places the rest exactly as (lo, hi) would.
    fold_pads = [(lo, hi - a) for lo, hi, a in reverse]
    return folded_conv_transpose(
        x,
        kernel,
        strides,
        fold_pads,
        mode,
        numbers,
        rhs_dilation=dilation,
        feature_group_count=groups,
        precision=precision,
        preferred_element_type=preferred_element_type,
        output_padding=[a for _, _, a in reverse],
    )
