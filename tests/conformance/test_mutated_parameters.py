"""A parameter value that makes a variant inconsistent is refused when it is given, once, not in every set-up:
``serve --mutate-parameter teams=0`` used to start and then refuse each ``setup``. Mutated parameters are
checked together, in every bundled variant that has them, as the session plays them."""

from __future__ import annotations

import io
from typing import Any

import pytest

from canasta_ref.cli import main
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.errors import CanastaError


@pytest.mark.parametrize(
    ("mutated", "message"),
    [
        ({"teams": 0}, "mutated parameter teams=0 in bolivia: value of parameter teams must be from 2 to 6"),
        ({"teams": 3}, "mutated parameter teams=3 in bolivia: 4 players cannot sit in 3 equal sides"),
        ({"players": 6}, "mutated parameter players=6 in classic-3p: sides.lone_hand needs each player"),
    ],
)
def test_a_mutation_no_variant_having_it_can_play_is_refused(mutated: dict[str, Any], message: str) -> None:
    with pytest.raises(CanastaError, match=message):
        ReferenceSession(mutate_parameter=mutated)


def test_values_that_hold_together_are_played() -> None:
    session = ReferenceSession(mutate_parameter={"players": 3, "teams": 3})
    assert session.handle({"cmd": "hello", "protocol": 1})["ok"] is True
    setup = {"cmd": "setup", "variant": "classic", "position": {"hands": ["KH 9C", "4C", "7C"]}}
    assert session.handle(setup) == {"ok": True}


def test_serve_with_such_a_mutation_stops_at_once_with_one_message(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["serve", "--mutate-parameter", "teams=0"], out) == 2
    assert out.getvalue() == ""
    error = capsys.readouterr().err
    assert error.splitlines() == [
        "canasta-ref: mutated parameter teams=0 in bolivia: value of parameter teams must be from 2 to 6 (its "
        "declared range), not 0"
    ]


def test_fixed_parameters_are_checked_together_too() -> None:
    assert ReferenceSession(fixed_parameters={"players": 3, "teams": 3}).fixed_parameters["classic"] == {
        "players": 3,
        "teams": 3,
    }
    with pytest.raises(CanastaError, match="fixed parameter teams=3 in bolivia: 4 players cannot sit"):
        ReferenceSession(fixed_parameters={"teams": 3})
