"""Listing the legal actions quickly, by deciding whole families of candidates at once.

``judge.plan`` decides one action at a time (``checks.plan_melding`` a meld or take). Listing calls it for every
candidate only where candidates are few (the draw phase, asking); for melds and discards, the spec's hooks are
asked once per *shape* (how many natural, wild and joker cards, of which rank) or once per card type, with exactly
the variables ``plan`` would pass, and every concrete action of a legal shape is listed. Tests check that this
agrees with ``plan`` on every candidate of random positions.
"""

from __future__ import annotations

from collections.abc import Iterator

from .actions import Action, meld_of, single_meld
from .cards import CARD_TYPES, JOKER, JOKER_RANK, Card, sort_key
from .checks import (
    ANSWER_BINDING,
    DISCARD_ALLOWED,
    MELD_ACTION,
    MELD_VALID,
    TEAM_CANASTAS,
    accepts_melding,
    bare_refusal,
    ending_refusal,
    goes_out_melding,
    is_canasta,
    kind_refusal,
    merge_target,
    table_values,
    take_refusal,
)
from .movegen import (
    HandCards,
    Shape,
    expand_shapes,
    hand_cards,
    initial_enough,
    shape_combinations,
    shape_values,
    submultisets,
    take_candidates,
)
from .rules import TRACKED_CACHE_LIMIT, Rules, remember
from .state import HandState, Meld

DISCARDS = tuple(Action("discard", (card,)) for card in range(CARD_TYPES))
DRAW = Action.draw()
ASK = Action.ask()
END = Action("end")
PASS = Action("pass")
ANSWERS = (Action.answer(True), Action.answer(False))


def legal_actions(rules: Rules, state: HandState) -> Iterator[Action]:
    """Every legal action of the seat to act, each once."""
    if state.phase == "draw":
        yield from _draw_phase(rules, state)
        return
    if state.phase == "answer":
        yield from (a for a in ANSWERS if bare_refusal(rules, state, state.to_act, a.kind) is None)
        return
    if state.phase != "play":
        return
    if bare_refusal(rules, state, state.to_act, "ask") is None:
        yield ASK
    listing = _Listing(rules, state)
    yield from _melds(rules, state, listing)
    yield from _discards(rules, state, listing)
    if "pass" not in rules.refused_kinds and bare_refusal(rules, state, state.to_act, "pass") is None:
        yield PASS
    if bare_refusal(rules, state, state.to_act, "end") is None:
        yield END


def _draw_phase(rules: Rules, state: HandState) -> Iterator[Action]:
    """Drawing, and taking the pile: each take is first put to the ``pile.take`` clauses with the pile's
    values computed once, and only those they allow are checked in full."""
    if bare_refusal(rules, state, state.to_act, "draw") is None:
        yield DRAW
    for action in take_candidates(rules, state, state.to_act):
        if take_refusal(rules, state, state.to_act, action) is None and accepts_melding(rules, state, action):
            yield action


def legal_melds(rules: Rules, state: HandState) -> Iterator[Action]:
    """The legal meld actions of the seat to act (for the binding-answer rule, which asks whether any remain)."""
    if state.phase != "play":
        return iter(())
    return _melds(rules, state, _Listing(rules, state))


#: What ``_Listing.target`` gives for a rank whose cards start a new meld.
_NEW_MELD: tuple[Meld | None, int] = (None, -1)

#: A shape's meld: valid keeping two cards or more, valid going out, newly a canasta.
_Verdict = tuple[bool, bool, bool]


