"""A scenario that checks score parts also checks the totals, so an engine that reports totals only (its parts
skipped) cannot pass it with wrong totals."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from broken_engines.kit import CANASTA_REF_PATH, reference_command

ROOT = Path(__file__).resolve().parents[2]
#: Its only score expectation is parts: 100 for going out to North-South.
PARTS_ONLY = ROOT / "conformance" / "scenarios" / "adding-to-partners-meld-is-not-concealed.yaml"


def run(engine: str, tmp_path: Path) -> dict[str, object]:
    report = tmp_path / "report.json"
    options = ["--no-progress", "--timeout", "60", "--scenarios", str(PARTS_ONLY), "--json", str(report)]
    done = subprocess.run(
        [CANASTA_REF_PATH, "conform", "--impl", engine, *options],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode in (0, 1), done.stderr
    result: dict[str, object] = json.loads(report.read_text(encoding="utf-8"))["results"][0]
    return result


def test_totals_only_with_wrong_totals_fails_a_parts_scenario(tmp_path: Path) -> None:
    engine = reference_command("--score-totals-only", "--mutate-parameter", "going_out_bonus=150")
    result = run(engine, tmp_path)
    assert result["status"] == "failed"
    assert "scores should be [755, -35], got [805, -35]" in str(result["message"])


def test_totals_only_with_right_totals_is_partial(tmp_path: Path) -> None:
    result = run(reference_command("--score-totals-only"), tmp_path)
    assert result["status"] == "partial", result
