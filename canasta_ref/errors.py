"""The errors the interpreter raises; all subclass ValueError, as python-chess does."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any


def is_control(char: str) -> bool:
    """Whether ``char`` can drive a terminal or hide text: a C0/C1 control, DEL, or a bidirectional override."""
    return unicodedata.category(char) == "Cc" or char in BIDI_CONTROLS


BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def visible(text: str, keep: str = "") -> str:
    """``text`` with every control character except those in ``keep`` written as an escape (``\\x1b``), so
    that printing a message about a hostile file cannot move the cursor or clear the screen."""
    return "".join(_escape(char) if is_control(char) and char not in keep else char for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


@dataclass(frozen=True)
class Location:
    """A place in a source file, 1-based, for messages of the form ``file:line:col``."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class CanastaError(ValueError):
    """Base class of every error this package raises on bad input."""


class NotationError(CanastaError):
    """A card or action written in the notation could not be read."""

    def __init__(self, message: str, text: str = "", position: int | None = None) -> None:
        self.text = text
        self.position = position
        if position is not None and text:
            caret = " " * position + "^"
            message = f"{message}\n  {text}\n  {caret}"
        super().__init__(message)


class SpecError(CanastaError):
    """A spec file (or a rule expression in it) is wrong; the message names file, line and column."""

    def __init__(self, message: str, location: Location | None = None, snippet: str | None = None) -> None:
        self.location = location
        self.reason = message
        self.snippet = snippet
        super().__init__(self._render())

    def _render(self) -> str:
        head = f"{self.location}: {self.reason}" if self.location else self.reason
        head = visible(head, keep="\n\t")
        if self.snippet is None or self.location is None:
            return head
        before = visible(self.snippet[: self.location.column - 1], keep="\t")
        caret = " " * len(before) + "^"
        shown = visible(self.snippet, keep="\t")
        return f"{head}\n  {shown}\n  {caret}"


class IllegalAction(CanastaError):
    """An action the rules refuse; ``rule_id`` names the clause it breaks."""

    def __init__(self, rule_id: str, message: str) -> None:
        self.rule_id = rule_id
        self.explanation = message
        super().__init__(f"{message} [{rule_id}]")


def found(value: Any) -> str:
    """What a value is, in words: ``the text 'eleven'``, ``the number 11``, ``a list``."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{value}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"
