"""Property-based tests: pad, dynamic_pad and broadcast on random ranks, sizes, pads,
modes and dtypes, against numpy and dense linear references.

Each property draws ranks 0-5 and sizes 0-7, pads in [-2n-2, 2n+2] with a valid output,
and checks: the value against the oracle (``numpy.pad`` with the index rule of docs/semantics.md,
``numpy.broadcast_to``), the shape rule against ``jax.eval_shape``, eager against jit,
and the VJP against ``jax.linear_transpose`` of a dense 0/1-matrix reference. The number
of examples comes from the hypothesis profile in ``tests/conftest.py``. The 64-bit
dtypes run under ``jax.enable_x64``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

import jaxpad
from tests.cases import DTYPES, MODES
from tests.compat import enable_x64
from tests.oracles import dense_pad_matrix, numpy_pad

# Keeps every example small enough to compile and check in well under a second.
MAX_OUTPUT = 2048
MAX_DENSE = 48  # input elements for the dense-matrix VJP reference


@st.composite
def pad_cases(draw, *, any_mode=True):
    mode = draw(st.sampled_from(MODES)) if any_mode else "constant"
    shape = tuple(draw(st.lists(st.integers(0, 7), min_size=0, max_size=5)))
    pads_begin, pads_end = [], []
    for n in shape:
        low = draw(st.integers(-2 * n - 2, 2 * n + 2))
        if mode != "constant" and n == 0:
            # Only constant mode can fill an empty axis; other modes need an empty output.
            high = -low
        else:
            high = draw(st.integers(max(-2 * n - 2, -n - low), 2 * n + 2))
        pads_begin.append(low)
        pads_end.append(high)
    out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, shape, pads_end))
    assume(int(np.prod(out_shape, dtype=np.int64)) <= MAX_OUTPUT)
    seed = draw(st.integers(0, 2**32 - 1))
    return mode, shape, pads_begin, pads_end, seed


def _random_array(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(-3, 4, size=shape)
    if dtype == jnp.bool_:
        return values > 0
    if jnp.issubdtype(dtype, jnp.unsignedinteger):
        values = np.abs(values)
    return values.astype(dtype)


def _dense_vjp(matrix, out_shape, x, cotangent):
    """The VJP of ``x -> matrix @ x`` by jax.linear_transpose: no jaxpad involved."""
    dense = jnp.asarray(matrix, jnp.float32)

    def reference(flat_x):
        return (dense @ flat_x.ravel()).reshape(out_shape)

    (transposed,) = jax.linear_transpose(reference, x)(cotangent)
    return transposed


@given(pad_cases(), st.sampled_from(DTYPES))
def test_pad_matches_numpy_shape_rule_and_jit(case, dtype):
    mode, shape, pads_begin, pads_end, seed = case
    x = _random_array(shape, dtype, seed)

    def pad(x):
        return jaxpad.pad(x, pads_begin, pads_end, mode)

    eager = pad(x)
    expected = numpy_pad(x, pads_begin, pads_end, mode)
    np.testing.assert_array_equal(eager, expected)
    assert eager.dtype == dtype
    shape_rule = jax.eval_shape(pad, x)
    assert (shape_rule.shape, shape_rule.dtype) == (eager.shape, eager.dtype)
    np.testing.assert_array_equal(jax.jit(pad)(x), eager)


@given(pad_cases())
def test_pad_vjp_is_the_dense_transpose(case):
    mode, shape, pads_begin, pads_end, seed = case
    assume(int(np.prod(shape, dtype=np.int64)) <= MAX_DENSE)
    x = _random_array(shape, np.float32, seed)
    matrix, out_shape = dense_pad_matrix(shape, pads_begin, pads_end, mode)
    cotangent = _random_array(out_shape, np.float32, seed + 1)
    _, vjp = jax.vjp(lambda x: jaxpad.pad(x, pads_begin, pads_end, mode), x)
    np.testing.assert_allclose(vjp(cotangent)[0], _dense_vjp(matrix, out_shape, x, cotangent))


@st.composite
def dynamic_pad_cases(draw):
    mode, shape, pads_begin, pads_end, seed = draw(pad_cases())
    out_shape = tuple(lo + n + hi for lo, n, hi in zip(pads_begin, shape, pads_end))
    return mode, shape, pads_begin, out_shape, seed


@given(dynamic_pad_cases(), st.sampled_from(DTYPES))
def test_dynamic_pad_matches_numpy_shape_rule_and_jit(case, dtype):
    mode, shape, pads_begin, out_shape, seed = case
    x = _random_array(shape, dtype, seed)
    pads = np.asarray(pads_begin, np.int32).reshape(len(shape))

    def pad(x, pads):
        return jaxpad.dynamic_pad(x, pads, out_shape, mode)

    eager = pad(x, pads)
    pads_end = [size - n - lo for size, n, lo in zip(out_shape, shape, pads_begin)]
    np.testing.assert_array_equal(eager, numpy_pad(x, pads_begin, pads_end, mode))
    shape_rule = jax.eval_shape(pad, x, pads)
    assert (shape_rule.shape, shape_rule.dtype) == (eager.shape, eager.dtype)
    np.testing.assert_array_equal(jax.jit(pad)(x, pads), eager)


@given(dynamic_pad_cases())
def test_dynamic_pad_vjp_is_the_dense_transpose(case):
    mode, shape, pads_begin, out_shape, seed = case
    assume(int(np.prod(shape, dtype=np.int64)) <= MAX_DENSE)
    x = _random_array(shape, np.float32, seed)
    pads_end = [size - n - lo for size, n, lo in zip(out_shape, shape, pads_begin)]
    matrix, _ = dense_pad_matrix(shape, pads_begin, pads_end, mode)
    cotangent = _random_array(out_shape, np.float32, seed + 1)
    pads = jnp.asarray(np.asarray(pads_begin, np.int32).reshape(len(shape)))
    _, vjp = jax.vjp(lambda x: jaxpad.dynamic_pad(x, pads, out_shape, mode), x)
    np.testing.assert_allclose(vjp(cotangent)[0], _dense_vjp(matrix, out_shape, x, cotangent))


@st.composite
def broadcast_cases(draw):
    mode = draw(st.sampled_from(("numpy", "explicit", "bidirectional")))
    target = tuple(draw(st.lists(st.integers(0, 7), min_size=0, max_size=5)))
    assume(int(np.prod(target, dtype=np.int64)) <= MAX_OUTPUT)
    if mode == "explicit":
        axes = sorted(draw(st.sets(st.integers(0, max(len(target) - 1, 0)))) if target else [])
        shape = tuple(draw(st.sampled_from((target[a], 1))) for a in axes)
        return mode, shape, target, axes, draw(st.integers(0, 2**32 - 1))
    rank = draw(st.integers(0, len(target)))
    trailing = target[len(target) - rank :]
    shape = tuple(draw(st.sampled_from((n, 1))) for n in trailing)
    if mode == "bidirectional":
        # Either side may hold the 1: swap some axes' roles.
        target = target[: len(target) - rank] + tuple(
            1 if draw(st.booleans()) and n > 1 and s == n else n for n, s in zip(trailing, shape)
        )
    return mode, shape, target, None, draw(st.integers(0, 2**32 - 1))


def _broadcast_oracle(x, target, mode, axes):
    if mode == "explicit":
        expanded_shape = [1] * len(target)
        for axis, n in zip(axes, x.shape):
            expanded_shape[axis] = n
        return np.broadcast_to(x.reshape(expanded_shape), target)
    if mode == "bidirectional":
        return np.broadcast_to(x, np.broadcast_shapes(x.shape, target))
    return np.broadcast_to(x, target)


@given(broadcast_cases(), st.sampled_from(DTYPES))
def test_broadcast_matches_numpy_shape_rule_and_jit(case, dtype):
    mode, shape, target, axes, seed = case
    x = _random_array(shape, dtype, seed)

    def broadcast(x):
        return jaxpad.broadcast(x, target, mode, axes)

    eager = broadcast(x)
    np.testing.assert_array_equal(eager, _broadcast_oracle(x, target, mode, axes))
    shape_rule = jax.eval_shape(broadcast, x)
    assert (shape_rule.shape, shape_rule.dtype) == (eager.shape, eager.dtype)
    np.testing.assert_array_equal(jax.jit(broadcast)(x), eager)


@given(broadcast_cases())
def test_broadcast_vjp_is_the_dense_transpose(case):
    mode, shape, target, axes, seed = case
    size = int(np.prod(shape, dtype=np.int64))
    assume(size <= MAX_DENSE)
    x = _random_array(shape, np.float32, seed)
    columns = [
        _broadcast_oracle(np.eye(size, dtype=np.float32)[k].reshape(shape), target, mode, axes)
        for k in range(size)
    ]
    out_shape = _broadcast_oracle(x, target, mode, axes).shape
    matrix = np.stack([c.ravel() for c in columns], axis=1) if columns else np.zeros((0, 0))
    matrix = matrix.reshape(int(np.prod(out_shape, dtype=np.int64)), size)
    cotangent = _random_array(out_shape, np.float32, seed + 1)
    _, vjp = jax.vjp(lambda x: jaxpad.broadcast(x, target, mode, axes), x)
    np.testing.assert_allclose(vjp(cotangent)[0], _dense_vjp(matrix, out_shape, x, cotangent))


@given(pad_cases(), st.sampled_from([jnp.int64, jnp.uint64, jnp.float64, jnp.complex128]))
def test_64_bit_dtypes_under_x64(case, dtype):
    mode, shape, pads_begin, pads_end, seed = case
    with enable_x64(True):
        x = _random_array(shape, dtype, seed)
        expected = numpy_pad(x, pads_begin, pads_end, mode)
        padded = jax.jit(lambda x: jaxpad.pad(x, pads_begin, pads_end, mode))(x)
        assert padded.dtype == dtype
        np.testing.assert_array_equal(padded, expected)
        pads = np.asarray(pads_begin, np.int64).reshape(len(shape))
        shifted = jaxpad.dynamic_pad(x, pads, expected.shape, mode)
        np.testing.assert_array_equal(shifted, expected)
        np.testing.assert_array_equal(
            jaxpad.broadcast(x, (2, *shape)), np.broadcast_to(x, (2, *shape))
        )


# dynamic_pad's traced pads, in every integer dtype --------------------------------
# The pad arithmetic must not overflow in the pads' own dtype: an int8 pad on an axis
# of 224, or int32's minimum, once gave wrong results under jit and nowhere else.

_PAD_DTYPES = [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32]
_PAD_DTYPES_X64 = _PAD_DTYPES + [np.int64, np.uint64]
# Axes past the range of every 8- and 16-bit dtype (uint16's ends at 65535).
_LONGEST_AXIS = 70_000


def _oracle_pad(pad: int, mode: str, n: int, size: int) -> int:
    """A pad numpy can apply that reads the same: shifted by whole periods of the mode,
    or, for constant and edge, clamped to just past the axis on either side."""
    if mode in ("constant", "edge") or n <= 1:
        return min(max(pad, -n - 1), size + 1)
    mode_period = {"reflect": 2 * (n - 1), "symmetric": 2 * n, "wrap": n}[mode]
    return pad % mode_period - mode_period


@st.composite
def integer_pad_cases(draw, dtypes):
    dtype = draw(st.sampled_from(dtypes))
    info = np.iinfo(dtype)
    mode = draw(st.sampled_from(MODES))
    top = min(int(info.max) + 40, _LONGEST_AXIS)
    n = draw(st.one_of(st.integers(0, 9), st.integers(0, top)))
    if mode != "constant":
        n = max(n, 1)
    size = draw(st.one_of(st.integers(0, 12), st.integers(0, min(2 * n + 8, _LONGEST_AXIS))))
    ends = [int(info.min), int(info.max), int(info.min) + 1, int(info.max) - 1, 0]
    pads = draw(
        st.lists(
            st.one_of(st.sampled_from(ends), st.integers(int(info.min), int(info.max))),
            min_size=2,
            max_size=2,
        )
    )
    return dtype, mode, n, size, pads


def _check_integer_pads(case):
    dtype, mode, n, size, pads = case
    x = np.arange(1, n + 1, dtype=np.float32)
    expected = [
        numpy_pad(x, [lo], [size - n - lo], mode)
        for lo in (_oracle_pad(pad, mode, n, size) for pad in pads)
    ]
    pads = np.asarray(pads, dtype).reshape(2, 1)

    def fn(x, pads):
        return jaxpad.dynamic_pad(x, pads, (size,), mode)

    for pad, want in zip(pads, expected):
        np.testing.assert_array_equal(fn(x, pad), want, f"eager, pad {pad}")
        np.testing.assert_array_equal(jax.jit(fn)(x, pad), want, f"jit, pad {pad}")
        # A sequence of traced scalar entries takes another path to the primitive.
        traced_entry = jax.jit(lambda x, pad: fn(x, [pad[0]]))(x, pad)
        np.testing.assert_array_equal(traced_entry, want, f"traced entry, pad {pad}")
    batched = jax.vmap(fn, in_axes=(None, 0))(x, pads)
    np.testing.assert_array_equal(batched, np.stack(expected), "vmap over the pads")
    one = jax.vmap(fn)(x[None], pads[:1])
    np.testing.assert_array_equal(one, np.stack(expected[:1]), "vmap, batch of one")


@given(integer_pad_cases(_PAD_DTYPES))
def test_dynamic_pad_traced_pads_of_every_integer_dtype(case):
    _check_integer_pads(case)


@given(integer_pad_cases(_PAD_DTYPES_X64))
def test_dynamic_pad_traced_pads_of_every_integer_dtype_under_x64(case):
    with enable_x64(True):
        _check_integer_pads(case)
