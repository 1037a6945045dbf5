"""Bytes a global pad along a sharded axis moves between devices: jaxpad.pad vs jnp.pad.

Runs on 8 simulated CPU devices (set before JAX starts). A (64, 16) float32 array is
sharded along axis 0 over 8 devices (one shard: 8 rows of 64 bytes) under ``jit`` with
``NamedSharding`` (mesh axis type Auto, where ``jnp.pad`` works in every mode), and
padded along that axis by ``w`` rows at both ends or at the beginning only, for every
mode and every ``w`` from 1 to one shard: the padded size splits over the 8 devices for
some widths and not for others. For the compiled forward and VJP (``jax.grad`` of the
sum of squares) the script reads every collective in the optimized HLO and adds up the
bytes one device receives from it:

- collective-permute: its operand (= its result);
- all-gather: the result less the device's own part, ``(g-1)/g`` of it over a group of g;
- all-to-all: ``(g-1)/g`` of its operand;
- all-reduce: ``2(g-1)/g`` of its operand (a ring's reduce-scatter plus all-gather).

For scale, the halo (what ``halo_pad`` moves per device: the padded rows) and the whole
array (4096 bytes) are printed alongside. A cell is "fwd / vjp" bytes, with the
collective kinds used: P permute, G all-gather, A all-to-all, R all-reduce.

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
START, END = "<!-- sharding_bytes:start -->", "<!-- sharding_bytes:end -->"


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


def received_bytes(hlo: str) -> tuple[int, str]:
    """(bytes one device receives, the kinds of collective used) in an optimized module."""
    pattern = rf"= (\S+|\([^=]*?\)) ({'|'.join(KINDS)})(-start)?\((.*)"
    total, kinds = 0.0, set()
    for shape, kind, start, rest in re.findall(pattern, hlo):
        # The CPU backend emits synchronous collectives; an async start's result is a
        # tuple of buffers that this count would not read right.
        assert not start, f"async {kind}: count its operand by hand"
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


def cell(forward, backward) -> str:
    (fb, fk), (bb, bk) = forward, backward
    return f"{fb} {fk} / {bb} {bk}".replace("  ", " ").strip()


def measure(op: str, mode: str, pads: tuple[int, int], x) -> tuple[tuple, tuple]:
    begin, end = pads
    if op == "jaxpad.pad":

        def f(x):
            return jaxpad.pad(x, [begin, 0], [end, 0], mode)
    else:

        def f(x):
            return jnp.pad(x, ((begin, end), (0, 0)), mode)

    forward = received_bytes(jax.jit(f).lower(x).compile().as_text())
    vjp = jax.jit(jax.grad(lambda x: (f(x) ** 2).sum()))
    backward = received_bytes(vjp.lower(x).compile().as_text())
    return forward, backward


def tables() -> str:
    mesh = jax.make_mesh((DEVICES,), ("x",), axis_types=(AxisType.Auto,))
    x_host = np.arange(ROWS * COLS, dtype=np.float32).reshape(ROWS, COLS)
    x = jax.device_put(x_host, NamedSharding(mesh, P("x", None)))
    widths = range(1, SHARD + 1)
    lines = []
    for sides in ("both", "begin"):
        pads_of = {w: (w, w) if sides == "both" else (w, 0) for w in widths}
        out_rows = [ROWS + sum(pads_of[w]) for w in widths]
        lines.append(
            f"Padded by `w` rows at {'both ends' if sides == 'both' else 'the beginning only'}"
            " (bytes one device receives, forward / VJP):\n"
        )
        lines.append("| op | mode | " + " | ".join(f"w={w}" for w in widths) + " |")
        lines.append("|---|---|" + "---|" * len(widths))
        splits = ["yes" if n % DEVICES == 0 else "no" for n in out_rows]
        lines.append("| | rows out | " + " | ".join(map(str, out_rows)) + " |")
        lines.append("| | splits over 8 | " + " | ".join(splits) + " |")
        halo = [sum(pads_of[w]) * ROW_BYTES for w in widths]
        lines.append("| `halo_pad` | any | " + " | ".join(f"{h} P / {h} P" for h in halo) + " |")
        for op in ("jaxpad.pad", "jnp.pad"):
            for mode in MODES:
                with jax.set_mesh(mesh):
                    cells = [cell(*measure(op, mode, pads_of[w], x)) for w in widths]
                lines.append(f"| `{op}` | {mode} | " + " | ".join(cells) + " |")
        lines.append("")
    header = (
        f"jax {jax.__version__}, {jax.device_count()} simulated CPU devices; "
        f"(64, 16) float32 sharded 8 ways along axis 0 (a shard is 8 rows, 512 bytes; "
        f"the array 4096 bytes)\n"
    )
    return header + "\n" + "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()
    text = tables()
    print(text)
    if args.write_docs:
        docs = DOCS.read_text()
        head, rest = docs.split(START)
        _, tail = rest.split(END)
        DOCS.write_text(f"{head}{START}\n{text.strip()}\n{END}{tail}")


if __name__ == "__main__":
    main()
