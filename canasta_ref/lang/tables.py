"""Lark's LALR tables of the rules grammar, kept in the user's cache folder (``usercache``) as JSON.

Building the parser (reading the grammar, then computing its LALR tables) is most of a spec's first load in a new
process; every ``canasta-ref serve`` and ``conform`` pays it. Lark's own cache pickles into the shared temporary
folder; this one writes Lark's serialised form as JSON, its tuples and non-text keys tagged, under a digest of
Lark's version, Python's and the grammar's text, and reads it back without pickle. An entry that does not load is
ignored and written again.
"""

from __future__ import annotations

import platform
from collections.abc import Callable
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from .. import usercache

#: The folder of the cache where the tables are kept.
KIND = "lark-tables"


def cached_parser(grammar: str, build: Callable[[], Lark]) -> Lark:
    """The parser of ``grammar`` from its cached tables, or ``build()`` (and its tables then stored)."""
    key = usercache.digest(lark.__version__, platform.python_version(), grammar)
    stored = usercache.read_entry(KIND, key)
    if stored is not None:
        try:
            return loaded(stored)
        except Exception:  # a damaged or foreign entry is a miss, never an error
            pass
    parser = build()
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    usercache.write_entry(KIND, key, tagged([data, memo]))
    return parser


def loaded(stored: Any) -> Lark:
    """The parser whose tables ``stored`` holds, as ``cached_parser`` wrote them; raises if it holds none."""
    data, memo = untagged(stored)
    parser: Lark = Lark._load_from_dict(data, memo)  # type: ignore[no-untyped-call]
    return parser


def tagged(value: Any) -> Any:
    """``value`` as JSON that keeps what JSON loses: a tuple is ``{"t": [...]}``, a dict ``{"d": [[k, v], ...]}``."""
    if isinstance(value, dict):
        return {"d": [[tagged(key), tagged(item)] for key, item in value.items()]}
    if isinstance(value, tuple):
        return {"t": [tagged(item) for item in value]}
    if isinstance(value, list):
        return [tagged(item) for item in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"cannot keep a {type(value).__name__} in the cache")


def untagged(value: Any) -> Any:
    """The value ``tagged`` wrote; ValueError for anything it cannot have written."""
    if isinstance(value, list):
        return [untagged(item) for item in value]
    if isinstance(value, dict):
        if set(value) == {"t"} and isinstance(value["t"], list):
            return tuple(untagged(item) for item in value["t"])
        if set(value) == {"d"} and isinstance(value["d"], list):
            return {untagged(key): untagged(item) for key, item in value["d"]}
        raise ValueError("not a tagged value")
    return value
