"""ONNX export of jaxpad's primitives through `jax2onnx <https://github.com/enpasos/jax2onnx>`_.

Importing this module registers a jax2onnx plugin for each jaxpad primitive (jax2onnx
keeps its converters in a registry that plugins add themselves to when imported; it
discovers no entry points). ``jax2onnx.to_onnx`` then exports functions that call
``jaxpad.pad``, ``jaxpad.dynamic_pad``, ``jaxpad.broadcast``, ``jaxpad.nn`` and the
``jaxpad.flax`` layers, and their gradients.

A pad in constant, edge, reflect or wrap mode whose pads ONNX's ``Pad`` takes (edge:
not negative; reflect: shorter than the axis; wrap: at most its length, opset 19 on) is
one ``Pad`` node. Every other pad (symmetric, the odd and dirichlet modes, per-side
modes, crops, pads longer than the axis, interior padding), the folds, ``dynamic_pad``
and ``broadcast`` are written into the graph as the JAX program they lower to on
XLA:CPU (slices, reversals, concatenates; ``Expand`` for a broadcast), which jax2onnx's
own converters translate. A pad that cannot be planned for a symbolic input size raises
``NotImplementedError`` naming the primitive, the mode and the constraint it needs
(symbolic inputs with constraints: ``jax.ShapeDtypeStruct(jax.export.symbolic_shape(
"n, 4", constraints=["n >= 3"]), dtype)``). ``lax.platform_dependent`` (in
``jaxpad.nn``'s convolutions) exports its CPU branch. Needs ``pip install
"jaxpad[onnx]"``.

``jaxpad.image.resize`` and ``jaxpad.nn.interpolate`` are one ``Resize`` node (opset 18
on; ``half_pixel_symmetric``: 19) wherever the call's options are an ONNX ``Resize``'s:
nearest (each ``nearest_mode``; torch's and JAX's roundings), linear and cubic (with
``cubic_coeff_a``, ``exclude_outside``, ``antialias``), the coordinate modes of opset 19
(``tf_crop_and_resize`` with its ``roi`` and ``extrapolation_value``), ``sizes`` or
``scales``, on float32 (nearest: int8, uint8, int32 too). The other resizes (lanczos,
area and Pillow's and TensorFlow's kernels, jaxpad's boundary modes, float64, which
onnxruntime's ``Resize`` lacks) are written as their passes.

Example:
  >>> import jaxpad, jaxpad.onnx
  >>> from jax2onnx import to_onnx
  >>> model = to_onnx(lambda x: jaxpad.pad(x, [1, 2], [2, 1], "reflect"), [(3, 4)])
  >>> [node.op_type for node in model.graph.node]
  ['Pad']
  >>> model = to_onnx(lambda x: jaxpad.nn.interpolate(x, scale_factor=2), [(1, 3, 4, 4)])
  >>> [node.op_type for node in model.graph.node]
  ['Resize']
"""

from __future__ import annotations

from collections import ChainMap
from functools import partial
from typing import Any

import jax
import numpy as np
from jax import lax

try:
    from jax2onnx.converter.lowering_dispatch import lower_jaxpr_with_plugins
    from jax2onnx.plugins._ir_shapes import _ensure_value_metadata, _stamp_type_and_shape
    from jax2onnx.plugins.plugin_system import (
        PLUGIN_REGISTRY,
        PrimitiveLeafPlugin,
        register_primitive,
    )
except ImportError as error:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "jaxpad.onnx needs jax2onnx: pip install 'jaxpad[onnx]' (or pip install jax2onnx)."
    ) from error

