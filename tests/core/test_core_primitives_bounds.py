"""The card moves the core's Python path of apply is made of, near the bounds of what the core keeps in narrow
counts: ``Position.pick_up`` (the pile into a hand: a hand's copies of one card, a byte, 255; a seat's bonus cards
laid out, 64) and ``Position.penalise`` (a side's penalties, 1,000,000 either way, as ``load`` takes them). As the
C entry does (``native/apply.c``), a move past a bound is refused before anything moves, with a message naming it,
never wrapped. Each on both sides: one more than fits, and exactly as many as fit."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from canasta_ref import core
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.game import Game
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.spec import load_variant

#: The bounds of ``_core.c``: MAX_COPIES, MAX_BONUS, MAX_PENALTY.
MOST_COPIES = 255
MOST_BONUS = 64
MOST_PENALTY = 1_000_000

_HANDS, _PILE, _BONUS, _PENALTIES = 0, 2, 4, 9  # places in ``core.position_fields``


def _card(name: str) -> int:
    return parse_cards(name)[0]


def _rules() -> Rules:
    return rules_for(load_variant("classic"))


def _position(rules: Rules, pile: str = "5C 7D 8H", copies: int = 0, laid_out: int = 0, penalties: Any = ()) -> Any:
    """A dealt hand of Classic loaded on the core, with the pile ``pile`` (its top last), North holding ``copies``
    of 5C, North's ``laid_out`` red threes laid out, and the sides' ``penalties``."""
    fields = list(core.position_fields(Game(rules, seed=1).state))
    north = list(fields[_HANDS][0])
    north[_card("5C")] = copies
    fields[_HANDS] = [tuple(north), *fields[_HANDS][1:]]
    fields[_PILE] = parse_cards(pile)
    fields[_BONUS] = [(_card("3D"),) * laid_out, *fields[_BONUS][1:]]
    fields[_PENALTIES] = list(penalties)
    position = core.new_position(rules)
    position.load(*fields)
    return position


def _refused_unchanged(position: Any, move: str, arguments: tuple[int, ...], message: str) -> None:
    before = position.export()
    with pytest.raises(ValueError, match=message):
        getattr(position, move)(*arguments)
    assert position.export() == before


@pytest.mark.parametrize("held", [MOST_COPIES - 1, MOST_COPIES])
def test_a_pile_picked_up_past_a_hands_copies_of_a_card_is_refused_before_it_moves(
    library: ModuleType, held: int
) -> None:
    """The pile's 5C joins North's own 5Cs: one more than a byte holds is refused, never wrapped to none."""
    position = _position(_rules(), copies=held)
    if held == MOST_COPIES:
        _refused_unchanged(position, "pick_up", (0, 0), "seat 0 would hold more than 255 copies of card")
        return
    assert position.pick_up(0, 0) == tuple(parse_cards("5C 7D 8H"))
    assert position.hand(0)[_card("5C")] == MOST_COPIES and not position.pile()


@pytest.mark.parametrize("laid_out", [MOST_BONUS - 1, MOST_BONUS])
def test_a_piles_red_three_picked_up_past_the_bonus_cards_kept_is_refused_before_it_moves(
    library: ModuleType, laid_out: int
) -> None:
    """The red three under the pile's top is laid out as it is picked up; the cards before it moved no more."""
    position = _position(_rules(), pile="7D 3H 8H", laid_out=laid_out)
    if laid_out == MOST_BONUS:
        _refused_unchanged(position, "pick_up", (0, 0), "seat 0 would lay out more than 64 bonus cards")
        return
    assert position.pick_up(0, 0) == tuple(parse_cards("7D 8H"))
    assert len(position.export()["bonus"][0]) == MOST_BONUS


def test_a_pile_picked_up_keeping_its_top_brings_only_the_cards_under_it(library: ModuleType) -> None:
    """The cards kept on the pile are not counted against the hand: a full hand of 5C takes the cards under it."""
    position = _position(_rules(), pile="7D 8H 5C", copies=MOST_COPIES)
    assert position.pick_up(0, 1) == tuple(parse_cards("7D 8H"))
    assert position.pile() == tuple(parse_cards("5C")) and position.hand(0)[_card("5C")] == MOST_COPIES


@pytest.mark.parametrize("before", [MOST_PENALTY - 100, MOST_PENALTY - 99])
def test_a_penalty_summed_past_the_cores_bound_is_refused_never_wrapped(library: ModuleType, before: int) -> None:
    position = _position(_rules(), penalties=[before, 0])
    if before > MOST_PENALTY - 100:
        message = "side 0's penalties would come to 1000001 points, past the 1000000 the core keeps"
        _refused_unchanged(position, "penalise", (0, 100), message)
        return
    position.penalise(0, 100)
    assert position.export()["penalties"] == (MOST_PENALTY, 0)


@pytest.mark.parametrize("points", [-MOST_PENALTY, -MOST_PENALTY - 1])
def test_a_negative_penalty_is_bounded_as_a_positive_one(library: ModuleType, points: int) -> None:
    """Without penalties yet, the tally of every side begins at 0: the charge alone is the sum."""
    position = _position(_rules())
    if points < -MOST_PENALTY:
        _refused_unchanged(position, "penalise", (1, points), "a penalty of -1000001 points is past the 1000000")
        return
    position.penalise(1, points)
    assert position.export()["penalties"] == (0, -MOST_PENALTY)


def test_a_penalty_past_a_32_bit_int_is_refused_not_cut(library: ModuleType) -> None:
    """2**32 + 100 points once reached the tally as 100."""
    _refused_unchanged(_position(_rules()), "penalise", (0, 2**32 + 100), "a penalty of 4294967396 points is past")
