"""The native core against the Python reference, step by step, in every bundled variant: the position loaded at
every step, every plain card move made by both, every action the core applies whole (the rest counted by
reason), and the score (facts, parts, totals) at every step and at the end;
then the scoring cases random play seldom reaches (a special hand, penalties), set up directly."""

from __future__ import annotations

import dataclasses
from types import ModuleType

import pytest

from canasta_ref import Game
from canasta_ref.core.apply import apply_missing, c_declined
from canasta_ref.core.listing import OPENINGS_WITHOUT_MINIMUM, draw_listing_missing, openings_missing
from canasta_ref.core.proof import prove
from canasta_ref.core.score import score
from canasta_ref.engine.rules import rules_for
from canasta_ref.engine.scoring import score_hand
from canasta_ref.engine.state import HandState
from canasta_ref.spec import list_variants, load_variant


@pytest.mark.parametrize("variant", list_variants())
def test_the_core_agrees_with_the_reference_at_every_step(library: ModuleType, variant: str) -> None:
    rules = rules_for(load_variant(variant))
    proof = prove(rules, ["core-proof/1"])
    assert proof.disagreements == [], proof.summary()
    assert proof.positions > 50
    assert {"draw", "discard", "meld"} <= set(proof.moves), proof.summary()
    assert proof.scores == proof.positions + 1
    assert proof.answers > proof.positions and proof.answer_hits > 0
    assert proof.discard_listings == proof.positions and proof.discard_blocks > 10
    assert proof.shape_ranks > proof.positions or proof.shapes_missing is not None
    assert proof.play_listings > 10 or proof.play_missing is not None
    assert sum(proof.listings.values()) > 0
    assert proof.opening_counts > 0 or openings_missing(rules) is not None
    assert OPENINGS_WITHOUT_MINIMUM not in proof.uncovered
    assert proof.listings["draw"] > 10 or draw_listing_missing(rules) is not None
    assert sum(proof.applied.values()) + sum(proof.apply_declined.values()) == proof.positions
    assert {"draw", "discard", "meld"} <= set(proof.applied) or apply_missing(rules) is not None, proof.summary()
    assert proof.applied_in_c == sum(proof.applied.values()) or c_declined(rules) is not None, proof.summary()


def _played(variant: str, actions: int) -> Game:
    """A hand of ``variant`` after ``actions`` actions, each the first legal one."""
    game = Game(load_variant(variant), seed="core-score/1")
    for _ in range(actions):
        game.apply(next(iter(game.legal_actions())))
    return game


def _same_score(game: Game, state: HandState) -> None:
    assert score(game.rules, state).to_json() == score_hand(game.rules, state).to_json()


def test_a_special_hand_scores_its_side_as_the_reference_does(library: ModuleType) -> None:
    game = _played("modern-american", 4)
    declared = dataclasses.replace(game.state, special_hand="straight", went_out=1, phase="over")
    assert score_hand(game.rules, declared).sides[1].total == 3000
    _same_score(game, declared)


def test_penalties_count_as_the_reference_counts_them(library: ModuleType) -> None:
    game = _played("fournier", 6)
    penalised = dataclasses.replace(game.state, penalties=[0, 40])
    assert score_hand(game.rules, penalised).sides[1].facts["penalties"] == 40
    _same_score(game, penalised)


def test_a_foot_still_face_down_counts_as_the_reference_counts_it(library: ModuleType) -> None:
    game = _played("hand-and-foot", 3)
    assert any(game.state.feet)
    ended = dataclasses.replace(game.state, went_out=0, phase="over")
    assert score_hand(game.rules, ended).sides[1].facts["foot_points"] > 0
    _same_score(game, ended)
