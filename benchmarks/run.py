"""Every jaxpad benchmark in one command: a table, benchmarks/results.json and a plot.

    python -m benchmarks.run            # the full run (about 5 minutes on 2 CPU cores)
    python -m benchmarks.run --quick    # fewer rounds and smaller cases, under a minute
    python -m benchmarks.run --out benchmarks/results.json --plot docs/img/benchmarks.png

A run prints its tables and writes nothing unless asked (``--out``, ``--plot``), so
that a trial run never overwrites the committed results. The cases are in
``benchmarks/cases.py``.

Sections, each timed in interleaved rounds (A B A B ..., shuffled every round) in this
one process, medians after warm-up, with the C library's default allocator (what
users run). ``--pinned`` re-executes with glibc's malloc pinned; ``--pinned-beside``
runs a second time pinned and adds those figures beside the headline ones
(``<key>_pinned``; benchmarks/_timing.py says why pinning steadies them). Page
faults per call of each VJP are counted.

1. ``jaxpad.pad`` per mode, forward and VJP, against constant-mode ``lax.pad`` and
   ``jnp.pad``: shape (16, 64, 64, 64) with pad 3 on axes 1 and 2, and a 1-D 2**22
   signal with pad 1024.
2. Compile time of ``jit(pad)`` for reflect on an axis of 2 as the pad grows.
3. Peak memory of the VJP, from XLA's compiled memory analysis.
4. ``jaxpad.dynamic_pad`` per-example translation and ``jaxpad.broadcast``.
5. A CycleGAN-style generator training step with reflect padding, jaxpad against
   ``jnp.pad``, and the share of the step that padding takes.

The plot needs matplotlib: ``pip install -e ".[bench]"``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import jaxpad
from benchmarks import bench_dynamic_pad, cases
from benchmarks._timing import (
    allocator,
    beside,
    interleaved_medians,
    interleaved_stats,
    load,
    machine,
    parse_args_allocator,
    rerun_pinned,
    without_options,
)
from benchmarks.cases import MODES


def _vjp(fn):
    return jax.jit(lambda x, ct: jax.vjp(fn, x)[1](ct)[0])


def _random(shape, seed=0):
    return jnp.asarray(np.random.default_rng(seed).normal(size=shape).astype(np.float32))


def pad_rows(shape, pad_axes, pad, rounds, calls):
    """Forward and VJP of every mode against constant lax.pad and against jnp.pad.

    Two interleaved groups: jaxpad against constant lax.pad, then jaxpad against
    jnp.pad. Mixed into one group, jnp.pad's VJPs (20-40 ms, several 16 MB
    temporaries) moved every other program's median by up to 30%, the copy-sized
    ones most, so that identical programs differed by 1.2x.
    """
    x = _random(shape)
    begin = [pad if axis in pad_axes else 0 for axis in range(len(shape))]
    out_shape = tuple(n + 2 * b for n, b in zip(shape, begin))
    ct = _random(out_shape, 1)

    def lax_constant(x):
        return lax.pad(x, np.float32(0), [(b, b, 0) for b in begin])

    against_lax = {("lax", "constant", "fwd"): jax.jit(lax_constant)}
    against_lax[("lax", "constant", "vjp")] = _vjp(lax_constant)
    against_jnp = {}
    for mode in MODES:

        def ours(x, mode=mode):
            return jaxpad.pad(x, begin, begin, mode)

        def theirs(x, mode=mode):
            return jnp.pad(x, [(b, b) for b in begin], mode=mode)

        against_lax[("jaxpad", mode, "fwd")] = jax.jit(ours)
        against_lax[("jaxpad", mode, "vjp")] = _vjp(ours)
        against_jnp[("jaxpad", mode, "vjp")] = against_lax[("jaxpad", mode, "vjp")]
        against_jnp[("jnp.pad", mode, "fwd")] = jax.jit(theirs)
        against_jnp[("jnp.pad", mode, "vjp")] = _vjp(theirs)

    def args(candidates):
        return {key: (x,) if key[2] == "fwd" else (x, ct) for key in candidates}

    stats = interleaved_stats(
        against_lax, args(against_lax), rounds=rounds, calls=calls, copies=calls
    )
    medians = {key: seconds for key, (seconds, _) in stats.items()}
    stats_jnp = interleaved_stats(
        against_jnp, args(against_jnp), rounds=rounds, calls=calls, copies=calls
    )
    medians_jnp = {key: seconds for key, (seconds, _) in stats_jnp.items()}
    fwd_ref, vjp_ref = medians[("lax", "constant", "fwd")], medians[("lax", "constant", "vjp")]
    rows = []
    for mode in MODES:
        fwd, vjp = medians[("jaxpad", mode, "fwd")], medians[("jaxpad", mode, "vjp")]
        jnp_fwd, jnp_vjp = (
            medians_jnp[("jnp.pad", mode, "fwd")],
            medians_jnp[("jnp.pad", mode, "vjp")],
        )
        rows.append(
            {
                "section": "pad",
                "op": "jaxpad.pad",
                "mode": mode,
                "shape": list(shape),
                "pad": pad,
                "fwd_ms": 1e3 * fwd,
                "vjp_ms": 1e3 * vjp,
                "reference": "constant-mode lax.pad",
                "reference_fwd_ms": 1e3 * fwd_ref,
                "reference_vjp_ms": 1e3 * vjp_ref,
                "fwd_ratio": fwd / fwd_ref,
                "vjp_ratio": vjp / vjp_ref,
                "jnp_pad_fwd_ms": 1e3 * jnp_fwd,
                "jnp_pad_vjp_ms": 1e3 * jnp_vjp,
                "jnp_pad_vjp_over_jaxpad": jnp_vjp / medians_jnp[("jaxpad", mode, "vjp")],
                "vjp_page_faults": stats[("jaxpad", mode, "vjp")][1],
                "reference_vjp_page_faults": stats[("lax", "constant", "vjp")][1],
                "jnp_pad_vjp_page_faults": stats_jnp[("jnp.pad", mode, "vjp")][1],
            }
        )
    return rows


def compile_rows(pads, jnp_pads, repeats):
    """Seconds to lower and compile jit(pad), reflect on an axis of 2: the fastest of
    ``repeats`` rounds over all widths (noise only adds to a compile time)."""
    x = jnp.ones((2,), jnp.float32)
    cases = [("jaxpad.pad", w) for w in pads] + [("jnp.pad", w) for w in jnp_pads]

    def compile_seconds(op, width):
        # A new function object each time, so nothing is served from a cache.
        if op == "jaxpad.pad":
            fn = jax.jit(lambda x: jaxpad.pad(x, [width], [width], "reflect"))
        else:
            fn = jax.jit(lambda x: jnp.pad(x, (width, width), mode="reflect"))
        start = time.perf_counter()
        fn.lower(x).compile()
        return time.perf_counter() - start, fn

    times = {case: [] for case in cases}
    functions = {}
    for _ in range(repeats):
        for case in cases:
            seconds, functions[case] = compile_seconds(*case)
            times[case].append(seconds)
    return [
        {
            "section": "compile",
            "op": op,
            "mode": "reflect",
            "shape": [2],
            "pad": width,
            "compile_ms": 1e3 * min(times[op, width]),
            # The lowered program's size: jnp.pad unrolls large reflect pads into chains.
            "stablehlo_ops": functions[op, width].lower(x).as_text().count("stablehlo."),
        }
        for op, width in cases
    ]


def memory_rows(shape, pad_axes, pad):
    """Bytes XLA allocates for the VJP (arguments, outputs and temporaries)."""
    x = _random(shape)
    begin = [pad if axis in pad_axes else 0 for axis in range(len(shape))]
    ct = _random(tuple(n + 2 * b for n, b in zip(shape, begin)), 1)
    rows = []

    def analysis(fn):
        stats = fn.lower(x, ct).compile().memory_analysis()
        return {
            "argument_bytes": stats.argument_size_in_bytes,
            "output_bytes": stats.output_size_in_bytes,
            "temp_bytes": stats.temp_size_in_bytes,
            "total_bytes": stats.argument_size_in_bytes
            + stats.output_size_in_bytes
            + stats.temp_size_in_bytes,
        }

    reference = analysis(_vjp(lambda x: lax.pad(x, np.float32(0), [(b, b, 0) for b in begin])))
    for mode in MODES:
        ours = analysis(_vjp(lambda x, mode=mode: jaxpad.pad(x, begin, begin, mode)))
        theirs = analysis(_vjp(lambda x, mode=mode: jnp.pad(x, [(b, b) for b in begin], mode=mode)))
        rows.append(
            {
                "section": "memory",
                "op": "jaxpad.pad VJP",
                "mode": mode,
                "shape": list(shape),
                "pad": pad,
                **ours,
                "constant_vjp_total_bytes": reference["total_bytes"],
                "input_bytes": x.nbytes,
                "jnp_pad_total_bytes": theirs["total_bytes"],
                "met": ours["total_bytes"] <= reference["total_bytes"] + x.nbytes,
            }
        )
    return rows


def dynamic_pad_rows(rounds, calls):
    shape = cases.DYNAMIC_PAD_SHAPE
    x = _random(shape)
    ct = _random(shape, 1)
    offsets = jnp.asarray(np.random.default_rng(2).integers(-8, 9, (shape[0], 2)), jnp.int32)
    fns = bench_dynamic_pad.candidates()
    timed, args = {}, {}
    for name, fn in fns.items():
        timed[(name, "fwd")] = jax.jit(fn)
        args[(name, "fwd")] = (x, offsets)
        timed[(name, "vjp")] = jax.jit(
            lambda x, offsets, ct, fn=fn: jax.vjp(lambda x: fn(x, offsets), x)[1](ct)[0]
        )
        args[(name, "vjp")] = (x, offsets, ct)
    medians = interleaved_medians(timed, args, rounds=rounds, calls=calls)
    static = "(a) static jaxpad.pad"
    take = "(b) vmap of jnp.take"
    rows = []
    for name in fns:
        rows.append(
            {
                "section": "dynamic_pad",
                "op": name,
                "mode": "reflect",
                "shape": list(shape),
                "fwd_ms": 1e3 * medians[(name, "fwd")],
                "vjp_ms": 1e3 * medians[(name, "vjp")],
                "reference": static,
                "fwd_ratio": medians[(name, "fwd")] / medians[(static, "fwd")],
                "vjp_ratio": medians[(name, "vjp")] / medians[(static, "vjp")],
                "vjp_over_jnp_take": medians[(name, "vjp")] / medians[(take, "vjp")],
            }
        )
    return rows


def broadcast_rows(rounds, calls):
    timed, args = {}, {}
    for shape, target in cases.BROADCAST_CASES[:2]:
        x, ct = _random(shape), _random(target, 1)
        for name, fn in (
            ("jaxpad", lambda x, t=target: jaxpad.broadcast(x, t)),
            ("jnp", lambda x, t=target: jnp.broadcast_to(x, t)),
        ):
            # A consumer, so that neither side can return an unmaterialised view.
            timed[(shape, name, "fwd")] = jax.jit(lambda x, fn=fn: fn(x) * 2.0)
            args[(shape, name, "fwd")] = (x,)
            timed[(shape, name, "vjp")] = _vjp(fn)
            args[(shape, name, "vjp")] = (x, ct)
    medians = interleaved_medians(timed, args, rounds=rounds, calls=calls)
    rows = []
    for shape, target in cases.BROADCAST_CASES[:2]:
        ours = medians[(shape, "jaxpad", "fwd")], medians[(shape, "jaxpad", "vjp")]
        theirs = medians[(shape, "jnp", "fwd")], medians[(shape, "jnp", "vjp")]
        rows.append(
            {
                "section": "broadcast",
                "op": "jaxpad.broadcast",
                "mode": "numpy",
                "shape": [list(shape), list(target)],
                "fwd_ms": 1e3 * ours[0],
                "vjp_ms": 1e3 * ours[1],
                "reference": "jnp.broadcast_to",
                "fwd_ratio": ours[0] / theirs[0],
                "vjp_ratio": ours[1] / theirs[1],
            }
        )
    return rows


def generator_step_rows(batch, size, channels, blocks, rounds):
    """A CycleGAN ResNet-generator training step: reflect pad 1, 3x3 conv, instance
    norm, ReLU, twice per residual block; mean-squared loss; SGD update."""

    def make_step(pad):
        def conv(x, kernel):
            padded = pad(x)
            return lax.conv_general_dilated(
                padded, kernel, (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC")
            )

        def norm(x):
            mean = x.mean(axis=(1, 2), keepdims=True)
            return (x - mean) * lax.rsqrt(x.var(axis=(1, 2), keepdims=True) + 1e-5)

        def generator(params, x):
            for first, second in params:
                y = jax.nn.relu(norm(conv(x, first)))
                x = x + norm(conv(y, second))
            return x

        def loss(params, x, target):
            return jnp.mean((generator(params, x) - target) ** 2)

        @jax.jit
        def step(params, x, target):
            value, grads = jax.value_and_grad(loss)(params, x, target)
            return jax.tree.map(lambda p, g: p - 1e-2 * g, params, grads), value

        return step

    def jaxpad_reflect(x):
        return jaxpad.pad(x, (0, 1, 1, 0), (0, 1, 1, 0), "reflect")

    def jnp_reflect(x):
        return jnp.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), mode="reflect")

    rng = np.random.default_rng(3)
    shape = (batch, size, size, channels)
    params = [
        tuple(
            jnp.asarray(rng.normal(size=(3, 3, channels, channels)).astype(np.float32) * 0.05)
            for _ in range(2)
        )
        for _ in range(blocks)
    ]
    x, target = _random(shape, 4), _random(shape, 5)
    steps = {"jaxpad": make_step(jaxpad_reflect), "jnp.pad": make_step(jnp_reflect)}
    np.testing.assert_allclose(
        steps["jaxpad"](params, x, target)[1], steps["jnp.pad"](params, x, target)[1], rtol=1e-4
    )
    # The padding alone: forward and VJP of one pad, times the 2 * blocks pads per step.
    pads = {
        "jaxpad pad": jax.jit(lambda x, ct: jax.vjp(jaxpad_reflect, x)[1](ct)[0]),
        "jnp.pad pad": jax.jit(lambda x, ct: jax.vjp(jnp_reflect, x)[1](ct)[0]),
    }
    ct = _random((batch, size + 2, size + 2, channels), 6)
    timed = {**steps, **pads}
    args = {name: (params, x, target) for name in steps}
    args.update({name: (x, ct) for name in pads})
    medians = interleaved_medians(timed, args, rounds=rounds, calls=1)
    rows = []
    for name in steps:
        pad_time = 2 * blocks * medians[f"{name} pad"]
        rows.append(
            {
                "section": "training step",
                "op": f"generator step with {name}",
                "mode": "reflect",
                "shape": list(shape),
                "blocks": blocks,
                "step_ms": 1e3 * medians[name],
                "padding_ms": 1e3 * pad_time,
                "padding_share": pad_time / medians[name],
                "ratio_to_jnp_pad_step": medians[name] / medians["jnp.pad"],
            }
        )
    return rows


def print_table(rows):
    for section in dict.fromkeys(row["section"] for row in rows):
        print(f"\n## {section}")
        subset = [row for row in rows if row["section"] == section]
        keys = [k for k in subset[0] if k != "section"]
        print("| " + " | ".join(keys) + " |")
        print("|" + "---|" * len(keys))
        for row in subset:
            cells = []
            for key in keys:
                value = row.get(key)
                if isinstance(value, float):
                    value = f"{value:.3g}" if abs(value) < 1e4 else f"{value:.3e}"
                cells.append(str(value))
            print("| " + " | ".join(cells) + " |")


def plot(rows, path, malloc):
    """What a user compares: jaxpad against jnp.pad per mode, forward and VJP, and
    compile time against the pad width."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.2))
    pad = [r for r in rows if r["section"] == "pad" and len(r["shape"]) > 1]
    positions = np.arange(len(pad))
    left.bar(
        positions - 0.2, [r["fwd_ms"] / r["jnp_pad_fwd_ms"] for r in pad], 0.4, label="forward"
    )
    left.bar(positions + 0.2, [1 / r["jnp_pad_vjp_over_jaxpad"] for r in pad], 0.4, label="VJP")
    left.axhline(1.0, color="gray", linestyle=":")
    left.set_xticks(positions, [r["mode"] for r in pad])
    left.set_ylabel("jaxpad time / jnp.pad time (lower is faster)")
    left.set_title(f"jaxpad.pad vs jnp.pad, {tuple(pad[0]['shape'])}, pad {pad[0]['pad']}")
    left.legend(fontsize=8)
    for op, color in (("jaxpad.pad", "C0"), ("jnp.pad", "C3")):
        compile_rows_ = [r for r in rows if r["section"] == "compile" and r["op"] == op]
        right.plot(
            [r["pad"] for r in compile_rows_],
            [r["compile_ms"] for r in compile_rows_],
            "o-",
            color=color,
            label=op,
        )
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel("reflect pad width (axis of 2)")
    right.set_ylabel("compile ms")
    right.set_title("Compile time against pad width")
    right.legend(fontsize=8)
    figure.suptitle(f"{machine()}, malloc {malloc}", fontsize=9)
    figure.tight_layout()
    path.parent.mkdir(exist_ok=True)
    figure.savefig(path, dpi=80)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, smaller cases")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--out", default=None, help="write the rows as JSON here")
    parser.add_argument("--plot", default=None, help="write the plot (PNG) here")
    args = parse_args_allocator(parser, pinned_beside=True)
    quick = args.quick
    rounds = args.rounds or (5 if quick else 20)
    calls = 2 if quick else 5
    backend = jax.default_backend()
    print(f"# jaxpad benchmarks: {machine()}, backend {backend}")
    print(f"# medians of {rounds} interleaved rounds ({calls} calls each) after warm-up")
    print(f"# malloc: {allocator()}; {load()} at start")
    start = time.perf_counter()
    rows = []
    pad_cases = cases.PAD_CASES_QUICK if quick else cases.PAD_CASES
    for shape, axes, pad in pad_cases:
        rows += pad_rows(shape, axes, pad, rounds, calls)
    if quick:
        rows += compile_rows(cases.COMPILE_WIDTHS_QUICK, cases.JNP_COMPILE_WIDTHS_QUICK, repeats=1)
    else:
        rows += compile_rows(cases.COMPILE_WIDTHS, cases.JNP_COMPILE_WIDTHS, repeats=5)
    rows += memory_rows(*pad_cases[0])
    if not quick:
        rows += dynamic_pad_rows(rounds, calls)
    rows += broadcast_rows(rounds, calls)
    step = cases.GENERATOR_STEP_QUICK if quick else cases.GENERATOR_STEP
    rows += generator_step_rows(*step, rounds)
    if args.pinned_beside:
        with tempfile.TemporaryDirectory() as folder:
            argv = without_options(sys.argv, "--pinned-beside", valued=("--out", "--plot"))
            rows = beside(rows, rerun_pinned(argv, f"{folder}/pinned.json")["rows"])
    print_table(rows)
    result = {
        "machine": machine(),
        "backend": backend,
        "jax": jax.__version__,
        "quick": quick,
        "rounds": rounds,
        "calls_per_round": calls,
        "malloc": allocator(),
        "load_at_end": load(),
        "seconds": time.perf_counter() - start,
        "rows": rows,
    }
    print(f"\n# {load()} at the end ({result['seconds']:.0f} s)")
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {args.out}")
    if args.plot:
        try:
            plot(rows, Path(args.plot), allocator())
            print(f"wrote {args.plot}")
        except ImportError:
            print('no plot: matplotlib is missing (pip install -e ".[bench]")')


if __name__ == "__main__":
    main()
