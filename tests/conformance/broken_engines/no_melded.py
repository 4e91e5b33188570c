"""An engine that cannot hold whether a player has melded earlier in the hand: its hello declares the position field
``melded`` unheld, and it refuses a written-out position that gives it (so a runner sending one shows). Otherwise
it is the reference, but for ``--mutate-rule RULE``, a clause negated."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from canasta_ref.conformance.serve import serve
from canasta_ref.conformance.session import ReferenceSession


class NoMeldedSession(ReferenceSession):
    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        position = request.get("position")
        if request.get("cmd") == "setup" and isinstance(position, dict) and "melded" in position:
            return {"ok": False, "error": "this engine cannot hold 'melded'"}
        reply = super().handle(request)
        if request.get("cmd") == "hello" and reply.get("ok"):
            reply["name"] = "no-melded"
            reply["variants"] = ["classic"]
            reply["capabilities"] = {**reply["capabilities"], "unheld_position_fields": ["melded"]}
        return reply


if __name__ == "__main__":
    mutated = sys.argv[sys.argv.index("--mutate-rule") + 1] if "--mutate-rule" in sys.argv else None
    serve(NoMeldedSession(mutate_rule=mutated), sys.stdin.buffer, sys.stdout)
