"""Counting the openings a choice of one shape per rank cannot write, without walking them (issue 40).

Where the spec lets one action lay sequences, or two groups of one rank, a side that has not opened lists those
openings by a walk that drops what it met before (``named.play_action_walk``): at 30 cards and more it meets
millions of candidates. Such an opening is a multiset of *units*, each a sequence or a group of one rank, and its
verdict (``checks._plan_meld``) hangs on sums over them: cards used, points, canastas made, what the melds are
made of, every meld valid kept or going out, the groups and the ranks repeated. So the multisets of sequences are
enumerated (hundreds at 45 cards), each a start state of the sums it adds, and the groups are counted by dynamic
programming over ranks: each rank's distinct multisets of groups, summed by what the verdict reads, and combined
rank by rank under the wild cards held. A rank's choices hang only on the cards of that rank (and the wild cards)
the sequences leave, so the counting is shared (``_Shared``): before each rank, the multisets of sequences that
leave alike the cards of that rank and of every rank after it are one node, their states summed; the ranks whose
cards the sequences leave most diversely come first, so the nodes fall to a few where the states are many.
Exact where no rank merges its groups into one meld (the listing walks otherwise). Tests compare the count with
the walk's on small hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Final, NamedTuple

from ..spec.model import Clause
from .actions import Action, MeldGroup
from .cards import CARD_TYPES
from .checks import (
    CLEAN_MELD,
    COMPOSITIONS,
    INITIAL_CONCEALED_VARIABLES,
    MELD_ACTION,
    THREE_NATURALS_MELD,
    WILD_MELD,
    CanastaKinds,
    RankFacts,
    Tally,
    ending_refusal,
    goes_out_melding,
    initial_meld_reads,
    initial_meld_refusal,
    initial_minimum,
    keep_card_refusal,
    opening_bonus,
    rank_facts,
    side_tally,
    table_values,
)
from .combos import capped
from .hooks import COMPOSITION_VARIABLES
from .movegen import HandCards, Shape, opening_accepted
from .named import ShapesWithin, repeats_allowed
from .rankcount import RankGroups, Sum, WildCards, pick
from .rules import Rules, remember
from .state import HandState

#: A state of the count: the wild cards used (packed), the cards left so far (capped, ``left_cap``), points
#: (capped, ``_points_cap``), canastas, composition, valid kept, valid going out, groups and ranks repeated (each
#: capped where hook meld.action stops changing), and whether a sequence is laid.
State = tuple[int, int, int, Tally, int, bool, bool, int, int, bool]

#: A state without its wild cards used: what a rank's choice changes the same way whatever wild cards it used.
Rest = tuple[int, int, Tally, int, bool, bool, int, int, bool]

#: A sum without its wild cards used.
SumRest = tuple[int, int, Tally, int, bool, bool, int, int]

#: States by all but their wild cards used, each with the wild cards used (packed) and its ways: a rank's choice
#: changes the rest of a state once for all the wild cards it was reached with.
Grouped = dict[Rest, dict[int, int]]

#: A rank's sums grouped the same way.
GroupedSums = dict[SumRest, dict[int, int]]

#: What the multisets of sequences of one node leave of the cards of each rank still to come
#: (``RankGroups.signature``, in ``_Shared.ranks`` order from the node's rank on).
_Node = tuple[tuple[int, ...], ...]

#: The initial-meld variables for canastas of each kind, in ``CanastaKinds`` order.
_KIND_VARIABLES: Final = ("natural_canastas", "mixed_canastas", "wild_canastas", "sequence_canastas")


class OpeningCounter:
    """The distinct legal openings of the seat to act that lay a sequence or repeat a rank (those
    ``named.play_action_walk`` walks for a side that has not opened): counted, and drawn by index. Only where no
    rank merges its groups into one meld (``Rules.merges_same_rank``): the sums here take each group for a meld of
    its own. The facts every unit's verdict shares are computed once."""

    def __init__(self, rules: Rules, state: HandState) -> None:
        self.rules = rules
        self.state = state
        self.seat = seat = state.to_act
        self.counts = state.hands[seat]
        self.table = table_values(rules, state, seat)
        self.facts: RankFacts = rank_facts(rules, state, seat)
        self.tally = side_tally(rules, state, seat)
        self.hand_size = state.cards_held(seat) + opening_bonus(rules, state, seat)
        self.pending = not state.last_card_bonus
        self.repeats = repeats_allowed(rules, state)
        self.shapes = ShapesWithin(rules, state)
        self.wilds = WildCards(rules, self.counts)
        self.points_cap = _points_cap(rules, state, seat, self.counts, self.hand_size)
        self.left_cap = left_cap(rules, self.pending, self.hand_size)
        self.groups_cap, self.repeated_cap = _action_caps(rules, self.table, self.hand_size)
        most_groups = max(self.groups_cap, self.repeated_cap + 1)
        self.groups = RankGroups(rules, self.table, self.facts, self.wilds, self.repeats, most_groups, self.left_cap)
        self._grouped_sums: dict[tuple[int, tuple[int, ...]], GroupedSums] = {}
        self._shared: _Shared | None = None
        self._finals: list[tuple[State, int]] | None = None

    def count(self) -> int:
        """Every multiset of sequences, with the groups the rest of the hand adds to it."""
        return sum(ways for _, ways in self._legal_finals())

    def _legal_finals(self) -> list[tuple[State, int]]:
        """The legal final states with their ways, in ``_Shared.final`` order (found once: every draw reads them)."""
        if self._finals is None:
            self._finals = [(key, ways) for key, ways in self._counted().final().items() if self._legal(key)]
        return self._finals

    def _counted(self) -> _Shared:
        """The shared counting (``_Shared``), made once: counting and every draw read it."""
        if self._shared is None:
            self._shared = _Shared(self)
        return self._shared

    def draw(self, index: int) -> Action:
        """Opening ``index`` (0 <= index < ``count()``) in this counter's own order: the legal final states in turn,
        within a state each way of reaching it, found rank by rank from the last (the node, the state before the
        rank and the rank's choice of groups), and last the multiset of sequences among those that start the
        state found (a bijection, so an index drawn uniformly draws an opening uniformly)."""
        shared = self._counted()
        target, index = pick(self._legal_finals(), index)
        node: _Node = ()
        groups: list[MeldGroup] = []
        for depth in range(len(shared.ranks) - 1, -1, -1):
            (node, target, choice), index = pick(shared.ways_into(depth, node, target), index)
            if choice is not None:
                sums, _ = shared.rank_choices(depth, node[0])
                index, which = divmod(index, sums[choice[1:]][choice[0]])
                groups.extend(shared.rank_multiset(depth, node[0], choice, which))
        places = shared.starts[node][target]
        chosen, _ = self._sequence_choices()[places[index]]
        return Action.meld([*chosen, *groups])

    def _sequence_choices(self) -> list[tuple[list[MeldGroup], list[int]]]:
        """Every multiset of the candidate sequences, with the cards it leaves (found once)."""
        return self.groups.sequence_choices(self.state, self.counts)

    def _legal_ways(self, states: dict[State, int]) -> int:
        return sum(n for key, n in states.items() if self._legal(key))

    def _legal(self, key: State) -> bool:
        """Whether a final state is an opening the walk lists (a sequence or a repeated rank) and legal."""
        return (key[8] > 0 or key[9]) and self._verdict(key)

    def _start(self, sequences: list[MeldGroup], rest: Sequence[int], ranks: Sequence[int]) -> State:
        """The state of the openings laying exactly ``sequences`` (a multiset), which leave the cards ``rest``,
        before any rank of ``ranks`` (every rank a group may be of) adds its groups or its natural cards left."""
        wilds, _, points, tally, composition, staying, leaving, groups, used = self.groups.sum_of(sequences)
        natural_cards = self.rules.natural_cards
        # The cards left before any group: those of no rank a group is chosen from, and no wild card.
        left = (
            self.hand_size
            - used
            - sum(rest[card] for rank in ranks for card in natural_cards[rank])
            - self.wilds.held_count
            + self.wilds.count(wilds)
        )
        return (
            wilds,
            capped(left, self.left_cap),
            capped(points, self.points_cap),
            tally,
            composition,
            staying,
            leaving,
            min(groups, self.groups_cap),
            0,
            bool(sequences),
        )

    def combine(self, states: Grouped, choices: GroupedSums, naturals: int, out: Grouped) -> None:
        """Add to ``out`` the states once one rank's choices of groups are added to each, or none, which leaves
        the rank's ``naturals``: the rest of a state changed once a choice, then its wild cards used added to
        each the choice's, where the wild cards held pay for them."""
        held, guards = self.wilds.held, self.wilds.guards
        every = [(choice, tuple(choice_wilds.items())) for choice, choice_wilds in choices.items()]
        for rest, wild_ways in states.items():
            into = out.setdefault(self.added_rest(rest, None, naturals), {})
            for wilds, ways in wild_ways.items():
                into[wilds] = into.get(wilds, 0) + ways
            for choice, choice_wilds in every:
                into = out.setdefault(self.added_rest(rest, choice, naturals), {})
                for wilds, ways in wild_ways.items():
                    room = held - wilds  # the wild cards the hand still holds, guards and all
                    for more_wilds, more in choice_wilds:
                        if (room - more_wilds) & guards == guards:
                            added = wilds + more_wilds
                            into[added] = into.get(added, 0) + ways * more

    def added_rest(self, rest: Rest, choice: SumRest | None, naturals: int) -> Rest:
        """``rest`` with a rank's ``choice`` of groups, its wild cards apart (None: no group, which leaves the
        rank's ``naturals``)."""
        left, points, tally, composition, staying, leaving, groups, repeated, sequence = rest
        if choice is None:
            return (
                capped(left + naturals, self.left_cap),
                points,
                tally,
                composition,
                staying,
                leaving,
                groups,
                repeated,
                sequence,
            )
        unused, p, t, c, s, lv, k, _ = choice
        return (
            capped(left + unused, self.left_cap),
            capped(points + p, self.points_cap),
            tally + t,
            composition | c,
            staying and s,
            leaving and lv,
            min(groups + k, self.groups_cap),
            min(repeated + k - 1, self.repeated_cap),
            sequence,
        )

    def grouped_sums_of(self, rank: int, hand: HandCards, shapes: list[Shape], rest: list[int]) -> GroupedSums:
        """One rank's choices of groups (``RankGroups.sums_of``: counted by their sum with the cards used left out
        and the groups capped, which ``combine`` reads no further) grouped by all but the wild cards used
        (``GroupedSums``). Kept per rank and the cards of the rank and wild cards held, which most choices of
        sequences leave alike."""
        key = (rank, self.groups.signature(rank, rest))
        known = self._grouped_sums.get(key)
        if known is None:
            known = self._grouped_sums[key] = {}
            for summed, ways in self.groups.sums_of(rank, hand, shapes, rest).items():
                known.setdefault(_sum_rest(summed), {})[summed[0]] = ways
        return known

    def _verdict(self, key: State) -> bool:
        """``checks._plan_meld`` on an opening by its sums: hook meld.action, every meld valid kept or going out,
        the ending, and the initial-meld hooks (as ``legal._opening_verdict`` judges an opening of one group a
        rank)."""
        rules, state, seat = self.rules, self.state, self.seat
        wilds, left, points, tally, composition, staying, leaving, groups, repeated, _ = key
        values = (*self.table, "play", groups, repeated, True)
        if rules.failing_of(MELD_ACTION, values) is not None:
            return False
        hand_after = capped(left + self.wilds.held_count - self.wilds.count(wilds), self.left_cap)
        canastas_after = self.tally + tally
        going_out = hand_after == 0 or (hand_after == 1 and goes_out_melding(rules, state, seat, 1, canastas_after))
        if not (leaving if going_out else staying):
            return False
        if ending_refusal(rules, state, seat, hand_after, canastas_after, self.pending) is not None:
            return False
        return opening_accepted(rules, state, seat, points, tally, hand_after, composition)


