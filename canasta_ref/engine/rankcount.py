"""What the openings' and the takes' counters share (``openings.OpeningCounter``, ``takecount.TakeCounter``, issue
40): a unit's ``Sum`` (a sequence or a group of one rank, judged once as a new meld), the wild cards used packed by
type, and one rank's multisets of groups, walked (``RankWalk``) or counted and found by sum without the walk
(``RankMultisets``), each rank's kept by the cards it hangs on (``RankGroups``), so that a count and every draw
after it read one counting.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, TypeVar

from .actions import MeldGroup
from .cards import CARD_TYPES, Card
from .checks import (
    MELD_VALID,
    RankFacts,
    Tally,
    canasta_tally,
    group_rank,
    meld_values,
    melds_composition,
    natural_ranks,
)
from .combos import capped
from .movegen import HandCards, Shape, expand_shapes
from .named import new_sequences, wild_choices
from .rules import Rules
from .state import HandState, Meld

#: What a unit, or a rank's multiset of groups, adds to an opening or a take: the wild cards it uses (packed, see
#: ``WildCards``), natural cards it leaves of those it could use (a rank's; 0 for a sequence), points, canastas (a
#: ``checks.Tally``), composition bits, valid kept, valid going out, groups, cards used.
Sum = tuple[int, int, int, Tally, int, bool, bool, int, int]

#: The sum of no unit.
NO_SUM: Final[Sum] = (0, 0, 0, 0, 0, True, True, 0, 0)

#: A unit's cards as (card, copies) pairs, and its ``Sum``.
Unit = tuple[tuple[tuple[Card, int], ...], Sum]

#: Bits a wild card type's count takes in a packed count of wild cards used, the top one a guard: no hand holds
#: 127 copies of a card.
_WILD_BITS: Final = 8

_K = TypeVar("_K")


class WildCards:
    """The wild cards of a hand counted by type and packed into one int (``_WILD_BITS`` a type), so that the wild
    cards a state has used add up as one number, and whether the hand pays for them is one subtraction: the
    held count carries each field's guard bit, which a use beyond the cards held clears."""

    def __init__(self, rules: Rules, counts: Sequence[int]) -> None:
        self.places = {card: place for place, card in enumerate(rules.wild_cards)}
        #: How many wild cards the hand holds.
        self.held_count = sum(counts[card] for card in rules.wild_cards)
        self.guards = sum(1 << (_WILD_BITS * place + _WILD_BITS - 1) for place in range(len(rules.wild_cards)))
        self.held = self.guards + self.packed([card for card in rules.wild_cards for _ in range(counts[card])])

    def packed(self, cards: Sequence[Card]) -> int:
        """The wild cards among ``cards``, counted by type and packed."""
        packed = 0
        for card in cards:
            place = self.places.get(card)
            if place is not None:
                packed += 1 << _WILD_BITS * place
        return packed

    def count(self, packed: int) -> int:
        """How many wild cards a packed count holds."""
        mask = (1 << _WILD_BITS) - 1
        return sum(packed >> _WILD_BITS * place & mask for place in range(len(self.places)))

    def fits(self, packed: int) -> bool:
        """Whether the wild cards held pay for a packed count of them."""
        return (self.held - packed) & self.guards == self.guards


