"""How each convolution jaxpad builds is lowered: the planner and the forms, per platform.

Every convolution of ``jaxpad.nn``, ``jaxpad.flax`` and ``jaxpad.equinox`` goes through
``lowered_conv`` (or its drop-in twin ``conv_general_dilated``). ``plan_conv`` picks a
form from static facts only (shapes, pads, strides, dilations, groups, dtype, layout)
for one platform, and ``build_conv`` builds it:

- ``"plain"``: pad the input in the mode with ``jaxpad.pad``, then the convolution with
  what padding is left (VALID after a pad in a mode other than zeros). This is what
  Flax and Equinox do, and every platform nobody has measured keeps it.
- ``"pad_slice"`` (XLA:CPU): the same, but the convolution gets one extra zero on the
  high side of one spatial axis and its one extra output row is sliced off. XLA:CPU
  runs a convolution whose padding is all zero on a path that allocates a large
  temporary per call, which the C library's default allocator gives back to the
  system and faults in again on every call; any non-zero padding avoids it.
- ``"shifted"`` (XLA:CPU, depthwise): the kernel's taps as multiply-adds of static
  slices of the padded input, which XLA fuses into one loop, several times faster
  than XLA:CPU's depthwise convolution.

Every form equals the plain one up to float rounding; the tests check values and
gradients of order 2 against it. The tables that set each rule are in
docs/performance.md, section "Convolutions".

Self-contained (it imports only ``jaxpad.pad``), so that it can move into a lowering
package of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad._pad import pad

FORMS = ("plain", "pad_slice", "shifted")

# Largest number of kernel taps the shifted form takes, at stride 1 and strided. Set by
# the table "Depthwise convolutions" in docs/performance.md: 3x3 to 7x7 (49 taps) won
# forward and gradient at stride 1, 3x3 and 5x5 at stride 2; larger kernels were not
# measured.
SHIFTED_MAX_TAPS = 49
SHIFTED_MAX_TAPS_STRIDED = 25

# Dtypes the shifted form takes: it accumulates in the input's dtype, where
# XLA:CPU's convolution accumulates half precision in float32.
_SHIFTED_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


@dataclasses.dataclass(frozen=True)
class ConvPlan:
    """The form of one convolution on one platform.

    Attributes:
      form: one of ``FORMS``.
      slice_axis: for ``"pad_slice"``, the spatial axis (0 for the first spatial axis
        of the layout) that gets the extra zero and loses the extra output row.
      reason: which rule decided it, for tests and for reading a plan.
    """

    form: str
    slice_axis: int | None = None
    reason: str = ""

    def __post_init__(self):
        if self.form not in FORMS:
            raise ValueError(f"ConvPlan: form must be one of {FORMS}; got {self.form!r}.")


def _is_symbolic(shape: Sequence[Any]) -> bool:
    return any(not isinstance(d, (int, np.integer)) for d in shape)


def conv_padding(pads, mode, lhs_dilation):
    """What padding the convolution itself gets once the input is padded in ``mode``.

    Zeros that lax can place (non-negative, or any with a dilated input, where a pad of
    the undilated input would mean something else) stay the convolution's own
    padding, without a padded copy; everything else is padded first, then VALID.
    """
    pads = [tuple(int(p) for p in pair) for pair in pads]
    dilated = lhs_dilation is not None and any(d != 1 for d in lhs_dilation)
    if mode == "constant" and (dilated or all(lo >= 0 and hi >= 0 for lo, hi in pads)):
        return pads, False
    return [(0, 0)] * len(pads), True


def plan_conv(
    x_shape: Sequence[Any],
    kernel_shape: Sequence[Any],
    numbers: lax.ConvDimensionNumbers,
    pads: Sequence[tuple[int, int]],
    mode: str,
    strides: Sequence[int],
    *,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    feature_group_count: int = 1,
    dtype: Any = np.float32,
    preferred_element_type: Any = None,
    default_conv: bool = True,
    sharded: bool = False,
    platform: str | None = "cpu",
) -> ConvPlan:
    """The form of a convolution of ``x_shape`` by ``kernel_shape`` padded by ``pads``
    in ``mode``, on ``platform`` (``"cpu"``, or None for every other platform).

    ``default_conv`` is False when the caller supplies its own convolution function or
    arguments lax's planner cannot see through (a sharding): it is called as given.
    ``sharded`` is True when an operand is sharded explicitly on a mesh axis: the
    forms' slices would need that axis to divide sizes they change.
    """
    spatial = len(numbers.lhs_spec) - 2
    strides = tuple(strides)
    lhs_dilation = tuple(lhs_dilation or (1,) * spatial)
    rhs_dilation = tuple(rhs_dilation or (1,) * spatial)
    if platform != "cpu":
        return ConvPlan("plain", reason="unmeasured platform: pad, then conv (as Flax)")
    if _is_symbolic(x_shape) or _is_symbolic(kernel_shape):
        return ConvPlan("plain", reason="symbolic sizes")
    if not default_conv:
        return ConvPlan("plain", reason="a caller's own conv function or arguments")
    if sharded:
        return ConvPlan("plain", reason="explicitly sharded operands")
    window = [int(kernel_shape[a]) for a in numbers.rhs_spec[2:]]
    spans = [d * (k - 1) + 1 for k, d in zip(window, rhs_dilation)]
    padding, _ = conv_padding(pads, mode, lhs_dilation)
    dtype = np.dtype(dtype)
    out_dtype = dtype if preferred_element_type is None else np.dtype(preferred_element_type)
    features = int(x_shape[numbers.lhs_spec[1]])
    kernel_in = int(kernel_shape[numbers.rhs_spec[1]])
    kernel_out = int(kernel_shape[numbers.rhs_spec[0]])
    undilated_input = all(d == 1 for d in lhs_dilation)
    sizes = [int(x_shape[a]) for a in numbers.lhs_spec[2:]]
    if any(n + lo + hi < span for n, (lo, hi), span in zip(sizes, pads, spans)):
        # No output: lax's own error (or empty result) for it, as before.
        return ConvPlan("plain", reason="the window does not fit the padded input")
    depthwise = feature_group_count == features and kernel_in == 1 and kernel_out == features
    # Table "Depthwise convolutions": the shifted taps beat lax's depthwise conv
    # forward and backward up to 7x7 at stride 1, up to 5x5 at stride 2.
    strided = any(s != 1 for s in strides)
    if (
        depthwise
        and features > 1
        and undilated_input
        and dtype in _SHIFTED_DTYPES
        and out_dtype == dtype
        and 1 < int(np.prod(window)) <= (SHIFTED_MAX_TAPS_STRIDED if strided else SHIFTED_MAX_TAPS)
    ):
        return ConvPlan("shifted", reason="depthwise, at most 7x7 taps (strided: 5x5)")
    # Table "Padded convolutions": an all-zero padding is XLA:CPU's slow path for a
    # window wider than 1 at stride 1 in 2-D and 3-D; at stride 2, for 1x1 and in 1-D
    # (1.3x forward, 3x gradient at (16, 1024, 64)) the plain form won, and grouped
    # convs (32 groups of 4: gradient 1.25-1.43x against 1.23-1.24x) showed no gain.
    wide = [i for i, span in enumerate(spans) if span > 1]
    if (
        wide
        and spatial >= 2
        and feature_group_count == 1
        and undilated_input
        and all(s == 1 for s in strides)
        and all(lo == 0 and hi == 0 for lo, hi in padding)
    ):
        return ConvPlan(
            "pad_slice", wide[0], reason="2-D/3-D, ungrouped, stride 1, all-zero conv padding"
        )
    return ConvPlan("plain", reason="no measured form beats pad, then conv")


def build_conv(
    plan: ConvPlan,
    x: jax.Array,
    kernel: jax.Array,
    strides: Sequence[int],
    pads: Sequence[tuple[int, int]],
    mode: str,
    numbers: lax.ConvDimensionNumbers,
    *,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    feature_group_count: int = 1,
    precision: Any = None,
    preferred_element_type: Any = None,
    conv_general_dilated: Callable[..., jax.Array] = lax.conv_general_dilated,
    **conv_kwargs: Any,
) -> jax.Array:
    """The convolution ``plan`` says: equal to the plain form for the same arguments."""
    padding, prepad = conv_padding(pads, mode, lhs_dilation)
    if prepad:
        lo, hi = [0] * x.ndim, [0] * x.ndim
        for axis, (p_lo, p_hi) in zip(numbers.lhs_spec[2:], pads):
            lo[axis], hi[axis] = int(p_lo), int(p_hi)
        x = pad(x, lo, hi, mode)
    if plan.form == "shifted":
        if any(p != (0, 0) for p in padding):
            lo, hi = [0] * x.ndim, [0] * x.ndim
            for axis, (p_lo, p_hi) in zip(numbers.lhs_spec[2:], padding):
                lo[axis], hi[axis] = p_lo, p_hi
            x = pad(x, lo, hi, "constant")
        return _shifted_taps(x, kernel, numbers, strides, rhs_dilation)
    slice_axis = None
    if plan.form == "pad_slice":
        axis = plan.slice_axis or 0
        padding = list(padding)
        padding[axis] = (padding[axis][0], padding[axis][1] + 1)
        slice_axis = numbers.out_spec[2 + axis]
    if preferred_element_type is not None:
        conv_kwargs["preferred_element_type"] = preferred_element_type
    y = conv_general_dilated(
        x,
        kernel,
        tuple(strides),
        padding,
        lhs_dilation=None if lhs_dilation is None else tuple(lhs_dilation),
        rhs_dilation=None if rhs_dilation is None else tuple(rhs_dilation),
        dimension_numbers=numbers,
        feature_group_count=feature_group_count,
        precision=precision,
        **conv_kwargs,
    )
    if slice_axis is not None:
        # At stride 1 the extra zero adds exactly one output, the last.
        y = lax.slice_in_dim(y, 0, y.shape[slice_axis] - 1, axis=slice_axis)
    return y


def _shifted_taps(xp, kernel, numbers, strides, rhs_dilation):
    """A depthwise VALID convolution of the padded ``xp``, in the layout ``numbers``
    asks for (``_depthwise`` computes it in ``xp``'s)."""
    window = [kernel.shape[a] for a in numbers.rhs_spec[2:]]
    dilation = tuple(int(d) for d in rhs_dilation or (1,) * len(window))
    strides = tuple(int(s) for s in strides)
    # The kernel as (features, *window), features in the input's feature order.
    taps = jnp.moveaxis(kernel, numbers.rhs_spec, range(kernel.ndim))[:, 0]
    geometry = (tuple(numbers.lhs_spec[2:]), int(numbers.lhs_spec[1]), dilation, strides)
    if any(s != 1 for s in strides):
        # Strided: autodiff's gradient (strided slices transpose into interior pads)
        # measured 0.32-0.48x lax's; the custom rule below is written for stride 1.
        total = _taps_sum(geometry, xp, taps)
    else:
        total = _depthwise(geometry, xp, taps)
    return jnp.moveaxis(total, numbers.lhs_spec, numbers.out_spec)


def _taps_sum(geometry, xp, taps):
    """The sum over the kernel's taps of a static slice of ``xp`` times the tap's
    per-feature weights (``taps``: (features, *window)); XLA fuses it into one loop."""
    spatial_axes, feature_axis, dilation, strides = geometry
    window = taps.shape[1:]
    out_sizes = [
        (xp.shape[a] - d * (k - 1) - 1) // s + 1
        for a, k, d, s in zip(spatial_axes, window, dilation, strides)
    ]
    view = [1] * xp.ndim
    view[feature_axis] = taps.shape[0]
    total = None
    for offset in np.ndindex(*window):
        start = [0] * xp.ndim
        limit = list(xp.shape)
        step = [1] * xp.ndim
        for a, o, d, n, s in zip(spatial_axes, offset, dilation, out_sizes, strides):
            start[a], limit[a], step[a] = o * d, o * d + (n - 1) * s + 1, s
        term = lax.slice(xp, start, limit, step) * taps[(slice(None), *offset)].reshape(view)
        total = term if total is None else total + term
    return total


@partial(jax.custom_jvp, nondiff_argnums=(0,))
def _depthwise(geometry, xp, taps):
    return _taps_sum(geometry, xp, taps)


@_depthwise.defjvp
def _depthwise_jvp(geometry, primals, tangents):
    """The tangent in ``xp`` is written as the transpose of the input gradient wanted:
    reverse mode transposes it back into that gradient, the same shifted sum with the
    flipped kernel over the cotangent padded by the window, where autodiff of
    ``_taps_sum`` would add one padded copy of the cotangent per tap. (A ``custom_vjp``
    would do the same for reverse mode but refuse ``jax.jvp``.) The tangent in the
    kernel transposes into one reduction per tap, as autodiff's."""
    xp, taps = primals
    d_xp, d_taps = tangents
    spatial_axes, _, dilation, _ = geometry  # stride 1 only
    out = _depthwise(geometry, xp, taps)
    spans = [d * (k - 1) for k, d in zip(taps.shape[1:], dilation)]
    flipped = lax.rev(taps, tuple(range(1, taps.ndim)))

    def input_gradient(ct):
        widths = [(0, 0, 0)] * ct.ndim
        for axis, span in zip(spatial_axes, spans):
            widths[axis] = (span, span, 0)
        return _taps_sum(geometry, lax.pad(ct, np.zeros((), ct.dtype), widths), flipped)

    through_input = jax.linear_transpose(input_gradient, jax.ShapeDtypeStruct(out.shape, out.dtype))
    return out, through_input(d_xp)[0] + _taps_sum(geometry, xp, d_taps)


def _explicitly_sharded(value) -> bool:
    """Whether ``value``'s type names a mesh axis (explicit sharding, ``jax.set_mesh``)."""
    spec = getattr(getattr(jax.typeof(value), "sharding", None), "spec", None)
    return spec is not None and any(entry is not None for entry in spec)


def lowered_conv(
    x: jax.Array,
    kernel: jax.Array,
    strides: Sequence[int],
    pads: Sequence[tuple[int, int]],
    mode: str,
    numbers: lax.ConvDimensionNumbers,
    *,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    feature_group_count: int = 1,
    precision: Any = None,
    preferred_element_type: Any = None,
    conv_general_dilated: Callable[..., jax.Array] | None = None,
    **conv_kwargs: Any,
) -> jax.Array:
    """``conv_general_dilated`` with the spatial ``pads`` filled in ``mode``, in the form
    the planner picks per platform (one program for CPU and one for the others)."""
    conv_kwargs = {k: v for k, v in conv_kwargs.items() if v is not None}
    default_conv = (
        conv_general_dilated is None or conv_general_dilated is lax.conv_general_dilated
    ) and not conv_kwargs
    options: dict[str, Any] = dict(
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        feature_group_count=feature_group_count,
    )
    plans = {
        platform: plan_conv(
            x.shape,
            kernel.shape,
            numbers,
            pads,
            mode,
            strides,
            dtype=x.dtype,
            preferred_element_type=preferred_element_type,
            default_conv=default_conv,
            sharded=_explicitly_sharded(x) or _explicitly_sharded(kernel),
            platform=platform,
            **options,
        )
        for platform in ("cpu", None)
    }

    def build(plan):
        def run(x, kernel):
            return build_conv(
                plan,
                x,
                kernel,
                strides,
                pads,
                mode,
                numbers,
                precision=precision,
                preferred_element_type=preferred_element_type,
                conv_general_dilated=conv_general_dilated or lax.conv_general_dilated,
                **options,
                **conv_kwargs,
            )

        return run

    if plans["cpu"] == plans[None]:
        return build(plans[None])(x, kernel)
    return lax.platform_dependent(x, kernel, cpu=build(plans["cpu"]), default=build(plans[None]))


def conv_general_dilated(
    lhs: Any,
    rhs: Any,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    feature_group_count: int = 1,
    precision: Any = None,
    preferred_element_type: Any = None,
    *,
    conv: Callable[..., jax.Array] | None = None,
    **kwargs: Any,
) -> jax.Array:
    """A drop-in ``lax.conv_general_dilated`` (zero padding) through the planner; ``conv``
    is the caller's convolution function (lax's if None), called as given where the
    planner keeps the plain form."""
    numbers = lax.conv_dimension_numbers(lhs.shape, rhs.shape, dimension_numbers)
    spatial = lhs.ndim - 2
    dilated = lhs_dilation is not None and any(d != 1 for d in lhs_dilation)
    if isinstance(padding, str):
        if dilated or _is_symbolic(lhs.shape):
            # lax's own reading of a string with a dilated input: nothing to plan.
            return (conv or lax.conv_general_dilated)(
                lhs,
                rhs,
                window_strides,
                padding,
                lhs_dilation,
                rhs_dilation,
                dimension_numbers,
                feature_group_count,
                precision=precision,
                preferred_element_type=preferred_element_type,
                **kwargs,
            )
        sizes = [lhs.shape[a] for a in numbers.lhs_spec[2:]]
        window = [rhs.shape[a] for a in numbers.rhs_spec[2:]]
        dil = rhs_dilation or (1,) * spatial
        spans = [d * (k - 1) + 1 for k, d in zip(window, dil)]
        padding = lax.padtype_to_pads(sizes, spans, window_strides, padding)
    return lowered_conv(
        lhs,
        rhs,
        window_strides,
        [(int(lo), int(hi)) for lo, hi in padding],
        "constant",
        numbers,
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        feature_group_count=feature_group_count,
        precision=precision,
        preferred_element_type=preferred_element_type,
        conv_general_dilated=conv,
        **kwargs,
    )
