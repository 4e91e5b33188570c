"""Clause scenarios that hold for every variant of the classic family (classic, classic-2p).

Each scenario exercises one or a few clauses on both sides, in a small hand-built position where seat 0 acts,
seat 1 is an opponent and (with four players) seat 2 is seat 0's partner. Where a variant's own rule changes
the expectation (canastas needed to go out, cards drawn), the scenario reads that from the variant and the
variant's own test file checks the number itself. Both test files run every scenario against their variant
(``test_shared = shared_test(LOG)``, with the module-scoped ``ctx`` fixture of conftest.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from clause_kit import ClauseLog, act, cards, child_spec, dealt, table

from canasta_ref import Game, IllegalAction, Rules, parse_card
from canasta_ref.bots import GreedyBot
from canasta_ref.engine.cards import JOKER
from canasta_ref.match import play_match


@dataclass
class Ctx:
    """What a scenario needs: the clause log (with the variant's rules) and a folder for child specs."""

    log: ClauseLog
    folder: Path
    _children: dict[str, tuple[tuple[str, dict[str, object]], Rules]] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        return self.log.rules

    @property
    def need(self) -> int:
        """Canastas the variant asks for before going out."""
        return int(self.rules.param("canastas_to_go_out"))

    def child(self, name: str, rules_yaml: str = "", **parameters: object) -> Rules:
        """The variant with other parameter values (or replaced clauses), built once per name: a name asked for
        again must come with the same values, or a scenario would silently run on another scenario's spec."""
        key = f"{self.rules.variant.id}-{name}"
        asked = (rules_yaml, parameters)
        if key not in self._children:
            made = child_spec(self.folder, self.rules.variant.id, key, parameters, rules_yaml)
            self._children[key] = (asked, made)
        built_for, rules = self._children[key]
        assert built_for == asked, f"child spec {name!r} was built for {built_for}, now asked for {asked}"
        return rules


Scenario = Callable[[Ctx], None]
SCENARIOS: dict[str, Scenario] = {}
REQUIRES: dict[str, frozenset[str]] = {}


def scenario(function: Scenario) -> Scenario:
    SCENARIOS[function.__name__] = function
    return function


def needs(*clause_ids: str) -> Callable[[Scenario], Scenario]:
    """Mark a scenario as exercising clauses that not every variant has (asking partner, in classic-2p)."""

    def mark(function: Scenario) -> Scenario:
        REQUIRES[function.__name__] = frozenset(clause_ids)
        return function

    return mark


def scenarios_for(clause_ids: Iterable[str]) -> list[str]:
    """The scenarios a variant with these clauses runs, in definition order."""
    present = set(clause_ids)
    return [name for name in SCENARIOS if REQUIRES.get(name, frozenset()) <= present]


def shared_test(log: ClauseLog) -> Callable[[Ctx, str], None]:
    """The test running every scenario the variant of ``log`` has the clauses for, one case per scenario.

    A test module binds it as ``test_shared = shared_test(LOG)``; its ``ctx`` comes from conftest.py.
    """

    @pytest.mark.parametrize("name", scenarios_for(log.variant.clauses))
    def test_shared(ctx: Ctx, name: str) -> None:
        assert ctx.log is log
        SCENARIOS[name](ctx)

    return test_shared


def check_match_to_target(log: ClauseLog, seed: int) -> None:
    """A match of greedy bots (one per seat) runs hand after hand until a side reaches the variant's target, and
    no longer; the running totals add up the hands' scores and the side with the most wins."""
    rules = log.rules
    target = rules.param("match_target")
    bots = [GreedyBot(seat) for seat in range(rules.players)]
    # MATCH.TARGET is asked after every hand: "false" until the last one, so both answers are seen.
    result = log.truth(rules, "MATCH.TARGET", True, lambda: play_match(rules, bots, seed=seed), mixed_ok=True)
    assert result.finished
    assert max(result.totals) >= target
    assert all(max(hand.totals_after) < target for hand in result.hands[:-1]), "the match ended late"
    assert result.winner == result.totals.index(max(result.totals))
    assert all(len(hand.score.totals) == rules.teams for hand in result.hands)
    running = [0] * rules.teams
    for hand in result.hands:
        running = [total + part for total, part in zip(running, hand.score.totals, strict=True)]
        assert hand.totals_after == running


# Natural canastas for a side that needs them to go out; scenarios using them hold no other Q, J or 10 (one
# copy of each rank, QS, JS and 10S, stays free).
CANASTA_RANKS = ("Q", "J", "10")


def canasta(rank: str) -> str:
    return f"{rank}C {rank}C {rank}D {rank}D {rank}H {rank}H {rank}S"


def canastas(n: int) -> list[str]:
    return [canasta(rank) for rank in CANASTA_RANKS[:n]]


def meld_cards(game: Game, team: int, rank_card: str) -> list[int] | None:
    """The cards of the side's meld of the rank of ``rank_card``, or None."""
    rank = parse_card(rank_card) >> 2
    found = game.state.meld_of_rank(team, rank)
    return sorted(found.cards) if found else None


def same(text: str) -> list[int]:
    return sorted(cards(text))


# ---------------------------------------------------------------------------------------------- cards
@scenario
def deck_packs_and_jokers(c: Ctx) -> None:
    log, rules = c.log, c.rules
    log.value("DECK.PACKS", log.component(rules, "deck.packs", {}, "DECK.PACKS"), 2)
    log.value("DECK.JOKERS", log.component(rules, "deck.jokers", {}, "DECK.JOKERS"), 2)
    deck = Game(rules, seed=7).state.all_cards()
    assert len(deck) == 108
    assert deck.count(JOKER) == 4
    assert all(deck.count(card) == 2 for card in range(52))
    small = c.child("one-pack", packs=1, jokers_per_pack=1)
    log.value("DECK.PACKS", log.component(small, "deck.packs", {}, "DECK.PACKS"), 1, "other")
    log.value("DECK.JOKERS", log.component(small, "deck.jokers", {}, "DECK.JOKERS"), 1, "other")
    deck = Game(small, seed=7).state.all_cards()
    assert len(deck) == 53
    assert deck.count(JOKER) == 1


@scenario
def cards_wild(c: Ctx) -> None:
    log, rules = c.log, c.rules
    assert log.predicate(rules, "card.wild", {"rank": "2"}, "CARDS.WILD", True)
    assert log.predicate(rules, "card.wild", {"rank": "JK"}, "CARDS.WILD", True)
    for rank in ("3", "4", "7", "10", "K", "A"):
        assert not log.predicate(rules, "card.wild", {"rank": rank}, "CARDS.WILD", False)
    # The engine treats twos and jokers as wild in melds, and nothing else.
    game = table(rules, hands={0: "KH KS 2C JK AH AS 5C 6C"}, phase="play", melds={0: ["AD AC AC"]})
    log.allows(game, "meld KH KS 2C JK", "MELD.MAX_WILDS")
    meld = game.state.meld_of_rank(0, parse_card("KH") >> 2)
    assert meld is not None and (meld.naturals, meld.wilds, meld.jokers) == (2, 2, 1)


@scenario
def cards_values(c: Ctx) -> None:
    log, rules = c.log, c.rules
    expected = {"JK": 50, "2C": 20, "AS": 20, "KH": 10, "QD": 10, "JC": 10, "10S": 10, "9H": 10, "8D": 10}
    expected |= {"7C": 5, "6S": 5, "5H": 5, "4D": 5, "3C": 5, "3S": 5}
    for name, points in expected.items():
        card = parse_card(name)
        got = log.component(rules, "card.value", rules.card_facts(card), "CARDS.VALUES")
        log.value("CARDS.VALUES", got, points)
        assert rules.card_value[card] == points
    # Red threes count only as bonus cards: 0 as a card, although the table gives threes 5.
    for name in ("3D", "3H"):
        card = parse_card(name)
        got = log.component(rules, "card.value", rules.card_facts(card), "CARDS.VALUES")
        log.value("CARDS.VALUES", got, 0, "other")
        assert rules.card_value[card] == 0


# ---------------------------------------------------------------------------------------------- the deal
@scenario
def upcard_turned_again_while_wild_or_red_three(c: Ctx) -> None:
    log, rules = c.log, c.rules
    for name in ("2C", "JK", "3D", "3H"):
        facts = rules.card_facts(parse_card(name))
        assert log.predicate(rules, "upcard.turn_again", facts, "DEAL.UPCARD.TURN_AGAIN", True)
    for name in ("5C", "3C", "3S", "AH"):
        facts = rules.card_facts(parse_card(name))
        assert not log.predicate(rules, "upcard.turn_again", facts, "DEAL.UPCARD.TURN_AGAIN", False)
    game = dealt(rules, hands={}, upcards="2C JK 3D 5C")
    assert game.state.pile == cards("2C JK 3D 5C")
    assert game.state.upcard_froze
    game = dealt(rules, hands={}, upcards="5C 2C")
    assert game.state.pile == cards("5C")
    assert not game.state.upcard_froze
    game = dealt(rules, hands={}, upcards="3C 5C")
    assert game.state.pile == cards("3C"), "a black three upcard is not covered under pagat's rule"
    # Fournier's rule turns another card on any three.
    fournier = c.child("any-three", upcard_turn_again="wild_or_any_three")
    facts = fournier.card_facts(parse_card("3C"))
    assert log.predicate(fournier, "upcard.turn_again", facts, "DEAL.UPCARD.TURN_AGAIN", True)
    assert dealt(fournier, hands={}, upcards="3C 5C").state.pile == cards("3C 5C")


@scenario
def upcard_freezes_when_wild_or_red_three(c: Ctx) -> None:
    log, rules = c.log, c.rules
    for upcards in ("2C 5C", "JK 5C", "3H 5C"):
        first = rules.card_facts(cards(upcards)[0])
        assert log.predicate(rules, "upcard.freezes", first, "DEAL.UPCARD.FREEZES", True)
        game = dealt(rules, hands={}, upcards=upcards)
        assert game.state.upcard_froze
        assert game.pile_frozen()
    for upcard in ("5C", "3C"):
        facts = rules.card_facts(parse_card(upcard))
        assert not log.predicate(rules, "upcard.freezes", facts, "DEAL.UPCARD.FREEZES", False)
        assert not dealt(rules, hands={}, upcards=upcard).state.upcard_froze
    bicycle = c.child("b3-freezes", black_three="freezes")
    facts = bicycle.card_facts(parse_card("3C"))
    assert bicycle.upcard_freezes[parse_card("3C")]
    assert log.predicate(bicycle, "upcard.freezes", facts, "DEAL.UPCARD.FREEZES", True)
    assert dealt(bicycle, hands={}, upcards="3C").state.upcard_froze


# ---------------------------------------------------------------------------------------------- red threes
@scenario
def red_threes_dealt_are_laid_out_and_replaced(c: Ctx) -> None:
    log, rules = c.log, c.rules
    for name in ("3D", "3H"):
        assert log.predicate(rules, "bonus_card", rules.card_facts(parse_card(name)), "RED3.LAY_OUT", True)
    game = log.truth(
        rules,
        "RED3.REPLACE",
        True,
        lambda: dealt(rules, hands={0: "3D 5C", 1: "3H 3D"}, upcards="9S", stock_top="6C 7C 8C 4C"),
    )
    size = rules.hand_size
    assert list(game.state.bonus[0]) == cards("3D")
    assert sorted(game.state.bonus[1]) == same("3D 3H")
    assert game.state.hand_sizes[:2] == [size, size]
    assert cards("6C")[0] in game.hand_of(0)
    assert all(card in game.hand_of(1) for card in cards("7C 8C"))
    assert not any(rules.is_bonus[card] for seat in range(rules.players) for card in game.hand_of(seat))
    assert game.state.pile == cards("9S")
    assert len(game.state.stock) == 108 - rules.players * size - 1 - 3


@scenario
def red_three_drawn_is_laid_out_and_replaced(c: Ctx) -> None:
    log, rules = c.log, c.rules
    n = rules.draw_count
    # The top card is a red three; whatever else the draw takes, the three is replaced by the next card.
    game = table(rules, hands={0: "9C 9D"}, melds={0: ["KH KS KD"]}, stock_top="3H 6C 7C 8C")
    stock_before = len(game.state.stock)
    log.truth(rules, "RED3.REPLACE", True, lambda: game.apply(act("draw")))
    assert list(game.state.bonus[0]) == cards("3H")
    assert sorted(game.hand_of(0)) == same("9C 9D " + " ".join(["6C", "7C", "8C"][:n]))
    assert len(game.state.stock) == stock_before - n - 1
    assert game.state.phase == "play" and not game.is_over


@scenario
def black_three_drawn_stays_in_hand(c: Ctx) -> None:
    log, rules = c.log, c.rules
    for name in ("3C", "3S", "KH", "2C", "JK"):
        assert not log.predicate(rules, "bonus_card", rules.card_facts(parse_card(name)), "RED3.LAY_OUT", False)
    game = table(rules, hands={0: "9C 9D"}, stock_top="3C 3S 6C")
    game.apply(act("draw"))
    assert game.state.bonus[0] == ()
    assert cards("3C")[0] in game.hand_of(0)


@scenario
def red_three_from_the_pile_is_laid_out_not_replaced(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "KH KS 9C"}, pile="5C 3D 4C KD", melds={0: ["AH AS AD"]}, stock_top="6C")
    stock_before = list(game.state.stock)
    log.truth(rules, "RED3.REPLACE", False, lambda: log.allows(game, "take KH KS", "PILE.TAKE.FROZEN"))
    assert list(game.state.bonus[0]) == cards("3D")
    assert sorted(game.hand_of(0)) == same("9C 5C 4C")
    assert game.state.stock == stock_before, "a red three from the pile is not replaced"
    assert meld_cards(game, 0, "KD") == same("KD KH KS")


