"""An engine that cannot set up a written-out position: hello says setup_position false (and setup skips one)."""

from __future__ import annotations

from typing import Any

from _common import BrokenSession, serve


def hook(session: BrokenSession, request: dict[str, Any]) -> dict[str, Any] | None:
    command = request.get("cmd")
    if command == "hello":
        reply = session.reference(request)
        reply["name"] = "no-position"
        reply["capabilities"] = {**reply["capabilities"], "setup_position": False}
        return reply
    if command == "setup" and "position" in request:
        return {"ok": False, "skip": "positions are not supported"}
    return None


if __name__ == "__main__":
    serve(hook)
