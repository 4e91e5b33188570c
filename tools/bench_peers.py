"""canasta-ref's random play beside other engines', in one run: the ratio of hands per second, round by round.

    python tools/bench_peers.py [--rounds 3] [--seconds 12] [--peer feud] [--peer-command NAME=COMMAND]
        [--core python|native|both] [--json]

Absolute speeds on a shared machine move by a third from one hour to the next (research/perf-side-by-side.md), so
issue 15 compares engines by the ratio taken within a round. Each round runs canasta-ref, then each peer, one
process at a time, each pinned to the same core, each playing Classic for four at random for ``--seconds`` of its
own CPU time: a new hand a deal, a uniformly random choice among the listed actions, hands played to their end.
canasta-ref keeps one ``Rules`` for the pass, as a campaign would (the steady state of ``bench.py --warm-up``).
``--core native`` runs canasta-ref's native core instead (``canasta-ref-native``: the random-play loop in C,
``canasta_ref/core/play.py``, the same deals, choosing with the core's own generator), ``--core both`` runs both
engine lines, each with its ratio to each peer; the table then says the share of its actions the native core left
to Python.
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from conform_adapters import ALL as ADAPTERS

from canasta_ref import cliargs

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = "canasta-ref"
NATIVE = "canasta-ref-native"
#: The engine lines of canasta-ref that ``--core`` chooses.
OURS = {"python": (REFERENCE,), "native": (NATIVE,), "both": (REFERENCE, NATIVE)}
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
    #: The actions the native core left to Python (its pass alone prints them).
    python_actions: int | None = None

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    @property
    def microseconds_an_action(self) -> float:
        return 1e6 * self.cpu_seconds / self.actions if self.actions else 0.0


def reference_engine() -> Engine:
    return Engine(REFERENCE, (sys.executable, str(Path(__file__).resolve()), "--reference-pass"))


def native_engine() -> Engine:
    """canasta-ref's native core, or why it cannot run here (no library built, or Classic not covered)."""
    from canasta_ref import Rules, core
    from canasta_ref.core.play import RandomPlay
    from canasta_ref.spec import load_variant

    missing = None if core.available() else core.STATUS
    if missing is None:
        try:
            RandomPlay(Rules(load_variant("classic")))
        except core.CoreUnavailable as error:
            missing = str(error)
    return Engine(NATIVE, (sys.executable, str(Path(__file__).resolve()), "--native-pass"), missing=missing)


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
    found = Pass(engine, round_number, data["hands"], data["actions"], data["cpu_seconds"], data["wall_seconds"])
    python_actions = data.get("python_actions")
    if python_actions is not None and _count_or_measure(python_actions, whole=True):
        found.python_actions = python_actions
    return found


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


def round_ratio(passes: Sequence[Pass], peer: str, ours: str = REFERENCE) -> float | None:
    """``ours``'s hands per second over ``peer``'s in one round, None unless both passes gave figures."""
    by_name = {p.engine: p for p in passes if p.failure is None}
    if ours not in by_name or peer not in by_name:
        return None
    return by_name[ours].hands_per_second / by_name[peer].hands_per_second


