"""One axis's resampling table, in NumPy float64 at trace time, and its pass.

A table is ``(idx, w, present)``, each ``(n_out, taps)``: output ``k`` is
``sum_j w[k, j] * x[idx[k, j]]`` over the entries ``present[k, j]``; ``idx == -1``
reads a constant (``cval``). Every framework's resize is one such table per axis,
built from the output's source coordinates ``x`` (in the input's index space: input
sample ``j`` sits at ``j``) by one of:

- ``kernel_table``: a kernel (triangle, cubic with its ``a``, Lanczos) over the taps
  within its support, stretched by ``support`` (``> 1``: antialiased downsampling);
- ``area_table``: the overlap of each output's interval with the input's cells;
- ``index_table``: one tap (nearest), the index already rounded by its framework's rule;

then ``finish``: the taps beyond the edge either dropped with the weights renormalized
over the rest (``boundary="exclude"``: jax.image's, torch's and Pillow's antialiased
kernels, ONNX's ``exclude_outside``) or read through a jaxpad boundary mode
(``edge``: torch's and ONNX's clamped reads; ``reflect``, ``symmetric``, ``wrap``;
``constant`` reads ``cval``); taps reading the same index merged; zero weights marked
absent, so that an inf beside a sample is never multiplied by zero.
"""

from __future__ import annotations

import hashlib

import jax.numpy as jnp
import numpy as np

from jaxpad._index_maps import source_index
from jaxpad._sampling import _kernels
from jaxpad._sampling._pass import static_pass, static_pieces

BOUNDARIES = ("exclude", "constant", "edge", "reflect", "symmetric", "wrap")

# jax.image's renormalization: a row whose weights sum to no more than this is zero.
_TINY_SUM = 1000.0 * float(np.finfo(np.float32).eps)


class Table:
    """One axis's taps: ``idx`` (int64, ``-1``: the constant), ``w`` (float64) and
    ``present`` (bool), each ``(n_out, taps)``."""

    def __init__(self, idx: np.ndarray, w: np.ndarray, present: np.ndarray):
        self.idx, self.w, self.present = idx, w, present
        self._key = tuple(
            (a.shape, hashlib.blake2b(np.ascontiguousarray(a).data, digest_size=16).digest())
            for a in (idx, w, present)
        )

    def __hash__(self):  # a static argument of ``run``'s jit
        return hash(self._key)

    def __eq__(self, other):
        return isinstance(other, Table) and self._key == other._key

    def is_identity(self, n_in: int) -> bool:
        """Whether the table copies its ``n_in`` inputs unchanged."""
        n_out = self.idx.shape[0]
        if n_out != n_in or not self.present[:, 0].all() or self.present[:, 1:].any():
            return False
        return bool(np.all(self.idx[:, 0] == np.arange(n_in)) and np.all(self.w[:, 0] == 1.0))

    def with_constant_rows(self, rows: np.ndarray) -> Table:
        """The table with the outputs ``rows`` (bool) the constant, whatever they read."""
        if not rows.any():
            return self
        idx, w, present = self.idx.copy(), self.w.copy(), self.present.copy()
        idx[rows] = -1
        w[rows] = 0.0
        w[rows, 0] = 1.0
        present[rows] = False
        present[rows, 0] = True
        return Table(idx, w, present)


def _normalized(w: np.ndarray) -> np.ndarray:
    total = w.sum(axis=1, keepdims=True)
    ok = np.abs(total) > _TINY_SUM
    return np.where(ok, w / np.where(ok, total, 1.0), 0.0)


def finish(j: np.ndarray, w: np.ndarray, n_in: int, boundary: str, normalize: bool) -> Table:
    """The table of taps ``j`` (int, any range) with weights ``w``: the taps beyond
    ``[0, n_in)`` dropped (``exclude``) or mapped by the boundary mode, the weights
    renormalized to sum 1 where ``normalize`` (always where ``exclude``), duplicate
    indices in a row merged, zero weights absent."""
    j = np.asarray(j, np.int64)
    w = np.asarray(w, np.float64)
    outside = (j < 0) | (j >= n_in)
    if boundary == "exclude":
        w = np.where(outside, 0.0, w)
        idx = np.clip(j, 0, n_in - 1)
    elif boundary == "constant":
        idx = np.where(outside, -1, j)
    else:
        idx = np.where(outside, source_index(boundary, n_in, j), j)
    if normalize or boundary == "exclude":
        w = _normalized(w)
    # taps reading one index add up into the first of them (the edge's repeats)
    taps = idx.shape[1]
    if taps > 1:
        for t in range(1, taps):
            same = idx[:, :t] == idx[:, t : t + 1]
            first = np.where(same.any(axis=1), np.argmax(same, axis=1), -1)
            rows = np.flatnonzero(first >= 0)
            if len(rows):
                w[rows, first[rows]] += w[rows, t]
                w[rows, t] = 0.0
    present = w != 0.0
    return Table(idx, w, present)


