"""``tools/bench_generated.py``: generated games through ``serve``, this tree beside a baseline. Run tiny (one game,
one round, the baseline the same tree): the shape of its table and JSON, never its figures (nothing timed is
asserted). Four processes of the package start, so this takes a few seconds: it is the tool's one run end to end."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

TREE = Path(__file__).resolve().parents[1]


def test_a_tiny_run_beside_the_same_tree_gives_both_rows_and_their_ratio(
    load_tool: Callable[[str], ModuleType], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_tool("bench_generated")
    report = tmp_path / "figures.json"
    arguments = ["--games", "1", "--rounds", "1", "--starts", "1", "--variant", "classic-2p"]
    assert bench.main([*arguments, "--baseline", str(TREE), "--json", str(report)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1 games a run, seed 40, 1 rounds;")
    assert [line.split()[:2] for line in lines[4:]] == [
        ["classic-2p", "this"],
        ["classic-2p", "baseline"],
        ["classic-2p", "ratio"],
    ]
    data = json.loads(report.read_text(encoding="utf-8"))
    assert [(row["tree"], row["path"], row["rounds"]) for row in data["rows"]] == [
        ("this", str(TREE), 1),
        ("baseline", str(TREE), 1),
    ]
    for row in data["rows"]:
        assert row["wall_games_per_second"] > 0 and row["cpu_games_per_second"] > 0
        assert row["start_wall_seconds"] > 0 and len(row["cpu_per_round"]) == 1
    assert set(data["ratios"]) == {"classic-2p"} and set(data["ratios"]["classic-2p"]) == {"wall", "cpu"}
