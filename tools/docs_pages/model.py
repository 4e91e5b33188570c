"""What every page is made from: the variants, the scenarios, which scenario fits which variant, and the links
between their pages. Scenarios are set up once per variant by the reference interpreter and kept."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from canasta_ref.conformance.explain import start_game
from canasta_ref.conformance.scenario import Scenario, load_scenarios
from canasta_ref.conformance.variants import applicable_variants, with_parameters
from canasta_ref.engine.actions import parse_action
from canasta_ref.engine.cards import card_name
from canasta_ref.engine.game import Game
from canasta_ref.engine.rules import Rules
from canasta_ref.errors import CanastaError, IllegalAction
from canasta_ref.spec import Variant, list_variants, load_variant

from .markup import code, param_anchor, rel, rule_anchor, section_anchor, source_anchor


@dataclass(frozen=True)
class Drawn:
    """A scenario's starting position as the reference interpreter sets it up, and who makes each step."""

    rules: Rules | None
    view: Mapping[str, Any] | None
    hands: tuple[tuple[str, ...], ...]
    actors: tuple[int | None, ...]
    error: str | None = None


class Site:
    """Everything the pages are made from: the variants, the scenarios and which scenario fits which variant."""

    def __init__(self) -> None:
        ids = list_variants()
        loaded = [load_variant(v) for v in ids]
        loaded.sort(key=lambda v: (v.lineage, v.id))
        self.variants: dict[str, Variant] = {v.id: v for v in loaded}
        self.scenarios: list[Scenario] = sorted(load_scenarios(), key=lambda s: s.id)
        self.applies: dict[str, list[str]] = {s.id: applicable_variants(s) for s in self.scenarios}
        self._drawn: dict[tuple[str, str], Drawn] = {}
        self._check_anchors()

    def _check_anchors(self) -> None:
        for variant in self.variants.values():
            seen: dict[str, str] = {}
            names = [(rule_anchor(c), c) for c in variant.clauses]
            names += [(param_anchor(p), p) for p in variant.parameters]
            names += [(source_anchor(s), s) for s in variant.sources]
            names += [(section_anchor(s), s) for s in variant.sections]
            for anchor, name in names:
                if anchor in seen and seen[anchor] != name:
                    raise SystemExit(
                        f"gen_docs: {variant.id}: {name!r} and {seen[anchor]!r} share the anchor #{anchor}"
                    )
                seen[anchor] = name

    # -- pages and links
    @staticmethod
    def variant_page(variant_id: str) -> str:
        return f"rules/{variant_id}.md"

    @staticmethod
    def example_page(scenario_id: str) -> str:
        return f"examples/{scenario_id}.md"

    def parent(self, variant: Variant) -> Variant | None:
        return self.variants.get(variant.lineage[-2]) if len(variant.lineage) > 1 else None

    def children_replacing(self, variant: Variant, rule_id: str) -> list[Variant]:
        return [
            v
            for v in self.variants.values()
            if self.parent(v) is variant and rule_id in v.clauses and v.clauses[rule_id].replaces == variant.id
        ]

    def rule_home(self, rule_id: str, preferred: Sequence[str] = ()) -> str | None:
        """The variant whose rulebook a link to ``rule_id`` goes to: the first preferred variant that has it."""
        for vid in [*preferred, *self.variants]:
            if vid in self.variants and rule_id in self.variants[vid].clauses:
                return vid
        return None

    def rule_link(self, from_page: str, rule_id: str, preferred: Sequence[str] = ()) -> str:
        home = self.rule_home(rule_id, preferred)
        if home is None:
            return code(rule_id)
        return f"[{code(rule_id)}]({rel(from_page, self.variant_page(home), rule_anchor(rule_id))})"

    def clause_links(self, from_page: str, *, hook: str | None = None, parameter: str | None = None) -> str:
        """Links to the clauses on ``hook`` and/or reading ``parameter``, in variant then spec order, each to the
        rulebook of the first variant that has it; "" if there are none."""
        ids = dict.fromkeys(
            c.id
            for v in self.variants.values()
            for c in v.clauses.values()
            if (hook is None or c.hook == hook) and (parameter is None or parameter in c.parameters)
        )
        return ", ".join(self.rule_link(from_page, r) for r in ids)

    def scenario_link(self, from_page: str, scenario_id: str) -> str:
        """A scenario id linked to its example page; plain code when no bundled scenario has that id."""
        if scenario_id not in self.applies:  # the bundled scenarios' ids
            return code(scenario_id)
        return f"[{code(scenario_id)}]({rel(from_page, self.example_page(scenario_id))})"

    def rule_section(self, rule_id: str) -> str | None:
        """The section of the rule where links to it go (None for a rule no variant has)."""
        home = self.rule_home(rule_id)
        return self.variants[home].clauses[rule_id].section if home else None

    def section_order(self) -> list[str]:
        """Every variant's sections in order of play, the root variants' first."""
        return list(dict.fromkeys(s for v in self.variants.values() for s in v.sections))

    def scenarios_for(self, variant: Variant, rule_id: str) -> list[Scenario]:
        return [s for s in self.scenarios if rule_id in s.rules and variant.id in self.applies[s.id]]

    # -- drawing a scenario
    def drawn(self, scenario: Scenario, variant_id: str) -> Drawn:
        key = (scenario.id, variant_id)
        if key not in self._drawn:
            self._drawn[key] = draw(scenario, variant_id)
        return self._drawn[key]


def draw(scenario: Scenario, variant_id: str) -> Drawn:
    """A scenario's starting position under ``variant_id``, and who makes each step (the live pages draw a typed
    scenario with it too)."""
    try:
        variant = with_parameters(variant_id, scenario.parameters)
        rules = Rules(variant)
        game = start_game(rules, scenario)
    except CanastaError as error:
        return Drawn(None, None, (), tuple(s.seat for s in scenario.steps), str(error).splitlines()[0])
    drawn = drawn_game(rules, game)
    actors: list[int | None] = []
    for step in scenario.steps:
        seat = step.seat if step.seat is not None else game.to_act
        actors.append(seat)
        with contextlib.suppress(IllegalAction, CanastaError):
            game.apply(parse_action(step.action), step.seat)
    return Drawn(drawn.rules, drawn.view, drawn.hands, tuple(actors))


def drawn_game(rules: Rules, game: Game) -> Drawn:
    """The table of ``game`` as it stands, seen by the player to act, every hand shown."""
    hands = tuple(tuple(card_name(c) for c in game.hand_of(seat)) for seat in range(rules.players))
    return Drawn(rules, game.view(game.to_act), hands, ())
