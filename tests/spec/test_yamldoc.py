"""Node positions and scalar source text kept by the YAML reader."""

from __future__ import annotations

import pytest
import yaml

from canasta_ref.spec.yamldoc import ScalarText, parse

TEXT = """\
a: plain text
b: 'single'
c: "double"
d: |
  first line
    second line

  fourth
e: >-

  folded
  lines
f:
  - x
  - {y: 1}
"""


def test_positions() -> None:
    doc, errors = parse(TEXT, "t.yaml")
    assert errors == []
    assert doc.data["f"] == ["x", {"y": 1}]
    assert str(doc.location(("a",))) == "t.yaml:1:4"
    assert str(doc.location(("a",), key=True)) == "t.yaml:1:1"
    assert str(doc.location(("f", 1, "y"))) == "t.yaml:15:9"
    assert str(doc.location(("f", 1, "y"), key=True)) == "t.yaml:15:6"
    assert str(doc.location(("f", 7, "nothing"))) == "t.yaml:14:3"  # the nearest known ancestor


def test_scalar_text() -> None:
    doc, _ = parse(TEXT, "t.yaml")
    assert doc.scalar_text(("a",)) == ScalarText("plain text", 1, 4, None)
    assert doc.scalar_text(("b",)) == ScalarText("single", 2, 5, None)
    assert doc.scalar_text(("c",)) == ScalarText("double", 3, 5, None)
    assert doc.scalar_text(("d",)) == ScalarText("first line\n  second line\n\nfourth", 5, 3, 3)
    assert doc.scalar_text(("e",)) == ScalarText("folded\nlines", 11, 3, 3)
    assert doc.data["e"] == "\nfolded lines"  # what YAML folds to; the text keeps the lines as written
    assert doc.scalar_text(("f",)) is None


def test_error_snippet_and_caret() -> None:
    doc, _ = parse(TEXT, "t.yaml")
    error = doc.error(("c",), "a message")
    assert str(error) == 't.yaml:3:4: a message\n  c: "double"\n     ^'


def test_syntax_error_position() -> None:
    doc, errors = parse("a: [1, 2\nb: 3\n", "s.yaml")
    assert doc.data is None
    assert len(errors) == 1
    assert errors[0].location is not None
    assert (errors[0].location.line, errors[0].location.column) == (2, 2)
    assert errors[0].reason.startswith("YAML syntax error: expected ',' or ']'")


def test_a_text_only_the_pure_python_loader_reads_is_read_by_it() -> None:
    """libyaml refuses a tab at the start of a folded scalar's line, PyYAML's own loader reads it: parse used to
    re-raise libyaml's error as a traceback (found by the damaged-scenario property)."""
    text = "description: >-\n \tNorth holds a nine.\n  pagat says yes\nlevel: must\n"
    with pytest.raises(yaml.MarkedYAMLError):
        yaml.compose(text, Loader=yaml.CSafeLoader)
    doc, errors = parse(text, "t.yaml")
    assert errors == []
    assert doc.data == {"description": "\tNorth holds a nine.\n pagat says yes", "level": "must"}
