"""A seat's score part by part: where each player keeps a score of their own (three players), the score answer's
``seat_parts`` give what each seat gains, its side's parts and its own, and a scenario's ``score.seats`` is
checked against them; an engine speaking a version before 8 has those checks skipped, with the reason."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.runner import NO_SEAT_PARTS, apply_request, run_case, setup_message
from canasta_ref.conformance.scenario import Scenario, load_scenarios
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.engine.actions import parse_action
from canasta_ref.resources import spec_dir

SCENARIOS = spec_dir().parent / "conformance" / "scenarios"
SEATS = SCENARIOS / "three-players-one-seats-score-part-by-part.yaml"


def _scenario(path: Path) -> Scenario:
    return load_scenarios([path])[0]


def _score_after(scenario: Scenario, variant: str, protocol: int = 8) -> dict[str, Any]:
    """The score answer of a session speaking ``protocol`` once the scenario's actions are played."""
    session = ReferenceSession()
    session.handle({"id": 1, "cmd": "hello", "protocol": protocol, "protocols": list(range(1, protocol + 1))})
    assert session.handle(setup_message(scenario, variant))["ok"]
    for step in scenario.steps:
        assert session.handle(apply_request(parse_action(step.action)))["ok"]
    return session.handle({"id": 2, "cmd": "score"})


def test_each_seats_parts_add_up_to_its_total() -> None:
    reply = _score_after(_scenario(SEATS), "classic-3p")
    assert [sum(parts.values()) for parts in reply["seat_parts"]] == reply["totals"] == [760, 90, 960]
    assert [parts["SCORE.RED_THREES.OWN"] for parts in reply["seat_parts"]] == [0, 100, 200]


def test_sides_that_score_alone_give_no_seat_parts() -> None:
    reply = _score_after(_scenario(SCENARIOS / "concealed-going-out-needs-no-minimum.yaml"), "classic")
    assert reply["ok"] and "seat_parts" not in reply


def test_a_session_speaking_version_7_gives_no_seat_parts() -> None:
    reply = _score_after(_scenario(SEATS), "classic-3p", protocol=7)
    assert reply["ok"] and "seat_parts" not in reply


class _SpeaksSeven(ReferenceSession):
    """The reference answering every hello in version 7, before seat parts."""

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "hello":
            request = {**request, "protocol": 7, "protocols": list(range(1, 8))}
        return super().handle(request)


def test_a_wrong_seat_part_fails_naming_the_seat(tmp_path: Path) -> None:
    wrong = tmp_path / SEATS.name
    wrong.write_text(SEATS.read_text().replace("SCORE.RED_THREES.OWN: 200", "SCORE.RED_THREES.OWN: 100"))
    result = run_case(InProcessEngine(), _scenario(wrong), "classic-3p")
    assert result.status == "failed"
    assert "seat 2 should score 100 for SCORE.RED_THREES.OWN, got 200" in result.message


def test_an_engine_before_version_8_skips_the_seat_checks_with_the_reason() -> None:
    engine = InProcessEngine(_SpeaksSeven())
    assert engine.info.protocol == 7
    result = run_case(engine, _scenario(SEATS), "classic-3p")
    assert result.status == "partial", result.message
    assert NO_SEAT_PARTS in result.message
