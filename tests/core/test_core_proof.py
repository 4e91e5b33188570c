"""The native core against the Python reference, step by step, in every bundled variant: the position loaded at
every step, every plain card move made by both, and the hand's score where the core covers the variant's scoring."""

from __future__ import annotations

from types import ModuleType

import pytest

from canasta_ref.core import score_mechanisms_missing
from canasta_ref.core.proof import prove
from canasta_ref.engine.rules import rules_for
from canasta_ref.spec import list_variants, load_variant

#: The variants whose whole hand score the core computes (the others lack a scoring mechanism, named by
#: ``score_mechanisms_missing``; the test below checks this list is what it says).
SCORED = ("bolivia", "classic", "classic-2p", "classic-6p", "hoyle-2p", "samba")


@pytest.mark.parametrize("variant", list_variants())
def test_the_core_agrees_with_the_reference_at_every_step(library: ModuleType, variant: str) -> None:
    proof = prove(rules_for(load_variant(variant)), ["core-proof/1"])
    assert proof.disagreements == [], proof.summary()
    assert proof.positions > 50
    assert {"draw", "discard", "meld"} <= set(proof.moves), proof.summary()
    assert proof.scores == (1 if variant in SCORED else 0), proof.summary()


def test_the_scored_variants_are_those_whose_scoring_the_core_covers() -> None:
    covered = [v for v in list_variants() if not score_mechanisms_missing(rules_for(load_variant(v)))]
    assert covered == sorted(SCORED)
