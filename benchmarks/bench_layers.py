"""A training step with Flax's and Equinox's conv layers against jaxpad's drop-ins.

    python -m benchmarks.bench_layers [--rounds 20] [--batch 8] [--size 64] [--width 16]

The network maps an image to an image: three 3x3 convolutions (3 -> width -> width ->
3 channels) with ReLUs, every one padded CIRCULAR (or REFLECT) to keep the size. One
step is the forward pass, an MSE loss, its gradient and an SGD update, jitted. The
original layer (``flax.nnx.Conv`` / ``equinox.nn.Conv2d``, which pad with ``jnp.pad``)
and jaxpad's (``jaxpad.flax.Conv`` / ``jaxpad.equinox.Conv``) run with the same
parameters, interleaved in rounds (medians). The padding's share of a step is timed
on its own: the three pads of the step (forward) and the two whose input gradient the
step needs (VJP), at the step's shapes, with ``jnp.pad`` and with ``jaxpad.pad``,
divided by the step's time. Zero padding (done by the convolution itself, no padded
copy) is shown for reference.
"""

from __future__ import annotations

import argparse
import subprocess

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx

import jaxpad.equinox
import jaxpad.flax
from benchmarks._timing import allocator, interleaved_medians, machine, parse_args_pinned

LEARNING_RATE = 1e-3


def flax_net(conv_cls, padding, width):
    rngs = nnx.Rngs(0)
    return nnx.List(
        [
            conv_cls(3, width, (3, 3), padding=padding, rngs=rngs),
            conv_cls(width, width, (3, 3), padding=padding, rngs=rngs),
            conv_cls(width, 3, (3, 3), padding=padding, rngs=rngs),
        ]
    )


def flax_step(net):
    graphdef, params = nnx.split(net)

    def loss(params, x, target):
        layers = nnx.merge(graphdef, params)
        for layer in layers[:-1]:
            x = jax.nn.relu(layer(x))
        return jnp.mean((layers[-1](x) - target) ** 2)

    @jax.jit
    def step(params, x, target):
        value, grads = jax.value_and_grad(loss)(params, x, target)
        return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads), value

    return step, params


def equinox_net(conv_cls, mode, width):
    keys = jax.random.split(jax.random.key(0), 3)
    return [
        conv_cls(2, 3, width, 3, padding=1, padding_mode=mode, key=keys[0]),
        conv_cls(2, width, width, 3, padding=1, padding_mode=mode, key=keys[1]),
        conv_cls(2, width, 3, 3, padding=1, padding_mode=mode, key=keys[2]),
    ]


def equinox_step(net):
    def loss(net, x, target):
        def one(x):
            for layer in net[:-1]:
                x = jax.nn.relu(layer(x))
            return net[-1](x)

        return jnp.mean((jax.vmap(one)(x) - target) ** 2)

    @eqx.filter_jit
    def step(net, x, target):
        value, grads = eqx.filter_value_and_grad(loss)(net, x, target)
        return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, net, grads), value

    return step, net


def padding_only(pad, shapes):
    """The step's padding alone, as two programs: each conv input padded (forward),
    and the VJP of the pads whose input the step differentiates (all but the first:
    x is not a parameter), with cotangents of their own. Two programs, because XLA
    schedules a pad and the fold of the same input in one program together, which
    the step (convolutions in between) does not."""

    @jax.jit
    def forward(arrays):
        return [pad(a) for a in arrays]

    @jax.jit
    def backward(arrays, cotangents):
        return [jax.vjp(pad, a)[1](t)[0] for a, t in zip(arrays[1:], cotangents[1:])]

    arrays = tuple(jnp.ones(shape, jnp.float32) for shape in shapes)
    cotangents = tuple(jnp.ones(pad(a).shape, jnp.float32) for a in arrays)
    return (forward, (arrays,)), (backward, (arrays, cotangents))


