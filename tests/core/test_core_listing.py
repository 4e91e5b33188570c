"""The parts of the listing the core builds natively (today the discards' verdicts card by card), on positions set
up directly; the step-by-step proof against the reference's listing in every variant is test_core_proof.py."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from canasta_ref import Game, core
from canasta_ref.core import listing as core_listing
from canasta_ref.core.listing import NativeDiscards
from canasta_ref.core.proof import prove
from canasta_ref.engine.cards import card_name, counts_of, parse_cards
from canasta_ref.engine.rules import rules_for
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
