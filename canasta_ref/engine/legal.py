"""Listing the legal actions quickly, by deciding whole families of candidates at once.

``judge.plan`` decides one action at a time (``checks.plan_melding`` a meld or take). Listing calls it for every
candidate only where candidates are few (the draw phase, asking); for melds and discards, the spec's hooks are
asked once per *shape* (how many natural, wild and joker cards, of which rank) or once per card type, with exactly
the variables ``plan`` would pass, and every concrete action of a legal shape is listed. Tests check that this
agrees with ``plan`` on every candidate of random positions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any, Final, TypeVar

from ..errors import IllegalAction
from ..spec.model import Clause
from .actions import TAKE, Action, MeldGroup, meld_of, take_with
from .blocks import (
    Block,
    Chained,
    CountedWalk,
    GroupParts,
    Listing,
    MeldChunk,
    SingleMelds,
    TakeGroups,
    Walked,
    meld_chunk,
    take_group,
)
from .blocks import _action_at as action_at  # a listing's own indexing and sizes, for blocks drawn in apart
from .blocks import _size as block_size
from .cards import CARD_TYPES, JOKER, JOKER_RANK, SEQUENCE_RANK, Card, rank_of, sort_key
from .checks import (
    ANSWER_BINDING,
    DISCARD_ALLOWED,
    INITIAL_CONCEALED_VARIABLES,
    INITIAL_KIND_VARIABLES,
    MELD_ACTION,
    MELD_VALID,
    CanastaKinds,
    RankFacts,
    Tally,
    accepts_melding,
    bare_refusal,
    canasta_kind,
    composition_of,
    discard_standing,
    discard_values,
    ending_refusal,
    goes_out_melding,
    initial_meld_reads,
    is_canasta,
    kind_refusal,
    one_canasta,
    opening_bonus,
    pile_to_hand,
    plan_melding,
    rank_facts,
    side_tally,
    table_values,
    take_card_counts,
    take_fields_refusal,
    take_refusal,
    tally_of,
    unfinished_of,
    unfinished_tally,
)
from .combos import Aggregate, Caps, Combinations, Option, PointsVerdict, Pool, Verdict, capped
from .movegen import (
    EXTRAS_MAY_LIFT,
    HandCards,
    Shape,
    expand_shapes,
    hand_cards,
    opening_accepted,
    shape_combinations,
    shape_values,
    submultisets,
    take_groups,
    take_pool,
    without,
)
from .named import ShapesWithin, play_action_walk, take_actions, take_openings_with_extras
from .openings import (
    InitialQuestion,
    OpeningCounter,
    composition_read,
    constant_from,
    initial_refusal,
    left_cap,
    steady_points,
)
from .rules import Rules, remember
from .special import declarations
from .state import HandState, Meld
from .takecount import BaseTakes, TakeCounter

DISCARDS = tuple(Action("discard", (card,)) for card in range(CARD_TYPES))
DRAW = Action.draw()
ASK = Action.ask()
END = Action("end")
PASS = Action("pass")
LAYOUT = Action("layout")
ANSWERS = (Action.answer(True), Action.answer(False))


#: Above this many choices of shapes (the product over ranks of one plus the shapes each offers), a multi-meld
#: family is kept as a structure (``combos.Combinations``) instead of listed; below it, listing is cheaper than the
#: structure's set-up. Tests set it to 0 to check the structure against the listing on small hands.
STRUCTURE_ABOVE = [64]

#: Above this many choices of cards from hand that meld the pile's top card (the product over the card types held
#: of one plus the copies), a side that has not opened has its takes kept as ``blocks.TakeGroups``, counted by
#: shape; below it, planning each take group is cheaper. Tests set it to 0 as they set ``STRUCTURE_ABOVE``.
TAKE_STRUCTURE_ABOVE = [8]

#: ``STRUCTURE_ABOVE`` for the further melds of one take (``_take_extras``). Listing them plans every candidate in
#: full, while the structure judges each choice of shapes once, on its counts: the structure is the cheaper from the
#: first choice (Modern American, whose sides stay unopened for long, played 25 % more random hands a second with
#: it; Classic the same within noise), so it is always used where wild cards share one value. Tests raise it to
#: list every candidate planned in full, which the structure must agree with.
TAKE_EXTRAS_STRUCTURE_ABOVE = [0]


def legal_actions(rules: Rules, state: HandState) -> Iterator[Action]:
    """Every legal action of the seat to act, each once."""
    return iter(listing(rules, state))


def listing(rules: Rules, state: HandState) -> Listing:
    """The legal actions of the seat to act, as blocks that count and index without listing every action."""
    if state.phase == "draw":
        return Listing(_draw_phase(rules, state))
    if state.phase == "answer":
        return Listing([tuple(a for a in ANSWERS if bare_refusal(rules, state, state.to_act, a.kind) is None)])
    if state.phase == "keep":
        return Listing([_keep_choices(rules, state)])
    if state.phase != "play":
        return Listing(())
    blocks: list[Block] = []
    if bare_refusal(rules, state, state.to_act, "ask") is None:
        blocks.append((ASK,))
    found = _Listing(rules, state)
    melds = _melds(rules, state, found)
    blocks.append(melds)
    named: Walked | None = None
    if rules.names_melds and found.action_ok("meld"):
        named = _named_melds(rules, state, state.team_opened[found.team])
        blocks.append(named)
    blocks.append(_discards(rules, state, found, melds, named))
    if "pass" not in rules.refused_kinds and bare_refusal(rules, state, state.to_act, "pass") is None:
        blocks.append((PASS,))
    if bare_refusal(rules, state, state.to_act, "end") is None:
        blocks.append((END,))
    if rules.special_hands and kind_refusal(rules, state, state.to_act, "declare") is None:
        blocks.append(declarations(rules, state, table_values(rules, state, state.to_act)))
    return Listing(blocks)


def _named_melds(rules: Rules, state: HandState, opened: bool) -> Walked:
    """The meld actions that name a meld or lay a sequence, walked; before the side has opened, counted without
    walking where ``openings`` can (the walk meets millions of candidates at 30 cards and more)."""
    walk = play_action_walk(rules, state, opened)
    if opened or any(rules.merges_same_rank):
        return Walked(walk)
    return CountedWalk(walk, partial(OpeningCounter, rules, state))


def _keep_choices(rules: Rules, state: HandState) -> list[Action]:
    """While play waits on bonus cards (phase keep): keeping each kind of bonus card held, then laying all out."""
    seat = state.to_act
    hand = state.hands[seat]
    choices: list[Action] = []
    if kind_refusal(rules, state, seat, "keep") is None:
        choices = [Action("keep", (card,)) for card in rules.bonus_cards if hand[card]]
    if bare_refusal(rules, state, seat, "layout") is None:
        choices.append(LAYOUT)
    return choices


def _draw_phase(rules: Rules, state: HandState) -> list[Block]:
    """Drawing, and taking the pile: each take is first put to the ``pile.take`` clauses with the pile's
    values computed once, and only those they allow are checked in full; a take with further melds, before the
    side has opened, is a family of its own (see ``_take_extras``). Where such takes are many, they are counted
    by shape instead (``_TakeShapes``), in the same order."""
    seat = state.to_act
    blocks: list[Block] = []
    if bare_refusal(rules, state, seat, "draw") is None:
        blocks.append((DRAW,))
    if rules.special_hands and kind_refusal(rules, state, seat, "declare") is None:
        blocks.append(declarations(rules, state, table_values(rules, state, seat)))  # with the pile's top card
    if not state.pile:
        if _take_ok(rules, state, TAKE):
            blocks.append((TAKE,))
        return blocks
    team = state.side_of[seat]
    counts = state.hands[seat]
    pool = take_pool(rules, counts, state.pile[-1])
    initial = not state.team_opened[team]
    blocks.append([a for a in (TAKE,) if _take_ok(rules, state, a)])
    found: _Listing | None = None
    gained = 0
    if initial and _takes_by_shape(rules, counts, pool):
        takes = _TakeShapes(rules, state, pool)
        if takes.many_further_melds():
            blocks.append(takes.groups())
            return blocks
        found, gained = takes.listing(), takes.gained
    group_blocks = _take_group_blocks(rules, state, pool, found, gained)
    if initial and _pool_choices(counts, pool) > TAKE_STRUCTURE_ABOVE[0]:
        if _takes_counted(rules):  # the groups' blocks counted and drawn in without walking them
            made = _MadeBlocks(group_blocks)
            blocks.append(CountedWalk(iter(Chained(made.each())), partial(_BlocksCounter, made)))
        else:
            blocks.append(Chained(group_blocks))  # many groups, each with its own further melds: made as listed
    else:
        blocks.extend(group_blocks)
    if rules.names_melds:
        blocks.append(Walked(take_actions(rules, state)))
    return blocks


def _take_group_blocks(
    rules: Rules, state: HandState, pool: Sequence[Card], found: _Listing | None, gained: int
) -> Iterator[Block]:
    """The takes with a group of cards from hand, group by group in ``take_groups`` order: the take alone, and
    before the side has opened the take with further melds (``_take_extras``; and where melds are named, with
    those a shape per rank cannot write). ``found`` and ``gained``: the facts of the listing, if made already."""
    seat = state.to_act
    top_rank = rank_of(state.pile[-1])
    counts = state.hands[seat]
    initial = not state.team_opened[state.side_of[seat]]
    shared: dict[tuple[Card, ...], Combinations] = {}
    refusals: dict[tuple[int, int, int], Clause | None] = {}
    shapes = ShapesWithin(rules, state)
    counting = _SharedTakeCounter(rules, state) if initial and _takes_counted(rules) else None
    plain: list[Action] = []
    for group in take_groups(rules, pool, counts, initial):
        legal, may_help = _take_verdict(rules, state, group, top_rank, refusals)
        if legal is not None:
            plain.append(legal)
        if initial and may_help:
            if found is None:
                found = _Listing(rules, state)
                gained = pile_to_hand(rules, state, seat)[0]
            yield plain
            yield _take_extras(found, group, top_rank, shared, gained)
            if rules.names_melds:
                walk = take_openings_with_extras(rules, state, shapes, group, top_rank)
                yield Walked(walk) if counting is None else CountedWalk(walk, partial(counting.for_base, group))
            plain = []
    yield plain


class _MadeBlocks:
    """Blocks made one after another as they are first reached, each once: a walk of their actions
    (``blocks.Chained``) and a count of them (``_BlocksCounter``) read the same blocks."""

    def __init__(self, making: Iterator[Block]) -> None:
        self._made: list[Block] = []
        self._making: Iterator[Block] | None = making

    def each(self) -> Iterator[Block]:
        """The blocks in order, each made when first reached."""
        place = 0
        while True:
            while self._making is not None and len(self._made) <= place:
                block = next(self._making, None)
                if block is None:
                    self._making = None
                else:
                    self._made.append(block)
            if place >= len(self._made):
                return
            yield self._made[place]
            place += 1


class _BlocksCounter:
    """The actions of ``_MadeBlocks`` counted by their blocks' counts and drawn as ``blocks.Listing.draw`` draws (a
    counted walk among them by its counter): what ``blocks.CountedWalk`` asks of a counter."""

    def __init__(self, made: _MadeBlocks) -> None:
        self.made = made

    def count(self) -> int:
        return sum(block_size(block) for block in self.made.each())

    def draw(self, index: int) -> Action:
        return action_at(self.made.each(), index, drawing=True)


def _takes_counted(rules: Rules) -> bool:
    """Whether the takes with further melds that name melds or lay sequences (``named.take_openings_with_extras``)
    are counted and drawn without walking (``takecount.TakeCounter``): where melds are named and no rank merges its
    groups into one meld."""
    return rules.names_melds and not any(rules.merges_same_rank)


class _SharedTakeCounter:
    """One ``takecount.TakeCounter`` for every take group of a listing, made when a block first counts or draws (a
    first page walks and never needs it)."""

    def __init__(self, rules: Rules, state: HandState) -> None:
        self.rules = rules
        self.state = state
        self._counter: TakeCounter | None = None

    def for_base(self, group: tuple[Card, ...]) -> BaseTakes:
        if self._counter is None:
            self._counter = TakeCounter(self.rules, self.state)
        return self._counter.for_base(group)


def _pool_choices(counts: Sequence[int], pool: Sequence[Card]) -> int:
    """The choices of cards from hand that could meld the pile's top card (one plus the copies of each card of
    ``pool``, multiplied)."""
    choices = 1
    for card in pool:
        choices *= 1 + counts[card]
    return choices


def _takes_by_shape(rules: Rules, counts: Sequence[int], pool: Sequence[Card]) -> bool:
    """Whether a side that has not opened has its takes counted by shape (``_TakeShapes``): where the take groups
    are many, and a structure holds their further melds (twos all of one value; no named melds, which are
    listed take by take)."""
    if rules.twos_value is None or rules.names_melds:
        return False
    return _pool_choices(counts, pool) > TAKE_STRUCTURE_ABOVE[0]


class _TakeShapes:
    """A side's takes before it has opened, judged by shape: a take group's verdict and the number of its takes
    with further melds hang only on its counts of natural, two and joker cards and on the twos it leaves, so each
    is worked out once per such shape (the further melds counted from one structure over the whole hand, see
    ``Combinations.count_from``), and ``blocks.TakeGroups`` puts them in ``take_groups`` order."""

    def __init__(self, rules: Rules, state: HandState, pool: Sequence[Card]) -> None:
        self.rules = rules
        self.state = state
        counts = state.hands[state.to_act]
        self.top_rank = rank_of(state.pile[-1])
        self.naturals: Pool = tuple((c, counts[c]) for c in pool if not rules.is_wild[c])
        self.wilds: Pool = tuple((c, counts[c]) for c in pool if rules.is_wild[c])
        self.twos: Pool = tuple((c, n) for c, n in self.wilds if c != JOKER)
        self.jokers = counts[JOKER] if rules.is_wild[JOKER] else 0
        self._listing: _Listing | None = None
        #: What taking the pile adds to the hand besides the top card (``checks.pile_to_hand``), once ``listing`` ran.
        self.gained = 0
        self._verdicts: dict[tuple[int, int, int], tuple[bool, bool]] = {}
        self._refusals: dict[tuple[int, int, int], Clause | None] = {}
        self._extras: dict[tuple[int, int, int, Pool], int] = {}
        self._further: dict[int, tuple[_RankShape, ...]] | None = None
        self._whole: Combinations | None = None
        self._shared: dict[tuple[Card, ...], Combinations] = {}

    def groups(self) -> TakeGroups:
        return TakeGroups(self.naturals, self.wilds, self.weight, self.group_actions)

    def many_further_melds(self) -> bool:
        """Whether the whole hand offers the further melds enough choices for a structure (as ``_take_extras``
        decides for one take): where it does not, every take's further melds are listed for less than setting a
        structure up, and the plain listing is cheaper."""
        choices = 1
        for shapes in self.further_shapes().values():
            choices *= 1 + len(shapes)
        return choices > STRUCTURE_ABOVE[0]

    def further_shapes(self) -> dict[int, tuple[_RankShape, ...]]:
        """The valid shapes of further melds from the whole hand, by rank (``_further_shapes``)."""
        if self._further is None:
            listing = self.listing()
            self._further = _further_shapes(listing, hand_cards(self.rules, self.state, listing.seat), self.top_rank)
        return self._further

    def listing(self) -> _Listing:
        """The facts of the listing, made when a take could be helped by further melds."""
        if self._listing is None:
            self._listing = _Listing(self.rules, self.state)
            self.gained = pile_to_hand(self.rules, self.state, self.state.to_act)[0]
        return self._listing

    def weight(self, naturals: int, wilds: tuple[Card, ...]) -> int:
        """The legal actions of a take group with ``naturals`` natural cards and the wild cards ``wilds``: the
        take alone, and its takes with further melds."""
        group = _first_group(self.naturals, naturals, wilds)
        alone, may_help = self.verdict(group)
        if not may_help:
            return int(alone)
        twos = sum(1 for c in wilds if c != JOKER)
        jokers = len(wilds) - twos
        twos_left = _alike_pool(without(self.twos, [c for c in wilds if c != JOKER]))
        key = (naturals, twos, jokers, twos_left)
        extras = self._extras.get(key)
        if extras is None:
            whole = self.whole()
            start = _take_start(self.listing(), group, self.top_rank, whole.ranks, self.gained)
            extras = self._extras[key] = whole.count_from(start, twos_left, self.jokers - jokers)
        return int(alone) + extras

    def verdict(self, group: tuple[Card, ...]) -> tuple[bool, bool]:
        """``_take_verdict`` of a take group, once per shape."""
        shape = _group_shape(self.rules, group)
        known = self._verdicts.get(shape)
        if known is None:
            legal, may_help = _take_verdict(self.rules, self.state, group, self.top_rank, self._refusals)
            known = self._verdicts[shape] = (legal is not None, may_help)
        return known

    def group_actions(self, group: tuple[Card, ...]) -> Listing:
        """A take group's actions as the plain listing gives them: the take alone, then with further melds."""
        alone, may_help = self.verdict(group)
        blocks: list[Block] = [(take_with(group),)] if alone else []
        if may_help:
            listing = self.listing()
            blocks.append(_take_extras(listing, group, self.top_rank, self._shared, self.gained))
        return Listing(blocks)

    def whole(self) -> Combinations:
        """The further melds of a take from the whole hand's other ranks and wild cards, from an empty start,
        with caps that hold for every take group: what ``weight`` counts every group's further melds from."""
        if self._whole is None:
            listing = self.listing()
            hand = hand_cards(self.rules, self.state, listing.seat)
            viable = {rank: _shapes_of(rank, found) for rank, found in self.further_shapes().items()}
            held_wilds = tuple(c for c, n in self.wilds for _ in range(n))
            self._whole = _take_family(
                listing, held_wilds, self.top_rank, hand, viable, sorted(viable), every_wild_count=True
            )
        return self._whole


