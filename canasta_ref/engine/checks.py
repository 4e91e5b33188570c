"""Whether an action is legal in a position, and what it would do: the rules, asked through the spec's hooks.

``plan`` either raises IllegalAction (citing the clause) or returns a Plan that ``Game.apply`` carries out, so
the checks and the effects are computed once and can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from ..errors import CanastaError, IllegalAction
from ..spec.model import Clause
from .actions import ACTION_KINDS, TAKE, Action, MeldGroup
from .cards import (
    CARD_TYPES,
    JOKER_RANK,
    MELD_RANK_NAMES,
    RANK_NAMES,
    SEQUENCE_ORDER,
    SEQUENCE_RANK,
    Card,
    rank_of,
)
from .hooks import CARD_VARIABLES, MELD_VARIABLES, TABLE_VARIABLES
from .rules import Query, Rules, remember
from .state import (
    KIND_REFUSALS,
    MINIMUM,
    PILE_FROZEN,
    RANK_FACTS,
    SIDE_TALLY,
    TABLE_VALUES,
    TAKE_VALUES,
    Facts,
    HandState,
    Meld,
)


@dataclass(init=False)
class Plan:
    """What a legal action does: the side's melds after it, and how the hand stands.

    The initializer is written out: the generated one (with list factories) is called through Python's slower
    type-call path when compiled, and every action applied builds a Plan."""

    action: Action
    melds: list[Meld]
    created: list[int]
    added_existing: bool
    hand_after: int
    going_out: bool
    concealed: bool
    pile_replacements: int

    def __init__(
        self,
        action: Action,
        melds: list[Meld] | None = None,
        created: list[int] | None = None,
        added_existing: bool = False,
        hand_after: int = 0,
        going_out: bool = False,
        concealed: bool = False,
        pile_replacements: int = 0,
    ) -> None:
        self.action = action
        self.melds = melds if melds is not None else []
        self.created = created if created is not None else []
        self.added_existing = added_existing
        self.hand_after = hand_after
        self.going_out = going_out
        self.concealed = concealed
        self.pile_replacements = pile_replacements


# The questions the checks put to the spec's hooks, with the values they pass (see rules.Query).
_ACTION_ALLOWED = Query("action.allowed", ("kind", "phase", "seat", "seat_to_act", "cards_in_hand", "last_card_bonus"))
_KEEP_CARD: Final = Query("go_out.keep_card", ("hand_after", "discard_pending", "may_go_out"))
_GO_OUT_ALLOWED: Final = Query(
    "go_out.allowed",
    (
        *TABLE_VARIABLES,
        "permission",
        "canastas_after",
        "natural_canastas_after",
        "mixed_canastas_after",
        "wild_canastas_after",
        "sequence_canastas_after",
        "incomplete_required_melds_after",
    ),
)
_PILE_FROZEN: Final = Query(
    "pile.frozen", (*TABLE_VARIABLES, "pile_has_wild", "pile_has_red_three", "pile_has_black_three", "upcard_froze")
)
_MUST_TAKE: Final = Query("stock_empty.must_take", (*TABLE_VARIABLES, "frozen", "top_matches_team_meld"))
_TOP_ONLY: Final = Query("pile.take_top_only", (*TABLE_VARIABLES, "frozen", "top_matches_team_meld"))
_DRAW_ALLOWED = Query("draw.allowed", (*TABLE_VARIABLES, "phase", "must_take_pile"))
_PASS = Query("turn.pass", (*TABLE_VARIABLES, "phase", "may_go_out", "last_card_bonus"))
_ASK = Query(
    "go_out.ask",
    (*TABLE_VARIABLES, "phase", "melded_this_turn", "asked_this_turn", "asked_this_hand", "has_partner"),
)
DISCARD_ALLOWED: Final = Query("discard.allowed", (*TABLE_VARIABLES, *CARD_VARIABLES, "hand_after", "canasta_of_rank"))
DISCARD_PREFERRED: Final = Query("discard.preferred", DISCARD_ALLOWED.names)
_ANSWERER = Query("go_out.answerer", ("seat",))
_KEEP_BONUS: Final = Query("bonus_card.keep", ("team_has_melded",))
ANSWER_BINDING: Final = Query("go_out.answer_binding", ("permission", "hand_after", "can_still_meld"))
#: ``meld.valid``: the table, then the variables of the meld a group makes (``_layout``, ``movegen.shape_values``).
MELD_VALID: Final = Query(
    "meld.valid",
    (
        *TABLE_VARIABLES,
        "rank",
        "size",
        "naturals",
        "wilds",
        "jokers",
        "natural_ranks",
        "kind",
        "suits",
        "consecutive",
        "lowest",
        "is_new",
        "added",
        "added_wilds",
        "was_canasta",
        "going_out",
        "initial",
        "other_canasta_of_rank",
        "other_natural_canasta_of_rank",
        "team_wild_meld_open",
        "take_onto_meld",
    ),
)
MELD_ACTION: Final = Query("meld.action", (*TABLE_VARIABLES, "phase", "groups", "repeated_ranks", "initial"))
_MINIMUM: Final = Query("initial_meld.minimum", ("team_score", "player_score", "hand_number"))
_COUNT: Final = Query(
    "initial_meld.count",
    ("hand_points", "top_card_points", "natural_canastas", "mixed_canastas", "wild_canastas", "sequence_canastas"),
)
_INITIAL_VALID: Final = Query(
    "initial_meld.valid",
    (
        "count",
        "minimum",
        "going_out_concealed",
        "going_out_concealed_by_discard",
        "taking_pile",
        "clean_meld",
        "wild_meld",
        "three_naturals_meld",
        "natural_canastas",
        "mixed_canastas",
        "wild_canastas",
    ),
)
#: What an opening's melds are made of, as bits (``initial_meld.valid``'s composition variables, in their order).
CLEAN_MELD: Final = 1  # a meld of three or more natural cards and no wild card
WILD_MELD: Final = 2  # a meld of wild cards alone
THREE_NATURALS_MELD: Final = 4  # a meld with three or more natural cards
#: Every composition an opening can have: the values the listing's caps are judged over.
COMPOSITIONS = range(8)
_CONCEALED: Final = Query("go_out.concealed", ("melded_before", "added_to_partner", "made_canasta", "took_pile"))
_MELD_CLOSED: Final = Query("meld.closed", ("rank", "size", "naturals", "wilds"))
#: A take's group asked again whether it joins the side's meld of its rank (``take_joins``).
_TAKE_APART: Final = Query("meld.take_apart", ("rank", "onto_canasta", "onto_wilds", "added_wilds"))
_MUST_COMPLETE: Final = Query("meld.must_complete", MELD_VARIABLES)
BONUS_REPLACE: Final = Query("bonus_card.replace", ("from_pile", "stock_size"))
LAST_CARD_BONUS_ENDS: Final = Query("stock.last_card_bonus_ends", ("stock_size",))
ENDS_WITH_DISCARD: Final = Query("stock.ends_with_discard", ("stock_size",))
_BONUS_DRAW_COUNT: Final = Query("bonus_draw.count", ("first_side_to_meld", "sides_melded_before", "taking_pile"))
#: ``pile.take``: the table, the pile and the side (``_take_values``), then the cards offered (``_take_fields``).
_PILE_TAKE: Final = Query(
    "pile.take",
    (
        *TABLE_VARIABLES,
        "phase",
        "frozen",
        "top_rank",
        "top_is_wild",
        "top_is_black_three",
        "top_is_red_three",
        "team_has_meld_of_rank",
        "team_meld_is_canasta",
        "may_go_out",
        "take_target",
        "target_kind",
        "target_is_canasta",
        "take_sequence",
        "take_cards",
        "take_naturals",
        "take_wilds",
        "extra_melds",
        "extra_of_top_rank",
        "extra_repeated_ranks",
    ),
)


def derived(rules: Rules, state: HandState) -> Facts:
    """The facts already computed from this position with these rules (see ``HandState.derived``)."""
    facts = state.derived
    if facts is None or facts.rules is not rules:
        facts = state.derived = Facts(rules, len(state.side_of))
    return facts


class CanastaKinds(NamedTuple):
    """A side's canastas by kind: of natural cards only, of natural and wild cards, of wild cards only, and
    sequences (each counted under one kind only: a sequence canasta is never also a natural one)."""

    natural: int
    mixed: int
    wild: int
    sequence: int = 0


#: The index in ``CanastaKinds`` of a sequence canasta.
SEQUENCE_KIND: Final = 3
_MELD_COMBINE: Final = Query(
    "meld.combine",
    (*TABLE_VARIABLES, "first_kind", "second_kind", "same_rank", "first_is_canasta", "second_is_canasta"),
)


def canasta_kind(naturals: int, wilds: int) -> int:
    """The index in ``CanastaKinds`` of a canasta of one rank with these cards: natural, mixed or wild."""
    return 0 if wilds == 0 else 2 if naturals == 0 else 1


def meld_canasta_kind(meld: Meld) -> int:
    """The index in ``CanastaKinds`` of ``meld`` as a canasta: a sequence's own kind, else by its cards."""
    return SEQUENCE_KIND if meld.rank == SEQUENCE_RANK else canasta_kind(meld.naturals, meld.wilds)


