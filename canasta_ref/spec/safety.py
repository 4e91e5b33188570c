"""Refusing text that could drive a terminal: specs are printed (``canasta-ref rules``, error snippets), and a
stranger's spec must not be able to clear the screen or disguise a rule by what it prints."""

from __future__ import annotations

from typing import Any

from ..errors import SpecError, is_control, visible
from .yamldoc import Document, NodePath

#: Layout characters that text fields may hold: YAML block scalars end their lines with newlines.
_ALLOWED = "\n\t"


def control_character_errors(doc: Document) -> list[SpecError]:
    """One error for each key or string of ``doc`` holding a control character, at that key or string."""
    errors: list[SpecError] = []
    pending: list[tuple[NodePath, Any]] = [((), doc.data)]
    while pending:
        path, value = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and _first_control(key) is not None:
                    errors.append(doc.error((*path, key), _message(key), key=True))
                pending.append(((*path, key), item))
        elif isinstance(value, list):
            pending.extend(((*path, index), item) for index, item in enumerate(value))
        elif isinstance(value, str) and _first_control(value) is not None:
            errors.append(doc.error(path, _message(value)))
    return errors


def _first_control(text: str) -> str | None:
    return next((char for char in text if is_control(char) and char not in _ALLOWED), None)


def _message(text: str) -> str:
    char = _first_control(text) or ""
    return f"text must not contain control characters (found {visible(char)}); only newlines and tabs are allowed"
