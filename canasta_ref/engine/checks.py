"""Whether an action is legal in a position, and what it would do: the rules, asked through the spec's hooks.

``plan`` either raises IllegalAction (citing the clause) or returns a Plan that ``Game.apply`` carries out, so
the checks and the effects are computed once and can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import CanastaError, IllegalAction
from ..spec.model import Clause
from .actions import ACTION_KINDS, TAKE, Action, MeldGroup
from .cards import JOKER_RANK, RANK_NAMES, Card, rank_of
from .hooks import CARD_VARIABLES, TABLE_VARIABLES
from .rules import Query, Rules, remember
from .state import HandState, Meld


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
_KEEP_CARD = Query("go_out.keep_card", ("hand_after", "discard_pending", "may_go_out"))
_GO_OUT_ALLOWED = Query(
    "go_out.allowed",
    (
        *TABLE_VARIABLES,
        "permission",
        "canastas_after",
        "natural_canastas_after",
        "mixed_canastas_after",
        "wild_canastas_after",
    ),
)
_PILE_FROZEN = Query(
    "pile.frozen", (*TABLE_VARIABLES, "pile_has_wild", "pile_has_red_three", "pile_has_black_three", "upcard_froze")
)
_MUST_TAKE = Query("stock_empty.must_take", (*TABLE_VARIABLES, "frozen", "top_matches_team_meld"))
_TOP_ONLY = Query("pile.take_top_only", (*TABLE_VARIABLES, "frozen", "top_matches_team_meld"))
_DRAW_ALLOWED = Query("draw.allowed", (*TABLE_VARIABLES, "phase", "must_take_pile"))
_PASS = Query("turn.pass", (*TABLE_VARIABLES, "phase", "may_go_out", "last_card_bonus"))
_ASK = Query("go_out.ask", (*TABLE_VARIABLES, "phase", "melded_this_turn", "asked_this_turn", "has_partner"))
DISCARD_ALLOWED = Query("discard.allowed", (*TABLE_VARIABLES, *CARD_VARIABLES, "hand_after"))
_ANSWERER = Query("go_out.answerer", ("seat",))
ANSWER_BINDING = Query("go_out.answer_binding", ("permission", "hand_after", "can_still_meld"))
#: ``meld.valid``: the table, then the variables of the meld a group makes (``_layout``, ``movegen.shape_values``).
MELD_VALID = Query(
    "meld.valid",
    (
        *TABLE_VARIABLES,
        "rank",
        "size",
        "naturals",
        "wilds",
        "jokers",
        "natural_ranks",
        "is_new",
        "added",
        "added_wilds",
        "was_canasta",
        "going_out",
        "initial",
    ),
)
MELD_ACTION = Query("meld.action", (*TABLE_VARIABLES, "phase", "groups", "repeated_ranks", "initial"))
_MINIMUM = Query("initial_meld.minimum", ("team_score", "player_score", "hand_number"))
_COUNT = Query(
    "initial_meld.count",
    ("hand_points", "top_card_points", "natural_canastas", "mixed_canastas", "wild_canastas"),
)
_INITIAL_VALID = Query(
    "initial_meld.valid", ("count", "minimum", "going_out_concealed", "going_out_concealed_by_discard", "taking_pile")
)
_CONCEALED = Query("go_out.concealed", ("melded_before", "added_to_partner", "made_canasta", "took_pile"))
_MELD_CLOSED = Query("meld.closed", ("rank", "size", "naturals", "wilds"))
BONUS_REPLACE = Query("bonus_card.replace", ("from_pile", "stock_size"))
LAST_CARD_BONUS_ENDS = Query("stock.last_card_bonus_ends", ("stock_size",))
ENDS_WITH_DISCARD = Query("stock.ends_with_discard", ("stock_size",))
#: ``pile.take``: the table, the pile and the side (``_take_values``), then the cards offered (``_take_fields``).
_PILE_TAKE = Query(
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
        "take_cards",
        "take_naturals",
        "take_wilds",
        "extra_melds",
        "extra_of_top_rank",
        "extra_repeated_ranks",
    ),
)


def derived(rules: Rules, state: HandState) -> dict[Any, Any]:
    """The facts already computed from this position with these rules (see ``HandState.derived``)."""
    facts = state.derived
    if facts.get("rules") is not rules:
        facts = state.derived = {"rules": rules}
    return facts


class CanastaKinds(NamedTuple):
    """A side's canastas by kind: of natural cards only, of natural and wild cards, of wild cards only."""

    natural: int
    mixed: int
    wild: int