class _Shared:
    """The counting of ``OpeningCounter`` shared by the multisets of sequences: ``layers[d]`` holds, for each node
    (what the multisets leave of the cards of ``ranks[d]`` and every rank after it), the states before
    ``ranks[d]`` summed over the multisets of the node; ``starts`` the multisets that start each state of each
    node of ``layers[0]``. A rank's choices of groups read only what the node says of it, so the multisets of one
    node go on together."""

    def __init__(self, counter: OpeningCounter) -> None:
        self.counter = counter
        rules = counter.rules
        self.choices = counter._sequence_choices()
        #: The cards each multiset of sequences leaves, sorted (``HandCards``), made for the few places a rank's
        #: choices are read from (``example``): hundreds kept would be thousands of lists the collector tracks.
        self._hands: dict[int, HandCards] = {}
        whole = counter.shapes.of(HandCards(rules, tuple(counter.counts)))
        self.ranks = _diverse_first(
            sorted(whole),
            [[counter.groups.signature(rank, rest) for _, rest in self.choices] for rank in sorted(whole)],
        )
        self.nodes = [tuple(counter.groups.signature(rank, rest) for rank in self.ranks) for _, rest in self.choices]
        #: Per depth, each signature of its rank: a multiset of sequences leaving it (its place).
        self.example: list[dict[tuple[int, ...], int]] = [{} for _ in self.ranks]
        starts: dict[_Node, dict[State, list[int]]] = {}
        first: dict[_Node, Grouped] = {}
        for place, ((chosen, rest), node) in enumerate(zip(self.choices, self.nodes, strict=True)):
            for depth, part in enumerate(node):
                self.example[depth].setdefault(part, place)
            state = counter._start(chosen, rest, self.ranks)
            starts.setdefault(node, {}).setdefault(state, []).append(place)
            wild_ways = first.setdefault(node, {}).setdefault(_state_rest(state), {})
            wild_ways[state[0]] = wild_ways.get(state[0], 0) + 1
        #: The multisets of sequences that start each state of each node, as tuples the collector stops tracking.
        self.starts = {node: {state: tuple(places) for state, places in each.items()} for node, each in starts.items()}
        self.layers = [first]
        self._shapes: dict[int, dict[int, list[Shape]]] = {}
        for depth in range(len(self.ranks)):
            after: dict[_Node, Grouped] = {}
            for node, states in self.layers[-1].items():
                sums, naturals = self.rank_choices(depth, node[0])
                counter.combine(states, sums, naturals, after.setdefault(node[1:], {}))
            self.layers.append(after)

    def final(self) -> dict[State, int]:
        """The states after every rank: every opening."""
        return {
            _state_of(wilds, rest): ways
            for rest, wild_ways in self.layers[-1].get((), {}).items()
            for wilds, ways in wild_ways.items()
        }

    def _hand(self, place: int) -> HandCards:
        """The cards multiset of sequences ``place`` leaves, sorted."""
        known = self._hands.get(place)
        if known is None:
            known = self._hands[place] = HandCards(self.counter.rules, tuple(self.choices[place][1]))
        return known

    def _shapes_of(self, place: int) -> dict[int, list[Shape]]:
        """Each rank's shapes of groups the cards multiset of sequences ``place`` leaves hold."""
        known = self._shapes.get(place)
        if known is None:
            known = self._shapes[place] = self.counter.shapes.of(self._hand(place))
        return known

    def rank_choices(self, depth: int, part: tuple[int, ...]) -> tuple[GroupedSums, int]:
        """The choices of groups of ``ranks[depth]`` where the sequences leave ``part`` of its cards, and the
        natural cards they leave of it."""
        place = self.example[depth][part]
        rank, hand = self.ranks[depth], self._hand(place)
        shapes = self._shapes_of(place).get(rank)
        sums = {} if not shapes else self.counter.grouped_sums_of(rank, hand, shapes, self.choices[place][1])
        return sums, hand.count(rank)

    def rank_multiset(self, depth: int, part: tuple[int, ...], choice: Sum, which: int) -> list[MeldGroup]:
        """The ``which``-th multiset of groups of ``ranks[depth]`` whose sum is ``choice``, where the sequences
        leave ``part`` of its cards."""
        place = self.example[depth][part]
        rank = self.ranks[depth]
        shapes = self._shapes_of(place)[rank]
        return self.counter.groups.multiset(rank, self._hand(place), shapes, self.choices[place][1], choice, which)

    def ways_into(self, depth: int, node: _Node, target: State) -> list[tuple[tuple[_Node, State, Sum | None], int]]:
        """Each way the state ``target`` of the node ``node`` after ``ranks[depth]`` is reached: a node before the
        rank, its state and the rank's choice (None: no group), with its number of openings."""
        added = self.counter.added_rest
        wilds, rest = target[0], _state_rest(target)
        out: list[tuple[tuple[_Node, State, Sum | None], int]] = []
        for before_node, grouped in self.layers[depth].items():
            if before_node[1:] != node:
                continue
            sums, naturals = self.rank_choices(depth, before_node[0])
            for before, wild_ways in grouped.items():
                ways = wild_ways.get(wilds, 0)
                if ways and added(before, None, naturals) == rest:
                    out.append(((before_node, _state_of(wilds, before), None), ways))
                for choice, choice_wilds in sums.items():
                    if added(before, choice, naturals) != rest:
                        continue
                    for more_wilds, more in choice_wilds.items():
                        ways = wild_ways.get(wilds - more_wilds, 0)
                        if ways:
                            state = _state_of(wilds - more_wilds, before)
                            out.append(((before_node, state, _sum_of(more_wilds, choice)), ways * more))
        return out


