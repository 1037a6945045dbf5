"""Every option of every public function is used or rejected, never silently ignored.

For each parameter of each public function, a row names a base call and other values
for that parameter; changing the parameter must change the result or raise a
``TypeError``/``ValueError``. The table is checked against ``inspect.signature``, so a
parameter added without a row fails ``test_every_parameter_has_a_row``.
"""

from __future__ import annotations

import inspect
import itertools
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import jaxpad
import jaxpad.numpy as jpnp
from jaxpad import _numpy_pad, nn, policies
from jaxpad.scipy import signal

X = jnp.arange(1.0, 13.0).reshape(3, 4)
IMAGE = jnp.arange(1.0, 1.0 + 2 * 7 * 6).reshape(1, 2, 7, 6)  # NCHW
KERNEL = jnp.arange(1.0, 1.0 + 3 * 2 * 3 * 2).reshape(3, 2, 3, 2)  # OIHW
SIGNAL = jnp.arange(1.0, 11.0)


class Row(NamedTuple):
    function: Any
    parameter: str
    base: dict
    others: tuple


def rows_for(function, base, **others):
    return [Row(function, name, base, tuple(values)) for name, values in others.items()]


_PAD_CONSTANT = dict(x=X, pads_begin=(1, 2), pads_end=(2, 1), mode="constant")
_PAD_REFLECT = dict(_PAD_CONSTANT, mode="reflect")
_DYN_CONSTANT = dict(x=X, pads_begin=(1, 2), shape=(6, 7), mode="constant")
_DYN_REFLECT = dict(_DYN_CONSTANT, mode="reflect")
# A target of (2, 1) tells the modes apart: bidirectional gives (2, 3), numpy raises.
_BROADCAST = dict(x=jnp.arange(3.0), target_shape=(2, 1), mode="bidirectional")
_EXPLICIT = dict(x=jnp.arange(3.0), target_shape=(3, 3), mode="explicit", axes_mapping=(0,))
_NP_PAD = dict(array=X, pad_width=((1, 2), (2, 1)), mode="constant")
_CONV = dict(x=IMAGE, kernel=KERNEL, strides=1, policy=policies.torch(1))
# Stride 1, where flax's CIRCULAR pads as torch(1) does: only the pad mode differs.
_CONV_T = dict(x=IMAGE[:, :, :4, :4], kernel=KERNEL[:2], strides=1, policy=policies.torch(1))
_POOL = dict(x=SIGNAL, window=3, strides=2, policy=policies.torch(1))
_MODES = ("constant", "edge", "symmetric", "wrap")

