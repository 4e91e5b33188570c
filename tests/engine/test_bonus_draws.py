"""Modern American's deal, spec-driven: no upcard (hook deal.no_upcard), bonus cards for the initial meld drawn from
the stock while the turn card lies in it (bonus_draw.count, stock.turn_card_depth) or taken as talons
(bonus_draw.from_talons), and a bonus card drawn as the stock's last card kept in hand (stock.last_card_bonus_kept).
Classic, with none of these clauses, deals and plays as before."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from listing_kit import each_listing, legal_by_plan

from canasta_ref import Game, parse_action
from canasta_ref.conformance.setup import position_from_json, position_json, with_parameters
from canasta_ref.conformance.views import conservation_problem, unknown_field_problem
from canasta_ref.engine.cards import card_name, full_deck, parse_cards
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.errors import CanastaError, IllegalAction
from canasta_ref.spec import load_variant

_RULE = """\
  - id: {id}
    section: deal
    title: {id}
    text: {id}.
    sources: [{{source: canasta-ref, quote: "{id}."}}]
    hook: {hook}
    {body}
"""


def _spec(variant_id: str, *rules: tuple[str, str, str]) -> str:
    head = (
        f"spec: 1\nid: {variant_id}\nname: {variant_id}\ndescription: Classic with Modern American's deal.\n"
        "extends: classic\nparameters:\n  draw_count: {value: 1}\nrules:\n"
    )
    return head + "".join(_RULE.format(id=i, hook=h, body=b) for i, h, b in rules)


_MODERN = (
    ("DEAL.NO_UPCARD", "deal.no_upcard", "when: true"),
    ("DEAL.TURN_CARD", "stock.turn_card_depth", "value: 8"),
    ("MELD.BONUS_CARDS", "bonus_draw.count", "value: if first_side_to_meld then 4 else 3"),
    ("THREES.LAST_STOCK_CARD_KEPT", "stock.last_card_bonus_kept", "when: true"),
)
_TALONS = (
    ("DEAL.NO_UPCARD", "deal.no_upcard", "when: true"),
    ("MELD.BONUS_CARDS", "bonus_draw.count", "value: if first_side_to_meld then 4 else 3"),
    ("DEAL.TALONS", "bonus_draw.from_talons", "when: true"),
)


@pytest.fixture(scope="module")
def specs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Rules]:
    folder: Path = tmp_path_factory.mktemp("spec")
    out = {}
    for variant_id, rules in (("modern-deal", _MODERN), ("talon-deal", _TALONS)):
        (folder / f"{variant_id}.yaml").write_text(_spec(variant_id, *rules), encoding="utf-8")
        out[variant_id] = rules_for(load_variant(folder / f"{variant_id}.yaml"))
    return out


@pytest.fixture
def modern(specs: dict[str, Rules]) -> Rules:
    return specs["modern-deal"]


@pytest.fixture
def talons(specs: dict[str, Rules]) -> Rules:
    return specs["talon-deal"]


CLASSIC = rules_for(load_variant("classic"))

#: Seat 0 opens with kings and queens (60, over Classic's 50) and keeps 5C; the other seats hold plain cards.
OPENER = ["KH KS KD QH QS QD 5C", "4C 4D 6C 8D 9S", "4H 4S 6D 8H 9H", "6H 6S 8C 9C 9D"]


def _plain(rules: Rules, card: int) -> bool:
    return not rules.is_wild[card] and card_name(card)[0] != "3"


def _game(
    rules: Rules,
    hands: Sequence[str],
    *,
    stock_size: int = 40,
    stock: str = "",
    melds: Sequence[Sequence[str]] = (),
    **rest: Any,
) -> Game:
    """A written position whose stock is ``stock`` or else ``stock_size`` plain cards (no three, no wild card), so
    that its size is known turn by turn; every other card lies in the pile, under a plain one."""
    written = [[parse_cards(m) for m in side] for side in melds]
    remaining = full_deck(rules.packs, rules.jokers_per_pack)
    for card in [c for hand in hands for c in parse_cards(hand)] + [c for side in written for m in side for c in m]:
        remaining.remove(card)
    top = parse_cards(stock) if stock else [c for c in remaining if _plain(rules, c)][:stock_size]
    for card in top:
        remaining.remove(card)
    pile = [c for c in remaining if not _plain(rules, c)] + [c for c in remaining if _plain(rules, c)]
    position = Position(
        hands=[parse_cards(h) for h in hands], stock=top, pile=pile, melds=written, **{"phase": "play", **rest}
    )
    return Game.from_position(rules, position)


def _play(game: Game, text: str) -> None:
    game.apply(parse_action(text))


def _draw_and_discard(game: Game) -> None:
    """The seat to act draws and discards a card that is neither wild nor a three."""
    _play(game, "draw")
    seat = game.to_act
    card = next(c for c in game.hand_of(seat) if not game.rules.is_wild[c] and card_name(c)[0] != "3")
    _play(game, f"discard {card_name(card)}")


# -- the deal --------------------------------------------------------------------------------------------------


def test_no_upcard_leaves_the_pile_empty_and_the_first_player_draws(modern: Rules) -> None:
    game = Game(modern, seed=7)
    assert game.state.pile == [] and game.view(0)["pile"] == []
    laid_out = sum(len(cards) for cards in game.state.bonus)  # red threes dealt, laid out and replaced
    assert len(game.state.stock) == 108 - 4 * 11 - laid_out
    kinds = {action.kind for action in game.legal_actions()}
    assert "take" not in kinds and "draw" in kinds
    with pytest.raises(IllegalAction, match=r"PILE\.TAKE\.NOT_EMPTY"):
        game.check(parse_action("take"))
    _play(game, "draw")
    assert game.state.hand_sizes[0] == 12 and game.state.phase == "play"


def test_classic_still_turns_an_upcard_and_shows_no_bonus_fields() -> None:
    game = Game(CLASSIC, seed=7)
    assert game.state.pile and not CLASSIC.no_upcard
    assert game.state.talons == [] and game.state.bonus_draws_owed == []
    view = game.view(0)
    assert not {"turn_card_drawn", "talon_sizes", "bonus_draws_owed"} & set(view)


def test_the_talons_are_set_aside_after_the_hands_face_down(talons: Rules) -> None:
    cards = full_deck(talons.packs, talons.jokers_per_pack)
    deck = [c for c in cards if card_name(c)[0] != "3"] + [c for c in cards if card_name(c)[0] == "3"]
    game = Game(talons, deck=deck)
    assert talons.talon_sizes == (4, 3)
    assert game.state.talons == [tuple(deck[44:48]), tuple(deck[48:51])]
    assert len(game.state.stock) == 108 - 44 - 7
    view = game.view(2)
    assert view["talon_sizes"] == [4, 3] and view["bonus_draws_owed"] == [0, 0, 0, 0]
    assert "turn_card_drawn" not in view  # talons: no turn card
    assert unknown_field_problem(view) is None and conservation_problem(view, 2, 108) is None


# -- bonus cards from the stock ----------------------------------------------------------------------------------


def test_the_first_side_to_meld_draws_four_at_its_next_turn_and_the_second_three(modern: Rules) -> None:
    game = _game(modern, OPENER)
    _play(game, "meld KH KS KD | QH QS QD")
    assert game.state.bonus_draws_owed == [4, 0, 0, 0]
    assert game.view(1)["bonus_draws_owed"] == [4, 0, 0, 0]
    _play(game, "discard 5C")
    assert not game.is_over and game.state.hand_sizes[0] == 0  # the hand is empty, but the bonus is owed
    for _ in range(3):
        _draw_and_discard(game)
    assert game.to_act == 0 and game.state.phase == "draw"
    assert game.state.hand_sizes[0] == 4 and game.state.bonus_draws_owed == [0, 0, 0, 0]
    assert any(event.what == "draws bonus cards for the initial meld" for event in game.events)
    _play(game, "draw")  # the turn's own draw comes on top of the bonus
    assert game.state.hand_sizes[0] == 5


def test_the_second_side_to_meld_earns_three(modern: Rules) -> None:
    hands = ["4C 4D 6C 8D 9S", "KH KS KD QH QS QD 5C", "4H 4S 6D 8H 9H", "6H 6S 8C 9C 9D"]
    game = _game(modern, hands, to_act=1, melds=[["AH AS AD AC"], []], seat_melded=[True, False, False, False])
    _play(game, "meld KH KS KD | QH QS QD")
    assert game.state.bonus_draws_owed == [0, 3, 0, 0]


def test_a_later_meld_by_the_same_side_earns_nothing(modern: Rules) -> None:
    hands = ["KH KS KD QH QS QD 5C", "4C 4D 6C 8D 9S", "4H 4S 6D 8H 9H", "6H 6S 8C 9C 9D"]
    game = _game(modern, hands, melds=[["AH AS AD AC"], []], seat_melded=[False, False, True, False])
    _play(game, "meld KH KS KD")
    assert game.state.bonus_draws_owed == []


def test_after_the_turn_card_no_bonus_is_earned_and_its_drawer_announces_it(modern: Rules) -> None:
    game = _game(modern, OPENER, stock_size=9, phase="draw")  # the turn card is on top
    assert game.view(0)["turn_card_drawn"] is False
    _play(game, "draw")
    assert game.view(3)["turn_card_drawn"] is True
    assert game.events[-1].what.startswith("draws the turn card") and game.events[-1].cards == ()
    assert sum(event.what.startswith("draws the turn card") for event in game.events) == 1
    _play(game, "meld KH KS KD | QH QS QD")
    assert game.state.bonus_draws_owed == []


def test_the_bonus_is_cut_to_the_cards_above_the_turn_card_when_earned(modern: Rules) -> None:
    """Two cards lie above the turn card when North opens: North earns two, and draws them at the next turn
    although the turn card has been drawn meanwhile (the condition is on the meld, S0#154), so North, who
    discarded the last card on the strength of the bonus, has cards to play."""
    game = _game(modern, OPENER, stock_size=11)  # two cards lie above the turn card
    _play(game, "meld KH KS KD | QH QS QD")
    assert game.state.bonus_draws_owed == [2, 0, 0, 0]
    _play(game, "discard 5C")
    _draw_and_discard(game)  # seat 1 draws one of them: one is left above the turn card
    _draw_and_discard(game)  # seat 2 draws the last one
    assert len(game.state.stock) == 9
    _draw_and_discard(game)  # seat 3 draws the turn card
    assert game.view(0)["turn_card_drawn"] is True
    assert game.state.to_act == 0 and game.state.hand_sizes[0] == 2 and game.state.bonus_draws_owed == [0, 0, 0, 0]
    assert game.events[-1].what == "draws bonus cards for the initial meld" and len(game.events[-1].cards) == 2
    _play(game, "draw")
    assert len(game.legal_actions()) > 0


def test_melding_the_hand_away_after_the_initial_meld_draws_the_bonus_at_once(modern: Rules) -> None:
    hands = ["KH KS KD QH QS QD QC", *OPENER[1:]]
    game = _game(modern, hands)
    _play(game, "meld KH KS KD | QH QS QD QC")
    assert not game.is_over
    assert game.state.phase == "play" and game.to_act == 0
    assert game.state.hand_sizes[0] == 4 and game.state.bonus_draws_owed == [0, 0, 0, 0]


@pytest.mark.parametrize("variant, stock_size", [("classic", 40), ("modern-deal", 8)])
def test_without_bonus_cards_melding_the_hand_away_would_be_going_out(
    specs: dict[str, Rules], variant: str, stock_size: int
) -> None:
    """Classic has no bonus draws; Modern's are over once the turn card (8 cards from the bottom) is drawn."""
    rules = CLASSIC if variant == "classic" else specs[variant]
    game = _game(rules, ["KH KS KD QH QS QD QC", *OPENER[1:]], stock_size=stock_size)
    with pytest.raises(IllegalAction, match=r"GO_OUT\.CANASTAS"):
        game.check(parse_action("meld KH KS KD | QH QS QD QC"))


def test_undo_takes_back_the_bonus_owed_and_drawn(modern: Rules) -> None:
    game = _game(modern, OPENER)
    start = game.state.snapshot()
    _play(game, "meld KH KS KD | QH QS QD")
    _play(game, "discard 5C")
    for _ in range(3):
        _draw_and_discard(game)
    assert game.state.hand_sizes[0] == 4
    for _ in range(8):
        game.undo()
    assert game.state.snapshot() == start and game.state.bonus_draws_owed == []


# -- talons ---------------------------------------------------------------------------------------------------------


def _talon_game(rules: Rules, hands: Sequence[str], **rest: Any) -> Game:
    position = Position(
        hands=[parse_cards(h) for h in hands], talons=[parse_cards("7C 7D 7H 7S"), parse_cards("10C 10D 10H")], **rest
    )
    return Game.from_position(rules, position)


def test_the_first_side_to_meld_takes_the_four_card_talon_and_the_second_the_three(talons: Rules) -> None:
    hands = ["KH KS KD QH QS QD 5C", "JH JS JD AH AS AD 5D", "4H 4S 6D 8H 9H", "6H 6S 8C 9C 9D"]
    game = _talon_game(talons, hands, phase="play")
    _play(game, "meld KH KS KD | QH QS QD")
    assert game.state.bonus_draws_owed == [4, 0, 0, 0]
    _play(game, "discard 5C")
    _play(game, "draw")
    _play(game, "meld JH JS JD | AH AS AD")  # 140: the second side opens, claiming the three-card talon
    assert game.state.bonus_draws_owed == [4, 3, 0, 0]
    assert game.view(0)["talon_sizes"] == [4, 3]  # claimed, still face down
    _play(game, "discard 5D")
    _draw_and_discard(game)
    _draw_and_discard(game)
    assert sorted(game.hand_of(0)) == sorted(parse_cards("7C 7D 7H 7S"))
    assert game.view(0)["talon_sizes"] == [3] and game.state.bonus_draws_owed == [0, 3, 0, 0]
    _draw_and_discard(game)  # seat 0; seat 1's turn begins with its talon
    assert game.state.talons == [] and game.state.bonus_draws_owed == [0, 0, 0, 0]
    assert game.events[-1].what == "takes the talon (3 cards)"
    assert sorted(game.events[-1].cards) == sorted(parse_cards("10C 10D 10H"))
    assert all(game.state.hands[1][card] for card in parse_cards("10C 10D 10H"))


def test_a_talon_claim_of_the_wrong_size_is_refused(talons: Rules) -> None:
    hands = ["KH KS KD", "4C 4D 6C", "4H 4S 6D", "6H 6S 8C"]
    with pytest.raises(CanastaError, match=r"bonus_draws_owed\[2\]': seat 2 takes a talon of 4 cards, not 3"):
        _talon_game(talons, hands, melds=[[parse_cards("AH AS AD")], []], bonus_draws_owed=[0, 0, 3, 0])


# -- the last card of the stock ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kept", [True, False])
def test_a_three_drawn_as_the_last_stock_card_stays_in_hand_only_where_the_spec_says(modern: Rules, kept: bool) -> None:
    rules = modern if kept else CLASSIC
    game = _game(rules, OPENER, stock="3H", phase="draw")  # the stock's last card is a red three
    _play(game, "draw")
    assert game.is_over
    assert bool(game.state.hands[0][parse_cards("3H")[0]]) is kept
    assert bool(game.state.bonus[0]) is not kept


# -- written positions ------------------------------------------------------------------------------------------


def test_a_position_with_bonus_owed_round_trips_through_json(modern: Rules) -> None:
    game = _game(modern, OPENER, stock_size=40, melds=[["AH AS AD"], []], bonus_draws_owed=[0, 0, 4, 0])
    written = position_json(game)
    assert written["bonus_draws_owed"] == [0, 0, 4, 0]
    again = Game.from_position(modern, position_from_json(written, modern))
    assert again.state.bonus_draws_owed == [0, 0, 4, 0] and again.state.cards_held(2) == 9
    assert "bonus_draws_owed" not in position_json(Game(CLASSIC, seed=1))


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"bonus_draws_owed": [0, 4, 0, 0]}, r"seat 1's side has no meld"),
        ({"bonus_draws_owed": [4, 0, 0, 0], "phase": "draw"}, r"seat 0 is to act .* has drawn its bonus cards"),
        ({"bonus_draws_owed": [0, 0, -1, 0]}, r"bonus_draws_owed\[2\]': expected a number of cards"),
        ({"bonus_draws_owed": [0, 4]}, r"expected 4 counts, one per seat"),
        ({"talons": [parse_cards("7C")]}, r"modern-deal sets no talons aside"),
    ],
)
def test_impossible_bonus_fields_are_refused(modern: Rules, fields: dict[str, Any], message: str) -> None:
    base: dict[str, Any] = {"melds": [[parse_cards("AH AS AD")], []], "phase": "play"}
    with pytest.raises(CanastaError, match=message):
        Game.from_position(modern, Position(hands=[parse_cards(h) for h in OPENER], **{**base, **fields}))


