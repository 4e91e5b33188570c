"""The scaling table on either core (``--core``): one small cell timed on the Python engine and on a game on the
native core, the same count on both, each row saying which engine listed it; today's table unchanged where only the
Python engine runs. No timed assertion: the figures are measured, not judged, here."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from canasta_ref import Rules, core
from canasta_ref.spec import load_variant


@pytest.fixture
def bench(load_tool: Callable[[str], ModuleType]) -> ModuleType:
    return load_tool("bench_scaling")


#: A cell's figures as ``bench_scaling.measure`` gives them: (actions, us, us), the page's us, the engine.
Cell = tuple[tuple[int, float, float], float | None, str]


def _cell(bench: ModuleType, on: str) -> Cell:
    """A side opened, in play, 11 cards of Classic: one position, timed on ``on`` (Rules not warmed: faster)."""
    cell: Cell = bench.measure(Rules(load_variant("classic")), 11, True, "play", 1, 60.0, core=on)
    return cell


def test_one_cell_on_each_core_counts_the_same_and_says_which_engine_listed_it(bench: ModuleType) -> None:
    (python_count, _, _), python_page, python_listed = _cell(bench, "python")
    (native_count, _, _), native_page, native_listed = _cell(bench, "native")
    assert python_count == native_count > 0
    assert python_page is not None and native_page is not None
    assert python_listed == "the Python engine"
    assert native_listed == ("the core" if core.LIBRARY is not None else "the Python engine")


def test_a_row_names_its_core_and_engine_only_where_cores_are_shown(bench: ModuleType) -> None:
    cell = ((21, 100.0, 20.0), 300.0, "the core")
    row = ("classic", 11, "play, opened", cell, "", "native")
    assert bench._row_text(row, 1.0) == "| classic | 11 | play, opened | 21 | 100 us | 20 us | 300 us |  |"
    assert bench._row_text(row, 1.0, True) == (
        "| classic | 11 | play, opened | native | the core | 21 | 100 us | 20 us | 300 us |  |"
    )
    assert "core" not in bench._row_json(row) and bench._row_json(row, True)["listed_by"] == "the core"


def test_a_cell_stopped_by_the_cap_before_any_listing_says_its_engine_is_not_known(bench: ModuleType) -> None:
    assert bench.listed_by(set()) == "not known (stopped by the cap)"
    assert bench.listed_by({"the core", "the Python engine"}) == "the Python engine and the core"


def test_an_unknown_core_is_refused_with_one_message(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        bench.main(["--core", "rust"])
    assert stopped.value.code == 2
    assert "argument --core: invalid choice: 'rust'" in capsys.readouterr().err
