"""A special hand that wins the match outright (hooks special_hand.wins_match, match.over's ``won_outright``): the
CLA's dream hands, parameter dream_hands_win. The winner is the declaring side, whatever the totals."""

from __future__ import annotations

import pytest

from canasta_ref import Game, parse_action
from canasta_ref.conformance.setup import with_parameters
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import rules_for
from canasta_ref.match import match_end, outright_winner

#: North holds a dream hand plus 4: five aces, five kings and the four jokers.
_HANDS = ("AH AH AC AC AD KH KH KC KC KS JK JK JK JK", "4C 4D 5C", "4H 5H 6H", "4S 5D 6D")


def _after_the_dream_hand(dream_hands_win: str) -> Game:
    rules = rules_for(with_parameters("modern-american", {"special_hands": "cla", "dream_hands_win": dream_hands_win}))
    position = Position(hands=[parse_cards(h) for h in _HANDS], pile=parse_cards("KD"), phase="play")
    game = Game.from_position(rules, position)
    game.apply(parse_action("declare dream_plus_4"))
    assert game.is_over
    return game


@pytest.mark.parametrize(("dream_hands_win", "outright"), [("outright", 0), ("score_only", None)])
def test_a_dream_hand_wins_the_match_only_where_the_spec_says(dream_hands_win: str, outright: int | None) -> None:
    game = _after_the_dream_hand(dream_hands_win)
    assert outright_winner(game.rules, game.state) == outright
    # East-West lead the totals; the dream hand's side wins all the same, where it wins outright.
    end = match_end(game.rules, [7500, 8600], 5, outright)
    assert end == ((True, 0) if outright is not None else (True, 1))
    assert match_end(game.rules, [7500, 2000], 5, outright).over is (outright is not None)
