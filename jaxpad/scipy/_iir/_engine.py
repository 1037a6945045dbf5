"""The recursive filters' engine: a cascade of sections, chunked.

``cascade(bs, as_, x, z0)`` runs ``n`` sections of order ``K`` one after the other
along the last axis of ``x`` (``N`` signals of ``T`` samples), each the direct form II
transposed scipy's ``lfilter`` runs (``y = b0 u + z_0``, ``z_k' = b_{k+1} u + z_{k+1}
- a_{k+1} y``), from the states ``z0``, and returns the outputs and the final states.

A scan of one step per sample is slow on CPU (a loop iteration per sample). The engine
cuts the time axis into chunks of ``L`` samples and carries the state between them:

1. each chunk's end state from a zero state, ``e_c = R x_c`` (one matrix product);
2. the true state at each chunk's start, ``s_{c+1} = F s_c + e_c``: a scan over the
   ``T / L`` chunks of the ``n K`` states;
3. each chunk's output, one matrix product per output: ``[chunk | start state] @
   [Toeplitz of the impulse response; O^T]``.

``h``, ``R``, ``O`` and ``F`` come from the recursion itself run for ``L`` steps on
probe lanes (an impulse on each input, then each unit state), in the signal's dtype.
The samples past the last whole chunk run from the carried state directly. ``F`` is
the state map over ``L`` samples; where the poles cluster near the unit circle in one
section of order 3 or more its float32 rounding moves them out of the circle, so the
callers run such sections sample by sample or split them into second-order sections
(docs/signal.md, "Recursive filters").

Derivatives (``jax.custom_jvp``): the tangent of the cascade is the same cascade run on
the tangents, with a forcing ``w_s = db_s * u_s - da_s * y_s`` (causal correlations with
each section's input and output) added to section ``s``: a coefficient's perturbation
reaches the output as an input would; the forcing the states still hold at the end
joins the final state's tangent (``_pending``). The tangent is linear in ``(dx, w,
dz0)``, and its transpose, the VJP, is the cascade's adjoint run from the end of the
signal to its start (JAX's transposes of the products and of the scan over chunks),
with no per-sample residual. On the chunked path the forcings are never formed: each
section's output is a linear map of the primal's chunk inputs ``[x_c | s_c]``, so the
coefficients' whole contribution is one product of those inputs with a small matrix
built from the coefficient tangents (``_coefficient_tangent``), and its transpose one
Gram matrix of the chunk inputs with the cotangent.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad._compat import CUSTOM_JVP_SCANS_TRANSPOSE


def chunk_length(t: int, k: int = 1) -> int:
    """The chunk length for a signal of ``t`` samples of a section of order ``k`` (0:
    run sample by sample).

    64 on long signals: the chunk's matrix products cost ``2 L`` flops a sample and
    were memory-bound up to 64 (the same 10-12 ms for (64, 2^16) float32 at 16, 32
    and 64, 19 at 128, 26 at 256), while the scan over the ``t / L`` chunks costs about
    a microsecond a chunk. Short signals take shorter chunks, at least two of them."""
    if t >= 128:
        length = 64
    elif t >= 32:
        length = 2 ** int(math.log2(t // 2))
    else:
        return 0
    return length if length >= 2 * k else 0


def _step(bs, as_, z, u, w, outputs_all):
    """One sample through the cascade on lanes: ``z`` (n, K, lanes), ``u`` (lanes,),
    ``w`` (n, lanes) or None. Returns the new state and the outputs (Q, lanes)."""
    n, k = as_.shape
    new, ys = [], []
    for s in range(n):
        y = bs[s, 0] * u + z[s, 0]
        if w is not None:
            y = y + w[s]
        zs = bs[s, 1:, None] * u - as_[s, :, None] * y
        if k > 1:
            zs = zs + jnp.concatenate([z[s, 1:], jnp.zeros_like(z[s, :1])])
        new.append(zs)
        ys.append(y)
        u = y
    return jnp.stack(new), (jnp.stack(ys) if outputs_all else y[None])


def _run(bs, as_, z, x, w, outputs_all, states=False):
    """The recursion run sample by sample over ``x`` (T, lanes) from state ``z`` (n, K,
    lanes); with ``states``, each step's state (T, n K, lanes) too."""

    def body(z, xs):
        u, wt = xs
        z, y = _step(bs, as_, z, u, wt, outputs_all)
        return z, ((y, z.reshape(-1, z.shape[-1])) if states else y)

    return lax.scan(body, z, (x, w))


