"""The forward pass by points vectors (``Combinations._forward_by_points``): the takes of a big hand that has not
opened are counted from the end states of one forward pass over the whole hand, and where the structure has points
vectors those states are carried without their points, a vector of ways by points each. Its end states, read out
(slot by slot), must be exactly the plain forward pass's (``_forward``), state by state with the same ways, and
the ends each pool of twos weighs (``_ends_by_points``) the plain pass's; where the structure has no vectors, or
its start's points fall off the vectors' step, the plain pass runs. The pass turns to vectors only where the
states differ mostly by their points (``combos.VECTORS_FROM``); turned early or never, it reaches the same states.
The fold of the counts carried past the cap (``_PointsVectors.forward``) is checked on its own, both with counts
past the cap and without.
"""

from __future__ import annotations

import random

import pytest

from canasta_ref import Rules, load_variant
from canasta_ref.engine import _native, combos
from canasta_ref.engine.combos import Aggregate, Combinations, EndByPoints, Pool, _PointsVectors
from canasta_ref.scaling import scaling_position

VARIANTS = ("modern-american", "classic-2p", "classic", "hand-and-foot")
RULES = {name: Rules(load_variant(name)) for name in VARIANTS}
#: Tests that replace a method of a class mypyc compiled: the pure pass runs them.
PURE_ONLY = pytest.mark.skipif(bool(_native.COMPILED), reason="it replaces a method of a class mypyc compiled")
BIG = [(variant, cards, seed) for variant in VARIANTS for cards in (45, 60) for seed in (0, 1)]


def _take_structures(variant: str, cards: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> list[Combinations]:
    """The whole-hand structures the takes of a draw position not opened are counted from (``count_from``)."""
    found: list[Combinations] = []
    original = Combinations.count_from

    def seen(whole: Combinations, start: Aggregate, pool: Pool, jokers: int) -> int:
        if all(whole is not known for known in found):
            found.append(whole)
        return original(whole, start, pool, jokers)

    monkeypatch.setattr(Combinations, "count_from", seen)
    game = scaling_position(RULES[variant], cards, opened=False, phase="draw", seed=seed)
    assert game.legal_actions().count() > 1_000
    return found


def _read_out(whole: Combinations) -> dict[int, int]:
    """The states of the forward pass by points, each vector's slots read out as states with their points."""
    vectors = whole._by_points
    assert vectors is not None
    layout = whole._layout
    states: dict[int, int] = {}
    for code, vector in whole._forward_by_points().items():
        for slot in range(vectors.top + 1):
            reached = vector >> slot * vectors.width & vectors.slot_mask
            if reached:
                states[code + (vectors.slot_points[vectors.top - slot] << layout.points_shift)] = reached
    return states


def _plain_ends(whole: Combinations, pool: Pool) -> list[EndByPoints]:
    """``_ends_by_points`` from the plain forward pass (the structure's start taken off the vectors' step)."""
    saved = whole._ends_by_pool_points
    whole._ends_by_pool_points = {}
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Combinations, "_forward_vectors", lambda self: False)
            return whole._ends_by_points(pool)
    finally:
        whole._ends_by_pool_points = saved