ROWS = [
    *rows_for(
        jaxpad.pad,
        _PAD_REFLECT,
        x=[X + 1],
        pads_begin=[(0, 2), (1, -1)],
        pads_end=[(1, 1), (2, 0)],
        mode=_MODES,
    ),
    *rows_for(jaxpad.pad, _PAD_CONSTANT, pad_value=[5.0], interior=[(1, 0)]),
    # Reflect reads cropped rows under the default rule: crop-first reads others.
    *rows_for(
        jaxpad.pad, dict(_PAD_REFLECT, pads_begin=(-1, 2), pads_end=(2, -1)), crop_first=[True]
    ),
    *rows_for(jaxpad.pad, _PAD_REFLECT, pad_value=[5.0], interior=[(1, 0)]),
    *rows_for(
        jaxpad.dynamic_pad,
        _DYN_REFLECT,
        x=[X + 1],
        pads_begin=[(0, 2), jnp.array([1, -1]), (2**40, 3)],
        shape=[(6, 6), (4, 7)],
        mode=_MODES,
    ),
    *rows_for(jaxpad.dynamic_pad, _DYN_CONSTANT, pad_value=[5.0]),
    *rows_for(jaxpad.dynamic_pad, _DYN_REFLECT, pad_value=[5.0]),
    # max_pad plans sharded programs only (tests/test_sharded_pad.py); on one device a static
    # pad past it is rejected.
    *rows_for(jaxpad.dynamic_pad, _DYN_REFLECT, max_pad=[0, (0, None), -1]),
    *rows_for(
        jaxpad.broadcast,
        _BROADCAST,
        x=[jnp.arange(1.0, 4.0)],
        target_shape=[(4, 1)],
        mode=["numpy", "explicit"],
        axes_mapping=[(1,)],
    ),
    *rows_for(jaxpad.broadcast, _EXPLICIT, axes_mapping=[(1,)]),
    *rows_for(
        jpnp.pad,
        _NP_PAD,
        array=[X + 1],
        pad_width=[1, ((0, 0), (1, 1))],
    ),
    *rows_for(
        jpnp.pad,
        dict(_NP_PAD, mode="edge"),
        mode=["constant", "reflect", "linear_ramp", "maximum", "median", "empty", lambda *a: None],
    ),
    *rows_for(
        nn.conv,
        _CONV,
        x=[IMAGE + 1],
        kernel=[KERNEL + 1],
        strides=[2, (1, 2)],
        policy=[policies.torch(2), policies.tensorflow("VALID")],
        pad_mode=["reflect", "wrap", "edge"],
        dilation=[2, (1, 2)],
        dimension_numbers=[("NCWH", "OIHW", "NCHW")],
        feature_group_count=[2],
        # Passed to lax: an invalid value must reach it (lax rejects it), not be dropped.
        precision=["no such precision"],
        preferred_element_type=[jnp.bfloat16],
    ),
    *rows_for(
        nn.conv_transpose,
        _CONV_T,
        x=[IMAGE[:, :, :4, :4] + 1],
        kernel=[KERNEL[:2] + 1],
        strides=[2, (2, 1)],
        policy=[policies.torch(0), policies.flax("CIRCULAR")],
        output_padding=[1, (0, 1)],
        dilation=[2],
        dimension_numbers=[("NCWH", "OIHW", "NCHW")],
        transpose_kernel=[True],
        pad_mode=["reflect", "wrap"],
        feature_group_count=[2],
        precision=["no such precision"],
        preferred_element_type=[jnp.bfloat16],
    ),
]
# A grid reaching past the input's edge and between its cells, so that every mode,
# padding mode and corner convention reads something else.
_GRID = jnp.stack(jnp.meshgrid(jnp.linspace(-1.3, 1.2, 4), jnp.linspace(-1.1, 1.4, 3)), -1)[None]
_GRID_SAMPLE = dict(input=IMAGE, grid=_GRID)
_THETA = jnp.array([[[0.9, 0.2, 0.1], [-0.3, 1.1, 0.05]]])
ROWS += [
    *rows_for(
        nn.grid_sample,
        _GRID_SAMPLE,
        input=[IMAGE + 1],
        grid=[_GRID * 0.5],
        mode=["nearest", "bicubic"],
        padding_mode=["border", "reflection"],
        align_corners=[True],
        # IMAGE read channels-last: a (1, 2, 7, 6) NHWC input, 6 channels.
        channels_last=[True],
    ),
    *rows_for(
        nn.interpolate,
        {"input": IMAGE, "size": (9, 4), "mode": "bilinear"},
        input=[IMAGE * 2],
        size=[(5, 3), None],
        scale_factor=[1.5],
        mode=["nearest", "bicubic"],
        align_corners=[True],
        recompute_scale_factor=[True],
        antialias=[True],
        channels_last=[True],
    ),
    *rows_for(
        nn.affine_grid,
        dict(theta=_THETA, size=(1, 2, 3, 4)),
        theta=[_THETA * 2],
        size=[(1, 2, 4, 3)],
        align_corners=[True],
        channels_last=[True],
    ),
]
# Reflect by 1 (or edge) under a window of 3 only repeats a value the window holds: it
# changes an average, never a maximum, so the max pool's mode rows use wrap.
for pool, modes in ((nn.avg_pool, ("reflect", "edge")), (nn.max_pool, ("wrap",))):
    mode = modes[0]
    ROWS += rows_for(
        pool,
        _POOL,
        x=[SIGNAL[::-1]],
        window=[2, 5],
        strides=[1, 3],
        policy=[
            policies.torch(0),
            policies.torch(1, ceil_mode=True),
            policies.flax({"reflect": "REFLECT", "wrap": "CIRCULAR"}[mode]),
        ],
        pad_mode=modes,
        dilation=[2],
    )

