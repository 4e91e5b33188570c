"""Refusing text that could drive a terminal: specs are printed (``canasta-ref rules``, error snippets), and a
stranger's spec must not be able to clear the screen or disguise a rule by what it prints."""

from __future__ import annotations

import re
from typing import Any

from ..errors import BIDI_CONTROLS, SpecError, visible
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


#: The characters ``is_control`` names (category Cc is exactly U+0000-U+001F and U+007F-U+009F, then the
#: bidirectional controls), less the layout characters: one regular-expression search a string, since every
#: string of every spec is looked at on each load.
_CONTROL_CODES = (*range(0x20), *range(0x7F, 0xA0), *map(ord, BIDI_CONTROLS))
_UNSAFE = re.compile("[" + "".join(f"\\u{code:04x}" for code in _CONTROL_CODES if chr(code) not in _ALLOWED) + "]")


def _first_control(text: str) -> str | None:
    found = _UNSAFE.search(text)
    return found.group() if found else None


def _message(text: str) -> str:
    char = _first_control(text) or ""
    return f"text must not contain control characters (found {visible(char)}); only newlines and tabs are allowed"