class RankGroups:
    """One rank's groups as a counter reads them: each group's ``Sum`` (kept by group), and per rank and the cards
    of that rank and wild cards a hand holds (``signature``, what the rank's choices hang on), its groups and their
    ``RankMultisets``, made once and read by the count and every draw. A multiset's sum gives the natural cards of
    the rank it leaves in place of the cards it uses, capped at ``left_cap``, and its groups capped at
    ``most_groups``."""

    def __init__(
        self,
        rules: Rules,
        table: tuple[object, ...],
        facts: RankFacts,
        wilds: WildCards,
        repeats: bool,
        most_groups: int,
        left_cap: int | None,
    ) -> None:
        self.rules = rules
        self.table = table
        self.facts = facts
        self.wilds = wilds
        self.repeats = repeats
        self.most_groups = most_groups
        self.left_cap = left_cap
        #: Keyed by each group as a plain tuple (equal to the group, and hashed alike), as ``_made`` keeps them.
        self._sums: dict[_Plain, Sum] = {}
        self._made: dict[tuple[int, tuple[int, ...]], tuple[tuple[_Plain, ...], RankMultisets]] = {}
        self._counted: dict[tuple[int, tuple[int, ...]], dict[Sum, int]] = {}
        self._sequences: list[tuple[list[MeldGroup], list[int]]] | None = None

    def unit(self, group: MeldGroup) -> Sum:
        """One sequence or group as a ``Sum``, judged by hook meld.valid as a new meld, kept and going out."""
        known = self._sums.get(group)
        if known is None:
            cards = group.cards
            meld = Meld.build(group_rank(self.rules, group), cards, self.rules.is_wild)
            known = self._sums[_plain(group)] = self.meld_sum(meld, cards)
        return known

    def sum_of(self, units: Sequence[MeldGroup]) -> Sum:
        """What ``units`` (sequences or groups) add together, as one ``Sum`` (no cards left counted): the openings'
        multisets of sequences and the takes' alike."""
        wilds = used = points = composition = 0
        tally: Tally = 0
        staying = leaving = True
        for unit in units:
            w, _, p, t, c, s, lv, _, u = self.unit(unit)
            wilds, used, points, tally, composition = wilds + w, used + u, points + p, tally + t, composition | c
            staying, leaving = staying and s, leaving and lv
        return wilds, 0, points, tally, composition, staying, leaving, len(units), used

    def meld_sum(self, meld: Meld, cards: Sequence[Card]) -> Sum:
        """A new meld of ``cards`` as a ``Sum``."""
        return meld_sum(self.rules, self.table, self.facts, meld, cards, self.wilds.packed(cards))

    def sequence_choices(self, state: HandState, counts: Sequence[int]) -> list[tuple[list[MeldGroup], list[int]]]:
        """Every multiset of the candidate sequences of the hand ``counts``, with the cards it leaves (found once:
        one hand a counter)."""
        if self._sequences is not None:
            return self._sequences
        sequences = new_sequences(self.rules, state, counts, wild_choices(self.rules, counts))
        units = [MeldGroup.of(cards) for cards in sequences]
        walk = RankWalk([(card_pairs(unit.cards), self.unit(unit)) for unit in units], list(counts), True, 1)
        out: list[tuple[list[MeldGroup], list[int]]] = [([], list(counts))]
        for _, chosen in walk.each(0, NO_SUM, []):
            out.append(([units[place] for place in chosen], list(walk.counts)))  # the walk holds what they leave
        self._sequences = out
        return out

    def units_of(self, hand: HandCards, shapes: list[Shape]) -> tuple[list[MeldGroup], list[Unit]]:
        """One rank's groups of ``shapes`` that ``hand`` holds, in order, and each as a unit of a multiset."""
        groups = [found[0] for shape in shapes for found in expand_shapes(hand, [shape])]
        return groups, [(card_pairs(group.cards), self.unit(group)) for group in groups]

    def signature(self, rank: int, rest: Sequence[int]) -> tuple[int, ...]:
        """What a rank's choices of groups hang on in the cards ``rest``: its natural cards and the wild cards."""
        rules = self.rules
        natural_cards = rules.natural_cards[rank] if rank < len(rules.natural_cards) else ()
        return tuple(rest[card] for card in (*natural_cards, *rules.wild_cards))

    def sums_of(self, rank: int, hand: HandCards, shapes: list[Shape], rest: list[int]) -> dict[Sum, int]:
        """One rank's distinct non-empty multisets of the groups of ``shapes`` the cards ``rest`` (``hand``) hold
        (one group at most where the spec repeats no rank), counted by their sum (the cards used left out)."""
        key = (rank, self.signature(rank, rest))
        known = self._counted.get(key)
        if known is None:
            known = self._counted[key] = self._multisets(rank, hand, shapes, rest)[1].counted()
        return known

    def multiset(
        self, rank: int, hand: HandCards, shapes: list[Shape], rest: list[int], choice: Sum, which: int
    ) -> list[MeldGroup]:
        """The ``which``-th multiset of the rank's groups (in ``RankWalk``'s order) whose sum is ``choice``."""
        groups, multisets = self._multisets(rank, hand, shapes, rest)
        return [MeldGroup(*groups[place]) for place in multisets.find(choice, which)]

    def _multisets(
        self, rank: int, hand: HandCards, shapes: list[Shape], rest: list[int]
    ) -> tuple[tuple[_Plain, ...], RankMultisets]:
        """The rank's groups (as plain tuples) and their multisets, made once per rank and ``signature``."""
        key = (rank, self.signature(rank, rest))
        known = self._made.get(key)
        if known is None:
            groups, units = self.units_of(hand, shapes)
            held = hand.count(rank)
            unused = UnusedSum(self.wilds, held, self.left_cap)
            multisets = RankMultisets(units, rest, self.repeats, self.most_groups, unused)
            known = self._made[key] = (tuple(_plain(group) for group in groups), multisets)
        return known


