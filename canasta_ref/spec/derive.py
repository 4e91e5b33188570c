"""A variant with some parameters set otherwise, derived in memory (for scenarios, disputes and mutants).

The values are checked as a spec file's would be, and only the clauses that read a changed parameter are
compiled again (the compiler folds parameter values into the code).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..errors import SpecError
from .clauses import compile_clause, parameter_values
from .consistency import consistency_problems
from .model import Clause, Variant
from .params import value_problems
from .placeholders import referenced, word_entry
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
        problems = value_problems(name, param.type, value, param.options, param.bounds)
        if problems:
            raise SpecError(problems[0][1])
        if value != param.value:  # a parameter set to its own value keeps its sources: nothing was overridden
            parameters[name] = dataclasses.replace(param, value=value, set_in=f"{variant.id} (overridden)")
    values = parameter_values(parameters)
    clauses = {
        rule: compile_clause(word_entry(clause, parameters), values) if _depends(clause, overrides) else clause
        for rule, clause in variant.clauses.items()
    }
    clashes = consistency_problems(parameters, clauses, variant.lineage)
    if clashes:
        raise SpecError(clashes[0][1])
    suffix = ",".join(f"{name}={overrides[name]}" for name in sorted(overrides))
    return dataclasses.replace(
        variant,
        id=f"{variant.id}+{suffix}",
        name=f"{variant.name} with {suffix.replace(',', ', ')}",
        parameters=parameters,
        clauses=clauses,
    )


def _depends(clause: Clause, overrides: Mapping[str, Any]) -> bool:
    """Whether ``clause``'s code or its texts read one of the overridden parameters."""
    written = clause.written
    texts = [] if written is None else [written.title, written.text, written.message or ""]
    named = set(clause.parameters).union(*(referenced(text) for text in texts))
    return bool(named & set(overrides))
