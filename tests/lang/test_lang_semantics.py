"""What compiled expressions compute, what they fold at load time, and the interface the loader relies on."""

from __future__ import annotations

import time
from typing import Any

import pytest
from lang_fixtures import PARAMETERS, VARIABLES
from lark import Tree

from canasta_ref.errors import CanastaError, SpecError
from canasta_ref.lang import (
    CompiledExpression,
    Origin,
    RuleRuntimeError,
    compile_expression,
    parse_expression,
)

ORIGIN = Origin("spec/test.yaml", 1, 1)
GAME = {
    "size": 4,
    "wilds": 1,
    "naturals": 3,
    "team_score": 1600,
    "rank": "K",
    "is_wild": False,
    "going_out": True,
}


def compile_(text: str, expect: str, origin: Origin = ORIGIN) -> CompiledExpression:
    """``text`` compiled against the shared test variables and parameters."""
    return compile_expression(text, variables=VARIABLES, parameters=PARAMETERS, expect=expect, origin=origin)


def run(text: str, expect: str, **values: Any) -> Any:
    return compile_(text, expect)({**GAME, **values})


CASES: list[tuple[str, str, dict[str, Any], Any]] = [
    # precedence: * before + before comparison before not before and before or
    ("1 + 2 * 3", "int", {}, 7),
    ("(1 + 2) * 3", "int", {}, 9),
    ("10 - 2 - 3", "int", {}, 5),
    ("-size * 2", "int", {}, -8),
    ("- -size", "int", {}, 4),
    ("size - -1", "int", {}, 5),
    ("true or false and false", "bool", {}, True),
    ("(true or false) and false", "bool", {}, False),
    ("not size > 3", "bool", {}, False),
    ("not is_wild and going_out", "bool", {}, True),
    ("not (is_wild or going_out)", "bool", {}, False),
    ("size + 1 == 5 and wilds * 2 < naturals", "bool", {}, True),
    ("size >= 4", "bool", {}, True),
    ("size != 4", "bool", {}, False),
    ('rank == "K"', "bool", {}, True),
    ("is_wild == false", "bool", {}, True),
    # if / then / else, nested in both branches
    ("if is_wild then 1 else 2", "int", {}, 2),
    ("if size > 3 then if wilds > 0 then 10 else 20 else 30", "int", {}, 10),
    ("if size > 9 then 1 else if size > 3 then 2 else 3", "int", {}, 2),
    ("1 + (if going_out then 100 else 0)", "int", {}, 101),
    ('if going_out then rank else "none"', "str", {}, "K"),
    # in / not in, with literal lists and list parameters
    ('rank in ["2", "JK"]', "bool", {}, False),
    ('rank in ["2", "JK"]', "bool", {"rank": "JK"}, True),
    ("rank not in wild_ranks", "bool", {}, True),
    ("size in bonus_counts", "bool", {"size": 8}, True),
    ("size not in [1, 2, size]", "bool", {}, False),
    ("rank in []", "bool", {}, False),
    # lookup: below the first bound, exactly on a bound, between bounds, far above
    ("lookup(initial_minimum, team_score)", "int", {"team_score": -30}, 15),
    ("lookup(initial_minimum, team_score)", "int", {"team_score": 0}, 50),
    ("lookup(initial_minimum, team_score)", "int", {"team_score": 1499}, 50),
    ("lookup(initial_minimum, team_score)", "int", {"team_score": 1500}, 90),
    ("lookup(initial_minimum, team_score)", "int", {"team_score": 2999}, 90),
    ("lookup(initial_minimum, team_score)", "int", {"team_score": 3000}, 120),
    ("lookup(initial_minimum, team_score)", "int", {"team_score": 99999}, 120),
    ("lookup(bands_from_zero, size)", "int", {"size": 0}, 1),
    ("lookup(bands_from_zero, size * 3)", "int", {"size": 4}, 2),
    # map subscripts, with a variable and a constant key
    ("card_values[rank]", "int", {}, 10),
    ("card_values[rank]", "int", {"rank": "JK"}, 50),
    ('card_values[rank] * 2 + card_values["4"]', "int", {}, 25),
    # functions
    ("min(size, wilds, 7)", "int", {}, 1),
    ("max(size, wilds)", "int", {}, 4),
    ("abs(wilds - size)", "int", {}, 3),
    # parameters of every scalar type
    ("size >= min_size and wilds <= max_wilds", "bool", {}, True),
    ('permission == "ask"', "bool", {}, True),
    ("allow_pile or strict", "bool", {}, True),
    # comments and line breaks are ignored
    ("size  # the meld's size\n  + 1  # plus one", "int", {}, 5),
]


