"""``grid_sample`` and ``affine_grid``: PyTorch's spatial-transformer sampling.

``grid_sample(input, grid)`` reads ``input`` (NCHW or NCDHW, or channels-last) at the
points of ``grid`` (normalized to [-1, 1] over the input's extent), as
``torch.nn.functional.grid_sample`` does, in each of torch's ``mode`` (bilinear,
nearest, bicubic) and ``padding_mode`` (zeros, border, reflection).

How it is computed. Each padding mode is a pad of the input in index space: zeros is
``constant`` (0), border is ``edge``, reflection is ``reflect`` (about the first and
last cell centres) with ``align_corners=True`` and ``symmetric`` (about the input's
edges) without. For bilinear and bicubic a point's taps are ``floor(u) + k`` (``u``
the unnormalized coordinate), each mapped into the input by that pad's index map,
weighted by the tent or by the cubic convolution kernel (a = -0.75) of ``u - floor(u)``.
This equals torch's coordinate arithmetic (which folds the coordinate for bilinear and
each tap for bicubic), and its derivative is that of the function the forward
computes: at and beyond the edge too, in every mode. At a kink (``u`` a whole number:
the slope of the tent changes there, and the pads fold there) the derivative is the
one from above, that of the piece on ``[floor(u), floor(u) + 1)``. Nearest folds the
coordinate as torch does, then rounds half to even (torch's ``nearbyint``), so that
ties land where torch's do.

Periodic coordinates are first reduced modulo the pad's period with ``lax.rem``, which
is exact in floating point, and the others clipped a few cells beyond the edge (where
the value no longer changes), so every index is a small integer: no overflow for
coordinates as large as the dtype holds.

The form (measured in ``benchmarks/grid_sample.py``): per tap one ``lax.gather`` of a
cell (all channels) for every output point, in the input's own layout, weighted and
summed. XLA:CPU fuses these gathers into the sum: no temporary per tap. There an NCHW
input is first moved channels-last (and the output back), each once: a cell's channels
strided by a plane made the gathers 1.5-2x slower than both moves together, 3x with AVX2
only (``_grid_sample_cpu``). One gather of all taps followed by the weighted sum wrote a
temporary of taps x the output (32 MiB at (8, 64, 64, 64), 8,000-10,000 page faults a
call with the default allocator) and took 2.7-5x as long. The input's gradient (the
transpose in the input, ``_input_gradient``) is one scatter-add per tap of the
cotangent's channel rows, channels-last; the grid's (the transpose of
``jaxpad_grid_sample_grid_tangent``) reduces the cotangent against each tap's gathered
cells over the channels. The backward of an NCHW input reads channels-last copies of the
input and the cotangent, each moved once, and the backward's taps are written once a
point (``computed_once``). On XLA:CPU both gradients go over the points a chunk at a
time (``over_chunks``), so that each tap's scaled rows and gathered cells of a chunk are
written and read in cache. ``grid_sample`` is one primitive, ``jaxpad_grid_sample``, so
that ``jaxpad.onnx`` writes it as one ONNX ``GridSample`` node."""

from __future__ import annotations

import itertools
import math
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir, xla
from jax.typing import ArrayLike

from jaxpad import _checks
from jaxpad._chunks import over_chunks
from jaxpad._once import computed_once
from jaxpad._sampling._kernels import A_TORCH, cubic_weights

MODES = ("bilinear", "nearest", "bicubic")
PADDING_MODES = ("zeros", "border", "reflection")

# The backward's chunk of points (``over_chunks``): a tap's rows of a chunk in bytes.
# (8, 64, 64, 64), bilinear reflection, forward and backward (benchmarks/grid_sample.py's
# affine grid, two interleaved runs in one process): one pass 20-26 ms, chunks of
# 1024 points (256 KiB) 12 ms, 2048 (512 KiB) 8-12 ms, 4096 11 ms.
_CHUNK_BYTES = 2**19

_GS = "jaxpad.nn.grid_sample"
_AG = "jaxpad.nn.affine_grid"


# ---------------------------------------------------------------------------------------
# Coordinates, taps and weights (pure functions of the grid; the input is not read).


def _unnormalize(g, size: int, align_corners: bool):
    """torch's CPU kernel's unnormalization (``ComputeLocationBase::unnormalize``)."""
    if align_corners:
        return (g + 1) * ((size - 1) / 2)
    return (g + 1) * (size / 2) - 0.5


def _period(size: int, padding_mode: str, align_corners: bool) -> int:
    """The pad's period in cells (0: none, the coordinate is clipped instead)."""
    if padding_mode != "reflection":
        return 0
    return 2 * (size - 1) if align_corners else 2 * size


