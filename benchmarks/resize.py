"""``jaxpad.image.resize`` against ``jax.image.resize``, and ``jaxpad.nn.interpolate``
against ``torch.nn.functional.interpolate``, on the CPU.

    python -m benchmarks.resize [--rounds 7] [--quick] [--pinned] [--threads N]
                                [--only jax|torch] [--rules]

Two tables, each row's candidates interleaved in one process
(``benchmarks/_timing.py``), medians of the rounds:

- ``jaxpad.image.resize`` against ``jax.image.resize`` (its defaults: half-pixel
  centres, ``antialias=True``, which changes nothing when enlarging): (8, 128, 128, 64)
  float32 to twice its height and width, linear, cubic and lanczos3; the forward, and
  the gradient with respect to the input (the VJP of a fixed cotangent alone, which a
  linear op computes without its forward, on both sides). The
  candidates: ``jax`` (``jax.jit`` of ``jax.image.resize``), ``jaxpad`` (``jax.jit`` of
  ``jaxpad.image.resize``) and ``jaxpad2``, the same jitted program timed again: the
  control column, what noise alone gives. Ratios are to jax's median.
- ``jaxpad.nn.interpolate`` against torch's ``F.interpolate``, channels-first as torch
  has it: (8, 64, 128, 128) to twice the size (nearest, bilinear, bicubic), the
  antialiased halving of (8, 64, 256, 256) (bilinear, bicubic) and its area halving;
  the forward, and the forward with the backward (the output and the gradient with
  respect to the input of a fixed cotangent, on both sides). torch runs with
  ``torch.set_num_threads(--threads)`` (default 2, the cores XLA uses here);
  ``jaxpad2`` is the control again. Ratios are to torch's median; the torch column is
  left out when torch is not installed.

Each forward also times ``write``: a jitted broadcast of a scalar to the output's shape,
which writes the output once and computes nothing, the memory floor of any resize
there (with the default allocator, mostly the page faults of a fresh output).

``--rules`` times instead what decided the resize plan's two rules
(``jaxpad/_sampling``): the forwards of bilinear and bicubic x2 and the antialiased
halvings, as planned, with the passes in the reverse order (``pass_order``), and
with no passes fused (``_FUSED_TAPS``), each over torch's time.

Each row first checks that the candidates agree (float32, 1e-4 of the range), so a
table never times two different computations. ``--quick`` runs two rows of each table
with 3 rounds (a check that the script works, not a measurement). The C library's
default allocator is kept (what users run); ``--pinned`` re-executes with malloc
pinned as the other benchmarks do.
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp
import numpy as np

from benchmarks._timing import (
    allocator,
    interleaved_medians,
    load,
    machine,
    parse_args_allocator,
)

# (row, input shape NHWC, output shape, method)
JAX_CASES = [
    ("(8, 128, 128, 64) x2 linear", (8, 128, 128, 64), (8, 256, 256, 64), "linear"),
    ("(8, 128, 128, 64) x2 cubic", (8, 128, 128, 64), (8, 256, 256, 64), "cubic"),
    ("(8, 128, 128, 64) x2 lanczos3", (8, 128, 128, 64), (8, 256, 256, 64), "lanczos3"),
]
# (row, input shape NCHW, output size, mode, antialias)
TORCH_CASES = [
    ("(8, 64, 128, 128) x2 nearest", (8, 64, 128, 128), (256, 256), "nearest", False),
    ("(8, 64, 128, 128) x2 bilinear", (8, 64, 128, 128), (256, 256), "bilinear", False),
    ("(8, 64, 128, 128) x2 bicubic", (8, 64, 128, 128), (256, 256), "bicubic", False),
    ("(8, 64, 256, 256) /2 bilinear antialias", (8, 64, 256, 256), (128, 128), "bilinear", True),
    ("(8, 64, 256, 256) /2 bicubic antialias", (8, 64, 256, 256), (128, 128), "bicubic", True),
    ("(8, 64, 256, 256) /2 area", (8, 64, 256, 256), (128, 128), "area", False),
]
QUICK_JAX = [0, 1]
QUICK_TORCH = [1, 3]


class _Torch:
    """A torch call in the timer's shape: called with no arguments, returns a value
    ``jax.block_until_ready`` passes through (torch's CPU ops are synchronous)."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self):
        self.fn()
        return 0


def _agree(got, want, name):
    got, want = np.asarray(got), np.asarray(want)
    scale = max(1.0, float(np.max(np.abs(want))))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4 * scale, err_msg=name)


