"""Compiling a flattened variant's clauses, once its final parameter values are known.

Inherited clauses are compiled again for each child, because the compiler may fold parameter values in.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from ..engine.hooks import HOOKS
from ..errors import SpecError
from ..lang import compile_expression
from .layers import Flat
from .model import Clause, ClauseEntry, Parameter
from .placeholders import word_entry_errors


def compile_clauses(flat: Flat) -> tuple[dict[str, Clause], list[SpecError]]:
    """Every clause of ``flat`` compiled against its hook's variables and the variant's parameters."""
    parameters = parameter_values(flat.parameters)
    clauses: dict[str, Clause] = {}
    errors: list[SpecError] = []
    for entry in flat.clauses.values():
        entry, wording_errors = word_entry_errors(entry, flat.parameters)
        errors += [_with_yaml_line(error, flat) for error in wording_errors]
        try:
            clauses[entry.id] = compile_clause(entry, parameters)
        except SpecError as error:
            if not _uses_broken_parameter(entry.expression, flat):
                errors.append(_with_yaml_line(error, flat))
    return clauses, errors


def parameter_values(parameters: Mapping[str, Parameter]) -> dict[str, tuple[str, Any]]:
    """name -> (type, value) of every parameter, as the compiler takes them."""
    return {name: (param.type, param.value) for name, param in parameters.items()}


def compile_clause(entry: ClauseEntry, parameters: Mapping[str, tuple[str, Any]]) -> Clause:
    """``entry`` (or a clause, compiled again) compiled against its hook's variables and ``parameters``;
    raises SpecError located at the expression in its file."""
    compiled = compile_expression(
        entry.expression,
        variables=HOOKS[entry.hook].variables,
        parameters=parameters,
        expect="int" if entry.kind == "value" else "bool",
        origin=entry.origin,
    )
    written = {field.name: getattr(entry, field.name) for field in dataclasses.fields(ClauseEntry)}
    return Clause(
        **written,
        evaluate=compiled.fn,
        python=compiled.python,
        reads=compiled.reads,
        parameters=tuple(sorted(compiled.parameters)),
    )


def _uses_broken_parameter(text: str, flat: Flat) -> bool:
    """Whether ``text`` names a parameter whose value was already reported wrong (and stood in for)."""
    return any(re.search(rf"\b{re.escape(name)}\b", text) for name in flat.broken)


def _with_yaml_line(error: SpecError, flat: Flat) -> SpecError:
    """The compiler's error with the YAML file's own line as its snippet, so the caret lines up."""
    location = error.location
    doc = flat.documents.get(location.file) if location else None
    if location is None or doc is None:
        return error
    return doc.error_at(location, error.reason)
