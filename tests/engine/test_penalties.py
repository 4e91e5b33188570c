"""The penalty tally: a side is charged what the spec's penalty.turn_end clauses say when a player ends a turn
without going out (Fournier: asking, being told yes, and not going out); variants without such clauses never
ask the hook and keep no tally."""

from __future__ import annotations

from canasta_ref import Game, Rules, load_variant, parse_action
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.position import Position
from canasta_ref.engine.scoring import side_facts

CLASSIC = Rules(load_variant("classic"))
FOURNIER = Rules(load_variant("fournier"))
HANDS = ["KC 9D 7C 8C", "QC QC", "4C 5H", "8H 10S 4D"]
MELDS = [["AH AS AD AC AH AS AD", "KH KS KD"], ["QH QS QD", "JC JC JD JD JH JH JS"]]


def _asked(rules: Rules, answer: str) -> Game:
    """North asks, partner answers, North adds the king and discards without going out."""
    position = Position(
        hands=[parse_cards(h) for h in HANDS],
        pile=parse_cards("6C 7D 4S"),
        melds=[[parse_cards(m) for m in side] for side in MELDS],
        seat_melded=[True] * 4,
        phase="play",
    )
    game = Game.from_position(rules, position)
    game.apply(parse_action("ask"))
    game.apply(parse_action(answer), seat=2)
    game.apply(parse_action("meld KC"))
    game.apply(parse_action("discard 9D"))
    return game


def test_classic_keeps_no_tally() -> None:
    assert not CLASSIC.penalises_turn_end
    game = _asked(CLASSIC, "yes")
    assert game.state.penalties == []
    assert side_facts(CLASSIC, game.state, 0)["penalties"] == 0


def test_fournier_charges_a_yes_not_followed_by_going_out() -> None:
    assert FOURNIER.penalises_turn_end
    game = _asked(FOURNIER, "yes")
    assert game.state.penalties == [100, 0]
    assert side_facts(FOURNIER, game.state, 0)["penalties"] == 100
    assert any("penalised 100" in str(e) for e in game.events)


def test_fournier_charges_nothing_after_a_no() -> None:
    game = _asked(FOURNIER, "no")
    assert game.state.penalties == []


def test_undo_takes_the_penalty_back() -> None:
    game = _asked(FOURNIER, "yes")
    game.undo()
    assert game.state.penalties == []
