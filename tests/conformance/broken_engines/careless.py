"""A broken engine with a newcomer's slips in the shape of its answers. With ``--wrong-id`` its answers to
``apply`` carry the next request's id; with ``--banner`` it greets on standard output before any request.
Everything else is the reference's."""

from __future__ import annotations

import sys
from typing import Any

from _common import BrokenSession, serve


def hook(session: BrokenSession, request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("cmd") == "apply" and "--wrong-id" in sys.argv:
        return {**session.reference(request), "id": int(request.get("id", 0)) + 1}
    return None


if __name__ == "__main__":
    if "--banner" in sys.argv:
        print("careless engine ready", flush=True)
    serve(hook)
