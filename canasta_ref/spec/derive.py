"""A variant with some parameters set otherwise, derived in memory (for scenarios, disputes and mutants).

The values are checked as a spec file's would be, and only the clauses that read a changed parameter are
compiled again (the compiler folds parameter values into the code).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..errors import SpecError
from ..hooks import HOOKS
from ..lang import Origin, compile_expression
from .model import Clause, Variant
from .params import value_problems
from .wording import did_you_mean


def derive(variant: Variant, overrides: Mapping[str, Any]) -> Variant:
    """``variant`` with ``overrides`` applied; raises SpecError naming a bad parameter or value."""
    if not overrides:
        return variant
    parameters = dict(variant.parameters)
    for name, value in overrides.items():
        param = parameters.get(name)
        if param is None:
            hint = did_you_mean(name, list(parameters))
            raise SpecError(f"{variant.id} has no parameter {name!r}{hint}")
        problems = value_problems(name, param.type, value, param.options)
        if problems:
            raise SpecError(problems[0][1])
        parameters[name] = dataclasses.replace(param, value=value, set_in=f"{variant.id} (overridden)")
    values = {name: (param.type, param.value) for name, param in parameters.items()}
    clauses = {
        rule: _recompiled(clause, values) if set(clause.parameters) & set(overrides) else clause
        for rule, clause in variant.clauses.items()
    }
    suffix = ",".join(f"{name}={overrides[name]}" for name in sorted(overrides))
    return dataclasses.replace(
        variant,
        id=f"{variant.id}+{suffix}",
        name=f"{variant.name} with {suffix.replace(',', ', ')}",
        parameters=parameters,
        clauses=clauses,
    )


def _recompiled(clause: Clause, values: Mapping[str, tuple[str, Any]]) -> Clause:
    location = clause.location
    origin = Origin(location.file if location else "<derived>", location.line if location else 1, 1)
    compiled = compile_expression(
        clause.expression,
        variables=HOOKS[clause.hook].variables,
        parameters=values,
        expect="int" if clause.kind == "value" else "bool",
        origin=origin,
    )
    return dataclasses.replace(clause, evaluate=compiled.fn, python=compiled.python)
