"""``jaxpad_resize``: one resize call's passes as one primitive.

``jaxpad.image.resize`` and ``jaxpad.nn.interpolate`` plan a static table per resized
axis (``_tables``) and run them as ``jaxpad_interpolation_pass``-es; this primitive
wraps that whole plan, so that an exporter sees one resize rather than its passes: where
the call's options are exactly an ONNX ``Resize`` node's, the caller attaches that node's
description (``OnnxResize``) and ``jaxpad.onnx`` writes the one node. It lowers to the
passes' own arithmetic (``_lowered``: two shrinking passes with few taps run piece by
piece, so that they fuse), is linear in the image and the constant that ``idx == -1``
reads jointly, transposes to a resize of the transposed tables (or, where a table reads
the constant, to the passes' transposes through ``jax.linear_transpose``), and batches
with the batch as one more axis that no table touches.
"""

from __future__ import annotations

import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import jet
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir, xla

from jaxpad._sampling import _tables
from jaxpad._sampling._pass import _Table, concatenated, pass_order


@dataclasses.dataclass(frozen=True)
class OnnxResize:
    """An ONNX ``Resize`` node (opset 18 and 19) that computes a plan: the attributes of
    that name, the resized ``axes`` (the plan's, in increasing order) with their output
    ``sizes`` or coordinate ``scales`` (one of the two) and, for ``tf_crop_and_resize``,
    their ``roi`` (the starts, then the ends). The other axes keep their size and
    coordinates."""

    mode: str
    coordinate_transformation_mode: str
    axes: tuple[int, ...]
    sizes: tuple[int, ...] | None = None
    scales: tuple[float, ...] | None = None
    roi: tuple[float, ...] | None = None
    nearest_mode: str = "round_prefer_floor"
    cubic_coeff_a: float = -0.75
    exclude_outside: bool = False
    antialias: bool = False
    extrapolation_value: float = 0.0

    def with_axis_at(self, dim: int) -> OnnxResize:
        """The node of the same resize of an array with a new axis at ``dim``."""
        return dataclasses.replace(self, axes=tuple(a + (dim <= a) for a in self.axes))

    def attributes(self) -> dict:
        """The node's attributes (ONNX's defaults left out)."""
        attrs: dict = {
            "mode": self.mode,
            "coordinate_transformation_mode": self.coordinate_transformation_mode,
        }
        if self.mode == "nearest":
            attrs["nearest_mode"] = self.nearest_mode
        else:
            attrs["antialias"] = int(self.antialias)
            attrs["exclude_outside"] = int(self.exclude_outside)
        if self.mode == "cubic":
            attrs["cubic_coeff_a"] = float(self.cubic_coeff_a)
        if self.coordinate_transformation_mode == "tf_crop_and_resize":
            attrs["extrapolation_value"] = float(self.extrapolation_value)
        return attrs

    def inputs(self, shape: tuple) -> tuple:
        """The node's ``roi``, ``scales`` and ``sizes`` inputs (float32, float32 and
        int64; None where the node has none) and its ``axes`` attribute, for an input of
        ``shape``: over every axis (``axes`` None, for the runtimes that lack it) where
        ``shape`` is concrete, else over ``axes`` (the others symbolic, say a batch)."""
        concrete = all(isinstance(n, (int, np.integer)) for n in shape)
        rank = len(shape) if concrete else len(self.axes)
        where = self.axes if concrete else tuple(range(rank))
        roi = None
        if self.roi is not None:
            full = [0.0] * rank + [1.0] * rank
            for i, d in enumerate(where):
                full[d], full[rank + d] = self.roi[i], self.roi[len(self.axes) + i]
            roi = np.asarray(full, np.float32)
        axes = None if concrete else self.axes
        if self.scales is not None:
            scales = [1.0] * rank
            for d, s in zip(where, self.scales):
                scales[d] = s
            return roi, np.asarray(scales, np.float32), None, axes
        sizes = list(shape) if concrete else [0] * rank
        for d, n in zip(where, self.sizes or ()):
            sizes[d] = n
        return roi, None, np.asarray(sizes, np.int64), axes


