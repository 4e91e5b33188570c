"""A seat the game does not have is the caller's mistake: a ValueError naming the seats, never an IndexError
or, for -1, quietly the last seat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from canasta_ref import Game, load_variant, parse_action
from canasta_ref.errors import CanastaError

BAD_SEATS = [4, -1, 99]


@pytest.fixture
def game() -> Game:
    return Game(load_variant("classic"), seed=3)


@pytest.mark.parametrize("seat", BAD_SEATS)
def test_a_seat_out_of_range_is_refused_by_every_method_taking_one(game: Game, seat: Any) -> None:
    draw = parse_action("draw")
    calls: dict[str, Callable[[], object]] = {
        "apply": lambda: game.apply(draw, seat),
        "check": lambda: game.check(draw, seat),
        "is_legal": lambda: game.is_legal(draw, seat),
        "pile_frozen": lambda: game.pile_frozen(seat),
        "view": lambda: game.view(seat),
        "hand_of": lambda: game.hand_of(seat),
    }
    for name, call in calls.items():
        with pytest.raises(CanastaError, match=r"^there is no seat .*: classic has seats 0 to 3$"):
            call()
        assert game.history == [], name


@pytest.mark.parametrize("seat", ["1", 1.0])
def test_a_seat_that_is_not_a_whole_number_is_refused(game: Game, seat: Any) -> None:
    """Pure Python says so as a CanastaError; the compiled engine's typed signature raises TypeError first."""
    with pytest.raises((CanastaError, TypeError)):
        game.view(seat)
    with pytest.raises((CanastaError, TypeError)):
        game.apply(parse_action("draw"), seat)
    assert game.history == []


def test_a_first_seat_out_of_range_is_refused() -> None:
    with pytest.raises(CanastaError, match="there is no seat 4"):
        Game(load_variant("classic"), seed=3, first_seat=4)


def test_every_real_seat_is_still_served(game: Game) -> None:
    views = [game.view(seat) for seat in range(4)]
    assert [view["seat"] for view in views] == [0, 1, 2, 3]
    assert [len(view["hand"]) for view in views] == [len(game.hand_of(seat)) for seat in range(4)]
    assert game.is_legal(parse_action("draw"), game.to_act)
    assert not game.is_legal(parse_action("draw"), (game.to_act + 1) % 4)
    game.apply(parse_action("draw"), game.to_act)
    assert len(game.history) == 1
