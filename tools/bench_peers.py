"""canasta-ref's random play beside other engines', in one run: the ratio of hands per second, round by round.

    python tools/bench_peers.py [--rounds 3] [--seconds 12] [--peer feud] [--peer-command NAME=COMMAND] [--json]

Absolute speeds on a shared machine move by a third from one hour to the next (research/perf-side-by-side.md), so
issue 15 compares engines by the ratio taken within a round. Each round runs canasta-ref, then each peer, one
process at a time, each pinned to the same core, each playing Classic for four at random for ``--seconds`` of its
own CPU time: a new hand a deal, a uniformly random choice among the listed actions, hands played to their end.
canasta-ref keeps one ``Rules`` for the pass, as a campaign would (the steady state of ``bench.py --warm-up``).
Before the rounds each engine plays ``--warm-up`` seconds unrecorded (V8 compiles the hot code as it runs).

A peer is any command that takes the seconds as its last argument and prints one JSON object on its last line of
output, with ``hands``, ``actions``, ``cpu_seconds`` and ``wall_seconds``. ``feud`` is built in: the adapted
feudalism-dev/Canasta (``conformance/adapters/feud/bench.ts``; where its code must be, and tsx:
``conformance/adapters/feud/README.md``). ``--peer-command NAME=COMMAND`` adds any other. A pass that crashes,
hangs past ``--timeout`` or prints something else is reported as such and the run goes on; the exit status is 1
if any pass failed, 2 if no peer can run here.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from conform_adapters import ALL as ADAPTERS

from canasta_ref import cliargs

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = "canasta-ref"
#: The fields a pass must print, each a number of at least 0 (hands and actions whole numbers).
FIELDS = ("hands", "actions", "cpu_seconds", "wall_seconds")
#: How much of a failed pass's output a report quotes.
QUOTE = 300
#: How much of a pass's output is kept (its last bytes), whatever it prints.
TAIL = 1 << 16
#: Seconds to wait, once a pass has ended, for the rest of its output (a child it left may hold the pipe open).
READ_GRACE = 5.0


@dataclass(frozen=True)
class Engine:
    """What to run for a pass of ``seconds`` (appended), or why it cannot run here."""

    name: str
    command: tuple[str, ...]
    environment: dict[str, str] = field(default_factory=dict)
    missing: str | None = None


@dataclass
class Pass:
    """One engine's pass in one round: its figures, or why there are none."""

    engine: str
    round: int
    hands: int = 0
    actions: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    failure: str | None = None

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.cpu_seconds if self.cpu_seconds > 0 else 0.0


def reference_engine() -> Engine:
    return Engine(REFERENCE, (sys.executable, str(Path(__file__).resolve()), "--reference-pass"))


def feud_engine() -> Engine:
    adapter = next(a for a in ADAPTERS if a.key == "feud")
    script = str(adapter.folder / "bench.ts")
    return Engine(
        "feud",
        (str(adapter.runtime), script),
        {adapter.env: str(adapter.engine_dir)} if adapter.engine_dir else {},
        adapter.missing(),
    )


BUILT_IN = {"feud": feud_engine}


def command_engine(text: str) -> Engine:
    """``NAME=COMMAND`` as an engine (the command split as a shell would, not run through one)."""
    name, sep, command = text.partition("=")
    if not sep or not name.strip() or not command.strip():
        raise ValueError(f"--peer-command {text!r}: expected NAME=COMMAND")
    try:
        words = tuple(shlex.split(command))
    except ValueError as error:  # an unclosed quote
        raise ValueError(f"--peer-command {text!r}: {error}") from None
    return Engine(name.strip(), words, missing=None if shutil.which(words[0]) else f"{words[0]} not found")


def parse_pass(engine: str, round_number: int, stdout: str) -> Pass:
    """The figures of a pass from its output's last line, or a Pass saying what was wrong with the output."""
    result = Pass(engine, round_number)
    lines = stdout.strip().splitlines()
    if not lines:
        result.failure = "printed nothing"
        return result
    try:
        data = json.loads(lines[-1])
    except ValueError:
        result.failure = f"printed no JSON on its last line: {lines[-1][:QUOTE]!r}"
        return result
    if not isinstance(data, dict):
        result.failure = f"printed {type(data).__name__}, not a JSON object: {lines[-1][:QUOTE]!r}"
        return result
    for name in FIELDS:
        value = data.get(name)
        whole = name in ("hands", "actions")
        if not _count_or_measure(value, whole):
            kind = "a whole number" if whole else "a number"
            result.failure = f"field {name!r}: expected {kind} of at least 0, got {value!r}"
            return result
    if data["hands"] == 0 or data["cpu_seconds"] == 0:
        result.failure = f"played {data['hands']} hands in {data['cpu_seconds']} s: no rate to compare"
        return result
    return Pass(engine, round_number, data["hands"], data["actions"], data["cpu_seconds"], data["wall_seconds"])


