"""Equinox convolution layers that pad with jaxpad (``pip install "jaxpad[equinox]"``).

``Conv`` and ``ConvTranspose`` subclass ``equinox.nn.Conv`` and
``equinox.nn.ConvTranspose`` (any number of spatial dimensions), take every argument
they take with the same names, and have the same pytree (``weight``, ``bias``): a
model serialised with ``eqx.tree_serialise_leaves`` loads into either. ``Conv1d``,
``Conv2d``, ``Conv3d`` and ``ConvTranspose1d`` .. ``ConvTranspose3d`` are Equinox's
fixed-rank spellings, with its argument orders. They replace only the padding step:

- ``padding_mode`` takes Equinox's ``"ZEROS"``, ``"REFLECT"``, ``"REPLICATE"``,
  ``"CIRCULAR"`` and also ``"SYMMETRIC"`` (or jaxpad's names ``"constant"``,
  ``"edge"``, ``"reflect"``, ``"symmetric"``, ``"wrap"``, in any case); the padding is
  ``jaxpad.pad`` (Equinox uses ``jnp.pad``): a faster gradient, and no
  ``ShardingTypeError`` on an input sharded along a padded axis;
- ``ConvTranspose`` honours every mode, with any ``padding`` and ``output_padding``
  (Equinox implements only CIRCULAR with SAME and no output padding): it is the VJP
  of the ``Conv`` padded in that mode;
- ``padding=`` also takes a ``jaxpad.PaddingPolicy`` (``jaxpad.policies.torch(1)``,
  ...), whose pad mode applies unless ``padding_mode`` is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import equinox as eqx
import jax
from jax import lax

from jaxpad import _interpolate, _window_ops
from jaxpad._policy import PaddingPolicy

__all__ = [
    "Conv",
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "ConvTranspose",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "ConvTranspose3d",
    "Upsample",
    "UpsamplingBilinear2d",
    "UpsamplingNearest2d",
]

# Equinox's names (and "SYMMETRIC", which it lacks), then jaxpad's, upper-cased.
_MODES = {
    "ZEROS": "constant",
    "REFLECT": "reflect",
    "REPLICATE": "edge",
    "CIRCULAR": "wrap",
    "SYMMETRIC": "symmetric",
    "CONSTANT": "constant",
    "EDGE": "edge",
    "WRAP": "wrap",
}
_NAMES = {"constant": "ZEROS", "reflect": "REFLECT", "edge": "REPLICATE", "wrap": "CIRCULAR"}


class _Default(str):
    """The default ``padding_mode``, ``"ZEROS"`` as Equinox's, told apart from a
    ``"ZEROS"`` passed explicitly: with a policy the default defers to the policy's mode,
    an explicit mode overrides it."""


_ZEROS = _Default("ZEROS")


def _padding_mode(fn, padding_mode, policy):
    """The stored (Equinox-style, upper-case) name of the pad mode."""
    if padding_mode is None or padding_mode is _ZEROS:
        if policy is None:
            return "ZEROS"
        return _NAMES.get(policy.pad_mode, policy.pad_mode.upper())
    if isinstance(padding_mode, str) and padding_mode.upper() in _MODES:
        return padding_mode.upper()
    raise ValueError(
        f"{fn}: padding_mode must be one of 'ZEROS', 'REFLECT', 'REPLICATE', 'CIRCULAR', "
        f"'SYMMETRIC' or a jaxpad.pad mode ('constant', 'edge', 'reflect', 'symmetric', "
        f"'wrap'), in any case; got {padding_mode!r}."
    )


def _init(fn, init, **kwargs):
    """Equinox's own checks, under the public name."""
    try:
        init(**kwargs)
    except ValueError as error:
        raise ValueError(f"{fn}: {error}") from None


def _check_input(fn, x, num_spatial_dims, in_channels):
    if x.ndim != num_spatial_dims + 1:
        raise ValueError(
            f"{fn}: x must have rank {num_spatial_dims + 1} (in_channels and "
            f"{num_spatial_dims} spatial axes); got shape {x.shape}."
        )
    if x.shape[0] != in_channels:
        raise ValueError(
            f"{fn}: x must have in_channels={in_channels} channels on its first axis; "
            f"got shape {x.shape}."
        )


