"""``jaxpad.image.resize`` against ONNX's ``Resize`` (opset 19): ONNX's own node test
cases, and random differential tests against ``onnx.reference`` and onnxruntime.

- ``test_onnx_node_case``: every ``export_*`` case of ONNX's
  ``onnx/backend/test/case/node/resize.py`` (the cases ONNX's backends are tested on),
  run by ONNX's own code with its ``expect`` replaced by a collector, each node mapped
  to one ``jaxpad.image.resize`` call (``onnx_call`` below: an attribute to the
  keyword of the same name, ``scales`` and ``sizes`` to the output shape and the
  coordinates' scale, ``axes`` and ``keep_aspect_ratio_policy`` resolved as ONNX
  resolves them). The expected float32 outputs are the case's own (computed by ONNX's
  reference ``_interpolate_nd``); in float64 the expected values are
  ``onnx.reference.ReferenceEvaluator``'s on the same node, to 1e-12, and nearest's
  exactly.
- ``test_random_against_onnx_reference``: random shapes, sizes and scales over every
  ``coordinate_transformation_mode``, ``nearest_mode``, ``cubic_coeff_a``,
  ``exclude_outside`` and ``antialias``, in float64 against ``ReferenceEvaluator``.
- ``test_random_against_onnxruntime``: the same draws in float32 against onnxruntime's
  CPU provider, less its documented gaps (``ORT_GAPS``), each skipped with its reason.

Skipped without onnx (and the onnxruntime test without onnxruntime).
"""

from __future__ import annotations

import functools
import itertools
import os
import zlib

import jax
import numpy as np
import pytest

from tests.compat import enable_x64
from tests.sampling import EVERY_CASE

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

image = pytest.importorskip("jaxpad.image")

OPSET = 19

# ONNX's defaults for the attributes jaxpad.image.resize names differently by default:
# jaxpad's defaults are jax.image.resize's (antialias=True, Keys' a = -0.5, the taps
# outside the input dropped), so every ONNX attribute is passed explicitly.
_ONNX_DEFAULTS = {
    "antialias": 0,
    "coordinate_transformation_mode": "half_pixel",
    "cubic_coeff_a": -0.75,
    "exclude_outside": 0,
    "extrapolation_value": 0.0,
    "keep_aspect_ratio_policy": "stretch",
    "mode": "nearest",
    "nearest_mode": "round_prefer_floor",
}


def _attributes(node) -> dict:
    attrs = dict(_ONNX_DEFAULTS)
    for attribute in node.attribute:
        value = helper.get_attribute_value(attribute)
        attrs[attribute.name] = value.decode() if isinstance(value, bytes) else value
    return attrs


def onnx_call(attrs: dict, x_shape, roi=None, scales=None, sizes=None):
    """The ``jaxpad.image.resize`` call of one ONNX Resize node: ``(shape, method,
    keywords)``. ``axes``, ``keep_aspect_ratio_policy`` and the output size from
    ``scales`` are resolved as ONNX's operator description (and its reference) does:
    that is arithmetic on the node's inputs, before any sampling."""
    r = len(x_shape)
    axes = [int(a) % r for a in attrs.get("axes", range(r))]
    shape = list(x_shape)
    coordinate_scales = None
    if sizes is not None:
        for i, d in enumerate(axes):
            shape[d] = int(sizes[i])
        policy = attrs["keep_aspect_ratio_policy"]
        if policy != "stretch":
            ratios = [shape[d] / x_shape[d] for d in axes]
            scale = min(ratios) if policy == "not_larger" else max(ratios)
            coordinate_scales = [1.0] * r
            for d in axes:
                shape[d] = int(scale * x_shape[d] + 0.5)
                coordinate_scales[d] = scale
    else:
        coordinate_scales = [1.0] * r
        for i, d in enumerate(axes):
            # ONNX: output size floor(scale * n), the float32 scale times the size in
            # float64 (the reference's numpy arithmetic).
            coordinate_scales[d] = float(scales[i])
            shape[d] = int(np.float64(scales[i]) * x_shape[d])
    kwargs = {
        "antialias": bool(attrs["antialias"]),
        "coordinate_transformation_mode": attrs["coordinate_transformation_mode"],
    }
    method = attrs["mode"]
    if method == "nearest":
        kwargs["nearest_mode"] = attrs["nearest_mode"]
    else:
        kwargs["exclude_outside"] = bool(attrs["exclude_outside"])
    if method == "cubic":
        kwargs["cubic_coeff_a"] = float(attrs["cubic_coeff_a"])
    if coordinate_scales is not None:
        kwargs["scales"] = tuple(coordinate_scales)
    if attrs["coordinate_transformation_mode"] == "tf_crop_and_resize":
        full = [0.0] * r + [1.0] * r
        roi = np.asarray(roi, np.float64)
        for i, d in enumerate(axes):
            full[d] = float(roi[i])
            full[r + d] = float(roi[len(axes) + i])
        kwargs["roi"] = tuple(full)
        kwargs["extrapolation_value"] = float(attrs["extrapolation_value"])
    return tuple(shape), method, kwargs


