"""Presets: each framework's padding convention as a ``jaxpad.PaddingPolicy``.

Pick the preset of the framework a model comes from, and window ops in
``jaxpad.nn`` pad and size their outputs exactly as that framework does
(``docs/policy-formulas.md`` has the formulas, and tests/test_policy.py pins their cases).

Example:
  >>> from jaxpad import policies
  >>> policies.tensorflow("SAME").pads((8,), (3,), (2,))
  ((0, 1),)
  >>> policies.jax("SAME_LOWER").pads((8,), (3,), (2,))
  ((1, 0),)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxpad import _checks
from jaxpad._policy import PaddingPolicy

__all__ = ["caffe", "flax", "jax", "keras", "mps", "onnx", "tensorflow", "torch"]


def _non_negative(fn, arg_name, values):
    """Framework pads are widths: PyTorch, Caffe and ONNX reject negative ones."""
    flat = (values,) if isinstance(values, int) else values
    if any(v < 0 for v in flat):
        raise ValueError(f"{fn}: {arg_name} must be non-negative; got {values}.")
    return values


def _symmetric_widths(fn, arg_name, value):
    """A framework's symmetric padding: an int for every axis, or one int per axis
    (each padding both ends). Non-negative, as the frameworks require."""
    if isinstance(value, int):
        return _non_negative(fn, arg_name, _checks.static_int(fn, arg_name, value))
    widths = _non_negative(fn, arg_name, _checks.static_int_tuple(fn, arg_name, value))
    return tuple((w, w) for w in widths)


def _label(fn, first, **options):
    """The preset's call as a name: its first argument, then every option given a
    value other than its default (``options`` maps a name to ``(value, default)``)."""
    parts = [repr(first)]
    parts += [f"{key}={value!r}" for key, (value, default) in options.items() if value != default]
    return f"jaxpad.policies.{fn}({', '.join(parts)})"


def _flag(fn, arg_name, value):
    """A preset's boolean option: a bool, or 0 / 1 as ONNX writes its attributes."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return bool(value)
    raise TypeError(f"{fn}: {arg_name} must be a bool (or 0 / 1); got {value!r}.")


def tensorflow(padding: str = "VALID") -> PaddingPolicy:
    """TensorFlow's ``padding="SAME" | "VALID"``; average pools divide by valid positions.

    Example:
      >>> tensorflow("SAME").output_shape((224,), (7,), (2,))
      (112,)
    """
    _checks.check_choice("jaxpad.policies.tensorflow", "padding", padding, ("SAME", "VALID"))
    return PaddingPolicy(padding.lower(), divisor="valid", name=_label("tensorflow", padding))


def jax(padding: str = "VALID") -> PaddingPolicy:
    """JAX's ``"SAME"``, ``"SAME_LOWER"`` (odd unit at the start) and ``"VALID"``.

    Example:
      >>> jax("SAME_LOWER").pads((5,), (4,))
      ((2, 1),)
    """
    choices = ("SAME", "SAME_LOWER", "VALID")
    _checks.check_choice("jaxpad.policies.jax", "padding", padding, choices)
    size = "valid" if padding == "VALID" else "same"
    remainder = "top_left" if padding == "SAME_LOWER" else "bottom_right"
    return PaddingPolicy(size, remainder, name=_label("jax", padding))


