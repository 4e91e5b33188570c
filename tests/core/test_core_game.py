"""A game on the native core (``Game(..., core="native")``) plays as the Python engine does: the same seed gives
the same game in every variant (each action chosen, the state after each, the final score), the core listing and
applying where it can; an action it did not hand out is judged by the Python engine, refusals word for word; undo
restores the position."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

from canasta_ref import Game, IllegalAction, load_variant, parse_action
from canasta_ref.core import game as game_module
from canasta_ref.core.game import NativeGame
from canasta_ref.core.rebuild import state_differences
from canasta_ref.engine.actions import Action
from canasta_ref.engine.checks import Plan, initial_minimum
from canasta_ref.engine.judge import plan
from canasta_ref.engine.rules import Coverage, Rules
from canasta_ref.engine.state import HandState
from canasta_ref.spec import list_variants


def _same_game(variant: str, seed: str) -> NativeGame:
    """Play a seeded random game on both cores side by side, asserting at each step; the native game."""
    python = Game(load_variant(variant), seed=seed)
    native = Game(load_variant(variant), seed=seed, core="native")
    assert isinstance(native, NativeGame)
    python_pick, native_pick = random.Random(seed), random.Random(seed)
    step = 0
    while not python.is_over:
        assert not native.is_over and native.to_act == python.to_act, f"step {step}"
        assert native.legal_actions().count() == python.legal_actions().count(), f"step {step}"
        chosen = python.legal_actions().sample(python_pick)
        assert native.legal_actions().sample(native_pick) == chosen, f"step {step}"
        python.apply(chosen)
        native.apply(chosen)
        assert state_differences(native.state, python.state) == [], f"step {step}: after {chosen}"
        step += 1
    assert native.is_over
    assert native.score() == python.score()
    assert native.history == python.history
    return native


@pytest.mark.parametrize("variant", list_variants())
def test_the_same_seed_gives_the_same_game_on_both_cores(native_game: ModuleType, variant: str) -> None:
    # A seed whose game in every variant meets a position the core lists (Samba's game of "core-game/1" ends
    # after 51 actions, all listed by the Python engine, since its takes are sampled from TakeCounter's order).
    native = _same_game(variant, "core-game/3")
    assert native.ran["listing on the core"] > 0, native.ran
    assert native.ran["apply on the core"] + native.ran["apply on the Python engine"] == len(native.history)


def test_the_core_applies_most_actions_where_it_has_the_mechanisms(native_game: ModuleType) -> None:
    native = _same_game("classic", "core-game/2")
    assert native.ran["apply on the core"] == len(native.history), native.ran


def _opening_turn(variant: str, **arguments: Any) -> tuple[Game, NativeGame]:
    """The same seeded hand on both cores, played to the first seat in play whose side has not opened."""
    python = Game(load_variant(variant), seed=1, **arguments)
    native = Game(load_variant(variant), seed=1, core="native", **arguments)
    assert isinstance(native, NativeGame)
    while python.state.phase != "play" or python.state.team_opened[python.state.side_of[python.to_act]]:
        chosen = python.legal_actions()[0]
        python.apply(chosen)
        native.apply(chosen)
    return python, native


@pytest.mark.parametrize(("scores", "minimum"), [([0, 0], 50), ([1500, 0], 90), ([3000, 0], 120)])
def test_the_openings_of_a_side_not_opened_list_on_the_core_with_the_minimum_its_scores_give(
    native_game: ModuleType, scores: list[int], minimum: int
) -> None:
    python, native = _opening_turn("classic", team_scores=scores)
    assert initial_minimum(python.rules, python.state, python.to_act) == minimum
    listed_before = native.ran["listing on the core"]
    assert list(native.legal_actions()) == list(python.legal_actions())
    assert native.ran["listing on the core"] == listed_before + 1
    assert "listing on the Python engine" not in native.ran


def test_the_takes_of_a_side_not_opened_list_on_the_core_with_its_minimum(native_game: ModuleType) -> None:
    """A whole hand on both cores, the same random choices: every listing on the core, the draw phases of a side
    not opened that may take the pile among them, each equal to the Python engine's."""
    python = Game(load_variant("classic"), seed=3)
    native = Game(load_variant("classic"), seed=3, core="native")
    rng = random.Random(3)
    takes_of_a_side_not_opened = 0
    while not python.is_over:
        listed = list(python.legal_actions())
        assert list(native.legal_actions()) == listed
        state = python.state
        if state.phase == "draw" and not state.team_opened[state.side_of[python.to_act]]:
            takes_of_a_side_not_opened += any(action.kind == "take" for action in listed)
        chosen = rng.choice(listed)
        python.apply(chosen)
        native.apply(chosen)
    assert takes_of_a_side_not_opened > 0
    assert "listing on the Python engine" not in native.ran


