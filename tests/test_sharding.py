"""Runs tests/sharded_checks.py on 8 simulated CPU devices, in a process of their own."""

from __future__ import annotations

from tests.devices import run_on_cpu_devices


def test_sharded_checks_pass_on_eight_devices():
    run_on_cpu_devices(8, "tests/sharded_checks.py")
