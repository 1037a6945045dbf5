"""Every public function gives the same result eagerly, under ``jit`` and under ``vmap``.

Eager calls with concrete pads take the static paths (pads as Python ints), ``jit``
with traced operands the traced ones, and ``vmap`` the batching rules: three programs
that must agree for every valid input. Inputs are drawn at random (hypothesis) for
every mode; ``vmap`` (jitted) runs a batch of one, so its result is the eager one with a
leading axis.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jaxpad
import jaxpad.numpy as jpnp
from jaxpad import nn, policies
from tests.cases import MODES
from tests.sampling import ROTATE_LISTS
from tests.test_properties import pad_cases

# --all: a list of cases, one value each, rotates (tests/sampling.py).
pytestmark = ROTATE_LISTS


def _agree(fn, *args, exact=True):
    """Checks fn(*args) eagerly against jit and against vmap over a batch of one."""
    eager = fn(*args)
    jitted = jax.jit(fn)(*args)
    # vmap's batching rules, in one compiled program: an eager vmap dispatches each
    # batched primitive on its own (a compile each; 3.2 s against 0.3 s for a dynamic
    # pad with a mode per side), while the eager leg above is the unbatched call's.
    batched = jax.jit(jax.vmap(fn))(*(jnp.asarray(a)[None] for a in args))
    check = np.testing.assert_array_equal if exact else _close
    check(jitted, eager)
    assert batched.shape == (1, *eager.shape)
    check(batched[0], eager)
    return eager


def _close(actual, desired):
    np.testing.assert_allclose(actual, desired, rtol=1e-5, atol=1e-5)


def _values(shape, seed):
    return np.random.default_rng(seed).integers(-9, 10, size=shape).astype(np.float32)


@given(pad_cases())
def test_pad(case):
    mode, shape, pads_begin, pads_end, seed = case
    x = _values(shape, seed)
    _agree(lambda x: jaxpad.pad(x, pads_begin, pads_end, mode), x)
    if mode == "constant":
        _agree(lambda x, v: jaxpad.pad(x, pads_begin, pads_end, pad_value=v), x, np.float32(7))


@given(pad_cases())
def test_dynamic_pad(case):
    mode, shape, pads_begin, pads_end, seed = case
    x = _values(shape, seed)
    out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, shape, pads_end))
    pads = np.asarray(pads_begin, np.int32).reshape(len(shape))

    def fn(x, pads):
        return jaxpad.dynamic_pad(x, pads, out_shape, mode)

    # Eager with concrete pads is the static path; jit and vmap trace the pads.
    _agree(fn, x, pads)
    # And a sequence of Python ints, static under every transformation.
    _agree(lambda x: jaxpad.dynamic_pad(x, list(pads_begin), out_shape, mode), x)


_SIDE_MODES = ("constant", "edge", "reflect", "wrap", "reflect_odd", "symmetric_odd", "dirichlet")


@given(pad_cases(), st.data())
def test_pad_and_dynamic_pad_with_a_mode_per_side(case, data):
    _, shape, pads_begin, pads_end, seed = case
    mode = tuple(
        (data.draw(st.sampled_from(_SIDE_MODES)), data.draw(st.sampled_from(_SIDE_MODES)))
        for _ in shape
    )
    empty = [n == 0 and (lo > 0 or hi > 0) for n, lo, hi in zip(shape, pads_begin, pads_end)]
    if any(e and pair != ("constant", "constant") for e, pair in zip(empty, mode)):
        return  # only constant sides fill an empty axis (tests/test_sides.py)
    reads = any(side in ("constant", "dirichlet") for pair in mode for side in pair)
    x = _values(shape, seed)
    values = _values((len(shape), 2), seed + 1)
    out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, shape, pads_end))
    pads = np.asarray(pads_begin, np.int32).reshape(len(shape))

    def padded(x, v):
        return jaxpad.pad(x, pads_begin, pads_end, mode, v if reads else None)

    def dynamic(x, p, v):
        return jaxpad.dynamic_pad(x, p, out_shape, mode, v if reads else None)

    eager = _agree(padded, x, values, exact=False)
    _close(_agree(dynamic, x, pads, values, exact=False), eager)


@given(st.sampled_from(("numpy", "bidirectional")), st.integers(0, 2**32 - 1))
def test_broadcast(mode, seed):
    x = _values((3, 1), seed)
    _agree(lambda x: jaxpad.broadcast(x, (2, 3, 4), mode), x)
    _agree(lambda x: jaxpad.broadcast(x, (3, 2, 4), "explicit", (0, 2)), x)


_NUMPY_MODES = [
    ("constant", {"constant_values": ((1, 2), (3, 4))}),
    ("edge", {}),
    ("reflect", {"reflect_type": "odd"}),
    ("symmetric", {}),
    ("wrap", {}),
    ("linear_ramp", {"end_values": (5, -5)}),
    ("maximum", {"stat_length": 2}),
    ("mean", {}),
    ("median", {"stat_length": (1, 3)}),
    ("minimum", {}),
    ("empty", {}),
]


@pytest.mark.parametrize("mode, kwargs", _NUMPY_MODES, ids=[m for m, _ in _NUMPY_MODES])
def test_numpy_pad(mode, kwargs):
    x = _values((4, 5), 0)
    # Odd reflection and the mean round differently in the fused (jit) program.
    exact = mode not in ("reflect", "mean")
    _agree(lambda x: jpnp.pad(x, ((2, 3), (1, 0)), mode, **kwargs), x, exact=exact)


_CONV_POLICIES = [
    policies.torch(1),
    policies.tensorflow("SAME"),
    policies.flax("CIRCULAR"),
    policies.flax("REFLECT"),
    policies.onnx(pads=(1, 0, 2, 1)),
]


@pytest.mark.parametrize("policy", _CONV_POLICIES, ids=lambda p: p.name)
@pytest.mark.parametrize("pad_mode", [None, *MODES[1:]])
@pytest.mark.subsample(0.4)
def test_conv(policy, pad_mode):
    x, kernel = _values((1, 2, 7, 6), 1), _values((3, 2, 3, 2), 2)
    _agree(lambda x, k: nn.conv(x, k, (2, 1), policy, pad_mode), x, kernel, exact=False)


@pytest.mark.parametrize("policy", [policies.torch(1), policies.jax("SAME")], ids=lambda p: p.name)
def test_conv_transpose(policy):
    x, kernel = _values((1, 2, 4, 5), 3), _values((3, 2, 3, 2), 4)
    _agree(lambda x, k: nn.conv_transpose(x, k, 2, policy), x, kernel, exact=False)


_POOL_POLICIES = [
    policies.torch(1, ceil_mode=True, count_include_pad=False),
    policies.tensorflow("SAME"),
    policies.caffe(1),
    policies.onnx(pads=(1, 2)),
]


@pytest.mark.parametrize("policy", _POOL_POLICIES, ids=lambda p: p.name)
@pytest.mark.parametrize("pool", [nn.avg_pool, nn.max_pool], ids=lambda f: f.__name__)
def test_pools(pool, policy):
    x = _values((11,), 5)
    _agree(lambda x: pool(x, 3, 2, policy), x, exact=False)


@pytest.mark.parametrize("mode", MODES)
def test_halo_pad(mode):
    # A named vmap axis stands in for the mesh axis of shard_map (tests/test_halo.py
    # runs the same on 8 devices); the batch of one is a second, unnamed vmap.
    def fn(blocks):
        return jax.vmap(
            lambda b: jaxpad.halo_pad(b, (2, 1), (1, 0), mode, axis_names=("i", None)),
            axis_name="i",
        )(blocks)

    _agree(fn, _values((4, 3, 5), 6))
