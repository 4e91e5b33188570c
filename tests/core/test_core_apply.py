"""The core applying a whole action on positions set up directly, each mechanism on both sides: a draw with and
without a red three (laid out and replaced), the last stock card a red three, a discard that passes the turn and
one that goes out, melds laid onto the side's meld and new, melding out, takes (joining the side's meld or kept
apart, the whole pile or its top card alone), a discard at an empty stock, asking and answering, penalties at a
turn's end, bonus cards at a seat's first turn, melds that close, the foot picked up, sequences, melds combined,
a lone hand formed; and what it declines, left unchanged. Every action is applied by the reference too
(``Game.apply``) and the positions, turn's flags and hand's end compared. The step-by-step proof in every variant
is test_core_proof.py."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from canasta_ref import core, parse_action
from canasta_ref.core.apply import LAST_CARD_BONUS, STOCK_EXHAUSTED, WENT_OUT, Applied, NativeApply, c_declined, encode
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.game import Game
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.spec import load_variant
from canasta_ref.spec.derive import derive


@pytest.fixture
def classic() -> Rules:
    return rules_for(load_variant("classic"))


def _game(rules: Rules, cards: str, melds: list[str], stock: str, pile: str = "5C 7D", **extra: Any) -> Game:
    """A Classic hand with North to act holding ``cards``, North-South having laid ``melds``; the stock set by hand
    to ``stock`` (its top card last; the position's other cards are then out of play, which no rule here reads)."""
    hands = [parse_cards(cards), parse_cards("9C 9D 9H 10S"), parse_cards("4C 4D 4H"), parse_cards("6C 6D 6H")]
    laid = [[parse_cards(meld) for meld in melds], []]
    game = Game.from_position(rules, Position(hands, pile=parse_cards(pile), melds=laid, **extra))
    game.state.stock = parse_cards(stock)
    game.state.derived = None
    return game


def _both_apply(rules: Rules, game: Game, text: str) -> Applied:
    """``text`` applied by the core, in C where the variant and the kind allow it and on its Python path, and by
    the reference: the positions, the turn's flags and the hand's end must agree; the core's outcome. The path each
    took is checked: a test of a mechanism the C entry has goes through it."""
    action = parse_action(text)
    in_c, in_python = NativeApply(rules), NativeApply(rules, native=False)
    position = core.load_state(core.new_position(rules), game.state.copy())
    python_position = core.load_state(core.new_position(rules), game.state.copy())
    outcome = in_c.apply(position, action)
    assert in_python.apply(python_position, action) == outcome
    game.apply(action)
    assert isinstance(outcome, Applied), outcome
    expected_in_c = c_declined(rules) is None and action.kind in in_c.native_kinds
    assert (in_c.applied_in_c, in_c.applied_in_python) == ((1, 0) if expected_in_c else (0, 1))
    assert (in_python.applied_in_c, in_python.applied_in_python) == (0, 1)
    assert position.export() == python_position.export() == core.owned_view(game.state)
    state = game.state
    assert (outcome.ended, outcome.went_out) == (
        (state.end_reason, state.went_out) if state.phase == "over" else (None, None)
    )
    return outcome


def test_a_draw_takes_the_stocks_top_card_into_the_hand(library: ModuleType, classic: Rules) -> None:
    game = _game(classic, "8C 8D 5S", ["QH QD QC"], "4S 6S 9S KD")
    assert _both_apply(classic, game, "draw") == Applied()
    assert game.state.hands[0][parse_cards("KD")[0]] == 1 and game.state.phase == "play"


def test_a_red_three_drawn_is_laid_out_and_replaced(library: ModuleType, classic: Rules) -> None:
    game = _game(classic, "8C 8D 5S", ["QH QD QC"], "4S 6S KD 3H")
    assert _both_apply(classic, game, "draw") == Applied()
    assert game.state.bonus[0] == tuple(parse_cards("3H")) and len(game.state.stock) == 2


def test_a_red_three_as_the_last_stock_card_ends_play(library: ModuleType, classic: Rules) -> None:
    """Hook stock.last_card_bonus_ends (Classic's default): no replacement is left, so play ends."""
    game = _game(classic, "8C 8D 5S", ["QH QD QC"], "3H")
    assert _both_apply(classic, game, "draw") == Applied(LAST_CARD_BONUS)


def test_a_discard_passes_the_turn_and_clears_its_flags(library: ModuleType, classic: Rules) -> None:
    game = _game(classic, "8C 8D 5S", ["QH QD QC"], "4S 6S", phase="play")
    assert _both_apply(classic, game, "discard 5S") == Applied()
    assert game.state.to_act == 1 and game.state.phase == "draw"


def test_discarding_the_last_card_goes_out_where_the_side_has_a_canasta(library: ModuleType, classic: Rules) -> None:
    game = _game(classic, "5S", ["QH QD QC QS QH QD QC"], "4S 6S", phase="play")
    assert _both_apply(classic, game, "discard 5S") == Applied(WENT_OUT, 0)


def test_melds_join_the_sides_meld_of_their_rank_or_start_one(library: ModuleType, classic: Rules) -> None:
    game = _game(classic, "QS 8C 8D 8H 5S 6S", ["QH QD QC"], "4S 6S", phase="play")
    assert _both_apply(classic, game, "meld QS") == Applied()
    assert _both_apply(classic, game, "meld 8C 8D 8H") == Applied()
    assert [len(meld.cards) for meld in game.state.melds[0]] == [4, 3]


def test_melding_the_last_cards_goes_out(library: ModuleType, classic: Rules) -> None:
    game = _game(classic, "8C 8D 8H", ["QH QD QC QS QH QD QC"], "4S 6S", phase="play")
    assert _both_apply(classic, game, "meld 8C 8D 8H") == Applied(WENT_OUT, 0)


def test_an_action_it_does_not_apply_is_declined_and_the_position_left_as_it_was(
    library: ModuleType, classic: Rules
) -> None:
    game = _game(classic, "7C 7H 5S", ["QH QD QC"], "4S 6S")
    position = core.load_state(core.new_position(classic), game.state)
    before = position.export()
    assert NativeApply(classic).apply(position, parse_action("layout")) == "keeping a bonus card"
    assert position.export() == before


def test_a_variant_using_a_mechanism_it_lacks_is_declined_by_that_mechanism(library: ModuleType) -> None:
    """Modern American lets a player keep a bonus card in hand (hook bonus_card.keep): every action is declined."""
    modern = rules_for(load_variant("modern-american"))
    assert NativeApply(modern).declined(parse_action("draw")) == "bonus cards kept in hand (hook bonus_card.keep)"


def test_a_take_melds_the_top_card_and_picks_up_the_rest(library: ModuleType, classic: Rules) -> None:
    game = _game(classic, "8C 8D 5S", ["QH QD QC"], "4S 6S", pile="4C 9D 8S")
    assert _both_apply(classic, game, "take 8C 8D") == Applied()
    assert game.state.pile == [] and game.state.took_pile_this_turn and game.state.hands[0][parse_cards("9D")[0]]


def test_a_red_three_in_the_pile_taken_is_laid_out_not_replaced(library: ModuleType, classic: Rules) -> None:
    """Hook bonus_card.replace, asked of a card from the pile: Classic replaces only the red threes drawn."""
    game = _game(classic, "8C 8D 5S", ["QH QD QC"], "4S 6S", pile="3D 9D 8S")
    assert _both_apply(classic, game, "take 8C 8D") == Applied()
    assert game.state.bonus[0] == tuple(parse_cards("3D")) and len(game.state.stock) == 2


@pytest.mark.parametrize(("option", "melds_after"), [("fourth_wild", 2), ("second_meld", 3)])
def test_pagats_puzzle_take_joins_the_canasta_or_is_kept_apart(
    library: ModuleType, option: str, melds_after: int
) -> None:
    """Hook meld.take_apart: a natural and a wild card taking a king onto a canasta of kings with three wild cards
    join it under one reading and start a second meld of kings under another."""
    rules = rules_for(derive(load_variant("classic"), {"three_wild_canasta_take": option}))
    melds = ["KH KS KD KC 2C 2S JK", "QH QS QD"]
    game = _game(rules, "KS 2H 7H 8S 5D KD 2D", melds, "4S 6S", pile="6C 4S KH")
    _both_apply(rules, game, "take KS 2H")
    assert len(game.state.melds[0]) == melds_after


@pytest.mark.parametrize("answer", ["yes", "no"])
def test_asking_hands_the_turn_to_the_partner_and_the_answer_back(
    library: ModuleType, classic: Rules, answer: str
) -> None:
    """The partner (seat 2) answers "may I go out?"; the asker (seat 0) plays on with the permission given."""
    game = _game(classic, "8C 8D 8H 5S", ["QH QD QC QS QH QD QC"], "4S 6S", phase="play")
    assert _both_apply(classic, game, "ask") == Applied()
    assert game.state.to_act == 2 and game.state.phase == "answer"
    assert _both_apply(classic, game, answer) == Applied()
    assert game.state.to_act == 0 and game.state.permission == answer


@pytest.mark.parametrize(("stock_end", "ended"), [("last_discard", STOCK_EXHAUSTED), ("as_classic", None)])
def test_a_discard_at_an_empty_stock_ends_play_where_the_spec_says_so(
    library: ModuleType, stock_end: str, ended: str | None
) -> None:
    """Hook stock.ends_with_discard (Classic for three; Hand and Foot)."""
    rules = rules_for(derive(load_variant("classic-3p"), {"stock_end": stock_end}))
    hands = [parse_cards("8C 8D 5S"), parse_cards("9C 9D 9H 10S"), parse_cards("4C 4D 4H")]
    game = Game.from_position(rules, Position(hands, pile=parse_cards("5C 7D"), melds=[[], [], []], phase="play"))
    game.state.stock = []
    game.state.derived = None
    position = core.load_state(core.new_position(rules), game.state.copy())
    outcome = NativeApply(rules).apply(position, parse_action("discard 5S"))
    game.apply(parse_action("discard 5S"))
    assert position.export() == core.owned_view(game.state)
    assert outcome == Applied(ended) and game.state.end_reason == ended


@pytest.mark.parametrize(("stock", "pile_after"), [("", 2), ("4S 6S", 0)])
def test_a_take_at_an_empty_stock_moves_the_top_card_alone_where_the_spec_says_so(
    library: ModuleType, stock: str, pile_after: int
) -> None:
    """Hook pile.take_top_only (Hoyle's two-hand game): with the stock empty, the pile not frozen and the top card
    fitting the side's meld, the take moves the top card alone; with cards in the stock it takes the whole pile."""
    rules = rules_for(load_variant("hoyle-2p"))
    hands = [parse_cards("5S 6D 7H"), parse_cards("9C 9D 9H 10S")]
    position = Position(hands, pile=parse_cards("4C 9S 8S"), melds=[[parse_cards("8H 8D 8C")], []])
    game = Game.from_position(rules, position)
    game.state.stock = parse_cards(stock)
    game.state.derived = None
    assert _both_apply(rules, game, "take") == Applied()
    assert len(game.state.pile) == pile_after


@pytest.fixture
def fournier() -> Rules:
    return rules_for(load_variant("fournier"))


@pytest.mark.parametrize(("permission", "penalties"), [("yes", [100, 0]), ("no", [])])
def test_a_turn_ended_after_a_yes_without_going_out_is_penalised(
    library: ModuleType, fournier: Rules, permission: str, penalties: list[int]
) -> None:
    """Hook penalty.turn_end (Fournier): asking, being told yes and ending the turn with a discard, not out,
    costs the side; after a no it costs nothing."""
    game = _game(fournier, "8C 8D 5S", ["QH QD QC"], "4S 6S", phase="play", permission=permission)
    game.state.asked_this_turn = True
    assert _both_apply(fournier, game, "discard 5S") == Applied()
    assert game.state.penalties == penalties


@pytest.mark.parametrize(("awaiting", "laid_out"), [(True, ("3H",)), (False, ())])
def test_dealt_bonus_cards_are_laid_out_at_the_seats_first_turn(
    library: ModuleType, fournier: Rules, awaiting: bool, laid_out: tuple[str, ...]
) -> None:
    """Hook bonus_card.at_first_turn (Fournier): a red three dealt to West waits in its hand for its first turn,
    and is laid out and replaced when the turn comes to it; one West already had its first turn with stays."""
    hands = [parse_cards("8C 8D 5S"), parse_cards("3H 9D 9H 10S"), parse_cards("4C 4D 4H"), parse_cards("6C 6D 6H")]
    position = Position(
        hands,
        pile=parse_cards("5C 7D"),
        melds=[[parse_cards("QH QD QC")], []],
        phase="play",
        awaiting_first_turn=[False, awaiting, False, False],
    )
    game = Game.from_position(fournier, position)
    game.state.stock = parse_cards("4S 6S")
    game.state.derived = None
    assert _both_apply(fournier, game, "discard 5S") == Applied()
    assert game.state.bonus[1] == tuple(card for name in laid_out for card in parse_cards(name))


def test_an_action_whose_cards_are_not_held_raises_and_leaves_the_position_whole(
    library: ModuleType, classic: Rules
) -> None:
    """The second group of a meld names a card North does not hold: the first group is not left laid."""
    game = _game(classic, "QS 8C 8D 5S", ["QH QD QC"], "4S 6S", phase="play")
    position = core.load_state(core.new_position(classic), game.state)
    before = position.export()
    applier = NativeApply(classic)
    with pytest.raises(ValueError, match="does not hold card"):
        applier.apply(position, parse_action("meld QS | 8C 8D 8H"))
    assert position.export() == before
    assert (applier.applied_in_c, applier.applied_in_python) == (0, 1)  # the C entry declined it, moving nothing


def test_an_action_is_encoded_for_c_as_flat_small_ints(library: ModuleType) -> None:
    """Its kind's code, the meld a take's top card joins, its cards, then each group: label, meld named, cards."""
    assert encode(parse_action("draw")) == (0, 0, 0, 0)
    assert encode(parse_action("discard 5S")) == (1, 0, 1, *parse_cards("5S"), 0)
    take = parse_action("take 8C 8D + @1: 9H")
    assert encode(take) == (3, 0, 2, *parse_cards("8C 8D"), 1, -1, 1, 1, *parse_cards("9H"))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("discard KS", "a card not held"),
        ("meld @3: 8C", "a meld that is not there"),
        ("take 4S 4S", "cards not held"),
        ("combine @1 @2", "a meld that is not there"),
    ],
)
def test_the_c_entry_declines_what_the_position_cannot_make_moving_nothing(
    library: ModuleType, classic: Rules, text: str, why: str
) -> None:
    game = _game(classic, "8C 8D 5S", ["QH QD QC"], "4S 6S", phase="play", pile="5C 8H")
    position = core.load_state(core.new_position(classic), game.state)
    before = position.export()
    applier = NativeApply(classic)
    assert position.apply(applier.context, encode(parse_action(text))) == -1, why
    assert position.export() == before


