"""The core's listings of a side that has not opened on big hands (the scaling table's positions): its counting
capped where the verdict stops changing (the groups, the cards left, the points) and an action of a choice of
millions made alone, with the same count, the same first page and the same action at a spread of indexes as the
Python engine's; and one choice's actions made from a place equal to the reference's expansion, place by place."""

from __future__ import annotations

import itertools
import random
from types import ModuleType
from typing import cast

import pytest

from canasta_ref.core.game import NativeGame
from canasta_ref.core.listing import _expansion_at, _expansions_from
from canasta_ref.engine.cards import JOKER_RANK, parse_cards
from canasta_ref.engine.movegen import HandCards, Shape, expand_shapes
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.scaling import Phase, scaling_position
from canasta_ref.spec import load_variant


@pytest.fixture(scope="module")
def classic() -> Rules:
    return rules_for(load_variant("classic"))


def _spread(total: int) -> list[int]:
    """Indexes across a listing of ``total`` actions: its ends, a stride through it, and a few drawn at random."""
    rng = random.Random(total)
    drawn = [rng.randrange(total) for _ in range(8)] if total > 8 else []
    block_ends = [2**62 + k for k in (-1, 0, 1)] if total > 2**62 + 1 else []  # where the core splits its openings
    return sorted({0, 1, total // 2, total - 2, total - 1, *range(0, total, max(1, total // 9)), *drawn, *block_ends})


@pytest.mark.parametrize(
    ("variant", "cards", "phase"),
    [
        ("classic", 45, "play"),
        ("classic", 60, "play"),
        ("classic", 30, "draw"),  # a take with further melds, made alone
        ("classic-3p", 60, "play"),
        ("fournier", 45, "play"),
        ("fournier", 60, "play"),  # about 4e19 openings: past a 64-bit count
        ("hand-and-foot", 45, "play"),
        ("hoyle-2p", 60, "play"),
    ],
)
def test_a_big_hand_not_opened_is_listed_by_the_core_as_the_python_engine_lists_it(
    native_game: ModuleType, variant: str, cards: int, phase: Phase
) -> None:
    rules = rules_for(load_variant(variant))
    python, native = (scaling_position(rules, cards, opened=False, phase=phase, core=c) for c in ("python", "native"))
    reference, mine = python.legal_actions(), native.legal_actions()
    total = reference.count()
    assert mine.count() == total > 100_000
    ran = cast(NativeGame, native).ran
    assert ran["listing on the core"] == 1 and not ran["listing on the Python engine"]
    assert list(itertools.islice(mine, 20)) == list(itertools.islice(reference, 20))
    for index in _spread(total):
        assert mine[index] == reference[index], index
    assert mine.sample(random.Random(cards)) == reference.sample(random.Random(cards))


@pytest.mark.parametrize(
    "shapes",
    [
        [(3, 2, 1, 0), (5, 3, 0, 1), (7, 2, 2, 0)],  # fives, sevens, nines: wild cards shared by two groups
        [(3, 3, 0, 0), (5, 2, 1, 1), (7, 3, 1, 0)],
        [(JOKER_RANK, 0, 3, 1)],  # the wild meld alone
    ],
)
def test_a_choice_is_made_from_any_place_as_the_reference_expands_it(
    classic: Rules, shapes: list[tuple[int, int, int, int]]
) -> None:
    held = [0] * len(classic.is_wild)
    for card in parse_cards("5C 5D 5H 5S 7C 7D 7H 7S 9C 9D 9H 2C 2D 2H 2S JK"):
        held[card] += 1
    hand = HandCards(classic, tuple(held))
    whole = expand_shapes(hand, [Shape(*shape) for shape in shapes])
    assert len(whole) > 3
    assert list(_expansions_from(hand, shapes, hand.twos, 0)) == whole
    for place in range(len(whole)):
        assert _expansion_at(hand, shapes, place) == whole[place]
    assert list(_expansions_from(hand, shapes, hand.twos, len(whole) - 3)) == whole[-3:]
    with pytest.raises(IndexError):
        _expansion_at(hand, shapes, len(whole))
