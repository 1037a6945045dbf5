"""Padded convolutions against the zero-padded ``lax.conv`` of the same shape.

    python -m benchmarks.conv [--rounds 5] [--quick] [--pinned] [--cpu-time] [--layers] [--blocks]
                              [--step] [--transpose] [--guard] [--framed] [--stems]
                              [--phases]

Each row is one layer shape and pad mode. Its candidates run interleaved in one
process (``benchmarks/_timing.py``), forward and gradient (w.r.t. input and kernel, a
fixed cotangent), and are shown as ratios to ``zero``: ``lax.conv_general_dilated``
with the same kernel, strides, dilation and groups, padded with zeros by the
convolution itself (a zero-padded model of the same shape):

- ``zero2``: the same program again (the control column: what noise alone gives);
- ``jnp.pad``: ``jnp.pad`` in the mode, then a VALID conv (what Flax's and Equinox's
  layers do with REFLECT / CIRCULAR / REPLICATE);
- ``plain``: ``jaxpad.pad``, then a VALID conv (jaxpad before the conv planner);
- ``jaxpad``: ``jaxpad.nn.conv`` with the same pads and mode (the planner's form).

The C library's default allocator is kept (what users run): XLA:CPU's VALID conv
allocates a large temporary per call that the default allocator returns to the
system. ``--pinned`` re-executes with malloc pinned as the other benchmarks do, for
comparison. ``--layers`` times Flax's and Equinox's own layers (REFLECT, CIRCULAR,
REPLICATE) and a MobileNetV2 block (expand 1x1, depthwise 3x3, project 1x1) built of
``flax.nnx.Conv`` against the same built of jaxpad's layers, each as a ratio to the
layer with zero padding (for the block, Flax's own: the ``original`` column is then
a control); ``--blocks`` times the MobileNetV2 blocks alone. ``--step`` times a
CycleGAN ResNet-generator training step with its convolutions padded as Flax's
REFLECT, as ``jaxpad.nn.conv`` and with zeros. ``--transpose`` times
``jaxpad.nn.conv_transpose`` against the VJP of ``jaxpad.nn.conv`` (what it equals)
and the pools against the zero-padded ``lax.reduce_window``. ``--guard`` times the
gradients of the rows whose forms choose their exact derivatives at run time where an
operand is not finite, with that choice and without it; ``--framed`` the stride-1
3x3 input gradient with the framed tangent and without it, around that rule's bounds;
``--stems`` stems (3 input channels) with the banded value and the extra zero's;
``--phases`` strided transposed convolutions in lax's form, ``jaxpad.nn``'s and as
one stride-1 convolution per output phase (a prototype here, not in the library).

``--cpu-time`` times the process's CPU seconds per call (user and system, all its
threads) instead of the wall clock: on a machine shared with other jobs the wall
clock mostly measures waiting for a core (the control column read 0.5-2.8 at load
average 7-10), while the CPU time of the same program read 0.99-1.00. It counts
the page faults of the default allocator (system time) but not the wait for a core,
and a thread pool's spinning counts as work: a ratio of work, to read beside the
wall-clock run.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import jaxpad
from benchmarks._timing import PINNED_MALLOC, allocator, interleaved_medians, load, machine


def _cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cpu_medians(candidates, args_for, rounds=5, calls=2, warmup=3):
    """Median CPU seconds (user and system, every thread of this process) per call of
    each jitted candidate, interleaved as ``interleaved_medians`` does."""
    for _ in range(warmup):
        for name, fn in candidates.items():
            jax.block_until_ready(fn(*args_for[name]))
    seconds = {name: [] for name in candidates}
    names = list(candidates)
    order = np.random.default_rng(0)
    for _ in range(rounds):
        for index in order.permutation(len(names)):
            name = names[index]
            start = _cpu_seconds()
            for _ in range(calls):
                jax.block_until_ready(candidates[name](*args_for[name]))
            seconds[name].append((_cpu_seconds() - start) / calls)
    return {name: float(np.median(values)) for name, values in seconds.items()}


# Wall clock by default; main() swaps in cpu_medians for --cpu-time.
medians = interleaved_medians

# (name, layout, batch, spatial, in features, out features, kernel, strides, dilation,
#  groups, mode). Spatial sizes and batches are small enough for a 2-core machine.
SWEEP = [
    ("2d 64ch 3x3", "NHWC", 8, (64, 64), 64, 64, 3, 1, 1, 1, "reflect"),
    ("2d 64ch 3x3", "NHWC", 8, (64, 64), 64, 64, 3, 1, 1, 1, "wrap"),
    ("2d 32ch 3x3", "NHWC", 8, (32, 32), 32, 32, 3, 1, 1, 1, "edge"),
    ("2d 128ch 3x3", "NHWC", 4, (32, 32), 128, 128, 3, 1, 1, 1, "symmetric"),
    ("2d 3->64 7x7", "NHWC", 4, (64, 64), 3, 64, 7, 1, 1, 1, "reflect"),
    ("2d 3->32 3x3", "NHWC", 8, (64, 64), 3, 32, 3, 1, 1, 1, "wrap"),
    ("2d 64ch 3x3 NCHW", "NCHW", 8, (64, 64), 64, 64, 3, 1, 1, 1, "reflect"),
    ("2d 64ch 3x3 s2", "NHWC", 8, (64, 64), 64, 64, 3, 2, 1, 1, "reflect"),
    ("2d 256ch 1x1", "NHWC", 8, (16, 16), 256, 256, 1, 1, 1, 1, "reflect"),
    ("2d 16->96 1x1", "NHWC", 8, (56, 56), 16, 96, 1, 1, 1, 1, "reflect"),
    ("2d 64ch 3x3 d2", "NHWC", 8, (32, 32), 64, 64, 3, 1, 2, 1, "reflect"),
    ("2d 64ch 3x3 VALID", "NHWC", 8, (64, 64), 64, 64, 3, 1, 1, 1, "valid"),
    # XLA:CPU's grouped kernel gradient is slow (5.5 s at (8, 32, 32, 128)): kept small.
    ("2d grouped 16x4", "NHWC", 2, (16, 16), 64, 64, 3, 1, 1, 16, "reflect"),
    ("2d grouped 8x8 NCHW", "NCHW", 2, (16, 16), 64, 64, 3, 1, 1, 8, "wrap"),
    ("2d dw 64 3x3", "NHWC", 8, (64, 64), 64, 64, 3, 1, 1, 64, "reflect"),
    ("2d dw 64 3x3 zeros", "NHWC", 8, (64, 64), 64, 64, 3, 1, 1, 64, "constant"),
    ("2d dw 256 5x5", "NHWC", 8, (16, 16), 256, 256, 5, 1, 1, 256, "wrap"),
    ("2d dw 144 7x7", "NHWC", 4, (28, 28), 144, 144, 7, 1, 1, 144, "reflect"),
    ("2d dw 64 3x3 NCHW", "NCHW", 8, (32, 32), 64, 64, 3, 1, 1, 64, "edge"),
    ("2d dw 64 3x3 s2", "NHWC", 8, (64, 64), 64, 64, 3, 2, 1, 64, "reflect"),
    ("1d 64ch k5", "NWC", 16, (256,), 64, 64, 5, 1, 1, 1, "reflect"),
    ("1d dw 64 k7", "NWC", 16, (256,), 64, 64, 7, 1, 1, 64, "wrap"),
    ("3d 16ch 3x3x3", "NDHWC", 2, (16, 16, 16), 16, 16, 3, 1, 1, 1, "reflect"),
    # A stem at four times the area, in edge mode.
    ("2d 3->64 7x7 128", "NHWC", 4, (128, 128), 3, 64, 7, 1, 1, 1, "edge"),
]

QUICK = [0, 4, 7, 9, 12, 17]

LAYOUTS = {
    "NHWC": ("NHWC", "HWIO", "NHWC"),
    "NCHW": ("NCHW", "OIHW", "NCHW"),
    "NWC": ("NWC", "WIO", "NWC"),
    "NDHWC": ("NDHWC", "DHWIO", "NDHWC"),
}


def _case(layout, batch, spatial, cin, cout, k, s, d, groups, mode):
    dn = LAYOUTS[layout]
    rank = len(spatial)
    x_shape = (batch, *spatial, cin) if layout[-1] == "C" else (batch, cin, *spatial)
    k_shape = (
        (k,) * rank + (cin // groups, cout)
        if dn[1][0] != "O"
        else (cout, cin // groups) + (k,) * rank
    )
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal(x_shape), jnp.float32)
    kernel = jnp.asarray(rng.standard_normal(k_shape) * 0.1, jnp.float32)
    numbers = lax.conv_dimension_numbers(x_shape, k_shape, dn)
    span = d * (k - 1) + 1
    p = 0 if mode == "valid" else (span - 1) // 2
    pads = [(p, span - 1 - p)] * rank if mode != "valid" else [(0, 0)] * rank
    strides, dil = (s,) * rank, (d,) * rank
    common = dict(rhs_dilation=dil, dimension_numbers=numbers, feature_group_count=groups)
    jmode = "constant" if mode == "valid" else mode

    def zero(x, kernel):
        return lax.conv_general_dilated(x, kernel, strides, pads, **common)

    def widths():
        lo = [(0, 0)] * x.ndim
        for axis, pair in zip(numbers.lhs_spec[2:], pads):
            lo[axis] = pair
        return lo

    def jnp_pad(x, kernel):
        padded = jnp.pad(x, widths(), jmode)
        return lax.conv_general_dilated(padded, kernel, strides, "VALID", **common)

    def plain(x, kernel):
        w = widths()
        padded = jaxpad.pad(x, [a for a, _ in w], [b for _, b in w], jmode)
        return lax.conv_general_dilated(padded, kernel, strides, "VALID", **common)

    policy = jaxpad.policies.torch([lo for lo, _ in pads])

    def ours(x, kernel):
        return jaxpad.nn.conv(x, kernel, strides, policy, jmode, dil, numbers, groups)

    return (
        x,
        kernel,
        {"zero": zero, "zero2": zero, "jnp.pad": jnp_pad, "plain": plain, "jaxpad": ours},
    )


def _gradient(f, x, kernel, input_only=False):
    ct = jnp.asarray(
        np.random.default_rng(1).standard_normal(jax.eval_shape(f, x, kernel).shape), jnp.float32
    )

    def g(x, kernel, ct):
        if input_only:
            return jax.vjp(lambda x: f(x, kernel), x)[1](ct)
        _, vjp = jax.vjp(f, x, kernel)
        return vjp(ct)

    return jax.jit(g), ct


def run(rows, rounds):
    results = []
    for name, *spec in rows:
        x, kernel, fns = _case(*spec)
        expected = fns["plain"](x, kernel)
        np.testing.assert_allclose(fns["jaxpad"](x, kernel), expected, rtol=2e-3, atol=2e-3)
        fwd = {n: jax.jit(f) for n, f in fns.items()}
        m = medians(fwd, {n: (x, kernel) for n in fwd}, rounds=rounds, calls=2)
        grads = {}
        args = {}
        for n, f in fns.items():
            grads[n], ct = _gradient(f, x, kernel)
            args[n] = (x, kernel, ct)
        g = medians(grads, args, rounds=max(rounds - 1, 2), calls=2)
        row = (name, spec[-1], m, g)
        results.append(row)
        _print_row(row)
    return results


def _print_row(row):
    name, mode, m, g = row
    cells = []
    for table in (m, g):
        base = table["zero"]
        cells += [f"{table[n] / base:.2f}" for n in ("zero2", "jnp.pad", "plain", "jaxpad")]
    print(
        f"| {name} | {mode} | {m['zero'] * 1e3:.2f} | {g['zero'] * 1e3:.2f} | "
        + " | ".join(cells)
        + " |",
        flush=True,
    )


def summary(results):
    for kind, index in (("forward", 2), ("gradient", 3)):
        ratios = {r[0] + " " + r[1]: r[index]["jaxpad"] / r[index]["zero"] for r in results}
        today = [r[index]["plain"] / r[index]["zero"] for r in results]
        values = np.array(list(ratios.values()))
        worst = sorted(ratios.items(), key=lambda kv: -kv[1])[:5]
        print(
            f"{kind}: jaxpad / zero median {np.median(values):.2f}, p90 "
            f"{np.percentile(values, 90):.2f}, max {values.max():.2f}; "
            f"before the planner (plain) median {np.median(today):.2f}, max {max(today):.2f}"
        )
        print("  worst five: " + ", ".join(f"{n} {v:.2f}" for n, v in worst))


def _steps(fwd, params):
    """A layer's forward, its gradient w.r.t. the parameters and the input (a step
    that trains it and the layers before it), and w.r.t. the parameters alone (a
    first layer's step), each jitted, and its parameters."""

    def loss(p, x):
        return jnp.sum(fwd(p, x) ** 2)

    both = jax.jit(jax.grad(loss, (0, 1)))
    return jax.jit(fwd), both, jax.jit(jax.grad(loss)), params


def _layer_rows(rounds, blocks_only=False):
    """Flax's and Equinox's layers against jaxpad's, and against the same layer with
    zero padding: forward, a gradient step w.r.t. parameters and input, and one
    w.r.t. the parameters alone."""
    import equinox as eqx
    from flax import nnx

    import jaxpad.equinox
    import jaxpad.flax

    def flax_fns(layer):
        graphdef, params = nnx.split(layer)

        def fwd(params, x):
            return nnx.merge(graphdef, params)(x)

        return _steps(fwd, params)

    def eqx_fns(layer):
        params, static = eqx.partition(layer, eqx.is_array)

        def fwd(params, x):
            return jax.vmap(eqx.combine(params, static))(x)

        return _steps(fwd, params)

    def mobilenet(conv_cls, c, rngs):
        expand = conv_cls(c, 6 * c, (1, 1), rngs=rngs)
        depthwise = conv_cls(
            6 * c, 6 * c, (3, 3), padding="SAME", feature_group_count=6 * c, rngs=rngs
        )
        project = conv_cls(6 * c, c, (1, 1), rngs=rngs)
        return nnx.List([expand, depthwise, project])

    def block_fns(block):
        graphdef, params = nnx.split(block)

        def fwd(params, x):
            expand, depthwise, project = nnx.merge(graphdef, params)
            return x + project(jax.nn.relu6(depthwise(jax.nn.relu6(expand(x)))))

        return _steps(fwd, params)

    rows = []
    rng = np.random.default_rng(0)
    for c in () if blocks_only else (32, 64):
        x = jnp.asarray(rng.standard_normal((8, 64, 64, c)), jnp.float32)
        for padding in ("REFLECT", "CIRCULAR"):
            fns = {
                "zero": flax_fns(nnx.Conv(c, c, (3, 3), padding="SAME", rngs=nnx.Rngs(0))),
                "original": flax_fns(nnx.Conv(c, c, (3, 3), padding=padding, rngs=nnx.Rngs(0))),
                "jaxpad": flax_fns(
                    jaxpad.flax.Conv(c, c, (3, 3), padding=padding, rngs=nnx.Rngs(0))
                ),
            }
            rows.append((f"flax Conv {c}ch", padding, fns, x))
        xc = jnp.moveaxis(x, -1, 1)
        for mode in ("REFLECT", "REPLICATE"):
            key = jax.random.key(0)
            fns = {
                "zero": eqx_fns(eqx.nn.Conv2d(c, c, 3, padding=1, key=key)),
                "original": eqx_fns(eqx.nn.Conv2d(c, c, 3, padding=1, padding_mode=mode, key=key)),
                "jaxpad": eqx_fns(
                    jaxpad.equinox.Conv(2, c, c, 3, padding=1, padding_mode=mode, key=key)
                ),
            }
            rows.append((f"equinox Conv2d {c}ch", mode, fns, xc))
    for c, size in ((16, 56), (32, 56), (64, 28)):
        x = jnp.asarray(rng.standard_normal((8, size, size, c)), jnp.float32)
        fns = {
            "zero": block_fns(mobilenet(nnx.Conv, c, nnx.Rngs(0))),
            "original": block_fns(mobilenet(nnx.Conv, c, nnx.Rngs(0))),
            "jaxpad": block_fns(mobilenet(jaxpad.flax.Conv, c, nnx.Rngs(0))),
        }
        rows.append((f"MobileNetV2 block {c}->{6 * c}", "zeros", fns, x))
    print(
        "| layer | mode | zero fwd ms | zero step ms | zero params ms | fwd original "
        "| fwd jaxpad | step original | step jaxpad | params original | params jaxpad "
        "| step original / jaxpad | params original / jaxpad |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, mode, fns, x in rows:
        args = {n: (p, x) for n, (*_, p) in fns.items()}
        m, g, q = (
            medians({n: f[i] for n, f in fns.items()}, args, rounds=rounds, calls=2)
            for i in range(3)
        )
        print(
            f"| {name} | {mode} | {m['zero'] * 1e3:.2f} | {g['zero'] * 1e3:.2f} | "
            f"{q['zero'] * 1e3:.2f} | "
            + " | ".join(
                f"{t[n] / t['zero']:.2f}" for t in (m, g, q) for n in ("original", "jaxpad")
            )
            + f" | {g['original'] / g['jaxpad']:.2f} | {q['original'] / q['jaxpad']:.2f} |",
            flush=True,
        )


def _generator_step(rounds, batch=8, size=64, channels=32, blocks=6):
    """A CycleGAN ResNet-generator training step (per residual block two reflect-padded
    3x3 convolutions with instance norm; MSE loss; SGD), with each conv written as
    Flax's ``padding="REFLECT"`` does it (``jnp.pad``, then a VALID conv), as
    ``jaxpad.nn.conv``, and with zero padding."""
    dn = ("NHWC", "HWIO", "NHWC")
    policy = jaxpad.policies.torch(1)

    def flax_reflect(x, kernel):
        padded = jnp.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), mode="reflect")
        return lax.conv_general_dilated(padded, kernel, (1, 1), "VALID", dimension_numbers=dn)

    def ours(x, kernel):
        return jaxpad.nn.conv(x, kernel, 1, policy, "reflect", dimension_numbers=dn)

    def zero(x, kernel):
        return lax.conv_general_dilated(x, kernel, (1, 1), "SAME", dimension_numbers=dn)

    def make_step(conv):
        def norm(x):
            mean = x.mean(axis=(1, 2), keepdims=True)
            return (x - mean) * lax.rsqrt(x.var(axis=(1, 2), keepdims=True) + 1e-5)

        def loss(params, x, target):
            for first, second in params:
                y = jax.nn.relu(norm(conv(x, first)))
                x = x + norm(conv(y, second))
            return jnp.mean((x - target) ** 2)

        @jax.jit
        def step(params, x, target):
            value, grads = jax.value_and_grad(loss)(params, x, target)
            return jax.tree.map(lambda p, g: p - 1e-2 * g, params, grads), value

        return step

    rng = np.random.default_rng(3)
    shape = (batch, size, size, channels)
    params = [
        tuple(
            jnp.asarray(rng.normal(size=(3, 3, channels, channels)) * 0.05, jnp.float32)
            for _ in range(2)
        )
        for _ in range(blocks)
    ]
    x = jnp.asarray(rng.standard_normal(shape), jnp.float32)
    target = jnp.asarray(rng.standard_normal(shape), jnp.float32)
    steps = {"zero": make_step(zero), "flax REFLECT": make_step(flax_reflect)}
    steps["jaxpad"] = make_step(ours)
    np.testing.assert_allclose(
        steps["jaxpad"](params, x, target)[1],
        steps["flax REFLECT"](params, x, target)[1],
        rtol=1e-4,
    )
    m = medians(steps, {n: (params, x, target) for n in steps}, rounds=rounds, calls=1)
    print(f"ResNet generator step, {blocks} blocks, input {shape}:")
    for name in steps:
        print(f"  {name}: {m[name] * 1e3:.1f} ms, {m[name] / m['zero']:.2f}x zero padding")
    print(f"  Flax REFLECT / jaxpad: {m['flax REFLECT'] / m['jaxpad']:.2f}x")


