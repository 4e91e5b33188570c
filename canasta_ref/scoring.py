"""The score of a finished (or abandoned) hand: each side's total as the sum of the spec's score clauses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import CARD_TYPES, Card, is_red, rank_from_name, rank_of
from .checks import canasta_kinds
from .rules import Rules
from .state import HandState


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
class HandScore:
    sides: tuple[SideScore, ...]
    end_reason: str | None

    @property
    def totals(self) -> list[int]:
        return [s.total for s in self.sides]

    def to_json(self) -> dict[str, Any]:
        return {
            "end": self.end_reason,
            "sides": [{"team": s.team, "total": s.total, "parts": s.parts, "facts": s.facts} for s in self.sides],
        }


def side_facts(rules: Rules, state: HandState, team: int) -> dict[str, Any]:
    """The variables of the ``score.hand`` hook for one side."""
    seats = [s for s in range(rules.players) if s % rules.teams == team]
    melds = state.melds[team]
    natural, mixed = canasta_kinds(rules, melds)
    went_out = state.went_out is not None and state.went_out % rules.teams == team
    return {
        "melded_points": sum(rules.card_value[c] for m in melds for c in m.cards),
        "hand_points": sum(rules.card_value[c] * state.hands[s][c] for s in seats for c in range(CARD_TYPES)),
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "canastas": natural + mixed,
        "red_threes": sum(len(state.bonus[s]) for s in seats),
        "team_has_melded": state.team_opened[team],
        "went_out": went_out,
        "concealed": went_out and state.concealed,
        "anyone_went_out": state.went_out is not None,
        # How the player went out, so a concealed bonus may depend on it: the turn's flags survive the hand's end.
        "out_melded_before": went_out and state.melded_before_turn,
        "out_added_to_partner": went_out and state.added_to_existing_this_turn,
        "black_threes_melded": sum(1 for m in melds for c in m.cards if _is_black_three(c)),
        "most_black_threes_held": max(_black_threes_held(state, s) for s in seats),
        # Only possible where dealt bonus cards wait for the holder's first turn and the hand ends before it.
        "bonus_cards_held": sum(state.hands[s][c] for s in seats for c in rules.bonus_cards),
        "penalties": state.penalties[team] if state.penalties else 0,
    }


_THREE = rank_from_name("3")


def _is_black_three(card: Card) -> bool:
    return rank_of(card) == _THREE and not is_red(card)


def _black_threes_held(state: HandState, seat: int) -> int:
    """Black threes left in one player's hand (some rules penalise a player caught with all of them)."""
    return sum(state.hands[seat][c] for c in range(CARD_TYPES) if _is_black_three(c))


def score_hand(rules: Rules, state: HandState) -> HandScore:
    sides = []
    if rules.coverage is not None:
        for card in set(state.all_cards()):
            rules.note_card("card.value", card)
    for team in range(rules.teams):
        facts = side_facts(rules, state, team)
        sides.append(SideScore(team, rules.components("score.hand", facts), facts))
    return HandScore(tuple(sides), state.end_reason)
