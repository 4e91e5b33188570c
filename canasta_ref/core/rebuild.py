"""A ``HandState`` rebuilt from the native core's position: the inverse of ``core.load_state``.

Where the core's position is the truth (``core.game``), the Python engine still answers what the core cannot (a
listing it does not cover, an action it does not apply, the judgement of an action it did not list, the score and
the views): it reads a ``HandState`` built here from ``Position.export()``. The core does not hold every field the
Python engine reads; what it lacks is kept beside the position in Python (``Beside``): the scores carried into the
hand and its number, which seats have melded, the turn's record of melds made and added to (for going out concealed
and its score), how the hand ended and who went out, whether concealed, the turns played, the talons, a special
hand declared and the phase a kept bonus card returns to.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

from ..engine.cards import Card
from ..engine.rules import Rules
from ..engine.state import HandState, Meld, Phase
from . import (
    ASKED_AT,
    ASKED_IN_HAND_AT,
    ASKER_AT,
    AWAITING_FIRST_TURN_AT,
    BONUS_DRAWS_AT,
    LAST_CARD_BONUS_AT,
    MELDED_AT,
    PERMISSION_AT,
    PERMISSIONS,
    PHASE_AT,
    PHASES,
    TOOK_AT,
    UPCARD_FROZE_AT,
)


@dataclass(frozen=True)
class Beside:
    """The fields of a hand that the core's position does not hold, kept beside it in Python."""

    team_scores: tuple[int, ...]
    hand_number: int
    seat_melded: tuple[bool, ...]
    melded_before_turn: bool
    added_to_existing_this_turn: bool
    created_this_turn: tuple[int, ...]
    end_reason: str | None
    went_out: int | None
    concealed: bool
    turns: int
    talons: tuple[tuple[Card, ...], ...]
    special_hand: str
    special_cards: tuple[Card, ...]
    resume_phase: Phase
    #: Whether the hand keeps, seat by seat, a first turn still to come (the core keeps the seats as bits, which
    #: cannot say whether the list is kept at all).
    tracks_first_turns: bool

    def changed(self, **fields: Any) -> Beside:
        """A copy with ``fields`` changed (as ``dataclasses.replace``, a name that is no field said plainly), its
        fields copied whole rather than passed through ``__init__`` again: a game on the core folds its steps in
        at every position it rebuilds, and ``replace`` cost as much as the rest of the fold."""
        unknown = fields.keys() - _BESIDE_FIELDS
        if unknown:
            raise TypeError(f"Beside has no field {', '.join(sorted(unknown))}")
        copy = object.__new__(Beside)
        copy.__dict__.update(self.__dict__, **fields)
        return copy


#: The names of ``Beside``'s fields.
_BESIDE_FIELDS: Final = frozenset(field.name for field in fields(Beside))


def beside_of(state: HandState) -> Beside:
    """What the core does not hold of ``state``."""
    return Beside(
        team_scores=tuple(state.team_scores),
        hand_number=state.hand_number,
        seat_melded=tuple(state.seat_melded),
        melded_before_turn=state.melded_before_turn,
        added_to_existing_this_turn=state.added_to_existing_this_turn,
        created_this_turn=tuple(state.created_this_turn),
        end_reason=state.end_reason,
        went_out=state.went_out,
        concealed=state.concealed,
        turns=state.turns,
        talons=tuple(state.talons),
        special_hand=state.special_hand,
        special_cards=state.special_cards,
        resume_phase=state.resume_phase,
        tracks_first_turns=bool(state.awaiting_first_turn),
    )


#: Melds as the core exports them (rank, cards, closed, counts), each with the ``Meld`` it stands for: a cache of
#: ``_meld`` for one Rules (``rebuild_state``'s ``melds``), which a caller keeps and bounds.
MeldCache = dict[tuple[Any, ...], Meld]
#: The most melds a ``MeldCache`` keeps before it starts again (a hand makes a few hundred).
MELD_CACHE_MOST: Final = 4096