def canasta_kind(naturals: int, wilds: int) -> int:
    """The index in ``CanastaKinds`` of a canasta with these cards: natural, mixed or wild."""
    return 0 if wilds == 0 else 2 if naturals == 0 else 1


def canasta_kinds(rules: Rules, melds: Sequence[Meld]) -> CanastaKinds:
    """How many of the melds are natural canastas, how many mixed, and how many wild."""
    return CanastaKinds(*tally_counts(canasta_tally(rules, melds)))


#: A side's canastas by kind packed into one int: natural, mixed and wild counts in fields of ``TALLY_BITS`` bits,
#: lowest first. Adding canastas is adding tallies, and a tally keys a cache as it is: the listing asks "may the
#: player go out with these canastas?" of every ending it meets, and builds no tuple to ask it.
Tally = int
TALLY_BITS = 12
_TALLY_FIELD = (1 << TALLY_BITS) - 1


def tally_of(kinds: Sequence[int]) -> Tally:
    """The tally of canastas counted by kind (natural, mixed, wild)."""
    return kinds[0] | kinds[1] << TALLY_BITS | kinds[2] << 2 * TALLY_BITS


def one_canasta(kind: int) -> Tally:
    """The tally of one canasta of ``kind`` (an index into ``CanastaKinds``; -1: none, an empty tally)."""
    return 0 if kind < 0 else 1 << kind * TALLY_BITS


def tally_counts(tally: Tally) -> tuple[int, int, int]:
    """A tally's natural, mixed and wild canastas."""
    return tally & _TALLY_FIELD, tally >> TALLY_BITS & _TALLY_FIELD, tally >> 2 * TALLY_BITS


def canasta_tally(rules: Rules, melds: Sequence[Meld]) -> Tally:
    """The melds' canastas by kind, as a tally."""
    tally = 0
    sizes = rules.canasta_size
    for meld in melds:
        if meld.size >= sizes[meld.rank]:
            tally += one_canasta(canasta_kind(meld.naturals, meld.wilds))
    return tally


def table_values(rules: Rules, state: HandState, seat: int) -> tuple[Any, ...]:
    """The values of the variables every hook about the table shares (``hooks.TABLE_VARIABLES``, in order)."""
    facts = derived(rules, state)
    tables: list[tuple[Any, ...] | None] | None = facts.get("table")  # by seat: no key tuple to build and hash
    if tables is None:
        tables = facts["table"] = [None] * rules.players
    known = tables[seat]
    if known is None:
        team = state.side_of[seat]
        tally = canasta_tally(rules, state.melds[team])
        tallies: list[int] | None = facts.get("tally")  # by seat, kept for side_tally (-1: not yet counted)
        if tallies is None:
            tallies = facts["tally"] = [-1] * rules.players
        tallies[seat] = tally
        known = tables[seat] = (
            seat,
            state.team_opened[team],
            sum(tally_counts(tally)),
            len(state.stock),
            len(state.pile),
            state.hand_sizes[seat],
        )
    return known


#: Where the side's canastas are among the table values.
TEAM_CANASTAS = TABLE_VARIABLES.index("team_canastas")


def side_tally(rules: Rules, state: HandState, seat: int) -> Tally:
    """The canastas by kind of ``seat``'s side as the table stands (what going out counts when nothing is laid):
    counted with the table values, which every decision asks for first."""
    tallies: list[int] | None = derived(rules, state).get("tally")
    if tallies is None or tallies[seat] < 0:
        table_values(rules, state, seat)
        tallies = derived(rules, state)["tally"]
    return tallies[seat]


