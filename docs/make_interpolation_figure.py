"""Draws docs/img/interpolation_modes.png: one photograph rotated by 30 degrees with
``jaxpad.scipy.ndimage.rotate`` (cubic spline, ``reshape=True``) in each of scipy's
eight interpolation modes.

The photograph is matplotlib's sample image of Grace Hopper, which ships with
matplotlib (``pip install -e ".[docs]"``). Run from the repository root:
``python docs/make_interpolation_figure.py``.
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.cbook
import matplotlib.pyplot as plt
import numpy as np
from PIL import Image

from jaxpad.scipy import ndimage

OUT = Path(__file__).resolve().parent / "img" / "interpolation_modes.png"
MODES = (
    "constant",
    "grid-constant",
    "nearest",
    "mirror",
    "reflect",
    "grid-mirror",
    "wrap",
    "grid-wrap",
)


def main() -> None:
    with matplotlib.cbook.get_sample_data("grace_hopper.jpg") as file:
        photo = plt.imread(file)
    # The grey face, small, so that the corners the rotation opens show each mode.
    image = photo[60:300:2, 160:380:2].mean(axis=-1).astype(np.float32) / 255.0
    panels = [("original", image)]
    for mode in MODES:
        rotated = ndimage.rotate(image, 30, order=3, mode=mode, cval=1.0)
        title = f"{mode}, cval=1.0" if "constant" in mode else mode
        panels.append((title, np.clip(np.asarray(rotated), 0, 1)))
    figure, axes = plt.subplots(3, 3, figsize=(9.0, 9.6))
    for axis, (title, panel) in zip(axes.flat, panels):
        axis.imshow(panel, cmap="gray", vmin=0, vmax=1)
        axis.set_xticks([])
        axis.set_yticks([])
        axis.set_title(title)
    figure.suptitle("jaxpad.scipy.ndimage.rotate(image, 30, mode=...)")
    figure.tight_layout()
    OUT.parent.mkdir(exist_ok=True)
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=70, format="png")
    Image.open(buffer).convert("L").save(OUT, optimize=True)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