def pad_candidates(shapes, spatial_axes):
    ndim = len(shapes[0])
    lo = [1 if a in spatial_axes else 0 for a in range(ndim)]
    widths = [(p, p) for p in lo]
    builds = {}
    for mode, name in (("wrap", "circular"), ("reflect", "reflect")):
        for label, pad in (
            (f"jnp.pad {name}", lambda a, mode=mode: jnp.pad(a, widths, mode=mode)),
            (f"jaxpad.pad {name}", lambda a, mode=mode: jaxpad.pad(a, lo, lo, mode)),
        ):
            builds[f"{label} fwd"], builds[f"{label} vjp"] = padding_only(pad, shapes)
    return builds


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run_framework(name, builds, x, target, rounds, pads):
    """Times one step per candidate and the padding alone (interleaved); checks that
    the losses agree."""
    candidates, args_for, losses = {}, {}, {}
    for label, (step, params) in builds.items():
        candidates[label] = step
        args_for[label] = (params, x, target)
        losses[label] = float(step(params, x, target)[1])
    for label, (run, arrays) in pads.items():
        candidates[label] = run
        args_for[label] = arrays
    medians = interleaved_medians(candidates, args_for, rounds=rounds, warmup=2, calls=3)
    for mode in ("circular", "reflect"):
        a, b = losses[f"original {mode}"], losses[f"jaxpad {mode}"]
        assert abs(a - b) <= 1e-5 * max(abs(a), 1.0), (name, mode, a, b)
    return medians


def report(name, medians):
    zeros = medians["original zeros"]
    print(f"\n{name}: median ms per training step")
    print(
        "| padding | original ms | jaxpad ms | original / jaxpad "
        "| jnp.pad alone ms (share) | jaxpad.pad alone ms (share) |"
    )
    print("|---|---|---|---|---|---|")
    for mode in ("circular", "reflect"):
        ours, orig = medians[f"jaxpad {mode}"], medians[f"original {mode}"]
        jnp_pad = medians[f"jnp.pad {mode} fwd"] + medians[f"jnp.pad {mode} vjp"]
        jaxpad_pad = medians[f"jaxpad.pad {mode} fwd"] + medians[f"jaxpad.pad {mode} vjp"]
        print(
            f"| {mode} | {orig * 1e3:.2f} | {ours * 1e3:.2f} | {orig / ours:.2f} | "
            f"{jnp_pad * 1e3:.2f} ({jnp_pad / orig:.0%}) | "
            f"{jaxpad_pad * 1e3:.2f} ({jaxpad_pad / ours:.0%}) |"
        )
    print(f"| zeros (conv's own padding) | {zeros * 1e3:.2f} | | | | |")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--width", type=int, default=16)
    args = parse_args_pinned(parser)
    rng = np.random.default_rng(0)
    shape = (args.batch, args.size, args.size, 3)
    x = jnp.asarray(rng.normal(size=shape), jnp.float32)
    target = jnp.asarray(rng.normal(size=shape), jnp.float32)
    print(f"{machine()}; malloc {allocator()}; {args.rounds} interleaved rounds")
    print(f"batch {args.batch}, {args.size}x{args.size}, width {args.width}, float32")
    print(f"load before: {uptime()}")

    def flax_build(cls, padding):
        return flax_step(flax_net(cls, padding, args.width))

    flax_builds = {
        "original circular": flax_build(nnx.Conv, "CIRCULAR"),
        "jaxpad circular": flax_build(jaxpad.flax.Conv, "CIRCULAR"),
        "original reflect": flax_build(nnx.Conv, "REFLECT"),
        "jaxpad reflect": flax_build(jaxpad.flax.Conv, "REFLECT"),
        "original zeros": flax_build(nnx.Conv, "SAME"),
    }
    b, n, w = args.batch, args.size, args.width
    pads = pad_candidates([(b, n, n, 3), (b, n, n, w), (b, n, n, w)], (1, 2))
    report("Flax nnx.Conv", run_framework("flax", flax_builds, x, target, args.rounds, pads))

    def eqx_build(cls, mode):
        return equinox_step(equinox_net(cls, mode, args.width))

    nchw_x, nchw_target = jnp.moveaxis(x, -1, 1), jnp.moveaxis(target, -1, 1)
    eqx_builds = {
        "original circular": eqx_build(eqx.nn.Conv, "CIRCULAR"),
        "jaxpad circular": eqx_build(jaxpad.equinox.Conv, "CIRCULAR"),
        "original reflect": eqx_build(eqx.nn.Conv, "REFLECT"),
        "jaxpad reflect": eqx_build(jaxpad.equinox.Conv, "REFLECT"),
        "original zeros": eqx_build(eqx.nn.Conv, "ZEROS"),
    }
    pads = pad_candidates([(b, 3, n, n), (b, w, n, n), (b, w, n, n)], (2, 3))
    medians = run_framework("equinox", eqx_builds, nchw_x, nchw_target, args.rounds, pads)
    report("Equinox eqx.nn.Conv", medians)
    print(f"\nload after: {uptime()}")


if __name__ == "__main__":
    main()
