"""The mechanisms Hand and Foot needs, each driven by a hook: a foot (deal.foot_size), closed melds (meld.closed),
a minimum by deal (hand_number), going out by canastas of each kind (go_out.allowed) and buried upcards
(upcard.buried). Tested on a small child of Classic, so that each is seen apart from the variant that uses it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from canasta_ref import Game, load_variant, parse_action
from canasta_ref.engine.cards import card_name, cards_of, full_deck, parse_cards
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.engine.scoring import side_facts
from canasta_ref.errors import CanastaError, IllegalAction

CHILD = """\
spec: 1
id: with-a-foot
name: Classic with a foot
description: Classic with a foot of five, canastas closed at seven, a minimum by deal and a contract by kind.
extends: classic
parameters:
  packs: {value: 3}
rules:
  - id: MELD.NO_WILD_ONLY
    replaces: true
    section: melds
    title: Wild cards alone make a wild meld
    text: Wild cards alone make a meld of wild cards, never a meld of a rank.
    sources: [{source: canasta-ref, quote: "Wild melds."}]
    hook: meld.valid
    require: naturals > 0 or rank == "JK"
    message: Wild cards alone make a meld of wild cards.
  - id: DEAL.FOOT
    section: deal
    title: A foot of five
    text: Each player is dealt five more cards face down.
    sources: [{source: canasta-ref, quote: "A foot of five."}]
    hook: deal.foot_size
    value: 5
  - id: DEAL.UPCARD.BURIED
    section: deal
    title: A wild upcard is buried
    text: A wild card turned up goes to the bottom of the stock.
    sources: [{source: canasta-ref, quote: "Buried."}]
    hook: upcard.buried
    when: is_wild
  - id: MELD.CLOSED
    section: melds
    title: Closed at seven
    text: A meld of seven cards is set aside.
    sources: [{source: canasta-ref, quote: "Closed at seven."}]
    hook: meld.closed
    when: size >= 7
  - id: INITIAL_MELD.MINIMUM
    replaces: true
    section: initial-meld
    title: Ten a deal
    text: The minimum is ten times the deal's number.
    sources: [{source: canasta-ref, quote: "Ten a deal."}]
    hook: initial_meld.minimum
    value: 10 * hand_number
  - id: GO_OUT.CANASTAS
    replaces: true
    section: going-out
    title: A natural and a wild canasta
    text: To go out a side needs a natural canasta and a wild one.
    sources: [{source: canasta-ref, quote: "A natural and a wild canasta."}]
    hook: go_out.allowed
    require: natural_canastas_after >= 1 and wild_canastas_after >= 1
    message: Your side needs a natural and a wild canasta.
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    folder: Path = tmp_path_factory.mktemp("spec")
    (folder / "with-a-foot.yaml").write_text(CHILD, encoding="utf-8")
    return rules_for(load_variant(folder / "with-a-foot.yaml"))


def _position(
    rules: Rules, hands: list[str], *, feet: Sequence[str] = (), melds: Sequence[Sequence[str]] = (), **rest: Any
) -> Game:
    position = Position(
        hands=[parse_cards(h) for h in hands],
        pile=parse_cards("7D"),
        melds=[[parse_cards(m) for m in side] for side in melds],
        feet=[parse_cards(f) for f in feet],
        phase="play",
        seat_melded=[bool(melds and melds[0])] * 4,
        **rest,
    )
    return Game.from_position(rules, position)


def _names(cards: list[int]) -> str:
    return " ".join(card_name(c) for c in cards)


def test_the_feet_are_dealt_after_the_hands_face_down(rules: Rules) -> None:
    deck = full_deck(rules.packs, rules.jokers_per_pack)
    game = Game(rules, deck=[c for c in deck if not rules.is_wild[c]] + [c for c in deck if rules.is_wild[c]])
    state = game.state
    assert state.hand_sizes == [11] * 4 and [len(f) for f in state.feet] == [5] * 4
    dealt = [c for c in deck if not rules.is_wild[c]]
    assert sorted(state.feet[0]) == sorted(dealt[44:64:4])  # one card a seat, after the eleven of the hands
    view = game.view(1)
    assert view["foot_sizes"] == [5, 5, 5, 5] and len(view["hand"]) == 11
    assert "feet" not in view  # face down: no seat sees a foot, its own included


def test_a_variant_without_a_foot_shows_none_and_refuses_one(rules: Rules) -> None:
    classic = rules_for(load_variant("classic"))
    game = Game(classic, seed=1)
    assert game.state.feet == [] and "foot_sizes" not in game.view(0)
    with pytest.raises(CanastaError, match="field 'feet': classic deals no foot"):
        Game.from_position(classic, Position(hands=[parse_cards(c) for c in ("4C", "4D", "4H", "4S")], feet=[[5]]))
    with pytest.raises(CanastaError, match="expected 4 feet"):
        Game.from_position(rules, Position(hands=[parse_cards(c) for c in ("4C", "4D", "4H", "4S")], feet=[[5]] * 3))


def test_melding_the_whole_hand_picks_up_the_foot_and_the_turn_goes_on(rules: Rules) -> None:
    game = _position(
        rules,
        ["KH KS KD", "4C 5C", "4D 5D", "4H 5H"],
        feet=["9C 9S 9D 8C 6H", "6C 6D 6S 8D 8H", "", ""],
        melds=[["QH QS QD"], []],
    )
    events = game.apply(parse_action("meld KH KS KD"))
    state = game.state
    assert state.phase == "play" and state.to_act == 0 and not game.is_over
    assert _names(cards_of(state.hands[0])) == "6H 8C 9C 9D 9S"
    assert state.feet[0] == () and game.view(0)["foot_sizes"] == [0, 5, 0, 0]
    assert any("picks up the foot" in str(e) for e in events)
    game.apply(parse_action("meld 9C 9D 9S"))
    assert game.legal_actions().count() > 0


