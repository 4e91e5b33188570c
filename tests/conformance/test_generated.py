"""Generated games (canasta_ref.conformance.generated) and the public Hypothesis strategies.

Against the reference (in process and through ``canasta-ref serve``) every generated game agrees. Against a
deliberately wrong engine (a mutant of the reference, or a session with one thing done wrong) the run finds a
disagreement, shrinks it, and prints a scenario that is valid, passes on the reference and fails on that engine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from broken_engines.kit import engine_command, reference_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_ref.conformance.engines import Engine, EngineInfo, InProcessEngine, SubprocessEngine
from canasta_ref.conformance.generated import GeneratedReport, run_generated_games, speaks_position
from canasta_ref.conformance.runner import run_case
from canasta_ref.conformance.scenario import Scenario, check_scenario
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.conformance.strategies import (
    Move,
    PlayedGame,
    Setup,
    actions,
    decks,
    games,
    hand_bound,
    play,
    positions,
    starting_scores,
    verdict,
)
from canasta_ref.conformance.variants import with_parameters
from canasta_ref.engine.cards import full_deck
from canasta_ref.engine.game import Game
from canasta_ref.engine.rules import rules_for
from canasta_ref.spec import list_variants, load_variant

QUICK = settings(max_examples=8, deadline=None, database=None, suppress_health_check=list(HealthCheck))


# -- helpers ---------------------------------------------------------------------------------------------------
def printed_scenario(report: GeneratedReport, index: int = 0) -> tuple[str, str]:
    """The (id, text) of a scenario exactly as report_lines prints it."""
    lines = report.report_lines()
    scenario = report.scenarios[index]
    start = lines.index(f"# ---- {scenario.id}.yaml ----")
    end = lines.index(f"# ---- end of {scenario.id}.yaml ----")
    text = "\n".join(lines[start + 1 : end]) + "\n"
    assert text == scenario.yaml
    return scenario.id, text


def saved_scenario(report: GeneratedReport, folder: Path, index: int = 0) -> Scenario:
    """A printed scenario, saved as a file and checked like any bundled scenario."""
    ident, text = printed_scenario(report, index)
    data = yaml.safe_load(text)
    assert data["id"] == ident and data["scenario"] == 1
    path = folder / f"{ident}.yaml"
    path.write_text(text, encoding="utf-8")
    scenario, errors = check_scenario(path)
    assert not errors, "\n".join(str(e) for e in errors)
    assert scenario is not None
    return scenario


def assert_caught(report: GeneratedReport, wrong: Engine, folder: Path) -> Scenario:
    """The run found disagreements, one result and one scenario for each distinct one (by check, rule and
    action); every scenario passes on the reference and fails on the wrong engine. Returns the first."""
    assert report.disagreements >= 1, report.report_lines()
    failed = [r for r in report.results if r.status == "failed"]
    assert [r.scenario for r in failed] == [s.id for s in report.scenarios]
    keys = [d.key for d in report.deviations]
    assert len(keys) == len(set(keys)) == report.disagreements
    saved = []
    for index, generated in enumerate(report.scenarios):
        scenario = saved_scenario(report, folder, index)
        assert scenario.variants == (generated.variant,)
        on_reference = run_case(InProcessEngine(), scenario, generated.variant)
        assert on_reference.status == "passed", on_reference.message
        on_wrong = run_case(wrong, scenario, generated.variant)
        assert on_wrong.status == "failed", (on_wrong.status, on_wrong.message, generated.yaml)
        saved.append(scenario)
    return saved[0]


def statuses(report: GeneratedReport) -> list[str]:
    return [r.status for r in report.results]


# -- the reference agrees with itself --------------------------------------------------------------------------
def test_generated_games_agree_with_the_reference_in_process() -> None:
    report = run_generated_games(InProcessEngine(), 15, 1, variants=None)
    assert statuses(report) == ["passed"] * 15, report.report_lines()
    summary = report.summary()
    assert summary["games"] == 15 and summary["disagreements"] == 0
    assert summary["steps"] > 15 * 20 and summary["seconds"] > 0 and summary["games_per_second"] > 0
    assert {r.variant for r in report.results} <= set(list_variants()) and len({r.variant for r in report.results}) > 1
    assert [r.scenario for r in report.results] == [f"generated-1-{n}" for n in range(1, 16)]
    assert report.report_lines()[0].startswith("generated games (seed 1): 15 of 15 played")


def test_generated_games_agree_with_canasta_ref_serve() -> None:
    engine = SubprocessEngine(reference_command())
    try:
        report = run_generated_games(engine, 5, 3, variants=None)
    finally:
        engine.close()
    assert statuses(report) == ["passed"] * 5, report.report_lines()


def test_the_same_seed_gives_the_same_games() -> None:
    first = run_generated_games(InProcessEngine(), 4, 7, variants=None)
    second = run_generated_games(InProcessEngine(), 4, 7, variants=None)
    assert [(r.variant, r.message) for r in first.results] == [(r.variant, r.message) for r in second.results]
    other = run_generated_games(InProcessEngine(), 4, 8, variants=None)
    assert [r.message for r in other.results] != [r.message for r in first.results]


def test_no_variant_in_common_is_skipped() -> None:
    report = run_generated_games(InProcessEngine(), 3, 0, variants=["no-such-variant"])
    assert statuses(report) == ["skipped"]
    assert report.summary()["games"] == 0


# -- mutants of the reference are caught -----------------------------------------------------------------------
@pytest.mark.parametrize("rule", ["PILE.TAKE.FROZEN", "TURN.DRAW_FIRST", "CARDS.VALUES"])
def test_a_mutant_is_caught_with_a_scenario(rule: str, tmp_path: Path) -> None:
    mutant = SubprocessEngine(reference_command("--mutate-rule", rule))
    try:
        report = run_generated_games(mutant, 10, 0, variants=None, shrink_seconds=5, max_shrunk=3)
        assert_caught(report, mutant, tmp_path)
    finally:
        mutant.close()
    assert report.scenarios[0].steps <= 30
    assert any(line.startswith("DISAGREEMENT generated-0-") for line in report.report_lines())


def test_shrinking_stops_within_its_budget(tmp_path: Path) -> None:
    """A disagreement found late in a game: the smallest failing game within the budget becomes the scenario."""
    wrong = InProcessEngine(ReferenceSession(mutate_rule="GO_OUT.CANASTAS"))
    report = run_generated_games(wrong, 60, 0, variants=None, shrink_seconds=0.3)
    assert_caught(report, wrong, tmp_path)
    assert report.shrink_runs >= 1
    # The clean games passed; then one result a distinct deviation, each failed.
    failed = statuses(report)[-report.disagreements :]
    assert failed == ["failed"] * report.disagreements
    assert set(statuses(report)[: -report.disagreements]) <= {"passed"}


# -- each generic property, on an engine that breaks it ----------------------------------------------------------
class IgnoresTheSeat(ReferenceSession):
    """Plays every action for the seat to act, whoever sends it."""

    def _cmd_apply(self, request: Any) -> dict[str, Any]:
        return super()._cmd_apply({key: value for key, value in request.items() if key != "seat"})


class LosesTheBottomOfThePile(ReferenceSession):
    """Its views leave out the bottom card of the pile."""

    def _cmd_view(self, request: Any) -> dict[str, Any]:
        reply = super()._cmd_view(request)
        reply["view"]["pile"] = reply["view"]["pile"][1:]
        return reply


class LeaksInWrittenPositions(ReferenceSession):
    """Set up from a written position, a seat's view shows the next seat's first card instead of its own last."""

    def _cmd_view(self, request: Any) -> dict[str, Any]:
        reply = super()._cmd_view(request)
        game = self.game
        if game is not None and not game.events:  # a dealt hand has events (the upcard) from the start
            seat = int(request["seat"])
            neighbour = game.view((seat + 1) % game.rules.players)["hand"]
            hand = reply["view"]["hand"]
            if hand and neighbour:
                reply["view"]["hand"] = [*hand[:-1], neighbour[0]]
        return reply


class DealsDifferentlyEverySecondTime(ReferenceSession):
    """Every second deal of the same deck order (a game's replay) comes with the stock reversed."""

    def __init__(self) -> None:
        super().__init__()
        self.deals: dict[str, int] = {}

    def _cmd_setup(self, request: Any) -> dict[str, Any]:
        reply = super()._cmd_setup(request)
        deck = request.get("deck")
        if isinstance(deck, str) and self.game is not None:
            self.deals[deck] = self.deals.get(deck, 0) + 1
            if self.deals[deck] % 2 == 0:
                self.game.state.stock.reverse()
        return reply


def test_a_seat_not_to_act_must_be_refused(tmp_path: Path) -> None:
    wrong = InProcessEngine(IgnoresTheSeat())
    report = run_generated_games(wrong, 10, 0, variants=None, probes=40, shrink_seconds=3, max_shrunk=2)
    scenario = assert_caught(report, wrong, tmp_path)
    assert "only the seat to act may act" in report.scenarios[0].message
    assert scenario.steps[-1].seat is not None
    assert scenario.steps[-1].expect.rule == "TURN.ORDER"


def test_cards_must_be_conserved_in_every_view(tmp_path: Path) -> None:
    wrong = InProcessEngine(LosesTheBottomOfThePile())
    report = run_generated_games(wrong, 10, 0, variants=None, shrink_seconds=3, max_shrunk=2)
    assert_caught(report, wrong, tmp_path)
    assert "the cards do not add up to the" in report.scenarios[0].message


def test_a_view_must_not_depend_on_hidden_cards(tmp_path: Path) -> None:
    wrong = InProcessEngine(LeaksInWrittenPositions())
    report = run_generated_games(wrong, 10, 0, variants=None, shrink_seconds=3, max_shrunk=2)
    scenario = assert_caught(report, wrong, tmp_path)
    assert "dealt anew" in report.scenarios[0].message
    assert scenario.uses_position


def test_the_same_deck_and_actions_must_give_the_same_transcript() -> None:
    wrong = InProcessEngine(DealsDifferentlyEverySecondTime())
    report = run_generated_games(wrong, 10, 0, variants=None, shrink_seconds=3, max_shrunk=2)
    # Found when game 1 is replayed; a later game dealt a deck already dealt once may show it too.
    assert report.disagreements >= 1, report.report_lines()
    assert report.deviations[0].key.check == "replay"
    assert report.scenarios[0].message.startswith("replaying the same deck and moves")
    yaml.safe_load(report.scenarios[0].yaml)


def test_an_engine_failure_errors_that_game_and_the_run_goes_on(tmp_path: Path) -> None:
    engine = SubprocessEngine(engine_command("crash", "--once", str(tmp_path / "crashed")))
    try:
        report = run_generated_games(engine, 4, 3, variants=None)
    finally:
        engine.close()
    assert statuses(report) == ["errored", "passed", "passed", "passed"], report.report_lines()
    assert "crashed" in report.results[0].message
    assert "segmentation fault" in report.results[0].stderr
    assert any("ERRORED: generated-3-1" in line for line in report.report_lines())


def test_a_hanging_engine_times_out(tmp_path: Path) -> None:
    engine = SubprocessEngine(engine_command("hang", "--once", str(tmp_path / "hung")), timeout=1.0)
    try:
        report = run_generated_games(engine, 2, 3, variants=None)
    finally:
        engine.close()
    assert statuses(report) == ["timed out", "passed"], report.report_lines()


def test_an_engine_failing_every_game_stops_the_run() -> None:
    engine = SubprocessEngine(engine_command("crash"))
    try:
        report = run_generated_games(engine, 20, 0, variants=None)
    finally:
        engine.close()
    assert statuses(report) == ["errored"] * 5
    assert any("in a row" in note for note in report.notes)


# -- the public strategies -----------------------------------------------------------------------------------------
@QUICK
@given(deck=decks("classic-2p"))
def test_decks_hold_the_whole_deck(deck: list[int]) -> None:
    assert sorted(deck) == sorted(full_deck(2, 2))


@QUICK
@given(game=positions(["classic", "classic-2p"], max_steps=60))
def test_positions_are_reachable_by_legal_play(game: Game) -> None:
    replay = Game(game.rules, deck=game.deck, team_scores=game.state.team_scores, first_seat=game.first_seat)
    for action in game.history:
        replay.apply(action)
    assert replay.state == game.state


@QUICK
@given(data=st.data(), game=positions("classic", max_steps=40))
def test_actions_are_judged_by_the_reference(data: st.DataObject, game: Game) -> None:
    legal = set(game.legal_actions())
    move = data.draw(actions(game, illegal=50))
    assert isinstance(move, Move)
    accepted, rule = verdict(game, move)
    if move.kind == "legal":
        assert accepted and move.action in legal
    if move.kind in ("not held", "wrong seat", "out of phase", "candidate"):
        assert not accepted and rule is not None


@QUICK
@given(played=games(max_steps=50))
def test_games_replay_to_the_same_game(played: PlayedGame) -> None:
    assert played.game is not None and len(played.steps) <= 50
    replay = played.setup.new_game()
    for step in played.steps:
        assert play(replay, step.move) == step
    assert replay.state == played.game.state
    assert json.dumps(replay.view(0)) == json.dumps(played.game.view(0))


def test_set_ups_share_the_references_rules() -> None:
    rules = rules_for(load_variant("classic"))
    assert Setup("classic", tuple(full_deck(2, 2))).new_game().rules is rules


def test_the_hand_bound_and_starting_scores_come_from_the_variant() -> None:
    classic = rules_for(load_variant("classic"))
    # 4 * (108 + 1) + 4 * 108 and 4 * (162 + 1) + 4 * 162, as tests/engine/test_properties.py counts them
    assert hand_bound(classic) == 868
    assert hand_bound(rules_for(with_parameters("classic", {"packs": 3}))) == 1300
    assert starting_scores(classic) == (0, 1500, 3000, -100)  # each row of initial_meld_table
    table = [{"from": None, "value": 15}, {"from": 0, "value": 50}, {"from": 2000, "value": 100}]
    assert starting_scores(rules_for(with_parameters("classic", {"initial_meld_table": table}))) == (0, 2000, -100)


@pytest.mark.parametrize(("protocol", "sent"), [(1, False), (2, False), (3, True)])
def test_a_position_writing_sides_is_resynced_only_into_a_protocol_3_engine(protocol: int, sent: bool) -> None:
    info = EngineInfo(protocol=protocol)
    classic = rules_for(load_variant("classic"))
    assert speaks_position(info, classic, {"hands": [], "sides": [0, 1, 0]}) is sent
    assert speaks_position(info, classic, {"hands": [], "melded": []})  # every version holds version 2's fields


@pytest.mark.parametrize(("protocol", "sent"), [(1, False), (2, False), (3, True)])
def test_a_position_with_a_wild_canasta_is_resynced_only_into_a_protocol_3_engine(protocol: int, sent: bool) -> None:
    info = EngineInfo(protocol=protocol)
    hoyle = rules_for(load_variant("hoyle-2p"))
    wild = {"hands": [], "melds": [["KH KS KD", "2C 2C 2D 2H 2S JK JK"], []]}
    assert speaks_position(info, hoyle, wild) is sent
    assert speaks_position(info, hoyle, {"hands": [], "melds": [["KH KS 2D"], []]})  # wild cards with naturals
