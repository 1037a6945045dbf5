"""The public signatures accept the documented inputs and reject pads given as ints.

Runs mypy on tests/typing_checks/ with the project's configuration: a call that must
not type-check carries a ``# type: ignore[code]``, and ``warn_unused_ignores`` turns
an ignore that is no longer needed into an error.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="mypy comes with the test extra")

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_public_signatures_type_check_as_documented(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "pyproject.toml"]
        + ["--cache-dir", str(tmp_path / "mypy-cache"), "tests/typing_checks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
