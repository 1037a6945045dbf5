"""The sweep's tail: the configurations where jaxpad.pad read slower than jnp.pad.

    python -m benchmarks.sweep_tail [--rounds 15] [--runs 3] [--hlo]
                                    [--only crop negatives check periods]

The two kinds of configuration of issue 25, item 6, each timed in ``--runs`` separate
interleaved groups in this process (``benchmarks/_timing.py``), medians, the default
allocator (``--pinned`` re-executes with malloc pinned):

- ``crop``: a crop on one axis and a pad on another. Candidates for the forward:
  ``jaxpad`` (the planner's pick), ``jnp.pad`` of the cropped array (the sweep's
  baseline, ``x[crop]`` then the positive pads), ``jnp.pad`` then a slice (the same
  values as jaxpad for every mode: a wrap pad reads the uncropped array), jnp.pad
  again (the control), every forward form of ``jaxpad._lowering`` built directly,
  ``jaxpad then slice`` (``jaxpad.pad`` of the positive sides, then the crops
  sliced off), and ``crop first``: ``x[crop]`` as a slice, then ``jaxpad.pad`` of
  the smaller array with the positive pads (a different result for wrap; timed for
  its cost).
  The VJPs of the same programs in a second rotation.
- ``negatives``: the forward of every configuration of the sweep that crops, with
  the positive pad then a slice as a candidate; ``check``: the same on crops
  written to test the rule drawn from them (``CHECK_CASES``).
- ``periods``: a 1-D pad of several periods (wrap, and reflect for comparison).
  Candidates for the VJP (the fold): jaxpad's, jnp.pad's (and its control), every
  fold form built directly, and with ``--reshape`` two written here (wrap only):
  ``pad+reshape`` (the cotangent zero-padded to whole periods aligned with the
  operand, reshaped to (periods, n) and summed) and ``whole+ends`` (the whole
  periods sliced out, reshaped and summed, the partial periods at both ends added
  as two padded slices).

Ratios are over jnp.pad's program (``jnp.pad`` for the forward, its VJP for the
VJP); the control column is jnp.pad against itself. ``--hlo`` prints what the
compiled programs are made of.
"""

from __future__ import annotations

import argparse
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import jaxpad
from benchmarks import cases
from benchmarks._timing import allocator, interleaved_medians, load, machine, parse_args_allocator
from jaxpad import _lowering

# (shape, pads_begin, pads_end, mode): the sweep's worst rows (issue 25, item 6).
CROP_CASES = (
    ((1032, 62, 18), (-10, 0, -1), (177, 0, 1), "reflect"),
    ((1886, 7, 84, 3), (0, 0, -7, 0), (0, 0, 1, 1), "wrap"),
    ((33, 47924, 2), (0, -11146, 0), (0, 9939, 1), "wrap"),
)
PERIOD_CASES = (
    ((1256532,), (3591048,), (318727,), "wrap"),
    # The same kind at other period counts and modes: 2.5 and 1.6 periods of wrap,
    # 3.3 of reflect.
    ((1000000,), (1500000,), (1000000,), "wrap"),
    ((1000000,), (300000,), (1300000,), "wrap"),
    ((1000000,), (1200000,), (1100000,), "reflect"),
)


def _random(shape, seed):
    return jnp.asarray(np.random.default_rng(seed).standard_normal(shape, np.float32))


def _vjp(fn):
    return jax.jit(lambda x, t: jax.vjp(fn, x)[1](t)[0])


