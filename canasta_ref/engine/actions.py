"""Actions and their notation, as text and as JSON.

Text forms (case-insensitive on input, canonical on output)::

    draw
    take                          add the top discard to the side's meld of its rank
    take KH KS                    meld the top discard with these cards from hand
    take KH KS + QH QS 2C         ... laying more melds from hand with it (a side's initial meld)
    meld KH KS KD | QH QS 2C      lay one or several melds, or add to the side's melds
    meld K: 2C                    a group with no natural card names the rank of the meld it joins
    meld @2: 7H                   ... or names the meld it joins: the side's second meld, in the order laid
                                  (where a side may hold several melds of a rank, or sequences)
    meld 4H 5H 6H                 a sequence, where the variant has them (hook meld.sequence)
    take @2                       add the top discard to the side's second meld
    take @2: KH                   ... with these cards from hand
    combine @1 @3                 the side's third meld joins its first (where the variant allows it)
    discard 7S
    ask                           ask partner "may I go out?"
    yes / no                      partner's answer
    end                           end the hand without discarding (a red three drawn as the last stock card,
                                  where the variant lets the player meld first)
    pass                          end the turn without discarding, keeping the last card (Hoyle's "pass the
                                  discard", where the variant allows it)
    declare straight              lay the whole hand down as a special hand, named as its variant names it
                                  (hook special_hand.shape), ending the hand
    keep 3C                       keep this bonus card in hand and lay out the others just received, where the
                                  variant lets a player keep one (hook bonus_card.keep)
    layout                        ... or lay them all out, keeping none

Two actions are the same when they have the same kind and the same multisets of cards in each role; the order of
cards within a group and the order of groups do not matter, so each action has exactly one canonical text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple

from ..errors import NotationError
from .cards import (
    JOKER_RANK,
    RANK_NAMES,
    SORT_ORDER,
    Card,
    card_name,
    parse_card,
    rank_from_name,
    rank_of,
    sort_key,
)

ActionKind = Literal[
    "draw", "take", "meld", "discard", "ask", "yes", "no", "end", "pass", "combine", "declare", "keep", "layout"
]
ACTION_KINDS: tuple[ActionKind, ...] = (
    "draw",
    "take",
    "meld",
    "discard",
    "ask",
    "yes",
    "no",
    "end",
    "pass",
    "combine",
    "declare",
    "keep",
    "layout",
)
#: The kinds of action that carry no cards.
BARE_KINDS = frozenset({"draw", "ask", "yes", "no", "end", "pass", "layout"})


def _canonical(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=SORT_ORDER.__getitem__))


class MeldGroup(NamedTuple):
    """Cards laid together on one meld. ``rank`` is set only when no natural card says which meld it is;
    ``target`` names the meld the cards join (the side's ``target``-th meld in the order laid, from 1), where the
    rank alone does not say it (0: the meld of its rank, or a new one).

    Actions are named tuples of ints and strings: immutable, hashable and cheap to build. Being tuple
    subclasses, the garbage collector tracks them, so caches that hold them are kept small
    (``rules.TRACKED_CACHE_LIMIT``)."""

    cards: tuple[Card, ...]
    rank: int | None = None
    target: int = 0

    @staticmethod
    def of(cards: Sequence[Card], rank: int | None = None, target: int = 0) -> MeldGroup:
        """A group in canonical form: a label only on a group with no natural card to name its meld and no meld
        named, and never the joker rank, which a group of wild cards alone already means (one action, one text)."""
        if target or rank == JOKER_RANK or any(rank_of(c) not in (0, JOKER_RANK) for c in cards):
            rank = None
        return MeldGroup(_canonical(cards), rank, target)

    def __str__(self) -> str:
        text = " ".join(card_name(c) for c in self.cards)
        if self.target:
            return f"@{self.target}: {text}" if text else f"@{self.target}"
        return f"{RANK_NAMES[self.rank]}: {text}" if self.rank is not None else text

    def sort_key(self) -> tuple[int, int, tuple[tuple[int, int], ...]]:
        keys = tuple(sort_key(c) for c in self.cards)
        lead = sort_key(self.rank * 4)[0] if self.rank is not None else keys[0][0] if keys else 0
        return (self.target, lead, keys)


class Action(NamedTuple):
    """One move in the game. Build with the class methods; compare and hash freely."""

    kind: ActionKind
    cards: tuple[Card, ...] = ()
    melds: tuple[MeldGroup, ...] = ()
    #: For a take, the meld the top card joins (the side's ``target``-th, from 1; 0: by its rank, or a new one).
    target: int = 0
    #: For a declaration, the special hand it names (lower case, as its clause's id ends); '' for the others.
    hand: str = ""

    @classmethod
    def draw(cls) -> Action:
        return cls("draw")

    @classmethod
    def take(cls, cards: Sequence[Card] = (), melds: Sequence[MeldGroup] = (), target: int = 0) -> Action:
        return cls("take", _canonical(cards), _canonical_groups(melds), target)

    @classmethod
    def combine(cls, first: int, second: int) -> Action:
        """The side's meld number ``second`` joins its meld number ``first`` (numbered from 1, as laid)."""
        low, high = sorted((first, second))
        return cls("combine", (), (MeldGroup((), None, low), MeldGroup((), None, high)))

    @classmethod
    def declare(cls, hand: str) -> Action:
        """Lay the whole hand down as the special hand ``hand`` (``declare straight``)."""
        return cls("declare", hand=hand)

    @classmethod
    def meld(cls, melds: Sequence[MeldGroup]) -> Action:
        return cls("meld", (), _canonical_groups(melds))

    @classmethod
    def discard(cls, card: Card) -> Action:
        return cls("discard", (card,))

    @classmethod
    def ask(cls) -> Action:
        return cls("ask")

    @classmethod
    def answer(cls, yes: bool) -> Action:
        return cls("yes" if yes else "no")

    def all_cards(self) -> list[Card]:
        """Every card the action takes from the player's hand."""
        out = list(self.cards)
        for group in self.melds:
            out.extend(group.cards)
        return out

    def __str__(self) -> str:
        if self.kind in BARE_KINDS:
            return self.kind
        if self.kind in ("discard", "keep"):
            return f"{self.kind} {card_name(self.cards[0])}"
        if self.kind == "declare":
            return f"declare {self.hand}"
        groups = " | ".join(str(g) for g in self.melds)
        if self.kind == "meld":
            return f"meld {groups}"
        if self.kind == "combine":
            return "combine " + " ".join(f"@{g.target}" for g in self.melds)
        text = "take"
        if self.target:
            text += f" @{self.target}" + (":" if self.cards else "")
        if self.cards:
            text += " " + " ".join(card_name(c) for c in self.cards)
        if self.melds:
            text += " + " + groups
        return text

    def to_json(self) -> dict[str, Any]:
        """The JSON form: ``{"type": "meld", "melds": [{"cards": ["KH", "KS", "KD"]}]}``."""
        out: dict[str, Any] = {"type": self.kind}
        if self.kind in ("discard", "keep"):
            out["card"] = card_name(self.cards[0])
        elif self.kind == "take":
            out["cards"] = [card_name(c) for c in self.cards]
            if self.target:
                out["meld"] = self.target
        elif self.kind == "combine":
            out["melds"] = [g.target for g in self.melds]
            return out
        elif self.kind == "declare":
            out["hand"] = self.hand
            return out
        if self.kind in ("take", "meld") and (self.melds or self.kind == "meld"):
            out["melds"] = [_group_json(g) for g in self.melds]
        return out


_new_tuple = tuple.__new__


def group_of(cards: tuple[Card, ...], rank: int | None, target: int = 0) -> MeldGroup:
    """``MeldGroup(cards, rank, target)`` for cards already in canonical order, built without the named tuple's
    Python-level constructor (listings make thousands of these)."""
    return _new_tuple(MeldGroup, (cards, rank, target))


def meld_of(groups: tuple[MeldGroup, ...]) -> Action:
    """``Action("meld", (), groups)`` for canonical groups in canonical order, built the same quick way."""
    return _new_tuple(Action, ("meld", (), groups, 0, ""))


def single_meld(cards: tuple[Card, ...], rank: int | None) -> Action:
    """``Action("meld", (), (MeldGroup(cards, rank),))`` for cards already in canonical order."""
    return meld_of((group_of(cards, rank),))


#: Taking the pile with no cards from hand (the top card joins the side's meld): listed in every draw phase.
TAKE = Action("take")


def take_with(cards: tuple[Card, ...]) -> Action:
    """``Action.take(cards)`` for cards already in canonical order, built without the named tuple's Python-level
    constructor (the draw phase lists one for every pair that might meld the top card)."""
    return _new_tuple(Action, ("take", cards, (), 0, ""))


def _canonical_groups(groups: Sequence[MeldGroup]) -> tuple[MeldGroup, ...]:
    return tuple(sorted((MeldGroup.of(g.cards, g.rank, g.target) for g in groups), key=MeldGroup.sort_key))


def _group_json(group: MeldGroup) -> dict[str, Any]:
    out: dict[str, Any] = {"cards": [card_name(c) for c in group.cards]}
    if group.rank is not None:
        out["rank"] = RANK_NAMES[group.rank]
    if group.target:
        out["meld"] = group.target
    return out


#: The most melds a side can hold: a meld number above it is a typo, not a meld.
MAX_MELD_NUMBER = 999


def _meld_number(text: str, source: str, offset: int) -> int:
    """The meld a label such as ``@2`` names: the side's melds are numbered from 1 in the order laid."""
    digits = text[1:].strip()
    if not digits.isdigit() or not 1 <= int(digits) <= MAX_MELD_NUMBER:
        raise NotationError(
            f"{text!r} does not name a meld; expected '@' and the meld's number, from 1 (as in '@2')", source, offset
        )
    return int(digits)


def _parse_group(text: str, source: str, offset: int) -> MeldGroup:
    rank: int | None = None
    target = 0
    body = text
    if ":" in text:
        head, body = text.split(":", 1)
        label_at = offset + len(head) - len(head.lstrip())
        if head.strip().startswith("@"):
            target = _meld_number(head.strip(), source, label_at)
        else:
            rank = _label_rank(head.strip(), source, label_at)
        offset += len(head) + 1
    cards = _parse_card_list(body, source, offset)
    if not cards:
        raise NotationError("a meld group needs at least one card", source, offset)
    group = _normalise_group(cards, rank, source, offset)
    return group._replace(target=target) if target else group


_LABELS = "3, 4, 5, 6, 7, 8, 9, 10, J, Q, K or A"


def _label_rank(name: str, source: str, offset: int) -> int:
    """The rank a group label names: a rank melds can have (not a wild two or a joker)."""
    try:
        rank = rank_from_name(name)
    except NotationError:
        rank = -1
    if rank in (-1, 0, JOKER_RANK):
        raise NotationError(f"{name!r} is not the rank of a meld; expected {_LABELS} before ':'", source, offset)
    return rank


def _normalise_group(cards: list[Card], rank: int | None, source: str, offset: int) -> MeldGroup:
    natural_ranks = {rank_of(c) for c in cards if rank_of(c) not in (0, JOKER_RANK)}
    if rank is not None and natural_ranks and natural_ranks != {rank}:
        raise NotationError(f"the group is labelled {RANK_NAMES[rank]} but holds other ranks", source, offset)
    if natural_ranks:
        rank = None
    elif rank is None:
        # A group of wild cards alone; without a label it is a meld of wild cards (variants that allow them).
        pass
    return MeldGroup.of(cards, rank)


def _parse_card_list(text: str, source: str, offset: int) -> list[Card]:
    cards: list[Card] = []
    position = offset
    for raw in text.split(" "):
        if raw:
            cards.append(parse_card(raw, source=source, offset=position))
        position += len(raw) + 1
    return cards


def parse_action(text: str) -> Action:
    """Read an action written in the text notation; raises NotationError with a caret on a mistake."""
    text = text.replace("\t", " ").replace("\n", " ")  # any blank separates; one for one keeps the caret's column
    source = text
    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    if not stripped:
        raise NotationError("empty action; expected one of: " + ", ".join(ACTION_KINDS), source, 0)
    word, _, rest = stripped.partition(" ")
    kind = word.lower()
    rest_offset = lead + len(word) + 1
    if kind not in ACTION_KINDS:
        raise NotationError(f"unknown action {word!r}; expected one of: " + ", ".join(ACTION_KINDS), source, lead)
    if kind in BARE_KINDS:
        if rest.strip():
            raise NotationError(f"'{kind}' takes nothing after it", source, rest_offset)
        return Action(kind)
    if kind in ("discard", "keep"):
        cards = _parse_card_list(rest, source, rest_offset)
        if len(cards) != 1:
            example = "discard 7S" if kind == "discard" else "keep 3C"
            raise NotationError(f"'{kind}' needs exactly one card, such as '{example}'", source, rest_offset)
        return Action(kind, (cards[0],))
    if kind == "meld":
        groups = _parse_groups(rest, source, rest_offset)
        if not groups:
            raise NotationError("'meld' needs at least one group of cards", source, rest_offset)
        return Action.meld(groups)
    if kind == "combine":
        return _parse_combine(rest, source, rest_offset)
    if kind == "declare":
        return Action.declare(_hand_name(rest.strip(), source, rest_offset + len(rest) - len(rest.lstrip())))
    before_plus, plus, tail = rest.partition("+")
    head, target, head_offset = before_plus, 0, rest_offset
    if head.strip().startswith("@"):
        label, colon, after = head.partition(":")
        target = _meld_number(label.strip(), source, rest_offset + len(label) - len(label.lstrip()))
        if not colon and label.strip().count(" "):
            raise NotationError(
                "a meld named in a take is followed by ':' before cards, as in 'take @2: KH'", source, rest_offset
            )
        head_offset = rest_offset + len(label) + 1
        head = after
    take_cards = _parse_card_list(head, source, head_offset)
    groups = _parse_groups(tail, source, rest_offset + len(before_plus) + 1) if plus else []
    if plus and not groups:
        raise NotationError("'+' must be followed by melds", source, rest_offset + len(before_plus))
    return Action.take(take_cards, groups, target)


def _parse_combine(text: str, source: str, offset: int) -> Action:
    """``combine @1 @3``: two different melds of the side, by number."""
    numbers: list[int] = []
    position = offset
    for raw in text.split(" "):
        if raw:
            numbers.append(_meld_number(raw, source, position))
        position += len(raw) + 1
    if len(numbers) != 2 or numbers[0] == numbers[1]:
        raise NotationError("'combine' needs two different melds, such as 'combine @1 @3'", source, offset)
    return Action.combine(numbers[0], numbers[1])


_HAND_NAME = re.compile(r"[a-z][a-z0-9_]*")


def _hand_name(text: str, source: str = "", offset: int | None = None) -> str:
    """The special hand a declaration names: one word of letters, digits and '_' (``straight``, ``wild_pairs``),
    read in lower case."""
    name = text.lower()
    if not _HAND_NAME.fullmatch(name):
        raise NotationError(
            f"'declare' needs the name of a special hand, one word such as 'straight', got {text!r}", source, offset
        )
    return name


def _parse_groups(text: str, source: str, offset: int) -> list[MeldGroup]:
    groups: list[MeldGroup] = []
    position = offset
    for part in text.split("|"):
        if part.strip():
            groups.append(_parse_group(part, source, position))
        elif groups or "|" in text:
            raise NotationError("empty meld group between '|'", source, position)
        position += len(part) + 1
    return groups


def action_from_json(data: object) -> Action:
    """Read the JSON form; raises NotationError naming the field on a mistake."""
    if not isinstance(data, Mapping):
        raise NotationError(f"an action must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind not in ACTION_KINDS:
        raise NotationError(f"field 'type' must be one of {', '.join(ACTION_KINDS)}, got {kind!r}")
    allowed = (
        {"type"}
        if kind in BARE_KINDS
        else {"type", "hand"}
        if kind == "declare"
        else {"type", "cards", "melds", "meld"}
        if kind == "take"
        else {"type", "melds"}
        if kind in ("meld", "combine")
        else {"type", "card"}
    )
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise NotationError(
            f"unknown field {unknown[0]!r} in a '{kind}' action; expected: {', '.join(sorted(allowed))}"
        )
    if kind in BARE_KINDS:
        return Action(kind)
    if kind in ("discard", "keep"):
        return Action(kind, (_json_card(data.get("card"), "card"),))
    if kind == "declare":
        hand = data.get("hand")
        if not isinstance(hand, str):
            raise NotationError(f"field 'hand' of a 'declare' action must be a special hand's name, got {hand!r}")
        return Action.declare(_hand_name(hand))
    if kind == "combine":
        numbers = [_meld_number_of(n) for n in _json_list(data.get("melds", []), "melds")]
        if len(numbers) != 2 or numbers[0] is None or numbers[1] is None or numbers[0] == numbers[1]:
            raise NotationError("field 'melds' of a 'combine' action must be two different meld numbers, from 1")
        return Action.combine(numbers[0], numbers[1])
    groups = [_json_group(g, i) for i, g in enumerate(_json_list(data.get("melds", []), "melds"))]
    if kind == "meld":
        if not groups:
            raise NotationError("field 'melds' of a 'meld' action needs at least one group")
        return Action.meld(groups)
    cards = [_json_card(c, f"cards[{i}]") for i, c in enumerate(_json_list(data.get("cards", []), "cards"))]
    target = _meld_number_of(data["meld"]) if "meld" in data else 0
    if target is None:
        raise NotationError(f"field 'meld' must be a meld number from 1 to {MAX_MELD_NUMBER}, got {data['meld']!r}")
    return Action.take(cards, groups, target)


def _meld_number_of(value: object) -> int | None:
    """A JSON meld number (an int from 1), or None for anything else."""
    return value if type(value) is int and 1 <= value <= MAX_MELD_NUMBER else None


def _json_list(value: object, field: str) -> list[object]:
    if not isinstance(value, list):
        raise NotationError(f"field '{field}' must be a list")
    return value


def _json_card(value: object, field: str) -> Card:
    if not isinstance(value, str):
        raise NotationError(f"field '{field}' must be a card such as \"KH\", got {value!r}")
    try:
        return parse_card(value)
    except NotationError as error:
        raise NotationError(f"field '{field}': {str(error).splitlines()[0]}") from None


def _json_group(value: object, index: int) -> MeldGroup:
    field = f"melds[{index}]"
    if not isinstance(value, Mapping) or "cards" not in value or set(value) - {"cards", "rank", "meld"}:
        raise NotationError(f"field '{field}' must be an object with 'cards' and an optional 'rank' or 'meld'")
    cards = [_json_card(c, f"{field}.cards[{i}]") for i, c in enumerate(_json_list(value["cards"], f"{field}.cards"))]
    if not cards:
        raise NotationError(f"field '{field}.cards' needs at least one card")
    rank_text = value.get("rank")
    rank = None
    if rank_text is not None:
        if not isinstance(rank_text, str):
            raise NotationError(f"field '{field}.rank' must be a rank such as \"K\"")
        try:
            rank = _label_rank(rank_text, "", 0)
        except NotationError:
            raise NotationError(
                f"field '{field}.rank': {rank_text!r} is not the rank of a meld; expected {_LABELS}"
            ) from None
    target = _meld_number_of(value["meld"]) if "meld" in value else 0
    if target is None:
        raise NotationError(f"field '{field}.meld' must be a meld number from 1 to {MAX_MELD_NUMBER}")
    if target and rank is not None:
        raise NotationError(f"field '{field}' names a meld; it takes no 'rank' as well")
    group = _normalise_group(cards, rank, "", 0)
    return group._replace(target=target) if target else group