def _alike_pool(pool: Pool) -> Pool:
    """A pool of twos with the same copies as ``pool``, most copies first, whatever the cards: every way of picking
    twos from it is counted alike (the number of ways hangs on the copies alone), so takes that leave different
    twos of the same copies share one count."""
    copies = sorted((n for _, n in pool), reverse=True)
    return tuple((card, n) for card, n in enumerate(copies))


def _first_group(naturals: Pool, count: int, wilds: tuple[Card, ...]) -> tuple[Card, ...]:
    """The first take group (in ``take_groups`` order) with ``count`` of the natural cards ``naturals`` and the wild
    cards ``wilds``: the one judged for every group of its shape."""
    return take_group(submultisets(naturals, count)[0], wilds)


def _group_shape(rules: Rules, group: tuple[Card, ...]) -> tuple[int, int, int]:
    """A take group's natural, two and joker cards, counted."""
    wild = jokers = 0
    for card in group:
        if rules.is_wild[card]:
            wild += 1
            if card == JOKER:
                jokers += 1
    return len(group) - wild, wild - jokers, jokers


def _take_verdict(
    rules: Rules,
    state: HandState,
    group: tuple[Card, ...],
    top_rank: int,
    refusals: dict[tuple[int, int, int], Clause | None],
) -> tuple[Action | None, bool]:
    """The take with the cards of ``group`` from hand alone if it is legal (else None), and whether further melds
    could make it legal (it fails only on the hooks of ``movegen.EXTRAS_MAY_LIFT``). The ``pile.take`` clauses are
    asked once per count of cards, naturals of the top card's rank and wild cards (``refusals``), and the take is
    built and planned only if they allow it."""
    fields = take_card_counts(rules, group, top_rank)
    if fields in refusals:
        refusal = refusals[fields]
    else:
        refusal = refusals[fields] = take_fields_refusal(rules, state, state.to_act, (*fields, 0, 0, 0))
    if refusal is not None:
        return None, False
    base = take_with(group)
    try:
        # The counts asked above are all pile.take reads of a take naming no meld, unless the spec has sequences
        # (then the cards' ranks decide the target fields): only then is it asked again.
        plan_melding(rules, state, base, pile_take_asked=not rules.sequences)
    except IllegalAction as refused:
        return None, rules.variant.clauses[refused.rule_id].hook in EXTRAS_MAY_LIFT
    return base, True


