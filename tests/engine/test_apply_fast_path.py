"""``apply`` trusts an action taken from the listing of the very same position, and nothing else.

The listing is checked equal to ``plan`` elsewhere (test_properties); these tests pin down when the shortcut
may be used: the same action object, listed for the current position, by a complete listing.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from canasta_ref import Game, IllegalAction, Rules, load_variant, parse_action
from canasta_ref.state import HandState

RULES = Rules(load_variant("classic"))


def test_a_listed_action_applies_as_plan_says() -> None:
    shortcut, checked = Game(RULES, seed=7), Game(RULES, seed=7)
    rng = random.Random(7)
    while not shortcut.is_over:
        listed = list(shortcut.legal_actions())
        action = rng.choice(listed)
        copy = parse_action(str(action))  # equal, but not the listed object: checked in full
        assert copy == action and copy is not action
        assert shortcut.apply(action) == checked.apply(copy)
        assert shortcut.state == checked.state
    assert checked.is_over


def test_a_listing_of_an_earlier_position_is_not_trusted() -> None:
    game = Game(RULES, seed=3)
    listed = list(game.legal_actions())  # a complete listing, remembered by the game
    draw = listed[0]
    assert draw.kind == "draw"
    game.apply(draw)
    with pytest.raises(IllegalAction) as refused:
        game.apply(draw)  # the same object, but the listing was of the position before the draw
    assert refused.value.rule_id == "TURN.ONE_DRAW"
    game.undo()
    game.apply(draw)  # after undo the old listing is stale too, but the draw is legal again: checked in full
    assert game.state.phase == "play"


def test_a_listing_left_unfinished_is_not_trusted() -> None:
    game = Game(RULES, seed=3)
    game.apply(next(iter(game.legal_actions())))
    first = next(iter(game.legal_actions()))
    assert "listed" not in game.state.derived  # nothing remembered from a listing never finished
    game.apply(first)


def test_copy_and_snapshot_carry_every_field() -> None:
    state = Game(RULES, seed=1).state
    values: dict[str, object] = {}
    for number, field in enumerate(dataclasses.fields(HandState)):
        current = getattr(state, field.name)
        if field.name == "derived":
            continue
        if field.name == "went_out":
            values[field.name] = 2  # int | None, None at the start
        elif isinstance(current, bool):
            values[field.name] = not current
        elif isinstance(current, int):
            values[field.name] = current + 100 + number
        elif isinstance(current, list):
            values[field.name] = [*current, number] if not current or not isinstance(current[0], list) else current
        else:
            values[field.name] = {"phase": "over", "permission": "yes"}.get(field.name, f"changed {number}")
    changed = dataclasses.replace(state, **values)
    for copy in (changed.copy(), HandState.restore(changed.snapshot())):
        for field in dataclasses.fields(HandState):
            if field.name == "derived":
                continue  # computed facts, not part of the position
            assert getattr(copy, field.name) == getattr(changed, field.name), field.name
            if isinstance(getattr(copy, field.name), list):
                assert getattr(copy, field.name) is not getattr(changed, field.name), f"{field.name} is shared"