from jaxpad._broadcast import _broadcast_lowering, broadcast_p
from jaxpad._compat import InconclusiveDimensionOperation
from jaxpad._dynamic_pad import dynamic_fold_p, dynamic_pad_p
from jaxpad._lowering import (
    Target,
    dynamic_fold_lowering,
    dynamic_pad_lowering,
    fold_lowering,
    pad_lowering,
)
from jaxpad._lowering.conv import bilinear_p, planned_conv, planned_conv_p
from jaxpad._once import _value as _once_value
from jaxpad._once import computed_once_p
from jaxpad._pad import fold_p, pad_p
from jaxpad._sharded_pad import _marker_p
from jaxpad.scipy._interpolation._read import _impl as _read_impl
from jaxpad.scipy._interpolation._read import read_p
from jaxpad.scipy._interpolation._static import _pass_impl, pass_p
from jaxpad.scipy._linear._padded_passes import _padded_passes_impl, padded_passes_p
from jaxpad.scipy._linear._padded_taps import _padded_taps_impl, padded_taps_p
from jaxpad.scipy._linear._taps import _impl as _taps_impl
from jaxpad.scipy._linear._taps import taps_p
from jaxpad.scipy._selection._box import _box_plain, box_p
from jaxpad.scipy._selection._extreme import _extreme_impl, _winner_impl, extreme_p, winner_p
from jaxpad.scipy._selection._selected import _selected_impl, selected_p
from jaxpad.scipy._selection._windows import _selection_impl, selection_p

__all__: list[str] = []  # importing the module registers the converters

# XLA:CPU's plan: slices, reversals, broadcasts and concatenates (jnp.pad's graph),
# no gathers, which ONNX runtimes run slowly or not at all.
_TARGET = Target("cpu", False)


def _dilated(x, pad_value, interior):
    """``x`` with ``interior[axis]`` pad values between neighbours along each axis, as
    a concatenate and a reshape (jax2onnx's ``Pad`` has no interior padding)."""
    for axis, r in enumerate(interior):
        n = x.shape[axis]
        if not r or n < 2:
            continue
        moved = jax.numpy.moveaxis(x, axis, -1)[..., None]
        fill = lax.broadcast_in_dim(pad_value, (*moved.shape[:-1], r), ())
        rows = lax.concatenate([moved, fill.astype(x.dtype)], moved.ndim - 1)
        flat = rows.reshape(*moved.shape[:-2], n * (r + 1))[..., : (n - 1) * (r + 1) + 1]
        x = jax.numpy.moveaxis(flat, -1, axis)
    return x


def _pad(x, pad_value, *, pads_begin, pads_end, interior, mode):
    if any(interior):  # constant mode only (the shape rule checks it)
        x = _dilated(x, pad_value, interior)
        interior = (0,) * x.ndim
    return pad_lowering(
        x,
        pad_value,
        pads_begin=pads_begin,
        pads_end=pads_end,
        interior=interior,
        mode=mode,
        target=_TARGET,
    )


def _fold(t, **params):
    return fold_lowering(t, target=_TARGET, **params)


# max_pad bounds the exchange of a program partitioned over devices; one device
# ignores it, as the primitives' own lowerings do.
def _dynamic_pad(x, pad_value, pads_begin, *, max_pad=None, **params):
    del max_pad
    return dynamic_pad_lowering(x, pad_value, pads_begin, target=_TARGET, **params)


def _dynamic_fold(t, pads_begin, *, max_pad=None, **params):
    del max_pad
    return dynamic_fold_lowering(t, pads_begin, target=_TARGET, **params)


def _marker(value, *, jaxpr):
    del jaxpr
    return value


def _planned_conv(x, kernel, **params):
    return planned_conv(x, kernel, **params)


# Each primitive, the JAX function of its operands and params that it lowers to.
_PRIMITIVES: dict[Any, Any] = {
    pad_p: _pad,
    fold_p: _fold,
    dynamic_pad_p: _dynamic_pad,
    dynamic_fold_p: _dynamic_fold,
    broadcast_p: _broadcast_lowering,
    _marker_p: _marker,
    planned_conv_p: _planned_conv,
    # The conv planner's bilinear primitive (exact derivatives, conv_transpose): its value.
    bilinear_p: lambda a, b, *, rules: (rules.exported or rules.value)(a, b),
    # jaxpad.scipy's filters: the programs they lower to on XLA:CPU.
    taps_p: partial(_taps_impl, cpu=True),
    padded_taps_p: _padded_taps_impl,
    padded_passes_p: partial(_padded_passes_impl, cpu=True),
    extreme_p: _extreme_impl,
    winner_p: _winner_impl,
    selection_p: _selection_impl,
    selected_p: _selected_impl,
    box_p: _box_plain,
    # map_coordinates' guard against recomputed coordinates: the identity, but for
    # far coordinates brought within a period.
    computed_once_p: _once_value,
    # jaxpad.scipy.ndimage's interpolation: a transform's pass along one axis.
    pass_p: _pass_impl,
    # map_coordinates' read of each point's window of taps.
    read_p: _read_impl,
}


