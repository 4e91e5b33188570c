"""tools/bench_abuse.py measures what it says: two of its cases, run as the tool runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[2] / "tools" / "bench_abuse.py"


def test_the_abuse_benchmark_reports_time_memory_and_the_message(tmp_path: Path) -> None:
    figures = tmp_path / "abuse.json"
    done = subprocess.run(
        [sys.executable, str(TOOL), "--only", "check: alias bomb", "--json", str(figures)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (case,) = json.loads(figures.read_text(encoding="utf-8"))
    assert case["name"].startswith("check: alias bomb") and case["status"] == 1
    assert "too many values once its aliases are expanded" in case["output"]
    assert 5 < case["peak_mib"] < 1024 and 0 < case["seconds"] < 60
    assert "peak MiB" in done.stdout.splitlines()[0]


def test_a_case_over_its_limit_fails_the_benchmark() -> None:
    done = subprocess.run(
        [sys.executable, str(TOOL), "--only", "8 MiB file", "--limit-mib", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1 and done.stdout.rstrip().endswith("OVER"), done.stdout
