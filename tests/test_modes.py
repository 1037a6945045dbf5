"""jaxpad.modes: each framework's mode name, checked against that framework's padding.

The oracles are the frameworks themselves: numpy.pad, scipy.ndimage's filters,
cv2.copyMakeBorder, and onnxruntime and torch where installed. Each pads the same
arrays by widths up to twice the axis, and jaxpad.pad with the translated mode must
give the same values.
"""

from __future__ import annotations

import itertools

import jax.numpy as jnp
import numpy as np
import pytest

import jaxpad
from jaxpad import modes

SHAPES_AND_PADS = [(n, lo, hi) for n in (2, 3, 5) for lo, hi in ((1, 2), (3, 0), (2 * n, n + 1))]


def _jaxpad(x, lo, hi, mode):
    return np.asarray(jaxpad.pad(jnp.asarray(x), [lo], [hi], mode))


def _signal(n):
    return np.arange(1.0, n + 1.0, dtype=np.float32) ** 2


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("n, lo, hi", SHAPES_AND_PADS)
@pytest.mark.subsample(0.4)
def test_from_numpy(mode, n, lo, hi):
    x = _signal(n)
    np.testing.assert_array_equal(
        _jaxpad(x, lo, hi, modes.from_numpy(mode)), np.pad(x, (lo, hi), mode)
    )


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("n, lo, hi", SHAPES_AND_PADS)
def test_from_numpy_odd_reflection(mode, n, lo, hi):
    x = _signal(n)
    np.testing.assert_allclose(
        _jaxpad(x, lo, hi, modes.from_numpy(mode, reflect_type="odd")),
        np.pad(x, (lo, hi), mode, reflect_type="odd"),
        rtol=1e-6,
    )


def _scipy_extension(x, lo, hi, mode):
    """scipy.ndimage's extension of ``x`` by ``lo``/``hi``, read through correlate1d:
    a one-hot kernel wider than the array reads any offset at output position 0."""
    ndimage = pytest.importorskip("scipy.ndimage")
    n = len(x)
    half = n + max(lo, hi) + 1
    values = []
    for j in range(-lo, n + hi):
        weights = np.zeros(2 * half + 1, np.float64)
        weights[j + half] = 1.0
        values.append(ndimage.correlate1d(x.astype(np.float64), weights, mode=mode, cval=0.0)[0])
    return np.asarray(values, np.float32)


@pytest.mark.parametrize(
    "mode",
    [
        "constant",
        "grid-constant",
        "nearest",
        "mirror",
        "reflect",
        "grid-mirror",
        "wrap",
        "grid-wrap",
    ],
)
@pytest.mark.parametrize("n, lo, hi", SHAPES_AND_PADS)
@pytest.mark.subsample(0.3)
def test_from_scipy_matches_scipy_ndimage_filters(mode, n, lo, hi):
    x = _signal(n)
    expected = _scipy_extension(x, lo, hi, mode)
    np.testing.assert_array_equal(_jaxpad(x, lo, hi, modes.from_scipy(mode)), expected)


@pytest.mark.parametrize("mode", ["constant", "wrap"])
def test_from_scipy_rejects_interpolation_meanings(mode):
    with pytest.raises(ValueError, match=f"^jaxpad.modes.from_scipy: .*'grid-{mode}'"):
        modes.from_scipy(mode, interpolation=True)
    assert modes.from_scipy(f"grid-{mode}", interpolation=True) == modes.from_scipy(mode)


_CV2_BORDERS = [
    "BORDER_CONSTANT",
    "BORDER_REPLICATE",
    "BORDER_REFLECT",
    "BORDER_WRAP",
    "BORDER_REFLECT_101",
    "BORDER_REFLECT101",
    "BORDER_DEFAULT",
]


@pytest.mark.parametrize("name", _CV2_BORDERS)
@pytest.mark.parametrize("n, lo, hi", SHAPES_AND_PADS)
@pytest.mark.subsample(0.3)
def test_from_opencv_matches_copy_make_border(name, n, lo, hi):
    cv2 = pytest.importorskip("cv2")
    x = _signal(n)
    border = getattr(cv2, name)
    expected = cv2.copyMakeBorder(x[None], 0, 0, lo, hi, border, value=0)[0]
    for spelling in (border, name, border | cv2.BORDER_ISOLATED):
        np.testing.assert_array_equal(_jaxpad(x, lo, hi, modes.from_opencv(spelling)), expected)


