"""Every difference between the JAX releases jaxpad supports, in one place.

jaxpad supports jax >= 0.6.2 (the floor in pyproject.toml, tested by ``.ci/oldest``
with ci/oldest.txt; the newest release by ``.ci/run``). Each shim uses public JAX only
and says which release lets it go: once the floor reaches that release, the shim's
body becomes the plain spelling and its callers may import the name from JAX.

Every feature of jaxpad works on every supported release (explicit-axes meshes
included, which 0.6.2 has); the one gap of the oldest release is jnp.pad's, below
jaxpad.numpy.pad: on 0.7.2 and older it raises its own ``ValueError`` (prefixed with
``jaxpad.numpy.pad``) for ``reflect`` and ``symmetric`` on an array of symbolic shape.

This module imports nothing from jaxpad, so every module may import it: the leaf
modules ``_index_maps`` and ``_checks`` too, which the lowering package imports (a
module inside that package would have made them import it back). The lowering
package's platform dispatch (``_lowering/_platform.py``) reads the lowering context;
this module is what differs between releases.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import jax
import jax.core

# jax.export: an attribute of jax after `import jax` from 0.8.0; before, only once the
# submodule is imported, which this does for every jaxpad module (jax.export.*).
# Let go with a 0.8 floor.
import jax.export  # noqa: F401
from jax import lax
from jax.experimental import jet
from jax.interpreters import ad

# Before jax 0.8, second derivatives through the conv planner's own forms disagreed
# with jnp.pad then lax.conv: forward over forward through `pad_slice` (channels-first,
# stride 1) and forward over reverse through the `border` form's autodiff
# (tests/test_conv_lowering.py, test_every_form_s_derivatives_of_order_two_equal_the_
# oracle, failed on 0.6.2 and 0.7.2 and passed on 0.8.3). The plain form (jaxpad.pad,
# then the convolution) agreed on every release, so before 0.8 the planner keeps it.
# Let go with a 0.8 floor.
CONV_FORMS_SECOND_DERIVATIVES_WRONG = tuple(
    int(part) for part in jax.__version__.split(".")[:2]
) < (0, 8)

# Before jax 0.10, reverse mode through a jax.custom_jvp function whose rule runs a
# lax.scan on the tangents fails inside JAX: an AssertionError in the scan's transpose
# (0.6.2 to 0.8.0) or a TypeError on an `ad.ValAccum` (0.8.1 to 0.9.2); 0.10.0 passes
# (a scan of one multiply-add in such a rule, checked on each of those releases,
# 2026-12-06). The recursive filters' cascade (jaxpad/scipy/_iir/_engine.py) has such
# a rule, so before 0.10 JAX differentiates its engine itself: the same derivatives.
# Let go with a 0.10 floor.
CUSTOM_JVP_SCANS_TRANSPOSE = tuple(int(part) for part in jax.__version__.split(".")[:2]) >= (
    0,
    10,
)

# jax.experimental.jet's rules: where jet takes `factorial_scaled` (0.10 does) a
# rule's series are Taylor coefficients, and a bilinear rule's k-th term is the sum of
# op(a_j, b_{k-j}); before (0.6.2), they were derivatives, and that sum weighs each
# product by binomial(k, j), as jet's own rule for lax.conv_general_dilated does.
# Let go with a floor whose jet takes `factorial_scaled`.
JET_RULE_SERIES_ARE_DERIVATIVES = "factorial_scaled" not in inspect.signature(jet.jet).parameters

# jax.errors.InconclusiveDimensionOperation: in jax.errors from 0.10.1; older releases
# export it from jax.core (0.10 still does). Let go with a 0.10.1 floor.
InconclusiveDimensionOperation = (
    getattr(jax.errors, "InconclusiveDimensionOperation", None)
    or jax.core.InconclusiveDimensionOperation
)


# jax.sharding.auto_axes and jax.sharding.reshard: in jax.sharding from 0.7.0;
# jax.experimental.shard before (same signatures). Let go with a 0.7 floor.
_shard: Any = (
    jax.sharding
    if hasattr(jax.sharding, "auto_axes")
    else importlib.import_module("jax.experimental.shard")
)
auto_axes = _shard.auto_axes
reshard = _shard.reshard


def varying_axes(value) -> frozenset:
    """The ``shard_map`` mesh axes ``value`` varies over (empty outside one).

    ``jax.typeof(x).mat.varying`` from 0.10; ``jax.typeof(x).vma`` before. Let go of
    ``vma`` with a 0.10 floor.
    """
    aval = jax.typeof(value)
    mat = getattr(aval, "mat", None)
    if mat is not None:
        return frozenset(getattr(mat, "varying", None) or ())
    return frozenset(getattr(aval, "vma", None) or ())


def pcast_to_varying(value, axes: tuple[str, ...]):
    """``value`` cast to vary over the ``shard_map`` mesh ``axes`` as well.

    ``lax.pcast(x, axes, to="varying")`` from 0.9.0; ``lax.pvary(x, axes)`` before (the
    same cast, whose transpose sums over ``axes``). Let go with a 0.9 floor.
    """
    if hasattr(lax, "pcast"):
        return lax.pcast(value, axes, to="varying")
    old_lax: Any = lax  # lax.pvary is gone from the newest releases' stubs
    return old_lax.pvary(value, axes)


def zero_tangent(primal) -> ad.Zero:
    """The symbolic zero tangent of ``primal``.

    ``ad.Zero.from_primal_value`` is gone by 0.9.2 (``ad.Zero`` keeps only
    ``instantiate``); this spelling works on every supported release, so it stays.
    """
    return ad.Zero(jax.typeof(primal).to_tangent_aval())


def varying_like(value, like):
    """``value`` cast to vary over the ``shard_map`` mesh axes ``like`` varies over
    (``value`` as it is outside ``shard_map``)."""
    axes = varying_axes(like) - varying_axes(value)
    return pcast_to_varying(value, tuple(sorted(axes))) if axes else value
