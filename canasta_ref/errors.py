"""The errors the interpreter raises; all subclass ValueError, as python-chess does."""

from __future__ import annotations

from dataclasses import dataclass


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
        if self.snippet is None or self.location is None:
            return head
        caret = " " * (self.location.column - 1) + "^"
        return f"{head}\n  {self.snippet}\n  {caret}"


class IllegalAction(CanastaError):
    """An action the rules refuse; ``rule_id`` names the clause it breaks."""

    def __init__(self, rule_id: str, message: str) -> None:
        self.rule_id = rule_id
        self.explanation = message
        super().__init__(f"{message} [{rule_id}]")
