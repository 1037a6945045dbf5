"""One command for any platform: the benchmarks behind the planner's rules, on whatever
``jax.devices()`` offers, and which rules the measurements would change there.

    python -m benchmarks.platform             # the full run (a GPU or TPU: minutes)
    python -m benchmarks.platform --quick     # small cases, few rounds (CPU: a few minutes)
    python -m benchmarks.platform --out-dir benchmarks/results [--pinned]
    python -m benchmarks.platform --sections pad forms --sweep-count 16   # part of a run

Four sections, each timed in interleaved rounds in this process
(``benchmarks/_timing.py``), medians, the default allocator:

1. ``pad``: ``jaxpad.pad`` per mode against ``jnp.pad`` and constant-mode
   ``lax.pad``, forward and VJP (``benchmarks.run.pad_rows``).
2. ``forms``: per mode (the ``pad`` cases) and on the sweep's random configurations
   (``benchmarks.cases.sweep_configs``), every forward form the planner may build
   here (jnp.pad's concatenate and the gather through index tables) and every fold
   form, over jnp.pad's forward and VJP (``benchmarks.sweep.measure_forms``), with
   the forms the planner picks for this platform; plus the sweep's own row
   (``benchmarks.sweep.measure``: jaxpad against jnp.pad, with the control column).
3. ``fused``: the pads inside stencils, reductions, elementwise programs and
   convolutions (``benchmarks.fused``), jaxpad and jnp.pad and both forward forms
   built directly, forward and gradient.
4. ``conv``: the conv sweep (``benchmarks.conv``): ``jaxpad.nn.conv`` against
   ``jnp.pad`` then a VALID conv and the zero-padded conv.

Then the rules (``decide``): for each rule of the planner that these measurements
bear on, ``rule <name>: keep`` or ``change``, with the figures. A form is said to
win only where it is faster than the planner's pick by more than ``MARGIN`` and by
more than the control column (jnp.pad against itself) moves. Writes
``<out-dir>/<platform>-<device>.json`` and ``.md`` (the sections named where only
some ran, and ``-quick`` for a quick run, so that a trial never overwrites a full
table). A section that fails is recorded in both files and the others still run.
"""

from __future__ import annotations

import argparse
import json
import platform as host
import re
import time
import traceback
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from benchmarks import cases, fused, sweep
from benchmarks._timing import allocator, load, machine, parse_args_allocator
from benchmarks.run import pad_rows
from jaxpad import _lowering

# A form replaces the planner's pick only where it is faster by more than this share
# (and than the control column moves): below it, a change is not worth its risk on
# the cases no benchmark names.
MARGIN = 0.10

# --quick: cases small enough for 2 CPU cores in a few minutes.
QUICK_PAD_CASES = [((4, 32, 32, 16), (1, 2), 3)]
QUICK_SWEEP = (0, 1, 2, 3, 4)  # one configuration per mode, small pads
QUICK_FUSED = (("stencil5", 256), ("elementwise", 256))
QUICK_MODES = ("reflect", "wrap")
QUICK_CONV = ("1d 64ch k5", "2d dw 256 5x5")
FULL_FUSED_SIZES = (256, 1024, 2048)
QUICK_WARNING = (
    "(quick: a few rounds on small cases, to try the command; its verdicts are not "
    "measurements to change the planner by)"
)


def device_name() -> tuple[str, str]:
    """(platform, device) of ``jax.devices()[0]``, as file-name words."""
    device = jax.devices()[0]
    kind = device.device_kind
    if kind.lower() == device.platform.lower():  # XLA:CPU names its device "cpu"
        kind = host.machine()
    slug = re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-")
    return device.platform.lower(), slug


def target() -> _lowering.Target:
    """What the planner sees when it lowers for this platform: ``"cpu"`` or None
    (every other platform), one device."""
    return _lowering.Target(platform="cpu" if jax.default_backend() == "cpu" else None)


def _config(shape, axes, pad, mode):
    begin = tuple(pad if axis in axes else 0 for axis in range(len(shape)))
    return cases.SweepConfig(shape, begin, begin, mode, "per mode")


