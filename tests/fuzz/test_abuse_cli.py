"""Command-line arguments a stranger may type: each refused before any work, in one sentence, never a traceback.

The messages are what a person reads, so they are compared whole with ``golden/cli.txt`` (one block a case:
the command, the exit status, the last line written to stderr). Run with ``UPDATE_GOLDEN=1`` to rewrite it
after a deliberate change of wording, then read the diff.
"""

from __future__ import annotations

import io
import os
import shlex
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_ref.cli import main
from canasta_ref.conformance.scenario import scenario_dir

GOLDEN = Path(__file__).resolve().parent / "golden" / "cli.txt"

#: Each case runs in a fresh folder holding ``folder/`` (a folder), ``empty/`` (a folder of no scenarios),
#: ``one/`` (one scenario, of level must), ``pipe.yaml`` (a FIFO, which no command may wait on), and bad
#: known-failures files (``FILES``).
CASES: list[list[str]] = [
    ["play", "--log", "folder"],
    ["play", "--log", "missing/log.txt"],
    ["play", "--max-hands", "0"],
    ["play", "--bots", "clever"],
    ["play", "--variant", "klassik"],
    ["show", "--seat", "9"],
    ["show", "--seat", "-1"],
    ["legal", "--actions", "draw; discard ZZ"],
    ["rules", "folder"],
    ["conform", "--timeout", "nan"],
    ["conform", "--timeout", "-1"],
    ["conform", "--timeout", "soon"],
    ["conform", "--impl", "python 'engine.py"],
    ["conform", "--impl", ""],
    ["conform", "--variant", "klassik"],
    ["conform", "--rule", "NO.SUCH"],
    ["conform", "--rule", "PILE.TAKE.FROZN"],
    ["conform", "--scenarios", "empty"],
    ["conform", "--scenarios", "missing.yaml"],
    ["conform", "--known-failures", "missing.yaml"],
    ["conform", "--known-failures", "folder"],
    ["conform", "--known-failures", "malformed.yaml"],
    ["conform", "--known-failures", "shapeless.yaml"],
    ["conform", "--known-failures", "reasonless.yaml"],
    ["conform", "--known-failures", "escaping.yaml"],
    ["conform", "--json", "missing/report.json"],
    ["conform", "--json", "folder"],
    ["conform", "--write-known-failures", "folder"],
    ["conform", "--games", "-1"],
    ["conform", "--no-scenarios"],
    ["conform", "--scenarios", "one", "--level", "implementation-defined"],
    ["explain", "folder"],
    ["explain", "no-such-scenario"],
    ["explain", "pipe.yaml"],
    ["rules", "pipe.yaml"],
    ["conform", "--known-failures", "pipe.yaml"],
    ["conform", "--scenarios", "pipe.yaml"],
    ["serve", "--mutate-parameter", "x=[1"],
    ["serve", "--mutate-parameter", "packs=[1"],
    ["serve", "--mutate-parameter", "packs"],
    ["serve", "--mutate-rule", "NO.SUCH"],
    ["coverage", "--variant", "klassik"],
    ["coverage", "--json", "missing/coverage.json"],
]

FILES = {
    "malformed.yaml": "known_failures: [1\n",
    "shapeless.yaml": "known_failures: [a, b]\n",
    "reasonless.yaml": "known_failures:\n  dispute-one-card-pile: ''\n",
    "escaping.yaml": 'known_failures:\n  dispute-one-card-pile: "slow\\e[2J"\n',
}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The case as its golden block: the command, the exit status and the message on stderr (from its first
    line naming the program: argparse writes the usage before it)."""
    out = io.StringIO()
    try:
        code = main(argv, out)
    except SystemExit as exit_:  # argparse refuses an argument by exiting with status 2
        code = int(exit_.code or 0)
    lines = capsys.readouterr().err.rstrip().splitlines()
    first = next((n for n, line in enumerate(lines) if line.startswith("canasta-ref")), 0)
    message = "\n".join(lines[first:])
    return f"$ canasta-ref {shlex.join(argv)}\nexit {code}\n{message}\n"


def test_every_bad_argument_is_refused_before_the_work_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "empty").mkdir()
    (tmp_path / "one").mkdir()
    os.mkfifo(tmp_path / "pipe.yaml")
    shutil.copy(scenario_dir() / "dispute-one-card-pile.yaml", tmp_path / "one")
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    blocks = [_run(argv, capsys) for argv in CASES]
    actual = "\n".join(blocks)
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(actual, encoding="utf-8")
    for block in blocks:
        assert "\nexit 2\n" in block, block
        assert "Traceback" not in block and block.splitlines()[2].startswith("canasta-ref"), block
    assert actual == GOLDEN.read_text(encoding="utf-8")
    made = ["folder", "empty", "one", "pipe.yaml", *FILES]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(made), "wrote a file"


#: Words a stranger might give an option: sound ones, and ones of every wrong kind.
WORDS = ["1", "0", "-1", "nan", "1e309", "x", "", "folder", "missing/x", "'", "classic", "classic-2p", "TURN", "9"]
OPTIONS = {
    "show": ["--seat", "--seed", "--actions", "--variant"],
    "legal": ["--seed", "--actions", "--variant"],
    "explain": ["--variant", "--variants"],
    "conform": ["--rule", "--level", "--timeout", "--variant", "--impl", "--json", "--known-failures"],
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_arguments_never_raise(data: st.DataObject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir(exist_ok=True)
    command = data.draw(st.sampled_from(sorted(OPTIONS)))
    argv = [command]
    if command == "explain":
        argv.append(data.draw(st.sampled_from(["dispute-one-card-pile", "folder", "x"])))
    if command == "conform":
        argv += ["--scenarios", str(scenario_dir() / "dispute-one-card-pile.yaml"), "--no-progress"]
    for option in data.draw(st.lists(st.sampled_from(OPTIONS[command]), max_size=3, unique=True)):
        argv += [option, data.draw(st.sampled_from(WORDS))]
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    try:
        code = main(argv, io.StringIO())
    except SystemExit as exit_:
        code = exit_.code  # argparse: a refused argument
    assert code in (0, 1, 2), (argv, code)
    if code == 2:
        assert any(line.startswith("canasta-ref") for line in err.getvalue().splitlines()), (argv, err.getvalue())
