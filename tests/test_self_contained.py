"""The project cites only what it ships: no documents from outside the repository.

The semantics and the policy formulas are docs/semantics.md and docs/policy-formulas.md;
docstrings, comments and pages cite those.
"""

from __future__ import annotations

from pathlib import Path

import jaxpad

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(jaxpad.__file__).resolve().parent

# Built from pieces so that this file does not match itself.
FOREIGN = ("SEMANTICS" + ".md", "padding-" + "policies.md", "shared" + "/specs")

# Files whose citations are replaced on merge by their owners (file -> the text that is
# still there). The test below fails once a listed file no longer cites anything, so
# this tuple shrinks with every fix and ends empty.
PENDING: tuple[str, ...] = ()


def shipped_text_files():
    """(name relative to the repository, path) of every text file users read."""
    yield "README.md", ROOT / "README.md"
    yield "CHANGELOG.md", ROOT / "CHANGELOG.md"
    for folder, pattern in (("docs", "*.md"), ("examples", "*.py"), ("tests", "*.py")):
        for path in sorted((ROOT / folder).rglob(pattern)):
            yield path.relative_to(ROOT).as_posix(), path
    for path in sorted(PACKAGE.rglob("*.py")):
        yield "jaxpad/" + path.relative_to(PACKAGE).as_posix(), path


def citations(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [name for name in FOREIGN if name in text]


def test_no_file_cites_documents_outside_the_repository():
    offending = {
        name: cited
        for name, path in shipped_text_files()
        if name not in PENDING and (cited := citations(path))
    }
    assert not offending, f"cite docs/semantics.md or docs/policy-formulas.md: {offending}"


def test_pending_files_still_cite_them():
    files = dict(shipped_text_files())
    fixed = [name for name in PENDING if name in files and not citations(files[name])]
    assert not fixed, f"remove these from PENDING in {Path(__file__).name}: {fixed}"


def test_the_cited_pages_exist():
    assert (ROOT / "docs" / "semantics.md").is_file()
    assert (ROOT / "docs" / "policy-formulas.md").is_file()