def run_jax_case(name, shape, out_shape, method, rounds):
    import jaxpad.image

    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal(shape, np.float32))
    ct = jnp.asarray(rng.standard_normal(out_shape, np.float32))

    def ours(x):
        return jaxpad.image.resize(x, out_shape, method)

    def theirs(x):
        return jax.image.resize(x, out_shape, method)

    def grad_of(fn):
        def vjp(x, ct):
            return jax.vjp(fn, x)[1](ct)[0]

        return jax.jit(vjp)

    fwd_ours, fwd_theirs = jax.jit(ours), jax.jit(theirs)
    bwd_ours, bwd_theirs = grad_of(ours), grad_of(theirs)
    _agree(fwd_ours(x), fwd_theirs(x), name)
    _agree(bwd_ours(x, ct), bwd_theirs(x, ct), name + " gradient")
    write = _output_write(out_shape)
    f = interleaved_medians(
        {"jax": fwd_theirs, "jaxpad": fwd_ours, "jaxpad2": fwd_ours, "write": write},
        {"jax": (x,), "jaxpad": (x,), "jaxpad2": (x,), "write": (np.float32(1),)},
        rounds=rounds,
        calls=2,
    )
    b = interleaved_medians(
        {"jax": bwd_theirs, "jaxpad": bwd_ours, "jaxpad2": bwd_ours},
        {"jax": (x, ct), "jaxpad": (x, ct), "jaxpad2": (x, ct)},
        rounds=rounds,
        calls=2,
    )
    return {"case": name, "ref": "jax", "forward_ms": _ms(f), "backward_ms": _ms(b)}


def run_torch_case(name, shape, size, mode, antialias, rounds, torch):
    import jaxpad.nn

    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape, np.float32)
    out_shape = shape[:2] + size
    ct = rng.standard_normal(out_shape, np.float32)
    xj, ctj = jnp.asarray(x), jnp.asarray(ct)
    options = {"antialias": True} if antialias else {}

    def ours(x):
        return jaxpad.nn.interpolate(x, size=size, mode=mode, **options)

    def forward_backward(x, ct):
        # The output too: a linear op's VJP alone does not need its forward, and XLA
        # would drop it, where torch's forward and backward compute both.
        out, pullback = jax.vjp(ours, x)
        return out, pullback(ct)[0]

    forward, backward = jax.jit(ours), jax.jit(forward_backward)
    fwd = {"jaxpad": forward, "jaxpad2": forward, "write": _output_write(out_shape)}
    fwd_args = {"jaxpad": (xj,), "jaxpad2": (xj,), "write": (np.float32(1),)}
    bwd = {"jaxpad": backward, "jaxpad2": backward}
    bwd_args = {"jaxpad": (xj, ctj), "jaxpad2": (xj, ctj)}
    if torch is not None:
        F = torch.nn.functional
        tx, tct = torch.from_numpy(x), torch.from_numpy(ct)
        txr = tx.clone().requires_grad_()
        _agree(forward(xj), F.interpolate(tx, size=size, mode=mode, **options).numpy(), name)

        def torch_backward():
            out = F.interpolate(txr, size=size, mode=mode, **options)
            return torch.autograd.grad(out, (txr,), tct)

        _agree(backward(xj, ctj)[1], torch_backward()[0].numpy(), name + " backward")
        fwd["torch"] = _Torch(lambda: F.interpolate(tx, size=size, mode=mode, **options))
        fwd_args["torch"] = ()
        bwd["torch"] = _Torch(torch_backward)
        bwd_args["torch"] = ()
    f = interleaved_medians(fwd, fwd_args, rounds=rounds, calls=2)
    b = interleaved_medians(bwd, bwd_args, rounds=rounds, calls=2)
    return {"case": name, "ref": "torch", "forward_ms": _ms(f), "backward_ms": _ms(b)}


