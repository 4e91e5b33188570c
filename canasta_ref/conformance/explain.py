"""Settling a dispute: a scenario's steps judged variant by variant, and under each disputed parameter value."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action, parse_action
from ..engine.game import Game
from ..engine.rules import Coverage, Rules
from ..errors import CanastaError, IllegalAction
from ..render import cite_refs, cited_source, source_line
from ..spec import Clause, Parameter, Source, SourceRef, Variant, load_variant
from ..spec.valuetext import value_text
from .runner import setup_message
from .scenario import Scenario
from .session import game_from_setup
from .variants import applies_to, with_parameters


def start_game(rules: Rules, scenario: Scenario) -> Game:
    """The hand a scenario starts from under ``rules``: the runner's set-up request, as the reference takes it."""
    return game_from_setup(rules, setup_message(scenario, rules.variant.id, rules))


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


@dataclass(frozen=True)
class StepVerdict:
    """One step judged: the refusing clause (None: allowed) and every clause asked on the way, with its answers."""

    number: int
    action: Action
    refused_by: str | None
    asked: Mapping[str, frozenset[str]]


@dataclass(frozen=True)
class Judgement:
    """A scenario's steps judged under one variant, or under one value of a disputed parameter."""

    heading: str
    variant: Variant
    setup_error: str | None
    steps: tuple[StepVerdict, ...]


def judge_steps(variant: Variant, scenario: Scenario, heading: str) -> Judgement:
    """Play the scenario's steps under ``variant``, recording which clauses each step asked and their answers."""
    rules = Rules(variant)
    try:
        game = start_game(rules, scenario)
    except CanastaError as error:
        return Judgement(heading, variant, str(error), ())
    steps = []
    for number, step in enumerate(scenario.steps, 1):
        rules.coverage = Coverage()
        action = parse_action(step.action)
        refused_by = None
        try:
            game.apply(action, step.seat)
        except IllegalAction as refusal:
            refused_by = refusal.rule_id
        asked = {rule: frozenset(outcomes) for rule, outcomes in rules.coverage.outcomes.items()}
        steps.append(StepVerdict(number, action, refused_by, asked))
    rules.coverage = None
    return Judgement(heading, variant, None, tuple(steps))


def deciding_clauses(judgements: Sequence[Judgement], number: int) -> frozenset[str]:
    """The clauses whose answer at step ``number`` differs between the judgements that asked them: what makes the
    verdicts differ, or the position differ (why a pile is frozen, and by what card)."""
    steps = [(j.variant, step) for j in judgements for step in j.steps if step.number == number]
    kinds = {rule: variant.clauses[rule].kind for variant, step in steps for rule in step.asked}
    answers: dict[str, set[frozenset[str]]] = {}
    for variant, step in steps:
        for rule, kind in kinds.items():
            if rule in step.asked:
                answers.setdefault(rule, set()).add(step.asked[rule])
            elif rule not in variant.clauses:  # a variant without the clause: it never applies, never refuses
                answers.setdefault(rule, set()).add(_ABSENT[kind])
    return frozenset(rule for rule, seen in answers.items() if len(seen) > 1)


#: What a clause a variant does not have answers there, by kind: no condition applies, no requirement refuses.
_ABSENT = {"predicate": frozenset({"false"}), "require": frozenset({"allowed"}), "value": frozenset({"evaluated"})}


#: How a clause's answer reads, by the kind of clause and what it answered.
_VERBS = {"allowed": "holds", "refused": "refuses", "true": "applies", "false": "does not apply"}


def _answer_verb(outcomes: frozenset[str]) -> str:
    return " and ".join(_VERBS.get(outcome, "is asked") for outcome in sorted(outcomes))


def _clause_lines(variant: Variant, clause: Clause) -> Iterator[str]:
    """A clause's text, then what decides it here: the value in force of each disputed parameter it reads, with
    that value's sources, or else the clause's own first source."""
    yield f"      {clause.text}"
    parameter_lines = list(_parameter_lines(variant, clause))
    yield from parameter_lines or [f"      {source_line(clause.sources[0])}"]


def _folded(rules: Sequence[str]) -> str:
    shown = ", ".join(rules[:8])
    more = f" and {len(rules) - 8} more" if len(rules) > 8 else ""
    return f"      (also asked, bearing on no difference: {shown}{more})"


