"""Shared loop of the broken engines: the reference behind the protocol, with one thing done wrong.

Each engine is a script run as ``python path/to/engine.py [--once FILE]``. ``serve(hook)`` answers every line
with the reference session, except where ``hook(session, request)`` returns a reply of its own (or exits, hangs,
prints garbage). With ``--once FILE`` an engine misbehaves only if FILE does not exist yet, and creates it: the
next process (after the runner restarts it) behaves, which shows the run went on with a fresh engine.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from canasta_ref.conformance.session import ReferenceSession

Hook = Callable[[ReferenceSession, dict[str, Any]], "dict[str, Any] | None"]


def misbehave_now() -> bool:
    """True unless ``--once FILE`` was given and FILE exists (then create it and misbehave this once)."""
    if "--once" not in sys.argv:
        return True
    marker = Path(sys.argv[sys.argv.index("--once") + 1])
    if marker.exists():
        return False
    marker.write_text("misbehaved\n", encoding="utf-8")
    return True


def answer(reply: dict[str, Any], request: dict[str, Any]) -> None:
    if "id" in request:
        reply = {"id": request["id"], **reply}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()


def serve(hook: Hook, session: ReferenceSession | None = None) -> None:
    session = session or ReferenceSession()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        reply = hook(session, request)
        if reply is None:
            reply = session.handle(request)
        answer(reply, request)
        if reply.get("bye"):
            return
