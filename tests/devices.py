"""Simulated CPU devices for the tests on a mesh.

tests/conftest.py gives the CPU backend ``cpu_device_count()`` devices before JAX starts
(XLA reads the count once): 8 unless ``JAX_NUM_CPU_DEVICES`` says otherwise. The mesh
tests build their meshes from CPU devices whatever the default backend, since they read
compiled XLA:CPU programs.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import jax

ROOT = Path(__file__).resolve().parent.parent


def cpu_device_count() -> int:
    """The number of CPU devices tests/conftest.py asks for."""
    return int(os.environ.get("JAX_NUM_CPU_DEVICES", "8"))


def cpu_mesh(shape, names, kind=jax.sharding.AxisType.Auto):
    """A mesh of ``shape`` over the first CPU devices, every axis of type ``kind``."""
    devices = jax.devices("cpu")[: math.prod(shape)]
    return jax.make_mesh(shape, names, axis_types=(kind,) * len(shape), devices=devices)


def run_on_cpu_devices(count: int, *targets: str, timeout: int = 540) -> str:
    """Runs ``pytest targets`` on ``count`` CPU devices in a process of their own;
    returns its output, or fails with the end of it if any test failed or none ran."""
    env = dict(os.environ, JAX_NUM_CPU_DEVICES=str(count), JAX_PLATFORMS="cpu")
    result = subprocess.run(
        # addopts cleared (no xdist workers here), but pytest-benchmark's plugin stays
        # off as there: where installed, it warns that xdist is loaded, an error here.
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider"]
        + ["-p", "no:benchmark", *targets],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "failed" not in result.stdout, result.stdout[-2000:]
    return result.stdout
