"""What a view is, as the protocol defines it: its fields, the cards it must account for, and its comparable form.

Pure functions of what an engine sent, shared by the scenario runner and generated games: nothing here talks to
an engine, so an answer of any shape is judged (a problem as text, or None), never raised.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .engines import excerpt

PUBLIC_FIELDS = (
    "to_act",
    "phase",
    "hand_sizes",
    "foot_sizes",  # version 5, in a variant that deals a foot
    "talon_sizes",  # in a variant with talons (hook bonus_draw.from_talons)
    "turn_card_drawn",  # in a variant with a turn card (hook stock.turn_card_depth)
    "bonus_draws_owed",  # in a variant with bonus draws for the initial meld (hook bonus_draw.count)
    "stock_size",
    "pile",
    "melds",
    "canastas",
    "bonus_cards",
    "team_scores",
    "special_hand",  # version 8, once a special hand ends the hand (hook special_hand.shape)
)
#: Every field a view may have (conformance/PROTOCOL.md, `view`): any other might carry hidden cards.
VIEW_FIELDS = frozenset({"seat", "hand", "pile_frozen", "permission", "end", *PUBLIC_FIELDS})
#: The fields of a meld written as an object ("closed" since version 5, in a variant that closes melds; "kind" since
#: version 6, in a variant whose melds are named).
MELD_FIELDS = frozenset({"cards", "canasta", "closed", "kind"})


def unknown_field_problem(view: Mapping[str, Any]) -> str | None:
    """What a view has beyond the protocol's fields, or None: a field the protocol does not define (at the top,
    or in a meld) is refused, since only the protocol's fields are checked for cards the seat may not see."""
    unknown = sorted(str(key) for key in view if key not in VIEW_FIELDS)
    if unknown:
        return (
            f"it has a field the protocol does not define: {excerpt(unknown[0], 80)} (a view holds only what the "
            "seat may see, in the protocol's fields)"
        )
    melds = view.get("melds")
    for side in melds if isinstance(melds, list) else ():
        for meld in side if isinstance(side, list) else ():
            extra = sorted(str(key) for key in meld if key not in MELD_FIELDS) if isinstance(meld, Mapping) else []
            if extra:
                return f"a meld has a field the protocol does not define: {excerpt(extra[0], 80)}"
    return None


def view_problem(view: Mapping[str, Any], seat: int, deck_size: int, players: int | None = None) -> str | None:
    """What is wrong with a view as the engine sent it, or None: fields beyond the protocol's, then its cards
    (``conservation_problem``), and the number of seats it shows (when ``players`` is given)."""
    problem = unknown_field_problem(view) or conservation_problem(view, seat, deck_size)
    if problem is None and players is not None and len(view["hand_sizes"]) != players:
        problem = f"hand_sizes lists {len(view['hand_sizes'])} seats, not {players}"
    return problem


def conservation_problem(view: Mapping[str, Any], seat: int, deck_size: int) -> str | None:
    """What is wrong with the cards a view (as the engine sent it) shows, or None: its own hand must have the
    size ``hand_sizes`` says, and hands, feet, talons, stock, pile, melds and bonus cards must make the whole deck."""
    try:
        hand = view.get("hand", [])
        hand = hand.split() if isinstance(hand, str) else list(hand)
        sizes = [int(n) for n in view["hand_sizes"]]
        pile = view.get("pile", [])
        pile = pile.split() if isinstance(pile, str) else list(pile)
        melded = sum(
            len(m["cards"] if isinstance(m, Mapping) else str(m).split()) for side in view["melds"] for m in side
        )
        bonus = sum(len(b.split() if isinstance(b, str) else b) for b in view.get("bonus_cards", []))
        feet = sum(int(n) for n in view.get("foot_sizes", []))
        talons = sum(int(n) for n in view.get("talon_sizes", []))
        special = view.get("special_hand")
        laid = special["cards"] if isinstance(special, Mapping) else []
        declared = len(laid.split() if isinstance(laid, str) else laid)
        total = sum(sizes) + feet + talons + int(view["stock_size"]) + len(pile) + melded + bonus + declared
    except (KeyError, TypeError, ValueError, IndexError) as error:
        return f"cannot count its cards ({type(error).__name__}: {error})"
    if not 0 <= seat < len(sizes) or len(hand) != sizes[seat]:
        return f"it shows {len(hand)} cards in its hand but hand_sizes says {sizes}"
    if total != deck_size:
        return (
            f"the cards do not add up to the {deck_size} of the deck: hands {sum(sizes)} + "
            + (f"feet {feet} + " if feet else "")
            + (f"talons {talons} + " if talons else "")
            + f"stock {view['stock_size']} + pile {len(pile)} + melds {melded} + bonus cards {bonus}"
            + (f" + special hand {declared}" if declared else "")
            + f" = {total}"
        )
    return None


def normalised_or_none(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """A view as an engine sent it, normalised; None if its fields have shapes no view has."""
    try:
        return normalise_view(view)
    except (KeyError, TypeError, AttributeError, ValueError):
        return None


_CARD_LIST_FIELDS = ("hand",)


def normalise_field(key: str, value: Any) -> Any:
    """One view field in comparable form: a hand is a multiset (sorted), melds as sorted card lists, each seat's
    bonus cards a multiset (the order they were laid out in is no rule of the game)."""
    if key == "bonus_cards" and isinstance(value, list):
        return [normalise_field("hand", seat) if isinstance(seat, str | list) else seat for seat in value]
    if key in _CARD_LIST_FIELDS and isinstance(value, str):
        value = value.split()
    if key in _CARD_LIST_FIELDS and isinstance(value, list):
        return sorted(str(c).upper() for c in value)
    if key == "special_hand" and isinstance(value, dict) and "cards" in value:
        return {**value, "cards": normalise_field("hand", value["cards"])}
    if key == "pile" and isinstance(value, str):
        return value.upper().split()
    if key == "melds" and isinstance(value, list):
        return [
            sorted(sorted(m["cards"]) if isinstance(m, dict) else sorted(str(m).split()) for m in side)
            for side in value
        ]
    return value


def normalise_view(view: Mapping[str, Any]) -> dict[str, Any]:
    return {key: normalise_field(key, value) for key, value in view.items()}


__all__ = [
    "MELD_FIELDS",
    "PUBLIC_FIELDS",
    "VIEW_FIELDS",
    "conservation_problem",
    "normalise_field",
    "normalise_view",
    "normalised_or_none",
    "unknown_field_problem",
    "view_problem",
]
