"""Pads inside larger jitted programs, where XLA fuses them into their consumers.

    python -m benchmarks.fused [--quick] [--sizes 64 256] [--workloads stencil5 heat]
                               [--hlo] [--out fused.json]

A 2-D float32 field of each size in ``benchmarks.cases.FUSED_SIZES``, padded on both
axes and fed to:

- ``stencil5``: the 5-point Laplacian (pad 1);
- ``stencil9``: a 9-point (3x3) stencil (pad 1);
- ``reduction``: the mean over one axis of the padded field (pad 3);
- ``elementwise``: tanh of the padded field, times 2, returned (pad 1);
- ``conv``: tanh of the padded field, then a 3x3 convolution (pad 1);
- ``alone``: the pad by itself (pad 1; not in the default list);
- ``several``: three pads of the same shape and widths in one program, each on its
  own input (as a network's layers pad theirs), channels-first
  (``benchmarks.cases.SEVERAL_CASES``); forward and VJP, against jnp.pad and
  against three times one pad's time;
- ``heat``: 100 explicit heat-equation steps in ``lax.scan`` (20 on fields over
  256x256), ``jax.value_and_grad`` of the final energy: periodic in x (wrap) and a
  Dirichlet wall in y built as jax-cfd builds it,
  ``2 * pad(constant) - pad(symmetric)``.

Every workload runs with every mode (heat with its own two), forward and the
gradient of the sum of squares, jaxpad against ``jnp.pad``, all four programs of a
case interleaved in one process, with the default allocator (``--pinned`` pins
malloc, benchmarks/_timing.py). ``--hlo`` prints what the
compiled CPU programs of the first case are made of.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import jaxpad
from benchmarks._timing import allocator, interleaved_medians, load, machine, parse_args_allocator
from benchmarks.cases import (
    FUSED_SIZES,
    FUSED_SIZES_QUICK,
    FUSED_WORKLOADS,
    HEAT_SIZES,
    HEAT_SIZES_QUICK,
    MODES,
    SEVERAL_CASES,
    SEVERAL_COUNT,
    heat_steps,
)

PADS = {"stencil5": 1, "stencil9": 1, "reduction": 3, "elementwise": 1, "conv": 1, "alone": 1}


def padders(mode):
    """(jaxpad, jnp.pad) padding both axes of a 2-D field by ``width``."""

    def ours(u, width):
        return jaxpad.pad(u, (width, width), (width, width), mode)

    def theirs(u, width):
        return jnp.pad(u, width, mode=mode)

    return {"jaxpad": ours, "jnp.pad": theirs}


def workload(name, pad):
    """The program of ``name`` with the padding function ``pad(u, width)``."""
    if name == "alone":

        def f(u):
            return pad(u, 1)

    elif name == "stencil5":

        def f(u):
            p = pad(u, 1)
            return p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * p[1:-1, 1:-1]

    elif name == "stencil9":
        weights = np.array([[1, 2, 1], [2, -12, 2], [1, 2, 1]], np.float32) / 4

        def f(u):
            p = pad(u, 1)
            n, m = u.shape
            return sum(weights[i, j] * p[i : i + n, j : j + m] for i in range(3) for j in range(3))

    elif name == "reduction":

        def f(u):
            return pad(u, 3).mean(axis=1)

    elif name == "elementwise":

        def f(u):
            return jnp.tanh(pad(u, 1)) * 2

    elif name == "conv":
        kernel = jnp.asarray(
            np.random.default_rng(0).standard_normal((3, 3, 1, 1)).astype(np.float32)
        )

        def f(u):
            p = jnp.tanh(pad(u, 1))[None, :, :, None]
            out = lax.conv_general_dilated(
                p, kernel, (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC")
            )
            return out[0, :, :, 0]

    else:
        raise ValueError(name)
    return f


def heat(pad_x, pad_y, steps):
    """``steps`` explicit heat steps; the loss is the final field's energy."""

    def step(u, _):
        p = pad_y(pad_x(u))
        lap = p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * p[1:-1, 1:-1]
        return u + 0.1 * lap, None

    def loss(u):
        u, _ = lax.scan(step, u, None, length=steps)
        return (u**2).sum()

    return jax.value_and_grad(loss)


