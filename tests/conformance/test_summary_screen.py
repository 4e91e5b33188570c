"""The summary of a run fits one screen (50 lines of 120 characters): a line a deviation, its example shortened
to keep the step and what was expected and got; each rule's text and source in a line when they fit, else said
to be in --verbose."""

from __future__ import annotations

import pytest

from canasta_ref.conformance import causes, checks, report
from canasta_ref.conformance.engines import EngineInfo
from canasta_ref.conformance.findings import Finding
from canasta_ref.conformance.report import SCREEN_LINES, SCREEN_WIDTH, summary
from canasta_ref.conformance.runner import Result
from canasta_ref.conformance.tally import Differs, Outcome, SkipCheck
from canasta_ref.conformance.variants import reference_rules

INFO = EngineInfo(name="many-deviations", version="1", protocol=2, variants=["classic"])
#: Rules of Classic with a source each, to file the findings under.
RULES = [rule for rule, clause in reference_rules("classic").variant.clauses.items() if clause.sources]


def failing(number: int, rule: str | None, *, later: int = 0) -> Result:
    """A scenario with a long name failing at a step under ``rule`` (else under its cause), with later failures."""
    scenario = f"a-scenario-whose-name-is-long-enough-to-crowd-the-line-number-{number}"
    message = (
        f"step 3 `take KH KS + QH QS 2C`: expected accepted, got refused by an unnamed rule (the engine's own long "
        f"words about it, number {number}, which go on and on)"
    )
    first = {"step": 3, "check": "verdict", "rule": rule, "message": message, "cause": f"cause number {number}"}
    again = {**first, "step": 4, "message": "step 4 `discard 9H`: the hand should have ended"}
    return Result(scenario, "classic", "failed", message, rule, failures=[first] + [again] * later)


def skipped(number: int) -> Result:
    return Result(f"skipped-{number}", "classic", "skipped", f"the engine cannot change parameter number {number}")


def check_screen(lines: list[str]) -> None:
    assert len(lines) <= SCREEN_LINES, "\n".join(lines)
    too_wide = [line for line in lines if len(line) > SCREEN_WIDTH]
    assert not too_wide, too_wide


def test_many_deviations_fit_one_screen_without_their_rules_texts() -> None:
    results = [failing(n, RULES[n], later=n % 3) for n in range(30)] + [failing(n, None) for n in range(30, 36)]
    results += [skipped(n) for n in range(20)]
    lines = summary(results, INFO)
    check_screen(lines)
    found = [line for line in lines if "; e.g. " in line]
    assert len(found) == 36  # a line each: thirty rules, six causes
    assert all(line.endswith("expected accepted, got refused") for line in found), found
    assert not any(line.startswith("      ") for line in lines)  # no room for the rules' texts
    assert "each rule's text and source: --verbose, in each failure's message" in lines
    # the action's cards give way first, then the scenario's name is shortened: the name is how the case is found
    example = f"  {RULES[1]}: 1 scenario, 1 later failure; e.g. a-scenario-whose...: step 3 `take ...`: expected"
    assert any(line.startswith(example) for line in lines)


def test_a_few_deviations_say_each_rules_text_and_source_in_a_line() -> None:
    lines = summary([failing(n, RULES[n]) for n in range(5)], INFO)
    check_screen(lines)
    told = [line for line in lines if line.startswith("      ")]
    assert len(told) == 5
    for rule, line in zip(RULES, told, strict=False):
        clause = reference_rules("classic").variant.clauses[rule]
        assert line.startswith("      " + clause.text[:20]) and f"(source {clause.sources[0].source}" in line
    assert not any("--verbose, in each failure's message" in line for line in lines)


def test_verbose_ends_with_the_same_summary() -> None:
    results = [failing(n, RULES[n]) for n in range(40)]
    short, verbose = summary(results, INFO), summary(results, INFO, verbose=True)
    assert verbose[-len(short) :] == short
    assert "FAILED: a-scenario-whose-name-is-long-enough-to-crowd-the-line-number-0@classic" in verbose


def _message(outcome: Outcome) -> str:
    """A check's failure message, as the runner files it."""
    assert outcome is not None and not isinstance(outcome, SkipCheck)
    return outcome.message if isinstance(outcome, Differs) else outcome


#: Failure messages made by the checks themselves (so a change of their wording is seen here), and their short forms.
@pytest.mark.parametrize(
    ("message", "short"),
    [
        (
            _message(checks._over("a-hand-that-ends: step 4 `discard 9D`", True, {"over": False})),
            "a-hand-that-ends: step 4 `discard 9D`: hand over: expected true, got false",
        ),
        (
            _message(checks._match_over("a-match: step 2 `discard 8C`", False, {"match_over": True})),
            "a-match: step 2 `discard 8C`: match over: expected false, got true",
        ),
        (
            _message(checks._view_field("generated game 4: at the deal", 0, "stock_size", 62, {"stock_size": 63})),
            "generated game 4: at the deal: seat 0's stock_size: expected 62, got 63",
        ),
    ],
)
def test_an_example_says_expected_and_got_in_few_words(message: str, short: str) -> None:
    finding = Finding("classic", "GO_OUT.CONCEALED", "score", False, message, ["a-hand-that-ends"])
    assert report._example(finding, SCREEN_WIDTH) == short


def test_a_verdict_cause_does_not_repeat_which_way_the_verdicts_differ() -> None:
    cause = causes.refuses("take")
    example = (
        "some-scenario: step 4 `take 5C 2D`: the reference accepts this action; the engine refused it citing no rule"
    )
    finding = Finding("classic", None, cause, False, example, ["some-scenario"])
    assert report._example(finding, SCREEN_WIDTH) == "some-scenario: step 4 `take 5C 2D`"
    ruled = Finding("classic", "PILE.TAKE.MATCH", "verdict", False, example, ["some-scenario"])
    assert report._example(ruled, SCREEN_WIDTH).endswith(": expected accepted, got refused")
