"""The test run's own configuration (tests/conftest.py): what the default run changes."""

from __future__ import annotations

import math
import os
import zlib
from types import SimpleNamespace

import pytest

from tests import conftest, costs


# Marked: the default run checks the test runs' flags, CI's run of the tests marked
# xla_defaults (.ci/run) that --xla-defaults leaves the environment's.
@pytest.mark.xla_defaults
def test_runs_compile_without_llvms_optimizations_unless_xla_defaults(request):
    flags = os.environ.get("XLA_FLAGS", "")
    if request.config.getoption("xla_defaults"):
        # CI's run of the tests marked xla_defaults compiles as users do: the
        # environment's own flags.
        assert flags == conftest._GIVEN_XLA_FLAGS
    else:
        ours = {f"{name}={value}" for name, value in conftest._TEST_RUN_XLA_FLAGS.items()}
        named = {flag.partition("=")[0] for flag in conftest._GIVEN_XLA_FLAGS.split()}
        expected = {flag for flag in ours if flag.partition("=")[0] not in named}
        assert expected <= set(flags.split())


@pytest.mark.parametrize(
    "given,expected",
    [
        ("", {"--xla_backend_optimization_level=0", "--xla_llvm_disable_expensive_passes=true"}),
        (
            "--xla_backend_optimization_level=3 --xla_cpu_use_thunk_runtime=true",
            {
                "--xla_backend_optimization_level=3",
                "--xla_cpu_use_thunk_runtime=true",
                "--xla_llvm_disable_expensive_passes=true",
            },
        ),
    ],
)
def test_a_flag_the_user_set_wins(monkeypatch, given, expected):
    monkeypatch.setenv("XLA_FLAGS", given)
    assert set(conftest._add_xla_flags(conftest._TEST_RUN_XLA_FLAGS).split()) == expected


class _Case:
    """A collected case as the sampler reads it: a node id and its parameters."""

    def __init__(self, **params):
        self.nodeid = "tests/test_x.py::test_x[" + "-".join(map(str, params.values())) + "]"
        self.callspec = SimpleNamespace(params=params)

    def __repr__(self):
        return self.nodeid


def _grid():
    # 8 modes (a class) x 30 shapes (a class of more than _MAX_CLASSES values) x 2 dtypes.
    return [
        _Case(mode=mode, shape=shape, dtype=dtype)
        for mode in range(8)
        for shape in range(30)
        for dtype in ("f4", "i1")
    ]


def _values(cases, name):
    return {case.callspec.params[name] for case in cases}


def test_the_default_runs_order_is_the_crc_of_the_ids():
    cases = _grid()
    first = min(cases, key=lambda case: zlib.crc32(case.nodeid.encode()))
    assert conftest._sampled(cases, 1, cover=[])[0] is first
    assert conftest._sampled(cases, 1, cover=[], seed="")[0] is first


def test_a_sample_keeps_every_class_and_the_seed_rotates_the_rest():
    cases = _grid()
    samples = [conftest._sampled(cases, 0.25, "classes", seed) for seed in ("a", "b", "c")]
    for sample in samples:
        assert len(sample) == 120
        assert _values(sample, "mode") == set(range(8))
        assert _values(sample, "dtype") == {"f4", "i1"}
    assert len({frozenset(map(id, sample)) for sample in samples}) == 3
    # Three commits run well over one sample's cases (about 1 - 0.75**3 of the grid).
    assert len(set().union(*({id(case) for case in s} for s in samples))) > 1.5 * 120


def test_all_also_covers_every_repeated_parameter_however_many_values():
    cases = _grid()
    # "classes" leaves out shape (30 values, more than _MAX_CLASSES)...
    assert conftest._class_parameters(cases, conftest._MAX_CLASSES) == ["mode", "dtype"]
    # ...which --all's also_cover keeps: every shape in every run.
    also = conftest._class_parameters(cases, math.inf)
    assert also == ["mode", "shape", "dtype"]
    for seed in ("a", "b"):
        sample = conftest._sampled(cases, 0.05, "classes", seed, also_cover=also)
        assert _values(sample, "shape") == set(range(30))
        assert _values(sample, "mode") == set(range(8))
    # A parameter naming one case each is a list of cases, not a class: rotated.
    listed = [_Case(case=i) for i in range(10)]
    assert conftest._class_parameters(listed, math.inf) == []
    assert len(conftest._sampled(listed, 0.5, "classes", "a", also_cover=[])) == 5


