"""Benchmark generated games through ``canasta-ref serve``, this tree beside a baseline tree, in interleaved rounds.

    python tools/bench_generated.py [--games 60] [--seed 40] [--variant classic ...] [--rounds 3]
                                    [--baseline TREE] [--core native] [--starts 3] [--timeout 60] [--json FILE]

Each tree runs its own code (``PYTHONPATH`` set to the tree, from a fresh working folder): ``canasta-ref conform
--impl "python -m canasta_ref.cli serve" --no-scenarios --games N --seed S --variant V``, the runner and the engine
under test both that tree's. A round runs every variant on every tree, the trees' order turned round each round, so
that a shared machine's load moves them alike. Per tree and variant: wall-clock games/s, and CPU games/s (the CPU
time of the runner and of the engine it started, read from the children's rusage); the medians of the rounds, and
the ratio this tree / baseline (the median of each round's ratio). ``--starts`` first times the fixed cost of the
engine (``serve`` answering hello, one set-up and quit: the package's import and the variant's spec load), the
median of that many starts per tree and variant. Without ``--baseline``, only this tree runs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canasta_ref import cliargs

THIS_TREE = Path(__file__).resolve().parents[1]


@dataclass
class Timing:
    """One timed child process: its wall-clock and CPU seconds (its own and its reaped children's)."""

    wall: float
    cpu: float

    def on(self, clock: str) -> float:
        """The seconds by ``clock``: wall or cpu."""
        return self.wall if clock == "wall" else self.cpu


@dataclass
class Cell:
    """The timings of one tree on one variant, a round each."""

    tree: str
    variant: str
    games: list[Timing] = field(default_factory=list)
    starts: list[Timing] = field(default_factory=list)

    def games_per_second(self, games: int, clock: str) -> float:
        return statistics.median(games / max(run.on(clock), 1e-9) for run in self.games)

    def start_seconds(self, clock: str) -> float:
        return statistics.median(run.on(clock) for run in self.starts) if self.starts else 0.0


def canasta_tree(text: str) -> Path:
    """A folder holding a tree of canasta-ref (its package at the top), to run with it first on the path."""
    tree = cliargs.folder(text)
    if not (tree / "canasta_ref" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"no canasta_ref package in '{text}'; give the root of a canasta-ref tree")
    return tree.resolve()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(command: Sequence[str], tree: Path, workdir: Path, stdin: str, timeout: float) -> Timing:
    """Run ``command`` with ``tree`` first on the path, from ``workdir``; its wall and CPU seconds. A failed run
    stops the benchmark with its error output: a figure of a run that did not finish would be no figure."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        command, input=stdin, capture_output=True, text=True, cwd=workdir, env=env, timeout=timeout, check=False
    )
    wall, cpu = time.perf_counter() - started, _children_cpu() - cpu
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
        raise RuntimeError(f"{shlex.join(command)} in {tree} exited with {done.returncode}:\n{tail}")
    return Timing(wall, cpu)


def serve_command(core: str | None) -> str:
    core_option = f" --core {core}" if core else ""
    return f"{shlex.quote(sys.executable)} -m canasta_ref.cli serve{core_option}"


def conform_command(args: argparse.Namespace, variant: str, serve: str, report: Path) -> list[str]:
    """The generated games of one run: no scenario, no progress bar, the report written to ``report``."""
    return [
        sys.executable,
        "-m",
        "canasta_ref.cli",
        "conform",
        "--impl",
        serve,
        "--no-scenarios",
        "--no-progress",
        "--games",
        str(args.games),
        "--seed",
        str(args.seed),
        "--variant",
        variant,
        "--timeout",
        str(args.timeout),
        "--json",
        str(report),
    ]


def start_requests(variant: str) -> str:
    """hello, a set-up of one deal of ``variant`` and quit: what the engine does before a campaign's first game."""
    from canasta_ref.conformance.setup import deal_request
    from canasta_ref.engine.game import deck_for_seed
    from canasta_ref.engine.rules import rules_for
    from canasta_ref.spec import load_variant

    deck = deck_for_seed(rules_for(load_variant(variant)), 1)
    requests = [
        {"id": 1, "cmd": "hello", "protocol": 8},
        {"id": 2, **deal_request(variant, deck, 0, team_scores=None)},
        {"id": 3, "cmd": "quit"},
    ]
    return "".join(json.dumps(request) + "\n" for request in requests)


def played_games(report: Path) -> tuple[int, int]:
    """The games a run's report says were played and how many disagreed (any is a failure of the benchmark)."""
    generated = json.loads(report.read_text(encoding="utf-8"))["generated"]
    return int(generated["games"]), int(generated["disagreements"])


class Bench:
    """The trees, the cells they fill, and a working folder apart (a run may save failing games in it)."""

    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        self.args = args
        self.workdir = workdir
        self.trees: list[tuple[str, Path]] = [("this", THIS_TREE)]
        if args.baseline is not None:
            self.trees.append(("baseline", args.baseline))
        self.cells = {(name, variant): Cell(name, variant) for name, _ in self.trees for variant in args.variant}

    def serve(self, name: str) -> str:
        return serve_command(self.args.core if name == "this" else None)

    def time_starts(self) -> None:
        for variant in self.args.variant:
            stdin = start_requests(variant)
            for _ in range(self.args.starts):
                for name, tree in self.trees:
                    command = shlex.split(self.serve(name))
                    timing = timed_run(command, tree, self.workdir, stdin, self.args.timeout)
                    self.cells[name, variant].starts.append(timing)

    def time_round(self, number: int) -> None:
        trees = self.trees if number % 2 == 0 else list(reversed(self.trees))
        for variant in self.args.variant:
            for name, tree in trees:
                report = self.workdir / f"{name}-{variant}-{number}.json"
                command = conform_command(self.args, variant, self.serve(name), report)
                timing = timed_run(command, tree, self.workdir, "", self.args.timeout * max(self.args.games, 1) * 10)
                games, disagreements = played_games(report)
                if games != self.args.games or disagreements:
                    raise RuntimeError(f"{name} on {variant}: {games} games played, {disagreements} disagreeing")
                self.cells[name, variant].games.append(timing)

    def ratio(self, variant: str, clock: str) -> float | None:
        """This tree's games/s over the baseline's, the median of each round's ratio."""
        if len(self.trees) < 2:
            return None
        mine, theirs = self.cells["this", variant].games, self.cells["baseline", variant].games
        return statistics.median(b.on(clock) / max(a.on(clock), 1e-9) for a, b in zip(mine, theirs, strict=True))

    def rows(self) -> list[dict[str, Any]]:
        games = self.args.games
        rows = []
        for variant in self.args.variant:
            for name, tree in self.trees:
                cell = self.cells[name, variant]
                rows.append(
                    {
                        "variant": variant,
                        "tree": name,
                        "path": str(tree),
                        "games": games,
                        "rounds": len(cell.games),
                        "wall_games_per_second": round(cell.games_per_second(games, "wall"), 3),
                        "cpu_games_per_second": round(cell.games_per_second(games, "cpu"), 3),
                        "start_wall_seconds": round(cell.start_seconds("wall"), 3),
                        "start_cpu_seconds": round(cell.start_seconds("cpu"), 3),
                        "wall_per_round": [round(run.wall, 3) for run in cell.games],
                        "cpu_per_round": [round(run.cpu, 3) for run in cell.games],
                    }
                )
        return rows

    def ratios(self) -> dict[str, dict[str, float]]:
        found: dict[str, dict[str, float]] = {}
        for variant in self.args.variant:
            wall, cpu = self.ratio(variant, "wall"), self.ratio(variant, "cpu")
            if wall is not None and cpu is not None:
                found[variant] = {"wall": round(wall, 3), "cpu": round(cpu, 3)}
        return found


def table(rows: Sequence[dict[str, Any]], ratios: dict[str, dict[str, float]]) -> list[str]:
    head = (
        f"{'variant':<14} {'tree':<9} {'wall games/s':>12} {'cpu games/s':>12} {'start wall s':>12} {'start cpu s':>12}"
    )
    lines = [head, "-" * len(head)]
    for row in rows:
        lines.append(
            f"{row['variant']:<14} {row['tree']:<9} {row['wall_games_per_second']:>12.2f} "
            f"{row['cpu_games_per_second']:>12.2f} {row['start_wall_seconds']:>12.3f} {row['start_cpu_seconds']:>12.3f}"
        )
        ratio = ratios.get(row["variant"])
        if ratio is not None and row["tree"] == "baseline":
            lines.append(f"{row['variant']:<14} {'ratio':<9} {ratio['wall']:>11.2f}x {ratio['cpu']:>11.2f}x")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_generated.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=cliargs.positive, default=60, help="generated games a run (default 60)")
    parser.add_argument("--seed", type=int, default=40, help="seed of the generated games (default 40)")
    parser.add_argument(
        "--variant",
        action="append",
        type=cliargs.bundled_variant,
        help="a variant to run (repeatable; default classic)",
    )
    parser.add_argument("--rounds", type=cliargs.positive, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--baseline", type=canasta_tree, help="another tree of canasta-ref to run beside this one")
    parser.add_argument("--core", choices=("python", "native"), help="this tree's serve --core (the baseline: none)")
    parser.add_argument("--starts", type=cliargs.count, default=3, help="engine starts timed a tree (0: none)")
    parser.add_argument("--timeout", type=cliargs.seconds, default=60.0, help="seconds per answer (default 60)")
    parser.add_argument("--json", metavar="FILE", type=cliargs.output_file, help="write the figures as JSON")
    args = parser.parse_args(argv)
    args.variant = args.variant or ["classic"]
    with tempfile.TemporaryDirectory(prefix="bench-generated-") as folder:
        bench = Bench(args, Path(folder))
        try:
            bench.time_starts()
            for number in range(args.rounds):
                bench.time_round(number)
        except (RuntimeError, subprocess.TimeoutExpired) as failure:
            parser.exit(1, f"bench_generated.py: {failure}\n")
    rows, ratios = bench.rows(), bench.ratios()
    python = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"{args.games} games a run, seed {args.seed}, {args.rounds} rounds; {python}, {os.cpu_count()} CPUs")
    print(f"load average {os.getloadavg()[0]:.2f}; this tree {THIS_TREE}")
    for line in table(rows, ratios):
        print(line)
    if args.json:
        data = {"games": args.games, "seed": args.seed, "rounds": args.rounds, "rows": rows, "ratios": ratios}
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
