"""Boundary conditions: a 2-D field padded with a different mode on each side.

    python -m benchmarks.boundary [--quick] [--sizes 256 1024] [--rounds 15]
                                  [--out boundary.json] [--pinned]

A square float32 field of each size in ``benchmarks.cases.BOUNDARY_SIZES`` is padded by
``BOUNDARY_WIDTH`` on every side with one ``jaxpad.pad`` call per mode set of
``BOUNDARY_CASES`` (a ``(begin, end)`` pair of modes per axis, ``pad_value`` of shape
(2, 2)), forward and VJP (the cotangent given, the pullback timed), against:

1. constant-mode ``lax.pad`` of the same widths: one copy of the field into a larger
   buffer, the least any padding costs;
2. the same ghost cells built as jax-cfd builds them, side by side with ``jnp.pad``:
   a Dirichlet wall is ``2 * jnp.pad(constant=bc) - jnp.pad(symmetric)``, a zero-flux
   Neumann wall ``jnp.pad(symmetric) - h * (jnp.pad(constant=0) - jnp.pad(constant=g))``
   with ``g = 0``, a periodic axis one ``jnp.pad(wrap)``; the lower side first, then the
   upper side of that result, axis 0 then axis 1. Sets jax-cfd cannot say (constant,
   edge, reflect, odd reflections) use one ``jnp.pad`` per side instead.

Both computations are checked to agree, forward and VJP, before anything is timed.
Each of the two comparisons is one group of programs timed in interleaved rounds
(shuffled every round), medians of ``calls`` back-to-back calls cycling through as
many copies of the inputs, with the C library's default allocator (what users run;
``--pinned`` pins glibc's malloc, which steadies the numbers: benchmarks/_timing.py).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import jaxpad
from benchmarks._timing import allocator, interleaved_stats, load, machine, parse_args_allocator
from benchmarks.cases import (
    BOUNDARY_CASES,
    BOUNDARY_SIZES,
    BOUNDARY_SIZES_QUICK,
    BOUNDARY_VALUES,
    BOUNDARY_WIDTH,
)


def jaxpad_boundary(modes, width):
    """One ``jaxpad.pad`` call: every side's ghost cells at once."""

    # jaxpad rejects a pad_value that no side reads.
    reads_value = any(
        side in ("constant", "dirichlet") for pair in side_pairs(modes) for side in pair
    )

    def pad(x, values):
        values = values if reads_value else None
        return jaxpad.pad(x, (width,) * x.ndim, (width,) * x.ndim, mode=modes, pad_value=values)

    return pad


def side_pairs(modes, ndim=2):
    """``modes`` as one ``(begin, end)`` pair per axis."""
    if isinstance(modes, str):
        return ((modes, modes),) * ndim
    return tuple((m, m) if isinstance(m, str) else tuple(m) for m in modes)


def _side(data, axis, side, width, mode, value, step):
    """``data`` padded by ``width`` on one side of ``axis`` as jax-cfd pads that side."""
    widths = [(0, 0)] * data.ndim
    widths[axis] = (width, 0) if side == 0 else (0, width)
    if mode == "dirichlet":
        # jax-cfd's cell-centred Dirichlet wall (its "mirror" padding).
        return 2 * jnp.pad(data, widths, constant_values=value) - jnp.pad(
            data, widths, mode="symmetric"
        )
    if mode == "symmetric":
        # jax-cfd's Neumann wall, flux 0: its formula, with the flux as a constant pad.
        direction = -1.0 if side == 0 else 1.0
        return jnp.pad(data, widths, mode="symmetric") - direction * step * (
            jnp.pad(data, widths) - jnp.pad(data, widths, constant_values=0.0)
        )
    if mode == "constant":
        return jnp.pad(data, widths, constant_values=value)
    if mode in ("reflect_odd", "symmetric_odd"):
        return jnp.pad(data, widths, mode=mode.removesuffix("_odd"), reflect_type="odd")
    return jnp.pad(data, widths, mode=mode)


def jax_cfd_boundary(modes, width):
    """The same ghost cells from several ``jnp.pad`` calls per axis, as jax-cfd builds
    them (``ConstantBoundaryConditions.pad_all``): see the module docstring."""

    def pad(x, values):
        step = 1.0 / x.shape[0]
        for axis, (begin, end) in enumerate(side_pairs(modes, x.ndim)):
            if begin == end == "wrap":
                widths = [(0, 0)] * x.ndim
                widths[axis] = (width, width)
                x = jnp.pad(x, widths, mode="wrap")
                continue
            if end == "wrap":
                # A periodic side facing another kind of side: no jax-cfd boundary
                # does this; its ghost cells are the axis's first cells.
                head = lax.slice_in_dim(x, 0, width, axis=axis)
                x = _side(x, axis, 0, width, begin, values[axis, 0], step)
                x = jnp.concatenate([x, head], axis=axis)
                continue
            if begin == "wrap":
                tail = lax.slice_in_dim(x, x.shape[axis] - width, x.shape[axis], axis=axis)
                x = jnp.concatenate([tail, x], axis=axis)
            else:
                x = _side(x, axis, 0, width, begin, values[axis, 0], step)
            x = _side(x, axis, 1, width, end, values[axis, 1], step)
        return x

    return pad


def lax_constant(width):
    def pad(x, values):
        del values  # the constant 0, as in the other benchmarks
        return lax.pad(x, np.float32(0), [(width, width, 0)] * x.ndim)

    return pad


