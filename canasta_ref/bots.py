"""Built-in players: a uniformly random one (for benchmarks and fuzzing) and a simple greedy one (for demos)."""

from __future__ import annotations

import random
from typing import Protocol

from .engine.actions import Action
from .engine.cards import rank_of
from .engine.game import Game
from .errors import CanastaError


class Bot(Protocol):
    name: str

    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self._rng.choice(list(game.legal_actions()))


class GreedyBot:
    """Takes the pile when it can, melds as much as it can, discards its least useful card.

    It plays legal, sensible Canasta so that a demo match is worth reading; it is not a strong player.
    """

    name = "greedy"

    def __init__(self, seed: int | str = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        actions = list(game.legal_actions())
        by_kind: dict[str, list[Action]] = {}
        for action in actions:
            by_kind.setdefault(action.kind, []).append(action)
        phase = game.state.phase
        if phase == "answer":
            return Action.answer(True)
        if phase == "keep":  # keeping a three for a straight is a long shot
            return Action("layout")
        if phase == "draw":
            takes = by_kind.get("take", [])
            if takes:
                return max(takes, key=lambda a: (len(a.all_cards()), str(a)))
            return Action.draw()
        melds = by_kind.get("meld", [])
        if melds:
            return max(melds, key=lambda a: (len(a.all_cards()), -sum(1 for _ in a.melds), str(a)))
        discards = by_kind.get("discard", [])
        if discards:
            return min(discards, key=lambda a: (self._keep_value(game, a), str(a)))
        return self._rng.choice(actions)

    @staticmethod
    def _keep_value(game: Game, action: Action) -> int:
        """How much we would rather keep a card: wild cards and cards of our melds most, then by value."""
        rules = game.rules
        card = action.cards[0]
        seat = game.to_act
        team = game.state.side_of[seat]
        if rules.is_wild[card]:
            return 1000
        held = game.state.hands[seat][card]
        mine = any(m.rank == rank_of(card) for m in game.state.melds[team])
        return (500 if mine else 0) + 50 * held + rules.card_value[card]


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int | str) -> Bot:
    try:
        return BOTS[name](seed)
    except KeyError:
        raise CanastaError(f"unknown bot {name!r}; expected one of: {', '.join(sorted(BOTS))}") from None
