"""Bonus cards dealt to a player wait for that player's first turn where the spec says so (hook
bonus_card.at_first_turn; Fournier), and are laid out at the deal otherwise (Classic, unchanged)."""

from __future__ import annotations

import pytest

from canasta_ref import CanastaError, Game, Rules, load_variant, parse_action
from canasta_ref.conformance.setup import position_from_json, position_json
from canasta_ref.engine.cards import card_name, parse_cards
from canasta_ref.engine.position import Position

CLASSIC = Rules(load_variant("classic"))
FOURNIER = Rules(load_variant("fournier"))


def _red_threes_in_hands(game: Game) -> int:
    return sum(game.state.hands[s][c] for s in range(game.rules.players) for c in game.rules.bonus_cards)


def _seed_with_red_threes_dealt_later() -> int:
    """A seed whose deal gives a red three to a seat other than the first."""
    for seed in range(200):
        game = Game(FOURNIER, seed=seed)
        if any(game.state.hands[s][c] for s in range(1, 4) for c in FOURNIER.bonus_cards):
            return seed
    raise AssertionError("no seed deals a red three to a later seat")


def test_classic_lays_out_every_dealt_red_three_at_the_deal() -> None:
    seed = _seed_with_red_threes_dealt_later()
    game = Game(CLASSIC, seed=seed)
    assert not CLASSIC.bonus_at_first_turn
    assert game.state.awaiting_first_turn == []
    assert _red_threes_in_hands(game) == 0


def test_fournier_keeps_later_seats_red_threes_until_their_turn() -> None:
    seed = _seed_with_red_threes_dealt_later()
    game = Game(FOURNIER, seed=seed)
    assert FOURNIER.bonus_at_first_turn
    assert game.state.awaiting_first_turn == [False, True, True, True]
    assert not any(game.state.hands[0][c] for c in FOURNIER.bonus_cards)
    assert _red_threes_in_hands(game) > 0
    for _ in range(3):  # each seat in turn draws and discards; its red threes go out when its turn begins
        game.apply(parse_action("draw"))
        seat = game.state.to_act
        card = next(c for c in game.hand_of(seat) if not FOURNIER.is_bonus[c] and not FOURNIER.is_wild[c])
        game.apply(parse_action(f"discard {card_name(card)}"))
    assert game.state.awaiting_first_turn == [False, False, False, False]
    assert _red_threes_in_hands(game) == 0
    assert all(size == 11 for size in game.state.hand_sizes[1:])


def test_undo_restores_the_waiting_seats() -> None:
    game = Game(FOURNIER, seed=_seed_with_red_threes_dealt_later())
    before = game.state.snapshot()
    game.apply(parse_action("draw"))
    card = next(c for c in game.hand_of(0) if not FOURNIER.is_wild[c])
    game.apply(parse_action(f"discard {card_name(card)}"))
    game.undo()
    game.undo()
    assert game.state.snapshot() == before


HANDS = ["4C 5C 9H", "5H 8H 3H", "4D 6H", "8S 10S"]


def _position(**extra: object) -> dict[str, object]:
    return {"hands": HANDS, "pile": "7D", **extra}


def test_a_position_may_say_which_seats_await_their_first_turn() -> None:
    data = _position(awaiting_first_turn=[False, True, False, False])
    game = Game.from_position(FOURNIER, position_from_json(data, FOURNIER))
    assert game.state.awaiting_first_turn == [False, True, False, False]
    assert position_json(game)["awaiting_first_turn"] == [False, True, False, False]


def test_without_the_field_no_seat_waits_and_none_is_written() -> None:
    game = Game.from_position(FOURNIER, position_from_json(_position(), FOURNIER))
    assert game.state.awaiting_first_turn == []
    assert "awaiting_first_turn" not in position_json(game)


@pytest.mark.parametrize(
    ("rules", "value", "message"),
    [
        (CLASSIC, [False, True, False, False], "lays out bonus cards at the deal"),
        (FOURNIER, [True, False, False, False], "seat 0 is to act"),
        (FOURNIER, [False, True], "expected 4 values"),
    ],
)
def test_a_wrong_awaiting_field_is_refused(rules: Rules, value: list[bool], message: str) -> None:
    position = Position(hands=[parse_cards(h) for h in HANDS], awaiting_first_turn=value)
    with pytest.raises(CanastaError, match=message):
        Game.from_position(rules, position)


def test_a_field_that_is_not_a_list_of_booleans_is_refused() -> None:
    with pytest.raises(CanastaError, match="awaiting_first_turn"):
        position_from_json(_position(awaiting_first_turn=[1, 0, 0, 0]), FOURNIER)
