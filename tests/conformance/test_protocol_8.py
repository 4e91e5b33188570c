"""Protocol version 8: special hands (Modern American's straight, pairs, garbage...) and keeping a three for one.
The action ``declare``, an optional feature an engine may declare absent, and a view's ``special_hand``; an engine
without it is never sent a declaration nor offered one in ``legal``, and a scenario that declares is skipped for it.
A turn may wait for a player to keep a bonus card or lay them out (phase ``keep``): an engine speaking version 7 or
older is not run in a variant where that happens (Modern American)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from broken_engines.kit import CANASTA_REF_PATH

from canasta_ref.conformance.engines import InProcessEngine, engine_info
from canasta_ref.conformance.runner import run_case, up_front_skip
from canasta_ref.conformance.scenario import Scenario, load_scenarios
from canasta_ref.conformance.session import FEATURE_SINCE, ReferenceSession, features_newer_than, variant_newer_than
from canasta_ref.conformance.variants import reference_rules
from canasta_ref.conformance.views import view_problem
from canasta_ref.engine.actions import action_from_json, parse_action

MAC = "modern-american"
STRAIGHT = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3S 2C JK"
#: North has drawn and holds a straight; North-South have not melded.
POSITION: dict[str, Any] = {
    "hands": [
        STRAIGHT,
        "4C 5C 6S 8D 9D 10D QC KC 7C 4D 5D 6D 7D",
        "8C 9S JD JC 4S 7S 4H 10C 6C 5S 8S 9C QD",
        "5H 10S AC KS QS JS 10S 9H 8H 7S 6S AS AD",
    ],
    "pile": "KD",
    "to_act": 0,
    "phase": "play",
}
DECLARE = {"type": "declare", "hand": "straight"}
#: Modern American's deck: two packs and four jokers.
DECK_SIZE = 108
#: North's hand, as the view lays it down: in card order.
LAID_DOWN = ["2C", "3S", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "JK"]

SCENARIO = """scenario: 1
id: declares-a-straight
title: "Modern American: a straight is declared"
description: North has drawn and holds a straight, which North declares.
rules: [SPECIAL.STRAIGHT, SCORE.SPECIAL_HAND]
variants: [modern-american]
level: must
setup:
  position:
    hands:
      - "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3S 2C JK"
      - "4C 5C 6S 8D 9D 10D QC KC 7C 4D 5D 6D 7D"
      - "8C 9S JD JC 4S 7S 4H 10C 6C 5S 8S 9C QD"
      - "5H 10S AC KS QS JS 10S 9H 8H 7S 6S AS AD"
    pile: "KD"
    to_act: 0
    phase: play
steps:
  - action: declare straight
    expect:
      result: accepted
      over: true
      end: "special hand"
      score:
        parts:
          - {SCORE.SPECIAL_HAND: 3000}
      view: {seat: 2, special_hand: {seat: 0, hand: straight, cards: "JK AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3S 2C"}}
