"""scipy.signal's recursive filters: lfilter, sosfilt, their initial states, the
forward-backward filters and decimate, on the chunked cascade (``_engine``).

The filtfilt family extends the signal's ends with jaxpad pads: scipy's ``odd`` is
``"reflect_odd"`` (a point reflection about the end sample), ``even`` is
``"reflect"`` and ``constant`` is ``"edge"``.
"""

from __future__ import annotations

import operator
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxpad._pad import pad_for
from jaxpad.scipy._args import _describe
from jaxpad.scipy._fir._upfirdn import resample_poly
from jaxpad.scipy._iir._design import cheby1_lowpass_sos, firwin_hamming
from jaxpad.scipy._iir._engine import cascade, chunk_length
from jaxpad.scipy._iir._gust import filtfilt_gust

_PREFIX = "jaxpad.scipy.signal."
_PADTYPES = {"odd": "reflect_odd", "even": "reflect", "constant": "edge"}


def _array(fn: str, name: str, value: Any) -> jax.Array:
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{fn}: {name} must be a numeric array; got {value!r}.")
    try:
        arr = jnp.asarray(value)
    except TypeError as error:
        raise TypeError(f"{fn}: {name} must be a numeric array; got {_describe(value)}.") from error
    if not (jnp.issubdtype(arr.dtype, jnp.number) or arr.dtype == np.bool_):
        raise TypeError(f"{fn}: {name} must be a numeric array; got dtype {arr.dtype}.")
    if jnp.issubdtype(arr.dtype, jnp.complexfloating):
        raise TypeError(f"{fn}: {name} must be real; got dtype {arr.dtype}.")
    return arr


def _coefficients(fn: str, name: str, value: Any) -> jax.Array | np.ndarray:
    """A filter's coefficients: as NumPy where they are known at trace time (a NumPy
    or concrete JAX array, a list), so that the plan reads them under ``jit`` too (a
    jnp operation there gives a tracer even on constants); as ``_array`` otherwise."""
    if isinstance(value, (np.ndarray, jax.Array, list, tuple)) and not isinstance(
        value, jax.core.Tracer
    ):
        checked = _array(fn, name, value)  # the dtype checks and jnp's dtype
        if not isinstance(checked, jax.core.Tracer):
            return np.asarray(checked)
        try:
            return np.asarray(value, dtype=checked.dtype)
        except (TypeError, ValueError, jax.errors.ConcretizationTypeError):
            return checked  # a list that holds a tracer
    return _array(fn, name, value)


def _concrete(value: jax.Array) -> np.ndarray | None:
    """The value as NumPy when it is known at trace time, else None."""
    try:
        return np.asarray(value)
    except (jax.errors.TracerArrayConversionError, jax.errors.ConcretizationTypeError):
        return None


def _dtypes(*arrays: jax.Array) -> tuple[np.dtype, np.dtype]:
    """(compute dtype, output dtype): floats as they come, float16 and bfloat16
    computed in float32 and returned as given, ints and bools as the default float."""
    dtype = jnp.result_type(*arrays)
    if not jnp.issubdtype(dtype, jnp.floating):
        dtype = jnp.result_type(float)
    out = np.dtype(dtype)
    if jnp.finfo(dtype).bits < 32:
        dtype = np.dtype(np.float32)
    return np.dtype(dtype), out


def _axis(fn: str, axis: Any, ndim: int) -> int:
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{fn}: axis must be an int; got {axis!r}.")
    if not -ndim <= axis < ndim:
        raise ValueError(f"{fn}: axis {axis} is out of range for an input of {ndim} dimensions.")
    return int(axis) % ndim


def _signal(fn: str, x: Any, axis: Any) -> tuple[jax.Array, int]:
    x = _array(fn, "x", x)
    if x.ndim == 0:
        raise ValueError(f"{fn}: x must be at least 1-D; got a scalar.")
    return x, _axis(fn, axis, x.ndim)


def _ba(fn: str, b: Any, a: Any) -> tuple[jax.Array, jax.Array]:
    b = _atleast_1d(_coefficients(fn, "b", b))
    a = _atleast_1d(_coefficients(fn, "a", a))
    if b.ndim != 1 or a.ndim != 1 or b.shape[0] == 0 or a.shape[0] == 0:
        raise ValueError(
            f"{fn}: b and a must be non-empty 1-D arrays; got shapes {tuple(b.shape)} and "
            f"{tuple(a.shape)}."
        )
    a0 = _concrete(a[0])
    if a0 is not None and a0 == 0:
        raise ValueError(f"{fn}: a[0] must be nonzero; got a = {np.asarray(a).tolist()}.")
    return b, a


def _sos(fn: str, sos: Any) -> jax.Array:
    sos = _coefficients(fn, "sos", sos)
    sos = np.atleast_2d(sos) if isinstance(sos, np.ndarray) else jnp.atleast_2d(sos)
    if sos.ndim != 2 or sos.shape[1] != 6 or sos.shape[0] == 0:
        raise ValueError(
            f"{fn}: sos must have shape (n_sections, 6); got shape {tuple(sos.shape)}."
        )
    a0 = _concrete(sos[:, 3])
    if a0 is not None and np.any(a0 == 0):
        raise ValueError(f"{fn}: sos[:, 3] (each section's a0) must be nonzero; got {a0.tolist()}.")
    return sos