def ordered(tables: dict[int, _tables.Table], shape: tuple[int, ...]) -> tuple:
    """``tables`` (axis: table) of an array of ``shape`` as a plan, in
    ``_pass.pass_order``'s order."""
    out_shape = list(shape)
    for axis, table in tables.items():
        out_shape[axis] = table.idx.shape[0]
    order = pass_order(shape, tuple(out_shape), tables)
    minor = len(shape) - 1
    if len(order) == 2 and minor in order and all(_fuses(tables[a], shape[a]) for a in order):
        # two passes that fuse (``_lowered``): the minor axis's first, measured on the
        # antialiased bilinear halving of (8, 64, 256, 256) NCHW at 0.53 -> 0.43x torch's
        # time (level for area and plain bilinear) (``benchmarks/resize.py``, 2026-12-07)
        order = [minor] + [a for a in order if a != minor]
    elif minor in order and _doubles(tables[minor], shape[minor]):
        order = [a for a in order if a != minor] + [minor]
    return tuple((a, tables[a]) for a in order)


# A doubling along the minor axis with at most two taps (bilinear and nearest x2) runs
# last, where its pieces are placed in the output by a select (``_lowered``), rather
# than first with its pieces concatenated unfused: bilinear x2 of (8, 64, 128, 128) 0.86x
# the time with the widest vectors and with AVX2, (16, 32, 96, 160) 0.83-0.93x, its
# forward and backward 0.90-0.95x; nearest, trilinear, align_corners and small shapes
# 0.90-1.04x (interleaved, 2026-12-07). Enlargings by other factors or with more taps
# were mixed or slower so (x3 1.10-1.21x, bicubic x2 1.10-1.29x).
def _doubles(table: _tables.Table, n_in: int) -> bool:
    """Whether a pass of ``table`` doubles its axis with at most two taps."""
    n_out, taps = table.idx.shape
    return n_out == 2 * n_in and taps <= 2


def _fuses(table: _tables.Table, n_in: int, after: _tables.Table | None = None) -> bool:
    """Whether a pass of ``table`` (from ``n_in``) shrinks and has few enough taps to
    run fused after a pass of ``after`` (by itself: ``_FUSED_TAPS`` taps squared)."""
    n_out, taps = table.idx.shape
    other = taps if after is None else after.idx.shape[1]
    return n_out < n_in and taps * other <= _FUSED_TAPS


def passes(x, cval, *, plan, onnx=None):
    """The passes of ``plan`` (``(axis, table)`` pairs, in order) on ``x``."""
    del onnx
    for axis, table in plan:
        x = _tables.apply(x, axis, table, cval)
    return x


def _abstract_eval(x, cval, *, plan, onnx):
    del cval, onnx
    shape = list(x.shape)
    for axis, table in plan:
        shape[axis] = table.idx.shape[0]
    return x.update(shape=tuple(shape))


def _spec(v):
    aval = v.aval if ad.is_undefined_primal(v) else jax.typeof(v)
    return jax.ShapeDtypeStruct(aval.shape, aval.dtype)


def _transpose(ct, x, cval, *, plan, onnx):
    """The passes' transposes (``jaxpad_interpolation_pass`` of the transposed tables,
    in reverse order) for each operand that is a linear input; the other operand, a
    constant in the linear program (an instantiated zero tangent), held at zero."""
    del onnx
    linear = [ad.is_undefined_primal(v) for v in (x, cval)]
    specs = [_spec(x), _spec(cval)]
    if type(ct) is ad.Zero:
        return tuple(ad.Zero(s.aval) if u else None for u, s in zip(linear, (x, cval)))
    if not any((table.idx == -1).any() for _, table in plan):
        # cval is read nowhere: the image's transpose is a resize of the transposed
        # tables, lowered as the forward is (its shrinking passes fuse, _lowered)
        if not linear[0]:
            return (None, ad.Zero(cval.aval))
        shape = specs[0].shape
        tables = {axis: _transposed(table, shape[axis]) for axis, table in plan}
        ct_x = resize_p.bind(ct, jnp.zeros((), ct.dtype), plan=ordered(tables, ct.shape), onnx=None)
        return (ct_x, ad.Zero(cval.aval) if linear[1] else None)

    def f(*args):
        it = iter(args)
        ops = [next(it) if u else jnp.zeros(s.shape, s.dtype) for u, s in zip(linear, specs)]
        return passes(*ops, plan=plan)

    cts = iter(jax.linear_transpose(f, *[s for u, s in zip(linear, specs) if u])(ct))
    return tuple(next(cts) if u else None for u in linear)


