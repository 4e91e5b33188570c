"""Protocol version 6: melds with an identity. Actions naming a meld (``meld @2: 7H``, ``take @1``, ``combine @1 @2``),
sequences and several open melds of one rank in positions, a meld's ``kind`` in views; none of them ever sent to
an engine speaking an older version, which is not run in a variant whose melds must be named.

The variant under test is a child of Classic written here: sequences (hook ``meld.sequence``), no merging of a
side's melds of one rank, and combining allowed."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from canasta_ref.conformance.engines import EngineInfo, InProcessEngine
from canasta_ref.conformance.generated import run_generated_games, speaks_position
from canasta_ref.conformance.perft import load_perft_files, run_perft
from canasta_ref.conformance.runner import run_case, up_front_skip
from canasta_ref.conformance.scenario import Scenario, load_scenarios
from canasta_ref.conformance.session import (
    ReferenceSession,
    names_a_meld,
    position_content_newer_than,
    version_6_position_content,
)
from canasta_ref.conformance.variants import reference_rules
from canasta_ref.conformance.views import unknown_field_problem
from canasta_ref.engine.actions import Action, action_from_json, parse_action
from canasta_ref.engine.game import Game, deck_for_seed
from canasta_ref.resources import spec_dir
from canasta_ref.spec import loader as loader_module

CHILD = """spec: 1
id: named
name: Test variant named
description: Classic with sequences, a side's melds of one rank kept apart, and combining.
extends: classic
rules:
  - id: X.SEQ
    section: melds
    title: Sequences
    text: A group of natural cards of one suit and several ranks in order is a sequence meld.
    sources: [{source: canasta-ref, quote: "test"}]
    hook: meld.sequence
    when: "true"
  - id: MELD.SAME_RANK
    replaces: true
    section: melds
    title: One rank, or a sequence
    text: A group holds natural cards of one rank; a sequence holds several, in order.
    sources: [{source: canasta-ref, quote: "test"}]
    hook: meld.valid
    require: kind == "sequence" or natural_ranks <= 1
remove: [MELD.MERGE, TURN.NO_COMBINE]
"""

#: North to draw, the pile's top card a seven; North's side has two melds of sevens and a sequence.
POSITION: dict[str, Any] = {
    "hands": ["7H 9S 9D KH", "5S 6S 8C", "6D 8D 10C", "9H 10C QD"],
    "pile": "4C 7S",
    "melds": [["7C 7S 7D", "7C 7D 2C", "4H 5H 6H"], []],
    "melded": [True, True, True, True],
    "phase": "draw",
}

#: The three actions of the round trip, each with its JSON form.
ROUND_TRIP = [
    ("take @1", {"type": "take", "cards": [], "meld": 1}),
    ("meld @2: 7H", {"type": "meld", "melds": [{"cards": ["7H"], "meld": 2}]}),
    ("combine @1 @2", {"type": "combine", "melds": [1, 2]}),
]


@pytest.fixture
def named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The bundled specs are Classic and the child above, for this test."""
    folder = tmp_path / "specs"
    folder.mkdir()
    for name in ("classic.yaml", "schema.json"):
        shutil.copy(spec_dir() / name, folder / name)
    (folder / "named.yaml").write_text(CHILD, encoding="utf-8")
    monkeypatch.setattr(loader_module, "spec_dir", lambda: folder)
    assert reference_rules("named").names_melds and not reference_rules("classic").names_melds
    return "named"


class Speaks(ReferenceSession):
    """The reference answering every hello in one version, keeping every request it is sent."""

    def __init__(self, version: int) -> None:
        super().__init__()
        self.version = version
        self.requests: list[dict[str, Any]] = []

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        self.requests.append(json.loads(json.dumps(request)))
        if request.get("cmd") == "hello":
            request = {**request, "protocol": self.version, "protocols": list(range(1, self.version + 1))}
        return super().handle(request)


def _session(protocol: int) -> ReferenceSession:
    session = ReferenceSession()
    reply = session.handle({"id": 1, "cmd": "hello", "protocol": protocol, "protocols": list(range(1, protocol + 1))})
    assert reply["ok"] and reply["protocol"] == protocol
    return session


def _never_sent_version_6(requests: list[dict[str, Any]]) -> None:
    """No request an engine was sent names a meld, sets up a named variant, or writes a version-6 position."""
    for request in requests:
        if request.get("cmd") == "apply":
            assert not names_a_meld(action_from_json(request["action"])), request
        if request.get("cmd") == "setup":
            assert request["variant"] != "named", request
            if "position" in request:
                assert not version_6_position_content(reference_rules(request["variant"]), request["position"])


