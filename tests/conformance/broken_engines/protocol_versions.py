"""An engine of another protocol version: the reference, except in how it answers ``hello``.

``--speaks N`` names protocol N in every hello reply, whatever was asked (default 1: an engine written for
protocol 1 that never reads the request's version). ``--accept LIST`` (comma-separated versions) refuses, with
``ok: false``, a hello whose ``protocol`` is not among them: ``--accept 1`` is a strict protocol-1 engine.
``--capabilities JSON`` merges an object into the reply's capabilities (protocol 2's, malformed or not).
``--log FILE`` appends every hello request, as received, to FILE, one JSON line each.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from _common import BrokenSession, serve


def option(name: str, default: str | None = None) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


SPEAKS = int(option("--speaks", "1") or 1)
ACCEPT = option("--accept")
CAPABILITIES: dict[str, Any] = json.loads(option("--capabilities", "{}") or "{}")
LOG = option("--log")


def hook(session: BrokenSession, request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("cmd") != "hello":
        return None
    if LOG:
        with Path(LOG).open("a", encoding="utf-8") as log:
            log.write(json.dumps(request) + "\n")
    if ACCEPT is not None and str(request.get("protocol")) not in ACCEPT.split(","):
        return {"ok": False, "error": f"this engine speaks protocol {ACCEPT} only"}
    reply = session.reference({"cmd": "hello", "protocol": 1})
    return {**reply, "protocol": SPEAKS, "capabilities": {**reply["capabilities"], **CAPABILITIES}}


if __name__ == "__main__":
    serve(hook)
