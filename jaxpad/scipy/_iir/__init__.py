"""scipy.signal's recursive filters (lfilter, sosfilt, filtfilt, sosfiltfilt, decimate)."""

from __future__ import annotations

from jaxpad.scipy._iir._filters import (
    decimate,
    filtfilt,
    lfilter,
    lfilter_zi,
    sosfilt,
    sosfilt_zi,
    sosfiltfilt,
)

__all__ = [
    "decimate",
    "filtfilt",
    "lfilter",
    "lfilter_zi",
    "sosfilt",
    "sosfilt_zi",
    "sosfiltfilt",
]
