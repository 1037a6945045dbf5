"""Tests for jaxpad/flax.py: jaxpad's Flax layers against flax's own, side by side."""

from __future__ import annotations

import importlib.util
import re

import numpy as np
import pytest

pytest.importorskip("flax")

import flax.linen as linen  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from flax import nnx  # noqa: E402

import jaxpad  # noqa: E402
import jaxpad.flax  # noqa: E402
from jaxpad import nn, policies  # noqa: E402
from tests.devices import run_on_cpu_devices  # noqa: E402
from tests.rotation import rotation  # noqa: E402
from tests.sampling import EVERY_CASE, ROTATE_LISTS

# --all: a list of cases, one value each, rotates (tests/sampling.py).
pytestmark = ROTATE_LISTS

RNG = np.random.default_rng(0)
TOL = {"rtol": 1e-5, "atol": 1e-5}


def normal(*shape):
    return jnp.asarray(RNG.normal(size=shape).astype(np.float32))


def pair(original_cls, ours_cls, *args, **kwargs):
    """flax's layer and jaxpad's, with the same parameters (loaded from flax's state)."""
    original = original_cls(*args, **kwargs, rngs=nnx.Rngs(0))
    ours = ours_cls(*args, **kwargs, rngs=nnx.Rngs(1))
    nnx.update(ours, nnx.state(original, nnx.Param))
    return original, ours


def loss_and_grads(layer, x):
    """Output and gradients (params and input), under jax.jit."""
    graphdef, state = nnx.split(layer)

    @jax.jit
    def run(state, x):
        def loss(state, x):
            y = nnx.merge(graphdef, state)(x)
            return (y * jnp.cos(y)).sum(), y

        return jax.grad(loss, argnums=(0, 1), has_aux=True)(state, x)

    (grad_state, grad_x), y = run(state, x)
    return y, grad_state, grad_x


def assert_same(original, ours, x):
    y0, gs0, gx0 = loss_and_grads(original, x)
    y1, gs1, gx1 = loss_and_grads(ours, x)
    assert y0.shape == y1.shape
    np.testing.assert_allclose(y1, y0, **TOL)
    np.testing.assert_allclose(gx1, gx0, **TOL)
    jax.tree.map(lambda a, b: np.testing.assert_allclose(a, b, **TOL), gs1, gs0)


CONV_CASES = [
    ((5,), {"padding": "SAME", "strides": 2}, (2, 11, 4)),
    ((3,), {"padding": "CAUSAL", "kernel_dilation": 2}, (2, 9, 4)),
    ((3, 3), {"padding": "CIRCULAR", "strides": 2, "kernel_dilation": (1, 2)}, (2, 9, 8, 4)),
    ((4, 3), {"padding": "REFLECT", "feature_group_count": 2}, (2, 7, 6, 4)),
    ((3, 2), {"padding": ((1, 2), (0, 1)), "input_dilation": 2}, (1, 5, 4, 4)),
    ((3, 3), {"padding": "REFLECT", "strides": (1, 2), "kernel_dilation": 2}, (1, 7, 8, 4)),
    ((2, 3, 3), {"padding": "CIRCULAR", "strides": (1, 2, 1)}, (1, 4, 5, 4, 4)),
    ((3,), {"padding": "VALID", "mask": jnp.tril(jnp.ones((3, 4, 6)))}, (3, 2, 9, 4)),
]


@pytest.mark.parametrize(
    "kernel_size,kwargs,shape",
    CONV_CASES,
    ids=[f"{len(k)}d-{kw['padding']}" for k, kw, _ in CONV_CASES],
)
def test_nnx_conv_matches_flax(kernel_size, kwargs, shape):
    original, ours = pair(nnx.Conv, jaxpad.flax.Conv, 4, 6, kernel_size, **kwargs)
    assert_same(original, ours, normal(*shape))


TRANSPOSE_CASES = [
    ((4,), {"padding": "VALID", "strides": 3, "kernel_dilation": 2}),
    ((3, 3), {"padding": ((2, 0), (1, 3)), "strides": (2, 1)}),
    ((4, 3), {"padding": "CIRCULAR", "strides": (3, 1), "transpose_kernel": True}),
    ((2, 5), {"padding": "CIRCULAR", "kernel_dilation": (1, 2)}),
    ((6, 6), {"padding": "CIRCULAR", "strides": 2, "transpose_kernel": True}),
    ((3, 2, 2), {"padding": "CIRCULAR", "strides": (1, 2, 1)}),
]


