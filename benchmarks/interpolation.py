"""jaxpad.scipy.ndimage's interpolation against scipy.ndimage and jax.scipy.ndimage.

    python -m benchmarks.interpolation [--rounds 7] [--orders 1 3 5] [--only zoom ...]
    python -m benchmarks.interpolation --quick    # 256x256, order 3, 3 rounds
    python -m benchmarks.interpolation --jax-modes  # orders 0-1 against jax.scipy
    python -m benchmarks.interpolation --trace  # lowering shift and zoom of long axes

Each row is one function and order, timed in interleaved rounds
(benchmarks/_timing.py) in one process, with glibc's default allocator, on a float32
image (1024x1024 unless ``--size``), mode ``mirror``: scipy's function
(single-threaded C, computing in float64), jaxpad's under ``jit``, the same jaxpad
program again (the control: its ratio is the noise), the VJP with respect to the
input (the cotangent given, the pullback timed), and for ``map_coordinates`` of
orders 0 and 1 ``jax.scipy.ndimage.map_coordinates`` in the same mode. Every result
is checked against scipy before anything is timed. Ratios are scipy's time over
jaxpad's (above 1: jaxpad is faster) and the VJP's over the forward's.

``--jax-modes`` times ``map_coordinates`` of orders 0 and 1 on the same warp in each
mode ``jax.scipy.ndimage.map_coordinates`` takes, against jaxpad's mode that computes
the same function (``JAX_MODES``), interleaved with a control (jaxpad's program
again): the ratios are JAX's time over jaxpad's.

``--trace`` times the lowering (tracing and planning, no compilation) of a cubic
``shift`` by 0.3 and ``zoom`` by 1.5 and 1.37 (mirror) of 1-D float32 signals of
2^16 to 2^22 samples: the concrete amounts' plans are computed on the host.
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp
import jax.scipy.ndimage as jsn
import numpy as np
import scipy.ndimage as sn

from benchmarks._timing import interleaved_medians, load, machine
from jaxpad.scipy import ndimage as jn

MODE = "mirror"


def _image(size):
    i, j = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    rng = np.random.default_rng(0)
    smooth = np.sin(i / 37.0) * np.cos(j / 23.0) + 0.2 * np.sin((i + j) / 11.0)
    return (smooth + 0.05 * rng.standard_normal((size, size))).astype(np.float32)


def _warp(size):
    """A random smooth warp of up to 3 samples, as issue 44's prototype."""
    rng = np.random.default_rng(1)
    grid = np.stack(np.meshgrid(np.arange(size), np.arange(size), indexing="ij")).astype(np.float32)
    return (grid + rng.uniform(-3, 3, grid.shape)).astype(np.float32)


def cases(size):
    """(name, scipy call, jaxpad call taking the image, jax.scipy call or None)."""
    theta = np.deg2rad(30.0)
    matrix = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
    centre = (size - 1) / 2
    offset = centre - matrix @ np.array([centre, centre])
    coords = _warp(size)  # scipy's; jaxpad's and jax.scipy's take it as an argument
    return [
        (
            "map_coordinates warp",
            lambda x, o: sn.map_coordinates(x, coords, order=o, mode=MODE),
            lambda x, o, c: jn.map_coordinates(x, c, order=o, mode=MODE),
            lambda x, o, c: jsn.map_coordinates(x, c, order=o, mode=MODE),
        ),
        (
            "shift (3.3, -7.6)",
            lambda x, o: sn.shift(x, (3.3, -7.6), order=o, mode=MODE),
            lambda x, o, c: jn.shift(x, (3.3, -7.6), order=o, mode=MODE),
            None,
        ),
        (
            "zoom x2",
            lambda x, o: sn.zoom(x, 2, order=o, mode=MODE),
            lambda x, o, c: jn.zoom(x, 2, order=o, mode=MODE),
            None,
        ),
        (
            "zoom x0.5",
            lambda x, o: sn.zoom(x, 0.5, order=o, mode=MODE),
            lambda x, o, c: jn.zoom(x, 0.5, order=o, mode=MODE),
            None,
        ),
        (
            "rotate 30",
            lambda x, o: sn.rotate(x, 30, reshape=False, order=o, mode=MODE),
            lambda x, o, c: jn.rotate(x, 30, reshape=False, order=o, mode=MODE),
            None,
        ),
        (
            "affine_transform",
            lambda x, o: sn.affine_transform(x, matrix, offset, order=o, mode=MODE),
            lambda x, o, c: jn.affine_transform(x, matrix, offset, order=o, mode=MODE),
            None,
        ),
        (
            "spline_filter",
            lambda x, o: sn.spline_filter(x, max(o, 2), output=np.float32, mode=MODE),
            lambda x, o, c: jn.spline_filter(x, max(o, 2), output=np.float32, mode=MODE),
            None,
        ),
    ]


