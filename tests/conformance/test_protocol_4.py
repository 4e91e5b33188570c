"""Protocol version 4: counting and sampling the legal actions without listing them (``count``, ``sample``, and
``legal`` with a ``limit``), refused to a session that speaks an older version."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from canasta_ref import Game, Rules, load_variant
from canasta_ref.conformance import generated
from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.generated import run_generated_games
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.engine.actions import action_from_json
from canasta_ref.scaling import scaling_position

RULES = Rules(load_variant("classic"))


def _session(protocol: int, *, absent: tuple[str, ...] = ()) -> ReferenceSession:
    session = ReferenceSession(absent_features=absent)
    reply = session.handle({"id": 1, "cmd": "hello", "protocol": protocol, "protocols": list(range(1, protocol + 1))})
    assert reply["ok"] and reply["protocol"] == protocol
    assert reply["capabilities"].get("sample", False) is (protocol >= 4)
    session.game = Game(RULES, seed=3)  # as a ``setup`` from the deck of seed 3 would deal it
    return session


def _big(session: ReferenceSession) -> None:
    """Seat 0 of a position with 30 cards, side not opened, in the draw phase: 163,470 legal actions."""
    session.game = scaling_position(RULES, 30, opened=False, phase="draw")


def test_count_is_the_length_of_the_listing() -> None:
    session = _session(4)
    listed = session.handle({"id": 3, "cmd": "legal"})["actions"]
    assert session.handle({"id": 4, "cmd": "count"}) == {"ok": True, "count": len(listed)}


def test_count_and_sample_of_a_huge_listing() -> None:
    session = _session(4)
    _big(session)
    count = session.handle({"id": 3, "cmd": "count"})["count"]
    assert count == 163_470
    reply = session.handle({"id": 4, "cmd": "sample", "n": 20, "seed": 5})
    assert reply["ok"] and reply["count"] == count and len(reply["actions"]) == 20
    game = session.game
    assert game is not None
    for raw in reply["actions"]:
        assert game.is_legal(action_from_json(raw)), raw
    again = session.handle({"id": 5, "cmd": "sample", "n": 20, "seed": 5})
    assert again["actions"] == reply["actions"], "the same seed draws the same actions"
    other = session.handle({"id": 6, "cmd": "sample", "n": 20, "seed": 6})
    assert other["actions"] != reply["actions"]


def test_legal_with_a_limit_answers_the_count_when_the_list_is_longer() -> None:
    session = _session(4)
    short = session.handle({"id": 3, "cmd": "legal", "limit": 5000})
    assert "actions" in short and "truncated" not in short
    _big(session)
    assert session.handle({"id": 4, "cmd": "legal", "limit": 5000}) == {"ok": True, "count": 163_470, "truncated": True}


def test_absent_features_are_neither_counted_nor_drawn() -> None:
    session = _session(4, absent=("ask",))
    listed = session.handle({"id": 3, "cmd": "legal"})["actions"]
    assert all(a["type"] not in ("ask", "yes", "no") for a in listed)
    assert session.handle({"id": 4, "cmd": "count"})["count"] == len(listed)
    drawn = session.handle({"id": 5, "cmd": "sample", "n": 200, "seed": 1})["actions"]
    assert drawn and all(a["type"] not in ("ask", "yes", "no") for a in drawn)


@pytest.mark.parametrize("protocol", [1, 2, 3])
@pytest.mark.parametrize("request_", [{"cmd": "count"}, {"cmd": "sample", "n": 1}])
def test_an_older_session_refuses_them(protocol: int, request_: dict[str, Any]) -> None:
    reply = _session(protocol).handle({"id": 9, **request_})
    assert reply["ok"] is False and f"a request of protocol 4; this session speaks {protocol}" in reply["error"]


def test_an_older_session_ignores_a_limit() -> None:
    session = _session(3)
    session.game = scaling_position(RULES, 11, opened=False, phase="play")
    reply = session.handle({"id": 3, "cmd": "legal", "limit": 0})
    assert "actions" in reply and "truncated" not in reply


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({"cmd": "sample", "n": 0}, "'n'"),
        ({"cmd": "sample", "n": 10_001}, "'n'"),
        ({"cmd": "sample", "n": "3"}, "'n'"),
        ({"cmd": "sample", "seed": 1.5}, "'seed'"),
        ({"cmd": "legal", "limit": -1}, "'limit'"),
        ({"cmd": "legal", "limit": True}, "'limit'"),
    ],
)
def test_bad_fields_are_refused_naming_the_field(request_: dict[str, Any], field: str) -> None:
    reply = _session(4).handle({"id": 9, **request_})
    assert reply["ok"] is False and f"field {field}" in reply["error"]


class CountsOneTooMany(ReferenceSession):
    """Answers a ``legal`` past its limit with one action too many."""

    def _cmd_legal(self, request: Mapping[str, Any]) -> dict[str, Any]:
        reply = super()._cmd_legal(request)
        if reply.get("truncated"):
            reply["count"] += 1
        return reply


@pytest.fixture
def low_limit() -> Iterator[None]:
    saved = generated.LEGAL_LIMIT[0]
    generated.LEGAL_LIMIT[0] = 3
    try:
        yield
    finally:
        generated.LEGAL_LIMIT[0] = saved


def test_generated_games_compare_a_long_listing_by_its_count(low_limit: None) -> None:
    sound = run_generated_games(InProcessEngine(), 3, 0, variants=["classic"], probes=5, max_shrunk=0)
    assert not sound.deviations, sound.report_lines()
    wrong = run_generated_games(InProcessEngine(CountsOneTooMany()), 3, 0, variants=["classic"], probes=5, max_shrunk=0)
    assert any(d.key.check == "legal" for d in wrong.deviations), wrong.report_lines()