def _take_ok(rules: Rules, state: HandState, action: Action) -> bool:
    return take_refusal(rules, state, state.to_act, action) is None and accepts_melding(
        rules, state, action, pile_take_asked=True
    )


def legal_melds(rules: Rules, state: HandState) -> Block:
    """The legal meld actions of the seat to act (for the binding-answer rule, which asks whether any remain),
    named melds and sequences included where the variant has them."""
    if state.phase != "play":
        return ()
    listing = _Listing(rules, state)
    melds = _melds(rules, state, listing)
    if melds or not rules.names_melds or not listing.action_ok("meld"):
        return melds
    opened = state.team_opened[listing.team]
    return Walked(_melds_only(play_action_walk(rules, state, opened)))


def _melds_only(actions: Iterator[Action]) -> Iterator[Action]:
    """The meld actions of ``actions``, one at a time (a generator function: mypyc would build a generator
    expression whole)."""
    for action in actions:
        if action.kind == "meld":
            yield action


#: A shape's meld: valid keeping two cards or more, valid going out, the kind of canasta it newly makes (an index
#: into ``checks.CanastaKinds``; -1: none), and how it changes the side's melds to complete before going out (a
#: ``checks.Tally``: ``ONE_UNFINISHED`` for a meld it starts, minus that for one it completes; 0 where untracked).
_Verdict = tuple[bool, bool, int, int]


