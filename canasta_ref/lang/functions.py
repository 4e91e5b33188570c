"""The built-in functions and map subscripts, whose arguments are checked against the spec's parameters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from lark import Token, Tree

from .code import Builder, Code
from .runtime import ParameterMap, no_band, shown
from .values import literal, uniform_kind
from .wording import type_name

FUNCTIONS: Final[tuple[str, ...]] = ("abs", "lookup", "max", "min")

#: The functions generated code calls by name (``lookup`` is compiled inline): its namespace holds them, and
#: calls on constants are folded with them.
BUILTINS: Final[dict[str, Callable[..., int]]] = {"abs": abs, "max": max, "min": min}


def call(compiler: Builder, tree: Tree[Token], name: Token, args: list[Tree[Token]]) -> Code:
    """``abs(x)``, ``min(a, b, ...)``, ``max(a, b, ...)`` or ``lookup(table, x)``."""
    function = str(name)
    if function not in FUNCTIONS:
        known = ", ".join(FUNCTIONS)
        if function in compiler.variables or function in compiler.parameters:
            compiler.fail(f"'{function}' is not a function; known functions: {known}", name)
        compiler.fail(f"unknown function '{function}'; known functions: {known}", name)
    if function == "lookup":
        if len(args) != 2:
            compiler.fail(f"lookup takes 2 arguments (a table and a number), got {len(args)}", name)
        return _lookup(compiler, tree, args[0], args[1])
    if function == "abs" and len(args) != 1:
        compiler.fail(f"abs takes 1 argument, got {len(args)}", name)
    if function in ("min", "max") and len(args) < 2:
        compiler.fail(f"{function} takes 2 or more arguments, got {len(args)}", name)
    codes = [compiler.want(compiler.compile(arg), "int") for arg in args]
    if all(code.is_const for code in codes):
        return compiler.constant(BUILTINS[function](*(code.const for code in codes)), "int", tree)
    return compiler.code(f"{function}({', '.join(code.text for code in codes)})", "int", tree)


def _lookup(compiler: Builder, tree: Tree[Token], table_arg: Tree[Token], x_arg: Tree[Token]) -> Code:
    """The value of the band whose lower bound is the greatest one <= x, as a chain of conditionals."""
    rule = "the first argument of lookup must be a table parameter"
    if table_arg.data != "name":
        compiler.fail(rule, table_arg)
    token = table_arg.children[0]
    assert isinstance(token, Token)
    rows = compiler.parameter(token, "table", rule)
    bands, kind = _bands(compiler, token, rows)
    x = compiler.want(compiler.compile(x_arg), "int")
    floor = bands[0][1] if bands[0][0] is None else None
    bounded = [(bound, value) for bound, value in bands if bound is not None]
    if x.is_const:
        matching = [value for bound, value in bounded if bound <= x.const]
        if matching:
            return compiler.constant(matching[-1], kind, tree)
        if floor is None:
            first = bounded[0][0]
            compiler.fail(f"table '{token}' has no band for {x.const} (its first band starts at {first})", x_arg)
        return compiler.constant(floor, kind, tree)
    if not bounded:
        return compiler.constant(floor, kind, tree)
    local = compiler.fresh("x")
    if floor is None:
        fail = compiler.fresh("no_band_")
        compiler.namespace[fail] = no_band(str(token), bounded[0][0], compiler.where(tree), compiler.text)
        fallback = f"{fail}({local})"
    else:
        fallback = literal(floor)
    parts = []
    for index, (bound, value) in enumerate(reversed(bounded)):
        tested = f"({local} := {x.text})" if index == 0 else local
        parts.append(f"{literal(value)} if {tested} >= {literal(bound)} else ")
    return compiler.code("(" + "".join(parts) + fallback + ")", kind, tree)


def _bands(compiler: Builder, token: Token, rows: Any) -> tuple[list[tuple[Any, Any]], str]:
    """(lower bound or None, value) per band and the values' type.

    The shape of the rows (a 'from' and a 'value' each, ascending whole-number bounds, only the first one
    open) is checked with the parameter's value (``spec.params.value_problems``); only the kind of the values
    is left to check here.
    """
    bands: list[tuple[Any, Any]] = [(row["from"], row["value"]) for row in rows]
    kind = uniform_kind([value for _, value in bands])
    if kind not in ("int", "str"):
        compiler.fail(f"table '{token}' is malformed: its values must be all numbers or all strings", token)
    assert kind is not None
    return bands, kind


def subscript(compiler: Builder, tree: Tree[Token], base: Token, key_node: Tree[Token] | Token) -> Code:
    """``name[key]`` on a map parameter: folded for a constant key, else a lookup that names the rule if
    the key is missing at run time."""
    name = str(base)
    values = compiler.parameter(base, "map", "only a map parameter can be subscripted")
    if not isinstance(values, dict) or not values:
        compiler.fail(f"map '{name}' is empty", base)
    key_type = uniform_kind(values)
    value_type = uniform_kind(values.values())
    if key_type not in ("int", "str") or value_type not in ("int", "str", "bool"):
        compiler.fail(f"map '{name}' must have keys of one kind and values of one kind", base)
    key = compiler.compile(key_node)
    if key.type != key_type:
        compiler.fail(f"expected {type_name(key_type)} as a key of '{name}', got {type_name(key.type)}", key)
    if key.is_const:
        if key.const not in values:
            known = ", ".join(shown(k) for k in values)
            compiler.fail(f"map '{name}' has no key {shown(key.const)}; its keys are {known}", key)
        return compiler.constant(values[key.const], value_type, tree)
    slot = compiler.fresh(f"{name}_")
    compiler.namespace[slot] = ParameterMap(name, values, compiler.where(tree), compiler.text)
    return compiler.code(f"{slot}[{key.text}]", value_type, tree)