@PURE_ONLY
@pytest.mark.parametrize(("variant", "cards", "seed"), BIG)
def test_end_states_by_points_are_the_plain_forward_pass(
    variant: str, cards: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    structures = _take_structures(variant, cards, seed, monkeypatch)
    with_vectors = [whole for whole in structures if whole._forward_vectors()]
    assert with_vectors, "the takes were counted from a structure with points vectors"
    for whole in with_vectors:
        assert _read_out(whole) == whole._forward()
        vectors = whole._by_points
        assert vectors is not None
        by_points = whole._forward_by_points()
        assert all(code & ~vectors.clear == 0 for code in by_points), "the states carry no points"
        assert all(vector < 1 << (vectors.top + 1) * vectors.width for vector in by_points.values()), "folded"
        for pool in whole._ends_by_pool_points:
            by_vectors = whole._ends_by_points(pool)
            assert sorted(by_vectors) == sorted(_plain_ends(whole, pool)), "the same ends, points and ways"


@PURE_ONLY
@pytest.mark.parametrize("turn", [[1, 0], [10**9, 0]], ids=["vectors from the first rank", "plain to the last"])
@pytest.mark.parametrize(("variant", "cards"), [("modern-american", 45), ("modern-american", 60), ("classic", 60)])
def test_wherever_the_pass_turns_to_vectors_it_reaches_the_same_states(
    variant: str, cards: int, turn: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pass turns to vectors where the states differ mostly by their points (``combos.VECTORS_FROM``): turned
    at the first rank, or never (the last rank's states made vectors), the same states and ends."""
    monkeypatch.setattr(combos, "VECTORS_FROM", turn)
    for whole in [s for s in _take_structures(variant, cards, 0, monkeypatch) if s._forward_vectors()]:
        assert _read_out(whole) == whole._forward()
        for pool in whole._ends_by_pool_points:
            assert sorted(whole._ends_by_points(pool)) == sorted(_plain_ends(whole, pool))


@PURE_ONLY
@pytest.mark.parametrize(("variant", "turns"), [("modern-american", True), ("classic", False)])
def test_the_pass_turns_to_vectors_where_the_states_differ_mostly_by_points(
    variant: str, turns: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Modern American's big hand, four to eight states to one without their points, is carried by vectors;
    Classic's, at most two to one, state by state to the end."""
    (whole,) = [s for s in _take_structures(variant, 60, 0, monkeypatch) if s._forward_vectors()]
    steps: list[int] = []
    original = _PointsVectors.forward

    def counted(self: _PointsVectors, vector: int) -> int:
        steps.append(vector)
        return original(self, vector)

    monkeypatch.setattr(_PointsVectors, "forward", counted)
    whole._forward_by_points()
    assert bool(steps) == turns


@PURE_ONLY
def test_states_differing_in_points_merge_in_the_forward_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other side of the merge: in a hand whose end states differ mostly by their points (Modern American's,
    its minimum high above what one meld gives), the vectors hold several times fewer states than the plain pass."""
    (whole,) = [s for s in _take_structures("modern-american", 60, 0, monkeypatch) if s._forward_vectors()]
    assert 3 * len(whole._forward_by_points()) < len(whole._forward())


@PURE_ONLY
def test_without_vectors_or_off_the_step_the_plain_pass_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    (whole,) = [s for s in _take_structures("modern-american", 45, 0, monkeypatch) if s._forward_vectors()]
    pool = next(iter(whole._ends_by_pool_points))
    by_vectors = sorted(whole._ends_by_points(pool))

    def refused(self: Combinations) -> dict[int, int]:
        raise AssertionError("the forward pass by points ran")

    monkeypatch.setattr(Combinations, "_forward_by_points", refused)
    vectors = whole._by_points
    assert vectors is not None
    whole._by_points = None
    assert not whole._forward_vectors()
    whole._ends_by_pool_points = {}
    assert sorted(whole._ends_by_points(pool)) == by_vectors
    whole._by_points = vectors
    monkeypatch.setattr(_PointsVectors, "slot_of", lambda self, code: -1)
    assert not whole._forward_vectors()
    whole._ends_by_pool_points = {}
    assert sorted(whole._ends_by_points(pool)) == by_vectors


def _vectors() -> _PointsVectors:
    game = scaling_position(RULES["modern-american"], 60, opened=False, phase="play", seed=0)
    structure = next(b for b in game._listing().blocks if isinstance(b, Combinations))
    vectors = structure._by_points
    assert vectors is not None and vectors.top >= 4
    return vectors


def _packed(counts: list[int], width: int) -> int:
    return sum(count << slot * width for slot, count in enumerate(counts))


def test_counts_past_the_cap_fold_into_the_cap_slot() -> None:
    vectors = _vectors()
    top, width = vectors.top, vectors.width
    rng = random.Random(0)
    for past in (1, 2, top):
        counts = [rng.randrange(1 << (width - 8)) for _ in range(top + 1 + past)]
        folded = [*counts[:top], sum(counts[top:])]
        assert vectors.forward(_packed(counts, width)) == _packed(folded, width)


def test_a_vector_within_the_cap_is_left_as_it_is() -> None:
    vectors = _vectors()
    top, width = vectors.top, vectors.width
    counts = [slot * 7 + 1 for slot in range(top + 1)]
    assert vectors.forward(_packed(counts, width)) == _packed(counts, width)
    assert vectors.forward(0) == 0
