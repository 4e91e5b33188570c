"""The Implementations page, built from the fake reports in fixtures/reports/ and from broken ones."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "reports"
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

import gen_docs  # noqa: E402
from docs_pages.implementations import implementations_page, rule_verdict  # noqa: E402
from docs_pages.reports import STATUSES, Report, ReportError, load_reports, parse_report  # noqa: E402

from canasta_ref.conformance.report import ORDER  # noqa: E402
from canasta_ref.conformance.runner import Status  # noqa: E402


@pytest.fixture(scope="module")
def site() -> gen_docs.Site:
    return gen_docs.Site()


@pytest.fixture(scope="module")
def page(site: gen_docs.Site) -> str:
    return implementations_page(site, load_reports(FIXTURES, "fixtures"), site.scenarios)


def matrix(page: str) -> dict[str, list[str]]:
    """The table by rule: rule id -> its cells, one an engine, in the page's order of engines."""
    rows = {}
    start = page.index("## By rule")
    section = page[start : page.index("\n## ", start)]
    for line in section.splitlines():
        if line.startswith("| [`"):
            cells = line.strip("| ").split(" | ")
            rows[cells[0].split("`")[1]] = cells[1:]
    return rows


def example(scenario_id: str) -> str:
    return f"[`{scenario_id}`](examples/{scenario_id}.md)"


def minimal(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "engine": {"name": "E", "version": "1", "protocol": 1},
        "counts": {"passed": 1},
        "results": [{"scenario": "meld-needs-three-cards", "variant": "classic", "status": "passed"}],
    }
    data.update(changes)
    return data


# ------------------------------------------------------------------------------------------------ the matrix
def test_cells_pass_fail_skipped_and_none(page: str) -> None:
    rows = matrix(page)
    alpha, beta = 0, 1
    assert rows["TURN.ORDER"][alpha] == "pass"
    assert rows["TURN.ORDER"][beta] == "fail: " + example("turn-order-only-the-player-to-act")  # errored
    assert rows["MELD.MIN_CARDS"] == ["fail: " + example("meld-needs-three-cards"), "pass"]
    assert rows["MELD.NO_WILD_ONLY"] == ["fail: " + example("wild-cards-cannot-be-melded-alone"), "—"]  # known failure
    assert rows["PILE.TAKE.NOT_EMPTY"] == ["skipped", "pass"]  # beta: one passed, one skipped
    assert rows["PILE.TAKE.FROZEN"] == ["—", "—"]  # only a generated game cites it: not a scenario of the suite
    assert rows["TURN.ONE_DRAW"] == ["pass", "partial: " + example("one-draw-a-turn")]
    assert rows["MATCH.TARGET"] == ["—", "differs: " + example("match-tie-is-a-draw-gamedesire")]


def test_every_cited_rule_has_a_row_linked_to_its_rulebook(site: gen_docs.Site, page: str) -> None:
    rows = matrix(page)
    cited = {rule for s in site.scenarios for rule in s.rules}
    assert set(rows) == cited
    assert "| [`TURN.ORDER`](rules/classic.md#turn-order) |" in page
    assert "### Turn {#by-rule-turn}" in page


def test_rule_verdict_both_ways() -> None:
    assert rule_verdict({}) == ("—", [])
    assert rule_verdict({"a": ["skipped"], "b": ["skipped", "skipped"]}) == ("skipped", [])
    assert rule_verdict({"a": ["passed"], "b": ["skipped"]}) == ("pass", [])
    assert rule_verdict({"a": ["unexpected pass"]}) == ("pass", [])
    assert rule_verdict({"b": ["timed out"], "a": ["passed", "failed"], "c": ["partial"]}) == ("fail", ["a", "b"])
    assert rule_verdict({"a": ["partial"], "b": ["differs"]}) == ("partial", ["a"])
    assert rule_verdict({"a": ["passed"], "b": ["differs"]}) == ("differs", ["b"])


