#!/usr/bin/env python3
"""The example session of conformance/PROTOCOL.md, played for real against ``canasta-ref serve``.

The protocol document shows one whole session (hello, setup, legal, apply, view, score, quit) so that an engine
author sees every request and answer in order before reading the reference. Those answers are not written by
hand: this script sends the requests below to ``canasta-ref serve`` and writes what it answered between the
document's transcript markers, and ``--check`` (run by the tests) fails when the document no longer shows what
the reference answers today.

    python tools/protocol_transcript.py           print the transcript
    python tools/protocol_transcript.py --write   write it into conformance/PROTOCOL.md
    python tools/protocol_transcript.py --check   exit 1 if PROTOCOL.md shows another
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROTOCOL = ROOT / "conformance" / "PROTOCOL.md"
BEGIN = "<!-- transcript: written by tools/protocol_transcript.py from a run of canasta-ref serve -->"
END = "<!-- end of transcript -->"

#: Seat 0 holds three cards with a black three on the pile: the take is refused by a rule, the draw accepted,
#: and the listings stay short enough to read.
POSITION: dict[str, Any] = {
    "hands": ["5S 9H KD", "4C 4D 6S", "7C 7D 8H", "8C 8D 10H"],
    "pile": "6H 3C",
    "melds": [[], []],
    "red_threes": ["", "", "", ""],
    "to_act": 0,
    "phase": "draw",
}

REQUESTS: list[dict[str, Any]] = [
    {"id": 1, "cmd": "hello", "protocol": 8, "protocols": [1, 2, 3, 4, 5, 6, 7, 8]},
    {"id": 2, "cmd": "setup", "variant": "classic", "position": POSITION},
    {"id": 3, "cmd": "legal"},
    {"id": 4, "cmd": "apply", "seat": 0, "action": {"type": "take", "cards": []}},
    {"id": 5, "cmd": "apply", "seat": 0, "action": {"type": "draw"}},
    {"id": 6, "cmd": "legal"},
    {"id": 7, "cmd": "apply", "seat": 0, "action": {"type": "discard", "card": "9H"}},
    {"id": 8, "cmd": "view", "seat": 0},
    {"id": 9, "cmd": "score"},
    {"id": 10, "cmd": "quit"},
]


def serve_command() -> list[str]:
    """``canasta-ref serve`` run by this interpreter, from this checkout."""
    return [sys.executable, "-c", "from canasta_ref.cli import main; raise SystemExit(main())", "serve"]


def play() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each request with the reference's answer to it."""
    lines = "".join(json.dumps(request) + "\n" for request in REQUESTS)
    done = subprocess.run(serve_command(), input=lines, capture_output=True, text=True, cwd=ROOT, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"canasta-ref serve exited with status {done.returncode}:\n{done.stderr}")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    if len(answers) != len(REQUESTS):
        raise SystemExit(f"canasta-ref serve answered {len(answers)} lines to {len(REQUESTS)} requests")
    return list(zip(REQUESTS, answers, strict=True))


def transcript() -> str:
    """The session as the document shows it: ``>`` a request sent to the engine, ``<`` its answer."""
    lines = []
    for request, answer in play():
        lines.append("> " + json.dumps(request))
        lines.append("< " + json.dumps(answer))
    return "\n".join(lines) + "\n"


def block(text: str) -> str:
    """The transcript with its markers, as it stands in the document."""
    return f"{BEGIN}\n```text\n{text}```\n{END}"


def replaced(document: str, text: str) -> str:
    """``document`` with the part between the markers replaced by ``text``."""
    start, end = document.find(BEGIN), document.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{PROTOCOL}: the transcript markers are missing (expected {BEGIN!r} ... {END!r})")
    return document[:start] + block(text) + document[end + len(END) :]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write the transcript into conformance/PROTOCOL.md")
    mode.add_argument("--check", action="store_true", help="exit 1 if conformance/PROTOCOL.md shows another")
    args = parser.parse_args(argv)
    text = transcript()
    if not (args.write or args.check):
        sys.stdout.write(text)
        return 0
    document = PROTOCOL.read_text(encoding="utf-8")
    updated = replaced(document, text)
    if args.write:
        PROTOCOL.write_text(updated, encoding="utf-8")
        return 0
    if updated != document:
        print(f"{PROTOCOL}: the example session is stale; run python tools/protocol_transcript.py --write")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
