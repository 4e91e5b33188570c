"""The engine's walks stay lazy when compiled: mypyc builds a generator expression whole where it is returned or
handed on, so a walk written as one (a 30-card Samba hand's openings) listed everything before its first page on
the compiled engine. The compiled modules use generator functions instead; this reads their source."""

from __future__ import annotations

import ast
from pathlib import Path

from canasta_ref.engine import _native

ENGINE = Path(_native.__file__).resolve().parent


def _handed_on_generator_expressions(path: Path) -> list[str]:
    """Where ``path`` returns a generator expression or passes one to a call that is not ``any``/``all``/``sum``/
    ``min``/``max``/``tuple``/``list``/``set``/``sorted``/``dict``/``frozenset``/``next``/``extend``/``join`` (which
    consume it at once anyway)."""
    consuming = {"any", "all", "sum", "min", "max", "tuple", "list", "set", "sorted", "dict", "frozenset", "next"}
    consuming |= {"extend", "join"}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.GeneratorExp):
            found.append(f"{path.name}:{node.lineno}: returns a generator expression")
        if isinstance(node, ast.Call) and any(isinstance(arg, ast.GeneratorExp) for arg in node.args):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name not in consuming:
                found.append(f"{path.name}:{node.lineno}: hands a generator expression to {name}()")
    return found


def test_no_compiled_module_hands_on_a_generator_expression() -> None:
    compiled = [ENGINE / f"{name}.py" for name in _native.MODULES]
    assert compiled
    assert [where for path in compiled for where in _handed_on_generator_expressions(path)] == []
