"""A parameter value as people read it, shared by the rulebook, ``diff`` and ``explain``: never Python's notation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def value_text(value: Any) -> str:
    """A parameter value as short text for people: a table as its bands (``below 0: 15; from 0: 50``), a list
    comma-separated, a map as ``key value`` pairs, nothing as ``none``; never Python's notation."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        if value and all(isinstance(row, dict) and "from" in row for row in value):
            return "; ".join(f"{_band(value, i)}: {value_text(row['value'])}" for i, row in enumerate(value))
        return ", ".join(value_text(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {value_text(v)}" for k, v in value.items())
    return str(value)


def _band(table: Sequence[Any], index: int) -> str:
    start = table[index]["from"]
    if start is not None:
        return f"from {start}"
    return f"below {table[index + 1]['from']}" if index + 1 < len(table) else "always"
