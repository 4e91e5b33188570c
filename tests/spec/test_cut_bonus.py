"""Modern American's cut bonus (pagat: the side not dealing scores a bonus for an exact cut): no source gives its
amount and no deal here has a cut, so it is a parameter whose default, no bonus, is canasta-ref's convention,
quoting the sentence that the bonus exists, and read by no rule."""

from __future__ import annotations

from canasta_ref.spec import load_variant


def test_the_cut_bonus_is_a_parameter_defaulting_to_no_bonus_as_canasta_refs_convention() -> None:
    variant = load_variant("modern-american")
    param = variant.parameters["exact_cut_bonus"]
    assert param.type == "int" and param.value == 0 and param.bounds is not None and param.bounds[0] == 0
    cited = {ref.source: ref for ref in param.sources}
    assert variant.sources["canasta-ref"].convention and "no source gives its amount" in cited["canasta-ref"].quote
    assert cited["pagat"].quote.startswith("The non-dealing team gets a bonus if the player who cuts the cards")
    assert "The cut is not modelled" in param.doc and "no rule reads this parameter" in param.doc


def test_no_rule_reads_the_cut_bonus_since_no_deal_has_a_cut() -> None:
    variant = load_variant("modern-american")
    assert [clause.id for clause in variant.clauses.values() if "exact_cut_bonus" in clause.parameters] == []
    assert "exact_cut_bonus" in variant.description