def test_from_opencv_rejects_transparent():
    for spelling in (5, "BORDER_TRANSPARENT", 5 | 16):
        with pytest.raises(ValueError, match="^jaxpad.modes.from_opencv: BORDER_TRANSPARENT"):
            modes.from_opencv(spelling)


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_from_torch_matches_torch_pad(mode):
    torch = pytest.importorskip("torch")
    for n, lo, hi in SHAPES_AND_PADS:
        if mode == "reflect" and max(lo, hi) >= n or mode == "circular" and max(lo, hi) > n:
            continue  # torch rejects reflect pads of the axis' size, circular beyond it
        x = _signal(n)
        expected = torch.nn.functional.pad(torch.tensor(x)[None, None], (lo, hi), mode)[0, 0]
        np.testing.assert_array_equal(_jaxpad(x, lo, hi, modes.from_torch(mode)), expected.numpy())
    assert modes.from_torch("zeros") == "constant"  # nn.Conv's padding_mode


@pytest.mark.parametrize("mode", ["constant", "reflect", "edge", "wrap"])
def test_from_onnx_matches_onnxruntime(mode):
    ort = pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    helper = onnx.helper
    node = helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode)
    graph = helper.make_graph(
        [node],
        "pad",
        [
            helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [None]),
            helper.make_tensor_value_info("pads", onnx.TensorProto.INT64, [2]),
        ],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [None])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for n, lo, hi in SHAPES_AND_PADS:
        if mode == "reflect" and max(lo, hi) >= n:
            continue  # onnxruntime's reflect needs pads below the axis' size
        x = _signal(n)
        (expected,) = session.run(None, {"x": x, "pads": np.array([lo, hi], np.int64)})
        np.testing.assert_array_equal(_jaxpad(x, lo, hi, modes.from_onnx(mode)), expected)


def test_from_tensorflow_names():
    # tf.pad's REFLECT and SYMMETRIC are numpy's reflect and symmetric (TensorFlow's
    # documentation defines them by numpy's examples); it accepts any case.
    for name, numpy_name in (
        ("CONSTANT", "constant"),
        ("REFLECT", "reflect"),
        ("SYMMETRIC", "symmetric"),
    ):
        for spelling in (name, name.lower(), name.capitalize()):
            assert modes.from_tensorflow(spelling) == modes.from_numpy(numpy_name)


def test_every_translation_is_a_jaxpad_mode():
    translated = [
        *(modes.from_scipy(m) for m in ("constant", "nearest", "mirror", "reflect", "wrap")),
        *(modes.from_opencv(b) for b in (0, 1, 2, 3, 4)),
        *(modes.from_torch(m) for m in ("constant", "reflect", "replicate", "circular")),
    ]
    for mode in translated:
        jaxpad.pad(jnp.ones(3), [1], [1], mode)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: modes.from_numpy("mirror"),
            "from_numpy: 'mirror' is not one of numpy.pad's modes",
        ),
        (lambda: modes.from_numpy("mean"), "from_numpy: mode='mean' .* jaxpad.numpy.pad"),
        (lambda: modes.from_numpy("edge", "odd"), "from_numpy: reflect_type='odd' applies"),
        (lambda: modes.from_numpy("reflect", "uneven"), "from_numpy: reflect_type must be"),
        (lambda: modes.from_torch("REFLECT"), "from_torch: 'REFLECT' is not one of PyTorch's"),
        (lambda: modes.from_tensorflow("edge"), "from_tensorflow: 'EDGE' is not one of tf.pad's"),
        (lambda: modes.from_tensorflow(3), "from_tensorflow: mode must be a string"),
        (lambda: modes.from_onnx("symmetric"), "from_onnx: 'symmetric' is not one of ONNX Pad's"),
        (lambda: modes.from_scipy("edge"), "from_scipy: 'edge' is not one of scipy.ndimage's"),
        (lambda: modes.from_opencv(7), "from_opencv: 7 is not one of OpenCV's border types"),
        (lambda: modes.from_opencv(True), "from_opencv: border_type must be"),
        (lambda: modes.from_opencv("REFLECT"), "from_opencv: 'REFLECT' is not one of OpenCV's"),
    ],
)
def test_errors(call, message):
    with pytest.raises(ValueError, match=f"^jaxpad.modes.{message}"):
        call()


def test_pad_rejects_other_spellings_and_points_to_the_translators():
    for spelling in ("REFLECT", "replicate", "circular", "mirror", "nearest"):
        with pytest.raises(ValueError, match=r"^jaxpad.pad: mode must be one of .*jaxpad\.modes"):
            jaxpad.pad(jnp.ones(3), [1], [1], spelling)


def test_cases_cover_pads_past_the_axis():
    assert any(lo > n for n, lo, _ in SHAPES_AND_PADS)
    assert len(set(itertools.chain(*SHAPES_AND_PADS))) > 5
