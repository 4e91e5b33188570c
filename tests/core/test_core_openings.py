"""The core's openings of a side that has not opened (play phase), on positions set up directly: the minimum met and
not met, by points of melds, with wild cards, raised by the side's score, a canasta counted where the spec says,
going out concealed waiving it as the spec says, a black three refused, a hand large enough that the reference keeps
its openings as a structure; every count checked equal to the reference's meld block, the whole listing and each
opening found by its index equal to the reference's. The step-by-step proof in every variant is test_core_proof.py."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest

from canasta_ref import core
from canasta_ref.conformance.setup import with_parameters
from canasta_ref.core.listing import (
    OPENINGS_WITHOUT_MINIMUM,
    NativeListing,
    NativeOpeningCount,
    NativeOpenings,
    NativePlayListing,
)
from canasta_ref.core.proof import prove
from canasta_ref.engine import legal
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.checks import initial_minimum
from canasta_ref.engine.combos import Combinations
from canasta_ref.engine.legal import listing
from canasta_ref.engine.position import Position, build_state
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.engine.state import HandState
from canasta_ref.spec import load_variant


def _in_play(rules: Rules, cards: str, scores: Sequence[int] = ()) -> HandState:
    """A position of ``rules`` in play: North holding ``cards``, no side opened."""
    others = ("9C 9D 9H 10S", "4C 4D 4H", "6C 6D 6H")[: rules.players - 1]
    hands = [parse_cards(cards), *(parse_cards(hand) for hand in others)]
    written = Position(hands, pile=parse_cards("8S"), team_scores=scores, phase="play")
    return build_state(rules, written)[0]


def _openings(rules: Rules, state: HandState) -> int:
    """The core's count of North's openings, checked equal to the reference's meld block."""
    position = core.load_state(core.new_position(rules), state)
    mine = NativeOpeningCount(NativePlayListing(rules)).count(position, initial_minimum(rules, state, state.to_act))
    reference = legal._melds(rules, state, legal._Listing(rules, state))
    assert mine == len(reference)
    return mine


@pytest.fixture
def classic() -> Rules:
    return rules_for(load_variant("classic"))


def test_an_opening_below_the_minimum_is_refused_and_one_that_meets_it_counted(
    library: ModuleType, classic: Rules
) -> None:
    assert _openings(classic, _in_play(classic, "KC KD KH 5S 6S 9C")) == 0  # 30 points of 50
    assert _openings(classic, _in_play(classic, "KC KD KH QC QD QH 5S 9C")) == 1  # both melds together: 60


def test_a_wild_card_makes_up_the_minimum_each_one_an_opening_of_its_own(library: ModuleType, classic: Rules) -> None:
    assert _openings(classic, _in_play(classic, "KC KD KH 2C 5S 9C 7D")) == 1  # 30 and 20
    assert _openings(classic, _in_play(classic, "KC KD KH 2C 2D 5S 9C 7D")) > 2  # either two, or both


def test_the_minimum_rises_with_the_side_score(library: ModuleType, classic: Rules) -> None:
    hand = "AC AD AH 5S 6S 9C 7D"  # 60 points
    assert _openings(classic, _in_play(classic, hand)) == 1
    assert _openings(classic, _in_play(classic, hand, scores=(1500, 0))) == 0  # 90 needed


def test_black_threes_make_no_meld_of_an_opening(library: ModuleType, classic: Rules) -> None:
    assert _openings(classic, _in_play(classic, "3C 3S 3C AC AD AH 9D 4H")) == 1  # AAA alone, not AAA 333
    assert _openings(classic, _in_play(classic, "3C 3S 3C KC KD 9D 4H")) == 0  # KK 333 would make 35 of 50


def test_a_large_hand_kept_as_a_structure_is_counted_alike(library: ModuleType, classic: Rules) -> None:
    hand = "4C 4D 5C 5D 5H 6C 6D 7C 7D 8C 8D 8H 9C 9D 10C 10D JC JD QC QD KC KD AC AD 2C 2D 2H JK 3D 3H"
    state = _in_play(classic, hand)
    assert isinstance(legal._melds(classic, state, legal._Listing(classic, state)), Combinations)
    assert _openings(classic, state) > 100_000


def test_a_canasta_counts_towards_the_minimum_where_the_spec_says(library: ModuleType) -> None:
    hand = "5C 5D 5H 5S 5C 5D 5H 9C 9D"  # seven fives: 35 points, a natural canasta
    plain = rules_for(load_variant("classic"))
    bonus_counts = rules_for(with_parameters("classic", {"canasta_bonus_counts": "counts"}))
    assert _openings(plain, _in_play(plain, hand)) == 0
    assert _openings(bonus_counts, _in_play(bonus_counts, hand)) == 1


