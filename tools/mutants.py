"""Mutation testing of the conformance suite: how many deliberately wrong engines do the scenarios catch?

    python tools/mutants.py [--variant classic] [--jobs 2] [--games N] [--json FILE] [--min-score PCT]

A mutant is ``canasta-ref serve`` with one clause negated (``--mutate-rule ID``: a condition turned round, a
value off by a hundred), for every clause of each variant, or with one parameter changed
(``--mutate-parameter NAME=VALUE``), for each option of each enum parameter other than the variant's own. Each
mutant runs the bundled scenarios of its variant through the protocol (``SubprocessEngine``), the scenarios
citing the mutated clause first, and stops at the first one that does not pass: the mutant is *caught* by it.
A mutant that passes every scenario *survived*; with ``--games N`` the survivors also play N generated games
(``canasta_ref.conformance.generated``), which may catch them.

Scenarios that fail on the unmutated reference are left out (they would "catch" every mutant) and listed.
For each survivor the tool says why it probably survived, from the rule coverage of the suite on the
reference: the clause is never evaluated (no scenario reaches it, or an earlier clause of its hook refuses
first: it is shadowed or redundant), or it is evaluated but nothing the scenarios check depends on it.
Mutants run in ``--jobs`` worker processes (2 by default), each with its own engine process.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from canasta_ref import cliargs
from canasta_ref.conformance.engines import REFERENCE_SERVE, Engine, EngineFailure, SubprocessEngine
from canasta_ref.conformance.runner import Selection, run_case
from canasta_ref.conformance.scenario import Scenario, load_scenarios
from canasta_ref.conformance.suitecoverage import recording_engine
from canasta_ref.conformance.variants import applies_to
from canasta_ref.spec import Variant, list_variants, load_variant

#: The statuses by which a test tells a mutant from the reference: ``differs`` counts (an implementation-defined
#: scenario still tells the two apart), though it fails no run of an engine.
CATCHING = ("failed", "differs", "errored", "timed out")

Kind = Literal["rule", "parameter"]


@dataclass(frozen=True)
class Mutant:
    variant: str
    kind: Kind
    target: str  # a clause id, or NAME=VALUE

    @property
    def flags(self) -> list[str]:
        if self.kind == "rule":
            return ["--mutate-rule", self.target]
        name, _, value = self.target.partition("=")
        return ["--mutate-parameter", f"{name}={json.dumps(value)}"]

    @property
    def label(self) -> str:
        return f"{self.variant} {self.kind} {self.target}"

    def engine(self, serve: str, timeout: float) -> SubprocessEngine:
        """The mutant started: the reference's ``serve`` command with this mutation."""
        return SubprocessEngine(shlex.join([*shlex.split(serve), *self.flags]), timeout=timeout)


@dataclass
class Outcome:
    mutant: Mutant
    caught_by: str | None = None  # the scenario key (or generated game) that caught it
    status: str | None = None  # how that test went: failed, errored, timed out
    message: str = ""
    ran: int = 0  # scenarios run
    seconds: float = 0.0
    by_games: bool = False
    games: int = 0  # generated games played against it (survivors, with --games)
    reason: str = ""

    @property
    def caught(self) -> bool:
        return self.caught_by is not None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["caught"] = self.caught
        data["message"] = self.message.splitlines()[0] if self.message else ""
        return data


@dataclass
class Baseline:
    """The suite on the unmutated reference, per variant: which cases pass, and the clauses' outcomes."""

    cases: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # variant -> (scenario id, variant)
    failures: list[str] = field(default_factory=list)
    coverage: dict[str, dict[str, set[str]]] = field(default_factory=dict)


# -- the mutants ------------------------------------------------------------------------------------------------


def mutants_of(variant_id: str, kinds: Sequence[Kind] = ("rule", "parameter")) -> list[Mutant]:
    variant = load_variant(variant_id)
    out: list[Mutant] = []
    if "rule" in kinds:
        out.extend(Mutant(variant_id, "rule", clause_id) for clause_id in variant.clauses)
    if "parameter" in kinds:
        for parameter in variant.parameters.values():
            if parameter.type != "enum":
                continue
            for option in parameter.options:
                if option != parameter.value:
                    out.append(Mutant(variant_id, "parameter", f"{parameter.name}={option}"))
    return out