@functools.cache
def _node_cases() -> dict:
    """ONNX's Resize node cases, by name: ``(node, inputs, outputs)``, collected by
    running ONNX's own ``export_*`` functions with their ``expect`` replaced."""
    from onnx.backend.test.case.node import resize as cases_module

    collected = {}

    def expect(node, inputs, outputs, name, **_):
        collected[name] = (node, inputs, outputs)

    saved = cases_module.expect
    cases_module.expect = expect
    try:
        for name in sorted(vars(cases_module.Resize)):
            if name.startswith("export"):
                getattr(cases_module.Resize, name)()
    finally:
        cases_module.expect = saved
    return collected


def _case_names() -> list[str]:
    from onnx.backend.test.case.node import resize as cases_module

    return sorted(
        "test_" + name.removeprefix("export_")
        for name in vars(cases_module.Resize)
        if name.startswith("export")
    )


def _reference(node, feeds: dict) -> np.ndarray:
    """``onnx.reference``'s Resize of ``feeds`` in float64: the operator that
    ``ReferenceEvaluator`` runs (``onnx.reference.ops.op_resize.Resize``), called with the
    node's attributes as Python numbers and ``roi`` and ``scales`` as float64 (the same
    values). The evaluator hands float attributes and inputs over as float32 scalars,
    and NumPy 2 then computes the cubic coefficients and the roi's products in float32:
    its float64 outputs are only float32-accurate there (1e-7 off)."""
    from onnx.reference.ops.op_resize import Resize

    role = _role_inputs(node, feeds)
    wide = {k: None if v is None else np.asarray(v, np.float64) for k, v in role.items()}
    attrs = {"axes": None, **_attributes(node)}
    return Resize._run(
        Resize.__new__(Resize),
        role["X"],
        wide["roi"],
        wide["scales"],
        role["sizes"],
        **attrs,
    )[0]


def _evaluator(node, feeds: dict) -> np.ndarray:
    """``onnx.reference.ReferenceEvaluator``'s output of a model of ``node`` alone."""
    types = {
        np.dtype(np.float32): TensorProto.FLOAT,
        np.dtype(np.float64): TensorProto.DOUBLE,
        np.dtype(np.int64): TensorProto.INT64,
    }
    inputs = [
        helper.make_tensor_value_info(name, types[np.asarray(value).dtype], None)
        for name, value in feeds.items()
    ]
    output = helper.make_tensor_value_info(node.output[0], types[feeds[node.input[0]].dtype], None)
    graph = helper.make_graph([node], "resize", inputs, [output])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    return ReferenceEvaluator(model).run(None, feeds)[0]


def _feeds(node, inputs) -> dict:
    return {name: value for name, value in zip([n for n in node.input if n], inputs)}


def _role_inputs(node, feeds):
    roles = dict(zip(["X", "roi", "scales", "sizes"], list(node.input) + [""] * 4))
    return {role: feeds[name] if name else None for role, name in roles.items()}


def _resized(x, shape, method, kwargs):
    return np.asarray(jax.jit(lambda x: image.resize(x, shape, method, **kwargs))(x))


def test_every_onnx_case_is_collected_and_the_oracle_is_the_evaluator():
    # ONNX 1.23 has 39; a newer ONNX's new cases join the parametrization by themselves.
    assert len(_case_names()) >= 39
    assert set(_node_cases()) == set(_case_names())
    # The float64 oracle (_reference) is the evaluator's operator: on every case it
    # gives the evaluator's values, to the evaluator's float32 roundings.
    for node, inputs, outputs in _node_cases().values():
        feeds = _feeds(node, inputs)
        feeds64 = {**feeds, node.input[0]: feeds[node.input[0]].astype(np.float64)}
        want = _evaluator(node, feeds64)
        np.testing.assert_allclose(_reference(node, feeds64), want, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(want.astype(np.float32), outputs[0], rtol=1e-5, atol=1e-5)


def _assert_matches(got, want, method, tolerance):
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if method == "nearest":
        np.testing.assert_array_equal(got, want)
    else:
        scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
        np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance * scale)