@dataclass
class Report:
    rounds: list[list[Pass]]
    skipped: dict[str, str]
    core: int | None
    seconds: float

    def ratios(self, peer: str, ours: str = REFERENCE) -> list[float]:
        """``ours``'s hands per second over the peer's, in each round where both passes gave figures."""
        return [ratio for passes in self.rounds if (ratio := round_ratio(passes, peer, ours)) is not None]

    @property
    def ours(self) -> list[str]:
        """canasta-ref's engine lines that ran, in order."""
        ran = {p.engine for passes in self.rounds for p in passes}
        return [name for name in (REFERENCE, NATIVE) if name in ran]

    @property
    def peers(self) -> list[str]:
        return list(dict.fromkeys(p.engine for passes in self.rounds for p in passes if p.engine not in OURS["both"]))

    def python_share(self) -> float | None:
        """The share of the native core's actions that went to Python, over its passes, or None."""
        passes = [p for found in self.rounds for p in found if p.engine == NATIVE and p.python_actions is not None]
        actions = sum(p.actions for p in passes)
        return sum(p.python_actions or 0 for p in passes) / actions if actions else None

    @property
    def failures(self) -> list[Pass]:
        return [p for passes in self.rounds for p in passes if p.failure is not None]

    def to_json(self) -> dict[str, object]:
        ratios = {peer: self.ratios(peer) for peer in self.peers}
        native = {peer: self.ratios(peer, NATIVE) for peer in self.peers}
        extra: dict[str, object] = {}
        if NATIVE in self.ours:
            extra = {
                "native_ratios": {peer: [round(r, 4) for r in found] for peer, found in native.items()},
                "native_median_ratio": {peer: round(statistics.median(f), 4) for peer, f in native.items() if f},
                "native_python_share": self.python_share(),
            }
        return {
            **extra,
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
    engines = [*report.ours, *report.peers]
    pairs = [(ours, peer) for ours in report.ours for peer in report.peers]
    head = ["round", *(f"{name} hands/s" for name in engines), *(f"{ours} to {peer}" for ours, peer in pairs)]
    rows: list[list[str]] = []
    for number, passes in enumerate(report.rounds, 1):
        by_name = {p.engine: p for p in passes}
        cells = [str(number)]
        for name in engines:
            found = by_name.get(name)
            cells.append("-" if found is None or found.failure else f"{found.hands_per_second:,.1f}")
        for ours, peer in pairs:
            ratio = round_ratio(passes, peer, ours)
            cells.append("-" if ratio is None else f"{ratio:.3f}")
        rows.append(cells)
    medians = ["median", *("" for _ in engines)]
    medians += [f"{statistics.median(r):.3f}" if (r := report.ratios(peer, ours)) else "-" for ours, peer in pairs]
    rows.append(medians)
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    lines = [
        f"random play of Classic, {report.seconds:g} s of CPU time a pass, "
        + (f"pinned to cpu {report.core}" if report.core is not None else "unpinned"),
        "  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True)),
    ]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    lines += [_per_action(report, name) for name in engines if _per_action(report, name)]
    for name, why in report.skipped.items():
        lines.append(f"skipped {name}: {why}")
    for failed in report.failures:
        lines.append(f"round {failed.round}, {failed.engine}: {failed.failure}")
    return "\n".join(lines)


def _per_action(report: Report, engine: str) -> str:
    """An engine's median µs an action over its passes (and, for the native core, the share left to Python)."""
    found = [p.microseconds_an_action for passes in report.rounds for p in passes if p.engine == engine and p.actions]
    if not found:
        return ""
    share = report.python_share() if engine == NATIVE else None
    tail = "" if share is None else f", {100 * share:.1f} % of its actions chosen and applied from Python"
    return f"{engine}: {statistics.median(found):.2f} µs an action (median of its passes){tail}"


def reference_pass(seconds: float) -> dict[str, float]:
    """canasta-ref's pass: Classic, one Rules for the whole pass, hands dealt as a match deals them (seed 1),
    each action chosen by ``random.Random(1).choice`` from the listing, as ``tools/bench.py`` chooses."""
    from canasta_ref import Rules
    from canasta_ref.scaling import play_at_random
    from canasta_ref.spec import load_variant

    rules = Rules(load_variant("classic"))
    rng = random.Random(1)

    def reference_hand(number: int) -> tuple[int, int]:
        played = play_at_random(rules, (number,), rng, seed=1)
        return played, played  # every action the Python engine's

    return _hands_for(seconds, reference_hand)


def _hands_for(seconds: float, play_hand: Callable[[int], tuple[int, int]]) -> dict[str, float]:
    """Hands played one after another by ``play_hand`` (given the hand's number, it gives back the actions played
    and how many of them went to Python) for ``seconds`` of CPU time: the pass's figures."""
    hands = actions = in_python = 0
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    while time.process_time() - cpu_start < seconds:
        played, python = play_hand(hands)
        actions, in_python, hands = actions + played, in_python + python, hands + 1
    return {
        "hands": hands,
        "actions": actions,
        "cpu_seconds": time.process_time() - cpu_start,
        "wall_seconds": time.perf_counter() - wall_start,
        "python_actions": in_python,
    }


def native_pass(seconds: float) -> dict[str, float]:
    """canasta-ref's native core's pass: Classic, one Rules and one ``RandomPlay`` for the whole pass, hands dealt
    as ``reference_pass`` deals them, each played by the core's loop choosing with its own generator (seeded by
    the hand's number), among every action listed."""
    from canasta_ref import Rules
    from canasta_ref.core.play import RandomPlay
    from canasta_ref.match import hand_seed
    from canasta_ref.spec import load_variant

    play = RandomPlay(Rules(load_variant("classic")))

    def native_hand(number: int) -> tuple[int, int]:
        played = play.hand(hand_seed(1, number), number)
        return played.in_c + played.in_python, played.in_python

    return _hands_for(seconds, native_hand)


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
    parser.add_argument(
        "--core", choices=sorted(OURS), default="python", help="canasta-ref's engine lines (default python)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object instead of the table")
    parser.add_argument("--reference-pass", type=cliargs.positive_number, help=argparse.SUPPRESS)
    parser.add_argument("--native-pass", type=cliargs.positive_number, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.reference_pass is not None:
        print(json.dumps(reference_pass(args.reference_pass)))
        return 0
    if args.native_pass is not None:
        print(json.dumps(native_pass(args.native_pass)))
        return 0
    try:
        extra = [command_engine(text) for text in args.peer_command]
    except ValueError as error:
        parser.error(str(error))
    chosen = [BUILT_IN[name]() for name in (args.peer or ([] if extra else sorted(BUILT_IN)))] + extra
    skipped = {engine.name: engine.missing for engine in chosen if engine.missing}
    peers = [engine for engine in chosen if not engine.missing]
    core = min(os.sched_getaffinity(0)) if sys.platform == "linux" and shutil.which("taskset") else None
    ours = [reference_engine() if name == REFERENCE else native_engine() for name in OURS[args.core]]
    skipped.update({engine.name: engine.missing for engine in ours if engine.missing})
    ours = [engine for engine in ours if not engine.missing]
    report = Report([], skipped, core, args.seconds)
    if peers and ours:
        timeout = args.timeout if args.timeout else 3 * args.seconds + 60
        report.rounds = measure([*ours, *peers], args.rounds, args.seconds, args.warm_up, timeout, core)
    print(json.dumps(report.to_json(), indent=2) if args.json else table(report))
    if not peers or not ours:
        return 2
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
