"""The draw phase's listing as random play calls it, in C with no Python object (``draw_listing_into``): the loop
choosing from it plays the reference's hands (test_core_play.py), and the timings ``tools/bench_core.py --draw``
reads count what they say: the questions a listing asks, the draw steps of the loop by kind. No time is asserted."""

from __future__ import annotations

from types import ModuleType

import pytest

from canasta_ref import core
from canasta_ref.core.listing import NativeDrawListing, NativeListing
from canasta_ref.core.play import RandomPlay, decode
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.position import Position, build_state
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.engine.state import HandState
from canasta_ref.spec import load_variant


@pytest.fixture
def classic() -> Rules:
    return rules_for(load_variant("classic"))


def _to_draw(rules: Rules, cards: str, pile: str, melds: list[str], opened: bool = True) -> HandState:
    """Classic in the draw phase: North holding ``cards``, North-South having laid ``melds``."""
    hands = [parse_cards(cards), parse_cards("9C 9D 9H 10S"), parse_cards("4C 4D 4H"), parse_cards("6C 6D 6H")]
    laid = [[parse_cards(meld) for meld in melds], []]
    state = build_state(rules, Position(hands, pile=parse_cards(pile), melds=laid))[0]
    state.team_opened[0] = opened
    return state


def _draw(rules: Rules) -> NativeDrawListing:
    draw = NativeListing(rules).draw
    assert draw is not None
    return draw


def _asked(draw: NativeDrawListing) -> int:
    """How many questions the draw phase's memos have answered so far (hits and misses)."""
    melds = draw.melds
    memos = [*draw.memos, melds.shapes.valid.memo, melds.go_out.memo, melds.keep_card.memo]
    return sum(memo.counts()["hits"] + memo.counts()["misses"] for memo in memos if memo is not None)


@pytest.mark.parametrize(
    ("cards", "pile", "melds", "opened"),
    [
        ("8C 8D 2H 5S", "4C 8S", ["QH QD QC"], True),  # takes with a natural pair and with a wild card
        ("8C 8D 2H 5S", "2C 4C 8S", ["QH QD QC"], True),  # frozen: the natural pair alone
        ("8C 5D 6H 5S", "4C KS", [], False),  # not opened, nothing to take with
    ],
)
def test_a_timed_listing_counts_the_questions_one_listing_asks(
    library: ModuleType, classic: Rules, cards: str, pile: str, melds: list[str], opened: bool
) -> None:
    draw = _draw(classic)
    position = core.load_state(core.new_position(classic), _to_draw(classic, cards, pile, melds, opened))
    found = draw.found(position)  # every answer kept
    assert found is not None
    before = _asked(draw)
    assert draw.found(position) == found
    one = _asked(draw) - before
    for objects in (False, True):
        seconds, asking, building, questions = position.time_draw_listing(draw.context, 3, objects)
        assert questions == one > 0
        assert min(seconds, asking, building) >= 0.0
    assert _asked(draw) - before == one * (1 + 2 * (1 + 3 + 3))  # the first listing, the timed ones, the replays
    assert draw.found(position) == found  # the position unmoved


def test_a_timed_listing_refuses_a_repeat_below_one(library: ModuleType, classic: Rules) -> None:
    draw = _draw(classic)
    position = core.load_state(core.new_position(classic), _to_draw(classic, "8C 8D 2H 5S", "4C 8S", ["QH QD QC"]))
    with pytest.raises(ValueError, match="a listing timed 0 times, expected 1 or more"):
        position.time_draw_listing(draw.context, 0)


def test_the_loop_times_each_draw_step_under_its_kind(library: ModuleType, classic: Rules) -> None:
    play = RandomPlay(classic)
    library.draw_steps_timed(True)
    try:
        played = [play.hand(f"timing/{n}", n, record=True) for n in range(3)]
    finally:
        kinds, reading = library.draw_steps_timed(False)
    draws = sum(decode(encoded).kind in ("draw", "take") for hand in played for encoded in hand.actions)
    assert sum(steps + cut for steps, _seconds, _misses, cut, _unmissed, _clean in kinds) == draws
    opened, takes_none, with_takes = kinds
    assert opened[0] + opened[3] > 0 and takes_none[0] + takes_none[3] > 0
    # a side not opened that may take the pile: its takes counted with the opening and chosen in C, none in Python
    assert with_takes[0] + with_takes[3] > 0 and sum(hand.in_python for hand in played) == 0
    for steps, seconds, misses, _cut, unmissed, clean in kinds:  # a step that missed no answer is one of them
        assert 0 <= unmissed <= steps and 0.0 <= clean <= seconds and misses >= 0
        assert unmissed == steps or misses > 0
    assert reading >= 0.0
    play.hand("timing/off", 9)
    assert library.draw_steps_timed(False)[0] == ((0, 0.0, 0, 0, 0, 0.0),) * 3  # off: nothing counted
