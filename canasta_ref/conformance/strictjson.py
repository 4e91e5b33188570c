"""JSON as the protocol means it (RFC 8259), read and written strictly on both sides of the pipe.

Python's ``json`` reads ``NaN``, ``Infinity`` and ``-Infinity``, which are not JSON, turns ``1e999`` into infinity,
and keeps the last of a key written twice in an object where another parser keeps the first: an engine (or a
client of ``canasta-ref serve``) could mean one thing to one reader and another to the next, and a value read so
could not be written back as JSON. Each of these is refused as a ``NotStrictJSON`` (a ValueError) saying what was
found; ``dumps`` refuses to write a number that is not finite.
"""

from __future__ import annotations

import json
import math
from typing import Any


class NotStrictJSON(ValueError):
    """Text that Python's json reads but JSON does not allow; the message says what was found."""


def _refuse_constant(name: str) -> Any:
    raise NotStrictJSON(f"{name} is not a JSON value (a number must be finite)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotStrictJSON(f"the number {text[:40]} is too large to be read as a finite number")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise NotStrictJSON(f"the key {json.dumps(key)[:80]} comes twice in one object")
        found[key] = value
    return found


#: One strict decoder and encoder for every line: ``json.loads`` and ``json.dumps`` given options build a new one at
#: each call, a cost as large as reading a short answer (the runner and ``serve`` read and write thousands a game).
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float, object_pairs_hook=_unique_keys)
_ENCODER = json.JSONEncoder(allow_nan=False)


def loads(text: str) -> Any:
    """The JSON value of ``text``; NotStrictJSON for NaN, Infinity, an infinite number or a key twice in one object,
    json.JSONDecodeError for text that is not JSON at all (and RecursionError, ValueError as ``json.loads``)."""
    if text.startswith("\ufeff"):  # as json.loads says it (the decoder itself would not name the BOM)
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return _DECODER.decode(text)


def dumps(value: Any) -> str:
    """``value`` as one line of JSON; ValueError for a number that is not finite, which no JSON can write."""
    return _ENCODER.encode(value)


__all__ = ["NotStrictJSON", "dumps", "loads"]