def meld_kind(rank: int) -> str:
    """What ``meld.valid`` calls a meld of ``rank``: a group, wild cards alone, or a sequence."""
    return "sequence" if rank == SEQUENCE_RANK else "wild" if rank == JOKER_RANK else "group"


def meld_variable_values(rank: int, size: int, naturals: int, wilds: int, jokers: int) -> tuple[Any, ...]:
    """The values of ``hooks.MELD_VARIABLES`` for a meld of ``rank`` with these cards."""
    return (MELD_RANK_NAMES[rank], meld_kind(rank), size, naturals, wilds, wilds - jokers, jokers)


def canasta_kinds(rules: Rules, melds: Sequence[Meld]) -> CanastaKinds:
    """How many of the melds are natural canastas, how many mixed, and how many wild."""
    return CanastaKinds(*tally_counts(canasta_tally(rules, melds)))


#: A side's canastas by kind packed into one int: natural, mixed, wild and sequence counts in fields of
#: ``TALLY_BITS`` bits, lowest first, then its melds that must still be made canastas before it may go out (hook
#: meld.must_complete; counted only where go_out.allowed reads them, see ``Rules.tracks_must_complete``). Adding
#: canastas is adding tallies, and a tally keys a cache as it is: the listing asks "may the player go out with these
#: canastas?" of every ending it meets, and builds no tuple to ask it.
Tally = int
TALLY_BITS: Final = 12
_TALLY_FIELD: Final = (1 << TALLY_BITS) - 1
#: Where a tally counts the melds that must still be completed (one past the sequence canastas).
_UNFINISHED_SHIFT: Final = 4 * TALLY_BITS
#: The tally of one meld that must still be completed.
ONE_UNFINISHED: Final[Tally] = 1 << _UNFINISHED_SHIFT


def tally_of(kinds: Sequence[int]) -> Tally:
    """The tally of canastas counted by kind (natural, mixed, wild, and sequence if given)."""
    tally = kinds[0] | kinds[1] << TALLY_BITS | kinds[2] << 2 * TALLY_BITS
    return tally | kinds[3] << 3 * TALLY_BITS if len(kinds) > 3 else tally


def one_canasta(kind: int) -> Tally:
    """The tally of one canasta of ``kind`` (an index into ``CanastaKinds``; -1: none, an empty tally)."""
    return 0 if kind < 0 else 1 << kind * TALLY_BITS


def tally_counts(tally: Tally) -> tuple[int, int, int, int]:
    """A tally's natural, mixed, wild and sequence canastas."""
    return (
        tally & _TALLY_FIELD,
        tally >> TALLY_BITS & _TALLY_FIELD,
        tally >> 2 * TALLY_BITS & _TALLY_FIELD,
        tally >> 3 * TALLY_BITS & _TALLY_FIELD,
    )


def tally_unfinished(tally: Tally) -> int:
    """A tally's melds that must still be completed (go_out.allowed's ``incomplete_required_melds_after``)."""
    return tally >> _UNFINISHED_SHIFT


def canasta_tally(rules: Rules, melds: Sequence[Meld]) -> Tally:
    """The melds' canastas by kind, as a tally."""
    tally = 0
    for meld in melds:
        tally += _canasta_of(rules, meld)
    return tally


def _canasta_of(rules: Rules, meld: Meld | None) -> Tally:
    """The tally of ``meld`` alone: one canasta of its kind, or none (a meld smaller than a canasta, or no meld);
    a meld smaller than a canasta counts as one to complete where the spec says so (``unfinished_of``)."""
    if meld is None:
        return 0
    if meld.size < rules.canasta_size[meld.rank]:
        return unfinished_of(rules, meld) if rules.tracks_must_complete else 0
    return one_canasta(meld_canasta_kind(meld))


def unfinished_tally(rules: Rules, rank: int, size: int, naturals: int, wilds: int, jokers: int) -> Tally:
    """The tally of a meld of these cards as one the side must still complete before going out: ``ONE_UNFINISHED``
    if it is smaller than a canasta and hook meld.must_complete marks it, else nothing. Asked only where
    ``Rules.tracks_must_complete``: other variants count no such melds and ask no such question."""
    if size >= rules.canasta_size[rank]:
        return 0
    values = meld_variable_values(rank, size, naturals, wilds, jokers)
    return ONE_UNFINISHED if rules.predicate_of(_MUST_COMPLETE, values) else 0


def unfinished_of(rules: Rules, meld: Meld) -> Tally:
    """``unfinished_tally`` of a meld on the table."""
    return unfinished_tally(rules, meld.rank, meld.size, meld.naturals, meld.wilds, meld.jokers)


def _tally_size(tally: Tally) -> int:
    """How many canastas a tally counts, of every kind."""
    return (
        (tally & _TALLY_FIELD)
        + (tally >> TALLY_BITS & _TALLY_FIELD)
        + (tally >> 2 * TALLY_BITS & _TALLY_FIELD)
        + (tally >> 3 * TALLY_BITS & _TALLY_FIELD)
    )


class RankFacts(NamedTuple):
    """What some rules read of the whole table about the rank of a meld or a discard: which ranks are "dead"
    because a side has completed a canasta of them, and whether the player's side has a wild meld still short
    of a canasta (Modern American). Ranks are bits of an int, rank ``r`` at bit ``r``."""

    other_canastas: int  # ranks of which another side has a canasta
    other_natural_canastas: int  # ranks of which another side has a natural canasta
    any_canastas: int  # ranks of which any side, the player's own included, has a canasta
    wild_meld_open: bool  # the player's side has a wild meld smaller than a canasta

    def of(self, rank: int) -> tuple[bool, bool, bool]:
        """``meld.valid``'s values for a meld of ``rank``, in ``MELD_VALID``'s order."""
        return bool(self.other_canastas >> rank & 1), bool(self.other_natural_canastas >> rank & 1), self.wild_meld_open

    def canasta_of(self, rank: int) -> bool:
        """Whether any side has a canasta of ``rank`` (``discard.allowed``'s ``canasta_of_rank``)."""
        return bool(self.any_canastas >> rank & 1)


#: The facts of a table no clause asks about: nothing is computed for them.
NO_RANK_FACTS = RankFacts(0, 0, 0, False)


def rank_facts(rules: Rules, state: HandState, seat: int) -> RankFacts:
    """The ``RankFacts`` of the table for ``seat``'s side (kept with the position's derived facts)."""
    if not rules.reads_rank_facts:
        return NO_RANK_FACTS
    facts = derived(rules, state)
    team = state.side_of[seat]
    known: RankFacts | None = facts.at(RANK_FACTS, team)
    if known is None:
        others = naturals = every = 0
        wild_open = False
        for side, melds in enumerate(state.melds):
            for meld in melds:
                if not is_canasta(rules, meld):
                    wild_open = wild_open or (side == team and meld.rank == JOKER_RANK)
                    continue
                bit = 1 << meld.rank
                every |= bit
                if side != team:
                    others |= bit
                    if meld.wilds == 0:
                        naturals |= bit
        known = RankFacts(others, naturals, every, wild_open)
        facts.keep(RANK_FACTS, team, known)
    return known


def discard_values(
    rules: Rules, table: tuple[Any, ...], card: Card, hand_after: int, facts: RankFacts
) -> tuple[Any, ...]:
    """The values of ``discard.allowed`` and ``discard.preferred`` for discarding ``card``."""
    return (*table, *rules.card_values[card], hand_after, facts.canasta_of(rank_of(card)))


