"""The draw phase of a side that has not opened in Samba and Bolivia, counted without walking it (issue 40): the
takes whose further melds a walk lists one by one are skipped where hook pile.take refuses them whatever they lay
(``named.PileTake.refuses_every``), and each answer is proved against the slow walk on small hands."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from canasta_ref import Rules, load_variant
from canasta_ref.engine.cards import SEQUENCE_ORDER
from canasta_ref.engine.movegen import take_groups, take_pool
from canasta_ref.engine.named import PileTake, _legal, _runs, _take_candidate_walk, _with, wild_choices
from canasta_ref.engine.state import HandState
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
