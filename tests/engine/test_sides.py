"""The side map: each seat's side is held in the state (``HandState.side_of``), so a variant may change it during
the hand; at the deal it is seat mod teams, which keeps Classic's partners opposite."""

from __future__ import annotations

from canasta_ref import Game, load_variant
from canasta_ref.engine.checks import table_values
from canasta_ref.engine.hooks import TABLE_VARIABLES
from canasta_ref.engine.state import HandState

TEAM_HAS_MELDED = TABLE_VARIABLES.index("team_has_melded")


def test_classic_deals_partners_opposite() -> None:
    state = Game(load_variant("classic"), seed=3).state
    assert state.side_of == [0, 1, 0, 1]
    assert state.seats_of(0) == [0, 2] and state.seats_of(1) == [1, 3]
    assert [state.partner_of(seat) for seat in range(4)] == [2, 3, 0, 1]


def test_two_players_have_no_partner() -> None:
    state = Game(load_variant("classic-2p"), seed=3).state
    assert state.side_of == [0, 1]
    assert state.partner_of(0) is None and state.partner_of(1) is None


def test_the_table_facts_follow_the_map_not_the_seat_number() -> None:
    game = Game(load_variant("classic"), seed=3)
    state = game.state
    state.team_opened = [True, False]
    assert table_values(game.rules, state, 1)[TEAM_HAS_MELDED] is False
    moved = state.copy()
    moved.side_of = [0, 0, 0, 1]
    assert table_values(game.rules, moved, 1)[TEAM_HAS_MELDED] is True


def test_the_map_survives_a_snapshot_and_an_undo() -> None:
    game = Game(load_variant("classic"), seed=3)
    game.state.side_of = [1, 0, 1, 0]
    restored = HandState.restore(game.state.snapshot())
    assert restored.side_of == [1, 0, 1, 0]
    restored.side_of[0] = 0
    assert game.state.side_of == [1, 0, 1, 0]