def discard_refusal(rules: Rules, state: HandState, seat: int, card: Card) -> Clause | None:
    """The clause refusing ``seat``'s discard of ``card``: ``discard.allowed``'s, or the ``discard.preferred``
    clause that passes it over while the player holds a card that stands better (``discard_standing``)."""
    hand_after = state.cards_held(seat) - 1
    table = table_values(rules, state, seat)
    facts = rank_facts(rules, state, seat)
    values = discard_values(rules, table, card, hand_after, facts)
    refusal = rules.failing_of(DISCARD_ALLOWED, values)
    preferences = rules.clauses("discard.preferred")
    if refusal is not None or not preferences:
        return refusal
    passed_over = rules.failing_of(DISCARD_PREFERRED, values)
    if passed_over is None:
        return None
    standing = preferences.index(passed_over)
    hand = state.hands[seat]
    for other in range(CARD_TYPES):
        if hand[other] and other != card:
            other_values = discard_values(rules, table, other, hand_after, facts)
            allowed = rules.failing_of(DISCARD_ALLOWED, other_values) is None
            if allowed and discard_standing(rules, preferences, other_values) > standing:
                return passed_over
    return None


def discard_standing(rules: Rules, preferences: Sequence[Clause], values: tuple[Any, ...]) -> int:
    """How well a discard stands by hook ``discard.preferred``, whose clauses come strongest first: the place of
    the first clause that passes it over, or the number of clauses if none does. A player discards a card of the
    best standing among those ``discard.allowed`` lets go (a wild card goes before nothing, a seven onto an empty
    pile before a wild card: the order of the spec's clauses says which)."""
    passed_over = rules.failing_of(DISCARD_PREFERRED, values)
    return len(preferences) if passed_over is None else preferences.index(passed_over)


def table_values(rules: Rules, state: HandState, seat: int) -> tuple[Any, ...]:
    """The values of the variables every hook about the table shares (``hooks.TABLE_VARIABLES``, in order)."""
    facts = derived(rules, state)
    known: tuple[Any, ...] | None = facts.at(TABLE_VALUES, seat)
    if known is None:
        team = state.side_of[seat]
        tally = canasta_tally(rules, state.melds[team])
        facts.keep(SIDE_TALLY, seat, tally)  # for side_tally
        known = (
            seat,
            state.team_opened[team],
            _tally_size(tally),
            len(state.stock),
            len(state.pile),
            state.hand_sizes[seat],
        )
        facts.keep(TABLE_VALUES, seat, known)
    return known


#: Where the side's canastas are among the table values.
TEAM_CANASTAS = TABLE_VARIABLES.index("team_canastas")


def side_tally(rules: Rules, state: HandState, seat: int) -> Tally:
    """The canastas by kind of ``seat``'s side as the table stands (what going out counts when nothing is laid):
    counted with the table values, which every decision asks for first."""
    facts = derived(rules, state)
    known: Tally | None = facts.at(SIDE_TALLY, seat)
    if known is None:
        table_values(rules, state, seat)
        known = facts.at(SIDE_TALLY, seat)
    return known


def merge_target(rules: Rules, state: HandState, team: int, rank: int) -> Meld | None:
    """The side's meld that cards of ``rank`` would join (hook meld.merge_same_rank), or None for a new meld."""
    existing = state.meld_of_rank(team, rank)
    if existing is not None and rules.merges_same_rank[rank]:
        return existing
    return None


def take_joins(rules: Rules, meld: Meld, added_wilds: int) -> bool:
    """Whether a take's cards, ``added_wilds`` of them wild, join ``meld``, the side's meld of the top card's rank,
    or start a second meld of that rank (hook meld.take_apart)."""
    if not rules.takes_apart:
        return True
    values = (RANK_NAMES[meld.rank], is_canasta(rules, meld), meld.wilds, added_wilds)
    return not rules.predicate_of(_TAKE_APART, values)


def _merge_place(
    rules: Rules, state: HandState, team: int, rank: int, cards: Sequence[Card], *, own_key: int, taking: bool
) -> tuple[int, Meld | None]:
    """Where a group naming no meld goes, as (key, meld joined): the side's meld of its rank where the spec merges
    that rank, unless the group is a take's that hook meld.take_apart keeps apart; else a meld of its own
    (``own_key``)."""
    if not rules.merges_same_rank[rank]:
        return own_key, None
    before = merge_target(rules, state, team, rank)
    if before is not None and taking and not take_joins(rules, before, wilds_among(rules, cards)):
        return own_key, None
    return rank, before


def settled(rules: Rules, meld: Meld) -> Meld:
    """``meld`` as it lies on the table: closed if hook meld.closed says so (asked only of variants with a clause
    there, so the others build no second tuple)."""
    if not rules.closes_melds or meld.closed:
        return meld
    if rules.predicate_of(_MELD_CLOSED, (MELD_RANK_NAMES[meld.rank], meld.size, meld.naturals, meld.wilds)):
        return meld._replace(closed=True)
    return meld


def is_canasta(rules: Rules, meld: Meld) -> bool:
    return meld.size >= rules.canasta_size[meld.rank]


def canastas(rules: Rules, melds: Sequence[Meld]) -> int:
    return sum(1 for m in melds if m.size >= rules.canasta_size[m.rank])


def pile_frozen(rules: Rules, state: HandState, seat: int) -> bool:
    facts = derived(rules, state)
    known: bool | None = facts.at(PILE_FROZEN, seat) if rules.coverage is None else None
    if known is None:
        values = (
            *table_values(rules, state, seat),
            state.pile_wilds > 0,
            state.pile_red_threes > 0,
            state.pile_black_threes > 0,
            state.upcard_froze,
        )
        known = rules.predicate_of(_PILE_FROZEN, values)
        facts.keep(PILE_FROZEN, seat, known)
    return known


def _go_out_refusal(rules: Rules, state: HandState, seat: int, canastas_after: Tally) -> Clause | None:
    counts = tally_counts(canastas_after)
    values = (
        *table_values(rules, state, seat),
        state.permission,
        sum(counts),
        *counts,
        tally_unfinished(canastas_after),
    )
    return rules.failing_of(_GO_OUT_ALLOWED, values)


def may_go_out(rules: Rules, state: HandState, seat: int, canastas_after: Tally) -> bool:
    """Whether ``seat`` may go out once its side has ``canastas_after``."""
    return go_out_refusal(rules, state, seat, canastas_after) is None


def go_out_refusal(rules: Rules, state: HandState, seat: int, canastas_after: Tally) -> Clause | None:
    """The ``go_out.allowed`` clause refusing ``seat`` to go out once its side has ``canastas_after``, or None;
    kept per position (with coverage on, asked every time)."""
    facts = derived(rules, state)
    outs = facts.out
    if outs is None:
        outs = facts.out = {}
    key = canastas_after * rules.players + seat  # seat and tally packed into one int
    if rules.coverage is None and key in outs:
        known: Clause | None = outs[key]
        return known
    refusal = outs[key] = _go_out_refusal(rules, state, seat, canastas_after)
    return refusal


def require_cards_in_hand(rules: Rules, state: HandState, seat: int, action: Action) -> None:
    needed: dict[Card, int] = {}
    for card in action.all_cards():
        needed[card] = needed.get(card, 0) + 1
    hand = state.hands[seat]
    held = all(hand[c] >= n for c, n in needed.items()) and names_own_melds(state, seat, action)
    # Cards held: the answer of the table kind_refusal keeps (no query built); else the query itself.
    rules.refuse(
        kind_refusal(rules, state, seat, action.kind)
        if held
        else action_refusal(rules, state, seat, action.kind, False)
    )


def names_own_melds(state: HandState, seat: int, action: Action) -> bool:
    """Whether every meld the action names (``@N``) is one of the side's: what ``action.allowed``'s
    ``cards_in_hand`` requires besides the cards."""
    count = len(state.melds[state.side_of[seat]])
    if action.target > count:
        return False
    return all(group.target <= count for group in action.melds)


def action_refusal(rules: Rules, state: HandState, seat: int, kind: str, held: bool = True) -> Clause | None:
    """The ``action.allowed`` clause refusing this kind of action to ``seat`` now, or None."""
    return rules.failing_of(_ACTION_ALLOWED, (kind, state.phase, seat, state.to_act, held, state.last_card_bonus))


def kind_refusal(rules: Rules, state: HandState, seat: int, kind: str) -> Clause | None:
    """``action_refusal`` for a player holding the cards, found in a table of every kind's answer for the
    phase, seat, seat to act and last-card state (a handful of tables a game): a listing asks it of four or five
    kinds, and one look-up costs less than the query each."""
    if rules.coverage is not None:
        return action_refusal(rules, state, seat, kind)
    facts = derived(rules, state)
    known: dict[str, Clause | None] | None = facts.at(KIND_REFUSALS, seat)  # the table, found once a position
    if known is None:
        key = (state.phase, seat, state.to_act, state.last_card_bonus)
        known = rules.kind_refusals.get(key)
        if known is None:
            known = remember(rules.kind_refusals, key, {k: action_refusal(rules, state, seat, k) for k in ACTION_KINDS})
        facts.keep(KIND_REFUSALS, seat, known)
    return known[kind]


