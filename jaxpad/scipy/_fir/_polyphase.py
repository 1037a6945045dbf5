"""The polyphase filter of ``upfirdn`` and ``resample_poly``: its static plan, its
forms, and along the last axis a bilinear primitive whose two transposes are chosen.

Output ``n`` is ``sum_j taps[n down % up + j up] e[n down // up + left - j]``, where
``e`` is the signal extended by ``left = per_phase - 1`` samples before it and ``taps``
the filter zero-padded to ``per_phase * up``. The output phases repeat with period
``P = up / g`` (``g = gcd(up, down)``): phase ``r``'s outputs ``n = r + P m`` read ``e``
at the stride ``D = down / g``, so each phase is a correlation of ``per_phase`` taps
with ``e`` read at that stride.

Along the last axis the filter is ``jaxpad_conv_bilinear`` of the signal and the taps
(``polyphase``), over a ``Span``: the operand may hold the signal alone, its zeros past
the ends read as zeros and never written out, and only the outputs a caller keeps are
computed. Its value and its tangents are the strided taps (exactly the products scipy
multiplies); its transpose in the signal is the adjoint filter (the same primitive,
``up`` and ``down`` swapped and the taps reversed: ``_adjoint``), reading the cotangent
itself; its transpose in the taps is one Gram matrix of the signal's windows with the
cotangent's blocks (``_gram``). JAX's own transposes, and the forms before these,
were slower: float32 (64, 2^16), 32 taps, up 3, down 2, the VJP in ``h`` and ``x``
took 43-48 ms against 10.7-13.7 (docs/notes/signal-forms.md).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad._lowering.conv._bilinear import BilinearRules, bilinear


@dataclasses.dataclass(frozen=True)
class Plan:
    """The static polyphase plan of one upfirdn along an axis of ``n`` samples."""

    n: int
    taps: int  # len(h)
    up: int
    down: int
    # The taps that may be nonzero, ``(first, end)``; the others are zeros that the
    # filter's own transposes put in, and their products are skipped. ``None``: every
    # tap of the zero-padded filter is multiplied, as scipy's upfirdn multiplies them.
    live: tuple[int, int] | None = None

    @property
    def out_len(self) -> int:
        return ((self.n - 1) * self.up + self.taps - 1) // self.down + 1

    @property
    def per_phase(self) -> int:
        return -(-self.taps // self.up)

    @property
    def phases(self) -> int:
        return self.up // math.gcd(self.up, self.down)

    @property
    def stride(self) -> int:
        return self.down // math.gcd(self.up, self.down)

    @property
    def blocks(self) -> int:
        """Output samples per phase (the last block may run past out_len)."""
        return -(-self.out_len // self.phases)

    def entries(self):
        """Per phase r, its taps: (column s, row offset q, index of h), reading e at
        ``D (m + q) + s`` for the phase's output m (the live taps only)."""
        left = self.per_phase - 1
        first, end = self.live or (0, self.per_phase * self.up)
        out = []
        for r in range(self.phases):
            base, t = divmod(r * self.down, self.up)
            row = []
            for j in range(self.per_phase):
                q, s = divmod(left + base - j, self.stride)
                if first <= t + j * self.up < end:
                    row.append((s, q, t + j * self.up))
            out.append(row)
        return out

    @property
    def rows(self) -> int:
        """Rows of the extended signal reshaped to (rows, D)."""
        left = self.per_phase - 1
        last_base = ((self.phases - 1) * self.down) // self.up
        return self.blocks + (left + last_base) // self.stride


def polyphase_form(e: jax.Array, taps: jax.Array, plan: Plan) -> jax.Array:
    """The outputs of the extended signal e (A, rows * D, T), T > 1, with the
    zero-padded taps (per_phase * up,): (A, out_len, T), each tap a slice of e reshaped
    to (A, rows, D, T), every multiply-add along T."""
    a, _, t = e.shape
    d, p, m = plan.stride, plan.phases, plan.blocks
    cols = e.reshape(a, plan.rows, d, t)
    outs: list[jax.Array] = []
    for row in plan.entries():
        terms = [
            taps[k] * lax.slice(cols, (0, q, s, 0), (a, q + m, s + 1, t)).reshape(a, m, t)
            for s, q, k in row
        ]
        outs.append(functools.reduce(operator.add, terms))
    y = outs[0][:, :, None] if p == 1 else jnp.stack(outs, 2)  # (A, M, P, T)
    y = y.reshape(a, m * p, t)
    return lax.slice_in_dim(y, 0, plan.out_len, axis=1)


