"""A rotating share of a test's own loop of cases: which share a run checks is drawn
from the run's seed (``JAXPAD_SAMPLE_SEED``, which tests/conftest.py sets from the
commit), so that successive commits check the others and every case runs across
commits. For tests whose cost is a loop over cases inside one test function; a
parametrized grid is sampled by tests/conftest.py instead.
"""

from __future__ import annotations

import os
import zlib


def rotation(count, salt=""):
    """Which of ``count`` shares (0 to ``count - 1``) this run checks: the seed's draw,
    ``salt`` (a test's name) making different tests draw independently."""
    seed = os.environ.get("JAXPAD_SAMPLE_SEED", "jaxpad") + salt
    return zlib.crc32(seed.encode()) % count


def share(cases, count, salt=""):
    """Every ``count``-th of ``cases``, from the start ``rotation`` draws."""
    return list(cases)[rotation(count, salt) :: count]