def step_lines(judgement: Judgement, step: StepVerdict, deciding: frozenset[str], scenario: Scenario) -> Iterator[str]:
    """One step's verdict, led by the clauses that decide it (the refusing one, those answering otherwise under
    another variant or value, and the scenario's own), each with its answer; the others asked fold into one line."""
    variant = judgement.variant
    if step.refused_by is not None:
        clause = variant.clauses[step.refused_by]
        yield f"  step {step.number} `{step.action}`: REFUSED by {clause.id} ({clause.title})"
        yield from _clause_lines(variant, clause)
    else:
        yield f"  step {step.number} `{step.action}`: allowed"
    asked = [rule for rule in variant.clauses if rule in step.asked and rule != step.refused_by]
    leading = [rule for rule in asked if rule in deciding] + [
        rule for rule in asked if rule in scenario.rules and rule not in deciding
    ]
    for rule in leading:
        clause = variant.clauses[rule]
        yield f"      {clause.id} {_answer_verb(step.asked[rule])}: {clause.title}"
        yield from _clause_lines(variant, clause)
    shown = {*leading, step.refused_by}
    rest = [rule for rule in variant.clauses if rule in step.asked and rule not in shown]
    if rest:
        yield _folded(rest)


def judgement_lines(judgement: Judgement, deciding: Mapping[int, frozenset[str]], scenario: Scenario) -> Iterator[str]:
    """One judgement's heading and steps; ``deciding`` holds each step's deciding clauses, found once for all."""
    yield ""
    yield judgement.heading
    if judgement.setup_error is not None:
        yield f"  cannot be set up here: {judgement.setup_error.splitlines()[0]}"
        return
    for step in judgement.steps:
        yield from step_lines(judgement, step, deciding[step.number], scenario)


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


def judgements(scenario: Scenario, variants: Sequence[str], *, alternatives: bool = True) -> list[Judgement]:
    """The scenario judged under each variant and, unless ``alternatives`` is false, under each other value of
    every disputed parameter its rules read."""
    found = []
    for variant_id in variants:
        variant = with_parameters(variant_id, scenario.parameters) if scenario.parameters else load_variant(variant_id)
        inherited = "" if applies_to(scenario, variant_id) else " (the scenario is not written for this variant)"
        judgement = judge_steps(variant, scenario, f"{variant.name} [{variant_id}]{inherited}")
        found.append(judgement)
        if not alternatives or judgement.setup_error is not None:
            continue
        for name, option, refs in _alternatives(variant, scenario):
            heading = f"{variant.name} [{variant_id}] with {name} = {value_text(option)} ({cite_refs(refs)})"
            try:
                disputed = with_parameters(variant_id, {**scenario.parameters, name: option})
            except CanastaError as error:  # a value the rest of the variant cannot play with
                found.append(Judgement(heading, variant, str(error), ()))
                continue
            found.append(judge_steps(disputed, scenario, heading))
    return found


def explain_lines(scenario: Scenario, variants: Sequence[str], *, alternatives: bool = True) -> Iterator[str]:
    yield f"Scenario {scenario.id}: {scenario.title}"
    if scenario.description:
        yield f"  {' '.join(scenario.description.split())}"
    yield f"  rules: {', '.join(scenario.rules)}; level: {scenario.level}"
    found = judgements(scenario, variants, alternatives=alternatives)
    numbers = {step.number for judgement in found for step in judgement.steps}
    deciding = {number: deciding_clauses(found, number) for number in numbers}
    lines = [line for judgement in found for line in judgement_lines(judgement, deciding, scenario)]
    yield from lines
    yield from sources_lines(lines, [judgement.variant for judgement in found])


def sources_lines(lines: Sequence[str], variants: Sequence[Variant]) -> Iterator[str]:
    """The sources the lines cite by their short names, each with the title and address a reader would cite it
    by, in the order first cited: so a verdict can be checked against the page it quotes."""
    known: dict[str, Source] = {}
    for variant in variants:
        for sid, source in variant.sources.items():
            known.setdefault(sid, source)
    text = "\n".join(lines)
    cited = sorted(
        (match.start(), sid)
        for sid in known
        if (match := re.search(rf"(?<![\w-]){re.escape(sid)}(?=: \"| \(our summary| \()", text)) is not None
    )
    if not cited:
        return
    yield ""
    yield "Sources"
    for _, sid in cited:
        yield f"  {cited_source(known[sid])}"


__all__ = [
    "Judgement",
    "StepVerdict",
    "alternatives_of",
    "deciding_clauses",
    "disputed_values",
    "explain_lines",
    "judge_steps",
    "judgements",
    "start_game",
    "value_text",
]
