"""The openings' counting shared by the multisets of sequences (``openings._Shared``, issue 40), proved against
the counting it replaced: each multiset of sequences counted on its own, rank by rank, from its own start, on
hands of Samba and Bolivia too big to walk (20 to 34 cards, up to hundreds of millions of openings). Its draws,
at indexes spread over the count, are legal openings (``checks.plan_melding``), each index its own opening, each
laying a sequence or repeating a rank as the walk's openings do; the small hands' walk is in
``test_listing_counts``."""

from __future__ import annotations

import itertools

import pytest

from canasta_ref import Rules, load_variant
from canasta_ref.engine.actions import Action
from canasta_ref.engine.cards import SEQUENCE_RANK
from canasta_ref.engine.checks import group_rank, plan_melding
from canasta_ref.engine.movegen import HandCards
from canasta_ref.engine.openings import Grouped, OpeningCounter, _state_of, _state_rest
from canasta_ref.errors import IllegalAction
from canasta_ref.scaling import scaling_position

VARIANTS = ("samba", "bolivia")
RULES = {name: Rules(load_variant(name)) for name in VARIANTS}
HANDS = tuple(itertools.product((20, 26, 30, 34), range(2)))


def _each_multiset_apart(counter: OpeningCounter) -> int:
    """The count as it was made before the sharing: for each multiset of sequences, its own start and every rank
    its cards hold a group of, in rank order."""
    total = 0
    for chosen, rest in counter._sequence_choices():
        hand = HandCards(counter.rules, tuple(rest))
        per_rank = counter.shapes.of(hand)
        start = counter._start(chosen, rest, sorted(per_rank))
        states: Grouped = {_state_rest(start): {start[0]: 1}}
        for rank in sorted(per_rank):
            after: Grouped = {}
            sums = counter.grouped_sums_of(rank, hand, per_rank[rank], rest)
            counter.combine(states, sums, hand.count(rank), after)
            states = after
        finals = {_state_of(wilds, rest): n for rest, each in states.items() for wilds, n in each.items()}
        total += counter._legal_ways(finals)
    return total


def _legal(rules: Rules, counter: OpeningCounter, action: Action) -> bool:
    """Whether ``plan`` accepts the opening ``action`` of the seat to act."""
    try:
        plan_melding(rules, counter.state, action)
    except IllegalAction:
        return False
    return True


def _walked_kind(rules: Rules, action: Action) -> bool:
    """Whether an opening is one the walk lists apart: it lays a sequence or two groups of one rank."""
    ranks = [group_rank(rules, group) for group in action.melds]
    return SEQUENCE_RANK in ranks or len(set(ranks)) < len(ranks)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_shared_counting_counts_as_each_multiset_apart(variant: str) -> None:
    """The counting shared by nodes gives, on hands of 20 to 34 cards, the count of each multiset of sequences
    counted apart (the previous code's counting); some of those hands have millions of openings."""
    biggest = 0
    for cards, seed in HANDS:
        game = scaling_position(RULES[variant], cards, opened=False, phase="play", seed=seed)
        counter = OpeningCounter(RULES[variant], game.state)
        count = counter.count()
        assert count == _each_multiset_apart(OpeningCounter(RULES[variant], game.state)), f"{cards} cards, seed {seed}"
        biggest = max(biggest, count)
    assert biggest > 1_000_000, "some hand has millions of openings"


@pytest.mark.parametrize("variant", VARIANTS)
def test_draws_spread_over_a_big_count_are_distinct_legal_openings(variant: str) -> None:
    """About 20 indexes spread over the count of a big hand each draw a legal opening the walk would list, no two
    the same, and the index past the last draws none."""
    drawn_some = False
    for cards, seed in HANDS[-2:]:
        game = scaling_position(RULES[variant], cards, opened=False, phase="play", seed=seed)
        counter = OpeningCounter(RULES[variant], game.state)
        count = counter.count()
        indexes = sorted({0, count - 1, *(count * k // 19 for k in range(19))} - {-1})
        drawn = [counter.draw(index) for index in indexes]
        assert len(set(drawn)) == len(drawn), f"{cards} cards, seed {seed}: an opening drawn for two indexes"
        for index, action in zip(indexes, drawn, strict=True):
            assert _legal(RULES[variant], counter, action), f"{cards} cards, seed {seed}, index {index}: {action}"
            assert _walked_kind(RULES[variant], action), f"{cards} cards, seed {seed}, index {index}: {action}"
        with pytest.raises(IndexError):
            counter.draw(count)
        drawn_some = drawn_some or bool(drawn)
    assert drawn_some
