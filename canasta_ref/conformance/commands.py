"""The conformance subcommands of ``canasta-ref``: serve, conform, explain, coverage, perft."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..cliargs import add_command, command_line, count, input_file, output_file, seconds
from ..engine.cores import CORES
from ..errors import CanastaError
from ..files import not_regular_problem
from ..resources import perft_dir, scenario_dir
from ..spec import list_variants, load_variant
from ..spec.wording import did_you_mean, one_of
from ..spec.yamldoc import parse
from .campaign_commands import add_campaign_arguments, add_report_commands
from .engines import START_TIMEOUT, Engine, EngineFailure, EngineInfo, InProcessEngine, SubprocessEngine
from .serve import serve
from .session import FEATURE_ACTIONS, ReferenceSession

if TYPE_CHECKING:  # the modules of the other commands are imported by each command: ``serve`` starts without them
    from .deviations import Deviation
    from .findings import Campaign
    from .scenario import Scenario


def _mutation(args: argparse.Namespace) -> dict[str, Any]:
    """The deliberate mistakes and limits ``serve`` is asked for, checked against the bundled variants first:
    a mutant naming no rule or parameter would quietly serve the unmutated reference. The variants are loaded only
    to check a name given: the plain reference starts at once (loading all ten takes seconds)."""
    named = ("mutate_rule", "mutate_parameter", "fixed_parameter")
    variants = [load_variant(v) for v in list_variants()] if any(getattr(args, n, None) for n in named) else []
    out: dict[str, Any] = {}
    rules = _mutated_rules(_as_list(getattr(args, "mutate_rule", None)), {r for v in variants for r in v.clauses})
    if rules:
        out["mutate_rule"] = rules
    parameters = {name for variant in variants for name in variant.parameters}
    mutated = _named_values("--mutate-parameter", _as_list(getattr(args, "mutate_parameter", None)), parameters)
    if mutated:
        out["mutate_parameter"] = mutated
    fixed = _named_values("--fixed-parameter", _as_list(getattr(args, "fixed_parameter", None)), parameters)
    both = sorted(set(fixed) & set(mutated))
    if both:
        raise CanastaError(f"--fixed-parameter and --mutate-parameter both set {both[0]!r}: give it once")
    if fixed:
        out["fixed_parameters"] = fixed
    absent = _as_list(getattr(args, "absent_feature", None))
    if absent:
        out["absent_features"] = absent
    if getattr(args, "score_totals_only", False):
        out["score_totals_only"] = True
    return out


def _mutated_rules(rules: list[str], known: set[str]) -> list[str]:
    """The rules of ``--mutate-rule``, each one a bundled variant has, each once."""
    for rule in rules:
        if rule not in known:
            hint = did_you_mean(rule, known)
            raise CanastaError(f"--mutate-rule: no bundled variant has a rule {rule!r}{hint}")
    return list(dict.fromkeys(rules))


def _as_list(value: Any) -> list[str]:
    """An option's values: a repeatable option gives a list, a single one (as older callers set it) a text."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _named_values(option: str, texts: list[str], known: set[str]) -> dict[str, Any]:
    """``NAME=VALUE`` texts of a parameter option, each a parameter's name and once only, values read as YAML."""
    values: dict[str, Any] = {}
    for text in texts:
        name, equals, value = text.partition("=")
        if not equals or name not in known:
            hint = did_you_mean(name, known) if equals else ""
            raise CanastaError(f"{option}: expected NAME=VALUE with a parameter's name, not {name!r}{hint}")
        if name in values:
            raise CanastaError(f"{option}: {name!r} is given twice; give each parameter once")
        values[name] = _parameter_value(value, option)
    return values


def _parameter_value(text: str, option: str = "--mutate-parameter") -> Any:
    """A parameter value written as YAML (``5``, ``forbid``, ``[1, 2]``), read with the safe loader."""
    doc, errors = parse(text, option)
    if errors:
        raise CanastaError(f"{option}: the value {text!r} is not YAML: {errors[0].reason}")
    return doc.data


def _serve(args: argparse.Namespace, out: TextIO) -> int:
    session = ReferenceSession(**_mutation(args), core=args.core, notes=sys.stderr)
    return serve(session, sys.stdin.buffer, out, held=True)


def _selection(args: argparse.Namespace, scenarios: list[Scenario]) -> list[tuple[Scenario, str]]:
    """The cases to run; a rule named that selects nothing is a mistake, not an empty pass."""
    from .runner import Selection, rule_matches

    cited = sorted({rule for scenario in scenarios for rule in scenario.rules})
    for rule in args.rule or ():
        if not any(rule_matches(rule, scenario.rules) for scenario in scenarios):
            hint = did_you_mean(rule, cited)
            raise CanastaError(f"--rule: no scenario cites a rule {rule!r} or one below it{hint}")
    return Selection(args.variant or (), args.rule or (), args.level or ()).cases(scenarios)


