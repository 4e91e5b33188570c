"""A broken engine: its replies have the wrong shape. With ``--legal`` it lists ``{"type": "fly"}`` among the
legal actions; with ``--view`` it sends a seat's view as a string. Everything else is the reference's."""

from __future__ import annotations

import sys
from typing import Any

from _common import BrokenSession, serve


def hook(session: BrokenSession, request: dict[str, Any]) -> dict[str, Any] | None:
    command = request.get("cmd")
    if command == "legal" and "--legal" in sys.argv:
        reply = session.reference(request)
        return {**reply, "actions": [*reply.get("actions", []), {"type": "fly"}]}
    if command == "view" and "--view" in sys.argv:
        return {"ok": True, "view": "north sees KH JK 9C"}
    return None


if __name__ == "__main__":
    serve(hook)
