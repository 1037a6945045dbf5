"""benchmarks/sweep.py: its jnp.pad baseline computes jaxpad's values."""

import jax
import numpy as np
import pytest

from benchmarks import sweep
from benchmarks.cases import SWEEP_COUNT, SWEEP_SEED, sweep_configs

CROPPING = [c for c in sweep_configs(SWEEP_COUNT, SWEEP_SEED) if min(c.begin + c.end) < 0]


@pytest.mark.parametrize("config", CROPPING, ids=lambda c: c.describe())
def test_the_baseline_of_every_cropping_configuration_has_jaxpads_values(config):
    # A ratio to jnp.pad means "the same result, faster or slower" only if the two
    # programs agree. A wrap pad beside a crop reads the cropped rows: jnp.pad of
    # x[crop] differs there, so the sweep pads first and crops after.
    programs = sweep._programs(config)
    x = np.random.default_rng(0).standard_normal(config.shape).astype(np.float32)
    ours = jax.jit(programs["jaxpad"])(x)
    theirs = jax.jit(programs["jnp.pad"])(x)
    np.testing.assert_array_equal(ours, theirs)


def test_the_sweep_crops_in_every_non_constant_mode():
    assert {c.mode for c in CROPPING} == {"edge", "reflect", "symmetric", "wrap"}
