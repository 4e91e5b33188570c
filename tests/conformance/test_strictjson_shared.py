"""strictjson reads and writes every line with one decoder and one encoder: each call is judged on its own, as
``json.loads`` and ``json.dumps`` with the strict options judged it."""

from __future__ import annotations

import json

import pytest

from canasta_ref.conformance import strictjson


@pytest.mark.parametrize("text", ['{"a": 1, "a": 2}', "NaN", "[Infinity]", "1e999"])
def test_a_refusal_leaves_the_next_line_read_as_usual(text: str) -> None:
    with pytest.raises(strictjson.NotStrictJSON):
        strictjson.loads(text)
    assert strictjson.loads('{"a": [1, 2.5, {"b": null}]}') == {"a": [1, 2.5, {"b": None}]}


@pytest.mark.parametrize("text", ["\ufeff{}", "", "{", '{"a" 1}'])
def test_text_that_is_not_json_is_refused_with_json_loads_own_message(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as wanted:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as got:
        strictjson.loads(text)
    assert str(got.value) == str(wanted.value)


def test_dumps_writes_json_loads_reads_back_and_refuses_what_is_not_finite() -> None:
    value = {"id": 3, "ok": True, "totals": [-55, 45], "x": 0.5}
    assert strictjson.dumps(value) == json.dumps(value)
    assert strictjson.loads(strictjson.dumps(value)) == value
    with pytest.raises(ValueError):
        strictjson.dumps({"x": float("inf")})
