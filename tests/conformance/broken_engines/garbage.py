"""A broken engine: it answers ``apply`` with a line that is not JSON."""

from __future__ import annotations

import sys
from typing import Any

from _common import BrokenSession, misbehave_now, serve

GARBAGE = misbehave_now()


def hook(session: BrokenSession, request: dict[str, Any]) -> dict[str, Any] | None:
    if GARBAGE and request.get("cmd") == "apply":
        sys.stdout.write("Applying move... done!\n")
        sys.stdout.flush()
        return session.reference(request)  # the real answer follows, one line too late
    return None


if __name__ == "__main__":
    serve(hook)
