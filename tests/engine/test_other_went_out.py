"""The ``other_went_out`` fact of ``score.hand``: true only for the side that did not go out."""

from __future__ import annotations

from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.position import Position, build_state
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.engine.scoring import side_facts
from canasta_ref.engine.state import HandState
from canasta_ref.spec import load_variant


def _state(went_out: int | None) -> tuple[Rules, HandState]:
    rules = rules_for(load_variant("classic-2p"))
    position = Position(hands=[parse_cards("9C 8C"), parse_cards("5C 6S")], pile=parse_cards("7D"))
    state, _ = build_state(rules, position)
    state.went_out = went_out
    return rules, state


def test_the_other_side_sees_that_someone_went_out() -> None:
    rules, state = _state(0)
    assert side_facts(rules, state, 0)["other_went_out"] is False
    assert side_facts(rules, state, 1)["other_went_out"] is True


def test_no_one_out_means_no_side_sees_it() -> None:
    rules, state = _state(None)
    assert [side_facts(rules, state, team)["other_went_out"] for team in (0, 1)] == [False, False]
