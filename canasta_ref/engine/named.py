"""The actions of variants whose melds have an identity: groups that name the meld they join, sequences, and
combining two melds (Samba's family). ``legal`` lists rank groups by shape; this module adds what a shape cannot
say, candidate by candidate, each decided by ``checks.plan_melding`` itself, so nothing here restates a rule.

The candidates are generated structurally: a meld is joined by cards of its rank (or wild cards), a sequence is
made or extended by cards of one suit whose ranks run on without a gap (wild cards may be added; the spec decides
whether they may). A variant whose sequences may have gaps would need a wider generator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any, Final

from ..errors import IllegalAction
from .actions import Action, MeldGroup
from .cards import JOKER_RANK, SEQUENCE_ORDER, SEQUENCE_RANK, Card, make_card, rank_of
from .checks import (
    MELD_ACTION,
    MELD_VALID,
    RankFacts,
    canasta_tally,
    combine_refusal,
    group_rank,
    meld_values,
    melds_composition,
    natural_ranks,
    opening_bonus,
    plan_melding,
    rank_facts,
    table_values,
    take_card_counts,
    take_fields_refusal,
    take_refusal,
)
from .checks import _take_target_fields as take_target_fields  # the fields take_refusal asks with
from .movegen import (
    HandCards,
    Shape,
    expand_shapes,
    group_shapes,
    opening_accepted,
    shape_combinations,
    submultisets,
    take_groups,
    take_pool,
)
from .movegen import candidates as movegen_candidates
from .rules import Rules
from .state import HandState, Meld

#: The longest run of one suit the generator looks for (no variant's sequence is longer).
LONGEST_RUN = 13


def _legal(rules: Rules, state: HandState, action: Action) -> bool:
    """Whether ``plan`` accepts a meld, take or combine of the seat to act; a take is first put to the
    ``pile.take`` clauses alone, which refuse most candidates for less than a whole plan."""
    if action.kind == "take" and take_refusal(rules, state, state.to_act, action) is not None:
        return False
    try:
        plan_melding(rules, state, action)
    except IllegalAction:
        return False
    return True


def wild_choices(rules: Rules, counts: Sequence[int]) -> list[tuple[Card, ...]]:
    """Every multiset of the wild cards held (the empty one first)."""
    items = tuple((card, counts[card]) for card in rules.wild_cards if counts[card])
    held = sum(n for _, n in items)
    out: list[tuple[Card, ...]] = []
    for size in range(held + 1):
        out.extend(submultisets(items, size))
    return out


def _runs(rules: Rules, counts: Sequence[int], suit: int, low: int, high: int) -> list[tuple[Card, ...]]:
    """The runs of natural cards held of ``suit`` that lie within ranks ``low``..``high`` (sequence order),
    one card a rank, two cards at least."""
    out: list[tuple[Card, ...]] = []
    ranks = [r for r in SEQUENCE_ORDER if low <= r <= high]
    for start in range(len(ranks)):
        run: list[Card] = []
        for rank in ranks[start : start + LONGEST_RUN]:
            card = make_card(rank, suit)
            if not counts[card] or rules.is_wild[card]:
                break
            run.append(card)
            if len(run) >= 2:
                out.append(tuple(run))
    return out


def _extensions(rules: Rules, counts: Sequence[int], meld: Meld, extra: Card | None = None) -> list[tuple[Card, ...]]:
    """The cards held that extend a sequence at either end without a gap (``extra``: a card not from hand, the
    top discard, which must then be among them and is left out of the result)."""
    naturals = [c for c in meld.cards if not rules.is_wild[c]]
    if not naturals:
        return []
    suit = naturals[0] & 3
    ranks = sorted(rank_of(c) for c in naturals)
    low, high = ranks[0], ranks[-1]

    def chain(step: int, start: int) -> list[list[Card]]:
        chains: list[list[Card]] = [[]]
        cards: list[Card] = []
        used_extra = False
        rank = start
        while rank in SEQUENCE_ORDER:
            card = make_card(rank, suit)
            if extra is not None and card == extra and not used_extra:
                used_extra = True
            elif not counts[card] or rules.is_wild[card]:
                break
            cards.append(card)
            chains.append(list(cards))
            rank += step
        return chains

    out: list[tuple[Card, ...]] = []
    for below in chain(-1, low - 1):
        for above in chain(1, high + 1):
            cards = below + above
            if not cards:
                continue
            if extra is not None:
                if extra not in cards:
                    continue
                cards.remove(extra)
            out.append(tuple(cards))
    return out


def _joining(
    rules: Rules, counts: Sequence[int], meld: Meld, wilds: list[tuple[Card, ...]]
) -> Iterator[tuple[Card, ...]]:
    """Candidate cards from hand to lay on one of the side's melds (one group, at least one card)."""
    if meld.rank == SEQUENCE_RANK:
        for cards in [(), *_extensions(rules, counts, meld)]:
            for wild in wilds:
                if cards or wild:
                    yield cards + wild
        return
    naturals = rules.natural_cards[meld.rank] if meld.rank != JOKER_RANK else ()
    items = tuple((c, counts[c]) for c in naturals if counts[c])
    held = sum(n for _, n in items)
    for size in range(held + 1):
        for natural in submultisets(items, size):
            for wild in wilds:
                if natural or wild:
                    yield natural + wild