def _tap_index(i, size: int, padding_mode: str, align_corners: bool):
    """Integer tap positions ``i`` (small: the coordinate was reduced or clipped) mapped
    into ``[0, size)``, and in zeros mode whether each is on the input (else None)."""
    if padding_mode == "zeros":
        return jnp.clip(i, 0, size - 1), (i >= 0) & (i < size)
    if padding_mode == "border":
        return jnp.clip(i, 0, size - 1), None
    period = _period(size, padding_mode, align_corners)
    if period == 0:  # one cell, align_corners: torch's empty reflection span
        return jnp.zeros_like(i), None
    r = jnp.remainder(i, period)
    return jnp.where(r < size, r, period - 1 - r + (1 if align_corners else 0)), None


def _reduced(u, size: int, padding_mode: str, align_corners: bool, reach: int):
    """``u`` moved by whole periods into ``[0, period]`` (reflection) or clipped to
    ``reach`` cells beyond the edge (zeros, border: the value is constant there), so
    that ``floor`` of it is a small integer. The derivative in ``u`` is kept: 1 (the
    reduction's shift is piecewise constant), 0 where clipped."""
    period = _period(size, padding_mode, align_corners)
    if padding_mode == "reflection":
        if period == 0:
            return u * 0
        r = lax.rem(u, jnp.asarray(period, u.dtype))  # exact in floating point
        return jnp.where(r < 0, r + period, r)
    return jnp.clip(u, -reach - 1, size + reach)


def _once_each(arrays):
    """``arrays`` (one shape and dtype) computed once: stacked through
    ``computed_once``."""
    stacked = computed_once(jnp.stack(arrays))
    return [stacked[k] for k in range(len(arrays))]


def _axis_taps(g, size: int, mode: str, padding_mode: str, align_corners: bool, once=False):
    """Per tap along one axis: its indices (int32, ``g``'s shape), whether it is on
    the input (zeros mode; else None) and its weight (None: 1)."""
    u = _unnormalize(g, size, align_corners)
    if mode == "nearest":
        idx, valid, folded = _nearest_index(u, size, padding_mode, align_corners)
        # A nan (or a reflection of an infinity) reads no cell: its output is nan.
        return [idx], [valid], [jnp.where(jnp.isnan(folded), jnp.nan, 1).astype(u.dtype)]
    reach = 1 if mode == "bilinear" else 2
    r = _reduced(u, size, padding_mode, align_corners, reach)
    # nan reads cell 0; its weights are nan, so the output is nan.
    base = jnp.floor(jnp.where(jnp.isnan(r), 0, r))
    t = r - base
    offsets = np.arange(2) if mode == "bilinear" else np.arange(-1, 3)
    i = base.astype(jnp.int32)
    weights = [1 - t, t] if mode == "bilinear" else cubic_weights(t, A_TORCH)
    indices, valids = [], []
    for offset in offsets:
        idx, valid = _tap_index(i + int(offset), size, padding_mode, align_corners)
        indices.append(idx)
        valids.append(valid)
    if once:
        # The backward's taps written once (a few bytes a point): left to XLA, each
        # was recomputed for every channel of every gathered cell and scaled row
        # (the gathers of (8, 64, 64, 64)'s cells 3.4-6.2 ms each, a plain gather
        # of them 0.3 ms). The forward keeps them fused (3.96 against 5.3 ms).
        indices = _once_each(indices)
        weights = _once_each(weights)
        if valids[0] is not None:
            valids = [v != 0 for v in _once_each([v.astype(jnp.int8) for v in valids])]
    return indices, valids, weights


def _nearest_index(u, size: int, padding_mode: str, align_corners: bool):
    """torch's nearest cell: the coordinate folded as torch folds it (reflect, clip),
    then rounded half to even."""
    if padding_mode == "reflection":
        if align_corners and size == 1:
            u = u * 0
        else:
            low = 0.0 if align_corners else -0.5
            span = 2 * (size - 1) if align_corners else 2 * size
            a = jnp.abs(u - low)
            extra = lax.rem(a, jnp.asarray(span, u.dtype))
            u = jnp.minimum(extra, span - extra) + low
    if padding_mode != "zeros":
        u = jnp.clip(u, 0, size - 1)
    u = jnp.clip(u, -1, size)  # zeros: off the input either way, and a small integer
    r = jnp.round(jnp.where(jnp.isnan(u), 0, u))
    idx = r.astype(jnp.int32)
    if padding_mode == "zeros":
        return jnp.clip(idx, 0, size - 1), (idx >= 0) & (idx < size), u
    # clipped again as an integer: ``size - 1`` rounds up in a narrow grid's dtype
    # (999 is 1000 in bfloat16), where the float clip let the cell past the edge
    # through (XLA:CPU's gather clamped it; the gather promises nothing of the kind,
    # and torch 2.13 reads past the input there)
    return jnp.clip(idx, 0, size - 1), None, u


