"""derive: overrides checked, and an override the compiler rejects reported where the expression is."""

from __future__ import annotations

import pytest

from canasta_ref.errors import SpecError
from canasta_ref.resources import spec_dir
from canasta_ref.spec import load_variant
from canasta_ref.spec.derive import derive


def test_rejected_override_points_at_the_expression() -> None:
    classic = load_variant("classic")
    lines = (spec_dir() / "classic.yaml").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, start=1) if text.strip() == "when: rank in wild_ranks")
    column = lines[line - 1].index("wild_ranks") + 1
    with pytest.raises(SpecError) as caught:
        derive(classic, {"wild_ranks": [1, "a"]})
    error = caught.value
    assert error.reason == "parameter 'wild_ranks' is declared list but its value is [1, 'a']"
    assert error.location is not None
    assert (error.location.file, error.location.line, error.location.column) == (classic.file, line, column)
    assert error.snippet is not None and error.snippet[column - 1 :].startswith("wild_ranks")


def test_recompiled_clause_reads_what_its_new_code_reads() -> None:
    """Answers are cached on the variables a clause's code reads, so a clause compiled again with another
    parameter value must read what the new code reads, not what the old code did."""
    classic = load_variant("classic")
    derived = derive(classic, {"match_tie": "draw"})
    assert classic.clauses["MATCH.TARGET"].reads == {"highest_score", "leaders"}
    assert derived.clauses["MATCH.TARGET"].reads == {"highest_score"}


def test_recompiled_clause_keeps_its_origin() -> None:
    classic = load_variant("classic")
    derived = derive(classic, {"wild_ranks": ["2"]})
    before, after = classic.clauses["CARDS.WILD"], derived.clauses["CARDS.WILD"]
    assert after is not before and after.origin == before.origin
    assert after.evaluate({"rank": "2"}) is True and after.evaluate({"rank": "JK"}) is False


def test_a_parameter_set_to_its_own_value_keeps_its_sources_and_one_changed_is_marked() -> None:
    classic = load_variant("classic")
    same = derive(classic, {"canastas_to_go_out": 1, "draw_count": 2})
    kept, changed = same.parameters["canastas_to_go_out"], same.parameters["draw_count"]
    assert kept == classic.parameters["canastas_to_go_out"] and kept.sources
    assert changed.value == 2 and changed.set_in == "classic (overridden)"
