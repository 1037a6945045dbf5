"""Flax convolution layers that pad with jaxpad (``pip install "jaxpad[flax]"``).

``Conv`` and ``ConvTranspose`` are ``flax.nnx`` modules; ``LinenConv`` and
``LinenConvTranspose`` are their ``flax.linen`` counterparts. Each subclasses flax's
layer and accepts everything it accepts, with the same parameter names, shapes,
initialisers and state layout (a checkpoint of flax's layer loads into jaxpad's and
back), and replaces only the padding step:

- ``padding="CIRCULAR"`` / ``"REFLECT"`` / ``"CAUSAL"`` pad with ``jaxpad.pad``
  (flax uses ``jnp.pad``): the same values, a faster gradient, and no
  ``ShardingTypeError`` on an input sharded along a padded axis;
- ``pad_mode=`` fills the padding of ``"SAME"``, ``"VALID"`` or explicit pads in any
  ``jaxpad.pad`` mode (``"edge"``, ``"reflect"``, ``"symmetric"``, ``"wrap"``);
- ``padding=`` also takes a ``jaxpad.PaddingPolicy`` (``jaxpad.policies.torch(1)``,
  ...), to port another framework's borders and output sizes exactly.

A ``ConvTranspose`` with a pad mode is the VJP of the convolution padded in that mode
(flax's CIRCULAR keeps flax's own alignment).
"""

from __future__ import annotations

import typing as tp

import flax.linen as linen
import jax
import jax.numpy as jnp
from flax import nnx
from flax.nnx.nn.linear import canonicalize_padding
from jax import lax

from jaxpad import _window_ops
from jaxpad import pad as jaxpad_pad
from jaxpad._lowering import conv as _conv_lowering
from jaxpad._policy import PaddingPolicy

__all__ = ["Conv", "ConvTranspose", "LinenConv", "LinenConvTranspose"]

_FLAX_MODES = {"CIRCULAR": "wrap", "REFLECT": "reflect"}
_LAX_STRINGS = ("SAME", "SAME_LOWER", "VALID")


def _tuple(value, rank):
    """flax's broadcast of strides and dilations: None is 1, an int is every axis."""
    if value is None:
        value = 1
    if isinstance(value, int):
        return (value,) * rank
    return tuple(value)


def _channels_last(shape):
    """flax's layout: ``(N, *spatial, C)`` inputs, ``(*spatial, I, O)`` kernels."""
    ndim = len(shape)
    spec = (0, ndim - 1, *range(1, ndim - 1))
    return lax.ConvDimensionNumbers(spec, (ndim - 1, ndim - 2, *range(ndim - 2)), spec)


def _kernel_size(kernel_size):
    return (kernel_size,) if isinstance(kernel_size, int) else tuple(kernel_size)


# padding_mode=: PyTorch's and Equinox's names of the pad modes, or jaxpad's, any case.
_PADDING_MODES = {
    "ZEROS": "constant",
    "REFLECT": "reflect",
    "REPLICATE": "edge",
    "CIRCULAR": "wrap",
}


def _pad_mode(fn, pad_mode, padding_mode):
    """The jaxpad mode of ``pad_mode=`` or its PyTorch / Equinox spelling ``padding_mode=``."""
    if padding_mode is None:
        return pad_mode
    if pad_mode is not None:
        raise ValueError(
            f"{fn}: got both pad_mode={pad_mode!r} and padding_mode={padding_mode!r}; pass "
            "one (padding_mode is PyTorch's and Equinox's name for pad_mode)."
        )
    if isinstance(padding_mode, str):
        if padding_mode.upper() in _PADDING_MODES:
            return _PADDING_MODES[padding_mode.upper()]
        if padding_mode.lower() in _window_ops.MODES:
            return padding_mode.lower()
    raise ValueError(
        f"{fn}: padding_mode must be one of 'ZEROS', 'REFLECT', 'REPLICATE', 'CIRCULAR' "
        "(PyTorch's and Equinox's names) or a jaxpad.pad mode ('constant', 'edge', 'reflect', "
        f"'symmetric', 'wrap'), in any case; got {padding_mode!r}."
    )