def _state_rest(state: State) -> Rest:
    """A state without its wild cards used."""
    _, left, points, tally, composition, staying, leaving, groups, repeated, sequence = state
    return left, points, tally, composition, staying, leaving, groups, repeated, sequence


def _state_of(wilds: int, rest: Rest) -> State:
    """The state of ``rest`` with ``wilds`` wild cards used."""
    left, points, tally, composition, staying, leaving, groups, repeated, sequence = rest
    return wilds, left, points, tally, composition, staying, leaving, groups, repeated, sequence


def _sum_rest(summed: Sum) -> SumRest:
    """A sum without its wild cards used."""
    _, unused, points, tally, composition, staying, leaving, groups, used = summed
    return unused, points, tally, composition, staying, leaving, groups, used


def _sum_of(wilds: int, rest: SumRest) -> Sum:
    """The sum of ``rest`` with ``wilds`` wild cards used."""
    unused, points, tally, composition, staying, leaving, groups, used = rest
    return wilds, unused, points, tally, composition, staying, leaving, groups, used


def _diverse_first(ranks: list[int], parts: list[list[tuple[int, ...]]]) -> list[int]:
    """``ranks`` with those whose cards the multisets of sequences leave in the most different ways first (each
    rank's ``parts``: what each multiset leaves of it): a rank counted early splits few states into nodes."""
    diversity = {rank: len(set(each)) for rank, each in zip(ranks, parts, strict=True)}
    return sorted(ranks, key=lambda rank: (-diversity[rank], rank))


