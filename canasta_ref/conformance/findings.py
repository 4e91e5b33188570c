"""The deviations of one run, grouped for its summary: per variant, per rule (or, when no rule can be named, per
cause), with how many scenarios and generated games show each and one representative step.

A scenario that fails the same rule at every step, and the 75 scenarios that do, make one finding; its rule's
text and source are said once. A scenario is reported by its first failed check: the checks that fail after it
are counted as its consequences (each is in --verbose and the JSON report). Skips are summed by reason, and the
variants the engine does not claim are one count, not a line a test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import CanastaError
from ..render import source_line
from ..spec import list_variants
from .deviations import Deviation
from .engines import EngineInfo
from .runner import Result, first_failure
from .variants import reference_rules

#: Results whose failures are findings (a known failure is counted, not listed; a ``differs`` is listed apart).
FINDING_STATUSES = ("failed", "differs", "errored", "timed out")
#: The most characters of a representative step.
EXAMPLE_CHARS = 220
#: What the results the variants' counts leave out are: a generated game's (a game or a deviation each), a test of
#: a variant the engine does not claim, another (the handshake, a variant not bundled).
GENERATED = "generated games"
UNCLAIMED = "variants not claimed"
OTHER = "other tests"
#: The prefix of a deal-perft file's result (see perft.run_perft).
PERFT_PREFIX = "perft-"


@dataclass
class Campaign:
    """What the summary needs of a run of generated games: its results (a game each, a deviation each), its
    deviations, and how many games of each variant were played."""

    results: Sequence[Result] = ()
    deviations: Sequence[Deviation] = ()
    played: Mapping[str, int] = field(default_factory=dict)


@dataclass
class Finding:
    """One deviation in one variant: its rule (else its cause), the scenarios and games that show it, an example."""

    variant: str
    rule: str | None
    cause: str
    differs: bool
    example: str
    scenarios: list[str] = field(default_factory=list)
    games: set[int] = field(default_factory=set)
    #: How many checks failed after it in the same scenarios (its consequences: in --verbose and the JSON report).
    consequences: int = 0

    @property
    def label(self) -> str:
        return self.rule or self.cause

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "cause": self.cause, "scenarios": self.scenarios}
        out["games"] = len(self.games)
        out["example"] = self.example
        if self.consequences:
            out["consequences"] = self.consequences
        if self.differs:
            out["differs"] = True
        return out


@dataclass
class Findings:
    """The run's findings and counts, by variant; skips by reason; the variants the engine does not claim."""

    by_variant: dict[str, list[Finding]] = field(default_factory=dict)
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    #: Generated games played, by variant.
    games: Counter[str] = field(default_factory=Counter)
    unclaimed: dict[str, int] = field(default_factory=dict)
    skipped_tests: Counter[str] = field(default_factory=Counter)
    skipped_checks: Counter[str] = field(default_factory=Counter)
    #: What the engine declared it plays otherwise, per variant: parameter -> (the engine's value, the variant's).
    declared: dict[str, dict[str, tuple[Any, Any]]] = field(default_factory=dict)
    #: The generated games that show a deviation, by variant (a game showing several is one game).
    disagreeing: dict[str, set[int]] = field(default_factory=dict)
    #: How many distinct deviations the generated games of each variant show.
    deviation_counts: Counter[str] = field(default_factory=Counter)
    #: How many of each variant's counted results are of deal-perft files (the others are scenarios').
    perft: Counter[str] = field(default_factory=Counter)
    #: Results the variants' counts leave out, by what they are (GENERATED, UNCLAIMED, OTHER): the run's totals
    #: add them, and the summary says so.
    apart: dict[str, Counter[str]] = field(default_factory=dict)

    def count_apart(self, kind: str, status: str) -> None:
        """A result the variants' counts leave out (a generated game's, a variant's not claimed, another)."""
        self.apart.setdefault(kind, Counter())[status] += 1

    def count_disagreeing(self, deviation: Deviation) -> None:
        """A deviation of generated games (known or not): its games disagree, in each variant it was seen in."""
        for variant, games in deviation.games_by_variant().items():
            self.disagreeing.setdefault(variant, set()).update(games)
            self.deviation_counts[variant] += 1

    def variants(self) -> list[str]:
        """The variants with something to say, the bundled ones in their order first."""
        seen = set(self.counts) | set(self.by_variant) | set(self.games)
        order = [v for v in list_variants() if v in seen]
        return order + sorted(seen - set(order))

    def to_json(self) -> dict[str, Any]:
        return {
            "variants": {
                variant: {
                    "counts": dict(self.counts.get(variant, {})),
                    "generated_games": self.games[variant],
                    "generated_games_disagreeing": len(self.disagreeing.get(variant, ())),
                    "generated_deviations": self.deviation_counts[variant],
                    "deviations": [f.to_json() for f in self.by_variant.get(variant, [])],
                }
                for variant in self.variants()
            },
            "not_claimed": self.unclaimed,
            "skipped": {"tests": dict(self.skipped_tests), "checks": dict(self.skipped_checks)},
            "counted_apart": {kind: dict(counts) for kind, counts in self.apart.items()},
            "declared_differences": {
                variant: {name: {"engine": mine, "variant": theirs} for name, (mine, theirs) in values.items()}
                for variant, values in self.declared.items()
            },
        }


