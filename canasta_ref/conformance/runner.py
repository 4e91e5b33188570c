"""Running scenarios against an engine and judging each check: passed, partial, failed, differs, skipped, errored,
timed out.

A scenario is played on the engine and, beside it, on the reference in process: a check that fails is recorded and
the scenario goes on, the engine put back in step with the reference (by ``undo`` or a set-up of the reference's
position) when its verdict left it elsewhere. Each check that could not be made says why (skipped: the engine lacks
a capability; not reached: the engine could not be put back in step).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

from ..engine.actions import Action, action_from_json, parse_action
from ..engine.game import Game
from ..engine.rules import Rules, rules_for
from ..errors import CanastaError
from ..render import source_line
from . import causes
from .causes import nameable
from .engines import Engine, EngineFailure, EngineInfo, InProcessEngine, excerpt
from .plaintext import shown
from .scenario import Expect, Scenario
from .session import (
    SEAT_PARTS_SINCE,
    VARIANT_NEEDS,
    action_newer_than,
    position_content_newer_than,
    variant_newer_than,
)
from .setup import deal_request, format_deck, game_from_setup, position_json, setup_request
from .variants import applicable_variants, reference_rules, with_parameters
from .views import (
    PUBLIC_FIELDS,
    conservation_problem,
    normalise_field,
    normalise_view,
    normalised_or_none,
    unknown_field_problem,
    view_problem,
)

Status = Literal[
    "passed",
    "partial",
    "failed",
    "differs",
    "skipped",
    "errored",
    "timed out",
    "known failure",
    "unexpected pass",
]
#: What becomes of one check: it ran and passed or failed, it was skipped (the engine lacks what it needs), or it
#: was not reached (the engine could not be put back where the reference is).
CHECK_OUTCOMES = ("passed", "failed", "skipped", "not reached")

#: The most characters a result's message, and its stderr, carry (an engine's text is quoted, never whole).
MESSAGE_CHARS = 4000
STDERR_CHARS = 8000


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (saying how much was cut), and writable as UTF-8 whatever an engine
    sent (lone surrogates are escaped)."""
    if len(text) > limit:
        text = f"{text[:limit]} [... {len(text) - limit} characters cut]"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass
class Result:
    """The verdict on one scenario for one variant, with what became of each of its checks."""

    scenario: str
    variant: str
    status: Status
    message: str = ""
    rule: str | None = None
    stderr: str = ""
    file: str = ""
    #: How many checks passed, failed, were skipped and were not reached (only the outcomes that occurred).
    checks: dict[str, int] = field(default_factory=dict)
    #: Each failed check: ``{"step": int | None, "check": str, "rule": str | None, "message": str, "cause": str}``
    #: (``rule`` only when the check can name one; ``cause``: what differed, see ``causes``).
    failures: list[dict[str, Any]] = field(default_factory=list)
    #: How many checks were skipped, by reason.
    skips: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Bound what a result carries: a report stays small whatever the engine printed."""
        self.message = clip(self.message, MESSAGE_CHARS)
        self.stderr = clip(self.stderr, STDERR_CHARS)

    @property
    def key(self) -> str:
        return f"{self.scenario}@{self.variant}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"scenario": self.scenario, "variant": self.variant, "status": self.status}
        for name in ("message", "rule", "stderr", "file", "checks", "failures", "skips"):
            value = getattr(self, name)
            if value:
                out[name] = value
        return out


def first_failure(result: Result) -> dict[str, Any] | None:
    """The failed check a result is reported by: its first, or in a failed implementation-defined scenario its
    first that is not about what the scenario leaves open; the later ones are its consequences."""
    if result.status == "failed":
        for failure in result.failures:
            if not failure.get("implementation_defined"):
                return failure
    return result.failures[0] if result.failures else None


@dataclass
class Selection:
    """Which tests to run: by variant, rule id and level (empty = all)."""

    variants: Sequence[str] = ()
    rules: Sequence[str] = ()
    levels: Sequence[str] = ()

    def cases(self, scenarios: Iterable[Scenario]) -> list[tuple[Scenario, str]]:
        out = []
        for scenario in scenarios:
            if self.levels and scenario.level not in self.levels:
                continue
            if self.rules and not any(rule_matches(r, scenario.rules) for r in self.rules):
                continue
            for variant in applicable_variants(scenario):
                if not self.variants or variant in self.variants:
                    out.append((scenario, variant))
        return out


def rule_matches(pattern: str, rules: Sequence[str]) -> bool:
    """Whether ``pattern`` (a rule id, or a prefix such as ``PILE.TAKE`` or ``PILE.TAKE.*``) names one of ``rules``."""
    return any(rule == pattern or rule.startswith(pattern.rstrip("*").rstrip(".") + ".") for rule in rules)


class Mismatch(Exception):
    """A step whose outcome differs from the scenario's expectation (``cause``: what differed, when the check's
    name does not say it)."""

    def __init__(self, message: str, rule: str | None = None, cause: str | None = None) -> None:
        self.rule = rule
        self.cause = cause
        super().__init__(message)


class Skip(Exception):
    pass


def case_rules(scenario: Scenario, variant: str) -> Rules:
    """The rules a scenario runs under in ``variant``: the variant with the scenario's parameters set (the plain
    variant if they cannot be: the engine's answer to the set-up then says what is wrong with them)."""
    if scenario.parameters:
        try:
            return rules_for(with_parameters(variant, scenario.parameters))
        except CanastaError:
            pass
    return reference_rules(variant)