def left_cap(rules: Rules, pending: bool, most: int) -> int | None:
    """2 when keeping two cards or more is judged alike whatever the number (``go_out.keep_card`` is asked of
    number up to ``most``), else None: the cards left are then counted exactly."""
    key = ("left-cap", most, pending)
    known: int | bool | None = rules.shape_cache.get(key, False)
    if known is False:
        alike = all(
            len({keep_card_refusal(rules, h, pending, out) for h in range(2, most + 1)}) <= 1 for out in (False, True)
        )
        known = remember(rules.shape_cache, key, 2 if alike else None)
    return known


def _action_caps(rules: Rules, table: tuple[object, ...], most: int) -> tuple[int, int]:
    """The numbers of groups and of ranks repeated from which hook meld.action stops changing its answer (at
    least 1 each: an opening has a group, and a repeated rank must stay told apart from none)."""
    key = ("opening-action-caps", tuple(table[i] for i in rules.table_positions_of("meld.action")), most)
    known: tuple[int, int] | None = rules.shape_cache.get(key)
    if known is not None:
        return known
    answers = [
        [rules.failing_of(MELD_ACTION, (*table, "play", g, r, True)) is None for r in range(most + 1)]
        for g in range(most + 1)
    ]
    groups_cap = max(1, constant_from(answers))
    repeated_cap = max(1, max(constant_from(row) for row in answers))
    return remember(rules.shape_cache, key, (groups_cap, repeated_cap))  # type: ignore[no-any-return]