def _vjp(fn):
    return jax.jit(lambda x, values, ct: jax.vjp(lambda x: fn(x, values), x)[1](ct)[0])


def check_agree(ours, theirs, x, values, ct):
    """jaxpad's and the baseline's ghost cells and cotangents agree."""
    np.testing.assert_allclose(
        jax.jit(ours)(x, values), jax.jit(theirs)(x, values), rtol=1e-6, atol=1e-6
    )
    np.testing.assert_allclose(
        _vjp(ours)(x, values, ct), _vjp(theirs)(x, values, ct), rtol=1e-5, atol=1e-5
    )


def run_case(size, name, modes, jax_cfd, rounds, calls):
    rng = np.random.default_rng(size)
    width = BOUNDARY_WIDTH
    x = jnp.asarray(rng.standard_normal((size, size), np.float32))
    ct = jnp.asarray(rng.standard_normal((size + 2 * width,) * 2, np.float32))
    values = jnp.asarray(BOUNDARY_VALUES, jnp.float32)
    ours, theirs, reference = (
        jaxpad_boundary(modes, width),
        jax_cfd_boundary(modes, width),
        lax_constant(width),
    )
    check_agree(ours, theirs, x, values, ct)
    programs = {"jaxpad": ours, "baseline": theirs, "lax": reference}
    timed = {(lib, "fwd"): jax.jit(fn) for lib, fn in programs.items()}
    timed.update({(lib, "vjp"): _vjp(fn) for lib, fn in programs.items()})

    def args(keys):
        return {key: (x, values) if key[1] == "fwd" else (x, values, ct) for key in keys}

    # Two groups, as in benchmarks.run: the baseline's several full-size temporaries
    # would otherwise move the copy-sized programs' medians.
    against_lax = {key: fn for key, fn in timed.items() if key[0] != "baseline"}
    against_baseline = {key: fn for key, fn in timed.items() if key[0] != "lax"}
    first, second = (
        {
            key: seconds
            for key, (seconds, _) in interleaved_stats(
                group, args(group), rounds=rounds, calls=calls, copies=calls
            ).items()
        }
        for group in (against_lax, against_baseline)
    )
    return {
        "size": size,
        "case": name,
        "modes": modes if isinstance(modes, str) else [list(pair) for pair in side_pairs(modes)],
        "baseline": "jax-cfd" if jax_cfd else "jnp.pad per side",
        "width": width,
        "jaxpad_fwd_ms": 1e3 * first[("jaxpad", "fwd")],
        "jaxpad_vjp_ms": 1e3 * first[("jaxpad", "vjp")],
        "lax_fwd_ms": 1e3 * first[("lax", "fwd")],
        "lax_vjp_ms": 1e3 * first[("lax", "vjp")],
        "fwd_over_lax": first[("jaxpad", "fwd")] / first[("lax", "fwd")],
        "vjp_over_lax": first[("jaxpad", "vjp")] / first[("lax", "vjp")],
        "baseline_fwd_ms": 1e3 * second[("baseline", "fwd")],
        "baseline_vjp_ms": 1e3 * second[("baseline", "vjp")],
        "fwd_speedup": second[("baseline", "fwd")] / second[("jaxpad", "fwd")],
        "vjp_speedup": second[("baseline", "vjp")] / second[("jaxpad", "vjp")],
    }


def describe(modes):
    if isinstance(modes, str):
        return f'"{modes}"'
    return ", ".join(f"{b}/{e}" if b != e else b for b, e in side_pairs(modes))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sizes", type=int, nargs="*")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--out", default=None, help="write the rows as JSON here")
    args = parse_args_allocator(parser)
    sizes = args.sizes or (BOUNDARY_SIZES_QUICK if args.quick else BOUNDARY_SIZES)
    rounds = args.rounds or (5 if args.quick else 15)
    print(f"# boundary: {machine()}, malloc {allocator()}, {load()} at start")
    print(
        f"# pad {BOUNDARY_WIDTH} on every side of a float32 square; medians of {rounds} "
        f"interleaved rounds of {args.calls} calls"
    )
    print(
        "| size | modes (axis 0; axis 1) | jaxpad fwd ms | / lax.pad | jaxpad VJP ms | / lax.pad "
        "| baseline | baseline fwd ms | speed-up | baseline VJP ms | speed-up |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    rows, start = [], time.perf_counter()
    for size in sizes:
        for name, modes, jax_cfd in BOUNDARY_CASES:
            row = run_case(size, name, modes, jax_cfd, rounds, args.calls)
            rows.append(row)
            print(
                f"| {size} | {name}: {describe(modes).replace(', ', '; ')} "
                f"| {row['jaxpad_fwd_ms']:.3f} | {row['fwd_over_lax']:.2f}x "
                f"| {row['jaxpad_vjp_ms']:.3f} | {row['vjp_over_lax']:.2f}x "
                f"| {row['baseline']} | {row['baseline_fwd_ms']:.3f} | {row['fwd_speedup']:.1f}x "
                f"| {row['baseline_vjp_ms']:.3f} | {row['vjp_speedup']:.1f}x |",
                flush=True,
            )
    print(f"\n# {load()} at the end, {time.perf_counter() - start:.0f} s")
    for key in ("fwd_over_lax", "vjp_over_lax", "fwd_speedup", "vjp_speedup"):
        found = [row[key] for row in rows]
        print(f"# {key}: median {np.median(found):.2f}, min {min(found):.2f}, max {max(found):.2f}")
    if args.out:
        result = {"machine": machine(), "malloc": allocator(), "rounds": rounds, "rows": rows}
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