# ---------------------------------------------------------------------------------------
# The program.


def _grid_sample_impl(x, grid, *, mode, padding_mode, align_corners, channels_last):
    """The plain JAX program: per tap, one gather of a cell of every output point
    (all its channels) in ``x``'s own layout, weighted and summed; XLA fuses the
    gathers into the sum, with no transpose and no temporary per tap."""
    return _gathered(x, grid, mode, padding_mode, align_corners, channels_last)


def _grid_sample_cpu(x, grid, *, mode, padding_mode, align_corners, channels_last):
    """XLA:CPU's program: an NCHW input moved channels-last once, sampled there, and the
    output moved back once. Gathering each cell's channels at a stride of a plane took
    1.8-2.1x torch's bilinear forward at (8, 64, 64, 64) (AVX-512) and 3.5-3.9x with
    ``--xla_cpu_max_isa=AVX2``; moved, 1.12-1.60x and 1.23-1.38x in three runs each (the
    two moves about 1.2 ms each of it). Without ``computed_once`` XLA fused each move
    into every tap's gather (2.4-3.7x). docs/performance.md, "Two x86 CPUs"."""
    if channels_last or x.shape[1] == 1:  # one channel: the layouts are the same
        return _gathered(x, grid, mode, padding_mode, align_corners, channels_last)
    moved = computed_once(jnp.moveaxis(x, 1, -1))
    out = _gathered(moved, grid, mode, padding_mode, align_corners, True)
    return jnp.moveaxis(computed_once(out), -1, 1)


def _gathered(x, grid, mode, padding_mode, align_corners, channels_last):
    d = x.ndim - 2
    spatial_axes = tuple(range(1, d + 1)) if channels_last else tuple(range(2, d + 2))
    c_axis = x.ndim - 1 if channels_last else 1
    spatial = tuple(x.shape[a] for a in spatial_axes)
    batch = lax.broadcasted_iota(jnp.int32, grid.shape[:-1], 0)
    dnums = lax.GatherDimensionNumbers(
        offset_dims=(c_axis,),
        collapsed_slice_dims=(0, *spatial_axes),
        start_index_map=(0, *spatial_axes),
    )
    slice_sizes = tuple(x.shape[c_axis] if a == c_axis else 1 for a in range(x.ndim))
    out = None
    for indices, valid, weight in _taps(grid, spatial, mode, padding_mode, align_corners):
        index = jnp.stack([batch, *indices], axis=-1)
        value = lax.gather(
            x, index, dnums, slice_sizes, mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS
        )
        if valid is not None:  # a tap off the input reads 0, not 0 * its cell
            value = jnp.where(jnp.expand_dims(valid, c_axis), value, 0)
        if weight is not None:
            value = value * jnp.expand_dims(weight.astype(x.dtype), c_axis)
        out = value if out is None else out + value
    return out


def _abstract_eval(x, grid, *, mode, padding_mode, align_corners, channels_last):
    out_spatial = grid.shape[1:-1]
    if channels_last:
        shape = (x.shape[0], *out_spatial, x.shape[-1])
    else:
        shape = (x.shape[0], x.shape[1], *out_spatial)
    return x.update(shape=shape, dtype=x.dtype)


def _taps(grid, spatial, mode, padding_mode, align_corners, once=False):
    """Every tap of every output point: (indices per axis, on-input mask or None,
    weight or None), the indices without the batch's."""
    d = len(spatial)
    axes = [
        # grid[..., 0] is the last spatial axis (x, the width), as in torch.
        _axis_taps(grid[..., d - 1 - axis], spatial[axis], mode, padding_mode, align_corners, once)
        for axis in range(d)
    ]
    for taps in itertools.product(*(range(len(indices)) for indices, _, _ in axes)):
        weight, valid = None, None
        for a, k in enumerate(taps):
            w, v = axes[a][2][k], axes[a][1][k]
            if w is not None:
                weight = w if weight is None else weight * w
            if v is not None:
                valid = v if valid is None else valid & v
        yield [axes[a][0][k] for a, k in enumerate(taps)], valid, weight