@pytest.mark.parametrize(
    ("encoded", "message"),
    [
        ((42, 0, 0, 0), "no action kind 42"),
        ((1, 0, 3, 5, 0), "cards run past its end"),
        ((1, 0, 1, 60, 0), "there is no card 60"),
        ((0, 0, 0, 0, 7), "ints left over"),
        ((0, 0), "too short"),
        ((2, 0, 0, 1, 99, 0, 1, 24), "names no meld rank"),
        ((2, 2**32 + 1, 0, 0), "names meld 4294967297"),  # once cut to an int: meld 1
        ((2, 0, 0, 1, -1, -(2**40), 1, 24), "names meld -1099511627776"),
    ],
)
def test_a_bad_encoded_action_is_refused_in_words(
    library: ModuleType, classic: Rules, encoded: tuple[int, ...], message: str
) -> None:
    position = core.load_state(core.new_position(classic), _game(classic, "8C", [], "4S").state)
    with pytest.raises(ValueError, match=message):
        position.apply(NativeApply(classic).context, encoded)
    with pytest.raises(TypeError, match="ApplyContext"):
        position.apply("not a context", (0, 0, 0, 0))


def test_a_variant_whose_mechanism_the_c_entry_lacks_takes_the_python_path(library: ModuleType) -> None:
    """A bonus card kept as the stock's last card (hook stock.last_card_bonus_kept, Modern American) is declined
    midway on the Python path: the variant has no C context; Classic has one."""
    modern = rules_for(load_variant("modern-american"))
    assert c_declined(modern) == "a bonus card kept as the stock's last card (hook stock.last_card_bonus_kept)"
    assert NativeApply(modern).context is None
    assert c_declined(rules_for(load_variant("classic"))) is None


