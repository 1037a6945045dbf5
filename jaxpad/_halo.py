"""``jaxpad.halo_pad``: halo (ghost cell) exchange for domain decomposition in ``shard_map``.

Each device holds one block of a global array. ``halo_pad`` grows the block by the
elements its neighbours hold (``lax.ppermute`` of the halo slabs only) and, on the
blocks at the domain's edge, by what the pad mode supplies there: the result is the
block's window of ``jaxpad.pad`` of the global array. It is written with
``lax.ppermute``, ``jnp.where`` and ``jaxpad.pad``, so its derivatives are theirs:
the transpose of a ppermute is the reverse ppermute, which sends each halo's
cotangent back to the device that owns those elements, where the slice's transpose
adds it in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax
from jax.typing import ArrayLike

from jaxpad import _args, _lowering
from jaxpad._args import PadArgs
from jaxpad._index_maps import ARITHMETIC_MODES, base_mode
from jaxpad._pad import padded
from jaxpad._typing import IntSequence, Modes, PadValue

_FN = "jaxpad.halo_pad"

# One entry per axis of x: the mesh axis (or axes, major to minor) the axis is split over.
AxisNames = Sequence[str | tuple[str, ...] | None]


def halo_pad(
    x: ArrayLike,
    halo_begin: IntSequence,
    halo_end: IntSequence,
    mode: Modes = "constant",
    pad_value: PadValue | None = None,
    *,
    axis_names: AxisNames,
) -> jax.Array:
    """Pads the local block ``x`` with the halo from its neighbours, inside ``shard_map``.

    ``x`` is this device's block of a global array split along the axes named in
    ``axis_names``. The result is this block's window of ``jaxpad.pad(global,
    halo_begin, halo_end, mode, pad_value)``: along an axis split over a mesh axis,
    the ``halo_begin`` elements before the block come from the previous device's block
    and the ``halo_end`` elements after it from the next one's (``lax.ppermute`` of
    those slabs, and nothing else). On the blocks at the domain's edge the mode fills
    them: ``"wrap"`` takes them from the block at the other end of the mesh axis;
    every other mode computes them from the edge block itself (``"reflect"`` and
    ``"reflect_odd"`` with a halo as wide as the block also read the neighbour's
    first or last element, which comes along with the opposite halo when there is
    one). Axes with no mesh axis are padded locally as ``jaxpad.pad``
    does. Several split axes are exchanged one after the other, so the corners of a
    2-D halo come from the diagonal neighbours.

    Derivatives of any order and ``vmap`` work: the VJP sends each halo's cotangent
    back to the block it came from (the reverse ``ppermute``) and adds it there.
    A ``jax.vmap`` with ``axis_name`` can stand in for the mesh axis.

    Args:
      x: the local block; any numeric dtype or bool.
      halo_begin: one non-negative int per axis of ``x``: halo before the block. Along
        an axis split over more than one device it must not exceed the block's size
        on that axis: halos come from the nearest neighbour only (one hop), and a
        wider one raises ``ValueError``. Elsewhere any width works.
      halo_end: one non-negative int per axis of ``x``: halo after the block, with
        the same limit.
      mode: the global array's boundary condition, as in ``jaxpad.pad``: one mode
        for every side, or one entry per axis, each a mode or a ``(begin, end)``
        pair (a Dirichlet wall along a split axis, say).
      pad_value: as in ``jaxpad.pad``: read by ``"constant"`` and ``"dirichlet"``
        sides; a scalar or an ``(x.ndim, 2)`` array of per-side values.
      axis_names: one entry per axis of ``x``: the name of the mesh axis that axis is
        split over, a tuple of names for an axis split over several mesh axes (major
        to minor, as in a ``PartitionSpec``), or ``None`` for an axis that is not
        split. Each mesh axis may appear once.

    Returns:
      The block with its halo, of shape ``halo_begin + x.shape + halo_end``.

    Example:
      >>> import jax, jax.numpy as jnp
      >>> from jaxpad import halo_pad
      >>> blocks = jnp.arange(8.0).reshape(4, 2)  # 4 blocks of a periodic domain
      >>> jax.vmap(
      ...     lambda b: halo_pad(b, [1], [1], "wrap", axis_names=["i"]), axis_name="i"
      ... )(blocks)
      Array([[7., 0., 1., 2.],
             [1., 2., 3., 4.],
             [3., 4., 5., 6.],
             [5., 6., 7., 0.]], dtype=float32)
    """
    x = jnp.asarray(x)
    args = _args.halo_args(_FN, x, halo_begin, halo_end, mode, pad_value, axis_names)
    return halo_padded(x, args)


def halo_padded(x: jax.Array, args: PadArgs) -> jax.Array:
    """``x`` grown by the halos ``args`` describes (``_args.halo_args`` built it)."""
    names = args.axis_names
    assert names is not None  # halo_args names every axis's mesh axes
    out = _halo_scalars(x, args, names)
    if not args.face_values:
        return out
    return _add_faces(out, args, names)


def _halo_scalars(x: jax.Array, args: PadArgs, names) -> jax.Array:
    halo_begin, halo_end, mode, value = args.pads_begin, args.pads_end, args.mode, args.value
    pairs = args.sides
    sizes = {axis: _mesh_axis_size(axis, name) for axis, name in enumerate(names) if name}
    for axis, size in sizes.items():
        for arg, widths in (("halo_begin", halo_begin), ("halo_end", halo_end)):
            if size > 1 and widths[axis] > x.shape[axis]:
                raise ValueError(
                    f"{_FN}: {arg}[{axis}]={widths[axis]} is wider than the local block "
                    f"(x.shape[{axis}]={x.shape[axis]}); halos reach one neighbour only."
                )
    if any(side in ARITHMETIC_MODES for pair in pairs for side in pair):
        # The arithmetic modes' corners depend on the order of the axes (jaxpad.pad
        # pads axis 0 first): every axis in order, split or not.
        for axis in range(x.ndim):
            if not (halo_begin[axis] or halo_end[axis]):
                continue
            if axis in sizes:
                x = _exchange(
                    x,
                    axis,
                    halo_begin[axis],
                    halo_end[axis],
                    pairs,
                    value,
                    names[axis],
                    sizes[axis],
                )
            else:
                x = _local_pad(x, axis, halo_begin[axis], halo_end[axis], pairs, value)
        return x
    # Split axes first: their slabs then carry no local-axis halo, and the second
    # exchange carries the first one's halo, which fills the corners.
    for axis, size in sizes.items():
        if halo_begin[axis] or halo_end[axis]:
            x = _exchange(
                x, axis, halo_begin[axis], halo_end[axis], pairs, value, names[axis], size
            )
    local_begin = [0 if axis in sizes else b for axis, b in enumerate(halo_begin)]
    local_end = [0 if axis in sizes else e for axis, e in enumerate(halo_end)]
    if any(local_begin) or any(local_end):
        x = padded(x, _args.derived(args.fn_name, x, local_begin, local_end, mode, value))
    return x


def _add_faces(out, args: PadArgs, names):
    """``out`` plus the face arrays' term (``_lowering.add_faces``) of this block: extended
    and carried by halos of their own, and only on the blocks at the face's edge of the
    domain."""
    x_shape, halo_begin, halo_end, pairs = args.in_shape, args.pads_begin, args.pads_end, args.sides
    faces = args.face_values
    ndim = len(x_shape)
    out_shape = tuple(lo + n + hi for lo, n, hi in zip(halo_begin, x_shape, halo_end))
    padded_axes = [a for a in range(ndim) if halo_begin[a] or halo_end[a]]

    def halo(y, axis, mode):
        begin, end = _on(axis, halo_begin[axis], ndim), _on(axis, halo_end[axis], ndim)
        return halo_padded(y, _args.derived_halo(args, y, begin, end, mode))

    band, add = _lowering.face_bands(pairs, x_shape, out_shape, halo_begin)

    def weigh(y, axis, side):
        term = band(y, axis, side)
        if term is None or names[axis] is None:
            return term
        name = names[axis] if len(names[axis]) > 1 else names[axis][0]
        edge = 0 if side == 0 else _mesh_axis_size(axis, names[axis]) - 1
        return jnp.where(lax.axis_index(name) == edge, term, jnp.zeros_like(term))

    return _lowering.add_faces(
        out,
        faces,
        padded_axes,
        lambda y, axis: halo(y, axis, "edge"),
        weigh,
        lambda y, axis: halo(y, axis, pairs),
        add,
    )


def _local_pad(x, axis, begin, end, pairs, pad_value) -> jax.Array:
    """``x`` padded along ``axis`` alone, in that axis's modes (negative crops)."""
    mode = tuple(pair if k == axis else ("constant", "constant") for k, pair in enumerate(pairs))
    begins, ends = _on(axis, begin, x.ndim), _on(axis, end, x.ndim)
    return padded(x, _args.derived(_FN, x, begins, ends, mode, pad_value))


