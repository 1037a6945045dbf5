"""ONNX export of ``jaxpad.image.resize`` and ``jaxpad.nn.interpolate`` (jaxpad/onnx.py):
one ``Resize`` node wherever the call's options are an ONNX ``Resize``'s.

``test_resize_exports_as_one_resize_node`` exports each call of ``CASES`` with
``jax2onnx.to_onnx`` (opset 19), asserts the graph's op types (exactly one ``Resize``
where the options map; none where they do not) and the node's attributes, and runs it
on onnxruntime's CPU provider and on ``onnx.reference.ReferenceEvaluator`` (ONNX's
definition of the node). Both outputs must be jaxpad's own (whose values
tests/test_resize.py, tests/test_interpolate.py and tests/test_resize_onnx.py check
against jax.image, torch and ONNX's reference): nearest exactly, the kernels to 2e-6 of
the input's range in float32. Skipped without jax2onnx and onnxruntime
(``jaxpad[onnx]``).
"""

from __future__ import annotations

import logging

import jax
import numpy as np
import pytest

import jaxpad

pytest.importorskip("jax2onnx")
ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

from jax2onnx import to_onnx  # noqa: E402
from onnx import helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import jaxpad.onnx  # noqa: E402,F401  (registers the converters)
from tests.test_resize_onnx import _ONNX_DEFAULTS  # noqa: E402

resize = jaxpad.image.resize
interpolate = jaxpad.nn.interpolate
X = np.random.default_rng(0).standard_normal((1, 1, 5, 7)).astype(np.float32)

# (name, function of X, the Resize node's attributes (ONNX's defaults left out), or None
# where the graph has no Resize node).
CASES = [
    # jax.image.resize's defaults: nearest (JAX's rounding, round_prefer_ceil), linear
    # and cubic antialiased with the taps beyond the edge dropped (exclude_outside)
    ("jax nearest", lambda x: resize(x, (1, 1, 9, 4), "nearest"), {"mode": "nearest"}),
    (
        "jax linear",
        lambda x: resize(x, (1, 1, 3, 12), "linear"),
        {"antialias": 1, "exclude_outside": 1},
    ),
    (
        "jax cubic",
        lambda x: resize(x, (1, 1, 3, 4), "cubic"),
        {"mode": "cubic", "antialias": 1, "cubic_coeff_a": -0.5, "exclude_outside": 1},
    ),
    # every nearest_mode
    *[
        (
            f"nearest {nm} {ctm}",
            lambda x, nm=nm, ctm=ctm: resize(
                x, (1, 1, 8, 12), "nearest", nearest_mode=nm, coordinate_transformation_mode=ctm
            ),
            {"nearest_mode": nm, "coordinate_transformation_mode": ctm},
        )
        for nm, ctm in [
            ("round_prefer_floor", "half_pixel"),
            ("round_prefer_ceil", "asymmetric"),
            ("floor", "align_corners"),
            ("ceil", "pytorch_half_pixel"),
        ]
    ],
    # linear in each coordinate mode, ONNX's defaults otherwise
    *[
        (
            f"linear {ctm}",
            lambda x, ctm=ctm: resize(
                x,
                (1, 1, 9, 4),
                "linear",
                antialias=False,
                exclude_outside=False,
                coordinate_transformation_mode=ctm,
            ),
            {"mode": "linear", "coordinate_transformation_mode": ctm},
        )
        for ctm in (
            "half_pixel",
            "pytorch_half_pixel",
            "align_corners",
            "asymmetric",
            "half_pixel_symmetric",
        )
    ],
    (
        "cubic onnx defaults",
        lambda x: resize(
            x, (1, 1, 8, 10), "cubic", antialias=False, cubic_coeff_a=-0.75, exclude_outside=False
        ),
        {"mode": "cubic", "cubic_coeff_a": -0.75, "exclude_outside": 0},
    ),
    (
        "cubic a exclude_outside",
        lambda x: resize(
            x, (1, 1, 8, 10), "cubic", antialias=False, cubic_coeff_a=-0.6, exclude_outside=True
        ),
        {"cubic_coeff_a": -0.6, "exclude_outside": 1},
    ),
    (
        "cubic antialias edge",
        lambda x: resize(
            x, (1, 1, 3, 4), "cubic", cubic_coeff_a=-0.75, exclude_outside=False, antialias=True
        ),
        {"antialias": 1, "exclude_outside": 0, "cubic_coeff_a": -0.75},
    ),
    (
        "tf_crop_and_resize",
        lambda x: resize(
            x,
            (1, 1, 4, 9),
            "linear",
            antialias=False,
            coordinate_transformation_mode="tf_crop_and_resize",
            roi=(0, 0, -0.2, 0.1, 1, 1, 0.9, 1.3),
            extrapolation_value=-7.5,
        ),
        {"coordinate_transformation_mode": "tf_crop_and_resize", "extrapolation_value": -7.5},
    ),
    (
        "scales",
        lambda x: resize(
            x,
            (1, 1, 7, 3),
            "linear",
            antialias=False,
            exclude_outside=False,
            scales=(1, 1, 1.5, 0.5),
        ),
        {"mode": "linear"},
    ),
    # torch's F.interpolate
    (
        "torch nearest",
        lambda x: interpolate(x, scale_factor=(1.5, 0.5), mode="nearest"),
        {"coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"},
    ),
    (
        "torch nearest-exact",
        lambda x: interpolate(x, size=(8, 12), mode="nearest-exact"),
        {"coordinate_transformation_mode": "half_pixel"},
    ),
    (
        "torch bilinear",
        lambda x: interpolate(x, size=(9, 4), mode="bilinear"),
        {"mode": "linear", "antialias": 0},
    ),
    (
        "torch bilinear align_corners",
        lambda x: interpolate(x, size=(9, 4), mode="bilinear", align_corners=True),
        {"coordinate_transformation_mode": "align_corners"},
    ),
    (
        "torch bicubic",
        lambda x: interpolate(x, size=(9, 4), mode="bicubic"),
        {"mode": "cubic", "cubic_coeff_a": -0.75, "exclude_outside": 0},
    ),
    (
        "torch bicubic antialias",
        lambda x: interpolate(x, size=(3, 4), mode="bicubic", antialias=True),
        {"antialias": 1, "cubic_coeff_a": -0.5, "exclude_outside": 1},
    ),
    (
        "torch bilinear channels_last",
        lambda x: interpolate(x.transpose(0, 2, 3, 1), size=(3, 9), mode="bilinear"),
        {"mode": "linear"},
    ),
    (
        "vmap",
        jax.vmap(lambda x: resize(x, (1, 9, 4), "linear", antialias=False)),
        {"mode": "linear"},
    ),
    # no Resize: jaxpad's boundary modes, kernels and area have no ONNX attribute
    ("wrap", lambda x: resize(x, (1, 1, 9, 4), "linear", mode="wrap"), None),
    ("lanczos3", lambda x: resize(x, (1, 1, 9, 4), "lanczos3"), None),
    ("torch area", lambda x: interpolate(x, size=(3, 4), mode="area"), None),
]


