"""The structured listing (``combos.Combinations``, used where a side that has not opened holds many cards) against
an independent slow enumeration: every candidate action (``movegen.candidates``) put to ``plan`` one by one.

On hands small enough to enumerate, the structures are forced on (``listing_kit.THRESHOLDS`` set to 0) and must give
the same actions in the same order as the plain listing (every threshold raised out of reach), the same count, the
same action at every index, and exactly the candidates ``plan`` accepts; the takes of a side that has not opened,
counted by shape (``blocks.TakeGroups``), are checked on their own against the same enumeration. On the big hands
of the benchmark's scaling table, where enumerating is out of reach, sampled indices must give distinct legal
actions.
"""

from __future__ import annotations

import random

import pytest
from listing_kit import thresholds

from canasta_ref import Rules, load_variant
from canasta_ref.engine import _native, legal
from canasta_ref.engine.blocks import TakeGroups
from canasta_ref.engine.combos import Aggregate, Combinations, Pool, _joined, _with, _with_points
from canasta_ref.engine.judge import is_legal
from canasta_ref.engine.named import candidates
from canasta_ref.scaling import scaling_position

VARIANTS = ("classic", "classic-2p", "hoyle-2p", "fournier", "modern-american")
RULES = {name: Rules(load_variant(name)) for name in VARIANTS}
SMALL = [
    (variant, cards, opened, phase, seed)
    for variant in VARIANTS
    for cards in (11, 15, 19)
    for opened in (False, True)
    for phase in ("draw", "play")
    for seed in range(3)
]


@pytest.mark.parametrize(("variant", "cards", "opened", "phase", "seed"), SMALL)
def test_structure_agrees_with_slow_enumeration(variant: str, cards: int, opened: bool, phase: str, seed: int) -> None:
    rules = RULES[variant]
    game = scaling_position(rules, cards, opened=opened, phase=phase, seed=seed)  # type: ignore[arg-type]
    state = game.state
    for _ in thresholds(10**30):
        plain = list(legal.listing(rules, state))
    state.derived = None
    for _ in thresholds(0):
        structured = legal.listing(rules, state)
        listed = list(structured)
        assert listed == plain, "the structure lists the same actions in the same order"
        assert structured.count() == len(plain)
        assert [structured[i] for i in range(len(plain))] == plain
        if plain:
            assert structured[-1] == plain[-1]
        with pytest.raises(IndexError):
            structured[len(plain)]
    slow = {a for a in candidates(rules, state) if is_legal(rules, state, a)}
    assert set(plain) == slow and len(plain) == len(slow), "exactly the legal candidates, each once"


#: Positions of a side that has not opened, to draw, whose takes are checked on their own.
DRAW_NOT_OPENED = [(variant, cards, seed) for variant in VARIANTS for cards in (11, 15, 19) for seed in range(4)]


@pytest.mark.parametrize(("variant", "cards", "seed"), DRAW_NOT_OPENED)
def test_takes_by_shape_agree_with_slow_enumeration(variant: str, cards: int, seed: int) -> None:
    """A side that has not opened, to draw: the takes counted by shape are exactly the legal takes with cards from
    hand that the slow enumeration finds, each at one index."""
    rules = RULES[variant]
    state = scaling_position(rules, cards, opened=False, phase="draw", seed=seed).state
    for _ in thresholds(0):
        blocks = [b for b in legal.listing(rules, state).blocks if isinstance(b, TakeGroups)]
    slow = {a for a in candidates(rules, state) if a.kind == "take" and a.cards and is_legal(rules, state, a)}
    if not blocks:
        assert not slow or rules.names_melds or rules.twos_value is None or not state.pile
        return
    (takes,) = blocks
    assert takes.count() == len(slow), "as many takes as the slow enumeration finds"
    indexed = [takes[i] for i in range(takes.count())]
    assert set(indexed) == slow and len(set(indexed)) == len(indexed), "every legal take at exactly one index"
    assert list(takes) == indexed, "indexing and iterating agree"


#: The benchmark's big hands of a side that has not opened, in both phases.
BIG = [
    (variant, cards, phase)
    for variant in ("classic", "classic-2p")
    for cards in (30, 45, 60)
    for phase in ("draw", "play")
]


@pytest.mark.parametrize(("variant", "cards", "phase"), BIG)
def test_big_hands_count_and_sample_without_enumerating(variant: str, cards: int, phase: str) -> None:
    rules = RULES[variant]
    game = scaling_position(rules, cards, opened=False, phase=phase)  # type: ignore[arg-type]
    legal_actions = game.legal_actions()
    total = legal_actions.count()
    structures = [b for b in game._listing().blocks if isinstance(b, (Combinations, TakeGroups))]
    assert structures, "a hand this big is kept as a structure"
    assert total > 1_000
    rng = random.Random(cards)
    indices = sorted({rng.randrange(total) for _ in range(25)} | {0, total - 1})
    drawn = [legal_actions[i] for i in indices]
    assert len(set(drawn)) == len(drawn), "distinct indices give distinct actions"
    for action in drawn:
        assert is_legal(rules, game.state, action), str(action)
    sampled = legal_actions.sample(rng)
    assert sampled in legal_actions


#: Big hands whose openings are counted by points vectors (``combos._PointsVectors``): Modern American's high
#: minimum makes its states differ mostly by their points.
BY_POINTS = [
    (variant, cards, seed) for variant in ("modern-american", "classic-2p") for cards in (45, 60) for seed in (0, 1)
]


