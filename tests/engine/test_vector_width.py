"""The width of a points vector's slots (``combos._PointsVectors``) comes from ``combos._completions_bound``: at least
the completions below any state, so that no slot carries into the next, and in a big hand dozens of bits narrower
than the bound by rank alone, so that the vectors' products cost less. The bound is checked against what it bounds:
the counts of a structure whose verdict accepts every choice (exactly, plus the empty choice, where the hand holds no
twos), and every slot of every vector a big hand's counting keeps; the counts themselves against the state-by-state
counting in test_structured_listing.py."""

from __future__ import annotations

import pytest
from listing_kit import thresholds

from canasta_ref import Rules, load_variant
from canasta_ref.engine.combos import Combinations, _completions_bound
from canasta_ref.scaling import scaling_position

RULES = {name: Rules(load_variant(name)) for name in ("modern-american", "classic-2p", "classic")}


def _opening_structure(variant: str, cards: int, seed: int) -> Combinations | None:
    """The openings of a hand as a structure (forced on, however few), or None where it has none."""
    game = scaling_position(RULES[variant], cards, opened=False, phase="play", seed=seed)
    for _ in thresholds(0):
        structures = [b for b in game._listing().blocks if isinstance(b, Combinations)]
    return structures[0] if structures else None


def _every_choice(structure: Combinations) -> int:
    """The concrete choices of ``structure``'s options, whatever the verdict (the empty choice left out)."""
    accepting = Combinations(
        structure._hand,
        structure.ranks,
        structure._options,
        left=0,
        caps=structure._caps,
        verdict=lambda agg: True,
        build=structure._build,
    )
    accepting._by_points = None  # counted state by state, which needs no width
    return accepting.count()


def test_the_bound_is_at_least_every_choice_and_exact_without_twos() -> None:
    """Small hands of three variants, some holding twos and some not (both sides of the exactness)."""
    found = [_opening_structure(v, cards, seed) for v in RULES for cards in (13, 17, 30) for seed in range(4)]
    structures = [structure for structure in found if structure is not None]
    twos = {structure._hand.twos_total > 0 for structure in structures}
    assert twos == {False, True}
    for structure in structures:
        bound = _completions_bound(structure._options, structure._hand)
        choices = _every_choice(structure)
        assert bound >= choices + 1
        if structure._hand.twos_total == 0:
            assert bound == choices + 1, "without twos the bound counts every choice and the empty one"


BIG = [(variant, cards, seed) for variant in ("modern-american", "classic-2p") for cards in (45, 60) for seed in (0, 1)]


@pytest.mark.parametrize(("variant", "cards", "seed"), BIG)
def test_every_slot_fits_the_narrower_width(variant: str, cards: int, seed: int) -> None:
    structure = _opening_structure(variant, cards, seed)
    assert structure is not None
    vectors = structure._by_points
    assert vectors is not None
    assert structure.count() > 1_000
    widest = max(slot for memo in vectors.memo for vector in memo.values() for slot in _slots(vector, vectors.width))
    assert widest.bit_length() < vectors.width
    by_ranks = 1
    for opts in structure._options:
        by_ranks *= 1 + sum(option.ways for option in opts)
    by_ranks *= pow(len(structure._options) + 1, structure._hand.twos_total)
    assert vectors.width < by_ranks.bit_length(), "narrower than the bound by rank alone"


def _slots(vector: int, width: int) -> list[int]:
    mask = (1 << width) - 1
    slots = []
    while vector:
        slots.append(vector & mask)
        vector >>= width
    return slots
