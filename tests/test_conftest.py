"""The test run's own configuration (tests/conftest.py): what the default run changes."""

from __future__ import annotations

import os

import pytest

from tests import conftest


def test_default_run_compiles_without_llvms_optimizations_and_all_keeps_xlas_defaults(request):
    flags = os.environ.get("XLA_FLAGS", "")
    if request.config.getoption("run_all"):
        # CI compiles as users do: the flags are the environment's own.
        assert flags == conftest._GIVEN_XLA_FLAGS
    else:
        ours = {f"{name}={value}" for name, value in conftest._DEFAULT_RUN_XLA_FLAGS.items()}
        named = {flag.partition("=")[0] for flag in conftest._GIVEN_XLA_FLAGS.split()}
        expected = {flag for flag in ours if flag.partition("=")[0] not in named}
        assert expected <= set(flags.split())


@pytest.mark.parametrize(
    "given,expected",
    [
        ("", {"--xla_backend_optimization_level=0", "--xla_llvm_disable_expensive_passes=true"}),
        (
            "--xla_backend_optimization_level=3 --xla_cpu_use_thunk_runtime=true",
            {
                "--xla_backend_optimization_level=3",
                "--xla_cpu_use_thunk_runtime=true",
                "--xla_llvm_disable_expensive_passes=true",
            },
        ),
    ],
)
def test_a_flag_the_user_set_wins(monkeypatch, given, expected):
    monkeypatch.setenv("XLA_FLAGS", given)
    assert set(conftest._add_xla_flags(conftest._DEFAULT_RUN_XLA_FLAGS).split()) == expected
