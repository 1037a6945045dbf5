"""Draws docs/img/ghosts.png: the ghost cells of each per-side mode on a short 1-D signal.

The signal has 5 cells and is padded by 10 (twice its length) on both sides, so that
each panel shows how a mode continues past one period. Cells are centred on integers;
the faces (dashed) lie half a cell beyond the first and the last cell, where a
``"dirichlet"`` side's value sits (crosses) and across which a ``"neumann"`` side's
value is the jump from one cell to the next (``h du/dx``). Run from the repository
root: ``python docs/make_ghosts_figure.py``.
"""

from __future__ import annotations

import io
from pathlib import Path

import jax.numpy as jnp
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from PIL import Image

import jaxpad

OUT = Path(__file__).resolve().parent / "img" / "ghosts.png"
SIGNAL = np.array([1.0, 2.0, 1.4, 2.6, 2.2], np.float32)
WIDTH = 2 * len(SIGNAL)

# (title, mode, (begin value, end value) or None)
PANELS = [
    ("constant, values 0.5 / 3", "constant", (0.5, 3.0)),
    ("edge", "edge", None),
    ("wrap", "wrap", None),
    ("symmetric (neumann, v = 0)", "symmetric", None),
    ("neumann, v = +0.3 / +0.3", "neumann", (0.3, 0.3)),
    ("neumann, v = -0.3 / -0.3", "neumann", (-0.3, -0.3)),
    ("dirichlet, values 0.5 / 3", "dirichlet", (0.5, 3.0)),
    ("reflect", "reflect", None),
    ("reflect_odd", "reflect_odd", None),
    ("symmetric_odd", "symmetric_odd", None),
    ("neumann / dirichlet, v = 0.3 / 3", ("neumann", "dirichlet"), (0.3, 3.0)),
    ("dirichlet / neumann, v = 0.5 / -0.3", ("dirichlet", "neumann"), (0.5, -0.3)),
]


def main() -> None:
    n = len(SIGNAL)
    positions = np.arange(-WIDTH, n + WIDTH)
    columns = 3
    rows = -(-len(PANELS) // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 2.4 * rows), sharey=True)
    for axis, (title, mode, values) in zip(axes.flat, PANELS):
        pad_value = None if values is None else jnp.asarray([values], jnp.float32)
        padded = np.asarray(
            jaxpad.pad(jnp.asarray(SIGNAL), [WIDTH], [WIDTH], mode=[mode], pad_value=pad_value)
        )
        ghost = (positions < 0) | (positions >= n)
        axis.plot(positions, padded, color="0.75", linewidth=1, zorder=1)
        axis.scatter(positions[ghost], padded[ghost], s=14, color="tab:orange", zorder=2)
        axis.scatter(positions[~ghost], padded[~ghost], s=22, color="tab:blue", zorder=3)
        for face in (-0.5, n - 0.5):
            axis.axvline(face, color="k", linestyle="--", linewidth=0.8)
        sides = (mode, mode) if isinstance(mode, str) else mode
        for side, face in zip(sides, (-0.5, n - 0.5)):
            if side == "dirichlet" and values is not None:
                value = values[0] if face < 0 else values[1]
                axis.plot([face], [value], "x", color="tab:red", markersize=8, zorder=4)
        axis.set_title(title, fontsize=10)
        axis.set_ylim(-5, 8)
        axis.grid(alpha=0.3)
    for axis in axes.flat[len(PANELS) :]:
        axis.axis("off")
    figure.suptitle(
        f"jaxpad.pad(x, [{WIDTH}], [{WIDTH}], mode=[(begin, end)], pad_value=[(begin, end)]): "
        "blue: x, orange: ghosts, dashed: faces, red crosses: Dirichlet values",
        fontsize=11,
    )
    figure.tight_layout()
    OUT.parent.mkdir(exist_ok=True)
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=80, format="png")
    Image.open(buffer).convert("RGB").quantize(64).save(OUT, optimize=True)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
