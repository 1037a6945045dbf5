"""pad, dynamic_pad and broadcast on sharded arrays, on 8 simulated CPU devices.

tests/conftest.py gives the CPU backend 8 devices before JAX starts; the meshes are
built from CPU devices whatever the default backend (these tests read compiled XLA:CPU
programs). What needs no devices is in tests/test_sharding.py.
"""

from __future__ import annotations

import contextlib
import math
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

import jaxpad
from jaxpad._index_maps import base_mode as jaxpad_base_mode
from tests.cases import MODES
from tests.compat import enable_x64, set_mesh
from tests.devices import cpu_mesh
from tests.oracles import numpy_pad
from tests.sampling import ROTATE_LISTS

# --all: a list of cases, one value each, rotates (tests/sampling.py).
pytestmark = [pytest.mark.usefixtures("eight_cpu_devices"), ROTATE_LISTS]

COLLECTIVES = ("all-gather", "all-to-all", "collective-permute", "all-reduce", "reduce-scatter")
# A collective's result: a shape, or a tuple of shapes (combined collectives, whose
# "/*index=5*/" comments hold no parentheses).
RESULT = r"(\([^()]*\)|\S+)"
AXIS_TYPES = {"auto": AxisType.Auto, "explicit": AxisType.Explicit}


def collectives(compiled_text):
    """(kind, shape) of every collective in an optimized HLO module."""
    pattern = rf"= (\([^()]*\)|\S+) ({'|'.join(COLLECTIVES)})(?:-start)?\("
    return [(kind, shape) for shape, kind in re.findall(pattern, compiled_text)]


def halo_rows(shape):
    """The size of the sharded (first) axis of a collective's operand."""
    return int(re.match(r"\w+\[(\d+)", shape).group(1))


def mesh_of(kind):
    return cpu_mesh((8,), ("x",), AXIS_TYPES[kind])


def loss_of(f):
    return lambda *args: (f(*args) ** 2).sum()


def _spec(array, ndim):
    spec = tuple(array.sharding.spec)
    return spec + (None,) * (ndim - len(spec))


ITEMSIZE = {"f32": 4, "s32": 4, "u32": 4, "pred": 1}


def received_bytes(compiled_text, *, fallback=False):
    """Bytes one device receives in an optimized module: a permute's operand, (g-1)/g
    of an all-gather's result, 2(g-1)/g of an all-reduce's operand; scalar all-reduces
    (a sum's) left out. ``fallback``: only the collectives of ``lax.cond``'s branch 0
    (dynamic_pad's branch past max_pad); else all the others."""
    pattern = rf"= {RESULT} ({'|'.join(COLLECTIVES)})(?:-start)?\((.*)"
    total = 0.0
    for shape, kind, rest in re.findall(pattern, compiled_text):
        if ("branch_0_fun" in rest) != fallback or re.fullmatch(r"\w+\[\]\S*", shape):
            continue
        size = sum(
            ITEMSIZE[dtype] * math.prod(int(d) for d in dims.split(",") if d)
            for dtype, dims in re.findall(r"(\w+)\[([\d,]*)\]", shape)
        )
        share = {"collective-permute": 1, "all-reduce": 2 * 7 / 8, "reduce-scatter": 7}
        total += size * share.get(kind, 7 / 8)
    return round(total)


def kinds(compiled_text, *, fallback=False):
    """The kinds of collective in a module (scalar all-reduces left out)."""
    found = set()
    pattern = rf"= {RESULT} ({'|'.join(COLLECTIVES)})(?:-start)?\((.*)"
    for shape, kind, rest in re.findall(pattern, compiled_text):
        if ("branch_0_fun" in rest) == fallback and not re.fullmatch(r"\w+\[\]\S*", shape):
            found.add(kind)
    return found


