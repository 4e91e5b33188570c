"""The ``pass`` action and the ``turn.pass`` hook: Hoyle's "pass the discard" ends a turn without a discard for a
player holding one card who may not go out; Classic refuses the kind outright, so its listing never offers it."""

from __future__ import annotations

import pytest

from canasta_ref.engine.actions import Action, action_from_json, parse_action
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.game import Game
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import Rules
from canasta_ref.errors import IllegalAction, NotationError
from canasta_ref.spec import load_variant

PASS = Action("pass")


def _game(variant: str, hand: str, canastas: int = 1) -> Game:
    """The first player to play, holding ``hand``, with ``canastas`` canastas of kings and aces on the table."""
    cards = parse_cards
    melds = [cards("KH KS KD KC 2H KH KS"), cards("AH AS AD AC AH AS 2C")][:canastas]
    position = Position(
        hands=[cards(hand), cards("5C 2D 6S 8H")],
        pile=cards("6C 7D 4S"),
        melds=[melds, [cards("QH QS QD")]],
        seat_melded=[True, True],
        phase="play",
    )
    return Game.from_position(load_variant(variant), position)


def test_pass_notation_round_trips() -> None:
    assert parse_action(" PASS ") == PASS and str(PASS) == "pass"
    assert PASS.to_json() == {"type": "pass"} and action_from_json({"type": "pass"}) == PASS


def test_pass_takes_no_cards_or_fields() -> None:
    with pytest.raises(NotationError, match="'pass' takes nothing after it"):
        parse_action("pass 5H")
    with pytest.raises(NotationError, match="unknown field 'card' in a 'pass' action"):
        action_from_json({"type": "pass", "card": "5H"})


def test_kinds_refused_outright_are_found_at_binding() -> None:
    assert "pass" in Rules(load_variant("classic")).refused_kinds
    assert Rules(load_variant("classic-2p")).refused_kinds == {"ask", "pass", "combine", "declare"}  # no partner to ask
    # The clauses that refuse some passes read more than the kind.
    assert Rules(load_variant("hoyle-2p")).refused_kinds == {"ask", "combine", "declare"}


def test_hoyle_passes_with_one_card_and_too_few_canastas() -> None:
    game = _game("hoyle-2p", "5H")
    assert list(game.legal_actions()) == [PASS]
    before = game.state.copy()
    game.apply(PASS)
    assert (game.state.to_act, game.state.phase, game.hand_of(0)) == (1, "draw", parse_cards("5H"))
    assert game.state.turns == before.turns + 1
    assert game.undo() == PASS and game.state == before


@pytest.mark.parametrize(
    ("variant", "hand", "canastas", "rule"),
    [
        ("hoyle-2p", "5H 6H", 1, "TURN.PASS"),  # more than one card
        ("hoyle-2p", "5H", 2, "TURN.PASS"),  # the player may go out
        ("classic-2p", "5H 6H", 1, "TURN.NO_PASS"),  # the kind is refused outright
    ],
)
def test_a_pass_is_refused_and_not_listed(variant: str, hand: str, canastas: int, rule: str) -> None:
    game = _game(variant, hand, canastas)
    with pytest.raises(IllegalAction) as refused:
        game.apply(PASS)
    assert refused.value.rule_id == rule
    assert PASS not in list(game.legal_actions())


def test_a_pass_is_refused_before_drawing() -> None:
    game = _game("hoyle-2p", "5H")
    game.state.phase = "draw"
    with pytest.raises(IllegalAction) as refused:
        game.apply(PASS)
    assert refused.value.rule_id == "TURN.DRAW_FIRST"


@pytest.mark.parametrize(("canastas", "legal"), [(1, False), (2, True)])
def test_black_threes_down_to_a_kept_card_are_not_going_out(canastas: int, legal: bool) -> None:
    """Where a turn may end by passing, one card left is going out only if the player may go out: with too few
    canastas the card is kept, so black threes (melded only when going out) are refused."""
    game = _game("hoyle-2p", "3C 3C 3S 5H", canastas)
    black_threes = parse_action("meld 3C 3C 3S")
    assert (black_threes in list(game.legal_actions())) is legal
    if legal:
        game.apply(black_threes)
    else:
        with pytest.raises(IllegalAction) as refused:
            game.apply(black_threes)
        assert refused.value.rule_id == "B3.MELD.GOING_OUT"
