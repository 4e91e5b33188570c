"""The points cap of the listing's structures asked for less (``openings.steady_points``): the compositions only by
the bits an initial-meld clause reads (``openings.composition_read``), and each series of totals from the top down
only as far as the cap found so far. The cap must be the one found by asking every total of every composition
(``_every_total_cap`` here, what the cap once asked); and an opening's composition, its unread bits dropped, must
leave every listing as the slow enumeration finds it: in Modern American as bundled (it reads the clean and the wild
meld) and under the parameter options that read three natural cards or the clean meld alone, so that a bit read is
never dropped."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from listing_kit import every_total_cap, legal_by_plan, thresholds

from canasta_ref import Rules, Variant, load_variant
from canasta_ref.conformance.setup import with_parameters
from canasta_ref.engine.checks import (
    CLEAN_MELD,
    COMPOSITIONS,
    THREE_NATURALS_MELD,
    WILD_MELD,
    CanastaKinds,
)
from canasta_ref.engine.game import Game
from canasta_ref.engine.openings import composition_read, steady_points
from canasta_ref.engine.state import HandState
from canasta_ref.scaling import scaling_position

#: Modern American under each way its opening's composition may be judged, and Classic, which judges none.
COMPOSITION_RULES = {
    "natural_or_wild_meld": CLEAN_MELD | WILD_MELD,
    "natural_meld": CLEAN_MELD,
    "three_naturals": THREE_NATURALS_MELD,
    "none": 0,
}


def _american(composition: str) -> Variant:
    return with_parameters("modern-american", {"initial_meld_composition": composition})


def _rules(name: str) -> Rules:
    return Rules(load_variant(name) if name == "classic" else _american(name))


@pytest.mark.parametrize(("composition", "read"), COMPOSITION_RULES.items())
def test_the_composition_bits_read_are_those_the_rule_names(composition: str, read: int) -> None:
    assert composition_read(Rules(_american(composition))) == read


def test_classic_reads_no_composition() -> None:
    rules = Rules(load_variant("classic"))
    assert not rules.reads_composition and composition_read(rules) == 0


def _every_total_cap(
    rules: Rules,
    state: HandState,
    highest: int,
    every_kinds: list[CanastaKinds],
    flags: tuple[tuple[bool, bool], ...],
    *,
    top_points: int,
    taking: bool,
) -> int:
    """The cap asked the slow way: every total of every composition, each series' first steady total."""
    compositions = COMPOSITIONS if rules.reads_composition else (0,)
    return every_total_cap(
        rules, state, highest, every_kinds, flags, compositions, top_points=top_points, taking=taking
    )


def _caps_both_ways(rules: Rules, game: Game, rng: random.Random) -> tuple[int, int]:
    """A random question to both: a highest total, canasta counts, endings, the top card's points, taking or not."""
    state = game.state
    state.team_scores = [rng.choice((-200, 0, 1600, 3200, 5200))] * len(state.team_scores)
    state.derived = None  # the minimum, asked once a position, asked again for the new scores
    highest = rng.randrange(0, 800)
    kinds = [CanastaKinds(rng.randrange(3), rng.randrange(2), rng.randrange(2)) for _ in range(rng.randrange(1, 4))]
    flags = rng.choice((((False, False),), ((False, False), (True, False), (False, True))))
    where = {"top_points": rng.choice((0, 10, 20, 50)), "taking": rng.random() < 0.5}
    ours = steady_points(rules, state, state.to_act, highest, kinds, flags, **where)  # type: ignore[arg-type]
    theirs = _every_total_cap(rules, state, highest, kinds, flags, **where)  # type: ignore[arg-type]
    return ours, theirs


@pytest.mark.parametrize("name", [*COMPOSITION_RULES, "classic"])
def test_the_cap_asked_from_the_top_is_the_cap_every_total_finds(name: str) -> None:
    rules = _rules(name)
    game = scaling_position(rules, 20, opened=False, phase="play")
    rng = random.Random(name)
    caps = [_caps_both_ways(rules, game, rng) for _ in range(60)]
    assert all(ours == theirs for ours, theirs in caps), caps
    assert len({ours for ours, _ in caps}) > 1, "the questions reach caps of more than one value"


def test_the_cap_asks_fewer_questions_than_every_total() -> None:
    """Modern American's 60-card hand: a cap of 125 below a highest total of 695 is found asking less than half the
    questions (each composition's unread bit dropped, and the totals below the cap asked once)."""
    rules = _rules("natural_or_wild_meld")
    state = scaling_position(rules, 60, opened=False, phase="draw").state
    kinds = [CanastaKinds(natural, 0, wild) for natural in range(5) for wild in range(2)]
    flags = ((False, False),)
    counted = []
    askers: list[Callable[[], int]] = [
        lambda: steady_points(rules, state, state.to_act, 695, kinds, flags, top_points=10, taking=True),
        lambda: _every_total_cap(rules, state, 695, kinds, flags, top_points=10, taking=True),
    ]
    for asking in askers:
        rules.asked = []
        cap = asking()
        counted.append((cap, len(rules.asked)))
    rules.asked = None
    (ours, asked), (theirs, every) = counted
    assert ours == theirs == 125
    assert 0 < asked < every / 2


#: Small positions of a side that has not opened, in both phases, whose structures are forced on.
SMALL = [
    (name, cards, phase, seed)
    for name in COMPOSITION_RULES
    for cards in (13, 17)
    for phase in ("draw", "play")
    for seed in range(2)
]


@pytest.mark.parametrize(("name", "cards", "phase", "seed"), SMALL)
def test_openings_without_the_unread_bits_list_what_plan_accepts(name: str, cards: int, phase: str, seed: int) -> None:
    rules = _rules(name)
    game = scaling_position(rules, cards, opened=False, phase=phase, seed=seed)  # type: ignore[arg-type]
    for _ in thresholds(0):
        assert legal_by_plan(rules, game), "some action is legal"
