"""``canasta-ref serve``: the reference interpreter as a protocol engine on stdin and stdout."""

from __future__ import annotations

import json
from typing import Any, TextIO

from .session import ReferenceSession


def serve(session: ReferenceSession, stdin: TextIO, stdout: TextIO) -> int:
    """Answer one JSON line with one JSON line until 'quit' or end of input."""
    for line in stdin:
        if not line.strip():
            continue
        try:
            request: Any = json.loads(line)
        except json.JSONDecodeError as error:
            reply: dict[str, Any] = {"ok": False, "error": f"not JSON: {error.msg} at column {error.colno}"}
            request = {}
        else:
            if not isinstance(request, dict):
                reply, request = {"ok": False, "error": "a request must be a JSON object"}, {}
            else:
                reply = session.handle(request)
        if "id" in request:
            reply = {"id": request["id"], **reply}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
        if reply.get("bye"):
            break
    return 0
