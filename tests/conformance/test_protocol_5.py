"""Protocol version 5: a foot per seat (``feet`` in positions, ``foot_sizes`` in views), closed melds, and the
deal's number (``hand_number``), none of them ever sent to an engine speaking an older version."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from canasta_ref.conformance.engines import EngineInfo
from canasta_ref.conformance.runner import up_front_skip
from canasta_ref.conformance.scenario import load_scenarios
from canasta_ref.conformance.session import ReferenceSession, position_content_newer_than
from canasta_ref.conformance.views import conservation_problem, unknown_field_problem
from canasta_ref.engine.rules import rules_for
from canasta_ref.spec import load_variant

HANDS = ["KH KS KD", "4C 5C 6C", "4D 5D 6D", "4H 5H 6H"]
FEET = ["9C 9S 9D 8C 6S", "7C 7D 7H 8D 8H", "", ""]


def _session(protocol: int = 5) -> ReferenceSession:
    session = ReferenceSession()
    reply = session.handle({"id": 1, "cmd": "hello", "protocol": protocol, "protocols": list(range(1, protocol + 1))})
    assert reply["ok"] and reply["protocol"] == protocol
    return session


def _setup(session: ReferenceSession, **position: Any) -> dict[str, Any]:
    written = {"hands": HANDS, "pile": "7S", "melds": [["QH QS QD"], []], "melded": [True] * 4, "phase": "play"}
    written.update(position)
    return session.handle({"id": 2, "cmd": "setup", "variant": "hand-and-foot", "position": written})


def test_a_position_with_feet_shows_their_sizes_and_never_their_cards() -> None:
    session = _session()
    assert _setup(session, feet=FEET)["ok"]
    view = session.handle({"id": 3, "cmd": "view", "seat": 1})["view"]
    assert view["foot_sizes"] == [5, 5, 0, 0] and view["hand_sizes"] == [3, 3, 3, 3]
    assert unknown_field_problem(view) is None
    assert conservation_problem(view, 1, 270) is None
    shown = {card for card in view["hand"]} | {card for side in view["melds"] for m in side for card in m["cards"]}
    assert not shown & {"7C", "7D", "7H", "8D", "8H"}  # seat 1's own foot stays face down
    assert view["melds"][0][0]["closed"] is False  # a variant that closes melds says so of each


def test_melding_the_hand_away_picks_up_the_foot_over_the_protocol() -> None:
    session = _session()
    _setup(session, feet=FEET)
    reply = session.handle(
        {"id": 3, "cmd": "apply", "action": {"type": "meld", "melds": [{"cards": ["KH", "KS", "KD"]}]}}
    )
    assert reply["ok"] and reply["accepted"], reply
    view = session.handle({"id": 4, "cmd": "view", "seat": 0})["view"]
    assert view["foot_sizes"] == [0, 5, 0, 0] and sorted(view["hand"]) == sorted(["9C", "9S", "9D", "8C", "6S"])
    assert view["phase"] == "play" and view["to_act"] == 0


def test_feet_are_refused_in_a_variant_without_them() -> None:
    session = _session()
    reply = session.handle(
        {"id": 2, "cmd": "setup", "variant": "classic", "position": {"hands": ["4C", "4D", "4H", "4S"], "feet": ["5C"]}}
    )
    assert reply["ok"] is False and "classic deals no foot" in reply["error"]


@pytest.mark.parametrize("number, over", [(3, False), (4, True)])
def test_the_hand_number_decides_the_end_of_a_game_of_deals(number: int, over: bool) -> None:
    session = _session()
    hands = ["KH", "4C 5C 6C", "4D 5D 6D", "4H 5H 6H"]
    melds = [["QH QS QD QC QH QS QD", "JH JS JD JC JH JS JD", "10C 10D 10H 10S 2C 2D", "9C 9D 9H 9S 9C JK"]]
    melds[0] += ["8C 8D 8H 8S 2H 2S JK", "7C 7D 7H 7S 7C 2C JK", "2D 2H 2S JK JK JK 2C"]
    written: dict[str, Any] = {"hands": hands, "pile": "7S", "melds": [melds[0], []], "melded": [True] * 4}
    written.update(phase="play", hand_number=number)
    reply = session.handle({"id": 2, "cmd": "setup", "variant": "hand-and-foot", "position": written})
    assert reply["ok"], reply
    assert session.handle({"id": 3, "cmd": "apply", "action": {"type": "discard", "card": "KH"}})["accepted"]
    score = session.handle({"id": 4, "cmd": "score"})
    assert score["over"] and score["end"] == "went out" and score["match_over"] is over


@pytest.mark.parametrize("protocol", [3, 4, 5])
def test_feet_and_the_hand_number_are_sent_only_to_a_protocol_5_engine(protocol: int, tmp_path: Path) -> None:
    rules = rules_for(load_variant("hand-and-foot"))
    for written, named in (({"hands": HANDS, "feet": FEET}, "'feet'"), ({"hands": HANDS, "hand_number": 2}, None)):
        since, newer = position_content_newer_than(protocol, rules, written)
        if protocol == 5:
            assert (since, newer) == (0, [])
        else:
            assert since == 5 and newer == [named or "'hand_number'"]
    scenario_file = tmp_path / "with-a-foot.yaml"
    scenario_file.write_text(
        "scenario: 1\nid: with-a-foot\ntitle: A foot\nrules: [DEAL.FOOT]\nvariants: [hand-and-foot]\nlevel: must\n"
        "setup:\n  hand_number: 2\n  position:\n"
        '    hands: ["KH KS KD 4C", "4C 5C 6C", "4D 5D 6D", "4H 5H 6H"]\n'
        '    feet: ["9C 9S 9D 8C 6S", "", "", ""]\n    phase: play\n'
        "steps:\n  - action: discard 4C\n    expect: {result: accepted, over: false}\n",
        encoding="utf-8",
    )
    (scenario,) = load_scenarios([scenario_file])
    info = EngineInfo(protocol=protocol, variants=["hand-and-foot"], capabilities={"setup_position": True})
    skip = up_front_skip(info, scenario, "hand-and-foot")
    if protocol == 5:
        assert skip is None
    else:
        assert skip == (
            f"the engine speaks protocol {protocol}, whose set-ups have no 'feet' or 'hand_number' (version 5 added it)"
        )
