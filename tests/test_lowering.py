"""Tests for jaxpad/_lowering.py: the planner's choices, each form's values, and a few
compiled CPU programs (only where the backend is CPU)."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import export

import jaxpad
from jaxpad import _lowering
from jaxpad._lowering import Target, plan_dynamic_fold, plan_fold, plan_pad
from tests.cases import NON_CONSTANT
from tests.oracles import numpy_pad
from tests.rotation import rotation

CPU = Target("cpu")
OTHER = Target(None)
# A platform whose measurements chose the gather forward (none has yet).
GATHER = Target(None, gather_forward=True)
PARTITIONED = Target("cpu", partitioned=True)

cpu_only = pytest.mark.skipif(
    jax.default_backend() != "cpu", reason="asserts on a compiled XLA:CPU program"
)


def _vjp_pair(shape, begin, end, mode, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(np.float32)
    out_shape = tuple(n + b + e for n, b, e in zip(shape, begin, end))
    ct = rng.standard_normal(out_shape).astype(np.float32)
    ours = jax.jit(jax.vjp(lambda x: jaxpad.pad(x, begin, end, mode), x)[1])
    theirs = jax.vjp(lambda x: jnp.pad(x, list(zip(begin, end)), mode), x)[1]
    return ours, theirs, ct


# The forward planner ----------------------------------------------------------------


def test_constant_mode_is_lax_pad_everywhere():
    for target in (CPU, OTHER, GATHER, PARTITIONED):
        assert plan_pad((4, 5), (6, 9), (1, 2), "constant", target).form == "lax_pad"


@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_cpu_pads_are_jnp_pads_concatenates(mode):
    # XLA:CPU: jnp.pad's own graph for every pad, thin or wide, one axis or several,
    # crops and periods: XLA fuses it into an elementwise consumer or a reduction,
    # where a pad written out first measured 1.2-3.7x jnp.pad. No gather on CPU.
    cases = [
        ((512, 512), (514, 514), (1, 1)),  # a stencil's halo
        ((1024, 1024), (1030, 1030), (3, 3)),
        ((1048496,), (1048500,), (1,)),
        ((16, 1000), (16, 1020), (0, 10)),
        ((64, 64), (128, 128), (32, 32)),  # half the axis
        ((4, 6, 512), (40, 42, 512), (18, 18, 0)),  # several periods
        ((1024, 1024), (1024, 1022), (1, 1)),  # a crop
    ]
    for shape, out_shape, begin in cases:
        plan = plan_pad(shape, out_shape, begin, mode, CPU)
        assert plan.form == "concatenate" and not plan.partitioned, (shape, plan.form)
    b, _ = export.symbolic_shape("b, h")
    assert plan_pad((b, 512, 512), (b, 514, 514), (0, 1, 1), mode, CPU).form == "concatenate"


@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_long_signals_are_padded_as_one_row(mode):
    # A long 1-D pad is jnp.pad's concatenate of a (1, n) array on XLA:CPU: XLA's
    # concatenate of a rank-1 array ran 2-60x the constant pad, of one row 0.4-1.4x.
    n = 1 << 16
    lifted = plan_pad((n,), (n + 8,), (3,), mode, CPU)
    assert lifted.form == "concatenate" and lifted.lifted
    assert [axis for axis, _ in lifted.pieces] == [1]
    # Shorter signals, crops, pads spanning periods, other platforms: the rank-1 plan
    for shape, out_shape, begin, target in [
        ((n - 1,), (n + 7,), (3,), CPU),
        ((n,), (n + 2,), (-3,), CPU),
        ((n,), (4 * n,), (n + 5,), CPU),
        ((n,), (2 * n,), (n // 2,), CPU),
        ((n,), (n + n // 8 + 1,), (0,), CPU),
        ((n,), (n + 8,), (3,), OTHER),
        ((4, n), (4, n + 8), (0, 3), CPU),
    ]:
        plan = plan_pad(shape, out_shape, begin, mode, target)
        assert not plan.lifted, (shape, out_shape, begin, target)
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    np.testing.assert_array_equal(
        _lowering.build_pad(lifted, jnp.asarray(x), (n + 8,), (3,), mode),
        numpy_pad(x, (3,), (5,), mode),
    )


def _compiled_ops(f, x):
    """(result shape, opcode) of each instruction of a compiled CPU program's entry."""
    entry = jax.jit(f).lower(x).compile().as_text().split("ENTRY")[1]
    pattern = r"= (\S+) ([\w-]+)\("
    return [match for line in entry.splitlines() for match in re.findall(pattern, line)[:1]]


