"""Random play on the core (``core/play.py``, ``native/play.c``): whole hands played by the C loop, every action
replayed through the reference ``Game`` (each one it lists; the position, the hand's end and its score the
reference's at the end), in each variant the core lists and applies; the same seed the same hand; a replay that
finds a fault; the variants the loop declines, by the mechanism they lack. The long run is
``tools/prove_core.py --play``."""

from __future__ import annotations

from types import ModuleType

import pytest

from canasta_ref import core
from canasta_ref.core import CoreUnavailable
from canasta_ref.core.apply import encode
from canasta_ref.core.listing import NativeOpeningCount, NativePlayListing
from canasta_ref.core.play import PlayedHand, RandomPlay, decode, prove_play, replay, state_of
from canasta_ref.engine.actions import Action
from canasta_ref.engine.cards import parse_cards
from canasta_ref.engine.checks import initial_minimum
from canasta_ref.engine.game import Game
from canasta_ref.engine.legal import listing
from canasta_ref.engine.position import Position, build_state
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.spec import load_variant

#: The variants whose every position of play the core lists (a side not opened's takes apart) and applies in C.
COVERED = ("classic", "classic-2p", "classic-3p", "classic-6p", "fournier", "hand-and-foot", "hoyle-2p")


def _rules(variant: str) -> Rules:
    return rules_for(load_variant(variant))


@pytest.mark.parametrize("variant", COVERED)
def test_every_hand_the_loop_plays_is_the_references(library: ModuleType, variant: str) -> None:
    rules = _rules(variant)
    play = RandomPlay(rules)
    for number in range(2):
        played = play.hand(f"play/{number}", number, record=True)
        assert played.in_c > 0
        assert len(played.actions) == len(played.counts) == played.in_c + played.in_python
        assert played.ended.ended is not None
        assert replay(rules, played) == []


def test_the_sides_scores_raise_the_minimum_the_loop_counts_openings_with(library: ModuleType) -> None:
    rules = _rules("classic")
    play = RandomPlay(rules)
    start = Game(rules, seed="play/scores", team_scores=(1500, 3000), hand_number=4).state
    assert play.minimums(start) == ((90, 120),) * 4
    for number in range(3):  # every opening count the loop made checked against the reference's
        played = play.hand(f"play/scores/{number}", number, record=True, scores=(1500, 3000), hand_number=4)
        assert replay(rules, played) == []
        assert played.scores == (1500, 3000)


def test_the_same_seed_plays_the_same_hand(library: ModuleType) -> None:
    play = RandomPlay(_rules("classic"))
    first, again = (play.hand("play/same", 7, record=True) for _ in range(2))
    assert first.actions == again.actions
    assert first.ended == again.ended
    assert play.hand("play/same", 8, record=True).actions != first.actions


def test_the_generator_is_the_position_s_own(library: ModuleType) -> None:
    play = RandomPlay(_rules("classic"))
    position = play.position
    position.seed(5)
    drawn = [position.below(1000) for _ in range(20)]
    position.seed(5)
    assert [position.below(1000) for _ in range(20)] == drawn
    assert all(0 <= number < 1000 for number in drawn)
    assert len(set(drawn)) > 10
    with pytest.raises(ValueError, match="a number below 0"):
        position.below(0)


def test_a_replay_finds_an_action_the_reference_does_not_list(library: ModuleType) -> None:
    rules = _rules("classic")
    played = RandomPlay(rules).hand("play/fault", 3, record=True)
    first = decode(played.actions[0])
    assert first == Action.draw()  # the hand opens with a draw: a discard there is not listed
    wrong = PlayedHand(played.deal, played.seed, played.ended, actions=[encode(Action.discard(0)), *played.actions])
    wrong.counts = [1, *played.counts]
    faults = replay(rules, wrong)
    assert faults and "action 1, `discard" in faults[0] and "not legal in the reference" in faults[0]


