"""Benchmark a campaign of generated games: games per second by workers, the runner's overhead, memory a worker.

    python tools/bench_campaign.py [--games 200] [--workers 1,2] [--rounds 1] [--seed 0] [--engine COMMAND]
                                   [--variant NAME ...] [--json FILE]

Three figures, wall-clock:

* games per second with 1, 2... worker processes (``--workers``), each playing its chunks on its own engine
  (default ``canasta-ref serve``), the deviations shrunk as a campaign does; and each count's speed-up over one.
  The counts run in turn, ``--rounds`` times, and the medians are given (the speed-up: the median of each round's),
  with the cores the campaign kept busy (its CPU time over its wall time: a worker is two processes, the runner
  with the reference and the engine, working at once) and the load average, on a machine others share;
* the runner's own overhead a step, against the reference in process (``--overhead-games`` games, one process,
  CPU time, after a pass to warm up): the time a step takes, the engine's share (inside its ``receive``), the
  reference's (inside the runner's calls to the ``Game`` it plays beside the engine, timed), and what is left, the
  runner's: choosing moves, writing the requests, comparing the answers;
* the memory of a worker: the peak resident size of one worker process after ``--memory-games`` games, and of the
  engine it started (the largest peak among the processes descending from the worker, read from /proc while the
  engine still runs; where there is no /proc, the engine is closed and reaped, then read as the worker's largest
  child).

A campaign of 10,000 games is ``--games 10000 --workers 2``; the lead runs it, a test never does.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from canasta_ref import cliargs
from canasta_ref.conformance import generated_game, strategies
from canasta_ref.conformance.campaign import CampaignOptions, run_part
from canasta_ref.conformance.engines import REFERENCE_SERVE, Engine, InProcessEngine
from canasta_ref.conformance.workers import EngineSpec, process_pool, run_spread, worker_engine
from canasta_ref.spec import list_variants


def worker_counts(text: str) -> list[int]:
    """``1,2``: positive numbers of workers."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or any(count < 1 for count in counts):
        raise argparse.ArgumentTypeError(f"expected numbers of workers such as 1,2, not {text!r}")
    return counts


def _cpu_seconds() -> float:
    """CPU time of this process and of its reaped children (the workers, and the engines they reaped)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def games_per_second(spec: EngineSpec, games: int, seed: int, workers: int, options: CampaignOptions) -> dict[str, Any]:
    """A campaign of ``games`` on ``workers`` processes: its time, games/s, steps and what it found; the CPU time
    it took (its workers' and their engines', reaped when the pool is shut down) and so the cores it kept busy,
    and the machine's load average as it ended."""
    cpu, started = _cpu_seconds(), time.perf_counter()
    pool = process_pool(workers, options.variants)
    report = run_spread(spec, seed, games, range(1, games + 1), options, pool, workers=workers)
    seconds = time.perf_counter() - started
    cpu = _cpu_seconds() - cpu
    statuses: dict[str, int] = {}
    for result in report.results:
        statuses[result.status] = statuses.get(result.status, 0) + 1
    return {
        "workers": workers,
        "games": report.games,
        "steps": report.steps,
        "seconds": round(seconds, 2),
        "games_per_second": round(report.games / seconds, 2),
        "cpu_seconds": round(cpu, 2),
        "cores_busy": round(cpu / seconds, 2),
        "cpu_ms_per_game": round(cpu * 1000 / max(report.games, 1), 1),
        "load_average": round(os.getloadavg()[0], 2),
        "statuses": statuses,
    }