def _numbers(x, weight):
    return lax.conv_dimension_numbers((1, *x.shape), weight.shape, None)


class Conv(eqx.nn.Conv):
    """``equinox.nn.Conv`` padded by jaxpad: any pad mode, or a ``jaxpad.PaddingPolicy``.

    Takes every argument of ``eqx.nn.Conv``, with the same names and pytree, and:

    Args:
      padding: Equinox's (an int, per-axis ints, ``(low, high)`` pairs, ``"SAME"``,
        ``"SAME_LOWER"``, ``"VALID"``) or a ``jaxpad.PaddingPolicy`` (its pads,
        output size and pad mode).
      padding_mode: ``"ZEROS"``, ``"REFLECT"``, ``"REPLICATE"``, ``"CIRCULAR"``,
        ``"SYMMETRIC"`` or a ``jaxpad.pad`` mode name, in any case. The default
        ``"ZEROS"`` (as Equinox's) pads with zeros, or with a policy in the policy's
        mode; a mode passed explicitly (``"ZEROS"`` too) overrides the policy's.

    Example:
      >>> import jax, jax.numpy as jnp, jaxpad.equinox
      >>> conv = jaxpad.equinox.Conv(2, 3, 4, 3, padding=1, padding_mode="REFLECT",
      ...                            key=jax.random.key(0))
      >>> conv(jnp.ones((3, 8, 8))).shape
      (4, 8, 8)
    """

    def __init__(
        self,
        num_spatial_dims: int,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: Any = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        use_bias: bool = True,
        padding_mode: str | None = _ZEROS,
        dtype: Any = None,
        *,
        key: jax.Array,
    ):
        fn = "jaxpad.equinox.Conv"
        policy = padding if isinstance(padding, PaddingPolicy) else None
        mode_name = _padding_mode(fn, padding_mode, policy)
        _init(
            fn,
            super().__init__,
            num_spatial_dims=num_spatial_dims,
            in_channels=in_channels,
            out_channels=out_channels,
            kernel_size=kernel_size,
            stride=stride,
            padding=0 if policy is not None else padding,
            dilation=dilation,
            groups=groups,
            use_bias=use_bias,
            padding_mode="ZEROS",
            dtype=dtype,
            key=key,
        )
        self.padding_mode = mode_name
        if policy is not None:
            # Equinox types padding as its own forms; these layers hold a policy.
            self.padding = policy  # type: ignore[assignment]

    def __call__(self, x: jax.Array, *, key: jax.Array | None = None) -> jax.Array:
        """Applies the convolution to ``x`` of shape ``(in_channels, *spatial)``."""
        del key
        fn = "jaxpad.equinox.Conv"
        _check_input(fn, x, self.num_spatial_dims, self.in_channels)
        mode = _MODES[self.padding_mode]
        sizes = x.shape[1:]
        out_sizes = None
        if isinstance(self.padding, PaddingPolicy):
            args = (sizes, self.kernel_size, self.stride, self.dilation)
            pads = _window_ops.ask_policy(fn, self.padding, "pads", *args)
            out_sizes = _window_ops.ask_policy(fn, self.padding, "output_shape", *args)
        elif isinstance(self.padding, str):
            spans = [d * (k - 1) + 1 for k, d in zip(self.kernel_size, self.dilation)]
            pads = lax.padtype_to_pads(sizes, spans, self.stride, self.padding)
        else:
            pads = self.padding
        y = _window_ops.padded_conv(
            x[None],
            self.weight,
            self.stride,
            pads,
            mode,
            _numbers(x, self.weight),
            rhs_dilation=self.dilation,
            feature_group_count=self.groups,
            # Called per example under jax.vmap: planned for the batch vmap gives it.
            batched_planning=True,
        )[0]
        if out_sizes is not None:
            y = lax.slice(y, (0,) * y.ndim, (y.shape[0], *out_sizes))
        if self.use_bias:
            y = y + self.bias
        return y


