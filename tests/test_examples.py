"""Smoke tests: every example runs and does what it says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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


def run_example(name):
    return subprocess.run(
        [sys.executable, str(ROOT / "examples" / name)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout


@pytest.mark.slow
def test_random_translate_trains_on_per_image_offsets():
    stdout = run_example("random_translate.py")
    assert "held-out accuracy: 1.00" in stdout or "held-out accuracy: 0.9" in stdout
    assert stdout.strip().endswith("ok")


def test_left_pad_sequences_right_aligns_every_row():
    stdout = run_example("left_pad_sequences.py")
    assert "last tokens: [31, 8, 97, 73, 81]" in stdout
    assert stdout.strip().endswith("ok")


def test_port_tensorflow_padding_matches_only_with_the_tf_preset():
    stdout = run_example("port_tensorflow_padding.py")
    assert "TF SAME conv pads per spatial axis: ((0, 1), (0, 1))" in stdout
    assert stdout.strip().endswith("ok")


@pytest.mark.slow
def test_periodic_heat_equation_recovers_the_diffusivity():
    stdout = run_example("periodic_heat_equation.py")
    assert "wrap boundary" in stdout and "symmetric boundary" in stdout
    assert stdout.count("recovered 0.800") == 2
    assert stdout.strip().endswith("ok")


@pytest.mark.slow
def test_distributed_heat_equation_matches_one_device_and_moves_only_halos():
    stdout = run_example("distributed_heat_equation.py")
    assert "dirichlet walls" in stdout and "reflecting walls" in stdout
    assert stdout.count("1040 bytes per device (halo of a block: 1040 bytes)") == 2
    assert stdout.strip().endswith("ok")


@pytest.mark.slow
def test_channel_flow_recovers_the_wall_speed_with_either_padding():
    stdout = run_example("channel_flow.py")
    assert "solvers agree: True" in stdout
    assert "(same as one by one: True)" in stdout
    assert stdout.count("top wall speed recovered 0.750") == 2
    assert stdout.strip().endswith("ok")


def test_heat_flux_recovers_the_flux_amplitude_through_a_face_array():
    stdout = run_example("heat_flux.py")
    assert "solvers agree: True" in stdout
    assert "recovered amplitude 1.99" in stdout or "recovered amplitude 2.00" in stdout
    assert stdout.strip().endswith("ok")


def test_register_affine_recovers_the_rotation_and_shift():
    stdout = run_example("register_affine.py")
    assert "recovered angle 9.00 deg" in stdout
    assert "recovered shift (2.50, -1.75)" in stdout
    assert stdout.strip().endswith("ok")
