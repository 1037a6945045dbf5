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
- ``"phases"`` (a kernel-tangent form, XLA:CPU, a dilated input: a transposed
  convolution): the kernel's derivatives as one stride-1 convolution per output phase
  of the undilated input (``_phases``), where XLA:CPU's own kernel gradient of a
  dilated-input convolution multiplies every inserted zero and ran 6-25x slower.

A plan may name a ``tangent`` form: the value is computed in ``form`` and the
derivatives (forward and reverse, every order) in ``tangent``, through a
``custom_jvp`` whose tangent is the ``tangent`` form, linear in each operand; and a
``kernel_tangent`` form, where the derivatives through the kernel take another form
than those through the input.

An ``inf``, ``-inf`` or ``nan`` reaches exactly what the padded convolution's products
carry it to, whatever the form (docs/semantics.md, "Infinities and nan"): the plain,
pad_slice, rows, grouped-taps and block-diagonal plans (with or without a frame) are
one bilinear primitive (``_bilinear``, ``jaxpad_conv_bilinear``: a primitive, not a
``custom_jvp``, which ``jax.experimental.jet`` cannot trace) whose value is the plan's
form, whose forward and Taylor modes are a form with those products only and whose
kernel gradient is ``_exact.kernel_gradient`` (one
more tap over one more cell of padding, where the extra zero's sliced-off output
would multiply its zero cotangent by the input), and in constant mode the convolution's
own zero padding counts as the pad value's cells.

A layer that runs per example under ``jax.vmap`` (Equinox's) asks for
``batched_planning``: its convolution is one primitive whose batching rule merges the
mapped axis into the batch and plans again, so the planner sees the batch the program
runs.

Every form equals the plain one up to float rounding; the tests check values and
gradients of order 2 against it. The tables that set each rule are in
docs/performance.md, section "Convolutions".

The package reads in one direction, each module importing only those above it:

- ``_plan``: ``ConvPlan``, the tuning constants and the planner's rules as data
  (``RULES``, each a small function naming the table that set it), and ``plan_conv``.
  Pure NumPy: every choice is testable without building an op.
- ``_jvp``, ``_layout``: a value with another form's derivatives (``custom_jvp``), and
  the channels-last layout the forms compute in.
- ``_bilinear``, ``_exact``: a bilinear primitive with given tangents and transposes
  (``bilinear_p``; exporters lower it as its ``rules.exported`` or ``rules.value``), and the exact
  kernel gradient and pad-value products of a convolution.
- The forms by family, each with its derivatives beside it: ``_taps`` (shifted, and its
  two primitives), ``_grouped`` (grouped taps, block-diagonal), ``_matmul`` (matmul,
  rows), ``_plain`` (plain, pad_slice, and the dispatch of the forms on the padded
  input), ``_strips`` (banded, border, ghost), ``_framed`` (the framed input gradient,
  ``full_correlation``), ``_phases`` (a transposed convolution by output phase).
- ``_guard``: the run-time choice of exact derivatives where an operand is not finite
  (``jaxpad_all_finite``), for the forms that multiply zeros of their own.
- ``_build``: ``build_conv``, the convolution a plan names.
- ``_program``: the plans per platform and their one program; ``lowered_conv_input_vjp``.
- ``_primitive``: ``jaxpad_planned_conv`` (``planned_conv_p``) and its rules.
- ``_lowered``: the entry points, ``lowered_conv`` and ``conv_general_dilated``.

Self-contained (it imports only ``jaxpad.pad``), so that it can move into a lowering
package of its own.
"""

from __future__ import annotations

from jaxpad._lowering.conv._bilinear import bilinear_p
from jaxpad._lowering.conv._build import build_conv
from jaxpad._lowering.conv._framed import framed_applies, full_correlation
from jaxpad._lowering.conv._lowered import conv_general_dilated, lowered_conv
from jaxpad._lowering.conv._plan import (
    BANDED_MAX_FEATURES,
    BANDED_WINDOW,
    BORDER_MAX_WINDOW,
    FORMS,
    FRAMED_CHANNELS_FIRST_MIN_ELEMENTS,
    FRAMED_MIN_FEATURES,
    FRAMED_WINDOW,
    GHOST_KERNEL_MAX_WINDOW,
    GROUPED_MAX_GROUP_FEATURES,
    GROUPED_MAX_TAPS,
    GROUPED_TAPS_MAX_GROUP_FEATURES,
    ROWS_MAX_FEATURES,
    RULES,
    SHIFTED_MAX_TAPS,
    SHIFTED_MAX_TAPS_STRIDED,
    STEM_BANDED_MAX_WINDOW,
    STEM_KERNEL_PAD_SLICE_MAX_WINDOW,
    ConvPlan,
    ConvRequest,
    conv_padding,
    plan_conv,
)
from jaxpad._lowering.conv._primitive import planned_conv, planned_conv_p
from jaxpad._lowering.conv._program import lowered_conv_input_vjp
from jaxpad._lowering.conv._taps import taps_apply_p, taps_reduce_p

__all__ = [
    "BANDED_MAX_FEATURES",
    "BANDED_WINDOW",
    "BORDER_MAX_WINDOW",
    "FORMS",
    "FRAMED_CHANNELS_FIRST_MIN_ELEMENTS",
    "FRAMED_MIN_FEATURES",
    "FRAMED_WINDOW",
    "GHOST_KERNEL_MAX_WINDOW",
    "GROUPED_MAX_GROUP_FEATURES",
    "GROUPED_MAX_TAPS",
    "GROUPED_TAPS_MAX_GROUP_FEATURES",
    "ROWS_MAX_FEATURES",
    "RULES",
    "SHIFTED_MAX_TAPS",
    "SHIFTED_MAX_TAPS_STRIDED",
    "STEM_BANDED_MAX_WINDOW",
    "STEM_KERNEL_PAD_SLICE_MAX_WINDOW",
    "ConvPlan",
    "bilinear_p",
    "ConvRequest",
    "build_conv",
    "conv_general_dilated",
    "conv_padding",
    "framed_applies",
    "full_correlation",
    "lowered_conv",
    "lowered_conv_input_vjp",
    "plan_conv",
    "planned_conv",
    "planned_conv_p",
    "taps_apply_p",
    "taps_reduce_p",
]
