"""Where an expression sits in its spec file, so that errors point into the file, not into the expression."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Location, SpecError


@dataclass(frozen=True)
class Origin:
    """The position of an expression's first character in its file.

    ``indent`` is for multi-line text (a YAML block scalar): lines after the first start at that 1-based
    column of the file. Without it they are taken to start at column 1.
    """

    file: str
    line: int
    column: int
    indent: int | None = None

    def locate(self, text: str, line: int, column: int) -> tuple[Location, str]:
        """The file location of 1-based ``line``/``column`` inside ``text``, and that file line as a snippet.

        The snippet is the expression's line padded on the left to its column in the file (the text before
        the expression is not known), so that the caret SpecError draws lands under the right character.
        """
        lines = text.split("\n")
        index = min(max(line, 1), len(lines)) - 1
        start = self.column if index == 0 else (self.indent or 1)
        location = Location(self.file, self.line + index, start + column - 1)
        snippet = (" " * (start - 1) + lines[index]).rstrip()
        return location, snippet

    def error(self, text: str, message: str, line: int = 1, column: int = 1) -> SpecError:
        """A SpecError for ``message`` at a position inside ``text``."""
        location, snippet = self.locate(text, line, column)
        return SpecError(message, location, snippet)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"
