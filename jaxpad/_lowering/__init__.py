"""Every XLA graph that jaxpad's primitives lower to, and the planners that pick them.

The package reads in one direction: public function (``_pad.py``, ``_dynamic_pad.py``,
``_window_ops.py``) -> primitive rules (same modules) -> a *plan* (``_plans``) -> one
form (``_static``, ``_dynamic``, ``_sided``). The pieces come from ``_index_maps``
(pure NumPy): per axis, which output range folds onto which source range, and how
(copy, mirror, edge run, whole periods).

- ``_plans``: the tuning constants, the index-width rules, ``Target`` and the
  planners (``plan_pad``, ``plan_fold``, ``plan_dynamic_fold``, ``plan_sided_pad``,
  ``plan_sided_fold``). They look only at static shapes, pads and the target, and
  return a small frozen dataclass naming the form before any op is built, so each
  choice is testable without compiling (tests/test_lowering.py).
- ``_static``, ``_dynamic``: the forms of static and traced pads and their folds.
- ``_sided``: the per-side formula and every graph built from it.
- ``_terms``: masked, scaled terms, which keep an inf or nan where it belongs.
- ``_platform``: registration, and the ``Target`` read from JAX's lowering context
  (what differs between JAX releases is ``jaxpad/_compat.py``, a leaf module that
  ``_index_maps`` and ``_checks`` import too).
- ``conv``: the convolution planner and its forms (above the pad primitive: its forms
  call ``jaxpad.pad``, so this package's ``__init__`` does not import it).

Platforms. On XLA:CPU the forms are the measured ones (docs/performance.md). On every
other platform the forward is ``jnp.pad``'s program (the concatenate forms), and the
fold a concatenate of boxes, until a measurement there says otherwise: ``python -m
benchmarks.platform`` measures the alternatives on whatever devices JAX offers.
Symbolic sizes (``jax.export``) on a padded axis and programs partitioned over several
devices take the slice-and-concatenate forms on every platform: they need no index
table the size of the axis, and XLA's SPMD partitioner turns slices along a sharded
axis into halo exchanges where it would all-gather a gather's operand.
"""

from jaxpad._lowering._dynamic import (
    copied_mask,
    dynamic_fold_lowering,
    dynamic_pad_lowering,
    normalized_pads,
)
from jaxpad._lowering._plans import (
    AxisFold,
    DynamicFoldPlan,
    FoldPlan,
    PadPlan,
    Target,
    active_axes,
    folds_densely,
    index_dtype,
    indexable,
    int32_indexes,
    is_sided,
    plan_dynamic_fold,
    plan_fold,
    plan_pad,
    plan_sided_fold,
    plan_sided_pad,
    side_regions,
)
from jaxpad._lowering._platform import fold_lowering, pad_lowering, register_lowering
from jaxpad._lowering._sided import (
    Faces,
    Sides,
    add_dynamic_faces,
    add_faces,
    add_static_faces,
    build_sided_fold,
    build_sided_pad,
    composed_pad,
    dynamic_sided_pad,
    face_bands,
    sided_terms,
    value_cotangent,
    value_term,
    whole_axis_coefficients,
)
from jaxpad._lowering._static import build_fold, build_pad, gather_padded
from jaxpad._lowering._terms import add_values, axis_vector, scaled_along

__all__ = [
    "AxisFold",
    "DynamicFoldPlan",
    "Faces",
    "FoldPlan",
    "PadPlan",
    "Sides",
    "Target",
    "active_axes",
    "add_dynamic_faces",
    "add_faces",
    "add_static_faces",
    "add_values",
    "axis_vector",
    "build_fold",
    "build_pad",
    "build_sided_fold",
    "build_sided_pad",
    "composed_pad",
    "copied_mask",
    "dynamic_fold_lowering",
    "dynamic_pad_lowering",
    "dynamic_sided_pad",
    "face_bands",
    "fold_lowering",
    "folds_densely",
    "gather_padded",
    "index_dtype",
    "indexable",
    "int32_indexes",
    "is_sided",
    "normalized_pads",
    "pad_lowering",
    "plan_dynamic_fold",
    "plan_fold",
    "plan_pad",
    "plan_sided_fold",
    "plan_sided_pad",
    "register_lowering",
    "scaled_along",
    "side_regions",
    "sided_terms",
    "value_cotangent",
    "value_term",
    "whole_axis_coefficients",
]
