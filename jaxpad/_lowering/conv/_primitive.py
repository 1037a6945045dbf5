"""``jaxpad_planned_conv``: one planned convolution as one primitive, with its rules
(abstract evaluation, JVP, transpose, batching, lowering)."""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir, xla

from jaxpad._lowering.conv._program import conv_program, platform_plans

# One convolution as one primitive, for layers that run per example under jax.vmap
# (Equinox's): its batching rule merges the mapped axis into the convolution's batch and
# binds it again, so that the planner sees the shape the program runs (table "Equinox's
# per-example layers" in docs/performance.md: at batch 1 the framed tangent's
# channels-first size is never met). Its value, lowering and derivatives are those of
# ``lowered_conv`` planned for the shape it is bound with.


def _planned_params(
    strides,
    pads,
    mode,
    numbers,
    lhs_dilation,
    rhs_dilation,
    feature_group_count,
    precision,
    preferred_element_type,
):
    """``planned_conv_p``'s parameters, hashable."""

    def ints(values):
        return None if values is None else tuple(int(v) for v in values)

    return dict(
        strides=ints(strides),
        pads=tuple((int(lo), int(hi)) for lo, hi in pads),
        mode=mode,
        numbers=numbers,
        lhs_dilation=ints(lhs_dilation),
        rhs_dilation=ints(rhs_dilation),
        feature_group_count=int(feature_group_count),
        precision=precision,
        preferred_element_type=(
            None if preferred_element_type is None else np.dtype(preferred_element_type)
        ),
    )


def planned_conv(
    x,
    kernel,
    *,
    strides,
    pads,
    mode,
    numbers,
    lhs_dilation=None,
    rhs_dilation=None,
    feature_group_count=1,
    precision=None,
    preferred_element_type=None,
):
    """``planned_conv_p``'s convolution: ``lowered_conv``'s per-platform program."""
    options = dict(
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        feature_group_count=feature_group_count,
    )
    plans = platform_plans(
        x,
        kernel,
        strides,
        pads,
        mode,
        numbers,
        preferred_element_type=preferred_element_type,
        **options,
    )
    return conv_program(
        plans,
        x,
        kernel,
        strides,
        pads,
        mode,
        numbers,
        precision=precision,
        preferred_element_type=preferred_element_type,
        **options,
    )


def _planned_abstract_eval(x, kernel, **params):
    out = jax.eval_shape(
        partial(planned_conv, **params),
        jax.ShapeDtypeStruct(x.shape, x.dtype),
        jax.ShapeDtypeStruct(kernel.shape, kernel.dtype),
    )
    return x.update(shape=out.shape, dtype=out.dtype)


def _planned_jvp(primals, tangents, **params):
    """The derivatives of the form planned for these shapes (its own ``custom_jvp``
    where it has one); an operand without a tangent stays a constant."""
    x, kernel = primals
    d_x, d_kernel = tangents
    conv = partial(planned_conv, **params)
    if type(d_x) is ad.Zero:
        return jax.jvp(lambda kernel: conv(x, kernel), (kernel,), (d_kernel,))
    if type(d_kernel) is ad.Zero:
        return jax.jvp(lambda x: conv(x, kernel), (x,), (d_x,))
    return jax.jvp(conv, (x, kernel), (d_x, d_kernel))


def _planned_transpose(ct, x, kernel, **params):
    """The transpose in the one operand that is linear (``jax.linear_transpose`` of a
    convolution by a fixed kernel, or of a fixed input): that of the planned form."""
    conv = partial(planned_conv, **params)
    if ad.is_undefined_primal(kernel):
        if ad.is_undefined_primal(x):
            raise ValueError("jaxpad_planned_conv: bilinear, not linear in both operands.")
        operand, fixed = kernel, x

        def linear(kernel):
            return conv(fixed, kernel)
    else:
        operand, fixed = x, kernel

        def linear(x):
            return conv(x, fixed)

    if type(ct) is ad.Zero:
        return None, None
    aval = operand.aval
    (result,) = jax.linear_transpose(linear, jax.ShapeDtypeStruct(aval.shape, aval.dtype))(ct)
    return (None, result) if operand is kernel else (result, None)


def _planned_batch(args, dims, **params):
    """A mapped input (the kernel shared) joins the batch axis, mapped axis major, and
    the convolution is planned again; a mapped kernel is ``jax.vmap`` of the form."""
    (x, kernel), (x_dim, k_dim) = args, dims
    if k_dim is not None:
        return jax.vmap(partial(planned_conv, **params), in_axes=(x_dim, k_dim))(x, kernel), 0
    numbers = params["numbers"]
    n_axis, o_axis = numbers.lhs_spec[0], numbers.out_spec[0]
    x = jnp.moveaxis(x, x_dim, n_axis)  # the mapped axis just before the batch axis
    size, batch = x.shape[n_axis], x.shape[n_axis + 1]
    merged = x.reshape(*x.shape[:n_axis], size * batch, *x.shape[n_axis + 2 :])
    out = planned_conv_p.bind(merged, kernel, **params)
    return out.reshape(*out.shape[:o_axis], size, batch, *out.shape[o_axis + 1 :]), o_axis


planned_conv_p = Primitive("jaxpad_planned_conv")
planned_conv_p.def_impl(partial(xla.apply_primitive, planned_conv_p))
planned_conv_p.def_abstract_eval(_planned_abstract_eval)
ad.primitive_jvps[planned_conv_p] = _planned_jvp
ad.primitive_transposes[planned_conv_p] = _planned_transpose
batching.primitive_batchers[planned_conv_p] = _planned_batch
mlir.register_lowering(planned_conv_p, mlir.lower_fun(planned_conv, multiple_results=False))
