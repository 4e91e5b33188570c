"""Hot paths ask the spec's hooks through ``Query``: values by position, cached on the ones the clauses read."""

from __future__ import annotations

import pytest

from canasta_ref import Rules, load_variant
from canasta_ref.engine.checks import DISCARD_ALLOWED
from canasta_ref.engine.rules import Coverage, Query, remember

NAMES = ("kind", "phase", "seat", "seat_to_act", "cards_in_hand", "last_card_bonus")
ASK = Query("action.allowed", NAMES)


def _rules() -> Rules:
    return Rules(load_variant("classic"))


def test_a_query_answers_as_the_clauses_do_on_both_sides() -> None:
    rules = _rules()
    refused = ("discard", "play", 1, 0, True, False)  # not this seat's turn
    allowed = ("discard", "play", 0, 0, True, False)
    for values in (refused, allowed, refused, allowed):  # the second round comes from the cache
        expected = rules.failing("action.allowed", ASK.env(values))
        assert rules.failing_of(ASK, values) is expected
    refusal = rules.failing_of(ASK, refused)
    assert refusal is not None and refusal.id == "TURN.ORDER"
    assert rules.failing_of(ASK, allowed) is None


def test_a_query_that_leaves_out_a_variable_the_clauses_read_is_refused() -> None:
    partial = Query("action.allowed", NAMES[:-1])
    with pytest.raises(ValueError, match="does not pass last_card_bonus"):
        _rules().failing_of(partial, ("draw", "draw", 0, 0, True))


def test_a_query_that_passes_a_name_the_hook_does_not_declare_is_refused() -> None:
    typo = Query("action.allowed", (*NAMES, "sea"))
    with pytest.raises(ValueError, match="passes sea, which the hook does not declare"):
        _rules().failing_of(typo, ("draw", "draw", 0, 0, True, False, 0))


def test_value_queries_feed_a_require_query_on_both_sides() -> None:
    rules = _rules()
    minimum = Query("initial_meld.minimum", ("team_score",))
    valid = Query("initial_meld.valid", ("count", "minimum", "going_out_concealed", "taking_pile"))
    assert rules.value_of(minimum, (0,)) == 50 and rules.value_of(minimum, (3000,)) == 120
    refusal = rules.failing_of(valid, (49, 50, False, False))
    assert refusal is not None and refusal.id == "INITIAL_MELD.REQUIRED"
    assert rules.failing_of(valid, (50, 50, False, False)) is None


def test_rule_coverage_sees_answers_that_were_cached_before_it_started() -> None:
    rules = _rules()
    values = ("discard", "play", 1, 0, True, False)
    clause = rules.failing_of(ASK, values)
    assert clause is not None and clause.id == "TURN.ORDER"
    rules.coverage = Coverage()
    assert rules.failing_of(ASK, values) is clause
    assert "refused" in rules.coverage.outcomes[clause.id]


def test_a_cache_keeps_at_most_its_limit_and_then_starts_again() -> None:
    cache: dict[int, int] = {}
    for key in range(3):
        assert remember(cache, key, key * 10, limit=3) == key * 10
    assert cache == {0: 0, 1: 10, 2: 20}  # full, nothing lost yet
    assert remember(cache, 3, 30, limit=3) == 30
    assert cache == {3: 30}


def test_a_hook_without_clauses_allows_everything_and_gives_nothing() -> None:
    """Classic has no discard.allowed clause: every discard is allowed, whatever values are passed."""
    rules = _rules()
    assert rules.clauses("discard.allowed") == ()
    assert rules.failing_of(DISCARD_ALLOWED, ("anything",) * len(DISCARD_ALLOWED.names)) is None
    rules.coverage = Coverage()
    assert rules.failing_of(DISCARD_ALLOWED, ("anything",) * len(DISCARD_ALLOWED.names)) is None
