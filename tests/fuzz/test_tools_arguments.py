"""Every option of every ``tools/`` script takes the care the command line takes: a bad value is refused before
any work, with argparse's exit status 2 and one line naming the option and what was expected, never a traceback.

Each case calls the script's ``main`` in this process (as ``load_tool`` loads it), in a fresh folder holding
``folder/`` (a folder) and ``pipe.yaml`` (a FIFO, which no script may wait on); one case runs a script as a
process, end to end.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"

#: (script, arguments, what the error line says after ``error: ``).
CASES: list[tuple[str, list[str], str]] = [
    ("bench", ["--variant", "klassik"], "argument --variant: unknown variant 'klassik' (did you mean 'classic'?)"),
    ("bench", ["--variant", "pipe.yaml"], "argument --variant: pipe.yaml is a named pipe (FIFO), not a regular file"),
    ("bench", ["--hands", "0"], "argument --hands: expected one or more, not 0"),
    ("bench", ["--seed", "x"], "argument --seed: invalid int value: 'x'"),
    ("bench", ["--repeat", "-1"], "argument --repeat: expected one or more, not -1"),
    ("bench", ["--warm-loads", "x"], "argument --warm-loads: expected a whole number, not 'x'"),
    ("bench", ["--clock", "moon"], "argument --clock: invalid choice: 'moon'"),
    ("bench", ["--policy", "x"], "argument --policy: invalid choice: 'x'"),
    ("bench", ["--core", "moon"], "argument --core: invalid choice: 'moon'"),
    ("bench", ["--warm-up", "-2"], "argument --warm-up: expected zero or more, not -2"),
    ("bench", ["--json", "x"], "unrecognized arguments: x"),
    ("bench_abuse", ["--only", "no-such"], "argument --only: no case's name contains 'no-such'; the cases: check: "),
    ("bench_abuse", ["--json", "missing/dir/x.json"], "argument --json: cannot write 'missing/dir/x.json': the folder"),
    ("bench_abuse", ["--json", "folder"], "argument --json: 'folder' is a folder; give the name of a file to write"),
    ("bench_abuse", ["--limit-mib", "nan"], "argument --limit-mib: expected a positive, finite number, not 'nan'"),
    ("bench_abuse", ["--limit-seconds", "-1"], "argument --limit-seconds: expected a positive, finite number of seco"),
    ("bench_browser", ["--site", "missing"], "argument --site: no folder 'missing'; give a folder"),
    ("bench_browser", ["--later", "0"], "argument --later: expected one or more, not 0"),
    ("check_live_pages", ["--site", "pipe.yaml"], "argument --site: not a folder 'pipe.yaml'; give a folder"),
    ("check_live_pages", ["--per-variant", "x"], "argument --per-variant: expected a whole number, not 'x'"),
    ("bench_campaign", ["--games", "0"], "argument --games: expected one or more, not 0"),
    ("bench_campaign", ["--workers", "0"], "argument --workers: expected numbers of workers such as 1,2, not '0'"),
    ("bench_campaign", ["--rounds", "0"], "argument --rounds: expected one or more, not 0"),
    ("bench_campaign", ["--seed", "x"], "argument --seed: invalid int value: 'x'"),
    ("bench_campaign", ["--engine", "no-such-program -v"], "argument --engine: cannot run 'no-such-program -v': no"),
    ("bench_campaign", ["--overhead-games", "-1"], "argument --overhead-games: expected one or more, not -1"),
    ("bench_campaign", ["--memory-games", "x"], "argument --memory-games: expected a whole number, not 'x'"),
    ("bench_campaign", ["--timeout", "nan"], "argument --timeout: expected a positive, finite number of seconds"),
    ("bench_campaign", ["--json", "missing/x.json"], "argument --json: cannot write 'missing/x.json'"),
    ("bench_campaign", ["--variant", "nope"], "argument --variant: invalid choice: 'nope' (choose from 'bolivia',"),
    ("bench_conformance", ["--serve", "python3 'x"], 'argument --serve: cannot split "python3 \'x" into words'),
    ("bench_conformance", ["--serve", "no-such-program -v"], "argument --serve: cannot run 'no-such-program -v': no"),
    ("bench_conformance", ["--scenarios", "pipe.yaml"], "argument --scenarios: pipe.yaml:1:1: cannot read the scenari"),
    ("bench_conformance", ["--scenarios", "missing.yaml"], "argument --scenarios: missing.yaml:1:1: cannot read"),
    ("bench_conformance", ["--variant", "klassik"], "argument --variant: unknown variant 'klassik' (did you mean"),
    ("bench_conformance", ["--repeat", "0"], "argument --repeat: expected one or more, not 0"),
    ("bench_conformance", ["--games", "-1"], "argument --games: expected zero or more, not -1"),
    ("bench_conformance", ["--seed", "x"], "argument --seed: invalid int value: 'x'"),
    ("bench_conformance", ["--timeout", "nan"], "argument --timeout: expected a positive, finite number of seconds"),
    ("bench_conformance", ["--json", "missing/x.json"], "argument --json: cannot write 'missing/x.json'"),
    ("bench_core", ["--variant", "klassik"], "argument --variant: unknown variant 'klassik' (did you mean 'classic'"),
    ("bench_core", ["--hands", "0"], "argument --hands: expected one or more, not 0"),
    ("bench_core", ["--seed", "x"], "argument --seed: invalid int value: 'x'"),
    ("bench_core", ["--repeat", "-1"], "argument --repeat: expected one or more, not -1"),
    ("bench_core", ["--clock", "moon"], "argument --clock: invalid choice: 'moon'"),
    ("bench_core", ["--calls", "0", "--draw"], "argument --calls: expected one or more, not 0"),
    ("bench_core", ["--warm-up", "-1", "--draw"], "argument --warm-up: expected zero or more, not -1"),
    ("prove_core", ["--games", "0"], "argument --games: expected one or more, not 0"),
    ("prove_core", ["--variant", "klassik"], "argument --variant: unknown variant 'klassik' (did you mean 'classic'"),
    ("prove_core", ["--seed", "x"], "argument --seed: invalid int value: 'x'"),
    ("bench_peers", ["--rounds", "0"], "argument --rounds: expected one or more, not 0"),
    ("bench_peers", ["--seconds", "nan"], "argument --seconds: expected a positive, finite number of seconds"),
    ("bench_peers", ["--warm-up", "-1"], "argument --warm-up: expected a finite number, zero or more, not '-1'"),
    ("bench_peers", ["--timeout", "0"], "argument --timeout: expected a positive, finite number of seconds, not '0'"),
    ("bench_peers", ["--peer", "nope"], "argument --peer: invalid choice: 'nope'"),
    ("bench_peers", ["--peer-command", "x"], "--peer-command 'x': expected NAME=COMMAND"),
    ("bench_peers", ["--peer-command", "a=python3 'x"], '--peer-command "a=python3 \'x": No closing quotation'),
    ("bench_peers", ["--reference-pass", "-1"], "argument --reference-pass: expected a positive, finite number"),
    ("bench_peers", ["--core", "rust"], "argument --core: invalid choice: 'rust'"),
    ("bench_scaling", ["--cards", "1000"], "--cards: classic has only 101 cards to deal to one hand, not 1000"),
    ("bench_scaling", ["--cards", "-3"], "argument --cards: expected one or more, not -3"),
    ("bench_scaling", ["--cards", "x"], "argument --cards: expected a whole number, not 'x'"),
    (
        "bench_scaling",
        ["--variant", "klassik"],
        "argument --variant: unknown variant 'klassik' (did you mean 'classic'",
    ),
    ("bench_scaling", ["--repeat", "0"], "argument --repeat: expected one or more, not 0"),
    ("bench_scaling", ["--cap", "0"], "argument --cap: expected a positive, finite number, not '0'"),
    ("bench_scaling", ["--clock", "sun"], "argument --clock: invalid choice: 'sun'"),
    ("bench_scaling", ["--core", "rust"], "argument --core: invalid choice: 'rust'"),
    ("conform_adapters", ["--games", "-1"], "argument --games: expected zero or more, not -1"),
    ("conform_adapters", ["--engine", "x"], "argument --engine: invalid choice: 'x'"),
    ("bench_generated", ["--games", "0"], "argument --games: expected one or more, not 0"),
    ("bench_generated", ["--seed", "x"], "argument --seed: invalid int value: 'x'"),
    ("bench_generated", ["--variant", "klassik"], "argument --variant: unknown variant 'klassik' (did you mean"),
    ("bench_generated", ["--rounds", "0"], "argument --rounds: expected one or more, not 0"),
    ("bench_generated", ["--baseline", "folder"], "argument --baseline: no canasta_ref package in 'folder'; give the"),
    ("bench_generated", ["--baseline", "pipe.yaml"], "argument --baseline: not a folder 'pipe.yaml'; give a folder"),
    ("bench_generated", ["--core", "moon"], "argument --core: invalid choice: 'moon'"),
    ("bench_generated", ["--starts", "-1"], "argument --starts: expected zero or more, not -1"),
    ("bench_generated", ["--timeout", "nan"], "argument --timeout: expected a positive, finite number of seconds"),
    ("bench_generated", ["--json", "missing/x.json"], "argument --json: cannot write 'missing/x.json'"),
    ("gen_docs", ["--reports", "missing"], "argument --reports: no folder 'missing'; give a folder"),
    ("gen_docs", ["--reports", "pipe.yaml"], "argument --reports: not a folder 'pipe.yaml'; give a folder"),
    ("mutants", ["--variant", "klassik"], "argument --variant: unknown variant 'klassik' (did you mean 'classic'?)"),
    ("mutants", ["--kind", "x"], "argument --kind: invalid choice: 'x'"),
    ("mutants", ["--only", "NO.SUCH"], "argument --only: no mutant's target starts with 'NO.SUCH'"),
    ("mutants", ["--scenarios", "pipe.yaml"], "argument --scenarios: pipe.yaml:1:1: cannot read the scenario file: "),
    ("mutants", ["--level", "y"], "argument --level: invalid choice: 'y'"),
    ("mutants", ["--jobs", "0"], "argument --jobs: expected one or more, not 0"),
    ("mutants", ["--timeout", "nan"], "argument --timeout: expected a positive, finite number of seconds, not 'nan'"),
    ("mutants", ["--serve", "python3 'x"], 'argument --serve: cannot split "python3 \'x" into words'),
    ("mutants", ["--games", "-1"], "argument --games: expected zero or more, not -1"),
    ("mutants", ["--seed", "x"], "argument --seed: invalid int value: 'x'"),
    ("mutants", ["--json", "missing/x.json"], "argument --json: cannot write 'missing/x.json'"),
    ("mutants", ["--min-score", "101"], "argument --min-score: expected a percentage from 0 to 100, not '101'"),
]


@pytest.fixture
def strange_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe.yaml")
    return tmp_path


@pytest.mark.parametrize(("tool", "argv", "says"), CASES, ids=[f"{t} {' '.join(a)}" for t, a, _ in CASES])
def test_a_bad_option_is_one_line_and_exit_2(
    tool: str,
    argv: list[str],
    says: str,
    strange_folder: Path,
    load_tool: Callable[[str], ModuleType],
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        load_tool(tool).main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    last = err.rstrip().splitlines()[-1]
    assert last.split(" error: ", 1)[-1].startswith(says), last


def test_build_native_refuses_an_unknown_option(
    load_tool: Callable[[str], ModuleType], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """It reads sys.argv itself, and has one option: anything else stops it before it removes the build."""
    monkeypatch.setattr(sys, "argv", ["build_native.py", "--clena"])
    with pytest.raises(SystemExit) as exit_:
        load_tool("build_native").main()
    assert exit_.value.code == 2 and "unrecognized arguments: --clena" in capsys.readouterr().err


class _Parsed(Exception):
    """Raised in place of parsing, once the script has built its parser."""


def _parser_of(tool: str, load_tool: Callable[[str], ModuleType], monkeypatch: pytest.MonkeyPatch) -> Any:
    """The argument parser a script's ``main`` builds, taken as it is about to parse (so nothing runs)."""
    built: list[argparse.ArgumentParser] = []

    def take(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        built.append(self)
        raise _Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", take)
    with pytest.raises(_Parsed):
        load_tool(tool).main()
    return built[0]


@pytest.mark.parametrize("script", sorted(TOOLS.glob("*.py")), ids=lambda path: path.name)
def test_every_option_of_every_tool_has_a_case(
    script: Path, load_tool: Callable[[str], ModuleType], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new option that takes a value gets a case here (flags take none; hidden options are the ones a script
    passes to itself)."""
    tried = {argv[0] for tool, argv, _ in CASES if tool == script.stem}
    parser = _parser_of(script.stem, load_tool, monkeypatch)
    options = [
        action.option_strings[-1]
        for action in parser._actions
        if action.option_strings and action.nargs != 0 and action.help != argparse.SUPPRESS
    ]
    assert [option for option in options if option not in tried] == []


def test_the_issues_command_ends_in_one_message_as_a_process(strange_folder: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(TOOLS / "bench_scaling.py"), "--cards", "1000"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == (
        "bench_scaling.py: error: --cards: classic has only 101 cards to deal to one hand, not 1000"
    )
