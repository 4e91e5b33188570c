"""``canasta-ref diff``: the differences it finds are exactly those of the specs, in text and in JSON."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from canasta_ref.cli import main
from canasta_ref.render import rulebook
from canasta_ref.spec import load_variant
from canasta_ref.spec.diff import diff_variants

HOUSE = """\
spec: 1
id: house
name: House Canasta
description: Classic with thirteen cards dealt and a reworded wild-card rule.
extends: classic
parameters:
  cards_dealt:
    value: 13
    sources: [{source: gamedesire, quote: "they are dealt 13 cards"}]
rules:
  - id: CARDS.WILD
    replaces: true
    section: cards
    title: Wild cards
    text: Twos and jokers are wild.
    sources:
      - {source: web-compilation, ref: "S0#63", quote: "All jokers and 2's are wild cards."}
      - {source: pagat, ref: "S0#144", quote: "The cards A, K, Q, J, 10, 9, 8, 7, 6, 5, 4 are called natural cards."}
    hook: card.wild
    when: rank in wild_ranks
"""


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_classic_against_two_players_finds_the_spec_changes() -> None:
    difference = diff_variants(load_variant("classic"), load_variant("classic-2p"))
    parameters = {entry.name: entry for entry in difference.parameters}
    # teams keeps its value; only the sources cited for it change.
    assert list(parameters) == ["players", "teams", "cards_dealt", "draw_count", "canastas_to_go_out"]
    assert all(entry.status == "changed" for entry in parameters.values())
    assert [c.field for c in parameters["teams"].changes] == ["sources"]
    values = {name: (c.a, c.b) for name, e in parameters.items() for c in e.changes if c.field == "value"}
    assert values == {"players": (4, 2), "cards_dealt": (11, 15), "draw_count": (1, 2), "canastas_to_go_out": (1, 2)}
    assert parameters["cards_dealt"].read_by == ("DEAL.HAND_SIZE",)
    # The clauses in rulebook order: deal, turn, then going-out; removed ones where classic has them. The deal's
    # clause is the same in both specs, but its worded text states each variant's own hand size.
    assert [(e.name, e.status) for e in difference.clauses] == [
        ("DEAL.HAND_SIZE", "changed"),
        ("TURN.DRAW.COUNT", "changed"),
        ("TURN.NO_PARTNER", "added"),
        ("GO_OUT.CANASTAS", "changed"),
        ("GO_OUT.PARTNER_SAID_NO", "removed"),
        ("GO_OUT.ASK.BEFORE_MELDING", "removed"),
        ("GO_OUT.ASK.ONCE_A_TURN", "removed"),
        ("GO_OUT.ANSWER_BINDING", "removed"),
    ]
    changed = {e.name: [c.field for c in e.changes] for e in difference.clauses if e.status == "changed"}
    assert changed == {
        "DEAL.HAND_SIZE": ["title", "text"],
        "TURN.DRAW.COUNT": ["title", "text", "sources"],
        "GO_OUT.CANASTAS": ["title", "text", "message", "sources"],
    }


def test_text_output_ends_with_the_summary_and_exits_1() -> None:
    code, out = run("diff", "classic", "classic-2p")
    assert code == 1
    lines = out.splitlines()
    assert lines[-1] == (
        "classic → classic-2p: 4 parameters differ (1 more only in its sources), 3 clauses changed, 1 added, 4 removed"
    )
    assert "  players: 4 → 2" in lines
    assert "  TURN.NO_PARTNER added (turn: No partner to ask)" in lines
    assert "    title: Draw one card → Draw two cards, discard one" in lines


def test_a_parameter_differing_only_in_its_sources_is_listed_but_not_counted_as_differing() -> None:
    difference = diff_variants(load_variant("classic"), load_variant("classic-2p"))
    teams = next(entry for entry in difference.parameters if entry.name == "teams")
    assert teams.status == "changed" and [change.field for change in teams.changes] == ["sources"]
    assert difference.parameters_cited_otherwise == 1
    assert difference.to_json()["summary"]["parameters"] == len(difference.parameters) - 1 == 4


def test_a_variant_against_itself_prints_only_the_summary() -> None:
    code, out = run("diff", "classic-2p", "classic-2p")
    assert code == 0
    assert out == "classic-2p → classic-2p: 0 parameters differ, 0 clauses changed, 0 added, 0 removed\n"


def test_a_child_spec_changing_one_clause_and_one_parameter(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    code, out = run("diff", "classic", str(house))
    assert code == 1
    assert out == (
        "Variant\n"
        "  name: Classic Canasta → House Canasta\n"
        "\n"
        "Parameters\n"
        "  cards_dealt: 11 → 13 (read by DEAL.HAND_SIZE)\n"
        "    sources: classic cites pagat-ebb; house cites gamedesire\n"
        "    alternatives: classic 13 (gamedesire); house none\n"
        "\n"
        "Clauses\n"
        "  CARDS.WILD changed (cards: Wild cards); text differs\n"
        "    text:\n"
        "      classic: Twos and jokers are wild; aces, kings and the ranks down to four are natural cards.\n"
        "      house: Twos and jokers are wild.\n"
        "  DEAL.HAND_SIZE changed (deal: Thirteen cards each); title, text differ\n"
        "    title: Eleven cards each → Thirteen cards each\n"
        "    text:\n"
        "      classic: Each player is dealt eleven cards, one at a time, starting with the player who plays first.\n"
        "      house: Each player is dealt thirteen cards, one at a time, starting with the player who plays first.\n"
        "\n"
        "classic → house: 1 parameter differs, 2 clauses changed, 0 added, 0 removed\n"
    )


def test_json_round_trips_and_matches_the_text(tmp_path: Path) -> None:
    code, out = run("diff", "classic", "classic-2p", "--json")
    assert code == 1
    assert run("diff", "classic", "classic-2p", "--format", "json") == (code, out)  # the older spelling
    data = json.loads(out)
    difference = diff_variants(load_variant("classic"), load_variant("classic-2p"))
    assert data == difference.to_json()
    assert json.dumps(data, indent=2, ensure_ascii=False) + "\n" == out
    assert list(data) == ["a", "b", "identical", "metadata", "parameters", "clauses", "summary"]
    assert [p["name"] for p in data["parameters"]] == [e.name for e in difference.parameters]
    assert [c["id"] for c in data["clauses"]] == [e.name for e in difference.clauses]
    assert data["summary"]["text"] == difference.summary()
    same = json.loads(run("diff", "classic", "classic", "--json")[1])
    assert same["identical"] is True and same["parameters"] == same["clauses"] == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("diff", "classik", "classic-2p"), "unknown variant 'classik'"),
        (("diff", "classic", "no/such/file.yaml"), "no spec file at no/such/file.yaml"),
    ],
)
def test_bad_input_exits_2_with_one_message(
    argv: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(*argv)
    assert code == 2 and out == ""
    err = capsys.readouterr().err
    assert err.startswith("canasta-ref: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_a_broken_spec_file_exits_2_with_its_location(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(HOUSE.replace("value: 13", "value: thirteen"), encoding="utf-8")
    code, _ = run("diff", str(bad), "classic")
    assert code == 2
    err = capsys.readouterr().err
    assert f"{bad}:" in err and "Traceback" not in err


def test_parameters_only_on_one_side_and_enum_options() -> None:
    classic = load_variant("classic")
    parameters = dict(classic.parameters)
    del parameters["teams"]
    black_three = parameters["black_three"]
    options = {name: refs for name, refs in black_three.options.items() if name != "freezes"} | {"other": ()}
    parameters["black_three"] = replace(black_three, value="other", options=MappingProxyType(options))
    house = replace(classic, id="house", parameters=MappingProxyType(parameters))
    lines = list(diff_variants(classic, house).lines())
    assert lines == [
        "Parameters",
        "  teams: only in classic (2)",
        "  black_three: blocks_next_player → other (read by DEAL.UPCARD.FREEZES, PILE.FROZEN.BLACK_THREE)",
        "    options: removed freezes; added other",
        "",
        "classic → house: 2 parameters differ, 0 clauses changed, 0 added, 0 removed",
    ]
    assert [e.status for e in diff_variants(classic, house).parameters] == ["removed", "changed"]
    assert [e.status for e in diff_variants(house, classic).parameters] == ["added", "changed"]


def test_a_house_file_restating_its_parent_differs_only_where_a_value_changed(tmp_path: Path) -> None:
    """``canasta-ref new`` restates every parameter with its parent's value and no sources: a restatement keeps the
    parent's value and sources, so the diff of a fresh house file shows nothing, and one changed value shows alone,
    with the sources it now takes."""
    path = tmp_path / "our-table.yaml"
    assert main(["new", str(path)]) == 0
    fresh = diff_variants(load_variant("classic"), load_variant(path))
    assert not fresh.parameters and not fresh.restated
    assert fresh.summary() == "classic → our-table: 0 parameters differ, 0 clauses changed, 0 added, 0 removed"
    path.write_text(path.read_text().replace("  cards_dealt:\n    value: 11\n", "  cards_dealt:\n    value: 13\n"))
    changed = diff_variants(load_variant("classic"), load_variant(path))
    assert [entry.name for entry in changed.parameters] == ["cards_dealt"] and not changed.restated
    assert changed.to_json()["summary"]["parameters_restated"] == []


def test_a_value_restated_without_sources_keeps_the_parents(tmp_path: Path) -> None:
    """The rulebook of a house file says where each value it only restates was set, and cites that value's sources;
    a value the file changes is set in the file and cites only what the file cites (its alternative's sources)."""
    path = tmp_path / "our-table.yaml"
    assert main(["new", str(path)]) == 0
    path.write_text(path.read_text().replace("  cards_dealt:\n    value: 11\n", "  cards_dealt:\n    value: 13\n"))
    classic, house = load_variant("classic"), load_variant(path)
    canastas = house.parameters["canastas_to_go_out"]
    assert canastas.sources == classic.parameters["canastas_to_go_out"].sources and canastas.sources
    assert canastas.set_in == "classic" and house.parameters["cards_dealt"].set_in == "our-table"
    assert canastas.location is not None and canastas.location.file.endswith("our-table.yaml")  # errors point here
    book = "\n".join(rulebook(house))
    assert "  cards_dealt = 13 (set in our-table):" in book and "  canastas_to_go_out = 1: " in book


def test_a_parameter_cited_otherwise_on_both_sides_is_still_listed() -> None:
    """Only a side citing nothing is a restatement; two sources that differ are a difference a reader wants."""
    classic = load_variant("classic")
    parameters = dict(classic.parameters)
    parameters["teams"] = replace(parameters["teams"], sources=parameters["cards_dealt"].sources)
    house = replace(classic, id="house", parameters=MappingProxyType(parameters))
    difference = diff_variants(classic, house)
    assert [entry.name for entry in difference.parameters] == ["teams"] and not difference.restated
    parameters["teams"] = replace(parameters["teams"], sources=())
    bare = diff_variants(classic, replace(classic, id="house", parameters=MappingProxyType(parameters)))
    assert not bare.parameters and bare.restated == ("teams",)
