"""The listing, built by the core, in parts that are each proved against the Python listing (``proof.py``).

The parts: the discards' verdicts card by card (hooks ``discard.allowed``, ``discard.preferred``); one rank's
valid meld shapes with how many groups of cards make each (hook ``meld.valid``, as ``legal._rank_shapes`` finds
them); the legal single melds of a side that has opened (``legal._single_melds``); the openings of a side that has
not opened (``native/openings.c``) and its takes of the pile (``native/takes.c``), each given the side's initial
minimum; and, from these, the whole listing of the positions the core covers (``NativeListing``: answering,
keeping a bonus card, the draw phase and play), read from the core's position alone, its turn's flags included.
Every rule question is asked through the core's memo with its key built in C (``memo.py``), Python asked only on a
miss. A mechanism the core lacks (named melds and sequences, special hands, melds to complete) is declined by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import islice
from operator import itemgetter
from typing import Any, Final, overload

from ..engine.actions import TAKE, Action, MeldGroup, group_of, meld_of, take_with
from ..engine.blocks import Block, Listing, SingleMelds, TakeGroups, meld_chunk
from ..engine.cards import JOKER, JOKER_RANK, SORT_ORDER, Card
from ..engine.checks import _ACTION_ALLOWED as ACTION_ALLOWED  # the engine's own questions, asked as it asks them
from ..engine.checks import _ASK as ASK_ALLOWED
from ..engine.checks import _CONCEALED as CONCEALED
from ..engine.checks import _COUNT as INITIAL_COUNT
from ..engine.checks import _DRAW_ALLOWED as DRAW_ALLOWED
from ..engine.checks import _GO_OUT_ALLOWED as GO_OUT_ALLOWED
from ..engine.checks import _INITIAL_VALID as INITIAL_VALID
from ..engine.checks import _KEEP_CARD as KEEP_CARD
from ..engine.checks import _MUST_TAKE as MUST_TAKE
from ..engine.checks import _PASS as PASS_ALLOWED
from ..engine.checks import _PILE_FROZEN as PILE_FROZEN
from ..engine.checks import _PILE_TAKE as PILE_TAKE
from ..engine.checks import _TAKE_APART as TAKE_APART
from ..engine.checks import _TOP_ONLY as TOP_ONLY
from ..engine.checks import (
    ANSWER_BINDING,
    BONUS_REPLACE,
    DISCARD_ALLOWED,
    DISCARD_PREFERRED,
    MELD_ACTION,
    MELD_VALID,
    kind_refusal,
    table_values,
)
from ..engine.hooks import TABLE_VARIABLES
from ..engine.legal import ANSWERS, ASK, DISCARDS, DRAW, END, LAYOUT, PASS
from ..engine.movegen import HandCards, Shape, expand_shapes, submultisets, take_pool, without
from ..engine.rules import QUESTIONS, Rules
from ..engine.state import HandState
from . import LIBRARY, PERMISSIONS, PHASES, CoreUnavailable, decline_reason
from .memo import NativeQuestion

_FAILING = QUESTIONS.index("failing")
_PREDICATE = QUESTIONS.index("predicate")
_VALUE = QUESTIONS.index("value")


class NativeDiscards:
    """The card types a seat may discard, by the spec's discard hooks, found by the core."""

    def __init__(self, rules: Rules) -> None:
        self.allowed = NativeQuestion(rules, DISCARD_ALLOWED, _FAILING).built_natively(("hand_after",))
        self.preferences = rules.clauses("discard.preferred")
        self.preferred: NativeQuestion | None = None
        if self.preferences:
            self.preferred = NativeQuestion(rules, DISCARD_PREFERRED, _FAILING, self._standing)
            self.preferred.built_natively(("hand_after",))

    def _standing(self, hook: str, values: dict[str, Any]) -> int:
        """How well a discard stands (``checks.discard_standing``): the place of the first ``discard.preferred``
        clause that passes it over, or the number of clauses if none does."""
        passed_over = self.allowed.rules.failing(hook, values)
        return len(self.preferences) if passed_over is None else self.preferences.index(passed_over)

    def of(self, position: Any, seat: int, hand_after: int) -> tuple[int, ...]:
        """The card types ``seat`` may discard from ``position``, leaving ``hand_after`` cards to play."""
        preferred = None if self.preferred is None else self.preferred.memo
        discards: tuple[int, ...] = position.discards(seat, hand_after, self.allowed.memo, preferred)
        return discards


#: The values of the meld a shape makes that ``meld.valid`` reads besides the table's, in its order
#: (``movegen.shape_values``): the core builds them in the order of its SHAPE_VALUES, checked equal.
SHAPE_ARGUMENTS: Final = MELD_VALID.names[len(TABLE_VARIABLES) :]

#: A valid shape of one rank as the core gives it: naturals, wild cards, jokers, valid keeping cards, valid going
#: out, the kind of canasta it newly makes (-1: none), and how many different groups of the hand's cards make it.
NativeShape = tuple[int, int, int, bool, bool, int, int]


def rank_shapes_missing(rules: Rules) -> str | None:
    """The mechanism the core's shapes lack for ``rules``, in words, or None when it has them all."""
    if rules.tracks_must_complete:
        return "melds that must be completed before going out (hook meld.must_complete)"
    return None


class NativeRankShapes:
    """One rank's valid meld shapes for a seat, judged by the core (hook ``meld.valid`` through its memo)."""

    def __init__(self, rules: Rules) -> None:
        missing = rank_shapes_missing(rules)
        if LIBRARY is not None and tuple(LIBRARY.SHAPE_VALUES) != SHAPE_ARGUMENTS:
            missing = f"meld.valid's values as the engine passes them ({', '.join(SHAPE_ARGUMENTS)})"
        if missing is not None:
            raise CoreUnavailable(f"the native core does not have {missing}; {rules.variant.id} needs them")
        self.valid = NativeQuestion(rules, MELD_VALID, _FAILING).built_natively(SHAPE_ARGUMENTS)
        self.merging = sum(1 << rank for rank, merges in enumerate(rules.merges_same_rank) if merges)
        encoding = self.valid.encoding
        self.kind_codes = (encoding.word_code("kind", "group"), encoding.word_code("kind", "wild"))

    def of(self, position: Any, seat: int, rank: int, initial: bool) -> list[NativeShape]:
        """The shapes of ``rank`` that make a valid meld for ``seat``, in the Python listing's order."""
        group, wild = self.kind_codes
        shapes: list[NativeShape] = position.rank_shapes(
            seat, rank, initial, self.valid.memo, self.merging, group, wild
        )
        return shapes