# ONNX Pad's modes and the pads each reads its axis as one run with (n: the axis size).
_ONNX_PAD_MODES = {
    "constant": lambda pad, n: True,
    "edge": lambda pad, n: pad >= 0,
    "reflect": lambda pad, n: _is_int(n) and 0 <= pad < n,
    "wrap": lambda pad, n: _is_int(n) and 0 <= pad <= n,
}


def _is_int(size) -> bool:
    return isinstance(size, (int, np.integer))


def _native_pad_mode(ctx, eqn) -> str | None:
    """The ONNX ``Pad`` mode that computes ``eqn`` (a ``jaxpad_pad``) in one node, or None."""
    params = eqn.params
    mode = params["mode"]
    if mode not in _ONNX_PAD_MODES or any(params["interior"]):
        return None
    if mode == "wrap" and getattr(ctx.builder, "opset", 0) < 19:
        return None  # Pad's wrap mode came with opset 19
    shape = eqn.invars[0].aval.shape
    pads = zip(params["pads_begin"], params["pads_end"], shape)
    if all(_ONNX_PAD_MODES[mode](lo, n) and _ONNX_PAD_MODES[mode](hi, n) for lo, hi, n in pads):
        return mode
    return None


def _output_name(ctx, out_spec, hint: str) -> str:
    """The name of a node's output: the converter's own for the jaxpr's variable, unless
    another node already produces that value (then a fresh one)."""
    name = getattr(out_spec, "name", None) or ctx.fresh_name(hint)
    producer = getattr(out_spec, "producer", None)
    if callable(producer) and producer() is not None:
        name = ctx.fresh_name(hint)
    return name


def _emit_pad(ctx, eqn, pads_begin, pads_end, mode) -> None:
    """One ONNX ``Pad`` node for ``eqn`` (operands: the array, then the pad value)."""
    x_var, value_var = eqn.invars
    (out_var,) = eqn.outvars
    x = ctx.get_value_for_var(x_var, name_hint=ctx.fresh_name("jaxpad_pad_in"))
    out_spec = ctx.get_value_for_var(out_var, name_hint=ctx.fresh_name("jaxpad_pad_out"))
    pads = np.asarray([*pads_begin, *pads_end], np.int64)
    pads_value = ctx.builder.add_initializer_from_array(
        name=ctx.fresh_name("jaxpad_pads"), array=pads
    )
    _stamp_type_and_shape(pads_value, pads.shape)
    _ensure_value_metadata(ctx, pads_value)
    inputs = [x, pads_value]
    if mode == "constant":
        inputs.append(ctx.get_value_for_var(value_var, name_hint=ctx.fresh_name("jaxpad_value")))
    name = _output_name(ctx, out_spec, "jaxpad_pad_out")
    result = ctx.builder.Pad(*inputs, mode=mode, _outputs=[name])
    # The output's type and shape as the converter declared them (symbolic sizes
    # included), not recomputed from the avals.
    if getattr(out_spec, "type", None) is not None:
        result.type = out_spec.type
    if getattr(out_spec, "shape", None) is not None:
        result.shape = out_spec.shape
    _ensure_value_metadata(ctx, result)
    ctx.bind_value_for_var(out_var, result)


class _LaxPadPlugin(PrimitiveLeafPlugin):
    """``lax.pad`` inside an inlined program: one ONNX ``Pad``. jax2onnx's own converter
    of ``lax.pad`` (0.17) fails on symbolic sizes, which this one carries through; it
    still takes interior padding."""

    def lower(self, ctx, eqn) -> None:
        config = eqn.params["padding_config"]
        if any(r for _, _, r in config):
            PLUGIN_REGISTRY[lax.pad_p.name].lower(ctx, eqn)
            return
        _emit_pad(ctx, eqn, [lo for lo, _, _ in config], [hi for _, hi, _ in config], "constant")


_INLINE_REGISTRY = ChainMap({lax.pad_p.name: _LaxPadPlugin()}, PLUGIN_REGISTRY)


