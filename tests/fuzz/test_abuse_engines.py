"""``canasta-ref conform`` against engines broken by definition, end to end: whatever the engine does (closes its
output and lives on, answers too deep, too long or of the wrong type, floods its stderr, hangs behind a wrapper
script, plays nothing, leaks hidden cards in extra view fields), the run finishes, writes its JSON report naming
the failure, keeps that report small, and exits non-zero.

The engines are ``tests/conformance/broken_engines/abuse.py MODE``; see its docstring.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from canasta_ref.cli import main

BROKEN = Path(__file__).resolve().parents[1] / "conformance" / "broken_engines"
if str(BROKEN.parent) not in sys.path:
    sys.path.insert(0, str(BROKEN.parent))

from broken_engines.kit import KIT_VARIANT_ARGS, engine_command, survivors, write_scenarios  # noqa: E402 - the kit lives beside the engines


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_scenarios(tmp_path_factory.mktemp("scenarios"), ("frozen-take", "seeded-turn-order"))


def conform(tmp_path: Path, impl: str, *args: str) -> tuple[int, dict[str, Any], int]:
    """``conform --impl IMPL ARGS --json r.json``: the exit status, the report and the report's size in bytes."""
    report = tmp_path / "r.json"
    code = main(["conform", "--impl", impl, "--json", str(report), "--no-progress", *KIT_VARIANT_ARGS, *args])
    text = report.read_text(encoding="utf-8")
    return code, json.loads(text), len(text.encode())


def abuse(mode: str, *extra: str) -> str:
    return engine_command("abuse", mode, *extra)


def bad(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in report["results"] if r["status"] != "passed"]


# One engine of each class (tests/conformance/test_abuse.py has the others): (mode, extra arguments, status,
# what the message says). Each misbehaves once; the second scenario runs on the restarted engine.
CLASSES = [
    ("close-stdout", (), "errored", "the engine closed its output but is still running"),
    ("nested", (), "errored", "nested too deep"),
    ("accepted-text", (), "failed", "not true or false"),
    ("view-hands", (), "failed", "the protocol does not define: 'hands'"),
]


@pytest.mark.parametrize(("mode", "extra", "status", "says"), CLASSES, ids=[c[0] for c in CLASSES])
def test_conform_reports_the_broken_engine_and_exits_non_zero(
    suite: Path, tmp_path: Path, mode: str, extra: tuple[str, ...], status: str, says: str
) -> None:
    once = ("--once", str(tmp_path / "once"))
    code, report, size = conform(tmp_path, abuse(mode, *once, *extra), "--scenarios", str(suite), "--timeout", "5")
    assert code == 1
    (first, *_) = bad(report)
    assert (first["scenario"], first["status"]) == ("frozen-take", status)
    assert says in first["message"]
    assert size < 20_000


def test_conform_keeps_a_stderr_flood_out_of_the_report(suite: Path, tmp_path: Path) -> None:
    code, report, size = conform(tmp_path, abuse("stderr-flood"), "--scenarios", str(suite / "frozen-take.yaml"))
    assert code == 1
    (result,) = report["results"]
    assert result["status"] == "errored" and "exited with status 7" in result["message"]
    assert "flooded stderr (on purpose)" in result["stderr"] and "bytes cut]" in result["stderr"]
    assert size < 20_000  # the engine wrote 20 MiB


def test_conform_against_a_wrapped_engine_that_hangs_times_out_and_leaves_no_process(
    suite: Path, tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    inner = abuse("hang", "--once", str(tmp_path / "once"), "--pid-file", str(pids))
    wrapped = f"sh -c {shlex.quote(inner + '; exit 0')}"  # the engine is the shell's child, not exec'ed
    code, report, _ = conform(tmp_path, wrapped, "--scenarios", str(suite), "--timeout", "3")
    assert code == 1
    assert [r["status"] for r in report["results"]] == ["timed out", "passed"]
    assert not survivors(pids)


def test_conform_against_an_engine_that_plays_nothing_tested_nothing(
    suite: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report, _ = conform(tmp_path, abuse("no-variants"), "--scenarios", str(suite), "--games", "1", "--perft")
    assert code == 1
    assert {r["status"] for r in report["results"]} == {"skipped"}
    out = capsys.readouterr().out
    assert "nothing was tested: all " in out and "the engine's hello lists no variants" in out
    assert "nothing was tested: no generated game was played" in out


@pytest.mark.parametrize("mode", ["caps-list", "hang"])
def test_conform_against_an_engine_whose_hello_fails_reports_it_and_leaves_no_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    """The engine runs but never completes its handshake: a finding about it, reported like any other (one
    result, in the summary and the JSON report, exit 1), with no traceback and no process left behind."""
    pids = tmp_path / "pids"
    impl = abuse(mode, "--on", "hello", "--pid-file", str(pids))
    start = time.monotonic()
    report = tmp_path / "r.json"
    code = main(
        ["conform", "--impl", impl, "--no-progress", "--timeout", "3", "--start-timeout", "3", "--json", str(report)]
    )
    assert time.monotonic() - start < 60  # no wait beyond the timeout and the stopping (the message names the 3 s)
    assert code == 1
    says = "'capabilities' must be an object" if mode == "caps-list" else "no answer to 'hello' within 3 s"
    (result,) = json.loads(report.read_text(encoding="utf-8"))["results"]
    status = "errored" if mode == "caps-list" else "timed out"
    assert (result["scenario"], result["status"]) == ("hello", status)
    assert result["message"].startswith("the engine did not start: ") and says in result["message"]
    assert f"{status.upper()}: hello@*" in capsys.readouterr().out
    assert not survivors(pids)