#: A legal single meld's shape as the core gives it: rank, natural cards, other wild cards, jokers, and how many
#: different groups of the hand's cards make it (each a meld action of the listing).
SingleMeldShape = tuple[int, int, int, int, int]
#: The kinds of action the listing of play asks hook action.allowed about, in ``_core.c``'s PLAY_KINDS order.
_PLAY_KINDS: Final = ("ask", "meld", "discard", "pass", "end")
#: go_out.keep_card's values, all the caller's: the core passes them in this order.
_KEEP_CARD_ARGUMENTS: Final = ("hand_after", "discard_pending", "may_go_out")


class NativeSingleMelds:
    """The single-group melds of a side that has opened (``legal._single_melds``), found by the core: its shapes
    of every rank (``NativeRankShapes``) that end the turn legally (hooks go_out.allowed, go_out.keep_card)."""

    def __init__(self, rules: Rules) -> None:
        self.shapes = NativeRankShapes(rules)
        self.go_out = NativeQuestion(rules, GO_OUT_ALLOWED, _FAILING).built_natively(
            GO_OUT_ALLOWED.names[len(TABLE_VARIABLES) :]
        )
        self.keep_card = NativeQuestion(rules, KEEP_CARD, _FAILING).built_natively(_KEEP_CARD_ARGUMENTS)
        self.pass_refused = "pass" in rules.refused_kinds

    def of(self, position: Any, state: HandState) -> list[SingleMeldShape]:
        """The legal single melds of the seat to act in ``state`` (its side opened), loaded in ``position``, this part
        alone: the turn's flags it reads (the partner's permission, a discard pending) and the cards the player has
        to play are given from ``state`` (the whole listing, ``NativePlayListing``, reads them from the position)."""
        seat = state.to_act
        found: list[SingleMeldShape] = position.single_melds(
            seat, state.cards_held(seat), *self.shape_arguments(), self.ending(state)
        )
        return found

    def shape_arguments(self) -> tuple[Any, ...]:
        """What the core's shapes are asked with: meld.valid's memo, the ranks that merge, the codes of its kinds."""
        shapes = self.shapes
        return (shapes.valid.memo, shapes.merging, *shapes.kind_codes)

    def ending(self, state: HandState) -> tuple[Any, ...]:
        """How a turn may end, for the core: go_out.allowed's and go_out.keep_card's memos, and the turn's flags
        they read (the partner's permission, a discard pending) with whether passing is refused outright."""
        permission = self.go_out.encoding.word_code("permission", state.permission)
        return (self.go_out.memo, self.keep_card.memo, permission, not state.last_card_bonus, self.pass_refused)


def single_melds_open(rules: Rules, state: HandState) -> bool:
    """Whether the listing lists single melds here (the gate the Python listing keeps): in play, the side opened,
    melding and one group allowed (hooks action.allowed, meld.action)."""
    seat = state.to_act
    if state.phase != "play" or not state.team_opened[state.side_of[seat]]:
        return False
    one_group = (*table_values(rules, state, seat), state.phase, 1, 0, False)
    return kind_refusal(rules, state, seat, "meld") is None and rules.failing_of(MELD_ACTION, one_group) is None


def play_listing_missing(rules: Rules) -> str | None:
    """The mechanism the core's listing of play (a side that has opened) lacks for ``rules``, in words, or None."""
    missing = rank_shapes_missing(rules)
    if missing is None and rules.names_melds:
        missing = "melds an action names (sequences, or two melds of one rank: hook meld.merge_same_rank)"
    if missing is None and rules.special_hands:
        missing = "special hands (hook special_hand.shape)"
    return missing


class NativePlayListing:
    """The legal actions of a player in play whose side has opened, in the reference's order: asking, the melds
    (``NativeSingleMelds``, each shape's groups expanded only when asked for, as ``blocks.SingleMelds`` does), the
    discards (``NativeDiscards``), passing, ending. The core finds them in one call, gates included (hooks
    action.allowed, go_out.ask, meld.action, turn.pass, go_out.answer_binding through its memo); the turn's flags
    the gates read (the phase, the partner's permission, asked or melded this turn, a discard pending, the cards the
    player has to play) are given from ``state`` until the core's position holds them."""

    def __init__(self, rules: Rules) -> None:
        missing = play_listing_missing(rules)
        if missing is not None:
            raise CoreUnavailable(f"the native core does not have {missing}; {rules.variant.id} needs them")
        self.rules = rules
        self.melds = NativeSingleMelds(rules)
        self.discards = NativeDiscards(rules)
        self.allowed = native_action_allowed(rules)
        self.gates = tuple(
            NativeQuestion(rules, query, _FAILING).built_natively(arguments)
            for query, arguments in (
                (ASK_ALLOWED, ASK_ALLOWED.names[len(TABLE_VARIABLES) :]),
                (MELD_ACTION, MELD_ACTION.names[len(TABLE_VARIABLES) :]),
                (PASS_ALLOWED, PASS_ALLOWED.names[len(TABLE_VARIABLES) :]),
                (ANSWER_BINDING, ANSWER_BINDING.names),
            )
        )
        self.kind_codes = tuple(self.allowed.encoding.word_code("kind", kind) for kind in _PLAY_KINDS)
        self.memos = (self.allowed.memo, *(gate.memo for gate in self.gates))
        self.codes = self._codes()
        self.context = self.bind()

    def bind(self) -> Any:
        """What every listing of the variant asks with, handed to the core once (``_core.ListingContext``): the
        memos, the codes of their words, the discard actions; a call then passes the position alone."""
        return bound_context(self.melds, play=self.play_part())

    def play_part(self) -> tuple[Any, ...]:
        """The play part of a ``ListingContext``: the gates' memos and codes, the discards' memos and actions."""
        discards = self.discards
        preferred = None if discards.preferred is None else discards.preferred.memo
        return (self.memos, self.codes, discards.allowed.memo, preferred, DISCARDS)

    def of(self, position: Any) -> Listing:
        """The listing of the seat to act in ``position`` (in play, its side opened; loaded by ``core.load_state``,
        its turn's flags included): one call of the core, then the actions as the reference's blocks hold them, the
        melds' groups put together only when asked for (``NativeMelds``)."""
        may_ask, shapes, discards, may_pass, may_end = position.play_listing(self.context)
        melds = [NativeMelds(self.rules, position.hand(), shapes)] if shapes else []
        return play_blocks(may_ask, melds, discards, may_pass, may_end)

    def _codes(self) -> tuple[int, ...]:
        """The codes of the gates' words as each gate's memo codes them, in the order ``_core.c``'s ``read_gates``
        takes them: the kinds, each gate's phases (``core.PHASES``), go_out.allowed's and go_out.answer_binding's
        permissions (``core.PERMISSIONS``), then whether passing is refused outright."""
        ask, meld_action, passing, binding = (gate.encoding for gate in self.gates)
        phased = (self.allowed.encoding, ask, meld_action, passing)
        out = self.melds.go_out.encoding
        return (
            *self.kind_codes,
            *(encoding.word_code("phase", phase) for encoding in phased for phase in PHASES),
            *(out.word_code("permission", permission) for permission in PERMISSIONS),
            *(binding.word_code("permission", permission) for permission in PERMISSIONS),
            "pass" in self.rules.refused_kinds,
        )