def _transposed(table: _tables.Table, n_in: int) -> _tables.Table:
    """The table of a pass's transpose onto ``n_in`` inputs, as the pass's own
    transpose builds it (``_pass._Table.transposed``)."""
    present = None if table.present.all() else table.present
    t = _Table(table.idx, table.w, present).transposed(n_in)
    assert t.present is not None  # a transposed table marks its padding
    return _tables.Table(t.idx, t.w, t.present)


def _batch(args, dims, *, plan, onnx):
    (x, cval), (bx, bc) = args, dims
    if bc is not None:  # a traced constant per batch element: the passes
        x = batching.bdim_at_front(x, bx, cval.shape[bc])
        out = jax.vmap(functools.partial(passes, plan=plan), in_axes=(0, bc))(x, cval)
        return out, 0
    moved = tuple((axis + (bx <= axis), table) for axis, table in plan)
    described = None if onnx is None else onnx.with_axis_at(bx)
    return resize_p.bind(x, cval, plan=moved, onnx=described), bx


# Two shrinking passes run piece by piece (fused, the first pass's values recomputed
# for each tap of the second) while their taps multiply to at most this. Measured on
# the halvings of (8, 64, 256, 256) NCHW, torch's time: antialiased bilinear (4 x 4
# taps) 0.57-0.59 -> 0.45-0.51x, area (2 x 2) level at 0.24x; antialiased bicubic (8 x
# 8) 0.57 -> 0.65-0.67x, and the enlargings slower (bilinear x2 1.25 -> 1.66x)
# (``benchmarks/resize.py``, ``--rules`` on both ISAs: the bilinear halving unfused
# 1.4-1.5x slower, 2026-12-07).
_FUSED_TAPS = 16


def _lowered(x, cval, *, plan, onnx=None):
    """``passes`` as one program. Where the next pass shrinks its axis and the two
    passes' taps are few (``_FUSED_TAPS``), it runs on each piece of this one
    (``_tables.pieces``: the segments in which its taps read one run) and the pieces are
    concatenated after it, so that each piece's two passes fuse: concatenated first,
    the intermediate was written out whole (the antialiased bilinear halving of (8, 64,
    256, 256) took 48-51 ms so, 16 ms for its interior alone)."""
    del onnx
    if not plan:
        return x
    (axis, table), rest = plan[0], plan[1:]
    pieces = _tables.pieces(x, axis, table, cval)
    if rest and not _fuses(rest[0][1], x.shape[rest[0][0]], after=table):
        pieces = [concatenated(pieces, axis)]
    # The last pass's pieces along the minor axis are placed by a select: XLA:CPU left
    # their concatenation unfused at large sizes (the interior written out, then copied
    # into the output). The antialiased bicubic halving of (8, 64, 256, 256) 51-52 ->
    # 42 ms; everywhere else the select measured level, and slower before a further
    # pass (bilinear x2, whose minor pass is first, 72 -> 97 ms, 97-101 with an
    # optimization barrier before the next pass) or along other axes (image.resize
    # 50 -> 122-129 ms) (benchmarks/resize.py and interleaved runs, 2026-12-07).
    placed = not rest and axis == x.ndim - 1
    return concatenated([_lowered(piece, cval, plan=rest) for piece in pieces], axis, placed)


resize_p = Primitive("jaxpad_resize")
# Eager calls compile the plan once per shape (as jit would), not pass by pass.
resize_p.def_impl(functools.partial(xla.apply_primitive, resize_p))
resize_p.def_abstract_eval(_abstract_eval)
ad.deflinear2(resize_p, _transpose)
batching.primitive_batchers[resize_p] = _batch
jet.deflinear(resize_p)
mlir.register_lowering(resize_p, mlir.lower_fun(_lowered, multiple_results=False))


def resize(x, plan: tuple[tuple[int, _tables.Table], ...], cval, onnx: OnnxResize | None = None):
    """``x`` through the tables of ``plan`` as one ``jaxpad_resize`` (``cval``: what
    ``idx == -1`` reads; ``onnx``: the ONNX node that computes it, or None). float16 and
    bfloat16 are resampled in float32 and rounded once at the end, as jax.image's einsum
    accumulates (rounding between the passes doubled its error, ``jax.image``'s own
    tests caught)."""
    cval = jnp.asarray(cval)
    if not plan:
        return x
    if x.dtype in (jnp.float16, jnp.bfloat16):
        f32 = jnp.float32
        out = resize_p.bind(x.astype(f32), cval.astype(f32), plan=plan, onnx=onnx)
        return out.astype(x.dtype)
    return resize_p.bind(x, cval.astype(x.dtype), plan=plan, onnx=onnx)