def new_sequences(
    rules: Rules, state: HandState, counts: Sequence[int], wilds: list[tuple[Card, ...]]
) -> list[tuple[Card, ...]]:
    """Candidate new sequences from hand: runs of one suit, with any wild cards held, each valid as a new meld
    on its own (hook meld.valid, kept or going out): one that is not is part of no legal action."""
    seat = state.to_act
    table = table_values(rules, state, seat)
    facts = rank_facts(rules, state, seat)
    initial = not state.team_opened[state.side_of[seat]]
    out: list[tuple[Card, ...]] = []
    for suit in range(4):
        for run in _runs(rules, counts, suit, SEQUENCE_ORDER[0], SEQUENCE_ORDER[-1]):
            for wild in wilds:
                meld = Meld.build(SEQUENCE_RANK, run + wild, rules.is_wild)
                if _valid_either_way(rules, table, facts, meld, None, meld.cards, 0, initial):
                    out.append(run + wild)
    return out


def _valid_after(rules: Rules, table: tuple[Any, ...], facts: RankFacts, meld: Meld, cards: tuple[Card, ...]) -> bool:
    """Whether ``meld`` with ``cards`` added passes hook meld.valid (as plan asks it of a named meld): a
    candidate it refuses is never legal, and costs no plan."""
    result = meld.plus(cards, rules.is_wild)
    return _valid_either_way(rules, table, facts, result, meld, cards, natural_ranks(rules, result.cards), False)


def _valid_either_way(
    rules: Rules,
    table: tuple[Any, ...],
    facts: RankFacts,
    result: Meld,
    before: Meld | None,
    cards: Sequence[Card],
    spread: int,
    initial: bool,
) -> bool:
    """Whether hook meld.valid accepts ``result`` kept or going out (the listing knows only that a plan will say
    which)."""
    return any(
        rules.failing_of(MELD_VALID, meld_values(rules, table, result, before, cards, spread, leaving, initial, facts))
        is None
        for leaving in (False, True)
    )


def play_action_walk(rules: Rules, state: HandState, opened: bool) -> Iterator[Action]:
    """The legal meld and combine actions that name a meld or lay a sequence, in the play phase, one by one (the
    listing's first page walks no further than it shows). Openings of rank groups alone are ``legal``'s; those
    with sequences are here."""
    return _legal_only(rules, state, _play_candidate_walk(rules, state, opened))


def _legal_only(rules: Rules, state: HandState, candidates: Iterator[Action]) -> Iterator[Action]:
    """The legal ones of ``candidates``, one at a time. A generator function, not a generator expression: mypyc
    builds a returned generator expression whole at once, which made the walk eager (a 30-card Samba hand's
    listing never showed its first page on the compiled engine)."""
    for action in candidates:
        if _legal(rules, state, action):
            yield action


