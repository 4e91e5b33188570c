"""Sides that form during a hand (hook ``sides.lone_hand``): one player becomes the lone hand and every other
player joins one side against them, as in three-player Canasta after the first take of the pile.

Asked only by variants with clauses on the hook (``Rules.forms_sides``), so fixed partnerships pay nothing."""

from __future__ import annotations

from .rules import Query, Rules
from .state import HandState, Meld

LONE_HAND = Query("sides.lone_hand", ("trigger", "sides_formed"))


def sides_formed(rules: Rules, state: HandState) -> bool:
    """Whether the side map has changed since the deal (a lone hand has been made)."""
    return state.side_of != rules.initial_sides()


def maybe_form_lone_hand(rules: Rules, state: HandState, seat: int, trigger: str) -> bool:
    """Ask the spec whether ``seat`` becomes the lone hand on this ``trigger`` ("take" or "going_out"); if so,
    re-form the sides and return True."""
    if not rules.forms_sides or not rules.predicate_of(LONE_HAND, (trigger, sides_formed(rules, state))):
        return False
    form_lone_hand(rules, state, seat)
    return True


def form_lone_hand(rules: Rules, state: HandState, lone: int) -> None:
    """Every seat but ``lone`` joins the lowest side among them; their melds are pooled into it, a meld of a rank
    the side already has merging into that meld where the spec merges same-rank melds (``meld.merge_same_rank``),
    and the side has melded if any of them had."""
    others = [seat for seat in range(len(state.side_of)) if seat != lone]
    joined = sorted({state.side_of[seat] for seat in others} - {state.side_of[lone]})
    if not joined:
        return
    target = joined[0]
    for side in joined[1:]:
        for meld in state.melds[side]:
            _pool(rules, state, target, meld)
        state.melds[side] = ()
        state.team_opened[target] = state.team_opened[target] or state.team_opened[side]
        state.team_opened[side] = False
    for seat in others:
        state.side_of[seat] = target


def _pool(rules: Rules, state: HandState, side: int, meld: Meld) -> None:
    """Put ``meld`` among ``side``'s melds, merged into its meld of that rank if the spec merges them."""
    same = state.meld_of_rank(side, meld.rank) if rules.merges_same_rank[meld.rank] else None
    melds = list(state.melds[side])
    if same is None:
        melds.append(meld)
    else:
        melds[melds.index(same)] = same.plus(meld.cards, rules.is_wild)
    state.melds[side] = tuple(melds)
