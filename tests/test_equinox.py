"""Tests for jaxpad/equinox.py: jaxpad's Equinox layers against Equinox's own."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("equinox")

import equinox as eqx  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import jaxpad.equinox  # noqa: E402
from jaxpad import nn, policies  # noqa: E402
from tests.sampling import EVERY_CASE, ROTATE_LISTS

# --all: a list of cases, one value each, rotates (tests/sampling.py).
pytestmark = ROTATE_LISTS

RNG = np.random.default_rng(0)
TOL = {"rtol": 1e-5, "atol": 1e-5}


def normal(*shape):
    return jnp.asarray(RNG.normal(size=shape).astype(np.float32))


def pair(original_cls, ours_cls, *args, **kwargs):
    """Equinox's layer and jaxpad's, the latter holding the former's leaves."""
    original = original_cls(*args, **kwargs, key=jax.random.key(0))
    ours = ours_cls(*args, **kwargs, key=jax.random.key(1))
    # A checkpoint of the original (its leaves) loads into jaxpad's layer.
    treedef = jax.tree.structure(ours)
    return original, jax.tree.unflatten(treedef, jax.tree.leaves(original))


@eqx.filter_jit
def loss_and_grads(model, x):
    def loss(model, x):
        y = jax.vmap(model)(x)
        return (y * jnp.cos(y)).sum(), y

    return jax.grad(loss, argnums=(0, 1), has_aux=True)(model, x)


def assert_same(original, ours, x):
    (g0, gx0), y0 = loss_and_grads(original, x)
    (g1, gx1), y1 = loss_and_grads(ours, x)
    assert y0.shape == y1.shape
    np.testing.assert_allclose(y1, y0, **TOL)
    np.testing.assert_allclose(gx1, gx0, **TOL)
    for a, b in zip(jax.tree.leaves(g1), jax.tree.leaves(g0)):
        np.testing.assert_allclose(a, b, **TOL)


CONV_CASES = [
    (1, {"padding": "SAME", "stride": 2, "groups": 2}, (9,)),
    (1, {"padding": ((2, 1),), "dilation": 2, "padding_mode": "REPLICATE"}, (9,)),
    (2, {"padding": 1, "stride": 2, "padding_mode": "REFLECT"}, (7, 8)),
    (
        2,
        {"padding": "SAME_LOWER", "dilation": (1, 2), "groups": 2, "padding_mode": "CIRCULAR"},
        (6, 7),
    ),
    (3, {"padding": (1, 0, 1), "padding_mode": "circular"}, (4, 3, 5)),
]


@pytest.mark.parametrize(
    "dims,kwargs,spatial",
    CONV_CASES,
    ids=[f"{d}d-{kw.get('padding_mode', 'ZEROS')}" for d, kw, _ in CONV_CASES],
)
def test_conv_matches_equinox(dims, kwargs, spatial):
    original, ours = pair(eqx.nn.Conv, jaxpad.equinox.Conv, dims, 4, 6, 3, **kwargs)
    assert ours.padding_mode == original.padding_mode
    assert ours.padding == original.padding
    assert_same(original, ours, normal(2, 4, *spatial))


def test_conv_is_planned_for_the_batch_vmap_gives_it(monkeypatch):
    # An Equinox layer runs per example under jax.vmap; the conv planner sees the batch
    # the program runs (docs/performance.md, "Equinox's per-example layers"), not 1.
    from jaxpad._lowering import conv as conv_lowering
    from jaxpad._lowering.conv import _program as conv_program

    seen = []
    plan_conv = conv_lowering.plan_conv

    def spy(x_shape, *args, **kwargs):
        seen.append(tuple(x_shape))
        return plan_conv(x_shape, *args, **kwargs)

    monkeypatch.setattr(conv_program, "plan_conv", spy)  # where the plans are made
    original, ours = pair(
        eqx.nn.Conv, jaxpad.equinox.Conv, 2, 4, 6, 3, padding=1, padding_mode="REFLECT"
    )
    x = normal(5, 4, 8, 7)
    y = jax.jit(jax.vmap(ours))(x)
    assert set(seen) == {(5, 4, 8, 7)}, seen
    seen.clear()
    ours(x[0])
    assert set(seen) == {(1, 4, 8, 7)}, seen
    # The same values as Equinox's layer, mapped over a second axis too.
    expected = jax.vmap(original)(x)
    np.testing.assert_allclose(y, expected, **TOL)
    twice = jax.vmap(jax.vmap(ours), in_axes=1, out_axes=1)(jnp.stack([x, 2 * x], axis=1))
    np.testing.assert_allclose(twice[:, 0], expected, **TOL)
    np.testing.assert_allclose(twice[:, 1], jax.vmap(original)(2 * x), **TOL)


