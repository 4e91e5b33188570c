"""A position scenario that draws carries over to a child variant only when a draw takes as many cards."""

from __future__ import annotations

from canasta_ref.conformance.scenario import Scenario, load_scenarios
from canasta_ref.conformance.variants import applies_to


def _scenario(name: str) -> Scenario:
    return next(s for s in load_scenarios() if s.id == name)


def test_a_scenario_that_draws_does_not_carry_to_another_draw_count() -> None:
    assert applies_to(_scenario("two-players-taking-turns"), "classic-2p")
    assert not applies_to(_scenario("two-players-taking-turns"), "hoyle-2p")


def test_a_scenario_without_a_draw_still_carries_over() -> None:
    assert applies_to(_scenario("two-players-one-canasta-is-not-enough"), "hoyle-2p")
    # One that expects a score does not: hoyle-2p scores red threes and short canastas otherwise.
    assert not applies_to(_scenario("two-players-canasta-natural-then-mixed"), "hoyle-2p")
