"""The core's count of the draw phase of a side that has not opened, where it may take the pile (its takes count
towards its opening: ``native/takes.c``), on positions set up directly: each rule on both sides (the pile frozen or
not, the top card with a pair of naturals or a wild card, the minimum met with the take alone, with further melds,
and not met, a black three on top, an upcard that froze the pile), every count checked equal to the reference's
listing. The step-by-step proof in every variant is test_core_proof.py and tools/prove_core.py."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from types import ModuleType
from typing import Any

import pytest

from canasta_ref import core
from canasta_ref.core.listing import NativeListing, NativeTakeCount
from canasta_ref.core.proof import prove
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.checks import initial_minimum
from canasta_ref.engine.legal import listing
from canasta_ref.engine.position import Position, build_state
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.engine.state import HandState
from canasta_ref.spec import load_variant


def _to_draw(rules: Rules, cards: str, pile: str, scores: Sequence[int] = (), **extra: Any) -> HandState:
    """A position of ``rules`` in the draw phase: North holding ``cards``, no side opened."""
    others = ("9C 9D 9H 10S", "4C 4D 4H", "6C 6D 6H")[: rules.players - 1]
    hands = [parse_cards(cards), *(parse_cards(hand) for hand in others)]
    return build_state(rules, Position(hands, pile=parse_cards(pile), team_scores=scores, **extra))[0]


def _counter(rules: Rules) -> NativeTakeCount:
    draw = NativeListing(rules).draw
    assert draw is not None
    return NativeTakeCount(rules, draw)


def _listed(rules: Rules, state: HandState) -> list[str]:
    """The core's listing of North's draw phase, in words, checked equal to the reference's: its count, its
    actions walked in order, and actions found by their index (every one of a short listing, a sample of a long
    one, the last included); and the core's whole listing of the position (``NativeListing``) the same."""
    position = core.load_state(core.new_position(rules), state)
    counter = _counter(rules)
    assert counter.declined(position) is None
    reference = listing(rules, state)
    minimum = initial_minimum(rules, state, state.to_act)
    assert counter.count(position, minimum) == reference.count()
    mine = counter.of(position, minimum)
    listed = list(reference)
    assert mine.count() == len(listed) and list(mine) == listed
    for index in {*range(min(len(listed), 60)), *random.Random(7).sample(range(len(listed)), min(len(listed), 40))}:
        assert mine[index] == listed[index]
    assert not listed or mine[-1] == listed[-1]
    whole = NativeListing(rules)
    assert whole.uncovered(position, minimum) is None
    found = whole.of(position, minimum)
    assert found is not None and list(found) == listed
    return [str(action) for action in mine]


@pytest.fixture
def classic() -> Rules:
    return rules_for(load_variant("classic"))


@pytest.fixture
def unfrozen() -> Rules:
    """Classic without its pile frozen against a side that has not opened: the pile not frozen, such a side may
    take it with a natural and a wild card."""
    variant = load_variant("classic")
    clauses = {rule: clause for rule, clause in variant.clauses.items() if rule != "PILE.FROZEN.UNMELDED"}
    return rules_for(replace(variant, clauses=clauses))


def test_the_minimum_met_with_a_further_meld_counts_the_take_and_not_met_refuses_it(
    library: ModuleType, classic: Rules
) -> None:
    met = _listed(classic, _to_draw(classic, "8C 8D KC KD KH 5S 6D 9C", "4C 8S"))  # 30 with the top card, KKK 30
    assert met == ["draw", "take 8C 8D + KC KD KH"]
    assert _listed(classic, _to_draw(classic, "8C 8D KC KD 5S 6D 9C", "4C 8S")) == ["draw"]  # 30 of 50


def test_the_minimum_met_with_the_take_alone_and_raised_by_the_score(library: ModuleType, classic: Rules) -> None:
    hand = "AC AD 5S 6D 9C 7H"  # three aces with the top card: 60
    assert _listed(classic, _to_draw(classic, hand, "4C AS")) == ["draw", "take AC AD"]
    assert _listed(classic, _to_draw(classic, hand, "4C AS", scores=(1500, 0))) == ["draw"]  # 90 needed


def test_a_frozen_pile_is_taken_with_a_natural_pair_and_not_with_a_natural_and_a_wild_card(
    library: ModuleType, classic: Rules
) -> None:
    found = _listed(classic, _to_draw(classic, "AC AD 2H 5S 6D 9C", "4C AS"))
    assert "take AC AD" in found and "take AC AD 2H" in found  # a wild card may join the natural pair
    assert "take AC 2H" not in found
    assert _listed(classic, _to_draw(classic, "AC 2H 2D 5S 6D 9C", "4C AS")) == ["draw"]


