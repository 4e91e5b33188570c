"""Rule coverage of the suite: for each clause, whether some scenario allows through it and some refuses.

For a ``require`` clause the two sides are "allowed" and "refused"; for a ``predicate`` clause "true" and
"false"; a ``value`` clause needs only to be evaluated. The ids come from what the interpreter evaluates while
the scenarios run, not from what the scenarios claim.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.rules import Coverage
from ..spec import load_variant
from .engines import InProcessEngine
from .runner import run_case
from .scenario import Scenario
from .session import ReferenceSession
from .variants import applies_to


@dataclass
class CoverageReport:
    per_variant: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    #: Per variant, each clause's outcomes to be seen (``Clause.outcomes``).
    needed: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def missing(self) -> dict[str, dict[str, list[str]]]:
        out: dict[str, dict[str, list[str]]] = {}
        for variant, outcomes in self.per_variant.items():
            for rule, needed in self.needed[variant].items():
                lacking = [side for side in needed if side not in outcomes.get(rule, set())]
                if lacking:
                    out.setdefault(variant, {})[rule] = lacking
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "variants": {v: {r: sorted(s) for r, s in o.items()} for v, o in self.per_variant.items()},
            "missing": self.missing(),
            "failures": self.failures,
        }


def recording_engine() -> tuple[InProcessEngine, Coverage]:
    """The reference in process, and the Coverage into which it records the clauses its set-ups, actions and
    scores evaluate (not its listings or views)."""
    coverage = Coverage()
    session = ReferenceSession()
    session.coverage = coverage
    return InProcessEngine(session), coverage


def rule_coverage(scenarios: Sequence[Scenario], variants: Sequence[str]) -> CoverageReport:
    """Run every scenario on the reference, per variant, recording the outcome of each clause evaluated."""
    report = CoverageReport()
    for variant in variants:
        engine, coverage = recording_engine()
        for scenario in scenarios:
            if applies_to(scenario, variant):
                result = run_case(engine, scenario, variant)
                if result.status != "passed":
                    report.failures.append(f"{result.key}: {result.status}: {result.message}")
        report.per_variant[variant] = coverage.outcomes
        report.needed[variant] = {c.id: c.outcomes for c in load_variant(variant).clauses.values()}
    return report


def coverage_lines(report: CoverageReport) -> Iterator[str]:
    missing = report.missing()
    for variant, kinds in report.needed.items():
        lacking = missing.get(variant, {})
        yield f"{variant}: {len(kinds) - len(lacking)} of {len(kinds)} clauses covered on every side"
        for rule, sides in sorted(lacking.items()):
            yield f"    {rule}: no scenario {' or '.join(sides)}"
    for failure in report.failures:
        yield f"scenario failing on the reference: {failure}"
