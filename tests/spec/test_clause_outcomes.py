"""``Clause.outcomes``: what rule coverage must see of a clause, both sides unless the clause is fixed."""

from __future__ import annotations

import dataclasses

from canasta_ref.spec import load_variant


def test_a_condition_on_the_position_has_both_outcomes() -> None:
    clauses = load_variant("classic").clauses
    assert not clauses["PILE.TAKE.MATCH"].fixed
    assert clauses["PILE.TAKE.MATCH"].outcomes == ("allowed", "refused")
    assert clauses["INITIAL_MELD.MINIMUM"].outcomes == ("evaluated",)


def test_a_condition_reading_nothing_is_fixed_with_one_outcome() -> None:
    merge = load_variant("classic").clauses["MELD.MERGE"]  # when: true
    assert merge.fixed and not merge.reads and not merge.parameters
    assert merge.outcomes == ("true",)


def test_a_condition_reading_only_a_parameter_is_not_fixed() -> None:
    """A parameter can be set otherwise by a scenario or a child spec, so both outcomes stay reachable."""
    merge = load_variant("classic").clauses["MELD.MERGE"]
    on_a_parameter = dataclasses.replace(merge, parameters=("same_rank_melds",))
    assert not on_a_parameter.fixed
    assert on_a_parameter.outcomes == ("true", "false")
