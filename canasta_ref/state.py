"""The mutable position of one hand, and the melds on the table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .cards import JOKER, Card, cards_of, sort_key

Phase = Literal["draw", "play", "answer", "over"]
Permission = Literal["none", "yes", "no"]


@dataclass(frozen=True)
class Meld:
    """A meld on the table: a multiset of cards of one rank (plus wild cards). Immutable; additions replace it."""

    rank: int
    cards: tuple[Card, ...]
    naturals: int
    wilds: int
    jokers: int
    size: int

    @staticmethod
    def build(rank: int, cards: Sequence[Card], is_wild: Sequence[bool]) -> Meld:
        ordered = tuple(sorted(cards, key=sort_key))
        wilds = sum(1 for c in ordered if is_wild[c])
        jokers = sum(1 for c in ordered if c == JOKER)
        return Meld(rank, ordered, len(ordered) - wilds, wilds, jokers, len(ordered))

    def plus(self, cards: Sequence[Card], is_wild: Sequence[bool]) -> Meld:
        return Meld.build(self.rank, (*self.cards, *cards), is_wild)


@dataclass
class HandState:
    """Everything about a hand in progress. ``copy`` is cheap enough to snapshot before every action."""

    stock: list[Card]
    pile: list[Card]
    hands: list[list[int]]
    hand_sizes: list[int]
    melds: list[list[Meld]]
    bonus: list[list[Card]]
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
    took_pile_this_turn: bool = False
    added_to_existing_this_turn: bool = False
    melded_before_turn: bool = False
    created_this_turn: list[int] = field(default_factory=list)
    end_reason: str | None = None
    went_out: int | None = None
    concealed: bool = False
    last_card_bonus: bool = False
    turns: int = 0

    def copy(self) -> HandState:
        clone = HandState(
            stock=list(self.stock),
            pile=list(self.pile),
            hands=[list(h) for h in self.hands],
            hand_sizes=list(self.hand_sizes),
            melds=[list(m) for m in self.melds],
            bonus=[list(b) for b in self.bonus],
            team_scores=list(self.team_scores),
            to_act=self.to_act,
        )
        for name in _SCALARS:
            setattr(clone, name, getattr(self, name))
        clone.team_opened = list(self.team_opened)
        clone.seat_melded = list(self.seat_melded)
        clone.created_this_turn = list(self.created_this_turn)
        return clone

    def hand_cards(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    def meld_of_rank(self, team: int, rank: int) -> Meld | None:
        for meld in self.melds[team]:
            if meld.rank == rank:
                return meld
        return None

    def all_cards(self) -> list[Card]:
        """Every card of the deck wherever it lies: for conservation checks."""
        out = list(self.stock) + list(self.pile)
        for counts in self.hands:
            out.extend(cards_of(counts))
        for team in self.melds:
            for meld in team:
                out.extend(meld.cards)
        for cards in self.bonus:
            out.extend(cards)
        return out


_SCALARS = (
    "phase",
    "pile_wilds",
    "pile_red_threes",
    "pile_black_threes",
    "upcard_froze",
    "permission",
    "asker",
    "melded_this_turn",
    "asked_this_turn",
    "took_pile_this_turn",
    "added_to_existing_this_turn",
    "melded_before_turn",
    "end_reason",
    "went_out",
    "concealed",
    "last_card_bonus",
    "turns",
)
