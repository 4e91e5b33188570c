"""Every rule clause of two-player Classic Canasta (spec/classic-2p.yaml), tested on both sides.

classic-2p extends classic: fifteen cards each, a draw takes two cards (one if only one is left, counting
as a full draw) and two canastas are needed to go out. The scenarios shared with classic run first against
this variant, except those about asking partner, which classic-2p removes (it refuses "ask" with
TURN.NO_PARTNER). The last two tests check that every clause was exercised both ways.
"""

from __future__ import annotations

from clause_kit import ClauseLog, act, cards, deck_red_threes_last, table
from shared_scenarios import Ctx, canasta, check_match_to_target, shared_test

from canasta_ref import Game

LOG = ClauseLog("classic-2p")
RULES = LOG.rules
QUEENS, JACKS = canasta("Q"), canasta("J")

test_shared = shared_test(LOG)


def test_variant_extends_classic() -> None:
    assert LOG.variant.lineage == ("classic", "classic-2p")
    assert (RULES.players, RULES.teams) == (2, 2)
    assert LOG.variant.clauses["TURN.DRAW.COUNT"].declared_in == "classic-2p"
    assert LOG.variant.clauses["GO_OUT.CANASTAS"].declared_in == "classic-2p"


# ---------------------------------------------------------------------------------------------- deal and draw
def test_fifteen_cards_dealt_to_each_player(ctx: Ctx) -> None:
    LOG.value("DEAL.HAND_SIZE", LOG.component(RULES, "deal.hand_size", {}, "DEAL.HAND_SIZE"), 15)
    deck = deck_red_threes_last(RULES)
    assert not RULES.upcard_turns_again[deck[30]]
    game = Game(RULES, deck=deck, first_seat=1)
    assert sorted(game.hand_of(1)) == sorted(deck[0:30:2])
    assert sorted(game.hand_of(0)) == sorted(deck[1:30:2])
    assert game.state.hand_sizes == [15, 15]
    assert game.state.pile == [deck[30]] and len(game.state.stock) == 108 - 30 - 1
    eleven = ctx.child("eleven-cards", cards_dealt=11)
    LOG.value("DEAL.HAND_SIZE", LOG.component(eleven, "deal.hand_size", {}, "DEAL.HAND_SIZE"), 11, "other")
    assert Game(eleven, deck=deck).state.hand_sizes == [11, 11]


def test_a_draw_takes_two_cards(ctx: Ctx) -> None:
    LOG.value("TURN.DRAW.COUNT", LOG.component(RULES, "draw.count", {}, "TURN.DRAW.COUNT"), 2)
    game = table(RULES, hands={0: "9C 9D"}, stock_top="6C 7C 8C")
    stock = len(game.state.stock)
    game.apply(act("draw"))
    assert sorted(game.hand_of(0)) == sorted(cards("9C 9D 6C 7C"))
    assert len(game.state.stock) == stock - 2 and game.state.stock[-1] == cards("8C")[0]
    # Only one card is discarded.
    LOG.allows(game, "discard 6C", "TURN.ONE_DRAW")
    assert game.state.hand_sizes[0] == 3 and game.to_act == 1
    one = ctx.child("draw-one", draw_count=1)
    LOG.value("TURN.DRAW.COUNT", LOG.component(one, "draw.count", {}, "TURN.DRAW.COUNT"), 1, "other")
    game = table(one, hands={0: "9C 9D"}, stock_top="6C 7C 8C")
    game.apply(act("draw"))
    assert sorted(game.hand_of(0)) == sorted(cards("9C 9D 6C"))


def test_one_card_left_counts_as_a_full_draw() -> None:
    game = table(RULES, hands={0: "9C 9D 9S 5S", 1: "4H 4S"}, melds={0: ["KH KS KD"]}, stock="6C")
    LOG.allows(game, "draw", "STOCK.EMPTY.MUST_TAKE")
    assert sorted(game.hand_of(0)) == sorted(cards("9C 9D 9S 5S 6C"))
    assert game.state.stock == [] and game.state.phase == "play" and not game.is_over
    LOG.allows(game, "meld 9C 9D 9S", "TURN.ONE_DRAW")
    LOG.allows(game, "discard 6C", "GO_OUT.KEEP_CARD")
    assert game.to_act == 1 and not game.is_over
    # The next player cannot use the six: trying to draw from the empty stock ends the play.
    LOG.allows(game, "draw", "STOCK.EMPTY.MUST_TAKE")
    assert game.is_over and game.state.end_reason == "stock exhausted"


def test_red_three_among_the_last_two_cards_ends_play() -> None:
    game = table(RULES, hands={0: "9C 9D 5S"}, melds={0: ["KH KS KD"]}, stock="6C 3H")
    LOG.truth(RULES, "RED3.LAST_STOCK_CARD", True, lambda: game.apply(act("draw")))
    assert list(game.state.bonus[0]) == cards("3H") and cards("6C")[0] in game.hand_of(0)
    assert game.is_over and game.state.end_reason == "last stock card was a bonus card"


# ---------------------------------------------------------------------------------------------- going out
def test_two_canastas_to_go_out() -> None:
    game = table(RULES, hands={0: "9C"}, melds={0: [QUEENS, "KH KS KD"]}, phase="play")
    refusal = LOG.refuses(game, "discard 9C", "GO_OUT.CANASTAS")  # as in shared going_out_needs_the_canastas
    # The number is the parameter canastas_to_go_out (Hoyle's software lets players set one): the message names none.
    assert refusal.explanation == "You do not yet have the canastas you need to go out."
    game = table(RULES, hands={0: "9C"}, melds={0: [QUEENS, JACKS]}, phase="play")
    LOG.allows(game, "discard 9C", "GO_OUT.CANASTAS")
    assert game.is_over and game.state.went_out == 0


def test_concealed_going_out_needs_two_canastas() -> None:
    game = table(RULES, hands={0: QUEENS}, phase="play")
    LOG.refuses(game, f"meld {QUEENS}", "GO_OUT.CANASTAS")
    # Going out concealed with both canastas (140 + 1000 + 200) is the shared scenario going_out_concealed.


def test_no_partner_to_ask() -> None:
    game = table(RULES, hands={0: "9C 9D 9S"}, melds={0: ["KH KS KD"]}, stock_top="6C 7C")
    LOG.refuses(game, "ask", "TURN.DRAW_FIRST")
    LOG.allows(game, "draw", "TURN.NO_PARTNER")
    LOG.refuses(game, "ask", "TURN.NO_PARTNER")
    assert all(action.kind != "ask" for action in game.legal_actions())
    removed = ("GO_OUT.ASK.BEFORE_MELDING", "GO_OUT.ASK.ONCE_A_TURN", "GO_OUT.PARTNER_SAID_NO", "GO_OUT.ANSWER_BINDING")
    for clause_id in removed:
        assert clause_id not in LOG.variant.clauses
    LOG.allows(game, "discard 9C", "TURN.NO_PARTNER")
    assert game.to_act == 1


# ---------------------------------------------------------------------------------------------- the match
def test_match_is_played_to_5000() -> None:
    assert LOG.rules.param("match_target") == 5000
    check_match_to_target(LOG, seed=1)


# ---------------------------------------------------------------------------------------------- the meta-tests
def test_zz_every_clause_tested_both_sides() -> None:
    LOG.assert_all_sides()


def test_zz_engine_coverage_saw_both_outcomes() -> None:
    LOG.assert_engine_coverage()