def test_without_the_minimum_the_core_does_not_list_the_openings(
    native_game: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    python, native = _opening_turn("classic")
    monkeypatch.setattr(native, "_initial_minimum", lambda: None)
    assert list(native.legal_actions()) == list(python.legal_actions())
    assert native.ran["listing on the Python engine"] == 1


def test_an_action_not_listed_is_refused_with_the_python_engines_rule_and_text(native_game: ModuleType) -> None:
    python = Game(load_variant("classic"), seed=1)
    native = Game(load_variant("classic"), seed=1, core="native")
    with pytest.raises(IllegalAction) as refused_by_python:
        python.apply(parse_action("discard 5H"))
    with pytest.raises(IllegalAction) as refused_on_core:
        native.apply(parse_action("discard 5H"))
    assert str(refused_on_core.value) == str(refused_by_python.value)
    assert refused_on_core.value.rule_id == "TURN.DRAW_FIRST"
    assert native.history == [] and native.legal_actions().count() == 1


def _judged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The actions the Python engine judges from now on in a game on the core, by their text."""
    judged: list[str] = []

    def judge(rules: Rules, state: HandState, action: Action, seat: int | None = None) -> Plan:
        judged.append(str(action))
        return plan(rules, state, action, seat)

    monkeypatch.setattr(game_module, "plan", judge)
    return judged


def test_an_action_not_handed_out_that_the_cores_listing_holds_is_applied_unjudged(
    native_game: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the protocol applies without asking ``legal`` first: the core's listing of the position, not a state
    rebuilt for the Python engine's judgement, says the action is legal."""
    native = Game(load_variant("classic"), seed=1, core="native")
    judged = _judged(monkeypatch)
    native.apply(parse_action("draw"))
    assert judged == []
    assert native.state.phase == "play" and native.history == [parse_action("draw")]
    assert native.ran == {"apply on the core": 1}  # the draw phase's part of the listing says so: none is built


def test_a_meld_not_handed_out_that_the_cores_listing_holds_is_applied_unjudged(
    native_game: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A single meld of a side that has opened: the core's listing, built for it, holds it."""
    python = Game(load_variant("classic"), seed=3)
    native = Game(load_variant("classic"), seed=3, core="native")
    pick = random.Random(3)
    while True:
        listed = list(python.legal_actions())
        melds = [action for action in listed if action.kind == "meld"]
        state = python.state
        if melds and state.team_opened[state.side_of[python.to_act]]:
            break
        chosen = pick.choice(listed)
        python.apply(chosen)
        native.apply(chosen)
    judged = _judged(monkeypatch)
    native.apply(parse_action(str(melds[-1])))
    python.apply(melds[-1])
    assert judged == [] and native.ran["listing on the core"] > 0
    assert state_differences(native.state, python.state) == []


def test_a_discard_the_cores_listing_does_not_hold_is_judged_and_refused_as_by_the_python_engine(
    native_game: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    python = Game(load_variant("classic"), seed=1)
    native = Game(load_variant("classic"), seed=1, core="native")
    for game in (python, native):
        game.apply(parse_action("draw"))
    held = python.hand_of(python.to_act)
    missing = next(card for card in range(len(python.rules.is_wild)) if card not in held)
    judged = _judged(monkeypatch)
    discard = Action("discard", (missing,))
    with pytest.raises(IllegalAction) as refused_on_core:
        native.apply(discard)
    with pytest.raises(IllegalAction) as refused_by_python:
        python.apply(discard)
    assert judged == [str(discard)] and str(refused_on_core.value) == str(refused_by_python.value)
    assert native.history == [parse_action("draw")]


def test_an_action_the_cores_listing_holds_for_another_seat_is_judged_and_refused(
    native_game: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    python = Game(load_variant("classic"), seed=1)
    native = Game(load_variant("classic"), seed=1, core="native")
    judged = _judged(monkeypatch)
    wrong = (native.to_act + 1) % 4
    with pytest.raises(IllegalAction) as refused_on_core:
        native.apply(parse_action("draw"), wrong)
    with pytest.raises(IllegalAction) as refused_by_python:
        python.apply(parse_action("draw"), wrong)
    assert judged == ["draw"] and str(refused_on_core.value) == str(refused_by_python.value)
    assert native.history == []


def test_an_opening_not_handed_out_is_judged_by_the_python_engine_then_applied(
    native_game: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core's listing holds a side's openings by count, not action by action: the Python engine judges one."""
    python, native = _opening_turn("classic")
    opening = next(action for action in python.legal_actions() if action.kind == "meld")
    judged = _judged(monkeypatch)
    native.apply(parse_action(str(opening)))
    python.apply(opening)
    assert judged == [str(opening)]
    assert state_differences(native.state, python.state) == []


def test_an_action_equal_to_one_handed_out_is_not_judged_again(
    native_game: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the protocol sends them: parsed from text after a listing, equal to a listed action but not the same."""
    native = Game(load_variant("classic"), seed=1, core="native")
    assert [str(action) for action in native.legal_actions()] == ["draw"]

    def judged(*_: object) -> None:
        raise AssertionError("judged again")

    monkeypatch.setattr(game_module, "plan", judged)
    native.apply(parse_action("draw"))
    assert native.state.phase == "play" and native.ran["apply on the core"] == 1


def test_undo_restores_the_position_and_the_fields_kept_beside_it(native_game: ModuleType) -> None:
    native = Game(load_variant("classic"), seed=3, core="native")
    pick = random.Random(3)
    before = []
    for _ in range(40):
        before.append(native.state.copy())
        native.apply(native.legal_actions().sample(pick))
    for state in reversed(before):
        native.undo()
        assert state_differences(native.state, state) == []
    assert native.history == []


def test_views_are_the_python_engines(native_game: ModuleType) -> None:
    python = Game(load_variant("hand-and-foot"), seed=5)
    native = Game(load_variant("hand-and-foot"), seed=5, core="native")
    pick = random.Random(5)
    for _ in range(30):
        action = python.legal_actions().sample(pick)
        python.apply(action)
        native.apply(action)
    assert [native.view(seat) for seat in range(4)] == [python.view(seat) for seat in range(4)]


def test_while_rule_coverage_is_recorded_the_python_engine_applies(native_game: ModuleType) -> None:
    """The core's apply notes no rule: where coverage is recorded (``explain``, the suite's coverage), the Python
    engine applies, so the rules an action asked are all recorded."""
    rules = Rules(load_variant("classic"))
    native = Game(rules, seed=1, core="native")
    rules.coverage = Coverage()
    native.apply(native.legal_actions()[0])
    assert native.ran["apply on the Python engine"] == 1 and "apply on the core" not in native.ran
    assert rules.coverage.outcomes
    rules.coverage = None
    native.apply(native.legal_actions()[0])
    assert native.ran["apply on the core"] == 1


def test_the_cores_listing_and_apply_are_kept_for_a_few_rules_only(native_game: ModuleType) -> None:
    first = Rules(load_variant("classic"))
    kept = game_module.natives_of(first)
    assert game_module.natives_of(first) is kept
    for _ in range(game_module._NATIVES_KEPT):
        game_module.natives_of(Rules(load_variant("classic")))
    assert all(rules is not first for rules, _ in game_module._NATIVES)
    assert len(game_module._NATIVES) == game_module._NATIVES_KEPT


def test_a_listing_walked_across_an_apply_and_its_undo_goes_on_from_the_position_then(native_game: ModuleType) -> None:
    """As a search does between two actions: the rest of the walk is the same position's, listed again, and the
    actions listed after the move are judged when applied, not taken as handed out."""
    native = Game(load_variant("classic-2p"), seed=4, core="native")
    pick = random.Random(4)
    while native.legal_actions().count() < 4:
        native.apply(native.legal_actions().sample(pick))
    expected = list(native.legal_actions())
    walk = iter(native.legal_actions())
    first = next(walk)
    native.apply(first)
    native.undo()
    assert [first, *walk] == expected
    assert not native._was_listed(expected[-1])
