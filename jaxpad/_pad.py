"""``jaxpad.pad``: the Pad primitive and its transpose, the fold.

Laid out as JAX lays out ``lax.pad``: the public function, then the shape rule,
transpose and batching of ``pad_p``, the same for its transpose ``fold_p``, and a
short registration block at the end. Both lower through ``_lowering``'s planner.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, xla
from jax.typing import ArrayLike

from jaxpad import _args, _lowering
from jaxpad._args import PadArgs, PadMode, padded_shape
from jaxpad._lowering import fold_lowering, pad_lowering, register_lowering
from jaxpad._sharded_pad import (
    check_long_split_axes,
    partitioned_fold_lowering,
    partitioned_pad_lowering,
    request_devices,
    wants_devices,
)
from jaxpad._sharding import in_auto_axes, match_sharding, match_varying, same_axes_sharding
from jaxpad._typing import IntSequence, Modes, PadValue

_FN = "jaxpad.pad"
_TRACED_PADS_HINT = (
    " Pads known only at run time (traced, or different per example under vmap) "
    "need jaxpad.dynamic_pad(x, pads_begin, shape, mode)."
)


def pad(
    x: ArrayLike,
    pads_begin: IntSequence,
    pads_end: IntSequence,
    mode: Modes = "constant",
    pad_value: PadValue | None = None,
    *,
    interior: IntSequence | None = None,
    crop_first: bool = False,
) -> jax.Array:
    """Pads ``x`` by ``pads_begin`` / ``pads_end`` elements per axis.

    Output position ``i`` of an axis reads ``x[m(i - pads_begin)]``, where ``m`` is
    the mode's index map (docs/semantics.md): negative pads crop, and pads longer than the
    axis continue the mode's pattern, as ``numpy.pad`` does.

    Args:
      x: the array to pad; any numeric dtype or bool.
      pads_begin: one int per axis of ``x``, padding before index 0; negative crops.
        Python ints, a tuple, or a concrete integer array.
      pads_end: one int per axis of ``x``, padding after the last index.
      mode: ``"constant"``, ``"edge"``, ``"reflect"`` (edge not repeated),
        ``"symmetric"`` (edge repeated), ``"wrap"`` (periodic), ``"reflect_odd"`` and
        ``"symmetric_odd"`` (numpy's ``reflect_type="odd"``: ``2 * edge - mirror``),
        ``"dirichlet"`` (``2 * pad_value - mirror``: odd about the value at the
        face, a cell-centred Dirichlet wall), ``"neumann"`` (``mirror -/+ (2k - 1)
        * pad_value`` for the ghost ``k`` cells beyond the begin/end face: the value
        is the jump across one cell, ``h * du/dx``), or PyWavelets' and
        ``scipy.signal.upfirdn``'s ``"antisymmetric"`` (``-mirror``), ``"smooth"``
        (the edge's slope continued) and ``"line"`` (the line through both ends;
        floating ``x``) for every side of every axis; or a
        sequence with one entry per axis, each a mode for both its sides or a
        ``(begin, end)`` pair: ``("wrap", ("dirichlet", "symmetric"))``. Axes are
        padded in order, each reading the earlier ones' pads (numpy's order), and
        each side extends the axis by its own mode (docs/modes.md).
      pad_value: read by ``"constant"``, ``"dirichlet"`` and ``"neumann"`` sides
        only; a scalar for every such side, an array of shape ``(x.ndim, 2)`` (one
        value per side of each axis; row: axis, column: begin, end), or a sequence
        of one ``(begin, end)`` pair per axis whose entries are scalars or arrays
        that vary along the face: broadcastable to ``x.shape`` with that axis of
        size 1, and extended by their nearest value along the corners that axes
        padded before theirs add. Possibly traced, differentiated and batched;
        defaults to 0 and is cast to ``x.dtype``.
      interior: constant mode only; nGraph interior padding, one non-negative int per
        axis: that many pad values go between neighbouring elements.
      crop_first: how a negative pad meets the mode on the other side of its axis.
        False (jaxpad's rule, OpenVINO Pad-12's): indices stay relative to the
        original ``x``, so the cropped elements are still read by the mode. True:
        negative pads crop ``x`` first and the positive ones extend what is left, as
        onnxruntime's ``Pad`` and PyTorch's ``circular`` do: wrap of ``[1, 2, 3]`` by
        ``(-1, 1)`` is ``[2, 3, 1]`` by default and ``[2, 3, 2]`` with
        ``crop_first=True``. Constant and edge give the same either way. Needs
        ``interior`` of 0.

    Returns:
      The padded array, of ``x.dtype``; along each axis its size is
      ``pads_begin + (x.shape - 1) * (interior + 1) + 1 + pads_end``, or
      ``pads_begin + pads_end`` for an axis of size 0.

    Example:
      >>> import jax.numpy as jnp, jaxpad
      >>> jaxpad.pad(jnp.array([1, 2, 3]), [2], [1], mode="reflect")
      Array([3, 2, 1, 2, 3, 2], dtype=int32)
      >>> jaxpad.pad(jnp.array([1.0, 2.0, 3.0]), [2], [2], [("dirichlet", "wrap")], 0.5)
      Array([-1.,  0.,  1.,  2.,  3.,  1.,  2.], dtype=float32)
    """
    x = jnp.asarray(x)
    args = _args.pad_args(
        _FN,
        x,
        pads_begin,
        pads_end,
        mode,
        pad_value,
        interior=interior,
        crop_first=crop_first,
        traced_hint=_TRACED_PADS_HINT,
    )
    return padded(x, args)


def pad_for(fn_name: str, x, pads_begin, pads_end, mode="constant", pad_value=None):
    """``jaxpad.pad`` for another public function that pads (``fn_name``: the one its
    caller called, which starts the messages): its arguments described once."""
    x = jnp.asarray(x)
    return padded(x, _args.pad_args(fn_name, x, pads_begin, pads_end, mode, pad_value))


def padded(x: jax.Array, args: PadArgs) -> jax.Array:
    """``x`` padded as ``args`` describes: the one path below the checks, taken by every
    public function that pads (``_args.pad_args`` built ``args`` from its arguments)."""
    if args.crop is not None:
        x = lax.slice(x, *args.crop)
    pads_begin, pads_end, value = args.pads_begin, args.pads_end, args.value
    if wants_devices(x):
        check_long_split_axes(args.fn_name, x.shape, args.out_shape, pads_begin)
    out = _pad_scalars(x, value, args)
    if args.face_values:
        # The face arrays' term (linear in them) added to the pad of the scalars.
        faces, sides, shape = args.face_values, args.sides, x.shape
        extend = derived_pad(args.fn_name)
        return _lowering.add_static_faces(out, faces, sides, shape, pads_begin, pads_end, extend)
    return out


def _pad_scalars(x, value, args: PadArgs) -> jax.Array:
    pads_begin, pads_end, mode = args.pads_begin, args.pads_end, args.mode
    sided = PadMode(mode, x.ndim).single is None and x.dtype != np.bool_ and not any(args.interior)
    if sided and wants_devices(x):
        # Sharded: one-mode pads plan their exchange (docs/sharding.md); the signs,
        # edge rows and values are elementwise.
        def composed(x, value):
            one_mode = derived_pad(args.fn_name)
            return _lowering.composed_pad(x, value, pads_begin, pads_end, mode, one_mode)

        return in_auto_axes(composed, x, args.out_shape)(x, value)
    return _bind(x, value, args)


def pad_piece(x: jax.Array, pads_begin, pads_end, mode: str) -> jax.Array:
    """A pad that an op jaxpad builds needs after its public function checked the
    arguments (a convolution's padded input and strips, a transposed convolution's
    fold): described by ``_args.derived``, not checked again. Its messages (a split
    axis too long) start with ``jaxpad.pad``, as when it was a call of that."""
    begin, end = tuple(map(int, pads_begin)), tuple(map(int, pads_end))
    return padded(x, _args.derived(_FN, x, begin, end, mode))


def derived_pad(fn_name: str):
    """jaxpad's own pads of a checked pad's pieces (a face array's extension, the
    one-mode parts of a per-side pad), described by ``_args.derived`` unchecked."""

    def pad_piece(y, pads_begin, pads_end, mode):
        return padded(y, _args.derived(fn_name, y, pads_begin, pads_end, mode))

    return pad_piece


def _bind(x, value, args: PadArgs) -> jax.Array:
    x, value = match_varying(x, value)
    value = request_devices(x, value)
    return pad_p.bind(
        x,
        value,
        pads_begin=args.pads_begin,
        pads_end=args.pads_end,
        interior=args.interior,
        mode=args.mode,
    )


# Shape rule ---------------------------------------------------------------------


def _pad_abstract_eval(x, pad_value, *, pads_begin, pads_end, interior, mode):
    # Per-side modes take one value per side of each axis; one mode takes a scalar.
    value_shape = PadMode(mode, x.ndim).value_shape
    if pad_value.shape != value_shape:
        raise ValueError(
            f"{_FN}: pad_value must have shape {value_shape} with mode "
            f"{PadMode(mode, x.ndim)}; got shape {pad_value.shape}."
        )
    if pad_value.dtype != x.dtype:
        raise TypeError(f"{_FN}: pad_value dtype {pad_value.dtype} differs from x dtype {x.dtype}.")
    # The primitive's own contract, for a direct bind (``pad_args`` checked a user's).
    shape = padded_shape(_FN, x.shape, pads_begin, pads_end, interior, mode)
    return x.update(shape=shape, dtype=x.dtype, sharding=same_axes_sharding(x, shape))


# Transpose ----------------------------------------------------------------------


def _pad_transpose(t, x, pad_value, *, pads_begin, pads_end, interior, mode):
    if type(t) is ad.Zero:
        return [
            ad.Zero(x.aval) if ad.is_undefined_primal(x) else None,
            ad.Zero(pad_value.aval) if ad.is_undefined_primal(pad_value) else None,
        ]
    operand_shape = x.aval.shape if ad.is_undefined_primal(x) else x.shape
    need_x = ad.is_undefined_primal(x)
    need_value = ad.is_undefined_primal(pad_value)
    t_x = None
    if need_x:
        t_x = fold_p.bind(
            t,
            pads_begin=pads_begin,
            pads_end=pads_end,
            interior=interior,
            mode=mode,
            operand_shape=tuple(operand_shape),
        )
        t_x = match_sharding(t_x, x.aval)
    t_value = None
    single = PadMode(mode, len(operand_shape)).single
    if need_value and single is None:
        t_value = _lowering.value_cotangent(t, mode, operand_shape, pads_begin)
    elif need_value:
        if single == "constant":
            # Every output position not copied from x holds the pad value. Summed
            # there alone: ``t.sum() - fold(t).sum()`` would turn an inf in the copied
            # positions into nan (docs/semantics.md, "Infinities and nan").
            params = dict(pads_begin=pads_begin, pads_end=pads_end, interior=interior, mode=mode)
            copied = pad_p.bind(jnp.ones(operand_shape, bool), np.zeros((), bool), **params)
            t_value = lax.select(copied, jnp.zeros_like(t), t).sum()
        else:
            t_value = ad.Zero(pad_value.aval)
    return [t_x if need_x else None, t_value]


# Batching -----------------------------------------------------------------------


def _pad_batch(batched_args, batch_dims, *, pads_begin, pads_end, interior, mode):
    x, pad_value = batched_args
    x_bdim, value_bdim = batch_dims
    ndim = x.ndim - 1
    per_side = PadMode(mode, ndim).single is None
    if value_bdim is None:
        params = _insert_unpadded_axis(x_bdim, pads_begin, pads_end, interior, mode)
        if per_side:  # the batch axis is not padded: no value
            pad_value = jnp.insert(pad_value, x_bdim, jnp.zeros((2,), pad_value.dtype), axis=0)
        return pad_p.bind(x, pad_value, **params), x_bdim
    size = pad_value.shape[value_bdim]
    if per_side:
        # Per-side values per example: the pad of zeros plus each example's values term.
        x = batching.bdim_at_front(x, x_bdim, size)
        pad_value = batching.bdim_at_front(pad_value, value_bdim, size)
        params = _insert_unpadded_axis(0, pads_begin, pads_end, interior, mode)
        zeros = np.zeros((x.ndim, 2), x.dtype)
        padded = pad_p.bind(x, zeros, **params)
        term = jax.vmap(
            lambda v: _lowering.value_term(v, mode, x.shape[1:], padded.shape[1:], pads_begin)
        )(pad_value)
        return _lowering.add_values(padded, term), 0
    # One pad value per example: pad with zeros, then select the values into the
    # positions that a pad of an all-True mask leaves False.
    x = batching.bdim_at_front(x, x_bdim, size)
    pad_value = batching.bdim_at_front(pad_value, value_bdim, size)
    params = _insert_unpadded_axis(0, pads_begin, pads_end, interior, mode)
    padded = pad_p.bind(x, np.zeros((), x.dtype), **params)
    copied = pad_p.bind(jnp.ones(x.shape, bool), np.zeros((), bool), **params)
    values = lax.broadcast_in_dim(pad_value, padded.shape, (0,))
    return lax.select(copied, padded, values), 0


def _insert_unpadded_axis(axis, pads_begin, pads_end, interior, mode):
    def insert(values, entry=0):
        values = list(values)
        values.insert(axis, entry)
        return tuple(values)

    return dict(
        pads_begin=insert(pads_begin),
        pads_end=insert(pads_end),
        interior=insert(interior),
        mode=PadMode(mode, len(pads_begin)).with_unpadded_axis(axis),
    )


# The fold: pad_p's transpose ----------------------------------------------------
# fold(t) sums each output cotangent back onto the source element it was read from.
# Its transpose is pad_p again, so derivatives of every order stay in jaxpad.


def _fold_abstract_eval(t, *, pads_begin, pads_end, interior, mode, operand_shape):
    expected = padded_shape("jaxpad.fold", operand_shape, pads_begin, pads_end, interior, mode)
    if tuple(t.shape) != expected:
        raise ValueError(
            f"jaxpad.fold: the cotangent has shape {t.shape}; the pad produces {expected}."
        )
    operand_shape = tuple(operand_shape)
    return t.update(
        shape=operand_shape, dtype=t.dtype, sharding=same_axes_sharding(t, operand_shape)
    )


def _fold_transpose(ct, t, *, pads_begin, pads_end, interior, mode, operand_shape):
    del t, operand_shape
    ct = ad.instantiate_zeros(ct)
    return [
        pad_p.bind(
            ct,
            np.zeros(PadMode(mode, ct.ndim).value_shape, ct.dtype),
            pads_begin=pads_begin,
            pads_end=pads_end,
            interior=interior,
            mode=mode,
        )
    ]


def _fold_batch(batched_args, batch_dims, *, pads_begin, pads_end, interior, mode, operand_shape):
    (t,), (bdim,) = batched_args, batch_dims
    operand_shape = list(operand_shape)
    operand_shape.insert(bdim, t.shape[bdim])
    params = _insert_unpadded_axis(bdim, pads_begin, pads_end, interior, mode)
    return fold_p.bind(t, operand_shape=tuple(operand_shape), **params), bdim


# Registration -------------------------------------------------------------------

pad_p = Primitive("jaxpad_pad")
pad_p.def_impl(partial(xla.apply_primitive, pad_p))
pad_p.def_abstract_eval(_pad_abstract_eval)
ad.deflinear2(pad_p, _pad_transpose)
batching.primitive_batchers[pad_p] = _pad_batch
register_lowering(pad_p, partitioned_pad_lowering(pad_lowering, fold_lowering))

fold_p = Primitive("jaxpad_fold")
fold_p.def_impl(partial(xla.apply_primitive, fold_p))
fold_p.def_abstract_eval(_fold_abstract_eval)
ad.deflinear2(fold_p, _fold_transpose)
batching.primitive_batchers[fold_p] = _fold_batch
register_lowering(fold_p, partitioned_fold_lowering(pad_lowering, fold_lowering))
