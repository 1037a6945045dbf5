"""``policies.onnx`` against onnxruntime: pools and convolutions, random configurations.

The graphs are built with ``onnx.helper`` and run on onnxruntime's CPU provider; the
expected arrays are whatever onnxruntime returns. The configurations are a seeded
sample biased towards kernels smaller than the stride, where ONNX's total SAME pad
``(ceil(n/s) - 1) * s + k - n`` is negative and the frameworks disagree.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from jaxpad import nn, policies

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")
helper = onnx.helper


def run_onnx(op_type, x, attrs, weight=None):
    """One ONNX node on onnxruntime's CPU provider; the output, or the error raised."""
    names, inputs, feeds = ["x"], [_value_info("x", x)], {"x": x}
    if weight is not None:
        names.append("w")
        inputs.append(_value_info("w", weight))
        feeds["w"] = weight
    node = helper.make_node(op_type, names, ["y"], **attrs)
    output = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)
    graph = helper.make_graph([node], "parity", inputs, [output])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    model.ir_version = 9
    options = ort.SessionOptions()
    options.log_severity_level = 4  # the errors we provoke are expected
    try:
        session = ort.InferenceSession(
            model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
        return session.run(None, feeds)[0]
    except Exception as error:  # onnxruntime raises its own exception types
        return error


def _value_info(name, array):
    return helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, list(array.shape))


def sample_axes(rng, rank):
    """(n, k, s) per spatial axis, half of them with a kernel smaller than the stride."""
    axes = []
    for _ in range(rank):
        s = int(rng.integers(1, 7))
        k = int(rng.integers(1, s + 1)) if rng.random() < 0.5 and s > 1 else int(rng.integers(1, 6))
        n = int(rng.integers(max(1, k - 2), 18))
        axes.append((n, k, s))
    return [a[0] for a in axes], [a[1] for a in axes], [a[2] for a in axes]


def onnx_policy(auto_pad, pads, ceil_mode, count_include_pad):
    return policies.onnx(
        auto_pad, pads=pads, ceil_mode=bool(ceil_mode), count_include_pad=bool(count_include_pad)
    )


def pool_by_policy(x, kind, window, strides, dilation, policy):
    """A pool of NC... ``x`` from the policy's answers alone, in NumPy: pad (or crop)
    by ``policy.pads``, gather each window's cells, reduce. The average's divisor
    counts the cells in the input (or in the input and its declared padding, for
    ``divisor="padded"``); a window with no cell to count gives 0, as onnxruntime's."""
    op = "max_pool" if kind == "max" else "avg_pool"
    sizes = x.shape[2:]
    pads = policy.pads(sizes, window, strides, dilation, op=op)
    out = policy.output_shape(sizes, window, strides, dilation, op=op)
    declared = policy.declared_pads(sizes, window, strides, dilation, op=op)
    fill = -np.inf if kind == "max" else 0.0
    values = _pad_or_crop(x, pads, fill)
    if policy.divisor == "padded":
        cells = _pad_or_crop(_pad_or_crop(np.ones_like(x), declared, 1.0), _rest(pads, declared), 0)
    else:
        cells = _pad_or_crop(np.ones_like(x), pads, 0.0)
    values, cells = (
        _windows(values, window, strides, dilation, out),
        _windows(cells, window, strides, dilation, out),
    )
    inner = tuple(range(values.ndim - len(window), values.ndim))
    if kind == "max":
        # A window with no input cell (dilation gaps and padding only, which jaxpad's
        # undilated pools never have) is onnxruntime's lowest float.
        return np.maximum(values.max(axis=inner), np.finfo(values.dtype).min)
    return values.sum(axis=inner) / np.maximum(cells.sum(axis=inner), 1.0)


def _rest(pads, declared):
    return [(lo - d_lo, hi - d_hi) for (lo, hi), (d_lo, d_hi) in zip(pads, declared)]


def _pad_or_crop(array, pads, fill):
    """Negative pads crop, positive pads add ``fill``: per spatial axis (from axis 2)."""
    for axis, (lo, hi) in enumerate(pads, start=2):
        n = array.shape[axis]
        array = array.take(range(max(-lo, 0), n - max(-hi, 0)), axis=axis)
        widths = [(0, 0)] * array.ndim
        widths[axis] = (max(lo, 0), max(hi, 0))
        array = np.pad(array, widths, constant_values=fill)
    return array