@dataclasses.dataclass(frozen=True)
class Span:
    """Where the operand and the outputs of one ``polyphase`` lie: the operand holds the
    extended signal's samples ``lead .. lead + length`` (zeros elsewhere), and the
    result is the outputs ``start .. start + count``."""

    lead: int
    length: int
    start: int
    count: int


# Where taps read past the operand: with more than ``_EDGE_TAPS`` of them and an operand
# no longer than the output, the operand is padded once (a zero-extended copy, the
# forward's only temporary); else the periods every tap reads inside the operand are
# one loop and those at the ends are computed from small padded pieces, the three
# concatenated (a copy of the output, the smaller of the two). float32 (64, 2^16), 32
# taps, medians of 11-21 interleaved rounds (2026-12-07), padding against the ends:
# the forward up 3 down 2 7.3 against 12.4 ms, up 2 down 3 8.9 against 5.2 (2^20
# samples 3.1 against 1.8, up 3 down 5 8.2 against 6.3); the gradient in the signal
# of mode "edge" (the adjoint reading the cotangent past its ends) up 3 down 2 17.7
# against 11.8 ms (temporaries 42 against 17 MB), up 2 down 3 6.9 against 8.7; at
# (1024, 256) within 0.2 ms either way. With a few taps past the operand, gathers that
# fill zeros slowed the whole loop (the adjoint 12.6 against 7.7 ms) and
# ``dynamic_update_slice`` of the ends into the output took 12.4.
_EDGE_TAPS = 4


