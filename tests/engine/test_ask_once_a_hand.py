"""Asking "may I go out?" once a hand (hook go_out.ask's ``asked_this_hand``; Modern American, pagat S0#120),
beside Classic's once a turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from listing_kit import written_variant

from canasta_ref import Game, IllegalAction, Variant, load_variant, parse_action
from canasta_ref.engine.cards import card_name

ONCE_A_HAND = """\
spec: 1
id: ask-once-a-hand
name: Ask once a hand
description: Classic, but a player may ask to go out only once in each hand.
extends: classic
rules:
  - id: GO_OUT.ASK.ONCE_A_HAND
    section: going-out
    title: Ask once a hand
    text: A player may ask permission to go out only once in each hand.
    sources: [{source: pagat, quote: "You may ask permission to go out only once in each hand."}]
    hook: go_out.ask
    require: not asked_this_hand
"""


@pytest.fixture
def once_a_hand(tmp_path: Path) -> Variant:
    return written_variant(tmp_path, "ask-once-a-hand", ONCE_A_HAND)


def _draw_and_discard(game: Game) -> None:
    game.apply(parse_action("draw"))
    card = next(c for c in game.hand_of(game.to_act) if not game.rules.is_wild[c] and not game.rules.is_bonus[c])
    game.apply(parse_action(f"discard {card_name(card)}"))


def _seat_0_asked(variant: Variant) -> Game:
    """Seat 0 draws, asks (partner says no) and discards in its first turn."""
    game = Game(variant, seed=3)
    game.apply(parse_action("draw"))
    game.apply(parse_action("ask"))
    game.apply(parse_action("no"))
    card = next(c for c in game.hand_of(0) if not game.rules.is_wild[c])
    game.apply(parse_action(f"discard {card_name(card)}"))
    return game


def _asked_and_refused_once_round(variant: Variant) -> Game:
    """Seat 0 asks in its first turn (partner says no), then the table plays round to seat 0's next turn."""
    game = _seat_0_asked(variant)
    for _ in range(3):
        _draw_and_discard(game)
    game.apply(parse_action("draw"))
    assert game.to_act == 0 and game.state.asked_in_hand == 0b0001
    return game


def test_classic_lets_a_player_ask_again_in_a_later_turn() -> None:
    game = _asked_and_refused_once_round(load_variant("classic"))
    assert game.is_legal(parse_action("ask"))
    game.apply(parse_action("ask"))
    assert game.state.asked_in_hand == 0b0001


def test_once_a_hand_refuses_a_second_question_in_a_later_turn(once_a_hand: Variant) -> None:
    game = _asked_and_refused_once_round(once_a_hand)
    assert parse_action("ask") not in game.legal_actions()
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action("ask"))
    assert refused.value.rule_id == "GO_OUT.ASK.ONCE_A_HAND"


def test_once_a_hand_is_per_player_and_undone_with_the_question(once_a_hand: Variant) -> None:
    game = _seat_0_asked(once_a_hand)
    game.apply(parse_action("draw"))
    assert game.to_act == 1 and game.state.asked_in_hand == 0b0001
    assert parse_action("ask") in game.legal_actions()  # seat 0's question does not use up seat 1's
    game.push(parse_action("ask"))
    assert game.state.asked_in_hand == 0b0011
    game.undo()
    assert game.state.asked_in_hand == 0b0001 and game.is_legal(parse_action("ask"))
