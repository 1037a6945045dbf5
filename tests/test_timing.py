"""The benchmarks' timing helpers (benchmarks/_timing.py)."""

from __future__ import annotations

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