@scenario
def red_three_as_last_stock_card_ends_play(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "9C 9D 5S"}, melds={0: ["KH KS KD"]}, stock="3D")
    log.truth(rules, "RED3.LAST_STOCK_CARD", True, lambda: game.apply(act("draw")))
    assert list(game.state.bonus[0]) == cards("3D")
    assert game.is_over and game.state.end_reason == "last stock card was a bonus card"
    assert game.state.went_out is None
    log.refuses(game, "discard 5S", "TURN.HAND_OVER")
    log.refuses(game, "meld KD 9C 9D", "TURN.HAND_OVER")
    # With cards left in the stock the red three is simply replaced and play goes on.
    assert not log.predicate(rules, "stock.last_card_bonus_ends", {"stock_size": 1}, "RED3.LAST_STOCK_CARD", False)
    game = table(rules, hands={0: "9C 9D 5S"}, melds={0: ["KH KS KD"]}, stock="3D 6C 7C 8C")
    game.apply(act("draw"))
    assert not game.is_over and game.state.phase == "play"
    assert list(game.state.bonus[0]) == cards("3D")


@scenario
def no_pass(c: Ctx) -> None:
    log, rules = c.log, c.rules
    # A turn ends with a discard: passing (ending it keeping the cards) is refused, even with a card to spare.
    assert "pass" in rules.refused_kinds  # refused outright, so the listing never offers it
    game = table(rules, hands={0: "9C 9D 5S"}, melds={0: ["KH KS KD"]}, phase="play")
    log.refuses(game, "pass", "TURN.NO_PASS")
    log.allows(game, "discard 5S", "TURN.NO_PASS")
    assert game.state.to_act == 1 and game.state.phase == "draw"


@scenario
def no_combine(c: Ctx) -> None:
    log, rules = c.log, c.rules
    # A side's melds of a rank are one meld, so two melds are never combined; naming a meld is refused too, since
    # the rank already says which meld cards join (MELD.MERGE).
    assert "combine" in rules.refused_kinds  # refused outright, so the listing never offers it
    game = table(rules, hands={0: "9C 9D 5S KC"}, melds={0: ["KH KS KD", "QH QS QD"]}, phase="play")
    log.refuses(game, "combine @1 @2", "TURN.NO_COMBINE")
    with pytest.raises(IllegalAction) as refused:
        game.apply(act("meld @1: KC"))
    assert refused.value.rule_id == "MELD.MERGE"
    log.allows(game, "meld KC", "TURN.NO_COMBINE")
    assert [len(m.cards) for m in game.state.melds[0]] == [4, 3]


@scenario
@needs("TURN.NO_SPECIAL_HANDS", "TURN.BONUS_CHOICE")
def no_special_hands(c: Ctx) -> None:
    log, rules = c.log, c.rules
    # A hand ends by going out or by the stock running out: declaring a special hand is refused outright, even
    # with a hand of fourteen cards of one shape or another.
    assert "declare" in rules.refused_kinds and not rules.special_hands
    game = table(rules, hands={0: "4C 4D 5C 5D 6C 6D 8C 8D 9C 9D 10C 10D JC JD"}, phase="play")
    log.refuses(game, "declare pairs", "TURN.NO_SPECIAL_HANDS")
    assert not any(action.kind == "declare" for action in game.legal_actions())
    # Nor is a card kept back for one: bonus cards are laid out as they come, so there is never a choice to make.
    log.refuses(game, "keep 4C", "TURN.BONUS_CHOICE")
    log.refuses(game, "layout", "TURN.BONUS_CHOICE")
    log.allows(game, "discard 4C", "TURN.NO_SPECIAL_HANDS")
    log.allows(game, "draw", "TURN.BONUS_CHOICE")


