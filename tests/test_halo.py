"""halo_pad: bad inputs and a vmap stand-in for the mesh; the shard_map tests on 8
simulated CPU devices are in tests/test_halo_sharded.py."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxpad
from jaxpad import halo_pad
from tests.cases import MODES
from tests.oracles import numpy_pad


def blocks_by_vmap(x, blocks, halo_begin, halo_end, mode, **kwargs):
    """halo_pad with the blocks of axis 0 mapped by a vmap named "i"."""
    split = x.reshape(blocks, x.shape[0] // blocks, *x.shape[1:])
    names = ("i",) + (None,) * (x.ndim - 1)
    return jax.vmap(
        lambda b: halo_pad(b, halo_begin, halo_end, mode, axis_names=names, **kwargs),
        axis_name="i",
    )(split)


@pytest.mark.parametrize("mode", MODES)
def test_a_named_vmap_axis_stands_in_for_the_mesh(mode):
    x = np.arange(12 * 3, dtype=np.float32).reshape(12, 3)
    halo_begin, halo_end = (3, 1), (2, 0)
    got = jax.jit(lambda x: blocks_by_vmap(x, 4, halo_begin, halo_end, mode))(x)
    padded = numpy_pad(x, halo_begin, halo_end, mode)
    expected = np.stack([padded[3 * k : 3 * k + 8] for k in range(4)])
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", [jnp.bool_, jnp.int8, jnp.bfloat16, jnp.complex64])
@pytest.mark.parametrize("mode", ["constant", "reflect"])
def test_dtypes(dtype, mode):
    x = (np.arange(8 * 2).reshape(8, 2) % 3).astype(dtype)
    got = blocks_by_vmap(x, 4, (2, 1), (1, 0), mode)
    padded = numpy_pad(x, (2, 1), (1, 0), mode)
    expected = np.stack([padded[2 * k : 2 * k + 5] for k in range(4)])
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, expected)


# Bad inputs ------------------------------------------------------------------------

X = jnp.zeros((4, 3))


def call(x=X, halo_begin=(1, 0), halo_end=(1, 0), mode="constant", axis_names=("i", None), **kw):
    """halo_pad on 2 blocks of a vmap named "i"."""
    return jax.vmap(
        lambda b: halo_pad(b, halo_begin, halo_end, mode, axis_names=axis_names, **kw),
        axis_name="i",
    )(jnp.stack([x, x]))


BAD_INPUTS = {
    "halo_begin length": (
        dict(halo_begin=(1,)),
        ValueError,
        r"halo_begin needs one entry per axis of x \(x.ndim=2\); got 1",
    ),
    "halo_end length": (
        dict(halo_end=(1, 0, 0)),
        ValueError,
        r"halo_end needs one entry per axis of x \(x.ndim=2\); got 3",
    ),
    "negative halo": (
        dict(halo_end=(-1, 0)),
        ValueError,
        r"halo_end must be non-negative; got \(-1, 0\)",
    ),
    "float halo": (dict(halo_begin=(1.5, 0)), TypeError, r"halo_begin\[0\] must be an int"),
    "unknown mode": (dict(mode="circular"), ValueError, r"mode must be one of .*'circular'"),
    "axis_names length": (
        dict(axis_names=("i",)),
        ValueError,
        r"axis_names needs one entry per axis of x \(x.ndim=2\); got 1",
    ),
    "axis_names a string": (
        dict(axis_names="i_"),
        TypeError,
        r"axis_names must be a sequence with one entry per axis of x .*got 'i_'",
    ),
    "axis_names entry": (
        dict(axis_names=(0, None)),
        TypeError,
        r"axis_names\[0\] must be a mesh axis name .*got 0",
    ),
    "axis_names repeated": (
        dict(axis_names=("i", "i")),
        ValueError,
        r"axis_names names mesh axis 'i' more than once",
    ),
    "unknown mesh axis": (
        dict(axis_names=("z", None)),
        ValueError,
        r"axis_names\[0\] names mesh axis 'z', which is not bound here",
    ),
    "pad_value with edge": (
        dict(mode="edge", pad_value=1.0),
        ValueError,
        r"pad_value is only read by sides whose mode is 'constant', 'dirichlet' or 'neumann'; "
        r"got "
        r"pad_value=1.0 with mode='edge'",
    ),
    "pad_value not a scalar": (
        dict(pad_value=jnp.ones(2)),
        ValueError,
        r"pad_value must be a scalar or have shape \(x.ndim, 2\) = \(2, 2\)",
    ),
    "halo wider than the block": (
        dict(halo_begin=(5, 0)),
        ValueError,
        r"halo_begin\[0\]=5 is wider than the local block \(x.shape\[0\]=4\)",
    ),
}


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_inputs(case):
    kwargs, error, message = BAD_INPUTS[case]
    with pytest.raises(error, match=r"^jaxpad\.halo_pad: " + message):
        call(**kwargs)


def test_traced_halo_is_rejected():
    with pytest.raises(TypeError, match=r"^jaxpad\.halo_pad: halo_begin must be static"):
        jax.jit(lambda h: call(halo_begin=h))(jnp.array([1, 0]))


def test_halo_wider_than_the_block_is_fine_on_an_unsplit_axis():
    got = call(halo_begin=(0, 5), halo_end=(0, 2), mode="wrap")
    np.testing.assert_array_equal(got[0], numpy_pad(np.asarray(X), (0, 5), (0, 2), "wrap"))


# Per-side and arithmetic boundary modes: the oracle is jaxpad.pad of the global array
# (itself checked against numpy.pad per side in tests/test_sides.py).

SIDED = [
    "dirichlet",
    "reflect_odd",
    "symmetric_odd",
    (("dirichlet", "symmetric"), "wrap"),
    (("wrap", "wrap"), ("dirichlet", "reflect_odd")),
    (("reflect_odd", "constant"), ("edge", "dirichlet")),
]


@pytest.mark.parametrize("mode", SIDED, ids=str)
@pytest.mark.parametrize("split", [0, 1])
def test_per_side_modes_match_the_global_pad(mode, split):
    """Blocks along axis ``split`` (4 of them, by a named vmap); halos as wide as a
    block on the split axis reach reflect_odd's neighbour element too."""
    x = np.random.default_rng(0).random((12, 8)).astype(np.float32)
    values = np.array([[0.5, -1.0], [2.0, 0.25]], np.float32)
    if "dirichlet" not in str(mode) and "constant" not in str(mode):
        values = None
    halo_begin, halo_end = ((3, 2), (1, 2)) if split == 0 else ((2, 2), (1, 1))
    global_padded = np.asarray(
        jax.jit(lambda x: jaxpad.pad(x, halo_begin, halo_end, mode, values))(x)
    )
    block = x.shape[split] // 4
    names = ["i", None] if split == 0 else [None, "i"]
    blocks = np.stack(np.split(x, 4, axis=split))

    def local(b):
        return halo_pad(b, halo_begin, halo_end, mode, values, axis_names=names)

    got = jax.jit(jax.vmap(local, axis_name="i"))(blocks)
    for k in range(4):
        window = [slice(None), slice(None)]
        window[split] = slice(block * k, block * k + block + halo_begin[split] + halo_end[split])
        np.testing.assert_allclose(got[k], global_padded[tuple(window)], rtol=1e-5, atol=1e-6)