def _probes(bs, as_, length, outputs_all, forced):
    """The chunk's matrices from one run of ``length`` steps on probe lanes: an impulse
    on each input (x, then each section's forcing if ``forced``), then each unit state.

    Returns ``h`` (P, Q, L): each input's impulse response at each output; ``r`` (P, S,
    L): the state at the chunk's end from an impulse at each position; ``o`` (Q, L, S)
    and ``f`` (S, S): each output and the end state from each unit state."""
    n, k = as_.shape
    s = n * k
    p = 1 + (n if forced else 0)
    dtype = as_.dtype
    lanes = p + s
    z = jnp.concatenate([jnp.zeros((s, p), dtype), jnp.eye(s, dtype=dtype)], axis=1)
    x = jnp.zeros((length, lanes), dtype).at[0, 0].set(1)
    w = None
    if forced:
        w = jnp.zeros((length, n, lanes), dtype)
        w = w.at[0, jnp.arange(n), jnp.arange(1, n + 1)].set(1)
    _, (ys, zs) = _run(bs, as_, z.reshape(n, k, lanes), x, w, outputs_all, states=True)
    h = jnp.moveaxis(ys[:, :, :p], 0, -1)  # (Q, P, L)
    r = jnp.moveaxis(zs[::-1, :, :p], 0, -1)  # (S, P, L): r[:, p, j] after L - j steps
    o = jnp.moveaxis(ys[:, :, p:], 1, 0)  # (Q, L, S)
    f = zs[-1, :, p:]
    return jnp.moveaxis(h, 1, 0), jnp.moveaxis(r, 1, 0), o, f


def _toeplitz(h):
    """The lower-triangular Toeplitz matrix of ``h`` (L,), transposed: ``m[j, i] =
    h[i - j]`` for ``i >= j``, so that ``chunk @ m`` filters a chunk from a zero state."""
    length = h.shape[-1]
    i = np.arange(length)
    d = i[None, :] - i[:, None]
    return jnp.where(d >= 0, h[..., np.clip(d, 0, length - 1)], 0)


def engine(bs, as_, x, w, z0, outputs_all: bool, chunked: bool = True, guard: bool = False):
    """The cascade's outputs (Q, N, T) and final state (n, N, K), undifferentiated.

    ``bs`` (n, K+1), ``as_`` (n, K) (``a[1:] / a[0]``), ``x`` (N, T), ``z0`` (n, N, K);
    ``chunked=False`` runs sample by sample. ``w`` (n, N, T), a forcing added to each
    section's output equation, or None: given one, the cascade runs sample by sample
    (the coefficient tangents of signals too short to chunk; on chunked signals
    ``_coefficient_tangent`` folds the forcings into the chunk's matrices).

    ``guard`` (the primal runs, not the tangents': its masks are not linear) keeps a
    non-finite sample of ``x`` from reaching the outputs before it, as the chunk's
    product would (``0 * nan``). Where ``x`` has one (a ``lax.cond`` on the finiteness
    of its sum: one reduction on finite inputs under ``jit``, one for a whole batch of
    signals under ``vmap``, ``_guarded``), the chunked run takes ``x`` with its
    non-finite samples zeroed, and the recursion run sample by sample on the
    non-finite samples alone (zeros elsewhere, from a zero state: exactly zero before
    the first, and from it on the non-finite values scipy's recursion gives) is added
    at and after the first."""
    n, k = as_.shape
    big_n, t = x.shape
    s = n * k
    length = chunk_length(t, k) if chunked and w is None else 0
    full = t // length if length else 0
    if guard and full >= 2:
        return _guarded(outputs_all, chunked)(bs, as_, x, z0)
    ys = []
    z = jnp.moveaxis(z0, 2, 1)  # (n, K, N)
    if full >= 2:
        head = full * length
        h, r, o, f = _probes(bs, as_, length, outputs_all, False)
        chunks = x[:, :head].reshape(big_n, full, length)
        z_flat, starts = lax.scan(
            lambda sc, ec: (sc @ f.T + ec, sc),
            z.reshape(s, big_n).T,
            jnp.moveaxis(chunks @ r[0].T, 1, 0),  # each chunk's end state from zero
        )
        stacked = jnp.concatenate([chunks, jnp.moveaxis(starts, 0, 1)], axis=-1)
        outs = []
        for q in range(o.shape[0]):
            m = jnp.concatenate([_toeplitz(h[0, q]), o[q].T])
            outs.append((stacked @ m).reshape(big_n, head))
        ys.append(jnp.stack(outs))
        z = z_flat.T.reshape(n, k, big_n)
        rest = slice(head, None)
    else:
        rest = slice(0, None)
    xt = x[:, rest]
    if xt.shape[1]:
        wt = None if w is None else jnp.moveaxis(w[:, :, rest], 2, 0)
        z, yt = _run(bs, as_, z, xt.T, wt, outputs_all)
        ys.append(jnp.moveaxis(yt, 0, -1))
    y = ys[0] if len(ys) == 1 else jnp.concatenate(ys, axis=-1)
    return y, jnp.moveaxis(z, 1, 2)


