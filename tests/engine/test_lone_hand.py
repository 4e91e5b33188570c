"""Sides that re-form during a hand (hook sides.lone_hand), per-player points (hook score.player), a discard
that ends play on an empty stock (hook stock.ends_with_discard) and the ``sides`` of a written position: each
mechanism both ways, and the variants that do not use them unchanged."""

from __future__ import annotations

import pytest

from canasta_ref import Game, load_variant, parse_action, parse_cards
from canasta_ref.conformance.setup import position_from_json, position_json, with_parameters
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import rules_for
from canasta_ref.engine.sides import form_lone_hand
from canasta_ref.errors import CanastaError, SpecError
from canasta_ref.spec.derive import derive


def _game(variant: str, **fields: object) -> Game:
    rules = rules_for(load_variant(variant))
    return Game.from_position(rules, position_from_json(fields, rules))


def _three(**fields: object) -> Game:
    base: dict[str, object] = {"hands": ["9C 9D 5S", "KC KD 4H 8S", "QC QS 6S"], "pile": "6H 10D KH", "to_act": 1}
    return _game("classic-3p", **{**base, **fields})


def test_the_first_take_makes_the_lone_hand_and_pools_the_partners_melds() -> None:
    game = _three(melds=[["7H 7S 7D", "AH AS 2C"], ["JH JS JD"], ["7C 7D 7S", "8H 8S 8D"]], phase="draw")
    game.apply(parse_action("take KC KD"))
    state = game.state
    assert state.side_of == [0, 1, 0]
    assert state.melds[2] == () and state.team_opened == [True, True, False]
    assert sorted(m.size for m in state.melds[0]) == [3, 3, 6]  # the two melds of sevens merged


def test_a_second_take_does_not_re_form_the_sides() -> None:
    game = _three(melds=[["KS KH KD"], [], []], sides=[0, 1, 0], to_act=2, phase="draw", pile="6H QD")
    game.apply(parse_action("take QC QS"))
    assert game.state.side_of == [0, 1, 0]


def test_a_fixed_partnership_never_re_forms() -> None:
    game = _game(
        "classic",
        hands=["9C 9D 5S", "KC KD 4H", "QC 6S", "8C"],
        pile="6H 10D KH",
        melds=[["AH AS AD"], ["JH JS JD"]],
        to_act=1,
        phase="draw",
    )
    game.apply(parse_action("take KC KD"))
    assert game.state.side_of == [0, 1, 0, 1]


def test_going_out_first_makes_the_lone_hand_and_each_partner_gets_the_partnership_total() -> None:
    game = _three(
        hands=["9C 9S 9D 8C", "5C 6S", "4H 4S"],
        pile="7D",
        to_act=0,
        phase="play",
        melds=[["AH AS AD AC AH AS AD"], ["QH QS QD"], []],
        red_threes=["", "3H", ""],
        melded=[True, True, False],
    )
    game.apply(parse_action("meld 9C 9S 9D"))
    game.apply(parse_action("discard 8C"))
    score = game.score()
    assert game.state.side_of == [0, 1, 1]
    partnership = score.sides[1].total
    assert score.totals == [score.sides[0].total, partnership + 100, partnership]
    assert score.to_json()["totals"] == score.totals


def test_classic_scores_stay_per_side_with_no_player_parts() -> None:
    game = Game(load_variant("classic"), seed=3)
    score = game.score()
    assert score.holder_totals is None and score.players == ()
    assert "totals" not in score.to_json() and score.totals == [s.total for s in score.sides]


def test_form_lone_hand_leaves_a_lone_side_alone() -> None:
    game = _three(sides=[0, 1, 0], melds=[["AH AS AD"], ["KS KH KD"], []])
    form_lone_hand(game.rules, game.state, 1)
    assert game.state.side_of == [0, 1, 0] and len(game.state.melds[0]) == 1


def test_the_minimum_reads_the_players_own_score() -> None:
    melds = [[], ["AH AS AC"], []]
    hands = ["KC KS KD QH QS QD 7C 8D", "4C 4D", "KC KS KD QH QS QD 7C 8D"]
    opening = parse_action("meld KC KS KD | QH QS QD")
    own_zero = _three(hands=hands, melds=melds, sides=[0, 1, 0], team_scores=[3000, 0, 0], to_act=2, phase="play")
    assert own_zero.is_legal(opening)
    own_3000 = _three(hands=hands, melds=melds, sides=[0, 1, 0], team_scores=[3000, 0, 0], to_act=0, phase="play")
    assert not own_3000.is_legal(opening)


@pytest.mark.parametrize(("stock_end", "over"), [("last_discard", True), ("as_classic", False)])
def test_a_discard_on_an_empty_stock_ends_play_only_under_bicycles_rule(stock_end: str, over: bool) -> None:
    rules = rules_for(with_parameters("classic-3p", {"stock_end": stock_end}))
    game = Game.from_position(rules, Position(hands=[parse_cards("9C 9D 5S"), [], []], phase="play"))
    game.state.stock = []  # as if the first player had drawn the stock's last card
    game.apply(parse_action("discard 5S"))
    assert game.is_over is over
    assert game.state.end_reason == ("stock exhausted" if over else None)


def test_a_position_writes_its_sides_and_gives_them_back_only_when_formed() -> None:
    formed = _three(sides=[1, 1, 0])
    assert formed.state.side_of == [1, 1, 0] and position_json(formed)["sides"] == [1, 1, 0]
    assert "sides" not in position_json(_three())


@pytest.mark.parametrize(
    ("sides", "message"),
    [([0, 1], r"field 'sides': expected 3 sides"), ([0, 1, 3], r"field 'sides\[2\]': expected a side from 0 to 2")],
)
def test_a_bad_side_map_is_refused_by_field(sides: list[int], message: str) -> None:
    with pytest.raises(CanastaError, match=message):
        _three(sides=sides)


def test_a_side_map_that_is_not_a_list_of_numbers_is_refused() -> None:
    with pytest.raises(CanastaError, match=r"field 'position.sides'"):
        _three(sides="0 1 0")


def test_a_lone_hand_needs_as_many_sides_as_players() -> None:
    with pytest.raises(SpecError, match=r"sides.lone_hand needs each player to start on a side of their own"):
        derive(load_variant("classic-3p"), {"players": 4, "teams": 2})
