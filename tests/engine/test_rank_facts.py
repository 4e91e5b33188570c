"""What the sides' canastas make of a rank, as rules read it (``checks.RankFacts``): dead ranks for melds
(``meld.valid``'s ``other_canasta_of_rank``, ``other_natural_canasta_of_rank``) and discards
(``discard.allowed``'s ``canasta_of_rank``), a side's open wild meld (``team_wild_meld_open``), and the discards
a player may make only without an alternative (hook ``discard.preferred``). Modern American reads them all;
Classic reads none, and its answers stay as they were."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from listing_kit import written_variant

from canasta_ref import Game, IllegalAction, Variant, load_variant, parse_action
from canasta_ref.engine.cards import parse_cards, rank_of
from canasta_ref.engine.checks import NO_RANK_FACTS, rank_facts
from canasta_ref.engine.position import Position

_HEADER = """\
spec: 1
id: {id}
name: {id}
description: A variant with one more rule, for a test.
extends: {base}
rules:
  - id: {rule}
    section: {section}
    title: A rule under test
    text: A rule under test.
    sources: [{{source: canasta-ref, quote: "A rule under test."}}]
    hook: {hook}
    require: {expression}
"""

CLASSIC = load_variant("classic")


def _variant(tmp_path: Path, rule: str, section: str, hook: str, expression: str, *, base: str = "classic") -> Variant:
    text = _HEADER.format(id="child", base=base, rule=rule, section=section, hook=hook, expression=expression)
    return written_variant(tmp_path, "child", text)


@pytest.fixture
def dead_ranks(tmp_path: Path) -> Variant:
    return _variant(tmp_path, "MELD.DEAD_RANK", "melds", "meld.valid", "not other_canasta_of_rank")


@pytest.fixture
def dead_if_natural(tmp_path: Path) -> Variant:
    return _variant(tmp_path, "MELD.DEAD_RANK", "melds", "meld.valid", "not other_natural_canasta_of_rank")


@pytest.fixture
def wild_meld_first(tmp_path: Path) -> Variant:
    """Bolivia, whose melds of three to seven wild cards can be open, with the rule that reads it."""
    expression = 'not team_wild_meld_open or kind == "wild" or added_wilds == 0'
    return _variant(tmp_path, "MELD.WILD.OPEN_FIRST", "melds", "meld.valid", expression, base="bolivia")


@pytest.fixture
def dead_last_on_empty(tmp_path: Path) -> Variant:
    return _variant(
        tmp_path, "DISCARD.DEAD_ON_EMPTY", "turn", "discard.preferred", "pile_size > 0 or not canasta_of_rank"
    )


def _game(
    variant: Variant, north: str, *, theirs: Sequence[str], ours: Sequence[str] = ("QH QS QD",), pile: str = ""
) -> Game:
    """North to play, North-South open with ``ours``, East-West with ``theirs``."""
    position = Position(
        hands=[parse_cards(north), parse_cards("4C 4D 6S"), parse_cards("5C 8D 9S"), parse_cards("6C 6D JS")],
        pile=parse_cards(pile),
        melds=[[parse_cards(m) for m in ours], [parse_cards(m) for m in theirs]],
        to_act=0,
        phase="play",
    )
    return Game.from_position(variant, position)


def _refused_by(game: Game, text: str) -> str | None:
    action = parse_action(text)
    listed = action in game.legal_actions()
    try:
        game.check(action)
    except IllegalAction as refusal:
        assert not listed, f"{text} is listed but refused by {refusal.rule_id}"
        return refusal.rule_id
    assert listed, f"{text} is accepted but not listed"
    return None


NATURAL_KINGS = "KH KH KS KS KD KD KC"
MIXED_KINGS = "KH KS KS KD KD KC 2C"


def test_a_rank_the_other_side_has_a_canasta_of_is_dead(dead_ranks: Variant) -> None:
    game = _game(dead_ranks, "KC KH 2H 5H 9H", theirs=[MIXED_KINGS])
    assert _refused_by(game, "meld KC KH 2H") == "MELD.DEAD_RANK"
    assert _refused_by(_game(CLASSIC, "KC KH 2H 5H 9H", theirs=[MIXED_KINGS]), "meld KC KH 2H") is None


def test_a_rank_is_not_dead_while_the_other_sides_meld_is_short_of_a_canasta(dead_ranks: Variant) -> None:
    game = _game(dead_ranks, "KC KH KS 5H 9H", theirs=["KH KS KD KC 2D 2S"])
    assert _refused_by(game, "meld KC KH KS") is None


def test_the_sides_own_canasta_does_not_make_a_rank_dead_for_it(dead_ranks: Variant) -> None:
    game = _game(dead_ranks, "QC 5H 9H", theirs=["JH JS JD"], ours=["QH QS QD QC QH QS QD"])
    assert _refused_by(game, "meld QC") is None


def test_natural_dead_ranks_are_told_apart_from_mixed_ones(dead_if_natural: Variant) -> None:
    assert _refused_by(_game(dead_if_natural, "KC KH 2H 5H 9H", theirs=[MIXED_KINGS]), "meld KC KH 2H") is None
    game = _game(dead_if_natural, "KC 5H", theirs=[NATURAL_KINGS])  # one king is left: read the facts themselves
    facts = rank_facts(game.rules, game.state, 0)
    king = rank_of(parse_cards("KC")[0])
    assert facts.of(king) == (True, True, False)
    assert rank_facts(game.rules, game.state, 1).of(king) == (False, False, False)  # East-West's own canasta
    assert facts.canasta_of(king) and rank_facts(game.rules, game.state, 1).canasta_of(king)


def test_classic_computes_no_rank_facts() -> None:
    game = _game(CLASSIC, "KC 5H", theirs=[NATURAL_KINGS])
    assert not game.rules.reads_rank_facts
    assert rank_facts(game.rules, game.state, 0) is NO_RANK_FACTS


def test_no_wild_card_elsewhere_while_the_sides_wild_meld_is_open(wild_meld_first: Variant) -> None:
    open_wild = ["QH QS QD", "2C 2D JK"]
    game = _game(wild_meld_first, "QC 2H 5H 9H", theirs=["JH JS JD"], ours=open_wild)
    assert _refused_by(game, "meld @1: QC 2H") == "MELD.WILD.OPEN_FIRST"
    assert _refused_by(game, "meld @1: QC") is None
    complete_wild = ["QH QS QD", "2C 2D 2S 2H JK JK JK"]
    game = _game(wild_meld_first, "QC 2H 5H 9H", theirs=["JH JS JD"], ours=complete_wild)
    assert _refused_by(game, "meld @1: QC 2H") is None


def test_a_listing_judged_before_the_wild_meld_was_laid_is_not_reused_after(wild_meld_first: Variant) -> None:
    """The listing caches a rank's valid groups across positions: the rank facts are part of the key, so the
    same hand, meld and table values with the wild meld now open are judged again."""
    before = _game(wild_meld_first, "QC 2H 5H 9H", theirs=["JH JS JD"], ours=["QH QS QD"])
    assert _refused_by(before, "meld @1: QC 2H") is None
    after = _game(wild_meld_first, "QC 2H 5H 9H", theirs=["JH JS JD"], ours=["QH QS QD", "2C 2D JK"])
    assert _refused_by(after, "meld @1: QC 2H") == "MELD.WILD.OPEN_FIRST"


def test_a_dead_card_goes_onto_an_empty_pile_only_without_an_alternative(dead_last_on_empty: Variant) -> None:
    game = _game(dead_last_on_empty, "KH 5C", theirs=[MIXED_KINGS])
    assert _refused_by(game, "discard KH") == "DISCARD.DEAD_ON_EMPTY"
    assert _refused_by(game, "discard 5C") is None
    only_dead = _game(dead_last_on_empty, "KH KC", theirs=[MIXED_KINGS])
    assert _refused_by(only_dead, "discard KH") is None
    onto_cards = _game(dead_last_on_empty, "KH 5C", theirs=[MIXED_KINGS], pile="9C")
    assert _refused_by(onto_cards, "discard KH") is None


def test_the_sides_own_canasta_makes_its_rank_dead_for_discards(dead_last_on_empty: Variant) -> None:
    game = _game(dead_last_on_empty, "QC 5C", theirs=["JH JS JD"], ours=["QH QS QD QC QH QS QD"])
    assert _refused_by(game, "discard QC") == "DISCARD.DEAD_ON_EMPTY"
    assert (
        _refused_by(_game(CLASSIC, "QC 5C", theirs=["JH JS JD"], ours=["QH QS QD QC QH QS QD"]), "discard QC") is None
    )


TIERED = """\
spec: 1
id: tiered
name: tiered
description: Classic with two discard preferences, the stronger first.
extends: classic
rules:
  - id: DISCARD.WILD
    section: turn
    title: Wild cards last
    text: A wild card is discarded only when nothing else may go.
    sources: [{source: canasta-ref, quote: "A rule under test."}]
    hook: discard.preferred
    require: not is_wild
  - id: DISCARD.SEVENS
    section: turn
    title: Sevens onto an empty pile only without an alternative
    text: Onto an empty pile a seven is discarded only when nothing else may go.
    sources: [{source: canasta-ref, quote: "A rule under test."}]
    hook: discard.preferred
    require: pile_size > 0 or rank != "7"
"""


@pytest.fixture
def tiered(tmp_path: Path) -> Variant:
    return written_variant(tmp_path, "tiered", TIERED)


def test_an_earlier_preference_outranks_a_later_one(tiered: Variant) -> None:
    """A wild card and a seven are each passed over; the seven, refused only by the weaker rule, goes first."""
    game = _game(tiered, "2C 7C", theirs=["JH JS JD"])
    assert _refused_by(game, "discard 2C") == "DISCARD.WILD"
    assert _refused_by(game, "discard 7C") is None
    game = _game(tiered, "2C 7C 5H", theirs=["JH JS JD"])
    assert _refused_by(game, "discard 7C") == "DISCARD.SEVENS" and _refused_by(game, "discard 5H") is None
    wild_only = _game(tiered, "2C 2D", theirs=["JH JS JD"])
    assert _refused_by(wild_only, "discard 2C") is None
