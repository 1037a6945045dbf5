"""Taylor-mode rules (``jax.experimental.jet``) for the minimum, maximum and rank
filters' primitives.

The filters (``jaxpad_scipy_extreme``, ``jaxpad_scipy_box``, ``jaxpad_scipy_selection``)
select one element of each window, piecewise: each coefficient of the output's series
is the same selection of the input's coefficient, the tangent map of their JVP
(``winner``, ``selected``), which is linear in the array and ``cval`` with the primal
values (the index, the window's values) fixed. They are primitives rather than a
``custom_jvp`` because ``jet`` of a ``custom_jvp`` leaks a tracer (jax 0.10.2).
"""

from __future__ import annotations

from jax.experimental import jet

from jaxpad.scipy._selection._box import _box_linearize, box_p
from jaxpad.scipy._selection._extreme import _extreme_linearize, extreme_p, winner_p
from jaxpad.scipy._selection._selected import selected_p
from jaxpad.scipy._selection._windows import _selection_linearize, selection_p


def _linear_in_first_two(prim):
    """A primitive linear in its first two operands (the array, ``cval``), the others
    (an index, the primal values) read as they are by every coefficient."""

    def rule(primals_in, series_in, **params):
        fixed = primals_in[2:]
        out = prim.bind(*primals_in, **params)
        terms = [prim.bind(dx, dc, *fixed, **params) for dx, dc in zip(*series_in[:2])]
        return out, terms

    return rule


def _selecting(linearize):
    def rule(primals_in, series_in, **params):
        x, cval = primals_in
        y, tangent = linearize(x, cval, params)
        return y, [tangent(dx, dc) for dx, dc in zip(*series_in)]

    return rule


jet.jet_rules[winner_p] = _linear_in_first_two(winner_p)
jet.jet_rules[selected_p] = _linear_in_first_two(selected_p)
jet.jet_rules[extreme_p] = _selecting(_extreme_linearize)
jet.jet_rules[selection_p] = _selecting(_selection_linearize)
jet.jet_rules[box_p] = _selecting(_box_linearize)
