"""What a run tells an engine's author: one summary (deviations by rule, else by cause; skips summed by reason),
every result with ``--verbose``, everything in the JSON report, and plain words for a broken handshake."""

from __future__ import annotations

import dataclasses
import json
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest
from broken_engines.kit import CANASTA_REF_PATH, KIT_VARIANT_ARGS, engine_command, write_scenarios

from canasta_ref.conformance import causes
from canasta_ref.conformance.deviations import DeviationKey
from canasta_ref.conformance.engines import EngineFailure, EngineInfo, InProcessEngine, engine_info
from canasta_ref.conformance.generated import run_generated_games
from canasta_ref.conformance.report import SCREEN_WIDTH, failed, json_report, summary
from canasta_ref.conformance.runner import NO_VIEWS, Result, Selection, first_failure, run_case, run_suite
from canasta_ref.conformance.scenario import Scenario, load_scenarios, scenario_dir
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.conformance.variants import reference_rules


def hello(**fields: Any) -> dict[str, Any]:
    reply = ReferenceSession().handle({"cmd": "hello", "protocol": 1})
    reply.update(fields)
    return reply


@pytest.mark.parametrize(
    ("reply", "says"),
    [
        ({"ok": True}, "its hello answer has no protocol version (a field 'protocol' giving 1 or 2 was expected)"),
        (
            hello(protocol=None),
            "its hello answer has no protocol version (a field 'protocol' giving 1 or 2 was expected)",
        ),
        (hello(protocol="two"), "its hello answer gives the protocol version as 'two', not a number (1 or 2)"),
        (hello(protocol=9), "the engine speaks protocol 9, not 1 or 2"),
    ],
    ids=["ok alone", "null", "a word", "too new"],
)
def test_a_hello_without_a_version_it_can_speak_is_said_in_plain_words(reply: dict[str, Any], says: str) -> None:
    with pytest.raises(EngineFailure) as failure:
        engine_info(reply, protocols=(1, 2))
    assert failure.value.detail == says
    assert "None" not in failure.value.detail


# -- a notation scenario: only its notation may differ --------------------------------------------------------


def bundled(scenario_id: str) -> Scenario:
    (loaded,) = load_scenarios([scenario_dir() / f"{scenario_id}.yaml"])
    return loaded


class CitesNoSuchRule(InProcessEngine):
    """The reference, citing a rule of its own for every refusal."""

    def receive(self) -> list[dict[str, Any]]:
        return [{**r, "rule": "NO.SUCH.RULE"} if r.get("accepted") is False else r for r in super().receive()]


def test_a_notation_scenario_whose_notation_alone_differs_differs() -> None:
    result = run_case(CitesNoSuchRule(), bundled("one-meld-at-a-time-after-opening"), "classic")
    assert result.status == "differs"
    assert [(f["step"], f["check"], f.get("implementation_defined")) for f in result.failures] == [(1, "rule", True)]


def test_an_implementation_defined_difference_is_one_summary_line_without_the_rule_text() -> None:
    engine = CitesNoSuchRule()
    result = run_case(engine, bundled("one-meld-at-a-time-after-opening"), "classic")
    lines = summary([result], engine.info)
    (line,) = [line for line in lines if "differs: implementation-defined" in line]
    assert line == f"  {result.failures[0]['rule']} (differs: implementation-defined): one-meld-at-a-time-after-opening"
    clause = reference_rules("classic").variant.clauses[result.failures[0]["rule"]]
    assert clause.text not in "\n".join(lines)


def test_a_real_failure_inside_a_notation_scenario_fails_it() -> None:
    """Negated, the clause lets both melds be laid at once (a difference of notation) but then refuses the single
    meld the scenario lays next: a refusal of a legal play, not a notation."""
    engine = InProcessEngine(ReferenceSession(mutate_rule="MELD.ONE_GROUP_AFTER_OPENING"))
    result = run_case(engine, bundled("one-meld-at-a-time-after-opening"), "classic")
    assert result.status == "failed"
    assert [(f["step"], f.get("implementation_defined", False)) for f in result.failures][:2] == [(1, True), (2, False)]
    assert not failed([run_case(InProcessEngine(), bundled("one-meld-at-a-time-after-opening"), "classic")])


