"""Hypothesis profiles: "ci" (the default) fits the suite's time budget and is
derandomized so CI is reproducible; JAXPAD_HYPOTHESIS_PROFILE=thorough runs many more
examples from fresh random seeds."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {
    "deadline": None,
    "database": None,
    # Every example compiles a new XLA program; that is slow, not a bug in the strategy.
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much],
}
settings.register_profile("ci", max_examples=25, derandomize=True, **_COMMON)
settings.register_profile("thorough", max_examples=500, **_COMMON)
settings.load_profile(os.environ.get("JAXPAD_HYPOTHESIS_PROFILE", "ci"))
