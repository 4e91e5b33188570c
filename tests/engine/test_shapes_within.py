"""``named.ShapesWithin`` gives each part of a hand the group shapes ``movegen.group_shapes`` gives it, in the same
order: the walks of takes and openings with extra melds ask it of hundreds of parts of one hand, and it asks hook
meld.valid of the whole hand only once."""

from __future__ import annotations

import random

import pytest

from canasta_ref import Rules, load_variant
from canasta_ref.engine.movegen import HandCards, group_shapes
from canasta_ref.engine.named import ShapesWithin
from canasta_ref.scaling import scaling_position


@pytest.mark.parametrize("variant", ["samba", "bolivia"])
@pytest.mark.parametrize("phase", ["play", "draw"])
def test_parts_of_a_hand_get_the_shapes_group_shapes_gives(variant: str, phase: str) -> None:
    rules = Rules(load_variant(variant))
    rng = random.Random(f"shapes-within/{variant}/{phase}")
    compared = 0
    for cards, seed in [(11, 0), (20, 1), (30, 2)]:
        state = scaling_position(rules, cards, opened=False, phase=phase, seed=seed).state  # type: ignore[arg-type]
        seat = state.to_act
        held = [card for card, n in enumerate(state.hands[seat]) for _ in range(n)]
        shapes = ShapesWithin(rules, state)
        for keep in [len(held), 0, *(rng.randrange(len(held)) for _ in range(12))]:
            part = [0] * len(state.hands[seat])
            for card in rng.sample(held, keep):
                part[card] += 1
            hand = HandCards(rules, tuple(part))
            assert shapes.of(hand) == group_shapes(rules, state, seat, hand, True)
            compared += 1
    assert compared == 3 * 14


def test_a_part_without_wild_cards_gets_no_wild_shape() -> None:
    rules = Rules(load_variant("samba"))
    state = scaling_position(rules, 30, opened=False, phase="play", seed=0).state
    seat = state.to_act
    naturals = tuple(0 if rules.is_wild[card] else n for card, n in enumerate(state.hands[seat]))
    found = ShapesWithin(rules, state).of(HandCards(rules, naturals))
    assert found
    assert all(shape.twos == shape.jokers == 0 for shapes in found.values() for shape in shapes)
    assert found == group_shapes(rules, state, seat, HandCards(rules, naturals), True)
