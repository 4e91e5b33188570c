"""The listing of seeded hands, byte for byte: for every bundled variant, hands dealt from fixed seeds are played by
a seeded random policy, and every listing's actions, in order, are hashed. The digests are in
``tests/golden/listings``; a change in what is legal, or in the order it is listed, changes them (rewrite them with
``UPDATE_GOLDEN=1`` only when a rule was wrong, and say which in the commit).

The policy picks ``rng.choice(list(legal))`` from the full listing, so the games do not depend on the lazy listing's
count or indexing; ``test_indexing_matches_the_listing`` checks those separately.
"""

from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path

import pytest

from canasta_ref import Game, Rules, list_variants, load_variant
from canasta_ref.match import hand_seed

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "listings"
HANDS = 12


def _digests(variant: str) -> str:
    rules = Rules(load_variant(variant))
    lines = []
    for number in range(HANDS):
        game = Game(rules, seed=hand_seed(7, number))
        rng = random.Random(number)
        digest = hashlib.sha256()
        listings = actions = 0
        while not game.is_over:
            legal = list(game.legal_actions())
            digest.update("\n".join(map(str, legal)).encode() + b"\n\n")
            listings += 1
            actions += len(legal)
            game.apply(rng.choice(legal))
        lines.append(f"hand {number}: {listings} listings, {actions} actions, sha256 {digest.hexdigest()}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("variant", list_variants())
def test_seeded_listings_are_unchanged(variant: str) -> None:
    path = GOLDEN / f"{variant}.txt"
    found = _digests(variant)
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(found, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with UPDATE_GOLDEN=1 once"
    assert found == path.read_text(encoding="utf-8")
