"""A finished hand's score from the native core's score facts, the spec's score clauses asked through ``Rules``.

The core counts (points melded, held and in feet, canastas by kind, bonus cards, black threes, penalties); the
hand's flags (who went out, concealed) come from the hand's state; each clause's points come from the spec, asked
once per distinct set of the facts they read and kept (``Rules.components_of``). The result is a ``HandScore`` as
the reference's ``score_hand`` gives it, facts included, which the proof compares whole.
"""

from __future__ import annotations

from typing import Any

from ..engine.cards import RANK_NAMES
from ..engine.checks import meld_variable_values
from ..engine.hooks import MELD_VARIABLES
from ..engine.rules import Rules
from ..engine.scoring import HandScore, PlayerScore, SideScore, holder_totals
from ..engine.special import special_hand_score
from ..engine.state import HandState
from . import load_state, new_position


def side_facts(rules: Rules, position: Any, state: HandState, team: int) -> dict[str, Any]:
    """The ``score.hand`` facts of one side, as ``engine.scoring.side_facts`` gives them, counted by the core."""
    out = state.went_out
    anyone_out = out is not None
    counted = position.side_facts(team, anyone_out)
    melded, held, kinds, laid, black_melded, most_black, bonus_held, foot, red_laid, black_laid, penalties = counted
    went_out = out is not None and state.side_of[out] == team
    facts: dict[str, Any] = {
        "melded_points": melded,
        "hand_points": held,
        "foot_points": foot,
        "natural_canastas": kinds[0],
        "mixed_canastas": kinds[1],
        "wild_canastas": kinds[2],
    }
    read = rules.variables_of("score.hand")
    if rules.sequences or "sequence_canastas" in read:
        facts["sequence_canastas"] = kinds[3]
    facts.update(
        {
            "canastas": sum(kinds),
            "red_threes": laid,
            "team_has_melded": state.team_opened[team],
            "went_out": went_out,
            "other_went_out": anyone_out and not went_out,
            "concealed": went_out and state.concealed,
            "anyone_went_out": anyone_out,
            "out_melded_before": went_out and state.melded_before_turn,
            "out_added_to_partner": went_out and state.added_to_existing_this_turn,
            "black_threes_melded": black_melded,
            "most_black_threes_held": most_black,
            "bonus_cards_held": bonus_held,
            "penalties": penalties,
        }
    )
    if "red_bonus_cards" in read:
        facts["red_bonus_cards"] = red_laid
    if "black_bonus_cards" in read:
        facts["black_bonus_cards"] = black_laid
    return facts


def side_parts(rules: Rules, position: Any, state: HandState, team: int, facts: dict[str, Any]) -> dict[str, int]:
    """One side's points by clause id: ``score.hand``, ``score.meld`` summed over its melds, ``score.held`` summed
    over its players' ranks held."""
    parts = rules.components_of("score.hand", facts)
    meld_parts = dict.fromkeys((clause.id for clause in rules.clauses("score.meld")), 0)
    if meld_parts:
        for meld in state.melds[team]:
            values = meld_variable_values(meld.rank, meld.size, meld.naturals, meld.wilds, meld.jokers)
            meld_facts = dict(zip(MELD_VARIABLES, values, strict=True))
            meld_facts["is_canasta"] = meld.size >= rules.canasta_size[meld.rank]
            meld_facts["team_canastas"] = facts["canastas"]
            meld_facts["went_out"] = facts["went_out"]
            _add(meld_parts, rules.components_of("score.meld", meld_facts))
    held_parts = dict.fromkeys((clause.id for clause in rules.clauses("score.held")), 0)
    if held_parts:
        for seat in state.seats_of(team):
            for rank, count in enumerate(position.rank_counts(seat)):
                if count:
                    held = {"rank": RANK_NAMES[rank], "count": count, "went_out": facts["went_out"]}
                    held["anyone_went_out"] = facts["anyone_went_out"]
                    _add(held_parts, rules.components_of("score.held", held))
    return {**parts, **meld_parts, **held_parts}


def _add(parts: dict[str, int], more: dict[str, int]) -> None:
    for clause_id, points in more.items():
        parts[clause_id] += points


def _player(rules: Rules, position: Any, state: HandState, seat: int, side: SideScore) -> PlayerScore:
    """One player's own points (hook ``score.player``), as ``engine.scoring.player_facts`` asks them."""
    facts = {
        "red_threes": position.bonus_laid(seat),
        "team_has_melded": side.facts["team_has_melded"],
        "canastas": side.facts["canastas"],
        "went_out": state.went_out == seat,
    }
    return PlayerScore(seat, side.team, rules.components_of("score.player", facts))


def score(rules: Rules, state: HandState) -> HandScore:
    """A finished hand's score, from a native position loaded from ``state``; raises CoreUnavailable where the
    core is not built."""
    position = load_state(new_position(rules), state)
    declarer = state.side_of[state.went_out] if state.special_hand and state.went_out is not None else -1
    sides = []
    for team in range(rules.teams):
        facts = side_facts(rules, position, state, team)
        if team == declarer:
            parts = dict(special_hand_score(rules, state.special_hand))
        else:
            parts = side_parts(rules, position, state, team, facts)
        sides.append(SideScore(team, parts, facts))
    if not rules.scores_players and not rules.forms_sides:
        return HandScore(tuple(sides), state.end_reason)
    players = tuple(_player(rules, position, state, seat, sides[side]) for seat, side in enumerate(state.side_of))
    return HandScore(tuple(sides), state.end_reason, players, holder_totals(rules, sides, players))