@pytest.mark.parametrize(
    "kernel_size,kwargs",
    TRANSPOSE_CASES,
    ids=[
        f"{len(k)}d-{kw['padding']}-{kw.get('transpose_kernel', False)}"
        for k, kw in TRANSPOSE_CASES
    ],
)
def test_nnx_conv_transpose_matches_flax(kernel_size, kwargs):
    original, ours = pair(nnx.ConvTranspose, jaxpad.flax.ConvTranspose, 4, 3, kernel_size, **kwargs)
    spatial = {1: (7,), 2: (5, 4), 3: (3, 4, 3)}[len(kernel_size)]
    assert_same(original, ours, normal(2, *spatial, 4))


def test_checkpoints_load_both_ways_and_state_layouts_match():
    for cls, ours_cls, kwargs in [
        (nnx.Conv, jaxpad.flax.Conv, {"padding": "CIRCULAR"}),
        (nnx.ConvTranspose, jaxpad.flax.ConvTranspose, {"padding": "CIRCULAR"}),
    ]:
        original = cls(3, 5, (3, 3), **kwargs, rngs=nnx.Rngs(0))
        ours = ours_cls(3, 5, (3, 3), **kwargs, rngs=nnx.Rngs(0))
        s0, s1 = nnx.state(original), nnx.state(ours)
        assert jax.tree.structure(s0) == jax.tree.structure(s1)
        # Same initialisers and key order: the same parameters from the same seed.
        jax.tree.map(np.testing.assert_array_equal, s0, s1)
        x = normal(1, 6, 6, 3)
        nnx.update(ours, nnx.state(cls(3, 5, (3, 3), **kwargs, rngs=nnx.Rngs(7))))
        nnx.update(original, nnx.state(ours))
        np.testing.assert_allclose(ours(x), original(x), **TOL)


def test_nnx_jit_and_vmap():
    original, ours = pair(nnx.Conv, jaxpad.flax.Conv, 3, 4, (3, 3), padding="CIRCULAR")
    x = normal(3, 6, 5, 3)

    @nnx.jit
    def apply(layer, x):
        return layer(x)

    np.testing.assert_allclose(apply(ours, x), apply(original, x), **TOL)
    # One example at a time (no batch axis): vmap restores the batch.
    batched = jax.vmap(lambda x: ours(x))(x)
    np.testing.assert_allclose(batched, original(x), **TOL)
    np.testing.assert_allclose(ours(x[0]), original(x)[0], **TOL)


@pytest.mark.parametrize("mode", ["edge", "symmetric"])
def test_nnx_conv_pad_mode_and_policy(mode):
    """pad_mode fills flax's SAME pads; a policy sizes and pads as jaxpad.nn.conv does."""
    layer = jaxpad.flax.Conv(3, 4, (3, 4), 2, padding="SAME", pad_mode=mode, rngs=nnx.Rngs(0))
    x = normal(2, 7, 9, 3)
    numbers = ("NHWC", "HWIO", "NHWC")
    pads = jax.lax.padtype_to_pads((7, 9), (3, 4), (2, 2), "SAME")
    explicit = jaxpad.PaddingPolicy("explicit", explicit=tuple(pads), pad_mode=mode)
    expected = nn.conv(x, layer.kernel[...], 2, explicit, dimension_numbers=numbers)
    np.testing.assert_allclose(layer(x), expected + layer.bias[...], **TOL)

    policy = policies.torch(1)
    layer = jaxpad.flax.Conv(3, 4, (3, 3), 2, padding=policy, pad_mode=mode, rngs=nnx.Rngs(0))
    expected = nn.conv(x, layer.kernel[...], 2, policy, mode, dimension_numbers=numbers)
    np.testing.assert_allclose(layer(x), expected + layer.bias[...], **TOL)


@pytest.mark.parametrize(
    "padding,pad_mode,output_padding",
    [(policies.flax("REFLECT"), None, 1), (policies.torch(1), "wrap", 0), ("SAME", "edge", None)],
    ids=["flax-reflect", "torch-wrap", "same-edge"],
)
def test_nnx_conv_transpose_with_a_mode_is_the_vjp_of_conv(padding, pad_mode, output_padding):
    kwargs = {"padding": padding, "pad_mode": pad_mode, "use_bias": False, "rngs": nnx.Rngs(0)}
    conv = jaxpad.flax.Conv(3, 4, (3, 3), 2, **kwargs)
    transpose = jaxpad.flax.ConvTranspose(
        4, 3, (3, 3), 2, transpose_kernel=True, output_padding=output_padding, **kwargs
    )
    transpose.kernel[...] = conv.kernel[...]
    y = normal(2, 4, 5, 4)
    out = transpose(y)
    x = jnp.zeros((2, *out.shape[1:3], 3))
    if not isinstance(padding, str):
        assert conv(x).shape == y.shape
    expected = jax.vjp(conv, x)[1](y)[0]
    np.testing.assert_allclose(out, expected, **TOL)


