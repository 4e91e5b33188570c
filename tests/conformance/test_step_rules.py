"""A scenario's step may name the rule it exercises: a failure at that step no check names a rule for is filed
under it (where the scenario cites several rules, nothing else could say which), and a bad step rule is refused
with its file, line and field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.runner import run_case
from canasta_ref.conformance.scenario import check_scenario, load_scenarios
from canasta_ref.resources import scenario_dir

#: A bundled scenario of several rules whose first step names the one it exercises.
BUNDLED = scenario_dir() / "concealed-going-out-needs-no-minimum.yaml"
STEP_RULE = "    rule: GO_OUT.CONCEALED\n"
STEP_LINE = BUNDLED.read_text(encoding="utf-8").splitlines().index(STEP_RULE.rstrip("\n")) + 1


class RefusesMelds(InProcessEngine):
    """The reference in process, refusing every meld and citing no rule."""

    def receive(self) -> list[dict[str, Any]]:
        queued = [dict(m) for m in self._queued]
        return [self._alter(m, r) for m, r in zip(queued, super().receive(), strict=True)]

    @staticmethod
    def _alter(request: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any]:
        action = request.get("action")
        if request.get("cmd") == "apply" and isinstance(action, dict) and action.get("type") == "meld":
            return {"ok": True, "accepted": False, "rule": None, "message": "no melds today"}
        return reply


def write(tmp_path: Path, step_rule: str, *, refused: str | None = None) -> Path:
    """The bundled scenario with its first step's rule replaced by ``step_rule`` (and that step refused by
    ``refused``, when given)."""
    text = BUNDLED.read_text(encoding="utf-8")
    assert STEP_RULE in text
    text = text.replace(STEP_RULE, step_rule)
    if refused is not None:
        text = text.replace(
            "      result: accepted\n      over: true", f"      result: refused\n      rule: {refused}", 1
        )
    path = tmp_path / BUNDLED.name
    path.write_text(text, encoding="utf-8")
    return path


def first_failure(path: Path) -> dict[str, Any]:
    (case,) = load_scenarios([path])
    result = run_case(RefusesMelds(), case, "classic")
    assert result.status == "failed"
    return result.failures[0]


def test_a_failure_at_a_step_naming_its_rule_is_filed_under_it() -> None:
    failure = first_failure(BUNDLED)
    assert failure["rule"] == "GO_OUT.CONCEALED"
    assert failure["cause"] == "verdict: refuses `meld` actions the reference accepts"


def test_without_it_a_scenario_of_several_rules_files_the_failure_under_its_cause(tmp_path: Path) -> None:
    failure = first_failure(write(tmp_path, ""))
    assert failure["rule"] is None
    assert failure["cause"] == "verdict: refuses `meld` actions the reference accepts"


def test_a_refused_step_exercises_the_rule_it_expects(tmp_path: Path) -> None:
    (case,) = load_scenarios([write(tmp_path, "", refused="GO_OUT.CANASTAS")])
    assert case.steps[0].rule == "GO_OUT.CANASTAS"


def test_a_step_rule_no_listed_variant_has_is_refused_with_its_place(tmp_path: Path) -> None:
    scenario, errors = check_scenario(write(tmp_path, "    rule: GO_OUT.NO_SUCH\n"))
    assert scenario is None
    (error,) = errors
    assert "field 'steps[0].rule': no variant listed has a rule GO_OUT.NO_SUCH" in str(error)
    assert error.location is not None and error.location.line == STEP_LINE


def test_a_step_rule_other_than_its_refusals_is_refused(tmp_path: Path) -> None:
    scenario, errors = check_scenario(write(tmp_path, STEP_RULE, refused="GO_OUT.CANASTAS"))
    assert scenario is None
    assert "is not the rule the step's refusal cites (GO_OUT.CANASTAS)" in str(errors[0])


def test_a_step_rule_that_is_not_a_rule_id_is_refused_by_the_schema(tmp_path: Path) -> None:
    scenario, errors = check_scenario(write(tmp_path, "    rule: go out\n"))
    assert scenario is None
    assert "field 'steps[0].rule'" in str(errors[0])