@scenario
def last_red_three_meld_then_end(c: Ctx) -> None:
    log, rules = c.log, c.rules
    # A turn normally ends with a discard: ending it without one is refused.
    game = table(rules, hands={0: "9C 9D 5S"}, melds={0: ["KH KS KD"]}, phase="play")
    log.refuses(game, "end", "TURN.END")
    log.allows(game, "discard 5S", "RED3.LAST_STOCK_CARD.NO_DISCARD")
    # Britannica and Fournier: the player who draws the last red three may meld, then ends without discarding.
    later = c.child("last-red-three-meld", last_card_red_three="meld_then_end")
    game = table(later, hands={0: "9C 9D 9S 5S"}, melds={0: ["KH KS KD"]}, stock="3D")
    log.truth(later, "RED3.LAST_STOCK_CARD", False, lambda: game.apply(act("draw")))
    assert not game.is_over and game.state.phase == "play" and list(game.state.bonus[0]) == cards("3D")
    log.refuses(game, "discard 5S", "RED3.LAST_STOCK_CARD.NO_DISCARD")
    log.allows(game, "meld 9C 9D 9S", "RED3.LAST_STOCK_CARD.NO_DISCARD")
    log.refuses(game, "discard 5S", "RED3.LAST_STOCK_CARD.NO_DISCARD")
    log.allows(game, "end", "TURN.END")
    assert game.is_over and game.state.end_reason == "last stock card was a bonus card"
    assert game.hand_of(0) == cards("5S") and game.state.went_out is None
    parts = game.score().sides[0].parts
    assert parts["SCORE.RED_THREES"] == 100 and parts["SCORE.CARDS_IN_HAND"] == -5
    assert parts["SCORE.GOING_OUT"] == 0


# ---------------------------------------------------------------------------------------------- threes in melds
@scenario
def black_threes_melded_only_when_going_out(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "3C 3C 3S 9D 5C"}, melds={0: canastas(c.need)}, phase="play")
    log.refuses(game, "meld 3C 3C 3S", "B3.MELD.GOING_OUT")
    # Melding them as the last cards, with one card left to discard, is going out.
    game = table(rules, hands={0: "3C 3C 3S 9D"}, melds={0: canastas(c.need)}, phase="play")
    log.allows(game, "meld 3C 3C 3S", "B3.MELD.GOING_OUT")
    log.allows(game, "discard 9D", "GO_OUT.CANASTAS")
    assert game.is_over and game.state.went_out == 0
    # Or melding the whole hand.
    game = table(rules, hands={0: "3C 3S 3S 3C"}, melds={0: canastas(c.need)}, phase="play")
    log.allows(game, "meld 3C 3C 3S 3S", "B3.MELD.GOING_OUT")
    assert game.is_over and meld_cards(game, 0, "3C") == same("3C 3C 3S 3S")


@scenario
def black_threes_meld_without_wild_cards(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "3C 3S 2C"}, melds={0: canastas(c.need)}, phase="play")
    log.refuses(game, "meld 3C 3S 2C", "B3.MELD.NO_WILDS")
    game = table(rules, hands={0: "3C 3S JK 9D"}, melds={0: canastas(c.need)}, phase="play")
    log.refuses(game, "meld 3C 3S JK", "B3.MELD.NO_WILDS")
    game = table(rules, hands={0: "3C 3S 3C"}, melds={0: canastas(c.need)}, phase="play")
    log.allows(game, "meld 3C 3S 3C", "B3.MELD.NO_WILDS")
    assert game.is_over


@scenario
def black_three_on_top_blocks_the_pile(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "3C 3S 5C 6C"}, pile="KD 3C", melds={0: ["KH KS KC"]})
    log.refuses(game, "take 3C 3S", "B3.BLOCKS_PILE")
    log.refuses(game, "take", "B3.BLOCKS_PILE")
    # Once covered, the black three does not stop the next player (and does not freeze the pile).
    game = table(rules, hands={0: "KH 2C 5C"}, pile="3C KD", melds={0: ["AH AS AC"]})
    assert not game.pile_frozen()
    log.allows(game, "take KH 2C", "B3.BLOCKS_PILE")
    assert cards("3C")[0] in game.hand_of(0), "a black three from the pile goes into the hand"
    assert meld_cards(game, 0, "KD") == same("KD KH 2C")


# ---------------------------------------------------------------------------------------------- the turn
@scenario
def turn_hand_over(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "9C", 1: "5D 6D"}, melds={0: canastas(c.need)}, phase="play")
    log.allows(game, "discard 9C", "TURN.HAND_OVER")
    assert game.is_over and game.state.end_reason == "went out" and game.state.went_out == 0
    log.refuses(game, "draw", "TURN.HAND_OVER")
    log.refuses(game, "draw", "TURN.HAND_OVER", seat=1)
    assert list(game.legal_actions()) == []


@scenario
def turn_order(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "9C 9D", 1: "5D 6D"}, stock_top="7C 7D 7H")
    log.refuses(game, "draw", "TURN.ORDER", seat=1)
    log.allows(game, "draw", "TURN.ORDER", seat=0)
    assert game.to_act == 0 and game.state.phase == "play"
    log.refuses(game, "discard 5D", "TURN.ORDER", seat=1)


@scenario
def turn_own_cards(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "9C 9D 9S 5S", 1: "9H"}, melds={0: ["KH KS KD"]}, phase="play", pile="4C")
    log.refuses(game, "discard 9H", "TURN.OWN_CARDS")
    log.refuses(game, "meld 9C 9D 9H", "TURN.OWN_CARDS")
    log.refuses(game, "meld 9C 9C 9D", "TURN.OWN_CARDS")  # only one 9C in hand
    log.allows(game, "discard 5S", "TURN.OWN_CARDS")
    assert game.state.pile == cards("4C 5S") and game.to_act == 1 and game.state.phase == "draw"


@scenario
def turn_draw_first(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "9C 9D 9S 5S"}, melds={0: ["KH KS KD"]}, stock_top="7C 7D 7H")
    log.refuses(game, "discard 5S", "TURN.DRAW_FIRST")
    log.refuses(game, "meld 9C 9D 9S", "TURN.DRAW_FIRST")
    log.refuses(game, "ask", "TURN.DRAW_FIRST")
    log.allows(game, "draw", "TURN.DRAW_FIRST")
    assert game.state.hand_sizes[0] == 4 + rules.draw_count


@scenario
def turn_one_draw(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "9C 9D 9S 5S 6S"}, pile="9H", melds={0: ["KH KS KD"]}, phase="play")
    log.refuses(game, "draw", "TURN.ONE_DRAW")
    log.refuses(game, "take 9C 9D", "TURN.ONE_DRAW")
    log.allows(game, "meld 9C 9D 9S", "TURN.ONE_DRAW")
    assert meld_cards(game, 0, "9C") == same("9C 9D 9S")


@scenario
def turn_answer_only_when_asked(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "9C 9D 9S 5S"}, melds={0: ["KH KS KD"]}, phase="play")
    log.refuses(game, "yes", "TURN.ANSWER")
    log.refuses(game, "no", "TURN.ANSWER")
    log.allows(game, "discard 5S", "TURN.ANSWER")


# ---------------------------------------------------------------------------------------------- melds
def opened(rules: Rules, hand_text: str, *more: str) -> Game:
    """Seat 0 in the play phase; its side has melded aces (and ``more``)."""
    return table(rules, hands={0: hand_text}, melds={0: ["AH AS AD", *more]}, phase="play")


@scenario
def meld_same_rank(c: Ctx) -> None:
    game = opened(c.rules, "KH KS QH QS QD 5C 6C")
    c.log.refuses(game, "meld KH KS QH", "MELD.SAME_RANK")
    c.log.refuses(game, "meld KH KS QH QS", "MELD.SAME_RANK")
    c.log.allows(game, "meld QH QS QD", "MELD.SAME_RANK")
    assert meld_cards(game, 0, "QH") == same("QH QS QD")


@scenario
def meld_min_cards(c: Ctx) -> None:
    game = opened(c.rules, "KH KS KD AC 5C 6C")
    c.log.refuses(game, "meld KH KS", "MELD.MIN_CARDS")
    c.log.allows(game, "meld AC", "MELD.MIN_CARDS")  # one card added to a meld of three
    assert meld_cards(game, 0, "AC") == same("AH AS AD AC")
    c.log.allows(game, "meld KH KS KD", "MELD.MIN_CARDS")


@scenario
def meld_no_wild_only(c: Ctx) -> None:
    game = opened(c.rules, "2C 2D JK 5C 6C 7C")
    c.log.refuses(game, "meld 2C 2D JK", "MELD.NO_WILD_ONLY")
    c.log.refuses(game, "meld K: 2C 2D JK", "MELD.NO_WILD_ONLY")  # there is no meld of kings to join
    c.log.refuses(game, "meld K: 2C", "MELD.MIN_CARDS")
    c.log.allows(game, "meld A: 2C", "MELD.NO_WILD_ONLY")
    assert meld_cards(game, 0, "AH") == same("AH AS AD 2C")


