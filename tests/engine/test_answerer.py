"""Who answers "may I go out?": the ``go_out.answerer`` hook, and the next partner when a variant has none."""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta_ref import Game, Variant, load_variant, parse_action
from canasta_ref.conformance.setup import with_parameters
from canasta_ref.engine.checks import answerer
from canasta_ref.engine.rules import rules_for
from canasta_ref.errors import CanastaError

WRONG_ANSWERER = """\
spec: 1
id: wrong-answerer
name: A wrong answerer
description: Six players in two teams of three, asking the player to the left, who is an opponent.
extends: classic-6p
rules:
  - id: GO_OUT.ASK.WHO_ANSWERS
    replaces: true
    section: going-out
    title: The next player answers
    text: The next player answers.
    sources: [{source: canasta-ref, quote: "The next player answers."}]
    hook: go_out.answerer
    value: seat + 1
"""


def answers(variant: Variant) -> list[int]:
    """Who answers each seat at the start of a hand of ``variant``."""
    rules, state = rules_for(variant), Game(variant, seed=1).state
    return [answerer(rules, state, seat) for seat in range(rules.players)]


def test_without_a_clause_the_next_partner_in_turn_order_answers() -> None:
    assert rules_for(load_variant("classic")).clauses("go_out.answerer") == ()
    assert answers(load_variant("classic")) == [2, 3, 0, 1]


def test_without_a_partner_there_is_no_one_to_answer() -> None:
    variant = load_variant("classic-3p")  # everyone plays alone until the pile is first taken
    with pytest.raises(CanastaError, match="seat 0 has no partner to ask"):
        answerer(rules_for(variant), Game(variant, seed=1).state, 0)


def test_two_teams_of_three_ask_the_partner_two_seats_on() -> None:
    assert answers(load_variant("classic-6p")) == [2, 3, 4, 5, 0, 1]


def test_three_teams_of_two_ask_the_only_partner() -> None:
    assert answers(with_parameters("classic-6p", {"teams": 3})) == [3, 4, 5, 0, 1, 2]


def test_a_clause_naming_an_opponent_is_a_located_error(tmp_path: Path) -> None:
    spec = tmp_path / "wrong-answerer.yaml"
    spec.write_text(WRONG_ANSWERER, encoding="utf-8")
    variant = load_variant(spec)
    with pytest.raises(CanastaError, match=r"GO_OUT\.ASK\.WHO_ANSWERS\) names seat 1 for seat 0, who is not a partner"):
        answerer(rules_for(variant), Game(variant, seed=1).state, 0)


def test_an_ask_hands_the_turn_to_the_answerer() -> None:
    game = Game(load_variant("classic-6p"), seed=1)
    seat = game.to_act
    game.apply(parse_action("draw"), seat)
    game.apply(parse_action("ask"), seat)
    assert game.to_act == (seat + 2) % 6
