"""Scenarios a variant does not inherit, though it keeps every rule they cite.

A scenario written for a variant carries over to the variants extending it unless one changes a rule the
scenario cites or a hook it relies on as a whole (``variants.applies_to``). Now and then a scenario relies on
something it cannot cite: a rule the extending variant adds (Modern American's rule of five refuses a mixed meld
Classic's scenario lays after the opening), or a value it changes without a clause naming it. Such scenarios are
listed, with the reason, in ``conformance/not-inherited.yaml``: a mapping of variant ids to mappings of
scenario ids to one sentence each. A variant's list is also its descendants'. A test checks that every listed
scenario exists, would otherwise carry over, and does fail on the variant, so the list cannot go stale.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ..resources import not_inherited_file
from ..spec import list_variants
from ..spec.yamldoc import parse


@dataclass(frozen=True)
class NotInherited:
    """One scenario a variant does not inherit, and why."""

    variant: str
    scenario: str
    reason: str


@functools.cache
def not_inherited(path: Path | None = None) -> dict[tuple[str, str], NotInherited]:
    """The listed scenarios by (variant id, scenario id); none if the file is absent (a folder of
    scenarios of one's own need not have one). A malformed file raises a SpecError naming the line and column."""
    file = path or not_inherited_file()
    if not file.exists():
        return {}
    doc, errors = parse(file.read_text(encoding="utf-8"), str(file))
    if errors:
        raise errors[0]
    data = doc.data if doc.data is not None else {}
    if not isinstance(data, dict):
        raise doc.error((), "expected a mapping of variant ids to the scenarios each does not inherit")
    known = set(list_variants())
    out: dict[tuple[str, str], NotInherited] = {}
    for variant, scenarios in data.items():
        if variant not in known:
            raise doc.error(
                (variant,), f"unknown variant {variant!r}; expected one of: {', '.join(sorted(known))}", key=True
            )
        if not isinstance(scenarios, dict) or not scenarios:
            raise doc.error((variant,), "expected a mapping of scenario ids to the reason each is not inherited")
        for scenario, reason in scenarios.items():
            if not isinstance(reason, str) or not reason.strip():
                raise doc.error((variant, scenario), "expected a sentence saying why the scenario is not inherited")
            out[(variant, str(scenario))] = NotInherited(variant, str(scenario), reason.strip())
    return out


def excluded(scenario_id: str, lineage: tuple[str, ...], base_id: str) -> NotInherited | None:
    """The entry keeping ``scenario_id``, written for ``base_id``, from the variant of ``lineage`` (its ancestors
    and itself, oldest first), if one of the variants between them lists it."""
    listed = not_inherited()
    if not listed:
        return None
    for variant in lineage[lineage.index(base_id) + 1 :]:
        entry = listed.get((variant, scenario_id))
        if entry is not None:
            return entry
    return None


__all__ = ["NotInherited", "excluded", "not_inherited", "not_inherited_file"]
