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
from canasta_ref.engine.cards import JOKER_RANK, rank_of
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


def test_several_melds_of_a_rank_are_listed_as_judged() -> None:
    rules = options_rules({"open_melds_of_a_rank": "several"})
    assert rules.names_melds
    found = sum(checked_playout(rules, seed, names_a_meld) for seed in (3, 11, 17))
    assert found > 0, "random play never named one of two melds of a rank"


def natural_and_wild_take(game: Game, legal: set[Action]) -> bool:
    """Whether the listing offers to take the pile with one natural card of the top card's rank and a wild card."""
    state = game.state
    if not state.pile:
        return False
    rules = game.rules
    top = rank_of(state.pile[-1])
    for action in legal:
        if action.kind == "take" and len(action.cards) == 2:
            naturals = [c for c in action.cards if not rules.is_wild[c] and rank_of(c) == top]
            if len(naturals) == 1:
                return True
    return False


@pytest.mark.parametrize(("overrides", "offered"), [({}, False), ({"pile_take_match": "natural_and_wild"}, True)])
def test_a_natural_and_a_wild_card_take_the_pile_only_under_classics_rule(
    overrides: dict[str, Any], offered: bool
) -> None:
    rules = options_rules(overrides)
    found = sum(checked_playout(rules, seed, natural_and_wild_take) for seed in (5, 8, 13))
    assert (found > 0) == offered, f"{found} positions offered a natural and a wild card to take the pile"


def test_the_default_merges_every_rank() -> None:
    rules = options_rules({})
    assert not rules.names_melds
    assert all(rules.merges_same_rank[: JOKER_RANK + 1])
