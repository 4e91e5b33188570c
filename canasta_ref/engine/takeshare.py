"""The takes' counting shared by the multisets of sequences (``takecount.TakeCounter``, issue 40).

Counted one multiset of sequences at a time, the takes of a big hand of Samba redo the same dynamic programming over
the ranks a thousand times (1,344 multisets at 45 cards), though a rank's choices of groups hang only on the cards of
that rank and the wild cards the sequences leave (``RankGroups.signature``). So, as ``openings._Shared`` counts the
openings, the multisets that leave alike the cards of every rank still to come are one node, their states summed,
and the top card's rank comes last: a base takes its natural cards from it, so each base reads the few nodes of the
last layer (what the sequences leave of that rank) and nothing before. What a take leaves in hand is counted from the
start (the cards of no rank counted, the pile's), so every part of a state is a sum capped the same way whatever the
order of the ranks, and a take's last state is the one the count of its multiset alone reaches.

A draw keeps the order of the count a multiset at a time (``TakeCounter.draw_of``): it needs the takes of one base by
multiset, which one pass back over the shared layers gives (``ways_by_place``), each state's legal takes below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from .actions import MeldGroup
from .cards import Card
from .checks import Tally
from .combos import capped
from .movegen import HandCards, Shape
from .rankcount import Sum

if TYPE_CHECKING:
    from .takecount import Judged, TakeCounter

#: A state of the count without its wild cards used: cards left, points, canastas, composition, valid kept, valid
#: going out, the further groups, those of the top card's rank, the ranks repeated, a sequence laid.
Rest = tuple[int, int, Tally, int, bool, bool, int, int, int, bool]

#: States by all but their wild cards used, each with the wild cards used (packed) and its ways: a rank's choice
#: changes the rest of a state once for all the wild cards it was reached with.
Grouped = dict[Rest, dict[int, int]]

#: A rank's choice of groups without its wild cards used: the natural cards it leaves, points, canastas,
#: composition, valid kept, valid going out, groups, cards used.
SumRest = tuple[int, int, Tally, int, bool, bool, int, int]

#: A rank's choices grouped the same way as states.
GroupedSums = dict[SumRest, dict[int, int]]

#: What a multiset of sequences leaves of the cards of each rank still to come (``RankGroups.signature``), the top
#: card's rank last.
Node = tuple[tuple[int, ...], ...]

#: What a base asks of the counting besides its own verdicts: its natural cards (taken from the top card's rank).
Naturals = tuple[Card, ...]


class SharedTakes:
    """The takes' counting of ``counter`` shared by nodes: ``layers[d]`` holds, for each node, the states before
    ``ranks[d]`` summed over the multisets of sequences of the node (``ranks``: every rank but the top card's, those
    whose cards the multisets leave most diversely first), the last layer the states before the top card's rank;
    ``starts`` each multiset's node and start state."""

    def __init__(self, counter: TakeCounter) -> None:
        self.counter = counter
        rules, groups, top_rank = counter.rules, counter.groups, counter.top_rank
        self.choices = counter._sequence_choices()
        self.hands = [HandCards(rules, tuple(rest)) for _, rest in self.choices]
        whole = counter.shapes.of(HandCards(rules, tuple(counter.counts)))
        ranks = sorted(rank for rank in whole if rank != top_rank)
        parts = {rank: [groups.signature(rank, rest) for _, rest in self.choices] for rank in ranks}
        self.ranks = sorted(ranks, key=lambda rank: (-len(set(parts[rank])), rank))
        every = [*self.ranks, top_rank]
        #: Per depth (the top card's rank last), each signature of its rank: a multiset leaving it (its place).
        self.example: list[dict[tuple[int, ...], int]] = [{} for _ in every]
        self.starts: list[tuple[Node, int, Rest]] = []
        first: dict[Node, Grouped] = {}
        for place, ((chosen, rest), hand) in enumerate(zip(self.choices, self.hands, strict=True)):
            node = tuple(groups.signature(rank, rest) for rank in every)
            for depth, part in enumerate(node):
                self.example[depth].setdefault(part, place)
            wilds, start = self._start(chosen, hand, every)
            self.starts.append((node, wilds, start))
            wild_ways = first.setdefault(node, {}).setdefault(start, {})
            wild_ways[wilds] = wild_ways.get(wilds, 0) + 1
        self.layers = [first]
        self._chosen: dict[tuple[int, tuple[int, ...], Naturals], tuple[GroupedSums, int] | None] = {}
        for depth in range(len(self.ranks)):
            after: dict[Node, Grouped] = {}
            for node, states in self.layers[-1].items():
                found = self._choices(depth, node[0])
                assert found is not None  # no natural card taken
                self._combine(states, *found, False, after.setdefault(node[1:], {}))
            self.layers.append(after)
        self._after_top: dict[tuple[tuple[int, ...], Naturals], Grouped] = {}

    def _start(self, chosen: Sequence[MeldGroup], hand: HandCards, ranks: Sequence[int]) -> tuple[int, Rest]:
        """The wild cards used by the takes that lay exactly the sequences ``chosen`` (which leave ``hand``), and
        the rest of their state before any rank of ``ranks`` adds its groups or its natural cards left: what they
        leave in hand so far is what the pile adds and the cards of no rank counted, wild cards apart."""
        counter = self.counter
        place_sum = counter.groups.sum_of(chosen)
        wilds, _, points, tally, composition, staying, leaving, groups, used = place_sum
        left = (
            counter.hand_size
            - used
            - sum(hand.count(rank) for rank in ranks)
            - counter.wilds.held_count
            + counter.wilds.count(wilds)
        )
        return wilds, (
            capped(left, counter.left_cap),
            capped(points, counter.points_cap),
            tally,
            composition,
            staying,
            leaving,
            min(groups, counter.groups_cap),
            0,
            0,
            bool(chosen),
        )

    def _choices(self, depth: int, part: tuple[int, ...], taken: Naturals = ()) -> tuple[GroupedSums, int] | None:
        """The choices of groups of the rank of ``depth`` (the top card's rank past the last of ``ranks``) where the
        sequences leave ``part`` of its cards and a base takes the natural cards ``taken``, grouped, and the
        natural cards of it left; None where the cards left cannot pay for ``taken``. Kept by all three."""
        key = (depth, part, taken)
        if key in self._chosen:
            return self._chosen[key]
        counter = self.counter
        place = self.example[depth][part]
        rest = list(self.choices[place][1])
        found: tuple[GroupedSums, int] | None = None
        for card in taken:
            rest[card] -= 1
        if all(rest[card] >= 0 for card in taken):
            hand = self.hands[place] if not taken else HandCards(counter.rules, tuple(rest))
            rank = self.ranks[depth] if depth < len(self.ranks) else counter.top_rank
            shapes: list[Shape] = counter.shapes.of(hand).get(rank, [])
            grouped: GroupedSums = {}
            if shapes:
                for summed, ways in counter.groups.sums_of(rank, hand, shapes, rest).items():
                    grouped.setdefault(_sum_rest(summed), {})[summed[0]] = ways
            found = grouped, hand.count(rank)
        self._chosen[key] = found
        return found

    def _combine(self, states: Grouped, choices: GroupedSums, naturals: int, top: bool, out: Grouped) -> None:
        """Add to ``out`` the states once one rank's choices of groups are added to each, or none, which leaves
        the rank's ``naturals``, where the wild cards held pay for them; ``top``: the top card's rank."""
        held, guards = self.counter.wilds.held, self.counter.wilds.guards
        for rest, wild_ways in states.items():
            into = out.setdefault(self._added(rest, None, naturals, top), {})
            for wilds, ways in wild_ways.items():
                into[wilds] = into.get(wilds, 0) + ways
            for choice, choice_wilds in choices.items():
                into = out.setdefault(self._added(rest, choice, naturals, top), {})
                for wilds, ways in wild_ways.items():
                    for more_wilds, more in choice_wilds.items():
                        added = wilds + more_wilds
                        if (held - added) & guards == guards:
                            into[added] = into.get(added, 0) + ways * more

    def _added(self, rest: Rest, choice: SumRest | None, naturals: int, top: bool) -> Rest:
        """``rest`` with a rank's ``choice`` of groups, its wild cards apart (None: no group, which leaves the
        rank's ``naturals``), as ``TakeCounter._added`` adds them."""
        counter = self.counter
        left, points, tally, composition, staying, leaving, groups, of_top, repeated, sequence = rest
        if choice is None:
            return (capped(left + naturals, counter.left_cap), *rest[1:])
        unused, p, t, c, s, lv, k, _ = choice
        return (
            capped(left + unused, counter.left_cap),
            capped(points + p, counter.points_cap),
            tally + t,
            composition | c,
            staying and s,
            leaving and lv,
            min(groups + k, counter.groups_cap),
            min(of_top + k, counter.top_cap) if top else of_top,
            min(repeated + k - 1, counter.repeated_cap),
            sequence,
        )

    # ------------------------------------------------------------------ one base

    def count(self, base: tuple[Card, ...]) -> int:
        """The legal takes of ``base``: the last layer's states with the top card's rank's groups, each judged."""
        judge = _Judge(self.counter, base)
        taken = self.naturals_of(base)
        total = 0
        for node in self.layers[-1]:
            for rest, wild_ways in self._after_top_of(node, taken).items():
                total += judge.legal_ways(rest, wild_ways)
        return total

    def _after_top_of(self, node: Node, taken: Naturals) -> Grouped:
        """The states of ``node`` of the last layer once the top card's rank's groups are added, where a base takes
        the natural cards ``taken`` of that rank (none where the cards cannot pay for them); kept by both."""
        key = (node[0], taken)
        after = self._after_top.get(key)
        if after is None:
            after = self._after_top[key] = {}
            choices = self._choices(len(self.ranks), node[0], taken)
            if choices is not None:
                self._combine(self.layers[-1][node], *choices, True, after)
        return after

    def ways_by_place(self, base: tuple[Card, ...]) -> list[int]:
        """The legal takes of ``base`` with each multiset of sequences, in their order: each state's legal takes
        below it, found from the last state back to the first layer (each state after the top card's rank judged
        once), read at each multiset's start."""
        judge = _Judge(self.counter, base)
        taken = self.naturals_of(base)
        below: dict[Node, Grouped] = {}
        for node, states in self.layers[-1].items():
            legal: Grouped = {}
            for rest, wild_ways in self._after_top_of(node, taken).items():
                legal[rest] = {used: 1 for used in wild_ways if judge.legal(rest, used)}
            choices = self._choices(len(self.ranks), node[0], taken)
            into = below[node] = {}
            if choices is not None:
                self._back(states, *choices, True, legal, into)
        for depth in range(len(self.ranks) - 1, -1, -1):
            later, below = below, {}
            for node, states in self.layers[depth].items():
                found = self._choices(depth, node[0])
                assert found is not None  # no natural card taken
                into = below[node] = {}
                self._back(states, *found, False, later[node[1:]], into)
        return [below[node][start].get(wilds, 0) for node, wilds, start in self.starts]

    def _back(
        self, states: Grouped, choices: GroupedSums, naturals: int, top: bool, later: Grouped, out: Grouped
    ) -> None:
        """For each of ``states``, into ``out``, the legal takes below it: those below (``later``) each state one
        rank's choice of groups, or none, leads to. A choice the wild cards held cannot pay for leads to no state
        of ``later``, which holds only states they pay for."""
        for rest, wild_ways in states.items():
            into = out[rest] = {}
            ahead = [(later.get(self._added(rest, None, naturals, top)), _NO_WILDS)]
            ahead += [(later.get(self._added(rest, choice, naturals, top)), wilds) for choice, wilds in choices.items()]
            reached = [(known, choice_wilds) for known, choice_wilds in ahead if known]
            for wilds in wild_ways:
                total = 0
                for known, choice_wilds in reached:
                    for more_wilds, more in choice_wilds.items():
                        total += more * known.get(wilds + more_wilds, 0)
                into[wilds] = total

    def naturals_of(self, base: tuple[Card, ...]) -> Naturals:
        """The natural cards of ``base``: what it takes of the top card's rank."""
        is_wild = self.counter.rules.is_wild
        return tuple(card for card in base if not is_wild[card])


