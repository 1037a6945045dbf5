"""The conv planner: ``ConvPlan``, the tuning constants and the rules, as data.

``plan_conv`` reads the static facts of one convolution (``ConvRequest``) and asks each
rule of ``RULES`` in turn; the first that names a plan decides it, and a convolution no
rule takes keeps the plain form. Each rule is one small function whose comment names
the table in docs/performance.md ("Convolutions") that set it, and each has its test in
tests/test_conv_lowering.py. Pure NumPy: nothing here builds an op.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

import numpy as np
from jax import lax

from jaxpad._compat import CONV_FORMS_SECOND_DERIVATIVES_WRONG

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
    "phases",
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
# Stems (as above) with windows of at most this many taps per axis take the banded
# value. Set by the table "Stem values" in docs/notes/conv-forms.md (wall clock, quiet):
# 0.96-1.10x of the zero-padded forward against 1.20-1.47x for pad_slice at 3x3, 5x5
# and 7x7 from 3 to 32-64 channels (a tie, 1.13 and 1.12, at (4, 64, 64, 3) 7x7);
# nothing wider was measured.
STEM_BANDED_MAX_WINDOW = 7

# The framed full correlation (``framed_applies``, for a transposed convolution in
# constant mode): 2-D, float32, a window of 3 per axis (any dilation), at least this
# many input and output channels. Set by the table "The input gradient's frame" in
# docs/performance.md: 0.47-1.28x of the zero-padded gradient against 0.51-1.38x for
# autodiff of pad_slice at 3x3 NHWC with 32-128 channels (CPU time); it lost at 5x5
# (1.45 against 1.30) and tied at 8-16 channels.
FRAMED_MIN_FEATURES = 32
FRAMED_WINDOW = 3
# Channels-first, only from this many elements in the padded input (8 MiB in float32):
# there autodiff's gradient kept temporaries past glibc's 32 MiB mmap ceiling (33 MiB,
# 8,555 page faults per call at (8, 64, 64, 64)) and the framed one won at four shapes
# of 8.3-9.8 MiB (1.14-1.22x against 1.28-1.79x, CPU time); it lost at four of 1.1-4.4
# MiB. Same table.
FRAMED_CHANNELS_FIRST_MIN_ELEMENTS = 2**21
# No planner rule takes the framed tangent (``tangent="framed"``) any more: its margin
# changes sign with the host. It won over autodiff's gradient by 0-21% at 3x3
# channels-last with 48-80 channels outside edge mode in two wall-clock runs of
# 2026-11-29 (docs/notes/conv-forms.md, "The input gradient's frame, wall clock"). On
# 2026-12-06, on another host of the same VM type, the input's gradient alone
# (``conv_transpose``'s computation) read 0.87-0.98 of autodiff's at (8, 64, 64, 48-64)
# and 0.89-0.96 at larger images, but 1.01-1.12 at 32x32 and 48x48 images, 1.30-1.32
# at 56 channels and 1.41-1.42 at 80, alike with XLA's widest vectors and with
# ``--xla_cpu_max_isa=AVX2`` (table "The input gradient's frame, two ISAs").

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


@dataclasses.dataclass(frozen=True, eq=False)
class ConvRequest:
    """The static facts of one convolution that ``plan_conv`` is asked to plan: its
    arguments as given, and (computed when a rule first reads them, after the rules
    that keep symbolic sizes off them) what the rules derive from them."""

    x_shape: Sequence[Any]
    kernel_shape: Sequence[Any]
    numbers: lax.ConvDimensionNumbers
    pads: Sequence[tuple[int, int]]
    mode: str
    strides: tuple[int, ...]
    lhs_dilation: tuple[int, ...]
    rhs_dilation: tuple[int, ...]
    feature_group_count: int
    dtype: np.dtype
    out_dtype: np.dtype
    default_conv: bool
    sharded: bool
    platform: str | None

    @property
    def spatial(self) -> int:
        return len(self.numbers.lhs_spec) - 2

    @cached_property
    def window(self) -> list[int]:
        return [int(self.kernel_shape[a]) for a in self.numbers.rhs_spec[2:]]

    @cached_property
    def spans(self) -> list[int]:
        return [d * (k - 1) + 1 for k, d in zip(self.window, self.rhs_dilation)]

    @cached_property
    def padding(self) -> list[tuple[int, ...]]:
        """The convolution's own padding once the input is padded in the mode."""
        return conv_padding(self.pads, self.mode, self.lhs_dilation)[0]

    @cached_property
    def features(self) -> int:
        return int(self.x_shape[self.numbers.lhs_spec[1]])

    @cached_property
    def kernel_in(self) -> int:
        return int(self.kernel_shape[self.numbers.rhs_spec[1]])

    @cached_property
    def kernel_out(self) -> int:
        return int(self.kernel_shape[self.numbers.rhs_spec[0]])

    @cached_property
    def sizes(self) -> list[int]:
        return [int(self.x_shape[a]) for a in self.numbers.lhs_spec[2:]]

    @property
    def undilated_input(self) -> bool:
        return all(d == 1 for d in self.lhs_dilation)

    @property
    def undilated_kernel(self) -> bool:
        return all(d == 1 for d in self.rhs_dilation)

    @property
    def strided(self) -> bool:
        return any(s != 1 for s in self.strides)

    @cached_property
    def taps(self) -> int:
        return int(np.prod(self.window))

    @property
    def depthwise(self) -> bool:
        return (
            self.feature_group_count == self.features
            and self.kernel_in == 1
            and self.kernel_out == self.features
        )

    @property
    def elementwise(self) -> bool:
        """float32 or float64 in and out, which the forms of multiply-adds and strips
        take (``_SHIFTED_DTYPES``)."""
        return self.dtype in _SHIFTED_DTYPES and self.out_dtype == self.dtype

    @property
    def channels_last(self) -> bool:
        # The forms that work channels-last were measured in NHWC only (NCHW would add
        # two transposes).
        last = len(self.x_shape) - 1
        return self.numbers.lhs_spec[1] == last and self.numbers.out_spec[1] == last

    @cached_property
    def wide(self) -> list[int]:
        """The spatial axes whose window is wider than 1."""
        return [i for i, span in enumerate(self.spans) if span > 1]

    @property
    def non_negative_pads(self) -> bool:
        return all(lo >= 0 and hi >= 0 for lo, hi in self.pads)

    @property
    def all_zero_padding(self) -> bool:
        """The convolution's own padding is all zero (XLA:CPU's slow path)."""
        return all(lo == 0 and hi == 0 for lo, hi in self.padding)

    @property
    def padded_elements(self) -> int:
        """Elements of the input padded in the mode."""
        elements = int(self.x_shape[self.numbers.lhs_spec[0]]) * self.features
        for n, (lo, hi) in zip(self.sizes, self.pads):
            elements *= max(n + lo + hi, 0)
        return elements


