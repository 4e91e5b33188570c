"""The progress of a run on stderr: a bar rewritten in place on a terminal; in a log (stderr not a terminal) at
most one plain line a minute, with no carriage return; nothing at all with --no-progress."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from canasta_ref.cli import main
from canasta_ref.conformance.report import Progress
from canasta_ref.conformance.runner import Result

SCENARIO = Path(__file__).resolve().parents[2] / "conformance/scenarios/eleven-cards-dealt-to-each-player.yaml"


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def ticking(step: float) -> Iterator[float]:
    """A clock advancing ``step`` seconds at each reading."""
    now = 0.0
    while True:
        yield now
        now += step


def run(progress: Progress, total: int) -> None:
    for done in range(1, total + 1):
        progress(done, total, Result(f"case-{done}", "classic", "failed" if done % 10 == 0 else "passed"))


def test_in_a_log_a_plain_line_a_minute_at_most() -> None:
    log, clock = io.StringIO(), ticking(1.0)
    run(Progress(log, clock=lambda: next(clock)), 200)  # one test a second: 200 s
    assert "\r" not in log.getvalue()
    assert log.getvalue().splitlines() == [
        "60 of 200 tests run, 6 bad",
        "120 of 200 tests run, 12 bad",
        "180 of 200 tests run, 18 bad",
    ]


def test_a_short_run_in_a_log_writes_nothing() -> None:
    log, clock = io.StringIO(), ticking(0.1)
    run(Progress(log, clock=lambda: next(clock)), 500)  # 50 s
    assert log.getvalue() == ""


def test_on_a_terminal_the_bar_is_rewritten_in_place() -> None:
    screen, clock = Terminal(), ticking(0.1)
    run(Progress(screen, width=10, clock=lambda: next(clock)), 20)
    text = screen.getvalue()
    assert text.count("\r") == 20 and text.endswith("\r[##########] 20/20  2 bad \n"), text


@pytest.mark.parametrize("silenced", [False, True])
def test_no_progress_silences_the_bar_of_the_command(monkeypatch: pytest.MonkeyPatch, silenced: bool) -> None:
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    out = io.StringIO()
    extra = ["--no-progress"] if silenced else []
    code = main(["conform", "--scenarios", str(SCENARIO), "--variant", "classic", "--no-saved-games", *extra], out)
    assert code == 0, out.getvalue()
    assert ("\r[" in screen.getvalue()) is not silenced and (screen.getvalue() == "") is silenced, screen.getvalue()


def test_the_command_writes_no_bar_into_a_log(monkeypatch: pytest.MonkeyPatch) -> None:
    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    out = io.StringIO()
    assert main(["conform", "--scenarios", str(SCENARIO), "--variant", "classic", "--no-saved-games"], out) == 0
    assert log.getvalue() == "", log.getvalue()  # a run shorter than a minute says nothing in a log
    assert out.getvalue().splitlines()[-1] == "1 passed, 0 failed"