def _mesh_axis_size(axis: int, names: tuple[str, ...]) -> int:
    size = 1
    for name in names:
        try:
            size *= lax.axis_size(name)
        except NameError:
            raise ValueError(
                f"{_FN}: axis_names[{axis}] names mesh axis {name!r}, which is not bound "
                "here; call halo_pad inside jax.shard_map over a mesh with that axis (or "
                "a jax.vmap with that axis_name)."
            ) from None
    return size


def _exchange(x, axis, begin, end, pairs, pad_value, names, size) -> jax.Array:
    """The block grown along ``axis``, which is split over mesh axes ``names``."""
    if size == 1:
        # The block is the whole domain along this axis.
        return _local_pad(x, axis, begin, end, pairs, pad_value)
    name = names if len(names) > 1 else names[0]
    index = lax.axis_index(name)
    length = x.shape[axis]
    mode_begin, mode_end = pairs[axis]
    # Non-wrap sides overwrite what the edge blocks receive, so under shard_map nothing
    # is sent across the domain's edge. vmap's ppermute takes only whole permutations.
    cyclic = "wrap" in (mode_begin, mode_end) or not set(names) <= set(_manual_axes())

    def shift(slab, step):
        """``slab`` of block ``j`` arrives at block ``j + step``."""
        pairs_ = [(j, j + step) for j in range(size)]
        if cyclic:
            pairs_ = [(j, k % size) for j, k in pairs_]
        return lax.ppermute(slab, name, [(j, k) for j, k in pairs_ if 0 <= k < size])

    def part(start, stop):
        return lax.slice_in_dim(x, start, stop, axis=axis)

    # The previous block's last elements, the next block's first.
    before: Any = shift(part(length - begin, length), 1) if begin else None
    after: Any = shift(part(0, end), -1) if end else None
    # On the blocks at the domain's edge the mode supplies the halo from the block
    # itself; reflect's mirror of a halo as wide as the block also reaches the
    # neighbour's nearest element, which the opposite halo brings if there is one.
    parts = [x]
    if begin:
        if mode_begin == "wrap":
            parts.insert(0, before)
        else:
            source = x
            if base_mode(mode_begin) == "reflect" and begin == length:
                nearest = after if end else shift(part(0, 1), -1)
                source = jnp.concatenate([x, lax.slice_in_dim(nearest, 0, 1, axis=axis)], axis)
            # A pad that crops all of its source leaves the mode's elements before it.
            outside = _local_pad(source, axis, begin, -source.shape[axis], pairs, pad_value)
            parts.insert(0, jnp.where(index == 0, outside, before))
    if end:
        if mode_end == "wrap":
            parts.append(after)
        else:
            source = x
            if base_mode(mode_end) == "reflect" and end == length:
                nearest = before if begin else shift(part(length - 1, length), 1)
                n = nearest.shape[axis]
                source = jnp.concatenate([lax.slice_in_dim(nearest, n - 1, n, axis=axis), x], axis)
            outside = _local_pad(source, axis, -source.shape[axis], end, pairs, pad_value)
            parts.append(jnp.where(index == size - 1, outside, after))
    return jnp.concatenate(parts, axis)


def _manual_axes() -> frozenset:
    """The mesh axes of the enclosing shard_map; read defensively, as a JAX release that
    renames the field only costs the edge blocks an unused slab."""
    mesh = jax.sharding.get_abstract_mesh()
    return frozenset(getattr(mesh, "manual_axes", ()) or ())


def _on(axis: int, width: int, ndim: int) -> list[int]:
    widths = [0] * ndim
    widths[axis] = width
    return widths
