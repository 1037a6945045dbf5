"""Draws docs/img/scipy_modes.png: one photograph blurred by
``jaxpad.scipy.ndimage.gaussian_filter`` in each of scipy's boundary modes.

The photograph is matplotlib's sample image of Grace Hopper, which ships with
matplotlib (``pip install -e ".[docs]"``). Run from the repository root:
``python docs/make_scipy_figure.py``.
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

OUT = Path(__file__).resolve().parent / "img" / "scipy_modes.png"


def main() -> None:
    with matplotlib.cbook.get_sample_data("grace_hopper.jpg") as file:
        photo = plt.imread(file)
    # The grey face, cropped so that the edges cut through it: the modes differ there.
    image = photo[60:300, 160:380].mean(axis=-1).astype(np.float32) / 255.0
    panels = [("original", image)]
    for mode in ("reflect", "mirror", "nearest", "wrap", "constant"):
        blurred = ndimage.gaussian_filter(image, 12.0, mode=mode, cval=1.0)
        title = f"{mode}, cval=1.0" if mode == "constant" else mode
        panels.append((title, np.asarray(blurred)))
    figure, axes = plt.subplots(2, 3, figsize=(9.0, 6.6))
    for axis, (title, panel) in zip(axes.flat, panels):
        axis.imshow(panel, cmap="gray", vmin=0, vmax=1)
        axis.set_xticks([])
        axis.set_yticks([])
        axis.set_title(title)
    figure.suptitle("jaxpad.scipy.ndimage.gaussian_filter(image, 12.0, mode=...)")
    figure.tight_layout()
    OUT.parent.mkdir(exist_ok=True)
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=80, format="png")
    Image.open(buffer).convert("L").save(OUT, optimize=True)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