LINEN_CASES = [
    (linen.Conv, jaxpad.flax.LinenConv, (3, 3), {"padding": "CIRCULAR", "strides": 2}),
    (linen.Conv, jaxpad.flax.LinenConv, (4,), {"padding": "REFLECT", "kernel_dilation": 2}),
    (linen.Conv, jaxpad.flax.LinenConv, (3,), {"padding": "CAUSAL", "feature_group_count": 2}),
    (
        linen.ConvTranspose,
        jaxpad.flax.LinenConvTranspose,
        (4, 3),
        {"padding": "CIRCULAR", "strides": (2, 1), "transpose_kernel": True},
    ),
    (linen.ConvTranspose, jaxpad.flax.LinenConvTranspose, (3,), {"padding": "SAME", "strides": 2}),
]


@pytest.mark.parametrize(
    "original_cls,ours_cls,kernel_size,kwargs",
    LINEN_CASES,
    ids=[f"{o.__name__}-{len(k)}d-{kw['padding']}" for o, _, k, kw in LINEN_CASES],
)
def test_linen_matches_flax(original_cls, ours_cls, kernel_size, kwargs):
    x = normal(2, *((7, 6)[: len(kernel_size)]), 4)
    original = original_cls(6, kernel_size, **kwargs)
    ours = ours_cls(6, kernel_size, **kwargs)
    variables = original.init(jax.random.key(0), x)
    ours_variables = ours.init(jax.random.key(0), x)
    # Same parameter names, shapes and initialisers.
    jax.tree.map(np.testing.assert_array_equal, ours_variables, variables)

    def loss(module):
        def f(variables, x):
            y = module.apply(variables, x)
            return (y * jnp.cos(y)).sum(), y

        return jax.jit(jax.grad(f, argnums=(0, 1), has_aux=True))

    (g0, gx0), y0 = loss(original)(variables, x)
    (g1, gx1), y1 = loss(ours)(variables, x)
    np.testing.assert_allclose(y1, y0, **TOL)
    np.testing.assert_allclose(gx1, gx0, **TOL)
    jax.tree.map(lambda a, b: np.testing.assert_allclose(a, b, **TOL), g1, g0)


def test_linen_policy_and_pad_mode():
    x = normal(1, 8, 3)
    layer = jaxpad.flax.LinenConv(2, (3,), padding=policies.torch(1), pad_mode="reflect")
    variables = layer.init(jax.random.key(0), x)
    kernel, bias = variables["params"]["kernel"], variables["params"]["bias"]
    expected = nn.conv(
        x, kernel, 1, policies.torch(1), "reflect", dimension_numbers=("NHC", "HIO", "NHC")
    )
    np.testing.assert_allclose(layer.apply(variables, x), expected + bias, **TOL)


# Explicit sharding: flax's jnp.pad cannot slice an axis sharded over the mesh -----------


@pytest.mark.slow
def test_sharded_spatial_axis_on_two_devices():
    """One process with two CPU devices (the mesh all of them) runs the sharded check
    of a layer module: this module's or tests/test_equinox.py's (where Equinox is
    installed), by turns drawn from the seed (tests/rotation.py), both across
    commits; both run on every commit in this process, on two of its eight devices."""
    module = ("test_flax.py", "test_equinox.py")[rotation(2, "two-device layer module")]
    if importlib.util.find_spec("equinox") is None:
        module = "test_flax.py"
    output = run_on_cpu_devices(2, f"tests/{module}::test_explicit_sharding_inner", timeout=300)
    assert re.search(r"\b1 passed", output), output[-2000:]