def clauses_reading(variant: Variant, parameter: str) -> list[str]:
    return [c.id for c in variant.clauses.values() if parameter in c.parameters]


def relevant_rules(mutant: Mutant) -> set[str]:
    """The clause ids whose scenarios should run first for this mutant."""
    if mutant.kind == "rule":
        return {mutant.target}
    return set(clauses_reading(load_variant(mutant.variant), mutant.target.partition("=")[0]))


def order_cases(cases: Sequence[tuple[Scenario, str]], rules: set[str]) -> list[tuple[Scenario, str]]:
    """Scenarios citing one of ``rules`` first (most likely to catch the mutant), the rest in suite order."""
    return sorted(cases, key=lambda case: not rules.intersection(case[0].rules))


# -- the baseline (in process, with rule coverage) --------------------------------------------------------------


def baseline(scenarios: Sequence[Scenario], variants: Sequence[str], levels: Sequence[str]) -> Baseline:
    out = Baseline()
    for variant in variants:
        engine, coverage = recording_engine()
        passing: list[tuple[str, str]] = []
        for scenario, case_variant in Selection(variants=[variant], levels=levels).cases(scenarios):
            result = run_case(engine, scenario, case_variant)
            if result.status == "passed":
                passing.append((scenario.id, case_variant))
            elif result.status != "skipped":
                out.failures.append(f"{result.key}: {result.status}: {result.message.splitlines()[0]}")
        out.cases[variant] = passing
        out.coverage[variant] = coverage.outcomes
    return out


# -- the workers ------------------------------------------------------------------------------------------------

_SCENARIOS: dict[str, Scenario] = {}


def _init_worker(paths: Sequence[str] | None) -> None:
    _SCENARIOS.clear()
    _SCENARIOS.update({s.id: s for s in load_scenarios([Path(p) for p in paths] if paths else None)})


def run_mutant(mutant: Mutant, cases: Sequence[tuple[str, str]], serve: str, timeout: float) -> Outcome:
    """Run the cases (scenario id, variant) against the mutant until one does not pass."""
    start = time.monotonic()
    outcome = Outcome(mutant)
    ordered = order_cases([(_SCENARIOS[sid], variant) for sid, variant in cases], relevant_rules(mutant))
    try:
        engine = mutant.engine(serve, timeout)
    except EngineFailure as failure:
        outcome.caught_by, outcome.status, outcome.message = "(start)", "errored", str(failure)
        outcome.seconds = time.monotonic() - start
        return outcome
    try:
        for scenario, variant in ordered:
            result = run_case(engine, scenario, variant)
            outcome.ran += 1
            if result.status in CATCHING:
                outcome.caught_by, outcome.status, outcome.message = result.key, result.status, result.message
                break
    except EngineFailure as failure:  # the restart after a failure failed
        outcome.caught_by = outcome.caught_by or "(restart)"
        outcome.status, outcome.message = "errored", str(failure)
    finally:
        engine.close()
    outcome.seconds = time.monotonic() - start
    return outcome


def games_for_survivor(outcome: Outcome, serve: str, timeout: float, games: int, seed: int) -> Outcome:
    from canasta_ref.conformance.generated import run_generated_games  # Hypothesis: only when games are asked for

    start = time.monotonic()
    mutant = outcome.mutant
    engine: Engine | None = None
    try:
        engine = mutant.engine(serve, timeout)
        report = run_generated_games(engine, games, seed, variants=[mutant.variant])
        outcome.games = report.games
        for result in report.results:
            if result.status in CATCHING:
                outcome.caught_by, outcome.status, outcome.message = result.key, result.status, result.message
                outcome.by_games = True
                break
    except EngineFailure as failure:
        outcome.caught_by, outcome.status, outcome.message = "(generated games)", "errored", str(failure)
        outcome.by_games = True
    finally:
        if engine is not None:
            engine.close()
    outcome.seconds += time.monotonic() - start
    return outcome


# -- why a mutant survived --------------------------------------------------------------------------------------