# jnp.pad's keyword arguments, with the modes that read each of them and one that
# does not (which must reject it).
_NP_KWARGS = {
    "constant_values": (dict(_NP_PAD), [7.0, ((1, 2), (3, 4))]),
    "reflect_type": (dict(_NP_PAD, mode="reflect"), ["odd"]),
    "end_values": (dict(_NP_PAD, mode="linear_ramp"), [5.0, ((1, 2), (3, 4))]),
    "stat_length": (dict(_NP_PAD, mode="mean"), [1, ((1, 2), (2, 1))]),
}
for name, (base, values) in _NP_KWARGS.items():
    ROWS.append(Row(jpnp.pad, name, base, tuple(values)))
    ROWS.append(Row(jpnp.pad, name, dict(_NP_PAD, mode="edge"), tuple(values)))
for statistic in ("maximum", "minimum", "median"):
    ROWS.append(Row(jpnp.pad, "stat_length", dict(_NP_PAD, mode=statistic), (1, 0)))


# Policies: an option is used if some window op or geometry query changes with it.
def _probe(policy):
    """What ops and geometry queries make of ``policy`` on a few window configs."""
    results = []
    # Each config makes some option matter: an uneven division (rounding), a window of
    # 1 (half-window pool pads), a negative extra (centred), a window starting past the
    # end (ceil_clip) and an empty output (whose message carries the policy's name).
    configs = (((10,), (3,), (2,)), ((7,), (2,), (3,)), ((6,), (1,), (1,)), ((10,), (1,), (4,)))
    configs += (((4,), (1,), (2,)), ((2,), (5,), (1,)))
    for sizes, window, strides in configs:
        for query in (
            lambda: policy.pads(sizes, window, strides),
            lambda: policy.output_shape(sizes, window, strides),
            lambda: policy.declared_pads(sizes, window, strides),
            lambda: policy.check_pool_pads(window),
            lambda: np.asarray(
                nn.avg_pool(jnp.arange(1.0, 1.0 + sizes[0]), window, strides, policy)
            ).tolist(),
            lambda: np.asarray(
                nn.conv(
                    jnp.arange(1.0, 1.0 + sizes[0]).reshape(1, 1, -1),
                    jnp.arange(1.0, 1.0 + window[0]).reshape(1, 1, -1),
                    strides,
                    policy,
                )
            ).tolist(),
        ):
            try:
                results.append(query())
            except (TypeError, ValueError) as error:
                results.append((type(error).__name__, str(error)))
    return results


def _custom(in_shape, window, strides, dilation):
    return [(1, 0) for _ in in_shape]


_POLICY = dict(size="explicit", explicit=1)
ROWS += [
    *rows_for(
        jaxpad.PaddingPolicy,
        _POLICY,
        size=["valid", "same", "same_stride1", "causal"],
        explicit=[0, (2, 1)],
        rounding=["ceil"],
        pad_mode=["reflect", "wrap"],
        half_window_pool_pads=[True],
        stride1_only=[True],
        name=["Renamed"],
    ),
    *rows_for(jaxpad.PaddingPolicy, dict(size="same"), remainder=["top_left"], centred=[True]),
    *rows_for(
        jaxpad.PaddingPolicy, dict(_POLICY, explicit=0, rounding="ceil"), ceil_clip=["caffe"]
    ),
    # "padded" differs from "window" only where a window overhangs the padding: ceil.
    *rows_for(jaxpad.PaddingPolicy, dict(_POLICY, rounding="ceil"), divisor=["padded", "valid"]),
    *rows_for(jaxpad.PaddingPolicy, dict(size="custom", custom=_custom), custom=[None, 3]),
    *rows_for(policies.tensorflow, {}, padding=["SAME"]),
    *rows_for(policies.jax, {}, padding=["SAME", "SAME_LOWER"]),
    *rows_for(policies.keras, {}, padding=["same"]),
    *rows_for(policies.flax, {}, padding=["VALID", "CIRCULAR", "CAUSAL"]),
    *rows_for(policies.torch, dict(padding=1), padding=[0, "same"], ceil_mode=[True]),
    *rows_for(policies.torch, dict(padding=1), count_include_pad=[False]),
    *rows_for(policies.caffe, dict(pad=1), pad=[0], round_mode=["floor"]),
    *rows_for(
        policies.onnx,
        {},
        auto_pad=["SAME_UPPER", "SAME_LOWER", "VALID"],
        pads=[(1, 0)],
        ceil_mode=[True],
    ),
    *rows_for(policies.onnx, dict(pads=(1, 1)), count_include_pad=[True]),
    *rows_for(policies.onnx, dict(pads=(0, 1)), ceil_mode=[True]),
    *rows_for(policies.mps, {}, size=["same"], remainder=["bottom_right"]),
    # exclude_edges: see test_mps_exclude_edges_has_no_window_to_exclude.
]


