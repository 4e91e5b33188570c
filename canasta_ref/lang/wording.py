"""English names for terminals and types, so that no message ever shows a token name like ``RPAR``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from lark import Token

#: How each terminal of ``grammar/rules.lark`` is called in "expected ..." lists (a test checks coverage).
TERMINALS: Final[dict[str, str]] = {
    "INT": "a number",
    "NAME": "a name",
    "STRING": "a string",
    "TRUE": "'true'",
    "FALSE": "'false'",
    "LSQB": "'['",
    "LPAR": "'('",
    "MINUS": "'-'",
    "NOT": "'not'",
    "IF": "'if'",
    "PLUS": "'+'",
    "STAR": "'*'",
    "EQ": "'=='",
    "NE": "'!='",
    "LT": "'<'",
    "LE": "'<='",
    "GT": "'>'",
    "GE": "'>='",
    "IN": "'in'",
    "AND": "'and'",
    "OR": "'or'",
    "THEN": "'then'",
    "ELSE": "'else'",
    "RPAR": "')'",
    "RSQB": "']'",
    "COMMA": "','",
    "$END": "the end of the expression",
    "COMMENT": "a comment",
    "WS": "a space",
}

#: The order in which expected terminals are listed: operands first, closers last.
_ORDER: Final[tuple[str, ...]] = tuple(TERMINALS)

#: Binary operators; when most are acceptable they are summed up as "an operator".
OPERATORS: Final[frozenset[str]] = frozenset(
    {"PLUS", "MINUS", "STAR", "EQ", "NE", "LT", "LE", "GT", "GE", "IN", "AND", "OR"}
)
COMPARISONS: Final[frozenset[str]] = frozenset({"EQ", "NE", "LT", "LE", "GT", "GE"})
_OPERAND_STARTS: Final[frozenset[str]] = frozenset({"INT", "NAME", "STRING", "TRUE", "FALSE", "IF"})

_TYPES: Final[dict[str, str]] = {
    "int": "a number",
    "bool": "a yes/no value",
    "str": "a string",
    "list[int]": "a list of numbers",
    "list[str]": "a list of strings",
    "list[]": "an empty list",
    "map": "a map",
    "table": "a table",
}


def type_name(type_: str) -> str:
    """'a number', 'a yes/no value', ... for a type of the language."""
    return _TYPES.get(type_, f"a value of type {type_}")


def join_or(items: Iterable[str]) -> str:
    """'a, b or c'."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def expected(terminals: Iterable[str]) -> str:
    """The acceptable terminals in words, with most binary operators summed up as 'an operator'."""
    names = set(terminals)
    words: list[str] = []
    if len(names & OPERATORS) >= 3 and not names & _OPERAND_STARTS:
        names -= OPERATORS | {"NOT"}  # after an operand, 'not' can only begin 'not in'
        words.append("an operator")
    words += [TERMINALS[name] for name in _ORDER if name in names]
    words += sorted(name for name in names if name not in TERMINALS)
    return join_or(words)


def token_name(token: Token) -> str:
    """How an unexpected token is named: "name 'sise'", "number 3", "')'", "end of expression"."""
    kind = token.type
    if kind == "$END":
        return "end of expression"
    if kind == "NAME":
        return f"name '{token.value}'"
    if kind == "INT":
        return f"number {token.value}"
    if kind == "STRING":
        return f"string {token.value}"
    return TERMINALS.get(kind, repr(str(token.value)))
