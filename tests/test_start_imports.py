"""What a process of ``serve`` or of a campaign imports at its start: not the test tools (Hypothesis), not the
scenario or report modules ``serve`` never uses, and, once the user's cache holds the bundled specs found sound,
not jsonschema. Each is a fixed cost of every engine start and every ``conform --games`` (see
tools/bench_generated.py); run in fresh processes, since this process has imported everything already."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TREE = Path(__file__).resolve().parents[1]
WATCHED = ("hypothesis", "jsonschema", "canasta_ref.conformance.scenario", "canasta_ref.conformance.report")

SERVE = """
import sys
from canasta_ref import cli
args = cli.build_parser().parse_args(["serve"])
from canasta_ref.conformance.session import ReferenceSession
ReferenceSession().handle({"cmd": "setup", "variant": "classic", "deck": "", "first_seat": 0})
"""
CAMPAIGN = """
import sys
from canasta_ref import cli
from canasta_ref.conformance import campaign, generated_game
from canasta_ref.spec import load_variant
load_variant("classic")
"""
REPORT = f"\nprint(','.join(m for m in {WATCHED!r} if m in sys.modules))\n"


def imported(code: str, cache: Path) -> list[str]:
    env = {**os.environ, "CANASTA_REF_CACHE": str(cache), "PYTHONPATH": str(TREE)}
    done = subprocess.run(
        [sys.executable, "-c", code + REPORT], capture_output=True, text=True, env=env, timeout=120, check=True
    )
    return [name for name in done.stdout.strip().split(",") if name]


def test_serve_starts_without_test_tools_scenarios_or_reports_and_jsonschema_once_cached(tmp_path: Path) -> None:
    assert imported(SERVE, tmp_path) == ["jsonschema"]  # the first start validates the spec texts
    assert imported(SERVE, tmp_path) == []


def test_a_campaign_starts_without_hypothesis_or_jsonschema_once_cached(tmp_path: Path) -> None:
    imported(CAMPAIGN, tmp_path)
    assert [name for name in imported(CAMPAIGN, tmp_path) if name in ("hypothesis", "jsonschema")] == []
