"""Where the generated pages are read from and written to: the repository's root and the files pages copy."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DOCS = ROOT / "docs"
MKDOCS_YML = ROOT / "mkdocs.yml"
PROTOCOL = ROOT / "conformance" / "PROTOCOL.md"
PROTOCOL_1 = ROOT / "conformance" / "PROTOCOL-1.md"
PROTOCOL_2 = ROOT / "conformance" / "PROTOCOL-2.md"
PROTOCOL_3 = ROOT / "conformance" / "PROTOCOL-3.md"
PROTOCOL_4 = ROOT / "conformance" / "PROTOCOL-4.md"
PROTOCOL_5 = ROOT / "conformance" / "PROTOCOL-5.md"
PROTOCOL_6 = ROOT / "conformance" / "PROTOCOL-6.md"
PROTOCOL_7 = ROOT / "conformance" / "PROTOCOL-7.md"
SCENARIO_SCHEMA = ROOT / "conformance" / "scenario.schema.json"
SPEC_SCHEMA = ROOT / "spec" / "schema.json"
REPORTS = ROOT / "conformance" / "reports"

# Repository files that pages link to, and where their copies live under docs/.
MIRRORS = {
    "spec/schema.json": "schemas/spec.schema.json",
    "conformance/scenario.schema.json": "schemas/scenario.schema.json",
}
