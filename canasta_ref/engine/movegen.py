"""Candidate actions for a position, generated so that every legal action is among them.

Meld validity depends only on how many natural, wild and joker cards a meld holds, so candidates are first
filtered by *shape* (counts per rank, checked once through the spec's ``meld.valid`` hook) and only valid
shapes are expanded into concrete cards. The final word on each candidate is ``checks.plan_melding``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from ..errors import IllegalAction
from .actions import TAKE, Action, MeldGroup, group_of, take_with
from .cards import CARD_TYPES, JOKER, JOKER_RANK, RANK_NAMES, SEQUENCE_RANK, SORT_ORDER, Card, rank_of
from .checks import (
    MELD_VALID,
    CanastaKinds,
    RankFacts,
    Tally,
    canasta_kind,
    composition_of,
    concealed_by_discard,
    derived,
    goes_out_concealed,
    initial_meld_refusal,
    is_canasta,
    merge_target,
    opening_bonus,
    plan_melding,
    rank_facts,
    table_values,
    tally_counts,
    tally_of,
    unfinished_tally,
)
from .rules import Rules, remember
from .state import HAND_CARDS, HandState, Meld


class Shape(NamedTuple):
    """A group described by counts: ``naturals`` of ``rank``, ``twos`` non-joker wilds and ``jokers``."""

    rank: int
    naturals: int
    twos: int
    jokers: int


def submultisets(items: tuple[tuple[Card, int], ...], size: int) -> tuple[tuple[Card, ...], ...]:
    """Every multiset of exactly ``size`` cards drawn from (card, copies available) pairs, each once, in a
    fixed order; cached, since the same few cards of a rank recur all game. A tuple, so that the listing's caches
    hold it as it is, with no copy made at each miss."""
    key = (items, size)
    known = _SUBMULTISETS.get(key)
    if known is None:
        known = remember(_SUBMULTISETS, key, tuple(_submultisets(items, size)))
    return known


def _submultisets(items: tuple[tuple[Card, int], ...], size: int) -> list[tuple[Card, ...]]:
    """``submultisets`` computed. A list, not a generator: the lists are short, and a compiled generator costs
    more to resume than a list to build."""
    if size == 0:
        return [()]
    if not items:
        return []
    (card, available), rest = items[0], items[1:]
    remaining = sum(n for _, n in rest)
    out: list[tuple[Card, ...]] = []
    for take in range(min(available, size), -1, -1):
        if size - take > remaining:
            break
        head = (card,) * take
        for tail in _submultisets(rest, size - take):
            out.append(head + tail)
    return out


_SUBMULTISETS: dict[tuple[tuple[tuple[Card, int], ...], int], tuple[tuple[Card, ...], ...]] = {}


class HandCards:
    """The player's cards sorted into naturals by rank and wild cards by type, as tuples of (card, copies),
    and the same counts packed into ints (``codes``, ``twos_code``: ``Rules.count_bits`` bits a card), which
    key the listing's caches more cheaply than the tuples. Per-rank facts are lists indexed by rank (empty or
    0 for a rank not held): indexing a list is cheaper than looking up a dict, and every listing builds one."""

    def __init__(self, rules: Rules, counts: tuple[int, ...]) -> None:
        natural_cards = rules.natural_cards
        pools = rules.natural_pools
        ranks = len(natural_cards)
        self.natural_counts: list[int] = [0] * ranks
        self.codes: list[int] = [0] * ranks
        self.naturals: list[tuple[tuple[Card, int], ...]] = [()] * ranks
        #: The ranks of which the hand holds natural cards, in rank order.
        self.ranks: list[int] = []
        #: The same ranks as bits of one int (bit ``rank``), which ``meld_ranks`` merges with the melds' ranks.
        self.rank_bits = 0
        bits = rules.count_bits
        for rank in range(ranks):
            code = 0
            for card in natural_cards[rank]:
                code |= counts[card] << bits * (card & 3)
            if code:
                known = pools[rank].get(code)
                if known is None:
                    known = pools[rank][code] = _natural_pool(natural_cards[rank], code, bits)
                self.naturals[rank], self.natural_counts[rank] = known
                self.codes[rank] = code
                self.ranks.append(rank)
                self.rank_bits |= 1 << rank
        self.jokers = twos_code = 0
        for index, card in enumerate(rules.wild_cards):
            n = counts[card]
            if n:
                if card == JOKER:
                    self.jokers = n
                else:
                    twos_code |= n << bits * index
        self.twos_code = twos_code
        twos = rules.wild_pools.get(twos_code)
        if twos is None:
            twos = rules.wild_pools[twos_code] = _wild_pool(rules.wild_cards, twos_code, bits)
        self.twos, self.twos_total = twos

    def count(self, rank: int) -> int:
        return self.natural_counts[rank]

    def meld_ranks(self, melds: tuple[Meld, ...]) -> list[int]:
        """The ranks a group could be laid in: the hand's natural ranks, the side's melds', and the
        wild-meld rank when the hand holds wild cards; in rank order."""
        wilds = self.twos_total + self.jokers > 0
        if not melds:
            return [*self.ranks, JOKER_RANK] if wilds else list(self.ranks)
        bits = self.rank_bits
        for meld in melds:
            if meld.rank != SEQUENCE_RANK:  # sequences are joined by naming them
                bits |= 1 << meld.rank
        if wilds:
            bits |= 1 << JOKER_RANK
        return [rank for rank in range(JOKER_RANK + 1) if bits >> rank & 1]


def _natural_pool(cards: Sequence[Card], code: int, bits: int) -> tuple[tuple[tuple[Card, int], ...], int]:
    """The (card, copies) pairs of a rank's natural ``cards`` that a hand's ``code`` for the rank holds (``bits``
    bits a card, at the card's suit), and their total: kept per rank and code (``Rules.natural_pools``), since the
    same few codes recur all game and every listing sorts a hand."""
    mask = (1 << bits) - 1
    items = tuple((card, code >> bits * (card & 3) & mask) for card in cards if code >> bits * (card & 3) & mask)
    return items, sum(n for _, n in items)


def _wild_pool(wild_cards: Sequence[Card], code: int, bits: int) -> tuple[tuple[tuple[Card, int], ...], int]:
    """The (card, copies) pairs of the non-joker wild cards that a hand's ``twos_code`` holds (``bits`` bits a card,
    at its place among ``wild_cards``), and their total: kept per code (``Rules.wild_pools``), like
    ``_natural_pool``."""
    mask = (1 << bits) - 1
    items = tuple(
        (card, code >> bits * index & mask)
        for index, card in enumerate(wild_cards)
        if card != JOKER and code >> bits * index & mask
    )
    return items, sum(n for _, n in items)


def hand_cards(rules: Rules, state: HandState, seat: int) -> HandCards:
    """The seat's hand sorted as HandCards, once per position (treat it as read-only)."""
    facts = derived(rules, state)
    known: HandCards | None = facts.at(HAND_CARDS, seat)
    if known is None:
        known = HandCards(rules, state.hands[seat])
        facts.keep(HAND_CARDS, seat, known)
    return known


