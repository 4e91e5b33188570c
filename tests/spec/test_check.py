"""check_file on small inline specs: each problem reported once, at its node, and the checks going on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from canasta_ref.errors import SpecError
from canasta_ref.spec import check_file, load_variant

Write = Callable[[str, str], Path]

CHILD = "spec: 1\nid: {name}\nname: Test\nextends: root\n"
RULE = """\
  - id: {rule_id}
    section: melds
    title: A rule
    text: A rule.
    sources: [{{source: pagat, quote: "a quote"}}]
    hook: meld.valid
    require: {expression}
"""


def child(name: str, body: str) -> str:
    return CHILD.format(name=name) + body


def only_error(path: Path) -> SpecError:
    errors = check_file(path)
    assert len(errors) == 1, "\n".join(map(str, errors))
    return errors[0]


def where(error: SpecError) -> tuple[int, int]:
    assert error.location is not None
    return error.location.line, error.location.column


def test_several_errors_at_once(write_spec: Write) -> None:
    body = "parameters:\n  min_meld_size: {value: many}\n  other: {value: 1}\nrules:\n"
    body += RULE.format(rule_id="MELD.A", expression="size >= nonsense")
    body += RULE.format(rule_id="MELD.A", expression="size >= 2")
    body += RULE.format(rule_id="MELD.B", expression="size >=").replace("hook: meld.valid", "hook: meld.vald")
    errors = check_file(write_spec("many", child("many", body)))
    reasons = [error.reason for error in errors]
    assert len(errors) == 5, "\n".join(map(str, errors))
    assert "must be a whole number" in reasons[0]
    assert reasons[1].startswith("parameter other is not declared")
    assert "unknown name 'nonsense'" in reasons[2]
    assert reasons[3].startswith("duplicate rule id MELD.A")
    assert reasons[4].startswith("unknown hook 'meld.vald'")
    assert [where(error)[0] for error in errors] == sorted(where(error)[0] for error in errors)


def test_clean_child_has_no_errors(write_spec: Write) -> None:
    body = "rules:\n" + RULE.format(rule_id="MELD.NEW", expression="size >= min_meld_size")
    assert check_file(write_spec("fine", child("fine", body))) == []


def test_missing_parent(write_spec: Write) -> None:
    error = only_error(write_spec("orphan", "spec: 1\nid: orphan\nname: Orphan\nextends: nowhere\n"))
    assert error.reason.startswith("variant 'nowhere' not found: expected nowhere.yaml")
    assert where(error) == (4, 10)


def test_self_cycle(write_spec: Write) -> None:
    error = only_error(write_spec("loop", "spec: 1\nid: loop\nname: Loop\nextends: loop\n"))
    assert error.reason == "extends cycle: loop -> loop"


def test_cycle_seen_from_a_child_names_only_the_cycle(write_spec: Write) -> None:
    write_spec("ring-a", "spec: 1\nid: ring-a\nname: A\nextends: ring-b\n")
    write_spec("ring-b", "spec: 1\nid: ring-b\nname: B\nextends: ring-a\n")
    error = only_error(write_spec("outside", "spec: 1\nid: outside\nname: O\nextends: ring-a\n"))
    assert error.reason == "extends cycle: ring-a -> ring-b -> ring-a"
    assert error.location is not None and error.location.file.endswith("ring-a.yaml")


def test_parent_errors_come_first(write_spec: Write) -> None:
    write_spec("middle", child("middle", "parameters:\n  min_meld_size: {value: x}\n"))
    path = write_spec("leaf", "spec: 1\nid: leaf\nname: Leaf\nextends: middle\nsections: [a]\n")
    errors = check_file(path)
    assert [Path(e.location.file).name for e in errors if e.location] == ["middle.yaml", "leaf.yaml"]
    assert errors[1].reason.startswith("only the root variant lists 'sections'")


def test_an_unreadable_parents_errors_come_first(write_spec: Write) -> None:
    """A parent that cannot be read (broken YAML) is no document of the child's lineage, yet still its ancestor:
    its error is listed before the child's own."""
    write_spec("broken", "spec: 1\nid: broken\nname: [unclosed\n")
    path = write_spec("heir", "spec: 1\nid: heir\nname: Heir\nextends: broken\nsections: [a]\n")
    errors = check_file(path)
    assert [Path(e.location.file).name for e in errors if e.location] == ["broken.yaml", "heir.yaml"]