def _transpose_and_pools(rounds, batch=8, size=64, channels=64):
    """``jaxpad.nn.conv_transpose`` against the VJP of ``jaxpad.nn.conv`` with the same
    policy and mode (what it equals), and ``jaxpad.nn.avg_pool`` / ``max_pool`` against
    the zero-padded ``lax.reduce_window`` of the same window; forward and gradient."""
    dn = ("NHWC", "HWIO", "NHWC")
    rng = np.random.default_rng(4)
    x = jnp.asarray(rng.standard_normal((batch, size, size, channels)), jnp.float32)
    kernel = jnp.asarray(rng.standard_normal((3, 3, channels, channels)) * 0.1, jnp.float32)
    policy = jaxpad.policies.torch(1)
    print("| op | mode | stride | reference ms | reference2 | jaxpad |")
    print("|---|---|---|---|---|---|")
    for stride in (1, 2):
        for mode in ("reflect", "constant"):

            def conv(x, mode=mode, stride=stride):
                return jaxpad.nn.conv(x, kernel, stride, policy, mode, dimension_numbers=dn)

            y = jax.eval_shape(conv, x)
            ct = jnp.asarray(rng.standard_normal(y.shape), jnp.float32)

            def vjp(ct, conv=conv):
                return jax.vjp(conv, x)[1](ct)[0]

            def transposed(ct, mode=mode, stride=stride):
                # The rows the strided forward conv skipped: output_padding.
                extra = (size + 2 - 3) % stride
                return jaxpad.nn.conv_transpose(
                    ct, kernel, stride, policy, extra, None, dn, True, mode
                )

            np.testing.assert_allclose(transposed(ct), vjp(ct), rtol=2e-3, atol=2e-3)
            made = {"reference": vjp, "reference2": vjp, "jaxpad": transposed}
            # Each in each place of the order the programs are made in, the median
            # over the three: with the default allocator the third of three identical
            # programs ran 1.4-1.6x slower than the first (stride 2, zeros), whichever
            # was third.
            ms = []
            for turn in range(3):
                names = [*made][turn:] + [*made][:turn]
                fns = {n: jax.jit(lambda ct, f=made[n]: f(ct)) for n in names}
                ms.append(medians(fns, {n: (ct,) for n in fns}, rounds=rounds, calls=2))
            m = {n: float(np.median([m[n] for m in ms])) for n in made}
            ratio = {n: float(np.median([m[n] / m["reference"] for m in ms])) for n in made}
            print(
                f"| conv_transpose / conv's VJP | {mode} | {stride} | "
                f"{m['reference'] * 1e3:.2f} | {ratio['reference2']:.2f} | "
                f"{ratio['jaxpad']:.2f} |",
                flush=True,
            )
    window, strides = (1, 3, 3, 1), (1, 1, 1, 1)
    zero_pads = ((0, 0), (1, 1), (1, 1), (0, 0))
    for name, pool, init, op in (
        ("avg_pool", jaxpad.nn.avg_pool, 0.0, lax.add),
        ("max_pool", jaxpad.nn.max_pool, -jnp.inf, lax.max),
    ):

        def zero(x, init=init, op=op):
            return lax.reduce_window(x, init, op, window, strides, zero_pads)

        def ours(x, pool=pool):
            return pool(x, window, strides, jaxpad.policies.torch([1, 1]), "reflect")

        for kind in ("fwd", "grad"):
            if kind == "fwd":
                fns = {"reference": jax.jit(zero), "reference2": jax.jit(zero)}
                fns["jaxpad"] = jax.jit(ours)
            else:
                fns = {
                    n: jax.jit(jax.grad(lambda x, f=f: jnp.sum(jnp.sin(f(x)))))
                    for n, f in (("reference", zero), ("reference2", zero), ("jaxpad", ours))
                }
            m = medians(fns, {n: (x,) for n in fns}, rounds=rounds, calls=2)
            print(
                f"| {name} 3x3 {kind} / zero-padded reduce_window | reflect | 1 | "
                f"{m['reference'] * 1e3:.2f} | {m['reference2'] / m['reference']:.2f} | "
                f"{m['jaxpad'] / m['reference']:.2f} |",
                flush=True,
            )