@pytest.fixture
def hand_and_foot() -> Rules:
    return rules_for(load_variant("hand-and-foot"))


def _hand_and_foot(rules: Rules, cards: str, melds: list[str], foot: str) -> Game:
    """A Hand and Foot hand in play, North holding ``cards`` with ``foot`` face down, the others' feet dealt."""
    hands = [parse_cards(cards), parse_cards("9C 9D 9H 10S"), parse_cards("4C 4D 4H"), parse_cards("6C 6D 6H")]
    feet = [parse_cards(foot), parse_cards("5C 5D"), parse_cards("7C 7D"), parse_cards("10C 10D")]
    laid = [[parse_cards(meld) for meld in melds], []]
    position = Position(hands, pile=parse_cards("5H 7H"), melds=laid, phase="play", feet=feet)
    game = Game.from_position(rules, position)
    game.state.stock = parse_cards("4S 6S KS")
    game.state.derived = None
    return game


@pytest.mark.parametrize(("melded", "closed"), [("8C", True), ("", False)])
def test_a_meld_closes_at_its_canasta_size_where_the_spec_says_so(
    library: ModuleType, hand_and_foot: Rules, melded: str, closed: bool
) -> None:
    """Hook meld.closed (Hand and Foot): a meld of eights grown to seven cards closes; one of six stays open."""
    game = _hand_and_foot(hand_and_foot, f"{melded} 8D 5S 6D 9S", ["8H 8S 8D 8C 8H"], "JC JD")
    assert _both_apply(hand_and_foot, game, f"meld {melded} 8D".strip()) == Applied()
    assert game.state.melds[0][0].closed is closed