def test_conv_per_example_derivatives_of_order_two():
    # Derivatives through the batched plan (the input mapped, the weight shared or
    # mapped too), forward and reverse, of order two.
    from jax.test_util import check_grads

    layer = jaxpad.equinox.Conv(
        2, 2, 3, 3, stride=(1, 2), padding=1, padding_mode="CIRCULAR", key=jax.random.key(0)
    )
    x = normal(3, 2, 5, 6)

    def shared(weight, x):
        return jax.vmap(eqx.tree_at(lambda m: m.weight, layer, weight))(x)

    def mapped(weight, x):
        return jax.vmap(lambda w, x: eqx.tree_at(lambda m: m.weight, layer, w)(x))(weight, x)

    check = dict(order=2, modes=("fwd", "rev"), eps=1e-2, atol=5e-2, rtol=5e-2)
    check_grads(shared, (layer.weight, x), **check)
    check_grads(mapped, (jnp.stack([layer.weight] * 3), x), **check)


TRANSPOSE_CASES = [
    (1, {"padding": "SAME", "stride": 2, "output_padding": 1}, (6,)),
    (2, {"padding": ((2, 0), (1, 1)), "stride": (2, 3), "output_padding": (1, 2)}, (4, 3)),
    (2, {"padding": "VALID", "dilation": 2, "groups": 2}, (4, 5)),
    (2, {"padding": "SAME", "stride": 2, "groups": 2, "padding_mode": "CIRCULAR"}, (4, 5)),
    (1, {"padding": "SAME_LOWER", "stride": 3, "padding_mode": "CIRCULAR"}, (5,)),
    (3, {"padding": "SAME", "stride": (1, 2, 1), "padding_mode": "CIRCULAR"}, (3, 3, 4)),
]


@pytest.mark.parametrize(
    "dims,kwargs,spatial",
    TRANSPOSE_CASES,
    ids=[f"{d}d-{kw['padding']}-{kw.get('padding_mode', 'ZEROS')}" for d, kw, _ in TRANSPOSE_CASES],
)
def test_conv_transpose_matches_equinox(dims, kwargs, spatial):
    original, ours = pair(
        eqx.nn.ConvTranspose, jaxpad.equinox.ConvTranspose, dims, 4, 6, 3, **kwargs
    )
    assert_same(original, ours, normal(2, 4, *spatial))


def transpose_of(conv, transpose):
    """Equinox's recipe: the ConvTranspose weights that make it the Conv's transpose."""
    weight = jnp.flip(conv.weight, axis=tuple(range(2, conv.weight.ndim))).swapaxes(0, 1)
    return eqx.tree_at(lambda m: m.weight, transpose, weight)


