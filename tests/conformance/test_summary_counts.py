"""Every number of a run's summary says what it counts, and the totals agree with the lines above them.

A variant's line counts its scenarios' results, and its generated games with how many of them disagree; the
generated games' line says how many games disagree and by how many distinct deviations (a game may show several,
a deviation is seen in several games); the last line, the run's totals, also counts each generated game that
passed, each deviation (a failed result) and the tests of variants not claimed, and the line before it says so.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from canasta_ref.conformance import causes, report
from canasta_ref.conformance.campaign_commands import merge_files
from canasta_ref.conformance.campaign_report import Example, GeneratedReport, ScenarioText
from canasta_ref.conformance.deviations import Deviation, DeviationKey, Mask
from canasta_ref.conformance.engines import EngineInfo
from canasta_ref.conformance.findings import GENERATED, UNCLAIMED, Findings
from canasta_ref.conformance.report import ORDER, SCREEN_LINES, SCREEN_WIDTH, counts_line, json_report, summary
from canasta_ref.conformance.runner import Result

INFO = EngineInfo(name="counted", version="1", protocol=8, variants=["classic"])
REPORTS = Path(__file__).resolve().parents[2] / "conformance" / "reports"


def scenarios() -> list[Result]:
    """One scenario passed and two failed in Classic; one skipped in a variant the engine does not claim."""
    failure = {"step": 1, "check": "verdict", "rule": "PILE.TAKE.FROZEN", "message": "step 1 `take`: refused"}
    return [
        Result("passes", "classic", "passed"),
        Result("fails-once", "classic", "failed", "step 1 `take`", "PILE.TAKE.FROZEN", failures=[failure]),
        Result("fails-twice", "classic", "failed", "step 1 `take`", "PILE.TAKE.FROZEN", failures=[failure]),
        Result("other-variant", "fournier", "skipped", "the engine does not play fournier"),
    ]


def deviation(key: DeviationKey, games: set[int], mask: Mask | None = None) -> tuple[Deviation, Example]:
    found = Deviation(key, f"generated game {min(games)}: differs", min(games), set(games), {"classic": set(games)})
    found.mask = mask
    return found, Example(ScenarioText(found.message, "scenario: 1\n", 2, "classic"))


def campaign(*, known: bool = False) -> GeneratedReport:
    """Ten games of Classic: games 1 to 5 refuse `ask`, games 4 to 6 take a frozen pile, games 7 to 10 pass."""
    mask = Mask("the engine cannot ask", check="verdict", action="ask") if known else None
    report = GeneratedReport(seed=0, requested=10, first=1, last=10, max_shrunk=0, masks=[mask] if mask else [])
    ask = DeviationKey("verdict", None, "ask", causes.refuses("ask"))
    frozen = DeviationKey("verdict", "PILE.TAKE.FROZEN", "take")
    for order, (found, example) in enumerate([deviation(ask, {1, 2, 3, 4, 5}, mask), deviation(frozen, {4, 5, 6})]):
        example.order = order
        report.deviations.append(found)
        report.examples[found.key] = example
    report.game_results = {n: Result(f"generated-0-{n}", "classic", "passed") for n in range(7, 11)}
    report.played, report.steps, report.seconds = Counter(classic=10), 400, 2.0
    return report.finish()


def run_summary(games: GeneratedReport | None) -> list[str]:
    results = scenarios() + (games.results if games else [])
    return summary(results, INFO, games.campaign() if games else None, extra=games.headline_lines() if games else ())


def test_each_count_says_what_it_counts_and_the_totals_say_what_they_add() -> None:
    lines = run_summary(campaign())
    assert "classic: scenarios: 1 passed, 2 failed; 10 generated games, 6 disagree" in lines, lines
    (headline,) = [line for line in lines if line.startswith("generated games (seed 0)")]
    assert "10 of 10 played, 400 steps, 6 disagree (2 deviations), " in headline, headline
    assert lines[-2:] == [
        "totals = variants' lines + variants not claimed: 1 skipped "
        "+ generated games: 4 passed, 2 failed (a deviation each)",
        "5 passed, 4 failed, 1 skipped",
    ]


def test_without_generated_games_or_unclaimed_variants_the_totals_are_the_variants_lines() -> None:
    results = [r for r in scenarios() if r.variant == "classic"]
    lines = summary(results, INFO)
    assert lines[1:] == ["classic: scenarios: 1 passed, 2 failed", *lines[2:-1], "1 passed, 2 failed"], lines
    assert not any(line.startswith("totals") for line in lines), lines


def test_a_known_deviation_is_counted_among_the_deviations_and_said_known() -> None:
    report = campaign(known=True)
    assert "6 disagree (2 deviations, 1 of them known)" in report.headline_lines()[0]
    assert report.disagreements == 1  # the JSON's count of deviations not known (a scenario each) keeps its meaning
    lines = run_summary(report)
    assert "generated games: 4 passed, 1 failed (a deviation each), 1 known failure (a deviation each)" in lines[-2]


def test_games_that_all_agree_say_so() -> None:
    report = GeneratedReport(seed=3, requested=2, first=1, last=2, played=Counter(classic=2))
    report.game_results = {n: Result(f"generated-3-{n}", "classic", "passed") for n in (1, 2)}
    report.finish()
    assert ", none disagrees, " in report.headline_lines()[0]
    assert "classic: scenarios: 1 passed, 2 failed; 2 generated games, none disagrees" in run_summary(report)


def test_the_json_report_adds_the_counts_and_keeps_its_keys() -> None:
    report = campaign()
    data = json.loads(
        json_report(scenarios() + report.results, INFO, {"generated": report.summary()}, report.campaign())
    )
    assert data["generated"]["disagreements"] == 2 and data["generated"]["games_disagreeing"] == 6
    classic = data["summary"]["variants"]["classic"]
    assert classic["counts"] == {"passed": 1, "failed": 2}  # the scenarios, as before
    assert (classic["generated_games"], classic["generated_games_disagreeing"], classic["generated_deviations"]) == (
        10,
        6,
        2,
    )
    assert data["summary"]["counted_apart"] == {
        "variants not claimed": {"skipped": 1},
        "generated games": {"passed": 4, "failed": 2},
    }
    assert data["counts"] == {"passed": 5, "failed": 4, "skipped": 1}


def numbers(text: str) -> dict[str, int]:
    """``{"failed": 46, ...}`` from a line of counts such as "5 passed, 46 failed, ..."."""
    return {status: int(n) for n, status in re.findall(r"(\d+) (passed|partial|failed|differs|skipped)\b", text)}


@pytest.mark.parametrize("name", ["cos", "feud"])
def test_a_committed_adapter_report_adds_up_on_one_screen(name: str) -> None:
    """An adapter's report as printed: the variant's scenarios plus what the totals line says it adds make the
    totals."""
    results, info, games, _ = merge_files([str(REPORTS / f"{name}.json")])
    assert games is not None
    lines = summary(results, info, games.campaign(), extra=games.headline_lines())
    assert len(lines) <= SCREEN_LINES and all(len(line) <= SCREEN_WIDTH for line in lines), lines
    (variant,) = [line for line in lines if line.startswith("classic: scenarios: ")]
    added = lines[-2]
    assert added.startswith("totals = variants' lines + ")
    expected = Counter(numbers(variant.split(";")[0]))
    for part in added.split(" + ")[1:]:
        expected.update(numbers(part))
    assert numbers(lines[-1]) == dict(expected) and lines[-1] == counts_line(results)
    disagree = len(games.disagreeing_games())
    assert f"generated games, {disagree} disagree" in variant and f"{disagree} disagree (" in games.headline_lines()[0]


def test_deal_perft_files_are_counted_with_the_scenarios_and_said_to_be() -> None:
    perft = Result("perft-classic-seed-1", "classic", "passed")
    lines = summary([*scenarios()[:3], perft], INFO)
    assert lines[1] == "classic: scenarios and deal-perft files: 2 passed, 2 failed", lines
    assert summary(scenarios()[:3], INFO)[1] == "classic: scenarios: 1 passed, 2 failed"


def test_counts_too_long_for_a_line_go_on_two() -> None:
    every = Counter(dict.fromkeys(ORDER, 1000))
    found = Findings(counts={"classic": every}, games=Counter(classic=1000), disagreeing={"classic": set(range(999))})
    lines = report._variant_lines(found, "classic")
    assert [line.split(": ")[1] for line in lines] == ["scenarios", "1000 generated games, 999 disagree"], lines
    found.apart = {UNCLAIMED: Counter(skipped=1000), GENERATED: every}
    totals = report.totals_lines(found)
    assert totals[0] == "totals = variants' lines" and totals[1] == "  + variants not claimed: 1000 skipped"
    assert totals[2].startswith("  + generated games: 1000 passed, 1000 partial, 1000 failed (a deviation each), ")
    assert all(len(line) <= SCREEN_WIDTH for line in lines + totals), lines + totals
