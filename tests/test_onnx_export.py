"""Tests for jaxpad/onnx.py: ``jax2onnx.to_onnx`` of functions that call jaxpad, run on
onnxruntime's CPU provider.

The expected arrays are numpy.pad's (tests/oracles.py) where numpy has the mode, and
otherwise the same function run by JAX (whose values the other test modules check
against their oracles). Skipped without jax2onnx and onnxruntime (``jaxpad[onnx]``).
"""

from __future__ import annotations

import logging

import jax
import numpy as np
import pytest
from jax import export

import jaxpad
from tests.cases import MODES
from tests.oracles import numpy_pad

pytest.importorskip("jax2onnx")
ort = pytest.importorskip("onnxruntime")

from jax2onnx import to_onnx  # noqa: E402

import jaxpad.onnx  # noqa: E402  (registers the converters; needs jax2onnx)

ODD_MODES = ("reflect_odd", "symmetric_odd", "dirichlet")


@pytest.fixture(autouse=True)
def _quiet_onnx_ir():
    # onnx_ir logs a warning for each intermediate value whose type it cannot infer
    # (the inlined index arithmetic): harmless, and noisy in a failure's output.
    logger = logging.getLogger("onnx_ir")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def export_and_run(fn, *args, specs=None):
    """``fn`` exported by jax2onnx and run by onnxruntime on ``args``; (outputs, op types)."""
    specs = specs or [jax.ShapeDtypeStruct(np.shape(a), np.asarray(a).dtype) for a in args]
    model = to_onnx(fn, specs)
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    feeds = {i.name: np.asarray(a) for i, a in zip(session.get_inputs(), args)}
    outputs = session.run(None, feeds)
    return outputs[0], sorted({node.op_type for node in model.graph.node})


def assert_exports(fn, *args, expected=None, specs=None):
    got, ops = export_and_run(fn, *args, specs=specs)
    want = np.asarray(fn(*args)) if expected is None else expected
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    return ops


X = np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32)

# (pads_begin, pads_end): within one run of the axis (one ONNX Pad node where ONNX has
# the mode), negative (crops), and longer than the axis (several periods).
PADS = [((2, 1), (1, 3)), ((2, -1), (-2, 3)), ((7, 9), (5, 1))]


@pytest.mark.parametrize("pads", PADS, ids=["short", "negative", "long"])
@pytest.mark.parametrize("mode", MODES)
def test_every_numpy_mode_against_numpy(mode, pads):
    pads_begin, pads_end = pads
    value = 0.5 if mode == "constant" else None
    expected = numpy_pad(X, pads_begin, pads_end, mode, value or 0)
    assert_exports(lambda x: jaxpad.pad(x, pads_begin, pads_end, mode, value), X, expected=expected)


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "wrap"])
def test_onnx_pad_modes_are_one_pad_node(mode):
    value = 0.5 if mode == "constant" else None
    ops = assert_exports(lambda x: jaxpad.pad(x, (2, 1), (1, 3), mode, value), X)
    assert ops == ["Pad"]


@pytest.mark.parametrize("pads", PADS[1:], ids=["negative", "long"])
@pytest.mark.parametrize("mode", ODD_MODES)
def test_odd_and_dirichlet_modes(mode, pads):
    pads_begin, pads_end = pads
    value = 0.5 if mode == "dirichlet" else None
    assert_exports(lambda x: jaxpad.pad(x, pads_begin, pads_end, mode, value), X)


def test_per_side_modes_and_traced_values():
    mode = (("dirichlet", "wrap"), ("edge", "reflect_odd"))
    values = np.array([[0.5, 1.0], [-1.0, 2.0]], np.float32)
    assert_exports(lambda x, v: jaxpad.pad(x, (2, 2), (1, 3), mode, v), X, values)


def test_traced_constant_value():
    assert_exports(lambda x, v: jaxpad.pad(x, (1, 2), (0, 1), "constant", v), X, np.float32(3))


def test_interior_padding_against_lax_pad():
    expected = np.asarray(jax.lax.pad(X, np.float32(0.5), ((1, 0, 1), (-1, 2, 2))))
    fn = lambda x: jaxpad.pad(x, (1, -1), (0, 2), "constant", 0.5, interior=(1, 2))  # noqa: E731
    assert_exports(fn, X, expected=expected)


