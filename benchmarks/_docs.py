"""Writing a generated table into a documentation page, between two markers."""

from __future__ import annotations

from pathlib import Path


def write_section(page: Path, name: str, text: str) -> None:
    """Replaces what stands between ``<!-- name:start -->`` and ``<!-- name:end -->``
    in ``page`` with ``text``; the rest of the page is kept as it is."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    head, rest = page.read_text().split(start)
    _, tail = rest.split(end)
    page.write_text(f"{head}{start}\n{text.strip()}\n{end}{tail}")
