"""Interleaved timing: run every candidate once per round (A B C A B C ...), take medians.

The machines are shared and noisy; interleaving spreads the noise over all candidates
alike, so the ratios between them are what to read.

The figures are taken with the C library's default allocator: it is what users run,
and what it costs is part of what they see (the padded convolutions' VALID conv
returns a large temporary to the system per call: 2.7x, which pinning hid).
``--pinned`` (``parse_args_allocator``) re-executes a script with malloc pinned,
and ``--pinned-beside`` (``benchmarks.run``, ``benchmarks.platform``) runs it a
second time pinned and puts those figures beside the headline as ``<key>_pinned``.

Why pinning steadies the numbers: XLA:CPU mallocs every output buffer and temporary
per call, on the calling thread for computations under 1000 flops and on a worker
thread for the rest. With glibc's defaults a buffer is sometimes a fresh mmap (the
threshold moves with the allocation history, up to 32 MiB) or comes from a worker's
arena that was trimmed, and writing it then page-faults: 4096 faults for 16 MB,
3-5 ms on the 2-core VM, more than the copy itself. Which program gets hit changes
from process to process, and a slice (no flops, run inline) never is.
``pin_allocator`` takes every allocation from one heap that is never given back, so
no candidate faults and the timings measure the kernels alone; the page faults per
call are counted either way.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import jax
import numpy as np


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``, else ``lscpu``), for the header."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                return line.partition(":")[2].strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return platform.processor() or "unknown CPU"


# The vector extensions that decide XLA:CPU's code and the library kernels it calls,
# widest first: two x86 VMs of the same core count read 1.5x apart on the same conv
# layers (issue 59), one with AVX-512 and one with AVX2 only.
_VECTOR_FLAGS = ("avx512f", "avx512bw", "avx512_bf16", "avx512_fp16", "amx_tile", "avx2", "fma")


def vector_extensions() -> str:
    """The host's vector extensions among ``_VECTOR_FLAGS`` and the widest ISA XLA:CPU
    may target (``--xla_cpu_max_isa`` in ``XLA_FLAGS``, else the host's)."""
    flags: set[str] = set()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("flags"):
                    flags = set(line.partition(":")[2].split())
                    break
    except OSError:
        pass
    found = [flag for flag in _VECTOR_FLAGS if flag in flags] or ["unknown"]
    limit = re.search(r"--xla_cpu_max_isa=(\S+)", os.environ.get("XLA_FLAGS", ""))
    target = f"XLA max ISA {limit.group(1)}" if limit else "XLA targets the host"
    return f"{' '.join(found)}; {target}"


def machine() -> str:
    """The header every benchmark prints: the CPU's model, its vector extensions and
    what XLA:CPU targets, the devices and jax's version."""
    device = jax.devices()[0]
    return (
        f"{cpu_model()} ({platform.machine()}; {vector_extensions()}), {jax.device_count()} "
        f"{device.platform} device(s) ({device.device_kind}), jax {jax.__version__}"
    )


# glibc's mallopt settings through the environment: one arena, no mmap at all, and
# never trim the heap, so a freed buffer is reused as it is.
PINNED_MALLOC = {
    "MALLOC_ARENA_MAX": "1",
    "MALLOC_MMAP_MAX_": "0",
    "MALLOC_TRIM_THRESHOLD_": str(1 << 40),
}


def pin_allocator(argv: list[str]) -> None:
    """Re-executes this process with ``PINNED_MALLOC`` unless it already runs with it.

    glibc reads these variables once, at start-up, so they cannot be set from inside.
    A script started as a module (``python -m benchmarks.sweep``) restarts as that
    module, so that its package imports still resolve.
    """
    if platform.system() != "Linux" or allocator() == "pinned":
        return
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    command = ["-m", spec.name, *argv[1:]] if spec is not None else argv
    os.execve(sys.executable, [sys.executable, *command], {**os.environ, **PINNED_MALLOC})


def parse_args_allocator(
    parser: argparse.ArgumentParser, pinned_beside: bool = False
) -> argparse.Namespace:
    """``parser``'s arguments, with ``--pinned`` added (and with ``pinned_beside``,
    ``--pinned-beside``). The default allocator is kept unless ``--pinned`` is given;
    then the process first re-executes itself with malloc pinned (``pin_allocator``).
    """
    parser.add_argument(
        "--pinned",
        action="store_true",
        help="re-execute with glibc's malloc pinned (benchmarks/_timing.py says why); "
        "the default allocator is the headline",
    )
    if pinned_beside:
        parser.add_argument(
            "--pinned-beside",
            action="store_true",
            help="run a second time with malloc pinned and add its figures beside the "
            "headline ones as <key>_pinned",
        )
    args = parser.parse_args()
    if args.pinned:
        pin_allocator(sys.argv)
    return args


# The old name: scripts that still import it get the default allocator too.
parse_args_pinned = parse_args_allocator


def rerun_pinned(argv: list[str], out: str) -> dict:
    """Runs this script's command again in a child process with malloc pinned,
    writing its JSON to ``out``, and returns that JSON (glibc reads its settings
    once, at start-up, so the pinned run needs a process of its own). ``argv``
    should not hold ``--out`` or ``--pinned-beside``."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    command = ["-m", spec.name] if spec is not None else [argv[0]]
    print(f"# running it again with malloc pinned: {' '.join(command + argv[1:])}", flush=True)
    # Its tables are not printed: the figures come back beside the headline ones.
    subprocess.run(
        [sys.executable, *command, *argv[1:], "--out", out],
        env={**os.environ, **PINNED_MALLOC},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return json.loads(Path(out).read_text())


def without_options(argv: list[str], *names: str, valued: tuple[str, ...] = ()) -> list[str]:
    """``argv`` less the flags ``names`` and the options ``valued`` with their values."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in names or arg.split("=")[0] in valued:
            skip = arg in valued
        else:
            kept.append(arg)
    return kept


def beside(rows: list[dict], pinned: list[dict], keys=None) -> list[dict]:
    """``rows`` with each float of the matching row of ``pinned`` added as
    ``<key>_pinned`` (rows match by position: the same command gives the same cases
    in the same order); ``keys`` limits which."""
    if len(rows) != len(pinned):
        raise ValueError(f"beside: {len(rows)} rows against {len(pinned)} pinned rows")
    merged = []
    for row, other in zip(rows, pinned):
        extra = {
            f"{key}_pinned": value
            for key, value in other.items()
            if isinstance(value, float) and (keys is None or key in keys)
        }
        merged.append({**row, **extra})
    return merged


def load() -> str:
    """The 1-, 5- and 15-minute load averages, to record beside the timings."""
    try:
        return "load average " + ", ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "load average unknown"


def allocator() -> str:
    pinned = all(os.environ.get(name) == value for name, value in PINNED_MALLOC.items())
    return "pinned" if pinned else "system"


def page_faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def interleaved_medians(candidates: dict, args_for: dict, **options) -> dict[str, float]:
    """Median seconds per call of each jitted candidate: ``interleaved_stats``
    (same options) without the page faults."""
    stats = interleaved_stats(candidates, args_for, **options)
    return {name: seconds for name, (seconds, _) in stats.items()}


def interleaved_stats(
    candidates: dict,
    args_for: dict,
    rounds: int = 30,
    warmup: int = 3,
    calls: int = 5,
    copies: int = 1,
) -> dict[str, tuple[float, float]]:
    """Median seconds and median page faults per call of each jitted candidate.

    Each round times ``calls`` back-to-back calls of one candidate, then moves on to
    the next, so a burst of noise from a neighbour hits every candidate alike. With
    ``copies`` > 1 the calls cycle through that many copies of the arguments, at
    different addresses. With one fixed set, two identical programs differed by up to
    20% within a process; cycling averages over where the inputs lie.
    """
    arg_sets = _copied_arguments(args_for, copies)
    for _ in range(warmup):
        for name, fn in candidates.items():
            for args in arg_sets[name]:
                jax.block_until_ready(fn(*args))
    times: dict[str, list[float]] = {name: [] for name in candidates}
    faults: dict[str, list[float]] = {name: [] for name in candidates}
    names = list(candidates)
    order = np.random.default_rng(0)
    # Counted across rounds, so that every copy is timed even with fewer calls a round.
    calls_made = dict.fromkeys(names, 0)
    for _ in range(rounds):
        # A fresh order each round, so that no candidate always follows the same one
        # (what runs just before, and what it left in the caches, shifts timings).
        for index in order.permutation(len(names)):
            name = names[index]
            fn = candidates[name]
            first_fault, start = page_faults(), time.perf_counter()
            for _ in range(calls):
                jax.block_until_ready(fn(*arg_sets[name][calls_made[name] % copies]))
                calls_made[name] += 1
            times[name].append((time.perf_counter() - start) / calls)
            faults[name].append((page_faults() - first_fault) / calls)
    return {name: (float(np.median(times[name])), float(np.median(faults[name]))) for name in names}


def _copied_arguments(args_for: dict, copies: int) -> dict[str, list[tuple]]:
    """``copies`` argument tuples per candidate; an array shared by several candidates
    shares its copies too."""
    copied = {}

    def copies_of(value):
        if id(value) not in copied:
            extra = [jax.numpy.array(value, copy=True) for _ in range(copies - 1)]
            copied[id(value)] = [value, *extra]
        return copied[id(value)]

    return {
        name: list(zip(*(copies_of(value) for value in args))) if args else [()] * copies
        for name, args in args_for.items()
    }