class _Listing:
    """Facts shared by every candidate of one listing, each computed once."""

    def __init__(self, rules: Rules, state: HandState) -> None:
        self.rules = rules
        self.state = state
        self.seat = seat = state.to_act
        self.team = state.side_of[seat]
        self.table = table = table_values(rules, state, seat)
        #: The side's canastas by kind now, as a tally (``checks.Tally``).
        self.tally = side_tally(rules, state, seat)
        #: The cards the player has to play, a foot still face down and bonus cards owed included: what going out
        #: counts down, and what a discard leaves one fewer of.
        self.held = state.cards_held(seat)
        #: The same for a meld or take, which for a side not yet melded is its initial meld, and may earn bonus
        #: cards the player then plays on with (hook bonus_draw.count).
        self.hand_size = self.held + opening_bonus(rules, state, seat)
        #: The same for a take, whose initial meld may earn other bonus cards (``taking_pile``).
        self.take_hand_size = self.held + opening_bonus(rules, state, seat, taking_pile=True)
        # The side's melds that cards join, by rank (None: the cards start a new meld), and their counts packed into
        # one int as a cache key (-1: none; ints hash and compare faster than nested tuples, and fields as wide as
        # the deck keep the keys built on it machine ints when compiled). Two lists indexed by rank: cheaper to
        # read, a rank at a time, than a dict of pairs.
        self._target_melds: list[Meld | None] = [None] * (SEQUENCE_RANK + 1)
        self._target_codes: list[int] = [-1] * (SEQUENCE_RANK + 1)
        merges = rules.merges_same_rank
        bits = rules.meld_count_bits
        for meld in state.melds[self.team]:  # the first open meld of a merging rank is its merge target
            if merges[meld.rank] and not meld.closed and self._target_melds[meld.rank] is None:
                self._target_melds[meld.rank] = meld
                counts = meld.naturals | (meld.wilds | (meld.jokers | meld.size << bits) << bits) << bits
                self._target_codes[meld.rank] = counts
        #: What the sides' canastas make of each rank (dead ranks, an open wild meld), where a clause reads it.
        self.rank_facts = rank_facts(rules, state, seat)
        #: What the meld verdicts of this table are cached on: the table values ``meld.valid`` reads, and the
        #: rank facts where a clause reads them (whole, so that no key is built a rank at a time).
        self.table_key: tuple[object, ...] = tuple(table[i] for i in rules.table_positions_of("meld.valid"))
        if rules.reads_rank_facts:
            self.table_key = (*self.table_key, self.rank_facts)
        self._rank_meld_memo: dict[int, _RankMelds] | None = None

    def rank_meld_memo(self) -> dict[int, _RankMelds] | None:
        """``_rank_melds``'s memo for this table (``table_key``), fetched once a listing; None with coverage on (every
        verdict is judged)."""
        rules = self.rules
        if rules.coverage is not None:
            return None
        if self._rank_meld_memo is None:
            memo: dict[int, _RankMelds] | None = rules.rank_meld_cache.get(self.table_key)
            if memo is None:
                memo = remember(rules.rank_meld_cache, self.table_key, {})
            self._rank_meld_memo = memo
        return self._rank_meld_memo

    def action_ok(self, kind: str) -> bool:
        return kind_refusal(self.rules, self.state, self.seat, kind) is None

    def ending_ok(self, hand_after: int, canastas_after: Tally, discard_pending: bool) -> bool:
        """Going out (if the hand empties) and keeping a card, as plan checks them."""
        return ending_refusal(self.rules, self.state, self.seat, hand_after, canastas_after, discard_pending) is None

    def with_made(self, made: Sequence[int], unfinished: Tally) -> Tally:
        """The side's canastas once it makes those counted by kind in ``made``, its melds to complete changed by
        ``unfinished``."""
        return self.tally + tally_of(made) + unfinished

    def goes_out(self, hand_after: int, canastas_after: Tally) -> bool:
        """Whether melding down to ``hand_after`` cards, the side then having ``canastas_after``, is going out
        (as plan asks)."""
        return goes_out_melding(self.rules, self.state, self.seat, hand_after, canastas_after)

    def target(self, rank: int) -> Meld | None:
        """The side's meld that cards of ``rank`` join, or None."""
        return self._target_melds[rank]

    def target_code(self, rank: int) -> int:
        """The counts of the side's meld that cards of ``rank`` join, packed into one int (-1 for none)."""
        return self._target_codes[rank]

    def verdict(self, rank: int, naturals: int, twos: int, jokers: int, initial: bool) -> _Verdict:
        """Hook ``meld.valid`` on the meld a group of this shape makes, kept and going out (see ``_Verdict``);
        cached per rank, meld joined and table, then per shape."""
        return self.verdict_in(self.verdicts(rank, initial), rank, naturals, twos, jokers, initial)

    def verdicts(self, rank: int, initial: bool) -> dict[tuple[int, int, int], _Verdict] | None:
        """The cache of ``verdict`` for one rank's shapes (None with coverage on: every verdict is judged)."""
        rules = self.rules
        if rules.coverage is not None:
            return None
        key = (rank, self.target_code(rank), initial, self.table_key)
        verdicts: dict[tuple[int, int, int], _Verdict] | None = rules.shape_cache.get(key)
        if verdicts is None:
            verdicts = remember(rules.shape_cache, key, {})
        return verdicts

    def verdict_in(
        self,
        verdicts: dict[tuple[int, int, int], _Verdict] | None,
        rank: int,
        naturals: int,
        twos: int,
        jokers: int,
        initial: bool,
    ) -> _Verdict:
        """``verdict``, given the rank's cache (``verdicts``), for callers that ask of many shapes."""
        if verdicts is None:
            return self._judge(Shape(rank, naturals, twos, jokers), self.target(rank), initial)
        shape = (naturals, twos, jokers)
        known = verdicts.get(shape)
        if known is None:
            known = self._judge(Shape(rank, naturals, twos, jokers), self.target(rank), initial)
            verdicts[shape] = known
        return known

    def _judge(self, shape: Shape, before: Meld | None, opening: bool) -> _Verdict:
        rules = self.rules
        size = shape.naturals + shape.twos + shape.jokers + (before.size if before else 0)
        was_canasta = before is not None and is_canasta(rules, before)
        new_kind = -1
        if not was_canasta and size >= rules.canasta_size[shape.rank]:
            naturals = shape.naturals + (before.naturals if before else 0)
            new_kind = canasta_kind(naturals, size - naturals)
        staying, leaving = (
            rules.failing_of(MELD_VALID, self._shape_values(shape, before, going_out=out, initial=opening)) is None
            for out in (False, True)
        )
        unfinished = _unfinished_change(rules, shape, before) if rules.tracks_must_complete else 0
        return staying, leaving, new_kind, unfinished

    def _shape_values(self, shape: Shape, before: Meld | None, *, going_out: bool, initial: bool) -> tuple[object, ...]:
        """``movegen.shape_values`` with this listing's table and rank facts."""
        rules, table, facts = self.rules, self.table, self.rank_facts
        return shape_values(rules, table, shape, before, facts, going_out=going_out, initial=initial)

    def group_count_ok(self, groups: int, initial: bool) -> bool:
        values = (*self.table, self.state.phase, groups, 0, initial)
        return self.rules.failing_of(MELD_ACTION, values) is None


def _unfinished_change(rules: Rules, shape: Shape, before: Meld | None) -> Tally:
    """How a group of ``shape`` joining ``before`` (or alone) changes the side's melds to complete before going out,
    as a tally (see ``_Verdict``)."""
    size = shape.naturals + shape.twos + shape.jokers
    naturals, jokers = shape.naturals, shape.jokers
    was = 0
    if before is not None:
        size, naturals, jokers = size + before.size, naturals + before.naturals, jokers + before.jokers
        was = unfinished_of(rules, before)
    return unfinished_tally(rules, shape.rank, size, naturals, size - naturals, jokers) - was


