"""A view that differs at the deal of a generated game is filed under the upcard's turning again only when the
evidence shows nothing else: the engine's pile is the reference's first upcards, the rest still in its stock."""

from __future__ import annotations

from typing import Any

import pytest

from canasta_ref.conformance.causes import deal_view_rule, upcard_turned_fewer
from canasta_ref.conformance.variants import reference_rules

DEALT = {"pile": ["2S", "3C"], "stock_size": 61, "pile_frozen": True, "hand_sizes": [11, 11, 11, 11]}


def view(**changes: Any) -> dict[str, Any]:
    return {**DEALT, **changes}


def test_an_engine_that_did_not_turn_again_is_told_by_the_rule() -> None:
    got = view(pile=["2S"], stock_size=62)
    assert upcard_turned_fewer(DEALT, got)
    assert deal_view_rule(reference_rules("classic").variant, DEALT, got) == "DEAL.UPCARD.TURN_AGAIN"


@pytest.mark.parametrize(
    "got",
    [
        view(pile=["2S"], stock_size=61),  # the card it did not turn is not in its stock
        view(pile=["3C"], stock_size=62),  # another card on the pile: not the reference's first upcard
        view(pile=["2S"], stock_size=62, hand_sizes=[11, 12, 11, 11]),  # the deal differs elsewhere too
        view(pile=["2S", "3C", "4D"], stock_size=60),  # it turned more, not fewer
        view(stock_size=62),  # the same pile: the stock differs for another reason
    ],
)
def test_anything_else_names_no_rule(got: dict[str, Any]) -> None:
    assert not upcard_turned_fewer(DEALT, got)
    assert deal_view_rule(reference_rules("classic").variant, DEALT, got) is None