def merge_target(rules: Rules, state: HandState, team: int, rank: int) -> Meld | None:
    """The side's meld that cards of ``rank`` would join (hook meld.merge_same_rank), or None for a new meld."""
    existing = state.meld_of_rank(team, rank)
    if existing is not None and rules.merges_same_rank[rank]:
        return existing
    return None


def settled(rules: Rules, meld: Meld) -> Meld:
    """``meld`` as it lies on the table: closed if hook meld.closed says so (asked only of variants with a clause
    there, so the others build no second tuple)."""
    if not rules.closes_melds or meld.closed:
        return meld
    if rules.predicate_of(_MELD_CLOSED, (RANK_NAMES[meld.rank], meld.size, meld.naturals, meld.wilds)):
        return meld._replace(closed=True)
    return meld


def is_canasta(rules: Rules, meld: Meld) -> bool:
    return meld.size >= rules.canasta_size[meld.rank]


def canastas(rules: Rules, melds: Sequence[Meld]) -> int:
    return sum(1 for m in melds if m.size >= rules.canasta_size[m.rank])


def pile_frozen(rules: Rules, state: HandState, seat: int) -> bool:
    facts = derived(rules, state)
    known: bool | None = facts.get(("frozen", seat)) if rules.coverage is None else None
    if known is None:
        values = (
            *table_values(rules, state, seat),
            state.pile_wilds > 0,
            state.pile_red_threes > 0,
            state.pile_black_threes > 0,
            state.upcard_froze,
        )
        known = facts[("frozen", seat)] = rules.predicate_of(_PILE_FROZEN, values)
    return known


def _go_out_refusal(rules: Rules, state: HandState, seat: int, canastas_after: Tally) -> Clause | None:
    counts = tally_counts(canastas_after)
    values = (*table_values(rules, state, seat), state.permission, sum(counts), *counts)
    return rules.failing_of(_GO_OUT_ALLOWED, values)


def may_go_out(rules: Rules, state: HandState, seat: int, canastas_after: Tally) -> bool:
    """Whether ``seat`` may go out once its side has ``canastas_after``; cached per position."""
    facts = derived(rules, state)
    outs: dict[int, bool] | None = facts.get("out")  # by seat and canastas, packed into an int key
    if outs is None:
        outs = facts["out"] = {}
    key = canastas_after * rules.players + seat
    known = outs.get(key) if rules.coverage is None else None
    if known is None:
        known = outs[key] = _go_out_refusal(rules, state, seat, canastas_after) is None
    return known


def require_cards_in_hand(rules: Rules, state: HandState, seat: int, action: Action) -> None:
    needed: dict[Card, int] = {}
    for card in action.all_cards():
        needed[card] = needed.get(card, 0) + 1
    hand = state.hands[seat]
    held = all(hand[c] >= n for c, n in needed.items())
    rules.refuse(action_refusal(rules, state, seat, action.kind, held))


def action_refusal(rules: Rules, state: HandState, seat: int, kind: str, held: bool = True) -> Clause | None:
    """The ``action.allowed`` clause refusing this kind of action to ``seat`` now, or None."""
    return rules.failing_of(_ACTION_ALLOWED, (kind, state.phase, seat, state.to_act, held, state.last_card_bonus))


def kind_refusal(rules: Rules, state: HandState, seat: int, kind: str) -> Clause | None:
    """``action_refusal`` for a player holding the cards, found in a table of every kind's answer for the
    phase, seat, seat to act and last-card state (a handful of tables a game): a listing asks it of four or five
    kinds, and one look-up costs less than the query each."""
    if rules.coverage is not None:
        return action_refusal(rules, state, seat, kind)
    key = (state.phase, seat, state.to_act, state.last_card_bonus)
    known: dict[str, Clause | None] | None = rules.kind_refusals.get(key)
    if known is None:
        known = remember(rules.kind_refusals, key, {k: action_refusal(rules, state, seat, k) for k in ACTION_KINDS})
    return known[kind]


