"""Answering "may I go out?" on the core checks the phase itself, not only the listing that offered it: in the
answer phase the asker plays on with the permission given; out of it (the answer already given, the asker still
named) the C entry declines with nothing moved, and the Python path says why in words."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from canasta_ref import core, parse_action
from canasta_ref.core.apply import Applied, NativeApply, encode
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.game import Game
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.spec import load_variant


def _asked(rules: Rules, answered: str | None) -> Any:
    """North has asked its partner (South, seat 2) "may I go out?" and, where ``answered``, been answered."""
    hands = [parse_cards("8C 8D 8H 5S"), parse_cards("9C 9D 4S"), parse_cards("4C 4D 4H"), parse_cards("6C 6D 6H")]
    melds = [[parse_cards("QH QD QC QS QH QD QC")], []]
    game = Game.from_position(rules, Position(hands, pile=parse_cards("5C 7D"), melds=melds, phase="play"))
    position = core.load_state(core.new_position(rules), game.state)
    for text in ["ask", *([answered] if answered else [])]:
        assert NativeApply(rules).apply(position, parse_action(text)) == Applied()
    return position


@pytest.mark.parametrize("answered", [None, "yes"])
@pytest.mark.parametrize("answer", ["yes", "no"])
@pytest.mark.parametrize("native", [True, False])
def test_an_answer_is_applied_in_the_answer_phase_and_declined_out_of_it(
    library: ModuleType, answered: str | None, answer: str, native: bool
) -> None:
    """In the answer phase the asker plays on with the permission given; once answered, a second answer moves
    nothing, in C (declined) and on the Python path (in words)."""
    classic = rules_for(load_variant("classic"))
    position = _asked(classic, answered)
    before = position.export()
    applier = NativeApply(classic, native=native)
    if answered is None:
        assert applier.apply(position, parse_action(answer)) == Applied()
        assert applier.applied_in_c == int(native)
        phase, permission, *_ = position.turn()
        assert (position.where()[1], core.PHASES[phase], core.PERMISSIONS[permission]) == (0, "play", answer)
        return
    if native:
        assert position.apply(applier.context, encode(parse_action(answer))) == -1
    expected = 'answering in the play phase: a partner answers only when asked "may I go out?"'
    assert applier.apply(position, parse_action(answer)) == expected
    assert position.export() == before
