"""Shared loop of the broken engines: the reference behind the protocol, with one thing done wrong.

Each engine is a script run as ``python path/to/engine.py [--once FILE]``. ``serve(hook)`` runs the project's
serve loop (``canasta_ref.conformance.serve``) on a reference session whose ``handle`` asks
``hook(session, request)`` first: the hook returns a reply of its own (or exits, hangs, prints garbage), or None
for the reference's answer (``session.reference(request)``, which a hook may also call and then alter). With
``--once FILE`` an engine misbehaves only if FILE does not exist yet, and creates it: the next process (after the
runner restarts it) behaves, which shows the run went on with a fresh engine.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from canasta_ref.conformance.serve import serve as serve_lines
from canasta_ref.conformance.session import ReferenceSession


class BrokenSession(ReferenceSession):
    """The reference session, except where the hook answers first."""

    def __init__(self, hook: Hook) -> None:
        super().__init__()
        self.hook = hook

    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        reply = self.hook(self, dict(request))
        return self.reference(request) if reply is None else reply

    def reference(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """The reference's own answer."""
        return super().handle(request)


Hook = Callable[[BrokenSession, dict[str, Any]], "dict[str, Any] | None"]


def misbehave_now() -> bool:
    """True unless ``--once FILE`` was given and FILE exists (then create it and misbehave this once)."""
    if "--once" not in sys.argv:
        return True
    marker = Path(sys.argv[sys.argv.index("--once") + 1])
    if marker.exists():
        return False
    marker.write_text("misbehaved\n", encoding="utf-8")
    return True


def serve(hook: Hook) -> None:
    serve_lines(BrokenSession(hook), sys.stdin.buffer, sys.stdout)
