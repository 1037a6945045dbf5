"""The plans (NumPy only): which global source rows each output block reads, and the
slabs that bring them from the other devices, for static pads (``plan_exchange``) and for
pads by a traced offset within a bound (``plan_dynamic_exchange``)."""

from __future__ import annotations

import dataclasses

import numpy as np

from jaxpad._index_maps import source_index


def axis_sources(mode: str, n: int, size: int, lo: int, interior: int = 0) -> np.ndarray:
    """Source index of each output position of one padded axis; -1 where the output
    holds the pad value (constant mode)."""
    offsets = np.arange(size) - lo
    if mode == "constant":
        step = interior + 1
        source = offsets // step
        inside = (offsets >= 0) & (offsets % step == 0) & (source < n)
        return np.where(inside, source, -1)
    return np.asarray(source_index(mode, n, offsets)).astype(np.int64)


@dataclasses.dataclass(frozen=True)
class Slab:
    """Rows sent ``offset`` devices back along the mesh axis (device ``k`` sends to
    ``(k - offset) % devices``): ``length`` rows from ``starts[k]`` of ``k``'s block."""

    offset: int
    length: int
    starts: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]


@dataclasses.dataclass(frozen=True)
class AxisExchange:
    """Each device's output block along one axis split over ``devices`` devices.

    ``rows[j]``: for each of block ``j``'s output rows, its row in the concatenation of
    ``j``'s own input block and the slabs it receives (in ``slabs`` order). ``valid``:
    False where the row holds the pad value or is one of XLA's padding rows past the
    axis's end. ``run_starts``: when every block reads a
    contiguous run of that concatenation, where each run starts (else None).
    """

    devices: int
    in_block: int
    out_block: int
    slabs: tuple[Slab, ...]
    rows: tuple[tuple[int, ...], ...]
    valid: tuple[tuple[bool, ...], ...] | None
    run_starts: tuple[int, ...] | None

    @property
    def received_rows(self) -> int:
        return sum(slab.length for slab in self.slabs)


