"""Every rule clause of Classic Canasta (spec/classic.yaml), tested where it allows and where it refuses.

The scenarios shared with the two-player variant run first (``test_shared``); the tests below pin down what
is particular to four players in partnerships: eleven cards, one card drawn, one canasta to go out, partners'
melds, hands and red threes counted together, and the match to 5000. The last two tests check that every
clause was exercised on both sides, by the tests' own records and by the engine's rule coverage (they
need the whole module to have run: ``pytest tests/rules``).
"""

from __future__ import annotations

import pytest
from clause_kit import ClauseLog, act, cards, deck_red_threes_last, replaced_clause, table
from shared_scenarios import Ctx, canasta, check_match_to_target, shared_test

from canasta_ref import Game

LOG = ClauseLog("classic")
RULES = LOG.rules
QUEENS = canasta("Q")

test_shared = shared_test(LOG)


# ---------------------------------------------------------------------------------------------- deal and draw
def test_deal_eleven_cards_each_one_at_a_time(ctx: Ctx) -> None:
    LOG.value("DEAL.HAND_SIZE", LOG.component(RULES, "deal.hand_size", {}, "DEAL.HAND_SIZE"), 11)
    deck = deck_red_threes_last(RULES)
    assert not RULES.upcard_turns_again[deck[44]]
    game = Game(RULES, deck=deck, first_seat=1)
    for offset, seat in enumerate((1, 2, 3, 0)):
        assert sorted(game.hand_of(seat)) == sorted(deck[offset:44:4])
    assert game.state.hand_sizes == [11, 11, 11, 11]
    assert game.state.pile == [deck[44]]
    assert len(game.state.stock) == 108 - 44 - 1
    assert game.to_act == 1
    thirteen = ctx.child("thirteen-cards", cards_dealt=13)
    LOG.value("DEAL.HAND_SIZE", LOG.component(thirteen, "deal.hand_size", {}, "DEAL.HAND_SIZE"), 13, "other")
    assert Game(thirteen, deck=deck).state.hand_sizes == [13, 13, 13, 13]


def test_draw_takes_the_top_card(ctx: Ctx) -> None:
    LOG.value("TURN.DRAW.COUNT", LOG.component(RULES, "draw.count", {}, "TURN.DRAW.COUNT"), 1)
    game = table(RULES, hands={0: "9C 9D"}, stock_top="6C 7C 8C")
    stock = len(game.state.stock)
    game.apply(act("draw"))
    assert sorted(game.hand_of(0)) == sorted(cards("9C 9D 6C"))
    assert len(game.state.stock) == stock - 1 and game.state.stock[-1] == cards("7C")[0]
    two = ctx.child("draw-two", draw_count=2)
    LOG.value("TURN.DRAW.COUNT", LOG.component(two, "draw.count", {}, "TURN.DRAW.COUNT"), 2, "other")
    game = table(two, hands={0: "9C 9D"}, stock_top="6C 7C 8C")
    game.apply(act("draw"))
    assert sorted(game.hand_of(0)) == sorted(cards("9C 9D 6C 7C"))


# ---------------------------------------------------------------------------------------------- initial meld
MINIMUM_CASES = [
    # side's score, melds laid from hand, their count, accepted
    (-5, "5C 5D 5H", 15, True),
    (-1500, "4C 4D 4H", 15, True),
    (0, "5C 5D 5H", 15, False),
    (0, "KH KS KD | 7C 7D 7H", 45, False),
    (0, "KH KS KD | 7C 7D 7H 7S", 50, True),
    (1495, "KH KS KD | 7C 7D 7H 7S", 50, True),
    (1500, "KH KS KD | 7C 7D 7H 7S", 50, False),
    (1500, "AH AS AD | 7C 7D 7H 7S", 80, False),
    (1500, "AH AS AD | KH KS KD", 90, True),
    (2995, "AH AS AD | KH KS KD", 90, True),
    (3000, "AH AS AD | KH KS KD", 90, False),
    (3000, "AH AS AD | KH KS KD | 7C 7D 7H 7S", 110, False),
    (3000, "AH AS AD | KH KS KD | QH QS QD", 120, True),
    (9000, "AH AS AD | KH KS JK", 130, True),
]


@pytest.mark.parametrize(("score", "melds", "count", "accepted"), MINIMUM_CASES)
def test_initial_meld_minimum_by_score_band(score: int, melds: str, count: int, accepted: bool) -> None:
    laid = cards(melds.replace("|", " "))
    assert sum(RULES.card_value[c] for c in laid) == count
    # The opponents' score is irrelevant: the minimum is the side's own.
    game = table(RULES, hands={0: melds.replace("|", " ") + " 9C 9D"}, phase="play", scores=[score, 3500])
    if accepted:
        LOG.allows(game, f"meld {melds}", "INITIAL_MELD.REQUIRED")
        assert game.state.team_opened[0] and game.state.hand_sizes[0] == 2
    else:
        LOG.refuses(game, f"meld {melds}", "INITIAL_MELD.REQUIRED")


