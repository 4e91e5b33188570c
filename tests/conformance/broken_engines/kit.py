"""Helpers for the conformance tests: commands for the reference and the broken engines, and a small suite.

The small suite is written into a test's tmp folder so the tests do not depend on the bundled scenarios,
which grow while other people work. Each scenario passes on the reference; each catches some broken engine.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PYTHON = shlex.quote(sys.executable)
BIN = Path(sys.executable).parent
CANASTA_REF_PATH = str(BIN / "canasta-ref") if (BIN / "canasta-ref").exists() else "canasta-ref"
CANASTA_REF = shlex.quote(CANASTA_REF_PATH)


def reference_command(*extra: str) -> str:
    """``canasta-ref serve`` (the venv's), with extra arguments such as ``--mutate-rule ID``."""
    return " ".join([CANASTA_REF, "serve", *map(shlex.quote, extra)])


def engine_command(name: str, *extra: str) -> str:
    """``python broken_engines/NAME.py`` with extra arguments (``--once FILE``)."""
    return " ".join([PYTHON, shlex.quote(str(HERE / f"{name}.py")), *map(shlex.quote, extra)])


def run_conform(*args: str, cwd: Path, timeout: float = 300) -> tuple[int, str, dict[str, Any]]:
    """``canasta-ref conform --no-progress --json report.json ARGS`` run in ``cwd``: its exit status (0 or 1, a
    run that found deviations or not), what it printed and its JSON report."""
    report = cwd / "report.json"
    report.unlink(missing_ok=True)
    done = subprocess.run(
        [CANASTA_REF_PATH, "conform", "--no-progress", "--json", str(report), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, done.stdout, json.loads(report.read_text(encoding="utf-8"))


def pids_of(file: Path) -> list[int]:
    """The process ids an engine started with ``--pid-file FILE`` wrote, one a line."""
    return [int(word) for word in file.read_text(encoding="utf-8").split()]


def running(pid: int) -> bool:
    """Whether a process of that id runs (a zombie, dead but not yet reaped by whoever adopted it, does not)."""
    try:
        os.kill(pid, 0)
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except (ProcessLookupError, FileNotFoundError):
        return False
    return stat.rsplit(")", 1)[-1].split()[0] not in ("Z", "X")


def survivors(file: Path, within: float = 3.0) -> list[int]:
    """The engine processes listed in ``file`` still running ``within`` seconds from now (a SIGKILL takes a
    moment to land)."""
    deadline = time.monotonic() + within
    while (left := [pid for pid in pids_of(file) if running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


FROZEN_POSITION = """\
  position:
    hands: ["KH JK 9C 9D 5S", "4C 4D 6S", "7C 7D 8H", "8C 8D 10H"]
    pile: "6H 2C KD"
    melds: [["QH QS QD"], []]
    to_act: 0
    phase: draw
"""

#: The variants the small suite is written for. Its scenarios also carry over to variants extending these (as a
#: scenario does when they change nothing it relies on); runs of it name these, so the results the tests expect do
#: not grow with every variant added.
KIT_VARIANTS = ("classic", "classic-2p")
#: The same, as ``canasta-ref conform`` arguments.
KIT_VARIANT_ARGS = ("--variant", "classic", "--variant", "classic-2p")
#: The same, as the pytest plugin's arguments.
KIT_PLUGIN_ARGS = ("--canasta-variant", "classic", "--canasta-variant", "classic-2p")

SCENARIOS: dict[str, str] = {
    # A refusal with a rule id, then an acceptance with a legal-list check (position set-up).
    "frozen-take": f"""\
scenario: 1
id: frozen-take
title: A frozen pile needs a natural pair
rules: [PILE.TAKE.FROZEN]
variants: [classic]
level: must
setup:
{FROZEN_POSITION}steps:
  - action: take KH JK
    expect: {{result: refused, rule: PILE.TAKE.FROZEN}}
  - action: draw
    expect: {{result: accepted, legal_includes: ["discard 5S"]}}
""",
    # A deal from a seed (no position): an engine without positions can run it.
    "seeded-turn-order": """\
scenario: 1
id: seeded-turn-order
title: Only the seat to act may draw
rules: [TURN.ORDER]
variants: [classic]
level: must
setup:
  deck: {seed: 7}
steps:
  - action: draw
    seat: 2
    expect: {result: refused, rule: TURN.ORDER}
  - action: draw
    seat: 0
    expect: {result: accepted}
""",
    # A view expectation of the seat's own hand: catches an engine that shows other seats' cards.
    "own-hand-view": f"""\
scenario: 1
id: own-hand-view
title: A seat sees its own hand, and only it
rules: [TURN.DRAW_FIRST]
variants: [classic]
level: must
setup:
{FROZEN_POSITION}steps:
  - action: discard 5S
    expect: {{result: refused, rule: TURN.DRAW_FIRST, view: {{seat: 0, hand: "KH JK 9C 9D 5S"}}}}
""",
    # Classic for two.
    "two-player-order": """\
scenario: 1
id: two-player-order
title: In the game for two, the second player waits
rules: [TURN.ORDER]
variants: [classic-2p]
level: must
setup:
  position:
    hands: ["KH KS 9C 9D 5S", "4C 4D 6S 7C"]
    pile: "6H"
    to_act: 0
    phase: draw
steps:
  - action: draw
    seat: 1
    expect: {result: refused, rule: TURN.ORDER}
""",
    # A parameter's other value (level alternative): the engine must be able to change parameters.
    "one-card-pile-forbidden": """\
scenario: 1
id: one-card-pile-forbidden
title: Under one_card_pile=forbid a single card cannot take a pile of one
rules: [PILE.TAKE.ONE_CARD]
variants: [classic]
level: alternative
parameters: {one_card_pile: forbid}
setup:
  position:
    hands: ["9C", "4C 4D 6S 7H", "5C 5D 8H 8S", "6C 6D 10H JS"]
    pile: "9D"
    melds: [["KH KS KD KC KH KS 2C", "9D 9H 9S"], []]
    to_act: 0
    phase: draw
steps:
  - action: take
    expect: {result: refused, rule: PILE.TAKE.ONE_CARD}
""",
}


def write_scenarios(folder: Path, names: tuple[str, ...] | None = None) -> Path:
    """Write the small suite (or some of it) into ``folder``; returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in SCENARIOS.items():
        if names is None or name in names:
            (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder
