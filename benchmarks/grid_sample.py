"""``jaxpad.nn.grid_sample`` against ``torch.nn.functional.grid_sample`` on the CPU.

    python -m benchmarks.grid_sample [--rounds 10] [--quick] [--pinned] [--threads N]
                                     [--cpu-time]

Each row is one input shape, mode and padding mode, sampled on an affine grid (a
rotation by 0.2 rad, a zoom of 0.9 and a shift, ``affine_grid`` with
``align_corners=False``). Its candidates run interleaved in one process
(``benchmarks/_timing.py``): the forward and the forward with the backward (the
gradients with respect to the input and the grid, a fixed cotangent):

- ``torch``: ``torch.nn.functional.grid_sample`` (and ``torch.autograd.grad``), with
  torch's intra-op threads set to the number of cores XLA uses (``--threads``);
- ``jaxpad``: ``jax.jit`` of ``jaxpad.nn.grid_sample`` (and of its ``jax.vjp``);
- ``jaxpad2``: the same jitted program again, the control column (what noise alone
  gives).

The ratios are to torch's median. The C library's default allocator is kept (what
users run); ``--pinned`` re-executes with malloc pinned as the other benchmarks do.
Skips the torch column when torch is not installed. ``--cpu-time`` times the
process's CPU seconds per call (all threads, ``benchmarks.conv.cpu_medians``) instead
of the wall clock: on a shared machine the wall clock mostly measures the wait for a
core.
"""

from __future__ import annotations

import argparse
import os

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad
from benchmarks._timing import allocator, interleaved_stats, load, machine, parse_args_allocator
from benchmarks.conv import cpu_medians

# main() sets it: the wall clock (interleaved_stats) or CPU seconds (cpu_medians).
CPU_TIME = False


def _medians(candidates, args_for, rounds, calls):
    if CPU_TIME:
        return cpu_medians(candidates, args_for, rounds=rounds, calls=calls)
    stats = interleaved_stats(candidates, args_for, rounds=rounds, calls=calls)
    return {name: seconds for name, (seconds, _) in stats.items()}


# (name, input shape (NCHW or NCDHW), mode, padding mode, channels_last)
CASES = [
    ("(8, 64, 64, 64) bilinear reflection", (8, 64, 64, 64), "bilinear", "reflection", False),
    ("(8, 64, 64, 64) bilinear zeros", (8, 64, 64, 64), "bilinear", "zeros", False),
    ("(8, 64, 64, 64) bicubic border", (8, 64, 64, 64), "bicubic", "border", False),
    ("(8, 64, 64, 64) nearest zeros", (8, 64, 64, 64), "nearest", "zeros", False),
    ("(8, 64, 64, 64) bilinear reflection NHWC", (8, 64, 64, 64), "bilinear", "reflection", True),
    ("(2, 16, 32, 32, 32) trilinear border", (2, 16, 32, 32, 32), "bilinear", "border", False),
]
QUICK = [0, 2]


def _theta(n: int, d: int) -> np.ndarray:
    c, s = 0.9 * np.cos(0.2), 0.9 * np.sin(0.2)
    if d == 2:
        theta = np.asarray([[c, -s, 0.05], [s, c, -0.03]], np.float32)
    else:
        theta = np.asarray([[c, -s, 0, 0.05], [s, c, 0, -0.03], [0, 0, 0.9, 0.02]], np.float32)
    return np.broadcast_to(theta, (n, d, d + 1)).copy()