def run(size, orders, rounds, only):
    x = _image(size)
    xj = jnp.asarray(x)
    cj = jnp.asarray(_warp(size))
    rows = []
    for name, ours_scipy, ours_jax, theirs_jax in cases(size):
        if only and not any(word in name for word in only):
            continue
        for order in orders:
            if name == "spline_filter" and order < 2:
                continue
            want = ours_scipy(x, order)
            f = jax.jit(lambda a, c, o=order, g=ours_jax: g(a, o, c))
            got = np.asarray(f(xj, cj))
            span = float(x.max() - x.min())
            np.testing.assert_allclose(got, want, rtol=0, atol=2e-5 * span)
            ct = jnp.asarray(np.random.default_rng(2).standard_normal(got.shape).astype(np.float32))
            candidates = {
                "scipy": lambda a, o=order, g=ours_scipy: g(a, o),
                "jaxpad": f,
                "control": jax.jit(lambda a, c, o=order, g=ours_jax: g(a, o, c)),
                "vjp": jax.jit(
                    lambda a, c, t, o=order, g=ours_jax: jax.vjp(lambda b: g(b, o, c), a)[1](t)[0]
                ),
            }
            args = {"scipy": (x,), "jaxpad": (xj, cj), "control": (xj, cj), "vjp": (xj, cj, ct)}
            if theirs_jax is not None and order <= 1:
                candidates["jax.scipy"] = jax.jit(lambda a, c, o=order, g=theirs_jax: g(a, o, c))
                args["jax.scipy"] = (xj, cj)
            t = interleaved_medians(candidates, args, rounds=rounds, warmup=1, calls=1)
            ours = t["jaxpad"]
            row = {
                "function": name,
                "order": order,
                "scipy ms": t["scipy"] * 1e3,
                "jaxpad ms": ours * 1e3,
                "scipy / jaxpad": t["scipy"] / ours,
                "control / jaxpad": t["control"] / ours,
                "VJP / forward": t["vjp"] / ours,
                "jax.scipy / jaxpad": t["jax.scipy"] / ours if "jax.scipy" in t else None,
            }
            rows.append(row)
            js = "" if row["jax.scipy / jaxpad"] is None else f"{row['jax.scipy / jaxpad']:.2f}"
            print(
                f"| {name} | {order} | {row['scipy ms']:.1f} | {row['jaxpad ms']:.1f} | "
                f"{row['scipy / jaxpad']:.2f} | {row['control / jaxpad']:.2f} | "
                f"{row['VJP / forward']:.2f} | {js} |",
                flush=True,
            )
    return rows


# jax.scipy.ndimage's modes and jaxpad's (scipy's) mode computing the same function
# at order 1 (and at order 0 away from halves, which JAX rounds away from zero): its
# constant reads cval tap by tap, scipy's grid-constant; its wrap has period n.
JAX_MODES = (
    ("constant", "grid-constant"),
    ("nearest", "nearest"),
    ("mirror", "mirror"),
    ("reflect", "reflect"),
    ("wrap", "grid-wrap"),
)