class CountedBlock(Sequence[Action]):
    """A block of the listing whose actions the core counts, each made only when asked for (``_at``), a slice or
    a walk making them in order (``__iter__``)."""

    __slots__ = ("_total",)
    _total: int

    def __len__(self) -> int:
        return self._total

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return list(self)[index] if isinstance(index, slice) else self._at(index)

    def _at(self, index: int) -> Action:
        raise NotImplementedError


def play_blocks(
    may_ask: bool, melds: Sequence[CountedBlock], discards: list[Action], may_pass: bool, may_end: bool
) -> Listing:
    """A listing of play as the core finds it, in the reference's order: asking, the melds (a block, or openings
    past what one block holds in several), the discards, passing, ending."""
    blocks: list[Block] = [(ASK,)] if may_ask else []
    blocks.extend(melds)
    blocks.append(discards)
    if may_pass:
        blocks.append((PASS,))
    if may_end:
        blocks.append((END,))
    return Listing(blocks)


def openings_missing(rules: Rules) -> str | None:
    """The mechanism the core's count of openings lacks for ``rules``, in words, or None: what its listing of play
    lacks, or wild cards of different values (the reference then judges each opening whole, its cards included)."""
    missing = play_listing_missing(rules)
    if missing is None and rules.twos_value is None:
        missing = "wild cards of different values (each opening judged by its cards: movegen.accepts_melding)"
    return missing


def _too_many_wilds(rules: Rules, position: Any) -> str | None:
    """Why the core's counting of openings declines the seat to act's hand, or None: more wild cards in it than the
    counting tracks by group size (``_core.OPENING_MOST_TWOS``)."""
    held = position.hand()
    wilds = sum(held[card] for card in rules.wild_cards if card != JOKER)
    most: int = LIBRARY.OPENING_MOST_TWOS if LIBRARY is not None else 0
    return None if wilds <= most else f"openings with more than {most} wild cards other than jokers in one hand"


def initial_meld_questions(rules: Rules) -> tuple[Any, ...]:
    """What the core's counting of an opening asks the initial meld with, as ``_core.c``'s
    ``read_opening_questions`` takes it: the memos of initial_meld.count, initial_meld.valid and go_out.concealed
    (each keeping its question alive), a wild card's points, a joker's, and whether a clause reads what the melds
    are made of."""
    count = NativeQuestion(rules, INITIAL_COUNT, _VALUE).built_natively(INITIAL_COUNT.names)
    valid = NativeQuestion(rules, INITIAL_VALID, _FAILING).built_natively(INITIAL_VALID.names)
    concealed = NativeQuestion(rules, CONCEALED, _PREDICATE).built_natively(CONCEALED.names)
    memos = (count.memo, valid.memo, concealed.memo)
    return (*memos, rules.twos_value or 0, rules.card_value[JOKER], rules.reads_composition)


class NativeOpeningCount:
    """How many openings a player in play whose side has not opened may lay (the reference's meld block, whole
    choices of shapes judged on their aggregate: ``legal._openings`` / ``legal._opening_family``), counted by the
    core rank by rank from its position without building them, every rule question through its memo (hooks
    action.allowed, meld.valid, meld.action, go_out.allowed, go_out.keep_card, initial_meld.count,
    initial_meld.valid, go_out.concealed). The side's minimum (hook initial_meld.minimum, which reads the scores
    the core's position does not hold) is the caller's."""

    def __init__(self, play: NativePlayListing) -> None:
        rules = play.rules
        missing = openings_missing(rules)
        if missing is not None:
            raise CoreUnavailable(f"the native core does not have {missing}; {rules.variant.id} needs them")
        self.rules = rules
        self.context = play.context
        self.questions = initial_meld_questions(rules)

    def declined(self, position: Any) -> str | None:
        """Why the core does not count the openings of the seat to act in ``position``, or None: more wild cards in
        one hand than its counting tracks by group size (``_core.OPENING_MOST_TWOS``)."""
        return _too_many_wilds(self.rules, position)

    def past_count(self, position: Any, minimum: int) -> str | None:
        """``PAST_COUNT_BITS`` where the core cannot count the seat to act's openings, else None."""
        return _past_count_bits(self.count, position, minimum)

    def count(self, position: Any, minimum: int) -> int:
        """The openings of the seat to act in ``position`` (in play, its side not opened; ``core.load_state``),
        its side's initial meld needing ``minimum`` points (``checks.initial_minimum``)."""
        found: int = position.opening_count(self.context, self.questions, minimum)
        return found

    def of(self, position: Any, minimum: int) -> Listing:
        """The whole listing of the seat to act in ``position`` (in play, its side not opened) in the reference's
        order: asking, the openings (``NativeOpenings``), the discards, passing, ending; one call of the core."""
        may_ask, (count, kept), discards, may_pass, may_end = position.opening_listing(
            self.context, self.questions, minimum
        )
        return play_blocks(
            may_ask, native_openings(self.rules, position.hand(), count, kept), discards, may_pass, may_end
        )


