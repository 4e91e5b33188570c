"""The core's draw phase of a side that has not opened on big hands (the scaling table's positions): its takes'
further melds counted with caps where the take's verdict stops changing (the further melds, the cards left, the
points) and shared by the groups alike in all the counting reads, with the same count, first page, sample and
action at a spread of indexes as the Python engine's; and where its takes pass what a 64-bit count holds, the core
declines the position (saying so where its other declines are said) and the Python engine lists it, rather than
``legal_actions()`` raising."""

from __future__ import annotations

import itertools
import random
from types import ModuleType
from typing import cast

import pytest

from canasta_ref import core
from canasta_ref.core.game import NativeGame
from canasta_ref.core.listing import PAST_64_BITS, NativeListing
from canasta_ref.engine.checks import initial_minimum
from canasta_ref.engine.rules import rules_for
from canasta_ref.scaling import scaling_position
from canasta_ref.spec import load_variant


@pytest.mark.parametrize(
    ("variant", "cards"),
    [
        ("classic", 45),
        ("classic-2p", 60),
        ("classic-3p", 60),
        ("classic-6p", 45),
        ("fournier", 60),
        ("hand-and-foot", 45),
        ("hoyle-2p", 60),
    ],
)
def test_a_big_draw_phase_not_opened_is_listed_by_the_core_as_the_python_engine_lists_it(
    native_game: ModuleType, variant: str, cards: int
) -> None:
    rules = rules_for(load_variant(variant))
    python, native = (scaling_position(rules, cards, opened=False, phase="draw", core=c) for c in ("python", "native"))
    reference, mine = python.legal_actions(), native.legal_actions()
    total = reference.count()
    assert mine.count() == total > 10**9
    ran = cast(NativeGame, native).ran
    assert ran["listing on the core"] == 1 and not ran["listing on the Python engine"]
    assert list(itertools.islice(mine, 20)) == list(itertools.islice(reference, 20))
    drawn = random.Random(total)
    for index in {0, total - 1, *(total * k // 13 for k in range(13)), *(drawn.randrange(total) for _ in range(6))}:
        assert mine[index] == reference[index], index
    assert mine.sample(random.Random(cards)) == reference.sample(random.Random(cards))


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