class _Listing:
    """Facts shared by every candidate of one listing, each computed once."""

    def __init__(self, rules: Rules, state: HandState) -> None:
        self.rules = rules
        self.state = state
        self.seat = seat = state.to_act
        self.team = state.side_of[seat]
        self.table = table = table_values(rules, state, seat)
        self.canastas: int = table[TEAM_CANASTAS]
        self.hand_size = state.hand_sizes[seat]
        # The side's melds that cards join, by rank, with their counts packed into one int as a cache key (ints
        # hash and compare faster than nested tuples); ranks that start a new meld are absent.
        self._targets: dict[int, tuple[Meld | None, int]] = {}
        for meld in state.melds[self.team]:
            if meld.rank not in self._targets and merge_target(rules, state, self.team, meld.rank) is meld:
                counts = meld.naturals | meld.wilds << 16 | meld.jokers << 32 | meld.size << 48
                self._targets[meld.rank] = (meld, counts)
        self.table_key = tuple(table[i] for i in rules.table_positions_of("meld.valid"))

    def action_ok(self, kind: str) -> bool:
        return kind_refusal(self.rules, self.state, self.seat, kind) is None

    def ending_ok(self, hand_after: int, canastas_after: int, discard_pending: bool) -> bool:
        """Going out (if the hand empties) and keeping a card, as plan checks them."""
        return ending_refusal(self.rules, self.state, self.seat, hand_after, canastas_after, discard_pending) is None

    def goes_out(self, hand_after: int, new_canastas: int) -> bool:
        """Whether melding down to ``hand_after`` cards, making ``new_canastas``, is going out (as plan asks)."""
        return goes_out_melding(self.rules, self.state, self.seat, hand_after, self.canastas + new_canastas)

    def target(self, rank: int) -> tuple[Meld | None, int]:
        """The side's meld that cards of ``rank`` join (or None), and its counts packed into one int (-1 for
        none)."""
        return self._targets.get(rank, _NEW_MELD)

    def meld_ok(self, shape: Shape, going_out: bool, initial: bool) -> tuple[bool, bool]:
        """Whether the meld this shape makes is valid, and whether it newly becomes a canasta."""
        staying, leaving, new_canasta = self.verdict(shape.rank, shape.naturals, shape.twos, shape.jokers, initial)
        return (leaving if going_out else staying), new_canasta

    def verdict(self, rank: int, naturals: int, twos: int, jokers: int, initial: bool) -> _Verdict:
        """Hook ``meld.valid`` on the meld a group of this shape makes, kept and going out (see ``_Verdict``);
        cached per rank, meld joined and table, then per shape."""
        return self.verdict_in(self.verdicts(rank, initial), rank, naturals, twos, jokers, initial)

    def verdicts(self, rank: int, initial: bool) -> dict[tuple[int, int, int], _Verdict] | None:
        """The cache of ``verdict`` for one rank's shapes (None with coverage on: every verdict is judged)."""
        rules = self.rules
        if rules.coverage is not None:
            return None
        key = (rank, self.target(rank)[1], initial, self.table_key)
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
            return self._judge(Shape(rank, naturals, twos, jokers), self.target(rank)[0], initial)
        shape = (naturals, twos, jokers)
        known = verdicts.get(shape)
        if known is None:
            known = self._judge(Shape(rank, naturals, twos, jokers), self.target(rank)[0], initial)
            verdicts[shape] = known
        return known

    def _judge(self, shape: Shape, before: Meld | None, initial: bool) -> _Verdict:
        rules = self.rules
        size = shape.naturals + shape.twos + shape.jokers + (before.size if before else 0)
        was_canasta = before is not None and is_canasta(rules, before)
        new_canasta = not was_canasta and size >= rules.canasta_size[shape.rank]
        staying, leaving = (
            rules.failing_of(MELD_VALID, shape_values(rules, self.table, shape, before, going_out=out, initial=initial))
            is None
            for out in (False, True)
        )
        return staying, leaving, new_canasta

    def group_count_ok(self, groups: int, initial: bool) -> bool:
        values = (*self.table, self.state.phase, groups, 0, initial)
        return self.rules.failing_of(MELD_ACTION, values) is None


#: A valid shape: naturals, twos, jokers, valid keeping two cards or more, valid going out, newly a canasta.
_RankShape = tuple[int, int, int, bool, bool, bool]


def _rank_shapes(
    listing: _Listing, rank: int, available: int, twos: int, jokers: int, initial: bool
) -> tuple[_RankShape, ...]:
    """The shapes of one rank that make a valid meld, as (naturals, twos, jokers, valid if keeping two cards or
    more, valid if going out, newly a canasta); cached, since the same rank and counts recur from turn to turn."""
    rules = listing.rules
    key = (rank, listing.target(rank)[1], available, twos, jokers, initial, listing.table_key)
    known: tuple[_RankShape, ...] | None = rules.rank_shape_cache.get(key) if rules.coverage is None else None
    if known is not None:
        return known
    found: list[_RankShape] = []
    verdicts = listing.verdicts(rank, initial)
    for n in range(available + 1):
        for t in range(twos + 1):
            for j in range(jokers + 1):
                if n + t + j:
                    staying, leaving, new_canasta = listing.verdict_in(verdicts, rank, n, t, j, initial)
                    if staying or leaving:
                        found.append((n, t, j, staying, leaving, new_canasta))
    known = remember(rules.rank_shape_cache, key, tuple(found))
    return known


def _single_melds(listing: _Listing, hand: HandCards) -> list[Action]:
    """Once a side has melded: every single group that lays or extends one meld legally."""
    state = listing.state
    hand_size = listing.hand_size
    pending = not state.last_card_bonus
    endings: dict[int, bool] = {}
    out: list[Action] = []
    made = listing.rules.meld_actions
    for rank in hand.meld_ranks(state.melds[listing.team]):
        for used, new_canasta, staying, leaving, label, groups in _rank_melds(listing, hand, rank):
            hand_after = hand_size - used
            going_out = hand_after == 0 or (hand_after == 1 and listing.goes_out(1, new_canasta))
            if not (leaving if going_out else staying):
                continue
            ending = 2 * hand_after + new_canasta
            fine = endings.get(ending)
            if fine is None:
                fine = endings[ending] = listing.ending_ok(hand_after, listing.canastas + new_canasta, pending)
            if fine:
                for cards in groups:
                    key = cards if label is None else (cards, label)
                    action = made.get(key)
                    if action is None:
                        action = remember(made, key, single_meld(cards, label), TRACKED_CACHE_LIMIT)
                    out.append(action)
    return out


