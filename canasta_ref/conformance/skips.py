"""What an engine cannot run at all, and why: a variant it does not play, a set-up, a parameter or an action
its version or features cannot say."""

from __future__ import annotations

from ..engine.actions import parse_action
from .case_setup import case_rules
from .engines import EngineInfo
from .scenario import Scenario
from .session import (
    VARIANT_NEEDS,
    action_newer_than,
    position_content_newer_than,
    variant_newer_than,
)
from .variants import reference_rules

#: Protocol 2's optional features, as a message names them, and what a step of each action type does.
FEATURE_NAMES = {
    "ask": "partner permission",
    "end": "ending a hand without a discard",
    "pass": "passing the discard",
    "declare": "special hands",
}
ACTION_VERBS = {
    "ask": "asks",
    "yes": "answers yes",
    "no": "answers no",
    "end": "ends the hand",
    "pass": "passes",
    "declare": "declares a special hand",
}


#: What an engine speaking a version older than 6 (session.NAMED_MELDS_SINCE) cannot do: name a meld.
UNNAMED = "whose actions cannot name a meld"


def unnamed_melds(protocol: int, since: int, *variants: str) -> str:
    """Why an engine speaking an older version is not run in variants that need a newer one (``since``, as
    ``session.variant_newer_than`` says): e.g. "the engine speaks protocol 5, whose actions cannot name a meld, as
    samba's must (version 6 added it)"."""
    if len(variants) == 1:
        whose = f"as {variants[0]}'s must"
    else:
        whose = f"as those of {', '.join(variants[:-1])} and {variants[-1]} must"
    cannot = VARIANT_NEEDS.get(since, UNNAMED)
    return f"the engine speaks protocol {protocol}, {cannot}, {whose} (version {since} added it)"


def up_front_skip(info: EngineInfo, scenario: Scenario, variant: str) -> str | None:
    """Why the engine cannot run the scenario at all (None when it can try): a variant it does not play (or its
    version cannot), a set-up it cannot make, parameters it cannot change, an action its version cannot write or
    of a feature it lacks."""
    if variant not in info.variants:
        return f"the engine does not play {variant}"
    since = variant_newer_than(info.protocol, case_rules(scenario, variant))
    if since:
        return unnamed_melds(info.protocol, since, variant)
    if scenario.uses_position and not info.can("setup_position"):
        return "the engine cannot set up a written-out position"
    since, newer = _newer_content(info.protocol, scenario, variant)
    if newer:
        return (
            f"the engine speaks protocol {info.protocol}, whose set-ups have no {' or '.join(newer)} "
            f"(version {since} added it)"
        )
    if scenario.parameters and not info.can("parameters"):
        return "the engine cannot change parameters: " + ", ".join(scenario.parameters)
    return newer_step(info, scenario) or lacking_step(info, scenario)


def newer_step(info: EngineInfo, scenario: Scenario) -> str | None:
    """E.g. "the engine speaks protocol 5, whose actions cannot name a meld: step 2 `combine @1 @2` (version 6
    added it)" (None when every step's action is one of the engine's version)."""
    for number, step in enumerate(scenario.steps, 1):
        since = action_newer_than(info.protocol, parse_action(step.action))
        if since:
            where = f"step {number} `{step.action}`"
            return f"the engine speaks protocol {info.protocol}, {UNNAMED}: {where} (version {since} added it)"
    return None


def _newer_content(protocol: int, scenario: Scenario, variant: str) -> tuple[int, list[str]]:
    """What the scenario's set-up says that ``protocol`` cannot, and the version that added it (see
    ``session.position_content_newer_than``): its written-out position, or the fields of a dealt set-up."""
    written = dict(scenario.setup["position"]) if scenario.uses_position else {}
    if "hand_number" in scenario.setup:
        written["hand_number"] = scenario.setup["hand_number"]
    return position_content_newer_than(protocol, reference_rules(variant), written)


def position_fields(scenario: Scenario) -> set[str]:
    """The fields of the written-out position a scenario sets up (its set-up's team scores go in it too)."""
    if not scenario.uses_position:
        return set()
    return set(scenario.setup["position"]) | ({"team_scores"} if "team_scores" in scenario.setup else set())


def feature_lacking(info: EngineInfo, action_type: str) -> str | None:
    """The optional feature the engine lacks that an action of this type belongs to, as a message names it."""
    name = info.lacking_feature(action_type)
    return None if name is None else FEATURE_NAMES.get(name, f"'{name}'")


def lacking_step(info: EngineInfo, scenario: Scenario) -> str | None:
    """E.g. "the engine has no partner permission: step 3 asks" (None when every step's action is one it has)."""
    for number, step in enumerate(scenario.steps, 1):
        kind = parse_action(step.action).kind
        feature = feature_lacking(info, kind)
        if feature:
            return f"the engine has no {feature}: step {number} {ACTION_VERBS.get(kind, kind)}"
    return None