def _jvp(primals, tangents, **params):
    """Linear in the input: its tangent is ``grid_sample`` of the input's tangent (whose
    transpose is ``_input_gradient``); the grid's is that of the weights."""
    x, grid = primals
    d_x, d_grid = tangents
    out = grid_sample_p.bind(x, grid, **params)
    tangent = None
    if type(d_x) is not ad.Zero:
        tangent = grid_sample_p.bind(d_x, grid, **params)
    if type(d_grid) is not ad.Zero and params["mode"] != "nearest":
        t = grid_tangent_p.bind(d_grid, x, grid, **params)
        tangent = t if tangent is None else tangent + t
    if tangent is None:  # nearest: the grid's derivative is 0
        return out, jnp.zeros_like(out)
    return out, tangent


def _chunk_points(channels, dtype) -> int | None:
    """Points a chunk of the backward (``over_chunks``): a tap's rows of a chunk,
    ``_CHUNK_BYTES``; None (one pass) for no channels or a symbolic number of them."""
    if not _checks.is_static(channels) or channels == 0:
        return None
    return max(1, _CHUNK_BYTES // (channels * np.dtype(dtype).itemsize))


def _flat_taps(grid, spatial, mode, padding_mode, align_corners):
    """Every tap as ``(index, valid, weight)`` of the points flattened: the index
    ``(points, 1 + d)`` (the batch's first), the others ``(points,)`` or None."""
    points = math.prod(grid.shape[:-1])
    batch = lax.broadcasted_iota(jnp.int32, grid.shape[:-1], 0)
    flat = []
    taps = _taps(grid, spatial, mode, padding_mode, align_corners, once=True)
    for indices, valid, weight in taps:
        index = jnp.stack([batch, *indices], axis=-1).reshape(points, -1)
        flat.append(
            (
                index,
                None if valid is None else valid.reshape(points),
                None if weight is None else weight.reshape(points),
            )
        )
    return flat


def _input_gradient(ct, grid, shape, dtype, *, mode, padding_mode, align_corners, channels_last):
    """The transpose in the input: per tap one scatter-add of the cotangent's rows (all
    channels, contiguous: the cotangent is moved channels-last first) into the input's
    cells, a chunk of points at a time on XLA:CPU (``over_chunks``)."""
    d = len(shape) - 2
    # an NCHW cotangent moved channels-last once (``computed_once``): left to XLA,
    # the transpose was fused into each tap's updates, 4 strided reads of it
    ct = ct if channels_last else computed_once(jnp.moveaxis(ct, 1, -1))  # (N, *out, C)
    shape_cl = tuple(shape) if channels_last else (shape[0], *shape[2:], shape[1])
    channels = shape_cl[-1]
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=(1,),
        inserted_window_dims=tuple(range(d + 1)),
        scatter_dims_to_operand_dims=tuple(range(d + 1)),
    )
    taps = _flat_taps(grid, shape_cl[1:-1], mode, padding_mode, align_corners)

    def step(result, start, ct, *tap_arrays):
        for k in range(0, len(tap_arrays), 3):  # each tap's index, valid and weight
            index, valid, weight = tap_arrays[k : k + 3]
            update = ct
            if weight is not None:
                update = update * weight.astype(dtype)[:, None]
            if valid is not None:
                update = jnp.where(valid[:, None], update, 0)
            result = lax.scatter_add(
                result, index, update, dnums, mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS
            )
        return result

    arrays = [ct.reshape(math.prod(ct.shape[:-1]), channels), *itertools.chain.from_iterable(taps)]
    result = over_chunks(step, jnp.zeros(shape_cl, dtype), arrays, _chunk_points(channels, dtype))
    return result if channels_last else jnp.moveaxis(result, -1, 1)


def _transpose(ct, x, grid, **params):
    if ad.is_undefined_primal(grid):
        raise ValueError("jaxpad_grid_sample: linear in the input only, not in the grid.")
    if type(ct) is ad.Zero:
        return None, None
    aval = x.aval
    return _input_gradient(ct, grid, aval.shape, aval.dtype, **params), None