def _play_candidate_walk(rules: Rules, state: HandState, opened: bool) -> Iterator[Action]:
    """Candidates for ``play_action_walk``, each refused by no hook asked so far (it may still be illegal)."""
    if not rules.names_melds:
        return
    seat = state.to_act
    counts = state.hands[seat]
    wilds = wild_choices(rules, counts)
    melds = state.melds[state.side_of[seat]]
    if opened:
        table = table_values(rules, state, seat)
        facts = rank_facts(rules, state, seat)
        for number, meld in enumerate(melds, start=1):
            if meld.closed:
                continue
            for cards in _joining(rules, counts, meld, wilds):
                if _valid_after(rules, table, facts, meld, cards):
                    yield Action.meld([MeldGroup.of(cards, None, number)])
        for cards in new_sequences(rules, state, counts, wilds):
            yield Action.meld([MeldGroup.of(cards)])
        for first in range(1, len(melds) + 1):
            for second in range(first + 1, len(melds) + 1):
                if combine_refusal(rules, state, seat, melds[first - 1], melds[second - 1]) is None:
                    yield Action.combine(first, second)
    elif rules.sequences or repeats_allowed(rules, state):
        openings = _openings_with_extras(rules, state, ShapesWithin(rules, state), counts, -1, Action.meld)
        yield from _each_once(_enough_only(rules, state, openings))


def _enough_only(rules: Rules, state: HandState, openings: Iterator[Action]) -> Iterator[Action]:
    """The openings of ``openings`` that meet the initial meld, one at a time (a generator function: mypyc would
    build a generator expression whole)."""
    for action in openings:
        if _enough_to_open(rules, state, action):
            yield action


def _each_once(actions: Iterable[Action]) -> Iterator[Action]:
    """``actions`` without those met before, in the order first met (as ``dict.fromkeys`` keeps them)."""
    seen: set[Action] = set()
    for action in actions:
        if action not in seen:
            seen.add(action)
            yield action


def _enough_to_open(rules: Rules, state: HandState, action: Action) -> bool:
    """The initial-meld hooks on an opening laid from hand, judged from its cards alone (``opening_accepted``,
    as plan judges them): most candidate openings fall short of the minimum, and this costs far less than a plan.
    """
    seat = state.to_act
    points = used = 0
    melds: dict[int, list[Card]] = {}  # the melds the groups make: a rank's merge into one where the spec says so
    ranks: dict[int, int] = {}
    for index, group in enumerate(action.melds):
        used += len(group.cards)
        points += sum(rules.card_value[c] for c in group.cards)
        rank = group_rank(rules, group)
        key = rank if rules.merges_same_rank[rank] else -1 - index
        melds.setdefault(key, []).extend(group.cards)
        ranks[key] = rank
    laid = [Meld.build(ranks[key], cards, rules.is_wild) for key, cards in melds.items()]
    made = canasta_tally(rules, laid)
    hand_after = state.cards_held(seat) - used + opening_bonus(rules, state, seat)
    return opening_accepted(rules, state, seat, points, made, hand_after, melds_composition(rules, laid))


class PileTake:
    """Hook pile.take on the takes melding the top card with ``base`` from hand and laying groups from the rest of
    the hand. Its fields (``checks.take_refusal``) read the cards of ``base``, the number of groups, those of the
    top card's rank and the ranks repeated, and every take a choice of shapes writes has the same ranks: so the
    walks ask it once per count of groups by rank, and skip the takes it refuses before writing them (most of
    them in Samba, all in some hands). The question is the one ``take_refusal`` asks of such a take, put by its
    fields."""

    def __init__(self, rules: Rules, state: HandState, base: tuple[Card, ...]) -> None:
        self.rules = rules
        self.state = state
        self.base = base
        self.top_rank = rank_of(state.pile[-1])
        self._cards = take_card_counts(rules, base, self.top_rank)
        self._target = take_target_fields(rules, state, state.to_act, Action.take(base))
        self._known: dict[tuple[int, int, int], bool] = {}

    def allows(self, ranks: Sequence[int], groups: Sequence[MeldGroup]) -> bool:
        """Whether pile.take allows the takes whose groups are of ``ranks`` (``checks.group_rank`` of each),
        ``groups`` one of them."""
        keyed = [rank for rank in ranks if rank != SEQUENCE_RANK]
        return self._allows(len(ranks), sum(1 for rank in ranks if rank == self.top_rank), len(keyed) - len(set(keyed)))

    def _allows(self, groups: int, of_top_rank: int, repeated: int) -> bool:
        key = (groups, of_top_rank, repeated)
        known = self._known.get(key)
        if known is None:
            fields = (*self._cards, groups, of_top_rank, repeated)
            known = take_fields_refusal(self.rules, self.state, self.state.to_act, fields, self._target) is None
            self._known[key] = known
        return known

    def refuses_every(self, most: int, known: dict[tuple[object, ...], bool]) -> bool:
        """Whether pile.take refuses these takes whatever groups up to ``most`` they lay, so that a walk of the
        groups can be skipped whole (Samba's takes that would start a sequence): where the clause refusing the take
        alone reads none of the counts of groups, it refuses every take of ``base``; else every count its clauses
        read is asked (one no clause reads is asked as 0), unless that makes more than ``_MOST_ASKED`` questions
        (then False). The answer hangs on the fields of ``base`` alone: kept in ``known`` by them for the other
        bases of a walk."""
        key = (*self._cards, self._target)
        answer = known.get(key)
        if answer is None:
            answer = known[key] = self._refuses_every(most)
        return answer

    def _refuses_every(self, most: int) -> bool:
        fields = (*self._cards, 0, 0, 0)
        refusal = take_fields_refusal(self.rules, self.state, self.state.to_act, fields, self._target)
        if refusal is None:
            return False
        if refusal.reads.isdisjoint(_EXTRA_FIELDS):
            return True
        ranges = [range(most + 1) if self.rules.reads("pile.take", name) else range(1) for name in _EXTRA_FIELDS]
        if len(ranges[0]) * len(ranges[1]) * len(ranges[2]) > _MOST_ASKED:
            return False
        return not any(self._allows(g, t, r) for g in ranges[0] for t in ranges[1] for r in ranges[2])