def apply_request(action: Action, seat: int | None = None) -> dict[str, Any]:
    """The protocol's apply request: ``action`` for ``seat`` (``None``: the seat to act)."""
    message: dict[str, Any] = {"cmd": "apply", "action": action.to_json()}
    if seat is not None:
        message["seat"] = seat
    return message


def setup_message(scenario: Scenario, variant: str, rules: Rules | None = None) -> dict[str, Any]:
    """The protocol's setup request for a scenario under ``variant`` (a seed dealt by ``rules``, by default the
    variant with the scenario's parameters)."""
    return setup_request(scenario.setup, variant, scenario.parameters, rules or case_rules(scenario, variant))


# -- the tally of a case's checks ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SkipCheck:
    """A check that cannot be made once the engine's reply is in (a 'legal' that gives a count only)."""

    reason: str


@dataclass(frozen=True)
class Differs:
    """A check that failed for a cause its name does not say (a view field that differs by seat numbering)."""

    message: str
    cause: str


#: What comparing one expectation with the engine's reply gives: None (it holds), a failure (its message, or with
#: its cause), or a skip.
Outcome = str | Differs | SkipCheck | None

#: Protocol 2's optional features, as a message names them, and what a step of each action type does.
FEATURE_NAMES = {
    "ask": "partner permission",
    "end": "ending a hand without a discard",
    "pass": "passing the discard",
    "declare": "special hands",
}
ACTION_VERBS = {
    "ask": "asks",
    "yes": "answers yes",
    "no": "answers no",
    "end": "ends the hand",
    "pass": "passes",
    "declare": "declares a special hand",
}

NO_VIEWS = "views (the engine has no 'views')"
NO_SCORE = "score (the engine has no 'score')"
NO_LEGAL = "legal (the engine has no 'legal')"
NO_RULE_IDS = "rule ids (the engine has no 'rule_ids')"
NO_PARTS = "score parts (the engine's score gives totals only)"
NO_SEAT_PARTS = "a seat's score parts (protocol version 8's 'seat_parts')"


