"""``apply`` trusts an action taken from the listing of the very same position, and nothing else.

The listing is checked equal to ``plan`` elsewhere (test_properties); these tests pin down when the shortcut
may be used: the same action object, listed for the current position, by a complete listing.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from canasta_ref import Game, IllegalAction, Rules, load_variant, parse_action, parse_cards
from canasta_ref.engine.position import Position
from canasta_ref.engine.state import HandState

RULES = Rules(load_variant("classic"))


@pytest.mark.parametrize(
    ("variant", "seed"),
    [("classic", 7), ("classic", 8), ("modern-american", 7), ("modern-american", 8), ("samba", 7), ("hoyle-2p", 7)],
)
def test_a_listed_action_applies_as_plan_says(variant: str, seed: int) -> None:
    """Melds are chosen whenever there are some, and by index (as random play chooses): those made from a shape
    the listing judged are applied without their checks (``plan_checked``), and must do what the same action
    checked in full does."""
    rules = Rules(load_variant(variant))
    shortcut, checked = Game(rules, seed=seed), Game(rules, seed=seed)
    rng = random.Random(seed)
    melds = 0
    while not shortcut.is_over:
        legal = shortcut.legal_actions()
        indices = [i for i in range(len(legal)) if legal[i].kind == "meld"] if len(legal) < 2000 else []
        action = legal[rng.choice(indices)] if indices else legal[rng.randrange(len(legal))]
        melds += action.kind == "meld"
        copy = parse_action(str(action))  # equal, but not the listed object: checked in full
        assert copy == action and copy is not action
        assert shortcut.apply(action) == checked.apply(copy)
        assert shortcut.state == checked.state
    assert checked.is_over and melds >= 3


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


def test_an_action_from_an_iteration_left_unfinished_applies_as_plan_says() -> None:
    game, twin = Game(RULES, seed=3), Game(RULES, seed=3)
    opening = next(iter(game.legal_actions()))
    assert game.apply(opening) == twin.apply(parse_action(str(opening)))
    first = next(iter(game.legal_actions()))
    # The listing is built whole before it hands out an action, so an iteration stopped early still hands out
    # only legal actions of this very position, and only those are trusted.
    facts = game.state.derived
    assert facts is not None and facts.listing is not None and facts.listed is not None
    assert any(a is first for a in facts.listed)
    # Applied as the same action read from text is on a twin game (checked in full): same events, same position.
    assert game.apply(first) == twin.apply(parse_action(str(first)))
    assert game.state == twin.state


def _position_with_melds_and_bonus_cards() -> HandState:
    """Classic, seat 1 to play: both sides have melded and hold red threes, the pile has two cards."""
    position = Position(
        hands=[parse_cards(text) for text in ("9C 9D 4S", "5C 6C 7C 8H", "6H 7H", "7S 10D JC")],
        pile=parse_cards("8C 8D"),
        melds=[
            [parse_cards("KH KS KD"), parse_cards("AH AS AD 2C")],
            [parse_cards("QC QD QH JK")],
        ],
        bonus=[parse_cards("3D"), parse_cards("3H 3H"), [], parse_cards("3D")],
        team_scores=[120, 1600],
        to_act=1,
        phase="play",
        seat_melded=[True, True, False, False],
    )
    return Game.from_position(RULES, position).state


def test_copy_and_snapshot_carry_every_field() -> None:
    state = _position_with_melds_and_bonus_cards()
    assert all(state.melds) and all(state.bonus[seat] for seat in (0, 1))
    state.feet = [(seat + 1,) for seat in range(4)]  # Classic deals none: one a seat makes the field like the others
    state.talons = [(5, 6, 7, 8), (9, 10, 11)]  # nor sets talons aside
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
        elif isinstance(current, list) and current and isinstance(current[0], (list, tuple)):
            # One tuple per seat or side (hands, melds, bonus cards, feet): every inner one changes
            # too, by repeating its first item (a count, a Meld, a card) or, where it is empty, adding a number.
            kind = type(current[0])
            values[field.name] = [kind([*inner, inner[0] if inner else number]) for inner in current]
            values[field.name].append(kind([number]))
        elif isinstance(current, list):
            values[field.name] = [*current, number]
        elif isinstance(current, tuple):  # the cards of a special hand laid down
            values[field.name] = (*current, number)
        else:
            values[field.name] = {"phase": "over", "permission": "yes", "resume_phase": "play"}.get(
                field.name, f"changed {number}"
            )
    changed = dataclasses.replace(state, **values)
    for field in dataclasses.fields(HandState):
        if field.name != "derived":
            assert getattr(changed, field.name) != getattr(state, field.name), f"{field.name} was not changed"
    for copy in (changed.copy(), HandState.restore(changed.snapshot())):
        for field in dataclasses.fields(HandState):
            if field.name == "derived":
                continue  # computed facts, not part of the position
            assert getattr(copy, field.name) == getattr(changed, field.name), field.name
            if isinstance(getattr(copy, field.name), list):
                assert getattr(copy, field.name) is not getattr(changed, field.name), f"{field.name} is shared"
                for inner_copy, inner in zip(getattr(copy, field.name), getattr(changed, field.name), strict=True):
                    if isinstance(inner, list):
                        assert inner_copy is not inner, f"an inner list of {field.name} is shared"
        # Changing every list of the copy, inner lists included, leaves the original as it was.
        before = changed.snapshot()
        for field in dataclasses.fields(HandState):
            value = getattr(copy, field.name)
            if field.name != "derived" and isinstance(value, list):
                for inner in value:
                    if isinstance(inner, list):
                        inner.append(inner[0] if inner else 0)
                value.append(value[0])
        assert changed.snapshot() == before


def test_a_snapshot_shares_with_the_previous_one_only_what_is_the_same() -> None:
    """The undo stack's snapshots share the tuples of hands, melds and bonus cards an action left as they were,
    and never one it changed; each restores its own position exactly."""
    state = _position_with_melds_and_bonus_cards()
    first = state.snapshot()
    state.pile.append(state.stock.pop())
    state.hands[1] = (*state.hands[1][:-1], state.hands[1][-1] + 1)
    second = state.snapshot(first)
    assert second[3] is first[3] and second[4] is first[4], "melds and bonus cards unchanged: shared"
    assert second[2] is not first[2] and second[2][1] is state.hands[1], "a hand changed: a new tuple of hands"
    assert HandState.restore(second) == state
    state.melds[0] = state.melds[0][:-1]
    third = state.snapshot(second)
    assert third[3] is not second[3] and third[3][0] is state.melds[0]
    assert third[2] is second[2]
    assert HandState.restore(third) == state
    assert HandState.restore(first) != state


def test_a_snapshot_keeps_values_that_do_not_fit_in_a_byte() -> None:
    state = _position_with_melds_and_bonus_cards()
    state.stock.append(300)  # a byte array cannot hold it: the stock is packed as a tuple instead
    state.pile.append(-1)
    restored = HandState.restore(state.snapshot())
    assert restored.stock == state.stock and restored.pile == state.pile
    assert restored == state
    assert isinstance(state.snapshot()[0], tuple)
    assert isinstance(state.snapshot()[1], tuple)


def test_hands_are_immutable_and_shared_by_snapshots() -> None:
    """A snapshot per action copies no hand: hands are tuples, replaced (never changed) when cards move."""
    game = Game(RULES, seed=3)
    before = game.state.hands[game.to_act]
    snapshot = game.state.snapshot()
    assert snapshot[2][game.to_act] is before
    game.apply(parse_action("draw"))
    assert game.state.hands[game.to_act] is not before
    seat = game.to_act
    assert sum(game.state.hands[seat]) == game.state.hand_sizes[seat] > sum(before)
    game.undo()
    assert game.state.hands[game.to_act] == before
    with pytest.raises(TypeError):
        game.state.hands[0][5] = 1  # type: ignore[index]