@pytest.mark.parametrize(("variant", "cards", "seed"), BY_POINTS)
def test_points_vectors_count_what_the_state_by_state_counting_counts(variant: str, cards: int, seed: int) -> None:
    """The count by points vectors, and the action at an index (found by descending through the counts below each
    state), equal those of the counting state by state (``Combinations._completions``, the points in the state),
    which the small hands above prove against the slow enumeration."""
    where = {"opened": False, "phase": "play", "seed": seed}
    (structure,) = [b for b in _opening_structures(variant, cards, where) if b._by_points is not None]
    (by_states,) = _opening_structures(variant, cards, where)
    by_states._by_points = None
    total = structure.count()
    assert total == by_states.count() > 1_000
    rng = random.Random(seed)
    for index in sorted({rng.randrange(total) for _ in range(5)} | {0, total - 1}):
        assert structure[index] == by_states[index]


def _opening_structures(variant: str, cards: int, where: dict[str, object]) -> list[Combinations]:
    game = scaling_position(RULES[variant], cards, **where)  # type: ignore[arg-type]
    return [b for b in game._listing().blocks if isinstance(b, Combinations)]


#: Big hands whose takes with further melds are counted by points (``Combinations.count_from``): the ends that
#: differ only in their points judged once for all of them.
TAKES_BY_POINTS = [
    (variant, cards, seed) for variant in ("modern-american", "classic-2p") for cards in (45, 60) for seed in (0, 1)
]


@pytest.mark.skipif(_native.COMPILED, reason="it replaces a method of a class mypyc compiled: the pure pass runs it")
@pytest.mark.parametrize(("variant", "cards", "seed"), TAKES_BY_POINTS)
def test_take_counts_by_points_count_what_the_end_by_end_counting_counts(
    variant: str, cards: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The count of the takes, and the action at several indexes, equal those of a twin position whose takes with
    further melds are counted end by end, each end's verdict with its own points (the counting before the points
    were grouped, which the small hands above prove against the slow enumeration)."""
    where = {"opened": False, "phase": "draw", "seed": seed}
    by_points = scaling_position(RULES[variant], cards, **where).legal_actions()  # type: ignore[arg-type]
    total = by_points.count()
    starts: list[Aggregate] = []

    def count_end_by_end(whole: Combinations, start: Aggregate, pool: Pool, jokers: int) -> int:
        starts.append(start)
        unused_twos = sum(n for _, n in pool)
        counted = 0
        for end, ways in whole._ends_for(pool).items():
            if end.jokers <= jokers:
                unused = unused_twos - sum(end.twos) + jokers - end.jokers
                joined = _joined(start, end, whole._caps, unused)
                counted += ways if joined.groups > 0 and whole._verdict(joined) else 0
        return counted

    monkeypatch.setattr(Combinations, "count_from", count_end_by_end)
    end_by_end = scaling_position(RULES[variant], cards, **where).legal_actions()  # type: ignore[arg-type]
    assert total == end_by_end.count() > 1_000
    assert starts, "the takes' further melds were counted from the whole hand's structure"
    rng = random.Random(seed)
    for index in sorted({rng.randrange(total) for _ in range(5)} | {0, total - 1}):
        assert by_points[index] == end_by_end[index]


def _ends_one_by_one(whole: Combinations, pool: Pool) -> dict[Aggregate, int]:
    """The end states of the forward pass with their ways for the twos ``pool``, each state decoded and weighed on
    its own (its twos as their total): what ``Combinations._ends_for`` gives, without grouping the ends by points
    or by the sizes of their groups of twos."""
    layout = whole._layout
    ends: dict[Aggregate, int] = {}
    for code, reached in whole._forward().items():
        key = code & layout.verdict_mask
        state = layout.decode(key)
        total = key >> layout.twos_used_shift & layout.twos_used_mask
        end = _with(state, state.left, (total,) if total else ())
        ways = reached * whole._twos_ways(pool, layout.twos_of(code))
        if ways:
            ends[end] = ends.get(end, 0) + ways
    return ends


@pytest.mark.skipif(_native.COMPILED, reason="it replaces a method of a class mypyc compiled: the pure pass runs it")
@pytest.mark.parametrize(("variant", "cards", "seed"), [case for case in TAKES_BY_POINTS if case[2] == 0])
def test_end_states_grouped_by_points_weigh_what_each_end_weighs(
    variant: str, cards: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The end states the takes are counted from, grouped by points (``_ends_by_points``, each with the ways from
    each points value to the last summed) and by sizes of twos (``_ends_for``), weigh what the forward pass's end
    states weigh one by one, for every pool of twos a take leaves."""
    original = Combinations.count_from
    pools: list[Pool] = []

    def checked(whole: Combinations, start: Aggregate, pool: Pool, jokers: int) -> int:
        if pool not in pools:
            pools.append(pool)
            one_by_one = _ends_one_by_one(whole, pool)
            assert whole._ends_for(pool) == one_by_one
            by_points: dict[Aggregate, int] = {}
            for end, points, ways, tails in whole._ends_by_points(pool):
                assert list(points) == sorted(points)
                assert list(tails) == [sum(ways[at:]) for at in range(len(ways))]
                for value, counted in zip(points, ways, strict=True):
                    with_points = _with_points(end, value)
                    by_points[with_points] = by_points.get(with_points, 0) + counted
            assert by_points == one_by_one
        return original(whole, start, pool, jokers)

    monkeypatch.setattr(Combinations, "count_from", checked)
    where = {"opened": False, "phase": "draw", "seed": seed}
    assert scaling_position(RULES[variant], cards, **where).legal_actions().count() > 1_000  # type: ignore[arg-type]
    assert pools, "the takes' further melds were counted from the whole hand's structure"
