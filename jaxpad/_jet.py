"""Taylor-mode rules (``jax.experimental.jet``) for jaxpad's primitives.

Every jaxpad primitive is linear in its array operands jointly (the array and the pad
value: ``2 * value - mirror`` is linear too), so the Taylor series of its output is the
primitive applied to each coefficient of the inputs' series. ``jet`` instantiates the
series of a constant operand as zeros, so a constant pad value contributes nothing to the
higher coefficients and a traced one contributes its own series. The integer operands
(``dynamic_pad``'s offsets) are not differentiated: every coefficient reads the primal
offsets. ``jaxpad_planned_conv`` (a convolution planned for its batched shape) is
bilinear: its series is that of the plain form, the pad then the convolution, whose
primitives ``jet`` knows (the planner's other forms choose a program per platform
through a ``cond``, which ``jet`` has no rule for).
"""

from __future__ import annotations

from jax.experimental import jet

from jaxpad._broadcast import broadcast_p
from jaxpad._dynamic_pad import dynamic_fold_p, dynamic_pad_p
from jaxpad._lowering.conv import ConvPlan, build_conv, planned_conv_p
from jaxpad._pad import fold_p, pad_p
from jaxpad._sharded_pad import _marker_p


def _with_offsets(prim, primals_in, series_in, **params):
    """A primitive linear in all its operands but the last, an integer offset."""
    *linear, offsets = primals_in
    primal_out = prim.bind(*primals_in, **params)
    series_out = [prim.bind(*terms, offsets, **params) for terms in zip(*series_in[: len(linear)])]
    return primal_out, series_out


def _planned_conv(primals_in, series_in, **params):
    geometry = [params.pop(name) for name in ("strides", "pads", "mode", "numbers")]

    def plain(x, kernel):
        return build_conv(ConvPlan("plain"), x, kernel, *geometry, **params)

    return jet.jet(plain, primals_in, series_in)


def _register() -> None:
    for prim in (pad_p, fold_p, broadcast_p, _marker_p):
        jet.deflinear(prim)
    for prim in (dynamic_pad_p, dynamic_fold_p):
        jet.jet_rules[prim] = lambda primals, series, _prim=prim, **params: _with_offsets(
            _prim, primals, series, **params
        )
    jet.jet_rules[planned_conv_p] = _planned_conv


_register()
