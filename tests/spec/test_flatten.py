"""A root, a child and a grandchild flattened: override, replace, add and remove, asserted in detail."""

from __future__ import annotations

from pathlib import Path

import pytest

from canasta_ref.errors import Location
from canasta_ref.spec import SourceRef, Variant, load_variant

FAMILY = Path(__file__).resolve().parent / "fixtures" / "family"


@pytest.fixture
def base() -> Variant:
    return load_variant("base", search_path=[FAMILY])


@pytest.fixture
def child() -> Variant:
    return load_variant("child", search_path=[FAMILY])


@pytest.fixture
def grandchild() -> Variant:
    return load_variant(FAMILY / "grandchild.yaml")


def test_root_as_written(base: Variant) -> None:
    assert base.id == "base"
    assert base.name == "Base Canasta"
    assert base.description == "A small root variant for the loader tests."
    assert base.lineage == ("base",)
    assert base.sections == ("cards", "deal", "melds", "pile", "scoring")
    assert base.file == str(FAMILY / "base.yaml")
    assert list(base.clauses) == [
        "DEAL.HAND_SIZE",
        "CARD.WILD",
        "MELD.MIN_CARDS",
        "MELD.WILD_LIMIT",
        "PILE.ONE_CARD",
        "SCORE.NATURAL",
    ]
    assert all(c.declared_in == "base" and c.replaces is None for c in base.clauses.values())
    assert list(base.sources) == ["pagat", "hoyle"]
    assert base.sources["hoyle"].note == "Any edition."
    assert base.sources["pagat"].url == "https://www.pagat.com/rummy/canasta.html"


def test_root_parameters(base: Variant) -> None:
    deal = base.parameters["deal_size"]
    assert (deal.type, deal.value, deal.declared_in, deal.set_in) == ("int", 11, "base", "base")
    assert deal.doc == "Cards dealt to each player."
    assert deal.sources == (SourceRef("pagat", "each player is dealt 11 cards", "S0#21"),)
    assert deal.location == Location(str(FAMILY / "base.yaml"), 15, 12)
    pile = base.parameters["one_card_pile"]
    assert pile.value == "allow"
    assert list(pile.options) == ["allow", "forbid"]
    assert pile.options["forbid"] == (SourceRef("hoyle", "the pile must have two cards"),)
    assert base.param("initial_meld_table") == [
        {"from": None, "value": 15},
        {"from": 0, "value": 50},
        {"from": 1500, "value": 90},
    ]
    assert base.param("card_values") == {"JK": 50, "2": 20, "A": 20, "4": 5}
    assert base.param("wild_ranks") == ["2", "JK"]


def test_clause_fields(base: Variant) -> None:
    clause = base.clauses["MELD.MIN_CARDS"]
    assert clause.section == "melds"
    assert clause.title == "Three cards at least"
    assert clause.hook == "meld.valid"
    assert clause.kind == "require"
    assert clause.expression == "size >= min_meld_size"
    assert clause.parameters == ("min_meld_size",)
    assert clause.message == clause.refusal == "A meld needs at least three cards."
    assert clause.sources == (SourceRef("pagat", "The smallest meld consists of three cards", "S0#21"),)
    assert clause.location == Location(str(FAMILY / "base.yaml"), 48, 9)
    assert clause.python == 'lambda v: (v["size"] >= 3)'  # min_meld_size folded in
    assert clause.evaluate({"size": 3}) is True
    assert clause.evaluate({"size": 2}) is False
    assert base.clauses["CARD.WILD"].kind == "predicate"
    assert base.clauses["CARD.WILD"].evaluate({"rank": "JK"}) is True
    assert base.clauses["SCORE.NATURAL"].evaluate({"natural_canastas": 2}) == 1000
    assert base.clauses["PILE.ONE_CARD"].refusal == "The pile may be taken when it holds one card."