def _points_cap(rules: Rules, state: HandState, seat: int, counts: Sequence[int], hand_size: int) -> int | None:
    """The points from which the initial-meld verdict stops changing, for every count of canastas by kind the
    hand could make and every way of going out concealed (asked of every total the hand can reach); None where a
    card held counts negative points, since a capped sum could then fall back."""
    values = [rules.card_value[card] for card in range(CARD_TYPES) if counts[card]]
    if any(v < 0 for v in values):
        return None
    highest = sum(rules.card_value[card] * counts[card] for card in range(CARD_TYPES))
    smallest = min(rules.canasta_size)
    most = [hand_size // smallest if initial_meld_reads(rules, name) else 0 for name in _KIND_VARIABLES]
    concealed_read = any(initial_meld_reads(rules, name) for name in INITIAL_CONCEALED_VARIABLES)
    key = ("opening-points-cap", initial_minimum(rules, state, seat), highest, tuple(most), concealed_read)
    known: int | bool | None = rules.shape_cache.get(key, False)
    if known is not False:
        return known
    flags = ((False, False), (True, False), (False, True)) if concealed_read else ((False, False),)
    every_kinds = [CanastaKinds(*kinds) for kinds in product(*(range(n + 1) for n in most))]
    cap = steady_points(rules, state, seat, highest, every_kinds, flags, top_points=0, taking=False)
    return remember(rules.shape_cache, key, cap)  # type: ignore[no-any-return]


def steady_points(
    rules: Rules,
    state: HandState,
    seat: int,
    highest: int,
    every_kinds: Sequence[CanastaKinds],
    flags: Sequence[tuple[bool, bool]],
    *,
    top_points: int,
    taking: bool,
) -> int:
    """The points (up to ``highest``) from which the initial-meld verdict stops changing, for each of
    ``every_kinds`` of canastas, ways of going out concealed (``flags``) and composition of the melds. Asked for
    less than every total: each composition only by the bits a clause reads (the others answer alike), and each
    series of totals from the top down only as far as the cap found so far, which a lower start could not raise (a
    big hand's cap would otherwise ask thousands of totals, most of them above the cap)."""
    unit = rules.points_unit
    read = composition_read(rules) if rules.reads_composition else 0
    compositions = sorted({composition & read for composition in COMPOSITIONS})
    top = len(range(0, highest + unit, unit)) - 1  # the index of the highest total
    steady = 0  # the cap so far, as an index: points steady * unit
    for kinds in every_kinds:
        for ending, composition in product(flags, compositions):
            question = InitialQuestion(top_points, kinds, ending, taking, composition)
            last: Clause | None = None
            index = top
            while True:  # from the top down, until the answer changes or the cap so far is reached
                answer = initial_refusal(rules, state, seat, question, index * unit)
                if index < top and answer != last:
                    index += 1
                    break
                last = answer
                if index <= steady:
                    break
                index -= 1
            steady = max(steady, index)
    return steady * unit


class InitialQuestion(NamedTuple):
    """What the initial-meld hooks are asked about an opening besides its points (``checks.initial_meld_refusal``)."""

    top_points: int
    kinds: CanastaKinds
    ending: tuple[bool, bool]  # going out concealed: by melding the whole hand, by a discard
    taking: bool
    composition: int


def initial_refusal(rules: Rules, state: HandState, seat: int, question: InitialQuestion, points: int) -> Clause | None:
    """The initial-meld clause an opening of ``points`` by ``seat`` breaks, asked ``question``."""
    top_points, kinds, (concealed, by_discard), taking, composition = question
    return initial_meld_refusal(
        rules,
        state,
        seat,
        hand_points=points,
        top_card_points=top_points,
        kinds=kinds,
        concealed_out=concealed,
        concealed_by_discard=by_discard,
        taking_pile=taking,
        composition=composition,
    )


def composition_read(rules: Rules) -> int:
    """The composition bits (``checks.composition_of``) some initial_meld.valid clause reads: an unread bit cannot
    change a verdict (``Rules.reads``), and dropping it merges the counting's states that differ in it alone (half of
    a big Modern American hand's, which reads the clean and the wild meld but not three naturals)."""
    key = ("composition-read",)
    known: int | None = rules.shape_cache.get(key)
    if known is None:
        bits = (CLEAN_MELD, WILD_MELD, THREE_NATURALS_MELD)
        read = [bit for bit, name in zip(bits, COMPOSITION_VARIABLES, strict=True) if initial_meld_reads(rules, name)]
        known = remember(rules.shape_cache, key, sum(read))
    return known


def constant_from(answers: Sequence[object]) -> int:
    """The first index from which every answer equals the last."""
    index = len(answers) - 1
    while index > 0 and answers[index - 1] == answers[-1]:
        index -= 1
    return index