def _normalized(b: jax.Array, a: jax.Array, dtype) -> tuple[jax.Array, jax.Array]:
    """b and a over a[0], padded with zeros to one length K + 1: (K+1,), (K,)."""
    b = b.astype(dtype)
    a = a.astype(dtype)
    k = max(b.shape[0], a.shape[0])
    # NumPy where both are (``_coefficients``): the plan reads the result.
    xnp = np if isinstance(b, np.ndarray) and isinstance(a, np.ndarray) else jnp
    b = xnp.pad(b, (0, k - b.shape[0])) / a[0]
    a = xnp.pad(a, (0, k - a.shape[0])) / a[0]
    return b, a[1:]


def _atleast_1d(value):
    return np.atleast_1d(value) if isinstance(value, np.ndarray) else jnp.atleast_1d(value)


def _lanes(x: jax.Array, axis: int) -> tuple[jax.Array, tuple[int, ...]]:
    """x with ``axis`` last and the others flattened: (N, T), and the moved shape."""
    moved = jnp.moveaxis(x, axis, -1)
    return moved.reshape(-1, moved.shape[-1]), moved.shape


def _plan(bs, as_) -> tuple:
    """How the cascade runs, chosen from its coefficients where they are concrete: a
    gain (no state), chunked, sample by sample, or (one section of order 3 or more)
    split into second-order sections (``_split``). Hashable: ``_apply``'s static."""
    k = as_.shape[1]
    if k == 0:
        return ("gain",)
    if k <= 2:
        return ("chunk",) if _chunked(_concrete(as_)) else ("step",)
    split = _split(bs[0], as_[0])
    if split is None:
        return ("step",)
    nums, dens = split
    return (
        "split",
        _chunked(dens),
        tuple(map(tuple, nums.tolist())),
        tuple(map(tuple, dens.tolist())),
    )


def _run(bs, as_, x2, z0, zero_state=False):
    """The cascade on (N, T) from states (n, N, K): output (N, T), final (n, N, K);
    ``zero_state``: ``z0`` is known to be zeros (no initial state's response).

    A section of order 3 or more (lfilter's single section) is split into second-order
    sections where its coefficients are concrete, else run sample by sample: its chunk
    map can be unstable in float32 (``_engine``)."""
    if x2.shape[-1] == 0:
        return x2, z0
    return _apply(_plan(bs, as_), zero_state, bs, as_, x2, z0)


@partial(jax.jit, static_argnums=(0, 1))
def _apply(plan, zero_state, bs, as_, x2, z0):
    """``_run`` under one jit (one compile per shape and plan, not one per op)."""
    if plan[0] == "gain":
        return bs[0, 0] * x2, z0
    if plan[0] in ("chunk", "step"):
        y, zf = cascade(bs, as_, x2, z0, False, plan[0] == "chunk")
        return y[0], zf
    _, chunked, nums, dens = plan
    split = (np.array(nums), np.array(dens))
    return _split_run(bs[0], as_[0], split, chunked, x2, None if zero_state else z0[0])


# A section whose poles lie this close to the unit circle runs sample by sample: the
# chunk form's float32 error against a float64 reference grew past twice scipy's there
# (second-order Butterworth sections at |p| = 0.9942: 2.6x, 0.9956: 7.5x, 0.9989:
# 10.8x; at 0.957: 0.4x), at every chunk length from 4 to 64 (docs/signal.md).
_NEAR_UNIT_CIRCLE = 0.99


def _chunked(as_: np.ndarray | None) -> bool:
    """Whether concrete sections (n, K) run chunked: all their poles inside
    ``_NEAR_UNIT_CIRCLE``. Traced sections run chunked."""
    if as_ is None:
        return True
    for row in np.asarray(as_, np.float64):
        usable = np.all(np.isfinite(row)) and row.size and np.any(row)
        if usable and np.max(np.abs(np.roots(np.concatenate([[1.0], row])))) > _NEAR_UNIT_CIRCLE:
            return False
    return True


def _split(bn: jax.Array, an: jax.Array) -> tuple[np.ndarray, np.ndarray] | None:
    """``b / a`` (concrete, order K >= 3) as second-order sections in float64: the
    roots of ``b`` and ``a`` paired by conjugates (numerators ``[1, -2 Re z, |z|^2]``,
    the gain on the first); None where the coefficients are traced or ``b[0]``,
    ``b[K]`` or ``a[K]`` is zero (a delay or a lower order: run sample by sample)."""
    b = _concrete(bn)
    a = _concrete(an)
    if b is None or a is None:
        return None
    b = b.astype(np.float64)
    a = np.concatenate([[1.0], a.astype(np.float64)])
    if (
        b[0] == 0
        or b[-1] == 0
        or a[-1] == 0
        or not np.all(np.isfinite(b))
        or not np.all(np.isfinite(a))
    ):
        return None

    def quadratics(roots):
        roots = sorted(roots, key=lambda r: (abs(r.imag) < 1e-12 * max(1.0, abs(r)), r.real))
        rows, single = [], []
        for r in roots:
            if r.imag > 1e-12 * max(1.0, abs(r)):
                rows.append([1.0, -2.0 * r.real, abs(r) ** 2])
            elif abs(r.imag) <= 1e-12 * max(1.0, abs(r)):
                single.append(r.real)
        for i in range(0, len(single) - 1, 2):
            rows.append([1.0, -(single[i] + single[i + 1]), single[i] * single[i + 1]])
        if len(single) % 2:
            rows.append([1.0, -single[-1], 0.0])
        return rows

    nums, dens = quadratics(np.roots(b)), quadratics(np.roots(a))
    if len(nums) != len(dens):
        return None
    nums = np.array(nums)
    nums[0] *= b[0]
    return nums, np.array(dens)[:, 1:]