def _check_variants(names: list[str] | None) -> list[str]:
    """The ids given with --variant, each a bundled variant (a misspelt one would select nothing)."""
    known = list_variants()
    for name in names or ():
        if name not in known:
            hint = did_you_mean(name, known)
            raise CanastaError(f"--variant: unknown variant {name!r}{hint}; known: {one_of(known)}")
    return list(names or ())


def _scenarios(paths: list[str] | None) -> list[Scenario]:
    """The scenarios of the files and folders given (default: the bundled suite); none at all is an error."""
    from .scenario import load_scenarios

    scenarios = load_scenarios([Path(p) for p in paths] if paths else None)
    if not scenarios:
        raise CanastaError(f"no scenario files (*.yaml) in {', '.join(paths or [str(scenario_dir())])}")
    return scenarios


def open_engine(command: str | None, timeout: float, start_timeout: float = START_TIMEOUT) -> Engine:
    """The engine under test, started and greeted. A command that cannot be run is a clear error; an engine
    that runs but fails its handshake raises EngineFailure: that is a finding about the engine, to report."""
    if not command:
        return InProcessEngine()
    try:
        return SubprocessEngine(command, timeout=timeout, start_timeout=start_timeout)
    except OSError as error:
        raise CanastaError(f"cannot start the engine {command!r}: {error}") from None


def _failed_start(args: argparse.Namespace, failure: EngineFailure, out: TextIO) -> int:
    """An engine that started but failed its handshake: one result saying so, in the summary and the report."""
    from .report import json_report, summary
    from .runner import Result, failure_status

    message = f"the engine did not start: {failure.detail}"
    result = Result("hello", "*", failure_status(failure), message, stderr=failure.stderr)
    info = EngineInfo(name=str(args.impl))
    for line in summary([result], info):
        out.write(line + "\n")
    if args.json:
        Path(args.json).write_text(json_report([result], info, {}), encoding="utf-8")
    return 1


def _conform(args: argparse.Namespace, out: TextIO) -> int:
    from .known import apply_known, load_known, load_known_deviations, write_known
    from .report import Progress, failed, json_report, summary
    from .runner import run_suite

    _check_variants(args.variant)
    if args.no_scenarios and not (args.games or args.perft):
        raise CanastaError("nothing to run: --no-scenarios needs --games or --perft")
    cases = [] if args.no_scenarios else _selection(args, _scenarios(args.scenarios))
    known = load_known(Path(args.known_failures)) if args.known_failures else None
    masks = load_known_deviations(Path(args.known_failures)) if args.known_failures else []
    if not cases and not args.games and not args.perft:
        raise CanastaError("nothing to run: no scenario matches the --variant, --rule and --level given")
    try:
        engine = open_engine(args.impl, args.timeout, args.start_timeout)
    except EngineFailure as failure:
        return _failed_start(args, failure, out)
    try:
        progress = Progress(sys.stderr) if not args.no_progress else None
        results = run_suite(engine, cases, progress=progress)
        extra: dict[str, Any] = {}
        deviations: list[Deviation] = []
        campaign: Campaign | None = None
        extra_lines: list[str] = []
        if args.games:
            from .campaign_commands import campaign_with_saved

            games, replayed, saved_lines = campaign_with_saved(args, engine, masks, args.variant or None)
            deviations, campaign = games.deviations, games.campaign()
            results.extend(replayed)
            results.extend(games.results)
            extra["generated"] = games.to_json()
            extra_lines = games.headline_lines() + saved_lines
            if args.verbose:  # every deviation and its shrunk scenario, before the summary
                out.writelines(line + "\n" for line in games.report_lines())
        if args.perft:
            from .perft import run_perft_files

            perft_results = run_perft_files(engine, variants=args.variant or None)
            results.extend(perft_results)
        if args.write_known_failures:
            count = write_known(results, Path(args.write_known_failures), engine.info.name, deviations)
            out.write(f"wrote {count} known failures to {args.write_known_failures}\n")
        if known is not None:
            results = apply_known(results, known, args.known_failures)
        lines = summary(results, engine.info, campaign, extra=extra_lines, verbose=args.verbose)
        out.writelines(line + "\n" for line in lines)
        if args.json:
            report = json_report(results, engine.info, extra, campaign)
            Path(args.json).write_text(report, encoding="utf-8")
    finally:
        engine.close()
    return 1 if failed(results) else 0


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    from .explain import explain_lines
    from .scenario import load_scenarios
    from .variants import applicable_variants

    path = Path(args.scenario)
    if path.is_dir():
        raise CanastaError(f"{args.scenario!r} is a folder; give one scenario file or the id of a bundled scenario")
    problem = not_regular_problem(path)
    if problem is not None:
        raise CanastaError(f"{problem}; give one scenario file or the id of a bundled scenario")
    if not path.exists():
        path = scenario_dir() / f"{args.scenario}.yaml"
    if not path.is_file():
        raise CanastaError(f"no scenario {args.scenario!r}: neither a file nor the id of a bundled scenario")
    scenario = load_scenarios([path])[0]
    named = [name for text in args.variants or () for name in text.split(",") if name]
    if args.variants is None:
        variants = applicable_variants(scenario)
    elif "all" in named:
        variants = list_variants()
    else:
        variants = list(dict.fromkeys(named))
    if not variants:
        raise CanastaError(f"no variant to explain {scenario.id!r} under: give --variant")
    for variant in variants:
        load_variant(variant)
    for line in explain_lines(scenario, variants, alternatives=not args.no_alternatives):
        out.write(line + "\n")
    return 0


