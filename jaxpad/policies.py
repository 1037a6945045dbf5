"""Presets: each framework's padding convention as a ``jaxpad.PaddingPolicy``.

Pick the preset of the framework a model comes from, and window ops in
``jaxpad.nn`` pad and size their outputs exactly as that framework does
(``padding-policies.md`` has the formulas; every pinned case there is a test).

Example:
  >>> from jaxpad import policies
  >>> policies.tensorflow("SAME").pads((8,), (3,), (2,))
  ((0, 1),)
  >>> policies.jax("SAME_LOWER").pads((8,), (3,), (2,))
  ((1, 0),)
"""

from __future__ import annotations

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


def _label(fn, *args):
    return f"jaxpad.policies.{fn}({', '.join(repr(a) for a in args)})"


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

    Example:
      >>> onnx(pads=[1, 0, 2, 1]).pads((5, 5), (3, 3))
      ((1, 2), (0, 1))
    """
    fn = "jaxpad.policies.onnx"
    _checks.check_choice(fn, "auto_pad", auto_pad, ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"))
    divisor = "padded" if count_include_pad else "valid"
    label = _label("onnx", auto_pad)
    if auto_pad != "NOTSET":
        if pads is not None and any(pads):
            raise ValueError(f"{fn}: pads must not be set with auto_pad={auto_pad!r}; got {pads}.")
        size = "valid" if auto_pad == "VALID" else "same"
        remainder = "top_left" if auto_pad == "SAME_LOWER" else "bottom_right"
        return PaddingPolicy(size, remainder, divisor=divisor, name=label)
    explicit = 0
    if pads is not None:
        flat = _non_negative(fn, "pads", _checks.static_int_tuple(fn, "pads", pads))
        if len(flat) % 2:
            raise ValueError(f"{fn}: pads needs a begin and an end per axis; got {flat}.")
        half = len(flat) // 2
        explicit = tuple(zip(flat[:half], flat[half:]))
    return PaddingPolicy(
        "explicit",
        explicit=explicit,
        rounding="ceil" if ceil_mode else "floor",
        divisor=divisor,
        name=label,
    )


def torch(padding=0, ceil_mode: bool = False, count_include_pad: bool = True) -> PaddingPolicy:
    """PyTorch's ``padding=`` (an int, a per-axis tuple, ``"same"`` or ``"valid"``).

    Pools with it reject pads over half the window, as PyTorch does; ``"same"``
    rejects strides other than 1.

    Example:
      >>> torch(1, ceil_mode=True).output_shape((112,), (3,), (2,))
      (57,)
    """
    fn = "jaxpad.policies.torch"
    divisor = "padded" if count_include_pad else "valid"
    label = _label("torch", padding)
    if isinstance(padding, str):
        _checks.check_choice(fn, "padding", padding, ("same", "valid"))
        if padding == "valid":
            return PaddingPolicy("valid", divisor=divisor, name=label)
        return PaddingPolicy("same_stride1", divisor=divisor, stride1_only=True, name=label)
    return PaddingPolicy(
        "explicit",
        explicit=_symmetric_widths(fn, "padding", padding),
        rounding="ceil" if ceil_mode else "floor",
        divisor=divisor,
        half_window_pool_pads=True,
        name=label,
    )


def caffe(pad=0, round_mode: str = "ceil") -> PaddingPolicy:
    """Caffe's ``pad`` with its pooling ``round_mode`` (convolutions round down).

    Example:
      >>> caffe(0).output_shape((5,), (1,), (3,))
      (3,)
    """
    fn = "jaxpad.policies.caffe"
    _checks.check_choice(fn, "round_mode", round_mode, ("ceil", "floor"))
    return PaddingPolicy(
        "explicit",
        explicit=_symmetric_widths(fn, "pad", pad),
        rounding=round_mode,
        ceil_clip="caffe",
        divisor="padded",
        name=_label("caffe", pad, round_mode),
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


def mps(size: str = "valid", remainder: str = "top_left", exclude_edges: bool = False):
    """Apple MPSNNPaddingMethod: size policy, remainder policy, ExcludeEdges.

    Example:
      >>> mps("full", "bottom_right").pads((6,), (3,), (2,))
      ((1, 2),)
    """
    fn = "jaxpad.policies.mps"
    _checks.check_choice(fn, "size", size, ("valid", "same", "full"))
    _checks.check_choice(fn, "remainder", remainder, ("top_left", "bottom_right"))
    return PaddingPolicy(
        size,
        remainder,
        centred=True,
        divisor="padded" if exclude_edges else "window",
        name=_label("mps", size, remainder),
    )