def _count_or_measure(value: object, whole: bool) -> bool:
    """A finite number of at least 0 (an int if ``whole``); JSON's true and false are not numbers here."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if whole and not isinstance(value, int):
        return False
    return math.isfinite(value) and value >= 0


def run_pass(engine: Engine, round_number: int, seconds: float, timeout: float, core: int | None) -> Pass:
    """One pass of ``engine`` in its own process, pinned to ``core`` by ``taskset`` (None: unpinned)."""
    command = [*engine.command, str(seconds)]
    if core is not None:
        command = ["taskset", "-c", str(core), *command]
    try:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            env={**os.environ, **engine.environment},
            start_new_session=True,  # its own process group, so that a hung peer's children are stopped with it
        )
    except OSError as error:
        return Pass(engine.name, round_number, failure=f"could not start: {error}")
    assert process.stdout is not None and process.stderr is not None
    out, err = _Tail(process.stdout), _Tail(process.stderr)
    try:
        status = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return Pass(engine.name, round_number, failure=f"hung: no answer within {timeout:g} s")
    finally:
        out.join(READ_GRACE)
        err.join(READ_GRACE)
    if status != 0:
        tail = err.text().strip()[-QUOTE:] or out.text().strip()[-QUOTE:]
        return Pass(engine.name, round_number, failure=f"crashed (exit status {status}): {tail!r}")
    return parse_pass(engine.name, round_number, out.text())


class _Tail(threading.Thread):
    """Reads a stream to its end in the background and keeps only its last ``TAIL`` bytes: a peer that floods its
    output costs this process no more memory than that (its figures are on its last line)."""

    def __init__(self, stream: IO[bytes]) -> None:
        super().__init__(daemon=True)
        self._stream = stream
        self._kept = bytearray()
        self.start()

    def run(self) -> None:
        with self._stream:
            while chunk := self._stream.read(1 << 16):
                self._kept += chunk
                if len(self._kept) > 2 * TAIL:
                    del self._kept[:-TAIL]

    def text(self) -> str:
        return bytes(self._kept[-TAIL:]).decode("utf-8", errors="replace")


def round_ratio(passes: Sequence[Pass], peer: str) -> float | None:
    """canasta-ref's hands per second over ``peer``'s in one round, None unless both passes gave figures."""
    by_name = {p.engine: p for p in passes if p.failure is None}
    if REFERENCE not in by_name or peer not in by_name:
        return None
    return by_name[REFERENCE].hands_per_second / by_name[peer].hands_per_second


@dataclass
class Report:
    rounds: list[list[Pass]]
    skipped: dict[str, str]
    core: int | None
    seconds: float

    def ratios(self, peer: str) -> list[float]:
        """canasta-ref's hands per second over the peer's, in each round where both passes gave figures."""
        return [ratio for passes in self.rounds if (ratio := round_ratio(passes, peer)) is not None]

    @property
    def peers(self) -> list[str]:
        return list(dict.fromkeys(p.engine for passes in self.rounds for p in passes if p.engine != REFERENCE))

    @property
    def failures(self) -> list[Pass]:
        return [p for passes in self.rounds for p in passes if p.failure is not None]

    def to_json(self) -> dict[str, object]:
        ratios = {peer: self.ratios(peer) for peer in self.peers}
        return {
            "seconds": self.seconds,
            "core": self.core,
            "skipped": self.skipped,
            "passes": [
                {**vars(p), "hands_per_second": round(p.hands_per_second, 3)} for passes in self.rounds for p in passes
            ],
            "ratios": {peer: [round(r, 4) for r in found] for peer, found in ratios.items()},
            "median_ratio": {peer: round(statistics.median(found), 4) for peer, found in ratios.items() if found},
        }


def table(report: Report) -> str:
    if not report.rounds:
        return "\n".join(["no peer can run here", *(f"skipped {name}: {why}" for name, why in report.skipped.items())])
    engines = [REFERENCE, *report.peers]
    head = ["round", *(f"{name} hands/s" for name in engines), *(f"ratio to {peer}" for peer in report.peers)]
    rows: list[list[str]] = []
    for number, passes in enumerate(report.rounds, 1):
        by_name = {p.engine: p for p in passes}
        cells = [str(number)]
        for name in engines:
            found = by_name.get(name)
            cells.append("-" if found is None or found.failure else f"{found.hands_per_second:,.1f}")
        for peer in report.peers:
            ratio = round_ratio(passes, peer)
            cells.append("-" if ratio is None else f"{ratio:.3f}")
        rows.append(cells)
    medians = ["median", *("" for _ in engines)]
    medians += [f"{statistics.median(r):.3f}" if (r := report.ratios(peer)) else "-" for peer in report.peers]
    rows.append(medians)
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    lines = [
        f"random play of Classic, {report.seconds:g} s of CPU time a pass, "
        + (f"pinned to cpu {report.core}" if report.core is not None else "unpinned"),
        "  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True)),
    ]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    for name, why in report.skipped.items():
        lines.append(f"skipped {name}: {why}")
    for failed in report.failures:
        lines.append(f"round {failed.round}, {failed.engine}: {failed.failure}")
    return "\n".join(lines)


def reference_pass(seconds: float) -> dict[str, float]:
    """canasta-ref's pass: Classic, one Rules for the whole pass, hands dealt as a match deals them (seed 1),
    each action chosen by ``random.Random(1).choice`` from the listing, as ``tools/bench.py`` chooses."""
    from canasta_ref import Rules
    from canasta_ref.scaling import play_at_random
    from canasta_ref.spec import load_variant

    rules = Rules(load_variant("classic"))
    rng = random.Random(1)
    hands = actions = 0
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    while time.process_time() - cpu_start < seconds:
        actions += play_at_random(rules, (hands,), rng, seed=1)
        hands += 1
    return {
        "hands": hands,
        "actions": actions,
        "cpu_seconds": time.process_time() - cpu_start,
        "wall_seconds": time.perf_counter() - wall_start,
    }


def measure(
    engines: Sequence[Engine], rounds: int, seconds: float, warm_up: float, timeout: float, core: int | None
) -> list[list[Pass]]:
    """Warm each engine up once, unrecorded, then the rounds, one process at a time."""
    if warm_up > 0:
        for engine in engines:
            run_pass(engine, 0, warm_up, timeout, core)
    return [[run_pass(engine, number, seconds, timeout, core) for engine in engines] for number in range(1, rounds + 1)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=cliargs.positive, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seconds", type=cliargs.seconds, default=12.0, help="CPU seconds a pass (default 12)")
    parser.add_argument(
        "--warm-up",
        type=cliargs.non_negative_number,
        default=1.5,
        help="unrecorded seconds per engine first (default 1.5)",
    )
    parser.add_argument(
        "--timeout", type=cliargs.seconds, help="wall seconds before a pass counts as hung (default 3x + 60)"
    )
    parser.add_argument("--peer", action="append", choices=sorted(BUILT_IN), help="a built-in peer (default: all)")
    parser.add_argument("--peer-command", action="append", default=[], metavar="NAME=COMMAND", help="another peer")
    parser.add_argument("--json", action="store_true", help="print a JSON object instead of the table")
    parser.add_argument("--reference-pass", type=cliargs.positive_number, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.reference_pass is not None:
        print(json.dumps(reference_pass(args.reference_pass)))
        return 0
    try:
        extra = [command_engine(text) for text in args.peer_command]
    except ValueError as error:
        parser.error(str(error))
    chosen = [BUILT_IN[name]() for name in (args.peer or ([] if extra else sorted(BUILT_IN)))] + extra
    skipped = {engine.name: engine.missing for engine in chosen if engine.missing}
    peers = [engine for engine in chosen if not engine.missing]
    core = min(os.sched_getaffinity(0)) if sys.platform == "linux" and shutil.which("taskset") else None
    report = Report([], skipped, core, args.seconds)
    if peers:
        timeout = args.timeout if args.timeout else 3 * args.seconds + 60
        report.rounds = measure([reference_engine(), *peers], args.rounds, args.seconds, args.warm_up, timeout, core)
    print(json.dumps(report.to_json(), indent=2) if args.json else table(report))
    if not peers:
        return 2
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
