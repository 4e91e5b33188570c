"""Listings that count without enumerating (issue 40): in every bundled variant, including sequences (Samba,
Bolivia), feet (Hand and Foot) and special hands (Modern American), a small hand's ``count()`` is the length of
its listing, every index gives the action the listing gives there, and ``sample`` draws an action of the listing.

Hypothesis draws the kind of position of ``canasta_ref.scaling`` (cards, side opened or not, phase, seed); the hands
are kept small (11 to 14 cards) so that the listing can be enumerated in a few milliseconds.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_ref import Rules, list_variants, load_variant
from canasta_ref.scaling import scaling_position

VARIANTS = tuple(list_variants())
RULES = {name: Rules(load_variant(name)) for name in VARIANTS}

positions = st.tuples(
    st.sampled_from(VARIANTS),
    st.integers(min_value=11, max_value=14),
    st.booleans(),
    st.sampled_from(("draw", "play")),
    st.integers(min_value=0, max_value=50),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions, pick=st.randoms(use_true_random=False))
def test_count_index_and_sample_agree_with_the_listing(
    position: tuple[str, int, bool, str, int], pick: random.Random
) -> None:
    variant, cards, opened, phase, seed = position
    game = scaling_position(RULES[variant], cards, opened=opened, phase=phase, seed=seed)  # type: ignore[arg-type]
    legal_actions = game.legal_actions()
    listed = list(legal_actions)
    assert legal_actions.count() == len(listed) == len(legal_actions)
    assert len(set(listed)) == len(listed), "each action listed once"
    if not listed:
        return
    index = pick.randrange(len(listed))
    assert legal_actions[index] == listed[index]
    assert legal_actions[-1] == listed[-1]
    assert legal_actions.sample(pick) in listed


def test_every_bundled_variant_is_drawn_from() -> None:
    """The property covers the ten bundled variants, those with sequences, feet and special hands among them."""
    assert len(VARIANTS) == 10
    assert {"samba", "bolivia", "hand-and-foot", "modern-american"} <= set(VARIANTS)