# The sweep's rows whose plans take a guarded form (jaxpad/_lowering/conv/_guard.py:
# the strided border and ghost forms, the block-diagonal input gradient), and two
# grouped rows larger than the sweep's.
GUARDED_ROWS = [
    *(
        row
        for row in SWEEP
        if row[0] in ("2d 64ch 3x3 s2", "2d grouped 16x4", "2d grouped 8x8 NCHW")
    ),
    ("2d 64ch 3x3 s2 odd", "NHWC", 8, (65, 65), 64, 64, 3, 2, 1, 1, "reflect"),
    ("2d grouped 16x4 large", "NHWC", 8, (64, 64), 64, 64, 3, 1, 1, 16, "reflect"),
    ("2d grouped 8x8 large", "NHWC", 8, (32, 32), 64, 64, 3, 1, 1, 8, "wrap"),
]


def _guard_rows(rounds):
    """The gradient (w.r.t. input and kernel) of ``jaxpad.nn.conv`` with its run-time
    choice of exact derivatives where an operand is not finite (``on``, twice: the
    control), and built without it (``off``: the fast forms alone, the library
    before the choice), as ratios to ``off``."""
    from jaxpad._lowering.conv import _guard

    choice = _guard._choice
    print("| shape | mode | off ms | on2 / off (control) | on / off |")
    print("|---|---|---|---|---|")
    for name, *spec in GUARDED_ROWS:
        x, kernel, fns = _case(*spec)
        grads, args = {}, {}
        for label, guarded in (("off", False), ("on", True), ("on2", True)):
            _guard._choice = choice if guarded else (lambda fast, exact, check: fast)
            try:
                f, ct = _gradient(fns["jaxpad"], x, kernel)
                grads[label] = f.lower(x, kernel, ct).compile()
            finally:
                _guard._choice = choice
            args[label] = (x, kernel, ct)
        g = medians(grads, args, rounds=rounds, calls=2)
        print(
            f"| {name} | {spec[-1]} | {g['off'] * 1e3:.2f} | {g['on2'] / g['off']:.3f} "
            f"| {g['on'] / g['off']:.3f} |",
            flush=True,
        )