class ConvTranspose(eqx.nn.ConvTranspose):
    """``equinox.nn.ConvTranspose`` in every pad mode: the VJP of the padded ``Conv``.

    Takes every argument of ``eqx.nn.ConvTranspose``, with the same names and pytree,
    and ``padding`` / ``padding_mode`` as ``jaxpad.equinox.Conv`` (the forward
    convolution's). In a mode other than zeros, what the forward convolution read
    from its padding is added back to the input positions it came from (folded
    around the period for CIRCULAR, around the mirror for REFLECT), for every
    ``padding`` and ``output_padding``.

    Example:
      >>> import jax, jax.numpy as jnp, jaxpad.equinox
      >>> up = jaxpad.equinox.ConvTranspose(2, 4, 3, 3, stride=2, padding=1,
      ...                                   output_padding=1, padding_mode="REFLECT",
      ...                                   key=jax.random.key(0))
      >>> up(jnp.ones((4, 5, 5))).shape
      (3, 10, 10)
    """

    def __init__(
        self,
        num_spatial_dims: int,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: Any = 0,
        output_padding: int | Sequence[int] = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        use_bias: bool = True,
        padding_mode: str | None = _ZEROS,
        dtype: Any = None,
        *,
        key: jax.Array,
    ):
        fn = "jaxpad.equinox.ConvTranspose"
        policy = padding if isinstance(padding, PaddingPolicy) else None
        mode_name = _padding_mode(fn, padding_mode, policy)
        _init(
            fn,
            super().__init__,
            num_spatial_dims=num_spatial_dims,
            in_channels=in_channels,
            out_channels=out_channels,
            kernel_size=kernel_size,
            stride=stride,
            padding=0 if policy is not None else padding,
            output_padding=output_padding,
            dilation=dilation,
            groups=groups,
            use_bias=use_bias,
            padding_mode="ZEROS",
            dtype=dtype,
            key=key,
        )
        self.padding_mode = mode_name
        if policy is not None:
            # Equinox types padding as its own forms; these layers hold a policy.
            self.padding = policy  # type: ignore[assignment]

    def _forward_pads(self, fn, sizes):
        """``(lo, hi, a)`` per axis: the forward conv's pads and the output padding."""
        if isinstance(self.padding, PaddingPolicy):
            return _window_ops.ask_policy(
                fn,
                self.padding,
                "reverse_pads",
                sizes,
                self.kernel_size,
                self.stride,
                self.dilation,
                self.output_padding,
            )
        result = []
        for axis, (k, s, a, d) in enumerate(
            zip(self.kernel_size, self.stride, self.output_padding, self.dilation)
        ):
            if self.padding == "VALID":
                lo = hi = 0
            elif isinstance(self.padding, str):
                # Equinox's SAME: the output padding reduces the pads; only what is
                # left below zero remains an output padding.
                total = d * (k - 1) - s + a + 1
                a = max(-total, 0)
                total = max(total, 0)
                lo = (total + (self.padding == "SAME_LOWER")) // 2
                hi = total - lo
            else:
                lo, hi = self.padding[axis]
            result.append((int(lo), int(hi), int(a)))
        return result

    def __call__(self, x: jax.Array, *, key: jax.Array | None = None) -> jax.Array:
        """Applies the transposed convolution to ``x`` of shape ``(in_channels, *spatial)``."""
        del key
        fn = "jaxpad.equinox.ConvTranspose"
        _check_input(fn, x, self.num_spatial_dims, self.in_channels)
        fold_pads = [(lo, hi - a) for lo, hi, a in self._forward_pads(fn, x.shape[1:])]
        y = _window_ops.folded_conv_transpose(
            x[None],
            self.weight,
            self.stride,
            fold_pads,
            _MODES[self.padding_mode],
            _numbers(x, self.weight),
            rhs_dilation=self.dilation,
            feature_group_count=self.groups,
        )[0]
        if self.use_bias:
            y = y + self.bias
        return y


# Equinox's fixed-rank spellings ---------------------------------------------------------


