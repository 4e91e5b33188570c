"""Hostile specs (issue 14): each gets one clear, located error from ``check_file``, quickly, and nothing raises.

A stranger's spec may try to exhaust memory (nested aliases), the stack (deep nesting, in YAML or in an
expression), the compiler (long chains, huge numbers), the engine (parameter values it cannot play), the file
system (a parent linked from elsewhere) or the terminal (escape sequences in text).
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from canasta_ref import load_variant
from canasta_ref.errors import SpecError, is_control
from canasta_ref.spec import check_file, clear_cache
from canasta_ref.spec.derive import derive
from canasta_ref.spec.yamldoc import MAX_DEPTH, MAX_TEXT, parse

HEAD = "spec: 1\nid: house\nname: House\nextends: classic\n"
RULE = (
    "rules:\n"
    "  - id: MELD.HOUSE\n"
    "    section: melds\n"
    "    title: {title}\n"
    "    text: {text}\n"
    "    sources: [{{source: pagat, quote: q}}]\n"
    "    hook: meld.valid\n"
    "    require: {expression}\n"
)
#: The line of ``require:`` in a spec made of HEAD and RULE.
REQUIRE_LINE = 12

Write = Callable[[str], Path]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    clear_cache()


@pytest.fixture
def write(tmp_path: Path) -> Write:
    """Write ``house.yaml`` into a fresh folder."""

    def write_text(text: str) -> Path:
        path = tmp_path / "house.yaml"
        path.write_text(text, encoding="utf-8")
        return path

    return write_text


def only_error(path: Path, *, seconds: float = 30.0) -> SpecError:
    """The single error of ``path``, which must come within ``seconds`` and carry a location in ``path``."""
    start = time.monotonic()
    errors = check_file(path)
    assert time.monotonic() - start < seconds
    assert len(errors) == 1, [str(error) for error in errors]
    error = errors[0]
    assert error.location is not None and error.location.file == str(path)
    return error


def rule(expression: str, *, title: str = "t", text: str = "t") -> str:
    return HEAD + RULE.format(expression=expression, title=title, text=text)


# -- YAML --------------------------------------------------------------------------------------------------
def billion_laughs(levels: int = 9) -> str:
    names = [chr(ord("a") + n) for n in range(levels)]
    lines = [f"{names[0]}: &{names[0]} [x,x,x,x,x,x,x,x,x]"]
    lines += [f"{name}: &{name} [{','.join([f'*{below}'] * 9)}]" for below, name in itertools.pairwise(names)]
    return "\n".join(lines) + "\n"


def test_nested_aliases_are_refused_at_the_alias(write: Write) -> None:
    text = billion_laughs()
    assert len(text) < 500
    error = only_error(write(text), seconds=10)  # 9**6 values expanded would take minutes
    assert "too many values once its aliases are expanded" in error.reason
    assert error.location is not None and error.location.line == 6  # 9**6 values would come of line 6
    assert text.splitlines()[5][error.location.column - 1] == "*"


def test_a_file_with_too_many_values_and_no_alias_is_told_so(write: Write) -> None:
    """A long file without an alias (a scenario of 20,000 steps) is refused for the limit it reaches, the number
    of values, not for aliases it does not have."""
    steps = "".join("  - action: draw\n    expect: {result: accepted}\n" for _ in range(20_000))
    error = only_error(write(HEAD + "steps:\n" + steps))
    assert error.reason == (
        "the file holds too many values: at most 100,000 lists, mappings and single values in all, each counted once"
    )
    assert "alias" not in error.reason
    assert error.location is not None and error.location.line > 20_000


def test_a_few_aliases_still_work() -> None:
    doc, errors = parse("a: &x [1, 2]\nb: *x\n", "f.yaml")
    assert errors == []
    assert doc.data == {"a": [1, 2], "b": [1, 2]}


def test_an_alias_inside_its_own_anchor_is_refused() -> None:
    _, errors = parse("a: &a [1, *a]\n", "f.yaml")
    assert [str(error.location) for error in errors] == ["f.yaml:1:11"]
    assert "contains it" in errors[0].reason


@pytest.mark.parametrize(
    "text",
    [
        "[" * 10_000 + "]" * 10_000,
        "{a: " * 10_000 + "1" + "}" * 10_000,
        "".join(" " * n + "- \n" for n in range(0, 2_000, 2)),
        "".join(" " * n + "a:\n" for n in range(0, 2_000, 2)),
    ],
    ids=["flow-lists", "flow-mappings", "block-lists", "block-mappings"],
)
def test_deep_nesting_is_a_located_error(write: Write, text: str) -> None:
    error = only_error(write(text))
    assert f"nested too deeply: at most {MAX_DEPTH} levels" in error.reason
    assert error.location is not None and error.location != (1, 1)


def test_a_huge_file_is_refused_before_it_is_read(write: Write) -> None:
    error = only_error(write("# padding\n" * (MAX_TEXT // 10 + 1)))
    assert "the file is too large" in error.reason
    assert error.location is not None and (error.location.line, error.location.column) == (1, 1)


def test_a_file_that_never_ends_is_not_read_at_all() -> None:
    """/dev/zero is a device, not a spec: refused unread (tests/fuzz/test_abuse_files.py has FIFOs and folders)."""
    [error] = check_file("/dev/zero")
    assert error.reason == "cannot read /dev/zero: it is a character device, not a regular file"


@pytest.mark.parametrize(
    ("value", "words"),
    [("9" * 5000, "4300 digits"), ("2025-13-45", "month must be in 1..12")],
)
def test_values_python_cannot_build_are_located(write: Write, value: str, words: str) -> None:
    error = only_error(write(HEAD + f"description: {value}\n"))
    assert words in error.reason
    assert error.location is not None and (error.location.line, error.location.column) == (5, 14)


# -- parameter values ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("parameters", "words"),
    [
        ({"teams": 0}, "teams must be from 2 to 6"),
        ({"players": 0}, "players must be from 2 to 6"),
        ({"cards_dealt": -1}, "cards_dealt must be from 1 to 20"),
        ({"cards_dealt": 0}, "cards_dealt must be from 1 to 20"),
        ({"draw_count": 0}, "draw_count must be from 1 to 3"),
        ({"packs": 50_000_000}, "packs must be from 1 to 10"),
        ({"jokers_per_pack": -2}, "jokers_per_pack must be from 0 to 4"),
        ({"match_target": 0}, "match_target must be from 1 to 1000000"),
        ({"players": 3}, "3 players cannot sit in 2 equal sides"),
        ({"players": 4, "teams": 3}, "4 players cannot sit in 3 equal sides"),
        ({"players": 6, "cards_dealt": 20}, "the deck is too small for the deal"),
        ({"packs": 1, "players": 4, "cards_dealt": 14}, "the deck is too small for the deal"),
    ],
)
def test_parameter_values_the_engine_cannot_play_are_refused(
    write: Write, parameters: dict[str, int], words: str
) -> None:
    lines = [f"  {name}: {{value: {value}}}" for name, value in parameters.items()]
    path = write(HEAD + "parameters:\n" + "\n".join(lines) + "\n")
    error = only_error(path)
    assert words in error.reason
    assert error.location is not None
    line = path.read_text().splitlines()[error.location.line - 1]
    assert line.startswith(f"  {list(parameters)[-1]}:")  # the value set last is the one to fix
    with pytest.raises(SpecError):
        load_variant(path)


def test_the_deck_hooks_are_checked_when_a_clause_computes_them(write: Write) -> None:
    text = HEAD + (
        "rules:\n  - id: DECK.PACKS\n    replaces: true\n    section: cards\n    title: t\n    text: t\n"
        "    sources: [{source: pagat, quote: q}]\n    hook: deck.packs\n    value: packs * 1000000\n"
    )
    error = only_error(write(text))
    assert error.reason == "deck.packs comes to 2000000; the engine plays 1 to 10"


def test_two_special_hands_of_one_name_are_refused_at_the_second(write: Write) -> None:
    clause = (
        "  - id: {id}\n    section: going-out\n    title: t\n    text: t\n"
        "    sources: [{{source: pagat, quote: q}}]\n    hook: special_hand.shape\n    when: ranks == 14\n"
    )
    text = HEAD + "rules:\n" + clause.format(id="HOUSE.STRAIGHT") + clause.format(id="MINE.STRAIGHT")
    path = write(text)
    error = only_error(path)
    assert "HOUSE.STRAIGHT and MINE.STRAIGHT both name the special hand 'straight'" in error.reason
    assert error.location is not None
    assert path.read_text().splitlines()[error.location.line - 1].strip() == "when: ranks == 14"
    assert error.location.line - 1 > text.splitlines().index("  - id: MINE.STRAIGHT")  # at the second clause


def test_a_derived_variant_is_checked_as_a_spec_is() -> None:
    classic = load_variant("classic")
    with pytest.raises(SpecError, match="teams must be from 2 to 6"):
        derive(classic, {"teams": 0})
    with pytest.raises(SpecError, match="cannot sit in 2 equal sides"):
        derive(classic, {"players": 5})
    assert derive(classic, {"players": 2}).param("players") == 2


def test_every_int_parameter_must_declare_its_range(write: Write) -> None:
    text = HEAD + "parameters:\n  house_bonus: {type: int, doc: A bonus., value: 5}\n"
    error = only_error(write(text))
    assert error.reason.startswith("parameter house_bonus is missing required fields 'min', 'max'")


def test_a_child_cannot_widen_a_range(write: Write) -> None:
    error = only_error(write(HEAD + "parameters:\n  players: {value: 4, min: 2, max: 8}\n"))
    assert "a child may change its value, not its range" in error.reason


def test_a_range_must_not_be_empty(write: Write) -> None:
    text = HEAD + "parameters:\n  house_bonus: {type: int, doc: A bonus., value: 5, min: 9, max: 1}\n"
    error = only_error(write(text))
    assert error.reason == "min of parameter house_bonus (9) must not be above its max (1)"


def test_table_numbers_are_bounded(write: Write) -> None:
    table = "[{from: null, value: 15}, {from: 0, value: 10000000000}]"
    error = only_error(write(HEAD + f"parameters:\n  initial_meld_table: {{value: {table}}}\n"))
    assert "'value' of row 2 of table initial_meld_table must be from" in error.reason


def test_bundled_int_parameters_have_ranges_holding_their_values() -> None:
    for name in ("classic", "classic-2p"):
        for param in load_variant(name).parameters.values():
            if param.type == "int":
                assert param.bounds is not None, param.name
                assert param.bounds[0] <= param.value <= param.bounds[1], param.name


# -- rule expressions ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "expression",
    [
        " + ".join(["size"] * 300) + " >= 3",
        " and ".join(["size > 0"] * 300),
        " or ".join(["size > 0"] * 300),
        " * ".join(["size"] * 300) + " >= 0",
        " - ".join(["size"] * 499) + " < 0",
    ],
    ids=["sum", "and", "or", "product", "difference"],
)
def test_long_flat_chains_compile(write: Write, expression: str) -> None:
    assert check_file(write(rule(expression))) == []


@pytest.mark.parametrize(
    ("expression", "column", "words"),
    [
        ("not " * 201 + "true", 15 + 4 * 64, "nested too deeply"),
        ("(" * 1000 + "true" + ")" * 1000, 15 + 64, "nested too deeply"),
        ("-" * 1000 + "1 < 0", 15 + 63, "nested too deeply"),  # the comparison is the first level
        ("size in " + "[" * 500 + "1" + "]" * 500, 15 + 8 + 32, "nested too deeply"),  # a list is two levels
        ("size > " + "9" * 5000, 22, "this number has 5000 digits; numbers in rules have at most 18"),
        ("size > 9999999999 * 9999999999", 22, "a number of more than 18 digits"),
        (" and ".join(["size > 0"] * 3000), 15, "this chain has 3000 terms; at most 500"),
    ],
    ids=["not", "parentheses", "minus", "lists", "digits", "folded", "chain"],
)
def test_expressions_beyond_the_limits_are_located(write: Write, expression: str, column: int, words: str) -> None:
    error = only_error(write(rule(f"'{expression}'")))
    assert words in error.reason
    assert error.location is not None
    assert (error.location.line, error.location.column) == (REQUIRE_LINE, column)


# -- extends -----------------------------------------------------------------------------------------------
def test_a_parent_linked_from_outside_the_folder_is_not_read(tmp_path: Path) -> None:
    secret = tmp_path / "private" / "secret.yaml"
    secret.parent.mkdir()
    secret.write_text("password: hunter2\n")
    folder = tmp_path / "specs"
    folder.mkdir()
    os.symlink(secret, folder / "secret.yaml")
    child = folder / "house.yaml"
    child.write_text("spec: 1\nid: house\nname: House\nextends: secret\n")
    error = only_error(child)
    assert "hunter2" not in str(error)
    assert "outside this spec's folder" in error.reason
    assert error.location is not None and (error.location.line, error.location.column) == (4, 10)


def test_a_parent_linked_within_the_folder_is_read(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("spec: 1\nid: base\nname: Base\nsections: [melds]\n")
    os.symlink(tmp_path / "base.yaml", tmp_path / "alias.yaml")
    child = tmp_path / "house.yaml"
    child.write_text("spec: 1\nid: house\nname: House\nextends: alias\n")
    errors = [error.reason for error in check_file(child)]
    assert not any("outside" in reason for reason in errors)


# -- terminal escapes --------------------------------------------------------------------------------------
@pytest.mark.parametrize("field", ["title", "text"])
def test_control_characters_in_text_are_refused(write: Write, field: str) -> None:
    texts = {"title": "t", "text": "t", field: '"\\e[2J cleared"'}
    error = only_error(write(rule("size > 2", **texts)))
    assert error.reason.startswith("text must not contain control characters (found \\x1b)")
    assert error.location is not None and error.location.line == (4 if field == "title" else 5) + 4


def test_newlines_and_tabs_are_allowed_in_text(write: Write) -> None:
    assert check_file(write(rule("size > 2", text='"two\\tlines\\nof text"'))) == []


def test_messages_never_carry_raw_control_characters(write: Write) -> None:
    path = write(HEAD + "description: \x1b[2J\x1b]0;owned\x07\n")
    error = only_error(path)
    shown = str(error)
    assert not any(is_control(char) for char in shown.replace("\n", ""))
    assert "\\x1b[2J" in shown
    snippet, caret = shown.splitlines()[1:3]
    assert snippet[caret.index("^")] == "\\"  # the caret still points at the escaped character


def test_what_python_cannot_compile_is_still_a_located_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta_ref.lang import compile_expression, parser
    from canasta_ref.lang.origin import Origin

    monkeypatch.setattr(parser, "MAX_CHAIN", 10**6)  # let through a chain that Python's compiler cannot take
    text = " + ".join(["size"] * 20_000) + " > 0"
    with pytest.raises(SpecError, match="too complex to compile") as caught:
        compile_expression(text, variables={"size": "int"}, parameters={}, expect="bool", origin=Origin("f", 3, 5))
    assert str(caught.value.location) == "f:3:5"


def test_the_fast_control_character_search_finds_exactly_what_is_control_names() -> None:
    from canasta_ref.spec.safety import _first_control

    for code in range(0x10000):
        char = chr(code)
        if 0xD800 <= code <= 0xDFFF:  # lone surrogates: no YAML text holds them
            continue
        expected = is_control(char) and char not in "\n\t"
        assert (_first_control(f"a{char}b") == char) is expected, hex(code)
