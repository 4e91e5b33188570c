"""Positions written out card by card that pin down what the properties in test_properties.py found.

Each test states the rule or the contract it checks; a failing one here is an engine bug, described in its docstring.
"""

from __future__ import annotations

import pytest

from canasta_ref import Game, IllegalAction, Rules, list_variants, load_variant, parse_action
from canasta_ref.engine.cards import JOKER, cards_of, parse_cards
from canasta_ref.engine.position import Position

VARIANTS = tuple(list_variants())
RULES = {name: Rules(load_variant(name)) for name in VARIANTS}


OTHER_HANDS = (
    "7C 7D 8H 8S 9D 10C JC QD KD AH 4D",
    "7H 8C 9H 10H JD QC KH AC 4H 6C 6H",
    "9S 10S JH QS KS AS 4S 6S 7S 8D 9D",
    # Seats 4 and 5 of a six-player game, which has a third pack.
    "7C 7D 8H 8S 9D 10C JC QD KD AH 4D",
    "7H 8C 9H 10H JD QC KH AC 4H 6C 6H",
)

# The opponents' hands of the take positions (classic, seat 0 to draw with KH alone on the pile).
TAKE_OPPONENT_HANDS = (
    "4D 4H 6C 6D 7D 8C 8D 9C 10C JC QC",
    "4S 6H 6S 7S 8H 8S 9H 10D 10H JD QD",
    "5C 5H 9S 10S JS QH QS AC AD AH AS",
)


def _opening_position(rules: Rules) -> Game:
    """Seat 0 to meld (it has drawn) holding 5H 5S 5D JK and four aces; no side has melded yet. The aces are a
    natural meld worth 80, which makes every variant's opening with the fives enough (Modern American's 125, and
    its natural meld)."""
    hands = [parse_cards("5H 5S 5D JK AH AS AD AC 9C 10D JS QH KC 4C 6D")]
    hands += [parse_cards(text) for text in OTHER_HANDS[: rules.players - 1]]
    return Game.from_position(rules, Position(hands=hands, pile=parse_cards("4C"), phase="play"))


@pytest.mark.parametrize("variant", [v for v in VARIANTS if "MELD.ONE_GROUP_PER_RANK" in RULES[v].variant.clauses])
def test_a_meld_split_into_groups_of_one_rank_is_listed_or_refused(variant: str) -> None:
    """``meld AH AS AD AC | 5H 5S | 5: JK`` lays the same cards as ``meld AH AS AD AC | 5H 5S JK`` with the fives
    in two groups of one rank: the rules refuse it (MELD.ONE_GROUP_PER_RANK), so ``in`` and iterating
    legal_actions() must agree that it is not listed.
    """
    game = _opening_position(RULES[variant])
    split = parse_action("meld AH AS AD AC | 5H 5S | 5: JK")
    whole = parse_action("meld AH AS AD AC | 5H 5S JK")
    assert whole in list(game.legal_actions())
    assert (split in game.legal_actions()) == (split in list(game.legal_actions())), (
        f"{split}: is_legal says {game.is_legal(split)}, but iterating legal_actions() does not give it"
    )
    with pytest.raises(IllegalAction) as refused:
        game.check(split)
    assert refused.value.rule_id == "MELD.ONE_GROUP_PER_RANK"
    assert split not in game.legal_actions()


def _classic_take_position(hand: str, own_melds: tuple[str, ...] = ()) -> Game:
    """Classic, seat 0 to draw holding ``hand``, KH alone on the pile; seat 0's side has ``own_melds``."""
    hands = [parse_cards(text) for text in (hand, *TAKE_OPPONENT_HANDS)]
    melds = [[parse_cards(text) for text in own_melds], []]
    return Game.from_position(
        RULES["classic"], Position(hands=hands, pile=parse_cards("KH"), melds=melds, phase="draw")
    )


