"""``canasta-ref serve`` fed lines no engine runner should send: each answered in one JSON line, and the next
request answered as usual.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_ref.conformance import strictjson
from canasta_ref.conformance.serve import MAX_LINE_BYTES, serve
from canasta_ref.conformance.session import ReferenceSession

HELLO = b'{"id": 99, "cmd": "hello", "protocol": 1}\n'


def _replies(data: bytes) -> list[dict[str, Any]]:
    out = io.StringIO()
    assert serve(ReferenceSession(), io.BytesIO(data), out) == 0
    return [strictjson.loads(line) for line in out.getvalue().splitlines()]  # every answer is strict JSON


def _refusal_then_hello(line: bytes) -> str:
    """The error answering ``line``, after checking that the hello sent after it is answered normally."""
    first, second = _replies(line + b"\n" + HELLO)
    assert second["id"] == 99 and second["ok"] is True, second
    assert first["ok"] is False and "id" not in first, first
    error: str = first["error"]
    return error


def test_nesting_deeper_than_the_parser_goes_is_an_error_reply() -> None:
    error = _refusal_then_hello(b"[" * 100_000 + b"]" * 100_000)
    assert error == "not JSON this engine reads: arrays or objects nested too deeply"


def test_a_number_past_the_digit_limit_is_an_error_reply() -> None:
    error = _refusal_then_hello(b'{"cmd": "hello", "protocol": ' + b"9" * 5000 + b"}")
    assert error.startswith("not JSON this engine reads: Exceeds the limit (4300 digits)"), error


def test_invalid_utf8_is_an_error_reply_naming_the_byte() -> None:
    assert _refusal_then_hello(b'{"cmd": "hello", "name": "\xff"}') == "not UTF-8 text: byte 0xff at column 27"


def test_a_line_longer_than_the_limit_is_refused_without_reading_it_whole() -> None:
    error = _refusal_then_hello(b"x" * (3 * MAX_LINE_BYTES + 5))
    assert error == f"the line is longer than {MAX_LINE_BYTES} bytes"


def test_a_line_of_exactly_the_limit_is_read() -> None:
    line = b'{"cmd": "hello", "pad": "' + b"x" * (MAX_LINE_BYTES - 30) + b'"}'
    assert len(line) + 1 <= MAX_LINE_BYTES
    (reply,) = _replies(line + b"\n")
    assert reply["ok"] is True


def test_json_that_is_not_an_object_and_broken_json_are_error_replies() -> None:
    assert _refusal_then_hello(b"[1, 2]") == "a request must be a JSON object"
    assert _refusal_then_hello(b'{"cmd": ') == "not JSON: Expecting value at column 9"


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (b'{"id": NaN, "cmd": "hello"}', "NaN is not a JSON value (a number must be finite)"),
        (b'{"id": Infinity, "cmd": "hello"}', "Infinity is not a JSON value (a number must be finite)"),
        (b'{"id": -Infinity, "cmd": "hello"}', "-Infinity is not a JSON value (a number must be finite)"),
        (b'{"id": 1e999, "cmd": "hello"}', "the number 1e999 is too large to be read as a finite number"),
        (b'{"id": 1, "cmd": "hello", "cmd": "quit"}', 'the key "cmd" comes twice in one object'),
        (b'{"cmd": "setup", "parameters": {"x": 1, "x": 2}}', 'the key "x" comes twice in one object'),
    ],
)
def test_what_python_reads_but_json_does_not_have_is_refused_without_echoing_the_id(line: bytes, says: str) -> None:
    assert _refusal_then_hello(line) == f"not JSON: {says}"


def test_an_answer_that_cannot_be_written_as_json_is_an_error_with_the_id(monkeypatch: Any) -> None:
    def not_finite(self: ReferenceSession, request: Any) -> dict[str, Any]:
        return {"ok": True, "count": float("nan")}

    monkeypatch.setattr(ReferenceSession, "_cmd_count", not_finite)
    first, second = _replies(b'{"id": 7, "cmd": "count"}\n' + HELLO)
    assert first["id"] == 7 and first["ok"] is False
    assert first["error"].startswith("internal error of canasta-ref: its answer cannot be written as JSON")
    assert second["ok"] is True


def test_a_fault_of_the_reference_is_answered_and_the_session_goes_on(monkeypatch: Any) -> None:
    def broken(self: ReferenceSession, request: Any) -> dict[str, Any]:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(ReferenceSession, "_cmd_view", broken)
    first, second = _replies(b'{"id": 1, "cmd": "view"}\n' + HELLO)
    assert first == {
        "id": 1,
        "ok": False,
        "error": "internal error of canasta-ref: ZeroDivisionError: division by zero",
    }
    assert second["ok"] is True


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.binary(max_size=60).filter(lambda b: b"\n" not in b), min_size=1, max_size=5))
def test_any_bytes_get_one_json_answer_a_line(lines: list[bytes]) -> None:
    replies = _replies(b"\n".join(lines) + b"\n" + HELLO)
    assert len(replies) == sum(1 for line in lines if line.strip()) + 1
    assert all(isinstance(reply["ok"], bool) for reply in replies)
    assert replies[-1]["id"] == 99


def test_the_command_reads_its_stdin_as_bytes() -> None:
    """End to end: the process, whatever its locale, answers bad bytes and then quits when asked."""
    lines = b'{"cmd": "hello", "name": "\xff"}\n' + b"[" * 50_000 + b"\n" + b'{"id": 2, "cmd": "quit"}\n'
    done = subprocess.run(
        [sys.executable, "-m", "canasta_ref.cli", "serve"],
        input=lines,
        capture_output=True,
        timeout=60,
        env={**os.environ, "LC_ALL": "C", "PYTHONIOENCODING": ""},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["ok"] for r in replies] == [False, False, True], replies
    assert replies[0]["error"].startswith("not UTF-8 text") and replies[2] == {"id": 2, "ok": True, "bye": True}
