"""tools/bench_peers.py compares canasta-ref's random play with other engines' in one run. A peer that crashes,
hangs or prints something else is reported as such and the run goes on; the ratios come from the passes that gave
figures, round by round."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "bench_peers.py"
Tool = Callable[[str], ModuleType]


GOOD = json.dumps({"hands": 10, "actions": 1400, "cpu_seconds": 2.0, "wall_seconds": 2.1})


@pytest.mark.parametrize(
    ("output", "failure"),
    [
        ("", "printed nothing"),
        ("warming up\nnot json", "printed no JSON on its last line: 'not json'"),
        ("[1, 2]", "printed list, not a JSON object"),
        ('{"hands": 3, "actions": 4, "cpu_seconds": 1}', "field 'wall_seconds': expected a number"),
        ('{"hands": 3.5, "actions": 4, "cpu_seconds": 1, "wall_seconds": 1}', "field 'hands': expected a whole"),
        ('{"hands": true, "actions": 4, "cpu_seconds": 1, "wall_seconds": 1}', "field 'hands': expected a whole"),
        ('{"hands": 3, "actions": -4, "cpu_seconds": 1, "wall_seconds": 1}', "field 'actions': expected a whole"),
        ('{"hands": 3, "actions": 4, "cpu_seconds": NaN, "wall_seconds": 1}', "field 'cpu_seconds': expected a"),
        ('{"hands": 0, "actions": 0, "cpu_seconds": 1, "wall_seconds": 1}', "played 0 hands in 1 s"),
    ],
)
def test_output_that_is_not_a_pass_s_figures_is_a_failure(output: str, failure: str, load_tool: Tool) -> None:
    found = load_tool("bench_peers").parse_pass("peer", 1, output)
    assert found.failure is not None and found.failure.startswith(failure), found.failure
    assert (found.hands, found.actions, found.cpu_seconds, found.hands_per_second) == (0, 0, 0.0, 0.0)


def test_a_pass_s_figures_are_read_from_its_last_line(load_tool: Tool) -> None:
    found = load_tool("bench_peers").parse_pass("peer", 2, "some chatter\n" + GOOD + "\n")
    assert found.failure is None
    assert (found.hands, found.actions, found.cpu_seconds, found.wall_seconds) == (10, 1400, 2.0, 2.1)
    assert found.hands_per_second == 5.0


def test_ratios_come_from_the_rounds_where_both_passes_gave_figures(load_tool: Tool) -> None:
    tool = load_tool("bench_peers")
    pass_ = tool.Pass
    rounds = [
        [pass_("canasta-ref", 1, 400, 0, 1.0, 1.0), pass_("peer", 1, 800, 0, 1.0, 1.0)],
        [pass_("canasta-ref", 2, 300, 0, 1.0, 1.0), pass_("peer", 2, failure="hung")],
        [pass_("canasta-ref", 3, 450, 0, 1.0, 1.0), pass_("peer", 3, 500, 0, 1.0, 1.0)],
    ]
    report = tool.Report(rounds, {}, 0, 1.0)
    assert report.ratios("peer") == [0.5, 0.9]
    assert report.to_json()["median_ratio"] == {"peer": 0.7}
    lines = tool.table(report).splitlines()
    assert lines[-2].split() == ["median", "0.700"]
    assert lines[-1] == "round 2, peer: hung"


def test_the_native_core_is_its_own_line_with_its_ratio_and_its_share_left_to_python(load_tool: Tool) -> None:
    tool = load_tool("bench_peers")
    native = tool.parse_pass("canasta-ref-native", 1, json.dumps({**json.loads(GOOD), "python_actions": 70}))
    assert native.python_actions == 70
    rounds = [[tool.Pass("canasta-ref", 1, 4, 560, 1.0, 1.0), native, tool.Pass("peer", 1, 8, 1120, 1.0, 1.0)]]
    report = tool.Report(rounds, {}, 0, 1.0)
    assert report.ours == ["canasta-ref", "canasta-ref-native"]
    assert report.ratios("peer", "canasta-ref-native") == [5 / 8]
    assert report.python_share() == 0.05
    assert report.to_json()["native_median_ratio"] == {"peer": 0.625}
    text = tool.table(report)
    assert "canasta-ref-native to peer" in text.splitlines()[1]
    assert "canasta-ref-native: 1428.57 µs an action (median of its passes), 5.0 % of its actions" in text


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=300, check=False)


def test_a_broken_peer_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    peers = {
        "good": f"print('chatter'); print({GOOD!r})",
        "crash": "import sys; sys.stderr.write('boom'); sys.exit(3)",
        "hang": "import time; time.sleep(60)",
        "garbage": "print('hello')",
        # 32 MiB of noise, then the figures: only the output's tail is kept, and the figures are in it
        "flood": f"import sys; sys.stdout.write('x' * (1 << 25) + '\\n'); print({GOOD!r})",
        "flood-unended": "import sys; sys.stdout.write('{' * (1 << 25))",
    }
    args = ["--rounds", "1", "--seconds", "0.3", "--warm-up", "0", "--timeout", "3", "--json"]
    for name, code in peers.items():
        script = tmp_path / f"{name}.py"
        script.write_text(code)
        args += ["--peer-command", f"{name}={sys.executable} {script}"]
    done = _run(*args)
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads(done.stdout)
    passes = {p["engine"]: p for p in report["passes"]}
    assert passes["crash"]["failure"] == "crashed (exit status 3): 'boom'"
    assert passes["hang"]["failure"] == "hung: no answer within 3 s"
    assert passes["garbage"]["failure"] == "printed no JSON on its last line: 'hello'"
    assert passes["good"]["failure"] is None and passes["good"]["hands_per_second"] == 5.0
    assert passes["flood"]["failure"] is None and passes["flood"]["hands_per_second"] == 5.0
    assert passes["flood-unended"]["failure"].startswith("printed no JSON on its last line: '{{{")
    reference = passes["canasta-ref"]
    assert reference["failure"] is None and reference["hands"] > 0 and reference["actions"] > reference["hands"]
    assert math.isclose(report["median_ratio"]["good"], reference["hands_per_second"] / 5.0, rel_tol=1e-3)
    assert set(report["median_ratio"]) == {"good", "flood"}


def test_a_peer_that_cannot_run_here_is_skipped_with_the_reason(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(TOOL), "--peer", "feud", "--rounds", "1", "--seconds", "0.1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={"FEUD_ENGINE": str(tmp_path / "no-feud"), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout.startswith("no peer can run here\n")
    assert f"skipped feud: feud engine not found at {tmp_path / 'no-feud'} (set FEUD_ENGINE)" in done.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no-equals-sign", "expected NAME=COMMAND"),
        ("x=python 'unclosed", """--peer-command "x=python 'unclosed": No closing quotation"""),
    ],
)
def test_a_peer_command_must_name_the_peer_and_split(text: str, message: str) -> None:
    done = _run("--peer-command", text)
    assert done.returncode == 2 and message in done.stderr, done.stderr


def test_only_the_tail_of_a_pass_s_output_is_kept(load_tool: Tool) -> None:
    tool = load_tool("bench_peers")
    tail = tool._Tail(io.BytesIO(b"x" * (10 << 20) + b"\n" + GOOD.encode()))
    tail.join(30)
    assert len(tail._kept) <= 2 * tool.TAIL
    assert tail.text().endswith("\n" + GOOD) and len(tail.text()) == tool.TAIL
