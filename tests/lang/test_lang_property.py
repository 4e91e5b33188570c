"""Random expressions compile to code that agrees with a direct evaluation of the same expression tree.

Expressions are rendered with the fewest parentheses the precedence table allows, so the property also checks
that the grammar's precedence and associativity are the documented ones.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_ref.lang import Origin, compile_expression

VARIABLES = {"a": "int", "b": "int", "c": "int"}
PARAMETERS: dict[str, tuple[str, Any]] = {"k": ("int", 7), "on": ("bool", True)}
ORIGIN = Origin("property.yaml", 1, 1)

# Binding strength of each form: an operand of lower strength than its slot needs parentheses.
IF, OR, AND, NOT, COMPARE, SUM, PRODUCT, UNARY, ATOM = range(9)
Node = tuple[Any, ...]

ints = st.deferred(lambda: int_exprs)
bools = st.deferred(lambda: bool_exprs)

int_leaves = st.one_of(
    st.integers(min_value=0, max_value=30).map(lambda n: ("num", n)),
    st.sampled_from(["a", "b", "c", "k"]).map(lambda name: ("var", name)),
)
int_exprs: st.SearchStrategy[Node] = st.recursive(
    int_leaves,
    lambda sub: st.one_of(
        st.tuples(st.sampled_from(["+", "-", "*"]), sub, sub),
        st.tuples(st.just("neg"), sub),
        st.tuples(st.sampled_from(["min", "max"]), st.lists(sub, min_size=2, max_size=3)),
        st.tuples(st.just("abs"), sub),
        st.tuples(st.just("if"), bools, sub, sub),
    ),
    max_leaves=12,
)
bool_exprs: st.SearchStrategy[Node] = st.recursive(
    st.one_of(
        st.sampled_from([("bool", True), ("bool", False), ("var", "on")]),
        st.tuples(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), ints, ints),
        st.tuples(st.sampled_from(["in", "not in"]), ints, st.lists(ints, max_size=3)),
    ),
    lambda sub: st.one_of(
        st.tuples(st.sampled_from(["and", "or"]), sub, sub),
        st.tuples(st.just("not"), sub),
        st.tuples(st.just("if"), sub, sub, sub),
    ),
    max_leaves=8,
)


def render(node: Node, need: int = IF) -> str:
    """The expression's text; parenthesised only when its strength is below ``need``."""
    text, strength = _render(node)
    return f"({text})" if strength < need else text


def _render(node: Node) -> tuple[str, int]:
    kind = node[0]
    if kind == "num":
        return str(node[1]), ATOM
    if kind == "var":
        return node[1], ATOM
    if kind == "bool":
        return ("true" if node[1] else "false"), ATOM
    if kind in ("+", "-"):
        return f"{render(node[1], SUM)} {kind} {render(node[2], PRODUCT)}", SUM
    if kind == "*":
        return f"{render(node[1], PRODUCT)} * {render(node[2], UNARY)}", PRODUCT
    if kind == "neg":
        return f"- {render(node[1], UNARY)}", UNARY
    if kind in ("min", "max"):
        return f"{kind}({', '.join(render(arg) for arg in node[1])})", ATOM
    if kind == "abs":
        return f"abs({render(node[1])})", ATOM
    if kind == "if":
        return f"if {render(node[1])} then {render(node[2])} else {render(node[3])}", IF
    if kind in ("and", "or"):
        strength = AND if kind == "and" else OR
        return f"{render(node[1], strength)} {kind} {render(node[2], strength + 1)}", strength
    if kind == "not":
        return f"not {render(node[1], NOT)}", NOT
    if kind in ("in", "not in"):
        items = ", ".join(render(item) for item in node[2])
        return f"{render(node[1], SUM)} {kind} [{items}]", COMPARE
    return f"{render(node[1], SUM)} {kind} {render(node[2], SUM)}", COMPARE


def evaluate(node: Node, env: dict[str, Any]) -> Any:
    """The obvious meaning of the tree, in Python."""
    kind = node[0]
    if kind in ("num", "bool"):
        return node[1]
    if kind == "var":
        return env[node[1]]
    if kind == "neg":
        return -evaluate(node[1], env)
    if kind == "abs":
        return abs(evaluate(node[1], env))
    if kind in ("min", "max"):
        values = [evaluate(arg, env) for arg in node[1]]
        return min(values) if kind == "min" else max(values)
    if kind == "if":
        return evaluate(node[2], env) if evaluate(node[1], env) else evaluate(node[3], env)
    if kind == "not":
        return not evaluate(node[1], env)
    if kind == "and":
        return evaluate(node[1], env) and evaluate(node[2], env)
    if kind == "or":
        return evaluate(node[1], env) or evaluate(node[2], env)
    if kind in ("in", "not in"):
        found = evaluate(node[1], env) in [evaluate(item, env) for item in node[2]]
        return found if kind == "in" else not found
    left, right = evaluate(node[1], env), evaluate(node[2], env)
    operations = {
        "+": left + right if kind == "+" else None,
        "-": left - right if kind == "-" else None,
        "*": left * right if kind == "*" else None,
        "==": left == right,
        "!=": left != right,
        "<": left < right,
        "<=": left <= right,
        ">": left > right,
        ">=": left >= right,
    }
    return operations[kind]


envs = st.fixed_dictionaries({name: st.integers(min_value=-50, max_value=50) for name in ("a", "b", "c")})


def check(node: Node, expect: str, env: dict[str, int]) -> None:
    text = render(node)
    compiled = compile_expression(text, variables=VARIABLES, parameters=PARAMETERS, expect=expect, origin=ORIGIN)
    full = {**env, **{name: value for name, (_, value) in PARAMETERS.items()}}
    assert compiled(env) == evaluate(node, full), (text, compiled.python)
    assert compiled.result_type == expect


@settings(max_examples=300, deadline=None)
@given(int_exprs, envs)
def test_integer_expressions_agree_with_python(node: Node, env: dict[str, int]) -> None:
    check(node, "int", env)


@settings(max_examples=300, deadline=None)
@given(bool_exprs, envs)
def test_boolean_expressions_agree_with_python(node: Node, env: dict[str, int]) -> None:
    check(node, "bool", env)
