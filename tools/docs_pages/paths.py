"""Where the generated pages are read from and written to: the repository's root and the files pages copy."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DOCS = ROOT / "docs"
MKDOCS_YML = ROOT / "mkdocs.yml"
PROTOCOL = ROOT / "conformance" / "PROTOCOL.md"
SCENARIO_SCHEMA = ROOT / "conformance" / "scenario.schema.json"
SPEC_SCHEMA = ROOT / "spec" / "schema.json"
REPORTS = ROOT / "conformance" / "reports"

# Repository files that pages link to, and where their copies live under docs/.
MIRRORS = {
    "spec/schema.json": "schemas/spec.schema.json",
    "conformance/scenario.schema.json": "schemas/scenario.schema.json",
}
