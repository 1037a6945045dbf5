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
from tests.cases import MODES
from tests.oracles import numpy_pad

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
