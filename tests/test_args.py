"""Tests for jaxpad/_args.py: a pad's arguments, described once as a frozen PadArgs."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxpad
import jaxpad.numpy as jpnp
from jaxpad import _args, _window_ops, nn, policies

X = jnp.arange(12.0).reshape(3, 4)


def describe(*args, **kwargs):
    return _args.pad_args("jaxpad.pad", X, *args, **kwargs)


# The description ------------------------------------------------------------------


@pytest.mark.parametrize(
    "spellings",
    [
        # One mode: a name, one per axis, one pair per axis.
        [
            ([1, 2], [0, 3], "wrap"),
            ((1, 2), (0, 3), ("wrap", "wrap")),
            (np.array([1, 2]), np.array([0, 3]), [("wrap", "wrap"), ["wrap", "wrap"]]),
        ],
        # Per side: the same pairs, spelled with a bare mode where both sides agree.
        [
            ([1, 2], [0, 3], [("edge", "edge"), ("reflect", "symmetric")]),
            ([1, 2], [0, 3], ["edge", ("reflect", "symmetric")]),
        ],
        # Per-side values with one mode read per side.
        [
            ([1, 2], [0, 3], "constant", np.zeros((2, 2))),
            ([1, 2], [0, 3], [("constant", "constant")] * 2, [[0.0, 0.0], [0.0, 0.0]]),
        ],
    ],
)
def test_equivalent_spellings_give_equal_hashable_descriptions(spellings):
    described = [describe(*spelling) for spelling in spellings]
    assert all(d == described[0] for d in described)
    assert len({hash(d) for d in described}) == 1
    assert len(set(described)) == 1


def test_the_options_spelled_alike_are_equal():
    plain = describe([1, 2], [0, 3], "reflect")
    assert describe([1, 2], [0, 3], "reflect", interior=[0, 0]) == plain
    assert describe([1, 2], [0, 3], "reflect", crop_first=np.False_) == plain
    assert plain.out_shape == (4, 9) and plain.crop is None


@pytest.mark.parametrize(
    "other",
    [
        (([1, 2], [0, 3], "symmetric"), {}),
        (([1, 1], [0, 3], "reflect"), {}),
        (([1, 2], [0, 3], ["reflect", ("reflect", "wrap")]), {}),
        (([-1, 2], [0, 3], "reflect"), {}),
        (([-1, 2], [0, 3], "reflect"), {"crop_first": True}),
    ],
)
def test_different_pads_give_different_descriptions(other):
    args, kwargs = other
    assert describe(*args, **kwargs) != describe([1, 2], [0, 3], "reflect")


def test_the_description_is_frozen_and_carries_the_operands():
    args = describe([1, 2], [0, 3], "dirichlet", [(jnp.ones((1, 4)), 2.0), (0.0, 1.0)])
    with pytest.raises(dataclasses.FrozenInstanceError):
        args.mode = "wrap"  # type: ignore[misc]
    assert args.faces == ((0, 0),)
    assert args.value.shape == (2, 2) and args.face_values[0, 0].shape == (1, 4)
    assert args.mode == (("dirichlet", "dirichlet"), ("dirichlet", "dirichlet"))


def test_crop_first_is_described_as_a_slice_and_the_pads_left():
    args = describe([-1, 2], [1, -2], "wrap", crop_first=True)
    assert args.crop == ((1, 0), (3, 2))
    assert (args.pads_begin, args.pads_end) == ((0, 2), (1, 0))
    assert args.cropped_shape == (2, 2) and args.out_shape == (3, 4)


def test_messages_start_with_the_name_given():
    with pytest.raises(ValueError, match=r"^jaxpad\.numpy\.pad: mode must be one of"):
        _args.pad_args("jaxpad.numpy.pad", X, [1, 1], [1, 1], "mirror")


# Each public function describes its pad once --------------------------------------


@pytest.fixture
def counted(monkeypatch):
    """Counts the calls of the builders and of the mode parser below them."""
    calls = {"pad_args": 0, "halo_args": 0, "parse_modes": 0}
    for name in calls:
        original = getattr(_args, name)

        def counting(*args, _name=name, _original=original, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(_args, name, counting)
    return calls


FACE = [(jnp.ones((1, 4)), 0.0), (1.0, jnp.ones((3, 1)))]


@pytest.mark.parametrize(
    "call,pads",
    [
        (lambda: jaxpad.pad(X, [1, 2], [0, 3], "reflect"), 1),
        (lambda: jaxpad.pad(X, [1, 2], [0, 3], [("wrap", "dirichlet"), "edge"], 2.0), 1),
        # Faces: the scalars' pad is not a second call of jaxpad.pad.
        (lambda: jaxpad.pad(X, [1, 2], [0, 3], "dirichlet", FACE), 1),
        (lambda: jaxpad.pad(X, [-1, 2], [0, -3], "wrap", crop_first=True), 1),
        (lambda: jpnp.pad(X, ((1, 2), (0, 3)), "symmetric"), 1),
        (lambda: jpnp.pad(X, 1, constant_values=2.0), 1),
        (lambda: nn.max_pool(X, 2, 2, policies.torch(1)), 1),
        (lambda: nn.avg_pool(X, 2, 1, policies.tensorflow("SAME"), pad_mode="reflect"), 1),
    ],
)
def test_each_public_function_describes_its_pad_once(counted, call, pads):
    jax.make_jaxpr(call)()
    assert counted == {"pad_args": pads, "halo_args": 0, "parse_modes": pads}


def halo(x, *args, **kwargs):
    return jax.vmap(lambda b: jaxpad.halo_pad(b, *args, **kwargs), axis_name="i")(x)


@pytest.mark.parametrize(
    "args",
    [
        ([1, 1], [2, 0], "reflect"),
        ([1, 1], [2, 1], [("dirichlet", "wrap"), "edge"], 0.5),
        # Faces: extended and carried by halo pads of their own, not checked again.
        ([1, 1], [2, 0], "dirichlet", [(0.5, jnp.arange(4.0)), (1.0, 2.0)]),
    ],
)
def test_halo_pad_describes_its_pad_once(counted, args):
    blocks = jnp.arange(24.0).reshape(2, 3, 4)
    jax.make_jaxpr(lambda x: halo(x, *args, axis_names=["i", None]))(blocks)
    assert counted == {"pad_args": 0, "halo_args": 1, "parse_modes": 1}


# Imports run one way ----------------------------------------------------------------


def _imported(module: str) -> set[str]:
    path = Path(jaxpad.__file__).parent / f"{module}.py"
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("jaxpad"):
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names if alias.name.startswith("jaxpad")}
    return names


def test_args_sits_below_the_pads_and_their_lowering():
    below = ("jaxpad._checks", "jaxpad._compat", "jaxpad._index_maps")
    assert all(name.startswith(below) for name in _imported("_args")), _imported("_args")
    for module in ("_checks", "_compat", "_index_maps"):
        assert not any("_args" in name for name in _imported(module)), module


# dynamic_pad: its arguments described once as a DynamicPadArgs ---------------------


@pytest.fixture
def described(monkeypatch):
    """The DynamicPadArgs each call builds, and the calls of the parsers and builders
    below them (a second pass through jaxpad.pad's checks would show as pad_args)."""
    built = []
    calls = {"parse_modes": 0, "pad_args": 0, "derived": 0, "derived_sides": 0}
    for name in calls:
        original = getattr(_args, name)

        def counting(*args, _name=name, _original=original, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(_args, name, counting)
    original_class = _args.DynamicPadArgs

    def building(*args, **kwargs):
        built.append(original_class(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(_args, "DynamicPadArgs", building)
    return built, calls


P = jnp.array([1, -2])


@pytest.mark.parametrize(
    "call,pieces",
    [
        (lambda x: jaxpad.dynamic_pad(x, [1, 2], (5, 7), "reflect"), {}),
        (lambda x: jaxpad.dynamic_pad(x, P, (5, 7), "wrap", max_pad=3), {}),
        (lambda x: jaxpad.dynamic_pad(x, [P[0], 2], (5, 7), "constant", 2.0), {}),
        # Per side, static: the static primitive's pad is a derived piece.
        (
            lambda x: jaxpad.dynamic_pad(x, [1, 2], (5, 7), ["wrap", "dirichlet"], 2.0),
            {"derived": 1},
        ),
        # Per side, traced: the composition, no static piece.
        (
            lambda x: jax.jit(
                lambda p: jaxpad.dynamic_pad(x, p, (5, 7), [("edge", "wrap"), "symmetric_odd"])
            )(P),
            {},
        ),
        # Face arrays, static: not split and converted again; extended by derived pads.
        (
            lambda x: jaxpad.dynamic_pad(x, [1, 2], (5, 7), "dirichlet", FACE),
            {"derived_sides": 1, "derived": 2},
        ),
        (lambda x: jax.jit(lambda p: jaxpad.dynamic_pad(x, p, (5, 7), "dirichlet", FACE))(P), {}),
        # Under vmap, with per-example pads, and differentiated.
        (
            lambda x: jax.vmap(lambda r, p: jaxpad.dynamic_pad(r, p, (6,), "wrap"))(
                x, jnp.arange(3)[:, None]
            ),
            {},
        ),
        (
            lambda x: jax.vmap(
                lambda r, p: jaxpad.dynamic_pad(r, p, (6,), [("edge", "constant")], 1.0)
            )(x, jnp.arange(3)[:, None]),
            {},
        ),
        (jax.grad(lambda x: jaxpad.dynamic_pad(x, P, (5, 7), "symmetric").sum()), {}),
    ],
)
def test_dynamic_pad_describes_its_arguments_once(described, call, pieces):
    built, calls = described
    jax.make_jaxpr(call)(X)
    assert len(built) == 1
    assert calls == {"parse_modes": 1, "pad_args": 0, "derived": 0, "derived_sides": 0, **pieces}


def test_dynamic_pad_descriptions_are_equal_and_hashable_across_spellings(described):
    built, _ = described
    jaxpad.dynamic_pad(X, [1, 2], (5, 7), "wrap")
    jaxpad.dynamic_pad(X, np.array([1, 2]), [5, 7], ("wrap", "wrap"), max_pad=None)
    jaxpad.dynamic_pad(X, (1, 2), (5, 7), "wrap", max_pad=[None, None])
    jaxpad.dynamic_pad(X, [1, 2], (5, 7), "reflect")
    jaxpad.dynamic_pad(X, [1, 2], (5, 7), ["edge", ("wrap", "constant")])
    jaxpad.dynamic_pad(X, [1, 2], (5, 7), [("edge", "edge"), ("wrap", "constant")])
    wrap, *same, reflect, sided, sided_again = built
    assert all(other == wrap for other in same) and len({hash(d) for d in same + [wrap]}) == 1
    assert reflect != wrap and sided == sided_again and hash(sided) == hash(sided_again)
    assert not wrap.per_side and wrap.static_pads == (1, 2) and wrap.max_pad == (None, None)
    assert sided.per_side and sided.mode == (("edge", "edge"), ("wrap", "constant"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        wrap.mode = "edge"  # type: ignore[misc]


# nn.conv and conv_transpose: the planner's pads are derived pieces ----------------


@pytest.mark.parametrize(
    "call",
    [
        lambda x, k: nn.conv(x, k, 1, policies.torch(1), "reflect"),
        lambda x, k: nn.conv(x, k, 2, policies.tensorflow("SAME"), "edge"),
        lambda x, k: nn.conv(x, k, 1, policies.flax("CIRCULAR")),
        lambda x, k: nn.conv_transpose(x, k, 2, policies.torch(1), pad_mode="symmetric"),
        lambda x, k: nn.conv_transpose(x, k, 1, policies.flax("CIRCULAR")),
        jax.grad(lambda x, k: nn.conv(x, k, 1, policies.torch((2, 1)), "wrap").sum()),
    ],
)
def test_conv_pads_are_not_checked_again(monkeypatch, call):
    calls = {"parse_modes": 0, "pad_args": 0, "derived": 0}
    for name in calls:
        original = getattr(_args, name)

        def counting(*args, _name=name, _original=original, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(_args, name, counting)
    modes = []
    resolve = _window_ops.resolve_mode
    monkeypatch.setattr(
        _window_ops, "resolve_mode", lambda *a: modes.append(resolve(*a)) or modes[-1]
    )
    jax.make_jaxpr(call)(jnp.ones((2, 3, 6, 5)), jnp.ones((3, 3, 3, 3)))
    # The op reads its mode once; every pad the planner builds (a padded input, the
    # strips of a border, the transposed conv's fold) is a derived piece.
    assert len(modes) == 1
    assert calls["parse_modes"] == calls["pad_args"] == 0 and calls["derived"] >= 1
