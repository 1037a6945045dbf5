"""Draws docs/img/modes.png: one photograph padded in every jaxpad mode.

The photograph is matplotlib's sample image of Grace Hopper, which ships with
matplotlib (``pip install -e ".[docs]"``). Run from the repository root:
``python docs/make_modes_figure.py``.
"""

from __future__ import annotations

from pathlib import Path

import jax.numpy as jnp
import matplotlib

matplotlib.use("Agg")
import matplotlib.cbook
import matplotlib.pyplot as plt
import numpy as np

import jaxpad

OUT = Path(__file__).resolve().parent / "img" / "modes.png"


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
    figure, axes = plt.subplots(1, len(panels), figsize=(3.0 * len(panels), 4.2))
    for axis, (title, panel) in zip(axes, panels):
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
        axis.set_xticks([])
        axis.set_yticks([])
    figure.suptitle(
        f"jaxpad.pad(image, pads_begin={pads_begin[:2]}, pads_end={pads_end[:2]}, mode)"
        "  (yellow: the original image; a negative pad crops)"
    )
    figure.tight_layout()
    OUT.parent.mkdir(exist_ok=True)
    figure.savefig(OUT, dpi=80)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
