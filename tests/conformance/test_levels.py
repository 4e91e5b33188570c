"""Levels say what they mean: a refusal resting only on canasta-ref's convention is never required of an engine.

A clause is the project's convention when every source it cites is marked ``convention: true`` in the spec (the
``canasta-ref`` source of ``spec/classic.yaml``). A ``must`` scenario expecting such a refusal is refused at load
time with the file, line and column; the same scenario as ``implementation-defined`` loads.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta_ref.conformance.scenario import load_scenarios, scenario_dir
from canasta_ref.errors import CanastaError
from canasta_ref.spec import list_variants, load_variant

CONVENTION = {
    "MELD.ONE_GROUP_AFTER_OPENING",
    "MELD.ONE_GROUP_PER_RANK",
    "PILE.TAKE.EXTRA_MELDS",
    "PILE.TAKE.EXTRA_RANK",
    "PILE.TAKE.ONTO_MELD",
    "PILE.TAKE.PAIR_ONCE_OPENED",
}

SCENARIO = """scenario: 1
id: notation
title: A meld of two groups after the opening
description: North-South have melded; two melds in one action are canasta-ref's notation only.
rules: [MELD.ONE_GROUP_AFTER_OPENING]
variants: [classic]
level: {level}
setup:
  position:
    hands: ["9C 9D 9S 5C 5D 5S 7H", "4D 4H 6S 8H", "7C 8C 8D", "8S 10S JD"]
    pile: "6H"
    melds: [["QH QS QD"], []]
    to_act: 0
    phase: play
steps:
  - action: meld 9C 9D 9S | 5C 5D 5S
    expect: {{result: refused, rule: {rule}}}
"""


#: Where melds have an identity (Samba's family), two groups of a rank are two melds and a take names the meld the
#: top card joins, a rule Bicycle gives: Classic's conventions for writing one play one way are not theirs.
NAMED_MELDS_CONVENTION = CONVENTION - {"MELD.ONE_GROUP_PER_RANK", "PILE.TAKE.EXTRA_RANK", "PILE.TAKE.ONTO_MELD"}


@pytest.mark.parametrize("variant", list_variants())
def test_the_notation_clauses_are_the_conventions(variant: str) -> None:
    spec = load_variant(variant)
    conventions = CONVENTION if "samba" not in spec.lineage else NAMED_MELDS_CONVENTION
    # Asking partner once a turn, and (three players, six players) whom to ask, are the project's conventions;
    # two players have no partner to ask.
    asking = {
        rule
        for rule in ("GO_OUT.ASK.ONCE_A_TURN", "GO_OUT.ASK.PARTNER", "GO_OUT.ASK.WHO_ANSWERS")
        if rule in spec.clauses
    }
    assert {rule for rule in spec.clauses if spec.is_convention(rule)} == conventions | asking
    assert not spec.is_convention("PILE.TAKE.FROZEN")  # sourced by pagat
    assert not spec.is_convention("NO.SUCH.RULE")


def _write(tmp_path: Path, level: str, rule: str = "MELD.ONE_GROUP_AFTER_OPENING") -> Path:
    path = tmp_path / "notation.yaml"
    path.write_text(SCENARIO.format(level=level, rule=rule), encoding="utf-8")
    return path


def test_a_must_scenario_cannot_expect_a_conventional_refusal(tmp_path: Path) -> None:
    with pytest.raises(CanastaError) as caught:
        load_scenarios([_write(tmp_path, "must")])
    message = str(caught.value)
    assert "notation.yaml:17:" in message
    assert "MELD.ONE_GROUP_AFTER_OPENING rests only on canasta-ref's own convention" in message
    assert "level: implementation-defined" in message


def test_the_same_scenario_loads_as_implementation_defined(tmp_path: Path) -> None:
    (scenario,) = load_scenarios([_write(tmp_path, "implementation-defined")])
    assert scenario.level == "implementation-defined"


def test_a_must_scenario_may_expect_a_sourced_refusal(tmp_path: Path) -> None:
    # Same position, a refusal by a sourced rule: the level check does not apply (the step itself is wrong here,
    # which is the runner's business, not the loader's).
    (scenario,) = load_scenarios([_write(tmp_path, "must", rule="MELD.MIN_CARDS")])
    assert scenario.level == "must"


def test_no_bundled_must_scenario_expects_a_conventional_refusal() -> None:
    scenarios = load_scenarios([scenario_dir()])
    conventional = [
        scenario.id
        for scenario in scenarios
        for step in scenario.steps
        if scenario.level == "must"
        and step.expect.rule is not None
        and any(load_variant(v).is_convention(step.expect.rule) for v in scenario.variants)
    ]
    assert conventional == []
    # ...and each convention is still exercised, as implementation-defined.
    cited = {step.expect.rule for s in scenarios if s.level == "implementation-defined" for step in s.steps}
    assert cited >= CONVENTION
