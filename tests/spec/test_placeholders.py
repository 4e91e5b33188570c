"""Clause texts name parameters, so every rulebook states its own values: bundled variants, derived ones and
house variants alike (issue 38, point 1)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from canasta_ref.cli import main
from canasta_ref.spec import Clause, Parameter, Variant, check_file, check_warnings, list_variants, load_variant
from canasta_ref.spec.derive import derive
from canasta_ref.spec.placeholders import (
    PlaceholderError,
    placeholders,
    referenced,
    word_text,
)
from canasta_ref.spec.staleness import stale_literals

VARIANTS = list_variants()


def classic() -> Variant:
    return load_variant("classic")


@pytest.mark.parametrize(
    ("text", "worded"),
    [
        ("{canasta_size}", "7"),
        ("{canasta_size:word} cards", "seven cards"),
        ("{canasta_size:Word} cards", "Seven cards"),
        ("pack{packs:s}, draw{draw_count:s}", "packs, draw"),
        ("{wild_ranks:Word} are wild", "Twos and jokers are wild"),
        ("{initial_meld_table}", "15, 50, 90 or 120"),
        ("{initial_meld_table:bands}", "15 below 0, 50 from 0, 90 from 1500 and 120 from 3000"),
        ("{initial_meld_table.1600}", "90"),
        ("jokers {card_values.JK}", "jokers 50"),
        ("{black_three}", "blocks next player"),
        ("{one_card_pile=allow:may take {canasta_size}|*:may not}", "may take 7"),
        ("{draw_count=1:card|*:{draw_count:word} cards}", "card"),
        ("{=packs * (52 + jokers_per_pack)} cards, {=packs * jokers_per_pack:word} jokers", "108 cards, four jokers"),
        ("{{braces}}", "{braces}"),
    ],
)
def test_a_placeholder_is_worded_from_the_variants_value(text: str, worded: str) -> None:
    assert word_text(text, classic().parameters) == worded


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{canasta_sise}", "unknown parameter 'canasta_sise' in a placeholder (did you mean 'canasta_size'?)"),
        ("{canasta_size:ordinal}", "unknown format 'ordinal' for int parameter canasta_size"),
        ("{one_card_pile=allow:a|forbid:b}", "gives no text for option pumpa"),
        ("{one_card_pile=allow:a|never:b|*:c}", "parameter one_card_pile has no option 'never'"),
        ("{one_card_pile=allow:a|*:{canasta_sise}}", "unknown parameter 'canasta_sise'"),  # a branch not taken
        ("{card_values.ZZ}", "parameter card_values has no entry 'ZZ'"),
        ("{card_values}", "a map parameter (card_values) is worded by {name.key}"),
        ("{=packs + nothing}", "unknown name 'nothing'"),
        ("a } alone", "a '}' closes no placeholder"),
        ("{canasta_size", "a '{' opens a placeholder that is not closed"),
    ],
)
def test_a_placeholder_that_cannot_be_worded_says_why(text: str, expected: str) -> None:
    with pytest.raises(PlaceholderError, match=re.escape(expected)):
        word_text(text, classic().parameters)


# ---------------------------------------------------------------- every clause under other values


def other_values(param: Parameter) -> list[Any]:
    """Values to render a clause under instead of the parameter's own: ints one up and their bounds, every other
    option of an enum, the other bool, a table and a map with every value changed, a shorter or longer list."""
    value = param.value
    if param.type == "int":
        low, high = param.bounds or (value, value + 1)
        candidates = [value + 1 if value + 1 <= high else value - 1, low, high]
        return sorted({candidate for candidate in candidates if candidate != value and low <= candidate <= high})
    if param.type == "enum":
        return [option for option in param.options if option != value]
    if param.type == "bool":
        return [not value]
    if param.type == "table":
        return [[{**row, "value": row["value"] + 1001} for row in value]]
    if param.type == "map":
        return [{key: entry + 1001 if isinstance(entry, int) else entry for key, entry in value.items()}]
    if param.type == "list":
        return [value[1:] if len(value) > 1 else [*value, "A"]]
    return [f"{value} (changed)"]


def texts(clause: Clause) -> dict[str, str]:
    written = clause.written
    assert written is not None, f"{clause.id} keeps no written texts"
    found = {"title": written.title, "text": written.text, "message": written.message}
    return {name: text for name, text in found.items() if text is not None}


def with_value(parameters: Mapping[str, Parameter], name: str, value: Any) -> dict[str, Parameter]:
    return {**parameters, name: dataclasses.replace(parameters[name], value=value)}


def direct(text: str, name: str, parameters: Mapping[str, Parameter]) -> list[str]:
    """The placeholders of ``text`` that word ``name``'s value itself (not through a choice), nested ones in the
    texts the choices take under ``parameters`` too."""
    found: list[str] = []
    for holder in placeholders(text):
        if holder.name == name and holder.choices is None:
            found.append(text[holder.start : holder.end])
        if holder.choices is not None:
            value = parameters[holder.name].value
            current = ("true" if value else "false") if isinstance(value, bool) else str(value)
            found += direct(holder.choices.get(current, holder.choices.get("*", "")), name, parameters)
    return found


def count(words: str, text: str) -> int:
    return len(re.findall(rf"(?<![\w.]){re.escape(words)}(?!\w)", text))


def clause_problems(clause: Clause, parameters: Mapping[str, Parameter]) -> list[str]:
    """What keeps ``clause``'s texts from stating its parameters' values, whatever they are: a value written in
    letters (the check's warning), or a placeholder whose wording does not follow a changed value."""
    problems = [str(warning) for warning in stale_literals(clause, parameters)]
    for field, text in texts(clause).items():
        named = (set(clause.parameters) | referenced(text)) & set(parameters)
        for name in sorted(named):
            old_text = word_text(text, parameters)
            for value in other_values(parameters[name]):
                changed = with_value(parameters, name, value)
                new_text = word_text(text, changed)
                problems += _stated(clause, field, name, value, text, (old_text, new_text), (parameters, changed))
    return problems


def _stated(
    clause: Clause,
    field: str,
    name: str,
    value: Any,
    text: str,
    rendered: tuple[str, str],
    values: tuple[Mapping[str, Parameter], Mapping[str, Parameter]],
) -> list[str]:
    """Each placeholder of ``name`` that the chosen texts show must state the new value, and the text must read
    otherwise than under the old one (a mention of another source's value elsewhere in it may stay)."""
    old_text, new_text = rendered
    where = f"'{field}' of {clause.id} with {name} = {value!r}"
    problems: list[str] = []
    for template in direct(text, name, values[1]):
        if template.endswith(":s}"):
            continue  # a plural ending, no value of its own
        old_word, new_word = word_text(template, values[0]), word_text(template, values[1])
        if count(new_word, new_text) == 0:
            problems.append(f"{where}: does not say {new_word!r}: {new_text}")
        if old_word != new_word and new_text == old_text:
            problems.append(f"{where}: still says {old_word!r}: {new_text}")
    return problems


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_clause_states_the_values_of_its_parameters_under_other_values(variant_id: str) -> None:
    variant = load_variant(variant_id)
    problems = [
        problem for clause in variant.clauses.values() for problem in clause_problems(clause, variant.parameters)
    ]
    assert problems == []


def test_a_number_written_as_a_literal_fails_the_test_and_the_check() -> None:
    variant = classic()
    clause = variant.clauses["CANASTA.SIZE"]
    written = clause.written
    assert written is not None and "{canasta_size:word}" in written.text
    literal = dataclasses.replace(written, text=written.text.replace("{canasta_size:word}", "seven"))
    mutated = dataclasses.replace(clause, written=literal, text=word_text(literal.text, variant.parameters))
    problems = clause_problems(mutated, variant.parameters)
    assert problems, "a clause saying 'seven' for canasta_size must fail"
    assert "warning: 'text' of rule CANASTA.SIZE states 'seven', the value of parameter canasta_size" in problems[0]
    assert clause_problems(clause, variant.parameters) == []


def test_check_warns_about_a_literal_and_keeps_exit_status_zero(tmp_path: Path) -> None:
    house = tmp_path / "literal.yaml"
    house.write_text(
        "spec: 1\nid: literal\nname: Literal\nextends: classic\nrules:\n"
        "  - id: CANASTA.SIZE\n    replaces: true\n    section: melds\n    title: Canastas\n"
        "    text: A meld of seven cards is a canasta.\n"
        '    sources: [{source: pagat, quote: "Canastas may be longer than 7 cards."}]\n'
        "    hook: canasta.size\n    value: canasta_size\n",
        encoding="utf-8",
    )
    assert check_file(house) == []
    [warning] = check_warnings(house)
    assert str(warning).startswith(f"{house}:10:21: warning: 'text' of rule CANASTA.SIZE states 'seven'")
    out = _Output()
    assert main(["check", str(house)], out) == 0
    assert "warning:" in out.text and out.text.endswith(f"{house}: ok\n")


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_no_bundled_spec_states_a_value_in_letters(variant_id: str) -> None:
    assert [str(warning) for warning in check_warnings(Path("spec") / f"{variant_id}.yaml")] == []


# ---------------------------------------------------------------- the house variant of the issue

HOUSE = """\
spec: 1
id: house
name: House Canasta
description: We play Classic, but a canasta needs eight cards and the opening table is ours.
extends: classic
parameters:
  canasta_size:
    value: 8
  initial_meld_table:
    value:
      - {from: null, value: 30}
      - {from: 0, value: 60}
      - {from: 2000, value: 100}
"""


@pytest.fixture
def house(tmp_path: Path) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(HOUSE, encoding="utf-8")
    return path


def test_the_house_variant_states_its_own_values_in_every_clause(house: Path) -> None:
    assert check_file(house) == [] and check_warnings(house) == []
    variant = load_variant(house)
    assert variant.clauses["CANASTA.SIZE"].title == "Eight cards make a canasta"
    assert "A meld of eight or more cards is a canasta" in variant.clauses["CANASTA.SIZE"].text
    minimum = variant.clauses["INITIAL_MELD.MINIMUM"].text
    assert minimum.endswith(": 30 below 0, 60 from 0 and 100 from 2000.")
    assert "Black threes may be melded only by a player who is going out" in variant.clauses["B3.MELD.GOING_OUT"].text
    problems = [
        problem for clause in variant.clauses.values() for problem in clause_problems(clause, variant.parameters)
    ]
    assert problems == []


def test_the_house_rulebook_never_says_seven_cards_or_the_classic_table(house: Path) -> None:
    out = _Output()
    assert main(["rules", str(house)], out) == 0
    after_parameters = out.text[out.text.index("\nCards\n") :]
    rules = "\n".join(line for line in after_parameters.splitlines() if not line.startswith("    source "))
    assert "Eight cards make a canasta" in rules and "grow beyond eight" in rules
    assert re.search(r"\bseven\b", rules, re.IGNORECASE) is None
    assert "15, 50, 90" not in rules and "90 from 1500" not in rules


def test_a_derived_variant_and_its_refusals_state_the_derived_value() -> None:
    derived = derive(classic(), {"canasta_size": 8, "min_meld_size": 4})
    assert derived.clauses["CANASTA.SIZE"].title == "Eight cards make a canasta"
    assert derived.clauses["MELD.MIN_CARDS"].refusal == "A meld needs at least four cards."
    assert classic().clauses["MELD.MIN_CARDS"].refusal == "A meld needs at least three cards."


class _Output:
    """A text stream for the CLI's output."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)