def plan_melding(
    rules: Rules,
    state: HandState,
    action: Action,
    seat: int | None = None,
    *,
    vetted: bool = False,
    pile_take_asked: bool = False,
) -> Plan:
    """Check a meld or take for the seat to act (or ``seat``); raise IllegalAction or return what it does. A meld
    ``vetted`` by this position's listing (which judged its shape as ``plan`` would) is not checked again: only what
    it does is worked out. A take whose ``pile.take`` question the caller has just asked and found allowed
    (``pile_take_asked``) does not ask it again."""
    actor = state.to_act if seat is None else seat
    if not vetted:
        require_cards_in_hand(rules, state, actor, action)
    if action.kind == "take":
        result = _plan_take(rules, state, action, actor, pile_take_asked=pile_take_asked)
    elif action.kind == "combine":
        result = _plan_combine(rules, state, action, actor)
    else:
        result = _plan_meld(rules, state, action, actor, vetted=vetted)
    if actor == state.to_act and not vetted:  # the listing checked it: apply need not plan it again (a vetted
        # plan is apply's own, and the position is about to change)
        facts = derived(rules, state)
        if facts.plans is None:
            facts.plans = {}
        facts.plans[id(action)] = (action, result)
    return result


def accepts_melding(
    rules: Rules, state: HandState, action: Action, seat: int | None = None, *, pile_take_asked: bool = False
) -> bool:
    """Whether ``plan_melding`` accepts a meld or take of the seat to act (or ``seat``)."""
    try:
        plan_melding(rules, state, action, seat, pile_take_asked=pile_take_asked)
    except IllegalAction:
        return False
    return True


def must_take_pile(rules: Rules, state: HandState, seat: int) -> bool:
    """When the stock is empty, whether the spec obliges this player to take the pile (and they can)."""
    if state.stock or not state.pile:
        return False
    if not rules.predicate_of(_MUST_TAKE, _top_card_values(rules, state, seat)):
        return False
    if accepts_melding(rules, state, TAKE, seat):
        return True
    # Where the top card joins a meld only by naming it: whether it can join one of the side's melds.
    count = len(state.melds[state.side_of[seat]]) if rules.names_melds else 0
    return any(accepts_melding(rules, state, Action.take((), (), n), seat) for n in range(1, count + 1))


def _top_card_values(rules: Rules, state: HandState, seat: int) -> tuple[Any, ...]:
    """The table, whether the pile is frozen, and whether its top card fits the side's meld (a pile is there)."""
    team = state.side_of[seat]
    top = state.pile[-1]
    return (
        *table_values(rules, state, seat),
        pile_frozen(rules, state, seat),
        not rules.is_wild[top] and _meld_to_join(rules, state.melds[team], top),
    )


def _meld_to_join(rules: Rules, melds: Sequence[Meld], top: Card) -> bool:
    """Whether the side has an open meld the top card is of a kind to join: one of its rank, or, where there are
    sequences, one of its suit (what ``top_matches_team_meld`` says; the take itself is still judged in full)."""
    rank = rank_of(top)
    for meld in melds:
        if not meld.closed and (meld.rank == rank or (meld.rank == SEQUENCE_RANK and meld.cards[0] & 3 == top & 3)):
            return True
    return False


def takes_top_only(rules: Rules, state: HandState, seat: int) -> bool:
    """Whether a take now moves only the pile's top card (Hoyle's forced take at an empty stock). Asked only of
    variants with a ``pile.take_top_only`` clause, so the others do no work for it."""
    if not state.pile or not rules.clauses(_TOP_ONLY.hook):
        return False
    return rules.predicate_of(_TOP_ONLY, _top_card_values(rules, state, seat))


def bare_refusal(rules: Rules, state: HandState, seat: int, kind: str) -> Clause | None:
    """The clause refusing ``seat`` an action of a kind that carries no cards (``actions.BARE_KINDS``), or None; what
    ``plan`` checks for them, without building a plan (the listing asks this of every position)."""
    refusal = kind_refusal(rules, state, seat, kind)
    if refusal is not None or kind not in ("draw", "ask", "pass"):
        return refusal
    table = table_values(rules, state, seat)
    if kind == "draw":
        return rules.failing_of(_DRAW_ALLOWED, (*table, state.phase, must_take_pile(rules, state, seat)))
    if kind == "pass":
        return _pass_refusal(rules, state, seat, table)
    values = (
        *table,
        state.phase,
        state.melded_this_turn or state.took_pile_this_turn,
        state.asked_this_turn,
        bool(state.asked_in_hand >> seat & 1),
        state.partner_of(seat) is not None,
    )
    return rules.failing_of(_ASK, values)


def _pass_refusal(rules: Rules, state: HandState, seat: int, table: tuple[Any, ...]) -> Clause | None:
    """The ``turn.pass`` clause refusing a pass (ending the turn without a discard), or None; whether the player may
    go out is asked with the canastas the side has now, since a pass lays nothing."""
    out = may_go_out(rules, state, seat, side_tally(rules, state, seat))
    return rules.failing_of(_PASS, (*table, state.phase, out, state.last_card_bonus))


def answerer(rules: Rules, state: HandState, seat: int) -> int:
    """The partner who answers ``seat``'s "may I go out?": the spec's ``go_out.answerer`` if it has clauses (a
    variant with several partners says which), else the next seat in turn order on the same side."""
    if not rules.clauses("go_out.answerer"):
        partner = state.partner_of(seat)
        if partner is None:
            raise CanastaError(
                f"{rules.variant.id}: seat {seat} has no partner to ask; the spec must refuse go_out.ask "
                "when has_partner is false"
            )
        return partner
    chosen = rules.value_of(_ANSWERER, (seat,)) % rules.players
    if chosen == seat or state.side_of[chosen] != state.side_of[seat]:
        ids = ", ".join(clause.id for clause in rules.clauses("go_out.answerer"))
        raise CanastaError(f"go_out.answerer ({ids}) names seat {chosen} for seat {seat}, who is not a partner")
    return chosen


def cards_above_turn_card(rules: Rules, state: HandState) -> int:
    """The most bonus cards an initial meld may earn now: the stock's cards above the turn card (none once it is
    drawn, hook stock.turn_card_depth), or the whole stock where there is no turn card."""
    depth = rules.turn_card_depth
    if not depth:
        return len(state.stock)
    return max(0, len(state.stock) - depth - 1)


def turn_card_drawn(rules: Rules, state: HandState) -> bool:
    """Whether the turn card has left the stock: the stock only shrinks from the top, so its size tells."""
    return bool(rules.turn_card_depth) and len(state.stock) <= rules.turn_card_depth


def opening_bonus(rules: Rules, state: HandState, seat: int, *, taking_pile: bool = False) -> int:
    """The bonus cards ``seat`` earns if it makes its side's initial meld now (hook bonus_draw.count), by taking
    the pile or not: under talons, the size of the next talon not yet claimed; else the count, cut to the cards
    above the turn card. Nothing once the side has melded: the plan of an opening adds this to the cards the
    player still has."""
    if not rules.draws_bonus or state.team_opened[state.side_of[seat]]:
        return 0
    if rules.bonus_from_talons:
        claimed = sum(1 for owed in state.bonus_draws_owed if owed)
        return len(state.talons[claimed]) if claimed < len(state.talons) else 0
    opened = sum(1 for melded in state.team_opened if melded)
    count = rules.value_of(_BONUS_DRAW_COUNT, (opened == 0, opened, taking_pile))
    return max(0, min(count, cards_above_turn_card(rules, state)))


def may_keep_bonus(rules: Rules, state: HandState, seat: int) -> bool:
    """Whether ``seat`` may keep a bonus card it receives instead of laying it out (hook bonus_card.keep)."""
    return rules.predicate_of(_KEEP_BONUS, (state.team_opened[state.side_of[seat]],))


def keep_refusal(rules: Rules, card: Card) -> Clause | None:
    """The clause refusing a player to keep ``card``, or None: only a bonus card is kept, by the rule that lets a
    player keep one (the first ``bonus_card.keep`` clause: none to cite where no clause lets anyone keep, and then
    the phase never comes)."""
    if rules.is_bonus[card]:
        return None
    clauses = rules.clauses("bonus_card.keep")
    return clauses[0] if clauses else None


def effects_without_melding(state: HandState, action: Action, seat: int) -> Plan:
    """The plan of an action that lays no meld: only how many cards are left, and whether that is going out."""
    if action.kind != "discard":
        return Plan(action, hand_after=state.cards_held(seat))
    hand_after = state.cards_held(seat) - 1
    return Plan(action, hand_after=hand_after, going_out=hand_after == 0, concealed=False)


