"""benchmarks/boundary.py compares like with like: its jax-cfd-style baseline and jaxpad
build the ghost cells numpy.pad gives, side by side, for every case it times."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from benchmarks import boundary
from benchmarks.cases import BOUNDARY_CASES, BOUNDARY_VALUES


def numpy_per_side(x, width, modes, values):
    """Each side's ghost cells from numpy.pad with that side's mode on both sides, axis 0
    then axis 1."""
    for axis, pair in enumerate(boundary.side_pairs(modes, x.ndim)):
        pieces = []
        for side, mode in enumerate(pair):
            widths = [(0, 0)] * x.ndim
            widths[axis] = (width, width)
            if mode == "dirichlet":
                padded = 2 * values[axis][side] - np.pad(x, widths, mode="symmetric")
            elif mode == "constant":
                padded = np.pad(x, widths, constant_values=values[axis][side])
            elif mode.endswith("_odd"):
                padded = np.pad(x, widths, mode=mode.removesuffix("_odd"), reflect_type="odd")
            else:
                padded = np.pad(x, widths, mode=mode)
            n = padded.shape[axis]
            keep = slice(0, width) if side == 0 else slice(n - width, n)
            pieces.append(np.take(padded, np.arange(n)[keep], axis=axis))
        x = np.concatenate([pieces[0], x, pieces[1]], axis=axis)
    return x


@pytest.mark.parametrize(
    ("name", "modes", "jax_cfd"), BOUNDARY_CASES, ids=[c[0] for c in BOUNDARY_CASES]
)
@pytest.mark.parametrize("width", [1, 2, 5])
def test_both_computations_give_numpy_per_side(name, modes, jax_cfd, width):
    x = np.random.default_rng(0).standard_normal((7, 6)).astype(np.float32)
    values = jnp.asarray(BOUNDARY_VALUES, jnp.float32)
    expected = numpy_per_side(x, width, modes, BOUNDARY_VALUES)
    baseline = jax.jit(boundary.jax_cfd_boundary(modes, width))(jnp.asarray(x), values)
    np.testing.assert_allclose(baseline, expected, rtol=1e-6, atol=1e-5)
    ours = jax.jit(boundary.jaxpad_boundary(modes, width))(jnp.asarray(x), values)
    np.testing.assert_allclose(ours, expected, rtol=1e-6, atol=1e-5)
