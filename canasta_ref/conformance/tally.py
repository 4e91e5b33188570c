"""Counting a case's checks as they are made (passed, failed, skipped, not reached), and what decides
the case's status."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from . import causes
from .results import CHECK_OUTCOMES, MESSAGE_CHARS, Result, Status, clip


class Mismatch(Exception):
    """A step whose outcome differs from the scenario's expectation (``cause``: what differed, when the check's
    name does not say it)."""

    def __init__(self, message: str, rule: str | None = None, cause: str | None = None) -> None:
        self.rule = rule
        self.cause = cause
        super().__init__(message)


class Skip(Exception):
    pass


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


NO_VIEWS = "views (the engine has no 'views')"
NO_SCORE = "score (the engine has no 'score')"
NO_LEGAL = "legal (the engine has no 'legal')"
NO_RULE_IDS = "rule ids (the engine has no 'rule_ids')"
NO_PARTS = "score parts (the engine's score gives totals only)"
NO_SEAT_PARTS = "a seat's score parts (protocol version 8's 'seat_parts')"


#: A check of a case: its step (None: the set-up) and its name (``verdict``, ``view.hand``, ``score.totals``...).
CheckKey = tuple[int | None, str]


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
        rule: see ``attributed``; never for a refused set-up, which breaks no rule of the game and would otherwise
        be filed under the rule a scenario guessed), ``cause``: what differed (by default, what the check's name
        says), ``expected``: the rule the step's expectation names (a refusal it should cite)."""
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
        reference's judgement of the step cites, else the scenario's, when it names exactly one. A failure of the
        set-up (no step) is about none: a refused set-up breaks no rule of the game. The failure's cause still
        says what differed."""
        if step is None:
            return None
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
