"""The legal actions of one position as a sequence of blocks, each counted and indexed on its own.

A block is a sequence of actions: a plain tuple or list where the actions are few, or a structure
(``combos.Combinations``) where they are many. ``Listing`` adds up their lengths and finds the ``n``-th action in the
block that holds it, so counting, indexing and a uniform random choice cost what the blocks cost, not what listing
every action would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

from .actions import Action, single_meld
from .cards import SORT_ORDER, Card
from .combos import Combinations, Pool
from .movegen import submultisets
from .rules import TRACKED_CACHE_LIMIT, remember

#: The groups of one shape: the choices of natural cards, the choices of wild cards, and the jokers every group
#: ends with; each natural choice with each wild choice (in that order) is one group, in canonical order.
GroupParts = tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...], tuple[Card, ...]]


class CountedBlock:
    """A block that knows its number of actions without making them (``_total``, kept by the subclass)."""

    __slots__ = ("_total",)

    def __init__(self) -> None:
        self._total = 0

    def count(self) -> int:
        return self._total

    def __len__(self) -> int:
        return self._total

    def __bool__(self) -> bool:
        return self._total > 0


#: The groups of one shape as ``SingleMelds`` keeps them: their parts (``GroupParts``), the label of a group of wild
#: cards (the rank it joins), and how many groups (actions) they make. Typed as a tuple of any length on purpose: the
#: compiled build copies a value of a fixed-length tuple type into a C struct when it reads one from a container, and
#: makes a new tuple of it when it stores it in another, which every listing would pay a shape at a time; a tuple of
#: this type passes as it is.
MeldChunk = tuple[Any, ...]


def meld_chunk(parts: GroupParts, label: int | None) -> MeldChunk:
    """The ``MeldChunk`` of one shape's groups (built once, where the listing caches the shape's groups, so a
    listing that keeps them allocates nothing for them)."""
    return (parts, label, len(parts[0]) * len(parts[1]))


class SingleMelds(CountedBlock):
    """Single-group melds as the parts of each valid shape's groups (cached per rank by the listing): counting and
    indexing multiply and divide the numbers of choices, and a group is put together, and its ``Action`` made or
    found in ``made``, only for the actions asked for."""

    __slots__ = ("_chunks", "_made")

    def __init__(self, made: dict[Any, Action]) -> None:
        super().__init__()
        self._chunks: list[MeldChunk] = []
        self._made = made

    def add(self, chunk: MeldChunk) -> None:
        """The groups of one shape, each a legal meld action."""
        size: int = chunk[2]
        self._chunks.append(chunk)
        self._total += size

    def __getitem__(self, index: int) -> Action:
        if index < 0:
            index += self._total
        if index >= 0:
            for chunk in self._chunks:
                size: int = chunk[2]
                if index < size:
                    parts: GroupParts = chunk[0]
                    naturals, wilds, tail = parts
                    natural, wild = divmod(index, len(wilds))
                    return self._action(naturals[natural] + wilds[wild] + tail, chunk[1])
                index -= size
        raise IndexError("legal action index out of range")

    def __iter__(self) -> Iterator[Action]:
        for chunk in self._chunks:
            parts: GroupParts = chunk[0]
            naturals, wilds, tail = parts
            for natural in naturals:
                for wild in wilds:
                    yield self._action(natural + wild + tail, chunk[1])

    def _action(self, cards: tuple[Card, ...], label: int | None) -> Action:
        key = cards if label is None else (cards, label)
        action = self._made.get(key)
        if action is None:
            action = remember(self._made, key, single_meld(cards, label), TRACKED_CACHE_LIMIT)
        return action


#: The actions of take groups with so many natural cards and these wild cards (each group alike).
TakeWeight = Callable[[int, tuple[Card, ...]], int]


class TakeGroups:
    """Takes of the pile by a side that has not opened, in ``movegen.take_groups`` order: every group of cards from
    hand that melds the top card, each group's actions (``group_actions``: the take alone, then with further melds)
    together. That order lists, for each size, the choices of natural cards, and with each the choices of wild
    cards; since the count of a group's actions hangs on its number of natural cards and its wild cards alone
    (``weight``), each run of groups with the same natural cards is counted by counts, and a group's actions are
    made only for the actions asked for. Nothing is counted before it is asked for: iterating walks the groups in
    order and asks each for its actions, so the first page costs a few groups, not every shape's count."""

    __slots__ = ("_group_actions", "_naturals", "_parts", "_runs", "_total", "_weight", "_wilds")

    def __init__(
        self, naturals: Pool, wilds: Pool, weight: TakeWeight, group_actions: Callable[[tuple[Card, ...]], Listing]
    ) -> None:
        self._naturals = naturals
        self._wilds = wilds
        self._weight = weight
        self._group_actions = group_actions
        #: Per number of natural and of wild cards: each choice of wild cards with its groups' weight.
        self._parts: dict[tuple[int, int], list[tuple[tuple[Card, ...], int]]] = {}
        #: The runs with actions, in order: the natural cards, the number of wild cards, the run's weight (once
        #: counted).
        self._runs: list[tuple[tuple[Card, ...], int, int]] | None = None
        self._total = -1

    def _run_shapes(self) -> Iterator[tuple[tuple[Card, ...], int]]:
        """Every run of groups in order, as its natural cards and its number of wild cards."""
        wilds_held = sum(n for _, n in self._wilds)
        held = sum(n for _, n in self._naturals) + wilds_held
        natural_choices = _natural_choices(self._naturals, held)
        for size in range(2, held + 1):
            for natural in natural_choices:
                m = len(natural)
                k = size - m
                if k < 0 or k > wilds_held or (m == 0 and size > 2):  # beyond a pair, a group has a natural card
                    continue
                yield natural, k

    def _counted(self) -> list[tuple[tuple[Card, ...], int, int]]:
        """The runs with actions and their weights, worked out once."""
        if self._runs is None:
            runs: list[tuple[tuple[Card, ...], int, int]] = []
            for natural, k in self._run_shapes():
                m = len(natural)
                parts = self._parts.get((m, k))
                if parts is None:
                    parts = self._parts[(m, k)] = [(w, self._weight(m, w)) for w in submultisets(self._wilds, k)]
                run = sum(w for _, w in parts)
                if run:
                    runs.append((natural, k, run))
            self._runs = runs
            self._total = sum(run for _, _, run in runs)
        return self._runs

    def count(self) -> int:
        self._counted()
        return self._total

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        if self._total >= 0:
            return self._total > 0
        return next(iter(self), None) is not None

    def __getitem__(self, index: int) -> Action:
        runs = self._counted()
        if index < 0:
            index += self._total
        if index >= 0:
            for natural, k, run in runs:
                if index < run:
                    for wild, weight in self._parts[(len(natural), k)]:
                        if index < weight:
                            return self._group_actions(take_group(natural, wild))[index]
                        index -= weight
                index -= run
        raise IndexError("legal action index out of range")

    def __iter__(self) -> Iterator[Action]:
        if self._runs is not None:
            for natural, k, _ in self._runs:
                for wild, weight in self._parts[(len(natural), k)]:
                    if weight:
                        yield from self._group_actions(take_group(natural, wild))
            return
        for natural, k in self._run_shapes():  # not counted: each group asked for its actions, in the same order
            for wild in submultisets(self._wilds, k):
                yield from self._group_actions(take_group(natural, wild))


