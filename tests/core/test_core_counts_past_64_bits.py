"""The core's counts past 64 bits where a 60-card hand's listing passes them: random play in C chooses among
Fournier's 4e19 openings with its 128-bit count (the generator's 128-bit draw, ``Position.below`` the same for
Python's choices), and a single take shape's further melds past what a block of the listing holds (``len()`` stops
at ``sys.maxsize``) split into consecutive blocks, as the openings are."""

from __future__ import annotations

import itertools
import random
from types import ModuleType
from typing import cast

import pytest

from canasta_ref import core
from canasta_ref.core import listing as native_listing
from canasta_ref.core.listing import NativeListing, NativeTakeExtras
from canasta_ref.core.play import RandomPlay, decode
from canasta_ref.engine.blocks import Listing, TakeGroups, take_group
from canasta_ref.engine.cards import Card
from canasta_ref.engine.checks import initial_minimum
from canasta_ref.engine.legal import listing
from canasta_ref.engine.rules import rules_for
from canasta_ref.scaling import scaling_position
from canasta_ref.spec import load_variant


def test_below_draws_past_64_bits_and_below_2_63_as_before(library: ModuleType) -> None:
    position = core.new_position(rules_for(load_variant("classic")))
    position.seed(11)
    small = [position.below(1000) for _ in range(5)]
    position.seed(11)
    assert [position.below(1000) for _ in range(5)] == small  # the same seed, the same draws
    if library.COUNT_BITS == 128:
        drawn = [position.below(2**100 + 7) for _ in range(8)]
        assert all(0 <= n < 2**100 + 7 for n in drawn) and max(drawn) >= 2**64  # not a 64-bit draw
    with pytest.raises(ValueError, match="below 0"):
        position.below(0)


def test_random_play_chooses_among_openings_past_64_bits_as_the_reference_lists_them(library: ModuleType) -> None:
    if library.COUNT_BITS != 128:
        pytest.skip("the core's count is 64 bits: the loop leaves such a hand's openings to Python")
    rules = rules_for(load_variant("fournier"))
    state = scaling_position(rules, 60, opened=False, phase="play", core="python").state
    reference = listing(rules, state)
    total = reference.count()
    assert total > 2**64
    play = RandomPlay(rules)
    for seed in (3, 4):
        position = core.load_state(play.position, state)
        position.set_minimums(play.minimums(state))
        position.seed(seed)
        actions: list[tuple[int, ...]] = []
        counts: list[int] = []
        _stop, _ended, applied = position.play(
            play.context, play.apply.context, play.openings, play.answers, (actions, counts), 1
        )
        assert applied == 1 and counts == [total]
        drawn = core.new_position(rules)
        drawn.seed(seed)
        assert decode(actions[0]) == reference[drawn.below(total)]


def _draw_listings(cards: int) -> tuple[Listing, Listing]:
    """The core's listing and the Python engine's of Classic's draw phase of a side not opened in the scaling table."""
    rules = rules_for(load_variant("classic"))
    state = scaling_position(rules, cards, opened=False, phase="draw", core="python").state
    position = core.load_state(core.new_position(rules), state)
    takes = NativeListing(rules).takes
    assert takes is not None
    return takes.of(position, initial_minimum(rules, state, state.to_act)), listing(rules, state)


def _biggest_group(found: Listing) -> tuple[Card, ...]:
    """The first group of the take shape with the most takes with further melds in the core's listing ``found``."""
    groups = cast(TakeGroups, found.blocks[-1])
    weights = (
        (natural, wild, weight)
        for natural, k, _ in groups._counted()
        for wild, weight in groups._parts[(len(natural), k)]
    )
    natural, wild, _ = max(weights, key=lambda run: run[2])
    return take_group(natural, wild)


def _extras(found: Listing, group: tuple[Card, ...]) -> list[NativeTakeExtras]:
    """The blocks of takes with further melds of ``group`` in the core's listing ``found``."""
    actions = cast(TakeGroups, found.blocks[-1])._group_actions(group)
    return [block for block in actions.blocks if isinstance(block, NativeTakeExtras)]


def test_a_take_shape_past_a_block_is_split_into_blocks_that_list_as_one(
    library: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No bundled hand has a take shape of more than 2**62 further-meld takes (Classic's 60 cards: 8.1e17 at most),
    so the bound of a block is lowered for the test: the split blocks give the actions one block gives, at each
    block's first and last and walked from its first, and the whole listing is the reference's."""
    whole, reference = _draw_listings(60)
    group = _biggest_group(whole)
    (single,) = _extras(whole, group)
    bound = 10**17
    assert len(single) > 3 * bound
    monkeypatch.setattr(native_listing, "_BLOCK_MOST", bound)
    split, _ = _draw_listings(60)
    parts = _extras(split, group)
    assert [len(part) for part in parts] == [min(bound, len(single) - first) for first in range(0, len(single), bound)]
    for at, part in enumerate(parts):
        first = at * bound
        assert list(itertools.islice(part, 3)) == [single[first + k] for k in range(3)]
        assert part[0] == single[first] and part[-1] == single[first + len(part) - 1]
    total = reference.count()
    assert split.count() == total
    for index in (random.Random(5).randrange(total) for _ in range(6)):
        assert split[index] == reference[index]
