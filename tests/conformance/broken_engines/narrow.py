"""An engine claiming fewer variants: the reference, whose hello lists only ``--variants LIST`` (comma-separated;
default classic). ``--mutate-rule RULE`` negates a clause, ``--mutate-parameter NAME=VALUE`` changes a parameter
without saying so, as ``canasta-ref serve`` does. ``--ok-only``
answers every request, hello too, with ``{"ok": true}`` alone (no protocol version, nothing else)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import yaml

from canasta_ref.conformance.serve import serve
from canasta_ref.conformance.session import ReferenceSession


def option(name: str, default: str | None = None) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


class NarrowSession(ReferenceSession):
    def handle(self, request: Mapping[str, Any]) -> dict[str, Any]:
        if "--ok-only" in sys.argv:
            return {"ok": True}
        reply = super().handle(request)
        if request.get("cmd") == "hello" and reply.get("ok"):
            reply["variants"] = (option("--variants", "classic") or "").split(",")
        return reply


def mutated_parameter() -> tuple[str, Any] | None:
    text = option("--mutate-parameter")
    if text is None:
        return None
    name, _, value = text.partition("=")
    return name, yaml.safe_load(value)


if __name__ == "__main__":
    session = NarrowSession(mutate_rule=option("--mutate-rule"), mutate_parameter=mutated_parameter())
    serve(session, sys.stdin.buffer, sys.stdout)