@EVERY_CASE
@pytest.mark.parametrize("name", _case_names())
def test_onnx_node_case(name):
    node, inputs, outputs = _node_cases()[name]
    feeds = _feeds(node, inputs)
    role = _role_inputs(node, feeds)
    attrs = _attributes(node)
    x = role["X"]
    shape, method, kwargs = onnx_call(attrs, x.shape, role["roi"], role["scales"], role["sizes"])
    # float32: the case's own expected output (ONNX's float64 reference cast to float32).
    got = _resized(x, shape, method, kwargs)
    _assert_matches(got, outputs[0], method, 2e-6)
    # float64: the reference evaluator's, to float64 rounding.
    with enable_x64(True):
        feeds64 = {**feeds, node.input[0]: x.astype(np.float64)}
        want = _reference(node, feeds64)
        got = _resized(x.astype(np.float64), shape, method, kwargs)
    _assert_matches(got, want, method, 1e-12)


# --- random differential tests ---------------------------------------------------------

COORDINATE_MODES = (
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_crop_and_resize",
)
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")

# (method, antialias, exclude_outside, cubic_coeff_a, nearest_mode) of the draws:
# every nearest_mode, linear and cubic with and without antialias and exclude_outside,
# cubic with ONNX's a = -0.75, Keys' -0.5 and another.
_KERNELS = (
    [("nearest", 0, 0, -0.75, mode) for mode in NEAREST_MODES]
    + [
        ("linear", aa, ex, -0.75, "round_prefer_floor")
        for aa, ex in itertools.product((0, 1), (0, 1))
    ]
    + [
        ("cubic", aa, ex, a, "round_prefer_floor")
        for aa, ex, a in itertools.product((0, 1), (0, 1), (-0.75, -0.5, -0.6))
    ]
)


def _draw(rng, ctm, kernel, dtype):
    """One random Resize node on a (1, 2, h, w) input: ``(node, feeds)``."""
    method, aa, ex, a, nearest_mode = kernel
    h, w = (int(v) for v in rng.integers(1, 8, 2))
    x = rng.standard_normal((1, 2, h, w)).astype(dtype)
    attrs = {
        "mode": method,
        "coordinate_transformation_mode": ctm,
        "antialias": aa,
        "exclude_outside": ex,
        "cubic_coeff_a": a,
        "nearest_mode": nearest_mode,
    }
    names = ["X", "", "", ""]
    feeds = {"X": x}
    if ctm == "tf_crop_and_resize":
        names[1] = "roi"
        starts, ends = rng.uniform(-0.3, 0.6, 2), rng.uniform(0.4, 1.3, 2)
        feeds["roi"] = np.array([0, 0, *starts, 1, 1, *ends], np.float32)
        attrs["extrapolation_value"] = float(rng.choice([0.0, -7.5]))
    if rng.random() < 0.5:
        names[2] = "scales"
        # Scales whose product with the size is not an integer, too: the coordinates use
        # the scale, the output size its floor. At least one output element per axis.
        choices = np.array([0.5, 0.6, 0.8, 1.0, 1.7, 2.0, 2.94, 3.0], np.float32)
        scales = [1.0, 1.0] + [float(rng.choice(choices[choices * n >= 1])) for n in (h, w)]
        feeds["scales"] = np.array(scales, np.float32)
    else:
        names[3] = "sizes"
        feeds["sizes"] = np.array([1, 2, *rng.integers(1, 12, 2)], np.int64)
    while names[-1] == "":
        names.pop()
    node = helper.make_node("Resize", names, ["Y"], **attrs)
    return node, feeds


