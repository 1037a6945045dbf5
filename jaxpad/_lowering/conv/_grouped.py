"""The grouped forms: ``"grouped_taps"`` (a grouped convolution as shifted multiply-adds,
one per tap and input channel of a group, differentiated by autodiff or, as the planner
names it, in the block-diagonal form) and ``"block_diagonal"`` (a tangent form: the
ungrouped convolution by the kernel spread into a block-diagonal one)."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad._lowering.conv._layout import _canonical, _from_channels_last


def _grouped_taps(xp, kernel, numbers, strides, dilation, groups):
    """A grouped VALID convolution of the padded ``xp`` as the sum over the kernel's
    taps and each group's input channels of a static slice times that channel's
    weights for the group's outputs; XLA fuses it into one loop."""
    x_cl, k_can = _canonical(xp, kernel, numbers)
    out, group_in, *window = k_can.shape
    x_groups = x_cl.reshape(*x_cl.shape[:-1], groups, group_in)
    k_groups = k_can.reshape(groups, out // groups, group_in, *window)
    sizes = x_cl.shape[1:-1]
    outs = [(n - d * (k - 1) - 1) // s + 1 for n, k, d, s in zip(sizes, window, dilation, strides)]
    total = None
    for offset in np.ndindex(*window):
        start = [0] * x_groups.ndim
        limit = list(x_groups.shape)
        step = [1] * x_groups.ndim
        for a, (o, d, n, s) in enumerate(zip(offset, dilation, outs, strides), start=1):
            start[a], limit[a], step[a] = o * d, o * d + (n - 1) * s + 1, s
        window_slice = lax.slice(x_groups, start, limit, step)
        for c in range(group_in):
            weights = k_groups[(slice(None), slice(None), c, *offset)]  # (groups, outputs)
            term = window_slice[..., c : c + 1] * weights
            total = term if total is None else total + term
    return _from_channels_last(total.reshape(*total.shape[:-2], out), numbers)


def _block_diagonal(kernel, numbers, groups):
    """A grouped convolution's kernel as the ungrouped one: group g's block on the
    diagonal, zeros elsewhere (in ``kernel``'s layout). Selected, not multiplied by an
    identity: a non-finite tap stays in its block (``0 * inf`` would put ``nan`` in
    every group's; docs/semantics.md, "Infinities and nan")."""
    k_can = jnp.moveaxis(kernel, numbers.rhs_spec, range(kernel.ndim))  # (O, I, *window)
    out, group_in, *window = k_can.shape
    blocks = k_can.reshape(groups, out // groups, 1, group_in, *window)
    diagonal = np.eye(groups, dtype=bool).reshape(groups, 1, groups, 1, *[1] * len(window))
    dense = jnp.where(diagonal, blocks, jnp.zeros((), kernel.dtype))
    dense = dense.reshape(out, groups * group_in, *window)
    return jnp.moveaxis(dense, range(kernel.ndim), numbers.rhs_spec)


def _block_diagonal_form(kernel, numbers, groups, padding, strides, lhs_dilation):
    """The block-diagonal form (``"block_diagonal"``, a tangent form): ``kernel`` spread
    into the ungrouped one, and the form of that ungrouped convolution (``"pad_slice"``
    and its axis, or ``"plain"``), as ``(kernel, form, slice_axis)``."""
    spatial = len(numbers.rhs_spec) - 2
    kernel = _block_diagonal(kernel, numbers, groups)
    window = [kernel.shape[a] for a in numbers.rhs_spec[2:]]
    wide = [i for i, k in enumerate(window) if k > 1]
    # The ungrouped conv's own rule (table "Padded convolutions"): one extra zero
    # where its padding would be all zero, 2-D and 3-D at stride 1.
    flat = all(p == (0, 0) for p in padding)
    unit = all(s == 1 for s in strides) and all(d == 1 for d in lhs_dilation or ())
    if wide and flat and unit and spatial >= 2:
        return kernel, "pad_slice", wide[0]
    return kernel, "plain", None
