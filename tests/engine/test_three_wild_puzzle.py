"""pagat's puzzle (a take with a natural card and a wild card of the rank of the side's canasta that already holds
three wild cards), under each option of three_wild_canasta_take: the listing offers exactly what the judge
accepts, the take's cards go where the option says, and a position holding the second meld it makes is written."""

from __future__ import annotations

from typing import Any

import pytest
from listing_kit import legal_by_plan

from canasta_ref import Game, load_variant, parse_action
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.errors import CanastaError
from canasta_ref.spec.derive import derive

CANASTA = "KH KS KD KC 2C 2S JK"


def puzzle_rules(option: str) -> Rules:
    return rules_for(derive(load_variant("classic"), {"three_wild_canasta_take": option}))


def puzzle(rules: Rules, hand: str = "KS 2H 7H 8S 5D KD 2D", **extra: Any) -> Game:
    """North to draw, a king on the pile, North-South holding a canasta of kings with three wild cards."""
    hands = [parse_cards(h) for h in (hand, "5C 2D 6S 8H", "9C 8C 8D", "8H 10S 9D")]
    melds = extra.pop("melds", [[parse_cards(CANASTA)], [parse_cards("QH QS QD")]])
    return Game.from_position(rules, Position(hands=hands, pile=parse_cards("6C 4S KH"), melds=melds, **extra))


@pytest.mark.parametrize(
    ("option", "listed", "kings"),
    [("refused", False, None), ("fourth_wild", True, [10]), ("second_meld", True, [7, 3])],
)
def test_the_natural_and_wild_take_is_listed_as_judged_and_lands_where_the_option_says(
    option: str, listed: bool, kings: list[int] | None
) -> None:
    rules = puzzle_rules(option)
    game = puzzle(rules)
    take = parse_action("take KS 2H")
    assert (take in legal_by_plan(rules, game)) is listed
    if kings is None:
        return
    game.apply(take)
    assert [meld.size for meld in game.state.melds[0] if meld.rank == 11] == kings
    assert max(meld.wilds for meld in game.state.melds[0]) == (4 if option == "fourth_wild" else 3)


def test_a_take_adding_no_wild_card_joins_the_canasta_under_the_second_meld_reading() -> None:
    rules = puzzle_rules("second_meld")
    game = puzzle(rules, hand="KS KD 7H 8S 5D 2D")
    game.apply(parse_action("take KS KD"))
    assert [meld.size for meld in game.state.melds[0] if meld.rank == 11] == [10]


def test_cards_laid_from_hand_still_join_the_canasta_under_the_second_meld_reading() -> None:
    rules = puzzle_rules("second_meld")
    game = puzzle(rules)
    game.apply(parse_action("draw"))
    game.apply(parse_action("meld K: KD"))
    assert [meld.size for meld in game.state.melds[0] if meld.rank == 11] == [8]


def test_a_second_meld_of_kings_beside_the_canasta_is_written_only_where_the_take_could_make_it() -> None:
    melds = [[parse_cards(CANASTA), parse_cards("KS KC 2H")], [parse_cards("QH QS QD")]]
    written = puzzle(puzzle_rules("second_meld"), hand="7H 8S 5D", melds=melds)
    assert [meld.size for meld in written.state.melds[0]] == [7, 3]
    with pytest.raises(CanastaError, match=r"field 'melds\[0\]\[1\]': side 0 already has an open meld of rank K"):
        puzzle(puzzle_rules("refused"), hand="7H 8S 5D", melds=melds)
    two_wilds = [[parse_cards("KH KS KD KC KD 2C JK"), parse_cards("KS KC 2H")], [parse_cards("QH QS QD")]]
    with pytest.raises(CanastaError, match=r"already has an open meld of rank K"):
        puzzle(puzzle_rules("second_meld"), hand="7H 8S 5D", melds=two_wilds)
