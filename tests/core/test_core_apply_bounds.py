"""The C entry of the core's apply (``native/apply.c``) on positions loaded near the bounds of what the core keeps
in narrow counts: a hand's copies of one card (a byte, 255), a seat's bonus cards laid out (64), a meld's copies of
one card, a side's penalties (1,000,000 either way, as ``load`` takes them). A move past a bound is refused with a
message naming it, never wrapped; where the count is known before anything moves (the cards a draw surely brings,
a take's pile, a meld's cards, the foot picked up) the position is left unchanged. Each on both sides: one card
more than fits, and exactly as many as fit."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from canasta_ref import core, parse_action
from canasta_ref.core.apply import Applied, NativeApply
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.game import Game
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.spec import load_variant

#: The bounds of ``_core.c``: MAX_COPIES, MAX_BONUS, MAX_PENALTY.
MOST_COPIES = 255
MOST_BONUS = 64
MOST_PENALTY = 1_000_000

_HANDS, _MELDS, _BONUS, _PENALTIES = 0, 3, 4, 9  # places in ``core.position_fields``
_FEW = (parse_cards("9C 9D 9H 10S"), parse_cards("4C 4D 4H"), parse_cards("6C 6D 6H"))


def _card(name: str) -> int:
    return parse_cards(name)[0]


def _game(variant: str, north: str, stock: str, **extra: Any) -> tuple[Rules, Game]:
    """North to act holding ``north``, North-South having laid queens, the stock's top card last."""
    rules = rules_for(load_variant(variant))
    melds = [[parse_cards("QH QD QC")], []]
    game = Game.from_position(rules, Position([parse_cards(north), *_FEW], melds=melds, **extra))
    game.state.stock = parse_cards(stock)
    game.state.derived = None
    return rules, game


def _loaded(rules: Rules, game: Game, **changes: Any) -> Any:
    """A core position holding ``game``'s, with North's ``copies`` of ``card`` (a pair), its ``bonus`` cards laid
    out, its side's first meld ``meld`` (its cards) or the sides' ``penalties`` set past what a game reaches."""
    fields = list(core.position_fields(game.state))
    if "copies" in changes:
        card, copies = changes["copies"]
        north = list(fields[_HANDS][0])
        north[card] = copies
        fields[_HANDS] = [tuple(north), *fields[_HANDS][1:]]
    if "bonus" in changes:
        fields[_BONUS] = [changes["bonus"], *fields[_BONUS][1:]]
    if "meld" in changes:
        ours, theirs = fields[_MELDS]
        fields[_MELDS] = [[(ours[0][0], changes["meld"], False), *ours[1:]], theirs]
    if "penalties" in changes:
        fields[_PENALTIES] = changes["penalties"]
    position = core.new_position(rules)
    position.load(*fields)
    position.load_turn(*core.turn_fields(game.state))
    return position


def _applied_in_c(rules: Rules, position: Any, text: str) -> Applied:
    applier = NativeApply(rules)
    outcome = applier.apply(position, parse_action(text))
    assert isinstance(outcome, Applied) and applier.applied_in_c == 1, outcome
    return outcome


def _refused_unchanged(rules: Rules, position: Any, text: str, message: str) -> None:
    before = position.export()
    with pytest.raises(ValueError, match=message):
        NativeApply(rules).apply(position, parse_action(text))
    assert position.export() == before


@pytest.mark.parametrize("held", [MOST_COPIES - 1, MOST_COPIES])
def test_a_draw_past_a_hands_copies_of_a_card_is_refused_before_it_moves(library: ModuleType, held: int) -> None:
    rules, game = _game("classic", "8C 8D 5S", "4S KD")
    position = _loaded(rules, game, copies=(_card("KD"), held))
    if held == MOST_COPIES:
        _refused_unchanged(rules, position, "draw", "seat 0 would hold more than 255 copies of card")
    else:
        assert _applied_in_c(rules, position, "draw") == Applied()
        assert position.hand(0)[_card("KD")] == MOST_COPIES


@pytest.mark.parametrize("laid_out", [MOST_BONUS - 1, MOST_BONUS])
def test_a_red_three_drawn_past_the_bonus_cards_kept_is_refused_before_it_moves(
    library: ModuleType, laid_out: int
) -> None:
    rules, game = _game("classic", "8C 8D 5S", "4S 6S 3H")
    position = _loaded(rules, game, bonus=(_card("3D"),) * laid_out)
    if laid_out == MOST_BONUS:
        _refused_unchanged(rules, position, "draw", "seat 0 would lay out more than 64 bonus cards")
    else:
        assert _applied_in_c(rules, position, "draw") == Applied()
        assert len(position.export()["bonus"][0]) == MOST_BONUS and position.hand(0)[_card("6S")] == 1


