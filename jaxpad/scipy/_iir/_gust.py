"""Gustafsson's initial conditions for ``filtfilt(method="gust")``.

F. Gustafsson, "Determining the initial states in forward-backward filtering", IEEE
Transactions on Signal Processing 44 (1996): the forward and the backward pass start
from the states that make the forward-backward and the backward-forward filters
agree, in the least-squares sense, on the first and last ``m`` samples (``m`` the
signal's length, or ``irlen`` where the signal is longer than twice that). The steps
and their order are scipy's (``scipy.signal._signaltools._filtfilt_gust``), so the
values are its to float rounding; the passes are the chunked cascade's
(``_filters._run``), the least-squares solve ``jnp.linalg.lstsq``.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

# run(x2, z0): the filter on (N, T) from states z0 (N, K): (N, T).
Run = Callable[[jax.Array, jax.Array], jax.Array]


def _shifted_columns(h: jax.Array, order: int) -> jax.Array:
    """The observability matrix (m, order): column ``k`` is ``h`` delayed by ``k``."""
    m = h.shape[0]
    rows, cols = np.arange(m)[:, None], np.arange(order)[None, :]
    lag = rows - cols
    return jnp.where(lag >= 0, h[np.clip(lag, 0, m - 1)], 0)


def filtfilt_gust(run: Run, order: int, x2: jax.Array, irlen: int | None) -> jax.Array:
    """``filtfilt(method="gust")`` of ``x2`` (N, T), the filter of ``order`` states
    given by ``run``.

    scipy's six passes run as two where the fit spans the whole signal (lanes of one
    pass: the signal forward and reversed, and the response to a unit state, then
    the second pass of each and the filtered observability matrix), four otherwise:
    one program of two cascades rather than six to compile and run."""
    lanes, n = x2.shape
    m = n if irlen is None or n <= 2 * irlen else irlen
    dtype = x2.dtype
    unit = jnp.zeros((1, order), dtype).at[0, 0].set(1)

    def zeros(count):
        return jnp.zeros((count, order), dtype)

    def reverse(v):
        return v[:, ::-1]

    first_in, first_states = [x2, reverse(x2)], [zeros(2 * lanes)]
    if m == n:
        first_in.append(jnp.zeros((1, n), dtype))
        first_states.append(unit)
    first = run(jnp.concatenate(first_in), jnp.concatenate(first_states))
    y_f, y_b = first[:lanes], reverse(first[lanes : 2 * lanes])
    h = first[2 * lanes] if m == n else run(jnp.zeros((1, m), dtype), unit)[0]
    obs = _shifted_columns(h, order)
    second_in = [reverse(y_f), y_b]
    if m == n:
        second_in.append(obs[::-1].T)
    second = run(jnp.concatenate(second_in), zeros(sum(v.shape[0] for v in second_in)))
    y_fb, y_bf = reverse(second[:lanes]), second[lanes : 2 * lanes]
    # The filter applied to the row-reversed observability matrix, column by column.
    s = (second[2 * lanes :] if m == n else run(obs[::-1].T, zeros(order))).T
    if m == n:
        fit = jnp.concatenate([s[::-1] - obs, obs[::-1] - s], axis=1)
        response = jnp.concatenate([s[::-1], obs[::-1]], axis=1)
    else:
        block = jnp.zeros((m, order), dtype)
        fit = jnp.block([[s[::-1] - obs, block], [block, obs[::-1] - s]])
        response = jnp.block([[s[::-1], block], [block, obs[::-1]]])
    delta = y_bf - y_fb
    if m != n:
        delta = jnp.concatenate([delta[:, :m], delta[:, -m:]], axis=1)
    initial = jnp.linalg.lstsq(fit, delta.T)[0].T  # (N, 2 order)
    correction = initial @ response.T
    if m == n:
        return y_fb + correction
    return y_fb.at[:, :m].add(correction[:, :m]).at[:, -m:].add(correction[:, m:])
