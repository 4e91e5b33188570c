"""tools/bench_campaign.py: its figures come out, in words and as JSON, from a tiny campaign (never a timed test)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from canasta_ref.conformance import generated_game, strategies
from canasta_ref.conformance.campaign import CampaignOptions
from canasta_ref.conformance.engines import REFERENCE_SERVE, InProcessEngine
from canasta_ref.conformance.generated_game import Runner
from canasta_ref.conformance.variants import reference_rules
from canasta_ref.conformance.workers import EngineSpec
from canasta_ref.engine.game import Game


def test_the_figures_of_a_tiny_campaign(
    load_tool: Callable[[str], ModuleType], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_tool("bench_campaign")
    path = tmp_path / "figures.json"
    argv = ["--games", "2", "--workers", "1", "--rounds", "2", "--in-process", "--overhead-games", "1"]
    assert bench.main([*argv, "--memory-games", "1", "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 worker(s): 2 games" in out and "(median of 2 rounds: " in out and "1.00x one worker" in out
    assert "cores busy, " in out and ", load average " in out
    assert "a step against the reference in process (1 games" in out and "of the step)" in out
    assert "memory of a worker after 1 games (peak resident):" in out and "its engine in process" in out
    figures = json.loads(path.read_text())
    row = figures["speed"][0]
    assert row["games"] == 2 and row["games_per_second"] > 0 and len(row["rounds"]) == 2 and row["speed_up"] == 1.0
    assert row["cpu_seconds"] > 0 and row["cores_busy"] > 0 and row["cpu_ms_per_game"] > 0
    assert "ms of CPU a game" in out
    split = figures["overhead"]
    assert split["steps"] > 0 and 0 < split["engine_us"] < split["step_us"] and split["reference_us"] > 0
    # the runner's own part is what the timed calls leave: some work of its own, a share of the step below all of it
    assert split["runner_us"] > 0 and 0 < split["runner_share"] < 1
    assert figures["memory"]["worker_mib"] > 0


def test_a_campaign_of_the_variants_asked_for(
    load_tool: Callable[[str], ModuleType], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = load_tool("bench_campaign")
    asked: list[tuple[str, ...]] = []
    played = bench.run_part

    def run_part(*arguments: Any) -> Any:
        asked.append(arguments[-1].variants)
        return played(*arguments)

    monkeypatch.setattr(bench, "run_part", run_part)
    argv = ["--games", "1", "--workers", "1", "--in-process", "--overhead-games", "1", "--memory-games", "1"]
    assert bench.main([*argv, "--variant", "hoyle-2p"]) == 0
    assert "; variants: hoyle-2p" in capsys.readouterr().out.splitlines()[0]
    assert asked and set(asked) == {("hoyle-2p",)}
    assert bench.main(argv) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("; variants: every one")
    assert asked[-1] == ()


@pytest.mark.parametrize("workers", ["0", "1,x", ""])
def test_numbers_of_workers_are_checked(
    workers: str, load_tool: Callable[[str], ModuleType], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        load_tool("bench_campaign").main(["--workers", workers])
    assert "argument --workers: expected numbers of workers such as 1,2" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory is read from /proc")
def test_the_peak_memory_of_a_running_child_is_read(load_tool: Callable[[str], ModuleType]) -> None:
    bench = load_tool("bench_campaign")
    hold = "import sys; block = bytearray(40 * 2**20); print('ready', flush=True); sys.stdin.read()"
    child = subprocess.Popen([sys.executable, "-c", hold], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"
        assert child.pid in bench.descendants(os.getpid())
        peak = bench.peak_resident_kib(child.pid)
        assert peak is not None and 40 * 1024 <= peak < 400 * 1024
        assert bench.engine_peak_kib(object()) >= peak  # the largest of this process's descendants, the child running
    finally:
        child.communicate(b"")
    assert bench.peak_resident_kib(child.pid) is None  # reaped: nothing left to read


def test_a_process_that_is_not_there_has_no_peak(load_tool: Callable[[str], ModuleType]) -> None:
    bench = load_tool("bench_campaign")
    assert bench.peak_resident_kib(2**22 + 12345) is None
    assert bench.descendants(2**22 + 12345) == []


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory is read from /proc")
def test_the_memory_of_a_worker_states_its_engine_process(load_tool: Callable[[str], ModuleType]) -> None:
    bench = load_tool("bench_campaign")
    figures = bench.memory(EngineSpec(REFERENCE_SERVE), 1, 0, CampaignOptions(max_prefix=5, checked_steps=2))
    assert figures["engine_in_process"] is False
    assert figures["worker_mib"] > 10 and figures["engine_mib"] > 10  # each a Python holding the rules
    line = bench.memory_line(figures)
    assert line.startswith("memory of a worker after 1 games (peak resident): ")
    assert f"its engine {figures['engine_mib']} MiB" in line


def test_the_reference_is_timed_inside_its_calls_and_they_are_put_back_after(
    load_tool: Callable[[str], ModuleType],
) -> None:
    bench = load_tool("bench_campaign")
    before = [vars(owner)[name] for owner, name in bench._REFERENCE_CALLS]
    clock = bench._StepClock()
    with clock.reference_timed():
        assert vars(generated_game)["play"] is not strategies.play
        runner = Runner(InProcessEngine(), ["classic"], max_prefix=0, checked_steps=0, illegal=0, probes=0)
        game = Game(reference_rules("classic"), seed=1)
        assert runner.legal(game) and clock.seconds["reference"] > 0  # the listing, timed
    assert [vars(owner)[name] for owner, name in bench._REFERENCE_CALLS] == before
    assert vars(generated_game)["play"] is strategies.play


def test_the_bound_the_cores_set_on_workers(load_tool: Callable[[str], ModuleType]) -> None:
    bench = load_tool("bench_campaign")
    rows = [{"workers": 1, "cores_busy": 1.5}, {"workers": 2, "cores_busy": 2.0}, {"workers": 4, "cores_busy": 2.0}]
    line = bench.scaling_bound(rows, 2)
    assert "one worker keeping 1.5 cores busy: 2 workers at most 1.33x, 4 workers at most 1.33x" in line
    assert "2 workers at most 2.00x" in bench.scaling_bound(rows[:2], 8)  # enough cores: the workers bound it
    assert bench.scaling_bound(rows[1:], 2) == "" and bench.scaling_bound(rows[:1], 2) == ""
