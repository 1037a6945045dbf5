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
- ``"grouped_taps"`` (XLA:CPU, a few channels per group): the same shifted
  multiply-adds, one per tap and input channel of a group.
- ``"matmul"`` (XLA:CPU, 1x1 kernels): one matrix product over the features.
- ``"rows"`` (a tangent form, for a few input channels): the kernel's first spatial
  axis stacked into the features (the input's row-shifted copies side by side), then
  a convolution over the other axes.
- ``"block_diagonal"`` (a tangent form, grouped): the ungrouped convolution by the
  kernel spread into a block-diagonal one.
- ``"framed"`` (a tangent form, 2-D, stride 1): the kernel's derivative as the value's
  form, the input's gradient as the zero-padded ("SAME") transposed convolution of the
  cotangent, which is the padded input's gradient inside the frame, and the frame
  (the pad's width) from thin strips of the cotangent. Reverse mode of a VALID conv
  otherwise transposes into one convolution whose output (the padded input) is larger
  than its input (the cotangent), which XLA:CPU keeps off its YNNPACK path.
- ``"border"`` (XLA:CPU, strided): the convolution of the unpadded input with its pads
  as the convolution's own zeros, then the output's border rows and columns (those
  whose windows read a pad) recomputed from thin strips of the input padded in the
  mode (``jaxpad.pad`` with negative pads: only the strip). No pass over the whole
  input for the pad.
- ``"banded"`` (a value form, XLA:CPU, stride 1): the input padded in the mode along
  every spatial axis but the first, the convolution with the first axis's pads as its
  own zeros (off the all-zero padding path, no extra output to slice off), and the
  output rows that read those pads recomputed from thin strips of the input padded in
  the mode, both strips in one convolution where their shapes match. One pass over
  the input for the pad where ``pad_slice`` takes two, and no slice. Its derivatives
  are those of ``pad_slice`` with the plan's tangents.
- ``"ghost"`` (a tangent form, strided): the convolution of the unpadded input with
  its pads as the convolution's own zeros, plus the convolution of the pad's ghost
  cells alone (the mode's values; the input's cells zero) from thin strips, added to
  the outputs that read them. Reverse mode hands the zero-padded convolution the whole
  cotangent (its kernel gradient has a non-zero padding, off XLA:CPU's all-zero
  padding path) and each strip its slice.

A plan may name a ``tangent`` form: the value is computed in ``form`` and the
derivatives (forward and reverse, every order) in ``tangent``, through a
``custom_jvp`` whose tangent is the ``tangent`` form, linear in each operand; and a
``kernel_tangent`` form, where the derivatives through the kernel take another form
than those through the input.

A layer that runs per example under ``jax.vmap`` (Equinox's) asks for
``batched_planning``: its convolution is one primitive whose batching rule merges the
mapped axis into the batch and plans again, so the planner sees the batch the program
runs.

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
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir, xla

from jaxpad._compat import CONV_FORMS_SECOND_DERIVATIVES_WRONG
from jaxpad._pad import pad

FORMS = (
    "plain",
    "pad_slice",
    "shifted",
    "grouped_taps",
    "matmul",
    "rows",
    "block_diagonal",
    "framed",
    "border",
    "ghost",
    "banded",
)

# Largest number of kernel taps the shifted form takes, at stride 1 and strided. Set by
# the table "Depthwise convolutions" in docs/performance.md: 3x3 to 7x7 (49 taps) won
# forward and gradient at stride 1, 3x3 and 5x5 at stride 2; larger kernels were not
# measured.
SHIFTED_MAX_TAPS = 49
SHIFTED_MAX_TAPS_STRIDED = 25

# Dtypes the shifted form takes: it accumulates in the input's dtype, where
# XLA:CPU's convolution accumulates half precision in float32.
_SHIFTED_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))

# Grouped convolutions: at most this many input and output channels per group take
# the block-diagonal tangent, and at most GROUPED_TAPS_MAX_GROUP_FEATURES input channels
# per group (channels-last) and GROUPED_MAX_TAPS taps the grouped taps as the value. Set
# by the table "Grouped convolutions" in docs/performance.md: lax's grouped gradient
# took 50-100x the block-diagonal one's at 4 and 8 channels per group; the grouped taps'
# value measured 0.2x lax's at 4 channels per group (NHWC) and 6.3x at 8 (NCHW).
GROUPED_MAX_GROUP_FEATURES = 8
GROUPED_TAPS_MAX_GROUP_FEATURES = 4
GROUPED_MAX_TAPS = 9

# Input channels at most this many (an image's stem) take the row-stacked tangent.
# Set by the table "Stem convolutions" in docs/performance.md: at 3 channels, 7x7, the
# input gradient of the padded conv measured 5.3x the zero-padded one's, row-stacked
# 1.2x.
ROWS_MAX_FEATURES = 4
# Windows of at most this many taps per axis take the kernel's derivatives of such a
# convolution in its value's form (pad_slice), the input's in rows. Set by the table
# "Stem derivatives" in docs/performance.md: at 3x3 the gradient measured 0.67-1.40x of
# the zero-padded one's against 0.75-1.52x with rows for both (CPU time); at 5x5 and 7x7
# it lost (1.20-1.27 against 1.17-1.23).
STEM_KERNEL_PAD_SLICE_MAX_WINDOW = 3

# The framed input gradient: 2-D, float32, a window of 3 per axis (any dilation), at
# least this many input and output channels. Set by the table "The input gradient's
# frame" in docs/performance.md: 0.47-1.28x of the zero-padded gradient against
# 0.51-1.38x for autodiff of pad_slice at 3x3 NHWC with 32-128 channels (CPU time); it
# lost at 5x5 (1.45 against 1.30) and tied at 8-16 channels.
FRAMED_MIN_FEATURES = 32
FRAMED_WINDOW = 3
# Channels-first, only from this many elements in the padded input (8 MiB in float32):
# there autodiff's gradient kept temporaries past glibc's 32 MiB mmap ceiling (33 MiB,
# 8,555 page faults per call at (8, 64, 64, 64)) and the framed one won at four shapes
# of 8.3-9.8 MiB (1.14-1.22x against 1.28-1.79x, CPU time); it lost at four of 1.1-4.4
# MiB. Same table.
FRAMED_CHANNELS_FIRST_MIN_ELEMENTS = 2**21

# The border form's value: 2-D strided convolutions with a window of at most this
# many taps per axis. Set by the table "The strided border" in docs/performance.md: at
# 3x3 stride 2, channels-last, 32-128 channels, its forward measured 1.05-1.38x of the
# zero-padded conv against 1.23-1.83x for pad_slice (CPU time); at 5x5 it lost
# (1.43-1.54 against 1.35-1.42), and channels-first (1.05-1.17 against 0.75-1.00).
BORDER_MAX_WINDOW = 3

# The banded value: 2-D stride-1 undilated convolutions, channels last, after a pad in a
# mode, with a window of exactly BANDED_WINDOW taps per axis and at most
# BANDED_MAX_FEATURES input and output channels. Set by the table "The banded value" in
# docs/performance.md: at 3x3 with 8-64 channels its forward measured 1.08-1.37x of the
# zero-padded conv against 1.11-1.51x for pad_slice (CPU time); at 128 channels it lost
# (1.10-1.15 against 1.07-1.14), at 5x5 (1.28 against 1.11), and dilated it tied or lost.
BANDED_WINDOW = 3
BANDED_MAX_FEATURES = 64

# The ghost form's kernel derivatives for strided convolutions of the extra-zero value
# (pad_slice) whose windows tile the padded input exactly: windows of at most this many
# taps per axis. Set by the table "Strided derivatives" in docs/performance.md: at 5x5
# stride 2, channels-last, the gradient measured 1.08-1.26x of the zero-padded conv's
# against 1.37-1.49x with the plain form's derivatives (CPU time); larger windows were
# not measured.
GHOST_KERNEL_MAX_WINDOW = 5


@dataclasses.dataclass(frozen=True)
class ConvPlan:
    """The form of one convolution on one platform.

    Attributes:
      form: one of ``FORMS``.
      slice_axis: for ``"pad_slice"``, the spatial axis (0 for the first spatial axis
        of the layout) that gets the extra zero and loses the extra output row.
      reason: which rule decided it, for tests and for reading a plan.
      tangent: the form the derivatives are computed in (None: autodiff of ``form``).
      kernel_tangent: the form the derivatives through the kernel are computed in,
        where it is not ``tangent`` (None: ``tangent``'s); needs a ``tangent``.
    """

    form: str
    slice_axis: int | None = None
    reason: str = ""
    tangent: str | None = None
    kernel_tangent: str | None = None

    def __post_init__(self):
        if self.form not in FORMS:
            raise ValueError(f"ConvPlan: form must be one of {FORMS}; got {self.form!r}.")
        if self.tangent is not None and self.tangent not in FORMS:
            raise ValueError(
                f"ConvPlan: tangent must be None or one of {FORMS}; got {self.tangent!r}."
            )
        if self.kernel_tangent is not None and (
            self.kernel_tangent not in FORMS or self.tangent is None
        ):
            raise ValueError(
                "ConvPlan: kernel_tangent must be None or, with a tangent, one of "
                f"{FORMS}; got {self.kernel_tangent!r} (tangent {self.tangent!r})."
            )


def _is_symbolic(shape: Sequence[Any]) -> bool:
    return any(not isinstance(d, (int, np.integer)) for d in shape)


def _reads_a_high_pad(sizes, pads, spans, strides):
    """Whether an output of the convolution reads its input's high pad on some axis."""
    for n, (lo, hi), span, s in zip(sizes, pads, spans, strides):
        last = (n + lo + hi - span) // s * s + span  # one past the last row read
        if last > lo + n:
            return True
    return False


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
    if CONV_FORMS_SECOND_DERIVATIVES_WRONG:
        return ConvPlan("plain", reason="jax < 0.8: the other forms' second derivatives")
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
    taps = int(np.prod(window))
    elementwise = dtype in _SHIFTED_DTYPES and out_dtype == dtype
    if (
        depthwise
        and features > 1
        and undilated_input
        and elementwise
        and 1 < taps <= (SHIFTED_MAX_TAPS_STRIDED if strided else SHIFTED_MAX_TAPS)
    ):
        return ConvPlan("shifted", reason="depthwise, at most 7x7 taps (strided: 5x5)")
    # Table "Grouped convolutions": XLA:CPU's grouped conv's gradient is 50-100x
    # slower than the block-diagonal ungrouped one; the grouped taps' value is 0.2x of
    # lax's with 4 channels per group in NHWC and lost in NCHW. Measured in 2-D at 3x3,
    # stride 1.
    group_out = kernel_out // feature_group_count
    # The forms that work channels-last were measured in NHWC only (NCHW would add two
    # transposes).
    channels_last = (
        numbers.lhs_spec[1] == len(x_shape) - 1 and numbers.out_spec[1] == len(x_shape) - 1
    )
    if (
        feature_group_count > 1
        and spatial == 2
        and not depthwise
        and 2 <= kernel_in <= GROUPED_MAX_GROUP_FEATURES
        and group_out <= GROUPED_MAX_GROUP_FEATURES
        and undilated_input
        and not strided
        and elementwise
        and 1 < taps <= GROUPED_MAX_TAPS
    ):
        if channels_last and kernel_in <= GROUPED_TAPS_MAX_GROUP_FEATURES:
            return ConvPlan(
                "grouped_taps",
                reason="grouped, 2-4 channels per group, channels last, 3x3, stride 1",
                tangent="block_diagonal",
            )
        return ConvPlan(
            "plain",
            reason="grouped, at most 8 channels per group, 3x3, stride 1: lax's value",
            tangent="block_diagonal",
        )
    # Table "Pointwise convolutions": a 1x1 convolution as one matrix product measured
    # 0.5-1.0x forward and 0.1-0.4x gradient of lax's 1x1 conv (NHWC, 2-D).
    if (
        taps == 1
        and spatial == 2
        and channels_last
        and feature_group_count == 1
        and undilated_input
        and not strided
        and dtype in _SHIFTED_DTYPES
    ):
        return ConvPlan("matmul", reason="1x1, ungrouped, stride 1, channels last")
    # Table "Padded convolutions": an all-zero padding is XLA:CPU's slow path for a
    # window wider than 1 in 2-D and 3-D; in 1-D (1.3x forward, 3x gradient at
    # (16, 1024, 64)) the plain form won.
    wide = [i for i, span in enumerate(spans) if span > 1]
    # Table "The strided border": strided 3x3 channels-last after a pad in a mode, the
    # zero-padded conv plus the border recomputed from strips won the value against the
    # extra zero (no pass over the input for the pad). Table "Strided derivatives": the
    # kernel's in the ghost form won at every shape measured; the input's in the border
    # form won where no output reads the high pad and lost where one does (odd sizes at
    # stride 2), where the plain form's is kept.
    if (
        spatial == 2
        and strided
        and feature_group_count == 1
        and undilated_input
        and all(d == 1 for d in rhs_dilation)
        and channels_last
        and mode != "constant"
        and all(lo >= 0 and hi >= 0 for lo, hi in pads)
        and all(1 < k <= BORDER_MAX_WINDOW for k in window)
        and elementwise
    ):
        if _reads_a_high_pad(sizes, pads, spans, strides):
            return ConvPlan(
                "border",
                reason="2-D, strided, 3x3, channels last, in a mode, a high band: "
                "input derivatives plain, kernel's ghost",
                tangent="plain",
                kernel_tangent="ghost",
            )
        return ConvPlan(
            "border",
            reason="2-D, strided, 3x3, channels last, in a mode: input derivatives "
            "border, kernel's ghost",
            tangent="border",
            kernel_tangent="ghost",
        )
    # Table "Strided convolutions": strided, the extra zero won the value but not the
    # derivatives, which stay the plain form's.
    if (
        wide
        and spatial >= 2
        and feature_group_count == 1
        and undilated_input
        and strided
        and all(lo == 0 and hi == 0 for lo, hi in padding)
    ):
        # Table "Strided derivatives": where the windows tile the padded input exactly
        # (its size minus the window a multiple of the stride on every axis), the plain
        # form's kernel gradient is a convolution with an all-zero padding, XLA:CPU's
        # slow path; the ghost form's kernel derivatives won there at 5x5 (channels
        # last) and lost elsewhere.
        if (
            spatial == 2
            and channels_last
            and mode != "constant"
            and all(lo >= 0 and hi >= 0 for lo, hi in pads)
            and all(d == 1 for d in rhs_dilation)
            and all(k <= GHOST_KERNEL_MAX_WINDOW for k in window)
            and all(
                (n + lo + hi - k) % s == 0
                for n, (lo, hi), k, s in zip(sizes, pads, window, strides)
            )
            and elementwise
        ):
            return ConvPlan(
                "pad_slice",
                wide[0],
                reason="2-D, strided, channels last, windows tiling the padded input: "
                "input derivatives plain, kernel's ghost",
                tangent="plain",
                kernel_tangent="ghost",
            )
        return ConvPlan(
            "pad_slice",
            wide[0],
            reason="2-D/3-D, ungrouped, strided, all-zero conv padding: derivatives plain",
            tangent="plain",
        )
    if (
        wide
        and spatial >= 2
        and feature_group_count == 1
        and undilated_input
        and not strided
        and all(lo == 0 and hi == 0 for lo, hi in padding)
    ):
        # Table "Stem convolutions": with a few input channels the padded conv's
        # input gradient is slow in every conv form; the rows stacked into the
        # features are not.
        if (
            spatial == 2
            and channels_last
            and kernel_in <= ROWS_MAX_FEATURES
            and window[0] > 1
            and all(d == 1 for d in rhs_dilation)
            and elementwise
        ):
            # Table "Stem derivatives": up to 3x3 the kernel's derivatives in the value's
            # form (the extra zero) beat the rows'; at 5x5 and 7x7 they did not.
            if all(k <= STEM_KERNEL_PAD_SLICE_MAX_WINDOW for k in window):
                return ConvPlan(
                    "pad_slice",
                    wide[0],
                    reason="2-D, at most 4 input channels, channels last, 3x3: input "
                    "derivatives as rows, kernel's pad_slice",
                    tangent="rows",
                    kernel_tangent="pad_slice",
                )
            return ConvPlan(
                "pad_slice",
                wide[0],
                reason="2-D, at most 4 input channels, channels last: derivatives as rows",
                tangent="rows",
            )
        # Table "The banded value": 3x3 channels-last in a mode, up to 64 channels, the
        # first axis's pads as the convolution's own zeros and its border rows from
        # strips beat the extra zero's value (one pass for the pad instead of two, and
        # no slice); the derivatives stay the extra zero's (the frame's where it applies).
        value = (
            "banded"
            if (
                spatial == 2
                and channels_last
                and mode != "constant"
                and all(lo >= 0 and hi >= 0 for lo, hi in pads)
                and all(d == 1 for d in rhs_dilation)
                and all(k == BANDED_WINDOW for k in window)
                and max(kernel_in, kernel_out) <= BANDED_MAX_FEATURES
                and sizes[0] >= spans[0]
                and elementwise
            )
            else "pad_slice"
        )
        banded = ", banded value" if value == "banded" else ""
        # Table "The input gradient's frame": reverse mode of the VALID conv is one
        # convolution whose output (the padded input) is larger than its input,
        # which XLA:CPU keeps off YNNPACK; the "SAME" one plus the frame's strips
        # won at 3x3 channels-last, and channels-first from 8 MiB.
        padded_elements = int(x_shape[numbers.lhs_spec[0]]) * features
        for n, (lo, hi) in zip(sizes, pads):
            padded_elements *= max(n + lo + hi, 0)
        if (
            spatial == 2
            and (channels_last or padded_elements >= FRAMED_CHANNELS_FIRST_MIN_ELEMENTS)
            and dtype == np.dtype(np.float32)
            and out_dtype == dtype
            and all(k == FRAMED_WINDOW for k in window)
            and min(kernel_in, kernel_out) >= FRAMED_MIN_FEATURES
        ):
            return ConvPlan(
                value,
                wide[0],
                reason="2-D, 3x3, float32, 32+ channels, channels last or 8 MiB: framed" + banded,
                tangent="framed",
            )
        return ConvPlan(
            value,
            wide[0],
            reason="2-D/3-D, ungrouped, stride 1, all-zero conv padding" + banded,
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
    # Forms built from the unpadded input (or, banded, one padded axis) have their own
    # builders; the rest pad in the mode here.
    if plan.form == "banded":
        builder = _banded_conv
    elif plan.kernel_tangent is not None or _UNPADDED.intersection((plan.form, plan.tangent)):
        builder = _unpadded_conv
    else:
        builder = None
    if builder is not None:
        return builder(
            plan,
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
            **conv_kwargs,
        )
    padding, prepad = conv_padding(pads, mode, lhs_dilation)
    if prepad:
        lo, hi = [0] * x.ndim, [0] * x.ndim
        for axis, (p_lo, p_hi) in zip(numbers.lhs_spec[2:], pads):
            lo[axis], hi[axis] = int(p_lo), int(p_hi)
        x = pad(x, lo, hi, mode)
    if preferred_element_type is not None:
        conv_kwargs["preferred_element_type"] = preferred_element_type
    options = dict(
        strides=tuple(int(s) for s in strides),
        padding=padding,
        numbers=numbers,
        lhs_dilation=None if lhs_dilation is None else tuple(lhs_dilation),
        rhs_dilation=None if rhs_dilation is None else tuple(rhs_dilation),
        feature_group_count=feature_group_count,
        precision=precision,
        conv_general_dilated=conv_general_dilated,
        conv_kwargs=conv_kwargs,
    )

    def form(name):
        return partial(_padded_conv, name, plan.slice_axis, **options)

    if plan.tangent is None:
        return form(plan.form)(x, kernel)
    if plan.tangent == "framed":
        if (
            any(p != (0, 0) for p in padding)
            or any(int(s) != 1 for s in strides)
            or any(d != 1 for d in lhs_dilation or ())
            or feature_group_count != 1
        ):
            # Written for a stride-1 ungrouped VALID convolution of the padded input
            # (where the planner names it); anything else differentiates its value.
            return form(plan.form)(x, kernel)
        framed = dict(numbers=numbers, rhs_dilation=options["rhs_dilation"])
        pieces = partial(
            _framed_pieces,
            precision=precision,
            preferred_element_type=preferred_element_type,
            **framed,
        )
        split = partial(_framed_split, kernel_shape=kernel.shape, **framed)
        return _with_input_gradient(form(plan.form), pieces, split)(x, kernel)
    return _with_tangent(form(plan.form), form(plan.tangent))(x, kernel)


def _lax_conv(strides, numbers, options):
    """``lax.conv_general_dilated`` with the plan's strides, layout and ``options``, as
    ``conv(piece, kernel, padding)``: what the strip forms convolve their pieces with."""
    conv_options = dict(
        lhs_dilation=options["lhs_dilation"],
        rhs_dilation=options["rhs_dilation"],
        feature_group_count=options["feature_group_count"],
        precision=options["precision"],
    )
    if options["preferred_element_type"] is not None:
        conv_options["preferred_element_type"] = options["preferred_element_type"]

    def conv(piece, kernel, padding):
        return lax.conv_general_dilated(
            piece, kernel, strides, padding, dimension_numbers=numbers, **conv_options
        )

    return conv


# The forms built on the unpadded input (each pads only its strips).
_UNPADDED = frozenset(("border", "ghost"))


def _unpadded_conv(plan, x, kernel, strides, pads, mode, numbers, **options):
    """``plan``'s convolution of the unpadded ``x`` where a form of ``_UNPADDED`` or a
    ``kernel_tangent`` is in it: the value in ``plan.form``, the derivatives through
    the input in ``plan.tangent`` and through the kernel in ``plan.kernel_tangent``
    (else ``plan.tangent``), each built as ``build_conv`` builds that form alone."""
    strides = tuple(int(s) for s in strides)
    pads = [(int(lo), int(hi)) for lo, hi in pads]

    def built(form):
        alone = dataclasses.replace(plan, form=form, tangent=None, kernel_tangent=None)
        if form not in _UNPADDED:
            return lambda x, kernel: build_conv(
                alone, x, kernel, strides, pads, mode, numbers, **options
            )
        conv = _lax_conv(strides, numbers, options)
        how = _border if form == "border" else _ghost
        return lambda x, kernel: how(
            x, kernel, strides, pads, mode, numbers, options["rhs_dilation"], conv
        )

    if plan.tangent is None:
        return built(plan.form)(x, kernel)
    through_input = built(plan.tangent)
    through_kernel = built(plan.kernel_tangent or plan.tangent)
    return _bilinear_custom_jvp(
        built(plan.form),
        lambda x, kernel, d_x: through_input(d_x, kernel),
        lambda x, kernel, d_kernel: through_kernel(x, d_kernel),
    )(x, kernel)


def _banded_conv(plan, x, kernel, strides, pads, mode, numbers, **options):
    """The banded value (``_banded``), with the derivatives (forward and reverse, every
    order) of ``plan`` with ``pad_slice`` for its form: through ``jax.jvp`` of that
    plan's convolution, so that its own tangent forms (the frame's) are kept."""
    pads = [(int(lo), int(hi)) for lo, hi in pads]
    derivatives = dataclasses.replace(plan, form="pad_slice")

    def other(x, kernel):
        return build_conv(derivatives, x, kernel, strides, pads, mode, numbers, **options)

    conv = _lax_conv(strides, numbers, options)
    return _bilinear_custom_jvp(
        lambda x, kernel: _banded(x, kernel, pads, mode, numbers, options["rhs_dilation"], conv),
        lambda x, kernel, d_x: jax.jvp(lambda x: other(x, kernel), (x,), (d_x,))[1],
        lambda x, kernel, d_kernel: jax.jvp(lambda k: other(x, k), (kernel,), (d_kernel,))[1],
    )(x, kernel)


def _banded(x, kernel, pads, mode, numbers, rhs_dilation, conv):
    """The stride-1 convolution of ``x`` padded by ``pads`` in ``mode``: ``x`` padded in
    the mode along every spatial axis but the first, ``conv`` with the first axis's pads
    as its own zeros, and the outputs that read those pads (the first ``lo`` and the
    last ``hi`` along that axis) replaced by ``conv`` of strips of ``x`` padded in the
    mode (``jaxpad.pad``'s negative pads crop: only the rows those outputs read, the
    strip's ghosts the whole pad's). The two strips are one convolution, side by side
    along the batch, where their shapes match. Written for non-negative pads, an
    undilated input and an axis at least as long as the window's span (where the
    planner names it)."""
    spatial = x.ndim - 2
    a, out_axis = numbers.lhs_spec[2], numbers.out_spec[2]
    n, (lo, hi) = int(x.shape[a]), pads[0]
    dilation = rhs_dilation or (1,) * spatial
    span = dilation[0] * (int(kernel.shape[numbers.rhs_spec[2]]) - 1) + 1
    begin, end = [0] * x.ndim, [0] * x.ndim
    for axis, (p_lo, p_hi) in zip(numbers.lhs_spec[3:], pads[1:]):
        begin[axis], end[axis] = p_lo, p_hi
    rest = pad(x, begin, end, mode) if any(begin) or any(end) else x
    y = conv(rest, kernel, [(lo, hi)] + [(0, 0)] * (spatial - 1))
    m = int(y.shape[out_axis])
    valid = [(0, 0)] * spatial
    strips = []  # (first output, the rows of x padded in the mode that it reads)
    if lo:
        # Outputs [0, lo) read the padded rows [0, lo + span - 1): x's [-lo, span - 1).
        begin[a], end[a] = lo, span - 1 - n
        strips.append((0, pad(x, begin, end, mode)))
    if hi:
        # Outputs [m - hi, m) read x's rows [n - span + 1, n + hi).
        begin[a], end[a] = -(n - span + 1), hi
        strips.append((m - hi, pad(x, begin, end, mode)))
    if len(strips) == 2 and strips[0][1].shape == strips[1][1].shape:
        batch, out_batch = numbers.lhs_spec[0], numbers.out_spec[0]
        both = conv(jnp.concatenate([s for _, s in strips], batch), kernel, valid)
        count = int(x.shape[batch])
        bands = [
            (first, lax.slice_in_dim(both, i * count, (i + 1) * count, axis=out_batch))
            for i, (first, _) in enumerate(strips)
        ]
    else:
        bands = [(first, conv(s, kernel, valid)) for first, s in strips]
    for first, band in bands:
        start = [0] * y.ndim
        start[out_axis] = first
        y = lax.dynamic_update_slice(y, band, start)
    return y


def _border_geometry(x, kernel, strides, pads, numbers, rhs_dilation):
    """Per spatial axis of ``x`` padded by ``pads``: its input and output axes, size, low
    pad, stride, window span, output size, and the outputs ``[0, first)`` that read the
    low pad and ``[last, m)`` that read the high one."""
    spatial = x.ndim - 2
    dilation = rhs_dilation or (1,) * spatial
    window = [d * (int(kernel.shape[a]) - 1) + 1 for a, d in zip(numbers.rhs_spec[2:], dilation)]
    axes = []
    for i in range(spatial):
        a = numbers.lhs_spec[2 + i]
        n, (lo, hi), s, k = int(x.shape[a]), pads[i], strides[i], window[i]
        m = (n + lo + hi - k) // s + 1
        first = min(m, -(-lo // s))
        last = max(first, min(m, -(-(lo + n - k + 1) // s)))
        axes.append((a, numbers.out_spec[2 + i], n, lo, s, k, m, first, last))
    return axes


def _ghost(x, kernel, strides, pads, mode, numbers, rhs_dilation, conv):
    """The convolution of ``x`` padded by ``pads`` in ``mode``: ``conv`` of ``x`` with
    the pads as its own zeros, plus ``conv`` of the ghost cells alone (the pad's cells
    in the mode, ``x``'s cells zero), cut into strips: along each spatial axis in turn,
    the outputs that read its low or high pad, from the rows that they read, with the
    earlier axes' pads left to ``conv``'s zeros (their ghosts are those axes' strips).
    Each strip's outputs are added as a zero-padded band, so that reverse mode gives
    the zero-padded ``conv`` the cotangent as it is. Written for non-negative pads of
    an undilated input (where the planner names it)."""
    axes = _border_geometry(x, kernel, strides, pads, numbers, rhs_dilation)
    y = conv(x, kernel, pads)
    bands = []
    for i, (a, out_axis, n, lo, s, k, m, first, last) in enumerate(axes):
        for o0, o1 in ((0, first), (last, m)):
            if o0 == o1:
                continue
            begin, end = [0] * x.ndim, [0] * x.ndim
            padding = []
            for j, (aj, _, _, lo_j, *_) in enumerate(axes):
                if j < i:
                    # Only x's rows along the earlier axes: their pads are zeros here.
                    padding.append(pads[j])
                elif j > i:
                    begin[aj], end[aj] = lo_j, pads[j][1]
                    padding.append((0, 0))
                else:
                    begin[aj], end[aj] = lo - o0 * s, (o1 - 1) * s + k - lo - n
                    padding.append((0, 0))
            strip = pad(x, begin, end, mode)
            # The strip's cells along axis i that are x's (crops make begin negative).
            inside = np.zeros(strip.shape[a], bool)
            inside[max(begin[a], 0) : max(begin[a] + n, 0)] = True
            view = [1] * x.ndim
            view[a] = strip.shape[a]
            ghosts = jnp.where(inside.reshape(view), jnp.zeros((), strip.dtype), strip)
            bands.append((out_axis, o0, conv(ghosts, kernel, padding)))
    for out_axis, o0, band in bands:
        widths = [(0, 0, 0)] * y.ndim
        widths[out_axis] = (o0, y.shape[out_axis] - o0 - band.shape[out_axis], 0)
        y = y + lax.pad(band, np.zeros((), y.dtype), widths)
    return y


def _border(x, kernel, strides, pads, mode, numbers, rhs_dilation, conv):
    """The convolution of ``x`` padded by ``pads`` in ``mode``: ``conv`` of ``x`` with
    the pads as its own zeros, whose output rows and columns that read a pad (a few at
    each side) are replaced by ``conv`` of strips of ``x`` padded in the mode, each
    strip only the rows and columns those outputs read (``jaxpad.pad``'s negative pads
    crop, indices relative to ``x``, so a strip's ghosts are the whole pad's). Written
    for non-negative pads of an undilated input (where the planner names it)."""
    spatial = x.ndim - 2
    axes = _border_geometry(x, kernel, strides, pads, numbers, rhs_dilation)
    y = conv(x, kernel, pads)

    def strip(region):
        """The exact outputs over ``region`` (an output range per spatial axis)."""
        begin, end = [0] * x.ndim, [0] * x.ndim
        for (a, _, n, lo, s, k, _, _, _), (o0, o1) in zip(axes, region):
            begin[a] = lo - o0 * s
            end[a] = (o1 - 1) * s + k - lo - n
        piece = pad(x, begin, end, mode)
        return conv(piece, kernel, [(0, 0)] * spatial)

    def replace(y, region):
        start = [0] * y.ndim
        for (_, out_axis, *_), (o0, _) in zip(axes, region):
            start[out_axis] = o0
        return lax.dynamic_update_slice(y, strip(region), start)

    # Axis by axis: the low and high bands span every output of the later axes; the
    # outputs between them are framed by the later axes only.
    region = []
    for i, (_, _, _, _, _, _, m, first, last) in enumerate(axes):
        rest = [(0, axis[6]) for axis in axes[i + 1 :]]
        if first > 0:
            y = replace(y, [*region, (0, first), *rest])
        if last < m:
            y = replace(y, [*region, (last, m), *rest])
        if first == last:
            return y  # every output reads a pad along this axis: all replaced
        region.append((first, last))
    return y


def _bilinear_custom_jvp(value, through_input, through_kernel):
    """``value(xp, kernel)`` (bilinear), whose tangent is ``through_input(xp, kernel,
    d_xp) + through_kernel(xp, kernel, d_kernel)``; an operand nobody differentiates
    (a symbolic zero) adds no term and no work."""

    @jax.custom_jvp
    def conv(xp, kernel):
        return value(xp, kernel)

    def jvp(primals, tangents):
        xp, kernel = primals
        d_xp, d_kernel = tangents
        out = conv(xp, kernel)
        terms = []
        if not isinstance(d_xp, jax.custom_derivatives.SymbolicZero):
            terms.append(through_input(xp, kernel, d_xp))
        if not isinstance(d_kernel, jax.custom_derivatives.SymbolicZero):
            terms.append(through_kernel(xp, kernel, d_kernel))
        if not terms:
            return out, jnp.zeros_like(out)
        return out, sum(terms[1:], terms[0])

    conv.defjvp(jvp, symbolic_zeros=True)
    return conv


def _with_tangent(value, tangent):
    """``value``, differentiated as ``tangent`` (the same bilinear function of the
    padded input and the kernel, in another form): the tangent is the sum of
    ``tangent`` applied to each operand's tangent, which reverse mode transposes."""
    return _bilinear_custom_jvp(
        value,
        lambda xp, kernel, d_xp: tangent(d_xp, kernel),
        lambda xp, kernel, d_kernel: tangent(xp, d_kernel),
    )


def _with_input_gradient(value, pieces, split):
    """``value``, with its tangent in the padded input written as the transpose of
    ``pieces(ct, kernel)`` (its gradient, as pieces side by side) applied to the input
    tangent cut by ``split``, so that reverse mode transposes it back into ``pieces``
    joined by one concatenation (the transpose of ``lax.split``); its tangent in the
    kernel is ``value`` itself."""

    def through_input(xp, kernel, d_xp):
        out = jax.eval_shape(value, xp, kernel)
        transposed = jax.linear_transpose(
            lambda ct: pieces(ct, kernel), jax.ShapeDtypeStruct(out.shape, out.dtype)
        )
        return transposed(split(d_xp))[0]

    return _bilinear_custom_jvp(
        value, through_input, lambda xp, kernel, d_kernel: value(xp, d_kernel)
    )


def _frame(kernel_shape, numbers, rhs_dilation):
    """Per spatial axis of a stride-1 VALID convolution's input gradient (the full
    correlation of the cotangent with the flipped kernel): the kernel's span, the
    "SAME" padding of the middle piece (an output as long as the cotangent), and the
    frame's width on each side (together span - 1)."""
    spatial = len(numbers.rhs_spec) - 2
    dilation = tuple(int(d) for d in rhs_dilation or (1,) * spatial)
    window = [int(kernel_shape[a]) for a in numbers.rhs_spec[2:]]
    spans = [d * (k - 1) + 1 for k, d in zip(window, dilation)]
    middle = [((s - 1) // 2, s - 1 - (s - 1) // 2) for s in spans]
    frame = [(s - 1 - m_lo, m_lo) for s, (m_lo, _) in zip(spans, middle)]
    return dilation, spans, middle, frame


def _framed_pieces(ct, kernel, *, numbers, rhs_dilation, precision, preferred_element_type):
    """The gradient of a stride-1 VALID convolution with respect to its (padded) input,
    given the cotangent ``ct`` of its output, as ``_correlation_pieces`` of ``ct`` by
    the transposed kernel."""
    # The transposed convolution: the output's layout reads as the input, the kernel's
    # input and output features swap, its window flips.
    transposed = lax.ConvDimensionNumbers(
        lhs_spec=numbers.out_spec,
        rhs_spec=(numbers.rhs_spec[1], numbers.rhs_spec[0], *numbers.rhs_spec[2:]),
        out_spec=numbers.lhs_spec,
    )
    flipped = lax.rev(kernel, tuple(numbers.rhs_spec[2:]))
    return _correlation_pieces(
        ct,
        flipped,
        numbers=transposed,
        rhs_dilation=rhs_dilation,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def _correlation_pieces(y, kernel, *, numbers, rhs_dilation, precision, preferred_element_type):
    """The full correlation of ``y`` with ``kernel`` (padding span - 1 on both sides,
    stride 1) as nested pieces along the spatial axes (``[low strip, middle, high
    strip]`` per axis, the middle nested in the next axis): the middle is the "SAME"
    correlation, an output no larger than its input, which XLA:CPU runs on YNNPACK; the
    strips of the frame each read only the rows of ``y`` that reach them."""
    spatial = y.ndim - 2
    dilation, spans, middle, frame = _frame(kernel.shape, numbers, rhs_dilation)

    def correlate(piece, padding):
        return lax.conv_general_dilated(
            piece,
            kernel,
            (1,) * spatial,
            padding,
            rhs_dilation=dilation,
            dimension_numbers=numbers,
            precision=precision,
            preferred_element_type=preferred_element_type,
        )

    def along(axis, padding):
        """The pieces from ``axis`` on; ``padding`` holds the earlier axes' (a strip's
        or the middle's) and the full correlation's on the later ones."""
        if axis == spatial:
            return correlate(y, padding)
        lo, hi = frame[axis]
        span = spans[axis]
        a = numbers.lhs_spec[2 + axis]
        n = y.shape[a]
        pieces = []
        if lo:
            own = list(padding)
            own[axis] = (span - 1, 0)
            pieces.append(correlate(lax.slice_in_dim(y, 0, lo, axis=a), own))
        own = list(padding)
        own[axis] = middle[axis]
        pieces.append(along(axis + 1, own))
        if hi:
            own = list(padding)
            own[axis] = (0, span - 1)
            pieces.append(correlate(lax.slice_in_dim(y, n - hi, n, axis=a), own))
        return pieces

    # Outer axes first: the strips of the first axis span the whole padded width of the
    # others (their frame included), so each later axis only frames the middle.
    return along(0, [(s - 1, s - 1) for s in spans])


def _joined(pieces, numbers, axis=0):
    """``_correlation_pieces``' nesting joined into one array (its output layout)."""
    if not isinstance(pieces, list):
        return pieces
    parts = [_joined(p, numbers, axis + 1) if isinstance(p, list) else p for p in pieces]
    return parts[0] if len(parts) == 1 else lax.concatenate(parts, numbers.out_spec[2 + axis])


def framed_applies(y_shape, kernel_shape, numbers, dtype, *, feature_group_count=1):
    """Whether the planner's framed rule (table "The input gradient's frame") takes the
    full correlation of ``y_shape`` by ``kernel_shape`` (output: the padded input)."""
    spatial = len(numbers.lhs_spec) - 2
    if spatial != 2 or feature_group_count != 1 or np.dtype(dtype) != np.dtype(np.float32):
        return False
    if _is_symbolic(y_shape) or _is_symbolic(kernel_shape):
        return False
    window = [int(kernel_shape[a]) for a in numbers.rhs_spec[2:]]
    features = [int(kernel_shape[numbers.rhs_spec[0]]), int(kernel_shape[numbers.rhs_spec[1]])]
    if any(k != FRAMED_WINDOW for k in window) or min(features) < FRAMED_MIN_FEATURES:
        return False
    ndim = len(y_shape)
    channels_last = numbers.lhs_spec[1] == ndim - 1 and numbers.out_spec[1] == ndim - 1
    elements = int(y_shape[numbers.lhs_spec[0]]) * features[0]
    for a, k in zip(numbers.lhs_spec[2:], window):
        elements *= int(y_shape[a]) + k - 1
    return channels_last or elements >= FRAMED_CHANNELS_FIRST_MIN_ELEMENTS


def full_correlation(y, kernel, numbers, *, rhs_dilation=None, precision=None, **kwargs):
    """``lax.conv_general_dilated(y, kernel, 1, [(span - 1, span - 1)] * n)`` (a stride-1
    transposed convolution's full output), on XLA:CPU as framed pieces where the framed
    rule applies: the one convolution's output is larger than its input, off YNNPACK."""
    spatial = y.ndim - 2
    dilation = tuple(int(d) for d in rhs_dilation or (1,) * spatial)
    window = [int(kernel.shape[a]) for a in numbers.rhs_spec[2:]]
    full = [(d * (k - 1), d * (k - 1)) for k, d in zip(window, dilation)]
    options = dict(rhs_dilation=dilation, precision=precision, **kwargs)

    def one(y, kernel):
        return lax.conv_general_dilated(
            y, kernel, (1,) * spatial, full, dimension_numbers=numbers, **options
        )

    if kwargs or not framed_applies(y.shape, kernel.shape, numbers, y.dtype):
        return one(y, kernel)

    def framed(y, kernel):
        pieces = _correlation_pieces(
            y,
            kernel,
            numbers=numbers,
            rhs_dilation=dilation,
            precision=precision,
            preferred_element_type=None,
        )
        return _joined(pieces, numbers)

    return lax.platform_dependent(y, kernel, cpu=framed, default=one)


def _framed_split(d_xp, kernel_shape, *, numbers, rhs_dilation):
    """``d_xp`` (shaped as the padded input) cut into ``_framed_pieces``' nesting."""
    spatial = d_xp.ndim - 2
    _, _, _, frame = _frame(kernel_shape, numbers, rhs_dilation)

    def along(value, axis):
        if axis == spatial:
            return value
        lo, hi = frame[axis]
        a = numbers.lhs_spec[2 + axis]
        sizes = [size for size in (lo, value.shape[a] - lo - hi, hi) if size]
        parts = list(lax.split(value, sizes, axis=a)) if len(sizes) > 1 else [value]
        middle = 1 if lo else 0
        parts[middle] = along(parts[middle], axis + 1)
        return parts

    return along(d_xp, 0)


def _zero_padded(xp, padding, numbers):
    """``xp`` with the convolution's own (zero) ``padding`` applied."""
    if all(p == (0, 0) for p in padding):
        return xp
    widths = [(0, 0, 0)] * xp.ndim
    for axis, (p_lo, p_hi) in zip(numbers.lhs_spec[2:], padding):
        widths[axis] = (int(p_lo), int(p_hi), 0)
    return lax.pad(xp, np.zeros((), xp.dtype), widths)


def _channels_last_numbers(ndim):
    """Dimension numbers of (N, *spatial, C) by (*window, I, O) into (N, *spatial, O)."""
    spatial = tuple(range(1, ndim - 1))
    return lax.ConvDimensionNumbers(
        lhs_spec=(0, ndim - 1, *spatial),
        rhs_spec=(ndim - 1, ndim - 2, *range(ndim - 2)),
        out_spec=(0, ndim - 1, *spatial),
    )


def _canonical(x, kernel, numbers):
    """``x`` as (N, *spatial, C) and ``kernel`` as (O, I, *window)."""
    x = jnp.moveaxis(jnp.moveaxis(x, numbers.lhs_spec, range(x.ndim)), 1, -1)
    return x, jnp.moveaxis(kernel, numbers.rhs_spec, range(kernel.ndim))


def _from_channels_last(y, numbers):
    """(N, *spatial, O) into the layout ``numbers.out_spec`` asks for."""
    return jnp.moveaxis(jnp.moveaxis(y, -1, 1), range(y.ndim), numbers.out_spec)


def _padded_conv(
    form,
    slice_axis,
    xp,
    kernel,
    *,
    strides,
    padding,
    numbers,
    lhs_dilation,
    rhs_dilation,
    feature_group_count,
    precision,
    conv_general_dilated,
    conv_kwargs,
):
    """The convolution of the input already padded in its mode (``xp``), whose own
    remaining padding is ``padding`` (zeros), in ``form``."""
    spatial = xp.ndim - 2
    dilation = tuple(int(d) for d in rhs_dilation or (1,) * spatial)
    if form == "shifted":
        return _shifted_taps(_zero_padded(xp, padding, numbers), kernel, numbers, strides, dilation)
    if form == "grouped_taps":
        return _grouped_taps(
            _zero_padded(xp, padding, numbers),
            kernel,
            numbers,
            strides,
            dilation,
            feature_group_count,
        )
    if form == "matmul":
        x_cl, k_can = _canonical(_zero_padded(xp, padding, numbers), kernel, numbers)
        x_cl = x_cl[(slice(None), *(slice(None, None, s) for s in strides))]
        y = jnp.dot(
            x_cl.reshape(-1, x_cl.shape[-1]),
            k_can.reshape(k_can.shape[:2]).T,
            precision=precision,
            preferred_element_type=conv_kwargs.get("preferred_element_type"),
        )
        return _from_channels_last(y.reshape(*x_cl.shape[:-1], y.shape[-1]), numbers)
    if form == "rows":
        return _rows(
            _zero_padded(xp, padding, numbers),
            kernel,
            numbers,
            strides,
            dilation,
            precision,
            conv_kwargs.get("preferred_element_type"),
        )
    if form == "block_diagonal":
        kernel = _block_diagonal(kernel, numbers, feature_group_count)
        feature_group_count = 1
        window = [kernel.shape[a] for a in numbers.rhs_spec[2:]]
        wide = [i for i, k in enumerate(window) if k > 1]
        # The ungrouped conv's own rule (table "Padded convolutions"): one extra zero
        # where its padding would be all zero, 2-D and 3-D at stride 1.
        flat = all(p == (0, 0) for p in padding)
        unit = all(s == 1 for s in strides) and all(d == 1 for d in lhs_dilation or ())
        if wide and flat and unit and spatial >= 2:
            form, slice_axis = "pad_slice", wide[0]
        else:
            form, slice_axis = "plain", None
    if form == "pad_slice":
        axis = slice_axis or 0
        padding = list(padding)
        padding[axis] = (padding[axis][0], padding[axis][1] + 1)
    y = conv_general_dilated(
        xp,
        kernel,
        strides,
        padding,
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        dimension_numbers=numbers,
        feature_group_count=feature_group_count,
        precision=precision,
        **conv_kwargs,
    )
    if form == "pad_slice":
        # The extra zero adds at most one output, the last (at stride 1 always).
        axis = slice_axis or 0
        span = (dilation[axis] * (kernel.shape[numbers.rhs_spec[2 + axis]] - 1)) + 1
        size = xp.shape[numbers.lhs_spec[2 + axis]] + sum(padding[axis]) - 1
        out_axis = numbers.out_spec[2 + axis]
        y = lax.slice_in_dim(y, 0, (size - span) // strides[axis] + 1, axis=out_axis)
    return y


def _block_diagonal(kernel, numbers, groups):
    """A grouped convolution's kernel as the ungrouped one: group g's block on the
    diagonal, zeros elsewhere (in ``kernel``'s layout)."""
    k_can = jnp.moveaxis(kernel, numbers.rhs_spec, range(kernel.ndim))  # (O, I, *window)
    out, group_in, *window = k_can.shape
    blocks = k_can.reshape(groups, out // groups, group_in, *window)
    dense = jnp.einsum("gdc...,ge->gdec...", blocks, jnp.eye(groups, dtype=kernel.dtype))
    dense = dense.reshape(out, groups * group_in, *window)
    return jnp.moveaxis(dense, range(kernel.ndim), numbers.rhs_spec)


def _rows(xp, kernel, numbers, strides, dilation, precision, preferred_element_type):
    """The convolution with the kernel's first spatial axis stacked into the features:
    the input's copies shifted along that axis side by side, then a convolution over
    the other axes (one extra zero on the first wide one keeps it off XLA:CPU's
    all-zero-padding path; its extra output is sliced off)."""
    x_cl, k_can = _canonical(xp, kernel, numbers)
    ndim = xp.ndim
    window = k_can.shape[2:]
    sizes = x_cl.shape[1:-1]
    outs = [(n - d * (k - 1) - 1) // s + 1 for n, k, d, s in zip(sizes, window, dilation, strides)]
    copies = [
        lax.slice_in_dim(
            x_cl, i * dilation[0], i * dilation[0] + (outs[0] - 1) * strides[0] + 1, strides[0], 1
        )
        for i in range(window[0])
    ]
    stacked = jnp.concatenate(copies, axis=-1)
    # (O, I, K0, *rest) -> (1, *rest, K0 * I, O), feature i * I + c for tap i, channel c.
    k_rows = jnp.moveaxis(k_can, (0, 1, 2), (-1, -2, -3))
    k_rows = k_rows.reshape(1, *window[1:], window[0] * k_can.shape[1], k_can.shape[0])
    padding = [(0, 0)] * (ndim - 2)
    wide = [a for a in range(1, ndim - 2) if window[a] > 1]
    if wide:
        padding[wide[0]] = (0, 1)
    y = lax.conv_general_dilated(
        stacked,
        k_rows,
        (1, *strides[1:]),
        padding,
        rhs_dilation=(1, *dilation[1:]),
        dimension_numbers=_channels_last_numbers(ndim),
        precision=precision,
        preferred_element_type=preferred_element_type,
    )
    y = y[(slice(None), *(slice(0, n) for n in outs))]
    return _from_channels_last(y, numbers)


def _grouped_taps(xp, kernel, numbers, strides, dilation, groups):
    """A grouped VALID convolution of the padded ``xp`` as the sum over the kernel's
    taps and each group's input channels of a static slice times that channel's
    weights for the group's outputs; XLA fuses it into one loop."""
    x_cl, k_can = _canonical(xp, kernel, numbers)
    out, group_in, *window = k_can.shape
    x_groups = x_cl.reshape(*x_cl.shape[:-1], groups, group_in)
    k_groups = k_can.reshape(groups, out // groups, group_in, *window)
    sizes = x_cl.shape[1:-1]
    outs = [(n - d * (k - 1) - 1) // s + 1 for n, k, d, s in zip(sizes, window, dilation, strides)]
    total = None
    for offset in np.ndindex(*window):
        start = [0] * x_groups.ndim
        limit = list(x_groups.shape)
        step = [1] * x_groups.ndim
        for a, (o, d, n, s) in enumerate(zip(offset, dilation, outs, strides), start=1):
            start[a], limit[a], step[a] = o * d, o * d + (n - 1) * s + 1, s
        window_slice = lax.slice(x_groups, start, limit, step)
        for c in range(group_in):
            weights = k_groups[(slice(None), slice(None), c, *offset)]  # (groups, outputs)
            term = window_slice[..., c : c + 1] * weights
            total = term if total is None else total + term
    return _from_channels_last(total.reshape(*total.shape[:-2], out), numbers)


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


def _depthwise_jvp(geometry, primals, tangents):
    """The tangent in ``xp`` is written as the transpose of the input gradient wanted:
    reverse mode transposes it back into that gradient, the same shifted sum with the
    flipped kernel over the cotangent padded by the window, where autodiff of
    ``_taps_sum`` would add one padded copy of the cotangent per tap. (A ``custom_vjp``
    would do the same for reverse mode but refuse ``jax.jvp``.) The tangent in the
    kernel is ``taps_apply_p``, which reverse mode transposes into ``taps_reduce_p``:
    every tap's reduction in one pass over the input (table "Depthwise convolutions":
    autodiff's nine reductions took 4.4x as long at (8, 56, 56, 96))."""
    xp, taps = primals
    d_xp, d_taps = tangents
    spatial_axes, _, dilation, _ = geometry  # stride 1 only
    out = _depthwise(geometry, xp, taps)
    terms = []
    if not isinstance(d_xp, jax.custom_derivatives.SymbolicZero):
        spans = [d * (k - 1) for k, d in zip(taps.shape[1:], dilation)]
        flipped = lax.rev(taps, tuple(range(1, taps.ndim)))

        def input_gradient(ct):
            widths = [(0, 0, 0)] * ct.ndim
            for axis, span in zip(spatial_axes, spans):
                widths[axis] = (span, span, 0)
            return _taps_sum(geometry, lax.pad(ct, np.zeros((), ct.dtype), widths), flipped)

        through_input = jax.linear_transpose(
            input_gradient, jax.ShapeDtypeStruct(out.shape, out.dtype)
        )
        terms.append(through_input(d_xp)[0])
    if not isinstance(d_taps, jax.custom_derivatives.SymbolicZero):
        terms.append(taps_apply_p.bind(xp, d_taps, geometry=geometry))
    if not terms:
        return out, jnp.zeros_like(out)
    return out, sum(terms[1:], terms[0])


_depthwise.defjvp(_depthwise_jvp, symbolic_zeros=True)


# Two bilinear primitives for the depthwise kernel's derivatives (stride 1):
# ``taps_apply_p(xp, taps)`` is ``_taps_sum`` and ``taps_reduce_p(xp, ct)`` its transpose
# in ``taps``, every tap's reduction as one variadic reduce, so that reverse mode reads
# the input once for all taps. Each transposes into the other (or, in ``xp``, into the
# full correlation with the flipped taps), so every order of derivative stays on them.


def _out_sizes(geometry, shape, window):
    spatial_axes, _, dilation, _ = geometry
    return [shape[a] - d * (k - 1) for a, k, d in zip(spatial_axes, window, dilation)]


def _taps_apply_abstract_eval(xp, taps, *, geometry):
    shape = list(xp.shape)
    for a, n in zip(geometry[0], _out_sizes(geometry, xp.shape, taps.shape[1:])):
        shape[a] = n
    return jax.core.ShapedArray(tuple(shape), xp.dtype)


def _taps_reduce(xp, ct, *, geometry, window):
    spatial_axes, feature_axis, dilation, _ = geometry
    products = []
    for offset in np.ndindex(*window):
        start, limit = [0] * xp.ndim, list(xp.shape)
        for a, o, d in zip(spatial_axes, offset, dilation):
            start[a], limit[a] = o * d, o * d + ct.shape[a]
        products.append(lax.slice(xp, start, limit) * ct)
    zero = np.zeros((), xp.dtype)
    sums = lax.reduce(
        tuple(products),
        (zero,) * len(products),
        lambda a, b: tuple(u + v for u, v in zip(a, b)),
        tuple(a for a in range(xp.ndim) if a != feature_axis),
    )
    return jnp.stack(sums, axis=1).reshape(xp.shape[feature_axis], *window)


def _taps_reduce_abstract_eval(xp, ct, *, geometry, window):
    return jax.core.ShapedArray((xp.shape[geometry[1]], *window), xp.dtype)


def _full_correlation(ct, taps, geometry):
    """The transpose in ``xp`` of ``taps_apply_p(xp, taps)`` (and of ``taps_reduce_p``
    in ``xp`` with ``taps`` the cotangent): the flipped taps over ``ct`` padded by the
    window's span."""
    spatial_axes, _, dilation, _ = geometry
    widths = [(0, 0, 0)] * ct.ndim
    for a, k, d in zip(spatial_axes, taps.shape[1:], dilation):
        widths[a] = (d * (k - 1), d * (k - 1), 0)
    padded = lax.pad(ct, np.zeros((), ct.dtype), widths)
    flipped = lax.rev(taps, tuple(range(1, taps.ndim)))
    return taps_apply_p.bind(padded, flipped, geometry=geometry)


def _apply_transpose_xp(ct, xp, taps, *, geometry):
    return _full_correlation(ct, taps, geometry)


def _apply_transpose_taps(ct, xp, taps, *, geometry):
    return taps_reduce_p.bind(xp, ct, geometry=geometry, window=tuple(taps.aval.shape[1:]))


def _reduce_transpose_xp(t, xp, ct, *, geometry, window):
    return _full_correlation(ct, t, geometry)


def _reduce_transpose_ct(t, xp, ct, *, geometry, window):
    return taps_apply_p.bind(xp, t, geometry=geometry)


def _merged(value, bdim, size, feature_axis):
    """``value`` with its batch axis merged into the feature axis, batch-major (each
    channel of a depthwise conv is independent of the others)."""
    value = jnp.moveaxis(batching.bdim_at_front(value, bdim, size), 0, feature_axis)
    shape = value.shape
    return value.reshape(
        *shape[:feature_axis], size * shape[feature_axis + 1], *shape[feature_axis + 2 :]
    )


def _apply_batch(args, dims, *, geometry):
    (xp, taps), (x_dim, t_dim) = args, dims
    size = next(v.shape[d] for v, d in zip(args, dims) if d is not None)
    feature_axis = geometry[1]
    xp = _merged(xp, x_dim, size, feature_axis)
    taps = _merged(taps, t_dim, size, 0)
    out = taps_apply_p.bind(xp, taps, geometry=geometry)
    shape = out.shape
    split = (*shape[:feature_axis], size, shape[feature_axis] // size, *shape[feature_axis + 1 :])
    return out.reshape(split), feature_axis


def _reduce_batch(args, dims, *, geometry, window):
    size = next(v.shape[d] for v, d in zip(args, dims) if d is not None)
    xp, ct = (_merged(v, d, size, geometry[1]) for v, d in zip(args, dims))
    out = taps_reduce_p.bind(xp, ct, geometry=geometry, window=window)
    return out.reshape(size, out.shape[0] // size, *window), 0


taps_apply_p = Primitive("jaxpad_depthwise_taps_apply")
taps_apply_p.def_impl(partial(xla.apply_primitive, taps_apply_p))
taps_apply_p.def_abstract_eval(_taps_apply_abstract_eval)
ad.defbilinear(taps_apply_p, _apply_transpose_xp, _apply_transpose_taps)
batching.primitive_batchers[taps_apply_p] = _apply_batch
mlir.register_lowering(
    taps_apply_p,
    mlir.lower_fun(lambda xp, taps, *, geometry: _taps_sum(geometry, xp, taps), False),
)

taps_reduce_p = Primitive("jaxpad_depthwise_taps_reduce")
taps_reduce_p.def_impl(partial(xla.apply_primitive, taps_reduce_p))
taps_reduce_p.def_abstract_eval(_taps_reduce_abstract_eval)
ad.defbilinear(taps_reduce_p, _reduce_transpose_xp, _reduce_transpose_ct)
batching.primitive_batchers[taps_reduce_p] = _reduce_batch
mlir.register_lowering(taps_reduce_p, mlir.lower_fun(_taps_reduce, False))


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
    batched_planning: bool = False,
    _inline: bool = False,
    **conv_kwargs: Any,
) -> jax.Array:
    """``conv_general_dilated`` with the spatial ``pads`` filled in ``mode``, in the form
    the planner picks per platform (one program for CPU and one for the others).

    ``batched_planning``: plan with the shape ``jax.vmap`` gives the convolution, not the
    one the caller sees (a layer that runs per example, as Equinox's do): the
    convolution is one primitive, ``planned_conv_p``, whose batching rule merges the
    mapped axis into the batch and plans again. Where the platforms' plans differ the
    convolution is that primitive too, so that transformations without a rule for
    ``lax.platform_dependent``'s ``cond`` (``jax.experimental.jet``) take it; inside
    the primitive (``_inline``) it is the ``cond``."""
    conv_kwargs = {k: v for k, v in conv_kwargs.items() if v is not None}
    default_conv = (
        conv_general_dilated is None or conv_general_dilated is lax.conv_general_dilated
    ) and not conv_kwargs
    eligible = (
        default_conv
        and not _is_symbolic(x.shape)
        and not _is_symbolic(kernel.shape)
        and not (_explicitly_sharded(x) or _explicitly_sharded(kernel))
    )

    def bind():
        params = _planned_params(
            strides,
            pads,
            mode,
            numbers,
            lhs_dilation,
            rhs_dilation,
            feature_group_count,
            precision,
            preferred_element_type,
        )
        return planned_conv_p.bind(x, kernel, **params)

    if batched_planning and eligible:
        return bind()
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

    if eligible and not _inline and plans["cpu"] != plans[None]:
        return bind()

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


# Forms whose input derivative is lax's own transpose of a padded convolution: a
# transposed convolution gains nothing by being built as their VJP (it is the same
# transposed convolution, with the kernel transposed by the conv rather than by jnp).
_LAX_TRANSPOSED = frozenset(("plain", "pad_slice"))


def lowered_conv_input_vjp(
    ct: jax.Array,
    kernel: jax.Array,
    x_shape: Sequence[int],
    strides: Sequence[int],
    pads: Sequence[tuple[int, int]],
    mode: str,
    numbers: lax.ConvDimensionNumbers,
    lax_transposed: Callable[[jax.Array], jax.Array],
    *,
    rhs_dilation: Sequence[int] | None = None,
    feature_group_count: int = 1,
    precision: Any = None,
) -> jax.Array:
    """A transposed convolution: the VJP in its input of ``lowered_conv``'s convolution
    of an input of ``x_shape`` by ``kernel``, applied to ``ct``, where the platform's
    plan differentiates that convolution in a form of its own (each platform's form
    differentiated by its own rules, in its own branch); else
    ``lax_transposed(ct)``, the caller's transposed convolution.

    Differentiating ``lowered_conv`` itself would carry the residuals of one
    platform's form through the other's branch (zeros of ``lax.empty`` that
    exporters do not take); here the forward pass of each branch is dead code."""
    options: dict[str, Any] = dict(
        rhs_dilation=rhs_dilation, feature_group_count=feature_group_count
    )
    sharded = _explicitly_sharded(ct) or _explicitly_sharded(kernel)
    plans = {
        platform: plan_conv(
            x_shape,
            kernel.shape,
            numbers,
            pads,
            mode,
            strides,
            dtype=ct.dtype,
            sharded=sharded,
            platform=platform,
            **options,
        )  # fmt: skip
        for platform in ("cpu", None)
    }

    if all((plan.tangent or plan.form) in _LAX_TRANSPOSED for plan in plans.values()):
        return lax_transposed(ct)

    def build(plan):
        if (plan.tangent or plan.form) in _LAX_TRANSPOSED:
            return lambda ct, kernel: lax_transposed(ct)

        def run(ct, kernel):
            def forward(x):
                return build_conv(
                    plan, x, kernel, strides, pads, mode, numbers, precision=precision, **options
                )

            return jax.vjp(forward, jnp.zeros(x_shape, ct.dtype))[1](ct)[0]

        return run

    if plans["cpu"] == plans[None]:
        return build(plans[None])(ct, kernel)
    return lax.platform_dependent(ct, kernel, cpu=build(plans["cpu"]), default=build(plans[None]))


# One convolution as one primitive, for layers that run per example under jax.vmap
# (Equinox's): its batching rule merges the mapped axis into the convolution's batch and
# binds it again, so that the planner sees the shape the program runs (table "Equinox's
# per-example layers" in docs/performance.md: at batch 1 the framed tangent's
# channels-first size is never met). Its value, lowering and derivatives are those of
# ``lowered_conv`` planned for the shape it is bound with.


def _planned_params(
    strides,
    pads,
    mode,
    numbers,
    lhs_dilation,
    rhs_dilation,
    feature_group_count,
    precision,
    preferred_element_type,
):
    """``planned_conv_p``'s parameters, hashable."""

    def ints(values):
        return None if values is None else tuple(int(v) for v in values)

    return dict(
        strides=ints(strides),
        pads=tuple((int(lo), int(hi)) for lo, hi in pads),
        mode=mode,
        numbers=numbers,
        lhs_dilation=ints(lhs_dilation),
        rhs_dilation=ints(rhs_dilation),
        feature_group_count=int(feature_group_count),
        precision=precision,
        preferred_element_type=(
            None if preferred_element_type is None else np.dtype(preferred_element_type)
        ),
    )


def planned_conv(x, kernel, *, strides, pads, mode, numbers, **options):
    """``planned_conv_p``'s convolution: ``lowered_conv``'s per-platform program."""
    return lowered_conv(x, kernel, strides, pads, mode, numbers, _inline=True, **options)


def _planned_abstract_eval(x, kernel, **params):
    out = jax.eval_shape(
        partial(planned_conv, **params),
        jax.ShapeDtypeStruct(x.shape, x.dtype),
        jax.ShapeDtypeStruct(kernel.shape, kernel.dtype),
    )
    return x.update(shape=out.shape, dtype=out.dtype)


def _planned_jvp(primals, tangents, **params):
    """The derivatives of the form planned for these shapes (its own ``custom_jvp``
    where it has one); an operand without a tangent stays a constant."""
    x, kernel = primals
    d_x, d_kernel = tangents
    conv = partial(planned_conv, **params)
    if type(d_x) is ad.Zero:
        return jax.jvp(lambda kernel: conv(x, kernel), (kernel,), (d_kernel,))
    if type(d_kernel) is ad.Zero:
        return jax.jvp(lambda x: conv(x, kernel), (x,), (d_x,))
    return jax.jvp(conv, (x, kernel), (d_x, d_kernel))


def _planned_transpose(ct, x, kernel, **params):
    """The transpose in the one operand that is linear (``jax.linear_transpose`` of a
    convolution by a fixed kernel, or of a fixed input): that of the planned form."""
    conv = partial(planned_conv, **params)
    if ad.is_undefined_primal(kernel):
        if ad.is_undefined_primal(x):
            raise ValueError("jaxpad_planned_conv: bilinear, not linear in both operands.")
        operand, fixed = kernel, x

        def linear(kernel):
            return conv(fixed, kernel)
    else:
        operand, fixed = x, kernel

        def linear(x):
            return conv(x, fixed)

    if type(ct) is ad.Zero:
        return None, None
    aval = operand.aval
    (result,) = jax.linear_transpose(linear, jax.ShapeDtypeStruct(aval.shape, aval.dtype))(ct)
    return (None, result) if operand is kernel else (result, None)


def _planned_batch(args, dims, **params):
    """A mapped input (the kernel shared) joins the batch axis, mapped axis major, and
    the convolution is planned again; a mapped kernel is ``jax.vmap`` of the form."""
    (x, kernel), (x_dim, k_dim) = args, dims
    if k_dim is not None:
        return jax.vmap(partial(planned_conv, **params), in_axes=(x_dim, k_dim))(x, kernel), 0
    numbers = params["numbers"]
    n_axis, o_axis = numbers.lhs_spec[0], numbers.out_spec[0]
    x = jnp.moveaxis(x, x_dim, n_axis)  # the mapped axis just before the batch axis
    size, batch = x.shape[n_axis], x.shape[n_axis + 1]
    merged = x.reshape(*x.shape[:n_axis], size * batch, *x.shape[n_axis + 2 :])
    out = planned_conv_p.bind(merged, kernel, **params)
    return out.reshape(*out.shape[:o_axis], size, batch, *out.shape[o_axis + 1 :]), o_axis


planned_conv_p = Primitive("jaxpad_planned_conv")
planned_conv_p.def_impl(partial(xla.apply_primitive, planned_conv_p))
planned_conv_p.def_abstract_eval(_planned_abstract_eval)
ad.primitive_jvps[planned_conv_p] = _planned_jvp
ad.primitive_transposes[planned_conv_p] = _planned_transpose
batching.primitive_batchers[planned_conv_p] = _planned_batch
mlir.register_lowering(planned_conv_p, mlir.lower_fun(planned_conv, multiple_results=False))


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
