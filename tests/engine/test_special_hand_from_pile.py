"""A special hand completed with the pile's top card (Modern American's parameter special_hand_from_pile, S0#123):
declared at the start of a turn, before the draw, the top card is the hand's fourteenth. Listed and judged alike."""

from __future__ import annotations

import pytest
from listing_kit import legal_by_plan

from canasta_ref import Game, parse_action
from canasta_ref.conformance.setup import with_parameters
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import rules_for

#: North holds six pairs and a king; the king of diamonds on the pile makes the seventh pair.
_HANDS = ("4C 4D 5C 5D 6C 6D 8C 8D 9C 9D JH JS KH", "4H 5H 6H", "4S 5S 6S", "7H 7S 10D")


def _turn_begins(special_hand_from_pile: str, pile: str = "7C KD") -> Game:
    rules = rules_for(with_parameters("modern-american", {"special_hand_from_pile": special_hand_from_pile}))
    position = Position(hands=[parse_cards(h) for h in _HANDS], pile=parse_cards(pile), phase="draw")
    return Game.from_position(rules, position)


@pytest.mark.parametrize(("option", "listed"), [("allowed", True), ("not_allowed", False)])
def test_a_declaration_before_the_draw_takes_the_top_card_only_where_allowed(option: str, listed: bool) -> None:
    game = _turn_begins(option)
    assert (parse_action("declare pairs") in legal_by_plan(game.rules, game)) is listed


def test_the_top_card_completes_the_hand_and_leaves_the_pile() -> None:
    game = _turn_begins("allowed")
    game.apply(parse_action("declare pairs"))
    assert game.is_over and game.state.special_hand == "pairs"
    assert game.state.special_cards == tuple(sorted(parse_cards(_HANDS[0] + " KD")))
    assert game.state.pile == parse_cards("7C") and game.hand_of(0) == []


def test_a_top_card_that_makes_no_special_hand_is_not_declared() -> None:
    game = _turn_begins("allowed", pile="KD 7C")
    assert not any(action.kind == "declare" for action in legal_by_plan(game.rules, game))