def _perft_paths(names: list[str]) -> list[Path] | None:
    """The deal-perft files named: paths, folders or ids of bundled files (none named: every bundled file)."""
    paths = []
    for name in names:
        path = Path(name)
        if not path.exists():
            path = perft_dir() / f"{name}.yaml"
        if not path.exists():
            raise CanastaError(f"no deal-perft file {name!r}: neither a file nor the id of a bundled one")
        paths.append(path)
    return paths or None


def _perft(args: argparse.Namespace, out: TextIO) -> int:
    from .perft import run_perft_files
    from .report import failed, json_report, summary

    variants = _check_variants(args.variant) or None
    paths = _perft_paths(args.files)
    try:
        engine = open_engine(args.impl, args.timeout, args.start_timeout)
    except EngineFailure as failure:
        return _failed_start(args, failure, out)
    try:
        results = run_perft_files(engine, variants=variants, paths=paths)
        for result in results:
            out.write(f"{result.scenario} [{result.variant}]: {result.status}\n")
        for line in summary(results, engine.info):
            out.write(line + "\n")
        if args.json:
            Path(args.json).write_text(json_report(results, engine.info, {}), encoding="utf-8")
    finally:
        engine.close()
    return 1 if failed(results) else 0


def _coverage(args: argparse.Namespace, out: TextIO) -> int:
    from .suitecoverage import coverage_lines, rule_coverage

    scenarios = _scenarios(args.scenarios)
    variants = _check_variants(args.variant) or list_variants()
    report = rule_coverage(scenarios, variants)
    for line in coverage_lines(report):
        out.write(line + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_json(), indent=2), encoding="utf-8")
    return 1 if report.missing() else 0