def crop_programs(shape, begin, end, mode):
    """The forward candidates of a crop-and-pad configuration."""
    out_shape = tuple(n + b + e for n, b, e in zip(shape, begin, end))
    crop = tuple(slice(max(-b, 0), n - max(-e, 0)) for n, b, e in zip(shape, begin, end))
    positive = [(max(b, 0), max(e, 0)) for b, e in zip(begin, end)]

    def ours(x):
        return jaxpad.pad(x, begin, end, mode)

    def jnp_cropped(x):
        return jnp.pad(x[crop], positive, mode)

    def jnp_then_slice(x):
        return jnp.pad(x, positive, mode)[
            tuple(slice(max(-b, 0), max(-b, 0) + m) for b, m in zip(begin, out_shape))
        ]

    def ours_then_slice(x):
        padded = jaxpad.pad(x, [p for p, _ in positive], [q for _, q in positive], mode)
        return padded[tuple(slice(max(-b, 0), max(-b, 0) + m) for b, m in zip(begin, out_shape))]

    def crop_first(x):
        return jaxpad.pad(x[crop], [p for p, _ in positive], [q for _, q in positive], mode)

    programs = {
        "jaxpad": ours,
        "jnp.pad(x[crop])": jnp_cropped,
        "jnp.pad again": lambda x: jnp_cropped(x),
        "jnp.pad then slice": jnp_then_slice,
        "crop first": crop_first,
        "jaxpad then slice": ours_then_slice,
    }
    plan = _lowering.plan_pad(shape, out_shape, begin, mode)
    if plan.pieces:
        # Every forward form; the concatenate also without the planner's crop (the
        # fold plan's pieces are the same pieces, in the uncropped array's positions).
        fold = _lowering.plan_fold(shape, out_shape, begin, end, mode, np.float32)
        variants = {
            "concatenate": dataclasses.replace(plan, form="concatenate"),
            "concatenate uncropped": dataclasses.replace(
                plan, form="concatenate", pieces=fold.pieces, crop=(), crop_after=()
            ),
            "gather": dataclasses.replace(plan, form="gather"),
        }
        for name, variant in variants.items():
            programs[name] = lambda x, p=variant: _lowering.build_pad(p, x, out_shape, begin, mode)
    return programs


def period_folds(shape, begin, end, mode, reshape):
    """The fold candidates of a 1-D pad of several periods (the VJP's cotangent ``t``
    onto ``x``): every form of the planner, and with ``reshape`` (wrap only) the two
    reshape-sum forms."""
    (n,), (b,), (e,) = shape, begin, end
    size = n + b + e
    # Output position j reads x[(j - b) mod n]: after ``front`` zeros, position
    # j + front does, with (j + front) mod n == (j - b) mod n.
    front = -b % n
    back = -(front + size) % n
    periods = (front + size + back) // n

    def pad_reshape(t):
        return jnp.pad(t, (front, back)).reshape(periods, n).sum(0)

    # Whole periods start at the first position reading x[0]: ``start`` = b mod n.
    start = b % n
    whole = (size - start) // n
    stop = start + whole * n

    def whole_ends(t):
        total = t[start:stop].reshape(whole, n).sum(0)
        # The head t[:start] reads x[n - start:], the tail t[stop:] reads x[:size - stop].
        total = total + lax.pad(t[:start], np.float32(0), [(n - start, 0, 0)])
        return total + lax.pad(t[stop:], np.float32(0), [(0, n - (size - stop), 0)])

    folds = {"pad+reshape": pad_reshape, "whole+ends": whole_ends} if reshape else {}
    plan = _lowering.plan_fold(shape, (size,), begin, end, mode, np.float32)
    for form in ("one_sum", "boxes", "bands"):
        variant = _lowering.FoldPlan(form, plan.pieces, plan.groups, plan.accumulate)
        folds[form] = lambda t, p=variant: _lowering.build_fold(p, t, shape)
    return folds


def hlo_ops(fn, *args):
    """Counts of the ops in the compiled program, fusions included."""
    text = jax.jit(fn).lower(*args).compile().as_text()
    names = ("fusion", "concatenate", "slice", "gather", "reduce", "pad", "copy")
    names += ("dynamic-update-slice", "add", "reverse")
    counts = {name: text.count(f" {name}(") for name in names}
    return {name: count for name, count in counts.items() if count}