# Shapes (batch, spatial, features; 3x3, stride 1) for ``--framed``: channels last
# unless the layout says, around the framed rule's bounds.
FRAMED_ROWS = [
    ((8, 32, 32, 32), "reflect", "NHWC"),
    ((8, 32, 32, 32), "edge", "NHWC"),
    ((8, 64, 64, 48), "reflect", "NHWC"),
    ((8, 96, 96, 48), "reflect", "NHWC"),
    ((8, 64, 64, 56), "wrap", "NHWC"),
    ((8, 64, 64, 64), "reflect", "NHWC"),
    ((8, 64, 64, 64), "wrap", "NHWC"),
    ((8, 64, 64, 64), "edge", "NHWC"),
    ((8, 32, 32, 64), "wrap", "NHWC"),
    ((16, 32, 32, 64), "reflect", "NHWC"),
    ((8, 48, 48, 64), "reflect", "NHWC"),
    ((2, 64, 64, 64), "wrap", "NHWC"),
    ((4, 128, 128, 64), "reflect", "NHWC"),
    ((8, 64, 64, 80), "reflect", "NHWC"),
    ((8, 64, 64, 96), "reflect", "NHWC"),
    ((4, 32, 32, 128), "symmetric", "NHWC"),
    ((4, 64, 64, 128), "reflect", "NHWC"),
    ((2, 32, 32, 256), "reflect", "NHWC"),
    ((8, 64, 64, 64), "reflect", "NCHW"),
    ((8, 48, 48, 128), "edge", "NCHW"),
]


