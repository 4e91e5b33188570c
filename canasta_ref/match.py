"""A match: hands dealt from one seed, scores carried over, until the spec's match.over says stop."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .bots import Bot
from .engine.game import Event, Game, deck_for_seed
from .engine.rules import Rules
from .engine.scoring import HandScore


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


def match_end(rules: Rules, totals: Sequence[int], hands_played: int) -> MatchEnd:
    """The spec's ``match.over`` for these cumulative totals after ``hands_played`` hands (evaluated, so rule
    coverage sees it), and the leader when it says stop and exactly one side leads."""
    highest = max(totals)
    leaders = sum(1 for t in totals if t == highest)
    over = rules.predicate("match.over", {"highest_score": highest, "hands_played": hands_played, "leaders": leaders})
    return MatchEnd(over, list(totals).index(highest) if over and leaders == 1 else None)


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
        end = match_end(rules, result.totals, number + 1)
        if end.over:
            result.finished = True
            result.winner = end.winner
            break
    return result
