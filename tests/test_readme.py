"""The README's examples are true: its Python runs, its dispute is what `canasta-ref explain` prints, and each
command line of its code blocks runs as written (an engine of one's own stood in for by the reference)."""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from canasta_ref.cli import main

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

#: The engine of one's own the README runs ("./my-engine ..."): the reference, through the protocol.
ENGINE = f"{shlex.quote(sys.executable)} -m canasta_ref.cli serve"
#: A small selection keeps a run of the whole suite or a campaign within seconds; it is appended to the line as
#: written, so every option of the README's line is still parsed and used (a later --games overrides the first).
SMALL = ["--variant", "classic-2p", "--rule", "PILE.TAKE.FROZEN", "--no-progress"]
GAMES = ["--games", "2", "--variant", "fournier", "--no-progress", "--shrink-seconds", "1"]

#: Each canasta-ref or pytest line of the README: what is appended to it here, and what its output must say.
RUNS: dict[str, tuple[list[str], str]] = {
    'canasta-ref conform --impl "./my-engine --canasta" --json report.json': (SMALL, r"\d+ passed, 0 failed"),
    'canasta-ref conform --impl "./my-engine" --games 200 --seed 7 --perft': (GAMES, r"\d+ passed, 0 failed"),
    'canasta-ref conform --impl "./my-engine" --games 50 --no-scenarios': (GAMES, r"\d+ passed, 0 failed"),
    'canasta-ref conform --impl "./my-engine" --write-known-failures known.yaml': (
        SMALL,
        r"wrote 0 known failures to known.yaml",
    ),
    'canasta-ref conform --impl "./my-engine" --known-failures known.yaml': (SMALL, r"\d+ passed, 0 failed"),
    'pytest --canasta-impl "./my-engine"': (
        ["--canasta-variant", "classic-2p", "-k", "PILE.TAKE.FROZEN", "-p", "no:cacheprovider"],
        r"\d+ passed",
    ),
    'canasta-ref conform --impl "./my-engine" --games 10000 --no-scenarios --shard 1/2 --json part1.json': (
        GAMES,
        r"generated games \(seed 0, games 1 to 1\): 1 of 1 played",
    ),
    'canasta-ref conform --impl "./my-engine" --games 10000 --no-scenarios --shard 2/2 --json part2.json': (
        GAMES,
        r"generated games \(seed 0, games 2 to 2\): 1 of 1 played",
    ),
    "canasta-ref report merge part1.json part2.json -o campaign.json": (
        [],
        r"generated games \(seed 0\): 2 of 2 played",
    ),
    'canasta-ref conform --impl "./my-engine" --games 10000 --no-scenarios --workers 2': (
        [*GAMES, "--timeout", "60"],
        r"\d+ passed, 0 failed",
    ),
    'pytest --canasta-impl "./my-engine" --canasta-games 200 -n 4': (
        [
            "--canasta-variant",
            "fournier",
            "--canasta-games",
            "2",
            "-k",
            "generated",
            "-n",
            "2",
            "--canasta-timeout",
            "60",
        ],
        r"2 passed",
    ),
    'canasta-ref perft classic-seed-3 --impl "./my-engine"': ([], r"perft-classic-seed-3 \[classic\]: passed"),
    "canasta-ref coverage": (["--variant", "classic-2p"], r"classic-2p: (\d+) of \1 clauses covered on every side"),
    "canasta-ref play --variant classic --seed 7 --bots greedy,random,greedy,random --log match.txt": (
        [],
        r"(win the match|drawn)",
    ),
    "canasta-ref rules classic-2p": ([], r"GO_OUT.CANASTAS \[from classic-2p\]: Two canastas to go out"),
    "canasta-ref check spec/my-house.yaml": ([], r"spec/my-house.yaml: ok"),
    "canasta-ref new our-table.yaml --extends classic": ([], r"^our-table.yaml: wrote variant our-table, "),
    "canasta-ref check our-table.yaml": ([], r"^our-table.yaml: ok$"),
    "canasta-ref rules our-table.yaml": ([], r"^Our house rules \(Classic Canasta\) \(our-table\); lineage: "),
    'canasta-ref show --seed 3 --actions "draw; discard KH" --seat 1': ([], r"^East's view; East to act \(draw\)"),
    'canasta-ref legal --seed 3 --actions "draw"': ([], r"\n16 legal actions\n$"),
    "canasta-ref hooks": ([], r"meld.valid \(require\)"),
    "canasta-ref --version": ([], r"^canasta-ref \d+\.\d+\.\d+\nengine: "),
    # The engines' checkouts are not here (nor in CI): each is reported skipped, saying where to get it.
    "python tools/conform_adapters.py": (
        [],
        r'"engine": "cos", "status": "skipped", "reason": "cos engine not found',
    ),
}
#: Where the adapted engines would be: nowhere, so that the README's line runs in seconds whatever is installed.
NO_ENGINES = {"COS_ENGINE": "/nonexistent/cos", "FEUD_ENGINE": "/nonexistent/feud"}
#: The other lines, each run where it belongs: (the file that runs it, a text that file must hold).
ELSEWHERE = {
    "tools/setup.sh && .venv/bin/canasta-ref play --seed 1": (".ci/run", "tools/setup.sh"),
    "tools/setup.sh && tools/test.sh": (".ci/run", "tools/test.sh"),
    "python tools/mutants.py": ("tests/conformance/test_runner.py", "mutants.main(["),
    # A Dask scheduler is not here: the same run on a local cluster of two workers is a test of its own.
    'canasta-ref conform --impl "./my-engine" --games 10000 --no-scenarios --dask tcp://scheduler:8786': (
        "tests/conformance/test_campaign_workers.py",
        "dask_executors(cluster.scheduler_address)",
    ),
}

