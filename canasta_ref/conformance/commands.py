"""The conformance subcommands of ``canasta-ref``: serve, conform, explain, coverage."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

import yaml

from ..errors import CanastaError
from ..spec import list_variants, load_variant
from .engines import Engine, EngineFailure, InProcessEngine, SubprocessEngine
from .explain import explain_lines
from .known import apply_known, load_known, write_known
from .report import Progress, failed, json_report, summary
from .runner import Selection, run_suite
from .scenario import load_scenarios, scenario_dir
from .serve import serve
from .session import ReferenceSession
from .suitecoverage import coverage_lines, rule_coverage
from .variants import applicable_variants


def _mutation(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if getattr(args, "mutate_rule", None):
        out["mutate_rule"] = args.mutate_rule
    if getattr(args, "mutate_parameter", None):
        name, _, value = args.mutate_parameter.partition("=")
        out["mutate_parameter"] = (name, yaml.safe_load(value))
    return out


def _serve(args: argparse.Namespace, out: TextIO) -> int:
    return serve(ReferenceSession(**_mutation(args)), sys.stdin, out)


def open_engine(command: str | None, timeout: float) -> Engine:
    """The engine under test, started and greeted; a command that cannot start is a clear error."""
    if not command:
        return InProcessEngine()
    try:
        return SubprocessEngine(command, timeout=timeout)
    except (EngineFailure, OSError) as error:
        raise CanastaError(f"cannot start the engine {command!r}: {error}") from None


def _conform(args: argparse.Namespace, out: TextIO) -> int:
    scenarios = load_scenarios([Path(p) for p in args.scenarios] if args.scenarios else None)
    selection = Selection(args.variant or (), args.rule or (), args.level or ())
    cases = selection.cases(scenarios)
    engine = open_engine(args.impl, args.timeout)
    try:
        progress = Progress(sys.stderr) if not args.no_progress else None
        results = run_suite(engine, cases, progress=progress)
        extra: dict[str, Any] = {}
        if args.games:
            from .generated import run_generated_games

            games = run_generated_games(engine, args.games, args.seed, variants=args.variant or None)
            results.extend(games.results)
            extra["generated"] = games.summary()
            for line in games.report_lines():
                out.write(line + "\n")
        if args.perft:
            from .perft import run_perft_files

            perft_results = run_perft_files(engine, variants=args.variant or None)
            results.extend(perft_results)
        if args.write_known_failures:
            count = write_known(results, Path(args.write_known_failures), engine.info.name)
            out.write(f"wrote {count} known failures to {args.write_known_failures}\n")
        if args.known_failures:
            results = apply_known(results, load_known(Path(args.known_failures)), args.known_failures)
        for line in summary(results, engine.info):
            out.write(line + "\n")
        if args.json:
            Path(args.json).write_text(json_report(results, engine.info, extra), encoding="utf-8")
    finally:
        engine.close()
    return 1 if failed(results) else 0


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    path = Path(args.scenario)
    if not path.exists():
        path = scenario_dir() / f"{args.scenario}.yaml"
    if not path.exists():
        raise CanastaError(f"no scenario {args.scenario!r}: neither a file nor the id of a bundled scenario")
    scenario = load_scenarios([path])[0]
    if args.variants is None:
        variants = applicable_variants(scenario)
    elif args.variants == "all":
        variants = list_variants()
    else:
        variants = [v for v in args.variants.split(",") if v]
    for variant in variants:
        load_variant(variant)
    for line in explain_lines(scenario, variants, alternatives=not args.no_alternatives):
        out.write(line + "\n")
    return 0


def _coverage(args: argparse.Namespace, out: TextIO) -> int:
    scenarios = load_scenarios([Path(p) for p in args.scenarios] if args.scenarios else None)
    variants = args.variant or list_variants()
    report = rule_coverage(scenarios, variants)
    for line in coverage_lines(report):
        out.write(line + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_json(), indent=2), encoding="utf-8")
    return 1 if report.missing() else 0


def add_commands(sub: Any) -> None:
    serve_cmd = sub.add_parser("serve", help="speak the engine protocol on stdin/stdout with the reference interpreter")
    serve_cmd.add_argument(
        "--mutate-rule", metavar="RULE.ID", help="negate one rule clause (a deliberately wrong engine)"
    )
    serve_cmd.add_argument(
        "--mutate-parameter", metavar="NAME=VALUE", help="change one parameter (a deliberately wrong engine)"
    )
    serve_cmd.set_defaults(run=_serve)

    conform = sub.add_parser("conform", help="run the conformance suite against an engine")
    conform.add_argument(
        "--impl", metavar="COMMAND", help="the engine's command line (default: the reference, in process)"
    )
    conform.add_argument("--scenarios", nargs="*", help="scenario files or folders (default: the bundled suite)")
    conform.add_argument("--variant", action="append", help="only this variant (repeatable)")
    conform.add_argument("--rule", action="append", help="only scenarios citing this rule id or prefix (repeatable)")
    conform.add_argument("--level", action="append", choices=("must", "alternative", "implementation-defined"))
    conform.add_argument("--json", metavar="FILE", help="write the JSON report here")
    conform.add_argument("--known-failures", metavar="FILE", help="YAML of known failures (scenario id -> reason)")
    conform.add_argument(
        "--write-known-failures", metavar="FILE", help="write today's failures as a known-failures file"
    )
    conform.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for each answer (default 10)")
    conform.add_argument("--games", type=int, default=0, help="also play this many generated games")
    conform.add_argument("--seed", type=int, default=0, help="seed of the generated games")
    conform.add_argument("--perft", action="store_true", help="also run the deal-perft files")
    conform.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    conform.set_defaults(run=_conform)

    explain = sub.add_parser(
        "explain", help="settle a dispute: each step of a scenario, variant by variant, with the rule"
    )
    explain.add_argument("scenario", help="a scenario file or the id of a bundled scenario")
    explain.add_argument(
        "--variants", help="'all', or a comma-separated list (default: the variants the scenario applies to)"
    )
    explain.add_argument(
        "--no-alternatives",
        action="store_true",
        help="do not also try the other values of disputed parameters",
    )
    explain.set_defaults(run=_explain)

    coverage = sub.add_parser("coverage", help="which rule clauses the scenarios do not allow or refuse through")
    coverage.add_argument("--scenarios", nargs="*")
    coverage.add_argument("--variant", action="append")
    coverage.add_argument("--json", metavar="FILE")
    coverage.set_defaults(run=_coverage)


__all__ = ["CanastaError", "add_commands", "open_engine"]