@pytest.mark.parametrize(
    "mode,kwargs",
    [
        ("REFLECT", {"padding": 1, "stride": 2, "output_padding": 1}),
        ("REPLICATE", {"padding": ((2, 1), (0, 2)), "stride": (1, 2), "dilation": (2, 1)}),
        ("SYMMETRIC", {"padding": "SAME", "stride": 2}),
        ("CIRCULAR", {"padding": 2, "stride": 3, "output_padding": 2}),
    ],
)
def test_conv_transpose_in_a_mode_is_the_vjp_of_conv(mode, kwargs):
    """Equinox rejects these (REFLECT/REPLICATE, CIRCULAR without SAME); ours is the
    VJP of the Conv with the same arguments (Equinox's own Conv where it has the mode)."""
    conv_kwargs = {k: v for k, v in kwargs.items() if k != "output_padding"}
    conv_cls = jaxpad.equinox.Conv if mode == "SYMMETRIC" else eqx.nn.Conv
    conv = conv_cls(
        2, 3, 4, 3, use_bias=False, padding_mode=mode, key=jax.random.key(0), **conv_kwargs
    )
    transpose = jaxpad.equinox.ConvTranspose(
        2, 4, 3, 3, use_bias=False, padding_mode=mode, key=jax.random.key(1), **kwargs
    )
    transpose = transpose_of(conv, transpose)
    y = normal(4, 5, 4)
    out = transpose(y)
    x = jnp.zeros((3, *out.shape[1:]))
    assert conv(x).shape == y.shape
    np.testing.assert_allclose(out, jax.vjp(conv, x)[1](y)[0], **TOL)


def test_equinox_rejects_what_ours_implements():
    with pytest.raises(NotImplementedError):
        eqx.nn.ConvTranspose(2, 4, 3, 3, padding_mode="REFLECT", key=jax.random.key(0))


def test_policy_and_its_mode():
    x = normal(3, 9, 8)
    policy = policies.torch(1)
    conv = jaxpad.equinox.Conv(
        2, 3, 4, 3, 2, padding=policy, padding_mode="symmetric", key=jax.random.key(0)
    )
    assert conv.padding_mode == "SYMMETRIC"
    expected = nn.conv(x[None], conv.weight, 2, policy, "symmetric")[0] + conv.bias
    np.testing.assert_allclose(conv(x), expected, **TOL)
    # Without padding_mode the policy's mode applies (flax's CIRCULAR: wrap).
    conv = jaxpad.equinox.Conv(2, 3, 4, 4, padding=policies.flax("CIRCULAR"), key=jax.random.key(0))
    assert conv.padding_mode == "CIRCULAR"
    expected = nn.conv(x[None], conv.weight, 1, policies.flax("CIRCULAR"))[0] + conv.bias
    np.testing.assert_allclose(conv(x), expected, **TOL)

    up = jaxpad.equinox.ConvTranspose(
        2, 4, 3, 3, 2, padding=policies.flax("REFLECT"), output_padding=1, key=jax.random.key(0)
    )
    y = normal(4, 5, 4)
    expected = nn.conv_transpose(y[None], up.weight, 2, policies.flax("REFLECT"), 1)[0]
    np.testing.assert_allclose(up(y), expected + up.bias, **TOL)


def test_leaves_and_serialisation_round_trip(tmp_path):
    original = eqx.nn.Conv(2, 3, 4, 3, padding=1, padding_mode="CIRCULAR", key=jax.random.key(0))
    ours = jaxpad.equinox.Conv(
        2, 3, 4, 3, padding=1, padding_mode="CIRCULAR", key=jax.random.key(0)
    )
    # Same initialiser and key use: the same leaves from the same key.
    for a, b in zip(jax.tree.leaves(original), jax.tree.leaves(ours), strict=True):
        np.testing.assert_array_equal(a, b)
    path = tmp_path / "conv.eqx"
    eqx.tree_serialise_leaves(path, original)
    fresh = jaxpad.equinox.Conv(
        2, 3, 4, 3, padding=1, padding_mode="CIRCULAR", key=jax.random.key(5)
    )
    loaded = eqx.tree_deserialise_leaves(path, fresh)
    eqx.tree_serialise_leaves(path, loaded)
    back = eqx.tree_deserialise_leaves(
        path, eqx.nn.Conv(2, 3, 4, 3, padding=1, padding_mode="CIRCULAR", key=jax.random.key(6))
    )
    x = normal(3, 6, 5)
    np.testing.assert_allclose(loaded(x), original(x), **TOL)
    np.testing.assert_array_equal(back.weight, original.weight)


# Explicit sharding: Equinox's jnp.pad cannot slice an axis sharded over the mesh


