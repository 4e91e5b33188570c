"""The core's draw phase of a side that has not opened on big hands (the scaling table's positions): its takes'
further melds counted with caps where the take's verdict stops changing (the further melds, the cards left, the
points) and shared by the groups alike in all the counting reads (the rest of the hand's wild cards in its
states), with the same count, first page, sample and action at a spread of indexes as the Python engine's,
Classic's 60 cards (1.2e19 actions, past 64 bits) among them; and the core's count itself, 128 bits where the
compiler has them, guarded past what it holds (the core then declines the position and the Python engine lists
it): no bundled deck's hand reaches that, so its helper is tested alone."""

from __future__ import annotations

import itertools
import random
from types import ModuleType
from typing import cast

import pytest

from canasta_ref import core
from canasta_ref.core.game import NativeGame
from canasta_ref.core.listing import NativeListing
from canasta_ref.engine.checks import initial_minimum
from canasta_ref.engine.rules import rules_for
from canasta_ref.scaling import scaling_position
from canasta_ref.spec import load_variant


@pytest.mark.parametrize(
    ("variant", "cards"),
    [
        ("classic", 45),
        ("classic", 60),  # 1.2e19 actions: past a 64-bit count
        ("classic-2p", 60),
        ("classic-3p", 60),
        ("classic-6p", 45),
        ("classic-6p", 60),  # 25 rests of the hand's wild cards, counted in one counting
        ("fournier", 60),
        ("hand-and-foot", 45),
        ("hand-and-foot", 60),
        ("hoyle-2p", 60),
    ],
)
def test_a_big_draw_phase_not_opened_is_listed_by_the_core_as_the_python_engine_lists_it(
    native_game: ModuleType, variant: str, cards: int
) -> None:
    rules = rules_for(load_variant(variant))
    python, native = (scaling_position(rules, cards, opened=False, phase="draw", core=c) for c in ("python", "native"))
    reference, mine = python.legal_actions(), native.legal_actions()
    total = reference.count()
    assert mine.count() == total > 10**9
    ran = cast(NativeGame, native).ran
    assert ran["listing on the core"] == 1 and not ran["listing on the Python engine"]
    assert list(itertools.islice(mine, 20)) == list(itertools.islice(reference, 20))
    drawn = random.Random(total)
    for index in {0, total - 1, *(total * k // 13 for k in range(13)), *(drawn.randrange(total) for _ in range(6))}:
        assert mine[index] == reference[index], index
    assert mine.sample(random.Random(cards)) == reference.sample(random.Random(cards))


def test_classic_60_cards_is_counted_past_64_bits_and_not_declined(native_game: ModuleType) -> None:
    classic = rules_for(load_variant("classic"))
    state = scaling_position(classic, 60, opened=False, phase="draw", core="python").state
    position = core.load_state(core.new_position(classic), state)
    listing = NativeListing(classic)
    minimum = initial_minimum(classic, state, state.to_act)
    assert listing.uncovered(position, minimum) is None
    assert listing.takes is not None and listing.takes.count(position, minimum) == 12_086_852_030_444_637_398


def test_the_core_count_adds_past_64_bits_and_refuses_past_what_it_holds(native_game: ModuleType) -> None:
    add = native_game.count_add_product
    most = 2 ** (native_game.COUNT_BITS - 1) - 1  # signed: -1 is the core's "none kept"
    assert add(most - 10, 5, 2) == most
    assert add(0, 0, most) == 0
    with pytest.raises(OverflowError, match="more actions than its"):
        add(most - 10, 11, 1)
    with pytest.raises(OverflowError, match="more actions than its"):
        add(0, 2, most // 2 + 1)
    with pytest.raises(OverflowError):
        add(most + 1, 0, 0)  # an index past the count is refused on the way in
    if native_game.COUNT_BITS == 128:
        assert add(2**64 + 1, 2**63, 2) == 2**65 + 1
        assert add(2**100, 3, 2**80) == 2**100 + 3 * 2**80
