"""Parameter values as the language sees them: their types, and how they are written into Python source."""

from __future__ import annotations

from typing import Any, Final


class _NotConstant:
    """The marker for 'value not known at load time' (None and False are legitimate constants)."""

    def __repr__(self) -> str:
        return "NOT_CONSTANT"


NOT_CONSTANT: Final = _NotConstant()

_PARAM_TYPES: Final[dict[str, str]] = {
    "int": "a number parameter",
    "bool": "a yes/no parameter",
    "str": "a string parameter",
    "enum": "an enum parameter",
    "list": "a list parameter",
    "map": "a map parameter",
    "table": "a table parameter",
}


def param_type_name(ptype: str) -> str:
    return _PARAM_TYPES.get(ptype, f"a parameter of type {ptype}")


def scalar_kind(value: Any) -> str | None:
    """'int', 'bool' or 'str' for a Python value, None for anything else (bool is not an int here)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    return None


def uniform_kind(values: Any) -> str | None:
    """The one scalar kind shared by all ``values``; '' when there are none, None when they are mixed."""
    kinds = {scalar_kind(value) for value in values}
    if not kinds:
        return ""
    if len(kinds) == 1:
        return kinds.pop()
    return None


def kind_of(value: Any, ptype: str) -> str | None:
    """The language type of a scalar or list parameter's value; None if the value does not fit ``ptype``."""
    if ptype in ("int", "bool", "str", "enum"):
        kind = scalar_kind(value)
        return kind if kind == {"enum": "str"}.get(ptype, ptype) else None
    if ptype == "list" and isinstance(value, list | tuple):
        element = uniform_kind(value)
        return f"list[{element}]" if element in ("", "int", "str") else None
    return None


def literal(value: Any) -> str:
    """Python source for a constant: ``3``, ``'K'``, ``True``, ``(1, 2)``."""
    return repr(value)
