"""Settling a dispute: a scenario's steps judged variant by variant, and under each disputed parameter value."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..engine.actions import parse_action
from ..engine.game import Game
from ..engine.rules import Coverage, Rules
from ..errors import CanastaError, IllegalAction
from ..render import cite_refs, source_line
from ..spec import Parameter, SourceRef, Variant, load_variant
from .runner import setup_message
from .scenario import Scenario
from .session import game_from_setup
from .variants import applies_to, with_parameters


def start_game(rules: Rules, scenario: Scenario) -> Game:
    """The hand a scenario starts from under ``rules``: the runner's set-up request, as the reference takes it."""
    return game_from_setup(rules, setup_message(scenario, rules.variant.id, rules))


def value_text(value: Any) -> str:
    """A parameter value as short text: a table as its bands (``below 0: 15; from 0: 50; from 1500: 90``), a list
    comma-separated, a map as ``key value`` pairs."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        if value and all(isinstance(row, dict) and "from" in row for row in value):
            return "; ".join(f"{_band(value, i)}: {row['value']}" for i, row in enumerate(value))
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


def _band(table: Sequence[Any], index: int) -> str:
    start = table[index]["from"]
    if start is not None:
        return f"from {start}"
    return f"below {table[index + 1]['from']}" if index + 1 < len(table) else "always"


def alternatives_of(param: Parameter) -> tuple[tuple[Any, tuple[SourceRef, ...]], ...]:
    """The values some source gives for a non-enum parameter instead of its default, each with those sources (an
    enum's disputed values are its options)."""
    return tuple((alternative.value, alternative.sources) for alternative in param.alternatives)


def disputed_values(param: Parameter) -> tuple[tuple[Any, tuple[SourceRef, ...]], ...]:
    """Every value the sources give a disputed parameter, each with its sources: an enum's options, or a non-enum
    parameter's own value then its alternatives; () for a parameter no source disputes."""
    if param.type == "enum":
        return tuple((option, tuple(refs)) for option, refs in param.options.items())
    alternatives = alternatives_of(param)
    if not alternatives:
        return ()
    return ((param.value, tuple(param.sources)), *((v, r) for v, r in alternatives if v != param.value))


def _sources_of_value(param: Parameter) -> tuple[SourceRef, ...]:
    """The sources behind the value a disputed parameter has here ("no source" for a value set otherwise)."""
    if param.type == "enum":
        return tuple(param.options.get(param.value, ()))
    for value, refs in alternatives_of(param):
        if value == param.value:
            return refs
    return () if param.set_in.endswith("(overridden)") else tuple(param.sources)


def _parameter_lines(variant: Variant, clause: Any) -> Iterator[str]:
    """For a clause that depends on a disputed parameter: the value in force and the sources behind it."""
    for name in clause.parameters:
        param = variant.parameters[name]
        if disputed_values(param):
            yield f"      with {name} = {value_text(param.value)} ({cite_refs(_sources_of_value(param))})"


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


def _alternatives(variant: Variant, scenario: Scenario) -> Iterator[tuple[str, Any, Sequence[SourceRef]]]:
    """The other values of every disputed parameter that the scenario's rules depend on: an enum's other options,
    a non-enum parameter's alternatives."""
    seen: set[str] = set()
    for rule in scenario.rules:
        clause = variant.clauses.get(rule)
        if clause is None:
            continue
        for name in clause.parameters:
            param = variant.parameters[name]
            if name in seen:
                continue
            seen.add(name)
            options = param.options.items() if param.type == "enum" else alternatives_of(param)
            for option, refs in options:
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
            yield f"{variant.name} [{variant_id}] with {name} = {value_text(option)} ({cite_refs(refs)})"
            try:
                disputed = with_parameters(variant_id, {**scenario.parameters, name: option})
            except CanastaError as error:  # a value the rest of the variant cannot play with
                yield f"  cannot be set up here: {str(error).splitlines()[0]}"
                continue
            yield from judge(disputed, scenario)


__all__ = ["alternatives_of", "disputed_values", "explain_lines", "judge", "start_game", "value_text"]
