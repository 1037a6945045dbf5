"""Sharding without a mesh: one-device programs, exchange plans, max_pad's errors. The
tests on 8 simulated CPU devices are in tests/test_sharded_pad.py."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxpad
from jaxpad._sharded_pad import axis_sources, plan_dynamic_exchange, plan_exchange
from tests.cases import MODES
from tests.oracles import numpy_pad

# On one device and in the planner (no devices needed) ------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_one_device_programs_are_unchanged(mode):
    # Nothing partitioned: no custom_partitioning op in the jaxpr or the program.
    def f(x, offset):
        padded = jaxpad.pad(x, [3, 1], [3, 0], mode)
        return padded, jaxpad.dynamic_pad(x, (offset, 0), (12, 5), mode, max_pad=3)

    x, offset = jnp.ones((10, 4)), jnp.int32(2)
    jaxpr = str(jax.make_jaxpr(jax.grad(lambda x: sum(o.sum() for o in f(x, offset))))(x))
    assert "custom_partitioning" not in jaxpr
    text = jax.jit(f).lower(x, offset).as_text()
    assert "CustomSPMDPartitioning" not in text and "custom_call" not in text


def test_exchange_plan_of_the_issue_case():
    # (1024, 24) over 8 devices padded by 3 at both ends: 1030 rows, blocks of 129.
    # Block j reads rows [129 j - 3, 129 j + 126): 2 rows from the previous block
    # (j = 1), 4 from the next (j = 6); wrap also sends 3 rows across the edge.
    for mode in ("constant", "edge", "reflect", "symmetric"):
        plan = plan_exchange(axis_sources(mode, 1024, 1030, 3), 1024, 8)
        assert (plan.in_block, plan.out_block) == (128, 129)
        assert sorted((s.offset, s.length) for s in plan.slabs) == [(1, 4), (7, 2)]
    plan = plan_exchange(axis_sources("wrap", 1024, 1030, 3), 1024, 8)
    assert sorted((s.offset, s.length) for s in plan.slabs) == [(1, 4), (7, 3)]
    assert plan.received_rows == 7


def test_exchange_plan_reads_every_row_from_its_source():
    # The plan's tables, applied by NumPy to the blocks, rebuild numpy.pad's output.
    rng = np.random.RandomState(0)
    for mode in MODES:
        for n, devices, lo, hi in [(64, 8, 3, 3), (64, 8, 20, 13), (30, 4, 1, 0), (64, 8, -3, 5)]:
            x = rng.randn(n)
            expected = numpy_pad(x, [lo], [hi], mode)
            plan = plan_exchange(axis_sources(mode, n, n + lo + hi, lo), n, devices)
            blocks = [x[k * plan.in_block : (k + 1) * plan.in_block] for k in range(devices)]
            out = []
            for j in range(devices):
                received = []
                for slab in plan.slabs:
                    senders = [k for k, target in slab.pairs if target == j]
                    k = senders[0] if senders else None
                    rows = np.zeros(slab.length)
                    if k is not None:
                        start = slab.starts[k]
                        rows = np.pad(blocks[k], (0, plan.in_block))[start : start + slab.length]
                    received.append(rows)
                buffer = np.concatenate(
                    [np.pad(blocks[j], (0, plan.in_block - len(blocks[j])))] + received
                )
                block = buffer[list(plan.rows[j])]
                if plan.valid is not None:
                    block = np.where(plan.valid[j], block, 0.0)
                out.append(block)
            np.testing.assert_array_equal(np.concatenate(out)[: len(expected)], expected)


def test_dynamic_exchange_plan_covers_the_bound():
    plan = plan_dynamic_exchange("reflect", 64, 64, 4, 8)
    assert sum(slab.length for slab in plan.slabs) == 8  # 4 rows each side
    assert plan_dynamic_exchange("wrap", 64, 64, None, 8).slabs == ()


# max_pad: bad inputs ----------------------------------------------------------------


@pytest.mark.parametrize(
    "max_pad,error,match",
    [
        (
            -1,
            ValueError,
            r"jaxpad.dynamic_pad: max_pad\[0\] bounds \|pads_begin\[0\]\| and must "
            r"be non-negative; got -1",
        ),
        (
            (2, 2, 2),
            ValueError,
            r"jaxpad.dynamic_pad: max_pad needs one entry per axis of x "
            r"\(x.ndim=2\); got 3",
        ),
        (
            "4",
            TypeError,
            r"jaxpad.dynamic_pad: max_pad must be None, an int, or one int or "
            r"None per axis of x; got '4'",
        ),
        (
            True,
            TypeError,
            r"jaxpad.dynamic_pad: max_pad must be None, an int, or one int or "
            r"None per axis of x; got True",
        ),
        (
            (2.5, None),
            TypeError,
            r"jaxpad.dynamic_pad: max_pad\[0\] must be an int or None; "
            r"got 2.5",
        ),
    ],
)
def test_max_pad_bad_values(max_pad, error, match):
    with pytest.raises(error, match=match):
        jaxpad.dynamic_pad(jnp.ones((8, 4)), (1, 0), (8, 4), max_pad=max_pad)


def test_max_pad_must_be_static():
    def f(bound):
        return jaxpad.dynamic_pad(jnp.ones((8, 4)), (1, 0), (8, 4), max_pad=(bound, None))

    with pytest.raises(TypeError, match=r"jaxpad.dynamic_pad: max_pad\[0\] must be a static int"):
        jax.jit(f)(3)


@pytest.mark.parametrize("pads", [(5, 0), np.array([-5, 0]), [jnp.int32(0), -5]])
def test_static_pads_past_max_pad_are_rejected(pads):
    axis = 0 if not isinstance(pads, list) else 1
    with pytest.raises(
        ValueError,
        match=rf"jaxpad.dynamic_pad: pads_begin\[{axis}\]=-?5 exceeds max_pad\[{axis}\]=4",
    ):
        jaxpad.dynamic_pad(jnp.ones((8, 4)), pads, (8, 4), "wrap", max_pad=4)


def test_traced_pads_past_max_pad_on_one_device_are_right():
    # The bound only plans a sharded program; past it the result is still right.
    x = jnp.arange(32.0).reshape(8, 4)
    f = jax.jit(lambda x, o: jaxpad.dynamic_pad(x, (o, 0), (8, 4), "wrap", max_pad=1))
    np.testing.assert_array_equal(f(x, 3), jaxpad.dynamic_pad(x, (3, 0), (8, 4), "wrap"))
