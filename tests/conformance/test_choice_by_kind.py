"""A generated game chooses each legal move from the listing's counts by kind (``Listing.kinds``, ``of_kind``)
instead of listing every action: the counts must be the list's own grouping, the ``i``-th action of a kind the
list's, and the choice the same picks with the same bounds as ``choose_legal`` on the list, so that a seed plays
the same game. Checked on positions of every variant, with structures forced on small hands, and on the native
core's listings."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from canasta_ref import core
from canasta_ref.conformance.strategies import choose_by_kind, choose_legal
from canasta_ref.conformance.variants import reference_rules
from canasta_ref.engine import legal as legal_module
from canasta_ref.engine.actions import Action
from canasta_ref.engine.blocks import Chained, Listing
from canasta_ref.engine.game import Game
from canasta_ref.spec import list_variants

THRESHOLDS = (legal_module.STRUCTURE_ABOVE, legal_module.TAKE_STRUCTURE_ABOVE)


def grouped(actions: list[Action]) -> dict[str, list[Action]]:
    """The actions by kind, each kind in the order it first appears: what ``choose_legal`` groups."""
    kinds: dict[str, list[Action]] = {}
    for action in actions:
        kinds.setdefault(action.kind, []).append(action)
    return kinds


def block_types(listing: Listing) -> Iterator[str]:
    """The names of the types of a listing's blocks, a chain's own blocks too."""
    for block in listing._blocks:
        yield type(block).__name__
        if isinstance(block, Chained):
            yield from (type(part).__name__ for part in block._blocks())


def positions(variant: str, seed: int, steps: int, core: str = "python") -> Iterator[Game]:
    """The positions of one hand played at random (a few draws of the pile taken whenever they are legal, so that
    sides open and melds grow), each yielded before its move."""
    rng = random.Random(seed)
    game = Game(reference_rules(variant), seed=seed, core=core)
    for _ in range(steps):
        if game.is_over:
            return
        yield game
        legal = list(game.legal_actions())
        takes = [a for a in legal if a.kind == "take"]
        game.apply(rng.choice(takes) if takes and rng.random() < 0.7 else rng.choice(legal))


def check_position(game: Game, rng: random.Random, *, native: bool = False) -> None:
    """The counts by kind are the list's grouping; a few actions of each kind (the first, the last, some between)
    are the list's, each asked anew (of a new ``legal_actions()``, or with ``native`` of the core's own
    ``Listing``)."""

    def counted() -> Any:
        return game._listing() if native else game.legal_actions()

    listed = list(game.legal_actions())
    kinds = grouped(listed)
    assert counted().kinds() == [(kind, len(actions)) for kind, actions in kinds.items()]
    for kind, actions in kinds.items():
        indexes = {0, len(actions) - 1, *(rng.randrange(len(actions)) for _ in range(3))}
        for index in sorted(indexes):
            assert counted().of_kind(kind, index) == actions[index]
        with pytest.raises(IndexError):
            counted().of_kind(kind, len(actions))
    with pytest.raises(IndexError):
        counted().of_kind("no such kind", 0)


@pytest.fixture(params=["plain", "structures"])
def structures(request: pytest.FixtureRequest) -> Iterator[str]:
    """The listing as it comes, and with its structures forced on every hand (``Combinations``, ``TakeGroups``
    and chains of take blocks even where a plain list would be cheaper)."""
    saved = [knob[0] for knob in THRESHOLDS]
    if request.param == "structures":
        for knob in THRESHOLDS:
            knob[0] = 0
    try:
        yield request.param
    finally:
        for knob, value in zip(THRESHOLDS, saved, strict=True):
            knob[0] = value


@pytest.mark.parametrize("variant", list_variants())
def test_counts_by_kind_are_the_lists_grouping_in_every_variant(variant: str, structures: str) -> None:
    rng = random.Random(variant)
    seen: set[str] = set()
    for seed in range(3):
        for game in positions(variant, seed, 120):
            check_position(game, rng)
            seen.update(block_types(game._listing()))
    assert "tuple" in seen or "list" in seen
    if structures == "structures":
        assert "Combinations" in seen or "SingleMelds" in seen


def test_every_type_of_block_is_met() -> None:
    """The positions above meet every type of block the listing makes, a side not opened's walks and counted
    walks included (Samba, Bolivia) and the special hands (a block of declarations)."""
    seen: set[str] = set()
    saved = [knob[0] for knob in THRESHOLDS]
    try:
        for value in (saved[0], 0):
            for knob in THRESHOLDS:
                knob[0] = value
            for variant in list_variants():
                for seed in range(3):
                    for game in positions(variant, seed, 120):
                        seen.update(block_types(game._listing()))
    finally:
        for knob, old in zip(THRESHOLDS, saved, strict=True):
            knob[0] = old
    wanted = {"tuple", "list", "Combinations", "SingleMelds", "TakeGroups", "Chained", "Walked", "CountedWalk"}
    assert wanted <= seen, sorted(wanted - seen)


@pytest.mark.parametrize("variant", ["classic", "classic-3p", "fournier", "hoyle-2p", "samba", "modern-american"])
def test_counts_by_kind_on_the_native_cores_listings(variant: str) -> None:
    if core.LIBRARY is None:
        pytest.skip(f"{core.STATUS}: the native core's listings need it")
    rng = random.Random(variant)
    for seed in range(2):
        for game in positions(variant, seed, 100, core="native"):
            check_position(game, rng, native=True)
            check_position(game, rng)  # the game on the core's own legal_actions(), as the runner asks it


class _Recorded:
    """A pick from a seeded random source, writing down the bounds of every call."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.calls: list[tuple[int, int]] = []

    def __call__(self, low: int, high: int) -> int:
        self.calls.append((low, high))
        return self.rng.randint(low, high)


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot", "modern-american"])
def test_choosing_by_kind_makes_the_same_picks_as_choosing_from_the_list(variant: str) -> None:
    for seed in range(2):
        for number, game in enumerate(positions(variant, seed, 80)):
            listed = list(game.legal_actions())
            if not listed:
                continue
            from_list, by_kind = _Recorded(number), _Recorded(number)
            expected = choose_legal(from_list, listed)
            assert choose_by_kind(by_kind, game.legal_actions()) == expected
            assert by_kind.calls == from_list.calls


def test_an_action_chosen_by_kind_is_applied_without_being_judged_again() -> None:
    """As an action the listing hands out by index: ``apply`` knows it legal (a game that only counted does not)."""
    counted, chosen = Game(reference_rules("classic"), seed=3), Game(reference_rules("classic"), seed=3)
    kind, _ = counted.legal_actions().kinds()[0]
    action = chosen.legal_actions().of_kind(kind, 0)
    assert chosen._was_listed(action) and not counted._was_listed(action)
