"""Known failures: listed failures pass the run, a listed pass or an unknown id fails it, and a written file works.

The CLI is called in process (``canasta_ref.cli.main``) against engines run as subprocesses; one test goes
through a real ``canasta-ref`` process end to end.
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from broken_engines.kit import (
    CANASTA_REF_PATH,
    KIT_VARIANT_ARGS,
    engine_command,
    reference_command,
    write_scenarios,
)

from canasta_ref.cli import main
from canasta_ref.conformance.known import apply_known, write_known
from canasta_ref.conformance.runner import Result

MUTANT = reference_command("--mutate-rule", "PILE.TAKE.FROZEN")


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # under the mutant, frozen-take fails and seeded-turn-order passes
    return write_scenarios(tmp_path_factory.mktemp("scenarios"), ("frozen-take", "seeded-turn-order"))


def conform(tmp_path: Path, suite: Path, *args: str, impl: str = MUTANT) -> tuple[int, str, dict[str, Any]]:
    report = tmp_path / "report.json"
    out = io.StringIO()
    argv = [
        "conform",
        "--no-progress",
        *KIT_VARIANT_ARGS,
        "--impl",
        impl,
        "--scenarios",
        str(suite),
        "--json",
        str(report),
        *args,
    ]
    code = main(argv, out=out)
    data = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    return code, out.getvalue(), data


def by_key(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f"{r['scenario']}@{r['variant']}": r for r in report["results"]}


def known_file(tmp_path: Path, entries: dict[str, str]) -> str:
    path = tmp_path / "known.yaml"
    path.write_text(yaml.safe_dump({"engine": "test", "known_failures": entries}), encoding="utf-8")
    return str(path)


def test_without_a_list_the_mutant_fails(tmp_path: Path, suite: Path) -> None:
    code, _, report = conform(tmp_path, suite)
    assert code == 1
    assert report["counts"] == {"failed": 1, "passed": 1}


@pytest.mark.parametrize("key", ["frozen-take", "frozen-take@classic"])
def test_a_listed_failure_is_a_known_failure_and_the_run_passes(tmp_path: Path, suite: Path, key: str) -> None:
    known = known_file(tmp_path, {key: "we have not done frozen piles yet"})
    code, out, report = conform(tmp_path, suite, "--known-failures", known)
    assert code == 0
    result = by_key(report)["frozen-take@classic"]
    assert result["status"] == "known failure"
    assert result["message"].startswith("we have not done frozen piles yet (was: step 1 `take KH JK`: expected refused")
    assert by_key(report)["seeded-turn-order@classic"]["status"] == "passed"
    assert "1 known failure, as the known-failures file says (--verbose lists them)" in out
    assert out.splitlines()[-1] == "1 passed, 0 failed, 1 known failure"


def test_a_listed_scenario_that_passes_is_an_unexpected_pass(tmp_path: Path, suite: Path) -> None:
    known = known_file(tmp_path, {"frozen-take": "broken", "seeded-turn-order": "was broken once"})
    code, out, report = conform(tmp_path, suite, "--known-failures", known)
    assert code == 1
    result = by_key(report)["seeded-turn-order@classic"]
    assert result["status"] == "unexpected pass"
    assert "listed in" in result["message"] and "remove it" in result["message"]
    assert by_key(report)["frozen-take@classic"]["status"] == "known failure"
    assert "UNEXPECTED PASS: seeded-turn-order@classic" in out


def test_an_unknown_id_is_an_error(tmp_path: Path, suite: Path) -> None:
    known = known_file(tmp_path, {"frozen-take": "broken", "no-such-scenario": "typo"})
    code, _, report = conform(tmp_path, suite, "--known-failures", known)
    assert code == 1
    result = by_key(report)["no-such-scenario@*"]
    assert result["status"] == "errored"
    assert "'no-such-scenario', which names no test that ran" in result["message"]


def test_an_unknown_variant_of_a_known_scenario_is_an_error(tmp_path: Path, suite: Path) -> None:
    known = known_file(tmp_path, {"frozen-take": "broken", "seeded-turn-order@classic-2p": "no such case"})
    code, _, report = conform(tmp_path, suite, "--known-failures", known)
    assert code == 1
    assert by_key(report)["seeded-turn-order@classic-2p"]["status"] == "errored"


def test_a_known_crash_is_a_known_failure(tmp_path: Path, suite: Path) -> None:
    known = known_file(tmp_path, {"frozen-take": "crashes", "seeded-turn-order": "crashes too"})
    code, _, report = conform(tmp_path, suite, "--known-failures", known, impl=engine_command("crash"))
    assert code == 0
    assert {r["status"] for r in report["results"]} == {"known failure"}
    assert "(was: the process exited with status 3)" in by_key(report)["frozen-take@classic"]["message"]


def test_a_list_without_reasons_is_refused(tmp_path: Path, suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "known.yaml"
    path.write_text("known_failures:\n  frozen-take: ''\n", encoding="utf-8")
    code, _, _ = conform(tmp_path, suite, "--known-failures", str(path))
    assert code == 2
    assert "known_failures.frozen-take': give the reason as text" in capsys.readouterr().err


def test_written_known_failures_make_the_same_run_pass(tmp_path: Path, suite: Path) -> None:
    written = tmp_path / "written.yaml"
    code, out, _ = conform(tmp_path, suite, "--write-known-failures", str(written))
    assert code == 1  # writing the list does not excuse today's run
    assert f"wrote 1 known failures to {written}" in out
    data = yaml.safe_load(written.read_text(encoding="utf-8"))
    assert data["engine"] == "canasta-ref (mutant: PILE.TAKE.FROZEN negated)"
    assert list(data["known_failures"]) == ["frozen-take@classic"]
    assert data["known_failures"]["frozen-take@classic"].startswith("step 1 `take KH JK`: expected refused")

    code, _, report = conform(tmp_path, suite, "--known-failures", str(written))
    assert code == 0
    assert report["counts"] == {"known failure": 1, "passed": 1}

    # the reference passes the listed scenario: the list is stale against it
    code, _, report = conform(tmp_path, suite, "--known-failures", str(written), impl=reference_command())
    assert code == 1
    assert by_key(report)["frozen-take@classic"]["status"] == "unexpected pass"


def test_writing_with_nothing_failing_writes_an_empty_list_that_loads(tmp_path: Path, suite: Path) -> None:
    written = tmp_path / "written.yaml"
    code, _, _ = conform(tmp_path, suite, "--write-known-failures", str(written), impl=reference_command())
    assert code == 0
    assert yaml.safe_load(written.read_text(encoding="utf-8"))["known_failures"] == {}
    code, _, _ = conform(tmp_path, suite, "--known-failures", str(written), impl=reference_command())
    assert code == 0


def test_end_to_end_through_the_command(tmp_path: Path, suite: Path) -> None:
    written = tmp_path / "written.yaml"
    command = [
        CANASTA_REF_PATH,
        "conform",
        "--no-progress",
        *KIT_VARIANT_ARGS,
        "--impl",
        MUTANT,
        "--scenarios",
        str(suite),
    ]
    first = subprocess.run([*command, "--write-known-failures", str(written)], capture_output=True, timeout=60)
    second = subprocess.run([*command, "--known-failures", str(written)], capture_output=True, text=True, timeout=60)
    assert (first.returncode, second.returncode) == (1, 0), second.stdout + second.stderr
    assert "1 known failure" in second.stdout


def test_apply_known_leaves_skips_alone() -> None:
    results = [Result("a", "classic", "skipped", "no positions"), Result("b", "classic", "failed", "wrong")]
    out = apply_known(results, {"a": "irrelevant", "b": "known"}, "known.yaml")
    assert [(r.key, r.status) for r in out] == [("a@classic", "skipped"), ("b@classic", "known failure")]


def test_a_written_reason_is_the_first_real_failure_not_an_implementation_defined_difference(tmp_path: Path) -> None:
    left_open = {"step": 1, "check": "view.pile", "message": "step 1: the pile differs", "implementation_defined": True}
    real = {"step": 2, "check": "verdict", "message": "step 2: expected accepted, got refused\n    rule text"}
    result = Result("s", "classic", "failed", "step 1: the pile differs\nstep 2: ...", failures=[left_open, real])
    path = tmp_path / "known.yaml"
    write_known([result], path, "engine")
    written = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert written["known_failures"] == {"s@classic": "step 2: expected accepted, got refused"}
