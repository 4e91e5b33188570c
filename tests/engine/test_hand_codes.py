"""The listing keys its caches on a hand's counts packed into ints; different hands must never share a code."""

from __future__ import annotations

import itertools

from canasta_ref import Rules, load_variant
from canasta_ref.engine.cards import CARD_TYPES, JOKER
from canasta_ref.engine.movegen import HandCards

RULES = Rules(load_variant("classic"))
KINGS = RULES.natural_cards[11]
WILDS = tuple(card for card in RULES.wild_cards if card != JOKER)


def _hand(counts_by_card: dict[int, int]) -> HandCards:
    counts = [0] * CARD_TYPES
    for card, count in counts_by_card.items():
        counts[card] = count
    return HandCards(RULES, tuple(counts))


def test_every_mix_of_one_ranks_cards_has_its_own_code() -> None:
    copies = range(RULES.packs + 1)
    codes = {}
    for counts in itertools.product(copies, repeat=len(KINGS)):
        hand = _hand(dict(zip(KINGS, counts, strict=True)))
        codes[counts] = hand.codes[11]
        assert hand.count(11) == sum(counts)
    assert len(set(codes.values())) == len(codes) == (RULES.packs + 1) ** len(KINGS)


def test_every_mix_of_wild_cards_has_its_own_code_and_jokers_stay_apart() -> None:
    copies = range(RULES.packs + 1)
    seen = set()
    for counts in itertools.product(copies, repeat=len(WILDS)):
        twos = dict(zip(WILDS, counts, strict=True))
        hand = _hand({**twos, JOKER: 1})
        assert hand.jokers == 1 and hand.twos_total == sum(counts)
        assert hand.twos_code == _hand(twos).twos_code, "a joker changed the twos' code"
        seen.add(hand.twos_code)
    assert len(seen) == (RULES.packs + 1) ** len(WILDS)
