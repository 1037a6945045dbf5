"""Interleaved timing: run every candidate once per round (A B C A B C ...), take medians.

The machines are shared and noisy; interleaving spreads the noise over all candidates
alike, so the ratios between them are what to read.
"""

from __future__ import annotations

import platform
import time

import jax
import numpy as np


def machine() -> str:
    device = jax.devices()[0]
    return (
        f"{platform.processor() or platform.machine()}, {jax.device_count()} "
        f"{device.platform} device(s) ({device.device_kind}), jax {jax.__version__}"
    )


def interleaved_medians(
    candidates: dict, args_for: dict, rounds: int = 30, warmup: int = 3, calls: int = 5
) -> dict[str, float]:
    """Median seconds per call of each jitted candidate, from interleaved rounds.

    Each round times ``calls`` back-to-back calls of one candidate, then moves on to
    the next, so a burst of noise from a neighbour hits every candidate alike.
    """
    for _ in range(warmup):
        for name, fn in candidates.items():
            jax.block_until_ready(fn(*args_for[name]))
    times = {name: [] for name in candidates}
    names = list(candidates)
    order = np.random.default_rng(0)
    for _ in range(rounds):
        # A fresh order each round, so that no candidate always follows the same one
        # (what runs just before, and what it left in the caches, shifts timings).
        for index in order.permutation(len(names)):
            name = names[index]
            fn = candidates[name]
            start = time.perf_counter()
            for _ in range(calls):
                jax.block_until_ready(fn(*args_for[name]))
            times[name].append((time.perf_counter() - start) / calls)
    return {name: float(np.median(t)) for name, t in times.items()}
