"""The catalogue of bad (and borderline) inputs: every row is run by
``tests/test_bad_inputs.py``, and ``docs/bad-inputs.md`` is rendered from this table, so
the page cannot drift from the code.

Regenerate the page after editing the table: ``python -m tests.bad_inputs``.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad
import jaxpad.numpy as jpnp
import jaxpad.scipy  # the rows of jaxpad.scipy.ndimage and .signal
from jaxpad import nn, policies

DOC = Path(__file__).resolve().parent.parent / "docs" / "bad-inputs.md"
NAMESPACE = {
    "jax": jax,
    "jnp": jnp,
    "np": np,
    "jaxpad": jaxpad,
    "jpnp": jpnp,
    "nn": nn,
    "policies": policies,
}


class Row(NamedTuple):
    function: str
    case: str
    code: str
    # "TypeError" or "ValueError" for a rejected input, "accepted" for one that works.
    outcome: str
    # The error message, or for an accepted input the result as a nested list.
    result: str


ROWS = [
    Row(
        "jaxpad.pad",
        "unknown mode",
        'jaxpad.pad(jnp.ones(3), [1], [1], "mirror")',
        "ValueError",
        "jaxpad.pad: mode must be one of 'constant', 'edge', 'reflect', 'symmetric', 'wrap', "
        "'reflect_odd', 'symmetric_odd', 'dirichlet', 'neumann', 'antisymmetric', 'smooth', "
        "'line'; got 'mirror'. Other frameworks' names translate with jaxpad.modes "
        "(from_torch, from_tensorflow, from_scipy, from_opencv, from_onnx, from_numpy).",
    ),
    Row(
        "jaxpad.pad",
        "pads_begin with the wrong length",
        "jaxpad.pad(jnp.ones((2, 2, 2)), [1, 1], [1, 1, 1])",
        "ValueError",
        "jaxpad.pad: pads_begin needs one entry per axis of x (x.ndim=3); got 2: (1, 1).",
    ),
    Row(
        "jaxpad.pad",
        "a float pad",
        "jaxpad.pad(jnp.ones(3), [1.0], [1])",
        "TypeError",
        "jaxpad.pad: pads_begin[0] must be an int; got 1.0.",
    ),
    Row(
        "jaxpad.pad",
        "a Python bool pad",
        "jaxpad.pad(jnp.ones(3), [True], [1])",
        "TypeError",
        "jaxpad.pad: pads_begin[0] must be an int, not a bool; got True.",
    ),
    Row(
        "jaxpad.pad",
        "a float array of pads",
        "jaxpad.pad(jnp.ones(3), np.array([1.0]), [1])",
        "TypeError",
        "jaxpad.pad: pads_begin must have an integer dtype; got an array of shape (1,) and dtype "
        "float64.",
    ),
    Row(
        "jaxpad.pad",
        "a 2-D array of pads",
        "jaxpad.pad(jnp.ones(3), np.array([[1]]), [1])",
        "ValueError",
        "jaxpad.pad: pads_begin must be 1-D with one entry per axis; got an array of shape (1, 1) "
        "and dtype int64.",
    ),
    Row(
        "jaxpad.pad",
        "a string for pads",
        'jaxpad.pad(jnp.ones(3), "1", [1])',
        "TypeError",
        "jaxpad.pad: pads_begin must be a sequence of ints with one entry per axis; got '1'.",
    ),
    Row(
        "jaxpad.pad",
        "traced pads",
        "jax.jit(lambda p: jaxpad.pad(jnp.ones(3), p, [1]))(jnp.array([1]))",
        "TypeError",
        "jaxpad.pad: pads_begin must be static (Python ints or a concrete array); got a traced "
        "array of shape (1,) and dtype int32. Pads known only at run time (traced, or different "
        "per example under vmap) need jaxpad.dynamic_pad(x, pads_begin, shape, mode).",
    ),
    Row(
        "jaxpad.pad",
        "negative output size",
        "jaxpad.pad(jnp.ones(3), [-2], [-2])",
        "ValueError",
        "jaxpad.pad: the output would have negative size -1 on axis 0: pads_begin[0]=-2, "
        "x.shape[0]=3, pads_end[0]=-2.",
    ),
    Row(
        "jaxpad.pad",
        "pad_value with a non-constant mode",
        'jaxpad.pad(jnp.ones(3), [1], [1], "edge", 0.0)',
        "ValueError",
        "jaxpad.pad: pad_value is only read by sides whose mode is 'constant', 'dirichlet' or "
        "'neumann'; got pad_value=0.0 with mode='edge'.",
    ),
    Row(
        "jaxpad.pad",
        "non-scalar pad_value",
        "jaxpad.pad(jnp.ones(3), [1], [1], pad_value=jnp.ones(2))",
        "ValueError",
        "jaxpad.pad: pad_value must be a scalar or have shape (x.ndim, 2) = (1, 2), one value "
        "per side of each axis; got shape (2,).",
    ),
    Row(
        "jaxpad.pad",
        "complex pad_value for real x",
        "jaxpad.pad(jnp.ones(3), [1], [1], pad_value=1j)",
        "TypeError",
        "jaxpad.pad: a complex pad_value would lose its imaginary part in x's dtype float32; got "
        "an array of shape () and dtype complex64.",
    ),
    Row(
        "jaxpad.pad",
        "interior with a non-constant mode",
        'jaxpad.pad(jnp.ones(3), [1], [1], "reflect", interior=[1])',
        "ValueError",
        "jaxpad.pad: interior padding needs mode='constant' and a scalar pad_value; got "
        "interior=(1,) with mode='reflect'.",
    ),
    Row(
        "jaxpad.pad",
        "negative interior",
        "jaxpad.pad(jnp.ones(3), [1], [1], interior=[-1])",
        "ValueError",
        "jaxpad.pad: interior must be non-negative; got (-1,).",
    ),
    Row(
        "jaxpad.pad",
        "non-constant mode on an empty axis",
        'jaxpad.pad(jnp.ones((0, 2)), [1, 0], [0, 0], "wrap")',
        "ValueError",
        "jaxpad.pad: mode='wrap' cannot fill axis 0 of x.shape=(0, 2): it is empty and the output "
        "is not (size 1); only mode='constant' can pad an empty axis.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "unknown mode",
        'jaxpad.dynamic_pad(jnp.ones(3), [1], (5,), "mirror")',
        "ValueError",
        "jaxpad.dynamic_pad: mode must be one of 'constant', 'edge', 'reflect', 'symmetric', "
        "'wrap', 'reflect_odd', 'symmetric_odd', 'dirichlet', 'neumann', 'antisymmetric', "
        "'smooth', 'line'; got 'mirror'. Other frameworks' names translate with jaxpad.modes "
        "(from_torch, from_tensorflow, from_scipy, from_opencv, from_onnx, from_numpy).",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "float pads",
        "jaxpad.dynamic_pad(jnp.ones(3), jnp.array([1.0]), (5,))",
        "TypeError",
        "jaxpad.dynamic_pad: pads_begin must have an integer dtype; got an array of shape (1,) "
        "and dtype float32.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "pads with the wrong length",
        "jaxpad.dynamic_pad(jnp.ones((3, 3)), jnp.array([1]), (5, 5))",
        "ValueError",
        "jaxpad.dynamic_pad: pads_begin needs one entry per axis of x (x.ndim=2); got 1: "
        "an array of shape (1,) and dtype int32.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "shape with the wrong length",
        "jaxpad.dynamic_pad(jnp.ones(3), [1], (5, 5))",
        "ValueError",
        "jaxpad.dynamic_pad: shape needs one entry per axis of x (x.ndim=1); got 2: (5, 5).",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "negative shape",
        "jaxpad.dynamic_pad(jnp.ones(3), [1], (-1,))",
        "ValueError",
        "jaxpad.dynamic_pad: shape must be non-negative; got (-1,).",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "traced shape",
        "jax.jit(lambda n: jaxpad.dynamic_pad(jnp.ones(3), [1], (n,)))(5)",
        "TypeError",
        "jaxpad.dynamic_pad: shape[0] must be static; got a traced array of shape () and dtype "
        "int32.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "pad_value with a non-constant mode",
        'jaxpad.dynamic_pad(jnp.ones(3), [1], (5,), "wrap", 1.0)',
        "ValueError",
        "jaxpad.dynamic_pad: pad_value is only read by sides whose mode is 'constant', "
        "'dirichlet' or 'neumann'; got pad_value=1.0 with mode='wrap'.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "non-constant mode on an empty axis",
        'jaxpad.dynamic_pad(jnp.ones((0,)), [0], (2,), "edge")',
        "ValueError",
        "jaxpad.dynamic_pad: mode='edge' cannot fill axis 0 of x.shape=(0,): it is empty and the "
        "output is not (size 2); only mode='constant' can pad an empty axis.",
    ),
    Row(
        "jaxpad.broadcast",
        "unknown mode",
        'jaxpad.broadcast(jnp.ones(3), [2, 3], "pdpd")',
        "ValueError",
        "jaxpad.broadcast: mode must be one of 'numpy', 'explicit', 'bidirectional'; got 'pdpd'.",
    ),
    Row(
        "jaxpad.broadcast",
        "incompatible shapes",
        "jaxpad.broadcast(jnp.ones(3), [2, 4])",
        "ValueError",
        "jaxpad.broadcast: axis 0 of x.shape=(3,) has size 3, which is neither 1 nor "
        "target_shape[1]=4 (target_shape=(2, 4)).",
    ),
    Row(
        "jaxpad.broadcast",
        "target of lower rank",
        "jaxpad.broadcast(jnp.ones((2, 3)), [3])",
        "ValueError",
        "jaxpad.broadcast: mode='numpy' cannot broadcast x.shape=(2, 3) to the lower-rank "
        "target_shape=(3,); use mode='bidirectional' for that.",
    ),
    Row(
        "jaxpad.broadcast",
        "negative target size",
        "jaxpad.broadcast(jnp.ones(3), [-1, 3])",
        "ValueError",
        "jaxpad.broadcast: target_shape must be non-negative; got (-1, 3).",
    ),
    Row(
        "jaxpad.broadcast",
        "axes_mapping outside explicit mode",
        "jaxpad.broadcast(jnp.ones(3), [2, 3], axes_mapping=[1])",
        "ValueError",
        "jaxpad.broadcast: axes_mapping is only used by mode='explicit'; got axes_mapping=[1] "
        "with mode='numpy'.",
    ),
    Row(
        "jaxpad.broadcast",
        "explicit mode without axes_mapping",
        'jaxpad.broadcast(jnp.ones(3), [2, 3], "explicit")',
        "ValueError",
        "jaxpad.broadcast: mode='explicit' needs axes_mapping; got None.",
    ),
    Row(
        "jaxpad.broadcast",
        "unsorted axes_mapping",
        'jaxpad.broadcast(jnp.ones((3, 2)), [2, 2, 3], "explicit", axes_mapping=[2, 1])',
        "ValueError",
        "jaxpad.broadcast: axes_mapping must be sorted (Broadcast does not transpose); got (2, 1).",
    ),
    Row(
        "jaxpad.broadcast",
        "float target_shape",
        "jaxpad.broadcast(jnp.ones(3), [2.0, 3])",
        "TypeError",
        "jaxpad.broadcast: target_shape[0] must be an int; got 2.0.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "unknown mode",
        'jpnp.pad(jnp.ones(3), 1, "mirror")',
        "ValueError",
        "jaxpad.numpy.pad: mode must be one of 'constant', 'edge', 'wrap', 'reflect', "
        "'symmetric', 'linear_ramp', 'maximum', 'mean', 'median', 'minimum', 'empty'; got "
        "'mirror'.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "a keyword the mode does not take",
        'jpnp.pad(jnp.ones(3), 1, "edge", constant_values=1)',
        "ValueError",
        "jaxpad.numpy.pad: mode='edge' takes no keyword argument constant_values; it accepts none.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "negative width",
        "jpnp.pad(jnp.ones(3), -1)",
        "ValueError",
        "jaxpad.numpy.pad: pad_width must be non-negative (jaxpad.pad crops with negative pads); "
        "got -1.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "float width",
        "jpnp.pad(jnp.ones(3), 1.5)",
        "TypeError",
        "jaxpad.numpy.pad: pad_width must hold integers; got 1.5.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "pad_width of the wrong shape",
        "jpnp.pad(jnp.ones(3), ((1, 2, 3),))",
        "ValueError",
        "jaxpad.numpy.pad: pad_width must be a scalar, a (before, after) pair or one pair per "
        "axis, broadcastable to shape (1, 2); got shape (1, 3).",
    ),
    Row(
        "jaxpad.numpy.pad",
        "unknown reflect_type",
        'jpnp.pad(jnp.ones(3), 1, "reflect", reflect_type="mirror")',
        "ValueError",
        "jaxpad.numpy.pad: reflect_type must be one of 'even', 'odd'; got 'mirror'.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "stat_length of 0",
        'jpnp.pad(jnp.ones(3), 1, "maximum", stat_length=0)',
        "ValueError",
        "jaxpad.numpy.pad: stat_length of 0 on axis 0 gives no value to pad with; got "
        "stat_length=(0, 0).",
    ),
    Row(
        "jaxpad.PaddingPolicy",
        "unknown size",
        'jaxpad.PaddingPolicy(size="half")',
        "ValueError",
        "jaxpad.PaddingPolicy: size must be one of 'valid', 'same', 'full', 'explicit', "
        "'same_stride1', 'causal', 'custom', 'onnx_same'; got 'half'.",
    ),
    Row(
        "jaxpad.policies.tensorflow",
        "unknown padding",
        'policies.tensorflow("same")',
        "ValueError",
        "jaxpad.policies.tensorflow: padding must be one of 'SAME', 'VALID'; got 'same'.",
    ),
    Row(
        "jaxpad.policies.torch",
        "negative padding",
        "policies.torch(-1)",
        "ValueError",
        "jaxpad.policies.torch: padding must be non-negative; got -1.",
    ),
    Row(
        "jaxpad.policies.tensorflow('SAME').pads",
        "window of the wrong length",
        'policies.tensorflow("SAME").pads((5, 5), (3,), (1, 1))',
        "ValueError",
        "jaxpad.policies.tensorflow('SAME'): window needs one entry per axis (2); got 1: (3,).",
    ),
    Row(
        "jaxpad.nn.max_pool",
        "window of the wrong length",
        "nn.max_pool(jnp.ones((1, 5, 1)), (3,))",
        "ValueError",
        "jaxpad.nn.max_pool: window needs one entry per axis (3); got 1: (3,).",
    ),
    Row(
        "jaxpad.nn.conv",
        "kernel of the wrong rank",
        "nn.conv(jnp.ones((1, 1, 5)), jnp.ones((1, 3)))",
        "ValueError",
        "jaxpad.nn.conv: x and kernel need the same rank (>= 2); got x.shape=(1, 1, 5), "
        "kernel.shape=(1, 3).",
    ),
    Row(
        "jaxpad.policies.caffe",
        "negative pad",
        "policies.caffe(-1)",
        "ValueError",
        "jaxpad.policies.caffe: pad must be non-negative; got -1.",
    ),
    Row(
        "jaxpad.policies.onnx",
        "negative pads",
        "policies.onnx(pads=[0, -1, 0, 0])",
        "ValueError",
        "jaxpad.policies.onnx: pads must be non-negative; got (0, -1, 0, 0).",
    ),
    # Borderline inputs that are not errors.
    Row(
        "jaxpad.pad",
        "a pad beyond int64",
        "jaxpad.pad(jnp.ones(4), [2**63], [0])",
        "ValueError",
        "jaxpad.pad: pads_begin[0] must fit in int64 [-2**63, 2**63 - 1]; got 9223372036854775808.",
    ),
    Row(
        "jaxpad.pad",
        "an output size beyond int64",
        "jax.eval_shape(lambda x: jaxpad.pad(x, [2**62], [2**62]), jnp.ones(4))",
        "ValueError",
        "jaxpad.pad: the output would have 9223372036854775812 elements on axis 0, more than "
        "int64 can index: pads_begin[0]=4611686018427387904, x.shape[0]=4, interior[0]=0, "
        "pads_end[0]=4611686018427387904.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "a static pad beyond int64",
        "jaxpad.dynamic_pad(jnp.ones(4), [-(2**63) - 1], (4,))",
        "ValueError",
        "jaxpad.dynamic_pad: pads_begin[0] must fit in int64 [-2**63, 2**63 - 1]; got "
        "-9223372036854775809.",
    ),
    Row(
        "jaxpad.broadcast",
        "a target size beyond int64",
        "jaxpad.broadcast(jnp.ones(1), [2**64])",
        "ValueError",
        "jaxpad.broadcast: target_shape[0] must fit in int64 [-2**63, 2**63 - 1]; got "
        "18446744073709551616.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "stat_length 0 for maximum, on an axis padded by 0",
        'jpnp.pad(jnp.array([1.0, 2.0]), 0, "maximum", stat_length=0)',
        "ValueError",
        "jaxpad.numpy.pad: stat_length of 0 on axis 0 gives no value to pad with; got "
        "stat_length=(0, 0).",
    ),
    Row(
        "jaxpad.PaddingPolicy",
        "a field the size does not read",
        'jaxpad.PaddingPolicy("same", explicit=1)',
        "ValueError",
        "jaxpad.PaddingPolicy: explicit is not read with size='same'; got explicit=1.",
    ),
    Row(
        "jaxpad.policies.torch",
        "a pooling option with string padding",
        'policies.torch("same", ceil_mode=True)',
        "ValueError",
        "jaxpad.policies.torch: ceil_mode is a pooling option and padding='same' a convolution "
        "one (PyTorch's pools take int padding); got ceil_mode=True with padding='same'.",
    ),
    Row(
        "jaxpad.halo_pad",
        "halo_begin with the wrong length",
        'jax.vmap(lambda b: jaxpad.halo_pad(b, [1], [1, 0], axis_names=["i", None]), '
        'axis_name="i")(jnp.ones((2, 4, 3)))',
        "ValueError",
        "jaxpad.halo_pad: halo_begin needs one entry per axis of x (x.ndim=2); got 1: (1,).",
    ),
    Row(
        "jaxpad.halo_pad",
        "a negative halo",
        'jax.vmap(lambda b: jaxpad.halo_pad(b, [1, 0], [-1, 0], axis_names=["i", None]), '
        'axis_name="i")(jnp.ones((2, 4, 3)))',
        "ValueError",
        "jaxpad.halo_pad: halo_end must be non-negative; got (-1, 0).",
    ),
    Row(
        "jaxpad.halo_pad",
        "unknown mode",
        'jax.vmap(lambda b: jaxpad.halo_pad(b, [1, 0], [1, 0], "mirror", axis_names=["i", None]), '
        'axis_name="i")(jnp.ones((2, 4, 3)))',
        "ValueError",
        "jaxpad.halo_pad: mode must be one of 'constant', 'edge', 'reflect', 'symmetric', "
        "'wrap', 'reflect_odd', 'symmetric_odd', 'dirichlet', 'neumann', 'antisymmetric', "
        "'smooth', 'line'; got 'mirror'. Other frameworks' names translate with jaxpad.modes "
        "(from_torch, from_tensorflow, from_scipy, from_opencv, from_onnx, from_numpy).",
    ),
    Row(
        "jaxpad.halo_pad",
        "axis_names with the wrong length",
        'jax.vmap(lambda b: jaxpad.halo_pad(b, [1, 0], [1, 0], axis_names=["i"]), '
        'axis_name="i")(jnp.ones((2, 4, 3)))',
        "ValueError",
        "jaxpad.halo_pad: axis_names needs one entry per axis of x (x.ndim=2); got 1: ('i',).",
    ),
    Row(
        "jaxpad.halo_pad",
        "axis_names as a string",
        'jax.vmap(lambda b: jaxpad.halo_pad(b, [1, 0], [1, 0], axis_names="i_"), '
        'axis_name="i")(jnp.ones((2, 4, 3)))',
        "TypeError",
        "jaxpad.halo_pad: axis_names must be a sequence with one entry per axis of x (a mesh "
        "axis name, a tuple of names, or None); got 'i_'.",
    ),
    Row(
        "jaxpad.halo_pad",
        "a mesh axis named twice",
        'jax.vmap(lambda b: jaxpad.halo_pad(b, [1, 0], [1, 0], axis_names=["i", "i"]), '
        'axis_name="i")(jnp.ones((2, 4, 3)))',
        "ValueError",
        "jaxpad.halo_pad: axis_names names mesh axis 'i' more than once; a mesh axis splits "
        "one axis of x. Got axis_names=('i', 'i').",
    ),
    Row(
        "jaxpad.halo_pad",
        "a mesh axis not bound here",
        'jax.vmap(lambda b: jaxpad.halo_pad(b, [1, 0], [1, 0], axis_names=["x", None]), '
        'axis_name="i")(jnp.ones((2, 4, 3)))',
        "ValueError",
        "jaxpad.halo_pad: axis_names[0] names mesh axis 'x', which is not bound here; call "
        "halo_pad inside jax.shard_map over a mesh with that axis (or a jax.vmap with that "
        "axis_name).",
    ),
    Row(
        "jaxpad.halo_pad",
        "pad_value with a non-constant mode",
        'jax.vmap(lambda b: jaxpad.halo_pad(b, [1, 0], [1, 0], "edge", 1.0, '
        'axis_names=["i", None]), '
        'axis_name="i")(jnp.ones((2, 4, 3)))',
        "ValueError",
        "jaxpad.halo_pad: pad_value is only read by sides whose mode is 'constant', "
        "'dirichlet' or 'neumann'; got pad_value=1.0 with mode='edge'.",
    ),
    Row(
        "jaxpad.halo_pad",
        "a halo wider than the block",
        'jax.vmap(lambda b: jaxpad.halo_pad(b, [5, 0], [1, 0], axis_names=["i", None]), '
        'axis_name="i")(jnp.ones((2, 4, 3)))',
        "ValueError",
        "jaxpad.halo_pad: halo_begin[0]=5 is wider than the local block (x.shape[0]=4); halos "
        "reach one neighbour only.",
    ),
    Row(
        "jaxpad.nn.conv",
        "a PyTorch mode name",
        'nn.conv(jnp.ones((1, 1, 4)), jnp.ones((1, 1, 3)), 1, pad_mode="replicate")',
        "ValueError",
        "jaxpad.nn.conv: pad_mode must be one of 'constant', 'edge', 'reflect', 'symmetric', "
        "'wrap'; got 'replicate' (jaxpad's name for 'replicate' is 'edge').",
    ),
    Row(
        "jaxpad.nn.max_pool",
        "a flax mode name",
        'nn.max_pool(jnp.ones(4), 2, 1, pad_mode="CIRCULAR")',
        "ValueError",
        "jaxpad.nn.max_pool: pad_mode must be one of 'constant', 'edge', 'reflect', "
        "'symmetric', 'wrap'; got 'CIRCULAR' (jaxpad's name for 'CIRCULAR' is 'wrap').",
    ),
    Row(
        "jaxpad.nn.conv",
        "features that do not match the kernel",
        "nn.conv(jnp.ones((1, 3, 5)), jnp.ones((4, 2, 3)))",
        "ValueError",
        "jaxpad.nn.conv: x has 3 features (axis 1 of x.shape=(1, 3, 5)), but kernel expects 2 "
        "per group (axis 1 of its shape (4, 2, 3)) times feature_group_count=1.",
    ),
    Row(
        "jaxpad.nn.conv",
        "x and kernel of different dtypes",
        "nn.conv(jnp.ones((1, 1, 5)), jnp.ones((1, 1, 3), jnp.float16))",
        "TypeError",
        "jaxpad.nn.conv: x and kernel need the same dtype; got x.dtype=float32, "
        "kernel.dtype=float16.",
    ),
    Row(
        "jaxpad.nn.conv",
        "an empty output",
        'nn.conv(jnp.ones((1, 1, 2)), jnp.ones((1, 1, 3)), 1, policies.tensorflow("VALID"))',
        "ValueError",
        "jaxpad.nn.conv: policy jaxpad.policies.tensorflow('VALID'): the output would be empty "
        "on axis 0: input size 2, window 3 (dilated 3), stride 1 give 0.",
    ),
    Row(
        "jaxpad.nn.conv",
        "a ceil-mode policy",
        "nn.conv(jnp.ones((1, 1, 8)), jnp.ones((1, 1, 3)), 2, policies.torch(1, ceil_mode=True))",
        "ValueError",
        "jaxpad.nn.conv: policy jaxpad.policies.torch(1, ceil_mode=True) rounds the output "
        "size up (rounding='ceil', a pooling option); convolutions round down in every "
        "framework, so use a policy with rounding='floor' (ceil_mode=False, "
        "round_mode='floor').",
    ),
    Row(
        "jaxpad.nn.conv_transpose",
        "output_padding not below the stride",
        "nn.conv_transpose(jnp.ones((1, 1, 4)), jnp.ones((1, 1, 3)), 2, policies.torch(1), 2)",
        "ValueError",
        "jaxpad.nn.conv_transpose: policy jaxpad.policies.torch(1): output_padding must be "
        "smaller than the stride or the dilation; got 2 with stride 2 and dilation 1 on axis 0.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "an unhashable mode",
        'jpnp.pad(jnp.ones(3), 1, ["edge"])',
        "TypeError",
        "jaxpad.numpy.pad: mode must be a string or a callable; got ['edge'].",
    ),
    Row(
        "jaxpad.numpy.pad",
        "complex constant_values on a real array",
        "jpnp.pad(jnp.ones(3), 1, constant_values=1j)",
        "TypeError",
        "jaxpad.numpy.pad: a complex constant_values would lose its imaginary part in array's "
        "dtype float32; got 1j.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "complex end_values on a real array",
        'jpnp.pad(jnp.ones(3), 1, "linear_ramp", end_values=(0, 2j))',
        "TypeError",
        "jaxpad.numpy.pad: a complex end_values would lose its imaginary part in array's dtype "
        "float32; got (0, 2j).",
    ),
    Row(
        "jaxpad.numpy.pad",
        "string constant_values",
        'jpnp.pad(jnp.ones(3), 1, constant_values="1")',
        "TypeError",
        "jaxpad.numpy.pad: constant_values must hold numbers; got '1'.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "a dict pad_width naming an axis twice",
        "jpnp.pad(jnp.ones((2, 3)), {0: 1, -2: 2})",
        "ValueError",
        "jaxpad.numpy.pad: pad_width names axis 0 twice (0 and -2); one width would be ignored.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "a dict pad_width axis out of range",
        "jpnp.pad(jnp.ones(3), {1: 1})",
        "ValueError",
        "jaxpad.numpy.pad: pad_width names axis 1, out of range for array.ndim=1.",
    ),
    Row(
        "jaxpad.numpy.pad",
        "integer mean with stat_length 0",
        'jpnp.pad(jnp.arange(3), 1, "mean", stat_length=0)',
        "ValueError",
        "jaxpad.numpy.pad: stat_length of 0 on axis 0 gives no value to pad with; got "
        "stat_length=(0, 0).",
    ),
    Row(
        "jaxpad.numpy.pad",
        "options of a 0-d array are checked",
        'jpnp.pad(jnp.float32(5), 1, "reflect", reflect_type="uneven")',
        "ValueError",
        "jaxpad.numpy.pad: reflect_type must be one of 'even', 'odd'; got 'uneven'.",
    ),
    Row(
        "jaxpad.pad",
        "crop_first with interior padding",
        "jaxpad.pad(jnp.ones(3), [-1], [1], crop_first=True, interior=[1])",
        "ValueError",
        "jaxpad.pad: crop_first=True needs interior of 0 (crop the original or the dilated "
        "elements?); got interior=(1,).",
    ),
    Row(
        "jaxpad.pad",
        "crop_first cropping more than the axis",
        "jaxpad.pad(jnp.ones(3), [-2], [-2], crop_first=True)",
        "ValueError",
        "jaxpad.pad: crop_first=True crops 4 elements from axis 0 of size 3: pads_begin[0]=-2, "
        "pads_end[0]=-2.",
    ),
    Row(
        "jaxpad.pad",
        "crop_first that is not a bool",
        'jaxpad.pad(jnp.ones(3), [-1], [1], crop_first="yes")',
        "TypeError",
        "jaxpad.pad: crop_first must be a bool; got 'yes'.",
    ),
    Row(
        "jaxpad.pad",
        "a string pad_value",
        'jaxpad.pad(jnp.ones(3), [1], [1], pad_value="1")',
        "TypeError",
        "jaxpad.pad: pad_value must be a number; got '1'.",
    ),
    Row(
        "jaxpad.pad",
        "per-axis mode list of the wrong length",
        "jaxpad.pad(jnp.ones((2, 2)), (1, 1), (1, 1), ('wrap', 'edge', 'wrap'))",
        "ValueError",
        "jaxpad.pad: mode needs one entry per axis of x (x.ndim=2); got 3: ('wrap', 'edge', "
        "'wrap').",
    ),
    Row(
        "jaxpad.pad",
        "per-side pair that is not two strings",
        "jaxpad.pad(jnp.ones((2, 2)), (1, 1), (1, 1), ('wrap', ('wrap', 'edge', 'wrap')))",
        "TypeError",
        "jaxpad.pad: mode[1] must be a string or a (begin, end) pair of strings; got ('wrap', "
        "'edge', 'wrap').",
    ),
    Row(
        "jaxpad.pad",
        "unknown mode in a per-side pair",
        "jaxpad.pad(jnp.ones((2, 2)), (1, 1), (1, 1), (('wrap', 'mirror'), 'edge'))",
        "ValueError",
        "jaxpad.pad: mode[0][1] must be one of 'constant', 'edge', 'reflect', 'symmetric', "
        "'wrap', 'reflect_odd', 'symmetric_odd', 'dirichlet', 'neumann', 'antisymmetric', "
        "'smooth', 'line'; got 'mirror'. Other frameworks' names translate with jaxpad.modes "
        "(from_torch, from_tensorflow, from_scipy, from_opencv, from_onnx, from_numpy).",
    ),
    Row(
        "jaxpad.pad",
        "mode neither a string nor a sequence",
        "jaxpad.pad(jnp.ones(3), [1], [1], 3)",
        "TypeError",
        "jaxpad.pad: mode must be a string, or a sequence with one entry per axis of x, each a "
        "string or a (begin, end) pair of strings; got 3.",
    ),
    Row(
        "jaxpad.pad",
        "pad_value of shape other than () or (ndim, 2)",
        "jaxpad.pad(jnp.ones((2, 2)), (1, 1), (1, 1), 'dirichlet', jnp.ones(2))",
        "ValueError",
        "jaxpad.pad: pad_value must be a scalar or have shape (x.ndim, 2) = (2, 2), one value "
        "per side of each axis; got shape (2,).",
    ),
    Row(
        "jaxpad.pad",
        "pad_value where no side reads one",
        "jaxpad.pad(jnp.ones((2, 2)), (1, 1), (1, 1), (('wrap', 'edge'), 'reflect_odd'), 1.0)",
        "ValueError",
        "jaxpad.pad: pad_value is only read by sides whose mode is 'constant', 'dirichlet' or "
        "'neumann'; got pad_value=1.0 with mode=(('wrap', 'edge'), ('reflect_odd', "
        "'reflect_odd')).",
    ),
    Row(
        "jaxpad.pad",
        "interior with a non-constant side",
        "jaxpad.pad(jnp.ones(3), [1], [1], [('constant', 'dirichlet')], interior=[1])",
        "ValueError",
        "jaxpad.pad: interior padding needs mode='constant' and a scalar pad_value; got "
        "interior=(1,) with mode=(('constant', 'dirichlet'),).",
    ),
    Row(
        "jaxpad.pad",
        "interior with per-side values",
        "jaxpad.pad(jnp.ones(3), [1], [1], 'constant', jnp.ones((1, 2)), interior=[1])",
        "ValueError",
        "jaxpad.pad: interior padding needs mode='constant' and a scalar pad_value; got "
        "interior=(1,) with mode=(('constant', 'constant'),).",
    ),
    Row(
        "jaxpad.pad",
        "arithmetic mode on a bool array",
        "jaxpad.pad(jnp.ones(3, bool), [1], [1], 'dirichlet')",
        "TypeError",
        "jaxpad.pad: mode 'dirichlet' computes 2 * value - mirror, which needs a numeric x; got "
        "x of dtype bool.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "negative max_pad",
        "jaxpad.dynamic_pad(jnp.ones((8, 4)), (1, 0), (8, 4), max_pad=-1)",
        "ValueError",
        "jaxpad.dynamic_pad: max_pad[0] bounds |pads_begin[0]| and must be non-negative; got -1.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "max_pad with the wrong length",
        "jaxpad.dynamic_pad(jnp.ones((8, 4)), (1, 0), (8, 4), max_pad=(2, 2, 2))",
        "ValueError",
        "jaxpad.dynamic_pad: max_pad needs one entry per axis of x (x.ndim=2); got 3: (2, 2, 2).",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "max_pad not an int",
        "jaxpad.dynamic_pad(jnp.ones((8, 4)), (1, 0), (8, 4), max_pad=(2.5, None))",
        "TypeError",
        "jaxpad.dynamic_pad: max_pad[0] must be an int or None; got 2.5.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "traced max_pad",
        "jax.jit(lambda b: jaxpad.dynamic_pad(jnp.ones((8, 4)), (1, 0), (8, 4), "
        "max_pad=(b, None)))(3)",
        "TypeError",
        "jaxpad.dynamic_pad: max_pad[0] must be a static int (it sizes the halo each device "
        "receives); got a traced value of dtype int32.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "static pad past max_pad",
        "jaxpad.dynamic_pad(jnp.ones((8, 4)), (5, 0), (8, 4), 'wrap', max_pad=4)",
        "ValueError",
        "jaxpad.dynamic_pad: pads_begin[0]=5 exceeds max_pad[0]=4; |pads_begin| must not "
        "exceed max_pad.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "max_pad with traced pads and a per-side mode",
        "jax.jit(lambda o: jaxpad.dynamic_pad(jnp.arange(4.0), (o,), (4,), 'dirichlet', "
        "max_pad=1))(2)",
        "ValueError",
        "jaxpad.dynamic_pad: max_pad plans halos for one mode per axis; with traced pads and "
        "mode=(('dirichlet', 'dirichlet'),) it would be ignored. Pass the pads as Python ints, "
        "or leave max_pad out.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "traced pad on an axis too long for int32, x64 off",
        "jax.eval_shape(lambda x, o: jaxpad.dynamic_pad(x, (o,), (2**31 + 18,), 'reflect'), "
        "jax.ShapeDtypeStruct((2**31 + 7,), jnp.bfloat16), 0)",
        "ValueError",
        "jaxpad.dynamic_pad: axis 0 of x has 2147483655 elements (padded to 2147483666); a "
        "traced pad on an axis that long is computed with 64-bit indices (size + 4 * "
        "x.shape[0] exceeds 2**31 - 1), which need jax.config.update('jax_enable_x64', True). "
        "Enable it, or pass that axis's pad as a Python int.",
    ),
    Row(
        "jaxpad.pad",
        "face array of the wrong shape",
        "jaxpad.pad(jnp.ones((3, 4)), (1, 1), (1, 1), ('neumann', 'wrap'), "
        "[(jnp.ones((1, 5)), 0.0), (0.0, 0.0)])",
        "ValueError",
        "jaxpad.pad: pad_value[0][0] must be a scalar or an array broadcastable to the face "
        "of axis 0 (x.shape with axis 0 of size 1: (1, 4)); got shape (1, 5).",
    ),
    Row(
        "jaxpad.pad",
        "face array for a side that reads no value",
        "jaxpad.pad(jnp.ones((3, 4)), (1, 1), (1, 1), ('neumann', 'wrap'), "
        "[(0.0, 0.0), (jnp.ones((3, 1)), 0.0)])",
        "ValueError",
        "jaxpad.pad: pad_value[1][0] is an array, but side 0 of axis 1 has mode 'wrap', which "
        "reads no value; give it 0, or a mode that reads one ('constant', 'dirichlet' or "
        "'neumann').",
    ),
    Row(
        "jaxpad.pad",
        "neumann on a bool array",
        "jaxpad.pad(jnp.ones(3, bool), [1], [1], 'neumann')",
        "TypeError",
        "jaxpad.pad: mode 'neumann' computes mirror -/+ (2k - 1) * value, which needs a "
        "numeric x; got x of dtype bool.",
    ),
    Row(
        "jaxpad.pad",
        "antisymmetric on a bool array",
        "jaxpad.pad(jnp.ones(3, bool), [1], [1], 'antisymmetric')",
        "TypeError",
        "jaxpad.pad: mode 'antisymmetric' computes -mirror, which needs a numeric x; got x "
        "of dtype bool.",
    ),
    Row(
        "jaxpad.pad",
        "smooth on a bool array",
        "jaxpad.pad(jnp.ones(3, bool), [1], [1], [('edge', 'smooth')])",
        "TypeError",
        "jaxpad.pad: mode 'smooth' computes x[0] + k * (x[0] - x[1]), which needs a numeric "
        "x; got x of dtype bool.",
    ),
    Row(
        "jaxpad.pad",
        "line on an integer array",
        "jaxpad.pad(jnp.arange(4), [2], [2], 'line')",
        "TypeError",
        "jaxpad.pad: mode 'line' computes x[0] + k * (x[0] - x[n-1]) / (n - 1), whose "
        "fractions need a floating or complex x; got x of dtype int32.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "line on an integer array",
        "jaxpad.dynamic_pad(jnp.arange(4), [2], (8,), 'line')",
        "TypeError",
        "jaxpad.dynamic_pad: mode 'line' computes x[0] + k * (x[0] - x[n-1]) / (n - 1), "
        "whose fractions need a floating or complex x; got x of dtype int32.",
    ),
    Row(
        "jaxpad.halo_pad",
        "line on a split axis (reads both ends of the whole axis)",
        "jaxpad.halo_pad(jnp.ones(8), [2], [2], 'line', axis_names=['i'])",
        "ValueError",
        "jaxpad.halo_pad: mode 'line' on axis 0, which axis_names splits over ('i',): the "
        "line runs through both ends of the whole axis, and a block holds one end at most. "
        "Pad that axis before splitting it.",
    ),
    Row(
        "jaxpad.halo_pad",
        "smooth on blocks of one element",
        "jaxpad.halo_pad(jnp.ones((1, 3)), [1, 0], [0, 0], 'smooth', axis_names=['i', None])",
        "ValueError",
        "jaxpad.halo_pad: mode 'smooth' on axis 0 extrapolates the slope of the edge block's "
        "two outermost elements; the blocks along that axis hold x.shape[0]=1. Split it into "
        "blocks of at least 2.",
    ),
    Row(
        "jaxpad.modes.from_pywt",
        "unknown name",
        "jaxpad.modes.from_pywt('edge')",
        "ValueError",
        "jaxpad.modes.from_pywt: 'edge' is not one of PyWavelets's modes: 'zero', "
        "'constant', 'symmetric', 'reflect', 'periodic', 'smooth', 'antisymmetric', "
        "'antireflect'.",
    ),
    Row(
        "jaxpad.modes.from_pywt",
        "periodization (not a pad)",
        "jaxpad.modes.from_pywt('periodization')",
        "ValueError",
        "jaxpad.modes.from_pywt: mode='periodization' is not a pad: PyWavelets' transforms "
        "keep ceil(n / 2) coefficients per level, and pywt.pad extends an odd axis by its "
        "last sample before wrapping, so its result is not x padded. pywt.pad's result is "
        "the 'wrap' pad of x grown by one 'edge' sample at the end of each odd axis; "
        "'periodic' translates to 'wrap'.",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "face array of the wrong shape",
        "jaxpad.dynamic_pad(jnp.ones((3, 4)), (1, 1), (5, 6), ('dirichlet', 'wrap'), "
        "[(jnp.ones((3, 1)), 0.0), (0.0, 0.0)])",
        "ValueError",
        "jaxpad.dynamic_pad: pad_value[0][0] must be a scalar or an array broadcastable to "
        "the face of axis 0 (x.shape with axis 0 of size 1: (1, 4)); got shape (3, 1).",
    ),
    Row(
        "jaxpad.pad",
        "neumann with a face array (the first ghost row is x[0] - v)",
        "jaxpad.pad(jnp.zeros((2, 2)), [1, 0], [0, 0], ('neumann', 'edge'), "
        "[(jnp.array([[0.5, 1.0]]), 0.0), (0.0, 0.0)])",
        "accepted",
        "[[-0.5, -1.0], [0.0, 0.0], [0.0, 0.0]]",
    ),
    Row(
        "jaxpad.pad",
        "inf beside an odd reflection (reaches only the ghosts that read it)",
        "jaxpad.pad(jnp.array([jnp.inf, 0.5, 0.75]), [2], [3], 'reflect_odd')",
        "accepted",
        "[inf, inf, inf, 0.5, 0.75, 1.0, -inf, -inf]",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "traced pad past max_pad (gathers, still right)",
        "jax.jit(lambda o: jaxpad.dynamic_pad(jnp.arange(4.0), (o,), (4,), 'wrap', max_pad=1))(2)",
        "accepted",
        "[2.0, 3.0, 0.0, 1.0]",
    ),
    Row(
        "jaxpad.pad",
        "dirichlet given no value (reads 0)",
        "jaxpad.pad(jnp.array([1.0, 2.0]), [2], [1], 'dirichlet')",
        "accepted",
        "[-2.0, -1.0, 1.0, 2.0, -2.0]",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "per-axis mode list of the wrong length",
        "jaxpad.dynamic_pad(jnp.ones((2, 2)), (1, 1), (4, 4), ('wrap',))",
        "ValueError",
        "jaxpad.dynamic_pad: mode needs one entry per axis of x (x.ndim=2); got 1: ('wrap',).",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "pad_value where no side reads one",
        "jaxpad.dynamic_pad(jnp.ones(3), [1], (5,), 'reflect_odd', 2.0)",
        "ValueError",
        "jaxpad.dynamic_pad: pad_value is only read by sides whose mode is 'constant', "
        "'dirichlet' or 'neumann'; got pad_value=2.0 with mode=(('reflect_odd', 'reflect_odd'),).",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "pad_value of shape other than () or (ndim, 2)",
        "jaxpad.dynamic_pad(jnp.ones(3), [1], (5,), 'dirichlet', jnp.ones((2, 2)))",
        "ValueError",
        "jaxpad.dynamic_pad: pad_value must be a scalar or have shape (x.ndim, 2) = (1, 2), "
        "one value per side of each axis; got shape (2, 2).",
    ),
    Row(
        "jaxpad.pad",
        "NaN and inf in x and pad_value propagate",
        "jaxpad.pad(jnp.array([jnp.nan, jnp.inf]), [1], [1], pad_value=-jnp.inf)",
        "accepted",
        "[-inf, nan, inf, -inf]",
    ),
    Row(
        "jaxpad.pad",
        "NaN is reflected like any value",
        'jaxpad.pad(jnp.array([jnp.nan, 1.0]), [1], [2], "reflect")',
        "accepted",
        "[1.0, nan, 1.0, nan, 1.0]",
    ),
    Row(
        "jaxpad.pad",
        "NumPy int64 scalars and 0-d arrays as pads",
        "jaxpad.pad(jnp.ones(2), [np.int64(1)], [jnp.array(0)])",
        "accepted",
        "[0.0, 1.0, 1.0]",
    ),
    Row(
        "jaxpad.pad",
        "rank-0 x with empty pads",
        "jaxpad.pad(jnp.float32(5), [], [])",
        "accepted",
        "5.0",
    ),
    Row(
        "jaxpad.pad",
        "a zero-size axis in constant mode",
        "jaxpad.pad(jnp.ones((0, 2)), [1, 0], [0, 1])",
        "accepted",
        "[[0.0, 0.0, 0.0]]",
    ),
    Row(
        "jaxpad.pad",
        "a zero-size axis with an empty output, any mode",
        'jaxpad.pad(jnp.ones((0, 2)), [0, 1], [0, 1], "reflect").shape',
        "accepted",
        "(0, 4)",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "NaN in x propagates",
        'jaxpad.dynamic_pad(jnp.array([jnp.nan, 2.0]), jnp.array([1]), (4,), "wrap")',
        "accepted",
        "[2.0, nan, 2.0, nan]",
    ),
    Row(
        "jaxpad.dynamic_pad",
        "an offset far outside the array",
        "jaxpad.dynamic_pad(jnp.ones(2), jnp.array([2**30]), (3,))",
        "accepted",
        "[0.0, 0.0, 0.0]",
    ),
    Row(
        "jaxpad.broadcast",
        "rank-0 x",
        "jaxpad.broadcast(jnp.float32(7), [2])",
        "accepted",
        "[7.0, 7.0]",
    ),
    Row(
        "jaxpad.broadcast",
        "NumPy int64 target sizes",
        "jaxpad.broadcast(jnp.ones(1), np.array([2], np.int64))",
        "accepted",
        "[1.0, 1.0]",
    ),
    Row(
        "jaxpad.numpy.pad",
        "a dict pad_width (numpy >= 2.3), negative axes allowed",
        "jpnp.pad(jnp.ones((1, 2)), {-1: (1, 0)})",
        "accepted",
        "[[0.0, 1.0, 1.0]]",
    ),
    Row(
        "jaxpad.numpy.pad",
        "float mean of no values is NaN, as in numpy",
        'jpnp.pad(jnp.ones(2), 1, "mean", stat_length=0)',
        "accepted",
        "[nan, 1.0, 1.0, nan]",
    ),
    Row(
        "jaxpad.numpy.pad",
        "NumPy int64 width",
        "jpnp.pad(jnp.ones(1), np.int64(1))",
        "accepted",
        "[0.0, 1.0, 0.0]",
    ),
    Row(
        "jaxpad.scipy.ndimage.gaussian_filter",
        "a negative sigma",
        "jaxpad.scipy.ndimage.gaussian_filter(jnp.ones((3, 3)), -1.0)",
        "ValueError",
        "jaxpad.scipy.ndimage.gaussian_filter: sigma must be non-negative; got -1.0.",
    ),
    Row(
        "jaxpad.scipy.ndimage.gaussian_filter",
        "order per axis of the wrong length",
        "jaxpad.scipy.ndimage.gaussian_filter(jnp.ones((3, 3)), 1.0, order=[0, 1, 2])",
        "ValueError",
        "jaxpad.scipy.ndimage.gaussian_filter: order needs one entry per filtered axis (2); got "
        "3: [0, 1, 2].",
    ),
    Row(
        "jaxpad.scipy.ndimage.gaussian_filter1d",
        "a negative radius",
        "jaxpad.scipy.ndimage.gaussian_filter1d(jnp.ones(5), 1.0, radius=-1)",
        "ValueError",
        "jaxpad.scipy.ndimage.gaussian_filter1d: radius must be a non-negative int; got -1.",
    ),
    Row(
        "jaxpad.scipy.ndimage.gaussian_filter",
        "an output array",
        "jaxpad.scipy.ndimage.gaussian_filter(jnp.ones(3), 1.0, output=np.zeros(3))",
        "TypeError",
        "jaxpad.scipy.ndimage.gaussian_filter: output must be None or a dtype: JAX arrays are "
        "immutable, so an output array cannot be written in place (use the returned array, or "
        "pass its dtype); got an array of shape (3,) and dtype float64.",
    ),
    Row(
        "jaxpad.scipy.ndimage.uniform_filter1d",
        "a size of 0",
        "jaxpad.scipy.ndimage.uniform_filter1d(jnp.ones(3), size=0)",
        "ValueError",
        "jaxpad.scipy.ndimage.uniform_filter1d: size must be at least 1; got 0.",
    ),
    Row(
        "jaxpad.scipy.ndimage.uniform_filter1d",
        "a float size",
        "jaxpad.scipy.ndimage.uniform_filter1d(jnp.ones(5), size=2.5)",
        "TypeError",
        "jaxpad.scipy.ndimage.uniform_filter1d: size must be an int; got 2.5.",
    ),
    Row(
        "jaxpad.scipy.ndimage.correlate1d",
        "an unknown mode",
        'jaxpad.scipy.ndimage.correlate1d(jnp.ones(5), [1, 2], mode="symmetric")',
        "ValueError",
        "jaxpad.scipy.ndimage.correlate1d: mode must be one of scipy.ndimage's modes 'reflect', "
        "'grid-mirror', 'constant', 'grid-constant', 'nearest', 'mirror', 'wrap', 'grid-wrap'; "
        "got 'symmetric'.",
    ),
    Row(
        "jaxpad.scipy.ndimage.correlate1d",
        "an origin outside the filter",
        "jaxpad.scipy.ndimage.correlate1d(jnp.ones(5), [1, 2, 3], origin=2)",
        "ValueError",
        "jaxpad.scipy.ndimage.correlate1d: origin=2 puts the filter's centre outside it: a "
        "filter of size 3 takes -1 <= origin <= 1.",
    ),
    Row(
        "jaxpad.scipy.ndimage.correlate1d",
        "2-D weights",
        "jaxpad.scipy.ndimage.correlate1d(jnp.ones(5), np.ones((2, 2)))",
        "ValueError",
        "jaxpad.scipy.ndimage.correlate1d: weights must be 1-D and non-empty; got shape (2, 2).",
    ),
    Row(
        "jaxpad.scipy.ndimage.correlate1d",
        "an axis out of range",
        "jaxpad.scipy.ndimage.correlate1d(jnp.ones(5), [1, 2], axis=1)",
        "ValueError",
        "jaxpad.scipy.ndimage.correlate1d: axis=1 is out of range for an input with ndim=1.",
    ),
    Row(
        "jaxpad.scipy.ndimage.correlate",
        "weights of the wrong rank",
        "jaxpad.scipy.ndimage.correlate(jnp.ones((4, 4)), np.ones(3))",
        "ValueError",
        "jaxpad.scipy.ndimage.correlate: weights needs one dimension per filtered axis (2); got "
        "an array of shape (3,).",
    ),
    Row(
        "jaxpad.scipy.ndimage.correlate",
        "traced weights",
        "jax.jit(lambda w: jaxpad.scipy.ndimage.correlate(jnp.ones(4), w))(jnp.ones(2))",
        "TypeError",
        "jaxpad.scipy.ndimage.correlate: weights must be static (a NumPy array or a concrete "
        "array): the filter's index arithmetic is done at trace time; got a traced array of "
        "shape (2,) and dtype float32.",
    ),
    Row(
        "jaxpad.scipy.ndimage.convolve",
        "origin per axis out of range",
        "jaxpad.scipy.ndimage.convolve(jnp.ones((4, 4)), np.ones((3, 2)), origin=(0, 1))",
        "ValueError",
        "jaxpad.scipy.ndimage.convolve: origin[1]=1 puts the filter's centre outside it: a "
        "filter of size 2 takes -1 <= origin[1] <= 0.",
    ),
    Row(
        "jaxpad.scipy.ndimage.uniform_filter",
        "repeated axes",
        "jaxpad.scipy.ndimage.uniform_filter(jnp.ones((4, 4)), 3, axes=(0, -2))",
        "ValueError",
        "jaxpad.scipy.ndimage.uniform_filter: axes must be unique; got (0, -2).",
    ),
    Row(
        "jaxpad.scipy.ndimage.maximum_filter",
        "a footprint of the wrong rank",
        "jaxpad.scipy.ndimage.maximum_filter(jnp.ones((4, 4)), footprint=np.ones(3))",
        "ValueError",
        "jaxpad.scipy.ndimage.maximum_filter: footprint needs one dimension per filtered axis "
        "(2); got an array of shape (3,).",
    ),
    Row(
        "jaxpad.scipy.ndimage.maximum_filter",
        "an all-False footprint",
        "jaxpad.scipy.ndimage.maximum_filter(jnp.ones((4, 4)), footprint=np.zeros((2, 2)))",
        "ValueError",
        "jaxpad.scipy.ndimage.maximum_filter: footprint must have at least one True element; "
        "got shape (2, 2).",
    ),
    Row(
        "jaxpad.scipy.ndimage.minimum_filter",
        "neither size nor footprint",
        "jaxpad.scipy.ndimage.minimum_filter(jnp.ones((4, 4)))",
        "ValueError",
        "jaxpad.scipy.ndimage.minimum_filter: size or footprint is required; got neither.",
    ),
    Row(
        "jaxpad.scipy.ndimage.minimum_filter",
        "both size and footprint",
        "jaxpad.scipy.ndimage.minimum_filter(jnp.ones((4, 4)), 3, np.ones((2, 2)))",
        "ValueError",
        "jaxpad.scipy.ndimage.minimum_filter: give size or footprint, not both (scipy warns and "
        "ignores size); got size=3.",
    ),
    Row(
        "jaxpad.scipy.ndimage.minimum_filter1d",
        "complex input",
        "jaxpad.scipy.ndimage.minimum_filter1d(jnp.ones(4, complex), 3)",
        "TypeError",
        "jaxpad.scipy.ndimage.minimum_filter1d: input must be real (scipy has no order on "
        "complex numbers); got dtype complex64.",
    ),
    Row(
        "jaxpad.scipy.ndimage.rank_filter",
        "a rank outside the footprint",
        "jaxpad.scipy.ndimage.rank_filter(jnp.ones((4, 4)), 9, size=3)",
        "ValueError",
        "jaxpad.scipy.ndimage.rank_filter: rank=9 is outside the footprint's 9 elements (-9 <= "
        "rank < 9).",
    ),
    Row(
        "jaxpad.scipy.ndimage.percentile_filter",
        "a percentile above 100",
        "jaxpad.scipy.ndimage.percentile_filter(jnp.ones((4, 4)), 150, size=3)",
        "ValueError",
        "jaxpad.scipy.ndimage.percentile_filter: percentile must be within [-100, 100]; got 150.",
    ),
    Row(
        "jaxpad.scipy.ndimage.median_filter",
        "an origin outside the filter",
        "jaxpad.scipy.ndimage.median_filter(jnp.ones((4, 4)), 3, origin=2)",
        "ValueError",
        "jaxpad.scipy.ndimage.median_filter: origin=2 puts the filter's centre outside it: a "
        "filter of size 3 takes -1 <= origin <= 1.",
    ),
    Row(
        "jaxpad.scipy.ndimage.median_filter",
        "a mode per axis of the wrong length",
        'jaxpad.scipy.ndimage.median_filter(jnp.ones((4, 4)), 3, mode=["wrap"])',
        "ValueError",
        "jaxpad.scipy.ndimage.median_filter: mode needs one entry per filtered axis (2); got 1: "
        "['wrap'].",
    ),
    Row(
        "jaxpad.scipy.ndimage.generic_laplace",
        "derivative2 not callable",
        "jaxpad.scipy.ndimage.generic_laplace(jnp.ones(4), None)",
        "TypeError",
        "jaxpad.scipy.ndimage.generic_laplace: derivative2 must be callable; got None.",
    ),
    Row(
        "jaxpad.scipy.signal.convolve2d",
        "an unknown boundary",
        'jaxpad.scipy.signal.convolve2d(jnp.ones((3, 3)), np.ones((2, 2)), boundary="reflect")',
        "ValueError",
        "jaxpad.scipy.signal.convolve2d: boundary must be 'fill', 'wrap' (or 'circular') or "
        "'symm' (or 'symmetric'); got 'reflect'.",
    ),
    Row(
        "jaxpad.scipy.signal.convolve2d",
        "an unknown mode",
        'jaxpad.scipy.signal.convolve2d(jnp.ones((3, 3)), np.ones((2, 2)), mode="nearest")',
        "ValueError",
        "jaxpad.scipy.signal.convolve2d: mode must be 'full', 'same' or 'valid'; got 'nearest'.",
    ),
    Row(
        "jaxpad.scipy.signal.correlate2d",
        "1-D inputs",
        "jaxpad.scipy.signal.correlate2d(jnp.ones(3), np.ones(2))",
        "ValueError",
        "jaxpad.scipy.signal.correlate2d: in1 and in2 must both be 2-D; got shapes (3,) and (2,).",
    ),
    Row(
        "jaxpad.scipy.signal.convolve2d",
        "valid mode, neither input larger",
        'jaxpad.scipy.signal.convolve2d(jnp.ones((3, 1)), np.ones((1, 3)), mode="valid")',
        "ValueError",
        "jaxpad.scipy.signal.convolve2d: with mode='valid' one input must be at least as large "
        "as the other in every dimension; got shapes (3, 1) and (1, 3).",
    ),
    Row(
        "jaxpad.scipy.signal.convolve2d",
        "a traced kernel",
        "jax.jit(lambda w: jaxpad.scipy.signal.convolve2d(jnp.ones((3, 3)), w))(jnp.ones((2, 2)))",
        "TypeError",
        "jaxpad.scipy.signal.convolve2d: in2 must be static (a NumPy array or a concrete "
        "array): each of its elements becomes one multiply-add; got a traced array. For a "
        "traced kernel use jaxpad.nn.conv.",
    ),
    Row(
        "jaxpad.scipy.signal.savgol_filter",
        "polyorder not below window_length",
        "jaxpad.scipy.signal.savgol_filter(jnp.ones(9), 5, 5)",
        "ValueError",
        "jaxpad.scipy.signal.savgol_filter: polyorder must be less than window_length; "
        "got polyorder=5 and window_length=5.",
    ),
    Row(
        "jaxpad.scipy.signal.savgol_filter",
        "an interp window longer than the signal",
        "jaxpad.scipy.signal.savgol_filter(jnp.ones(4), 5, 2)",
        "ValueError",
        "jaxpad.scipy.signal.savgol_filter: with mode='interp', window_length must be "
        "at most the size of x along axis (4); got window_length=5.",
    ),
    Row(
        "jaxpad.scipy.signal.savgol_filter",
        "an unknown mode",
        'jaxpad.scipy.signal.savgol_filter(jnp.ones(9), 5, 2, mode="reflect")',
        "ValueError",
        "jaxpad.scipy.signal.savgol_filter: mode must be one of 'mirror', 'constant', "
        "'nearest', 'wrap', 'interp'; got 'reflect'.",
    ),
    Row(
        "jaxpad.scipy.signal.savgol_filter",
        "a float window_length",
        "jaxpad.scipy.signal.savgol_filter(jnp.ones(9), 5.0, 2)",
        "TypeError",
        "jaxpad.scipy.signal.savgol_filter: window_length must be an int; got 5.0.",
    ),
    Row(
        "jaxpad.scipy.signal.savgol_filter",
        "complex input",
        "jaxpad.scipy.signal.savgol_filter(jnp.ones(9, complex), 5, 2)",
        "TypeError",
        "jaxpad.scipy.signal.savgol_filter: x must be real (scipy drops the imaginary "
        "part with a ComplexWarning); got dtype complex64.",
    ),
    Row(
        "jaxpad.scipy.signal.savgol_coeffs",
        "pos past the window",
        "jaxpad.scipy.signal.savgol_coeffs(5, 2, pos=5)",
        "ValueError",
        "jaxpad.scipy.signal.savgol_coeffs: pos must be nonnegative and less than "
        "window_length (5); got 5.",
    ),
    Row(
        "jaxpad.scipy.signal.savgol_coeffs",
        "an unknown use",
        'jaxpad.scipy.signal.savgol_coeffs(5, 2, use="corr")',
        "ValueError",
        "jaxpad.scipy.signal.savgol_coeffs: use must be 'conv' or 'dot'; got 'corr'.",
    ),
    Row(
        "jaxpad.scipy.signal.upfirdn",
        "up below 1",
        "jaxpad.scipy.signal.upfirdn([1.0], jnp.ones(4), 0)",
        "ValueError",
        "jaxpad.scipy.signal.upfirdn: up must be at least 1; got 0.",
    ),
    Row(
        "jaxpad.scipy.signal.upfirdn",
        "a non-integer down",
        "jaxpad.scipy.signal.upfirdn([1.0], jnp.ones(4), 1, 1.5)",
        "ValueError",
        "jaxpad.scipy.signal.upfirdn: down must be an integer; got 1.5.",
    ),
    Row(
        "jaxpad.scipy.signal.upfirdn",
        "an unknown mode",
        'jaxpad.scipy.signal.upfirdn([1.0], jnp.ones(4), mode="mirror")',
        "ValueError",
        "jaxpad.scipy.signal.upfirdn: mode must be one of 'constant', 'wrap', 'edge', "
        "'smooth', 'symmetric', 'reflect', 'antisymmetric', 'antireflect', 'line'; got "
        "'mirror'.",
    ),
    Row(
        "jaxpad.scipy.signal.upfirdn",
        "a 2-D filter",
        "jaxpad.scipy.signal.upfirdn(np.ones((2, 2)), jnp.ones(4))",
        "ValueError",
        "jaxpad.scipy.signal.upfirdn: h must be 1-D and non-empty; got shape (2, 2).",
    ),
    Row(
        "jaxpad.scipy.signal.upfirdn",
        "an empty signal",
        "jaxpad.scipy.signal.upfirdn([1.0, 1.0], jnp.ones(0))",
        "ValueError",
        "jaxpad.scipy.signal.upfirdn: x must not be empty along axis; got shape (0,).",
    ),
    Row(
        "jaxpad.scipy.signal.upfirdn",
        "a two-sample mode on one sample",
        'jaxpad.scipy.signal.upfirdn([1.0, 1.0], jnp.ones(1), mode="line")',
        "ValueError",
        "jaxpad.scipy.signal.upfirdn: mode 'line' extends the signal from two samples "
        "or more; x has 1 along axis.",
    ),
    Row(
        "jaxpad.scipy.signal.resample_poly",
        "an unknown padtype",
        'jaxpad.scipy.signal.resample_poly(jnp.ones(8), 2, 1, padtype="")',
        "ValueError",
        "jaxpad.scipy.signal.resample_poly: padtype must be one of 'constant', 'wrap', "
        "'edge', 'smooth', 'symmetric', 'reflect', 'antisymmetric', 'antireflect', "
        "'line', 'mean', 'median', 'maximum', 'minimum'; got ''.",
    ),
    Row(
        "jaxpad.scipy.signal.upfirdn",
        "cval with another mode (scipy ignores it)",
        'jaxpad.scipy.signal.upfirdn(jnp.ones(8), jnp.ones(20), 3, 2, mode="wrap", cval=3.0)',
        "ValueError",
        "jaxpad.scipy.signal.upfirdn: cval is read only with mode='constant'; got cval=3.0 "
        "with mode='wrap'.",
    ),
    Row(
        "jaxpad.scipy.signal.savgol_filter",
        "cval with another mode (scipy ignores it)",
        'jaxpad.scipy.signal.savgol_filter(jnp.ones(20), 5, 2, mode="mirror", cval=3.0)',
        "ValueError",
        "jaxpad.scipy.signal.savgol_filter: cval is read only with mode='constant'; got "
        "cval=3.0 with mode='mirror'.",
    ),
    Row(
        "jaxpad.scipy.signal.resample_poly",
        "cval with another padtype",
        'jaxpad.scipy.signal.resample_poly(jnp.ones(8), 2, 1, padtype="mean", cval=1.0)',
        "ValueError",
        "jaxpad.scipy.signal.resample_poly: cval is read only with padtype='constant'; "
        "got cval=1.0 with padtype='mean'.",
    ),
    Row(
        "jaxpad.scipy.signal.resample_poly",
        "a non-integer up",
        "jaxpad.scipy.signal.resample_poly(jnp.ones(8), 1.3, 2)",
        "ValueError",
        "jaxpad.scipy.signal.resample_poly: up must be an integer; got 1.3.",
    ),
    Row(
        "jaxpad.scipy.signal.resample_poly",
        "an unknown window",
        'jaxpad.scipy.signal.resample_poly(jnp.ones(8), 2, 1, window="dpss")',
        "ValueError",
        "jaxpad.scipy.signal.resample_poly: window must be one of 'bartlett', "
        "'blackman', 'blackmanharris', 'boxcar', 'cosine', 'gaussian', 'hamming', "
        "'hann', 'kaiser', 'nuttall', 'triang' (a name, or a tuple (name, parameter) "
        "for 'kaiser' (beta) and 'gaussian' (std)), a float (a Kaiser window's beta) "
        "or an array of filter taps; got 'dpss'.",
    ),
    Row(
        "jaxpad.scipy.signal.resample_poly",
        "a 2-D window",
        "jaxpad.scipy.signal.resample_poly(jnp.ones(8), 2, 1, window=np.eye(2))",
        "ValueError",
        "jaxpad.scipy.signal.resample_poly: window must be 1-D and non-empty; got shape (2, 2).",
    ),
    Row(
        "jaxpad.scipy.ndimage.correlate",
        "a complex cval for a real input (a complex kernel)",
        'jaxpad.scipy.ndimage.correlate(jnp.ones(3), np.array([1, 1j]), mode="constant", cval=1j)',
        "ValueError",
        "jaxpad.scipy.ndimage.correlate: cval is complex but the input is real; got 1j.",
    ),
    Row(
        "jaxpad.scipy.ndimage.gaussian_filter",
        "a traced sigma without a radius",
        "jax.jit(lambda s: jaxpad.scipy.ndimage.gaussian_filter(jnp.ones((3, 3)), s))(1.0)",
        "TypeError",
        "jaxpad.scipy.ndimage.gaussian_filter: sigma is traced, so the kernel's length cannot "
        "come from truncate * sigma: pass a static radius (an int) as well; got radius=None.",
    ),
    Row(
        "jaxpad.scipy.ndimage.gaussian_filter1d",
        "a traced sigma that is not a scalar",
        "jax.jit(lambda s: jaxpad.scipy.ndimage.gaussian_filter1d(jnp.ones(5), s, radius=2))"
        "(jnp.ones(2))",
        "TypeError",
        "jaxpad.scipy.ndimage.gaussian_filter1d: a traced sigma must be a floating scalar; got a "
        "traced array of shape (2,) and dtype float32.",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "a 3-D input",
        "nn.grid_sample(jnp.ones((1, 2, 3)), jnp.zeros((1, 2, 1)))",
        "ValueError",
        "jaxpad.nn.grid_sample: input must be 4-D (N, C, H, W) or 5-D (N, C, D, H, W); got an "
        "array of shape (1, 2, 3) and dtype float32.",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "grid of another rank",
        "nn.grid_sample(jnp.ones((1, 1, 2, 2)), jnp.zeros((1, 3, 2)))",
        "ValueError",
        "jaxpad.nn.grid_sample: grid must have input's rank (4); got an array of shape (1, 3, 2) "
        "and dtype float32.",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "grid's last axis not 2 for a 4-D input",
        "nn.grid_sample(jnp.ones((1, 1, 2, 2)), jnp.zeros((1, 3, 3, 3)))",
        "ValueError",
        "jaxpad.nn.grid_sample: grid's last axis must have size 2 (one coordinate per spatial "
        "axis of a 4-D input); got an array of shape (1, 3, 3, 3) and dtype float32.",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "batch sizes differ",
        "nn.grid_sample(jnp.ones((2, 1, 2, 2)), jnp.zeros((1, 3, 3, 2)))",
        "ValueError",
        "jaxpad.nn.grid_sample: grid and input must have the same batch size; got "
        "grid.shape[0]=1 and input.shape[0]=2.",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "unknown mode",
        'nn.grid_sample(jnp.ones((1, 1, 2, 2)), jnp.zeros((1, 3, 3, 2)), "linear")',
        "ValueError",
        "jaxpad.nn.grid_sample: mode must be one of 'bilinear', 'nearest', 'bicubic'; got "
        "'linear'.",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "unknown padding_mode",
        'nn.grid_sample(jnp.ones((1, 1, 2, 2)), jnp.zeros((1, 3, 3, 2)), padding_mode="reflect")',
        "ValueError",
        "jaxpad.nn.grid_sample: padding_mode must be one of 'zeros', 'border', 'reflection'; got "
        "'reflect'.",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "bicubic on a 5-D input",
        'nn.grid_sample(jnp.ones((1, 1, 2, 2, 2)), jnp.zeros((1, 1, 1, 1, 3)), "bicubic")',
        "ValueError",
        "jaxpad.nn.grid_sample: mode='bicubic' takes a 4-D input only (as torch); got a 5-D "
        "input of shape (1, 1, 2, 2, 2).",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "an integer grid",
        "nn.grid_sample(jnp.ones((1, 1, 2, 2)), jnp.zeros((1, 3, 3, 2), int))",
        "TypeError",
        "jaxpad.nn.grid_sample: grid must have a floating dtype; got an array of shape (1, 3, 3, "
        "2) and dtype int32.",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "an integer input",
        "nn.grid_sample(jnp.ones((1, 1, 2, 2), int), jnp.zeros((1, 3, 3, 2)))",
        "TypeError",
        "jaxpad.nn.grid_sample: input must have a floating dtype; got an array of shape (1, 1, "
        "2, 2) and dtype int32.",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "an empty spatial axis",
        "nn.grid_sample(jnp.ones((1, 1, 0, 2)), jnp.zeros((1, 3, 3, 2)))",
        "ValueError",
        "jaxpad.nn.grid_sample: input's spatial axes must not be empty; got an array of shape "
        "(1, 1, 0, 2) and dtype float32.",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "align_corners not a bool",
        "nn.grid_sample(jnp.ones((1, 1, 2, 2)), jnp.zeros((1, 3, 3, 2)), align_corners=1)",
        "TypeError",
        "jaxpad.nn.grid_sample: align_corners must be a bool; got 1.",
    ),
    Row(
        "jaxpad.nn.affine_grid",
        "theta of the wrong shape",
        "nn.affine_grid(jnp.zeros((1, 3, 3)), (1, 1, 4, 4))",
        "ValueError",
        "jaxpad.nn.affine_grid: theta must have shape (N, 2, 3) = (1, 2, 3) for size=(1, 1, 4, "
        "4); got an array of shape (1, 3, 3) and dtype float32.",
    ),
    Row(
        "jaxpad.nn.affine_grid",
        "theta's batch differs from size's",
        "nn.affine_grid(jnp.zeros((2, 2, 3)), (1, 1, 4, 4))",
        "ValueError",
        "jaxpad.nn.affine_grid: theta must have shape (N, 2, 3) = (1, 2, 3) for size=(1, 1, 4, "
        "4); got an array of shape (2, 2, 3) and dtype float32.",
    ),
    Row(
        "jaxpad.nn.affine_grid",
        "size of 3 entries",
        "nn.affine_grid(jnp.zeros((1, 2, 3)), (1, 4, 4))",
        "ValueError",
        "jaxpad.nn.affine_grid: size must have 4 entries (N, C, H, W) or 5 (N, C, D, H, W); got "
        "(1, 4, 4).",
    ),
    Row(
        "jaxpad.nn.affine_grid",
        "an integer theta",
        "nn.affine_grid(jnp.zeros((1, 2, 3), int), (1, 1, 4, 4))",
        "TypeError",
        "jaxpad.nn.affine_grid: theta must have a floating dtype; got an array of shape (1, 2, "
        "3) and dtype int32.",
    ),
    Row(
        "jaxpad.nn.affine_grid",
        "an empty axis in size",
        "nn.affine_grid(jnp.zeros((1, 2, 3)), (1, 1, 0, 4))",
        "ValueError",
        "jaxpad.nn.affine_grid: size must be positive; got (1, 1, 0, 4).",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "a spatial axis longer than the int32 taps read (2**28 samples)",
        "jax.eval_shape(lambda x: nn.grid_sample(x, jnp.zeros((1, 2, 2, 2))), "
        "jax.ShapeDtypeStruct((1, 1, 1, 2**28 + 1), jnp.float32))",
        "ValueError",
        "jaxpad.nn.grid_sample: axis 3 of input has 268435457 samples; the sampling functions "
        "read axes of at most 2**28 = 268435456 samples (their taps are int32).",
    ),
    Row(
        "jaxpad.nn.grid_sample",
        "coordinates far outside, reflection (accepted)",
        "nn.grid_sample(jnp.arange(4.0).reshape(1, 1, 1, 4), jnp.array([[[[1e30, 0.0], [-7.25, "
        '0.0]]]]), padding_mode="reflection")',
        "accepted",
        "[[[[0.0, 3.0]]]]",
    ),
    Row(
        "jaxpad.scipy.ndimage.map_coordinates",
        "coordinates whose leading size is not the input's rank",
        "jaxpad.scipy.ndimage.map_coordinates(jnp.ones((3, 4)), jnp.zeros((3, 5)))",
        "ValueError",
        "jaxpad.scipy.ndimage.map_coordinates: coordinates must have shape (input.ndim, ...) "
        "= (2, ...), one row per axis of input and at least one point axis; got shape (3, 5).",
    ),
    Row(
        "jaxpad.scipy.ndimage.map_coordinates",
        "an order outside 0-5",
        "jaxpad.scipy.ndimage.map_coordinates(jnp.ones(4), jnp.zeros((1, 2)), order=6)",
        "ValueError",
        "jaxpad.scipy.ndimage.map_coordinates: order must be from 0 to 5; got 6.",
    ),
    Row(
        "jaxpad.scipy.ndimage.map_coordinates",
        "an unknown mode",
        'jaxpad.scipy.ndimage.map_coordinates(jnp.ones(4), jnp.zeros((1, 2)), mode="symmetric")',
        "ValueError",
        "jaxpad.scipy.ndimage.map_coordinates: mode must be one of 'constant', "
        "'grid-constant', 'nearest', 'mirror', 'reflect', 'grid-mirror', 'wrap', "
        "'grid-wrap'; got 'symmetric'.",
    ),
    Row(
        "jaxpad.scipy.ndimage.map_coordinates",
        "integer coordinates",
        "jaxpad.scipy.ndimage.map_coordinates(jnp.ones(4), jnp.zeros((1, 2), int))",
        "TypeError",
        "jaxpad.scipy.ndimage.map_coordinates: coordinates must be a floating array (scipy's "
        "truncating integer coordinates are not differentiable); got dtype int32.",
    ),
    Row(
        "jaxpad.scipy.ndimage.map_coordinates",
        "an axis longer than the int32 taps read (2**28 samples)",
        "jax.eval_shape(lambda x: jaxpad.scipy.ndimage.map_coordinates(x, jnp.zeros((1, 2))), "
        "jax.ShapeDtypeStruct((2**31 + 7,), jnp.float32))",
        "ValueError",
        "jaxpad.scipy.ndimage.map_coordinates: axis 0 of input has 2147483655 samples; the "
        "sampling functions read axes of at most 2**28 = 268435456 samples (their taps are "
        "int32).",
    ),
    Row(
        "jaxpad.scipy.ndimage.map_coordinates",
        "a float32 axis longer than its coordinates' exact integers (2**24 - 64 samples)",
        "jax.eval_shape(lambda x: jaxpad.scipy.ndimage.map_coordinates(x, jnp.zeros((1, 2))), "
        "jax.ShapeDtypeStruct((2**24,), jnp.float32))",
        "ValueError",
        "jaxpad.scipy.ndimage.map_coordinates: axis 0 of input has 16777216 samples; float32 "
        "coordinates are computed exactly on axes of at most 2**24 - 64 = 16777152 samples. "
        "Use float64 (jax.config.update('jax_enable_x64', True) and a float64 input or "
        "coordinates) for axes up to 2**28 = 268435456 samples.",
    ),
    Row(
        "jaxpad.scipy.ndimage.map_coordinates",
        "nan, inf and 1e30 coordinates (constant: cval; mirror: nan gives cval as scipy's, "
        "inf nan, 1e30 its remainder)",
        "[jaxpad.scipy.ndimage.map_coordinates(jnp.arange(4.0), jnp.array([[jnp.nan, "
        'jnp.inf, 1e30]]), order=1, mode=m, cval=-1.0).tolist() for m in ("constant", '
        '"mirror")]',
        "accepted",
        "[[-1.0, -1.0, -1.0], [-1.0, nan, 0.0]]",
    ),
    Row(
        "jaxpad.scipy.ndimage.spline_filter1d",
        "an order outside 0-5",
        "jaxpad.scipy.ndimage.spline_filter1d(jnp.ones(4), order=-1)",
        "ValueError",
        "jaxpad.scipy.ndimage.spline_filter1d: order must be from 0 to 5; got -1.",
    ),
    Row(
        "jaxpad.scipy.ndimage.spline_filter",
        "an unknown mode",
        'jaxpad.scipy.ndimage.spline_filter(jnp.ones((3, 3)), mode="symmetric")',
        "ValueError",
        "jaxpad.scipy.ndimage.spline_filter: mode must be one of 'constant', "
        "'grid-constant', 'nearest', 'mirror', 'reflect', 'grid-mirror', 'wrap', "
        "'grid-wrap'; got 'symmetric'.",
    ),
    Row(
        "jaxpad.scipy.ndimage.shift",
        "a shift with one value per axis missing",
        "jaxpad.scipy.ndimage.shift(jnp.ones((3, 4)), [1.0, 2.0, 3.0])",
        "ValueError",
        "jaxpad.scipy.ndimage.shift: shift must be a number or have one value per "
        "axis (2); got [1.0, 2.0, 3.0].",
    ),
    Row(
        "jaxpad.scipy.ndimage.shift",
        "an order outside 0-5",
        "jaxpad.scipy.ndimage.shift(jnp.ones(4), 1.0, order=6)",
        "ValueError",
        "jaxpad.scipy.ndimage.shift: order must be from 0 to 5; got 6.",
    ),
    Row(
        "jaxpad.scipy.ndimage.zoom",
        "a zoom that makes an empty axis",
        "jaxpad.scipy.ndimage.zoom(jnp.ones((3, 4)), (0.1, 1.0))",
        "ValueError",
        "jaxpad.scipy.ndimage.zoom: zoom (0.1, 1.0) makes an empty axis: input shape "
        "(3, 4) gives output shape (0, 4).",
    ),
    Row(
        "jaxpad.scipy.ndimage.zoom",
        "a traced zoom (it decides the output's shape)",
        "jax.jit(lambda z: jaxpad.scipy.ndimage.zoom(jnp.ones(4), z))(2.0)",
        "TypeError",
        "jaxpad.scipy.ndimage.zoom: zoom must be concrete (it decides the output's "
        "shape); got a traced array of shape () and dtype float32.",
    ),
    Row(
        "jaxpad.scipy.ndimage.zoom",
        "an unknown mode",
        'jaxpad.scipy.ndimage.zoom(jnp.ones(4), 2.0, mode="symmetric")',
        "ValueError",
        "jaxpad.scipy.ndimage.zoom: mode must be one of 'constant', 'grid-constant', "
        "'nearest', 'mirror', 'reflect', 'grid-mirror', 'wrap', 'grid-wrap'; got "
        "'symmetric'.",
    ),
    Row(
        "jaxpad.scipy.ndimage.affine_transform",
        "a matrix of the wrong shape",
        "jaxpad.scipy.ndimage.affine_transform(jnp.ones((3, 4)), np.ones((3, 2)))",
        "ValueError",
        "jaxpad.scipy.ndimage.affine_transform: matrix must have shape (ndim,), "
        "(ndim, ndim), (ndim, ndim + 1) or (ndim + 1, ndim + 1) for an input of ndim "
        "= 2 axes; got shape (3, 2).",
    ),
    Row(
        "jaxpad.scipy.ndimage.affine_transform",
        "a homogeneous matrix whose bottom row is not [0, 0, 1]",
        "jaxpad.scipy.ndimage.affine_transform(jnp.ones((3, 4)), np.ones((3, 3)))",
        "ValueError",
        "jaxpad.scipy.ndimage.affine_transform: matrix of shape (3, 3) is "
        "homogeneous and its bottom row must be [0.0, 0.0, 1.0]; got [1.0, 1.0, "
        "1.0].",
    ),
    Row(
        "jaxpad.scipy.ndimage.affine_transform",
        "an offset of the wrong length",
        "jaxpad.scipy.ndimage.affine_transform(jnp.ones((3, 4)), np.eye(2), "
        "offset=[1.0, 2.0, 3.0])",
        "ValueError",
        "jaxpad.scipy.ndimage.affine_transform: offset must be a number or have one "
        "value per axis (2); got [1.0, 2.0, 3.0].",
    ),
    Row(
        "jaxpad.scipy.ndimage.affine_transform",
        "an output_shape with an empty axis",
        "jaxpad.scipy.ndimage.affine_transform(jnp.ones((3, 4)), np.eye(2), output_shape=(0, 4))",
        "ValueError",
        "jaxpad.scipy.ndimage.affine_transform: output_shape must have no empty or "
        "negative axis; got (0, 4).",
    ),
    Row(
        "jaxpad.scipy.ndimage.affine_transform",
        "an output array",
        "jaxpad.scipy.ndimage.affine_transform(jnp.ones(4), np.ones(1), output=np.zeros(4))",
        "TypeError",
        "jaxpad.scipy.ndimage.affine_transform: output must be None or a dtype: JAX "
        "arrays are immutable, so an output array cannot be written in place (use "
        "the returned array, or pass its dtype); got ndarray of shape (4,) and dtype "
        "float64.",
    ),
    Row(
        "jaxpad.scipy.ndimage.rotate",
        "a one-axis input",
        "jaxpad.scipy.ndimage.rotate(jnp.ones(4), 30.0)",
        "ValueError",
        "jaxpad.scipy.ndimage.rotate: input must have at least two axes; got shape (4,).",
    ),
    Row(
        "jaxpad.scipy.ndimage.rotate",
        "axes naming one axis twice",
        "jaxpad.scipy.ndimage.rotate(jnp.ones((3, 4)), 30.0, axes=(1, 1))",
        "ValueError",
        "jaxpad.scipy.ndimage.rotate: axes must name two different axes of an input "
        "of 2 axes; got (1, 1).",
    ),
    Row(
        "jaxpad.scipy.ndimage.rotate",
        "a traced angle with reshape=True",
        "jax.jit(lambda a: jaxpad.scipy.ndimage.rotate(jnp.ones((3, 4)), a))(30.0)",
        "TypeError",
        "jaxpad.scipy.ndimage.rotate: angle must be concrete with reshape=True (it "
        "decides the output's shape); got a traced array of shape () and dtype "
        "float32. Pass reshape=False.",
    ),
    Row(
        "jaxpad.scipy.ndimage.geometric_transform",
        "a mapping returning the wrong number of coordinates",
        "jaxpad.scipy.ndimage.geometric_transform(jnp.ones((3, 4)), lambda o: (o[0],))",
        "ValueError",
        "jaxpad.scipy.ndimage.geometric_transform: mapping must return 2 scalar "
        "coordinates (one per axis of input) for each output point; got 1 of shapes "
        "[()].",
    ),
    Row(
        "jaxpad.scipy.ndimage.geometric_transform",
        "a mapping that is not callable",
        "jaxpad.scipy.ndimage.geometric_transform(jnp.ones(4), (1.0,))",
        "TypeError",
        "jaxpad.scipy.ndimage.geometric_transform: mapping must be a callable; got (1.0,).",
    ),
    Row(
        "jaxpad.scipy.signal.lfilter",
        "a[0] == 0",
        "jaxpad.scipy.signal.lfilter(jnp.ones(2), jnp.array([0.0, 1.0]), jnp.ones(5))",
        "ValueError",
        "jaxpad.scipy.signal.lfilter: a[0] must be nonzero; got a = [0.0, 1.0].",
    ),
    Row(
        "jaxpad.scipy.signal.lfilter",
        "a zi of the wrong shape",
        "jaxpad.scipy.signal.lfilter(jnp.ones(3), jnp.ones(1), jnp.ones((2, 5)), zi=jnp.ones((2, "
        "3)))",
        "ValueError",
        "jaxpad.scipy.signal.lfilter: zi must have shape (2, 2) (x's shape with axis 1 of length "
        "max(len(a), len(b)) - 1 = 2; other dimensions may be 1); got shape (2, 3).",
    ),
    Row(
        "jaxpad.scipy.signal.sosfilt",
        "an sos not of shape (n, 6)",
        "jaxpad.scipy.signal.sosfilt(jnp.ones((2, 5)), jnp.ones(8))",
        "ValueError",
        "jaxpad.scipy.signal.sosfilt: sos must have shape (n_sections, 6); got shape (2, 5).",
    ),
    Row(
        "jaxpad.scipy.signal.sosfilt",
        "a zi of the wrong shape",
        "jaxpad.scipy.signal.sosfilt(jnp.ones((1, 6)), jnp.ones(8), zi=jnp.ones((2, 2)))",
        "ValueError",
        "jaxpad.scipy.signal.sosfilt: zi must have shape (1, 2) (n_sections, then x's shape with "
        "axis 0 of length 2); got shape (2, 2).",
    ),
    Row(
        "jaxpad.scipy.signal.filtfilt",
        "padlen past the signal",
        "jaxpad.scipy.signal.filtfilt(jnp.ones(2), jnp.ones(1), jnp.ones(8), padlen=8)",
        "ValueError",
        "jaxpad.scipy.signal.filtfilt: padlen must be less than x's length along axis (8); got 8.",
    ),
    Row(
        "jaxpad.scipy.signal.filtfilt",
        "the default padding past the signal",
        "jaxpad.scipy.signal.filtfilt(jnp.ones(3), jnp.ones(1), jnp.ones(8))",
        "ValueError",
        "jaxpad.scipy.signal.filtfilt: x's length along axis (8) must be greater than the padding "
        "(9: 3 * ntaps when padlen is None).",
    ),
    Row(
        "jaxpad.scipy.signal.filtfilt",
        "an unknown padtype",
        "jaxpad.scipy.signal.filtfilt(jnp.ones(2), jnp.ones(1), jnp.ones(20), padtype='reflect')",
        "ValueError",
        "jaxpad.scipy.signal.filtfilt: padtype must be 'odd', 'even', 'constant' or None; got "
        "'reflect'.",
    ),
    Row(
        "jaxpad.scipy.signal.filtfilt",
        "an unknown method",
        "jaxpad.scipy.signal.filtfilt(jnp.ones(2), jnp.ones(1), jnp.ones(20), method='gustafsson')",
        "ValueError",
        "jaxpad.scipy.signal.filtfilt: method must be 'pad' or 'gust'; got 'gustafsson'.",
    ),
    Row(
        "jaxpad.scipy.signal.filtfilt",
        "padlen with method 'gust'",
        "jaxpad.scipy.signal.filtfilt(jnp.ones(2), jnp.ones(1), jnp.ones(20), method='gust', "
        "padlen=3)",
        "ValueError",
        "jaxpad.scipy.signal.filtfilt: padtype and padlen are read by method='pad' only; got "
        "padtype='odd', padlen=3 with method='gust'.",
    ),
    Row(
        "jaxpad.scipy.signal.filtfilt",
        "irlen not a positive int",
        "jaxpad.scipy.signal.filtfilt(jnp.ones(2), jnp.ones(1), jnp.ones(20), method='gust', "
        "irlen=0)",
        "ValueError",
        "jaxpad.scipy.signal.filtfilt: irlen must be a positive int or None; got 0.",
    ),
    Row(
        "jaxpad.scipy.signal.filtfilt",
        "irlen without method 'gust'",
        "jaxpad.scipy.signal.filtfilt(jnp.ones(2), jnp.ones(1), jnp.ones(20), irlen=5)",
        "ValueError",
        "jaxpad.scipy.signal.filtfilt: irlen is read by method='gust' only; got irlen=5.",
    ),
    Row(
        "jaxpad.scipy.signal.sosfiltfilt",
        "an unknown padtype",
        "jaxpad.scipy.signal.sosfiltfilt(jnp.ones((1, 6)), jnp.ones(20), padtype='wrap')",
        "ValueError",
        "jaxpad.scipy.signal.sosfiltfilt: padtype must be 'odd', 'even', 'constant' or None; got "
        "'wrap'.",
    ),
    Row(
        "jaxpad.scipy.signal.decimate",
        "a non-integer q",
        "jaxpad.scipy.signal.decimate(jnp.ones(40), 2.5)",
        "TypeError",
        "jaxpad.scipy.signal.decimate: q must be an int; got 2.5.",
    ),
    Row(
        "jaxpad.scipy.signal.decimate",
        "q below 1",
        "jaxpad.scipy.signal.decimate(jnp.ones(40), 0)",
        "ValueError",
        "jaxpad.scipy.signal.decimate: q must be at least 1; got 0.",
    ),
    Row(
        "jaxpad.scipy.signal.decimate",
        "an unknown ftype",
        "jaxpad.scipy.signal.decimate(jnp.ones(40), 2, ftype='cheby')",
        "ValueError",
        "jaxpad.scipy.signal.decimate: ftype must be 'iir' or 'fir' (a dlti filter is not taken); "
        "got 'cheby'.",
    ),
    Row(
        "jaxpad.scipy.signal.lfilter_zi",
        "a with no nonzero coefficient",
        "jaxpad.scipy.signal.lfilter_zi(jnp.ones(2), jnp.zeros(2))",
        "ValueError",
        "jaxpad.scipy.signal.lfilter_zi: a must have a nonzero coefficient; got [0.0, 0.0].",
    ),
    Row(
        "jaxpad.image.resize",
        "unknown method",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "bilinearx")',
        "ValueError",
        "jaxpad.image.resize: method must be one of 'nearest', 'linear', 'bilinear', "
        "'trilinear', 'triangle', 'cubic', 'bicubic', 'tricubic', 'cubic-pytorch', "
        "'bicubic-pytorch', 'lanczos3', 'lanczos5', 'area', 'lanczos4', 'box', 'hamming', "
        "'gaussian', 'mitchellcubic' (or a jax.image.ResizeMethod); got 'bilinearx'.",
    ),
    Row(
        "jaxpad.image.resize",
        "shape of the wrong length",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4,), "linear")',
        "ValueError",
        "jaxpad.image.resize: shape must have one entry per axis of image (image.ndim=2); "
        "got 1: (4,).",
    ),
    Row(
        "jaxpad.image.resize",
        "a negative size",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, -1), "linear")',
        "ValueError",
        "jaxpad.image.resize: shape must be non-negative; got (4, -1).",
    ),
    Row(
        "jaxpad.image.resize",
        "a fractional size",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 2.5), "linear")',
        "TypeError",
        "jaxpad.image.resize: shape must be a sequence of ints; got (4, 2.5).",
    ),
    Row(
        "jaxpad.image.resize",
        "unknown coordinate_transformation_mode",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "linear", '
        'coordinate_transformation_mode="corners")',
        "ValueError",
        "jaxpad.image.resize: coordinate_transformation_mode must be one of 'half_pixel', "
        "'half_pixel_symmetric', 'pytorch_half_pixel', 'align_corners', 'asymmetric', "
        "'tf_half_pixel_for_nn', 'tf_crop_and_resize'; got 'corners'.",
    ),
    Row(
        "jaxpad.image.resize",
        "nearest_mode with a kernel method",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "linear", nearest_mode="floor")',
        "ValueError",
        "jaxpad.image.resize: nearest_mode is for method 'nearest'; got method 'linear' "
        "with nearest_mode 'floor'.",
    ),
    Row(
        "jaxpad.image.resize",
        "unknown nearest_mode",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "nearest", nearest_mode="round")',
        "ValueError",
        "jaxpad.image.resize: nearest_mode must be one of 'round_prefer_floor', "
        "'round_prefer_ceil', 'floor', 'ceil', 'simple'; got 'round'.",
    ),
    Row(
        "jaxpad.image.resize",
        "cubic_coeff_a with a non-cubic method",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "linear", cubic_coeff_a=-0.75)',
        "ValueError",
        "jaxpad.image.resize: cubic_coeff_a is for the cubic methods; got method 'linear' "
        "with cubic_coeff_a -0.75.",
    ),
    Row(
        "jaxpad.image.resize",
        "exclude_outside with mode",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "cubic", exclude_outside=True, mode="wrap")',
        "ValueError",
        "jaxpad.image.resize: mode reads the taps that exclude_outside drops; got "
        "exclude_outside=True with mode 'wrap'.",
    ),
    Row(
        "jaxpad.image.resize",
        "exclude_outside with nearest",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "nearest", exclude_outside=True)',
        "ValueError",
        "jaxpad.image.resize: exclude_outside is for the kernel methods (a nearest tap "
        "has no others to renormalize over); got method 'nearest' with "
        "exclude_outside=True.",
    ),
    Row(
        "jaxpad.image.resize",
        "roi without tf_crop_and_resize",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "linear", roi=[0, 0, 1, 1])',
        "ValueError",
        "jaxpad.image.resize: roi is for coordinate_transformation_mode "
        "'tf_crop_and_resize'; got 'half_pixel'.",
    ),
    Row(
        "jaxpad.image.resize",
        "roi of the wrong length",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "linear", '
        'coordinate_transformation_mode="tf_crop_and_resize", roi=[0, 1])',
        "ValueError",
        "jaxpad.image.resize: roi must have 2 * image.ndim = 4 entries; got 2: (0.0, 1.0).",
    ),
    Row(
        "jaxpad.image.resize",
        "extrapolation_value nothing reads",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "linear", extrapolation_value=1.0)',
        "ValueError",
        "jaxpad.image.resize: extrapolation_value is read by "
        "coordinate_transformation_mode 'tf_crop_and_resize' or mode 'constant' only; got "
        "1.0 with 'half_pixel' and mode None.",
    ),
    Row(
        "jaxpad.image.resize",
        "unknown mode",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "linear", mode="mirror")',
        "ValueError",
        "jaxpad.image.resize: mode must be one of 'edge', 'constant', 'reflect', "
        "'symmetric', 'wrap'; got 'mirror'.",
    ),
    Row(
        "jaxpad.image.resize",
        "mode of the wrong length",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "linear", mode=("edge", "wrap", "wrap"))',
        "ValueError",
        "jaxpad.image.resize: mode must be one mode or one per axis of image "
        "(image.ndim=2); got 3: ('edge', 'wrap', 'wrap').",
    ),
    Row(
        "jaxpad.image.resize",
        "area with other coordinates",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "area", '
        'coordinate_transformation_mode="align_corners")',
        "ValueError",
        "jaxpad.image.resize: method 'area' takes the half-pixel coordinates only; got "
        "coordinate_transformation_mode 'align_corners'.",
    ),
    Row(
        "jaxpad.image.resize",
        "scales of the wrong length",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "linear", scales=(2.0,))',
        "ValueError",
        "jaxpad.image.resize: scales must have one entry per axis (image.ndim=2); got 1: (2.0,).",
    ),
    Row(
        "jaxpad.image.resize",
        "antialias not a bool",
        'jaxpad.image.resize(jnp.ones((2, 3)), (4, 6), "linear", antialias="yes")',
        "TypeError",
        "jaxpad.image.resize: antialias must be a bool; got 'yes'.",
    ),
    Row(
        "jaxpad.image.resize",
        "an empty axis to a non-empty one",
        'jaxpad.image.resize(jnp.ones((0, 3)), (4, 6), "linear")',
        "ValueError",
        "jaxpad.image.resize: cannot resize an empty axis to a non-empty one; got "
        "image.shape (0, 3) and shape (4, 6).",
    ),
    Row(
        "jaxpad.image.scale_and_translate",
        "nearest",
        'jaxpad.image.scale_and_translate(jnp.ones(4), (8,), (0,), [2.0], [0.0], "nearest")',
        "ValueError",
        "jaxpad.image.scale_and_translate: method 'nearest' is not supported here (as in "
        "jax.image); use jaxpad.image.resize; got 'nearest'.",
    ),
    Row(
        "jaxpad.image.scale_and_translate",
        "scale of the wrong length",
        "jaxpad.image.scale_and_translate(jnp.ones(4), (8,), (0,), [2.0, 1.0], [0.0])",
        "ValueError",
        "jaxpad.image.scale_and_translate: scale must have one entry per axis of "
        "spatial_dims (1); got 2: (2.0, 1.0).",
    ),
    Row(
        "jaxpad.image.scale_and_translate",
        "a non-positive scale",
        "jaxpad.image.scale_and_translate(jnp.ones(4), (8,), (0,), [0.0], [0.0])",
        "ValueError",
        "jaxpad.image.scale_and_translate: scale must be positive and finite; got (0.0,).",
    ),
    Row(
        "jaxpad.image.scale_and_translate",
        "an axis outside spatial_dims resized",
        "jaxpad.image.scale_and_translate(jnp.ones((2, 4)), (3, 8), (1,), [2.0], [0.0])",
        "ValueError",
        "jaxpad.image.scale_and_translate: an axis outside spatial_dims must keep its "
        "size; got image.shape (2, 4) and shape (3, 8) (spatial_dims=(1,)).",
    ),
    Row(
        "jaxpad.image.scale_and_translate",
        "mode with a traced scale",
        "jax.jit(lambda s: jaxpad.image.scale_and_translate(jnp.ones(4), "
        '(8,), (0,), s, jnp.zeros(1), mode="wrap"))(jnp.ones(1))',
        "TypeError",
        "jaxpad.image.scale_and_translate: mode needs a concrete scale and translation "
        "(its taps are planned before tracing); got a traced scale.",
    ),
    Row(
        "jaxpad.nn.interpolate",
        "size and scale_factor both",
        "nn.interpolate(jnp.ones((1, 1, 4)), size=8, scale_factor=2)",
        "ValueError",
        "jaxpad.nn.interpolate: exactly one of size and scale_factor must be given; got "
        "size=8, scale_factor=2.",
    ),
    Row(
        "jaxpad.nn.interpolate",
        "neither size nor scale_factor",
        "nn.interpolate(jnp.ones((1, 1, 4)))",
        "ValueError",
        "jaxpad.nn.interpolate: exactly one of size and scale_factor must be given; got "
        "size=None, scale_factor=None.",
    ),
    Row(
        "jaxpad.nn.interpolate",
        "unknown mode",
        'nn.interpolate(jnp.ones((1, 1, 4)), size=8, mode="cubic")',
        "ValueError",
        "jaxpad.nn.interpolate: mode must be one of 'nearest', 'nearest-exact', 'linear', "
        "'bilinear', 'bicubic', 'trilinear', 'area'; got 'cubic'.",
    ),
    Row(
        "jaxpad.nn.interpolate",
        "a mode that does not fit the rank",
        'nn.interpolate(jnp.ones((1, 1, 4)), size=8, mode="bilinear")',
        "ValueError",
        "jaxpad.nn.interpolate: mode 'bilinear' needs a 4-D input; got 3-D (shape (1, 1, 4)).",
    ),
    Row(
        "jaxpad.nn.interpolate",
        "align_corners with nearest",
        "nn.interpolate(jnp.ones((1, 1, 4)), size=8, align_corners=True)",
        "ValueError",
        "jaxpad.nn.interpolate: align_corners can only be set with the interpolating "
        "modes 'linear', 'bilinear', 'bicubic', 'trilinear'; got mode 'nearest'.",
    ),
    Row(
        "jaxpad.nn.interpolate",
        "antialias with linear",
        'nn.interpolate(jnp.ones((1, 1, 4)), size=2, mode="linear", antialias=True)',
        "ValueError",
        "jaxpad.nn.interpolate: antialias is for modes 'bilinear' and 'bicubic' (4-D "
        "input); got mode 'linear'.",
    ),
    Row(
        "jaxpad.nn.interpolate",
        "size of the wrong length",
        "nn.interpolate(jnp.ones((1, 1, 4, 4)), size=(8, 8, 8))",
        "ValueError",
        "jaxpad.nn.interpolate: size must have one entry per spatial axis of input (2); "
        "got 3: (8, 8, 8).",
    ),
    Row(
        "jaxpad.nn.interpolate",
        "an empty output",
        "nn.interpolate(jnp.ones((1, 1, 4)), scale_factor=0.2)",
        "ValueError",
        "jaxpad.nn.interpolate: input and output sizes should be greater than 0; got "
        "input spatial size (4,) and output size (0,).",
    ),
    Row(
        "jaxpad.nn.interpolate",
        "recompute_scale_factor with size",
        "nn.interpolate(jnp.ones((1, 1, 4)), size=8, recompute_scale_factor=True)",
        "ValueError",
        "jaxpad.nn.interpolate: recompute_scale_factor is not meaningful with an explicit "
        "size; got size=8.",
    ),
    Row(
        "jaxpad.nn.interpolate",
        "an integer input to an interpolating mode",
        'nn.interpolate(jnp.ones((1, 1, 4), jnp.int32), size=8, mode="linear")',
        "TypeError",
        "jaxpad.nn.interpolate: mode 'linear' needs a floating input; got dtype int32.",
    ),
    Row(
        "jaxpad.nn.interpolate",
        "a 2-D input",
        "nn.interpolate(jnp.ones((4, 4)), size=8)",
        "ValueError",
        "jaxpad.nn.interpolate: input must be 3-D, 4-D or 5-D (batch, channels and 1-3 "
        "spatial axes); got an array of shape (4, 4).",
    ),
]


def run(row: Row) -> tuple[str, str]:
    """Runs a row's code; returns (outcome, result) in the table's terms."""
    try:
        value = eval(row.code, dict(NAMESPACE))
    except (TypeError, ValueError) as error:
        # The built-in class: jaxpad.numpy's UnsupportedModeError is a ValueError (and a
        # NotImplementedError, as jnp.pad raises), numpy's AxisError a ValueError.
        builtin = next(c for c in type(error).__mro__ if c.__module__ == "builtins")
        return builtin.__name__, str(error)
    if isinstance(value, tuple):
        return "accepted", str(value)
    return "accepted", str(np.asarray(value).tolist())


def render() -> str:
    lines = [
        "# Bad inputs",
        "",
        "Every invalid input to a public function, and the error it gets: a `TypeError`",
        "for a wrong type or dtype, a `ValueError` for a wrong shape or value, always at",
        "trace time and never from XLA. The last rows are borderline inputs that are",
        "*not* errors. This page is generated from `tests/bad_inputs.py`; one",
        "parametrized test runs every row, and another checks this page is up to date.",
        "",
        "| function | input | code | outcome |",
        "|---|---|---|---|",
    ]
    for row in ROWS:
        outcome = (
            f"returns `{row.result}`"
            if row.outcome == "accepted"
            # Brackets escaped: Markdown reads "mode[0][1]" as a reference link.
            else f"`{row.outcome}`: " + row.result.replace("[", "\\[").replace("]", "\\]")
        )
        cells = [f"`{row.function}`", row.case, f"`{row.code}`", outcome]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    DOC.write_text(render())
    print(f"wrote {DOC} ({len(ROWS)} rows)")