def _natural_choices(items: Pool, most: int) -> list[tuple[Card, ...]]:
    """Every choice of at most ``most`` of the cards ``items``, in the order ``movegen.submultisets`` gives the
    choices of a group's first cards: most copies of the first card first."""
    if not items:
        return [()]
    (card, available), rest = items[0], items[1:]
    out: list[tuple[Card, ...]] = []
    for take in range(min(available, most), -1, -1):
        head = (card,) * take
        for tail in _natural_choices(rest, most - take):
            out.append(head + tail)
    return out


def take_group(natural: tuple[Card, ...], wild: tuple[Card, ...]) -> tuple[Card, ...]:
    """A take group's cards in canonical order, as ``movegen.take_groups`` gives them."""
    return tuple(sorted(natural + wild, key=SORT_ORDER.__getitem__))


class Walked:
    """Actions found one by one by a walk (named melds, sequences, openings that lay two groups of a rank: a walk
    that drops what it met before, so its order cannot be indexed without walking), kept as they are found: the
    first page walks only as far as it shows, and counting walks to the end once."""

    __slots__ = ("_found", "_walk")

    def __init__(self, walk: Iterator[Action]) -> None:
        self._found: list[Action] = []
        self._walk: Iterator[Action] | None = walk

    def _reach(self, index: int) -> bool:
        """Walk on until action ``index`` is found (every action for -1); whether there is one."""
        walk = self._walk
        found = self._found
        while walk is not None and (index < 0 or len(found) <= index):
            action = next(walk, None)
            if action is None:
                self._walk = walk = None
            else:
                found.append(action)
        return 0 <= index < len(found)

    def count(self) -> int:
        """How many actions the walk finds: all of them walked."""
        self._reach(-1)
        return len(self._found)

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return self._reach(0)

    def __getitem__(self, index: int) -> Action:
        if index < 0:
            index += self.count()
        if index < 0 or not self._reach(index):
            raise IndexError("legal action index out of range")
        return self._found[index]

    def __iter__(self) -> Iterator[Action]:
        index = 0
        while self._reach(index):
            yield self._found[index]
            index += 1