@scenario
def meld_min_naturals(c: Ctx) -> None:
    game = opened(c.rules, "KH KS 2C JK 5C 6C")
    c.log.refuses(game, "meld KH 2C JK", "MELD.MIN_NATURALS")
    c.log.allows(game, "meld KH KS 2C", "MELD.MIN_NATURALS")
    assert meld_cards(game, 0, "KH") == same("KH KS 2C")


@scenario
def meld_max_three_wilds(c: Ctx) -> None:
    game = opened(c.rules, "KH KS 2C 2D JK JK 5C 6C")
    c.log.refuses(game, "meld KH KS 2C 2D JK JK", "MELD.MAX_WILDS")
    c.log.allows(game, "meld KH KS 2C 2D JK", "MELD.MAX_WILDS")
    c.log.refuses(game, "meld K: JK", "MELD.MAX_WILDS")
    # A canasta is no exception, and merging into a meld of the rank counts its wild cards too.
    game = opened(c.rules, "AC KC KC 2H 5C 6C 7C", "KH KS KD 2C 2D JK")
    c.log.refuses(game, "meld KC KC 2H", "MELD.MAX_WILDS")
    c.log.allows(game, "meld KC KC", "MELD.MAX_WILDS")
    assert meld_cards(game, 0, "KC") == same("KH KS KD KC KC 2C 2D JK")
    c.log.refuses(game, "meld K: 2H", "MELD.MAX_WILDS")


@scenario
def meld_wild_ratio(c: Ctx) -> None:
    game = opened(c.rules, "KH KS 2C 2D JK 5C 6C")
    c.log.allows(game, "meld KH KS 2C 2D JK", "MELD.WILD_RATIO")  # pagat: three wild cards are the only limit
    hoyle = c.child("ratio-not-more", wild_ratio="not_more_than_naturals")
    game = opened(hoyle, "KH KS 2C 2D JK 5C 6C")
    c.log.refuses(game, "meld KH KS 2C 2D JK", "MELD.WILD_RATIO")
    c.log.allows(game, "meld KH KS 2C 2D", "MELD.WILD_RATIO")
    gamedesire = c.child("ratio-fewer", wild_ratio="fewer_than_naturals")
    game = opened(gamedesire, "KH KS 2C 2D 5C 6C")
    c.log.refuses(game, "meld KH KS 2C 2D", "MELD.WILD_RATIO")
    c.log.allows(game, "meld KH KS 2C", "MELD.WILD_RATIO")


@scenario
def meld_canasta_naturals(c: Ctx) -> None:
    game = opened(c.rules, "KH KS KD KC 2C 2D JK 5C 6C")
    c.log.allows(game, "meld KH KS KD KC 2C 2D JK", "MELD.CANASTA.NATURALS")
    assert game.view(0)["canastas"][0] == 1
    five = c.child("canasta-five", canasta_naturals="at_least_five")
    game = opened(five, "KH KS KD KC KC 2C 2D JK 5C 6C")
    c.log.refuses(game, "meld KH KS KD KC 2C 2D JK", "MELD.CANASTA.NATURALS")
    c.log.allows(game, "meld KH KS KD KC KC 2C 2D", "MELD.CANASTA.NATURALS")


@scenario
def meld_merges_into_own_meld_of_the_rank(c: Ctx) -> None:
    log = c.log
    game = opened(c.rules, "KC KC 2S 5C 6C", "KH KS KD")
    log.truth(c.rules, "MELD.MERGE", True, lambda: game.apply(act("meld KC KC 2S")))
    assert meld_cards(game, 0, "KC") == same("KH KS KD KC KC 2S")
    assert len(game.state.melds[0]) == 2
    # Both sides may meld the same rank: the opponents' kings stay theirs.
    game = table(c.rules, hands={0: "KC KC KD 5C 6C"}, melds={0: ["AH AS AD"], 1: ["KH KS KD"]}, phase="play")
    game.apply(act("meld KC KC KD"))
    assert meld_cards(game, 0, "KC") == same("KC KC KD") and meld_cards(game, 1, "KC") == same("KH KS KD")


@scenario
@needs("MELD.PUZZLE.SECOND_MELD")
def puzzle_take_starts_a_second_meld_only_under_that_reading(c: Ctx) -> None:
    log = c.log
    # pagat's puzzle: a natural and a wild card take the pile onto the side's canasta holding three wild cards.
    env = {"rank": "K", "onto_canasta": True, "onto_wilds": 3, "added_wilds": 1}
    log.predicate(c.rules, "meld.take_apart", env, "MELD.PUZZLE.SECOND_MELD", False)
    second = c.child("second-meld", three_wild_canasta_take="second_meld")
    log.predicate(second, "meld.take_apart", env, "MELD.PUZZLE.SECOND_MELD", True)
    log.predicate(second, "meld.take_apart", {**env, "added_wilds": 0}, "MELD.PUZZLE.SECOND_MELD", False)
    melds = {0: ["KH KS KD KC 2C 2S JK"], 1: ["QH QS QD"]}
    game = table(second, hands={0: "KS 2H 7H 8S 5D"}, melds=melds, pile="6C 4S KH")
    game.apply(act("take KS 2H"))
    assert [len(m.cards) for m in game.state.melds[0]] == [7, 3]


@scenario
def one_meld_per_action_after_the_opening(c: Ctx) -> None:
    game = opened(c.rules, "KH KS KD 9H 9S 9D 5C")
    c.log.refuses(game, "meld KH KS KD | 9H 9S 9D", "MELD.ONE_GROUP_AFTER_OPENING")
    c.log.allows(game, "meld KH KS KD", "MELD.ONE_GROUP_AFTER_OPENING")
    # The opening itself may lay several melds at once.
    game = table(c.rules, hands={0: "KH KS KD 9H 9S 9D 5C 6C"}, phase="play")
    c.log.allows(game, "meld KH KS KD | 9H 9S 9D", "MELD.ONE_GROUP_AFTER_OPENING")
    assert meld_cards(game, 0, "KH") == same("KH KS KD") and meld_cards(game, 0, "9H") == same("9H 9S 9D")
    assert game.state.team_opened[0]


@scenario
def one_group_per_rank_in_an_action(c: Ctx) -> None:
    game = table(c.rules, hands={0: "KH KS KD KC KC 2C 9H 9S 9D 5C 6C"}, phase="play")
    c.log.refuses(game, "meld KH KS KD | KC KC 2C", "MELD.ONE_GROUP_PER_RANK")
    c.log.refuses(game, "meld KH KS KD | K: 2C | 9H 9S 9D", "MELD.ONE_GROUP_PER_RANK")
    c.log.allows(game, "meld KH KS KD KC KC 2C | 9H 9S 9D", "MELD.ONE_GROUP_PER_RANK")
    assert meld_cards(game, 0, "KH") == same("KH KS KD KC KC 2C") and len(game.state.melds[0]) == 2


@scenario
def canasta_is_seven_cards_and_may_grow(c: Ctx) -> None:
    log, rules = c.log, c.rules
    log.value("CANASTA.SIZE", log.component(rules, "canasta.size", {"rank": "K"}, "CANASTA.SIZE"), 7)
    game = opened(rules, "KC KC 2C 5C 6C 7C", "KH KH KS KS KD")
    assert game.view(0)["canastas"][0] == 0
    log.allows(game, "meld KC", "MELD.MIN_CARDS")
    assert game.view(0)["canastas"][0] == 0  # six cards
    log.allows(game, "meld KC", "MELD.MIN_CARDS")
    assert game.view(0)["canastas"][0] == 1  # seven
    log.allows(game, "meld K: 2C", "MELD.MAX_WILDS")
    assert game.view(0)["canastas"][0] == 1 and len(meld_cards(game, 0, "KC") or []) == 8
    six = c.child("canasta-six", canasta_size=6)
    log.value("CANASTA.SIZE", log.component(six, "canasta.size", {"rank": "K"}, "CANASTA.SIZE"), 6, "other")
    game = opened(six, "KC KC 2C 5C 6C 7C", "KH KH KS KS KD")
    game.apply(act("meld KC"))
    assert game.view(0)["canastas"][0] == 1


# ---------------------------------------------------------------------------------------------- initial meld
@scenario
def initial_meld_minimum_by_score(c: Ctx) -> None:
    log, rules = c.log, c.rules
    bands = {-500: 15, -5: 15, 0: 50, 1495: 50, 1500: 90, 2995: 90, 3000: 120, 9000: 120}
    for score, minimum in bands.items():
        got = log.component(rules, "initial_meld.minimum", {"team_score": score}, "INITIAL_MELD.MINIMUM")
        log.value("INITIAL_MELD.MINIMUM", got, minimum, "value" if score == 0 else "other")