def _scenario(tmp_path: Path, name: str, text: str) -> Scenario:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    (scenario,) = load_scenarios([path])
    return scenario


def _melds_of(session: ReferenceSession, seat: int = 0) -> list[list[dict[str, Any]]]:
    melds: list[list[dict[str, Any]]] = session.handle({"id": 9, "cmd": "view", "seat": seat})["view"]["melds"]
    return melds


# -- the handshake ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hello", "spoken"),
    [
        ({"protocol": 6, "protocols": [1, 2, 3, 4, 5, 6]}, 6),
        ({"protocol": 6}, 6),
        ({"protocol": 9, "protocols": [5, 6, 9]}, 6),
        ({"protocol": 5, "protocols": [1, 2, 3, 4, 5]}, 5),
    ],
    ids=["up to 6", "6 alone", "6 of 5, 6 and 9", "up to 5"],
)
def test_hello_negotiates_version_6(hello: dict[str, Any], spoken: int) -> None:
    reply = ReferenceSession().handle({"id": 1, "cmd": "hello", **hello})
    assert reply["ok"] and reply["protocol"] == spoken


def test_the_runner_greets_in_version_6() -> None:
    session = Speaks(6)
    assert InProcessEngine(session).info.protocol == 6
    assert session.requests[0] == {"cmd": "hello", "protocol": 8, "protocols": [1, 2, 3, 4, 5, 6, 7, 8]}


# -- version 6: the actions naming melds, through their JSON forms --------------------------------------------
@pytest.mark.parametrize(("text", "written"), ROUND_TRIP, ids=[text for text, _ in ROUND_TRIP])
def test_a_named_action_is_the_same_in_text_and_json(text: str, written: dict[str, Any]) -> None:
    action = parse_action(text)
    assert action.to_json() == written
    assert str(action_from_json(json.loads(json.dumps(written)))) == text
    assert names_a_meld(action)


def test_a_combine_names_a_set_of_two_melds() -> None:
    combine = Action.combine(1, 2)
    assert action_from_json({"type": "combine", "melds": [2, 1]}) == combine == parse_action("combine @2 @1")


def test_a_v6_round_trip_of_take_meld_and_combine_naming_melds(named: str) -> None:
    session = _session(6)
    assert named in session.handle({"id": 1, "cmd": "hello", "protocol": 6})["variants"]
    assert session.handle({"id": 2, "cmd": "setup", "variant": named, "position": POSITION}) == {"ok": True}
    assert [m["kind"] for m in _melds_of(session)[0]] == ["group", "group", "sequence"]
    for number, (text, written) in enumerate(ROUND_TRIP, 3):
        listed = session.handle({"id": number, "cmd": "legal"})["actions"]
        assert written in listed, (text, listed)  # the reference lists it in its JSON form
        reply = session.handle({"id": number, "cmd": "apply", "action": written})
        assert reply == {"ok": True, "accepted": True}, (text, reply)
    mine, theirs = _melds_of(session)
    # take @1 laid the seven on meld 1, meld @2: 7H the seven of hearts on meld 2, and combine @1 @2 made them one
    # meld in meld 1's place: the sequence moved up to second.
    sevens = ["7C", "7C", "7D", "7D", "7H", "7S", "7S", "2C"]
    assert [sorted(m["cards"]) for m in mine] == [sorted(sevens), ["4H", "5H", "6H"]]
    assert [m["kind"] for m in mine] == ["group", "sequence"] and theirs == []
    assert mine[0]["canasta"] is True
    view = session.handle({"id": 7, "cmd": "view", "seat": 1})["view"]
    assert unknown_field_problem(view) is None  # "kind" is one of a meld's fields


def test_a_position_naming_melds_is_version_6_content(named: str) -> None:
    rules = reference_rules(named)
    sequence = {"hands": ["5C"], "melds": [["4H 5H 6H"], []]}
    two_sevens = {"hands": ["5C"], "melds": [["7C 7S 7D", "7H 7D 2C"], []]}
    plain = {"hands": ["5C"], "melds": [["7C 7S 7D", "KH KS KD"], ["7H 7D 2C"]]}
    assert position_content_newer_than(5, rules, sequence) == (6, ["sequence melds"])
    assert position_content_newer_than(5, rules, two_sevens) == (6, ["two open melds of one rank on a side"])
    for written in (sequence, two_sevens, plain):
        assert position_content_newer_than(6, rules, written) == (0, [])
    assert position_content_newer_than(5, rules, plain) == (0, [])
    assert speaks_position(EngineInfo(protocol=6), rules, sequence)
    assert not speaks_position(EngineInfo(protocol=5), rules, sequence)
    # In Classic a meld of several ranks is no sequence: the set-up's error to report, not a version's.
    assert position_content_newer_than(5, reference_rules("classic"), sequence) == (0, [])