def _attributes(node) -> dict:
    out = {}
    for attribute in node.attribute:
        value = helper.get_attribute_value(attribute)
        out[attribute.name] = value.decode() if isinstance(value, bytes) else value
    return out


def _run(model, x):
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    return session.run(None, {session.get_inputs()[0].name: x})[0]


def test_resize_exports_as_one_resize_node(full_run):
    logger = logging.getLogger("onnx_ir")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        # the default run: a fifth of the cases, and a non-mappable one
        cases = CASES if full_run else CASES[::5] + CASES[-1:]
        for name, fn, attrs in cases:
            model = to_onnx(fn, [X.shape], opset=19)
            ops = [node.op_type for node in model.graph.node]
            if attrs is None:
                assert "Resize" not in ops, (name, ops)
            else:
                assert ops == ["Resize"] or (name.endswith("channels_last") and "Resize" in ops)
                assert ops.count("Resize") == 1, (name, ops)
                node = next(n for n in model.graph.node if n.op_type == "Resize")
                got_attrs = _attributes(node)
                for key, value in attrs.items():
                    got_value = got_attrs.get(key, _ONNX_DEFAULTS[key])
                    if isinstance(value, float):  # an ONNX float attribute is float32
                        value = float(np.float32(value))
                    assert got_value == value, (name, key, got_attrs)
            want = np.asarray(fn(X))
            runtime = _run(model, X)
            reference = ReferenceEvaluator(model).run(None, {model.graph.input[0].name: X})[0]
            for runner, got in (("onnxruntime", runtime), ("onnx.reference", reference)):
                assert got.shape == want.shape, (name, runner, got.shape, want.shape)
                if attrs is not None and _attributes(node)["mode"] == "nearest":
                    np.testing.assert_array_equal(got, want, err_msg=f"{name} {runner}")
                else:
                    tol = 2e-6 * float(np.max(np.abs(X)))
                    np.testing.assert_allclose(got, want, 0, tol, err_msg=f"{name} {runner}")
    finally:
        logger.setLevel(level)


