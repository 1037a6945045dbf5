"""What a pad along a sharded axis moves between devices: collectives in the compiled HLO.

Runs on 8 simulated CPU devices (set before JAX starts). For each op, mode and mesh
axis type it compiles the forward and the VJP of a (64, 16) float32 array sharded
along axis 0 and padded by 4 on both ends of that axis (72 rows: still divisible by 8),
and prints the collectives in the compiled program, with their operand shapes.
``jnp.pad`` is the reference. ``jaxpad.dynamic_pad`` shifts by a traced offset of 4,
without a bound and with ``max_pad=4`` (whose all-gather sits in the branch taken only
past the bound). Usage: ``python -m benchmarks.sharding_collectives``;
``--write-docs`` also replaces the table in docs/sharding.md between its markers.
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import argparse  # noqa: E402
import collections  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import jaxpad  # noqa: E402
from benchmarks._docs import write_section  # noqa: E402

KINDS = ("all-gather", "all-to-all", "collective-permute", "all-reduce", "reduce-scatter")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "sharding.md"


def summarize(hlo: str) -> str:
    # A combined collective's result is a tuple of shapes.
    found = re.findall(rf"= (\([^()]*\)|\S+) ({'|'.join(KINDS)})(?:-start)?\(", hlo)
    if not found:
        return "none"
    counts = collections.Counter(
        (kind, re.sub(r"\{[^}]*\}|/\*[^*]*\*/", "", shape)) for shape, kind in found
    )
    return ", ".join(f"{n}x {kind} {shape}" for (kind, shape), n in sorted(counts.items()))


def table() -> str:
    x_host = np.arange(64 * 16, dtype=np.float32).reshape(64, 16)
    ops = {
        "jaxpad.pad": lambda mode: lambda x: jaxpad.pad(x, [4, 0], [4, 0], mode),
        "jnp.pad": lambda mode: lambda x: jnp.pad(x, ((4, 4), (0, 0)), mode),
        "jaxpad.dynamic_pad": lambda mode: (
            lambda x: jaxpad.dynamic_pad(x, (jnp.array(4), 0), (72, 16), mode)
        ),
        "jaxpad.dynamic_pad(max_pad=4)": lambda mode: (
            lambda x: jaxpad.dynamic_pad(x, (jnp.array(4), 0), (72, 16), mode, max_pad=4)
        ),
    }
    lines = [
        f"jax {jax.__version__}, {jax.device_count()} simulated CPU devices\n",
        "| axis type | op | mode | forward | VJP |",
        "|---|---|---|---|---|",
    ]
    for axis_type in (AxisType.Auto, AxisType.Explicit):
        mesh = jax.make_mesh((8,), ("x",), axis_types=(axis_type,))
        x = jax.device_put(x_host, NamedSharding(mesh, P("x", None)))
        for op, make in ops.items():
            for mode in ("constant", "edge", "reflect", "symmetric", "wrap"):
                f = make(mode)
                with jax.set_mesh(mesh):
                    try:
                        forward = summarize(jax.jit(f).lower(x).compile().as_text())
                        vjp = jax.jit(jax.grad(lambda x: (f(x) ** 2).sum()))
                        backward = summarize(vjp.lower(x).compile().as_text())
                    except Exception as error:  # noqa: BLE001 - reported, not hidden
                        forward = backward = f"error: {type(error).__name__}"
                lines.append(f"| {axis_type.name} | `{op}` | {mode} | {forward} | {backward} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()
    output = table()
    print(output)
    if args.write_docs:
        write_section(DOCS, "sharding_collectives", output)


if __name__ == "__main__":
    main()
