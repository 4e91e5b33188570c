"""Multi-meld actions as a structure: counted, indexed and sampled without listing them.

A side that has not opened lays its whole opening in one action, so its legal openings are every choice of at
most one valid shape per rank that the hand's wild cards pay for and that the spec accepts as a whole: a number
that grows exponentially with the ranks held (over 175,000 actions for a 30-card hand). ``Combinations`` keeps
them as the per-rank options and counts the legal choices by dynamic programming over the ranks. The state after
each rank holds only what the verdict on the whole opening reads, each capped where the verdict stops changing:
the groups laid, the cards left in hand, the points, the wild cards used (the twos by the sizes of the groups
that use them, which is what the number of ways to pick them depends on), the canastas made by kind, and whether
every group is valid kept and going out. From the counts below every state, the ``n``-th action (in the order
the plain enumeration gives) is found by descending the ranks, and iterating costs what it yields.

Taking the pile before opening adds the take's own group, chosen among many (every choice of natural and wild
cards that melds the top card), each a start state of its own. ``count_from`` counts them all from one forward
pass over the whole hand: the states after the last rank do not depend on the start, so each start costs a pass
over those end states, not a recursion; only the take a caller indexes gets a recursion from its own start.

Design notes (issue 15): the alternative, an opening built in steps within the turn, would have changed what an
action is, and so the perft counts, the protocol and every engine's notion of a legal move; a structure over the
same actions keeps all of them and makes ``count``, ``in`` and a uniform sample cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from .actions import Action, MeldGroup
from .cards import JOKER, JOKER_RANK, Card
from .movegen import HandCards, Shape, expand_shapes, submultisets, without

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


Verdict = Callable[[Aggregate], bool]


class Combinations:
    """The legal choices of at most one option per rank (in ``ranks`` order), as concrete actions made by
    ``build``. Ordered as the plain enumeration orders them: by the choice at each rank (none first, then the
    options in order), and within one choice by its cards."""

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
    ) -> None:
        self._hand = hand
        self._ranks = tuple(ranks)
        self._options = tuple(tuple(o) for o in options)
        self._caps = caps
        self._verdict = verdict
        self._build = build
        self._twos_total = hand.twos_total
        self._verdicts: dict[Aggregate, bool] = {}
        self._below: list[dict[Aggregate, int]] = [{} for _ in range(len(self._ranks) + 1)]
        self._ways: dict[tuple[Pool, tuple[int, ...]], int] = {}
        self._start = Aggregate(0, capped(left, caps.left), 0, (), 0, (0, 0, 0), 0, True, True)
        self._count: int | None = None
        self._ends: dict[Aggregate, int] | None = None
        self._ends_by_pool: dict[Pool, dict[Aggregate, int]] = {}
        self._joined_verdicts: dict[Aggregate, bool] = {}

    def started(self, start: Aggregate, build: Callable[[tuple[MeldGroup, ...]], Action]) -> Combinations:
        """The same options from another start state (its ``left`` and ``points`` capped here), made into actions
        by ``build``, sharing every count and verdict: takes whose cards from hand use the same wild cards differ
        only in what they add to the start, and their states meet once points reach the cap."""
        caps = self._caps
        twin = Combinations(self._hand, (), (), left=0, caps=caps, verdict=self._verdict, build=build)
        twin._ranks, twin._options = self._ranks, self._options
        twin._below, twin._verdicts, twin._ways = self._below, self._verdicts, self._ways
        twin._start = start._replace(left=capped(start.left, caps.left), points=capped(start.points, caps.points))
        return twin

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks the options are of, in order."""
        return self._ranks

    # -- counting ---------------------------------------------------------------------------------------
    def count(self) -> int:
        """How many actions the structure holds (exact; may pass ``sys.maxsize``, which ``len`` cannot)."""
        if self._count is None:
            self._count = self._completions(0, self._start)
        return self._count

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return self.count() > 0

    def _completions(self, index: int, state: Aggregate) -> int:
        """The concrete actions below ``state`` at rank ``index``: legal completions weighted by their cards."""
        memo = self._below[index]
        known = memo.get(state)
        if known is not None:
            return known
        if index == len(self._ranks):
            total = self._twos_ways(self._hand.twos, state.twos) if self._accepts(state) else 0
        else:
            total = 0
            for option, after in self._steps(index, state):
                below = self._completions(index + 1, after)
                if below:
                    total += (option.ways if option is not None else 1) * below
        memo[state] = total
        return total

    def _accepts(self, state: Aggregate) -> bool:
        known = self._verdicts.get(state)
        if known is None:
            known = self._verdicts[state] = state.groups > 0 and self._verdict(self._finished(state))
        return known

    def _finished(self, state: Aggregate) -> Aggregate:
        """The state with the wild cards left unused counted among the cards left."""
        unused = self._twos_total - sum(state.twos) + self._hand.jokers - state.jokers
        return _with(state, capped(state.left + unused, self._caps.left), state.twos)

    def _steps(self, index: int, state: Aggregate) -> list[tuple[Option | None, Aggregate]]:
        """The choices at rank ``index``, in order (None: no group of that rank), with the state after each. A list
        of states built as plain tuples: the counting visits thousands, and a generator or the named tuple's
        Python-level constructor cost more than the work."""
        caps = self._caps
        rank = self._ranks[index]
        held = self._hand.count(rank) if rank != JOKER_RANK else 0
        steps: list[tuple[Option | None, Aggregate]] = [
            (None, _with(state, capped(state.left + held, caps.left), state.twos))
        ]
        twos_left = self._twos_total - sum(state.twos)
        jokers_left = self._hand.jokers - state.jokers
        for option in self._options[index]:
            if option.twos > twos_left or option.jokers > jokers_left:
                continue
            kinds = state.kinds
            if option.kind >= 0:
                kinds = _bump(kinds, option.kind)
            twos = state.twos if not option.twos else tuple(sorted((*state.twos, option.twos), reverse=True))
            after = (
                capped(state.groups + 1, caps.groups),
                capped(state.left + held - option.naturals, caps.left),
                capped(state.points + option.points, caps.points),
                twos,
                state.jokers + option.jokers,
                kinds,
                state.made + option.new_canasta,
                state.staying and option.staying,
                state.leaving and option.leaving,
                state.tag,
                state.unfinished + option.unfinished,
                state.composition | option.composition,
            )
            steps.append((option, _new_tuple(Aggregate, after)))
        return steps

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
        pass over the end states (``_ends_for``) instead of a recursion per start, each as dear as the whole count.
        The structure's start must be empty (no cards left, no points), its caps must hold for every start, and its
        verdict must read the twos' total alone (as the take verdict does)."""
        caps = self._caps
        unused_twos = sum(n for _, n in pool)
        total = 0
        for end, ways in self._ends_for(pool).items():
            if end.jokers > jokers:
                continue
            unused = unused_twos - sum(end.twos) + jokers - end.jokers
            joined = _joined(start, end, caps, unused)
            accepted = self._joined_verdicts.get(joined)
            if accepted is None:
                accepted = self._joined_verdicts[joined] = joined.groups > 0 and self._verdict(joined)
            if accepted:
                total += ways
        return total

    def _ends_for(self, pool: Pool) -> dict[Aggregate, int]:
        """The end states with their ways for a hand whose twos are ``pool``: the ways to pick the natural cards
        times the ways to pick the twos, the twos then kept as their total alone (all the verdict reads), which
        merges end states that differ only in how the twos split between groups."""
        known = self._ends_by_pool.get(pool)
        if known is not None:
            return known
        if self._ends is None:
            self._ends = self._forward()
        merged: dict[Aggregate, int] = {}
        for end, ways in self._ends.items():
            twos = self._twos_ways(pool, end.twos)
            if twos:
                key = _with(end, end.left, (sum(end.twos),) if end.twos else ())
                merged[key] = merged.get(key, 0) + ways * twos
        self._ends_by_pool[pool] = merged
        return merged

    def _forward(self) -> dict[Aggregate, int]:
        """Every state after the last rank, from the start, with its ways to pick the natural cards: the counting
        recursion run forwards, so that the states do not depend on where a caller starts."""
        layer: dict[Aggregate, int] = {self._start: 1}
        for index in range(len(self._ranks)):
            following: dict[Aggregate, int] = {}
            for state, ways in layer.items():
                for option, after in self._steps(index, state):
                    reached = ways * option.ways if option is not None else ways
                    following[after] = following.get(after, 0) + reached
            layer = following
        return layer

    # -- indexing and iterating -------------------------------------------------------------------------
    def __getitem__(self, index: int) -> Action:
        total = self.count()
        if index < 0:
            index += total
        if not 0 <= index < total:
            raise IndexError("legal action index out of range")
        state = self._start
        weight = 1
        chosen: list[Shape] = []
        for position in range(len(self._ranks)):
            for option, after in self._steps(position, state):
                ways = option.ways if option is not None else 1
                below = weight * ways * self._completions(position + 1, after)
                if index < below:
                    state = after
                    weight *= ways
                    if option is not None:
                        chosen.append(_shape(self._ranks[position], option))
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
        if not self.count():
            return
        for shapes in self._choices(0, self._start, []):
            for groups in expand_shapes(self._hand, shapes):
                yield self._build(groups)

    def _choices(self, index: int, state: Aggregate, chosen: list[Shape]) -> Iterator[list[Shape]]:
        if index == len(self._ranks):
            yield list(chosen)
            return
        for option, after in self._steps(index, state):
            if self._completions(index + 1, after):
                if option is not None:
                    chosen.append(_shape(self._ranks[index], option))
                yield from self._choices(index + 1, after, chosen)
                if option is not None:
                    chosen.pop()


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


def _bump(kinds: tuple[int, int, int], kind: int) -> tuple[int, int, int]:
    counts = list(kinds)
    counts[kind] += 1
    return (counts[0], counts[1], counts[2])
