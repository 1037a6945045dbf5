"""jaxpad.dynamic_pad with per-example offsets against the static pad and jnp.take.

    python -m benchmarks.bench_dynamic_pad [--rounds 30] [--repeats 3] [--forms]

A batch of 64 images (64, 64, 64, 3) float32 is translated per image by offsets in
[-8, 8] on the two spatial axes, reflecting, output shape equal to the input's.
References: (a) the static ``jaxpad.pad`` of the same output shape (one fixed
offset for the whole batch), (b) the workaround without jaxpad: per-image
``jnp.take`` with computed reflect indices under ``vmap``. Forward and VJP, all
interleaved in one process; medians and ratios; ``--repeats`` times the table again
in the same process.

``--forms`` times the VJP on CPU over other shapes, modes and offset ranges (``FORM_CASES``):
the planner's fold (the "window" and "translate" forms) against the per-position
gathers it picked before (the planner's ``_windows`` switched off while tracing)
and against the static pad's VJP. The C library's default allocator is kept (what
users run); ``--pinned`` re-executes with malloc pinned (benchmarks/_timing.py).
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad
from benchmarks._timing import allocator, interleaved_medians, load, machine, parse_args_allocator
from benchmarks.cases import DYNAMIC_PAD_MAX_OFFSET as MAX_OFFSET
from benchmarks.cases import DYNAMIC_PAD_SHAPE as SHAPE
from jaxpad import _lowering


def reflect_indices(n, offsets):
    """numpy.pad's reflect map for offsets j = i - pads_begin (any sign), in jnp."""
    period = 2 * (n - 1)
    phase = jnp.remainder(offsets, period)
    return jnp.where(phase < n, phase, period - phase)


def candidates():
    _, height, width, channels = SHAPE

    def dynamic_sequence(x, offsets):
        def one(image, offset):
            return jaxpad.dynamic_pad(image, (offset[0], offset[1], 0), image.shape, "reflect")

        return jax.vmap(one)(x, offsets)

    def dynamic_array(x, offsets):
        # All three pads traced, the channel one a traced zero.
        def one(image, offset):
            pads = jnp.concatenate([offset, jnp.zeros((1,), offset.dtype)])
            return jaxpad.dynamic_pad(image, pads, image.shape, "reflect")

        return jax.vmap(one)(x, offsets)

    def static_pad(x, offsets):
        del offsets
        return jaxpad.pad(x, (0, 3, 3, 0), (0, -3, -3, 0), "reflect")

    def jnp_take(x, offsets):
        def one(image, offset):
            rows = reflect_indices(height, jnp.arange(height) - offset[0])
            cols = reflect_indices(width, jnp.arange(width) - offset[1])
            return jnp.take(jnp.take(image, rows, axis=0), cols, axis=1)

        return jax.vmap(one)(x, offsets)

    return {
        "dynamic_pad (offsets as a sequence)": dynamic_sequence,
        "dynamic_pad (offsets as an array)": dynamic_array,
        "(a) static jaxpad.pad": static_pad,
        "(b) vmap of jnp.take": jnp_take,
    }


