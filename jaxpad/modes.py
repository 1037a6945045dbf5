"""Other frameworks' names for padding modes, translated to jaxpad's.

The same word means different things across libraries: scipy.ndimage's and OpenCV's
``reflect`` repeat the edge element (jaxpad's ``"symmetric"``), while numpy's, PyTorch's
and TensorFlow's do not (jaxpad's ``"reflect"``). ``jaxpad.pad`` accepts only its own
names and rejects every other spelling; these functions translate a framework's name,
or raise a ``ValueError`` that says why a name has no padding equivalent.

| jaxpad | numpy, ONNX | PyTorch | TensorFlow | scipy.ndimage | OpenCV |
|---|---|---|---|---|---|
| ``constant`` | ``constant`` | ``constant``, ``zeros`` | ``CONSTANT`` | ``constant``, ``grid-constant`` | ``BORDER_CONSTANT`` |
| ``edge`` | ``edge`` | ``replicate`` | | ``nearest`` | ``BORDER_REPLICATE`` |
| ``reflect`` | ``reflect`` | ``reflect`` | ``REFLECT`` | ``mirror`` | ``BORDER_REFLECT_101`` |
| ``symmetric`` | ``symmetric`` (numpy) | | ``SYMMETRIC`` | ``reflect``, ``grid-mirror`` | ``BORDER_REFLECT`` |
| ``wrap`` | ``wrap`` | ``circular`` | | ``wrap``, ``grid-wrap`` | ``BORDER_WRAP`` |

PyWavelets' extension modes (``from_pywt``): ``zero`` is ``constant``, ``constant`` is
``edge``, ``periodic`` is ``wrap``, ``antireflect`` is ``reflect_odd``; ``symmetric``,
``reflect``, ``smooth`` and ``antisymmetric`` keep their names.
"""  # noqa: E501

from __future__ import annotations

from jaxpad._index_maps import MODES

__all__ = [
    "from_numpy",
    "from_onnx",
    "from_opencv",
    "from_pywt",
    "from_scipy",
    "from_tensorflow",
    "from_torch",
]

_NUMPY = {mode: mode for mode in MODES}
_NUMPY_ONLY = ("linear_ramp", "maximum", "mean", "median", "minimum", "empty")
_ONNX = {"constant": "constant", "reflect": "reflect", "edge": "edge", "wrap": "wrap"}
_TORCH = {
    "constant": "constant",
    "zeros": "constant",  # nn.Conv's padding_mode
    "reflect": "reflect",
    "replicate": "edge",
    "circular": "wrap",
}
_TENSORFLOW = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}
_SCIPY = {
    "constant": "constant",
    "grid-constant": "constant",
    "nearest": "edge",
    "mirror": "reflect",
    "reflect": "symmetric",
    "grid-mirror": "symmetric",
    "wrap": "wrap",
    "grid-wrap": "wrap",
}
_OPENCV = {
    "BORDER_CONSTANT": (0, "constant"),
    "BORDER_REPLICATE": (1, "edge"),
    "BORDER_REFLECT": (2, "symmetric"),
    "BORDER_WRAP": (3, "wrap"),
    "BORDER_REFLECT_101": (4, "reflect"),
    "BORDER_REFLECT101": (4, "reflect"),
    "BORDER_DEFAULT": (4, "reflect"),
}
_PYWT = {
    "zero": "constant",
    "constant": "edge",
    "symmetric": "symmetric",
    "reflect": "reflect",
    "periodic": "wrap",
    "smooth": "smooth",
    "antisymmetric": "antisymmetric",
    "antireflect": "reflect_odd",
}
_OPENCV_TRANSPARENT = 5
_OPENCV_ISOLATED = 16


def _lookup(fn_name: str, table: dict, name: object, framework: str) -> str:
    if isinstance(name, str) and name in table:
        return table[name]
    known = ", ".join(repr(key) for key in table)
    raise ValueError(f"{fn_name}: {name!r} is not one of {framework}'s modes: {known}.")