def test_a_pile_not_frozen_is_taken_with_a_natural_and_a_wild_card(library: ModuleType, unfrozen: Rules) -> None:
    found = _listed(unfrozen, _to_draw(unfrozen, "AC 2H 5S 6D 9C", "4C AS"))  # 20 + 20 + 20
    assert found == ["draw", "take AC 2H"]
    assert _listed(unfrozen, _to_draw(unfrozen, "AC 2H 5S 6D 9C", "2C 4C AS")) == ["draw"]  # a wild card froze it


def test_an_upcard_that_froze_the_pile_asks_for_a_natural_pair(library: ModuleType, unfrozen: Rules) -> None:
    frozen = _to_draw(unfrozen, "AC AD 2H 5S 6D 9C", "4C AS", upcard_froze=True)
    found = _listed(unfrozen, frozen)
    assert "take AC AD" in found and "take AC 2H" not in found
    assert "take AC 2H" in _listed(unfrozen, _to_draw(unfrozen, "AC AD 2H 5S 6D 9C", "4C AS"))


def test_a_black_three_on_top_is_not_taken(library: ModuleType, classic: Rules) -> None:
    assert _listed(classic, _to_draw(classic, "3C 3D KC KD KH 5S 6D 9C", "4C 3S")) == ["draw"]
    below = _listed(classic, _to_draw(classic, "AD AH KC KD KH 5S 6D 9C", "3S AC"))  # an ace on top of it
    assert below == ["draw", "take AD AH", "take AD AH + KC KD KH"]


def test_many_take_groups_and_further_melds_are_counted_as_the_reference_lists_them(
    library: ModuleType, classic: Rules
) -> None:
    """A hand whose takes the reference keeps by shape (``legal._TakeShapes``, ``blocks.TakeGroups``): every group
    of aces and wild cards, each with every choice of further melds of kings, queens and jacks."""
    hand = "AC AD AH 2C 2D JK KC KD KH QC QD QH 5S 6D"
    found = _listed(classic, _to_draw(classic, hand, "4C AS"))
    assert len(found) > 1_000 and "take AC AD 2C + QC QD QH | KC KD KH" in found


def test_groups_that_leave_different_wild_cards_share_a_counting_as_the_reference_lists_them(
    library: ModuleType, unfrozen: Rules
) -> None:
    """A pile not frozen, taken with groups of natural and wild cards: each group leaves another rest of the twos
    (two of clubs and one of diamonds held, and two jokers), whose further melds the core counts in one counting,
    that rest in its states, each further meld's twos picked as it passes its rank; every action in the reference's
    order, the choices of further melds kept together."""
    hand = "AC AD 2C 2C 2D JK JK KC KD KH QC QD 5S 6D"
    found = _listed(unfrozen, _to_draw(unfrozen, hand, "4C AS"))
    assert len(found) > 1_000
    assert {"take AC 2C + KC KD 2C", "take AC 2C + KC KD 2D", "take AC 2D + KC KD 2C JK"} <= set(found)


def test_the_count_declines_an_empty_pile_and_refuses_a_side_that_has_opened(
    library: ModuleType, classic: Rules
) -> None:
    counter = _counter(classic)
    empty = core.load_state(core.new_position(classic), _to_draw(classic, "AC AD 5S", ""))
    assert counter.declined(empty) == "an empty pile (listed by the draw phase's own listing)"
    state = _to_draw(classic, "AC AD 5S", "AS")
    state.team_opened[0] = True  # the side has opened: its takes are the draw phase's own listing's
    opened = core.load_state(core.new_position(classic), state)
    with pytest.raises(ValueError, match="take_count asks of the draw phase of a side not opened"):
        counter.count(opened, 50)


def test_the_proof_counts_takes_before_opening_and_finds_a_wrong_count(
    library: ModuleType, classic: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    proof = prove(classic, ["core-takes/1", "core-takes/2"])
    assert proof.take_counts > 0 and not proof.disagreements
    counted = NativeTakeCount.count
    monkeypatch.setattr(NativeTakeCount, "count", lambda self, position, minimum: counted(self, position, minimum) + 1)
    wrong = prove(classic, ["core-takes/1", "core-takes/2"])
    assert any("actions of the draw phase before opening" in found for found in wrong.disagreements)


def test_a_hand_of_more_wild_cards_than_the_counting_tracks_is_declined_by_name(library: ModuleType) -> None:
    rules = rules_for(load_variant("hand-and-foot"))  # five packs: fifteen twos in one hand
    twos = " ".join(["2C", "2D", "2H", "2S"] * 4)
    position = core.load_state(core.new_position(rules), _to_draw(rules, f"{twos[:-3]} KC KD 5S", "4C KH"))
    assert _counter(rules).declined(position) == "openings with more than 14 wild cards other than jokers in one hand"
    assert NativeListing(rules).of(position, 50) is None
    assert _listed(rules, _to_draw(rules, f"{twos[: 3 * 14 - 1]} KC KD 5S", "4C KH"))  # fourteen: counted
