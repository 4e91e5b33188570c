"""A HandState rebuilt from the core's position and the fields kept beside it equals the reference's, at every
step of a generated game in every variant; and the reference's listing and score of the rebuilt state are those of
the original. Equality is the dataclass's: every field but ``derived`` (facts computed from a position, which a
copy starts without and which the listing fills)."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from canasta_ref import Game, core
from canasta_ref.core.rebuild import Beside, beside_of, rebuild_state, state_differences
from canasta_ref.engine.legal import listing
from canasta_ref.engine.scoring import score_hand
from canasta_ref.spec import list_variants, load_variant

#: Listings longer than this are compared by their count and their first actions alone (a side not opened with
#: many cards lists thousands of openings).
_LISTED_WHOLE = 400


@pytest.mark.parametrize("variant", list_variants())
def test_the_rebuilt_state_is_the_reference_at_every_step(library: ModuleType, variant: str) -> None:
    game = Game(load_variant(variant), seed="rebuild/1")
    rules = game.rules
    position = core.new_position(rules)
    pick = random.Random("rebuild/1")
    steps = 0
    while True:
        core.load_state(position, game.state)
        rebuilt = rebuild_state(rules, position, beside_of(game.state))
        assert state_differences(rebuilt, game.state) == [], f"step {steps}"
        reference = listing(rules, game.state.copy())
        mine = listing(rules, rebuilt)
        assert mine.count() == reference.count(), f"step {steps}"
        assert list(mine)[:_LISTED_WHOLE] == list(reference)[:_LISTED_WHOLE], f"step {steps}"
        assert score_hand(rules, rebuilt) == score_hand(rules, game.state), f"step {steps}"
        if game.is_over:
            break
        game.apply(game.legal_actions().sample(pick))
        steps += 1
    assert steps > 30  # a game long enough to meet draws, takes and melds (its moves are sampled)


def test_a_field_kept_beside_the_position_is_compared(library: ModuleType) -> None:
    """The comparison sees a difference in what the core does not hold (the proof above could not pass blind)."""
    game = Game(load_variant("classic"), seed=1)
    position = core.load_state(core.new_position(game.rules), game.state)
    beside: Beside = beside_of(game.state).changed(concealed=True, turns=4)
    found = state_differences(rebuild_state(game.rules, position, beside), game.state)
    assert found == ["concealed: core True, reference False", "turns: core 4, reference 0"]
