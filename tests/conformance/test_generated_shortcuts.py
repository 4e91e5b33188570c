"""What the generated games' shortcuts rest on. A view equal to the reference's is taken without counting its cards
(``GeneratedGame.compare_view``): that holds only because the reference's own views always add up to the deck, checked
here in every bundled variant. A hand's score remembers its clauses' answers (``Rules.components_of``): the
score of every position must be the one worked out afresh."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from canasta_ref import Game
from canasta_ref.conformance.views import view_problem
from canasta_ref.engine import scoring
from canasta_ref.engine.rules import Rules
from canasta_ref.spec import list_variants, load_variant

#: Actions played a game: enough to meld, take the pile and lay out bonus cards in every variant, and quick.
STEPS = 60


def _positions(variant: str, seed: int) -> Iterator[Game]:
    """A game of ``variant`` played at random for up to ``STEPS`` actions, yielded as it stands at the deal and
    after each one (drawn from the listing's sample: a big hand is never listed whole)."""
    rng = random.Random(seed)
    game = Game(Rules(load_variant(variant)), seed=seed)
    yield game
    while not game.is_over and len(game.history) < STEPS:
        game.apply(game.legal_actions().sample(rng))
        yield game


@pytest.mark.parametrize("variant", list_variants())
def test_the_references_views_always_add_up(variant: str) -> None:
    for game in _positions(variant, seed=7):
        deck, players = len(game.deck), game.rules.players
        problems = [view_problem(game.view(seat), seat, deck, players) for seat in range(players)]
        assert problems == [None] * players, f"{variant} after {len(game.history)} actions"


@pytest.mark.parametrize("variant", ["classic", "fournier", "hand-and-foot", "modern-american"])
def test_a_remembered_score_is_the_score_worked_out_afresh(variant: str) -> None:
    scores = set()
    for game in _positions(variant, seed=11):
        remembered = [scoring.score_hand(game.rules, game.state).to_json() for _ in range(2)]
        game.rules.components_memo.clear()
        afresh = scoring.score_hand(game.rules, game.state).to_json()
        assert remembered == [afresh, afresh], f"{variant} after {len(game.history)} actions"
        scores.add(str(afresh))
    assert len(scores) > 1  # the game moved the score: not one answer throughout


def test_a_score_handed_out_cannot_change_the_remembered_one() -> None:
    *_, game = _positions("classic", seed=3)
    first = scoring.score_hand(game.rules, game.state)
    for side in first.sides:
        side.parts.clear()
    again = scoring.score_hand(game.rules, game.state)
    assert all(side.parts for side in again.sides)
    assert again.totals == [side.total for side in again.sides]
