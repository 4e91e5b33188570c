"""The smallest engine the protocol allows: PROTOCOL.md's "A minimal engine", made into a process.

It answers ``hello`` with no capabilities at all (so the runner may send it only ``setup`` from a deck, ``apply``
and ``quit``), plays Classic through the reference, and answers anything else ``ok: false``. ``--log FILE``
appends each request's ``cmd`` (and whether a ``setup`` wrote a position out), one line each, so a test can
check that the runner kept to the minimal set.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from _common import BrokenSession, serve

LOG = sys.argv[sys.argv.index("--log") + 1] if "--log" in sys.argv else None
MINIMAL_COMMANDS = ("hello", "setup", "apply", "quit")


def _record(request: dict[str, Any]) -> None:
    if LOG is None:
        return
    what = str(request.get("cmd"))
    if what == "setup" and "position" in request:
        what += " position"
    with Path(LOG).open("a", encoding="utf-8") as log:
        log.write(what + "\n")


def hook(session: BrokenSession, request: dict[str, Any]) -> dict[str, Any] | None:
    _record(request)
    command = request.get("cmd")
    if command == "hello":
        return {"ok": True, "name": "minimal", "protocol": 8, "variants": ["classic"]}
    if command not in MINIMAL_COMMANDS or "position" in request:
        return {"ok": False, "error": f"a minimal engine does not answer {command!s}"}
    return None


if __name__ == "__main__":
    serve(hook)
