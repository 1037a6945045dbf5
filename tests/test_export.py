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