def test_going_out_concealed_waives_the_minimum_as_the_spec_says(library: ModuleType, classic: Rules) -> None:
    whole = "5C 5D 5H 5S 5C 5D 5H 7C 7D 7H"  # a canasta of fives and three sevens: 50 points of the 90 needed
    assert _openings(classic, _in_play(classic, whole, scores=(1500, 0))) == 1  # the whole hand melded
    assert _openings(classic, _in_play(classic, f"{whole} 9C", scores=(1500, 0))) == 0  # a card left to discard
    one_turn = rules_for(with_parameters("classic", {"concealed_exemption": "going_out_in_one_turn"}))
    assert _openings(one_turn, _in_play(one_turn, f"{whole} 9C", scores=(1500, 0))) == 1


def test_the_whole_listing_of_a_side_not_opened_is_the_references_index_by_index(
    library: ModuleType, classic: Rules
) -> None:
    state = _in_play(classic, "KC KD KH 2C 2D JK 5S 9C 7D 7H")
    position = core.load_state(core.new_position(classic), state)
    native = NativeListing(classic)
    minimum = initial_minimum(classic, state, state.to_act)
    assert native.uncovered(position) == OPENINGS_WITHOUT_MINIMUM and native.of(position) is None
    assert native.uncovered(position, minimum) is None
    found = native.of(position, minimum)
    reference = listing(classic, state)
    assert found is not None and found.count() == reference.count() > 20
    assert list(found) == list(reference)
    assert [found[index] for index in range(found.count())] == list(reference)


def test_an_opening_of_a_large_hand_is_found_by_its_index_as_the_structure_finds_it(
    library: ModuleType, classic: Rules
) -> None:
    hand = "4C 4D 5C 5D 5H 6C 6D 7C 7D 8C 8D 8H 9C 9D 10C 10D JC JD QC QD KC KD AC AD 2C 2D 2H JK 3D 3H"
    state = _in_play(classic, hand)
    position = core.load_state(core.new_position(classic), state)
    openings = NativeOpeningCount(NativePlayListing(classic))
    minimum = initial_minimum(classic, state, state.to_act)
    count = openings.count(position, minimum)
    mine = next(block for block in openings.of(position, minimum).blocks if isinstance(block, NativeOpenings))
    assert len(mine) == count
    reference = legal._melds(classic, state, legal._Listing(classic, state))
    for index in (0, 1, 2, count // 3, count // 2, count - 2, count - 1, -1):
        assert mine[index] == reference[index]
    with pytest.raises(IndexError):
        mine[count]


def test_the_proof_finds_an_opening_indexed_wrong(library: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    shifted = NativeOpenings.__getitem__

    def one_further(self: NativeOpenings, index: Any) -> Any:
        return shifted(self, (index + 1) % len(self))

    monkeypatch.setattr(NativeOpenings, "__getitem__", one_further)
    proof = prove(rules_for(load_variant("classic")), ["core-openings/1", "core-openings/2"])
    assert proof.opening_counts > 0
    assert any("found by its index" in found for found in proof.disagreements)


def test_more_wild_cards_than_the_counting_tracks_are_declined_with_a_reason(library: ModuleType) -> None:
    rules = rules_for(load_variant("hand-and-foot"))
    state = _in_play(rules, "2C 2C 2C 2C 2D 2D 2D 2D 2H 2H 2H 2H 2S 2S 2S 2S KC KD KH")
    position = core.load_state(core.new_position(rules), state)
    native = NativeListing(rules)
    minimum = initial_minimum(rules, state, state.to_act)
    reason = native.uncovered(position, minimum)
    assert reason is not None and "more than 14 wild cards" in reason
    assert native.of(position, minimum) is None
    fewer = core.load_state(core.new_position(rules), _in_play(rules, "2C 2C 2D 2D 2H 2S KC KD KH 5C 6D 7H"))
    assert native.uncovered(fewer, minimum) is None


def test_the_core_refuses_openings_asked_wrongly_with_a_message(library: ModuleType, classic: Rules) -> None:
    openings = NativeOpeningCount(NativePlayListing(classic))
    with pytest.raises(TypeError, match="kept openings"):
        library.opening_at("not a listing's", 0)
    state = _in_play(classic, "KC KD KH QC QD QH 5S 9C")
    state.team_opened[state.side_of[state.to_act]] = True
    state.derived = None
    position = core.load_state(core.new_position(classic), state)
    with pytest.raises(ValueError, match="side has opened"):
        openings.count(position, 50)
