"""Melds with identity (Samba's family): groups naming the meld they join, sequences, combining melds.

The listing of these actions is checked against an independent slow enumeration on small positions: every
submultiset of the hand, grouped every way, naming every meld, each put to ``plan``. Whatever plan accepts must be
listed, and only that.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from canasta_ref import Game, IllegalAction, load_variant, parse_action
from canasta_ref.engine.actions import Action, MeldGroup
from canasta_ref.engine.cards import Card, cards_of, parse_cards
from canasta_ref.engine.judge import is_legal
from canasta_ref.engine.position import Position

SAMBA = load_variant("samba")
BOLIVIA = load_variant("bolivia")


def game_at(variant: object, hand: str, melds: Sequence[str] = (), phase: str = "play", pile: str = "") -> Game:
    """North to act, holding ``hand``, North-South's melds written out; a stock is left over."""
    others = ["5C 6D 8S", "9C 10D QS", "JC JD 4S"]
    position = Position(
        hands=[parse_cards(hand), *(parse_cards(h) for h in others)],
        pile=parse_cards(pile),
        melds=[[parse_cards(m) for m in melds], []],
        to_act=0,
        phase=phase,  # type: ignore[arg-type]
        seat_melded=[bool(melds), False, False, False],
    )
    return Game.from_position(variant, position)  # type: ignore[arg-type]