@scenario
def initial_meld_counts_the_top_discard(c: Ctx) -> None:
    log, rules = c.log, c.rules
    env = {"hand_points": 40, "top_card_points": 10, "natural_canastas": 0, "mixed_canastas": 0}
    log.value("INITIAL_MELD.COUNT", log.component(rules, "initial_meld.count", env, "INITIAL_MELD.COUNT"), 50)

    def position(on: Rules) -> Game:
        return table(on, hands={0: "KH KS 7C 7D 7H 7S 9C"}, pile="AC 5C KD")

    # 20 + 20 from hand and 10 for the king on the pile: exactly 50 (the ace below it does not count).
    game = position(rules)
    log.refuses(game, "take KH KS", "INITIAL_MELD.REQUIRED")
    log.allows(game, "take KH KS + 7C 7D 7H 7S", "INITIAL_MELD.REQUIRED")
    assert meld_cards(game, 0, "KD") == same("KD KH KS") and meld_cards(game, 0, "7C") == same("7C 7D 7H 7S")
    assert sorted(game.hand_of(0)) == same("9C AC 5C") and game.state.pile == []
    # Hoyle's option: the top discard does not count.
    hoyle = c.child("top-not-counted", top_discard_counts="does_not_count")
    got = log.component(hoyle, "initial_meld.count", env, "INITIAL_MELD.COUNT")
    log.value("INITIAL_MELD.COUNT", got, 40, "other")
    game = position(hoyle)
    log.refuses(game, "take KH KS + 7C 7D 7H 7S", "INITIAL_MELD.REQUIRED")


@scenario
def initial_meld_concealed_exemption_scope(c: Ctx) -> None:
    """Whether melding all but one card, then discarding it to go out concealed, waives the minimum: not under
    pagat's reading (the default), yes under Hoyle's software (concealed_exemption). Natural canastas of fours
    and fives (70) are under the minimum of 120 at 3000, and are enough canastas to go out in both variants."""
    log, rules = c.log, c.rules
    melds = "4C 4C 4D 4D 4H 4H 4S | 5C 5C 5D 5D 5H 5H 5S"
    whole = melds.replace(" |", "")
    scores = [3000] * rules.teams
    game = table(rules, hands={0: f"{whole} 9H"}, phase="play", scores=scores)
    log.refuses(game, f"meld {melds}", "INITIAL_MELD.REQUIRED")
    game = table(rules, hands={0: whole}, phase="play", scores=scores)
    log.allows(game, f"meld {melds}", "INITIAL_MELD.REQUIRED")  # the whole hand, no discard
    assert game.is_over
    hoyle = c.child("one-turn", concealed_exemption="going_out_in_one_turn")
    game = table(hoyle, hands={0: f"{whole} 9H"}, phase="play", scores=scores)
    log.allows(game, f"meld {melds}", "INITIAL_MELD.REQUIRED")
    game.apply(act("discard 9H"))
    assert game.is_over
    game = table(hoyle, hands={0: f"{whole} 9H 9D"}, phase="play", scores=scores)  # two cards left: not out
    log.refuses(game, f"meld {melds}", "INITIAL_MELD.REQUIRED")


@scenario
def initial_meld_counts_canasta_bonus_only_under_hoyle(c: Ctx) -> None:
    log, rules = c.log, c.rules
    fours = "4C 4C 4D 4D 4H 4H 4S"  # a natural canasta of 35 points
    env = {"hand_points": 35, "top_card_points": 0, "natural_canastas": 1, "mixed_canastas": 0, "wild_canastas": 0}
    log.value("INITIAL_MELD.COUNT", log.component(rules, "initial_meld.count", env, "INITIAL_MELD.COUNT"), 35)
    game = table(rules, hands={0: f"{fours} 9H 9D"}, phase="play")
    log.refuses(game, f"meld {fours}", "INITIAL_MELD.REQUIRED")
    hoyle = c.child("canasta-bonus-counts", canasta_bonus_counts="counts")
    got = log.component(hoyle, "initial_meld.count", env, "INITIAL_MELD.COUNT")
    log.value("INITIAL_MELD.COUNT", got, 535, "other")
    env = {"hand_points": 50, "top_card_points": 10, "natural_canastas": 0, "mixed_canastas": 2, "wild_canastas": 0}
    log.value("INITIAL_MELD.COUNT", log.component(hoyle, "initial_meld.count", env, "INITIAL_MELD.COUNT"), 660)
    game = table(hoyle, hands={0: f"{fours} 9H 9D"}, phase="play")
    log.allows(game, f"meld {fours}", "INITIAL_MELD.REQUIRED")
    assert game.state.team_opened[0] and not game.is_over


@scenario
def initial_meld_required(c: Ctx) -> None:
    rules = c.rules
    game = table(rules, hands={0: "KH KS KD 7C 7D 7H 9C"}, phase="play")
    c.log.refuses(game, "meld KH KS KD", "INITIAL_MELD.REQUIRED")  # 30
    c.log.refuses(game, "meld KH KS KD | 7C 7D 7H", "INITIAL_MELD.REQUIRED")  # 45
    game = table(rules, hands={0: "KH KS KD 8C 8D 8H 9C 9D"}, phase="play")
    c.log.allows(game, "meld KH KS KD | 8C 8D 8H", "INITIAL_MELD.REQUIRED")  # 60
    assert game.state.team_opened[0]


# ---------------------------------------------------------------------------------------------- the pile
@scenario
def pile_frozen_against_unmelded_side(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "KH KS 2C AH AS AD 9C"}, pile="5C KD")
    assert log.truth(rules, "PILE.FROZEN.UNMELDED", True, game.pile_frozen)
    log.refuses(game, "take KH 2C + AH AS AD", "PILE.TAKE.FROZEN")
    log.allows(game, "take KH KS + AH AS AD", "PILE.TAKE.FROZEN")
    assert not log.truth(rules, "PILE.FROZEN.UNMELDED", False, lambda: game.pile_frozen(0))
    assert game.state.team_opened[0]
    assert log.truth(rules, "PILE.FROZEN.UNMELDED", True, lambda: game.pile_frozen(1))


@scenario
def pile_frozen_by_wild_card(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "KH KS 2D 9C"}, pile="5C 2H 9S KD", melds={0: ["AH AS AD", "KC KC KD"]})
    assert log.truth(rules, "PILE.FROZEN.WILD", True, game.pile_frozen)
    log.refuses(game, "take KH 2D", "PILE.TAKE.FROZEN")
    log.refuses(game, "take", "PILE.TAKE.FROZEN")  # not even onto the side's kings
    log.allows(game, "take KH KS", "PILE.TAKE.FROZEN")
    assert meld_cards(game, 0, "KD") == same("KC KC KD KD KH KS")
    assert sorted(game.hand_of(0)) == same("2D 9C 5C 2H 9S")
    game = table(rules, hands={0: "KH KS 2D 9C"}, pile="5C 9S KD", melds={0: ["AH AS AD"]})
    assert not log.truth(rules, "PILE.FROZEN.WILD", False, game.pile_frozen)
    log.allows(game, "take KH 2D", "PILE.TAKE.FROZEN")


@scenario
def pile_frozen_by_red_three(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "KH KS 2D 9C"}, pile="3H 5C KD", melds={0: ["AH AS AD"]})
    assert log.truth(rules, "PILE.FROZEN.RED_THREE", True, game.pile_frozen)
    log.refuses(game, "take KH 2D", "PILE.TAKE.FROZEN")
    log.allows(game, "take KH KS", "PILE.TAKE.FROZEN")
    assert list(game.state.bonus[0]) == cards("3H")
    # The upcard froze the pile (a red three turned and covered by the next card, as the deal does).
    game = table(rules, hands={0: "KH KS 2D 9C"}, pile="5C KD", melds={0: ["AH AS AD"]}, upcard_froze=True)
    assert log.truth(rules, "PILE.FROZEN.RED_THREE", True, game.pile_frozen)
    log.refuses(game, "take KH 2D", "PILE.TAKE.FROZEN")
    log.allows(game, "take KH KS", "PILE.TAKE.FROZEN")
    assert not game.state.upcard_froze, "taking the pile unfreezes it"
    game = table(rules, hands={0: "KH KS 2D 9C"}, pile="5C KD", melds={0: ["AH AS AD"]})
    assert not log.truth(rules, "PILE.FROZEN.RED_THREE", False, game.pile_frozen)
    log.allows(game, "take KH 2D", "PILE.TAKE.MATCH")
    assert not game.state.upcard_froze


@scenario
def pile_not_frozen_by_black_three(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "KH 2D 9C"}, pile="3S 5C KD", melds={0: ["AH AS AD"]})
    assert not log.truth(rules, "PILE.FROZEN.BLACK_THREE", False, game.pile_frozen)
    log.allows(game, "take KH 2D", "PILE.TAKE.FROZEN")
    bicycle = c.child("b3-freezes", black_three="freezes")
    game = table(bicycle, hands={0: "KH KS 2D 9C"}, pile="3S 5C KD", melds={0: ["AH AS AD"]})
    assert log.truth(bicycle, "PILE.FROZEN.BLACK_THREE", True, game.pile_frozen)
    log.refuses(game, "take KH 2D", "PILE.TAKE.FROZEN")
    log.allows(game, "take KH KS", "PILE.TAKE.FROZEN")