def _strided_outputs(e: jax.Array, taps: jax.Array, plan: Plan, span: Span) -> jax.Array:
    """The outputs ``span.start .. + span.count`` of the extended signal, from its
    samples ``e`` (A, length) at ``span.lead``: each tap one strided slice of ``e`` at
    the stride D, fused with the interleave of the phases into one loop over the
    output. The periods are counted from the span's first output, and a phase past the
    last output stops there (its last period a zero, sliced off): no read is made for
    an output not kept. A read past ``e`` is a zero (``e`` padded where many taps read
    past it, else the ends apart)."""
    d, p = plan.stride, plan.phases
    entries = plan.entries()
    # Output start + j + p i is phase (start + j) % p's output (start + j) // p + i.
    phases = []
    for j in range(p):
        first, r = (span.start + j) // p, (span.start + j) % p
        reads = tuple((d * (first + q) + s - span.lead, k) for s, q, k in entries[r])
        phases.append(_Phase(reads, (span.count - j + p - 1) // p))
    periods = -(-span.count // p)
    y = _periods(e, taps, phases, d, periods, jnp.result_type(e, taps))
    return y if periods * p == span.count else lax.slice_in_dim(y, 0, span.count, axis=1)


class _Phase(NamedTuple):
    """One phase of the outputs: its taps' reads ``(b, k)`` (tap ``k`` reads
    ``e[b + D i]`` for the phase's output ``i``) and how many outputs it has."""

    reads: tuple[tuple[int, int], ...]
    outputs: int


def _periods(e: jax.Array, taps: jax.Array, phases: list[_Phase], stride: int, periods: int, dtype):
    """The phases' outputs interleaved, ``periods`` of them: ``e`` padded where many
    taps read past it, else the periods whose reads all lie inside as one loop and
    those at either end from small padded pieces."""
    length = e.shape[1]
    # Each read's first and one-past-last sample.
    outside = [
        (b, b + stride * (ph.outputs - 1) + 1)
        for ph in phases
        for b, _ in ph.reads
        if ph.outputs and (b < 0 or b + stride * (ph.outputs - 1) >= length)
    ]
    if len(outside) > _EDGE_TAPS and length <= periods * len(phases):
        low = max([0] + [-b for b, _ in outside])
        high = max([0] + [end - length for _, end in outside])
        e = _zero_extended(e, low, high)
        phases = [_Phase(tuple((b + low, k) for b, k in ph.reads), ph.outputs) for ph in phases]
        return _interleaved(e, taps, phases, stride, 0, periods, dtype)
    if not outside:
        return _interleaved(e, taps, phases, stride, 0, periods, dtype)
    # The periods [i0, i1) read inside e in every phase.
    i0 = min(periods, max([0] + [-(b // stride) for ph in phases for b, _ in ph.reads]))
    i1 = min(
        [periods] + [(length - 1 - b) // stride + 1 for ph in phases for b, _ in ph.reads]
        + [ph.outputs for ph in phases]
    )  # fmt: skip
    i1 = max(i0, i1)
    parts = [_piece(e, taps, phases, stride, 0, i0, dtype)] if i0 else []
    if i1 > i0:
        parts.append(_interleaved(e, taps, phases, stride, i0, i1, dtype))
    if periods > i1:
        parts.append(_piece(e, taps, phases, stride, i1, periods, dtype))
    return parts[0] if len(parts) == 1 else jnp.concatenate(parts, axis=1)


def _interleaved(
    e: jax.Array, taps: jax.Array, phases: list[_Phase], stride: int, i0: int, i1: int, dtype
) -> jax.Array:
    """Periods ``i0 .. i1`` of the phases, interleaved, every read inside ``e``; a
    phase whose outputs end before ``i1`` is zero past its end."""
    a = e.shape[0]
    outs = []
    for ph in phases:
        count = max(0, min(i1, ph.outputs) - i0)
        terms = []
        for b, k in ph.reads if count else ():
            start = b + stride * i0
            v = lax.slice(e, (0, start), (a, start + stride * (count - 1) + 1), (1, stride))
            terms.append(taps[k] * v)
        out = functools.reduce(operator.add, terms) if terms else jnp.zeros((a, count), dtype)
        outs.append(out if count == i1 - i0 else _zero_extended(out, 0, i1 - i0 - count))
    return outs[0] if len(outs) == 1 else jnp.stack(outs, -1).reshape(a, (i1 - i0) * len(outs))


def _piece(
    e: jax.Array, taps: jax.Array, phases: list[_Phase], stride: int, i0: int, i1: int, dtype
) -> jax.Array:
    """Periods ``i0 .. i1`` from the small zero-padded piece of ``e`` they read."""
    length = e.shape[1]
    spans = [
        (b + stride * i0, b + stride * (min(i1, ph.outputs) - 1) + 1)
        for ph in phases
        for b, _ in ph.reads
        if min(i1, ph.outputs) > i0
    ]
    s0, s1 = (min(v[0] for v in spans), max(v[1] for v in spans)) if spans else (0, 0)
    inside0, inside1 = max(s0, 0), min(s1, length)
    if inside1 > inside0:
        piece = _zero_extended(e[:, inside0:inside1], inside0 - s0, s1 - inside1)
    else:
        piece = jnp.zeros((e.shape[0], s1 - s0), e.dtype)
    local = [
        _Phase(tuple((b + stride * i0 - s0, k) for b, k in ph.reads), max(0, ph.outputs - i0))
        for ph in phases
    ]
    return _interleaved(piece, taps, local, stride, 0, i1 - i0, dtype)


def _zero_extended(e: jax.Array, low: int, high: int) -> jax.Array:
    """``e`` with ``low`` zeros before and ``high`` after, as a concatenation: XLA:CPU
    wrote it faster than ``lax.pad`` and ``jaxpad.pad`` (the forward of upfirdn, float32,
    medians of 15 interleaved rounds: (64, 2^16) up 3 down 2 6.8 against 8.4 and 7.2
    ms, up 1 down 4 3.0 against 3.8 and 3.4, (2^20,) up 2 down 3 2.4 against 2.6 and
    2.5; 2026-12-07)."""
    a = e.shape[0]
    parts = [jnp.zeros((a, low), e.dtype), e, jnp.zeros((a, high), e.dtype)]
    return jnp.concatenate([v for v in parts if v.shape[1]], axis=1)


@functools.lru_cache(maxsize=64)
def block_table(plan: Plan, start: int, periods: int) -> np.ndarray:
    """The outputs ``start + b L + i`` (``i < L = periods P``) of block ``b`` as a
    block-Toeplitz matrix of indices into the zero-padded taps (index ``per_phase * up``:
    a zero): block ``b`` reads the ``k`` input blocks of ``C = periods D`` samples from
    ``e[D (start // P) + b C]``; (k, C, L)."""
    d, p = plan.stride, plan.phases
    zero = plan.per_phase * plan.up
    entries = plan.entries()
    cells = []
    for i in range(periods * p):
        r = (start + i) % p
        first = (start % p + i) // p
        for s, q, k in entries[r]:
            cells.append((d * (first + q) + s, i, k))
    rows = max(c[0] for c in cells) + 1
    c = periods * d
    k_blocks = -(-rows // c)
    table = np.full((k_blocks * c, periods * p), zero)
    for row, col, k in cells:
        table[row, col] = k
    return table.reshape(k_blocks, c, periods * p)


def polyphase(
    e: jax.Array,
    taps: jax.Array,
    plan: Plan,
    lead: int = 0,
    start: int = 0,
    count: int | None = None,
) -> jax.Array:
    """The filter along the last axis, as the primitive of ``_rules``: e (A, length)
    holds the extended signal's samples from ``lead`` on (zeros before and after them),
    taps the zero-padded filter (per_phase * up,); the result is the outputs ``start ..
    start + count`` (default: to the end), (A, count). A ``lead`` lets the transpose in
    the taps read the signal itself, its zeros never written out."""
    count = plan.out_len - start if count is None else count
    return bilinear(e, taps, _rules(plan, Span(lead, e.shape[1], start, count)))


@functools.lru_cache(maxsize=256)
def _rules(plan: Plan, span: Span) -> BilinearRules:
    # One instance per filter: the primitive's rules compare by identity, so that a
    # second trace of the same filter hits the compilation cache.
    return BilinearRules(
        functools.partial(_strided_outputs, plan=plan, span=span),
        functools.partial(_adjoint, plan=plan, span=span),
        functools.partial(_gram, plan=plan, span=span),
    )


def _adjoint_plan(plan: Plan) -> Plan:
    """The adjoint filter's plan: the cotangent upsampled by ``down``, filtered by
    ``[0, reversed taps]`` and downsampled by ``up``; live only where the reversed taps
    may be nonzero (the leading zero and the reversed padding are not multiplied)."""
    padded = plan.per_phase * plan.up
    first, end = plan.live or (0, plan.taps)
    live = (padded - end + 1, padded - first + 1)
    return Plan(plan.out_len, padded + 1, plan.down, plan.up, live)


def _adjoint(ct: jax.Array, taps: jax.Array, *, plan: Plan, span: Span) -> jax.Array:
    """The transpose in the operand: ``de[i] = sum ct[n] taps[n down - (i - left) up]``
    over the outputs ``n`` of the span, the cotangent through the adjoint filter (its
    output ``i + 1`` for sample ``i`` of the extended signal: its taps lead with a zero,
    so that the shift is a whole sample), the same primitive. The products are those of
    the filter's own taps: the leading zero and scipy's zero padding of the filter are
    not multiplied, so that an inf or nan in the cotangent meets exactly the products
    JAX's transpose of the filter's real taps would form."""
    adjoint = _adjoint_plan(plan)
    padded = adjoint.per_phase * adjoint.up
    reversed_taps = jnp.concatenate(
        [jnp.zeros(1, taps.dtype), taps[::-1], jnp.zeros(padded - adjoint.taps, taps.dtype)]
    )
    lead = adjoint.per_phase - 1 + span.start
    return polyphase(ct, reversed_taps, adjoint, lead, 1 + span.lead, span.length)


# Output periods per block of the taps' Gram matrix. Where a block of 8 to 32 periods
# divides the outputs, the cotangent's blocks are a reshape, not a copy: float32 (64,
# 2^16), 32 taps, up 3, down 2, the VJP in h took 9.6 ms with 13 periods (dividing)
# against 18-21 with 8, 12, 16, 24 or 32 (the cotangent's whole blocks copied out);
# at (64, 65535), which none divides, 16 periods 18.0 ms, the others 19.2-19.6
# (interleaved, 2026-12-07).
_GRAM_PERIODS = 16
_GRAM_DIVIDING = range(8, 33)


def _gram_periods(plan: Plan, count: int) -> int:
    if count % plan.phases == 0:
        periods = count // plan.phases
        dividing = [b for b in _GRAM_DIVIDING if periods % b == 0]
        if dividing:
            return min(dividing, key=lambda b: abs(b - _GRAM_PERIODS))
    return _GRAM_PERIODS


@dataclasses.dataclass(frozen=True)
class _GramPlan:
    """The Gram form's static indices for the outputs of a span: ``whole`` blocks of
    ``block`` outputs, each reading a window of ``width`` samples of the extended
    signal from ``first + b * step``; for each tap its entries of the flattened
    (width, block) Gram matrix (``-1``: none); the outputs past the whole blocks, with
    the samples of the extended signal their taps read, the output of each such read
    (``owners``) and each tap's products."""

    whole: int
    block: int
    step: int
    width: int
    first: int
    gram_index: np.ndarray
    positions: np.ndarray
    owners: np.ndarray
    tail_index: np.ndarray


@functools.lru_cache(maxsize=64)
def _gram_plan(plan: Plan, start: int, count: int) -> _GramPlan:
    periods = _gram_periods(plan, count)
    k_blocks, step, block = block_table(plan, start, periods).shape
    table = block_table(plan, start, periods).reshape(k_blocks * step, block)
    taps = plan.per_phase * plan.up
    width = int(np.flatnonzero((table < taps).any(axis=1)).max()) + 1
    table = table[:width]
    whole = count // block
    flat = table.reshape(-1)
    per_tap = [np.flatnonzero(flat == k) if whole else () for k in range(taps)]
    entries = plan.entries()
    positions, owners, tap_of = [], [], []
    for i, n in enumerate(range(start + whole * block, start + count)):
        m, r = divmod(n, plan.phases)
        for s, q, k in entries[r]:
            positions.append(plan.stride * (m + q) + s)
            owners.append(i)
            tap_of.append(k)
    tap_of_array = np.asarray(tap_of, np.int64)
    tail_index = _padded([np.flatnonzero(tap_of_array == k) for k in range(taps)])
    first = plan.stride * (start // plan.phases)
    return _GramPlan(
        whole, block, step, width, first, _padded(per_tap), np.asarray(positions, np.int64),
        np.asarray(owners, np.int64), tail_index,
    )  # fmt: skip


def _padded(lists) -> np.ndarray:
    """Index lists as one (len(lists), longest) array, ``-1`` past each list's end."""
    width = max([len(v) for v in lists] + [1])
    out = np.full((len(lists), width), -1, np.int32)
    for i, v in enumerate(lists):
        out[i, : len(v)] = v
    return out


def _gathered_sum(values: jax.Array, index: np.ndarray) -> jax.Array:
    """``sum_j values[index[:, j]]`` per row of ``index`` (``-1``: nothing): a gather,
    so that a non-finite entry reaches only the taps whose products it is."""
    padded = jnp.concatenate([values, jnp.zeros(1, values.dtype)])
    return padded[np.where(index < 0, values.shape[0], index)].sum(-1)


def _gram(e: jax.Array, ct: jax.Array, *, plan: Plan, span: Span) -> jax.Array:
    """The transpose in the taps: ``dtaps[k] = sum ct[n] e[idx(n, k)]``. The whole
    blocks of outputs as one matrix product of the windows of the extended signal they
    read (``_GramPlan``) with the cotangent's blocks, each tap the sum of its entries;
    the outputs past the last whole block (fewer than a block) by their own products.
    Every sum holds only products of an output and a sample it reads: a zero cotangent
    never meets an inf of ``e``."""
    a, length = e.shape
    gp = _gram_plan(plan, span.start, span.count)
    wide = jnp.promote_types(e.dtype, jnp.float32)
    dtaps = jnp.zeros(gp.gram_index.shape[0], wide)
    zero = jnp.zeros((), e.dtype)
    if gp.whole:
        # The windows' columns as strided views of e padded (the extension's zeros and
        # each column's shift in one pad), written in one pass over e.
        pieces = []
        for offset in range(0, gp.width, gp.step):
            begin = gp.first + offset - span.lead
            shifted = lax.pad(
                e, zero, ((0, 0, 0), (-begin, gp.whole * gp.step + begin - length, 0))
            )
            piece = shifted.reshape(a, gp.whole, gp.step)
            pieces.append(piece[:, :, : min(gp.step, gp.width - offset)])
        windows = jnp.concatenate(pieces, axis=-1).reshape(a * gp.whole, gp.width)
        ct_blocks = ct[:, : gp.whole * gp.block].reshape(a * gp.whole, gp.block)
        gram = lax.dot_general(
            windows, ct_blocks, (((0,), (0,)), ((), ())),
            precision=lax.Precision.HIGHEST, preferred_element_type=wide,
        )  # fmt: skip
        dtaps = dtaps + _gathered_sum(gram.reshape(-1), gp.gram_index)
    if gp.positions.size:
        tail = ct[:, gp.whole * gp.block :].astype(wide)
        index = gp.positions - span.lead
        inside = (index >= 0) & (index < length)
        read = jnp.take(e, np.where(inside, index, 0), axis=1)
        read = jnp.where(inside, read, zero).astype(wide)
        products = (read * tail[:, gp.owners]).sum(0)
        dtaps = dtaps + _gathered_sum(products.reshape(-1), gp.tail_index)
    return dtaps.astype(e.dtype)
