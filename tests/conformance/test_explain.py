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
    headings = [line for line in explain_lines(scenario, [FIXTURE], alternatives=False) if not line.startswith(" ")]
    assert headings[1:] == ["", f"{lower_minimum.name} [{FIXTURE}]", "", "Sources"]


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


def step_block(lines: list[str], heading: str, step: int) -> list[str]:
    """The lines of one step under one heading: its verdict line and what follows it up to the next step."""
    block = blocks(lines)[heading]
    start = next(i for i, line in enumerate(block) if line.startswith(f"  step {step} "))
    end = next((i for i, line in enumerate(block) if i > start and line.startswith("  step ")), len(block))
    while not block[end - 1]:  # the blank line before the next heading
        end -= 1
    return block[start:end]


def explained(scenario_id: str, variants: list[str]) -> list[str]:
    scenario = next(s for s in load_scenarios() if s.id == scenario_id)
    return list(explain_lines(scenario, variants))


def test_the_black_three_dispute_leads_with_the_rule_that_freezes_or_not() -> None:
    lines = explained("black-three-does-not-freeze-the-pile", ["classic", "modern-american"])
    classic = step_block(lines, "Classic Canasta [classic]", 1)
    assert classic[0] == "  step 1 `take 9C 2C`: allowed"
    assert classic[1] == "      PILE.FROZEN.BLACK_THREE does not apply: A black three only stops the next player"
    assert classic[3].startswith("      with black_three = blocks_next_player (")
    american = step_block(
        lines, "Modern American Canasta [modern-american] (the scenario is not written for this variant)", 1
    )
    assert american[0] == "  step 1 `take 9C 2C`: REFUSED by PILE.TAKE.FROZEN (A frozen pile needs a natural pair)"
    assert "      PILE.FROZEN.ALWAYS applies: The pile is always frozen" in american
    assert american[-1].startswith("      (also asked, bearing on no difference: ")
    freezes = [h for h in blocks(lines) if h.startswith("Classic Canasta [classic] with black_three = freezes")]
    assert len(freezes) == 1
    frozen = step_block(lines, freezes[0], 1)
    assert frozen[0] == "  step 1 `take 9C 2C`: REFUSED by PILE.TAKE.FROZEN (A frozen pile needs a natural pair)"
    assert frozen[3] == "      PILE.FROZEN.BLACK_THREE applies: A black three freezes the pile"


def test_the_one_card_pile_dispute_leads_with_the_one_card_rule_and_the_value_in_force() -> None:
    lines = explained("dispute-one-card-pile", ["classic", "hoyle-2p"])
    allowed = step_block(lines, "Classic Canasta [classic]", 1)
    assert allowed[:2] == [
        "  step 1 `take`: allowed",
        "      PILE.TAKE.ONE_CARD holds: One card in hand, one card in the pile",
    ]
    assert allowed[3].startswith("      with one_card_pile = allow (pagat")
    forbid = next(h for h in blocks(lines) if h.startswith("Classic Canasta [classic] with one_card_pile = forbid"))
    refused = step_block(lines, forbid, 1)
    assert refused[0] == "  step 1 `take`: REFUSED by PILE.TAKE.ONE_CARD (One card in hand, one card in the pile)"
    assert refused[2].startswith("      with one_card_pile = forbid (hoyle-software")
    lines_hoyle = [h for h in blocks(lines) if h.startswith("Hoyle's Canasta for two [hoyle-2p]")]
    assert lines_hoyle, "Hoyle is judged too"


def test_explain_ends_with_each_source_it_cites_as_a_reader_would_cite_it() -> None:
    """The verdicts name sources by short names; the answer ends with each one's title and address, in the order
    first cited, and with no source it did not cite."""
    lines = explained("dispute-one-card-pile", ["classic"])
    footer = lines[lines.index("Sources") + 1 :]
    variant = load_variant("classic")
    pagat, hoyle = variant.sources["pagat"], variant.sources["hoyle-software"]
    assert footer[0] == f"  pagat: {pagat.title} <{pagat.url}>"
    assert f"  hoyle-software: {hoyle.title}" in footer  # no address a reader can visit: none shown
    body = "\n".join(lines[: lines.index("Sources")])
    assert all(f'{line.split(":")[0].strip()}: "' in body for line in footer)
    assert not any(line.startswith("  gamedesire:") for line in footer) and "gamedesire" not in body
