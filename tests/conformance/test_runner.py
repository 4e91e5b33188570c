"""The runner against the reference and against broken engines, through the protocol, in process and by the CLI.

Each broken engine (``broken_engines/``) is the reference with one thing wrong. The runner must say exactly what
went wrong (crashed with its stderr, timed out, garbage, a view that shows too much, a missing capability, a
wrong rule id), and go on with the next scenario on a fresh engine.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from broken_engines.kit import (
    CANASTA_REF_PATH,
    KIT_VARIANT_ARGS,
    KIT_VARIANTS,
    PYTHON,
    engine_command,
    reference_command,
    run_conform,
    write_scenarios,
)

from canasta_ref.conformance.engines import EngineFailure, EngineInfo, InProcessEngine, SubprocessEngine
from canasta_ref.conformance.report import summary
from canasta_ref.conformance.runner import Result, Selection, run_case, run_suite, setup_message
from canasta_ref.conformance.scenario import load_scenarios, scenario_dir
from canasta_ref.conformance.session import PROTOCOL_VERSION, ReferenceSession
from canasta_ref.conformance.suitecoverage import recording_engine
from canasta_ref.spec import list_variants


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_scenarios(tmp_path_factory.mktemp("scenarios"))


def cases_of(folder: Path, *names: str) -> list[Any]:
    """The (scenario, variant) cases of the named scenarios, in the order given."""
    by_id = {s.id: s for s in load_scenarios([folder])}
    return Selection(variants=KIT_VARIANTS).cases([by_id[name] for name in names])


def run_with(command: str, cases: list[Any], timeout: float = 10.0) -> list[Result]:
    engine = SubprocessEngine(command, timeout=timeout)
    try:
        return run_suite(engine, cases)
    finally:
        engine.close()


def statuses(results: list[Result]) -> dict[str, str]:
    return {r.key: r.status for r in results}


# -- the reference passes ------------------------------------------------------------------------------------


def test_reference_passes_the_small_suite_through_the_protocol(suite: Path) -> None:
    results = run_with(reference_command(), Selection(variants=KIT_VARIANTS).cases(load_scenarios([suite])))
    assert statuses(results) == {
        "frozen-take@classic": "passed",
        "seeded-turn-order@classic": "passed",
        "own-hand-view@classic": "passed",
        "two-player-order@classic-2p": "passed",
        "one-card-pile-forbidden@classic": "passed",
    }


def test_reference_passes_the_bundled_suite_through_the_protocol() -> None:
    cases = Selection().cases(load_scenarios([scenario_dir()]))
    assert cases, "the bundled suite is empty"
    results = run_with(reference_command(), cases)
    bad = [f"{r.key}: {r.status}: {r.message}" for r in results if r.status != "passed"]
    assert not bad, "\n".join(bad)


# -- each broken engine is reported for what it does ---------------------------------------------------------


def test_a_crash_is_an_error_with_the_stderr_tail(suite: Path) -> None:
    results = run_with(engine_command("crash"), cases_of(suite, "frozen-take", "seeded-turn-order"))
    for result in results:
        assert result.status == "errored"
        assert "exited with status 3" in result.message
        assert "segmentation fault in apply (on purpose)" in result.stderr
    text = "\n".join(summary(results, EngineInfo(name="crash")))
    assert "ERRORED: frozen-take@classic" in text
    assert "stderr:" in text and "segmentation fault in apply" in text


def test_after_a_crash_the_engine_is_restarted_and_the_run_goes_on(suite: Path, tmp_path: Path) -> None:
    engine = SubprocessEngine(engine_command("crash", "--once", str(tmp_path / "crashed")))
    try:
        first_pid = engine._process.pid if engine._process else None
        results = run_suite(engine, cases_of(suite, "frozen-take", "seeded-turn-order", "own-hand-view"))
        second_pid = engine._process.pid if engine._process else None
    finally:
        engine.close()
    assert [r.status for r in results] == ["errored", "passed", "passed"]
    assert first_pid != second_pid


def test_a_hang_times_out_within_the_timeout_and_the_run_goes_on(suite: Path, tmp_path: Path) -> None:
    engine = SubprocessEngine(engine_command("hang", "--once", str(tmp_path / "hung")), timeout=1)
    try:
        scenario, variant = cases_of(suite, "frozen-take")[0]
        start = time.monotonic()
        hung = run_case(engine, scenario, variant)
        elapsed = time.monotonic() - start
        rest = run_suite(engine, cases_of(suite, "seeded-turn-order", "own-hand-view"))
    finally:
        engine.close()
    assert hung.status == "timed out"
    assert hung.message == "no answer to 'apply' within 1 s"
    assert "thinking forever" in hung.stderr
    assert 1 <= elapsed < 20, f"took {elapsed:.1f} s for a 1 s timeout (restart included)"
    assert [r.status for r in rest] == ["passed", "passed"]


def test_garbage_is_an_error_saying_not_json_and_the_run_goes_on(suite: Path, tmp_path: Path) -> None:
    results = run_with(
        engine_command("garbage", "--once", str(tmp_path / "garbled")),
        cases_of(suite, "frozen-take", "seeded-turn-order"),
    )
    assert results[0].status == "errored"
    assert results[0].message.startswith("not JSON:")
    assert "Applying move... done!" in results[0].message
    assert results[1].status == "passed"


def test_a_leaky_view_fails_every_scenario(suite: Path) -> None:
    """A view expectation names the leaked card; every other scenario catches the leak through the generic
    check after each accepted step (a seat's hand must have the size the other seats see)."""
    results = run_with(engine_command("leaky"), cases_of(suite, "own-hand-view", "frozen-take", "seeded-turn-order"))
    assert [r.status for r in results] == ["failed", "failed", "failed"]
    assert "seat 0's view field 'hand'" in results[0].message
    assert "got 4C " in results[0].message  # seat 1's first card, shown to seat 0
    assert all("cards in its hand but hand_sizes says" in r.message for r in results[1:])


def test_an_engine_without_positions_skips_position_scenarios_with_the_reason(suite: Path) -> None:
    results = run_with(engine_command("no_position"), Selection(variants=KIT_VARIANTS).cases(load_scenarios([suite])))
    by_key = {r.key: r for r in results}
    assert by_key["seeded-turn-order@classic"].status == "passed"
    for key in ("frozen-take@classic", "own-hand-view@classic", "two-player-order@classic-2p"):
        assert by_key[key].status == "skipped"
        assert by_key[key].message == "the engine cannot set up a written-out position"


def test_a_wrong_rule_id_fails_naming_both_ids(suite: Path) -> None:
    results = run_with(engine_command("wrong_rule_id"), cases_of(suite, "frozen-take", "seeded-turn-order"))
    assert [r.status for r in results] == ["failed", "failed"]
    frozen, order = results
    assert "'PILE.TAKE.MATCH' instead of PILE.TAKE.FROZEN" in frozen.message
    assert frozen.rule == "PILE.TAKE.FROZEN"
    assert "rule PILE.TAKE.FROZEN:" in frozen.message  # the rule's text is cited
    assert "'TURN.DRAW_FIRST' instead of TURN.ORDER" in order.message


def test_a_malformed_legal_list_fails_that_scenario_and_the_run_goes_on(suite: Path) -> None:
    results = run_with(engine_command("malformed", "--legal"), cases_of(suite, "frozen-take", "seeded-turn-order"))
    assert [r.status for r in results] == ["failed", "passed"]
    assert results[0].message.startswith("step 2 `draw`: the engine's reply to 'legal' was not a list of actions")
    assert "{'type': 'fly'}" in results[0].message


def test_a_view_that_is_not_an_object_fails_that_scenario_and_the_run_goes_on(suite: Path) -> None:
    """Both the view a step expects and the views read after every accepted step."""
    results = run_with(engine_command("malformed", "--view"), cases_of(suite, "own-hand-view", "seeded-turn-order"))
    assert [r.status for r in results] == ["failed", "failed"]
    expected = "the engine's reply to 'view' for seat 0 was not an object: 'north sees KH JK 9C'"
    assert results[0].message == "step 1 `discard 5S`: " + expected
    assert results[1].message == "step 2 `draw`: " + expected


THREE_PACKS = """\
scenario: 1
id: three-packs-seeded
title: A seeded deal under packs = 3
rules: [TURN.ORDER]
variants: [classic]
level: alternative
parameters: {packs: 3}
setup:
  deck: {seed: 7}
steps:
  - action: draw
    seat: 1
    expect: {result: refused, rule: TURN.ORDER}
  - action: draw
    expect: {result: accepted}
"""


def test_a_seeded_deal_is_dealt_under_the_scenarios_parameters(tmp_path: Path) -> None:
    """The seed gives a deck of the scenario's packs, and the views must account for all of its cards."""
    (tmp_path / "three-packs-seeded.yaml").write_text(THREE_PACKS, encoding="utf-8")
    ((scenario, variant),) = Selection(variants=KIT_VARIANTS).cases(load_scenarios([tmp_path]))
    assert len(setup_message(scenario, variant)["deck"].split()) == 3 * 54
    result = run_case(InProcessEngine(), scenario, variant)
    assert result.status == "passed", result.message


def test_parameters_the_variant_lacks_are_left_to_the_engine_to_refuse(tmp_path: Path) -> None:
    """Loading a scenario refuses such parameters; one made in code still reaches the engine, which refuses."""
    (tmp_path / "three-packs-seeded.yaml").write_text(THREE_PACKS, encoding="utf-8")
    ((loaded, variant),) = Selection(variants=KIT_VARIANTS).cases(load_scenarios([tmp_path]))
    scenario = dataclasses.replace(loaded, parameters={"nope": 1})
    result = run_case(InProcessEngine(), scenario, variant)
    assert (result.status, result.message) == ("failed", "setup refused: classic has no parameter 'nope'")


# -- the reference session shares its Rules ------------------------------------------------------------------


def test_a_recording_session_stops_recording_into_shared_rules_when_it_answers(tmp_path: Path) -> None:
    engine, coverage = recording_engine()
    session = engine.session
    rules = session.rules_for("classic", {})
    refused = engine.request({"cmd": "setup", "variant": "classic", "deck": "KH KS"})  # the deal itself fails
    assert refused["ok"] is False and rules.coverage is None
    frozen = load_scenarios([write_scenarios(tmp_path, ("frozen-take",))])[0]
    assert run_case(engine, frozen, "classic").status == "passed"
    assert session.game is not None and session.game.rules is rules
    assert rules.coverage is None
    assert coverage.outcomes["PILE.TAKE.FROZEN"] >= {"refused"}


def test_a_mutated_clause_has_rules_of_its_own_kept_by_its_session() -> None:
    mutant = ReferenceSession(mutate_rule="PILE.TAKE.FROZEN")
    rules = mutant.rules_for("classic", {})
    assert mutant.rules_for("classic", {}) is rules
    assert rules is not ReferenceSession().rules_for("classic", {})
    assert ReferenceSession(mutate_rule="PILE.TAKE.FROZEN").rules_for("classic", {}) is not rules


def test_a_mutant_fails_and_the_next_scenario_still_runs(suite: Path) -> None:
    results = run_with(
        reference_command("--mutate-rule", "PILE.TAKE.FROZEN"),
        cases_of(suite, "frozen-take", "seeded-turn-order", "own-hand-view"),
    )
    assert [r.status for r in results] == ["failed", "passed", "passed"]
    assert "expected refused by PILE.TAKE.FROZEN, got accepted" in results[0].message


def test_a_restart_that_fails_is_reported_and_the_run_goes_on(suite: Path, tmp_path: Path) -> None:
    """PROTOCOL.md: after a crash the runner restarts the engine and goes on. If the restart fails too, the
    remaining tests should be reported (errored), not the whole run abort with an exception."""
    engine = SubprocessEngine(engine_command("crash", "--start-once", str(tmp_path / "started")))
    try:
        results = run_suite(engine, cases_of(suite, "frozen-take", "seeded-turn-order"))
    except EngineFailure as failure:  # run_case reports a failed restart; it must not escape
        pytest.fail(f"run_suite raised instead of reporting: {failure}")
    finally:
        engine.close()
    assert [r.status for r in results] == ["errored", "errored"]
    assert "will not start again" in results[1].stderr


# -- the CLI, end to end -------------------------------------------------------------------------------------


def _kit_unless_chosen(args: tuple[str, ...]) -> tuple[str, ...]:
    """The small suite's variants, unless the arguments choose variants themselves."""
    return () if "--variant" in args else KIT_VARIANT_ARGS


def conform(*args: str, cwd: Path) -> tuple[int, str, dict[str, Any]]:
    """Run ``canasta-ref conform ... --json report.json``; returns the exit status, stdout and the report."""
    return run_conform(*_kit_unless_chosen(args), *args, cwd=cwd, timeout=120)


def keys(report: dict[str, Any]) -> set[str]:
    return {f"{r['scenario']}@{r['variant']}" for r in report["results"]}


def test_cli_against_the_reference_passes_with_a_json_report(suite: Path, tmp_path: Path) -> None:
    code, out, report = conform("--impl", reference_command(), "--scenarios", str(suite), cwd=tmp_path)
    assert code == 0
    assert set(report) >= {"engine", "counts", "results"}
    engine = {"name": "canasta-ref", "version": "0.1.0", "protocol": PROTOCOL_VERSION, "variants": list_variants()}
    assert report["engine"] == engine
    assert report["counts"] == {"passed": 5}
    for result in report["results"]:
        assert set(result) >= {"scenario", "variant", "status", "file"}
        assert result["status"] == "passed"
        assert result["file"].endswith(f"{result['scenario']}.yaml")
    assert keys(report) == {
        "frozen-take@classic",
        "seeded-turn-order@classic",
        "own-hand-view@classic",
        "two-player-order@classic-2p",
        "one-card-pile-forbidden@classic",
    }
    assert out.splitlines()[-1] == "5 passed, 0 failed"


def test_cli_against_a_mutant_fails_with_exit_status_1(suite: Path, tmp_path: Path) -> None:
    code, out, report = conform(
        "--impl", reference_command("--mutate-rule", "PILE.TAKE.FROZEN"), "--scenarios", str(suite), cwd=tmp_path
    )
    assert code == 1
    assert report["engine"]["name"] == "canasta-ref (mutant: PILE.TAKE.FROZEN negated)"
    # negated, the clause refuses the unfrozen one-card pile too, citing itself
    assert report["counts"] == {"passed": 3, "failed": 2}
    failed = {r["scenario"]: r for r in report["results"] if r["status"] == "failed"}
    assert set(failed) == {"frozen-take", "one-card-pile-forbidden"}
    assert "citing 'PILE.TAKE.FROZEN' instead of PILE.TAKE.ONE_CARD" in failed["one-card-pile-forbidden"]["message"]
    failed = failed["frozen-take"]
    assert failed["rule"] == "PILE.TAKE.FROZEN"
    # the take the mutant accepts is undone, and the draw after it still checked
    assert failed["checks"] == {"passed": 3, "failed": 1, "not reached": 1}
    assert [(f["step"], f["check"]) for f in failed["failures"]] == [(1, "verdict")]
    assert "expected refused by PILE.TAKE.FROZEN, got accepted" in failed["message"]
    assert "  PILE.TAKE.FROZEN: 1 scenario; e.g. frozen-take: step 1 `take KH JK`: expected refused" in out
    (one_card,) = [line for line in out.splitlines() if line.startswith("  PILE.TAKE.ONE_CARD: 1 scenario; e.g. ")]
    assert "one-card-pile" in one_card and "step 1 `take`: refused, but citing 'PILE.TAKE.FROZEN'" in one_card


def test_cli_reports_a_crash_with_its_stderr_in_the_json(suite: Path, tmp_path: Path) -> None:
    code, _, report = conform(
        "--impl", engine_command("crash"), "--scenarios", str(suite / "frozen-take.yaml"), cwd=tmp_path
    )
    assert code == 1
    (result,) = report["results"]
    assert result["status"] == "errored"
    assert "segmentation fault in apply" in result["stderr"]


@pytest.mark.parametrize("impl", ["no-such-engine-command", f"{PYTHON} -c 'import sys; sys.exit(4)'"])
def test_cli_an_engine_that_does_not_start_is_an_error_message_not_a_traceback(tmp_path: Path, impl: str) -> None:
    done = subprocess.run(
        [CANASTA_REF_PATH, "conform", "--no-progress", "--impl", impl, "--scenarios", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr, done.stderr[-600:]
    assert done.returncode == 2 and done.stderr.startswith("canasta-ref: ")


def test_cli_a_restart_that_fails_still_writes_the_report(suite: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [
            CANASTA_REF_PATH,
            "conform",
            "--no-progress",
            *KIT_VARIANT_ARGS,
            "--impl",
            engine_command("crash", "--start-once", str(tmp_path / "started")),
            "--scenarios",
            str(suite / "frozen-take.yaml"),
            str(suite / "seeded-turn-order.yaml"),
            "--json",
            str(report),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr, done.stderr[-600:]
    assert done.returncode == 1
    assert [r["status"] for r in json.loads(report.read_text(encoding="utf-8"))["results"]] == ["errored"] * 2


def test_cli_reports_a_hang_as_timed_out(suite: Path, tmp_path: Path) -> None:
    start = time.monotonic()
    code, _, report = conform(
        "--impl",
        engine_command("hang", "--once", str(tmp_path / "hung")),
        "--timeout",
        "1",
        "--scenarios",
        str(suite / "frozen-take.yaml"),
        str(suite / "seeded-turn-order.yaml"),
        cwd=tmp_path,
    )
    assert time.monotonic() - start < 60  # no wait beyond the 1 s timeout and the stopping
    assert code == 1
    assert [r["status"] for r in report["results"]] == ["timed out", "passed"]


ALL = {
    "frozen-take@classic",
    "seeded-turn-order@classic",
    "own-hand-view@classic",
    "two-player-order@classic-2p",
    "one-card-pile-forbidden@classic",
}
FILTERS: list[tuple[list[str], set[str]]] = [
    (["--variant", "classic-2p"], {"two-player-order@classic-2p"}),
    (["--variant", "classic"], ALL - {"two-player-order@classic-2p"}),
    (["--variant", "classic", "--variant", "classic-2p"], ALL),
    (["--rule", "PILE.TAKE.FROZEN"], {"frozen-take@classic"}),
    (["--rule", "PILE.TAKE"], {"frozen-take@classic", "one-card-pile-forbidden@classic"}),
    (["--rule", "PILE.TAKE.*"], {"frozen-take@classic", "one-card-pile-forbidden@classic"}),
    (["--rule", "PILE.TAK"], set()),  # a prefix is whole segments
    (
        ["--rule", "TURN.ORDER", "--rule", "TURN.DRAW_FIRST"],
        {"seeded-turn-order@classic", "two-player-order@classic-2p", "own-hand-view@classic"},
    ),
    (["--rule", "TURN.ORDER", "--variant", "classic-2p"], {"two-player-order@classic-2p"}),
    (["--level", "alternative"], {"one-card-pile-forbidden@classic"}),
    (["--level", "must", "--rule", "PILE"], {"frozen-take@classic"}),
    (["--level", "implementation-defined"], set()),
]


def _selection(filters: list[str]) -> Selection:
    chosen: dict[str, list[str]] = {"--variant": [], "--rule": [], "--level": []}
    for flag, value in zip(filters[::2], filters[1::2], strict=True):
        chosen[flag].append(value)
    return Selection(chosen["--variant"] or KIT_VARIANTS, chosen["--rule"], chosen["--level"])


@pytest.mark.parametrize(("filters", "expected"), FILTERS, ids=[" ".join(f) for f, _ in FILTERS])
def test_selection_filters(suite: Path, filters: list[str], expected: set[str]) -> None:
    cases = _selection(filters).cases(load_scenarios([suite]))
    assert {f"{s.id}@{v}" for s, v in cases} == expected


@pytest.mark.parametrize("index", [0, 10], ids=lambda i: " ".join(FILTERS[i][0]))
def test_cli_filters(suite: Path, tmp_path: Path, index: int) -> None:
    filters, expected = FILTERS[index]
    code, _, report = conform("--impl", reference_command(), "--scenarios", str(suite), *filters, cwd=tmp_path)
    assert code == 0
    assert keys(report) == expected
    assert report["counts"] == {"passed": len(expected)}


def test_cli_with_nothing_selected_is_refused_before_it_runs(suite: Path, tmp_path: Path) -> None:
    """A run that tests nothing proves nothing: it is refused (status 2) with the reason, and writes no report."""
    done = subprocess.run(
        [CANASTA_REF_PATH, "conform", "--no-progress", "--scenarios", str(suite), "--level", "implementation-defined"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr == "canasta-ref: nothing to run: no scenario matches the --variant, --rule and --level given\n"
    assert list(tmp_path.iterdir()) == []


# -- generated games catch what no scenario looks at ---------------------------------------------------------


@pytest.mark.parametrize("how", ["adds", "replaces"])
def test_generated_games_catch_the_leaky_engine(tmp_path: Path, how: str) -> None:
    pytest.importorskip("canasta_ref.conformance.generated")
    extra = ("--replace",) if how == "replaces" else ()
    code, out, report = conform(
        "--impl", engine_command("leaky", *extra), "--games", "2", "--no-scenarios", cwd=tmp_path
    )
    assert code == 1
    # one failed result per distinct deviation found (generated.py groups them), each a view that shows too much
    failed = [r for r in report["results"] if r["status"] == "failed"]
    assert failed and all("view" in r["message"] for r in failed)
    assert report["generated"]["disagreements"] == len(failed)
    # the summary says where the shrunk scenarios are: in the JSON report (and printed with --verbose)
    assert "each deviation shrunk to a scenario: --verbose prints them, the JSON report holds them" in out
    assert all(d["scenario_yaml"].startswith("scenario: 1\n") for d in report["generated"]["deviations"])


# -- the mutation tool, on the small suite -------------------------------------------------------------------


def test_the_mutation_tool_reports_caught_and_survived(
    suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = importlib.util.spec_from_file_location("mutants", Path(__file__).parents[2] / "tools" / "mutants.py")
    assert spec is not None and spec.loader is not None
    mutants = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "mutants", mutants)  # dataclasses and the worker processes look it up
    spec.loader.exec_module(mutants)
    out = tmp_path / "mutants.json"
    argv = ["--variant", "classic", "--scenarios", str(suite), "--only", "PILE.TAKE.FROZEN", "--only", "MATCH.TARGET"]
    code = mutants.main([*argv, "--kind", "rule", "--jobs", "2", "--quiet", "--json", str(out), "--min-score", "60"])
    data = json.loads(out.read_text(encoding="utf-8"))
    assert code == 1  # 1 of 2 is below 60 %
    assert data["score"] == {"caught": 1, "total": 2, "percent": 50.0}
    outcomes = {m["mutant"]["target"]: m for m in data["mutants"]}
    assert outcomes["PILE.TAKE.FROZEN"]["caught_by"] == "frozen-take@classic"
    assert outcomes["PILE.TAKE.FROZEN"]["ran"] == 1  # the scenario citing the clause runs first, and stops it
    assert outcomes["MATCH.TARGET"]["caught"] is False
    assert "never evaluated" in outcomes["MATCH.TARGET"]["reason"]
