"""The score of a finished (or abandoned) hand: each side's total as the sum of the spec's score clauses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import CARD_TYPES, JOKER, RANK_COUNT, RANK_NAMES, Card, is_red, rank_from_name, rank_of
from .checks import canasta_kinds, is_canasta, meld_variable_values
from .hooks import MELD_VARIABLES
from .rules import Rules
from .special import special_hand_score
from .state import HandState, Meld


@dataclass(frozen=True)
class SideScore:
    """One side's score for a hand; ``parts`` maps each score clause's id to its points."""

    team: int
    parts: dict[str, int]
    facts: dict[str, Any]

    @property
    def total(self) -> int:
        return sum(self.parts.values())


@dataclass(frozen=True)
class PlayerScore:
    """One player's own points for a hand (hook ``score.player``), added to their side's total for them."""

    seat: int
    side: int
    parts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.parts.values())


@dataclass(frozen=True)
class HandScore:
    """The hand's score per side, and ``totals``: what each cumulative score (``Rules.score_holder``) gains."""

    sides: tuple[SideScore, ...]
    end_reason: str | None
    players: tuple[PlayerScore, ...] = ()
    holder_totals: tuple[int, ...] | None = None

    @property
    def totals(self) -> list[int]:
        if self.holder_totals is not None:
            return list(self.holder_totals)
        return [s.total for s in self.sides]

    def seat_parts(self) -> list[dict[str, int]] | None:
        """Per seat, what its own score gains, by rule id: its side's parts and its own (hook ``score.player``), so
        that one player's score where each keeps their own (three players) can be checked part by part; None
        where scores are the sides' alone."""
        if self.holder_totals is None:
            return None
        out = []
        for player in self.players:
            parts = dict(self.sides[player.side].parts)
            for clause_id, points in player.parts.items():
                parts[clause_id] = parts.get(clause_id, 0) + points
            out.append(parts)
        return out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "end": self.end_reason,
            "sides": [{"team": s.team, "total": s.total, "parts": s.parts, "facts": s.facts} for s in self.sides],
        }
        if self.holder_totals is not None:
            out["players"] = [{"seat": p.seat, "side": p.side, "parts": p.parts} for p in self.players]
            out["totals"] = list(self.holder_totals)
        return out


def side_facts(rules: Rules, state: HandState, team: int) -> dict[str, Any]:
    """The variables of the ``score.hand`` hook for one side."""
    seats = state.seats_of(team)
    melds = state.melds[team]
    kinds = canasta_kinds(rules, melds)
    went_out = state.went_out is not None and state.side_of[state.went_out] == team
    held_value = rules.held_values[state.went_out is not None]
    return {
        "melded_points": sum(rules.card_value[c] for m in melds for c in m.cards),
        # Cards left in hand count at their value held (hook card.value, not melded).
        "hand_points": sum(held_value[c] * state.hands[s][c] for s in seats for c in range(CARD_TYPES)),
        # The feet still face down (hook deal.foot_size): played out hands pick them up, so they count apart.
        "foot_points": sum(held_value[c] for s in seats for c in state.feet[s]) if state.feet else 0,
        "natural_canastas": kinds.natural,
        "mixed_canastas": kinds.mixed,
        "wild_canastas": kinds.wild,
        # Only where sequences can be laid, or a clause reads it: older variants' score facts stay as they were.
        **(
            {"sequence_canastas": kinds.sequence}
            if rules.sequences or "sequence_canastas" in rules.variables_of("score.hand")
            else {}
        ),
        "canastas": sum(kinds),
        "red_threes": sum(len(state.bonus[s]) for s in seats),
        "team_has_melded": state.team_opened[team],
        "went_out": went_out,
        "other_went_out": state.went_out is not None and not went_out,
        "concealed": went_out and state.concealed,
        "anyone_went_out": state.went_out is not None,
        # How the player went out, so a concealed bonus may depend on it: the turn's flags survive the hand's end.
        "out_melded_before": went_out and state.melded_before_turn,
        "out_added_to_partner": went_out and state.added_to_existing_this_turn,
        "black_threes_melded": sum(1 for m in melds if m.rank == _THREE for c in m.cards if c in _BLACK_THREES),
        "most_black_threes_held": max((_black_threes_held(state, s) for s in seats), default=0),  # a side may be empty
        # Only possible where dealt bonus cards wait for the holder's first turn and the hand ends before it.
        "bonus_cards_held": sum(state.hands[s][c] for s in seats for c in rules.bonus_cards),
        "penalties": state.penalties[team] if state.penalties else 0,
        **_bonus_colour_facts(rules, state, seats),
    }


def _bonus_colour_facts(rules: Rules, state: HandState, seats: list[int]) -> dict[str, int]:
    """The side's laid-out bonus cards of each colour (threes scored by colour), each only where a clause reads
    it: older variants' score facts stay as they were."""
    read = rules.variables_of("score.hand")
    laid = [card for seat in seats for card in state.bonus[seat]]
    facts: dict[str, int] = {}
    if "red_bonus_cards" in read:
        facts["red_bonus_cards"] = sum(1 for card in laid if is_red(card))
    if "black_bonus_cards" in read:
        facts["black_bonus_cards"] = sum(1 for card in laid if card != JOKER and not is_red(card))
    return facts


