"""The core's draw phase of a side that has not opened on big hands (the scaling table's positions): where its takes
pass what a 64-bit count holds, the core declines the position (saying so where its other declines are said) and
the Python engine lists it, rather than ``legal_actions()`` raising."""

from __future__ import annotations

from types import ModuleType
from typing import cast

from canasta_ref import core
from canasta_ref.core.game import NativeGame
from canasta_ref.core.listing import PAST_64_BITS, NativeListing
from canasta_ref.engine.checks import initial_minimum
from canasta_ref.engine.rules import rules_for
from canasta_ref.scaling import scaling_position
from canasta_ref.spec import load_variant


def test_takes_past_a_64_bit_count_are_listed_by_the_python_engine(native_game: ModuleType) -> None:
    classic = rules_for(load_variant("classic"))
    python, native = (scaling_position(classic, 60, opened=False, phase="draw", core=c) for c in ("python", "native"))
    total = python.legal_actions().count()
    assert total > 2**63  # past what a signed 64-bit count holds
    assert native.legal_actions().count() == total
    ran = cast(NativeGame, native).ran
    assert ran["listing on the Python engine"] == 1 and not ran["listing on the core"]
    state = python.state
    position = core.load_state(core.new_position(classic), state)
    assert NativeListing(classic).uncovered(position, initial_minimum(classic, state, state.to_act)) == PAST_64_BITS