@scenario
def pile_take_not_empty(c: Ctx) -> None:
    game = table(c.rules, hands={0: "KH KS 9C"}, melds={0: ["KC KD KD"]})
    c.log.refuses(game, "take", "PILE.TAKE.NOT_EMPTY")
    c.log.refuses(game, "take KH KS", "PILE.TAKE.NOT_EMPTY")
    game = table(c.rules, hands={0: "KH KS 9C"}, pile="KH", melds={0: ["KC KD KD"]})
    c.log.allows(game, "take", "PILE.TAKE.NOT_EMPTY")
    assert meld_cards(game, 0, "KH") == same("KC KD KD KH") and game.state.pile == []


@scenario
def pile_take_never_under_wild(c: Ctx) -> None:
    game = table(c.rules, hands={0: "2D JK KH KS 9C"}, pile="KD 2C", melds={0: ["AH AS AD"]})
    c.log.refuses(game, "take 2D JK", "PILE.TAKE.TOP_WILD")
    c.log.refuses(game, "take KH KS", "PILE.TAKE.TOP_WILD")
    c.log.refuses(game, "take", "PILE.TAKE.TOP_WILD")
    game = table(c.rules, hands={0: "2D JK KH KS 9C"}, pile="2C KD", melds={0: ["AH AS AD"]})
    c.log.allows(game, "take KH KS", "PILE.TAKE.TOP_WILD")


@scenario
def pile_take_must_meld_top_card(c: Ctx) -> None:
    log, rules = c.log, c.rules

    def position() -> Game:
        return table(rules, hands={0: "KH KS KC QS 2C JK 9C"}, pile="5C KD", melds={0: ["AH AS AD"]})

    game = position()
    assert not game.pile_frozen()
    log.refuses(game, "take KH QS", "PILE.TAKE.MATCH")
    log.refuses(game, "take 2C JK", "PILE.TAKE.MATCH")  # two wild cards never
    log.refuses(game, "take KH", "PILE.TAKE.MATCH")
    log.refuses(game, "take KH KS 9C", "PILE.TAKE.MATCH")  # a card that is neither a king nor wild
    log.refuses(game, "take", "PILE.TAKE.MATCH")  # no meld of kings to add it to
    log.allows(game, "take KH 2C", "PILE.TAKE.MATCH")  # a natural card and a wild card
    assert meld_cards(game, 0, "KD") == same("KD KH 2C")
    assert sorted(game.hand_of(0)) == same("KS KC QS JK 9C 5C")
    game = position()
    log.allows(game, "take KH KS", "PILE.TAKE.MATCH")  # a natural pair
    assert meld_cards(game, 0, "KD") == same("KD KH KS")
    # Adding the top card to the side's own meld of its rank.
    game = table(rules, hands={0: "9C 9D"}, pile="5C KD", melds={0: ["KH KS KC"]})
    log.allows(game, "take", "PILE.TAKE.MATCH")
    assert meld_cards(game, 0, "KD") == same("KH KS KC KD")
    assert sorted(game.hand_of(0)) == same("9C 9D 5C")
    # Frozen: two wild cards and a natural card with a wild card both fail on the freeze first.
    game = table(rules, hands={0: "KH 2C JK 9C"}, pile="5C KD")
    log.refuses(game, "take 2C JK", "PILE.TAKE.FROZEN")


@scenario
def pile_take_opening_counts_the_top_cards_whole_meld(c: Ctx) -> None:
    """pagat S0#71: before the side opens, every card laid in the top card's meld counts towards the minimum;
    once it has opened, the take names the two cards and the rest is added afterwards (the convention)."""
    log, rules = c.log, c.rules
    hands = {0: "KC KD KH 5S 5H 5D 7S 2C 9C 9D 9H 9S 8C 8D 8H"}
    game = table(rules, hands=hands, pile="9H KS")
    log.allows(game, "take KC KD KH + 5S 5H 5D", "PILE.TAKE.MATCH")  # 40 + 15 = 55: the third king counts
    assert meld_cards(game, 0, "KS") == same("KC KD KH KS")
    game = table(rules, hands=hands, pile="9H KS")
    log.allows(game, "take KC KD 2C + 5S 5H 5D", "PILE.TAKE.FROZEN")  # the natural pair, and a wild card
    game = table(rules, hands=hands, pile="9H KS")
    log.refuses(game, "take KC KD + 5S 5H 5D", "INITIAL_MELD.REQUIRED")  # 30 + 15: the third king left out
    game = table(rules, hands=hands, pile="9H KS")
    log.refuses(game, "take KC KD + KH 2C | 5S 5H 5D", "PILE.TAKE.EXTRA_RANK")
    game = table(rules, hands={0: "KC KD KH 2C 7S"}, pile="9H KS", melds={0: ["AH AS AD"]})
    log.refuses(game, "take KC KD KH", "PILE.TAKE.PAIR_ONCE_OPENED")
    log.refuses(game, "take KC KD 2C", "PILE.TAKE.PAIR_ONCE_OPENED")
    log.allows(game, "take KC KD", "PILE.TAKE.PAIR_ONCE_OPENED")
    assert meld_cards(game, 0, "KS") == same("KC KD KS")


@scenario
def pile_take_onto_the_sides_meld_names_no_cards(c: Ctx) -> None:
    def position() -> Game:
        return table(c.rules, hands={0: "KH 2C JK 9C"}, pile="5C KD", melds={0: ["KS KC KC"]})

    game = position()
    assert not game.pile_frozen()
    c.log.refuses(game, "take KH", "PILE.TAKE.ONTO_MELD")  # one natural: take, then add it
    c.log.refuses(game, "take 2C JK", "PILE.TAKE.ONTO_MELD")  # two wild cards: take, then add them
    c.log.allows(game, "take KH 2C", "PILE.TAKE.ONTO_MELD")  # a natural and a wild card meld the top card
    game = position()
    c.log.allows(game, "take", "PILE.TAKE.ONTO_MELD")
    assert meld_cards(game, 0, "KD") == same("KS KC KC KD")
    # Without a meld of the top card's rank the notation does not apply: the sourced rule refuses.
    game = table(c.rules, hands={0: "KH 2C JK 9C"}, pile="5C KD", melds={0: ["AS AC AC"]})
    c.log.refuses(game, "take KH", "PILE.TAKE.MATCH")
    c.log.allows(game, "take KH 2C", "PILE.TAKE.ONTO_MELD")


@scenario
def pile_take_extra_melds_only_with_the_opening(c: Ctx) -> None:
    game = table(c.rules, hands={0: "KH KS 9H 9S 9D 5C"}, pile="4C KD", melds={0: ["AH AS AD"]})
    c.log.refuses(game, "take KH KS + 9H 9S 9D", "PILE.TAKE.EXTRA_MELDS")
    c.log.allows(game, "take KH KS", "PILE.TAKE.EXTRA_MELDS")
    game = table(c.rules, hands={0: "KH KS 9H 9S 9D 5C"}, pile="4C KD")
    c.log.allows(game, "take KH KS + 9H 9S 9D", "PILE.TAKE.EXTRA_MELDS")  # 10 + 20 + 30 = 60
    assert meld_cards(game, 0, "9H") == same("9H 9S 9D") and sorted(game.hand_of(0)) == same("5C 4C")


@scenario
def pile_take_extra_melds_of_other_ranks(c: Ctx) -> None:
    game = table(c.rules, hands={0: "KH KS KC KC 2C 9H 9S 9D 5C"}, pile="4C KD")
    c.log.refuses(game, "take KH KS + KC KC 2C", "PILE.TAKE.EXTRA_RANK")
    c.log.refuses(game, "take KH KS + KC KC 2C | 9H 9S 9D", "PILE.TAKE.EXTRA_RANK")
    c.log.refuses(game, "take KH KS + K: 2C | 9H 9S 9D", "PILE.TAKE.EXTRA_RANK")  # wild cards for the kings
    c.log.refuses(game, "take KH KS + 9H 9S | 9D 2C", "PILE.TAKE.EXTRA_RANK")  # two groups of nines
    c.log.allows(game, "take KH KS + 9H 9S 9D", "PILE.TAKE.EXTRA_RANK")
    c.log.allows(game, "meld KC KC 2C", "MELD.MAX_WILDS")  # the rest of the kings after the take
    assert meld_cards(game, 0, "KD") == same("KD KH KS KC KC 2C")