def _guarded_run(bs, as_, x, z0, outputs_all, chunked):
    """``engine`` with its guard: the chunked run where ``x`` is finite, else the
    masked one plus the non-finite samples' own run (a ``lax.cond``)."""

    # The test is one reduction, fused: a finite sum means every sample is finite. An
    # overflowing sum of finite samples takes the guarded branch, whose answer is the
    # same. Masking on every call (the mask and the zeroed signal written out, the
    # outputs copied through the conditional) took the chunked run from 7.7 to 15.9
    # ms at (64, 2^16) float32 (two sections); with the sum, 12.2.
    def unguarded(_):
        return engine(bs, as_, x, None, z0, outputs_all, chunked)

    def guarded(_):
        bad = ~jnp.isfinite(x)
        y, zf = engine(bs, as_, jnp.where(bad, 0, x), None, z0, outputs_all, chunked)
        xb = jnp.where(bad, x, 0)
        yb, zb = engine(bs, as_, xb, None, jnp.zeros_like(z0), outputs_all, False)
        after = jnp.cumsum(bad, axis=-1) > 0
        return y + jnp.where(after, yb, 0), zf + zb

    return lax.cond(jnp.isfinite(jnp.sum(x)), unguarded, guarded, None)


@functools.cache
def _guarded(outputs_all: bool, chunked: bool):
    """``_guarded_run`` whose batching folds a batch of signals (and their states)
    into its lanes: one test for the whole batch, where ``vmap`` of the conditional ran
    both branches, the non-finite samples' run sample by sample included (vmapped
    sosfilt at (64, 2^16) float32 141 ms against 20). A batch of filters is vmapped as
    JAX would. JAX before 0.10 differentiates the engine itself
    (``CUSTOM_JVP_SCANS_TRANSPOSE``), and reverse mode through a ``custom_vmap`` fails
    there (checked on 0.6.2: "Linearization failed to produce known values"): there
    the conditional is vmapped, both branches."""
    run = functools.partial(_guarded_run, outputs_all=outputs_all, chunked=chunked)
    if not CUSTOM_JVP_SCANS_TRANSPOSE:
        return run
    guarded = jax.custom_batching.custom_vmap(run)

    @guarded.def_vmap
    def _lanes(axis_size, in_batched, bs, as_, x, z0):
        bs_b, as_b, x_b, z_b = in_batched
        if bs_b or as_b:
            outs = jax.vmap(run, in_axes=tuple(0 if b else None for b in in_batched))(
                bs, as_, x, z0
            )
            return outs, (True, True)
        n_lanes = x.shape[-2]
        xs = x if x_b else jnp.broadcast_to(x, (axis_size, *x.shape))
        zs = z0 if z_b else jnp.broadcast_to(z0, (axis_size, *z0.shape))
        flat_x = xs.reshape(axis_size * n_lanes, xs.shape[-1])
        flat_z = jnp.moveaxis(zs, 0, 1).reshape(zs.shape[1], axis_size * n_lanes, -1)
        y, zf = run(bs, as_, flat_x, flat_z)
        y = jnp.moveaxis(y.reshape(y.shape[0], axis_size, n_lanes, -1), 1, 0)
        zf = jnp.moveaxis(zf.reshape(zf.shape[0], axis_size, n_lanes, -1), 1, 0)
        return (y, zf), (True, True)

    return guarded