def _source_coordinates(node, feeds) -> list[np.ndarray]:
    """The float64 source coordinate of every output index, per axis, as ONNX's
    reference computes it (``_compute_x_ori``)."""
    from onnx.reference.ops.op_resize import _compute_x_ori

    attrs = _attributes(node)
    role = _role_inputs(node, feeds)
    x = role["X"]
    shape, _, kwargs = onnx_call(attrs, x.shape, role["roi"], role["scales"], role["sizes"])
    scales = kwargs.get("scales") or [o / n for o, n in zip(shape, x.shape)]
    roi = kwargs.get("roi")
    coordinates = []
    for d, (n, m) in enumerate(zip(x.shape, shape)):
        axis_roi = None if roi is None else [roi[d], roi[d + x.ndim]]
        coords, _ = _compute_x_ori(
            attrs["coordinate_transformation_mode"],
            np.arange(m, dtype=np.float64),
            scales[d],
            n,
            scales[d] * n,
            m,
            axis_roi,
        )
        coordinates.append(np.asarray(coords, np.float64))
    return coordinates


def _on_a_near_tie(node, feeds) -> bool:
    """Whether a source coordinate of the node lies within 1e-9 of an integer without
    being one. There ONNX's reference contradicts itself: it takes the weights from
    ``x`` and the taps from ``x + pad`` rounded (``_interpolate_1d_along_axis``), so at
    ``x = 1 + 2e-16`` (half_pixel_symmetric, scale 0.5 on 7 samples) it reads samples 0
    and 1 with sample 1's weight. Such a draw is drawn again."""
    for coords in _source_coordinates(node, feeds):
        near = np.abs(coords - np.round(coords)) < 1e-9
        if np.any(near & (coords != np.round(coords))):
            return True
    return False


def _one_sample_pytorch_half_pixel(node, feeds) -> bool:
    """``pytorch_half_pixel`` with an output of one sample on an axis that had more:
    ONNX's reference reads it at -0.5, its operator text and onnxruntime at 0, and so
    does jaxpad. The reference test leaves it to the onnxruntime test."""
    attrs = _attributes(node)
    if attrs["coordinate_transformation_mode"] != "pytorch_half_pixel":
        return False
    role = _role_inputs(node, feeds)
    shape, _, _ = onnx_call(attrs, role["X"].shape, role["roi"], role["scales"], role["sizes"])
    return any(m == 1 and n > 1 for m, n in zip(shape, role["X"].shape))


def _drawn(seed, ctm, kernel, dtype):
    """``_draw`` from ``seed``, drawn again (from the next seeds) while it lies on a
    near tie (``_on_a_near_tie``)."""
    for attempt in range(20):
        node, feeds = _draw(np.random.default_rng(seed + 100_000 * attempt), ctm, kernel, dtype)
        if not _on_a_near_tie(node, feeds):
            return node, feeds
    raise AssertionError(f"no draw off a near tie from seed {seed}")


def _jaxpad_of(node, feeds):
    attrs = _attributes(node)
    role = _role_inputs(node, feeds)
    shape, method, kwargs = onnx_call(
        attrs, role["X"].shape, role["roi"], role["scales"], role["sizes"]
    )
    return _resized(role["X"], shape, method, kwargs), method, kwargs


def _share(request) -> list[tuple[int, str, tuple]]:
    """The draws this run checks, ``(seed, coordinate mode, kernel)``: with
    ``--every-case`` all of them; under ``--all`` every coordinate mode with four
    kernels, every kernel at least once, the pairs rotated by the sample seed
    (tests/conftest.py); in the default run three draws."""
    config = request.config
    seed = zlib.crc32(os.environ.get("JAXPAD_SAMPLE_SEED", "jaxpad").encode())
    rng = np.random.default_rng(seed)
    if config.getoption("every_case") or os.environ.get("JAXPAD_EVERY_CASE", "") not in ("", "0"):
        pairs = [(c, k) for c in range(len(COORDINATE_MODES)) for k in range(len(_KERNELS))]
    elif config.getoption("run_all"):
        kernels = rng.permutation(len(_KERNELS))
        pairs = [
            (c, int(kernels[(4 * c + j) % len(_KERNELS)]))
            for c in range(len(COORDINATE_MODES))
            for j in range(4)
        ]
    else:
        pairs = [
            (int(rng.integers(len(COORDINATE_MODES))), int(rng.integers(len(_KERNELS))))
            for _ in range(3)
        ]
    return [(1000 + 100 * c + k, COORDINATE_MODES[c], _KERNELS[k]) for c, k in pairs]


