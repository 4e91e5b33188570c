"""The draw phase of a side that has not opened in Samba and Bolivia, counted without walking it (issue 40): the
takes whose further melds a walk lists one by one are skipped where hook pile.take refuses them whatever they lay
(``named.PileTake.refuses_every``), and each answer is proved against the slow walk on small hands."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from test_listing_counts import _counted_walk_indexes

from canasta_ref import Rules, load_variant
from canasta_ref.engine.actions import Action
from canasta_ref.engine.cards import SEQUENCE_ORDER, rank_of
from canasta_ref.engine.movegen import take_groups, take_pool
from canasta_ref.engine.named import (
    PileTake,
    ShapesWithin,
    _legal,
    _runs,
    _take_candidate_walk,
    _with,
    take_openings_with_extras,
    wild_choices,
)
from canasta_ref.engine.state import HandState
from canasta_ref.engine.takecount import TakeCounter
from canasta_ref.scaling import scaling_position

VARIANTS = ("samba", "bolivia")
RULES = {name: Rules(load_variant(name)) for name in VARIANTS}


def draw_states(variant: str, sizes: tuple[int, ...], seeds: range) -> Iterator[HandState]:
    """Draw-phase positions of a side not opened that has a pile to take."""
    for cards, seed in itertools.product(sizes, seeds):
        state = scaling_position(RULES[variant], cards, opened=False, phase="draw", seed=seed).state
        if state.pile:
            yield state


def bases(rules: Rules, state: HandState) -> Iterator[tuple[int, ...]]:
    """The cards from hand of every take the walks start from: the take groups, and the runs through the top card
    with any wild cards (the takes that would start a sequence)."""
    counts = state.hands[state.to_act]
    top = state.pile[-1]
    yield from take_groups(rules, take_pool(rules, counts, top), counts, True)
    for run in _runs(rules, _with(counts, top), top & 3, SEQUENCE_ORDER[0], SEQUENCE_ORDER[-1]):
        if top in run:
            from_hand = list(run)
            from_hand.remove(top)
            for wild in wild_choices(rules, counts):
                yield tuple(from_hand) + wild


@pytest.mark.parametrize("variant", VARIANTS)
def test_pile_take_refuses_every_take_of_a_base_where_each_count_of_groups_is_refused(variant: str) -> None:
    """``refuses_every`` answers as asking every count of groups, of the top card's rank and of ranks repeated
    would, up to a bound; both answers occur (natural pairs allowed, sequences refused)."""
    rules = RULES[variant]
    answers = set()
    for state in draw_states(variant, (11, 20), range(3)):
        known: dict[tuple[object, ...], bool] = {}
        for base in bases(rules, state):
            pile_take = PileTake(rules, state, base)
            every = pile_take.refuses_every(6, known)
            each = [pile_take._allows(g, t, r) for g, t, r in itertools.product(range(7), repeat=3)]
            assert every == (not any(each)), base
            answers.add(every)
    assert answers == {True, False}


@pytest.mark.parametrize("variant", VARIANTS)
def test_takes_refused_whatever_they_lay_are_not_walked(variant: str) -> None:
    """The walk of named takes skips the further melds of a take pile.take refuses whatever they are, and lists what
    the walk that judges every candidate lists; the candidates it skips are many."""
    rules = RULES[variant]
    skipped = 0
    for state in draw_states(variant, (11, 20), range(3)):
        walked = list(_take_candidate_walk(rules, state, True))
        every = list(_take_candidate_walk(rules, state, False))
        assert [a for a in dict.fromkeys(walked) if _legal(rules, state, a)] == [
            a for a in dict.fromkeys(every) if _legal(rules, state, a)
        ]
        skipped += len(every) - len(walked)
    assert skipped > 100


#: Small hands of a side not opened whose takes with further melds the walk lists (a hundred to five hundred each):
#: (cards, seed). Three a variant: the slow walk they are proved against takes a few seconds on pure Python.
WALKED_TAKES = {
    "samba": [(16, 3), (17, 5), (18, 3)],
    "bolivia": [(15, 1), (17, 4), (18, 3)],
}


def walked_takes(variant: str) -> Iterator[tuple[HandState, list[tuple[tuple[int, ...], list[Action]]]]]:
    """Each position of ``WALKED_TAKES`` with its bases and the takes the walk lists for each."""
    rules = RULES[variant]
    for cards, seed in WALKED_TAKES[variant]:
        state = scaling_position(rules, cards, opened=False, phase="draw", seed=seed).state
        shapes = ShapesWithin(rules, state)
        top_rank = rank_of(state.pile[-1])
        yield (
            state,
            [
                (base, list(take_openings_with_extras(rules, state, shapes, base, top_rank)))
                for base in TakeCounter(rules, state).bases
            ],
        )


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_take_counter_counts_and_draws_the_distinct_takes_of_the_walk(variant: str) -> None:
    """``takecount.TakeCounter`` (no walk) counts the distinct takes the walk finds for each base, draws each of them
    for one index (so a uniform index draws a uniform take), the same one whatever it drew before, and no take past
    the last index."""
    rules = RULES[variant]
    counted = 0
    for state, takes in walked_takes(variant):
        counter = TakeCounter(rules, state)
        drawn: dict[tuple[int, ...], list[Action]] = {}
        for base, walked in takes:
            assert len(set(walked)) == len(walked)
            assert counter.count_of(base) == len(walked), base
            drawn[base] = [counter.draw_of(base, index) for index in range(len(walked))]
            assert sorted(drawn[base], key=str) == sorted(walked, key=str), "each take of the walk for one index"
            with pytest.raises(IndexError):
                counter.draw_of(base, len(walked))
            counted += len(walked)
        fresh = TakeCounter(rules, state)
        for base, each in reversed(drawn.items()):
            for index in range(0, len(each), max(1, len(each) // 3)):
                assert fresh.draw_of(base, index) == each[index], "a counter drawn from before draws the same"
    assert counted > 500


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_listing_of_counted_takes_is_the_walks(variant: str) -> None:
    """Where the takes are counted, the listing's count is the number of actions it walks, each once; its first
    page, asked before any count, and every index of it asked once counted, are the walk's; and a sample is the
    action at its index outside the takes a counter draws, an action of the listing inside them."""
    rules = RULES[variant]
    for cards, seed in WALKED_TAKES[variant]:
        where = {"opened": False, "phase": "draw", "seed": seed}
        listed = list(scaling_position(rules, cards, **where).legal_actions())  # type: ignore[arg-type]
        assert len(set(listed)) == len(listed)
        first = list(itertools.islice(scaling_position(rules, cards, **where).legal_actions(), 20))  # type: ignore[arg-type]
        assert first == listed[:20]
        game = scaling_position(rules, cards, **where)  # type: ignore[arg-type]
        legal = game.legal_actions()
        assert legal.count() == len(listed)
        drawn_apart = _counted_walk_indexes(game)
        assert drawn_apart, "the takes are counted"
        for index in range(0, len(listed), max(1, len(listed) // 20)):
            assert legal[index] == listed[index]
        for number in range(40):
            drawn = legal.sample(random.Random(number))
            index = random.Random(number).randrange(len(listed))
            assert drawn == listed[index] if index not in drawn_apart else drawn in listed[drawn_apart.start :]