def shift_bound(rows, pads_begin, pads_end, row_bytes, devices=8):
    """Twice the halo plus the shift of the shard boundaries, in bytes: the output's
    blocks are ceil(size / devices) rows, the input's rows / devices."""
    out_block = -(-(rows + pads_begin + pads_end) // devices)
    shift = (devices - 1) * (out_block - rows // devices)
    return (2 * (abs(pads_begin) + abs(pads_end)) + shift) * row_bytes


# (pads_begin, pads_end) on axis 0 of a (64, 16) array over 8 devices (8-row shards):
# 4 + 64 + 4 splits over 8 devices, the others do not; 8 is one shard.
PAD_CASES = {
    "divisible": ((4, 0), (4, 0)),
    "not-divisible": ((3, 0), (3, 0)),
    "begin-one-row": ((1, 0), (0, 0)),
    "one-shard-each-end": ((8, 0), (5, 0)),
}


def _static_cases():
    # Auto axes for every case; Explicit for a divisible and an indivisible one.
    for case in PAD_CASES:
        for kind in ("auto", "explicit") if case in ("divisible", "not-divisible") else ("auto",):
            for mode in MODES:
                yield pytest.param(kind, mode, case, id=f"{case}-{mode}-{kind}")


@pytest.mark.parametrize("kind,mode,case", list(_static_cases()))
@pytest.mark.subsample(0.4)
def test_pad_along_the_sharded_axis(kind, mode, case):
    mesh = mesh_of(kind)
    x_host = np.arange(64 * 16, dtype=np.float32).reshape(64, 16)
    x = jax.device_put(x_host, NamedSharding(mesh, P("x", None)))
    pads_begin, pads_end = PAD_CASES[case]

    def f(x):
        return jaxpad.pad(x, pads_begin, pads_end, mode)

    loss = loss_of(f)
    with set_mesh(mesh):
        out = jax.jit(f)(x)
        grad = jax.jit(jax.grad(loss))(x)
        in_program = jax.jit(loss).lower(x).compile().as_text()
        backward = jax.jit(jax.grad(loss)).lower(x).compile().as_text()
    np.testing.assert_array_equal(out, numpy_pad(x_host, pads_begin, pads_end, mode))
    np.testing.assert_array_equal(grad, jax.grad(loss)(x_host))
    divisible = out.shape[0] % 8 == 0
    # A jit returns the input's sharding where the padded size splits evenly, and a
    # replicated array where it cannot (a jax.Array is sharded evenly or not at all).
    assert _spec(out, 2)[0] == ("x" if divisible else None)
    assert _spec(grad, 2) == _spec(x, 2)
    if kind == "explicit" and not divisible:
        # The output's type is replicated (JAX's types cannot be uneven): gathered.
        return
    # Inside the program the padded array stays distributed (unevenly where it must):
    # only collective-permutes, within twice the halo plus the shift of the shard
    # boundaries, forward and backward.
    bound = shift_bound(64, pads_begin[0], pads_end[0], row_bytes=64)
    for hlo, factor in ((in_program, 1), (backward, 2)):
        assert kinds(hlo) <= {"collective-permute"}, kinds(hlo)
        assert received_bytes(hlo) <= factor * bound, (received_bytes(hlo), bound)


@pytest.mark.parametrize("mode", MODES)
def test_pad_inside_a_program_never_gathers_on_the_issue_case(mode):
    # The issue's case: (1024, 24) float32 over 8 devices padded by 3 at both ends
    # (1030 rows). Each device receives 6 rows: 2 from the previous block, 4 from the
    # next (the blocks of the output are 129 rows).
    mesh = mesh_of("auto")
    x = jax.device_put(np.ones((1024, 24), np.float32), NamedSharding(mesh, P("x")))

    def loss(x):
        return (jaxpad.pad(x, [3, 0], [3, 0], mode) ** 2).sum()

    with set_mesh(mesh):
        forward = jax.jit(loss).lower(x).compile().as_text()
        backward = jax.jit(jax.grad(loss)).lower(x).compile().as_text()
    rows = 7 if mode == "wrap" else 6  # wrap: one more row, across the domain's edge
    assert received_bytes(forward) == rows * 96
    assert received_bytes(backward) == 2 * rows * 96
    assert kinds(forward) == kinds(backward) == {"collective-permute"}


# Both axes padded, each split over one mesh axis; and an axis split over both.
@pytest.mark.parametrize("spec", [P("y", "x"), P(("y", "x"), None)], ids=["each", "both"])
@pytest.mark.parametrize("mode", ["reflect", "wrap"])
def test_pad_on_a_two_dimensional_mesh(mode, spec):
    mesh = cpu_mesh((2, 4), ("y", "x"))
    x_host = np.random.RandomState(0).randn(16, 32).astype(np.float32)
    x = jax.device_put(x_host, NamedSharding(mesh, spec))

    def f(x):
        return jaxpad.pad(x, [3, 2], [1, 5], mode)

    loss = loss_of(lambda x: jnp.sin(f(x)))
    with set_mesh(mesh):
        out = jax.jit(f)(x)
        grad = jax.jit(jax.grad(loss))(x)
        hlo = jax.jit(jax.grad(loss)).lower(x).compile().as_text()
    np.testing.assert_array_equal(out, numpy_pad(x_host, [3, 2], [1, 5], mode))
    np.testing.assert_allclose(grad, jax.grad(loss)(x_host), rtol=1e-6)
    assert kinds(hlo) <= {"collective-permute"}, kinds(hlo)


# Several hops (pads of 2.5 shards), a crop with a pad, interior padding.
WIDE_CROP_INTERIOR = {
    "wider-than-a-shard": lambda x: jaxpad.pad(x, [20, 0], [13, 0], "reflect"),
    "crop-and-pad": lambda x: jaxpad.pad(x, [-3, 0], [5, 0], "wrap"),
    "interior": lambda x: jaxpad.pad(x, [3, 0], [2, 0], interior=[1, 0]),
}


@pytest.mark.parametrize("case", WIDE_CROP_INTERIOR)
def test_pad_wider_than_a_shard_interior_and_crop(case):
    mesh = mesh_of("auto")
    x_host = np.random.RandomState(1).randn(64, 6).astype(np.float32)
    x = jax.device_put(x_host, NamedSharding(mesh, P("x")))
    f = WIDE_CROP_INTERIOR[case]
    loss = loss_of(lambda x: jnp.sin(f(x)))
    with set_mesh(mesh):
        out = jax.jit(f)(x)
        grad = jax.jit(jax.grad(loss))(x)
        hlo = jax.jit(jax.grad(loss)).lower(x).compile().as_text()
    np.testing.assert_array_equal(out, f(x_host))
    np.testing.assert_allclose(grad, jax.grad(loss)(x_host), rtol=1e-6)
    assert kinds(hlo) <= {"collective-permute"}, kinds(hlo)


def test_second_order_and_vmap_of_a_sharded_pad():
    mesh = mesh_of("auto")
    x_host = np.random.RandomState(2).randn(64, 3).astype(np.float32)
    x = jax.device_put(x_host, NamedSharding(mesh, P("x")))

    def f(x):
        return jnp.sin(jaxpad.pad(x, [3, 0], [2, 0], "symmetric")).sum()

    hessian_vector = jax.jit(lambda x, v: jax.jvp(jax.grad(f), (x,), (v,))[1])
    batched = jax.jit(jax.vmap(lambda row: jaxpad.pad(row, [3], [2], "reflect"), in_axes=1))
    with set_mesh(mesh):
        hv = hessian_vector(x, x)
        out = batched(x)
    np.testing.assert_allclose(hv, hessian_vector(x_host, x_host), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(out, np.pad(x_host, ((3, 2), (0, 0)), "reflect").T)


def test_a_long_axis_computes_its_rows_in_the_program():
    # Past _MAX_STATIC_ROWS output rows the blocks compute their rows in the program
    # instead of reading a table the size of the axis; what moves is unchanged.
    mesh = mesh_of("auto")
    x_host = np.random.RandomState(5).randn(8 * 9000, 2).astype(np.float32)
    x = jax.device_put(x_host, NamedSharding(mesh, P("x")))

    def f(x):
        return jaxpad.pad(x, [3, 0], [2, 0], "reflect")

    def g(x):
        return jaxpad.dynamic_pad(x, (-2, 0), (8 * 9000 + 1, 2), "wrap")

    def loss(x):
        return (jnp.sin(f(x)) ** 2).sum() + (jnp.sin(g(x)) ** 2).sum()

    with set_mesh(mesh):
        out, shifted = jax.jit(f)(x), jax.jit(g)(x)
        grad = jax.jit(jax.grad(loss))(x)
        hlo = jax.jit(jax.grad(loss)).lower(x).compile().as_text()
    np.testing.assert_array_equal(out, numpy_pad(x_host, [3, 0], [2, 0], "reflect"))
    np.testing.assert_array_equal(shifted, numpy_pad(x_host, [-2, 0], [3, 0], "wrap"))
    np.testing.assert_allclose(grad, jax.grad(loss)(x_host), rtol=1e-5, atol=1e-6)
    assert "s32[8,9001]" not in hlo and "s32[8,9000]" not in hlo  # no per-device table
    assert kinds(hlo) <= {"collective-permute"}, kinds(hlo)


def test_a_split_axis_too_long_for_int32_needs_x64():
    # Its rows are computed in the program from global positions: int64 there. Lowered,
    # not run (a bfloat16 axis of 2**31 + 8 elements is 4 GiB).
    mesh = mesh_of("auto")
    long = 2**31 + 8
    x = jax.ShapeDtypeStruct((long,), jnp.bfloat16, sharding=NamedSharding(mesh, P("x")))
    with set_mesh(mesh):
        with pytest.raises(ValueError, match=r"^jaxpad\.pad: axis 0 of x has 2147483656 .*x64"):
            jax.jit(lambda x: jaxpad.pad(x, [3], [5], "reflect")).lower(x)
        with pytest.raises(ValueError, match=r"^jaxpad\.dynamic_pad: axis 0 of x has"):
            jax.jit(lambda x: jaxpad.dynamic_pad(x, (3,), (long + 8,), "wrap")).lower(x)
        with enable_x64(True):
            text = jax.jit(lambda x: jaxpad.pad(x, [3], [5], "reflect")).lower(x).as_text()
            # Per-side modes compose one-mode pads with coefficients built in the program
            # (a host vector as long as the axis would be 16 GiB).
            sided = jax.jit(lambda x: jaxpad.pad(x, [3], [5], [("neumann", "dirichlet")], 0.5))
            assert "2147483664xbf16" in sided.lower(x).as_text()
    assert "2147483664xbf16" in text


def test_export_under_a_mesh_takes_the_plain_lowering():
    # jax.export serializes no custom_partitioning op: exported programs partition the
    # single-device lowering, as before the planned exchange.
    mesh = mesh_of("auto")
    x_host = np.arange(64 * 16, dtype=np.float32).reshape(64, 16)
    spec = jax.ShapeDtypeStruct((64, 16), jnp.float32, sharding=NamedSharding(mesh, P("x")))

    def f(x, offset):
        padded = jaxpad.pad(x, [3, 0], [3, 0], "reflect")
        return padded, jaxpad.dynamic_pad(x, (offset, 0), (64, 16), "wrap", max_pad=4)

    with set_mesh(mesh):
        exported = jax.export.export(jax.jit(f))(spec, jax.ShapeDtypeStruct((), jnp.int32))
        padded, shifted = exported.call(jax.device_put(x_host, spec.sharding), np.int32(2))
    assert "CustomSPMDPartitioning" not in exported.mlir_module()
    np.testing.assert_array_equal(padded, numpy_pad(x_host, [3, 0], [3, 0], "reflect"))
    np.testing.assert_array_equal(shifted, np.roll(x_host, 2, axis=0))


@pytest.mark.parametrize("kind", AXIS_TYPES)
@pytest.mark.parametrize("mode", MODES)
def test_pad_along_an_unsharded_axis_moves_nothing(kind, mode):
    mesh = mesh_of(kind)
    x_host = np.arange(6 * 64, dtype=np.float32).reshape(6, 64)
    x = jax.device_put(x_host, NamedSharding(mesh, P(None, "x")))

    def f(x):
        return jaxpad.pad(x, [5, 0], [2, 0], mode)

    with set_mesh(mesh):
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
@pytest.mark.subsample(0.4)
def test_dynamic_pad(kind, mode, sharded_axis):
    mesh = mesh_of(kind)
    x_host = np.arange(64 * 8, dtype=np.float32).reshape(64, 8)
    spec = P("x", None) if sharded_axis == 0 else P(None, "x")
    x = jax.device_put(x_host, NamedSharding(mesh, spec))
    offset = jnp.array(3)

    def f(x):
        # Traced offset on axis 1, static 0 on axis 0: sharding axis 0 costs nothing.
        return jaxpad.dynamic_pad(x, (0, offset), (64, 16), mode)

    with set_mesh(mesh):
        out = jax.jit(f)(x)
        grad = jax.jit(jax.grad(loss_of(f)))(x)
        hlo = jax.jit(f).lower(x).compile().as_text()
    np.testing.assert_array_equal(out, numpy_pad(x_host, [0, 3], [0, 5], mode))
    np.testing.assert_array_equal(grad, jax.grad(loss_of(f))(x_host))
    if sharded_axis == 0:
        assert grad.sharding.spec == spec
        assert out.sharding.spec == spec
        assert collectives(hlo) == []


# (output rows, traced offset, max_pad): within the bound (either sign), an output
# that does not split over 8 devices, an offset past the bound (the gathering branch).
DYNAMIC_CASES = {
    "within": (64, 3, 4),
    "negative": (64, -4, 4),
    "not-divisible": (70, 2, 8),
    "past-the-bound": (70, 5, 4),
}


# Every case and every mode, not every pair (each compiles four programs).
DYNAMIC_PAIRS = [
    ("within", "constant"),
    ("within", "wrap"),
    ("negative", "edge"),
    ("negative", "wrap"),
    ("not-divisible", "reflect"),
    ("not-divisible", "symmetric"),
    ("past-the-bound", "symmetric"),
    ("past-the-bound", "constant"),
]


@pytest.mark.parametrize("case,mode", DYNAMIC_PAIRS)
def test_dynamic_pad_with_max_pad_moves_a_halo(case, mode):
    mesh = mesh_of("auto")
    rows, offset, bound = DYNAMIC_CASES[case]
    x_host = np.random.RandomState(3).randn(64, 16).astype(np.float32)
    x = jax.device_put(x_host, NamedSharding(mesh, P("x", None)))
    pads = (jnp.int32(offset), jnp.int32(1))

    def f(x, pads, max_pad=(bound, None)):
        return jaxpad.dynamic_pad(x, pads, (rows, 18), mode, max_pad=max_pad)

    loss = loss_of(lambda x, pads: jnp.sin(f(x, pads)))
    with set_mesh(mesh):
        out = jax.jit(f)(x, pads)
        grad = jax.jit(jax.grad(loss))(x, pads)
        forward = jax.jit(loss).lower(x, pads).compile().as_text()
        backward = jax.jit(jax.grad(loss)).lower(x, pads).compile().as_text()
    expected = jaxpad.dynamic_pad(x_host, (offset, 1), (rows, 18), mode)
    np.testing.assert_array_equal(out, expected)
    unsharded = loss_of(lambda x: jnp.sin(jaxpad.dynamic_pad(x, (offset, 1), (rows, 18), mode)))
    np.testing.assert_allclose(grad, jax.grad(unsharded)(x_host), rtol=1e-6, atol=1e-7)
    assert _spec(grad, 2) == ("x", None)
    # The branch taken within the bound moves permutes of at most the bound's rows on
    # each side (and the shift of the shard boundaries); the other branch gathers.
    row_bytes = 18 * 4
    bound_bytes = shift_bound(64, bound, bound, row_bytes=row_bytes) // 2 + 8 * row_bytes
    for hlo, factor in ((forward, 1), (backward, 2)):
        assert kinds(hlo) <= {"collective-permute"}, kinds(hlo)
        assert received_bytes(hlo) <= factor * bound_bytes, (received_bytes(hlo), bound_bytes)
        assert kinds(hlo, fallback=True) <= {"all-gather", "reduce-scatter"}


def test_dynamic_pad_batched_offsets_on_a_two_dimensional_mesh():
    # vmap: one offset per example; the batch axis split over "y", the padded over "x".
    mesh = cpu_mesh((2, 4), ("y", "x"))
    x_host = np.random.RandomState(4).randn(4, 32, 3).astype(np.float32)
    offsets = np.array([2, -3, 0, 5], np.int32)
    x = jax.device_put(x_host, NamedSharding(mesh, P("y", "x", None)))

    def f(x, offsets):
        return jax.vmap(
            lambda x, o: jaxpad.dynamic_pad(x, (o, 0), (34, 3), "wrap", max_pad=(3, 0))
        )(x, offsets)

    loss = loss_of(lambda x, o: jnp.sin(f(x, o)))
    with set_mesh(mesh):
        out = jax.jit(f)(x, offsets)
        grad = jax.jit(jax.grad(loss))(x, offsets)
    expected = np.stack(
        [jaxpad.dynamic_pad(x_host[i], (int(o), 0), (34, 3), "wrap") for i, o in enumerate(offsets)]
    )
    np.testing.assert_array_equal(out, expected)

    def reference(x):
        rows = [
            jaxpad.dynamic_pad(x[i], (int(o), 0), (34, 3), "wrap") for i, o in enumerate(offsets)
        ]
        return (jnp.sin(jnp.stack(rows)) ** 2).sum()

    np.testing.assert_allclose(grad, jax.grad(reference)(x_host), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("kind", AXIS_TYPES)
def test_broadcast(kind):
    mesh = mesh_of(kind)
    x_host = np.arange(64 * 3, dtype=np.float32).reshape(64, 3)
    x = jax.device_put(x_host, NamedSharding(mesh, P("x", None)))

    def f(x):
        return jaxpad.broadcast(x[:, None, :], (64, 5, 3))

    with set_mesh(mesh):
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

    # Each side one jitted program (eagerly, the oracle's and the gradients' primitives
    # compiled one by one).
    np.testing.assert_array_equal(sharded(x, v), jax.jit(per_device)(x, v))
    grads = jax.jit(jax.grad(lambda x, v: (sharded(x, v) ** 2).sum(), argnums=(0, 1)))(x, v)
    expected = jax.jit(jax.grad(lambda x, v: (per_device(x, v) ** 2).sum(), argnums=(0, 1)))(x, v)
    np.testing.assert_allclose(grads[0], expected[0], rtol=1e-6)
    np.testing.assert_allclose(grads[1], expected[1], rtol=1e-6)


# Per-side and odd modes: one-mode pads of their base modes plan the exchange, the
# signs and values are elementwise, and the odd modes' edge rows reach every device by
# a one-row all-reduce.
SIDED = [
    "dirichlet",
    (("dirichlet", "reflect_odd"), "wrap"),
    (("symmetric_odd", "constant"), ("edge", "dirichlet")),
]
SIDE_VALUES = np.array([[0.5, -1.0], [2.0, 0.25]], np.float32)


@pytest.mark.parametrize("mode", SIDED, ids=str)
def test_per_side_modes_on_the_issue_case_move_rows_not_the_array(mode):
    mesh = mesh_of("auto")
    host = np.random.default_rng(0).random((1024, 24)).astype(np.float32)
    x = jax.device_put(host, NamedSharding(mesh, P("x")))

    def loss(x, v):
        return (jaxpad.pad(x, [3, 1], [3, 2], mode, v) ** 2).sum()

    # Two sharded programs, each run and read: the forward, and the gradients (x's and
    # the values').
    with set_mesh(mesh):
        forward = jax.jit(loss).lower(x, SIDE_VALUES).compile()
        backward = jax.jit(jax.grad(loss, (0, 1))).lower(x, SIDE_VALUES).compile()
        value, grads = forward(x, SIDE_VALUES), backward(x, SIDE_VALUES)
        forward, backward = forward.as_text(), backward.as_text()
    # The oracle: the same loss on one device, one jitted program (not eagerly: a
    # compile per primitive).
    expected_value, expected_grads = jax.jit(jax.value_and_grad(loss, (0, 1)))(host, SIDE_VALUES)
    np.testing.assert_allclose(value, expected_value, rtol=1e-5)
    for got, expected in zip(grads, expected_grads):
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
    row = 24 * 4
    axis_modes = mode if isinstance(mode, str) else mode[0]
    bases = {
        jaxpad_base_mode(side)
        for side in ((axis_modes,) * 2 if isinstance(axis_modes, str) else axis_modes)
    }
    # One exchange per base mode of the split axis, each within twice the halo plus
    # the shift, and the odd modes' two edge rows (an all-reduce each).
    bound = len(bases) * shift_bound(1024, 3, 3, row) + 2 * 2 * row
    for text in (forward, backward):
        assert kinds(text) <= {"collective-permute", "all-reduce"}, kinds(text)
        assert received_bytes(text) <= bound, (received_bytes(text), bound)


# An array committed to a NamedSharding carries its mesh in its type (Auto or Explicit
# axes), so a jit plans the exchange with or without jax.set_mesh.
@pytest.mark.parametrize("in_context", [False, True], ids=["no-mesh-in-context", "set_mesh"])
@pytest.mark.parametrize("kind", AXIS_TYPES)
@pytest.mark.parametrize(
    "mode", ["reflect", "wrap", (("dirichlet", "symmetric_odd"), "constant")], ids=str
)
@pytest.mark.subsample(0.5)
def test_sharded_inputs_plan_the_exchange_with_or_without_a_mesh_in_context(mode, kind, in_context):
    mesh = mesh_of(kind)
    host = np.random.default_rng(1).random((64, 16)).astype(np.float32)
    x = jax.device_put(host, NamedSharding(mesh, P("x")))
    values = None if isinstance(mode, str) else SIDE_VALUES

    def f(x):
        return jaxpad.pad(x, [4, 0], [4, 0], mode, values)

    loss = loss_of(f)
    with set_mesh(mesh) if in_context else contextlib.nullcontext():
        out = jax.jit(f)(x)
        # Explicit axes, no mesh in context: this used to fail (a bare PartitionSpec
        # needs a mesh in context); per-side modes failed under Explicit axes.
        grad = jax.jit(jax.grad(loss))(x)
        forward = jax.jit(loss).lower(x).compile().as_text()
        backward = jax.jit(jax.grad(loss)).lower(x).compile().as_text()
    np.testing.assert_allclose(out, f(host), rtol=1e-6)
    np.testing.assert_allclose(grad, jax.grad(loss)(host), rtol=1e-5, atol=1e-5)
    assert _spec(out, 2)[0] == "x" and _spec(grad, 2) == ("x", None)
    bound = shift_bound(64, 4, 4, row_bytes=64)
    if isinstance(mode, str):
        expected_kinds, edge_rows = {"collective-permute"}, 0
    else:  # two base modes, and the odd side's two edge rows (one all-reduce each)
        expected_kinds, edge_rows = {"collective-permute", "all-reduce"}, 2 * 2 * 64
    for text, factor in ((forward, 1), (backward, 2)):
        assert kinds(text) == expected_kinds, kinds(text)
        assert received_bytes(text) <= factor * (2 * bound + edge_rows), received_bytes(text)


@pytest.mark.parametrize("which", ["forward", "backward"])
@pytest.mark.parametrize("kind", AXIS_TYPES)
def test_export_for_devices_not_at_hand_takes_the_plain_lowering(kind, which):
    # A mesh built without devices (jax.sharding.AbstractMesh) lowers with none, which
    # a custom_partitioning op cannot: the pad keeps the plain lowering, in context
    # (use_abstract_mesh) or in the argument's sharding.
    mesh = jax.sharding.AbstractMesh((8,), ("x",), axis_types=(AXIS_TYPES[kind],))
    arg = jax.ShapeDtypeStruct((64, 16), np.float32, sharding=NamedSharding(mesh, P("x")))

    def f(x):
        return jaxpad.pad(x, [3, 0], [3, 0], "reflect")

    fn = f if which == "forward" else jax.grad(loss_of(f))
    with jax.sharding.use_abstract_mesh(mesh):
        in_context = jax.export.export(jax.jit(fn), platforms=("cpu", "cuda"))(arg)
    in_argument = jax.export.export(jax.jit(fn), platforms=("cpu", "cuda"))(arg)
    for exported in (in_context, in_argument):
        assert "custom_call" not in exported.mlir_module()
        assert exported.nr_devices == 8