def pad_section(pad_cases, rounds, calls):
    rows = []
    for shape, axes, pad in pad_cases:
        rows += pad_rows(shape, axes, pad, rounds, calls)
    return rows


def forms_section(configs, rounds, calls, with_sweep):
    """``measure_forms`` (and with ``with_sweep``, ``sweep.measure``) per config."""
    rows = []
    for label, config in configs:
        result = sweep.measure_forms(config, rounds, calls, target())
        row = {
            "case": label,
            "config": config.describe(),
            "mode": config.mode,
            "forward_pick": result["picked"][0],
            "fold_pick": result["picked_fold"],
            "forward": result["forward"],
            "fold": result["fold"],
            "control": result["control"],
        }
        if with_sweep:
            row["sweep"] = sweep.measure(config, rounds, calls)
        rows.append(row)
        print(_forms_line(row), flush=True)
    return rows


def _forms_line(row):
    forward = ", ".join(f"{k} {v:.2f}" for k, v in row["forward"].items())
    fold = ", ".join(f"{k} {v:.2f}" for k, v in row["fold"].items())
    control = f"{row['control']['fwd']:.2f} / {row['control']['vjp']:.2f}"
    picks = f"{row['forward_pick']} / {row['fold_pick']}"
    return f"| {row['case']} | {row['config']} | {picks} | {forward} | {fold} | {control} |"


def fused_section(work, modes, rounds, calls):
    """Each workload with jaxpad, jnp.pad and both forward forms built directly."""
    rows = []
    rng = np.random.default_rng(0)
    for name, size in work:
        u = jnp.asarray(rng.standard_normal((size, size), np.float32))
        width = fused.PADS[name]
        for mode in modes:
            programs = {lib: fused.workload(name, pad) for lib, pad in fused.padders(mode).items()}
            begin = (width, width)
            out_shape = (size + 2 * width,) * 2
            plans = sweep.forward_plans(u.shape, out_shape, begin, mode, target())
            for form, plan in plans.items():

                def pad(v, w, plan=plan):
                    return _lowering.build_pad(plan, v, out_shape, begin, mode)

                programs[form] = fused.workload(name, pad)
            medians = fused.run_case(programs, u, rounds, calls)
            ours = _lowering.plan_pad(u.shape, out_shape, begin, mode, target()).form
            row = {"workload": name, "size": size, "mode": mode, "forward_pick": ours}
            for key, value in medians.items():
                row[f"{key[0]} {key[1]} ms"] = 1e3 * value
            base = medians[("jnp.pad", "fwd")]
            for form in (*plans, "jaxpad"):
                row[f"{form} fwd / jnp.pad"] = medians[(form, "fwd")] / base
            row["jaxpad grad / jnp.pad"] = (
                medians[("jaxpad", "grad")] / medians[("jnp.pad", "grad")]
            )
            rows.append(row)
            print(
                f"| {name} | {size} | {mode} | {ours} | "
                + " | ".join(f"{row[f'{f} fwd / jnp.pad']:.2f}" for f in (*plans, "jaxpad"))
                + f" | {row['jaxpad grad / jnp.pad']:.2f} |",
                flush=True,
            )
    return rows