def kernel_table(
    x: np.ndarray,
    n_in: int,
    kernel: str,
    boundary: str,
    *,
    a: float = _kernels.A_KEYS,
    support: float = 1.0,
    normalize: bool = True,
) -> Table:
    """The taps of ``kernel`` (``"cubic"`` with ``a``, or a ``_kernels.KERNELS`` name)
    at the source coordinates ``x``, the kernel stretched by ``support``.

    Unstretched linear and cubic read the two or four taps from ``floor(x)`` with the
    fraction's weights in torch's order of operations (``_kernels.cubic_weights``);
    else every tap within the stretched support, each weighing
    ``kernel((j - x) / support)``."""
    x = np.asarray(x, np.float64)
    if support == 1.0 and kernel in ("linear", "cubic"):
        base = np.floor(x)
        t = (x - base)[:, None]
        if kernel == "linear":
            j = base.astype(np.int64)[:, None] + np.arange(2)
            w = np.concatenate([1.0 - t, t], axis=1)
        else:
            j = base.astype(np.int64)[:, None] + np.arange(-1, 3)
            w = np.concatenate(_kernels.cubic_weights(t, a), axis=1)
        return finish(j, w, n_in, boundary, normalize)
    reach = _kernels.radius(kernel) * support
    lo = np.ceil(x - reach)
    hi = np.floor(x + reach)
    taps = max(int(np.max(hi - lo)) + 1, 1) if len(x) else 1
    j = lo.astype(np.int64)[:, None] + np.arange(taps)
    w = _kernels.evaluate(kernel, (j - x[:, None]) / support, a)
    w = np.where(j > hi[:, None], 0.0, w)
    return finish(j, w, n_in, boundary, normalize)


def area_table(lo: np.ndarray, hi: np.ndarray, n_in: int, boundary: str) -> Table:
    """Each output the average over ``[lo, hi]`` of the input's cells ``[j, j + 1]``,
    weighted by their overlap (TensorFlow's and jax.image's ``area``; with integer
    bounds, torch's adaptive average pool)."""
    lo = np.asarray(lo, np.float64)
    hi = np.asarray(hi, np.float64)
    first = np.floor(lo)
    last = np.ceil(hi) - 1
    taps = max(int(np.max(last - first)) + 1, 1) if len(lo) else 1
    j = first.astype(np.int64)[:, None] + np.arange(taps)
    w = np.maximum(0.0, np.minimum(hi[:, None], j + 1.0) - np.maximum(lo[:, None], j))
    return finish(j, w, n_in, boundary, normalize=True)


def index_table(idx: np.ndarray, n_in: int, boundary: str) -> Table:
    """One tap per output at ``idx`` (a nearest rule's rounding); beyond the edge
    through ``boundary`` (``exclude`` reads the edge: a lone tap has no other)."""
    j = np.asarray(idx, np.int64)[:, None]
    mode = "edge" if boundary == "exclude" else boundary
    return finish(j, np.ones(j.shape), n_in, mode, normalize=False)


def apply(x, axis: int, table: Table, cval):
    """``x`` resampled along ``axis`` by ``table`` (``cval``: what ``idx == -1`` reads).

    An integer or boolean ``x`` (a nearest table: one tap of weight 1) is read by a
    take of the static indices; nothing to differentiate."""
    cval = jnp.asarray(cval)
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        assert table.idx.shape[1] == 1, "only a one-tap table reads a non-float array"
        idx = table.idx[:, 0]
        if (idx == -1).any():
            shape = list(x.shape)
            shape[axis] = 1
            plane = jnp.broadcast_to(cval.astype(x.dtype), shape)
            x = jnp.concatenate([x, plane], axis=axis)
            idx = np.where(idx == -1, x.shape[axis] - 1, idx)
        return jnp.take(x, idx, axis=axis)
    present = None if table.present.all() else table.present
    return static_pass(x, axis, table.idx, table.w, cval, present)


def pieces(x, axis: int, table: Table, cval) -> list:
    """``apply``'s output as consecutive pieces along ``axis`` (``_pass.pass_pieces``),
    built in place: for a lowering that runs the next pass on each piece."""
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        return [apply(x, axis, table, cval)]
    present = None if table.present.all() else table.present
    return static_pieces(x, axis, table.idx, table.w, jnp.asarray(cval), present)