def _initial_response(as_, k, t, chunked):
    """The all-pole sections' response (K, T) to a unit forcing at each of the first K
    samples: how ``lfilter``'s initial state reaches its output."""
    n = as_.shape[0]
    dtype = as_.dtype
    poles = jnp.zeros((n, 3), dtype).at[:, 0].set(1)
    impulses = jnp.eye(k, t, dtype=dtype)
    basis, _ = cascade(poles, as_, impulses, jnp.zeros((n, k, 2), dtype), False, chunked, False)
    return basis[0]


def _zero_input_responses(nums: np.ndarray, dens: np.ndarray, steps: int) -> np.ndarray:
    """The cascade's output over ``steps`` samples from each unit state and no input,
    (steps, 2 n): the sections' direct form II transposed, in float64 (a later
    section's input is the earlier ones' response, through its numerator)."""
    n = dens.shape[0]
    out = np.zeros((steps, 2 * n))
    for j in range(2 * n):
        z = np.zeros((n, 2))
        z[j // 2, j % 2] = 1.0
        for i in range(steps):
            u = 0.0
            for s in range(n):
                y = nums[s, 0] * u + z[s, 0]
                z[s] = [nums[s, 1] * u + z[s, 1] - dens[s, 0] * y, nums[s, 2] * u - dens[s, 1] * y]
                u = y
            out[i, j] = u
    return out


def _section_states(nums: np.ndarray, dens: np.ndarray, k: int) -> np.ndarray | None:
    """The sections' states (2 n, K) that give the zero-input response of the order-K
    filter's state (its denominator the sections' product), or None where the sections
    cannot (a cancelled pole): then ``_initial_response`` adds it instead.

    Both responses are the state's only effect on the output (the input's is the
    same), and matching them on enough samples matches them for all time: the
    initial state then costs the sections' run nothing, where adding its response
    costs a pass over the signal and a product with a (K, T) matrix.
    """
    den = np.array([1.0])
    for a1, a2 in dens:
        den = np.convolve(den, [1.0, a1, a2])
    a = np.zeros(k)
    a[: min(k, den.size - 1)] = den[1 : k + 1]
    # Two responses of realizations of orders K and 2 n agree for all time where
    # they agree on K + 2 n samples (their difference has K + 2 n states).
    steps = k + 2 * dens.shape[0]
    tf = np.zeros((steps, k))
    for j in range(k):
        z = np.zeros(k)
        z[j] = 1.0
        for i in range(steps):
            y = z[0]
            z = np.append(z[1:], 0.0) - a * y
            tf[i, j] = y
    sections = _zero_input_responses(nums, dens, steps)
    mapping, *_ = np.linalg.lstsq(sections, tf, rcond=None)
    if not np.allclose(sections @ mapping, tf, rtol=1e-10, atol=1e-10 * np.abs(tf).max()):
        return None
    return mapping


def _split_run(bn, an, split, chunked, x2, zi):
    """lfilter of order K >= 3 through its second-order sections: the output from a
    zero state, plus the initial state's response (``zi`` is a forcing on the first K
    samples of ``a y = b x``, so its response is the all-pole sections' response to it,
    computed once for each of the K positions), and the final state from the last K
    samples of x and y."""
    nums, dens = split
    k = an.shape[0]
    t = x2.shape[-1]
    dtype = x2.dtype
    bs, as_ = jnp.asarray(nums, dtype), jnp.asarray(dens, dtype)
    n = bs.shape[0]
    mapping = None if zi is None else _section_states(np.asarray(nums), np.asarray(dens), k)
    if mapping is None:
        z0 = jnp.zeros((n, x2.shape[0], 2), dtype)
    else:
        z0 = jnp.moveaxis((zi @ jnp.asarray(mapping.T, dtype)).reshape(-1, n, 2), 0, 1)
    y, _ = cascade(bs, as_, x2, z0, False, chunked)
    y = y[0]
    if zi is None:
        zi = jnp.zeros((x2.shape[0], k), dtype)
    elif mapping is None:
        y = y + zi @ _initial_response(as_, k, t, chunked)
    rows = []
    for m in range(k):
        acc = zi[:, t + m] if t + m < k else jnp.zeros_like(zi[:, 0])
        for j in range(m, k):
            i = t - 1 - (j - m)
            if i >= 0:
                acc = acc + bn[j + 1] * x2[:, i] - an[j] * y[:, i]
        rows.append(acc)
    return y, jnp.stack(rows, axis=-1)[None]


def lfilter(
    b: Any, a: Any, x: Any, axis: int = -1, zi: Any = None
) -> jax.Array | tuple[jax.Array, jax.Array]:
    """Filters ``x`` along ``axis`` with the rational filter ``b / a``; scipy's ``lfilter``.

    Direct form II transposed, as scipy: ``a[0] y[n] = sum_k b[k] x[n-k] - sum_{k>=1}
    a[k] y[n-k]``, from the initial state ``zi`` (zeros if None). Run in chunks
    (docs/signal.md, "Recursive filters"); ``b``, ``a``, ``x`` and ``zi`` may be traced
    and are differentiated, to any order.

    Args:
      b: the numerator, 1-D.
      a: the denominator, 1-D; ``a[0]`` nonzero.
      x: the signal, at least 1-D.
      axis: the axis filtered.
      zi: the initial state, of ``x``'s shape with ``axis`` of length
        ``max(len(a), len(b)) - 1`` (size-1 dimensions broadcast), or None.

    Returns:
      The filtered signal, of ``x``'s shape; with ``zi``, the pair of it and the final
      state (of ``zi``'s expected shape), as scipy's ``(y, zf)``.

    >>> import jax.numpy as jnp
    >>> from jaxpad.scipy.signal import lfilter
    >>> lfilter(jnp.array([1.0]), jnp.array([1.0, -0.5]), jnp.ones(4))
    Array([1.   , 1.5  , 1.75 , 1.875], dtype=float32)
    """
    fn = _PREFIX + "lfilter"
    b, a = _ba(fn, b, a)
    x, axis = _signal(fn, x, axis)
    arrays = [b, a, x]
    k = max(b.shape[0], a.shape[0]) - 1
    expected = x.shape[:axis] + (k,) + x.shape[axis + 1 :]
    if zi is not None:
        zi = _array(fn, "zi", zi)
        ok = zi.ndim == x.ndim and all(
            z == e or (z == 1 and i != axis) for i, (z, e) in enumerate(zip(zi.shape, expected))
        )
        if not ok:
            raise ValueError(
                f"{fn}: zi must have shape {expected} (x's shape with axis {axis} of length "
                f"max(len(a), len(b)) - 1 = {k}; other dimensions may be 1); got shape "
                f"{tuple(zi.shape)}."
            )
        arrays.append(zi)
    dtype, out_dtype = _dtypes(*arrays)
    bn, an = _normalized(b, a, dtype)
    x2, moved = _lanes(x.astype(dtype), axis)
    if zi is None:
        z0 = jnp.zeros((1, x2.shape[0], k), dtype)
    else:
        zb = jnp.broadcast_to(zi.astype(dtype), expected)
        z0, _ = _lanes(zb, axis)
        z0 = z0[None]
    y, zf = _run(bn[None], an[None], x2, z0, zi is None)
    y = jnp.moveaxis(y.reshape(moved), -1, axis).astype(out_dtype)
    if zi is None:
        return y
    zf = jnp.moveaxis(zf[0].reshape(moved[:-1] + (k,)), -1, axis).astype(out_dtype)
    return y, zf


def lfilter_zi(b: Any, a: Any) -> jax.Array:
    """The state of ``lfilter`` in the steady state of a unit step; scipy's
    ``lfilter_zi``: the solution of ``(I - A^T) zi = b[1:] - a[1:] b[0]`` (``A`` the
    companion matrix of the normalized ``a``), by ``jnp.linalg.solve``.

    Args:
      b: the numerator, 1-D.
      a: the denominator, 1-D; leading zeros are dropped (where ``a`` is concrete), as
        scipy does.

    Returns:
      ``zi``, of length ``max(len(a), len(b)) - 1``.

    >>> import jax.numpy as jnp
    >>> from jaxpad.scipy.signal import lfilter_zi
    >>> lfilter_zi(jnp.array([0.5, 0.5]), jnp.array([1.0, -0.2]))
    Array([0.75], dtype=float32)
    """
    fn = _PREFIX + "lfilter_zi"
    b = jnp.atleast_1d(_array(fn, "b", b))
    a = jnp.atleast_1d(_array(fn, "a", a))
    if b.ndim != 1 or a.ndim != 1 or b.shape[0] == 0 or a.shape[0] == 0:
        raise ValueError(
            f"{fn}: b and a must be non-empty 1-D arrays; got shapes {tuple(b.shape)} and "
            f"{tuple(a.shape)}."
        )
    concrete = _concrete(a)
    if concrete is not None:
        nonzero = np.flatnonzero(concrete)
        if nonzero.size == 0:
            raise ValueError(f"{fn}: a must have a nonzero coefficient; got {concrete.tolist()}.")
        a = a[int(nonzero[0]) :]
    dtype, out_dtype = _dtypes(b, a)
    bn, an = _normalized(b, a, dtype)
    return _zi(bn, an).astype(out_dtype)


@jax.jit
def _zi(bn: jax.Array, an: jax.Array) -> jax.Array:
    """lfilter_zi of normalized coefficients (K+1,), (K,)."""
    k = an.shape[0]
    if k == 0:
        return jnp.zeros((0,), bn.dtype)
    companion = jnp.zeros((k, k), bn.dtype).at[0].set(-an) + jnp.eye(k, k=-1, dtype=bn.dtype)
    return jnp.linalg.solve(jnp.eye(k, dtype=bn.dtype) - companion.T, bn[1:] - an * bn[0])


def _zi_numpy(b: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``_zi`` in NumPy float64 (normalized (K+1,), (K,)): the steady state of a
    concrete filter, solved in float64 as scipy's ``sosfilt_zi`` keeps it (in float32 the
    solve lost 2.5x scipy's error for poles at 0.9996)."""
    k = a.shape[0]
    if k == 0:
        return np.zeros(0)
    companion = np.eye(k, k=-1)
    companion[0] = -a
    return np.linalg.solve(np.eye(k) - companion.T, b[1:] - a * b[0])


def _steady_state(bs: jax.Array, as_: jax.Array) -> jax.Array:
    """The cascade's steady-state states (n, K) for filtfilt: float64 NumPy where the
    coefficients are concrete, else traced."""
    b, a = _concrete(bs), _concrete(as_)
    if b is None or a is None:
        return _sos_zi(bs, as_) if as_.shape[1] == 2 else _zi(bs[0], as_[0])[None]
    b, a = b.astype(np.float64), a.astype(np.float64)
    rows, scale = [], 1.0
    for s in range(b.shape[0]):
        rows.append(scale * _zi_numpy(b[s], a[s]))
        scale *= b[s].sum() / (1 + a[s].sum())
    return jnp.asarray(np.stack(rows), bs.dtype)


def _sections(sos: jax.Array, dtype) -> tuple[jax.Array, jax.Array]:
    sos = sos.astype(dtype)
    a0 = sos[:, 3:4]
    return sos[:, :3] / a0, sos[:, 4:] / a0


@jax.jit
def _sos_zi(bs: jax.Array, as_: jax.Array) -> jax.Array:
    """sosfilt_zi of normalized sections: (n, 2)."""
    zis = []
    scale = jnp.ones((), bs.dtype)
    for s in range(bs.shape[0]):
        zis.append(scale * _zi(bs[s], as_[s]))
        scale = scale * bs[s].sum() / (1 + as_[s].sum())
    return jnp.stack(zis)


def sosfilt(
    sos: Any, x: Any, axis: int = -1, zi: Any = None
) -> jax.Array | tuple[jax.Array, jax.Array]:
    """Filters ``x`` along ``axis`` with the cascade of second-order sections ``sos``;
    scipy's ``sosfilt``.

    Each row of ``sos`` is ``[b0, b1, b2, a0, a1, a2]`` of one section in direct form II
    transposed; the sections run fused in one chunked pass (docs/signal.md, "Recursive
    filters"). ``sos``, ``x`` and ``zi`` may be traced and are differentiated.

    Args:
      sos: the sections, shape ``(n_sections, 6)``; each row is divided by its
        ``a0`` (scipy requires ones there; any nonzero value is taken here, so that a
        learnable ``sos`` may move it).
      x: the signal, at least 1-D.
      axis: the axis filtered.
      zi: the initial states, shape ``(n_sections, *x.shape)`` with ``axis`` of length
        2, or None.

    Returns:
      The filtered signal, of ``x``'s shape; with ``zi``, the pair of it and the final
      states, as scipy's ``(y, zf)``.

    >>> import jax.numpy as jnp
    >>> from jaxpad.scipy.signal import sosfilt
    >>> sosfilt(jnp.array([[1.0, 0.0, 0.0, 1.0, -0.5, 0.0]]), jnp.ones(4))
    Array([1.   , 1.5  , 1.75 , 1.875], dtype=float32)
    """
    fn = _PREFIX + "sosfilt"
    sos = _sos(fn, sos)
    x, axis = _signal(fn, x, axis)
    n = sos.shape[0]
    expected = (n,) + x.shape[:axis] + (2,) + x.shape[axis + 1 :]
    arrays = [sos, x]
    if zi is not None:
        zi = _array(fn, "zi", zi)
        if tuple(zi.shape) != expected:
            raise ValueError(
                f"{fn}: zi must have shape {expected} (n_sections, then x's shape with axis "
                f"{axis} of length 2); got shape {tuple(zi.shape)}."
            )
        arrays.append(zi)
    dtype, out_dtype = _dtypes(*arrays)
    bs, as_ = _sections(sos, dtype)
    x2, moved = _lanes(x.astype(dtype), axis)
    if zi is None:
        z0 = jnp.zeros((n, x2.shape[0], 2), dtype)
    else:
        z0 = jnp.moveaxis(zi.astype(dtype), axis + 1, -1).reshape(n, -1, 2)
    y, zf = _run(bs, as_, x2, z0)
    y = jnp.moveaxis(y.reshape(moved), -1, axis).astype(out_dtype)
    if zi is None:
        return y
    zf = zf.reshape((n,) + moved[:-1] + (2,))
    return y, jnp.moveaxis(zf, -1, axis + 1).astype(out_dtype)


def _sosfilt_signal(sos: Any, x: Any, axis: int) -> jax.Array:
    """``sosfilt`` without an initial state: the filtered signal alone."""
    y = sosfilt(sos, x, axis=axis)
    assert not isinstance(y, tuple)
    return y


def sosfilt_zi(sos: Any) -> jax.Array:
    """The states of ``sosfilt`` in the steady state of a unit step; scipy's
    ``sosfilt_zi``.

    Args:
      sos: the sections, shape ``(n_sections, 6)``.

    Returns:
      ``zi`` of shape ``(n_sections, 2)``.

    >>> import jax.numpy as jnp
    >>> from jaxpad.scipy.signal import sosfilt_zi
    >>> sosfilt_zi(jnp.array([[0.5, 0.5, 0.0, 1.0, -0.2, 0.0]]))
    Array([[0.75, 0.  ]], dtype=float32)
    """
    fn = _PREFIX + "sosfilt_zi"
    sos = _sos(fn, sos)
    dtype, out_dtype = _dtypes(sos)
    return _sos_zi(*_sections(sos, dtype)).astype(out_dtype)


def _edge(fn: str, padtype: Any, padlen: Any, length: int, ntaps: int) -> int:
    if padtype is not None and (not isinstance(padtype, str) or padtype not in _PADTYPES):
        raise ValueError(
            f"{fn}: padtype must be 'odd', 'even', 'constant' or None; got {padtype!r}."
        )
    if padtype is None:
        return 0
    if padlen is None:
        return 3 * ntaps
    if isinstance(padlen, bool) or not isinstance(padlen, (int, np.integer)) or padlen < 0:
        raise ValueError(f"{fn}: padlen must be a non-negative int or None; got {padlen!r}.")
    if length <= padlen:
        raise ValueError(
            f"{fn}: padlen must be less than x's length along axis ({length}); got {int(padlen)}."
        )
    return int(padlen)


def _forward_backward(fn, bs, as_, zi, x, axis, padtype, edge):
    """filtfilt's body: the extension, the filter forward from ``zi * x_ext[0]`` and
    backward from ``zi * y[-1]``, the crop."""
    x2, moved = _lanes(x, axis)
    if edge >= x2.shape[-1]:
        raise ValueError(
            f"{fn}: x's length along axis ({x2.shape[-1]}) must be greater than the "
            f"padding ({edge}: 3 * ntaps when padlen is None)."
        )
    plan = _plan(bs, as_)
    t = x2.shape[-1] + 2 * edge
    # the end extended past ``t`` to whole chunks by the same mode (_whole_chunks)
    after = edge + _whole_chunks(plan, as_, t) - t if edge else 0
    if edge:
        x2 = pad_for(fn, x2, (0, edge), (0, after), _PADTYPES[padtype])
    y = _both_ways(plan, edge, t, bs, as_, zi, x2)
    return jnp.moveaxis(y.reshape(moved), -1, axis)


@partial(jax.jit, static_argnums=(0, 1, 2))
def _both_ways(plan, edge, t, bs, as_, zi, x2):
    """filtfilt's two passes over the extended signal's first ``t`` samples (``x2`` may
    run past them: samples a causal pass's kept outputs never read)."""
    whole = _whole_chunks(plan, as_, t)
    z = zi[:, None, :]  # (n, 1, K)
    y, _ = _apply(plan, False, bs, as_, _zeros_after(x2, whole), z * x2[None, :, :1])
    y = y[:, :t]
    y, _ = _apply(plan, False, bs, as_, _zeros_after(y[:, ::-1], whole), z * y[None, :, -1:])
    y = y[:, :t][:, ::-1]
    return y[:, edge : t - edge]


def _whole_chunks(plan, as_, t: int) -> int:
    """The length, at least ``t``, that a chunked plan's run cuts into whole chunks.

    Each pass of filtfilt runs on its extension followed by zeros up to whole chunks,
    its outputs past ``t`` dropped (the filter is causal: the zeros reach none that is
    kept) and its final state unused; the first pass's extension is continued by its
    own mode, in the same pad. Else the run's head was sliced out of each row (a copy)
    and its sample-by-sample tail joined on by a concatenation (another): filtfilt of
    (64, 2^16) float32 (4th order, 2^16 + 30 samples extended) 46-48 -> 41 ms,
    sosfiltfilt (8th) 50-51 -> 44-48, interleaved; the compiled temporaries grew from
    5.2 to 6.2 signals' worth."""
    if plan[0] == "chunk":
        length = chunk_length(t, as_.shape[1])
    elif plan[0] == "split" and plan[1]:
        length = chunk_length(t, 2)
    else:
        return t
    return -(-t // length) * length if length else t


def _zeros_after(x2, total: int):
    """``x2``'s first ``total`` samples, zeros past its end."""
    if total <= x2.shape[1]:
        return x2[:, :total]
    return jnp.pad(x2, ((0, 0), (0, total - x2.shape[1])))


def filtfilt(
    b: Any,
    a: Any,
    x: Any,
    axis: int = -1,
    padtype: str | None = "odd",
    padlen: int | None = None,
    method: str = "pad",
    irlen: int | None = None,
) -> jax.Array:
    """Filters ``x`` forward then backward with ``b / a`` (zero phase); scipy's
    ``filtfilt``.

    The signal is extended at both ends by ``padlen`` samples (default ``3 *
    max(len(a), len(b))``) with a jaxpad pad: ``padtype`` ``"odd"`` is
    ``"reflect_odd"``, ``"even"`` ``"reflect"``, ``"constant"`` ``"edge"``, None
    none; each pass starts from ``lfilter_zi`` scaled by its first sample.

    Args:
      b: the numerator, 1-D.
      a: the denominator, 1-D.
      x: the signal, at least 1-D.
      axis: the axis filtered.
      padtype: ``"odd"``, ``"even"``, ``"constant"`` or None.
      padlen: the extension's length, less than ``x``'s along ``axis``; None for the
        default.
      method: ``"pad"`` (the extension above) or ``"gust"``: Gustafsson's initial
        states, which make the forward-backward and backward-forward filters agree
        on the first and last ``irlen`` samples in the least-squares sense, with no
        extension (``padtype`` and ``padlen`` then stay at their defaults). A nan or
        inf in ``x`` makes the fit, and so every output, nan (scipy's least-squares
        solve refuses it).
      irlen: with ``"gust"``, the impulse response's length that the fit spans, a
        positive int, or None for the whole signal; with ``"pad"``, None.

    Returns:
      The filtered signal, ``x``'s shape.

    >>> import jax.numpy as jnp
    >>> from jaxpad.scipy.signal import filtfilt
    >>> filtfilt(jnp.array([0.5, 0.5]), jnp.array([1.0]), jnp.arange(8.0))
    Array([0., 1., 2., 3., 4., 5., 6., 7.], dtype=float32)
    """
    fn = _PREFIX + "filtfilt"
    if method not in ("pad", "gust"):
        raise ValueError(f"{fn}: method must be 'pad' or 'gust'; got {method!r}.")
    b, a = _ba(fn, b, a)
    x, axis = _signal(fn, x, axis)
    if method == "gust":
        return _filtfilt_gust(fn, b, a, x, axis, padtype, padlen, irlen)
    if irlen is not None:
        raise ValueError(f"{fn}: irlen is read by method='gust' only; got irlen={irlen!r}.")
    edge = _edge(fn, padtype, padlen, x.shape[axis], max(b.shape[0], a.shape[0]))
    dtype, out_dtype = _dtypes(b, a, x)
    bn, an = _normalized(b, a, dtype)
    zi = _steady_state(bn[None], an[None])
    y = _forward_backward(fn, bn[None], an[None], zi, x.astype(dtype), axis, padtype, edge)
    return y.astype(out_dtype)


def _filtfilt_gust(fn, b, a, x, axis, padtype, padlen, irlen):
    """``filtfilt(method="gust")``: Gustafsson's initial states (``_gust``), no
    extension; ``padtype`` and ``padlen`` are ``method="pad"``'s and refused here
    unless left at their defaults."""
    if padtype != "odd" or padlen is not None:
        raise ValueError(
            f"{fn}: padtype and padlen are read by method='pad' only; got "
            f"padtype={padtype!r}, padlen={padlen!r} with method='gust'."
        )
    if irlen is not None and (
        isinstance(irlen, bool) or not isinstance(irlen, (int, np.integer)) or irlen < 1
    ):
        raise ValueError(f"{fn}: irlen must be a positive int or None; got {irlen!r}.")
    dtype, out_dtype = _dtypes(b, a, x)
    bn, an = _normalized(b, a, dtype)
    x2, moved = _lanes(x.astype(dtype), axis)
    if an.shape[0] == 0:
        y = bn[0] ** 2 * x2
    else:
        plan = _plan(bn[None], an[None])
        y = _gust(plan, None if irlen is None else int(irlen), bn, an, x2)
    return jnp.moveaxis(y.reshape(moved), -1, axis).astype(out_dtype)


@partial(jax.jit, static_argnums=(0, 1))
def _gust(plan, irlen, bn, an, x2):
    """``filtfilt_gust`` with the cascade's passes, under one jit: its six passes and
    the least-squares solve compile once, not op by op."""
    order = an.shape[0]

    def run(v, z):
        return _apply(plan, False, bn[None], an[None], v, z[None])[0]

    return filtfilt_gust(run, order, x2, irlen)


def sosfiltfilt(
    sos: Any,
    x: Any,
    axis: int = -1,
    padtype: str | None = "odd",
    padlen: int | None = None,
) -> jax.Array:
    """Filters ``x`` forward then backward with the sections ``sos``; scipy's
    ``sosfiltfilt``.

    As ``filtfilt``, with ``sosfilt_zi``; the default ``padlen`` is ``3 * (2 *
    n_sections + 1 - m)``, ``m`` the number of sections with both ``b2`` and ``a2``
    zero (read where ``sos`` is concrete; a traced ``sos`` counts none).

    Args:
      sos: the sections, shape ``(n_sections, 6)``.
      x: the signal, at least 1-D.
      axis: the axis filtered.
      padtype: ``"odd"``, ``"even"``, ``"constant"`` or None.
      padlen: the extension's length, or None for the default.

    Returns:
      The filtered signal, ``x``'s shape.

    >>> import jax.numpy as jnp
    >>> from jaxpad.scipy.signal import sosfiltfilt
    >>> sosfiltfilt(jnp.array([[0.5, 0.5, 0.0, 1.0, 0.0, 0.0]]), jnp.arange(8.0))
    Array([0., 1., 2., 3., 4., 5., 6., 7.], dtype=float32)
    """
    fn = _PREFIX + "sosfiltfilt"
    sos = _sos(fn, sos)
    x, axis = _signal(fn, x, axis)
    n = sos.shape[0]
    ntaps = 2 * n + 1
    concrete = _concrete(sos)
    if concrete is not None:
        ntaps -= min(int((concrete[:, 2] == 0).sum()), int((concrete[:, 5] == 0).sum()))
    edge = _edge(fn, padtype, padlen, x.shape[axis], ntaps)
    dtype, out_dtype = _dtypes(sos, x)
    bs, as_ = _sections(sos, dtype)
    zi = _steady_state(bs, as_)
    y = _forward_backward(fn, bs, as_, zi, x.astype(dtype), axis, padtype, edge)
    return y.astype(out_dtype)


def decimate(
    x: Any,
    q: int,
    n: int | None = None,
    ftype: str = "iir",
    axis: int = -1,
    zero_phase: bool = True,
) -> jax.Array:
    """Downsamples ``x`` by ``q`` after an anti-aliasing lowpass; scipy's ``decimate``.

    ``ftype="iir"``: a Chebyshev I lowpass of order ``n`` (default 8), ripple 0.05 dB,
    cutoff ``0.8 / q``, as second-order sections, through ``sosfiltfilt``
    (``zero_phase``) or ``sosfilt``. ``ftype="fir"``: ``firwin(n + 1, 1 / q,
    window="hamming")`` (``n`` default ``20 q``), applied causally and downsampled
    and downsampled, through ``resample_poly`` (``zero_phase``, its delay compensated)
    or causally. Both filters are designed with NumPy at trace time; a ``dlti``
    ``ftype`` is refused.

    Args:
      x: the signal, at least 1-D.
      q: the downsampling factor, a positive int.
      n: the filter's order, a positive int, or None.
      ftype: ``"iir"`` or ``"fir"``.
      axis: the axis decimated.
      zero_phase: filter forward and backward (IIR) or compensate the FIR's delay.

    Returns:
      Every ``q``-th sample of the filtered signal.

    >>> import jax.numpy as jnp
    >>> from jaxpad.scipy.signal import decimate
    >>> decimate(jnp.ones(64), 4).shape
    (16,)
    """
    fn = _PREFIX + "decimate"
    try:
        q = operator.index(q)
    except TypeError:
        raise TypeError(f"{fn}: q must be an int; got {q!r}.") from None
    if q < 1:
        raise ValueError(f"{fn}: q must be at least 1; got {q}.")
    if n is not None:
        try:
            n = operator.index(n)
        except TypeError:
            raise TypeError(f"{fn}: n must be an int or None; got {n!r}.") from None
        if n < 1:
            raise ValueError(f"{fn}: n must be at least 1; got {n}.")
    if not isinstance(ftype, str) or ftype not in ("iir", "fir"):
        raise ValueError(
            f"{fn}: ftype must be 'iir' or 'fir' (a dlti filter is not taken); got {ftype!r}."
        )
    if not isinstance(zero_phase, (bool, np.bool_)):
        raise TypeError(f"{fn}: zero_phase must be a bool; got {zero_phase!r}.")
    x, axis = _signal(fn, x, axis)
    dtype, out_dtype = _dtypes(x)
    if ftype == "iir":
        sos = jnp.asarray(cheby1_lowpass_sos(8 if n is None else n, 0.05, 0.8 / q), dtype)
        if zero_phase:
            y = sosfiltfilt(sos, x.astype(dtype), axis=axis)
        else:
            y = _sosfilt_signal(sos, x.astype(dtype), axis)
        y = lax.slice_in_dim(y, 0, None, q, axis)
        return y.astype(out_dtype)
    taps = firwin_hamming((20 * q if n is None else n) + 1, 1.0 / q)
    if zero_phase:
        y = resample_poly(x.astype(dtype), 1, q, axis=axis, window=taps)
        return y.astype(out_dtype)
    x2, moved = _lanes(x.astype(dtype), axis)
    # y[i] = sum_k taps[k] x[q i - k]: a strided correlation with the flipped taps.
    kernel = jnp.asarray(taps[::-1].copy(), dtype)[None, None, :]
    y = lax.conv_general_dilated(
        x2[:, None, :], kernel, (q,), [(len(taps) - 1, 0)], dimension_numbers=("NCH", "OIH", "NCH")
    )[:, 0, :]
    y = jnp.moveaxis(y.reshape(moved[:-1] + (y.shape[-1],)), -1, axis)
    return y.astype(out_dtype)