class NativeOpenings(CountedBlock):
    """The core's openings of a side that has not opened as a block of the listing: counted by the core, which keeps
    its counting (``kept``), an action made only when asked for: the core finds its choice of shapes and its place
    among that choice's actions, which ``movegen.expand_shapes`` then makes from the hand as it was listed, as the
    reference does."""

    __slots__ = ("_first", "_hand", "_kept")

    def __init__(self, hand: HandCards, first: int, total: int, kept: Any) -> None:
        self._first = first  # the block's first opening among the listing's kept openings
        self._total = total
        self._kept = kept
        self._hand = hand

    def _at(self, index: int) -> Action:
        if not -self._total <= index < self._total:
            raise IndexError(f"opening {index} of {self._total}")
        shapes, place = _opening_at(self._kept, self._first + index % self._total)
        return meld_of(_expansion_at(self._hand, shapes, place))

    def __iter__(self) -> Iterator[Action]:
        walk = _walked(self._first + self._total, partial(_opening_at, self._kept), self._hand, self._first)
        return map(meld_of, islice(walk, self._total))


#: The most actions one block of a listing holds: the listing measures a block by ``len()``, which stops at
#: ``sys.maxsize``, so openings past it (a hand of 60 cards has ~4e19), and a take shape's further melds past it,
#: are split into consecutive blocks.
_BLOCK_MOST: Final = 2**62


def native_openings(rules: Rules, held: Sequence[int], count: int, kept: Any) -> list[NativeOpenings]:
    """The ``count`` openings of a listing's ``kept`` openings, from the hand ``held``, as blocks of at most
    ``_BLOCK_MOST`` each, in order."""
    hand = HandCards(rules, tuple(held))
    return [
        NativeOpenings(hand, first, min(_BLOCK_MOST, count - first), kept) for first in range(0, count, _BLOCK_MOST)
    ]


def _opening_at(kept: Any, index: int) -> tuple[list[tuple[int, int, int, int]], int]:
    """The core's choice of shapes of the ``index``-th of a listing's kept openings and its place among them."""
    assert LIBRARY is not None  # a listing's kept openings come from the library
    found: tuple[list[tuple[int, int, int, int]], int] = LIBRARY.opening_at(kept, index)
    return found


#: A choice of shapes as the core gives it: (rank, natural cards, other wild cards, jokers) a shape.
CoreShapes = Sequence[tuple[int, int, int, int]]
#: Below this many actions a choice of shapes is expanded whole (``movegen.expand_shapes``, cheapest per action);
#: above, one action at a time from its place, so a first page of a choice of millions makes a page.
_EXPANDED_WHOLE: Final = 256


def _expanded(hand: HandCards, shapes: CoreShapes) -> list[tuple[MeldGroup, ...]]:
    """The groups of every action of one choice of ``shapes`` from ``hand``, as the reference makes them."""
    return expand_shapes(hand, [Shape(*shape) for shape in shapes])


def _walked(
    total: int, choice_at: Callable[[int], tuple[list[tuple[int, int, int, int]], int]], hand: HandCards, start: int = 0
) -> Iterator[tuple[MeldGroup, ...]]:
    """The ``total`` actions of a counted block one choice of shapes at a time, in order: each choice found by the
    index of its first action (``choice_at``: its shapes and that action's place among them) and made from
    ``hand`` when reached, from that place on (``_expansions_from``), so a first page of a block of billions makes
    a page, not a list of every choice nor every action of one; from action ``start`` where it is given."""
    index = start
    while index < total:
        shapes, place = choice_at(index)
        size = _choice_size(hand, shapes, hand.twos)
        if size <= _EXPANDED_WHOLE:
            yield from _expanded(hand, shapes)[place:]
        else:
            yield from _expansions_from(hand, shapes, hand.twos, place)
        index += size - place


def _choice_size(hand: HandCards, shapes: CoreShapes, pool: tuple[tuple[Card, int], ...]) -> int:
    """How many actions one choice of ``shapes`` makes from ``hand``, its wild cards drawn from ``pool``: the ways
    to pick each shape's natural cards times the ways to pick every shape's wild cards in turn."""
    size = _twos_ways(pool, tuple(sorted((twos for _, _, twos, _ in shapes if twos), reverse=True)))
    for rank, naturals, _, _ in shapes:
        size *= len(submultisets(hand.naturals[rank], naturals))
    return size


#: ``_twos_ways`` kept by its arguments: a few pools and sizes recur in a hand's openings.
_TWOS_WAYS: dict[tuple[tuple[tuple[Card, int], ...], tuple[int, ...]], int] = {}


def _twos_ways(pool: tuple[tuple[Card, int], ...], sizes: tuple[int, ...]) -> int:
    """How many ways groups of ``sizes`` wild cards take them from ``pool`` one after another (the same in any
    order of the sizes: ``combos.Combinations._twos_ways``)."""
    if not sizes:
        return 1
    key = (pool, sizes)
    known = _TWOS_WAYS.get(key)
    if known is None:
        known = sum(_twos_ways(without(pool, picked), sizes[1:]) for picked in submultisets(pool, sizes[0]))
        if len(_TWOS_WAYS) > 4096:
            _TWOS_WAYS.clear()
        _TWOS_WAYS[key] = known
    return known