@pytest.mark.parametrize(
    ("text", "start", "position", "token"),
    [
        ("remove: [X.Y]\n", "only a variant that extends another can remove rules", (7, 1), "remove:"),
        (
            "rules:\n" + RULE.format(rule_id="A.B", expression="true") + "    replaces: true\n",
            "rule A.B has nothing to replace: this variant extends none",
            (15, 5),
            "replaces:",
        ),
        (
            "parameters:\n  t: {type: table, doc: T., value: [{from: 5, value: 1}, {from: 2, value: 2}]}\n",
            "rows of table t must ascend: row 2 of table t starts at 2, not above 5",
            (8, 65),
            "2,",
        ),
        (
            "parameters:\n  t: {type: table, doc: T., value: [{from: 5, value: 1}, {from: ~, value: 2}]}\n",
            "only the first row of table t may start from null",
            (8, 65),
            "~,",
        ),
        (
            "parameters:\n  t: {type: table, doc: T., value: [{from: 5, value: 1, to: 9}]}\n",
            "unknown field 'to' in row 1 of table t; expected: from, value",
            (8, 57),
            "to:",
        ),
        (
            "parameters:\n  m: {type: map, doc: M., value: [1]}\n",
            "value of parameter m must be a mapping (its type is map), not a list",
            (8, 34),
            "[1]",
        ),
        (
            "parameters:\n  n: {type: int, doc: N., value: true, min: 0, max: 9}\n",
            "value of parameter n must be a whole number (its type is int), not true",
            (8, 34),
            "true,",
        ),
        (
            "parameters:\n  n: {type: int, doc: N., value: 1, options: {a: []}, min: 0, max: 9}\n",
            "only enum parameters have options; n is of type int",
            (8, 37),
            "options:",
        ),
        (
            "parameters:\n  e: {type: enum, doc: E., value: a}\n",
            "parameter e is missing required field 'options'",
            (8, 6),
            "{type: enum",
        ),
        (
            "parameters:\n  e: {type: enum, doc: E., value: a, options: {a: [{source: nope, quote: q}]}}\n",
            "unknown source 'nope'; expected one of: pagat",
            (8, 61),
            "nope,",
        ),
        (
            "parameters:\n  undeclared: {value: 1}\n",
            "parameter undeclared is not declared (there is no such parameter)",
            (8, 3),
            "undeclared:",
        ),
        (
            "rules:\n" + RULE.format(rule_id="A.B", expression="true").replace("melds", "meldz"),
            "unknown section 'meldz' in rule A.B (did you mean 'melds'?); expected one of: melds",
            (9, 14),
            "meldz",
        ),
        ("name: twice\n", "duplicate key 'name' (first given at line 3)", (7, 1), "name: twice"),
        (
            "parameters:\n  m: {type: map, doc: M., value: {2: 20}}\n",
            "keys must be text; write '2' in quotes",
            (8, 35),
            "2: 20",
        ),
        (
            "rules:\n  - just a string\n",
            "rule #1 must be a mapping, not the text 'just a string'",
            (8, 5),
            "just a string",
        ),
        ("rules: {}\n", "'rules' must be a list, not a mapping", (7, 8), "{}"),
        ("sections: [melds, melds]\n", "'sections' lists 'melds' more than once", (6, 19), "melds]"),
        ("sources:\n  Pagat: {title: P}\n", "'Pagat' is not a valid source id: expected lowercase", (6, 3), "Pagat:"),
    ],
)
def test_root_problems(write_spec: Write, text: str, start: str, position: tuple[int, int], token: str) -> None:
    header = 'spec: 1\nid: r\nname: R\nsources:\n  pagat: {title: "P"}\n'
    if "sections" not in text:
        header += "sections: [melds]\n"
    if text.startswith("sources:"):
        header = header.replace('sources:\n  pagat: {title: "P"}\n', "")
    error = only_error(write_spec("r", header + text))
    assert error.reason.startswith(start), error.reason
    assert where(error) == position
    assert error.snippet is not None and error.snippet[position[1] - 1 :].startswith(token), error.snippet


