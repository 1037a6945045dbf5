"""jax.export: a fresh process without jaxpad, symbolic batch sizes, several platforms."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import export

import jaxpad
from jaxpad import nn, policies
from tests.cases import MODES
from tests.compat import skip_before_jax
from tests.oracles import numpy_pad
from tests.sampling import EVERY_CASE, ROTATE_LISTS

# --all: a list of cases, one value each, rotates (tests/sampling.py).
pytestmark = ROTATE_LISTS

_FRESH_PROCESS = textwrap.dedent(
    """
    import sys
    import jax, jax.numpy as jnp, numpy as np
    from jax import export

    with open(sys.argv[1], "rb") as f:
        restored = export.deserialize(bytearray(f.read()))
    x = np.load(sys.argv[2])
    out = restored.call(x)
    # The exported module was serialized with its VJP, so it differentiates here too.
    grad = jax.grad(lambda x: (restored.call(x) ** 2).sum())(x)
    assert "jaxpad" not in sys.modules, "the exported module must not need jaxpad"
    np.save(sys.argv[3], np.asarray(out))
    np.save(sys.argv[4], np.asarray(grad))
    """
)


def test_round_trip_in_a_fresh_process_without_jaxpad(tmp_path):
    x = np.arange(12.0, dtype=np.float32).reshape(3, 4)

    def f(x):
        padded = jaxpad.pad(x, [2, -1], [1, 3], "reflect")
        shifted = jaxpad.dynamic_pad(padded, jnp.array([1, -2]), (6, 6), "wrap")
        return jaxpad.broadcast(shifted, (2, 6, 6))

    exported = export.export(jax.jit(f))(x)
    (tmp_path / "module.bin").write_bytes(exported.serialize(vjp_order=1))
    np.save(tmp_path / "x.npy", x)
    paths = [tmp_path / name for name in ("module.bin", "x.npy", "out.npy", "grad.npy")]
    subprocess.run(
        [sys.executable, "-c", _FRESH_PROCESS, *map(str, paths)],
        check=True,
        timeout=120,
        capture_output=True,
    )
    np.testing.assert_array_equal(np.load(paths[2]), f(x))
    expected_grad = jax.grad(lambda x: (f(x) ** 2).sum())(x)
    np.testing.assert_allclose(np.load(paths[3]), expected_grad, rtol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_symbolic_batch_dimension(mode):
    spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, 5, 4"), jnp.float32)

    def f(x):
        return jaxpad.pad(x, [0, 3, -1], [0, 7, 2], mode)

    exported = export.export(jax.jit(f))(spec)
    assert str(exported.out_avals[0].shape) == "(b, 15, 5)"
    restored = export.deserialize(exported.serialize(vjp_order=1))
    for batch in (1, 3):
        x = np.random.default_rng(batch).standard_normal((batch, 5, 4)).astype(np.float32)
        np.testing.assert_array_equal(restored.call(x), numpy_pad(x, [0, 3, -1], [0, 7, 2], mode))
        np.testing.assert_allclose(
            jax.grad(lambda x: (restored.call(x) ** 2).sum())(x),
            jax.grad(lambda x: (f(x) ** 2).sum())(x),
            rtol=1e-6,
        )


@pytest.mark.parametrize("mode", MODES)
def test_symbolic_batch_dimension_for_dynamic_pad_and_broadcast(mode):
    batch, five, one = export.symbolic_shape("b, 5, 1")
    specs = (
        jax.ShapeDtypeStruct((batch, five), jnp.float32),
        jax.ShapeDtypeStruct((batch, one), jnp.int32),
    )

    def f(x, offsets):
        padded = jax.vmap(lambda row, o: jaxpad.dynamic_pad(row, o, (8,), mode))(x, offsets)
        # The batch size is symbolic, so broadcast sees it through vmap, not in target_shape.
        return jax.vmap(lambda row: jaxpad.broadcast(row, (2, 8)))(padded)

    exported = export.export(jax.jit(f))(*specs)
    x = np.arange(15.0, dtype=np.float32).reshape(3, 5)
    offsets = np.array([[0], [2], [-3]], np.int32)
    np.testing.assert_array_equal(exported.call(x, offsets), f(x, offsets))


def test_export_for_cpu_cuda_and_tpu_at_once():
    def f(x):
        return jaxpad.pad(x, [1, 2], [3, 0], "symmetric")

    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    exported = export.export(jax.jit(f), platforms=("cpu", "cuda", "tpu"))(x)
    assert exported.platforms == ("cpu", "cuda", "tpu")
    restored = export.deserialize(exported.serialize())
    np.testing.assert_array_equal(restored.call(x), numpy_pad(x, [1, 2], [3, 0], "symmetric"))


def test_pad_gradient_dynamic_pad_and_broadcast_export_without_custom_calls():
    # Three platforms in one module: jaxpad must lower to plain StableHLO on each
    # (its CPU rule and its default rule), never to a custom call.
    def f(x, shift):
        padded = jaxpad.pad(x, [1, 2], [3, 0], "reflect")
        moved = jaxpad.dynamic_pad(padded, jnp.stack([shift, -shift]), (7, 6), "wrap")
        return jaxpad.broadcast(moved, (2, 7, 6))

    def grad(x, shift):
        return jax.grad(lambda x: (f(x, shift) ** 2).sum())(x)

    x = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    shift = np.int32(2)
    for fn in (f, grad):
        exported = export.export(jax.jit(fn), platforms=("cpu", "cuda", "tpu"))(x, shift)
        text = exported.mlir_module()
        assert "stablehlo.custom_call" not in text and "stablehlo.case" in text
        np.testing.assert_allclose(exported.call(x, shift), fn(x, shift), rtol=1e-6)


_SPATIAL = export.symbolic_shape("b, h, w, c", constraints=["h >= 8", "w >= 8"])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("begin,end", [((2, 1), (3, 2)), ((-1, 4), (2, -3))])
@pytest.mark.subsample(0.5)
def test_symbolic_padded_axes_under_constraints(mode, begin, end):
    # jnp.pad exports with symbolic spatial sizes; so does jaxpad whenever the
    # constraints decide what its lowering needs (here: pads shorter than the axis).
    pads_begin, pads_end = (0, *begin, 0), (0, *end, 0)
    spec = jax.ShapeDtypeStruct(_SPATIAL, jnp.float32)

    def f(x):
        return jaxpad.pad(x, pads_begin, pads_end, mode)

    def loss_grad(x):
        return jax.grad(lambda x: (f(x) ** 2).sum())(x)

    exported = export.export(jax.jit(f))(spec)
    exported_grad = export.export(jax.jit(loss_grad))(spec)
    for shape in ((1, 8, 9, 2), (2, 11, 8, 1)):
        x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)
        np.testing.assert_array_equal(exported.call(x), numpy_pad(x, pads_begin, pads_end, mode))
        np.testing.assert_allclose(exported_grad.call(x), loss_grad(x), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap"])
def test_symbolic_padded_axis_the_constraints_do_not_decide(mode):
    # A pad of 10 on an axis known only to be >= 8 may turn at a mirror or wrap more
    # than once: the lowering cannot be planned, and the error says what to add.
    need = 11 if mode == "reflect" else 10
    spec = jax.ShapeDtypeStruct(_SPATIAL, jnp.float32)
    with pytest.raises(ValueError, match=rf"jaxpad.pad: axis 1 .*'h >= {need}'"):
        export.export(jax.jit(lambda x: jaxpad.pad(x, [0, 10, 0, 0], [0, 0, 0, 0], mode)))(spec)
    constrained = export.symbolic_shape("b, h, w, c", constraints=[f"h >= {need}"])
    exported = export.export(jax.jit(lambda x: jaxpad.pad(x, [0, 10, 0, 0], [0, 0, 0, 0], mode)))(
        jax.ShapeDtypeStruct(constrained, jnp.float32)
    )
    x = np.random.default_rng(0).standard_normal((1, need, 3, 1)).astype(np.float32)
    np.testing.assert_array_equal(exported.call(x), numpy_pad(x, [0, 10, 0, 0], [0, 0, 0, 0], mode))


def test_symbolic_crop_the_constraints_do_not_bound_names_the_constraint():
    spec = jax.ShapeDtypeStruct(_SPATIAL, jnp.float32)
    with pytest.raises(
        ValueError, match=r"jaxpad.pad: the output size h - 18 on axis 1 .*'h - 18 >= 0'"
    ):
        export.export(jax.jit(lambda x: jaxpad.pad(x, [0, -20, 0, 0], [0, 2, 0, 0], "wrap")))(spec)
    # With that, the planner still cannot tell whether the crop of 20 leaves any of h.
    bounded = export.symbolic_shape("b, h, w, c", constraints=["h - 18 >= 0"])
    with pytest.raises(ValueError, match=r"jaxpad.pad: axis 1 .*'h >= 21'"):
        export.export(jax.jit(lambda x: jaxpad.pad(x, [0, -20, 0, 0], [0, 2, 0, 0], "wrap")))(
            jax.ShapeDtypeStruct(bounded, jnp.float32)
        )
    constrained = export.symbolic_shape("b, h, w, c", constraints=["h >= 21"])
    exported = export.export(
        jax.jit(lambda x: jaxpad.pad(x, [0, -20, 0, 0], [0, 2, 0, 0], "wrap"))
    )(jax.ShapeDtypeStruct(constrained, jnp.float32))
    x = np.random.default_rng(0).standard_normal((1, 23, 2, 1)).astype(np.float32)
    np.testing.assert_array_equal(
        exported.call(x), numpy_pad(x, [0, -20, 0, 0], [0, 2, 0, 0], "wrap")
    )


# Issue 19, section 2: every public function exports with symbolic sizes --------------

_PRESET_POOL_POLICIES = [
    # Every preset function; every divisor ("window", "padded", "valid"); floor and ceil.
    policies.tensorflow("SAME"),
    policies.tensorflow("VALID"),
    policies.jax("SAME_LOWER"),
    policies.onnx("SAME_UPPER"),
    policies.onnx(pads=[1, 0, 1, 1], count_include_pad=True),
    policies.onnx(pads=[1, 1, 1, 1], ceil_mode=True),
    policies.torch(1),
    policies.torch(1, ceil_mode=True, count_include_pad=False),
    policies.caffe(1),
    policies.keras("same"),
    policies.flax("SAME"),
    policies.mps("same", exclude_edges=True),
    policies.mps("full", "bottom_right"),
]


def _close(actual, expected):
    # Exported (jitted) sums may round differently from eager ones near zero.
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("layout", ["NHWC", "NCHW"])
@pytest.mark.parametrize("op", [nn.avg_pool, nn.max_pool], ids=["avg_pool", "max_pool"])
@pytest.mark.parametrize("policy", _PRESET_POOL_POLICIES, ids=lambda p: p.name)
@pytest.mark.subsample(0.3)
def test_pools_export_with_a_symbolic_batch_under_every_preset(policy, op, layout):
    # The "padded" and "valid" divisors were computed with NumPy over every axis, the
    # symbolic batch included (TracerBoolConversionError).
    if layout == "NHWC":
        dims, window, strides = "b, 11, 12, 3", (1, 3, 3, 1), (1, 2, 2, 1)
    else:
        dims, window, strides = "b, 3, 11, 12", (1, 1, 3, 3), (1, 1, 2, 2)
    spec = jax.ShapeDtypeStruct(export.symbolic_shape(dims), jnp.float32)

    def f(x):
        return op(x, window, strides, policy)

    exported = export.export(jax.jit(f))(spec)
    assert str(exported.out_avals[0].shape).startswith("(b,")
    shape = (3, *(int(d) for d in dims.split(", ")[1:]))
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    _close(exported.call(x), f(x))


_CONV_CASES = [
    (policies.flax("CIRCULAR"), None, 1),
    (policies.flax("REFLECT"), None, 1),
    (policies.tensorflow("SAME"), None, 2),
    (policies.torch(1), "edge", 2),
    (policies.onnx("SAME_LOWER"), "symmetric", 2),
]


@pytest.mark.parametrize("layout", ["NHWC", "NCHW"])
@pytest.mark.parametrize("policy,pad_mode,stride", _CONV_CASES, ids=lambda v: getattr(v, "name", v))
@pytest.mark.subsample(0.5)
def test_convs_export_with_a_symbolic_batch(policy, pad_mode, stride, layout):
    rng = np.random.default_rng(stride)
    if layout == "NHWC":
        numbers, dims, concrete = ("NHWC", "HWIO", "NHWC"), "b, 9, 10, 3", (9, 10, 3)
        kernel = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
        kernel_t = rng.standard_normal((3, 3, 4, 3)).astype(np.float32)
    else:
        numbers, dims, concrete = ("NCHW", "OIHW", "NCHW"), "b, 3, 9, 10", (3, 9, 10)
        kernel = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
        kernel_t = rng.standard_normal((3, 4, 3, 3)).astype(np.float32)
    spec = jax.ShapeDtypeStruct(export.symbolic_shape(dims), jnp.float32)

    def conv(x):
        return nn.conv(x, kernel, stride, policy, pad_mode, dimension_numbers=numbers)

    def conv_t(x):
        y = conv(x)  # the transposed convolution maps conv's output back
        return nn.conv_transpose(
            y, kernel_t, stride, policy, dimension_numbers=numbers, pad_mode=pad_mode
        )

    def conv_grad(x):
        return jax.grad(lambda x: (conv(x) ** 2).sum())(x)

    for fn in (conv, conv_t, conv_grad) if layout == "NHWC" else (conv, conv_t):
        exported = export.export(jax.jit(fn))(spec)
        # The reference jitted for each batch (eagerly, a compile per primitive).
        reference = jax.jit(fn)
        for batch in (1, 2):
            x = rng.standard_normal((batch, *concrete)).astype(np.float32)
            np.testing.assert_allclose(exported.call(x), reference(x), rtol=1e-4, atol=1e-4)


@EVERY_CASE  # --all: every one (tests/sampling.py)
@pytest.mark.parametrize(
    "op",
    [
        lambda x: nn.avg_pool(x, (1, 3, 3, 1), (1, 2, 2, 1), policies.torch(1)),
        lambda x: nn.max_pool(x, (1, 3, 3, 1), (1, 2, 2, 1), policies.tensorflow("SAME")),
        lambda x: nn.conv(
            x, jnp.ones((3, 3, 3, 2)), 1, policies.flax("SAME"), dimension_numbers=_NHWC
        ),
        lambda x: nn.conv_transpose(
            x, jnp.ones((3, 3, 3, 2)), 2, policies.jax("SAME"), dimension_numbers=_NHWC
        ),
    ],
    ids=["avg_pool", "max_pool", "conv", "conv_transpose"],
)
def test_window_ops_reject_symbolic_spatial_sizes_by_name(op):
    # Policies compute pads from concrete sizes (PaddingPolicy takes ints): the error
    # names the op, the axis and what to do, not the policy's int check.
    spec = jax.ShapeDtypeStruct(
        export.symbolic_shape("b, h, w, 3", constraints=["h >= 8", "w >= 8"]), jnp.float32
    )
    with pytest.raises(
        ValueError,
        match=r"jaxpad.nn.\w+: axis 1 of x.shape=\(b, h, w, 3\) is \w+ and has the "
        r"symbolic size h",
    ):
        export.export(jax.jit(op))(spec)


_NHWC = ("NHWC", "HWIO", "NHWC")


def test_static_int_lets_symbolic_dims_through_only_when_asked():
    from jaxpad import _checks

    (b,) = export.symbolic_shape("b")
    assert _checks.static_int("f", "n", b, allow_symbolic=True) is b
    assert _checks.static_int_tuple("f", "s", (2, b), allow_symbolic=True) == (2, b)
    with pytest.raises(TypeError, match=r"f: n must be an int; got b\."):
        _checks.static_int("f", "n", b)
    with pytest.raises(TypeError, match=r"f: s\[1\] must be an int; got b\."):
        _checks.static_int_tuple("f", "s", (2, b))


_B_ONLY = export.symbolic_shape("b")[0]


@pytest.mark.parametrize(
    "target,mode,axes_mapping,expected",
    [
        (lambda b: (2, b, 5), "numpy", None, lambda x: np.broadcast_to(x[:1], (2, *x.shape))),
        (lambda b: (b, 4, 5), "explicit", [0, 2], lambda x: np.repeat(x[:, None], 4, 1)),
        (lambda b: (2, 1, 5), "bidirectional", None, lambda x: np.broadcast_to(x, (2, *x.shape))),
        (lambda b: (b, 1), "bidirectional", None, lambda x: x),
    ],
)
def test_broadcast_to_a_symbolic_target_shape(target, mode, axes_mapping, expected):
    spec = jax.ShapeDtypeStruct((_B_ONLY, 5), jnp.float32)

    def f(x):
        source = x[:1] if mode == "numpy" else x
        return jaxpad.broadcast(source, target(x.shape[0]), mode, axes_mapping)

    def loss_grad(x):
        return jax.grad(lambda x: (f(x) ** 2).sum())(x)

    exported = export.export(jax.jit(f))(spec)
    exported_grad = export.export(jax.jit(loss_grad))(spec)
    for batch in (1, 3):
        x = np.random.default_rng(batch).standard_normal((batch, 5)).astype(np.float32)
        want = expected(x) if mode != "numpy" else np.broadcast_to(x[:1], (2, batch, 5))
        np.testing.assert_array_equal(exported.call(x), want)
        np.testing.assert_array_equal(exported.call(x), f(x))
        np.testing.assert_allclose(exported_grad.call(x), loss_grad(x), rtol=1e-6)


def test_broadcast_symbolic_target_errors_name_the_constraint():
    spec = jax.ShapeDtypeStruct((_B_ONLY, 5), jnp.float32)
    with pytest.raises(
        ValueError,
        match=r"jaxpad.broadcast: target_shape\[0\]=b - 3 may be negative: add the "
        r"constraint 'b - 3 >= 0'",
    ):
        export.export(jax.jit(lambda x: jaxpad.broadcast(x[:1], (x.shape[0] - 3, 5))))(spec)
    with pytest.raises(
        ValueError, match=r"jaxpad.broadcast: axis 0 of x.shape=\(b, 5\) has size b"
    ):
        export.export(jax.jit(lambda x: jaxpad.broadcast(x, (2 * x.shape[0], 5))))(spec)
    constrained = export.symbolic_shape("b, 5", constraints=["b >= 3"])
    exported = export.export(jax.jit(lambda x: jaxpad.broadcast(x[:1], (x.shape[0] - 3, 5))))(
        jax.ShapeDtypeStruct(constrained, jnp.float32)
    )
    x = np.arange(20.0, dtype=np.float32).reshape(4, 5)
    np.testing.assert_array_equal(exported.call(x), np.broadcast_to(x[:1], (1, 5)))


_BH = export.symbolic_shape("b, h", constraints=["h >= 8"])
_SCALAR = jax.ShapeDtypeStruct((), jnp.int32)


_DYNAMIC_CASES = {
    # name: (pads_begin from the traced offset o, output size from h)
    "traced": (lambda o: [0, o], lambda h: h + 5),
    "traced_array": (lambda o: jnp.stack([0 * o, o]), lambda h: h - 3),
    "static": (lambda o: [0, 3], lambda h: h + 2),
    "static_crop": (lambda o: [0, -2], lambda h: h),
    "huge": (lambda o: [0, 2**40], lambda h: h + 30),
    "concrete_size": (lambda o: [0, o], lambda h: 12),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", list(_DYNAMIC_CASES))
@pytest.mark.subsample(0.4)
def test_dynamic_pad_to_a_symbolic_shape(mode, case):
    # The batch entry of shape is x.shape[0] (pad 0); the padded axis is symbolic too.
    pads, size = _DYNAMIC_CASES[case]
    if case == "huge" and mode not in ("constant", "edge"):
        pytest.skip("a pad beyond int32 on a symbolic periodic axis is rejected (see below)")
    constraints = ["h >= 8"]
    if case == "traced_array" and mode == "reflect":
        constraints.append("b >= 2")  # a traced pad may reflect the batch axis too
    spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, h", constraints=constraints), jnp.float32)

    def f(x, o):
        return jaxpad.dynamic_pad(x, pads(o), (x.shape[0], size(x.shape[1])), mode)

    exported = export.export(jax.jit(f))(spec, _SCALAR)
    for shape in ((2, 8), (3, 11)):
        x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)
        for offset in (2, -13, 7):
            got = exported.call(x, np.int32(offset))
            np.testing.assert_array_equal(got, f(x, np.int32(offset)))
            if case != "huge":
                begin = int(pads(offset)[1])
                end = size(shape[1]) - shape[1] - begin
                np.testing.assert_array_equal(got, numpy_pad(x, [0, begin], [0, end], mode))


@pytest.mark.parametrize("mode", MODES)
def test_dynamic_pad_gradient_with_a_symbolic_batch_entry_in_shape(mode):
    # The symbolic axis is not padded (pad 0, shape entry x.shape[0]): every mode's
    # gradient exports, static pads and traced ones alike.
    spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, 5"), jnp.float32)
    x = np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32)
    for pads in (lambda o: [0, 2], lambda o: [0, o]):

        def loss_grad(x, o, pads=pads):
            def loss(x):
                return (jaxpad.dynamic_pad(x, pads(o), (x.shape[0], 12), mode) ** 2).sum()

            return jax.grad(loss)(x)

        exported = export.export(jax.jit(loss_grad))(spec, _SCALAR)
        for offset in (3, -4):
            np.testing.assert_allclose(
                exported.call(x, np.int32(offset)), loss_grad(x, np.int32(offset)), rtol=1e-6
            )


@pytest.mark.parametrize("mode", ["constant", "edge"])
@pytest.mark.parametrize("static", [False, True])
def test_dynamic_pad_gradient_on_a_symbolic_axis(mode, static):
    def loss_grad(x, o):
        pads = [0, 2] if static else [0, o]
        return jax.grad(
            lambda x: (jaxpad.dynamic_pad(x, pads, (x.shape[0], x.shape[1] + 5), mode) ** 2).sum()
        )(x)

    exported = export.export(jax.jit(loss_grad))(jax.ShapeDtypeStruct(_BH, jnp.float32), _SCALAR)
    x = np.random.default_rng(0).standard_normal((3, 9)).astype(np.float32)
    for offset in (2, -4):
        np.testing.assert_allclose(
            exported.call(x, np.int32(offset)), loss_grad(x, np.int32(offset)), rtol=1e-6
        )


@EVERY_CASE  # --all: every one (tests/sampling.py)
@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap"])
def test_dynamic_pad_gradient_a_symbolic_axis_cannot_plan_says_so(mode):
    def loss_grad(x, o):
        return jax.grad(
            lambda x: (jaxpad.dynamic_pad(x, [0, o], (x.shape[0], x.shape[1] + 5), mode) ** 2).sum()
        )(x)

    with pytest.raises(
        ValueError,
        match=rf"jaxpad.dynamic_pad: the gradient of mode='{mode}' cannot be planned on the "
        r"symbolic axis 1 \(size h, padded to h \+ 5\)",
    ):
        export.export(jax.jit(loss_grad))(jax.ShapeDtypeStruct(_BH, jnp.float32), _SCALAR)


def test_dynamic_pad_symbolic_shape_errors_name_the_axis_and_constraint():
    spec = jax.ShapeDtypeStruct(_BH, jnp.float32)
    with pytest.raises(
        ValueError,
        match=r"jaxpad.dynamic_pad: shape\[1\]=h - 20 may be negative: add the constraint "
        r"'h - 20 >= 0'",
    ):
        export.export(
            jax.jit(lambda x: jaxpad.dynamic_pad(x, [0, 1], (x.shape[0], x.shape[1] - 20)))
        )(spec)
    with pytest.raises(
        ValueError,
        match=r"jaxpad.dynamic_pad: mode='reflect' pads axis 0 of symbolic size b, which may "
        r"be 1 .*'b >= 2'",
    ):
        export.export(jax.jit(lambda x: jaxpad.dynamic_pad(x, [1, 0], x.shape, "reflect")))(spec)
    with pytest.raises(
        ValueError,
        match=r"jaxpad.dynamic_pad: pads_begin\[1\]=1099511627776 on axis 1 of symbolic size h "
        r"must fit int32 in mode='wrap'",
    ):
        export.export(
            jax.jit(lambda x: jaxpad.dynamic_pad(x, [0, 2**40], (x.shape[0], 9), "wrap"))
        )(spec)


@pytest.mark.parametrize("mode", MODES)
def test_halo_pad_exports_with_symbolic_sizes(mode):
    # In a named vmap (4 blocks of 6 rows: the mesh axis must be concrete) and in a
    # shard_map on one device; the unsplit axes are symbolic, one of them padded.
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    b, h = export.symbolic_shape("b, h", constraints=["h >= 8"])
    x = np.random.default_rng(0).standard_normal((4, 6, 3, 10)).astype(np.float32)

    def blocks(x):
        return jax.vmap(
            lambda blk: jaxpad.halo_pad(
                blk, [2, 0, 1], [1, 0, 2], mode, axis_names=("i", None, None)
            ),
            axis_name="i",
        )(x)

    exported = export.export(jax.jit(blocks))(jax.ShapeDtypeStruct((4, 6, b, h), jnp.float32))
    out = np.asarray(exported.call(x))
    np.testing.assert_array_equal(out, blocks(x))
    padded = numpy_pad(x.reshape(24, 3, 10), [2, 0, 1], [1, 0, 2], mode)
    for k in range(4):  # block k's window of the padded global array
        np.testing.assert_array_equal(out[k], padded[6 * k : 6 * k + 9])

    mesh = jax.make_mesh((1,), ("i",))
    sharded = jax.shard_map(
        lambda blk: jaxpad.halo_pad(blk, [0, 2, 1], [0, 1, 2], mode, axis_names=(None, "i", None)),
        mesh=mesh,
        in_specs=P(None, "i"),
        out_specs=P(None, "i"),
    )
    spec = jax.ShapeDtypeStruct((b, 6, h), jnp.float32, sharding=NamedSharding(mesh, P(None, "i")))
    exported = export.export(jax.jit(sharded))(spec)
    y = x[0].transpose(1, 0, 2)
    np.testing.assert_array_equal(exported.call(y), numpy_pad(y, [0, 2, 1], [0, 1, 2], mode))


@pytest.mark.parametrize("mode", MODES)
def test_numpy_pad_exports_with_symbolic_sizes(mode):
    # jnp.pad itself cannot export "wrap" on a symbolic padded axis: pad the concrete one.
    b, h = export.symbolic_shape("b, h", constraints=["h >= 8"])
    widths = [(0, 0), (0, 0), (2, 1)] if mode == "wrap" else [(0, 0), (2, 3), (1, 1)]
    if mode in ("reflect", "symmetric"):
        # jnp.pad refuses these beside an axis of symbolic size on jax 0.7.2 and older.
        skip_before_jax("0.8.3", f"jnp.pad's {mode} on an array of symbolic shape")

    def f(x):
        return jaxpad.numpy.pad(x, widths, mode)

    exported = export.export(jax.jit(f))(jax.ShapeDtypeStruct((b, h, 3), jnp.float32))
    for shape in ((1, 8, 3), (3, 11, 3)):
        x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)
        np.testing.assert_array_equal(exported.call(x), np.pad(x, widths, mode))
        np.testing.assert_array_equal(exported.call(x), f(x))