class Conv1d(Conv):
    """``equinox.nn.Conv1d`` padded by jaxpad: ``Conv`` with ``num_spatial_dims=1``.

    Example:
      >>> import jax, jax.numpy as jnp, jaxpad.equinox
      >>> conv = jaxpad.equinox.Conv1d(3, 4, 3, padding=1, padding_mode="CIRCULAR",
      ...                              key=jax.random.key(0))
      >>> conv(jnp.ones((3, 8))).shape
      (4, 8)
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: Any = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        use_bias: bool = True,
        padding_mode: str | None = _ZEROS,
        dtype: Any = None,
        *,
        key: jax.Array,
    ):
        super().__init__(
            1, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
            use_bias, padding_mode, dtype, key=key,
        )  # fmt: skip


class Conv2d(Conv):
    """``equinox.nn.Conv2d`` padded by jaxpad: ``Conv`` with ``num_spatial_dims=2``.

    Example:
      >>> import jax, jax.numpy as jnp, jaxpad.equinox
      >>> conv = jaxpad.equinox.Conv2d(3, 4, 3, padding=1, padding_mode="REFLECT",
      ...                              key=jax.random.key(0))
      >>> conv(jnp.ones((3, 8, 8))).shape
      (4, 8, 8)
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: Any = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        use_bias: bool = True,
        padding_mode: str | None = _ZEROS,
        dtype: Any = None,
        *,
        key: jax.Array,
    ):
        super().__init__(
            2, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
            use_bias, padding_mode, dtype, key=key,
        )  # fmt: skip


class Conv3d(Conv):
    """``equinox.nn.Conv3d`` padded by jaxpad: ``Conv`` with ``num_spatial_dims=3``.

    Example:
      >>> import jax, jax.numpy as jnp, jaxpad.equinox
      >>> conv = jaxpad.equinox.Conv3d(3, 4, 3, padding=1, padding_mode="REPLICATE",
      ...                              key=jax.random.key(0))
      >>> conv(jnp.ones((3, 5, 5, 5))).shape
      (4, 5, 5, 5)
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: Any = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        use_bias: bool = True,
        padding_mode: str | None = _ZEROS,
        dtype: Any = None,
        *,
        key: jax.Array,
    ):
        super().__init__(
            3, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
            use_bias, padding_mode, dtype, key=key,
        )  # fmt: skip


# Equinox's fixed-rank ConvTranspose takes output_padding before padding (its
# ConvTranspose takes it after); the aliases follow Equinox's order.


class ConvTranspose1d(ConvTranspose):
    """``equinox.nn.ConvTranspose1d`` padded by jaxpad: ``ConvTranspose`` with
    ``num_spatial_dims=1``.

    Example:
      >>> import jax, jax.numpy as jnp, jaxpad.equinox
      >>> up = jaxpad.equinox.ConvTranspose1d(4, 3, 3, stride=2, padding=1,
      ...                                     output_padding=1, padding_mode="CIRCULAR",
      ...                                     key=jax.random.key(0))
      >>> up(jnp.ones((4, 5))).shape
      (3, 10)
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        output_padding: int | Sequence[int] = 0,
        padding: Any = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        use_bias: bool = True,
        padding_mode: str | None = _ZEROS,
        dtype: Any = None,
        *,
        key: jax.Array,
    ):
        super().__init__(
            1, in_channels, out_channels, kernel_size, stride, padding, output_padding,
            dilation, groups, use_bias, padding_mode, dtype, key=key,
        )  # fmt: skip