def plan_slabs(block_sources, in_block: int, devices: int):
    """The slabs that bring each block the source rows it may read.

    ``block_sources[j]``: the global source rows output block ``j`` may read. Returns
    the slabs and, per offset, where its slab starts in the concatenation of a
    device's own block and the slabs it receives.
    """
    # The range of each source block's rows (local indices) each output block reads.
    need: dict[tuple[int, int], tuple[int, int]] = {}
    for j, src in enumerate(block_sources):
        src = np.asarray(src)
        src = src[src >= 0]
        for k in np.unique(src // in_block):
            local = src[src // in_block == k] - k * in_block
            need[(j, int(k))] = (int(local.min()), int(local.max()) + 1)
    by_offset: dict[int, list[tuple[int, int]]] = {}
    for j, k in need:
        if j != k:
            by_offset.setdefault((k - j) % devices, []).append((j, k))
    slabs, base = [], {}
    position = in_block
    for offset in sorted(by_offset):
        pairs = sorted(by_offset[offset], key=lambda p: p[1])
        length = max(need[p][1] - need[p][0] for p in pairs)
        starts = [0] * devices
        for j, k in pairs:
            starts[k] = min(need[(j, k)][0], in_block - length)
        slabs.append(Slab(offset, length, tuple(starts), tuple((k, j) for j, k in pairs)))
        base[offset] = position
        position += length
    return tuple(slabs), base, position


def plan_exchange(sources: np.ndarray, n: int, devices: int) -> AxisExchange:
    """The exchange that gives each of ``devices`` output blocks its rows.

    ``sources``: the global source row of each output position (-1: pad value). Input
    and output blocks are XLA's tiles: ``ceil(size / devices)`` rows each.
    """
    size = len(sources)
    in_block, out_block = -(-n // devices), -(-size // devices)
    blocks = [sources[j * out_block : (j + 1) * out_block] for j in range(devices)]
    slabs, base, position = plan_slabs(blocks, in_block, devices)
    rows = np.zeros((devices, out_block), np.int64)
    valid = np.ones((devices, out_block), bool)
    real = np.zeros((devices, out_block), bool)
    starts_of = {slab.offset: slab.starts for slab in slabs}
    for j in range(devices):
        for t in range(out_block):
            p = j * out_block + t
            if p >= size:
                # XLA's padding rows past the end: masked, so that the fold never
                # adds what the cotangent holds there.
                valid[j, t] = False
                continue
            real[j, t] = True
            src = int(sources[p])
            if src < 0:
                valid[j, t] = False
                continue
            k, local = divmod(src, in_block)
            if k == j:
                rows[j, t] = local
            else:
                offset = (k - j) % devices
                rows[j, t] = base[offset] + local - starts_of[offset][k]
    return AxisExchange(
        devices,
        in_block,
        out_block,
        slabs,
        tuple(map(tuple, rows.tolist())),
        None if valid.all() else tuple(map(tuple, valid.tolist())),
        _run_starts(rows, real & valid, position),
    )


def _run_starts(rows, used, length):
    """Where each block's contiguous run starts, if every block reads one that fits."""
    starts = []
    for row, mask in zip(rows, used):
        t = np.flatnonzero(mask)
        start = int(row[t[0]] - t[0]) if len(t) else 0
        if len(t) and not np.array_equal(row[t], start + t):
            return None
        start = min(max(start, 0), max(length - len(row), 0))
        if len(t) and not np.array_equal(row[t], start + t):
            return None
        starts.append(start)
    if length < len(rows[0]):
        return None
    return tuple(starts)


# dynamic_pad's offsets are known only at run time. Along a split axis with a static
# bound B on |pads_begin| (dynamic_pad's max_pad), each block may read the rows within
# B of its window: the slabs are planned for every offset in [-B, B] at once and the
# rows are picked at run time. Offsets past the bound (and axes with no bound) read
# the whole axis, gathered (a branch taken at run time only when they occur).


@dataclasses.dataclass(frozen=True)
class DynamicExchange:
    """The exchange of one split axis padded by a traced offset, bounded by ``bound``
    (None: no bound, the axis is gathered). ``base[offset]``: where the slab of that
    offset starts in the concatenation of a block and its slabs (-1: no such slab);
    ``starts[offset][k]``: the row of block ``k`` the slab starts at."""

    mode: str
    n: int
    size: int
    devices: int
    in_block: int
    out_block: int
    bound: int | None
    slabs: tuple[Slab, ...]
    base: tuple[int, ...]
    starts: tuple[tuple[int, ...], ...]


def _window_sources(mode, n, first, stop):
    """Source rows of offsets ``[first, stop)``, -1 outside x in constant mode."""
    offsets = np.arange(first, stop)
    if mode == "constant":
        return np.where((offsets >= 0) & (offsets < n), offsets, -1)
    return np.asarray(source_index(mode, n, offsets)).astype(np.int64)


def plan_dynamic_exchange(mode, n, size, bound, devices, center=0) -> DynamicExchange:
    """The slabs for every offset in ``[center - bound, center + bound]`` (``bound``
    None: none, the axis is gathered)."""
    in_block, out_block = -(-n // devices), -(-size // devices)
    slabs: tuple[Slab, ...] = ()
    base: dict[int, int] = {}
    if bound is not None:
        blocks = []
        for j in range(devices):
            stop = min((j + 1) * out_block, size)
            if stop <= j * out_block:
                blocks.append(np.zeros((0,), np.int64))
                continue
            # Every offset in [-bound, bound] at once: a contiguous window of offsets.
            first = j * out_block - center - bound
            blocks.append(_window_sources(mode, n, first, stop - center + bound))
        slabs, base, _ = plan_slabs(blocks, in_block, devices)
    starts_of = {slab.offset: slab.starts for slab in slabs}
    return DynamicExchange(
        mode,
        n,
        size,
        devices,
        in_block,
        out_block,
        bound,
        slabs,
        tuple(base.get(offset, -1) for offset in range(devices)),
        tuple(starts_of.get(offset, (0,) * devices) for offset in range(devices)),
    )


# Blocks of at most this many rows in all read through a static table of rows; longer
# ones compute their rows in the program (as the single-device lowering's long axes),
# so that neither the program nor the planning grows with the axis.
_MAX_STATIC_ROWS = 1 << 16


def _static_plan(mode, n, size, lo, interior, devices):
    """The exchange of a static pad: a table of rows, or for a long axis the rows
    computed in the program (a ``DynamicExchange`` of bound 0 around ``lo``)."""
    out_block = -(-size // devices)
    if devices * out_block > _MAX_STATIC_ROWS and interior == 0:
        return plan_dynamic_exchange(mode, n, size, 0, devices, center=lo)
    return plan_exchange(axis_sources(mode, n, size, lo, interior), n, devices)
