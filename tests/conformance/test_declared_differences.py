"""An engine that plays a variant with some parameters at its own values declares them, and is run as "that variant
with these values": the checks that depend on them are skipped, everything else runs (and catches what else is
wrong), and the summary and the JSON report name the declared differences once, as differences, not failures.

The engine is the reference playing Canasta for two with one card drawn and one canasta to go out (a parameter
mutation), with or without declaring it, on a few bundled scenarios for two.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.report import json_report, summary
from canasta_ref.conformance.runner import Result, run_suite
from canasta_ref.conformance.scenario import load_scenarios
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.resources import scenario_dir

VARIANT = "classic-2p"
OWN_VALUES = {"draw_count": 1, "canastas_to_go_out": 1}
SCENARIOS = (
    "two-players-fifteen-cards-each-and-draw-two",  # depends on draw_count
    "two-players-one-canasta-is-not-enough",  # depends on canastas_to_go_out
    "two-players-what-makes-a-meld",  # depends on neither
    "two-players-wild-upcard-freezes-the-pile",  # depends on neither
)
DECLARED_LINE = f"  {VARIANT}: draw_count 1 (the variant's 2), canastas_to_go_out 1 (the variant's 2)"


def engine(*, declared: bool, mutate_rule: str | None = None) -> InProcessEngine:
    """The reference playing classic-2p with OWN_VALUES (and a rule negated), declaring them or not."""
    playing = InProcessEngine(ReferenceSession(mutate_rule=mutate_rule, mutate_parameter=OWN_VALUES))
    fixed: dict[str, dict[str, Any]] = {VARIANT: dict(OWN_VALUES)} if declared else {}
    playing.info = dataclasses.replace(playing.info, variants=[VARIANT], fixed_parameters=fixed)
    return playing


def run(playing: InProcessEngine) -> list[Result]:
    files = [scenario_dir() / f"{name}.yaml" for name in SCENARIOS]
    return run_suite(playing, [(scenario, VARIANT) for scenario in load_scenarios(files)])


@pytest.fixture(scope="module")
def declared_run() -> tuple[InProcessEngine, list[Result]]:
    playing = engine(declared=True)
    return playing, run(playing)


def test_undeclared_values_fail_the_scenarios_that_depend_on_them() -> None:
    results = {r.scenario: r.status for r in run(engine(declared=False))}
    assert results[SCENARIOS[0]] == "failed" and results[SCENARIOS[1]] == "failed"
    assert results[SCENARIOS[2]] == results[SCENARIOS[3]] == "passed"


def test_declared_values_skip_only_the_checks_that_depend_on_them(
    declared_run: tuple[InProcessEngine, list[Result]],
) -> None:
    _, results = declared_run
    by_id = {r.scenario: r for r in results}
    assert not [r for r in results if r.status == "failed"], [r.message for r in results]
    assert by_id[SCENARIOS[2]].status == by_id[SCENARIOS[3]].status == "passed"
    # each check skipped says which declared value it depends on
    assert by_id[SCENARIOS[0]].skips == {"depends on draw_count, which the engine fixes at 1": 4}
    assert by_id[SCENARIOS[1]].skips == {"depends on canastas_to_go_out, which the engine fixes at 1": 4}
    assert by_id[SCENARIOS[0]].status == by_id[SCENARIOS[1]].status == "partial"


def test_the_declared_differences_are_said_once_in_the_summary_and_the_json(
    declared_run: tuple[InProcessEngine, list[Result]],
) -> None:
    playing, results = declared_run
    lines = summary(results, playing.info)
    assert lines.count(DECLARED_LINE) == 1, "\n".join(lines)
    assert lines[lines.index(DECLARED_LINE) - 1].startswith("declared differences (not failures")
    report = json.loads(json_report(results, playing.info))
    assert report["summary"]["declared_differences"] == {
        VARIANT: {"draw_count": {"engine": 1, "variant": 2}, "canastas_to_go_out": {"engine": 1, "variant": 2}}
    }
    undeclared = engine(declared=False)
    assert not json.loads(json_report(results, undeclared.info))["summary"]["declared_differences"]
    assert not any(line.startswith("declared differences") for line in summary(results, undeclared.info))


def test_another_fault_is_still_caught_beside_the_declared_values() -> None:
    results = run(engine(declared=True, mutate_rule="PILE.TAKE.FROZEN"))
    failed = {r.scenario: r for r in results if r.status == "failed"}
    assert list(failed) == [SCENARIOS[3]]
    assert failed[SCENARIOS[3]].rule == "PILE.TAKE.FROZEN"
