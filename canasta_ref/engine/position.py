"""Positions written out card by card (for scenarios and tests), checked against the deck."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from ..errors import CanastaError
from .actions import MeldGroup
from .cards import RANK_NAMES, Card, card_name, counts_of, full_deck, rank_of
from .checks import group_rank, settled, take_joins, written_meld_refusal
from .numbers import hand_number, team_scores, whole_number
from .rules import Rules
from .state import HandState, Meld, Phase, open_meld


@dataclass
class Position:
    """A position a person can write down. Cards not placed anywhere make up the stock, in deck order."""

    hands: Sequence[Sequence[Card]]
    pile: Sequence[Card] = ()
    stock: Sequence[Card] | None = None
    melds: Sequence[Sequence[Sequence[Card]]] = ()
    bonus: Sequence[Sequence[Card]] = ()
    team_scores: Sequence[int] = ()
    to_act: int = 0
    phase: Phase = "draw"
    upcard_froze: bool = False
    seat_melded: Sequence[bool] = ()
    permission: str = "none"
    #: Each seat's side (indexing ``melds``); empty: seat s plays for side s mod teams, as dealt.
    sides: Sequence[int] = ()
    #: Per seat: whether its first turn is still to come (its dealt bonus cards then wait in its hand). Empty: none.
    awaiting_first_turn: Sequence[bool] = ()
    #: Per seat, its foot still face down (hook deal.foot_size). Empty: no seat has a foot left to pick up.
    feet: Sequence[Sequence[Card]] = ()
    #: The talons still face down (hook bonus_draw.from_talons), the next taken first. Empty: none left.
    talons: Sequence[Sequence[Card]] = ()
    #: Per seat, the bonus cards it earned with its side's initial meld and draws at the start of its next turn
    #: (hook bonus_draw.count). Empty: none owed. Whether the turn card has been drawn follows from the stock's size.
    bonus_draws_owed: Sequence[int] = ()
    #: Which deal of the match the position is in, from 1.
    hand_number: int = 1
    extra: Mapping[str, object] = field(default_factory=dict)


def build_state(rules: Rules, position: Position) -> tuple[HandState, list[Card]]:
    """The state for a written position, and the full deck order it implies (stock filled from the rest)."""
    players, teams = rules.players, rules.teams
    if len(position.hands) != players:
        raise CanastaError(f"field 'hands': expected {players} hands, one per seat, got {len(position.hands)}")
    if not 0 <= position.to_act < players:
        raise CanastaError(f"field 'to_act': expected a seat from 0 to {players - 1}, got {position.to_act}")
    if position.seat_melded and len(position.seat_melded) != players:
        raise CanastaError(f"field 'melded': expected {players} values, one per seat, got {len(position.seat_melded)}")
    _check_awaiting(rules, position)
    _check_phase(position.phase)
    if position.permission not in ("none", "yes", "no"):
        raise CanastaError(f"field 'permission': expected none, yes or no, got {position.permission!r}")
    deck = full_deck(rules.packs, rules.jokers_per_pack)
    remaining = counts_of(deck)

    def take(cards: Sequence[Card], where: str) -> None:
        for card in cards:
            if remaining[card] == 0:
                raise CanastaError(f"field '{where}': there are not enough {card_name(card)} in the deck")
            remaining[card] -= 1

    for seat, hand in enumerate(position.hands):
        take(hand, f"hands[{seat}]")
    take(position.pile, "pile")
    melds: list[list[Meld]] = [[] for _ in range(teams)]
    for team, team_melds in enumerate(position.melds):
        if team >= teams:
            raise CanastaError(f"field 'melds': expected at most {teams} sides, got {len(position.melds)}")
        for index, cards in enumerate(team_melds):
            take(cards, f"melds[{team}][{index}]")
            where = f"melds[{team}][{index}]"
            if not cards:
                raise CanastaError(f"field '{where}': a meld needs at least one card")
            _refuse_bonus_cards(rules, cards, where)
            rank = group_rank(rules, MeldGroup(tuple(cards)))
            meld = settled(rules, Meld.build(rank, cards, rules.is_wild))
            if not meld.closed and not _may_lie_beside(rules, open_meld(melds[team], rank), rank):
                raise CanastaError(f"field '{where}': side {team} already has an open meld of rank {RANK_NAMES[rank]}")
            melds[team].append(meld)
    bonus = [tuple(b) for b in position.bonus] + [() for _ in range(players - len(position.bonus))]
    for seat, cards in enumerate(bonus):
        take(cards, f"bonus[{seat}]")
    feet = _feet(rules, position)
    for seat, cards in enumerate(feet):
        take(cards, f"feet[{seat}]")
    talons = _talons(rules, position)
    for index, cards in enumerate(talons):
        take(cards, f"talons[{index}]")
    if position.stock is not None:
        take(position.stock, "stock")
        left = sum(remaining)
        if left:
            raise CanastaError(f"field 'stock': {left} cards of the deck are placed nowhere")
        stock_top_first = list(position.stock)
    else:
        stock_top_first = []
        for card in deck:  # the cards placed nowhere, in deck order
            if remaining[card]:
                remaining[card] -= 1
                stock_top_first.append(card)
    scores = team_scores(list(position.team_scores), teams, "team_scores") if position.team_scores else [0] * teams
    state = HandState(
        stock=list(reversed(stock_top_first)),
        pile=[],
        hands=[tuple(counts_of(h)) for h in position.hands],
        hand_sizes=[len(h) for h in position.hands],
        melds=[tuple(side) for side in melds],
        bonus=bonus,
        team_scores=scores,
        to_act=position.to_act,
        phase=position.phase,
        team_opened=[bool(m) for m in melds],
        seat_melded=list(position.seat_melded) or [False] * players,
        side_of=_sides(rules, position.sides),
        feet=feet,
        talons=talons,
        bonus_draws_owed=_bonus_draws_owed(rules, position, talons, [bool(m) for m in melds]),
    )
    for card in position.pile:
        push_pile(rules, state, card)
    state.upcard_froze = position.upcard_froze
    state.permission = "yes" if position.permission == "yes" else "no" if position.permission == "no" else "none"
    state.melded_before_turn = state.seat_melded[position.to_act]
    state.awaiting_first_turn = list(position.awaiting_first_turn)
    state.hand_number = hand_number(position.hand_number, "hand_number")
    _check_written_melds(rules, state)
    return state, _implied_deck(position, stock_top_first)


def _check_written_melds(rules: Rules, state: HandState) -> None:
    """Every written meld must be one a play could have laid: the rules' own meld checks (hook meld.valid) judge
    it (as laid going out only for the side that may be going out), and a refusal names the meld, its cards and
    the rule. A side that seats of several sides of the deal have joined (a lone hand formed, hook
    sides.lone_hand) holds their melds pooled, each checked when laid but not the pool (``sides.form_lone_hand``):
    its melds are not judged."""
    initial = rules.initial_sides()
    for team, melds in enumerate(state.melds):
        if melds and team not in state.side_of:
            raise CanastaError(f"field 'melds[{team}]': no seat plays for side {team}, so it has no melds")
        joined = {initial[seat] for seat, side in enumerate(state.side_of) if side == team}
        if len(joined) > 1:
            continue
        for index, meld in enumerate(melds):
            clause = written_meld_refusal(rules, state, team, meld, going_out=_may_be_going_out(state, team))
            if clause is not None:
                cards = " ".join(card_name(card) for card in meld.cards)
                raise CanastaError(
                    f"field 'melds[{team}][{index}]': side {team}'s meld {index + 1} ({cards}) breaks rule "
                    f"{clause.id}: {clause.refusal}"
                )


def _may_lie_beside(rules: Rules, earlier: Meld | None, rank: int) -> bool:
    """Whether an open meld of ``rank`` may lie beside the side's ``earlier`` open meld of that rank: where the
    spec does not merge the rank, or where a take of a natural card and a wild card would not join the earlier
    one (hook meld.merge_same_rank asked with the take's facts), which then started the second."""
    return earlier is None or not rules.merges_same_rank[rank] or not take_joins(rules, earlier, 1)


def _refuse_bonus_cards(rules: Rules, cards: Sequence[Card], where: str) -> None:
    """A bonus card (a red three, hook bonus_card) leaves the hand for the side's bonus cards as it is received, or
    waits in hand where a rule lets a player keep one: no play lays it in a meld, so a written meld holding one is
    refused, citing the rule that makes it a bonus card (the meld rules would judge it as a card of its rank)."""
    for card in cards:
        if rules.is_bonus[card]:
            clause = rules.first_clause("bonus_card", rules.card_facts(card))
            rule = f" (rule {clause.id})" if clause is not None else ""
            raise CanastaError(
                f"field '{where}': {card_name(card)} is a bonus card{rule}, laid out apart from the melds, so no meld "
                "holds it; write it among its seat's bonus cards"
            )


def _may_be_going_out(state: HandState, team: int) -> bool:
    """Whether side ``team``'s player may be going out this turn, so that its melds may hold what only going out
    lays: it is to act, has drawn, and holds at most the card it would discard."""
    return state.phase == "play" and state.side_of[state.to_act] == team and state.cards_held(state.to_act) <= 1


def _sides(rules: Rules, sides: Sequence[int]) -> list[int]:
    """The side map a position writes, checked: one side per seat, each a side the variant has."""
    if not sides:
        return rules.initial_sides()
    if len(sides) != rules.players:
        raise CanastaError(f"field 'sides': expected {rules.players} sides, one per seat, got {len(sides)}")
    for seat, side in enumerate(sides):
        if type(side) is not int or not 0 <= side < rules.teams:
            raise CanastaError(f"field 'sides[{seat}]': expected a side from 0 to {rules.teams - 1}, got {side!r}")
    return list(sides)


def _feet(rules: Rules, position: Position) -> list[tuple[Card, ...]]:
    """The feet a position writes, checked: one per seat, and only in a variant that deals them. A variant with
    feet always keeps one per seat (empty once picked up), so an unwritten field means all picked up."""
    if not rules.foot_size:
        if any(position.feet):
            raise CanastaError(f"field 'feet': {rules.variant.id} deals no foot")
        return []
    if not position.feet:
        return [() for _ in range(rules.players)]
    if len(position.feet) != rules.players:
        raise CanastaError(f"field 'feet': expected {rules.players} feet, one per seat, got {len(position.feet)}")
    return [tuple(foot) for foot in position.feet]


def _talons(rules: Rules, position: Position) -> list[tuple[Card, ...]]:
    """The talons a position writes, checked: only in a variant that sets them aside, at most one per side."""
    if not position.talons:
        return []
    if not rules.bonus_from_talons:
        raise CanastaError(f"field 'talons': {rules.variant.id} sets no talons aside")
    if len(position.talons) > rules.teams:
        raise CanastaError(
            f"field 'talons': expected at most {rules.teams} talons, one per side, got {len(position.talons)}"
        )
    for index, talon in enumerate(position.talons):
        if not talon:
            raise CanastaError(f"field 'talons[{index}]': a talon still face down has cards (leave out a taken one)")
    return [tuple(talon) for talon in position.talons]


def _bonus_draws_owed(
    rules: Rules, position: Position, talons: Sequence[Sequence[Card]], opened: Sequence[bool]
) -> list[int]:
    """The bonus cards owed a position writes, checked against what could have earned them: a variant with bonus
    draws, a seat whose side has melded, a turn not yet begun (it begins with the bonus draw), and under talons
    the talon each owed seat takes, in the order their turns come, the seat to act last."""
    owed = position.bonus_draws_owed
    if not any(owed):
        return []
    if not rules.draws_bonus:
        raise CanastaError(f"field 'bonus_draws_owed': {rules.variant.id} draws no bonus cards for the initial meld")
    if len(owed) != rules.players:
        raise CanastaError(f"field 'bonus_draws_owed': expected {rules.players} counts, one per seat, got {len(owed)}")
    sides = _sides(rules, position.sides)
    deck = full_deck(rules.packs, rules.jokers_per_pack)
    for seat, count in enumerate(owed):
        whole_number(count, f"bonus_draws_owed[{seat}]", "a number of cards", 0, len(deck))
        if count and not opened[sides[seat]]:
            raise CanastaError(
                f"field 'bonus_draws_owed[{seat}]': seat {seat}'s side has no meld, so it made no initial meld"
            )
    to_act = position.to_act
    if owed[to_act] and (position.phase == "draw" or not position.hands[to_act]):
        raise CanastaError(
            f"field 'bonus_draws_owed[{to_act}]': seat {to_act} is to act with an empty hand or yet to draw, so it "
            "has drawn its bonus cards"
        )
    if rules.bonus_from_talons:
        _check_talon_claims(rules, owed, to_act, talons)
    return list(owed)


def _check_talon_claims(rules: Rules, owed: Sequence[int], to_act: int, talons: Sequence[Sequence[Card]]) -> None:
    """Under talons, each owed seat takes the next talon when its turn comes: the seats after the one to act
    first, in turn order, and the seat to act (which claimed one this turn) last; their counts are those talons'
    sizes."""
    order = [(to_act + step) % rules.players for step in range(1, rules.players + 1)]
    claimants = [seat for seat in order if owed[seat]]
    if len(claimants) > len(talons):
        raise CanastaError(
            f"field 'bonus_draws_owed': {len(claimants)} seats are owed a talon but {len(talons)} are left"
        )
    for seat, talon in zip(claimants, talons, strict=False):
        if owed[seat] != len(talon):
            raise CanastaError(
                f"field 'bonus_draws_owed[{seat}]': seat {seat} takes a talon of {len(talon)} cards, not {owed[seat]}"
            )


#: Phases a written position cannot be in, and what to write instead: the action that leads into one is a step.
_UNWRITABLE_PHASES: Final = {
    "answer": "a partner's answer to 'may I go out?' waits on the question asked this turn: write the position in "
    "phase play and give the ask as a step",
    "keep": "a choice to keep a bonus card waits on the cards just received: write the position before the action "
    "that brought them (the draw, or the discard before a first turn) and give it as a step",
    "over": "a hand that is over has no one to act: write the position before the last action and give it as a step",
}


def _check_phase(phase: str) -> None:
    """A written position is in phase draw or play; the phases that wait on something an action did (a question,
    bonus cards received) or that end the hand are reached by writing that action as a step."""
    if phase in ("draw", "play"):
        return
    why = _UNWRITABLE_PHASES.get(phase, "")
    reason = f"; phase {phase} cannot be written: {why}" if why else f", got {phase!r}"
    raise CanastaError(f"field 'phase': expected draw (the turn not begun) or play (the player has drawn){reason}")


def _check_awaiting(rules: Rules, position: Position) -> None:
    """``awaiting_first_turn`` fits only a variant whose bonus cards wait for the first turn, and never the seat
    to act, whose turn has begun (its bonus cards are laid out)."""
    waiting = position.awaiting_first_turn
    if not waiting:
        return
    if len(waiting) != rules.players:
        raise CanastaError(
            f"field 'awaiting_first_turn': expected {rules.players} values, one per seat, got {len(waiting)}"
        )
    if not rules.bonus_at_first_turn:
        raise CanastaError(
            f"field 'awaiting_first_turn': {rules.variant.id} lays out bonus cards at the deal, "
            "so no seat awaits its first turn"
        )
    if waiting[position.to_act]:
        raise CanastaError(
            f"field 'awaiting_first_turn': seat {position.to_act} is to act, so its first turn has begun"
        )


def push_pile(rules: Rules, state: HandState, card: Card) -> None:
    """Put a card on the pile, keeping the counts that decide whether it is frozen."""
    state.pile.append(card)
    rules.note_rank("card.wild", rank_of(card))
    if rules.is_wild[card]:
        state.pile_wilds += 1
    facts = rules.card_facts(card)
    state.pile_red_threes += facts["is_red_three"]
    state.pile_black_threes += facts["is_black_three"]


def _implied_deck(position: Position, stock: Sequence[Card]) -> list[Card]:
    out: list[Card] = []
    for hand in position.hands:
        out.extend(hand)
    out.extend(position.pile)
    for team in position.melds:
        for meld in team:
            out.extend(meld)
    for cards in (*position.bonus, *position.feet, *position.talons):
        out.extend(cards)
    out.extend(stock)
    return out
