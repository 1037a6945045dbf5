"""jaxpad.scipy.ndimage against scipy.ndimage: jitted filters, forward and VJP.

    python -m benchmarks.scipy_filters [--rounds 7] [--only gaussian median ...]
        [--dtypes float32 float64] [--no-3d]
    python -m benchmarks.scipy_filters --forms [--shapes 64x64x64 128x128x128 ...]

Each row is one group timed in interleaved rounds (benchmarks/_timing.py), with
glibc's default allocator: scipy's filter (single-threaded C), jaxpad's filter under
``jit``, the same jaxpad program again (the control: its ratio is the noise), for the
linear filters the same filter written as ``jnp.pad`` then one ``lax.conv`` per axis,
and the VJP of jaxpad's filter (the cotangent given, the pullback timed). The results
are checked against scipy before anything is timed. Ratios are times over scipy's.
float64 runs with ``jax.enable_x64``; scipy computes in float64 for both.

``--forms`` times the 3-D separable filters (gaussian, uniform), forward and VJP,
against two other ways to write them: one pad of every axis then shifted
multiply-adds per axis (plain ``jnp``, differentiated by JAX), and ``jnp.pad`` then a
``lax.conv`` per axis (as above).
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp
import numpy as np
import scipy.ndimage as sn
from jax import lax

import jaxpad
from benchmarks._timing import interleaved_medians, load, machine
from jaxpad.scipy import ndimage as jn


def _conv_reference(x, passes):
    """jnp.pad (symmetric = scipy's reflect) then one lax.conv per 1-D pass."""
    y = x
    for axis, w in passes:
        lo = len(w) // 2
        pads = [(0, 0)] * x.ndim
        pads[axis] = (lo, len(w) - 1 - lo)
        y = jnp.pad(y, pads, mode="symmetric")
        shape = [1] * x.ndim
        shape[axis] = len(w)
        kernel = jnp.asarray(np.asarray(w, x.dtype).reshape(1, 1, *shape))
        y = lax.conv(y[None, None], kernel, (1,) * x.ndim, "VALID")[0, 0]
    return y


def _gauss_passes(ndim, sigma):
    w = np.exp(-0.5 * (np.arange(-int(4 * sigma + 0.5), int(4 * sigma + 0.5) + 1) / sigma) ** 2)
    return [(axis, w / w.sum()) for axis in range(ndim)]


def _one_pad_reference(x, passes):
    """jaxpad.pad of every axis (scipy's reflect), then shifted multiply-adds per axis."""
    pads = [(0, 0)] * x.ndim
    for axis, w in passes:
        pads[axis] = (len(w) // 2, len(w) - 1 - len(w) // 2)
    y = jaxpad.pad(x, [lo for lo, _ in pads], [hi for _, hi in pads], "symmetric")
    for axis, w in passes:
        n = y.shape[axis] - len(w) + 1
        y = sum(v * lax.slice_in_dim(y, k, k + n, axis=axis) for k, v in enumerate(w))
    return y


def forms(shape, rounds, dtype):
    """The 3-D separable filters against the one-pad and pad+conv forms, with VJPs."""
    x = np.random.default_rng(1).standard_normal(shape).astype(dtype)
    xj = jnp.asarray(x)
    ct = jnp.asarray(np.random.default_rng(2).standard_normal(shape).astype(dtype))
    for name, ours_scipy, ours_jax, passes in cases(len(shape)):
        if passes is None:
            continue
        want = ours_scipy(x)
        plain = {
            "jaxpad": ours_jax,
            "one pad": lambda x, p=passes: _one_pad_reference(x, p),
            "pad+conv": lambda x, p=passes: _conv_reference(x, p),
        }
        candidates, args = {}, {}
        for key, f in plain.items():
            candidates[key] = jax.jit(f)
            np.testing.assert_allclose(
                np.asarray(candidates[key](xj)), want, rtol=1e-4, atol=1e-4 * np.abs(want).max()
            )
            candidates[key + " vjp"] = jax.jit(lambda x, t, f=f: jax.vjp(f, x)[1](t)[0])
            args[key], args[key + " vjp"] = (xj,), (xj, ct)
        candidates["control"] = jax.jit(lambda x, f=ours_jax: f(x))
        args["control"] = (xj,)
        t = interleaved_medians(candidates, args, rounds=rounds, warmup=1, calls=1)
        ours, vjp = t["jaxpad"], t["jaxpad vjp"]
        print(
            f"| {'x'.join(map(str, shape))} | {name} | {ours * 1e3:.2f} | "
            f"{t['control'] / ours:.2f} | {t['one pad'] / ours:.2f} | {t['pad+conv'] / ours:.2f} | "
            f"{vjp * 1e3:.2f} | {vjp / ours:.2f} | {t['one pad vjp'] / vjp:.2f} | "
            f"{t['pad+conv vjp'] / vjp:.2f} |",
            flush=True,
        )


def cases(ndim):
    """(name, scipy call, jaxpad call, conv reference passes or None)."""
    out = []
    for sigma in (1.0, 2.0, 4.0):
        out.append(
            (
                f"gaussian sigma {sigma:g}",
                lambda x, s=sigma: sn.gaussian_filter(x, s),
                lambda x, s=sigma: jn.gaussian_filter(x, s),
                _gauss_passes(ndim, sigma),
            )
        )
    for size in (3, 9):
        out.append(
            (
                f"uniform {size}",
                lambda x, s=size: sn.uniform_filter(x, s),
                lambda x, s=size: jn.uniform_filter(x, s),
                [(axis, np.full(size, 1.0 / size)) for axis in range(ndim)],
            )
        )
    out.append(("sobel", lambda x: sn.sobel(x, 0), lambda x: jn.sobel(x, 0), None))
    out.append(("laplace", sn.laplace, jn.laplace, None))
    weights = np.random.default_rng(0).standard_normal((3,) * ndim)
    out.append(
        (
            "correlate 3^d",
            lambda x: sn.correlate(x, weights),
            lambda x: jn.correlate(x, weights),
            None,
        )
    )
    for size in (3, 5, 9):
        out.append(
            (
                f"maximum {size}",
                lambda x, s=size: sn.maximum_filter(x, s),
                lambda x, s=size: jn.maximum_filter(x, s),
                None,
            )
        )
    for size in (3, 5) if ndim == 2 else (3,):
        out.append(
            (
                f"median {size}",
                lambda x, s=size: sn.median_filter(x, s),
                lambda x, s=size: jn.median_filter(x, s),
                None,
            )
        )
    return out


def run(shape, rounds, only, dtype=np.float32):
    x = np.random.default_rng(1).standard_normal(shape).astype(dtype)
    xj = jnp.asarray(x)
    rows = []
    for name, ours_scipy, ours_jax, passes in cases(len(shape)):
        if only and not any(word in name for word in only):
            continue
        forward = jax.jit(ours_jax)
        control = jax.jit(lambda x, f=ours_jax: f(x))
        ct = jnp.ones(shape, x.dtype)
        vjp = jax.jit(lambda x, t, f=ours_jax: jax.vjp(f, x)[1](t)[0])
        want = ours_scipy(x)
        got = np.asarray(forward(xj))
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
        candidates = {"scipy": ours_scipy, "jaxpad": forward, "control": control, "vjp": vjp}
        args = {"scipy": (x,), "jaxpad": (xj,), "control": (xj,), "vjp": (xj, ct)}
        if passes is not None:
            conv = jax.jit(lambda x, p=passes: _conv_reference(x, p))
            np.testing.assert_allclose(np.asarray(conv(xj)), want, rtol=1e-4, atol=1e-4)
            candidates["pad+conv"] = conv
            args["pad+conv"] = (xj,)
        t = interleaved_medians(candidates, args, rounds=rounds, warmup=1, calls=1)
        rows.append((name, t))
        base = t["scipy"]
        conv_ratio = f"{t['pad+conv'] / base:.3f}" if "pad+conv" in t else ""
        print(
            f"| {name} | {base * 1e3:.1f} | {t['jaxpad'] / base:.3f} | "
            f"{t['control'] / t['jaxpad']:.2f} | {t['vjp'] / base:.3f} | "
            f"{t['vjp'] / t['jaxpad']:.2f} | {conv_ratio} |",
            flush=True,
        )
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only", nargs="*", default=[], help="names containing these words")
    parser.add_argument("--no-3d", action="store_true", help="skip the 128^3 cases")
    parser.add_argument("--dtypes", nargs="*", default=["float32", "float64"])
    parser.add_argument("--forms", action="store_true", help="3-D separable forms, with VJPs")
    parser.add_argument("--shapes", nargs="*", default=["128x128x128"], help="for --forms")
    args = parser.parse_args()
    print(f"{machine()}; {load()}; scipy's default mode (reflect), jit")
    if args.forms:
        for dtype in args.dtypes:
            print(f"\n{dtype} ({load()})\n")
            print(
                "| shape | filter | jaxpad ms | control / jaxpad | one pad / jaxpad | "
                "pad+conv / jaxpad | VJP ms | VJP / forward | one pad VJP / VJP | "
                "pad+conv VJP / VJP |"
            )
            print("|---|---|---|---|---|---|---|---|---|---|")
            with jax.enable_x64(dtype == "float64"):
                for shape in args.shapes:
                    forms(tuple(int(n) for n in shape.split("x")), args.rounds, np.dtype(dtype))
        print(f"\n{load()}")
        return
    for dtype in args.dtypes:
        for shape in [(1024, 1024)] + ([] if args.no_3d else [(128, 128, 128)]):
            print(f"\n{dtype}, {'x'.join(map(str, shape))} ({load()})\n")
            print(
                "| filter | scipy ms | jaxpad / scipy | control / jaxpad | VJP / scipy | "
                "VJP / forward | jnp.pad + lax.conv / scipy |"
            )
            print("|---|---|---|---|---|---|---|")
            with jax.enable_x64(dtype == "float64"):
                run(shape, args.rounds, args.only, np.dtype(dtype))
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
