"""Listings that count without enumerating (issue 40): in every bundled variant, including sequences (Samba,
Bolivia), feet (Hand and Foot) and special hands (Modern American), a small hand's ``count()`` is the length of
its listing, every index gives the action the listing gives there, and ``sample`` draws an action of the listing.
The first page (``legal[0..19]`` and the first actions of iteration, asked of a listing not counted yet, which
walks instead of counting) is the listing's first page, and ``sample`` is ``legal[rng.randrange(len(legal))]``.

Hypothesis draws the kind of position of ``canasta_ref.scaling`` (cards, side opened or not, phase, seed); the hands
are kept small (11 to 14 cards) so that the listing can be enumerated in a few milliseconds.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_ref import Rules, list_variants, load_variant
from canasta_ref.engine.blocks import WALK_BELOW, CountedWalk
from canasta_ref.engine.game import Game
from canasta_ref.engine.movegen import HandCards, group_shapes
from canasta_ref.engine.named import play_action_walk
from canasta_ref.engine.openings import OpeningCounter
from canasta_ref.engine.rankcount import NO_SUM, RankMultisets, RankWalk, Sum
from canasta_ref.scaling import scaling_position

VARIANTS = tuple(list_variants())
RULES = {name: Rules(load_variant(name)) for name in VARIANTS}
#: The variants whose openings may lay sequences or two groups of one rank, walked by ``named.play_action_walk``
#: and counted by ``openings.OpeningCounter``.
WALKED_OPENINGS = tuple(name for name in VARIANTS if not any(RULES[name].merges_same_rank))

positions = st.tuples(
    st.sampled_from(VARIANTS),
    st.integers(min_value=11, max_value=14),
    st.booleans(),
    st.sampled_from(("draw", "play")),
    st.integers(min_value=0, max_value=50),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions, pick=st.randoms(use_true_random=False))
def test_count_index_and_sample_agree_with_the_listing(
    position: tuple[str, int, bool, str, int], pick: random.Random
) -> None:
    variant, cards, opened, phase, seed = position
    game = scaling_position(RULES[variant], cards, opened=opened, phase=phase, seed=seed)  # type: ignore[arg-type]
    legal_actions = game.legal_actions()
    listed = list(legal_actions)
    assert legal_actions.count() == len(listed) == len(legal_actions)
    assert len(set(listed)) == len(listed), "each action listed once"
    if not listed:
        return
    index = pick.randrange(len(listed))
    assert legal_actions[index] == listed[index]
    assert legal_actions[-1] == listed[-1]
    assert legal_actions.sample(pick) in listed


PAGE = 20


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions)
def test_the_first_page_uncounted_is_the_listings_first_page(position: tuple[str, int, bool, str, int]) -> None:
    variant, cards, opened, phase, seed = position
    where = {"opened": opened, "phase": phase, "seed": seed}
    listed = list(scaling_position(RULES[variant], cards, **where).legal_actions())  # type: ignore[arg-type]
    first = list(itertools.islice(scaling_position(RULES[variant], cards, **where).legal_actions(), PAGE))  # type: ignore[arg-type]
    assert first == listed[:PAGE]
    counted = scaling_position(RULES[variant], cards, **where).legal_actions()  # type: ignore[arg-type]
    assert counted.count() == len(listed)
    for index in range(min(PAGE, len(listed))):
        fresh = scaling_position(RULES[variant], cards, **where).legal_actions()  # type: ignore[arg-type]
        assert fresh[index] == listed[index], f"legal[{index}] asked before any count"
        assert counted[index] == listed[index], f"legal[{index}] found by the blocks' indexing, once counted"
    beyond = scaling_position(RULES[variant], cards, **where).legal_actions()  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        beyond[len(listed)] if len(listed) < WALK_BELOW else beyond[-len(listed) - 1]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions, seeds=st.lists(st.integers(min_value=0, max_value=2**32), min_size=1, max_size=20))
def test_sample_is_an_index_drawn_from_the_seed(position: tuple[str, int, bool, str, int], seeds: list[int]) -> None:
    """``sample`` is reproducible and uniform: the action at ``rng.randrange(count)``, in every variant; an index
    among the openings a counter draws (``blocks.CountedWalk``: Samba and Bolivia, a side not opened) gives that
    counter's opening there, an action of the listing."""
    variant, cards, opened, phase, seed = position
    game = scaling_position(RULES[variant], cards, opened=opened, phase=phase, seed=seed)  # type: ignore[arg-type]
    legal_actions = game.legal_actions()
    listed = list(legal_actions)
    if not listed:
        with pytest.raises(IndexError):
            legal_actions.sample(random.Random(0))
        return
    drawn_apart = _counted_walk_indexes(game)
    assert not drawn_apart or variant in WALKED_OPENINGS
    for number in seeds:
        drawn = legal_actions.sample(random.Random(number))
        index = random.Random(number).randrange(len(listed))
        if index in drawn_apart:
            assert drawn in listed[drawn_apart.start : drawn_apart.stop]
        else:
            assert drawn == listed[index]
        assert legal_actions.sample(random.Random(number)) == drawn, "the same seed draws the same action"


