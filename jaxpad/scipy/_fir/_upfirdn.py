"""``upfirdn`` and ``resample_poly``: upsample, FIR filter and downsample, with the
signal's ends as ``jaxpad.pad`` modes and the filter in polyphase form
(``_polyphase.py``).

No zero-stuffed signal is built, every output multiplies exactly the taps scipy
multiplies (the zeros past ``len(h)`` included, so an inf meets them as in scipy: nan),
and ``h`` may be traced: a filter is learnable.

Two layouts, chosen from the static shape: with the filtered axis last, the
``jaxpad_conv_bilinear`` of ``_polyphase.polyphase`` (each tap a strided slice, its
transposes the adjoint filter and a Gram matrix; in ``constant`` mode with a zero
``cval`` the signal itself is its operand, the zeros never written out); with samples
after the axis (``T`` elements per sample, as ``axis=0`` of a 2-D array), the taps are
slices of ``e`` reshaped to ``(Q, D, T)`` and every multiply-add runs along ``T``,
vectorised (docs/signal.md has the speeds of both). With the filtered axis last and
long phases, the block form (``_polyphase_blocks``): blocks of ``e`` as channels
through one ``lax.conv`` with a block-Toeplitz kernel, where ``e`` is finite.
"""

from __future__ import annotations

import functools
import math
import numbers
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.custom_derivatives import SymbolicZero

from jaxpad import _index_maps
from jaxpad._pad import pad as _jaxpad_pad
from jaxpad.scipy._args import _axis, _cval, _describe, _input, _unused_cval
from jaxpad.scipy._fir._design import firwin_lowpass
from jaxpad.scipy._fir._polyphase import Plan, block_table, polyphase, polyphase_form

_PREFIX = "jaxpad.scipy.signal."

# scipy's upfirdn modes and the jaxpad.pad mode of each. scipy's "antireflect"
# (2 x[0] - x[mirror], numpy's reflect_type="odd") is jaxpad's "reflect_odd".
_MODES = {
    "constant": "constant",
    "wrap": "wrap",
    "edge": "edge",
    "symmetric": "symmetric",
    "reflect": "reflect",
    "antireflect": "reflect_odd",
}
# PyWavelets' smooth and antisymmetric and upfirdn's line: jaxpad.pad's signal modes,
# accepted where jaxpad.pad takes a side mode of that name (_index_maps.SIDE_MODES).
_PENDING = {"smooth": "smooth", "antisymmetric": "antisymmetric", "line": "line"}
_SCIPY_ORDER = (
    "constant", "wrap", "edge", "smooth", "symmetric", "reflect", "antisymmetric",
    "antireflect", "line",
)  # fmt: skip
# Modes whose extension reads two samples (scipy divides by n - 1 or reads x[1]).
_TWO_SAMPLES = ("reflect", "antireflect", "smooth", "line")
_STATISTICS = ("mean", "median", "maximum", "minimum")


def _float_dtype(*dtypes: Any) -> Any:
    """scipy's result_type(h, x, float32): the inputs' inexact dtypes (bfloat16 and
    float16 included) and float32 promoted together; an integer or bool input counts as
    the default float dtype (float64 with x64 enabled), as scipy computes it in float64."""
    out = np.dtype(np.float32)
    for dtype in dtypes:
        if not jnp.issubdtype(dtype, jnp.inexact):
            dtype = jax.dtypes.canonicalize_dtype(np.float64)
        out = jnp.promote_types(out, dtype)
    return out


def upfirdn_modes() -> tuple[str, ...]:
    """The scipy modes ``upfirdn`` takes, in scipy's order."""
    modes = dict(_MODES)
    modes.update({k: v for k, v in _PENDING.items() if v in _index_maps.SIDE_MODES})
    return tuple(m for m in _SCIPY_ORDER if m in modes)


def _jaxpad_mode(mode: str) -> str:
    return _MODES.get(mode) or _PENDING[mode]