Rule = Callable[[ConvRequest], ConvPlan | None]


# The rules, in the order they are asked. Each returns a plan, or None to pass.


def unmeasured_platform(c: ConvRequest) -> ConvPlan | None:
    # Nobody measured GPU or TPU: the plain form, as Flax builds it.
    if c.platform != "cpu":
        return ConvPlan("plain", reason="unmeasured platform: pad, then conv (as Flax)")
    return None


def jax_before_0_8(c: ConvRequest) -> ConvPlan | None:
    # Before jax 0.8 some of the other forms' second derivatives were wrong
    # (jaxpad/_compat.py).
    if CONV_FORMS_SECOND_DERIVATIVES_WRONG:
        return ConvPlan("plain", reason="jax < 0.8: the other forms' second derivatives")
    return None


def symbolic_sizes(c: ConvRequest) -> ConvPlan | None:
    # The forms slice and pad by static sizes.
    if _is_symbolic(c.x_shape) or _is_symbolic(c.kernel_shape):
        return ConvPlan("plain", reason="symbolic sizes")
    return None


def callers_conv(c: ConvRequest) -> ConvPlan | None:
    # A caller's own conv function or arguments lax's planner cannot see through: called
    # as given.
    if not c.default_conv:
        return ConvPlan("plain", reason="a caller's own conv function or arguments")
    return None


