"""Compiling a flattened variant's clauses, once its final parameter values are known.

Inherited clauses are compiled again for each child, because the compiler may fold parameter values in.
"""

from __future__ import annotations

import re

from ..errors import SpecError
from ..hooks import HOOKS
from ..lang import Origin, compile_expression
from .layers import Flat
from .model import Clause


def compile_clauses(flat: Flat) -> tuple[dict[str, Clause], list[SpecError]]:
    """Every clause of ``flat`` compiled against its hook's variables and the variant's parameters."""
    parameters = {name: (param.type, param.value) for name, param in flat.parameters.items()}
    clauses: dict[str, Clause] = {}
    errors: list[SpecError] = []
    for pending in flat.clauses.values():
        text = pending.expression
        origin = Origin(pending.location.file, text.line, text.column, text.indent)
        try:
            compiled = compile_expression(
                text.text,
                variables=HOOKS[pending.hook].variables,
                parameters=parameters,
                expect="int" if pending.kind == "value" else "bool",
                origin=origin,
            )
        except SpecError as error:
            if not _uses_broken_parameter(text.text, flat):
                errors.append(_with_yaml_line(error, flat))
            continue
        clauses[pending.id] = Clause(
            id=pending.id,
            section=pending.section,
            title=pending.title,
            text=pending.text,
            sources=pending.sources,
            hook=pending.hook,
            kind=pending.kind,
            expression=text.text,
            evaluate=compiled.fn,
            python=compiled.python,
            variables=compiled.variables,
            message=pending.message,
            parameters=tuple(sorted(compiled.parameters)),
            declared_in=pending.declared_in,
            replaces=pending.replaces,
            location=pending.location,
        )
    return clauses, errors


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