class _Judge:
    """The verdicts on the takes of one base after every rank (``TakeCounter.judged``), each state's rest joined
    with the base's meld once, and each judged once for the cards it leaves (the wild cards used count only
    there)."""

    def __init__(self, counter: TakeCounter, base: tuple[Card, ...]) -> None:
        self.counter = counter
        self.base = base
        self.base_sum = counter._base_sum(base)
        self._joined: dict[Rest, tuple[int, Judged] | None] = {}
        self._verdicts: dict[tuple[Rest, int], bool] = {}

    def legal_ways(self, rest: Rest, wild_ways: dict[int, int]) -> int:
        """The ways of ``wild_ways`` (by wild cards used) whose take, of the state ``rest``, is legal."""
        return sum(ways for used, ways in wild_ways.items() if self.legal(rest, used))

    def legal(self, rest: Rest, used: int) -> bool:
        """Whether the take of state ``rest`` using the wild cards ``used`` (packed), with the base, is legal."""
        counter = self.counter
        if rest in self._joined:
            joined = self._joined[rest]
        else:
            joined = self._joined[rest] = self._join(rest)
        if joined is None:
            return False
        used += self.base_sum[0]
        wilds = counter.wilds
        if (wilds.held - used) & wilds.guards != wilds.guards:
            return False
        left, sums = joined
        hand_after = capped(left + wilds.held_count - counter.wild_count(used), counter.left_cap)
        key = (rest, hand_after)
        known = self._verdicts.get(key)
        if known is None:
            known = self._verdicts[key] = counter.judged(self.base, hand_after, sums)
        return known

    def _join(self, rest: Rest) -> tuple[int, Judged] | None:
        """The cards left and what the verdict reads of the take of state ``rest`` with the base's meld
        (``TakeCounter._with_base``); None where the walk lists no such take (no sequence, no group of the top
        card's rank, no rank repeated)."""
        counter = self.counter
        left, points, tally, composition, staying, leaving, groups, of_top, repeated, sequence = rest
        if not (sequence or (counter.repeats and (of_top > 0 or repeated > 0))):
            return None
        _, _, p, t, c, s, lv, _, _ = self.base_sum
        sums: Judged = (
            capped(points + p, counter.points_cap),
            tally + t,
            composition | c,
            staying and s,
            leaving and lv,
            groups,
            of_top,
            repeated,
        )
        return left, sums


#: The wild cards of no choice of groups: none used, one way.
_NO_WILDS: Final = {0: 1}


def _sum_rest(summed: Sum) -> SumRest:
    """A sum without its wild cards used."""
    _, unused, points, tally, composition, staying, leaving, groups, used = summed
    return unused, points, tally, composition, staying, leaving, groups, used
