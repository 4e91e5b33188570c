"""Which variants a scenario applies to (through ``extends``), and variants with parameters changed."""

from __future__ import annotations

from ..engine.rules import Rules, rules_for
from ..spec import Variant, list_variants, load_variant
from .inheritance import excluded
from .scenario import Scenario
from .setup import with_parameters

# Parameters that decide the deal: a scenario dealt from a deck order only carries over when these agree.
DEAL_PARAMETERS = ("players", "teams", "packs", "jokers_per_pack", "cards_dealt", "draw_count")
SEAT_PARAMETERS = ("players", "teams")
# A scenario set up from a position that draws from the stock relies on how many cards a draw takes.
DRAW_PARAMETERS = ("draw_count",)


def _fixed_parameters(scenario: Scenario) -> tuple[str, ...]:
    """The parameters a variant must share with the scenario's variant for the scenario's answers to carry over."""
    if "deck" in scenario.setup:
        return DEAL_PARAMETERS
    if any(step.action.split()[0] == "draw" for step in scenario.steps):
        return SEAT_PARAMETERS + DRAW_PARAMETERS
    return SEAT_PARAMETERS


# Hooks that decide the deal from a deck order (which upcards are covered or freeze, when dealt bonus cards are laid
# out, whether an upcard is turned, which cards are set aside as talons and where the turn card lies): a dealt
# scenario relies on all their clauses, cited or not.
DEAL_HOOKS = (
    "deck.packs",
    "deck.jokers",
    "deal.hand_size",
    "deal.foot_size",
    "deal.no_upcard",
    "bonus_draw.from_talons",
    "bonus_draw.count",
    "stock.turn_card_depth",
    "upcard.buried",
    "upcard.turn_again",
    "upcard.freezes",
    "bonus_card.at_first_turn",
)
# A scenario that expects a score relies on every score clause, cited or not.
SCORE_HOOKS = ("score.hand", "score.meld", "score.held")
# A scenario that lays cards relies on what decides which meld they make or join, cited or not: whether a rank's
# cards merge into one meld, and whether cards of several ranks make a sequence.
MELD_IDENTITY_HOOKS = ("meld.merge_same_rank", "meld.sequence")
# A scenario in which a player goes out relies on every condition for going out, cited or not.
GOING_OUT_HOOKS = ("go_out.allowed", "meld.must_complete")
#: The kinds of action that lay cards on melds.
_LAYING = ("meld", "take", "combine")


def reference_rules(variant_id: str) -> Rules:
    """The reference's rules of a bundled variant, shared (building them compiles the spec and its tables)."""
    return rules_for(load_variant(variant_id))


def _same_rule(rule: str, variant: Variant, base: Variant) -> bool:
    mine, theirs = variant.clauses.get(rule), base.clauses.get(rule)
    if mine is None or theirs is None:
        return False
    if " ".join(mine.expression.split()) != " ".join(theirs.expression.split()) or mine.hook != theirs.hook:
        return False
    return all(variant.param(p) == base.param(p) for p in mine.parameters)


def _same_hook(hook: str, variant: Variant, base: Variant) -> bool:
    """Whether the two variants attach the same clauses, with the same meaning, to ``hook``."""
    mine = [c.id for c in variant.by_hook(hook)]
    if mine != [c.id for c in base.by_hook(hook)]:
        return False
    return all(_same_rule(rule, variant, base) for rule in mine)


def _relied_hooks(scenario: Scenario) -> tuple[str, ...]:
    """The hooks whose every clause a scenario relies on, beyond the rules it cites."""
    hooks: tuple[str, ...] = DEAL_HOOKS if "deck" in scenario.setup else ()
    if any(step.expect.score is not None for step in scenario.steps):
        hooks += SCORE_HOOKS
    if any(step.action.split()[0].lower() in _LAYING for step in scenario.steps if step.action.split()):
        hooks += MELD_IDENTITY_HOOKS
    if any(step.expect.end == "went out" for step in scenario.steps):
        hooks += GOING_OUT_HOOKS
    return hooks


def applies_to(scenario: Scenario, variant_id: str) -> bool:
    """True if ``variant_id`` is a listed variant, or extends one without changing what the scenario relies on
    (and without listing it in ``conformance/not-inherited.yaml``, see ``inheritance``)."""
    variant = load_variant(variant_id)
    for base_id in scenario.variants:
        if base_id == variant_id:
            return True
        if base_id not in variant.lineage:
            continue
        base = load_variant(base_id)
        if any(variant.param(p) != base.param(p) for p in _fixed_parameters(scenario)):
            continue
        if not all(_same_hook(hook, variant, base) for hook in _relied_hooks(scenario)):
            continue
        if all(_same_rule(rule, variant, base) for rule in scenario.rules):
            return excluded(scenario.id, variant.lineage, base_id) is None
    return False


def applicable_variants(scenario: Scenario) -> list[str]:
    return [v for v in list_variants() if applies_to(scenario, v)]


__all__ = [
    "DEAL_PARAMETERS",
    "DRAW_PARAMETERS",
    "SEAT_PARAMETERS",
    "applicable_variants",
    "applies_to",
    "reference_rules",
    "with_parameters",
]