def test_take_cannot_add_a_wild_card_to_the_top_cards_rank() -> None:
    """PILE.TAKE.EXTRA_RANK: further melds laid with the top card are of other ranks (one way to write each
    take). A wild-only group labelled with the top card's rank is such a further meld and must be refused too."""
    game = _classic_take_position("KD KD JK 4C 5D 5S 7C 7H 9D JH QC")
    legal = list(game.legal_actions())
    assert parse_action("take KD KD + 7C 7H JK") in legal  # 10 + 20 + 60 points: the opening is met
    assert parse_action("take KD KD") not in legal  # 30 points: it is not
    assert parse_action("take KD KD JK") in legal  # 80 points: the joker in the top card's meld counts (S0#71)
    with pytest.raises(IllegalAction) as refused:
        game.check(parse_action("take KD KD + K: JK"))  # a four-card K meld, opening with 80 points
    assert refused.value.rule_id == "PILE.TAKE.EXTRA_RANK"


def test_wild_only_take_pair_is_refused() -> None:
    """A take never melds the top card with two wild cards (PILE.TAKE.MATCH). With the side's meld of the top
    card's rank on the table, the same cards named with the take are the play 'take, then add them', which
    canasta-ref writes as two actions (PILE.TAKE.ONTO_MELD, a convention, checked before the sourced rule)."""
    game = _classic_take_position("KD 2C 2H 4C 5D 5S 7C 7H 9D JH JK", own_melds=("KS KS KC",))
    assert JOKER in cards_of(game.state.hands[0])
    with pytest.raises(IllegalAction) as refused:
        game.check(parse_action("take 2C 2H"))
    assert refused.value.rule_id == "PILE.TAKE.ONTO_MELD"
    assert parse_action("take") in list(game.legal_actions())
    without_meld = _classic_take_position("KD 2C 2H 4C 5D 5S 7C 7H 9D JH JK", own_melds=("7C 7D 7S",))
    with pytest.raises(IllegalAction) as refused:
        without_meld.check(parse_action("take 2C 2H"))
    assert refused.value.rule_id == "PILE.TAKE.MATCH"


def _bound_to_go_out() -> Game:
    """Classic, seat 0 to play: partner has just answered "yes" and seat 0 holds 23 cards and no wild card.

    Reached by random play (tools/bench.py, seed 1, hand 104). Seat 0 cannot go out (JD JS cannot be melded
    without a wild card), but can still meld, so GO_OUT.ANSWER_BINDING refuses a discard until no meld is left.
    """
    hands = [
        parse_cards("3C 3C 3S 4H 5D 5D 5H 6C 6D 6S 7H 7S 9D 10D JD JS QC QH QH KD AH AS AS"),
        parse_cards("4C 4D 7D JC JD"),
        parse_cards("9D JH"),
        parse_cards("4S"),
    ]
    melds = [
        [
            parse_cards(text)
            for text in (
                "10C 10C 10D 10H 10H 10S 10S 2C 2H",
                "8C 8C 8D 8H 8S 2H JK",
                "KC KC KD KH KS KS",
                "7C 7C 7D 7H 7S",
                "9C 9C 9H 9H 9S 9S",
                "4C 4D 4H 4S",
                "AC AD AD AH",
                "5H 5S 5S",
            )
        ],
        [parse_cards(text) for text in ("8D 8H 8S 2C 2D", "QD QD QS QS 2S", "6C 6D 6H 6S 2S JK")],
    ]
    position = Position(
        hands=hands,
        pile=parse_cards("JS QC"),
        melds=melds,
        bonus=[[], [], parse_cards("3D 3H"), parse_cards("3H")],
        to_act=0,
        phase="play",
        seat_melded=[True, True, True, True],
        permission="yes",
    )
    return Game.from_position(RULES["classic"], position)


def test_checking_a_bound_answer_is_not_exponential() -> None:
    """After partner says yes, a discard is refused while a card can still be melded (GO_OUT.ANSWER_BINDING).
    An earlier reading searched every sub-hand reachable by melding (~76,000 positions, 3.5 s of CPU here);
    asking whether any meld remains is one listing (tools/bench.py measures listing speed)."""
    game = _bound_to_go_out()
    with pytest.raises(IllegalAction) as refusal:
        game.check(parse_action("discard JS"))
    assert refusal.value.rule_id == "GO_OUT.ANSWER_BINDING"
    while any(a.kind == "meld" for a in game.legal_actions()):  # meld as long as anything melds
        game.apply(next(a for a in game.legal_actions() if a.kind == "meld"))
    assert any(a.kind == "discard" for a in game.legal_actions())  # then the turn ends as usual