def sharded_operands(c: ConvRequest) -> ConvPlan | None:
    # The forms' slices would need the mesh axis to divide the sizes they change.
    if c.sharded:
        return ConvPlan("plain", reason="explicitly sharded operands")
    return None


def window_does_not_fit(c: ConvRequest) -> ConvPlan | None:
    if any(n + lo + hi < span for n, (lo, hi), span in zip(c.sizes, c.pads, c.spans)):
        # No output: lax's own error (or empty result) for it, as before.
        return ConvPlan("plain", reason="the window does not fit the padded input")
    return None


def depthwise_shifted(c: ConvRequest) -> ConvPlan | None:
    # Table "Depthwise convolutions": the shifted taps beat lax's depthwise conv
    # forward and backward up to 7x7 at stride 1, up to 5x5 at stride 2.
    if (
        c.depthwise
        and c.features > 1
        and c.undilated_input
        and c.elementwise
        and 1 < c.taps <= (SHIFTED_MAX_TAPS_STRIDED if c.strided else SHIFTED_MAX_TAPS)
    ):
        return ConvPlan("shifted", reason="depthwise, at most 7x7 taps (strided: 5x5)")
    return None


def _few_channels_per_group(c: ConvRequest) -> bool:
    # Table "Grouped convolutions": XLA:CPU's grouped conv's gradient is 50-100x
    # slower than the block-diagonal ungrouped one. Measured in 2-D at 3x3, stride 1.
    return (
        c.feature_group_count > 1
        and c.spatial == 2
        and not c.depthwise
        and 2 <= c.kernel_in <= GROUPED_MAX_GROUP_FEATURES
        and c.kernel_out // c.feature_group_count <= GROUPED_MAX_GROUP_FEATURES
        and c.undilated_input
        and not c.strided
        and c.elementwise
        and 1 < c.taps <= GROUPED_MAX_TAPS
    )


def grouped_taps(c: ConvRequest) -> ConvPlan | None:
    # Table "Grouped convolutions": the grouped taps' value is 0.2x of lax's with 4
    # channels per group in NHWC and lost in NCHW; the block-diagonal gradient.
    if (
        _few_channels_per_group(c)
        and c.channels_last
        and c.kernel_in <= GROUPED_TAPS_MAX_GROUP_FEATURES
    ):
        return ConvPlan(
            "grouped_taps",
            reason="grouped, 2-4 channels per group, channels last, 3x3, stride 1",
            tangent="block_diagonal",
        )
    return None


def grouped_block_diagonal(c: ConvRequest) -> ConvPlan | None:
    # Table "Grouped convolutions": lax's value (the grouped taps lost at 8 channels per
    # group and channels first), the block-diagonal gradient.
    if _few_channels_per_group(c):
        return ConvPlan(
            "plain",
            reason="grouped, at most 8 channels per group, 3x3, stride 1: lax's value",
            tangent="block_diagonal",
        )
    return None


def pointwise_matmul(c: ConvRequest) -> ConvPlan | None:
    # Table "Pointwise convolutions": a 1x1 convolution as one matrix product measured
    # 0.5-1.0x forward and 0.1-0.4x gradient of lax's 1x1 conv (NHWC, 2-D).
    if (
        c.taps == 1
        and c.spatial == 2
        and c.channels_last
        and c.feature_group_count == 1
        and c.undilated_input
        and not c.strided
        and c.dtype in _SHIFTED_DTYPES
    ):
        return ConvPlan("matmul", reason="1x1, ungrouped, stride 1, channels last")
    return None


