"""Special hands: a whole hand of a set make-up, laid down at once by a side that has not melded, which ends the
hand and replaces the side's score (Modern American's straight, pairs and garbage).

Each special hand is one clause of hook ``special_hand.shape``, and its name is the last part of that clause's id in
lower case, so a spec adds a hand by adding a clause and the engine knows no hand by name. A declaration is judged by
``special_hand.allowed`` and then by its own hand's clause alone, which is cited when the hand is not of that shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..spec.model import Clause
from .actions import Action
from .cards import RANK_COUNT, RANK_NAMES, Card, rank_of
from .hooks import SHAPE_VARIABLES, TABLE_VARIABLES
from .rules import Query, Rules, remember
from .state import HandState

_ALLOWED = Query("special_hand.allowed", (*TABLE_VARIABLES, "phase", "hand", "known"))
_SCORE = Query("special_hand.score", ("hand",))
_THREE_RANK, _SEVEN_RANK, _ACE_RANK = (RANK_NAMES.index(name) for name in ("3", "7", "A"))


def _shape(sizes: Sequence[int]) -> str:
    """Group sizes, largest first, joined by '-': how the shape variables write a hand's make-up."""
    return "-".join(str(size) for size in sorted((s for s in sizes if s), reverse=True))


def shape_values(rules: Rules, counts: Sequence[int]) -> dict[str, Any]:
    """The ``special_hand.shape`` variables of a hand given as counts by card."""
    by_rank = [0] * RANK_COUNT
    natural = [0] * RANK_COUNT
    twos = jokers = 0
    for card, count in enumerate(counts):
        if not count:
            continue
        rank = rank_of(card)
        by_rank[rank] += count
        kind = rules.hand_kind[card]
        if kind == 2:
            twos += count
        elif kind == 3:
            jokers += count
        elif kind == 1 and rank != _THREE_RANK:
            natural[rank] += count
    values = {
        "hand_size": sum(counts),
        "ranks": sum(1 for size in by_rank if size),
        "shape": _shape(by_rank),
        "natural_shape": _shape(natural),
        "wild_shape": _shape((twos, jokers)),
        "twos": twos,
        "jokers": jokers,
        "threes": by_rank[_THREE_RANK],
        "sevens": by_rank[_SEVEN_RANK],
        "aces": by_rank[_ACE_RANK],
    }
    assert tuple(values) == SHAPE_VARIABLES
    return values


def declare_refusal(rules: Rules, state: HandState, seat: int, hand: str, table: tuple[Any, ...]) -> Clause | None:
    """The clause refusing ``seat`` a declaration of the special hand ``hand`` now, or None: first
    ``special_hand.allowed``, then the hand's own ``special_hand.shape`` clause, asked of the whole hand."""
    clause = rules.special_hands.get(hand)
    refusal = _allowed_refusal(rules, state, hand, clause is not None, table)
    if refusal is not None or clause is None:
        return refusal
    return None if _has_shape(rules, clause, declared_counts(state, seat)) else clause


def declared_counts(state: HandState, seat: int) -> tuple[int, ...]:
    """The cards a declaration by ``seat`` lays down, as counts by card: the hand, and, for a declaration made
    before the turn's draw (which only a rule allowing it lets happen, hook action.allowed), the pile's top card as
    the hand's last card."""
    counts = state.hands[seat]
    if state.phase != "draw" or not state.pile:
        return counts
    with_top = list(counts)
    with_top[state.pile[-1]] += 1
    return tuple(with_top)


def _allowed_refusal(rules: Rules, state: HandState, hand: str, known: bool, table: tuple[Any, ...]) -> Clause | None:
    """The ``special_hand.allowed`` clause refusing a declaration of ``hand`` now, or None."""
    return rules.failing_of(_ALLOWED, (*table, state.phase, hand, known))


def _has_shape(rules: Rules, clause: Clause, counts: tuple[int, ...]) -> bool:
    """Whether a hand is of the shape ``clause`` describes; cached on the hand, since the listing asks it of every
    special hand in each position of a player who may declare."""
    key = (clause.id, counts)
    known: bool | None = rules.shape_verdicts.get(key) if rules.coverage is None else None
    if known is None:
        known = bool(clause.evaluate(shape_values(rules, counts)))
        if rules.coverage is not None:
            rules.coverage.record(clause.id, "true" if known else "false")
        remember(rules.shape_verdicts, key, known)
    return known


def declarations(rules: Rules, state: HandState, table: tuple[Any, ...]) -> list[Action]:
    """The special hands the seat to act may declare now, in spec order. Every play listing of a variant with
    special hands asks this, and mostly the answer is no for a reason that is not the hand's (the side has
    melded, the hand is not fourteen cards): a refusal by a clause that reads neither the hand's name nor whether
    it is known refuses them all, and the others are not asked."""
    counts = declared_counts(state, state.to_act)
    out: list[Action] = []
    for name, clause in rules.special_hands.items():
        refusal = _allowed_refusal(rules, state, name, True, table)
        if refusal is not None:
            if refusal.reads.isdisjoint(_NAMING):
                return []
            continue
        if _has_shape(rules, clause, counts):
            out.append(Action.declare(name))
    return out


#: The ``special_hand.allowed`` variables that tell one declaration from another.
_NAMING = frozenset({"hand", "known"})


def special_hand_score(rules: Rules, hand: str) -> Mapping[str, int]:
    """What the special hand ``hand`` scores its side, by clause id (hook special_hand.score)."""
    return rules.components(_SCORE.hook, {"hand": hand})


def declared_cards(counts: Sequence[int]) -> tuple[Card, ...]:
    """The cards of a hand laid down as a special hand, in card order."""
    return tuple(card for card, count in enumerate(counts) for _ in range(count))
