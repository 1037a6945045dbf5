"""Sharding checks on 8 simulated CPU devices.

Not collected by the main suite (the device count is fixed when JAX starts):
``tests/test_sharding.py`` runs this module with pytest in a separate process with
``XLA_FLAGS=--xla_force_host_platform_device_count=8``.
"""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

import jaxpad
from tests.cases import MODES
from tests.oracles import numpy_pad

COLLECTIVES = ("all-gather", "all-to-all", "collective-permute", "all-reduce")
AXIS_TYPES = {"auto": AxisType.Auto, "explicit": AxisType.Explicit}


def collectives(compiled_text):
    """(kind, shape) of every collective in an optimized HLO module."""
    pattern = rf"= (\S+) ({'|'.join(COLLECTIVES)})(?:-start)?\("
    return [(kind, shape) for shape, kind in re.findall(pattern, compiled_text)]


def halo_rows(shape):
    """The size of the sharded (first) axis of a collective's operand."""
    return int(re.match(r"\w+\[(\d+)", shape).group(1))


@pytest.fixture(scope="module", autouse=True)
def eight_devices():
    assert jax.device_count() == 8, "run with XLA_FLAGS=--xla_force_host_platform_device_count=8"


def mesh_of(kind):
    return jax.make_mesh((8,), ("x",), axis_types=(AXIS_TYPES[kind],))


def loss_of(f):
    return lambda x: (f(x) ** 2).sum()


def pad_cases():
    # (pads_begin, pads_end) on axis 0 of a (64, 6) array: 8 + 64 splits over 8
    # devices, 3 + 3 + 64 does not.
    return [((4, 0), (4, 0)), ((3, 0), (3, 0))]