def _expansions_from(
    hand: HandCards, shapes: CoreShapes, pool: tuple[tuple[Card, int], ...], skip: int
) -> Iterator[tuple[MeldGroup, ...]]:
    """The actions of one choice of ``shapes`` in ``movegen.expand_shapes`` order, from its ``skip``-th on: each
    shape's natural cards, then its wild cards from ``pool``, then the rest; a run of actions before ``skip`` is
    passed over by its size, not made."""
    if not shapes:
        if skip == 0:
            yield ()
        return
    (rank, naturals, twos, jokers), rest = shapes[0], shapes[1:]
    label = rank if naturals == 0 and rank != JOKER_RANK else None
    for natural in submultisets(hand.naturals[rank], naturals):
        for wild in submultisets(pool, twos) if twos else ((),):
            after = without(pool, wild) if twos else pool
            size = _choice_size(hand, rest, after)
            if skip >= size:
                skip -= size
                continue
            group = group_of(natural + wild + (JOKER,) * jokers, label)
            for tail in _expansions_from(hand, rest, after, skip):
                yield (group, *tail)
            skip = 0


def _expansion_at(hand: HandCards, shapes: CoreShapes, place: int) -> tuple[MeldGroup, ...]:
    """The ``place``-th action of one choice of ``shapes`` from ``hand`` (``_expanded(hand, shapes)[place]``),
    made alone: a choice of a big hand makes millions."""
    found = next(_expansions_from(hand, shapes, hand.twos, place), None)
    if found is None:
        raise IndexError(f"action {place} of a choice of {_choice_size(hand, shapes, hand.twos)}")
    return found


#: How many groups of cards make a shape (``SingleMeldShape``'s last value).
_WAYS: Final = itemgetter(4)


class NativeMelds(CountedBlock):
    """The core's legal single melds as a block of the listing: counted from each shape's number of groups, and
    put together as the reference's ``blocks.SingleMelds`` holds them (its groups in its order) only when an action
    of the block is asked for, as the reference keeps its shapes' groups until then."""

    __slots__ = ("_held", "_melds", "_rules", "_shapes")

    def __init__(self, rules: Rules, held: Sequence[int], shapes: list[SingleMeldShape]) -> None:
        self._rules = rules
        self._held = held
        self._shapes = shapes
        self._total: int = sum(map(_WAYS, shapes))
        self._melds: SingleMelds | None = None

    def _at(self, index: int) -> Action:
        return self._expanded()[index]

    def __iter__(self) -> Iterator[Action]:
        return iter(self._expanded())

    def _expanded(self) -> SingleMelds:
        """The block's groups, each shape's as the reference fills them, made at the first action asked for."""
        if self._melds is None:
            self._melds = self._groups()
        return self._melds

    def _groups(self) -> SingleMelds:
        rules, held = self._rules, self._held
        found = SingleMelds(rules.meld_actions)
        wilds = tuple((card, held[card]) for card in rules.wild_cards if card != JOKER and held[card])
        for rank, naturals, twos, jokers, _ways in self._shapes:
            pool = tuple((card, held[card]) for card in rules.natural_cards[rank] if held[card])  # as HandCards sorts
            parts = (submultisets(pool, naturals), submultisets(wilds, twos), (JOKER,) * jokers)
            label = rank if naturals == 0 and rank != JOKER_RANK else None
            found.add(meld_chunk(parts, label))
        return found


def bound_context(
    melds: NativeSingleMelds, play: tuple[Any, ...] | None = None, draw: tuple[Any, ...] | None = None
) -> Any:
    """A ``_core.ListingContext``: the shapes' and the turn's ending questions of ``melds``, with the part of the
    listing of play or of the draw phase given."""
    if LIBRARY is None:
        raise CoreUnavailable(decline_reason(melds.shapes.valid.rules))
    return LIBRARY.ListingContext(
        *melds.shape_arguments(), melds.go_out.memo, melds.keep_card.memo, play=play, draw=draw
    )


def native_action_allowed(rules: Rules) -> NativeQuestion:
    """Hook action.allowed asked by the core (every variable built natively), its answers kept in its memo."""
    return NativeQuestion(rules, ACTION_ALLOWED, _FAILING).built_natively(ACTION_ALLOWED.names)


def draw_listing_missing(rules: Rules) -> str | None:
    """The mechanism the core's listing of the draw phase (a side that has opened) lacks for ``rules``, in words, or
    None: what its play listing lacks (named melds and sequences, special hands, melds to complete), or cards the
    spec sorts otherwise than the core's pool of a take reads them (natural: neither wild nor a bonus card)."""
    missing = play_listing_missing(rules)
    natural = all(
        (rules.hand_kind[card] == 1) == (not rules.is_wild[card] and not rules.is_bonus[card])
        for card in range(len(rules.is_wild))
    )
    if missing is None and not natural:
        missing = "natural cards other than those neither wild nor bonus cards (movegen.take_pool)"
    return missing


#: The values of pile.take besides the table's: the core builds them in the order of its TAKE_VALUES, checked equal.
TAKE_ARGUMENTS: Final = PILE_TAKE.names[len(TABLE_VARIABLES) :]
#: Why the core does not list the draw phase of a side that has not opened where pile.take lets it take the pile and
#: its caller gives no minimum: hook initial_meld.minimum reads the scores, which the core's position does not hold.
OPENING_TAKES: Final = "the takes of a side that has not opened, its opening's minimum counted with the take"
#: Why the core does not list the play of a side that has not opened where its caller gives no minimum: hook
#: initial_meld.minimum reads the scores, which the core's position does not hold.
OPENINGS_WITHOUT_MINIMUM: Final = "the openings of a side that has not opened"
#: Why the core does not list a side that has not opened whose actions it counts past what its count holds: 128
#: bits (``_core.COUNT_BITS``; 64 where its compiler has no 128-bit integers, and there a hand of 60 cards passes
#: it). The Python engine, counting without a bound, lists it.
PAST_COUNT_BITS: Final = "more actions than the core's count holds"
#: The values of the top card's hooks besides the table's (``checks._top_card_values``).
_TOP_CARD_ARGUMENTS: Final = ("frozen", "top_matches_team_meld")