class _Torch:
    """A torch call in the timer's shape: called with no arguments, returns a value
    ``jax.block_until_ready`` passes through (torch's CPU ops are synchronous)."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self):
        self.fn()
        return 0


def run_case(name, shape, mode, padding, channels_last, rounds, torch):
    d = len(shape) - 2
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32)
    grid = np.asarray(jaxpad.nn.affine_grid(_theta(shape[0], d), shape))
    out_shape = jax.eval_shape(lambda: jaxpad.nn.grid_sample(x, grid, mode, padding)).shape
    ct = rng.standard_normal(out_shape).astype(np.float32)
    xj = jnp.asarray(np.moveaxis(x, 1, -1).copy() if channels_last else x)
    gj, ctj = jnp.asarray(grid), jnp.asarray(np.moveaxis(ct, 1, -1).copy() if channels_last else ct)

    def sample(x, grid):
        return jaxpad.nn.grid_sample(x, grid, mode, padding, channels_last=channels_last)

    def vjp(x, grid, ct):
        _, pullback = jax.vjp(sample, x, grid)
        return pullback(ct)

    forward, backward = jax.jit(sample), jax.jit(vjp)
    fwd = {"jaxpad": forward, "jaxpad2": forward}
    fwd_args = {"jaxpad": (xj, gj), "jaxpad2": (xj, gj)}
    bwd = {"jaxpad": backward, "jaxpad2": backward}
    bwd_args = {"jaxpad": (xj, gj, ctj), "jaxpad2": (xj, gj, ctj)}
    if torch is not None:
        F = torch.nn.functional
        tx, tg, tct = torch.tensor(x), torch.tensor(grid), torch.tensor(ct)
        txr, tgr = tx.clone().requires_grad_(), tg.clone().requires_grad_()
        if channels_last and d == 2:
            tx = tx.contiguous(memory_format=torch.channels_last)
        want = F.grid_sample(tx, tg, mode, padding, align_corners=False).numpy()
        got = np.asarray(forward(xj, gj))
        got = np.moveaxis(got, -1, 1) if channels_last else got
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)

        def torch_backward():
            out = F.grid_sample(txr, tgr, mode, padding, align_corners=False)
            return torch.autograd.grad(out, (txr, tgr), tct)

        fwd["torch"] = _Torch(lambda: F.grid_sample(tx, tg, mode, padding, align_corners=False))
        fwd_args["torch"] = ()
        bwd["torch"] = _Torch(torch_backward)
        bwd_args["torch"] = ()
    f = _medians(fwd, fwd_args, rounds=rounds, calls=3)
    b = _medians(bwd, bwd_args, rounds=rounds, calls=2)
    return {
        "case": name,
        "forward_ms": {k: v * 1e3 for k, v in f.items()},
        "backward_ms": {k: v * 1e3 for k, v in b.items()},
    }


def _print(row):
    f, b = row["forward_ms"], row["backward_ms"]
    ref_f, ref_b = f.get("torch"), b.get("torch")

    def cell(values, key, ref):
        if key not in values:
            return "-"
        ratio = f" ({values[key] / ref:.2f}x)" if ref else ""
        return f"{values[key]:.1f}{ratio}"

    print(
        f"| {row['case']} | {cell(f, 'torch', ref_f)} | {cell(f, 'jaxpad', ref_f)} | "
        f"{cell(f, 'jaxpad2', ref_f)} | {cell(b, 'torch', ref_b)} | {cell(b, 'jaxpad', ref_b)} | "
        f"{cell(b, 'jaxpad2', ref_b)} |",
        flush=True,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="two rows only")
    parser.add_argument(
        "--threads", type=int, default=os.cpu_count(), help="torch's intra-op threads"
    )
    parser.add_argument("--cpu-time", action="store_true", help="CPU seconds, not the wall clock")
    args = parse_args_allocator(parser)
    global CPU_TIME
    CPU_TIME = args.cpu_time
    try:
        import torch
    except ImportError:
        torch = None
    else:
        torch.set_num_threads(args.threads)
    print(
        f"# {machine()}; torch {getattr(torch, '__version__', 'not installed')}, "
        f"{args.threads} threads; allocator {allocator()}; {load()}"
    )
    clock = "CPU ms (all threads)" if args.cpu_time else "ms (wall clock)"
    print(f"# {clock} per call, medians of interleaved rounds; (ratio to torch)")
    print(
        "| case | torch fwd | jaxpad fwd | jaxpad fwd (control) | torch fwd+bwd | "
        "jaxpad fwd+bwd | jaxpad fwd+bwd (control) |"
    )
    print("|---|---|---|---|---|---|---|")
    cases = [CASES[i] for i in QUICK] if args.quick else CASES
    for case in cases:
        _print(run_case(*case, rounds=args.rounds, torch=torch))
    print(f"# {load()}")


if __name__ == "__main__":
    main()