@pytest.mark.parametrize(("cards", "foot_left"), [("8C 8D", 0), ("8C 8D 5S", 2)])
def test_a_hand_melded_away_picks_up_the_foot(
    library: ModuleType, hand_and_foot: Rules, cards: str, foot_left: int
) -> None:
    """A player who melds the last cards of the hand plays on from the foot (hook deal.foot_size); one with a card
    left keeps the foot face down."""
    game = _hand_and_foot(hand_and_foot, cards, ["8H 8S 8D"], "JC JD")
    assert _both_apply(hand_and_foot, game, "meld 8C 8D") == Applied()
    assert len(game.state.feet[0]) == foot_left


def test_the_cards_held_count_the_foot_face_down_as_the_reference_does(
    library: ModuleType, hand_and_foot: Rules
) -> None:
    """``cards_held`` (what going out and picking up the foot read on apply's Python path): the hand and the foot,
    as ``HandState.cards_held``; a seat out of range refused by name."""
    game = _hand_and_foot(hand_and_foot, "8C 8D 5S", ["8H 8S 8D"], "JC JD")
    position = core.load_state(core.new_position(hand_and_foot), game.state)
    assert [position.cards_held(seat) for seat in range(4)] == [game.state.cards_held(seat) for seat in range(4)]
    assert position.cards_held(0) == 5
    with pytest.raises(ValueError, match="there is no seat 4"):
        position.cards_held(4)


