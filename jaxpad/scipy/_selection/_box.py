"""``jaxpad_scipy_box``: the passes of a box minimum/maximum filter.

A box of min/max passes (``box``) is those passes bound one by one, except on arrays
past ``_BOX_SLAB_BYTES`` with two or more passes off axis 0: there one primitive
(``jaxpad_scipy_box``) runs those passes slab by slab along axis 0 in a loop, then the
pass along axis 0, so that two full-size intermediates are never live together; its
derivatives are the passes' own.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from jaxpad.scipy._selection._extreme import (
    _extreme_impl,
    _extreme_linearize,
    _scan_batch,
    extreme,
    extreme_p,
)

# A box of at least two passes along axes other than 0, on an array of at least this
# many bytes, runs those passes slab by slab along axis 0 (``box_p``), then the pass
# along axis 0, if any, over the whole: run whole, each pass' output (and pad) is a
# full-size temporary, and two of them (2 x 16 MiB for float64 at 128x128x128) put
# XLA:CPU's block of temporaries past glibc's 32 MiB mmap threshold, page-faulted on
# every call (8.4-8.7 thousand faults). Slab by slab they take 18-20 MiB: the float64
# maximum filter at 128x128x128 took 2.3-3.6x less time; below this size (float32
# 128x128x128, 16-17 MiB, no faults) size 5 took 1.15x longer so
# (docs/performance.md, "the float64 maximum filters at 128x128x128").
_BOX_SLAB_BYTES = 15 << 20
# Each slab of the box's slab form holds about this many bytes of x (rows of axis 0):
# slabs of 1-4 MiB took about the same time (float64 maximum 3 at 128x128x128: 6.3-6.9
# ms; 9: 10.4-11.2 ms), 0.5 MiB up to 1.14x longer and 8 MiB 1.45x (same section).
_BOX_SLAB_TARGET = 2 << 20


# box(x, cval): the passes of a box minimum/maximum filter, one ``extreme`` after
# another (``passes`` in order, each (size, axis, begin, mode, flat)). Bound as one
# primitive only where its forward runs slab by slab (``_box_impl``); its tangent and
# Taylor terms are the passes' own, composed (``_box_linearize``), so derivatives
# read the same programs as the passes bound one by one.
box_p = Primitive("jaxpad_scipy_box")


def _slab_form(shape, itemsize, passes) -> bool:
    """Whether the box on an array of ``shape`` runs its passes off axis 0 slab by
    slab: two or more of them, any pass along axis 0 after them, and x past
    ``_BOX_SLAB_BYTES``."""
    axes = [p[1] for p in passes]
    inner = [a for a in axes if a != 0]
    return (
        len(shape) >= 2
        and all(isinstance(n, (int, np.integer)) for n in shape)  # not symbolic
        and 0 not in shape
        and 2 <= shape[0] <= np.iinfo(np.int32).max  # int32 slab starts (no wrap)
        and len(inner) >= 2
        and axes[: len(inner)] == inner  # the pass along axis 0 (if any) comes last
        and int(np.prod(shape)) * itemsize >= _BOX_SLAB_BYTES
    )


def box(x, cval, *, passes, minimum: bool):
    """The min/max over a box: ``extreme`` along each of ``passes`` (tuples
    ``(size, axis, begin, mode, flat)``, applied in order), the same values, tangents
    and Taylor terms as those passes bound one by one. Past ``_BOX_SLAB_BYTES`` the
    passes off axis 0 run slab by slab along it (one primitive, ``jaxpad_scipy_box``)."""
    passes = tuple((int(s), int(a), int(b), str(m), bool(f)) for s, a, b, m, f in passes)
    cval = jnp.asarray(cval, x.dtype)
    if _slab_form(x.shape, np.dtype(x.dtype).itemsize, passes):
        return box_p.bind(x, cval, passes=passes, minimum=minimum)
    for size, axis, begin, mode, flat in passes:
        x = extreme(
            x, cval, size=size, axis=axis, begin=begin, mode=mode, minimum=minimum, flat=flat
        )
    return x


def _pass_params(p, minimum):
    size, axis, begin, mode, flat = p
    return dict(size=size, axis=axis, begin=begin, mode=mode, minimum=minimum, flat=flat)


def _box_impl(x, cval, *, passes, minimum):
    if not _slab_form(x.shape, np.dtype(x.dtype).itemsize, passes):
        for p in passes:
            x = extreme_p.bind(x, cval, **_pass_params(p, minimum))
        return x
    inner = [p for p in passes if p[1] != 0]
    outer = [p for p in passes if p[1] == 0]
    n = x.shape[0]
    row = int(np.prod(x.shape[1:])) * np.dtype(x.dtype).itemsize
    h = max(1, min(n, _BOX_SLAB_TARGET // row))
    count = -(-n // h)

    def slab(i, c):
        # The last slab starts at n - h (overlapping the one before: the same values
        # written twice); the passes off axis 0 do not read across it.
        start = jnp.minimum(i * h, n - h)
        v = lax.dynamic_slice_in_dim(x, start, h, axis=0)
        for p in inner:
            v = extreme_p.bind(v, cval, **_pass_params(p, minimum))
        return lax.dynamic_update_slice_in_dim(c, v, start, axis=0)

    # The slabs written in place into one buffer (a loop: as separate pieces joined by
    # a concatenate or updates, XLA kept every piece's temporaries live at once).
    y = lax.fori_loop(0, count, slab, jnp.zeros(x.shape, x.dtype))
    for p in outer:
        # Along axis 0 from strips of its first and last rows, not a pad of the whole
        # (a second full-size temporary); the values are the same.
        y = extreme_p.bind(y, cval, **{**_pass_params(p, minimum), "flat": True})
    return y


def _box_plain(x, cval, *, passes, minimum):
    """The box's passes one after another, without the slab loop (for exporters
    that lower each primitive to a loop-free program, as jaxpad/onnx.py)."""
    for p in passes:
        x = _extreme_impl(x, cval, **_pass_params(p, minimum))
    return x


def _box_linearize(x, cval, params):
    """(y, tangent): the passes' own linearizations, composed."""
    tangents = []
    for p in params["passes"]:
        x, t = _extreme_linearize(x, cval, _pass_params(p, params["minimum"]))
        tangents.append(t)

    def tangent(dx, dcval):
        for t in tangents:
            dx = t(dx, dcval)
        return dx

    return x, tangent


def _box_jvp(primals, tangents, **params):
    x, cval = primals
    y, tangent = _box_linearize(x, cval, params)
    return y, tangent(*(ad.instantiate_zeros(t) for t in tangents))


def _box_batch(args, dims, *, passes, minimum):
    params = dict(passes=passes, minimum=minimum)
    if dims[1] is not None:
        return _scan_batch(box_p, args, dims, params)
    x = batching.bdim_at_front(args[0], dims[0], args[0].shape[dims[0]])
    shifted = tuple((s, a + 1, b, m, f) for s, a, b, m, f in passes)
    return box_p.bind(x, args[1], passes=shifted, minimum=minimum), 0


box_p.def_impl(_box_impl)
box_p.def_abstract_eval(lambda x, cval, **_: x.update(shape=x.shape, dtype=x.dtype))
ad.primitive_jvps[box_p] = _box_jvp
batching.primitive_batchers[box_p] = _box_batch
mlir.register_lowering(box_p, mlir.lower_fun(_box_impl, multiple_results=False))
