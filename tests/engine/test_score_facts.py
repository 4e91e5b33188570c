"""The score.hand facts added for rules that score black threes and how a player went out (Fournier's tables)."""

from __future__ import annotations

from canasta_ref import Game, Rules, load_variant, parse_action
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.position import Position
from canasta_ref.engine.scoring import side_facts

CLASSIC = Rules(load_variant("classic"))


def _game(hands: list[str], melds: list[list[str]], seat_melded: list[bool], phase: str = "play") -> Game:
    position = Position(
        hands=[parse_cards(h) for h in hands],
        pile=parse_cards("7D"),
        melds=[[parse_cards(m) for m in side] for side in melds],
        seat_melded=seat_melded,
        phase=phase,  # type: ignore[arg-type]
    )
    return Game.from_position(CLASSIC, position)


def _play(game: Game, *actions: str) -> None:
    for text in actions:
        game.apply(parse_action(text))


def test_black_threes_held_counts_the_most_in_one_hand() -> None:
    game = _game(["4C 5C 9H", "3C 3S 8H", "3C 6H", "3S 10S"], [["AH AS AD"], ["QH QS QD"]], [True] * 4)
    facts = [side_facts(CLASSIC, game.state, side) for side in (0, 1)]
    assert facts[0]["most_black_threes_held"] == 1
    assert facts[1]["most_black_threes_held"] == 2
    assert facts[0]["black_threes_melded"] == facts[1]["black_threes_melded"] == 0


def test_nobody_out_means_no_going_out_facts() -> None:
    game = _game(["4C 5C 9H", "5H 8H", "4D 6H", "8S 10S"], [["AH AS AD"], ["QH QS QD"]], [True] * 4)
    facts = side_facts(CLASSIC, game.state, 0)
    assert not facts["anyone_went_out"]
    assert not facts["out_melded_before"] and not facts["out_added_to_partner"]


def test_going_out_records_melded_before_and_adding_to_the_table() -> None:
    game = _game(
        ["KH KH KS KS KD KC KD AC 9H", "5H 2D 6S 8H", "4C 6H", "8H 10S 4D"],
        [["AH AS AD"], ["QH QS QD"]],
        [True, True, True, True],
    )
    _play(game, "meld KH KH KS KS KD KC KD", "meld AC", "discard 9H")
    mine, theirs = (side_facts(CLASSIC, game.state, side) for side in (0, 1))
    assert mine["anyone_went_out"] and theirs["anyone_went_out"]
    assert mine["out_melded_before"] and mine["out_added_to_partner"]
    assert not theirs["out_melded_before"] and not theirs["out_added_to_partner"]


def test_going_out_at_once_without_help_records_neither() -> None:
    game = _game(
        ["KH KH KS KS KD KC KD 5C 5D 5S 3C 3C 3S 3S", "5H 2D 6S 8H", "4C 6H", "8H 10S 4D"],
        [["AH AS AD"], ["QH QS QD"]],
        [False, True, True, True],
    )
    _play(game, "meld KH KH KS KS KD KC KD", "meld 5C 5D 5S", "meld 3C 3C 3S 3S")
    facts = side_facts(CLASSIC, game.state, 0)
    assert facts["went_out"] and facts["black_threes_melded"] == 4
    assert not facts["out_melded_before"] and not facts["out_added_to_partner"]
