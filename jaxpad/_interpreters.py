"""Rules for the JAX interpreters beyond jit, grad and vmap that a user may put around
jaxpad: ``jax.experimental.sparse.sparsify`` and ``jax.experimental.roofline`` here
(``jax.experimental.jet`` in ``_jet.py``). docs/interoperability.md lists every
interpreter and how jaxpad meets it.

Under ``sparsify`` a pad of a sparse (BCOO) array in ``edge``, ``reflect``,
``symmetric`` or ``wrap`` mode is the same slices, reversals and concatenates that
``jnp.pad`` is (the XLA:CPU plan of ``_lowering``), run through ``sparsify``'s own rules,
so the result is sparse as ``jnp.pad``'s is; ``jaxpad.broadcast`` is a
``broadcast_in_dim``. The others raise an error naming the primitive and ``sparsify``
rather than ``sparsify``'s generic one.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from functools import partial

import numpy as np
from jax import lax

from jaxpad import _jet  # noqa: F401  (the Taylor-mode rules, registered on import)
from jaxpad._args import describe_modes
from jaxpad._broadcast import _broadcast_lowering, broadcast_p
from jaxpad._dynamic_pad import dynamic_fold_p, dynamic_pad_p
from jaxpad._lowering import Target, pad_lowering
from jaxpad._pad import fold_p, pad_p

# The modes whose pad of a sparse array is sparse and computed by sparsify's rules.
_SPARSE_MODES = ("edge", "reflect", "symmetric", "wrap")


def _unsupported(prim, reason):
    return NotImplementedError(
        f"{prim.name} has no rule for jax.experimental.sparse.sparsify {reason}; "
        "densify the operand first (jax.experimental.sparse.todense)."
    )


def _sparse_pad(spenv, x, pad_value, *, pads_begin, pads_end, interior, mode):
    from jax.experimental import sparse
    from jax.experimental.sparse.transform import arrays_to_spvalues, spvalues_to_arrays

    if mode not in _SPARSE_MODES:
        # Constant and dirichlet pads fill with a value, which makes the result dense
        # unless the value is 0, which is not known while tracing.
        raise _unsupported(
            pad_p, f"with mode={describe_modes(mode)} (only {', '.join(_SPARSE_MODES)})"
        )
    x, pad_value = spvalues_to_arrays(spenv, (x, pad_value))
    if mode == "edge":
        fn = partial(_edge_pad, pads_begin=pads_begin, pads_end=pads_end)
    else:
        fn = partial(
            pad_lowering,
            pads_begin=pads_begin,
            pads_end=pads_end,
            interior=interior,
            mode=mode,
            target=Target("cpu", False),
        )
    out = sparse.sparsify(fn)(x, pad_value)
    return arrays_to_spvalues(spenv, (out,))


def _edge_pad(x, pad_value, *, pads_begin, pads_end):
    """Edge padding as slices and concatenates only: sparsify cannot broadcast a sparse
    axis of size 1 to a longer one, as the plan's edge bands do."""
    del pad_value
    for axis, (lo, hi) in enumerate(zip(pads_begin, pads_end)):
        n = x.shape[axis]
        sources = np.clip(np.arange(lo + n + hi) - lo, 0, n - 1)
        # Runs of consecutive sources are slices; a repeated edge element is a run of one.
        breaks = np.flatnonzero(np.diff(sources) != 1) + 1
        parts = [
            lax.slice_in_dim(x, int(run[0]), int(run[-1]) + 1, axis=axis)
            for run in np.split(sources, breaks)
            if run.size
        ] or [lax.slice_in_dim(x, 0, 0, axis=axis)]
        x = lax.concatenate(parts, axis) if len(parts) > 1 else parts[0]
    return x


def _sparse_broadcast(spenv, x, **params):
    from jax.experimental import sparse
    from jax.experimental.sparse.transform import arrays_to_spvalues, spvalues_to_arrays

    (x,) = spvalues_to_arrays(spenv, (x,))
    out = sparse.sparsify(partial(_broadcast_lowering, **params))(x)
    return arrays_to_spvalues(spenv, (out,))


def _raise_for(prim, what):
    def rule(spenv, *spvalues, **params):
        del spenv, spvalues, params
        raise _unsupported(prim, what)

    return rule


# jax.experimental.roofline: what each primitive moves (every operand read, the output
# written once); a fold also adds each cotangent element once. lax.pad's rule counts
# nothing; these count the copy, as the elementwise primitives' rules do.


def _roofline(ctx, *args, adds=False, **params):
    from jax.experimental import roofline

    del args, params
    shapes = [roofline.RooflineShape.from_aval(aval) for aval in (*ctx.avals_in, *ctx.avals_out)]
    moved = sum(shape.dtype.itemsize * shape.size for shape in shapes)
    added = roofline.RooflineShape.from_aval(ctx.avals_in[0]).size if adds else 0
    return roofline.RooflineResult(unfused_flops=added, unfused_hbm_bytes=moved)


def _register_roofline(module) -> None:
    for prim in (pad_p, dynamic_pad_p, broadcast_p):
        module.register_roofline(prim)(_roofline)
    for prim in (fold_p, dynamic_fold_p):
        module.register_roofline(prim)(partial(_roofline, adds=True))


def _register_sparse(module) -> None:
    rules = module.sparse_rules_bcoo
    rules[pad_p] = _sparse_pad
    rules[broadcast_p] = _sparse_broadcast
    rules[fold_p] = _raise_for(fold_p, "(the gradient of jaxpad.pad)")
    rules[dynamic_pad_p] = _raise_for(dynamic_pad_p, "(jaxpad.dynamic_pad)")
    rules[dynamic_fold_p] = _raise_for(dynamic_fold_p, "(the gradient of jaxpad.dynamic_pad)")


# Registration when the interpreter's module is imported, not before: importing
# jax.experimental.sparse takes 0.35-0.4 s, twice jaxpad's own import, and most users
# never sparsify.


class _RegisterOnImport(importlib.abc.MetaPathFinder):
    """Runs ``register(module)`` right after the module ``name`` is first executed."""

    def __init__(self, name, register):
        self.name, self.register = name, register

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        # The regular finders' spec, its loader's exec_module extended on this one
        # loader instance (the module keeps its own loader, source and file).
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        loader, register = spec.loader, self.register
        execute = loader.exec_module

        def exec_module(module):
            execute(module)
            register(module)

        loader.exec_module = exec_module
        return spec


def _on_import(name: str, register) -> None:
    module = sys.modules.get(name)
    if module is not None:
        register(module)
    else:
        sys.meta_path.insert(0, _RegisterOnImport(name, register))


_on_import("jax.experimental.roofline.roofline", _register_roofline)
_on_import("jax.experimental.sparse.transform", _register_sparse)
