"""jaxpad.pad on random configurations, against jnp.pad and constant-mode lax.pad.

    python -m benchmarks.sweep [--quick] [--rounds 21] [--out sweep.json]

``benchmarks.cases.sweep_configs`` draws the configurations from a fixed seed: every
non-constant mode with small pads, pads of half the axis, pads spanning several
periods, one-sided and negative pads; ranks 1-4; 1-16 MiB float32 inputs with short
and long axes anywhere. For each, eight jitted programs are timed in interleaved
rounds in this process (the default allocator, ``--pinned`` to pin malloc;
arguments at three addresses; ``benchmarks/_timing.py``): jaxpad, jnp.pad, jnp.pad
compiled a second time (the control: what a ratio reads when nothing differs) and
constant-mode lax.pad, the forwards in one rotation and the VJPs in another. jnp.pad
has no negative pads, so where a configuration crops, jnp.pad gets ``x[crop]`` and
the positive pads in the same program (what a user would write); in wrap mode, whose
pads read the cropped rows, jnp.pad pads first and the crop is sliced off after (the
same values as jaxpad's). Prints every row,
the distribution of the ratios (median, p90, max) and the five worst configurations.

``--cases fixed`` times the pad's fixed forward cases instead (``benchmarks.cases.fixed_configs``:
long 1-D signals and a batch of images, every copying mode).

``--forms`` times, for each configuration, every forward form and every fold form of
``jaxpad._lowering`` built directly (whatever the planner would pick), against
jnp.pad's forward and VJP: the measurements behind the planner's rules
(docs/performance.md, "How it lowers"). ``--cases slabs`` and ``--cases signals``
run it on the fold studies of ``benchmarks/cases.py`` instead of the sweep.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import jaxpad
from benchmarks._timing import allocator, interleaved_medians, load, machine, parse_args_allocator
from benchmarks.cases import (
    SWEEP_COUNT,
    SWEEP_COUNT_QUICK,
    SWEEP_SEED,
    fixed_configs,
    row_configs,
    signal_configs,
    slab_configs,
    sweep_configs,
)
from jaxpad import _lowering


def _programs(config):
    begin, end, mode = config.begin, config.end, config.mode
    crop = tuple(slice(max(-b, 0), n - max(-e, 0)) for n, b, e in zip(config.shape, begin, end))

    def ours(x):
        return jaxpad.pad(x, begin, end, mode)

    positive = [(max(b, 0), max(e, 0)) for b, e in zip(begin, end)]
    # A wrap pad beside a crop reads the rows the crop removes, so jnp.pad of the
    # cropped array is another result: the program with jaxpad's values pads first,
    # then slices. In every other mode the crop first is both (and what users write).
    wrap_beside_crop = mode == "wrap" and min(begin + end) < 0

    def theirs(x):
        if wrap_beside_crop:
            padded = jnp.pad(x, positive, mode)
            return padded[
                tuple(
                    slice(max(-b, 0), size - max(-e, 0))
                    for size, b, e in zip(padded.shape, begin, end)
                )
            ]
        return jnp.pad(x[crop], positive, mode)

    def constant(x):
        return lax.pad(x, np.float32(0), [(b, e, 0) for b, e in zip(begin, end)])

    def theirs_again(x):
        return theirs(x)

    return {
        "jaxpad": ours,
        "jnp.pad": theirs,
        "jnp.pad again": theirs_again,
        "lax.pad constant": constant,
    }


def measure(config, rounds, calls):
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal(config.shape, np.float32))
    out_shape = tuple(n + b + e for n, b, e in zip(config.shape, config.begin, config.end))
    ct = jnp.asarray(rng.standard_normal(out_shape, np.float32))
    programs = _programs(config)
    if not any(b < 0 or e < 0 for b, e in zip(config.begin, config.end)):
        np.testing.assert_allclose(
            jax.jit(programs["jaxpad"])(x), jax.jit(programs["jnp.pad"])(x), rtol=0, atol=0
        )
    # Forwards and VJPs in separate rotations: in one rotation of all eight, the same
    # forward program compiled twice read up to 1.5x apart (what ran before it
    # differs more); forwards among themselves, 0.9-1.1x.
    medians = {}
    for way in ("fwd", "vjp"):
        timed, args = {}, {}
        for name, fn in programs.items():
            if way == "fwd":
                timed[(name, way)], args[(name, way)] = jax.jit(fn), (x,)
            else:
                timed[(name, way)] = jax.jit(lambda x, ct, fn=fn: jax.vjp(fn, x)[1](ct)[0])
                args[(name, way)] = (x, ct)
        medians |= interleaved_medians(
            timed, args, rounds=rounds, warmup=2, calls=calls, copies=ARGUMENT_COPIES
        )
    row = {"config": config.describe(), "mode": config.mode, "kind": config.kind}
    # The least a VJP of a non-constant mode can cost against the constant one, by
    # bytes moved: it reads the whole cotangent, the constant VJP only the interior.
    pads = zip(config.shape, config.begin, config.end)
    kept = math.prod(n - max(-b, 0) - max(-e, 0) for n, b, e in pads)
    row["vjp_bound"] = (ct.size + x.size) / (kept + x.size)
    for way in ("fwd", "vjp"):
        ours = medians[("jaxpad", way)]
        row[f"{way}_ms"] = 1e3 * ours
        row[f"{way}_over_jnp"] = ours / medians[("jnp.pad", way)]
        row[f"{way}_over_constant"] = ours / medians[("lax.pad constant", way)]
        # The same program compiled twice: what one configuration's ratio reads
        # when nothing differs (the noise floor of this machine and method).
        row[f"{way}_control"] = medians[("jnp.pad again", way)] / medians[("jnp.pad", way)]
    return row


# Arguments at three addresses, cycled call by call: with one fixed set two identical
# programs differed by up to 20% (benchmarks/_timing.py, interleaved_stats).
ARGUMENT_COPIES = 3

FORWARD_FORMS = ("concatenate", "gather")
FOLD_FORMS = ("one_sum", "boxes", "bands")


def forward_plans(shape, out_shape, begin, mode, target):
    """The plan of each forward form the planner may build for ``target``: with and
    without ``gather_forward``; a form it would not build there (the gather on an
    axis too long for its index tables) is the other plan with its form replaced."""
    plans = {}
    for form, gather in zip(FORWARD_FORMS, (False, True)):
        if "gather_forward" in {field.name for field in dataclasses.fields(target)}:
            told = dataclasses.replace(target, gather_forward=gather)
        else:  # the planner before gather_forward: only CPU took the concatenate
            told = dataclasses.replace(target, platform="cpu" if not gather else None)
        plans[form] = _lowering.plan_pad(shape, out_shape, begin, mode, told)
    for form, plan in plans.items():
        if plan.form != form:
            plans[form] = dataclasses.replace(plan, form=form)
    return plans


def measure_forms(config, rounds, calls, target=None):
    """Every forward and fold form of ``config`` built directly, over jnp.pad's
    forward and VJP; a fold of several axes also one axis per group, the last
    first (``/axis``). Also names the forms the planner picks for ``target``
    (default: XLA:CPU), and the control: jnp.pad's programs compiled a second time,
    over the first."""
    target = target or _lowering.Target()
    shape, begin, end, mode = config.shape, config.begin, config.end, config.mode
    out_shape = tuple(n + b + e for n, b, e in zip(shape, begin, end))
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal(shape, np.float32))
    ct = jnp.asarray(rng.standard_normal(out_shape, np.float32))
    theirs = _programs(config)["jnp.pad"]
    pad_plan = _lowering.plan_pad(shape, out_shape, begin, mode, target)
    fold_plan = _lowering.plan_fold(shape, out_shape, begin, end, mode, np.float32, target)
    timed, args = {}, {}
    for name in ("jnp fwd", "jnp fwd again"):
        timed[name], args[name] = jax.jit(lambda x: theirs(x)), (x,)
    for name in ("jnp vjp", "jnp vjp again"):
        timed[name], args[name] = jax.jit(lambda x, t: jax.vjp(theirs, x)[1](t)[0]), (x, ct)
    if pad_plan.pieces:
        expected = np.asarray(jax.jit(lambda x: jaxpad.pad(x, begin, end, mode))(x))
        for form, plan in forward_plans(shape, out_shape, begin, mode, target).items():
            timed[form] = jax.jit(
                lambda x, plan=plan: _lowering.build_pad(plan, x, out_shape, begin, mode)
            )
            args[form] = (x,)
            np.testing.assert_array_equal(timed[form](x), expected, err_msg=form)
    axes = tuple(axis for axis, _ in fold_plan.pieces)
    groupings = {"": (axes,)}
    if len(axes) > 1:
        groupings["/axis"] = tuple((axis,) for axis in sorted(axes, reverse=True))
    for form in FOLD_FORMS if axes else ():
        for suffix, groups in groupings.items():
            plan = _lowering.FoldPlan(form, fold_plan.pieces, groups, fold_plan.accumulate)
            timed[form + suffix] = jax.jit(
                lambda t, plan=plan: _lowering.build_fold(plan, t, shape)
            )
            args[form + suffix] = (ct,)
    medians = interleaved_medians(timed, args, rounds=rounds, warmup=2, calls=calls)
    forward = {k: v / medians["jnp fwd"] for k, v in medians.items() if k in FORWARD_FORMS}
    fold = {k: v / medians["jnp vjp"] for k, v in medians.items() if k.split("/")[0] in FOLD_FORMS}
    picked = f"{fold_plan.form} {list(fold_plan.groups)}"
    control = {
        "fwd": medians["jnp fwd again"] / medians["jnp fwd"],
        "vjp": medians["jnp vjp again"] / medians["jnp vjp"],
    }
    return {
        "forward": forward,
        "fold": fold,
        "picked": (pad_plan.form, picked),
        "picked_fold": _fold_key(fold_plan, axes),
        "control": control,
    }


def _fold_key(plan, axes):
    """The name of ``plan``'s fold among the timed ones: its form, with ``/axis``
    where it folds several axes one at a time."""
    if plan.form not in FOLD_FORMS:
        return None
    return plan.form + ("/axis" if len(axes) > 1 and len(plan.groups) > 1 else "")


def forms_main(configs, indices, rounds):
    print(
        "| # | configuration | planner picks | forward forms / jnp.pad | fold forms / jnp.pad VJP |"
    )
    print("|---|---|---|---|---|")
    for i in indices:
        result = measure_forms(configs[i], rounds, calls=2)
        forward = ", ".join(f"{k} {v:.2f}" for k, v in result["forward"].items())
        fold = ", ".join(f"{k} {v:.2f}" for k, v in result["fold"].items())
        picks = " / ".join(result["picked"])
        print(f"| {i} | {configs[i].describe()} | {picks} | {forward} | {fold} |", flush=True)


RATIOS = (
    "fwd_over_jnp",
    "vjp_over_jnp",
    "fwd_over_constant",
    "vjp_over_constant",
    "fwd_control",
    "vjp_control",
    "vjp_bound",
)


def summary(rows):
    """Median, p90 and max of each ratio over the configurations."""
    return {
        key: {
            "median": float(np.median([r[key] for r in rows])),
            "p90": float(np.percentile([r[key] for r in rows], 90)),
            "max": float(np.max([r[key] for r in rows])),
        }
        for key in RATIOS
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{SWEEP_COUNT_QUICK} configurations")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--only", type=int, nargs="*", help="configuration indices to run")
    parser.add_argument("--out", default=None, help="write the rows as JSON here")
    parser.add_argument("--forms", action="store_true", help="time every form directly")
    parser.add_argument(
        "--cases",
        choices=("sweep", "fixed", "slabs", "signals", "rows"),
        default="sweep",
        help="the sweep's configurations, the pad's fixed forward cases (fixed_configs), or "
        "with --forms a fold study's (benchmarks/cases.py: slab_configs, "
        "signal_configs, row_configs)",
    )
    args = parse_args_allocator(parser)
    configs = {
        "sweep": lambda: sweep_configs(
            SWEEP_COUNT_QUICK if args.quick else SWEEP_COUNT, SWEEP_SEED
        ),
        "fixed": fixed_configs,
        "slabs": slab_configs,
        "signals": signal_configs,
        "rows": row_configs,
    }[args.cases]()
    if args.cases not in ("sweep", "fixed") and not args.forms:
        parser.error(f"--cases {args.cases} needs --forms")
    indices = args.only if args.only else range(len(configs))
    # 7 rounds let one configuration's forward read 1.6x against the very same
    # program; 21 bring the control column within 1.05-1.33 (docs/performance.md).
    rounds = args.rounds or (5 if args.quick else 21)
    if args.forms:
        print(f"# sweep --forms: {machine()}, malloc {allocator()}, {load()} at start")
        forms_main(configs, indices, rounds)
        print(f"# {load()} at the end")
        return
    print(f"# sweep: {machine()}, malloc {allocator()}, {load()} at start")
    print(f"# medians of {rounds} interleaved rounds, 2 calls each, seed {SWEEP_SEED}")
    print(
        "| # | configuration | fwd ms | fwd / jnp.pad | fwd / constant | VJP ms "
        "| VJP / jnp.pad | VJP / constant | control fwd / VJP |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    start, rows = time.perf_counter(), []
    for i in indices:
        row = {"index": i, **measure(configs[i], rounds, calls=2)}
        rows.append(row)
        print(
            f"| {i} | {row['config']} | {row['fwd_ms']:.2f} | {row['fwd_over_jnp']:.2f} | "
            f"{row['fwd_over_constant']:.2f} | {row['vjp_ms']:.2f} | "
            f"{row['vjp_over_jnp']:.2f} | {row['vjp_over_constant']:.2f} | "
            f"{row['fwd_control']:.2f} / {row['vjp_control']:.2f} |",
            flush=True,
        )
    stats = summary(rows)
    print(f"\n# {load()} at the end, {time.perf_counter() - start:.0f} s")
    print("| ratio | median | p90 | max |")
    print("|---|---|---|---|")
    for key, values in stats.items():
        print(f"| {key} | {values['median']:.2f} | {values['p90']:.2f} | {values['max']:.2f} |")
    worst = sorted(rows, key=lambda r: -max(r["fwd_over_jnp"], r["vjp_over_jnp"]))[:5]
    print("\nfive worst against jnp.pad (max of forward and VJP):")
    for row in worst:
        print(
            f"  #{row['index']} {row['config']}: fwd {row['fwd_over_jnp']:.2f}x, "
            f"VJP {row['vjp_over_jnp']:.2f}x jnp.pad"
        )
    worst = sorted(rows, key=lambda r: -max(r["fwd_over_constant"], r["vjp_over_constant"]))[:5]
    print("five worst against constant-mode lax.pad:")
    for row in worst:
        print(
            f"  #{row['index']} {row['config']}: fwd {row['fwd_over_constant']:.2f}x, "
            f"VJP {row['vjp_over_constant']:.2f}x"
        )
    if args.out:
        result = {"machine": machine(), "malloc": allocator(), "rounds": rounds, "rows": rows}
        result["summary"] = stats
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