@pytest.mark.parametrize(
    ("body", "start"),
    [
        ("sources:\n  pagat: {title: again}\n", "source 'pagat' is already defined by variant root"),
        (
            "parameters:\n  min_meld_size: {value: 2, type: bool, doc: D.}\n",
            "parameter min_meld_size is declared int",
        ),
        (
            "remove: [MELD.MIN_CARDS]\nrules:\n" + RULE.format(rule_id="MELD.MIN_CARDS", expression="true"),
            "rule MELD.MIN_CARDS is both removed and defined here",
        ),
        ("sections: [melds]\n", "only the root variant lists 'sections'"),
        (
            "rules:\n" + RULE.format(rule_id="X.Y", expression="true") + "    replaces: false\n",
            "'replaces' can only be true",
        ),
        (
            "rules:\n" + RULE.format(rule_id="X.Y", expression="true").replace("require:", "value:"),
            "hook meld.valid is a require hook, so rule X.Y takes 'require', not 'value'",
        ),
    ],
)
def test_child_problems(write_spec: Write, body: str, start: str) -> None:
    error = only_error(write_spec("kid", child("kid", body)))
    assert error.reason.startswith(start), error.reason


def test_id_must_match_file_name(write_spec: Write) -> None:
    error = only_error(write_spec("named", child("other-name", "")))
    assert error.reason == "id 'other-name' must equal the file name 'named' (without .yaml)"
    assert where(error) == (2, 5)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("", "the file is empty"),
        ("- a\n- b\n", "the variant must be a mapping, not a list"),
        ("spec: 1\nid: [\n", "YAML syntax error"),
    ],
)
def test_not_a_spec(write_spec: Write, text: str, start: str) -> None:
    error = only_error(write_spec("odd", text))
    assert error.reason.startswith(start), error.reason


def test_expression_positions(write_spec: Write) -> None:
    plain = RULE.format(rule_id="A.PLAIN", expression="size >= nope1")
    quoted = RULE.format(rule_id="A.QUOTED", expression="'size >= nope2'")
    double = RULE.format(rule_id="A.DOUBLE", expression='"size >= nope3"')
    block = RULE.format(rule_id="A.BLOCK", expression="|-\n\n      size >= 1 and\n        nope4")
    errors = check_file(write_spec("pos", child("pos", "rules:\n" + plain + quoted + double + block)))
    assert [(e.reason.split(":")[0], where(e)) for e in errors] == [
        ("unknown name 'nope1'", (12, 22)),
        ("unknown name 'nope2'", (19, 23)),
        ("unknown name 'nope3'", (26, 23)),
        ("unknown name 'nope4'", (36, 9)),
    ]
    for number, error in enumerate(errors, start=1):
        assert error.snippet is not None and error.snippet[where(error)[1] - 1 :].startswith(f"nope{number}")


def test_wrong_parameter_does_not_cascade_into_rules(write_spec: Write) -> None:
    body = "parameters:\n  min_meld_size: {value: [1]}\nrules:\n"
    body += RULE.format(rule_id="MELD.USES", expression="size >= min_meld_size")
    errors = check_file(write_spec("cascade", child("cascade", body)))
    assert [e.reason.split(" (")[0] for e in errors] == ["value of parameter min_meld_size must be a whole number"]


def test_load_variant_raises_the_first_error(write_spec: Write) -> None:
    path = write_spec("broken", child("broken", "remove: [NOPE.ONE, NOPE.TWO]\n"))
    with pytest.raises(SpecError, match=r"broken\.yaml:5:10: cannot remove rule NOPE\.ONE"):
        load_variant(path)


def test_unknown_variant_name() -> None:
    with pytest.raises(SpecError, match="unknown variant 'no-such-variant'"):
        load_variant("no-such-variant", search_path=[])


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="no spec file at"):
        load_variant(tmp_path / "absent.yaml")


def test_root_without_sections_reports_once(write_spec: Write) -> None:
    text = 'spec: 1\nid: bare\nname: Bare\nsources:\n  pagat: {title: "P"}\nrules:\n'
    text += RULE.format(rule_id="A.ONE", expression="true") + RULE.format(rule_id="A.TWO", expression="true")
    error = only_error(write_spec("bare", text))
    assert error.reason == "a root variant must list its 'sections' in order of play"
    assert where(error) == (1, 1)
