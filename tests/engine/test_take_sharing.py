"""The takes' counting shared by the multisets of sequences (``takeshare.SharedTakes``, issue 40), proved against
the counting it replaced: each multiset of sequences counted on its own, rank by rank from its own start, with the
top card's rank and the base last (``TakeCounter._finals``), on hands of Samba and Bolivia too big to walk. The
takes of a base by multiset (what a draw reads) are the same numbers, so a draw at any index is the take the count
a multiset at a time draws there; the small hands' walk is in ``test_take_counting``."""

from __future__ import annotations

import itertools

import pytest

from canasta_ref import Rules, load_variant
from canasta_ref.engine import _native
from canasta_ref.engine.cards import Card
from canasta_ref.engine.state import HandState
from canasta_ref.engine.takecount import TakeCounter
from canasta_ref.scaling import scaling_position

#: The counter apart extends ``TakeCounter``, which an interpreted class cannot do where mypyc compiled it.
pytestmark = pytest.mark.skipif(_native.COMPILED, reason="it extends a class mypyc compiled: the pure pass runs it")

VARIANTS = ("samba", "bolivia")
RULES = {name: Rules(load_variant(name)) for name in VARIANTS}
HANDS = tuple(itertools.product((20, 26, 30), range(2)))


class ApartCounter(TakeCounter):
    """The counter as it counted before the sharing: the takes of a base with each multiset of sequences from that
    multiset's own layers and last states (``_finals``)."""

    def _ways_by_place(self, base: tuple[Card, ...]) -> list[int]:
        if self._refused_whole(base):
            return [0] * len(self._sequence_choices())
        return [
            sum(ways * more for _, _, ways, more in self._finals(place, base))
            for place in range(len(self._sequence_choices()))
        ]

    def count_of(self, base: tuple[Card, ...]) -> int:
        return sum(self._ways_by_place(base))


def _draw_states(variant: str) -> list[HandState]:
    """The draw-phase positions of ``HANDS`` of a side not opened that has a pile to take."""
    states = []
    for cards, seed in HANDS:
        state = scaling_position(RULES[variant], cards, opened=False, phase="draw", seed=seed).state
        if state.pile:
            states.append(state)
    return states


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_shared_counting_counts_each_base_as_each_multiset_apart(variant: str) -> None:
    """Every base's count, and its takes with each multiset of sequences, are those of each multiset counted apart;
    some bases have none (refused, or too few cards beside the sequences) and some hundreds of thousands."""
    rules = RULES[variant]
    biggest, empty = 0, 0
    for state in _draw_states(variant):
        shared, apart = TakeCounter(rules, state), ApartCounter(rules, state)
        for base in shared.bases:
            by_place = shared._ways_by_place(base)
            assert by_place == apart._ways_by_place(base), base
            assert shared.count_of(base) == sum(by_place) == apart.count_of(base), base
            biggest = max(biggest, shared.count_of(base))
            empty += shared.count_of(base) == 0
    assert biggest > 100_000, "some base has hundreds of thousands of takes"
    assert empty > 0, "some base has none"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_draw_is_the_take_the_count_apart_draws_at_the_same_index(variant: str) -> None:
    """About 20 indexes spread over each base's takes draw the take the counter apart draws at the same index, no
    two the same, and the index past the last draws none."""
    rules = RULES[variant]
    drawn = 0
    for state in _draw_states(variant)[-2:]:
        shared, apart = TakeCounter(rules, state), ApartCounter(rules, state)
        for base in shared.bases[:: max(1, len(shared.bases) // 6)]:
            count = shared.count_of(base)
            if not count:
                with pytest.raises(IndexError):
                    shared.draw_of(base, 0)
                continue
            indexes = sorted({(count - 1) * k // 19 for k in range(20)})
            takes = [shared.draw_of(base, index) for index in indexes]
            assert takes == [apart.draw_of(base, index) for index in indexes], base
            assert len(set(takes)) == len(takes)
            with pytest.raises(IndexError):
                shared.draw_of(base, count)
            drawn += len(takes)
    assert drawn > 50
