"""The core's listing of the draw phase of a side that has opened, on positions set up directly: each rule it asks
on both sides (the pile frozen or not, a natural pair, the top card onto the side's meld, a take refused, the draw
refused at an empty stock, pagat's puzzle of a take kept apart), every listing checked equal to the reference's.
The step-by-step proof in every variant is test_core_proof.py."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from canasta_ref import core, parse_action
from canasta_ref.core import listing as core_listing
from canasta_ref.core.listing import NativeDrawListing, NativeListing
from canasta_ref.core.memo import NativeQuestion
from canasta_ref.core.proof import prove
from canasta_ref.engine.actions import Action
from canasta_ref.engine.blocks import Listing
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.checks import _PILE_TAKE as PILE_TAKE
from canasta_ref.engine.checks import takes_top_only
from canasta_ref.engine.legal import listing
from canasta_ref.engine.position import Position, build_state
from canasta_ref.engine.rules import QUESTIONS, Rules, rules_for
from canasta_ref.engine.state import HandState
from canasta_ref.spec import load_variant
from canasta_ref.spec.derive import derive

DRAW = Action.draw()


def _to_draw(rules: Rules, cards: str, pile: str, melds: list[str], **extra: Any) -> HandState:
    """A position of ``rules`` in the draw phase: North holding ``cards``, North-South having laid ``melds``."""
    others = ("9C 9D 9H 10S", "4C 4D 4H", "6C 6D 6H")[: rules.players - 1]
    hands = [parse_cards(cards), *(parse_cards(hand) for hand in others)]
    laid = [[parse_cards(meld) for meld in melds], *([] for _ in range(rules.teams - 1))]
    return build_state(rules, Position(hands, pile=parse_cards(pile), melds=laid, **extra))[0]


def _without_stock(state: HandState) -> HandState:
    """``state`` with its stock emptied by hand (the listing reads its size alone), its derived facts dropped."""
    state.stock = []
    state.derived = None
    return state


def _draw_listing(rules: Rules, state: HandState) -> list[str]:
    """The core's listing of the draw phase, checked equal to the reference's (count, list), in words."""
    position = core.load_state(core.new_position(rules), state)
    native = NativeListing(rules)
    assert native.uncovered(position) is None
    found = native.of(position)
    reference = listing(rules, state)
    assert found is not None and found.count() == reference.count()
    assert list(found) == list(reference)
    return [str(action) for action in found]


@pytest.fixture
def classic() -> Rules:
    return rules_for(load_variant("classic"))


def test_a_pile_not_frozen_is_taken_with_a_natural_pair_or_a_natural_and_a_wild_card(
    library: ModuleType, classic: Rules
) -> None:
    state = _to_draw(classic, "8C 8D 2H 5S", "4C 8S", ["QH QD QC"])
    found = _draw_listing(classic, state)
    assert found[0] == str(DRAW)
    assert str(parse_action("take 8C 8D")) in found and str(parse_action("take 8C 2H")) in found


def test_a_frozen_pile_is_taken_only_with_a_natural_pair(library: ModuleType, classic: Rules) -> None:
    state = _to_draw(classic, "8C 8D 2H 5S", "2C 4C 8S", ["QH QD QC"])
    found = _draw_listing(classic, state)
    assert str(parse_action("take 8C 8D")) in found
    assert str(parse_action("take 8C 2H")) not in found


def test_the_top_card_goes_onto_the_sides_meld_unless_the_pile_is_frozen(library: ModuleType, classic: Rules) -> None:
    state = _to_draw(classic, "5S 6D 7H", "4C 8S", ["8H 8D 8C"])
    assert _draw_listing(classic, state) == [str(DRAW), str(Action("take"))]
    frozen = _to_draw(classic, "5S 6D 7H", "8S", ["8H 8D 8C"], upcard_froze=True)
    assert _draw_listing(classic, frozen) == [str(DRAW)]


def test_a_black_three_on_the_pile_is_not_taken(library: ModuleType, classic: Rules) -> None:
    state = _to_draw(classic, "3C 3D 2H 5S", "4C 3S", ["QH QD QC"])
    assert _draw_listing(classic, state) == [str(DRAW)]


def test_an_empty_pile_offers_the_draw_alone(library: ModuleType, classic: Rules) -> None:
    assert _draw_listing(classic, _to_draw(classic, "8C 8D 5S", "", ["QH QD QC"])) == [str(DRAW)]


def test_an_empty_stock_obliges_a_take_the_side_can_make(library: ModuleType, classic: Rules) -> None:
    """Hook stock_empty.must_take: the top card fits the side's meld, so the draw goes; with no such meld it stays."""
    state = _without_stock(_to_draw(classic, "5S 6D 7H", "4S 8S", ["8H 8D 8C"]))
    assert _draw_listing(classic, state) == [str(Action("take"))]
    state = _without_stock(_to_draw(classic, "5S 6D 7H", "4S 8S", ["QH QD QC"]))
    assert _draw_listing(classic, state) == [str(DRAW)]


@pytest.mark.parametrize(("option", "listed"), [("refused", False), ("fourth_wild", True), ("second_meld", True)])
def test_pagats_puzzle_take_is_listed_as_each_reading_has_it(library: ModuleType, option: str, listed: bool) -> None:
    """A natural and a wild card taking a king onto the side's canasta of kings with three wild cards (hooks
    meld.valid, and meld.take_apart under the second-meld reading)."""
    rules = rules_for(derive(load_variant("classic"), {"three_wild_canasta_take": option}))
    state = _to_draw(rules, "KS 2H 7H 8S 5D KD 2D", "6C 4S KH", ["KH KS KD KC 2C 2S JK", "QH QS QD"])
    assert (str(parse_action("take KS 2H")) in _draw_listing(rules, state)) is listed


