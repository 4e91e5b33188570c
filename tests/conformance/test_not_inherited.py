"""Scenarios a variant does not inherit (conformance/not-inherited.yaml): each listed one exists, would carry over
by its cited rules alone, and does fail on the variant; a malformed list is refused with its line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta_ref.conformance import inheritance, variants
from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.inheritance import not_inherited
from canasta_ref.conformance.runner import run_case
from canasta_ref.conformance.scenario import load_scenarios
from canasta_ref.errors import SpecError

SCENARIOS = {s.id: s for s in load_scenarios()}
LISTED = sorted(not_inherited())


def test_the_list_is_not_empty() -> None:
    assert ("modern-american", "meld-needs-three-cards") in not_inherited()


@pytest.mark.parametrize(("variant", "scenario_id"), LISTED)
def test_each_listed_scenario_would_carry_over_and_fails_there(
    variant: str, scenario_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = SCENARIOS[scenario_id]
    assert not variants.applies_to(scenario, variant)
    monkeypatch.setattr(variants, "excluded", lambda *args: None)
    assert variants.applies_to(scenario, variant), "listed, but the cited rules already keep it from the variant"
    result = run_case(InProcessEngine(), scenario, variant)
    assert result.status != "passed", "listed, but it passes on the variant: take it off the list"


def test_a_listed_scenario_still_applies_to_the_variant_it_is_written_for() -> None:
    assert variants.applies_to(SCENARIOS["meld-needs-three-cards"], "classic")
    assert variants.applies_to(SCENARIOS["meld-needs-three-cards"], "fournier")


def test_a_descendant_shares_its_ancestors_list() -> None:
    lineage = ("classic", "modern-american", "a-house-rule")
    assert inheritance.excluded("meld-needs-three-cards", lineage, "classic") is not None
    assert inheritance.excluded("meld-needs-three-cards", ("classic", "samba"), "classic") is None


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("modern-amercan:\n  meld-needs-three-cards: why\n", "unknown variant 'modern-amercan'", 1),
        ("modern-american: [meld-needs-three-cards]\n", "expected a mapping of scenario ids", 1),
        ("modern-american:\n  meld-needs-three-cards: ''\n", "expected a sentence saying why", 2),
        ("- modern-american\n", "expected a mapping of variant ids", 1),
        ("modern-american:\n  a: [\n", "", 0),
    ],
)
def test_a_malformed_list_is_refused_with_its_place(tmp_path: Path, text: str, message: str, line: int) -> None:
    path = tmp_path / "not-inherited.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as refused:
        not_inherited(path)
    assert message in str(refused.value)
    assert str(path) in str(refused.value)
    if line:
        assert refused.value.location is not None and refused.value.location.line == line
