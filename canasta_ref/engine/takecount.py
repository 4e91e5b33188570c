"""Counting the takes of a side that has not opened that a choice of one shape per rank cannot write, without
walking them (issue 40).

Where the spec lets one action lay sequences, or two groups of one rank, a side that has not opened may take the
pile with a group of cards from hand (a *base*) and lay further melds that lay a sequence, a group of the top card's
rank, or two groups of one rank: ``named.take_openings_with_extras`` walks them base by base, dropping what it met
before, and meets millions at 30 cards. As ``openings.OpeningCounter`` counts openings, such a take is the base with
a multiset of *units* (sequences, groups of one rank) and its verdict (``checks._plan_take``) hangs on sums over
them: cards used, points, canastas, what the melds are made of, every meld valid kept or going out, and what hook
pile.take counts (the groups, those of the top card's rank, the ranks repeated). So for each multiset of sequences
the other ranks' groups are counted once by dynamic programming, for every base alike (the wild cards a base uses
are checked against the state's, which counts them by type), and the top card's rank last, base by base. Exact
where no rank merges its groups into one meld (the listing walks otherwise); tests compare it with the walk.
"""

from __future__ import annotations

from itertools import product
from typing import Final

from .actions import Action, MeldGroup
from .cards import CARD_TYPES, Card, rank_of
from .checks import (
    CanastaKinds,
    RankFacts,
    Tally,
    composition_of,
    ending_refusal,
    goes_out_melding,
    initial_meld_reads,
    initial_meld_refusal,
    initial_minimum,
    opening_bonus,
    pile_to_hand,
    rank_facts,
    side_tally,
    table_values,
    tally_counts,
)
from .combos import capped
from .movegen import HandCards, Shape, take_groups, take_pool
from .named import PileTake, ShapesWithin, repeats_allowed
from .openings import constant_from, left_cap, steady_points
from .rankcount import RankGroups, Sum, WildCards, pick
from .rules import Rules, remember
from .state import HandState, Meld
from .takeshare import SharedTakes

#: A state of the count: the wild cards used (packed), the cards left (capped), points (capped), canastas,
#: composition, valid kept, valid going out, the further groups, those of the top card's rank and the ranks
#: repeated (each capped where hook pile.take stops changing), and whether a sequence is laid.
State = tuple[int, int, int, Tally, int, bool, bool, int, int, int, bool]

#: What a take's verdict reads of its state besides the wild cards and the cards left (``TakeCounter.judged``):
#: points, canastas, composition, valid kept, valid going out, the further groups, those of the top card's rank
#: and the ranks repeated.
Judged = tuple[int, Tally, int, bool, bool, int, int, int]

#: The initial-meld variables for canastas of each kind, in ``CanastaKinds`` order.
_KIND_VARIABLES: Final = ("natural_canastas", "mixed_canastas", "wild_canastas", "sequence_canastas")

#: The ``pile.take`` fields that count a take's further groups.
_EXTRA_FIELDS: Final = ("extra_melds", "extra_of_top_rank", "extra_repeated_ranks")

#: A multiset of sequences' part of the count: the cards it leaves (wild cards all kept: a base's are checked at
#: the end), the other ranks in order with their shapes of groups, and the states before any rank and after each.
_Layers = tuple[list[int], list[int], dict[int, list[Shape]], list[dict[State, int]]]


