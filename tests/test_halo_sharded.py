"""halo_pad inside shard_map on 8 simulated CPU devices.

tests/conftest.py gives the CPU backend 8 devices before JAX starts; the meshes are
built from CPU devices whatever the default backend (these tests read compiled XLA:CPU
programs). Bad inputs and a vmap stand-in for the mesh are in tests/test_halo.py.

The oracle: ``numpy.pad`` of the global array, cut into the devices' blocks, each
with its halo; gradients against ``jax.grad`` of ``jnp.pad`` cut the same way.
"""

from __future__ import annotations

import math
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P
from jax.test_util import check_grads

import jaxpad
from jaxpad._halo import halo_pad
from tests.cases import MODES
from tests.devices import cpu_mesh
from tests.oracles import numpy_pad

pytestmark = pytest.mark.usefixtures("eight_cpu_devices")

COLLECTIVES = ("all-gather", "all-to-all", "collective-permute", "all-reduce", "reduce-scatter")
ITEMSIZE = {"f32": 4, "f64": 8, "bf16": 2, "f16": 2, "s32": 4, "pred": 1}


def mesh_of(shape, names, kind=AxisType.Auto):
    return cpu_mesh(shape, names, kind)


# (mesh shape, mesh axis names, PartitionSpec of x, global shape). The spec's entries
# are also halo_pad's axis_names.
MESHES = {
    "1d": ((8,), ("x",), P("x", None), (32, 6)),
    "2x4": ((2, 4), ("a", "b"), P("a", "b"), (8, 16)),
    # Axis 0 over the minor mesh axis, axis 1 over the major one.
    "4x2-transposed": ((2, 4), ("a", "b"), P("b", "a"), (16, 8)),
    # One axis split over both mesh axes (block index = a * 4 + b).
    "both-axes": ((2, 4), ("a", "b"), P(("a", "b"), None), (24, 5)),
}

# (halo_begin, halo_end) per mesh layout: uneven halos, halos of 0, one axis without
# halo, and halos as wide as a block (4 rows on every layout but both-axes' 3).
HALOS = {
    "1d": [((1, 2), (3, 0)), ((4, 0), (0, 4)), ((0, 1), (2, 3))],
    "2x4": [((1, 2), (3, 1)), ((4, 4), (4, 4)), ((0, 1), (2, 0))],
    "4x2-transposed": [((2, 4), (4, 1))],
    "both-axes": [((3, 1), (2, 0))],
}


def spec_names(spec, ndim):
    return tuple(spec) + (None,) * (ndim - len(spec))


def grid_of(mesh, spec, ndim):
    """Number of blocks along each axis."""
    return tuple(
        1 if entry is None else math.prod(mesh.shape[n] for n in np.atleast_1d(entry).tolist())
        for entry in spec_names(spec, ndim)
    )


def cut_into_blocks(padded, shape, grid, halo_begin, halo_end):
    """Each block's window of the padded global array, laid out as shard_map's output."""
    xp = jnp if isinstance(padded, jax.Array) else np
    block = [n // g for n, g in zip(shape, grid)]
    for axis in range(len(shape)):
        width = halo_begin[axis] + block[axis] + halo_end[axis]
        windows = [
            padded.take(np.arange(k * block[axis], k * block[axis] + width), axis=axis)
            for k in range(grid[axis])
        ]
        padded = xp.concatenate(windows, axis)
    return padded


PAD_VALUE = {"constant": -7.0}


def sharded_halo_pads(mesh, spec, halo_begin, halo_end, modes=MODES):
    """One shard_map that halo-pads its block in each of ``modes`` (one compile for all)."""
    names = spec_names(spec, len(halo_begin))

    def body(x):
        return {
            mode: halo_pad(x, halo_begin, halo_end, mode, PAD_VALUE.get(mode), axis_names=names)
            for mode in modes
        }

    return jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec)


def sharded_halo_pad(mesh, spec, halo_begin, halo_end, mode):
    f = sharded_halo_pads(mesh, spec, halo_begin, halo_end, (mode,))
    return lambda x: f(x)[mode]


