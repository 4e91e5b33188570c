"""Where the grammar and the bundled specs live, in a source checkout or in an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_REPO = _PACKAGE.parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.exists():
            return candidate
    return candidates[0]


def grammar_dir() -> Path:
    """The folder holding ``rules.lark``."""
    return _first_existing(_REPO / "grammar", _PACKAGE / "_data" / "grammar")


def spec_dir() -> Path:
    """The folder holding the bundled variant specs and their JSON Schema."""
    return _first_existing(_REPO / "spec", _PACKAGE / "_data" / "spec")