def _samba(north: str, ours: list[str], theirs: list[str], pile: str, **extra: Any) -> tuple[Rules, Game]:
    """A Samba hand (the scenarios' opponents and partner), North holding ``north``, every seat having melded."""
    samba = rules_for(load_variant("samba"))
    others = ("4D 4H 6S 8H 10C JD AC 5C 7C", "6D 6H 7C 9H JS QC QC 8D 5S", "5S 7D 10S JH KD AS 8C 6C 4C")
    hands = [parse_cards(north), *(parse_cards(hand) for hand in others)]
    melds = [[parse_cards(meld) for meld in ours], [parse_cards(meld) for meld in theirs]]
    position = Position(hands, pile=parse_cards(pile), melds=melds, seat_melded=[True] * 4, **extra)
    return samba, Game.from_position(samba, position)


def test_a_take_and_a_meld_onto_the_sequence_they_name(library: ModuleType) -> None:
    """Samba's melds an action names (hook meld.sequence): the top card taken onto the sequence @1, then a card
    from hand laid on it; a new sequence starts a meld of its own beside it."""
    ours, theirs = ["5H 6H 7H", "QH QS QD"], ["JH JS JD", "AH AS AD"]
    samba, game = _samba("9H 4S 6D KH KS 5D JC 10S JS QS", ours, theirs, "6C 4C 10H 8H")
    assert _both_apply(samba, game, "take @1") == Applied()
    assert _both_apply(samba, game, "meld @1: 9H") == Applied()
    assert _both_apply(samba, game, "meld 10S JS QS") == Applied()
    assert [len(meld.cards) for meld in game.state.melds[0]] == [5, 3, 3]


