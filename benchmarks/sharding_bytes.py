"""Bytes a pad along a sharded axis moves between devices: jaxpad vs jnp.pad.

Runs on 8 simulated CPU devices (set before JAX starts). A (64, 16) float32 array is
sharded along axis 0 over 8 devices (one shard: 8 rows of 64 bytes, 512 bytes) under
``jit`` with ``NamedSharding`` (mesh axis type Auto, where ``jnp.pad`` works in every
mode), and padded along that axis by ``w`` rows at both ends or at the beginning only,
for every mode and every ``w`` from 1 to one shard: the padded size splits over the 8
devices for some widths and not for others. Three programs per case:

- *in a program*: ``jit`` of the sum of squares of the pad, which consumes the padded
  array where it lies (scalar all-reduces, the sum's own, are left out);
- *VJP*: ``jit(grad)`` of that sum;
- *returned*: ``jit`` of the pad alone, whose output is the program's result.

For each compiled program the script reads every collective in the optimized HLO and
adds up the bytes one device receives from it:

- collective-permute: its operand (= its result);
- all-gather: the result less the device's own part, ``(g-1)/g`` of it over a group of g;
- all-to-all: ``(g-1)/g`` of its operand;
- all-reduce: ``2(g-1)/g`` of its operand (a ring's reduce-scatter plus all-gather);
- reduce-scatter: ``(g-1)`` times its result.

The bound the issue set is printed with each table: twice the halo (the padded rows)
plus the shift of the shard boundaries (the output's blocks are ``ceil(rows / 8)``
rows, so block ``j`` starts ``j * (ceil(rows / 8) - 8)`` rows later than the input's).

``dynamic_pad`` is measured on the same array shifted by a traced offset of ``w`` rows
(output shape unchanged), with ``max_pad=w`` and without a bound. With a bound, the
collectives of the branch taken only when an offset exceeds it (``lax.cond``'s first
branch, an all-gather) are listed apart.

Usage: ``python -m benchmarks.sharding_bytes`` prints the markdown tables;
``--write-docs`` also replaces them in docs/sharding.md between its markers.
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import argparse  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import jaxpad  # noqa: E402
from benchmarks._docs import write_section  # noqa: E402

ROWS, COLS, DEVICES = 64, 16, 8
SHARD = ROWS // DEVICES
ROW_BYTES = COLS * 4
MODES = ("constant", "edge", "reflect", "symmetric", "wrap")
KINDS = {
    "collective-permute": "P",
    "all-gather": "G",
    "all-to-all": "A",
    "all-reduce": "R",
    "reduce-scatter": "S",
}
ITEMSIZE = {"f32": 4, "s32": 4, "u32": 4, "pred": 1, "f16": 2, "bf16": 2, "f64": 8, "s64": 8}
DOCS = Path(__file__).resolve().parent.parent / "docs" / "sharding.md"
# lax.cond(pred, within_bound, past_bound) lowers to branch 1 (taken) and branch 0.
FALLBACK = "branch_0_fun"


def shape_bytes(shape: str) -> int:
    """Bytes of an HLO shape; of a tuple's elements together (async or combined ops)."""
    total = 0
    for dtype, dims in re.findall(r"(\w+)\[([\d,]*)\]", shape):
        total += ITEMSIZE[dtype] * math.prod(int(d) for d in dims.split(",") if d)
    return total


def group_size(attributes: str) -> int:
    iota = re.search(r"replica_groups=\[(\d+),(\d+)\]", attributes)
    if iota:
        return int(iota.group(2))
    listed = re.search(r"replica_groups=\{\{([\d,]*)\}", attributes)
    return len(listed.group(1).split(",")) if listed else DEVICES


def received_bytes(hlo: str, *, fallback: bool = False) -> tuple[int, str]:
    """(bytes one device receives, the kinds of collective used) in an optimized module.

    Scalar all-reduces (a sum's) are left out. ``fallback``: count only the
    collectives of the branches taken past a ``max_pad`` bound; else all others.
    """
    # A combined collective's result is a tuple, whose "/*index=5*/" comments hold no
    # parentheses.
    pattern = rf"= (\([^()]*\)|\S+) ({'|'.join(KINDS)})(-start)?\((.*)"
    total, kinds = 0.0, set()
    for shape, kind, start, rest in re.findall(pattern, hlo):
        # The CPU backend emits synchronous collectives; an async start's result is a
        # tuple of buffers that this count would not read right.
        assert not start, f"async {kind}: count its operand by hand"
        if (FALLBACK in rest) != fallback:
            continue
        if kind == "all-reduce" and re.fullmatch(r"\w+\[\]", shape):
            continue
        size = shape_bytes(shape)
        g = group_size(rest)
        total += {
            "collective-permute": size,
            "all-gather": size * (g - 1) / g,
            "all-to-all": size * (g - 1) / g,
            "all-reduce": size * 2 * (g - 1) / g,
            "reduce-scatter": size * (g - 1),
        }[kind]
        kinds.add(KINDS[kind])
    return round(total), "".join(sorted(kinds))


def text(measured: tuple[int, str]) -> str:
    size, kinds = measured
    return f"{size} {kinds}".strip() if size else "0"


