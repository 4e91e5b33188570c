"""Benchmark the conformance suite: the bundled scenarios and generated games against ``canasta-ref serve``.

    python tools/bench_conformance.py [--games 20] [--repeat 3] [--variant classic] [--json FILE]

Times, through the protocol (``SubprocessEngine`` on ``canasta-ref serve``): the engine's start (process and
handshake), the whole bundled suite (every scenario for each variant it applies to; scenarios/s), and ``--games``
generated games (``canasta_ref.conformance.generated``; games/s and steps/s). The suite is also
run in process (``InProcessEngine``), which shows what the protocol costs. Each suite figure is the median of
``--repeat`` runs; wall-clock seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from canasta_ref import cliargs
from canasta_ref.conformance.engines import (
    REFERENCE_SERVE,
    Engine,
    EngineFailure,
    InProcessEngine,
    SubprocessEngine,
)
from canasta_ref.conformance.runner import Selection, run_suite
from canasta_ref.conformance.scenario import Scenario


@dataclass
class Row:
    what: str
    count: int
    seconds: float
    unit: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else 0.0


def _median_time(runs: int, body: Callable[[], Any]) -> tuple[float, Any]:
    times: list[float] = []
    last: Any = None
    for _ in range(max(1, runs)):
        start = time.perf_counter()
        last = body()
        times.append(time.perf_counter() - start)
    return statistics.median(times), last


def bench_start(serve: str, runs: int, timeout: float) -> Row:
    def start() -> None:
        SubprocessEngine(serve, timeout=timeout).close()

    seconds, _ = _median_time(runs, start)
    return Row("engine start + handshake", 1, seconds, "starts/s")


def bench_suite(
    engine_factory: Callable[[], Engine], cases: Sequence[tuple[Scenario, str]], runs: int, what: str
) -> Row:
    engine = engine_factory()
    try:
        seconds, results = _median_time(runs, lambda: run_suite(engine, cases))
    finally:
        engine.close()
    counts = Counter(r.status for r in results)
    return Row(what, len(cases), seconds, "scenarios/s", {"statuses": dict(counts)})


def bench_games(serve: str, games: int, seed: int, variants: list[str] | None, timeout: float) -> Row:
    from canasta_ref.conformance.generated import run_generated_games  # Hypothesis: only when games are asked for

    engine = SubprocessEngine(serve, timeout=timeout)
    try:
        start = time.perf_counter()
        report = run_generated_games(engine, games, seed, variants=variants)
        seconds = time.perf_counter() - start
    finally:
        engine.close()
    steps = report.steps
    statuses = dict(Counter(r.status for r in report.results))
    extra = {"steps": steps, "steps_per_second": round(steps / seconds, 1) if seconds else 0.0, "statuses": statuses}
    return Row("generated games via protocol", report.games, seconds, "games/s", extra)


def table(rows: Sequence[Row]) -> list[str]:
    lines = [f"{'what':<32} {'count':>6} {'seconds':>9} {'rate':>10}  unit", "-" * 72]
    for row in rows:
        note = ""
        if "steps" in row.extra:
            note = f"  ({row.extra['steps']} steps, {row.extra['steps_per_second']} steps/s)"
        elif row.extra.get("statuses"):
            note = "  (" + ", ".join(f"{n} {s}" for s, n in sorted(row.extra["statuses"].items())) + ")"
        lines.append(f"{row.what:<32} {row.count:>6} {row.seconds:>9.3f} {row.rate:>10.1f}  {row.unit}{note}")
    return lines


def measure_all(args: argparse.Namespace, cases: Sequence[tuple[Scenario, str]]) -> list[Row]:
    """The rows of the table: the engine's start, the suite through the protocol and in process, the games."""
    rows = [
        bench_start(args.serve, args.repeat, args.timeout),
        bench_suite(
            lambda: SubprocessEngine(args.serve, timeout=args.timeout), cases, args.repeat, "suite via protocol"
        ),
        bench_suite(InProcessEngine, cases, args.repeat, "suite in process"),
    ]
    if args.games > 0:
        rows.append(bench_games(args.serve, args.games, args.seed, args.variant, args.timeout))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_conformance.py", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--serve",
        default=REFERENCE_SERVE,
        type=cliargs.runnable_command,
        help="the engine command (default: canasta-ref serve)",
    )
    parser.add_argument("--scenarios", nargs="*", help="scenario files or folders (default: the bundled suite)")
    parser.add_argument(
        "--variant", action="append", type=cliargs.bundled_variant, help="only this variant (repeatable)"
    )
    parser.add_argument(
        "--repeat", type=cliargs.positive, default=3, help="runs of each suite timing; the median is shown"
    )
    parser.add_argument("--games", type=cliargs.count, default=20, help="generated games to play (0: none)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated games")
    parser.add_argument("--timeout", type=cliargs.seconds, default=10.0, help="seconds per answer")
    parser.add_argument("--json", metavar="FILE", type=cliargs.output_file, help="write the figures as JSON")
    args = parser.parse_args(argv)

    scenarios = cliargs.scenarios_or_exit(parser, args.scenarios)
    cases = Selection(variants=args.variant or ()).cases(scenarios)
    try:
        rows = measure_all(args, cases)
    except EngineFailure as failure:
        parser.exit(1, f"bench_conformance.py: the engine {args.serve!r} failed: {failure}\n")
    python = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"{len(scenarios)} scenarios, {len(cases)} cases; {python}, {os.cpu_count()} CPUs")
    for line in table(rows):
        print(line)
    if args.json:
        data = {
            "scenarios": len(scenarios),
            "cases": len(cases),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "repeat": args.repeat,
            "rows": [{**asdict(row), "rate": round(row.rate, 2)} for row in rows],
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