# -- a failure goes under the rule the check names, else under its cause ---------------------------------------


class SeatsTurned(InProcessEngine):
    """The reference, whose views number the seats one further round the table: seat 0 sees seat 1's hand,
    the hand sizes and bonus cards by seat turned round, and whose turn it is one seat back."""

    asked: list[Mapping[str, Any]]

    def send(self, messages: Iterable[Mapping[str, Any]]) -> None:
        messages = list(messages)
        self.asked = [*getattr(self, "asked", []), *messages]
        super().send([self._turned(m) for m in messages])

    def receive(self) -> list[dict[str, Any]]:
        replies = super().receive()
        asked, self.asked = self.asked[: len(replies)], self.asked[len(replies) :]
        return [self._renumbered(m, r) for m, r in zip(asked, replies, strict=True)]

    def forget(self) -> None:
        self.asked = []
        super().forget()

    def _players(self) -> int:
        return self.session.game.rules.players if self.session.game is not None else 4

    def _turned(self, message: Mapping[str, Any]) -> Mapping[str, Any]:
        if message.get("cmd") != "view":
            return message
        return {**message, "seat": (int(message["seat"]) + 1) % self._players()}

    def _renumbered(self, message: Mapping[str, Any], reply: dict[str, Any]) -> dict[str, Any]:
        view = reply.get("view")
        if message.get("cmd") != "view" or not isinstance(view, dict):
            return reply
        turned = {key: view[key][1:] + view[key][:1] for key in ("hand_sizes", "bonus_cards")}
        to_act = (view["to_act"] - 1) % self._players()
        return {**reply, "view": {**view, **turned, "seat": message["seat"], "to_act": to_act}}


def test_a_seat_numbering_difference_is_its_cause_not_a_guessed_rule() -> None:
    report = run_generated_games(SeatsTurned(), 2, 0, variants=["classic"], shrink_seconds=1, max_shrunk=0)
    keys = {d.key for d in report.deviations}
    assert keys == {DeviationKey("view", None, None, causes.SEAT_NUMBERING)}, keys
    (deviation,) = report.deviations
    assert deviation.to_json()["cause"] == "view: seat numbering"
    assert "hand" in deviation.message


@pytest.mark.parametrize(
    ("key", "wanted", "got", "renumbered"),
    [
        ("hand_sizes", [11, 12, 11, 11], [12, 11, 11, 11], True),
        ("hand_sizes", [11, 12, 11, 11], [11, 11, 11, 13], False),
        ("hand", ["4C", "KD"], ["5H", "9S"], True),
        ("hand", ["4C", "KD"], ["4C", "QD"], False),
        ("stock_size", 61, 62, False),
    ],
)
def test_seat_numbering_is_told_from_a_field_that_differs_otherwise(
    key: str, wanted: Any, got: Any, renumbered: bool
) -> None:
    hands = [["4C", "KD"], ["5H", "9S"], ["2C", "3D"], ["AS", "AH"]]
    expected = causes.SEAT_NUMBERING if renumbered else f"view: '{key}' differs"
    assert causes.view_cause(key, wanted, got, hands) == expected


class RefusesMeldsCiting(InProcessEngine):
    """The reference, refusing every meld (citing ``rule``, when one is given)."""

    def __init__(self, rule: str | None) -> None:
        self.rule = rule
        super().__init__()

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        action = message.get("action")
        if message.get("cmd") == "apply" and isinstance(action, dict) and action.get("type") == "meld":
            refusal: dict[str, Any] = {"ok": True, "accepted": False, "message": "no melds today"}
            return {**refusal, "rule": self.rule} if self.rule else refusal
        return super().request(message)