#: The ``pile.take`` fields that count a take's further groups, in ``checks._take_fields`` order.
_EXTRA_FIELDS: Final = ("extra_melds", "extra_of_top_rank", "extra_repeated_ranks")

#: The most questions ``PileTake.refuses_every`` asks before it gives up (each is kept by ``Rules``).
_MOST_ASKED = 512


def _openings_with_extras(
    rules: Rules,
    state: HandState,
    shapes: ShapesWithin,
    counts: Sequence[int],
    top_rank: int,
    build: Callable[[list[MeldGroup]], Action],
    pile_take: PileTake | None = None,
) -> Iterator[Action]:
    """Candidate openings that a choice of one shape per rank cannot write: one sequence or more, or a second
    group of a rank (where the spec lets one action lay two melds of a rank, or a take lay a further meld of the
    top card's rank, ``top_rank``; -1 for none), with any choice of rank groups from the rest of the hand. A
    second group of a rank comes with a group of that rank in the choice (or is of the top card's rank).
    ``pile_take``: for takes, the choices of groups it refuses are skipped (the listing's walks; the tests'
    candidates keep them)."""
    wilds = wild_choices(rules, counts)
    for extras in _extra_sets(rules, state, shapes, list(counts), wilds, top_rank):
        rest = list(counts)
        for cards in extras:
            for card in cards:
                rest[card] -= 1
        hand = HandCards(rules, tuple(rest))
        per_rank = shapes.of(hand)
        extra_groups = [MeldGroup.of(cards) for cards in extras]
        extra_ranks = [group_rank(rules, g) for g in extra_groups]
        repeated = set(extra_ranks) - {SEQUENCE_RANK, top_rank}
        for combo in shape_combinations(per_rank, hand.twos_total, hand.jokers, sorted(per_rank)):
            if repeated and not repeated <= {shape.rank for shape in combo}:
                continue
            expanded = expand_shapes(hand, combo)
            if pile_take is not None:
                ranks = [*extra_ranks, *[shape.rank for shape in combo]]
                if not pile_take.allows(ranks, [*extra_groups, *expanded[0]]):
                    continue
            for groups in expanded:
                yield build([*extra_groups, *groups])