class CountedWalk(Walked):
    """A walk whose actions a counter counts and draws without walking (``openings.OpeningCounter``): the first
    page and small indexes walk only as far as they show, ``count()`` asks the counter until the walk is done, and
    an index near the end (a negative one included) still walks that far. ``draw(i)`` is action ``i`` in the
    counter's own order, not the walk's: what a uniform sample asks for. The counter is made by ``make_counter``
    when first asked."""

    __slots__ = ("_counted", "_counter", "_make_counter")

    def __init__(self, walk: Iterator[Action], make_counter: Callable[[], Counter]) -> None:
        super().__init__(walk)
        self._make_counter = make_counter
        self._counter: Counter | None = None
        self._counted = -1

    def count(self) -> int:
        if self._walk is None:
            return len(self._found)
        if self._counted < 0:
            self._counted = self._made().count()
        return self._counted

    def draw(self, index: int) -> Action:
        """Action ``index`` (0 <= index < ``count()``) in the counter's order: each action for one index."""
        return self._made().draw(index)

    def _made(self) -> Counter:
        """The counter, made when first asked: a first page walks and never needs it."""
        if self._counter is None:
            self._counter = self._make_counter()
        return self._counter


class Counter(Protocol):
    """What counts and draws a walk's actions without walking it (``openings.OpeningCounter``)."""

    def count(self) -> int: ...

    def draw(self, index: int) -> Action: ...


class Chained:
    """Blocks made one after another as they are reached (the takes of many groups of cards from hand, each with
    its own further melds): the first page makes the first few, counting makes them all."""

    __slots__ = ("_made", "_making")

    def __init__(self, making: Iterator[Block]) -> None:
        self._made: list[Block] = []
        self._making: Iterator[Block] | None = making

    def _block(self, place: int) -> Block | None:
        """Block ``place``, made if it was not yet; None past the last."""
        made = self._made
        while len(made) <= place and self._making is not None:
            block = next(self._making, None)
            if block is None:
                self._making = None
            else:
                made.append(block)
        return made[place] if place < len(made) else None

    def _blocks(self) -> Iterator[Block]:
        place = 0
        block = self._block(place)
        while block is not None:
            yield block
            place += 1
            block = self._block(place)

    def count(self) -> int:
        return sum(_size(block) for block in self._blocks())

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return any(self._blocks())

    def __getitem__(self, index: int) -> Action:
        if index < 0:
            index += self.count()
        return _action_at(self._blocks(), index)

    def __iter__(self) -> Iterator[Action]:
        for block in self._blocks():
            yield from block


Block = Sequence[Action] | Combinations | SingleMelds | TakeGroups | Walked | Chained


#: Below this index, ``Listing[index]`` walks the listing from its start while its count is not known yet: the
#: first page of a listing (a program showing it, ``legal[0]``) then costs what finding those actions costs, never
#: the count of every block, which a big hand's structures and named melds make dear.
WALK_BELOW = 64


