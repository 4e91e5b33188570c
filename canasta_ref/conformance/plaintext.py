"""Values in messages for people: cards as cards (``3D 9C``), nothing as ``none``, true and false as JSON writes
them; never Python's notation (``['3D']``, ``None``, ``False``)."""

from __future__ import annotations

import json
from typing import Any

#: How many characters of a value a message quotes.
SHOWN_CHARS = 200


def shown(value: Any, limit: int = SHOWN_CHARS) -> str:
    """``value`` as a message shows it, cut to ``limit`` characters: a word in quotes (so an engine's ``'false'``
    is told from false), a list of words (cards) as they are written, anything else as JSON."""
    text = _text(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
        return " ".join(value) if value else "nothing"
    try:
        return json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return f"a {type(value).__name__} that cannot be shown"


def plural(count: int) -> str:
    """The ending of a counted noun: "1 game", "2 games"."""
    return "" if count == 1 else "s"


__all__ = ["SHOWN_CHARS", "plural", "shown"]