def test_a_side_not_opened_is_listed_where_it_can_take_nothing(library: ModuleType, classic: Rules) -> None:
    """Before an opening, Classic's pile is taken only with a natural pair of the top card's rank: a natural and a
    wild card take nothing, so the draw alone is listed; with the pair, the take counts towards the opening's
    minimum, which the core does not list yet, and says so."""
    state = _to_draw(classic, "8C 2H 5S", "4C 8S", [])
    assert _draw_listing(classic, state) == [str(DRAW)]
    position = core.load_state(core.new_position(classic), _to_draw(classic, "8C 8D 5S", "4C 8S", []))
    native = NativeListing(classic)
    assert native.of(position) is None
    assert native.uncovered(position) == core_listing.OPENING_TAKES


def test_a_variant_lacking_a_mechanism_has_no_native_draw_listing(library: ModuleType) -> None:
    samba = rules_for(load_variant("samba"))
    assert "melds an action names" in str(core_listing.draw_listing_missing(samba))
    assert NativeListing(samba).draw is None


def test_the_core_refuses_take_values_it_would_build_in_another_order(
    library: ModuleType, classic: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert tuple(library.TAKE_VALUES) == core_listing.TAKE_ARGUMENTS
    native = NativeListing(classic)
    assert native.play is not None
    monkeypatch.setattr(core_listing, "TAKE_ARGUMENTS", core_listing.TAKE_ARGUMENTS[::-1])
    with pytest.raises(core.CoreUnavailable, match=r"does not have pile\.take's values as the engine passes them"):
        NativeDrawListing(classic, native.play.melds, native.allowed)


def test_the_proof_finds_a_draw_listing_the_core_gets_wrong(
    library: ModuleType, classic: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = NativeDrawListing.of

    def without_the_draw(self: NativeDrawListing, position: Any) -> Listing | None:
        listed = found(self, position)
        return None if listed is None else Listing([[action for action in listed if action != DRAW]])

    monkeypatch.setattr(NativeDrawListing, "of", without_the_draw)
    proof = prove(classic, ["core-draw/1"])
    assert proof.listings["draw"] > 0
    assert any("the listing counts" in disagreement for disagreement in proof.disagreements)


def test_bad_codes_or_memos_are_refused_by_name(library: ModuleType, classic: Rules) -> None:
    position = core.load_state(core.new_position(classic), _to_draw(classic, "8C 8D 5S", "4C 8S", ["QH QD QC"]))
    draw = NativeListing(classic).draw
    assert draw is not None
    with pytest.raises(ValueError, match=r"native core: 3 draw phase codes, expected 26"):
        core_listing.bound_context(draw.melds, draw=(draw.memos, draw.codes[:3]))
    plain = library.RuleMemo(1, lambda key: None, 10)
    with pytest.raises(TypeError, match=r"pile\.take's memo must be a RuleMemo with a recipe"):
        core_listing.bound_context(draw.melds, draw=((*draw.memos[:2], plain, *draw.memos[3:]), draw.codes))
    with pytest.raises(ValueError, match=r"native core: the ListingContext has no draw part"):
        position.draw_listing(core_listing.bound_context(draw.melds))
    with pytest.raises(TypeError, match=r"native core: a listing is asked with a ListingContext"):
        position.draw_listing(draw.memos)
    assert position.draw_listing(draw.context) is not None


def test_an_empty_stock_moves_the_top_card_alone_where_the_spec_says(library: ModuleType) -> None:
    """Hook pile.take_top_only (Hoyle's two-hand game), both sides: with stock left the take onto the side's meld
    brings the whole pile, once the stock is empty the top card alone (the hand the take leaves, which its
    verdicts read, differs); both listed as the reference lists them."""
    hoyle = rules_for(load_variant("hoyle-2p"))
    state = _to_draw(hoyle, "5S", "4S 6D 8S", ["8H 8D 8C"])
    assert not takes_top_only(hoyle, state, 0)
    assert _draw_listing(hoyle, state) == [str(DRAW), str(Action("take"))]
    state = _without_stock(_to_draw(hoyle, "5S", "4S 6D 8S", ["8H 8D 8C"]))
    assert takes_top_only(hoyle, state, 0)
    assert _draw_listing(hoyle, state) == [str(Action("take"))]


def test_a_spec_letting_an_empty_pile_be_taken_is_refused_not_listed(library: ModuleType, classic: Rules) -> None:
    """The reference never plans a take of an empty pile (it has no top card): a pile.take that allows one is an
    error the core names, not a take it lists."""
    position = core.load_state(core.new_position(classic), _to_draw(classic, "8C 8D 5S", "", ["QH QD QC"]))
    draw = NativeListing(classic).draw
    assert draw is not None
    allowing = NativeQuestion(classic, PILE_TAKE, QUESTIONS.index("failing"), lambda hook, values: None)
    draw.memos = (*draw.memos[:2], allowing.built_natively(core_listing.TAKE_ARGUMENTS).memo, *draw.memos[3:])
    draw.context = draw.bind()
    with pytest.raises(ValueError, match=r"native core: pile\.take allows taking an empty pile, which has no top card"):
        draw.found(position)
