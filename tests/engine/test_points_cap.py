"""The points cap of the opening structure (``legal._points_cap``) asks the initial-meld hooks only about the canasta
counts and ways of going out concealed that their clauses read (``checks.initial_meld_reads``): a value no clause
reads cannot change an answer. The cap must be the one found by asking about every count and way, as a slow
reference does here: for variants whose clauses read the canastas (Modern American) and variants whose clauses do
not (Classic, Samba), and for a house rule written here under which a mixed canasta or going out concealed by a
discard raises the minimum, so that the cap depends on the counts read (skipping them would lower it)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from listing_kit import every_total_cap, written_variant

from canasta_ref import Rules, Variant, load_variant
from canasta_ref.engine import legal
from canasta_ref.engine.checks import COMPOSITIONS, CanastaKinds, initial_meld_reads
from canasta_ref.engine.combos import Option
from canasta_ref.engine.movegen import HandCards, Shape, hand_cards
from canasta_ref.scaling import scaling_position


def _reference_cap(listing: legal._Listing, options: list[list[Option]], hand: HandCards) -> int:
    """The points from which no answer changes, for every count of canastas by kind the hand could make, every
    way of going out concealed and every composition, whatever the clauses read."""
    rules, state = listing.rules, listing.state  # the seat to act: the listing's
    twos, joker = legal._wild_points(rules)
    highest = sum(max((o.points for o in opts), default=0) for opts in options)
    highest += hand.twos_total * twos + hand.jokers * joker
    most = [sum(1 for opts in options if any(o.kind == kind for o in opts)) for kind in range(3)]
    every_kinds = [CanastaKinds(*counts) for counts in itertools.product(*(range(m + 1) for m in most))]
    flags = ((False, False), (True, False), (False, True))
    return every_total_cap(rules, state, highest, every_kinds, flags, COMPOSITIONS)


DEARER_OPENING = """\
spec: 1
id: dearer-opening
name: Dearer opening (a test's house rule)
description: Classic, but an opening with a mixed canasta, or going out concealed by a discard, needs more points.
extends: classic
sources:
  house: {title: "A house rule written for this test"}
rules:
  - id: HOUSE.OPENING.DEARER
    section: initial-meld
    title: A dearer opening
    text: An opening needs 50 more points a mixed canasta, and 100 more to go out concealed by a discard.
    sources: [{source: house, quote: "50 more a mixed canasta, 100 more going out by a discard"}]
    hook: initial_meld.valid
    require: >-
      count >= minimum + 50 * mixed_canastas + (if going_out_concealed_by_discard then 100 else 0)
"""


def _variant(name: str, folder: Path) -> Variant:
    if name == "dearer-opening":
        return written_variant(folder, name, DEARER_OPENING)
    return load_variant(name)


@pytest.mark.parametrize("variant", ["classic", "modern-american", "samba", "dearer-opening"])
@pytest.mark.parametrize("cards", [20, 30])
@pytest.mark.parametrize("score", [-200, 0, 1600, 3200])
def test_the_points_cap_is_the_one_every_question_finds(variant: str, cards: int, score: int, tmp_path: Path) -> None:
    rules = Rules(_variant(variant, tmp_path))
    game = scaling_position(rules, cards, opened=False, phase="play")
    state = game.state
    state.team_scores = [score] * len(state.team_scores)
    listing = legal._Listing(rules, state)
    hand = hand_cards(rules, state, listing.seat)
    options = []
    for rank in hand.meld_ranks(state.melds[listing.team]):
        found = legal._rank_shapes(listing, rank, hand.count(rank), hand.twos_total, hand.jokers, True)
        shapes = [Shape(rank, n, t, j) for n, t, j, *_ in found]
        options.append(legal._options(listing, hand, shapes, True))
    assert any(opts for opts in options)
    assert legal._points_cap(listing, options, hand, top_points=0, taking=False) == _reference_cap(
        listing, options, hand
    )


def test_which_variants_read_the_canastas_when_judging_an_opening() -> None:
    """Both sides of the shortcut: Modern American's opening reads natural and wild canastas (so every count of
    them is asked), Classic's reads none of them but reads going out concealed."""
    american = Rules(load_variant("modern-american"))
    classic = Rules(load_variant("classic"))
    assert initial_meld_reads(american, "natural_canastas") and initial_meld_reads(american, "wild_canastas")
    assert not initial_meld_reads(american, "mixed_canastas")
    assert not any(initial_meld_reads(classic, name) for name in ("natural_canastas", "mixed_canastas"))
    assert initial_meld_reads(classic, "going_out_concealed")


def test_points_are_asked_about_in_steps_of_the_cards_common_divisor() -> None:
    """Classic's cards count 5, 10, 20, 50 and 100 melded: every total a hand reaches is a multiple of 5."""
    rules = Rules(load_variant("classic"))
    assert rules.points_unit == 5
    assert all(value % rules.points_unit == 0 for value in rules.card_value)
