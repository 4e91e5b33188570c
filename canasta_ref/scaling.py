"""Positions with big hands, built from a seed: where the number of legal actions explodes (a side that has not
opened, holding many cards, has one opening action for every choice of melds). The benchmark's scaling table and
the tests that check the structured listing against a slow enumeration both use them. The benchmarks also share
here the random play that fills a Rules' caches before they time it (``play_at_random``).

Seat 0 is to act and holds ``cards`` cards (no bonus cards); its side has one meld of three natural cards when
``opened``; the pile's top card is of a rank seat 0 holds twice, over a few natural cards, so the pile can be
taken with a pair; the other seats hold 11 cards each (fewer if the deck runs short); the rest is the stock.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Literal

from .engine.cards import RANK_NAMES, Card, full_deck, rank_of
from .engine.game import Game
from .engine.position import Position
from .engine.rules import Rules
from .match import hand_seed

Phase = Literal["draw", "play"]


def scaling_position(
    rules: Rules, cards: int, *, opened: bool, phase: Phase, seed: int = 0, core: str = "python"
) -> Game:
    """The position described in the module docstring, the same for the same arguments, in a game on ``core``."""
    rng = random.Random(f"scaling/{rules.variant.id}/{cards}/{opened}/{phase}/{seed}")
    deck = full_deck(rules.packs, rules.jokers_per_pack)
    rng.shuffle(deck)

    def natural(card: Card) -> bool:
        """A natural card that melds (threes are bonus or stop cards in the bundled variants)."""
        return rules.hand_kind[card] == 1 and RANK_NAMES[rank_of(card)] != "3"

    meld: list[Card] = []
    if opened:
        rank = rank_of(next(c for c in deck if natural(c)))
        meld = [c for c in deck if natural(c) and rank_of(c) == rank][:3]
        for card in meld:
            deck.remove(card)
    hand = [c for c in deck if not rules.is_bonus[c]][:cards]
    if len(hand) < cards:
        raise ValueError(f"{rules.variant.id} has only {len(hand)} cards to deal to one hand, not {cards}")
    for card in hand:
        deck.remove(card)
    held_twice = [
        r
        for r in {rank_of(c) for c in hand if natural(c)}
        if sum(1 for c in hand if natural(c) and rank_of(c) == r) >= 2
    ]
    top = next((c for c in deck if natural(c) and rank_of(c) in held_twice), None)
    pile: list[Card] = []
    if top is not None:
        under = [c for c in deck if natural(c) and c != top][:4]
        pile = [*under, top]
        for card in pile:
            deck.remove(card)
    others: list[list[Card]] = []
    for _ in range(rules.players - 1):
        dealt = [c for c in deck if not rules.is_bonus[c]][:11]
        for card in dealt:
            deck.remove(card)
        others.append(dealt)
    melds: list[list[list[Card]]] = [[] for _ in range(rules.teams)]
    if meld:
        melds[0].append(meld)
    position = Position(hands=[hand, *others], pile=pile, melds=melds, to_act=0, phase=phase)
    return Game.from_position(rules, position, core)


def play_at_random(rules: Rules, deals: Iterable[int], rng: random.Random, *, seed: int, core: str = "python") -> int:
    """Play to their end, on ``core``, the hands a match seeded ``seed`` deals as its hands ``deals``, each action
    drawn by ``rng.choice`` from the listing (its length and one index: the benchmarks' random policy); return the
    actions played."""
    actions = 0
    for number in deals:
        game = Game(rules, seed=hand_seed(seed, number), core=core)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            actions += 1
    return actions