#: A valid shape: naturals, twos, jokers, valid keeping two cards or more, valid going out, the kind of canasta it
#: newly makes (-1: none), its change to the melds to complete (see ``_Verdict``).
_RankShape = tuple[int, int, int, bool, bool, int, int]


def _rank_shapes(
    listing: _Listing, rank: int, available: int, twos: int, jokers: int, initial: bool
) -> tuple[_RankShape, ...]:
    """The shapes of one rank that make a valid meld, as (naturals, twos, jokers, valid if keeping two cards or
    more, valid if going out, the kind of canasta it newly makes); cached, since the same rank and counts recur
    from turn to turn."""
    rules = listing.rules
    key = (rank, listing.target_code(rank), available, twos, jokers, initial, listing.table_key)
    known: tuple[_RankShape, ...] | None = rules.rank_shape_cache.get(key) if rules.coverage is None else None
    if known is not None:
        return known
    found: list[_RankShape] = []
    verdicts = listing.verdicts(rank, initial)
    for n in range(available + 1):
        for t in range(twos + 1):
            for j in range(jokers + 1):
                if n + t + j:
                    staying, leaving, new_kind, unfinished = listing.verdict_in(verdicts, rank, n, t, j, initial)
                    if staying or leaving:
                        found.append((n, t, j, staying, leaving, new_kind, unfinished))
    known = remember(rules.rank_shape_cache, key, tuple(found))
    return known


def _single_melds(listing: _Listing, hand: HandCards) -> SingleMelds:
    """Once a side has melded: every single group that lays or extends one meld legally, kept as the valid
    shapes' groups (an action is made only when it is asked for)."""
    state = listing.state
    hand_size = listing.hand_size
    pending = not state.last_card_bonus
    endings: dict[int, bool] = {}
    out = SingleMelds(listing.rules.meld_actions)
    for rank in hand.meld_ranks(state.melds[listing.team]):
        for used, made, staying, leaving, chunk in _rank_melds(listing, hand, rank):
            hand_after = hand_size - used
            canastas_after = listing.tally + made
            going_out = listing.goes_out(1, canastas_after) if hand_after == 1 else hand_after == 0
            if not (leaving if going_out else staying):
                continue
            ending = made * _ENDING_STRIDE + hand_after
            fine = endings.get(ending)
            if fine is None:
                fine = endings[ending] = listing.ending_ok(hand_after, canastas_after, pending)
            if fine:
                out.add(chunk)
    return out


#: More cards than any deck holds: an ending (the cards left, and what the group adds to the side's tally) as one
#: int key, small enough to stay a machine int when compiled.
_ENDING_STRIDE: Final = 1 << 10

#: Per shape: cards used, what it adds to the side's tally (``checks.Tally``: the canasta it newly makes, its change
#: to the melds to complete), valid keeping two cards or more, valid going out, and the groups as
#: ``blocks.SingleMelds`` keeps them (their parts and label, and how many they are). Plain tuples of ints only: the
#: garbage collector stops tracking them, so a large cache does not slow its collections down (named tuples and
#: Actions would stay tracked).
_RankMelds = tuple[tuple[int, int, bool, bool, MeldChunk], ...]


def _rank_melds(listing: _Listing, hand: HandCards, rank: int) -> _RankMelds:
    """The single groups of one rank that make a valid meld, grouped by shape (see ``_RankMelds``): the valid
    shapes filled with the hand's cards. Cached on everything they depend on: the rank, the meld they join, the
    hand's cards of that rank and its wild cards, and the table (``_Listing.table_key``); one look-up a rank is
    what most listings cost, since a hand changes by a card or two between them."""
    rules = listing.rules
    memo = listing.rank_meld_memo()
    key = _rank_meld_key(rules, listing.target_code(rank), hand, rank)
    known: _RankMelds | None = memo.get(key) if memo is not None else None
    if known is None:
        shapes = _rank_shapes(listing, rank, hand.count(rank), hand.twos_total, hand.jokers, False)
        label = rank if rank != JOKER_RANK else None
        known = tuple(
            (
                n + t + j,
                one_canasta(new_kind) + unfinished,
                staying,
                leaving,
                meld_chunk(_parts(hand, rank, n, t, j), label if n == 0 else None),
            )
            for n, t, j, staying, leaving, new_kind, unfinished in shapes
        )
        if memo is not None:
            remember(memo, key, known)
    return known


def _rank_meld_key(rules: Rules, target: int, hand: HandCards, rank: int) -> int:
    """``_rank_melds``'s key within a table's memo, packed into one int (no tuple to build and hash a rank): the
    packed counts of the meld joined plus one (0: none) above the hand's code for the rank, its twos' code, its
    jokers and the rank, each in a field as wide as its largest value (``Rules.hand_key_bits``), so different keys
    never meet."""
    code_bits, twos_bits, joker_bits = rules.hand_key_bits
    key = ((target + 1) << code_bits | hand.codes[rank]) << twos_bits | hand.twos_code
    return ((key << joker_bits | hand.jokers) << _RANK_BITS) | rank


#: Bits that hold a meld's rank (``cards.MELD_RANK_NAMES``: below 32).
_RANK_BITS: Final = 5


def _parts(hand: HandCards, rank: int, n: int, t: int, j: int) -> GroupParts:
    """The groups of ``n`` of the hand's natural cards of ``rank``, ``t`` of its wild cards and ``j`` jokers, as the
    choices of natural and of wild cards whose every pairing is one group (``blocks.SingleMelds`` pairs them only
    for the groups asked for)."""
    return submultisets(hand.naturals[rank], n), submultisets(hand.twos, t), (JOKER,) * j


def _melds(rules: Rules, state: HandState, listing: _Listing) -> Block:
    if not listing.action_ok("meld"):
        return ()
    hand = hand_cards(rules, state, listing.seat)
    if state.team_opened[listing.team]:
        return _single_melds(listing, hand) if listing.group_count_ok(1, False) else ()
    viable: dict[int, list[Shape]] = {}
    for rank in hand.meld_ranks(state.melds[listing.team]):
        found = _rank_shapes(listing, rank, hand.count(rank), hand.twos_total, hand.jokers, True)
        if found:
            viable[rank] = [Shape(rank, n, t, j) for n, t, j, *_ in found]
    in_canonical_order = sorted(viable, key=lambda rank: sort_key(rank * 4 if rank != JOKER_RANK else JOKER))
    if rules.twos_value is not None and _choices(viable) > STRUCTURE_ABOVE[0]:
        return _opening_family(listing, hand, viable, in_canonical_order)
    return list(_openings(listing, hand, viable, in_canonical_order))


def _choices(viable: dict[int, list[Shape]]) -> int:
    """How many choices of at most one shape per rank there are, before the wild cards' limit."""
    total = 1
    for shapes in viable.values():
        total *= 1 + len(shapes)
    return total


def _openings(
    listing: _Listing, hand: HandCards, viable: dict[int, list[Shape]], ranks: Sequence[int]
) -> Iterator[Action]:
    """The legal openings, combination by combination: each choice of shapes is judged as a whole (by
    ``_opening_verdict``, as the structure judges it), then expanded into its cards."""
    rules, state = listing.rules, listing.state
    verdict = _opening_verdict(listing, None)
    for combo in shape_combinations(viable, hand.twos_total, hand.jokers, ranks):
        if not combo or not verdict(_aggregate_of(listing, combo)):
            continue
        if rules.twos_value is None:
            yield from (
                a for a in (Action.meld(g) for g in expand_shapes(hand, combo)) if accepts_melding(rules, state, a)
            )
            continue
        for groups in expand_shapes(hand, combo):
            yield meld_of(groups)


