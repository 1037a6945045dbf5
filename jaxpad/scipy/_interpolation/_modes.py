"""scipy.ndimage's interpolation modes: where each reads at and beyond the edge.

scipy's interpolation (``ni_interpolation.c``, ``NI_GeometricTransform``) treats a
coordinate in three steps, and the modes differ in each:

1. the coordinate is mapped into the grid (``map_coordinate``): periodically with
   period ``2n - 2`` and a mirror about ``0`` and ``n - 1`` (``mirror``), period
   ``2n`` and a mirror about ``-1/2`` and ``n - 1/2`` (``reflect``, ``grid-mirror``),
   period ``n`` (``grid-wrap``), or period ``n - 1`` into ``[0, n - 1]`` (``wrap``,
   whose ends then meet with a jump unless the first and last samples agree); a
   ``constant`` coordinate outside ``[0, n - 1]`` on any axis gives ``cval``;
   ``nearest`` and ``grid-constant`` leave it as it is.
2. the spline's taps beyond the edge read the coefficients extended by the mode the
   prefilter assumed (``_get_spline_boundary_mode``): mirror for ``constant``,
   ``wrap`` and ``mirror``; half-sample symmetric for ``reflect``/``grid-mirror``;
   periodic for ``grid-wrap``; the edge coefficient for ``nearest``; ``cval`` itself
   (not a coefficient) for ``grid-constant``.
3. the prefilter (``ni_splines.c``, ``apply_filter``) solves for coefficients whose
   spline interpolates the samples with the signal extended whole-sample symmetric
   (``constant``, ``wrap``, ``mirror``, ``grid-constant``), half-sample symmetric
   (``reflect``, ``grid-mirror``, ``nearest``) or periodic (``grid-wrap``);
   ``nearest`` and ``grid-constant`` first pad the input by 12 samples of its edge /
   of ``cval`` (``_prepad_for_spline_filter``), which is why their splines only
   approach the edge value / ``cval`` beyond the edge.

Each mode's row below names those choices in jaxpad's pad modes.
"""

from __future__ import annotations

from typing import NamedTuple

MODES = (
    "constant",
    "grid-constant",
    "nearest",
    "mirror",
    "reflect",
    "grid-mirror",
    "wrap",
    "grid-wrap",
)

# scipy.ndimage's default prepad for nearest and grid-constant (_prepad_for_spline_filter).
PREPAD = 12


class Mode(NamedTuple):
    # the jaxpad mode of the signal extension the prefilter solves for
    prefilter: str
    # the jaxpad mode of the coefficients' extension the spline's taps read
    taps: str
    # how a coordinate is brought into the grid (see _map.reduce_coordinate)
    coordinate: str
    # scipy's prepad before the prefilter: None, "edge" or "constant" (cval)
    prepad: str | None


TABLE = {
    "constant": Mode("reflect", "reflect", "inside", None),
    "grid-constant": Mode("reflect", "constant", "clamp", "constant"),
    "nearest": Mode("symmetric", "edge", "clamp", "edge"),
    "mirror": Mode("reflect", "reflect", "mirror", None),
    "reflect": Mode("symmetric", "symmetric", "reflect", None),
    "grid-mirror": Mode("symmetric", "symmetric", "reflect", None),
    "wrap": Mode("reflect", "reflect", "wrap", None),
    "grid-wrap": Mode("wrap", "wrap", "grid-wrap", None),
}


# The coordinate reductions that are the period of their taps' extension: there the
# spline of the extension at a coordinate is the spline at the reduced one.
PERIODIC_TAPS = {"mirror": "reflect", "reflect": "symmetric", "grid-wrap": "wrap"}


def check_mode(fn_name: str, mode: object, name: str = "mode") -> Mode:
    """The row of ``mode``, or a ``ValueError`` naming the function and the value."""
    if isinstance(mode, str) and mode in TABLE:
        return TABLE[mode]
    known = ", ".join(repr(m) for m in MODES)
    raise ValueError(f"{fn_name}: {name} must be one of {known}; got {mode!r}.")
