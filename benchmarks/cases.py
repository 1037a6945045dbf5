"""Every case the benchmarks time, in one place.

The scripts (``python -m benchmarks.run``, ``.sweep``, ``.fused``, ``.bench_pad``,
``.bench_dynamic_pad``, ``.bench_broadcast``) import their shapes, pads and sizes
from here, so a figure in docs/performance.md names one case list.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

MODES = ("constant", "edge", "reflect", "symmetric", "wrap")
NON_CONSTANT = MODES[1:]

# benchmarks.run, section 1: (shape, padded axes, pad) for the full and quick runs.
PAD_CASES = [((16, 64, 64, 64), (1, 2), 3), ((1 << 22,), (0,), 1024)]
PAD_CASES_QUICK = [((4, 32, 32, 16), (1, 2), 3), ((1 << 18,), (0,), 1024)]

# Section 2: compile time of reflect on an axis of 2 as the pad grows.
COMPILE_WIDTHS = (1, 10, 100, 1000)
JNP_COMPILE_WIDTHS = (1, 10, 100, 500)
COMPILE_WIDTHS_QUICK = (1, 10, 100, 1000)
JNP_COMPILE_WIDTHS_QUICK = (1, 10, 50)

# Section 4: dynamic_pad's per-example translation and broadcast.
DYNAMIC_PAD_SHAPE = (64, 64, 64, 3)
DYNAMIC_PAD_MAX_OFFSET = 8
BROADCAST_CASES = [
    ((64, 1, 256), (64, 128, 256)),
    ((256,), (64, 64, 256)),
    ((1, 512, 1), (8, 512, 512)),
]

# Section 5: the CycleGAN generator step (batch, size, channels, residual blocks).
GENERATOR_STEP = (8, 64, 32, 6)
GENERATOR_STEP_QUICK = (2, 32, 16, 2)

# benchmarks.fused: the consumers a pad feeds, the field sizes, the heat equation.
FUSED_WORKLOADS = ("stencil5", "stencil9", "reduction", "elementwise", "conv")
FUSED_SIZES = (64, 256, 1024, 2048)
FUSED_SIZES_QUICK = (64, 512)
HEAT_SIZES = (64, 256, 1024)
HEAT_SIZES_QUICK = (64, 256)
HEAT_STEPS = 100


# benchmarks.fused --workloads several: SEVERAL_COUNT pads of equal shape and pads in
# one jitted program (as a network's layers pad theirs), channels-first.
SEVERAL_CASES = (((8, 16, 64, 64), 1), ((8, 16, 64, 64), 20))
SEVERAL_COUNT = 3


def heat_steps(size: int) -> int:
    """100 steps as in the issue's 256x256 case; fewer on large fields, so one call
    stays under a second on 2 cores."""
    return HEAT_STEPS if size <= 256 else 20


# benchmarks.sweep: random configurations from a fixed seed.
SWEEP_SEED = 0
SWEEP_COUNT = 64
SWEEP_COUNT_QUICK = 12
SWEEP_KINDS = ("small", "half", "periods", "one-sided", "negative")


@dataclasses.dataclass(frozen=True)
class SweepConfig:
    shape: tuple[int, ...]
    begin: tuple[int, ...]
    end: tuple[int, ...]
    mode: str
    kind: str

    def describe(self) -> str:
        pads = ", ".join(f"{b}/{e}" if b or e else "0" for b, e in zip(self.begin, self.end))
        return f"{self.mode} {self.kind} {self.shape} pads {pads}"


def _shape(rng, elements: float) -> tuple[int, ...]:
    """A shape of about ``elements`` float32s, with short axes (2-8) anywhere."""
    rank = int(rng.integers(1, 5))
    short = [rank > 1 and rng.random() < 0.35 for _ in range(rank)]
    if all(short):
        short[int(rng.integers(rank))] = False
    sizes = [int(rng.integers(2, 9)) if s else 0 for s in short]
    rest = elements / np.prod([s for s in sizes if s] or [1])
    long_axes = [i for i, s in enumerate(short) if not s]
    weights = rng.dirichlet(np.ones(len(long_axes)))
    for i, weight in zip(long_axes, weights):
        sizes[i] = max(9, int(round(rest**weight)))
    # Rounding short axes up to 9 inflates the total: the longest axis absorbs it.
    longest = max(long_axes, key=lambda i: sizes[i])
    sizes[longest] = max(9, int(sizes[longest] * elements / np.prod(sizes)))
    return tuple(sizes)


def sweep_configs(count: int = SWEEP_COUNT, seed: int = SWEEP_SEED) -> list[SweepConfig]:
    """``count`` configurations: every non-constant mode with every kind of pad
    (small, half the axis, several periods, one-sided, negative), ranks 1-4, inputs
    of 1-16 MiB float32 (1-4 MiB where pads span periods, so outputs stay small),
    short and long axes in any position, one or two padded axes."""
    rng = np.random.default_rng(seed)
    configs = []
    for i in range(count):
        mode = NON_CONSTANT[i % len(NON_CONSTANT)]
        kind = SWEEP_KINDS[(i // len(NON_CONSTANT)) % len(SWEEP_KINDS)]
        top = 20 if kind == "periods" else 22
        shape = _shape(rng, 2 ** rng.uniform(18, top))
        # Pads spanning periods on one axis only: on two the output grows 60x.
        count_axes = 1 if kind == "periods" else int(rng.integers(1, 3))
        axes = [int(a) for a in rng.permutation(len(shape))[:count_axes]]
        begin, end = [0] * len(shape), [0] * len(shape)
        for axis in axes:
            n = shape[axis]
            if kind == "small":
                b, e = int(rng.integers(1, 4)), int(rng.integers(1, 4))
            elif kind == "half":
                b = e = max(1, n // 2)
            elif kind == "periods":  # 2-3.5 periods each side: at most 8x the input
                b, e = (int(rng.uniform(2, 3.5) * n) for _ in range(2))
            elif kind == "one-sided":
                k = int(rng.integers(1, max(2, n // 4)))
                b, e = (k, 0) if rng.random() < 0.5 else (0, k)
            else:  # negative: crop one side, pad the other
                crop = int(rng.integers(1, max(2, n // 4)))
                k = int(rng.integers(1, 4))
                b, e = (-crop, k) if rng.random() < 0.5 else (k, -crop)
            begin[axis], end[axis] = b, e
        configs.append(SweepConfig(shape, tuple(begin), tuple(end), mode, kind))
    return configs


# benchmarks.boundary: a 2-D field padded by BOUNDARY_WIDTH on every side, a mode per
# side: (name, mode: one string or a (begin, end) pair per axis, whether jax-cfd can say it). Axis 0
# is y (walls), axis 1 is x. The jax-cfd-style baseline reads "dirichlet" as jax-cfd's
# cell-centred Dirichlet wall, "symmetric" as its zero-flux Neumann wall and "wrap" on
# both sides as periodic; the other sets' baseline is one jnp.pad per side.
BOUNDARY_SIZES = (256, 1024, 2048)
BOUNDARY_SIZES_QUICK = (256, 1024)
BOUNDARY_WIDTH = 2
BOUNDARY_CASES = (
    # One string for every side: the planner of the five original modes, for reference.
    ("Neumann box, one string", "symmetric", True),
    ("channel", (("dirichlet", "dirichlet"), ("wrap", "wrap")), True),
    ("wall + outflow", (("dirichlet", "symmetric"), ("wrap", "wrap")), True),
    ("box", (("dirichlet", "symmetric"), ("symmetric", "dirichlet")), True),
    ("four modes", (("constant", "edge"), ("reflect", "dirichlet")), False),
    ("odd", (("reflect_odd", "symmetric_odd"), ("wrap", "dirichlet")), False),
)
# pad_value, shape (ndim, 2): read only by the constant and dirichlet sides.
BOUNDARY_VALUES = ((0.5, -1.0), (2.0, 0.25))


def _one_axis(shape, axis, begin, end, mode, kind):
    pads_begin, pads_end = [0] * len(shape), [0] * len(shape)
    pads_begin[axis], pads_end[axis] = begin, end
    return SweepConfig(tuple(shape), tuple(pads_begin), tuple(pads_end), mode, kind)


def slab_configs() -> list[SweepConfig]:
    """One padded axis before short trailing axes, pads of a quarter and half of it:
    the study behind ``_MAX_SUMMED_SLAB`` (``python -m benchmarks.sweep --forms
    --cases slabs``)."""
    shapes = [
        ((64, 1000, 4, 4), 2),
        ((32, 1000, 8, 4), 2),
        ((32, 1000, 16, 4), 2),
        ((16, 1000, 32, 4), 2),
        ((16, 1000, 8, 16), 2),
        ((8, 1000, 64, 4), 2),
        ((4, 1000, 128, 2), 2),
        ((250, 1000, 4), 1),
    ]
    return [
        _one_axis(shape, axis, pad, pad, mode, f"slab {math.prod(shape[axis:])}")
        for shape, axis in shapes
        for pad in (max(1, shape[axis] // 4), shape[axis] // 2)
        for mode in ("reflect", "symmetric", "edge")
    ]


def signal_configs() -> list[SweepConfig]:
    """1-D signals with bands of 5-50% of the cotangent: the study behind
    ``_MIN_BOXED_BAND_SHARE_1D`` (``--forms --cases signals``)."""
    configs = []
    for n in (1_000_000, 3_000_000):
        for share in (0.05, 0.1, 0.2, 0.3, 0.5):
            total = int(n * share / (1 - share))
            for mode in ("reflect", "wrap", "edge"):
                configs.append(
                    _one_axis((n,), 0, total // 2, total - total // 2, mode, f"bands {share:.0%}")
                )
    return configs


def row_configs() -> list[SweepConfig]:
    """Several rows padded on the last axis alone, bands of 10-50% of the cotangent:
    the study behind ``_MIN_BOXED_BAND_SHARE_ROWS`` (``--forms --cases rows``)."""
    configs = []
    for rows, n in ((1620, 390), (200, 5000), (20, 50000), (4000, 128)):
        for share in (0.1, 0.3, 0.5):
            total = int(n * share / (1 - share))
            for mode in ("reflect", "wrap", "edge"):
                configs.append(
                    _one_axis(
                        (rows, n), 1, total // 2, total - total // 2, mode, f"bands {share:.0%}"
                    )
                )
    return configs


def fixed_configs() -> list[SweepConfig]:
    """The pad's fixed forward cases, timed like the sweep's (``--cases fixed``): a
    long 1-D signal padded for centred STFT frames (2**22 by 1024, and 2**20 by 64),
    and a batch of images padded by 3 on both spatial axes, in every copying mode."""
    configs = []
    for mode in NON_CONSTANT:
        configs.append(_one_axis((1 << 22,), 0, 1024, 1024, mode, "signal"))
        configs.append(_one_axis((1 << 20,), 0, 64, 64, mode, "signal"))
        configs.append(SweepConfig((16, 64, 64, 64), (0, 3, 3, 0), (0, 3, 3, 0), mode, "images"))
    return configs
