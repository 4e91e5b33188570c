"""Phrases for spec error messages, so that every check names things the same way a spec author reads them."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from ..errors import found as found  # where every spec message says what a value is
from .yamldoc import NodePath


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` when a choice is close to ``word``, else the empty string."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def one_of(choices: Iterable[str]) -> str:
    return ", ".join(sorted(choices)) or "(none)"


def noun(path: NodePath, data: Any) -> str:
    """What the object at ``path`` is: ``rule MELD.MIN_CARDS``, ``parameter hand_size``, ``the variant``."""
    if not path:
        return "the variant"
    *parent, last = path
    head = tuple(parent)
    if head == ("rules",) and isinstance(last, int):
        rule = _at(data, path)
        rule_id = rule.get("id") if isinstance(rule, dict) else None
        return f"rule {rule_id}" if isinstance(rule_id, str) else f"rule #{last + 1}"
    if head == ("parameters",):
        return f"parameter {last}"
    if head == ("sources",):
        return f"source {last}"
    if len(head) == 3 and head[0] == "parameters" and head[2] == "options":
        return f"option '{last}' of parameter {head[1]}"
    if isinstance(last, int):
        return f"item {last + 1} of {field(head, data)}"
    return field(path, data)


def field(path: NodePath, data: Any) -> str:
    """A value inside an object: ``'title' of rule MELD.MIN_CARDS``; items of a list by number."""
    if not path:
        return "the variant"
    *parent, last = path
    if isinstance(last, int):
        return noun(path, data)
    if len(parent) == 0:
        return f"'{last}'"
    return f"'{last}' of {noun(tuple(parent), data)}"


def _at(data: Any, path: NodePath) -> Any:
    for key in path:
        if isinstance(data, dict) and isinstance(key, str):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and key < len(data):
            data = data[key]
        else:
            return None
    return data
