"""A meld written in a position (``Game.from_position``, a scenario's set-up, the protocol's ``setup``) must be
one a play could have laid: the rules' own meld checks (hook meld.valid) judge it, and a meld they refuse is
refused when the position is written, naming the side, the meld, its cards and the rule, not scored and left
for the next action to trip on."""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta_ref import Game, load_variant
from canasta_ref.conformance.scenario import check_scenario
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.conformance.setup import position_from_json, position_json
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.position import Position
from canasta_ref.engine.sides import form_lone_hand
from canasta_ref.errors import CanastaError

#: Per variant and kind of meld: a meld no play can lay, and the rule that refuses it.
REFUSED = [
    ("classic", "too few cards", "QH QS", "MELD.MIN_CARDS"),
    ("classic", "two ranks", "QH QS 5D", "MELD.SAME_RANK"),
    ("classic", "too many wild cards", "QH QS QD 2C 2D 2H 2S", "MELD.MAX_WILDS"),
    ("classic", "too few natural cards", "QH 2C 2D 2H JK", "MELD.MIN_NATURALS"),
    ("classic", "wild cards alone", "2C 2D JK", "MELD.NO_WILD_ONLY"),
    ("classic", "black threes, laid only in going out", "3C 3S 3C", "B3.MELD.GOING_OUT"),
    ("samba", "sequence of mixed suits", "4S 5H 6S", "MELD.SEQUENCE.ONE_SUIT"),
    ("samba", "sequence with a gap", "4S 6S 7S", "MELD.SEQUENCE.IN_ORDER"),
    ("samba", "sequence with a joker", "4S 5S JK", "MELD.SEQUENCE.NO_WILDS"),
    ("samba", "sequence of twelve cards", "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "MELD.SEQUENCE.NO_THREES"),
    ("samba", "sequence of eleven cards", "4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "MELD.SEQUENCE.MAX_CARDS"),
    ("samba", "group with three wild cards", "QH QS QD 2C 2D 2H", "MELD.MAX_WILDS"),
    ("bolivia", "sequence of mixed suits", "4S 5H 6S", "MELD.SEQUENCE.ONE_SUIT"),
    ("bolivia", "wild meld of eight", "2C 2D 2H 2S JK JK JK JK", "MELD.WILD.MAX_CARDS"),
    ("hand-and-foot", "meld of eight", "7C 7C 7C 7D 7D 7D 7H 7H", "MELD.MAX_CARDS"),
    ("hand-and-foot", "more wild cards than natural", "QH 2C 2D", "MELD.WILD_RATIO"),
    ("hand-and-foot", "black threes", "3C 3S 3C", "B3.MELD.GOING_OUT"),
    ("modern-american", "wild meld of eight", "2C 2D 2H 2S JK JK 2C 2D", "MELD.MAX_CARDS"),
    ("modern-american", "sevens with a wild card", "7C 7D 7H 2C", "MELD.SEVENS.NO_WILDS"),
    ("modern-american", "meld of eight", "QC QC QD QD QH QH QS QS", "MELD.MAX_CARDS"),
]

#: Per variant, melds a play can lay (some only in an opening, or made of wild cards alone where that is allowed).
ACCEPTED = [
    ("classic", "QH QS QD 2C 2D JK"),
    ("classic", "QH QS QD QC QH QS QD 2C 2D 2H"),
    ("samba", "4S 5S 6S 7S 8S 9S 10S"),
    ("samba", "QH QS QD 2C 2D"),
    ("bolivia", "2C 2D 2H 2S JK JK JK"),
    ("hand-and-foot", "QH QS 2C 2D"),
    ("hand-and-foot", "2C 2D JK"),
    ("hand-and-foot", "7C 7C 7C 7D 7D 7D 7H"),
    ("modern-american", "AC AD AH 2C"),
    ("modern-american", "2C 2D JK"),
    ("modern-american", "QC QC QD QD QH QH QS"),
]


def _position(variant: str, meld: str, first: str | None = None) -> Position:
    """North to draw; side 1's melds: ``first`` (if given), then ``meld``."""
    players = load_variant(variant).parameters["players"].value
    hands = [parse_cards(hand) for hand in ("KH 9C", "4C", "7C", "8C", "6C", "5C")[:players]]
    written = [parse_cards(m) for m in (first, meld) if m is not None]
    return Position(hands=hands, melds=[[], written])


@pytest.mark.parametrize(("variant", "kind", "meld", "rule"), REFUSED, ids=[f"{v}: {k}" for v, k, _, _ in REFUSED])
def test_a_meld_no_play_can_lay_is_refused_naming_it_and_the_rule(
    variant: str, kind: str, meld: str, rule: str
) -> None:
    with pytest.raises(CanastaError) as refused:
        Game.from_position(load_variant(variant), _position(variant, meld, first="10H 10S 10D"))
    message = str(refused.value)
    assert message.startswith("field 'melds[1][1]': side 1's meld 2 (")
    assert f"breaks rule {rule}: " in message, message
    assert sorted(message.split("(")[1].split(")")[0].split()) == sorted(meld.split())


@pytest.mark.parametrize(("variant", "meld"), ACCEPTED)
def test_a_meld_a_play_can_lay_is_accepted(variant: str, meld: str) -> None:
    game = Game.from_position(load_variant(variant), _position(variant, meld))
    assert game.state.melds[1][0].size == len(meld.split())


SCENARIO = """\
scenario: 1
id: {name}
title: A test
rules: [TURN.ORDER]
variants: [{variant}]
level: must
setup:
  position:
    hands: ["KH 9C", "4C", "7C", "8C"]
    melds: [["QH QS QD"], ["KH KS KD", "{meld}"]]
steps:
  - action: draw
    expect: {{result: accepted}}
"""


@pytest.mark.parametrize(("variant", "meld", "rule"), [("samba", "4S 5H 6S", "MELD.SEQUENCE.ONE_SUIT")])
def test_a_scenario_writing_such_a_meld_is_refused_where_it_is_written(
    tmp_path: Path, variant: str, meld: str, rule: str
) -> None:
    path = tmp_path / "bad-meld.yaml"
    path.write_text(SCENARIO.format(name="bad-meld", variant=variant, meld=meld), encoding="utf-8")
    scenario, errors = check_scenario(path)
    assert scenario is None and len(errors) == 1
    assert errors[0].location is not None and (errors[0].location.line, errors[0].location.column) == (10, 40)
    assert f"field 'setup.position.melds[1][1]': under {variant}: side 1's meld 2 ({meld}) breaks rule {rule}" in str(
        errors[0]
    )


def test_the_protocols_setup_refuses_such_a_meld() -> None:
    position = {"hands": ["KH 9C", "4C", "7C", "8C"], "melds": [[], ["4S 5H 6S"]]}
    session = ReferenceSession()
    assert session.handle({"cmd": "hello", "protocol": 6})["ok"] is True
    reply = session.handle({"id": 1, "cmd": "setup", "variant": "samba", "position": position})
    assert reply["ok"] is False
    expected = "side 1's meld 1 (4S 5H 6S) breaks rule MELD.SEQUENCE.ONE_SUIT: A sequence is all of one suit."
    assert reply["error"].endswith(expected), reply["error"]


def test_the_pooled_melds_of_a_side_joined_by_a_lone_hand_are_written_back() -> None:
    """Classic for three: once a lone hand forms, the other two sides' melds are pooled, a pool of kings with
    four wild cards among them; the position written back sets up again, and only that side's melds go unjudged."""
    three = load_variant("classic-3p")
    melds = [[], [parse_cards("KH KS 2C 2D")], [parse_cards("KD KC 2H JK")]]
    game = Game.from_position(three, Position(hands=[parse_cards(h) for h in ("KH 9C", "4C", "7C")], melds=melds))
    form_lone_hand(game.rules, game.state, 0)
    written = position_json(game)
    assert written["melds"][1] == ["KC KD KH KS 2C 2D 2H JK"] and written["sides"] == [0, 1, 1]
    again = Game.from_position(three, position_from_json(written, game.rules))
    assert again.state.melds[1][0].wilds == 4
    unstocked = {name: value for name, value in written.items() if name != "stock"}
    lone = {**unstocked, "melds": [["QH 2S JK"], written["melds"][1], []]}
    with pytest.raises(CanastaError, match=r"side 0's meld 1 \(QH 2S JK\) breaks rule MELD.MIN_NATURALS"):
        Game.from_position(three, position_from_json(lone, game.rules))


def test_what_only_going_out_lays_lies_only_before_the_player_going_out() -> None:
    """Black threes are melded only in going out: a meld of them lies on the table only while its side's player,
    to act, has drawn and holds at most the card to discard."""
    classic = load_variant("classic")
    hands = [parse_cards(hand) for hand in ("9C", "4C", "7C", "8C")]
    going_out = Position(hands=hands, melds=[[parse_cards("3C 3S 3C")], []], phase="play")
    assert Game.from_position(classic, going_out).state.melds[0][0].size == 3
    for other in (Position(hands=hands, melds=going_out.melds), Position(hands=hands, melds=[[], going_out.melds[0]])):
        with pytest.raises(CanastaError, match=r"breaks rule B3.MELD.GOING_OUT"):
            Game.from_position(classic, other)


VARIANTS = ["bolivia", "classic", "classic-2p", "classic-6p", "fournier", "hand-and-foot", "modern-american", "samba"]


#: Melds holding a bonus card: red threes in every variant, and black threes where they are bonus cards too.
BONUS_IN_MELD = [(v, m) for v in VARIANTS for m in ("3H 3D 3H", "QH QS 3D", "10H 10S 10D 3H")]
BONUS_IN_MELD.append(("modern-american", "3C 3S 3C 3S"))


@pytest.mark.parametrize(("variant", "meld"), BONUS_IN_MELD)
def test_a_bonus_card_in_a_meld_is_refused_as_one(variant: str, meld: str) -> None:
    """A red three (and Modern American's black three) is laid out as a bonus card when received (hook
    bonus_card), never melded: a written meld holding one is refused naming the meld's field, the card and the
    rule, not judged as a meld of threes."""
    with pytest.raises(CanastaError) as refused:
        Game.from_position(load_variant(variant), _position(variant, meld))
    message = str(refused.value)
    assert message.startswith("field 'melds[1][0]': 3") and " is a bonus card (rule RED3.LAY_OUT)" in message, message
    assert "Black threes" not in message


def test_a_red_three_among_the_bonus_cards_is_accepted() -> None:
    classic = load_variant("classic")
    hands = [parse_cards(hand) for hand in ("KH 9C", "4C", "7C", "8C")]
    written = Position(hands=hands, melds=[[], [parse_cards("10H 10S 10D")]], bonus=[[], parse_cards("3H 3D")])
    game = Game.from_position(classic, written)
    assert game.state.bonus[1] == tuple(parse_cards("3H 3D"))


def test_a_black_three_meld_is_refused_even_going_out_where_the_variant_never_melds_them() -> None:
    """Hand and Foot never melds black threes: even before the player going out, a meld of them is refused."""
    hand_and_foot = load_variant("hand-and-foot")
    hands = [parse_cards(hand) for hand in ("9C", "4C", "7C", "8C")]
    going_out = Position(hands=hands, melds=[[parse_cards("3C 3S 3C")], []], phase="play")
    with pytest.raises(CanastaError, match=r"field 'melds\[0\]\[0\]': .* breaks rule B3.MELD.GOING_OUT"):
        Game.from_position(hand_and_foot, going_out)


@pytest.mark.parametrize(
    ("phase", "instead"),
    [
        ("answer", "write the position in phase play and give the ask as a step"),
        ("keep", "write the position before the action that brought them"),
        ("over", "write the position before the last action"),
    ],
)
def test_a_phase_that_waits_on_an_action_is_refused_saying_what_to_write(phase: str, instead: str) -> None:
    """A partner's answer, a bonus card's keep and a hand over each follow an action (the ask, the cards received,
    the last action) whose facts a position does not carry: the position is written before it, with it as a step."""
    hands = [parse_cards(hand) for hand in ("KH 9C", "4C", "7C", "8C")]
    with pytest.raises(CanastaError) as refused:
        Game.from_position(load_variant("modern-american"), Position(hands=hands, phase=phase))  # type: ignore[arg-type]
    message = str(refused.value)
    assert message.startswith("field 'phase': expected draw (the turn not begun) or play (the player has drawn); ")
    assert f"phase {phase} cannot be written: " in message and instead in message, message


def test_an_unknown_phase_is_refused_naming_the_field() -> None:
    hands = [parse_cards(hand) for hand in ("KH 9C", "4C", "7C", "8C")]
    with pytest.raises(CanastaError, match=r"^field 'phase': expected draw .* or play .*, got 'dance'$"):
        Game.from_position(load_variant("classic"), Position(hands=hands, phase="dance"))  # type: ignore[arg-type]


@pytest.mark.parametrize("phase", ["draw", "play"])
def test_the_draw_and_play_phases_are_written(phase: str) -> None:
    hands = [parse_cards(hand) for hand in ("KH 9C", "4C", "7C", "8C")]
    game = Game.from_position(load_variant("classic"), Position(hands=hands, phase=phase))  # type: ignore[arg-type]
    assert game.state.phase == phase
