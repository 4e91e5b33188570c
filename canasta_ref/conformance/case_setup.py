"""The rules a case runs under, and the protocol requests that set it up and play its steps."""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action
from ..engine.rules import Rules, rules_for
from ..errors import CanastaError
from .scenario import Scenario
from .setup import setup_request
from .variants import reference_rules, with_parameters


def case_rules(scenario: Scenario, variant: str) -> Rules:
    """The rules a scenario runs under in ``variant``: the variant with the scenario's parameters set (the plain
    variant if they cannot be: the engine's answer to the set-up then says what is wrong with them)."""
    if scenario.parameters:
        try:
            return rules_for(with_parameters(variant, scenario.parameters))
        except CanastaError:
            pass
    return reference_rules(variant)


def apply_request(action: Action, seat: int | None = None) -> dict[str, Any]:
    """The protocol's apply request: ``action`` for ``seat`` (``None``: the seat to act)."""
    message: dict[str, Any] = {"cmd": "apply", "action": action.to_json()}
    if seat is not None:
        message["seat"] = seat
    return message


def setup_message(scenario: Scenario, variant: str, rules: Rules | None = None) -> dict[str, Any]:
    """The protocol's setup request for a scenario under ``variant`` (a seed dealt by ``rules``, by default the
    variant with the scenario's parameters)."""
    return setup_request(scenario.setup, variant, scenario.parameters, rules or case_rules(scenario, variant))