#: The console example, checked paragraph by paragraph by test_dispute_output_is_current.
EXPLAIN = "canasta-ref explain dispute-one-card-pile --variant classic"

#: The house spec `canasta-ref check spec/my-house.yaml` lints.
MY_HOUSE = """\
spec: 1
id: my-house
name: My House Canasta
description: Classic with thirteen cards dealt.
extends: classic
parameters:
  cards_dealt:
    value: 13
    sources: [{source: gamedesire, quote: "they are dealt 13 cards"}]
"""


def command_lines() -> list[str]:
    """Each command line of the README's sh blocks and `$ ` lines of its console blocks, without its comment."""
    lines = []
    for language, body in re.findall(r"```(sh|console)\n(.*?)```", README, re.S):
        for line in body.splitlines():
            if language == "console" and not line.startswith("$ "):
                continue
            command = line.removeprefix("$ ").split("  #")[0].strip()
            if command:
                lines.append(command)
    return lines


def test_every_command_line_is_run_by_a_test() -> None:
    assert set(command_lines()) == {*RUNS, *ELSEWHERE, EXPLAIN}
    for file, text in ELSEWHERE.values():
        assert text in (ROOT / file).read_text(encoding="utf-8"), file


def _engine_of_ones_own(words: list[str]) -> list[str]:
    return [ENGINE if word.startswith("./my-engine") else word for word in words]


def _canasta_ref(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    out = io.StringIO()
    try:
        code = main(argv, out)
    except SystemExit as stop:  # --version: argparse prints and exits
        code = int(stop.code or 0)
    return code, out.getvalue() + capsys.readouterr().out


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for the README's lines in order: known.yaml is written by one line and read by the next."""
    here = tmp_path_factory.mktemp("readme")
    (here / "spec").mkdir()
    (here / "spec" / "my-house.yaml").write_text(MY_HOUSE, encoding="utf-8")
    (here / "known.yaml").write_text("known_failures: {}\n", encoding="utf-8")  # until the README's line writes it
    return here


@pytest.mark.parametrize("line", [line for line in command_lines() if line in RUNS])
def test_command_line_runs(
    line: str, folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(folder)
    extra, expected = RUNS[line]
    program, *argv = _engine_of_ones_own(shlex.split(line))
    if program in ("pytest", "python"):
        command = [sys.executable, *(["-m", "pytest"] if program == "pytest" else []), *argv, *extra]
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))  # this checkout's package
        env = {**os.environ, **NO_ENGINES, "PYTHONPATH": path}
        cwd = ROOT if program == "python" else folder  # tools/ lines run from the checkout, as the README's do
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=cwd, env=env)
        code, out = done.returncode, done.stdout
    else:
        code, out = _canasta_ref([*argv, *extra], capsys)
    assert code == 0, out
    assert re.search(expected, out, re.M), out


def test_python_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    block = re.search(r"```python\n(.*?)```", README, re.S)
    assert block is not None
    exec(compile(block.group(1), "README.md", "exec"), {})
    assert capsys.readouterr().out == "TURN.ONE_DRAW You have already drawn this turn.\n"


def test_dispute_output_is_current() -> None:
    block = re.search(rf"\$ {EXPLAIN}\n(.*?)```", README, re.S)
    assert block is not None
    out = io.StringIO()
    assert main(["explain", "dispute-one-card-pile", "--variant", "classic"], out) == 0
    actual = out.getvalue()
    for paragraph in block.group(1).strip().split("\n\n"):
        assert paragraph in actual, f"README paragraph no longer printed:\n{paragraph}"