def test_the_seed_comes_from_the_environment_then_git_then_a_fixed_one(monkeypatch, tmp_path):
    def config(run_all, root=tmp_path):
        return SimpleNamespace(getoption=lambda name: run_all, rootpath=root)

    monkeypatch.setenv("JAXPAD_SAMPLE_SEED", "abc")
    assert conftest._sample_seed(config(True)) == "abc"
    assert conftest._sample_seed(config(False)) == "abc"
    monkeypatch.delenv("JAXPAD_SAMPLE_SEED")
    # tmp_path is no git checkout (an unpacked sdist): the fixed seed, in both runs.
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert conftest._sample_seed(config(True)) == conftest._FALLBACK_SEED
    assert conftest._sample_seed(config(False)) == conftest._FALLBACK_SEED


def test_the_default_run_keeps_one_case_of_each_test_and_all_its_covers():
    cases = _grid()
    marker = pytest.mark.subsample(0.5, cover=["mode"]).mark
    for each in (marker, None):
        assert conftest._group_sample(cases, each, run_all=False) == (1, [], None)
        assert conftest._group_sample(cases[:1], each, run_all=False) is None
    picks = {
        conftest._sampled(cases, *conftest._group_sample(cases, None, False)[:2], seed)[0].nodeid
        for seed in "abcdef"
    }
    assert len(picks) > 1  # the seed rotates the case
    # --all: the marker's share and cover, with every repeated parameter.
    assert conftest._group_sample(cases, marker, run_all=True) == (
        0.5,
        ["mode"],
        ["mode", "shape", "dtype"],
    )
    assert conftest._group_sample(cases, None, run_all=True) == (0.2, None, None)
    assert conftest._group_sample(cases[:3], None, run_all=True) is None
    # A marker's default_keep: every case (None), or a share.
    every = pytest.mark.subsample(1, default_keep=None).mark
    assert conftest._group_sample(cases, every, run_all=False) is None
    tenth = pytest.mark.subsample(1, default_keep=0.1).mark
    assert conftest._group_sample(cases, tenth, run_all=False) == (0.1, [], None)


def test_this_run_drew_its_sample_with_the_seed_it_reports(request):
    # The controller exported the seed for the xdist workers; both drew with it.
    assert os.environ["JAXPAD_SAMPLE_SEED"] == request.config.jaxpad_sample_seed


def test_all_cover_names_what_all_keeps_of_a_port_and_rotates_the_rest():
    cases = _grid()
    marker = pytest.mark.subsample(0.1, all_keep=0.1, all_cover=["dtype"]).mark
    cover, also = conftest._all_run_covers(cases, marker, None)
    assert (cover, also) == (["dtype"], None)
    samples = [conftest._sampled(cases, 0.1, cover, seed, also) for seed in ("a", "b")]
    for sample in samples:
        assert len(sample) == math.ceil(0.1 * len(cases))
        assert _values(sample, "dtype") == {"f4", "i1"}
    assert samples[0] != samples[1]
    # Without all_cover, a marker's cover comes with every repeated parameter.
    marker = pytest.mark.subsample(0.1, cover=["mode"]).mark
    assert conftest._all_run_covers(cases, marker, ["mode"]) == (
        ["mode"],
        ["mode", "shape", "dtype"],
    )
    assert conftest._all_run_covers(cases, None, "classes") == (None, None)


def test_all_runs_what_a_functions_budget_pays_for_and_rotates_the_rest():
    cases = _grid()
    budget = conftest._ALL_GROUP_SECONDS
    sample = conftest._sampled(cases, 0.1, "classes", "a")
    # Unmeasured, or within the budget: the sample as drawn.
    assert conftest._within_budget(sample, cases, None, {}, "a") is sample
    cheap = {"tests/test_x.py::test_x": budget / len(sample)}
    assert conftest._within_budget(sample, cases, None, cheap, "a") is sample
    # Dearer: as many cases as the budget pays for, at least one, rotated by the seed.
    dear = {"tests/test_x.py::test_x": budget / 3}
    picks = [conftest._within_budget(sample, cases, None, dear, seed) for seed in "abcdef"]
    assert {len(pick) for pick in picks} == {3}
    assert len({frozenset(map(id, pick)) for pick in picks}) == 6
    dearest = {"tests/test_x.py::test_x": 10 * budget}
    assert len(conftest._within_budget(sample, cases, None, dearest, "a")) == 1
    # A list marked EVERY_CASE runs whole whatever it costs.
    every = pytest.mark.subsample(1, all_keep=1).mark
    assert conftest._within_budget(cases, cases, every, dearest, "a") is cases