def plan_melding(rules: Rules, state: HandState, action: Action, seat: int | None = None) -> Plan:
    """Check a meld or take for the seat to act (or ``seat``); raise IllegalAction or return what it does."""
    actor = state.to_act if seat is None else seat
    require_cards_in_hand(rules, state, actor, action)
    if action.kind == "take":
        result = _plan_take(rules, state, action, actor)
    else:
        result = _plan_meld(rules, state, action, actor)
    if actor == state.to_act:
        derived(rules, state)[("plan", action)] = result  # the listing checked it: apply need not plan again
    return result


def accepts_melding(rules: Rules, state: HandState, action: Action, seat: int | None = None) -> bool:
    """Whether ``plan_melding`` accepts a meld or take of the seat to act (or ``seat``)."""
    try:
        plan_melding(rules, state, action, seat)
    except IllegalAction:
        return False
    return True


def must_take_pile(rules: Rules, state: HandState, seat: int) -> bool:
    """When the stock is empty, whether the spec obliges this player to take the pile (and they can)."""
    if state.stock or not state.pile:
        return False
    return rules.predicate_of(_MUST_TAKE, _top_card_values(rules, state, seat)) and accepts_melding(
        rules, state, TAKE, seat
    )


def _top_card_values(rules: Rules, state: HandState, seat: int) -> tuple[Any, ...]:
    """The table, whether the pile is frozen, and whether its top card fits the side's meld (a pile is there)."""
    team = state.side_of[seat]
    top = state.pile[-1]
    return (
        *table_values(rules, state, seat),
        pile_frozen(rules, state, seat),
        not rules.is_wild[top] and state.meld_of_rank(team, rank_of(top)) is not None,
    )


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


def effects_without_melding(state: HandState, action: Action, seat: int) -> Plan:
    """The plan of an action that lays no meld: only how many cards are left, and whether that is going out."""
    if action.kind != "discard":
        return Plan(action, hand_after=state.cards_held(seat))
    hand_after = state.cards_held(seat) - 1
    return Plan(action, hand_after=hand_after, going_out=hand_after == 0, concealed=False)


def _contributions(rules: Rules, groups: Sequence[MeldGroup]) -> list[tuple[int, list[Card], int]]:
    """Each group as (rank, cards, distinct natural ranks); a group of wild cards alone has the joker rank."""
    return [
        (group_rank(rules, group), list(group.cards), len({rank_of(c) for c in group.cards if not rules.is_wild[c]}))
        for group in groups
    ]


def _layout(
    rules: Rules,
    state: HandState,
    seat: int,
    contributions: Sequence[tuple[int, list[Card], int]],
    *,
    hand_after: int,
    initial: bool,
) -> tuple[list[Meld], list[int], bool, Tally]:
    """Merge the contributions into the side's melds and check every meld that changes (hook meld.valid)."""
    team = state.side_of[seat]
    current = list(state.melds[team])
    by_rank: dict[int, list[Card]] = {}
    spread: dict[int, int] = {}
    order: list[int] = []
    for rank, cards, natural_ranks in contributions:
        if rank not in by_rank:
            order.append(rank)
            by_rank[rank] = []
            spread[rank] = 0
        by_rank[rank].extend(cards)
        spread[rank] = max(spread[rank], natural_ranks)
    created: list[int] = []
    added_existing = False
    table = table_values(rules, state, seat)
    going_out = hand_after == 0 or (
        hand_after == 1 and goes_out_melding(rules, state, seat, 1, _canastas_after(rules, state, team, by_rank))
    )
    for rank in order:
        cards = by_rank[rank]
        if rules.coverage is not None:
            rules.note_rank("canasta.size", rank)
            for card in cards:
                rules.note_rank("card.wild", rank_of(card))
        rules.note_rank("meld.merge_same_rank", rank)
        before = merge_target(rules, state, team, rank)
        result = before.plus(cards, rules.is_wild) if before else Meld.build(rank, cards, rules.is_wild)
        added_wilds = sum(1 for c in cards if rules.is_wild[c])
        values = (
            *table,
            RANK_NAMES[rank],
            result.size,
            result.naturals,
            result.wilds,
            result.jokers,
            spread[rank],
            before is None,
            len(cards),
            added_wilds,
            before is not None and is_canasta(rules, before),
            going_out,
            initial,
        )
        rules.refuse(rules.failing_of(MELD_VALID, values))
        if rules.closes_melds:
            result = settled(rules, result)
        if before is not None:
            current[current.index(before)] = result
            # Adding to a meld laid earlier in this same turn is still the player's own melding.
            added_existing = added_existing or rank not in state.created_this_turn
        else:
            current.append(result)
            created.append(rank)
    return current, created, added_existing, canasta_tally(rules, current)