def layout(name):
    mesh_shape, axis_names, spec, shape = MESHES[name]
    mesh = mesh_of(mesh_shape, axis_names)
    return mesh, spec, shape, grid_of(mesh, spec, len(shape))


CASES = [(name, *halos) for name, cases in HALOS.items() for halos in cases]


@pytest.mark.parametrize(
    "name,halo_begin,halo_end", CASES, ids=[f"{n}-{b}-{e}" for n, b, e in CASES]
)
def test_equals_the_global_pad_cut_into_blocks(name, halo_begin, halo_end):
    mesh, spec, shape, grid = layout(name)
    x = np.arange(math.prod(shape), dtype=np.float32).reshape(shape) ** 1.5
    got = jax.jit(sharded_halo_pads(mesh, spec, halo_begin, halo_end))(x)
    for mode in MODES:
        kwargs = {"pad_value": PAD_VALUE[mode]} if mode in PAD_VALUE else {}
        padded = numpy_pad(x, halo_begin, halo_end, mode, **kwargs)
        expected = cut_into_blocks(padded, shape, grid, halo_begin, halo_end)
        np.testing.assert_array_equal(got[mode], expected, err_msg=mode)


@pytest.mark.parametrize("name", ["1d", "2x4", "both-axes"])
def test_gradients_equal_the_global_pads(name):
    mesh, spec, shape, grid = layout(name)
    halo_begin, halo_end = HALOS[name][0]
    x = jnp.asarray(np.random.default_rng(0).normal(size=shape), jnp.float32)
    sharded = sharded_halo_pads(mesh, spec, halo_begin, halo_end)

    def reference(x):
        return {
            mode: cut_into_blocks(
                jnp.pad(x, list(zip(halo_begin, halo_end)), mode, **_jnp_kwargs(mode)),
                shape,
                grid,
                halo_begin,
                halo_end,
            )
            for mode in MODES
        }

    out_shape = jax.eval_shape(reference, x)["wrap"].shape
    weights = jnp.asarray(np.random.default_rng(1).normal(size=out_shape), jnp.float32)

    def grads(f):
        def grad_of(mode):
            return jax.grad(lambda x: (f(x)[mode] ** 2 * weights).sum())

        return jax.jit(lambda x: {mode: grad_of(mode)(x) for mode in MODES})

    got, expected = grads(sharded)(x), grads(reference)(x)
    for mode in MODES:
        np.testing.assert_allclose(got[mode], expected[mode], rtol=1e-5, atol=1e-5, err_msg=mode)


def _jnp_kwargs(mode):
    return {"constant_values": PAD_VALUE[mode]} if mode in PAD_VALUE else {}


def test_second_order_derivatives():
    # Halos as wide as the 2-element blocks: reflect's mirror reaches the neighbour.
    mesh = mesh_of((4,), ("x",))
    f = jax.jit(sharded_halo_pad(mesh, P("x"), (2,), (1,), "reflect"))
    x = jnp.asarray(np.random.default_rng(2).normal(size=8), jnp.float32)
    check_grads(lambda x: f(x) ** 2, (x,), order=2, modes=["fwd", "rev"], atol=1e-2, rtol=1e-2)


def test_pad_value_gradient_is_summed_over_the_edge_blocks():
    mesh, spec, shape, grid = layout("2x4")
    halo_begin, halo_end = (1, 2), (0, 1)

    def sharded(x, value):
        def body(x, value):
            return halo_pad(x, halo_begin, halo_end, "constant", value, axis_names=("a", "b"))

        return jax.shard_map(body, mesh=mesh, in_specs=(spec, P()), out_specs=spec)(x, value)

    def reference(x, value):
        padded = jnp.pad(x, list(zip(halo_begin, halo_end)), constant_values=value)
        return cut_into_blocks(padded, shape, grid, halo_begin, halo_end)

    x = jnp.asarray(np.random.default_rng(3).normal(size=shape), jnp.float32)
    value = jnp.float32(1.5)
    loss = lambda g: lambda x, v: (g(x, v) ** 3).sum()  # noqa: E731
    got = jax.jit(jax.grad(loss(sharded), argnums=(0, 1)))(x, value)
    expected = jax.grad(loss(reference), argnums=(0, 1))(x, value)
    np.testing.assert_allclose(got[0], expected[0], rtol=1e-5)
    np.testing.assert_allclose(got[1], expected[1], rtol=1e-5)


