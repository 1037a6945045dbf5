"""The suite's set-up: 8 simulated CPU devices, the default run and ``--all``, and the
Hypothesis profiles.

Devices: XLA reads the CPU device count once, when the backend starts, so it is set
here, before any test module runs a JAX operation; the tests on a mesh
(tests/test_sharded_pad.py, tests/test_halo_sharded.py) run in this process. If a
backend had already started, ``jax.config.update`` raises: a loud failure, not a suite
that silently runs on one device.

The default run (``pytest``) fits a contributor's few minutes on 2 cores: it leaves out
the tests marked ``slow``, runs one case of each parametrized test (drawn by the
commit's seed, so the cases rotate from commit to commit), tests that loop over many
cases check a share of them (the ``full_run`` fixture).
``pytest --all`` (CI) adds the ``slow`` tests; its grids are samples too, larger ones,
that keep every value of every parameter that names a class and rotate the
combinations with a seed drawn from the commit
(``JAXPAD_SAMPLE_SEED``, which CI sets; else ``git rev-parse HEAD``; else a fixed
seed), so that successive commits run different cases. ``pytest --all --every-case``
(or ``JAXPAD_EVERY_CASE=1``) runs every case of every grid and loop: a nightly's run,
or a contributor's after a change to a planner. docs/development.md, "The test
budget", says what each run costs.

Both runs compile without LLVM's optimizations (``_TEST_RUN_XLA_FLAGS``), except with
``--xla-defaults``: CI runs the tests marked ``xla_defaults`` (whose oracles compare
values where a rounding decides) so, compiled as users' programs are.

Hypothesis: "ci" (``--all``) fits the full suite's time budget and is derandomized so
CI is reproducible; "default-run" (the default run) tries fewer examples, also
derandomized; JAXPAD_HYPOTHESIS_PROFILE=thorough runs many more examples from fresh
random seeds.
"""

from __future__ import annotations

import hashlib
import math
import os
import subprocess
import zlib
from collections import defaultdict
from pathlib import Path

import jax
import pytest
from hypothesis import HealthCheck, settings

from tests.costs import function_id
from tests.costs import load as load_costs
from tests.devices import cpu_device_count

jax.config.update("jax_num_cpu_devices", cpu_device_count())