def shape_values(
    rules: Rules,
    table: tuple[Any, ...],
    shape: Shape,
    before: Meld | None,
    facts: RankFacts,
    *,
    going_out: bool,
    initial: bool,
) -> tuple[Any, ...]:
    """The ``meld.valid`` values (``checks.MELD_VALID``) for the meld that ``shape`` makes (alone, or joining
    ``before``), after the table's. Shapes are listed for melds a side lays and for an opening's takes, which
    find no meld of the side to lay the top card on, so ``take_onto_meld`` is false."""
    wilds = shape.twos + shape.jokers
    return (
        *table,
        RANK_NAMES[shape.rank],
        shape.naturals + wilds + (before.size if before else 0),
        shape.naturals + (before.naturals if before else 0),
        wilds + (before.wilds if before else 0),
        shape.jokers + (before.jokers if before else 0),
        1 if shape.naturals else 0,
        "wild" if shape.rank == JOKER_RANK else "group",
        0,
        True,
        RANK_NAMES[shape.rank],
        before is None,
        shape.naturals + wilds,
        wilds,
        before is not None and is_canasta(rules, before),
        going_out,
        initial,
        *facts.of(shape.rank),
        False,
    )


def _shape_ok(
    rules: Rules, table: tuple[Any, ...], facts: RankFacts, shape: Shape, before: Meld | None, initial: bool
) -> bool:
    return any(
        rules.failing_of(MELD_VALID, shape_values(rules, table, shape, before, facts, going_out=out, initial=initial))
        is None
        for out in (False, True)
    )


