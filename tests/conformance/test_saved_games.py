"""Failing games are kept between runs: a campaign saves its shrunk scenarios, and the next run replays them
first, removing those that pass now and failing on those that do not (unless a known-failures mask names them)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from test_campaign_parts import run
from test_generated import LosesTheBottomOfThePile

from canasta_ref.cli import main
from canasta_ref.conformance.deviations import Mask
from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.saved_games import replay_saved, save_failing, saved_folder


def saved_report(folder: Path) -> list[str]:
    """A campaign against a wrong engine, its failing games saved in ``folder``: their ids."""
    report = run(InProcessEngine(LosesTheBottomOfThePile()), 3, 2)
    assert save_failing(report, folder) == len(report.scenarios) >= 1, report.report_lines()
    return [s.id for s in report.scenarios]


def test_failing_games_are_saved_and_replayed_first(tmp_path: Path) -> None:
    folder = tmp_path / "saved"
    ids = saved_report(folder)
    assert sorted(p.stem for p in folder.glob("*.yaml")) == sorted(ids)
    assert set(json.loads((folder / "index.json").read_text())) == set(ids)
    still = replay_saved(InProcessEngine(LosesTheBottomOfThePile()), folder)
    assert [r.status for r in still] == ["failed"] * len(ids)
    assert sorted(p.stem for p in folder.glob("*.yaml")) == sorted(ids)  # kept while they fail
    fixed = replay_saved(InProcessEngine(), folder)
    assert [r.status for r in fixed] == ["passed"] * len(ids)
    assert "passes now (removed)" in fixed[0].message
    assert list(folder.glob("*.yaml")) == [] and json.loads((folder / "index.json").read_text()) == {}


def test_a_saved_game_whose_deviation_is_known_is_a_known_failure(tmp_path: Path) -> None:
    folder = tmp_path / "saved"
    saved_report(folder)
    masks = [Mask("the pile's bottom card is lost", check="conservation"), Mask("views differ", check="view")]
    statuses = {r.status for r in replay_saved(InProcessEngine(LosesTheBottomOfThePile()), folder, masks)}
    assert statuses == {"known failure"}


def test_conform_replays_the_saved_games_first_and_removes_the_fixed_ones(tmp_path: Path) -> None:
    folder = saved_folder(None, "canasta-ref")  # the default folder: $CANASTA_REF_DIR, a test's own
    ids = saved_report(folder)
    out = io.StringIO()
    argv = ["conform", "--no-scenarios", "--no-progress", "--variant", "fournier", "--games", "1"]
    assert main(argv, out=out) == 0, out.getvalue()
    n = len(ids)
    assert f"saved failing games replayed first: {n} ({n} pass now and were removed, 0 still fail)" in out.getvalue()
    assert list(folder.glob("*.yaml")) == []


def test_no_saved_games_neither_replays_nor_keeps(tmp_path: Path) -> None:
    folder = saved_folder(None, "canasta-ref")
    saved_report(folder)
    out = io.StringIO()
    argv = ["conform", "--no-scenarios", "--no-progress", "--variant", "fournier", "--games", "1", "--no-saved-games"]
    assert main(argv, out=out) == 0
    assert "saved failing games" not in out.getvalue() and list(folder.glob("*.yaml"))