def test_discarding_the_last_card_picks_up_the_foot_for_the_next_turn(rules: Rules) -> None:
    game = _position(rules, ["KH", "4C 5C", "4D 5D", "4H 5H"], feet=["9C 9S 9D 8C 6H", "", "", ""])
    plan = game.check(parse_action("discard KH"))
    assert not plan.going_out and plan.hand_after == 5
    game.apply(parse_action("discard KH"))
    assert not game.is_over and game.state.to_act == 1 and game.state.phase == "draw"
    assert game.state.hand_sizes[0] == 5 and game.state.feet[0] == ()


def test_with_the_foot_played_an_empty_hand_goes_out_by_the_contract(rules: Rules) -> None:
    # Natural canasta only: the contract also wants a wild one, so the last card must be kept.
    short = _position(rules, ["KH", "4C 5C", "4D 5D", "4H 5H"], melds=[["QH QS QD QC QH QS QD"], []])
    with pytest.raises(IllegalAction) as refused:
        short.apply(parse_action("discard KH"))
    assert refused.value.rule_id == "GO_OUT.CANASTAS"
    assert parse_action("discard KH") not in short.legal_actions()
    full = _position(
        rules, ["KH", "4C 5C", "4D 5D", "4H 5H"], melds=[["QH QS QD QC QH QS QD", "2C 2D 2H 2S JK JK 2C"], []]
    )
    assert parse_action("discard KH") in full.legal_actions()
    full.apply(parse_action("discard KH"))
    assert full.is_over and full.state.went_out == 0


def test_the_last_meld_may_complete_the_contract_by_its_kind(rules: Rules) -> None:
    """The canastas after the action count by kind: a meld that makes the wild canasta lets the player go out."""
    game = _position(
        rules, ["JK 2H", "4C 5C", "4D 5D", "4H 5H"], melds=[["QH QS QD QC QH QS QD", "2C 2D 2S JK JK"], []]
    )
    legal = [str(a) for a in game.legal_actions()]
    assert "meld 2H JK" in legal and "meld Q: 2H JK" not in legal  # the queens' canasta is closed
    game.apply(parse_action("meld 2H JK"))
    assert game.is_over and game.state.went_out == 0


def test_a_closed_meld_is_set_aside_and_its_rank_starts_again(rules: Rules) -> None:
    game = _position(rules, ["KH KS KD KC KH 4C 9C", "4C 5C", "4D 5D", "4H 5H"], melds=[["KH KS KD KC KS KD"], []])
    game.apply(parse_action("meld KH"))
    (closed,) = game.state.melds[0]
    assert closed.closed and closed.size == 7 and game.view(0)["melds"][0][0]["closed"] is True
    game.apply(parse_action("meld KS KD KC"))
    sizes = sorted((m.size, m.closed) for m in game.state.melds[0])
    assert sizes == [(3, False), (7, True)]
    game.apply(parse_action("meld KH"))
    assert sorted(m.size for m in game.state.melds[0]) == [4, 7]


def test_a_position_may_hold_a_closed_meld_and_an_open_one_of_a_rank(rules: Rules) -> None:
    hands = ["4C 9C", "4C 5C", "4D 5D", "4H 5H"]
    game = _position(rules, hands, melds=[["KH KS KD KC KS KD KH", "KC KD KS"], []])
    assert sorted(m.closed for m in game.state.melds[0]) == [False, True]
    with pytest.raises(CanastaError, match="already has an open meld of rank K"):
        _position(rules, hands, melds=[["KH KS KD", "KC KD KS"], []])
    classic = rules_for(load_variant("classic"))  # no meld.closed clause: a canasta stays open
    with pytest.raises(CanastaError, match="already has an open meld of rank K"):
        _position(classic, hands, melds=[["KH KS KD KC KS KD KH", "KC"], []])


def test_the_minimum_goes_by_the_deal_number(rules: Rules) -> None:
    hands = ["8C 8D 8S 4C 9C", "4C 5C", "4D 5D", "4H 5H"]  # three eights: 30 points
    assert _position(rules, hands, hand_number=3).is_legal(parse_action("meld 8C 8D 8S"))
    late = _position(rules, hands, hand_number=4)
    with pytest.raises(IllegalAction) as refused:
        late.apply(parse_action("meld 8C 8D 8S"))
    assert refused.value.rule_id == "INITIAL_MELD.REQUIRED"
    with pytest.raises(CanastaError, match="hand_number"):
        _position(rules, hands, hand_number=0)


def test_a_buried_upcard_goes_to_the_bottom_of_the_stock(rules: Rules) -> None:
    deck = full_deck(rules.packs, rules.jokers_per_pack)
    dealt = 64
    wild = next(c for c in deck if rules.is_wild[c])
    natural = next(c for c in deck[dealt:] if not rules.is_wild[c] and not rules.is_bonus[c] and c != wild)
    rest = list(deck)
    rest.remove(wild)
    rest.remove(natural)
    order = [*rest[:dealt], wild, natural, *rest[dealt:]]
    game = Game(rules, deck=order)
    assert game.state.pile == [natural] and game.state.stock[0] == wild


def test_foot_cards_are_a_score_fact_of_their_own(rules: Rules) -> None:
    game = _position(rules, ["KH", "4C 5C", "4D 5D", "4H 5H"], feet=["9C 9S", "", "JK", ""])
    facts = [side_facts(rules, game.state, side) for side in (0, 1)]
    assert facts[0]["foot_points"] == 70 and facts[0]["hand_points"] == 20
    assert facts[1]["foot_points"] == 0