@pytest.mark.parametrize(
    ("pile", "take", "accepted"),
    [
        ("5C AD", "take AH AS + KH KS KD", True),  # 40 + 30 from hand, 20 on the pile: 90
        ("5C KD", "take KH KS + AH AS AD", True),  # 20 + 60 + 10: 90
        ("5C KD", "take KH KS + 7C 7D 7H 7S | 8C 8D 8H", False),  # 20 + 20 + 30 + 10: 80
        ("AS AH KD", "take KH KS + 7C 7D 7H 7S | 8C 8D 8H", False),  # the aces below the top do not count
    ],
)
def test_top_discard_counts_towards_the_minimum(pile: str, take: str, accepted: bool) -> None:
    hand = "AH AS AD KH KS KD 7C 7D 7H 7S 8C 8D 8H 9C"
    game = table(RULES, hands={0: hand}, pile=pile, scores=[1500, 0])
    if accepted:
        LOG.allows(game, take, "INITIAL_MELD.REQUIRED")
        assert game.state.pile == [] and game.state.team_opened[0]
    else:
        LOG.refuses(game, take, "INITIAL_MELD.REQUIRED")


def test_minimum_is_met_once_for_the_partnership() -> None:
    game = table(RULES, hands={0: "5C 5D 5H 9C 9D"}, melds={0: ["KH KS KD"]}, seat_melded=[2], phase="play")
    LOG.allows(game, "meld 5C 5D 5H", "MELD.MIN_CARDS")
    assert game.state.seat_melded[0]


def test_going_out_concealed_needs_no_minimum() -> None:
    fours = "4C 4C 4D 4D 4H 4H 4S"  # a natural canasta worth only 35
    game = table(RULES, hands={0: fours}, phase="play")
    LOG.allows(game, f"meld {fours}", "INITIAL_MELD.REQUIRED")
    assert game.is_over and game.state.concealed
    parts = game.score().sides[0].parts
    assert parts["SCORE.MELDED_CARDS"] == 35 and parts["SCORE.CANASTA.NATURAL"] == 500
    assert parts["SCORE.GOING_OUT"] == 200 and game.score().totals[0] == 735


def test_minimum_applies_when_a_card_is_left_to_discard() -> None:
    """pagat: being left to discard the last card is not melding the whole hand ("going out illegally")."""
    fours = "4C 4C 4D 4D 4H 4H 4S"
    game = table(RULES, hands={0: f"{fours} 9H"}, phase="play")
    LOG.refuses(game, f"meld {fours}", "INITIAL_MELD.REQUIRED")
    # With two cards left the same refusal is shared_scenarios.initial_meld_counts_canasta_bonus_only_under_hoyle.


def test_going_out_concealed_by_discarding_the_last_card() -> None:
    """With the minimum met, a canasta melded from hand and a final discard is going out concealed (200)."""
    kings = "KC KC KD KD KH KH KS"
    game = table(RULES, hands={0: f"{kings} 9H"}, phase="play")
    game.apply(act(f"meld {kings}"))
    LOG.truth(RULES, "GO_OUT.CONCEALED", True, lambda: game.apply(act("discard 9H")))
    assert game.is_over and game.state.concealed
    assert game.score().sides[0].parts["SCORE.GOING_OUT"] == 200


# ---------------------------------------------------------------------------------------------- going out
def test_one_canasta_is_enough_to_go_out() -> None:
    game = table(RULES, hands={0: "9C"}, melds={0: ["KH KS KD KD 2C 2D"]}, phase="play")
    LOG.refuses(game, "discard 9C", "GO_OUT.CANASTAS")  # six cards are not a canasta
    game = table(RULES, hands={0: "9C"}, melds={0: [QUEENS]}, phase="play")
    LOG.allows(game, "discard 9C", "GO_OUT.CANASTAS")
    assert game.is_over and game.state.went_out == 0 and game.state.end_reason == "went out"


def test_going_out_concealed_after_partner_has_melded() -> None:
    fours = "4C 4C 4D 4D 4H 4H 4S"
    game = table(RULES, hands={0: fours}, melds={0: ["KH KS KD"]}, seat_melded=[2], phase="play")
    LOG.truth(RULES, "GO_OUT.CONCEALED", True, lambda: game.apply(act(f"meld {fours}")))
    assert game.state.concealed