class NativeDrawListing:
    """The legal actions of a player in the draw phase, in the reference's order (``legal._draw_phase``): drawing,
    then, its side opened, the takes of the pile (the top card alone, then with each pair of cards from hand that
    melds it), found by the core in one call from its position (hooks action.allowed, draw.allowed,
    stock_empty.must_take, pile.frozen, pile.take, pile.take_top_only, bonus_card.replace, meld.take_apart,
    meld.valid, go_out.allowed, go_out.keep_card, through its memo). A side that has not opened is listed only where
    pile.take refuses it every take its cards could make: its takes count towards its opening."""

    def __init__(self, rules: Rules, melds: NativeSingleMelds, allowed: NativeQuestion) -> None:
        missing = draw_listing_missing(rules)
        if LIBRARY is not None and tuple(LIBRARY.TAKE_VALUES) != TAKE_ARGUMENTS:
            missing = f"pile.take's values as the engine passes them ({', '.join(TAKE_ARGUMENTS)})"
        if missing is not None:
            raise CoreUnavailable(f"the native core does not have {missing}; {rules.variant.id} needs them")
        self.melds = melds
        table = len(TABLE_VARIABLES)
        self.draw = NativeQuestion(rules, DRAW_ALLOWED, _FAILING).built_natively(DRAW_ALLOWED.names[table:])
        self.take = NativeQuestion(rules, PILE_TAKE, _FAILING).built_natively(TAKE_ARGUMENTS)
        self.frozen = NativeQuestion(rules, PILE_FROZEN, _PREDICATE).built_natively(PILE_FROZEN.names[table:])
        self.must_take = NativeQuestion(rules, MUST_TAKE, _PREDICATE).built_natively(_TOP_CARD_ARGUMENTS)
        self.replace = NativeQuestion(rules, BONUS_REPLACE, _PREDICATE).built_natively(BONUS_REPLACE.names)
        self.top_only = self._optional(rules, TOP_ONLY, _TOP_CARD_ARGUMENTS)
        self.apart = self._optional(rules, TAKE_APART, TAKE_APART.names) if rules.takes_apart else None
        asked = (allowed, self.draw, self.take, self.frozen, self.must_take, self.top_only, self.replace, self.apart)
        self.memos = tuple(None if question is None else question.memo for question in asked)  # _core.c's DRAW_MEMOS
        self.codes = self._codes(rules, allowed)
        self.context = self.bind()
        self.pairs: dict[tuple[int, ...], Action] = {}

    def bind(self) -> Any:
        """The draw phase's questions and the codes of their words, handed to the core once
        (``_core.ListingContext``): a call then passes the position alone."""
        return bound_context(self.melds, draw=(self.memos, self.codes))

    @staticmethod
    def _optional(rules: Rules, query: Any, arguments: Sequence[str]) -> NativeQuestion | None:
        """A predicate the reference asks only where its hook has clauses: the core then asks it too."""
        if not rules.clauses(query.hook):
            return None
        return NativeQuestion(rules, query, _PREDICATE).built_natively(arguments)

    def _codes(self, rules: Rules, allowed: NativeQuestion) -> tuple[int, ...]:
        """The codes of the questions' words, in the order ``_core.c``'s ``read_draw_questions`` takes them."""
        take = self.take.encoding
        phased = (allowed.encoding, self.draw.encoding, take)
        out = self.melds.go_out.encoding
        return (
            allowed.encoding.word_code("kind", "draw"),
            allowed.encoding.word_code("kind", "take"),
            *(encoding.word_code("phase", phase) for encoding in phased for phase in PHASES),
            *(take.word_code("target_kind", kind) for kind in ("", "group", "wild")),
            take.word_code("top_rank", ""),
            rules.reads(PILE_TAKE.hook, "may_go_out"),
            *(out.word_code("permission", permission) for permission in PERMISSIONS),
            "pass" in rules.refused_kinds,
        )

    def found(self, position: Any) -> tuple[bool, list[tuple[int, ...]]] | None:
        """The core's answer alone, one call: whether the seat to act may draw, and its legal takes, each the card
        types from hand it melds the top card with (the top card alone first), in the reference's order; None for
        a side that has not opened where ``pile.take`` lets it make a take (``OPENING_TAKES``)."""
        found: tuple[bool, list[tuple[int, ...]]] | None = position.draw_listing(self.context)
        return found

    def of(self, position: Any) -> Listing | None:
        """The listing of the seat to act in ``position`` (the draw phase; ``core.load_state``), or None where
        ``found`` is."""
        found = self.found(position)
        if found is None:
            return None
        may_draw, takes = found
        blocks: list[Block] = [(DRAW,)] if may_draw else []
        if takes and not takes[0]:
            blocks.append((TAKE,))
            del takes[0]
        if takes:
            blocks.append([self._take(cards) for cards in takes])
        return Listing(blocks)

    def _take(self, cards: tuple[int, ...]) -> Action:
        """The take with ``cards`` from hand, its cards in canonical order, made once a pair (a few hundred a game)."""
        known = self.pairs.get(cards)
        if known is None:
            known = self.pairs[cards] = take_with(tuple(sorted(cards, key=SORT_ORDER.__getitem__)))
        return known


def takes_missing(rules: Rules) -> str | None:
    """The mechanism the core's count of the takes of a side that has not opened lacks for ``rules``, in words, or
    None: what its draw phase lacks, or what its count of openings does (the minimum is met with the take)."""
    return draw_listing_missing(rules) or openings_missing(rules)


def _past_count_bits(count: Callable[[Any, int], int], position: Any, minimum: int) -> str | None:
    """``PAST_COUNT_BITS`` where ``count`` (the core's) cannot hold the actions of the seat to act in ``position``
    (its minimum ``minimum``), else None: it counts them to say."""
    try:
        count(position, minimum)
    except OverflowError:
        return PAST_COUNT_BITS
    return None