def run_rules(rounds, torch):
    """The plan's rules against their alternatives (``--rules``): the forward as
    planned, with the passes reversed, and unfused, each compiled ahead of time with
    the rule changed, over torch's time."""
    import jaxpad.nn
    from jaxpad._sampling import _resize

    print("| case | as planned | passes reversed | unfused |")
    print("|---|---|---|---|")
    planned_resize = _resize.resize

    def reversed_resize(x, plan, cval, onnx=None):
        return planned_resize(x, tuple(reversed(plan)), cval, onnx)

    for name, shape, size, mode, antialias in TORCH_CASES[1:5]:
        x = jnp.asarray(np.random.default_rng(0).standard_normal(shape, np.float32))
        options = {"antialias": True} if antialias else {}

        def compiled(size=size, mode=mode, options=options):
            # a new function each time: JAX reuses a function's trace
            def forward(x):
                return jaxpad.nn.interpolate(x, size=size, mode=mode, **options)

            return jax.jit(forward).lower(x).compile()

        candidates = {"planned": compiled()}
        _resize.resize = reversed_resize
        try:
            candidates["reversed"] = compiled()
        finally:
            _resize.resize = planned_resize
        fused, _resize._FUSED_TAPS = _resize._FUSED_TAPS, 0
        try:
            candidates["unfused"] = compiled()
        finally:
            _resize._FUSED_TAPS = fused
        args = {key: (x,) for key in candidates}
        if torch is not None:
            tx = torch.from_numpy(np.asarray(x).copy())
            candidates["torch"] = _Torch(
                lambda: torch.nn.functional.interpolate(tx, size=size, mode=mode, **options)
            )
            args["torch"] = ()
        t = interleaved_medians(candidates, args, rounds=rounds, calls=2)
        base = t.get("torch", t["planned"])
        cells = " | ".join(
            f"{t[k] * 1e3:.1f} ({t[k] / base:.2f}x)" for k in ("planned", "reversed", "unfused")
        )
        print(f"| {name} | {cells} |", flush=True)


def _output_write(shape):
    """The forward's floor: the output written once, nothing computed."""
    return jax.jit(lambda s: jnp.broadcast_to(s, shape))


def _ms(medians):
    return {name: seconds * 1e3 for name, seconds in medians.items()}


def _print(row):
    f, b, ref = row["forward_ms"], row["backward_ms"], row["ref"]

    def cell(values, key):
        if key not in values:
            return "-"
        base = values.get(ref)
        ratio = f" ({values[key] / base:.2f}x)" if base else ""
        return f"{values[key]:.1f}{ratio}"

    print(
        f"| {row['case']} | {cell(f, ref)} | {cell(f, 'jaxpad')} | {cell(f, 'jaxpad2')} | "
        f"{cell(f, 'write')} | "
        f"{cell(b, ref)} | {cell(b, 'jaxpad')} | {cell(b, 'jaxpad2')} |",
        flush=True,
    )


def _header(ref, backward):
    print(
        f"| case | {ref} fwd | jaxpad fwd | jaxpad fwd (control) | output write | "
        f"{ref} {backward} | jaxpad {backward} | jaxpad {backward} (control) |"
    )
    print("|---|---|---|---|---|---|---|---|")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="two rows of each table, 3 rounds")
    parser.add_argument("--threads", type=int, default=2, help="torch's intra-op threads")
    parser.add_argument("--only", choices=("jax", "torch"), help="one table only")
    parser.add_argument("--rules", action="store_true", help="the plan's rules, not the tables")
    args = parse_args_allocator(parser)
    rounds = 3 if args.quick else args.rounds
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
    print("# ms (wall clock) per call, medians of interleaved rounds; (ratio to the reference)")
    if args.rules:
        print("\n## the resize plan's rules: jaxpad.nn.interpolate's forward (NCHW, float32)\n")
        run_rules(rounds, torch)
        print(f"\n# {load()}")
        return
    if args.only in (None, "jax"):
        print("\n## jaxpad.image.resize against jax.image.resize (NHWC, float32)\n")
        _header("jax", "grad")
        cases = [JAX_CASES[i] for i in QUICK_JAX] if args.quick else JAX_CASES
        for case in cases:
            _print(run_jax_case(*case, rounds=rounds))
    if args.only in (None, "torch"):
        print("\n## jaxpad.nn.interpolate against torch's F.interpolate (NCHW, float32)\n")
        _header("torch", "fwd+bwd")
        cases = [TORCH_CASES[i] for i in QUICK_TORCH] if args.quick else TORCH_CASES
        for case in cases:
            _print(run_torch_case(*case, rounds=rounds, torch=torch))
    print(f"\n# {load()}")


if __name__ == "__main__":
    main()