def test_explicit_sharding_inner():
    if jax.device_count() < 2:
        # tests/test_flax.py's test_sharded_spatial_axis_on_two_devices runs this check
        # in a process of its own with two CPU devices.
        pytest.skip("run by test_flax.py::test_sharded_spatial_axis_on_two_devices")
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    original, ours = pair(
        eqx.nn.Conv, jaxpad.equinox.Conv, 2, 3, 4, 3, padding=1, padding_mode="REFLECT"
    )
    x = normal(2, 3, 8, 6)
    apply = eqx.filter_jit(lambda model, x: jax.vmap(model)(x))
    # Jitted, each one program (eagerly, a compile per primitive).
    expected = apply(original, x)
    mesh = jax.make_mesh((2,), ("h",), axis_types=(AxisType.Explicit,))
    with jax.set_mesh(mesh):
        sharded = jax.device_put(x, NamedSharding(mesh, P(None, None, "h")))
        with pytest.raises(Exception, match="slicing on sharded dims"):  # ShardingTypeError
            apply(original, sharded)
        y = apply(ours, sharded)
        grad = jax.jit(jax.grad(lambda x: (jax.vmap(ours)(x) ** 2).sum()))(sharded)
    assert y.sharding.spec[2] == "h"
    np.testing.assert_allclose(y, expected, **TOL)
    expected_grad = jax.jit(jax.grad(lambda x: (jax.vmap(original)(x) ** 2).sum()))(x)
    np.testing.assert_allclose(grad, expected_grad, rtol=1e-4, atol=1e-4)


# Bad input ---------------------------------------------------------------------------


def error(kind, text):
    return pytest.raises(kind, match=re.escape(text))


def test_error_unknown_padding_mode():
    with error(
        ValueError,
        "jaxpad.equinox.Conv: padding_mode must be one of 'ZEROS', 'REFLECT', 'REPLICATE', "
        "'CIRCULAR', 'SYMMETRIC' or a jaxpad.pad mode ('constant', 'edge', 'reflect', "
        "'symmetric', 'wrap'), in any case; got 'mirror'.",
    ):
        jaxpad.equinox.Conv(1, 1, 1, 3, padding_mode="mirror", key=jax.random.key(0))


def test_error_unknown_padding_string():
    with error(
        ValueError,
        "jaxpad.equinox.Conv: `padding` string must be `'SAME'`, `'SAME_LOWER'`, or `'VALID'`.",
    ):
        jaxpad.equinox.Conv(1, 1, 1, 3, padding="FULL", key=jax.random.key(0))


def test_error_output_padding_not_below_stride():
    with error(
        ValueError,
        "jaxpad.equinox.ConvTranspose: Must have `output_padding < stride` (elementwise).",
    ):
        jaxpad.equinox.ConvTranspose(1, 1, 1, 3, stride=2, output_padding=2, key=jax.random.key(0))


def test_error_input_rank():
    conv = jaxpad.equinox.ConvTranspose(2, 1, 1, 3, key=jax.random.key(0))
    with error(
        ValueError,
        "jaxpad.equinox.ConvTranspose: x must have rank 3 (in_channels and 2 spatial axes); "
        "got shape (1, 1, 4, 4).",
    ):
        conv(jnp.ones((1, 1, 4, 4)))


def test_error_policy_empty_output():
    conv = jaxpad.equinox.Conv(1, 1, 1, 5, padding=policies.keras("valid"), key=jax.random.key(0))
    with error(
        ValueError,
        "jaxpad.equinox.Conv: policy jaxpad.policies.keras('valid'): the output would be empty",
    ):
        conv(jnp.ones((1, 3)))


def test_error_input_channels():
    conv = jaxpad.equinox.Conv(1, 3, 1, 3, key=jax.random.key(0))
    with error(
        ValueError,
        "jaxpad.equinox.Conv: x must have in_channels=3 channels on its first axis; got shape "
        "(2, 5).",
    ):
        conv(jnp.ones((2, 5)))


# Equinox's spellings: the fixed-rank aliases and the "ZEROS" default ----------------------

