"""Multi-meld actions as a structure: counted, indexed and sampled without listing them.

A side that has not opened lays its whole opening in one action, so its legal openings are every choice of at
most one valid shape per rank that the hand's wild cards pay for and that the spec accepts as a whole: a number
that grows exponentially with the ranks held (over 175,000 actions for a 30-card hand). ``Combinations`` keeps
them as the per-rank options and counts the legal choices by dynamic programming over the ranks. The state after
each rank holds only what the verdict on the whole opening reads, each capped where the verdict stops changing:
the groups laid, the cards left in hand, the points, the wild cards used (the twos by the sizes of the groups
that use them, which is what the number of ways to pick them depends on), the canastas made by kind, and whether
every group is valid kept and going out. A state is packed into one int (``_Layout``), so that a step is a few
operations on it and a memo key hashes as an int. From the counts below every state, the ``n``-th action (in the
order the plain enumeration gives) is found by descending the ranks, and iterating costs what it yields.

Taking the pile before opening adds the take's own group, chosen among many (every choice of natural and wild
cards that melds the top card), each a start state of its own. ``count_from`` counts them all from one forward
pass over the whole hand: the states after the last rank do not depend on the start, so each start costs a pass
over those end states, not a recursion (the ends that differ only in their points judged once for all of them);
only the take a caller indexes gets a recursion from its own start. Where the states differ mostly by their points
(a big hand of Modern American's), the forward pass carries them without their points, a vector of ways by points
each, as the counting carries them backwards (issue 40).

Design notes (issue 15): the alternative, an opening built in steps within the turn, would have changed what an
action is, and so the perft counts, the protocol and every engine's notion of a legal move; a structure over the
same actions keeps all of them and makes ``count``, ``in`` and a uniform sample cheap.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from math import gcd
from typing import Final, NamedTuple

from .actions import Action, MeldGroup
from .cards import JOKER, JOKER_RANK, Card
from .movegen import HandCards, Shape, expand_shapes, submultisets, without
from .rules import remember

#: When the forward pass turns to points vectors (``Combinations._forward_by_points``): after the first rank whose
#: states are at least ``[0]`` times as many as they are without their points, and at least ``[1]``. A list, so
#: that tests can move it.
VECTORS_FROM: Final = [3, 256]

#: The twos still to pick from: (card, copies) pairs, in card order.
Pool = tuple[tuple[Card, int], ...]


class Option(NamedTuple):
    """One valid shape of a rank: its counts, the ways to pick its natural cards, its natural cards' points, the
    kind of canasta it is alone (``checks.canasta_kind``, or -1), whether it newly makes a canasta, whether its
    meld is valid kept and going out, and what it adds to the side's melds to complete before going out (in
    ``checks.Tally`` units; 0 where the spec counts none)."""

    naturals: int
    twos: int
    jokers: int
    ways: int
    points: int
    kind: int
    new_canasta: bool
    staying: bool
    leaving: bool
    unfinished: int
    composition: int  # what its meld is made of (``checks.composition_of``; 0 where no clause asks)


class Aggregate(NamedTuple):
    """What the verdict on a whole choice reads (each capped as ``Caps`` says)."""

    groups: int
    left: int  # cards left in hand: unchosen naturals and wild cards, and the cards no option uses
    points: int  # the natural cards' points; the caller adds the wild cards'
    twos: tuple[int, ...]  # the sizes, in descending order, of the twos each chosen group takes
    jokers: int
    kinds: tuple[int, int, int]  # canastas made, by kind
    made: int  # groups that newly make a canasta
    staying: bool  # every group valid when the player keeps cards
    leaving: bool  # every group valid when the player goes out
    tag: tuple[int, ...] = ()  # what the start state says for the verdict (a take's cards from hand, by count)
    unfinished: int = 0  # the options' sum of ``Option.unfinished``
    composition: int = 0  # the options' ``Option.composition`` bits, together


class Caps(NamedTuple):
    """Where the verdict stops changing: above these, states are merged (None: never capped)."""

    groups: int | None
    left: int | None
    points: int | None


#: The verdict on a finished choice. It reads the twos only by their total (``sum(agg.twos)``): how the twos split
#: between the groups decides how many ways there are to pick them, never whether the choice is legal, so states
#: that differ only in that split share one verdict (``Combinations._accepts``, ``count_from``).
Verdict = Callable[[Aggregate], bool]

#: The verdict on a finished choice for each of several points values at once (its own points unread): the
#: counting by points vectors (``_PointsVectors``) asks every slot of a state, and most of a verdict does not
#: depend on the points, so it is judged once for them all. Answers in the order of the points given.
PointsVerdict = Callable[[Aggregate, Sequence[int]], list[bool]]


#: An end state with its points 0, and the points it is reached with (ascending), the ways for each, and the ways
#: from each of them to the last summed (``Combinations._ends_by_points``).
EndByPoints = tuple[Aggregate, tuple[int, ...], tuple[int, ...], tuple[int, ...]]

#: End states that differ only in their points (``Combinations._grouped_ends``): the end with its points 0, and per
#: points value the sizes of each end's groups of twos with its ways to pick the natural cards.
EndGroup = tuple[Aggregate, list[tuple[int, list[tuple[tuple[int, ...], int]]]]]


#: End states that differ only in their points, from the forward pass by points vectors (``Combinations._end_vectors``):
#: the end with its points 0, and the sizes of each end's groups of twos with its vector of ways by points.
EndVectors = tuple[Aggregate, list[tuple[tuple[int, ...], int]]]


class Combinations:
    """The legal choices of at most one option per rank (in ``ranks`` order), as concrete actions made by
    ``build``. Ordered as the plain enumeration orders them: by the choice at each rank (none first, then the
    options in order), and within one choice by its cards. The counting's states are ints packed by a
    ``_Layout``; the verdict reads them as ``Aggregate``s."""

    def __init__(
        self,
        hand: HandCards,
        ranks: Sequence[int],
        options: Sequence[Sequence[Option]],
        *,
        left: int,
        caps: Caps,
        verdict: Verdict,
        build: Callable[[tuple[MeldGroup, ...]], Action],
        layout: _Layout | None = None,
        start: Aggregate | None = None,
        points_verdict: PointsVerdict | None = None,
    ) -> None:
        self._hand = hand
        self._ranks = tuple(ranks)
        self._options = tuple(tuple(o) for o in options)
        self._caps = caps
        self._verdict = verdict
        self._points_verdict = points_verdict
        self._build = build
        self._twos_total = hand.twos_total
        self._verdicts: dict[int, bool] = {}
        self._below: list[dict[int, int]] = [{} for _ in range(len(self._ranks) + 1)]
        self._reachable: list[dict[int, bool]] = [{} for _ in range(len(self._ranks) + 1)]
        self._ways: dict[tuple[Pool, tuple[int, ...]], int] = {}
        if start is None:
            start = _new_tuple(Aggregate, (0, capped(left, caps.left), 0, (), 0, (0, 0, 0), 0, True, True, (), 0, 0))
        # A twin (``started``) passes its core's layout and its own start.
        self._layout = _Layout(hand, self._ranks, self._options, caps) if layout is None else layout
        self._start_code = self._layout.encode(start)
        self._count: int | None = None
        self._end_groups: list[EndGroup] | None = None  # _grouped_ends
        self._end_vector_groups: list[EndVectors] | None = None  # _end_vectors
        self._ends_by_pool: dict[Pool, dict[Aggregate, int]] = {}
        self._ends_by_pool_points: dict[Pool, list[EndByPoints]] = {}
        #: Per finished take state with its points 0 (``count_from``): the verdict by points total.
        self._joined_verdicts: dict[Aggregate, dict[int, bool]] = {}
        self._by_points = _points_vectors(self._layout, self._options, hand) if layout is None else None

    def started(self, start: Aggregate, build: Callable[[tuple[MeldGroup, ...]], Action]) -> Combinations:
        """The same options from another start state (its ``left`` and ``points`` capped here), made into actions
        by ``build``, sharing every count and verdict: takes whose cards from hand use the same wild cards differ
        only in what they add to the start, and their states meet once points reach the cap."""
        caps = self._caps
        twin = Combinations(
            self._hand,
            (),
            (),
            left=0,
            caps=caps,
            verdict=self._verdict,
            build=build,
            layout=self._layout,
            start=_capped_start(start, caps),
            points_verdict=self._points_verdict,
        )
        twin._ranks, twin._options = self._ranks, self._options
        twin._below, twin._verdicts, twin._ways = self._below, self._verdicts, self._ways
        twin._reachable, twin._by_points = self._reachable, self._by_points
        return twin

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks the options are of, in order."""
        return self._ranks

    # -- counting ---------------------------------------------------------------------------------------
    def count(self) -> int:
        """How many actions the structure holds (exact; may pass ``sys.maxsize``, which ``len`` cannot)."""
        if self._count is None:
            self._count = self._completions_of(0, self._start_code)
        return self._count

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        if self._count is not None:
            return self._count > 0
        return self._completes(0, self._start_code)

    def _completes(self, index: int, code: int) -> bool:
        """Whether the state ``code`` at rank ``index`` has a legal completion: ``_completions`` asked only whether
        it is above 0, which stops at the first legal choice found. Iterating and the first page of a listing need
        no more, and in a big hand finding one choice below a state costs a few steps where counting them all
        costs the whole structure."""
        counted = self._below[index].get(code)
        if counted is not None:
            return counted > 0
        memo = self._reachable[index]
        known = memo.get(code)
        if known is not None:
            return known
        if index == len(self._ranks):
            found = self._accepts(code)  # a state reached within the wild cards held picks its twos some way
        else:
            found = False
            twos_left, jokers_left = self._wilds_left(code)
            moves = self._layout.merged_moves(index, code)
            for at in range(0, len(moves), 5):
                fits = moves[at + 2] <= twos_left and moves[at + 3] <= jokers_left
                if fits and self._completes(index + 1, (code + moves[at]) | moves[at + 1]):
                    found = True
                    break
        memo[code] = found
        return found

    def _completions(self, index: int, code: int) -> int:
        """The concrete actions below the state ``code`` at rank ``index``: legal completions weighted by their
        cards."""
        memo = self._below[index]
        known = memo.get(code)
        if known is not None:
            return known
        if index == len(self._ranks):
            total = self._twos_ways(self._hand.twos, self._layout.twos_of(code)) if self._accepts(code) else 0
        else:
            total = 0
            twos_left, jokers_left = self._wilds_left(code)
            moves = self._layout.merged_moves(index, code)
            for at in range(0, len(moves), 5):
                if moves[at + 2] <= twos_left and moves[at + 3] <= jokers_left:
                    below = self._completions(index + 1, (code + moves[at]) | moves[at + 1])
                    if below:
                        total += moves[at + 4] * below
        memo[code] = total
        return total

    def _completions_of(self, index: int, code: int) -> int:
        """``_completions``, read from the state's points vector (``_points_vector``) where its points fall on a
        slot: a big hand's states differ mostly by their points, and one vector a state without them counts every
        points value at once."""
        vectors = self._by_points
        if vectors is not None:
            slot = vectors.slot_of(code)
            if slot >= 0:
                return vectors.at(self._points_vector(index, code & vectors.clear), slot)
        return self._completions(index, code)

    def _points_vector(self, index: int, code: int) -> int:
        """The completions below the state ``code`` (its points field 0) for every points value, packed by slot
        (``_PointsVectors``): the counting of ``_completions`` with the points taken out of the state."""
        vectors = self._by_points
        assert vectors is not None
        memo = vectors.memo[index]
        known = memo.get(code)
        if known is not None:
            return known
        if index == len(self._ranks):
            total = self._accepted_slots(code)
            if total:
                sizes = code & vectors.sizes_field
                ways = vectors.twos_ways.get(sizes, -1)
                if ways < 0:
                    ways = vectors.twos_ways[sizes] = self._twos_ways(self._hand.twos, self._layout.twos_of(code))
                total = total * ways if ways != 1 else total
        else:
            total = 0
            twos_left, jokers_left = self._wilds_left(code)
            moves = vectors.grouped(index, code)
            slot_mask, width, keep, terms = vectors.slot_mask, vectors.width, vectors.keep, vectors.terms
            following = vectors.memo[index + 1]
            for at in range(0, len(moves), 7):
                if moves[at + 2] <= twos_left and moves[at + 3] <= jokers_left:
                    after = (code + moves[at]) | moves[at + 1]
                    below = following.get(after)  # looked up here: most steps meet a known state, and a call costs
                    if below is None:
                        below = self._points_vector(index + 1, after)
                    if below:
                        total += (below & slot_mask) * moves[at + 5]
                        rise = moves[at + 6]
                        if rise >= 0:  # one rise: a shift of the slots that stay below the cap's, times the ways
                            ways = moves[at + 4]
                            moved = (below & keep[rise]) << rise * width
                            total += moved * ways if ways != 1 else moved
                        else:  # several: a shift and a short product each, not one product of two long ints
                            kernel = terms[moves[at + 4]]
                            for term in range(0, len(kernel), 2):
                                rise = kernel[term]
                                total += ((below & keep[rise]) << rise * width) * kernel[term + 1]
        memo[code] = total
        return total

    def _accepted_slots(self, code: int) -> int:
        """A 1 in each slot whose points the verdict accepts for the finished state ``code`` (points field 0)."""
        vectors = self._by_points
        assert vectors is not None
        key = code & self._layout.verdict_mask
        known = vectors.accepted.get(key)
        if known is None:
            known = 0
            finished = self._finished(self._layout.decode(code))  # decoded once: the slots differ in points alone
            if finished.groups > 0:
                every = vectors.slot_points
                if self._points_verdict is not None:
                    answers = self._points_verdict(finished, every)
                else:
                    answers = [self._verdict(_with_points(finished, points)) for points in every]
                for slot, accepted in enumerate(answers):
                    if accepted:
                        known |= 1 << slot * vectors.width
            vectors.accepted[key] = known
        return known

    def _accepts(self, code: int) -> bool:
        """The verdict on the finished state ``code``, kept for every state with the same fields but the groups
        by the twos they take (see ``Verdict``): a big hand ends in two or three times as many states as there
        are verdicts to give."""
        key = code & self._layout.verdict_mask
        known = self._verdicts.get(key)
        if known is None:
            state = self._layout.decode(code)
            known = self._verdicts[key] = state.groups > 0 and self._verdict(self._finished(state))
        return known

    def _finished(self, state: Aggregate) -> Aggregate:
        """The state with the wild cards left unused counted among the cards left."""
        unused = self._twos_total - sum(state.twos) + self._hand.jokers - state.jokers
        return _with(state, capped(state.left + unused, self._caps.left), state.twos)

    def _steps(self, index: int, code: int) -> list[int]:
        """The choices at rank ``index`` from the state ``code``, in order, as pairs laid flat: the option's place
        among the rank's options (-1 for no group of that rank), then the state after it. Each is one addition
        and one or to the packed state, then the caps: the counting visits thousands of states, a dozen options
        each, and a tuple a pair cost a tenth of the counting."""
        layout = self._layout
        moves = layout.moves[index]
        steps = [-1, layout.capped(code + moves[0])]
        twos_left, jokers_left = self._wilds_left(code)
        for at in range(5, len(moves), 5):
            if moves[at + 2] <= twos_left and moves[at + 3] <= jokers_left:
                steps.append(at // 5 - 1)
                steps.append(layout.capped((code + moves[at]) | moves[at + 1]))
        return steps

    def _wilds_left(self, code: int) -> tuple[int, int]:
        """The twos and the jokers the hand still holds in the state ``code``: what the next option may take."""
        layout = self._layout
        twos_used = code >> layout.twos_used_shift & layout.twos_used_mask
        return self._twos_total - twos_used, self._hand.jokers - (code >> layout.jokers_shift & layout.jokers_mask)

    def _twos_ways(self, pool: Pool, sizes: Sequence[int]) -> int:
        """How many ways the groups of ``sizes`` can each take their twos from ``pool``, one after another."""
        if not sizes:
            return 1
        key = (pool, tuple(sizes))
        known = self._ways.get(key)
        if known is None:
            known = sum(self._twos_ways(without(pool, picked), sizes[1:]) for picked in submultisets(pool, sizes[0]))
            self._ways[key] = known
        return known

    # -- counting from many starts at once ------------------------------------------------------------
    def count_from(self, start: Aggregate, pool: Pool, jokers: int) -> int:
        """How many choices complete ``start`` for a hand that holds only the twos ``pool`` and ``jokers`` of this
        structure's wild cards (a take's cards from hand used the others), as ``started`` would count them: one
        pass over the end states (``_ends_by_points``) instead of a recursion per start, each as dear as the whole
        count; an end's points values share one verdict (``_joined_accepted``), and those that reach the points cap
        from ``start`` (in a big hand, most) are one total with their ways summed.
        The structure's start must be empty (no cards left, no points), its caps must hold for every start, and its
        verdict must read the twos' total alone (as the take verdict does)."""
        caps = self._caps
        cap = caps.points
        unused_twos = sum(n for _, n in pool)
        total = 0
        for end, points, ways, tails in self._ends_by_points(pool):
            if end.jokers > jokers:
                continue
            unused = unused_twos - sum(end.twos) + jokers - end.jokers
            joined = _joined(start, end, caps, unused)
            if joined.groups == 0:
                continue
            below = len(points) if cap is None else bisect_left(points, cap - start.points)
            totals = [start.points + p for p in points[:below]]
            if cap is not None and below < len(points):
                totals.append(cap)
            accepted = self._joined_accepted(joined, totals)
            for at in range(below):
                if accepted[totals[at]]:
                    total += ways[at]
            if cap is not None and below < len(points) and accepted[cap]:
                total += tails[below]
        return total

    def _joined_accepted(self, joined: Aggregate, totals: list[int]) -> dict[int, bool]:
        """The verdict on the finished state ``joined`` (its points unread) for every points total it is asked for,
        kept by the state: the points verdict judges all the totals missing from it at once."""
        known = self._joined_verdicts.get(joined)
        if known is None:
            known = self._joined_verdicts[joined] = {}
        missing = [points for points in totals if points not in known]  # ascending, as ``count_from`` gives them
        if missing:
            if self._points_verdict is not None:
                answers = self._points_verdict(joined, missing)
            else:
                answers = [self._verdict(_with_points(joined, points)) for points in missing]
            for points, accepted in zip(missing, answers, strict=True):
                known[points] = accepted
        return known

    def _ends_by_points(self, pool: Pool) -> list[EndByPoints]:
        """The end states with their ways for a hand whose twos are ``pool`` (as ``_ends_for``), those that differ
        only in their points made one (``EndByPoints``): a take's verdict is then judged once per such end for all
        its points values, and the points a start lifts to the cap are summed by one look-up."""
        known = self._ends_by_pool_points.get(pool)
        if known is None and self._forward_vectors():
            known = self._ends_by_pool_points[pool] = self._ends_by_vectors(pool)
        if known is None:
            by_end: dict[Aggregate, list[tuple[int, int]]] = {}
            for end, by_points in self._grouped_ends():
                pairs: list[tuple[int, int]] = []
                for points, members in by_points:
                    ways = self._members_ways(pool, members)
                    if ways:
                        pairs.append((points, ways))
                if pairs:
                    by_end.setdefault(end, []).extend(pairs)
            known = self._ends_by_pool_points[pool] = [_end_by_points(end, pairs) for end, pairs in by_end.items()]
        return known

    def _forward_vectors(self) -> bool:
        """Whether the end states come from the forward pass by points vectors (``_forward_by_points``): where the
        structure has vectors and its start's points fall on their step."""
        vectors = self._by_points
        return vectors is not None and vectors.slot_of(self._start_code) >= 0

    def _ends_by_vectors(self, pool: Pool) -> list[EndByPoints]:
        """``_ends_by_points`` from the end vectors (``_end_vectors``): each end's ways by points for the twos
        ``pool`` are its members' vectors, each times its ways to pick the twos, summed, then read slot by slot."""
        vectors = self._by_points
        assert vectors is not None
        by_end: dict[Aggregate, int] = {}
        for end, members in self._end_vectors():
            summed = 0
            for sizes, vector in members:
                ways = self._twos_ways(pool, sizes)
                if ways:
                    summed += vector * ways if ways != 1 else vector
            if summed:
                by_end[end] = by_end.get(end, 0) + summed
        width, mask, top, slot_points = vectors.width, vectors.slot_mask, vectors.top, vectors.slot_points
        ends: list[EndByPoints] = []
        for end, summed in by_end.items():
            pairs: list[tuple[int, int]] = []
            slot = 0
            while summed:  # slot ``k`` holds ``min(k * step, cap)`` points: ascending
                ways = summed & mask
                if ways:
                    pairs.append((slot_points[top - slot], ways))
                summed >>= width
                slot += 1
            ends.append(_end_by_points(end, pairs))
        return ends

    def _end_vectors(self) -> list[EndVectors]:
        """The end states of the forward pass by points (``_forward_by_points``) grouped as ``_grouped_ends``
        groups them, under one verdict's worth each, its points 0, each with the sizes of its ends' groups of twos
        and their vectors of ways by points: a vector a member, not a member by points value."""
        if self._end_vector_groups is not None:
            return self._end_vector_groups
        layout = self._layout
        sizes_field = ~layout.verdict_mask  # the groups by the twos they take
        groups: dict[int, dict[int, int]] = {}
        for code, vector in self._forward_by_points().items():
            key = code & layout.verdict_mask
            members = groups.get(key)
            if members is None:
                members = groups[key] = {}
            sizes = code & sizes_field
            members[sizes] = members.get(sizes, 0) + vector
        twos: dict[int, tuple[int, ...]] = {}
        grouped: list[EndVectors] = []
        for key, members in groups.items():
            state = layout.decode(key)  # the points field 0: 0 points (a structure with vectors has no negative)
            total = key >> layout.twos_used_shift & layout.twos_used_mask
            end = _with(state, state.left, (total,) if total else ())
            sized: list[tuple[tuple[int, ...], int]] = []
            for sizes, vector in members.items():
                if sizes not in twos:
                    twos[sizes] = layout.twos_of(sizes)
                sized.append((twos[sizes], vector))
            grouped.append((end, sized))
        self._end_vector_groups = grouped
        return grouped

    def _ends_for(self, pool: Pool) -> dict[Aggregate, int]:
        """The end states with their ways for a hand whose twos are ``pool``: the ways to pick the natural cards
        times the ways to pick the twos, the twos then kept as their total alone (all the verdict reads), which
        merges end states that differ only in how the twos split between groups."""
        known = self._ends_by_pool.get(pool)
        if known is not None:
            return known
        merged: dict[Aggregate, int] = {}
        for end, by_points in self._grouped_ends():
            for points, members in by_points:
                ways = self._members_ways(pool, members)
                if ways:
                    merged[_with_points(end, points)] = ways
        self._ends_by_pool[pool] = merged
        return merged

    def _members_ways(self, pool: Pool, members: list[tuple[tuple[int, ...], int]]) -> int:
        """The ways of the end states ``members`` (the sizes of their groups of twos, their ways to pick the natural
        cards) for a hand whose twos are ``pool``."""
        ways = 0
        for sizes, reached in members:
            ways += reached * self._twos_ways(pool, sizes)
        return ways

    def _grouped_ends(self) -> list[EndGroup]:
        """The end states of ``_forward`` grouped under one verdict's worth each (their fields but the groups by the
        twos they take, ``Verdict``; the twos as their total), each group as the sizes of its ends' groups of twos
        with their ways; and the groups that differ only in their points together under one end with its points 0
        (``EndGroup``), decoded once, the ends of one group with the same sizes of twos summed: what
        ``_ends_by_points`` weighs anew for every pool, worked out once."""
        if self._end_groups is not None:
            return self._end_groups
        layout = self._layout
        points_field = layout.points_mask << layout.points_shift
        sizes_field = ~layout.verdict_mask  # the groups by the twos they take
        groups: dict[int, dict[int, dict[int, int]]] = {}
        for code, reached in self._forward().items():
            key = code & layout.verdict_mask
            by_points = groups.get(key & ~points_field)
            if by_points is None:
                by_points = groups[key & ~points_field] = {}
            packed = key >> layout.points_shift & layout.points_mask
            members = by_points.get(packed)
            if members is None:
                members = by_points[packed] = {}
            sizes = code & sizes_field
            members[sizes] = members.get(sizes, 0) + reached
        twos: dict[int, tuple[int, ...]] = {}
        grouped: list[EndGroup] = []
        for pointless, by_points in groups.items():
            state = layout.decode(pointless)  # the points field 0: its points are what a packed 0 stands for
            total = pointless >> layout.twos_used_shift & layout.twos_used_mask
            end = _with_points(_with(state, state.left, (total,) if total else ()), 0)
            flat: list[tuple[int, list[tuple[tuple[int, ...], int]]]] = []
            for packed, members in by_points.items():
                sized = []
                for sizes, reached in members.items():
                    if sizes not in twos:
                        twos[sizes] = layout.twos_of(sizes)
                    sized.append((twos[sizes], reached))
                flat.append((state.points + packed, sized))
            grouped.append((end, flat))
        self._end_groups = grouped
        return grouped

    def _forward_by_points(self) -> dict[int, int]:
        """The states after the last rank as ``_forward`` reaches them, those that differ only in their points made
        one (its points field 0), each with a vector of its ways by points (``_PointsVectors.forward``). The pass
        runs state by state while the states differ little in their points, and by vectors from the first rank
        after which they are ``VECTORS_FROM`` times as many as without their points: there one product moves all
        of a state's points values at once (a big hand of Modern American's, four to eight states to one), where
        a vector step costs two or three plain ones (Classic's, at most two to one, stays plain)."""
        vectors = self._by_points
        assert vectors is not None
        clear = vectors.clear
        layer: dict[int, int] = {self._start_code: 1}
        index = 0
        while index < len(self._ranks):
            layer = self._forward_step(index, layer)
            index += 1
            if len(layer) >= VECTORS_FROM[1] and len(layer) >= VECTORS_FROM[0] * len({c & clear for c in layer}):
                break
        by_points = vectors.by_points(layer)
        width, terms = vectors.width, vectors.terms
        for rank in range(index, len(self._ranks)):
            following: dict[int, int] = {}
            for code, vector in by_points.items():
                twos_left, jokers_left = self._wilds_left(code)
                moves = vectors.grouped(rank, code)
                for at in range(0, len(moves), 7):
                    if moves[at + 2] <= twos_left and moves[at + 3] <= jokers_left:
                        after = (code + moves[at]) | moves[at + 1]
                        rise = moves[at + 6]
                        if rise >= 0:  # one rise: a shift, then a product by the ways alone
                            ways = moves[at + 4]
                            moved = vector << rise * width if rise else vector
                            if ways != 1:
                                moved *= ways
                        else:
                            moved = 0
                            kernel = terms[moves[at + 4]]
                            for term in range(0, len(kernel), 2):
                                moved += (vector << kernel[term] * width) * kernel[term + 1]
                        following[after] = following.get(after, 0) + moved
            by_points = {code: vectors.forward(vector) for code, vector in following.items()}
        return by_points

    def _forward(self) -> dict[int, int]:
        """Every state after the last rank, from the start, with its ways to pick the natural cards: the counting
        recursion run forwards, so that the states do not depend on where a caller starts."""
        layer: dict[int, int] = {self._start_code: 1}
        for index in range(len(self._ranks)):
            layer = self._forward_step(index, layer)
        return layer

    def _forward_step(self, index: int, layer: dict[int, int]) -> dict[int, int]:
        """The states after rank ``index`` with their ways, from those before it (``layer``)."""
        layout = self._layout
        following: dict[int, int] = {}
        for code, reached in layer.items():
            twos_left, jokers_left = self._wilds_left(code)
            moves = layout.merged_moves(index, code)
            for at in range(0, len(moves), 5):
                if moves[at + 2] <= twos_left and moves[at + 3] <= jokers_left:
                    after = (code + moves[at]) | moves[at + 1]
                    following[after] = following.get(after, 0) + reached * moves[at + 4]
        return following

    # -- indexing and iterating -------------------------------------------------------------------------
    def __getitem__(self, index: int) -> Action:
        total = self.count()
        if index < 0:
            index += total
        if not 0 <= index < total:
            raise IndexError("legal action index out of range")
        code = self._start_code
        weight = 1
        chosen: list[Shape] = []
        for position in range(len(self._ranks)):
            moves = self._layout.moves[position]
            steps = self._steps(position, code)
            for at in range(0, len(steps), 2):
                option, after = steps[at], steps[at + 1]
                ways = moves[5 * (option + 1) + 4]  # its move's ways: move 0 is no group (ways 1), then the options
                below = weight * ways * self._completions_of(position + 1, after)
                if index < below:
                    code = after
                    weight *= ways
                    if option >= 0:
                        chosen.append(_shape(self._ranks[position], self._options[position][option]))
                    break
                index -= below
        return self._build(self._expansion(chosen, index))

    def _expansion(self, shapes: Sequence[Shape], index: int) -> tuple[MeldGroup, ...]:
        """The ``index``-th concrete groups of ``shapes``, in ``movegen.expand_shapes`` order."""
        hand = self._hand
        pool = hand.twos
        groups: list[MeldGroup] = []
        for position, shape in enumerate(shapes):
            rest = shapes[position + 1 :]
            tail_ways = 1
            for later in rest:
                tail_ways *= len(submultisets(hand.naturals[later.rank], later.naturals))
            sizes = sorted((s.twos for s in rest if s.twos), reverse=True)
            mine = sorted([shape.twos, *sizes], reverse=True) if shape.twos else sizes
            block = self._twos_ways(pool, mine) * tail_ways
            naturals = submultisets(hand.naturals[shape.rank], shape.naturals)
            natural = naturals[index // block]
            index %= block
            wild: tuple[Card, ...] = ()
            if shape.twos:
                for picked in submultisets(pool, shape.twos):
                    after = without(pool, picked)
                    below = self._twos_ways(after, sizes) * tail_ways
                    if index < below:
                        wild = picked
                        pool = after
                        break
                    index -= below
            label = shape.rank if shape.naturals == 0 and shape.rank != JOKER_RANK else None
            groups.append(MeldGroup(natural + wild + (JOKER,) * shape.jokers, label))
        return tuple(groups)

    def __iter__(self) -> Iterator[Action]:
        """The actions in order, each choice of shapes followed only where it has a legal completion
        (``_completes``): the first page costs what finding its actions costs, not the count."""
        if not self:
            return
        for shapes in self._choices(0, self._start_code, []):
            for groups in expand_shapes(self._hand, shapes):
                yield self._build(groups)

    def _choices(self, index: int, code: int, chosen: list[Shape]) -> Iterator[list[Shape]]:
        if index == len(self._ranks):
            yield list(chosen)
            return
        steps = self._steps(index, code)
        for at in range(0, len(steps), 2):
            option, after = steps[at], steps[at + 1]
            if self._completes(index + 1, after):
                if option >= 0:
                    chosen.append(_shape(self._ranks[index], self._options[index][option]))
                yield from self._choices(index + 1, after, chosen)
                if option >= 0:
                    chosen.pop()


class _PointsVectors:
    """The counting's states without their points: one int a state packs the completions for every points value,
    each in a slot of ``width`` bits, slot ``j`` for ``min((top - j) * step, cap)`` points (``step`` the gcd of the
    options' points, ``top`` the slot count less one): the cap in slot 0. A move that adds points then reads the
    slots below by a shift, so that the moves of a rank that differ only in their points make one step, the
    vector times a polynomial of their ways (``grouped``). ``width`` holds the most completions any state can have,
    so no slot carries into the next."""

    def __init__(self, layout: _Layout, options: Sequence[Sequence[Option]], hand: HandCards) -> None:
        self.layout = layout
        cap: int = layout.points_cap
        self.cap = cap
        step = 0
        most: int = 1
        for opts in options:
            most *= 1 + sum(option.ways for option in opts)
            for option in opts:
                step = gcd(step, option.points)
        self.step = step = step or max(cap, 1)
        most *= pow(len(options) + 1, hand.twos_total)  # each two to one group or none: at least its ways to pick
        self.width = width = min(most, _completions_bound(options, hand)).bit_length() + 1
        self.top = top = -(-cap // step)  # the slot count less one
        self.slot_points = [min((top - slot) * step, cap) for slot in range(top + 1)]
        #: Per rise of ``d`` slots (0 to ``top``), ones in the ``d`` lowest slots: where the cap's count is copied.
        self.ones = [sum(1 << slot * width for slot in range(rise)) for rise in range(top + 1)]
        #: Per rise of ``d`` slots, ones in the slots that a shift by ``d`` keeps below the cap's: what a backward
        #: step reads of the vector below, before the shift, so that no long int is made only to be cut.
        self.keep = [(1 << (top + 1 - rise) * width) - 1 for rise in range(top + 1)]
        #: The ways by rise of the moves merged with several rises (``grouped``): rise, ways, rise, ways, ...
        self.terms: list[list[int]] = []
        self.slot_mask = (1 << width) - 1
        self.every_slot = (1 << (top + 1) * width) - 1
        self.points_shift, self.points_mask = layout.points_shift, layout.points_mask
        self.clear = ~(layout.points_mask << layout.points_shift)
        self.memo: list[dict[int, int]] = [{} for _ in range(len(options) + 1)]
        self.accepted: dict[int, int] = {}
        #: A state's groups by the twos they take (``_Layout.verdict_mask`` less), and the ways to pick the hand's
        #: twos for each such field met: every end state asks, and a few fields serve thousands of states.
        self.sizes_field = ~layout.verdict_mask
        self.twos_ways: dict[int, int] = {}
        self._grouped: dict[int, list[int]] = {}

    def slot_of(self, code: int) -> int:
        """The slot of the state ``code``'s points, or -1 where they fall between slots (a start off the step)."""
        points = code >> self.points_shift & self.points_mask
        if points >= self.cap:
            return 0
        return self.top - points // self.step if points % self.step == 0 else -1

    def forward(self, vector: int) -> int:
        """A forward vector (slot ``k`` for ``min(k * step, cap)`` points, the backward slots reversed) moved by
        products that carried counts past the cap's slot: those are added into the cap's slot. Their sum is read
        from one product by ones (a slot each), whose slot ``top - 1`` sums them: no slot of it passes a count."""
        top, width = self.top, self.width
        over = vector >> (top + 1) * width
        if not over:
            return vector
        summed = over * self.ones[top] >> (top - 1) * width & self.slot_mask
        return (vector & self.every_slot) + (summed << top * width)

    def by_points(self, layer: dict[int, int]) -> dict[int, int]:
        """The states ``layer`` (with their ways) as forward vectors: by their states less the points, each state's
        ways in the slot of its points (a state of the forward pass from a start on the step is on it)."""
        top, width, shift, mask = self.top, self.width, self.points_shift, self.points_mask
        vectors: dict[int, int] = {}
        for code, reached in layer.items():
            points = code >> shift & mask
            slot = top if points >= self.cap else points // self.step
            pointless = code & self.clear
            vectors[pointless] = vectors.get(pointless, 0) + (reached << slot * width)
        return vectors

    def at(self, vector: int, slot: int) -> int:
        """The count in ``slot`` of ``vector``."""
        return vector >> slot * self.width & self.slot_mask

    def grouped(self, index: int, code: int) -> list[int]:
        """``_Layout.merged_moves`` at rank ``index`` from ``code`` (its points 0), the moves that lead to one
        state but for the points merged, laid flat in sevens: what they add less the points, what they or in, the
        twos and jokers they take, their ways, the cap's copies (``fill``: the ways times ``ones`` of each rise),
        and their rise in slots; where the merged moves have several rises, -1 for the rise and, for the ways, the
        place in ``terms`` of their ways by rise. The vector seen from before the moves is the vector below shifted
        by each rise (cut to the slots) times its ways, plus the cap's count times ``fill``: a few shifts and short
        products, where one product by a polynomial of the ways multiplies two long ints."""
        layout = self.layout
        key = layout.moves_key(index, code)
        known = self._grouped.get(key)
        if known is None:
            known = self._grouped[key] = self._group(layout.merged_moves(index, code))
        return known

    def _group(self, moves: list[int]) -> list[int]:
        flat: list[int] = []
        places: dict[tuple[int, int], int] = {}
        clear, terms = self.clear, self.terms
        for at in range(0, len(moves), 5):
            added, bits, ways = moves[at], moves[at + 1], moves[at + 4]
            rise = min(-(-(added >> self.points_shift & self.points_mask) // self.step), self.top)
            key = (added & clear, bits)
            place = places.get(key, -1)
            if place < 0:
                places[key] = len(flat)
                flat.extend((added & clear, bits, moves[at + 2], moves[at + 3], ways, ways * self.ones[rise], rise))
                continue
            flat[place + 5] += ways * self.ones[rise]
            first = flat[place + 6]
            if first == rise:
                flat[place + 4] += ways
                continue
            if first >= 0:  # a second rise: the ways by rise go to ``terms``
                terms.append([first, flat[place + 4]])
                flat[place + 4], flat[place + 6] = len(terms) - 1, -1
            kernel = terms[flat[place + 4]]
            found = False
            for term in range(0, len(kernel), 2):
                if kernel[term] == rise:
                    kernel[term + 1] += ways
                    found = True
            if not found:
                kernel.extend((rise, ways))
        return flat


def _completions_bound(options: Sequence[Sequence[Option]], hand: HandCards) -> int:
    """At least the completions below any state of the counting, at any points value: every choice of at most one
    option a rank that the hand's wild cards pay for, each group weighted by its ways to pick its natural cards
    and, as if alone, its twos from all the hand's (a group's twos picked after others' are among those). The
    points vectors' slots are as wide as this needs, and a big hand's bound by rank alone (``_PointsVectors``)
    is dozens of bits wider than the counts: the vectors' products cost by their length."""
    picks = [len(submultisets(hand.twos, size)) for size in range(hand.twos_total + 1)]
    jokers = hand.jokers
    spread = jokers + 1  # a state (twos, jokers used) as twos * spread + jokers
    ways = [0] * ((hand.twos_total + 1) * spread)
    ways[0] = 1
    for opts in options:
        after = list(ways)  # no group of the rank
        for used, reached in enumerate(ways):
            if not reached:
                continue
            twos_used, jokers_used = divmod(used, spread)
            for option in opts:
                if twos_used + option.twos <= hand.twos_total and jokers_used + option.jokers <= jokers:
                    after[used + option.twos * spread + option.jokers] += reached * option.ways * picks[option.twos]
        ways = after
    return sum(ways)


def _points_vectors(layout: _Layout, options: Sequence[Sequence[Option]], hand: HandCards) -> _PointsVectors | None:
    """The points vectors of a structure whose points are capped and never fall (else None: counted state by
    state)."""
    geometry = layout.geometry
    if not geometry.whole[2] or geometry.lows[2] != 0:
        return None
    return _PointsVectors(layout, options, hand)


class _Geometry:
    """Where each field of a packed state lies (see ``_Layout``), worked out from what bounds the fields: the caps,
    the hand's wild cards, and what the options add in all. The same for every structure with the same bounds, so
    it is made once (``_geometry``): a listing sets up several small structures, and building a dozen lists each
    cost more than counting them."""

    def __init__(self, bounds: tuple[int, ...], sizes: tuple[int, ...]) -> None:
        (groups_cap, left_cap, points_cap, twos_total, jokers, ranks, held_sum, most_held) = bounds[:8]
        (points_rise, points_fall, points_step, unfinished_rise, unfinished_fall, unit, compositions) = bounds[8:]
        self.sizes = sizes
        self.field_count = count = _TWOS_USED + len(sizes) + 7
        self.jokers_at = jokers_at = _TWOS_USED + 1 + len(sizes)
        #: The step each field counts in: 1, but for the melds to complete, which move in tallies (``checks.Tally``).
        self.units = [1] * count
        self.units[-1] = unit
        # Per field: what bounds it whole (its cap, or the hand's wild cards; -1 for a field added to the start's
        # value), the most the options add to it in all and in one step, and the least in all.
        whole_bounds = [groups_cap, left_cap, points_cap, twos_total] + [-1] * (count - 4)
        for place, size in enumerate(sizes):
            whole_bounds[_TWOS_USED + 1 + place] = twos_total // size
        whole_bounds[jokers_at] = jokers
        rises = [ranks, held_sum, points_rise] + [ranks] * (count - 3)
        rises[-1] = unfinished_rise
        steps = [1, most_held, points_step]
        self.whole = [bound >= 0 for bound in whole_bounds]
        self.lows = [0] * count
        self.lows[2], self.lows[-1] = points_fall, unfinished_fall
        self.shifts: list[int] = []
        self.masks: list[int] = []
        #: Per field held whole, the most a start may hold (its cap, or the hand's wild cards), packed.
        self.limits: list[int] = []
        shift = 0
        for field in range(count):
            low = self.lows[field]
            bound = whole_bounds[field]
            if bound < 0:
                top = rises[field] - low
            elif field < _TWOS_USED:  # a cap: the value reaches it, then one option's more before it is capped
                top = bound - low + steps[field]
            else:
                top = bound
            width = _width(top)
            self.limits.append(bound - low)
            self.shifts.append(shift)
            self.masks.append((1 << width) - 1)
            shift += width
        self.flags_shift = shift
        self.composition_mask = (1 << _width(compositions)) - 1
        self.start_shift = shift + 2 + _width(compositions)
        self.size_bits = {size: 1 << self.shifts[_TWOS_USED + 1 + place] for place, size in enumerate(sizes)}
        self.kind_bits = [1 << self.shifts[jokers_at + 1 + kind] for kind in range(3)]


#: The geometries made so far, by their bounds and sizes of twos.
_GEOMETRIES: dict[tuple[int, ...], _Geometry] = {}


def _geometry(bounds: tuple[int, ...], sizes: tuple[int, ...]) -> _Geometry:
    key = (*bounds, *sizes)
    known = _GEOMETRIES.get(key)
    if known is None:
        known = remember(_GEOMETRIES, key, _Geometry(bounds, sizes))
    return known


class _Layout:
    """How the counting packs a state (an ``Aggregate``) into one int, a field of bits to each count, so that a
    step is an addition, an or and the caps, and a memo key is an int: the counting builds and looks up a state
    for every option of every state, and a named tuple of twelve fields, three of them tuples, cost five times as
    much. The fields (``_Geometry``), lowest first:

    - added: the groups, the cards left, the points, the twos used, the groups by the twos they take (one field a
      size: the sizes, in descending order, are what the ways to pick the twos hang on), the jokers, the canastas
      by kind, the canastas made and the melds to complete (in steps of their greatest common divisor);
    - or-ed: whether some group is invalid kept, or going out, and the groups' compositions;
    - above them all, the start (``starts``, by place), so that structures started elsewhere share memos and still
      never confuse their states.

    A capped field (``Caps``) holds its whole value, the start's included, so that states from different starts
    meet at the cap; the twos and jokers hold theirs too, bounded by the hand's. Every other field holds what the
    options add, less the lowest sum they reach (points of negative cards, melds to complete that fall), and the
    start's value is read from the start's place. Each field is sized from the options, so no count overflows into
    the next, and any start fits."""

    def __init__(
        self,
        hand: HandCards,
        ranks: Sequence[int],
        options: Sequence[Sequence[Option]],
        caps: Caps,
    ) -> None:
        held = [hand.count(rank) if rank != JOKER_RANK else 0 for rank in ranks]
        # What the options can add, in sums over the ranks of each rank's most and least (no group adds nothing). Each
        # option is unpacked once: a named tuple's fields read by name cost a compiled build a look-up each.
        sizes_seen: set[int] = set()
        unit = compositions = most_held = held_sum = points_rise = points_fall = points_step = 0
        unfinished_rise = unfinished_fall = 0
        for index, opts in enumerate(options):
            most_held = max(most_held, held[index])
            held_sum += held[index]
            high = low = unfinished_high = unfinished_low = 0
            for option in opts:
                _, twos, _, _, points, _, _, _, _, unfinished, composition = option
                unit = gcd(unit, unfinished)
                compositions |= composition
                if twos:
                    sizes_seen.add(twos)
                high = points if points > high else high
                low = points if points < low else low
                unfinished_high = unfinished if unfinished > unfinished_high else unfinished_high
                unfinished_low = unfinished if unfinished < unfinished_low else unfinished_low
            points_rise, points_fall, points_step = points_rise + high, points_fall + low, max(points_step, high)
            unfinished_rise, unfinished_fall = unfinished_rise + unfinished_high, unfinished_fall + unfinished_low
        unit = unit or 1
        bounds = (
            -1 if caps.groups is None else caps.groups,
            -1 if caps.left is None else caps.left,
            -1 if caps.points is None else caps.points,
            hand.twos_total,
            hand.jokers,
            len(ranks),
            held_sum,
            most_held,
            points_rise,
            points_fall,
            points_step,
            unfinished_rise // unit,
            unfinished_fall // unit,
            unit,
            compositions,
        )
        self.geometry = geometry = _geometry(bounds, tuple(sorted(sizes_seen, reverse=True)))
        self.sizes = geometry.sizes
        shifts, masks, limits = geometry.shifts, geometry.masks, geometry.limits
        self.groups_mask = masks[0]
        self.groups_cap = limits[0] if geometry.whole[0] else masks[0]
        self.left_shift, self.left_mask = shifts[1], masks[1]
        self.left_cap = limits[1] if geometry.whole[1] else masks[1]
        self.points_shift, self.points_mask = shifts[2], masks[2]
        self.points_cap = limits[2] if geometry.whole[2] else masks[2]
        jokers_at = geometry.jokers_at
        self.twos_used_shift, self.twos_used_mask = shifts[_TWOS_USED], masks[_TWOS_USED]
        #: A state's bits less the groups by the twos they take, which no verdict reads (``Verdict``).
        self.verdict_mask = ~sum(
            masks[_TWOS_USED + 1 + place] << shifts[_TWOS_USED + 1 + place] for place in range(len(geometry.sizes))
        )
        self.jokers_shift, self.jokers_mask = shifts[jokers_at], masks[jokers_at]
        #: The starts met so far: the tag, the values of the fields not held whole, the composition.
        self.starts: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self.start_places: dict[tuple[tuple[int, ...], tuple[int, ...], int], int] = {}
        #: Per rank, every move laid flat in fives, no group of the rank first, then each option: what it adds (no
        #: group adds the rank's cards to those left), what it ors in, the twos and jokers it takes, and its ways
        #: (the ways to pick the option's natural cards; 1 for no group).
        self.moves: list[list[int]] = []
        #: Per rank, per move, laid flat in twos: what it adds to the cards left and to the points, two of the
        #: fields a cap may hold (the third, the groups, gains one a group).
        self.capped_parts: list[list[int]] = []
        #: Per capped field, the value from which a move may reach the cap (per rank for the cards left and the
        #: points; past every value for a field not capped); what a value so near counts for in the key of
        #: ``merged_moves``; and the merged moves made so far, by that key.
        never = 1 << 62
        self.groups_near = limits[0] if geometry.whole[0] else never
        self.left_near: list[int] = []
        self.points_near: list[int] = []
        self.rank_count = len(ranks)
        self.left_key = self.rank_count * (masks[0] + 2)
        self.points_key = self.left_key * (masks[1] + 2)
        self._merged: dict[int, list[int]] = {}
        #: Where an int that tells moves apart puts what they add (above the bits they or in).
        self.key_shift = geometry.start_shift
        group, left_shift, points_shift = 1 << shifts[0], shifts[1], shifts[2]
        twos_shift, jokers_shift, flags_shift = shifts[_TWOS_USED], shifts[jokers_at], geometry.flags_shift
        made_shift, unfinished_shift = shifts[jokers_at + 4], shifts[jokers_at + 5]
        size_bits, kind_bits = geometry.size_bits, geometry.kind_bits
        for index, opts in enumerate(options):
            rank_count = held[index]
            rank_held = rank_count << left_shift
            moves = [rank_held, 0, 0, 0, 1]
            parts = [rank_count, 0]
            most_points = 0
            for option in opts:
                naturals, twos, jokers, way, points, kind, new, staying, leaving, unfinished, composition = option
                parts.append(rank_count - naturals)
                parts.append(points)
                most_points = points if points > most_points else most_points
                added = (
                    group
                    + rank_held
                    - (naturals << left_shift)
                    + (points << points_shift)
                    + (twos << twos_shift)
                    + (jokers << jokers_shift)
                    + (int(new) << made_shift)
                    + (unfinished // unit << unfinished_shift)
                )
                if twos:
                    added += size_bits[twos]
                if kind >= 0:
                    added += kind_bits[kind]
                bits = (int(not staying) | int(not leaving) << 1 | composition << 2) << flags_shift
                moves.extend((added, bits, twos, jokers, way))
            self.moves.append(moves)
            self.capped_parts.append(parts)
            # No group leaves the most cards.
            self.left_near.append(limits[1] - rank_count + 1 if geometry.whole[1] else never)
            self.points_near.append(limits[2] - most_points + 1 if geometry.whole[2] else never)

    def merged_moves(self, index: int, code: int) -> list[int]:
        """The moves at rank ``index`` from the state ``code``, laid flat in fives: what each adds (the capped
        fields' parts already capped, so that no step needs ``capped``), what it ors in, the twos and jokers it
        takes, and its ways (1 for no group of the rank). They depend on ``code`` only through the values of its
        capped fields near enough their caps for a move to reach one, a few dozen sets in all; and options that
        differ only in what the caps absorb lead to the same state, so they are merged into one move with their
        ways summed: in a big hand most states are at a cap or near one, and a rank's dozens of options fall to
        a few. Counting uses them; indexing follows each option (``_steps``)."""
        key = self.moves_key(index, code)
        if key == index:
            return self.moves[index]  # no move reaches a cap: nothing to cut or merge
        known = self._merged.get(key)
        if known is None:
            known = self._merged[key] = self._merge(index, code)
        return known

    def moves_key(self, index: int, code: int) -> int:
        """What ``merged_moves`` at rank ``index`` depends on in the state ``code``: ``index`` itself where no move
        reaches a cap, else an int that also tells apart the values of the capped fields near their caps."""
        key = index
        value = code & self.groups_mask
        if value >= self.groups_near:
            key += (value + 1) * self.rank_count
        value = code >> self.left_shift & self.left_mask
        if value >= self.left_near[index]:
            key += (value + 1) * self.left_key
        value = code >> self.points_shift & self.points_mask
        if value >= self.points_near[index]:
            key += (value + 1) * self.points_key
        return key

    def _merge(self, index: int, code: int) -> list[int]:
        """The moves of rank ``index`` from the states that share ``code``'s key in ``merged_moves``. Each move's
        part of a capped field is cut to what the cap leaves, and moves leading to the same state are found by
        one int key, not a tuple."""
        groups_room = self.groups_cap - (code & self.groups_mask)
        left_room = self.left_cap - (code >> self.left_shift & self.left_mask)
        points_room = self.points_cap - (code >> self.points_shift & self.points_mask)
        moves = self.moves[index]
        left_shift, points_shift, key_shift = self.left_shift, self.points_shift, self.key_shift
        parts = self.capped_parts[index]
        flat: list[int] = []
        places: dict[int, int] = {}
        for at in range(0, len(moves), 5):
            added, bits = moves[at], moves[at + 1]
            if at and groups_room < 1:
                added -= 1 - groups_room
            left_part, points_part = parts[at // 5 * 2], parts[at // 5 * 2 + 1]
            if left_part > left_room:
                added -= left_part - left_room << left_shift
            if points_part > points_room:
                added -= points_part - points_room << points_shift
            key = (added << key_shift) + bits
            place = places.get(key, -1)
            if place < 0:
                places[key] = len(flat)
                flat.extend((added, bits, moves[at + 2], moves[at + 3], moves[at + 4]))
            else:
                flat[place + 4] += moves[at + 4]
        return flat

    def capped(self, code: int) -> int:
        """``code`` with each capped field (the groups, the cards left, the points) at most its cap. Three fixed
        tests on attributes, not a loop over the fields: a compiled build keeps attributes unboxed, and
        this runs on every step of the counting (a field not capped has a cap at its mask, never passed)."""
        value = code & self.groups_mask
        if value > self.groups_cap:
            code -= value - self.groups_cap
        value = code >> self.left_shift & self.left_mask
        if value > self.left_cap:
            code -= value - self.left_cap << self.left_shift
        value = code >> self.points_shift & self.points_mask
        if value > self.points_cap:
            code -= value - self.points_cap << self.points_shift
        return code

    def encode(self, state: Aggregate) -> int:
        """A start ``state`` packed (its capped fields already capped). Raises ValueError for a start the hand
        cannot make: more twos or jokers than it holds, twos in a group of a size no option takes."""
        geometry = self.geometry
        if state.twos and any(size not in self.sizes for size in state.twos):
            raise ValueError(f"a start with twos in groups of {state.twos}: no option takes twos so")
        code = 0
        offsets: list[int] = []
        for field, value in enumerate(_field_values(state, self.sizes)):
            if not geometry.whole[field]:
                offsets.append(value)
                packed = -geometry.lows[field]
            else:
                packed = value - geometry.lows[field]
                if not 0 <= packed <= geometry.limits[field]:
                    raise ValueError(f"a start beyond what the hand holds: {state}")
            code += packed << geometry.shifts[field]
        mask = geometry.composition_mask
        key = (state.tag, tuple(offsets), state.composition & ~mask)
        place = self.start_places.get(key)
        if place is None:
            place = self.start_places[key] = len(self.starts)
            self.starts.append(key)
        flags = int(not state.staying) | int(not state.leaving) << 1 | (state.composition & mask) << 2
        return code | flags << geometry.flags_shift | place << geometry.start_shift

    def twos_of(self, code: int) -> tuple[int, ...]:
        """The sizes of the groups that take twos in the state ``code``, largest first (``Aggregate.twos``)."""
        if not self.sizes:
            return ()
        geometry = self.geometry
        twos: list[int] = []
        for place, size in enumerate(self.sizes):
            field = _TWOS_USED + 1 + place
            twos.extend([size] * (code >> geometry.shifts[field] & geometry.masks[field]))
        return tuple(twos)

    def decode(self, code: int) -> Aggregate:
        """The state ``code`` packs."""
        geometry = self.geometry
        tag, offsets, composition = self.starts[code >> geometry.start_shift]
        values: list[int] = []
        at = 0
        for field in range(geometry.field_count):
            value = (code >> geometry.shifts[field] & geometry.masks[field]) + geometry.lows[field]
            if not geometry.whole[field]:
                value = value * geometry.units[field] + offsets[at]
                at += 1
            values.append(value)
        j = geometry.jokers_at
        flags = code >> geometry.flags_shift
        return _new_tuple(
            Aggregate,
            (
                values[0],
                values[1],
                values[2],
                self.twos_of(code),
                values[j],
                (values[j + 1], values[j + 2], values[j + 3]),
                values[j + 4],
                not flags & 1,
                not flags & 2,
                tag,
                values[j + 5],
                flags >> 2 & geometry.composition_mask | composition,
            ),
        )


#: Where the twos used are among a ``_Layout``'s fields (after the groups, the cards left and the points).
_TWOS_USED: Final = 3


def _field_values(state: Aggregate, sizes: Sequence[int]) -> list[int]:
    """The value of each field of a ``_Layout`` in ``state``."""
    groups, left, points, twos, jokers, kinds, made, _, _, _, unfinished, _ = state
    values = [groups, left, points, sum(twos)]
    for size in sizes:
        values.append(twos.count(size))
    values.extend((jokers, kinds[0], kinds[1], kinds[2], made, unfinished))
    return values


_new_tuple = tuple.__new__


def _with(state: Aggregate, left: int, twos: tuple[int, ...]) -> Aggregate:
    """``state`` with ``left`` cards left and twos groups of the sizes ``twos``, built without the named tuple's
    Python-level ``_replace``."""
    return _new_tuple(
        Aggregate,
        (
            state.groups,
            left,
            state.points,
            twos,
            state.jokers,
            state.kinds,
            state.made,
            state.staying,
            state.leaving,
            state.tag,
            state.unfinished,
            state.composition,
        ),
    )


def _end_by_points(end: Aggregate, pairs: list[tuple[int, int]]) -> EndByPoints:
    """An ``EndByPoints`` from the (points, ways) an end is reached with."""
    pairs.sort()
    tails = [0] * len(pairs)
    summed = 0
    for at in range(len(pairs) - 1, -1, -1):
        summed += pairs[at][1]
        tails[at] = summed
    return end, tuple(p for p, _ in pairs), tuple(w for _, w in pairs), tuple(tails)


def _with_points(state: Aggregate, points: int) -> Aggregate:
    """``state`` with ``points`` points (``_with`` for the points)."""
    return _new_tuple(Aggregate, (state[0], state[1], points, *state[3:]))


def _capped_start(start: Aggregate, caps: Caps) -> Aggregate:
    """``start`` with its cards left and points capped, built without the named tuple's ``_replace``."""
    groups, left, points, *rest = start
    return _new_tuple(Aggregate, (groups, capped(left, caps.left), capped(points, caps.points), *rest))


def _width(value: int) -> int:
    """The bits a count not below 0 takes (``int.bit_length``, which a compiled build calls by name, dearly)."""
    width = 0
    while value:
        value >>= 1
        width += 1
    return width


def _joined(start: Aggregate, end: Aggregate, caps: Caps, unused: int) -> Aggregate:
    """The finished state of a choice made from ``start`` that, made from an empty start, ends in ``end`` (with
    ``unused`` wild cards left over): every count adds up, capped as the recursion caps it (no count falls, so
    capping the parts first changes no capped sum)."""
    kinds = start.kinds
    more = end.kinds
    return _new_tuple(
        Aggregate,
        (
            capped(start.groups + end.groups, caps.groups),
            capped(start.left + end.left + unused, caps.left),
            capped(start.points + end.points, caps.points),
            end.twos,
            start.jokers + end.jokers,
            (kinds[0] + more[0], kinds[1] + more[1], kinds[2] + more[2]),
            start.made + end.made,
            start.staying and end.staying,
            start.leaving and end.leaving,
            start.tag,
            start.unfinished + end.unfinished,
            start.composition | end.composition,
        ),
    )


def _shape(rank: int, option: Option) -> Shape:
    return Shape(rank, option.naturals, option.twos, option.jokers)


def capped(value: int, cap: int | None) -> int:
    """``value``, or ``cap`` if it is reached (None: no cap)."""
    return value if cap is None or value < cap else cap
