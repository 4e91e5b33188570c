"""What a run tells an engine's author: one summary (deviations by rule, else by cause; skips summed by reason),
every result with ``--verbose``, everything in the JSON report, and plain words for a broken handshake."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from canasta_ref.conformance import causes
from canasta_ref.conformance.deviations import DeviationKey
from canasta_ref.conformance.engines import EngineFailure, InProcessEngine, engine_info
from canasta_ref.conformance.generated import run_generated_games
from canasta_ref.conformance.report import failed
from canasta_ref.conformance.runner import run_case
from canasta_ref.conformance.scenario import Scenario, load_scenarios, scenario_dir
from canasta_ref.conformance.session import ReferenceSession


def hello(**fields: Any) -> dict[str, Any]:
    reply = ReferenceSession().handle({"cmd": "hello", "protocol": 1})
    reply.update(fields)
    return reply


@pytest.mark.parametrize(
    ("reply", "says"),
    [
        ({"ok": True}, "its hello answer has no protocol version (a field 'protocol' giving 1 or 2 was expected)"),
        (
            hello(protocol=None),
            "its hello answer has no protocol version (a field 'protocol' giving 1 or 2 was expected)",
        ),
        (hello(protocol="two"), "its hello answer gives the protocol version as 'two', not a number (1 or 2)"),
        (hello(protocol=9), "the engine speaks protocol 9, not 1 or 2"),
    ],
    ids=["ok alone", "null", "a word", "too new"],
)
def test_a_hello_without_a_version_it_can_speak_is_said_in_plain_words(reply: dict[str, Any], says: str) -> None:
    with pytest.raises(EngineFailure) as failure:
        engine_info(reply, protocols=(1, 2))
    assert failure.value.detail == says
    assert "None" not in failure.value.detail


# -- a notation scenario: only its notation may differ --------------------------------------------------------


def bundled(scenario_id: str) -> Scenario:
    (loaded,) = load_scenarios([scenario_dir() / f"{scenario_id}.yaml"])
    return loaded


class CitesNoSuchRule(InProcessEngine):
    """The reference, citing a rule of its own for every refusal."""

    def receive(self) -> list[dict[str, Any]]:
        return [{**r, "rule": "NO.SUCH.RULE"} if r.get("accepted") is False else r for r in super().receive()]


def test_a_notation_scenario_whose_notation_alone_differs_differs() -> None:
    result = run_case(CitesNoSuchRule(), bundled("one-meld-at-a-time-after-opening"), "classic")
    assert result.status == "differs"
    assert [(f["step"], f["check"], f.get("implementation_defined")) for f in result.failures] == [(1, "rule", True)]


def test_a_real_failure_inside_a_notation_scenario_fails_it() -> None:
    """Negated, the clause lets both melds be laid at once (a difference of notation) but then refuses the single
    meld the scenario lays next: a refusal of a legal play, not a notation."""
    engine = InProcessEngine(ReferenceSession(mutate_rule="MELD.ONE_GROUP_AFTER_OPENING"))
    result = run_case(engine, bundled("one-meld-at-a-time-after-opening"), "classic")
    assert result.status == "failed"
    assert [(f["step"], f.get("implementation_defined", False)) for f in result.failures][:2] == [(1, True), (2, False)]
    assert not failed([run_case(InProcessEngine(), bundled("one-meld-at-a-time-after-opening"), "classic")])


# -- a failure goes under the rule the check names, else under its cause ---------------------------------------


class SeatsTurned(InProcessEngine):
    """The reference, whose views number the seats one further round the table: seat 0 sees seat 1's hand,
    the hand sizes and bonus cards by seat turned round, and whose turn it is one seat back."""

    asked: list[Mapping[str, Any]]

    def send(self, messages: Iterable[Mapping[str, Any]]) -> None:
        messages = list(messages)
        self.asked = [*getattr(self, "asked", []), *messages]
        super().send([self._turned(m) for m in messages])

    def receive(self) -> list[dict[str, Any]]:
        replies = super().receive()
        asked, self.asked = self.asked[: len(replies)], self.asked[len(replies) :]
        return [self._renumbered(m, r) for m, r in zip(asked, replies, strict=True)]

    def forget(self) -> None:
        self.asked = []
        super().forget()

    def _players(self) -> int:
        return self.session.game.rules.players if self.session.game is not None else 4

    def _turned(self, message: Mapping[str, Any]) -> Mapping[str, Any]:
        if message.get("cmd") != "view":
            return message
        return {**message, "seat": (int(message["seat"]) + 1) % self._players()}

    def _renumbered(self, message: Mapping[str, Any], reply: dict[str, Any]) -> dict[str, Any]:
        view = reply.get("view")
        if message.get("cmd") != "view" or not isinstance(view, dict):
            return reply
        turned = {key: view[key][1:] + view[key][:1] for key in ("hand_sizes", "bonus_cards")}
        to_act = (view["to_act"] - 1) % self._players()
        return {**reply, "view": {**view, **turned, "seat": message["seat"], "to_act": to_act}}


def test_a_seat_numbering_difference_is_its_cause_not_a_guessed_rule() -> None:
    report = run_generated_games(SeatsTurned(), 2, 0, variants=["classic"], shrink_seconds=1, max_shrunk=0)
    keys = {d.key for d in report.deviations}
    assert keys == {DeviationKey("view", None, None, causes.SEAT_NUMBERING)}, keys
    (deviation,) = report.deviations
    assert deviation.to_json()["cause"] == "view: seat numbering"
    assert "hand" in deviation.message


@pytest.mark.parametrize(
    ("key", "wanted", "got", "renumbered"),
    [
        ("hand_sizes", [11, 12, 11, 11], [12, 11, 11, 11], True),
        ("hand_sizes", [11, 12, 11, 11], [11, 11, 11, 13], False),
        ("hand", ["4C", "KD"], ["5H", "9S"], True),
        ("hand", ["4C", "KD"], ["4C", "QD"], False),
        ("stock_size", 61, 62, False),
    ],
)
def test_seat_numbering_is_told_from_a_field_that_differs_otherwise(
    key: str, wanted: Any, got: Any, renumbered: bool
) -> None:
    hands = [["4C", "KD"], ["5H", "9S"], ["2C", "3D"], ["AS", "AH"]]
    expected = causes.SEAT_NUMBERING if renumbered else f"view: '{key}' differs"
    assert causes.view_cause(key, wanted, got, hands) == expected


class RefusesMeldsCiting(InProcessEngine):
    """The reference, refusing every meld (citing ``rule``, when one is given)."""

    def __init__(self, rule: str | None) -> None:
        self.rule = rule
        super().__init__()

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        action = message.get("action")
        if message.get("cmd") == "apply" and isinstance(action, dict) and action.get("type") == "meld":
            refusal: dict[str, Any] = {"ok": True, "accepted": False, "message": "no melds today"}
            return {**refusal, "rule": self.rule} if self.rule else refusal
        return super().request(message)


@pytest.mark.parametrize(
    ("cited", "rule", "cause"),
    [
        ("MELD.MAX_WILDS", "MELD.MAX_WILDS", "verdict: refuses `meld` actions the reference accepts"),
        (None, None, "verdict: refuses `meld` actions the reference accepts"),
        ("NO.SUCH.RULE", None, "verdict: refuses `meld` actions the reference accepts"),
    ],
    ids=["a rule of the variant", "no rule", "a rule the variant has not"],
)
def test_a_legal_play_refused_goes_under_the_engines_rule_else_its_cause(
    cited: str | None, rule: str | None, cause: str
) -> None:
    result = run_case(RefusesMeldsCiting(cited), bundled("a-turn-ends-with-a-discard"), "classic")
    first = result.failures[0]
    assert (first["check"], first["rule"], first["cause"]) == ("verdict", rule, cause)


def test_a_refusal_expected_goes_under_its_rule() -> None:
    engine = InProcessEngine(ReferenceSession(mutate_rule="PILE.TAKE.FROZEN"))
    result = run_case(engine, bundled("frozen-pile-needs-natural-pair"), "classic")
    assert result.failures[0]["rule"] == "PILE.TAKE.FROZEN"
    assert result.failures[0]["cause"] == "verdict: accepts `take` actions the reference refuses"
