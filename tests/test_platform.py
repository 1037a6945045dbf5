"""Tests for jaxpad/_lowering/_platform.py: the target read from JAX's lowering context,
and the forward every platform but XLA:CPU runs (jnp.pad's program)."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import export
from jax.sharding import NamedSharding, PartitionSpec

import jaxpad
from jaxpad._lowering import _platform
from tests.cases import NON_CONSTANT


def _ops(fn, *args, platforms):
    module = export.export(jax.jit(fn), platforms=platforms)(*args).mlir_module()
    return set(re.findall(r"stablehlo\.(\w+)", module))


@pytest.mark.parametrize("platforms", [("cuda",), ("tpu",), ("cuda", "tpu")])
@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize(
    "begin,end",
    [((1, 2, 0), (3, 1, 0)), ((0, 40, 0), (2, 35, 0)), ((-2, 1, 0), (1, -3, 2))],
)
def test_unmeasured_platforms_run_jnp_pads_program(platforms, mode, begin, end):
    # No GPU or TPU measurement has chosen another form, so the forward there is
    # jnp.pad's own program: its ops and no others (no gather, no index table).
    x = jax.ShapeDtypeStruct((8, 30, 3), np.float32)
    ours = _ops(lambda x: jaxpad.pad(x, begin, end, mode), x, platforms=platforms)
    widths = [(max(lo, 0), max(hi, 0)) for lo, hi in zip(begin, end)]
    crop = tuple(
        slice(max(-lo, 0), n + max(lo, 0) + max(hi, 0) - max(-hi, 0))
        for lo, hi, n in zip(begin, end, x.shape)
    )
    theirs = _ops(lambda x: jnp.pad(x, widths, mode)[crop], x, platforms=platforms)
    assert ours <= theirs, ours - theirs
    assert "gather" not in ours


def _recorded_targets(monkeypatch):
    seen = []
    original = _platform.target_of

    def recording(ctx, platform):
        target = original(ctx, platform)
        seen.append(target)
        return target

    monkeypatch.setattr(_platform, "target_of", recording)
    return seen


needs_devices = pytest.mark.skipif(
    len(jax.devices()) < 2, reason="needs several devices (tests/conftest.py asks for 8)"
)


def _sharded(shape):
    mesh = jax.make_mesh((len(jax.devices()),), ("x",))
    x = jnp.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    return jax.device_put(x, NamedSharding(mesh, PartitionSpec("x")))


@needs_devices
def test_a_sharded_jit_is_partitioned_with_its_devices(monkeypatch):
    # If a JAX release renames what target_of reads, this fails instead of the pad
    # silently taking its unsharded form (which gathers the operand).
    seen = _recorded_targets(monkeypatch)
    x = _sharded((64, 5))
    jax.jit(lambda x: jaxpad.pad(x, [3, 1], [2, 0], "reflect")).lower(x)
    assert seen and all(t.partitioned and t.devices_known for t in seen), seen
    assert {t.platform for t in seen} == {"cpu"}


@needs_devices
def test_an_export_does_not_know_its_devices(monkeypatch):
    # jax.export serializes no custom_partitioning op: the planned exchange is off.
    seen = _recorded_targets(monkeypatch)
    x = _sharded((64, 5))
    fn = jax.jit(lambda x: jaxpad.pad(x, [1, 2], [2, 0], "wrap"))
    export.export(fn, platforms=("cpu",))(x)
    assert seen and all(t.partitioned and not t.devices_known for t in seen), seen


def test_one_device_is_not_partitioned(monkeypatch):
    seen = _recorded_targets(monkeypatch)
    x = jnp.ones((6, 5))
    jax.jit(lambda x: jaxpad.pad(x, [2, 1], [1, 2], "symmetric")).lower(x)
    assert seen and not any(t.partitioned or t.devices_known for t in seen), seen


@needs_devices
def test_shard_maps_per_device_program_is_not_partitioned(monkeypatch):
    seen = _recorded_targets(monkeypatch)
    mesh = jax.make_mesh((len(jax.devices()),), ("x",))
    x = _sharded((64, 5))
    body = jax.shard_map(
        lambda x: jaxpad.pad(x, [1, 1], [1, 1], "edge"),
        mesh=mesh,
        in_specs=PartitionSpec("x"),
        out_specs=PartitionSpec("x"),
    )
    jax.jit(body).lower(x)
    assert seen and not any(t.partitioned for t in seen), seen


def test_a_platform_that_chose_the_gather_gets_its_own_rule(monkeypatch):
    # A measurement that puts a platform in _GATHER_FORWARD_PLATFORMS must reach the
    # planner: that platform's lowering rule names it, so its target asks for the gather.
    from jax.extend.core import Primitive

    monkeypatch.setattr(_platform, "_GATHER_FORWARD_PLATFORMS", frozenset({"cuda"}))
    seen = _recorded_targets(monkeypatch)
    probe = Primitive("jaxpad_test_platform_probe")
    probe.def_abstract_eval(lambda x, **_: x)
    _platform.register_lowering(probe, lambda x, *, target: x)
    x = jax.ShapeDtypeStruct((4,), np.float32)
    export.export(jax.jit(probe.bind), platforms=("cuda", "tpu", "cpu"))(x)
    by_platform = {t.platform: t.gather_forward for t in seen}
    assert by_platform == {"cuda": True, None: False, "cpu": False}, seen