def test_integer_dtype():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    expected = numpy_pad(x, (2, 1), (1, 2), "symmetric")
    assert_exports(lambda x: jaxpad.pad(x, (2, 1), (1, 2), "symmetric"), x, expected=expected)


@pytest.mark.parametrize("mode", ["constant", "reflect", "wrap", ("dirichlet", "edge")])
def test_dynamic_pad_with_offsets_as_an_input(mode):
    fn = lambda x, p: jaxpad.dynamic_pad(x, p, (6, 7), mode)  # noqa: E731
    export = to_onnx(
        fn, [jax.ShapeDtypeStruct(X.shape, X.dtype), jax.ShapeDtypeStruct((2,), "int32")]
    )
    session = ort.InferenceSession(export.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    for offsets in [(1, 2), (-2, 0), (4, -3)]:
        offsets = np.array(offsets, np.int32)
        (got,) = session.run(None, dict(zip(names, [X, offsets])))
        np.testing.assert_allclose(got, fn(X, offsets), rtol=1e-6, err_msg=str(offsets))


def test_gradients_export():
    """The folds (jaxpad_fold, jaxpad_dynamic_fold) export as well."""
    weights = np.random.default_rng(1).normal(size=(6, 8)).astype(np.float32)

    def grads(x, offsets):
        static = jax.grad(lambda x: (weights * jaxpad.pad(x, (2, 1), (1, 3), "reflect") ** 2).sum())
        dynamic = jax.grad(
            lambda x: (weights * jaxpad.dynamic_pad(x, offsets, (6, 8), "wrap")).sum()
        )
        return static(x) + dynamic(x)

    assert_exports(grads, X, np.array([1, -2], np.int32))


def test_broadcast_is_expand():
    x = np.arange(3, dtype=np.float32).reshape(3, 1)
    ops = assert_exports(
        lambda x: jaxpad.broadcast(x, (2, 3, 4)), x, expected=np.broadcast_to(x, (2, 3, 4))
    )
    assert "Expand" in ops


@pytest.mark.parametrize("mode", ["constant", "reflect", "wrap", "dirichlet"])
def test_symbolic_batch_axis(mode):
    value = 0.5 if mode in ("constant", "dirichlet") else None
    fn = lambda x: jaxpad.pad(x, (0, 1, 2), (0, 2, 1), mode, value)  # noqa: E731
    specs = [jax.ShapeDtypeStruct(export.symbolic_shape("B, 3, 4"), np.float32)]
    model = to_onnx(fn, specs)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for batch in (1, 3):
        x = np.random.default_rng(batch).normal(size=(batch, 3, 4)).astype(np.float32)
        (got,) = session.run(None, {session.get_inputs()[0].name: x})
        np.testing.assert_allclose(got, fn(x), rtol=1e-6)


def test_symbolic_padded_axis_needs_its_constraint():
    fn = lambda x: jaxpad.pad(x, (1, 2), (2, 1), "reflect")  # noqa: E731
    bare = [jax.ShapeDtypeStruct(export.symbolic_shape("N, 4"), np.float32)]
    with pytest.raises(NotImplementedError) as info:
        to_onnx(fn, bare)
    message = str(info.value)
    assert message.startswith("jaxpad.onnx: cannot export jaxpad_pad with mode='reflect'")
    assert "add the constraint 'N >= 2' to jax.export.symbolic_shape" in message
    constrained = [
        jax.ShapeDtypeStruct(export.symbolic_shape("N, 4", constraints=["N >= 3"]), np.float32)
    ]
    x = np.random.default_rng(2).normal(size=(5, 4)).astype(np.float32)
    assert_exports(fn, x, specs=constrained, expected=numpy_pad(x, (1, 2), (2, 1), "reflect"))


# jaxpad.nn and the layers ------------------------------------------------------------


def test_nn_conv_and_avg_pool():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(1, 2, 6, 5)).astype(np.float32)
    kernel = rng.normal(size=(3, 2, 3, 3)).astype(np.float32)
    policy = jaxpad.policies.torch(1)

    def fn(x):
        y = jaxpad.nn.conv(x, kernel, (1, 1), policy, pad_mode="wrap")
        return jaxpad.nn.avg_pool(y, (1, 1, 3, 3), (1, 1, 2, 2), policy, pad_mode="reflect")

    assert_exports(fn, x)