def group_shapes(rules: Rules, state: HandState, seat: int, hand: HandCards, initial: bool) -> dict[int, list[Shape]]:
    """Valid group shapes per rank (wild-only groups under the joker rank)."""
    team = state.side_of[seat]
    table = table_values(rules, state, seat)
    facts = rank_facts(rules, state, seat)
    out: dict[int, list[Shape]] = {}
    for rank in hand.meld_ranks(state.melds[team]):
        available = hand.count(rank) if rank != JOKER_RANK else 0
        before = merge_target(rules, state, team, rank)
        found: list[Shape] = []
        for naturals in range(available + 1):
            for twos in range(hand.twos_total + 1):
                for jokers in range(hand.jokers + 1):
                    if naturals + twos + jokers == 0:
                        continue
                    shape = Shape(rank, naturals, twos, jokers)
                    if _shape_ok(rules, table, facts, shape, before, initial):
                        found.append(shape)
        if found:
            out[rank] = found
    return out


def expand_shapes(hand: HandCards, shapes: Sequence[Shape]) -> list[tuple[MeldGroup, ...]]:
    """Concrete groups for a list of shapes drawing on one shared pool of twos."""
    return _expand(hand.naturals, hand.twos, shapes)


def _expand(
    naturals: Sequence[tuple[tuple[Card, int], ...]], twos: tuple[tuple[Card, int], ...], shapes: Sequence[Shape]
) -> list[tuple[MeldGroup, ...]]:
    """``expand_shapes``, as a list built by recursion (a few dozen entries at most; compiled generators nested
    a level a shape cost more to resume than the list costs to build)."""
    if not shapes:
        return [()]
    shape, rest = shapes[0], shapes[1:]
    label = shape.rank if shape.naturals == 0 and shape.rank != JOKER_RANK else None
    jokers = (JOKER,) * shape.jokers
    out: list[tuple[MeldGroup, ...]] = []
    if not shape.twos:  # the usual case: the pool of twos passes on untouched, so the tails are the same
        tails = _expand(naturals, twos, rest)
        for natural in submultisets(naturals[shape.rank], shape.naturals):
            group = group_of(natural + jokers, label)  # already in canonical order
            out.extend([(group, *tail) for tail in tails])
        return out
    for natural in submultisets(naturals[shape.rank], shape.naturals):
        for wild in submultisets(twos, shape.twos):
            group = group_of(natural + wild + jokers, label)
            for tail in _expand(naturals, without(twos, wild), rest):
                out.append((group, *tail))
    return out


def without(pool: tuple[tuple[Card, int], ...], picked: Sequence[Card]) -> tuple[tuple[Card, int], ...]:
    """A pool of (card, copies) less the cards ``picked``, keeping its order and dropping cards none of which are
    left (the pool the next group of one action draws its twos from)."""
    counts = dict(pool)
    for card in picked:
        counts[card] -= 1
    return tuple([(card, n) for card, n in counts.items() if n])


def shape_combinations(
    per_rank: dict[int, list[Shape]], twos: int, jokers: int, ranks: Sequence[int]
) -> Iterator[list[Shape]]:
    """Every choice of at most one shape per rank that the wild cards in hand can pay for."""
    if not ranks:
        yield []
        return
    rank, rest = ranks[0], ranks[1:]
    yield from shape_combinations(per_rank, twos, jokers, rest)
    for shape in per_rank[rank]:
        if shape.twos <= twos and shape.jokers <= jokers:
            for tail in shape_combinations(per_rank, twos - shape.twos, jokers - shape.jokers, rest):
                yield [shape, *tail]


