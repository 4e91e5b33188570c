"""tools/bench_campaign.py: its figures come out, in words and as JSON, from a tiny campaign (never a timed test)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


def test_the_figures_of_a_tiny_campaign(
    load_tool: Callable[[str], ModuleType], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_tool("bench_campaign")
    path = tmp_path / "figures.json"
    argv = ["--games", "2", "--workers", "1", "--in-process", "--overhead-games", "1", "--memory-games", "1"]
    assert bench.main([*argv, "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 worker(s): 2 games" in out and "1.00x one worker" in out
    assert "a step against the reference in process (1 games" in out and "of the step)" in out
    assert "memory of a worker after 1 games:" in out
    figures = json.loads(path.read_text())
    assert figures["speed"][0]["games"] == 2 and figures["speed"][0]["games_per_second"] > 0
    assert figures["overhead"]["steps"] > 0 and 0 < figures["overhead"]["engine_us"] < figures["overhead"]["step_us"]
    assert figures["memory"]["worker_mib"] > 0


@pytest.mark.parametrize("workers", ["0", "1,x", ""])
def test_numbers_of_workers_are_checked(
    workers: str, load_tool: Callable[[str], ModuleType], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        load_tool("bench_campaign").main(["--workers", workers])
    assert "argument --workers: expected numbers of workers such as 1,2" in capsys.readouterr().err