#: One group of an action as ``_layout`` lays it: the rank of the meld it makes (``group_rank``), its cards, how
#: many natural ranks it holds, and the meld it names (0: none).
Contribution = tuple[int, list[Card], int, int]


def _contributions(rules: Rules, groups: Sequence[MeldGroup]) -> list[Contribution]:
    """Each group as a ``Contribution``; a group of wild cards alone has the joker rank."""
    return [(group_rank(rules, g), list(g.cards), natural_ranks(rules, g.cards), g.target) for g in groups]


def natural_ranks(rules: Rules, cards: Sequence[Card]) -> int:
    """How many different ranks the natural cards among ``cards`` are of."""
    return len({rank_of(c) for c in cards if not rules.is_wild[c]})


#: Where ``_layout`` files a group that starts a meld of its own (a key above every rank and below no meld).
_OWN_MELD: Final = 100


def _placed(
    rules: Rules, state: HandState, team: int, contributions: Sequence[Contribution], *, taking: bool = False
) -> tuple[list[int], dict[int, tuple[Meld | None, list[Card], int, int]]]:
    """Which meld each contribution joins, gathered by meld: a named one (key ``-N``), the side's meld of its rank
    where the spec merges that rank (key: the rank), or a new one of its own. Per key: the meld before, the cards
    added, the most natural ranks in one group, and the rank of the meld they make."""
    melds = state.melds[team]
    order: list[int] = []
    placed: dict[int, tuple[Meld | None, list[Card], int, int]] = {}
    for index, (rank, cards, spread, target) in enumerate(contributions):
        if target:
            key = -target
            before: Meld | None = melds[target - 1]
            _refuse_named(rules, rank, before)
        else:
            first = taking and index == 0  # a take's group: the pile's top card and the cards that meld it
            key, before = _merge_place(rules, state, team, rank, cards, own_key=_OWN_MELD + index, taking=first)
        known = placed.get(key)
        if known is None:
            order.append(key)
            placed[key] = (before, list(cards), spread, before.rank if before is not None else rank)
        else:
            known[1].extend(cards)
            placed[key] = (known[0], known[1], max(known[2], spread), known[3])
    return order, placed


def _refuse_named(rules: Rules, rank: int, meld: Meld | None) -> None:
    """Refuse a group naming ``meld`` where the spec already says which meld its cards join (it merges that
    rank: hook meld.merge_same_rank), or where the meld is closed (hook meld.closed), citing that clause."""
    if rules.merges_same_rank[rank]:
        rules.refuse(rules.first_clause("meld.merge_same_rank", {"rank": RANK_NAMES[rank]}))
    if meld is not None and meld.closed:
        rules.refuse(rules.first_clause("meld.closed", _closed_env(meld)))


def _closed_env(meld: Meld) -> dict[str, Any]:
    return {"rank": MELD_RANK_NAMES[meld.rank], "size": meld.size, "naturals": meld.naturals, "wilds": meld.wilds}


def sequence_facts(rules: Rules, meld: Meld) -> tuple[int, bool, str]:
    """What ``meld.valid`` reads of a sequence: how many suits its natural cards show, whether their ranks run
    without a gap or a repeat (threes up to aces), and its lowest rank's name."""
    naturals = [c for c in meld.cards if not rules.is_wild[c]]
    ranks = sorted(rank_of(c) for c in naturals)
    if not ranks:
        return 0, True, ""
    suits = len({c & 3 for c in naturals})
    run = len(set(ranks)) == len(ranks) and ranks[-1] - ranks[0] + 1 == len(ranks) and ranks[0] >= SEQUENCE_ORDER[0]
    return suits, run, RANK_NAMES[ranks[0]]


def meld_values(
    rules: Rules,
    table: tuple[Any, ...],
    result: Meld,
    before: Meld | None,
    added: Sequence[Card],
    spread: int,
    going_out: bool,
    initial: bool,
    facts: RankFacts,
    take_onto_meld: bool = False,
) -> tuple[Any, ...]:
    """The ``meld.valid`` values of ``result``, the meld ``added`` makes alone or joining ``before``
    (``take_onto_meld``: a take of the pile lays its top card on ``before``)."""
    rank = result.rank
    if rank == SEQUENCE_RANK:
        suits, run, lowest = sequence_facts(rules, result)
        spread = natural_ranks(rules, result.cards)
    else:
        suits, run, lowest = 0, True, RANK_NAMES[rank]
    return (
        *table,
        MELD_RANK_NAMES[rank],
        result.size,
        result.naturals,
        result.wilds,
        result.jokers,
        spread,
        meld_kind(rank),
        suits,
        run,
        lowest,
        before is None,
        len(added),
        wilds_among(rules, added),
        before is not None and is_canasta(rules, before),
        going_out,
        initial,
        *facts.of(rank),
        take_onto_meld,
    )


#: Where the side's having melded is among the table values.
_TEAM_HAS_MELDED: Final = TABLE_VARIABLES.index("team_has_melded")


def written_meld_refusal(
    rules: Rules, state: HandState, team: int, meld: Meld, *, going_out: bool = False
) -> Clause | None:
    """The ``meld.valid`` clause refusing a meld written in a position for side ``team`` (not laid by an action),
    or None when some play by a seat of the side could have laid it: all its cards at once as a new meld, in an
    opening or not, going out only where the position allows it (``going_out``: the side's player is going out
    this turn), on a table that makes no rank dead and holds no open wild meld (what the table held when the meld
    was laid is not written, so its own cards are judged). The clause cited is the one refusing the play that
    allows most, the last tried."""
    table = table_values(rules, state, state.side_of.index(team))
    spread = natural_ranks(rules, meld.cards)
    clause: Clause | None = None
    for out in (False, True) if going_out else (False,):
        for initial in (False, True):
            before = (*table[:_TEAM_HAS_MELDED], not initial, *table[_TEAM_HAS_MELDED + 1 :])
            values = meld_values(rules, before, meld, None, meld.cards, spread, out, initial, NO_RANK_FACTS)
            clause = rules.failing_of(MELD_VALID, values)
            if clause is None:
                return None
    return clause


def wilds_among(rules: Rules, cards: Sequence[Card]) -> int:
    """How many of ``cards`` are wild (a loop: the compiled engine builds a generator for ``sum`` over one)."""
    wilds = 0
    is_wild = rules.is_wild
    for card in cards:
        if is_wild[card]:
            wilds += 1
    return wilds


def _note_laid(rules: Rules, rank: int, cards: Sequence[Card]) -> None:
    """Record, for rule coverage, the decisions read from tables computed at load time about cards laid on a meld
    of ``rank``: whether it is a sequence, its canasta size, which cards are wild, whether its rank merges."""
    if rank == SEQUENCE_RANK:
        rules.note("meld.sequence", {})
    rules.note_rank("canasta.size", rank)
    for card in cards:
        rules.note_rank("card.wild", rank_of(card))
    rules.note_rank("meld.merge_same_rank", rank)


def _layout_one(
    rules: Rules,
    state: HandState,
    seat: int,
    team: int,
    contribution: Contribution,
    *,
    hand_after: int,
    initial: bool,
    vetted: bool = False,
    taking: bool = False,
) -> tuple[list[Meld], list[int], bool, Tally]:
    """``_layout`` of one group, the usual action, written out without the gathering of several: every meld
    action applied and every take listed plans one."""
    rank, cards, spread, target = contribution
    melds = state.melds[team]
    before: Meld | None
    if target:
        key, before = -target, melds[target - 1]
        _refuse_named(rules, rank, before)
        rank = before.rank
    else:
        key, before = _merge_place(rules, state, team, rank, cards, own_key=_OWN_MELD, taking=taking)
    if rules.coverage is not None:
        _note_laid(rules, rank, cards)
    result = before.plus(cards, rules.is_wild) if before else Meld.build(rank, cards, rules.is_wild)
    current = list(melds)
    place = _place_of(melds, key, before) if before is not None else len(current)
    if before is not None:
        current[place] = result
    else:
        current.append(result)
    tally = side_tally(rules, state, seat) - _canasta_of(rules, before) + _canasta_of(rules, result)
    if not vetted:
        table = table_values(rules, state, seat)
        facts = rank_facts(rules, state, seat)
        going_out = hand_after == 0 or (hand_after == 1 and goes_out_melding(rules, state, seat, 1, tally))
        if key < 0:  # a named meld: the cards joined may be of another rank than its own
            spread = natural_ranks(rules, result.cards)
        onto = taking and before is not None
        values = meld_values(rules, table, result, before, cards, spread, going_out, initial, facts, onto)
        rules.refuse(rules.failing_of(MELD_VALID, values))
    if rules.closes_melds:
        current[place] = settled(rules, result)
    if before is not None:
        # Adding to a meld laid earlier in this same turn is still the player's own melding.
        return current, [], place not in state.created_this_turn, tally
    return current, [place], False, tally


