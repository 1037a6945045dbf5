"""Type aliases for jaxpad's public signatures."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from jax.typing import ArrayLike

# Static integers, one per axis: Python ints, a tuple, or a concrete 1-D integer array.
IntSequence = Sequence[int] | np.ndarray | ArrayLike
# An int for every axis, or one per axis.
IntOrSequence = int | Sequence[int]
# Pads that may be traced: an integer array, or ints and traced scalars mixed.
DynamicPads = ArrayLike | Sequence[int | ArrayLike]
# numpy's pad_width: an int, a (before, after) pair, or one pair per axis.
PadWidth = int | Sequence[int] | Sequence[Sequence[int]] | np.ndarray