def time_crop(case, rounds, runs, show_hlo):
    shape, begin, end, mode = case
    out_shape = tuple(n + b + e for n, b, e in zip(shape, begin, end))
    x, t = _random(shape, 0), _random(out_shape, 1)
    programs = crop_programs(shape, begin, end, mode)
    want = np.asarray(jax.jit(programs["jnp.pad then slice"])(x))
    for name, fn in programs.items():
        if name not in ("jnp.pad(x[crop])", "jnp.pad again", "crop first"):
            np.testing.assert_array_equal(np.asarray(jax.jit(fn)(x)), want, err_msg=name)
    print(f"\n### crop: {mode} {shape} pads {begin}/{end}")
    print(f"planner: {_lowering.plan_pad(shape, out_shape, begin, mode).form}, fold ", end="")
    fold = _lowering.plan_fold(shape, out_shape, begin, end, mode, np.float32)
    print(f"{fold.form} {list(fold.groups)}")
    if show_hlo:
        for name, fn in programs.items():
            print(f"  {name} fwd: {hlo_ops(fn, x)}; VJP: {hlo_ops(_vjp(fn), x, t)}")
    names = list(programs)
    results = {way: {name: [] for name in names} for way in ("fwd", "vjp")}
    for _ in range(runs):
        for way in ("fwd", "vjp"):
            if way == "fwd":
                timed = {name: jax.jit(fn) for name, fn in programs.items()}
                args = {name: (x,) for name in names}
            else:
                timed = {name: _vjp(fn) for name, fn in programs.items()}
                args = {name: (x, t) for name in names}
            medians = interleaved_medians(timed, args, rounds=rounds, warmup=2, calls=2, copies=3)
            for name in names:
                results[way][name].append(medians[name] / medians["jnp.pad(x[crop])"])
    _print_runs(results, {way: "jnp.pad(x[crop])" for way in results})
    return results


def time_periods(case, rounds, runs, show_hlo, reshape):
    shape, begin, end, mode = case
    size = shape[0] + begin[0] + end[0]
    x, t = _random(shape, 0), _random((size,), 1)
    folds = period_folds(shape, begin, end, mode, reshape and mode == "wrap")
    want = np.asarray(_vjp(lambda x: jnp.pad(x, (begin[0], end[0]), mode))(x, t))
    for name, fn in folds.items():
        np.testing.assert_allclose(
            np.asarray(jax.jit(fn)(t)), want, rtol=1e-5, atol=1e-4, err_msg=name
        )
    print(f"\n### periods: {mode} {shape} pads {begin}/{end} ({size / shape[0]:.2f} periods)")
    plan = _lowering.plan_fold(shape, (size,), begin, end, mode, np.float32)
    print(f"planner fold: {plan.form} {list(plan.groups)}")
    programs = {
        "jaxpad": _vjp(lambda x: jaxpad.pad(x, begin, end, mode)),
        "jnp.pad": _vjp(lambda x: jnp.pad(x, (begin[0], end[0]), mode)),
        "jnp.pad again": _vjp(lambda x: jnp.pad(x, (begin[0], end[0]), mode)),
    }
    if show_hlo:
        for name, fn in programs.items():
            print(f"  {name} VJP: {hlo_ops(fn, x, t)}")
        for name, fn in folds.items():
            print(f"  {name}: {hlo_ops(fn, t)}")
    timed = {**programs, **{name: jax.jit(fn) for name, fn in folds.items()}}
    args = {name: (x, t) if name in programs else (t,) for name in timed}
    results = {"vjp": {name: [] for name in timed}}
    for _ in range(runs):
        medians = interleaved_medians(timed, args, rounds=rounds, warmup=2, calls=2, copies=3)
        for name in timed:
            results["vjp"][name].append(medians[name] / medians["jnp.pad"])
    _print_runs(results, {"vjp": "jnp.pad"})
    return results


NEGATIVE_FORMS = ("jaxpad", "jaxpad then slice", "jnp.pad then slice", "jnp.pad again")

# Crops written to test a rule drawn from the sweep's: crops at the beginning only
# (off a long last axis, and on it), and at the end only, on 1-3 axes.
CHECK_CASES = (
    cases.SweepConfig((2000, 500), (-100, 0), (50, 0), "wrap", "begin"),
    cases.SweepConfig((500, 64, 32), (0, -20, 0), (0, 0, 5), "symmetric", "begin"),
    cases.SweepConfig((300000, 4), (-5000, 0), (3, 0), "edge", "begin"),
    cases.SweepConfig((1500000,), (-200000,), (7,), "reflect", "begin"),
    cases.SweepConfig((64, 20000), (0, -3000), (0, 10), "reflect", "begin, long last"),
    cases.SweepConfig((2000, 500), (50, 0), (-100, 0), "wrap", "end"),
    cases.SweepConfig((500, 64, 32), (0, 0, 5), (0, -20, 0), "symmetric", "end"),
    cases.SweepConfig((1500000,), (7,), (-200000,), "reflect", "end"),
)