def speed(spec: EngineSpec, games: int, seed: int, counts: list[int], rounds: int, options: CampaignOptions) -> Any:
    """Each number of workers in turn, ``rounds`` times (interleaved, so that a machine's load moves them alike):
    a row a count with the median games/s and cores busy, and the median of each round's speed-up over one."""
    runs = [[games_per_second(spec, games, seed, w, options) for w in counts] for _ in range(rounds)]
    one = counts.index(1) if 1 in counts else None
    rows = []
    for index in range(len(counts)):
        mine = [each[index] for each in runs]
        row = {**mine[len(mine) // 2], "rounds": [run["games_per_second"] for run in mine]}
        row["games_per_second"] = round(statistics.median(row["rounds"]), 2)
        row["cores_busy"] = round(statistics.median(run["cores_busy"] for run in mine), 2)
        row["cpu_ms_per_game"] = round(statistics.median(run["cpu_ms_per_game"] for run in mine), 1)
        if one is not None:
            gains = [each[index]["games_per_second"] / each[one]["games_per_second"] for each in runs]
            row["speed_up"] = round(statistics.median(gains), 2)
        rows.append(row)
    return rows


#: Where the runner asks the reference (``Game``) for something: its listing of the legal actions (counted by kind,
#: an action of a kind, the whole list where a check needs it), its verdict on a move (applied if legal), every
#: seat's view, the score, a new deal. The time inside these, outside the engine's ``receive``, is the reference's
#: work. They are the runner's own Python functions, so that they can be timed
#: where the engine's classes are compiled (mypyc's cannot be patched).
_REFERENCE_CALLS: tuple[tuple[Any, str], ...] = (
    (generated_game.Runner, "legal"),
    (generated_game.Legal, "listed"),
    (generated_game.Legal, "of_kind"),
    (generated_game.Runner, "conventional_refusal"),
    (generated_game, "play"),
    (generated_game, "score_of"),
    (generated_game, "reference_views"),
    (strategies.Setup, "new_game"),
)


class _StepClock:
    """CPU time by whose work it is: the engine's (inside its ``receive``) and the reference's (inside one of
    ``_REFERENCE_CALLS``); a call inside another timed call counts in the outer one only."""

    def __init__(self) -> None:
        self.seconds = {"engine": 0.0, "reference": 0.0}
        self._depth = 0

    def timed(self, function: Callable[..., Any], share: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if self._depth:
                return function(*args, **kwargs)
            self._depth += 1
            started = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[share] += time.process_time() - started
                self._depth -= 1

        return call

    @contextlib.contextmanager
    def reference_timed(self) -> Iterator[None]:
        """The reference's calls timed while inside, as they were again after."""
        saved = [(owner, name, vars(owner)[name]) for owner, name in _REFERENCE_CALLS]
        try:
            for owner, name, original in saved:
                setattr(owner, name, self.timed(original, "reference"))
            yield
        finally:
            for owner, name, original in saved:
                setattr(owner, name, original)


def overhead(games: int, seed: int, options: CampaignOptions) -> dict[str, Any]:
    """The CPU time of a step against the reference in process (the games played once before, untimed, so that
    loading the specs is not counted), split into the engine's (inside its ``receive``, the messages' JSON
    included), the reference's (inside the ``Game`` the runner plays alongside: its listing of the legal actions
    at every step, which the runner chooses from, its verdicts, views and scores) and the runner's own (the rest:
    choosing moves, writing the requests, comparing the answers), in microseconds a step; and the runner's share
    of the step. The reference is timed, not taken equal to the engine's: it lists the legal actions at every
    step, the engine only when asked at a checked step."""
    engine = InProcessEngine()
    run_part(engine, seed, games, range(1, games + 1), options)  # warm: every variant's spec loaded, caches full
    clock = _StepClock()
    engine.receive = clock.timed(engine.receive, "engine")  # type: ignore[method-assign]
    with clock.reference_timed():
        started = time.process_time()
        report = run_part(engine, seed, games, range(1, games + 1), options)
        total = time.process_time() - started
    steps = max(report.steps, 1)
    inside, reference = clock.seconds["engine"], clock.seconds["reference"]
    runner = total - inside - reference
    return {
        "games": report.games,
        "steps": report.steps,
        "step_us": round(total / steps * 1e6, 1),
        "engine_us": round(inside / steps * 1e6, 1),
        "reference_us": round(reference / steps * 1e6, 1),
        "runner_us": round(runner / steps * 1e6, 1),
        "runner_share": round(runner / total, 3) if total > 0 else 0.0,
    }


_PROC = Path("/proc")


def peak_resident_kib(pid: int) -> int | None:
    """A running process's peak resident size in KiB (``VmHWM`` of /proc/PID/status); None where it cannot be read
    (no /proc, the process gone, or a kernel thread)."""
    try:
        status = (_PROC / str(pid) / "status").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return None


def _parent_of(pid: int) -> int | None:
    """A process's parent, from /proc/PID/stat (read after the command name, which may hold spaces)."""
    try:
        fields = (_PROC / str(pid) / "stat").read_bytes().rsplit(b")", 1)[-1].split()
        return int(fields[1])
    except (OSError, IndexError, ValueError):
        return None


def descendants(root: int) -> list[int]:
    """The processes descending from ``root`` (children, their children...), read from /proc; empty without it."""
    try:
        pids = [int(name) for name in os.listdir(_PROC) if name.isdigit()]
    except OSError:
        return []
    children: dict[int, list[int]] = {}
    for pid in pids:
        parent = _parent_of(pid)
        if parent is not None:
            children.setdefault(parent, []).append(pid)
    found: list[int] = []
    pending = list(children.get(root, ()))
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(children.get(pid, ()))
    return found


def engine_peak_kib(engine: Engine) -> int:
    """The peak resident KiB of the engine this process started: the largest among its descendants while they run
    (an engine started through a wrapper is the wrapper's child); without /proc, the engine is closed (and so
    reaped) and read as this process's largest child. 0 for an engine in process."""
    peaks = [peak for peak in map(peak_resident_kib, descendants(os.getpid())) if peak is not None]
    if peaks:
        return max(peaks)
    engine.close()
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def _measured_chunk(spec: EngineSpec, seed: int, games: int, options: CampaignOptions) -> tuple[int, int]:
    """In a worker process: ``games`` games played; the peak resident KiB of the worker and of its engine."""
    engine = worker_engine(spec)
    run_part(engine, seed, games, range(1, games + 1), options)
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, engine_peak_kib(engine)


def memory(spec: EngineSpec, games: int, seed: int, options: CampaignOptions) -> dict[str, Any]:
    """The peak memory of one worker process after ``games`` games, and of its engine (if a subprocess)."""
    with ProcessPoolExecutor(max_workers=1) as pool:
        worker, engine = pool.submit(_measured_chunk, spec, seed, games, options).result()
    in_process = spec.command is None and spec.factory is None
    return {
        "games": games,
        "worker_mib": round(worker / 1024, 1),
        "engine_mib": 0.0 if in_process else round(engine / 1024, 1),
        "engine_in_process": in_process,
    }


def lines(figures: dict[str, Any]) -> list[str]:
    variants = ", ".join(figures["variants"]) or "every one"
    out = [f"{figures['python']}, {figures['cpus']} CPUs; engine: {figures['engine']}; variants: {variants}"]
    for row in figures["speed"]:
        gain = f", {row['speed_up']:.2f}x one worker" if "speed_up" in row else ""
        rounds = len(row["rounds"])
        each = f" (median of {rounds} rounds: {', '.join(map(str, row['rounds']))})" if rounds > 1 else ""
        out.append(
            f"{row['workers']} worker(s): {row['games']} games, {row['steps']} steps in {row['seconds']} s: "
            f"{row['games_per_second']} games/s{each}{gain}; {row['cores_busy']} cores busy, "
            f"{row['cpu_ms_per_game']} ms of CPU a game, load average {row['load_average']}"
        )
    bound = scaling_bound(figures["speed"], figures["cpus"])
    if bound:
        out.append(bound)
    o = figures["overhead"]
    out.append(
        f"a step against the reference in process ({o['games']} games, {o['steps']} steps): {o['step_us']} us: "
        f"engine {o['engine_us']} us, reference {o['reference_us']} us, runner {o['runner_us']} us "
        f"({o['runner_share']:.0%} of the step)"
    )
    out.append(memory_line(figures["memory"]))
    return out


def scaling_bound(rows: Sequence[dict[str, Any]], cpus: int | None) -> str:
    """What the machine allows: N workers gain at most min(N, cpus / the cores one worker keeps busy) over one,
    since one worker already overlaps its engine's work with the runner's (requests are pipelined). With the CPU a
    game costs nearly the same at every count, a speed-up below N is the cores' bound, not the runner's."""
    one = next((row for row in rows if row["workers"] == 1), None)
    if one is None or not cpus or one["cores_busy"] <= 0:
        return ""
    parts = [
        f"{row['workers']} workers at most {min(row['workers'], cpus / one['cores_busy']):.2f}x"
        for row in rows
        if row["workers"] > 1
    ]
    if not parts:
        return ""
    return (
        f"the bound on {cpus} CPUs, one worker keeping {one['cores_busy']} cores busy: "
        + ", ".join(parts)
        + " (min(workers, CPUs / cores one worker keeps busy))"
    )


def memory_line(m: dict[str, Any]) -> str:
    engine = "its engine in process" if m["engine_in_process"] else f"its engine {m['engine_mib']} MiB"
    return f"memory of a worker after {m['games']} games (peak resident): {m['worker_mib']} MiB, {engine}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_campaign.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=cliargs.positive, default=200, help="games of each timed campaign")
    parser.add_argument("--workers", type=worker_counts, default=[1, 2], help="numbers of workers (default 1,2)")
    parser.add_argument("--rounds", type=cliargs.positive, default=1, help="times each count of workers runs")
    parser.add_argument("--seed", type=int, default=0, help="the campaigns' seed")
    parser.add_argument(
        "--engine",
        default=REFERENCE_SERVE,
        type=cliargs.runnable_command,
        help="the engine command each worker starts (default: canasta-ref serve)",
    )
    parser.add_argument("--in-process", action="store_true", help="workers play the reference in process instead")
    parser.add_argument("--overhead-games", type=cliargs.positive, default=20, help="games to time the overhead on")
    parser.add_argument("--memory-games", type=cliargs.positive, default=20, help="games before memory is read")
    parser.add_argument("--timeout", type=cliargs.seconds, default=10.0, help="seconds per answer")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        choices=list_variants(),
        help="only this variant (repeatable; default: every one)",
    )
    parser.add_argument("--json", metavar="FILE", type=cliargs.output_file, help="write the figures as JSON")
    args = parser.parse_args(argv)

    spec = EngineSpec(None if args.in_process else args.engine, args.timeout)
    options = CampaignOptions(variants=tuple(args.variant))
    figures = {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpus": os.cpu_count(),
        "engine": "the reference in process" if args.in_process else args.engine,
        "variants": list(options.variants),
        "speed": speed(spec, args.games, args.seed, args.workers, args.rounds, options),
        "overhead": overhead(args.overhead_games, args.seed, options),
        "memory": memory(spec, args.memory_games, args.seed, options),
    }
    for line in lines(figures):
        print(line)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