class Listing:
    """Blocks of legal actions, in listing order; a read-only sequence (``random.choice`` works on it). Nothing is
    counted before it is asked for: iterating and the first indexes walk the blocks in order."""

    __slots__ = ("_blocks", "_count", "_kinds")

    def __init__(self, blocks: Sequence[Block]) -> None:
        self._blocks = list(blocks)
        self._count = -1
        self._kinds: KindCounts | None = None

    def kinds(self) -> KindCounts:
        """The kinds of action listed, in the order each first appears, each with its number of actions: what
        grouping the listed actions by kind gives, counted by the blocks (``_block_kinds``) without making every
        action."""
        if self._kinds is None:
            self._kinds = _kinds_of(self._blocks)
        return self._kinds

    def of_kind(self, kind: str, index: int) -> Action:
        """The ``index``-th action of ``kind`` in listing order (0 <= index < its count in ``kinds()``): the same
        action as the ``index``-th of that kind in the listed actions, found through the blocks' counts."""
        action, _ = _of_kind(self._blocks, kind, index)
        if action is None:
            raise IndexError("legal action index out of range")
        return action

    def count(self) -> int:
        """How many actions there are (exact, however many: ``len`` cannot exceed ``sys.maxsize``)."""
        if self._count < 0:
            self._count = sum(_size(block) for block in self._blocks)
        return self._count

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        if self._count >= 0:
            return self._count > 0
        return any(self._blocks)

    def __getitem__(self, index: int) -> Action:
        if 0 <= index < WALK_BELOW and self._count < 0:
            return self._walked_to(index)
        if index < 0:
            index += self.count()
        return _action_at(self._blocks, index)

    def draw(self, index: int) -> Action:
        """Action ``index`` (0 <= index < ``count()``) of a uniform draw: the listing's own ``self[index]``, except
        within a block that counts by another order than its walk (``CountedWalk.draw``), which gives its action
        for that index in that order (each action still for one index), instead of walking that far."""
        return _action_at(self._blocks, index, drawing=True)

    def _walked_to(self, index: int) -> Action:
        """The ``index``-th action, found by iterating (the same order as indexing, by construction of each block)."""
        for place, action in enumerate(self):
            if place == index:
                return action
        raise IndexError("legal action index out of range")

    def __iter__(self) -> Iterator[Action]:
        for block in self._blocks:
            yield from block

    @property
    def blocks(self) -> list[Block]:
        """The blocks, none of them empty (for callers that treat a structure apart)."""
        return [block for block in self._blocks if block]


def _action_at(blocks: Iterable[Block], index: int, drawing: bool = False) -> Action:
    """Action ``index`` of the blocks in order, each block skipped by its count; IndexError past the end (or for a
    negative index, which the caller has not brought into range). ``drawing``: a block counted in another order
    than its walk gives its own action for the index (``CountedWalk.draw``)."""
    if index >= 0:
        for block in blocks:
            size = _size(block)
            if index < size:
                return block.draw(index) if drawing and isinstance(block, CountedWalk) else block[index]
            index -= size
    raise IndexError("legal action index out of range")


#: Kinds of action with their numbers of actions, in the order each kind first appears.
KindCounts = list[tuple[str, int]]


def _kinds_of(blocks: Iterable[Block]) -> KindCounts:
    """The blocks' kinds of action with their counts, in the order each kind first appears."""
    counts: dict[str, int] = {}
    for block in blocks:
        for kind, size in _block_kinds(block):
            counts[kind] = counts.get(kind, 0) + size
    return list(counts.items())


def _block_kinds(block: Block) -> KindCounts:
    """A block's kinds of action with their counts, in order. Plain blocks and walks are read action by action (a
    walk may lay melds, then combine them); a chain by its blocks; every other structure holds actions of one kind
    (each is made by one builder: the melds of a family, the takes of a family or of the pile's take groups), so
    its first action tells its kind and its count is its size."""
    if isinstance(block, Chained):
        return _kinds_of(block._blocks())
    if isinstance(block, (Combinations, SingleMelds, TakeGroups)):
        size = _size(block)
        return [(block[0].kind, size)] if size > 0 else []
    tally: dict[str, int] = {}
    for action in block:
        tally[action.kind] = tally.get(action.kind, 0) + 1
    return list(tally.items())


def _of_kind(blocks: Iterable[Block], kind: str, index: int) -> tuple[Action | None, int]:
    """The ``index``-th action of ``kind`` in the blocks, found as ``_block_kinds`` counts them; else None and
    how far past the blocks' actions of that kind the index is."""
    for block in blocks:
        if index < 0:
            break
        if isinstance(block, Chained):
            action, index = _of_kind(block._blocks(), kind, index)
            if action is not None:
                return action, 0
        elif isinstance(block, (Combinations, SingleMelds, TakeGroups)):
            size = _size(block)
            if size > 0 and block[0].kind == kind:
                if index < size:
                    return block[index], 0
                index -= size
        else:
            for action in block:
                if action.kind == kind:
                    if index == 0:
                        return action, 0
                    index -= 1
    return None, index


def _size(block: Block) -> int:
    """A block's number of actions: a structure's ``count()`` (which may pass ``sys.maxsize``), else its length."""
    return block.count() if isinstance(block, (Combinations, CountedBlock, TakeGroups, Walked, Chained)) else len(block)