def onnx(
    auto_pad: str = "NOTSET",
    pads=None,
    ceil_mode: bool = False,
    count_include_pad: bool = False,
) -> PaddingPolicy:
    """ONNX Conv/Pool attributes. ``pads`` is ONNX's flat ``[b1, b2, ..., e1, e2, ...]``.

    ``auto_pad="SAME_UPPER"``/``"SAME_LOWER"`` pad as onnxruntime does, also where a
    kernel smaller than the stride makes the total pad negative (the windows then
    skip input at both ends, and onnxruntime's pools and convolutions place them
    differently: the window ops say which they are). ``ceil_mode`` applies with every
    ``auto_pad``, as in onnxruntime's pools; convolutions reject it (ONNX's Conv has
    none).

    Example:
      >>> onnx(pads=[1, 0, 2, 1]).pads((5, 5), (3, 3))
      ((1, 2), (0, 1))
      >>> onnx("SAME_UPPER").pads((6,), (1,), (3,), op="avg_pool")
      ((-1, -1),)
    """
    fn = "jaxpad.policies.onnx"
    _checks.check_choice(fn, "auto_pad", auto_pad, ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"))
    ceil_mode = _flag(fn, "ceil_mode", ceil_mode)
    count_include_pad = _flag(fn, "count_include_pad", count_include_pad)
    flat = None
    if pads is not None:
        flat = _non_negative(fn, "pads", _checks.static_int_tuple(fn, "pads", pads))
        if len(flat) % 2:
            raise ValueError(f"{fn}: pads needs a begin and an end per axis; got {flat}.")
    label = _label(
        "onnx",
        auto_pad,
        pads=(flat, None),
        ceil_mode=(ceil_mode, False),
        count_include_pad=(count_include_pad, False),
    )
    common = {
        "rounding": "ceil" if ceil_mode else "floor",
        "divisor": "padded" if count_include_pad else "valid",
        "name": label,
    }
    if auto_pad != "NOTSET":
        if flat is not None and any(flat):
            raise ValueError(f"{fn}: pads must not be set with auto_pad={auto_pad!r}; got {pads}.")
        if auto_pad == "VALID":
            return PaddingPolicy("valid", **common)
        remainder = "top_left" if auto_pad == "SAME_LOWER" else "bottom_right"
        return PaddingPolicy("onnx_same", remainder, **common)
    explicit: int | tuple[tuple[int, int], ...] = 0
    if flat is not None:
        half = len(flat) // 2
        explicit = tuple(zip(flat[:half], flat[half:]))
    return PaddingPolicy("explicit", explicit=explicit, **common)


def torch(padding=0, ceil_mode: bool = False, count_include_pad: bool = True) -> PaddingPolicy:
    """PyTorch's ``padding=`` (an int, a per-axis tuple, ``"same"`` or ``"valid"``).

    Pools with it reject pads over half the window, as PyTorch does; ``"same"``
    rejects strides other than 1. ``ceil_mode`` and ``count_include_pad`` are pooling
    options: they need int padding (PyTorch's pools take no string), and
    convolutions reject ``ceil_mode=True``.

    Example:
      >>> torch(1, ceil_mode=True).output_shape((112,), (3,), (2,))
      (57,)
    """
    fn = "jaxpad.policies.torch"
    ceil_mode = _flag(fn, "ceil_mode", ceil_mode)
    count_include_pad = _flag(fn, "count_include_pad", count_include_pad)
    divisor = "padded" if count_include_pad else "valid"
    if isinstance(padding, str):
        _checks.check_choice(fn, "padding", padding, ("same", "valid"))
        for arg_name, value, default in (
            ("ceil_mode", ceil_mode, False),
            ("count_include_pad", count_include_pad, True),
        ):
            if value != default:
                raise ValueError(
                    f"{fn}: {arg_name} is a pooling option and padding={padding!r} a "
                    f"convolution one (PyTorch's pools take int padding); got "
                    f"{arg_name}={value!r} with padding={padding!r}."
                )
        label = _label("torch", padding)
        if padding == "valid":
            return PaddingPolicy("valid", divisor=divisor, name=label)
        return PaddingPolicy("same_stride1", divisor=divisor, stride1_only=True, name=label)
    widths = _symmetric_widths(fn, "padding", padding)
    label = _label(
        "torch",
        padding if isinstance(widths, int) else tuple(w for w, _ in widths),
        ceil_mode=(ceil_mode, False),
        count_include_pad=(count_include_pad, True),
    )
    return PaddingPolicy(
        "explicit",
        explicit=widths,
        rounding="ceil" if ceil_mode else "floor",
        divisor=divisor,
        half_window_pool_pads=True,
        name=label,
    )


def caffe(pad=0, round_mode: str = "ceil") -> PaddingPolicy:
    """Caffe's ``pad`` with its pooling ``round_mode``.

    Caffe's convolutions round down: use ``round_mode="floor"`` for them
    (convolutions reject a policy that rounds up).

    Example:
      >>> caffe(0).output_shape((5,), (1,), (3,))
      (3,)
    """
    fn = "jaxpad.policies.caffe"
    _checks.check_choice(fn, "round_mode", round_mode, ("ceil", "floor"))
    widths = _symmetric_widths(fn, "pad", pad)
    first = pad if isinstance(widths, int) else tuple(w for w, _ in widths)
    options: dict[str, Any] = {"ceil_clip": "caffe"} if round_mode == "ceil" else {}
    return PaddingPolicy(
        "explicit",
        explicit=widths,
        rounding=round_mode,
        divisor="padded",
        name=_label("caffe", first, round_mode=(round_mode, "ceil")),
        **options,
    )


def keras(padding: str = "valid") -> PaddingPolicy:
    """Keras' ``padding="valid" | "same" | "causal"``.

    Example:
      >>> keras("causal").pads((10,), (3,))
      ((2, 0),)
    """
    _checks.check_choice("jaxpad.policies.keras", "padding", padding, ("valid", "same", "causal"))
    return PaddingPolicy(padding, divisor="valid", name=_label("keras", padding))


def flax(padding: str = "SAME") -> PaddingPolicy:
    """flax.linen's ``padding=``: CIRCULAR and REFLECT also set the conv's pad mode.

    Example:
      >>> policy = flax("CIRCULAR")
      >>> policy.pads((8,), (4,), (2,)), policy.pad_mode
      (((1, 2),), 'wrap')
    """
    choices = ("SAME", "VALID", "CIRCULAR", "REFLECT", "CAUSAL")
    _checks.check_choice("jaxpad.policies.flax", "padding", padding, choices)
    label = _label("flax", padding)
    if padding in ("SAME", "VALID"):
        return PaddingPolicy(padding.lower(), name=label)
    if padding == "CAUSAL":
        return PaddingPolicy("causal", name=label)
    mode = "wrap" if padding == "CIRCULAR" else "reflect"
    return PaddingPolicy("same_stride1", pad_mode=mode, name=label)


def mps(
    size: str = "valid", remainder: str = "top_left", exclude_edges: bool = False
) -> PaddingPolicy:
    """Apple MPSNNPaddingMethod: size policy, remainder policy, ExcludeEdges.

    Example:
      >>> mps("full", "bottom_right").pads((6,), (3,), (2,))
      ((1, 2),)
      >>> mps("same", exclude_edges=True).name
      "jaxpad.policies.mps('same', exclude_edges=True)"
    """
    fn = "jaxpad.policies.mps"
    _checks.check_choice(fn, "size", size, ("valid", "same", "full"))
    _checks.check_choice(fn, "remainder", remainder, ("top_left", "bottom_right"))
    exclude_edges = _flag(fn, "exclude_edges", exclude_edges)
    return PaddingPolicy(
        size,
        remainder,
        centred=True,
        # Apple's header: ExcludeEdges leaves out "invalid regions beyond the padding",
        # and counts the padding itself: the "padded" divisor, as Caffe's AVE pool.
        divisor="padded" if exclude_edges else "window",
        name=_label(
            "mps", size, remainder=(remainder, "top_left"), exclude_edges=(exclude_edges, False)
        ),
    )
