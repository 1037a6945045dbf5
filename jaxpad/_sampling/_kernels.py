"""The 1-D interpolation kernels, each written once, in NumPy or ``jax.numpy``.

Every function is plain arithmetic on its argument, so it runs on NumPy float64
(the resize tables, built at trace time) and on traced arrays (``grid_sample``'s taps)
alike. The cubic convolution is written in torch's order of operations
(``get_cubic_coefficients`` in aten's UpSample.h), which is also ONNX's reference's and
JAX's ``_fill_keys_cubic_kernel``'s, so that float64 results agree with each to the
last bit where the frameworks agree with one another.
"""

from __future__ import annotations

import numpy as np

# Keys' parameter as torch (bicubic without antialias, grid_sample), OpenCV and ONNX
# use it; JAX, Pillow and torch's antialiased bicubic use -0.5.
A_TORCH = -0.75
A_KEYS = -0.5


def cubic_near(x, a):
    """The cubic convolution kernel on ``0 <= x <= 1``."""
    return ((a + 2) * x - (a + 3)) * x * x + 1


def cubic_far(x, a):
    """The cubic convolution kernel on ``1 <= x <= 2``."""
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a


def cubic_weights(t, a):
    """The four taps' weights at ``floor(x) - 1 .. floor(x) + 2`` for the fraction
    ``t = x - floor(x)`` in ``[0, 1)``."""
    return [cubic_far(t + 1, a), cubic_near(t, a), cubic_near(1 - t, a), cubic_far(2 - t, a)]


def cubic(x, a, xp=np):
    """The cubic convolution kernel at ``x`` (any sign)."""
    x = xp.abs(x)
    return xp.where(x < 1, cubic_near(x, a), xp.where(x < 2, cubic_far(x, a), 0.0))


def triangle(x, xp=np):
    """The linear interpolation kernel (a tent of radius 1)."""
    return xp.maximum(0.0, 1.0 - xp.abs(x))


def lanczos(x, radius: int, xp=np, jax_cutoff: bool = True):
    """The Lanczos kernel of ``radius``. ``jax_cutoff``: as ``jax.image``'s
    ``_fill_lanczos_kernel``, 1 within 1e-3 of 0 (its lanczos3 and lanczos5); else 1
    at 0 only (OpenCV's lanczos4)."""
    x = xp.abs(x)
    y = radius * xp.sin(np.pi * x) * xp.sin(np.pi * x / radius)
    safe = xp.where(x != 0, np.pi**2 * x**2, 1.0)
    out = xp.where(x > (1e-3 if jax_cutoff else 0.0), y / safe, 1.0)
    return xp.where(x > radius, 0.0, out)


def box(x, xp=np):
    """Pillow's box: 1 on ``(-0.5, 0.5]``."""
    return xp.where((x > -0.5) & (x <= 0.5), 1.0, 0.0)


def hamming(x, xp=np):
    """Pillow's Hamming-windowed sinc of radius 1."""
    x = xp.abs(x)
    px = np.pi * xp.where(x == 0, 1.0, x)
    out = xp.sin(px) / px * (0.54 + 0.46 * xp.cos(px))
    return xp.where(x == 0, 1.0, xp.where(x >= 1, 0.0, out))


def gaussian(x, xp=np):
    """TensorFlow's Gaussian: sigma 0.5, cut at radius 1.5 (``sampling_kernels.h``)."""
    x = xp.abs(x)
    return xp.where(x >= 1.5, 0.0, xp.exp(-x * x / (2.0 * 0.25)))


def mitchell(x, xp=np):
    """TensorFlow's Mitchell-Netravali cubic, ``B = C = 1/3``."""
    x = xp.abs(x)
    far = (((-7.0 / 18.0) * x + 2.0) * x - 10.0 / 3.0) * x + 16.0 / 9.0
    near = (((7.0 / 6.0) * x - 2.0) * x) * x + 8.0 / 9.0
    return xp.where(x >= 2.0, 0.0, xp.where(x >= 1.0, far, near))


# Each named kernel but the cubic convolution (which takes ``a``): its radius and its
# function of the distance (``xp``: NumPy or jax.numpy).
KERNELS = {
    "linear": (1.0, triangle),
    "lanczos3": (3.0, lambda x, xp=np: lanczos(x, 3, xp)),
    "lanczos4": (4.0, lambda x, xp=np: lanczos(x, 4, xp, jax_cutoff=False)),
    "lanczos5": (5.0, lambda x, xp=np: lanczos(x, 5, xp)),
    "box": (0.5, box),
    "hamming": (1.0, hamming),
    "gaussian": (1.5, gaussian),
    "mitchellcubic": (2.0, mitchell),
}


def evaluate(kind: str, x, a: float, xp=np):
    """Kernel ``kind`` (a ``KERNELS`` name or ``"cubic"``) at the distances ``x``."""
    if kind == "cubic":
        return cubic(x, a, xp)
    return KERNELS[kind][1](x, xp)


def radius(kind: str) -> float:
    return 2.0 if kind == "cubic" else KERNELS[kind][0]
