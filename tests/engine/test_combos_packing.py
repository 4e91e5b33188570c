"""The counting of ``combos.Combinations`` on packed states (``combos._Layout``) against a brute force over every
choice, on synthetic options that stretch the packing more than real hands do: negative points, melds to complete
that rise and fall, every canasta kind, compositions, several sizes of twos, duplicate twos, and twins started from
states far from the structure's own start.

The brute force builds each choice's aggregate directly from the options (no packing, no caps) and counts its
concrete actions as the ways to pick its natural cards times the ways to pick its twos one group after another.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from canasta_ref import Rules, load_variant
from canasta_ref.engine.actions import meld_of
from canasta_ref.engine.cards import CARD_TYPES, JOKER
from canasta_ref.engine.checks import ONE_UNFINISHED
from canasta_ref.engine.combos import Aggregate, Caps, Combinations, Option, Pool, Verdict
from canasta_ref.engine.movegen import HandCards, submultisets, without

RULES = Rules(load_variant("classic"))
#: Three ranks held (natural cards 4, 3 and 5 of them), 2 of one two and 1 of another, 2 jokers.
RANKS = (3, 7, 10)


def _hand() -> HandCards:
    counts = [0] * CARD_TYPES
    for rank, copies in zip(RANKS, ((2, 2), (1, 1, 1), (2, 2, 1)), strict=True):
        for suit, n in enumerate(copies):
            counts[rank * 4 + suit] = n
    first, second = [card for card in RULES.wild_cards if card != JOKER][:2]
    counts[first] = 2
    counts[second] = 1
    counts[JOKER] = 2
    return HandCards(RULES, tuple(counts))


def _options(hand: HandCards, rng: random.Random, *, negative: bool) -> list[list[Option]]:
    options = []
    for rank in RANKS:
        held = hand.count(rank)
        found = []
        for naturals in range(1, held + 1):
            for twos in range(3):
                for jokers in range(2):
                    if rng.random() < 0.5:
                        continue
                    kind = rng.choice((-1, -1, 0, 1, 2))
                    points = naturals * 10 - (rng.choice((0, 35)) if negative else 0)
                    unfinished = rng.choice((0, 0, ONE_UNFINISHED, -ONE_UNFINISHED if negative else 0))
                    ways = len(submultisets(hand.naturals[rank], naturals))
                    staying, leaving = rng.random() < 0.9, rng.random() < 0.8
                    composition = rng.choice((0, 1, 2, 4))
                    found.append(
                        Option(
                            naturals,
                            twos,
                            jokers,
                            ways,
                            points,
                            kind,
                            kind >= 0,
                            staying,
                            leaving,
                            unfinished,
                            composition,
                        )
                    )
        options.append(found)
    return options


def _twos_ways(pool: Pool, sizes: Sequence[int]) -> int:
    if not sizes:
        return 1
    return sum(_twos_ways(without(pool, picked), sizes[1:]) for picked in submultisets(pool, sizes[0]))


def _brute_count(hand: HandCards, options: list[list[Option]], start: Aggregate, verdict: object) -> int:
    """Every choice of at most one option per rank, aggregated without packing or caps."""
    total = 0
    for choice in itertools.product(*([None, *opts] for opts in options)):
        picked = [o for o in choice if o is not None]
        twos = sorted((o.twos for o in picked if o.twos), reverse=True)
        jokers = start.jokers + sum(o.jokers for o in picked)
        if sum(twos) > hand.twos_total or jokers > hand.jokers:
            continue
        kinds = list(start.kinds)
        for o in picked:
            if o.kind >= 0:
                kinds[o.kind] += 1
        left = start.left + sum(hand.count(r) for r in RANKS) - sum(o.naturals for o in picked)
        unused = hand.twos_total - sum(twos) + hand.jokers - jokers
        composition = start.composition
        for o in picked:
            composition |= o.composition
        finished = Aggregate(
            start.groups + len(picked),
            left + unused,
            start.points + sum(o.points for o in picked),
            tuple(twos),
            jokers,
            (kinds[0], kinds[1], kinds[2]),
            start.made + sum(o.new_canasta for o in picked),
            start.staying and all(o.staying for o in picked),
            start.leaving and all(o.leaving for o in picked),
            start.tag,
            start.unfinished + sum(o.unfinished for o in picked),
            composition,
        )
        if finished.groups and verdict(finished):  # type: ignore[operator]
            ways = 1
            for o in picked:
                ways *= o.ways
            total += ways * _twos_ways(hand.twos, twos)
    return total


def _seen(agg: Aggregate) -> tuple[object, ...]:
    """What a verdict may read of ``agg``: every field, the twos by their total (``combos.Verdict``)."""
    return (*agg[:3], sum(agg.twos), *agg[4:])


def _picky(agg: Aggregate) -> bool:
    """A verdict that reads every field, so that a field packed wrong changes the count."""
    return hash(_seen(agg)) % 3 != 0


UNCAPPED = Caps(None, None, None)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("negative", [False, True])
def test_packed_counting_matches_brute_force(seed: int, negative: bool) -> None:
    hand = _hand()
    options = _options(hand, random.Random(seed), negative=negative)
    structure = Combinations(hand, RANKS, options, left=0, caps=UNCAPPED, verdict=_picky, build=meld_of)
    start = Aggregate(0, 0, 0, (), 0, (0, 0, 0), 0, True, True)
    expected = _brute_count(hand, options, start, _picky)
    assert structure.count() == expected
    listed = list(structure)
    assert len(listed) == expected and len(set(listed)) == expected
    assert [structure[i] for i in range(expected)] == listed


@pytest.mark.parametrize("seed", range(8))
def test_twins_count_from_their_own_starts_and_share_the_packing(seed: int) -> None:
    hand = _hand()
    options = _options(hand, random.Random(seed), negative=True)
    core = Combinations(hand, RANKS, options, left=0, caps=UNCAPPED, verdict=_picky, build=meld_of)
    core.count()
    starts = [
        Aggregate(0, 3, 20, (), 0, (1, 0, 0), 1, True, False, (3, 2, 1), ONE_UNFINISHED, 2),
        Aggregate(0, 1, -5, (), 1, (0, 1, 0), 1, False, True, (2, 2, 0), 0, 8),  # a composition no option has
        Aggregate(0, 500, 0, (), 0, (0, 0, 9), 0, True, True, (4, 3, 1), 7),  # far beyond what the options reach
    ]
    for start in starts:
        twin = core.started(start, meld_of)
        assert twin.count() == _brute_count(hand, options, start, _picky), start
        assert len(set(twin)) == twin.count()


def test_a_start_the_hand_cannot_make_is_refused() -> None:
    hand = _hand()
    options = _options(hand, random.Random(0), negative=False)
    core = Combinations(hand, RANKS, options, left=0, caps=UNCAPPED, verdict=_picky, build=meld_of)
    with pytest.raises(ValueError, match="beyond what the hand holds"):
        core.started(Aggregate(0, 0, 0, (), hand.jokers + 1, (0, 0, 0), 0, True, True), meld_of)
    with pytest.raises(ValueError, match="no option takes"):
        core.started(Aggregate(0, 0, 0, (7,), 0, (0, 0, 0), 0, True, True), meld_of)


def _reading_caps(caps: Caps) -> Verdict:
    """A verdict that reads every field, the capped ones only up to their caps (so capping must change nothing)."""
    groups_cap, left_cap, points_cap = (10**6 if cap is None else cap for cap in caps)

    def verdict(agg: Aggregate) -> bool:
        seen = (min(agg.groups, groups_cap), min(agg.left, left_cap), min(agg.points, points_cap), *_seen(agg)[3:])
        return hash(seen) % 3 != 0

    return verdict


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("caps", [Caps(1, 2, 30), Caps(2, 1, 10), Caps(1, 3, 0), Caps(None, 2, 50), Caps(3, None, 20)])
def test_moves_merged_at_the_caps_count_what_the_brute_force_counts(seed: int, caps: Caps) -> None:
    """States at or near a cap take merged moves (``_Layout.merged_moves``): options that differ only in what a
    cap absorbs are summed into one. From the structure's own start and from twins' starts, some at a cap."""
    hand = _hand()
    options = _options(hand, random.Random(seed), negative=False)
    verdict = _reading_caps(caps)
    core = Combinations(hand, RANKS, options, left=0, caps=caps, verdict=verdict, build=meld_of)
    start = Aggregate(0, 0, 0, (), 0, (0, 0, 0), 0, True, True)
    assert core.count() == _brute_count(hand, options, start, verdict)
    assert list(core) == list(Combinations(hand, RANKS, options, left=0, caps=UNCAPPED, verdict=verdict, build=meld_of))
    for twin_start in (
        Aggregate(1, 4, 45, (), 0, (1, 0, 0), 1, True, True, (3, 2, 1)),  # every capped field at or past its cap
        Aggregate(0, 1, 5, (), 1, (0, 0, 0), 0, True, False, (2, 2, 0)),  # near the caps
    ):
        twin = core.started(twin_start, meld_of)
        assert twin.count() == _brute_count(hand, options, twin_start, verdict), twin_start
        walked = list(twin)
        assert len(walked) == twin.count()
        for index in _spread_indexes(len(walked), random.Random(seed)):
            assert twin[index] == walked[index], (twin_start, index)


def _spread_indexes(total: int, rng: random.Random) -> list[int]:
    """Indexes that reach every part of a listing of ``total``: both ends, a prime stride through it and random
    ones. Finding each of ~50,000 actions by index costs seconds a case; a stride finds an index that strays from
    the walk as surely, in a hundredth of the time."""
    if total == 0:
        return []
    chosen = {0, total - 1, *range(0, total, 97), *(rng.randrange(total) for _ in range(200))}
    return sorted(chosen)


def test_caps_merge_states_where_the_verdict_stops_changing() -> None:
    hand = _hand()
    options = _options(hand, random.Random(99), negative=False)
    caps = Caps(1, 2, 30)

    def verdict(agg: Aggregate) -> bool:
        return min(agg.points, 30) >= 30 and min(agg.left, 2) >= 2 and agg.staying

    capped = Combinations(hand, RANKS, options, left=0, caps=caps, verdict=verdict, build=meld_of)
    exact = Combinations(hand, RANKS, options, left=0, caps=UNCAPPED, verdict=verdict, build=meld_of)
    start = Aggregate(0, 0, 0, (), 0, (0, 0, 0), 0, True, True)
    assert capped.count() == exact.count() == _brute_count(hand, options, start, verdict) > 0
    assert list(capped) == list(exact)
