"""benchmarks/_docs.py: a generated table replaces its marked section, nothing else."""

from __future__ import annotations

import pytest

from benchmarks._docs import write_section


def test_write_section_replaces_only_the_marked_text(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "before\n<!-- t:start -->\nold\n<!-- t:end -->\nbetween\n"
        "<!-- u:start -->\nother\n<!-- u:end -->\nafter\n"
    )
    write_section(page, "t", "\n| new | table |\n")
    assert page.read_text() == (
        "before\n<!-- t:start -->\n| new | table |\n<!-- t:end -->\nbetween\n"
        "<!-- u:start -->\nother\n<!-- u:end -->\nafter\n"
    )


def test_write_section_needs_its_markers(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("no markers here\n")
    with pytest.raises(ValueError):
        write_section(page, "t", "table")
    assert page.read_text() == "no markers here\n"
