"""Running scenarios against an engine and judging each check: passed, partial, failed, differs, skipped, errored,
timed out.

A scenario is played on the engine and, beside it, on the reference in process: a check that fails is recorded and
the scenario goes on, the engine put back in step with the reference (by ``undo`` or a set-up of the reference's
position) when its verdict left it elsewhere. Each check that could not be made says why (skipped: the engine lacks
a capability; not reached: the engine could not be put back in step).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .case import UNWRITABLE_PHASES, _Case
from .case_setup import apply_request, case_rules, setup_message
from .checks import action_text, cite, deck_size, verdict_problem
from .engines import Engine, EngineFailure
from .plan import DROPPABLE_FIELDS, Plan, declared_plan
from .results import CHECK_OUTCOMES, MESSAGE_CHARS, STDERR_CHARS, Result, Status, clip, first_failure, plain
from .scenario import Scenario
from .setup import deal_request, format_deck
from .skips import (
    ACTION_VERBS,
    FEATURE_NAMES,
    UNNAMED,
    feature_lacking,
    lacking_step,
    newer_step,
    position_fields,
    unnamed_melds,
    up_front_skip,
)
from .tally import (
    NO_LEGAL,
    NO_PARTS,
    NO_RULE_IDS,
    NO_SCORE,
    NO_SEAT_PARTS,
    NO_VIEWS,
    CheckKey,
    Differs,
    Mismatch,
    Outcome,
    Skip,
    SkipCheck,
    Tally,
)
from .variants import applicable_variants
from .views import (
    conservation_problem,
    normalise_field,
    normalise_view,
    normalised_or_none,
    unknown_field_problem,
    view_problem,
)


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
    "ACTION_VERBS",
    "CHECK_OUTCOMES",
    "DROPPABLE_FIELDS",
    "FEATURE_NAMES",
    "MESSAGE_CHARS",
    "NO_LEGAL",
    "NO_PARTS",
    "NO_RULE_IDS",
    "NO_SCORE",
    "NO_SEAT_PARTS",
    "NO_VIEWS",
    "STDERR_CHARS",
    "UNNAMED",
    "UNWRITABLE_PHASES",
    "CheckKey",
    "Differs",
    "Mismatch",
    "Outcome",
    "Plan",
    "Result",
    "Selection",
    "Skip",
    "SkipCheck",
    "Status",
    "Tally",
    "action_text",
    "apply_request",
    "case_rules",
    "cite",
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
    "normalise_field",
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