def _check_padding(fn, padding, pad_mode, rank, transpose, output_padding=None):
    """Rejects, at construction, a padding or pad mode the layer could not honour."""
    if pad_mode is not None:
        _window_ops.check_pad_mode(fn, pad_mode)
    if isinstance(padding, PaddingPolicy):
        return
    if output_padding is not None:
        raise ValueError(
            f"{fn}: output_padding needs padding to be a jaxpad.PaddingPolicy (flax's "
            f"paddings fix the output size); got padding={padding!r}."
        )
    if isinstance(padding, str):
        strings = ("CIRCULAR",) if transpose else tuple(_FLAX_MODES) + ("CAUSAL",)
        if padding in strings or padding.upper() in _LAX_STRINGS:
            pass
        elif transpose and padding in ("REFLECT", "CAUSAL"):
            raise ValueError(
                f"{fn}: padding={padding!r} is not a ConvTranspose padding in flax; for the "
                f"transpose of Conv(padding={padding!r}) pass "
                f"padding=jaxpad.policies.flax({padding!r}) (and output_padding)."
            )
        else:
            options = ", ".join(repr(p) for p in _LAX_STRINGS + strings)
            hint = f" (flax spells it {padding.upper()!r})" if padding.upper() in strings else ""
            raise ValueError(
                f"{fn}: padding must be one of {options}, an int, (low, high) pairs or a "
                f"jaxpad.PaddingPolicy; got {padding!r}{hint}."
            )
        if padding == "CAUSAL" and rank != 1:
            raise ValueError(
                f"{fn}: padding='CAUSAL' is for 1-D convolutions (as in flax); got a kernel "
                f"with {rank} spatial axes. jaxpad.policies.keras('causal') pads every axis."
            )
        implied = _FLAX_MODES.get(padding)
        if implied is not None and pad_mode is not None and pad_mode != implied:
            raise ValueError(
                f"{fn}: pad_mode={pad_mode!r} contradicts padding={padding!r} (which pads "
                f"in {implied!r}); for those pads in another mode pass "
                f"padding=jaxpad.policies.flax({padding!r}) with pad_mode={pad_mode!r}."
            )
        return
    try:
        canonicalize_padding(padding, rank)
    except ValueError as error:
        raise ValueError(f"{fn}: padding: {error}") from None