@pytest.mark.parametrize(
    ("cited", "rule", "cause"),
    [
        ("MELD.MAX_WILDS", "MELD.MAX_WILDS", "verdict: refuses `meld` actions the reference accepts"),
        (None, "TURN.END", "verdict: refuses `meld` actions the reference accepts"),
        ("NO.SUCH.RULE", "TURN.END", "verdict: refuses `meld` actions the reference accepts"),
    ],
    ids=["a rule of the variant", "no rule", "a rule the variant has not"],
)
def test_a_legal_play_refused_goes_under_the_engines_rule_else_the_scenarios_one_rule_keeping_its_cause(
    cited: str | None, rule: str | None, cause: str
) -> None:
    result = run_case(RefusesMeldsCiting(cited), bundled("a-turn-ends-with-a-discard"), "classic")
    first = result.failures[0]
    assert (first["check"], first["rule"], first["cause"]) == ("verdict", rule, cause)


def test_a_failure_naming_no_rule_in_a_scenario_of_two_rules_stays_under_its_cause() -> None:
    scenario = dataclasses.replace(bundled("a-turn-ends-with-a-discard"), rules=("TURN.END", "TURN.ORDER"))
    first = run_case(RefusesMeldsCiting(None), scenario, "classic").failures[0]
    assert (first["rule"], first["cause"]) == (None, "verdict: refuses `meld` actions the reference accepts")


class AcceptsEveryAction(InProcessEngine):
    """The reference, answering every refusal with an acceptance it does not make."""

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        reply = super().request(message)
        return {"ok": True, "accepted": True} if reply.get("accepted") is False else reply


def test_a_failure_naming_no_rule_goes_under_the_rule_the_reference_refused_the_step_by() -> None:
    """Where the reference refuses a step by a rule, a later check of that step that fails goes under it."""
    scenario = bundled("frozen-pile-needs-natural-pair")
    result = run_case(AcceptsEveryAction(), scenario, "classic")
    assert result.failures and all(f["rule"] in scenario.rules for f in result.failures), result.failures


class ShowsTheRefusedTake(InProcessEngine):
    """The reference, refusing what it refuses but showing the pile as taken in its views after a refusal."""

    faked = False

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        reply = super().request(message)
        if reply.get("accepted") is False:
            self.faked = True
        elif self.faked and isinstance(reply.get("view"), dict):
            return {**reply, "view": {**reply["view"], "pile": []}}
        return reply


def test_a_later_check_naming_no_rule_goes_under_the_rule_the_reference_refused_its_step_by(tmp_path: Path) -> None:
    """A scenario of two rules whose refused step names neither (no step rule, no rule expected): the view that
    differs after the engine's right refusal is filed under the rule the reference's refusal cites, not under its
    cause alone."""
    text = bundled("frozen-pile-needs-natural-pair").file
    written = (
        Path(text)
        .read_text(encoding="utf-8")
        .replace(
            "expect: {result: refused, rule: PILE.TAKE.FROZEN}",
            'expect: {result: refused, view: {seat: 0, pile: "6H 2C KD"}}',
        )
    )
    path = tmp_path / "frozen-pile-needs-natural-pair.yaml"
    path.write_text(written, encoding="utf-8")
    (scenario,) = load_scenarios([path])
    assert len(scenario.rules) == 2 and scenario.steps[0].rule is None and scenario.steps[0].expect.rule is None
    result = run_case(ShowsTheRefusedTake(), scenario, "classic")
    rules = {(f["step"], f["check"]): f["rule"] for f in result.failures}
    assert rules[(1, "view.pile")] == "PILE.TAKE.FROZEN", result.failures
    # a check of the next step, which the reference accepts, names no rule: nothing says which of the two it is
    assert rules[(2, "views agree")] is None, result.failures


