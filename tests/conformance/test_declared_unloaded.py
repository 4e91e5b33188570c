"""``findings.declared_differences`` reads a variant's rules only where the engine fixes one of its parameters: the
reference's own engine fixes none, and a run of one variant need not load the rules of all ten to say so."""

from __future__ import annotations

import dataclasses

import pytest

from canasta_ref.conformance import findings
from canasta_ref.conformance.engines import InProcessEngine
from canasta_ref.conformance.variants import reference_rules
from canasta_ref.spec import list_variants


def _loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The variants whose rules ``declared_differences`` asks for, noted as it asks."""
    asked: list[str] = []

    def noted(variant: str) -> object:
        asked.append(variant)
        return reference_rules(variant)

    monkeypatch.setattr(findings, "reference_rules", noted)
    return asked


def test_an_engine_that_fixes_nothing_declares_nothing_and_loads_no_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _loads(monkeypatch)
    info = InProcessEngine().info
    assert set(info.variants) >= set(list_variants()) and not info.fixed_parameters
    assert findings.declared_differences(info) == {}
    assert asked == []


def test_a_fixed_parameter_is_declared_from_its_variants_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _loads(monkeypatch)
    spec = reference_rules("classic").variant
    name = next(iter(spec.parameters))
    other = {"fixed": "another value"}
    info = dataclasses.replace(InProcessEngine().info, fixed_parameters={"classic": {name: other}})
    assert findings.declared_differences(info) == {"classic": {name: (other, spec.param(name))}}
    assert asked == ["classic"]
