"""FIR designs in NumPy (float64) at trace time, equal to scipy.signal's
``get_window(window, n, fftbins=False)`` and ``firwin(n, cutoff, window=window)`` for a
low-pass filter: what ``resample_poly`` designs by default, without importing scipy."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

_COSINE = {
    "hann": (0.5, 0.5),
    "hamming": (0.54, 0.46),
    "blackman": (0.42, 0.50, 0.08),
    "nuttall": (0.3635819, 0.4891775, 0.1365995, 0.0106411),
    "blackmanharris": (0.35875, 0.48829, 0.14128, 0.01168),
}
_ALIASES = {
    "boxcar": "boxcar", "box": "boxcar", "ones": "boxcar", "rect": "boxcar",
    "rectangular": "boxcar",
    "triang": "triang", "triangle": "triang", "tri": "triang",
    "bartlett": "bartlett", "bart": "bartlett", "brt": "bartlett",
    "hann": "hann", "han": "hann",
    "hamming": "hamming", "hamm": "hamming", "ham": "hamming",
    "blackman": "blackman", "black": "blackman", "blk": "blackman",
    "nuttall": "nuttall", "nutl": "nuttall", "nut": "nuttall",
    "blackmanharris": "blackmanharris", "blackharr": "blackmanharris", "bkh": "blackmanharris",
    "cosine": "cosine", "halfcosine": "cosine",
    "kaiser": "kaiser", "ksr": "kaiser",
    "gaussian": "gaussian", "gauss": "gaussian", "gss": "gaussian",
}  # fmt: skip
# The windows that take one parameter (a tuple ``(name, parameter)``).
_PARAMETER = ("kaiser", "gaussian")
WINDOW_NAMES = tuple(sorted(set(_ALIASES.values())))


def _window_error(fn: str, window: Any) -> ValueError:
    return ValueError(
        f"{fn}: window must be one of {', '.join(repr(w) for w in WINDOW_NAMES)} (a name, "
        "or a tuple (name, parameter) for 'kaiser' (beta) and 'gaussian' (std)), a float "
        f"(a Kaiser window's beta) or an array of filter taps; got {window!r}."
    )


def get_window(fn: str, window: Any, n: int) -> np.ndarray:
    """scipy.signal.get_window(window, n, fftbins=False): a symmetric window."""
    params: tuple[Any, ...]
    if isinstance(window, numbers.Real) and not isinstance(window, bool):
        name, params = "kaiser", (float(window),)
    elif isinstance(window, str):
        name, params = window, ()
    elif isinstance(window, tuple) and window and isinstance(window[0], str):
        name, params = window[0], window[1:]
    else:
        raise _window_error(fn, window)
    kind = _ALIASES.get(name.lower())
    if kind is None:
        raise _window_error(fn, window)
    if (kind in _PARAMETER) != (len(params) == 1) or len(params) > 1:
        raise _window_error(fn, window)
    if params and (isinstance(params[0], bool) or not isinstance(params[0], numbers.Real)):
        raise _window_error(fn, window)
    if n == 1:
        return np.ones(1)
    k = np.arange(n, dtype=np.float64)
    if kind == "boxcar":
        return np.ones(n)
    if kind == "triang":
        m = np.arange(1, (n + 1) // 2 + 1, dtype=np.float64)
        if n % 2 == 0:
            w = (2 * m - 1.0) / n
            return np.concatenate([w, w[::-1]])
        w = 2 * m / (n + 1.0)
        return np.concatenate([w, w[-2::-1]])
    if kind == "bartlett":
        return np.where(k <= (n - 1) / 2.0, 2.0 * k / (n - 1), 2.0 - 2.0 * k / (n - 1))
    if kind in _COSINE:
        fac = np.linspace(-np.pi, np.pi, n)
        w = np.zeros(n)
        for j, a in enumerate(_COSINE[kind]):
            w += a * np.cos(j * fac)
        return w
    if kind == "cosine":
        return np.sin(np.pi / n * (k + 0.5))
    p = float(params[0])
    if kind == "kaiser":
        alpha = (n - 1) / 2.0
        return np.i0(p * np.sqrt(1 - ((k - alpha) / alpha) ** 2.0)) / np.i0(p)
    centred = k - (n - 1.0) / 2.0
    return np.exp(-(centred**2) / (2 * p * p))


def firwin_lowpass(fn: str, numtaps: int, cutoff: float, window: Any) -> np.ndarray:
    """scipy.signal.firwin(numtaps, cutoff, window=window): a low-pass filter of
    ``numtaps`` taps, ``cutoff`` relative to Nyquist, scaled to unit gain at 0."""
    m = np.arange(numtaps, dtype=np.float64) - (numtaps - 1) / 2.0
    h = cutoff * np.sinc(cutoff * m)
    h = h * get_window(fn, window, numtaps)
    return h / np.sum(h)
