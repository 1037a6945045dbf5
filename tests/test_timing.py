"""The benchmarks' timing helpers (benchmarks/_timing.py)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

from benchmarks import _timing

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(platform.system() != "Linux", reason="glibc's malloc settings")
def test_pin_allocator_reexecutes_with_glibc_settings(tmp_path):
    script = tmp_path / "pinned.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from benchmarks import _timing\n"
        "print('before', _timing.allocator(), flush=True)\n"
        "_timing.pin_allocator(sys.argv)\n"
        "print('after', _timing.allocator(), sys.argv[1:])\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in _timing.PINNED_MALLOC}
    result = subprocess.run(
        [sys.executable, str(script), "--flag"], env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    # The first process prints "before system" and is replaced; the second one starts
    # pinned and keeps its arguments.
    assert result.stdout.split("\n")[:3] == [
        "before system",
        "before pinned",
        "after pinned ['--flag']",
    ]


def test_interleaved_stats_gives_seconds_and_page_faults_per_call():
    x = jnp.ones((1000,))
    candidates = {"double": jax.jit(lambda x: 2 * x), "copy": jax.jit(jnp.copy)}
    args = {name: (x,) for name in candidates}
    stats = _timing.interleaved_stats(candidates, args, rounds=3, warmup=1, calls=2)
    assert set(stats) == set(candidates)
    for seconds, faults in stats.values():
        assert 0 < seconds < 1 and faults >= 0
    medians = _timing.interleaved_medians(candidates, args, rounds=3, warmup=1, calls=2)
    assert set(medians) == set(candidates)


@pytest.mark.skipif(platform.system() != "Linux", reason="glibc's malloc settings")
def test_pin_allocator_restarts_a_module_as_that_module():
    # python -m benchmarks.x must restart as a module, or its package imports break.
    env = {k: v for k, v in os.environ.items() if k not in _timing.PINNED_MALLOC}
    code = (
        "import sys; from benchmarks import _timing; _timing.pin_allocator(sys.argv); "
        "print(_timing.allocator(), sys.argv[1:])"
    )
    module = ROOT / "benchmarks" / "_probe_pin.py"
    module.write_text(code + "\n")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "benchmarks._probe_pin", "--flag"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
    finally:
        module.unlink()
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "pinned ['--flag']"


def _script(tmp_path, body):
    script = tmp_path / "probe.py"
    script.write_text(
        "import argparse, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from benchmarks import _timing\n" + body
    )
    return script


def _run(script, *argv):
    env = {k: v for k, v in os.environ.items() if k not in _timing.PINNED_MALLOC}
    result = subprocess.run(
        [sys.executable, str(script), *argv], env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.skipif(platform.system() != "Linux", reason="glibc's malloc settings")
def test_benchmarks_keep_the_default_allocator_unless_told_to_pin(tmp_path):
    # What users run is the headline: no re-execution without --pinned.
    script = _script(
        tmp_path,
        "args = _timing.parse_args_allocator(argparse.ArgumentParser())\n"
        "print(_timing.allocator(), args.pinned)\n",
    )
    assert _run(script).split() == ["system", "False"]
    assert _run(script, "--pinned").split() == ["pinned", "True"]


@pytest.mark.skipif(platform.system() != "Linux", reason="glibc's malloc settings")
def test_rerun_pinned_reads_the_pinned_runs_json(tmp_path):
    script = _script(
        tmp_path,
        "import json\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--out')\n"
        "parser.add_argument('--size', type=int)\n"
        "args = _timing.parse_args_allocator(parser, pinned_beside=True)\n"
        "if args.pinned_beside:\n"
        "    argv = _timing.without_options(sys.argv, '--pinned-beside', valued=('--out',))\n"
        "    print(json.dumps(_timing.rerun_pinned(argv, args.out + '.pinned')))\n"
        "elif args.out:\n"
        "    rows = [{'malloc': _timing.allocator(), 'size': args.size}]\n"
        "    open(args.out, 'w').write(json.dumps({'rows': rows}))\n",
    )
    out = tmp_path / "result.json"
    printed = _run(script, "--size", "3", "--pinned-beside", "--out", str(out))
    last = printed.strip().splitlines()[-1]
    assert json.loads(last) == {"rows": [{"malloc": "pinned", "size": 3}]}


def test_beside_adds_the_pinned_figures_of_the_matching_row():
    rows = [{"mode": "wrap", "fwd_ms": 2.0, "count": 3}, {"mode": "edge", "fwd_ms": 1.0}]
    pinned = [{"mode": "wrap", "fwd_ms": 1.5, "count": 3}, {"mode": "edge", "fwd_ms": 0.5}]
    assert _timing.beside(rows, pinned) == [
        {"mode": "wrap", "fwd_ms": 2.0, "count": 3, "fwd_ms_pinned": 1.5},
        {"mode": "edge", "fwd_ms": 1.0, "fwd_ms_pinned": 0.5},
    ]
    with pytest.raises(ValueError, match="beside: 2 rows against 1 pinned rows"):
        _timing.beside(rows, pinned[:1])


def test_without_options_drops_flags_and_options_with_their_values():
    argv = ["run.py", "--out", "r.json", "--quick", "--pinned-beside", "--plot=p.png", "--rounds"]
    argv += ["3"]
    kept = _timing.without_options(argv, "--pinned-beside", valued=("--out", "--plot"))
    assert kept == ["run.py", "--quick", "--rounds", "3"]