"""


def _hello(protocol: int) -> dict[str, Any]:
    return {"id": 1, "cmd": "hello", "protocol": protocol, "protocols": list(range(1, protocol + 1))}


def _session(protocol: int = 8, absent: frozenset[str] = frozenset()) -> ReferenceSession:
    session = ReferenceSession(absent_features=absent)
    reply = session.handle(_hello(protocol))
    assert reply["ok"] and reply["protocol"] == protocol
    assert session.handle({"cmd": "setup", "variant": MAC, "position": POSITION}) == {"ok": True}
    return session


NO_DECLARE = frozenset({"declare"})


class Recording(ReferenceSession):
    """The reference answering every hello in ``protocol``, without the features ``absent``, keeping every request
    it is sent."""

    def __init__(self, protocol: int, absent: frozenset[str] = frozenset()) -> None:
        super().__init__(absent_features=absent)
        self.protocol = protocol
        self.requests: list[dict[str, Any]] = []

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        self.requests.append(json.loads(json.dumps(request)))
        if request.get("cmd") == "hello":
            request = {**request, **_hello(self.protocol)}
        return super().handle(request)


def _scenario(tmp_path: Path, text: str = SCENARIO) -> Scenario:
    path = tmp_path / "declares-a-straight.yaml"
    path.write_text(text, encoding="utf-8")
    (scenario,) = load_scenarios([path])
    return scenario


# -- the handshake ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hello", "spoken"),
    [(_hello(8), 8), (_hello(7), 7), ({"protocol": 8}, 8), ({"protocol": 9, "protocols": [6, 7, 9]}, 7)],
    ids=["up to 8", "up to 7", "8 alone", "7 of 6, 7 and 9"],
)
def test_hello_negotiates_version_8(hello: dict[str, Any], spoken: int) -> None:
    reply = ReferenceSession().handle({"id": 1, "cmd": "hello", **hello})
    assert reply["ok"] and reply["protocol"] == spoken


def test_declare_is_a_version_8_feature() -> None:
    assert FEATURE_SINCE["declare"] == 8
    assert "declare" in features_newer_than(7) and "declare" not in features_newer_than(8)
    older = engine_info(ReferenceSession().handle(_hello(7)))
    assert older.protocol == 7 and "declare" in older.absent_features and older.lacks_action("declare")
    newer = engine_info(ReferenceSession().handle(_hello(8)))
    assert newer.protocol == 8 and not newer.absent_features and not newer.lacks_action("declare")
    # A version-7 engine is not run in Modern American, where a turn may wait for a three to be kept.
    assert variant_newer_than(7, reference_rules(MAC)) == 8 and variant_newer_than(8, reference_rules(MAC)) == 0


# -- the action ------------------------------------------------------------------------------------------------
def test_a_declaration_is_the_same_in_text_and_json() -> None:
    assert parse_action("declare straight").to_json() == DECLARE
    assert action_from_json(DECLARE) == parse_action("declare straight")
    assert parse_action("declare wild_pairs").to_json() == {"type": "declare", "hand": "wild_pairs"}


def test_a_variant_without_special_hands_refuses_a_declaration_by_a_rule() -> None:
    session = ReferenceSession()
    session.handle(_hello(8))
    assert session.handle({"cmd": "setup", "variant": "classic", "position": POSITION})["ok"]
    reply = session.handle({"cmd": "apply", "action": DECLARE})
    assert (reply["accepted"], reply["rule"]) == (False, "TURN.NO_SPECIAL_HANDS")


def test_speaking_8_a_straight_is_listed_declared_and_scored() -> None:
    session = _session(8)
    assert DECLARE in session.handle({"cmd": "legal"})["actions"]
    assert view_problem(session.handle({"cmd": "view", "seat": 0})["view"], 0, DECK_SIZE, 4) is None
    assert session.handle({"cmd": "apply", "action": DECLARE}) == {"ok": True, "accepted": True}
    for seat in range(4):
        view = session.handle({"cmd": "view", "seat": seat})["view"]
        assert (view["phase"], view["end"]) == ("over", "special hand")
        assert view["special_hand"] == {"seat": 0, "hand": "straight", "cards": LAID_DOWN}
        assert sorted(view["special_hand"]["cards"]) == sorted(STRAIGHT.split())
        assert view["hand_sizes"][0] == 0
        assert view_problem(view, seat, DECK_SIZE, 4) is None  # the 14 cards laid down count
    score = session.handle({"cmd": "score"})
    assert (score["over"], score["end"]) == (True, "special hand")
    assert score["totals"][0] == 3000 and score["parts"][0] == {"SCORE.SPECIAL_HAND": 3000}
    assert "SCORE.CARDS_IN_HAND" in score["parts"][1]  # the other side scores as usual


def test_without_the_feature_a_declaration_is_neither_listed_nor_accepted() -> None:
    session = _session(absent=NO_DECLARE)
    listed = session.handle({"cmd": "legal"})["actions"]
    assert listed and all(a["type"] != "declare" for a in listed)
    drawn = session.handle({"cmd": "sample", "n": 200, "seed": 3})["actions"]
    assert all(a["type"] != "declare" for a in drawn)
    reply = session.handle({"cmd": "apply", "action": DECLARE})
    assert (reply["ok"], reply["accepted"], reply["rule"]) == (True, False, None)
    assert "no 'declare' action" in reply["message"]
    view = session.handle({"cmd": "view", "seat": 0})["view"]
    assert view["phase"] == "play" and view["end"] is None and "special_hand" not in view
    # The refusal left the hand as it was: the session with the feature declares from the same position.
    assert _session(8).handle({"cmd": "apply", "action": DECLARE})["accepted"] is True


def test_without_the_feature_the_count_leaves_declarations_out() -> None:
    """`count` and `sample`'s count are the length of the listing without declarations, as `legal` is."""
    session = _session(absent=NO_DECLARE)
    listed = session.handle({"cmd": "legal"})["actions"]
    assert session.handle({"cmd": "count"})["count"] == len(listed)
    assert session.handle({"cmd": "sample", "n": 1})["count"] == len(listed)
    plain = _session(8)
    assert plain.handle({"cmd": "count"})["count"] == len(listed) + 1


