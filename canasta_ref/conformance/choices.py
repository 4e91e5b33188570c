"""A generated game's choices: every random decision of a game is a whole number picked between two bounds.

A game of a campaign is named by the campaign's seed and its number: its choices come from a random generator
seeded by those two numbers alone (never by the games before it), so a game is the same whichever shard, worker
or run plays it, and it can be played alone. Each choice is recorded as its distance from its lower bound, so
that a game can be replayed from the list (and shrunk: a smaller list, or smaller numbers in it, is a simpler
game; past the end of the list every choice is its lower bound).
"""

from __future__ import annotations

import random
from collections.abc import Sequence


def game_seed(campaign_seed: int, number: int) -> str:
    """The seed of game ``number`` of a campaign (a text: Python seeds a generator with its SHA-512 digest, the
    same on every platform and version)."""
    return f"canasta-ref generated game {campaign_seed}/{number}"


class Choices:
    """A ``Pick`` that records what it picks: replayed from ``replay`` while it lasts, then drawn from ``rng``
    (or, without one, the lowest value)."""

    def __init__(self, rng: random.Random | None = None, replay: Sequence[int] = ()) -> None:
        self.rng = rng
        self.replay = list(replay)
        #: Each choice made so far, as its distance from its lower bound.
        self.made: list[int] = []

    def __call__(self, low: int, high: int) -> int:
        index = len(self.made)
        span = max(high - low, 0)
        if index < len(self.replay):
            offset = min(max(self.replay[index], 0), span)
        elif self.rng is not None:
            offset = self.rng.randint(0, span)
        else:
            offset = 0
        self.made.append(offset)
        return low + offset


def random_choices(campaign_seed: int, number: int) -> Choices:
    """The choices of game ``number`` of the campaign of ``campaign_seed``."""
    return Choices(random.Random(game_seed(campaign_seed, number)))


def replayed(offsets: Sequence[int]) -> Choices:
    """Choices replayed from a recorded list (each past its end the lowest value)."""
    return Choices(None, offsets)


__all__ = ["Choices", "game_seed", "random_choices", "replayed"]