def _batch(args, dims, **params):
    """A mapped input with a shared grid joins the channels; a mapped grid with a
    shared input joins the first output axis; both mapped join the batch."""
    (x, grid), (x_dim, g_dim) = args, dims
    channels_last = params["channels_last"]
    if g_dim is None:
        size = x.shape[x_dim]
        c_axis = x.ndim - 2 if channels_last else 1  # the channels, once unmapped
        x = jnp.moveaxis(x, x_dim, c_axis)  # the mapped axis just before the channels
        merged = x.reshape(*x.shape[:c_axis], -1, *x.shape[c_axis + 2 :])
        out = grid_sample_p.bind(merged, grid, **params)
        o_axis = out.ndim - 1 if channels_last else 1
        out = out.reshape(*out.shape[:o_axis], size, -1, *out.shape[o_axis + 1 :])
        return out, o_axis
    if x_dim is None:
        size = grid.shape[g_dim]
        grid = jnp.moveaxis(grid, g_dim, 1)  # (N, B, *out, k)
        merged = grid.reshape(grid.shape[0], size * grid.shape[2], *grid.shape[3:])
        out = grid_sample_p.bind(x, merged, **params)
        o_axis = 1 if channels_last else 2
        out = out.reshape(*out.shape[:o_axis], size, -1, *out.shape[o_axis + 1 :])
        return out, o_axis
    size = x.shape[x_dim]
    x = jnp.moveaxis(x, x_dim, 0)
    grid = jnp.moveaxis(grid, g_dim, 0)
    out = grid_sample_p.bind(
        x.reshape(-1, *x.shape[2:]), grid.reshape(-1, *grid.shape[2:]), **params
    )
    return out.reshape(size, -1, *out.shape[1:]), 0


grid_sample_p = Primitive("jaxpad_grid_sample")
grid_sample_p.def_impl(partial(xla.apply_primitive, grid_sample_p))
grid_sample_p.def_abstract_eval(_abstract_eval)
ad.primitive_jvps[grid_sample_p] = _jvp
ad.primitive_transposes[grid_sample_p] = _transpose
batching.primitive_batchers[grid_sample_p] = _batch
mlir.register_lowering(grid_sample_p, mlir.lower_fun(_grid_sample_impl, multiple_results=False))
mlir.register_lowering(
    grid_sample_p, mlir.lower_fun(_grid_sample_cpu, multiple_results=False), platform="cpu"
)


# The grid's tangent, ``sum over taps of cell * d weight``, as a primitive linear in the
# grid's tangent, so that its transpose reduces the cotangent against each tap's
# gathered cells over the channels (the gathers fused into the reductions) and then
# pulls the per-tap sums back through the weights. Autodiff of the same expression
# kept the gathered cells of every tap from the forward (taps x the output: 32 MiB at
# (8, 64, 64, 64)): forward and backward 1.35-1.40x torch's CPU time, this form
# 1.23-1.24x (bilinear reflection, bicubic border). An NCHW input and cotangent are
# moved channels-last once for it (``_grid_tangent_transpose``).


def _tap_weights(grid, spatial, mode, padding_mode, align_corners):
    taps = _taps(grid, spatial, mode, padding_mode, align_corners, once=True)
    return [w for _, _, w in taps]


def _spatial(x, channels_last):
    return tuple(x.shape[1:-1]) if channels_last else tuple(x.shape[2:])


def _cells(x, grid, *, mode, padding_mode, align_corners, channels_last):
    """Each tap's cells of every output point (0 off the input in zeros mode)."""
    d = x.ndim - 2
    spatial_axes = tuple(range(1, d + 1)) if channels_last else tuple(range(2, d + 2))
    c_axis = x.ndim - 1 if channels_last else 1
    batch = lax.broadcasted_iota(jnp.int32, grid.shape[:-1], 0)
    dnums = lax.GatherDimensionNumbers(
        offset_dims=(c_axis,),
        collapsed_slice_dims=(0, *spatial_axes),
        start_index_map=(0, *spatial_axes),
    )
    slice_sizes = tuple(x.shape[c_axis] if a == c_axis else 1 for a in range(x.ndim))
    spatial = _spatial(x, channels_last)
    for indices, valid, _ in _taps(grid, spatial, mode, padding_mode, align_corners, once=True):
        index = jnp.stack([batch, *indices], axis=-1)
        value = lax.gather(
            x, index, dnums, slice_sizes, mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS
        )
        if valid is not None:
            value = jnp.where(jnp.expand_dims(valid, c_axis), value, 0)
        yield value


def _grid_tangent_impl(d_grid, x, grid, **params):
    c_axis = x.ndim - 1 if params["channels_last"] else 1
    weights = partial(
        _tap_weights,
        spatial=_spatial(x, params["channels_last"]),
        **{k: params[k] for k in ("mode", "padding_mode", "align_corners")},
    )
    _, d_weights = jax.jvp(weights, (grid,), (d_grid,))
    out = None
    for value, d_w in zip(_cells(x, grid, **params), d_weights):
        term = value * jnp.expand_dims(d_w.astype(x.dtype), c_axis)
        out = term if out is None else out + term
    return out


def _grid_tangent_abstract_eval(d_grid, x, grid, **params):
    return _abstract_eval(x, grid, **params)