def survival_reason(mutant: Mutant, coverage: dict[str, set[str]], scenarios: Sequence[Scenario]) -> str:
    variant = load_variant(mutant.variant)
    if mutant.kind == "parameter":
        name, _, value = mutant.target.partition("=")
        readers = clauses_reading(variant, name)
        if not readers:
            return f"no clause reads {name}; the engine's code must (and no scenario depends on it)"
        outcomes = {r: "/".join(sorted(coverage.get(r, set()))) or "never evaluated" for r in readers}
        if all(text == "never evaluated" for text in outcomes.values()):
            return f"the clauses reading {name} ({', '.join(readers)}) are never evaluated by the suite"
        default = variant.parameters[name].value
        return (
            f"no scenario tells {name}={value} from {name}={default} "
            f"(clauses reading it: {', '.join(f'{r} {text}' for r, text in outcomes.items())})"
        )
    clause = variant.clauses[mutant.target]
    seen = coverage.get(clause.id, set())
    citing = [s.id for s in scenarios if clause.id in s.rules and applies_to(s, mutant.variant)]
    hook = variant.by_hook(clause.hook)
    earlier = hook[: hook.index(clause)]
    others = [c.id for c in hook if c is not clause]
    if not seen:
        refusing_first = [c.id for c in earlier if "refused" in coverage.get(c.id, set())]
        hook_reached = any(coverage.get(c.id) for c in hook)
        if clause.kind == "require" and refusing_first:
            return (
                f"never evaluated: on hook {clause.hook}, {', '.join(refusing_first)} refuses first wherever the "
                f"suite gets there (shadowed, or redundant with it)"
            )
        if citing:
            return f"never evaluated, although cited by {', '.join(citing[:3])}: they do not reach hook {clause.hook}"
        if hook_reached:
            return f"never evaluated: hook {clause.hook} is reached, never up to this clause; no scenario cites it"
        return f"never evaluated: no scenario reaches hook {clause.hook}, and none cites {clause.id}"
    sides = "/".join(sorted(seen))
    if clause.kind == "value":
        return "evaluated, but no scenario checks a result its value (+100) changes (add a score or view check)"
    if clause.kind == "predicate":
        if others:
            return (
                f"evaluated ({sides}); negated, the answer of hook {clause.hook} does not change where the suite "
                f"looks: another clause of the hook ({', '.join(others)}) decides the same, or nothing is checked"
            )
        return f"evaluated ({sides}), but no scenario checks what it decides"
    if seen == {"refused"}:
        later = [c.id for c in hook[hook.index(clause) + 1 :]]
        return (
            "only ever refuses in the suite; negated, it lets those actions through to "
            + (f"later clauses ({', '.join(later)}) that refuse them too" if later else "another check refusing them")
            + " and the scenarios name no rule there"
        )
    return f"evaluated ({sides}) but only where the outcome is not checked (e.g. in refused actions with no rule named)"


# -- the report -------------------------------------------------------------------------------------------------


def score_line(outcomes: Sequence[Outcome]) -> str:
    caught = sum(o.caught for o in outcomes)
    total = len(outcomes)
    percent = 100.0 * caught / total if total else 0.0
    per_variant: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for outcome in outcomes:
        per_variant[outcome.mutant.variant][0] += outcome.caught
        per_variant[outcome.mutant.variant][1] += 1
    parts = ", ".join(f"{v} {c}/{t}" for v, (c, t) in per_variant.items())
    return f"mutation score: {caught}/{total} = {percent:.1f}% ({parts})"


def report_lines(outcomes: Sequence[Outcome], base: Baseline, seconds: float, jobs: int) -> Iterable[str]:
    for variant, cases in base.cases.items():
        yield f"{variant}: {len(cases)} scenario cases pass on the reference"
    for failure in base.failures:
        yield f"left out, fails on the reference: {failure}"
    width = max((len(o.mutant.kind) + 1 + len(o.mutant.target) for o in outcomes), default=10)
    for outcome in outcomes:
        what = f"{outcome.mutant.kind} {outcome.mutant.target}".ljust(width)
        if outcome.caught:
            how = "generated games: " if outcome.by_games else ""
            yield (
                f"caught    {outcome.mutant.variant:<11} {what}  by {how}{outcome.caught_by} ({outcome.status}, "
                f"after {outcome.ran} scenarios, {outcome.seconds:.1f} s)"
            )
        else:
            games = f", {outcome.games} generated games" if outcome.games else ""
            yield f"SURVIVED  {outcome.mutant.variant:<11} {what}  ({outcome.ran} scenarios{games})"
    yield score_line(outcomes)
    survivors = [o for o in outcomes if not o.caught]
    if survivors:
        yield f"survivors ({len(survivors)}):"
        for outcome in survivors:
            yield f"  {outcome.mutant.label}: {outcome.reason}"
    yield f"{len(outcomes)} mutants in {seconds:.1f} s with {jobs} workers"


