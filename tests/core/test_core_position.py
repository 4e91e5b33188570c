"""The native position on its own: what it refuses, what it counts, and undo."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from canasta_ref import Game, core
from canasta_ref.engine.cards import parse_card
from canasta_ref.engine.rules import rules_for
from canasta_ref.spec import load_variant


@pytest.fixture
def game() -> Game:
    return Game(load_variant("classic"), seed="core/1")


def _loaded(game: Game) -> Any:
    return core.load_state(core.new_position(game.rules), game.state)


def test_a_loaded_position_gives_back_what_it_was_given(library: ModuleType, game: Game) -> None:
    position = _loaded(game)
    assert position.export() == core.owned_view(game.state)


def test_a_discard_of_a_card_not_held_is_refused_by_name(library: ModuleType, game: Game) -> None:
    position = _loaded(game)
    missing = next(card for card in range(53) if not game.state.hands[0][card])
    with pytest.raises(ValueError, match=f"seat 0 holds no card {missing} to discard"):
        position.discard(0, missing)


@pytest.mark.parametrize(
    ("seat", "card", "message"),
    [(7, 0, "there is no seat 7"), (0, 53, "there is no card 53"), (-1, 0, "there is no seat -1")],
)
def test_a_seat_or_card_out_of_range_is_refused(
    library: ModuleType, game: Game, seat: int, card: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        _loaded(game).discard(seat, card)


def test_a_malformed_position_is_refused_naming_the_field_and_the_old_one_stays(
    library: ModuleType, game: Game
) -> None:
    position = _loaded(game)
    kept = position.export()
    fields = list(core.position_fields(game.state))
    fields[7] = 4  # to_act: classic has seats 0 to 3
    with pytest.raises(ValueError, match="to_act is 4, expected a seat from 0 to 3"):
        position.load(*fields)
    fields = list(core.position_fields(game.state))
    fields[1] = [*game.state.stock, 60]
    with pytest.raises(ValueError, match="the stock is 60, expected 0 to 52"):
        position.load(*fields)
    fields = list(core.position_fields(game.state))
    fields[3] = [[(0, (0,))], []]
    with pytest.raises(TypeError, match=r"a meld must be a tuple \(rank, cards, closed\)"):
        position.load(*fields)
    assert position.export() == kept


def test_tables_of_the_wrong_size_are_refused(library: ModuleType) -> None:
    """A table of the wrong length, too many players, or a rank of more natural card types than the counting of
    melds holds (its tables are one a suit) is refused by name before any hand is counted."""
    tables = core.core_tables(rules_for(load_variant("classic")))
    arguments = {name: getattr(tables, name) for name in tables.__dataclass_fields__}
    arguments["is_wild"] = arguments["is_wild"][:52]
    with pytest.raises(ValueError, match=r"is_wild has 52 entries, expected one per card type \(53\)"):
        library.Position(**arguments)
    arguments = {name: getattr(tables, name) for name in tables.__dataclass_fields__}
    arguments["players"] = 9
    with pytest.raises(ValueError, match="9 players in 2 sides"):
        library.Position(**arguments)

    arguments = {name: getattr(tables, name) for name in tables.__dataclass_fields__}
    arguments["rank"] = [4 if card < 5 else rank for card, rank in enumerate(arguments["rank"])]
    with pytest.raises(ValueError, match="rank 4 has more than 4 natural card types"):
        library.Position(**arguments)
    arguments["rank"] = [4 if card < 5 else rank for card, rank in enumerate(tables.rank)]
    arguments["is_wild"] = [1 if card == 4 else wild for card, wild in enumerate(tables.is_wild)]
    library.Position(**arguments)  # accepted: the fifth card of rank 4 is wild, four natural types are left


def test_rank_counts_and_held_types_count_the_hand(library: ModuleType, game: Game) -> None:
    position = _loaded(game)
    hand = game.state.hands[1]
    counts = position.rank_counts(1)
    assert sum(counts) == game.state.hand_sizes[1]
    kings = sum(hand[card] for card in range(53) if card // 4 == 11 and card != 52)
    assert counts[11] == kings
    assert position.held_types(1) == tuple(card for card in range(53) if hand[card])


def test_snapshot_and_restore_undo_moves(library: ModuleType, game: Game) -> None:
    position = _loaded(game)
    before = position.export()
    saved = position.snapshot()
    drawn = position.draw(0, 2)
    assert len(drawn) == 2 and position.export()["hand_sizes"][0] == before["hand_sizes"][0] + 2
    position.discard(0, drawn[0])
    assert position.export() != before
    position.restore(saved)
    assert position.export() == before
    with pytest.raises(ValueError, match="these 5 bytes are not a snapshot"):
        position.restore(b"short")


def test_a_discard_counts_what_freezes_the_pile(library: ModuleType) -> None:
    game = Game(load_variant("classic"), seed="core/1")
    position = _loaded(game)
    wild = parse_card("2C")
    state = game.state
    hands = list(state.hands)
    hands[0] = tuple(count + (card == wild) for card, count in enumerate(hands[0]))
    fields = list(core.position_fields(state))
    fields[0] = hands
    position.load(*fields)
    wilds_before = position.export()["pile_counts"][0]
    position.discard(0, wild)
    assert position.export()["pile_counts"][0] == wilds_before + 1
    assert position.export()["pile"][-1] == wild


def test_the_turns_flags_are_given_back_and_bad_ones_refused_by_name(library: ModuleType, game: Game) -> None:
    position = _loaded(game)
    assert position.export()["turn"] == core.owned_view(game.state)["turn"]
    fields = list(core.turn_fields(game.state))
    kept = position.export()["turn"]
    with pytest.raises(ValueError, match="phase 5 and permission 0, expected 0 to 4 and 0 to 2"):
        position.load_turn(5, *fields[1:])
    with pytest.raises(ValueError, match="asked_in_hand names a seat beyond 3"):
        position.load_turn(*fields[:7], 1 << 4, fields[8])
    with pytest.raises(ValueError, match="bonus cards owed for 2 seats, expected 4"):
        position.load_turn(*fields[:8], [0, 1])
    assert position.export()["turn"] == kept
    position.load_turn(1, 1, True, True, False, False, True, 0b0101, [0, 2, 0, 0])
    assert position.export()["turn"] == (1, 1, True, True, False, False, True, 5, (0, 2, 0, 0), -1, 0)
    with pytest.raises(ValueError, match="the seat that asked is 4, expected -1 to 3"):
        position.load_turn(*fields[:9], 4)
    with pytest.raises(ValueError, match="awaiting_first_turn names a seat beyond 3"):
        position.load_turn(*fields[:9], 2, 1 << 4)
    position.load_turn(*fields[:9], 2, 0b0110)
    assert position.export()["turn"][-2:] == (2, 0b0110)
    assert position.hand() == position.hand(game.state.to_act) == tuple(game.state.hands[game.state.to_act])


def test_laying_one_copy_more_than_a_full_hand_holds_is_refused(library: ModuleType, game: Game) -> None:
    """A hand holds at most 255 copies of a card; 256 asked of it were once counted in a byte, wrapped to none and
    laid nothing without a word. 255 of them are laid."""
    state = game.state.copy()
    hand = list(state.hands[0])
    hand[20] = 255
    state.hands[0], state.hand_sizes[0] = tuple(hand), sum(hand)
    position = core.load_state(core.new_position(game.rules), state)
    with pytest.raises(ValueError, match="seat 0 does not hold card 20 to lay"):
        position.lay(0, -1, 5, [20] * 256)
    assert position.lay(0, -1, 5, [20] * 255) == 0
    assert position.hand(0)[20] == 0