def _extend(x: jax.Array, plan: Plan, mode: str, cval) -> jax.Array:
    """x (..., n, T) extended to (..., rows * D, T): ``per_phase - 1`` samples of the
    mode before, as many after as scipy reads (at most ``per_phase - 1``), then zeros,
    which only the outputs past out_len read."""
    left = plan.per_phase - 1
    total = plan.rows * plan.stride
    right = total - left - plan.n
    right_mode = max(0, min(left, right))
    axis = x.ndim - 2
    if left or right_mode:
        begins = [0] * x.ndim
        ends = [0] * x.ndim
        begins[axis], ends[axis] = left, right_mode
        value = cval if mode == "constant" else None
        x = _jaxpad_pad(x, begins, ends, _jaxpad_mode(mode), value)
    if right > right_mode:
        pads = [(0, 0, 0)] * x.ndim
        pads[axis] = (0, right - right_mode, 0)
        x = lax.pad(x, jnp.zeros((), x.dtype), pads)
    elif right < 0:
        x = lax.slice_in_dim(x, 0, total, axis=axis)
    return x


# Output periods per block of the block form: B = 16 makes the blocks' channels
# multiples of 16 float32 lanes; B = 8, 12, 20, 24 and 32 were 1.1-2x slower on float32
# (64, 2^16), resample_poly(x, 3, 2, axis=-1) (benchmarks/signal.py,
# docs/notes/signal-forms.md).
_BLOCK_PERIODS = 16
# The block form multiplies ``k * B * D`` samples per output where the taps need
# ``per_phase``: it wins where the phases are long enough to amortise that. Measured on
# float32, up 3, down 2 (docs/notes/signal-forms.md): 22 taps per phase (resample_poly's
# filter) 1.0-1.4x faster than the strided taps at (64, 2^16), 1.5-1.8x at (1024, 256)
# and (2^20,), 1.7-2.5x with --xla_cpu_max_isa=AVX2, its VJP 3.0-5.7x faster; 11 per
# phase (32 taps) 1.2-2.3x slower.
_BLOCK_MIN_TAPS = 16
_BLOCK_MAX_WASTE = 4.0
# It compiles two programs (the cond's branches): below this many outputs, where either
# runs in well under a millisecond, the strided form alone compiles faster (the tests'
# small signals: the FIR tests' --all run took 1.3x as long with the block form).
_BLOCK_MIN_OUTPUTS = 1 << 14


def _use_blocks(plan: Plan, dtype: Any, t: int, outputs: int) -> bool:
    """The block form where it was measured faster: the filtered axis last, a real
    float32 or float64 (XLA:CPU's conv), long phases and little waste, and at least
    ``_BLOCK_MIN_OUTPUTS`` outputs in all (``outputs``)."""
    if t != 1 or dtype not in (np.float32, np.float64) or plan.per_phase < _BLOCK_MIN_TAPS:
        return False
    if outputs < _BLOCK_MIN_OUTPUTS:
        return False
    k_blocks = block_table(plan, 0, _BLOCK_PERIODS).shape[0]
    waste = k_blocks * _BLOCK_PERIODS * plan.stride / plan.per_phase
    return waste <= _BLOCK_MAX_WASTE


def _block_form(e: jax.Array, taps: jax.Array, table: np.ndarray, count: int) -> jax.Array:
    """The block form of ``count`` outputs: e (A, (nb + k - 1) C), cut into blocks of
    ``C = B D`` samples as channels, through a block-Toeplitz kernel of ``k`` blocks
    (``table``) mapping them to ``L = B P`` outputs (B periods of the phases), as one
    ``lax.conv``: the interleave of the phases is the kernel's column order and the
    output a reshape. Its structural zeros multiply every sample: an inf or nan would
    spread over a block, so this runs only on a finite e (_polyphase_blocks)."""
    a = e.shape[0]
    k_blocks, c, length = table.shape
    nb = e.shape[1] // c - k_blocks + 1
    kernel = jnp.concatenate([taps, jnp.zeros(1, taps.dtype)])[table]
    y = lax.conv_general_dilated(
        e.reshape(a, nb + k_blocks - 1, c), kernel, (1,), "VALID",
        dimension_numbers=("NWC", "WIO", "NWC"), precision=lax.Precision.HIGHEST,
    )  # fmt: skip
    y = y.reshape(a, nb * length)
    return y if nb * length == count else lax.slice_in_dim(y, 0, count, axis=1)


