"""Compile an expression once, at spec load time, into a Python lambda over the hook's variables."""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from lark import Token, Tree

from .codegen import Compiler, position
from .origin import Origin
from .parser import CACHE_LIMIT, parse_cached
from .runtime import RuleRuntimeError, in_expression
from .wording import type_name

_RESULT_TYPES: Final[frozenset[str]] = frozenset({"int", "bool", "str"})

_CacheKey = tuple[str, frozenset[tuple[str, str]], tuple[tuple[str, str, Any], ...], str, Origin]
_cache: dict[_CacheKey, CompiledExpression] = {}


@dataclass(frozen=True)
class CompiledExpression:
    """An expression ready to run: call it (or ``fn``) on a dict of the hook's variables."""

    source: str
    python: str
    variables: frozenset[str]
    parameters: frozenset[str]
    #: The variables the compiled code reads: ``variables`` less those that folding parameters made moot
    #: (``allow_x and size > 3`` with ``allow_x = false`` reads nothing), which is what answers are cached on.
    reads: frozenset[str]
    result_type: str
    fn: Callable[[Mapping[str, Any]], Any]
    origin: Origin

    def __call__(self, v: Mapping[str, Any]) -> Any:
        """``fn(v)``, with a missing variable reported as a RuleRuntimeError naming the expression."""
        try:
            return self.fn(v)
        except KeyError as exc:
            missing = sorted(self.variables - set(v))
            if not missing:
                raise
            raise RuleRuntimeError(
                f"variable '{missing[0]}' was not supplied; " + in_expression(str(self.origin), self.source)
            ) from exc


def compile_expression(
    text: str,
    *,
    variables: Mapping[str, str],
    parameters: Mapping[str, tuple[str, Any]],
    expect: str,
    origin: Origin,
) -> CompiledExpression:
    """Parse, type-check and compile ``text``; ``parameters`` maps name -> (param type, value).

    Results are cached by the text, the variables, the values of the parameters the text mentions, the
    expected type and the origin, so that loading a spec again costs a few dictionary lookups per clause.
    """
    if expect not in _RESULT_TYPES:
        raise ValueError(f"expect must be one of {sorted(_RESULT_TYPES)}, not {expect!r}")
    tree, names = parse_cached(text, origin)
    _check_clashes(text, origin, tree, names, variables, parameters)
    used = sorted({str(name) for name in names if name in parameters})
    key: _CacheKey = (
        text,
        frozenset(variables.items()),
        tuple((name, parameters[name][0], _freeze(parameters[name][1])) for name in used),
        expect,
        origin,
    )
    compiled = _cache.get(key)
    if compiled is None:
        if len(_cache) >= CACHE_LIMIT:
            _cache.clear()
        compiled = _cache[key] = _compile(text, tree, names, variables, parameters, frozenset(used), expect, origin)
    return compiled


def _compile(
    text: str,
    tree: Tree[Token],
    names: tuple[Token, ...],
    variables: Mapping[str, str],
    parameters: Mapping[str, tuple[str, Any]],
    used: frozenset[str],
    expect: str,
    origin: Origin,
) -> CompiledExpression:
    """``compile_expression`` uncached; ``used`` are the parameters the text mentions."""
    compiler = Compiler(text, origin, variables, parameters)
    code = compiler.compile(tree)
    if code.type != expect:
        line, column = position(tree)
        raise origin.error(
            text,
            f"this rule must give {type_name(expect)}, but the expression gives {type_name(code.type)}",
            line,
            column,
        )
    python = f"lambda v: {code.text}"
    try:  # parse_expression keeps expressions within what Python compiles; this is a last guard
        syntax = ast.parse(python, mode="eval")  # parsed once: compiled, and searched for the variables it reads
        fn = eval(compile(syntax, f"<rule at {origin}>", "eval"), compiler.namespace)
    except (SyntaxError, RecursionError, MemoryError) as exc:
        line, column = position(tree)
        raise origin.error(
            text, f"the expression is too complex to compile ({exc}); simplify it", line, column
        ) from None
    return CompiledExpression(
        source=text,
        python=python,
        variables=frozenset(str(name) for name in names if name in variables),
        parameters=used,
        reads=_reads(syntax),
        result_type=code.type,
        fn=fn,
        origin=origin,
    )


def _reads(syntax: ast.Expression) -> frozenset[str]:
    """The variables generated code reads: every ``v["name"]`` left in it (the only way it reads one)."""
    return frozenset(
        node.slice.value
        for node in ast.walk(syntax)
        if isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == "v"
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    )


def _check_clashes(
    text: str,
    origin: Origin,
    tree: Tree[Token],
    names: tuple[Token, ...],
    variables: Mapping[str, str],
    parameters: Mapping[str, tuple[str, Any]],
) -> None:
    """A name that is both a hook variable and a parameter would be ambiguous: refuse it where it is used,
    or at the start of the expression if the expression does not use it."""
    clashes = variables.keys() & parameters.keys()
    if not clashes:
        return
    used = [token for token in names if str(token) in clashes]
    name = str(used[0]) if used else sorted(clashes)[0]
    line, column = position(used[0] if used else tree)
    raise origin.error(text, f"'{name}' is both a variable of this hook and a spec parameter", line, column)


def _freeze(value: Any) -> Any:
    """A hashable stand-in for a parameter value (lists, maps and tables are unhashable)."""
    if isinstance(value, dict):
        return tuple((key, _freeze(item)) for key, item in value.items())
    if isinstance(value, list | tuple):
        return tuple(_freeze(item) for item in value)
    return (type(value).__name__, value)