def _halo_pad_in_vmap(x, halo_begin, halo_end, mode="constant", pad_value=None, *, axis_names):
    """halo_pad over 2 blocks of a named vmap axis, which stands in for a mesh axis."""
    return jax.vmap(
        lambda block: jaxpad.halo_pad(
            block, halo_begin, halo_end, mode, pad_value, axis_names=axis_names
        ),
        axis_name="i",
    )(x)


_HALO = dict(
    x=jnp.arange(24.0).reshape(2, 3, 4), halo_begin=(1, 1), halo_end=(2, 0), mode="reflect"
)
_HALO_AXES = dict(axis_names=("i", None))
ROWS += [
    *rows_for(
        _halo_pad_in_vmap,
        {**_HALO, **_HALO_AXES},
        x=[jnp.arange(1.0, 25.0).reshape(2, 3, 4)],
        halo_begin=[(0, 1), (1, 2)],
        halo_end=[(1, 0), (2, 1)],
        mode=_MODES,
        pad_value=[5.0],
        axis_names=[(None, None), ("j", None)],
    ),
    *rows_for(_halo_pad_in_vmap, {**_HALO, **_HALO_AXES, "mode": "constant"}, pad_value=[5.0]),
]

_RESIZE = dict(image=IMAGE, shape=(1, 2, 5, 9), method="linear")
_CROP = dict(_RESIZE, coordinate_transformation_mode="tf_crop_and_resize")
_SCALE = dict(
    image=IMAGE,
    shape=(1, 2, 5, 9),
    spatial_dims=(2, 3),
    scale=jnp.array([0.7, 1.5]),
    translation=jnp.array([0.0, 0.0]),
)
ROWS += [
    *rows_for(
        jaxpad.image.resize,
        _RESIZE,
        image=[IMAGE * 2],
        shape=[(1, 2, 4, 9)],
        method=["cubic", "nearest"],
        antialias=[False],
        # Checked, and changes nothing (the passes hold no dot): a bad value raises.
        precision=["bogus"],
        coordinate_transformation_mode=["align_corners", "asymmetric"],
        mode=["wrap"],
        scales=[(1, 1, 0.6, 1.6)],
        exclude_outside=[False],
    ),
    *rows_for(jaxpad.image.resize, dict(_RESIZE, method="nearest"), nearest_mode=["floor", "ceil"]),
    *rows_for(
        jaxpad.image.resize,
        dict(_RESIZE, method="cubic", antialias=False),
        cubic_coeff_a=[-0.75],
        exclude_outside=[False],
    ),
    *rows_for(
        jaxpad.image.resize,
        dict(_CROP, roi=(0, 0, -0.2, 0, 1, 1, 1.2, 1)),
        roi=[(0, 0, 0.1, 0, 1, 1, 0.9, 1)],
        extrapolation_value=[5.0],
    ),
    *rows_for(
        jaxpad.image.scale_and_translate,
        _SCALE,
        image=[IMAGE * 2],
        shape=[(1, 2, 4, 9)],
        spatial_dims=[(3, 2)],
        scale=[jnp.array([0.6, 1.5])],
        translation=[jnp.array([0.5, 0.0])],
        method=["cubic"],
        antialias=[False],
        precision=["bogus"],
        mode=["wrap"],
    ),
]