def from_numpy(mode: str, reflect_type: str = "even") -> str:
    """The jaxpad mode of ``numpy.pad``'s ``mode`` (and ``reflect_type``).

    Args:
      mode: a ``numpy.pad`` mode name.
      reflect_type: ``numpy.pad``'s ``reflect_type`` for reflect and symmetric:
        ``"odd"`` gives ``"reflect_odd"`` / ``"symmetric_odd"``.

    Returns:
      The name to pass as ``jaxpad.pad``'s ``mode``.

    Raises:
      ValueError: for numpy's statistics, ramp and empty modes, which
        ``jaxpad.numpy.pad`` implements with numpy's signature.

    Example:
      >>> from jaxpad import modes
      >>> modes.from_numpy("symmetric")
      'symmetric'
      >>> modes.from_numpy("reflect", reflect_type="odd")
      'reflect_odd'
    """
    fn = "jaxpad.modes.from_numpy"
    if mode in _NUMPY_ONLY:
        raise ValueError(
            f"{fn}: mode={mode!r} is not a jaxpad.pad mode; jaxpad.numpy.pad takes "
            "numpy.pad's arguments and implements it."
        )
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"{fn}: reflect_type must be 'even' or 'odd'; got {reflect_type!r}.")
    if reflect_type == "odd":
        if mode not in ("reflect", "symmetric"):
            raise ValueError(
                f"{fn}: reflect_type='odd' applies to reflect and symmetric only; got "
                f"mode={mode!r}."
            )
        return mode + "_odd"
    return _lookup(fn, _NUMPY, mode, "numpy.pad")


def from_onnx(mode: str) -> str:
    """The jaxpad mode of an ONNX ``Pad`` node's ``mode`` attribute.

    ONNX's names are jaxpad's. ONNX runtimes crop negative pads before padding,
    while jaxpad indexes relative to the original array: the mode matches, the
    negative-pad convention is the caller's to choose.

    Args:
      mode: ``"constant"``, ``"reflect"``, ``"edge"`` or ``"wrap"``.

    Returns:
      The name to pass as ``jaxpad.pad``'s ``mode``.

    Example:
      >>> from jaxpad import modes
      >>> modes.from_onnx("edge")
      'edge'
    """
    return _lookup("jaxpad.modes.from_onnx", _ONNX, mode, "ONNX Pad")


def from_torch(mode: str) -> str:
    """The jaxpad mode of PyTorch's ``F.pad`` mode or a conv layer's ``padding_mode``.

    Args:
      mode: ``"constant"``, ``"zeros"``, ``"reflect"``, ``"replicate"`` or
        ``"circular"``.

    Returns:
      The name to pass as ``jaxpad.pad``'s ``mode``.

    Example:
      >>> from jaxpad import modes
      >>> modes.from_torch("replicate"), modes.from_torch("circular")
      ('edge', 'wrap')
    """
    return _lookup("jaxpad.modes.from_torch", _TORCH, mode, "PyTorch")


def from_tensorflow(mode: str) -> str:
    """The jaxpad mode of ``tf.pad``'s ``mode`` (TensorFlow accepts any case).

    Args:
      mode: ``"CONSTANT"``, ``"REFLECT"`` or ``"SYMMETRIC"``, in any case.

    Returns:
      The name to pass as ``jaxpad.pad``'s ``mode``.

    Example:
      >>> from jaxpad import modes
      >>> modes.from_tensorflow("SYMMETRIC")
      'symmetric'
    """
    fn = "jaxpad.modes.from_tensorflow"
    if not isinstance(mode, str):
        raise ValueError(f"{fn}: mode must be a string; got {mode!r}.")
    return _lookup(fn, _TENSORFLOW, mode.upper(), "tf.pad")


def from_scipy(mode: str, *, interpolation: bool = False) -> str:
    """The jaxpad mode of a ``scipy.ndimage`` boundary ``mode``.

    scipy's ``reflect`` repeats the edge element (jaxpad's ``"symmetric"``) and its
    ``mirror`` does not (jaxpad's ``"reflect"``). For filters, ``grid-constant`` and
    ``grid-wrap`` are synonyms of ``constant`` and ``wrap``. Its interpolation
    functions (``map_coordinates``, ``zoom``, ``shift``, ...) give ``constant`` and
    ``wrap`` meanings that no padding reproduces; pass ``interpolation=True`` to have
    those rejected rather than translated.

    Args:
      mode: a ``scipy.ndimage`` mode name.
      interpolation: whether the mode comes from one of scipy's interpolation
        functions rather than a filter.

    Returns:
      The name to pass as ``jaxpad.pad``'s ``mode``.

    Raises:
      ValueError: for an unknown name, or with ``interpolation=True`` for
        ``constant`` and ``wrap``.

    Example:
      >>> from jaxpad import modes
      >>> modes.from_scipy("reflect"), modes.from_scipy("mirror")
      ('symmetric', 'reflect')
    """
    fn = "jaxpad.modes.from_scipy"
    if interpolation and mode in ("constant", "wrap"):
        meaning = {
            "constant": "does no interpolation beyond the input's edges",
            "wrap": "makes the first and last samples overlap",
        }[mode]
        raise ValueError(
            f"{fn}: with interpolation=True, scipy's {mode!r} {meaning}; no padding does "
            f"that. 'grid-{mode}' is the padding equivalent."
        )
    return _lookup(fn, _SCIPY, mode, "scipy.ndimage")


