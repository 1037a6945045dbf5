"""Tests for jaxpad/image.py (``jaxpad.image.resize``, ``scale_and_translate``) and the
sampling core's tables (jaxpad/_sampling).

Oracles: ``jax.image.resize`` and ``jax.image.scale_and_translate`` (every method, up
and down, antialias on and off, float64 and float32), ONNX's reference implementation
(``onnx.reference``, skipped without onnx) for ONNX Resize's options,
``scipy.ndimage.map_coordinates`` on a ``numpy.pad``-ed input for the boundary modes,
the resize of an impulse for where a non-finite input must go, and finite differences
(``check_grads``). The ported framework suites (ONNX's node cases, JAX's image tests,
OpenCV, Pillow, TensorFlow) live in their own files.
"""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads
from scipy import ndimage

import jaxpad
import jaxpad.scipy.ndimage
from tests.compat import enable_x64
from tests.rotation import rotation

METHODS = ["nearest", "linear", "cubic", "cubic-pytorch", "lanczos3", "lanczos5", "area"]
SHAPES = [(3, 14, 10, 2), (3, 3, 2, 2), (3, 11, 4, 2), (3, 1, 1, 2)]


def _jax_has(method):
    """Whether this release's jax.image, the oracle, has ``method`` (jax 0.6.2 has no
    "area")."""
    try:
        jax.image.resize(np.zeros(2), (3,), method)
    except ValueError:
        return False
    return True


def _jitted(fn, **kw):
    return jax.jit(lambda v: fn(v, **kw))


