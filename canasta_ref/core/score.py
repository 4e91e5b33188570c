"""A finished hand's score from the native core's score facts, the spec's score clauses asked through ``Rules``.

The core counts (points melded and held, canastas by kind, bonus cards, black threes); the hand's flags (who went
out, concealed) come from the hand's state; each clause's points come from the spec, asked once per distinct set
of facts and kept. The result is the reference's ``score_hand`` parts, side by side, which the tests compare.
"""

from __future__ import annotations

from typing import Any

from ..engine.cards import RANK_NAMES
from ..engine.checks import meld_variable_values
from ..engine.hooks import MELD_VARIABLES
from ..engine.rules import Rules
from ..engine.state import HandState
from . import load_state, new_position, score_mechanisms_missing

#: The score clauses' answers, per Rules and hook, by the facts they were asked with.
_ANSWERS: dict[tuple[int, str], dict[tuple[Any, ...], dict[str, int]]] = {}


def _components(rules: Rules, hook: str, facts: dict[str, Any]) -> dict[str, int]:
    """``rules.components`` of ``hook``, memoised on the facts (every value a score clause reads is plain)."""
    memo = _ANSWERS.setdefault((id(rules), hook), {})
    key = tuple(facts.items())
    known = memo.get(key)
    if known is None:
        known = memo[key] = rules.components(hook, facts)
    return known


def side_facts(rules: Rules, position: Any, state: HandState, team: int) -> dict[str, Any]:
    """The ``score.hand`` facts of one side, as ``engine.scoring.side_facts`` gives them, counted by the core."""
    out = state.went_out
    anyone_out = out is not None
    melded, held, kinds, laid, black_melded, most_black, bonus_held = position.side_facts(team, anyone_out)
    went_out = out is not None and state.side_of[out] == team
    facts: dict[str, Any] = {
        "melded_points": melded,
        "hand_points": held,
        "foot_points": 0,
        "natural_canastas": kinds[0],
        "mixed_canastas": kinds[1],
        "wild_canastas": kinds[2],
    }
    if rules.sequences or "sequence_canastas" in rules.variables_of("score.hand"):
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
            "penalties": 0,
        }
    )
    return facts


def side_parts(rules: Rules, position: Any, state: HandState, team: int) -> dict[str, int]:
    """One side's points by clause id: ``score.hand``, ``score.meld`` summed over its melds, ``score.held`` summed
    over its players' ranks held."""
    facts = side_facts(rules, position, state, team)
    parts = dict(_components(rules, "score.hand", facts))
    meld_parts = dict.fromkeys((clause.id for clause in rules.clauses("score.meld")), 0)
    if meld_parts:
        for meld in state.melds[team]:
            values = meld_variable_values(meld.rank, meld.size, meld.naturals, meld.wilds, meld.jokers)
            meld_facts = dict(zip(MELD_VARIABLES, values, strict=True))
            meld_facts["is_canasta"] = meld.size >= rules.canasta_size[meld.rank]
            meld_facts["team_canastas"] = facts["canastas"]
            meld_facts["went_out"] = facts["went_out"]
            _add(meld_parts, _components(rules, "score.meld", meld_facts))
    held_parts = dict.fromkeys((clause.id for clause in rules.clauses("score.held")), 0)
    if held_parts:
        for seat in state.seats_of(team):
            for rank, count in enumerate(position.rank_counts(seat)):
                if count:
                    held = {"rank": RANK_NAMES[rank], "count": count, "went_out": facts["went_out"]}
                    held["anyone_went_out"] = facts["anyone_went_out"]
                    _add(held_parts, _components(rules, "score.held", held))
    return {**parts, **meld_parts, **held_parts}


def _add(parts: dict[str, int], more: dict[str, int]) -> None:
    for clause_id, points in more.items():
        parts[clause_id] += points


def score_parts(rules: Rules, state: HandState) -> list[dict[str, int]]:
    """Each side's points by clause id for a finished hand, from a native position loaded from ``state``; raises
    CoreUnavailable where the core is not built, ValueError where the variant's scoring needs a mechanism the core
    lacks (``score_mechanisms_missing``)."""
    missing = score_mechanisms_missing(rules)
    if missing:
        raise ValueError(f"the native score does not cover {', '.join(missing)} ({rules.variant.id})")
    position = load_state(new_position(rules), state)
    return [side_parts(rules, position, state, team) for team in range(rules.teams)]