def submultisets(cards: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every submultiset of ``cards`` (sorted), each once."""
    ordered = sorted(cards)

    def walk(index: int, chosen: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
        if index == len(ordered):
            yield chosen
            return
        card = ordered[index]
        same = ordered.count(card)
        nxt = index + same
        for k in range(same + 1):
            yield from walk(nxt, chosen + (card,) * k)

    yield from walk(0, ())


def partitions(cards: tuple[Card, ...]) -> Iterator[list[tuple[Card, ...]]]:
    """Every way to split ``cards`` into non-empty groups (repeats included; actions are canonical anyway)."""
    if not cards:
        yield []
        return
    first, rest = cards[0], cards[1:]
    for others in partitions(rest):
        for i in range(len(others)):
            yield [*others[:i], (first, *others[i]), *others[i + 1 :]]
        yield [(first,), *others]


def brute_play(game: Game) -> set[Action]:
    state = game.state
    hand = cards_of(state.hands[0])
    count = len(state.melds[0])
    found: set[Action] = set()
    for chosen in submultisets(hand):
        if not chosen:
            continue
        if state.team_opened[0]:
            for target in range(count + 1):
                found.add(Action.meld([MeldGroup.of(chosen, None, target)]))
        else:
            for groups in partitions(chosen):
                found.add(Action.meld([MeldGroup.of(g) for g in groups]))
    for first in range(1, count + 1):
        for second in range(first + 1, count + 1):
            found.add(Action.combine(first, second))
    return {a for a in found if is_legal(game.rules, state, a)}


def brute_take(game: Game) -> set[Action]:
    state = game.state
    hand = cards_of(state.hands[0])
    count = len(state.melds[0])
    found: set[Action] = set()
    for chosen in submultisets(hand):
        for target in range(count + 1):
            found.add(Action.take(chosen, (), target))
        if not state.team_opened[0]:
            rest = list(hand)
            for card in chosen:
                rest.remove(card)
            for extra in submultisets(rest):
                if extra:
                    for groups in partitions(extra):
                        found.add(Action.take(chosen, [MeldGroup.of(g) for g in groups]))
    return {a for a in found if is_legal(game.rules, state, a)}


def listed(game: Game, kinds: Sequence[str]) -> set[Action]:
    actions = [a for a in game.legal_actions() if a.kind in kinds]
    assert len(actions) == len(set(actions)), "an action listed twice"
    assert len({str(a) for a in actions}) == len(actions), "two actions with one text"
    return set(actions)


OPENED = [
    ("KC KD 2C 4H 7H 8H 9S", ["KH KS KD", "4S 5S 6S", "9D 9C 9H"]),
    ("5H 6H 7H 8H 7C 7D JK", ["KH KS KD KC", "9H 10H JH", "7S 7H 7D"]),
    ("3S 4S 7S 2D 2H KC", ["KH KS KD", "KC KD KH KS", "5S 6S 7S"]),
    ("AH KH QH 10H 9H", ["AS AD AC", "JH 10H 9H 8H 7H 6H"]),
]


@pytest.mark.parametrize(("hand", "melds"), OPENED)
@pytest.mark.parametrize("variant", [SAMBA, BOLIVIA], ids=["samba", "bolivia"])
def test_single_melds_and_combines_of_an_opened_side_are_listed_exactly(
    variant: object, hand: str, melds: list[str]
) -> None:
    game = game_at(variant, hand, melds)
    assert listed(game, ("meld", "combine")) == brute_play(game)


CLOSED = [
    "4H 5H 6H KC KD KS 2C",
    "9S 10S JS QS KS AS 7D",
    "4H 5H 6H 4S 5S 6S JK 2D",
    "7C 7D 7H 8H 9H 10H",
    "KC KD KS KH KC KD 9S 8D",  # two melds of kings in one opening
]


@pytest.mark.parametrize("hand", CLOSED)
@pytest.mark.parametrize("variant", [SAMBA, BOLIVIA], ids=["samba", "bolivia"])
def test_openings_with_sequences_are_listed_exactly(variant: object, hand: str) -> None:
    game = game_at(variant, hand)
    assert listed(game, ("meld", "combine")) == brute_play(game)


TAKES = [
    ("7H 7D 8H 9H KC", ["KH KS KD", "4S 5S 6S"], "5C 3S 7S"),
    ("6S 7S 8S KC KD", ["KH KS KD", "4S 5S 6S"], "9C 3S 7S"),
    ("KC KD 4H 5H", ["KH KS KD KC"], "9C KS"),
    ("5H 6H 9C 9D 9S", [], "8C 7H"),
    ("5H 6H 8H 9C 9D 9S", [], "8C 7H"),
    ("9C 9D 10H JH QH KH AH", [], "8C 9S"),
    ("9C 9D 9H 9C 9D 9H 5C", [], "8C 9S"),  # a further meld of the top card's rank
]


@pytest.mark.parametrize(("hand", "melds", "pile"), TAKES)
@pytest.mark.parametrize("variant", [SAMBA, BOLIVIA], ids=["samba", "bolivia"])
def test_takes_are_listed_exactly(variant: object, hand: str, melds: list[str], pile: str) -> None:
    game = game_at(variant, hand, melds, phase="draw", pile=pile)
    assert listed(game, ("take",)) == brute_take(game)


def test_a_named_meld_joins_that_meld_and_an_unnamed_group_starts_one() -> None:
    game = game_at(SAMBA, "KC KD KH KS 9C 8D", ["KH KS KD", "4S 5S 6S"])
    game.apply(parse_action("meld @1: KC"))
    assert [len(m.cards) for m in game.state.melds[0]] == [4, 3]
    game.apply(parse_action("meld KD KH KS"))
    assert [len(m.cards) for m in game.state.melds[0]] == [4, 3, 3]


def test_sequences_are_extended_by_naming_them() -> None:
    game = game_at(SAMBA, "7S 3S 9C", ["KH KS KD", "4S 5S 6S"])
    with pytest.raises(IllegalAction):
        game.apply(parse_action("meld @2: 3S"))  # threes are never in a sequence
    game.apply(parse_action("meld @2: 7S"))
    assert [len(m.cards) for m in game.state.melds[0]] == [3, 4]


def test_combining_two_melds_of_a_rank_leaves_one_and_renumbers_the_rest() -> None:
    game = game_at(SAMBA, "9C 9D", ["KH KS KD", "4S 5S 6S", "KC KD KH KS"])
    game.apply(parse_action("combine @1 @3"))
    melds = game.state.melds[0]
    assert [len(m.cards) for m in melds] == [7, 3]
    with pytest.raises(IllegalAction):
        game.apply(parse_action("combine @1 @2"))  # a group and a sequence


def test_naming_a_meld_the_side_does_not_have_is_refused_as_not_its_own() -> None:
    game = game_at(SAMBA, "KC 9C", ["KH KS KD"])
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action("meld @2: KC"))
    assert refused.value.rule_id == "TURN.OWN_CARDS"


def test_the_named_meld_grows_even_when_another_holds_the_same_cards() -> None:
    game = game_at(SAMBA, "KC 9C 8D", ["KH KS KD", "KH KS KD"])
    game.apply(parse_action("meld @2: KC"))
    assert [len(m.cards) for m in game.state.melds[0]] == [3, 4]
    game.undo()
    game.apply(parse_action("meld @1: KC"))
    assert [len(m.cards) for m in game.state.melds[0]] == [4, 3]


def test_a_natural_canasta_never_joins_a_mixed_one_whichever_was_laid_first() -> None:
    mixed, natural = "KH KH KS KS KD 2C 2D", "KD KD KC KC KC KH KS"
    for melds in ([mixed, "4S 5S 6S", natural], [natural, "4S 5S 6S", mixed]):
        game = game_at(SAMBA, "9C 9D", melds)
        with pytest.raises(IllegalAction) as refused:
            game.apply(parse_action("combine @1 @3"))
        assert refused.value.rule_id == "MELD.CANASTA.NO_WILD_ADDED"


def test_a_yes_binds_the_player_to_add_to_a_named_meld_before_discarding() -> None:
    game = game_at(SAMBA, "8H KC 9D", ["AH AS AD AC AH AS AD", "5H 6H 7H", "KD KS KH"])
    game.state.permission = "yes"
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse_action("discard 9D"))
    assert refused.value.rule_id == "GO_OUT.ANSWER_BINDING"


#: How many legal actions the brute force finds in each small case above (the same in both variants): the
#: comparisons above would pass on empty listings, so the cases must keep offering something to compare.
BRUTE_COUNTS = ([11, 28, 16, 3], [1, 3, 12, 0, 10], [2, 1, 2, 0, 0, 5, 38])


@pytest.mark.parametrize("variant", [SAMBA, BOLIVIA], ids=["samba", "bolivia"])
def test_the_small_cases_offer_legal_actions_to_compare(variant: object) -> None:
    found = (
        [len(brute_play(game_at(variant, hand, melds))) for hand, melds in OPENED],
        [len(brute_play(game_at(variant, hand))) for hand in CLOSED],
        [len(brute_take(game_at(variant, hand, melds, phase="draw", pile=pile))) for hand, melds, pile in TAKES],
    )
    assert found == BRUTE_COUNTS
