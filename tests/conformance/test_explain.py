"""``canasta-ref explain`` shows the disputed values of a number or a table (its ``alternatives``) as it shows an
enum's options: the value in force with its sources, then the scenario judged under each alternative."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from canasta_ref.conformance import explain
from canasta_ref.conformance.explain import explain_lines, value_text
from canasta_ref.conformance.scenario import load_scenarios
from canasta_ref.spec import Alternative, Variant, load_variant

LOWER = [
    {"from": None, "value": 15},
    {"from": 0, "value": 30},
    {"from": 1500, "value": 90},
    {"from": 3000, "value": 120},
]
QUOTE = "With a score from 0 the first melds must count 30"
FIXTURE = str(Path(__file__).resolve().parents[1] / "docs" / "fixtures" / "specs" / "classic-alternatives.yaml")
SCENARIO = "initial-meld-needs-50-from-zero"  # three kings (30) are refused, then seven cards (50) accepted


@pytest.fixture
def lower_minimum() -> Variant:
    """Classic whose minimum-count table has an alternative (30 from a score of 0), loaded from its spec file."""
    return load_variant(FIXTURE)


def blocks(lines: list[str]) -> dict[str, list[str]]:
    """The output by block: its heading line -> the lines under it."""
    out: dict[str, list[str]] = {}
    heading = ""
    for line in lines:
        if line and not line.startswith(" "):
            heading = line
            out[heading] = []
        elif heading:
            out[heading].append(line)
    return out


def test_value_text_reads_a_table_as_bands() -> None:
    assert value_text(LOWER) == "below 0: 15; from 0: 30; from 1500: 90; from 3000: 120"
    assert value_text([{"from": None, "value": 50}]) == "always: 50"


def test_explain_judges_the_scenario_under_a_tables_alternative(lower_minimum: Variant) -> None:
    scenario = next(s for s in load_scenarios() if s.id == SCENARIO)
    found = blocks(list(explain_lines(scenario, [FIXTURE])))
    heading = (
        f"{lower_minimum.name} [{FIXTURE}] with initial_meld_table = "
        f'below 0: 15; from 0: 30; from 1500: 90; from 3000: 120 (hoyle-software: "{QUOTE}")'
    )
    assert heading in found, list(found)
    assert any("step 1 `meld KD KH KS`: allowed" in line for line in found[heading])  # 30 is enough here
    plain = found[f"{lower_minimum.name} [{FIXTURE}]"]
    assert any("step 1 `meld KD KH KS`: REFUSED by INITIAL_MELD.REQUIRED" in line for line in plain)


def test_explain_without_alternatives_skips_them(lower_minimum: Variant) -> None:
    scenario = next(s for s in load_scenarios() if s.id == SCENARIO)
    lines = list(explain_lines(scenario, [FIXTURE], alternatives=False))
    assert not any("with initial_meld_table" in line for line in lines)


def test_explain_names_the_sources_of_a_disputed_value_in_force() -> None:
    """A clause reading a parameter with alternatives says which value is in force and who gives it."""
    real = load_variant("classic")
    clause = next(c for c in real.clauses.values() if "initial_meld_table" in c.parameters)
    param = dataclasses.replace(real.parameters["initial_meld_table"], alternatives=(Alternative(LOWER, ()),))
    variant = dataclasses.replace(real, parameters={**real.parameters, "initial_meld_table": param})
    lines = list(explain._parameter_lines(variant, clause))
    refs = "; ".join(f'{r.source}: "{r.quote}"' for r in param.sources) or "no source"
    assert f"      with initial_meld_table = {value_text(param.value)} ({refs})" in lines
    at_alternative = dataclasses.replace(
        variant, parameters={**variant.parameters, "initial_meld_table": dataclasses.replace(param, value=LOWER)}
    )
    assert f"      with initial_meld_table = {value_text(LOWER)} (no source)" in list(
        explain._parameter_lines(at_alternative, clause)
    )