def run_jax_modes(size, rounds):
    """``map_coordinates`` of orders 0 and 1 against ``jax.scipy``'s in each mode."""
    x = jnp.asarray(_image(size))
    c = jnp.asarray(_warp(size))
    print(
        "| order | jax.scipy mode | jaxpad mode | jaxpad ms | jax.scipy ms | "
        "jax.scipy / jaxpad | control / jaxpad |"
    )
    print("|---|---|---|---|---|---|---|")
    rows = []
    for order in (0, 1):
        candidates = {}
        for theirs, ours in JAX_MODES:
            for name in ("jaxpad", "control"):
                candidates[f"{name} {ours}"] = jax.jit(
                    lambda a, c, m=ours, o=order: jn.map_coordinates(a, c, order=o, mode=m)
                )
            candidates[f"jax.scipy {theirs}"] = jax.jit(
                lambda a, c, m=theirs, o=order: jsn.map_coordinates(a, c, order=o, mode=m)
            )
        t = interleaved_medians(candidates, {k: (x, c) for k in candidates}, rounds=rounds)
        for theirs, ours in JAX_MODES:
            mine, other = t[f"jaxpad {ours}"], t[f"jax.scipy {theirs}"]
            control = t[f"control {ours}"] / mine
            row = (order, theirs, ours, mine * 1e3, other * 1e3, other / mine, control)
            rows.append(row)
            print("| {} | {} | {} | {:.2f} | {:.2f} | {:.2f} | {:.2f} |".format(*row), flush=True)
    return rows


TRACED = {
    "shift 0.3": lambda x: jn.shift(x, 0.3, order=3, mode=MODE),
    "zoom 1.5": lambda x: jn.zoom(x, 1.5, order=3, mode=MODE),
    "zoom 1.37": lambda x: jn.zoom(x, 1.37, order=3, mode=MODE),
}


def run_trace(sizes=(2**16, 2**20, 2**22)):
    """Seconds to lower each of ``TRACED`` at each size (one lowering each: they are
    seconds long, far above the noise)."""
    import time

    print("| function | " + " | ".join(f"2^{int(np.log2(n))} samples, s" for n in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    rows = []
    for name, fn in TRACED.items():
        times = []
        for n in sizes:
            start = time.perf_counter()
            jax.jit(fn).lower(jax.ShapeDtypeStruct((n,), jnp.float32))
            times.append(time.perf_counter() - start)
        rows.append((name, times))
        print(f"| {name} | " + " | ".join(f"{t:.2f}" for t in times) + " |", flush=True)
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--orders", type=int, nargs="*", default=[1, 3, 5])
    parser.add_argument("--only", nargs="*", default=[], help="names containing these words")
    parser.add_argument("--quick", action="store_true", help="256x256, order 3, 3 rounds")
    parser.add_argument(
        "--jax-modes", action="store_true", help="orders 0-1 against jax.scipy in its modes"
    )
    parser.add_argument("--trace", action="store_true", help="lowering shift and zoom")
    args = parser.parse_args(argv)
    if args.trace:
        print(f"{machine()}; {load()}; float32, mode {MODE}, order 3, lowering only")
        print()
        return run_trace()
    if args.quick:
        args.size, args.orders, args.rounds = 256, [3], 3
    if args.jax_modes:
        print(f"{machine()}; {load()}; float32 {args.size}x{args.size}, jit")
        print()
        rows = run_jax_modes(args.size, args.rounds)
        print(f"\n{load()}")
        return rows
    print(f"{machine()}; {load()}; float32 {args.size}x{args.size}, mode {MODE}, jit")
    print()
    print(
        "| function | order | scipy ms | jaxpad ms | scipy / jaxpad | control / jaxpad | "
        "VJP / forward | jax.scipy / jaxpad |"
    )
    print("|---|---|---|---|---|---|---|---|")
    rows = run(args.size, args.orders, args.rounds, args.only)
    print(f"\n{load()}")
    return rows


if __name__ == "__main__":
    main()
