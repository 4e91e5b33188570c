"""``alternatives`` of non-enum parameters: accepted, inherited by a child, and each refusal with its message."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from canasta_ref.errors import SpecError
from canasta_ref.spec import Alternative, SourceRef, check_file, load_variant

Write = Callable[[str, str], Path]

ROOT = """\
spec: 1
id: altroot
name: Root with alternatives
sources:
  pagat: {title: "Canasta at pagat.com"}
  hoyle: {title: "Hoyle"}
sections: [melds]
parameters:
  draw_count:
    type: int
    min: 1
    max: 3
    value: 1
    doc: Cards drawn.
    sources: [{source: pagat, quote: "the top card"}]
    alternatives:
      - {value: 2, sources: [{source: hoyle, quote: "two cards", ref: "p. 2", note: "two-player only"}]}
  im_table:
    type: table
    value: [{from: null, value: 15}, {from: 0, value: 50}]
    doc: Minimum.
    alternatives:
      - value: [{from: null, value: 125}]
        sources: [{source: hoyle, quote: "125 always"}]
  wild_list:
    type: list
    value: ["2", "JK"]
    doc: Wild ranks.
    alternatives: [{value: ["JK"], sources: [{source: hoyle, quote: "jokers only"}]}]
  values:
    type: map
    value: {"JK": 50}
    doc: Values.
    alternatives: [{value: {"JK": 30}, sources: [{source: hoyle, quote: "jokers 30"}]}]
  pile:
    type: enum
    value: allow
    doc: One-card pile.
    options: {allow: [], forbid: [{source: hoyle, quote: "never"}]}
rules:
  - id: MELD.MIN_CARDS
    section: melds
    title: Three cards at least
    text: A meld has at least three cards.
    sources: [{source: pagat, quote: "The smallest meld consists of three cards"}]
    hook: meld.valid
    require: size >= 3 or draw_count > 5 or pile == "forbid"
"""

CHILD = "spec: 1\nid: {name}\nname: Child\nextends: altroot\nparameters:\n"


@pytest.fixture
def write(tmp_path: Path) -> Write:
    (tmp_path / "altroot.yaml").write_text(ROOT)

    def write_file(name: str, text: str) -> Path:
        path = tmp_path / f"{name}.yaml"
        path.write_text(text)
        return path

    return write_file


def only_error(path: Path) -> SpecError:
    errors = check_file(path)
    assert len(errors) == 1, "\n".join(map(str, errors))
    return errors[0]


def test_root_alternatives_are_loaded(write: Write, tmp_path: Path) -> None:
    variant = load_variant(tmp_path / "altroot.yaml")
    draw = variant.parameters["draw_count"]
    assert draw.alternatives == (Alternative(2, (SourceRef("hoyle", "two cards", "p. 2", "two-player only"),)),)
    assert variant.parameters["im_table"].alternatives[0].value == [{"from": None, "value": 125}]
    assert variant.parameters["wild_list"].alternatives[0].value == ["JK"]
    assert variant.parameters["values"].alternatives[0].value == {"JK": 30}
    assert variant.parameters["pile"].alternatives == ()


def test_child_inherits_alternatives_unless_restated(write: Write) -> None:
    kept = load_variant(write("kept", CHILD.format(name="kept") + '  wild_list: {value: ["2"]}\n'))
    assert [a.value for a in kept.parameters["wild_list"].alternatives] == [["JK"]]
    restated = CHILD.format(name="restated") + (
        "  draw_count:\n    value: 1\n    alternatives: [{value: 3, sources: [{source: pagat, quote: three}]}]\n"
        "  values: {value: {JK: 50}, alternatives: []}\n"
    )
    variant = load_variant(write("restated", restated))
    assert [a.value for a in variant.parameters["draw_count"].alternatives] == [3]
    assert variant.parameters["values"].alternatives == ()


def test_child_taking_an_alternative_drops_it_and_keeps_its_sources(write: Write) -> None:
    variant = load_variant(write("two", CHILD.format(name="two") + "  draw_count: {value: 2}\n"))
    draw = variant.parameters["draw_count"]
    assert draw.value == 2
    assert draw.alternatives == ()  # the parent's value 1 is not added back
    assert draw.sources == (SourceRef("hoyle", "two cards", "p. 2", "two-player only"),)
    sourced = CHILD.format(name="sourced") + ("  draw_count: {value: 2, sources: [{source: pagat, quote: mine}]}\n")
    assert load_variant(write("sourced", sourced)).parameters["draw_count"].sources == (SourceRef("pagat", "mine"),)


@pytest.mark.parametrize(
    ("body", "message", "position"),
    [
        (
            "  pile:\n    value: forbid\n    alternatives: [{value: allow, sources: [{source: pagat, quote: q}]}]\n",
            "only non-enum parameters have alternatives; pile is an enum, so list each value a source gives as one "
            "of its options, with its sources",
            (8, 5),
        ),
        (
            "  draw_count:\n    value: 1\n    alternatives: [{value: two, sources: [{source: pagat, quote: q}]}]\n",
            "the value of alternative 1 of parameter draw_count must be a whole number (its type is int), not the "
            "text 'two'",
            (8, 28),
        ),
        (
            "  draw_count:\n    value: 1\n    alternatives: [{value: 4, sources: [{source: pagat, quote: q}]}]\n",
            "the value of alternative 1 of parameter draw_count must be from 1 to 3 (its declared range), not 4",
            (8, 28),
        ),
        (
            "  draw_count:\n    value: 2\n    alternatives: [{value: 2, sources: [{source: pagat, quote: q}]}]\n",
            "alternative 1 of parameter draw_count is the number 2, the parameter's own value; an alternative is a "
            "value some source gives instead of it: drop it, or cite its sources under 'sources'",
            (8, 28),
        ),
        (
            "  draw_count:\n    value: 1\n    alternatives:\n"
            "      - {value: 3, sources: [{source: pagat, quote: q}]}\n"
            "      - {value: 3, sources: [{source: hoyle, quote: r}]}\n",
            "alternative 2 of parameter draw_count repeats alternative 1 (the number 3); list each value once, "
            "with all its sources",
            (10, 17),
        ),
        (
            "  draw_count:\n    value: 1\n    alternatives: [{value: 3, sources: [{source: hoyl, quote: q}]}]\n",
            "unknown source 'hoyl' (did you mean 'hoyle'?); expected one of: hoyle, pagat",
            (8, 50),
        ),
        (
            "  draw_count:\n    value: 1\n    alternatives: [{value: 3}]\n",
            "item 1 of 'alternatives' of parameter draw_count is missing required field 'sources'",
            (8, 20),
        ),
        (
            "  draw_count:\n    value: 1\n    alternatives: [{value: 3, sources: []}]\n",
            "'sources' of item 1 of 'alternatives' of parameter draw_count must not be empty",
            (8, 40),
        ),
        (
            "  im_table:\n    value: [{from: null, value: 15}]\n"
            "    alternatives:\n"
            "      - {value: [{from: 5, value: 1}, {from: 2, value: 3}], sources: [{source: pagat, quote: q}]}\n",
            "alternative 1 of parameter im_table: rows of table im_table must ascend: row 2 of table im_table starts "
            "at 2, not above 5",
            (9, 46),
        ),
    ],
)
def test_alternative_refusals(write: Write, body: str, message: str, position: tuple[int, int]) -> None:
    error = only_error(write("bad", CHILD.format(name="bad") + body))
    assert error.reason == message
    assert error.location is not None
    assert error.location.file.endswith("bad.yaml")
    assert (error.location.line, error.location.column) == position
