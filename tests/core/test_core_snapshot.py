"""The core's snapshot (``Position.snapshot``, ``restore``), taken at every action of a game on the core for its
undo: it holds the position's used part only (the fields, each side's melds, the stock's and the pile's cards), not
the whole State's room for melds and cards not there, and gives the position back from any other, with more melds
or fewer; bytes that are not a snapshot are refused, the position unchanged."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

from canasta_ref import Game, load_variant
from canasta_ref.core.game import NativeGame


def _positions_of_a_hand(variant: str, seed: int) -> tuple[Any, list[tuple[bytes, dict[str, Any]]]]:
    """A hand played on the core to its end: its position, and each position's snapshot and export on the way."""
    game = Game(load_variant(variant), seed=seed, core="native")
    assert isinstance(game, NativeGame)
    position = game._position
    pick = random.Random(seed)
    seen = [(position.snapshot(), position.export())]
    while not game.is_over:
        game.apply(game.legal_actions().sample(pick))
        seen.append((position.snapshot(), position.export()))
    return position, seen


@pytest.mark.parametrize("variant", ["classic", "hand-and-foot"])
def test_each_snapshot_of_a_hand_restores_its_position_from_any_other(library: ModuleType, variant: str) -> None:
    position, seen = _positions_of_a_hand(variant, 4)
    assert any(melds for _, exported in seen for melds in exported["melds"])
    order = list(range(len(seen)))
    random.Random(4).shuffle(order)
    for place in order:
        snapshot, exported = seen[place]
        position.restore(snapshot)
        assert position.export() == exported, f"position {place}"
        assert position.snapshot() == snapshot


def test_a_snapshot_holds_the_used_part_of_the_position(library: ModuleType) -> None:
    """A dealt hand of Classic: its fields and its stock, no melds; the State's room is about 21 KB."""
    _, seen = _positions_of_a_hand("classic", 4)
    sizes = [len(snapshot) for snapshot, _ in seen]
    assert max(sizes) < 4096, max(sizes)
    first, last = seen[0][1], seen[-1][1]
    melds_laid = sum(len(side) for side in last["melds"]) - sum(len(side) for side in first["melds"])
    cards_gone = len(first["stock"]) + len(first["pile"]) - len(last["stock"]) - len(last["pile"])
    meld_bytes = sizes[-1] - sizes[0] + cards_gone
    assert melds_laid > 0 and meld_bytes % melds_laid == 0 and meld_bytes // melds_laid >= 53  # its card counts


@pytest.mark.parametrize("change", [b"", b"\0"])
def test_bytes_not_a_snapshot_are_refused_and_nothing_moves(library: ModuleType, change: bytes) -> None:
    """A snapshot one byte short or one byte long: its size is not the one its counts make."""
    position, seen = _positions_of_a_hand("classic", 4)
    snapshot = seen[len(seen) // 2][0]
    damaged = snapshot + change if change else snapshot[:-1]
    before = position.export()
    with pytest.raises(ValueError, match=f"these {len(damaged)} bytes are not a snapshot"):
        position.restore(damaged)
    assert position.export() == before
    with pytest.raises(TypeError, match="restore takes the bytes snapshot\\(\\) gave, not a str"):
        position.restore("a snapshot")
