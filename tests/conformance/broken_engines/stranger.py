"""A stranger's minimal engine: written from conformance/PROTOCOL.md alone, around canasta-ref's public API.

It declares the least the protocol allows (no capabilities: the runner sends it ``setup`` from a deck, ``apply``
and ``quit``) and plays Classic through ``canasta_ref.Game``, with two deliberate faults the rules decide:

- it takes a frozen pile anyway: where the reference refuses a take by ``PILE.TAKE.FROZEN`` it answers accepted
  (and plays nothing, as an engine that skipped the check would leave its own state to be put back);
- it refuses to discard a wild card, which Classic allows (the discard freezes the pile, ``PILE.FROZEN.WILD``).

Unlike the other broken engines it does not use the project's serve loop: it is the adapter a newcomer writes.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from canasta_ref import Game, IllegalAction, action_from_json, load_variant, parse_cards

WILD_RANKS = ("2", "JK")


class StrangerEngine:
    """One hand of Classic at a time, answering the four requests of a minimal engine."""

    def __init__(self) -> None:
        self.game: Game | None = None

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        command = request.get("cmd")
        if command == "hello":
            return {"ok": True, "name": "stranger", "protocol": 8, "variants": ["classic"]}
        if command == "setup":
            return self.setup(request)
        if command == "apply" and self.game is not None:
            return self.apply(self.game, request)
        if command == "quit":
            return {"ok": True}
        return {"ok": False, "error": f"a minimal engine does not answer {command}"}

    def setup(self, request: dict[str, Any]) -> dict[str, Any]:
        self.game = Game(
            load_variant(request["variant"]),
            deck=parse_cards(request["deck"]),
            first_seat=request.get("first_seat", 0),
            team_scores=request.get("team_scores"),
        )
        return {"ok": True}

    def apply(self, game: Game, request: dict[str, Any]) -> dict[str, Any]:
        action = request["action"]
        if action.get("type") == "discard" and str(action.get("card", "")).startswith(WILD_RANKS):
            return {"ok": True, "accepted": False, "rule": None, "message": "A wild card may not be discarded."}
        try:
            game.apply(action_from_json(action), request.get("seat"))
        except IllegalAction as refusal:
            if refusal.rule_id == "PILE.TAKE.FROZEN":
                return {"ok": True, "accepted": True}
            return {"ok": True, "accepted": False, "rule": refusal.rule_id, "message": refusal.explanation}
        return {"ok": True, "accepted": True}


def main() -> None:
    engine = StrangerEngine()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        reply = {"id": request.get("id"), **engine.answer(request)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if request.get("cmd") == "quit":
            return


if __name__ == "__main__":
    main()