def test_classic_refuses_bonus_owed() -> None:
    written = {"hands": OPENER, "melds": [["AH AS AD"], []], "phase": "play", "bonus_draws_owed": [1, 0, 0, 0]}
    with pytest.raises(CanastaError, match="classic draws no bonus cards for the initial meld"):
        Game.from_position(CLASSIC, position_from_json(written, CLASSIC))
    with pytest.raises(CanastaError, match="expected a list of whole numbers"):
        position_from_json({**written, "bonus_draws_owed": [True, 0, 0, 0]}, CLASSIC)


# -- an initial meld made by taking the pile (Modern American's pile_opening_bonus_cards) -------------------------


def _take_opening(bonus_cards: str, hands: Sequence[str]) -> Game:
    """Modern American with ``pile_opening_bonus_cards`` set, seat 0 to take a pile of one king of clubs."""
    rules = rules_for(with_parameters("modern-american", {"pile_opening_bonus_cards": bonus_cards}))
    remaining = full_deck(rules.packs, rules.jokers_per_pack)
    pile = parse_cards("KC")
    for card in [c for hand in hands for c in parse_cards(hand)] + pile:
        remaining.remove(card)
    stock = [c for c in remaining if card_name(c)[0] == "3"] + [c for c in remaining if card_name(c)[0] != "3"]
    position = Position(hands=[parse_cards(h) for h in hands], stock=stock, pile=pile, phase="draw")
    return Game.from_position(rules, position)