@pytest.mark.parametrize(("text", "expect", "values", "result"), CASES)
def test_evaluates(text: str, expect: str, values: dict[str, Any], result: Any) -> None:
    assert run(text, expect, **values) == result


@pytest.mark.parametrize(
    ("text", "expect", "python"),
    [
        ("size >= min_size + 1", "bool", 'lambda v: (v["size"] >= 4)'),
        ("allow_pile and size > 3", "bool", "lambda v: False"),
        ("strict and size > 3", "bool", 'lambda v: (v["size"] > 3)'),
        ("if strict then wilds else naturals", "int", 'lambda v: v["wilds"]'),
        ('card_values["JK"] + size', "int", 'lambda v: (50 + v["size"])'),
        ("rank in wild_ranks", "bool", "lambda v: (v[\"rank\"] in {'2', 'JK'})"),
        ("lookup(initial_minimum, 2000)", "int", "lambda v: 90"),
        ("max(min_size, 2) * 10", "int", "lambda v: 30"),
        (
            "lookup(initial_minimum, team_score)",
            "int",
            'lambda v: (120 if (_x1 := v["team_score"]) >= 3000 else 90 if _x1 >= 1500 else 50 if _x1 >= 0 else 15)',
        ),
    ],
)
def test_parameters_are_folded_into_the_generated_code(text: str, expect: str, python: str) -> None:
    assert compile_(text, expect).python == python


def test_compiled_expression_reports_what_it_uses() -> None:
    compiled = compile_("size >= min_size and card_values[rank] > 5", "bool")
    assert isinstance(compiled, CompiledExpression)
    assert compiled.source == "size >= min_size and card_values[rank] > 5"
    assert compiled.variables == frozenset({"size", "rank"})
    assert compiled.parameters == frozenset({"min_size", "card_values"})
    assert compiled.result_type == "bool"
    assert compiled.fn(GAME) is True
    assert compiled(GAME) is True


def test_results_are_plain_python_values() -> None:
    assert type(run("size > 3 and going_out", "bool")) is bool
    assert type(run("size * 2", "int")) is int


def test_compiling_again_returns_the_cached_object() -> None:
    def compile_it(params: dict[str, Any]) -> CompiledExpression:
        return compile_expression(
            "size >= min_size", variables=VARIABLES, parameters=params, expect="bool", origin=ORIGIN
        )

    first = compile_it(dict(PARAMETERS))
    assert compile_it(dict(PARAMETERS)) is first
    # a parameter the expression does not use does not matter; one it uses does
    assert compile_it({**PARAMETERS, "max_wilds": ("int", 99)}) is first
    changed = compile_it({**PARAMETERS, "min_size": ("int", 5)})
    assert changed is not first
    assert changed({"size": 4}) is False
    assert first({"size": 4}) is True


def test_missing_map_key_at_run_time_names_the_expression() -> None:
    compiled = compile_("card_values[rank] + 1", "int", Origin("v.yaml", 7, 9))
    with pytest.raises(RuleRuntimeError) as caught:
        compiled.fn({"rank": "Q"})
    assert isinstance(caught.value, CanastaError)
    assert str(caught.value) == (
        'map \'card_values\' has no entry for "Q" (it has "JK", "2", "A", "K", "4"); '
        "in the rule expression `card_values[rank] + 1` at v.yaml:7:9"
    )