@scenario
def pile_take_one_card_pile_with_one_card(c: Ctx) -> None:
    log, rules = c.log, c.rules

    def position(on: Rules, pile: str = "KD", stock: str | None = None) -> Game:
        return table(on, hands={0: "9C"}, pile=pile, melds={0: ["KH KS KC", *canastas(c.need)]}, stock=stock)

    game = position(rules)
    log.allows(game, "take", "PILE.TAKE.ONE_CARD")  # pagat: on the usual conditions
    log.allows(game, "discard 9C", "GO_OUT.CANASTAS")
    assert game.is_over and game.state.went_out == 0
    hoyle = c.child("one-card-forbid", one_card_pile="forbid")
    game = position(hoyle)
    log.refuses(game, "take", "PILE.TAKE.ONE_CARD")
    game = position(hoyle, pile="5C KD")
    log.allows(game, "take", "PILE.TAKE.ONE_CARD")
    pumpa = c.child("one-card-pumpa", one_card_pile="pumpa")
    game = position(pumpa, pile="5C KD")
    log.refuses(game, "take", "PILE.TAKE.ONE_CARD")
    game = position(pumpa, pile="5C KD", stock="")
    log.allows(game, "take", "PILE.TAKE.ONE_CARD")


# ---------------------------------------------------------------------------------------------- stock end
@scenario
def stock_empty_must_take_matching_discard(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(rules, hands={0: "9C 9D 4S"}, pile="5C KD", melds={0: ["KH KS KC"]}, stock="")
    assert log.truth(rules, "STOCK.EMPTY.OBLIGATION", True, game.must_take_pile)
    log.refuses(game, "draw", "STOCK.EMPTY.MUST_TAKE")
    log.allows(game, "take", "PILE.TAKE.MATCH")
    assert meld_cards(game, 0, "KD") == same("KH KS KC KD") and not game.is_over


@scenario
def stock_empty_draw_ends_the_hand(c: Ctx) -> None:
    log, rules = c.log, c.rules
    # Frozen by a wild card: no obligation, and trying to draw ends the play.
    game = table(rules, hands={0: "9C 9D 4S"}, pile="2H 5C KD", melds={0: ["KH KS KC"]}, stock="")
    assert not log.truth(rules, "STOCK.EMPTY.OBLIGATION", False, game.must_take_pile)
    log.allows(game, "draw", "STOCK.EMPTY.MUST_TAKE")
    assert game.is_over and game.state.end_reason == "stock exhausted" and game.state.went_out is None
    # The top card matches no meld of the side.
    game = table(rules, hands={0: "9C 9D 4S"}, pile="5C AD", melds={0: ["KH KS KC"]}, stock="")
    assert not log.truth(rules, "STOCK.EMPTY.OBLIGATION", False, game.must_take_pile)
    log.allows(game, "draw", "STOCK.EMPTY.MUST_TAKE")
    assert game.is_over
    # With cards in the stock there is never an obligation.
    game = table(rules, hands={0: "9C 9D 4S"}, pile="5C KD", melds={0: ["KH KS KC"]}, stock_top="6C 6D")
    assert not game.must_take_pile()
    log.allows(game, "draw", "STOCK.EMPTY.MUST_TAKE")
    assert not game.is_over
    # Under the no-obligation reading the player may end the play even with a matching discard.
    free = c.child("stock-no-obligation", stock_empty="no_obligation")
    game = table(free, hands={0: "9C 9D 4S"}, pile="5C KD", melds={0: ["KH KS KC"]}, stock="")
    assert not log.truth(free, "STOCK.EMPTY.OBLIGATION", False, game.must_take_pile)
    log.allows(game, "draw", "STOCK.EMPTY.MUST_TAKE")
    assert game.is_over and game.state.end_reason == "stock exhausted"


# ---------------------------------------------------------------------------------------------- going out
@scenario
def going_out_needs_the_canastas(c: Ctx) -> None:
    log, rules = c.log, c.rules
    short = canastas(c.need - 1)
    game = table(rules, hands={0: "9C"}, melds={0: [*short, "KH KS KD"]}, phase="play")
    log.refuses(game, "discard 9C", "GO_OUT.CANASTAS")
    game = table(rules, hands={0: "KC KC"}, melds={0: [*short, "KH KS KD"]}, phase="play")
    log.refuses(game, "meld KC KC", "GO_OUT.CANASTAS")
    # The last canasta may be completed on the turn of going out.
    game = table(rules, hands={0: "KC KC 9C"}, melds={0: [*short, "KH KS KD KD 2C"]}, phase="play")
    log.allows(game, "meld KC KC", "GO_OUT.KEEP_CARD")
    assert game.view(0)["canastas"][0] == c.need
    log.allows(game, "discard 9C", "GO_OUT.CANASTAS")
    assert game.is_over and game.state.went_out == 0 and game.state.pile[-1] == cards("9C")[0]


@scenario
def keep_a_card_unless_going_out(c: Ctx) -> None:
    log, rules = c.log, c.rules
    short = canastas(c.need - 1)
    game = table(rules, hands={0: "KC KC 9C"}, melds={0: [*short, "KH KS KD"]}, phase="play")
    log.refuses(game, "meld KC KC", "GO_OUT.KEEP_CARD")  # one card left, which would have to be discarded
    game = table(rules, hands={0: "KC KC 9C 8C"}, melds={0: [*short, "KH KS KD"]}, phase="play")
    log.allows(game, "meld KC KC", "GO_OUT.KEEP_CARD")
    log.allows(game, "discard 9C", "GO_OUT.KEEP_CARD")
    assert game.hand_of(0) == cards("8C") and not game.is_over
    # Taking the pile is melding too.
    game = table(rules, hands={0: "KH KS 9C"}, pile="KD", melds={0: ["AH AS AD"]})
    log.refuses(game, "take KH KS", "GO_OUT.KEEP_CARD")


@scenario
def going_out_concealed(c: Ctx) -> None:
    log, rules = c.log, c.rules
    whole = canastas(c.need)
    game = table(rules, hands={0: " ".join(whole)}, phase="play", scores=[0, 0])
    log.truth(rules, "GO_OUT.CONCEALED", True, lambda: game.apply(act("meld " + " | ".join(whole))))
    assert game.is_over and game.state.concealed
    log.score_part(game, 0, "SCORE.GOING_OUT", 200)
    assert game.score().totals[0] == (70 + 500) * c.need + 200  # each natural canasta: 70 in cards, 500 bonus
    # A player who had melded before does not go out concealed.
    melds = [canasta(r)[:-3] for r in CANASTA_RANKS[: c.need]]  # six cards of each rank on the table
    game = table(
        rules,
        hands={0: " ".join(f"{r}S" for r in CANASTA_RANKS[: c.need]) + " 9C"},
        melds={0: melds},
        phase="play",
        seat_melded=[0],
    )
    for rank in CANASTA_RANKS[: c.need]:
        game.apply(act(f"meld {rank}S"))
    log.truth(rules, "GO_OUT.CONCEALED", False, lambda: game.apply(act("discard 9C")))
    assert game.is_over and not game.state.concealed
    log.score_part(game, 0, "SCORE.GOING_OUT", 100, "other")


@scenario
def concealed_going_out_may_take_the_pile(c: Ctx) -> None:
    log, rules = c.log, c.rules
    whole = canastas(c.need)

    def position(on: Rules) -> Game:
        return table(on, hands={0: "KH KS " + " ".join(whole)}, pile="5C KD")

    game = position(rules)
    game.apply(act("take KH KS + " + " | ".join(whole)))
    assert game.hand_of(0) == cards("5C")
    log.truth(rules, "GO_OUT.CONCEALED", True, lambda: game.apply(act("discard 5C")))
    assert game.state.concealed
    strict = c.child("concealed-no-pile", concealed_pile_take="forbidden")
    game = position(strict)
    game.apply(act("take KH KS + " + " | ".join(whole)))
    log.truth(strict, "GO_OUT.CONCEALED", False, lambda: game.apply(act("discard 5C")))
    assert game.is_over and not game.state.concealed
    log.score_part(game, 0, "SCORE.GOING_OUT", 100, "other")


@scenario
@needs("GO_OUT.ASK.BEFORE_MELDING", "GO_OUT.ASK.ONCE_A_TURN", "GO_OUT.PARTNER_SAID_NO", "GO_OUT.ANSWER_BINDING")
def asking_partner(c: Ctx) -> None:
    """Asking partner comes after drawing and before melding, once a turn; a "no" forbids going out."""
    log, rules, need = c.log, c.rules, c.need
    game = table(rules, hands={0: "9C 9D 9S", 2: "4C"}, melds={0: canastas(need)}, phase="play")
    log.allows(game, "ask", "GO_OUT.ASK.ONCE_A_TURN")
    assert game.state.phase == "answer" and game.to_act == 2
    log.refuses(game, "discard 4C", "TURN.ANSWER")
    log.refuses(game, "draw", "TURN.ANSWER")
    log.refuses(game, "no", "TURN.ORDER", seat=0)
    log.allows(game, "no", "TURN.ANSWER")
    assert game.state.permission == "no" and game.to_act == 0 and game.state.phase == "play"
    log.refuses(game, "ask", "GO_OUT.ASK.ONCE_A_TURN")  # canasta-ref's convention
    log.refuses(game, "meld 9C 9D 9S", "GO_OUT.PARTNER_SAID_NO")
    log.allows(game, "discard 9C", "GO_OUT.KEEP_CARD")
    assert game.to_act == 1 and game.state.permission == "none"
    # Asking comes before melding.
    game = table(rules, hands={0: "9C 9D 9S 5S 6S"}, melds={0: ["KH KS KD"]}, phase="play")
    log.allows(game, "meld 9C 9D 9S", "GO_OUT.KEEP_CARD")
    log.refuses(game, "ask", "GO_OUT.ASK.BEFORE_MELDING")
    game = table(rules, hands={0: "KH KS 9C 5S"}, pile="KD", melds={0: ["AH AS AD"]})
    game.apply(act("take KH KS"))
    log.refuses(game, "ask", "GO_OUT.ASK.BEFORE_MELDING")
    log.allows(game, "discard 9C", "GO_OUT.ANSWER_BINDING")


@scenario
@needs("GO_OUT.ASK.BEFORE_MELDING", "GO_OUT.ANSWER_BINDING", "GO_OUT.PARTNER_SAID_NO")
def a_yes_binds(c: Ctx) -> None:
    log, rules, need = c.log, c.rules, c.need
    game = table(rules, hands={0: "KC 9D"}, melds={0: [*canastas(need), "KH KS KD"]}, phase="play")
    log.allows(game, "ask", "GO_OUT.ASK.BEFORE_MELDING")
    log.allows(game, "yes", "TURN.ANSWER")
    assert game.state.permission == "yes" and game.to_act == 0
    log.refuses(game, "discard 9D", "GO_OUT.ANSWER_BINDING")  # meld the king, then discard: must go out
    log.refuses(game, "discard KC", "GO_OUT.ANSWER_BINDING")
    log.allows(game, "meld KC", "GO_OUT.KEEP_CARD")
    log.allows(game, "discard 9D", "GO_OUT.ANSWER_BINDING")
    game.undo()
    log.allows(game, "discard 9D", "GO_OUT.PARTNER_SAID_NO")
    assert game.is_over and game.state.went_out == 0
    # After a yes the player melds what can be melded; one who then still cannot go out discards as usual.
    game = table(rules, hands={0: "KC 9D 7S"}, melds={0: [*canastas(need), "KH KS KD"]}, phase="play")
    game.apply(act("ask"))
    game.apply(act("yes"))
    log.refuses(game, "discard 7S", "GO_OUT.ANSWER_BINDING")
    log.allows(game, "meld KC", "GO_OUT.KEEP_CARD")
    log.allows(game, "discard 7S", "GO_OUT.ANSWER_BINDING")
    assert not game.is_over and game.to_act == 1 and game.hand_of(0) == cards("9D")
    # A "yes" does not oblige a player who cannot meld at all.
    game = table(rules, hands={0: "9C 7D"}, melds={0: canastas(need)}, phase="play")
    game.apply(act("ask"))
    game.apply(act("yes"))
    log.allows(game, "discard 9C", "GO_OUT.ANSWER_BINDING")
    assert not game.is_over and game.to_act == 1


# ---------------------------------------------------------------------------------------------- scoring
@scenario
def score_components(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = table(
        rules,
        hands={0: "9C", 1: "5C 6C JK"},
        melds={0: ["QC QC QD QD QH QH QS", "JC JC JD JD JH 2C JK", "KH KS KD"], 1: ["AH AS AD"]},
        bonus={0: "3D 3H", 1: "3D"},
        phase="play",
        seat_melded=[0],
    )
    game.apply(act("discard 9C"))
    assert game.is_over
    log.score_part(game, 0, "SCORE.MELDED_CARDS", 70 + 120 + 30)
    log.score_part(game, 1, "SCORE.MELDED_CARDS", 60, "other")
    log.score_part(game, 0, "SCORE.CANASTA.NATURAL", 500)
    log.score_part(game, 1, "SCORE.CANASTA.NATURAL", 0, "other")
    log.score_part(game, 0, "SCORE.CANASTA.MIXED", 300)
    log.score_part(game, 1, "SCORE.CANASTA.MIXED", 0, "other")
    log.score_part(game, 0, "SCORE.RED_THREES", 200)
    log.score_part(game, 1, "SCORE.RED_THREES", 100)
    log.score_part(game, 0, "SCORE.GOING_OUT", 100)
    log.score_part(game, 1, "SCORE.GOING_OUT", 0, "other")
    log.score_part(game, 1, "SCORE.CARDS_IN_HAND", -60)
    log.score_part(game, 0, "SCORE.CARDS_IN_HAND", 0, "other")
    assert game.score().totals == [220 + 500 + 300 + 200 + 100, 60 + 100 - 60]


@scenario
def score_red_threes(c: Ctx) -> None:
    log, rules = c.log, c.rules
    # All four for one side: 800; a side that has not melded counts them against itself.
    game = table(rules, hands={0: "9C", 1: "9D"}, melds={0: ["KH KS KD"]}, bonus={0: "3D 3D 3H 3H"})
    log.score_part(game, 0, "SCORE.RED_THREES", 800)
    log.score_part(game, 1, "SCORE.RED_THREES", 0)
    game = table(rules, hands={0: "9C", 1: "9D"}, bonus={0: "3D 3D 3H 3H"}, melds={1: ["KH KS KD"]})
    log.score_part(game, 0, "SCORE.RED_THREES", -800, "other")
    game = table(rules, hands={0: "9C", 1: "9D"}, bonus={0: "3D", 1: "3H 3D"}, melds={0: ["KH KS KD"]})
    log.score_part(game, 0, "SCORE.RED_THREES", 100)
    log.score_part(game, 1, "SCORE.RED_THREES", -200, "other")
    # Fournier: they count against a side without a canasta.
    fournier = c.child("red3-no-canasta", red_three_penalty="no_canasta")
    game = table(fournier, hands={0: "9C"}, bonus={0: "3D"}, melds={0: ["KH KS KD"]})
    log.score_part(game, 0, "SCORE.RED_THREES", -100, "other")


@scenario
def wild_card_makes_natural_canasta_mixed(c: Ctx) -> None:
    log, rules = c.log, c.rules
    game = opened(rules, "2C 9C 9D", "KH KH KS KS KD KD KC")
    assert game.score().sides[0].parts["SCORE.CANASTA.NATURAL"] == 500
    log.allows(game, "meld K: 2C", "MELD.NO_WILD_ONLY")
    assert game.view(0)["canastas"][0] == 1
    log.score_part(game, 0, "SCORE.CANASTA.NATURAL", 0, "other")
    log.score_part(game, 0, "SCORE.CANASTA.MIXED", 300)
    log.score_part(game, 0, "SCORE.MELDED_CARDS", 60 + 70 + 20)


@scenario
def wild_canasta_only_where_wild_melds_allows(c: Ctx) -> None:
    log, rules = c.log, c.rules
    wilds = "2C 2C 2D 2H 2S JK JK"  # 5 * 20 + 2 * 50 = 200
    game = opened(rules, f"{wilds} 9C 9D", "KH KS KD")
    log.refuses(game, f"meld {wilds}", "MELD.NO_WILD_ONLY")
    log.score_part(game, 0, "SCORE.CANASTA.WILD", 0, "other")
    gamedesire = c.child("wild-canasta", wild_melds="seven_at_once")
    game = opened(gamedesire, f"{wilds} 9C 9D", "KH KS KD")
    log.refuses(game, "meld 2C 2C 2D 2H 2S JK", "MELD.NO_WILD_ONLY")  # six are not a wild canasta
    log.allows(game, f"meld {wilds}", "MELD.NO_WILD_ONLY")
    log.score_part(game, 0, "SCORE.CANASTA.WILD", 1000)
    log.score_part(game, 0, "SCORE.CANASTA.MIXED", 0, "other")  # a wild canasta is not a mixed one
    log.score_part(game, 0, "SCORE.MELDED_CARDS", 60 + 30 + 200)


# ---------------------------------------------------------------------------------------------- the match
@scenario
def match_ends_at_target(c: Ctx) -> None:
    log, rules = c.log, c.rules

    def over(highest: int, leaders: int, clause_says: bool, on: Rules = rules) -> bool:
        env = {"highest_score": highest, "hands_played": 3, "leaders": leaders}
        return log.predicate(on, "match.over", env, "MATCH.TARGET", clause_says)

    assert over(5000, 1, True)
    assert over(7340, 1, True)
    assert not over(4995, 1, False)
    assert not over(-20, 1, False)
    assert not over(5200, 2, False)  # level at the top: another hand (pagat does not settle it)
    drawn = c.child("tie-draw", match_tie="draw")
    assert over(5200, 2, True, drawn)