def _canastas_after(rules: Rules, state: HandState, team: int, by_rank: dict[int, list[Card]]) -> Tally:
    """The side's canastas once the cards ``by_rank`` join its melds (or start new ones)."""
    current = list(state.melds[team])
    for rank, cards in by_rank.items():
        before = merge_target(rules, state, team, rank)
        if before is not None:
            current[current.index(before)] = before.plus(cards, rules.is_wild)
        else:
            current.append(Meld.build(rank, cards, rules.is_wild))
    return canasta_tally(rules, current)


def goes_out_melding(rules: Rules, state: HandState, seat: int, hand_after: int, canastas_after: Tally) -> bool:
    """Whether melding down to ``hand_after`` cards is going out (``meld.valid``'s ``going_out``): an empty hand,
    or one card the discard then plays; a player who may not go out where a turn may end by passing keeps it."""
    if hand_after != 1:
        return hand_after == 0
    return "pass" in rules.refused_kinds or may_go_out(rules, state, seat, canastas_after)


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
    )
    rules.refuse(refusal)


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
) -> Clause | None:
    """The clause a side's first melds break (hooks ``initial_meld.minimum``, ``.count``, ``.valid``), or None.
    ``concealed_out``: the melds empty the hand, going out concealed; ``concealed_by_discard``: they leave one card
    whose discard goes out concealed (the spec decides whether either waives the minimum)."""
    scores = state.team_scores
    minimum = rules.value_of(
        _MINIMUM, (scores[state.side_of[seat]], scores[rules.score_holder[seat]], state.hand_number)
    )
    count = rules.value_of(_COUNT, (hand_points, top_card_points, *kinds))
    return rules.failing_of(_INITIAL_VALID, (count, minimum, concealed_out, concealed_by_discard, taking_pile))


def _require_ending(rules: Rules, state: HandState, seat: int, hand_after: int, canastas_after: Tally) -> None:
    """After melding or taking (a discard still to come): going out if the hand is empty, else keep a card."""
    rules.refuse(ending_refusal(rules, state, seat, hand_after, canastas_after, not state.last_card_bonus))


def ending_refusal(
    rules: Rules, state: HandState, seat: int, hand_after: int, canastas_after: Tally, discard_pending: bool
) -> Clause | None:
    """The clause an action leaving ``hand_after`` cards breaks: going out (hook ``go_out.allowed``) when the hand
    empties, else the cards a player who may not go out must keep (``go_out.keep_card``); None if neither."""
    if hand_after == 0:
        refusal = _go_out_refusal(rules, state, seat, canastas_after)
        if refusal is not None:
            return refusal
    return keep_card_refusal(rules, hand_after, discard_pending, may_go_out(rules, state, seat, canastas_after))


def keep_card_refusal(rules: Rules, hand_after: int, discard_pending: bool, may_go_out: bool) -> Clause | None:
    """The ``go_out.keep_card`` clause refusing an action that leaves ``hand_after`` cards, or None."""
    return rules.failing_of(_KEEP_CARD, (hand_after, discard_pending, may_go_out))