def _extra_sets(
    rules: Rules,
    state: HandState,
    shapes: ShapesWithin,
    counts: list[int],
    wilds: list[tuple[Card, ...]],
    top_rank: int,
) -> Iterator[list[tuple[Card, ...]]]:
    """Every non-empty multiset of extra melds (``_openings_with_extras``) the hand can lay at once, each once:
    candidate sequences, and where the spec allows repeated ranks in one action, single rank groups of the ranks
    the hand holds enough of for two groups (or, in a take, of the top card's rank)."""
    candidates = new_sequences(rules, state, counts, wilds) if rules.sequences else []
    if repeats_allowed(rules, state):
        hand = HandCards(rules, tuple(counts))
        for rank, rank_shapes in shapes.of(hand).items():
            fewest = min(_held_by(rank, shape) for shape in rank_shapes)
            held = hand.count(rank) if rank != JOKER_RANK else hand.twos_total + hand.jokers
            if held < (fewest if rank == top_rank else 2 * fewest):
                continue
            for shape in rank_shapes:
                candidates.extend(groups[0].cards for groups in expand_shapes(hand, [shape]))

    def sets(start: int) -> Iterator[list[tuple[Card, ...]]]:
        for index in range(start, len(candidates)):
            cards = candidates[index]
            if any(counts[c] < cards.count(c) for c in set(cards)):
                continue
            for card in cards:
                counts[card] -= 1
            yield [cards]
            for rest in sets(index):
                yield [cards, *rest]
            for card in cards:
                counts[card] += 1

    yield from sets(0)


def _held_by(rank: int, shape: Shape) -> int:
    """The cards of a group's kind that a shape uses: its natural cards, or for wild cards alone all of them."""
    return shape.naturals if rank != JOKER_RANK else shape.twos + shape.jokers


class ShapesWithin:
    """The valid group shapes (``movegen.group_shapes``, for a side not opened) of parts of the seat to act's hand:
    a shape's verdict (hook meld.valid) hangs on the position and the shape, never on the other cards held, so
    the walks that ask it of hundreds of parts of one hand (each choice of extra melds, of take group) ask it
    once, of the whole hand, and keep for each part the shapes it can pay for, in the same order."""

    def __init__(self, rules: Rules, state: HandState) -> None:
        self.rules = rules
        self.state = state
        self._whole: dict[int, list[Shape]] | None = None

    def of(self, hand: HandCards) -> dict[int, list[Shape]]:
        """``group_shapes`` of ``hand``, cards of the seat to act's hand (initial: the side has not opened)."""
        whole = self._whole
        state = self.state
        seat = state.to_act
        if whole is None:
            whole = self._whole = group_shapes(self.rules, state, seat, HandCards(self.rules, state.hands[seat]), True)
        out: dict[int, list[Shape]] = {}
        twos, jokers = hand.twos_total, hand.jokers
        for rank in hand.meld_ranks(state.melds[state.side_of[seat]]):
            shapes = whole.get(rank)
            if shapes is None:
                continue
            naturals = hand.count(rank) if rank != JOKER_RANK else 0
            found = [s for s in shapes if s.naturals <= naturals and s.twos <= twos and s.jokers <= jokers]
            if found:
                out[rank] = found
        return out


def repeats_allowed(rules: Rules, state: HandState) -> bool:
    """Whether hook meld.action lets an opening lay two groups of one rank (asked as plan asks it)."""
    seat = state.to_act
    values = (*table_values(rules, state, seat), "play", 2, 1, True)
    return rules.failing_of(MELD_ACTION, values) is None


def take_actions(rules: Rules, state: HandState) -> Iterator[Action]:
    """The legal takes that name a meld for the top card, or make a sequence of it, in the draw phase, one by one."""
    for action in _each_once(_take_candidate_walk(rules, state, True)):
        if _legal(rules, state, action):
            yield action


def _take_candidate_walk(rules: Rules, state: HandState, skip_refused: bool) -> Iterator[Action]:
    """Candidates for ``take_actions`` one by one, some more than once; ``skip_refused``: without the takes with
    further melds that hook pile.take refuses by their counts of groups (``PileTake``), as the listing walks."""
    if not rules.names_melds or not state.pile:
        return
    seat = state.to_act
    counts = state.hands[seat]
    top = state.pile[-1]
    team = state.side_of[seat]
    melds = state.melds[team]
    wilds = wild_choices(rules, counts)
    shapes = ShapesWithin(rules, state)
    refused: dict[tuple[object, ...], bool] = {}  # PileTake.refuses_every's answers, by the fields of a base
    for number, meld in enumerate(melds, start=1):
        if meld.closed:
            continue
        if meld.rank == SEQUENCE_RANK:
            for cards in _extensions(rules, counts, meld, top):
                for wild in wilds:
                    yield Action.take(cards + wild, (), number)
            for wild in wilds:
                yield Action.take(wild, (), number)
        elif rules.is_wild[top] or rank_of(top) == meld.rank or meld.rank == JOKER_RANK:
            for cards in _joining(rules, counts, meld, wilds):
                yield Action.take(cards, (), number)
            yield Action.take((), (), number)
    if rules.sequences and not rules.is_wild[top] and rank_of(top) in SEQUENCE_ORDER:
        for run in _runs(rules, _with(counts, top), top & 3, SEQUENCE_ORDER[0], SEQUENCE_ORDER[-1]):
            if top not in run:
                continue
            from_hand = list(run)
            from_hand.remove(top)
            for wild in wilds:
                base = Action.take(tuple(from_hand) + wild)
                yield base
                if not state.team_opened[team]:
                    pile_take = PileTake(rules, state, base.cards) if skip_refused else None
                    if pile_take is None or not pile_take.refuses_every(state.cards_held(seat), refused):
                        yield from _take_extras(rules, state, shapes, counts, base.cards, pile_take)


