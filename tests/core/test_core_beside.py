"""``Beside.changed``, the copy a game on the core makes of the fields kept beside its position at nearly every
action: the fields named change, the others are kept, the original is untouched, a name that is no field fails."""

from __future__ import annotations

import pytest

from canasta_ref import Game, load_variant
from canasta_ref.core.rebuild import Beside, beside_of


def _beside() -> Beside:
    return beside_of(Game(load_variant("classic"), seed=1).state)


def test_changed_sets_the_fields_named_and_keeps_the_others() -> None:
    before = _beside()
    after = before.changed(turns=before.turns + 3, went_out=1)
    assert (after.turns, after.went_out) == (before.turns + 3, 1)
    assert after == Beside(**{**vars(before), "turns": before.turns + 3, "went_out": 1})
    assert before.went_out is None and after is not before


def test_changed_refuses_a_name_that_is_no_field() -> None:
    with pytest.raises(TypeError, match="Beside has no field turn_count"):
        _beside().changed(turn_count=1)