def concealed_now(rules: Rules, state: HandState, seat: int, created: Sequence[int], melds: Sequence[Meld]) -> bool:
    """Whether a player going out now goes out concealed (hook go_out.concealed)."""
    return goes_out_concealed(rules, state, own_canasta_made(rules, state, created, melds))


def own_canasta_made(rules: Rules, state: HandState, created: Sequence[int], melds: Sequence[Meld]) -> bool:
    """Whether a canasta is among the melds the player laid this turn (``created`` now, or earlier in it)."""
    return any(is_canasta(rules, m) for m in melds if m.rank in created or m.rank in state.created_this_turn)


def concealed_by_discard(rules: Rules, state: HandState, seat: int, made_canasta: bool, canastas_after: Tally) -> bool:
    """For melds that leave one card: whether discarding it would go out concealed (``initial_meld.valid``'s
    ``going_out_concealed_by_discard``; the spec decides whether that waives the minimum)."""
    return goes_out_concealed(rules, state, made_canasta) and may_go_out(rules, state, seat, canastas_after)


def goes_out_concealed(rules: Rules, state: HandState, made_canasta: bool) -> bool:
    """Hook ``go_out.concealed`` for the turn so far, given whether the player made a canasta of their own."""
    values = (state.melded_before_turn, state.added_to_existing_this_turn, made_canasta, state.took_pile_this_turn)
    return rules.predicate_of(_CONCEALED, values)


def _plan_meld(rules: Rules, state: HandState, action: Action, seat: int) -> Plan:
    team = state.side_of[seat]
    initial = not state.team_opened[team]
    values = (
        *table_values(rules, state, seat),
        state.phase,
        len(action.melds),
        repeated_ranks(rules, action.melds),
        initial,
    )
    rules.refuse(rules.failing_of(MELD_ACTION, values))
    used = action.all_cards()
    hand_after = state.cards_held(seat) - len(used)
    contributions = _contributions(rules, action.melds)
    melds, created, added, canastas_after = _layout(
        rules, state, seat, contributions, hand_after=hand_after, initial=initial
    )
    concealed = hand_after == 0 and concealed_now(rules, state, seat, created, melds)
    if initial:
        by_discard = hand_after == 1 and concealed_by_discard(
            rules, state, seat, own_canasta_made(rules, state, created, melds), canastas_after
        )
        _initial_meld(rules, state, seat, used, None, melds, concealed_out=concealed, concealed_by_discard=by_discard)
    _require_ending(rules, state, seat, hand_after, canastas_after)
    return Plan(action, melds, created, added, hand_after, hand_after == 0, concealed)


#: The top-card values of ``pile.take`` when the pile is empty.
_NO_TOP_CARD = ("", False, False, False)


def take_refusal(rules: Rules, state: HandState, seat: int, action: Action) -> Clause | None:
    """The ``pile.take`` clause refusing this take, or None (the listing asks it before planning a take)."""
    return take_fields_refusal(rules, state, seat, _take_fields(rules, state, action))


def take_fields_refusal(rules: Rules, state: HandState, seat: int, fields: tuple[int, ...]) -> Clause | None:
    """``take_refusal`` for a take described by its ``pile.take`` fields (the end of ``_PILE_TAKE``'s names)."""
    return rules.failing_of(_PILE_TAKE, (*_take_values(rules, state, seat), *fields))


def _take_values(rules: Rules, state: HandState, seat: int) -> tuple[Any, ...]:
    """The ``pile.take`` values that do not depend on the cards offered: the table, the pile and the side (the
    start of ``_PILE_TAKE``'s names); once per position."""
    facts = derived(rules, state)
    known: tuple[Any, ...] | None = facts.get(("take", seat))
    if known is not None:
        return known
    team = state.side_of[seat]
    top = state.pile[-1] if state.pile else None
    existing = state.meld_of_rank(team, rank_of(top)) if top is not None else None
    table = table_values(rules, state, seat)
    known = facts[("take", seat)] = (
        *table,
        state.phase,
        pile_frozen(rules, state, seat),
        *(rules.top_card_values[top] if top is not None else _NO_TOP_CARD),
        existing is not None,
        existing is not None and is_canasta(rules, existing),
        may_go_out(rules, state, seat, side_tally(rules, state, seat)),
    )
    return known