def _pad_step(fn, inputs, padding, pad_mode, kernel_size, strides, input_dilation, dilation):
    """Pads a channels-last batch ``(N, *spatial, C)`` as the layer says.

    Returns the padded input, the padding for ``conv_general_dilated`` and, for a
    policy, the output size per spatial axis (the convolution's is sliced to it).
    """
    rank = len(kernel_size)
    numbers = _channels_last(inputs.shape)
    sizes = inputs.shape[1:-1]
    if isinstance(padding, PaddingPolicy):
        if any(d != 1 for d in input_dilation):
            raise ValueError(
                f"{fn}: a jaxpad.PaddingPolicy pads the undilated input; got "
                f"input_dilation={input_dilation}."
            )
        mode = _window_ops.resolve_mode(fn, padding, pad_mode)
        args = (sizes, kernel_size, strides, dilation)
        pads = _window_ops.ask_policy(fn, padding, "pads", *args)
        out_sizes = _window_ops.ask_policy(fn, padding, "output_shape", *args)
        if mode == "constant" and all(lo >= 0 and hi >= 0 for lo, hi in pads):
            # Zeros are the convolution's own padding: no padded copy.
            return inputs, [tuple(p) for p in pads], out_sizes
        return _fill(inputs, pads, mode, numbers), VALID(rank), out_sizes
    spans = [d * (k - 1) + 1 for k, d in zip(kernel_size, dilation)]
    if isinstance(padding, str) and padding in _FLAX_MODES:
        # flax pads the undilated input with the stride-1 SAME pads.
        pads = [((k - 1) // 2, k // 2) for k in spans]
        return _fill(inputs, pads, _FLAX_MODES[padding], numbers), VALID(rank), None
    if padding == "CAUSAL":
        mode = pad_mode or "constant"
        if mode == "constant" and input_dilation == (1,):
            return inputs, [(spans[0] - 1, 0)], None
        return _fill(inputs, [(spans[0] - 1, 0)], mode, numbers), VALID(rank), None
    padding_lax = canonicalize_padding(padding, rank)
    if pad_mode is None or pad_mode == "constant":
        return inputs, padding_lax, None
    if any(d != 1 for d in input_dilation):
        raise ValueError(
            f"{fn}: pad_mode={pad_mode!r} fills pads of the undilated input; got "
            f"input_dilation={input_dilation} with padding={padding!r}."
        )
    if isinstance(padding_lax, str):
        padding_lax = lax.padtype_to_pads(sizes, spans, strides, padding_lax)
    return _fill(inputs, padding_lax, pad_mode, numbers), VALID(rank), None


def VALID(rank):  # noqa: N802
    """No padding, as pairs: lax's "VALID" string is refused with input_dilation."""
    return [(0, 0)] * rank


def _fill(inputs, pads, mode, numbers):
    if mode == "constant" and all(lo == 0 and hi == 0 for lo, hi in pads):
        return inputs
    lo, hi = [0] * inputs.ndim, [0] * inputs.ndim
    for axis, (p_lo, p_hi) in zip(numbers.lhs_spec[2:], pads):
        lo[axis], hi[axis] = p_lo, p_hi
    return jaxpad_pad(inputs, lo, hi, mode)


def _slice_to(y, out_sizes):
    if out_sizes is None:
        return y
    return lax.slice(y, (0,) * y.ndim, (y.shape[0], *out_sizes, y.shape[-1]))


def _check_features(fn, inputs, expected):
    if inputs.ndim < 1 or inputs.shape[-1] != expected:
        raise ValueError(
            f"{fn}: inputs must have in_features={expected} features on their last axis; "
            f"got shape {inputs.shape}."
        )


def _flatten_batch(inputs, rank):
    """flax's convention: every leading axis is batch (none: one example)."""
    batch_dims = inputs.ndim - (rank + 1)
    if batch_dims == 1:
        return inputs, None
    return jnp.reshape(inputs, (-1, *inputs.shape[batch_dims:])), inputs.shape[:batch_dims]


def _unflatten_batch(y, batch_shape):
    return y if batch_shape is None else jnp.reshape(y, batch_shape + y.shape[1:])


def _lax_transpose_pads(span, s, padding):
    """``lax.conv_transpose``'s pads of the stride-dilated input for SAME and VALID."""
    if padding == "SAME":
        total = span + s - 2
        before = span - 1 if s > span - 1 else -(-total // 2)
    else:
        total = span + s - 2 + max(span - s, 0)
        before = span - 1
    return before, total - before


def _transpose_step(
    fn,
    inputs,
    kernel,
    padding,
    pad_mode,
    output_padding,
    strides,
    dilation,
    transpose_kernel,
    precision,
    preferred_element_type,
):
    """flax's ``lax.conv_transpose`` call, with the padding step done by jaxpad."""
    numbers = _channels_last(inputs.shape)
    if isinstance(padding, PaddingPolicy):
        return _window_ops.conv_transpose_impl(
            fn,
            inputs,
            kernel,
            strides,
            padding,
            output_padding,
            dilation,
            numbers,
            transpose_kernel,
            pad_mode,
            1,
            precision=precision,
            preferred_element_type=preferred_element_type,
        )
    rank = len(strides)
    mode = "wrap" if padding == "CIRCULAR" else pad_mode
    if mode is None or mode == "constant":
        return lax.conv_transpose(
            inputs,
            kernel,
            strides,
            canonicalize_padding(padding, rank),
            rhs_dilation=dilation,
            transpose_kernel=transpose_kernel,
            precision=precision,
            preferred_element_type=preferred_element_type,
        )
    window = kernel.shape[:rank]
    spans = [d * (k - 1) + 1 for k, d in zip(window, dilation)]
    sizes = inputs.shape[1:-1]
    if padding == "CIRCULAR":
        # flax sums its VALID transposed conv over periods of n * s, starting
        # ``before`` ahead: full-conv position i lands on (i + before) mod period.
        fold_pads = []
        for n, s, span in zip(sizes, strides, spans):
            period = n * s
            valid_length = period + max(span - s, 0)
            extra = -(valid_length - period) % (2 * period)
            before = extra // 2 if transpose_kernel else (extra + 1) // 2
            lo = -before % period
            fold_pads.append((lo, (n - 1) * s + span - period - lo))
    else:
        padding_lax = canonicalize_padding(padding, rank)
        if isinstance(padding_lax, str):
            padding_lax = [
                _lax_transpose_pads(span, s, padding_lax.upper()) for span, s in zip(spans, strides)
            ]
        # The convolution whose VJP this is padded its input by span - 1 - pad.
        fold_pads = [(span - 1 - a, span - 1 - b) for span, (a, b) in zip(spans, padding_lax)]
    if transpose_kernel:
        kernel = _window_ops.transposed_kernel(kernel, numbers, 1)
    return _window_ops.folded_conv_transpose(
        inputs,
        kernel,
        strides,
        fold_pads,
        mode,
        numbers,
        rhs_dilation=dilation,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


# flax.nnx ------------------------------------------------------------------------------


class Conv(nnx.Conv):
    """``flax.nnx.Conv`` padded by jaxpad: any pad mode, or a ``jaxpad.PaddingPolicy``.

    Takes every argument of ``nnx.Conv`` (same names, defaults, parameters and state),
    and:

    Args:
      padding: ``nnx.Conv``'s (``"SAME"``, ``"VALID"``, ``"CIRCULAR"``,
        ``"REFLECT"``, ``"CAUSAL"``, an int or ``(low, high)`` pairs), or a
        ``jaxpad.PaddingPolicy`` (its pads, output size and pad mode).
      pad_mode: a ``jaxpad.pad`` mode for the padding of ``"SAME"``, ``"VALID"``,
        ``"CAUSAL"``, explicit pads or a policy; None pads as flax does (or as the
        policy says).
      padding_mode: ``pad_mode`` as PyTorch and Equinox spell it: ``"ZEROS"``,
        ``"REFLECT"``, ``"REPLICATE"``, ``"CIRCULAR"`` or a ``jaxpad.pad`` mode, in
        any case. Give one of ``pad_mode`` and ``padding_mode``.

    Example:
      >>> import jax.numpy as jnp, jaxpad.flax
      >>> from flax import nnx
      >>> layer = jaxpad.flax.Conv(3, 4, (3, 3), padding="CIRCULAR", rngs=nnx.Rngs(0))
      >>> layer(jnp.ones((2, 8, 8, 3))).shape
      (2, 8, 8, 4)
      >>> torch_like = jaxpad.flax.Conv(3, 4, (3, 3), padding=jaxpad.policies.torch(1),
      ...                               pad_mode="edge", rngs=nnx.Rngs(0))
      >>> torch_like(jnp.ones((2, 8, 8, 3))).shape
      (2, 8, 8, 4)
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        kernel_size: int | tp.Sequence[int],
        strides: None | int | tp.Sequence[int] = 1,
        *,
        padding: tp.Any = "SAME",
        pad_mode: str | None = None,
        padding_mode: str | None = None,
        **kwargs: tp.Any,
    ):
        rank = len(_kernel_size(kernel_size))
        pad_mode = _pad_mode("jaxpad.flax.Conv", pad_mode, padding_mode)
        _check_padding("jaxpad.flax.Conv", padding, pad_mode, rank, transpose=False)
        super().__init__(in_features, out_features, kernel_size, strides, padding=padding, **kwargs)
        self.pad_mode = pad_mode

    def __call__(self, inputs: jax.Array, out_sharding: tp.Any = None) -> jax.Array:
        """Applies the convolution, as ``nnx.Conv.__call__`` with jaxpad's padding."""
        fn = "jaxpad.flax.Conv"
        rank = len(self.kernel_size)
        _check_features(fn, inputs, self.in_features)
        inputs, batch_shape = _flatten_batch(inputs, rank)
        strides = _tuple(self.strides, rank)
        input_dilation = _tuple(self.input_dilation, rank)
        dilation = _tuple(self.kernel_dilation, rank)
        inputs, padding_lax, out_sizes = _pad_step(
            fn,
            inputs,
            self.padding,
            self.pad_mode,
            self.kernel_size,
            strides,
            input_dilation,
            dilation,
        )
        if self.mask is not None and self.mask.shape != self.kernel_shape:
            raise ValueError(
                f"{fn}: mask must have the kernel's shape {self.kernel_shape}; got "
                f"{self.mask.shape}."
            )
        kernel = self.kernel[...]
        if self.mask is not None:
            kernel *= self.mask
        bias = self.bias[...] if self.bias is not None else None
        inputs, kernel, bias = self.promote_dtype((inputs, kernel, bias), dtype=self.dtype)
        conv_kwargs = {"out_sharding": out_sharding}
        if self.preferred_element_type is not None:
            conv_kwargs["preferred_element_type"] = self.preferred_element_type
        # Through jaxpad's conv planner; a user's own conv_general_dilated is called as given.
        y = _conv_lowering.conv_general_dilated(
            inputs,
            kernel,
            strides,
            padding_lax,
            conv=self.conv_general_dilated,
            lhs_dilation=input_dilation,
            rhs_dilation=dilation,
            dimension_numbers=_channels_last(inputs.shape),
            feature_group_count=self.feature_group_count,
            precision=self.precision,
            **conv_kwargs,
        )
        y = _slice_to(y, out_sizes)
        if bias is not None:
            y += bias.reshape((1,) * (y.ndim - bias.ndim) + bias.shape)
        return _unflatten_batch(y, batch_shape)


class ConvTranspose(nnx.ConvTranspose):
    """``flax.nnx.ConvTranspose`` padded by jaxpad.

    Takes every argument of ``nnx.ConvTranspose`` (same names, defaults, parameters
    and state), and:

    Args:
      padding: ``nnx.ConvTranspose``'s (``"SAME"``, ``"VALID"``, ``"CIRCULAR"``, an
        int or ``(low, high)`` pairs, as ``lax.conv_transpose`` reads them), or a
        ``jaxpad.PaddingPolicy`` of the forward convolution: the layer is then the
        VJP of ``jaxpad.nn.conv`` with that policy (``jaxpad.nn.conv_transpose``).
      pad_mode: the forward convolution's ``jaxpad.pad`` mode: the layer adds what
        that convolution read from its padding back where it came from. None pads
        as flax does (or as the policy says).
      padding_mode: ``pad_mode`` as PyTorch and Equinox spell it (see ``Conv``).
      output_padding: with a policy only: extra output length per axis, below the
        stride (PyTorch's ``output_padding``).

    Example:
      >>> import jax.numpy as jnp, jaxpad.flax
      >>> from flax import nnx
      >>> layer = jaxpad.flax.ConvTranspose(3, 4, (3, 3), (2, 2), padding="CIRCULAR",
      ...                                   rngs=nnx.Rngs(0))
      >>> layer(jnp.ones((1, 5, 5, 3))).shape
      (1, 10, 10, 4)
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        kernel_size: int | tp.Sequence[int],
        strides: int | tp.Sequence[int] | None = None,
        *,
        padding: tp.Any = "SAME",
        pad_mode: str | None = None,
        padding_mode: str | None = None,
        output_padding: int | tp.Sequence[int] | None = None,
        **kwargs: tp.Any,
    ):
        rank = len(_kernel_size(kernel_size))
        fn = "jaxpad.flax.ConvTranspose"
        pad_mode = _pad_mode(fn, pad_mode, padding_mode)
        _check_padding(fn, padding, pad_mode, rank, True, output_padding)
        super().__init__(in_features, out_features, kernel_size, strides, padding=padding, **kwargs)
        self.pad_mode = pad_mode
        self.output_padding = output_padding

    def __call__(self, inputs: jax.Array) -> jax.Array:
        """Applies the transposed convolution, as ``nnx.ConvTranspose.__call__``."""
        fn = "jaxpad.flax.ConvTranspose"
        rank = len(self.kernel_size)
        _check_features(fn, inputs, self.in_features)
        inputs, batch_shape = _flatten_batch(inputs, rank)
        if self.mask is not None and self.mask.shape != self.kernel_shape:
            raise ValueError(
                f"{fn}: mask must have the kernel's shape {self.kernel_shape}; got "
                f"{self.mask.shape}."
            )
        kernel = self.kernel[...]
        if self.mask is not None:
            kernel *= self.mask
        bias = self.bias[...] if self.bias is not None else None
        inputs, kernel, bias = self.promote_dtype((inputs, kernel, bias), dtype=self.dtype)
        y = _transpose_step(
            fn,
            inputs,
            kernel,
            self.padding,
            self.pad_mode,
            self.output_padding,
            _tuple(self.strides, rank),
            _tuple(self.kernel_dilation, rank),
            self.transpose_kernel,
            self.precision,
            self.preferred_element_type,
        )
        if bias is not None:
            y += jnp.reshape(bias, (1,) * (y.ndim - 1) + (-1,))
        return _unflatten_batch(y, batch_shape)


# flax.linen ----------------------------------------------------------------------------


def _resolve_padding_mode(module, fn):
    """Moves a linen layer's ``padding_mode`` into ``pad_mode`` (a clone then carries
    ``pad_mode`` alone, so it does not see both)."""
    mode = _pad_mode(fn, module.pad_mode, module.padding_mode)
    # Linen modules are frozen dataclasses; __post_init__ may still settle its fields.
    object.__setattr__(module, "pad_mode", mode)
    object.__setattr__(module, "padding_mode", None)


class LinenConv(linen.Conv):
    """``flax.linen.Conv`` padded by jaxpad: any pad mode, or a ``jaxpad.PaddingPolicy``.

    Same attributes and ``params`` (``kernel``, ``bias``) as ``linen.Conv``, and
    ``padding`` / ``pad_mode`` / ``padding_mode`` as in ``jaxpad.flax.Conv``.

    Example:
      >>> import jax, jax.numpy as jnp, jaxpad.flax
      >>> layer = jaxpad.flax.LinenConv(4, (3, 3), padding="REFLECT")
      >>> variables = layer.init(jax.random.key(0), jnp.ones((1, 8, 8, 3)))
      >>> layer.apply(variables, jnp.ones((1, 8, 8, 3))).shape
      (1, 8, 8, 4)
    """

    pad_mode: str | None = None
    padding_mode: str | None = None

    def __post_init__(self):
        rank = len(_kernel_size(self.kernel_size))
        _resolve_padding_mode(self, "jaxpad.flax.LinenConv")
        _check_padding("jaxpad.flax.LinenConv", self.padding, self.pad_mode, rank, False)
        super().__post_init__()

    @linen.compact
    def __call__(self, inputs: jax.Array) -> jax.Array:
        """Applies the convolution, as ``linen.Conv.__call__`` with jaxpad's padding."""
        fn = "jaxpad.flax.LinenConv"
        kernel_size = _kernel_size(self.kernel_size)
        rank = len(kernel_size)
        inputs, batch_shape = _flatten_batch(inputs, rank)
        strides = _tuple(self.strides, rank)
        input_dilation = _tuple(self.input_dilation, rank)
        dilation = _tuple(self.kernel_dilation, rank)
        inputs, padding_lax, out_sizes = _pad_step(
            fn, inputs, self.padding, self.pad_mode, kernel_size, strides, input_dilation, dilation
        )
        in_features = inputs.shape[-1]
        kernel_shape = kernel_size + (in_features // self.feature_group_count, self.features)
        if self.mask is not None and self.mask.shape != kernel_shape:
            raise ValueError(
                f"{fn}: mask must have the kernel's shape {kernel_shape}; got {self.mask.shape}."
            )
        kernel = self.param("kernel", self.kernel_init, kernel_shape, self.param_dtype)
        if self.mask is not None:
            kernel *= self.mask
        bias = None
        if self.use_bias:
            bias = self.param("bias", self.bias_init, (self.features,), self.param_dtype)
        # promote_dtype is typed to return Optional arrays; only bias may be None.
        inputs, kernel, bias = self.promote_dtype(  # type: ignore[assignment]
            inputs, kernel, bias, dtype=self.dtype
        )
        if self.conv_general_dilated_cls is not None:
            conv_general_dilated = self.conv_general_dilated_cls()
        elif self.conv_general_dilated is not None:
            conv_general_dilated = self.conv_general_dilated
        else:
            conv_general_dilated = lax.conv_general_dilated
        y = _conv_lowering.conv_general_dilated(
            inputs,
            kernel,
            strides,
            padding_lax,
            conv=conv_general_dilated,
            lhs_dilation=input_dilation,
            rhs_dilation=dilation,
            dimension_numbers=_channels_last(inputs.shape),
            feature_group_count=self.feature_group_count,
            precision=self.precision,
        )
        y = _slice_to(y, out_sizes)
        if bias is not None:
            y += bias.reshape((1,) * (y.ndim - bias.ndim) + bias.shape)
        return _unflatten_batch(y, batch_shape)


class LinenConvTranspose(linen.ConvTranspose):
    """``flax.linen.ConvTranspose`` padded by jaxpad.

    Same attributes and ``params`` as ``linen.ConvTranspose``, and ``padding``,
    ``pad_mode`` / ``padding_mode`` and ``output_padding`` as in ``jaxpad.flax.ConvTranspose``.

    Example:
      >>> import jax, jax.numpy as jnp, jaxpad.flax
      >>> layer = jaxpad.flax.LinenConvTranspose(4, (3,), (2,), padding="CIRCULAR")
      >>> variables = layer.init(jax.random.key(0), jnp.ones((1, 5, 3)))
      >>> layer.apply(variables, jnp.ones((1, 5, 3))).shape
      (1, 10, 4)
    """

    pad_mode: str | None = None
    padding_mode: str | None = None
    output_padding: int | tp.Sequence[int] | None = None

    def __post_init__(self):
        rank = len(_kernel_size(self.kernel_size))
        fn = "jaxpad.flax.LinenConvTranspose"
        _resolve_padding_mode(self, fn)
        _check_padding(fn, self.padding, self.pad_mode, rank, True, self.output_padding)
        super().__post_init__()

    @linen.compact
    def __call__(self, inputs: jax.Array) -> jax.Array:
        """Applies the transposed convolution, as ``linen.ConvTranspose.__call__``."""
        fn = "jaxpad.flax.LinenConvTranspose"
        kernel_size = _kernel_size(self.kernel_size)
        rank = len(kernel_size)
        inputs, batch_shape = _flatten_batch(inputs, rank)
        in_features = inputs.shape[-1]
        if self.transpose_kernel:
            kernel_shape = kernel_size + (self.features, in_features)
        else:
            kernel_shape = kernel_size + (in_features, self.features)
        if self.mask is not None and self.mask.shape != kernel_shape:
            raise ValueError(
                f"{fn}: mask must have the kernel's shape {kernel_shape}; got {self.mask.shape}."
            )
        kernel = self.param("kernel", self.kernel_init, kernel_shape, self.param_dtype)
        if self.mask is not None:
            kernel *= self.mask
        bias = None
        if self.use_bias:
            bias = self.param("bias", self.bias_init, (self.features,), self.param_dtype)
        # promote_dtype is typed to return Optional arrays; only bias may be None.
        inputs, kernel, bias = self.promote_dtype(  # type: ignore[assignment]
            inputs, kernel, bias, dtype=self.dtype
        )
        y = _transpose_step(
            fn,
            inputs,
            kernel,
            self.padding,
            self.pad_mode,
            self.output_padding,
            _tuple(self.strides, rank),
            _tuple(self.kernel_dilation, rank),
            self.transpose_kernel,
            self.precision,
            self.preferred_element_type,
        )
        if bias is not None:
            y += jnp.reshape(bias, (1,) * (y.ndim - 1) + (-1,))
        return _unflatten_batch(y, batch_shape)