def _with(counts: Sequence[int], card: Card) -> list[int]:
    out = list(counts)
    out[card] += 1
    return out


def _take_extras(
    rules: Rules,
    state: HandState,
    shapes: ShapesWithin,
    counts: Sequence[int],
    base: tuple[Card, ...],
    pile_take: PileTake | None,
) -> Iterator[Action]:
    """Candidate takes melding the top card with ``base`` from hand and laying further melds from the rest of the
    hand: rank groups alone, or one sequence or more with any rank groups."""
    rest = list(counts)
    for card in base:
        rest[card] -= 1
    hand = HandCards(rules, tuple(rest))
    per_rank = shapes.of(hand)
    for combo in shape_combinations(per_rank, hand.twos_total, hand.jokers, sorted(per_rank)):
        if combo:
            expanded = expand_shapes(hand, combo)
            if pile_take is not None and not pile_take.allows([shape.rank for shape in combo], expanded[0]):
                continue
            for groups in expanded:
                yield Action.take(base, groups)
    yield from _openings_with_extras(rules, state, shapes, rest, -1, partial(_take_building, base), pile_take)


def take_openings_with_extras(
    rules: Rules, state: HandState, shapes: ShapesWithin, base: tuple[Card, ...], top_rank: int
) -> Iterator[Action]:
    """Before the side has opened: takes melding the top card with ``base`` from hand and laying melds from the
    rest of the hand that a choice of one shape per rank other than the top card's cannot write
    (``_openings_with_extras``), one by one, each once (``shapes``: shared by the take groups of one listing)."""
    if not rules.names_melds:
        return iter(())
    counts = list(state.hands[state.to_act])
    for card in base:
        counts[card] -= 1
    pile_take = PileTake(rules, state, base)
    found = _openings_with_extras(rules, state, shapes, counts, top_rank, partial(_take_building, base), pile_take)
    return _legal_only(rules, state, _each_once(found))


def candidates(rules: Rules, state: HandState) -> Iterator[Action]:
    """Every action that might be legal now (``movegen.candidates``), with the named melds, sequences and
    combinations of variants that have them: what the tests judge one by one against the listing."""
    yield from movegen_candidates(rules, state)
    if not rules.names_melds:
        return
    if state.phase == "play":
        opened = state.team_opened[state.side_of[state.to_act]]
        yield from _play_candidate_walk(rules, state, opened)
    elif state.phase == "draw":
        yield from _each_once(_take_candidate_walk(rules, state, False))
        if state.pile and not state.team_opened[state.side_of[state.to_act]]:
            yield from _take_opening_candidates(rules, state)


def _take_opening_candidates(rules: Rules, state: HandState) -> Iterator[Action]:
    """Opening takes with a natural pair (or more of the top card's rank) and one sequence or more."""
    top = state.pile[-1]
    counts = state.hands[state.to_act]
    shapes = ShapesWithin(rules, state)
    for base in take_groups(rules, take_pool(rules, counts, top), counts, True):
        rest = list(counts)
        for card in base:
            rest[card] -= 1
        yield from _openings_with_extras(rules, state, shapes, rest, rank_of(top), partial(_take_building, base))


def _take_building(base: tuple[Card, ...], groups: list[MeldGroup]) -> Action:
    """A take melding the top card with ``base`` and laying ``groups`` from hand."""
    return Action.take(base, groups)


__all__ = ["ShapesWithin", "candidates", "play_action_walk", "take_actions", "take_openings_with_extras"]
