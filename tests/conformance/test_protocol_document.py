"""conformance/PROTOCOL.md keeps its promises to a stranger: its example session is what the reference answers
today, and its minimal engine is run by the suite with nothing but the four requests it names."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from broken_engines.kit import engine_command, run_conform

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "conformance" / "PROTOCOL.md"


def test_the_example_session_is_what_the_reference_answers_today(load_tool: Callable[[str], ModuleType]) -> None:
    tool = load_tool("protocol_transcript")
    document = PROTOCOL.read_text(encoding="utf-8")
    assert tool.replaced(document, tool.transcript()) == document, "run python tools/protocol_transcript.py --write"


def test_the_example_session_shows_every_request_a_full_engine_answers(load_tool: Callable[[str], ModuleType]) -> None:
    tool = load_tool("protocol_transcript")
    commands = {request["cmd"] for request in tool.REQUESTS}
    assert commands >= {"hello", "setup", "legal", "apply", "view", "score", "quit"}
    answers = [json.loads(line[2:]) for line in tool.transcript().splitlines() if line.startswith("< ")]
    assert [answer["id"] for answer in answers] == [request["id"] for request in tool.REQUESTS]
    verdicts = [answer["accepted"] for answer in answers if "accepted" in answer]
    assert True in verdicts and False in verdicts, "the session shows an accepted and a refused action"


def test_a_stale_example_session_is_found(load_tool: Callable[[str], ModuleType]) -> None:
    tool = load_tool("protocol_transcript")
    document = PROTOCOL.read_text(encoding="utf-8")
    stale = document.replace('"rule": "B3.BLOCKS_PILE"', '"rule": "PILE.TAKE.FROZEN"', 1)
    assert stale != document
    assert tool.replaced(stale, tool.transcript()) != stale


def test_the_minimal_engine_is_sent_only_the_four_requests_and_is_tested(tmp_path: Path) -> None:
    log = tmp_path / "requests.log"
    code, printed, report = run_conform(
        "--impl", engine_command("minimal", "--log", str(log)), "--variant", "classic", "--games", "2", cwd=tmp_path
    )
    assert code == 0, printed[-3000:]
    sent = set(log.read_text(encoding="utf-8").split("\n")) - {""}
    assert sent == {"hello", "setup", "apply", "quit"}
    counts = report["counts"]
    assert counts.get("passed", 0) >= 2 and not counts.get("failed"), counts
