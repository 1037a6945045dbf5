"""Markers that say what ``pytest --all`` keeps of a module's or a test's grids
(tests/conftest.py; docs/development.md, "How a run is split").

``ROTATE_LISTS``, on the modules whose tests are expensive (a compile or more per case)
and check one path over many inputs: ``--all`` keeps every value of each parameter
that several cases share (a mode crossed with a dtype, a layout), while a list of
cases, one parameter value each (the modes of one test, random draws), rotates its
share with the seed. The pad's modes each run on every commit in the pad's own tests
(``tests/test_pad.py``, ``tests/test_numpy_pad.py``, ``tests/test_lowering.py``).

``EVERY_CASE``, on a list of forms, rules or bad inputs in such a module: ``--all``
runs every case (the default run still takes one).
"""

from __future__ import annotations

import pytest

ROTATE_LISTS = pytest.mark.subsample(0.2, cover="classes")
EVERY_CASE = pytest.mark.subsample(1, all_keep=1)
