"""Bad input never crashes: damaged specs, scenarios and protocol messages get a clear error, never a traceback.

Each property takes a real, valid file and damages it at random (lines dropped or repeated, characters
replaced), then asserts that checking it either succeeds or reports errors of the project's own kind, each
with a location in the damaged file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_ref.conformance.scenario import check_scenario, scenario_dir
from canasta_ref.conformance.session import ReferenceSession
from canasta_ref.errors import SpecError
from canasta_ref.resources import spec_dir
from canasta_ref.spec import check_file

SPEC = (spec_dir() / "classic.yaml").read_text(encoding="utf-8")
SCENARIO = (scenario_dir() / "dispute-one-card-pile.yaml").read_text(encoding="utf-8")
NOISE = st.sampled_from(list(":-[]{}'\"#|>&*! \tabcXYZ019.,\n"))


@st.composite
def damaged(draw: st.DrawFn, text: str) -> str:
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        index = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "repeat", "poke", "indent"]))
        line = lines[index]
        if how == "drop":
            del lines[index]
        elif how == "repeat":
            lines.insert(index, line)
        elif how == "indent":
            lines[index] = " " * draw(st.integers(0, 6)) + line.lstrip()
        elif line:
            at = draw(st.integers(0, len(line) - 1))
            lines[index] = line[:at] + draw(NOISE) + line[at + 1 :]
    return "\n".join(lines) + "\n"


def _located(errors: list[SpecError], file: Path) -> None:
    for error in errors:
        assert isinstance(error, SpecError)
        assert error.location is not None and error.location.file.endswith(file.name), str(error)
        assert error.location.line >= 1 and error.location.column >= 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=damaged(SPEC))
def test_a_damaged_spec_is_reported_not_raised(tmp_path: Path, text: str) -> None:
    file = tmp_path / "classic.yaml"
    file.write_text(text, encoding="utf-8")
    _located(check_file(file), file)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=damaged(SCENARIO))
def test_a_damaged_scenario_is_reported_not_raised(tmp_path: Path, text: str) -> None:
    file = tmp_path / "dispute-one-card-pile.yaml"
    file.write_text(text, encoding="utf-8")
    scenario, errors = check_scenario(file)
    assert (scenario is None) == bool(errors)
    _located(errors, file)


# Field names of the protocol, so that random messages often reach deep into the checks.
KEYS = [
    "cmd", "variant", "deck", "position", "hands", "pile", "seat", "action", "type", "cards", "melds",
    "parameters", "team_scores", "first_seat", "to_act", "phase", "melded", "permission", "card", "rank",
]  # fmt: skip
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.sampled_from(["KH", "classic", "draw", "", "x", "2C JK"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    max_leaves=12,
)
COMMANDS = st.sampled_from(["hello", "setup", "apply", "legal", "view", "score", "undo", "nonsense"])


@settings(max_examples=300, deadline=None)
@given(steps=st.lists(st.tuples(COMMANDS, JSON), min_size=1, max_size=6))
def test_the_protocol_answers_every_message(steps: list[tuple[str, Any]]) -> None:
    session = ReferenceSession()
    assert session.handle({"cmd": "setup", "variant": "classic", "deck": DECK})["ok"]
    for command, body in steps:
        request = dict(body) if isinstance(body, dict) else {"body": body}
        request["cmd"] = command
        reply = session.handle(request)
        json.dumps(reply)  # every answer is JSON
        assert isinstance(reply.get("ok"), bool)
        if not reply["ok"]:
            assert isinstance(reply.get("error", reply.get("skip")), str)


def _seeded_deck() -> str:
    from canasta_ref.engine.cards import card_name
    from canasta_ref.engine.game import deck_for_seed
    from canasta_ref.engine.rules import rules_for
    from canasta_ref.spec import load_variant

    return " ".join(card_name(c) for c in deck_for_seed(rules_for(load_variant("classic")), 5))


DECK = _seeded_deck()
