"""The mutable position of one hand, and the melds on the table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal, NamedTuple

from .cards import JOKER, SORT_ORDER, Card, cards_of

Phase = Literal["draw", "play", "answer", "keep", "over"]
Permission = Literal["none", "yes", "no"]


class Meld(NamedTuple):
    """A meld on the table: a multiset of cards of one rank (plus wild cards). Immutable; additions replace it.
    A ``closed`` meld (hook meld.closed) is set aside: no card joins it, and cards of its rank start a new one."""

    rank: int
    cards: tuple[Card, ...]
    naturals: int
    wilds: int
    jokers: int
    size: int
    closed: bool = False

    @staticmethod
    def build(rank: int, cards: Sequence[Card], is_wild: Sequence[bool]) -> Meld:
        ordered = tuple(sorted(cards, key=SORT_ORDER.__getitem__))
        wilds = jokers = 0
        for card in ordered:
            if is_wild[card]:
                wilds += 1
            if card == JOKER:
                jokers += 1
        return tuple.__new__(Meld, (rank, ordered, len(ordered) - wilds, wilds, jokers, len(ordered), False))

    def plus(self, cards: Sequence[Card], is_wild: Sequence[bool]) -> Meld:
        """This meld with ``cards`` added: the new cards sorted and counted alone, then merged into the sorted
        cards already there (a take or a meld adds a card or two to a meld of many)."""
        added = Meld.build(self.rank, cards, is_wild)
        return tuple.__new__(
            Meld,
            (
                self.rank,
                _merged(self.cards, added.cards),
                self.naturals + added.naturals,
                self.wilds + added.wilds,
                self.jokers + added.jokers,
                self.size + added.size,
                False,
            ),
        )


def _merged(first: tuple[Card, ...], second: tuple[Card, ...]) -> tuple[Card, ...]:
    """Two tuples of cards in ``SORT_ORDER`` as one, in that order (those of ``first`` before equal ones of
    ``second``, as a stable sort of the two joined would place them)."""
    out: list[Card] = []
    at = 0
    for card in second:
        place = SORT_ORDER[card]
        while at < len(first) and SORT_ORDER[first[at]] <= place:
            out.append(first[at])
            at += 1
        out.append(card)
    out.extend(first[at:])
    return tuple(out)


#: The kinds of fact kept by seat in ``Facts.slots``: the table values (``checks.table_values``), the side's
#: canastas as a tally, whether the pile is frozen for the seat, the ``pile.take`` values that do not depend on the
#: cards offered, the hand sorted (``movegen.HandCards``), the side's initial meld minimum (``checks.initial_minimum``),
#: the table of every kind's ``action.allowed`` answer (``checks.kind_refusal``); and by side, the ``checks.RankFacts``.
TABLE_VALUES: Final = 0
SIDE_TALLY: Final = 1
PILE_FROZEN: Final = 2
TAKE_VALUES: Final = 3
HAND_CARDS: Final = 4
RANK_FACTS: Final = 5
MINIMUM: Final = 6
KIND_REFUSALS: Final = 7
_FACT_KINDS: Final = 8


class Facts:
    """What has been computed from one position under one set of rules (``HandState.derived``): every listing reads
    a dozen of these, and a slot costs less to reach than a dict keyed by strings and tuples. The facts by seat (or
    side) share one list, ``slots``, a kind of fact to each stretch of ``players`` places (``TABLE_VALUES`` and the
    other kinds above; None: not yet computed), so that a position costs two objects, not one a kind. ``checks``
    fills and reads them (types it cannot name here, for want of an import circle, are Any)."""

    def __init__(self, rules: object, players: int) -> None:
        #: The rules the facts were computed under: facts of other rules are never read.
        self.rules = rules
        self.players = players
        self.slots: list[Any] = [None] * (players * _FACT_KINDS)
        #: The ``go_out.allowed`` clause refusing a seat to go out with a tally (None: it may), keyed by the tally
        #: and the seat packed into an int (``checks.go_out_refusal``).
        self.out: dict[int, Any] | None = None
        #: The plans of the melds and takes the listing checked, by the action's identity (with the action kept,
        #: so that an identity is never reused while its plan is here): apply need not plan them again.
        self.plans: dict[int, tuple[Any, Any]] | None = None
        #: The legal actions (``blocks.Listing``), and those handed out to the caller.
        self.listing: Any = None
        self.listed: list[Any] | None = None

    def at(self, kind: int, seat: int) -> Any:
        """The fact of ``kind`` for ``seat`` (or side), None if not yet computed."""
        return self.slots[kind * self.players + seat]

    def keep(self, kind: int, seat: int, value: Any) -> None:
        """Set the fact of ``kind`` for ``seat`` (or side)."""
        self.slots[kind * self.players + seat] = value


@dataclass
class HandState:
    """Everything about a hand in progress. ``copy`` is cheap enough to snapshot before every action."""

    stock: list[Card]
    pile: list[Card]
    #: Each seat's cards as counts by card. Tuples, never changed in place (``give`` and ``take_away`` put a new
    #: one in), so an undo snapshot shares them instead of copying four hands an action.
    hands: list[tuple[int, ...]]
    hand_sizes: list[int]
    #: Each side's melds, in the order they were laid; each seat's bonus cards laid out. Tuples, replaced and never
    #: changed in place, like the hands, and shared by undo snapshots.
    melds: list[tuple[Meld, ...]]
    bonus: list[tuple[Card, ...]]
    team_scores: list[int]
    to_act: int
    phase: Phase = "draw"
    pile_wilds: int = 0
    pile_red_threes: int = 0
    pile_black_threes: int = 0
    upcard_froze: bool = False
    team_opened: list[bool] = field(default_factory=list)
    seat_melded: list[bool] = field(default_factory=list)
    permission: Permission = "none"
    asker: int = -1
    melded_this_turn: bool = False
    asked_this_turn: bool = False
    #: The seats that have asked "may I go out?" in this hand, as bits (seat s is bit s): some rules allow one
    #: question a hand, not one a turn.
    asked_in_hand: int = 0
    took_pile_this_turn: bool = False
    added_to_existing_this_turn: bool = False
    melded_before_turn: bool = False
    created_this_turn: list[int] = field(default_factory=list)
    end_reason: str | None = None
    went_out: int | None = None
    concealed: bool = False
    last_card_bonus: bool = False
    turns: int = 0
    #: Each seat's side, indexing ``melds``, ``team_opened`` and the side scores: a plain list, so the lookup on
    #: the hot paths costs what ``seat % teams`` did, and a variant may change it during the hand.
    side_of: list[int] = field(default_factory=list)
    #: Per seat, under a rule that lays out dealt bonus cards at the holder's first turn: whether that turn is
    #: still to come. Empty when bonus cards are laid out at the deal.
    awaiting_first_turn: list[bool] = field(default_factory=list)
    #: Per side, the penalty points its players incurred in play (hook penalty.turn_end). Empty: none so far.
    penalties: list[int] = field(default_factory=list)
    #: Per seat, its foot (hook deal.foot_size): a second hand dealt face down, which the player picks up when
    #: the first is played out; empty once picked up. An empty list where the variant deals no foot. Tuples, like
    #: the hands.
    feet: list[tuple[Card, ...]] = field(default_factory=list)
    #: The talons still face down (hook bonus_draw.from_talons), in the order the sides claim them: the first one is
    #: the next taken, claimed or not. Empty where the variant sets none aside, or once all are taken.
    talons: list[tuple[Card, ...]] = field(default_factory=list)
    #: Per seat, the bonus cards it earned by making its side's initial meld and draws at the start of its next
    #: turn (hook bonus_draw.count; under talons, the size of the talon it claimed). Empty: none owed so far.
    bonus_draws_owed: list[int] = field(default_factory=list)
    #: Which deal of the match this is, from 1 (some variants' opening minimum goes by it).
    hand_number: int = 1
    #: The special hand that ended the hand (hook special_hand.shape), by name, and its cards as laid down, in card
    #: order; '' and () otherwise. Its declarer is ``went_out``.
    special_hand: str = ""
    special_cards: tuple[Card, ...] = ()
    #: While play waits for a player to keep a bonus card or lay them out (phase ``keep``, hook bonus_card.keep):
    #: the phase the turn goes back to then.
    resume_phase: Phase = "draw"
    #: Facts computed from this position (the table variables, whether the pile is frozen, ...), kept while it
    #: stands: ``Game.apply`` clears them for the changed position; copies start without.
    derived: Facts | None = field(default=None, compare=False, repr=False)

    def copy(self) -> HandState:
        """A copy sharing nothing mutable (hands and melds are immutable and shared); computed facts are not copied."""
        return HandState.restore(self.snapshot())

    def snapshot(self, previous: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
        """The position as plain values, for the undo stack, in as few objects the garbage collector tracks as
        can be: a snapshot is kept per action for the rest of the hand, and every tracked object kept brings the
        next collection nearer (a collection cost random play more than the copying did). Hands, melds, bonus
        cards, feet and talons are immutable tuples and are shared, not copied; where they are all the same objects
        as in ``previous`` (the snapshot taken before the last action), its tuple of them is shared too, so most
        actions add none. The long card lists (stock, pile) are packed into byte arrays, which are not tracked. The
        scalars follow, in the order of ``_SCALARS``; then the short lists of numbers (hand sizes, scores, flags by
        seat or side), each after its length, in the order of ``_NUMBER_LISTS``: all in the one tuple, which
        ``restore`` reads (getters built from those names cost half as much again); a test round-trips a position
        with every field changed."""
        return (
            _packed(self.stock),
            _packed(self.pile),
            _shared(self.hands, previous, 2),
            _shared(self.melds, previous, 3),
            _shared(self.bonus, previous, 4),
            tuple(self.feet) if self.feet else (),
            tuple(self.talons) if self.talons else (),
            self.to_act,
            self.phase,
            self.pile_wilds,
            self.pile_red_threes,
            self.pile_black_threes,
            self.upcard_froze,
            self.permission,
            self.asker,
            self.melded_this_turn,
            self.asked_this_turn,
            self.asked_in_hand,
            self.took_pile_this_turn,
            self.added_to_existing_this_turn,
            self.melded_before_turn,
            self.end_reason,
            self.went_out,
            self.concealed,
            self.last_card_bonus,
            self.turns,
            self.hand_number,
            self.special_hand,
            self.special_cards,
            self.resume_phase,
            len(self.hand_sizes),
            *self.hand_sizes,
            len(self.team_scores),
            *self.team_scores,
            len(self.team_opened),
            *self.team_opened,
            len(self.seat_melded),
            *self.seat_melded,
            len(self.created_this_turn),
            *self.created_this_turn,
            len(self.side_of),
            *self.side_of,
            len(self.awaiting_first_turn),
            *self.awaiting_first_turn,
            len(self.penalties),
            *self.penalties,
            len(self.bonus_draws_owed),
            *self.bonus_draws_owed,
        )

    @staticmethod
    def restore(snapshot: tuple[Any, ...]) -> HandState:
        """The position a ``snapshot`` was taken of."""
        values: dict[str, Any] = {
            "stock": list(snapshot[0]),
            "pile": list(snapshot[1]),
            "hands": list(snapshot[2]),
            "melds": list(snapshot[3]),
            "bonus": list(snapshot[4]),
            "feet": list(snapshot[5]),
            "talons": list(snapshot[6]),
        }
        values.update(zip(_SCALARS, snapshot[_SCALARS_AT:_NUMBERS_AT], strict=True))
        at = _NUMBERS_AT
        for name in _NUMBER_LISTS:
            end = at + 1 + snapshot[at]
            values[name] = list(snapshot[at + 1 : end])
            at = end
        return HandState(**values)

    def give(self, seat: int, cards: Sequence[Card]) -> None:
        """Put ``cards`` into a seat's hand."""
        self._move(seat, cards, 1)

    def take_away(self, seat: int, cards: Sequence[Card]) -> None:
        """Take ``cards`` out of a seat's hand (they must be there: plans check it)."""
        self._move(seat, cards, -1)

    def _move(self, seat: int, cards: Sequence[Card], step: int) -> None:
        counts = list(self.hands[seat])
        for card in cards:
            counts[card] += step
        self.hands[seat] = tuple(counts)
        self.hand_sizes[seat] += step * len(cards)

    def cards_held(self, seat: int) -> int:
        """The cards a seat still has to play: its hand and, until picked up, its foot. A player goes out only
        when this reaches nothing; an emptied hand with a foot waiting picks the foot up instead. Bonus cards owed
        for the initial meld count too: they are the player's to play on with (hook bonus_draw.count)."""
        held = self.hand_sizes[seat] + (len(self.feet[seat]) if self.feet else 0)
        return held + self.bonus_draws_owed[seat] if self.bonus_draws_owed else held

    def hand_cards(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    def seats_of(self, side: int) -> list[int]:
        """The seats playing for ``side``, in seat order."""
        return [seat for seat, of in enumerate(self.side_of) if of == side]

    def partner_of(self, seat: int) -> int | None:
        """The next seat clockwise playing for the same side (the one asked "may I go out?"), or None."""
        players = len(self.side_of)
        for step in range(1, players):
            other = (seat + step) % players
            if self.side_of[other] == self.side_of[seat]:
                return other
        return None

    def meld_of_rank(self, team: int, rank: int) -> Meld | None:
        """The side's open meld of ``rank`` (closed ones are set aside), or None."""
        return open_meld(self.melds[team], rank)

    def all_cards(self) -> list[Card]:
        """Every card of the deck wherever it lies: for conservation checks."""
        out = list(self.stock) + list(self.pile)
        for counts in self.hands:
            out.extend(cards_of(counts))
        for team in self.melds:
            for meld in team:
                out.extend(meld.cards)
        for cards in (*self.bonus, *self.feet, *self.talons, self.special_cards):
            out.extend(cards)
        return out


def open_meld(melds: Sequence[Meld], rank: int) -> Meld | None:
    """The open meld of ``rank`` among a side's ``melds`` (a side has at most one; closed ones are set aside)."""
    for meld in melds:
        if meld.rank == rank and not meld.closed:
            return meld
    return None


def _shared(items: list[Any], previous: tuple[Any, ...] | None, at: int) -> tuple[Any, ...]:
    """``tuple(items)``, or the equal tuple at ``previous[at]`` when it holds the very same objects (no new object
    for the undo stack to keep)."""
    if previous is not None:
        known: tuple[Any, ...] = previous[at]
        if len(known) == len(items):
            for i in range(len(items)):  # indexed, not zipped: a compiled zip is a generic call, dearer than the copy
                if items[i] is not known[i]:
                    return tuple(items)
            return known
    return tuple(items)


def _packed(values: Sequence[int]) -> bytearray | tuple[int, ...]:
    """Small non-negative ints (cards, counts) as a ``bytearray`` (untracked, and quicker to build from a list
    than ``bytes``); anything else as a tuple, so nothing is lost."""
    try:
        return bytearray(values)
    except (TypeError, ValueError):
        return tuple(values)


#: The lists of numbers and flags a snapshot packs into one flat tuple, in its order.
_NUMBER_LISTS = (
    "hand_sizes",
    "team_scores",
    "team_opened",
    "seat_melded",
    "created_this_turn",
    "side_of",
    "awaiting_first_turn",
    "penalties",
    "bonus_draws_owed",
)
_LISTS = frozenset({"stock", "pile", "hands", "melds", "bonus", "feet", "talons", *_NUMBER_LISTS})
#: The fields a snapshot keeps as they are, after its lists, in field order.
_SCALARS = tuple(f.name for f in fields(HandState) if f.name != "derived" and f.name not in _LISTS)
#: Where a snapshot's scalars begin (after the seven card lists), and where its lists of numbers begin.
_SCALARS_AT: Final = 7
_NUMBERS_AT: Final = _SCALARS_AT + len(_SCALARS)
