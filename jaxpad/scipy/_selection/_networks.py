"""The rank filters' selection networks: the compare-exchanges of a sorting network
that one rank depends on, or a sort past ``_NETWORK_MAX`` elements."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

# Rank filters of up to this many elements use a selection network of
# minimum/maximum pairs; larger ones sort the stacked views.
_NETWORK_MAX = 49


# The median of 9 in 19 compare-exchanges (Paeth; Devillard's opt_med9).
_MEDIAN9 = (
    (1, 2), (4, 5), (7, 8), (0, 1), (3, 4), (6, 7), (1, 2), (4, 5), (7, 8),
    (0, 3), (5, 8), (4, 7), (3, 6), (1, 4), (2, 5), (4, 7), (4, 2), (6, 4), (4, 2),
)  # fmt: skip


def _batcher(n: int) -> list[tuple[int, int]]:
    """Batcher's odd-even merge sort network for the next power of two, without the
    comparators that touch an index >= n (virtual +inf elements never move)."""
    size = 1
    while size < n:
        size *= 2
    pairs = []
    p = 1
    while p < size:
        k = p
        while k >= 1:
            for j in range(k % p, size - k, 2 * k):
                for i in range(min(k, size - j - k)):
                    a, b = i + j, i + j + k
                    if a // (2 * p) == b // (2 * p) and b < n:
                        pairs.append((a, b))
            k //= 2
        p *= 2
    return pairs


def _selection_network(n: int, rank: int) -> list[tuple[int, int, bool, bool]]:
    """The comparators of a sorting network that ``rank``'s output depends on, each as
    (low wire, high wire, low needed, high needed), pruned backwards from the output."""
    pairs = list(_MEDIAN9) if (n, rank) == (9, 4) else _batcher(n)
    live = {rank}
    kept = []
    for a, b in reversed(pairs):
        need_lo, need_hi = a in live, b in live
        if need_lo or need_hi:
            kept.append((a, b, need_lo, need_hi))
            live |= {a, b}
    return kept[::-1]


def _select(views: list[jax.Array], rank: int) -> jax.Array:
    n = len(views)
    if n <= _NETWORK_MAX:
        wires: list[Any] = list(views)
        for a, b, need_lo, need_hi in _selection_network(n, rank):
            lo = jnp.minimum(wires[a], wires[b]) if need_lo else None
            hi = jnp.maximum(wires[a], wires[b]) if need_hi else None
            wires[a], wires[b] = lo, hi
        return wires[rank]
    return jnp.sort(jnp.stack(views), axis=0)[rank]