def add_commands(sub: Any) -> None:
    serve_cmd = add_command(sub, "serve", "speak the engine protocol on stdin/stdout with the reference interpreter")
    serve_cmd.add_argument(
        "--mutate-rule",
        metavar="RULE.ID",
        action="append",
        help="negate a rule clause (a deliberately wrong engine; repeatable: one fault each)",
    )
    serve_cmd.add_argument(
        "--mutate-parameter",
        metavar="NAME=VALUE",
        action="append",
        help="play a parameter changed without saying so (a deliberately wrong engine; repeatable)",
    )
    serve_cmd.add_argument(
        "--fixed-parameter",
        metavar="NAME=VALUE",
        action="append",
        help="play a parameter at this value and declare it fixed in protocol 2's hello (repeatable)",
    )
    serve_cmd.add_argument(
        "--absent-feature",
        choices=sorted(FEATURE_ACTIONS),
        action="append",
        help="go without an optional feature (its actions never legal, always refused) and declare it (repeatable)",
    )
    serve_cmd.add_argument(
        "--score-totals-only",
        action="store_true",
        help="answer 'score' with totals but no parts, and declare it in protocol 2's hello",
    )
    serve_cmd.add_argument(
        "--core",
        choices=CORES,
        default="python",
        help="the core that plays: the Python engine, or the native one where it is built (the Python engine "
        "answering where the core cannot; stderr says what runs where, or why the Python engine plays)",
    )
    serve_cmd.set_defaults(run=_serve)

    conform = add_command(sub, "conform", "run the conformance suite against an engine")
    conform.add_argument(
        "--impl",
        metavar="COMMAND",
        type=command_line,
        help="the engine's command line (default: the reference, in process)",
    )
    conform.add_argument("--scenarios", nargs="*", help="scenario files or folders (default: the bundled suite)")
    conform.add_argument("--variant", action="append", help="only this variant (repeatable)")
    conform.add_argument("--rule", action="append", help="only scenarios citing this rule id or prefix (repeatable)")
    conform.add_argument(
        "--level",
        action="append",
        choices=("must", "alternative", "implementation-defined"),
        help="only scenarios of this level (repeatable)",
    )
    conform.add_argument("--json", metavar="FILE", type=output_file, help="write the JSON report here")
    conform.add_argument(
        "--known-failures", metavar="FILE", type=input_file, help="YAML of known failures (scenario id -> reason)"
    )
    conform.add_argument(
        "--write-known-failures",
        metavar="FILE",
        type=output_file,
        help="write today's failures as a known-failures file",
    )
    conform.add_argument("--timeout", type=seconds, default=10.0, help="seconds to wait for each answer (default 10)")
    conform.add_argument(
        "--start-timeout",
        type=seconds,
        default=START_TIMEOUT,
        help=f"seconds for the engine to start and answer 'hello', if more than --timeout (default {START_TIMEOUT:g})",
    )
    conform.add_argument("--games", type=count, default=0, help="also play this many generated games")
    conform.add_argument("--seed", type=int, default=0, help="seed of the generated games")
    conform.add_argument(
        "--shrink-seconds",
        type=seconds,
        default=20.0,
        help="seconds to shrink each distinct deviation of the generated games (default 20)",
    )
    conform.add_argument(
        "--max-shrunk",
        type=count,
        default=8,
        help="shrink at most this many distinct deviations; the others keep the game they were found in (default 8)",
    )
    add_campaign_arguments(conform)
    conform.add_argument("--perft", action="store_true", help="also run the deal-perft files")
    conform.add_argument(
        "--no-scenarios", action="store_true", help="run no scenario: only the generated games and deal-perft"
    )
    conform.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    conform.add_argument(
        "--verbose",
        action="store_true",
        help="before the summary, every result that is not a plain pass, and the shrunk scenarios of generated games",
    )
    conform.set_defaults(run=_conform)

    explain = add_command(
        sub, "explain", "settle a dispute: each step of a scenario, variant by variant, with the rule"
    )
    explain.add_argument("scenario", help="a scenario file or the id of a bundled scenario")
    explain.add_argument(
        "--variant",
        dest="variants",
        action="append",
        help="judge under this variant (repeatable, or a comma-separated list; 'all' for every bundled variant; "
        "default: the variants the scenario applies to)",
    )
    explain.add_argument("--variants", dest="variants", action="append", help=argparse.SUPPRESS)  # the old name
    explain.add_argument(
        "--no-alternatives",
        action="store_true",
        help="do not also try the other values of disputed parameters",
    )
    explain.set_defaults(run=_explain)

    coverage = add_command(sub, "coverage", "which rule clauses the scenarios do not allow or refuse through")
    coverage.add_argument("--scenarios", nargs="*", help="scenario files or folders (default: the bundled suite)")
    coverage.add_argument("--variant", action="append", help="only this variant (repeatable; default: every one)")
    coverage.add_argument("--json", metavar="FILE", type=output_file, help="write the coverage as JSON here")
    coverage.set_defaults(run=_coverage)

    perft = add_command(
        sub,
        "perft",
        "count an engine's sequences of legal actions from fixed deals against the deal-perft files",
        "On a difference, the message shows where the engine's list of legal actions and the reference's first part.",
    )
    perft.add_argument("files", nargs="*", help="deal-perft files, folders or ids of bundled ones (default: all)")
    perft.add_argument(
        "--impl", metavar="COMMAND", type=command_line, help="the engine's command line (default: the reference)"
    )
    perft.add_argument("--variant", action="append", help="only the files of this variant (repeatable)")
    perft.add_argument("--timeout", type=seconds, default=10.0, help="seconds to wait for each answer (default 10)")
    perft.add_argument(
        "--start-timeout",
        type=seconds,
        default=START_TIMEOUT,
        help=f"seconds for the engine to start and answer 'hello', if more than --timeout (default {START_TIMEOUT:g})",
    )
    perft.add_argument("--json", metavar="FILE", type=output_file, help="write the JSON report here")
    perft.set_defaults(run=_perft)

    add_report_commands(sub)


__all__ = ["CanastaError", "add_commands", "open_engine"]