def test_a_dear_function_runs_on_a_share_of_seeds_as_its_cost_pays_for():
    budget = conftest._DEFAULT_RUN_SECONDS
    seeds = [f"{commit:040x}" for commit in range(2000)]
    # Within the budget, or unmeasured: every seed.
    assert all(conftest._drawn("tests/test_x.py::test_x", budget, budget, s) for s in seeds)
    assert all(conftest._drawn("tests/test_x.py::test_x", 0.0, budget, s) for s in seeds)
    # Four budgets: about a quarter of the seeds, the same ones on a rerun, and another
    # function draws other seeds.
    draws = [conftest._drawn("tests/test_x.py::test_x", 4 * budget, budget, s) for s in seeds]
    assert 0.2 < sum(draws) / len(seeds) < 0.3
    again = [conftest._drawn("tests/test_x.py::test_x", 4 * budget, budget, s) for s in seeds]
    assert draws == again
    other = [conftest._drawn("tests/test_x.py::test_y", 4 * budget, budget, s) for s in seeds]
    assert other != draws


class _Item:
    """A collected test as the default run's draw reads it."""

    def __init__(self, nodeid, marker=None):
        self.nodeid = nodeid
        self.path = nodeid.partition("::")[0]
        self._marker = marker

    def get_closest_marker(self, name):
        return self._marker if name == "subsample" else None


class _Config:
    """A run's configuration as the draw reads it: its arguments and whether --all."""

    def __init__(self, args, run_all=False):
        self.args = args
        self._run_all = run_all

    def getoption(self, name):
        assert name == "run_all"
        return self._run_all


def test_a_run_leaves_out_the_undrawn_unless_their_file_is_named_or_list_kept_whole():
    catalogue = pytest.mark.subsample(1, default_keep=None, all_keep=1).mark
    items = [
        _Item("tests/test_a.py::test_dear"),
        _Item("tests/test_a.py::test_cheap"),
        _Item("tests/test_b.py::test_rows[1]", catalogue),
        _Item("tests/test_b.py::test_rows[2]", catalogue),
    ]
    groups = {"rows": items[2:]}
    costs = {
        "tests/test_a.py::test_dear": 1e9,
        "tests/test_a.py::test_cheap": conftest._DEFAULT_RUN_SECONDS,
        "tests/test_b.py::test_rows": 1e9,
    }
    undrawn = conftest._undrawn_functions(_Config(["tests"]), items, groups, costs, "a")
    assert undrawn == {"tests/test_a.py::test_dear"}
    for args in (["tests/test_a.py"], ["tests/test_a.py::test_dear"]):
        assert conftest._undrawn_functions(_Config(args), items, groups, costs, "a") == set()
    # --all: a list marked EVERY_CASE runs whole; the catalogue's default_keep is the
    # default run's.
    every = pytest.mark.subsample(1, all_keep=1).mark
    items[2:] = [_Item(item.nodeid, every) for item in items[2:]]
    groups = {"rows": items[2:]}
    undrawn = conftest._undrawn_functions(_Config(["tests"], True), items, groups, costs, "a")
    assert undrawn == {"tests/test_a.py::test_dear"}
    default_only = pytest.mark.subsample(1, default_keep=None).mark
    catalogue_under_all = [*items[:2], *(_Item(i.nodeid, default_only) for i in items[2:])]
    groups = {"rows": catalogue_under_all[2:]}
    undrawn = conftest._undrawn_functions(
        _Config(["tests"], True), catalogue_under_all, groups, costs, "a"
    )
    assert undrawn == {"tests/test_a.py::test_dear", "tests/test_b.py::test_rows"}


def test_the_costs_table_is_the_profile_scaled_to_quiet_seconds():
    log = [
        "4.00s call     tests/test_a.py::test_f[x]",
        "1.00s setup    tests/test_a.py::test_f[x]",
        "3.00s call     tests/test_a.py::test_f[y]",
        "2.00s call     tests/test_b.py::test_g",
        "slowest durations",
    ]
    table = costs.per_case_seconds(log, quiet_seconds=5.0)
    assert table == {"tests/test_a.py::test_f": 2.0, "tests/test_b.py::test_g": 1.0}
    # The committed tables, one a run, name test functions.
    for run in costs.RUNS:
        committed = costs.load(run)
        assert committed and all("::" in name for name in committed)