def compiled(f, *args) -> str:
    return jax.jit(f).lower(*args).compile().as_text()


def static_pad(op: str, mode: str, pads: tuple[int, int]):
    begin, end = pads
    if op == "jaxpad.pad":
        return lambda x: jaxpad.pad(x, [begin, 0], [end, 0], mode)
    return lambda x: jnp.pad(x, ((begin, end), (0, 0)), mode)


def loss_of(f):
    return lambda *args: (f(*args) ** 2).sum()


def bound_bytes(pads: tuple[int, int]) -> int:
    """Twice the halo plus the shift of the shard boundaries, in bytes."""
    out_block = -(-(ROWS + sum(pads)) // DEVICES)
    shift = (DEVICES - 1) * (out_block - SHARD)
    return (2 * sum(pads) + shift) * ROW_BYTES


def static_tables(x) -> list[str]:
    widths = range(1, SHARD + 1)
    lines = []
    for sides in ("both", "begin"):
        pads_of = {w: (w, w) if sides == "both" else (w, 0) for w in widths}
        out_rows = [ROWS + sum(pads_of[w]) for w in widths]
        where = "both ends" if sides == "both" else "the beginning only"
        header = "| op | mode | " + " | ".join(f"w={w}" for w in widths) + " |"
        rule = "|---|---|" + "---|" * len(widths)
        context = [
            "| | rows out | " + " | ".join(map(str, out_rows)) + " |",
            "| | splits over 8 | "
            + " | ".join("yes" if n % DEVICES == 0 else "no" for n in out_rows)
            + " |",
            "| | halo | " + " | ".join(str(sum(pads_of[w]) * ROW_BYTES) for w in widths) + " |",
            "| | 2 x halo + shift | "
            + " | ".join(str(bound_bytes(pads_of[w])) for w in widths)
            + " |",
        ]
        consumed, returned = [], []
        for op in ("jaxpad.pad", "jnp.pad"):
            for mode in MODES:
                cells, outs = [], []
                for w in widths:
                    f = static_pad(op, mode, pads_of[w])
                    forward = received_bytes(compiled(loss_of(f), x))
                    backward = received_bytes(compiled(jax.grad(loss_of(f)), x))
                    cells.append(f"{text(forward)} / {text(backward)}")
                    outs.append(text(received_bytes(compiled(f, x))))
                consumed.append(f"| `{op}` | {mode} | " + " | ".join(cells) + " |")
                returned.append(f"| `{op}` | {mode} | " + " | ".join(outs) + " |")
        lines += [
            f"Padded by `w` rows at {where}, in a program / VJP (bytes one device receives):\n",
            header,
            rule,
            *context,
            *consumed,
            "",
            f"Padded by `w` rows at {where}, the padded array returned by `jit`:\n",
            header,
            rule,
            *context[:2],
            *returned,
            "",
        ]
    return lines


def dynamic_table(x) -> list[str]:
    widths = range(1, SHARD + 1)
    lines = [
        "`jaxpad.dynamic_pad(x, (offset, 0), x.shape, mode, max_pad=...)` with a traced "
        "offset of `w` rows, in a program / VJP (bytes one device receives; with "
        "`max_pad=w`, after `+`, the branch taken only past the bound):\n",
        "| max_pad | mode | " + " | ".join(f"w={w}" for w in widths) + " |",
        "|---|---|" + "---|" * len(widths),
    ]
    for bounded in (True, False):
        for mode in MODES:
            cells = []
            for w in widths:

                def f(x, offset, mode=mode, w=w):
                    max_pad = w if bounded else None
                    return jaxpad.dynamic_pad(x, (offset, 0), x.shape, mode, max_pad=max_pad)

                offset = jnp.int32(w)
                forward = compiled(loss_of(f), x, offset)
                backward = compiled(jax.grad(loss_of(f)), x, offset)
                cell = f"{text(received_bytes(forward))} / {text(received_bytes(backward))}"
                if bounded:
                    past = received_bytes(forward, fallback=True)
                    past_back = received_bytes(backward, fallback=True)
                    cell += f" + {text(past)} / {text(past_back)}"
                cells.append(cell)
            label = "`w`" if bounded else "None"
            lines.append(f"| {label} | {mode} | " + " | ".join(cells) + " |")
    return lines + [""]


def tables() -> str:
    mesh = jax.make_mesh((DEVICES,), ("x",), axis_types=(AxisType.Auto,))
    x_host = np.arange(ROWS * COLS, dtype=np.float32).reshape(ROWS, COLS)
    x = jax.device_put(x_host, NamedSharding(mesh, P("x", None)))
    with jax.set_mesh(mesh):
        lines = static_tables(x) + dynamic_table(x)
    header = (
        f"jax {jax.__version__}, {jax.device_count()} simulated CPU devices; "
        f"({ROWS}, {COLS}) float32 sharded {DEVICES} ways along axis 0 (a shard is "
        f"{SHARD} rows, {SHARD * ROW_BYTES} bytes; the array {ROWS * ROW_BYTES} bytes)\n"
    )
    return header + "\n" + "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()
    output = tables()
    print(output)
    if args.write_docs:
        write_section(DOCS, "sharding_bytes", output)


if __name__ == "__main__":
    main()