def _option(listing: _Listing, shape: Shape, ways: int, initial: bool) -> Option:
    """A shape as a ``combos.Option``: its counts, ``ways`` to pick its naturals, points, canasta kind, verdicts."""
    rules = listing.rules
    rank, n, t, j = shape
    staying, leaving, kind, unfinished = listing.verdict(rank, n, t, j, initial)
    points = n * rules.card_value[rank * 4] if n else 0
    composition = composition_of(rank, n, t + j) & composition_read(rules) if rules.reads_composition else 0
    return _new_tuple(Option, (n, t, j, ways, points, kind, kind >= 0, staying, leaving, unfinished, composition))


def _options(listing: _Listing, hand: HandCards, shapes: Sequence[Shape], initial: bool) -> list[Option]:
    """The shapes of one rank as ``combos.Option``s."""
    return [_option(listing, s, len(submultisets(hand.naturals[s.rank], s.naturals)), initial) for s in shapes]


def _aggregate_of(listing: _Listing, combo: Sequence[Shape]) -> Aggregate:
    """The exact aggregate of one choice of shapes for an opening from hand (what ``combos.Combinations`` builds
    rank by rank, uncapped), summed in one pass: the plain listing builds one for every choice."""
    used = points = jokers = made = unfinished = composition = 0
    twos: list[int] = []
    kinds = [0, 0, 0]
    staying = leaving = True
    for shape in combo:
        option = _option(listing, shape, 1, True)
        used += option.naturals + option.twos + option.jokers
        points += option.points
        jokers += option.jokers
        if option.twos:
            twos.append(option.twos)
        if option.kind >= 0:
            kinds[option.kind] += 1
        made += option.new_canasta
        unfinished += option.unfinished
        composition |= option.composition
        staying = staying and option.staying
        leaving = leaving and option.leaving
    twos.sort(reverse=True)
    return _new_tuple(
        Aggregate,
        (
            len(combo),
            listing.hand_size - used,
            points,
            tuple(twos),
            jokers,
            (kinds[0], kinds[1], kinds[2]),
            made,
            staying,
            leaving,
            (),
            unfinished,
            composition,
        ),
    )


def _opening_verdict(listing: _Listing, points_cap: int | None) -> Verdict:
    """The verdict on a whole opening from hand, by its aggregate (exact, or capped at ``points_cap`` as the
    structure caps it): the number of groups, every meld valid kept or going out, the ending, and the initial-meld
    hooks (left to the full check of each action where twos differ in value)."""
    rules, state, seat = listing.rules, listing.state, listing.seat
    wild_points = _wild_points(rules)

    def verdict(agg: Aggregate) -> bool:
        if not _opening_shape_ok(listing, agg):
            return False
        if rules.twos_value is None:
            return True
        points = capped(agg.points + sum(agg.twos) * wild_points[0] + agg.jokers * wild_points[1], points_cap)
        made = tally_of(agg.kinds) + agg.unfinished
        return opening_accepted(rules, state, seat, points, made, agg.left, agg.composition)

    return verdict


def _opening_points_verdict(listing: _Listing, points_cap: int | None) -> PointsVerdict:
    """``_opening_verdict`` for several points values at once: the groups, melds and ending judged once, and the
    initial-meld hooks once per points total, canastas, cards left and composition (a few dozen in a big hand,
    where the counting asks thousands of states)."""
    rules, state, seat = listing.rules, listing.state, listing.seat
    wild_points = _wild_points(rules)
    known: dict[tuple[int, int, int, int], bool] = {}

    def verdict(agg: Aggregate, every_points: Sequence[int]) -> list[bool]:
        if not _opening_shape_ok(listing, agg):
            return [False] * len(every_points)
        if rules.twos_value is None:
            return [True] * len(every_points)
        wilds = sum(agg.twos) * wild_points[0] + agg.jokers * wild_points[1]
        made = tally_of(agg.kinds) + agg.unfinished
        answers: list[bool] = []
        for points in every_points:
            key = (capped(points + wilds, points_cap), made, agg.left, agg.composition)
            accepted = known.get(key)
            if accepted is None:
                accepted = known[key] = opening_accepted(rules, state, seat, key[0], made, agg.left, agg.composition)
            answers.append(accepted)
        return answers

    return verdict


def _opening_shape_ok(listing: _Listing, agg: Aggregate) -> bool:
    """The part of ``_opening_verdict`` its points do not decide: the number of groups, every meld valid kept or
    going out, and the ending."""
    if not listing.group_count_ok(agg.groups, True):
        return False
    hand_after = agg.left
    canastas_after = listing.with_made(agg.kinds, agg.unfinished)
    if hand_after == 0:
        ok = agg.leaving
    elif hand_after == 1:  # the last card is discarded going out, or kept (a pass)
        ok = agg.leaving if listing.goes_out(1, canastas_after) else agg.staying
    else:
        ok = agg.staying
    return ok and listing.ending_ok(hand_after, canastas_after, not listing.state.last_card_bonus)


def _opening_family(
    listing: _Listing, hand: HandCards, viable: dict[int, list[Shape]], ranks: Sequence[int]
) -> Combinations:
    """The legal openings as a structure, judged by ``_opening_verdict`` on each choice's capped aggregate."""
    options = [_options(listing, hand, viable[rank], True) for rank in ranks]
    in_options = sum(hand.count(rank) for rank in ranks if rank != JOKER_RANK)
    left = listing.hand_size - in_options - hand.twos_total - hand.jokers
    caps = Caps(
        _groups_cap(lambda g: listing.group_count_ok(g, True), len(ranks)),
        left_cap(listing.rules, not listing.state.last_card_bonus, listing.hand_size),
        _points_cap(listing, options, hand, top_points=0, taking=False),
    )
    verdict = _opening_verdict(listing, caps.points)
    by_points = _opening_points_verdict(listing, caps.points)
    return Combinations(
        hand, ranks, options, left=left, caps=caps, verdict=verdict, build=meld_of, points_verdict=by_points
    )


def _take_extras(
    listing: _Listing,
    group: tuple[Card, ...],
    top_rank: int,
    shared: dict[tuple[Card, ...], Combinations],
    gained: int,
) -> Block:
    """Taking the pile with ``group`` and laying further melds from the rest of the hand (a side's opening):
    listed when the choices are few, else a structure judged on each choice's aggregate as ``plan`` judges it.
    Takes whose groups use the same wild cards share one structure (``shared``), each from its own start."""
    rules, state, seat = listing.rules, listing.state, listing.seat

    def build(groups: tuple[MeldGroup, ...]) -> Action:
        return Action.take(group, groups)

    wilds = tuple(c for c in group if rules.is_wild[c])
    known = shared.get(wilds)
    if known is not None:
        return known.started(_take_start(listing, group, top_rank, known.ranks, gained), build)
    rest = list(state.hands[seat])
    for card in group:
        rest[card] -= 1
    rest_hand = HandCards(rules, tuple(rest))
    viable = _viable(listing, rest_hand, top_rank)
    ranks = sorted(viable)
    if rules.twos_value is None or _choices(viable) <= TAKE_EXTRAS_STRUCTURE_ABOVE[0]:
        listed: list[Action] = []
        for combo in shape_combinations(viable, rest_hand.twos_total, rest_hand.jokers, ranks):
            if combo:
                listed.extend(a for a in map(build, expand_shapes(rest_hand, combo)) if _take_ok(rules, state, a))
        return listed
    core = shared[wilds] = _take_family(listing, wilds, top_rank, rest_hand, viable, ranks)
    return core.started(_take_start(listing, group, top_rank, core.ranks, gained), build)


