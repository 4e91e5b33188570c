"""tools/bench.py reports the garbage collector's share of the loop, which no profile of the engine's functions
shows: the timer counts the collections that really happen inside its block, and only those."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

TOOL = Path(__file__).resolve().parents[2] / "tools" / "bench.py"


def test_the_gc_timer_counts_the_collections_in_its_block_only(load_tool: Callable[[str], ModuleType]) -> None:
    bench = load_tool("bench")
    with bench.GcTimer() as timer:
        for generation in (0, 1, 2, 2):
            gc.collect(generation)
    gc.collect()  # outside the block: not counted
    assert timer.times.collections == [1, 1, 2]
    assert timer.times.seconds > 0
    assert timer._observe not in gc.callbacks


def test_the_benchmark_reports_the_collector_share() -> None:
    done = subprocess.run(
        [sys.executable, str(TOOL), "--hands", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert 0 <= result["gc_seconds"] <= result["wall_seconds"] and len(result["gc_collections"]) == 3


def test_the_table_gives_the_share_of_wall_time_and_the_collections(load_tool: Callable[[str], ModuleType]) -> None:
    bench = load_tool("bench")
    result = bench.Result("classic", 1, 1, "cpu 0", "3.11", wall_seconds=2.0, gc_seconds=0.5, gc_collections=[7, 1, 0])
    lines = bench.table(result).splitlines()
    assert any(line.startswith("garbage collection") and line.endswith(" 25.0") for line in lines)
    assert any("collections by generation" in line and line.endswith("7 / 1 / 0") for line in lines)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=300, check=False)


def test_warming_the_caches_up_plays_the_same_games() -> None:
    """The warm-up plays other deals on each pass's Rules first: the measured games, which caches must never
    change, are the same action for action (the benchmark itself refuses passes that differ)."""
    cold, warm = _run("--hands", "2", "--json"), _run("--hands", "2", "--warm-up", "2", "--json")
    assert cold.returncode == 0 and warm.returncode == 0, cold.stderr + warm.stderr
    cold_result, warm_result = json.loads(cold.stdout), json.loads(warm.stdout)
    assert (cold_result["warm_up"], warm_result["warm_up"]) == (0, 2)
    assert warm_result["actions"] == cold_result["actions"] > 0
    assert warm_result["end_reasons"] == cold_result["end_reasons"]


def test_a_negative_warm_up_is_refused() -> None:
    done = _run("--hands", "1", "--warm-up", "-1")
    assert done.returncode == 2 and "argument --warm-up: expected zero or more, not -1" in done.stderr
