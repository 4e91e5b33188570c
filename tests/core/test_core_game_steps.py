"""The fields a game on the core keeps beside its position (``rebuild.Beside``) follow the core's applies lazily: each
apply notes its step (a meld or take: the sizes of the side's melds before and after, ``Position.meld_sizes``; the
turn passed), and the steps are folded in only when the fields are asked for (the state, a view, the score, a
refusal, the hand's end). Folded after one step or after many, and across undo, they are the Python engine's."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

from canasta_ref import Game, load_variant
from canasta_ref.core import game as game_module
from canasta_ref.core.game import NativeGame
from canasta_ref.core.rebuild import Beside, state_differences
from canasta_ref.engine.state import HandState


def _both(variant: str, seed: int) -> tuple[Game, NativeGame]:
    python = Game(load_variant(variant), seed=seed)
    native = Game(load_variant(variant), seed=seed, core="native")
    assert isinstance(native, NativeGame)
    return python, native


def _step(python: Game, native: NativeGame, pick: random.Random) -> None:
    """One action chosen from the Python engine's listing, handed to the game on the core by its own listing."""
    listed = python.legal_actions()
    index = pick.randrange(listed.count())
    python.apply(listed[index])
    native.apply(native.legal_actions()[index])


@pytest.mark.parametrize("variant", ["classic", "classic-2p", "hand-and-foot"])
def test_a_whole_hand_folded_once_at_its_end_is_the_python_engines(
    native_game: ModuleType, variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folds: list[int] = []
    fold = game_module._after_steps

    def counted(beside: Beside, steps: Any) -> Beside:
        folds.append(len(steps))
        return fold(beside, steps)

    monkeypatch.setattr(game_module, "_after_steps", counted)
    python, native = _both(variant, 3)
    pick = random.Random(3)
    while not python.is_over:
        _step(python, native, pick)
    assert native.is_over
    assert len(folds) <= native.ran["listing on the Python engine"] + 1, folds
    assert max(folds) > 10, folds
    assert state_differences(native.state, python.state) == []
    assert native.score() == python.score()


def test_undo_across_steps_folded_in_chunks_restores_the_fields_beside(native_game: ModuleType) -> None:
    """The state read every seventh action only (so the steps between are folded together), then every action
    undone: each state the Python engine's before it."""
    python, native = _both("classic", 5)
    pick = random.Random(5)
    before: list[HandState] = []
    for step in range(70):
        if python.is_over:
            break
        before.append(python.state.copy())
        _step(python, native, pick)
        if step % 7 == 6:
            assert state_differences(native.state, python.state) == [], f"step {step}"
    assert len(before) > 50
    for state in reversed(before):
        native.undo()
        assert state_differences(native.state, state) == []
    assert native.history == []


def test_undo_of_a_hands_last_action_clears_how_it_ended(native_game: ModuleType) -> None:
    python, native = _both("classic-2p", 2)
    pick = random.Random(2)
    before = python.state.copy()
    while not python.is_over:
        before = python.state.copy()
        _step(python, native, pick)
    assert native.state.end_reason == python.state.end_reason is not None
    native.undo()
    assert native.state.end_reason is None
    assert state_differences(native.state, before) == []


def test_meld_sizes_are_the_sizes_of_a_sides_melds_in_order(native_game: ModuleType) -> None:
    python, native = _both("classic", 3)
    pick = random.Random(3)
    position = native._position
    compared = 0
    while not python.is_over:
        _step(python, native, pick)
        for side, melds in enumerate(position.export()["melds"]):
            assert position.meld_sizes(side) == tuple(counts[0] for *_, counts in melds)
            compared += len(melds)
    assert compared > 0
    with pytest.raises(ValueError, match="native core: no side 2"):
        position.meld_sizes(2)