def _correlate(c, v):
    """``out[..., t] = sum_k c[k] v[..., t - k]`` (zero before the start); c (m,)."""
    out = c[0] * v
    for j in range(1, c.shape[0]):
        shifted = (
            jnp.pad(v[..., :-j], [(0, 0)] * (v.ndim - 1) + [(j, 0)])
            if j < v.shape[-1]
            else jnp.zeros_like(v)
        )
        out = out + c[j] * shifted
    return out


def _flat_product(chunks, m):
    """``chunks @ m`` with the chunks as one matrix of rows: transposed in ``m`` (a
    Gram matrix of the chunks and the cotangent) XLA:CPU contracts the rows in place,
    where the three-dimensional product's transpose copied the cotangent transposed
    first (16.2 against 10.8 ms at (64, 1024, 64) float32)."""
    return (chunks.reshape(-1, chunks.shape[-1]) @ m).reshape(*chunks.shape[:-1], m.shape[-1])


def _banded(matrix, terms, k):
    """``sum_s sum_j g_s[j] * matrix(s)`` shifted down ``k - j`` rows, (L + K, X):
    rows ``K:`` take the chunk, rows ``:K`` the ``K`` samples before it."""
    total = 0
    for s, g in terms:
        m = matrix(s)
        for j in range(g.shape[0]):
            total = total + g[j] * jnp.pad(m, ((k - j, j), (0, 0)))
    return total


def _forcing(bands, n, skip):
    """The forcings (n, N, T - skip) that ``bands`` (``_bands``) describe, written out:
    for the runs too short to chunk and the samples past the last chunk (whose signals
    carry ``skip`` samples before them)."""
    v0 = bands[0][0]
    out: list = [None] * n
    for v, terms in bands:
        for s, g in terms:
            part = _correlate(g, v)[:, skip:]
            out[s - 1] = part if out[s - 1] is None else out[s - 1] + part
    zero = jnp.zeros((v0.shape[0], v0.shape[1] - skip), v0.dtype)
    return jnp.stack([zero if o is None else o for o in out])


def _pending(db, da, u, y, k):
    """The forcing still in the states at the end, (N, K): state ``m`` holds ``sum_{j>=m}
    db[j+1] u[T-1-(j-m)] - da[j] y[T-1-(j-m)]`` (the forcing above enters the output
    equation, so what the true tangent holds in the states has not reached it)."""
    t = u.shape[-1]
    rows = []
    for m in range(k):
        acc = jnp.zeros(u.shape[:-1], u.dtype)
        for j in range(m, k):
            i = t - 1 - (j - m)
            if i >= 0:
                acc = acc + db[j + 1] * u[..., i] - da[j] * y[..., i]
        rows.append(acc)
    return jnp.stack(rows, axis=-1)


def _is_zero(tangent) -> bool:
    return type(tangent) is jax.custom_derivatives.SymbolicZero


def _dense(primal, tangent):
    return jnp.zeros_like(primal) if _is_zero(tangent) else tangent


def _bands(dbs, das, signals):
    """The forcings ``w_s = db_s * u_s - da_s * y_s`` as filters of the signals:
    ``(signal, ((s + 1, g), ...))``, section ``s``'s forcing gaining ``sum_j g[j]
    signal[t - j]``. Signal ``i`` (x, then each section's output) is section ``i``'s
    input and section ``i - 1``'s output, so it enters two forcings (the first and the
    last one)."""
    n = dbs.shape[0]
    bands = []
    for i, v in enumerate(signals):
        terms = []
        if i < n:
            terms.append((i + 1, dbs[i]))
        if i > 0:
            terms.append((i, -jnp.concatenate([jnp.zeros_like(das[i - 1, :1]), das[i - 1]])))
        bands.append((v, tuple(terms)))
    return bands


