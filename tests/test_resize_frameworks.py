"""Every framework's resize as one ``jaxpad.image.resize`` call, tested against the
framework itself: OpenCV's ``cv2.resize``, Pillow's ``Image.resize``, OpenVINO's
``Interpolate-11``, TensorFlow 2's ``tf.image.resize`` and TensorFlow 1's
``resize_*`` ops, and torch's ``F.interpolate`` against ``jaxpad.nn.interpolate``.

Each row of docs/resize.md's table is a row here: the framework's call, the jaxpad
call, and the shapes it is checked on (an axis that grows beside one that shrinks, a
shrink by a ratio that is not an integer, and where a row needs it, a growth). The
inputs are float32 (OpenCV's and Pillow's integer images round through fixed-point
weights, which no float resize reproduces); the frameworks compute their weights in
float32, so the values agree to a few float32 roundings of the input's range, and
nearest's exactly. Where a framework's own arithmetic departs from its rule (TF's
cubic kernels read from a 1024-entry table) the row says so and has the looser
tolerance.

A framework that is not installed skips its rows (OpenVINO: ``openvino``; TensorFlow:
``tensorflow-cpu``). OpenVINO's CPU plugin is compiled in float32 (it computes in
bfloat16 where the CPU has it, otherwise) and imported without its telemetry (which
forks a process, ``_import_openvino``). TensorFlow's and torch's rows are marked
``slow`` (importing TensorFlow takes ~10 s): the default run leaves them out,
``pytest --all`` runs a quarter of them, and torch's rows against
``jaxpad.nn.interpolate`` and against the ``jaxpad.image.resize`` calls of the docs'
torch table.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable

import jax
import numpy as np
import pytest

import jaxpad
from tests.sampling import EVERY_CASE

image = pytest.importorskip("jaxpad.image")

# (input shape, output shape) of the 2-D checks: one axis grows while the other
# shrinks; both shrink by ratios that are not integers; both grow.
MIXED = ((5, 7), (11, 3))
SHRINK = ((9, 10), (4, 3))
GROW = ((3, 3), (10, 7))
SHAPES = (MIXED, SHRINK)


@dataclasses.dataclass(frozen=True)
class Row:
    """One framework call and its jaxpad call: ``method`` and ``kwargs`` of
    ``jaxpad.image.resize`` (or ``jaxpad_fn(x, out_shape)`` where it is not one call)."""

    name: str
    framework: Callable
    method: str | None = None
    kwargs: dict = dataclasses.field(default_factory=dict)
    shapes: tuple = SHAPES
    tolerance: float = 4e-6
    jaxpad_fn: Callable | None = None

    def __repr__(self):  # the test id
        return self.name


def _jaxpad(row: Row, x: np.ndarray, out_shape) -> np.ndarray:
    if row.jaxpad_fn is not None:
        fn = lambda x: row.jaxpad_fn(x, out_shape)  # noqa: E731
    else:
        fn = lambda x: image.resize(x, out_shape, row.method, **row.kwargs)  # noqa: E731
    return np.asarray(jax.jit(fn)(x))


def _check(row: Row, layout=lambda hw: hw):
    """``row``'s framework call against its jaxpad call on each of its shapes; the
    input's shape and the output's are ``layout`` of the 2-D ones."""
    rng = np.random.default_rng(0)
    for (h, w), (oh, ow) in row.shapes:
        x = rng.standard_normal(layout((h, w))).astype(np.float32)
        want = np.asarray(row.framework(x, (oh, ow)))
        got = _jaxpad(row, x, layout((oh, ow)))
        assert got.shape == want.shape, (row.name, got.shape, want.shape)
        scale = float(np.max(np.abs(x)))
        if row.tolerance == 0:
            np.testing.assert_array_equal(got, want, err_msg=f"{row.name} {(h, w)} -> {(oh, ow)}")
        else:
            np.testing.assert_allclose(
                got,
                want,
                rtol=0,
                atol=row.tolerance * scale,
                err_msg=f"{row.name} {(h, w)} -> {(oh, ow)}",
            )


# --- OpenCV ----------------------------------------------------------------------------


def _cv2(flag):
    def run(x, out):
        cv2 = pytest.importorskip("cv2")
        return cv2.resize(x, out[::-1], interpolation=getattr(cv2, flag))

    return run


OPENCV = [
    # floor(i * in / out): the corner-aligned grid, rounded down.
    Row(
        "INTER_NEAREST",
        _cv2("INTER_NEAREST"),
        "nearest",
        dict(coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
        tolerance=0,
    ),
    # floor((i + 0.5) * in / out): jax.image.resize's nearest.
    Row("INTER_NEAREST_EXACT", _cv2("INTER_NEAREST_EXACT"), "nearest", tolerance=0),
    Row("INTER_LINEAR", _cv2("INTER_LINEAR"), "linear", dict(antialias=False)),
    # a = -0.75, taps past the edge read the edge sample (exclude_outside=False).
    Row(
        "INTER_CUBIC",
        _cv2("INTER_CUBIC"),
        "cubic",
        dict(antialias=False, cubic_coeff_a=-0.75, exclude_outside=False),
    ),
    # The fractional overlap of pixel areas, as jax.image.resize's (and TF's) "area",
    # where no axis grows while another shrinks: there OpenCV switches every axis to a
    # two-tap rule of its own (docs/resize.md).
    Row("INTER_AREA", _cv2("INTER_AREA"), "area", shapes=(SHRINK, GROW)),
    Row("INTER_LANCZOS4", _cv2("INTER_LANCZOS4"), "lanczos4", dict(antialias=False)),
]


@EVERY_CASE
@pytest.mark.parametrize("row", OPENCV, ids=repr)
def test_opencv(row):
    pytest.importorskip("cv2")
    _check(row)


# --- Pillow ----------------------------------------------------------------------------


def _pil(name):
    def run(x, out):
        PIL_Image = pytest.importorskip("PIL.Image")
        filt = getattr(PIL_Image.Resampling, name)
        return np.asarray(PIL_Image.fromarray(x).resize(out[::-1], filt))

    return run


# Pillow's filters all widen with the shrink (antialias=True), drop the taps outside
# the image and normalize what is left: jax.image.resize's antialiasing.
PILLOW = [
    Row("NEAREST", _pil("NEAREST"), "nearest", tolerance=0),
    Row("BOX", _pil("BOX"), "box", dict(antialias=True), shapes=(MIXED, SHRINK, GROW)),
    Row("BILINEAR", _pil("BILINEAR"), "linear", dict(antialias=True)),
    Row("HAMMING", _pil("HAMMING"), "hamming", dict(antialias=True)),
    Row("BICUBIC", _pil("BICUBIC"), "cubic", dict(antialias=True)),
    Row("LANCZOS", _pil("LANCZOS"), "lanczos3", dict(antialias=True)),
]


@EVERY_CASE
@pytest.mark.parametrize("row", PILLOW, ids=repr)
def test_pillow(row):
    pytest.importorskip("PIL.Image")
    _check(row)


# --- OpenVINO Interpolate-11 -----------------------------------------------------------


def _import_openvino():
    """``openvino``, without its telemetry: importing OpenVINO sends an event from a
    process it forks (``openvino_telemetry``, multiprocessing's fork) while JAX's threads
    run, and JAX warns at the fork (an error in this suite). Where the telemetry package
    does not import, OpenVINO uses its own stub."""
    if "openvino" not in sys.modules:
        sys.modules.setdefault("openvino_telemetry", None)
    return pytest.importorskip("openvino")


def _openvino(mode, ctm="half_pixel", nearest_mode="round_prefer_floor", antialias=False,
              cube_coeff=-0.75, pads=None):  # fmt: skip
    def run(x, out):
        ov = _import_openvino()
        ops = pytest.importorskip("openvino.opset11")
        param = ops.parameter(list(x.shape), np.float32)
        node = ops.interpolate(
            param,
            np.array(out, np.int64),
            mode,
            "sizes",
            pads_begin=None if pads is None else [0, 0, *pads[0]],
            pads_end=None if pads is None else [0, 0, *pads[1]],
            coordinate_transformation_mode=ctm,
            nearest_mode=nearest_mode,
            antialias=antialias,
            cube_coeff=cube_coeff,
            axes=np.array([2, 3], np.int64),
        )
        # The CPU plugin runs in bfloat16 where the CPU has it, unless told otherwise.
        compiled = ov.Core().compile_model(
            ov.Model([node], [param]), "CPU", {"INFERENCE_PRECISION_HINT": "f32"}
        )
        return compiled(x)[0]

    return run


_OV_COORDINATES = ("half_pixel", "pytorch_half_pixel", "asymmetric", "align_corners")
_OV_NEAREST = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")


def _padded_then_resized(pads, method, kwargs):
    def run(x, out):
        begin, end = (0, 0, *pads[0]), (0, 0, *pads[1])
        return image.resize(jaxpad.pad(x, begin, end, "constant"), out, method, **kwargs)

    return run


OPENVINO = (
    [
        Row(
            f"nearest-{ctm}-{nm}",
            _openvino("nearest", ctm, nm),
            "nearest",
            dict(coordinate_transformation_mode=ctm, nearest_mode=nm),
            tolerance=0,
        )
        for ctm in (*_OV_COORDINATES, "tf_half_pixel_for_nn")
        for nm in _OV_NEAREST
    ]
    + [
        Row(
            f"linear_onnx-{ctm}",
            _openvino("linear_onnx", ctm),
            "linear",
            dict(antialias=False, coordinate_transformation_mode=ctm, exclude_outside=False),
        )
        for ctm in _OV_COORDINATES
    ]
    + [
        # OpenVINO's "linear" (its N-D triangle filter) without antialias: the same.
        Row(
            f"linear-{ctm}",
            _openvino("linear", ctm),
            "linear",
            dict(antialias=False, coordinate_transformation_mode=ctm, exclude_outside=False),
        )
        for ctm in _OV_COORDINATES
    ]
    + [
        Row(
            f"cubic-{ctm}-a{a}",
            _openvino("cubic", ctm, cube_coeff=a),
            "cubic",
            dict(
                antialias=False,
                coordinate_transformation_mode=ctm,
                cubic_coeff_a=a,
                exclude_outside=False,
            ),
        )
        for ctm in _OV_COORDINATES
        for a in (-0.75, -0.5)
    ]
    + [
        Row("bilinear_pillow", _openvino("bilinear_pillow"), "linear", dict(antialias=True)),
        Row(
            "bicubic_pillow",
            _openvino("bicubic_pillow", cube_coeff=-0.5),
            "cubic",
            dict(antialias=True),
        ),
        # bicubic_pillow ignores cube_coeff: Pillow's a = -0.5 whatever it says.
        Row(
            "bicubic_pillow-cube_coeff-0.75",
            _openvino("bicubic_pillow", cube_coeff=-0.75),
            "cubic",
            dict(antialias=True),
        ),
        # pads_begin / pads_end: zeros added before the resize.
        Row(
            "linear_onnx-pads",
            _openvino("linear_onnx", pads=((1, 0), (2, 1))),
            jaxpad_fn=_padded_then_resized(
                ((1, 0), (2, 1)), "linear", dict(antialias=False, exclude_outside=False)
            ),
        ),
        Row(
            "nearest-asymmetric-floor-pads",
            _openvino("nearest", "asymmetric", "floor", pads=((0, 2), (1, 0))),
            jaxpad_fn=_padded_then_resized(
                ((0, 2), (1, 0)),
                "nearest",
                dict(coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
            ),
            tolerance=0,
        ),
    ]
)


@pytest.mark.subsample(0.25, cover=[])
@pytest.mark.parametrize("row", OPENVINO, ids=repr)
def test_openvino(row):
    _import_openvino()
    _check(row, layout=lambda hw: (1, 1, *hw))


# --- TensorFlow ------------------------------------------------------------------------


def _tf2(method, antialias=False):
    def run(x, out):
        tf = pytest.importorskip("tensorflow")
        y = tf.image.resize(x[None, :, :, None], out, method=method, antialias=antialias)
        return y.numpy()[0, :, :, 0].astype(np.float32)

    return run


def _tf1(op, **options):
    def run(x, out):
        tf = pytest.importorskip("tensorflow")
        y = getattr(tf.raw_ops, op)(images=x[None, :, :, None], size=out, **options)
        return y.numpy()[0, :, :, 0].astype(np.float32)

    return run


# TF's cubic resize without antialias (tf.image.resize's bicubic, tf.compat.v1's
# resize_bicubic) reads its kernel from a table of 1024 entries per unit: its values
# are the rule's to ~1e-3 of the input's range.
_TF_CUBIC_TABLE = 3e-3

TENSORFLOW = (
    [Row("tf2-nearest", _tf2("nearest"), "nearest", tolerance=0)]
    + [
        Row(f"tf2-{tf_method}-aa{aa}", _tf2(tf_method, aa), method, dict(antialias=aa))
        for tf_method, method in (
            ("bilinear", "linear"),
            ("lanczos3", "lanczos3"),
            ("lanczos5", "lanczos5"),
            ("gaussian", "gaussian"),
            ("mitchellcubic", "mitchellcubic"),
        )
        for aa in (False, True)
    ]
    + [
        Row("tf2-bicubic-aaTrue", _tf2("bicubic", True), "cubic", dict(antialias=True)),
        # Keys' a = -0.5, the taps outside dropped: TF's half_pixel_centers cubic.
        Row(
            "tf2-bicubic-aaFalse",
            _tf2("bicubic", False),
            "cubic",
            dict(antialias=False, cubic_coeff_a=-0.5, exclude_outside=True),
            tolerance=_TF_CUBIC_TABLE,
        ),
        # TF ignores antialias for area.
        Row("tf2-area", _tf2("area"), "area"),
        Row("tf2-area-aaTrue", _tf2("area", True), "area"),
    ]
    + [
        Row(
            f"tf1-ResizeBilinear-{name}",
            _tf1("ResizeBilinear", **options),
            "linear",
            dict(antialias=False, coordinate_transformation_mode=ctm),
        )
        for name, options, ctm in (
            ("default", {}, "asymmetric"),
            ("align_corners", {"align_corners": True}, "align_corners"),
            ("half_pixel_centers", {"half_pixel_centers": True}, "half_pixel"),
        )
    ]
    + [
        Row(
            f"tf1-ResizeBicubic-{name}",
            _tf1("ResizeBicubic", **options),
            "cubic",
            dict(
                antialias=False,
                coordinate_transformation_mode=ctm,
                cubic_coeff_a=a,
                exclude_outside=exclude,
            ),  # fmt: skip
            tolerance=_TF_CUBIC_TABLE,
        )
        for name, options, ctm, a, exclude in (
            ("default", {}, "asymmetric", -0.75, False),
            ("align_corners", {"align_corners": True}, "align_corners", -0.75, False),
            ("half_pixel_centers", {"half_pixel_centers": True}, "half_pixel", -0.5, True),
        )
    ]
    + [
        Row(
            f"tf1-ResizeNearestNeighbor-{name}",
            _tf1("ResizeNearestNeighbor", **options),
            "nearest",
            dict(coordinate_transformation_mode=ctm, nearest_mode=nm),
            tolerance=0,
        )
        for name, options, ctm, nm in (
            ("default", {}, "asymmetric", "floor"),
            # round(x) of the corner-aligned coordinate, which is never negative.
            ("align_corners", {"align_corners": True}, "align_corners", "round_prefer_ceil"),
            # floor((i + 0.5) * in / out), jax's nearest.
            ("half_pixel_centers", {"half_pixel_centers": True}, "half_pixel", "round_prefer_ceil"),
        )
    ]
    + [Row("tf1-ResizeArea", _tf1("ResizeArea"), "area")]
)


@pytest.mark.slow
@pytest.mark.subsample(0.25, cover=[])
@pytest.mark.parametrize("row", TENSORFLOW, ids=repr)
def test_tensorflow(row):
    pytest.importorskip("tensorflow")
    _check(row)


# --- torch -----------------------------------------------------------------------------


def _torch(mode, **options):
    def run(x, out):
        torch = pytest.importorskip("torch")
        return torch.nn.functional.interpolate(
            torch.from_numpy(x), size=out, mode=mode, **options
        ).numpy()

    return run


def _interpolate(mode, **options):
    def run(x, out):
        return jaxpad.nn.interpolate(x, size=out[2:], mode=mode, **options)

    return run


TORCH = [
    Row(
        f"{mode}-{'-'.join(f'{k}{v}' for k, v in options.items()) or 'default'}",
        _torch(mode, **options),
        jaxpad_fn=_interpolate(mode, **options),
        tolerance=0 if mode.startswith("nearest") else 4e-6,
        shapes=(MIXED, SHRINK, GROW),
    )
    for mode, options in (
        ("nearest", {}),
        ("nearest-exact", {}),
        ("bilinear", {}),
        ("bilinear", {"align_corners": True}),
        ("bilinear", {"antialias": True}),
        ("bicubic", {}),
        ("bicubic", {"align_corners": True}),
        ("bicubic", {"antialias": True}),
        ("area", {}),
    )
] + [
    # The same rules as jaxpad.image.resize calls (docs/resize.md's torch table).
    Row(
        f"image.resize-{mode}-{'-'.join(f'{k}{v}' for k, v in options.items()) or 'default'}",
        _torch(mode, **options),
        method,
        kwargs,
        tolerance=0 if mode.startswith("nearest") else 4e-6,
        shapes=shapes,
    )
    for mode, options, method, kwargs, shapes in (
        (
            "nearest",
            {},
            "nearest",
            dict(coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
            (MIXED, SHRINK, GROW),
        ),
        ("nearest-exact", {}, "nearest", {}, (MIXED, SHRINK, GROW)),
        ("bilinear", {}, "linear", dict(antialias=False), (MIXED, SHRINK)),
        (
            "bilinear",
            {"align_corners": True},
            "linear",
            dict(antialias=False, coordinate_transformation_mode="align_corners"),
            (MIXED, SHRINK),
        ),
        ("bilinear", {"antialias": True}, "linear", dict(antialias=True), (MIXED, SHRINK)),
        (
            "bicubic",
            {},
            "cubic",
            dict(antialias=False, cubic_coeff_a=-0.75, exclude_outside=False),
            (MIXED, SHRINK),
        ),
        (
            "bicubic",
            {"align_corners": True},
            "cubic",
            dict(
                antialias=False,
                cubic_coeff_a=-0.75,
                exclude_outside=False,
                coordinate_transformation_mode="align_corners",
            ),
            (MIXED, SHRINK),
        ),
        ("bicubic", {"antialias": True}, "cubic", dict(antialias=True), (MIXED, SHRINK)),
        # torch's area (an adaptive average pool) is "area" where the ratio is an integer.
        ("area", {}, "area", {}, (((8, 6), (4, 3)), ((9, 8), (3, 2)))),
    )
]


@pytest.mark.slow
@pytest.mark.subsample(0.25, cover=[])
@pytest.mark.parametrize("row", TORCH, ids=repr)
def test_torch(row):
    pytest.importorskip("torch")
    _check(row, layout=lambda hw: (1, 2, *hw))