def _grid_tangent_jvp(primals, tangents, **params):
    tangents = [ad.instantiate_zeros(t) for t in tangents]
    return jax.jvp(partial(_grid_tangent_impl, **params), primals, tuple(tangents))


def _channel_sums(x, ct, grid, *, mode, padding_mode, align_corners):
    """Per tap, the cotangent times the tap's cells (both channels-last), summed over
    the channels, at every output point: a chunk of points at a time on XLA:CPU
    (``over_chunks``)."""
    d = x.ndim - 2
    channels = x.shape[-1]
    points = math.prod(grid.shape[:-1])
    taps = _flat_taps(grid, x.shape[1:-1], mode, padding_mode, align_corners)
    dnums = lax.GatherDimensionNumbers(
        offset_dims=(1,),
        collapsed_slice_dims=tuple(range(d + 1)),
        start_index_map=tuple(range(d + 1)),
    )
    slice_sizes = (1,) * (d + 1) + (channels,)

    def step(sums, start, ct, *tap_arrays):
        chunk = []
        for k in range(0, len(tap_arrays), 2):  # each tap's index and valid
            index, valid = tap_arrays[k : k + 2]
            cells = lax.gather(
                x, index, dnums, slice_sizes, mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS
            )
            if valid is not None:  # a tap off the input reads 0, not 0 * its cell
                cells = jnp.where(valid[:, None], cells, 0)
            chunk.append(jnp.sum(ct * cells, axis=1, dtype=grid.dtype))
        return lax.dynamic_update_slice_in_dim(sums, jnp.stack(chunk, axis=1), start, axis=0)

    arrays = [ct.reshape(math.prod(ct.shape[:-1]), channels)]
    for index, valid, _ in taps:  # the weights are the pullback's
        arrays += [index, valid]
    init = jnp.zeros((points, len(taps)), grid.dtype)
    sums = over_chunks(step, init, arrays, _chunk_points(channels, x.dtype))
    return [sums[:, k].reshape(grid.shape[:-1]) for k in range(len(taps))]


def _grid_tangent_transpose(ct, d_grid, x, grid, **params):
    if ad.is_undefined_primal(x) or ad.is_undefined_primal(grid):
        raise ValueError("jaxpad_grid_sample_grid_tangent: linear in the grid's tangent only.")
    if type(ct) is ad.Zero:
        return None, None, None
    if not params["channels_last"]:
        # An NCHW input and cotangent are read channels-last, each moved once: the
        # cells' gathers then read contiguous rows, and they are not the forward's
        # gathers, which XLA had merged with these and written out (taps x the
        # output) for both, with a transpose of each tap's cells to NCHW. Forward and
        # backward, (8, 64, 64, 64): bilinear 51 -> 37 ms, bicubic 179 -> 97 ms
        # (benchmarks/grid_sample.py's affine grid, one interleaved run); moved
        # without ``computed_once``, XLA fused each transpose into every tap's use:
        # 46 and 146 ms.
        x = computed_once(jnp.moveaxis(x, 1, -1))
        ct = computed_once(jnp.moveaxis(ct, 1, -1))
        params = {**params, "channels_last": True}
    sums = _channel_sums(
        x, ct, grid, **{k: params[k] for k in ("mode", "padding_mode", "align_corners")}
    )
    weights = partial(
        _tap_weights,
        spatial=_spatial(x, params["channels_last"]),
        **{k: params[k] for k in ("mode", "padding_mode", "align_corners")},
    )
    _, pullback = jax.vjp(weights, grid)
    (d_grid_ct,) = pullback(sums)
    return d_grid_ct, None, None


def _grid_tangent_batch(args, dims, **params):
    fn = partial(_grid_tangent_impl, **params)
    return jax.vmap(fn, in_axes=dims)(*args), 0


grid_tangent_p = Primitive("jaxpad_grid_sample_grid_tangent")
grid_tangent_p.def_impl(partial(xla.apply_primitive, grid_tangent_p))
grid_tangent_p.def_abstract_eval(_grid_tangent_abstract_eval)
ad.primitive_jvps[grid_tangent_p] = _grid_tangent_jvp
ad.primitive_transposes[grid_tangent_p] = _grid_tangent_transpose
batching.primitive_batchers[grid_tangent_p] = _grid_tangent_batch
mlir.register_lowering(grid_tangent_p, mlir.lower_fun(_grid_tangent_impl, multiple_results=False))


# ---------------------------------------------------------------------------------------
# Public functions.


def _check_bool(fn: str, name: str, value: object) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn}: {name} must be a bool; got {value!r}.")
    return bool(value)


def _check_choice(fn: str, name: str, value: object, choices) -> str:
    if not isinstance(value, str) or value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{fn}: {name} must be one of {options}; got {value!r}.")
    return value