def test_value_below_a_table_without_floor_is_a_runtime_error() -> None:
    compiled = compile_("lookup(bands_from_zero, size - 10)", "int")
    assert compiled({"size": 10}) == 1
    with pytest.raises(RuleRuntimeError, match=r"table 'bands_from_zero' has no band for -6"):
        compiled({"size": 4})


def test_missing_variable_is_named_when_called_through_the_object() -> None:
    compiled = compile_("size + wilds", "int")
    with pytest.raises(RuleRuntimeError, match="variable 'wilds' was not supplied"):
        compiled({"size": 1})


def test_a_name_both_variable_and_parameter_is_refused() -> None:
    with pytest.raises(SpecError, match="'size' is both a variable of this hook and a spec parameter") as caught:
        compile_expression(
            "wilds + size", variables=VARIABLES, parameters={"size": ("int", 1)}, expect="int", origin=ORIGIN
        )
    assert caught.value.location is not None
    assert caught.value.location.column == 9


def test_expect_must_be_a_result_type() -> None:
    with pytest.raises(ValueError, match="expect must be one of"):
        compile_expression("1", variables={}, parameters={}, expect="list", origin=ORIGIN)


def test_parse_expression_returns_a_tree_with_positions() -> None:
    tree = parse_expression('size >= 3 and\n  rank == "K"', ORIGIN)
    assert isinstance(tree, Tree)
    assert tree.data == "and_"
    right = tree.children[2]
    assert isinstance(right, Tree)
    assert (right.meta.line, right.meta.column) == (2, 3)


def test_parse_expression_raises_spec_errors() -> None:
    with pytest.raises(SpecError, match="unexpected end of expression"):
        parse_expression("size >=", ORIGIN)


def test_reloading_a_variant_is_fast() -> None:
    """A variant has ~80 clauses; compiling them again (as a reload does) must take well under 50 ms."""
    clauses = [
        (
            f"size >= min_size + {n} and (wilds <= max_wilds or rank in wild_ranks)\n"
            f"  and card_values[rank] > {n}  # a comment",
            "bool",
        )
        if n % 2
        else (f"lookup(initial_minimum, team_score) + {n} * naturals - (if going_out then 100 else 0)", "int")
        for n in range(80)
    ]

    def load() -> None:
        for line, (text, expect) in enumerate(clauses, start=1):
            compile_(text, expect, Origin("v.yaml", line, 9))

    load()
    start = time.perf_counter()
    load()
    assert time.perf_counter() - start < 0.025


def test_names_that_start_with_keywords_are_names() -> None:
    numbers = dict.fromkeys(["order", "iffy", "true_count", "in_hand"], "int")
    names = {"initial": "bool", "not_yet": "bool", **numbers}
    compiled = compile_expression(
        "initial and not not_yet or order + iffy + true_count + in_hand > 3",
        variables=names,
        parameters={},
        expect="bool",
        origin=ORIGIN,
    )
    values = {"initial": False, "not_yet": False, "order": 1, "iffy": 1, "true_count": 1, "in_hand": 1}
    assert compiled(values) is True
    assert compiled({**values, "in_hand": 0}) is False
    assert compiled.variables == frozenset(names)


@pytest.mark.parametrize(
    ("text", "reads"),
    [
        ("allow_pile and size > 3", set()),  # allow_pile is false: size can never matter
        ("strict and size > 3", {"size"}),  # strict is true: size decides
        ("not allow_pile or going_out and size >= min_size", set()),
        ("allow_pile or going_out and size >= min_size", {"going_out", "size"}),
    ],
)
def test_reads_leaves_out_variables_that_folding_made_moot(text: str, reads: set[str]) -> None:
    compiled = compile_(text, "bool")
    assert compiled.reads == frozenset(reads)
    assert compiled.reads <= compiled.variables