def meld_facts(rules: Rules, meld: Meld, side: dict[str, Any]) -> dict[str, Any]:
    """The variables of the ``score.meld`` hook for one of a side's melds, given the side's ``score.hand`` facts."""
    values = meld_variable_values(meld.rank, meld.size, meld.naturals, meld.wilds, meld.jokers)
    facts = dict(zip(MELD_VARIABLES, values, strict=True))
    facts["is_canasta"] = is_canasta(rules, meld)
    facts["team_canastas"] = side["canastas"]
    facts["went_out"] = side["went_out"]
    return facts


def meld_parts(rules: Rules, state: HandState, team: int, side: dict[str, Any]) -> dict[str, int]:
    """Each ``score.meld`` clause's points summed over the side's melds, by clause id (none without a clause)."""
    parts = dict.fromkeys([clause.id for clause in rules.clauses("score.meld")], 0)
    if parts:
        for meld in state.melds[team]:
            _add(parts, rules.components_of("score.meld", meld_facts(rules, meld, side)))
    return parts


def held_parts(rules: Rules, state: HandState, team: int, side: dict[str, Any]) -> dict[str, int]:
    """Each ``score.held`` clause's points summed over the side's players and the ranks each is left holding, by
    clause id (none without a clause)."""
    parts = dict.fromkeys([clause.id for clause in rules.clauses("score.held")], 0)
    if not parts:
        return parts
    for seat in state.seats_of(team):
        for rank, count in enumerate(_held_by_rank(state.hands[seat])):
            if count:
                facts = {
                    "rank": RANK_NAMES[rank],
                    "count": count,
                    "went_out": side["went_out"],
                    "anyone_went_out": side["anyone_went_out"],
                }
                _add(parts, rules.components_of("score.held", facts))
    return parts


def _held_by_rank(hand: tuple[int, ...]) -> list[int]:
    """A hand's cards counted by rank (jokers last)."""
    counts = [0] * RANK_COUNT
    for card in range(CARD_TYPES):
        counts[rank_of(card)] += hand[card]
    return counts


def _add(parts: dict[str, int], more: dict[str, int]) -> None:
    """Add one evaluation's points to the running parts, clause by clause."""
    for clause_id, points in more.items():
        parts[clause_id] += points


def player_facts(state: HandState, seat: int, side: dict[str, Any]) -> dict[str, Any]:
    """The variables of the ``score.player`` hook for one seat, given its side's ``score.hand`` facts."""
    return {
        "red_threes": len(state.bonus[seat]),
        "team_has_melded": side["team_has_melded"],
        "canastas": side["canastas"],
        "went_out": state.went_out == seat,
    }


_THREE = rank_from_name("3")
#: The two black threes' card types, found once: every hand's score counts them for every seat.
_BLACK_THREES: tuple[Card, ...] = tuple(c for c in range(CARD_TYPES) if rank_of(c) == _THREE and not is_red(c))


def _black_threes_held(state: HandState, seat: int) -> int:
    """Black threes left in one player's hand (some rules penalise a player caught with all of them)."""
    return sum(state.hands[seat][c] for c in _BLACK_THREES)


def score_hand(rules: Rules, state: HandState) -> HandScore:
    sides = []
    if rules.coverage is not None:
        for card in set(state.all_cards()):
            for melded in (True, False):
                facts = {**rules.card_facts(card), "melded": melded, "anyone_went_out": state.went_out is not None}
                rules.note("card.value", facts)
    # A side that declared a special hand scores it instead of everything else (hook special_hand.score).
    declarer = state.side_of[state.went_out] if state.special_hand and state.went_out is not None else -1
    for team in range(rules.teams):
        facts = side_facts(rules, state, team)
        if team == declarer:
            parts = dict(special_hand_score(rules, state.special_hand))
        else:
            parts = {
                **rules.components_of("score.hand", facts),
                **meld_parts(rules, state, team, facts),
                **held_parts(rules, state, team, facts),
            }
        sides.append(SideScore(team, parts, facts))
    if not rules.scores_players and not rules.forms_sides:
        return HandScore(tuple(sides), state.end_reason)
    players = tuple(
        PlayerScore(seat, side, rules.components_of("score.player", player_facts(state, seat, sides[side].facts)))
        for seat, side in enumerate(state.side_of)
    )
    return HandScore(tuple(sides), state.end_reason, players, holder_totals(rules, sides, players))


def holder_totals(rules: Rules, sides: list[SideScore], players: tuple[PlayerScore, ...]) -> tuple[int, ...]:
    """What each cumulative score gains: the totals of the sides its seats now play for (each once), plus the
    seats' own points."""
    totals = []
    for holder in range(rules.teams):
        seats = [p for p in players if rules.score_holder[p.seat] == holder]
        totals.append(sum(sides[side].total for side in {p.side for p in seats}) + sum(p.total for p in seats))
    return tuple(totals)