#: Per shape: cards used, newly a canasta, valid keeping two cards or more, valid going out, the group's label,
#: the groups' cards. Plain tuples of ints only: the garbage collector stops tracking them, so a large cache
#: does not slow its collections down (named tuples and Actions would stay tracked).
_RankMelds = tuple[tuple[int, int, bool, bool, int | None, tuple[tuple[Card, ...], ...]], ...]


def _rank_melds(listing: _Listing, hand: HandCards, rank: int) -> _RankMelds:
    """The single groups of one rank that make a valid meld, grouped by shape (see ``_RankMelds``): the valid
    shapes filled with the hand's cards. Cached on everything they depend on: the rank, the meld they join, the
    hand's cards of that rank and its wild cards, and the table values ``meld.valid`` reads; one look-up a rank
    is what most listings cost, since a hand changes by a card or two between them."""
    rules = listing.rules
    key = (rank, listing.target(rank)[1], hand.codes[rank], hand.twos_code, hand.jokers, listing.table_key)
    cached = rules.coverage is None
    known: _RankMelds | None = rules.rank_meld_cache.get(key) if cached else None
    if known is None:
        shapes = _rank_shapes(listing, rank, hand.count(rank), hand.twos_total, hand.jokers, False)
        label = rank if rank != JOKER_RANK else None
        known = tuple(
            (n + t + j, new_canasta, staying, leaving, label if n == 0 else None, _groups(hand, rank, n, t, j))
            for n, t, j, staying, leaving, new_canasta in shapes
        )
        if cached:
            remember(rules.rank_meld_cache, key, known)
    return known


def _groups(hand: HandCards, rank: int, n: int, t: int, j: int) -> tuple[tuple[Card, ...], ...]:
    """Every group of ``n`` of the hand's natural cards of ``rank``, ``t`` of its wild cards and ``j`` jokers, in
    canonical order."""
    tail = (JOKER,) * j
    wild_parts = submultisets(hand.twos, t)
    return tuple(natural + wild + tail for natural in submultisets(hand.naturals[rank], n) for wild in wild_parts)


def _melds(rules: Rules, state: HandState, listing: _Listing) -> Iterator[Action]:
    if not listing.action_ok("meld"):
        return
    initial = not state.team_opened[listing.team]
    hand = hand_cards(rules, state, listing.seat)
    if not initial:
        if listing.group_count_ok(1, False):
            yield from _single_melds(listing, hand)
        return
    viable: dict[int, list[Shape]] = {}
    for rank in hand.meld_ranks(state.melds[listing.team]):
        found = _rank_shapes(listing, rank, hand.count(rank), hand.twos_total, hand.jokers, True)
        if found:
            viable[rank] = [Shape(rank, n, t, j) for n, t, j, *_ in found]
    in_canonical_order = sorted(viable, key=lambda rank: sort_key(rank * 4 if rank != JOKER_RANK else JOKER))
    for combo in shape_combinations(viable, hand.twos_total, hand.jokers, in_canonical_order):
        if not combo or not listing.group_count_ok(len(combo), True):
            continue
        hand_after = listing.hand_size - sum(s.naturals + s.twos + s.jokers for s in combo)
        made = 0
        ok = True
        for shape in combo:
            valid, new_canasta = listing.meld_ok(shape, hand_after <= 1, True)
            ok = ok and valid
            made += new_canasta
        if hand_after == 1 and not listing.goes_out(1, made):  # the last card is kept (a pass), not discarded
            ok = all(listing.meld_ok(shape, False, True)[0] for shape in combo)
        if not ok or not listing.ending_ok(hand_after, listing.canastas + made, not state.last_card_bonus):
            continue
        if not initial_enough(rules, state, listing.seat, combo):
            continue
        if rules.twos_value is None:
            yield from (
                a for a in (Action.meld(g) for g in expand_shapes(hand, combo)) if accepts_melding(rules, state, a)
            )
            continue
        for groups in expand_shapes(hand, combo):
            yield meld_of(groups)


def _discards(rules: Rules, state: HandState, listing: _Listing) -> list[Action]:
    if not listing.action_ok("discard"):
        return []
    hand_after = listing.hand_size - 1
    if not listing.ending_ok(hand_after, listing.canastas, False):
        return []
    can_still = state.permission == "yes" and hand_after > 0 and any(True for _ in _melds(rules, state, listing))
    if rules.failing_of(ANSWER_BINDING, (state.permission, hand_after, can_still)) is not None:
        return []
    hand = state.hands[listing.seat]
    if not rules.clauses("discard.allowed"):
        return [DISCARDS[card] for card in range(CARD_TYPES) if hand[card]]
    table = listing.table
    return [
        DISCARDS[card]
        for card in range(CARD_TYPES)
        if hand[card] and rules.failing_of(DISCARD_ALLOWED, (*table, *rules.card_values[card], hand_after)) is None
    ]
