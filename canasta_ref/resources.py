"""Where the grammar, the bundled specs and the conformance suite live, in a source checkout or an installed wheel.

In a checkout they are the repository's folders; the wheel carries copies under ``canasta_ref/_data`` (see
``[tool.hatch.build.targets.wheel.force-include]`` in pyproject.toml), so an installed package runs the suite too.
"""

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


def conformance_dir() -> Path:
    """The folder holding the bundled scenarios, the deal-perft files and the scenario schema; found by the schema,
    as a folder named ``conformance`` beside an installed package may be another distribution's."""
    schema = "scenario.schema.json"
    return _first_existing(_REPO / "conformance" / schema, _PACKAGE / "_data" / "conformance" / schema).parent


def scenario_dir() -> Path:
    """The bundled scenarios."""
    return conformance_dir() / "scenarios"


def perft_dir() -> Path:
    """The bundled deal-perft files."""
    return conformance_dir() / "perft"


def scenario_schema_file() -> Path:
    """The JSON Schema every scenario file is checked against."""
    return conformance_dir() / "scenario.schema.json"


def not_inherited_file() -> Path:
    """The scenarios a variant does not inherit from the variant it extends, with the reason."""
    return conformance_dir() / "not-inherited.yaml"