@cpu_only
@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_a_long_signal_compiles_to_one_row_s_concatenate(mode):
    n = 1 << 16
    x = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    ops = _compiled_ops(lambda x: jaxpad.pad(x, [3], [5], mode), x)
    # one row's concatenate (XLA 0.6.2 wraps it in a call)
    assert any(shape == "f32[1,65544]{1,0}" and op in ("concatenate", "call") for shape, op in ops)
    got = jax.jit(lambda x: jnp.tanh(jaxpad.pad(x, [3], [5], mode)))(x)
    np.testing.assert_allclose(got, np.tanh(numpy_pad(x, (3,), (5,), mode)), rtol=1e-6)
    # nothing padded: the signal itself
    np.testing.assert_array_equal(jax.jit(lambda x: jaxpad.pad(x, [0], [0], mode))(x), x)


@cpu_only
@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize("consumer", ["alone", "tanh", "mean", "stencil"])
def test_cpu_pad_compiles_to_jnp_pads_program(mode, consumer):
    # Whatever reads the pad, XLA builds the same program as for jnp.pad: an
    # elementwise consumer or a reduction reads the concatenates where they fuse
    # (the in-place form wrote the field out first, 1.2-3.7x jnp.pad there).
    shape, begin, end = (64, 200), (2, 1), (1, 3)
    consume = {
        "alone": lambda p: p,
        "tanh": jnp.tanh,
        "mean": lambda p: p.mean(axis=1),
        "stencil": lambda p: p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:],
    }[consumer]
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    ours = _compiled_ops(lambda x: consume(jaxpad.pad(x, begin, end, mode)), x)
    theirs = _compiled_ops(lambda x: consume(jnp.pad(x, list(zip(begin, end)), mode)), x)
    assert sorted(ours) == sorted(theirs)
    got = jax.jit(lambda x: consume(jaxpad.pad(x, begin, end, mode)))(x)
    np.testing.assert_allclose(got, consume(numpy_pad(x, begin, end, mode)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_concatenate_crops_first_to_what_its_pieces_read(mode):
    # A crop of a later axis is taken before the first axis's pass, not after it
    # (sweep #37 was 1.3-2.0x jnp.pad of the cropped array).
    plan = plan_pad((6, 75922), (7, 61090), (-1, -14834), mode, CPU)
    # wrap's end bands read the first rows and columns, which the crop removed
    assert plan.crop == (() if mode == "wrap" else ((1, 6), (14834, 75922)))
    assert plan_pad((6, 50), (9, 52), (1, 1), mode, CPU).crop == ()
    # A pad reaching back into the cropped part keeps what it reads: 3 of 10 left,
    # then 9 more (edge reads x[9]; reflect x[8..0]; symmetric x[9..1]; wrap x[0..8]).
    reaching = plan_pad((10,), (12,), (-7,), mode, CPU)
    assert reaching.crop == {"edge": ((7, 10),), "symmetric": ((1, 10),)}.get(mode, ())
    x = np.arange(10, dtype=np.float32)
    np.testing.assert_array_equal(
        _lowering.build_pad(reaching, jnp.asarray(x), (12,), (-7,), mode),
        numpy_pad(x, (-7,), (9,), mode),
    )


@cpu_only
@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize(
    "shape,begin,end",
    [((6, 900), (-1, -148), (2, 2)), ((9, 70, 30), (2, 0, -9), (1, 0, 2))],
)
def test_cpu_crop_then_pad_compiles_to_jnp_pad_of_the_crop(mode, shape, begin, end):
    if mode == "wrap":
        pytest.skip("wrap's bands read what the crop removed: not jnp.pad of the crop")
    crop = tuple(slice(max(-b, 0), n - max(-e, 0)) for n, b, e in zip(shape, begin, end))
    positive = [(max(b, 0), max(e, 0)) for b, e in zip(begin, end)]
    x = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
    ours = _compiled_ops(lambda x: jaxpad.pad(x, begin, end, mode), x)
    theirs = _compiled_ops(lambda x: jnp.pad(x[crop], positive, mode), x)
    assert sorted(ours) == sorted(theirs)
    got = jax.jit(lambda x: jaxpad.pad(x, begin, end, mode))(x)
    np.testing.assert_array_equal(got, numpy_pad(x, begin, end, mode))


@cpu_only
def test_cpu_forward_of_every_sweep_configuration_is_jnp_pads_program(full_run):
    # The benchmark sweep's random configurations (benchmarks/sweep.py): the
    # forward's ratio to jnp.pad there is that of one program to itself, the noise
    # its control column shows (a long signal's: jnp.pad of one row). Excluded:
    # pads of several periods, tiled (0.5-0.9x jnp.pad's repeated concatenates), and
    # wrap's crops, whose bands read what the crop removed (jnp.pad of the crop is
    # another result).
    # Each configuration compiles two programs, so a run checks a share that rotates
    # with the seed (tests/rotation.py), every configuration across commits: --all
    # half of them, in runs of 4 (the sweep's cycle of modes) whose kinds (a cycle of
    # 5 runs) all come in either half; the default run every third, 3 being prime to
    # the cycle of 20 (mode, kind) pairs. Each run meets every mode with every kind.
    from benchmarks.cases import SWEEP_COUNT, SWEEP_SEED, sweep_configs

    configs = list(enumerate(sweep_configs(SWEEP_COUNT, SWEEP_SEED)))
    if full_run:
        half = rotation(2, "sweep configurations")
        configs = [(i, config) for i, config in configs if (i // 4) % 2 == half]
    else:
        configs = configs[rotation(3, "sweep configurations") :: 3]
    checked = set()
    for _, config in configs:
        begin, end, mode = config.begin, config.end, config.mode
        if config.kind == "periods" or (mode == "wrap" and config.kind == "negative"):
            continue
        crop = tuple(slice(max(-b, 0), n - max(-e, 0)) for n, b, e in zip(config.shape, begin, end))
        positive = [(max(b, 0), max(e, 0)) for b, e in zip(begin, end)]
        x = jax.ShapeDtypeStruct(config.shape, jnp.float32)
        ours = _compiled_ops(lambda x: jaxpad.pad(x, begin, end, mode), x)
        out_shape = tuple(n + b + e for n, b, e in zip(config.shape, begin, end))
        if plan_pad(config.shape, out_shape, begin, mode, CPU).lifted:
            # a long signal: jnp.pad's program for the (1, n) array
            theirs = _compiled_ops(
                lambda x: jnp.pad(x[None], [(0, 0), *positive], mode).reshape(-1), x
            )
        else:
            theirs = _compiled_ops(lambda x: jnp.pad(x[crop], positive, mode), x)
        assert sorted(ours) == sorted(theirs), config.describe()
        checked.add((mode, config.kind))
    kinds = {config.kind for _, config in configs} - {"periods"}
    modes = {config.mode for _, config in configs}
    assert checked == {(m, k) for m in modes for k in kinds} - {("wrap", "negative")}
    assert len(modes) == 4 and len(kinds) == 4


@cpu_only
@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_several_wide_pads_in_one_program_share_no_index_table(mode):
    # Three pads with equal tables in one program: the gather's shared index table
    # was materialised and read through a transposing copy (23x one pad's time).
    # Now each pad is its own concatenates: no gather, no copy in the program.
    def f(a, b, c):
        return [jaxpad.pad(v, (0, 0, 20, 20), (0, 0, 20, 20), mode) for v in (a, b, c)]

    args = [jnp.ones((2, 3, 16, 16)) + i for i in range(3)]
    entry = jax.jit(f).lower(*args).compile().as_text().split("ENTRY")[1]
    assert " gather(" not in entry and " copy(" not in entry and "wrapped_copy" not in entry
    for got, v in zip(jax.jit(f)(*args), args):
        np.testing.assert_array_equal(
            got, numpy_pad(np.asarray(v), (0, 0, 20, 20), (0, 0, 20, 20), mode)
        )


@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize(
    "shape,begin,end",
    [
        ((6, 7, 5), (1, -2, 2), (2, 1, -1)),
        ((9, 4), (-1, 3), (2, -1)),
        ((3, 8, 2), (0, 1, 1), (0, 0, 1)),
        ((3, 5), (13, 2), (9, 11)),  # several periods
        ((4, 3), (-1, 8), (7, -2)),
    ],
)
def test_concatenate_equals_the_gather(mode, shape, begin, end):
    # The two forward forms built directly, on several padded axes, with crops and
    # pads spanning periods: the same values as numpy.pad.
    x = jnp.asarray(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    out_shape = tuple(n + b + e for n, b, e in zip(shape, begin, end))
    gather = plan_pad(shape, out_shape, begin, mode, GATHER)
    assert gather.form == "gather"
    concat = _lowering.PadPlan("concatenate", gather.pieces)
    expected = _lowering.build_pad(gather, x, out_shape, begin, mode)
    np.testing.assert_array_equal(expected, numpy_pad(np.asarray(x), begin, end, mode))
    np.testing.assert_array_equal(_lowering.build_pad(concat, x, out_shape, begin, mode), expected)


@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_unmeasured_platforms_get_jnp_pads_concatenate(mode):
    # Parity by construction: a platform no measurement has tuned runs jnp.pad's
    # program, cropped to what it reads as on CPU.
    for shape, out_shape, begin in [((4, 70_000), (6, 70_004), (1, 2)), ((9, 4), (8, 6), (-1, 1))]:
        other = plan_pad(shape, out_shape, begin, mode, OTHER)
        assert other.form == "concatenate"
        assert other == plan_pad(shape, out_shape, begin, mode, CPU)


@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_a_target_may_ask_for_one_gather(mode):
    plan = plan_pad((4, 70_000), (6, 70_004), (1, 2), mode, GATHER)
    assert plan.form == "gather" and plan.in_graph == (1,)
    # Symbolic, long and partitioned axes still concatenate.
    partitioned = Target(None, partitioned=True, gather_forward=True)
    assert plan_pad((4, 8), (6, 8), (1, 0), mode, partitioned).form == "concatenate"


@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_partitioned_programs_concatenate(mode):
    plan = plan_pad((4, 8), (6, 8), (1, 0), mode, PARTITIONED)
    assert plan.form == "concatenate" and plan.partitioned
    # Pads spanning periods tile one period: still slices and concatenates.
    assert plan_pad((4, 8), (30, 8), (13, 0), mode, PARTITIONED).form == "concatenate"


@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize("begin,end", [(1024, 1024), (-3, 70_000), (70_001, 2)])
def test_one_long_axis_pads_without_a_gather(mode, begin, end):
    # Past 65536 entries a gather would build its index table in-graph (2.4-2.9x
    # lax.pad): one concatenate, which tiles a period for wide pads.
    n = 70_000
    plan = plan_pad((n,), (n + begin + end,), (begin,), mode, CPU)
    assert plan.form == "concatenate"
    x = np.arange(n, dtype=np.float32) % 997
    f = jax.jit(lambda x: jaxpad.pad(x, [begin], [end], mode))
    np.testing.assert_array_equal(f(x), numpy_pad(x, [begin], [end], mode))


# The fold planner --------------------------------------------------------------------


@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize("channels", [32, 3])
def test_fold_of_leading_axes_is_one_fused_sum_or_one_concatenate(mode, channels):
    # Copies and mirrors over long rows: one fused sum; edge, or short rows (with 3
    # channels the fused sum measured 2x slower): one concatenate of boxes. (Inputs
    # past _MIN_BOXES_TOGETHER elements: smaller ones fold one axis at a time.)
    shape, begin, end = (128, 9, 7, channels), [0, 3, 1, 0], [0, 2, 2, 0]
    out_shape = tuple(n + b + e for n, b, e in zip(shape, begin, end))
    plan = plan_fold(shape, out_shape, begin, end, mode, np.float32, CPU)
    fused_sum = mode != "edge" and channels >= _lowering._plans._MIN_FUSED_ROW
    assert plan.form == ("one_sum" if fused_sum else "boxes")
    assert plan.groups == ((1, 2),)
    ours, theirs, ct = _vjp_pair(shape, begin, end, mode)
    np.testing.assert_allclose(ours(ct)[0], theirs(ct)[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize("last", [40, _lowering._plans._MIN_UPDATED_ROW])
def test_fold_of_a_long_last_axis_updates_bands_in_place(mode, last):
    # Along a long last axis a concatenate chooses its operand per element (2-4x
    # slower than the copy); the fold is a slice plus in-place band updates instead.
    shape, begin, end = (5, last), [2, 3], [2, 2]
    plan = plan_fold(shape, (9, last + 5), begin, end, mode, np.float32, CPU)
    assert plan.form == ("bands" if last >= _lowering._plans._MIN_UPDATED_ROW else "boxes")
    # Every other platform: the concatenate of boxes.
    assert plan_fold(shape, (9, last + 5), begin, end, mode, np.float32, OTHER).form == "boxes"
    ours, theirs, ct = _vjp_pair(shape, begin, end, mode)
    np.testing.assert_allclose(ours(ct)[0], theirs(ct)[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("shape,pad", [((90, 18, 390), 195), ((20, 5000), 2500), ((7, 300), 100)])
def test_fold_of_wide_bands_on_the_last_axis_is_the_fused_sum(mode, shape, pad):
    # Bands of at least 2/5 of the last axis's cotangent, no reduction: band updates
    # measured 0.9-1.7x jnp.pad's VJP, the fused sum 0.5-1.1x.
    begin, end = [0] * (len(shape) - 1) + [pad], [0] * (len(shape) - 1) + [pad]
    out_shape = shape[:-1] + (shape[-1] + 2 * pad,)
    assert plan_fold(shape, out_shape, begin, end, mode, np.float32, CPU).form == "one_sum"
    # Bands of 30% keep the updates in place.
    narrower = [0] * (len(shape) - 1) + [pad * 3 // 7]
    narrower_shape = shape[:-1] + (shape[-1] + 2 * narrower[-1],)
    assert plan_fold(shape, narrower_shape, narrower, narrower, mode, np.float32, CPU).form == (
        "bands"
    )
    small = shape[:-2] + (3, shape[-1])
    ours, theirs, ct = _vjp_pair(small, begin, end, mode)
    np.testing.assert_allclose(ours(ct)[0], theirs(ct)[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize("shape,axis", [((256, 256), 1), ((256, 256), 0), ((12, 300, 3), 2)])
def test_fold_of_one_axis_is_the_fused_sum(mode, shape, axis):
    # One padded axis, no reduction: jnp.pad's own transpose, the pieces padded into
    # place and summed (band updates measured 1.5x jnp.pad in the heat-equation scan,
    # boxes along a short last axis 1.5-1.9x).
    begin, end = [0] * len(shape), [0] * len(shape)
    begin[axis], end[axis] = 1, 2
    out_shape = tuple(n + b + e for n, b, e in zip(shape, begin, end))
    plan = plan_fold(shape, out_shape, begin, end, mode, np.float32, CPU)
    assert plan.form == "one_sum" and plan.groups == ((axis,),)
    ours, theirs, ct = _vjp_pair(shape, begin, end, mode)
    np.testing.assert_allclose(ours(ct)[0], theirs(ct)[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize(
    "shape,axis,pad", [((16, 1000, 8, 16), 2, 2), ((4, 6669, 8, 4), 2, 4), ((64, 1000, 4, 4), 2, 1)]
)
def test_fold_of_one_short_slab_is_the_fused_sum(mode, shape, axis, pad):
    # One padded axis, not the last, that with the axes after it holds fewer than
    # 256 elements: boxes along it are runs of a few elements ((16, 1000, 8, 16)
    # reflect 2/2: boxes 1.68x jnp.pad's VJP, the fused sum 0.49x).
    begin, end = [0] * len(shape), [0] * len(shape)
    begin[axis] = end[axis] = pad
    out_shape = tuple(n + 2 * pad * (a == axis) for a, n in enumerate(shape))
    plan = plan_fold(shape, out_shape, begin, end, mode, np.float32, CPU)
    assert plan.form == "one_sum"
    # A long slab keeps the boxes.
    long_slab = plan_fold(
        (250, 1000, 4), (250, 1500, 4), (0, 250, 0), (0, 250, 0), mode, np.float32, CPU
    )
    assert long_slab.form == "boxes"
    small = tuple(min(n, 9) for n in shape)
    ours, theirs, ct = _vjp_pair(small, begin, end, mode)
    np.testing.assert_allclose(ours(ct)[0], theirs(ct)[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize("n,begin,end", [(1300605, 3, 1), (1000, 1, 0), (200, 8, 8)])
def test_fold_of_a_long_one_dimensional_signal_updates_bands(mode, n, begin, end):
    # No unpadded row for the fused sum to run along: the slice plus in-place band
    # updates (the fused sum measured 1.2-6x alone, up to 4x inside programs).
    plan = plan_fold((n,), (n + begin + end,), (begin,), (end,), mode, np.float32, CPU)
    assert plan.form == "bands"
    # A short one stays the fused sum.
    assert plan_fold((100,), (109,), (8,), (1,), mode, np.float32, CPU).form == "one_sum"
    ours, theirs, ct = _vjp_pair((min(n, 5000),), [begin], [end], mode)
    np.testing.assert_allclose(ours(ct)[0], theirs(ct)[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize(
    "shape,pad", [((2, 1 << 21), 1024), ((16, 1 << 16), 64), ((3, 4, 1 << 16), 3)]
)
def test_fold_of_a_batch_of_long_signals_updates_bands(mode, shape, pad):
    # The last axis padded alone by thin bands, 2**16 samples or more: no unpadded row
    # for the fused sum either (it read 0.54-1.26x jnp.pad's VJP, the bands 0.02-0.7x,
    # and 0.5-1.04x the fused sum inside programs).
    begin = end = (0,) * (len(shape) - 1) + (pad,)
    out_shape = shape[:-1] + (shape[-1] + 2 * pad,)
    assert plan_fold(shape, out_shape, begin, end, mode, np.float32, CPU).form == "bands"
    # Shorter rows stay the fused sum (but edge runs, reductions), and so do wide bands
    short = plan_fold((16, 4096), (16, 4098), (0, 1), (0, 1), mode, np.float32, CPU)
    assert short.form == "one_sum"
    n = shape[-1]
    wide = plan_fold((4, n), (4, 2 * n), (0, n // 2), (0, n // 2), mode, np.float32, CPU)
    assert wide.form == ("bands" if mode == "edge" else "one_sum")
    ours, theirs, ct = _vjp_pair((2, 1 << 16), (0, pad), (0, pad), mode)
    np.testing.assert_allclose(ours(ct)[0], theirs(ct)[0], rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("mode", NON_CONSTANT)
@pytest.mark.parametrize(
    "n,begin,end", [(2654397, 1327198, 1327198), (1000, 0, 700), (300, 100, 100)]
)
def test_fold_of_wide_bands_of_a_one_dimensional_signal_is_the_boxes(mode, n, begin, end):
    # Bands of at least 40% of the cotangent: one multi-threaded concatenate of
    # boxes (pads of half the signal: bands 0.54-1.19x jnp.pad's VJP, boxes
    # 0.39-0.80x); 30% stays the bands.
    plan = plan_fold((n,), (n + begin + end,), (begin,), (end,), mode, np.float32, CPU)
    assert plan.form == "boxes"
    thinner = plan_fold((1000,), (1400,), (200,), (200,), mode, np.float32, CPU)
    assert thinner.form == "bands"
    ours, theirs, ct = _vjp_pair((min(n, 5000),), [min(begin, 2000)], [min(end, 2000)], mode)
    np.testing.assert_allclose(ours(ct)[0], theirs(ct)[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_small_fold_of_boxes_goes_one_axis_at_a_time(mode):
    # Under _MIN_BOXES_TOGETHER elements the boxes of several axes fold one axis at a
    # time, the last first (a stencil's gradient on a small field: 0.9-1.1x jnp.pad,
    # together 1.2-2.1x); larger inputs fold them together (2x faster alone).
    plan = plan_fold((64, 64), (66, 66), (1, 1), (1, 1), mode, np.float32, CPU)
    assert plan.form == "boxes" and plan.groups == ((1,), (0,))
    plan = plan_fold((329, 341, 4), (329, 347, 6), (0, 3, 1), (0, 3, 1), mode, np.float32, CPU)
    assert plan.form == "boxes" and plan.groups == ((1, 2),)
    # Other platforms, and a symbolic batch, keep the groups.
    assert plan_fold((64, 64), (66, 66), (1, 1), (1, 1), mode, np.float32, OTHER).groups == (
        (0, 1),
    )
    b, _ = export.symbolic_shape("b, h")
    symbolic = plan_fold((b, 64, 64), (b, 66, 66), (0, 1, 1), (0, 1, 1), mode, np.float32, CPU)
    assert symbolic.groups == ((1, 2),)
    ours, theirs, ct = _vjp_pair((64, 64), [1, 1], [1, 1], mode)
    np.testing.assert_allclose(ours(ct)[0], theirs(ct)[0], rtol=1e-5, atol=1e-5)


def test_fold_of_one_axis_with_a_long_edge_run_is_not_the_fused_sum():
    # An edge run past _MAX_UNROLLED_SUM is a reduction: the fused sum is not taken.
    plan = plan_fold((4, 300), (4, 340), (0, 20), (0, 20), "edge", np.float32, CPU)
    assert plan.form == "bands"


@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_fold_of_one_wide_pad_of_a_long_last_axis_updates_bands(mode):
    # Bands past a sixteenth of the cotangent on a long last axis: the slice plus
    # in-place band updates (the fused sum measured 1.1-1.4x jnp.pad there).
    plan = plan_fold((16, 1000), (16, 1200), (0, 0), (0, 200), mode, np.float32, CPU)
    assert plan.form == "bands"


@pytest.mark.parametrize("mode", ["edge", "wrap"])
@pytest.mark.parametrize(
    "shape,begin,end,form",
    [
        ((7, 3, 10), (3, 0, 20), (3, 0, 100), "boxes"),
        ((5, 2, 200), (2, 0, 30), (2, 0, 1900), "bands"),
    ],
)
def test_fold_with_reductions_on_several_axes_goes_axis_by_axis(mode, shape, begin, end, form):
    # Edge runs (or periods) longer than _MAX_UNROLLED_SUM on one of several axes:
    # one axis per group, the last first, as jnp.pad's transpose (folded together,
    # (23, 4, 6955) edge by half the last axis measured 2.2x jnp.pad's VJP).
    out_shape = tuple(n + b + e for n, b, e in zip(shape, begin, end))
    plan = plan_fold(shape, out_shape, begin, end, mode, np.float32, CPU)
    assert plan.groups == ((2,), (0,)) and plan.form == form
    ours, theirs, ct = _vjp_pair(shape, begin, end, mode)
    np.testing.assert_allclose(ours(ct)[0], theirs(ct)[0], rtol=1e-5, atol=1e-4)


def test_fold_with_many_boxes_folds_a_group_of_axes_at_a_time():
    # Reflect by 2 on four axes of 6 cuts each into 5 segments: 625 boxes in one
    # concatenate; the planner makes groups of at most _MAX_FOLD_BOXES boxes.
    shape, pads = (6, 6, 6, 6, 4), [2, 2, 2, 2, 0]
    out_shape = (10, 10, 10, 10, 4)
    plan = plan_fold(shape, out_shape, pads, pads, "reflect", np.float32, CPU)
    assert plan.form == "boxes"
    assert sorted(a for group in plan.groups for a in group) == [0, 1, 2, 3]
    assert all(
        _lowering._plans._box_count(plan.pieces_of(group), shape)
        <= _lowering._plans._MAX_FOLD_BOXES
        for group in plan.groups
    )
    assert len(plan.groups) > 1
    ours, theirs, ct = _vjp_pair(shape, pads, pads, "reflect")
    np.testing.assert_allclose(ours(ct)[0], theirs(ct)[0], rtol=1e-5, atol=1e-5)


def test_partitioned_fold_is_one_axis_at_a_time():
    plan = plan_fold(
        (4, 8, 8), (4, 10, 12), (0, 1, 2), (0, 1, 2), "reflect", np.float32, PARTITIONED
    )
    assert plan.form == "one_sum" and plan.groups == ((1,), (2,))


@pytest.mark.parametrize("dtype", [jnp.float16, jnp.bfloat16])
def test_half_float_folds_accumulate_in_float32(dtype):
    plan = plan_fold((64,), (96,), (16,), (16,), "edge", dtype, CPU)
    assert plan.accumulate == np.float32
    assert plan_fold((64,), (96,), (16,), (16,), "edge", np.float32, CPU).accumulate is None


def test_float16_edge_gradient_is_as_accurate_as_jnp_pad():
    # 200 cotangents of 0.1 summed onto each edge element: float16 sums that round at
    # every step drift; XLA's reductions (jnp.pad's VJP) accumulate in float32.
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 16)).astype(np.float16)
    ct = (0.1 + 0.01 * rng.standard_normal((8, 416))).astype(np.float16)
    exact = jax.vjp(lambda x: jnp.pad(x, ((0, 0), (200, 200)), "edge"), x.astype(np.float64))[1](
        ct.astype(np.float64)
    )[0]
    ours = jax.vjp(lambda x: jaxpad.pad(x, [0, 200], [0, 200], "edge"), x)[1](ct)[0]
    theirs = jax.vjp(lambda x: jnp.pad(x, ((0, 0), (200, 200)), "edge"), x)[1](ct)[0]
    assert ours.dtype == np.float16
    our_error = np.abs(np.asarray(ours, np.float64) - exact).max()
    their_error = np.abs(np.asarray(theirs, np.float64) - exact).max()
    assert our_error <= their_error * 1.01 + 1e-6


# The dynamic fold planner ------------------------------------------------------------


def test_dynamic_fold_plans_short_axes_first_and_guards_them():
    # (64, 64, 3) per image, all three pads traced: the channel axis (3 x 3 pairs) is
    # dense and skipped at run time when its pads are 0; the spatial axes are read by
    # gathers, with a barrier between them (off CPU; on CPU they fold by windows,
    # tests/test_dynamic_pad.py).
    plan = plan_dynamic_fold(
        (8, 64, 64, 3), (8, 64, 64, 3), (None, None, None), 1, "reflect", np.float32, OTHER
    )
    assert plan.static is None
    assert [(a.axis, a.form, a.guarded, a.barrier) for a in plan.axes] == [
        (3, "dense", True, False),
        (1, "candidates", False, True),
        (2, "candidates", False, False),
    ]


@pytest.mark.parametrize(
    "mode,form", [("wrap", "periods"), ("edge", "edge"), ("constant", "constant")]
)
def test_dynamic_fold_forms_of_long_outputs(mode, form):
    plan = plan_dynamic_fold((20,), (100,), (None,), 0, mode, np.float32, OTHER)
    assert [a.form for a in plan.axes] == [form]


def test_dynamic_fold_static_axes_use_the_static_planner():
    plan = plan_dynamic_fold((4, 64, 40), (4, 68, 40), (2, None), 1, "symmetric", np.float32, CPU)
    assert plan.static.form == "one_sum" and plan.static.groups == ((1,),)
    assert [a.axis for a in plan.axes] == [2]


def test_traced_periods_fold_equals_the_static_fold():
    # The traced pad's "periods" form and the static period piece share the fold of
    # one period; both must agree with jnp.pad's VJP.
    x = np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32)
    ct = np.random.default_rng(1).standard_normal((3, 40)).astype(np.float32)
    for mode in NON_CONSTANT:
        theirs = jax.vjp(lambda x: jnp.pad(x, ((0, 0), (17, 18)), mode), x)[1](ct)[0]

        def dyn(x, shift):
            return jaxpad.dynamic_pad(x, (0, shift), (3, 40), mode)

        got = jax.jit(lambda shift: jax.vjp(lambda x: dyn(x, shift), x)[1](ct)[0])(17)
        np.testing.assert_allclose(got, theirs, rtol=1e-5, atol=1e-5)


# Symbolic sizes -----------------------------------------------------------------------


@pytest.mark.parametrize("mode", NON_CONSTANT)
def test_symbolic_padded_axes_plan_slices(mode):
    _, h, w, _ = export.symbolic_shape("b, h, w, c", constraints=["h >= 8", "w >= 8"])
    plan = plan_pad((2, h, w, 3), (2, h + 4, w + 2, 3), (0, 2, 1, 0), mode, CPU)
    assert plan.form == "concatenate"
    plan = plan_fold(
        (2, h, w, 3), (2, h + 4, w + 2, 3), (0, 2, 1, 0), (0, 2, 1, 0), mode, np.float32, CPU
    )
    assert plan.form == "one_sum" and plan.groups == ((1,), (2,))


def test_symbolic_axis_too_short_to_decide_names_the_constraint():
    _, h, _, _ = export.symbolic_shape("b, h, w, c", constraints=["h >= 8"])
    with pytest.raises(ValueError, match=r"jaxpad.pad: axis 1 .* 'h >= 11'"):
        plan_pad((2, h, 8, 3), (2, h + 20, 8, 3), (0, 10, 0, 0), "reflect", CPU)


# Compiled CPU programs ------------------------------------------------------------------


@cpu_only
def test_cpu_fold_of_leading_axes_compiles_to_one_kernel():
    ours, _, ct = _vjp_pair((2, 9, 7, 32), [0, 3, 1, 0], [0, 2, 2, 0], "reflect")
    entry = ours.lower(ct).compile().as_text().split("ENTRY")[1]
    assert entry.count(" fusion(") == 1 and "dynamic-update-slice" not in entry


# A wrap pad that crops the start of an axis of short rows and pads its end: XLA:CPU
# ran the concatenate of the two slices 29-75x slower than the pad then the crop on
# one axis, and up to 1.4x slower with rows of 2-24 elements.
WRAP_CROP_AFTER = [
    ((400000,), (-6859,), (3,)),
    ((66592, 6), (-6859, 0), (3, 0)),  # rows of 6
    ((5, 32), (-2, 0), (1, 0)),  # rows of 32, the longest
    ((2, 6, 4, 8), (0, -3, 0, 0), (0, 4, 0, 0)),  # rows of 32 after a leading axis
    ((40, 1), (-4, 0), (20, 0)),
    ((3, 9), (0, -2), (1, 3)),  # a pad on another axis, the crop on the last
    ((7,), (-2,), (20,)),  # the end pad spans periods
]


@pytest.mark.parametrize("shape,begin,end", WRAP_CROP_AFTER)
def test_wrap_crop_at_the_start_of_a_contiguous_axis_pads_then_crops(shape, begin, end):
    out_shape = tuple(n + b + e for n, b, e in zip(shape, begin, end))
    plan = plan_pad(shape, out_shape, begin, "wrap")
    assert plan.form == "concatenate" and plan.crop_after and not plan.crop
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    expected = numpy_pad(x, begin, end, "wrap")
    f = jax.jit(lambda v: jaxpad.pad(v, begin, end, "wrap"))
    np.testing.assert_array_equal(f(x), expected)
    np.testing.assert_array_equal(jaxpad.pad(x, begin, end, "wrap"), expected)
    batched = jax.vmap(lambda v: jaxpad.pad(v, begin, end, "wrap"))(np.stack([x, -x]))
    np.testing.assert_array_equal(batched, np.stack([expected, -expected]))


@pytest.mark.parametrize(
    "shape,begin,end,mode,target",
    [
        ((9583, 64), (-2169, 0), (15, 0), "wrap", Target()),  # rows of 64
        ((5, 33), (-2, 0), (1, 0), "wrap", Target()),  # rows of 33
        ((400000,), (3,), (-6859,), "wrap", Target()),  # the crop at the end
        ((400000,), (-6859,), (3,), "reflect", Target()),  # reads the cropped array
        ((9, 40), (-1, -6), (0, 3), "wrap", Target()),  # two axes cropped
        ((400000,), (-6859,), (3,), "wrap", Target(platform=None)),  # unmeasured
    ],
)
def test_other_crops_keep_the_concatenate_of_what_they_read(shape, begin, end, mode, target):
    out_shape = tuple(n + b + e for n, b, e in zip(shape, begin, end))
    assert not plan_pad(shape, out_shape, begin, mode, target).crop_after


def test_wrap_crop_after_with_a_symbolic_row_keeps_the_concatenate():
    # jax.export: a symbolic row is not known to be short, and planning must not ask.
    (n,) = jax.export.symbolic_shape("n")
    assert not plan_pad((40, n), (39, n), (-3, 0), "wrap").crop_after
    exported = jax.export.export(
        jax.jit(lambda v: jaxpad.pad(v, (-3, 0), (2, 0), "wrap")), platforms=["cpu"]
    )(jax.ShapeDtypeStruct((40, n), jnp.float32))
    x = np.random.default_rng(5).standard_normal((40, 7)).astype(np.float32)
    np.testing.assert_array_equal(exported.call(x), numpy_pad(x, (-3, 0), (2, 0), "wrap"))


@cpu_only
def test_wrap_crop_after_compiles_to_a_slice_of_the_concatenate():
    entry = (
        jax.jit(lambda v: jaxpad.pad(v, (-6859,), (3,), "wrap"))
        .lower(jax.ShapeDtypeStruct((400000,), jnp.float32))
        .compile()
        .as_text()
        .split("ENTRY")[1]
    )
    assert "concatenate_slice_fusion" in entry and "slice_concatenate_fusion" not in entry
