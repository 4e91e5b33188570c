"""The choice about bonus cards (hook bonus_card.keep): while it waits it comes first (TURN.BONUS_CHOICE.FIRST),
and outside it there is nothing to keep or lay out by choice (TURN.BONUS_CHOICE). Each refusal says its own case."""

from __future__ import annotations

import pytest

from canasta_ref import Game, load_variant, parse_action
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import rules_for
from canasta_ref.errors import IllegalAction

MODERN = rules_for(load_variant("modern-american"))
CLASSIC = rules_for(load_variant("classic"))


def _waiting_for_the_choice() -> Game:
    """North's first turn begins with a dealt three of spades, which North may keep for a straight."""
    position = Position(
        hands=[parse_cards(h) for h in ("3S 5C 6D 8H 9S KC", "4C 5D 6H", "4D 5H 6S", "4H 5S 6C 7C")],
        pile=parse_cards("KD"),
        awaiting_first_turn=[True, False, False, False],
        to_act=3,
        phase="play",
    )
    game = Game.from_position(MODERN, position)
    game.apply(parse_action("discard 7C"))
    assert game.state.phase == "keep"
    return game


def _refusal(game: Game, action: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action(action))
    return refused.value


@pytest.mark.parametrize("action", ["draw", "discard 5C", "meld 8H 9S KC"])
def test_while_the_choice_waits_anything_else_is_told_to_wait_for_it(action: str) -> None:
    refusal = _refusal(_waiting_for_the_choice(), action)
    assert refusal.rule_id == "TURN.BONUS_CHOICE.FIRST"
    assert refusal.explanation == "Keep one of your bonus cards in hand or lay them all out before anything else."


@pytest.mark.parametrize("action", ["keep 3S", "layout"])
def test_the_choice_itself_is_allowed_while_it_waits(action: str) -> None:
    game = _waiting_for_the_choice()
    game.apply(parse_action(action))
    assert game.state.phase == "draw"


@pytest.mark.parametrize("action", ["keep 8H", "layout"])
def test_outside_the_choice_there_is_no_bonus_card_to_keep(action: str) -> None:
    position = Position(
        hands=[parse_cards(h) for h in ("5C 6D 8H 9S KC", "4C 5D 6H", "4D 5H 6S", "4H 5S 6C")],
        pile=parse_cards("KD"),
        phase="play",
    )
    for rules in (MODERN, CLASSIC):
        refusal = _refusal(Game.from_position(rules, position), action)
        assert refusal.rule_id == "TURN.BONUS_CHOICE"
        assert refusal.explanation == "There is no bonus card to keep or lay out by choice now."
