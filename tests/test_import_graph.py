"""The import graph of ``copa_ref``: no cycle among its modules.

Read with the standard library's ``ast`` from the source (nothing imported): every
``import`` and ``from ... import`` of every module, at module level and deferred inside a
function alike; the imports under ``if TYPE_CHECKING:`` (read by the type checker only) are
left out. A module-level cycle would fail at import in some order; a deferred one only
hides the same tangle, so the graph with the deferred imports has no cycle either.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "copa_ref"


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _type_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports(name: str, path: Path, known: dict[str, Path], *,
            deferred: bool) -> set[str]:
    """The package's modules that module *name* imports (its package's ``__init__`` left
    out); with *deferred*, the imports inside functions too."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def targets(node: ast.Import | ast.ImportFrom) -> Iterator[str]:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
            return
        base = node.module or ""
        if node.level:
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join(parts + ([base] if base else []))
        for alias in node.names:
            yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_only(child):
                continue
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.Lambda))
            if isinstance(child, (ast.Import, ast.ImportFrom)) and (inner or deferred):
                for target in targets(child):
                    while target and target not in known:
                        target = target.rpartition(".")[0]
                    if target and target != name:
                        found.add(target)
            visit(child, inner)

    visit(ast.parse(path.read_text()), True)
    return found


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def strong(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                strong(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                other = stack.pop()
                component.add(other)
                if other == node:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            strong(node)
    return found


def graph(*, deferred: bool) -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known, deferred=deferred) for name, path in known.items()}


class TestImportGraph:
    def test_no_module_level_cycle(self) -> None:
        """No cycle among the module-level imports of the package's modules."""
        assert cycles(graph(deferred=False)) == set()

    def test_no_cycle_through_deferred_imports(self) -> None:
        """With the imports inside functions too, no cycle either."""
        found = cycles(graph(deferred=True))
        assert found == set(), sorted(sorted(c) for c in found)

    def test_the_walk_sees_a_cycle(self) -> None:
        """The walk finds a cycle where there is one (the test can fail)."""
        assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {
            frozenset({"a", "b", "c"})}
        known = modules()
        assert "copa_ref.core.game" in imports("copa_ref.core.loop",
                                               known["copa_ref.core.loop"], known,
                                               deferred=False)
