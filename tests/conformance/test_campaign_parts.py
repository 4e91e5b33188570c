"""A campaign in parts: every game is named by (seed, number), so a part plays the same games as the whole run,
and the reports of its parts merge into the report of one run, game for game and deviation for deviation."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from test_generated import LosesTheBottomOfThePile

from canasta_ref.cli import main
from canasta_ref.conformance.campaign_report import GeneratedReport, merge_reports, report_from_json
from canasta_ref.conformance.engines import Engine, InProcessEngine
from canasta_ref.conformance.generated import run_generated_games
from canasta_ref.errors import CanastaError

#: Short games, and a shrink bounded by its runs alone, so that the same games give the same report.
SMALL: dict[str, Any] = {"max_prefix": 30, "checked_steps": 4, "shrink_seconds": 600.0, "max_shrink_runs": 12}


def run(engine: Engine, games: int, seed: int, games_range: tuple[int, int] | None = None) -> GeneratedReport:
    return run_generated_games(
        engine, games, seed, variants=["classic-2p", "fournier"], games_range=games_range, **SMALL
    )


def same_games(report: GeneratedReport) -> dict[str, Any]:
    """Everything a report says but its times."""
    data = report.to_json()
    for timed in ("seconds", "games_per_second"):
        data.pop(timed)
    data["results"] = [r.to_json() for r in report.results]
    data["lines"] = report.report_lines()[1:]
    return data


def test_a_game_is_the_same_alone_or_among_others() -> None:
    whole = run(InProcessEngine(), 5, 11)
    alone = run(InProcessEngine(), 5, 11, games_range=(4, 4))
    middle = run(InProcessEngine(), 5, 11, games_range=(2, 4))
    by_key = {r.scenario: (r.variant, r.message) for r in whole.results}
    assert [r.scenario for r in alone.results] == ["generated-11-4"]
    assert (alone.results[0].variant, alone.results[0].message) == by_key["generated-11-4"]
    assert [(r.scenario, r.variant, r.message) for r in middle.results] == [
        (key, *by_key[key]) for key in ("generated-11-2", "generated-11-3", "generated-11-4")
    ]
    assert alone.headline_lines()[0].startswith("generated games (seed 11, games 4 to 4): 1 of 1 played")


def test_another_seed_or_number_is_another_game() -> None:
    report = run(InProcessEngine(), 4, 11)
    other = run(InProcessEngine(), 4, 12)
    assert len({r.message for r in report.results}) > 1
    assert [r.message for r in report.results] != [r.message for r in other.results]


def test_four_shards_merged_are_one_run_game_for_game() -> None:
    wrong = InProcessEngine(LosesTheBottomOfThePile())
    whole = run(wrong, 8, 2)
    assert whole.deviations and whole.scenarios, whole.report_lines()
    shards = [run(wrong, 8, 2, games_range=(first, first + 1)) for first in (1, 3, 5, 7)]
    # Through their JSON, as `canasta-ref report merge` reads them, and in any order.
    parts = [report_from_json(json.loads(json.dumps(s.to_json())), f"shard {n}") for n, s in enumerate(shards)]
    merged = merge_reports(parts[::-1])
    assert same_games(merged) == same_games(whole)
    # Each deviation once, with every game that shows it, however many shards saw it.
    assert sum(len(d.games) for d in merged.deviations) == sum(len(d.games) for d in whole.deviations)


def test_parts_of_other_campaigns_or_a_game_twice_are_refused() -> None:
    first = run(InProcessEngine(), 2, 1, games_range=(1, 1))
    with pytest.raises(CanastaError, match="game 1 of seed 1 is in two of the reports"):
        merge_reports([first, first])
    other = run(InProcessEngine(), 2, 5, games_range=(2, 2))
    with pytest.raises(CanastaError, match="different campaigns: seed 1 of 2 games and seed 5 of 2 games"):
        merge_reports([first, other])
    merged = merge_reports([first])
    assert "1 game(s) of games 1 to 1" not in " ".join(merged.notes)


def test_a_missing_part_is_said() -> None:
    merged = merge_reports([run(InProcessEngine(), 3, 1, games_range=(1, 1)), run(InProcessEngine(), 3, 1, (3, 3))])
    assert merged.notes == ["1 game(s) of games 1 to 3 are in no report"]


# -- the command line: shards, one game alone, and report merge ----------------------------------------------------
CONFORM = ["conform", "--no-scenarios", "--no-progress", "--variant", "classic-2p", "--games", "4", "--seed", "9"]


def conform(*extra: str) -> tuple[int, str]:
    out = io.StringIO()
    return main([*CONFORM, *extra], out=out), out.getvalue()


def test_sharded_runs_merge_into_the_report_of_one_run(tmp_path: Path) -> None:
    whole = tmp_path / "whole.json"
    assert conform("--json", str(whole))[0] == 0
    shards = [tmp_path / f"shard{n}.json" for n in (1, 2)]
    for n, path in enumerate(shards, 1):
        code, text = conform("--shard", f"{n}/2", "--json", str(path))
        assert code == 0 and f"generated games (seed 9, games {2 * n - 1} to {2 * n}): 2 of 2 played" in text
    merged = tmp_path / "merged.json"
    out = io.StringIO()
    assert main(["report", "merge", *map(str, shards), "-o", str(merged)], out=out) == 0
    assert "generated games (seed 9): 4 of 4 played" in out.getvalue()
    one, joined = json.loads(whole.read_text()), json.loads(merged.read_text())
    for data in (one, joined):
        del data["generated"]["seconds"], data["generated"]["games_per_second"]
    assert joined == one


def test_one_game_is_played_alone_from_the_command_line() -> None:
    code, text = conform("--game", "3", "--verbose")
    assert code == 0 and "generated games (seed 9, games 3 to 3): 1 of 1 played" in text


@pytest.mark.parametrize(
    ("option", "wanted"),
    [
        (["--shard", "3/2"], "expected I/N with 1 <= I <= N"),
        (["--games-range", "3:2"], "expected FIRST:LAST"),
        (["--games-range", "2"], "expected FIRST:LAST"),
        (["--shard", "1/2", "--game", "1"], "not allowed with argument"),
        (["--workers", "2", "--dask", "tcp://127.0.0.1:1"], "not allowed with argument"),
    ],
)
def test_a_bad_part_is_refused_by_its_option(
    option: list[str], wanted: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        conform(*option)
    assert wanted in capsys.readouterr().err


def test_a_part_outside_the_campaign_is_one_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert conform("--game", "5")[0] == 2
    assert "games 5 to 5 are not among the campaign's --games 4" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("{not json", "bad.json:1:2: not JSON"),
        ("[1, 2]", "bad.json: expected a JSON object"),
        ('{"engine": {"name": "x"}, "results": []}', "bad.json: field engine.version is missing"),
        (
            '{"engine": {"name": "x", "version": "1", "protocol": 1}, "results": [{"scenario": "s"}]}',
            "bad.json: field results[0].status is missing",
        ),
        (
            '{"engine": {"name": "x", "version": "1", "protocol": 1}, "results": [], "generated": {"seed": 1}}',
            "bad.json: field generated.campaign is missing",
        ),
    ],
)
def test_a_bad_report_is_one_clear_error(
    text: str, wanted: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.json").write_text(text, encoding="utf-8")
    assert main(["report", "merge", "bad.json"], out=io.StringIO()) == 2
    assert wanted in capsys.readouterr().err
