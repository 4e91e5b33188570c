"""What a run tells an engine's author: one summary (deviations by rule, else by cause; skips summed by reason),
every result with ``--verbose``, everything in the JSON report, and plain words for a broken handshake."""

from __future__ import annotations

from typing import Any

import pytest

from canasta_ref.conformance.engines import EngineFailure, engine_info
from canasta_ref.conformance.session import ReferenceSession


def hello(**fields: Any) -> dict[str, Any]:
    reply = ReferenceSession().handle({"cmd": "hello", "protocol": 1})
    reply.update(fields)
    return reply


@pytest.mark.parametrize(
    ("reply", "says"),
    [
        ({"ok": True}, "its hello answer has no protocol version (a field 'protocol' giving 1 or 2 was expected)"),
        (
            hello(protocol=None),
            "its hello answer has no protocol version (a field 'protocol' giving 1 or 2 was expected)",
        ),
        (hello(protocol="two"), "its hello answer gives the protocol version as 'two', not a number (1 or 2)"),
        (hello(protocol=9), "the engine speaks protocol 9, not 1 or 2"),
    ],
    ids=["ok alone", "null", "a word", "too new"],
)
def test_a_hello_without_a_version_it_can_speak_is_said_in_plain_words(reply: dict[str, Any], says: str) -> None:
    with pytest.raises(EngineFailure) as failure:
        engine_info(reply, protocols=(1, 2))
    assert failure.value.detail == says
    assert "None" not in failure.value.detail