class Tally:
    """What became of each check of a case; it decides the case's status and message."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.failures: list[dict[str, Any]] = []
        self.skips: Counter[str] = Counter()
        self.notes: list[str] = []
        # Whether a check ran that tells more than that an action on the way was accepted.
        self.telling = False
        #: In an implementation-defined scenario: the rules it cites, and those of them that are canasta-ref's
        #: notation (None: not such a scenario). A failure about what they leave open differs; any other fails.
        self.cited: frozenset[str] | None = None
        self.notation: frozenset[str] = frozenset()
        #: The rule a failure naming none is about: the scenario's, when it names exactly one.
        self.scenario_rule: str | None = None
        #: The rule the reference's judgement of the current step cites (its refusal), if any.
        self.step_rule: str | None = None
        #: The rule the current step says it exercises (its ``rule``), if the variant has it.
        self.step_exercises: str | None = None

    def passed(self, *, telling: bool = True) -> None:
        self.counts["passed"] += 1
        self.telling = self.telling or telling

    def failed(
        self,
        step: int | None,
        check: str,
        message: str,
        rule: str | None = None,
        *,
        expected: str | None = None,
        cause: str | None = None,
    ) -> None:
        """A failed check; ``rule``: the rule it can name (else the step's deciding rule, else the scenario's one
        rule: see ``attributed``), ``cause``: what differed (by default, what the check's name says), ``expected``:
        the rule the step's expectation names (a refusal it should cite)."""
        self.counts["failed"] += 1
        self.telling = True
        failure = {
            "step": step,
            "check": check,
            "rule": rule or self.attributed(step),
            "message": clip(message, MESSAGE_CHARS),
            "cause": cause or causes.check_cause(check),
        }
        if self._left_open(check, rule, expected):
            failure["implementation_defined"] = True
        self.failures.append(failure)

    def attributed(self, step: int | None) -> str | None:
        """The rule a failure that names none is about: the rule its step says it exercises, else the rule the
        reference's judgement of the step cites, else the scenario's, when it names exactly one (the set-up's
        failures are about no step's rule). The failure's cause still says what differed."""
        if step is None:
            return self.scenario_rule
        return self.step_exercises or self.step_rule or self.scenario_rule

    def _left_open(self, check: str, rule: str | None, expected: str | None) -> bool:
        """Whether a failure is about what an implementation-defined scenario leaves to engines: in a scenario
        about canasta-ref's notation, a step expecting a refusal by that notation; in another, anything but a
        verdict (or a rule cited) on a rule the scenario does not cite."""
        if self.cited is None:
            return False
        if self.notation:
            return expected in self.notation
        return check not in ("verdict", "rule") or rule in self.cited or expected in self.cited

    def skipped(self, reason: str) -> None:
        self.counts["skipped"] += 1
        self.skips[reason] += 1

    def unreached(self, count: int = 1) -> None:
        if count > 0:
            self.counts["not reached"] += count

    def checks(self) -> dict[str, int]:
        return {outcome: self.counts[outcome] for outcome in CHECK_OUTCOMES if self.counts[outcome]}

    def skipped_text(self) -> str:
        """E.g. "2 checks skipped: views (the engine has no 'views')" (empty when none was)."""
        total = self.counts["skipped"]
        if not total:
            return ""
        return f"{total} check{'s' if total != 1 else ''} skipped: " + "; ".join(self.skips)

    def status(self, level: str) -> tuple[Status, str]:
        """A failure fails the case (it differs, at level implementation-defined); with none, a case where only
        actions on the way were accepted while its real checks were skipped is skipped, one with some skipped
        checks is partial."""
        if self.failures:
            lines = [f["message"] for f in self.failures] + self.notes
            lines += [self.skipped_text()] if self.skips else []
            return self._failing_status(level), "\n".join(lines)
        if not self.telling and (self.skips or not self.counts["passed"]):
            return "skipped", self.skipped_text() or "the scenario has no checks"
        if self.skips:
            return "partial", self.skipped_text()
        return "passed", ""

    def _failing_status(self, level: str) -> Status:
        """A failure fails a case, except in an implementation-defined scenario where every failure is about
        what the scenario leaves to engines (``_left_open``): then it differs. A real failure inside one (a
        legal play refused, a verdict on a rule it does not cite) fails it."""
        if level == "implementation-defined" and all(f.get("implementation_defined") for f in self.failures):
            return "differs"
        return "failed"

    def result(self, level: str, **base: Any) -> Result:
        status, message = self.status(level)
        rule = self.failures[0]["rule"] if self.failures else None
        return Result(
            **base,
            status=status,
            message=message,
            rule=rule,
            checks=self.checks(),
            failures=self.failures,
            skips=dict(self.skips),
        )


# -- a check, and the group of checks one request answers ----------------------------------------------------


@dataclass
class _Check:
    name: str
    compare: Callable[[Any], Outcome]
    rule: str | None = None
    #: Why the check cannot be made at all (None: it can).
    skip: str | None = None


@dataclass
class _Group:
    """Checks made on one reply: ``fetch`` asks the engine, raising Mismatch when the reply is of no use."""

    fetch: Callable[[], Any]
    checks: list[_Check]


# -- running a case ------------------------------------------------------------------------------------------


def run_case(engine: Engine, scenario: Scenario, variant: str) -> Result:
    """Run one scenario for one variant; engine failures are reported, never raised."""
    base: dict[str, Any] = {"scenario": scenario.id, "variant": variant, "file": scenario.file}
    tally = Tally()
    try:
        plan = declared_plan(engine.info, scenario, variant)
        _Case(engine, scenario, variant, plan.rules, tally, setup=plan.setup, dependent=plan.dependent).play()
    except Skip as skip:
        return Result(**base, status="skipped", message=str(skip))
    except EngineFailure as failure:
        return failure_result(engine, failure, tally=tally, **base)
    return tally.result(scenario.level, **base)


def failure_status(failure: EngineFailure) -> Status:
    """The status of a test the engine failed: it did not answer in time, or answered wrongly."""
    return "timed out" if failure.kind == "timed out" else "errored"


def failure_result(engine: Engine, failure: EngineFailure, *, tally: Tally | None = None, **base: Any) -> Result:
    """An engine failure as the result of a test (timed out, or errored), the engine restarted for the next one;
    a restart that fails too is told in the message, not raised (the next test finds the engine down, and tries
    again). The checks that failed before it (``tally``) follow in the message."""
    status = failure_status(failure)
    message = failure.detail
    try:
        engine.restart()
    except (EngineFailure, OSError) as again:
        message += f"; restarting the engine failed too: {again}"
    if tally is None:
        return Result(**base, status=status, message=message, stderr=failure.stderr)
    message = "\n".join([message, *(f["message"] for f in tally.failures)])
    return Result(
        **base,
        status=status,
        message=message,
        stderr=failure.stderr,
        rule=tally.failures[0]["rule"] if tally.failures else None,
        checks=tally.checks(),
        failures=tally.failures,
        skips=dict(tally.skips),
    )


#: A check of a case: its step (None: the set-up) and its name (``verdict``, ``view.hand``, ``score.totals``...).
CheckKey = tuple[int | None, str]


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


def plain(value: Any) -> str:
    """A parameter's value for people: a word as it is, anything else as JSON writes it (true, not True)."""
    return value if isinstance(value, str) else json.dumps(value)


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


#: What an engine speaking a version older than 6 (session.NAMED_MELDS_SINCE) cannot do: name a meld.
UNNAMED = "whose actions cannot name a meld"


def unnamed_melds(protocol: int, since: int, *variants: str) -> str:
    """Why an engine speaking an older version is not run in variants that need a newer one (``since``, as
    ``session.variant_newer_than`` says): e.g. "the engine speaks protocol 5, whose actions cannot name a meld, as
    samba's must (version 6 added it)"."""
    if len(variants) == 1:
        whose = f"as {variants[0]}'s must"
    else:
        whose = f"as those of {', '.join(variants[:-1])} and {variants[-1]} must"
    cannot = VARIANT_NEEDS.get(since, UNNAMED)
    return f"the engine speaks protocol {protocol}, {cannot}, {whose} (version {since} added it)"


def up_front_skip(info: EngineInfo, scenario: Scenario, variant: str) -> str | None:
    """Why the engine cannot run the scenario at all (None when it can try): a variant it does not play (or its
    version cannot), a set-up it cannot make, parameters it cannot change, an action its version cannot write or
    of a feature it lacks."""
    if variant not in info.variants:
        return f"the engine does not play {variant}"
    since = variant_newer_than(info.protocol, case_rules(scenario, variant))
    if since:
        return unnamed_melds(info.protocol, since, variant)
    if scenario.uses_position and not info.can("setup_position"):
        return "the engine cannot set up a written-out position"
    since, newer = _newer_content(info.protocol, scenario, variant)
    if newer:
        return (
            f"the engine speaks protocol {info.protocol}, whose set-ups have no {' or '.join(newer)} "
            f"(version {since} added it)"
        )
    if scenario.parameters and not info.can("parameters"):
        return "the engine cannot change parameters: " + ", ".join(scenario.parameters)
    return newer_step(info, scenario) or lacking_step(info, scenario)


def newer_step(info: EngineInfo, scenario: Scenario) -> str | None:
    """E.g. "the engine speaks protocol 5, whose actions cannot name a meld: step 2 `combine @1 @2` (version 6
    added it)" (None when every step's action is one of the engine's version)."""
    for number, step in enumerate(scenario.steps, 1):
        since = action_newer_than(info.protocol, parse_action(step.action))
        if since:
            where = f"step {number} `{step.action}`"
            return f"the engine speaks protocol {info.protocol}, {UNNAMED}: {where} (version {since} added it)"
    return None


def _newer_content(protocol: int, scenario: Scenario, variant: str) -> tuple[int, list[str]]:
    """What the scenario's set-up says that ``protocol`` cannot, and the version that added it (see
    ``session.position_content_newer_than``): its written-out position, or the fields of a dealt set-up."""
    written = dict(scenario.setup["position"]) if scenario.uses_position else {}
    if "hand_number" in scenario.setup:
        written["hand_number"] = scenario.setup["hand_number"]
    return position_content_newer_than(protocol, reference_rules(variant), written)


def position_fields(scenario: Scenario) -> set[str]:
    """The fields of the written-out position a scenario sets up (its set-up's team scores go in it too)."""
    if not scenario.uses_position:
        return set()
    return set(scenario.setup["position"]) | ({"team_scores"} if "team_scores" in scenario.setup else set())


def feature_lacking(info: EngineInfo, action_type: str) -> str | None:
    """The optional feature the engine lacks that an action of this type belongs to, as a message names it."""
    name = info.lacking_feature(action_type)
    return None if name is None else FEATURE_NAMES.get(name, f"'{name}'")


def lacking_step(info: EngineInfo, scenario: Scenario) -> str | None:
    """E.g. "the engine has no partner permission: step 3 asks" (None when every step's action is one it has)."""
    for number, step in enumerate(scenario.steps, 1):
        kind = parse_action(step.action).kind
        feature = feature_lacking(info, kind)
        if feature:
            return f"the engine has no {feature}: step {number} {ACTION_VERBS.get(kind, kind)}"
    return None


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


#: Where the reference can be that a written-out position cannot say (its ``phase`` is ``draw`` or ``play``):
#: an engine that parted from it there cannot be put back by a set-up.
UNWRITABLE_PHASES = {
    "over": "the reference's hand has ended",
    "answer": "the reference waits for the partner's answer",
    "keep": "the reference waits for a bonus card to be kept or laid out",
}


class _Case:
    """One scenario played on an engine beside the reference, which says where the engine should be."""

    def __init__(
        self,
        engine: Engine,
        scenario: Scenario,
        variant: str,
        rules: Rules,
        tally: Tally,
        *,
        parameters: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
        dependent: Mapping[CheckKey, str] | None = None,
    ) -> None:
        self.engine = engine
        self.info = engine.info
        self.scenario = scenario
        self.variant = variant
        self.rules = rules
        self.clauses = rules.variant.clauses
        self.tally = tally
        named = [rule for rule in scenario.rules if rule in self.clauses]
        tally.scenario_rule = named[0] if len(scenario.rules) == 1 and named else None
        if scenario.level == "implementation-defined":
            tally.cited = frozenset(scenario.rules)
            tally.notation = frozenset(
                r for r in scenario.rules if r in self.clauses and rules.variant.is_convention(r)
            )
        self.parameters = dict(scenario.parameters if parameters is None else parameters)
        self.request = setup_request(scenario.setup if setup is None else setup, variant, self.parameters, rules)
        self.reference = self._reference_game()
        self.in_step = True
        #: The checks skipped because their answer depends on what the engine declared (fixed, not held).
        self.dependent = dict(dependent or {})
        #: The actions the reference took since the set-up, with their seats: replayed to put the engine back.
        self.taken: list[tuple[Action, int | None]] = []

    def _reference_game(self) -> Game | None:
        """The reference's hand of the set-up (None if it cannot make it: then only the engine's replies count)."""
        try:
            return game_from_setup(self.rules, self.request)
        except CanastaError:
            return None

    def play(self) -> None:
        reply = self.engine.request(self.request)
        if not reply.get("ok"):
            if "skip" in reply:
                raise Skip(f"the engine says: {reply['skip']}")
            self.tally.failed(None, "setup", f"setup refused: {reply.get('error', reply)}")
            self.in_step = False
        for number, step in enumerate(self.scenario.steps, 1):
            self.tally.step_exercises = step.rule if step.rule in self.clauses else None
            self._step(number, step.action, step.seat, step.expect)

    def _step(self, number: int, text: str, seat: int | None, expect: Expect) -> None:
        where = f"step {number} `{text}`"
        action = parse_action(text)
        applied = self._reference_apply(action, seat, expect.accepted)
        if self.in_step:
            reply = self.engine.request(apply_request(action, seat))
            now = self._verdict(number, where, action.kind, expect, reply)
            if now is not applied:
                self.in_step = self._resync(where, now, applied)
        else:
            self.tally.unreached()
            self._rule_unmade(expect)
        failed_before = len(self.tally.failures)
        for group in self._after(where, expect):
            self._run(number, group)
        if applied:
            self._run(number, self._views_agree(where))
        if self.in_step and len(self.tally.failures) > failed_before:
            # The engine's position differs from the reference's: put it back, so later steps are judged afresh.
            self.in_step = self._resync(where, applied, applied)

    def _reference_apply(self, action: Action, seat: int | None, expected: bool) -> bool:
        """Play the step on the reference: whether it took the action (the expectation, without a reference)."""
        self.tally.step_rule = None
        if self.reference is None:
            return expected
        try:
            self.reference.apply(action, seat)
        except CanastaError as refusal:
            rule = getattr(refusal, "rule_id", None)
            self.tally.step_rule = rule if rule in self.clauses else None
            return False
        self.taken.append((action, seat))
        return True

    def _verdict(self, number: int, where: str, kind: str, expect: Expect, reply: Mapping[str, Any]) -> bool | None:
        """Check the engine's verdict on an action of ``kind`` (and the rule it cites); returns whether the engine
        took the action (None: it cannot be told)."""
        if not reply.get("ok"):
            message = f"{where}: the engine reported an error: {reply.get('error', reply)}"
            self.tally.failed(number, "verdict", message, cause=causes.VERDICT_ERROR)
            self._rule_unmade(expect)
            return False
        accepted = reply.get("accepted")
        problem = verdict_problem(accepted)
        if not problem and (number, "verdict") in self.dependent:
            self.tally.skipped(self.dependent[number, "verdict"])
            if not expect.accepted and expect.rule:  # the rule a refusal cites depends on it too
                self.tally.skipped(self.dependent[number, "verdict"])
            return bool(accepted)
        if problem:
            self.tally.failed(number, "verdict", f"{where}: {problem}", cause=causes.VERDICT_MALFORMED)
            self._rule_unmade(expect)
            return None
        if accepted != expect.accepted:
            wanted = "accepted" if expect.accepted else f"refused by {expect.rule or 'a rule'}"
            got = (
                "accepted"
                if accepted
                else f"refused by {reply.get('rule') or 'an unnamed rule'} ({reply.get('message', '')})"
            )
            # The rule it is about: the refusal expected, or the engine's refusal by a rule of the variant.
            rule = expect.rule or (nameable(reply.get("rule"), self.clauses) if self.info.can("rule_ids") else None)
            message = f"{where}: expected {wanted}, got {got}{cite(self.clauses, rule)}"
            cause = causes.accepts(kind) if accepted else causes.refuses(kind)
            self.tally.failed(number, "verdict", message, rule, expected=expect.rule, cause=cause)
            self._rule_unmade(expect)
            return bool(accepted)
        self.tally.passed(telling=not accepted)
        if not accepted and expect.rule:
            self._check_rule(number, where, expect.rule, reply.get("rule"))
        return bool(accepted)

    def _check_rule(self, number: int, where: str, wanted: str, cited: Any) -> None:
        if not self.info.can("rule_ids"):
            self.tally.skipped(NO_RULE_IDS)
        elif (number, "rule") in self.dependent:
            self.tally.skipped(self.dependent[number, "rule"])
        elif cited != wanted:
            citing = "no rule" if cited is None else shown(cited)
            message = f"{where}: refused, but citing {citing} instead of {wanted}" + cite(self.clauses, wanted)
            self.tally.failed(number, "rule", message, wanted, expected=wanted)
        else:
            self.tally.passed()

    def _rule_unmade(self, expect: Expect) -> None:
        """The rule a refusal should cite, when the verdict it belongs to did not come: skipped or not reached."""
        if not expect.accepted and expect.rule:
            if self.info.can("rule_ids"):
                self.tally.unreached()
            else:
                self.tally.skipped(NO_RULE_IDS)

    # -- back in step after a verdict that differs --------------------------------------------------------

    def _resync(self, where: str, engine_took: bool | None, reference_took: bool) -> bool:
        """Put the engine back where the reference is: ``undo`` what it should have refused, set up the reference's
        position, or set it up as at the start and replay the actions the reference took. False (the reason noted)
        when it cannot be done: the later checks are not reached."""
        if engine_took and not reference_took and self.info.can("undo"):
            reply = self.engine.request({"cmd": "undo"})
            if reply.get("ok"):
                return True
            return self._lost(f"{where}: the engine refused to undo it ({excerpt(reply.get('error', reply))})")
        if self.reference is None:
            return self._lost(f"{where}: the reference cannot play this set-up, so the engine cannot be put back")
        unwritten = self._unwritable(engine_took)
        if unwritten is None:
            return self._resync_by_position(where)
        return self._resync_by_replay(where, unwritten)

    def _unwritable(self, engine_took: bool | None) -> str | None:
        """Why the engine cannot be set up at the reference's position (None: it can)."""
        assert self.reference is not None
        if not self.info.can("setup_position") or self.info.unheld_position_fields:
            took = "took it" if engine_took else "did not take it" if engine_took is False else "answered so"
            why = "cannot undo it nor" if engine_took else "cannot"
            return f"the engine {took} and {why} be set up at the reference's position"
        unwritable = UNWRITABLE_PHASES.get(self.reference.state.phase)
        if unwritable:
            return f"{unwritable}, which no set-up can write out"
        since, newer = position_content_newer_than(self.info.protocol, self.rules, position_json(self.reference))
        if newer:
            return (
                f"the reference's position has {' or '.join(newer)}, which the engine's protocol "
                f"{self.info.protocol} cannot set up (version {since} added it)"
            )
        return None

    def _resync_by_position(self, where: str) -> bool:
        reply = self.engine.request(self._position_request())
        if reply.get("ok"):
            return True
        return self._lost(
            f"{where}: the engine refused the set-up that puts it back at the reference's position "
            f"({excerpt(reply.get('error', reply))})"
        )

    def _resync_by_replay(self, where: str, unwritten: str) -> bool:
        """Set the engine up as at the start and replay every action the reference took: the engine is back in
        step if it takes them all (it refused one, or the set-up: the reason noted)."""
        reply = self.engine.request(self.request)
        if not reply.get("ok"):
            return self._lost(f"{where}: {unwritten}, and it refused the set-up again to replay the actions")
        for number, (action, seat) in enumerate(self.taken, 1):
            reply = self.engine.request(apply_request(action, seat))
            if reply.get("accepted") is not True:
                return self._lost(
                    f"{where}: {unwritten}, and replaying the reference's actions from the set-up, it did not take "
                    f"action {number}, `{action}`"
                )
        return True

    def _position_request(self) -> dict[str, Any]:
        assert self.reference is not None
        position = position_json(self.reference)
        return {"cmd": "setup", "variant": self.variant, "parameters": dict(self.parameters), "position": position}

    def _lost(self, why: str) -> bool:
        self.tally.notes.append(f"{why}; the later checks were not reached")
        return False

    # -- the checks after a step ----------------------------------------------------------------------------

    def _run(self, number: int, group: _Group) -> None:
        """Make a group's checks (skipped ones counted), one request answering them all."""
        live = []
        for check in group.checks:
            skip = check.skip or self.dependent.get((number, check.name))
            if skip:
                self.tally.skipped(skip)
            else:
                live.append(check)
        if not live:
            return
        if not self.in_step:
            self.tally.unreached(len(live))
            return
        try:
            reply = group.fetch()
        except Mismatch as mismatch:
            self.tally.failed(number, live[0].name, str(mismatch), mismatch.rule or live[0].rule, cause=mismatch.cause)
            self.tally.unreached(len(live) - 1)
            return
        for check in live:
            outcome = check.compare(reply)
            if outcome is None:
                self.tally.passed()
            elif isinstance(outcome, SkipCheck):
                self.tally.skipped(outcome.reason)
            elif isinstance(outcome, Differs):
                self.tally.failed(number, check.name, outcome.message, check.rule, cause=outcome.cause)
            else:
                self.tally.failed(number, check.name, outcome, check.rule)

    def _after(self, where: str, expect: Expect) -> list[_Group]:
        return [self._legal_checks(where, expect), self._view_checks(where, expect), self._score_checks(where, expect)]

    def _legal_checks(self, where: str, expect: Expect) -> _Group:
        none = None if self.info.can("legal") else NO_LEGAL
        checks = [
            _Check("legal_includes", partial(_includes, where, text), skip=none or self._lacking(text))
            for text in expect.legal_includes
        ]
        checks += [
            _Check("legal_excludes", partial(_excludes, where, text), skip=none or self._newer("legal_excludes", text))
            for text in expect.legal_excludes
        ]
        if expect.legal_count is not None:
            count = expect.legal_count
            checks.append(_Check("legal_count", partial(_count, where, count), skip=none or self._uncountable()))
        return _Group(partial(_legal_reply, self.engine, where), checks)

    def _lacking(self, text: str) -> str | None:
        feature = feature_lacking(self.info, parse_action(text).kind)
        if feature:
            return f"legal_includes (the engine has no {feature})"
        return self._newer("legal_includes", text)

    def _newer(self, check: str, text: str) -> str | None:
        """Why a check of an action's legality cannot be asked of the engine: its version cannot write the action."""
        if action_newer_than(self.info.protocol, parse_action(text)):
            return f"{check} (the engine speaks protocol {self.info.protocol}, {UNNAMED})"
        return None

    def _uncountable(self) -> str | None:
        """Why the engine's count of legal actions cannot match the reference's: it includes actions of a
        feature the engine lacks (None when it can match, or cannot be told)."""
        if not self.info.absent_features or self.reference is None:
            return None
        for action in self.reference.legal_actions():
            feature = feature_lacking(self.info, action.kind)
            if feature:
                return f"legal_count (the engine has no {feature}, and the legal actions include `{action.kind}`)"
        return None

    def _view_checks(self, where: str, expect: Expect) -> _Group:
        view = expect.view or {}
        seat: int = view.get("seat", 0)
        skip = None if self.info.can("views") else NO_VIEWS
        checks = [
            _Check(f"view.{key}", partial(_view_field, where, seat, key, wanted), skip=skip)
            for key, wanted in view.items()
        ]
        return _Group(partial(_expected_view, self.engine, seat, where), checks)

    def _score_checks(self, where: str, expect: Expect) -> _Group:
        skip = None if self.info.can("score") else NO_SCORE
        checks = []
        if expect.match_over is not None:
            checks.append(_Check("match_over", partial(_match_over, where, expect.match_over), skip=skip))
        if expect.over is not None:
            checks.append(_Check("score.over", partial(_over, where, expect.over), skip=skip))
        if expect.end is not None:
            checks.append(_Check("score.end", partial(_end, where, expect.end), skip=skip))
        score = expect.score or {}
        if "totals" in score:
            checks.append(_Check("score.totals", partial(_totals, where, list(score["totals"])), skip=skip))
        elif ("parts" in score or "seats" in score) and self.reference is not None:
            # Parts alone would pass an engine that reports totals only (its parts are skipped) whatever its
            # totals: where a scenario checks parts, the totals are checked too, against the reference's.
            reference_totals = list(self.reference.score().totals)
            checks.append(_Check("score.totals", partial(_totals, where, reference_totals), skip=skip))
        parts_skip = skip or (None if self.info.score_parts else NO_PARTS)
        for side, parts in enumerate(score.get("parts", [])):
            for rule, points in parts.items():
                compare = partial(_part, where, self.clauses, side, rule, points)
                checks.append(_Check("score.parts", compare, skip=parts_skip))
        seats_skip = parts_skip or (None if self.info.protocol >= SEAT_PARTS_SINCE else NO_SEAT_PARTS)
        for seat, parts in enumerate(score.get("seats", [])):
            for rule, points in parts.items():
                compare = partial(_seat_part, where, self.clauses, seat, rule, points)
                checks.append(_Check("score.seats", compare, skip=seats_skip))
        return _Group(partial(_score_reply, self.engine), checks)

    def _views_agree(self, where: str) -> _Group:
        """The generic properties of the position after an action taken: one check."""
        cards, players = deck_size(self.rules), self.rules.players
        check = _Check("views agree", _holds, skip=None if self.info.can("views") else NO_VIEWS)
        return _Group(partial(_check_views_agree, self.engine, where, cards, players), [check])


def _holds(_reply: Any) -> Outcome:
    """A check made whole by its group's request (which raised Mismatch had it failed)."""
    return None


def _legal_reply(engine: Engine, where: str) -> tuple[set[str] | None, int]:
    """The actions a 'legal' reply lists (None when it gives a count only) and how many."""
    reply = engine.request({"cmd": "legal"})
    if "actions" in reply:
        listed = _legal_listed(reply, where)
        return listed, len(listed)
    counted = reply.get("count")
    if type(counted) is not int:
        raise Mismatch(
            f"{where}: the engine's reply to 'legal' was not a list of actions nor a count: {excerpt(reply)}",
            cause=causes.LEGAL_MALFORMED,
        )
    return None, counted


def _includes(where: str, text: str, legal: tuple[set[str] | None, int]) -> Outcome:
    listed = legal[0]
    if listed is None:
        return SkipCheck("legal_includes (the engine's 'legal' gives a count only)")
    return None if text in listed else f"{where}: `{text}` should be legal afterwards but is not listed"


def _excludes(where: str, text: str, legal: tuple[set[str] | None, int]) -> Outcome:
    listed = legal[0]
    if listed is None:
        return SkipCheck("legal_excludes (the engine's 'legal' gives a count only)")
    return None if text not in listed else f"{where}: `{text}` should not be legal afterwards but is listed"


def _count(where: str, wanted: int, legal: tuple[set[str] | None, int]) -> Outcome:
    count = legal[1]
    return None if count == wanted else f"{where}: expected {wanted} legal actions afterwards, got {count}"


def _expected_view(engine: Engine, seat: int, where: str) -> dict[str, Any]:
    """The view a step's expectation names, normalised; one with fields beyond the protocol's fails."""
    raw = _raw_view(engine, seat, where)
    problem = unknown_field_problem(raw)
    if problem:
        raise Mismatch(f"{where}: seat {seat}'s view: {problem}", cause=causes.VIEW_EXTRA_FIELDS)
    return _normalised(raw, seat, where)


def _view_field(where: str, seat: int, key: str, wanted: Any, view: Mapping[str, Any]) -> Outcome:
    got = view.get(key)
    normal = normalise_field(key, wanted)
    if normal == got:
        return None
    message = f"{where}: seat {seat}'s view field '{key}' should be {shown(normal)}, got {shown(got)}"
    return Differs(message, causes.view_cause(key, normal, got))


def _score_reply(engine: Engine) -> Mapping[str, Any]:
    return engine.request({"cmd": "score"})


def _match_over(where: str, wanted: bool, reply: Mapping[str, Any]) -> Outcome:
    if reply.get("match_over") is wanted:
        return None
    return (
        f"{where}: the match should {'end' if wanted else 'go on'} after this hand; "
        f"the engine says match_over={shown(reply.get('match_over'))}"
    )


def _over(where: str, wanted: bool, reply: Mapping[str, Any]) -> Outcome:
    if reply.get("over") is wanted:
        return None
    should = "have ended" if wanted else "go on"
    return f"{where}: the hand should {should}; the engine says over={shown(reply.get('over'))}"


def _end(where: str, wanted: str, reply: Mapping[str, Any]) -> Outcome:
    if reply.get("end") == wanted:
        return None
    return f"{where}: the hand should end by '{wanted}', got {shown(reply.get('end'))}"


def _totals(where: str, wanted: list[int], reply: Mapping[str, Any]) -> Outcome:
    if reply.get("totals", []) == wanted:
        return None
    return f"{where}: scores should be {shown(wanted)}, got {shown(reply.get('totals'))}"


def _part(
    where: str, clauses: Mapping[str, Any], side: int, rule: str, points: int, reply: Mapping[str, Any]
) -> Outcome:
    return _listed_part(where, clauses, ("parts", "side"), side, rule, points, reply)


def _seat_part(
    where: str, clauses: Mapping[str, Any], seat: int, rule: str, points: int, reply: Mapping[str, Any]
) -> Outcome:
    return _listed_part(where, clauses, ("seat_parts", "seat"), seat, rule, points, reply)


def _listed_part(
    where: str,
    clauses: Mapping[str, Any],
    field_and_noun: tuple[str, str],
    index: int,
    rule: str,
    points: int,
    reply: Mapping[str, Any],
) -> Outcome:
    """Whether entry ``index`` of the score answer's list of parts (``parts`` per side, ``seat_parts`` per seat)
    gives ``points`` for ``rule``."""
    key, noun = field_and_noun
    entries = reply.get(key)
    got_parts = entries[index] if isinstance(entries, list) and index < len(entries) else {}
    got = got_parts.get(rule) if isinstance(got_parts, Mapping) else None
    if got == points:
        return None
    return f"{where}: {noun} {index} should score {points} for {rule}, got {shown(got)}" + cite(clauses, rule)


def verdict_problem(accepted: Any) -> str | None:
    """What is wrong with an 'apply' reply's 'accepted', or None when it is true or false."""
    if isinstance(accepted, bool):
        return None
    return f"the engine's reply to 'apply' has 'accepted' {excerpt(accepted, 80)}, not true or false"


def deck_size(rules: Rules) -> int:
    """How many cards the deck of ``rules`` holds."""
    return rules.packs * (52 + rules.jokers_per_pack)


def _raw_view(engine: Engine, seat: int, where: str) -> Mapping[str, Any]:
    """A seat's view as the engine sends it; a reply without an object as its view fails the step."""
    view = engine.request({"cmd": "view", "seat": seat}).get("view")
    if not isinstance(view, Mapping):
        raise Mismatch(
            f"{where}: the engine's reply to 'view' for seat {seat} was not an object: {excerpt(view)}",
            cause=causes.VIEW_MALFORMED,
        )
    return view


def _normalised(view: Mapping[str, Any], seat: int, where: str) -> dict[str, Any]:
    normalised = normalised_or_none(view)
    if normalised is None:
        raise Mismatch(
            f"{where}: the engine's reply to 'view' for seat {seat} was not a view: {excerpt(view)}",
            cause=causes.VIEW_MALFORMED,
        )
    return normalised


def _check_views_agree(engine: Engine, where: str, cards: int, players: int) -> None:
    """Generic properties after every accepted step: each seat sees its own hand of the size the others see,
    every seat sees the same table, no view has fields beyond the protocol's, and the cards add up to the deck."""
    first_raw = _raw_view(engine, 0, where)
    _check_conserved(first_raw, 0, where, cards, players)
    others = [_raw_view(engine, s, where) for s in range(1, players)]
    first = _normalised(first_raw, 0, where)
    for seat, view in enumerate(others, 1):
        _check_conserved(view, seat, where, cards, players)
        seen = _normalised(view, seat, where)
        for key in PUBLIC_FIELDS:
            if seen.get(key) != first.get(key):
                raise Mismatch(
                    f"{where}: seats 0 and {seat} see different '{key}': "
                    f"{excerpt(first.get(key))} / {excerpt(seen.get(key))}"
                )


def _check_conserved(view: Mapping[str, Any], seat: int, where: str, cards: int, players: int) -> None:
    """Fail the step unless a seat's view has only the protocol's fields and its cards add up to the deck."""
    problem = view_problem(view, seat, cards, players)
    if problem:
        cause = causes.VIEW_EXTRA_FIELDS if unknown_field_problem(view) else causes.VIEW_CARDS
        raise Mismatch(f"{where}: seat {seat}'s view: {problem}", cause=cause)


def cite(clauses: Mapping[str, Any], rule: str | None) -> str:
    """The rule's text and its first source, for a failure message."""
    if not rule or rule not in clauses:
        return ""
    clause = clauses[rule]
    return f"\n    rule {rule}: {clause.text}\n    {source_line(clause.sources[0])}"


def _legal_listed(reply: Mapping[str, Any], where: str) -> set[str]:
    """The canonical texts of the actions a 'legal' reply lists; a list of anything else fails the step."""
    listed = reply["actions"]
    if not isinstance(listed, list):
        raise Mismatch(
            f"{where}: the engine's reply to 'legal' was not a list of actions: {excerpt(listed)}",
            cause=causes.LEGAL_MALFORMED,
        )
    texts: set[str] = set()
    for raw in listed:
        try:
            text = action_text(raw)
        except CanastaError as error:
            raise Mismatch(
                f"{where}: the engine's reply to 'legal' was not a list of actions: it lists {excerpt(raw)} ({error})",
                cause=causes.LEGAL_MALFORMED,
            ) from None
        if text in texts:  # the protocol: a legal-action list contains each action once
            raise Mismatch(f"{where}: the engine's reply to 'legal' lists `{text}` twice")
        texts.add(text)
    return texts


def action_text(raw: Any) -> str:
    """The canonical text of an action an engine sent; anything that is not one raises CanastaError (whatever
    the engine sent: a wrong type inside it is not a crash of the runner)."""
    try:
        return str(action_from_json(raw))
    except (TypeError, ValueError, AttributeError, KeyError) as error:
        raise CanastaError(f"not an action ({type(error).__name__})") from None


def run_suite(
    engine: Engine,
    cases: Sequence[tuple[Scenario, str]],
    *,
    progress: Callable[[int, int, Result], None] | None = None,
) -> list[Result]:
    results: list[Result] = []
    for index, (scenario, variant) in enumerate(cases, 1):
        result = run_case(engine, scenario, variant)
        results.append(result)
        if progress is not None:
            progress(index, len(cases), result)
    return results


__all__ = [
    "CHECK_OUTCOMES",
    "Result",
    "Selection",
    "SkipCheck",
    "Tally",
    "action_text",
    "apply_request",
    "case_rules",
    "clip",
    "conservation_problem",
    "deal_request",
    "deck_size",
    "declared_plan",
    "failure_result",
    "failure_status",
    "feature_lacking",
    "first_failure",
    "format_deck",
    "lacking_step",
    "newer_step",
    "normalise_view",
    "normalised_or_none",
    "plain",
    "position_fields",
    "rule_matches",
    "run_case",
    "run_suite",
    "setup_message",
    "unknown_field_problem",
    "unnamed_melds",
    "up_front_skip",
    "verdict_problem",
    "view_problem",
]
