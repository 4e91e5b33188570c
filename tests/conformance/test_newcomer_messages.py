"""What the runner says to a newcomer whose engine slips in the shape of an answer: each message names the request,
the field and what was expected, in plain words (no Python form of the answer), and blames no rule of the game."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from broken_engines.kit import KIT_VARIANTS, engine_command, run_conform, write_scenarios

from canasta_ref.conformance.campaign import run_generated_games
from canasta_ref.conformance.engines import (
    EngineFailure,
    InProcessEngine,
    SubprocessEngine,
    engine_info,
    error_text,
)
from canasta_ref.conformance.report import engine_line
from canasta_ref.conformance.runner import Result, Selection, run_case
from canasta_ref.conformance.scenario import load_scenarios
from canasta_ref.conformance.session import ReferenceSession

HELLO: dict[str, Any] = {"ok": True, "name": "stranger", "protocol": 8, "variants": ["classic"]}
DRAW = {"cmd": "apply", "action": {"type": "draw"}}


def answer_to_draw(*extra: str) -> dict[str, Any]:
    """The careless engine's answer to a draw before any set-up (the reference refuses it, ``ok: false``)."""
    engine = SubprocessEngine(engine_command("careless", *extra))
    try:
        return engine.request(DRAW)
    finally:
        engine.close()


def test_an_answer_carrying_another_id_names_the_request_it_answers() -> None:
    with pytest.raises(EngineFailure) as failure:
        answer_to_draw("--wrong-id")
    assert failure.value.kind == "protocol"
    assert failure.value.detail.startswith("the answer to 'apply' (request 2) carries id 3: "), failure.value.detail


def test_an_answer_carrying_its_own_id_is_read() -> None:
    assert answer_to_draw()["ok"] is False  # the reference's own answer (no set-up yet), with no word before it


def test_a_misspelt_capability_fails_the_start_naming_it() -> None:
    with pytest.raises(EngineFailure) as failure:
        engine_info({**HELLO, "capabilities": {"rule_id": True}})
    detail = failure.value.detail
    assert "'capabilities' name 'rule_id', which the protocol does not define" in detail, detail
    assert "rule_ids" in detail and "x-..." in detail


def test_every_capability_of_the_protocol_and_an_engines_own_are_taken() -> None:
    capabilities = {"rule_ids": True, "sample": False, "absent_features": ["ask"], "x-threads": 4}
    info = engine_info({**HELLO, "capabilities": capabilities})
    assert info.can("rule_ids") and info.absent_features == {"ask"}


def test_version_1_still_ignores_the_keys_it_does_not_know() -> None:
    info = engine_info({**HELLO, "protocol": 1, "capabilities": {"rule_id": True}})
    assert not info.can("rule_ids")


def test_an_engine_that_gives_no_version_is_named_without_one() -> None:
    assert engine_line(engine_info(HELLO)) == "engine: stranger (protocol 8)"
    assert engine_line(engine_info({**HELLO, "version": "1.2"})) == "engine: stranger 1.2 (protocol 8)"


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        ({"ok": False, "error": "no such deck"}, "no such deck"),
        ({"ok": False}, "ok: false with no 'error' (a sentence saying why was expected)"),
        ({"ok": False, "error": {"code": 7}}, "ok: false with an 'error' that is not a sentence: {\"code\": 7}"),
    ],
)
def test_an_error_is_quoted_as_the_engine_said_it_or_its_absence_said(reply: dict[str, Any], said: str) -> None:
    assert error_text(reply) == said


class SilentRefusal(ReferenceSession):
    """The reference, except that it refuses every set-up with ``ok: false`` and no ``error``."""

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "setup":
            return {"ok": False}
        return super().handle(request)


def seeded_turn_order(folder: Path, session: ReferenceSession) -> Result:
    """The small suite's scenario of one rule (TURN.ORDER), dealt from a seed, against ``session``."""
    write_scenarios(folder, ("seeded-turn-order",))
    ((scenario, variant),) = Selection(variants=KIT_VARIANTS).cases(load_scenarios([folder]))
    return run_case(InProcessEngine(session), scenario, variant)


def test_a_refused_set_up_is_said_plainly_and_filed_under_no_rule(tmp_path: Path) -> None:
    result = seeded_turn_order(tmp_path, SilentRefusal())
    assert result.status == "failed"
    (failure,) = [failure for failure in result.failures if failure["check"] == "setup"]
    assert failure["message"] == "setup refused: ok: false with no 'error' (a sentence saying why was expected)"
    assert failure["rule"] is None  # not the scenario's TURN.ORDER: a set-up refused breaks no rule of the game
    assert failure["cause"] == "setup: the engine refuses the set-up"


def test_the_same_scenario_set_up_as_asked_passes(tmp_path: Path) -> None:
    assert seeded_turn_order(tmp_path, ReferenceSession()).status == "passed"


class CapitalisedVariant(ReferenceSession):
    """The reference, except that its hello lists ``Classic`` (a variant id is in lower case)."""

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        reply = super().handle(request)
        return {**reply, "variants": ["Classic"]} if request.get("cmd") == "hello" else reply


def test_a_run_that_plays_no_game_names_the_variants_the_engine_listed() -> None:
    report = run_generated_games(InProcessEngine(CapitalisedVariant()), 1, 0, variants=["classic"])
    (result,) = report.results
    assert result.status == "skipped"
    assert result.message == "the engine plays none of: classic (the variants its hello lists: Classic)"


class IgnoresTheSeat(ReferenceSession):
    """The reference, except that it plays every action for the seat to act, whatever ``seat`` it is sent."""

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        return super().handle({key: value for key, value in request.items() if key != "seat"})


def test_a_step_out_of_turn_says_which_seat_played_it_and_which_was_to_act(tmp_path: Path) -> None:
    result = seeded_turn_order(tmp_path, IgnoresTheSeat())
    assert result.status == "failed"
    assert result.message.startswith(
        "step 1 `draw` by seat 2 (seat 0 is to act): expected refused by TURN.ORDER, got accepted"
    ), result.message


class RefusesEveryDraw(ReferenceSession):
    """The reference, except that it refuses every draw, citing no rule."""

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "apply" and request.get("action", {}).get("type") == "draw":
            return {"ok": True, "accepted": False, "rule": None, "message": "No drawing today."}
        return super().handle(request)


def test_a_step_by_the_seat_to_act_is_not_said_to_be_out_of_turn(tmp_path: Path) -> None:
    result = seeded_turn_order(tmp_path, RefusesEveryDraw())
    messages = {failure["step"]: failure["message"] for failure in result.failures}
    assert messages[1].startswith("step 1 `draw` by seat 2 (seat 0 is to act): "), messages
    assert messages[2].startswith("step 2 `draw`: expected accepted, got refused"), messages


def test_a_word_of_the_engines_own_on_its_output_is_said_to_belong_on_stderr(tmp_path: Path) -> None:
    code, printed, report = run_conform(
        "--impl", engine_command("careless", "--banner"), "--variant", "classic", "--games", "1", cwd=tmp_path
    )
    assert code == 1, printed
    (result,) = report["results"]
    assert result["message"] == (
        "the engine did not start: not JSON: 'careless engine ready', as the answer to 'hello' (standard output "
        "carries nothing but answers, a JSON object a line: write anything else to stderr)"
    ), result["message"]
