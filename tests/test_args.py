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
from jaxpad import _args, nn, policies

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


def test_dynamic_pads_static_per_side_pad_is_not_checked_again(counted):
    # dynamic_pad checks its own arguments (no PadArgs: its pads may be traced); its
    # static per-side pad is a derived piece, not a second call of jaxpad.pad.
    jax.make_jaxpr(lambda x: jaxpad.dynamic_pad(x, [1, 2], (5, 7), ["wrap", "dirichlet"], 2.0))(X)
    assert counted == {"pad_args": 0, "halo_args": 0, "parse_modes": 1}
