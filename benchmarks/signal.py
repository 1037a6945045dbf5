"""jaxpad.scipy.signal against scipy.signal: jitted filters, forward and VJP.

    python -m benchmarks.signal [--sections fir] [--rounds 7] [--shape 64x65536]
        [--dtypes float32] [--only savgol ...]

Each row is one group timed in interleaved rounds (benchmarks/_timing.py), with the C
library's default allocator: scipy's function (single-threaded C), jaxpad's under
``jit``, the same jaxpad program again (the control: its ratio is the noise), and the
VJP of jaxpad's function with respect to the arguments the row names (the cotangent
given, the pullback timed). Results are checked against scipy before anything is
timed. Ratios are times over scipy's; ``VJP / forward`` is the gradient's cost over the
forward's. The page faults are the minor faults a call of jaxpad's forward and of its
VJP took (medians): on a machine whose allocator hands back freed memory, a program's
temporaries and outputs can be faulted in afresh on every call, and the time follows.
float64 runs with ``jax.enable_x64``.

The rows are a table per section (``SECTIONS``): ``fir`` (savgol_filter, upfirdn,
resample_poly); ``iir`` (sosfilt, sosfiltfilt, lfilter, filtfilt, decimate).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import scipy.signal as ss

from benchmarks._timing import interleaved_stats, load, machine
from jaxpad.scipy import signal as js


class Row(NamedTuple):
    name: str
    # scipy's call and jaxpad's on the same arguments (NumPy arrays for scipy).
    scipy: Callable
    jaxpad: Callable
    args: tuple
    # The indices of ``args`` the VJP is taken with respect to.
    wrt: tuple[int, ...] = (0,)
    rtol: float = 1e-4


def fir_rows(shape: tuple[int, ...], dtype: Any) -> list[Row]:
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape).astype(dtype)
    h32 = rng.standard_normal(32).astype(dtype)
    return [
        Row(
            "savgol_filter(x, 31, 3)",
            lambda x: ss.savgol_filter(x, 31, 3),
            lambda x: js.savgol_filter(x, 31, 3),
            (x,),
        ),
        Row(
            "savgol_filter(x, 31, 3, mode='mirror')",
            lambda x: ss.savgol_filter(x, 31, 3, mode="mirror"),
            lambda x: js.savgol_filter(x, 31, 3, mode="mirror"),
            (x,),
        ),
        Row(
            "upfirdn(h, x, 3, 2), 32 taps",
            lambda h, x: ss.upfirdn(h, x, 3, 2),
            lambda h, x: js.upfirdn(h, x, 3, 2),
            (h32, x),
            wrt=(1,),
        ),
        Row(
            "upfirdn(h, x, 3, 2), 32 taps, VJP in h and x",
            lambda h, x: ss.upfirdn(h, x, 3, 2),
            lambda h, x: js.upfirdn(h, x, 3, 2),
            (h32, x),
            wrt=(0, 1),
        ),
        Row(
            "upfirdn(h, x, 3, 2, axis=0), 32 taps",
            lambda h, x: ss.upfirdn(h, x, 3, 2, axis=0),
            lambda h, x: js.upfirdn(h, x, 3, 2, axis=0),
            (h32, x),
            wrt=(1,),
        ),
        Row(
            "resample_poly(x, 3, 2, axis=-1)",
            lambda x: ss.resample_poly(x, 3, 2, axis=-1),
            lambda x: js.resample_poly(x, 3, 2, axis=-1),
            (x,),
        ),
        Row(
            "resample_poly(x, 3, 2) (axis 0)",
            lambda x: ss.resample_poly(x, 3, 2),
            lambda x: js.resample_poly(x, 3, 2),
            (x,),
        ),
    ]


def iir_rows(shape: tuple[int, ...], dtype: Any) -> list[Row]:
    """The recursive filters: sosfilt with an 8th-order Butterworth, lfilter with a 4th
    (closed over: concrete coefficients, the forms jaxpad picks for them), and the
    gradient in the sections too (traced)."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal(shape).astype(dtype)
    sos = ss.butter(8, 0.1, output="sos").astype(dtype)
    b, a = (v.astype(dtype) for v in ss.butter(4, 0.1))
    return [
        Row("sosfilt, 8th order", lambda x: ss.sosfilt(sos, x), lambda x: js.sosfilt(sos, x), (x,)),
        Row(
            "sosfilt, 8th order, VJP in sos and x",
            lambda s, x: ss.sosfilt(s, x),
            lambda s, x: js.sosfilt(s, x),
            (sos, x),
            wrt=(0, 1),
        ),
        Row(
            "sosfiltfilt, 8th order",
            lambda x: ss.sosfiltfilt(sos, x),
            lambda x: js.sosfiltfilt(sos, x),
            (x,),
        ),
        Row(
            "lfilter, 4th order", lambda x: ss.lfilter(b, a, x), lambda x: js.lfilter(b, a, x), (x,)
        ),
        Row(
            "filtfilt, 4th order",
            lambda x: ss.filtfilt(b, a, x),
            lambda x: js.filtfilt(b, a, x),
            (x,),
        ),
        Row("decimate(x, 4)", lambda x: ss.decimate(x, 4), lambda x: js.decimate(x, 4), (x,)),
    ]


