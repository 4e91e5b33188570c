"""A broken engine: it refuses what it should, but cites another rule id than the reference's."""

from __future__ import annotations

from typing import Any

from _common import BrokenSession, serve

WRONG = {"PILE.TAKE.FROZEN": "PILE.TAKE.MATCH", "TURN.ORDER": "TURN.DRAW_FIRST"}
DEFAULT = "TURN.ORDER"


def hook(session: BrokenSession, request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("cmd") != "apply":
        return None
    reply = session.reference(request)
    if reply.get("ok") and reply.get("accepted") is False:
        reply["rule"] = WRONG.get(reply["rule"], DEFAULT)
    return reply


if __name__ == "__main__":
    serve(hook)
