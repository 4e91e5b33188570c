"""What a side's opening is made of (hook initial_meld.valid's ``clean_meld``, ``wild_meld``,
``three_naturals_meld`` and its canastas by kind): Modern American asks for a natural meld of three or more (or
a meld of wild cards) among the initial melds, and lets a complete canasta from hand open below the minimum.
Each case is judged the same by ``plan`` and by the listing, plain and as a structure (``combos.Combinations``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from listing_kit import each_listing, legal_by_plan, refusal, written_variant

from canasta_ref import Game, load_variant, parse_action
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.checks import CLEAN_MELD, THREE_NATURALS_MELD, WILD_MELD, composition_of
from canasta_ref.engine.position import Position
from canasta_ref.engine.rules import Rules, rules_for

SPEC = """\
spec: 1
id: {id}
name: {id}
description: Classic whose opening must include a natural meld of three, unless it lays a natural canasta.
extends: classic
rules:
  - id: INITIAL_MELD.COMPOSITION
    section: initial-meld
    title: A natural meld in the opening
    text: The initial meld includes a meld of three or more natural cards without wild cards.
    sources: [{{source: canasta-ref, quote: "A rule under test."}}]
    hook: initial_meld.valid
    require: {composition}
  - id: INITIAL_MELD.REQUIRED
    replaces: true
    section: initial-meld
    title: The minimum, or a natural canasta
    text: The opening reaches the minimum, or lays a natural canasta.
    sources: [{{source: canasta-ref, quote: "A rule under test."}}]
    hook: initial_meld.valid
    require: count >= minimum or natural_canastas > 0
"""


def _rules(folder: Path, name: str, composition: str) -> Rules:
    return rules_for(written_variant(folder, name, SPEC.format(id=name, composition=composition)))


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    return _rules(tmp_path_factory.mktemp("spec"), "clean-opening", "clean_meld")


@pytest.fixture(scope="module")
def three_naturals(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    return _rules(tmp_path_factory.mktemp("spec"), "three-naturals-opening", "three_naturals_meld or wild_meld")


def _game(rules: Rules, north: str, *, phase: str = "play", pile: str = "8S") -> Game:
    position = Position(
        hands=[parse_cards(north), parse_cards("5C 6D"), parse_cards("5D 6H"), parse_cards("5H 6S")],
        pile=parse_cards(pile),
        phase=phase,  # type: ignore[arg-type]
    )
    return Game.from_position(rules, position)


def test_what_a_meld_is_made_of() -> None:
    king, joker = 11, 13
    assert composition_of(king, 3, 0) == CLEAN_MELD | THREE_NATURALS_MELD
    assert composition_of(king, 3, 1) == THREE_NATURALS_MELD
    assert composition_of(king, 2, 1) == 0
    assert composition_of(joker, 0, 3) == WILD_MELD


@pytest.mark.parametrize(
    ("north", "opening", "allowed"),
    [
        ("KC KD 2C QC QD 2D 9C 9D", "meld KC KD 2C | QC QD 2D", False),  # 60 points, no natural meld
        ("KC KD KH QC QD 2D 9C 9D", "meld KC KD KH | QC QD 2D", True),  # the kings are a natural meld
    ],
)
def test_an_opening_needs_a_natural_meld(clean: Rules, north: str, opening: str, allowed: bool) -> None:
    for _ in each_listing():
        assert (parse_action(opening) in legal_by_plan(clean, _game(clean, north))) is allowed
    expected = None if allowed else "INITIAL_MELD.COMPOSITION"
    assert refusal(_game(clean, north), opening) == expected
    classic = rules_for(load_variant("classic"))
    assert refusal(_game(classic, north), opening) is None


def test_a_meld_of_three_naturals_with_a_wild_card_is_enough_for_the_lenient_rule(
    clean: Rules, three_naturals: Rules
) -> None:
    north, opening = "KC KD KH 2C QC QD 2D 9C 9D", "meld KC KD KH 2C | QC QD 2D"
    for _ in each_listing():
        assert parse_action(opening) in legal_by_plan(three_naturals, _game(three_naturals, north))
        assert parse_action(opening) not in legal_by_plan(clean, _game(clean, north))


def test_a_natural_canasta_opens_below_the_minimum(clean: Rules) -> None:
    """Seven fours are 35 points, below Classic's 50, but a natural canasta (and a natural meld)."""
    north = "4C 4D 4H 4S 4C 4D 4H 9C 9D"
    for _ in each_listing():
        legal_now = legal_by_plan(clean, _game(clean, north))
        assert parse_action("meld 4C 4D 4H 4S 4C 4D 4H") in legal_now
        assert parse_action("meld 4C 4D 4H 4S 4C 4D") not in legal_now
    assert refusal(_game(clean, north), "meld 4C 4D 4H 4S 4C 4D") == "INITIAL_MELD.REQUIRED"


def test_a_take_whose_pair_and_top_card_make_the_natural_meld(clean: Rules) -> None:
    """Taking the pile with a natural pair: the top card's meld, as laid, is the natural meld of three."""
    north = "KC KD QC QD 2D 9C 9D"
    take = parse_action("take KC KD + QC QD 2D")
    for _ in each_listing():
        assert take in legal_by_plan(clean, _game(clean, north, phase="draw", pile="5S KH"))
    assert refusal(_game(clean, north, phase="draw", pile="5S KH"), str(take)) is None
    wild_pair = "KC 2C QC QD 2D 9C 9D"
    dirty = parse_action("take KC 2C + QC QD 2D")
    assert refusal(_game(clean, wild_pair, phase="draw", pile="5S KH"), str(dirty)) is not None


def test_classic_reads_no_composition(clean: Rules) -> None:
    assert clean.reads_composition
    assert not rules_for(load_variant("classic")).reads_composition


FROM_HAND = """\
  - id: INITIAL_MELD.FROM_HAND
    section: initial-meld
    title: The natural meld comes from hand
    text: The pile's top card does not make the natural meld of an opening that takes the pile.
    sources: [{source: canasta-ref, quote: "A rule under test."}]
    hook: initial_meld.composition_from_hand
    when: "true"
"""


@pytest.fixture(scope="module")
def from_hand(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    text = SPEC.format(id="clean-from-hand", composition="clean_meld") + FROM_HAND
    return rules_for(written_variant(tmp_path_factory.mktemp("spec"), "clean-from-hand", text))


def test_where_the_natural_meld_comes_from_hand_the_top_card_does_not_make_it(from_hand: Rules) -> None:
    """Modern American's INITIAL_MELD.FROM_HAND: a pair and the top card are not the natural meld; three natural
    cards from hand are, and the top card joins them. Listed and judged alike."""
    assert from_hand.composition_from_hand
    pair, three = "KC KD QC QD 2D 9C 9D", "KC KD KS QC QD 2D 9C 9D"
    with_pair, with_three = parse_action("take KC KD + QC QD 2D"), parse_action("take KC KD KS + QC QD 2D")
    for _ in each_listing():
        assert with_pair not in legal_by_plan(from_hand, _game(from_hand, pair, phase="draw", pile="5S KH"))
        assert with_three in legal_by_plan(from_hand, _game(from_hand, three, phase="draw", pile="5S KH"))
    assert refusal(_game(from_hand, pair, phase="draw", pile="5S KH"), str(with_pair)) == "INITIAL_MELD.COMPOSITION"
    assert refusal(_game(from_hand, three, phase="draw", pile="5S KH"), str(with_three)) is None