#: A ``MeldGroup`` as a plain tuple: equal to it and hashed alike, and, unlike the named tuple, left untracked by
#: the garbage collector once it survives a collection. The memos of a count keep thousands of groups, and
#: tracked ones make CPython's full collections, which traverse them all, fire during the count.
_Plain = tuple[tuple[Card, ...], int | None, int]


def _plain(group: MeldGroup) -> _Plain:
    """``group`` as a plain tuple."""
    return group.cards, group.rank, group.target


class UnusedSum:
    """A rank's raw sum (cards used in place of cards left) as a counter reads it: with the natural cards it leaves
    of the ``held`` ones of its rank (capped at ``left_cap``) and no cards used."""

    def __init__(self, wilds: WildCards, held: int, left_cap: int | None) -> None:
        self.wilds = wilds
        self.held = held
        self.left_cap = left_cap

    def of(self, raw: Sum) -> Sum:
        """``raw`` as the counter reads it."""
        w, _, p, t, c, s, lv, k, used = raw
        return (w, capped(self.held - (used - self.wilds.count(w)), self.left_cap), p, t, c, s, lv, k, 0)


def meld_sum(
    rules: Rules, table: tuple[object, ...], facts: RankFacts, meld: Meld, cards: Sequence[Card], wilds: int
) -> Sum:
    """One new meld of ``cards`` as a ``Sum`` (``wilds`` its wild cards packed), judged by hook meld.valid kept and
    going out: the unit both counters, openings' and takes', add up."""
    spread = natural_ranks(rules, cards)
    staying, leaving = (
        rules.failing_of(MELD_VALID, meld_values(rules, table, meld, None, cards, spread, out, True, facts)) is None
        for out in (False, True)
    )
    return (
        wilds,
        0,
        sum(rules.card_value[c] for c in cards),
        canasta_tally(rules, [meld]),
        melds_composition(rules, [meld]),
        staying,
        leaving,
        1,
        len(cards),
    )


def card_pairs(cards: Sequence[Card]) -> tuple[tuple[Card, int], ...]:
    """``cards`` as (card, copies) pairs."""
    return tuple((card, cards.count(card)) for card in sorted(set(cards)))