ALIASES = [
    ("Conv1d", {"padding": 1, "padding_mode": "CIRCULAR"}, (9,)),
    ("Conv2d", {"padding": 1, "stride": 2, "padding_mode": "REFLECT"}, (7, 8)),
    ("Conv3d", {"padding": "SAME"}, (4, 3, 5)),
    ("ConvTranspose1d", {"stride": 2, "output_padding": 1, "padding": 1}, (5,)),
    ("ConvTranspose2d", {"stride": 2, "padding": "SAME", "padding_mode": "CIRCULAR"}, (4, 4)),
    ("ConvTranspose3d", {"stride": 2, "padding": 1}, (3, 2, 3)),
]


@EVERY_CASE  # --all: every one (tests/sampling.py)
@pytest.mark.parametrize("name,kwargs,spatial", ALIASES, ids=[a[0] for a in ALIASES])
def test_fixed_rank_aliases_match_equinox(name, kwargs, spatial):
    # Positional arguments as Equinox orders them (ConvTranspose*d: output_padding
    # before padding), so a call written for Equinox works unchanged.
    original_cls, ours_cls = getattr(eqx.nn, name), getattr(jaxpad.equinox, name)
    original, ours = pair(original_cls, ours_cls, 2, 4, 3, **kwargs)
    assert isinstance(ours, jaxpad.equinox.Conv | jaxpad.equinox.ConvTranspose)
    assert ours.num_spatial_dims == len(spatial)
    assert_same(original, ours, normal(2, 2, *spatial))
    if name.startswith("ConvTranspose"):
        positional = ours_cls(2, 4, 3, 2, 1, 1, key=jax.random.key(0))
        assert (positional.output_padding, positional.padding) == (
            (1,) * len(spatial),
            ((1, 1),) * len(spatial),
        )


def test_padding_mode_defaults_to_zeros_as_equinox():
    import inspect

    for name in ("Conv", "ConvTranspose", "Conv2d", "ConvTranspose2d"):
        ours = inspect.signature(getattr(jaxpad.equinox, name)).parameters["padding_mode"]
        theirs = inspect.signature(getattr(eqx.nn, name)).parameters["padding_mode"]
        assert ours.default == theirs.default == "ZEROS", name
    assert jaxpad.equinox.Conv2d(2, 4, 3, key=jax.random.key(0)).padding_mode == "ZEROS"


def test_default_zeros_defers_to_the_policy_explicit_zeros_does_not():
    x = normal(3, 9, 8)
    policy = policies.flax("CIRCULAR")
    default = jaxpad.equinox.Conv(2, 3, 4, 4, padding=policy, key=jax.random.key(0))
    assert default.padding_mode == "CIRCULAR"
    explicit = jaxpad.equinox.Conv(
        2, 3, 4, 4, padding=policy, padding_mode="ZEROS", key=jax.random.key(0)
    )
    assert explicit.padding_mode == "ZEROS"
    expected = nn.conv(x[None], explicit.weight, 1, policy, "constant")[0] + explicit.bias
    np.testing.assert_allclose(explicit(x), expected, **TOL)


def test_alias_checkpoints_load_both_ways(tmp_path):
    original = eqx.nn.Conv2d(3, 4, 3, padding=1, padding_mode="REFLECT", key=jax.random.key(0))
    path = tmp_path / "conv2d.eqx"
    eqx.tree_serialise_leaves(path, original)
    loaded = eqx.tree_deserialise_leaves(
        path,
        jaxpad.equinox.Conv2d(3, 4, 3, padding=1, padding_mode="REFLECT", key=jax.random.key(1)),
    )
    x = normal(3, 6, 5)
    np.testing.assert_allclose(loaded(x), original(x), **TOL)
    eqx.tree_serialise_leaves(path, loaded)
    back = eqx.tree_deserialise_leaves(
        path, eqx.nn.Conv2d(3, 4, 3, padding=1, padding_mode="REFLECT", key=jax.random.key(2))
    )
    np.testing.assert_array_equal(back.weight, original.weight)
