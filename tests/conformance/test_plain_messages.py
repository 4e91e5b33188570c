"""Messages for people show values as the rules write them: cards as cards, choices as words, nothing as none;
never Python's notation (``['3D']``, ``None``, ``'answer' is not one of ['draw', 'play']``). And a scenario whose
view differs is one finding, its later failed checks counted as consequences."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.findings import findings
from canasta_ref.conformance.plaintext import shown
from canasta_ref.conformance.report import summary
from canasta_ref.conformance.runner import run_case
from canasta_ref.conformance.scenario import Scenario, check_scenario, load_scenarios, scenario_dir
from canasta_ref.conformance.setup import seat_field


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (["3D", "9C"], "3D 9C"),
        ([], "nothing"),
        (None, "none"),
        (False, "false"),
        ("false", "'false'"),
        ([1, -2], "[1, -2]"),
    ],
)
def test_a_value_is_shown_as_the_rules_write_it(value: Any, text: str) -> None:
    assert shown(value) == text


class ShortPile(InProcessEngine):
    """The reference, whose views show the discard pile without its top card."""

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        reply = super().request(message)
        view = reply.get("view")
        if message.get("cmd") == "view" and isinstance(view, dict) and view.get("pile"):
            return {**reply, "view": {**view, "pile": view["pile"][:-1]}}
        return reply


def test_a_view_field_of_cards_that_differs_shows_cards() -> None:
    path = scenario_dir() / "red-three-upcard-keeps-the-pile-frozen-after-the-opening.yaml"
    scenario: Scenario = load_scenarios([path])[0]
    result = run_case(ShortPile(), scenario, "classic")
    (pile,) = [f for f in result.failures if f["check"] == "view.pile"][:1]
    assert pile["message"].endswith("seat 0's view field 'pile' should be 3D 9C, got 3D")
    assert "[" not in pile["message"]


def test_the_scenario_schema_names_its_choices_in_words(tmp_path: Path) -> None:
    path = tmp_path / "bad-level.yaml"
    path.write_text(
        "scenario: 1\nid: bad-level\ntitle: A test\nrules: [TURN.ORDER]\nvariants: [classic]\nlevel: shall\n"
        "setup: {deck: {seed: 3}}\nsteps:\n  - action: draw\n    expect: {result: accepted}\n",
        encoding="utf-8",
    )
    scenario, errors = check_scenario(path)
    assert scenario is None
    assert [error.reason for error in errors] == [
        "field 'level': expected one of must, alternative, implementation-defined, got 'shall'"
    ]


def test_a_set_up_field_of_the_wrong_kind_is_said_in_json_as_the_engine_wrote_it() -> None:
    with pytest.raises(ValueError, match=r"expected a seat from 0 to 3, got null$"):
        seat_field(None, 4, "first_seat")
    with pytest.raises(ValueError, match=r"expected a seat from 0 to 3, got \[1\]$"):
        seat_field([1], 4, "first_seat")


class ShortPileCountingSetUps(ShortPile):
    """ShortPile, counting the set-ups it is sent (the first, then each that puts it back in step)."""

    set_ups = 0

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        self.set_ups += message.get("cmd") == "setup"
        return super().request(message)


def test_a_scenario_is_one_finding_its_later_failures_consequences_and_each_failed_step_puts_the_engine_back() -> None:
    path = scenario_dir() / "red-three-upcard-keeps-the-pile-frozen-after-the-opening.yaml"
    engine = ShortPileCountingSetUps()
    result = run_case(engine, load_scenarios([path])[0], "classic")
    failed_steps = {f["step"] for f in result.failures}
    assert len(result.failures) > 1 and engine.set_ups == 1 + len(failed_steps)
    assert "not reached" not in result.checks
    found = findings([result], engine.info).by_variant["classic"]
    assert [(f.scenarios, f.consequences) for f in found] == [([result.scenario], len(result.failures) - 1)]
    assert found[0].example.startswith(f"{result.scenario}: {result.failures[0]['message']}"[:60])
    line = next(line for line in summary([result], engine.info) if line.startswith(f"  {found[0].label}: "))
    assert f"{len(result.failures) - 1} later failures" in line
    assert found[0].to_json()["consequences"] == len(result.failures) - 1
