"""Checks of parameter values against their declared type, shared by declarations and a child's overrides.

A child's override carries no type, so these checks run once the declaration is known rather than in the
schema; the messages name the parameter and what its type expects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, get_args

from ..engine.numbers import SCORE_LIMIT
from .model import ParamType
from .wording import did_you_mean, found
from .yamldoc import NodePath

PARAM_TYPES: Final[tuple[str, ...]] = get_args(ParamType)

#: What is wrong, where: the path below the value, the message, and whether it points at the key at that path
#: (an unknown field) rather than at its value.
Problem = tuple[NodePath, str, bool]

_EXPECTED: Final[dict[str, str]] = {
    "int": "a whole number",
    "bool": "true or false",
    "str": "text",
    "list": "a list",
    "map": "a mapping",
    "table": "a list of rows, each with 'from' and 'value'",
}

_PLACEHOLDERS: Final[dict[str, Any]] = {
    "int": 0,
    "bool": False,
    "str": "",
    "list": [],
    "map": {},
    "table": [{"from": None, "value": 0}],
}


def placeholder(ptype: str, options: Mapping[str, Any]) -> Any:
    """A well-typed stand-in for a wrong value, so rules using the parameter can still be checked."""
    if ptype == "enum":
        return next(iter(options), "")
    return _PLACEHOLDERS[ptype]


#: The largest size of a number in a table: far beyond any score, and small enough to stay cheap.
TABLE_LIMIT: Final = SCORE_LIMIT


def value_problems(
    name: str, ptype: str, value: Any, options: Mapping[str, Any], bounds: tuple[int, int] | None = None
) -> list[Problem]:
    """What is wrong with ``value`` for a parameter of type ``ptype`` and, for an int, of range ``bounds``
    (see ``Problem``)."""
    if ptype == "enum":
        if isinstance(value, str) and value in options:
            return []
        choices = ", ".join(options)
        hint = did_you_mean(value, options) if isinstance(value, str) else ""
        message = f"value of parameter {name} must be one of its options: {choices}; not {found(value)}"
        return [((), message + hint, False)]
    if not _has_type(ptype, value):
        expected = f"{_EXPECTED[ptype]} (its type is {ptype})"
        return [((), f"value of parameter {name} must be {expected}, not {found(value)}", False)]
    if ptype == "table":
        return _table_problems(name, value)
    if ptype == "int" and bounds is not None and not bounds[0] <= value <= bounds[1]:
        low, high = bounds
        return [
            ((), f"value of parameter {name} must be from {low} to {high} (its declared range), not {value}", False)
        ]
    return []


def _has_type(ptype: str, value: Any) -> bool:
    if ptype == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if ptype == "table":
        return isinstance(value, list) and bool(value)
    python_type = {"bool": bool, "str": str, "list": list, "map": dict}[ptype]
    return isinstance(value, python_type)


def _table_problems(name: str, rows: list[Any]) -> list[Problem]:
    problems: list[Problem] = []
    previous: int | None = None
    for index, row in enumerate(rows):
        where = f"row {index + 1} of table {name}"
        if not isinstance(row, dict):
            problems.append(((index,), f"{where} must be a mapping of 'from' and 'value', not {found(row)}", False))
            continue
        for key in row:
            if key not in ("from", "value"):
                problems.append(((index, key), f"unknown field '{key}' in {where}; expected: from, value", True))
        for key in ("from", "value"):
            if key not in row:
                problems.append(((index,), f"{where} is missing required field '{key}'", False))
        start = row.get("from")
        at = (index, "from")
        if start is None:
            if "from" in row and index > 0:
                problems.append((at, f"only the first row of table {name} may start from null (-infinity)", False))
        elif not isinstance(start, int) or isinstance(start, bool):
            problems.append((at, f"'from' of {where} must be a whole number or null, not {found(start)}", False))
        elif abs(start) > TABLE_LIMIT:
            problems.append((at, f"'from' of {where} must be from -{TABLE_LIMIT} to {TABLE_LIMIT}, not {start}", False))
        else:
            if previous is not None and start <= previous:
                message = f"rows of table {name} must ascend: {where} starts at {start}, not above {previous}"
                problems.append((at, message, False))
            previous = start
        problems.extend(_row_value_problems(where, index, row.get("value")))
    return problems


def _row_value_problems(where: str, index: int, value: Any) -> list[Problem]:
    """A number in a table row is a score or a count: refuse one beyond TABLE_LIMIT."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > TABLE_LIMIT:
        message = f"'value' of {where} must be from -{TABLE_LIMIT} to {TABLE_LIMIT}, not {value}"
        return [((index, "value"), message, False)]
    return []