# -- an engine speaking version 5 ------------------------------------------------------------------------------
def test_the_reference_speaking_5_never_sends_a_kind_nor_a_named_action(named: str) -> None:
    session = _session(5)
    assert session.handle({"id": 1, "cmd": "hello", "protocol": 5})["variants"] == ["classic", named]  # as always
    refused = session.handle({"id": 2, "cmd": "setup", "variant": named, "position": POSITION})
    assert refused == {
        "ok": False,
        "skip": "named's melds are named by number, which protocol 6 added; this session speaks 5",
    }
    classic = {**POSITION, "melds": [["7C 7S 7D", "4H 4D 4S"], []], "phase": "play"}
    assert session.handle({"id": 3, "cmd": "setup", "variant": "classic", "position": classic}) == {"ok": True}
    for seat in range(4):
        assert all(set(meld) == {"cards", "canasta"} for side in _melds_of(session, seat) for meld in side)
    listed = session.handle({"id": 4, "cmd": "legal"})["actions"]
    assert not any(names_a_meld(action_from_json(action)) for action in listed)
    for text, written in ROUND_TRIP:
        reply = session.handle({"id": 5, "cmd": "apply", "action": written})
        assert reply["ok"] is False and "protocol 6" in reply["error"], text
    # Speaking 6, the same session judges them (Classic refuses them by its rules).
    session.handle({"id": 6, "cmd": "hello", "protocol": 6})
    reply = session.handle({"id": 7, "cmd": "apply", "action": {"type": "combine", "melds": [1, 2]}})
    assert reply["ok"] and reply["accepted"] is False and reply["rule"] == "TURN.NO_COMBINE"


NAMED_SCENARIO = """scenario: 1
id: named-take
title: A take names the meld
rules: [X.SEQ]
variants: [named]
level: must
setup:
  position:
    hands: ["7H 9S 9D KH", "5S 6S 8C", "6D 8D 10C", "9H 10C QD"]
    pile: "4C 7S"
    melds: [["7C 7S 7D", "7C 7D 2C", "4H 5H 6H"], []]
    melded: [true, true, true, true]
    phase: draw
steps:
  - action: take @1
    expect: {result: accepted, legal_includes: ["meld @2: 7H", "combine @1 @2"]}
  - action: "meld @2: 7H"
    expect: {result: accepted}
  - action: combine @1 @2
    expect: {result: accepted, view: {seat: 1, melds: [["7C 7S 7D 7S 7C 7D 2C 7H", "4H 5H 6H"], []]}}
"""

CLASSIC_SCENARIO = """scenario: 1
id: classic-combine
title: Classic combines no melds
rules: [TURN.NO_COMBINE]
variants: [classic]
level: must
setup:
  position:
    hands: ["9C 9D 9S 5H 7S 8S", "5C 2D 6S 8H", "9H 8C 8D", "8H 10S 4D"]
    pile: "6C 7D 4S"
    melds: [["KH KS KD", "AH AS AD"], ["QH QS QD"]]
    melded: [true, true, true, true]
    phase: play
steps:
  - action: meld 9C 9D 9S
    expect: {result: accepted, legal_excludes: ["combine @1 @2", "meld @1: 9C"]}
  - action: discard 5H
    expect: {result: accepted, view: {seat: 1, to_act: 1, phase: draw}}
"""


