"""Smoke tests: every example runs and does what it says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_quickstart_runs_and_recovers_the_kernel():
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "quickstart.py")],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "reflect: [4 3 2 1 2 3 4 3 2]" in result.stdout
    assert result.stdout.strip().endswith("ok")
