"""What the openings' and takes' counters share (``rankcount``, issue 40), proved against the slow walks: one
``RankMultisets`` kept for a rank answers every later find, whatever sums were found before (its memo is kept by
the sum sought), and a base whose every take pile.take refuses is counted as none without a pass over the
sequences, where the walk lists none of it either."""

from __future__ import annotations

import itertools

import pytest
from test_take_counting import walked_takes

from canasta_ref import Rules, load_variant
from canasta_ref.engine.movegen import HandCards, group_shapes
from canasta_ref.engine.openings import OpeningCounter
from canasta_ref.engine.rankcount import NO_SUM, RankMultisets, RankWalk, Sum
from canasta_ref.engine.takecount import TakeCounter
from canasta_ref.scaling import scaling_position

VARIANTS = ("samba", "bolivia")
RULES = {name: Rules(load_variant(name)) for name in VARIANTS}


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_rank_multisets_finds_every_sum_in_turn_as_the_walk_orders_it(variant: str) -> None:
    """A single ``RankMultisets`` per rank, asked for the multisets of several sums in turn (round robin, so each
    find follows finds of other sums), finds each where ``RankWalk`` meets it, and none past the last."""
    rules = RULES[variant]
    found = 0
    for cards, seed in itertools.product((20, 26), range(2)):
        game = scaling_position(rules, cards, opened=False, phase="play", seed=seed)
        counter = OpeningCounter(rules, game.state)
        most_groups = counter.groups.most_groups
        hand = HandCards(rules, tuple(counter.counts))
        for shapes in group_shapes(rules, game.state, counter.seat, hand, True).values():
            _, units = counter.groups.units_of(hand, shapes)
            walked: dict[Sum, list[list[int]]] = {}
            for summed, chosen in RankWalk(units, list(counter.counts), counter.repeats, most_groups).each(
                0, NO_SUM, []
            ):
                walked.setdefault(summed, []).append(list(chosen))
            kept = RankMultisets(units, counter.counts, counter.repeats, most_groups)
            asked = [
                (summed, which) for summed, each in walked.items() for which in range(0, len(each), 1 + len(each) // 5)
            ]
            asked.sort(key=lambda pair: pair[1])  # every sum's first, then every sum's next: sums interleaved
            for summed, which in asked:
                assert kept.find(summed, which) == walked[summed][which], f"{cards} cards, seed {seed}, #{which}"
                found += 1
            for summed, each in walked.items():
                with pytest.raises(IndexError):
                    kept.find(summed, len(each))
    assert found > 100, f"some ranks make many sums (found {found})"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_base_pile_take_refuses_whatever_it_lays_counts_none_as_the_walk_lists_none(variant: str) -> None:
    """``TakeCounter`` counts no take of a base ``PileTake.refuses_every`` refuses (without counting its sequences),
    where the walk lists none; a base not refused so is counted as the walk lists it; both kinds occur."""
    rules = RULES[variant]
    kinds: set[bool] = set()
    for state, takes in walked_takes(variant):
        counter = TakeCounter(rules, state)
        for base, walked in takes:
            refused = counter._refused_whole(base)
            assert counter.count_of(base) == len(walked), base
            if refused:
                assert walked == [], base
            kinds.add(refused)
    assert kinds == {True, False}
