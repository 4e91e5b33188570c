"""Every whole number a set-up gives has a stated range (``engine.numbers``): a deal number, a side's score, a
count of bonus cards owed, and the protocol's sample seed and listing limit. One outside it (hand-and-foot's
``hand_number`` of 10**30) is refused naming the field and the range, whether it comes through ``Game``, a
written position, the protocol's ``setup`` or a scenario file; the ends of each range are accepted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from canasta_ref import Game, load_variant
from canasta_ref.conformance.scenario import check_scenario
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.conformance.setup import format_deck
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.numbers import HAND_NUMBER_LIMIT, SCORE_LIMIT, WORD_LIMIT
from canasta_ref.engine.position import Position
from canasta_ref.errors import CanastaError

HUGE = 10**30
HAND_AND_FOOT = load_variant("hand-and-foot")
HANDS = [parse_cards(hand) for hand in ("KH 9C", "4C", "7C", "8C")]


#: Not True: the Python API types the number as int, and a bool is one (the compiled build reads True as 1); a
#: JSON true reaches no Game, since the protocol's set-up and the scenario schema refuse it first.
@pytest.mark.parametrize("number", [0, HAND_NUMBER_LIMIT + 1, HUGE])
def test_a_deal_number_out_of_range_is_refused(number: Any) -> None:
    expected = f"field 'hand_number': expected a deal number from 1 to {HAND_NUMBER_LIMIT:,}, got"
    with pytest.raises(CanastaError, match=expected):
        Game.from_position(HAND_AND_FOOT, Position(hands=HANDS, hand_number=number))
    with pytest.raises(CanastaError, match=expected):
        Game(HAND_AND_FOOT, seed=1, hand_number=number)


@pytest.mark.parametrize("number", [1, HAND_NUMBER_LIMIT])
def test_the_ends_of_the_deal_numbers_are_accepted(number: int) -> None:
    assert Game.from_position(HAND_AND_FOOT, Position(hands=HANDS, hand_number=number)).state.hand_number == number
    assert Game(HAND_AND_FOOT, seed=1, hand_number=number).state.hand_number == number


@pytest.mark.parametrize("score", [SCORE_LIMIT + 1, -SCORE_LIMIT - 1, HUGE])
def test_a_score_out_of_range_is_refused(score: int) -> None:
    expected = r"field 'team_scores\[1\]': expected a score from -1,000,000,000 to 1,000,000,000, got the number"
    with pytest.raises(CanastaError, match=expected):
        Game.from_position(HAND_AND_FOOT, Position(hands=HANDS, team_scores=[0, score]))
    with pytest.raises(CanastaError, match=expected):
        Game(HAND_AND_FOOT, seed=1, team_scores=[0, score])


def test_the_ends_of_the_scores_are_accepted() -> None:
    scores = [-SCORE_LIMIT, SCORE_LIMIT]
    assert Game(HAND_AND_FOOT, seed=1, team_scores=scores).state.team_scores == scores


def test_bonus_cards_owed_beyond_the_deck_are_refused() -> None:
    modern = load_variant("modern-american")
    position = Position(
        hands=HANDS, melds=[[], [parse_cards("AH AS AD")]], phase="play", bonus_draws_owed=[0, HUGE, 0, 0]
    )
    with pytest.raises(CanastaError, match=r"bonus_draws_owed\[1\]': expected a number of cards from 0 to 108"):
        Game.from_position(modern, position)


def _session(protocol: int) -> ReferenceSession:
    session = ReferenceSession()
    assert session.handle({"cmd": "hello", "protocol": protocol})["ok"] is True
    return session


@pytest.mark.parametrize("where", ["beside the deck", "in the position"])
def test_the_protocols_setup_refuses_a_deal_number_out_of_range(where: str) -> None:
    request: dict[str, Any] = {"id": 1, "cmd": "setup", "variant": "hand-and-foot"}
    if where == "in the position":
        request["position"] = {"hands": ["KH 9C", "4C", "7C", "8C"], "hand_number": HUGE}
        field = "position.hand_number"
    else:
        request["deck"] = format_deck(Game(HAND_AND_FOOT, seed=1).deck)
        request["hand_number"] = HUGE
        field = "hand_number"
    reply = _session(5).handle(request)
    assert reply["ok"] is False
    assert reply["error"] == f"field '{field}': expected a deal number from 1 to 10,000, got the number {HUGE}"


@pytest.mark.parametrize(
    ("request_", "field"),
    [({"cmd": "sample", "seed": WORD_LIMIT + 1}, "seed"), ({"cmd": "legal", "limit": WORD_LIMIT + 1}, "limit")],
)
def test_the_protocols_seed_and_limit_are_words(request_: dict[str, Any], field: str) -> None:
    session = _session(4)
    setup = {"cmd": "setup", "variant": "classic", "position": {"hands": ["KH 9C", "4C", "7C", "8C"]}}
    assert session.handle(setup)["ok"] is True
    reply = session.handle(request_)
    assert reply["ok"] is False and reply["error"].startswith(f"field '{field}': expected "), reply
    assert session.handle({**request_, field: WORD_LIMIT})["ok"] is True


SCENARIO = """\
scenario: 1
id: far-deal
title: A test
rules: [TURN.ORDER]
variants: [hand-and-foot]
level: must
setup:
  deck: {{seed: 3}}
  hand_number: {number}
steps:
  - action: draw
    expect: {{result: accepted}}
"""


def test_a_scenario_giving_a_deal_number_out_of_range_is_refused_where_it_is_written(tmp_path: Path) -> None:
    path = tmp_path / "far-deal.yaml"
    path.write_text(SCENARIO.format(number=HUGE), encoding="utf-8")
    scenario, errors = check_scenario(path)
    assert scenario is None and len(errors) == 1
    assert errors[0].location is not None and errors[0].location.line == 9
    assert "field 'setup.hand_number'" in str(errors[0]) and "maximum of 10000" in str(errors[0])
    path.write_text(SCENARIO.format(number=HAND_NUMBER_LIMIT), encoding="utf-8")
    assert check_scenario(path)[1] == []