def strided_border(c: ConvRequest) -> ConvPlan | None:
    # Table "The strided border": strided 3x3 channels-last after a pad in a mode, the
    # zero-padded conv plus the border recomputed from strips won the value against the
    # extra zero (no pass over the input for the pad). Table "Strided derivatives": the
    # kernel's in the ghost form won at every shape measured; the input's in the border
    # form won where no output reads the high pad and lost where one does (odd sizes at
    # stride 2), where the plain form's is kept.
    if not (
        c.spatial == 2
        and c.strided
        and c.feature_group_count == 1
        and c.undilated_input
        and c.undilated_kernel
        and c.channels_last
        and c.mode != "constant"
        and c.non_negative_pads
        and all(1 < k <= BORDER_MAX_WINDOW for k in c.window)
        and c.elementwise
    ):
        return None
    if _reads_a_high_pad(c.sizes, c.pads, c.spans, c.strides):
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


def _zero_padded_wide(c: ConvRequest) -> bool:
    # Table "Padded convolutions": an all-zero padding is XLA:CPU's slow path for a
    # window wider than 1 in 2-D and 3-D; in 1-D (1.3x forward, 3x gradient at
    # (16, 1024, 64)) the plain form won.
    return bool(
        c.wide
        and c.spatial >= 2
        and c.feature_group_count == 1
        and c.undilated_input
        and c.all_zero_padding
    )


def strided_tiling_ghost_kernel(c: ConvRequest) -> ConvPlan | None:
    # Table "Strided derivatives": where the windows tile the padded input exactly
    # (its size minus the window a multiple of the stride on every axis), the plain
    # form's kernel gradient is a convolution with an all-zero padding, XLA:CPU's
    # slow path; the ghost form's kernel derivatives won there at 5x5 (channels
    # last) and lost elsewhere.
    if (
        _zero_padded_wide(c)
        and c.strided
        and c.spatial == 2
        and c.channels_last
        and c.mode != "constant"
        and c.non_negative_pads
        and c.undilated_kernel
        and all(k <= GHOST_KERNEL_MAX_WINDOW for k in c.window)
        and all(
            (n + lo + hi - k) % s == 0
            for n, (lo, hi), k, s in zip(c.sizes, c.pads, c.window, c.strides)
        )
        and c.elementwise
    ):
        return ConvPlan(
            "pad_slice",
            c.wide[0],
            reason="2-D, strided, channels last, windows tiling the padded input: "
            "input derivatives plain, kernel's ghost",
            tangent="plain",
            kernel_tangent="ghost",
        )
    return None


def strided_pad_slice(c: ConvRequest) -> ConvPlan | None:
    # Table "Strided convolutions": strided, the extra zero won the value but not the
    # derivatives, which stay the plain form's.
    if _zero_padded_wide(c) and c.strided:
        return ConvPlan(
            "pad_slice",
            c.wide[0],
            reason="2-D/3-D, ungrouped, strided, all-zero conv padding: derivatives plain",
            tangent="plain",
        )
    return None


def stem_rows(c: ConvRequest) -> ConvPlan | None:
    # Table "Stem convolutions": with a few input channels the padded conv's
    # input gradient is slow in every conv form; the rows stacked into the
    # features are not.
    if not (
        _zero_padded_wide(c)
        and not c.strided
        and c.spatial == 2
        and c.channels_last
        and c.kernel_in <= ROWS_MAX_FEATURES
        and c.window[0] > 1
        and c.undilated_kernel
        and c.elementwise
    ):
        return None
    # Table "Stem values": the banded value (no slice of the output, many times the
    # input's size here) beat the extra zero's at 3x3, 5x5 and 7x7; its derivatives
    # stay the extra zero's plan's.
    value = "banded" if _banded_stem_value(c) else "pad_slice"
    banded = ", banded value" if value == "banded" else ""
    # Table "Stem derivatives": up to 3x3 the kernel's derivatives in the value's
    # form (the extra zero) beat the rows'; at 5x5 and 7x7 they did not.
    if all(k <= STEM_KERNEL_PAD_SLICE_MAX_WINDOW for k in c.window):
        return ConvPlan(
            value,
            c.wide[0],
            reason="2-D, at most 4 input channels, channels last, 3x3: input "
            "derivatives as rows, kernel's pad_slice" + banded,
            tangent="rows",
            kernel_tangent="pad_slice",
        )
    return ConvPlan(
        value,
        c.wide[0],
        reason="2-D, at most 4 input channels, channels last: derivatives as rows" + banded,
        tangent="rows",
    )