def conv_section(conv_rows, rounds):
    from benchmarks import conv

    print(
        "| shape | mode | zero fwd ms | zero grad ms | fwd zero2 | fwd jnp.pad | fwd plain "
        "| fwd jaxpad | grad zero2 | grad jnp.pad | grad plain | grad jaxpad |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    results = []
    for spec in conv_rows:
        try:
            results += conv.run([spec], rounds)
        except AssertionError as error:  # its check against jaxpad.pad + VALID conv
            print(f"| {spec[0]} | {spec[-1]} | failed its check: {str(error).splitlines()[0]} |")
    rows = []
    for name, mode, fwd, grad in results:
        row = {"layer": name, "mode": mode}
        for way, table in (("fwd", fwd), ("grad", grad)):
            row[f"zero {way} ms"] = 1e3 * table["zero"]
            for key in ("zero2", "jnp.pad", "plain", "jaxpad"):
                row[f"{key} {way} / zero"] = table[key] / table["zero"]
        rows.append(row)
    return rows


def _wins(ratio, control):
    """Whether a form whose time is ``ratio`` times the pick's is faster beyond the
    margin and the control's deviation."""
    noise = max(MARGIN, abs(control - 1))
    return ratio < 1 / (1 + noise)


def decide(result) -> list[dict]:
    """The planner's rules these measurements bear on, each ``keep`` or ``change``.

    - ``forward form``: the pick (jnp.pad's concatenate unless the platform is told
      ``gather_forward``) against the other form, over every configuration and
      fused workload; ``change`` where the other wins beyond the noise in most of
      them and in the median.
    - ``forward form, <mode>``: the same for one mode.
    - ``fold form``: the planner's fold against the fastest fold form, per
      configuration; ``change`` where another form wins in any configuration
      (each named).
    - ``conv planner``: ``jaxpad.nn.conv`` against ``jaxpad.pad`` then a VALID
      conv (what it replaces), forward and gradient medians.
    """
    rules = []
    forms = result["sections"].get("forms", [])
    fused_rows = result["sections"].get("fused", [])
    comparisons = []  # (mode, other form / picked form, control, where)
    for row in forms:
        pick, forward = row["forward_pick"], row["forward"]
        if pick in forward and len(forward) > 1:
            for other, ratio in forward.items():
                if other != pick:
                    comparisons.append(
                        (row["mode"], other, ratio / forward[pick], row["control"]["fwd"], row)
                    )
    for row in fused_rows:
        pick = row["forward_pick"]
        if f"{pick} fwd / jnp.pad" not in row:
            continue
        for other in sweep.FORWARD_FORMS:
            if other != pick and f"{other} fwd / jnp.pad" in row:
                ratio = row[f"{other} fwd / jnp.pad"] / row[f"{pick} fwd / jnp.pad"]
                comparisons.append((row["mode"], other, ratio, 1.0, row))
    groups = {"": comparisons}
    for mode in dict.fromkeys(c[0] for c in comparisons):
        groups[mode] = [c for c in comparisons if c[0] == mode]
    for mode, group in groups.items():
        if not group:
            continue
        ratios = np.array([c[2] for c in group])
        wins = sum(_wins(c[2], c[3]) for c in group)
        median = float(np.median(ratios))
        others = sorted({c[1] for c in group})
        picks = sorted(
            {c[4]["forward_pick"] for c in group if c[4]["forward_pick"] in sweep.FORWARD_FORMS}
        )
        # Most configurations, and the median beyond the noise: one case that a
        # neighbour's burst slowed cannot turn a rule.
        noise = float(np.median([c[3] for c in group]))
        change = _wins(median, noise) and 2 * wins > len(group)
        rules.append(
            {
                "rule": "forward form" + (f", {mode}" if mode else ""),
                "verdict": "change" if change else "keep",
                "measured": (
                    f"{'/'.join(others)} over the pick ({'/'.join(picks)}): median "
                    f"{median:.2f}x, range {ratios.min():.2f}-{ratios.max():.2f}, faster "
                    f"beyond the noise in {wins} of {len(group)}"
                ),
                "proposal": (
                    f"the {'/'.join(others)} forward on {result['platform']}"
                    + (f" for {mode}" if mode else "")
                    + " (jaxpad._lowering: Target.gather_forward)"
                    if change
                    else ""
                ),
            }
        )
    fold_changes, fold_count = [], 0
    for row in forms:
        pick, fold = row["fold_pick"], row["fold"]
        if pick not in fold:
            continue
        fold_count += 1
        best = min(fold, key=fold.get)
        ratio = fold[best] / fold[pick]
        if best != pick and _wins(ratio, row["control"]["vjp"]):
            fold_changes.append(f"{row['config']}: {best} {ratio:.2f}x {pick}")
    if fold_count:
        rules.append(
            {
                "rule": "fold form",
                "verdict": "change" if fold_changes else "keep",
                "measured": (
                    f"the pick is the fastest form or within the noise in "
                    f"{fold_count - len(fold_changes)} of {fold_count} configurations"
                    + ("; not in: " + "; ".join(fold_changes) if fold_changes else "")
                ),
                "proposal": "see the configurations named" if fold_changes else "",
            }
        )
    conv_rows = result["sections"].get("conv", [])
    if conv_rows:
        verdicts = []
        for way in ("fwd", "grad"):
            ratios = [r[f"jaxpad {way} / zero"] / r[f"plain {way} / zero"] for r in conv_rows]
            control = float(np.median([r[f"zero2 {way} / zero"] for r in conv_rows]))
            median = float(np.median(ratios))
            worse = median > 1 + max(MARGIN, abs(control - 1))
            verdicts.append((way, median, worse))
        rules.append(
            {
                "rule": "conv planner",
                "verdict": "change" if any(w for *_, w in verdicts) else "keep",
                "measured": ", ".join(
                    f"{way}: jaxpad.nn.conv / (jaxpad.pad + VALID conv) median {m:.2f}x"
                    for way, m, _ in verdicts
                ),
                "proposal": "jaxpad.pad then a VALID conv here"
                if any(w for *_, w in verdicts)
                else "",
            }
        )
    return rules


def _cell(value):
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_cell(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return str(tuple(value))
    return str(value)


def _table(rows, keys=None):
    keys = keys or list(dict.fromkeys(k for row in rows for k in row if k != "section"))
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for row in rows:
        lines.append("| " + " | ".join(_cell(row.get(k, "")) for k in keys) + " |")
    return lines


def markdown(result) -> str:
    """The result as a Markdown page: the machine, one table per section, the rules."""
    lines = [
        f"# jaxpad on {result['platform']} ({result['device_kind']})",
        "",
        f"{result['machine']}; malloc {result['malloc']}; {result['load_at_start']} at "
        f"the start, {result['load_at_end']} at the end; {result['rounds']} interleaved "
        f"rounds{' (quick)' if result['quick'] else ''}; {result['seconds']:.0f} s. "
        "Ratios are times over jnp.pad's (or the zero-padded conv's); the control "
        "is jnp.pad compiled a second time, over the first.",
        "",
        "## Rules",
        "",
    ]
    if result["quick"]:
        lines += [QUICK_WARNING, ""]
    for name, error in result.get("errors", {}).items():
        lines.append(f"- section {name} failed: `{error}`")
    for rule in result["rules"]:
        proposal = f" Proposal: {rule['proposal']}." if rule.get("proposal") else ""
        lines.append(
            f"- rule {rule['rule']}: **{rule['verdict']}**, measured {rule['measured']}.{proposal}"
        )
    for name, rows in result["sections"].items():
        if not rows:
            continue
        lines += ["", f"## {name}", ""]
        if name == "forms":
            flat = []
            for row in rows:
                entry = {k: row[k] for k in ("case", "config", "forward_pick", "fold_pick")}
                entry["forward forms / jnp.pad"] = row["forward"]
                entry["fold forms / jnp.pad VJP"] = row["fold"]
                entry["control fwd / VJP"] = (
                    f"{row['control']['fwd']:.2f} / {row['control']['vjp']:.2f}"
                )
                if "sweep" in row:
                    entry["jaxpad fwd / VJP over jnp.pad"] = (
                        f"{row['sweep']['fwd_over_jnp']:.2f} / {row['sweep']['vjp_over_jnp']:.2f}"
                    )
                flat.append(entry)
            lines += _table(flat)
        else:
            lines += _table(rows)
    return "\n".join(lines) + "\n"


def write(result, out_dir: Path) -> tuple[Path, Path]:
    """``<platform>-<device>[-<sections>][-quick].json`` and ``.md`` in ``out_dir``
    (the sections named where the run had only some, so that runs split over
    several commands do not overwrite each other)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{result['platform']}-{result['device']}"
    if set(result.get("asked", SECTIONS)) != set(SECTIONS):
        stem += "-" + "-".join(result["asked"])
    stem += "-quick" if result["quick"] else ""
    json_path, md_path = out_dir / f"{stem}.json", out_dir / f"{stem}.md"
    json_path.write_text(json.dumps(result, indent=1, default=str) + "\n")
    md_path.write_text(markdown(result))
    return json_path, md_path


SECTIONS = ("pad", "forms", "fused", "conv")


def run(quick: bool, rounds: int, sections, sweep_count=None) -> dict:
    """Runs ``sections``; a section that fails is recorded under ``errors`` and the
    others still run, so that one command on a lent machine brings back what it can."""
    platform, device = device_name()
    start, start_load = time.perf_counter(), load()
    calls = 2 if quick else 5
    print(f"# benchmarks.platform: {machine()}, malloc {allocator()}, {start_load} at start")
    result = {
        "platform": platform,
        "device": device,
        "device_kind": jax.devices()[0].device_kind,
        "machine": machine(),
        "jax": jax.__version__,
        "malloc": allocator(),
        "quick": quick,
        "rounds": rounds,
        "asked": [name for name in SECTIONS if name in sections],
        "load_at_start": start_load,
        "sections": {},
        "errors": {},
    }
    pad_cases = QUICK_PAD_CASES if quick else cases.PAD_CASES

    def pad():
        print("\n## pad")
        rows = pad_section(pad_cases, rounds, calls)
        print("\n".join(_table(rows)), flush=True)
        return rows

    def forms():
        print("\n## forms (forward forms / jnp.pad, fold forms / jnp.pad VJP)")
        print("| case | configuration | picks | forward forms | fold forms | control |")
        print("|---|---|---|---|---|---|")
        configs = [
            (f"{shape} {mode}", _config(shape, axes, pad, mode))
            for shape, axes, pad in pad_cases
            for mode in cases.NON_CONSTANT
        ]
        drawn = cases.sweep_configs(cases.SWEEP_COUNT, cases.SWEEP_SEED)
        indices = QUICK_SWEEP if quick else range(sweep_count or len(drawn))
        configs += [(f"sweep #{i}", drawn[i]) for i in indices]
        return forms_section(configs, rounds, calls, with_sweep=True)

    def fused_():
        print("\n## fused (fwd / jnp.pad: concatenate, gather, jaxpad; grad / jnp.pad)")
        print("| workload | size | mode | pick | concatenate | gather | jaxpad | grad |")
        print("|---|---|---|---|---|---|---|---|")
        work = (
            QUICK_FUSED
            if quick
            else [(w, s) for w in cases.FUSED_WORKLOADS for s in FULL_FUSED_SIZES]
        )
        return fused_section(work, QUICK_MODES if quick else cases.NON_CONSTANT, rounds, calls)

    def conv_():
        print("\n## conv (over the zero-padded conv)")
        from benchmarks import conv

        rows = [r for r in conv.SWEEP if r[0] in QUICK_CONV] if quick else conv.SWEEP
        return conv_section(rows, rounds)

    for name, section in (("pad", pad), ("forms", forms), ("fused", fused_), ("conv", conv_)):
        if name not in sections:
            continue
        try:
            result["sections"][name] = section()
        except Exception as error:  # noqa: BLE001  (recorded; the other sections run)
            traceback.print_exc()
            result["errors"][name] = f"{type(error).__name__}: {error}"
    result["load_at_end"] = load()
    result["seconds"] = time.perf_counter() - start
    result["rules"] = decide(result)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small cases, few rounds")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--sections", nargs="*", choices=SECTIONS, default=list(SECTIONS))
    parser.add_argument(
        "--sweep-count", type=int, default=None, help="the first N sweep configurations only"
    )
    parser.add_argument("--out-dir", default="benchmarks/results")
    args = parse_args_allocator(parser)
    rounds = args.rounds or (3 if args.quick else 15)
    result = run(args.quick, rounds, args.sections, args.sweep_count)
    print("\n## rules")
    if result["quick"]:
        print(QUICK_WARNING)
    for rule in result["rules"]:
        proposal = f" -> {rule['proposal']}" if rule.get("proposal") else ""
        print(f"rule {rule['rule']}: {rule['verdict']}, measured {rule['measured']}{proposal}")
    for name, error in result["errors"].items():
        print(f"section {name} failed: {error}")
    json_path, md_path = write(result, Path(args.out_dir))
    print(f"# {result['load_at_end']} at the end, {result['seconds']:.0f} s")
    print(f"wrote {json_path} and {md_path}")


if __name__ == "__main__":
    main()