def test_block_scalar_clause(base: Variant) -> None:
    clause = base.clauses["MELD.WILD_LIMIT"]
    assert clause.expression == "# at most as many wilds as naturals\nwilds <= naturals"
    assert clause.evaluate({"wilds": 2, "naturals": 2}) is True
    assert clause.evaluate({"wilds": 3, "naturals": 2}) is False


def test_child_order_replace_add_remove(child: Variant) -> None:
    assert child.lineage == ("base", "child")
    assert child.sections == ("cards", "deal", "melds", "pile", "scoring")
    assert list(child.clauses) == [
        "DEAL.HAND_SIZE",
        "CARD.WILD",
        "MELD.MIN_CARDS",
        "MELD.WILD_LIMIT",
        "SCORE.NATURAL",
        "SCORE.PAIRS",
    ]
    replaced = child.clauses["MELD.MIN_CARDS"]
    assert (replaced.declared_in, replaced.replaces) == ("child", "base")
    assert replaced.title == "Two cards at least"
    assert replaced.evaluate({"size": 2}) is True
    added = child.clauses["SCORE.PAIRS"]
    assert (added.declared_in, added.replaces) == ("child", None)
    kept = child.clauses["CARD.WILD"]
    assert (kept.declared_in, kept.replaces) == ("base", None)
    assert list(child.sources) == ["pagat", "hoyle", "house"]


def test_child_parameters(child: Variant) -> None:
    deal = child.parameters["deal_size"]
    assert (deal.value, deal.declared_in, deal.set_in) == (15, "base", "child")
    assert deal.doc == "Cards dealt to each player."
    assert deal.sources == (SourceRef("house", "we deal fifteen"),)
    pile = child.parameters["one_card_pile"]
    assert (pile.value, pile.set_in, pile.sources) == ("forbid", "child", ())
    assert list(pile.options) == ["allow", "forbid"]
    new = child.parameters["pair_bonus"]
    assert (new.type, new.value, new.declared_in, new.set_in) == ("int", 100, "child", "child")
    untouched = child.parameters["min_meld_size"]
    assert (untouched.declared_in, untouched.set_in) == ("base", "base")
    assert list(child.parameters)[-1] == "pair_bonus"


def test_inherited_clause_sees_child_value(base: Variant, child: Variant) -> None:
    assert base.clauses["DEAL.HAND_SIZE"].evaluate({"players": 4}) == 11
    assert child.clauses["DEAL.HAND_SIZE"].evaluate({"players": 4}) == 15
    assert child.clauses["DEAL.HAND_SIZE"].declared_in == "base"


def test_grandchild(grandchild: Variant) -> None:
    assert grandchild.lineage == ("base", "child", "grandchild")
    assert list(grandchild.clauses)[-1] == "SCORE.PAIRS"
    pairs = grandchild.clauses["SCORE.PAIRS"]
    assert (pairs.declared_in, pairs.replaces) == ("grandchild", "child")
    assert pairs.evaluate({"red_threes": 2}) == 400
    meld = grandchild.clauses["MELD.MIN_CARDS"]
    assert (meld.declared_in, meld.replaces) == ("child", "base")
    bonus = grandchild.parameters["natural_bonus"]
    assert (bonus.value, bonus.declared_in, bonus.set_in) == (600, "base", "grandchild")
    assert grandchild.clauses["SCORE.NATURAL"].evaluate({"natural_canastas": 1}) == 600
    assert grandchild.parameters["deal_size"].set_in == "child"
    assert grandchild.by_hook("score.hand") == (grandchild.clauses["SCORE.NATURAL"], pairs)


def test_by_name_and_by_path_agree() -> None:
    by_path = load_variant(str(FAMILY / "child.yaml"))
    assert by_path is load_variant("child", search_path=[FAMILY])


def test_search_path_order(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text((FAMILY / "base.yaml").read_text().replace("Base Canasta", "Shadow"))
    assert load_variant("base", search_path=[tmp_path, FAMILY]).name == "Shadow"
    assert load_variant("base", search_path=[FAMILY, tmp_path]).name == "Base Canasta"