def time_negatives(rounds, runs, configs=None):
    """The forward of every configuration of the sweep that crops (kind
    ``negative``), or of ``configs``: jaxpad, the pad of the positive sides then a
    slice (built with jaxpad and with jnp.pad) and the control, over
    ``jnp.pad(x[crop])``; the median of ``runs`` groups each."""
    if configs is None:
        configs = [c for c in cases.sweep_configs() if c.kind == "negative"]
    print("\n### crops: forward / jnp.pad(x[crop]), median of the runs (each run)")
    print("| configuration | " + " | ".join(NEGATIVE_FORMS) + " |")
    print("|---|" + "---|" * len(NEGATIVE_FORMS))
    rows = []
    for config in configs:
        programs = crop_programs(config.shape, config.begin, config.end, config.mode)
        names = ("jnp.pad(x[crop])", *NEGATIVE_FORMS)
        x = _random(config.shape, 0)
        want = np.asarray(jax.jit(programs["jnp.pad then slice"])(x))
        np.testing.assert_array_equal(np.asarray(jax.jit(programs["jaxpad"])(x)), want)
        ratios = {name: [] for name in NEGATIVE_FORMS}
        for _ in range(runs):
            timed = {name: jax.jit(programs[name]) for name in names}
            medians = interleaved_medians(
                timed, {name: (x,) for name in names}, rounds=rounds, warmup=2, calls=2, copies=3
            )
            for name in NEGATIVE_FORMS:
                ratios[name].append(medians[name] / medians["jnp.pad(x[crop])"])
        cells = [
            f"{np.median(r):.2f} ({', '.join(f'{v:.2f}' for v in r)})" for r in ratios.values()
        ]
        print(f"| {config.describe()} | " + " | ".join(cells) + " |", flush=True)
        rows.append((config, ratios))
    return rows


def _print_runs(results, baseline):
    print("| way | candidate | / jnp.pad, each run | median |")
    print("|---|---|---|---|")
    for way, table in results.items():
        for name, ratios in table.items():
            cells = ", ".join(f"{r:.2f}" for r in ratios)
            print(f"| {way} | {name} | {cells} | {np.median(ratios):.2f} |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--only", nargs="*", choices=("crop", "periods", "negatives", "check"), default=None
    )
    parser.add_argument("--case", type=int, nargs="*", help="indices into the crop cases")
    parser.add_argument("--hlo", action="store_true", help="print the compiled programs' ops")
    parser.add_argument(
        "--reshape",
        action="store_true",
        help="periods: also the reshape-sum folds (10-50x jnp.pad's VJP on XLA:CPU)",
    )
    parser.add_argument("--period-case", type=int, nargs="*", help="indices into PERIOD_CASES")
    args = parse_args_allocator(parser)
    kinds = args.only or ("crop", "periods", "negatives", "check")
    print(f"# sweep_tail: {machine()}, malloc {allocator()}, {load()} at start")
    print(f"# {args.runs} runs of {args.rounds} interleaved rounds, 2 calls each")
    if "crop" in kinds:
        indices = args.case if args.case is not None else range(len(CROP_CASES))
        for i in indices:
            time_crop(CROP_CASES[i], args.rounds, args.runs, args.hlo)
    if "periods" in kinds:
        indices = args.period_case if args.period_case is not None else range(len(PERIOD_CASES))
        for case in [PERIOD_CASES[i] for i in indices]:
            time_periods(case, args.rounds, args.runs, args.hlo, args.reshape)
    if "negatives" in kinds:
        time_negatives(args.rounds, args.runs)
    if "check" in kinds:
        time_negatives(args.rounds, args.runs, CHECK_CASES)
    print(f"# {load()} at the end")


if __name__ == "__main__":
    main()
