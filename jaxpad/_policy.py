"""``PaddingPolicy``: a framework's padding convention as a value.

How much a window op pads, where the odd unit goes and how the output size rounds
differ between TensorFlow, PyTorch, Caffe, ONNX and Apple's MPS
(``padding-policies.md``). A policy answers, per axis, the two questions a window op
asks: the output size, and the pads ``(lo, hi)`` that make a VALID window op produce
exactly that many windows (``n + lo + hi >= (out - 1) * s + K``; a negative ``hi``
means trailing input is never read). ``reverse_*`` answer the same for transposed
ops, whose output length is ``L = (n - 1) * s + K - lo - hi + a``.

Notation as in ``padding-policies.md``: ``n`` input size, ``k`` window, ``s`` stride,
``d`` dilation, ``K = d * (k - 1) + 1``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from jaxpad import _checks

SIZES = ("valid", "same", "full", "explicit", "same_stride1", "causal", "custom")
REMAINDERS = ("bottom_right", "top_left")
ROUNDINGS = ("floor", "ceil")
CEIL_CLIPS = ("torch", "caffe")
DIVISORS = ("window", "padded", "valid")
_MODES = ("constant", "edge", "reflect", "symmetric", "wrap")

_FN = "jaxpad.PaddingPolicy"


@dataclasses.dataclass(frozen=True)
class PaddingPolicy:
    """A padding convention: output size, pad placement, rounding and pooling divisor.

    Attributes:
      size: ``"valid"`` (windows inside the input), ``"same"`` (``ceil(n / s)``
        windows), ``"full"`` (every window that touches the input), ``"explicit"``
        (the pads in ``explicit``), ``"same_stride1"`` (the stride-1 SAME pads
        ``((K-1)//2, K//2)`` whatever the stride, as flax's CIRCULAR/REFLECT and
        PyTorch's ``padding='same'``), ``"causal"`` (``(K-1, 0)``) or ``"custom"``
        (``custom`` computes the pads).
      remainder: where an odd unit of padding goes: ``"bottom_right"`` (TensorFlow,
        ONNX SAME_UPPER) or ``"top_left"`` (JAX SAME_LOWER, MPS's default).
      explicit: for ``size="explicit"``: an int ``p`` (``(p, p)`` on every axis), a
        pair ``(lo, hi)`` for every axis, or one pair per axis.
      rounding: for explicit pads, how ``(n + lo + hi - K) / s`` rounds: ``"floor"``
        or ``"ceil"``.
      ceil_clip: with ceil rounding, when the last window is dropped because it would
        start in the end padding: ``"torch"`` (always checked) or ``"caffe"`` (only
        when the pads are non-zero).
      divisor: the average pool's divisor: ``"window"`` (the window size),
        ``"padded"`` (window positions inside the input or its padding) or
        ``"valid"`` (positions inside the input).
      centred: MPS's rule: the read region is centred on the input even when it is
        smaller (``extra = (out-1)*s + K - n`` may be negative, split by truncating
        division). Otherwise TensorFlow's: SAME never crops, VALID crops at the end.
      pad_mode: the pad mode a convolution uses with this policy (``"wrap"`` for
        flax's CIRCULAR, ``"reflect"`` for its REFLECT).
      custom: for ``size="custom"``: ``custom(in_shape, window, strides, dilation)``
        returning one ``(lo, hi)`` per axis (MPS's ``custom`` method).
      half_window_pool_pads: pooling ops reject explicit pads larger than half the
        window (PyTorch's rule for its pools; its convolutions have no such limit).
      stride1_only: reject strides other than 1 (PyTorch's ``padding='same'``).
      name: a label used in error messages (the preset's name).

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
        _checks.check_choice(_FN, "pad_mode", self.pad_mode, _MODES)
        if self.size == "custom" and not callable(self.custom):
            raise TypeError(f"{_FN}: size='custom' needs a callable custom; got {self.custom!r}.")
        if isinstance(self.explicit, list):
            object.__setattr__(self, "explicit", _freeze(self.explicit))

    # Forward window ops -----------------------------------------------------------

    def pads(self, in_shape, window, strides=None, dilation=None) -> tuple[tuple[int, int], ...]:
        """The ``(lo, hi)`` pads per axis that a VALID window op needs."""
        return tuple(lo_hi for lo_hi, _ in self._forward(in_shape, window, strides, dilation))

    def output_shape(self, in_shape, window, strides=None, dilation=None) -> tuple[int, ...]:
        """The output size per axis."""
        return tuple(out for _, out in self._forward(in_shape, window, strides, dilation))

    def declared_pads(self, in_shape, window, strides=None, dilation=None):
        """The padding the framework itself declares, before any ceil-mode overhang.

        Equals ``pads`` except with ceil rounding, where the last window may reach
        past the declared end padding; the ``"padded"`` divisor counts only up to here.
        """
        in_shape, window, strides, dilation = self._axes(in_shape, window, strides, dilation)
        if self.size != "explicit":
            return self.pads(in_shape, window, strides, dilation)
        return self._explicit_pairs(len(in_shape), window)

    def _forward(self, in_shape, window, strides, dilation):
        in_shape, window, strides, dilation = self._axes(in_shape, window, strides, dilation)
        spans = [d * (k - 1) + 1 for k, d in zip(window, dilation)]
        if self.size == "custom":
            pairs = self._custom_pairs(in_shape, window, strides, dilation)
        elif self.size == "explicit":
            pairs = self._explicit_pairs(len(in_shape), window)
        else:
            pairs = [None] * len(in_shape)
        results = []
        for axis, (n, span, s, pair) in enumerate(zip(in_shape, spans, strides, pairs)):
            if pair is not None:
                lo, hi = pair
                out = self._explicit_out(n + lo + hi, span, s, n, lo)
                hi = max(hi, (out - 1) * s + span - n - lo)
            else:
                out = self._policy_out(n, span, s)
                lo, hi = self._split(n, span, s, out)
            if out < 1:
                raise ValueError(
                    f"{self.name}: the output would be empty on axis {axis}: input size {n}, "
                    f"window {window[axis]} (dilated {span}), stride {s} give {out}."
                )
            results.append(((lo, hi), out))
        return results

    def _policy_out(self, n, span, s):
        if self.size in ("same_stride1", "causal"):
            lo, hi = _stride1_pads(self.size, span, self.remainder)
            return (n + lo + hi - span) // s + 1
        if self.centred:
            style = {"valid": -1, "same": 0, "full": 1}[self.size]
            return -(-(n + style * (span - 1)) // s)
        if self.size == "valid":
            return (n - span) // s + 1
        if self.size == "same":
            return -(-n // s)
        return -(-(n + span - 1) // s)  # full

    def _split(self, n, span, s, out):
        if self.size in ("same_stride1", "causal"):
            return _stride1_pads(self.size, span, self.remainder)
        extra = (out - 1) * s + span - n
        if self.centred:
            # MPS splits with C's truncating division, also when extra < 0.
            bias = 1 if self.remainder == "top_left" else 0
            lo = int((extra + bias) / 2)
            return lo, extra - lo
        if self.size == "valid":
            return 0, extra
        extra = max(extra, 0)
        lo = extra // 2 if self.remainder == "bottom_right" else extra - extra // 2
        return lo, extra - lo

    def _explicit_out(self, padded, span, s, n, lo):
        if self.rounding == "floor":
            return (padded - span) // s + 1
        out = -(-(padded - span) // s) + 1
        # The last window must start inside the input or the begin padding.
        clip = self.ceil_clip == "torch" or any(_flat(self.explicit))
        if clip and (out - 1) * s >= n + lo:
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
        if self.size != "explicit" or not self.half_window_pool_pads:
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
        in_shape, window, strides, dilation = self._axes(in_shape, window, strides, dilation)
        ndim = len(in_shape)
        adjust = _per_axis(self.name, "output_padding", output_padding, ndim, 0, minimum=0)
        if self.size == "custom":
            raise ValueError(f"{self.name}: a custom policy has no reverse; pass explicit pads.")
        results = []
        for axis, (n, k, s, d, a) in enumerate(zip(in_shape, window, strides, dilation, adjust)):
            span = d * (k - 1) + 1
            if output_padding is not None and a >= max(s, d):
                raise ValueError(
                    f"{self.name}: output_padding must be smaller than the stride or the "
                    f"dilation; got {a} with stride {s} and dilation {d} on axis {axis}."
                )
            if self.size == "explicit":
                lo, hi = self._explicit_pairs(ndim, window)[axis]
            elif self.size in ("same_stride1", "causal"):
                lo, hi = _stride1_pads(self.size, span, self.remainder)
            else:
                length = self._reverse_length(n, span, s)
                (lo, hi), _ = self._forward_axis(length, span, s)
                a = length - ((n - 1) * s + span - lo - hi)
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

    def _reverse_length(self, n, span, s):
        if self.centred:
            # MPS's DestSizeReverse, under the opposite size policy of the forward
            # filter (validOnly is undone by sizeFull and vice versa), as MPS says.
            style = {"valid": 1, "same": 0, "full": -1}[self.size]
            return (n - 1) * s + 1 + style * (span - 1)
        if self.size == "same":
            return n * s
        if self.size == "valid":
            return (n - 1) * s + span + max(s - span, 0)
        return (n - 1) * s + 1 - (span - 1)  # full

    def _forward_axis(self, n, span, s):
        out = self._policy_out(n, span, s)
        return self._split(n, span, s, out), out


def _stride1_pads(size, span, remainder):
    if size == "causal":
        return span - 1, 0
    total = span - 1
    lo = total // 2 if remainder == "bottom_right" else total - total // 2
    return lo, total - lo


def _flat(explicit):
    if isinstance(explicit, int):
        return [explicit]
    out = []
    for value in explicit:
        out.extend(_flat(value) if not isinstance(value, int) else [value])
    return out


def _freeze(value):
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


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
    if len(values) != ndim:
        raise ValueError(
            f"{fn_name}: {arg_name} needs one entry per axis ({ndim}); got {len(values)}: {values}."
        )
    return values