def _tally_with(
    rules: Rules,
    melds: Sequence[Meld],
    placed: dict[int, tuple[Meld | None, list[Card], int, int]],
    order: Sequence[int],
    results: Sequence[Meld],
) -> Tally:
    """The side's canastas once ``results`` replace the melds they join (or are added as new ones)."""
    after = list(melds)
    for i in range(len(order)):  # indexed, not zipped: a compiled zip(strict=True) is a generic call
        key, result = order[i], results[i]
        before = placed[key][0]
        if before is not None:
            after[_place_of(melds, key, before)] = result
        else:
            after.append(result)
    return canasta_tally(rules, after)


def _place_of(melds: Sequence[Meld], key: int, before: Meld) -> int:
    """Where the meld a contribution joins lies in the side's row: the place it names (key ``-N``), or the merge
    target's own place (found by identity: two melds may hold the same cards)."""
    if key < 0:
        return -key - 1
    for place, meld in enumerate(melds):
        if meld is before:
            return place
    raise ValueError("the meld joined is not the side's")


def _layout(
    rules: Rules,
    state: HandState,
    seat: int,
    contributions: Sequence[Contribution],
    *,
    hand_after: int,
    initial: bool,
    vetted: bool = False,
    taking: bool = False,
) -> tuple[list[Meld], list[int], bool, Tally]:
    """Put the contributions into the side's melds and check every meld that changes (hook meld.valid; not for
    melds ``vetted`` by the listing). ``created`` lists the new melds' places in the side's row; ``taking``: the
    first contribution is a take's, the pile's top card with the cards that meld it."""
    team = state.side_of[seat]
    if len(contributions) == 1:
        return _layout_one(
            rules,
            state,
            seat,
            team,
            contributions[0],
            hand_after=hand_after,
            initial=initial,
            vetted=vetted,
            taking=taking,
        )
    current = list(state.melds[team])
    order, placed = _placed(rules, state, team, contributions, taking=taking)
    results: list[Meld] = []
    for key in order:
        before, cards, _, rank = placed[key]
        if rules.coverage is not None:
            _note_laid(rules, rank, cards)
        results.append(before.plus(cards, rules.is_wild) if before else Meld.build(rank, cards, rules.is_wild))
    if not vetted:
        _refuse_invalid_melds(
            rules, state, seat, current, placed, order, results, hand_after=hand_after, initial=initial, taking=taking
        )
    created: list[int] = []
    added_existing = False
    for i in range(len(order)):  # as in _tally_with
        key, result = order[i], results[i]
        before = placed[key][0]
        if rules.closes_melds:
            result = settled(rules, result)
        if before is not None:
            place = _place_of(state.melds[team], key, before)
            current[place] = result
            # Adding to a meld laid earlier in this same turn is still the player's own melding.
            added_existing = added_existing or place not in state.created_this_turn
        else:
            created.append(len(current))
            current.append(result)
    return current, created, added_existing, canasta_tally(rules, current)


def _refuse_invalid_melds(
    rules: Rules,
    state: HandState,
    seat: int,
    melds: Sequence[Meld],
    placed: dict[int, tuple[Meld | None, list[Card], int, int]],
    order: Sequence[int],
    results: Sequence[Meld],
    *,
    hand_after: int,
    initial: bool,
    taking: bool = False,
) -> None:
    """Hook meld.valid on each meld a layout of several groups makes or changes (``results``, in ``order``), the
    side's melds still as they were (``melds``); raises IllegalAction citing the first clause a meld breaks.
    ``taking``: the first of ``order`` is the meld a take lays the pile's top card on."""
    table = table_values(rules, state, seat)
    facts = rank_facts(rules, state, seat)
    going_out = hand_after == 0 or (
        hand_after == 1 and goes_out_melding(rules, state, seat, 1, _tally_with(rules, melds, placed, order, results))
    )
    for i in range(len(order)):  # as in _tally_with
        key, result = order[i], results[i]
        before, cards, spread, _ = placed[key]
        if key < 0:  # a named meld: the cards joined may be of another rank than its own
            spread = natural_ranks(rules, result.cards)
        onto = taking and i == 0 and before is not None
        values = meld_values(rules, table, result, before, cards, spread, going_out, initial, facts, onto)
        rules.refuse(rules.failing_of(MELD_VALID, values))


def goes_out_melding(rules: Rules, state: HandState, seat: int, hand_after: int, canastas_after: Tally) -> bool:
    """Whether melding down to ``hand_after`` cards is going out (``meld.valid``'s ``going_out``): an empty hand,
    or one card the discard then plays; a player who may not go out where a turn may end by passing keeps it."""
    if hand_after != 1:
        return hand_after == 0
    return "pass" in rules.refused_kinds or may_go_out(rules, state, seat, canastas_after)


def composition_of(rank: int, naturals: int, wilds: int) -> int:
    """What one meld of an opening is, as ``CLEAN_MELD``, ``WILD_MELD`` and ``THREE_NATURALS_MELD`` bits."""
    if rank == JOKER_RANK:
        return WILD_MELD
    if naturals < 3:
        return 0
    return THREE_NATURALS_MELD | (CLEAN_MELD if wilds == 0 else 0)


def melds_composition(rules: Rules, melds: Sequence[Meld]) -> int:
    """What an opening's melds are made of, as bits (0 where no clause asks: ``Rules.reads_composition``)."""
    if not rules.reads_composition:
        return 0
    bits = 0
    for meld in melds:
        bits |= composition_of(meld.rank, meld.naturals, meld.wilds)
    return bits


def _initial_meld(
    rules: Rules,
    state: HandState,
    seat: int,
    hand_cards: Sequence[Card],
    top_card: Card | None,
    melds: Sequence[Meld],
    *,
    concealed_out: bool,
    concealed_by_discard: bool = False,
) -> None:
    refusal = initial_meld_refusal(
        rules,
        state,
        seat,
        hand_points=sum(rules.card_value[c] for c in hand_cards),
        top_card_points=rules.card_value[top_card] if top_card is not None else 0,
        kinds=canasta_kinds(rules, melds),
        concealed_out=concealed_out,
        concealed_by_discard=concealed_by_discard,
        taking_pile=top_card is not None,
        composition=opening_composition(rules, melds, top_card),
    )
    rules.refuse(refusal)


def opening_composition(rules: Rules, melds: Sequence[Meld], top_card: Card | None) -> int:
    """What an opening's melds are made of (``melds_composition``); for one that takes the pile, where hook
    initial_meld.composition_from_hand says so, with the top card set aside from its meld: the opening must qualify
    from hand before the top card is added."""
    if top_card is None or not rules.reads_composition:
        return melds_composition(rules, melds)
    if rules.coverage is not None:
        rules.note("initial_meld.composition_from_hand", {})
    if not rules.composition_from_hand:
        return melds_composition(rules, melds)
    bits = 0
    set_aside = False
    for meld in melds:
        naturals, wilds = meld.naturals, meld.wilds
        if not set_aside and top_card in meld.cards:
            set_aside = True
            if rules.is_wild[top_card]:
                wilds -= 1
            else:
                naturals -= 1
        bits |= composition_of(meld.rank, naturals, wilds)
    return bits


def initial_meld_refusal(
    rules: Rules,
    state: HandState,
    seat: int,
    *,
    hand_points: int,
    top_card_points: int,
    kinds: CanastaKinds,
    concealed_out: bool,
    concealed_by_discard: bool,
    taking_pile: bool,
    composition: int = 0,
) -> Clause | None:
    """The clause a side's first melds break (hooks ``initial_meld.minimum``, ``.count``, ``.valid``), or None.
    ``concealed_out``: the melds empty the hand, going out concealed; ``concealed_by_discard``: they leave one card
    whose discard goes out concealed (the spec decides whether either waives the minimum); ``composition``: what
    the melds are made of (``melds_composition``)."""
    minimum = initial_minimum(rules, state, seat)
    count = rules.value_of(_COUNT, (hand_points, top_card_points, *kinds))
    values = (
        count,
        minimum,
        concealed_out,
        concealed_by_discard,
        taking_pile,
        bool(composition & CLEAN_MELD),
        bool(composition & WILD_MELD),
        bool(composition & THREE_NATURALS_MELD),
        kinds[0],
        kinds[1],
        kinds[2],
    )
    return rules.failing_of(_INITIAL_VALID, values)