def run(rounds):
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=SHAPE).astype(np.float32))
    ct = jnp.asarray(rng.normal(size=SHAPE).astype(np.float32))
    offsets = jnp.asarray(rng.integers(-MAX_OFFSET, MAX_OFFSET + 1, (SHAPE[0], 2)), jnp.int32)
    fns = candidates()
    reference = fns["(b) vmap of jnp.take"](x, offsets)
    for name in ("dynamic_pad (offsets as a sequence)", "dynamic_pad (offsets as an array)"):
        np.testing.assert_array_equal(jax.jit(fns[name])(x, offsets), reference)
    timed, args = {}, {}
    for name, fn in fns.items():
        timed[f"{name} fwd"] = jax.jit(fn)
        args[f"{name} fwd"] = (x, offsets)
        timed[f"{name} vjp"] = jax.jit(
            lambda x, offsets, ct, fn=fn: jax.vjp(lambda x: fn(x, offsets), x)[1](ct)[0]
        )
        args[f"{name} vjp"] = (x, offsets, ct)
    medians = interleaved_medians(timed, args, rounds=rounds)
    print(
        f"\nshape {SHAPE} float32, reflect, offsets in [-{MAX_OFFSET}, {MAX_OFFSET}]; {machine()}"
    )
    print(f"medians of {rounds} interleaved rounds; malloc {allocator()}; {load()}")
    print("| candidate | fwd ms | fwd / (a) | fwd / (b) | VJP ms | VJP / (a) | VJP / (b) |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    for name in fns:
        f, v = medians[f"{name} fwd"], medians[f"{name} vjp"]
        a_f, a_v = medians["(a) static jaxpad.pad fwd"], medians["(a) static jaxpad.pad vjp"]
        b_f, b_v = medians["(b) vmap of jnp.take fwd"], medians["(b) vmap of jnp.take vjp"]
        rows.append(dict(name=name, fwd=f, vjp=v, fwd_a=f / a_f, vjp_a=v / a_v))
        print(
            f"| {name} | {1e3 * f:.2f} | {f / a_f:.2f} | {f / b_f:.2f} | "
            f"{1e3 * v:.2f} | {v / a_v:.2f} | {v / b_v:.2f} |"
        )
    return rows


# (name, x.shape, output shape, mode, offsets drawn from [lo, hi], traced axes): the
# benchmark shape and others around it; axis 0 is the batch.
FORM_CASES = [
    ("benchmark", (64, 64, 64, 3), (64, 64, 64, 3), "reflect", -8, 8, (1, 2)),
    ("benchmark, any offset", (64, 64, 64, 3), (64, 64, 64, 3), "reflect", -999, 999, (1, 2)),
    ("symmetric", (64, 64, 64, 3), (64, 64, 64, 3), "symmetric", -8, 8, (1, 2)),
    ("edge", (64, 64, 64, 3), (64, 64, 64, 3), "edge", -8, 8, (1, 2)),
    ("edge, any offset", (64, 64, 64, 3), (64, 64, 64, 3), "edge", -99, 99, (1, 2)),
    ("constant", (64, 64, 64, 3), (64, 64, 64, 3), "constant", -8, 8, (1, 2)),
    ("wrap (gathers kept)", (64, 64, 64, 3), (64, 64, 64, 3), "wrap", -8, 8, (1, 2)),
    ("odd sizes", (64, 63, 65, 3), (64, 63, 65, 3), "reflect", -8, 8, (1, 2)),
    ("random crop", (64, 40, 40, 3), (64, 32, 32, 3), "reflect", -8, 0, (1, 2)),
    ("random crop, constant", (64, 40, 40, 3), (64, 32, 32, 3), "constant", -8, 0, (1, 2)),
    ("larger output", (64, 32, 32, 3), (64, 40, 40, 3), "reflect", 0, 8, (1, 2)),
    ("1-D", (64, 4096), (64, 4096), "reflect", -512, 512, (1,)),
    ("3-D", (8, 32, 32, 32), (8, 32, 32, 32), "reflect", -4, 4, (1, 2, 3)),
    ("batch of 2", (2, 64, 64, 3), (2, 64, 64, 3), "reflect", -8, 8, (1, 2)),
    ("batch of 512", (512, 32, 32, 3), (512, 32, 32, 3), "reflect", -4, 4, (1, 2)),
    ("batch of 256, 12 MiB", (256, 64, 64, 3), (256, 64, 64, 3), "reflect", -8, 8, (1, 2)),
]


def _form_candidates(x_shape, shape, mode, lo, hi, traced):
    """The VJP of the dynamic pad and of the static pad whose offset is near the
    middle of ``[lo, hi]``, as functions of (offsets, cotangent)."""

    def one(image, offset):
        pads = [0] * (len(x_shape) - 1)
        for i, axis in enumerate(traced):
            pads[axis - 1] = offset[i]
        return jaxpad.dynamic_pad(image, pads, shape[1:], mode)

    middle = (lo + hi) // 2 + max(1, 3 * (hi - lo) // 16)
    begin = [middle if axis in traced else 0 for axis in range(len(x_shape))]
    end = [s - n - b for n, s, b in zip(x_shape, shape, begin)]
    x = jnp.zeros(x_shape, jnp.float32)

    def dynamic(offsets, ct):
        return jax.vjp(lambda x: jax.vmap(one)(x, offsets), x)[1](ct)[0]

    def static(offsets, ct):
        return jax.vjp(lambda x: jaxpad.pad(x, begin, end, mode), x)[1](ct)[0]

    return dynamic, static


def _compiled(fn, args, windows=True):
    """``fn`` jitted and compiled, with the planner's window forms on or off."""
    planner = _lowering._plans._windows
    if not windows:
        _lowering._plans._windows = lambda *args: None
    try:
        return jax.jit(lambda *a: fn(*a)).lower(*args).compile()
    finally:
        _lowering._plans._windows = planner


def run_forms(rounds):
    rng = np.random.default_rng(0)
    print(f"\nVJP of dynamic_pad, per-example offsets; {machine()}; malloc {allocator()}")
    print(f"medians of {rounds} interleaved rounds; {load()} at start")
    print(
        "| case | mode | x | offsets | static ms | gathers ms | planner ms | planner / gathers "
        "| planner / static |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for name, x_shape, shape, mode, lo, hi, traced in FORM_CASES:
        dynamic, static = _form_candidates(x_shape, shape, mode, lo, hi, traced)
        offsets = jnp.asarray(rng.integers(lo, hi + 1, (x_shape[0], len(traced))), jnp.int32)
        ct = jnp.asarray(rng.normal(size=shape).astype(np.float32))
        args = (offsets, ct)
        timed = {
            "static": _compiled(static, args),
            "gathers": _compiled(dynamic, args, windows=False),
            "planner": _compiled(dynamic, args),
        }
        np.testing.assert_allclose(
            timed["planner"](*args), timed["gathers"](*args), rtol=1e-5, atol=1e-4
        )
        m = interleaved_medians(timed, {k: args for k in timed}, rounds=rounds)
        rows.append(dict(name=name, **m))
        print(
            f"| {name} | {mode} | {x_shape} | [{lo}, {hi}] | {1e3 * m['static']:.2f} | "
            f"{1e3 * m['gathers']:.2f} | {1e3 * m['planner']:.2f} | "
            f"{m['planner'] / m['gathers']:.2f} | {m['planner'] / m['static']:.2f} |",
            flush=True,
        )
    print(f"{load()} at the end")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=1, help="time the table this many times")
    parser.add_argument(
        "--forms", action="store_true", help="the planner's fold against the gathers"
    )
    args = parse_args_allocator(parser)
    if args.forms:
        run_forms(args.rounds)
        return
    for _ in range(args.repeats):
        run(args.rounds)


if __name__ == "__main__":
    main()