def _require(rules: Rules, missing: str | None) -> None:
    """Refuse to build a part of the listing for ``rules`` where the core lacks a mechanism it needs (``missing``)."""
    if missing is not None:
        raise CoreUnavailable(f"the native core does not have {missing}; {rules.variant.id} needs them")


class NativeTakeCount:
    """How many actions a player in the draw phase whose side has not opened may make, as the reference's listing
    counts them (``legal._draw_phase``: drawing, the top card alone, each take group alone or with further melds),
    counted by the core from its position without building them (``native/takes.c``), every rule question through
    its memo: the draw phase's (``NativeDrawListing``) and the initial meld's (``initial_meld_questions``). The
    side's minimum (hook initial_meld.minimum, which reads the scores) is the caller's."""

    def __init__(self, rules: Rules, draw: NativeDrawListing) -> None:
        _require(rules, takes_missing(rules))
        self.rules = rules
        self.context = draw.context
        self.questions = initial_meld_questions(rules)
        self.from_hand = rules.composition_from_hand

    def declined(self, position: Any) -> str | None:
        """Why the core does not count the takes of the seat to act in ``position``, or None: an empty pile (the
        draw phase's own listing covers it), or more wild cards than the openings' counting tracks."""
        if not position.pile():
            return "an empty pile (listed by the draw phase's own listing)"
        return _too_many_wilds(self.rules, position)

    def past_count(self, position: Any, minimum: int) -> str | None:
        """``PAST_COUNT_BITS`` where the core cannot count the seat to act's actions, else None."""
        return _past_count_bits(self.count, position, minimum)

    def count(self, position: Any, minimum: int) -> int:
        """The actions of the seat to act in ``position`` (the draw phase, its side not opened, the pile not empty;
        ``core.load_state``), its side's initial meld needing ``minimum`` points (``checks.initial_minimum``)."""
        found: int = position.take_count(self.context, self.questions, minimum, self.from_hand)
        return found

    def of(self, position: Any, minimum: int) -> Listing:
        """The whole listing of the seat to act in ``position`` (as ``count`` counts it) in the reference's order:
        drawing, the top card alone, then the take groups in ``movegen.take_groups`` order (``blocks.TakeGroups``,
        as ``legal._TakeShapes`` holds them), each alone and with its further melds; one call of the core, which
        keeps its counting for the actions asked for."""
        may_draw, top_alone, wild_types, shapes, kept = position.take_listing(
            self.context, self.questions, minimum, self.from_hand
        )
        blocks: list[Block] = [(DRAW,)] if may_draw else []
        if top_alone:
            blocks.append((TAKE,))
        if shapes:
            groups = NativeTakeGroups(self.rules, position.hand(), wild_types, shapes, kept)
            blocks.append(groups.block(position.pile()[-1]))
        return Listing(blocks)


class NativeTakeGroups:
    """The core's take groups of a side that has not opened, by shape (``native/takes.c``): each shape's take alone
    and the number of its takes with further melds, which ``blocks.TakeGroups`` puts in the reference's order; a
    take with further melds made only when asked for, the core finding its further melds' shapes and their place
    among their actions (``NativeTakeExtras``)."""

    def __init__(
        self,
        rules: Rules,
        held: Sequence[int],
        wild_types: tuple[int, ...],
        shapes: list[tuple[int, tuple[int, ...], bool, int, int]],
        kept: Any,
    ) -> None:
        self._rules = rules
        self._held = tuple(held)
        self._wild_types = wild_types
        self._kept = kept
        #: Each shape with actions, by its natural cards and its wild cards by type: (taken alone, takes with
        #: further melds, its place among the core's kept shapes).
        self._shapes = {(naturals, picked): (alone, extras, at) for naturals, picked, alone, extras, at in shapes}

    def block(self, top: Card) -> TakeGroups:
        pool = take_pool(self._rules, self._held, top)
        is_wild = self._rules.is_wild
        naturals = tuple((card, self._held[card]) for card in pool if not is_wild[card])
        wilds = tuple((card, self._held[card]) for card in pool if is_wild[card])
        return TakeGroups(naturals, wilds, self._weight, self._group_actions)

    def _found(self, naturals: int, wilds: Sequence[Card]) -> tuple[bool, int, int] | None:
        return self._shapes.get((naturals, tuple(wilds.count(card) for card in self._wild_types)))

    def _weight(self, naturals: int, wilds: tuple[Card, ...]) -> int:
        found = self._found(naturals, wilds)
        return 0 if found is None else int(found[0]) + found[1]

    def _group_actions(self, group: tuple[Card, ...]) -> Listing:
        wilds = [card for card in group if self._rules.is_wild[card]]
        found = self._found(len(group) - len(wilds), wilds)
        if found is None:
            return Listing(())
        alone, extras, at = found
        blocks: list[Block] = [(take_with(group),)] if alone else []
        if extras:
            rest = list(self._held)
            for card in group:
                rest[card] -= 1
            hand = HandCards(self._rules, tuple(rest))
            blocks.extend(
                NativeTakeExtras(hand, group, first, min(_BLOCK_MOST, extras - first), self._kept, at)
                for first in range(0, extras, _BLOCK_MOST)
            )
        return Listing(blocks)


class NativeTakeExtras(CountedBlock):
    """The takes of one group with further melds, or a run of them (a shape past ``_BLOCK_MOST`` takes is split
    into consecutive blocks, as the openings are), as a block: counted by the core, an action made only when asked
    for from the further melds' shapes the core finds and ``movegen.expand_shapes`` over the rest of the hand, as
    the reference's ``combos.Combinations`` makes them."""

    __slots__ = ("_at_shape", "_first", "_group", "_kept", "_rest")

    def __init__(self, rest: HandCards, group: tuple[Card, ...], first: int, total: int, kept: Any, at: int) -> None:
        self._first = first  # the block's first take among its shape's takes with further melds
        self._total = total
        self._rest = rest
        self._group = group
        self._kept = kept
        self._at_shape = at

    def _at(self, index: int) -> Action:
        if not -self._total <= index < self._total:
            raise IndexError(f"take {index} of {self._total}")
        assert LIBRARY is not None  # kept takes come from the library
        shapes, place = LIBRARY.take_extras_at(self._kept, self._at_shape, self._first + index % self._total)
        return Action.take(self._group, _expansion_at(self._rest, shapes, place))

    def __iter__(self) -> Iterator[Action]:
        assert LIBRARY is not None  # kept takes come from the library
        choice_at = partial(LIBRARY.take_extras_at, self._kept, self._at_shape)
        walk = _walked(self._first + self._total, choice_at, self._rest, self._first)
        for groups in islice(walk, self._total):
            yield Action.take(self._group, groups)


