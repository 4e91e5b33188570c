"""A broken engine: it stops answering on ``apply`` (sleeps until killed)."""

from __future__ import annotations

import sys
import time
from typing import Any

from _common import BrokenSession, misbehave_now, serve

HANG = misbehave_now()


def hook(session: BrokenSession, request: dict[str, Any]) -> dict[str, Any] | None:
    if HANG and request.get("cmd") == "apply":
        sys.stderr.write("hang.py: thinking forever\n")
        sys.stderr.flush()
        time.sleep(3600)
    return None


if __name__ == "__main__":
    serve(hook)