#: The initial-meld hooks' variables for the canastas by kind (in ``CanastaKinds`` order), and for going out
#: concealed.
INITIAL_KIND_VARIABLES: Final = _COUNT.names[2:5]
INITIAL_CONCEALED_VARIABLES: Final = ("going_out_concealed", "going_out_concealed_by_discard")


def initial_meld_reads(rules: Rules, name: str) -> bool:
    """Whether a clause of a hook ``initial_meld_refusal`` asks reads the variable ``name``: one no clause reads
    cannot change its answer (``Rules.reads``)."""
    return rules.reads(_COUNT.hook, name) or rules.reads(_INITIAL_VALID.hook, name)


def initial_minimum(rules: Rules, state: HandState, seat: int) -> int:
    """The points ``seat``'s side needs for its initial meld (hook ``initial_meld.minimum``): asked once a position,
    since every opening judged in a listing asks it."""
    facts = derived(rules, state)
    known: int | None = facts.at(MINIMUM, seat)
    if known is None:
        scores = state.team_scores
        values = (scores[state.side_of[seat]], scores[rules.score_holder[seat]], state.hand_number)
        known = rules.value_of(_MINIMUM, values)
        facts.keep(MINIMUM, seat, known)
    return known


def _require_ending(rules: Rules, state: HandState, seat: int, hand_after: int, canastas_after: Tally) -> None:
    """After melding or taking (a discard still to come): going out if the hand is empty, else keep a card."""
    rules.refuse(ending_refusal(rules, state, seat, hand_after, canastas_after, not state.last_card_bonus))


def ending_refusal(
    rules: Rules, state: HandState, seat: int, hand_after: int, canastas_after: Tally, discard_pending: bool
) -> Clause | None:
    """The clause an action leaving ``hand_after`` cards breaks: going out (hook ``go_out.allowed``) when the hand
    empties, else the cards a player who may not go out must keep (``go_out.keep_card``); None if neither."""
    if hand_after == 0:
        refusal = go_out_refusal(rules, state, seat, canastas_after)
        if refusal is not None:
            return refusal
    return keep_card_refusal(rules, hand_after, discard_pending, may_go_out(rules, state, seat, canastas_after))


def keep_card_refusal(rules: Rules, hand_after: int, discard_pending: bool, may_go_out: bool) -> Clause | None:
    """The ``go_out.keep_card`` clause refusing an action that leaves ``hand_after`` cards, or None. The listing
    asks it of every ending it meets, two a position on average: Rules keeps the answers in a table keyed by one
    int, which costs a fraction of the query's tuple and projection (with coverage on, the clauses are asked every
    time)."""
    if rules.coverage is not None:
        return rules.failing_of(_KEEP_CARD, (hand_after, discard_pending, may_go_out))
    key = hand_after * 4 + discard_pending * 2 + may_go_out
    table = rules.keep_card_refusals
    if key not in table:
        table[key] = rules.failing_of(_KEEP_CARD, (hand_after, discard_pending, may_go_out))
    return table[key]


def concealed_now(rules: Rules, state: HandState, seat: int, created: Sequence[int], melds: Sequence[Meld]) -> bool:
    """Whether a player going out now goes out concealed (hook go_out.concealed)."""
    return goes_out_concealed(rules, state, own_canasta_made(rules, state, created, melds))


def own_canasta_made(rules: Rules, state: HandState, created: Sequence[int], melds: Sequence[Meld]) -> bool:
    """Whether a canasta is among the melds the player laid this turn (``created`` now, or earlier in it: places
    in the side's row of ``melds``)."""
    return any(is_canasta(rules, melds[i]) for i in (*created, *state.created_this_turn) if i < len(melds))


def concealed_by_discard(rules: Rules, state: HandState, seat: int, made_canasta: bool, canastas_after: Tally) -> bool:
    """For melds that leave one card: whether discarding it would go out concealed (``initial_meld.valid``'s
    ``going_out_concealed_by_discard``; the spec decides whether that waives the minimum)."""
    return goes_out_concealed(rules, state, made_canasta) and may_go_out(rules, state, seat, canastas_after)


def goes_out_concealed(rules: Rules, state: HandState, made_canasta: bool) -> bool:
    """Hook ``go_out.concealed`` for the turn so far, given whether the player made a canasta of their own."""
    values = (state.melded_before_turn, state.added_to_existing_this_turn, made_canasta, state.took_pile_this_turn)
    return rules.predicate_of(_CONCEALED, values)


def _plan_meld(rules: Rules, state: HandState, action: Action, seat: int, *, vetted: bool = False) -> Plan:
    team = state.side_of[seat]
    initial = not state.team_opened[team]
    if not vetted:
        values = (
            *table_values(rules, state, seat),
            state.phase,
            len(action.melds),
            repeated_ranks(rules, action.melds),
            initial,
        )
        rules.refuse(rules.failing_of(MELD_ACTION, values))
    used = action.all_cards()
    hand_after = state.cards_held(seat) - len(used) + opening_bonus(rules, state, seat)
    contributions = _contributions(rules, action.melds)
    melds, created, added, canastas_after = _layout(
        rules, state, seat, contributions, hand_after=hand_after, initial=initial, vetted=vetted
    )
    concealed = hand_after == 0 and concealed_now(rules, state, seat, created, melds)
    if not vetted:
        if initial:
            by_discard = hand_after == 1 and concealed_by_discard(
                rules, state, seat, own_canasta_made(rules, state, created, melds), canastas_after
            )
            _initial_meld(
                rules, state, seat, used, None, melds, concealed_out=concealed, concealed_by_discard=by_discard
            )
        _require_ending(rules, state, seat, hand_after, canastas_after)
    return Plan(action, melds, created, added, hand_after, hand_after == 0, concealed)


#: The top-card values of ``pile.take`` when the pile is empty.
_NO_TOP_CARD: Final = ("", False, False, False)


def take_refusal(rules: Rules, state: HandState, seat: int, action: Action) -> Clause | None:
    """The ``pile.take`` clause refusing this take, or None (the listing asks it before planning a take)."""
    target_fields = _take_target_fields(rules, state, seat, action)
    return take_fields_refusal(rules, state, seat, _take_fields(rules, state, action), target_fields)


def take_fields_refusal(
    rules: Rules,
    state: HandState,
    seat: int,
    fields: tuple[int, ...],
    target_fields: tuple[Any, ...] | None = None,
) -> Clause | None:
    """``take_refusal`` for a take described by its ``pile.take`` fields (the end of ``_PILE_TAKE``'s names), and
    by what it says of the meld the top card joins (``target_fields``; None: a take naming no meld, whose cards
    are of the top card's rank, as ``_take_values`` ends)."""
    start = _take_values(rules, state, seat)
    if target_fields is not None:
        start = (*start[:_TARGET_AT], *target_fields)
    return rules.failing_of(_PILE_TAKE, (*start, *fields))


#: Where the target fields (``_target_fields``) begin among ``_take_values``.
_TARGET_AT: Final = _PILE_TAKE.names.index("take_target")


def _target_fields(rules: Rules, named: bool, joined: Meld | None, sequence: bool) -> tuple[Any, ...]:
    """``pile.take``'s ``take_target``, ``target_kind``, ``target_is_canasta`` and ``take_sequence``."""
    if joined is None:
        return (named, "", False, sequence)
    return (named, meld_kind(joined.rank), is_canasta(rules, joined), sequence)


def _take_target_fields(rules: Rules, state: HandState, seat: int, action: Action) -> tuple[Any, ...] | None:
    """The target fields of ``pile.take`` for this take (see ``_target_fields``); None for a take naming no meld
    whose cards are of the top card's rank (those ``_take_values`` ends with)."""
    if not state.pile or not (action.target or rules.sequences):
        return None
    top = state.pile[-1]
    sequence = rules.sequences and natural_ranks(rules, (top, *action.cards)) > 1
    if not action.target:
        return _target_fields(rules, False, None, True) if sequence else None
    melds = state.melds[state.side_of[seat]]
    joined = melds[action.target - 1] if action.target <= len(melds) else None
    return _target_fields(rules, True, joined, sequence)


