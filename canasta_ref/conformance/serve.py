"""``canasta-ref serve``: the reference interpreter as a protocol engine on stdin and stdout.

Its input comes from a program under test or a person typing, so every line is read as untrusted: bounded
in length, decoded as UTF-8 strictly, and parsed as strict JSON (no NaN, no key twice: ``strictjson``) so that
no nesting depth or number length can raise out of the loop and every answer is JSON. Each bad line is answered
with ``ok: false`` and a sentence; the next line is read as usual.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO, TextIO

from . import strictjson
from .session import ReferenceSession

#: The longest request line read, in bytes: a whole deck or position takes under 2 KiB.
MAX_LINE_BYTES = 1 << 20


class BadLine(ValueError):
    """A request line that cannot be a protocol message; the text says why, for the ``error`` field."""


def serve(session: ReferenceSession, stdin: BinaryIO, stdout: TextIO) -> int:
    """Answer one JSON line with one JSON line until 'quit' or end of input."""
    for raw in _lines(stdin):
        if raw is not None and not raw.strip():
            continue
        request: dict[str, Any] = {}
        try:
            request = decode_request(raw)
        except BadLine as bad:
            reply: dict[str, Any] = {"ok": False, "error": str(bad)}
        else:
            reply = _answer(session, request)
        if "id" in request:
            reply = {"id": request["id"], **reply}
        stdout.write(encode_reply(reply) + "\n")
        stdout.flush()
        if reply.get("bye"):
            break
    return 0


def _answer(session: ReferenceSession, request: dict[str, Any]) -> dict[str, Any]:
    """The session's reply; a fault of the reference itself is answered as an error, so that one request
    cannot end a conformance run (the fuzz tests call the session directly, where such a fault still fails)."""
    try:
        return session.handle(request)
    except Exception as fault:
        return {"ok": False, "error": f"internal error of canasta-ref: {type(fault).__name__}: {fault}"}


def encode_reply(reply: dict[str, Any]) -> str:
    """The reply as one line of strict JSON; a reply that cannot be written so (a number that is not finite) is
    answered as an error of the reference, with the request's id (read strictly, so it can always be written)."""
    try:
        return strictjson.dumps(reply)
    except (ValueError, TypeError, RecursionError) as fault:
        error = f"internal error of canasta-ref: its answer cannot be written as JSON ({fault})"
        ident = {"id": reply["id"]} if "id" in reply else {}
        return strictjson.dumps({**ident, "ok": False, "error": error})


def _lines(stream: BinaryIO) -> Iterator[bytes | None]:
    """The stream's lines; ``None`` for a line longer than MAX_LINE_BYTES, whose rest is skipped unread, so
    that one endless line cannot fill the memory."""
    while line := stream.readline(MAX_LINE_BYTES + 1):
        if len(line) <= MAX_LINE_BYTES or line.endswith(b"\n"):
            yield line
            continue
        while (rest := stream.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
            pass
        yield None


def decode_request(raw: bytes | None) -> dict[str, Any]:
    """One request line (``None``: an overlong one) as a JSON object, or BadLine saying what is wrong."""
    if raw is None:
        raise BadLine(f"the line is longer than {MAX_LINE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadLine(f"not UTF-8 text: byte 0x{raw[error.start]:02x} at column {error.start + 1}") from None
    try:
        request = strictjson.loads(text.rstrip("\r\n"))
    except json.JSONDecodeError as error:
        raise BadLine(f"not JSON: {error.msg} at column {error.colno}") from None
    except strictjson.NotStrictJSON as error:
        raise BadLine(f"not JSON: {error}") from None
    except RecursionError:
        raise BadLine("not JSON this engine reads: arrays or objects nested too deeply") from None
    except ValueError as error:  # an integer past Python's digit limit for conversion
        raise BadLine(f"not JSON this engine reads: {str(error).split(';')[0]}") from None
    if not isinstance(request, dict):
        raise BadLine("a request must be a JSON object")
    return request
