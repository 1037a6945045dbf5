"""``decimate``'s default filters, designed with NumPy at trace time (no scipy import).

``cheby1_lowpass_sos``: scipy's ``cheby1(n, rp, wn, output="sos")`` (the analog
Chebyshev I prototype, prewarped, through the bilinear transform), its poles paired
into second-order sections by conjugate pairs, with every zero at ``z = -1`` (the
lowpass's) and the gain on the first section. The sections' order and pairing differ
from scipy's ``zpk2sos`` (which sorts them by distance to the unit circle); the
cascade is the same filter, equal to float64 rounding. ``firwin_hamming``: scipy's
``firwin(numtaps, cutoff, window="hamming")``.
"""

from __future__ import annotations

import numpy as np


def cheby1_lowpass_sos(order: int, rp: float, wn: float) -> np.ndarray:
    """The (order + 1) // 2 sections, float64, of a digital Chebyshev I lowpass."""
    eps = np.sqrt(10 ** (0.1 * rp) - 1.0)
    mu = np.arcsinh(1.0 / eps) / order
    m = np.arange(-order + 1, order, 2)
    theta = np.pi * m / (2 * order)
    p = -np.sinh(mu + 1j * theta)
    k = np.prod(-p).real
    if order % 2 == 0:
        k = k / np.sqrt(1 + eps * eps)
    fs2 = 4.0  # 2 * fs, fs = 2 (frequencies as fractions of Nyquist)
    warped = fs2 * np.tan(np.pi * wn / 2.0)
    p = p * warped
    k = k * warped**order
    pz = (fs2 + p) / (fs2 - p)
    k = k * np.real(1.0 / np.prod(fs2 - p))
    upper = sorted((q for q in pz if q.imag > 0), key=lambda q: q.real)
    real = [q.real for q in pz if abs(q.imag) <= 1e-14 * max(1.0, abs(q))]
    rows = [[1.0, 2.0, 1.0, 1.0, -2.0 * q.real, abs(q) ** 2] for q in upper]
    if real:
        rows.append([1.0, 1.0, 0.0, 1.0, -real[0], 0.0])
    sos = np.array(rows, dtype=np.float64)
    sos[0, :3] *= k
    return sos


def firwin_hamming(numtaps: int, cutoff: float) -> np.ndarray:
    """A lowpass FIR of ``numtaps`` taps, cutoff a fraction of Nyquist, unit DC gain."""
    m = np.arange(numtaps) - 0.5 * (numtaps - 1)
    h = cutoff * np.sinc(cutoff * m)
    h = h * np.hamming(numtaps)
    return h / h.sum()
