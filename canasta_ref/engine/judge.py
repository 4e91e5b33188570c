"""The verdict on any action: legal or not, and what it does.

``checks`` decides melds and takes rule by rule, and ``legal`` lists actions from those checks; a discard is
judged here because one rule needs the listing: a player whose partner said "yes" to going out must not discard
while a meld is still possible. Sitting above both keeps the engine's imports free of circles.
"""

from __future__ import annotations

from ..errors import IllegalAction
from .actions import BARE_KINDS, Action
from .checks import (
    ANSWER_BINDING,
    Plan,
    bare_refusal,
    derived,
    discard_refusal,
    effects_without_melding,
    ending_refusal,
    keep_refusal,
    kind_refusal,
    plan_melding,
    require_cards_in_hand,
    side_tally,
    table_values,
)
from .legal import legal_melds
from .rules import Rules
from .special import declare_refusal
from .state import HandState


def plan(rules: Rules, state: HandState, action: Action, seat: int | None = None) -> Plan:
    """Check ``action`` for the seat to act (or ``seat``); raise IllegalAction or return what it does."""
    actor = state.to_act if seat is None else seat
    kind = action.kind
    if kind in BARE_KINDS:
        rules.refuse(bare_refusal(rules, state, actor, kind))
        return effects_without_melding(state, action, actor)
    if kind == "discard":
        require_cards_in_hand(rules, state, actor, action)
        _check_discard(rules, state, action, actor)
        return effects_without_melding(state, action, actor)
    if kind == "keep":
        require_cards_in_hand(rules, state, actor, action)
        rules.refuse(keep_refusal(rules, action.cards[0]))
        return effects_without_melding(state, action, actor)
    if kind == "declare":
        rules.refuse(kind_refusal(rules, state, actor, kind))
        rules.refuse(declare_refusal(rules, state, actor, action.hand, table_values(rules, state, actor)))
        return _declaring(action)
    return plan_melding(rules, state, action, seat)


def is_legal(rules: Rules, state: HandState, action: Action, seat: int | None = None) -> bool:
    """Whether ``plan`` accepts the action."""
    try:
        plan(rules, state, action, seat)
    except IllegalAction:
        return False
    return True


def plan_checked(rules: Rules, state: HandState, action: Action) -> Plan:
    """The plan of an action already known to be legal for the seat to act (it was listed for this very
    position): a meld or take planned while listing is taken as it was, other melds are worked out without their
    checks, takes and combinations are planned as ``plan`` plans them, and the rest need no rule asked again."""
    if rules.coverage is not None:
        return plan(rules, state, action)
    if action.kind in ("meld", "take", "combine"):
        plans = derived(rules, state).plans
        known = plans.get(id(action)) if plans is not None else None
        if known is not None and known[0] is action:
            planned: Plan = known[1]
            return planned
        # A meld the listing made from a shape it judged (no plan of its own): what it does, without the checks.
        return plan_melding(rules, state, action, vetted=action.kind == "meld")
    if action.kind == "declare":
        return _declaring(action)
    return effects_without_melding(state, action, state.to_act)


def _declaring(action: Action) -> Plan:
    """The plan of a special hand's declaration: the whole hand goes down, and the hand ends."""
    return Plan(action, hand_after=0, going_out=True)


def can_still_meld(rules: Rules, state: HandState) -> bool:
    """Whether the player to act could still lay or extend a meld now (what a binding "yes" obliges them to do)."""
    return bool(legal_melds(rules, state))


def _check_discard(rules: Rules, state: HandState, action: Action, seat: int) -> None:
    hand_after = state.cards_held(seat) - 1
    rules.refuse(discard_refusal(rules, state, seat, action.cards[0]))
    rules.refuse(ending_refusal(rules, state, seat, hand_after, side_tally(rules, state, seat), False))
    can_still = state.permission == "yes" and hand_after > 0 and can_still_meld(rules, state)
    rules.refuse(rules.failing_of(ANSWER_BINDING, (state.permission, hand_after, can_still)))
