"""Engines under test that are broken by definition (``broken_engines/abuse.py``): each is reported for what it
does, never an exception out of the runner, never an unbounded report, never a process left behind.
"""

from __future__ import annotations

import io
import random
import shlex
import time
from pathlib import Path
from typing import Any

import pytest
from broken_engines.kit import (
    KIT_PLUGIN_ARGS,
    KIT_VARIANTS,
    engine_command,
    pids_of,
    reference_command,
    survivors,
    write_scenarios,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_ref.conformance.engines import (
    STDERR_LINE_BYTES,
    STDERR_LINES,
    EngineFailure,
    EngineInfo,
    InProcessEngine,
    SubprocessEngine,
    _StderrTail,
    answer_field_problem,
    engine_info,
)
from canasta_ref.conformance.generated import GeneratedReport, run_generated_games
from canasta_ref.conformance.perft import run_perft_files
from canasta_ref.conformance.report import failed, nothing_ran, summary
from canasta_ref.conformance.runner import (
    MESSAGE_CHARS,
    STDERR_CHARS,
    Result,
    Selection,
    run_case,
    run_suite,
    unknown_field_problem,
)
from canasta_ref.conformance.scenario import load_scenarios, scenario_dir
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.spec import list_variants

pytest_plugins = ["pytester"]


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_scenarios(tmp_path_factory.mktemp("scenarios"), ("frozen-take", "seeded-turn-order"))


def run_abuse(suite: Path, mode: str, *extra: str, timeout: float = 5.0) -> list[Result]:
    """Both scenarios of the small suite against ``abuse.py MODE``; the engine closed afterwards."""
    engine = SubprocessEngine(engine_command("abuse", mode, *extra), timeout=timeout)
    try:
        return run_suite(engine, Selection(variants=KIT_VARIANTS).cases(load_scenarios([suite])))
    finally:
        engine.close()


def one_generated_game(mode: str, shrink_runs: int) -> tuple[GeneratedReport, Result]:
    """One generated game of Classic against the abuse engine in ``mode``: the report and its first deviation's
    result (the game goes on past it, so later ones may follow)."""
    engine = SubprocessEngine(engine_command("abuse", mode))
    try:
        report = run_generated_games(engine, 1, 0, variants=["classic"], shrink_seconds=2, max_shrink_runs=shrink_runs)
    finally:
        engine.close()
    failed = [r for r in report.results if r.status == "failed"]
    assert failed, report.report_lines()
    return report, failed[0]


# -- 1. output closed, the process alive ---------------------------------------------------------------------
def test_an_engine_that_closes_its_output_but_lives_is_reported_stopped_and_the_run_goes_on(
    suite: Path, tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    start = time.monotonic()
    results = run_abuse(suite, "close-stdout", "--once", str(tmp_path / "once"), "--pid-file", str(pids), timeout=60)
    assert time.monotonic() - start < 30  # told at once, not after the 60 s timeout
    assert [r.status for r in results] == ["errored", "passed"]
    assert results[0].message == "the engine closed its output but is still running (it was stopped)"
    assert not survivors(pids)


# -- 2. replies no decoder should be trusted with ------------------------------------------------------------
@pytest.mark.parametrize(
    ("mode", "says"),
    [
        ("big-int", "not JSON that can be read (Exceeds the limit"),
        ("long-line", f"a line longer than {8 * 1024 * 1024} bytes"),
        ("nan", "not JSON (NaN is not a JSON value (a number must be finite)): "),
        ("key-twice", 'not JSON (the key "accepted" comes twice in one object): '),
    ],
)
def test_a_reply_too_deep_too_long_or_with_a_huge_number_is_garbage(
    suite: Path, tmp_path: Path, mode: str, says: str
) -> None:
    results = run_abuse(suite, mode, "--once", str(tmp_path / "once"), timeout=5)
    assert [r.status for r in results] == ["errored", "passed"]
    assert says in results[0].message
    assert len(results[0].message) < 600


# -- 3. replies of the wrong types ---------------------------------------------------------------------------
HELLOS: list[tuple[dict[str, Any], str]] = [
    ({"capabilities": ["views"]}, "'capabilities' must be an object, got ['views']"),
    ({"variants": "classic"}, "'variants' must be a list of variant ids, got 'classic'"),
    ({"variants": 7}, "'variants' must be a list of variant ids, got 7"),
    ({"variants": ["classic", 2]}, "'variants' must be a list of variant ids"),
    ({"name": {"first": "bad"}}, "'name' must be a text"),
    ({"protocol": "1"}, "its hello answer gives the protocol version as '1', not a number"),
    ({"protocol": True}, "its hello answer gives the protocol version as True, not a number"),
    ({"capabilities": {"views": "yes"}}, "'capabilities.views' must be true or false, got 'yes'"),
    ({"capabilities": {"legal": ["list"]}}, '\'capabilities.legal\' must be "list", "count" or "none"'),
]


@pytest.mark.parametrize(("change", "says"), HELLOS, ids=[str(c) for c, _ in HELLOS])
def test_a_hello_with_fields_of_the_wrong_type_is_a_protocol_failure(change: dict[str, Any], says: str) -> None:
    reply = {**ReferenceSession().handle({"cmd": "hello", "protocol": 1}), **change}
    with pytest.raises(EngineFailure) as failure:
        engine_info(reply)
    assert failure.value.kind == "protocol"
    assert says in failure.value.detail


def test_a_good_hello_is_read_as_it_was() -> None:
    info = engine_info(ReferenceSession().handle({"cmd": "hello", "protocol": 1}))
    assert (info.name, info.variants, info.capabilities["legal"]) == ("canasta-ref", list_variants(), "list")


@pytest.mark.parametrize(
    ("mode", "says"),
    [
        ("actions-number", "the engine's reply to 'legal' was not a list of actions: 5"),
        ("view-list", "the engine's reply to 'view' for seat 0 was not an object: ['KH', 'KS']"),
        ("legal-twice", "the engine's reply to 'legal' lists `"),
    ],
)
def test_later_replies_of_the_wrong_type_fail_the_scenarios(suite: Path, mode: str, says: str) -> None:
    results = run_abuse(suite, mode)
    assert results[0].status == "failed"  # frozen-take: it reads every kind of reply
    assert says in results[0].message


def test_an_over_that_is_text_is_not_taken_for_true() -> None:
    """``"over": "false"`` is a non-empty string, true to Python: it must fail, not pass, where over is true."""
    scenario = load_scenarios([scenario_dir() / "dispute-one-card-pile.yaml"])[0]
    engine = SubprocessEngine(engine_command("abuse", "over-text"))
    try:
        result = run_case(engine, scenario, "classic")
    finally:
        engine.close()
    assert result.status == "failed"
    assert result.message.endswith("the hand should have ended; the engine says over='false'")


def test_generated_games_report_an_accepted_that_is_not_a_boolean(tmp_path: Path) -> None:
    _, result = one_generated_game("accepted-text", shrink_runs=20)
    assert "not true or false" in result.message


def test_perft_reports_a_legal_list_that_is_a_number() -> None:
    engine = SubprocessEngine(engine_command("abuse", "actions-number"))
    try:
        (result,) = run_perft_files(engine, variants=["classic"], paths=[perft_file()])
    finally:
        engine.close()
    assert result.status == "failed"
    assert "the engine did not list the legal actions" in result.message


def perft_file() -> Path:
    from canasta_ref.conformance.perft import perft_dir

    return perft_dir() / "classic-seed-3.yaml"


# -- 4. stderr and messages are bounded ----------------------------------------------------------------------
def test_a_stderr_of_one_endless_line_is_kept_short_saying_how_much_was_cut() -> None:
    tail = _StderrTail()
    tail.drain(io.BytesIO(b"start " + b"E" * 10_000_000 + b"\n" + b"last words\n" * 100 + b"no newline"))
    text = tail.text()
    assert len(text) < (STDERR_LINES + 1) * (STDERR_LINE_BYTES + 40)
    assert text.splitlines()[-1] == "no newline"
    assert "last words" in text


def test_a_line_cut_says_how_many_bytes_were_cut() -> None:
    tail = _StderrTail()
    tail.drain(io.BytesIO(b"E" * 10_000 + b"\nok\n"))
    first, second = tail.text().splitlines()
    assert first == "E" * STDERR_LINE_BYTES + f" [... {10_000 - STDERR_LINE_BYTES} bytes cut]"
    assert second == "ok"


def test_a_result_never_carries_more_than_its_bounds_and_is_always_utf8() -> None:
    result = Result("s", "classic", "failed", "x" * 1_000_000 + "\ud800", stderr="y" * 1_000_000)
    assert len(result.message) < MESSAGE_CHARS + 100 and "characters cut" in result.message
    assert len(result.stderr) < STDERR_CHARS + 100
    Result("s", "classic", "failed", "lone \ud800 surrogate").message.encode("utf-8")  # no UnicodeEncodeError


# -- 5. process groups ---------------------------------------------------------------------------------------
def wrapper(tmp_path: Path, *engine_args: str) -> str:
    """A shell wrapper that runs the engine as its child (not exec'ed), as people start engines."""
    script = tmp_path / "engine.sh"
    script.write_text(f"#!/bin/sh\n{engine_command('abuse', *engine_args)}\nexit 0\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def test_a_wrapped_engine_that_hangs_leaves_no_process_behind(suite: Path, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    engine = SubprocessEngine(wrapper(tmp_path, "hang", "--once", str(tmp_path / "once"), "--pid-file", str(pids)))
    engine.timeout = 3
    try:
        results = run_suite(engine, Selection(variants=KIT_VARIANTS).cases(load_scenarios([suite])))
    finally:
        engine.close()
    assert [r.status for r in results] == ["timed out", "passed"]
    assert len(pids_of(pids)) == 2  # the hung child, then the one started after the restart
    assert not survivors(pids)


def test_a_wrapped_engine_that_hangs_on_hello_leaves_no_process_behind(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    start = time.monotonic()
    with pytest.raises(EngineFailure) as failure:
        SubprocessEngine(wrapper(tmp_path, "hang", "--on", "hello", "--pid-file", str(pids)), start_timeout=3)
    assert time.monotonic() - start < 60  # no wait beyond the 3 s timeout and the stopping
    assert failure.value.kind == "timed out"
    assert not survivors(pids)


@pytest.mark.parametrize("mode", ["setsid-child", "setsid-daemon"])
def test_a_child_that_leaves_the_engines_session_is_killed_with_it(suite: Path, tmp_path: Path, mode: str) -> None:
    pids = tmp_path / "pids"
    results = run_abuse(suite, mode, "--pid-file", str(pids))
    assert [r.status for r in results] == ["passed", "passed"]
    assert len(pids_of(pids)) == 2  # the engine, and the child (or grandchild) in a session of its own
    assert not survivors(pids)


# -- 6. nothing tested is no pass ----------------------------------------------------------------------------
def test_nothing_ran_when_there_is_no_result_or_every_one_is_skipped() -> None:
    skipped = Result("s", "classic", "skipped", "the engine does not play classic")
    passed = Result("t", "classic", "passed")
    assert nothing_ran([]) and failed([])
    assert nothing_ran([skipped, skipped]) and failed([skipped])
    assert not nothing_ran([skipped, passed]) and not failed([skipped, passed])
    lines = summary([skipped], EngineInfo(name="x"))
    assert "nothing was tested: all 1 tests were skipped: the engine does not play classic (1)" in lines[-2]
    assert not any(line.startswith("totals = ") for line in lines)  # nothing ran: nothing to add up
    assert "the engine's hello lists no variants" in lines[-2]
    assert summary([], EngineInfo())[-2].startswith("nothing was tested: no test was selected")


def test_an_engine_without_variants_tests_nothing_in_scenarios_games_and_perft(suite: Path) -> None:
    engine = SubprocessEngine(engine_command("abuse", "no-variants"))
    try:
        results = run_suite(engine, Selection(variants=KIT_VARIANTS).cases(load_scenarios([suite])))
        games = run_generated_games(engine, 2, 0, variants=None)
        perft = run_perft_files(engine, variants=None, paths=[perft_file()])
    finally:
        engine.close()
    assert {r.status for r in results + games.results + perft} == {"skipped"}
    assert failed(results) and failed(games.results) and failed(perft)
    assert any(line.startswith("  nothing was tested: no generated game was played") for line in games.report_lines())


def test_the_plugin_fails_a_session_that_tested_nothing(pytester: pytest.Pytester, suite: Path) -> None:
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "--canasta-impl",
        engine_command("abuse", "no-variants"),
        "--canasta-scenarios",
        str(suite),
        *KIT_PLUGIN_ARGS,
    )
    result.assert_outcomes(skipped=2)
    result.stdout.fnmatch_lines(["*canasta: nothing was tested: all 2 scenarios run were skipped*"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_the_plugin_still_passes_a_session_with_something_tested(pytester: pytest.Pytester, suite: Path) -> None:
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "--canasta-impl",
        engine_command("no_position"),
        "--canasta-scenarios",
        str(suite),
        *KIT_PLUGIN_ARGS,
    )
    result.assert_outcomes(passed=1, skipped=1)
    assert result.ret == pytest.ExitCode.OK


# -- 7. views with fields beyond the protocol's --------------------------------------------------------------
@pytest.mark.parametrize(("mode", "field"), [("view-stock-top", "'stock_top'"), ("meld-extra", "'note'")])
def test_a_view_with_hidden_cards_in_extra_fields_fails(suite: Path, mode: str, field: str) -> None:
    results = run_abuse(suite, mode)
    assert [r.status for r in results] == ["failed", "failed"]
    for result in results:
        assert "the protocol does not define: " + field in result.message


@pytest.mark.parametrize(
    ("mode", "says"),
    [
        ("answer-hands", "the answer to 'view' has a field the protocol does not define: 'hands'"),
        ("extension-hands", "the answer to 'view' has a card, "),
    ],
)
def test_hidden_cards_beside_the_view_fail(suite: Path, mode: str, says: str) -> None:
    results = run_abuse(suite, mode)
    assert results[0].status == "errored"  # frozen-take reads views; seeded-turn-order reads none
    assert says in results[0].message
    if mode == "extension-hands":
        assert "in its extension field 'x-hands'" in results[0].message


def test_an_extension_field_without_cards_passes(suite: Path) -> None:
    assert [r.status for r in run_abuse(suite, "extension-clean")] == ["passed", "passed"]


@pytest.mark.parametrize(
    ("command", "reply", "says"),
    [
        ("apply", {"ok": True, "accepted": True, "next_card": "KH"}, "does not define: 'next_card'"),
        ("score", {"ok": True, "over": False, "x-stock": ["QS"]}, "has a card, QS, in its extension field"),
        ("legal", {"ok": True, "actions": [], "x-why": {"10D": 1}}, "has a card, 10D,"),
        ("hello", {"ok": True, "protocol": 8, "secret": 1}, "the answer to 'hello' has a field"),
        ("setup", {"ok": False, "skip": "no", "hands": []}, "the answer to 'setup' has a field"),
    ],
)
def test_every_answer_holds_only_its_fields(command: str, reply: dict[str, Any], says: str) -> None:
    assert says in (answer_field_problem(command, reply) or "")


def test_the_protocols_answers_and_clean_extensions_pass() -> None:
    session = ReferenceSession()
    hello = session.handle({"cmd": "hello", "protocol": 8})
    setup = session.handle({"cmd": "setup", "variant": "classic", "deck": DECK, "first_seat": 0})
    for command, reply in [
        ("hello", hello),
        ("setup", setup),
        ("legal", session.handle({"cmd": "legal"})),
        ("view", session.handle({"cmd": "view", "seat": 1})),
        ("score", session.handle({"cmd": "score"})),
        ("apply", {"ok": True, "accepted": False, "rule": "TURN.ORDER", "message": "Not your turn; KH waits."}),
        ("apply", {"ok": True, "accepted": True, "x-took-ms": 3, "x-note": "as expected, 10x faster"}),
    ]:
        assert answer_field_problem(command, reply) is None, (command, reply)


def test_the_reference_views_have_only_the_protocols_fields() -> None:
    session = ReferenceSession()
    InProcessEngine(session)
    session.handle({"cmd": "setup", "variant": "classic", "deck": DECK, "first_seat": 0})
    for seat in range(4):
        assert unknown_field_problem(session.handle({"cmd": "view", "seat": seat})["view"]) is None
    assert "'extra'" in (unknown_field_problem({"seat": 0, "extra": 1}) or "")


# -- 8. generated games compare views right after the deal ---------------------------------------------------
def test_generated_games_look_at_the_views_right_after_the_deal() -> None:
    report, result = one_generated_game("view-hands", shrink_runs=10)
    assert result.message.startswith("at the deal: seat 0's view: it has a field the protocol does not define")
    scenario = report.scenarios[0]
    assert scenario.yaml.count("- action:") == 1  # one move by the wrong seat, refused: then the deal's view
    assert "seat: 1" in scenario.yaml


RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = " ".join([*(f"{rank}{suit}" for _ in range(2) for suit in "CDHS" for rank in RANKS), "JK", "JK", "JK", "JK"])


# -- any reply of any shape: the runner reports, never raises ------------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


class ChaosEngine(InProcessEngine):
    """The reference in process, with some fields of its replies replaced by any JSON at all."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        super().__init__()  # the handshake may be damaged too

    def receive(self) -> list[dict[str, Any]]:
        return [self.damage(reply) for reply in super().receive()]

    def damage(self, reply: dict[str, Any]) -> dict[str, Any]:
        if not self.data.draw(st.booleans(), label="damage"):
            return reply
        target = reply
        if isinstance(reply.get("view"), dict) and self.data.draw(st.booleans(), label="inside the view"):
            target = reply["view"] = dict(reply["view"])
        keys = [*sorted(target), "extra"]
        target[self.data.draw(st.sampled_from(keys), label="field")] = self.data.draw(JSON, label="value")
        if not isinstance(reply.get("ok"), bool):
            reply["ok"] = True  # what SubprocessEngine lets through
        return reply


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_replies_of_any_shape_are_results_never_exceptions(suite: Path, data: st.DataObject) -> None:
    try:
        engine = ChaosEngine(data)
    except EngineFailure as failure:
        assert failure.kind == "protocol"  # a damaged hello: the start fails, saying why
        return
    for scenario, variant in Selection(variants=KIT_VARIANTS).cases(load_scenarios([suite])):
        result = run_case(engine, scenario, variant)
        assert result.status in ("passed", "partial", "failed", "skipped", "errored"), result
    (perft,) = run_perft_files(engine, variants=None, paths=[perft_file()])
    assert perft.status in ("passed", "failed", "skipped", "errored")


class RandomChaosEngine(ChaosEngine):
    """ChaosEngine drawing from ``random`` (generated games run Hypothesis themselves: no st.data() inside)."""

    def __init__(self, seed: int, rate: float) -> None:
        self.random = random.Random(seed)
        self.rate = rate
        InProcessEngine.__init__(self)

    def damage(self, reply: dict[str, Any]) -> dict[str, Any]:
        if "capabilities" in reply or self.random.random() > self.rate:
            return reply
        target = reply
        if isinstance(reply.get("view"), dict) and self.random.random() < 0.5:
            target = reply["view"] = dict(reply["view"])
        target[self.random.choice([*sorted(target), "extra"])] = self.random.choice(ODD_VALUES)
        return reply


ODD_VALUES: list[Any] = [None, True, False, 0, -1, 10**40, 2.5, "", "KH", "x", [], [1, "a"], {}, {"cards": 5}, [[{}]]]


@pytest.mark.parametrize("seed", range(6))
def test_generated_games_report_replies_of_any_shape(seed: int) -> None:
    engine = RandomChaosEngine(seed, rate=0.02)
    report = run_generated_games(engine, 3, seed, variants=["classic"], shrink_seconds=0.5, max_shrink_runs=5)
    assert report.results and all(r.status in ("passed", "failed", "errored") for r in report.results)


# -- an engine slow to start -----------------------------------------------------------------------------------
def test_an_engine_slow_to_start_is_given_the_start_allowance_not_the_answer_timeout() -> None:
    """A virtual machine or an interpreter may take seconds to start on a busy machine though it answers moves at
    once: its first 'hello' waits the start allowance (10 s unless said), later answers the timeout."""
    slow = f"sh -c {shlex.quote('sleep 1.5; exec ' + reference_command())}"
    engine = SubprocessEngine(slow, timeout=0.5)
    try:
        assert engine.info is not None and engine.timeout == 0.5
    finally:
        engine.close()
    with pytest.raises(EngineFailure) as failure:
        SubprocessEngine(slow, timeout=0.5, start_timeout=0.5)
    assert failure.value.kind == "timed out" and str(failure.value).endswith("no answer to 'hello' within 0.5 s")
