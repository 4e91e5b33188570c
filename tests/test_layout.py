"""The package's architecture, checked: no module imports itself in a circle, and the engine never reaches up
into the command line, the conformance suite or the renderer."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "canasta_ref"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str], *, type_hints: bool = False) -> set[str]:
    """The package's modules that ``path`` imports, at the top or inside a function (and under ``if
    TYPE_CHECKING:`` with ``type_hints``)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree) if type_hints else _runtime_nodes(tree):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join([*base, *([node.module] if node.module else [])])
            submodules = [f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in modules]
            candidates = submodules or [target]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        found.update(c for c in candidates if c in modules and c != name)
    return found


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:`` (imports for type hints only never run)."""
    out: list[ast.AST] = []
    pending = [tree]
    while pending:
        node = pending.pop()
        out.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                pending.extend(child.orelse)
            else:
                pending.append(child)
    return out


def _graph(*, type_hints: bool = False) -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py") if "_compiled" not in p.parts}
    modules = set(paths)
    # Importing a package runs its __init__: an edge to the module is an edge to its package's __init__ too, but
    # a package's __init__ importing its own modules is how packages work, so only module-to-module edges count.
    return {name: _imports(path, modules, type_hints=type_hints) for name, path in paths.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_package_has_no_import_circles() -> None:
    graph = _graph()
    assert "canasta_ref.engine.judge" in graph and "canasta_ref.engine.legal" in graph["canasta_ref.engine.judge"]
    cycle = _cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


def test_the_rules_language_has_no_circle_even_through_type_hints() -> None:
    """The compiler and the built-in functions it calls once named each other (the functions' types under
    ``TYPE_CHECKING``): a circle all the same for whoever reads them, now cut by ``lang.code``."""
    graph = _graph(type_hints=True)
    lang = {name: {m for m in imported if m.startswith("canasta_ref.lang")} for name, imported in graph.items()}
    assert "canasta_ref.lang.code" in lang["canasta_ref.lang.functions"]
    cycle = _cycle({name: imported for name, imported in lang.items() if name.startswith("canasta_ref.lang")})
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_imports_for_type_hints_only_are_not_edges() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import x\nimport y\n")
    imported = [a.name for n in _runtime_nodes(tree) if isinstance(n, ast.Import) for a in n.names]
    assert imported == ["y"]


def test_the_engine_depends_only_on_the_spec_model_and_errors() -> None:
    allowed = ("canasta_ref.engine", "canasta_ref.errors", "canasta_ref.spec.model", "canasta_ref.lang")
    for name, imported in _graph().items():
        if name.startswith("canasta_ref.engine"):
            outside = sorted(m for m in imported if not m.startswith(allowed))
            assert not outside, f"{name} imports {outside}"