def test_two_melds_combined_take_the_first_ones_place(library: ModuleType) -> None:
    """Samba's two melds of kings made one (hook meld.combine): the first's place, the melds after the second
    moving up; the turn's flags unchanged."""
    ours = ["KH KS KD", "AH AS AD", "KC KH 2C", "9H 9S 9D"]
    samba, game = _samba("4S 5D 6H 7H 8S 9C 9D JS", ours, ["QH QS QD JK"], "6C 4C 10H", phase="play")
    assert _both_apply(samba, game, "combine @1 @3") == Applied()
    assert [len(meld.cards) for meld in game.state.melds[0]] == [6, 3, 3]


@pytest.mark.parametrize(("sides", "sides_after"), [([0, 1, 2], [0, 1, 1]), ([1, 0, 0], [1, 0, 0])])
def test_the_first_take_of_the_pile_makes_a_lone_hand(
    library: ModuleType, sides: list[int], sides_after: list[int]
) -> None:
    """Hook sides.lone_hand (Classic for three): the first player to take the pile plays alone, the two others
    join one side, their melds pooled; once the sides have formed, a take changes nothing."""
    rules = rules_for(load_variant("classic-3p"))
    hands = [parse_cards("8C 8D 5S 6D"), parse_cards("9C 9D 9H 10S"), parse_cards("4C 4D 4H")]
    melds = [[parse_cards("QH QD QC")], [parse_cards("KH KD KC")], [parse_cards("KS KD KC"), parse_cards("JH JD JC")]]
    position = Position(hands, pile=parse_cards("4S 9S 8S"), melds=melds[: max(sides) + 1], sides=sides)
    game = Game.from_position(rules, position)
    assert _both_apply(rules, game, "take 8C 8D") == Applied()
    assert game.state.side_of == sides_after


@pytest.mark.parametrize("teams", [2, 3])
def test_the_seat_hook_go_out_answerer_names_answers(library: ModuleType, teams: int) -> None:
    """Hook go_out.answerer (Classic for six: seat + teams), asked in C: North's partner two or three seats on."""
    rules = rules_for(derive(load_variant("classic-6p"), {"teams": teams}))
    others = ("9C 9D 4H", "10C 10D 4S", "JC JD 5H", "KC KD 6H", "AC AD 7S")
    hands = [parse_cards("8C 8D 8H 5S"), *(parse_cards(hand) for hand in others)]
    melds = [[parse_cards("QH QD QC QS QH QD QC")], *([] for _ in range(teams - 1))]
    game = Game.from_position(rules, Position(hands, pile=parse_cards("5C 7D"), melds=melds, phase="play"))
    assert _both_apply(rules, game, "ask") == Applied()
    assert game.state.to_act == teams and game.state.phase == "answer"


def test_asking_with_no_partner_is_declined_in_c_and_in_words_on_the_python_path(library: ModuleType) -> None:
    """Classic for two: nobody answers "may I go out?"; the C entry moves nothing, the Python path says why."""
    rules = rules_for(load_variant("classic-2p"))
    hands = [parse_cards("8C 8D 5S"), parse_cards("9C 9D 9H 10S")]
    game = Game.from_position(rules, Position(hands, pile=parse_cards("5C 7D"), melds=[[], []], phase="play"))
    position = core.load_state(core.new_position(rules), game.state)
    before = position.export()
    applier = NativeApply(rules)
    assert position.apply(applier.context, encode(parse_action("ask"))) == -1
    assert applier.apply(position, parse_action("ask")) == "seat 0 has no partner to ask"
    assert position.export() == before
