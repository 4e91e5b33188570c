"""Protocol version 7: the initial meld's bonus cards (Modern American). A position's talons and bonus cards owed,
and a view's turn card, talons and bonus cards owed, are never sent to an engine speaking an older version,
which is not run in a variant that deals bonus cards for the initial meld."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.generated import run_generated_games
from canasta_ref.conformance.perft import load_perft_files, run_perft
from canasta_ref.conformance.runner import up_front_skip
from canasta_ref.conformance.scenario import load_scenarios
from canasta_ref.conformance.session import ReferenceSession, position_content_newer_than, variant_newer_than
from canasta_ref.conformance.setup import deal_request
from canasta_ref.conformance.variants import reference_rules
from canasta_ref.engine.game import deck_for_seed

MAC = "modern-american"
TOO_OLD = (
    "the engine speaks protocol 6, whose positions and views cannot hold the initial meld's bonus cards, "
    "as modern-american's must (version 7 added it)"
)


def test_hello_negotiates_version_7() -> None:
    reply = ReferenceSession().handle({"id": 1, "cmd": "hello", "protocol": 7, "protocols": [1, 2, 3, 4, 5, 6, 7]})
    assert reply["ok"] and reply["protocol"] == 7


def test_a_variant_dealing_bonus_cards_needs_version_7() -> None:
    assert variant_newer_than(6, reference_rules(MAC)) == 7
    assert variant_newer_than(7, reference_rules(MAC)) == 8  # a player may keep a three: version 8's
    assert variant_newer_than(8, reference_rules(MAC)) == 0
    assert variant_newer_than(6, reference_rules("classic")) == 0
    assert variant_newer_than(5, reference_rules("samba")) == 6  # the older need is named first


@pytest.mark.parametrize(("protocol", "newer"), [(6, (7, ["'bonus_draws_owed'", "'talons'"])), (7, (0, []))])
def test_position_fields_of_version_7(protocol: int, newer: tuple[int, list[str]]) -> None:
    position: dict[str, Any] = {"hands": [], "talons": [], "bonus_draws_owed": [0, 0, 0, 0]}
    assert position_content_newer_than(protocol, reference_rules(MAC), position) == newer


def _deal() -> dict[str, Any]:
    return deal_request(MAC, deck_for_seed(reference_rules(MAC), 1), 0)


def test_a_version_6_session_does_not_set_the_variant_up() -> None:
    session = ReferenceSession()
    session.handle({"id": 1, "cmd": "hello", "protocol": 6, "protocols": [1, 2, 3, 4, 5, 6]})
    reply = session.handle(_deal())
    assert reply == {
        "ok": False,
        "skip": "modern-american deals bonus cards for the initial meld, which protocol 7 added; this session speaks 6",
    }
    session = ReferenceSession()
    session.handle({"id": 1, "cmd": "hello", "protocol": 8, "protocols": [1, 2, 3, 4, 5, 6, 7, 8]})
    assert session.handle(_deal())["ok"] is True


class Speaks6(ReferenceSession):
    """The reference answering every hello in version 6."""

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "hello":
            request = {**request, "protocol": 6, "protocols": [1, 2, 3, 4, 5, 6]}
        return super().handle(request)


def test_a_version_6_engine_skips_the_variants_scenarios_and_perft_files() -> None:
    engine = InProcessEngine(Speaks6())
    assert engine.info.protocol == 6
    scenario = next(s for s in load_scenarios() if MAC in s.variants)
    assert up_front_skip(engine.info, scenario, MAC) == TOO_OLD
    perft = next(p for p in load_perft_files() if p.variant == MAC)
    assert run_perft(engine, perft).message == TOO_OLD


def test_generated_games_leave_the_variant_out_for_a_version_6_engine() -> None:
    report = run_generated_games(InProcessEngine(Speaks6()), games=1, seed=1, variants=[MAC])
    assert [r.message for r in report.results] == [TOO_OLD]