#: Seat 0 opens by taking the pile with every card it holds: three kings, aces with a two, queens with a joker.
_WHOLE_HAND_TAKE = "take KS KD KH + AS AD 2C | QS QD JK"
_TAKERS = ["KS KD KH AS AD 2C QS QD JK", "4C 5C 6S", "4H 5H 6C", "4S 6D 7D"]


def _listed(game: Game, text: str) -> bool:
    """Whether the action is legal, the listing (plain and as a structure) checked against plan on every candidate."""
    found = {parse_action(text) in legal_by_plan(game.rules, game) for _ in each_listing()}
    assert len(found) == 1
    return found.pop()


def test_an_opening_that_takes_the_pile_earns_bonus_cards_under_pagat() -> None:
    game = _take_opening("drawn", _TAKERS)
    assert _listed(game, _WHOLE_HAND_TAKE)
    _play(game, _WHOLE_HAND_TAKE)
    # The hand melded away, the four bonus cards are drawn at once to play on with.
    assert len(game.hand_of(0)) == 4 and not game.is_over and not any(game.state.bonus_draws_owed)


def test_under_the_cla_an_opening_that_takes_the_pile_earns_none_listed_and_judged_alike() -> None:
    game = _take_opening("none", _TAKERS)
    # No bonus cards to play on with: taking with the whole hand would go out without two canastas.
    assert not _listed(game, _WHOLE_HAND_TAKE)
    with pytest.raises(IllegalAction):
        _play(game, _WHOLE_HAND_TAKE)
    game = _take_opening("none", ["KS KD KH AS AD 2C QS QD JK 9H 8S", *_TAKERS[1:]])
    assert _listed(game, _WHOLE_HAND_TAKE)
    _play(game, _WHOLE_HAND_TAKE)
    assert not any(game.state.bonus_draws_owed) and len(game.hand_of(0)) == 2