@pytest.mark.parametrize("held", [MOST_COPIES - 1, MOST_COPIES])
def test_a_take_whose_pile_passes_a_hands_copies_is_refused_before_it_moves(library: ModuleType, held: int) -> None:
    """The pile's 5C joins North's own 5Cs when the pile is taken with the pair of eights."""
    rules, game = _game("classic", "8C 8D 5S", "4S 6S", pile=parse_cards("5C 7D 8H"))
    position = _loaded(rules, game, copies=(_card("5C"), held))
    if held == MOST_COPIES:
        _refused_unchanged(rules, position, "take 8C 8D", "seat 0 would hold more than 255 copies of card")
    else:
        assert _applied_in_c(rules, position, "take 8C 8D") == Applied()
        assert position.hand(0)[_card("5C")] == MOST_COPIES and not position.pile()


@pytest.mark.parametrize("melded", [MOST_COPIES - 2, MOST_COPIES - 1])
def test_a_meld_past_a_melds_copies_of_a_card_is_refused_before_it_moves(library: ModuleType, melded: int) -> None:
    """Two groups join the side's queens together, a QS each: counted together, one past the meld's copies."""
    rules, game = _game("classic", "QS QS 8C 5S", "4S 6S", phase="play")
    position = _loaded(rules, game, meld=(*(_card("QS"),) * melded, *parse_cards("QD QC")))
    if melded + 2 > MOST_COPIES:
        _refused_unchanged(rules, position, "meld @1: QS | @1: QS", "side 0's meld 1 would hold more cards than")
    else:
        assert _applied_in_c(rules, position, "meld @1: QS | @1: QS") == Applied()
        assert position.export()["melds"][0][0][3][0] == melded + 4


@pytest.mark.parametrize("laid_out", [MOST_BONUS - 1, MOST_BONUS])
def test_a_foot_whose_red_three_passes_the_bonus_cards_kept_is_refused_before_it_moves(
    library: ModuleType, laid_out: int
) -> None:
    """Hand and Foot: North discards its last card and picks up its foot, whose red three is laid out."""
    rules = rules_for(load_variant("hand-and-foot"))
    feet = [parse_cards("3H JD"), parse_cards("5C 5D"), parse_cards("7C 7D"), parse_cards("10C 10D")]
    hands = [parse_cards("5S"), *_FEW]
    position_set_up = Position(hands, pile=parse_cards("5H 7H"), melds=[[parse_cards("8H 8S 8D")], []], feet=feet)
    game = Game.from_position(rules, position_set_up)
    game.state.stock = parse_cards("4S 6S KS")
    game.state.phase = "play"
    game.state.derived = None
    position = _loaded(rules, game, bonus=(_card("3D"),) * laid_out)
    if laid_out == MOST_BONUS:
        _refused_unchanged(rules, position, "discard 5S", "seat 0 would lay out more than 64 bonus cards")
    else:
        assert _applied_in_c(rules, position, "discard 5S") == Applied()
        assert len(position.export()["bonus"][0]) == MOST_BONUS and not position.export()["feet"][0]


@pytest.mark.parametrize("before", [MOST_PENALTY - 100, MOST_PENALTY - 99])
def test_a_penalty_summed_past_the_cores_bound_is_refused_never_wrapped(library: ModuleType, before: int) -> None:
    """Hook penalty.turn_end (Fournier) charges 100 for a turn ended after a yes, not out. The charge is known
    only once the card is discarded: the discard stays (documented), the penalties are never wrapped or cut."""
    rules, game = _game("fournier", "8C 8D 5S", "4S 6S", phase="play", permission="yes")
    game.state.asked_this_turn = True
    position = _loaded(rules, game, penalties=[before, 0])
    if before > MOST_PENALTY - 100:
        with pytest.raises(ValueError, match="side 0's penalties would come to 1000001 points, past the 1000000"):
            NativeApply(rules).apply(position, parse_action("discard 5S"))
        assert position.export()["penalties"] == (before, 0)
    else:
        assert _applied_in_c(rules, position, "discard 5S") == Applied()
        assert position.export()["penalties"] == (MOST_PENALTY, 0)
    with pytest.raises(ValueError, match="penalties is 1000001, expected -1000000 to 1000000"):
        _loaded(rules, game, penalties=[MOST_PENALTY + 1, 0])


def test_a_groups_size_past_an_int_is_refused_not_cut_to_one_card(library: ModuleType) -> None:
    """An encoded group claiming 2**32 + 1 cards, followed by one card, was once read as a group of that card."""
    rules, game = _game("classic", "8C 8D 8H 5S", "4S 6S", phase="play")
    position = _loaded(rules, game)
    before = position.export()
    encoded = (2, 0, 0, 1, -1, 0, 2**32 + 1, _card("8C"))
    with pytest.raises(ValueError, match="cards run past its end"):
        position.apply(NativeApply(rules).context, encoded)
    assert position.export() == before