def meld_candidates(rules: Rules, state: HandState, seat: int) -> Iterator[Action]:
    """Meld actions worth checking: single groups once a side has melded, combinations before."""
    team = state.side_of[seat]
    initial = not state.team_opened[team]
    hand = HandCards(rules, state.hands[seat])
    per_rank = group_shapes(rules, state, seat, hand, initial)
    if not initial:
        for shapes in per_rank.values():
            for shape in shapes:
                for groups in expand_shapes(hand, [shape]):
                    yield Action.meld(groups)
        return
    for combo in shape_combinations(per_rank, hand.twos_total, hand.jokers, sorted(per_rank)):
        if combo and initial_enough(rules, state, seat, combo):
            for groups in expand_shapes(hand, combo):
                yield Action.meld(groups)


def initial_enough(rules: Rules, state: HandState, seat: int, combo: Sequence[Shape]) -> bool:
    """The spec's initial-meld check on counts alone; exact for the hooks it asks."""
    points = 0
    used = 0
    kinds = [0, 0, 0, 0]  # canastas made, by kind (checks.canasta_kind)
    unfinished = 0  # the melds it lays that must still be completed, as a tally (checks.unfinished_tally)
    composition = 0  # what its melds are made of (checks.composition_of)
    for shape in combo:
        if shape.naturals:
            points += shape.naturals * rules.card_value[shape.rank * 4]
        points += shape.jokers * rules.card_value[JOKER]
        size = shape.naturals + shape.twos + shape.jokers
        used += size
        if size >= rules.canasta_size[shape.rank]:
            kinds[canasta_kind(shape.naturals, shape.twos + shape.jokers)] += 1
        elif rules.tracks_must_complete:
            wilds = shape.twos + shape.jokers
            unfinished += unfinished_tally(rules, shape.rank, size, shape.naturals, wilds, shape.jokers)
        if rules.reads_composition:
            composition |= composition_of(shape.rank, shape.naturals, shape.twos + shape.jokers)
    if rules.twos_value is None:
        return True  # twos of different values: leave the decision to the full check
    points += sum(s.twos for s in combo) * rules.twos_value
    hand_after = state.cards_held(seat) - used + opening_bonus(rules, state, seat)
    return opening_accepted(rules, state, seat, points, tally_of(kinds) + unfinished, hand_after, composition)


def opening_accepted(
    rules: Rules, state: HandState, seat: int, points: int, made: Tally, hand_after: int, composition: int
) -> bool:
    """The initial-meld hooks on an opening laid from hand, by its points, what it lays as a tally (its canastas by
    kind, and its melds to complete before going out), the cards it leaves (a side that has not opened has no
    meld before it) and what its melds are made of (``checks.melds_composition``)."""
    kinds = CanastaKinds(*tally_counts(made))
    made_canasta = sum(kinds) > 0
    concealed = hand_after == 0 and goes_out_concealed(rules, state, made_canasta)
    by_discard = hand_after == 1 and concealed_by_discard(rules, state, seat, made_canasta, made)
    refusal = initial_meld_refusal(
        rules,
        state,
        seat,
        hand_points=points,
        top_card_points=0,
        kinds=kinds,
        concealed_out=concealed,
        concealed_by_discard=by_discard,
        taking_pile=False,
        composition=composition,
    )
    return refusal is None


