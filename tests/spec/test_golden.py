"""Full rendered messages of broken specs, compared with tests/spec/golden/*.txt.

Run with ``UPDATE_GOLDEN=1`` to rewrite them after a deliberate wording change, then review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from canasta_ref.spec import check_file

HERE = Path(__file__).resolve().parent
BAD = HERE / "fixtures" / "bad"
GOLDEN = HERE / "golden"

CASES = [
    "unknown-field",
    "wrong-param-type",
    "bad-enum",
    "unknown-hook",
    "kind-mismatch",
    "duplicate-id",
    "cycle-a",
    "replace-without-flag",
    "remove-unknown",
    "yaml-syntax",
    "block-expression",
    "folded-expression",
    "several",
    "param-out-of-range",
    "control-character",
    "expression-limits",
    "linked-parent",
    "placeholders",
]


def rendered(name: str) -> str:
    return "".join(f"{error}\n" for error in check_file(f"{name}.yaml"))


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    actual = rendered(name)
    golden = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(actual)
    assert actual, f"{name}.yaml should have errors"
    assert actual == golden.read_text()


def test_every_bad_fixture_has_a_golden_file() -> None:
    fixtures = {path.stem for path in BAD.glob("*.yaml")} - {"root", "cycle-b", "outside"}
    assert fixtures == set(CASES)
    assert {path.stem for path in GOLDEN.glob("*.txt")} == set(CASES)


def test_root_fixture_is_sound() -> None:
    assert check_file(BAD / "root.yaml") == []
