"""jaxpad's modules import one another one way: no cycle among jaxpad's own imports.

Every module under ``jaxpad/`` is read with ``ast`` (nothing is imported, so no JAX):
each ``import`` and ``from ... import`` at any depth (a function-level import that
dodges a cycle at run time is still an edge), relative ones resolved, and
``from pkg import name`` an edge to ``pkg.name`` when that is a module, else to
``pkg``. A package's ``__init__`` is the package's node; importing a submodule does
not count as importing its parent packages (every package's ``__init__`` that
imports its own submodules would otherwise be a cycle).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "jaxpad"


def _modules(root: Path) -> dict[str, Path]:
    """Dotted name -> file, for every module and package under ``root``."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of ``from <level dots><name> import ...`` inside ``module``."""
    if not level:
        return name or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _imports(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The jaxpad modules that ``module`` imports, at module level or in a function."""
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in known else base)
    out = set()
    for target in targets:
        # ``import a.b.c`` of a name that is not a module (an attribute): its module.
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != module:
            out.add(target)
    return out


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    known = _modules(root)
    return {name: _imports(name, path, known) for name, path in known.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as [a, b, ..., a], or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle_in_jaxpad():
    graph = import_graph()
    assert "jaxpad.scipy.ndimage" in graph and graph["jaxpad"], "jaxpad's modules not read"
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_checker_finds_cycles(tmp_path):
    # A cycle through a function-level import, a relative import and a
    # ``from pkg import submodule``; and a graph without one.
    pkg = tmp_path / "jaxpad"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from jaxpad import a\n")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..c import g\n")
    (pkg / "c.py").write_text("import os\nfrom jaxpad.sub import b\n")
    graph = import_graph(pkg)
    assert graph["jaxpad"] == {"jaxpad.a"}
    assert graph["jaxpad.a"] == {"jaxpad.sub.b"}
    assert graph["jaxpad.sub.b"] == {"jaxpad.c"}
    assert find_cycle(graph) == ["jaxpad.sub.b", "jaxpad.c", "jaxpad.sub.b"]
    (pkg / "c.py").write_text("import jaxpad.sub\nfrom jaxpad.sub import nothing\n")
    graph = import_graph(pkg)
    assert graph["jaxpad.c"] == {"jaxpad.sub"}
    assert find_cycle(graph) is None