def test_a_cell_names_three_failing_scenarios_then_counts(site: gen_docs.Site) -> None:
    ids = sorted(s.id for s in site.scenarios if "PILE.TAKE.FROZEN" in s.rules)[:5]
    assert len(ids) == 5, "needs five scenarios citing PILE.TAKE.FROZEN"
    results = [{"scenario": i, "variant": "classic", "status": "failed"} for i in ids]
    report = parse_report(minimal(counts={"failed": 5}, results=results), key="many", file="many.json")
    cell = matrix(implementations_page(site, [report], site.scenarios))["PILE.TAKE.FROZEN"][0]
    assert cell == "fail: " + ", ".join(example(i) for i in ids[:3]) + " and [2 more](#engine-many-results)"


# ------------------------------------------------------------------------------------------------ the engines
def test_engines_table_and_sections(page: str) -> None:
    assert (
        "| [Alpha Canasta](#engine-alpha) | `1.2.0` | 1 | [example/alpha-canasta](https://github.com/example/alpha-canasta)"
        " | [`0123456789ab`](https://github.com/example/alpha-canasta/commit/0123456789abcdef0123456789abcdef01234567)"
        " | 3 | 0 | 0 | 2 | 1 | 0 | 2 |"
    ) in page
    assert "| [Beta Cards](#engine-beta) | `0.9` | 1 | — | — | 3 | 1 | 1 | 0 | 0 | 1 | 1 |" in page
    assert page.index("## Alpha Canasta {#engine-alpha}") < page.index("## Beta Cards {#engine-beta}")
    assert "- Results: 3 passed, 2 failed, 1 known failure, 2 skipped" in page
    assert "- Adapter: none named" in page


def test_deviations_of_the_generated_games(page: str) -> None:
    assert "20 games with seed 0, 1840 steps, 2 disagreements with the reference, in 3.25 s." in page
    frozen = (
        "| [`PILE.TAKE.FROZEN`](rules/classic.md#pile-take-frozen) | `verdict` | `take` | 2 | 4 | failed | "
        "the engine refused a legal take (shrunk to `generated-0-4-refused-pile-take-frozen`, 6 steps) |"
    )
    known = "| — | `legal` | — | 1 | 9 | known failure (lists discards twice) | the legal actions differ |"
    assert known in page and frozen in page
    assert page.index(known) < page.index(frozen)  # sorted by rule, none first
    assert "{#engine-beta-generated}" not in page  # beta played no generated games


def test_results_that_did_not_pass_are_listed(page: str) -> None:
    beta = page[page.index("{#engine-beta}") :]
    assert f"| {example('one-draw-a-turn')} | `classic` | partial | — | — |" in beta
    assert f"| {example('turn-order-only-the-player-to-act')} | `classic` | errored | — |" in beta
    assert "`a-scenario-of-our-own`" not in beta  # passed: not listed
    assert "1 result of no bundled scenario" in beta


def test_text_from_a_report_is_escaped(site: gen_docs.Site) -> None:
    data = minimal(engine={"name": "<b>x</b> | y", "version": "1`2", "protocol": 1})
    data["results"][0].update(status="failed", message="a | b <script>")
    text = implementations_page(site, [parse_report(data, key="x", file="x.json")], site.scenarios)
    assert "<b>" not in text and "<script>" not in text
    assert "## &lt;b&gt;x&lt;/b&gt; \\| y {#engine-x}" in text
    assert "a \\| b &lt;script&gt;" in text


def test_the_page_is_deterministic(site: gen_docs.Site, page: str, tmp_path: Path) -> None:
    for name in ("beta.json", "alpha.json"):  # written in the other order
        (tmp_path / name).write_bytes((FIXTURES / name).read_bytes())
    again = implementations_page(site, load_reports(tmp_path, "fixtures"), site.scenarios)
    assert again == page


# ------------------------------------------------------------------------------------------------ no reports
def test_no_report_says_so(site: gen_docs.Site, tmp_path: Path) -> None:
    assert load_reports(tmp_path / "absent", "x") == []
    assert load_reports(tmp_path, "x") == []
    text = implementations_page(site, [], site.scenarios)
    assert "No report is committed yet" in text and "tools/conform_adapters.py" in text
    assert "## By rule" not in text
    with_reports = implementations_page(site, load_reports(FIXTURES, "fixtures"), site.scenarios)
    assert "No report is committed yet" not in with_reports


