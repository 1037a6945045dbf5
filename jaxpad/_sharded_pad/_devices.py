"""The programs whose pads plan their exchange (``wants_devices``), the marker that
gives their lowering the devices (``_marker_p``), and the check on long split axes."""

from __future__ import annotations

import functools
from typing import Any

import jax
import numpy as np
from jax.experimental.custom_partitioning import custom_partitioning
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad._lowering import int32_indexes

# Devices at lowering time -------------------------------------------------------------
# A custom_partitioning op needs the program's devices when it is lowered, and JAX
# supplies them only to programs whose jaxpr holds one (in any sub-jaxpr). pad_p and
# fold_p bind theirs inside their lowering, too late to be seen, so the public
# functions, when traced over a mesh of several devices (``wants_devices``), pass pad_value
# through ``_marker_p``: an identity whose parameter is a jaxpr holding a
# custom_partitioning op, which is never lowered (the marker lowers to its operand).


@custom_partitioning
def _device_marker(flag):
    return flag


def _marker_partition(mesh, arg_shapes, result_shape):
    return mesh, lambda flag: flag, result_shape.sharding, (arg_shapes[0].sharding,)


_device_marker.def_partition(partition=_marker_partition, sharding_rule=" -> ")


@functools.cache
def _marker_jaxpr():
    return jax.make_jaxpr(_device_marker)(np.bool_(True))


_marker_p = Primitive("jaxpad_devices_marker")
_marker_p.def_impl(lambda value, *, jaxpr: value)
_marker_p.def_abstract_eval(lambda value, *, jaxpr: value)
ad.deflinear2(_marker_p, lambda t, value, *, jaxpr: [t])
batching.primitive_batchers[_marker_p] = lambda args, dims, **params: (
    _marker_p.bind(*args, **params),
    dims[0],
)
mlir.register_lowering(_marker_p, lambda ctx, value, *, jaxpr: [value])


def check_long_split_axes(fn_name: str, x_shape, out_shape, pads_begin) -> None:
    """A pad over several devices computes the rows of a long split axis in the
    program (``_static_plan``), from global positions: in int64 where the axis is too
    long for int32, which needs JAX's 64-bit types. ``pads_begin``: ints, or None
    where traced. Which axes XLA splits is not known yet: every padded one counts."""
    if jax.config.read("jax_enable_x64"):
        return
    for axis, (n, size, lo) in enumerate(zip(x_shape, out_shape, pads_begin)):
        padded = lo is None or lo != 0 or size != n
        if padded and not int32_indexes(n, size):
            raise ValueError(
                f"{fn_name}: axis {axis} of x has {n} elements (padded to {size}); over "
                f"several devices its rows are found in the program with 64-bit indices "
                f"(size + 4 * x.shape[{axis}] exceeds 2**31 - 1), which need "
                "jax.config.update('jax_enable_x64', True). Enable it, or pad that axis "
                "where it is not split."
            )


def wants_devices(x) -> bool:
    """Whether ``x`` is traced in a program over a mesh of several devices, outside
    ``shard_map``: the programs whose pads plan their exchange.

    The mesh is the one in context (``jax.set_mesh``) or, with none, the one in ``x``'s
    type (an array committed to a ``NamedSharding``, Auto or Explicit axes, carries
    it). A mesh built without devices (``jax.sharding.AbstractMesh(...)``, for
    exporting to devices not at hand) has no ``abstract_device``: such programs are
    lowered without devices, which a custom_partitioning op cannot be, so they keep
    the plain lowering.
    """
    if not isinstance(x, jax.core.Tracer):
        return False
    mesh: Any = jax.sharding.get_abstract_mesh()
    if mesh.empty:
        mesh = getattr(getattr(jax.typeof(x), "sharding", None), "mesh", None)
        if mesh is None or mesh.empty:
            return False
    if mesh.size == 1 or getattr(mesh, "abstract_device", None) is None:
        return False
    manual = set(getattr(mesh, "manual_axes", ()) or ())
    return not manual >= set(mesh.axis_names)


def request_devices(x, pad_value):
    """``pad_value`` through ``_marker_p`` when ``wants_devices(x)`` (see above); else
    unchanged."""
    if not wants_devices(x):
        return pad_value
    return _marker_p.bind(pad_value, jaxpr=_marker_jaxpr())