#: The bare kinds the listing of answering and of keeping asks hook action.allowed about, in this order.
_BARE_KINDS: Final = ("yes", "no", "keep", "layout")


class NativeListing:
    """The core's listing of every position it covers, from its position alone (``core.load_state``): answering,
    keeping a bonus card, a hand over, the draw phase (``NativeDrawListing``; a side that has not opened where it can
    take nothing, and where it can, its takes counting towards its opening, ``NativeTakeCount``), play once the side
    has opened (``NativePlayListing``) and before (``NativeOpeningCount``); the last two of a side not opened where
    the caller gives its initial meld's minimum. ``uncovered`` says why it lists none elsewhere (no minimum given, a
    mechanism the variant uses that the core lacks)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.play_missing = play_listing_missing(rules)
        self.play = None if self.play_missing is not None else NativePlayListing(rules)
        # one memo of action.allowed for both listings: each miss is asked of Python once
        self.allowed = self.play.allowed if self.play is not None else native_action_allowed(rules)
        self.draw_missing = draw_listing_missing(rules)
        self.draw: NativeDrawListing | None = None
        if self.play is not None and self.draw_missing is None:
            self.draw = NativeDrawListing(rules, self.play.melds, self.allowed)
        self.phase_codes = tuple(self.allowed.encoding.word_code("phase", phase) for phase in PHASES)
        self.kind_codes = tuple(self.allowed.encoding.word_code("kind", kind) for kind in _BARE_KINDS)
        self.openings_missing = openings_missing(rules)
        self.openings: NativeOpeningCount | None = None
        if self.play is not None and self.openings_missing is None:
            self.openings = NativeOpeningCount(self.play)
        self.takes_missing = takes_missing(rules)
        self.takes = NativeTakeCount(rules, self.draw) if self.draw is not None and not self.takes_missing else None

    def uncovered(self, position: Any, minimum: int | None = None) -> str | None:
        """Why the core does not list ``position``, in words, or None when it does; a side that has not opened is
        listed in play where the caller gives its initial meld's ``minimum`` (``checks.initial_minimum``)."""
        phase, _seat, opened = position.where()
        if PHASES[phase] == "draw":
            if self.draw is None or opened or self.draw.found(position) is not None:
                return self.draw_missing
            return self._takes_uncovered(position, minimum)
        if PHASES[phase] == "play" and not opened:
            if self.openings is None:
                return self.openings_missing
            if minimum is None:
                return OPENINGS_WITHOUT_MINIMUM
            return self.openings.declined(position) or self.openings.past_count(position, minimum)
        return self.play_missing if PHASES[phase] == "play" else None

    def _takes_uncovered(self, position: Any, minimum: int | None) -> str | None:
        """Why the core does not list the draw phase of a side that has not opened where it may take the pile, or
        None: its takes count towards its opening, whose minimum the caller gives, and the core counts them (to say
        whether the count passes what it holds)."""
        if self.takes is None:
            return self.takes_missing
        if minimum is None:
            return OPENING_TAKES
        return self.takes.declined(position) or self.takes.past_count(position, minimum)

    def holds_alone(self, position: Any, action: Action) -> bool | None:
        """Whether the listing of ``position`` holds ``action`` (a draw or a discard), found from the one call of
        the core that lists its part (the draw phase's, or play's of a side that has opened) with no listing built;
        None where that part does not decide it (another kind, another phase, a side not opened in play, or the
        draw phase of a side that may take the pile towards its opening): then ``of`` is asked."""
        kind = action.kind
        if kind == "draw":
            if self.draw is None or PHASES[position.where()[0]] != "draw":
                return None
            found = self.draw.found(position)
            return None if found is None else found[0]
        if kind == "discard":
            phase, _seat, opened = position.where()
            if self.play is None or not opened or PHASES[phase] != "play":
                return None
            discards: list[Action] = position.play_listing(self.play.context)[2]
            return action in discards
        return None

    def of(self, position: Any, minimum: int | None = None) -> Listing | None:
        """The legal actions of the seat to act in ``position``, in the reference's order; None where
        ``uncovered`` gives a reason, and where a side not opened has more openings or takes than the core's count
        holds (``PAST_COUNT_BITS``; the Python engine, counting without a bound, lists it)."""
        phase_index, _seat, opened = position.where()
        phase = PHASES[phase_index]
        if phase == "draw":  # the core's own call says whether a side that has not opened may take the pile
            listed = None if self.draw is None else self.draw.of(position)
            if listed is not None or opened or self.takes is None or minimum is None or self.takes.declined(position):
                return listed
            try:
                return self.takes.of(position, minimum)
            except OverflowError:
                return None
        if phase == "play" and not opened:
            if self.openings is None or minimum is None or self.openings.declined(position):
                return None
            try:
                return self.openings.of(position, minimum)
            except OverflowError:
                return None
        if phase == "play":
            return self.play.of(position) if self.play is not None else None
        yes, no, keep, layout = position.kinds_allowed(self.allowed.memo, self.phase_codes, self.kind_codes)
        if phase == "answer":
            return Listing([tuple(answer for answer, allowed in zip(ANSWERS, (yes, no), strict=True) if allowed)])
        if phase == "keep":
            held = position.hand()
            choices = [Action("keep", (card,)) for card in self.rules.bonus_cards if held[card]] if keep else []
            return Listing([[*choices, LAYOUT] if layout else choices])
        return Listing(())