# scipy.signal: two signals of 20 samples; a second-order filter and two sections.
_SIGNALS = jnp.sin(jnp.arange(40.0) * 0.7).reshape(2, 20) + jnp.arange(40.0).reshape(2, 20) / 10
_B, _A = jnp.array([0.2, 0.3, 0.1]), jnp.array([1.0, -0.5, 0.2])
_SOS = jnp.array([[0.2, 0.3, 0.1, 1.0, -0.5, 0.2], [1.0, 0.4, 0.1, 1.0, -0.2, 0.1]])
_TAPS = jnp.arange(1.0, 9.0)  # 8 taps: up 3, down 2 reads past the ends
_LONG = jnp.sin(jnp.arange(128.0) * 0.3).reshape(2, 64)
_FILTER = dict(b=_B, a=_A, x=_SIGNALS)
ROWS += [
    *rows_for(
        signal.lfilter,
        _FILTER,
        b=[_B * 2],
        a=[_A.at[1].set(-0.4)],
        x=[_SIGNALS * 2],
        axis=[0],
        zi=[jnp.ones((2, 2))],
    ),
    *rows_for(signal.lfilter_zi, dict(b=_B, a=_A), b=[_B * 2], a=[_A.at[1].set(-0.4)]),
    *rows_for(
        signal.sosfilt,
        dict(sos=_SOS, x=_SIGNALS),
        sos=[_SOS.at[0, 0].set(0.5)],
        x=[_SIGNALS * 2],
        axis=[0],
        zi=[jnp.ones((2, 2, 2))],
    ),
    *rows_for(signal.sosfilt_zi, dict(sos=_SOS), sos=[_SOS.at[0, 0].set(0.5)]),
    *rows_for(
        signal.filtfilt,
        _FILTER,
        b=[_B * 2],
        a=[_A.at[1].set(-0.4)],
        x=[_SIGNALS * 2],
        axis=[0],
        padtype=["even", None],
        padlen=[2],
        method=["gust"],
        irlen=[3],
    ),
    *rows_for(signal.filtfilt, dict(_FILTER, method="gust"), irlen=[3]),
    *rows_for(
        signal.sosfiltfilt,
        dict(sos=_SOS, x=_SIGNALS),
        sos=[_SOS.at[0, 0].set(0.5)],
        x=[_SIGNALS * 2],
        axis=[0],
        padtype=["even", None],
        padlen=[2],
    ),
    *rows_for(
        signal.decimate,
        dict(x=_LONG, q=2),
        x=[_LONG * 2],
        q=[4],
        n=[4],
        ftype=["fir"],
        axis=[0],
        zero_phase=[False],
    ),
    *rows_for(
        signal.savgol_filter,
        dict(x=_SIGNALS, window_length=5, polyorder=2, mode="constant"),
        x=[_SIGNALS * 2],
        window_length=[7],
        # Centred smoothing: polyorders 2 and 3 agree, 4 is the window's identity.
        polyorder=[4],
        deriv=[1],
        axis=[0],
        mode=["interp", "mirror", "nearest", "wrap"],
        cval=[3.0],
    ),
    # delta scales a derivative (delta ** -deriv), as scipy's.
    *rows_for(
        signal.savgol_filter, dict(x=_SIGNALS, window_length=5, polyorder=2, deriv=1), delta=[2.0]
    ),
    # Centred smoothing coefficients are symmetric and alike for polyorders 2 and 3:
    # pos 1 tells them apart.
    *rows_for(
        signal.savgol_coeffs,
        dict(window_length=5, polyorder=2, pos=1),
        window_length=[7],
        polyorder=[3],
        deriv=[1],
        pos=[2],
        use=["dot"],
    ),
    *rows_for(signal.savgol_coeffs, dict(window_length=5, polyorder=2, deriv=1), delta=[2.0]),
    *rows_for(
        signal.upfirdn,
        dict(h=_TAPS, x=_SIGNALS, up=3, down=2, mode="constant"),
        h=[_TAPS * 2],
        x=[_SIGNALS * 2],
        up=[2],
        down=[1],
        axis=[0],
        mode=[
            "wrap",
            "edge",
            "smooth",
            "symmetric",
            "reflect",
            "antisymmetric",
            "antireflect",
            "line",
        ],
        cval=[3.0],
    ),
    *rows_for(
        signal.resample_poly,
        dict(x=_SIGNALS, up=3, down=2, axis=-1),
        x=[_SIGNALS * 2],
        up=[2],
        down=[3],
        axis=[0],
        window=[("kaiser", 2.0), "hamming"],
        padtype=["edge", "mean", "line"],
        cval=[3.0],
    ),
    *(
        row
        for function in (signal.convolve2d, signal.correlate2d)
        for row in rows_for(
            function,
            dict(in1=_SIGNALS, in2=_B[None]),
            in1=[_SIGNALS * 2],
            in2=[_B[None] * 2],
            mode=["same", "valid"],
            boundary=["wrap", "symm"],
            fillvalue=[3.0],
        )
    ),
]