def _framed_rows(rounds):
    """The input's gradient of the planner's stride-1 3x3 form with the framed tangent
    and without it (the same value form, autodiff's derivatives), as ratios to the
    zero-padded conv's, and framed / unframed. The input's alone: the frame changes
    nothing else, and the kernel's gradient (5x the forward under XLA:CPU's YNNPACK
    convolutions) hid the difference in its noise."""
    from jaxpad._lowering.conv import ConvPlan, build_conv

    print(
        "| shape (N, H, W, C) | layout | mode | zero ms | control | framed | unframed "
        "| framed / unframed |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for (n, h, w, c), mode, layout in FRAMED_ROWS:
        x, kernel, fns = _case(layout, n, (h, w), c, c, 3, 1, 1, 1, mode)
        numbers = lax.conv_dimension_numbers(x.shape, kernel.shape, LAYOUTS[layout])
        value = "banded" if layout == "NHWC" and c <= 64 else "pad_slice"
        candidates = {"zero": fns["zero"], "zero2": fns["zero"]}
        for label, tangent in (("framed", "framed"), ("unframed", None)):
            plan = ConvPlan(value, 0, tangent=tangent)
            candidates[label] = (
                lambda plan: (
                    lambda x, k: build_conv(plan, x, k, (1, 1), [(1, 1), (1, 1)], mode, numbers)
                )
            )(plan)
        grads, args = {}, {}
        for label, f in candidates.items():
            grads[label], ct = _gradient(f, x, kernel, input_only=True)
            args[label] = (x, kernel, ct)
        g = medians(grads, args, rounds=rounds, calls=2)
        print(
            f"| {(n, h, w, c)} | {layout} | {mode} | {g['zero'] * 1e3:.2f} | "
            f"{g['zero2'] / g['zero']:.2f} | {g['framed'] / g['zero']:.2f} | "
            f"{g['unframed'] / g['zero']:.2f} | {g['framed'] / g['unframed']:.2f} |",
            flush=True,
        )


# Stems (batch, spatial, 3 input channels, outputs, window; stride 1) for ``--stems``.
STEM_ROWS = [
    ((4, 128, 128, 3), 64, 7, "edge"),
    ((4, 64, 64, 3), 64, 7, "reflect"),
    ((8, 224, 224, 3), 64, 7, "reflect"),
    ((4, 128, 128, 3), 64, 5, "edge"),
    ((8, 64, 64, 3), 32, 3, "wrap"),
]


def _stem_rows(rounds):
    """A stem's forward and gradient with the banded value and with the extra zero's
    (both with the rows' derivatives), as ratios to the zero-padded conv's."""
    from jaxpad._lowering.conv import ConvPlan, build_conv

    print(
        "| shape (N, H, W, C) | outputs | window | mode | zero fwd ms | fwd control "
        "| fwd pad_slice | fwd banded | grad control | grad pad_slice | grad banded |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (n, h, w, c), out, k, mode in STEM_ROWS:
        x, kernel, fns = _case("NHWC", n, (h, w), c, out, k, 1, 1, 1, mode)
        numbers = lax.conv_dimension_numbers(x.shape, kernel.shape, LAYOUTS["NHWC"])
        pads = [((k - 1) // 2, k // 2)] * 2
        candidates = {"zero": fns["zero"], "zero2": fns["zero"]}
        for form in ("pad_slice", "banded"):
            plan = ConvPlan(form, 0, tangent="rows")
            candidates[form] = (
                lambda plan: lambda x, k: build_conv(plan, x, k, (1, 1), pads, mode, numbers)
            )(plan)
        m = medians(
            {name: jax.jit(f) for name, f in candidates.items()},
            {name: (x, kernel) for name in candidates},
            rounds=rounds,
            calls=2,
        )
        grads, args = {}, {}
        for label, f in candidates.items():
            grads[label], ct = _gradient(f, x, kernel, input_only=True)
            args[label] = (x, kernel, ct)
        g = medians(grads, args, rounds=rounds, calls=2)
        cells = " | ".join(
            f"{t[name] / t['zero']:.2f}"
            for t in (m, g)
            for name in ("zero2", "pad_slice", "banded")
        )
        print(
            f"| {(n, h, w, c)} | {out} | {k}x{k} | {mode} | {m['zero'] * 1e3:.2f} | {cells} |",
            flush=True,
        )


def _phase_transposed(x, kernel, s, pads, numbers, out_size):
    """A prototype (NHWC/HWIO, 2-D, one stride ``s``): lax's transposed convolution
    (``lhs_dilation=s``, ``pads``) as ``s * s`` stride-1 convolutions of ``x``, one per
    output phase, each by the taps that reach that phase (no inserted zeros), their
    outputs interleaved."""
    sizes, window = x.shape[1:3], kernel.shape[:2]
    rows = []
    for rh in range(s):
        cols = []
        for rw in range(s):
            first, padding = [], []
            for a, r in ((0, rh), (1, rw)):
                lo = pads[a][0]
                t0 = (lo - r) % s
                taps = -(-(window[a] - t0) // s)
                low = -((r + t0 - lo) // s)
                padding.append((low, out_size[a] // s - sizes[a] - low + taps - 1))
                first.append(t0)
            sub = kernel[first[0] :: s, first[1] :: s]
            cols.append(
                lax.conv_general_dilated(x, sub, (1, 1), padding, dimension_numbers=numbers)
            )
        rows.append(jnp.stack(cols, axis=3))
    y = jnp.stack(rows, axis=2)
    n, qh, sh, qw, sw, c = y.shape
    return y.reshape(n, qh * sh, qw * sw, c)


# (batch, size, input features, output features, window, stride) for ``--phases``.
PHASE_ROWS = [
    (8, 32, 64, 64, 3, 2),
    (8, 32, 64, 64, 4, 2),
    (8, 64, 32, 32, 3, 2),
    (4, 16, 128, 64, 4, 2),
    (8, 32, 64, 64, 5, 2),
]


def _phase_rows(rounds):
    """Strided transposed convolutions (output twice the input, NHWC): lax's
    ``lhs_dilation`` form, ``jaxpad.nn.conv_transpose`` in zeros, and the phase
    prototype, forward and gradient (w.r.t. input and kernel), as ratios to lax's."""
    print(
        "| (N, H, C) -> O, window, stride | lax fwd ms | fwd control | fwd jaxpad "
        "| fwd phases | lax grad ms | grad control | grad jaxpad | grad phases |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for n, h, c, o, k, s in PHASE_ROWS:
        rng = np.random.default_rng(0)
        x = jnp.asarray(rng.standard_normal((n, h, h, c)), jnp.float32)
        kernel = jnp.asarray(rng.standard_normal((k, k, c, o)) * 0.1, jnp.float32)
        numbers = lax.conv_dimension_numbers(x.shape, kernel.shape, LAYOUTS["NHWC"])
        p = (k - 1) // 2
        lo = k - 1 - p
        pads = [(lo, s * h - ((h - 1) * s + 1) - lo + k - 1)] * 2
        out_size = (s * h, s * h)

        def lax_form(x, kernel):
            return lax.conv_general_dilated(
                x, kernel, (1, 1), pads, lhs_dilation=(s, s), dimension_numbers=numbers
            )

        def ours(x, kernel):
            # torch's ConvTranspose2d(k, stride=s, padding=p, output_padding=s+2p-k)
            policy = jaxpad.policies.torch(p)
            return jaxpad.nn.conv_transpose(
                x, kernel, s, policy, s + 2 * p - k, None, LAYOUTS["NHWC"], False, "constant"
            )

        def phases(x, kernel):
            return _phase_transposed(x, kernel, s, pads, numbers, out_size)

        expected = lax_form(x, kernel)
        np.testing.assert_allclose(phases(x, kernel), expected, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(ours(x, kernel), expected, rtol=1e-4, atol=1e-4)
        fns = {"lax": lax_form, "lax2": lax_form, "jaxpad": ours, "phases": phases}
        m = medians(
            {name: jax.jit(f) for name, f in fns.items()},
            {name: (x, kernel) for name in fns},
            rounds=rounds,
            calls=2,
        )
        grads = {
            name: jax.jit(jax.grad(lambda x, k, f=f: jnp.sum(f(x, k) ** 2), (0, 1)))
            for name, f in fns.items()
        }
        g = medians(grads, {name: (x, kernel) for name in fns}, rounds=rounds, calls=2)
        cells = [
            f"{t['lax'] * 1e3:.2f} | "
            + " | ".join(f"{t[name] / t['lax']:.2f}" for name in ("lax2", "jaxpad", "phases"))
            for t in (m, g)
        ]
        print(f"| ({n}, {h}, {c}) -> {o}, {k}x{k}, {s} | " + " | ".join(cells) + " |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="six rows only")
    parser.add_argument("--pinned", action="store_true", help="re-run with malloc pinned")
    parser.add_argument("--layers", action="store_true", help="Flax/Equinox layers only")
    parser.add_argument("--step", action="store_true", help="the ResNet generator step only")
    parser.add_argument("--blocks", action="store_true", help="the MobileNetV2 blocks only")
    parser.add_argument(
        "--transpose", action="store_true", help="conv_transpose and the pools only"
    )
    parser.add_argument(
        "--cpu-time", action="store_true", help="CPU seconds per call instead of the wall clock"
    )
    parser.add_argument(
        "--guard",
        action="store_true",
        help="the gradient with and without the run-time choice of exact derivatives",
    )
    parser.add_argument(
        "--framed",
        action="store_true",
        help="the stride-1 3x3 gradient with the framed tangent and without it",
    )
    parser.add_argument(
        "--stems",
        action="store_true",
        help="stems with the banded value and with the extra zero's",
    )
    parser.add_argument(
        "--phases",
        action="store_true",
        help="strided transposed convolutions: lax's, jaxpad's and by output phases",
    )
    args = parser.parse_args()
    if args.cpu_time:
        global medians
        medians = cpu_medians
    if args.pinned and allocator() != "pinned":
        os.execve(
            sys.executable,
            [sys.executable, "-m", "benchmarks.conv", *sys.argv[1:]],
            {**os.environ, **PINNED_MALLOC},
        )
    clock = "CPU seconds" if args.cpu_time else "wall clock"
    print(machine(), "|", allocator(), "malloc |", clock, "|", load())
    for flag, rows in (
        (args.phases, _phase_rows),
        (args.stems, _stem_rows),
        (args.framed, _framed_rows),
        (args.guard, _guard_rows),
    ):
        if flag:
            rows(args.rounds)
            print(load())
            return
    if args.layers or args.step or args.blocks or args.transpose:
        if args.transpose:
            _transpose_and_pools(args.rounds)
        if args.layers or args.blocks:
            _layer_rows(args.rounds, blocks_only=not args.layers)
        if args.step:
            _generator_step(args.rounds)
        print(load())
        return
    print(
        "| shape | mode | zero fwd ms | zero grad ms | fwd zero2 | fwd jnp.pad | fwd plain "
        "| fwd jaxpad | grad zero2 | grad jnp.pad | grad plain | grad jaxpad |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows = [SWEEP[i] for i in QUICK] if args.quick else SWEEP
    results = run(rows, args.rounds)
    summary(results)
    print(load())


if __name__ == "__main__":
    main()
