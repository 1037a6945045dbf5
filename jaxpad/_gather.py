"""One ``lax.gather`` that reads an array through per-axis index tables.

Both the static and the dynamic pad lower to it. Tables may differ per example:
the array's leading ``num_batch`` axes are then gather batching dimensions, so each
example reads through its own tables without any table as large as the output.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax


def gather_tables(x, tables: dict, num_batch: int = 0):
    """``out[b, .., i_a, ..] = x[b, .., tables[a][b, i_a], ..]`` for every axis ``a`` in ``tables``.

    Args:
      x: the array; its first ``num_batch`` axes index examples.
      tables: axis -> integer table of shape ``x.shape[:num_batch] + (size,)`` (one
        table per example) or ``(size,)`` (shared). Entries must be in bounds. Axes
        not in ``tables`` are read whole.
      num_batch: leading axes of ``x`` shared by the tables.

    Returns:
      The gathered array; axis ``a`` has the length of its table.
    """
    axes = sorted(tables)
    if not axes:
        return x
    batch_shape = x.shape[:num_batch]
    index_shape = batch_shape + tuple(tables[a].shape[-1] for a in axes)
    # int32 unless a traced table is int64 (an axis too long for int32,
    # ``_lowering.index_dtype``); static NumPy tables are int32 whatever NumPy made.
    wide = any(not isinstance(tables[a], np.ndarray) and tables[a].dtype == np.int64 for a in axes)
    dtype = jnp.int64 if wide else jnp.int32
    columns = []
    for position, axis in enumerate(axes):
        table = jnp.asarray(tables[axis]).astype(dtype)
        dims: tuple[int, ...]
        if table.ndim == 1:
            dims = (num_batch + position,)
        else:
            dims = tuple(range(num_batch)) + (num_batch + position,)
        columns.append(lax.broadcast_in_dim(table, index_shape, dims))
    indices = jnp.stack(columns, axis=-1)
    # Output axes keep their input positions: the batch axes come first among the
    # index dimensions, then the indexed axes in order, filling the positions that
    # the whole-read (offset) axes leave free.
    batch_axes = tuple(range(num_batch))
    offset_dims = tuple(a for a in range(num_batch, x.ndim) if a not in tables)
    dimension_numbers = lax.GatherDimensionNumbers(
        offset_dims=offset_dims,
        collapsed_slice_dims=tuple(axes),
        start_index_map=tuple(axes),
        operand_batching_dims=batch_axes,
        start_indices_batching_dims=batch_axes,
    )
    slice_sizes = tuple(1 if a < num_batch or a in tables else x.shape[a] for a in range(x.ndim))
    return lax.gather(
        x, indices, dimension_numbers, slice_sizes, mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS
    )


def broadcast_table(table, out_shape, axis: int, num_batch: int):
    """Broadcasts a per-axis table (shared or per example) to ``out_shape`` along ``axis``."""
    table = jnp.asarray(table)
    dims = (axis,) if table.ndim == 1 else tuple(range(num_batch)) + (axis,)
    return lax.broadcast_in_dim(table, out_shape, dims)