def _viable(listing: _Listing, hand: HandCards, top_rank: int) -> dict[int, list[Shape]]:
    """The valid shapes of further melds in an opening take, by rank (``_further_shapes``), as ``Shape``s."""
    return {rank: _shapes_of(rank, found) for rank, found in _further_shapes(listing, hand, top_rank).items()}


def _further_shapes(listing: _Listing, hand: HandCards, top_rank: int) -> dict[int, tuple[_RankShape, ...]]:
    """The valid shapes of further melds in an opening take, by rank (``_rank_shapes``): every rank the hand could
    lay but the top card's."""
    further: dict[int, tuple[_RankShape, ...]] = {}
    for rank in hand.meld_ranks(listing.state.melds[listing.team]):
        if rank == top_rank:
            continue
        found = _rank_shapes(listing, rank, hand.count(rank), hand.twos_total, hand.jokers, True)
        if found:
            further[rank] = found
    return further


def _shapes_of(rank: int, found: Sequence[_RankShape]) -> list[Shape]:
    """A rank's valid shapes (``_rank_shapes``) as ``Shape``s."""
    return [Shape(rank, n, t, j) for n, t, j, *_ in found]


def _take_start(
    listing: _Listing, group: tuple[Card, ...], top_rank: int, ranks: Sequence[int], gained: int
) -> Aggregate:
    """Where a take's further melds start from: the top card's meld already laid (its canasta and validity; the
    points of the cards from hand, since the top card's count apart), the cards the take leaves besides those the
    options may use (``gained``: what the rest of the pile adds, ``checks.pile_to_hand``), and its cards from hand
    as ``pile.take`` counts them (the tag the verdict reads)."""
    rules, state, seat = listing.rules, listing.state, listing.seat
    fields = take_card_counts(rules, group, top_rank)
    wilds = fields[2]
    jokers = sum(1 for c in group if c == JOKER)
    naturals = len(group) - wilds + (0 if rules.is_wild[state.pile[-1]] else 1)
    top = _option(listing, Shape(top_rank, naturals, wilds - jokers, jokers), 1, True)
    hand = hand_cards(rules, state, seat)
    in_options = sum(hand.count(rank) for rank in ranks if rank != JOKER_RANK)  # the top card's rank is not one
    left = gained + listing.take_hand_size - len(group) - in_options - (hand.twos_total + hand.jokers - wilds)
    kinds = [0, 0, 0]
    if top.kind >= 0:
        kinds[top.kind] += 1
    points = sum(rules.card_value[c] for c in group)
    return Aggregate(
        0,
        left,
        points,
        (),
        0,
        (kinds[0], kinds[1], kinds[2]),
        int(top.new_canasta),
        top.staying,
        top.leaving,
        fields,
        top.unfinished,
        _take_composition(rules, top, top_rank, len(group) - wilds, wilds),
    )


def _take_composition(rules: Rules, top: Option, top_rank: int, naturals_from_hand: int, wilds: int) -> int:
    """What the top card's meld adds to an opening's composition: the meld as laid, or its cards from hand alone
    where hook initial_meld.composition_from_hand sets the top card aside (as ``checks.opening_composition``)."""
    if not rules.reads_composition or not rules.composition_from_hand:
        return top.composition
    return composition_of(top_rank, naturals_from_hand, wilds) & composition_read(rules)


def _take_family(
    listing: _Listing,
    wilds: tuple[Card, ...],
    top_rank: int,
    rest_hand: HandCards,
    viable: dict[int, list[Shape]],
    ranks: Sequence[int],
    *,
    every_wild_count: bool = False,
) -> Combinations:
    """``_take_extras`` as a structure for every take whose cards from hand use the wild cards ``wilds``: the
    verdict repeats ``checks._plan_take`` on counts (tests compare the two on every action of small hands), with
    the take's own cards in the start state (``_take_start``). With ``every_wild_count``, ``wilds`` are all the
    wild cards held and the caps hold for takes using any number of them (``Combinations.count_from``)."""
    rules, state, seat = listing.rules, listing.state, listing.seat
    top = state.pile[-1]
    wild_points = _wild_points(rules)
    options = [_options(listing, rest_hand, viable[rank], True) for rank in ranks]
    top_points = rules.card_value[top]
    pending = not state.last_card_bonus
    naturals_held = hand_cards(rules, state, seat).count(top_rank)

    def take_allowed(fields: tuple[int, ...], extra_melds: int) -> bool:
        return take_fields_refusal(rules, state, seat, (*fields, extra_melds, 0, 0)) is None

    # Caps that hold for every take of these wild cards: the most natural cards, any kind of top-card canasta.
    wild_counts = range(len(wilds) + 1) if every_wild_count else (len(wilds),)
    every_fields = [(n + w, n, w) for n in range(naturals_held + 1) for w in wild_counts]
    most_base = naturals_held * rules.card_value[top_rank * 4] + sum(rules.card_value[c] for c in wilds)
    caps = Caps(
        max(_groups_cap(partial(take_allowed, fields), len(ranks)) for fields in every_fields),
        left_cap(listing.rules, pending, listing.take_hand_size + len(state.pile)),
        _points_cap(
            listing, options, rest_hand, top_points=top_points, taking=True, base=most_base, extra_kinds=(1, 1, 1)
        ),
    )

    shape_met: dict[tuple[object, ...], bool] = {}

    def shape_ok(agg: Aggregate) -> bool:
        """The part of the verdict its points do not decide, kept by what it reads: ``count_from`` judges each end
        joined to each take's start, thousands of states that differ mostly in their points and wild cards."""
        key = (agg.tag, agg.groups, agg.left, agg.kinds, agg.unfinished, agg.staying, agg.leaving)
        known = shape_met.get(key)
        if known is None:
            known = shape_met[key] = shape_judged(agg)
        return known

    def shape_judged(agg: Aggregate) -> bool:
        """The take's fields, the melds kept or going out, and the ending."""
        if not take_allowed(agg.tag, agg.groups):
            return False
        hand_after = agg.left
        canastas_after = listing.with_made(agg.kinds, agg.unfinished)
        going_out = hand_after == 0 or (hand_after == 1 and goes_out_melding(rules, state, seat, 1, canastas_after))
        if not (agg.leaving if going_out else agg.staying):
            return False
        return listing.ending_ok(hand_after, canastas_after, pending)

    minimum_met: dict[tuple[int, tuple[int, int, int], int], bool] = {}

    def points_ok(agg: Aggregate, points: int) -> bool:
        """The initial-meld minimum of the take made with ``agg``'s melds and ``points`` natural cards' points, kept
        by what the hooks read: a few dozen keys where the counting asks thousands of states."""
        hand_points = capped(points + sum(agg.twos) * wild_points[0] + agg.jokers * wild_points[1], caps.points)
        key = (hand_points, agg.kinds, agg.composition)
        known = minimum_met.get(key)
        if known is None:
            known = minimum_met[key] = minimum_judged(agg, hand_points)
        return known

    def minimum_judged(agg: Aggregate, hand_points: int) -> bool:
        question = InitialQuestion(top_points, CanastaKinds(*agg.kinds), (False, False), True, agg.composition)
        return initial_refusal(rules, state, seat, question, hand_points) is None

    def verdict(agg: Aggregate) -> bool:
        return shape_ok(agg) and points_ok(agg, agg.points)

    def points_verdict(agg: Aggregate, every_points: Sequence[int]) -> list[bool]:
        if not shape_ok(agg):
            return [False] * len(every_points)
        return [points_ok(agg, points) for points in every_points]

    return Combinations(
        rest_hand, ranks, options, left=0, caps=caps, verdict=verdict, build=meld_of, points_verdict=points_verdict
    )