def test_generate_reads_the_reports_folder_it_is_given() -> None:
    """The fixtures' engines, not the committed reports', are on the page (a folder without reports:
    ``test_no_report_says_so``; one run of the whole generator is enough, it takes a while)."""
    files = gen_docs.generate(FIXTURES)
    assert "## Alpha Canasta {#engine-alpha}" in files[gen_docs.DOCS / "implementations.md"]
    assert '- "Implementations": implementations.md' in files[gen_docs.MKDOCS_YML]


# ------------------------------------------------------------------------------------------------ bad reports
BAD: list[tuple[Any, str, str]] = [
    ([], "(top level)", "expected an object, found a list"),
    (minimal(engine={"name": "E", "protocol": 1}), "engine.version", "missing"),
    (minimal(engine={"name": "E", "version": "1", "protocol": "1"}), "engine.protocol", "expected a whole number"),
    (minimal(counts={"passed": -1}), "counts.passed", "expected a count"),
    (minimal(counts={"great": 1}), "counts['great']", "'great' is not a status"),
    (minimal(results={}), "results", "expected a list, found an object"),
    (minimal(results=[{"scenario": "s", "variant": "v", "status": 7}]), "results[0].status", "expected a string"),
    (minimal(results=[{"scenario": "s", "variant": "v", "status": "fine"}]), "results[0].status", "is not a status"),
    (minimal(results=[{"scenario": "s", "status": "passed"}]), "results[0].variant", "missing"),
    (
        minimal(adapter={"engine": "e", "repository": "nope", "commit": "abcdef0", "adapter": "a"}),
        "adapter.repository",
        "expected owner/name",
    ),
    (
        minimal(adapter={"engine": "e", "repository": "o/n", "commit": "main", "adapter": "a"}),
        "adapter.commit",
        "expected a commit id",
    ),
    (minimal(generated={"seed": 0, "games": 1, "steps": 1, "disagreements": 0}), "generated.seconds", "missing"),
    (
        minimal(
            generated={
                "seed": 0,
                "games": 1,
                "steps": 1,
                "seconds": 1,
                "disagreements": 1,
                "deviations": [{"status": "failed", "check": "c", "games": "2", "first_game": 1, "message": "m"}],
            }
        ),
        "generated.deviations[0].games",
        "expected a whole number, found a string",
    ),
]


@pytest.mark.parametrize(("data", "field", "problem"), BAD)
def test_a_malformed_report_names_file_and_field(tmp_path: Path, data: Any, field: str, problem: str) -> None:
    (tmp_path / "broken.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReportError) as caught:
        load_reports(tmp_path, "conformance/reports")
    assert caught.value.file == "conformance/reports/broken.json"
    assert caught.value.field == field
    assert problem in caught.value.problem
    assert str(caught.value).startswith(f"conformance/reports/broken.json: {field}: ")


def test_a_good_report_parses() -> None:
    report = parse_report(minimal(), key="e", file="e.json")
    assert isinstance(report, Report) and report.name == "E" and report.counts == (("passed", 1),)
    assert report.adapter is None and report.generated is None


@pytest.mark.parametrize(
    ("raw", "problem"),
    [(b'{"engine": ', "is not JSON: Expecting value at line 1, column 12"), (b"\xff\xfe{}", "is not UTF-8 text")],
)
def test_an_unreadable_report_names_the_file(tmp_path: Path, raw: bytes, problem: str) -> None:
    (tmp_path / "bad.json").write_bytes(raw)
    with pytest.raises(ReportError, match="^" + re.escape("x/bad.json: (file): ")) as caught:
        load_reports(tmp_path, "x")
    assert caught.value.problem == problem


def test_gen_docs_stops_with_one_line_not_a_traceback(tmp_path: Path) -> None:
    broken = minimal(results=[{"scenario": "s", "variant": "v", "status": "nope"}])
    (tmp_path / "engine.json").write_text(json.dumps(broken), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "tools/gen_docs.py", "--check", "--reports", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines() == [
        f"gen_docs: {tmp_path.resolve().as_posix()}/engine.json: results[0].status: 'nope' is not a status "
        "(one of passed, partial, differs, failed, known failure, errored, timed out, unexpected pass, skipped)"
    ]


def test_the_page_and_the_summary_know_every_status_a_result_can_have() -> None:
    # The page and the command line's summary list statuses in their own order; neither may miss one.
    assert sorted(STATUSES) == sorted(get_args(Status)) == sorted(ORDER)