class ConvTranspose2d(ConvTranspose):
    """``equinox.nn.ConvTranspose2d`` padded by jaxpad: ``ConvTranspose`` with
    ``num_spatial_dims=2``.

    Example:
      >>> import jax, jax.numpy as jnp, jaxpad.equinox
      >>> up = jaxpad.equinox.ConvTranspose2d(4, 3, 3, stride=2, padding=1,
      ...                                     output_padding=1, padding_mode="REFLECT",
      ...                                     key=jax.random.key(0))
      >>> up(jnp.ones((4, 5, 5))).shape
      (3, 10, 10)
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        output_padding: int | Sequence[int] = 0,
        padding: Any = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        use_bias: bool = True,
        padding_mode: str | None = _ZEROS,
        dtype: Any = None,
        *,
        key: jax.Array,
    ):
        super().__init__(
            2, in_channels, out_channels, kernel_size, stride, padding, output_padding,
            dilation, groups, use_bias, padding_mode, dtype, key=key,
        )  # fmt: skip


class ConvTranspose3d(ConvTranspose):
    """``equinox.nn.ConvTranspose3d`` padded by jaxpad: ``ConvTranspose`` with
    ``num_spatial_dims=3``.

    Example:
      >>> import jax, jax.numpy as jnp, jaxpad.equinox
      >>> up = jaxpad.equinox.ConvTranspose3d(4, 3, 3, stride=2, padding=1,
      ...                                     output_padding=1, key=jax.random.key(0))
      >>> up(jnp.ones((4, 3, 3, 3))).shape
      (3, 6, 6, 6)
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        output_padding: int | Sequence[int] = 0,
        padding: Any = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        use_bias: bool = True,
        padding_mode: str | None = _ZEROS,
        dtype: Any = None,
        *,
        key: jax.Array,
    ):
        super().__init__(
            3, in_channels, out_channels, kernel_size, stride, padding, output_padding,
            dilation, groups, use_bias, padding_mode, dtype, key=key,
        )  # fmt: skip


class Upsample(eqx.Module):
    """``torch.nn.Upsample``: ``jaxpad.nn.interpolate`` as a layer, on one example of
    shape ``(channels, *spatial)`` (Equinox's convention; ``jax.vmap`` it over a batch).

    Attributes:
      size: as ``jaxpad.nn.interpolate``'s (and torch's).
      scale_factor: as ``jaxpad.nn.interpolate``'s.
      mode: as ``jaxpad.nn.interpolate``'s.
      align_corners: as ``jaxpad.nn.interpolate``'s.
      recompute_scale_factor: as ``jaxpad.nn.interpolate``'s.

    Example:
      >>> import jax.numpy as jnp, jaxpad.equinox
      >>> up = jaxpad.equinox.Upsample(scale_factor=2, mode="bilinear")
      >>> up(jnp.ones((3, 4, 5))).shape
      (3, 8, 10)
    """

    size: Any = eqx.field(static=True, default=None)
    scale_factor: Any = eqx.field(static=True, default=None)
    mode: str = eqx.field(static=True, default="nearest")
    align_corners: bool | None = eqx.field(static=True, default=None)
    recompute_scale_factor: bool | None = eqx.field(static=True, default=None)

    def __call__(self, x: jax.Array, *, key: jax.Array | None = None) -> jax.Array:
        """Resizes ``x`` of shape ``(channels, *spatial)``."""
        del key
        if x.ndim not in (2, 3, 4):
            raise ValueError(
                f"jaxpad.equinox.{type(self).__name__}: x must have rank 2-4 (channels and "
                f"1-3 spatial axes); got shape {x.shape}."
            )
        y = _interpolate.interpolate(
            x[None],
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            self.recompute_scale_factor,
        )
        return y[0]


class UpsamplingNearest2d(Upsample):
    """``torch.nn.UpsamplingNearest2d``: ``Upsample`` with ``mode="nearest"``.

    Example:
      >>> import jax.numpy as jnp, jaxpad.equinox
      >>> jaxpad.equinox.UpsamplingNearest2d(scale_factor=2)(jnp.ones((3, 4, 5))).shape
      (3, 8, 10)
    """

    def __init__(self, size: Any = None, scale_factor: Any = None):
        self.size = size
        self.scale_factor = scale_factor
        self.mode = "nearest"
        self.align_corners = None
        self.recompute_scale_factor = None


class UpsamplingBilinear2d(Upsample):
    """``torch.nn.UpsamplingBilinear2d``: ``Upsample`` with ``mode="bilinear"`` and
    ``align_corners=True`` (as torch's).

    Example:
      >>> import jax.numpy as jnp, jaxpad.equinox
      >>> jaxpad.equinox.UpsamplingBilinear2d(size=(6, 7))(jnp.ones((3, 4, 5))).shape
      (3, 6, 7)
    """

    def __init__(self, size: Any = None, scale_factor: Any = None):
        self.size = size
        self.scale_factor = scale_factor
        self.mode = "bilinear"
        self.align_corners = True
        self.recompute_scale_factor = None
