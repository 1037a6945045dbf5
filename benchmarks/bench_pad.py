"""jaxpad.pad against jnp.pad and constant-mode lax.pad, forward and VJP.

    python -m benchmarks.bench_pad [--rounds 30] [--shape 16,64,64,64] [--axes 1,2] [--pad 3]

The pad section of ``run.py`` for one shape: every candidate is jitted and timed in
interleaved rounds in one process; the table shows medians and the ratios against
constant-mode lax.pad (forward) and against the constant-mode VJP (a slice).
"""

from __future__ import annotations

import argparse

from benchmarks._timing import allocator, machine, parse_args_allocator
from benchmarks.run import pad_rows


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--shape", default="16,64,64,64")
    parser.add_argument("--axes", default="1,2")
    parser.add_argument("--pad", type=int, default=3)
    args = parse_args_allocator(parser)
    shape = tuple(int(s) for s in args.shape.split(","))
    axes = tuple(int(a) for a in args.axes.split(","))
    rows = pad_rows(shape, axes, args.pad, args.rounds, calls=5)
    print(f"\nshape {shape}, pad {args.pad} on axes {axes}, float32")
    print(f"{machine()}; malloc {allocator()}; medians of {args.rounds} interleaved rounds")
    print(
        "| mode | jaxpad fwd ms | x lax.pad | jaxpad VJP ms | x const VJP "
        "| jnp.pad fwd ms | jnp.pad VJP ms | jnp.pad VJP / jaxpad VJP | VJP page faults |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row['mode']} | {row['fwd_ms']:.2f} | {row['fwd_ratio']:.2f} | "
            f"{row['vjp_ms']:.2f} | {row['vjp_ratio']:.2f} | {row['jnp_pad_fwd_ms']:.2f} | "
            f"{row['jnp_pad_vjp_ms']:.2f} | {row['jnp_pad_vjp_over_jaxpad']:.1f} | "
            f"{row['vjp_page_faults']:.0f} |"
        )
    reference = rows[0]
    print(
        f"(lax.pad constant: fwd {reference['reference_fwd_ms']:.2f} ms, "
        f"VJP {reference['reference_vjp_ms']:.2f} ms, "
        f"{reference['reference_vjp_page_faults']:.0f} page faults per VJP)"
    )


if __name__ == "__main__":
    main()
