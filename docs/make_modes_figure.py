"""Draws docs/img/modes.png: one photograph padded in every jaxpad mode, and per side.

The photograph is matplotlib's sample image of Grace Hopper, which ships with
matplotlib (``pip install -e ".[docs]"``). Run from the repository root:
``python docs/make_modes_figure.py``.
"""

from __future__ import annotations

import io
from pathlib import Path

import jax.numpy as jnp
import matplotlib

matplotlib.use("Agg")
import matplotlib.cbook
import matplotlib.pyplot as plt
import numpy as np
from PIL import Image

import jaxpad

OUT = Path(__file__).resolve().parent / "img" / "modes.png"


def _pairs(modes):
    return [(m, m) if isinstance(m, str) else m for m in modes]


def main() -> None:
    with matplotlib.cbook.get_sample_data("grace_hopper.jpg") as file:
        photo = plt.imread(file)
    # Every 4th pixel of the face: small enough that the pads are easy to see.
    image = jnp.asarray(photo[40:360:4, 150:390:4], jnp.float32) / 255.0
    height, width = image.shape[:2]
    # Pads wider than the image show how each mode continues past one period; the
    # negative pad on the right crops.
    pads_begin, pads_end = (height // 2, width + 10, 0), (height, -width // 4, 0)
    panels = [("original", image)]
    for mode in ("constant", "edge", "reflect", "symmetric", "wrap"):
        pad_value = 0.85 if mode == "constant" else None
        panels.append((mode, jaxpad.pad(image, pads_begin, pads_end, mode, pad_value)))
    # The second row: the boundary-condition modes, then a mode per side. The value
    # array has a row per axis (y, x, colour) and a column per side.
    panels.append(("", None))
    for mode in ("reflect_odd", "symmetric_odd"):
        panels.append((mode, jaxpad.pad(image, pads_begin, pads_end, mode)))
    panels.append(
        ("dirichlet, value 0.5", jaxpad.pad(image, pads_begin, pads_end, "dirichlet", 0.5))
    )
    per_side = [
        ((("dirichlet", "edge"), "wrap", "constant"), [[0.9, 0], [0, 0], [0, 0]]),
        ((("constant", "reflect_odd"), ("symmetric", "edge"), "edge"), [[0.2, 0], [0, 0], [0, 0]]),
    ]
    for modes, values in per_side:
        title = "\n".join(f"{b}/{e}" if b != e else b for b, e in _pairs(modes[:2]))
        padded = jaxpad.pad(image, pads_begin, pads_end, modes, jnp.asarray(values, image.dtype))
        panels.append((title, padded))
    columns = len(panels) // 2
    figure, axes = plt.subplots(2, columns, figsize=(3.0 * columns, 8.6))
    for axis, (title, panel) in zip(axes.flat, panels):
        axis.set_xticks([])
        axis.set_yticks([])
        if panel is None:
            axis.axis("off")
            axis.text(
                0.5,
                0.5,
                "boundary modes\n(values clipped to [0, 1])\n\n"
                "per side, titled\naxis 0 (rows)\naxis 1 (columns)",
                ha="center",
                va="center",
                transform=axis.transAxes,
            )
            continue
        axis.imshow(np.clip(np.asarray(panel), 0, 1))
        if title != "original":
            # The original image's place in the padded output.
            top, left = pads_begin[0], pads_begin[1]
            axis.add_patch(
                plt.Rectangle(
                    (left - 0.5, top - 0.5),
                    width + min(pads_end[1], 0),
                    height,
                    fill=False,
                    edgecolor="yellow",
                    linewidth=1.5,
                )
            )
        axis.set_title(title)
    figure.suptitle(
        f"jaxpad.pad(image, pads_begin={pads_begin[:2]}, pads_end={pads_end[:2]}, mode)"
        "  (yellow: the original image; a negative pad crops)"
    )
    figure.tight_layout()
    OUT.parent.mkdir(exist_ok=True)
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=80, format="png")
    # 256 colours: under a third of the bytes of full colour, no visible loss here.
    Image.open(buffer).convert("RGB").quantize(256).save(OUT, optimize=True)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