def _coefficient_tangent(bs, as_, x, z0, dbs, das, dx, dz0, outputs_all, length):
    """The chunked cascade's tangent with coefficient tangents, from the primal's chunk
    inputs ``[x_c | s_c]`` alone: each section's output is a linear map of them
    (``y_s,c = [x_c | s_c] @ Y_s``), so each forcing's contribution, a banded filter of
    those outputs (``_banded``), is one matrix on the same inputs, and the tangent is
    one product of the primal's chunk inputs with the coefficients' matrix. No
    section's output is written out, and the VJP in the coefficients is one Gram matrix
    of the chunk inputs with the cotangent (where the forcings written out, or each
    section's output banded, kept one lagged copy, or one product, per signal)."""
    n, k = as_.shape
    big_n, t = x.shape
    s_n = n * k
    full = t // length
    head = full * length
    dtype = x.dtype
    h, r, o, f = _probes(bs, as_, length, True, True)  # h (1 + n, n, L)
    xc = x[:, :head].reshape(big_n, full, length)

    def chunk_step(sc, ec):
        return sc @ f.T + ec, sc

    # the primal's start states (its own run computed them inside the guard's branch)
    e = _flat_product(xc, r[0].T)
    z_head, starts = lax.scan(
        chunk_step, jnp.moveaxis(z0, 2, 1).reshape(s_n, big_n).T, jnp.moveaxis(e, 1, 0)
    )
    stacked = jnp.concatenate([xc, jnp.moveaxis(starts, 0, 1)], axis=-1)  # (N, full, L + S)
    # each signal (x, then each section's output) as a map of the chunk's inputs
    eye = jnp.concatenate([jnp.eye(length, dtype=dtype), jnp.zeros((s_n, length), dtype)])
    maps = [eye] + [jnp.concatenate([_toeplitz(h[0, q]), o[q].T]) for q in range(n)]
    bands = _bands(dbs, das, maps)
    # each chunk's K samples before it of each signal (zeros before the first chunk)
    tails = _flat_product(stacked, jnp.concatenate([m[:, length - k :] for m in maps], axis=1))
    before = jnp.pad(tails[:, :-1], ((0, 0), (1, 0), (0, 0)))

    def folded(matrix):
        """The forcings' contribution through ``matrix(p)`` (L, X): on the chunk's
        inputs (L + S, X) and on the samples before it (signals x K, X)."""
        mats = [_banded(matrix, terms, k) for _, terms in bands]
        on_inputs = sum(m_v @ m[k:] for m_v, m in zip(maps, mats))
        return on_inputs, jnp.concatenate([m[:k] for m in mats])

    e_in, e_before = folded(lambda p: r[p].T)
    sections = range(n) if outputs_all else [n - 1]
    # dx's chunks enter the outputs and the end states through one product, so that
    # its transpose is one product too: two products, transposed and summed, took the
    # VJP in sos and x from 38-40 to 44-47 ms at (64, 2^16) float32 (three interleaved
    # runs of benchmarks/signal.py, 2026-12-07)
    dxc = dx[:, :head].reshape(big_n, full, length)
    px = _flat_product(dxc, jnp.concatenate([*(_toeplitz(h[0, q]) for q in sections), r[0].T], 1))
    de = px[..., len(sections) * length :]
    de = de + _flat_product(stacked, e_in) + _flat_product(before, e_before)
    dz_head, dstarts = lax.scan(
        chunk_step, jnp.moveaxis(dz0, 2, 1).reshape(s_n, big_n).T, jnp.moveaxis(de, 1, 0)
    )
    dstarts = jnp.moveaxis(dstarts, 0, 1)
    outs = []
    for i, q in enumerate(sections):
        out_in, out_before = folded(lambda p: _toeplitz(h[p, q]))
        out = px[..., i * length : (i + 1) * length] + _flat_product(dstarts, o[q].T)
        out = out + _flat_product(stacked, out_in) + _flat_product(before, out_before)
        outs.append(out.reshape(big_n, head))
    dy = jnp.stack(outs)
    # the samples past the last chunk and the forcing the states still hold, from the
    # signals' last K samples of the chunks and their values past them
    last = tails[:, -1].reshape(big_n, n + 1, k)
    window = [last[:, i] for i in range(n + 1)]
    z = z_head.T.reshape(n, k, big_n)
    dz = dz_head.T.reshape(n, k, big_n)
    if head < t:
        _, ys = _run(bs, as_, z, x[:, head:].T, None, True)  # (rest, n, N)
        rest = [x[:, head:], *jnp.moveaxis(ys, 0, 1).transpose(0, 2, 1)]
        window = [jnp.concatenate([a, b], axis=-1) for a, b in zip(window, rest)]
        w_rest = _forcing(_bands(dbs, das, window), n, k)
        dz, dy_rest = _run(bs, as_, dz, dx[:, head:].T, jnp.moveaxis(w_rest, 2, 0), outputs_all)
        dy = jnp.concatenate([dy, jnp.moveaxis(dy_rest, 0, -1)], axis=-1)
    pend = [_pending(dbs[i], das[i], window[i], window[i + 1], k) for i in range(n)]
    return dy, jnp.moveaxis(dz, 1, 2) + jnp.stack(pend)