def _inline(prim, fn, ctx, eqn) -> None:
    """Writes ``fn``'s program for ``eqn`` into the ONNX graph by jax2onnx's converters."""
    avals = [jax.ShapeDtypeStruct(v.aval.shape, v.aval.dtype) for v in eqn.invars]
    try:
        closed = jax.make_jaxpr(lambda *args: fn(*args, **eqn.params))(*avals)
    except (ValueError, InconclusiveDimensionOperation) as error:
        shapes = ", ".join(str(tuple(a.shape)) for a in avals)
        reason = str(error).splitlines()[0]
        raise NotImplementedError(
            f"jaxpad.onnx: cannot export {prim.name} with mode={_describe(eqn.params)} on "
            f"operands of shape {shapes}: {reason}"
        ) from None
    inner = closed.jaxpr
    for var, value in zip(inner.constvars, closed.consts):
        ctx.bind_const_for_var(var, np.asarray(value))
    for outer, var in zip(eqn.invars, inner.invars):
        ctx.bind_value_for_var(var, ctx.get_value_for_var(outer))
    lower_jaxpr_with_plugins(ctx=ctx, jaxpr=inner, registry=_INLINE_REGISTRY, source=prim.name)
    for outer, var in zip(eqn.outvars, inner.outvars):
        ctx.bind_value_for_var(outer, ctx.get_value_for_var(var))


def _describe(params) -> str:
    return repr(params.get("mode"))


def _lower_pad(ctx, eqn) -> None:
    """``jaxpad_pad`` as one ONNX ``Pad`` where a mode of ONNX's computes it, else inlined."""
    mode = _native_pad_mode(ctx, eqn)
    if mode is None:
        _inline(pad_p, _pad, ctx, eqn)
    else:
        _emit_pad(ctx, eqn, eqn.params["pads_begin"], eqn.params["pads_end"], mode)


def _register(prim, fn) -> None:
    class Plugin(PrimitiveLeafPlugin):
        def lower(self, ctx, eqn) -> None:
            if prim is pad_p:
                _lower_pad(ctx, eqn)
            else:
                _inline(prim, fn, ctx, eqn)

    Plugin.__name__ = Plugin.__qualname__ = f"{prim.name}_plugin"
    register_primitive(
        jaxpr_primitive=prim.name,
        jax_doc="docs/interoperability.md",
        onnx=[],
        since="jaxpad 0.1.0",
        context="primitives.jaxpad",
        component=prim.name,
        testcases=[],
    )(Plugin)


for _prim, _fn in _PRIMITIVES.items():
    _register(_prim, _fn)


class _PlatformIndexPlugin(PrimitiveLeafPlugin):
    """``lax.platform_dependent``'s branch index (``jaxpad.nn``'s convolutions plan per
    platform) as a constant: the CPU branch, whose slices and concatenates ONNX runs
    well; every branch computes the same values."""

    def lower(self, ctx, eqn) -> None:
        platforms = eqn.params["platforms"]
        index = next(
            (i for i, names in enumerate(platforms) if names is not None and "cpu" in names),
            next((i for i, names in enumerate(platforms) if names is None), 0),
        )
        ctx.bind_const_for_var(eqn.outvars[0], np.asarray(index, np.int32))


if "platform_index" not in PLUGIN_REGISTRY:  # jax2onnx 0.17 has none
    register_primitive(
        jaxpr_primitive="platform_index",
        jax_doc="https://docs.jax.dev/en/latest/_autosummary/jax.lax.platform_dependent.html",
        onnx=[],
        since="jaxpad 0.1.0",
        context="primitives.jaxpad",
        component="platform_index",
        testcases=[],
    )(_PlatformIndexPlugin)


# --- jaxpad.nn.grid_sample: one ONNX GridSample node --------------------------------------
# Opset 20 names the modes linear/cubic and takes N-D inputs; opsets 16-19 name them
# bilinear/bicubic and take 4-D inputs only. A 5-D sample below opset 20, or any below
# opset 16, is written as its JAX program (gathers) instead. onnxruntime 1.32 agrees
# with torch in every mode, padding mode and align_corners of both opsets (cubic: 4-D
# only, as torch), beyond the edge too (tests/test_grid_sample_onnx.py).
from jaxpad import _grid_sample  # noqa: E402

