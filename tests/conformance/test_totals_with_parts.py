"""A scenario that checks score parts also checks the totals, so an engine that reports totals only (its parts
skipped) cannot pass it with wrong totals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from broken_engines.kit import reference_command, run_conform

ROOT = Path(__file__).resolve().parents[2]
#: Its only score expectation is parts: 100 for going out to North-South.
PARTS_ONLY = ROOT / "conformance" / "scenarios" / "adding-to-partners-meld-is-not-concealed.yaml"


def run(engine: str, tmp_path: Path) -> dict[str, Any]:
    _, _, report = run_conform("--timeout", "60", "--impl", engine, "--scenarios", str(PARTS_ONLY), cwd=tmp_path)
    result: dict[str, Any] = report["results"][0]
    return result


def test_totals_only_with_wrong_totals_fails_a_parts_scenario(tmp_path: Path) -> None:
    engine = reference_command("--score-totals-only", "--mutate-parameter", "going_out_bonus=150")
    result = run(engine, tmp_path)
    assert result["status"] == "failed"
    assert "scores should be [755, -35], got [805, -35]" in str(result["message"])


def test_totals_only_with_right_totals_is_partial(tmp_path: Path) -> None:
    result = run(reference_command("--score-totals-only"), tmp_path)
    assert result["status"] == "partial", result
