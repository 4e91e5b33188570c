"""A match: hands dealt from one seed, scores carried over, until the spec's match.over says stop."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .bots import Bot
from .engine.game import Event, Game, deck_for_seed
from .engine.rules import Rules
from .engine.scoring import HandScore
from .engine.state import HandState


@dataclass
class HandRecord:
    number: int
    first_seat: int
    seed: str
    events: list[Event]
    actions: list[str]
    score: HandScore
    totals_after: list[int]


@dataclass
class MatchResult:
    hands: list[HandRecord] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    winner: int | None = None
    finished: bool = False


class MatchEnd(NamedTuple):
    """Whether the match is over, and the winning side (None while it goes on, or on a tie for the lead)."""

    over: bool
    winner: int | None


def match_end(rules: Rules, totals: Sequence[int], hands_played: int, outright: int | None = None) -> MatchEnd:
    """The spec's ``match.over`` for these cumulative totals after ``hands_played`` hands (evaluated, so rule
    coverage sees it), and the winner when it says stop: the side that won the match outright with the hand just
    played (``outright``, see ``outright_winner``), else the leader where exactly one side leads."""
    highest = max(totals)
    leaders = sum(1 for t in totals if t == highest)
    facts = {
        "highest_score": highest,
        "hands_played": hands_played,
        "leaders": leaders,
        "won_outright": outright is not None,
    }
    over = rules.predicate("match.over", facts)
    if over and outright is not None:
        return MatchEnd(True, outright)
    return MatchEnd(over, list(totals).index(highest) if over and leaders == 1 else None)


def outright_winner(rules: Rules, state: HandState) -> int | None:
    """The side whose special hand ended this hand and wins the match outright (hook special_hand.wins_match), or
    None: no special hand ended it, or the spec lets it win nothing more than its score."""
    if not state.special_hand or state.went_out is None:
        return None
    if not rules.predicate("special_hand.wins_match", {"hand": state.special_hand}):
        return None
    return state.side_of[state.went_out]


def hand_seed(seed: int | str, number: int) -> str:
    """The deck seed of hand ``number`` of a match: derived, so every hand is reproducible on its own."""
    return f"{seed}/{number}"


def play_hand(game: Game, bots: Sequence[Bot], *, max_actions: int = 10_000) -> None:
    """Let the bots play a hand to its end."""
    for _ in range(max_actions):
        if game.is_over:
            return
        game.apply(bots[game.to_act].choose(game))
    raise RuntimeError(f"the hand did not end within {max_actions} actions")


def play_match(
    rules: Rules,
    bots: Sequence[Bot],
    seed: int | str,
    *,
    max_hands: int = 200,
    on_hand: Callable[[HandRecord], None] | None = None,
) -> MatchResult:
    result = MatchResult(totals=[0] * rules.teams)
    for number in range(max_hands):
        first = number % rules.players
        deck_seed = hand_seed(seed, number)
        game = Game(
            rules,
            deck=deck_for_seed(rules, deck_seed),
            team_scores=result.totals,
            first_seat=first,
            hand_number=number + 1,
        )
        play_hand(game, bots)
        score = game.score()
        result.totals = [t + s for t, s in zip(result.totals, score.totals, strict=True)]
        record = HandRecord(
            number + 1,
            first,
            deck_seed,
            list(game.events),
            [str(a) for a in game.history],
            score,
            result.totals,
        )
        result.hands.append(record)
        if on_hand is not None:
            on_hand(record)
        end = match_end(rules, result.totals, number + 1, outright_winner(rules, game.state))
        if end.over:
            result.finished = True
            result.winner = end.winner
            break
    return result