def _jvp(static, primals, tangents):
    """The cascade's JVP. Without coefficient tangents it is the cascade run on the
    tangents; with them, each section's forcing ``w_s = db_s * u_s - da_s * y_s`` joins
    in: folded into the chunk's matrices on a chunked signal (``_coefficient_tangent``),
    else written out and run sample by sample, with the forcing the states still hold
    added to the final state's tangent (``_pending``). JAX differentiates the tangent's
    own code for higher orders."""
    outputs_all, chunked, guard = static
    bs, as_, x, z0 = primals
    dbs, das, dx, dz0 = tangents
    dz0 = _dense(z0, dz0)
    dx = _dense(x, dx)
    primal = cascade(bs, as_, x, z0, outputs_all, chunked, guard)
    if _is_zero(dbs) and _is_zero(das):
        return primal, cascade(bs, as_, dx, dz0, outputs_all, chunked, False)
    dbs, das = _dense(bs, dbs), _dense(as_, das)
    n, k = as_.shape
    length = chunk_length(x.shape[-1], k) if chunked else 0
    if length and x.shape[-1] // length >= 2:
        return primal, _coefficient_tangent(bs, as_, x, z0, dbs, das, dx, dz0, outputs_all, length)
    y_all, zf = cascade(bs, as_, x, z0, True, chunked, guard)
    signals = [x, *y_all]
    w = _forcing(_bands(dbs, das, signals), n, 0)
    dy, dz = engine(bs, as_, dx, w, dz0, outputs_all, chunked)
    pend = [_pending(dbs[s], das[s], signals[s], signals[s + 1], k) for s in range(n)]
    y = y_all if outputs_all else y_all[-1:]
    return (y, zf), (dy, dz + jnp.stack(pend))


def _cascade(bs, as_, x, z0, outputs_all=False, chunked=True, guard=True):
    """The cascade's outputs ((n if outputs_all else 1), N, T) and final states;
    ``guard``: see ``engine`` (False for the tangents' runs)."""
    return engine(bs, as_, x, None, z0, outputs_all, chunked, guard)


cascade: Callable[..., Any]
if CUSTOM_JVP_SCANS_TRANSPOSE:
    cascade = jax.custom_jvp(_cascade, nondiff_argnums=(4, 5, 6))
    cascade.defjvp(lambda o, c, g, p, t: _jvp((o, c, g), p, t), symbolic_zeros=True)
else:
    # JAX before 0.10 cannot run reverse mode through the rule (jaxpad/_compat.py):
    # it differentiates the engine itself, whose tangent is the same linear map.
    cascade = _cascade