def _windows(array, window, strides, dilation, out):
    """The cells of every window: spatial axis i becomes (out_i, ...) with k_i at the end."""
    for i, (k, s, d, o) in enumerate(zip(window, strides, dilation, out)):
        index = np.arange(o)[:, None] * s + np.arange(k)[None, :] * d
        array = np.moveaxis(array.take(index, axis=2 + i), 3 + i, -1)
    return array


def pool_configs(seed, count, *, dilated):
    rng = np.random.default_rng(seed)
    configs = []
    for i in range(count):
        rank = int(rng.integers(1, 3))
        sizes, window, strides = sample_axes(rng, rank)
        dilation = [int(rng.integers(1, 4)) if dilated else 1 for _ in range(rank)]
        auto_pad = ("SAME_UPPER", "SAME_LOWER", "VALID", "NOTSET")[i % 4]
        pads = None
        if auto_pad == "NOTSET":
            # Pads of at most half the window, as onnxruntime's pools require.
            pads = [int(rng.integers(0, k // 2 + 1)) for k in window for _ in (0, 1)]
            pads = pads[0::2] + pads[1::2]
        ceil_mode = int(rng.integers(0, 2))
        # onnxruntime's dilated average pool counts its divisor its own way; jaxpad's
        # window ops have no dilated pools, so the dilated case checks the max and the sum
        # of valid cells only.
        count_include_pad = 0 if dilated else int(rng.integers(0, 2))
        x = rng.normal(size=(2, 2, *sizes)).astype(np.float32)
        configs.append((x, window, strides, dilation, auto_pad, pads, ceil_mode, count_include_pad))
    return configs


def _attrs(window, strides, dilation, auto_pad, pads, ceil_mode=None, count_include_pad=None):
    attrs = {"kernel_shape": window, "strides": strides, "auto_pad": auto_pad}
    if any(d != 1 for d in dilation):
        attrs["dilations"] = dilation
    if pads is not None:
        attrs["pads"] = pads
    if ceil_mode is not None:
        attrs["ceil_mode"] = ceil_mode
    if count_include_pad is not None:
        attrs["count_include_pad"] = count_include_pad
    return attrs


@pytest.mark.parametrize("dilated", [False, True], ids=["undilated", "dilated"])
def test_pool_policy_matches_onnxruntime(dilated):
    compared = {"AveragePool": 0, "MaxPool": 0, "negative total": 0}
    for x, window, strides, dilation, auto_pad, pads, ceil_mode, count_include_pad in pool_configs(
        7 + dilated, 150, dilated=dilated
    ):
        policy = onnx_policy(auto_pad, pads, ceil_mode, count_include_pad)
        attrs = _attrs(window, strides, dilation, auto_pad, pads, ceil_mode)
        label = (x.shape, window, strides, dilation, auto_pad, pads, ceil_mode, count_include_pad)
        for op_type, kind in (("AveragePool", "avg"), ("MaxPool", "max")):
            extra = {"count_include_pad": count_include_pad} if kind == "avg" else {}
            expected = run_onnx(op_type, x, {**attrs, **extra})
            try:
                got = pool_by_policy(x, kind, window, strides, dilation, policy)
            except ValueError as error:
                assert "the output would be empty" in str(error), label
                if not isinstance(expected, Exception) and expected.size:
                    # onnxruntime divides (n + pads - K) / s toward zero, so a window up to
                    # s - 1 longer than the padded input still gives one output where ONNX's
                    # floor gives none. jaxpad follows the ONNX formula there.
                    axis = int(re.search(r"on axis (\d+)", str(error)).group(1))
                    assert str(error).endswith("give 0."), label
                    assert expected.shape[2 + axis] == 1, label
                continue
            if isinstance(expected, Exception):
                # onnxruntime's MaxPool refuses negative pads, which its AveragePool
                # takes; jaxpad's max pool reads the AveragePool's windows.
                assert op_type == "MaxPool", (label, expected)
                assert "padding values must be non-negative" in str(expected), label
                assert (
                    min(
                        min(p)
                        for p in policy.pads(x.shape[2:], window, strides, dilation, op="max_pool")
                    )
                    < 0
                )
                continue
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6, err_msg=str(label))
            compared[op_type] += 1
            if auto_pad.startswith("SAME") and any(
                (-(-n // s) - 1) * s + k - n < 0 for n, k, s in zip(x.shape[2:], window, strides)
            ):
                compared["negative total"] += 1
    # The sample must exercise what it is about, not only skip it.
    assert compared["AveragePool"] >= 80 and compared["MaxPool"] >= 40, compared
    assert compared["negative total"] >= 20, compared


def conv_configs(seed, count):
    rng = np.random.default_rng(seed)
    for i in range(count):
        rank = int(rng.integers(1, 3))
        sizes, window, strides = sample_axes(rng, rank)
        groups = int(rng.integers(1, 3))
        x = rng.normal(size=(2, 2 * groups, *sizes)).astype(np.float32)
        weight = rng.normal(size=(3 * groups, 2, *window)).astype(np.float32)
        yield x, weight, strides, groups, ("SAME_UPPER", "SAME_LOWER")[i % 2]


def test_conv_matches_onnxruntime():
    negative = 0
    for x, weight, strides, groups, auto_pad in conv_configs(11, 12):
        attrs = {"strides": strides, "auto_pad": auto_pad, "group": groups}
        expected = run_onnx("Conv", x, attrs, weight)
        policy = policies.onnx(auto_pad)
        got = nn.conv(x, weight, strides, policy, feature_group_count=groups)
        label = (x.shape, weight.shape, strides, groups, auto_pad)
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4, err_msg=str(label))
        sizes, window = x.shape[2:], weight.shape[2:]
        assert policy.pads(sizes, window, strides, op="conv") == policy.pads(sizes, window, strides)
        negative += any((-(-n // s) - 1) * s + k - n < 0 for n, k, s in zip(sizes, window, strides))
    assert negative >= 3


def test_dilated_conv_follows_the_onnx_formula():
    # onnxruntime refuses dilation with SAME; ONNX's formula uses the dilated kernel,
    # which onnxruntime runs when the dilation is written into the kernel as zeros.
    rng = np.random.default_rng(3)
    refused = 0
    for _ in range(10):
        n, k, s, d = (int(v) for v in (rng.integers(2, 16), *rng.integers(1, 4, 3)))
        auto_pad = ("SAME_UPPER", "SAME_LOWER")[int(rng.integers(0, 2))]
        x = rng.normal(size=(1, 2, n)).astype(np.float32)
        weight = rng.normal(size=(2, 2, k)).astype(np.float32)
        dilated = np.zeros((2, 2, d * (k - 1) + 1), np.float32)
        dilated[..., ::d] = weight
        attrs = {"strides": [s], "auto_pad": auto_pad}
        if d > 1:
            refused += isinstance(
                run_onnx("Conv", x, {**attrs, "dilations": [d]}, weight), Exception
            )
        expected = run_onnx("Conv", x, attrs, dilated)
        got = nn.conv(x, weight, s, policies.onnx(auto_pad), dilation=d)
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4, err_msg=str((n, k, s, d)))
    assert refused >= 3


def test_pools_and_convs_place_a_negative_total_differently():
    # n=9, k=1, s=5: total -3. onnxruntime's AveragePool reads from 1 with either
    # auto_pad; its Conv reads from 1 with SAME_UPPER and from 0 with SAME_LOWER.
    for auto_pad, conv_lo in (("SAME_UPPER", -1), ("SAME_LOWER", 0)):
        policy = policies.onnx(auto_pad)
        assert policy.pads((9,), (1,), (5,), op="avg_pool") == ((-1, -2),)
        assert policy.pads((9,), (1,), (5,), op="conv")[0][0] == conv_lo
        x = np.arange(9, dtype=np.float32).reshape(1, 1, 9)
        pooled = run_onnx("AveragePool", x, _attrs([1], [5], [1], auto_pad, None))
        conv = run_onnx("Conv", x, {"strides": [5], "auto_pad": auto_pad}, np.ones((1, 1, 1), "f"))
        np.testing.assert_array_equal(pooled.ravel(), [1, 6])
        np.testing.assert_array_equal(conv.ravel(), [-conv_lo, 5 - conv_lo])


def test_nn_pools_match_onnxruntime_for_negative_totals():
    rng = np.random.default_rng(5)
    for auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        for n, k, s in ((6, 1, 3), (13, 2, 7), (11, 3, 6), (9, 1, 5)):
            x = rng.normal(size=(1, 2, n)).astype(np.float32)
            attrs = _attrs([k], [s], [1], auto_pad, None)
            expected = run_onnx("AveragePool", x, attrs)
            got = nn.avg_pool(x, (1, 1, k), (1, 1, s), policies.onnx(auto_pad))
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
