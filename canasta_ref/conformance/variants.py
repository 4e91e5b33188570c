"""Which variants a scenario applies to (through ``extends``), and variants with parameters changed."""

from __future__ import annotations

import functools
import json
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import CanastaError
from ..spec import Variant, list_variants, load_variant
from .scenario import Scenario

# Parameters that decide the deal: a scenario dealt from a deck order only carries over when these agree.
DEAL_PARAMETERS = ("players", "teams", "packs", "jokers_per_pack", "cards_dealt", "draw_count")
SEAT_PARAMETERS = ("players", "teams")


def _same_rule(rule: str, variant: Variant, base: Variant) -> bool:
    mine, theirs = variant.clauses.get(rule), base.clauses.get(rule)
    if mine is None or theirs is None:
        return False
    if " ".join(mine.expression.split()) != " ".join(theirs.expression.split()) or mine.hook != theirs.hook:
        return False
    return all(variant.param(p) == base.param(p) for p in mine.parameters)


def applies_to(scenario: Scenario, variant_id: str) -> bool:
    """True if ``variant_id`` is a listed variant, or extends one without changing what the scenario relies on."""
    variant = load_variant(variant_id)
    for base_id in scenario.variants:
        if base_id == variant_id:
            return True
        if base_id not in variant.lineage:
            continue
        base = load_variant(base_id)
        fixed = DEAL_PARAMETERS if "deck" in scenario.setup else SEAT_PARAMETERS
        if any(variant.param(p) != base.param(p) for p in fixed):
            continue
        if all(_same_rule(rule, variant, base) for rule in scenario.rules):
            return True
    return False


def applicable_variants(scenario: Scenario) -> list[str]:
    return [v for v in list_variants() if applies_to(scenario, v)]


def with_parameters(variant_id: str, overrides: Mapping[str, Any]) -> Variant:
    """``variant_id`` with some parameters set otherwise, loaded as a child spec (so it is checked like any)."""
    if not overrides:
        return load_variant(variant_id)
    return _derived(variant_id, json.dumps(dict(overrides), sort_keys=True))


@functools.cache
def _derived(variant_id: str, overrides_json: str) -> Variant:
    overrides = json.loads(overrides_json)
    base = load_variant(variant_id)
    unknown = sorted(set(overrides) - set(base.parameters))
    if unknown:
        raise CanastaError(f"unknown parameter {unknown[0]!r} for {variant_id}; known: {', '.join(base.parameters)}")
    name = f"{variant_id}-with-" + "-".join(sorted(overrides)).replace("_", "-")
    folder = Path(tempfile.mkdtemp(prefix="canasta-ref-"))
    lines = ["spec: 1", f"id: {name}", f"name: {variant_id} with {', '.join(sorted(overrides))} changed"]
    lines += [f"extends: {variant_id}", "parameters:"]
    for key, value in sorted(overrides.items()):
        lines.append(f"  {key}: {{value: {json.dumps(value)}}}")
    file = folder / f"{name}.yaml"
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_variant(file, search_path=[Path(load_variant(variant_id).file).parent])