def from_opencv(border_type: int | str) -> str:
    """The jaxpad mode of an OpenCV border type (``cv2.BORDER_*``, as int or name).

    ``BORDER_ISOLATED`` may be or-ed in: jaxpad never reads outside the array, which
    is what the flag asks. ``BORDER_TRANSPARENT`` leaves the destination's pixels as
    they were, so it has no padding equivalent and is rejected.

    Args:
      border_type: a ``cv2.BORDER_*`` integer, or its name (``"BORDER_REFLECT_101"``).

    Returns:
      The name to pass as ``jaxpad.pad``'s ``mode``.

    Example:
      >>> from jaxpad import modes
      >>> modes.from_opencv(4), modes.from_opencv("BORDER_REFLECT")
      ('reflect', 'symmetric')
    """
    fn = "jaxpad.modes.from_opencv"
    if isinstance(border_type, str):
        if border_type in _OPENCV:
            return _OPENCV[border_type][1]
        if border_type == "BORDER_TRANSPARENT":
            border_type = _OPENCV_TRANSPARENT
    if isinstance(border_type, bool) or not isinstance(border_type, (int, str)):
        raise ValueError(
            f"{fn}: border_type must be a cv2.BORDER_* int or name; got {border_type!r}."
        )
    if isinstance(border_type, int):
        base = border_type & ~_OPENCV_ISOLATED
        if base == _OPENCV_TRANSPARENT:
            raise ValueError(
                f"{fn}: BORDER_TRANSPARENT ({border_type}) keeps the destination's own "
                "pixels outside the source; padding has no destination to keep."
            )
        for value, mode in _OPENCV.values():
            if value == base:
                return mode
    known = ", ".join(f"{name} ({value})" for name, (value, _) in _OPENCV.items())
    raise ValueError(f"{fn}: {border_type!r} is not one of OpenCV's border types: {known}.")


def from_pywt(mode: str) -> str:
    """The jaxpad mode of a PyWavelets signal extension mode (``pywt.Modes``).

    PyWavelets' ``constant`` repeats the edge sample (jaxpad's ``"edge"``; its
    ``zero`` is jaxpad's ``"constant"``), and ``antireflect`` is numpy's odd
    reflection (``"reflect_odd"``). ``jaxpad.pad`` in the translated mode equals
    ``pywt.pad`` at every width, on axes of at least 2 elements for ``smooth``
    (PyWavelets reads past a one-element axis there; jaxpad repeats it, as edge).

    Args:
      mode: ``"zero"``, ``"constant"``, ``"symmetric"``, ``"reflect"``,
        ``"periodic"``, ``"smooth"``, ``"antisymmetric"`` or ``"antireflect"``.

    Returns:
      The name to pass as ``jaxpad.pad``'s ``mode``.

    Raises:
      ValueError: for an unknown name, and for ``"periodization"``, which is not a
        pad (PyWavelets' transforms keep ``ceil(n / 2)`` coefficients; its ``pad``
        first repeats the last sample of an odd axis, then wraps).

    Example:
      >>> from jaxpad import modes
      >>> modes.from_pywt("constant"), modes.from_pywt("zero"), modes.from_pywt("antireflect")
      ('edge', 'constant', 'reflect_odd')
    """
    fn = "jaxpad.modes.from_pywt"
    if mode == "periodization":
        raise ValueError(
            f"{fn}: mode='periodization' is not a pad: PyWavelets' transforms keep "
            "ceil(n / 2) coefficients per level, and pywt.pad extends an odd axis by its "
            "last sample before wrapping, so its result is not x padded. pywt.pad's "
            "result is the 'wrap' pad of x grown by one 'edge' sample at the end of each "
            "odd axis; 'periodic' translates to 'wrap'."
        )
    return _lookup(fn, _PYWT, mode, "PyWavelets")
