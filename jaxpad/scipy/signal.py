"""``scipy.signal.convolve2d`` and ``correlate2d`` with every boundary (fill, wrap, symm).

``jax.scipy.signal.convolve2d`` takes only ``boundary="fill"`` with zeros; these take
scipy's three boundaries and a (traceable) ``fillvalue``, differentiably.

The FIR filters whose answer depends on the signal's ends, with scipy's names,
defaults and values, the ends as ``jaxpad.pad`` modes (docs/signal.md, "FIR filters"):
``savgol_coeffs`` and ``savgol_filter`` (every mode, ``deriv``, a traceable ``delta``),
``upfirdn`` (scipy's extension modes, a traceable filter) and ``resample_poly`` (a
window name, tuple or array of taps, every ``padtype``).

The recursive filters, chunked rather than run a sample at a time, differentiable in the
signal, the coefficients and the initial states (docs/signal.md, "Recursive filters"):
``lfilter`` and ``lfilter_zi``, ``sosfilt`` and ``sosfilt_zi``, ``filtfilt`` and
``sosfiltfilt`` (the ``padtype`` extensions as jaxpad pads) and ``decimate``.
"""

from __future__ import annotations

from jaxpad.scipy._fir._savgol import savgol_coeffs, savgol_filter
from jaxpad.scipy._fir._upfirdn import resample_poly, upfirdn
from jaxpad.scipy._iir import (
    decimate,
    filtfilt,
    lfilter,
    lfilter_zi,
    sosfilt,
    sosfilt_zi,
    sosfiltfilt,
)
from jaxpad.scipy._signal import convolve2d, correlate2d

__all__ = [
    "convolve2d",
    "correlate2d",
    "decimate",
    "filtfilt",
    "lfilter",
    "lfilter_zi",
    "resample_poly",
    "savgol_coeffs",
    "savgol_filter",
    "sosfilt",
    "sosfilt_zi",
    "sosfiltfilt",
    "upfirdn",
]