_GRID_SAMPLE_MODES = {
    20: {"bilinear": "linear", "nearest": "nearest", "bicubic": "cubic"},
    16: {"bilinear": "bilinear", "nearest": "nearest", "bicubic": "bicubic"},
}


def _onnx_transpose(ctx, value, perm, shape, hint):
    out = ctx.builder.Transpose(value, perm=list(perm), _outputs=[ctx.fresh_name(hint)])
    if getattr(value, "type", None) is not None:
        out.type = value.type
    _stamp_type_and_shape(out, tuple(shape[p] for p in perm))
    _ensure_value_metadata(ctx, out)
    return out


class _GridSamplePlugin(PrimitiveLeafPlugin):
    """``jaxpad_grid_sample`` as ONNX ``GridSample`` (channels-last: between two
    ``Transpose`` nodes), else inlined."""

    def lower(self, ctx, eqn) -> None:
        params = eqn.params
        x_var, grid_var = eqn.invars
        (out_var,) = eqn.outvars
        rank = len(x_var.aval.shape)
        opset = getattr(ctx.builder, "opset", 0)
        if opset < 16 or (rank != 4 and opset < 20):
            _inline(_grid_sample.grid_sample_p, _grid_sample._grid_sample_impl, ctx, eqn)
            return
        names = _GRID_SAMPLE_MODES[20 if opset >= 20 else 16]
        x = ctx.get_value_for_var(x_var, name_hint=ctx.fresh_name("grid_sample_in"))
        grid = ctx.get_value_for_var(grid_var, name_hint=ctx.fresh_name("grid_sample_grid"))
        out_spec = ctx.get_value_for_var(out_var, name_hint=ctx.fresh_name("grid_sample_out"))
        to_first = (0, rank - 1, *range(1, rank - 1))
        to_last = (0, *range(2, rank), 1)
        if params["channels_last"]:
            x = _onnx_transpose(ctx, x, to_first, x_var.aval.shape, "grid_sample_nchw")
        if params["channels_last"]:  # the output is the transpose's, below
            name = ctx.fresh_name("grid_sample_out")
        else:
            name = _output_name(ctx, out_spec, "grid_sample_out")
        result = ctx.builder.GridSample(
            x,
            grid,
            mode=names[params["mode"]],
            padding_mode=params["padding_mode"],
            align_corners=int(params["align_corners"]),
            _outputs=[name],
        )
        out_shape = tuple(out_var.aval.shape)
        if getattr(out_spec, "type", None) is not None:
            result.type = out_spec.type
        if params["channels_last"]:
            _stamp_type_and_shape(result, tuple(out_shape[p] for p in to_first))
            _ensure_value_metadata(ctx, result)
            result = _onnx_transpose(
                ctx, result, to_last, tuple(out_shape[p] for p in to_first), "grid_sample_nhwc"
            )
        elif getattr(out_spec, "shape", None) is not None:
            result.shape = out_spec.shape
        _ensure_value_metadata(ctx, result)
        ctx.bind_value_for_var(out_var, result)


register_primitive(
    jaxpr_primitive=_grid_sample.grid_sample_p.name,
    jax_doc="docs/interpolation.md",
    onnx=[
        {"component": "GridSample", "doc": "https://onnx.ai/onnx/operators/onnx__GridSample.html"}
    ],
    since="jaxpad 0.1.0",
    context="primitives.jaxpad",
    component=_grid_sample.grid_sample_p.name,
    testcases=[],
)(_GridSamplePlugin)


# --- jaxpad.image.resize, jaxpad.nn.interpolate: one ONNX Resize node ---------------------
# A jaxpad_resize whose plan jaxpad.image / jaxpad.nn matched to a Resize node
# (jaxpad/_sampling/_resize.py OnnxResize: the attributes, sizes or scales, roi) is that
# node, from opset 18 (half_pixel_symmetric: 19), on the dtypes, ranks and resized axes
# onnxruntime 1.32's Resize takes (float32; nearest: int8, uint8, int32 too; float16 and
# bfloat16 are resampled in float32 between Casts; _onnxruntime_runs). Every other
# resize (lanczos, area, jaxpad's boundary modes, float64, the ranks and axes that
# onnxruntime refuses, older opsets) is written as its passes
# (tests/test_resize_onnx_export.py).
from jaxpad._sampling import _resize  # noqa: E402