def test_a_refusal_expected_goes_under_its_rule() -> None:
    engine = InProcessEngine(ReferenceSession(mutate_rule="PILE.TAKE.FROZEN"))
    result = run_case(engine, bundled("frozen-pile-needs-natural-pair"), "classic")
    assert result.failures[0]["rule"] == "PILE.TAKE.FROZEN"
    assert result.failures[0]["cause"] == "verdict: accepts `take` actions the reference refuses"


# -- the summary: one line a deviation, its rule said once; skips summed; --verbose; the JSON report -----------


def claiming(engine: InProcessEngine, *variants: str, **capabilities: Any) -> InProcessEngine:
    """The engine, claiming only ``variants`` (and other capabilities) in its hello."""
    merged = {**engine.info.capabilities, **capabilities}
    engine.info = dataclasses.replace(engine.info, variants=list(variants), capabilities=merged)
    return engine


@pytest.fixture(scope="module")
def frozen_run() -> tuple[list[Result], EngineInfo]:
    """Every scenario citing PILE.TAKE.FROZEN, in every variant, on a mutant of that clause claiming Classic."""
    engine = claiming(InProcessEngine(ReferenceSession(mutate_rule="PILE.TAKE.FROZEN")), "classic")
    cases = Selection(rules=["PILE.TAKE.FROZEN"]).cases(load_scenarios(None))
    return run_suite(engine, cases), engine.info


def test_one_broken_rule_is_one_line_with_its_text_and_source_once(
    frozen_run: tuple[list[Result], EngineInfo],
) -> None:
    results, info = frozen_run
    lines = summary(results, info)
    showing = [r for r in results if (first_failure(r) or {}).get("rule") == "PILE.TAKE.FROZEN"]
    assert len(showing) > 3
    later = sum(len(r.failures) - 1 for r in showing)
    (line,) = [line for line in lines if line.startswith("  PILE.TAKE.FROZEN: ")]
    said = f", {later} later failures" if later else ""
    assert line.startswith(f"  PILE.TAKE.FROZEN: {len(showing)} scenarios{said}; e.g. ")
    assert "expected " in line.split("e.g. ")[1] and ", got " in line
    clause = reference_rules("classic").variant.clauses["PILE.TAKE.FROZEN"]
    (told,) = [line for line in lines if line.startswith("      ")]  # the rule's text and source, once, one line
    assert told.startswith("      " + clause.text.split(", ")[0])
    assert f'(source {clause.sources[0].source}: "{clause.sources[0].quote[:10]}' in told
    assert max(len(line) for line in lines) <= SCREEN_WIDTH
    assert not any(line.startswith(("FAILED", "SKIPPED")) for line in lines)


def test_the_variants_not_claimed_are_one_line(frozen_run: tuple[list[Result], EngineInfo]) -> None:
    results, info = frozen_run
    lines = summary(results, info)
    unclaimed = sorted({r.variant for r in results} - {"classic"})
    skipped = sum(r.variant != "classic" for r in results)
    assert all(r.status == "skipped" for r in results if r.variant != "classic")
    (line,) = [line for line in lines if line.startswith("variants claimed: ")]
    assert lines[-2] == f"totals = variants' lines + variants not claimed: {skipped} skipped"
    # Nine variants' names do not fit the screen's width: they are counted (--verbose lists each skipped test).
    assert line == f"variants claimed: classic; not claimed: {len(unclaimed)} others, --verbose names them " + (
        f"({skipped} tests skipped)"
    )
    assert not any(unclaimed_variant + ":" in lines for unclaimed_variant in unclaimed)
    assert len(lines) < 25, "\n".join(lines)


def test_verbose_adds_every_result_before_the_same_summary(frozen_run: tuple[list[Result], EngineInfo]) -> None:
    results, info = frozen_run
    short, verbose = summary(results, info), summary(results, info, verbose=True)
    assert verbose[-len(short) :] == short
    shown = [r for r in results if r.status not in ("passed",)]
    for result in shown:
        assert f"{result.status.upper()}: {result.key}" in "\n".join(verbose[: -len(short)])