_COMMON = {
    "deadline": None,
    "database": None,
    # Every example compiles a new XLA program; that is slow, not a bug in the strategy.
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much],
}
settings.register_profile("ci", max_examples=12, derandomize=True, **_COMMON)
settings.register_profile("default-run", max_examples=6, derandomize=True, **_COMMON)
settings.register_profile("thorough", max_examples=500, **_COMMON)
settings.load_profile(os.environ.get("JAXPAD_HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def eight_cpu_devices():
    """The mesh tests' CPU devices (tests/devices.py builds their meshes); arrays made
    without a device go to the first CPU device, whatever the default backend."""
    cpus = jax.devices("cpu")
    assert len(cpus) >= 8, f"tests/conftest.py asks for 8 CPU devices; got {len(cpus)}"
    with jax.default_device(cpus[0]):
        yield cpus


@pytest.fixture
def full_run(request):
    """Whether this is ``pytest --all``: a test whose cost is a loop over many cases
    checks a deterministic share of them in the default run, and all under ``--all``."""
    return request.config.getoption("run_all")


def pytest_addoption(parser):
    parser.addoption(
        "--all",
        action="store_true",
        dest="run_all",
        help="jaxpad: the full suite (CI runs it): the tests marked slow, and of each "
        "parameter grid a larger sample than the default "
        "run's, every value of every class parameter kept, the combinations rotated by "
        "the commit (JAXPAD_SAMPLE_SEED).",
    )
    parser.addoption(
        "--xla-defaults",
        action="store_true",
        dest="xla_defaults",
        help="jaxpad: compile as XLA compiles by default (users' programs), not as the "
        "test runs do (without LLVM's optimizations); CI runs the tests marked "
        "xla_defaults so (.ci/run).",
    )
    parser.addoption(
        "--every-case",
        action="store_true",
        dest="every_case",
        help="jaxpad: --all with every case of every parameter grid, not a sample (also "
        "JAXPAD_EVERY_CASE=1): a nightly run, or a check of a change to a planner.",
    )


# The test runs (the default run and --all) compile without LLVM's optimizations: most
# of a test's time is XLA:CPU compiling small programs (65% of tests/test_numpy_pad.py's,
# some 530 programs), whose machine code's speed does not matter here, while the
# optimized HLO programs the tests read are the same. It took 0.75-0.85 of the CPU
# seconds in interleaved runs of test files (0.79 of --all's tests/test_scipy_ndimage.py
# and tests/test_conv_lowering.py, 154 s against 196 s on 2 cores, 2026-11-29;
# docs/development.md, "The test budget"). What LLVM's optimizations change is the
# rounding of floating-point arithmetic (a multiply-add contracted into an FMA in one
# fusion and not another moved interpolation points off scipy's ties): the tests marked
# ``xla_defaults``, whose oracles compare values at such points, run in CI with
# ``--xla-defaults``, compiled as users' programs are. A flag already in XLA_FLAGS wins.
_TEST_RUN_XLA_FLAGS = {
    "--xla_backend_optimization_level": "0",
    "--xla_llvm_disable_expensive_passes": "true",
}


# What the environment gave, before the default run adds its flags.
_GIVEN_XLA_FLAGS = os.environ.get("XLA_FLAGS", "")


def _add_xla_flags(flags):
    """``XLA_FLAGS`` plus ``flags``, leaving any flag it names already as it is."""
    given = os.environ.get("XLA_FLAGS", "").split()
    named = {flag.partition("=")[0] for flag in given}
    added = [f"{name}={value}" for name, value in flags.items() if name not in named]
    return " ".join(given + added)


def _every_case(config):
    return config.getoption("every_case") or os.environ.get("JAXPAD_EVERY_CASE", "") not in (
        "",
        "0",
    )


def _sample_seed(config):
    """The seed that orders the grids' cases before a sample is drawn, in both runs:
    ``JAXPAD_SAMPLE_SEED`` if set, else the checkout's commit, else a fixed one (an
    unpacked sdist)."""
    seed = os.environ.get("JAXPAD_SAMPLE_SEED")
    if seed is not None:
        return seed
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=config.rootpath,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return _FALLBACK_SEED
    return head.stdout.strip() if head.returncode == 0 and head.stdout.strip() else _FALLBACK_SEED


# --all's seed outside a git checkout without JAXPAD_SAMPLE_SEED.
_FALLBACK_SEED = "jaxpad"


def pytest_configure(config):
    if _every_case(config):
        config.option.run_all = True
    # Once, here: the xdist workers inherit it and so draw the controller's sample.
    os.environ["JAXPAD_SAMPLE_SEED"] = config.jaxpad_sample_seed = _sample_seed(config)
    # The default run tries fewer Hypothesis examples; --all (CI) the "ci" profile's.
    if not config.getoption("run_all") and "JAXPAD_HYPOTHESIS_PROFILE" not in os.environ:
        settings.load_profile("default-run")
    # Before any test starts the backend, which reads XLA_FLAGS once; the xdist
    # workers and the tests' subprocesses inherit it.
    if not config.getoption("xla_defaults"):
        os.environ["XLA_FLAGS"] = _add_xla_flags(_TEST_RUN_XLA_FLAGS)


def pytest_report_header(config):
    seed = config.jaxpad_sample_seed
    if _every_case(config):
        return "jaxpad: the full suite, every case (--all --every-case)"
    if config.getoption("run_all"):
        return (
            f"jaxpad: the full suite (--all), grids sampled with JAXPAD_SAMPLE_SEED={seed} "
            "(set it to repeat this run; --every-case runs every case)"
        )
    return (
        f"jaxpad: the default run, one case of each test drawn with JAXPAD_SAMPLE_SEED={seed}; "
        "pytest --all adds the slow tests and more cases"
    )


def _value_key(value):
    """A parameter value's class for the sample's coverage: equal values, one class."""
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value if not isinstance(value, float) or value == value else "nan"


def _flat(params):
    """A test's parameters, a dict-valued one's entries as ``name.key`` beside it."""
    flat = dict(params)
    for name, value in params.items():
        if isinstance(value, dict):
            flat.update({f"{name}.{key}": entry for key, entry in value.items()})
    return flat


def _class_parameters(items, most):
    """The parameters of ``items`` (the cases of one test function) that name classes
    of input: each value shared by several cases, and at most ``most`` values."""
    values = defaultdict(set)
    for item in items:
        for name, value in _flat(item.callspec.params).items():
            values[name].add(_value_key(value))
    return [
        name
        for name, seen_values in values.items()
        if len(seen_values) <= most and len(seen_values) < len(items)
    ]


def _classes(params, cover):
    """The classes a case with these parameters belongs to, for ``cover``: a list of
    parameter names, None (every parameter) or a function of the parameters."""
    if callable(cover):
        return {("", _value_key(value)) for value in cover(params)}
    names = params if cover is None else [name for name in cover if name in params]
    return {(name, _value_key(params[name])) for name in names}


def _sampled(items, keep, cover, seed="", also_cover=None):
    """``keep`` of ``items`` (the cases of one test function), at least one for each
    value of each parameter in ``cover`` (all of them by default; ``"case.mode"`` names
    the entry ``"mode"`` of a dict-valued parameter ``case``; ``"classes"``, those of
    ``_class_parameters``; or a function of the parameters that returns the classes a
    case belongs to), and of each in ``also_cover`` (the same kinds). Deterministic:
    the order is a CRC of the test ids started from the seed's, not Python's salted
    hash; seed ``""`` is the default run's fixed order."""
    if len(items) <= 1:
        return list(items)
    start = zlib.crc32(seed.encode())
    order = sorted(items, key=lambda item: (zlib.crc32(item.nodeid.encode(), start), item.nodeid))
    quota = math.ceil(keep * len(items)) if keep < 1 else int(keep)
    covers = [cover] if also_cover is None else [cover, also_cover]
    covers = [
        _class_parameters(items, _MAX_CLASSES) if each == "classes" else each for each in covers
    ]
    chosen, seen = [], set()
    for item in order:
        params = _flat(item.callspec.params) if hasattr(item, "callspec") else {}
        classes = set()
        for which, each in enumerate(covers):
            classes |= {(which, *key) for key in _classes(params, each)}
        if not classes <= seen:
            chosen.append(item)
            seen |= classes
    for item in order:
        if len(chosen) >= quota:
            break
        if item not in chosen:
            chosen.append(item)
    return chosen


def _named_on_the_command_line(config, item):
    """Whether an argument names this case or its test function (``file::test``)."""
    for arg in config.args:
        path, _, name = arg.partition("::")
        if name and Path(path).resolve() == Path(item.path).resolve():
            own = item.nodeid.partition("::")[2]
            if own == name or own.startswith((name + "[", name + "::")):
                return True
    return False


# The default run keeps this many cases of each parametrized test function, drawn by
# the seed (the commit's): every test runs, its cases rotate from commit to commit, and
# --all covers every class on every run. Keeping every value of each class parameter
# instead took 524 s on 2 quiet cores (999 s of tests, 2026-11-28), where the budget is
# 5 minutes; one case each, an estimated 479 s of tests (docs/development.md).
_DEFAULT_RUN_CASES = 1
# --all samples every parametrized test function of at least this many cases, unless a
# ``subsample`` marker says otherwise, to at least this share.
_MIN_SAMPLED_GRID = 4
_DEFAULT_KEEP = 0.2
# A parameter with at most this many values (each shared by several cases) names a
# class of input that such a sample keeps whole: modes, dtypes, layouts.
_MAX_CLASSES = 12
# --all's share of each sampled grid, beyond the cases that keep every value of every
# covered parameter (the default run's share where larger). Most of --all's cost is
# those covering cases: with a quarter it ran 3,867 of 7,109 cases, an estimated 58%
# of the CPU seconds of every case, and the same with a tenth (2026-11-28, per-test
# CPU times of 2,258 cases of 10 files, under a load of ~20 on 2 cores). A tenth, with
# the lists that rotate (tests/sampling.py), took --all from an estimated 1,759 to
# 1,514 CPU seconds of tests (2026-11-29; docs/development.md, "The test budget").
_ALL_KEEP = 0.1


# --all's budget for one test function, in seconds on 2 quiet cores, from the profile
# of that run (tests/COSTS.json, tests/costs.py). A function whose sample would cost
# more runs as many cases as fit, at least one, drawn by the seed without covers: its
# classes rotate from commit to commit instead of all running on each; a function one
# of whose cases costs more than the budget runs on the seed's draw, as in the default
# run (``_drawn``): about once in every cost / budget commits. --every-case (a
# nightly) still runs them all. A list marked EVERY_CASE (forms, rules, catalogue
# rows) runs whole whatever it costs. On the profile of f1f376e's --all (550 s on 2
# quiet cores, 1,056 worker seconds, and 232 of its xla_defaults run, 2026-12-06),
# the draw estimates 605 and 106 worker seconds at 1 s, 735 and 154 at 2 s, 851 at
# 3 s (docs/development.md, "The test budget").
_ALL_GROUP_SECONDS = 1.0


# The default run's budget for one test function, in seconds on 2 quiet cores, from the
# profile of that run (tests/COSTS.json): a function whose case costs more runs on the
# seed's draw, with the probability budget / cost, so that its expected cost is the
# budget and it runs in about one of every cost / budget commits (``--all`` runs it
# more often, under its own budget). One case of every function took 411 s on 2 quiet
# cores at f1f376e (780 worker seconds, 2026-12-06), where the default run's budget is
# 2.5 minutes; the profile of that run estimates 383 worker seconds at a budget of
# 0.5 s, 304 at 0.3 s and 264 at 0.25 s (docs/development.md, "The test budget").
_DEFAULT_RUN_SECONDS = 0.25


def _drawn(function, cost, budget, seed):
    """Whether a test function whose run costs ``cost`` seconds runs on this seed: with
    the probability ``budget / cost`` (always where the cost fits), drawn from the seed
    and the function, so that a seed's run repeats and each function draws apart."""
    if cost <= budget:
        return True
    digest = hashlib.blake2b(f"{seed}::{function}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64 < budget / cost


def _names_its_file(config, item):
    """Whether an argument names this item's file or one of its tests."""
    here = Path(item.path).resolve()
    return any(Path(arg.partition("::")[0]).resolve() == here for arg in config.args)


def _within_budget(chosen, group, marker, costs, seed):
    """``chosen`` (a test function's sample under --all), or as many of its cases as
    ``_ALL_GROUP_SECONDS`` pays for at the function's cost a case (``costs``)."""
    if marker is not None and marker.kwargs.get("all_keep", 0) >= 1:
        return chosen
    per_case = costs.get(function_id(group[0].nodeid))
    if not per_case or per_case * len(chosen) <= _ALL_GROUP_SECONDS:
        return chosen
    return _sampled(group, max(1, int(_ALL_GROUP_SECONDS // per_case)), [], seed)


def _all_run_covers(group, marker, cover):
    """What ``--all`` keeps of a sampled grid beyond its share, as ``(cover,
    also_cover)`` for ``_sampled``. An unmarked grid, or a marker without a cover:
    every value of every parameter, a list of cases (rules, forms, catalogue rows)
    whole. A marker's own cover: with every parameter whose values several cases share
    (``tests/sampling.py``'s ``ROTATE_LISTS``: a list of cases, one value each, such
    as the modes of an expensive test, rotates its share). A marker's ``all_cover``:
    that cover alone (a port of another project's tests, whose every rule and form a
    test of our own covers, rotates its share)."""
    if marker is not None and "all_cover" in marker.kwargs:
        return marker.kwargs["all_cover"], None
    if marker is not None and "cover" in marker.kwargs:
        return cover, _class_parameters(group, math.inf)
    return None, None


def _group_sample(group, marker, run_all):
    """What a run keeps of one parametrized test function's cases, as ``(keep, cover,
    also_cover)`` for ``_sampled``, or None for every case. The default run: one case
    (``_DEFAULT_RUN_CASES``), drawn by the seed, or a marker's ``default_keep`` (a
    count, a share, or None for every case: a list of cheap cases such as the
    bad-input catalogue's rows). ``--all``: a ``subsample`` marker's share (or
    ``_DEFAULT_KEEP`` of an unmarked grid of at least ``_MIN_SAMPLED_GRID`` cases), at
    least ``_ALL_KEEP`` or the marker's ``all_keep``, and the covers of
    ``_all_run_covers``."""
    if not run_all:
        keep = (marker.kwargs if marker else {}).get("default_keep", _DEFAULT_RUN_CASES)
        if keep is None or (keep >= 1 and len(group) <= keep):
            return None
        return keep, [], None
    if marker is not None:
        keep = marker.args[0] if marker.args else marker.kwargs["keep"]
        cover = marker.kwargs.get("cover")
    elif len(group) >= _MIN_SAMPLED_GRID:
        keep, cover = _DEFAULT_KEEP, "classes"
    else:
        return None
    share = keep if keep < 1 else keep / len(group)
    keep = max(share, marker.kwargs.get("all_keep", _ALL_KEEP) if marker else _ALL_KEEP)
    if keep >= 1:
        return None
    cover, also_cover = _all_run_covers(group, marker, cover)
    return keep, cover, also_cover


def pytest_collection_modifyitems(config, items):
    """The default run: no ``slow`` tests, and each parametrized test function down to
    its sample: ``subsample(keep, cover=...)`` where marked (``keep`` a fraction of the
    cases, < 1, or a count), ``_DEFAULT_KEEP`` of any other grid of at least
    ``_MIN_SAMPLED_GRID`` cases, covering every value of each parameter that names a
    class of input (``_MAX_CLASSES``). ``--all``: the slow tests too, and of the same
    grids ``_ALL_KEEP`` or the default run's share if larger, covering every value of
    every parameter (a list of cases, such as rules, forms or catalogue rows, whole),
    or where the marker names a cover, that cover and every parameter whose values
    several cases share, however many; in an order drawn from
    the seed (``_sample_seed``). ``--every-case``: everything."""
    run_all = config.getoption("run_all")
    if _every_case(config):
        return
    seed = config.jaxpad_sample_seed
    costs = load_costs("all" if run_all else "default")
    groups = defaultdict(list)
    for item in items:
        if hasattr(item, "callspec"):
            groups[(item.path, item.parent.nodeid, item.originalname)].append(item)
    selected, sampled = set(), set()
    for group in groups.values():
        marker = group[0].get_closest_marker("subsample")
        plan = _group_sample(group, marker, run_all)
        chosen = group if plan is None else _sampled(group, *plan[:2], seed, plan[2])
        if run_all:
            chosen = _within_budget(chosen, group, marker, costs, seed)
        if len(chosen) < len(group):
            sampled.update(group)
            selected.update(chosen)
    undrawn = _undrawn_functions(config, items, groups, costs, seed)
    kept, left_out = [], []
    for item in items:
        out = (
            (not run_all and item.get_closest_marker("slow") is not None)
            or (item in sampled and item not in selected)
            or function_id(item.nodeid) in undrawn
        )
        (left_out if out and not _named_on_the_command_line(config, item) else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


def _undrawn_functions(config, items, groups, costs, seed):
    """The test functions that this seed does not draw: in the default run, those whose
    case costs more than ``_DEFAULT_RUN_SECONDS`` in the profile, under ``--all`` more
    than ``_ALL_GROUP_SECONDS``, each with the probability budget / cost
    (``_drawn``); unless an argument names their file, or a marker keeps their list
    whole in this run (the bad-input catalogue's rows, ``EVERY_CASE``'s forms)."""
    run_all = config.getoption("run_all")
    budget = _ALL_GROUP_SECONDS if run_all else _DEFAULT_RUN_SECONDS
    whole = set()
    for group in groups.values():
        marker = group[0].get_closest_marker("subsample")
        if marker is None:
            continue
        every_case = "default_keep" in marker.kwargs and marker.kwargs["default_keep"] is None
        if (run_all and marker.kwargs.get("all_keep", 0) >= 1) or (not run_all and every_case):
            whole.add(function_id(group[0].nodeid))
    undrawn = set()
    for item in items:
        function = function_id(item.nodeid)
        if (
            function not in whole
            and not _drawn(function, costs.get(function, 0.0), budget, seed)
            and not _names_its_file(config, item)
        ):
            undrawn.add(function)
    return undrawn
