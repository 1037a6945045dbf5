"""Type aliases for jaxpad's public signatures.

They describe what the argument checks in ``_checks`` accept, so that a type checker
passes every documented input and flags the mistakes it can see: a bare int where one
entry per axis is needed (``jaxpad.pad(x, 1, 2)``), a float or a string.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

import jax
import numpy as np
from jax.typing import ArrayLike

# One static integer: a Python int, a NumPy integer scalar (``np.int64(2)``, an entry
# of a NumPy shape or index array) or a concrete 0-d integer array.
StaticInt: TypeAlias = int | np.integer[Any] | np.ndarray | jax.Array
# Static integers, one per axis: a sequence of them (a list, a tuple, an array's
# ``shape``) or a concrete 1-D integer array. Not a bare int: there is no axis count
# to repeat it over.
IntSequence: TypeAlias = Sequence[StaticInt] | np.ndarray | jax.Array
# One int for every axis, or one per axis.
IntOrSequence: TypeAlias = int | np.integer[Any] | IntSequence
# Pads that may be traced: an integer array, or a sequence whose entries are static
# ints or (traced) integer scalars. Not a bare int, as for IntSequence.
DynamicPads: TypeAlias = np.ndarray | jax.Array | Sequence[StaticInt]
# numpy's pad_width: an int, a (before, after) pair, one pair per axis, or an array of
# those.
PadWidth: TypeAlias = (
    int
    | np.integer[Any]
    | Sequence[StaticInt]
    | Sequence[Sequence[StaticInt]]
    | np.ndarray
    | jax.Array
)
# A pad mode for every side, or one entry per axis: a mode for both of its sides or a
# (begin, end) pair.
Modes: TypeAlias = str | Sequence[str | tuple[str, str] | Sequence[str]]
# A pad value: a scalar for every side that reads one, an (ndim, 2) array, or one
# (begin, end) pair per axis whose entries are scalars or arrays along the face.
PadValue: TypeAlias = ArrayLike | Sequence[tuple[ArrayLike, ArrayLike] | Sequence[ArrayLike]]
