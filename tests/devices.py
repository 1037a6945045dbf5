"""Runs pytest targets in a process of their own with several simulated CPU devices.

XLA reads its device count once, at start-up, so checks on a mesh run in a subprocess.
CPU devices whatever the default backend: these checks read compiled XLA:CPU programs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_on_cpu_devices(count: int, *targets: str, timeout: int = 540) -> str:
    """Runs ``pytest targets`` on ``count`` CPU devices; returns its output, or fails
    with the end of it if any test failed or none ran."""
    env = dict(
        os.environ,
        XLA_FLAGS=f"--xla_force_host_platform_device_count={count}",
        JAX_PLATFORMS="cpu",
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider"]
        + list(targets),
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "failed" not in result.stdout, result.stdout[-2000:]
    return result.stdout
