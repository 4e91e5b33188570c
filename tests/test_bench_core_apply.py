"""``tools/bench_core.py --apply``: the applies of a game on the core and of the Python engine, timed on the same
actions by kind. One small hand; no timed assertion (the figures are measured, not judged, here): each kind is
counted once an action, on both engines, and the report's rows add up to every kind."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import ModuleType

import pytest

from canasta_ref import core
from canasta_ref.engine.rules import rules_for
from canasta_ref.spec import load_variant


@pytest.fixture
def bench(load_tool: Callable[[str], ModuleType]) -> ModuleType:
    if core.LIBRARY is None:
        pytest.skip(f"{core.STATUS}: a game on the core plays on the Python engine, nothing to compare")
    return load_tool("bench_core")


def test_each_action_is_timed_once_on_each_engine_by_its_kind(bench: ModuleType) -> None:
    rules = rules_for(load_variant("classic-2p"))
    spent = bench.apply_pass(rules, 1, 7, time.process_time)
    kinds = {name.rsplit(", ", 1)[0] for name in spent}
    assert {"draw", "discard"} <= kinds
    for kind in kinds:
        assert len(spent[f"{kind}, on the core"]) == len(spent[f"{kind}, python engine"]) > 0, kind
    assert sum(len(spent[f"{kind}, python engine"]) for kind in kinds) > 20


def test_the_report_rows_add_up_to_every_kind(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["--apply", "--profile", "--variant", "classic-2p", "--hands", "1", "--repeat", "1", "--seed", "7"]
    assert bench.main(arguments) == 0
    report, profile = capsys.readouterr().out.split("under cProfile")
    rows = [line.split() for line in report.splitlines() if line.startswith("  ")]
    counts = {" ".join(row[:-3]): int(row[-3]) for row in rows[1:]}
    assert "game.py" in profile and "(apply)" in profile
    assert counts.pop("every kind") == sum(counts.values()) > 20
    assert {"draw", "discard"} <= counts.keys()