_T = TypeVar("_T")

#: Named tuples built without their Python-level constructor, which costs more than the listing's work on them.
_new_tuple = tuple.__new__


def _wild_points(rules: Rules) -> tuple[int, int]:
    """The points of a non-joker wild card (all alike, where a structure is used) and of a joker."""
    return (rules.twos_value or 0, rules.card_value[JOKER])


def _groups_cap(allowed: Callable[[int], bool], ranks: int) -> int:
    """The number of groups from which ``allowed`` stops changing (at least 1, so no group stays apart)."""
    answers = [allowed(g) for g in range(ranks + 1)]
    return max(1, constant_from(answers))


def _points_cap(
    listing: _Listing,
    options: Sequence[Sequence[Option]],
    hand: HandCards,
    *,
    top_points: int,
    taking: bool,
    base: int = 0,
    extra_kinds: Sequence[int] = (0, 0, 0),
) -> int | None:
    """The points from which the initial-meld verdict stops changing, for every kind of canastas and way of going
    out concealed the hand could give (found by asking the spec of every total the hand can reach); None where
    some card counts negative points, since a capped sum could then fall back."""
    rules, state, seat = listing.rules, listing.state, listing.seat
    wild_points = _wild_points(rules)
    gains = [o.points for opts in options for o in opts] + list(wild_points) + [base]
    if any(g < 0 for g in gains):
        return None
    highest = base + sum(max((o.points for o in opts), default=0) for opts in options)
    highest += hand.twos_total * wild_points[0] + hand.jokers * wild_points[1]
    kinds_read, concealed_read = _initial_meld_reading(rules)
    # The most canastas of each kind the hand could make: one a rank with a shape of that kind (and the top card's);
    # 0 for a kind no clause reads, which cannot change an answer (``Rules.reads``), so that such counts share a cap.
    most = [
        sum(1 for opts in options if any(o.kind == kind for o in opts)) + extra_kinds[kind] if kinds_read[kind] else 0
        for kind in range(3)
    ]
    scores = state.team_scores
    key = (
        "points-cap",
        scores[state.side_of[seat]],
        scores[rules.score_holder[seat]],
        top_points,
        taking,
        highest,
        tuple(most),
    )
    known: int | bool | None = rules.shape_cache.get(key, False)
    if known is not False:
        return known
    concealed = taking or not concealed_read  # the concealed endings asked only where a clause reads them
    flags = ((False, False),) if concealed else ((False, False), (True, False), (False, True))
    every_kinds = [
        CanastaKinds(natural, mixed, wild)
        for natural in range(most[0] + 1)
        for mixed in range(most[1] + 1)
        for wild in range(most[2] + 1)
    ]
    cap = steady_points(
        rules, listing.state, listing.seat, highest, every_kinds, flags, top_points=top_points, taking=taking
    )
    return remember(rules.shape_cache, key, cap)  # type: ignore[no-any-return]


def _initial_meld_reading(rules: Rules) -> tuple[tuple[bool, bool, bool], bool]:
    """Whether the initial-meld clauses read each count of canastas by kind, and either way of going out concealed
    (``checks.initial_meld_reads``): found once a Rules, since every points cap asks."""
    key = ("initial-meld-reading",)
    known: tuple[tuple[bool, bool, bool], bool] | None = rules.shape_cache.get(key)
    if known is None:
        natural, mixed, wild = (initial_meld_reads(rules, name) for name in INITIAL_KIND_VARIABLES)
        concealed = any(initial_meld_reads(rules, name) for name in INITIAL_CONCEALED_VARIABLES)
        known = remember(rules.shape_cache, key, ((natural, mixed, wild), concealed))
    return known


def _discards(rules: Rules, state: HandState, listing: _Listing, melds: Block, named: Walked | None) -> list[Action]:
    """The legal discards, given the legal meld actions (``melds`` of rank groups, ``named`` of named melds and
    sequences): a binding "yes" forbids discarding while one is left."""
    if not listing.action_ok("discard"):
        return []
    hand_after = listing.held - 1
    if not listing.ending_ok(hand_after, listing.tally, False):
        return []
    can_still = (
        state.permission == "yes"
        and hand_after > 0
        and (bool(melds) or (named is not None and any(action.kind == "meld" for action in named)))
    )
    if rules.failing_of(ANSWER_BINDING, (state.permission, hand_after, can_still)) is not None:
        return []
    hand = state.hands[listing.seat]
    preferring = bool(rules.clauses("discard.preferred"))
    if not rules.clauses("discard.allowed") and not preferring:
        return [DISCARDS[card] for card in range(CARD_TYPES) if hand[card]]
    facts = listing.rank_facts
    allowed = _per_card(rules, "allowed", _allowed, listing.table, hand_after, facts)
    if preferring:
        standings = _per_card(rules, "standing", _standing, listing.table, hand_after, facts)
        best = max((standings[card] for card in range(CARD_TYPES) if hand[card] and allowed[card]), default=0)
        allowed = tuple(allowed[card] and standings[card] == best for card in range(CARD_TYPES))
    return [DISCARDS[card] for card in range(CARD_TYPES) if hand[card] and allowed[card]]


def _allowed(rules: Rules, values: tuple[Any, ...]) -> bool:
    """Whether ``discard.allowed`` lets a card go."""
    return rules.failing_of(DISCARD_ALLOWED, values) is None


def _standing(rules: Rules, values: tuple[Any, ...]) -> int:
    """A card's standing by ``discard.preferred`` (``checks.discard_standing``)."""
    return discard_standing(rules, rules.clauses("discard.preferred"), values)


def _per_card(
    rules: Rules,
    name: str,
    judge: Callable[[Rules, tuple[Any, ...]], _T],
    table: tuple[Any, ...],
    hand_after: int,
    facts: RankFacts,
) -> tuple[_T, ...]:
    """``judge`` (``_allowed`` or ``_standing``) of every card type at once, kept for the table values the discard
    hooks read, the cards left and the ranks with a canasta (in Classic, the same few tables all game). With
    coverage on, every clause is asked each time."""
    if rules.coverage is not None:
        return tuple(judge(rules, discard_values(rules, table, card, hand_after, facts)) for card in range(CARD_TYPES))
    positions = rules.table_positions_of("discard.allowed") + rules.table_positions_of("discard.preferred")
    key = ("discard", name, tuple(table[i] for i in positions), hand_after, facts.any_canastas)
    known: tuple[_T, ...] | None = rules.shape_cache.get(key)
    if known is None:
        known = remember(
            rules.shape_cache,
            key,
            tuple(judge(rules, discard_values(rules, table, card, hand_after, facts)) for card in range(CARD_TYPES)),
        )
    return known