def test_matches_jax_resize(full_run):
    """Every method, antialias on and off, up, down and mixed: float64 to 1e-12
    (nearest exactly), float32 within 2e-6 of the input's range."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 7, 5, 2))
    methods = [method for method in METHODS if _jax_has(method)]
    cases = list(itertools.product(methods, (True, False), SHAPES))
    # A rotating share (tests/rotation.py): an eighth under --all, a nineteenth in the
    # default run; every case across commits (each compiles its passes: CI's budget).
    step = 8 if full_run else 19
    start = rotation(step, "test_matches_jax_resize")
    with enable_x64(True):
        for k, (method, aa, shape) in enumerate(cases):
            if (k - start) % step:
                continue
            for dt in (np.float64, np.float32) if k % 3 else (np.float64,):
                v = x.astype(dt)
                want = np.asarray(jax.image.resize(v, shape, method, antialias=aa))
                got = np.asarray(jaxpad.image.resize(v, shape, method, antialias=aa))
                assert got.dtype == want.dtype
                tol = 1e-12 if dt == np.float64 else 2e-6 * np.ptp(x)
                np.testing.assert_allclose(
                    got, want, rtol=0, atol=tol, err_msg=f"{method} {aa} {shape}"
                )


def test_nearest_indices_equal_jax():
    """JAX's nearest indices exactly (its float32 arithmetic), on sizes where a float64
    floor differs; an integer image keeps its dtype."""
    for n_in in (7, 41):
        x = jnp.arange(n_in, dtype=jnp.int32)
        for n_out in (5, 29, 100):
            want = jax.image.resize(x, (n_out,), "nearest")
            got = jaxpad.image.resize(x, (n_out,), "nearest")
            assert got.dtype == jnp.int32
            np.testing.assert_array_equal(got, want)


def test_scale_and_translate_matches_jax(full_run):
    """Concrete and traced (jitted) scale and translation against JAX, where JAX keeps
    the edge; where it zeroes a sample beyond the edge (jax-ml/jax#24106) the output
    is the in-range taps renormalized: the edge sample, for a linear upsampling."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 7, 5, 1))
    cases = list(
        itertools.product(
            ["linear", "cubic", "lanczos3", "area", "cubic-pytorch"],
            (True, False),
            [((2.0, 0.5), (0.3, -1.0)), ((1.0, 1.0), (0.25, 0.0)), ((0.7, 1.3), (0.0, 0.0))],
        )
    )
    step = 8 if full_run else 17
    start = rotation(step, "test_scale_and_translate_matches_jax")
    with enable_x64(True):
        for k, (method, aa, (sc, tr)) in enumerate(cases):
            if (k - start) % step:
                continue
            shape = (1, int(7 * sc[0]), int(5 * sc[1]), 1)
            scale, shift = jnp.array([1.0, *sc, 1.0]), jnp.array([0.0, *tr, 0.0])
            want = jax.jit(
                lambda v, s, t, m=method, a=aa, sh=shape: jax.image.scale_and_translate(
                    v, sh, (0, 1, 2, 3), s, t, m, a
                )
            )(x, scale, shift)
            got = jaxpad.image.scale_and_translate(
                x, shape, (0, 1, 2, 3), np.asarray(scale), np.asarray(shift), method, aa
            )
            np.testing.assert_allclose(got, want, atol=1e-12, err_msg=f"{method} {aa} {sc} {tr}")
            if k % 4:
                continue
            traced = jax.jit(
                lambda v, s, t, m=method, a=aa, sh=shape: jaxpad.image.scale_and_translate(
                    v, sh, (0, 1, 2, 3), s, t, m, a
                )
            )(x, scale, shift)
            np.testing.assert_allclose(traced, want, atol=1e-12)
        # 2 n + 1 outputs at scale 2: JAX zeroes the last; here it is the edge sample
        v = np.arange(1.0, 5.0)
        args = ((9,), (0,), np.array([2.0]), np.array([0.0]), "linear", False)
        want = np.asarray(jax.image.scale_and_translate(v, *args))
        got = np.asarray(jaxpad.image.scale_and_translate(v, *args))
        assert want[-1] == 0.0
        np.testing.assert_allclose(got[:-1], want[:-1], atol=1e-12)
        assert got[-1] == v[-1]
        # derivatives in the scale and translation where they are traced
        grad = jax.jit(
            jax.grad(
                lambda s, t: jnp.sum(
                    jaxpad.image.scale_and_translate(x, (1, 9, 4, 1), (1, 2), s, t, "cubic") ** 2
                ),
                argnums=(0, 1),
            )
        )(jnp.array([1.3, 0.8]), jnp.array([0.2, -0.4]))
        assert all(np.isfinite(g).all() for g in grad)


def _onnx_resize(x, out_shape, **attrs):
    """ONNX's reference Resize (sizes input, or scales where ``scales`` is given)."""
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator

    scales = attrs.pop("scales", None)
    roi = attrs.pop("roi", None)
    inputs = ["X", "roi" if roi is not None else "", "scales" if scales is not None else ""]
    if scales is None:
        inputs.append("sizes")
    node = helper.make_node("Resize", inputs, ["Y"], **attrs)
    feeds = {"X": x}
    if roi is not None:
        feeds["roi"] = np.asarray(roi, np.float32)
    if scales is not None:
        feeds["scales"] = np.asarray(scales, np.float32)
    else:
        feeds["sizes"] = np.asarray(out_shape, np.int64)
    graph = helper.make_graph(
        [node],
        "g",
        [
            helper.make_tensor_value_info(
                k, TensorProto.FLOAT if k != "sizes" else TensorProto.INT64, None
            )
            for k in feeds
        ],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    return ReferenceEvaluator(model).run(None, feeds)[0]


def test_onnx_options_match_onnx_reference(full_run):
    """ONNX Resize's options with ONNX's meaning: every coordinate transformation
    (``tf_crop_and_resize`` with ``roi`` and ``extrapolation_value``), nearest rounding
    mode, ``cubic_coeff_a``, ``exclude_outside``, antialias; float32 against the
    reference's float32."""
    pytest.importorskip("onnx")
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, (1, 1, 4, 5)).astype(np.float32)
    modes = [
        "half_pixel",
        "half_pixel_symmetric",
        "pytorch_half_pixel",
        "align_corners",
        "asymmetric",
        "tf_crop_and_resize",
    ]
    cases = []
    for ctm in modes:
        cases.append(("nearest", ctm, {"nearest_mode": "round_prefer_ceil"}))
        cases.append(("linear", ctm, {}))
        cases.append(("cubic", ctm, {"cubic_coeff_a": -0.75}))
    cases += [
        ("nearest", "asymmetric", {"nearest_mode": "ceil"}),
        ("nearest", "half_pixel", {"nearest_mode": "round_prefer_floor"}),
        ("cubic", "half_pixel", {"cubic_coeff_a": -0.5, "exclude_outside": True}),
        ("linear", "half_pixel", {"antialias": True}),
    ]
    for k, (method, ctm, opts) in enumerate(cases):
        if not full_run and k % 5:
            continue
        for out in ((1, 1, 7, 3), (1, 1, 2, 8)):
            attrs = {"mode": method, "coordinate_transformation_mode": ctm}
            kw = dict(opts)
            antialias = kw.pop("antialias", False)
            if antialias:
                attrs["antialias"] = 1
            for key in ("nearest_mode", "cubic_coeff_a"):
                if key in kw:
                    attrs[key] = kw[key]
            if "exclude_outside" in kw:
                attrs["exclude_outside"] = int(kw["exclude_outside"])
            if method == "cubic":
                kw.setdefault("exclude_outside", False)
            if method == "linear" and not antialias:
                kw["exclude_outside"] = False
            if ctm == "tf_crop_and_resize":
                roi = [0, 0, 0.2, -0.3, 1, 1, 0.9, 1.2]
                attrs["extrapolation_value"] = 0.5
                kw.update(roi=roi, extrapolation_value=0.5)
                want = _onnx_resize(x, out, roi=roi, **attrs)
            else:
                want = _onnx_resize(x, out, **attrs)
            if method == "linear" and antialias:
                kw["exclude_outside"] = False
            got = jaxpad.image.resize(
                x, out, method, antialias=antialias, coordinate_transformation_mode=ctm, **kw
            )
            np.testing.assert_allclose(
                got, want, atol=2e-6 * 2, err_msg=f"{method} {ctm} {opts} {out}"
            )


def test_boundary_modes_read_the_padded_input(full_run):
    """``mode``: the taps beyond the edge read ``numpy.pad``'s extension in that mode
    (one per axis too); linear taps at the half-pixel coordinates are
    ``map_coordinates(order=1)`` on the padded input."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 6))
    numpy_mode = {"edge": "edge", "reflect": "reflect", "symmetric": "symmetric", "wrap": "wrap"}
    with enable_x64(True):
        for k, (m0, m1) in enumerate(
            [("edge", "wrap"), ("reflect", "symmetric"), ("wrap", "wrap"), ("constant", "reflect")]
        ):
            if not full_run and k % 2:
                continue
            out = (13, 4)
            got = jaxpad.image.resize(
                x,
                out,
                "linear",
                antialias=False,
                mode=(m0, m1),
                extrapolation_value=0.25 if m0 == "constant" else 0.0,
            )
            p = 2
            padded = np.pad(
                x,
                ((p, p), (0, 0)),
                **(
                    {"mode": "constant", "constant_values": 0.25}
                    if m0 == "constant"
                    else {"mode": numpy_mode[m0]}
                ),
            )
            padded = np.pad(padded, ((0, 0), (p, p)), mode=numpy_mode[m1])
            rows = (np.arange(out[0]) + 0.5) * x.shape[0] / out[0] - 0.5 + p
            cols = (np.arange(out[1]) + 0.5) * x.shape[1] / out[1] - 0.5 + p
            grid = np.meshgrid(rows, cols, indexing="ij")
            want = ndimage.map_coordinates(padded, grid, order=1)
            np.testing.assert_allclose(got, want, atol=1e-12, err_msg=f"{m0} {m1}")


def test_nonfinite_stays_where_the_taps_read_it():
    """An inf or nan reaches exactly the outputs whose nonzero taps read it (the
    resize of an impulse there), in every method: no 0 * inf from a zero weight."""
    x = np.zeros((6, 5), np.float32)
    impulse = x.copy()
    impulse[2, 3] = 1.0
    for method in METHODS + ["box", "lanczos4"]:
        for out in ((12, 9), (3, 2)):
            kw = {"coordinate_transformation_mode": "align_corners"} if method == "linear" else {}
            f = _jitted(jaxpad.image.resize, shape=out, method=method, **kw)
            reads = np.asarray(f(impulse)) != 0
            for bad in (np.inf, np.nan):
                y = x.copy()
                y[2, 3] = bad
                got = np.asarray(f(y))
                np.testing.assert_array_equal(
                    ~np.isfinite(got), reads, err_msg=f"{method} {out} {bad}"
                )


def _resized_axes(fn, x):
    """The axes of ``fn(x)``'s sampling passes, in the order they run."""
    eqns = jax.make_jaxpr(fn)(x).eqns
    plans = [e.params["plan"] for e in eqns if e.primitive.name == "jaxpad_resize"]
    if plans:
        return [axis for axis, _ in plans[0]]
    return [e.params["axis"] for e in eqns if e.primitive.name == "jaxpad_interpolation_pass"]


def test_passes_run_in_the_order_that_writes_least():
    """The minor axis's pass (its phases interleaved element by element) runs while the
    array is smallest: first when enlarging, last when shrinking; the other axes shrink
    before they grow (``_pass.pass_order``); a doubling with at most two taps runs the
    minor axis last, its pieces placed in the output (``_resize.ordered``)."""
    nchw = np.zeros((1, 2, 8, 8), np.float32)
    up = jaxpad.nn.interpolate
    assert _resized_axes(lambda x: up(x, scale_factor=2, mode="bicubic"), nchw) == [3, 2]
    assert _resized_axes(lambda x: up(x, size=(24, 24), mode="bilinear"), nchw) == [3, 2]
    assert _resized_axes(lambda x: up(x, scale_factor=2, mode="bilinear"), nchw) == [2, 3]
    halving = {"scale_factor": 0.5, "mode": "bicubic", "antialias": True}
    assert _resized_axes(lambda x: up(x, **halving), nchw) == [2, 3]
    assert _resized_axes(lambda x: up(x, size=(4, 16), mode="bilinear"), nchw) == [2, 3]
    # two passes that fuse (_resize._lowered): the minor axis first
    assert _resized_axes(lambda x: up(x, scale_factor=0.5, mode="bilinear"), nchw) == [3, 2]
    nhwc = np.zeros((1, 8, 8, 2), np.float32)
    resize = jaxpad.image.resize
    assert _resized_axes(lambda x: resize(x, (1, 16, 4, 2), "linear"), nhwc) == [2, 1]
    assert _resized_axes(lambda x: resize(x, (1, 16, 16, 2), "linear"), nhwc) == [1, 2]
    image = np.zeros((8, 8), np.float32)
    zoom = jaxpad.scipy.ndimage.zoom
    assert _resized_axes(lambda x: zoom(x, 2, order=1), image) == [1, 0]


def test_two_small_shrinking_passes_fuse():
    """Two shrinking passes with few taps run piece by piece, fused: the compiled
    program holds no intermediate (``_resize._lowered``); the antialiased bicubic
    halving (8 x 8 taps) keeps its intermediate."""
    x = np.zeros((2, 4, 64, 64), np.float32)
    intermediate = 2 * 4 * 32 * 64 * 4

    def temporaries(**options):
        f = jax.jit(lambda x: jaxpad.nn.interpolate(x, size=(32, 32), **options))
        return f.lower(x).compile().memory_analysis().temp_size_in_bytes

    assert temporaries(mode="bilinear", antialias=True) < intermediate
    assert temporaries(mode="area") < intermediate
    assert temporaries(mode="bicubic", antialias=True) >= intermediate


def test_the_last_pass_along_the_minor_axis_writes_the_output_once():
    """The last pass's pieces along the minor axis are placed by a select, not
    concatenated: XLA:CPU left that concatenation unfused at this size, so the pass's
    interior was written out and copied into the output (a third temporary beside the
    intermediate; the antialiased bicubic halving of (8, 64, 256, 256) 51-52 -> 42 ms)."""
    x = jax.ShapeDtypeStruct((1, 8, 256, 256), np.float32)
    f = jax.jit(
        lambda x: jaxpad.nn.interpolate(x, scale_factor=0.5, mode="bicubic", antialias=True)
    )
    temp = f.lower(x).compile().memory_analysis().temp_size_in_bytes
    intermediate = 8 * 128 * 256 * 4
    assert temp <= intermediate, temp / intermediate


def test_the_transpose_is_a_resize_of_the_transposed_tables():
    """The image's transpose is one ``jaxpad_resize`` (lowered as a forward is, its
    shrinking passes fused) where the constant is read nowhere; where it is, the passes'
    transposes."""
    x = np.zeros((1, 2, 8, 8), np.float32)

    def primitives(fn):
        out = jax.eval_shape(fn, x)
        ct = np.ones(out.shape, np.float32)
        eqns = jax.make_jaxpr(jax.linear_transpose(fn, x))(ct).eqns
        return {e.primitive.name for e in eqns}

    bilinear = primitives(lambda x: jaxpad.nn.interpolate(x, scale_factor=2, mode="bilinear"))
    assert "jaxpad_resize" in bilinear and "jaxpad_interpolation_pass" not in bilinear
    crop = primitives(
        lambda x: jaxpad.image.resize(
            x,
            (1, 2, 8, 8),
            "linear",
            coordinate_transformation_mode="tf_crop_and_resize",
            roi=(0, 0, -0.5, -0.5, 1, 1, 1.5, 1.5),
            antialias=False,
        )
    )
    assert "jaxpad_interpolation_pass" in crop


def test_derivatives_order_two_and_transformations(full_run):
    """``check_grads`` to order 2 (forward and reverse) in every method and a boundary
    mode; eager, ``jit`` and ``vmap`` agree."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 5, 4))
    cases = [
        ("nearest", {}),
        ("linear", {}),
        ("cubic", {"mode": "wrap"}),
        ("lanczos3", {}),
        ("area", {}),
        ("cubic-pytorch", {"antialias": False}),
    ]
    with enable_x64(True):
        for k, (method, kw) in enumerate(cases):
            if k % (2 if full_run else 4):
                continue
            f = lambda v, m=method, kw=kw: jaxpad.image.resize(v, (2, 9, 3), m, **kw)  # noqa: E731
            check_grads(f, (x,), order=2, modes=("fwd", "rev"))
            eager = f(x)
            np.testing.assert_allclose(jax.jit(f)(x), eager, atol=1e-13)
            np.testing.assert_allclose(jax.vmap(f)(np.stack([x, 2 * x]))[1], 2 * eager, atol=1e-12)


def test_narrow_dtypes():
    """bfloat16 and float16 keep their dtype, close to the float32 result."""
    x = np.random.default_rng(5).standard_normal((6, 5)).astype(np.float32)
    want = jaxpad.image.resize(x, (9, 3), "cubic")
    for dt, tol in ((jnp.bfloat16, 0.08), (jnp.float16, 0.01)):
        got = jaxpad.image.resize(jnp.asarray(x, dt), (9, 3), "cubic")
        assert got.dtype == dt
        np.testing.assert_allclose(np.asarray(got, np.float32), want, atol=tol)
