"""Cards and their notation.

A card is an ``int`` from 0 to 52: ``rank * 4 + suit`` for the 52 suited cards and 52 for a joker.
Two copies of the same card in a double deck are the same value, so hands and melds are multisets.
Text notation: rank (``2``-``10``, ``J``, ``Q``, ``K``, ``A``) then suit (``C``, ``D``, ``H``, ``S``),
or ``JK`` for a joker: ``KH 10S 2C JK``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ..errors import NotationError

Card = int

RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK")
SUIT_NAMES: Final = ("C", "D", "H", "S")
JOKER: Final = 52
JOKER_RANK: Final = 13
CARD_TYPES: Final = 53
RANK_COUNT: Final = 14
#: The rank index of a sequence meld (cards of one suit in order, hook meld.sequence): one past the joker's, so
#: tables indexed by a meld's rank (canasta sizes) have a place for it. No card has this rank.
SEQUENCE_RANK: Final = 14
#: A meld's rank as its clauses read it: the card ranks, then the empty rank of a sequence.
MELD_RANK_NAMES: Final = (*RANK_NAMES, "")
#: Natural ranks in sequence order (threes up to aces): a sequence's cards run without a gap in this order.
SEQUENCE_ORDER: Final = tuple(range(1, 13))

_RANK_INDEX: Final = {name: i for i, name in enumerate(RANK_NAMES)}
_SUIT_INDEX: Final = {name: i for i, name in enumerate(SUIT_NAMES)}


def rank_of(card: Card) -> int:
    """Rank index: 0 for a two, 12 for an ace, 13 for a joker."""
    return JOKER_RANK if card == JOKER else card >> 2


def suit_of(card: Card) -> int | None:
    """Suit index 0-3, or ``None`` for a joker."""
    return None if card == JOKER else card & 3


def make_card(rank: int, suit: int) -> Card:
    return JOKER if rank == JOKER_RANK else rank * 4 + suit


def is_red(card: Card) -> bool:
    return card != JOKER and (card & 3) in (1, 2)


def card_name(card: Card) -> str:
    if card == JOKER:
        return "JK"
    return RANK_NAMES[card >> 2] + SUIT_NAMES[card & 3]


def rank_from_name(name: str) -> int:
    """Rank index of a rank name such as ``K``, ``10`` or ``JK``."""
    try:
        return _RANK_INDEX[name.upper()]
    except KeyError:
        raise NotationError(f"unknown rank {name!r}; expected one of {', '.join(RANK_NAMES)}") from None


def parse_card(text: str, *, source: str | None = None, offset: int = 0) -> Card:
    """Read one card such as ``KH``, ``10S`` or ``JK``."""
    token = text.strip().upper()
    where = source if source is not None else text
    if token == "JK":
        return JOKER
    if len(token) >= 2 and token[:-1] in _RANK_INDEX and token[-1] in _SUIT_INDEX and token[:-1] != "JK":
        return _RANK_INDEX[token[:-1]] * 4 + _SUIT_INDEX[token[-1]]
    raise NotationError(
        f"{text.strip()!r} is not a card; expected a rank (2-10, J, Q, K, A) and a suit (C, D, H, S), or JK",
        where,
        offset,
    )


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces or commas: ``KH KS 2C``."""
    cards: list[Card] = []
    position = 0
    for raw in text.replace(",", " ").replace("\t", " ").replace("\n", " ").split(" "):
        if raw:
            cards.append(parse_card(raw, source=text, offset=position))
        position += len(raw) + 1
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical order (rank, then suit), so that equal multisets print the same."""
    return " ".join(card_name(c) for c in sorted(cards, key=sort_key))


def sort_key(card: Card) -> tuple[int, int]:
    """Threes up to aces, then twos, then jokers: the order in which players read a meld."""
    rank = rank_of(card)
    return (
        12 if rank == 0 else rank - 1 if rank < JOKER_RANK else JOKER_RANK,
        card & 3 if card != JOKER else 0,
    )


#: Each card's place in ``sort_key`` order, as one int: ``sorted(cards, key=SORT_ORDER.__getitem__)`` sorts
#: like ``sort_key`` without calling a Python function per card.
SORT_ORDER: Final = [4 * sort_key(card)[0] + sort_key(card)[1] for card in range(CARD_TYPES)]


def counts_of(cards: Iterable[Card]) -> list[int]:
    """A multiset as a list of 53 counts."""
    counts = [0] * CARD_TYPES
    for card in cards:
        counts[card] += 1
    return counts


def cards_of(counts: Sequence[int]) -> list[Card]:
    """The cards of a count vector, in canonical order."""
    out: list[Card] = []
    for card in sorted(range(CARD_TYPES), key=sort_key):
        out.extend([card] * counts[card])
    return out


def full_deck(packs: int, jokers_per_pack: int) -> list[Card]:
    """The unshuffled deck: ``packs`` packs of 52 plus their jokers, in a fixed order."""
    deck: list[Card] = []
    for _ in range(packs):
        deck.extend(range(52))
        deck.extend([JOKER] * jokers_per_pack)
    return deck
