"""A scenario written for one variant carries over to a variant extending it only if what it relies on is the same:
the rules it cites, and, beyond them, every deal clause when it deals from a deck order and every score clause when
it expects a score."""

from __future__ import annotations

from canasta_ref.conformance.scenario import load_scenarios
from canasta_ref.conformance.variants import applies_to

SCENARIOS = {s.id: s for s in load_scenarios()}


def test_a_scenario_expecting_a_score_needs_the_same_score_clauses() -> None:
    # Fournier adds score clauses (four black threes held); the scenario's totals would move.
    scenario = SCENARIOS["stock-empty-must-take-a-matching-discard"]
    assert applies_to(scenario, "classic")
    assert not applies_to(scenario, "fournier")


def test_a_scenario_without_a_score_carries_over() -> None:
    scenario = SCENARIOS["meld-needs-three-cards"]
    assert not any(step.expect.score is not None for step in scenario.steps)
    assert applies_to(scenario, "fournier")


def test_a_dealt_scenario_needs_the_same_deal_clauses() -> None:
    # Fournier covers a black-three upcard, so a deck order deals differently.
    scenario = SCENARIOS["black-three-upcard-does-not-freeze"]
    assert "deck" in scenario.setup
    assert applies_to(scenario, "classic")
    assert not applies_to(scenario, "fournier")