def findings(results: Sequence[Result], info: EngineInfo, campaign: Campaign | None = None) -> Findings:
    """Group a run: ``results`` of scenarios and deal-perft files (and of the generated games of ``campaign``,
    which are told by its deviations and counts instead)."""
    campaign = campaign or Campaign()
    games = {id(r) for r in campaign.results}
    out = Findings(games=Counter(campaign.played), declared=declared_differences(info))
    groups: dict[tuple[str, str, bool], Finding] = {}
    bundled = set(list_variants())
    for result in results:
        # A generated game is told by the campaign; the handshake ("*") and a stale known failure by the summary.
        if id(result) in games or result.variant not in bundled:
            out.count_apart(GENERATED if id(result) in games else OTHER, result.status)
            continue
        if result.status == "skipped" and result.variant not in info.variants:
            out.unclaimed[result.variant] = out.unclaimed.get(result.variant, 0) + 1
            out.count_apart(UNCLAIMED, result.status)
            continue
        out.counts.setdefault(result.variant, Counter())[result.status] += 1
        out.perft[result.variant] += result.scenario.startswith(PERFT_PREFIX)
        if result.status == "skipped":
            out.skipped_tests[_skip_reason(result)] += 1
        if result.status != "known failure":
            out.skipped_checks.update(result.skips)
        if result.status in FINDING_STATUSES:
            failures = _failures_of(result)
            first = first_failure(result) if result.failures else (failures[0] if failures else None)
            if first is not None:
                _add(groups, out, result, first).consequences += len(failures) - 1
    for deviation in campaign.deviations:
        out.count_disagreeing(deviation)
        if deviation.mask is None:
            _add_deviation(groups, out, deviation)
    return out


def declared_differences(info: EngineInfo) -> dict[str, dict[str, tuple[Any, Any]]]:
    """The parameters the engine fixes at a value other than its variant's, per bundled variant it claims: the
    engine plays "that variant with these values", which is a difference it declared, not a failure."""
    bundled = set(list_variants())
    out: dict[str, dict[str, tuple[Any, Any]]] = {}
    for variant in info.variants:
        fixed = info.fixed_for(variant)
        if variant not in bundled or not fixed:
            continue  # a variant whose parameters the engine leaves alone declares nothing: its rules stay unloaded
        spec = reference_rules(variant).variant
        values = {
            name: (value, spec.param(name))
            for name, value in fixed.items()
            if name in spec.parameters and spec.param(name) != value
        }
        if values:
            out[variant] = values
    return out


def _skip_reason(result: Result) -> str:
    """Why a test was skipped: its reason, or that every check it had was skipped (each counted by reason)."""
    if result.skips:
        return "every check skipped, for the reasons below"
    return result.message or "no reason given"


def _failures_of(result: Result) -> list[dict[str, Any]]:
    """A result's failed checks; a result that failed as a whole is one (an engine failure alone is none: the
    summary lists engine failures apart)."""
    if result.failures or result.status in ("errored", "timed out"):
        return result.failures
    return [{"step": None, "rule": result.rule, "cause": "the test as a whole", "message": result.message}]


def _add(
    groups: dict[tuple[str, str, bool], Finding], out: Findings, result: Result, failure: Mapping[str, Any]
) -> Finding:
    """Put a result's first failed check under its finding (made on first sight), and return the finding."""
    rule = failure.get("rule")
    cause = str(failure.get("cause") or failure.get("check") or "no cause given")
    differs = result.status == "differs" or bool(failure.get("implementation_defined"))
    key = (result.variant, rule or cause, differs)
    group = groups.get(key)
    if group is None:
        example = _example(f"{result.scenario}: {_first_line(str(failure.get('message', '')))}")
        group = groups[key] = Finding(result.variant, rule, cause, differs, example)
        out.by_variant.setdefault(result.variant, []).append(group)
    if result.scenario not in group.scenarios:
        group.scenarios.append(result.scenario)
    return group


def _add_deviation(groups: dict[tuple[str, str, bool], Finding], out: Findings, deviation: Deviation) -> None:
    """A deviation of generated games, in each variant it was seen in (joining that variant's finding of the
    same rule or cause from the scenarios, when there is one)."""
    key = deviation.key
    for variant, games in deviation.games_by_variant().items():
        group = groups.get((variant, key.label, False))
        if group is None:
            example = _example(f"generated game {deviation.first_game}: {_first_line(deviation.message)}")
            group = groups[(variant, key.label, False)] = Finding(
                variant, key.rule, key.cause or key.label, False, example
            )
            out.by_variant.setdefault(variant, []).append(group)
        group.games |= games


def rule_text(variant: str, rule: str) -> list[str]:
    """A rule's text and first source under ``variant`` (none when the variant or the rule is not bundled)."""
    try:
        clauses = reference_rules(variant).variant.clauses
    except (CanastaError, KeyError):
        return []
    clause = clauses.get(rule)
    if clause is None:
        return []
    return [clause.text, source_line(clause.sources[0])] if clause.sources else [clause.text]


def _first_line(text: str) -> str:
    return text.splitlines()[0] if text else ""


def _example(text: str) -> str:
    return text if len(text) <= EXAMPLE_CHARS else text[: EXAMPLE_CHARS - 3] + "..."


__all__ = [
    "GENERATED",
    "OTHER",
    "UNCLAIMED",
    "Campaign",
    "Finding",
    "Findings",
    "declared_differences",
    "findings",
    "rule_text",
]