def test_explicit_sharding_inner():
    if jax.device_count() < 2:
        pytest.skip("run by test_sharded_spatial_axis_on_two_devices, on 2 devices")
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    original, ours = pair(nnx.Conv, jaxpad.flax.Conv, 3, 4, (3, 3), padding="CIRCULAR")
    x = normal(2, 8, 6, 3)
    # Jitted, each one program (eagerly, a compile per primitive).
    expected = jax.jit(lambda x: original(x))(x)
    expected_grad = jax.jit(jax.grad(lambda x: (original(x) ** 2).sum()))(x)
    mesh = jax.make_mesh((2,), ("h",), axis_types=(AxisType.Explicit,))
    with jax.set_mesh(mesh):
        sharded = jax.device_put(x, NamedSharding(mesh, P(None, "h")))
        with pytest.raises(Exception, match="slicing on sharded dims"):  # ShardingTypeError
            jax.jit(lambda x: original(x))(sharded)
        y = jax.jit(lambda x: ours(x))(sharded)
        grad = jax.jit(jax.grad(lambda x: (ours(x) ** 2).sum()))(sharded)
    assert y.sharding.spec[1] == "h"
    np.testing.assert_allclose(y, expected, **TOL)
    np.testing.assert_allclose(grad, expected_grad, rtol=1e-4, atol=1e-4)


# Bad input ---------------------------------------------------------------------------


def error(kind, text):
    return pytest.raises(kind, match=re.escape(text))


def test_error_unknown_padding_string():
    with error(
        ValueError,
        "jaxpad.flax.Conv: padding must be one of 'SAME', 'SAME_LOWER', 'VALID', 'CIRCULAR', "
        "'REFLECT', 'CAUSAL', an int, (low, high) pairs or a jaxpad.PaddingPolicy; got "
        "'circular' (flax spells it 'CIRCULAR').",
    ):
        jaxpad.flax.Conv(1, 1, 3, padding="circular", rngs=nnx.Rngs(0))


def test_error_pad_mode_contradicts_padding():
    with error(
        ValueError,
        "jaxpad.flax.Conv: pad_mode='reflect' contradicts padding='CIRCULAR' (which pads in "
        "'wrap'); for those pads in another mode pass padding=jaxpad.policies.flax('CIRCULAR') "
        "with pad_mode='reflect'.",
    ):
        jaxpad.flax.Conv(1, 1, 3, padding="CIRCULAR", pad_mode="reflect", rngs=nnx.Rngs(0))


def test_error_pad_mode_alias():
    with error(
        ValueError,
        "jaxpad.flax.LinenConv: pad_mode must be one of 'constant', 'edge', 'reflect', "
        "'symmetric', 'wrap'; got 'replicate' (jaxpad's name for 'replicate' is 'edge').",
    ):
        jaxpad.flax.LinenConv(1, 3, pad_mode="replicate")


def test_error_causal_needs_one_axis():
    with error(ValueError, "jaxpad.flax.Conv: padding='CAUSAL' is for 1-D convolutions"):
        jaxpad.flax.Conv(1, 1, (3, 3), padding="CAUSAL", rngs=nnx.Rngs(0))


def test_error_conv_transpose_reflect_points_to_the_policy():
    with error(
        ValueError,
        "jaxpad.flax.ConvTranspose: padding='REFLECT' is not a ConvTranspose padding in flax; "
        "for the transpose of Conv(padding='REFLECT') pass "
        "padding=jaxpad.policies.flax('REFLECT') (and output_padding).",
    ):
        jaxpad.flax.ConvTranspose(1, 1, 3, padding="REFLECT", rngs=nnx.Rngs(0))


def test_error_output_padding_without_policy():
    with error(
        ValueError,
        "jaxpad.flax.LinenConvTranspose: output_padding needs padding to be a "
        "jaxpad.PaddingPolicy (flax's paddings fix the output size); got padding='SAME'.",
    ):
        jaxpad.flax.LinenConvTranspose(1, 3, output_padding=1)


def test_error_bad_explicit_padding():
    with error(ValueError, "jaxpad.flax.Conv: padding: Invalid padding format: ((1, 2, 3),)"):
        jaxpad.flax.Conv(1, 1, 3, padding=((1, 2, 3),), rngs=nnx.Rngs(0))


def test_error_policy_with_input_dilation_and_empty_output():
    layer = jaxpad.flax.Conv(1, 1, 3, padding=policies.torch(1), input_dilation=2, rngs=nnx.Rngs(0))
    with error(
        ValueError,
        "jaxpad.flax.Conv: a jaxpad.PaddingPolicy pads the undilated input; got "
        "input_dilation=(2,).",
    ):
        layer(jnp.ones((1, 5, 1)))
    layer = jaxpad.flax.Conv(1, 1, 5, padding=policies.keras("valid"), rngs=nnx.Rngs(0))
    with error(
        ValueError,
        "jaxpad.flax.Conv: policy jaxpad.policies.keras('valid'): the output would be empty",
    ):
        layer(jnp.ones((1, 3, 1)))


