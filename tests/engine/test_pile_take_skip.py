"""The listing's walks of takes with further melds skip the choices of groups hook pile.take refuses by their
counts (``named.PileTake``): what they list, and in what order, is what the walk without that skip lists once each
candidate is judged in full. The skip must also skip something, or it proves nothing."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import pytest

from canasta_ref import Rules, load_variant
from canasta_ref.engine.actions import Action
from canasta_ref.engine.cards import rank_of
from canasta_ref.engine.movegen import take_groups, take_pool
from canasta_ref.engine.named import (
    PileTake,
    ShapesWithin,
    _each_once,
    _legal,
    _openings_with_extras,
    _take_building,
    _take_candidate_walk,
    take_actions,
    take_openings_with_extras,
)
from canasta_ref.engine.state import HandState
from canasta_ref.scaling import scaling_position

#: Positions of a side not opened that may take the pile: (cards, seed).
POSITIONS = [(11, 0), (11, 1), (20, 0), (20, 1), (20, 2)]


def draw_positions(rules: Rules) -> Iterator[HandState]:
    for cards, seed in POSITIONS:
        state = scaling_position(rules, cards, opened=False, phase="draw", seed=seed).state
        if state.pile:
            yield state


def judged(rules: Rules, state: HandState, walk: Iterator[Action]) -> list[Action]:
    """The legal ones of a walk's candidates, each once, in the order first met."""
    return [action for action in _each_once(walk) if _legal(rules, state, action)]


@pytest.mark.parametrize("variant", ["samba", "bolivia"])
def test_named_takes_are_those_of_the_walk_without_the_skip(variant: str) -> None:
    rules = Rules(load_variant(variant))
    skipped = 0
    for state in draw_positions(rules):
        assert list(take_actions(rules, state)) == judged(rules, state, _take_candidate_walk(rules, state, False))
        skipped += len(list(_take_candidate_walk(rules, state, False))) - len(
            list(_take_candidate_walk(rules, state, True))
        )
    if variant == "samba":
        assert skipped > 0


@pytest.mark.parametrize("variant", ["samba", "bolivia"])
def test_takes_with_extra_melds_are_those_of_the_walk_without_the_skip(variant: str) -> None:
    rules = Rules(load_variant(variant))
    skipped = listed = 0
    for state in draw_positions(rules):
        seat = state.to_act
        counts = state.hands[seat]
        top_rank = rank_of(state.pile[-1])
        shapes = ShapesWithin(rules, state)
        for base in take_groups(rules, take_pool(rules, counts, state.pile[-1]), counts, True):
            rest = list(counts)
            for card in base:
                rest[card] -= 1
            build = partial(_take_building, base)
            unskipped = list(_openings_with_extras(rules, state, shapes, rest, top_rank, build))
            found = list(take_openings_with_extras(rules, state, shapes, base, top_rank))
            assert found == judged(rules, state, iter(unskipped))
            listed += len(found)
            kept = _openings_with_extras(rules, state, shapes, rest, top_rank, build, PileTake(rules, state, base))
            skipped += len(unskipped) - len(list(kept))
    assert listed > 0
    assert skipped > 0
