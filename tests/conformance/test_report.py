"""What a run tells an engine's author: one summary (deviations by rule, else by cause; skips summed by reason),
every result with ``--verbose``, everything in the JSON report, and plain words for a broken handshake."""

from __future__ import annotations

from typing import Any

import pytest

from canasta_ref.conformance.engines import EngineFailure, InProcessEngine, engine_info
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
    assert [(f["step"], f["check"], f.get("notation")) for f in result.failures] == [(1, "rule", True)]


def test_a_real_failure_inside_a_notation_scenario_fails_it() -> None:
    """Negated, the clause lets both melds be laid at once (a difference of notation) but then refuses the single
    meld the scenario lays next: a refusal of a legal play, not a notation."""
    engine = InProcessEngine(ReferenceSession(mutate_rule="MELD.ONE_GROUP_AFTER_OPENING"))
    result = run_case(engine, bundled("one-meld-at-a-time-after-opening"), "classic")
    assert result.status == "failed"
    assert [(f["step"], f.get("notation", False)) for f in result.failures][:2] == [(1, True), (2, False)]
    assert not failed([run_case(InProcessEngine(), bundled("one-meld-at-a-time-after-opening"), "classic")])