def test_error_input_features():
    layer = jaxpad.flax.ConvTranspose(3, 1, 3, rngs=nnx.Rngs(0))
    with error(
        ValueError,
        "jaxpad.flax.ConvTranspose: inputs must have in_features=3 features on their last "
        "axis; got shape (1, 5, 2).",
    ):
        layer(jnp.ones((1, 5, 2)))


# padding_mode: PyTorch's and Equinox's spelling of pad_mode ---------------------------------

SPELLINGS = [
    ("REPLICATE", "edge"),
    ("zeros", "constant"),
    ("CIRCULAR", "wrap"),
    ("Reflect", "reflect"),
    ("SYMMETRIC", "symmetric"),
]


@pytest.mark.parametrize("spelling,mode", SPELLINGS)
def test_nnx_padding_mode_spellings(spelling, mode):
    x = normal(2, 7, 6, 3)
    for cls in (jaxpad.flax.Conv, jaxpad.flax.ConvTranspose):
        ours = cls(3, 4, (3, 3), padding=policies.torch(1), padding_mode=spelling, rngs=nnx.Rngs(0))
        same = cls(3, 4, (3, 3), padding=policies.torch(1), pad_mode=mode, rngs=nnx.Rngs(0))
        assert ours.pad_mode == mode
        np.testing.assert_array_equal(ours(x), same(x))


@pytest.mark.parametrize("spelling,mode", SPELLINGS[1:3])
def test_linen_padding_mode_spellings(spelling, mode):
    x = normal(1, 8, 3)
    for cls in (jaxpad.flax.LinenConv, jaxpad.flax.LinenConvTranspose):
        ours = cls(2, (3,), padding=policies.torch(1), padding_mode=spelling)
        same = cls(2, (3,), padding=policies.torch(1), pad_mode=mode)
        variables = ours.init(jax.random.key(0), x)
        np.testing.assert_array_equal(ours.apply(variables, x), same.apply(variables, x))
        # The layer carries the mode as pad_mode, so a clone does not see both.
        assert (ours.pad_mode, ours.padding_mode) == (mode, None)
        assert ours.clone().pad_mode == mode


def test_padding_mode_checkpoints_load_both_ways():
    original = nnx.Conv(3, 5, (3, 3), padding="CIRCULAR", rngs=nnx.Rngs(0))
    ours = jaxpad.flax.Conv(3, 5, (3, 3), padding="SAME", padding_mode="circular", rngs=nnx.Rngs(1))
    nnx.update(ours, nnx.state(original))
    x = normal(1, 6, 6, 3)
    np.testing.assert_allclose(ours(x), original(x), **TOL)
    nnx.update(original, nnx.state(jaxpad.flax.Conv(3, 5, (3, 3), rngs=nnx.Rngs(2))))
    nnx.update(ours, nnx.state(original))
    np.testing.assert_allclose(ours(x), original(x), **TOL)


@EVERY_CASE  # --all: every one (tests/sampling.py)
@pytest.mark.parametrize(
    "make",
    [
        lambda **kw: jaxpad.flax.Conv(1, 1, 3, rngs=nnx.Rngs(0), **kw),
        lambda **kw: jaxpad.flax.ConvTranspose(1, 1, 3, rngs=nnx.Rngs(0), **kw),
        lambda **kw: jaxpad.flax.LinenConv(1, 3, **kw),
        lambda **kw: jaxpad.flax.LinenConvTranspose(1, 3, **kw),
    ],
    ids=["Conv", "ConvTranspose", "LinenConv", "LinenConvTranspose"],
)
def test_error_pad_mode_and_padding_mode_both_given(make):
    with pytest.raises(ValueError, match=r"^jaxpad\.flax\.\w+: got both pad_mode='edge' and "):
        make(pad_mode="edge", padding_mode="edge")
    with error(
        ValueError,
        "jaxpad.flax.Conv: got both pad_mode='edge' and padding_mode='REFLECT'; pass one "
        "(padding_mode is PyTorch's and Equinox's name for pad_mode).",
    ):
        jaxpad.flax.Conv(1, 1, 3, pad_mode="edge", padding_mode="REFLECT", rngs=nnx.Rngs(0))


def test_error_unknown_padding_mode():
    with error(
        ValueError,
        "jaxpad.flax.LinenConv: padding_mode must be one of 'ZEROS', 'REFLECT', 'REPLICATE', "
        "'CIRCULAR' (PyTorch's and Equinox's names) or a jaxpad.pad mode ('constant', 'edge', "
        "'reflect', 'symmetric', 'wrap'), in any case; got 'mirror'.",
    ):
        jaxpad.flax.LinenConv(1, 3, padding_mode="mirror")