def heat_programs(size):
    """The two heat flavours for jaxpad and jnp.pad."""
    steps = heat_steps(size)
    out = {}
    for library in ("jaxpad", "jnp.pad"):
        if library == "jaxpad":

            def pad_axis(u, axis, mode):
                begin = [0, 0]
                begin[axis] = 1
                return jaxpad.pad(u, begin, begin, mode)
        else:

            def pad_axis(u, axis, mode):
                widths = [(0, 0), (0, 0)]
                widths[axis] = (1, 1)
                return jnp.pad(u, widths, mode=mode)

        def periodic_x(u, pad_axis=pad_axis):
            return pad_axis(u, 1, "wrap")

        def periodic_y(u, pad_axis=pad_axis):
            return pad_axis(u, 0, "wrap")

        def wall_y(u, pad_axis=pad_axis):
            # jax-cfd's Dirichlet boundary at the cell faces: 2 * bc - mirror.
            return 2 * pad_axis(u, 0, "constant") - pad_axis(u, 0, "symmetric")

        out[("heat periodic", library)] = heat(periodic_x, periodic_y, steps)
        out[("heat wall", library)] = heat(periodic_x, wall_y, steps)
    return out


def several_pads(shape, width, mode, rounds):
    """``SEVERAL_COUNT`` pads in one program against one, jaxpad and jnp.pad, forward
    and VJP, interleaved; returns the medians by (library, way, count)."""
    begin = [0] * (len(shape) - 2) + [width, width]
    pads = {
        "jaxpad": lambda a: jaxpad.pad(a, begin, begin, mode),
        "jnp.pad": lambda a: jnp.pad(a, [(b, b) for b in begin], mode=mode),
    }
    rng = np.random.default_rng(0)
    arrays = [jnp.asarray(rng.standard_normal(shape, np.float32)) for _ in range(SEVERAL_COUNT)]
    out_shape = tuple(n + 2 * b for n, b in zip(shape, begin))
    cts = [jnp.asarray(rng.standard_normal(out_shape, np.float32)) for _ in arrays]
    timed, args = {}, {}
    for library, pad in pads.items():
        for count in (1, SEVERAL_COUNT):
            timed[(library, "fwd", count)] = jax.jit(lambda *a, pad=pad: [pad(v) for v in a])
            args[(library, "fwd", count)] = tuple(arrays[:count])
            timed[(library, "vjp", count)] = jax.jit(
                lambda a, t, pad=pad: [jax.vjp(pad, v)[1](c)[0] for v, c in zip(a, t)]
            )
            args[(library, "vjp", count)] = (tuple(arrays[:count]), tuple(cts[:count]))
    for got, want in zip(
        timed[("jaxpad", "fwd", SEVERAL_COUNT)](*arrays),
        timed[("jnp.pad", "fwd", SEVERAL_COUNT)](*arrays),
    ):
        np.testing.assert_array_equal(got, want)
    return interleaved_medians(timed, args, rounds=rounds, warmup=2, calls=2)


def describe_hlo(fn, *args):
    """The ops of the compiled CPU program's entry and fusions, counted."""
    text = jax.jit(fn).lower(*args).compile().as_text()
    ops = {}
    for op in (
        "fusion(",
        "gather(",
        "concatenate(",
        "slice(",
        "dynamic-update-slice(",
        "reduce(",
        "pad(",
        "select(",
        "copy(",
    ):
        ops[op.rstrip("(")] = text.count(f" {op}")
    return ops