def test_adding_to_partners_meld_is_not_concealed() -> None:
    fours = "4C 4C 4D 4D 4H 4H 4S"
    game = table(RULES, hands={0: f"KC {fours}"}, melds={0: ["KH KS KD"]}, seat_melded=[2], phase="play")
    game.apply(act("meld KC"))
    LOG.truth(RULES, "GO_OUT.CONCEALED", False, lambda: game.apply(act(f"meld {fours}")))
    assert game.is_over and not game.state.concealed
    assert game.score().sides[0].parts["SCORE.GOING_OUT"] == 100


def test_concealed_going_out_may_extend_own_melds_of_the_same_turn() -> None:
    """Cards added to a meld the player laid earlier in the same turn are not "added to partner's melds".

    pagat's condition is that the player "must not add any cards to partner's melds". Against commit 441eb73
    this failed: ``_layout`` flagged any addition to an existing meld, so melding the whole hand in two steps
    scored as an ordinary going out (100, not 200); the conformance scenario
    concealed-canasta-may-be-built-in-several-melds fails there for the same reason.
    """
    game = table(RULES, hands={0: "QC QC QD QD QH QH QS 9C 9D 9H"}, phase="play")
    game.apply(act("meld QC QC QD QD QH | 9C 9D 9H"))  # 80: the opening
    game.apply(act("meld QH QS"))  # completes the canasta and empties the hand
    assert game.is_over and game.state.went_out == 0
    assert game.state.concealed
    assert game.score().sides[0].parts["SCORE.GOING_OUT"] == 200


def test_ask_after_drawing_and_go_out_on_yes() -> None:
    game = table(RULES, hands={0: "KC", 2: "4C"}, melds={0: [QUEENS, "KH KS KD"]}, stock_top="9D")
    LOG.refuses(game, "ask", "TURN.DRAW_FIRST")
    game.apply(act("draw"))
    LOG.allows(game, "ask", "GO_OUT.ASK.BEFORE_MELDING")
    LOG.refuses(game, "yes", "TURN.ORDER", seat=0)
    LOG.allows(game, "yes", "TURN.ORDER", seat=2)
    LOG.refuses(game, "discard KC", "GO_OUT.ANSWER_BINDING")
    game.apply(act("meld KC"))
    game.apply(act("discard 9D"))
    assert game.is_over and game.state.went_out == 0


# ---------------------------------------------------------------------------------------------- red threes
def test_pile_red_threes_are_replaced_when_the_spec_says_so(ctx: Ctx) -> None:
    """Red threes found in a taken pile go through the hook ``bonus_card.replace`` like any other.

    RED3.REPLACE (``when: not from_pile``) is what keeps pile red threes unreplaced, so a spec replacing every
    red three must replace the pile's too. Against commit 441eb73 this failed: ``Game._apply_take`` laid them
    out without asking the hook, so the clause's false side was dead (fixed by 6f5e830).
    """
    always = ctx.child(
        "replace-all-red-threes",
        replaced_clause("RED3.REPLACE", "bonus_card.replace", "threes", "when", "true"),
    )
    game = table(always, hands={0: "KH KS 9C"}, pile="5C 3D 4C KD", melds={0: ["AH AS AD"]}, stock_top="6C 7C")
    game.apply(act("take KH KS"))
    assert list(game.state.bonus[0]) == cards("3D")
    assert sorted(game.hand_of(0)) == sorted(cards("9C 5C 4C 6C")), "the pile's red three was not replaced"


# ---------------------------------------------------------------------------------------------- scoring
def test_partners_score_together() -> None:
    game = table(
        RULES,
        hands={0: "9C", 1: "5C", 2: "AH KD", 3: "JK"},
        melds={0: [QUEENS], 1: ["AS AD AC"]},
        bonus={0: "3D 3H", 2: "3D 3H"},
        phase="play",
        seat_melded=[0],
    )
    game.apply(act("discard 9C"))
    LOG.score_part(game, 0, "SCORE.RED_THREES", 800)  # all four, two from each partner
    LOG.score_part(game, 0, "SCORE.CARDS_IN_HAND", -30)  # the partner's ace and king
    LOG.score_part(game, 1, "SCORE.CARDS_IN_HAND", -55)  # both opponents' hands
    assert game.score().totals == [70 + 500 + 800 + 100 - 30, 60 - 55]


# ---------------------------------------------------------------------------------------------- the match
def test_match_is_played_to_5000() -> None:
    assert LOG.rules.param("match_target") == 5000
    check_match_to_target(LOG, seed=0)


# ---------------------------------------------------------------------------------------------- the meta-tests
def test_zz_every_clause_tested_both_sides() -> None:
    LOG.assert_all_sides()


def test_zz_engine_coverage_saw_both_outcomes() -> None:
    LOG.assert_engine_coverage()
