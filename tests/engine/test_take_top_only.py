"""The ``pile.take_top_only`` hook: Hoyle's forced take at an empty stock moves only the top card; without a
clause (Classic) a take moves the whole pile."""

from __future__ import annotations

from canasta_ref.engine.actions import parse_action
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.game import Game
from canasta_ref.engine.position import Position
from canasta_ref.spec import load_variant


def _game(variant: str) -> Game:
    """Stock empty; the second player is to take a four onto a canasta of fours, the pile not frozen."""
    cards = parse_cards
    position = Position(
        hands=[cards("5S 6S 8C 9H 3C 3C 3S 3S"), cards("7C 10H JC 6D 8D")],
        pile=cards("9H 9S 5D 6H 9C 4D"),
        stock=[],
        melds=[
            [
                cards("9D 9S 9C 9D"),
                cards("AC AC AD AD AH AH AS AS"),
                cards("KC KC KD KD KH KH KS KS 2C 2C 2D"),
                cards("QC QC QD QD QH QH QS QS 2D 2H"),
                cards("5C 5C 5D 5H 5H 5S"),
            ],
            [
                cards("4C 4H 4S 4C 4D 4H 4S"),
                cards("JC JD JD JH JH JS JS 2H 2S 2S"),
                cards("10C 10C 10D 10D 10H 10S 10S JK JK JK"),
                cards("8C 8D 8H 8H 8S 8S JK"),
                cards("7C 7D 7D 7H 7H 7S 7S"),
                cards("6C 6C 6D 6H 6S"),
            ],
        ],
        bonus=[cards("3D 3D"), cards("3H 3H")],
        to_act=1,
        seat_melded=[True, True],
    )
    return Game.from_position(load_variant(variant), position)


def test_hoyle_takes_only_the_top_card() -> None:
    game = _game("hoyle-2p")
    game.apply(parse_action("take"))
    assert game.state.pile == parse_cards("9H 9S 5D 6H 9C")
    assert game.state.hand_sizes[1] == 5


def test_classic_takes_the_whole_pile() -> None:
    game = _game("classic-2p")
    game.apply(parse_action("take"))
    assert game.state.pile == []
    assert game.state.hand_sizes[1] == 10