def test_older_opsets_keep_the_passes():
    # Resize's antialias and axes came with opset 18, half_pixel_symmetric with 19
    fn = lambda x: resize(x, (1, 1, 9, 4), "linear", antialias=False)  # noqa: E731
    ops = [n.op_type for n in to_onnx(fn, [X.shape], opset=17).graph.node]
    assert "Resize" not in ops
    sym = lambda x: resize(  # noqa: E731
        x, (1, 1, 9, 4), "linear", coordinate_transformation_mode="half_pixel_symmetric"
    )
    assert "Resize" not in [n.op_type for n in to_onnx(sym, [X.shape], opset=18).graph.node]


def test_symbolic_batch_names_the_resized_axes():
    # a symbolic batch: the node lists the resized axes (``axes``, opset 18) and their
    # sizes only; onnxruntime runs it on any batch
    fn = lambda x: interpolate(x, size=(9, 4), mode="bilinear")  # noqa: E731
    model = to_onnx(fn, [("B", 2, 5, 7)], opset=19)
    (node,) = model.graph.node
    assert node.op_type == "Resize" and _attributes(node)["axes"] == [2, 3]
    x = np.random.default_rng(1).standard_normal((3, 2, 5, 7)).astype(np.float32)
    np.testing.assert_allclose(_run(model, x), np.asarray(fn(x)), 0, 2e-6 * np.max(np.abs(x)))


def test_integer_half_and_gradient_graphs(full_run):
    # nearest on integers is one Resize; float16 is resampled in float32 between Casts;
    # a gradient's forward is the Resize, its backward the transposed passes
    xi = np.arange(35, dtype=np.int32).reshape(1, 1, 5, 7)
    fn = lambda x: interpolate(x, scale_factor=1.5)  # noqa: E731
    model = to_onnx(fn, [jax.ShapeDtypeStruct(xi.shape, xi.dtype)], opset=19)
    assert [n.op_type for n in model.graph.node] == ["Resize"]
    np.testing.assert_array_equal(_run(model, xi), np.asarray(fn(xi)))
    xh = X.astype(np.float16)
    fn = lambda x: resize(x, (1, 1, 9, 4), "linear", antialias=False)  # noqa: E731
    model = to_onnx(fn, [jax.ShapeDtypeStruct(xh.shape, xh.dtype)], opset=19)
    assert [n.op_type for n in model.graph.node] == ["Cast", "Resize", "Cast"]
    np.testing.assert_allclose(_run(model, xh), np.asarray(fn(xh)), 0, 2e-3 * np.max(np.abs(X)))
    if not full_run:
        return
    fn = jax.grad(lambda x: (resize(x, (1, 1, 9, 4), "cubic") ** 2).sum())
    model = to_onnx(fn, [X.shape], opset=19)
    assert [n.op_type for n in model.graph.node].count("Resize") == 1
    np.testing.assert_allclose(_run(model, X), np.asarray(fn(X)), 0, 1e-5 * np.max(np.abs(X)))


def test_ranks_and_axes_onnxruntime_refuses_keep_the_passes(full_run):
    # onnxruntime's Resize takes linear on 2-D to 5-D inputs (4-D and 5-D resized on
    # the inner axes) and cubic on 2-D and NCHW or NHWC: other calls keep the passes
    cases = [
        ((1, 2, 7), lambda x: interpolate(x, size=11, mode="linear"), True),
        ((1, 1, 3, 4, 5), lambda x: interpolate(x, size=(5, 6, 3), mode="trilinear"), True),
        ((7,), lambda x: resize(x, (11,), "linear"), False),
        ((5, 7, 3), lambda x: resize(x, (9, 4, 3), "cubic", antialias=False), False),
    ]
    for shape, fn, one_node in cases if full_run else cases[1:3]:
        x = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
        model = to_onnx(fn, [shape], opset=19)
        ops = [n.op_type for n in model.graph.node]
        assert ops == ["Resize"] if one_node else "Resize" not in ops, (shape, ops)
        np.testing.assert_allclose(_run(model, x), np.asarray(fn(x)), 0, 2e-6 * np.max(np.abs(x)))