@pytest.mark.parametrize("kind", AXIS_TYPES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pads", pad_cases(), ids=["divisible", "not-divisible"])
def test_pad_along_the_sharded_axis(kind, mode, pads):
    mesh = mesh_of(kind)
    x_host = np.arange(64 * 16, dtype=np.float32).reshape(64, 16)
    x = jax.device_put(x_host, NamedSharding(mesh, P("x", None)))
    pads_begin, pads_end = pads

    def f(x):
        return jaxpad.pad(x, pads_begin, pads_end, mode)

    with jax.set_mesh(mesh):
        out = jax.jit(f)(x)
        grad = jax.jit(jax.grad(loss_of(f)))(x)
        forward_hlo = jax.jit(f).lower(x).compile().as_text()
        backward_hlo = jax.jit(jax.grad(loss_of(f))).lower(x).compile().as_text()
    np.testing.assert_array_equal(out, numpy_pad(x_host, pads_begin, pads_end, mode))
    np.testing.assert_array_equal(grad, jax.grad(loss_of(f))(x_host))
    divisible = out.shape[0] % 8 == 0
    # The input's sharding where the padded size still splits evenly; replicated where
    # it cannot (JAX's own lax.pad raises there under Explicit axes).
    assert _spec(out, 2)[0] == ("x" if divisible else None)
    assert _spec(grad, 2) == _spec(x, 2)
    # Where the output stays sharded nothing is all-gathered or all-to-all'd: the
    # devices exchange halos of at most one shard (8 rows; wrap's bands come from the
    # far end of the axis), and edge mode also all-reduces its edge rows.
    if divisible:
        for hlo in (forward_hlo, backward_hlo):
            moved = collectives(hlo)
            assert all(halo_rows(shape) <= 64 // 8 for _, shape in moved), moved
            allowed = {"collective-permute", "all-reduce"} if mode == "edge" else set()
            assert {kind_ for kind_, _ in moved} <= allowed | {"collective-permute"}, moved


def _spec(array, ndim):
    spec = tuple(array.sharding.spec)
    return spec + (None,) * (ndim - len(spec))


@pytest.mark.parametrize("kind", AXIS_TYPES)
@pytest.mark.parametrize("mode", MODES)
def test_pad_along_an_unsharded_axis_moves_nothing(kind, mode):
    mesh = mesh_of(kind)
    x_host = np.arange(6 * 64, dtype=np.float32).reshape(6, 64)
    x = jax.device_put(x_host, NamedSharding(mesh, P(None, "x")))

    def f(x):
        return jaxpad.pad(x, [5, 0], [2, 0], mode)

    with jax.set_mesh(mesh):
        out = jax.jit(f)(x)
        grad = jax.jit(jax.grad(loss_of(f)))(x)
        hlo = jax.jit(f).lower(x).compile().as_text()
        hlo += jax.jit(jax.grad(loss_of(f))).lower(x).compile().as_text()
    np.testing.assert_array_equal(out, numpy_pad(x_host, [5, 0], [2, 0], mode))
    np.testing.assert_array_equal(grad, jax.grad(loss_of(f))(x_host))
    assert out.sharding.spec == P(None, "x") and grad.sharding.spec == P(None, "x")
    assert collectives(hlo) == []


@pytest.mark.parametrize("kind", AXIS_TYPES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sharded_axis", [0, 1])
def test_dynamic_pad(kind, mode, sharded_axis):
    mesh = mesh_of(kind)
    x_host = np.arange(64 * 8, dtype=np.float32).reshape(64, 8)
    spec = P("x", None) if sharded_axis == 0 else P(None, "x")
    x = jax.device_put(x_host, NamedSharding(mesh, spec))
    offset = jnp.array(3)

    def f(x):
        # Traced offset on axis 1, static 0 on axis 0: sharding axis 0 costs nothing.
        return jaxpad.dynamic_pad(x, (0, offset), (64, 16), mode)

    with jax.set_mesh(mesh):
        out = jax.jit(f)(x)
        grad = jax.jit(jax.grad(loss_of(f)))(x)
        hlo = jax.jit(f).lower(x).compile().as_text()
    np.testing.assert_array_equal(out, numpy_pad(x_host, [0, 3], [0, 5], mode))
    np.testing.assert_array_equal(grad, jax.grad(loss_of(f))(x_host))
    if sharded_axis == 0:
        assert grad.sharding.spec == spec
        assert out.sharding.spec == spec
        assert collectives(hlo) == []


@pytest.mark.parametrize("kind", AXIS_TYPES)
def test_broadcast(kind):
    mesh = mesh_of(kind)
    x_host = np.arange(64 * 3, dtype=np.float32).reshape(64, 3)
    x = jax.device_put(x_host, NamedSharding(mesh, P("x", None)))

    def f(x):
        return jaxpad.broadcast(x[:, None, :], (64, 5, 3))

    with jax.set_mesh(mesh):
        out = jax.jit(f)(x)
        grad = jax.jit(jax.grad(loss_of(f)))(x)
        hlo = jax.jit(f).lower(x).compile().as_text()
    np.testing.assert_array_equal(out, np.broadcast_to(x_host[:, None, :], (64, 5, 3)))
    np.testing.assert_array_equal(grad, 10 * x_host)
    assert out.sharding.spec[0] == "x" and grad.sharding.spec == P("x", None)
    assert collectives(hlo) == []


@pytest.mark.parametrize("op", ["pad", "dynamic_pad", "broadcast"])
def test_shard_map_with_a_replicated_pad_value(op):
    # A sharded x (varying over "x") meets a replicated pad value (invariant): the
    # pad value's gradient must be summed over the devices.
    mesh = mesh_of("auto")
    bodies = {
        "pad": lambda x, v: jaxpad.pad(x, [1, 0], [2, 0], pad_value=v),
        "dynamic_pad": lambda x, v: jaxpad.dynamic_pad(x, (jnp.int32(1), 0), (11, 4), pad_value=v),
        "broadcast": lambda x, v: jaxpad.broadcast(x * v, (8, 2, 4), "explicit", [0, 2]),
    }
    body = bodies[op]
    sharded = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=(P("x"), P()), out_specs=P("x")))
    x = jnp.arange(64 * 4, dtype=jnp.float32).reshape(64, 4)
    v = jnp.float32(7.0)

    def per_device(x, v):
        return jnp.concatenate([body(x[8 * i : 8 * (i + 1)], v) for i in range(8)])

    np.testing.assert_array_equal(sharded(x, v), per_device(x, v))
    grads = jax.grad(lambda x, v: (sharded(x, v) ** 2).sum(), argnums=(0, 1))(x, v)
    expected = jax.grad(lambda x, v: (per_device(x, v) ** 2).sum(), argnums=(0, 1))(x, v)
    np.testing.assert_allclose(grads[0], expected[0], rtol=1e-6)
    np.testing.assert_allclose(grads[1], expected[1], rtol=1e-6)