def grid_sample(
    input: ArrayLike,
    grid: ArrayLike,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool = False,
    *,
    channels_last: bool = False,
) -> jax.Array:
    """Samples ``input`` at the points of ``grid``, as ``torch.nn.functional.grid_sample``.

    ``grid[n, ..., :]`` holds a point of ``input[n]`` normalized to [-1, 1]: its last
    axis is (x, y) for a 4-D input (x along the width, the last spatial axis) and
    (x, y, z) for a 5-D one. With ``align_corners=True``, -1 and 1 are the centres of
    the first and last cells; without, the outer edges of those cells.

    Beyond the input (``padding_mode``): ``"zeros"`` reads zeros, ``"border"`` the
    nearest edge cell, ``"reflection"`` the input mirrored at its edges (about the
    edge cells' centres with ``align_corners=True``, about the input's outer edges
    without), as far out as the coordinate goes.

    Derivatives with respect to ``input`` and ``grid`` (every order for bicubic) are
    those of the function computed, at and beyond the edge too; at a kink (a point
    on a whole cell coordinate) the grid's derivative is the one from above.
    ``docs/interpolation.md`` says where torch's differ. A nan in ``grid`` gives nan
    in the outputs that read it; an infinite coordinate gives the limit where there is
    one (0 in zeros mode, the edge cell in border mode) and nan in reflection mode.

    Args:
      input: ``(N, C, H, W)`` or ``(N, C, D, H, W)`` floating array
        (``(N, H, W, C)``, ``(N, D, H, W, C)`` with ``channels_last``).
      grid: ``(N, H_out, W_out, 2)`` or ``(N, D_out, H_out, W_out, 3)`` floating array.
      mode: ``"bilinear"`` (trilinear for 5-D), ``"nearest"`` (ties to even, as
        torch), or ``"bicubic"`` (torch's cubic convolution, a = -0.75; 4-D only).
      padding_mode: ``"zeros"``, ``"border"`` or ``"reflection"``.
      align_corners: whether -1 and 1 are the corner cells' centres (True) or the
        input's outer edges (False, torch's default).
      channels_last: ``input`` and the output have their channels last.

    Returns:
      ``(N, C, H_out, W_out)`` (or ``(N, C, D_out, H_out, W_out)``; channels last with
      ``channels_last``), of ``input``'s dtype.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> image = jnp.arange(4.0).reshape(1, 1, 2, 2)
      >>> grid = jnp.array([[[[0.0, 0.0], [1.0, -1.0], [3.0, -1.0]]]])
      >>> jaxpad.nn.grid_sample(image, grid, align_corners=True)
      Array([[[[1.5, 1. , 0. ]]]], dtype=float32)
      >>> jaxpad.nn.grid_sample(image, grid, padding_mode="border", align_corners=True)
      Array([[[[1.5, 1. , 1. ]]]], dtype=float32)
    """
    mode = _check_choice(_GS, "mode", mode, MODES)
    padding_mode = _check_choice(_GS, "padding_mode", padding_mode, PADDING_MODES)
    align_corners = _check_bool(_GS, "align_corners", align_corners)
    channels_last = _check_bool(_GS, "channels_last", channels_last)
    x = _as_array(_GS, "input", input)
    g = _as_array(_GS, "grid", grid)
    if x.ndim not in (4, 5):
        raise ValueError(
            f"{_GS}: input must be 4-D (N, C, H, W) or 5-D (N, C, D, H, W); got "
            f"{_checks.describe(x)}."
        )
    if g.ndim != x.ndim:
        raise ValueError(
            f"{_GS}: grid must have input's rank ({x.ndim}); got {_checks.describe(g)}."
        )
    d = x.ndim - 2
    if g.shape[-1] != d:
        raise ValueError(
            f"{_GS}: grid's last axis must have size {d} (one coordinate per spatial axis "
            f"of a {x.ndim}-D input); got {_checks.describe(g)}."
        )
    if g.shape[0] != x.shape[0]:
        raise ValueError(
            f"{_GS}: grid and input must have the same batch size; got grid.shape[0]="
            f"{g.shape[0]} and input.shape[0]={x.shape[0]}."
        )
    if mode == "bicubic" and d == 3:
        raise ValueError(
            f"{_GS}: mode='bicubic' takes a 4-D input only (as torch); got a 5-D input "
            f"of shape {tuple(x.shape)}."
        )
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"{_GS}: input must have a floating dtype; got {_checks.describe(x)}.")
    if not jnp.issubdtype(g.dtype, jnp.floating):
        raise TypeError(f"{_GS}: grid must have a floating dtype; got {_checks.describe(g)}.")
    spatial = x.shape[1:-1] if channels_last else x.shape[2:]
    if any(_checks.is_static(s) and s == 0 for s in spatial):
        raise ValueError(
            f"{_GS}: input's spatial axes must not be empty; got {_checks.describe(x)}."
        )
    _checks.check_sampled_axes(
        _GS, "input", x.shape, range(1, d + 1) if channels_last else range(2, d + 2)
    )
    return grid_sample_p.bind(
        x,
        g,
        mode=mode,
        padding_mode=padding_mode,
        align_corners=align_corners,
        channels_last=channels_last,
    )


