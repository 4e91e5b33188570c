"""Hand and Foot's options that change what a meld or a take may be, played: under each, random play from seeded
deals, with the listing checked at every step against every candidate judged one by one (``legal_by_plan``), so
the listing offers exactly what the judge accepts where the bundled variant's defaults never go."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from listing_kit import legal_by_plan

from canasta_ref import Action, Game, load_variant
from canasta_ref.engine.cards import JOKER_RANK
from canasta_ref.engine.rules import Rules, rules_for
from canasta_ref.spec.derive import derive

#: Steps of random play checked a deal: enough for both sides to open and lay several melds.
STEPS = 90


def options_rules(overrides: dict[str, Any]) -> Rules:
    return rules_for(derive(load_variant("hand-and-foot"), overrides))


def two_open_melds_of_a_rank(game: Game) -> bool:
    """Whether the side to act holds two open melds of one rank (of natural cards or of wild cards alone)."""
    melds = game.state.melds[game.state.side_of[game.to_act]]
    ranks = [m.rank for m in melds if not m.closed and m.rank <= JOKER_RANK]
    return len(ranks) != len(set(ranks))


def checked_playout(rules: Rules, seed: int, watch: Callable[[Game, set[Action]], bool]) -> int:
    """Random play from ``seed``, every position's listing checked; how many positions ``watch`` picked out."""
    game = Game(rules, seed=seed)
    rnd = random.Random(seed)
    picked = 0
    for _ in range(STEPS):
        if game.is_over:
            break
        legal = legal_by_plan(rules, game)
        assert legal, "no legal action in a live position"
        picked += watch(game, legal)
        game.apply(rnd.choice(sorted(legal, key=str)))
    return picked


def names_a_meld(game: Game, legal: set[Action]) -> bool:
    """Whether the side to act holds two open melds of a rank and the listing offers to name one of them."""
    return two_open_melds_of_a_rank(game) and any(a.target or any(g.target for g in a.melds) for a in legal)


@pytest.mark.parametrize("seed", [3, 11])
def test_several_melds_of_a_rank_are_listed_as_judged(seed: int) -> None:
    rules = options_rules({"open_melds_of_a_rank": "several"})
    assert rules.names_melds
    assert checked_playout(rules, seed, names_a_meld) > 0, "random play never named one of two melds of a rank"


def test_the_default_merges_every_rank() -> None:
    rules = options_rules({})
    assert not rules.names_melds
    assert all(rules.merges_same_rank[: JOKER_RANK + 1])