class RankWalk:
    """One rank's multisets of groups, or the multisets of sequences (``openings.OpeningCounter._sequence_choices``),
    walked with their sums added up on the way (a unit's copies chosen in the units' order): the groups capped at
    ``most_groups`` and the cards used in the place of the cards left (``UnusedSum`` turns them).
    The order a draw finds a rank's multiset in; ``RankMultisets`` counts and finds them without the walk."""

    def __init__(self, units: list[Unit], counts: list[int], repeats: bool, most_groups: int) -> None:
        self.units = units
        self.counts = counts
        self.most = len(units) * CARD_TYPES if repeats else 1
        self.most_groups = most_groups

    def each(self, start: int, acc: Sum, chosen: list[int]) -> Iterator[tuple[Sum, list[int]]]:
        """Depth first, each multiset from ``acc`` (its sum so far) adding units from place ``start`` on: its sum,
        and its units' places (``chosen``, extended as the walk goes: read it before the next step)."""
        counts = self.counts
        groups = acc[7]
        if groups >= self.most:
            return
        for place in range(start, len(self.units)):
            pairs, unit = self.units[place]
            if any(counts[card] < n for card, n in pairs):
                continue
            for card, n in pairs:
                counts[card] -= n
            summed = _plus(acc, unit, self.most_groups)
            chosen.append(place)
            yield summed, chosen
            yield from self.each(place, (*summed[:7], groups + 1, summed[8]), chosen)
            chosen.pop()
            for card, n in pairs:
                counts[card] += n


def _plus(acc: Sum, unit: Sum, most_groups: int) -> Sum:
    """``acc`` with one more ``unit``: its groups capped at ``most_groups``."""
    wilds, _, points, tally, composition, staying, leaving, groups, used = acc
    w, _, p, t, c, s, lv, _, u = unit
    return (
        wilds + w,
        0,
        points + p,
        tally + t,
        composition | c,
        staying and s,
        leaving and lv,
        min(groups + 1, most_groups),
        used + u,
    )


