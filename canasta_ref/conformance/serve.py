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


def serve(session: ReferenceSession, stdin: BinaryIO, stdout: TextIO, *, held: bool = False) -> int:
    """Answer one JSON line with one JSON line until 'quit' or end of input.

    ``held``: the replies to requests already read are written together, when no further whole line waits to be
    answered (and at the end), instead of one write each: a runner that writes its requests ahead of their answers
    then costs a write and a wake-up a batch, not a request. Only for a session that answers every request at
    once (the reference's): one that could stop or hang in ``handle`` would keep earlier replies unwritten."""
    lines = _Lines(stdin)
    out: list[str] = []
    try:
        for raw in lines:
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
            out.append(encode_reply(reply) + "\n")
            if reply.get("bye"):
                break
            if not held or not lines.waiting() or len(out) >= MOST_HELD:
                _write(stdout, out)
    finally:
        if out:
            _write(stdout, out)
    return 0


#: The most replies ``serve`` holds before writing them, however many requests wait.
MOST_HELD = 64


def _write(stdout: TextIO, out: list[str]) -> None:
    """Write the replies held, in one piece, and forget them."""
    stdout.write(out[0] if len(out) == 1 else "".join(out))
    stdout.flush()
    out.clear()


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


class _Lines:
    """The lines of a stream, each with its newline; ``None`` for a line longer than MAX_LINE_BYTES, whose rest is
    skipped unread, so that one endless line cannot fill the memory. Read in chunks (``read1``: what the stream
    has, at most one read that may wait), so that ``waiting`` can tell whether a whole line is already read."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._read = getattr(stream, "read1", stream.read)
        self._buffer = b""
        self._start = 0
        self._ended = False

    def waiting(self) -> bool:
        """Whether a whole line (or the start of one too long) is read already: the next costs no read."""
        return self._buffer.find(b"\n", self._start) >= 0 or len(self._buffer) - self._start > MAX_LINE_BYTES

    def __iter__(self) -> Iterator[bytes | None]:
        return self

    def __next__(self) -> bytes | None:
        while True:
            start = self._start
            end = self._buffer.find(b"\n", start, start + MAX_LINE_BYTES + 1)
            if end >= 0:  # a line of at most MAX_LINE_BYTES + 1 bytes with its newline (as readline(limit + 1) reads)
                self._start = end + 1
                return self._buffer[start : end + 1]
            if len(self._buffer) - start > MAX_LINE_BYTES:
                self._skip_line()
                return None
            if self._ended:
                if start == len(self._buffer):
                    raise StopIteration
                self._start = len(self._buffer)
                return self._buffer[start:]
            self._fill()

    def _fill(self) -> None:
        """Read more: what the stream has, after what is left of the buffer."""
        chunk = self._read(READ_BYTES)
        if not chunk:
            self._ended = True
        self._buffer = self._buffer[self._start :] + chunk
        self._start = 0

    def _skip_line(self) -> None:
        """Drop the rest of an overlong line, its newline included, reading as far as it goes."""
        while True:
            end = self._buffer.find(b"\n", self._start)
            if end >= 0:
                self._start = end + 1
                return
            self._buffer, self._start = b"", 0
            if self._ended:
                return
            self._fill()


#: How many bytes ``_Lines`` asks the stream for at a time.
READ_BYTES = 1 << 16


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