def take_candidates(rules: Rules, state: HandState, seat: int) -> Iterator[Action]:
    """Taking the pile: alone, with two cards that meld the top card, and with further melds before opening."""
    if not state.pile:
        yield TAKE
        return
    team = state.side_of[seat]
    top = state.pile[-1]
    top_rank = rank_of(top)
    yield TAKE
    counts = state.hands[seat]
    initial = not state.team_opened[team]
    for group in take_groups(rules, take_pool(rules, counts, top), counts, initial):
        action = take_with(group)
        yield action
        if initial and extras_may_help(rules, state, seat, action):
            rest = list(state.hands[seat])
            for card in group:
                rest[card] -= 1
            rest_hand = HandCards(rules, tuple(rest))
            per_rank = group_shapes(rules, state, seat, rest_hand, initial)
            per_rank.pop(top_rank, None)
            for combo in shape_combinations(per_rank, rest_hand.twos_total, rest_hand.jokers, sorted(per_rank)):
                if combo:
                    for groups in expand_shapes(rest_hand, combo):
                        yield Action.take(group, groups)


def take_pool(rules: Rules, counts: Sequence[int], top: Card) -> list[Card]:
    """The cards held that can meld the top card ``top``, in card order: its rank's naturals, then wild cards."""
    matching = rules.natural_cards[rank_of(top)] if not rules.is_wild[top] else ()
    pool = [card for card in matching if counts[card]]
    pool += [card for card in rules.wild_cards if counts[card]]
    return pool


def take_groups(rules: Rules, pool: Sequence[Card], counts: Sequence[int], initial: bool) -> Iterator[tuple[Card, ...]]:
    """The cards from hand a take may meld with the top card, in canonical order: every pair, and before the
    side has opened, every larger group with at least one natural card, since the cards of the top card's meld
    count towards the minimum (pagat S0#71)."""
    yield from _pairs(pool, counts)
    if not initial:
        return
    items = tuple((card, counts[card]) for card in pool)
    held = sum(n for _, n in items)
    for size in range(3, held + 1):
        for cards in submultisets(items, size):
            if not all(rules.is_wild[card] for card in cards):
                yield tuple(sorted(cards, key=SORT_ORDER.__getitem__))


def _pairs(pool: Sequence[Card], counts: Sequence[int]) -> Iterator[tuple[Card, Card]]:
    """Every pair of cards from ``pool`` (cards held, in the order ``submultisets`` would give), each once and in
    canonical order."""
    for i, first in enumerate(pool):
        if counts[first] >= 2:
            yield (first, first)
        for second in pool[i + 1 :]:
            yield (first, second) if SORT_ORDER[first] <= SORT_ORDER[second] else (second, first)


#: The hooks whose refusal of a take further melds may lift: the minimum, and the cards a player must keep.
EXTRAS_MAY_LIFT = ("initial_meld.valid", "go_out.keep_card")


def extras_may_help(rules: Rules, state: HandState, seat: int, base: Action) -> bool:
    """Whether more melds could make this take legal: only if it fails on the minimum or on cards kept."""
    try:
        plan_melding(rules, state, base, seat)
    except IllegalAction as refusal:
        return rules.variant.clauses[refusal.rule_id].hook in EXTRAS_MAY_LIFT
    return True


def discard_candidates(state: HandState, seat: int) -> Iterator[Action]:
    hand = state.hands[seat]
    for card in range(CARD_TYPES):
        if hand[card]:
            yield Action.discard(card)


def candidates(rules: Rules, state: HandState) -> Iterator[Action]:
    """Every action that might be legal now, each once."""
    seat = state.to_act
    if state.phase == "over":
        return
    if state.phase == "answer":
        yield Action.answer(True)
        yield Action.answer(False)
        return
    if state.phase == "keep":
        yield from (Action("keep", (card,)) for card in range(CARD_TYPES) if state.hands[seat][card])
        yield Action("layout")
        return
    if state.phase == "draw":
        yield Action.draw()
        yield from take_candidates(rules, state, seat)
        yield from (Action.declare(hand) for hand in rules.special_hands)  # completed with the pile's top card
        return
    yield Action.ask()
    yield from meld_candidates(rules, state, seat)
    yield from discard_candidates(state, seat)
    yield Action("end")
    yield Action("pass")
    for hand in rules.special_hands:
        yield Action.declare(hand)
