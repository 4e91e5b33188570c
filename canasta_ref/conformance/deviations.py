"""Deviations of an engine found by generated games, grouped by what they are about, and masks for known ones.

A campaign of generated games goes on past a disagreement, so one missing feature must not drown the others: each
disagreement gets a key (the check that failed, the rule the check can name, the kind of action a verdict is about,
and what differed when no rule is named), the campaign reports one group a key, and a known-failures file can mask
a group by any of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .runner import rule_matches

#: The fields a mask may give; a mask matches a deviation that agrees on every field it gives.
MASK_FIELDS = ("rule", "check", "action", "cause")


@dataclass(frozen=True)
class DeviationKey:
    """What a disagreement is about: the check that failed (``verdict``, ``legal``, ``view``, ``score``...), the
    rule the check can name (the reference's refusal, or the engine's refusal by a rule; None otherwise), the kind
    of action a verdict is about (None for a listing, a view or a score), and, when no rule is named, the cause:
    what differed (``causes``: "legal: the listing differs", "view: seat numbering"...)."""

    check: str
    rule: str | None
    action: str | None
    cause: str | None = None

    def __str__(self) -> str:
        return f"{self.check} / {self.rule or self.cause or 'no rule named'} / {self.action or 'any action'}"

    @property
    def label(self) -> str:
        """What the deviation is grouped under for people: its rule, else its cause."""
        return self.rule or self.cause or f"{self.check}: no rule named"

    @property
    def slug(self) -> str:
        """The key as a file-name part: lower case, words joined by hyphens."""
        what = self.rule or (self.cause or "no rule").split(":", 1)[-1]
        text = f"{self.check}-{what}-{self.action or 'any'}"
        return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass(frozen=True)
class Mask:
    """A known deviation: the fields it gives (rule as an id or prefix, check, action kind) and why it is known."""

    reason: str
    rule: str | None = None
    check: str | None = None
    action: str | None = None
    cause: str | None = None

    def matches(self, key: DeviationKey) -> bool:
        if self.rule is not None and (key.rule is None or not rule_matches(self.rule, [key.rule])):
            return False
        if self.check is not None and self.check != key.check:
            return False
        if self.cause is not None and self.cause != key.cause:
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
    #: The games that show it, by variant.
    by_variant: dict[str, set[int]] = field(default_factory=dict)
    mask: Mask | None = None
    scenario_id: str | None = None
    scenario_yaml: str | None = None
    steps: int | None = None

    @property
    def status(self) -> str:
        return "known failure" if self.mask is not None else "failed"

    def games_by_variant(self) -> dict[str, set[int]]:
        """The games that show it, by variant ("-" when the run did not say which variant: an older report)."""
        return self.by_variant or {"-": self.games}

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
        if self.key.cause is not None:
            out["cause"] = self.key.cause
        if self.by_variant:
            out["variants"] = {variant: len(games) for variant, games in self.by_variant.items()}
        if self.scenario_id is not None:
            out["scenario"] = self.scenario_id
            out["steps"] = self.steps
            if self.scenario_yaml is not None:
                out["scenario_yaml"] = self.scenario_yaml
        if self.mask is not None:
            out["known"] = self.mask.reason
        return out


def best_mask(masks: Sequence[Mask], key: DeviationKey) -> Mask | None:
    """The most specific mask that matches ``key``: one naming the rule too beats one naming only the check."""
    return max((mask for mask in masks if mask.matches(key)), key=Mask.specificity, default=None)


class DeviationLog:
    """The distinct deviations of a campaign, in the order first seen, each matched against the masks once."""

    def __init__(self, masks: Sequence[Mask] = ()) -> None:
        self.masks = list(masks)
        self.groups: dict[DeviationKey, Deviation] = {}

    def add(self, key: DeviationKey, message: str, game: int, variant: str | None = None) -> Deviation:
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = Deviation(key, message, game, mask=best_mask(self.masks, key))
        group.games.add(game)
        if variant is not None:
            group.by_variant.setdefault(variant, set()).add(game)
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
