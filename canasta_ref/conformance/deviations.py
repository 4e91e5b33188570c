"""Deviations of an engine found by generated games, grouped by what they are about, and masks for known ones.

A campaign of generated games goes on past a disagreement, so one missing feature must not drown the others: each
disagreement gets a key (the check that failed, the rule behind it when one is known, the kind of action at that
step), the campaign reports one group a key, and a known-failures file can mask a group by any of the three.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .runner import rule_matches

#: The fields a mask may give; a mask matches a deviation that agrees on every field it gives.
MASK_FIELDS = ("rule", "check", "action")


@dataclass(frozen=True)
class DeviationKey:
    """What a disagreement is about: the check that failed (``verdict``, ``legal``, ``view``, ``score``...), the
    rule behind it (None when neither side names one), and the kind of action it is about (for a verdict, the
    action sent; for a listing, the first action listed by one side only; None for a view or a score)."""

    check: str
    rule: str | None
    action: str | None

    def __str__(self) -> str:
        return f"{self.check} / {self.rule or 'no rule named'} / {self.action or 'any action'}"

    @property
    def slug(self) -> str:
        """The key as a file-name part: lower case, words joined by hyphens."""
        text = f"{self.check}-{self.rule or 'no-rule'}-{self.action or 'any'}"
        return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass(frozen=True)
class Mask:
    """A known deviation: the fields it gives (rule as an id or prefix, check, action kind) and why it is known."""

    reason: str
    rule: str | None = None
    check: str | None = None
    action: str | None = None

    def matches(self, key: DeviationKey) -> bool:
        if self.rule is not None and (key.rule is None or not rule_matches(self.rule, [key.rule])):
            return False
        if self.check is not None and self.check != key.check:
            return False
        return self.action is None or self.action == key.action

    def specificity(self) -> int:
        """How many fields the mask gives."""
        return sum(getattr(self, name) is not None for name in MASK_FIELDS)

    def describe(self) -> str:
        given = [f"{name} {getattr(self, name)}" for name in MASK_FIELDS if getattr(self, name) is not None]
        return ", ".join(given)

    def to_json(self) -> dict[str, str]:
        out = {name: getattr(self, name) for name in MASK_FIELDS if getattr(self, name) is not None}
        out["reason"] = self.reason
        return out


@dataclass
class Deviation:
    """One group of disagreements with the same key: where it was first seen, how often, and its shrunk scenario."""

    key: DeviationKey
    message: str
    first_game: int
    games: set[int] = field(default_factory=set)
    mask: Mask | None = None
    scenario_id: str | None = None
    scenario_yaml: str | None = None
    steps: int | None = None

    @property
    def status(self) -> str:
        return "known failure" if self.mask is not None else "failed"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rule": self.key.rule,
            "check": self.key.check,
            "action": self.key.action,
            "games": len(self.games),
            "first_game": self.first_game,
            "message": self.message,
            "status": self.status,
        }
        if self.scenario_id is not None:
            out["scenario"] = self.scenario_id
            out["steps"] = self.steps
        if self.mask is not None:
            out["known"] = self.mask.reason
        return out


class DeviationLog:
    """The distinct deviations of a campaign, in the order first seen, each matched against the masks once."""

    def __init__(self, masks: Sequence[Mask] = ()) -> None:
        self.masks = list(masks)
        self.groups: dict[DeviationKey, Deviation] = {}

    def add(self, key: DeviationKey, message: str, game: int) -> Deviation:
        group = self.groups.get(key)
        if group is None:
            # The most specific mask that matches: one naming the rule too beats one naming only the check.
            matching = [m for m in self.masks if m.matches(key)]
            mask = max(matching, key=Mask.specificity, default=None)
            group = self.groups[key] = Deviation(key, message, game, mask=mask)
        group.games.add(game)
        return group

    def unmasked(self) -> list[Deviation]:
        return [g for g in self.groups.values() if g.mask is None]

    def unused_masks(self) -> list[Mask]:
        """Masks no deviation matched: the deviation they name is gone (or never was), so the file is stale."""
        used = {id(g.mask) for g in self.groups.values() if g.mask is not None}
        return [m for m in self.masks if id(m) not in used]


def masks_from(entries: Sequence[Mapping[str, Any]]) -> list[Mask]:
    """Masks from checked mappings (see ``known.load_known``): each gives a reason and at least one field."""
    return [
        Mask(reason=str(e["reason"]), **{k: str(e[k]) for k in MASK_FIELDS if e.get(k) is not None}) for e in entries
    ]


__all__ = ["MASK_FIELDS", "Deviation", "DeviationKey", "DeviationLog", "Mask", "masks_from"]
