"""The takes of a side that has not opened chosen by the C random-play loop (``native/play.c``, ``choose_in_takes``):
counted with the opening (``native/takes.c``) and made by index there, the same action at the same index as the
Python listing's (``NativeTakeCount.of``, the reference's order), so a seeded hand plays exactly as it did when those
takes went to Python; where the core does not count them, the loop still hands them over."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from canasta_ref import core
from canasta_ref.core.listing import NativeListing, NativeTakeCount
from canasta_ref.core.play import PlayedHand, RandomPlay, decode, replay
from canasta_ref.engine.actions import Action
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.checks import initial_minimum
from canasta_ref.engine.legal import listing
from canasta_ref.engine.position import Position, build_state
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.engine.state import HandState
from canasta_ref.spec import load_variant


def _rules(variant: str) -> Rules:
    return rules_for(load_variant(variant))


def _both_paths(rules: Rules, deal: str, seed: int) -> tuple[PlayedHand, PlayedHand]:
    """The hand dealt from ``deal`` played with the generator seeded ``seed``: by the loop choosing the takes of a
    side not opened in C, and with those takes chosen in Python (``RandomPlay.takes`` None), as before."""
    in_c, in_python = RandomPlay(rules), RandomPlay(rules)
    in_python.takes = None
    return in_c.hand(deal, seed, record=True), in_python.hand(deal, seed, record=True)


def _takes_with_further_melds(played: PlayedHand) -> list[Action]:
    """The takes with further melds a hand made: only a side that has not opened makes them."""
    return [action for action in map(decode, played.actions) if action.kind == "take" and action.melds]


def test_a_hand_that_meets_takes_of_a_side_not_opened_is_played_wholly_in_c(library: ModuleType) -> None:
    rules = _rules("classic")
    in_c, in_python = _both_paths(rules, "takes/24", 24)
    assert in_python.in_python == 1  # the take of a side not opened went to Python
    assert (in_c.in_c, in_c.in_python) == (in_python.in_c + 1, 0)  # now chosen and applied in C
    assert [decode(action) for action in in_c.actions] == [decode(action) for action in in_python.actions]
    assert in_c.counts == in_python.counts
    assert in_c.final == in_python.final and in_c.ended == in_python.ended
    # the take went with further melds, a wild card in its group and in its meld
    assert [str(action) for action in _takes_with_further_melds(in_c)] == ["take KC KS 2S + JD JH 2D"]
    assert replay(rules, in_c) == []


@pytest.mark.parametrize(
    ("variant", "deal"),
    [("classic-2p", "takes/2"), ("classic-6p", "takes/1"), ("fournier", "takes/1"), ("hand-and-foot", "takes/1")],
)
def test_the_loop_chooses_the_takes_the_python_path_chose(library: ModuleType, variant: str, deal: str) -> None:
    rules = _rules(variant)
    in_c, in_python = _both_paths(rules, deal, 1)
    assert in_python.in_python > 0 and in_c.in_python == 0
    assert in_c.in_c == in_python.in_c + in_python.in_python
    assert [decode(action) for action in in_c.actions] == [decode(action) for action in in_python.actions]
    assert in_c.counts == in_python.counts
    assert replay(rules, in_c) == []


def _to_draw(rules: Rules, cards: str, pile: str) -> HandState:
    """A position of ``rules`` in the draw phase: North holding ``cards``, no side opened."""
    others = ("9C 9D 9H 10S", "4C 4D 4H", "6C 6D 6H")[: rules.players - 1]
    hands = [parse_cards(cards), *(parse_cards(hand) for hand in others)]
    return build_state(rules, Position(hands, pile=parse_cards(pile)))[0]


@pytest.mark.parametrize(
    "cards",
    [
        "AC AD AH 2C 2D JK KC KD KH QC QD QH 5S 6D",  # many groups of aces and wild cards, further melds of each
        "AC AD 8C 8D KC KD KH 5S 6D 9C",  # a pair taken alone, or with kings to meet the minimum
    ],
)
def test_every_take_is_made_by_its_index_as_the_listing_makes_it(library: ModuleType, cards: str) -> None:
    rules = _rules("classic")
    state = _to_draw(rules, cards, "4C AS")
    position = core.load_state(core.new_position(rules), state)
    draw = NativeListing(rules).draw
    assert draw is not None
    takes = NativeTakeCount(rules, draw)
    minimum = initial_minimum(rules, state, state.to_act)
    *_found, kept = position.take_listing(takes.context, takes.questions, minimum, takes.from_hand)
    reference = list(listing(rules, state))
    count = len(reference)
    assert count == takes.count(position, minimum) > 2
    indexes = {*range(min(count, 300)), *random.Random(3).sample(range(count), min(count, 200)), count - 1}
    for index in sorted(indexes):
        assert decode(library.encoded_take(position, kept, index)) == reference[index], index
    with pytest.raises(IndexError, match=f"take {count} of {count}"):
        library.encoded_take(position, kept, count)


#: ``Position.play``'s stops (``native/play.c``): where Python takes over, and after the most actions asked for.
_STOP_PYTHON, _STOP_MOST = 2, 3


@pytest.mark.parametrize(
    ("takes_bound", "minimums", "stop", "applied"),
    [(True, True, _STOP_MOST, 1), (False, True, _STOP_PYTHON, 0), (True, False, _STOP_PYTHON, 0)],
)
def test_the_loop_takes_only_the_takes_it_counts(
    library: ModuleType, takes_bound: bool, minimums: bool, stop: int, applied: int
) -> None:
    """A side not opened that may take the pile: the loop chooses among its takes where they are bound and the
    seat's minimum loaded (it stops after one action, ``most``), and hands the position to Python otherwise."""
    rules = _rules("classic")
    play = RandomPlay(rules)
    state = _to_draw(rules, "AC AD 8C 8D KC KD KH 5S 6D 9C", "4C AS")
    position = core.load_state(play.position, state)
    position.set_minimums(play.minimums(state) if minimums else None)
    takes = play.takes if takes_bound else None
    found = position.play(play.context, play.apply.context, play.openings, play.answers, None, 1, takes)
    assert (found[0], found[2]) == (stop, applied)