def test_scenarios_needing_version_6_are_skipped_for_an_engine_speaking_5(named: str, tmp_path: Path) -> None:
    in_named = _scenario(tmp_path, "named-take", NAMED_SCENARIO)
    judging = _scenario(tmp_path, "classic-combine", CLASSIC_SCENARIO)
    playing = _scenario(
        tmp_path,
        "classic-combine-played",
        CLASSIC_SCENARIO.replace("id: classic-combine", "id: classic-combine-played").replace(
            "  - action: discard 5H",
            "  - action: combine @1 @2\n    expect: {result: refused, rule: TURN.NO_COMBINE}\n  - action: discard 5H",
        ),
    )
    for protocol in (5, 6):
        info = EngineInfo(protocol=protocol, variants=["classic", named], capabilities={"setup_position": True})
        if protocol == 6:
            assert [up_front_skip(info, s, v) for s, v in ((in_named, named), (playing, "classic"))] == [None, None]
            continue
        assert up_front_skip(info, in_named, named) == (
            "the engine speaks protocol 5, whose actions cannot name a meld, as named's must (version 6 added it)"
        )
        assert up_front_skip(info, playing, "classic") == (
            "the engine speaks protocol 5, whose actions cannot name a meld: step 2 `combine @1 @2` "
            "(version 6 added it)"
        )
        assert up_front_skip(info, judging, "classic") is None
    # Run: the engine speaking 6 passes all three; the one speaking 5 skips the first two, and runs the third
    # without its checks of actions naming melds.
    assert [run_case(InProcessEngine(), s, v).status for s, v in ((in_named, named), (playing, "classic"))] == [
        "passed",
        "passed",
    ]
    old = Speaks(5)
    engine = InProcessEngine(old)
    skipped = [run_case(engine, s, v) for s, v in ((in_named, named), (playing, "classic"))]
    assert [r.status for r in skipped] == ["skipped", "skipped"]
    assert "whose actions cannot name a meld" in skipped[0].message and "step 2" in skipped[1].message
    partial = run_case(engine, judging, "classic")
    assert partial.status == "partial", partial.message
    assert partial.message == (
        "2 checks skipped: legal_excludes (the engine speaks protocol 5, whose actions cannot name a meld)"
    )
    _never_sent_version_6(old.requests)


def test_generated_games_leave_out_a_named_variant_for_an_engine_speaking_5(named: str) -> None:
    old = Speaks(5)
    engine = InProcessEngine(old)
    assert engine.info.variants == ["classic", named]  # it lists every variant, but cannot name melds
    alone = run_generated_games(engine, 2, 0, variants=[named])
    too_old = "the engine speaks protocol 5, whose actions cannot name a meld, as named's must (version 6 added it)"
    assert [(r.status, r.message) for r in alone.results] == [("skipped", too_old)]
    assert alone.games == 0
    mixed = run_generated_games(engine, 2, 0, variants=None, max_prefix=20, checked_steps=3)
    assert mixed.notes == [f"not played: {too_old}"]
    assert [(r.status, r.variant) for r in mixed.results] == [("passed", "classic")] * 2, mixed.report_lines()
    _never_sent_version_6(old.requests)


def test_generated_games_in_a_named_variant_agree_with_the_reference_speaking_6(named: str) -> None:
    report = run_generated_games(InProcessEngine(), 8, 0, variants=[named], max_prefix=150, checked_steps=20)
    assert [(r.status, r.variant) for r in report.results] == [("passed", named)] * 8, report.report_lines()


class Renumbers(ReferenceSession):
    """The reference, except that its legal actions name the meld after the one they should."""

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        reply = super().handle(request)
        for action in reply.get("actions", []) if request.get("cmd") == "legal" else []:
            for named in [action, *action.get("melds", [])]:
                if isinstance(named, dict) and "meld" in named:
                    named["meld"] += 1
        return reply


def test_a_legal_list_naming_other_melds_is_a_disagreement(named: str) -> None:
    report = run_generated_games(
        InProcessEngine(Renumbers()), 8, 0, variants=[named], max_prefix=150, checked_steps=20, max_shrunk=0
    )
    kinds = {deviation.key.check for deviation in report.deviations}
    assert "legal" in kinds, report.report_lines()
    assert any("meld @" in scenario.message for scenario in report.scenarios), report.report_lines()


def test_a_deal_perft_file_of_a_named_variant_is_skipped_for_an_engine_speaking_5(named: str, tmp_path: Path) -> None:
    rules = reference_rules(named)
    count = len(list(Game(rules, deck=deck_for_seed(rules, 1)).legal_actions()))
    path = tmp_path / "named-seed-1.yaml"
    path.write_text(
        f"perft: 1\nid: named-seed-1\nvariant: {named}\ndeck: {{seed: 1}}\ndepths: {{1: {count}}}\n", encoding="utf-8"
    )
    (perft,) = load_perft_files([path])
    assert run_perft(InProcessEngine(), perft).status == "passed"
    result = run_perft(InProcessEngine(Speaks(5)), perft)
    assert (result.status, result.message) == (
        "skipped",
        "the engine speaks protocol 5, whose actions cannot name a meld, as named's must (version 6 added it)",
    )