def test_skips_are_summed_by_reason() -> None:
    engine = claiming(InProcessEngine(), "classic", views=False)
    cases = Selection(variants=["classic"], rules=["PILE.TAKE.FROZEN"]).cases(load_scenarios(None))
    results = run_suite(engine, cases)
    checks = sum(r.skips.get(NO_VIEWS, 0) for r in results)
    assert checks > len(results)  # several a scenario
    lines = summary(results, engine.info)
    assert lines[lines.index("skipped, by reason:") + 1] == f"  {checks} checks: {NO_VIEWS}"
    assert sum(NO_VIEWS in line for line in lines) == 1


def test_a_failure_with_no_rule_is_one_line_under_its_cause() -> None:
    """Generated games against an engine numbering seats otherwise: one line, under its cause."""
    engine = SeatsTurned()
    report = run_generated_games(engine, 2, 0, variants=["classic"], shrink_seconds=1, max_shrunk=0)
    lines = summary(report.results, engine.info, report.campaign())
    (line,) = [line for line in lines if "view: seat numbering" in line]
    assert line.startswith("  view: seat numbering: 2 games; e.g. generated game 1: at the deal: ")
    assert lines[1] == "classic: 2 generated games, 2 disagree"


def test_the_json_report_keeps_its_fields_and_adds_the_summary(frozen_run: tuple[list[Result], EngineInfo]) -> None:
    results, info = frozen_run
    data = json.loads(json_report(results, info, {"adapter": {"engine": "x"}}))
    assert set(data) == {"engine", "counts", "results", "checks", "adapter", "summary"}
    assert len(data["results"]) == len(results)
    classic = data["summary"]["variants"]["classic"]
    (frozen,) = [d for d in classic["deviations"] if d["rule"] == "PILE.TAKE.FROZEN"]
    assert len(frozen["scenarios"]) > 3 and frozen["cause"].startswith("verdict: ")
    assert sum(data["summary"]["not_claimed"].values()) == sum(r.variant != "classic" for r in results)
    assert data["summary"]["skipped"] == {"tests": {}, "checks": {}}


# -- the command line ------------------------------------------------------------------------------------------


def conform(*args: str) -> tuple[int, list[str]]:
    done = subprocess.run(
        [CANASTA_REF_PATH, "conform", "--no-progress", *args], capture_output=True, text=True, timeout=240
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, done.stdout.splitlines()


def test_conform_prints_the_summary_and_with_verbose_every_result(tmp_path: Path) -> None:
    suite = write_scenarios(tmp_path)
    engine = engine_command("narrow", "--variants", "classic", "--mutate-rule", "PILE.TAKE.FROZEN")
    args = ("--impl", engine, "--scenarios", str(suite), *KIT_VARIANT_ARGS)
    code, lines = conform(*args)
    assert code == 1
    assert lines[0].startswith("engine: canasta-ref (mutant: PILE.TAKE.FROZEN negated)")
    assert any(line.startswith("variants claimed: classic; not claimed: classic-2p (") for line in lines), lines
    assert any(line.startswith("  PILE.TAKE.FROZEN: 1 scenario; e.g. frozen-take: step 1") for line in lines), lines
    assert not any(line.startswith(("FAILED:", "SKIPPED:")) for line in lines)
    _, verbose = conform(*args, "--verbose")
    assert "FAILED: frozen-take@classic" in "\n".join(verbose)
    assert verbose[-len(lines) :] == lines


def test_conform_says_plainly_that_a_hello_has_no_version() -> None:
    code, lines = conform("--impl", engine_command("narrow", "--ok-only"))
    assert code == 1
    assert lines[0] == f"engine: {engine_command('narrow', '--ok-only')} (it did not start)"
    assert "its hello answer has no protocol version" in "\n".join(lines)
    assert "None" not in "\n".join(lines)
