"""Runs every row of the bad-input catalogue and checks docs/bad-inputs.md matches it."""

from __future__ import annotations

import pytest

from tests.bad_inputs import DOC, ROWS, render, run


# Every row on every run: each message is the catalogue's word for word (5 s in all).
@pytest.mark.subsample(1, default_keep=None, all_keep=1)
@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row.function}: {row.case}")
def test_catalogue_row(row):
    assert run(row) == (row.outcome, row.result)


def test_every_message_starts_with_its_function():
    for row in ROWS:
        if row.outcome != "accepted":
            # A policy names itself in its messages, as in "jaxpad.policies.torch(1): ...".
            assert row.result.startswith(row.function.removesuffix(".pads")), row


def test_docs_page_is_generated_from_the_catalogue():
    assert DOC.read_text() == render(), "run: python -m tests.bad_inputs"
