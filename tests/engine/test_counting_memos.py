"""What a count of openings keeps (``openings.OpeningCounter``, ``rankcount.RankGroups``, issue 40): its memos of
groups hold plain tuples, which CPython's collector stops tracking once they survive a collection, so that the
thousands a big count keeps do not make full collections fire during it; and a draw still gives its groups as
``MeldGroup``s, equal to those the memo holds."""

from __future__ import annotations

import gc

import pytest

from canasta_ref import Rules, load_variant
from canasta_ref.engine.actions import MeldGroup
from canasta_ref.engine.openings import OpeningCounter
from canasta_ref.scaling import scaling_position

VARIANTS = ("samba", "bolivia")
RULES = {name: Rules(load_variant(name)) for name in VARIANTS}


def _counted(variant: str) -> OpeningCounter:
    """A counter of a 30-card hand of a side not opened, counted (and one opening drawn), its memos filled."""
    game = scaling_position(RULES[variant], 30, opened=False, phase="play", seed=0)
    counter = OpeningCounter(RULES[variant], game.state)
    assert counter.count() > 0
    return counter


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rank_memos_hold_groups_the_collector_untracks(variant: str) -> None:
    """After collections, no group the rank memos keep is tracked, nor any unit's needs; a named tuple would be.
    Two collections: a tuple made from a generator is allocated before its items, and the collector, untracking in
    the order of allocation, leaves it tracked until the next one."""
    counter = _counted(variant)
    made = list(counter.groups._made.values())
    assert made, "the count made some rank's groups"
    gc.collect()
    gc.collect()
    groups = [group for kept, _ in made for group in kept]
    assert groups
    assert not any(type(group) is MeldGroup for group in groups)
    assert not any(gc.is_tracked(group) for group in groups)
    assert not any(gc.is_tracked(needs) for _, multisets in made for needs in multisets.needs)
    assert not any(gc.is_tracked(key) for key in counter.groups._sums)
    assert gc.is_tracked(MeldGroup(groups[0][0])), "the named tuple the memo avoids stays tracked"


@pytest.mark.parametrize("variant", VARIANTS)
def test_draws_give_meld_groups_equal_to_the_memos_plain_tuples(variant: str) -> None:
    """Openings drawn over the count are made of ``MeldGroup``s, and the groups of one rank among them are groups
    the memo keeps (equal as tuples)."""
    counter = _counted(variant)
    count = counter.count()
    kept = {group for groups, _ in counter.groups._made.values() for group in groups}
    found_kept = False
    for index in sorted({0, count - 1, *(count * k // 7 for k in range(7))}):
        action = counter.draw(index)
        assert action.melds and all(type(group) is MeldGroup for group in action.melds), f"index {index}"
        found_kept = found_kept or any(group in kept for group in action.melds)
    assert found_kept, "some drawn opening lays a group of the rank memos"