_RESIZE_DTYPES = {"float32": ("nearest", "linear", "cubic"), "int8": ("nearest",)}
_RESIZE_DTYPES.update(uint8=("nearest",), int32=("nearest",))


def _onnxruntime_runs(node, in_shape, out_shape) -> bool:
    """Whether onnxruntime 1.32's CPU ``Resize`` takes ``node`` on this input's rank and
    resized axes (its ``ScalesValidation``): linear on 2-D, 3-D, 4-D resized on axes 2
    and 3 or 1 and 2, 5-D on axes 2 to 4; cubic on 2-D and 4-D on axes 2 and 3, or 1 and
    2 where antialiased or upsampling; nearest on any."""
    rank, axes = len(in_shape), set(node.axes)
    if node.mode == "nearest" or rank == 2:
        return True
    if node.mode == "linear":
        if rank == 3:
            return True
        if rank == 4:
            return axes <= {2, 3} or axes <= {1, 2}
        return rank == 5 and axes <= {2, 3, 4}
    if rank != 4:
        return False
    if axes <= {2, 3}:
        return True
    upsampling = all(out_shape[d] >= in_shape[d] for d in axes)
    return axes <= {1, 2} and (node.antialias or upsampling)


class _ResizePlugin(PrimitiveLeafPlugin):
    """``jaxpad_resize`` as one ONNX ``Resize`` where its plan has one, else inlined."""

    def lower(self, ctx, eqn) -> None:
        node = eqn.params["onnx"]
        x_var = eqn.invars[0]
        (out_var,) = eqn.outvars
        opset = getattr(ctx.builder, "opset", 0)
        if (
            node is None
            or opset < 18
            or (node.coordinate_transformation_mode == "half_pixel_symmetric" and opset < 19)
            or node.mode not in _RESIZE_DTYPES.get(np.dtype(x_var.aval.dtype).name, ())
            or not _onnxruntime_runs(node, x_var.aval.shape, out_var.aval.shape)
            or (  # an integer's extrapolation_value: jaxpad's cast, not the runtime's
                node.coordinate_transformation_mode == "tf_crop_and_resize"
                and np.dtype(x_var.aval.dtype) != np.float32
            )
        ):
            _inline(_resize.resize_p, _resize.passes, ctx, eqn)
            return
        x = ctx.get_value_for_var(x_var, name_hint=ctx.fresh_name("resize_in"))
        out_spec = ctx.get_value_for_var(out_var, name_hint=ctx.fresh_name("resize_out"))
        roi, scales, sizes, axes = node.inputs(tuple(x_var.aval.shape))
        attributes = node.attributes() if axes is None else {**node.attributes(), "axes": axes}
        empty = np.zeros(0, np.float32)
        inputs = [x]
        for hint, array in (
            ("resize_roi", roi),
            ("resize_scales", scales),
            ("resize_sizes", sizes),
        ):
            if array is None and hint == "resize_sizes":
                continue
            value = ctx.builder.add_initializer_from_array(
                name=ctx.fresh_name(hint), array=empty if array is None else array
            )
            _stamp_type_and_shape(value, (empty if array is None else array).shape)
            _ensure_value_metadata(ctx, value)
            inputs.append(value)
        name = _output_name(ctx, out_spec, "resize_out")
        result = ctx.builder.Resize(*inputs, _outputs=[name], **attributes)
        if getattr(out_spec, "type", None) is not None:
            result.type = out_spec.type
        if getattr(out_spec, "shape", None) is not None:
            result.shape = out_spec.shape
        _ensure_value_metadata(ctx, result)
        ctx.bind_value_for_var(out_var, result)


register_primitive(
    jaxpr_primitive=_resize.resize_p.name,
    jax_doc="docs/resize.md",
    onnx=[{"component": "Resize", "doc": "https://onnx.ai/onnx/operators/onnx__Resize.html"}],
    since="jaxpad 0.1.0",
    context="primitives.jaxpad",
    component=_resize.resize_p.name,
    testcases=[],
)(_ResizePlugin)
