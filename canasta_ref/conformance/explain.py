"""Settling a dispute: a scenario's steps judged variant by variant, and under each disputed parameter value."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..actions import parse_action
from ..errors import CanastaError, IllegalAction
from ..game import Game
from ..render import cite_refs, source_line
from ..rules import Coverage, Rules
from ..spec import Variant, load_variant
from .runner import setup_message
from .scenario import Scenario
from .session import game_from_setup
from .variants import applies_to, with_parameters


def start_game(rules: Rules, scenario: Scenario) -> Game:
    """The hand a scenario starts from under ``rules``: the runner's set-up request, as the reference takes it."""
    return game_from_setup(rules, setup_message(scenario, rules.variant.id, rules))


def _parameter_lines(variant: Variant, clause: Any) -> Iterator[str]:
    """For a clause that depends on a disputed parameter: the value in force and the sources behind it."""
    for name in clause.parameters:
        param = variant.parameters[name]
        if param.type == "enum":
            refs = param.options.get(param.value, ())
            yield f"      with {name} = {param.value} ({cite_refs(refs)})"


def canstart_game(variant: Variant, scenario: Scenario) -> str | None:
    """Why the scenario cannot be set up under this variant, or None."""
    try:
        start_game(Rules(variant), scenario)
    except CanastaError as error:
        return str(error)
    return None


def judge(variant: Variant, scenario: Scenario) -> Iterator[str]:
    """Each step's verdict under one variant, citing the rule that decided it."""
    rules = Rules(variant)
    try:
        game = start_game(rules, scenario)
    except CanastaError as error:
        yield f"  cannot be set up here: {error}"
        return
    for number, step in enumerate(scenario.steps, 1):
        rules.coverage = Coverage()
        action = parse_action(step.action)
        try:
            game.apply(action, step.seat)
        except IllegalAction as refusal:
            clause = variant.clauses[refusal.rule_id]
            yield f"  step {number} `{action}`: REFUSED by {clause.id} ({clause.title})"
            yield f"      {clause.text}"
            yield f"      {source_line(clause.sources[0])}"
            yield from _parameter_lines(variant, clause)
            continue
        held = [r for r in scenario.rules if "allowed" in rules.coverage.outcomes.get(r, set())]
        yield f"  step {number} `{action}`: allowed"
        for rule in held:
            clause = variant.clauses[rule]
            yield f"      {clause.id} holds: {clause.text}"
            yield f"      {source_line(clause.sources[0])}"
            yield from _parameter_lines(variant, clause)
    rules.coverage = None


def _alternatives(variant: Variant, scenario: Scenario) -> Iterator[tuple[str, str, Sequence[Any]]]:
    """The other options of every enum parameter that the scenario's rules depend on."""
    seen: set[str] = set()
    for rule in scenario.rules:
        clause = variant.clauses.get(rule)
        if clause is None:
            continue
        for name in clause.parameters:
            param = variant.parameters[name]
            if name in seen or param.type != "enum":
                continue
            seen.add(name)
            for option, refs in param.options.items():
                if option != param.value:
                    yield name, option, refs


def explain_lines(scenario: Scenario, variants: Sequence[str], *, alternatives: bool = True) -> Iterator[str]:
    yield f"Scenario {scenario.id}: {scenario.title}"
    if scenario.description:
        yield f"  {' '.join(scenario.description.split())}"
    yield f"  rules: {', '.join(scenario.rules)}; level: {scenario.level}"
    for variant_id in variants:
        variant = with_parameters(variant_id, scenario.parameters) if scenario.parameters else load_variant(variant_id)
        inherited = "" if applies_to(scenario, variant_id) else " (the scenario is not written for this variant)"
        yield ""
        yield f"{variant.name} [{variant_id}]{inherited}"
        yield from judge(variant, scenario)
        if not alternatives or canstart_game(variant, scenario) is not None:
            continue
        for name, option, refs in _alternatives(variant, scenario):
            yield ""
            yield f"{variant.name} [{variant_id}] with {name} = {option} ({cite_refs(refs)})"
            yield from judge(with_parameters(variant_id, {**scenario.parameters, name: option}), scenario)


__all__ = ["explain_lines", "judge", "start_game"]
