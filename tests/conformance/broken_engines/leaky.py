"""A broken engine: its ``view`` shows one card of another seat's hand (the next seat's first card).

By default the card is added to the seat's ``hand`` (so the hand no longer has the size ``hand_sizes`` says);
with ``--replace`` it takes the place of the seat's last card, so the sizes still agree. Everything else is the
reference's, so only a check of what a seat sees can catch it: a scenario's view expectation of ``hand``, the
generated games' conservation of cards, or their property that a view does not change when hidden cards are
shuffled.
"""

from __future__ import annotations

import sys
from typing import Any

from _common import BrokenSession, serve


def hook(session: BrokenSession, request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("cmd") != "view":
        return None
    reply = session.reference(request)
    game = session.game
    if reply.get("ok") and game is not None:
        seat = int(request["seat"])
        neighbour = game.view((seat + 1) % game.rules.players)["hand"]
        hand = reply["view"]["hand"]
        if neighbour and "--replace" in sys.argv:
            reply["view"]["hand"] = [*hand[:-1], neighbour[0]] if hand else hand
        elif neighbour:
            reply["view"]["hand"] = [*hand, neighbour[0]]
    return reply


if __name__ == "__main__":
    serve(hook)
