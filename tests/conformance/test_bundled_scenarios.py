"""The bundled conformance suite (conformance/scenarios/*.yaml) against the reference interpreter, in process.

Every (scenario, variant) the suite selects must pass, and the suite must exercise every rule clause of
Classic and Classic for two both ways (allowed and refused, true and false, or evaluated), as measured by the
interpreter's own rule coverage (``canasta-ref coverage``).

Every side of every clause is reachable: sides that need a parameter's other value are exercised by the
'level: alternative' scenarios, which rule coverage counts. There are no exceptions: a scenario the reference
fails is a failure here.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.runner import Selection, run_case
from canasta_ref.conformance.scenario import Scenario, load_scenarios
from canasta_ref.conformance.suitecoverage import CoverageReport, rule_coverage
from canasta_ref.spec import list_variants

VARIANTS = tuple(list_variants())

SCENARIOS = load_scenarios()
CASES = Selection().cases(SCENARIOS)


@pytest.fixture(scope="module")
def engine() -> Iterator[InProcessEngine]:
    reference = InProcessEngine()
    yield reference
    reference.close()


def test_the_suite_covers_both_variants() -> None:
    variants = {variant for _, variant in CASES}
    assert variants >= set(VARIANTS), f"no scenario runs on {sorted(set(VARIANTS) - variants)}"


@pytest.mark.parametrize(("scenario", "variant"), CASES, ids=[f"{s.id}@{v}" for s, v in CASES])
def test_scenario_passes_on_the_reference(engine: InProcessEngine, scenario: Scenario, variant: str) -> None:
    result = run_case(engine, scenario, variant)
    assert result.status == "passed", f"{result.key}: {result.status}: {result.message}"


@pytest.fixture(scope="module")
def coverage() -> CoverageReport:
    return rule_coverage(SCENARIOS, VARIANTS)


def test_every_clause_is_covered_on_every_side(coverage: CoverageReport) -> None:
    missing = sorted(
        (variant, rule, side)
        for variant, rules in coverage.missing().items()
        for rule, sides in rules.items()
        for side in sides
    )
    assert not missing, "clause sides no scenario exercises:\n" + "\n".join(
        f"    {variant}: {rule}: no scenario {side}" for variant, rule, side in missing
    )


def test_coverage_runs_only_passing_scenarios(coverage: CoverageReport) -> None:
    assert not coverage.failures, "\n".join(coverage.failures)
