"""Draws docs/img/resize_conventions.png: one small image enlarged from 6x6 to 16x16
under each framework's convention, each panel one ``jaxpad.image.resize`` call (the
calls of docs/resize.md's table), and a chirp shrunk with and without antialiasing.

Run from the repository root: ``python docs/make_resize_figure.py`` (needs matplotlib,
``pip install -e ".[docs]"``).
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from PIL import Image

from jaxpad import image as jimage

OUT = Path(__file__).resolve().parent / "img" / "resize_conventions.png"

# (title, method, keywords): enlarging 6x6 to 16x16.
ENLARGED = [
    (
        "nearest, asymmetric floor\n(torch nearest, cv2 INTER_NEAREST)",
        "nearest",
        dict(coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
    ),
    (
        "nearest, half-pixel\n(jax, TF2, Pillow, nearest-exact)",
        "nearest",
        {},
    ),
    (
        "linear, half-pixel\n(torch, TF2, cv2, ONNX default)",
        "linear",
        dict(antialias=False),
    ),
    (
        "linear, align_corners\n(torch/TF1 align_corners=True)",
        "linear",
        dict(antialias=False, coordinate_transformation_mode="align_corners"),
    ),
    (
        "linear, asymmetric\n(TF1 default)",
        "linear",
        dict(antialias=False, coordinate_transformation_mode="asymmetric"),
    ),
    (
        "cubic a=-0.75, edge taps\n(torch, cv2, ONNX)",
        "cubic",
        dict(antialias=False, cubic_coeff_a=-0.75, exclude_outside=False),
    ),
    (
        "cubic a=-0.5, taps dropped\n(jax, TF2, Pillow)",
        "cubic",
        dict(antialias=False),
    ),
    ("lanczos3\n(jax, TF2, Pillow LANCZOS)", "lanczos3", dict(antialias=False)),
    ("area\n(jax, TF, cv2 INTER_AREA)", "area", {}),
]
# (title, method, keywords): shrinking the 48x48 chirp to 17x17.
SHRUNK = [
    ("shrunk, linear, antialias=False\n(torch, TF2, cv2 default)", "linear", dict(antialias=False)),
    ("shrunk, linear, antialias=True\n(jax default, Pillow)", "linear", dict(antialias=True)),
]


def _image() -> np.ndarray:
    """A 6x6 image whose shifts show: a bright off-centre square on a ramp."""
    y, x = np.mgrid[0:6, 0:6]
    picture = 0.15 * (x + y) / 10.0
    picture[1:3, 3:5] = 1.0
    picture[4, 1] = 0.7
    return picture.astype(np.float32)


def _chirp() -> np.ndarray:
    """48x48 rings whose frequency grows outwards: shrinking without a filter turns
    the fine outer rings into false coarse ones (aliasing)."""
    y, x = np.mgrid[0:48, 0:48] - 23.5
    return (0.5 + 0.45 * np.cos(np.pi * (x**2 + y**2) / 48.0)).astype(np.float32)


def main() -> None:
    small = _image()
    panels = [("original 6x6", small)]
    for title, method, kwargs in ENLARGED:
        panels.append((title, np.asarray(jimage.resize(small, (16, 16), method, **kwargs))))
    chirp = _chirp()
    panels.append(("original 48x48 chirp", chirp))
    for title, method, kwargs in SHRUNK:
        panels.append((title, np.asarray(jimage.resize(chirp, (17, 17), method, **kwargs))))
    figure, axes = plt.subplots(3, 5, figsize=(12.5, 9.4))
    for axis in axes.flat:
        axis.set_axis_off()
    for axis, (title, panel) in zip(axes.flat, panels):
        axis.set_axis_on()
        axis.imshow(np.clip(panel, 0, 1), cmap="gray", vmin=0, vmax=1, interpolation="nearest")
        axis.set_xticks([])
        axis.set_yticks([])
        axis.set_title(title, fontsize=8)
    figure.suptitle("jaxpad.image.resize under each framework's convention")
    figure.tight_layout()
    OUT.parent.mkdir(exist_ok=True)
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=70, format="png")
    Image.open(buffer).convert("L").save(OUT, optimize=True)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
