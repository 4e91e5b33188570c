"""How a case runs on an engine that declared what it plays otherwise or cannot hold: under which rules,
from which set-up, with which checks skipped as depending on the declarations."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.rules import Rules, rules_for
from ..errors import CanastaError
from .case import _Case
from .case_setup import case_rules
from .engines import EngineFailure, EngineInfo, InProcessEngine
from .results import plain
from .scenario import Scenario
from .skips import position_fields, up_front_skip
from .tally import CheckKey, Skip, Tally
from .variants import with_parameters


@dataclass(frozen=True)
class Plan:
    """How a case runs on an engine that declared what it plays otherwise or cannot hold: under ``rules`` (the
    parameters it fixes applied), set up from ``setup`` (the fields it cannot hold left out), with the checks whose
    answer depends on those declarations (``dependent``, each with the reason) skipped."""

    rules: Rules
    setup: Mapping[str, Any]
    dependent: Mapping[CheckKey, str] = field(default_factory=dict)


def declared_plan(info: EngineInfo, scenario: Scenario, variant: str) -> Plan:
    """The plan of a case on this engine; raises Skip when the engine cannot run the scenario at all (nor any part
    of it). The reference plays the case as the engine declared it would (its fixed parameters, the position
    without the fields it cannot hold): the checks the reference itself then fails depend on the declarations."""
    reason = up_front_skip(info, scenario, variant)
    if reason:
        raise Skip(reason)
    rules, changed = _with_fixed(info, scenario, variant)
    unheld = sorted(position_fields(scenario) & info.unheld_position_fields)
    if not changed and not unheld:
        return Plan(rules, scenario.setup)
    reason = _declared_reason(changed, unheld)
    if unheld and not set(unheld) <= DROPPABLE_FIELDS:
        raise Skip(reason)
    setup = _without_fields(scenario.setup, unheld)
    failures = _reference_failures(scenario, variant, rules, {**scenario.parameters, **changed}, setup)
    if failures is None:
        raise Skip(reason)
    if len(changed) + bool(unheld) > 1:
        return Plan(rules, setup, _attributed(scenario, variant, changed, unheld, failures))
    return Plan(rules, setup, dict.fromkeys(failures, reason))


def _attributed(
    scenario: Scenario, variant: str, changed: Mapping[str, Any], unheld: Sequence[str], failures: set[CheckKey]
) -> dict[CheckKey, str]:
    """Each dependent check with what it depends on: the one declaration (a fixed parameter, or the fields not
    held) under which alone the reference fails it, else all of them together."""
    alone: list[tuple[str, set[CheckKey]]] = []
    for name, value in changed.items():
        parameters = {**scenario.parameters, name: value}
        try:
            rules = rules_for(with_parameters(variant, parameters))
        except CanastaError:
            continue
        found = _reference_failures(scenario, variant, rules, parameters, scenario.setup)
        alone.append((_declared_reason({name: value}, ()), found or set()))
    if unheld:
        without = _without_fields(scenario.setup, unheld)
        found = _reference_failures(scenario, variant, case_rules(scenario, variant), scenario.parameters, without)
        alone.append((_declared_reason({}, unheld), found or set()))
    together = _declared_reason(changed, unheld)
    attributed = {}
    for key in failures:
        reasons = [reason for reason, found in alone if key in found]
        attributed[key] = reasons[0] if len(reasons) == 1 else together
    return attributed


#: The fields of a written-out position that may be left out (each has a default, conformance/PROTOCOL.md): all
#: but the hands.
DROPPABLE_FIELDS = frozenset(
    {"pile", "melds", "red_threes", "stock", "team_scores", "to_act", "phase", "upcard_froze", "melded", "permission"}
    | {"sides", "awaiting_first_turn", "feet", "hand_number", "talons", "bonus_draws_owed"}
)


def _declared_reason(changed: Mapping[str, Any], unheld: Sequence[str]) -> str:
    """E.g. "depends on one_card_pile, which the engine fixes at forbid", or "depends on the position's 'melded',
    which the engine cannot hold"."""
    parts = []
    if len(changed) == 1:
        ((name, value),) = changed.items()
        parts.append(f"{name}, which the engine fixes at {plain(value)}")
    elif changed:
        values = ", ".join(f"{k} = {plain(v)}" for k, v in changed.items())
        parts.append(f"{', '.join(changed)}, which the engine fixes at {values}")
    if unheld:
        names = ", ".join(f"'{name}'" for name in unheld)
        parts.append(f"the position's {names}, which the engine cannot hold")
    return "depends on " + " and on ".join(parts)


def _without_fields(setup: Mapping[str, Any], names: Iterable[str]) -> Mapping[str, Any]:
    """A scenario's set-up with some fields of its position left out (team scores and the hand's number are
    written beside the position, and go with it)."""
    names = set(names)
    if not names:
        return setup
    kept = {key: value for key, value in setup.items() if key not in names}
    kept["position"] = {key: value for key, value in setup["position"].items() if key not in names}
    return kept


def _reference_failures(
    scenario: Scenario, variant: str, rules: Rules, parameters: Mapping[str, Any], setup: Mapping[str, Any]
) -> set[CheckKey] | None:
    """The checks the reference, in process, fails when it plays the scenario under ``rules`` (set up with
    ``parameters``) from ``setup``; None when it cannot play it at all (its set-up refused)."""
    tally = Tally()
    try:
        _Case(InProcessEngine(), scenario, variant, rules, tally, parameters=parameters, setup=setup).play()
    except (Skip, EngineFailure):
        return None
    failed = {(failure["step"], failure["check"]) for failure in tally.failures}
    return None if any(step is None for step, _ in failed) else failed


def _with_fixed(info: EngineInfo, scenario: Scenario, variant: str) -> tuple[Rules, dict[str, Any]]:
    """The case's rules with the parameters the engine fixes, and those of them that change the case; a scenario
    setting one otherwise is skipped (it is about that value)."""
    rules = case_rules(scenario, variant)
    fixed = info.fixed_for(variant)
    for name, value in fixed.items():
        if name in scenario.parameters and scenario.parameters[name] != value:
            theirs = plain(scenario.parameters[name])
            raise Skip(f"the engine fixes {name} at {plain(value)}; the scenario sets it to {theirs}")
    changed = {name: value for name, value in fixed.items() if _param(rules, name) != value}
    if not changed:
        return rules, {}
    try:
        return rules_for(with_parameters(variant, {**scenario.parameters, **changed})), changed
    except CanastaError as error:
        raise Skip(f"the engine fixes parameters the reference cannot set: {error}") from None


def _param(rules: Rules, name: str) -> Any:
    """A parameter's value in ``rules`` (a sentinel when the variant has no such parameter)."""
    try:
        return rules.variant.param(name)
    except KeyError:
        return _MISSING


_MISSING = object()