def test_a_replay_finds_an_action_chosen_among_too_few(library: ModuleType) -> None:
    rules = _rules("classic")
    played = RandomPlay(rules).hand("play/count", 3, record=True)
    played.counts[5] -= 1  # as if the loop had left one action out of its count
    faults = replay(rules, played)
    assert len(faults) == 1 and f"action 6, `{decode(played.actions[5])}`, chosen among" in faults[0]


def test_a_replay_finds_a_position_that_differs_at_the_end(library: ModuleType) -> None:
    rules = _rules("classic")
    played = RandomPlay(rules).hand("play/end", 4, record=True)
    played.final = {**played.final, "to_act": (played.final["to_act"] + 1) % rules.players}
    assert any("to_act differs at the end" in fault for fault in replay(rules, played))


def test_decode_gives_back_what_encode_made(library: ModuleType) -> None:
    rules = _rules("classic")
    for played in (RandomPlay(rules).hand(f"play/decode/{n}", n, record=True) for n in range(2)):
        actions = [decode(encoded) for encoded in played.actions]
        assert [decode(encode(action)) for action in actions] == actions
        assert {action.kind for action in actions} >= {"draw", "discard", "meld", "take", "ask", "yes", "no"}


@pytest.mark.parametrize(
    ("variant", "lacking"),
    [
        ("samba", "melds an action names"),
        ("bolivia", "melds an action names"),
        ("modern-american", "meld.must_complete"),
    ],
)
def test_a_variant_the_core_does_not_list_is_declined_by_its_mechanism(
    library: ModuleType, variant: str, lacking: str
) -> None:
    with pytest.raises(CoreUnavailable, match=lacking):
        RandomPlay(_rules(variant))


def test_the_tool_s_proof_counts_the_hands_and_says_where_the_actions_went(library: ModuleType) -> None:
    proof = prove_play(_rules("classic-2p"), 5, 2)
    assert (proof.hands, proof.faults) == (2, [])
    assert proof.in_c > proof.in_python
    assert proof.summary().startswith(
        f"classic-2p: 2 hands played by the core's loop, {proof.in_c + proof.in_python:,}"
    )
    assert proof.summary().endswith(
        "replayed through the reference: every action one it lists, chosen among as many, no fault"
    )


@pytest.mark.parametrize(
    "cards",
    [
        "KC KD KH 2C 2D JK 5S 9C 7D 7H",  # one opening's groups share two deuces and a joker
        "KC KD QC QD 2C 2C 2D JK JK 7D 7H 5S",  # two copies of a deuce: the same cards, one action
    ],
)
def test_every_opening_is_made_once_by_its_index_as_the_loop_makes_it(library: ModuleType, cards: str) -> None:
    rules = _rules("classic")
    others = [parse_cards(hand) for hand in ("9C 9D 9H 10S", "4C 4D 4H", "6C 6D 6H")]
    state = build_state(rules, Position([parse_cards(cards), *others], pile=parse_cards("8S"), phase="play"))[0]
    position = core.load_state(core.new_position(rules), state)
    openings = NativeOpeningCount(NativePlayListing(rules))
    _ask, (count, kept), *_rest = position.opening_listing(
        openings.context, openings.questions, initial_minimum(rules, state, state.to_act)
    )
    made = [decode(position.encoded_opening(kept, index)) for index in range(count)]
    reference = [action for action in listing(rules, state) if action.kind == "meld"]
    assert count == len(reference) > 20
    assert len(set(made)) == count  # each index its own action
    assert set(made) == set(reference)
    with pytest.raises(IndexError, match=f"opening {count} of {count}"):
        position.encoded_opening(kept, count)


def test_a_position_is_made_a_hand_state_only_where_the_side_has_not_opened(library: ModuleType) -> None:
    rules = _rules("classic")
    game = Game(rules, seed="play/state")
    position = core.load_state(core.new_position(rules), game.state)
    made = state_of(rules, position, game.state)
    assert core.owned_view(made) == core.owned_view(game.state)
    assert list(listing(rules, made)) == list(listing(rules, game.state))
    game.state.team_opened[game.state.side_of[game.state.to_act]] = True
    with pytest.raises(CoreUnavailable, match="only where the side has not opened"):
        state_of(rules, core.load_state(position, game.state), game.state)