@pytest.mark.parametrize("mode", ["edge", "symmetric", "wrap"])
def test_vmap_over_a_batch_axis(mode):
    mesh, spec, shape, grid = layout("2x4")
    halo_begin, halo_end = (1, 2), (2, 1)
    batch = np.arange(3 * math.prod(shape), dtype=np.float32).reshape(3, *shape)

    # vmap inside the shard_map body: the batch axis is not split.
    def body(x):
        return jax.vmap(lambda b: halo_pad(b, halo_begin, halo_end, mode, axis_names=("a", "b")))(x)

    inner = jax.shard_map(body, mesh=mesh, in_specs=P(None, "a", "b"), out_specs=P(None, "a", "b"))
    # vmap of the shard_mapped function.
    outer = jax.vmap(sharded_halo_pad(mesh, spec, halo_begin, halo_end, mode))
    expected = np.stack(
        [
            cut_into_blocks(
                numpy_pad(b, halo_begin, halo_end, mode), shape, grid, halo_begin, halo_end
            )
            for b in batch
        ]
    )
    np.testing.assert_array_equal(jax.jit(inner)(batch), expected)
    np.testing.assert_array_equal(jax.jit(outer)(batch), expected)


def test_explicit_mesh_axes():
    mesh = mesh_of((2, 4), ("a", "b"), AxisType.Explicit)
    shape, grid = (8, 16), (2, 4)
    x_host = np.arange(128, dtype=np.float32).reshape(shape)
    x = jax.device_put(x_host, NamedSharding(mesh, P("a", "b")))
    f = jax.jit(sharded_halo_pad(mesh, P("a", "b"), (2, 1), (1, 3), "symmetric"))
    expected = cut_into_blocks(
        numpy_pad(x_host, (2, 1), (1, 3), "symmetric"), shape, grid, (2, 1), (1, 3)
    )
    np.testing.assert_array_equal(f(x), expected)


# What moves between devices --------------------------------------------------------


def collectives(compiled_text):
    """(kind, result shape, number of source-target pairs) of every collective in an
    optimized HLO module; the pairs are counted for collective-permutes only."""
    pattern = rf"= (\S+|\([^)]*\)) ({'|'.join(COLLECTIVES)})(?:-start)?\((.*)"
    found = []
    for shape, kind, rest in re.findall(pattern, compiled_text):
        pairs = re.search(r"source_target_pairs=\{(.*?)\}\}", rest)
        found.append((kind, shape, pairs.group(1).count("{") if pairs else None))
    return found


def shape_bytes(shape):
    """Bytes of an HLO shape such as ``f32[7,2]{1,0}``; a permute's result is its operand."""
    first = re.match(r"\(?(\w+)\[([\d,]*)\]", shape)
    dims = [int(d) for d in first.group(2).split(",") if d]
    return ITEMSIZE[first.group(1)] * math.prod(dims)


def moved_bytes(compiled_text):
    """(bytes one device sends, bytes all devices send) by collective-permutes."""
    moved = collectives(compiled_text)
    assert {kind for kind, _, _ in moved} == {"collective-permute"}, moved
    per_device = sum(shape_bytes(shape) for _, shape, _ in moved)
    return per_device, sum(shape_bytes(shape) * pairs for _, shape, pairs in moved)