PUBLIC = [
    jaxpad.pad,
    jaxpad.dynamic_pad,
    jaxpad.broadcast,
    jaxpad.halo_pad,
    jaxpad.PaddingPolicy,
    jpnp.pad,
    *(getattr(nn, name) for name in nn.__all__),
    *(getattr(policies, name) for name in policies.__all__),
    jaxpad.image.resize,
    jaxpad.image.scale_and_translate,
    *(getattr(signal, name) for name in signal.__all__),
]


def _outcome(row: Row, **change):
    """The result of the row's call (made comparable), or the error it raises."""
    try:
        result = row.function(**{**row.base, **change})
    except (TypeError, ValueError) as error:
        return ("raised", type(error).__name__)
    if isinstance(result, jaxpad.PaddingPolicy):
        return _probe(result)
    if isinstance(result, tuple):  # lfilter and sosfilt with zi: (y, zf)
        return tuple((r.shape, r.dtype, np.asarray(r).tolist()) for r in result)
    return (result.shape, result.dtype, np.asarray(result).tolist())


def _id(row: Row):
    name = getattr(row.function, "__qualname__", str(row.function))
    return f"{name}-{row.parameter}-{row.base.get('mode', '')}"


@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_changing_an_option_changes_the_result_or_raises(row):
    base = _outcome(row)
    assert base[0] != "raised", f"the base call of {row} must be valid"
    for value in row.others:
        changed = _outcome(row, **{row.parameter: value})
        assert changed != base, f"{row.parameter}={value!r} was ignored: {changed}"


@pytest.mark.parametrize("function", PUBLIC, ids=lambda f: f.__qualname__)
def test_every_parameter_has_a_row(function):
    tested = _halo_pad_in_vmap if function is jaxpad.halo_pad else function
    covered = {row.parameter for row in ROWS if row.function is tested}
    if function is policies.mps:
        covered.add("exclude_edges")  # test_mps_exclude_edges_has_no_window_to_exclude
    parameters = set()
    for name, parameter in inspect.signature(function).parameters.items():
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            # jaxpad.numpy.pad's keyword arguments are jnp.pad's, listed per mode.
            parameters |= {k for names in _numpy_pad._ALLOWED_KWARGS.values() for k in names}
        else:
            parameters.add(name)
    assert parameters <= covered, f"no row for {sorted(parameters - covered)}"


def test_mps_exclude_edges_has_no_window_to_exclude():
    # ExcludeEdges leaves out of an average the part of a window beyond the padding
    # (the "padded" divisor). MPS's size policies pad exactly what the windows read, so
    # no window reaches past its padding and the divisor equals the window size. The
    # option is honoured, and it cannot change a result; this checks both.
    from jaxpad._window_ops import _divisor

    configs = 0
    for size in ("valid", "same", "full"):
        for remainder in ("top_left", "bottom_right"):
            policy = policies.mps(size, remainder, exclude_edges=True)
            assert policy.divisor == "padded"
            for n, k, s in itertools.product(range(1, 10), range(1, 7), range(1, 4)):
                try:
                    pads = policy.pads((n,), (k,), (s,))
                except ValueError:
                    continue
                declared = policy.declared_pads((n,), (k,), (s,))
                out = policy.output_shape((n,), (k,), (s,))
                padded = _divisor("padded", (n,), (k,), (s,), (1,), pads, declared, out)
                np.testing.assert_array_equal(padded, np.full(out, float(k)))
                configs += 1
    assert configs > 500


def test_rows_cover_lax_conv_dimension_numbers():
    # dimension_numbers' row must really permute the layout, or it proves nothing.
    numbers = lax.conv_dimension_numbers(IMAGE.shape, KERNEL.shape, ("NCWH", "OIHW", "NCHW"))
    assert numbers.lhs_spec != (0, 1, 2, 3)
