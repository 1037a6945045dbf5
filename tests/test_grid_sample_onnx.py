"""ONNX export of ``jaxpad.nn.grid_sample`` (jaxpad/onnx.py): one ``GridSample`` node,
run by onnxruntime's CPU provider, equal to jaxpad's values (which tests/test_grid_sample.py
checks against torch). Skipped without jax2onnx and onnxruntime (``jaxpad[onnx]``)."""

from __future__ import annotations

import itertools
import logging

import jax
import numpy as np
import pytest

import jaxpad

pytest.importorskip("jax2onnx")
ort = pytest.importorskip("onnxruntime")

from jax2onnx import to_onnx  # noqa: E402

import jaxpad.onnx  # noqa: E402, F401  (registers the converters)
from tests.test_grid_sample import SAMPLED  # noqa: E402


@pytest.fixture(autouse=True)
def _quiet_onnx_ir():
    logger = logging.getLogger("onnx_ir")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def _run(fn, args, opset):
    specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args]
    model = to_onnx(fn, specs, opset=opset)
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    feeds = {i.name: a for i, a in zip(session.get_inputs(), args)}
    return session.run(None, feeds)[0], sorted({n.op_type for n in model.graph.node})


CASES = [
    (d, mode, padding, align)
    for d, mode, padding, align in itertools.product(
        (2, 3), ("bilinear", "nearest", "bicubic"), ("zeros", "border", "reflection"), (False, True)
    )
    if not (d == 3 and mode == "bicubic")
]


@SAMPLED
@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c[0] + 2}d-{c[1]}-{c[2]}-{'ac' if c[3] else 'noac'}"
)
def test_grid_sample_exports_to_one_node(case):
    d, mode, padding, align = case
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, *((5, 7) if d == 2 else (3, 4, 5)))).astype(np.float32)
    grid = rng.uniform(-3, 3, (2, *((4, 6) if d == 2 else (2, 3, 4)), d)).astype(np.float32)

    def fn(x, grid):
        return jaxpad.nn.grid_sample(x, grid, mode, padding, align)

    got, ops = _run(fn, (x, grid), opset=20)
    assert ops == ["GridSample"]
    np.testing.assert_allclose(got, fn(x, grid), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("opset", [16, 20])
def test_channels_last_and_opsets(opset):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 5, 6, 2)).astype(np.float32)
    grid = rng.uniform(-2, 2, (1, 3, 4, 2)).astype(np.float32)

    def fn(x, grid):
        return jaxpad.nn.grid_sample(x, grid, "bicubic", "reflection", channels_last=True)

    got, ops = _run(fn, (x, grid), opset=opset)
    assert "GridSample" in ops and "Transpose" in ops
    np.testing.assert_allclose(got, fn(x, grid), rtol=1e-5, atol=1e-5)


def test_five_d_below_opset_20_is_the_jax_program():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 2, 3, 4, 5)).astype(np.float32)
    grid = rng.uniform(-2, 2, (1, 2, 2, 3, 3)).astype(np.float32)

    def fn(x, grid):
        return jaxpad.nn.grid_sample(x, grid, "bilinear", "border")

    got, ops = _run(fn, (x, grid), opset=17)
    assert "GridSample" not in ops
    np.testing.assert_allclose(got, fn(x, grid), rtol=1e-5, atol=1e-5)
