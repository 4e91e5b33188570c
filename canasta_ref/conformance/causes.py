"""What differed, said as a cause, for a failure no rule can be named for.

A failure is put under a rule only when the check can name it: the step's expected verdict names a rule, or the
engine's differing answer is a refusal by a rule. Any other failure is grouped by its cause: which field of which
answer differed ("legal: the listing differs", "score: parts differ", "view: seat numbering"). Guessing a rule
from the field (a hand that differs at the deal is not always the hand size) would put one fault under several
wrong labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

SETUP_REFUSED = "setup: the engine refuses the set-up"
VERDICT_ERROR = "verdict: the engine answers with an error"
VERDICT_MALFORMED = "verdict: 'accepted' is not true or false"
OTHER_RULE = "verdict: the engine cites another rule"
LEGAL_LISTING = "legal: the listing differs"
LEGAL_COUNT = "legal: the count differs"
LEGAL_MALFORMED = "legal: the answer is not a list of actions"
VIEW_MALFORMED = "view: the answer is not a view"
VIEW_EXTRA_FIELDS = "view: fields beyond the protocol"
VIEW_CARDS = "view: the cards do not add up"
VIEWS_DISAGREE = "view: the seats see different tables"
SEAT_NUMBERING = "view: seat numbering"
HIDDEN_CARDS = "view: depends on cards hidden from the seat"
SCORE_TOTALS = "score: totals differ"
SCORE_PARTS = "score: parts differ"
REPLAY = "replay: the same deck and moves give another result"

#: The cause of a failed scenario check, by the check's name (a view's fields: ``view_field``).
CHECK_CAUSES = {
    "setup": SETUP_REFUSED,
    "rule": OTHER_RULE,
    "legal_includes": LEGAL_LISTING,
    "legal_excludes": LEGAL_LISTING,
    "legal_count": LEGAL_COUNT,
    "views agree": VIEWS_DISAGREE,
    "match_over": "score: 'match_over' differs",
    "score.over": "score: 'over' differs",
    "score.end": "score: 'end' differs",
    "score.totals": SCORE_TOTALS,
    "score.parts": SCORE_PARTS,
}

#: The fields of a view that give something for each seat, in the order of the seats.
SEAT_LISTS = ("hand_sizes", "foot_sizes", "talon_sizes", "bonus_cards")


def check_cause(check: str) -> str:
    """The cause of a failed check of a scenario, from its name."""
    if check.startswith("view."):
        return view_field(check.removeprefix("view."))
    return CHECK_CAUSES.get(check, check)


def view_field(key: str) -> str:
    return f"view: '{key}' differs"


def refuses(action: str) -> str:
    """The engine refuses an action of this kind that the reference accepts, citing no rule it can be held to."""
    return f"verdict: refuses `{action}` actions the reference accepts"


def accepts(action: str) -> str:
    """The engine accepts an action of this kind that the reference refuses by no rule named."""
    return f"verdict: accepts `{action}` actions the reference refuses"


def renumbered(key: str, wanted: Any, got: Any, hands: Iterable[Any] = ()) -> bool:
    """Whether a view field differs only by how the seats are numbered: the seat's own hand is another seat's
    (``hands``: every seat's, normalised), or a list by seat is the reference's turned round."""
    if got == wanted:
        return False
    if key == "hand":
        return any(got == hand for hand in hands)
    if key in SEAT_LISTS and isinstance(wanted, list) and isinstance(got, list) and len(got) == len(wanted) > 1:
        return any(got == wanted[turn:] + wanted[:turn] for turn in range(1, len(wanted)))
    return False


def view_cause(key: str, wanted: Any, got: Any, hands: Iterable[Any] = ()) -> str:
    """The cause of a view field that differs: the seats' numbering, or the field."""
    return SEAT_NUMBERING if renumbered(key, wanted, got, hands) else view_field(key)


#: The fields of a view at the deal that an upcard turned again changes (the top card decides the freeze).
UPCARD_FIELDS = frozenset({"pile", "stock_size", "pile_frozen"})


def upcard_turned_fewer(wanted: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    """Whether a view at the deal differs just as an engine that stopped turning upcards sooner would show it: the
    reference turned several, the engine's pile is the first of them, the ones it did not turn are still in its
    stock, and nothing else differs."""
    pile, theirs = wanted.get("pile"), got.get("pile")
    if not isinstance(pile, list) or not isinstance(theirs, list) or not 0 < len(theirs) < len(pile):
        return False
    if any(got.get(key) != value for key, value in wanted.items() if key not in UPCARD_FIELDS):
        return False
    stock, their_stock = wanted.get("stock_size"), got.get("stock_size")
    unturned = len(pile) - len(theirs)
    return pile[: len(theirs)] == theirs and isinstance(stock, int) and their_stock == stock + unturned


def deal_view_rule(variant: Any, wanted: Mapping[str, Any], got: Mapping[str, Any]) -> str | None:
    """The rule a view differing at the deal breaks, when the evidence names exactly one: the variant's one clause
    of the hook ``upcard.turn_again`` when the engine turned fewer upcards (``upcard_turned_fewer``); else None."""
    if not upcard_turned_fewer(wanted, got):
        return None
    clauses = variant.by_hook("upcard.turn_again")
    return clauses[0].id if len(clauses) == 1 else None


def nameable(rule: Any, clauses: Mapping[str, Any]) -> str | None:
    """``rule`` if it is a rule of the variant (an engine may cite ids of its own), else None."""
    return rule if isinstance(rule, str) and rule in clauses else None


__all__ = [
    "CHECK_CAUSES",
    "SEAT_NUMBERING",
    "accepts",
    "check_cause",
    "deal_view_rule",
    "nameable",
    "refuses",
    "renumbered",
    "upcard_turned_fewer",
    "view_cause",
    "view_field",
]