def _counted_walk_indexes(game: Game) -> range:
    """The indexes of the listing's ``CountedWalk`` block (the openings a counter draws), or an empty range."""
    start = 0
    for block in game._listing().blocks:
        if isinstance(block, CountedWalk):
            return range(start, start + block.count())
        start += len(block)
    return range(0)


def test_every_bundled_variant_is_drawn_from() -> None:
    """The property covers the ten bundled variants, those with sequences, feet and special hands among them."""
    assert len(VARIANTS) == 10
    assert {"samba", "bolivia", "hand-and-foot", "modern-american"} <= set(VARIANTS)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions)
def test_listing_while_each_action_is_tried_and_taken_back(position: tuple[str, int, bool, str, int]) -> None:
    """A search tries each action as the listing gives it and takes it back (python-chess's pattern) while the
    lazy listing walks on: the actions are those of the listing made at once, in the same order."""
    variant, cards, opened, phase, seed = position
    where = {"opened": opened, "phase": phase, "seed": seed}
    listed = list(scaling_position(RULES[variant], cards, **where).legal_actions())  # type: ignore[arg-type]
    game = scaling_position(RULES[variant], cards, **where)  # type: ignore[arg-type]
    tried = []
    for action in game.legal_actions():
        if len(tried) < 30:  # a few tries cover the change of position; the rest is walked as usual
            game.apply(action)
            game.undo()
        tried.append(action)
    assert tried == listed


def test_some_variants_walk_their_openings() -> None:
    """The counter below is proved on the variants that use it: Samba and Bolivia among them."""
    assert {"samba", "bolivia"} <= set(WALKED_OPENINGS)


@pytest.mark.parametrize("variant", WALKED_OPENINGS)
def test_the_opening_counter_counts_the_distinct_actions_of_the_walk(variant: str) -> None:
    """``openings.OpeningCounter`` (no walk) counts the distinct openings the walk finds, draws each of them for one
    index (so a uniform index draws a uniform opening) and the same one whatever it drew before, and the listing's
    count built on it equals the listing's length, on hands small enough to walk."""
    counted_some = False
    for cards, seed in itertools.product((11, 13, 15, 16), range(6)):
        game = scaling_position(RULES[variant], cards, opened=False, phase="play", seed=seed)
        walked = list(play_action_walk(RULES[variant], game.state, False))
        assert len(set(walked)) == len(walked)
        counter = OpeningCounter(RULES[variant], game.state)
        assert counter.count() == len(walked), f"{cards} cards, seed {seed}"
        drawn = [counter.draw(index) for index in range(len(walked))]
        assert set(drawn) == set(walked), "each index draws an opening of the walk, each opening for one index"
        for index in range(0, len(walked), max(1, len(walked) // 5)):
            fresh = OpeningCounter(RULES[variant], game.state)
            assert fresh.draw(index) == drawn[index], "a counter drawn from before draws what a fresh one draws"
        with pytest.raises(IndexError):
            counter.draw(len(walked))
        counted_some = counted_some or bool(walked)
        legal_actions = scaling_position(RULES[variant], cards, opened=False, phase="play", seed=seed).legal_actions()
        assert legal_actions.count() == len(list(game.legal_actions()))
    assert counted_some, "some position has openings to count"


@pytest.mark.parametrize("variant", WALKED_OPENINGS)
def test_each_ranks_groups_are_counted_and_found_by_sum_as_the_walk_finds_them(variant: str) -> None:
    """``rankcount.RankMultisets`` (multisets of one rank's groups merged by the cards they leave and their sum)
    counts, for each sum, the multisets ``RankWalk`` walks one by one, and finds the ``n``-th of a sum where the
    walk meets it, rank by rank, for every multiset of sequences, on hands up to 30 cards (where a rank's groups
    make thousands of multisets): ``count`` and ``draw`` read these, so they are what the walk gave them."""
    compared = 0
    for cards, seed in itertools.product((11, 20, 30), range(2)):
        game = scaling_position(RULES[variant], cards, opened=False, phase="play", seed=seed)
        counter = OpeningCounter(RULES[variant], game.state)
        most_groups = max(counter.groups_cap, counter.repeated_cap + 1)
        for _, rest in counter._sequence_choices()[:3]:
            hand = HandCards(RULES[variant], tuple(rest))
            for shapes in group_shapes(RULES[variant], game.state, counter.seat, hand, True).values():
                _, units = counter.groups.units_of(hand, shapes)
                walked: dict[Sum, list[list[int]]] = {}
                for summed, chosen in RankWalk(units, list(rest), counter.repeats, most_groups).each(0, NO_SUM, []):
                    walked.setdefault(summed, []).append(list(chosen))
                multisets = RankMultisets(units, rest, counter.repeats, most_groups)
                assert multisets.counted() == {summed: len(each) for summed, each in walked.items()}, f"{cards} cards"
                for summed, each in itertools.islice(walked.items(), 4):
                    finding = RankMultisets(units, rest, counter.repeats, most_groups)
                    for which in range(0, len(each), max(1, len(each) // 9)):
                        assert finding.find(summed, which) == each[which], f"{cards} cards, #{which}"
                    with pytest.raises(IndexError):
                        finding.find(summed, len(each))
                compared += len(walked)
    assert compared > 100, f"some ranks make many sums (compared {compared})"