def _block_input(
    x: jax.Array, cval, plan: Plan, mode: str, table: np.ndarray, start: int, count: int
):
    """x (A, n) extended by the mode and cut to the blocks that outputs ``start ..
    start + count`` read: (A, (nb + k - 1) C), one pass with the pad. Linear in x and
    cval together (every mode's extension is)."""
    k_blocks, c, length = table.shape
    need = (-(-count // length) + k_blocks - 1) * c
    offset = (start // plan.phases) * plan.stride
    e = _extend(x[..., None], plan, mode, cval)[..., 0]
    have = e.shape[1] - offset
    if need > have:
        e = jnp.pad(e, ((0, 0), (0, need - have)))
    return lax.slice_in_dim(e, offset, offset + need, axis=1)


@functools.partial(jax.custom_jvp, nondiff_argnums=(3, 4, 5, 6))
def _polyphase_blocks(
    x: jax.Array, taps: jax.Array, cval: jax.Array, plan: Plan, mode: str, start: int, count: int
) -> jax.Array:
    """Outputs ``start .. start + count`` of x (A, n) in the block form where the
    extended signal is finite, in the exact polyphase form elsewhere: a nan or inf
    lands only where scipy's products put it. The test is one pass over the extended
    signal; the exact form's extension is built in its branch. Under ``vmap`` over a
    batched signal both branches run. Its tangent is the block form's (linear in x,
    cval and taps): differentiating the cond made the VJP in x 17x slower than the
    block form's own (a cond's transpose, float32 (64, 2^16), resample_poly(x, 3, 2,
    axis=-1))."""
    return _batched_guard(plan, mode, start, count)(x, taps, cval)


def _guarded_outputs(x, taps, cval, plan, mode, start, count):
    table = block_table(plan, start, _BLOCK_PERIODS)
    e = _block_input(x, cval, plan, mode, table, start, count)
    return _guarded(x, e, taps, cval, plan, mode, table, start, count)


@functools.cache
def _batched_guard(plan: Plan, mode: str, start: int, count: int):
    """``_guarded_outputs`` whose batching folds a batch of signals into the signals
    ``x`` (A, n) already holds: one finiteness test for the batch, where ``vmap`` of
    the conditional ran the exact polyphase form beside the block form
    (``resample_poly(x, 3, 2, axis=-1)`` vmapped over (64, 2^16) float32: 70 ms
    against 11). Batched taps or ``cval`` are vmapped as JAX would."""
    run = functools.partial(_guarded_outputs, plan=plan, mode=mode, start=start, count=count)
    guarded = jax.custom_batching.custom_vmap(run)

    @guarded.def_vmap
    def _signals(axis_size, in_batched, x, taps, cval):
        if in_batched[1] or in_batched[2] or not in_batched[0]:
            axes = tuple(0 if b else None for b in in_batched)
            return jax.vmap(run, in_axes=axes)(x, taps, cval), True
        y = run(x.reshape(axis_size * x.shape[1], x.shape[2]), taps, cval)
        return y.reshape(axis_size, x.shape[1], y.shape[-1]), True

    return guarded


def _guarded(x, e, taps, cval, plan, mode, table, start, count):
    """The block form of ``e`` with ``taps`` where ``e`` is finite, else the exact
    polyphase form of ``x``: linear in ``taps``, so the taps' tangent takes it too (a
    non-finite sample must not reach a whole block there either)."""

    def exact(_, taps):
        e = _extend(x[..., None], plan, mode, cval)[..., 0]
        return polyphase(e, taps, plan, 0, start, count)

    # e - e is a nan exactly where e is not finite; a float sum vectorises where
    # jnp.all(jnp.isfinite(e)) materialised a mask first.
    finite = jnp.isfinite(jnp.sum(e - e))
    fast = functools.partial(_block_form, table=table, count=count)
    return lax.cond(finite, fast, exact, e, taps)


def _blocks_jvp(plan, mode, start, count, primals, tangents):
    x, taps, cval = primals
    dx, dtaps, dcval = tangents
    y = _polyphase_blocks(x, taps, cval, plan, mode, start, count)
    table = block_table(plan, start, _BLOCK_PERIODS)
    dy = None
    if type(dx) is not SymbolicZero or type(dcval) is not SymbolicZero:
        dx = jnp.zeros_like(x) if type(dx) is SymbolicZero else dx
        dcval = jnp.zeros_like(cval) if type(dcval) is SymbolicZero else dcval
        de = _block_input(dx, dcval, plan, mode, table, start, count)
        dy = _block_form(de, taps, table, count)
    if type(dtaps) is not SymbolicZero:
        e = _block_input(x, cval, plan, mode, table, start, count)
        more = _guarded(x, e, dtaps, cval, plan, mode, table, start, count)
        dy = more if dy is None else dy + more
    return y, (jnp.zeros_like(y) if dy is None else dy)


_polyphase_blocks.defjvp(_blocks_jvp, symbolic_zeros=True)


def _static_zero(value: Any) -> bool:
    return isinstance(value, numbers.Number) and value == 0


def _factor(fn: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{fn}: {name} must be an integer; got {value!r}.")
    number = float(value)
    if not number.is_integer():
        raise ValueError(f"{fn}: {name} must be an integer; got {value!r}.")
    if number < 1:
        raise ValueError(f"{fn}: {name} must be at least 1; got {value!r}.")
    return int(number)


def _mode(fn: str, mode: Any, name: str = "mode", extra: tuple[str, ...] = ()) -> str:
    accepted = upfirdn_modes() + extra
    if isinstance(mode, str) and mode.lower() in accepted:
        return mode.lower()
    pending = [m for m in _PENDING if m not in accepted]
    note = (
        f" (scipy's {', '.join(repr(m) for m in pending)} are not supported yet)" if pending else ""
    )
    raise ValueError(
        f"{fn}: {name} must be one of {', '.join(repr(m) for m in accepted)}{note}; got {mode!r}."
    )


def _taps(fn: str, h: Any, name: str = "h") -> jax.Array:
    if isinstance(h, (str, bytes)) or h is None:
        raise TypeError(f"{fn}: {name} must be a 1-D array of filter taps; got {h!r}.")
    try:
        ha = jnp.asarray(h)
    except TypeError as error:
        raise TypeError(
            f"{fn}: {name} must be a 1-D array of filter taps; got {_describe(h)}."
        ) from error
    if not (jnp.issubdtype(ha.dtype, jnp.number) or ha.dtype == np.bool_):
        raise TypeError(f"{fn}: {name} must be numeric; got dtype {ha.dtype}.")
    if ha.ndim != 1 or ha.shape[0] == 0:
        raise ValueError(f"{fn}: {name} must be 1-D and non-empty; got shape {tuple(ha.shape)}.")
    return ha


def _upfirdn(
    fn, h: jax.Array, x: jax.Array, up: int, down: int, axis: int, mode: str, cval,
    start: int = 0, count: int | None = None,
):  # fmt: skip
    """upfirdn of checked arguments, computed in the dtype of h and x together: its
    outputs ``start .. start + count`` along axis (default: all)."""
    n = x.shape[axis]
    if n == 0:
        raise ValueError(f"{fn}: x must not be empty along axis; got shape {tuple(x.shape)}.")
    plan = Plan(n, h.shape[0], up, down)
    if n < 2 and plan.per_phase > 1 and mode in _TWO_SAMPLES:
        raise ValueError(
            f"{fn}: mode {mode!r} extends the signal from two samples or more; x has "
            f"{n} along axis."
        )
    dtype = _float_dtype(x.dtype, h.dtype)
    x = x.astype(dtype)
    taps = h.astype(dtype)
    pad = plan.per_phase * up - plan.taps
    if pad:
        taps = jnp.concatenate([taps, jnp.zeros(pad, dtype)])
    before, after = x.shape[:axis], x.shape[axis + 1 :]
    a, t = math.prod(before), math.prod(after)
    count = plan.out_len - start if count is None else count
    if _use_blocks(plan, dtype, t, a * count):
        cv = jnp.asarray(cval if mode == "constant" else 0, dtype)
        y = _polyphase_blocks(x.reshape(a, n), taps, cv, plan, mode, start, count)
        return y.reshape(*before, count, *after)
    if t == 1 and mode == "constant" and _static_zero(cval):
        # The zeros past the ends as the filter's lead: no extension written out for
        # its transposes (its gradients read the signal and the cotangent themselves).
        y = polyphase(x.reshape(a, n), taps, plan, plan.per_phase - 1, start, count)
    elif t == 1:
        e = _extend(x.reshape(a, n, 1), plan, mode, cval)[..., 0]
        y = polyphase(e, taps, plan, 0, start, count)
    else:
        y = polyphase_form(_extend(x.reshape(a, n, t), plan, mode, cval), taps, plan)
        if (start, count) != (0, plan.out_len):
            y = lax.slice_in_dim(y, start, start + count, axis=1)
    return y.reshape(*before, count, *after)


def upfirdn(
    h: Any,
    x: Any,
    up: int = 1,
    down: int = 1,
    axis: int = -1,
    mode: str = "constant",
    cval: Any = 0,
) -> jax.Array:
    """Upsample, FIR filter and downsample, as ``scipy.signal.upfirdn``.

    ``x`` is extended past its ends by ``mode`` (a ``jaxpad.pad``), upsampled by ``up``
    (zeros inserted), convolved with ``h`` and downsampled by ``down``, in polyphase
    form: no upsampled signal is built. Differentiable in ``h``, ``x`` and ``cval``.

    Args:
      h: the 1-D filter taps; may be traced (a learnable filter).
      x: the signal.
      up: the upsampling factor, at least 1.
      down: the downsampling factor, at least 1.
      axis: the axis to filter along.
      mode: the extension past the ends, scipy's: ``"constant"`` (``cval``),
        ``"wrap"``, ``"edge"``, ``"smooth"`` (the end's slope), ``"symmetric"``,
        ``"reflect"``, ``"antisymmetric"``, ``"antireflect"`` or ``"line"`` (the line
        through the first and last samples); each a ``jaxpad.pad`` mode.
      cval: the value past the ends in ``"constant"`` mode (may be traced).

    Returns:
      The output, of length ``((n - 1) * up + len(h) - 1) // down + 1`` along ``axis``,
      in the dtype of ``h`` and ``x`` together (at least float32).

    Example:
      >>> from jaxpad.scipy import signal
      >>> signal.upfirdn([1.0, 1.0, 1.0], [1.0, 2.0, 3.0], 3)  # sample and hold
      Array([1., 1., 1., 2., 2., 2., 3., 3., 3.], dtype=float32)
    """
    fn = _PREFIX + "upfirdn"
    ha = _taps(fn, h)
    xa = _input(fn, x)
    if xa.ndim == 0:
        raise ValueError(f"{fn}: x must have at least one dimension; got a scalar.")
    up = _factor(fn, "up", up)
    down = _factor(fn, "down", down)
    axis = _axis(fn, axis, xa.ndim)
    mode = _mode(fn, mode)
    _unused_cval(fn, cval, mode)
    dtype = _float_dtype(xa.dtype, ha.dtype)
    cval = _cval(fn, cval, jnp.issubdtype(dtype, jnp.complexfloating))
    return _upfirdn(fn, ha, xa, up, down, axis, mode, cval)


def _output_len(taps: int, n: int, up: int, down: int) -> int:
    return ((n - 1) * up + taps - 1) // down + 1


def resample_poly(
    x: Any,
    up: int,
    down: int,
    axis: int = 0,
    window: Any = ("kaiser", 5.0),
    padtype: str = "constant",
    cval: Any = None,
) -> jax.Array:
    """Resamples by ``up / down`` with a polyphase FIR filter, as ``scipy.signal.resample_poly``.

    The default filter is scipy's: ``firwin(2 * 10 * max(up, down) + 1, 1 / max(up,
    down), window=window)`` after reducing ``up / down``, designed in NumPy at trace
    time. Differentiable in ``x``, in ``window`` when it is an array of taps, and in
    ``cval``.

    Args:
      x: the signal.
      up: the upsampling factor, at least 1.
      down: the downsampling factor, at least 1.
      axis: the axis to resample.
      window: the FIR filter's window: a name (``"hamming"``, ...), a tuple ``(name,
        parameter)`` (``("kaiser", beta)``, ``("gaussian", std)``), a float (a Kaiser
        beta), or a 1-D array of filter taps (may be traced).
      padtype: the extension past the ends: one of ``upfirdn``'s modes, or
        ``"mean"``, ``"median"``, ``"maximum"``, ``"minimum"`` (the statistic of the
        whole signal along ``axis``, subtracted before filtering and added back).
      cval: the value past the ends with ``padtype="constant"`` (default 0).

    Returns:
      The resampled signal, ``ceil(n * up / down)`` samples along ``axis``.

    Example:
      >>> import numpy as np
      >>> from jaxpad.scipy import signal
      >>> signal.resample_poly(np.ones(8), 3, 2, window=np.ones(3) / 3).shape
      (12,)
    """
    fn = _PREFIX + "resample_poly"
    xa = _input(fn, x)
    if xa.ndim == 0:
        raise ValueError(f"{fn}: x must have at least one dimension; got a scalar.")
    up = _factor(fn, "up", up)
    down = _factor(fn, "down", down)
    axis = _axis(fn, axis, xa.ndim)
    padtype = _mode(fn, padtype, "padtype", _STATISTICS)
    if cval is not None and padtype != "constant":
        raise ValueError(
            f"{fn}: cval is read only with padtype='constant'; got cval={cval!r} with "
            f"padtype={padtype!r}."
        )
    g = math.gcd(up, down)
    up, down = up // g, down // g
    taps_given = isinstance(window, (list, np.ndarray, jax.Array))
    if taps_given:
        h = _taps(fn, window, "window")
    if up == down == 1:
        return jnp.asarray(xa)
    n = xa.shape[axis]
    if n == 0:
        raise ValueError(f"{fn}: x must not be empty along axis; got shape {tuple(xa.shape)}.")
    n_out = -(-(n * up) // down)
    if taps_given:
        half_len = (h.shape[0] - 1) // 2
        dtype = _float_dtype(xa.dtype, h.dtype)
    else:
        max_rate = max(up, down)
        half_len = 10 * max_rate
        design = firwin_lowpass(fn, 2 * half_len + 1, 1.0 / max_rate, window)
        # scipy casts the design to a floating x's dtype before scaling it by up.
        dtype = _float_dtype(xa.dtype)
        h = jnp.asarray(design, dtype)
    h = h.astype(dtype) * jnp.asarray(up, dtype)
    pre = down - half_len % down
    pre_remove = (half_len + pre) // down
    post = 0
    while _output_len(h.shape[0] + pre + post, n, up, down) < n_out + pre_remove:
        post += 1
    h = jnp.concatenate([jnp.zeros(pre, dtype), h, jnp.zeros(post, dtype)])
    xa = xa.astype(dtype)
    cval = 0 if cval is None else cval
    cval = _cval(fn, cval, jnp.issubdtype(dtype, jnp.complexfloating))
    if padtype in _STATISTICS:
        stat: Any = {
            "mean": jnp.mean,
            "median": jnp.median,
            "maximum": jnp.max,
            "minimum": jnp.min,
        }[padtype]
        background = stat(xa, axis=axis, keepdims=True)
        y = _upfirdn(fn, h, xa - background, up, down, axis, "constant", 0, pre_remove, n_out)
        return y + background
    return _upfirdn(fn, h, xa, up, down, axis, padtype, cval, pre_remove, n_out)