def rebuild_state(rules: Rules, position: Any, beside: Beside, melds: MeldCache | None = None) -> HandState:
    """The ``HandState`` the core's ``position`` and ``beside`` stand for, equal to the one they were loaded from
    (``core.load_state``, ``beside_of``) on every field; computed facts (``derived``) start empty. ``melds``, where
    given, keeps the melds already made for ``rules`` (a meld is immutable, so a state may share it): most melds
    stand unchanged from one position to the next, and making them was half of a rebuild."""
    held = position.export()
    turn = held["turn"]
    wilds, red_threes, black_threes = held["pile_counts"]
    waiting = turn[AWAITING_FIRST_TURN_AT]
    first_turns = [bool(waiting >> seat & 1) for seat in range(len(held["side_of"]))]
    return HandState(
        stock=list(held["stock"]),
        pile=list(held["pile"]),
        hands=[tuple(hand) for hand in held["hands"]],
        hand_sizes=list(held["hand_sizes"]),
        melds=_melds(rules, held["melds"], melds),
        bonus=[tuple(cards) for cards in held["bonus"]],
        team_scores=list(beside.team_scores),
        to_act=held["to_act"],
        phase=PHASES[turn[PHASE_AT]],
        pile_wilds=wilds,
        pile_red_threes=red_threes,
        pile_black_threes=black_threes,
        upcard_froze=bool(turn[UPCARD_FROZE_AT]),
        team_opened=[bool(opened) for opened in held["team_opened"]],
        seat_melded=list(beside.seat_melded),
        permission=PERMISSIONS[turn[PERMISSION_AT]],
        asker=turn[ASKER_AT],
        melded_this_turn=bool(turn[MELDED_AT]),
        asked_this_turn=bool(turn[ASKED_AT]),
        asked_in_hand=turn[ASKED_IN_HAND_AT],
        took_pile_this_turn=bool(turn[TOOK_AT]),
        added_to_existing_this_turn=beside.added_to_existing_this_turn,
        melded_before_turn=beside.melded_before_turn,
        created_this_turn=list(beside.created_this_turn),
        end_reason=beside.end_reason,
        went_out=beside.went_out,
        concealed=beside.concealed,
        last_card_bonus=bool(turn[LAST_CARD_BONUS_AT]),
        turns=beside.turns,
        side_of=list(held["side_of"]),
        awaiting_first_turn=first_turns if beside.tracks_first_turns else [],
        penalties=list(held["penalties"]),
        feet=[tuple(foot) for foot in held["feet"]],
        talons=list(beside.talons),
        bonus_draws_owed=list(turn[BONUS_DRAWS_AT]),
        hand_number=beside.hand_number,
        special_hand=beside.special_hand,
        special_cards=beside.special_cards,
        resume_phase=beside.resume_phase,
    )


def _melds(rules: Rules, sides: list[list[tuple[Any, ...]]], cache: MeldCache | None) -> list[tuple[Meld, ...]]:
    """Each side's melds as the core exports them, as ``Meld``s, made once a meld where ``cache`` is given."""
    if cache is None:
        return [tuple(_meld(rules, meld) for meld in side) for side in sides]
    if len(cache) > MELD_CACHE_MOST:
        cache.clear()
    made: list[tuple[Meld, ...]] = []
    for side in sides:
        found: list[Meld] = []
        for exported in side:
            meld = cache.get(exported)
            if meld is None:
                meld = cache[exported] = _meld(rules, exported)
            found.append(meld)
        made.append(tuple(found))
    return made


def _meld(rules: Rules, exported: tuple[Any, ...]) -> Meld:
    """A meld as the core exports it (rank, cards by number, closed, counts), in the reference's card order."""
    rank, cards, closed, _counts = exported
    meld = Meld.build(rank, cards, rules.is_wild)
    return meld._replace(closed=True) if closed else meld


def state_differences(mine: HandState, reference: HandState) -> list[str]:
    """The fields on which two states differ, each with both values: every field but ``derived`` (facts computed
    from a position, which a copy starts without and a listing fills)."""
    return [
        f"{name}: core {getattr(mine, name)}, reference {getattr(reference, name)}"
        for name in (field.name for field in fields(HandState) if field.compare)
        if getattr(mine, name) != getattr(reference, name)
    ]