def test_nn_conv_transpose():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(1, 2, 5, 4)).astype(np.float32)
    kernel = rng.normal(size=(3, 2, 3, 3)).astype(np.float32)
    fn = lambda x: jaxpad.nn.conv_transpose(  # noqa: E731
        x, kernel, (2, 2), jaxpad.policies.torch(1), pad_mode="edge"
    )
    assert_exports(fn, x)


def test_flax_layer():
    nnx = pytest.importorskip("flax.nnx")
    import jaxpad.flax

    layer = jaxpad.flax.Conv(2, 3, (3, 3), pad_mode="reflect", rngs=nnx.Rngs(0))
    x = np.random.default_rng(5).normal(size=(1, 6, 5, 2)).astype(np.float32)
    assert_exports(lambda x: layer(x), x)


def test_equinox_layer_under_vmap():
    # Under vmap the layer's conv is one jaxpad_planned_conv, planned for the batch.
    pytest.importorskip("equinox")
    import jaxpad.equinox

    layer = jaxpad.equinox.Conv(
        2, 2, 3, 3, padding=1, padding_mode="CIRCULAR", key=jax.random.key(0)
    )
    x = np.random.default_rng(6).normal(size=(2, 2, 6, 5)).astype(np.float32)
    assert_exports(jax.vmap(layer), x)


# jaxpad.scipy's filters --------------------------------------------------------------

SCIPY_FILTERS = {
    "gaussian_filter reflect": ("gaussian_filter", (1.0,), {}),
    "uniform_filter wrap": ("uniform_filter", (3,), {"mode": "wrap"}),
    "correlate mirror": (
        "correlate",
        (np.random.default_rng(1).random((3, 3)),),
        {"mode": "mirror"},
    ),
    "sobel constant": ("sobel", (), {"mode": "constant", "cval": 0.5}),
    "maximum_filter nearest": ("maximum_filter", (3,), {"mode": "nearest"}),
    "median_filter reflect": ("median_filter", (3,), {}),
}


@pytest.mark.parametrize("case", SCIPY_FILTERS)
def test_scipy_filter_against_scipy(case):
    scipy_ndimage = pytest.importorskip("scipy.ndimage")
    from jaxpad.scipy import ndimage

    name, args, kwargs = SCIPY_FILTERS[case]
    x = np.random.default_rng(0).random((16, 12)).astype(np.float32)
    expected = getattr(scipy_ndimage, name)(x, *args, **kwargs)
    assert_exports(lambda v: getattr(ndimage, name)(v, *args, **kwargs), x, expected=expected)


def test_scipy_filter_3d_passes():
    # Three passes lower each pass on its own pad behind an optimization barrier.
    scipy_ndimage = pytest.importorskip("scipy.ndimage")
    from jaxpad.scipy import ndimage

    x = np.random.default_rng(3).random((6, 7, 5)).astype(np.float32)
    expected = scipy_ndimage.gaussian_filter(x, 1.0)
    assert_exports(lambda v: ndimage.gaussian_filter(v, 1.0), x, expected=expected)
    assert_exports(jax.grad(lambda v: (ndimage.uniform_filter(v, 3, mode="wrap") ** 2).sum()), x)


def test_scipy_filter_gradient():
    from jaxpad.scipy import ndimage

    x = np.random.default_rng(2).random((10, 9)).astype(np.float32)
    assert_exports(jax.grad(lambda v: (ndimage.gaussian_filter(v, 1.0, mode="wrap") ** 2).sum()), x)


def test_scipy_interpolation_against_scipy():
    # zoom's passes (jaxpad_interpolation_pass), their transposes in its gradient, and
    # map_coordinates' guard (jaxpad_computed_once) export as the programs they lower to
    scipy_ndimage = pytest.importorskip("scipy.ndimage")
    from jaxpad.scipy import ndimage

    x = np.random.default_rng(4).random((12, 10)).astype(np.float32)
    expected = scipy_ndimage.zoom(x, 0.5, order=3, mode="mirror")
    assert_exports(lambda v: ndimage.zoom(v, 0.5, order=3, mode="mirror"), x, expected=expected)
    assert_exports(jax.grad(lambda v: (ndimage.zoom(v, 0.5, mode="mirror") ** 2).sum()), x)
    coords = np.random.default_rng(5).uniform(-2, 12, (2, 7)).astype(np.float32)
    expected = scipy_ndimage.map_coordinates(x, coords, order=1, mode="wrap")
    assert_exports(
        lambda v, c: ndimage.map_coordinates(v, c, order=1, mode="wrap"),
        x,
        coords,
        expected=expected,
    )