# -- main -------------------------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mutants.py", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variant",
        action="append",
        type=cliargs.bundled_variant,
        help="variant (repeatable; default: every bundled variant)",
    )
    parser.add_argument("--kind", action="append", choices=("rule", "parameter"), help="only these mutants")
    parser.add_argument("--only", action="append", metavar="TARGET", help="only mutants whose target starts so")
    parser.add_argument("--scenarios", nargs="*", help="scenario files or folders (default: the bundled suite)")
    parser.add_argument("--level", action="append", choices=("must", "alternative", "implementation-defined"))
    parser.add_argument("--jobs", type=cliargs.positive, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--timeout", type=cliargs.seconds, default=5.0, help="seconds per answer of a mutant (default 5)"
    )
    parser.add_argument(
        "--serve", default=REFERENCE_SERVE, type=cliargs.runnable_command, help="the reference's serve command"
    )
    parser.add_argument("--games", type=cliargs.count, default=0, help="also play N generated games against survivors")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated games")
    parser.add_argument("--json", metavar="FILE", type=cliargs.output_file, help="write the results as JSON")
    parser.add_argument(
        "--min-score", type=cliargs.percent, metavar="PCT", help="exit 1 if the score is below PCT percent"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)

    start = time.monotonic()
    variants: list[str] = args.variant or list_variants()
    kinds: list[Kind] = args.kind or ["rule", "parameter"]
    mutants = [m for v in variants for m in mutants_of(v, kinds)]
    for prefix in args.only or ():
        if not any(m.target.startswith(prefix) for m in mutants):
            parser.error(f"argument --only: no mutant's target starts with {prefix!r}")
    if args.only:
        mutants = [m for m in mutants if any(m.target.startswith(prefix) for prefix in args.only)]
    paths: list[str] | None = args.scenarios or None
    scenarios = cliargs.scenarios_or_exit(parser, paths)
    base = baseline(scenarios, variants, args.level or ())
    outcomes: dict[Mutant, Outcome] = {}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs), initializer=_init_worker, initargs=(paths,)) as pool:
        futures = {pool.submit(run_mutant, m, base.cases[m.variant], args.serve, args.timeout): m for m in mutants}
        for done, future in enumerate(as_completed(futures), 1):
            outcome = future.result()
            outcomes[outcome.mutant] = outcome
            if not args.quiet:
                survived = sum(not o.caught for o in outcomes.values())
                sys.stderr.write(f"\r{done}/{len(mutants)} mutants, {survived} survived ")
                sys.stderr.flush()
        if not args.quiet:
            sys.stderr.write("\n")
        survivors = [outcomes[m] for m in mutants if not outcomes[m].caught]
        if args.games and survivors:
            again = [
                pool.submit(games_for_survivor, o, args.serve, args.timeout, args.games, args.seed) for o in survivors
            ]
            for future in as_completed(again):
                outcome = future.result()
                outcomes[outcome.mutant] = outcome
    ordered = [outcomes[m] for m in mutants]
    for outcome in ordered:
        if not outcome.caught:
            outcome.reason = survival_reason(outcome.mutant, base.coverage[outcome.mutant.variant], scenarios)
    seconds = time.monotonic() - start
    for line in report_lines(ordered, base, seconds, args.jobs):
        print(line)
    caught = sum(o.caught for o in ordered)
    percent = 100.0 * caught / len(ordered) if ordered else 100.0
    if args.json:
        data = {
            "score": {"caught": caught, "total": len(ordered), "percent": round(percent, 2)},
            "variants": {v: len(c) for v, c in base.cases.items()},
            "baseline_failures": base.failures,
            "seconds": round(seconds, 2),
            "jobs": args.jobs,
            "games": args.games,
            "mutants": [o.to_json() for o in ordered],
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if args.min_score is not None and percent < args.min_score:
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
