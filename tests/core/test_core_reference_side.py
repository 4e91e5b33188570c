"""The reference side of generated games plays on the native core where the core lists the variant's play
(``lists_on_core``), on the Python engine elsewhere: the same campaign seed gives the same games either way, each
choice, move and verdict (refusals are judged by the Python engine, word for word)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from canasta_ref.conformance import generated_game
from canasta_ref.conformance.choices import random_choices
from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.generated_game import Runner
from canasta_ref.conformance.strategies import Setup
from canasta_ref.conformance.variants import reference_rules
from canasta_ref.core.game import NativeGame, lists_on_core

GAMES = 2


def _games(variant: str, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[int], list[Any]]]:
    """Games 1 and 2 of a short campaign of ``variant`` against the reference in process: for each, the class of
    the reference's game, every choice made and every step played (move and verdict)."""
    recorded: list[tuple[str, list[int], list[Any]]] = []
    original = generated_game._Game.play

    def play(game: Any) -> int:
        steps = original(game)
        recorded.append((type(game.ref).__name__, list(game.pick.made), list(game.steps)))
        return steps

    with monkeypatch.context() as patched:
        patched.setattr(generated_game._Game, "play", play)
        runner = Runner(InProcessEngine(), [variant], max_prefix=60, checked_steps=4, illegal=15, probes=10)
        for number in range(1, GAMES + 1):
            runner.game(random_choices(40, number))
    return recorded


@pytest.mark.parametrize("variant", ["classic", "hand-and-foot"])
def test_a_generated_game_plays_alike_with_the_reference_on_the_core(
    native_game: ModuleType, monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    on_core = _games(variant, monkeypatch)
    monkeypatch.setattr(Runner, "reference_core", lambda _runner, _setup: "python")
    on_python = _games(variant, monkeypatch)
    assert [kind for kind, _, _ in on_core] == [NativeGame.__name__] * GAMES
    assert [kind for kind, _, _ in on_python] == ["Game"] * GAMES
    assert [(made, steps) for _, made, steps in on_core] == [(made, steps) for _, made, steps in on_python]
    assert any(not played.accepted for _, _, steps in on_core for played in steps), "no refusal was compared"


def test_a_variant_the_core_does_not_list_plays_on_the_python_engine(
    native_game: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not lists_on_core(reference_rules("samba"))
    assert [kind for kind, _, _ in _games("samba", monkeypatch)] == ["Game"] * GAMES


def test_the_runner_asks_for_the_core_only_where_it_lists_the_variant(native_game: ModuleType) -> None:
    runner = Runner(InProcessEngine(), ["classic"], max_prefix=1, checked_steps=1, illegal=0, probes=0)
    deck = tuple(range(4))
    assert runner.reference_core(Setup("classic", deck)) == "native"
    assert runner.reference_core(Setup("bolivia", deck)) == "python"