SECTIONS: dict[str, Callable[[tuple[int, ...], Any], list[Row]]] = {
    "fir": fir_rows,
    "iir": iir_rows,
}


def run(rows: list[Row], rounds: int) -> list[tuple[str, dict]]:
    out = []
    for row in rows:
        jargs = tuple(jnp.asarray(a) for a in row.args)
        forward = jax.jit(row.jaxpad)
        control = jax.jit(lambda *a, f=row.jaxpad: f(*a))
        want = row.scipy(*row.args)
        got = np.asarray(forward(*jargs))
        np.testing.assert_allclose(got, want, rtol=row.rtol, atol=row.rtol * np.abs(want).max())
        ct = jnp.asarray(np.random.default_rng(2).standard_normal(got.shape).astype(got.dtype))

        def pullback(ct, *a, row=row):
            def f(*wrt):
                full = list(a)
                for i, v in zip(row.wrt, wrt):
                    full[i] = v
                return row.jaxpad(*full)

            return jax.vjp(f, *(a[i] for i in row.wrt))[1](ct)

        vjp = jax.jit(pullback)
        candidates = {"scipy": row.scipy, "jaxpad": forward, "control": control, "vjp": vjp}
        args = {"scipy": row.args, "jaxpad": jargs, "control": jargs, "vjp": (ct, *jargs)}
        stats = interleaved_stats(candidates, args, rounds=rounds, warmup=1, calls=1)
        t = {name: seconds for name, (seconds, _) in stats.items()}
        out.append((row.name, t))
        base = t["scipy"]
        print(
            f"| {row.name} | {base * 1e3:.1f} | {t['jaxpad'] * 1e3:.1f} | "
            f"{base / t['jaxpad']:.2f} | {t['control'] / t['jaxpad']:.2f} | "
            f"{t['vjp'] * 1e3:.1f} | {t['vjp'] / t['jaxpad']:.2f} | "
            f"{stats['jaxpad'][1]:.0f} / {stats['vjp'][1]:.0f} |",
            flush=True,
        )
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", nargs="*", default=list(SECTIONS), choices=list(SECTIONS))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--shape", default="64x65536")
    parser.add_argument("--dtypes", nargs="*", default=["float32"])
    parser.add_argument("--only", nargs="*", default=[], help="rows whose name has these words")
    args = parser.parse_args()
    shape = tuple(int(n) for n in args.shape.split("x"))
    print(f"{machine()}; {load()}; shape {args.shape}, jit")
    for section in args.sections:
        for dtype in args.dtypes:
            print(f"\n{section}, {dtype} ({load()})\n")
            print(
                "| row | scipy ms | jaxpad ms | scipy / jaxpad (speed-up) | control / jaxpad "
                "| VJP ms | VJP / forward | page faults a call, forward / VJP |"
            )
            print("|---|---|---|---|---|---|---|---|")
            with jax.enable_x64(dtype == "float64"):
                rows = SECTIONS[section](shape, np.dtype(dtype))
                rows = [r for r in rows if not args.only or any(w in r.name for w in args.only)]
                run(rows, args.rounds)
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