def run_case(programs, u, rounds, calls):
    """Medians of the forward of every program, and of the gradient of jaxpad's and
    jnp.pad's (a form built directly differentiates through its lax ops, not
    through jaxpad's fold)."""
    timed, args = {}, {}
    for name, fn in programs.items():
        timed[(name, "fwd")] = jax.jit(fn)
        args[(name, "fwd")] = (u,)
        if name in ("jaxpad", "jnp.pad"):
            timed[(name, "grad")] = jax.jit(jax.grad(lambda u, fn=fn: (fn(u) ** 2).sum()))
            args[(name, "grad")] = (u,)
    for name in programs:
        np.testing.assert_allclose(
            timed[(name, "fwd")](u), timed[("jnp.pad", "fwd")](u), rtol=1e-4, atol=1e-4
        )
    return interleaved_medians(timed, args, rounds=rounds, warmup=2, calls=calls)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sizes", type=int, nargs="*")
    parser.add_argument("--modes", nargs="*", default=list(MODES))
    parser.add_argument("--workloads", nargs="*", default=[*FUSED_WORKLOADS, "heat", "several"])
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--hlo", action="store_true", help="print the compiled programs' ops")
    parser.add_argument("--out", default=None, help="write the rows as JSON here")
    args = parse_args_allocator(parser)
    sizes = args.sizes or (FUSED_SIZES_QUICK if args.quick else FUSED_SIZES)
    rounds = args.rounds or (5 if args.quick else 7)
    print(f"# fused: {machine()}, malloc {allocator()}, {load()} at start")
    print(f"# medians of {rounds} interleaved rounds; ratio = jaxpad / jnp.pad")
    header = "| workload | size | mode | jaxpad fwd ms | fwd ratio | jaxpad grad ms | grad ratio |"
    print(header)
    print("|---" * header.count(" | ") + "|---|")
    rows, start = [], time.perf_counter()
    rng = np.random.default_rng(0)
    for name in args.workloads:
        if name == "several":
            for shape, width in SEVERAL_CASES:
                for mode in args.modes:
                    if mode == "constant":
                        continue
                    medians = several_pads(shape, width, mode, rounds)
                    k = SEVERAL_COUNT
                    row = dict(workload=f"{k} pads", size=f"{shape} by {width}", mode=mode)
                    for way, key in (("fwd", "fwd"), ("vjp", "grad")):
                        ours = medians[("jaxpad", way, k)]
                        row[f"{key}_ms"] = 1e3 * ours
                        row[f"{key}_ratio"] = ours / medians[("jnp.pad", way, k)]
                        row[f"{key}_over_one"] = ours / (k * medians[("jaxpad", way, 1)])
                        theirs = medians[("jnp.pad", way, k)]
                        row[f"{key}_jnp_over_one"] = theirs / (k * medians[("jnp.pad", way, 1)])
                    rows.append(row)
                    print(
                        f"| {k} pads | {shape} by {width} | {mode} | {row['fwd_ms']:.3f} | "
                        f"{row['fwd_ratio']:.2f} ({row['fwd_over_one']:.2f}x {k} x one; "
                        f"jnp.pad {row['fwd_jnp_over_one']:.2f}x) | "
                        f"{row['grad_ms']:.3f} | {row['grad_ratio']:.2f} "
                        f"({row['grad_over_one']:.2f}x {k} x one; "
                        f"jnp.pad {row['grad_jnp_over_one']:.2f}x) |",
                        flush=True,
                    )
            continue
        if name == "heat":
            heat_sizes = args.sizes or (HEAT_SIZES_QUICK if args.quick else HEAT_SIZES)
            for size in heat_sizes:
                u = jnp.asarray(rng.standard_normal((size, size), np.float32))
                programs = heat_programs(size)
                timed = {key: jax.jit(fn) for key, fn in programs.items()}
                medians = interleaved_medians(
                    timed, {key: (u,) for key in timed}, rounds=rounds, warmup=1, calls=1
                )
                for flavour in ("heat periodic", "heat wall"):
                    ours, theirs = medians[(flavour, "jaxpad")], medians[(flavour, "jnp.pad")]
                    row = dict(
                        workload=flavour,
                        size=size,
                        mode="wrap" if "periodic" in flavour else "wrap x, wall y",
                        grad_ms=1e3 * ours,
                        grad_ratio=ours / theirs,
                        steps=heat_steps(size),
                    )
                    rows.append(row)
                    print(
                        f"| {flavour} ({row['steps']} steps, value_and_grad) | {size} | "
                        f"{row['mode']} | | | {row['grad_ms']:.2f} | {row['grad_ratio']:.2f} |",
                        flush=True,
                    )
            continue
        for size in sizes:
            u = jnp.asarray(rng.standard_normal((size, size), np.float32))
            for mode in args.modes:
                programs = {lib: workload(name, pad) for lib, pad in padders(mode).items()}
                if args.hlo:
                    for lib, fn in programs.items():
                        print(f"  {name} {size} {mode} {lib} fwd:", describe_hlo(fn, u))
                medians = run_case(programs, u, rounds, calls=2)
                row = dict(
                    workload=name,
                    size=size,
                    mode=mode,
                    fwd_ms=1e3 * medians[("jaxpad", "fwd")],
                    fwd_ratio=medians[("jaxpad", "fwd")] / medians[("jnp.pad", "fwd")],
                    grad_ms=1e3 * medians[("jaxpad", "grad")],
                    grad_ratio=medians[("jaxpad", "grad")] / medians[("jnp.pad", "grad")],
                )
                line = (
                    f"| {name} | {size} | {mode} | {row['fwd_ms']:.3f} | {row['fwd_ratio']:.2f} "
                    f"| {row['grad_ms']:.3f} | {row['grad_ratio']:.2f} |"
                )
                rows.append(row)
                print(line, flush=True)
    print(f"\n# {load()} at the end, {time.perf_counter() - start:.0f} s")
    ratios = [r[k] for r in rows for k in ("fwd_ratio", "grad_ratio") if k in r]
    if ratios:
        print(f"# ratios: median {np.median(ratios):.2f}, max {np.max(ratios):.2f}")
    if args.out:
        result = {"machine": machine(), "malloc": allocator(), "rounds": rounds, "rows": rows}
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
