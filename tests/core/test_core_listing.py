"""The parts of the listing the core builds natively (today the discards' verdicts card by card), on positions set
up directly; the step-by-step proof against the reference's listing in every variant is test_core_proof.py."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from canasta_ref import Game, core
from canasta_ref.core import listing as core_listing
from canasta_ref.core.listing import (
    NativeDiscards,
    NativeListing,
    NativePlayListing,
    NativeRankShapes,
    NativeSingleMelds,
)
from canasta_ref.core.proof import prove, reference_single_melds
from canasta_ref.engine.actions import Action
from canasta_ref.engine.blocks import Listing
from canasta_ref.engine.cards import card_name, counts_of, parse_card, parse_cards
from canasta_ref.engine.legal import DISCARDS, PASS, listing
from canasta_ref.engine.movegen import submultisets
from canasta_ref.engine.position import Position, build_state
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.engine.state import HandState
from canasta_ref.spec import load_variant


def _holding(game: Game, cards: str, *, pile: str | None = None) -> Any:
    """The core's position of ``game`` with the seat to act holding ``cards`` (and the pile replaced)."""
    fields = list(core.position_fields(game.state))
    hands = list(fields[0])
    hands[game.state.to_act] = tuple(counts_of(parse_cards(cards)))
    fields[0] = hands
    if pile is not None:
        fields[2] = parse_cards(pile)
    position = core.new_position(game.rules)
    position.load(*fields)
    return position


@pytest.fixture
def modern() -> Game:
    return Game(load_variant("modern-american"), seed="core-listing/1")


def _discards(game: Game, position: Any, hand_after: int) -> list[str]:
    """The cards the core lists as discards for the seat to act, by name, in card order."""
    return [card_name(card) for card in NativeDiscards(game.rules).of(position, game.state.to_act, hand_after)]


def test_threes_are_never_discarded_and_wild_cards_only_when_nothing_else_goes(
    library: ModuleType, modern: Game
) -> None:
    position = _holding(modern, "3S 2C 7H 5D", pile="9C")
    assert _discards(modern, position, 3) == ["5D", "7H"]
    position = _holding(modern, "3S 2C", pile="9C")
    assert _discards(modern, position, 1) == ["2C"]
    assert _discards(modern, position, 0) == ["2C"]


def test_onto_an_empty_pile_a_seven_goes_only_when_nothing_else_does(library: ModuleType, modern: Game) -> None:
    position = _holding(modern, "3S 2C 7H 5D", pile="")
    assert _discards(modern, position, 3) == ["5D"]
    position = _holding(modern, "3S 7H", pile="")
    assert _discards(modern, position, 1) == ["7H"]


def test_without_discard_clauses_every_card_held_goes(library: ModuleType) -> None:
    game = Game(load_variant("classic"), seed="core-listing/2")
    position = _holding(game, "3S 2C 7H 5D JK", pile="9C")
    assert _discards(game, position, 4) == ["2C", "3S", "5D", "7H", "JK"]


def test_a_memo_without_a_recipe_or_a_bad_recipe_is_refused(library: ModuleType, modern: Game) -> None:
    position = _holding(modern, "5D", pile="9C")
    plain = library.RuleMemo(1, lambda key: None, 10)
    with pytest.raises(TypeError, match=r"discard\.allowed's memo must be a RuleMemo with a recipe"):
        position.discards(modern.state.to_act, 0, plain, None)
    with pytest.raises(ValueError, match="a recipe of 2 values for keys of 1"):
        plain.set_recipe([(0, 1), (1, 1)])
    with pytest.raises(ValueError, match=r"a recipe's pair \(0, 6\) names no value"):
        plain.set_recipe([(0, 6)])
    with pytest.raises(ValueError, match=r"a recipe's pair must be \(source, place\)"):
        plain.set_recipe([(0,)])