def _take_fields(rules: Rules, state: HandState, action: Action) -> tuple[int, ...]:
    """The ``pile.take`` values that describe the cards offered with the top card (the end of ``_PILE_TAKE``)."""
    top_rank = rank_of(state.pile[-1]) if state.pile else -1
    return (
        *take_card_counts(rules, action.cards, top_rank),
        len(action.melds),
        sum(1 for g in action.melds if group_rank(rules, g) == top_rank),
        repeated_ranks(rules, action.melds),
    )


def take_card_counts(rules: Rules, cards: Sequence[Card], top_rank: int) -> tuple[int, int, int]:
    """``pile.take``'s counts of the cards from hand that meld the top card: all of them, the naturals of its rank,
    the wild cards."""
    naturals = sum(1 for c in cards if not rules.is_wild[c] and rank_of(c) == top_rank)
    return len(cards), naturals, sum(1 for c in cards if rules.is_wild[c])


def pile_to_hand(rules: Rules, state: HandState, seat: int) -> tuple[int, int]:
    """What taking the pile puts in ``seat``'s hand besides the top card: how many cards (the rest of the pile,
    less its bonus cards, plus those replaced from the stock), and how many bonus cards the stock replaces."""
    pile_rest = [] if takes_top_only(rules, state, seat) else state.pile[:-1]
    bonus_in_pile = sum(1 for c in pile_rest if rules.is_bonus[c])
    replaced = 0
    if bonus_in_pile and rules.predicate_of(BONUS_REPLACE, (True, len(state.stock))):
        replaced = min(bonus_in_pile, len(state.stock))
    return len(pile_rest) - bonus_in_pile + replaced, replaced


def _plan_take(rules: Rules, state: HandState, action: Action, seat: int) -> Plan:
    team = state.side_of[seat]
    initial = not state.team_opened[team]
    top = state.pile[-1] if state.pile else None
    top_rank = rank_of(top) if top is not None else -1
    gained, replaced = pile_to_hand(rules, state, seat)
    used = action.all_cards()
    hand_after = state.cards_held(seat) - len(used) + gained
    rules.refuse(take_refusal(rules, state, seat, action))
    assert top is not None  # pile.take refuses an empty pile
    contributions = _contributions(rules, action.melds)
    contributions.insert(0, (top_rank, [top, *action.cards], 1))
    melds, created, added, canastas_after = _layout(
        rules, state, seat, contributions, hand_after=hand_after, initial=initial
    )
    if initial:
        _initial_meld(rules, state, seat, used, top, melds, concealed_out=False)
    _require_ending(rules, state, seat, hand_after, canastas_after)
    concealed = hand_after == 0 and concealed_now(rules, state, seat, created, melds)
    return Plan(action, melds, created, added, hand_after, hand_after == 0, concealed, replaced)


def group_rank(rules: Rules, group: MeldGroup) -> int:
    """The rank of the meld a group makes or joins: its natural cards', its label's, or the wild-meld rank."""
    for card in group.cards:
        if not rules.is_wild[card]:
            return rank_of(card)
    return group.rank if group.rank is not None else JOKER_RANK


def repeated_ranks(rules: Rules, groups: Sequence[MeldGroup]) -> int:
    """How many groups repeat the rank of an earlier group of the same action."""
    ranks = [group_rank(rules, g) for g in groups]
    return len(ranks) - len(set(ranks))


def apply_meld(rules: Rules, state: HandState, seat: int, result: Plan) -> None:
    """Move the cards a meld or take lays from the hand to the side's melds, as planned."""
    state.take_away(seat, result.action.all_cards())
    state.melds[state.side_of[seat]] = result.melds