def halo_bytes(block, grid, halo_begin, halo_end, wrap, itemsize=4):
    """The halo's bytes: (one inner block's, all blocks' together). Along each split axis
    in turn, the slabs of the block as grown by the axes exchanged before it (their
    halos fill the corners); without wrap the blocks at the domain's edge receive
    nothing from across it."""
    shape = list(block)
    devices = math.prod(grid)
    per_block = total = 0
    for axis, blocks in enumerate(grid):
        if blocks == 1:
            continue
        slab = math.prod(shape) // shape[axis] * itemsize
        receivers = devices if wrap else devices - devices // blocks
        per_block += (halo_begin[axis] + halo_end[axis]) * slab
        total += (halo_begin[axis] + halo_end[axis]) * slab * receivers
        shape[axis] += halo_begin[axis] + halo_end[axis]
    return per_block, total


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "name,halo_begin,halo_end",
    [("2x4", (1, 2), (3, 1)), ("both-axes", (2, 1), (3, 0))],
)
def test_only_the_halo_slabs_move(name, halo_begin, halo_end, mode):
    mesh, spec, shape, grid = layout(name)
    block = [n // g for n, g in zip(shape, grid)]
    f = sharded_halo_pad(mesh, spec, halo_begin, halo_end, mode)
    x = jnp.zeros(shape, jnp.float32)
    cotangent = jnp.ones(jax.eval_shape(f, x).shape, jnp.float32)
    forward = jax.jit(f).lower(x).compile().as_text()
    # The pullback alone: a linear map, so none of the forward's exchanges remain.
    backward = jax.jit(lambda t: jax.vjp(f, x)[1](t)).lower(cotangent).compile().as_text()
    expected = halo_bytes(block, grid, halo_begin, halo_end, wrap=mode == "wrap")
    assert moved_bytes(forward) == expected
    assert moved_bytes(backward) == expected


def test_reflect_with_a_halo_as_wide_as_the_block_reads_one_more_row():
    mesh, spec, shape, grid = layout("1d")
    row = 6 * 4

    def moved(halo_begin, halo_end):
        f = sharded_halo_pad(mesh, spec, halo_begin, halo_end, "reflect")
        return moved_bytes(jax.jit(f).lower(jnp.zeros(shape, jnp.float32)).compile().as_text())

    # Without an end halo to bring it, the neighbour's first row comes on its own.
    per_block, total = halo_bytes((4, 6), grid, (4, 0), (0, 0), wrap=False)
    assert moved((4, 0), (0, 0)) == (per_block + row, total + 7 * row)
    # With an end halo the row comes along with it.
    assert moved((4, 0), (1, 0)) == halo_bytes((4, 6), grid, (4, 0), (1, 0), wrap=False)


def test_axis_of_size_one_moves_nothing():
    mesh = mesh_of((1, 8), ("one", "x"))
    f = jax.shard_map(
        lambda x: halo_pad(x, (2, 0), (1, 0), "reflect", axis_names=("one", None)),
        mesh=mesh,
        in_specs=P("one"),
        out_specs=P("one"),
    )
    x = np.arange(30, dtype=np.float32).reshape(5, 6)
    np.testing.assert_array_equal(jax.jit(f)(x), numpy_pad(x, (2, 0), (1, 0), "reflect"))
    assert collectives(jax.jit(f).lower(x).compile().as_text()) == []


def test_wider_halo_is_rejected_on_a_split_axis():
    mesh, spec, shape, grid = layout("1d")
    f = sharded_halo_pad(mesh, spec, (5, 0), (0, 0), "wrap")
    with pytest.raises(ValueError, match=r"^jaxpad.halo_pad: halo_begin\[0\]=5 is wider"):
        jax.jit(f).lower(jnp.zeros(shape, jnp.float32))


# Per-side and arithmetic boundary modes: the oracle is jaxpad.pad of the global array
# (checked against numpy.pad per side in tests/test_sides.py).

SIDED = [
    (("dirichlet", "symmetric"), ("wrap", "wrap")),
    (("reflect_odd", "dirichlet"), ("dirichlet", "symmetric_odd")),
]
SIDE_VALUES = np.array([[0.5, -1.0], [2.0, 0.25]], np.float32)


@pytest.mark.parametrize("mode", SIDED, ids=str)
@pytest.mark.parametrize("halo_begin,halo_end", [((1, 2), (3, 1)), ((4, 4), (4, 4))])
def test_per_side_modes_equal_the_global_pad_and_move_only_halos(mode, halo_begin, halo_end):
    mesh, spec, shape, grid = layout("2x4")
    names = spec_names(spec, 2)
    f = jax.shard_map(
        lambda x: halo_pad(x, halo_begin, halo_end, mode, SIDE_VALUES, axis_names=names),
        mesh=mesh,
        in_specs=spec,
        out_specs=spec,
    )
    x = np.random.default_rng(0).random(shape).astype(np.float32)
    padded = np.asarray(jaxpad.pad(x, halo_begin, halo_end, mode, SIDE_VALUES))
    expected = cut_into_blocks(padded, shape, grid, halo_begin, halo_end)
    np.testing.assert_allclose(jax.jit(f)(x), expected, rtol=1e-5, atol=1e-6)
    block = [n // g for n, g in zip(shape, grid)]
    forward = jax.jit(f).lower(x).compile().as_text()
    if halo_begin != (4, 4):  # reflect_odd as wide as a block reads one more row
        assert moved_bytes(forward)[0] == _bytes_per_axis(block, halo_begin, halo_end)


def _bytes_per_axis(block, halo_begin, halo_end):
    """One device's sent bytes: each split axis's slabs, in axis order (axis 1's grown
    by axis 0's halo, which carries the corners)."""
    shape = list(block)
    total = 0
    for axis in range(2):
        slab = math.prod(shape) // shape[axis] * 4
        total += (halo_begin[axis] + halo_end[axis]) * slab
        shape[axis] += halo_begin[axis] + halo_end[axis]
    return total


# Neumann sides and values that vary along the face: each device holds its block of the
# face arrays (split like x along the face's other axis).


@pytest.mark.parametrize("halo_begin,halo_end", [((1, 2), (2, 1)), ((2, 0), (1, 3))])
def test_neumann_and_face_values_equal_the_global_pad_and_move_only_halos(halo_begin, halo_end):
    mesh, spec, shape, grid = layout("2x4")
    names = spec_names(spec, 2)
    mode = (("neumann", "dirichlet"), ("neumann", "constant"))
    rng = np.random.default_rng(3)
    x = rng.random(shape).astype(np.float32)
    flux = rng.random((1, shape[1])).astype(np.float32)  # the face of axis 0
    wall = rng.random((shape[0], 1)).astype(np.float32)  # the face of axis 1

    def body(x, flux, wall):
        values = [(flux, 0.5), (wall, -1.0)]
        return halo_pad(x, halo_begin, halo_end, mode, values, axis_names=names)

    f = jax.shard_map(body, mesh=mesh, in_specs=(spec, P(None, "b"), P("a", None)), out_specs=spec)
    padded = np.asarray(jaxpad.pad(x, halo_begin, halo_end, mode, [(flux, 0.5), (wall, -1.0)]))
    expected = cut_into_blocks(padded, shape, grid, halo_begin, halo_end)
    np.testing.assert_allclose(jax.jit(f)(x, flux, wall), expected, rtol=1e-5, atol=1e-6)
    # What moves: x's halo slabs, plus the face arrays' own halos: the flux's band (its
    # begin side's rows) carried along axis 1, and the wall's column extended along
    # axis 0 (where axis 1 has a begin side at all).
    block = [n // g for n, g in zip(shape, grid)]
    faces = halo_begin[0] * (halo_begin[1] + halo_end[1])
    faces += (halo_begin[0] + halo_end[0]) if halo_begin[1] else 0
    forward = jax.jit(f).lower(x, flux, wall).compile().as_text()
    assert moved_bytes(forward)[0] == _bytes_per_axis(block, halo_begin, halo_end) + 4 * faces