def test_the_proof_finds_a_discard_the_core_leaves_out(library: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    listed = core_listing.NativeDiscards.of

    def one_short(self: NativeDiscards, position: Any, seat: int, hand_after: int) -> tuple[int, ...]:
        return listed(self, position, seat, hand_after)[1:]

    monkeypatch.setattr(core_listing.NativeDiscards, "of", one_short)
    proof = prove(rules_for(load_variant("classic")), ["core-listing/3"])
    assert any("discards differ" in found for found in proof.disagreements)


def _with_melds(game: Game, cards: str, melds: list[tuple[int, str]]) -> Any:
    """The seat to act holding ``cards``, its side having laid ``melds`` (rank, cards) and so opened."""
    fields = list(core.position_fields(game.state))
    seat = game.state.to_act
    side = game.state.side_of[seat]
    hands = list(fields[0])
    hands[seat] = tuple(counts_of(parse_cards(cards)))
    fields[0] = hands
    sides: list[list[tuple[int, tuple[int, ...], bool]]] = [[] for _ in fields[3]]
    sides[side] = [(rank, tuple(parse_cards(laid)), False) for rank, laid in melds]
    fields[3] = sides
    fields[5] = [int(i == side and bool(melds)) for i in range(len(sides))]
    position = core.new_position(game.rules)
    position.load(*fields)
    return position


SEVENS = 5  # the rank indexes of sevens and fives
FIVES = 3


def test_a_new_meld_needs_two_naturals_and_a_meld_on_the_table_takes_one(library: ModuleType) -> None:
    game = Game(load_variant("classic"), seed="core-listing/4")
    shapes = NativeRankShapes(game.rules)
    seat = game.state.to_act
    alone = shapes.of(_with_melds(game, "7C 7C 7D 7H 7S 2C JK 9D", []), seat, SEVENS, False)
    found = {(n, t, j): ways for n, t, j, *_, ways in alone}
    assert (1, 0, 0) not in found and (1, 1, 0) not in found
    assert found[(3, 0, 0)] == 7  # three of 7C 7C 7D 7H 7S: 7C twice, or once, or not
    assert found[(2, 1, 0)] == 7  # two of them: the pair of 7C, or two different suits
    joined = shapes.of(_with_melds(game, "7C 9D", [(SEVENS, "7H 7D 7S")]), seat, SEVENS, False)
    assert [shape[:3] for shape in joined] == [(1, 0, 0)]


def test_a_shape_that_completes_a_canasta_says_its_kind(library: ModuleType) -> None:
    game = Game(load_variant("classic"), seed="core-listing/5")
    position = _with_melds(game, "7C 2C 9D 9H", [(SEVENS, "7H 7D 7S 7S 2D 7H")])
    made = {
        shape[:3]: shape[5] for shape in NativeRankShapes(game.rules).of(position, game.state.to_act, SEVENS, False)
    }
    assert made[(1, 0, 0)] == 1  # a mixed canasta: the meld holds a two
    assert made[(0, 1, 0)] == 1
    assert (1, 1, 0) in made


def test_a_variant_whose_melds_must_be_completed_has_no_native_shapes(library: ModuleType) -> None:
    rules = rules_for(load_variant("modern-american"))
    assert (
        core_listing.rank_shapes_missing(rules)
        == "melds that must be completed before going out (hook meld.must_complete)"
    )
    with pytest.raises(core.CoreUnavailable, match="does not have melds that must be completed"):
        NativeRankShapes(rules)
    assert core_listing.rank_shapes_missing(rules_for(load_variant("classic"))) is None


def test_the_proof_finds_a_shape_the_core_gets_wrong(library: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    found = core_listing.NativeRankShapes.of

    def miscounted(self: NativeRankShapes, position: Any, seat: int, rank: int, initial: bool) -> list[Any]:
        return [(*shape[:6], shape[6] + 1) for shape in found(self, position, seat, rank, initial)]

    monkeypatch.setattr(core_listing.NativeRankShapes, "of", miscounted)
    proof = prove(rules_for(load_variant("classic")), ["core-listing/6"])
    assert any("the shapes of rank" in found for found in proof.disagreements)


def test_shapes_are_declined_if_the_core_builds_other_values_than_meld_valid_reads(
    library: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert tuple(library.SHAPE_VALUES) == core_listing.SHAPE_ARGUMENTS
    monkeypatch.setattr(core_listing, "SHAPE_ARGUMENTS", (*core_listing.SHAPE_ARGUMENTS, "suited"))
    with pytest.raises(core.CoreUnavailable, match=r"does not have meld\.valid's values as the engine passes them"):
        NativeRankShapes(rules_for(load_variant("classic")))


def _opened(cards: str, melds: list[str], permission: str = "none") -> tuple[Rules, HandState]:
    """A Classic position in play: North holding ``cards``, North-South having laid ``melds``."""
    rules = rules_for(load_variant("classic"))
    hands = [parse_cards(cards), parse_cards("9C 9D 9H 10S"), parse_cards("4C 4D 4H"), parse_cards("6C 6D 6H")]
    written = Position(hands, pile=parse_cards("8S"), melds=[[parse_cards(m) for m in melds], []], phase="play")
    written.permission = permission
    return rules, build_state(rules, written)[0]


def _single_melds(rules: Rules, state: HandState) -> list[tuple[int, int, int, int, int]]:
    position = core.load_state(core.new_position(rules), state)
    found = NativeSingleMelds(rules).of(position, state)
    assert found == reference_single_melds(rules, listing(rules, state))
    return found


def test_melding_out_needs_a_canasta_and_single_melds_count_their_groups(library: ModuleType) -> None:
    rules, state = _opened("7C 7D 7H", ["5C 5D 5H"])
    assert _single_melds(rules, state) == []  # three sevens would go out without a canasta
    rules, state = _opened("7C 7D 7H", ["5C 5D 5H 5S 5C 5D 5H"])
    assert _single_melds(rules, state) == [(SEVENS, 3, 0, 0, 1)]
    rules, state = _opened("7C 7D 7H 7S 2C 9S", ["5C 5D 5H"])
    found = {shape[:4]: shape[4] for shape in _single_melds(rules, state)}
    assert found[(SEVENS, 3, 0, 0)] == 4 and found[(SEVENS, 2, 1, 0)] == 6
    assert found[(FIVES, 0, 1, 0)] == 1  # the two joins the fives
    assert (SEVENS, 4, 1, 0) not in found  # it would leave one card, going out, without a canasta
    rules, state = _opened("7C 7D 7H 7S 2C 9S", ["5C 5D 5H 5S 5C 5D 5H"])
    assert (SEVENS, 4, 1, 0) in {shape[:4] for shape in _single_melds(rules, state)}


def test_the_proof_finds_a_single_meld_the_core_gets_wrong(
    library: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = core_listing.NativeSingleMelds.of

    def one_more(self: NativeSingleMelds, position: Any, state: HandState) -> list[Any]:
        return [*found(self, position, state), (SEVENS, 9, 0, 0, 1)]

    monkeypatch.setattr(core_listing.NativeSingleMelds, "of", one_more)
    proof = prove(rules_for(load_variant("classic")), ["core-listing/7"])
    assert proof.meld_listings > 0
    assert any("single melds differ" in found for found in proof.disagreements)


def _play_listing(rules: Rules, state: HandState) -> list[Action]:
    """The core's whole listing of a position of play, checked equal to the reference's (count and list)."""
    position = core.load_state(core.new_position(rules), state)
    found = NativePlayListing(rules).of(position)
    reference = listing(rules, state)
    assert found.count() == reference.count()
    assert list(found) == list(reference)
    return list(found)


def test_a_last_card_is_discarded_to_go_out_only_with_a_canasta(library: ModuleType) -> None:
    rules, state = _opened("9S", ["5C 5D 5H"])
    assert not [action for action in _play_listing(rules, state) if action.kind == "discard"]
    rules, state = _opened("9S", ["5C 5D 5H 5S 5C 5D 5H"])
    assert Action("discard", (parse_card("9S"),)) in _play_listing(rules, state)


def test_the_whole_listing_of_play_holds_melds_and_discards_in_the_reference_order(library: ModuleType) -> None:
    rules, state = _opened("7C 7D 7H 7S 2C 9S", ["5C 5D 5H"])
    kinds = [action.kind for action in _play_listing(rules, state)]
    assert kinds.index("meld") < kinds.index("discard")
    assert kinds.count("meld") == sum(shape[4] for shape in reference_single_melds(rules, listing(rules, state)))


def test_a_variant_with_named_melds_or_special_hands_has_no_native_listing_of_play(library: ModuleType) -> None:
    assert "melds an action names" in str(core_listing.play_listing_missing(rules_for(load_variant("samba"))))
    with pytest.raises(core.CoreUnavailable, match="does not have melds an action names"):
        NativePlayListing(rules_for(load_variant("bolivia")))
    assert core_listing.play_listing_missing(rules_for(load_variant("hand-and-foot"))) is None


def test_the_proof_finds_a_listing_the_core_gets_wrong(library: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    found = core_listing.NativePlayListing.of

    def without_the_last(self: NativePlayListing, position: Any) -> Listing:
        return Listing([list(found(self, position))[:-1]])

    monkeypatch.setattr(core_listing.NativePlayListing, "of", without_the_last)
    proof = prove(rules_for(load_variant("classic")), ["core-listing/8"])
    assert proof.play_listings > 0
    assert any("the listing counts" in found for found in proof.disagreements)


def test_the_core_says_which_positions_it_does_not_list(library: ModuleType) -> None:
    game = Game(load_variant("classic"), seed="core-listing/9")
    native = NativeListing(game.rules)
    position = core.load_state(core.new_position(game.rules), game.state)
    assert game.state.phase == "draw"
    game.apply(next(action for action in game.legal_actions() if action.kind == "draw"))
    core.load_state(position, game.state)
    assert not game.state.team_opened[game.state.side_of[game.state.to_act]]
    assert native.uncovered(position) == "the openings of a side that has not opened"
    assert native.of(position) is None
    samba = NativeListing(rules_for(load_variant("samba")))
    assert samba.play is None and samba.play_missing is not None


def test_an_answer_is_listed_as_the_reference_lists_it(library: ModuleType) -> None:
    rules, state = _opened("7C 7D 7H", ["5C 5D 5H 5S 5C 5D 5H"])
    game = Game(rules, seed="core-listing/10")
    game.state = state
    game.apply(Action.ask())
    assert game.state.phase == "answer"
    position = core.load_state(core.new_position(rules), game.state)
    found = NativeListing(rules).of(position)
    assert found is not None
    assert list(found) == list(listing(rules, game.state)) == [Action.answer(True), Action.answer(False)]


def test_the_meld_block_is_counted_without_its_groups_and_made_as_the_reference_makes_them(
    library: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The melds' groups are put together only when an action of the block is asked for, from the hand as it was
    listed (the position may have moved on since), and then as the reference has them, index by index."""
    made: list[int] = []

    def counted(pool: Any, size: int) -> Any:
        made.append(size)
        return submultisets(pool, size)

    monkeypatch.setattr(core_listing, "submultisets", counted)
    rules, state = _opened("7C 7D 7H 7S 2C 9S", ["5C 5D 5H"])
    position = core.load_state(core.new_position(rules), state)
    found = NativePlayListing(rules).of(position)
    reference = listing(rules, state)
    assert found.count() == reference.count() and not made
    core.load_state(position, _opened("9S", ["5C 5D 5H"])[1])
    melds = [index for index, action in enumerate(reference) if action.kind == "meld"]
    assert melds and [found[index] for index in melds] == [reference[index] for index in melds]
    assert made


def test_a_listing_asked_without_its_bound_part_is_refused_by_name(library: ModuleType) -> None:
    rules, state = _opened("7C 7D 7H 9S", ["5C 5D 5H"])
    position = core.load_state(core.new_position(rules), state)
    play = NativePlayListing(rules)
    with pytest.raises(ValueError, match=r"native core: the ListingContext has no play part"):
        position.play_listing(core_listing.bound_context(play.melds))
    with pytest.raises(ValueError, match=r"native core: 54 discard actions, expected 53"):
        preferred = None if play.discards.preferred is None else play.discards.preferred.memo
        core_listing.bound_context(
            play.melds, play=(play.memos, play.codes, play.discards.allowed.memo, preferred, (*DISCARDS, PASS))
        )
    discards = [action for action in listing(rules, state) if action.kind == "discard"]
    assert discards and position.play_listing(play.context)[2] == discards
