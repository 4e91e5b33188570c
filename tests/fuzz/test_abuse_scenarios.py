"""Scenario set-ups no deck can hold are the scenario's mistake: refused when it is loaded, with the file, line,
column and field, never passed on to be blamed on an engine as "setup refused".

Text that could drive a terminal (a title with an escape sequence, printed by ``explain``) is refused too.
The messages are compared whole with ``golden/scenarios.txt``; ``UPDATE_GOLDEN=1`` rewrites it.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from canasta_ref.cli import main
from canasta_ref.conformance.scenario import check_scenario
from canasta_ref.engine.cards import card_name, full_deck

GOLDEN = Path(__file__).resolve().parent / "golden" / "scenarios.txt"

POSITION = {
    "hands": '["KH 9C", "4C", "7C", "8C"]',
    "pile": '"6H 2C KD"',
    "melds": '[["QH QS QD"], []]',
    "to_act": "0",
}


def _scenario(
    name: str,
    *,
    setup: str | None = None,
    seat: int | None = None,
    parameters: str = "",
    expect: str = "{result: accepted}",
    **position: str,
) -> str:
    """A scenario that is sound unless a field is given otherwise."""
    fields = {**POSITION, **position}
    if setup is None:
        setup = "  position:\n" + "".join(f"    {key}: {value}\n" for key, value in fields.items())
    step = "  - action: draw\n" + (f"    seat: {seat}\n" if seat is not None else "")
    return (
        f"scenario: 1\nid: {name}\ntitle: A test\nrules: [TURN.ORDER]\nvariants: [classic]\nlevel: must\n"
        f"{parameters}setup:\n{setup}steps:\n{step}    expect: {expect}\n"
    )


#: Classic's 108 cards and one king of hearts too many.
DECK_109 = " ".join(card_name(card) for card in full_deck(2, 2)) + " KH"

CASES: dict[str, str] = {
    "three-copies": _scenario("three-copies", hands='["KH KH KH", "4C", "7C", "8C"]'),
    "three-hands": _scenario("three-hands", hands='["KH", "4C", "7C"]'),
    "to-act-out-of-range": _scenario("to-act-out-of-range", to_act="7"),
    "step-seat-out-of-range": _scenario("step-seat-out-of-range", seat=7),
    "view-seat-out-of-range": _scenario("view-seat-out-of-range", expect="{result: accepted, view: {seat: 9}}"),
    "melds-of-three-sides": _scenario("melds-of-three-sides", melds='[["QH QS QD"], [], ["5C 5D 5H"]]'),
    "meld-of-two-ranks": _scenario("meld-of-two-ranks", melds='[["QH QS 5D"], []]'),
    "deck-of-109": _scenario("deck-of-109", setup=f"  deck:\n    order: {DECK_109}\n"),
    "first-seat-out-of-range": _scenario("first-seat-out-of-range", setup="  deck: {seed: 3}\n  first_seat: 9\n"),
    "scores-of-three-sides": _scenario("scores-of-three-sides", setup="  deck: {seed: 3}\n  team_scores: [0, 0, 0]\n"),
    "parameter-unknown": _scenario("parameter-unknown", parameters="parameters: {pakcs: 3}\n"),
    "escape-in-title": _scenario("escape-in-title").replace("title: A test", 'title: "A test\\e[2J"'),
}


def _write(folder: Path, name: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(CASES[name], encoding="utf-8")
    return path


def test_the_sound_scenario_of_the_cases_loads(tmp_path: Path) -> None:
    (tmp_path / "sound.yaml").write_text(_scenario("sound"), encoding="utf-8")
    scenario, errors = check_scenario(tmp_path / "sound.yaml")
    assert errors == [] and scenario is not None


def test_each_impossible_set_up_is_one_located_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    blocks = []
    for name in CASES:
        scenario, errors = check_scenario(_write(Path("."), name))
        assert scenario is None and len(errors) == 1, (name, errors)
        assert errors[0].location is not None and errors[0].location.line > 1, (name, str(errors[0]))
        blocks.append(f"{errors[0]}\n")
    actual = "\n".join(blocks)
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(actual, encoding="utf-8")
    assert actual == GOLDEN.read_text(encoding="utf-8")


@pytest.mark.parametrize("command", ["explain", "conform"])
def test_explain_and_conform_refuse_an_impossible_scenario(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "three-copies")
    argv = [command, str(path)] if command == "explain" else [command, "--scenarios", str(path), "--no-progress"]
    assert main(argv, io.StringIO()) == 2
    assert "there are not enough KH in the deck" in capsys.readouterr().err
