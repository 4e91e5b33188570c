"""The scaling table on either core (``--core``): one small cell timed on the Python engine and on a game on the
native core, the same count on both, each row saying which engine listed it; today's table unchanged where only the
Python engine runs. No timed assertion: the figures are measured, not judged, here."""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType

import pytest

from canasta_ref import Rules, core
from canasta_ref.spec import load_variant


@pytest.fixture
def bench(load_tool: Callable[[str], ModuleType]) -> ModuleType:
    return load_tool("bench_scaling")


#: A cell's figures as ``bench_scaling.measure`` gives them: (actions, us, us), the page's us, the engine, the
#: garbage collections during the counts by generation.
Cell = tuple[tuple[int, float, float], float | None, str, list[int]]


def _cell(bench: ModuleType, on: str) -> Cell:
    """A side opened, in play, 11 cards of Classic: one position, timed on ``on`` (Rules not warmed: faster)."""
    cell: Cell = bench.measure(Rules(load_variant("classic")), 11, True, "play", 1, 60.0, core=on)
    return cell


def test_one_cell_on_each_core_counts_the_same_and_says_which_engine_listed_it(bench: ModuleType) -> None:
    (python_count, _, _), python_page, python_listed, python_collections = _cell(bench, "python")
    (native_count, _, _), native_page, native_listed, _ = _cell(bench, "native")
    assert len(python_collections) == 3 and min(python_collections) >= 0
    assert python_count == native_count > 0
    assert python_page is not None and native_page is not None
    assert python_listed == "the Python engine"
    assert native_listed == ("the core" if core.LIBRARY is not None else "the Python engine")


def test_a_row_names_its_core_and_engine_only_where_cores_are_shown(bench: ModuleType) -> None:
    cell = ((21, 100.0, 20.0), 300.0, "the core", [3, 1, 0])
    row = ("classic", 11, "play, opened", cell, "", "native")
    assert bench._row_text(row, 1.0) == "| classic | 11 | play, opened | 21 | 100 us | 20 us | 300 us |  |"
    assert bench._row_text(row, 1.0, True) == (
        "| classic | 11 | play, opened | native | the core | 21 | 100 us | 20 us | 300 us |  |"
    )
    assert bench._row_text(row, 1.0, False, True).endswith("| 300 us |  | 3 / 1 / 0 |")
    assert bench._row_json(row)["gc_collections"] == [3, 1, 0]
    assert "core" not in bench._row_json(row) and bench._row_json(row, True)["listed_by"] == "the core"


def test_a_cell_stopped_by_the_cap_before_any_listing_says_its_engine_is_not_known(bench: ModuleType) -> None:
    assert bench.listed_by(set()) == "not known (stopped by the cap)"
    assert bench.listed_by({"the core", "the Python engine"}) == "the Python engine and the core"


def test_an_unknown_core_is_refused_with_one_message(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        bench.main(["--core", "rust"])
    assert stopped.value.code == 2
    assert "argument --core: invalid choice: 'rust'" in capsys.readouterr().err


def test_in_process_cells_are_measured_in_a_fork_that_gives_the_same_figures(bench: ModuleType) -> None:
    """``--in-process`` measures a cell in a fork of the warmed process: the same count as measured here."""
    rules = Rules(load_variant("classic"))
    forked = bench.measure_forked(rules, 11, True, "play", 1, 60.0, "cpu", "python")
    here = bench.measure(rules, 11, True, "play", 1, 60.0, "cpu", "python")
    assert not isinstance(forked, str), forked
    assert forked[0][0] == here[0][0] > 0 and forked[2] == here[2]


@pytest.mark.parametrize(
    ("death", "said"),
    [("abort", "killed by SIGABRT"), ("raise", "exit status 1: ValueError: the cell went wrong")],
)
def test_a_forked_cell_that_dies_is_reported_and_the_table_goes_on(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch, death: str, said: str
) -> None:
    """A cell whose fork dies (mypyc aborts where the cap's signal stops its code) is a sentence, not a crash."""

    def dying(*_args: object) -> None:
        if death == "abort":
            os.abort()
        raise ValueError("the cell went wrong")

    monkeypatch.setattr(bench, "measure", dying)
    cell = bench.measure_forked(Rules(load_variant("classic")), 11, True, "play", 1, 60.0, "cpu", "python")
    assert isinstance(cell, str) and cell.startswith("its process died (") and said in cell, cell


def test_a_process_that_dies_after_the_cap_stopped_it_is_reported_over_the_cap(bench: ModuleType) -> None:
    """mypyc aborts where the cap's signal stops its code: that cell is over the cap, not a crash of the engine."""
    stopped = bench._death(-6, f"{bench.CAP_MARK}\nfatal: out of memory\n")
    assert stopped.startswith("over the cap: stopped inside compiled code") and "SIGABRT" in stopped
    crashed = bench._death(-11, "Segmentation fault\n")
    assert crashed == "its process died (killed by SIGSEGV: Segmentation fault)"