class TakeCounter:
    """The distinct legal takes of each base that ``named.take_openings_with_extras`` walks for a side that has
    not opened: counted, and drawn by index, base by base (``for_base``). Only where no rank merges its groups into
    one meld. The facts every take shares are computed once, and so is each multiset of sequences' count of the
    other ranks."""

    def __init__(self, rules: Rules, state: HandState) -> None:
        self.rules = rules
        self.state = state
        self.seat = seat = state.to_act
        self.counts = state.hands[seat]
        self.top = top = state.pile[-1]
        self.top_rank = rank_of(top)
        self.top_points = rules.card_value[top]
        self.table = table_values(rules, state, seat)
        self.facts: RankFacts = rank_facts(rules, state, seat)
        self.tally = side_tally(rules, state, seat)
        gained = pile_to_hand(rules, state, seat)[0]
        self.hand_size = state.cards_held(seat) + gained + opening_bonus(rules, state, seat, taking_pile=True)
        self.pending = not state.last_card_bonus
        self.repeats = repeats_allowed(rules, state)
        self.shapes = ShapesWithin(rules, state)
        self.wilds = WildCards(rules, self.counts)
        self.left_cap = left_cap(rules, self.pending, self.hand_size)
        self.bases = list(take_groups(rules, take_pool(rules, self.counts, top), self.counts, True))
        self._pile_takes = {base: PileTake(rules, state, base) for base in self.bases}
        self.groups_cap, self.top_cap, self.repeated_cap = self._take_caps()
        self.most_groups = max(self.groups_cap, self.top_cap, self.repeated_cap + 1)
        self.points_cap = self._points_cap()
        self.groups = RankGroups(
            rules, self.table, self.facts, self.wilds, self.repeats, self.most_groups, self.left_cap
        )
        self._layers: dict[int, _Layers] = {}
        self._shared: SharedTakes | None = None
        self._counts: dict[tuple[Card, ...], int] = {}
        self._by_place: dict[tuple[Card, ...], list[int]] = {}
        self._base_sums: dict[tuple[Card, ...], Sum] = {}
        self._verdicts: dict[tuple[tuple[Card, ...], State], bool] = {}
        self._refused: dict[tuple[object, ...], bool] = {}
        self._parts: dict[tuple[object, ...], bool] = {}
        self._wild_counts: dict[int, int] = {}

    def for_base(self, base: tuple[Card, ...]) -> BaseTakes:
        """The takes of one base, as ``blocks.CountedWalk`` counts and draws them."""
        return BaseTakes(self, base)

    # ------------------------------------------------------------------ caps and sums

    def _take_caps(self) -> tuple[int, int, int]:
        """The counts of further groups, of those of the top card's rank and of ranks repeated from which pile.take
        stops changing its answer for every base (1 for a count no clause reads: a walk still tells none from
        some). Where it reads one of them, its answers along it for each base; where it reads more, none capped."""
        read = [self.rules.reads("pile.take", name) for name in _EXTRA_FIELDS]
        most = self.hand_size + 1
        if sum(read) > 1:
            return (most if read[0] else 1, most if read[1] else 1, most if read[2] else 1)
        caps = [1, 1, 1]
        for field in range(3):
            if read[field]:
                for pile_take in self._pile_takes.values():
                    answers = [pile_take._allows(*_at(field, n)) for n in range(most + 1)]
                    caps[field] = max(caps[field], constant_from(answers))
        return caps[0], caps[1], caps[2]

    def _points_cap(self) -> int | None:
        """The points from which the initial-meld verdict of a take stops changing, for every count of canastas by
        kind the hand could make (asked of every total the cards that can meld reach); None where one of them
        counts negative points, since a capped sum could then fall back."""
        rules, state, seat = self.rules, self.state, self.seat
        values = [rules.card_value[card] for card in range(CARD_TYPES) if self.counts[card]]
        if any(v < 0 for v in values):
            return None
        highest = sum(rules.card_value[card] * self.counts[card] for card in range(CARD_TYPES))
        smallest = min(rules.canasta_size)
        most = [self.hand_size // smallest if initial_meld_reads(rules, name) else 0 for name in _KIND_VARIABLES]
        key = ("take-points-cap", initial_minimum(rules, state, seat), highest, self.top_points, tuple(most))
        known: int | bool | None = rules.shape_cache.get(key, False)
        if known is not False:
            return known
        every_kinds = [CanastaKinds(*kinds) for kinds in product(*(range(n + 1) for n in most))]
        cap = steady_points(
            rules, state, seat, highest, every_kinds, ((False, False),), top_points=self.top_points, taking=True
        )
        return remember(rules.shape_cache, key, cap)  # type: ignore[no-any-return]

    def _base_sum(self, base: tuple[Card, ...]) -> Sum:
        """The meld a take lays the top card on with ``base`` as a ``Sum``: its points from hand alone (the top
        card's are counted apart), its composition with the top card set aside where the spec says so
        (``checks.opening_composition``), no further group. Kept by base."""
        known = self._base_sums.get(base)
        if known is not None:
            return known
        rules = self.rules
        cards = (self.top, *base)
        meld = Meld.build(self.top_rank, cards, rules.is_wild)
        _, _, _, tally, composition, staying, leaving, _, _ = self.groups.meld_sum(meld, cards)
        if rules.reads_composition and rules.composition_from_hand:
            top_wild = rules.is_wild[self.top]
            composition = composition_of(self.top_rank, meld.naturals - (not top_wild), meld.wilds - top_wild)
        known = self._base_sums[base] = (
            self.wilds.packed(base),
            0,
            sum(rules.card_value[c] for c in base),
            tally,
            composition,
            staying,
            leaving,
            0,
            len(base),
        )
        return known

    # ------------------------------------------------------------------ the count

    def _sequence_choices(self) -> list[tuple[list[MeldGroup], list[int]]]:
        """Every multiset of the candidate sequences, with the cards it leaves (found once)."""
        return self.groups.sequence_choices(self.state, self.counts)

    def _layers_of(self, place: int) -> _Layers:
        """The count of multiset of sequences ``place`` with groups of every rank but the top card's."""
        known = self._layers.get(place)
        if known is not None:
            return known
        sequences, rest = self._sequence_choices()[place]
        wilds, _, points, tally, composition, staying, leaving, groups, _ = self.groups.sum_of(sequences)
        per_rank = self.shapes.of(HandCards(self.rules, tuple(rest)))
        ranks = sorted(rank for rank in per_rank if rank != self.top_rank)
        start: State = (
            wilds,
            0,
            capped(points, self.points_cap),
            tally,
            composition,
            staying,
            leaving,
            min(groups, self.groups_cap),
            0,
            0,
            bool(sequences),
        )
        layers = [{start: 1}]
        hand = HandCards(self.rules, tuple(rest))
        for rank in ranks:
            sums = self.groups.sums_of(rank, hand, per_rank[rank], rest)
            layers.append(self._combine(layers[-1], sums, hand.count(rank), False))
        known = self._layers[place] = (rest, ranks, per_rank, layers)
        return known

    def _combine(self, states: dict[State, int], choices: dict[Sum, int], naturals: int, top: bool) -> dict[State, int]:
        """The states once one rank's choices of groups are added to each, or none (which leaves ``naturals``)."""
        out: dict[State, int] = {}
        every: list[tuple[Sum | None, int]] = [(None, 1), *choices.items()]
        for state, ways in states.items():
            for choice, more in every:
                key = self._added(state, choice, naturals, top)
                if key is not None:
                    out[key] = out.get(key, 0) + ways * more
        return out

    def _added(self, state: State, choice: Sum | None, naturals: int, top: bool) -> State | None:
        """``state`` with a rank's ``choice`` of groups (None: none, which leaves its ``naturals``); ``top``: the
        top card's rank, whose groups pile.take counts apart; None where the wild cards held cannot pay."""
        groups, of_top, repeated, sequence = state[7:]
        if choice is None:
            return (*state[:1], capped(state[1] + naturals, self.left_cap), *state[2:])
        if not self.wilds.fits(state[0] + choice[0]):
            return None
        k = choice[7]
        return (
            *self._joined(state, choice),
            min(groups + k, self.groups_cap),
            min(of_top + k, self.top_cap) if top else of_top,
            min(repeated + k - 1, self.repeated_cap),
            sequence,
        )

    def _joined(self, state: State, summed: Sum) -> tuple[int, int, int, Tally, int, bool, bool]:
        """What ``state`` counts of wild cards, cards left, points, canastas, composition and validity, with
        ``summed``'s added (its second field: the cards it leaves)."""
        wilds, left, points, tally, composition, staying, leaving = state[:7]
        w, unused, p, t, c, s, lv, _, _ = summed
        return (
            wilds + w,
            capped(left + unused, self.left_cap),
            capped(points + p, self.points_cap),
            tally + t,
            composition | c,
            staying and s,
            leaving and lv,
        )

    def _top_part(self, place: int, base: tuple[Card, ...]) -> tuple[list[int], HandCards, list[Shape]] | None:
        """The cards multiset of sequences ``place`` and ``base`` leave (wild cards all kept), and the top card's
        rank's shapes of groups they hold; None where ``base`` does not fit beside the sequences."""
        rest = list(self._layers_of(place)[0])
        for card in base:
            if not self.rules.is_wild[card]:
                rest[card] -= 1
                if rest[card] < 0:
                    return None
        hand = HandCards(self.rules, tuple(rest))
        return rest, hand, self.shapes.of(hand).get(self.top_rank, [])

    def _finals(self, place: int, base: tuple[Card, ...]) -> list[tuple[State, Sum | None, int, int]]:
        """Every way to finish multiset of sequences ``place``'s count with ``base``: a last state of the other
        ranks, the top card's rank's choice, their ways, where the take so made is one the walk lists and legal."""
        part = self._top_part(place, base)
        if part is None:
            return []
        rest, hand, shapes = part
        _, ranks, per_rank, layers = self._layers_of(place)
        top_sums = self.groups.sums_of(self.top_rank, hand, shapes, rest) if shapes else {}
        naturals = hand.count(self.top_rank)
        constant = self._left_constant(place, base, ranks, per_rank, naturals if shapes else 0)
        base_sum = self._base_sum(base)
        out: list[tuple[State, Sum | None, int, int]] = []
        every: list[tuple[Sum | None, int]] = [(None, 1), *top_sums.items()]
        for state, ways in layers[-1].items():
            for choice, more in every:
                key = self._added(state, choice, naturals if shapes else 0, True)
                if key is not None and self._legal(base, self._with_base(key, base_sum, constant)):
                    out.append((state, choice, ways, more))
        return out

    def _left_constant(
        self, place: int, base: tuple[Card, ...], ranks: list[int], per_rank: dict[int, list[Shape]], top_held: int
    ) -> int:
        """The cards a take leaves besides the natural cards of the ranks whose groups are counted (and the wild
        cards, counted at the verdict): those of no such rank, what the pile adds, less the base and sequences."""
        sequences, rest = self._sequence_choices()[place]
        hand = HandCards(self.rules, tuple(rest))
        used = sum(len(unit.cards) for unit in sequences) + len(base)
        in_ranks = sum(hand.count(rank) for rank in ranks)
        wilds_used = self.wilds.count(sum(self.groups.unit(unit)[0] for unit in sequences) + self.wilds.packed(base))
        return self.hand_size - used - in_ranks - top_held - self.wilds.held_count + wilds_used

    def _with_base(self, key: State, base_sum: Sum, constant: int) -> State:
        """A last state with the meld the take lays the top card on, and the cards left besides those counted."""
        return (*self._joined(key, (*base_sum[:1], constant, *base_sum[2:])), *key[7:])

    def _legal(self, base: tuple[Card, ...], key: State) -> bool:
        """Whether a finished take is one the walk lists (a sequence, a group of the top card's rank or a rank
        repeated, where the spec repeats ranks) and legal, kept by base and state."""
        listed = key[10] or (self.repeats and (key[8] > 0 or key[9] > 0))
        if not listed or not self.wilds.fits(key[0]):
            return False
        known = self._verdicts.get((base, key))
        if known is None:
            known = self._verdicts[(base, key)] = self._verdict(base, key)
        return known

    def _verdict(self, base: tuple[Card, ...], key: State) -> bool:
        """``checks._plan_take`` on a take by its sums: hook pile.take, every meld valid kept or going out, the
        initial meld (the top card's points apart) and the ending."""
        hand_after = capped(key[1] + self.wilds.held_count - self.wilds.count(key[0]), self.left_cap)
        return self.judged(base, hand_after, key[2:10])

    def judged(self, base: tuple[Card, ...], hand_after: int, sums: Judged) -> bool:
        """``_verdict`` on a take of ``base`` leaving ``hand_after`` cards, whose state's points, canastas,
        composition, valid kept, valid going out, groups, of the top card's rank and ranks repeated are ``sums``:
        each hook asked once for what it reads (the initial meld of points, canastas and composition; the
        ending of the cards left and canastas), whatever the base."""
        points, tally, composition, staying, leaving, groups, of_top, repeated = sums
        if not self._pile_takes[base]._allows(groups, of_top, repeated):
            return False
        canastas_after = self.tally + tally
        if not (leaving if self._going_out(hand_after, canastas_after) else staying):
            return False
        return self._initial_allowed(points, tally, composition) and self._ending_allowed(hand_after, canastas_after)

    def wild_count(self, packed: int) -> int:
        """How many wild cards a packed count holds (``WildCards.count``, kept by count)."""
        known = self._wild_counts.get(packed)
        if known is None:
            known = self._wild_counts[packed] = self.wilds.count(packed)
        return known

    def _going_out(self, hand_after: int, canastas_after: Tally) -> bool:
        """Whether leaving ``hand_after`` cards with ``canastas_after`` is going out (kept by both)."""
        if hand_after > 1:
            return False
        key = ("out", hand_after, canastas_after)
        known = self._parts.get(key)
        if known is None:
            known = self._parts[key] = hand_after == 0 or goes_out_melding(
                self.rules, self.state, self.seat, 1, canastas_after
            )
        return known

    def _initial_allowed(self, points: int, tally: Tally, composition: int) -> bool:
        """Whether the initial-meld hooks accept a take of ``points`` from hand, ``tally`` canastas and
        ``composition`` (kept by the three)."""
        key = ("initial", points, tally, composition)
        known = self._parts.get(key)
        if known is None:
            refusal = initial_meld_refusal(
                self.rules,
                self.state,
                self.seat,
                hand_points=points,
                top_card_points=self.top_points,
                kinds=CanastaKinds(*tally_counts(tally)),
                concealed_out=False,
                concealed_by_discard=False,
                taking_pile=True,
                composition=composition,
            )
            known = self._parts[key] = refusal is None
        return known

    def _ending_allowed(self, hand_after: int, canastas_after: Tally) -> bool:
        """Whether the ending hooks accept leaving ``hand_after`` cards with ``canastas_after`` (kept by both)."""
        key = ("ending", hand_after, canastas_after)
        known = self._parts.get(key)
        if known is None:
            refusal = ending_refusal(self.rules, self.state, self.seat, hand_after, canastas_after, self.pending)
            known = self._parts[key] = refusal is None
        return known

    def count_of(self, base: tuple[Card, ...]) -> int:
        """The takes of ``base``: every multiset of sequences with the groups the rest of the hand adds to it, counted
        on the layers the multisets share (``takeshare.SharedTakes``)."""
        if self._refused_whole(base):
            return 0
        known = self._counts.get(base)
        if known is None:
            known = self._counts[base] = self._shared_takes().count(base)
        return known

    def _shared_takes(self) -> SharedTakes:
        """The counting shared by the multisets of sequences, made once."""
        if self._shared is None:
            self._shared = SharedTakes(self)
        return self._shared

    def _ways_by_place(self, base: tuple[Card, ...]) -> list[int]:
        """The takes of ``base`` with each multiset of sequences, in their order (kept: a draw reads them)."""
        known = self._by_place.get(base)
        if known is None:
            if self._refused_whole(base):
                known = [0] * len(self._sequence_choices())
            else:
                known = self._shared_takes().ways_by_place(base)
            self._by_place[base] = known
        return known

    def _refused_whole(self, base: tuple[Card, ...]) -> bool:
        """Whether hook pile.take refuses every take of ``base`` whatever further groups it lays (up to the counts
        ``_take_caps`` asks), so that no multiset of sequences need be counted with it (``PileTake.refuses_every``,
        which the walk skips such bases by too)."""
        return self._pile_takes[base].refuses_every(self.hand_size + 1, self._refused)

    # ------------------------------------------------------------------ drawing

    def draw_of(self, base: tuple[Card, ...], index: int) -> Action:
        """Take ``index`` of ``base`` (0 <= index < ``count_of(base)``) in this counter's own order: the multisets
        of sequences in turn, within one each last state and top-rank choice in turn, and within those each way
        of reaching the state, found rank by rank from the last (a bijection, so a uniform index draws a uniform
        take)."""
        for place, ways in enumerate(self._ways_by_place(base)):
            if index >= ways:
                index -= ways
                continue
            finals = [((state, choice, more), ways * more) for state, choice, ways, more in self._finals(place, base)]
            (target, choice, more), index = pick(finals, index)
            index, which = divmod(index, more)
            groups: list[MeldGroup] = list(self._sequence_choices()[place][0])
            if choice is not None:
                part = self._top_part(place, base)
                assert part is not None  # the base fits, or no take was counted
                top_rest, top_hand, top_shapes = part
                groups.extend(self.groups.multiset(self.top_rank, top_hand, top_shapes, top_rest, choice, which))
            groups.extend(self._ranks_drawn(place, target, index))
            return Action.take(base, groups)
        raise IndexError("take index out of range")

    def _ranks_drawn(self, place: int, target: State, index: int) -> list[MeldGroup]:
        """The groups of the other ranks of way ``index`` to reach ``target``, found rank by rank from the last."""
        rest, ranks, per_rank, layers = self._layers_of(place)
        hand = HandCards(self.rules, tuple(rest))
        groups: list[MeldGroup] = []
        for at in range(len(ranks) - 1, -1, -1):
            rank = ranks[at]
            sums = self.groups.sums_of(rank, hand, per_rank[rank], rest)
            held = hand.count(rank)
            ways_in = [
                ((before, choice), n * more)
                for before, n in layers[at].items()
                for choice, more in [(None, 1), *sums.items()]
                if self._added(before, choice, held, False) == target
            ]
            (target, choice), index = pick(ways_in, index)
            if choice is not None:
                index, which = divmod(index, sums[choice])
                groups.extend(self.groups.multiset(rank, hand, per_rank[rank], rest, choice, which))
        return groups


class BaseTakes:
    """One base's takes of a ``TakeCounter``, as ``blocks.Counter``: counted, and drawn by index."""

    def __init__(self, counter: TakeCounter, base: tuple[Card, ...]) -> None:
        self.counter = counter
        self.base = base

    def count(self) -> int:
        return self.counter.count_of(self.base)

    def draw(self, index: int) -> Action:
        return self.counter.draw_of(self.base, index)


def _at(field: int, value: int) -> tuple[int, int, int]:
    """The counts of further groups, of the top card's rank and of ranks repeated, ``value`` at ``field`` alone."""
    return (value if field == 0 else 0, value if field == 1 else 0, value if field == 2 else 0)