def _banded_stem_value(c: ConvRequest) -> bool:
    # Table "Stem values" (docs/notes/conv-forms.md): at most STEM_BANDED_MAX_WINDOW
    # taps per axis, after a pad in a mode, the first axis (wide: a stem's rule asks
    # for it) at least the window's span.
    return (
        c.mode != "constant"
        and c.non_negative_pads
        and all(k <= STEM_BANDED_MAX_WINDOW for k in c.window)
        and c.sizes[0] >= c.spans[0]
    )


def _banded_value(c: ConvRequest) -> bool:
    # Table "The banded value": 3x3 channels-last in a mode, up to 64 channels, the
    # first axis's pads as the convolution's own zeros and its border rows from
    # strips beat the extra zero's value (one pass for the pad instead of two, and
    # no slice); the derivatives stay the extra zero's (the frame's where it applies).
    return (
        c.spatial == 2
        and c.channels_last
        and c.mode != "constant"
        and c.non_negative_pads
        and c.undilated_kernel
        and all(k == BANDED_WINDOW for k in c.window)
        and max(c.kernel_in, c.kernel_out) <= BANDED_MAX_FEATURES
        and c.sizes[0] >= c.spans[0]
        and c.elementwise
    )


def transposed_kernel_phases(c: ConvRequest) -> ConvPlan | None:
    # Table "Strided transposed convolutions by output phase": XLA:CPU's kernel
    # gradient of a convolution of a dilated input (a transposed convolution) took
    # 163-294 ms where one stride-1 convolution per output phase took 9-12 ms; its
    # value and input gradient stay lax's.
    if (
        not c.undilated_input
        and not c.strided
        and c.undilated_kernel
        and c.feature_group_count == 1
        and c.spatial == 2
        and c.channels_last
        and c.mode == "constant"
        and c.dtype == np.dtype(np.float32)
        and c.elementwise
    ):
        return ConvPlan(
            "plain",
            reason="2-D, a dilated input (transposed), channels last: kernel's "
            "derivatives by output phase",
            tangent="plain",
            kernel_tangent="phases",
        )
    return None


def stride_one_pad_slice(c: ConvRequest) -> ConvPlan | None:
    # Table "Padded convolutions": pad then VALID conv 2.3-4.2x forward; one extra zero
    # on the first wide spatial axis 1.0-1.3x. The value banded where that rule applies.
    if not (_zero_padded_wide(c) and not c.strided):
        return None
    value = "banded" if _banded_value(c) else "pad_slice"
    banded = ", banded value" if value == "banded" else ""
    return ConvPlan(
        value,
        c.wide[0],
        reason="2-D/3-D, ungrouped, stride 1, all-zero conv padding" + banded,
    )


RULES: tuple[Rule, ...] = (
    unmeasured_platform,
    jax_before_0_8,
    symbolic_sizes,
    callers_conv,
    sharded_operands,
    window_does_not_fit,
    depthwise_shifted,
    grouped_taps,
    grouped_block_diagonal,
    pointwise_matmul,
    strided_border,
    strided_tiling_ghost_kernel,
    strided_pad_slice,
    stem_rows,
    transposed_kernel_phases,
    stride_one_pad_slice,
)

# What no rule takes.
NO_RULE = ConvPlan("plain", reason="no measured form beats pad, then conv")


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
    dtype = np.dtype(dtype)
    request = ConvRequest(
        x_shape=x_shape,
        kernel_shape=kernel_shape,
        numbers=numbers,
        pads=pads,
        mode=mode,
        strides=tuple(strides),
        lhs_dilation=tuple(lhs_dilation or (1,) * spatial),
        rhs_dilation=tuple(rhs_dilation or (1,) * spatial),
        feature_group_count=feature_group_count,
        dtype=dtype,
        out_dtype=dtype if preferred_element_type is None else np.dtype(preferred_element_type),
        default_conv=default_conv,
        sharded=sharded,
        platform=platform,
    )
    for rule in RULES:
        plan = rule(request)
        if plan is not None:
            return plan
    return NO_RULE