def test_random_against_onnx_reference(request):
    failures = []
    with enable_x64(True):
        for seed, ctm, kernel in _share(request):
            node, feeds = _drawn(seed, ctm, kernel, np.float64)
            if _one_sample_pytorch_half_pixel(node, feeds):
                continue
            want = _reference(node, feeds)
            got, method, kwargs = _jaxpad_of(node, feeds)
            try:
                _assert_matches(got, want, method, 1e-12)
            except AssertionError as error:
                failures.append(f"{kwargs} {feeds}: {error}")
    assert not failures, "\n".join(failures)


def _ort_gap(node, feeds) -> str | None:
    """Why onnxruntime (1.32, CPU) cannot be the oracle for this node, or None.

    Found by running every attribute combination against ``onnx.reference``:
    - onnxruntime rejects ``exclude_outside=1`` unless the mode is cubic or linear with
      antialias ("exclude_outside can be set to 1 when (1) mode is CUBIC, or (2) mode is
      LINEAR when anti-aliasing is enabled");
    - with ``scales`` whose product with the size is not an integer, onnxruntime's
      ``align_corners`` and ``tf_crop_and_resize`` use the integer output size where
      ONNX's reference (and its operator description) use the float ``scale * n``;
    - ``tf_crop_and_resize`` on an axis whose size does not change: onnxruntime copies
      the axis, whatever its ``roi``;
    - nearest where a coordinate lies within 1e-5 of a rounding point without being on
      it: onnxruntime computes the coordinates in float32 (x = 8.5 / 1.7f - 0.5 is
      4.49999986 in float64, 4.5 in float32, and round_prefer_ceil takes 5).
    """
    attrs = _attributes(node)
    if attrs["exclude_outside"] and not (
        attrs["mode"] == "cubic" or (attrs["mode"] == "linear" and attrs["antialias"])
    ):
        return "onnxruntime rejects exclude_outside=1 outside cubic and antialiased linear"
    if "scales" in feeds and attrs["coordinate_transformation_mode"] in (
        "align_corners",
        "tf_crop_and_resize",
    ):
        sizes = feeds["scales"].astype(np.float64) * feeds["X"].shape
        if np.any(sizes != np.floor(sizes)):
            return "onnxruntime's align_corners/tf_crop_and_resize use the integer output size"
    if attrs["coordinate_transformation_mode"] == "tf_crop_and_resize" and "sizes" in feeds:
        x_shape, roi = feeds["X"].shape, feeds["roi"]
        r = len(x_shape)
        for d, (n, m) in enumerate(zip(x_shape, feeds["sizes"])):
            if n == m and (roi[d], roi[d + r]) != (0, 1):
                return "onnxruntime's tf_crop_and_resize leaves an axis of unchanged size as it is"
    if attrs["mode"] == "nearest":
        # Where rounding decides: half-integers for round_*, integers for floor/ceil.
        offset = 0.5 if attrs["nearest_mode"].startswith("round") else 0.0
        for coords in _source_coordinates(node, feeds):
            gap = np.abs((coords - offset) - np.round(coords - offset))
            if np.any((gap < 1e-5) & (gap > 0)):
                return "onnxruntime computes nearest's coordinates in float32"
    return None


def test_random_against_onnxruntime(request):
    ort = pytest.importorskip("onnxruntime")
    failures, gaps, checked = [], set(), 0
    for seed, ctm, kernel in _share(request):
        node, feeds = _drawn(seed, ctm, kernel, np.float32)
        gap = _ort_gap(node, feeds)
        if gap is not None:
            gaps.add(gap)
            continue
        inputs = [
            helper.make_tensor_value_info(
                name, TensorProto.INT64 if name == "sizes" else TensorProto.FLOAT, None
            )
            for name in feeds
        ]
        graph = helper.make_graph(
            [node], "resize", inputs, [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)]
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
        options = ort.SessionOptions()
        options.log_severity_level = 3
        session = ort.InferenceSession(
            model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
        want = session.run(None, feeds)[0]
        got, method, kwargs = _jaxpad_of(node, feeds)
        checked += 1
        try:
            # float32 against float32: onnxruntime computes its weights in float32.
            _assert_matches(got, want, method, 2e-5)
        except AssertionError as error:
            failures.append(f"{kwargs} {feeds}: {error}")
    assert not failures, "\n".join(failures)
    if not checked:
        pytest.skip("; ".join(sorted(gaps)))
