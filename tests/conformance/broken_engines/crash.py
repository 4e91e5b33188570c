"""A broken engine: it exits (status 3, a line on stderr) on the first ``apply``.

With ``--start-once FILE`` it starts only once: if FILE exists it exits at once (status 5), so a restart fails.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from _common import BrokenSession, misbehave_now, serve

CRASH = misbehave_now()


def hook(session: BrokenSession, request: dict[str, Any]) -> dict[str, Any] | None:
    if CRASH and request.get("cmd") == "apply":
        sys.stderr.write("crash.py: segmentation fault in apply (on purpose)\n")
        sys.stderr.flush()
        sys.exit(3)
    return None


def start_once() -> None:
    if "--start-once" in sys.argv:
        marker = Path(sys.argv[sys.argv.index("--start-once") + 1])
        if marker.exists():
            sys.stderr.write("crash.py: will not start again\n")
            sys.exit(5)
        marker.write_text("started\n", encoding="utf-8")


if __name__ == "__main__":
    start_once()
    serve(hook)