def test_canasta_ref_serve_without_the_feature_refuses_a_declaration() -> None:
    lines = [
        _hello(8),
        {"id": 2, "cmd": "setup", "variant": MAC, "position": POSITION},
        {"id": 3, "cmd": "legal"},
        {"id": 4, "cmd": "apply", "action": DECLARE},
        {"id": 5, "cmd": "quit"},
    ]
    done = subprocess.run(
        [CANASTA_REF_PATH, "serve", "--absent-feature", "declare"],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    hello, setup, legal, apply, _ = (json.loads(line) for line in done.stdout.splitlines())
    assert hello["protocol"] == 8 and MAC in hello["variants"] and setup["ok"] is True
    assert hello["capabilities"]["absent_features"] == ["declare"]  # declared absent in the handshake
    assert legal["actions"] and DECLARE not in legal["actions"]
    assert (apply["accepted"], apply["rule"]) == (False, None)
    assert "no 'declare' action (a feature it declares absent)" in apply["message"]


def test_a_session_speaking_7_does_not_set_modern_american_up() -> None:
    session = ReferenceSession()
    assert session.handle(_hello(7))["protocol"] == 7
    reply = session.handle({"cmd": "setup", "variant": MAC, "position": POSITION})
    assert reply == {
        "ok": False,
        "skip": "in modern-american a player may keep a bonus card, which protocol 8 added; this session speaks 7",
    }


# -- the runner ------------------------------------------------------------------------------------------------
def test_a_scenario_that_declares_is_skipped_for_an_engine_without_the_feature(tmp_path: Path) -> None:
    scenario = _scenario(tmp_path)
    engine = InProcessEngine(Recording(8, NO_DECLARE))
    assert engine.info.protocol == 8 and "declare" in engine.info.absent_features
    why = up_front_skip(engine.info, scenario, MAC)
    assert why == "the engine has no special hands: step 1 declares a special hand"
    result = run_case(engine, scenario, MAC)
    assert result.status == "skipped" and result.message == why
    session = engine.session
    assert isinstance(session, Recording)
    assert not any(r.get("cmd") == "apply" and r["action"].get("type") == "declare" for r in session.requests)
    # The engine with the feature plays it, its view's special hand and its score compared.
    assert up_front_skip(InProcessEngine().info, scenario, MAC) is None
    passed = run_case(InProcessEngine(), scenario, MAC)
    assert passed.status == "passed", passed.message


def test_an_engine_speaking_7_skips_modern_american(tmp_path: Path) -> None:
    engine = InProcessEngine(Recording(7))
    assert engine.info.protocol == 7
    why = up_front_skip(engine.info, _scenario(tmp_path), MAC)
    assert why is not None and "whose turns cannot wait for a bonus card to be kept or laid out" in why