def _take_values(rules: Rules, state: HandState, seat: int) -> tuple[Any, ...]:
    """The ``pile.take`` values that do not depend on the cards offered: the table, the pile and the side, then
    the target fields of a take naming no meld (the meld of the top card's rank it joins, if the spec merges
    that rank): the start of ``_PILE_TAKE``'s names; once per position."""
    facts = derived(rules, state)
    known: tuple[Any, ...] | None = facts.at(TAKE_VALUES, seat)
    if known is not None:
        return known
    team = state.side_of[seat]
    top = state.pile[-1] if state.pile else None
    existing = state.meld_of_rank(team, rank_of(top)) if top is not None else None
    joined = existing if top is not None and rules.merges_same_rank[rank_of(top)] else None  # merge_target's
    table = table_values(rules, state, seat)
    known = (
        *table,
        state.phase,
        pile_frozen(rules, state, seat),
        *(rules.top_card_values[top] if top is not None else _NO_TOP_CARD),
        existing is not None,
        existing is not None and is_canasta(rules, existing),
        rules.reads(_PILE_TAKE.hook, "may_go_out") and may_go_out(rules, state, seat, side_tally(rules, state, seat)),
        *_target_fields(rules, False, joined, False),
    )
    facts.keep(TAKE_VALUES, seat, known)
    return known


def _take_fields(rules: Rules, state: HandState, action: Action) -> tuple[int, ...]:
    """The ``pile.take`` values that describe the cards offered with the top card (the end of ``_PILE_TAKE``)."""
    top_rank = rank_of(state.pile[-1]) if state.pile else -1
    if not action.melds:
        return (*take_card_counts(rules, action.cards, top_rank), 0, 0, 0)
    return (
        *take_card_counts(rules, action.cards, top_rank),
        len(action.melds),
        sum(1 for g in action.melds if group_rank(rules, g) == top_rank),
        repeated_ranks(rules, action.melds),
    )


def take_card_counts(rules: Rules, cards: Sequence[Card], top_rank: int) -> tuple[int, int, int]:
    """``pile.take``'s counts of the cards from hand that meld the top card: all of them, the naturals of its rank,
    the wild cards."""
    naturals = wilds = 0
    is_wild = rules.is_wild
    for card in cards:
        if is_wild[card]:
            wilds += 1
        elif rank_of(card) == top_rank:
            naturals += 1
    return len(cards), naturals, wilds


def pile_to_hand(rules: Rules, state: HandState, seat: int) -> tuple[int, int]:
    """What taking the pile puts in ``seat``'s hand besides the top card: how many cards (the rest of the pile,
    less its bonus cards, plus those replaced from the stock), and how many bonus cards the stock replaces."""
    if takes_top_only(rules, state, seat):
        return 0, 0
    pile = state.pile
    is_bonus = rules.is_bonus
    bonus_in_pile = 0
    for place in range(len(pile) - 1):  # the rest of the pile, under the top card
        if is_bonus[pile[place]]:
            bonus_in_pile += 1
    replaced = 0
    if bonus_in_pile and rules.predicate_of(BONUS_REPLACE, (True, len(state.stock))):
        replaced = min(bonus_in_pile, len(state.stock))
    return max(len(pile) - 1, 0) - bonus_in_pile + replaced, replaced


def _plan_take(rules: Rules, state: HandState, action: Action, seat: int, *, pile_take_asked: bool = False) -> Plan:
    team = state.side_of[seat]
    initial = not state.team_opened[team]
    top = state.pile[-1] if state.pile else None
    top_rank = rank_of(top) if top is not None else -1
    gained, replaced = pile_to_hand(rules, state, seat)
    used = action.all_cards()
    hand_after = state.cards_held(seat) - len(used) + gained + opening_bonus(rules, state, seat, taking_pile=True)
    if not pile_take_asked:
        rules.refuse(take_refusal(rules, state, seat, action))
    assert top is not None  # pile.take refuses an empty pile
    contributions = _contributions(rules, action.melds)
    top_cards = [top, *action.cards]
    spread = natural_ranks(rules, top_cards) if rules.sequences and action.cards else 1
    top_group_rank = SEQUENCE_RANK if spread > 1 else top_rank
    contributions.insert(0, (top_group_rank, top_cards, spread or 1, action.target))
    melds, created, added, canastas_after = _layout(
        rules, state, seat, contributions, hand_after=hand_after, initial=initial, taking=True
    )
    if initial:
        _initial_meld(rules, state, seat, used, top, melds, concealed_out=False)
    _require_ending(rules, state, seat, hand_after, canastas_after)
    concealed = hand_after == 0 and concealed_now(rules, state, seat, created, melds)
    return Plan(action, melds, created, added, hand_after, hand_after == 0, concealed, replaced)


def group_rank(rules: Rules, group: MeldGroup) -> int:
    """The rank of the meld a group makes or joins: its natural cards', a sequence's (where the spec has them,
    hook meld.sequence, and the natural cards are of several ranks), its label's, or the wild-meld rank."""
    found = -1
    for card in group.cards:
        if not rules.is_wild[card]:
            if found < 0:
                found = rank_of(card)
                if not rules.sequences:
                    return found
            elif rank_of(card) != found:
                return SEQUENCE_RANK
    if found >= 0:
        return found
    return group.rank if group.rank is not None else JOKER_RANK


def repeated_ranks(rules: Rules, groups: Sequence[MeldGroup]) -> int:
    """How many groups of the same action repeat an earlier one's rank, or the meld it names (sequences, each a
    meld of its own, repeat nothing)."""
    if not groups:
        return 0
    keys = [-g.target if g.target else group_rank(rules, g) for g in groups]
    keys = [k for k in keys if k != SEQUENCE_RANK]
    return len(keys) - len(set(keys))


def _plan_combine(rules: Rules, state: HandState, action: Action, seat: int) -> Plan:
    """Two of the side's melds made one (hook meld.combine, then meld.valid on the combined meld as one meld's
    cards joining the other, see ``_combined_into``). The combined meld takes the first one's place, and the melds
    after the second move up one place."""
    team = state.side_of[seat]
    melds = state.melds[team]
    first, second = (melds[group.target - 1] for group in action.melds)
    table = table_values(rules, state, seat)
    facts = rank_facts(rules, state, seat)
    rules.refuse(combine_refusal(rules, state, seat, first, second))
    for meld in (first, second):
        if meld.closed:
            rules.refuse(rules.first_clause("meld.closed", _closed_env(meld)))
    joined, joining = _combined_into(rules, first, second)
    result = joined.plus(joining.cards, rules.is_wild)
    initial = not state.team_opened[team]
    spread = natural_ranks(rules, result.cards)
    values = meld_values(rules, table, result, joined, joining.cards, spread, False, initial, facts)
    rules.refuse(rules.failing_of(MELD_VALID, values))
    if rules.closes_melds:
        result = settled(rules, result)
    after = list(melds)
    after[action.melds[0].target - 1] = result
    del after[action.melds[1].target - 1]
    return Plan(action, after, [], True, state.cards_held(seat))


def _combined_into(rules: Rules, first: Meld, second: Meld) -> tuple[Meld, Meld]:
    """Which of two melds combined is joined, and which joins it: the cards join a canasta (of two canastas, the
    one with fewer wild cards: a natural canasta is never the one that joins a mixed one), else the first meld."""
    first_canasta, second_canasta = is_canasta(rules, first), is_canasta(rules, second)
    if second_canasta and (not first_canasta or second.wilds < first.wilds):
        return second, first
    return first, second


def combine_refusal(rules: Rules, state: HandState, seat: int, first: Meld, second: Meld) -> Clause | None:
    """The ``meld.combine`` clause refusing to combine two of the side's melds, or None (the listing asks it of
    every pair before planning one)."""
    values = (
        *table_values(rules, state, seat),
        meld_kind(first.rank),
        meld_kind(second.rank),
        first.rank == second.rank and first.rank != SEQUENCE_RANK,
        is_canasta(rules, first),
        is_canasta(rules, second),
    )
    return rules.failing_of(_MELD_COMBINE, values)


def apply_combine(state: HandState, seat: int, result: Plan) -> None:
    """Lay the combined melds, and keep the places of the melds laid this turn (``created_this_turn``) right: the
    second meld's place is gone (its cards are in the first's), the places after it move up one."""
    state.melds[state.side_of[seat]] = tuple(result.melds)
    first, second = (group.target - 1 for group in result.action.melds)
    created = state.created_this_turn
    moved = [i - 1 if i > second else i for i in created if i != second]
    if second in created and first not in moved:
        moved.append(first)
    state.created_this_turn = moved


def apply_meld(rules: Rules, state: HandState, seat: int, result: Plan) -> None:
    """Move the cards a meld or take lays from the hand to the side's melds, as planned."""
    state.take_away(seat, result.action.all_cards())
    state.melds[state.side_of[seat]] = tuple(result.melds)
