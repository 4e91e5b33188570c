"""Every compile-time error, rendered in full (file:line:col, message, snippet, caret) against golden files.

Set UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change of wording; review the diff.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from lang_fixtures import PARAMETERS, VARIABLES

from canasta_ref.errors import SpecError
from canasta_ref.lang import Origin, compile_expression, get_parser
from canasta_ref.lang.wording import TERMINALS
from canasta_ref.resources import grammar_dir

GOLDEN = Path(__file__).parent / "golden"
ONE_LINE = Origin("spec/classic.yaml", 42, 11)
BLOCK = Origin("spec/classic.yaml", 57, 7, 7)  # a YAML block scalar: later lines start at column 7 too

CASES: dict[str, tuple[str, str, Origin]] = {
    "syntax_mid_line": ("size >= 3 and and wilds <= 2", "bool", ONE_LINE),
    "unexpected_end": ("size >= min_size and", "bool", ONE_LINE),
    "unknown_name": ("sise >= min_size", "bool", ONE_LINE),
    "unknown_function": ("lookp(initial_minimum, team_score)", "int", ONE_LINE),
    "type_mismatch": ("size + is_wild > 3", "bool", ONE_LINE),
    "wrong_result_type": ("size + wilds", "bool", ONE_LINE),
    "multiline_line2": ("size >= min_size\nand wilds <= natrals", "bool", BLOCK),
    "multiline_syntax_line2": ("size >= min_size and\n  wilds <= )", "bool", BLOCK),
    "multiline_type_line3": ("if going_out\n  then 100\n  else rank", "int", BLOCK),
    "bad_subscript_key": ('card_values["Q"] > 0', "bool", ONE_LINE),
    "subscript_not_a_map": ("size[rank]", "int", ONE_LINE),
    "in_needs_list": ("rank in min_size", "bool", ONE_LINE),
    "lookup_needs_table": ("lookup(card_values, team_score)", "int", ONE_LINE),
    "wrong_arity": ("abs(size, wilds)", "int", ONE_LINE),
    "chained_comparison": ("0 < wilds < 3", "bool", ONE_LINE),
    "bad_character": ("size >= 3 && wilds < 2", "bool", ONE_LINE),
    "single_equals": ('rank = "K"', "bool", ONE_LINE),
    "unclosed_paren": ("(size + 1 > 3", "bool", ONE_LINE),
    "compare_mixed": ("rank == 2", "bool", ONE_LINE),
    "map_used_bare": ("card_values > 3", "bool", ONE_LINE),
    "empty": ("  # nothing but a comment", "bool", ONE_LINE),
}


def error_of(text: str, expect: str, origin: Origin) -> SpecError:
    with pytest.raises(SpecError) as caught:
        compile_expression(text, variables=VARIABLES, parameters=PARAMETERS, expect=expect, origin=origin)
    return caught.value


def render(text: str, expect: str, origin: Origin) -> str:
    return str(error_of(text, expect, origin)) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_matches_golden(name: str) -> None:
    actual = render(*CASES[name])
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


def test_every_golden_file_has_a_case() -> None:
    assert {path.stem for path in GOLDEN.glob("*.txt")} == set(CASES)


#: The text of the snippet from the reported column on: the offending token; '' when the column is just
#: past the end of the expression (an unexpected end).
AT_CARET: dict[str, str] = {
    "syntax_mid_line": "and wilds",
    "unexpected_end": "",
    "unknown_name": "sise",
    "unknown_function": "lookp(",
    "type_mismatch": "is_wild",
    "wrong_result_type": "size + wilds",
    "multiline_line2": "natrals",
    "multiline_syntax_line2": ")",
    "multiline_type_line3": "rank",
    "bad_subscript_key": '"Q"]',
    "subscript_not_a_map": "size[",
    "in_needs_list": "min_size",
    "lookup_needs_table": "card_values,",
    "wrong_arity": "abs(",
    "chained_comparison": "< 3",
    "bad_character": "&&",
    "single_equals": '= "K"',
    "unclosed_paren": "",
    "compare_mixed": "== 2",
    "map_used_bare": "card_values >",
    "empty": "  # nothing",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_reported_column_is_at_the_offending_token(name: str) -> None:
    error = error_of(*CASES[name])
    assert error.location is not None and error.snippet is not None
    expected = AT_CARET[name]
    if expected:
        assert error.snippet[error.location.column - 1 :].startswith(expected), error.snippet
    else:
        assert error.location.column == len(error.snippet) + 1, error.snippet


BROKEN = [
    "",
    "(",
    ")",
    "size +",
    "size size",
    "if size then",
    "if a then b",
    "[1, 2",
    "min(1,",
    "a[",
    "1 2",
    "not",
    "a == == b",
    "a not b",
    '"open',
    "a . b",
    "x in in y",
    "then",
    "a,b",
]


@pytest.mark.parametrize("text", BROKEN)
def test_syntax_errors_never_show_token_names(text: str) -> None:
    message = render(text, "bool", ONE_LINE).splitlines()[0]
    assert not re.search(r"\b[A-Z]{2,}\b|__ANON|\$END", message), message
    assert "expected" in message or "unexpected" in message


def test_every_terminal_has_an_english_name() -> None:
    assert {terminal.name for terminal in get_parser().terminals} <= set(TERMINALS)


def test_grammar_has_no_anonymous_terminals() -> None:
    grammar = (grammar_dir() / "rules.lark").read_text(encoding="utf-8")
    rules = [line for line in grammar.splitlines() if not re.match(r"\s*([A-Z_]+\s*:|//|%)", line)]
    assert not [line for line in rules if re.search(r"\"[^\"]*\"|/[^/]+/", line)]
    assert all(not name.startswith("__ANON") for name in (t.name for t in get_parser().terminals))


def test_unknown_name_without_a_close_match_says_what_names_are() -> None:
    message = render("zzz > 1", "bool", ONE_LINE)
    assert "unknown name 'zzz': neither a variable of this hook nor a spec parameter" in message
