"""Which of two melds combined is joined, the choice ``checks._combined_into`` makes for the engine: the core's
Python path calls that function, and its C entry (``native/apply.c``'s ``apply_combine``) writes the choice again.
Both are compared with the engine's function on every branch, with melds of two ranks so that the choice shows in
the combined meld's rank: neither a canasta, either one alone, both (fewer, as many and more wild cards in the
second)."""

from __future__ import annotations

from types import ModuleType

import pytest

from canasta_ref import core, parse_action
from canasta_ref.core.apply import Applied, NativeApply
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.checks import _combined_into
from canasta_ref.engine.game import Game
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import rules_for
from canasta_ref.spec import load_variant

KINGS, KINGS_CANASTA = "KH KS KD", "KH KS KD KC KH KS 2C"
ACES, ACES_CANASTA, ACES_WILDER = "AH AS AD", "AH AS AD AC AH AS AD", "AH AS AD AC AH 2D JK"


@pytest.mark.parametrize(
    ("first", "second", "joined"),
    [
        (KINGS, ACES, "first"),  # neither a canasta
        (KINGS_CANASTA, ACES, "first"),
        (KINGS, ACES_CANASTA, "second"),
        (KINGS_CANASTA, ACES_CANASTA, "second"),  # both: the second has fewer wild cards
        (KINGS_CANASTA, "AH AS AD AC AH AS 2D", "first"),  # as many
        (KINGS_CANASTA, ACES_WILDER, "first"),  # more
    ],
)
def test_the_meld_joined_is_the_engines_choice_in_c_and_on_the_python_path(
    library: ModuleType, first: str, second: str, joined: str
) -> None:
    samba = rules_for(load_variant("samba"))
    hands = [parse_cards("4S 5D 6H 7H 8S"), parse_cards("6D 6H 7C"), parse_cards("5S 7D 10S"), parse_cards("4D 4H 6S")]
    melds = [[parse_cards(first), parse_cards(second)], [parse_cards("QH QS QD")]]
    game = Game.from_position(samba, Position(hands, pile=parse_cards("6C 4C"), melds=melds, phase="play"))
    engine_first, engine_second = game.state.melds[0]
    chosen, _ = _combined_into(samba, engine_first, engine_second)
    assert chosen == (engine_first if joined == "first" else engine_second)
    for native in (True, False):
        applier = NativeApply(samba, native=native)
        position = core.load_state(core.new_position(samba), game.state.copy())
        assert applier.apply(position, parse_action("combine @1 @2")) == Applied()
        assert applier.applied_in_c == int(native)
        (rank, cards, _, _), *rest = position.export()["melds"][0]
        assert (rank, len(cards), rest) == (chosen.rank, engine_first.size + engine_second.size, [])
