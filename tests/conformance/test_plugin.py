"""The pytest plugin (``--canasta-impl``): scenarios as pytest items, run against an engine, via ``pytester``.

The plugin is registered by the ``pytest11`` entry point of the installed package, so the inner pytest runs
find it without ``-p``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from broken_engines.kit import KIT_PLUGIN_ARGS, PYTHON, SCENARIOS, engine_command, reference_command, write_scenarios

from canasta_ref.conformance.runner import Selection
from canasta_ref.conformance.scenario import load_scenarios

pytest_plugins = ["pytester"]

REFERENCE = reference_command()


@pytest.fixture
def scenarios(pytester: pytest.Pytester) -> Path:
    return write_scenarios(pytester.path / "scenarios")


def run(pytester: pytest.Pytester, impl: str, *args: str) -> pytest.RunResult:
    """The plugin with ``impl``; a run of the small suite names its variants unless the arguments choose them."""
    kit = KIT_PLUGIN_ARGS if "--canasta-scenarios" in args and "--canasta-variant" not in args else ()
    return pytester.runpytest("-p", "no:cacheprovider", "--canasta-impl", impl, *kit, *args)


def test_without_the_option_the_plugin_does_nothing(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_one():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=1)
    result.stdout.no_fnmatch_line("*canasta::*")
    result.stdout.no_fnmatch_line("*canasta engine*")


def test_the_options_are_documented(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    for option in ("--canasta-impl=COMMAND", "--canasta-scenarios=PATH", "--canasta-variant=ID", "--canasta-timeout*"):
        result.stdout.fnmatch_lines([f"*{option}*"])


def test_every_scenario_and_variant_is_an_item_that_passes_on_the_reference(
    pytester: pytest.Pytester, scenarios: Path
) -> None:
    pytester.makepyfile("def test_ordinary():\n    assert True\n")
    result = run(pytester, REFERENCE, "--canasta-scenarios", str(scenarios), "-v")
    result.assert_outcomes(passed=len(SCENARIOS) + 1)
    result.stdout.fnmatch_lines(
        [
            f"canasta engine: {REFERENCE} (timeout 10 s)",
            "*test_ordinary PASSED*",
            "canasta::frozen-take[[]classic[]] PASSED*",
            "canasta::two-player-order[[]classic-2p[]] PASSED*",
        ]
    )


def test_a_mutant_fails_with_the_runners_message(pytester: pytest.Pytester, scenarios: Path) -> None:
    result = run(
        pytester, reference_command("--mutate-rule", "PILE.TAKE.FROZEN"), "--canasta-scenarios", str(scenarios)
    )
    result.assert_outcomes(passed=3, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*FAILED: frozen-take@classic*",
            "*step 1 `take KH JK`: expected refused by PILE.TAKE.FROZEN, got accepted",
            "*rule PILE.TAKE.FROZEN: When the pile is frozen*",
        ]
    )
    result.stdout.fnmatch_lines(["FAILED canasta::one-card-pile-forbidden[[]classic[]]*"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_a_missing_capability_is_a_skip_with_the_reason(pytester: pytest.Pytester, scenarios: Path) -> None:
    result = run(pytester, engine_command("no_position"), "--canasta-scenarios", str(scenarios), "-rs")
    result.assert_outcomes(passed=1, skipped=4)
    result.stdout.fnmatch_lines(["SKIPPED [[]1[]] *frozen-take.yaml*: the engine cannot set up a written-out position"])


def test_a_crash_fails_one_item_with_the_stderr_and_the_engine_is_restarted(
    pytester: pytest.Pytester, scenarios: Path
) -> None:
    once = pytester.path / "crashed-once"
    result = run(pytester, engine_command("crash", "--once", str(once)), "--canasta-scenarios", str(scenarios))
    result.assert_outcomes(passed=4, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*ERRORED: frozen-take@classic*",
            "*the process exited with status 3",
            "*stderr of the engine:",
            "*crash.py: segmentation fault in apply (on purpose)",
        ]
    )


def test_a_hang_times_out_with_the_timeout_option(pytester: pytest.Pytester, scenarios: Path) -> None:
    once = pytester.path / "hung-once"
    result = run(
        pytester,
        engine_command("hang", "--once", str(once)),
        "--canasta-timeout",
        "1",
        "--canasta-scenarios",
        str(scenarios / "frozen-take.yaml"),
        "--canasta-scenarios",
        str(scenarios / "seeded-turn-order.yaml"),
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*TIMED OUT: frozen-take@classic*", "*no answer to 'apply' within 1 s"])


def test_one_engine_process_for_the_session(pytester: pytest.Pytester, scenarios: Path) -> None:
    starts = pytester.path / "starts.txt"
    wrapper = pytester.path / "counting_engine.py"
    wrapper.write_text(
        "import sys\n"
        "with open(sys.argv[1], 'a') as f:\n    f.write('started\\n')\n"
        "from canasta_ref.cli import main\n"
        "sys.exit(main(['serve']))\n",
        encoding="utf-8",
    )
    result = run(pytester, f"{PYTHON} {wrapper} {starts}", "--canasta-scenarios", str(scenarios))
    result.assert_outcomes(passed=len(SCENARIOS))
    assert starts.read_text(encoding="utf-8").count("started") == 1


def test_variant_and_keyword_selection(pytester: pytest.Pytester, scenarios: Path) -> None:
    result = run(
        pytester,
        REFERENCE,
        "--canasta-scenarios",
        str(scenarios),
        "--canasta-variant",
        "classic",
        "-k",
        "PILE and not alternative",  # rule ids and levels are keywords
        "-v",
    )
    result.assert_outcomes(passed=1, deselected=len(SCENARIOS) - 2)  # two-player-order is not collected
    result.stdout.fnmatch_lines(["canasta::frozen-take[[]classic[]] PASSED*"])


def test_an_engine_that_does_not_start_fails_every_item(pytester: pytest.Pytester, scenarios: Path) -> None:
    result = run(pytester, f"{PYTHON} -c 'import sys; sys.exit(4)'", "--canasta-scenarios", str(scenarios))
    result.assert_outcomes(failed=len(SCENARIOS))
    result.stdout.fnmatch_lines(["*the engine did not start: engine crashed: the process exited with status 4*"])


def test_an_engine_that_cannot_be_restarted_fails_the_rest_quickly(pytester: pytest.Pytester, scenarios: Path) -> None:
    once = pytester.path / "started"
    result = run(pytester, engine_command("crash", "--start-once", str(once)), "--canasta-scenarios", str(scenarios))
    result.assert_outcomes(failed=len(SCENARIOS))
    result.stdout.fnmatch_lines(
        ["*restarting the engine failed too: engine crashed: the process exited with status 5*"]
    )


def test_a_bad_scenario_file_is_a_collection_error(pytester: pytest.Pytester, scenarios: Path) -> None:
    (scenarios / "broken.yaml").write_text("scenario: 1\nid: broken\n", encoding="utf-8")
    result = run(pytester, REFERENCE, "--canasta-scenarios", str(scenarios))
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*the scenarios could not be loaded:*", "*broken.yaml*"])
    assert result.ret == pytest.ExitCode.INTERRUPTED


def test_the_bundled_suite_by_default(pytester: pytest.Pytester) -> None:
    expected = len(Selection().cases(load_scenarios()))
    result = run(pytester, REFERENCE)
    result.assert_outcomes(passed=expected)


# -- generated games as items ----------------------------------------------------------------------------------------
GAMES = ("--canasta-variant", "fournier", "--canasta-timeout", "60", "-k", "generated")


def test_generated_games_are_items_one_a_game(pytester: pytest.Pytester, scenarios: Path) -> None:
    result = run(pytester, REFERENCE, "--canasta-scenarios", str(scenarios), "--canasta-games", "3", *GAMES, "-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["canasta::generated-0-1 PASSED*", "canasta::generated-0-3 PASSED*"])


def test_a_deviating_game_fails_with_its_shrunk_scenario(pytester: pytest.Pytester, scenarios: Path) -> None:
    mutant = reference_command("--mutate-rule", "CARDS.VALUES")
    argv = ("--canasta-games", "2", "--canasta-seed", "4", "--canasta-shrink-seconds", "1", *GAMES)
    result = run(pytester, mutant, "--canasta-scenarios", str(scenarios), *argv)
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) >= 1, result.stdout.str()
    result.stdout.fnmatch_lines(["*DISAGREEMENT generated-4-*", "*# ---- end of generated-4-*.yaml ----*"])


def test_generated_games_spread_over_xdist_workers(pytester: pytest.Pytester, scenarios: Path) -> None:
    pytest.importorskip("xdist")
    argv = ("--canasta-games", "2", *GAMES, "-p", "xdist", "-n", "2")
    result = run(pytester, REFERENCE, "--canasta-scenarios", str(scenarios), *argv)
    result.assert_outcomes(passed=2)