def _as_array(fn: str, name: str, value: Any) -> jax.Array:
    if isinstance(value, (jax.Array, np.ndarray, np.generic)) or hasattr(value, "aval"):
        return jnp.asarray(value)
    if isinstance(value, (list, tuple, int, float)):
        return jnp.asarray(value)
    raise TypeError(f"{fn}: {name} must be an array; got {value!r}.")


def _linspace(steps: int, align_corners: bool, dtype) -> jax.Array:
    """torch's ``_linspace_from_neg_one``: the cells' normalized centres."""
    if steps <= 1:
        return jnp.zeros((steps,), dtype)
    r = jnp.linspace(-1.0, 1.0, steps, dtype=dtype)
    if not align_corners:
        r = r * ((steps - 1) / steps)
    return r


def affine_grid(
    theta: ArrayLike,
    size: tuple[int, ...],
    align_corners: bool = False,
    *,
    channels_last: bool = False,
) -> jax.Array:
    """The grid of an affine map, as ``torch.nn.functional.affine_grid``.

    ``grid[n, h, w] = theta[n] @ (x_w, y_h, 1)`` with ``x_w``, ``y_h`` the normalized
    centres of the output's cells (``align_corners`` as in ``grid_sample``), for
    ``grid_sample`` of an input of shape ``size``.

    Args:
      theta: ``(N, 2, 3)`` (4-D ``size``) or ``(N, 3, 4)`` (5-D) floating array.
      size: the output's shape, ``(N, C, H, W)`` or ``(N, C, D, H, W)``
        (``(N, H, W, C)``, ``(N, D, H, W, C)`` with ``channels_last``).
      align_corners: as in ``grid_sample``.
      channels_last: ``size`` lists the channels last.

    Returns:
      ``(N, H, W, 2)`` or ``(N, D, H, W, 3)``, of ``theta``'s dtype.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> theta = jnp.array([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
      >>> jaxpad.nn.affine_grid(theta, (1, 1, 1, 2))[0, 0]
      Array([[-0.5,  0. ],
             [ 0.5,  0. ]], dtype=float32)
    """
    align_corners = _check_bool(_AG, "align_corners", align_corners)
    channels_last = _check_bool(_AG, "channels_last", channels_last)
    if not isinstance(size, (tuple, list)) or not all(
        isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in size
    ):
        raise TypeError(f"{_AG}: size must be a tuple of ints; got {size!r}.")
    size = tuple(int(s) for s in size)
    if len(size) not in (4, 5):
        raise ValueError(
            f"{_AG}: size must have 4 entries (N, C, H, W) or 5 (N, C, D, H, W); got {size}."
        )
    if any(s <= 0 for s in size):
        raise ValueError(f"{_AG}: size must be positive; got {size}.")
    t = _as_array(_AG, "theta", theta)
    d = len(size) - 2
    if not jnp.issubdtype(t.dtype, jnp.floating):
        raise TypeError(f"{_AG}: theta must have a floating dtype; got {_checks.describe(t)}.")
    if t.shape != (size[0], d, d + 1):
        raise ValueError(
            f"{_AG}: theta must have shape (N, {d}, {d + 1}) = {(size[0], d, d + 1)} for "
            f"size={size}; got {_checks.describe(t)}."
        )
    spatial = size[1:-1] if channels_last else size[2:]
    # Coordinates in torch's order: x along the last spatial axis.
    axes = [_linspace(s, align_corners, t.dtype) for s in reversed(spatial)]
    mesh = jnp.meshgrid(*reversed(axes), indexing="ij")  # each of shape spatial
    base = jnp.stack([*reversed(mesh), jnp.ones(spatial, t.dtype)], axis=-1)
    grid = jnp.einsum("...j,nij->n...i", base, t, precision=lax.Precision.HIGHEST)
    return grid.reshape(size[0], *spatial, d)


__all__ = ["affine_grid", "grid_sample", "grid_sample_p"]
