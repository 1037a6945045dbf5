"""What each test function's cases cost, for the runs' budgets (tests/conftest.py,
``_ALL_GROUP_SECONDS`` and ``_DEFAULT_RUN_SECONDS``; docs/development.md, "The test
budget").

``COSTS.json`` beside this file holds a table for each run, ``"all"`` (``pytest
--all``'s two runs) and ``"default"`` (``pytest``), each mapping a test function (its
node id without the case's parameters) to the mean seconds of one of its cases on 2
quiet cores: the runs differ, since a test that loops over cases checks a share of
them in the default run (the ``full_run`` fixture). It is measured, not guessed:
regenerate it from the logs of the runs with every case's time,

    pytest --all --durations=0 -m "not xla_defaults" > all.log       # any load
    pytest --all --durations=0 -m xla_defaults --xla-defaults > xla.log
    pytest --durations=0 > default.log
    python -m tests.costs --run all all.log 1056 xla.log 232
    python -m tests.costs --run default default.log 780

each log followed by its run's worker seconds on 2 quiet cores (the sum of its
durations on a quiet machine, or its wall time there times its two workers): a log's
times are scaled so that they sum to it, since a loaded machine stretches every case
alike to a first approximation. A test function missing from a table (a new one, or
one whose cases each took under 5 ms) costs nothing to that run's budget, until the
table is regenerated.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path

PATH = Path(__file__).with_name("COSTS.json")

# A line of pytest's ``--durations`` report: "1.23s call     tests/x.py::test_y[case]".
_DURATION = re.compile(r"^([\d.]+)s (?:call|setup|teardown)\s+(\S+)")


def function_id(nodeid: str) -> str:
    """A case's test function: its node id without the parameters."""
    return nodeid.split("[", 1)[0]


def per_case_seconds(log_lines, quiet_seconds: float) -> dict[str, float]:
    """Each test function's mean seconds a case, scaled so that all sum to
    ``quiet_seconds``."""
    seconds: dict[str, float] = defaultdict(float)
    cases: dict[str, set[str]] = defaultdict(set)
    for line in log_lines:
        match = _DURATION.match(line)
        if match:
            seconds[function_id(match[2])] += float(match[1])
            cases[function_id(match[2])].add(match[2])
    scale = quiet_seconds / sum(seconds.values())
    return {
        name: round(scale * total / len(cases[name]), 3) for name, total in sorted(seconds.items())
    }


RUNS = ("all", "default")


def load(run: str) -> dict[str, float]:
    """The committed table of ``run`` (one of ``RUNS``), or an empty one (every function
    then runs its sample)."""
    try:
        return json.loads(PATH.read_text()).get(run, {})
    except FileNotFoundError:
        return {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", choices=RUNS, required=True, help="the table to write")
    parser.add_argument(
        "runs",
        nargs="+",
        help="LOG SECONDS ...: a pytest --all --durations=0 log, then its run's worker "
        "seconds on 2 quiet cores (wall time x 2)",
    )
    args = parser.parse_args()
    if len(args.runs) % 2:
        parser.error("give each log its quiet seconds: LOG SECONDS [LOG SECONDS ...]")
    table: dict[str, float] = {}
    for path, seconds in zip(args.runs[::2], args.runs[1::2]):
        with open(path) as log:
            table.update(per_case_seconds(log, float(seconds)))
    tables = {run: load(run) for run in RUNS}
    tables[args.run] = table
    PATH.write_text(json.dumps(tables, indent=0, sort_keys=True) + "\n")
    print(f"{PATH}: {len(table)} test functions of the {args.run} run")


if __name__ == "__main__":
    main()
