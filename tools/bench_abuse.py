"""Benchmark the worst inputs canasta-ref is known to be fed: how long each takes and how much memory it needs.

    python tools/bench_abuse.py [--only NAME] [--json FILE] [--limit-mib 1024] [--limit-seconds 60]

Each case is a command run in a fresh process (``canasta-ref check`` on a YAML bomb, ``serve`` fed a line nested
100,000 deep, ``conform`` against an engine that floods its stderr, ...), given its input in a temporary
folder. The table gives, per case, the exit status, the wall-clock seconds and the process's peak resident
memory (from ``os.wait4``, so only that process and not this script). A case over ``--limit-mib`` or
``--limit-seconds`` is marked OVER and the script exits 1: memory is bounded by design, and this is where it
is measured, not in a timed test.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

CANASTA_REF = [sys.executable, "-m", "canasta_ref.cli"]
REPO = Path(__file__).resolve().parent.parent
CLASSIC = REPO / "spec" / "classic.yaml"
SCENARIO = REPO / "conformance" / "scenarios" / "dispute-one-card-pile.yaml"


@dataclass(frozen=True)
class Case:
    """A command and the files it needs, written into the case's folder before it runs (``stdin`` among them,
    if given: the file fed to its standard input). Files are made only when the case runs, so the process
    that starts it holds none of them."""

    name: str
    argv: list[str]
    files: Callable[[Path], None]


@dataclass
class Measure:
    name: str
    status: int
    seconds: float
    peak_mib: float
    output: str


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """Nested aliases: each level a list of ``width`` references to the one below (width**levels leaves)."""
    lines = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def _spec_with_expression(expression: str) -> str:
    """Classic's spec with one more clause whose condition is ``expression`` (to be written as classic.yaml:
    a spec's id must be its file's name)."""
    clause = (
        "  - id: ABUSE.EXPRESSION\n    section: turn\n    title: An abusive expression\n"
        '    text: An expression built to break the compiler.\n    sources: [{source: pagat-copy, quote: "x"}]\n'
        f"    hook: action.allowed\n    require: {expression}\n    message: x\n"
    )
    text = CLASSIC.read_text(encoding="utf-8")
    if "\nrules:\n" not in text:
        raise SystemExit(f"bench_abuse: {CLASSIC} has no 'rules:' line to add a clause under")
    return text.replace("\nrules:\n", "\nrules:\n" + clause, 1)


def _write(name: str, make: Callable[[], str | bytes]) -> Callable[[Path], None]:
    def write(folder: Path) -> None:
        data = make()
        (folder / name).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)

    return write


def _engine(script: str) -> Callable[[Path], None]:
    """A broken engine: a Python script answering ``hello`` as a real engine would, then misbehaving."""
    hello = (
        "import json, sys\n"
        "CAPABILITIES = {'setup_position': True, 'parameters': True, 'legal': 'list', 'rule_ids': True,"
        " 'views': True, 'score': True, 'undo': True}\n"
        "line = sys.stdin.readline()\n"
        "print(json.dumps({'id': json.loads(line)['id'], 'ok': True, 'name': 'x', 'version': '1', 'protocol': 1,"
        " 'variants': ['classic'], 'capabilities': CAPABILITIES}), flush=True)\n"
    )
    return _write("engine.py", lambda: hello + script)


def _conform(timeout: str = "2") -> list[str]:
    engine = shlex.join([sys.executable, "engine.py"])
    return [*CANASTA_REF, "conform", "--impl", engine, "--rule", "TURN.ORDER", "--timeout", timeout, "--no-progress"]


def cases() -> list[Case]:
    deep = "[" * 100_000 + "]" * 100_000
    serve = [*CANASTA_REF, "serve"]
    return [
        Case("check: alias bomb (9 x 9 levels)", [*CANASTA_REF, "check", "bomb.yaml"], _write("bomb.yaml", alias_bomb)),
        Case("check: 100,000 nested lists", [*CANASTA_REF, "check", "d.yaml"], _write("d.yaml", lambda: deep + "\n")),
        Case(
            "check: 1,000 nested parentheses",
            [*CANASTA_REF, "check", "classic.yaml"],
            _write("classic.yaml", lambda: _spec_with_expression("(" * 1000 + "true" + ")" * 1000)),
        ),
        Case(
            "check: 5,000-digit integer",
            [*CANASTA_REF, "check", "classic.yaml"],
            _write("classic.yaml", lambda: _spec_with_expression("cards_in_hand < " + "9" * 5000)),
        ),
        Case(
            "check: 8 MiB file",
            [*CANASTA_REF, "check", "big.yaml"],
            _write("big.yaml", lambda: "# " + "x" * (8 << 20) + "\n"),
        ),
        Case(
            "explain: scenario alias bomb",
            [*CANASTA_REF, "explain", "bomb.yaml"],
            _write("bomb.yaml", lambda: SCENARIO.read_text(encoding="utf-8") + alias_bomb()),
        ),
        Case("serve: 100,000 nested lists", serve, _write("stdin", lambda: deep + "\n")),
        Case("serve: 64 MiB line", serve, _write("stdin", lambda: b"x" * (64 << 20) + b"\n")),
        Case(
            "conform: engine floods stderr (200 MiB)",
            _conform(),
            _engine("for _ in range(200): sys.stderr.write('e' * (1 << 20))\nimport time; time.sleep(30)\n"),
        ),
        Case(
            "conform: engine answers a 200 MiB line",
            _conform(),
            _engine("for _ in range(200): sys.stdout.write('x' * (1 << 20))\nimport time; time.sleep(30)\n"),
        ),
        Case(
            "conform: engine answers nesting 100,000 deep",
            _conform(),
            _engine(f"sys.stdin.readline(); print({deep!r}, flush=True)\nimport time; time.sleep(30)\n"),
        ),
    ]


def measure(case: Case, folder: Path) -> Measure:
    """Run the case's command in ``folder`` (its files already written) and read its peak memory.

    RUSAGE_CHILDREN gives the largest peak among the processes this interpreter waited for, their children
    included; Linux also counts a child's memory at the moment it was forked from us. So this runs in an
    interpreter of its own per case, which has made none of the case's (possibly large) files. Broken engines
    write in small chunks, so the figure of a conformance run is canasta-ref's, not the engine's."""
    stdin = folder / "stdin"
    start = time.perf_counter()
    with open(stdin if stdin.exists() else os.devnull, "rb") as feed:
        done = subprocess.run(
            case.argv,
            cwd=folder,
            stdin=feed,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            check=False,
        )
    seconds = time.perf_counter() - start
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    lines = done.stdout.decode("utf-8", "replace").strip().splitlines()
    return Measure(case.name, done.returncode, seconds, peak_mib, _gist(lines)[:150])


def _gist(lines: list[str]) -> str:
    """What the command said, in one line: a conformance run's first failure, or its first unindented line
    (an error's snippet and caret follow it, indented)."""
    verdicts = [line for line in lines if line.startswith(("FAILED", "ERRORED", "TIMED OUT"))]
    plain = [line for line in lines if line and not line.startswith(" ")]
    return (verdicts or plain or [""])[0]


def _run_case(index: int, case: Case) -> Measure:
    """Write the case's files here, then measure it from a fresh interpreter (see ``measure``)."""
    with tempfile.TemporaryDirectory(prefix="canasta-abuse-") as name:
        case.files(Path(name))
        child = subprocess.run(
            [sys.executable, __file__, "--child", str(index), "--folder", name],
            capture_output=True,
            text=True,
            check=True,
        )
    return Measure(**json.loads(child.stdout))


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["--child"]:
        return _child(arguments)
    # Imported here, not at the top: the --child interpreter, whose size every case's peak counts, stays small.
    from canasta_ref.cliargs import output_file, positive_number, seconds

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    parser.add_argument("--json", metavar="FILE", type=output_file, help="also write the figures as JSON")
    parser.add_argument("--limit-mib", type=positive_number, default=1024.0, help="peak memory allowed a case (MiB)")
    parser.add_argument("--limit-seconds", type=seconds, default=60.0, help="time allowed a case (s)")
    args = parser.parse_args(arguments)
    chosen = [(index, case) for index, case in enumerate(cases()) if not args.only or args.only in case.name]
    if not chosen:
        names = "; ".join(case.name for case in cases())
        parser.error(f"argument --only: no case's name contains {args.only!r}; the cases: {names}")
    results = [_run_case(index, case) for index, case in chosen]
    over = False
    print(f"{'case':46} {'exit':>4} {'seconds':>8} {'peak MiB':>9}  what it said")
    for result in results:
        bad = result.peak_mib > args.limit_mib or result.seconds > args.limit_seconds
        over |= bad
        flag = " OVER" if bad else ""
        print(
            f"{result.name:46} {result.status:>4} {result.seconds:8.2f} {result.peak_mib:9.1f}  {result.output}{flag}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in results], indent=2), encoding="utf-8")
    return 1 if over else 0


def _child(arguments: list[str]) -> int:
    """``--child N --folder DIR``, as ``_run_case`` runs this script: measure case N in DIR, print it as JSON."""
    parser = argparse.ArgumentParser(prog="bench_abuse.py --child")
    parser.add_argument("--child", type=int, required=True)
    parser.add_argument("--folder", type=Path, required=True)
    args = parser.parse_args(arguments)
    print(json.dumps(asdict(measure(cases()[args.child], args.folder))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
