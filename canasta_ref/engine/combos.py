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
from math import gcd
from typing import Final, NamedTuple

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
    ) -> None:
        self._hand = hand
        self._ranks = tuple(ranks)
        self._options = tuple(tuple(o) for o in options)
        self._caps = caps
        self._verdict = verdict
        self._build = build
        self._twos_total = hand.twos_total
        self._verdicts: dict[int, bool] = {}
        self._below: list[dict[int, int]] = [{} for _ in range(len(self._ranks) + 1)]
        self._ways: dict[tuple[Pool, tuple[int, ...]], int] = {}
        self._start = Aggregate(0, capped(left, caps.left), 0, (), 0, (0, 0, 0), 0, True, True)
        self._layout = _Layout(hand, self._ranks, self._options, caps)
        self._start_code = self._layout.encode(self._start)
        self._count: int | None = None
        self._ends: dict[Aggregate, int] | None = None
        self._ends_by_pool: dict[Pool, dict[Aggregate, int]] = {}
        self._joined_verdicts: dict[Aggregate, bool] = {}

    def started(self, start: Aggregate, build: Callable[[tuple[MeldGroup, ...]], Action]) -> Combinations:
        """The same options from another start state (its ``left`` and ``points`` capped here), made into actions
        by ``build``, sharing every count and verdict: takes whose cards from hand use the same wild cards differ
        only in what they add to the start, and their states meet once points reach the cap."""
        caps = self._caps
        start = start._replace(left=capped(start.left, caps.left), points=capped(start.points, caps.points))
        twin = Combinations(self._hand, (), (), left=0, caps=caps, verdict=self._verdict, build=build)
        twin._ranks, twin._options, twin._layout = self._ranks, self._options, self._layout
        twin._below, twin._verdicts, twin._ways = self._below, self._verdicts, self._ways
        twin._start, twin._start_code = start, self._layout.encode(start)
        return twin

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks the options are of, in order."""
        return self._ranks

    # -- counting ---------------------------------------------------------------------------------------
    def count(self) -> int:
        """How many actions the structure holds (exact; may pass ``sys.maxsize``, which ``len`` cannot)."""
        if self._count is None:
            self._count = self._completions(0, self._start_code)
        return self._count

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return self.count() > 0

    def _completions(self, index: int, code: int) -> int:
        """The concrete actions below the state ``code`` at rank ``index``: legal completions weighted by their
        cards."""
        memo = self._below[index]
        known = memo.get(code)
        if known is not None:
            return known
        if index == len(self._ranks):
            total = 0
            if self._accepts(code):
                total = self._twos_ways(self._hand.twos, self._layout.decode(code).twos)
        else:
            total = 0
            ways = self._layout.ways[index]
            for option, after in self._steps(index, code):
                below = self._completions(index + 1, after)
                if below:
                    total += (ways[option] if option >= 0 else 1) * below
        memo[code] = total
        return total

    def _accepts(self, code: int) -> bool:
        known = self._verdicts.get(code)
        if known is None:
            state = self._layout.decode(code)
            known = self._verdicts[code] = state.groups > 0 and self._verdict(self._finished(state))
        return known

    def _finished(self, state: Aggregate) -> Aggregate:
        """The state with the wild cards left unused counted among the cards left."""
        unused = self._twos_total - sum(state.twos) + self._hand.jokers - state.jokers
        return _with(state, capped(state.left + unused, self._caps.left), state.twos)

    def _steps(self, index: int, code: int) -> list[tuple[int, int]]:
        """The choices at rank ``index`` from the state ``code``, in order, as (the option's place among the
        rank's options, -1 for no group of that rank; the state after it). Each is one addition and one or to
        the packed state, then the caps: the counting visits thousands of states, a dozen options each."""
        layout = self._layout
        steps = [(-1, layout.capped(code + layout.held[index]))]
        twos_left = self._twos_total - (code >> layout.twos_used_shift & layout.twos_used_mask)
        jokers_left = self._hand.jokers - (code >> layout.jokers_shift & layout.jokers_mask)
        for place, (add, bits, twos, jokers) in enumerate(layout.moves[index]):
            if twos <= twos_left and jokers <= jokers_left:
                steps.append((place, layout.capped((code + add) | bits)))
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
        layer: dict[int, int] = {self._start_code: 1}
        for index in range(len(self._ranks)):
            following: dict[int, int] = {}
            ways = self._layout.ways[index]
            for code, reached in layer.items():
                for option, after in self._steps(index, code):
                    more = reached * ways[option] if option >= 0 else reached
                    following[after] = following.get(after, 0) + more
            layer = following
        decode = self._layout.decode
        return {decode(code): reached for code, reached in layer.items()}

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
            ways_of = self._layout.ways[position]
            for option, after in self._steps(position, code):
                ways = ways_of[option] if option >= 0 else 1
                below = weight * ways * self._completions(position + 1, after)
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
        if not self.count():
            return
        for shapes in self._choices(0, self._start_code, []):
            for groups in expand_shapes(self._hand, shapes):
                yield self._build(groups)

    def _choices(self, index: int, code: int, chosen: list[Shape]) -> Iterator[list[Shape]]:
        if index == len(self._ranks):
            yield list(chosen)
            return
        for option, after in self._steps(index, code):
            if self._completions(index + 1, after):
                if option >= 0:
                    chosen.append(_shape(self._ranks[index], self._options[index][option]))
                yield from self._choices(index + 1, after, chosen)
                if option >= 0:
                    chosen.pop()


class _Layout:
    """How the counting packs a state (an ``Aggregate``) into one int, a field of bits to each count, so that a
    step is an addition, an or and the caps, and a memo key is an int: the counting builds and looks up a state
    for every option of every state, and a named tuple of twelve fields, three of them tuples, cost five times as
    much. The fields, lowest first:

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
        self.sizes = sizes = sorted({o.twos for opts in options for o in opts if o.twos}, reverse=True)
        unit = 0
        for opts in options:
            for o in opts:
                unit = gcd(unit, o.unfinished)
        self.field_count = count = _TWOS_USED + len(sizes) + 7
        #: The step each field counts in: 1, but for the melds to complete, which move in tallies (``checks.Tally``).
        self.units = [1] * (count - 1) + [unit or 1]
        self.jokers_at = jokers_at = _TWOS_USED + 1 + len(sizes)
        # Per field, per rank, the values each choice adds (no group first).
        adds: list[list[list[int]]] = [[] for _ in range(count)]
        for index, opts in enumerate(options):
            per_choice = [[0, held[index], *[0] * (count - 2)]]
            per_choice.extend(_added_by(o, held[index], sizes, self.units[-1]) for o in opts)
            for field, values in enumerate(zip(*per_choice, strict=True)):
                adds[field].append(list(values))
        # What bounds a field whole (its cap, or the hand's wild cards), None for one added from the start's value.
        bounds: list[int | None] = [caps.groups, caps.left, caps.points, *[None] * (count - 3)]
        bounds[_TWOS_USED] = hand.twos_total
        for place, size in enumerate(sizes):
            bounds[_TWOS_USED + 1 + place] = hand.twos_total // size
        bounds[jokers_at] = hand.jokers
        self.whole = [bound is not None for bound in bounds]
        self.lows: list[int] = []
        self.shifts: list[int] = []
        self.masks: list[int] = []
        #: Per field held whole, the most a start may hold (its cap, or the hand's wild cards), packed.
        self.limits: list[int] = []
        self.caps: list[tuple[int, int, int]] = []
        shift = 0
        for field in range(count):
            rise = sum(max(0, *values) for values in adds[field])
            low = min(0, sum(min(0, *values) for values in adds[field]))
            bound = bounds[field]
            if bound is None:
                top = rise - low
            elif field < _TWOS_USED:  # a cap: the value reaches it, then one option's more before it is capped
                top = bound - low + max((max(0, *values) for values in adds[field]), default=0)
                self.caps.append((shift, (1 << top.bit_length()) - 1, bound - low))
            else:
                top = bound
            self.limits.append(-1 if bound is None else bound - low)
            self.lows.append(low)
            self.shifts.append(shift)
            self.masks.append((1 << top.bit_length()) - 1)
            shift += top.bit_length()
        self.twos_used_shift, self.twos_used_mask = self.shifts[_TWOS_USED], self.masks[_TWOS_USED]
        self.jokers_shift, self.jokers_mask = self.shifts[jokers_at], self.masks[jokers_at]
        self.flags_shift = shift
        compositions = 0
        for opts in options:
            for o in opts:
                compositions |= o.composition
        self.composition_mask = (1 << compositions.bit_length()) - 1
        self.start_shift = shift + 2 + compositions.bit_length()
        #: The starts met so far: the tag, the values of the fields not held whole, the composition.
        self.starts: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self.start_places: dict[tuple[tuple[int, ...], tuple[int, ...], int], int] = {}
        #: Per rank: what no group adds (the rank's cards to those left); each option as what it adds, what it ors
        #: in, and the twos and jokers it takes; and the ways to pick each option's natural cards.
        self.held: list[int] = []
        self.moves: list[list[tuple[int, int, int, int]]] = []
        self.ways: list[list[int]] = []
        for index, opts in enumerate(options):
            self.held.append(self._packed_sum([adds[field][index][0] for field in range(count)]))
            moves: list[tuple[int, int, int, int]] = []
            for place, o in enumerate(opts, start=1):
                added = self._packed_sum([adds[field][index][place] for field in range(count)])
                bits = (int(not o.staying) | int(not o.leaving) << 1 | o.composition << 2) << self.flags_shift
                moves.append((added, bits, o.twos, o.jokers))
            self.moves.append(moves)
            self.ways.append([o.ways for o in opts])

    def _packed_sum(self, values: Sequence[int]) -> int:
        total = 0
        for field, value in enumerate(values):
            total += value << self.shifts[field]
        return total

    def capped(self, code: int) -> int:
        """``code`` with each capped field at most its cap."""
        for shift, mask, cap in self.caps:
            value = code >> shift & mask
            if value > cap:
                code -= value - cap << shift
        return code

    def encode(self, state: Aggregate) -> int:
        """A start ``state`` packed (its capped fields already capped). Raises ValueError for a start the hand
        cannot make: more twos or jokers than it holds, twos in a group of a size no option takes."""
        if any(size not in self.sizes for size in state.twos):
            raise ValueError(f"a start with twos in groups of {state.twos}: no option takes twos so")
        code = 0
        offsets: list[int] = []
        for field, value in enumerate(_field_values(state, self.sizes)):
            if not self.whole[field]:
                offsets.append(value)
                packed = -self.lows[field]
            else:
                packed = value - self.lows[field]
                if not 0 <= packed <= self.limits[field]:
                    raise ValueError(f"a start beyond what the hand holds: {state}")
            code += packed << self.shifts[field]
        composition = state.composition & ~self.composition_mask
        key = (state.tag, tuple(offsets), composition)
        place = self.start_places.get(key)
        if place is None:
            place = self.start_places[key] = len(self.starts)
            self.starts.append(key)
        flags = int(not state.staying) | int(not state.leaving) << 1 | (state.composition & self.composition_mask) << 2
        return code | flags << self.flags_shift | place << self.start_shift

    def decode(self, code: int) -> Aggregate:
        """The state ``code`` packs."""
        tag, offsets, composition = self.starts[code >> self.start_shift]
        values: list[int] = []
        at = 0
        for field in range(self.field_count):
            value = (code >> self.shifts[field] & self.masks[field]) + self.lows[field]
            if not self.whole[field]:
                value = value * self.units[field] + offsets[at]
                at += 1
            values.append(value)
        twos: list[int] = []
        for place, size in enumerate(self.sizes):
            twos.extend([size] * values[_TWOS_USED + 1 + place])
        j = self.jokers_at
        flags = code >> self.flags_shift
        return _new_tuple(
            Aggregate,
            (
                values[0],
                values[1],
                values[2],
                tuple(twos),
                values[j],
                (values[j + 1], values[j + 2], values[j + 3]),
                values[j + 4],
                not flags & 1,
                not flags & 2,
                tag,
                values[j + 5],
                flags >> 2 & self.composition_mask | composition,
            ),
        )


#: Where the twos used are among a ``_Layout``'s fields (after the groups, the cards left and the points).
_TWOS_USED: Final = 3


def _added_by(option: Option, held: int, sizes: Sequence[int], unit: int) -> list[int]:
    """What ``option`` adds to each field of a ``_Layout``, for a rank of which the hand holds ``held``."""
    return [
        1,
        held - option.naturals,
        option.points,
        option.twos,
        *(int(option.twos == size) for size in sizes),
        option.jokers,
        *(int(option.kind == kind) for kind in range(3)),
        int(option.new_canasta),
        option.unfinished // unit,
    ]


def _field_values(state: Aggregate, sizes: Sequence[int]) -> list[int]:
    """The value of each field of a ``_Layout`` in ``state``."""
    return [
        state.groups,
        state.left,
        state.points,
        sum(state.twos),
        *(state.twos.count(size) for size in sizes),
        state.jokers,
        *state.kinds,
        state.made,
        state.unfinished,
    ]


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