class RankMultisets:
    """The non-empty multisets of ``units`` that ``counts`` hold, in the order ``RankWalk.each`` walks them, counted
    and indexed without the walk: a partial multiset is the cards it leaves and its sum so far, and the multisets
    that share both are counted once. A rank's groups make millions of multisets at 45 cards, but few distinct
    sums of the cards they leave. A multiset's sum is given as the walk gives it, or as ``unused`` turns it."""

    def __init__(
        self, units: list[Unit], counts: Sequence[int], repeats: bool, most_groups: int, unused: UnusedSum | None = None
    ) -> None:
        cards = sorted({card for pairs, _ in units for card, _ in pairs})
        place = {card: at for at, card in enumerate(cards)}
        # Tuples, not lists: a count keeps thousands of these, and tuples of ints leave the collector's tracking
        # once they survive a collection, so they add nothing to what makes CPython's full collections fire.
        self.needs = tuple(tuple((place[card], n) for card, n in pairs) for pairs, _ in units)
        self.sums = tuple(unit for _, unit in units)
        self.most = len(units) * CARD_TYPES if repeats else 1
        self.most_groups = most_groups
        # The groups counted exactly up to where either the walk stops (``most``) or the sum caps them
        # (``most_groups``): a walk that cannot reach ``most`` with the cards held needs only the cap.
        held = sum(counts[card] for card in cards)
        self.groups_kept = max(most_groups, self.most) if self.most <= held else most_groups
        self.start = tuple(counts[card] for card in cards)
        self.unused = unused
        #: The multisets below a step whose sum is a ``find``'s target, by target and step.
        self._below: dict[tuple[Sum, int, tuple[int, ...], Sum], int] = {}

    def _step(self, place: int, left: tuple[int, ...], acc: Sum) -> tuple[tuple[int, ...], Sum] | None:
        """The cards left and the sum once unit ``place`` is added, or None where the walk adds no more of it."""
        needs = self.needs[place]
        if acc[7] >= self.most or not _pays(left, needs):
            return None
        return _less(left, needs), _plus(acc, self.sums[place], self.groups_kept)

    def _shown(self, acc: Sum) -> Sum:
        """A multiset's sum as the walk gives it (its groups capped at ``most_groups``), turned by ``unused``."""
        walked: Sum = (*acc[:7], min(acc[7], self.most_groups), acc[8])
        return walked if self.unused is None else self.unused.of(walked)

    def counted(self) -> dict[Sum, int]:
        """How many multisets have each sum: unit by unit, each number of its copies added to every partial one."""
        states: dict[tuple[tuple[int, ...], Sum], int] = {(self.start, NO_SUM): 1}
        most, kept = self.most, self.groups_kept
        for needs, unit in zip(self.needs, self.sums, strict=True):
            after: dict[tuple[tuple[int, ...], Sum], int] = {}
            for stepped, ways in states.items():
                while True:  # no copy of the unit, then one more copy at a time while the cards last (``_step``)
                    after[stepped] = after.get(stepped, 0) + ways
                    left, acc = stepped
                    if acc[7] >= most or not _pays(left, needs):
                        break
                    stepped = _less(left, needs), _plus(acc, unit, kept)
            states = after
        found: dict[Sum, int] = {}
        for (_, acc), ways in states.items():
            if acc[7]:
                shown = self._shown(acc)
                found[shown] = found.get(shown, 0) + ways
        return found

    def find(self, target: Sum, which: int) -> list[int]:
        """The units' places of the ``which``-th multiset in the walk's order whose sum is ``target``: each step of
        the walk skipped by the count of such multisets below it (kept for the next find)."""
        chosen: list[int] = []
        places, left, acc = self._fitting(range(len(self.sums)), self.start, NO_SUM), self.start, NO_SUM
        while True:
            for at, place in enumerate(places):
                stepped = self._step(place, left, acc)
                assert stepped is not None  # the places fit
                if self._shown(stepped[1]) == target:
                    if which == 0:
                        return [*chosen, place]
                    which -= 1
                below = self._matches_below(target, places[at:], *stepped)
                if which < below:
                    chosen.append(place)
                    left, acc = stepped
                    places = self._fitting(places[at:], left, acc)
                    break
                which -= below
            else:
                raise IndexError("no such multiset of groups")

    def _fitting(self, places: Sequence[int], left: tuple[int, ...], acc: Sum) -> list[int]:
        """Those of ``places`` the walk may add one more of to ``acc`` with the cards ``left``: a unit the cards
        cannot pay for stays out of every multiset below, so each step looks only at what its parent could add."""
        if acc[7] >= self.most:
            return []
        return [place for place in places if _pays(left, self.needs[place])]

    def _matches_below(self, target: Sum, places: list[int], left: tuple[int, ...], acc: Sum) -> int:
        """The multisets the walk reaches from ``acc`` adding units from ``places[0]`` on (those of ``places`` the
        cards held before ``acc`` could pay for) whose sum is ``target``."""
        key = (target, places[0], left, acc)
        known = self._below.get(key)
        if known is not None:
            return known
        total = 0
        fitting = self._fitting(places, left, acc)
        for at, place in enumerate(fitting):
            stepped = self._step(place, left, acc)
            assert stepped is not None  # the places fit
            total += (self._shown(stepped[1]) == target) + self._matches_below(target, fitting[at:], *stepped)
        self._below[key] = total
        return total


def _pays(left: tuple[int, ...], needs: tuple[tuple[int, int], ...]) -> bool:
    """Whether the cards ``left`` hold a unit's ``needs`` ((place, copies) pairs)."""
    return all(left[at] >= n for at, n in needs)


def _less(left: tuple[int, ...], needs: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """The cards ``left`` without a unit's ``needs``."""
    held = list(left)
    for at, n in needs:
        held[at] -= n
    return tuple(held)


def pick(weighted: Sequence[tuple[_K, int]], index: int) -> tuple[_K, int]:
    """The item whose run of ``index``es holds ``index`` (each item ``weight`` indexes, in turn), and the index
    within it."""
    for item, weight in weighted:
        if index < weight:
            return item, index
        index -= weight
    raise IndexError("index beyond the weights")
