"""``PaddingPolicy``: a framework's padding convention as a value.

How much a window op pads, where the odd unit goes and how the output size rounds
differ between TensorFlow, PyTorch, Caffe, ONNX and Apple's MPS (``docs/policy-formulas.md``).
A policy answers, per axis, the two questions a window op asks: the output size, and
the pads ``(lo, hi)`` that make a VALID window op produce exactly that many windows
(``n + lo + hi >= (out - 1) * s + K``; a negative ``lo`` or ``hi`` means leading or
trailing input is never read). ``reverse_*`` answer the same for transposed ops, whose
output length is ``L = (n - 1) * s + K - lo - hi + a``.

Each size policy is one row of ``_RULES``: the fields it reads, its per-axis forward
rule and its reverse rule. A field that the size policy does not read must keep its
default, and ``check_op`` rejects what a given window op cannot honour, so no field is
ever silently ignored.

Notation: ``n`` input size, ``k`` window, ``s`` stride, ``d`` dilation,
``K = d * (k - 1) + 1``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np

from jaxpad import _checks

SIZES = ("valid", "same", "full", "explicit", "same_stride1", "causal", "custom", "onnx_same")
REMAINDERS = ("bottom_right", "top_left")
ROUNDINGS = ("floor", "ceil")
CEIL_CLIPS = ("torch", "caffe")
DIVISORS = ("window", "padded", "valid")
# The window ops that ask a policy, as ``op`` names them.
OPS = ("conv", "conv_transpose", "max_pool", "avg_pool")
_POOLS = ("max_pool", "avg_pool")

_FN = "jaxpad.PaddingPolicy"

# The fields a size policy may leave unread, with the default they must then keep.
_OPTIONAL = {
    "remainder": "bottom_right",
    "explicit": 0,
    "rounding": "floor",
    "ceil_clip": "torch",
    "centred": False,
    "custom": None,
    "half_window_pool_pads": False,
}


@dataclasses.dataclass(frozen=True)
class PaddingPolicy:
    """A padding convention: output size, pad placement, rounding and pooling divisor.

    Attributes:
      size: ``"valid"`` (windows inside the input), ``"same"`` (``ceil(n / s)``
        windows), ``"full"`` (every window that touches the input), ``"explicit"``
        (the pads in ``explicit``), ``"same_stride1"`` (the stride-1 SAME pads
        ``((K-1)//2, K//2)`` whatever the stride, as flax's CIRCULAR/REFLECT and
        PyTorch's ``padding='same'``), ``"causal"`` (``(K-1, 0)``), ``"custom"``
        (``custom`` computes the pads) or ``"onnx_same"`` (ONNX's ``auto_pad``
        SAME_UPPER/SAME_LOWER as onnxruntime computes it, see ``docs/policies.md``:
        the total pad ``(ceil(n/s) - 1) * s + k - n`` may be negative, and pools and
        convolutions place it differently).
      remainder: where an odd unit of padding goes: ``"bottom_right"`` (TensorFlow,
        ONNX SAME_UPPER) or ``"top_left"`` (JAX SAME_LOWER, MPS's default). Read by
        ``same``, ``full``, ``same_stride1``, ``onnx_same`` and centred ``valid``.
      explicit: for ``size="explicit"``: an int ``p`` (``(p, p)`` on every axis), a
        pair ``(lo, hi)`` for every axis, or one pair per axis. Lists are frozen to
        tuples, so the policy stays hashable.
      rounding: how ``(n + lo + hi - K) / s`` rounds: ``"floor"`` or ``"ceil"`` (a
        pooling option: convolutions reject it). Read by ``explicit``, ``custom``,
        ``onnx_same`` and non-centred ``valid``.
      ceil_clip: with ceil rounding, when the last window is dropped because it would
        start in the end padding: ``"torch"`` (always checked) or ``"caffe"`` (only
        when some pad is non-zero). Read only with ``rounding="ceil"``.
      divisor: the average pool's divisor: ``"window"`` (the window size),
        ``"padded"`` (window positions inside the input or its declared padding) or
        ``"valid"`` (positions inside the input). Only ``avg_pool`` reads it.
      centred: MPS's rule for ``valid``, ``same`` and ``full``: the read region is
        centred on the input even when it is smaller (``extra = (out-1)*s + K - n``
        may be negative, split by truncating division). Otherwise TensorFlow's: SAME
        never crops, VALID crops at the end.
      pad_mode: the pad mode a convolution uses with this policy (``"wrap"`` for
        flax's CIRCULAR, ``"reflect"`` for its REFLECT). Pools and transposed
        convolutions reject any mode but ``"constant"``.
      custom: for ``size="custom"``: ``custom(in_shape, window, strides, dilation)``
        returning one ``(lo, hi)`` per axis (MPS's ``custom`` method).
      half_window_pool_pads: pooling ops reject explicit pads larger than half the
        window (PyTorch's rule for its pools; its convolutions have no such limit).
      stride1_only: reject strides other than 1 (PyTorch's ``padding='same'``).
      name: a label used in error messages (the preset's call).

    A field that ``size`` does not read must keep its default: ``PaddingPolicy("same",
    explicit=1)`` is an error rather than a policy that ignores ``explicit``.

    Example:
      >>> import jaxpad
      >>> tf_same = jaxpad.PaddingPolicy("same")
      >>> tf_same.pads((224,), (7,), (2,)), tf_same.output_shape((224,), (7,), (2,))
      (((2, 3),), (112,))
    """

    size: str = "valid"
    remainder: str = "bottom_right"
    explicit: int | tuple = 0
    rounding: str = "floor"
    ceil_clip: str = "torch"
    divisor: str = "window"
    centred: bool = False
    pad_mode: str = "constant"
    custom: Callable | None = None
    half_window_pool_pads: bool = False
    stride1_only: bool = False
    name: str = "PaddingPolicy"

    def __post_init__(self):
        _checks.check_choice(_FN, "size", self.size, SIZES)
        _checks.check_choice(_FN, "remainder", self.remainder, REMAINDERS)
        _checks.check_choice(_FN, "rounding", self.rounding, ROUNDINGS)
        _checks.check_choice(_FN, "ceil_clip", self.ceil_clip, CEIL_CLIPS)
        _checks.check_choice(_FN, "divisor", self.divisor, DIVISORS)
        _checks.check_choice(_FN, "pad_mode", self.pad_mode, _checks.MODES)
        for flag in ("centred", "half_window_pool_pads", "stride1_only"):
            # Normalised before the unread-field check below compares with the defaults.
            value = getattr(self, flag)
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"{_FN}: {flag} must be a bool; got {value!r}.")
            object.__setattr__(self, flag, bool(value))
        if not isinstance(self.name, str):
            raise TypeError(f"{_FN}: name must be a str; got {self.name!r}.")
        if "custom" in _RULES[self.size].reads and not callable(self.custom):
            raise TypeError(f"{_FN}: size='custom' needs a callable custom; got {self.custom!r}.")
        object.__setattr__(self, "explicit", _freeze_explicit(self.explicit))
        reads = self._reads()
        for field, default in _OPTIONAL.items():
            value = getattr(self, field)
            if field in reads or _same_value(value, default):
                continue
            if field == "ceil_clip" and "rounding" in reads:
                raise ValueError(
                    f"{_FN}: ceil_clip is only read with rounding='ceil'; got "
                    f"ceil_clip={value!r} with rounding={self.rounding!r}."
                )
            where = f"size={self.size!r}"
            if self.centred and "centred" in _RULES[self.size].reads:
                where += " and centred=True"
            raise ValueError(f"{_FN}: {field} is not read with {where}; got {field}={value!r}.")

    def _reads(self) -> frozenset:
        """The optional fields this policy's size rule reads."""
        rule = _RULES[self.size]
        reads = rule.reads_centred if self.centred and "centred" in rule.reads else rule.reads
        if "rounding" in reads and self.rounding == "ceil":
            reads = reads | {"ceil_clip"}
        return reads

    # Which op asks -----------------------------------------------------------------

    def check_op(self, fn_name: str, op: str) -> None:
        """Raises if window op ``op`` cannot honour this policy (called by ``jaxpad.nn``).

        Args:
          fn_name: the public function the user called, for the message.
          op: ``"conv"``, ``"conv_transpose"``, ``"max_pool"`` or ``"avg_pool"``.

        Convolutions round down in every framework, so they reject
        ``rounding="ceil"`` (a pooling option). Every op honours every pad mode.
        ``divisor`` and ``half_window_pool_pads`` describe the framework's pools and
        are read by pools only; a convolution has nothing to use them for.

        Example:
          >>> import jaxpad
          >>> jaxpad.policies.torch(1).check_op("jaxpad.nn.conv", "conv")
        """
        _checks.check_choice(fn_name, "op", op, OPS)
        who = "this policy" if fn_name == self.name else f"policy {self.name}"
        if op in ("conv", "conv_transpose") and self.rounding == "ceil":
            raise ValueError(
                f"{fn_name}: {who} rounds the output size up (rounding='ceil', "
                "a pooling option); convolutions round down in every framework, so use a "
                "policy with rounding='floor' (ceil_mode=False, round_mode='floor')."
            )

    # Forward window ops -----------------------------------------------------------

    def pads(
        self, in_shape, window, strides=None, dilation=None, *, op: str | None = None
    ) -> tuple[tuple[int, int], ...]:
        """The ``(lo, hi)`` pads per axis that a VALID window op needs.

        ``op`` names the window op asking (see ``check_op``); None answers as for a
        convolution. Only ``onnx_same`` answers pools and convolutions differently.
        """
        return tuple(pads for pads, _, _ in self._forward(in_shape, window, strides, dilation, op))

    def output_shape(
        self, in_shape, window, strides=None, dilation=None, *, op: str | None = None
    ) -> tuple[int, ...]:
        """The output size per axis (``op`` as in ``pads``)."""
        return tuple(out for _, out, _ in self._forward(in_shape, window, strides, dilation, op))

    def declared_pads(self, in_shape, window, strides=None, dilation=None, *, op=None):
        """The padding the framework itself declares, before any ceil-mode overhang.

        Equals ``pads`` except with ceil rounding, where the last window may reach
        past the declared end padding; the ``"padded"`` divisor counts only up to here.
        """
        return tuple(decl for _, _, decl in self._forward(in_shape, window, strides, dilation, op))

    def _forward(self, in_shape, window, strides, dilation, op):
        if op is not None:
            self.check_op(self.name, op)
        in_shape, window, strides, dilation = self._axes(in_shape, window, strides, dilation)
        rule = _RULES[self.size]
        pairs = rule.pairs(self, in_shape, window, strides, dilation)
        # Caffe drops a ceil-mode window only when some pad (on any axis) is non-zero.
        any_pads = any(v != 0 for pair in pairs if pair is not None for v in pair)
        results = []
        for axis, (n, k, s, d, pair) in enumerate(zip(in_shape, window, strides, dilation, pairs)):
            pads, out, declared = rule.forward(self, _Axis(n, k, s, d, pair, op, any_pads))
            if out < 1:
                raise ValueError(
                    f"{self.name}: the output would be empty on axis {axis}: input size {n}, "
                    f"window {k} (dilated {d * (k - 1) + 1}), stride {s} give {out}."
                )
            results.append((pads, out, declared))
        return results

    def _rounded_out(self, a, lo, hi):
        """``(n + lo + hi - K) / s + 1`` rounded as ``rounding`` says, clipped in ceil mode."""
        padded = a.n + lo + hi
        if self.rounding == "floor":
            return (padded - a.span) // a.s + 1
        out = -(-(padded - a.span) // a.s) + 1
        # The last window must start inside the input or the begin padding.
        clip = self.ceil_clip == "torch" or a.any_pads
        if clip and (out - 1) * a.s >= a.n + lo:
            out -= 1
        return out

    def _explicit_pairs(self, ndim, window):
        explicit = self.explicit
        if isinstance(explicit, int):
            pairs = [(explicit, explicit)] * ndim
        elif len(explicit) == 2 and all(isinstance(v, int) for v in explicit):
            pairs = [tuple(explicit)] * ndim
        else:
            pairs = [tuple(pair) for pair in explicit]
            if len(pairs) != ndim or any(len(pair) != 2 for pair in pairs):
                raise ValueError(
                    f"{self.name}: explicit pads need one (lo, hi) pair per axis "
                    f"({ndim} axes); got {explicit!r}."
                )
        return pairs

    def check_pool_pads(self, window) -> None:
        """Raises if a pooling op may not use these explicit pads (PyTorch's limit)."""
        if not self.half_window_pool_pads:  # only explicit pads may set it
            return
        for axis, ((lo, hi), k) in enumerate(
            zip(self._explicit_pairs(len(window), window), window)
        ):
            if 2 * max(lo, hi) > k:
                raise ValueError(
                    f"{self.name}: pooling pads must be at most half the window; got pads "
                    f"{(lo, hi)} for window {k} on axis {axis}."
                )

    def _custom_pairs(self, in_shape, window, strides, dilation):
        pairs = self.custom(in_shape, window, strides, dilation)
        try:
            pairs = [tuple(int(v) for v in pair) for pair in pairs]
            ok = len(pairs) == len(in_shape) and all(len(pair) == 2 for pair in pairs)
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ValueError(
                f"{self.name}: the custom policy must return one (lo, hi) pair per axis "
                f"({len(in_shape)} axes); got {pairs!r}."
            )
        return pairs

    def _axes(self, in_shape, window, strides, dilation):
        in_shape = _int_tuple(self.name, "in_shape", in_shape, minimum=0)
        ndim = len(in_shape)
        window = _per_axis(self.name, "window", window, ndim, 1)
        strides = _per_axis(self.name, "strides", strides, ndim, 1)
        dilation = _per_axis(self.name, "dilation", dilation, ndim, 1)
        if self.stride1_only and any(s != 1 for s in strides):
            raise ValueError(
                f"{self.name}: padding='same' needs stride 1 on every axis (PyTorch rejects "
                f"other strides); got strides {strides}."
            )
        return in_shape, window, strides, dilation

    # Reverse (transposed) window ops ------------------------------------------------

    def reverse_pads(
        self, in_shape, window, strides=None, dilation=None, output_padding=None
    ) -> tuple[tuple[int, int, int], ...]:
        """``(lo, hi, a)`` per axis of the forward op that a transposed op undoes.

        ``self`` describes the forward op. The transposed op is the VJP of the
        forward op with pads ``(lo, hi)`` at output length
        ``L = (n - 1) * s + K - lo - hi + a``. For MPS policies ``L`` is MPS's
        DestSizeReverse under the opposite size policy, as MPS prescribes.
        """
        self.check_op(self.name, "conv_transpose")
        in_shape, window, strides, dilation = self._axes(in_shape, window, strides, dilation)
        ndim = len(in_shape)
        adjust = _per_axis(self.name, "output_padding", output_padding, ndim, 0, minimum=0)
        rule = _RULES[self.size]
        if rule.reverse is None:
            raise ValueError(f"{self.name}: a custom policy has no reverse; pass explicit pads.")
        pairs = rule.pairs(self, in_shape, window, strides, dilation)
        results = []
        for axis, (n, k, s, d, a, pair) in enumerate(
            zip(in_shape, window, strides, dilation, adjust, pairs)
        ):
            span = d * (k - 1) + 1
            if output_padding is not None and a >= max(s, d):
                raise ValueError(
                    f"{self.name}: output_padding must be smaller than the stride or the "
                    f"dilation; got {a} with stride {s} and dilation {d} on axis {axis}."
                )
            lo, hi, a = rule.reverse(self, _Axis(n, k, s, d, pair, "conv_transpose", False), a)
            results.append((lo, hi, a))
            if (n - 1) * s + span - lo - hi + a < 1:
                raise ValueError(
                    f"{self.name}: the transposed output would be empty on axis {axis}."
                )
        return tuple(results)

    def reverse_output_shape(
        self, in_shape, window, strides=None, dilation=None, output_padding=None
    ) -> tuple[int, ...]:
        """The output size per axis of the transposed op."""
        in_shape, window, strides, dilation = self._axes(in_shape, window, strides, dilation)
        return tuple(
            (n - 1) * s + d * (k - 1) + 1 - lo - hi + a
            for n, k, s, d, (lo, hi, a) in zip(
                in_shape,
                window,
                strides,
                dilation,
                self.reverse_pads(in_shape, window, strides, dilation, output_padding),
            )
        )


# The size rules ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Axis:
    """One axis of a window op: what a size rule is asked about."""

    n: int
    k: int
    s: int
    d: int
    pair: tuple[int, int] | None  # the explicit or custom (lo, hi), if any
    op: str | None
    any_pads: bool  # some explicit or custom pad on some axis is non-zero

    @property
    def span(self) -> int:
        return self.d * (self.k - 1) + 1


@dataclasses.dataclass(frozen=True)
class _SizeRule:
    """A size policy: the optional fields it reads, and how it pads one axis.

    ``forward(policy, axis)`` returns ``((lo, hi), out, declared)``; ``reverse(policy,
    axis, a)`` returns the forward op's ``(lo, hi, a)`` that a transposed op undoes,
    given the user's ``output_padding`` ``a`` (None: the size has no reverse).
    ``pairs(policy, in_shape, window, strides, dilation)`` gives the declared ``(lo,
    hi)`` of every axis for sizes that declare them (explicit, custom), else Nones.
    ``style`` is MPS's -1 / 0 / +1 for valid / same / full: ``ceil((n + style *
    (K - 1)) / s)`` windows. ``reads_centred`` is what it reads with centred=True.
    """

    reads: frozenset
    forward: Callable
    reverse: Callable | None
    pairs: Callable = lambda policy, in_shape, *rest: [None] * len(in_shape)
    style: int | None = None
    reads_centred: frozenset = frozenset()
    reverse_length: Callable | None = None  # TensorFlow's transposed length, non-centred


def _styled_forward(policy, a):
    rule = _RULES[policy.size]
    out = -(-(a.n + rule.style * (a.span - 1)) // a.s)
    extra = (out - 1) * a.s + a.span - a.n
    if policy.centred:
        # MPS splits with C's truncating division, also when extra < 0.
        lo = _trunc_half(extra + (policy.remainder == "top_left"))
    else:
        extra = max(extra, 0)
        lo = extra // 2 if policy.remainder == "bottom_right" else extra - extra // 2
    pads = (lo, extra - lo)
    return pads, out, pads


def _valid_forward(policy, a):
    if policy.centred:
        return _styled_forward(policy, a)
    # TensorFlow's VALID: windows from the start; hi < 0 where the tail is unread.
    out = policy._rounded_out(a, 0, 0)
    return (0, (out - 1) * a.s + a.span - a.n), out, (0, 0)


def _styled_reverse(policy, a, adjust):
    n, span, s = a.n, a.span, a.s
    rule = _RULES[policy.size]
    if policy.centred:
        # MPS's DestSizeReverse, under the opposite size policy of the forward
        # filter (validOnly is undone by sizeFull and vice versa), as MPS says.
        length = (n - 1) * s + 1 - rule.style * (span - 1)
    else:
        length = rule.reverse_length(n, span, s)
    (lo, hi), _, _ = rule.forward(policy, dataclasses.replace(a, n=length))
    return lo, hi, length - ((n - 1) * s + span - lo - hi)


def _declared_forward(policy, a):
    """Explicit and custom pads: the output size rounds from the padded size."""
    lo, hi = a.pair
    out = policy._rounded_out(a, lo, hi)
    return (lo, max(hi, (out - 1) * a.s + a.span - a.n - lo)), out, (lo, hi)


def _explicit_reverse(policy, a, adjust):
    return (*a.pair, adjust)


def _explicit_pairs(policy, in_shape, window, strides, dilation):
    return policy._explicit_pairs(len(in_shape), window)


def _custom_pairs(policy, in_shape, window, strides, dilation):
    return policy._custom_pairs(in_shape, window, strides, dilation)


def _same_stride1_pair(policy, a):
    total = a.span - 1
    lo = total // 2 if policy.remainder == "bottom_right" else total - total // 2
    return lo, total - lo


def _causal_pair(policy, a):
    return a.span - 1, 0


def _stride1_forward(pair):
    def forward(policy, a):
        lo, hi = pair(policy, a)
        return (lo, hi), (a.n + lo + hi - a.span) // a.s + 1, (lo, hi)

    def reverse(policy, a, adjust):
        return (*pair(policy, a), adjust)

    return forward, reverse


def _onnx_same_forward(policy, a):
    # onnxruntime's ComputePad: total = (ceil(n/s) - 1) * s + k - n, head = total / 2
    # (SAME_UPPER) or (total + 1) / 2 (SAME_LOWER) in C's truncating division, also
    # when total < 0 (a kernel smaller than the stride: the windows then skip input
    # at both ends). Its pools take the undilated k in the total and size the output
    # from the padded input; its convolutions reject dilation (we follow the ONNX
    # formula with K), and their kernels split a negative total as if it were one
    # larger (the windows start up to one unit earlier than the pools'). Measured
    # against onnxruntime in tests/test_onnx_parity.py.
    lower = policy.remainder == "top_left"
    pool = a.op in _POOLS
    total = (-(-a.n // a.s) - 1) * a.s + (a.k if pool else a.span) - a.n
    if pool:
        lo = _trunc_half(total + lower)
    elif total >= 0:
        lo = (total + lower) // 2
    else:
        lo = _trunc_half(total + 1 + lower)
    hi = total - lo
    out = policy._rounded_out(a, lo, hi)
    return (lo, max(hi, (out - 1) * a.s + a.span - a.n - lo)), out, (lo, hi)


def _onnx_same_reverse(policy, a, adjust):
    # As TensorFlow's SAME: the transposed op's output is n * s long.
    length = a.n * a.s
    (lo, hi), _, _ = _onnx_same_forward(policy, dataclasses.replace(a, n=length, op="conv"))
    return lo, hi, length - ((a.n - 1) * a.s + a.span - lo - hi)


def _trunc_half(value: int) -> int:
    """``value / 2`` rounded toward zero, as C's integer division."""
    return -((-value) // 2) if value < 0 else value // 2


_CENTRED_READS = frozenset({"centred", "remainder"})
_RULES = {
    "valid": _SizeRule(
        frozenset({"centred", "rounding"}),
        _valid_forward,
        _styled_reverse,
        style=-1,
        reads_centred=_CENTRED_READS,
        reverse_length=lambda n, span, s: (n - 1) * s + span + max(s - span, 0),
    ),
    "same": _SizeRule(
        _CENTRED_READS,
        _styled_forward,
        _styled_reverse,
        style=0,
        reads_centred=_CENTRED_READS,
        reverse_length=lambda n, span, s: n * s,
    ),
    "full": _SizeRule(
        _CENTRED_READS,
        _styled_forward,
        _styled_reverse,
        style=1,
        reads_centred=_CENTRED_READS,
        reverse_length=lambda n, span, s: (n - 1) * s + 1 - (span - 1),
    ),
    "explicit": _SizeRule(
        frozenset({"explicit", "rounding", "half_window_pool_pads"}),
        _declared_forward,
        _explicit_reverse,
        pairs=_explicit_pairs,
    ),
    "same_stride1": _SizeRule(frozenset({"remainder"}), *_stride1_forward(_same_stride1_pair)),
    "causal": _SizeRule(frozenset(), *_stride1_forward(_causal_pair)),
    "custom": _SizeRule(
        frozenset({"custom", "rounding"}), _declared_forward, None, pairs=_custom_pairs
    ),
    "onnx_same": _SizeRule(
        frozenset({"remainder", "rounding"}), _onnx_same_forward, _onnx_same_reverse
    ),
}


# Helpers -------------------------------------------------------------------------------


def _same_value(value, default) -> bool:
    return type(value) is type(default) and value == default


def _freeze_explicit(explicit):
    """An int, or nested tuples of ints: lists and arrays frozen so the policy hashes."""
    if isinstance(explicit, (np.ndarray, np.generic)):
        explicit = explicit.tolist()
    if isinstance(explicit, (list, tuple)):
        return tuple(_freeze_explicit(v) for v in explicit)
    return _checks.static_int(_FN, "explicit", explicit)


def _int_tuple(fn_name, arg_name, value, *, minimum):
    values = _checks.static_int_tuple(fn_name, arg_name, value)
    if any(v < minimum for v in values):
        raise ValueError(f"{fn_name}: {arg_name} entries must be >= {minimum}; got {values}.")
    return values


def _per_axis(fn_name, arg_name, value, ndim, default, *, minimum=1):
    """An int for every axis, one int per axis, or None for the default."""
    if value is None:
        return (default,) * ndim
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * ndim
    if not isinstance(value, Sequence):
        value = _checks.static_int_tuple(fn_name, arg_name, value)
    values = _int_tuple(fn_name, arg_name, value, minimum=minimum)
    _checks.check_length(fn_name, arg_name, values, ndim, axes=f"axis ({ndim})")
    return values
